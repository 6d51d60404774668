//! The application's calls that are not one request: crash, an external effect, the feature
//! level; and what a client does with an error or a retry.

use super::*;

impl World {

    // ----- the application's calls -----------------------------------------------------

    /// The last message, if it is an answer drawn on the timeline.
    pub(super) fn last_response(&self) -> Option<usize> {
        self.messages.len().checked_sub(1).filter(|k| self.trace && self.messages[*k].kind == "response")
    }

    /// A transactional error reaching the client: fatal or abortable.
    pub(super) fn client_error(&mut self, i: usize, e: ErrorCode, during: &str) {
        let fatal = matches!(e.0, 90 | 49 | 53) || (e == ErrorCode::INVALID_TXN_STATE && during != "Produce");
        let c = &mut self.clients[i];
        c.last_error = Some(format!("{} during {during}", e.exception()));
        let name = c.name.clone();
        if fatal {
            c.state = ClientState::FatalError;
            c.pending = None;
            say!(self, format!("{name}: {} during {during} is fatal: the producer must be closed (TransactionManager)", e.exception()));
        } else if c.state != ClientState::FatalError {
            c.state = ClientState::AbortableError;
            say!(self, format!("{name}: {} during {during} is abortable: the application must call abortTransaction() (TransactionManager)", e.exception()));
        }
    }

    /// Clients retry operations the coordinator answered CONCURRENT_TRANSACTIONS.
    pub(super) fn retry_pending(&mut self) {
        for i in 0..self.clients.len() {
            let c = &self.clients[i];
            if c.crashed || c.outcome_unknown || !c.unacked.is_empty() {
                continue;
            }
            let busy = self.coordinator.get(&c.transactional_id).is_some_and(|m| m.pending_state.is_some());
            if busy {
                continue;
            }
            if self.held_requests.iter().any(|h| h.client == i && !h.timed_out) {
                // It waits for the answer to a request held in the network.
                continue;
            }
            if !c.held.is_empty() || !c.requeued.is_empty() {
                let _ = self.resume_held_sends(i);
                continue;
            }
            let c = &self.clients[i];
            match c.pending {
                Some(PendingOp::Init) => {
                    let _ = self.do_init(i, None);
                }
                Some(PendingOp::Commit) => {
                    let _ = self.do_end(i, true, false);
                }
                Some(PendingOp::Abort) => {
                    let _ = self.do_end(i, false, false);
                }
                None => {}
            }
        }
    }

    /// Client `i`'s batches waiting in the accumulator go now; a commit that waited for them
    /// (flush) follows, whose result is returned (Ok when none did).
    pub(super) fn resume_held_sends(&mut self, i: usize) -> CallResult {
        let name = self.clients[i].name.clone();
        let held = core::mem::take(&mut self.clients[i].held);
        let requeued = core::mem::take(&mut self.clients[i].requeued);
        let pending = self.clients[i].pending.take();
        if pending == Some(PendingOp::Commit) {
            self.clients[i].state = ClientState::InTransaction;
        }
        // The re-enqueued batches go first, with their sequences, then the held sends.
        for sent in requeued {
            let b = crate::batch::Batch::new_unchecked(&sent.bytes[..]);
            let ids = (b.producer_id(), b.producer_epoch(), self.clients[i].tv2);
            let msgs_before = self.messages.len();
            let r = self.produce_request(i, &sent, ids, " (sent again)");
            self.produce_answered(i, sent, r, msgs_before);
        }
        for (p, v) in held {
            let _ = self.send(&name, &p, &v);
        }
        if pending == Some(PendingOp::Commit) && self.clients[i].held.is_empty() && self.clients[i].requeued.is_empty() && self.clients[i].state == ClientState::InTransaction {
            return self.end(&name, true, false).unwrap_or(CallResult::Ok);
        }
        if self.clients[i].pending.is_none() {
            self.clients[i].pending = pending;
        }
        CallResult::Ok
    }

    /// The producer process dies (its open transaction stays open at the coordinator).
    pub fn crash(&mut self, name: &str) -> Result<(), String> {
        let i = self.client_index(name)?;
        self.clients[i].crashed = true;
        say!(self, format!("{name} crashes: whatever it started stays open until a new instance of {} calls initTransactions() or transaction.timeout.ms passes", self.clients[i].transactional_id));
        Ok(())
    }

    /// The application performs an external side effect (an HTTP payment): no Kafka abort
    /// can undo it. With an idempotency key the external service drops repeats.
    pub fn effect(&mut self, actor: &str, name: &str, key: Option<&str>) {
        let lane = if self.consumers.iter().any(|c| c.name == actor) { self.consumer_lane(actor) } else { self.producer_lane(actor) };
        let producer = actor;
        let seen_key = key.is_some_and(|k| self.effects.iter().any(|e| e.key.as_deref() == Some(k) && !e.duplicate));
        let repeat = self.effects.iter().any(|e| e.name == name && !e.duplicate);
        let dup = if key.is_some() { false } else { repeat };
        if seen_key {
            msg!(self, lane.clone(), EXTERNAL_LANE, "effect", format!("{name} (idempotency key {}) — the service has seen this key and does nothing", key.unwrap_or("")));
            say!(self, format!("{producer} repeats {name}, but the idempotency key makes the external service answer with the first result: applied once"));
            return;
        }
        self.effects.push(Effect { name: name.into(), key: key.map(String::from), producer: producer.into(), step: self.step, duplicate: dup });
        msg!(self, lane.clone(), EXTERNAL_LANE, "effect", format!("{name}{}", key.map_or(String::new(), |k| format!(" (idempotency key {k})"))));
        if dup {
            say!(self, format!("{producer} performs {name} again: outside Kafka nothing deduplicates it — the payment happened twice, whatever the transaction's outcome"));
        } else {
            say!(self, format!("{producer} performs {name} outside Kafka: an abort will not undo it"));
        }
    }

    /// `kafka-features.sh upgrade --feature transaction.version=N`.
    pub fn set_feature(&mut self, level: u8) {
        self.cluster.transaction_version = level;
        msg_rule!(self, COORD_LANE, COORD_LANE, "feature", format!("transaction.version finalized at {level}"), "TV", TRANSACTION_VERSION, ErrorCode::NONE);
        say!(self, format!("the cluster finalizes transaction.version={level}; clients switch protocol only between transactions (TransactionManager)"));
    }

    /// `kafka-features.sh describe` for transaction.version.
    pub fn features_line(&self) -> String {
        format!(
            "Feature: transaction.version\tSupportedMinVersion: 0\tSupportedMaxVersion: 2\tFinalizedVersionLevel: {}",
            self.cluster.transaction_version
        )
    }
}
