//! Time passing: the coordinator's timeout and transactional.id expiry scans, the leaders'
//! producer-id expiration checks, and a coordinator failover.

use super::*;

impl World {
    /// Time passes; the coordinator's timeout scan aborts expired transactions (T1–T2), and
    /// its transactional.id expiry scans that fall in the time passed run (T4).
    pub fn advance(&mut self, ms: i64) {
        let target = self.idem.cluster.now_ms + ms;
        msg!(self, COORD_LANE, COORD_LANE, "timeout", format!("{} ms pass", ms));
        // A client's held request times out on the way (request.timeout.ms): the periodic tasks
        // due before it run first, then the client's retry, then the rest of the time.
        while let Some(d) = self.held_requests.iter().filter(|h| !h.timed_out).map(|h| h.since_ms + inject::REQUEST_TIMEOUT_MS).filter(|d| *d <= target).min() {
            self.idem.cluster.now_ms = self.idem.cluster.now_ms.max(d);
            self.run_periodic();
            self.held_request_timeouts();
        }
        self.idem.cluster.now_ms = self.idem.cluster.now_ms.max(target);
        self.run_periodic();
    }

    /// The periodic tasks due by the world's clock: the coordinator's scans (T1–T2, T4), the
    /// leaders' ISR checks (S3) and producer-state expiry (X1).
    pub(super) fn run_periodic(&mut self) {
        self.coordinator_timeouts();
        self.check_isr();
        self.expire_producers();
    }

    /// The coordinator's periodic tasks at the world's clock: its "transaction-abort" scans, every
    /// `transaction.abort.timed.out.transaction.cleanup.interval.ms` from its start, abort the
    /// transactions open longer than their transaction.timeout.ms (T1–T2), each at the first scan
    /// after its deadline (`TransactionStateManager.timedOutTransactions`: start + timeout < the
    /// scan's time), with that scan's time in the records it writes; its
    /// "transactionalId-expiration" scans remove idle transactional.ids (T4).
    pub fn coordinator_timeouts(&mut self) {
        let iv = self.cluster.abort_timed_out_interval_ms.max(1);
        let (start, now) = (self.start_ms, self.idem.cluster.now_ms);
        let done = self.abort_scans_done.max(start);
        // The first scan (start + k·interval, k ≥ 1) strictly after `t`.
        let scan_after = |t: i64| start.saturating_add(t.saturating_sub(start).div_euclid(iv).saturating_add(1).max(1).saturating_mul(iv));
        let mut due: Vec<(i64, i32, String)> = self
            .coordinator
            .txns
            .iter()
            .filter(|m| m.state == TxnState::Ongoing && m.pending_state.is_none())
            .map(|m| (scan_after(m.txn_start_ms.saturating_add(m.txn_timeout_ms as i64).max(done)), Self::coordinator_partition(m.transactional_id.as_str()), String::from(m.transactional_id.as_str())))
            .filter(|(at, _, _)| *at <= now)
            .collect();
        self.abort_scans_done = now;
        due.sort();
        for (at, _, id) in due {
            self.idem.cluster.now_ms = at;
            self.abort_timed_out(&id);
            self.idem.cluster.now_ms = now;
        }
        self.expire_transactional_ids();
    }

    /// T1–T2 for one transactional.id, at the world's clock: an Ongoing transaction past its
    /// timeout is aborted by the coordinator, which bumps the epoch (fencing its producer) and
    /// queues the ABORT markers.
    pub(super) fn abort_timed_out(&mut self, id: &str) -> bool {
        let Some(a) = self.coordinator.abort_timed_out(id, self.idem.cluster.now_ms) else { return false };
        let r = self.write_txn_log(id);
        let k = msg_rule!(self, COORD_LANE, COORD_LANE, "append", format!("__transaction_state: PrepareAbort for {id}: {}", a.why(id, &[])), a.rule, a.source, ErrorCode::NONE);
        self.link(k, r);
        self.fence_instances(id, None);
        // A transaction given by `txn-state` has no instance yet: its markers need one.
        let t = match self.open_txn.get(id).copied() {
            Some(t) => Some(t),
            None => self.coordinator.get(id).filter(|m| !m.partitions.is_empty()).map(|m| (m.producer_id, m.producer_epoch)).map(|(pid, epoch)| self.instance_for(id, pid, epoch, COORD)),
        };
        if let Some(t) = t {
            self.queue_markers(id, t, false);
        }
        say!(self, format!("transaction.timeout.ms has passed for {id}: the coordinator aborts it and bumps the epoch, fencing its producer (T1–T2)"));
        true
    }

