//! The idempotent producer against partition leaders, as a deterministic, sans-IO state
//! machine in the quinn/stateright manner: inputs are [`Action`]s (application calls,
//! network faults, time passing), [`Sim::enabled_actions`] lists what may happen next
//! (it drives the step buttons), and every step appends [`Event`]s to a trace.
//!
//! Client behaviour follows the Java producer (`clients/.../producer/internals/Sender.java`,
//! `TransactionManager.java`, `RecordAccumulator.java`; KIP-98, KIP-360): per-partition
//! sequence numbers assigned when a batch is first sent, at most
//! `max.in.flight.requests.per.connection` requests in flight, responses read in order
//! on a connection, a request whose response does not come within `request.timeout.ms`
//! fails the connection and every in-flight batch on it is retried with its original
//! sequence, `delivery.timeout.ms` bounds a batch's life, and an OUT_OF_ORDER_SEQUENCE_NUMBER
//! for the next expected batch bumps the epoch locally (KIP-360, `canRetry`).
//! Broker decisions come from [`super::partition::Partition`].

use alloc::boxed::Box;
use alloc::collections::{BTreeMap, VecDeque};
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use core::fmt::{self, Write};

use super::cluster::Cluster;
use super::errors::ErrorCode;
use super::partition::{Decision, MarkerVerdict, MarkerVersion, Outcome, Partition};
use super::verdict::Verdict;

mod events;
mod handle;
mod replication;
pub use events::*;
pub use replication::{HeldResponse, Settings as ReplicationSettings};
use crate::batch::{field, Batch};
use crate::wire::write::{BatchWriter, Record};

/// `retry.backoff.ms` default.
pub const RETRY_BACKOFF_MS: i64 = 100;

/// A Java producer's settings that the model uses (defaults: Kafka 4.x `ProducerConfig`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProducerConfig {
    pub idempotence: bool,
    pub max_in_flight: usize,
    pub retries: i64,
    pub delivery_timeout_ms: i64,
    pub request_timeout_ms: i64,
    /// Model input, not a Java setting: start every partition's sequence here, as if the
    /// producer had already sent that many records (to show the wrap at 2^31−1).
    pub start_sequence: i32,
}

impl Default for ProducerConfig {
    fn default() -> Self {
        ProducerConfig {
            idempotence: true,
            max_in_flight: 5,
            retries: i32::MAX as i64,
            delivery_timeout_ms: 120_000,
            request_timeout_ms: 30_000,
            start_sequence: 0,
        }
    }
}

/// Where a batch is in its life.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BatchState {
    /// Created by `send`, waiting for an in-flight slot.
    Queued,
    /// A Produce request for it is outstanding.
    InFlight,
    /// Acknowledged to the application with these offsets.
    Acked { base_offset: i64, last_offset: i64, duplicate: bool },
    /// Failed to the application with this error.
    Failed(ErrorCode),
    /// The producer was restarted before the batch completed: the application never
    /// learned its fate.
    Abandoned,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SimBatch {
    /// 1-based: b1, b2 …
    pub id: usize,
    pub producer: usize,
    pub partition: usize,
    pub values: Vec<String>,
    pub created_ms: i64,
    /// Assigned when first sent (`RecordAccumulator.drain`).
    pub producer_id: i64,
    pub producer_epoch: i16,
    pub base_sequence: i32,
    pub attempts: u32,
    pub state: BatchState,
    /// The Record Batch bytes of the latest attempt, exactly as sent. Encoded once, at the
    /// first send; a re-sequenced retry gets its producer id, epoch, base sequence and CRC
    /// rewritten in place (the records do not change).
    pub bytes: Vec<u8>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MessageKind {
    Request,
    Response(Verdict),
}

/// A Produce request or response on the network.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Message {
    pub id: usize,
    pub batch: usize,
    pub attempt: u32,
    pub conn: usize,
    pub kind: MessageKind,
    /// Held by the network: survives its connection closing and may arrive late.
    pub delayed: bool,
    /// Sent to a leader that has since lost leadership.
    pub leader_epoch: i32,
    /// A request's producer id, epoch and base sequence as this attempt carried them: a
    /// request held in the network keeps them even after its batch is re-sequenced for a
    /// later attempt (an epoch bump), as the bytes on the wire would.
    pub header: (i64, i16, i32),
}

