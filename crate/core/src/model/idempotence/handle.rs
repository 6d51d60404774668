//! The producer client's handlers: a send, a message delivered or lost, the leader's answer, an
//! error and the retry or epoch bump it leads to, a timeout, a restart, and the script's raw
//! writes, time passing and the leaders' expiration check.

use super::*;

impl Sim {
    pub(super) fn take_message(&mut self, id: usize) -> Message {
        let i = self.wire.iter().position(|m| m.id == id).expect("validated");
        self.wire.remove(i)
    }

    pub(super) fn handle_send(&mut self, producer: usize, partition: usize, values: Vec<String>) {
        let id = self.batches.len() + 1;
        self.batches.push(SimBatch {
            id,
            producer,
            partition,
            values,
            created_ms: self.cluster.now_ms,
            producer_id: -1,
            producer_epoch: -1,
            base_sequence: -1,
            attempts: 0,
            state: BatchState::Queued,
            bytes: Vec::new(),
        });
        let n = self.batches[id - 1].values.len();
        self.event(EventKind::Send { records: n as u32 }, Some(producer), Some(partition), Some(id));
        self.producers[producer].queue.push_back(id);
        self.drain(producer);
    }

    /// `Sender` / `RecordAccumulator.drain`: send queued batches, in queue order, while
    /// the connection has free in-flight slots. A batch that already carries a sequence
    /// (a retry) goes out only when no other batch of its partition is in flight
    /// (`shouldStopDrainBatchesForPartition`: "this effectively reduces our in flight
    /// request count to 1"), and nothing new is drained for a partition behind a waiting
    /// retry or while an epoch bump is pending.
    pub(super) fn drain(&mut self, producer: usize) {
        if self.producers[producer].epoch_bump_pending {
            return;
        }
        let mut blocked: Vec<usize> = Vec::new();
        let mut i = 0;
        while i < self.producers[producer].queue.len() {
            if self.in_flight(producer) >= self.producers[producer].config.max_in_flight {
                return;
            }
            let b = self.producers[producer].queue[i];
            let part = self.batches[b - 1].partition;
            let is_retry = self.batches[b - 1].base_sequence >= 0;
            let part_in_flight =
                self.open_batches().iter().any(|o| o.producer == producer && o.partition == part && o.state == BatchState::InFlight);
            // New batches wait while the partition has an unresolved sequence, and while
            // batches sent under an older epoch are unfinished (`hasStaleProducerIdAndEpoch`).
            let prod = &self.producers[producer];
            let unresolved = !is_retry && prod.unresolved.contains(&part);
            let stale = prod.seqs.get(&part).is_some_and(|e| (e.producer_id, e.epoch) != (prod.producer_id, prod.epoch));
            let stale_wait = !is_retry && stale && self.has_unfinished_sent(producer, part);
            if blocked.contains(&part) || (is_retry && part_in_flight) || unresolved || stale_wait {
                blocked.push(part);
                i += 1;
                continue;
            }
            self.producers[producer].queue.remove(i);
            let prod = &mut self.producers[producer];
            let batch = &mut self.batches[b - 1];
            if prod.config.idempotence && batch.base_sequence < 0 {
                let fresh = PartSeq { producer_id: prod.producer_id, epoch: prod.epoch, next: 0, last_acked: -1 };
                let entry = prod.seqs.entry(batch.partition).or_insert(PartSeq { next: prod.config.start_sequence, ..fresh });
                if (entry.producer_id, entry.epoch) != (fresh.producer_id, fresh.epoch) {
                    // `maybeUpdateProducerIdAndEpoch`: the old epoch's batches are done,
                    // so this partition starts again at 0 under the new epoch.
                    *entry = fresh;
                }
                batch.base_sequence = entry.next;
                entry.next = crate::sequence::increment(entry.next, batch.values.len() as i32);
                batch.producer_id = prod.producer_id;
                batch.producer_epoch = prod.epoch;
            }
            self.encode(b);
            self.transmit(b);
        }
    }

