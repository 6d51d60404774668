// Over 800 lines on purpose: one state machine, `Sim` (one `impl Sim` of step handlers over private fields); the leader's rules and the script language are apart (partition.rs, scenario/).
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

mod handle;
mod replication;
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

/// One line of the trace, kept as data (72 bytes, no allocation for the common kinds): its
/// sentence is rendered only when a report or a ladder asks for it ([`Event::text`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Event {
    /// What happened, with the numbers its sentence needs.
    pub kind: EventKind,
    pub time_ms: i64,
    step: u32,
    /// Batch id (1-based); 0: none.
    batch: u32,
    /// Producer and partition index; [`NONE`]: none.
    producer: u32,
    partition: u32,
    /// The message the event is about: attempt (0: none), connection, is a response.
    attempt: u32,
    conn: u32,
    response: bool,
}

const NONE: u32 = u32::MAX;

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EventKind {
    /// The application sends a batch of `records` records.
    Send { records: u32 },
    /// A Produce request carrying the batch under this producer id, epoch and sequences.
    Request { producer_id: i64, epoch: i16, base_sequence: i32, records: i32, request: u32 },
    /// The leader's decision (its sentence: [`Verdict::decision`], or the event's text).
    Decision(Verdict),
    Response,
    /// The client acknowledges the batch to the application.
    Ack { base_offset: i64, last_offset: i64, duplicate: bool },
    /// A retriable error: the batch is queued again.
    Retry { code: ErrorCode },
    /// The batch fails to the application with `code` (`expired`: delivery.timeout.ms passed).
    Fail { code: ErrorCode, expired: bool },
    /// A message is lost with its connection; `others` more messages on it with it.
    Lost { others: u32 },
    /// A request is held up in the network.
    Delayed,
    /// request.timeout.ms (`ms`) passed.
    Timeout { ms: i64 },
    /// The producer restarted with a new producer id.
    Restart { producer_id: i64 },
    EpochBump(Bump),
    /// Time passes.
    Time { ms: i64 },
    /// A periodic task runs now (`run-task`).
    Task(LeaderTask),
    /// X1: producer state expired.
    Expired { producer_ids: Box<[i64]>, ttl_ms: i64 },
    /// A new leader with this leader epoch.
    LeaderChange { leader_epoch: i32 },
    /// A Produce request written in the script (`produce`), with its fields; the leader's
    /// [`EventKind::Decision`] follows (an event with no batch).
    RawProduce { producer_id: i64, epoch: i16, base_sequence: i32, records: i32, transactional: bool },
    /// A WriteTxnMarkers request written in the script (`marker`).
    RawMarker { producer_id: i64, epoch: i16, commit: bool, coordinator_epoch: i32, tv2: bool },
    /// The leader's decision on a marker.
    MarkerDecision(MarkerVerdict),
    /// Replication (S1–S6): followers stop or resume fetching, the ISR shrinks, a leader is
    /// elected, an acks=-1 answer is held for the HW or goes out.
    Replication(Box<ReplicationEvent>),
    /// The answer to a `fetch` or `list-offsets` line.
    Read(Box<ReadEvent>),
    /// What the cluster's coordinators did on a request line for them (`init-producer-id`,
    /// `end-txn` …, and the markers `deliver markers` writes), as the transactions world that
    /// answers them on this model's partitions reported it: one event per message.
    Cluster(Box<ClusterEvent>),
}

/// A lane of the transactions world as the ladder's text names it (`producer:client` → `client`).
fn lane_shown(lane: &str) -> &str {
    lane.split_once(':').map_or(lane, |(_, n)| n)
}

/// One message of the transactions world on a request line ([`EventKind::Cluster`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ClusterEvent {
    /// Kafka's API (`InitProducerId`, `EndTxn`, `WriteTxnMarkers` …), `response`, or what the
    /// coordinator did (`append` to `__transaction_state` …).
    pub api: &'static str,
    /// Its lanes, as the transactions world names them: `from → to` (`producer:client`,
    /// `coordinator`, `partition:orders-0` …; the ladder's text shows the names after the `:`).
    pub from: String,
    pub to: String,
    pub text: String,
    pub rule: Option<&'static str>,
    pub source: Option<&'static str>,
    pub error: ErrorCode,
}