/// What reached a partition leader and what it did, in order: the replay log the
/// differential tests against a real broker send again (`tests/kafka/`). Kept only when
/// [`Sim::leader_log`] is `Some`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LeaderEvent {
    /// A Produce the leader decided: the exact batch bytes it received and its verdict;
    /// `event`: the index in [`Sim::trace`] of the decision's event.
    Produce { event: usize, partition: usize, bytes: Vec<u8>, verdict: Verdict },
    /// The producer-state expiration check (X1) ran at `now_ms` (model time); `event`: the
    /// index of the time event in [`Sim::trace`].
    ExpirationCheck { event: usize, now_ms: i64 },
    /// A WriteTxnMarkers request for one partition and the leader's decision (M1–M4).
    Marker { event: usize, partition: usize, producer_id: i64, epoch: i16, commit: bool, coordinator_epoch: i32, version: MarkerVersion, verdict: MarkerVerdict },
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Producer {
    pub name: String,
    pub config: ProducerConfig,
    pub producer_id: i64,
    pub epoch: i16,
    /// Per-partition sequence state (`TxnPartitionMap` entries).
    pub seqs: BTreeMap<usize, PartSeq>,
    /// Partitions whose waiting batches are re-sequenced at the next epoch bump
    /// (`partitionsToRewriteSequences`).
    pub rewrite: Vec<usize>,
    pub conn: usize,
    pub queue: VecDeque<usize>,
    /// An epoch bump is requested (KIP-360); it happens once nothing is in flight.
    pub epoch_bump_pending: bool,
    /// Partitions with a batch that expired after being sent: its fate is unknown.
    pub unresolved: Vec<usize>,
}

/// A producer's sequence state for one partition, under one producer id and epoch.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PartSeq {
    pub producer_id: i64,
    pub epoch: i16,
    /// Next sequence to assign (`sequenceNumber`).
    pub next: i32,
    /// Last sequence acknowledged (`lastAckedSequence`), −1 for none.
    pub last_acked: i32,
}

/// An input to the model.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Action {
    /// The application calls `send()`: one batch of these record values.
    Send { producer: usize, partition: usize, values: Vec<String> },
    /// The network delivers a message (a request to its leader, a response to its client).
    Deliver { message: usize },
    /// A message vanishes (a broker crash or a network partition); nobody is told.
    Lose { message: usize },
    /// The network holds a request up: while its connection lives it still blocks what
    /// follows it (TCP order); if the connection is closed it is not lost but arrives late,
    /// possibly after its own retry on the new connection.
    Delay { message: usize },
    /// `request.timeout.ms` passes without a response: the client closes the connection
    /// and retries every in-flight batch (or fails those past `delivery.timeout.ms`).
    Timeout { producer: usize },
    /// The application restarts the producer: a new producer id (InitProducerId).
    Restart { producer: usize },
    /// Time passes; the leaders' producer-id expiration check runs (X1).
    Advance { ms: i64 },
    /// One of the leaders' periodic tasks runs now, time not moving (`run-task`): the
    /// producer-id expiration check (X1) or the ISR check (S3).
    RunTask { task: LeaderTask },
    /// Leadership moves to a replica (producer state is replicated with the log).
    LeaderChange { partition: usize },
    /// The leader answers a request with a retriable error before looking at the batch
    /// (for example NOT_ENOUGH_REPLICAS while min.insync.replicas is not met).
    Refuse { message: usize, code: ErrorCode },
    /// A Produce request with chosen fields sent straight to the leader of `partition` (no
    /// client, no network): one batch of `values` under this producer id, epoch and base
    /// sequence, transactional or not. The leader decides at once (B0–B5, A1–A10).
    Produce { partition: usize, producer_id: i64, epoch: i16, base_sequence: i32, transactional: bool, values: Vec<String> },
    /// A Produce request carrying these bytes (any bytes: the leader's batch checks B0–B4
    /// answer what is not one valid v2 batch), straight to the leader of `partition`.
    ProduceBytes { partition: usize, bytes: Vec<u8> },
    /// A WriteTxnMarkers request for one partition, straight to its leader (M1–M4): the
    /// marker a coordinator (or anybody allowed to send one) writes.
    Marker { partition: usize, producer_id: i64, epoch: i16, commit: bool, coordinator_epoch: i32, version: MarkerVersion },
    /// A follower of `partition` (every follower: `None`) stops fetching (S1).
    Lag { partition: usize, broker: Option<i32> },
    /// It fetches to the log end again and rejoins the ISR (S4).
    CatchUp { partition: usize, broker: Option<i32> },
    /// The leader's broker fails; the controller elects (S5); the log is truncated to the new
    /// leader's end and its producer state rebuilt (S6).
    LeaderFails { partition: usize },
    /// A Fetch from `from` (L4) or, with `list_offsets`, a ListOffsets(LATEST) (L5), straight to
    /// the leader of `partition`: answered at once, nothing changes.
    Read { partition: usize, read_committed: bool, from: i64, list_offsets: bool },
}

