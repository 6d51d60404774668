//! Faults injected on a Java client's requests ("inject what goes wrong, on any
//! request"): `inject P API ERROR` answers P's next request of that API with ERROR without the
//! cluster processing it, `inject P API lose-request` loses P's next request of that API on its
//! way, and `inject P API lose-response` lets the leader or the coordinator process P's next
//! such request but loses its answer (for EndTxn, as `commit P lose-response` does), and
//! `inject P API hold` holds it in the network until `release P API` (the call that sent it
//! waits; a copy the client timed out and sent again still arrives when released, late). The client reacts as `TransactionManager` does (`TransactionManager`'s response handlers): a coordinator
//! that is not available or not the coordinator is looked up again (FindCoordinator) and the
//! request sent again; a retriable answer is retried after `retry.backoff.ms`; a request that is
//! not answered within `request.timeout.ms` ends in a disconnect (`NetworkClient`), after which
//! a coordinator request looks its coordinator up again and is sent again
//! (`TxnRequestHandler.onComplete`: `wasDisconnected` → `lookupCoordinator`, `reenqueue`, then
//! `retry.backoff.ms`) and a Produce is sent again with its sequence (the leader recognises a
//! batch it wrote, A1). An injected answer the client does not retry (any other error, such as
//! PRODUCER_FENCED on EndTxn) is read by the call that sent the request, as the cluster's own
//! answer would be: the client's reaction (the exception the call throws, fatal or
//! abortable) is the model's; only the answer is the script's.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use super::{ErrorCode, World, COORD_LANE, OFFSETS_LANE};

/// `retry.backoff.ms` (the Java client's default).
pub const RETRY_BACKOFF_MS: i64 = 100;
/// `request.timeout.ms` (the Java client's default).
pub const REQUEST_TIMEOUT_MS: i64 = 30_000;

/// The APIs a Java transactional client sends that can be injected on.
pub const APIS: [&str; 6] = ["InitProducerId", "AddPartitionsToTxn", "AddOffsetsToTxn", "TxnOffsetCommit", "EndTxn", "Produce"];

/// What happens to the client's next request of an API.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Injection {
    /// Answered with this error, not processed; the client retries the request.
    Error(ErrorCode),
    /// Answered with this error, not processed; an answer the client does not retry: the call
    /// that sent the request reads it.
    Answer(ErrorCode),
    /// Lost on its way: not processed, no answer (any API).
    LoseRequest,
    /// Processed, its answer lost (any API).
    LoseResponse,
    /// Held in the network until `release P API` (any API): the call that sent it waits; after
    /// `request.timeout.ms` the client sends it again, and the held copy still arrives when
    /// released.
    Hold,
}

/// What a held request asks, and what the call that sent it goes on with once it is answered.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum HeldCall {
    /// `initTransactions()`: InitProducerId with this KIP-360 producer id and epoch (if any).
    InitProducerId { current: Option<(i64, i16)> },
    /// TV1 AddPartitionsToTxn (the batches for `partition` wait in the accumulator), or
    /// AddOffsetsToTxn for the group's `__consumer_offsets` partition (`sendOffsetsToTransaction`
    /// waits; `consumer` is whose positions its TxnOffsetCommit then carries).
    Add { api: &'static str, partition: super::Name, consumer: Option<String> },
    /// `sendOffsetsToTransaction()`'s TxnOffsetCommit of `consumer`'s `positions` in `group` at
    /// `generation`.
    TxnOffsetCommit { consumer: String, group: String, generation: i32, positions: Vec<(String, i64)> },
    /// `commitTransaction()` / `abortTransaction()`.
    EndTxn { commit: bool },
    /// A transactional batch, its sequence assigned: `send()` does not block; a commit or abort
    /// waits for it.
    Produce(super::SentBatch),
}

impl HeldCall {
    pub fn api(&self) -> &'static str {
        match self {
            HeldCall::InitProducerId { .. } => "InitProducerId",
            HeldCall::Add { api, .. } => api,
            HeldCall::TxnOffsetCommit { .. } => "TxnOffsetCommit",
            HeldCall::EndTxn { .. } => "EndTxn",
            HeldCall::Produce(_) => "Produce",
        }
    }
}

