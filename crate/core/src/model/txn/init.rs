//! initTransactions(): the Java client's InitProducerId, the coordinator's answer and the fencing
//! of older instances.

use super::*;

impl World {
    /// `initTransactions()`: FindCoordinator, then InitProducerId (I1–I11).
    pub fn init(&mut self, name: &str) -> Result<CallResult, String> {
        let i = self.client_index(name)?;
        let c = self.clients[i].clone();
        if c.crashed {
            return Err(format!("{name} has crashed"));
        }
        if c.two_phase_commit {
            let why = String::from(
                "transaction.two.phase.commit.enable=true (KIP-939): InitProducerId v6 with enable2Pc is an unstable API in Kafka 4.3 (keepPreparedTxn answers UNSUPPORTED_VERSION; the public prepare/complete API was removed in 4.2). The model does not guess: OUTSIDE_MODEL.",
            );
            self.outside_model = Some(why.clone());
            msg_rule!(self, self.producer_lane(name), COORD_LANE, "InitProducerId", String::from("InitProducerId(enable2Pc=true)"), "I13", KIP_939, ErrorCode::NONE);
            say!(self, why);
            return Ok(CallResult::Thrown(String::from("OUTSIDE_MODEL")));
        }
        if !(matches!(c.state, ClientState::Uninitialized) || c.pending == Some(PendingOp::Init)) {
            let e = format!("IllegalStateException: Invalid transition attempted from state {} to state INITIALIZING", c.state.name());
            say!(self, format!("{name}.initTransactions() throws {e}"));
            return Ok(CallResult::Thrown(e));
        }
        let id = c.transactional_id.clone();
        let part = Self::coordinator_partition(&id);
        if c.pending.is_none() {
            msg!(self, 
                self.producer_lane(name),
                COORD_LANE,
                "FindCoordinator",
                format!(
                    "FindCoordinator(TRANSACTION, {id}): abs(\"{id}\".hashCode() = {}) % {TRANSACTION_STATE_PARTITIONS} = __transaction_state-{part}; its leader is the coordinator (coordinator epoch {})",
                    coordinator::java_string_hash(&id),
                    self.coordinator_epoch
                ),
            );
            // The client's first connection: ApiVersions tells it the finalized level.
            self.clients[i].features_tv = self.cluster.transaction_version;
            self.clients[i].tv2 = self.cluster.transaction_version >= 2;
        }
        self.clients[i].state = ClientState::Initializing;
        self.do_init(i, None)
    }

    pub(super) fn do_init(&mut self, i: usize, current: Option<(i64, i16)>) -> Result<CallResult, String> {
        let id = self.clients[i].transactional_id.clone();
        if self.waits_for_held(i, "InitProducerId") {
            return Ok(CallResult::Pending);
        }
        let lose = match self.injected_request(i, "InitProducerId", COORD_LANE, || format!("InitProducerId(transactionalId={id})")) {
            Some(inject::Injection::Hold) => {
                let text = format!("InitProducerId(transactionalId={id}{})", current.map_or(String::new(), |(p, e)| format!(", producerId={p}, producerEpoch={e}")));
                self.clients[i].pending = Some(PendingOp::Init);
                return Ok(self.hold_request(i, inject::HeldCall::InitProducerId { current }, text, "initTransactions"));
            }
            Some(inject::Injection::Answer(e)) => return self.init_answered(i, World::injected_coordinator_answer(e)),
            Some(inject::Injection::LoseResponse) => true,
            _ => false,
        };
        // `inject P InitProducerId lose-response`: the coordinator bumped the epoch (or fenced
        // the open transaction) and wrote it; the answer is lost. After its timeout the client
        // sends the same request again (`InitProducerIdHandler`, re-enqueued), which the
        // coordinator handles anew: a second bump when it carried no producer id, the same id
        // and epoch when it carried the epoch just replaced (KIP-360, I10).
        let a = self.answered_after_loss(i, "InitProducerId", COORD_LANE, lose, |w, again| w.init_producer_id_request(i, current, if again { " again" } else { "" }), |a| a.error);
        self.init_answered(i, a)
    }