/// A Fetch's or ListOffsets' answer ([`EventKind::Read`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReadEvent {
    pub read_committed: bool,
    pub from: i64,
    /// ListOffsets(LATEST): the offset answered (the LSO or the HW); `None`: a Fetch.
    pub offset: Option<i64>,
    pub answer: super::partition::FetchAnswer,
}

/// What replication did ([`EventKind::Replication`]), with the numbers its sentence needs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ReplicationEvent {
    /// Followers on `brokers` stopped fetching at `at` (the log end then).
    Stopped { brokers: Box<[i32]>, at: i64, isr: Box<[i32]>, hw: i64 },
    /// Followers on `brokers` caught up to `at` and are in the ISR.
    CaughtUp { brokers: Box<[i32]>, at: i64, isr: Box<[i32]>, hw: i64 },
    /// The leader's ISR check dropped `brokers` (behind for more than `max_lag_ms`).
    IsrShrink { brokers: Box<[i32]>, max_lag_ms: i64, isr: Box<[i32]>, hw: i64 },
    /// An election.
    Elected(super::partition::Election),
    /// The answer to this attempt (a write, or a `duplicate` of one) waits until the HW reaches
    /// `need` (acks=-1, DelayedProduce).
    Held { need: i64, hw: i64, duplicate: bool },
    /// The held answer goes out: NONE (the HW reached `need`), or an error; `unread`: its
    /// connection is closed, so nobody reads it.
    Released { code: ErrorCode, need: i64, unread: bool },
}

/// The KIP-360 epoch-bump events.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Bump {
    /// The batch is the next expected one, so the gap is real: bump.
    ForGap,
    /// An expired batch's sequence is resolved without a bump.
    Resolved { last_acked: i32 },
    /// An expired batch's sequence is unresolved: bump.
    Unresolved,
    /// The bump happened; these partitions restart at sequence 0.
    Bumped { producer_id: i64, epoch: i16, partitions: Box<[usize]> },
}

fn opt(v: u32) -> Option<usize> {
    (v != NONE).then_some(v as usize)
}

impl Event {
    fn new(kind: EventKind, step: usize, time_ms: i64, producer: Option<usize>, partition: Option<usize>, batch: Option<usize>) -> Self {
        let idx = |v: Option<usize>| v.map_or(NONE, |v| v as u32);
        Event {
            kind,
            time_ms,
            step: step as u32,
            batch: batch.map_or(0, |b| b as u32),
            producer: idx(producer),
            partition: idx(partition),
            attempt: 0,
            conn: 0,
            response: false,
        }
    }

    /// The step (1-based count of [`Sim::step`] calls) that recorded it.
    pub fn step(&self) -> usize {
        self.step as usize
    }
    pub fn producer(&self) -> Option<usize> {
        opt(self.producer)
    }
    pub fn partition(&self) -> Option<usize> {
        opt(self.partition)
    }
    pub fn batch(&self) -> Option<usize> {
        (self.batch != 0).then_some(self.batch as usize)
    }
    /// The message the event is about: (attempt, is a response, connection).
    pub fn message(&self) -> Option<(u32, bool, usize)> {
        (self.attempt != 0).then_some((self.attempt, self.response, self.conn as usize))
    }
    fn set_message(&mut self, attempt: u32, response: bool, conn: usize) {
        self.attempt = attempt;
        self.response = response;
        self.conn = conn as u32;
    }

    /// The sentence a student reads for this event (the ladder's line), naming the
    /// producers and partitions of `sim`, the model that recorded it.
    pub fn text(&self, sim: &Sim) -> String {
        let mut s = String::new();
        let _ = self.write_text(&mut s, sim);
        s
    }