/// A Java client's request held in the network (`inject P API hold`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HeldRequest {
    pub client: usize,
    pub call: HeldCall,
    /// The producer id, epoch and protocol the request carries (the client's when it was sent).
    pub ids: (i64, i16, bool),
    /// When it was sent.
    pub since_ms: i64,
    /// The transaction coordinator's epoch when it was sent: a failover since moved
    /// `__transaction_state` to another broker, and a coordinator request delivered to the old
    /// one is answered NOT_COORDINATOR.
    pub coordinator_epoch: i32,
    /// The client's request timed out: it disconnected and sent the request again; this copy,
    /// when released, reaches the coordinator on a connection no one reads any more.
    pub timed_out: bool,
}

impl HeldRequest {
    pub fn api(&self) -> &'static str {
        self.call.api()
    }
}

/// The retriable answers the client retries for `api`, which the script may inject.
pub fn retriable(api: &str) -> &'static [ErrorCode] {
    const COORD: [ErrorCode; 4] = [ErrorCode::COORDINATOR_NOT_AVAILABLE, ErrorCode::NOT_COORDINATOR, ErrorCode::COORDINATOR_LOAD_IN_PROGRESS, ErrorCode::CONCURRENT_TRANSACTIONS];
    const GROUP: [ErrorCode; 4] = [ErrorCode::COORDINATOR_NOT_AVAILABLE, ErrorCode::NOT_COORDINATOR, ErrorCode::COORDINATOR_LOAD_IN_PROGRESS, ErrorCode::REQUEST_TIMED_OUT];
    const PRODUCE: [ErrorCode; 2] = [ErrorCode::NOT_LEADER_OR_FOLLOWER, ErrorCode::NOT_ENOUGH_REPLICAS];
    match api {
        "TxnOffsetCommit" => &GROUP,
        "Produce" => &PRODUCE,
        _ => &COORD,
    }
}

/// Parse `inject P API ERROR|lose-request|lose-response` into (producer, API, injection).
pub fn parse(words: &[&str]) -> Result<(String, &'static str, Injection), String> {
    let [_, p, api, what] = words else {
        return Err(String::from("usage: inject PRODUCER API ERROR|lose-request|lose-response|hold"));
    };
    let api = APIS.iter().copied().find(|a| a.eq_ignore_ascii_case(api)).ok_or_else(|| format!("inject: {api} is not one of {}", APIS.join(", ")))?;
    if *what == "lose-request" {
        return Ok((String::from(*p), api, Injection::LoseRequest));
    }
    if *what == "lose-response" {
        return Ok((String::from(*p), api, Injection::LoseResponse));
    }
    if *what == "hold" {
        return Ok((String::from(*p), api, Injection::Hold));
    }
    let e = ErrorCode::from_name(what).ok_or_else(|| format!("inject: {what} is not a Kafka error name"))?;
    if e == ErrorCode::NONE {
        return Err(String::from("inject: NONE is the answer the cluster gives; inject an error, or lose-request, lose-response, hold"));
    }
    if retriable(api).contains(&e) {
        Ok((String::from(*p), api, Injection::Error(e)))
    } else {
        Ok((String::from(*p), api, Injection::Answer(e)))
    }
}

impl World {
    /// `inject P API …`: armed for P's next request of that API.
    pub fn inject(&mut self, producer: &str, api: &'static str, what: Injection) -> Result<(), String> {
        let i = self.client_index(producer)?;
        self.injections.retain(|(c, a, _)| !(*c == i && *a == api));
        self.injections.push((i, api, what));
        say!(self, format!("{producer}'s next {api} request: {}", match what {
            Injection::Error(e) => format!("answered {} without being processed", e.name()),
            Injection::Answer(e) => format!("answered {} without being processed (an answer the client does not retry: the call reads it)", e.name()),
            Injection::LoseRequest => String::from("lost on its way (never processed, never answered)"),
            Injection::LoseResponse => String::from("processed, but its answer is lost"),
            Injection::Hold => String::from("held in the network until released"),
        }));
        Ok(())
    }

