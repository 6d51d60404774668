//! commitTransaction() and abortTransaction(): EndTxn and the coordinator's answer.

use super::*;

impl World {
    /// `commitTransaction()` / `abortTransaction()`: EndTxn (E/F rules). With
    /// `lose_response` the coordinator acts but the answer never arrives.
    pub fn end(&mut self, name: &str, commit: bool, lose_response: bool) -> Result<CallResult, String> {
        let i = self.client_index(name)?;
        let call = if commit { "commitTransaction" } else { "abortTransaction" };
        self.not_blocked(i, call)?;
        if let Some(r) = self.check_usable(i, call) {
            return Ok(r);
        }
        let op = if commit { PendingOp::Commit } else { PendingOp::Abort };
        let st = self.clients[i].state;
        let retrying = self.clients[i].pending == Some(op);
        let allowed = retrying || st == ClientState::InTransaction || (!commit && st == ClientState::AbortableError);
        if !allowed {
            let e = format!("IllegalStateException: Invalid transition attempted from state {} to state {}", st.name(), if commit { "COMMITTING_TRANSACTION" } else { "ABORTING_TRANSACTION" });
            say!(self, format!("{name}.{call}() throws {e}"));
            return Ok(CallResult::Thrown(e));
        }
        if !self.clients[i].unacked.is_empty() {
            // EndTxn goes only when no batch is incomplete (`TransactionManager.nextRequest`):
            // commit and abort both wait for the acks=all answers the HW holds back.
            self.clients[i].state = if commit { ClientState::CommittingTransaction } else { ClientState::AbortingTransaction };
            self.clients[i].pending = Some(op);
            let parts: Vec<String> = self.clients[i].unacked.iter().map(|u| String::from(self.idem.cluster.partitions[u.partition].name.as_str())).collect();
            say!(self, format!("{name}.{call}() waits: its batches to {} are written but not acknowledged (acks=all waits for the high watermark); EndTxn goes once they are", parts.join(", ")));
            return Ok(CallResult::Pending);
        }
        if self.waits_for_held(i, "Produce") {
            // EndTxn goes only when no batch is in flight (`TransactionManager.nextRequest`):
            // commit and abort both wait for the held Produce's answer.
            self.clients[i].state = if commit { ClientState::CommittingTransaction } else { ClientState::AbortingTransaction };
            self.clients[i].pending = Some(op);
            say!(self, format!("{name}.{call}() waits: its Produce is held in the network, and EndTxn goes only once no batch is in flight"));
            return Ok(CallResult::Pending);
        }
        if !self.clients[i].held.is_empty() || !self.clients[i].requeued.is_empty() {
            // commitTransaction() flushes first: EndTxn goes once the held sends are through;
            // abortTransaction() drops them.
            if commit {
                self.clients[i].state = ClientState::CommittingTransaction;
                self.clients[i].pending = Some(op);
                say!(self, format!("{name}.commitTransaction() waits for its held sends to go through first (flush)"));
                return Ok(CallResult::Pending);
            }
            self.clients[i].held.clear();
            self.clients[i].requeued.clear();
        }
        self.clients[i].state = if commit { ClientState::CommittingTransaction } else { ClientState::AbortingTransaction };
        if self.waits_for_held(i, "AddPartitionsToTxn") {
            // The requests go one at a time: the EndTxn waits for the add's answer (and then is
            // needed: the coordinator has the partition).
            self.clients[i].pending = Some(op);
            say!(self, format!("{name}.{call}() waits for the answer to its AddPartitionsToTxn, held in the network; EndTxn goes after it"));
            return Ok(CallResult::Pending);
        }
        if !self.clients[i].started && !retrying {
            // Nothing reached Kafka: no EndTxn.
            self.clients[i].state = ClientState::Ready;
            self.clients[i].last_error = None;
            say!(self, format!("{name}.{call}(): nothing was sent in this transaction, so no EndTxn is needed; READY"));
            return Ok(CallResult::Ok);
        }
        self.do_end(i, commit, lose_response)
    }