    /// The batch's bytes for this attempt: encoded at the first send; afterwards only the
    /// producer id, epoch and base sequence can have changed (a re-sequenced retry), and
    /// those header fields and the CRC are rewritten in place.
    pub(super) fn encode(&mut self, b: usize) {
        let batch = &mut self.batches[b - 1];
        if batch.bytes.is_empty() {
            batch.bytes = batch_bytes(batch);
        } else {
            let (pid, epoch, seq) = (batch.producer_id, batch.producer_epoch, batch.base_sequence);
            let v = Batch::new_unchecked(&mut batch.bytes[..]);
            if (v.producer_id(), v.producer_epoch(), v.base_sequence()) != (pid, epoch, seq) {
                let buf = v.into_inner();
                buf[field::PRODUCER_ID].copy_from_slice(&pid.to_be_bytes());
                buf[field::PRODUCER_EPOCH].copy_from_slice(&epoch.to_be_bytes());
                buf[field::BASE_SEQUENCE].copy_from_slice(&seq.to_be_bytes());
                Batch::new_unchecked(buf).fill_crc();
            }
        }
    }

    pub(super) fn transmit(&mut self, b: usize) {
        let producer = self.batches[b - 1].producer;
        let partition = self.batches[b - 1].partition;
        let conn = self.producers[producer].conn;
        let batch = &mut self.batches[b - 1];
        batch.attempts += 1;
        batch.state = BatchState::InFlight;
        let attempt = batch.attempts;
        let (pid, epoch, seq, n) = (batch.producer_id, batch.producer_epoch, batch.base_sequence, batch.values.len() as i32);
        let id = self.next_message;
        self.next_message += 1;
        let leader_epoch = self.cluster.partitions[partition].leader_epoch;
        if !self.dead_conns.contains(&conn) {
            let header = (pid, epoch, seq);
            self.wire.push(Message { id, batch: b, attempt, conn, kind: MessageKind::Request, delayed: false, leader_epoch, header });
        }
        let kind = EventKind::Request { producer_id: pid, epoch, base_sequence: seq, records: n, request: id as u32 };
        self.event(kind, Some(producer), Some(partition), Some(b));
        self.tag(attempt, false, conn);
    }

    pub(super) fn handle_deliver(&mut self, id: usize) {
        let m = self.take_message(id);
        let b = m.batch;
        let producer = self.batches[b - 1].producer;
        let partition = self.batches[b - 1].partition;
        match m.kind {
            MessageKind::Request => {
                let part = &mut self.cluster.partitions[partition];
                let current = &self.batches[b - 1].bytes;
                let decision = if m.leader_epoch != part.leader_epoch {
                    Verdict::NotLeader
                } else {
                    // The bytes this attempt carried: the batch's own, unless it has been
                    // re-sequenced since (then a copy with the attempt's header and CRC).
                    let sent = with_header(current, m.header);
                    let bytes = sent.as_deref().unwrap_or(current);
                    let v = part.append_client_verdict(bytes);
                    if let Some(log) = self.leader_log.as_mut() {
                        log.push(LeaderEvent::Produce { event: self.trace.len(), partition, bytes: bytes.to_vec(), verdict: v });
                    }
                    v
                };
                self.event(EventKind::Decision(decision), Some(producer), Some(partition), Some(b));
                self.tag(m.attempt, false, m.conn);
                if !self.maybe_hold(&m, decision, partition) {
                    self.respond(&m, decision, partition);
                }
            }
            MessageKind::Response(decision) => {
                let from = self.trace.len();
                self.handle_response(b, m.attempt, decision);
                // The client's reactions to this response are about it.
                for e in &mut self.trace[from..] {
                    if e.batch() == Some(b) && e.message().is_none() && matches!(e.kind, EventKind::Ack { .. } | EventKind::Retry { .. } | EventKind::Fail { .. }) {
                        e.set_message(m.attempt, true, m.conn);
                    }
                }
            }
        }
    }

    /// Queue the response to request `m` on its connection (unless that connection is gone).
    pub(super) fn respond(&mut self, m: &Message, decision: Verdict, partition: usize) {
        if self.dead_conns.contains(&m.conn) {
            return;
        }
        let id = self.next_message;
        self.next_message += 1;
        let leader_epoch = self.cluster.partitions[partition].leader_epoch;
        self.wire.push(Message {
            id,
            batch: m.batch,
            attempt: m.attempt,
            conn: m.conn,
            kind: MessageKind::Response(decision),
            delayed: false,
            leader_epoch,
            header: m.header,
        });
    }