    /// The injection armed for client `i`'s `api`, taken.
    pub(super) fn take_injection(&mut self, i: usize, api: &str) -> Option<Injection> {
        let k = self.injections.iter().position(|(c, a, _)| *c == i && *a == api)?;
        Some(self.injections.remove(k).2)
    }

    /// Client `i`'s next request of `api`, going to `to` as `request()` says, meets the fault
    /// armed for it, which is returned: answered with an error, or lost (the request on the
    /// timeline, marked lost; the client's reaction), after which the caller sends the request
    /// again, for real; or processed with its answer lost, which the caller handles.
    pub(super) fn injected_request(&mut self, i: usize, api: &'static str, to: super::Name, request: impl FnOnce() -> String) -> Option<Injection> {
        let what = self.take_injection(i, api)?;
        let from = self.producer_lane(&self.clients[i].name.clone());
        match what {
            Injection::Error(e) => {
                msg!(self, from, to.clone(), api, request());
                self.injected_answer(i, api, to, e);
            }
            Injection::Answer(e) => {
                msg!(self, from, to.clone(), api, request());
                self.injected_answer_msg(i, api, to, e);
                say!(self, format!("{}: {api} answered {} — not an answer the client retries (TransactionManager): the call reads it", self.clients[i].name, e.name()));
            }
            Injection::LoseRequest => {
                let k = msg!(self, from, to, api, format!("{} — lost on its way", request()));
                if let Some(m) = self.messages.get_mut(k) {
                    m.lost = true;
                }
                self.injected_loss(i, api);
            }
            Injection::LoseResponse | Injection::Hold => {}
        }
        Some(what)
    }

    /// Client `i`'s request (`text`) is held in the network: drawn, not arrived; `call()` (the
    /// method that sent it) waits for its answer.
    pub(super) fn hold_request(&mut self, i: usize, call: HeldCall, text: String, method: &str) -> super::CallResult {
        let name = self.clients[i].name.clone();
        let api = call.api();
        let to = self.held_lane(&call);
        msg!(self, self.producer_lane(&name), to, api, format!("{text} — held in the network: it has not arrived"));
        let ids = (self.clients[i].pid, self.clients[i].epoch, self.clients[i].tv2);
        self.held_requests.push(HeldRequest { client: i, call, ids, since_ms: self.idem.cluster.now_ms, coordinator_epoch: self.coordinator_epoch, timed_out: false });
        say!(self, if api == "Produce" {
            format!("{name}.send(): the batch is sent, and the Produce is held in the network; a commit or abort waits for its answer")
        } else if method == "send" {
            format!("{name}.send(): its AddPartitionsToTxn is held in the network; the batch waits in the accumulator until the partition is added")
        } else {
            format!("{name}.{method}() sends {api} and waits: the request is held in the network")
        });
        super::CallResult::Pending
    }

    /// Where a held request goes: its partition's leader (Produce), else the coordinator.
    fn held_lane(&self, call: &HeldCall) -> super::Name {
        match call {
            HeldCall::Produce(sent) => self.partition_lane(self.idem.cluster.partitions[sent.partition].name.as_str()),
            HeldCall::TxnOffsetCommit { .. } => OFFSETS_LANE,
            _ => COORD_LANE,
        }
    }

    /// Client `i` waits for the answer to its `api` request held in the network.
    pub(super) fn waits_for_held(&self, i: usize, api: &str) -> bool {
        self.held_requests.iter().any(|h| h.client == i && !h.timed_out && h.api() == api)
    }