    /// X1 on every leader (`ProducerStateManager.removeExpiredProducers`, run by LogManager's
    /// `PeriodicProducerExpirationCheck` every producer.id.expiration.check.interval.ms from the
    /// start, first after one interval): a producer with no open transaction whose last record
    /// is at least producer.id.expiration.ms old loses its entry; its next batch meets X2.
    pub(super) fn expire_producers(&mut self) {
        let iv = self.cluster.producer_id_expiration_check_interval_ms.max(1);
        let (start, now) = (self.start_ms, self.idem.cluster.now_ms);
        let mut t = start + ((self.producer_checks_done.max(start) - start) / iv + 1) * iv;
        while t <= now {
            // Nothing changes between two checks: skip to the first check at which an entry is
            // due (the same checks remove the same entries as visiting every one).
            let Some(due) = self.idem.cluster.partitions.iter().chain(self.offsets_logs.values()).filter_map(Partition::next_expiry).min() else { break };
            if due > t {
                t = t.max(start + (due - start).div_euclid(iv) * iv + if (due - start).rem_euclid(iv) == 0 { 0 } else { iv });
                if t > now {
                    break;
                }
            }
            self.producer_expiry_check(t);
            t += iv;
        }
        self.producer_checks_done = now;
    }

    /// X1 at time `t` on every leader (`UnifiedLog`'s "PeriodicProducerExpirationCheck").
    pub(super) fn producer_expiry_check(&mut self, t: i64) {
        for pi in 0..self.idem.cluster.partitions.len() {
            let removed = self.idem.cluster.partitions[pi].remove_expired_producers(t);
            if !removed.is_empty() {
                let name = self.idem.cluster.partitions[pi].name.clone();
                let lane = self.partition_lane(&name);
                let ttl = self.idem.cluster.partitions[pi].producer_id_expiration_ms;
                msg_rule!(self, lane.clone(), lane, "expire", format!("{name}: producer state of {removed:?} expired (its last record is at least producer.id.expiration.ms = {ttl} ms old, no open transaction); a retry of its batches would be written again (X2)"), "X1", crate::model::partition::EXPIRY_SOURCE, ErrorCode::NONE);
                say!(self, format!("{name} forgets producer(s) {removed:?}: producer.id.expiration.ms passed (X1)"));
            }
        }
        for log in self.offsets_logs.values_mut() {
            log.remove_expired_producers(t);
        }
    }

