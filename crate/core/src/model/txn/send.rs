//! send(): a transactional producer's Produce, the leader's append and its answer.

use super::*;

impl World {
    /// `send(record)` inside a transaction; the batch is sent at once.
    pub fn send(&mut self, name: &str, partition: &str, values: &[String]) -> Result<CallResult, String> {
        let i = self.client_index(name)?;
        self.not_blocked(i, "send")?;
        let pi = self.partition_index(partition)?;
        if let Some(r) = self.check_usable(i, "send") {
            return Ok(r);
        }
        if self.clients[i].state != ClientState::InTransaction {
            let e = format!("IllegalStateException: Cannot call send in state {}", self.clients[i].state.name());
            say!(self, format!("{name}.send() throws {e}"));
            return Ok(CallResult::Thrown(e));
        }
        let tv2 = self.clients[i].tv2;
        if self.waits_for_held(i, "AddPartitionsToTxn") {
            // The transactional requests go one at a time (`TransactionManager`): while an add is
            // in the network the batch waits in the accumulator.
            self.clients[i].held.push((partition.into(), values.to_vec()));
            say!(self, format!("{name}.send(): the batch waits in the accumulator while its AddPartitionsToTxn is in the network"));
            return Ok(CallResult::Pending);
        }
        if self.clients[i].requeued.iter().any(|b| b.partition == pi) {
            // A re-enqueued batch of this partition goes first (the accumulator keeps the
            // partition's batches in sequence order).
            self.clients[i].held.push((partition.into(), values.to_vec()));
            say!(self, format!("{name}.send(): the batch waits in the accumulator behind the batch re-enqueued for {partition}"));
            return Ok(CallResult::Pending);
        }
        if !tv2 && !self.clients[i].added.contains(partition) {
            let pname = self.partition_names(pi).0;
            match self.add_partition_tv1(i, pname, "AddPartitionsToTxn", None) {
                Added::Yes => {}
                Added::Held => {
                    // `isSendToPartitionAllowed`: no Produce before the partition is added.
                    self.clients[i].held.push((partition.into(), values.to_vec()));
                    return Ok(CallResult::Pending);
                }
                Added::Refused(e) if e == ErrorCode::CONCURRENT_TRANSACTIONS => return Ok(self.hold(i, partition, values, "AddPartitionsToTxn")),
                Added::Refused(e) => {
                    self.client_error(i, e, "AddPartitionsToTxn");
                    return Ok(CallResult::Ok);
                }
            }
        }
        let t = self.current_instance(i);
        self.clients[i].started = true;
        let (pid, epoch) = (self.clients[i].pid, self.clients[i].epoch);
        let seq = *self.clients[i].sequences.get(partition).unwrap_or(&0);
        let bytes = data_batch(pid, epoch, seq, true, values, self.idem.cluster.now_ms);
        let request = |again: bool| {
            let last = seq + values.len() as i32 - 1;
            if again {
                format!("Produce again: producer {pid} epoch {epoch}, sequences {seq}..{last}")
            } else {
                format!("Produce{} transactional batch: producer {pid} epoch {epoch}, sequences {seq}..{last}, {} record(s)", if tv2 { " v12" } else { " v11" }, values.len())
            }
        };
        // An injected answer or loss: the request on the timeline, the client's reaction, and
        // then the batch sent again, for real; a lost answer is handled below.
        let injected = self.injected_request(i, "Produce", self.partition_lane(partition), || request(false));
        if injected == Some(inject::Injection::Hold) {
            // `inject P Produce hold`: the batch is sent (its sequence taken) and the request held
            // in the network; `send()` returns, a commit or abort waits for the answer.
            self.clients[i].started = true;
            set_sequence(&mut self.clients[i].sequences, partition, seq + values.len() as i32);
            return Ok(self.hold_request(i, inject::HeldCall::Produce(SentBatch { partition: pi, bytes, values: values.to_vec(), txn: t }), request(false), "send"));
        }
        if let Some(inject::Injection::Answer(e)) = injected {
            // Not processed, not retried: the batch fails (`Sender.failBatch`), its sequence
            // unused; the transaction is then abortable or fatal, and send() returns.
            self.client_error(i, e, "Produce");
            return Ok(CallResult::Ok);
        }
        let again = matches!(injected, Some(inject::Injection::Error(_) | inject::Injection::LoseRequest));
        msg!(self, self.producer_lane(name), self.partition_lane(partition), "Produce", request(again));
        let op = if tv2 { SupportedOperation::AddPartition } else { SupportedOperation::GenericErrorSupported };
        let msgs_before = self.messages.len();
        // The bytes are kept only where the client may send the batch again: after a lost answer,
        // or to a partition with followers (an unacknowledged batch goes to a new leader, S6).
        let resend = injected == Some(inject::Injection::LoseResponse) || !self.idem.cluster.partitions[pi].replicas.followers.is_empty();
        let kept = resend.then(|| bytes.clone());
        let first = self.leader_append(pi, bytes, op, t, values);
        let result = if injected == Some(inject::Injection::LoseResponse) && first.is_ok() {
            // The leader wrote the batch; its answer is lost. After request.timeout.ms the client
            // sends it again with the same sequence: the leader recognises it (A1).
            let plane = self.producer_lane(name);
            let from = msgs_before.min(self.messages.len());
            for m in self.messages[from..].iter_mut().filter(|m| m.kind == "response" && m.to == plane) {
                m.lost = true;
                m.text.push_str(" — lost on the way back");
            }
            self.idem.cluster.now_ms += inject::REQUEST_TIMEOUT_MS;
            say!(self, format!("{name}: no answer to its Produce within request.timeout.ms: it sends the batch again with the same sequence"));
            msg!(self, self.producer_lane(name), self.partition_lane(partition), "Produce", format!("Produce again: producer {pid} epoch {epoch}, sequences {seq}..{}", seq + values.len() as i32 - 1));
            self.leader_append(pi, kept.clone().unwrap_or_default(), op, t, values)
        } else {
            first
        };
        match result {
            Ok(r) => {
                set_sequence(&mut self.clients[i].sequences, partition, seq + values.len() as i32);
                self.produced(i, pi, r, kept, op, t, values, msgs_before);
                Ok(CallResult::Ok)
            }
            Err(e) if e == ErrorCode::CONCURRENT_TRANSACTIONS || e == ErrorCode::NOT_ENOUGH_REPLICAS => Ok(self.hold(i, partition, values, "Produce")),
            Err(e) => {
                self.client_error(i, e, "Produce");
                Ok(CallResult::Ok)
            }
        }
    }