    /// A call of client `i` while it is blocked in `initTransactions()` or
    /// `sendOffsetsToTransaction()` for a request held in the network: the application's thread
    /// has not come back from it, so the script cannot make the call.
    pub(super) fn not_blocked(&self, i: usize, call: &str) -> Result<(), String> {
        let name = &self.clients[i].name;
        match self.held_requests.iter().find(|h| h.client == i && !h.timed_out && matches!(h.api(), "InitProducerId" | "AddOffsetsToTxn" | "TxnOffsetCommit")) {
            Some(h) => Err(format!(
                "{name}.{call}(): {name} is still blocked in {}() waiting for its {} answer, held in the network: `release {name} {}`, or `advance 30s` (request.timeout.ms) for the client to send it again",
                if h.api() == "InitProducerId" { "initTransactions" } else { "sendOffsetsToTransaction" },
                h.api(),
                h.api()
            )),
            None => Ok(()),
        }
    }

    /// `release P API`: P's held request reaches the coordinator now. If the client is still
    /// waiting for it, its answer is the call's; if the client timed it out and sent it again (or
    /// crashed), it is a late copy the coordinator handles as any request, its answer read by no
    /// one.
    pub fn release(&mut self, producer: &str, api: &str) -> Result<super::CallResult, String> {
        let i = self.client_index(producer)?;
        let k = self.held_requests.iter().position(|h| h.client == i && h.api().eq_ignore_ascii_case(api)).ok_or_else(|| format!("{producer} has no {api} request held in the network"))?;
        let h = self.held_requests.remove(k);
        let api = h.api();
        let moved = h.coordinator_epoch != self.coordinator_epoch && !matches!(h.call, HeldCall::Produce(_) | HeldCall::TxnOffsetCommit { .. });
        if moved {
            // A failover moved the transaction coordinator since the request was sent: it reaches
            // the broker that led `__transaction_state` then, which no longer does
            // (`TransactionStateManager.getTransactionState`: NOT_COORDINATOR), unprocessed.
            let name = self.clients[i].name.clone();
            let plane = self.producer_lane(&name);
            msg!(self, plane.clone(), COORD_LANE, api, format!("{api} (the held copy, sent to coordinator epoch {}) arrives", h.coordinator_epoch));
            let k = msg_rule!(self, COORD_LANE, plane.clone(), "response", format!("{api} response NOT_COORDINATOR: the broker it was sent to no longer leads __transaction_state (coordinator epoch {} now)", self.coordinator_epoch), "C0b", super::super::kafka_source::TRANSACTION_STATE_MANAGER, ErrorCode::NOT_COORDINATOR);
            if h.timed_out || self.clients[i].crashed {
                self.mark_unread(Some(k));
                say!(self, format!("{producer}'s held {api} arrives late at a broker that is no longer the coordinator: NOT_COORDINATOR, nothing done"));
                return Ok(super::CallResult::Ok);
            }
            // The client reacts as to any NOT_COORDINATOR: it looks the coordinator up
            // again and sends the request there.
            self.find_coordinator_again(i, api, "the coordinator is looked up again", "the new coordinator");
            say!(self, format!("{producer}'s held {api} reaches the broker that was the coordinator when it was sent: NOT_COORDINATOR; the client looks the coordinator up again and sends it there"));
            self.idem.cluster.now_ms += RETRY_BACKOFF_MS;
            let ids = (self.clients[i].pid, self.clients[i].epoch, self.clients[i].tv2);
            return self.deliver_held(i, h.call, ids, " again");
        }
        if h.timed_out || self.clients[i].crashed {
            say!(self, format!(
                "{producer}'s held {api} arrives late, after the client {}: the {} handles it all the same",
                if h.timed_out { "timed it out and sent it again" } else { "crashed" },
                match api {
                    "Produce" => "leader",
                    "TxnOffsetCommit" => "group coordinator",
                    _ => "coordinator",
                }
            ));
            self.deliver_late(i, h);
            return Ok(super::CallResult::Ok);
        }
        let method = match &h.call {
            HeldCall::InitProducerId { .. } => "initTransactions",
            HeldCall::Add { api: "AddOffsetsToTxn", .. } | HeldCall::TxnOffsetCommit { .. } => "sendOffsetsToTransaction",
            HeldCall::Add { .. } => "send",
            HeldCall::EndTxn { commit: true } => "commitTransaction",
            HeldCall::EndTxn { commit: false } => "abortTransaction",
            HeldCall::Produce(_) => "",
        };
        say!(self, match &h.call {
            // send() returned long ago; what waits is a commit or abort, if any.
            HeldCall::Produce(sent) => format!("{producer}'s held Produce reaches the leader of {} now", self.idem.cluster.partitions[sent.partition].name),
            HeldCall::TxnOffsetCommit { .. } => format!("{producer}'s held TxnOffsetCommit reaches the group coordinator now; {producer}.{method}() has been waiting for it"),
            _ => format!("{producer}'s held {api} reaches the coordinator now; {producer}.{method}() has been waiting for it"),
        });
        self.deliver_held(i, h.call, h.ids, " (held, delivered now)")
    }