/// A periodic task every partition leader runs (Kafka's scheduler names in `run-task`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LeaderTask {
    /// `PeriodicProducerExpirationCheck` (X1, `UnifiedLog.removeExpiredProducers`).
    ProducerExpiration,
    /// `isr-expiration` (S3, `ReplicaManager.maybeShrinkIsr`).
    IsrExpiration,
}

impl LeaderTask {
    /// The task by its Kafka name.
    pub fn named(name: &str) -> Option<LeaderTask> {
        match name {
            "PeriodicProducerExpirationCheck" => Some(LeaderTask::ProducerExpiration),
            "isr-expiration" => Some(LeaderTask::IsrExpiration),
            _ => None,
        }
    }

    /// Its Kafka name.
    pub fn name(self) -> &'static str {
        match self {
            LeaderTask::ProducerExpiration => "PeriodicProducerExpirationCheck",
            LeaderTask::IsrExpiration => "isr-expiration",
        }
    }
}

/// The whole model.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Sim {
    /// The partitions, clock and producer-id counter this model's producers act on (a world
    /// with idempotent producers runs them on its own cluster: [`crate::model::txn::World`]).
    pub cluster: Cluster,
    pub producers: Vec<Producer>,
    pub batches: Vec<SimBatch>,
    pub wire: Vec<Message>,
    pub trace: Vec<Event>,
    pub steps: usize,
    /// The replay log ([`LeaderEvent`]); `None` (the default) keeps nothing.
    pub leader_log: Option<Vec<LeaderEvent>>,
    next_message: usize,
    next_conn: usize,
    dead_conns: Vec<usize>,
    /// Every batch before this index is finished (acked, failed or abandoned: states no batch
    /// leaves), so the per-step scans for in-flight/unfinished batches start here instead of
    /// at b1: without it a long run is quadratic in the number of batches.
    first_open: usize,
    /// Replication settings and state (S1–S6): `replica.lag.time.max.ms`,
    /// `unclean.leader.election.enable`, the answers held for the HW, the ISR checks run.
    pub replication: replication::Settings,
}

impl Sim {
    /// `start_ms` is the clock at step 0; `first_producer_id` the id the (simulated)
    /// InitProducerId hands out first.
    pub fn new(start_ms: i64, first_producer_id: i64) -> Self {
        Sim {
            cluster: Cluster::new(start_ms, first_producer_id),
            producers: Vec::new(),
            batches: Vec::new(),
            wire: Vec::new(),
            trace: Vec::new(),
            steps: 0,
            leader_log: None,
            next_message: 1,
            next_conn: 1,
            dead_conns: Vec::new(),
            first_open: 0,
            replication: replication::Settings::new(start_ms),
        }
    }

    pub fn add_partition(&mut self, name: &str) -> usize {
        self.cluster.partitions.push(Partition::new(name));
        self.cluster.partitions.len() - 1
    }

    pub fn add_producer(&mut self, name: &str, config: ProducerConfig) -> usize {
        let (pid, epoch) = if config.idempotence { (self.alloc_pid(), 0) } else { (-1, -1) };
        let conn = self.alloc_conn();
        self.producers.push(Producer {
            name: name.into(),
            config,
            producer_id: pid,
            epoch,
            seqs: BTreeMap::new(),
            rewrite: Vec::new(),
            conn,
            queue: VecDeque::new(),
            epoch_bump_pending: false,
            unresolved: Vec::new(),
        });
        self.producers.len() - 1
    }