    /// `initTransactions()` reads the coordinator's answer `a` to its InitProducerId.
    pub(super) fn init_answered(&mut self, i: usize, a: Answer) -> Result<CallResult, String> {
        let id = self.clients[i].transactional_id.clone();
        let name = self.clients[i].name.clone();
        if a.rule == "I11" {
            say!(self, format!(
                "{name} takes over {id}: the coordinator finds a transaction still open, bumps the epoch to fence the old producer, writes PrepareAbort and answers CONCURRENT_TRANSACTIONS; {name} retries once the abort markers are written (I11)."
            ));
            self.clients[i].pending = Some(PendingOp::Init);
            return Ok(CallResult::Pending);
        }
        match a.error {
            ErrorCode::NONE => {
                let c = &mut self.clients[i];
                c.pid = a.producer_id;
                c.epoch = a.producer_epoch;
                c.sequences.clear();
                empty_set(&mut c.added);
                c.started = false;
                c.pending = None;
                c.state = ClientState::Ready;
                c.last_error = None;
                self.fenced.remove(name.as_str());
                say!(self, format!("{name} is READY as producer {} epoch {}: any other instance of {id} is fenced ({})", a.producer_id, a.producer_epoch, a.rule));
                Ok(CallResult::Ok)
            }
            e if e == coordinator::CONCURRENT_TRANSACTIONS => {
                self.clients[i].pending = Some(PendingOp::Init);
                say!(self, format!("{name}: CONCURRENT_TRANSACTIONS — the previous transaction of {id} is still completing; the client retries ({})", a.rule));
                Ok(CallResult::Pending)
            }
            e => {
                // `TransactionManager.InitProducerIdHandler`: PRODUCER_FENCED (or an old
                // coordinator's INVALID_PRODUCER_EPOCH) is a ProducerFencedException; any other
                // error, INVALID_TRANSACTION_TIMEOUT included, a plain KafkaException
                // ("Unexpected error in InitProducerIdResponse; …"). Both are fatal, and
                // initTransactions() rethrows it (`TransactionalRequestResult.await`).
                let thrown = match e.0 {
                    47 | 90 => format!("ProducerFencedException: {}", ErrorCode::PRODUCER_FENCED.message()),
                    _ => format!("KafkaException: Unexpected error in InitProducerIdResponse; {}", e.message()),
                };
                let c = &mut self.clients[i];
                c.pending = None;
                c.state = ClientState::FatalError;
                c.last_error = Some(format!("{thrown} ({} {}: {})", e.name(), a.rule, a.why(&id, &[])));
                say!(self, format!("{name}.initTransactions() throws {thrown} — fatal ({}, {})", e.name(), a.rule));
                Ok(CallResult::Thrown(thrown))
            }
        }
    }