    /// Client `i`'s request `call` carrying `ids` reaches the coordinator (`suffix` says which
    /// copy), and the call that waited for it reads the answer and goes on.
    fn deliver_held(&mut self, i: usize, call: HeldCall, ids: (i64, i16, bool), suffix: &str) -> Result<super::CallResult, String> {
        match call {
            HeldCall::InitProducerId { current } => {
                let (a, _) = self.init_producer_id_request(i, current, suffix);
                self.init_answered(i, a)
            }
            HeldCall::Add { api, partition, consumer } => {
                let (a, _) = self.add_partitions_request(i, partition.clone(), api, (ids.0, ids.1), suffix);
                let added = self.add_answered(i, partition, a.error);
                self.after_held_add(i, api, consumer, added)
            }
            HeldCall::TxnOffsetCommit { consumer, group, generation, positions } => {
                let (answer, _) = self.txn_offset_commit(i, &consumer, &group, generation, &positions, ids, suffix);
                self.offsets_answered(i, answer)
            }
            HeldCall::EndTxn { commit } => self.end_with(i, commit, false, suffix, ids),
            HeldCall::Produce(sent) => {
                let msgs_before = self.messages.len();
                let r = self.produce_request(i, &sent, ids, suffix);
                Ok(self.after_held_produce(i, sent, r, msgs_before))
            }
        }
    }

    /// A held request that the client no longer waits for (it timed it out, or crashed) reaches
    /// the coordinator, which handles it as any request; its answer goes to a closed connection.
    fn deliver_late(&mut self, i: usize, h: HeldRequest) {
        const LATE: &str = " (the held copy, late)";
        let name = self.clients[i].name.clone();
        let id = self.clients[i].transactional_id.clone();
        match h.call {
            HeldCall::InitProducerId { current } => {
                let (a, _) = self.init_producer_id_request(i, current, LATE);
                if a.error == ErrorCode::NONE {
                    // The epoch it bumped is one its sender never reads: the client itself is fenced.
                    self.fence_instances(&id, None);
                }
            }
            HeldCall::Add { api, partition, .. } => {
                self.add_partitions_request(i, partition, api, (h.ids.0, h.ids.1), LATE);
            }
            HeldCall::TxnOffsetCommit { consumer, group, generation, positions } => {
                let _ = self.txn_offset_commit(i, &consumer, &group, generation, &positions, h.ids, LATE);
            }
            HeldCall::EndTxn { commit } => {
                let a = self.end_txn_request(i, commit, LATE, h.ids);
                self.coordinator_answer_msg(&name, "EndTxn", &a, &id, &[]);
            }
            HeldCall::Produce(sent) => {
                let _ = self.produce_request(i, &sent, h.ids, LATE);
            }
        }
        let k = self.last_response();
        self.mark_unread(k);
    }

    /// The answer drawn as message `k` goes to a connection the client has closed.
    fn mark_unread(&mut self, k: Option<usize>) {
        if let Some(m) = k.filter(|_| self.trace).and_then(|k| self.messages.get_mut(k)) {
            m.lost = true;
            m.text.push_str(" — to a connection the client has closed: no one reads it");
        }
    }