    /// Record what the cluster's coordinators did on a request line ([`EventKind::Cluster`]):
    /// one step of the model, as an action is.
    pub(crate) fn cluster_events(&mut self, events: impl IntoIterator<Item = ClusterEvent>) {
        self.steps += 1;
        for e in events {
            self.event(EventKind::Cluster(Box::new(e)), None, None, None);
        }
    }

    /// The id the next InitProducerId hands out.
    pub(crate) fn next_producer_id(&self) -> i64 {
        self.cluster.next_producer_id
    }

    fn alloc_pid(&mut self) -> i64 {
        self.cluster.alloc_producer_id()
    }

    fn alloc_conn(&mut self) -> usize {
        let c = self.next_conn;
        self.next_conn += 1;
        c
    }

    fn event(&mut self, kind: EventKind, producer: Option<usize>, partition: Option<usize>, batch: Option<usize>) {
        self.trace.push(Event::new(kind, self.steps, self.cluster.now_ms, producer, partition, batch));
    }

    /// Tag the last event with the message it is about.
    fn tag(&mut self, attempt: u32, response: bool, conn: usize) {
        if let Some(e) = self.trace.last_mut() {
            e.set_message(attempt, response, conn);
        }
    }

    pub fn message(&self, id: usize) -> Option<&Message> {
        self.wire.iter().find(|m| m.id == id)
    }

    /// The latest message of `kind` (request or response) for batch `b`.
    pub fn latest_message(&self, batch: usize, response: bool) -> Option<&Message> {
        self.wire
            .iter()
            .filter(|m| m.batch == batch && matches!(m.kind, MessageKind::Response(_)) == response)
            .max_by_key(|m| m.id)
    }

    /// Messages the network may deliver now: on a live connection only the oldest in
    /// each direction (TCP keeps order, so a held-up request holds up what follows it);
    /// requests held up on a closed connection arrive whenever the network lets them.
    pub fn deliverable(&self) -> Vec<usize> {
        let mut seen: Vec<(usize, bool)> = Vec::new();
        let mut out = Vec::new();
        for m in &self.wire {
            if self.dead_conns.contains(&m.conn) {
                out.push(m.id);
                continue;
            }
            let key = (m.conn, matches!(m.kind, MessageKind::Response(_)));
            if !seen.contains(&key) {
                seen.push(key);
                out.push(m.id);
            }
        }
        out
    }

    /// Whether message `id` may be delivered now ([`Sim::deliverable`] without the list).
    pub fn is_deliverable(&self, id: usize) -> bool {
        let Some(i) = self.wire.iter().position(|m| m.id == id) else { return false };
        let m = &self.wire[i];
        if self.dead_conns.contains(&m.conn) {
            return true;
        }
        let response = matches!(m.kind, MessageKind::Response(_));
        !self.wire[..i].iter().any(|o| !self.dead_conns.contains(&o.conn) && o.conn == m.conn && matches!(o.kind, MessageKind::Response(_)) == response)
    }

    /// The first of [`Sim::deliverable`] (the oldest message in the network), if any.
    pub fn first_deliverable(&self) -> Option<usize> {
        self.wire.first().map(|m| m.id)
    }

    /// Every action that can happen in the current state, in a stable order.
    pub fn enabled_actions(&self) -> Vec<Action> {
        let mut v = self.client_actions(self.cluster.partitions.len());
        for part in 0..self.cluster.partitions.len() {
            v.push(Action::LeaderChange { partition: part });
            self.replication_actions(part, &mut v);
        }
        v.push(Action::Advance { ms: super::partition::DEFAULT_PRODUCER_ID_EXPIRATION_MS });
        v
    }