    /// [`Event::text`] into `out`.
    pub fn write_text(&self, out: &mut impl Write, sim: &Sim) -> fmt::Result {
        let pname = self.partition().and_then(|p| sim.cluster.partitions.get(p)).map_or("", |p| p.name.as_str());
        let b = self.batch;
        let attempt = self.attempt;
        match &self.kind {
            EventKind::Send { records } => write!(out, "application sends b{b}: {records} record(s) to {pname}"),
            EventKind::Request { producer_id: pid, epoch, base_sequence: seq, records: n, request: id } => {
                if attempt == 1 {
                    write!(out, "Produce b{b} → {pname}: pid {pid} epoch {epoch} ")?;
                } else {
                    write!(out, "Produce b{b} → {pname} again, attempt {attempt}: pid {pid} epoch {epoch} ")?;
                }
                if *seq < 0 {
                    out.write_str("no sequence")?;
                } else {
                    write!(out, "seq {seq}..{}", crate::sequence::increment(*seq, n - 1))?;
                }
                write!(out, " (request #{id})")
            }
            EventKind::Decision(v) if b == 0 => {
                write!(out, "{pname}: Produce → ")?;
                write_outcome(out, &v.outcome())?;
                write!(out, " [{}] ", v.rule())?;
                v.write_why(out, pname)
            }
            EventKind::Decision(v) => {
                write!(out, "{pname}: b{b} attempt {attempt} → ")?;
                write_outcome(out, &v.outcome())?;
                write!(out, " [{}] ", v.rule())?;
                v.write_why(out, pname)
            }
            EventKind::Response => Ok(()),
            EventKind::Ack { base_offset, last_offset, duplicate } => write!(
                out,
                "client: b{b} acknowledged to the application at offsets {base_offset}..{last_offset}{}",
                if *duplicate { " (the original write)" } else { "" }
            ),
            EventKind::Lost { others } => {
                let what = if self.response { "response" } else { "request" };
                write!(out, "b{b} {what} (attempt {attempt}) lost: the connection is broken")?;
                if *others > 0 {
                    write!(out, "; {others} other message(s) on the same connection are lost with it")?;
                }
                Ok(())
            }
            EventKind::Delayed => write!(out, "b{b} request (attempt {attempt}) held up in the network"),
            EventKind::RawProduce { producer_id, epoch, base_sequence, records, transactional } => {
                write!(out, "Produce → {pname}: pid {producer_id} epoch {epoch} ")?;
                if *base_sequence < 0 {
                    out.write_str("no sequence")?;
                } else {
                    write!(out, "seq {base_sequence}..{}", crate::sequence::increment(*base_sequence, records - 1))?;
                }
                write!(out, ", {records} record(s){}", if *transactional { ", transactional" } else { "" })
            }
            EventKind::RawMarker { producer_id, epoch, commit, coordinator_epoch, tv2 } => write!(
                out,
                "WriteTxnMarkers → {pname}: {} for pid {producer_id} epoch {epoch}, coordinator epoch {coordinator_epoch}, transaction version {}",
                if *commit { "COMMIT" } else { "ABORT" },
                if *tv2 { 2 } else { 1 }
            ),
            EventKind::MarkerDecision(v) => {
                write!(out, "{pname}: marker → ")?;
                write_outcome(out, &v.outcome())?;
                write!(out, " [{}] {}", v.rule(), v.why(pname))
            }
            EventKind::Retry { code } => {
                write!(out, "client: {code} on b{b} is retriable: it goes back to the front of the queue with its sequence")
            }
            EventKind::Fail { code, expired } => {
                write!(out, "client: b{b} fails to the application with {} (", code.exception())?;
                if *expired {
                    out.write_str("delivery.timeout.ms passed)")
                } else {
                    write!(out, "{} is not retriable)", code.name())
                }
            }
            EventKind::EpochBump(Bump::ForGap) => write!(
                out,
                "client: b{b} is the next expected batch, so the gap is real: bump the epoch locally (KIP-360) and resend under it from sequence 0"
            ),
            EventKind::EpochBump(Bump::Resolved { last_acked }) => write!(
                out,
                "client: {pname}: the last acknowledged sequence {last_acked} is the last one sent, so the expired batch is taken as not written; no epoch bump"
            ),
            EventKind::EpochBump(Bump::Unresolved) => write!(
                out,
                "client: {pname}: an expired batch may or may not be in the log (sequence unresolved): bump the epoch (KIP-360)"
            ),
            EventKind::EpochBump(Bump::Bumped { producer_id: pid, epoch: e, partitions }) => {
                write!(out, "client: now producer {pid} epoch {e}; ")?;
                for (i, &p) in partitions.iter().enumerate() {
                    if i > 0 {
                        out.write_str(", ")?;
                    }
                    out.write_str(sim.cluster.partitions.get(p).map_or("", |p| p.name.as_str()))?;
                }
                out.write_str(" restart at sequence 0 and their waiting batches get new sequences")
            }
            EventKind::Timeout { ms } => write!(
                out,
                "client: no response within request.timeout.ms ({ms} ms): the connection is closed and its in-flight batches fail with NetworkException"
            ),
            EventKind::Restart { producer_id: pid } => {
                let name = self.producer().and_then(|p| sim.producers.get(p)).map_or("", |p| p.name.as_str());
                write!(
                    out,
                    "{name} restarts: InitProducerId hands out a new producer id {pid}, epoch 0; sequences start again at 0 and nothing links it to the old id"
                )
            }
            EventKind::Time { ms } => write!(out, "{ms} ms pass"),
            EventKind::Task(LeaderTask::ProducerExpiration) => out.write_str("every leader's PeriodicProducerExpirationCheck runs now (X1), without waiting for its interval"),
            EventKind::Task(LeaderTask::IsrExpiration) => out.write_str("every leader's isr-expiration task runs now (S3), without waiting for its interval"),
            EventKind::Expired { producer_ids, ttl_ms } => write!(
                out,
                "{pname} [X1]: producer state of {:?} expired (last record timestamp ≥ producer.id.expiration.ms = {ttl_ms} ms ago, no open transaction); a retry of their batches would now be written again (X2)",
                &producer_ids[..]
            ),
            EventKind::LeaderChange { leader_epoch: e } => {
                write!(out, "{pname}: a new leader (leader epoch {e}) takes over; producer state came with the replicated log")
            }
            EventKind::Replication(r) => replication::write_event(out, pname, b, attempt, r),
            EventKind::Cluster(c) => {
                write!(out, "{} → {} {}: {}", lane_shown(&c.from), lane_shown(&c.to), c.api, c.text)?;
                match c.rule {
                    Some(r) => write!(out, " [{r}]"),
                    None => Ok(()),
                }
            }
            EventKind::Read(r) => {
                let iso = if r.read_committed { "read_committed" } else { "read_uncommitted" };
                let a = &r.answer;
                if let Some(o) = r.offset {
                    return write!(out, "{pname} [L5]: ListOffsets(LATEST, {iso}) → {o}, {}", if r.read_committed { "the last stable offset" } else { "the high watermark" });
                }
                if a.error != ErrorCode::NONE {
                    return write!(out, "{pname} [L4]: Fetch(from {}, {iso}) → {}: the fetch offset is past the high watermark", r.from, a.error);
                }
                write!(out, "{pname} [L4]: Fetch(from {}, {iso}) → ", r.from)?;
                if a.records.is_empty() {
                    out.write_str("no records")?;
                } else {
                    let vals: Vec<&str> = a.records.iter().map(|(_, v)| v.as_deref().unwrap_or("null")).collect();
                    write!(out, "{}", vals.join(" "))?;
                }
                write!(out, " (below {}); highWatermark {}, lastStableOffset {}", a.upper, a.high_watermark, a.last_stable_offset)?;
                match &a.aborted {
                    Some(l) if !l.is_empty() => write!(out, ", abortedTransactions {}", l.iter().map(|(p, f)| format!("{p}@{f}")).collect::<Vec<_>>().join(" ")),
                    Some(_) => out.write_str(", abortedTransactions none"),
                    None => Ok(()),
                }
            }
        }
    }
}

/// [`outcome_label`] into `out`.
fn write_outcome(out: &mut impl Write, o: &Outcome) -> fmt::Result {
    match o {
        Outcome::Appended { base_offset, last_offset } => write!(out, "APPEND {base_offset}..{last_offset}"),
        Outcome::Duplicate { base_offset, last_offset } => write!(out, "DUPLICATE → NONE, offsets {base_offset}..{last_offset}"),
        Outcome::Rejected(e) => write!(out, "{e}"),
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