    /// Client `i` looks the coordinator of its `api` request up again (FindCoordinator: GROUP for
    /// a TxnOffsetCommit, else TRANSACTION): the request (`why` it is sent) and its `answer`.
    fn find_coordinator_again(&mut self, i: usize, api: &str, why: &str, answer: &str) {
        let plane = self.producer_lane(&self.clients[i].name.clone());
        let (key, to) = if api == "TxnOffsetCommit" { ("GROUP", OFFSETS_LANE) } else { ("TRANSACTION", COORD_LANE) };
        msg!(self, plane.clone(), to.clone(), "FindCoordinator", format!("FindCoordinator({key}): {why}"));
        msg!(self, to, plane, "response", format!("FindCoordinator response NONE: {answer}"));
    }

    /// The answer to a held add reaches the call that waited for it: `send()`'s batches go (and
    /// a commit that waited for them), an abort that waited goes on, `sendOffsetsToTransaction()`
    /// sends its TxnOffsetCommit.
    fn after_held_add(&mut self, i: usize, api: &str, consumer: Option<String>, added: super::Added) -> Result<super::CallResult, String> {
        use super::{Added, ClientState, PendingOp};
        if api == "AddOffsetsToTxn" {
            return match added {
                Added::Yes => {
                    let consumer = consumer.unwrap_or_default();
                    let ci = self.consumer_index(&consumer)?;
                    self.send_offsets_commit(i, ci)
                }
                Added::Held => Ok(super::CallResult::Pending),
                Added::Refused(e) => Ok(self.add_offsets_refused(i, e)),
            };
        }
        let name = self.clients[i].name.clone();
        match added {
            Added::Held => Ok(super::CallResult::Pending),
            // The batches stay in the accumulator; the client retries the add (`retry_pending`).
            Added::Refused(e) if e == ErrorCode::CONCURRENT_TRANSACTIONS => Ok(super::CallResult::Pending),
            Added::Refused(e) => {
                self.clients[i].held.clear();
                self.clients[i].requeued.clear();
                self.client_error(i, e, "AddPartitionsToTxn");
                match self.clients[i].pending.take() {
                    Some(PendingOp::Commit) => {
                        let thrown = format!("{}: {}", e.exception(), e.message());
                        Ok(self.rethrow(i, "commitTransaction", thrown))
                    }
                    Some(PendingOp::Abort) => self.end(&name, false, false),
                    _ => Ok(super::CallResult::Ok),
                }
            }
            Added::Yes if self.clients[i].pending == Some(PendingOp::Abort) => {
                // abortTransaction() waited for the add: the partition is in the transaction at
                // the coordinator, so the abort needs its EndTxn.
                self.clients[i].started = true;
                self.clients[i].state = ClientState::AbortingTransaction;
                self.do_end(i, false, false)
            }
            Added::Yes => Ok(self.resume_held_sends(i)),
        }
    }

    /// The held requests whose client timed them out by now (`request.timeout.ms` after they
    /// were sent): the client disconnects, looks the coordinator up again and sends the request
    /// again, which the coordinator handles at once; the held copy stays in the network.
    pub(super) fn held_request_timeouts(&mut self) {
        let now = self.idem.cluster.now_ms;
        for k in 0..self.held_requests.len() {
            let h = &self.held_requests[k];
            if h.timed_out || h.since_ms + REQUEST_TIMEOUT_MS > now {
                continue;
            }
            let (i, call, api) = (h.client, h.call.clone(), h.api());
            self.held_requests[k].timed_out = true;
            let name = self.clients[i].name.clone();
            if api == "Produce" {
                // `Sender`: the request's batches fail with a disconnect, a retriable error, and go
                // again with their sequences (delivery.timeout.ms has not passed).
                say!(self, format!("{name}: no answer to its Produce within request.timeout.ms ({REQUEST_TIMEOUT_MS} ms): the client disconnects and sends the batch again with the same sequence; the held copy is still on its way"));
            } else {
                self.find_coordinator_again(i, api, "after the disconnect the coordinator is looked up again", "the same broker");
                say!(self, format!("{name}: no answer to its {api} within request.timeout.ms ({REQUEST_TIMEOUT_MS} ms): the client disconnects, looks the coordinator up again and sends it again; the held copy is still on its way"));
            }
            self.idem.cluster.now_ms += RETRY_BACKOFF_MS;
            let ids = (self.clients[i].pid, self.clients[i].epoch, self.clients[i].tv2);
            let _ = self.deliver_held(i, call, ids, " again");
        }
    }