    pub(super) fn do_end(&mut self, i: usize, commit: bool, lose_response: bool) -> Result<CallResult, String> {
        let id = self.clients[i].transactional_id.clone();
        let name = self.clients[i].name.clone();
        let op = if commit { PendingOp::Commit } else { PendingOp::Abort };
        if self.waits_for_held(i, "EndTxn") {
            // `TransactionalRequestResult.await`: the call waits for the answer to the request
            // already sent, which is held in the network.
            self.clients[i].pending = Some(op);
            say!(self, format!("{name}.{}() waits for the answer to its EndTxn, which is held in the network", op.method()));
            return Ok(CallResult::Pending);
        }
        let ids = (self.clients[i].pid, self.clients[i].epoch, self.clients[i].tv2);
        match self.injected_request(i, "EndTxn", COORD_LANE, || format!("EndTxn({id}, {})", if commit { "COMMIT" } else { "ABORT" })) {
            Some(inject::Injection::Hold) => {
                // `inject P EndTxn hold`: the request is on its way but does not arrive; the call
                // waits (`release P EndTxn` delivers it; after request.timeout.ms the client sends
                // it again).
                let text = format!("EndTxn{}({id}, producer {} epoch {}, {})", if ids.2 { " v5" } else { " v4" }, ids.0, ids.1, if commit { "COMMIT" } else { "ABORT" });
                self.clients[i].pending = Some(op);
                Ok(self.hold_request(i, inject::HeldCall::EndTxn { commit }, text, op.method()))
            }
            Some(inject::Injection::LoseResponse) => {
                // `inject P EndTxn lose-response`: the coordinator decided and wrote it; the answer
                // is lost. Within max.block.ms the client's request times out (request.timeout.ms),
                // it disconnects, looks the coordinator up again and sends the same EndTxn, which
                // the coordinator answers from the state it is in now: CONCURRENT_TRANSACTIONS while
                // the markers are out (the client retries), NONE once complete (a retry of the
                // same EndTxn, E rules). `commit P lose-response` is the other case: no answer
                // within max.block.ms, the call throws.
                let a = self.end_txn_request(i, commit, "", ids);
                self.coordinator_answer_msg(&name, "EndTxn", &a, &id, &[]);
                let k = self.last_response();
                self.lose_answer(k, COORD_LANE, i, "EndTxn", a.error);
                self.injected_loss(i, "EndTxn");
                self.end_with(i, commit, lose_response, " again", ids)
            }
            Some(inject::Injection::Answer(e)) => self.end_answered(i, commit, false, World::injected_coordinator_answer(e)),
            _ => self.end_with(i, commit, lose_response, "", ids),
        }
    }

    /// An EndTxn of client `i` carrying `ids` (producer id, epoch, TV2) reaches the coordinator
    /// (`suffix` says which copy), and its answer the client, which reacts (`lose_response`:
    /// `commit P lose-response`, no answer within max.block.ms).
    pub(super) fn end_with(&mut self, i: usize, commit: bool, lose_response: bool, suffix: &str, ids: (i64, i16, bool)) -> Result<CallResult, String> {
        let a = self.end_txn_request(i, commit, suffix, ids);
        if self.trace && !end_answer_lost(lose_response, &a) {
            let (name, id) = (self.clients[i].name.clone(), self.clients[i].transactional_id.clone());
            self.coordinator_answer_msg(&name, "EndTxn", &a, &id, &[]);
        }
        self.end_answered(i, commit, lose_response, a)
    }