    pub(super) fn handle_response(&mut self, b: usize, attempt: u32, d: Verdict) {
        let producer = self.batches[b - 1].producer;
        let partition = self.batches[b - 1].partition;
        if self.batches[b - 1].attempts != attempt || self.batches[b - 1].state != BatchState::InFlight {
            return;
        }
        let outcome = d.outcome();
        match outcome {
            Outcome::Appended { base_offset, last_offset } | Outcome::Duplicate { base_offset, last_offset } => {
                let dup = matches!(outcome, Outcome::Duplicate { .. });
                let batch = &mut self.batches[b - 1];
                batch.state = BatchState::Acked { base_offset, last_offset, duplicate: dup };
                if batch.base_sequence >= 0 {
                    let last = crate::sequence::increment(batch.base_sequence, batch.values.len() as i32 - 1);
                    let key = (batch.producer_id, batch.producer_epoch);
                    if let Some(e) = self.producers[producer].seqs.get_mut(&partition) {
                        if (e.producer_id, e.epoch) == key {
                            e.last_acked = last;
                        }
                    }
                }
                self.event(EventKind::Ack { base_offset, last_offset, duplicate: dup }, Some(producer), Some(partition), Some(b));
            }
            Outcome::Rejected(code) => {
                // retry.backoff.ms passes before a refused batch can be sent again.
                self.cluster.now_ms += RETRY_BACKOFF_MS;
                self.handle_error(b, code)
            }
        }
        self.maybe_bump_epoch(producer);
        self.drain(producer);
    }

    /// `Sender.completeBatch` / `canRetry` / `TransactionManager.canRetry` for an
    /// idempotent (non-transactional) producer.
    pub(super) fn handle_error(&mut self, b: usize, code: ErrorCode) {
        let producer = self.batches[b - 1].producer;
        let partition = self.batches[b - 1].partition;
        let cfg = self.producers[producer].config.clone();
        let expired = self.cluster.now_ms - self.batches[b - 1].created_ms >= cfg.delivery_timeout_ms;
        let attempts_left = (self.batches[b - 1].attempts as i64) <= cfg.retries;
        let retry = if !attempts_left || expired {
            false
        } else if code == ErrorCode::OUT_OF_ORDER_SEQUENCE_NUMBER && cfg.idempotence {
            // Not the next batch (an earlier one is unresolved): retry and wait. The next
            // batch itself: a real gap, bump the epoch (KIP-360) and retry.
            let batch = &self.batches[b - 1];
            let entry = self.producers[producer].seqs.get(&partition).copied();
            let is_next = entry.is_some_and(|e| {
                (e.producer_id, e.epoch) == (batch.producer_id, batch.producer_epoch)
                    && batch.base_sequence == crate::sequence::increment(e.last_acked, 1)
            });
            if is_next {
                self.producers[producer].epoch_bump_pending = true;
                if !self.producers[producer].rewrite.contains(&partition) {
                    self.producers[producer].rewrite.push(partition);
                }
                self.event(EventKind::EpochBump(Bump::ForGap), Some(producer), Some(partition), Some(b));
            }
            true
        } else {
            code.is_retriable()
        };
        if retry {
            self.event(EventKind::Retry { code }, Some(producer), Some(partition), Some(b));
            self.batches[b - 1].state = BatchState::Queued;
            self.requeue(producer, b);
        } else {
            let code = if expired { ErrorCode::REQUEST_TIMED_OUT } else { code };
            self.batches[b - 1].state = BatchState::Failed(code);
            if expired && cfg.idempotence && !self.producers[producer].unresolved.contains(&partition) {
                // Sent, then expired: it may or may not be in the log, its sequence is
                // unresolved (TransactionManager.markSequenceUnresolved).
                self.producers[producer].unresolved.push(partition);
            }
            self.event(EventKind::Fail { code, expired }, Some(producer), Some(partition), Some(b));
        }
    }