    /// The clients' and their network's enabled actions, with sends to `partitions` partitions:
    /// [`Sim::enabled_actions`] without the brokers' and the clock's. A world hosting this model
    /// asks it while it owns the partitions itself.
    pub fn client_actions(&self, partitions: usize) -> Vec<Action> {
        let mut v = Vec::new();
        for id in self.deliverable() {
            v.push(Action::Deliver { message: id });
        }
        for m in &self.wire {
            v.push(Action::Lose { message: m.id });
            if matches!(m.kind, MessageKind::Request) {
                v.push(Action::Refuse { message: m.id, code: ErrorCode::NOT_ENOUGH_REPLICAS });
                if !m.delayed {
                    v.push(Action::Delay { message: m.id });
                }
            }
        }
        for (p, prod) in self.producers.iter().enumerate() {
            if self.in_flight(p) > 0 {
                v.push(Action::Timeout { producer: p });
            }
            for part in 0..partitions {
                let n = self.batches.len() + 1;
                v.push(Action::Send { producer: p, partition: part, values: alloc::vec![format!("v{n}")] });
            }
            if prod.config.idempotence {
                v.push(Action::Restart { producer: p });
            }
        }
        v
    }

    /// A batch of `partition` that was sent and is not finished (in flight, or queued for
    /// a retry with its sequence): Java's `inflightBatchesBySequence`.
    fn has_unfinished_sent(&self, producer: usize, partition: usize) -> bool {
        self.open_batches().iter().any(|b| {
            b.producer == producer
                && b.partition == partition
                && (b.state == BatchState::InFlight || (b.state == BatchState::Queued && b.base_sequence >= 0))
        })
    }

    /// The batches from the first unfinished one on.
    fn open_batches(&self) -> &[SimBatch] {
        self.batches.get(self.first_open..).unwrap_or(&[])
    }

    fn in_flight(&self, producer: usize) -> usize {
        self.open_batches().iter().filter(|b| b.producer == producer && b.state == BatchState::InFlight).count()
    }

    /// Apply one action. Returns an error (and changes nothing) when it is not enabled.
    pub fn step(&mut self, action: &Action) -> Result<(), String> {
        self.validate(action)?;
        self.steps += 1;
        self.dispatch(action)?;
        self.after_step();
        Ok(())
    }

    /// [`Self::step`] with the action given away: a send's values become the batch's without a
    /// copy (the script runner builds each action for one step).
    pub fn apply(&mut self, action: Action) -> Result<(), String> {
        self.validate(&action)?;
        self.steps += 1;
        match action {
            Action::Send { producer, partition, values } => self.handle_send(producer, partition, values),
            other => self.dispatch(&other)?,
        }
        self.after_step();
        Ok(())
    }