    /// `commitTransaction()` / `abortTransaction()` reads the answer `a` to its EndTxn (drawn
    /// already, unless it is lost: `lose_response`).
    pub(super) fn end_answered(&mut self, i: usize, commit: bool, lose_response: bool, a: Answer) -> Result<CallResult, String> {
        let (tv2, result) = (self.clients[i].tv2, if commit { "COMMIT" } else { "ABORT" });
        let op = if commit { PendingOp::Commit } else { PendingOp::Abort };
        if end_answer_lost(lose_response, &a) {
            let k = msg_rule!(self, COORD_LANE, self.producer_lane(&self.clients[i].name), "response", format!("EndTxn response {} — lost on the way back", a.error), a.rule, a.source, a.error);
            if let Some(m) = self.messages.get_mut(k) {
                m.lost = true;
            }
            let c = &mut self.clients[i];
            c.pending = Some(op);
            c.outcome_unknown = true;
            // `TransactionalRequestResult.await(maxBlockTimeMs)`: the answer did not come back
            // in time, so commitTransaction()/abortTransaction() throws a TimeoutException
            // (the state stays COMMITTING/ABORTING_TRANSACTION; the retried call awaits the same
            // result).
            // `KafkaProducer` adds its COMMIT_TXN_TIMEOUT_MSG / ABORT_TXN_TIMEOUT_MSG (the commit's
            // text as Kafka 4.3.1 printed it, tests/kafka/txn_scenarios.py txn-commit-response-lost).
            let thrown = format!(
                "TimeoutException: Timeout expired after {MAX_BLOCK_MS}ms while awaiting EndTxn({commit}). {}",
                if commit {
                    "CommitTransaction timed out - did not complete EndTxn with the transaction coordinator within max.block.ms"
                } else {
                    "AbortTransaction timed out - did not complete EndTxn(abort) with the transaction coordinator within max.block.ms"
                }
            );
            c.last_error = Some(thrown.clone());
            say!(self, format!(
                "{}.{}() throws {thrown}: the coordinator has decided ({}), but the producer does not know — the outcome is UNKNOWN. The only correct move is to call the same method again (KIP-588); calling the other one throws.",
                self.clients[i].name,
                op.method(),
                a.wrote.map_or("no change", |s| s.name())
            ));
            return Ok(CallResult::Thrown(thrown));
        }
        match a.error {
            ErrorCode::NONE => {
                let c = &mut self.clients[i];
                if tv2 && a.producer_id >= 0 && (c.pid, c.epoch) != (a.producer_id, a.producer_epoch) {
                    // TV2: adopt the bumped epoch (or the next producer id) and restart
                    // sequences at 0. Under TV1 the epoch stays and sequences continue.
                    c.pid = a.producer_id;
                    c.epoch = a.producer_epoch;
                    restart_sequences(&mut c.sequences);
                }
                empty_set(&mut c.added);
                c.started = false;
                c.pending = None;
                c.outcome_unknown = false;
                c.last_error = None;
                c.state = ClientState::Ready;
                // The coordinator answered with the current (pid, epoch): under TV2 a producer
                // whose transaction timed out recovers this way (T3), so it is fenced no more.
                self.fenced.remove(self.clients[i].name.as_str());
                say!(self, format!(
                    "{}: {result} accepted ({}); the producer is READY{}. Markers go to each partition next.",
                    self.clients[i].name,
                    a.rule,
                    if tv2 { format!(" at epoch {} (TV2 bumps the epoch at every EndTxn)", self.clients[i].epoch) } else { String::new() }
                ));
                self.maybe_switch_protocol(i);
                Ok(CallResult::Ok)
            }
            e if e == coordinator::CONCURRENT_TRANSACTIONS => {
                // An answer arrived: the client itself retries until the state completes.
                self.clients[i].pending = Some(op);
                self.clients[i].outcome_unknown = false;
                say!(self, format!("{}: CONCURRENT_TRANSACTIONS — the transaction is still completing; the client retries EndTxn ({})", self.clients[i].name, a.rule));
                Ok(CallResult::Pending)
            }
            e => {
                // `TransactionManager.EndTxnHandler`: INVALID_PRODUCER_EPOCH is treated as
                // PRODUCER_FENCED (fatal); INVALID_TXN_STATE is fatal as itself; an unknown or
                // unmapped producer id is abortable if the epoch can be bumped; anything else a
                // fatal KafkaException. The call that got the answer rethrows it.
                let e = if e == ErrorCode::INVALID_PRODUCER_EPOCH { ErrorCode::PRODUCER_FENCED } else { e };
                let thrown = match e.0 {
                    90 | 48 | 49 | 59 => format!("{}: {}", e.exception(), e.message()),
                    _ => format!("KafkaException: Unhandled error in EndTxnResponse: {}", e.message()),
                };
                self.client_error(i, e, "EndTxn");
                Ok(self.rethrow(i, op.method(), thrown))
            }
        }
    }