    /// Kafka's scheduler tasks a script can run at once (`run-task NAME`), by their names in
    /// Kafka's scheduler.
    pub const TASKS: [&'static str; 4] = ["transaction-abort", "transactionalId-expiration", "PeriodicProducerExpirationCheck", "isr-expiration"];

    /// `run-task NAME`: one of the periodic tasks runs now, as if the scheduler fired it; its
    /// schedule is not moved (the next periodic run comes when it would have).
    /// - `transaction-abort` (TransactionCoordinator): every transaction open longer than its
    ///   timeout is aborted (T1–T2);
    /// - `transactionalId-expiration` (TransactionStateManager): every idle transactional.id past
    ///   transactional.id.expiration.ms gets its tombstone (T4);
    /// - `PeriodicProducerExpirationCheck` (UnifiedLog): every leader forgets the producers past
    ///   producer.id.expiration.ms (X1);
    /// - `isr-expiration` (ReplicaManager): every leader drops the followers past
    ///   replica.lag.time.max.ms from its ISR (S3).
    pub fn run_task(&mut self, name: &str) -> Result<(), String> {
        let now = self.idem.cluster.now_ms;
        match name {
            "transaction-abort" => {
                let mut n = 0;
                for id in self.coordinator.timed_out(now) {
                    n += usize::from(self.abort_timed_out(&id));
                }
                say!(self, format!("the coordinator's transaction-abort task runs now: {n} transaction(s) past their timeout aborted (T1)"));
            }
            "transactionalId-expiration" => {
                let exp = self.cluster.transactional_id_expiration_ms.max(0);
                let mut due: Vec<(i64, i32, Name)> = self
                    .coordinator
                    .txns
                    .iter()
                    .filter(|m| matches!(m.state, TxnState::Empty | TxnState::CompleteCommit | TxnState::CompleteAbort) && m.pending_state.is_none() && m.last_update_ms.saturating_add(exp) <= now)
                    .map(|m| (now, Self::coordinator_partition(m.transactional_id.as_str()), m.transactional_id.clone()))
                    .collect();
                due.sort_by_key(|(_, n, _)| *n);
                say!(self, format!("the coordinator's transactionalId-expiration task runs now: {} idle transactional.id(s) expire (T4)", due.len()));
                self.remove_expired_ids(&due);
            }
            "PeriodicProducerExpirationCheck" => {
                say!(self, String::from("every leader's PeriodicProducerExpirationCheck runs now (X1)"));
                self.producer_expiry_check(now);
            }
            "isr-expiration" => {
                say!(self, String::from("every leader's isr-expiration task runs now (S3)"));
                self.expire_held(now);
                self.isr_check(now);
            }
            _ => return Err(format!("unknown task {name:?}: {}", Self::TASKS.join(", "))),
        }
        Ok(())
    }

    /// T4, transactional.id expiry (`TransactionStateManager.removeExpiredTransactionalIds`,
    /// scheduled every transaction.remove.expired.transaction.cleanup.interval.ms from the
    /// coordinator's start, first after one interval): a transactional.id whose state allows
    /// expiration (Empty, CompleteCommit, CompleteAbort), with no transition pending and
    /// `txnLastUpdateTimestamp <= scan time - transactional.id.expiration.ms`, gets a tombstone
    /// (its key, a null value, the scan's timestamp; one uncompressed batch per
    /// `__transaction_state` partition and scan) and its metadata is removed (`prepareDead`):
    /// the next InitProducerId starts it afresh with a new producer id, and a producer still
    /// holding the old one is answered INVALID_PRODUCER_ID_MAPPING (AP2, E0/F0). The scans
    /// that fall between the previous `advance` and now run here, each at its own time.
    pub(super) fn expire_transactional_ids(&mut self) {
        let iv = self.cluster.transactional_id_expiration_interval_ms.max(1);
        let exp = self.cluster.transactional_id_expiration_ms.max(0);
        let (start, now) = (self.start_ms, self.idem.cluster.now_ms);
        // The first scan (start + k·interval, k ≥ 1) at or after `t`.
        let scan_at = |t: i64| start.saturating_add(t.saturating_sub(start).saturating_add(iv - 1).div_euclid(iv).max(1).saturating_mul(iv));
        // The scans up to `expiry_scans_done` ran already (in an earlier advance).
        let scans_from = self.expiry_scans_done.max(start);
        let mut due: Vec<(i64, i32, Name)> = self
            .coordinator
            .txns
            .iter()
            .filter(|m| matches!(m.state, TxnState::Empty | TxnState::CompleteCommit | TxnState::CompleteAbort) && m.pending_state.is_none())
            .map(|m| (scan_at(m.last_update_ms.saturating_add(exp).max(scans_from.saturating_add(1))), Self::coordinator_partition(m.transactional_id.as_str()), m.transactional_id.clone()))
            .filter(|(at, _, _)| *at <= now)
            .collect();
        self.expiry_scans_done = now;
        if due.is_empty() {
            return;
        }
        due.sort_by_key(|(at, n, _)| (*at, *n));
        self.remove_expired_ids(&due);
    }

    /// T4's scans as given: (scan time, `__transaction_state` partition, id), in scan and
    /// partition order: one tombstone batch per scan and partition, the metadata removed.
    pub(super) fn remove_expired_ids(&mut self, due: &[(i64, i32, Name)]) {
        let exp = self.cluster.transactional_id_expiration_ms.max(0);
        let start = self.start_ms;
        let mut i = 0;
        while i < due.len() {
            let (at, n) = (due[i].0, due[i].1);
            let j = i + due[i..].iter().take_while(|d| d.0 == at && d.1 == n).count();
            let keys: Vec<Vec<u8>> = due[i..j].iter().map(|d| crate::internal::txn_log_key(d.2.as_str())).collect();
            let recs: Vec<KeyValue<'_>> = keys.iter().map(|k| (Some(k.as_slice()), None)).collect();
            let bytes = raw_batch(-1, -1, -1, false, &recs, at);
            let log = self.txn_logs.entry(n).or_insert_with(|| Partition::new(format!("__transaction_state-{n}")));
            let appended = log.append_client_verdict(&bytes).outcome();
            let stored = matches!(appended, Outcome::Appended { .. }).then(|| as_stored(bytes, log));
            let base_offset = match appended {
                Outcome::Appended { base_offset, .. } => base_offset,
                _ => -1,
            };
            let partition = self.txn_log_name(n);
            let mut said = Vec::with_capacity(j - i);
            let mut first: Option<(i64, i16)> = None;
            let mut ids = Vec::with_capacity(j - i);
            for d in &due[i..j] {
                let id = d.2.clone();
                let Some(ci) = self.coordinator.index(id.as_str()) else { continue };
                let m = self.coordinator.txns.remove(ci);
                first.get_or_insert((m.producer_id, m.producer_epoch));
                let k = msg_rule!(self, COORD_LANE, COORD_LANE, "append", format!(
                    "transactional.id expiry at t={}: {id} ({}, producer {} epoch {}, last updated at t={}) has been idle for transactional.id.expiration.ms ({exp} ms): tombstone in __transaction_state, metadata removed",
                    at - start, m.state.name(), m.producer_id, m.producer_epoch, m.last_update_ms - start), "T4", TRANSACTION_STATE_MANAGER, ErrorCode::NONE);
                said.push(k);
                say!(self, format!("{id} expired: it was idle (state {}) for transactional.id.expiration.ms; its next initTransactions() gets a new producer id (T4)", m.state.name()));
                ids.push(id);
            }
            if let (Some(bytes), Some((pid, epoch))) = (stored, first) {
                self.metric(Metric::TxnStateLogAppends, 1);
                let text = if self.trace { format!("{}: tombstone (expired)", ids.iter().map(|x| x.as_str()).collect::<Vec<_>>().join(", ")) } else { String::new() };
                let r = self.push_record(LogRecord {
                    lane: Name::fixed(COORD),
                    partition,
                    offset: base_offset,
                    last_offset: base_offset + (j - i) as i64 - 1,
                    kind: "txn-log",
                    pid,
                    epoch,
                    transactional: false,
                    values: Values::one(None),
                    text: text.into(),
                    step: self.step,
                    closed_at: None,
                    outcome: None,
                    bytes,
                    txn: None,
                    truncated_at: None,
                });
                for k in said {
                    self.link(k, Some(r));
                }
            }
            i = j;
        }
    }

    /// The `__transaction_state` leader moves: a new coordinator epoch; Prepare* transactions
    /// have their markers re-sent with it (K6); queued markers of the old epoch are dropped,
    /// held ones may still arrive (and are fenced, M3).
    pub fn failover(&mut self) {
        self.coordinator_epoch += 1;
        let ep = self.coordinator_epoch;
        let line = self.cluster.kafka;
        // The producers connect to the new coordinator's broker: its ApiVersions answer tells
        // them the finalized transaction.version (they switch protocol between transactions).
        for c in self.clients.iter_mut() {
            c.features_tv = self.cluster.transaction_version;
        }
        self.markers.retain(|m| m.held);
        msg_rule!(self, COORD_LANE, COORD_LANE, "failover", format!("a new broker leads __transaction_state: coordinator epoch {ep}; it loads the log"), "K6", TRANSACTION_STATE_MANAGER, ErrorCode::NONE);
        let ids: Vec<Name> = self.coordinator.txns.iter().filter(|m| matches!(m.state, TxnState::PrepareCommit | TxnState::PrepareAbort)).map(|m| m.transactional_id.clone()).collect();
        for id in &ids {
            let commit = self.coordinator.get(id).is_some_and(|m| m.state == TxnState::PrepareCommit);
            if let Some(t) = self.open_txn.get(id.as_str()).copied() {
                // K6: the new coordinator loads the Prepare* record, whose partitions are all of
                // the transaction's (`TransactionStateManager.loadTransactionsForTxnTopicPartition`
                // → `TransactionMarkerChannelManager.addTxnMarkersToSend` with
                // `txnMetadata.topicPartitions`), and re-sends the marker to every one of them,
                // including partitions the old coordinator's marker already reached: the leader
                // decides on the duplicate (M1, or M2's retried-marker exception for TV2).
                let Some(m) = self.coordinator.get(id).cloned() else { continue };
                // The markers carry the transaction's own clientTransactionVersion, loaded
                // with it from its record (ClientTransactionVersion), not the cluster's level.
                let version = line.marker_version(m.client_tv >= 2);
                for p in m.partitions.iter() {
                    self.markers.push(MarkerReq { transactional_id: id.clone(), txn: t, pid: m.producer_id, epoch: m.producer_epoch, commit, coordinator_epoch: ep, partition: p.clone(), version, held: false });
                }
                if m.partitions.is_empty() {
                    self.complete_txn(id, t);
                }
            }
        }
        self.retry_pending();
        say!(self, format!(
            "coordinator failover: the new coordinator (epoch {ep}) finds {} and re-sends their markers with coordinator epoch {ep} (K6)",
            if ids.is_empty() { String::from("no transaction mid-commit") } else { ids.join(", ") + " in a Prepare state" }
        ));
    }
}