    /// Put a batch back in the queue in sequence order (`insertInSequenceOrder`).
    pub(super) fn requeue(&mut self, producer: usize, b: usize) {
        let q = &mut self.producers[producer].queue;
        let pos = q.iter().position(|&o| o > b).unwrap_or(q.len());
        q.insert(pos, b);
    }

    /// KIP-360 bump once nothing of this producer is in flight: epoch + 1, sequences
    /// restart at 0, queued batches are re-sequenced when drained.
    pub(super) fn maybe_bump_epoch(&mut self, producer: usize) {
        if self.in_flight(producer) > 0 {
            return;
        }
        // `maybeResolveSequences`: once a partition has no sent batch left unfinished (in
        // flight or waiting to be retried), an unresolved partition whose last acknowledged
        // sequence is the last one sent is resolved (all sent batches were acked); otherwise
        // the producer bumps its epoch.
        let unresolved = core::mem::take(&mut self.producers[producer].unresolved);
        let (waiting, ready): (Vec<usize>, Vec<usize>) =
            unresolved.into_iter().partition(|&part| self.has_unfinished_sent(producer, part));
        self.producers[producer].unresolved = waiting;
        for part in ready {
            let prod = &self.producers[producer];
            let e = prod.seqs.get(&part).copied();
            let next = e.map_or(0, |e| e.next);
            let last_acked = e.map_or(-1, |e| e.last_acked);
            if last_acked >= 0 && crate::sequence::increment(last_acked, 1) == next {
                self.event(EventKind::EpochBump(Bump::Resolved { last_acked }), Some(producer), Some(part), None);
            } else {
                self.producers[producer].epoch_bump_pending = true;
                if !self.producers[producer].rewrite.contains(&part) {
                    self.producers[producer].rewrite.push(part);
                }
                self.event(EventKind::EpochBump(Bump::Unresolved), Some(producer), Some(part), None);
            }
        }
        if !self.producers[producer].epoch_bump_pending {
            return;
        }
        let prod = &mut self.producers[producer];
        prod.epoch_bump_pending = false;
        if prod.epoch == i16::MAX {
            prod.producer_id = self.cluster.alloc_producer_id();
            prod.epoch = 0;
        } else {
            prod.epoch += 1;
        }
        let (pid, e) = (prod.producer_id, prod.epoch);
        // `startSequencesAtBeginning` for the partitions that triggered the bump: their
        // waiting batches are re-sequenced from 0 under the new epoch. Other partitions
        // finish their sent batches under the old epoch first.
        let rewrite = core::mem::take(&mut prod.rewrite);
        for &part in &rewrite {
            prod.seqs.insert(part, PartSeq { producer_id: pid, epoch: e, next: 0, last_acked: -1 });
        }
        let queued: Vec<usize> = prod.queue.iter().copied().collect();
        for b in queued {
            if rewrite.contains(&self.batches[b - 1].partition) {
                self.batches[b - 1].base_sequence = -1;
            }
        }
        self.event(EventKind::EpochBump(Bump::Bumped { producer_id: pid, epoch: e, partitions: rewrite.into() }), Some(producer), None, None);
    }

    pub(super) fn handle_timeout(&mut self, producer: usize) {
        let cfg = self.producers[producer].config.clone();
        self.cluster.now_ms += cfg.request_timeout_ms;
        let old = self.producers[producer].conn;
        self.producers[producer].conn = self.alloc_conn();
        self.dead_conns.push(old);
        // Undelivered messages on the closed connection are gone, except held requests.
        self.wire.retain(|m| m.conn != old || (m.delayed && matches!(m.kind, MessageKind::Request)));
        self.event(EventKind::Timeout { ms: cfg.request_timeout_ms }, Some(producer), None, None);
        let stuck: Vec<usize> = self
            .batches
            .iter()
            .filter(|b| b.producer == producer && b.state == BatchState::InFlight)
            .map(|b| b.id)
            .collect();
        for b in stuck {
            self.handle_error(b, ErrorCode::NETWORK_EXCEPTION);
        }
        self.maybe_bump_epoch(producer);
        self.drain(producer);
    }