    /// One EndTxn of client `i`, as the coordinator handles it: the request, the decision, the
    /// write and the markers it queues. The answer is drawn, and reacted to, by the caller.
    pub(super) fn end_txn_request(&mut self, i: usize, commit: bool, suffix: &str, ids: (i64, i16, bool)) -> Answer {
        let (pid, epoch, tv2) = ids;
        let tv = if tv2 { Tv::Tv2 } else { Tv::Tv1 };
        let result = if commit { "COMMIT" } else { "ABORT" };
        msg!(
            self,
            self.producer_lane(&self.clients[i].name),
            COORD_LANE,
            "EndTxn",
            format!("EndTxn{}({}, producer {pid} epoch {epoch}, {result}){suffix}", if tv2 { " v5" } else { " v4" }, self.clients[i].transactional_id)
        );
        self.metric(Metric::EndTxnRequests, 1);
        // Completion time is measured from the first EndTxn of the transaction (retries keep it).
        if let Some(&t) = self.open_txn.get(self.clients[i].transactional_id.as_str()) {
            self.end_txn_at.entry(t).or_insert(self.idem.cluster.now_ms);
        }
        let a = self.coordinator.end_txn_alloc(&self.clients[i].transactional_id, pid, epoch, commit, tv, self.idem.cluster.now_ms, self.idem.cluster.next_producer_id);
        let ci = self.coordinator.index(&self.clients[i].transactional_id);
        if ci.is_some_and(|ci| self.coordinator.txns[ci].next_producer_id == self.idem.cluster.next_producer_id) {
            self.idem.cluster.next_producer_id += 1;
        }
        let elapsed = self.tick(if a.wrote.is_some() { 1 } else { 0 });
        self.metric(if commit { Metric::CommitTime } else { Metric::AbortTime }, elapsed * 1_000_000);
        if a.wrote.is_some() {
            let r = ci.and_then(|ci| self.write_txn_log_at(ci));
            let k = msg!(self, COORD_LANE, COORD_LANE, "append", format!("__transaction_state: {} for {} (K1)", a.wrote.map_or("", |s| s.name()), self.clients[i].transactional_id));
            self.link(k, r);
            // None: a TV2 empty abort, a transaction with no partitions.
            let t = match self.open_txn.get(self.clients[i].transactional_id.as_str()).copied() {
                Some(t) => t,
                None => self.current_instance(i),
            };
            if commit && self.fenced.contains(self.clients[i].name.as_str()) {
                self.txns[t].commit_by_fenced = true;
            }
            if let Some(ci) = ci {
                // A client's EndTxn: the markers follow the protocol of that EndTxn (the
                // coordinator's clientTransactionVersion), not the cluster's level now (TV).
                // On 4.1 every marker goes out as WriteTxnMarkers v1 and meets M1 (KafkaLine).
                let version = self.cluster.kafka.marker_version(tv2);
                self.queue_markers_with(ci, t, commit, version);
            }
        }
        a
    }

    /// The call `call` of client `i` throws `thrown`, the exception the answer it awaited
    /// failed its `TransactionalRequestResult` with (`KafkaProducer` rethrows from
    /// `TransactionalRequestResult.await`); the client keeps it as its last error.
    pub(super) fn rethrow(&mut self, i: usize, call: &str, thrown: String) -> CallResult {
        let name = self.clients[i].name.clone();
        let during = self.clients[i].last_error.take().unwrap_or_default();
        self.clients[i].last_error = Some(if during.is_empty() { thrown.clone() } else { format!("{thrown} ({during})") });
        say!(self, format!("{name}.{call}() throws {thrown}"));
        CallResult::Thrown(thrown)
    }

    /// A 4.x client re-reads the finalized transaction.version between transactions;
    /// an upgrade to TV2 forces a client-side epoch bump (InitProducerId with pid/epoch).
    /// The level it re-reads is the one of its last ApiVersions answer (`features_tv`): Kafka
    /// 4.3.1's client sends ApiVersions only when it connects, so a producer whose connections
    /// stay up keeps its protocol after `kafka-features.sh upgrade` (seen on a real broker:
    /// tests/kafka/txn_scenarios.py, txn-protocol-upgrade).
    pub(super) fn maybe_switch_protocol(&mut self, i: usize) {
        let want = self.clients[i].features_tv >= 2;
        if self.clients[i].tv2 == want {
            return;
        }
        self.clients[i].tv2 = want;
        let name = self.clients[i].name.clone();
        say!(self, format!("{name} sees transaction.version {} and switches to the {} protocol between transactions", self.clients[i].features_tv, if want { "V2" } else { "V1" }));
        if want {
            let cur = (self.clients[i].pid, self.clients[i].epoch);
            self.clients[i].state = ClientState::Initializing;
            let _ = self.do_init(i, Some(cur));
        }
    }
}