    /// Client `i`'s batch to partition `pi` of transaction instance `t` was written as record
    /// `r`: acknowledged (or, with followers, waiting for the HW: `kept` are its bytes, to send
    /// again to a new leader), its partition in the transaction, the record in the instance.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn produced(&mut self, i: usize, pi: usize, r: usize, kept: Option<Vec<u8>>, op: SupportedOperation, t: usize, values: &[String], msgs_before: usize) {
        if let Some(bytes) = kept {
            self.maybe_unacked(i, pi, r, bytes, op, t, values, msgs_before);
        }
        let pname = self.partition_names(pi).0;
        if !self.clients[i].added.contains(pname.as_str()) {
            self.clients[i].added.insert(pname);
        }
        if !self.txns[t].records.contains(&r) {
            self.txns[t].records.push(r);
        }
    }

    /// One transactional Produce of client `i` carrying `ids`, its batch `sent`, reaches the
    /// leader (`suffix` says which copy), which verifies or adds it (KIP-890) and decides the
    /// append; the answer on the timeline.
    pub(super) fn produce_request(&mut self, i: usize, sent: &SentBatch, ids: (i64, i16, bool), suffix: &str) -> Result<usize, ErrorCode> {
        let name = self.clients[i].name.clone();
        let pname = self.partition_names(sent.partition).0;
        let b = crate::batch::Batch::new_unchecked(&sent.bytes[..]);
        let (seq, n) = (b.base_sequence(), sent.values.len() as i32);
        msg!(self, self.producer_lane(&name), self.partition_lane(pname.as_str()), "Produce", format!(
            "Produce{} transactional batch: producer {} epoch {}, sequences {seq}..{}, {n} record(s){suffix}",
            if ids.2 { " v12" } else { " v11" },
            ids.0,
            ids.1,
            seq + n - 1
        ));
        let op = if ids.2 { SupportedOperation::AddPartition } else { SupportedOperation::GenericErrorSupported };
        self.leader_append(sent.partition, sent.bytes.clone(), op, sent.txn, &sent.values)
    }

    /// The answer `r` to a Produce the client sent outside `send()` (a held one, or one sent
    /// again) reaches it: the batch is acknowledged; or, answered with a retriable error
    /// (CONCURRENT_TRANSACTIONS, or NOT_ENOUGH_REPLICAS, V5), re-enqueued with its sequence
    /// (`Sender.canRetry`, `reenqueueBatch`); or it fails.
    /// (`msgs_before`: the timeline's length before the request was drawn.)
    pub(super) fn produce_answered(&mut self, i: usize, sent: SentBatch, r: Result<usize, ErrorCode>, msgs_before: usize) {
        match r {
            Ok(rec) => {
                let op = if self.clients[i].tv2 { SupportedOperation::AddPartition } else { SupportedOperation::GenericErrorSupported };
                // With followers the batch waits for the HW, and goes to a new leader if this one
                // fails first (S6): its bytes are kept.
                let kept = (!self.idem.cluster.partitions[sent.partition].replicas.followers.is_empty()).then(|| sent.bytes.clone());
                self.produced(i, sent.partition, rec, kept, op, sent.txn, &sent.values, msgs_before);
            }
            Err(e) if e == ErrorCode::CONCURRENT_TRANSACTIONS || e == ErrorCode::NOT_ENOUGH_REPLICAS => {
                say!(self, format!(
                    "{}: its Produce was answered {} (retriable) while the previous transaction of {} completes; the Sender keeps the batch with its sequence and sends it again once it can",
                    self.clients[i].name,
                    e.name(),
                    self.clients[i].transactional_id
                ));
                self.clients[i].requeued.push(sent);
            }
            Err(e) => self.client_error(i, e, "Produce"),
        }
    }

    /// The answer to a held Produce reaches the client (`r`: the leader's); a commit or abort
    /// that waited for it goes on (a commit waits on while the batch is re-enqueued).
    pub(super) fn after_held_produce(&mut self, i: usize, sent: SentBatch, r: Result<usize, ErrorCode>, msgs_before: usize) -> CallResult {
        self.produce_answered(i, sent, r, msgs_before);
        let name = self.clients[i].name.clone();
        match self.clients[i].pending {
            Some(PendingOp::Commit) => self.end(&name, true, false).unwrap_or(CallResult::Ok),
            Some(PendingOp::Abort) => self.end(&name, false, false).unwrap_or(CallResult::Ok),
            _ => CallResult::Ok,
        }
    }

    /// A retriable answer (CONCURRENT_TRANSACTIONS; NOT_ENOUGH_REPLICAS is what a TV1 client's
    /// leader maps it to, V5): the client keeps the batch and sends it again once the
    /// previous transaction has completed (TransactionManager retries; `RecordAccumulator`).
    pub(super) fn hold(&mut self, i: usize, partition: &str, values: &[String], during: &str) -> CallResult {
        self.clients[i].held.push((partition.into(), values.to_vec()));
        say!(self, format!("{}: {during} answered with a retriable error while the previous transaction of {} completes; the client retries the send", self.clients[i].name, self.clients[i].transactional_id));
        CallResult::Pending
    }

    /// The leader's side of a transactional Produce: verification or implicit add
    /// (KIP-890), then the append decision. `bytes` becomes the record's copy of
    /// what the log stores.
    pub(super) fn leader_append(&mut self, pi: usize, bytes: Vec<u8>, op: SupportedOperation, t: usize, values: &[String]) -> Result<usize, ErrorCode> {
        let tv2 = op == SupportedOperation::AddPartition;
        let b = crate::batch::Batch::new_unchecked(&bytes[..]);
        let (pid, epoch, first_seq) = (b.producer_id(), b.producer_epoch(), b.base_sequence());
        // (transaction open here, epoch) of the producer's state on this partition.
        let st = self.idem.cluster.partitions[pi].producers.get(&pid).map(|s| (s.current_txn_first_offset.is_some(), s.producer_epoch));
        let open_here = st.is_some_and(|(open, e)| open && e == epoch);
        // V1: the leader asks the coordinator only when verification is on, or for a TV2
        // client's batch, which it adds (`ReplicaManager.appendRecordsWithTransactionVerification`).
        let verify = tv2 || !self.cluster.verification_disabled;
        if !open_here && !verify {
            msg_rule!(
                self,
                self.partition_lane(&self.idem.cluster.partitions[pi].name),
                self.partition_lane(&self.idem.cluster.partitions[pi].name),
                "verify",
                format!(
                    "transaction.partition.verification.enable=false: producer {pid}'s transactional batch is appended without asking the coordinator whether {} is in its transaction",
                    self.idem.cluster.partitions[pi].name
                ),
                "V1",
                REPLICA_MANAGER_VERIFICATION,
                ErrorCode::NONE
            );
        }
        if !open_here && verify {
            // V2: early epoch check.
            if let Some((_, last)) = st.filter(|&(_, e)| epoch < e) {
                msg_rule!(
                    self,
                    self.partition_lane(&self.idem.cluster.partitions[pi].name),
                    self.producer_lane(&self.txns[t].producer),
                    "response",
                    format!(
                        "Produce response INVALID_PRODUCER_EPOCH(47): epoch {epoch} is below producer {pid}'s epoch {last} on {}: refused before asking the coordinator (KAFKA-18042)",
                        self.idem.cluster.partitions[pi].name
                    ),
                    "V2",
                    REPLICA_MANAGER_VERIFICATION,
                    ErrorCode::INVALID_PRODUCER_EPOCH
                );
                return Err(ErrorCode::INVALID_PRODUCER_EPOCH);
            }
            // V2: the verification entry (kept whatever the coordinator answers; A5 reads it).
            let now = self.idem.cluster.now_ms;
            self.idem.cluster.partitions[pi].start_verification(pid, first_seq, epoch, tv2, now);
            if tv2 {
                // V4: the leader adds the partition (AddPartitionsToTxn v5, verifyOnly=false).
                // V6: on CONCURRENT_TRANSACTIONS it asks again every
                // add.partitions.to.txn.retry.backoff.ms (20) until min(add.partitions.to.txn
                // .retry.backoff.max.ms (100), request.timeout.ms) have passed since the first try,
                // then answers with what it has (`ReplicaManager.appendRecordsWithTransactionVerification`,
                // `maybeRetryOnConcurrentTransactions`, for TransactionSupportedOperation.ADD_PARTITION).
                let start = self.idem.cluster.now_ms;
                let mut attempt = 0u32;
                let a = loop {
                    msg!(
                        self,
                        self.partition_lane(&self.idem.cluster.partitions[pi].name),
                        COORD_LANE,
                        "AddPartitionsToTxn",
                        format!(
                            "AddPartitionsToTxn v5 (verifyOnly=false) from the leader of {}: add it to {}{}",
                            self.idem.cluster.partitions[pi].name,
                            self.txns[t].transactional_id,
                            if attempt == 0 { String::new() } else { format!(" (retry {attempt}, {} ms after the first)", self.idem.cluster.now_ms - start) }
                        )
                    );
                    self.metric(Metric::AddPartitionsRequests, 1);
                    let pname = self.partition_names(pi).0;
                    let a = self.coordinator.add_partitions_v(&self.txns[t].transactional_id, pid, epoch, core::slice::from_ref(&pname), self.idem.cluster.now_ms, Tv::Tv2);
                    self.tick(if a.wrote.is_some() { 1 } else { 0 });
                    if a.wrote.is_some() {
                        let r = self.coordinator.index(&self.txns[t].transactional_id).and_then(|ci| self.write_txn_log_at(ci));
                        let k = msg!(self, COORD_LANE, COORD_LANE, "append", format!("__transaction_state: Ongoing with {}", self.idem.cluster.partitions[pi].name));
                        self.link(k, r);
                    }
                    msg_rule!(
                        self,
                        COORD_LANE,
                        self.partition_lane(&self.idem.cluster.partitions[pi].name),
                        "response",
                        format!("{}: {}", a.error, a.why(&self.txns[t].transactional_id, &[self.idem.cluster.partitions[pi].name.as_str()])),
                        a.rule,
                        a.source,
                        a.error
                    );
                    let elapsed = self.idem.cluster.now_ms - start;
                    if a.error != coordinator::CONCURRENT_TRANSACTIONS || elapsed >= ADD_PARTITIONS_RETRY_WINDOW_MS {
                        break a;
                    }
                    msg_rule!(
                        self,
                        self.partition_lane(&self.idem.cluster.partitions[pi].name),
                        self.partition_lane(&self.idem.cluster.partitions[pi].name),
                        "retry",
                        format!(
                            "CONCURRENT_TRANSACTIONS after {elapsed} ms of the leader's {ADD_PARTITIONS_RETRY_WINDOW_MS} ms window: it asks the coordinator again in {ADD_PARTITIONS_RETRY_BACKOFF_MS} ms instead of answering the producer"
                        ),
                        "V6",
                        REPLICA_MANAGER_RETRY,
                        ErrorCode::NONE
                    );
                    self.idem.cluster.now_ms += ADD_PARTITIONS_RETRY_BACKOFF_MS;
                    attempt += 1;
                };
                if a.error != ErrorCode::NONE {
                    let mapped = leader_add_error(a.error);
                    msg_rule!(
                        self,
                        self.partition_lane(&self.idem.cluster.partitions[pi].name),
                        self.producer_lane(&self.txns[t].producer),
                        "response",
                        format!("Produce response {mapped}: the coordinator refused the implicit add ({})", a.error),
                        "V5",
                        REPLICA_MANAGER_VERIFICATION,
                        mapped
                    );
                    return Err(mapped);
                }
            } else {
                // V3: verify only.
                let (id, pname) = (self.txns[t].transactional_id.as_str(), self.idem.cluster.partitions[pi].name.as_str());
                let verdict = self.verify(id, pid, epoch, pname);
                let coordinator_err = verdict.error();
                msg_rule!(
                    self,
                    self.partition_lane(&self.idem.cluster.partitions[pi].name),
                    COORD_LANE,
                    "AddPartitionsToTxn",
                    format!("AddPartitionsToTxn v4 verifyOnly=true: {}", verdict.why(pid, epoch, &self.txns[t].transactional_id, &self.idem.cluster.partitions[pi].name)),
                    "V3",
                    TRANSACTION_COORDINATOR,
                    coordinator_err
                );
                let err = op.map(coordinator_err);
                if err != ErrorCode::NONE {
                    if err != coordinator_err {
                        // A Produce older than v11 cannot carry TRANSACTION_ABORTABLE (V5).
                        msg_rule!(self, self.partition_lane(&self.idem.cluster.partitions[pi].name), self.producer_lane(&self.txns[t].producer), "response", format!("Produce response {err}: Partition was not added to the transaction ({coordinator_err} goes back as {err} to a Produce older than v11)"), "V5", ADD_PARTITIONS_TO_TXN_MANAGER, err);
                    } else {
                        msg_rule!(self, self.partition_lane(&self.idem.cluster.partitions[pi].name), self.producer_lane(&self.txns[t].producer), "response", format!("Produce response {err}"), "V5", REPLICA_MANAGER_VERIFICATION, err);
                    }
                    return Err(err);
                }
            }
        }
        // The decision as data; its sentence is rendered only when tracing. A transaction not
        // yet open here went through the TV2 add above: A4 applies to it.
        let d = self.idem.cluster.partitions[pi].append_client_verified(&bytes, tv2 && !open_here);
        self.tick(1);
        match d.outcome() {
            o @ (Outcome::Appended { base_offset, last_offset } | Outcome::Duplicate { base_offset, last_offset }) => {
                let log = &self.idem.cluster.partitions[pi];
                let stored = match o {
                    Outcome::Appended { .. } => as_stored(bytes, log),
                    // Nothing was written: the record shows the log's last batch, as before.
                    _ => log.log.last().map(|e| e.bytes.clone()).unwrap_or_default(),
                };
                // A duplicate (A1) wrote nothing: its answer points at the original batch's record.
                let original = if matches!(o, Outcome::Duplicate { .. }) { self.record_at(pi, base_offset) } else { None };
                let r = match original {
                    Some(k) => k,
                    None => self.push_data_record(pi, (base_offset, last_offset), (pid, epoch), values, stored, Some(t)),
                };
                let k = msg_rule!(
                    self,
                    self.partition_lane(&self.idem.cluster.partitions[pi].name),
                    self.producer_lane(&self.txns[t].producer),
                    "response",
                    format!(
                        "Produce response NONE: {}; the records are not visible to read_committed until the transaction ends (LSO {})",
                        d.why(&self.idem.cluster.partitions[pi].name),
                        self.idem.cluster.partitions[pi].last_stable_offset()
                    ),
                    d.rule(),
                    d.source(),
                    ErrorCode::NONE,
                );
                self.link(k, Some(r));
                Ok(r)
            }
            Outcome::Rejected(e) => {
                msg_rule!(
                    self,
                    self.partition_lane(&self.idem.cluster.partitions[pi].name),
                    self.producer_lane(&self.txns[t].producer),
                    "response",
                    format!("Produce response {e}: {}", d.why(&self.idem.cluster.partitions[pi].name)),
                    d.rule(),
                    d.source(),
                    e
                );
                Err(e)
            }
        }
    }
}
