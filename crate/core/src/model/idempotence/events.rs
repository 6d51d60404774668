//! The trace: one event per line, kept as data and rendered as a sentence only when read.

use super::*;
use crate::model::partition;

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

pub(super) const NONE: u32 = u32::MAX;

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
pub(super) fn lane_shown(lane: &str) -> &str {
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
    pub answer: partition::FetchAnswer,
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
    Elected(partition::Election),
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

pub(super) fn opt(v: u32) -> Option<usize> {
    (v != NONE).then_some(v as usize)
}

impl Event {
    pub(super) fn new(kind: EventKind, step: usize, time_ms: i64, producer: Option<usize>, partition: Option<usize>, batch: Option<usize>) -> Self {
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
    pub(super) fn set_message(&mut self, attempt: u32, response: bool, conn: usize) {
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
pub(super) fn write_outcome(out: &mut impl Write, o: &Outcome) -> fmt::Result {
    match o {
        Outcome::Appended { base_offset, last_offset } => write!(out, "APPEND {base_offset}..{last_offset}"),
        Outcome::Duplicate { base_offset, last_offset } => write!(out, "DUPLICATE → NONE, offsets {base_offset}..{last_offset}"),
        Outcome::Rejected(e) => write!(out, "{e}"),
    }
}