    /// Client `i`'s request of `api` went unanswered: after `request.timeout.ms` the client
    /// disconnects; a coordinator request looks its coordinator up again; the request goes again
    /// after `retry.backoff.ms` (a Produce: with its sequence, the caller sends it).
    pub(super) fn injected_loss(&mut self, i: usize, api: &'static str) {
        let name = self.clients[i].name.clone();
        self.idem.cluster.now_ms += REQUEST_TIMEOUT_MS;
        let coordinator = api != "Produce";
        if coordinator {
            self.find_coordinator_again(i, api, "after the disconnect the coordinator is looked up again", "the same broker");
        }
        self.idem.cluster.now_ms += RETRY_BACKOFF_MS;
        say!(self, format!("{name}: no answer to its {api} within request.timeout.ms ({REQUEST_TIMEOUT_MS} ms): the client disconnects{}, and sends the request again after retry.backoff.ms", if coordinator { ", looks the coordinator up again (TxnRequestHandler: wasDisconnected)" } else { "" }));
    }

    /// An injected answer `e` to client `i`'s coordinator request, as the coordinator's
    /// answers are kept (no ids, nothing written), for the call to read.
    pub(super) fn injected_coordinator_answer(e: ErrorCode) -> super::Answer {
        super::Answer { error: e, producer_id: -1, producer_epoch: -1, rule: "N2", why: super::super::coordinator::Why::Fixed("injected: the request was not processed"), source: super::super::kafka_source::TRANSACTION_MANAGER, wrote: None }
    }

    /// The injected answer `e` from `to` to client `i`'s request of `api`, on the timeline (N2).
    fn injected_answer_msg(&mut self, i: usize, api: &'static str, to: super::Name, e: ErrorCode) {
        let plane = self.producer_lane(&self.clients[i].name.clone());
        msg_rule!(self, to, plane, "response", format!("{api} response {e} (injected: the request was not processed)"), "N2", super::super::kafka_source::TRANSACTION_MANAGER, e);
    }

    /// Client `i`'s request of `api` to `to` is answered `e` by it without being processed: the
    /// answer on the timeline, the client's reaction (FindCoordinator again for 15/16), and the
    /// backoff. The caller then sends the request again, for real.
    pub(super) fn injected_answer(&mut self, i: usize, api: &'static str, to: super::Name, e: ErrorCode) {
        let name = self.clients[i].name.clone();
        self.injected_answer_msg(i, api, to, e);
        if matches!(e, ErrorCode::COORDINATOR_NOT_AVAILABLE | ErrorCode::NOT_COORDINATOR) || (api == "TxnOffsetCommit" && e == ErrorCode::REQUEST_TIMED_OUT) {
            self.find_coordinator_again(i, api, "the coordinator is looked up again", "the same broker");
        }
        // `TransactionManager.AddPartitionsToTxnHandler`: CONCURRENT_TRANSACTIONS on the first add
        // of a transaction is retried after 20 ms (ADD_PARTITIONS_RETRY_BACKOFF_MS), not retry.backoff.ms.
        let first_add = api == "AddPartitionsToTxn" && e == ErrorCode::CONCURRENT_TRANSACTIONS && self.clients[i].added.is_empty();
        self.idem.cluster.now_ms += if first_add { 20 } else { RETRY_BACKOFF_MS };
        say!(self, format!("{name}: {api} answered {} — retriable (TransactionManager): {}the request goes again after retry.backoff.ms", e.name(), if matches!(e, ErrorCode::COORDINATOR_NOT_AVAILABLE | ErrorCode::NOT_COORDINATOR) { "the coordinator is looked up again and " } else { "" }));
    }
}
