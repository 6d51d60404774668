//! beginTransaction() and the partitions a transaction adds (AddPartitionsToTxn, or the leader's
//! verification under transaction.version 2).

use super::*;

impl World {
    /// `beginTransaction()`: local only.
    pub fn begin(&mut self, name: &str) -> Result<CallResult, String> {
        let i = self.client_index(name)?;
        self.not_blocked(i, "beginTransaction")?;
        if let Some(r) = self.check_usable(i, "beginTransaction") {
            return Ok(r);
        }
        if self.clients[i].state != ClientState::Ready {
            let e = format!("IllegalStateException: Invalid transition attempted from state {} to state IN_TRANSACTION", self.clients[i].state.name());
            msg_rule!(self, self.producer_lane(name), self.producer_lane(name), "call", format!("beginTransaction() throws {e}"), "C6.1", TRANSACTION_MANAGER, ErrorCode::NONE);
            say!(self, format!("{name}.beginTransaction() throws {e}"));
            return Ok(CallResult::Thrown(e));
        }
        let c = &mut self.clients[i];
        c.state = ClientState::InTransaction;
        empty_set(&mut c.added);
        c.started = false;
        c.begin_ms = self.idem.cluster.now_ms;
        self.metric(Metric::BeginTime, 1_000);
        say!(self, format!("{name}.beginTransaction(): IN_TRANSACTION (nothing is sent to the coordinator yet)"));
        Ok(CallResult::Ok)
    }

    pub(super) fn current_instance(&mut self, i: usize) -> usize {
        let c = &self.clients[i];
        if let Some(&t) = self.open_txn.get(c.transactional_id.as_str()) {
            if self.txns[t].pid == c.pid && self.txns[t].producer == c.name {
                return t;
            }
        }
        let id = c.transactional_id.clone();
        self.txns.push(TxnInstance {
            transactional_id: id.clone(),
            producer: self.clients[i].name.clone(),
            pid: self.clients[i].pid,
            epoch: self.clients[i].epoch,
            // Its records are pushed next (the room the first push would make).
            records: Vec::with_capacity(4),
            ..Default::default()
        });
        let t = self.txns.len() - 1;
        self.open_txn.insert(id, t);
        t
    }

    /// TV1 AddPartitionsToTxn (or AddOffsetsToTxn for the offsets partition, whose
    /// TxnOffsetCommit then carries `consumer`'s positions).
    pub(super) fn add_partition_tv1(&mut self, i: usize, partition: Name, kind: &'static str, consumer: Option<&str>) -> Added {
        let (id, pid, epoch) = (self.clients[i].transactional_id.clone(), self.clients[i].pid, self.clients[i].epoch);
        let text = format!("{kind}({id}, producer {pid} epoch {epoch}, {partition})");
        let lose = match self.injected_request(i, kind, COORD_LANE, || text.clone()) {
            Some(inject::Injection::Hold) => {
                let call = inject::HeldCall::Add { api: kind, partition, consumer: consumer.map(String::from) };
                self.hold_request(i, call, text, if kind == "AddOffsetsToTxn" { "sendOffsetsToTransaction" } else { "send" });
                return Added::Held;
            }
            Some(inject::Injection::Answer(e)) => return self.add_answered(i, partition, e),
            Some(inject::Injection::LoseResponse) => true,
            _ => false,
        };
        // `inject P AddPartitionsToTxn|AddOffsetsToTxn lose-response`: the coordinator did its
        // part; the answer is lost, and the client sends the request again after its timeout.
        // The retry finds the partition added: NONE, nothing written again.
        let a = self.answered_after_loss(i, kind, COORD_LANE, lose, |w, again| w.add_partitions_request(i, partition.clone(), kind, (pid, epoch), if again { " again" } else { "" }), |a| a.error);
        self.add_answered(i, partition, a.error)
    }

    /// One TV1 AddPartitionsToTxn / AddOffsetsToTxn of client `i` carrying `ids` (producer id,
    /// epoch), as the coordinator handles it: the request (`suffix` says which copy), the
    /// decision and its write, the answer on the timeline (its message index, if drawn).
    pub(super) fn add_partitions_request(&mut self, i: usize, partition: Name, kind: &'static str, ids: (i64, i16), suffix: &str) -> (Answer, Option<usize>) {
        let name = self.clients[i].name.clone();
        let id = self.clients[i].transactional_id.clone();
        let (pid, epoch) = ids;
        msg!(self, self.producer_lane(&name), COORD_LANE, kind, format!("{kind}({id}, producer {pid} epoch {epoch}, {partition}){suffix}"));
        self.metric(Metric::AddPartitionsRequests, 1);
        let a = self.coordinator.add_partitions(&id, pid, epoch, core::slice::from_ref(&partition), self.idem.cluster.now_ms);
        self.tick(if a.wrote.is_some() { 1 } else { 0 });
        if a.wrote.is_some() {
            let r = self.write_txn_log(&id);
            let k = msg!(self, COORD_LANE, COORD_LANE, "append", format!("__transaction_state: Ongoing with {partition}"));
            self.link(k, r);
        }
        self.coordinator_answer_msg(&name, kind, &a, &id, &[partition.as_str()]);
        (a, self.last_response())
    }

    /// The client reads the answer `e` to its add of `partition`.
    pub(super) fn add_answered(&mut self, i: usize, partition: Name, e: ErrorCode) -> Added {
        if e == ErrorCode::NONE {
            self.clients[i].added.insert(partition);
            Added::Yes
        } else {
            Added::Refused(e)
        }
    }

    /// Client `i`'s request of `api`, sent by `request(world, again)` (which returns its answer
    /// and the answer's message index): with `lose`, the first answer is lost on its way back
    /// and, after `request.timeout.ms`, the client sends the request again (`again`); the
    /// answer returned is the one the client reads.
    pub(super) fn answered_after_loss<A>(&mut self, i: usize, api: &'static str, from: Name, lose: bool, mut request: impl FnMut(&mut Self, bool) -> (A, Option<usize>), error: impl Fn(&A) -> ErrorCode) -> A {
        let (a, k) = request(self, false);
        if !lose {
            return a;
        }
        self.lose_answer(k, from, i, api, error(&a));
        self.injected_loss(i, api);
        request(self, true).0
    }
}