    pub(super) fn handle_restart(&mut self, producer: usize) {
        for b in self.batches.iter_mut().filter(|b| b.producer == producer) {
            if matches!(b.state, BatchState::Queued | BatchState::InFlight) {
                b.state = BatchState::Abandoned;
            }
        }
        let conn = self.alloc_conn();
        let pid = if self.producers[producer].config.idempotence { self.alloc_pid() } else { -1 };
        let prod = &mut self.producers[producer];
        prod.queue.clear();
        prod.producer_id = pid;
        prod.epoch = if pid >= 0 { 0 } else { -1 };
        prod.seqs.clear();
        prod.rewrite.clear();
        prod.conn = conn;
        prod.epoch_bump_pending = false;
        prod.unresolved.clear();
        self.event(EventKind::Restart { producer_id: pid }, Some(producer), None, None);
    }

    /// [`Action::Produce`]: the batch a client with these fields would send (the codec's
    /// writer; CreateTime = the model's clock), decided by the leader at once.
    pub(super) fn handle_raw_produce(&mut self, partition: usize, producer_id: i64, epoch: i16, base_sequence: i32, transactional: bool, values: &[String]) {
        let ts = if values.is_empty() { crate::wire::batch::NO_TIMESTAMP } else { self.cluster.now_ms };
        let writer = BatchWriter::producer(producer_id, epoch, base_sequence, transactional, ts);
        let records = values.iter().enumerate().map(|(i, v)| Record { offset_delta: i as i32, value: Some(v.as_bytes()), ..Record::default() });
        let bytes = writer.write_v2_from(records).expect("a produce line's batch is always encodable");
        let records = values.len() as i32;
        self.event(EventKind::RawProduce { producer_id, epoch, base_sequence, records, transactional }, None, Some(partition), None);
        let part = &mut self.cluster.partitions[partition];
        let v = part.append_client_verdict(&bytes);
        if let Some(log) = self.leader_log.as_mut() {
            log.push(LeaderEvent::Produce { event: self.trace.len(), partition, bytes, verdict: v });
        }
        self.event(EventKind::Decision(v), None, Some(partition), None);
    }

    /// [`Action::ProduceBytes`]: the given bytes, decided by the leader at once. The request's
    /// line shows what their header says (−1 where there is no header to read).
    pub(super) fn handle_produce_bytes(&mut self, partition: usize, bytes: Vec<u8>) {
        let (producer_id, epoch, base_sequence, records, transactional) = match crate::batch::Batch::new_checked(&bytes[..]) {
            Ok(b) => (b.producer_id(), b.producer_epoch(), b.base_sequence(), b.records_count(), b.attributes().is_transactional()),
            Err(_) => (-1, -1, -1, 0, false),
        };
        self.event(EventKind::RawProduce { producer_id, epoch, base_sequence, records, transactional }, None, Some(partition), None);
        let v = self.cluster.partitions[partition].append_client_verdict(&bytes);
        if let Some(log) = self.leader_log.as_mut() {
            log.push(LeaderEvent::Produce { event: self.trace.len(), partition, bytes, verdict: v });
        }
        self.event(EventKind::Decision(v), None, Some(partition), None);
    }

    pub(super) fn handle_advance(&mut self, ms: i64) {
        self.cluster.now_ms += ms;
        self.event(EventKind::Time { ms }, None, None, None);
        self.expiration_check();
    }

    /// X1 on every leader at the current time (`PeriodicProducerExpirationCheck`).
    pub(super) fn expiration_check(&mut self) {
        if let Some(log) = self.leader_log.as_mut() {
            log.push(LeaderEvent::ExpirationCheck { event: self.trace.len() - 1, now_ms: self.cluster.now_ms });
        }
        for i in 0..self.cluster.partitions.len() {
            let removed = self.cluster.partitions[i].remove_expired_producers(self.cluster.now_ms);
            if !removed.is_empty() {
                let ttl = self.cluster.partitions[i].producer_id_expiration_ms;
                self.event(EventKind::Expired { producer_ids: removed.into(), ttl_ms: ttl }, None, Some(i), None);
            }
        }
    }
}