    /// The handler of a valid action.
    fn dispatch(&mut self, action: &Action) -> Result<(), String> {
        match *action {
            Action::Send { producer, partition, ref values } => self.handle_send(producer, partition, values.clone()),
            Action::Deliver { message } => self.handle_deliver(message),
            Action::Lose { message } => {
                let m = self.take_message(message);
                let what = if matches!(m.kind, MessageKind::Request) { "request" } else { "response" };
                let p = self.batches[m.batch - 1].producer;
                let part = self.batches[m.batch - 1].partition;
                // A message lost on a TCP connection means the connection is broken: whatever
                // else was on it is gone too, and nobody is told until request.timeout.ms.
                let before = self.wire.len();
                self.wire.retain(|o| o.conn != m.conn || o.delayed);
                self.dead_conns.push(m.conn);
                let others = before - self.wire.len();
                let response = what == "response";
                self.event(EventKind::Lost { others: others as u32 }, Some(p), Some(part), Some(m.batch));
                self.tag(m.attempt, response, m.conn);
            }
            Action::Refuse { message, code } => {
                let m = self.take_message(message);
                let b = m.batch;
                let (p, part) = (self.batches[b - 1].producer, self.batches[b - 1].partition);
                let d = Verdict::Refused { code };
                self.event(EventKind::Decision(d), Some(p), Some(part), Some(b));
                self.tag(m.attempt, false, m.conn);
                self.respond(&m, d, part);
            }
            Action::Delay { message } => {
                if let Some(m) = self.wire.iter_mut().find(|m| m.id == message) {
                    m.delayed = true;
                    let (b, a, c) = (m.batch, m.attempt, m.conn);
                    let p = self.batches[b - 1].producer;
                    let part = self.batches[b - 1].partition;
                    self.event(EventKind::Delayed, Some(p), Some(part), Some(b));
                    self.tag(a, false, c);
                }
            }
            Action::Timeout { producer } => self.handle_timeout(producer),
            Action::Restart { producer } => self.handle_restart(producer),
            Action::Produce { partition, producer_id, epoch, base_sequence, transactional, ref values } => {
                self.handle_raw_produce(partition, producer_id, epoch, base_sequence, transactional, values)
            }
            Action::ProduceBytes { partition, ref bytes } => self.handle_produce_bytes(partition, bytes.clone()),
            Action::Marker { partition, producer_id, epoch, commit, coordinator_epoch, version } => {
                let tv2 = matches!(version, MarkerVersion::Tv2);
                self.event(EventKind::RawMarker { producer_id, epoch, commit, coordinator_epoch, tv2 }, None, Some(partition), None);
                let now = self.cluster.now_ms;
                let v = self.cluster.partitions[partition].append_marker_verdict(producer_id, epoch, commit, coordinator_epoch, version, now);
                if let Some(log) = self.leader_log.as_mut() {
                    log.push(LeaderEvent::Marker { event: self.trace.len(), partition, producer_id, epoch, commit, coordinator_epoch, version, verdict: v });
                }
                self.event(EventKind::MarkerDecision(v), None, Some(partition), None);
            }
            Action::Advance { ms } => self.handle_advance(ms),
            Action::RunTask { task } => {
                self.event(EventKind::Task(task), None, None, None);
                match task {
                    LeaderTask::ProducerExpiration => self.expiration_check(),
                    LeaderTask::IsrExpiration => self.isr_check_now(),
                }
            }
            Action::LeaderChange { partition } => {
                self.cluster.partitions[partition].leader_epoch += 1;
                let e = self.cluster.partitions[partition].leader_epoch;
                self.event(EventKind::LeaderChange { leader_epoch: e }, None, Some(partition), None);
            }
            Action::Lag { partition, broker } => self.handle_lag(partition, broker)?,
            Action::CatchUp { partition, broker } => self.handle_catch_up(partition, broker)?,
            Action::LeaderFails { partition } => self.handle_leader_fails(partition)?,
            Action::Read { partition, read_committed, from, list_offsets } => {
                let iso = if read_committed { super::partition::Isolation::ReadCommitted } else { super::partition::Isolation::ReadUncommitted };
                let p = &self.cluster.partitions[partition];
                let (answer, offset) = if list_offsets {
                    // ListOffsets returns no records: only the offsets, not a fetch of the log.
                    let (hw, lso) = (p.high_watermark(), p.last_stable_offset());
                    let answer = super::partition::FetchAnswer { error: ErrorCode::NONE, high_watermark: hw, last_stable_offset: lso, upper: p.latest_offset(iso), records: Vec::new(), aborted: None };
                    (answer, Some(p.latest_offset(iso)))
                } else {
                    (p.fetch_answer(iso, from), None)
                };
                self.event(EventKind::Read(Box::new(ReadEvent { read_committed, from, offset, answer })), None, Some(partition), None);
            }
        }
        Ok(())
    }

    /// What every step ends with: replication settles, and the first open batch moves on.
    fn after_step(&mut self) {
        self.settle_replication();
        while self.batches.get(self.first_open).is_some_and(|b| {
            matches!(b.state, BatchState::Acked { .. } | BatchState::Failed(_) | BatchState::Abandoned)
        }) {
            self.first_open += 1;
        }
    }