    /// One InitProducerId of client `i` (with `current`, its KIP-360 producer id and epoch),
    /// as the coordinator handles it: the request, the coordinator's decision and write, the
    /// instances it fences and the markers it queues, the answer on the timeline (its message
    /// index, if drawn). The client's reaction is the caller's.
    pub(super) fn init_producer_id_request(&mut self, i: usize, current: Option<(i64, i16)>, suffix: &str) -> (Answer, Option<usize>) {
        let name = self.clients[i].name.clone();
        let id = self.clients[i].transactional_id.clone();
        let timeout = self.clients[i].timeout_ms;
        let new_pid = self.idem.cluster.next_producer_id;
        msg!(self, 
            self.producer_lane(&name),
            COORD_LANE,
            "InitProducerId",
            format!(
                "InitProducerId(transactionalId={id}, transactionTimeoutMs={timeout}{}){}",
                current.map_or(String::new(), |(p, e)| format!(", producerId={p}, producerEpoch={e}")),
                suffix
            ),
        );
        let existed = self.coordinator.get(&id).is_some();
        let a = self.coordinator.init_producer_id(&id, timeout, current, new_pid, self.idem.cluster.now_ms);
        if self.coordinator.get(&id).is_some_and(|m| m.producer_id == new_pid) {
            self.idem.cluster.next_producer_id += 1;
        }
        let elapsed = self.tick(if a.wrote.is_some() { 1 } else { 0 });
        self.metric(Metric::InitTime, elapsed * 1_000_000);
        if a.wrote.is_some() {
            let r = self.write_txn_log(&id);
            let k = msg!(self, COORD_LANE, COORD_LANE, "append", format!("__transaction_state: {} for {id}", a.wrote.map_or("", |s| s.name())));
            self.link(k, r);
        }
        self.coordinator_answer_msg(&name, "InitProducerId", &a, &id, &[]);
        let k = self.last_response();
        if a.rule == "I11" {
            // The coordinator fences the open transaction: every instance holding it is fenced.
            self.fence_instances(&id, Some(&name));
            if let Some(t) = self.open_txn.get(&id).copied() {
                self.queue_markers(&id, t, false);
            }
        } else if a.error == ErrorCode::NONE && existed {
            // The new epoch fences every other instance of the id.
            self.fence_instances(&id, Some(&name));
        }
        (a, k)
    }

    pub(super) fn fence_instances(&mut self, id: &str, except: Option<&str>) {
        let names: Vec<String> = self
            .clients
            .iter()
            .filter(|c| c.transactional_id == id && Some(c.name.as_str()) != except && c.pid >= 0 && !self.fenced.contains(c.name.as_str()))
            .map(|c| String::from(c.name.as_str()))
            .collect();
        for n in names {
            self.fenced.insert(n);
            self.metric(Metric::FencedProducers, 1);
        }
    }

    pub(super) fn check_usable(&mut self, i: usize, call: &str) -> Option<CallResult> {
        let c = &self.clients[i];
        let thrown = if c.crashed {
            Some(format!("{} has crashed", c.name))
        } else if c.state == ClientState::FatalError {
            Some(format!("{}: the producer is in FATAL_ERROR ({}); only close() is meaningful", call, c.last_error.clone().unwrap_or_default()))
        } else if let Some(p) = c.pending.filter(|p| *p != PendingOp::Init) {
            if (call == "commitTransaction" && p == PendingOp::Commit) || (call == "abortTransaction" && p == PendingOp::Abort) {
                None
            } else {
                Some(format!("IllegalStateException: The previous call to `{}` timed out and must be retried (TransactionManager)", p.method()))
            }
        } else if c.state == ClientState::AbortableError && call != "abortTransaction" {
            // TransactionManager.maybeFailWithError: an InvalidProducerEpochException is thrown
            // again as itself (a new instance), anything else wrapped in a KafkaException
            // (seen on Kafka 4.3.1: tests/kafka/txn_scenarios.py, txn-zombie-fenced).
            let last = c.last_error.clone().unwrap_or_default();
            if last.contains("InvalidProducerEpochException") {
                Some(format!(
                    "InvalidProducerEpochException: Producer with transactionalId '{}' and (producerId={}, epoch={}) attempted to produce with an old epoch (cannot {call} in ABORTABLE_ERROR; call abortTransaction())",
                    c.transactional_id, c.pid, c.epoch
                ))
            } else {
                Some(format!("KafkaException: Cannot execute transactional method because we are in an error state: cannot {call} in ABORTABLE_ERROR ({last}); call abortTransaction()"))
            }
        } else {
            None
        };
        thrown.map(|t| {
            let n = self.clients[i].name.clone();
            say!(self, format!("{n}.{call}() throws {t}"));
            CallResult::Thrown(t)
        })
    }
}