    fn validate(&self, a: &Action) -> Result<(), String> {
        let np = self.producers.len();
        let nq = self.cluster.partitions.len();
        if let Action::Lag { partition, .. } | Action::CatchUp { partition, .. } | Action::LeaderFails { partition } = a {
            if *partition >= nq {
                return Err(String::from("no such partition"));
            }
            return self.validate_replication(a);
        }
        match a {
            Action::Send { producer, partition, values } => {
                if *producer >= np || *partition >= nq {
                    return Err(String::from("no such producer or partition"));
                }
                if values.is_empty() {
                    return Err(String::from("a batch needs at least one record"));
                }
            }
            Action::Deliver { message } => {
                if !self.is_deliverable(*message) {
                    return Err(format!("message {message} cannot be delivered now (not in the network, or an earlier one on its connection comes first)"));
                }
            }
            Action::Refuse { message, .. } => {
                if !self.message(*message).is_some_and(|m| matches!(m.kind, MessageKind::Request)) {
                    return Err(format!("request {message} is not in the network"));
                }
            }
            Action::Lose { message } | Action::Delay { message } => {
                if self.message(*message).is_none() {
                    return Err(format!("message {message} is not in the network"));
                }
            }
            Action::Timeout { producer } => {
                if *producer >= np || self.in_flight(*producer) == 0 {
                    return Err(String::from("nothing in flight to time out"));
                }
            }
            Action::Restart { producer } => {
                if *producer >= np {
                    return Err(String::from("no such producer"));
                }
            }
            Action::Advance { ms } => {
                if *ms < 0 {
                    return Err(String::from("time only moves forward"));
                }
            }
            Action::RunTask { .. } => {}
            Action::LeaderChange { partition }
            | Action::Marker { partition, .. }
            | Action::ProduceBytes { partition, .. }
            | Action::Lag { partition, .. }
            | Action::CatchUp { partition, .. }
            | Action::LeaderFails { partition }
            | Action::Read { partition, .. } => {
                if *partition >= nq {
                    return Err(String::from("no such partition"));
                }
            }
            Action::Produce { partition, values, .. } => {
                if *partition >= nq {
                    return Err(String::from("no such partition"));
                }
                if values.is_empty() {
                    return Err(String::from("a batch needs at least one record"));
                }
            }
        }
        Ok(())
    }

    /// Every record value in a partition's log, in offset order; a transaction marker (from a
    /// `marker` line) as `[COMMIT]` or `[ABORT]`, as the transactions scripts write it.
    pub fn log_values(&self, partition: usize) -> Vec<String> {
        let mut out = Vec::new();
        for e in &self.cluster.partitions[partition].log {
            let r = crate::decode::decode_bytes(&e.bytes, &crate::decode::DecodeOptions { spans: false, ..Default::default() });
            for b in r.batches {
                if let Some(c) = &b.control {
                    out.push(format!("[{}]", c.type_name));
                    continue;
                }
                for rec in b.records {
                    out.push(rec.value.map(|v| String::from_utf8_lossy(&v).into_owned()).unwrap_or_default());
                }
            }
        }
        out
    }
}

/// The Record Batch a Java producer writes for the batch (v2, no compression, CreateTime,
/// each record a value and no key or headers, all at the batch's creation time), written by
/// the codec's one writer ([`BatchWriter`]) straight into one exact-size buffer.
fn batch_bytes(batch: &SimBatch) -> Vec<u8> {
    let writer = BatchWriter::producer(batch.producer_id, batch.producer_epoch, batch.base_sequence, false, batch.created_ms);
    let records = batch.values.iter().enumerate().map(|(i, v)| Record { offset_delta: i as i32, value: Some(v.as_bytes()), ..Record::default() });
    writer.write_v2_from(records).expect("model batches are far below 2 GiB")
}

/// `bytes` with another producer id, epoch and base sequence (and its CRC recomputed), or
/// `None` when it already carries them.
fn with_header(bytes: &[u8], (pid, epoch, seq): (i64, i16, i32)) -> Option<Vec<u8>> {
    let v = Batch::new_unchecked(bytes);
    if (v.producer_id(), v.producer_epoch(), v.base_sequence()) == (pid, epoch, seq) {
        return None;
    }
    let mut buf = bytes.to_vec();
    buf[field::PRODUCER_ID].copy_from_slice(&pid.to_be_bytes());
    buf[field::PRODUCER_EPOCH].copy_from_slice(&epoch.to_be_bytes());
    buf[field::BASE_SEQUENCE].copy_from_slice(&seq.to_be_bytes());
    Batch::new_unchecked(&mut buf[..]).fill_crc();
    Some(buf)
}

/// A short label for a decision.
pub fn outcome_label(d: &Decision) -> String {
    let mut s = String::new();
    let _ = write_outcome(&mut s, &d.outcome);
    s
}
