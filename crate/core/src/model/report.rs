//! The JSON shape of a scenario run, shared by the CLI (`eoslab run --json`) and the wasm
//! package (`runScenario`): the steps with their events, every batch with its real bytes
//! (hex, so any rung opens in the Batch Inspector), and each partition's final state.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use super::idempotence::{BatchState, EventKind, Sim};
use super::partition::Outcome;
use super::scenario::{Failure, Run};
use crate::report::to_hex;

#[cfg(feature = "serde")]
use serde::Serialize;

#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(Serialize), serde(rename_all = "camelCase"))]
pub struct RunReport {
    /// The Kafka line whose decisions the model follows (the rule catalogue says where the lines differ).
    pub kafka_version: &'static str,
    pub title: String,
    pub about: String,
    pub passed: bool,
    pub failures: Vec<Failure>,
    pub error: Option<String>,
    pub partitions: Vec<String>,
    pub producers: Vec<String>,
    pub steps: Vec<StepReport>,
    pub batches: Vec<BatchInfo>,
    pub final_state: Vec<PartitionState>,
    /// What can happen next, as script lines to append (the step buttons).
    pub next_steps: Vec<NextStep>,
    /// With states (`runScenario(script, {states: true})`): the state before the first step;
    /// each step's `state` has what it changed, so a view shows any step from this one run.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub initial_state: Option<StepStateReport>,
}

/// What a step changed ([`super::scenario::StepState`]): the leaders whose state changed (log
/// end, the first producer-state entries), the client batches it touched as they are after it,
/// and the lines that could come next.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(Serialize), serde(rename_all = "camelCase"))]
pub struct StepStateReport {
    pub leaders: Vec<LeaderReport>,
    pub batches: Vec<BatchInfo>,
    pub next_steps: Vec<NextStep>,
}

/// One leader's state after a step (the panel's view of it).
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(Serialize), serde(rename_all = "camelCase"))]
pub struct LeaderReport {
    pub partition: usize,
    pub log_end_offset: i64,
    /// With followers: the high watermark and the ISR (ascending broker order, as Kafka 4.3 lists it).
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub high_watermark: Option<i64>,
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub isr: Option<Vec<i32>>,
    /// The first entries, by producer id (the step's `producerEntries` has the count).
    pub producers: Vec<ProducerEntry>,
}

fn state_report(s: &super::scenario::StepState) -> StepStateReport {
    StepStateReport {
        leaders: s
            .leaders
            .iter()
            .map(|l| LeaderReport {
                partition: l.partition,
                log_end_offset: l.log_end_offset,
                high_watermark: l.replicas.as_ref().map(|r| r.0),
                isr: l.replicas.as_ref().map(|r| r.1.clone()),
                producers: l.producers.iter().map(|(pid, epoch, w)| ProducerEntry { producer_id: *pid, epoch: *epoch, batches: w.clone() }).collect(),
            })
            .collect(),
        batches: s.batches.iter().map(batch_info).collect(),
        next_steps: s.next.iter().map(|(label, line)| NextStep { label: label.clone(), line: line.clone() }).collect(),
    }
}

#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(Serialize), serde(rename_all = "camelCase"))]
pub struct NextStep {
    pub label: String,
    pub line: String,
}

#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(Serialize), serde(rename_all = "camelCase"))]
pub struct StepReport {
    pub line: usize,
    pub text: String,
    pub ok: bool,
    /// Producer-state entries per partition after the step.
    pub producer_entries: Vec<usize>,
    pub events: Vec<EventReport>,
    /// What the step changed (runs with states only).
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub state: Option<StepStateReport>,
}

#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(Serialize), serde(rename_all = "camelCase"))]
pub struct EventReport {
    /// Milliseconds since the scenario's start.
    pub t: i64,
    /// send | request | decision | ack | retry | fail | lost | delayed | timeout | restart |
    /// epoch-bump | time | expired | leader-change
    pub kind: &'static str,
    pub text: String,
    pub producer: Option<usize>,
    pub partition: Option<usize>,
    pub batch: Option<usize>,
    /// For decisions: append | duplicate | reject.
    pub outcome: Option<&'static str>,
    pub error_code: Option<i16>,
    pub error_name: Option<&'static str>,
    pub rule: Option<&'static str>,
    pub source: Option<&'static str>,
    pub offsets: Option<(i64, i64)>,
    /// For events about one message: which attempt, "request" or "response", and the
    /// connection it travels on.
    pub attempt: Option<u32>,
    pub message: Option<&'static str>,
    pub conn: Option<usize>,
}

#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(Serialize), serde(rename_all = "camelCase"))]
pub struct BatchInfo {
    pub id: usize,
    pub producer: usize,
    pub partition: usize,
    pub values: Vec<String>,
    #[cfg_attr(feature = "serde", serde(serialize_with = "i64_str"))]
    pub producer_id: i64,
    pub producer_epoch: i16,
    pub base_sequence: i32,
    pub last_sequence: i32,
    pub attempts: u32,
    /// queued | in-flight | acked | failed | abandoned
    pub state: &'static str,
    pub offsets: Option<(i64, i64)>,
    pub error: Option<&'static str>,
    /// The Record Batch as last sent (hex).
    pub hex: String,
}

#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(Serialize), serde(rename_all = "camelCase"))]
pub struct PartitionState {
    pub name: String,
    pub log_end_offset: i64,
    /// With followers (`broker default.replication.factor` ≥ 2): the high watermark and the
    /// ISR, in ascending broker order (as Kafka 4.3 lists it).
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub high_watermark: Option<i64>,
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub isr: Option<Vec<i32>>,
    /// Each stored batch: base offset and the bytes as the leader holds them (hex).
    pub log: Vec<(i64, String)>,
    pub values: Vec<String>,
    pub producers: Vec<ProducerEntry>,
}

#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(Serialize), serde(rename_all = "camelCase"))]
pub struct ProducerEntry {
    #[cfg_attr(feature = "serde", serde(serialize_with = "i64_str"))]
    pub producer_id: i64,
    pub epoch: i16,
    /// The retained window: (firstSeq, lastSeq, firstOffset, lastOffset), oldest first.
    pub batches: Vec<(i32, i32, i64, i64)>,
}

#[cfg(feature = "serde")]
fn i64_str<S: serde::Serializer>(v: &i64, s: S) -> Result<S::Ok, S::Error> {
    s.collect_str(v)
}

fn kind_name(k: &EventKind) -> &'static str {
    match k {
        EventKind::Send { .. } => "send",
        EventKind::Request { .. } => "request",
        EventKind::Decision(_) => "decision",
        EventKind::Response => "response",
        EventKind::Ack { .. } => "ack",
        EventKind::Retry { .. } => "retry",
        EventKind::Fail { .. } => "fail",
        EventKind::Lost { .. } => "lost",
        EventKind::Delayed => "delayed",
        EventKind::Timeout { .. } => "timeout",
        EventKind::Restart { .. } => "restart",
        EventKind::EpochBump(_) => "epoch-bump",
        EventKind::Time { .. } => "time",
        EventKind::Task(_) => "task",
        EventKind::Expired { .. } => "expired",
        EventKind::LeaderChange { .. } => "leader-change",
        EventKind::RawProduce { .. } => "produce-request",
        EventKind::RawMarker { .. } => "marker-request",
        EventKind::MarkerDecision(_) => "marker-decision",
        EventKind::Read(r) => {
            if r.offset.is_some() {
                "list-offsets"
            } else {
                "fetch"
            }
        }
        EventKind::Cluster(_) => "cluster",
        EventKind::Replication(r) => match **r {
            super::idempotence::ReplicationEvent::Held { .. } => "held",
            super::idempotence::ReplicationEvent::Released { .. } => "released",
            _ => "replication",
        },
    }
}

/// Build the report of a finished run.
pub fn run_report(run: &Run) -> RunReport {
    run_report_of(run, &run.sim)
}

/// The report of a run whose model is `sim` (a world that ran the script's model keeps it:
/// `txn_scenario::run_idempotence`).
pub(crate) fn run_report_of(run: &Run, sim: &Sim) -> RunReport {
    let t0 = run.scenario.start_ms;
    let steps = run
        .steps
        .iter()
        .map(|st| StepReport {
            line: st.line,
            text: st.text.clone(),
            ok: st.ok,
            producer_entries: st.producer_entries.clone(),
            state: st.state.as_ref().map(state_report),
            events: sim.trace[st.events.clone()]
                .iter()
                .map(|e| {
                    // (outcome, error, rule, source) of a leader's decision, without its sentence.
                    let d = match &e.kind {
                        EventKind::Decision(d) => Some((d.outcome(), d.error(), d.rule(), d.source())),
                        EventKind::MarkerDecision(m) => Some((m.outcome(), m.error(), m.rule(), m.source())),
                        EventKind::Cluster(c) => c.rule.map(|r| (Outcome::Rejected(c.error), c.error, r, c.source.unwrap_or(""))),
                        _ => None,
                    };
                    let d = d.as_ref();
                    // A coordinator's answer has a rule and an error but no append outcome.
                    let (outcome, offsets) = match d.map(|d| &d.0).filter(|_| !matches!(e.kind, EventKind::Cluster(_))) {
                        Some(Outcome::Appended { base_offset, last_offset }) => (Some("append"), Some((*base_offset, *last_offset))),
                        Some(Outcome::Duplicate { base_offset, last_offset }) => (Some("duplicate"), Some((*base_offset, *last_offset))),
                        Some(Outcome::Rejected(_)) => (Some("reject"), None),
                        None => (None, None),
                    };
                    EventReport {
                        t: e.time_ms - t0,
                        // A decision on a `produce` line has no batch: its own kind, so that
                        // views drawing batch arrows leave it alone.
                        kind: if e.batch().is_none() && matches!(e.kind, EventKind::Decision(_)) { "produce-decision" } else { kind_name(&e.kind) },
                        text: e.text(sim),
                        producer: e.producer(),
                        partition: e.partition(),
                        batch: e.batch(),
                        outcome,
                        error_code: d.map(|d| d.1 .0),
                        error_name: d.map(|d| d.1.name()),
                        rule: d.map(|d| d.2),
                        source: d.map(|d| d.3),
                        offsets,
                        attempt: e.message().map(|m| m.0),
                        message: e.message().map(|m| if m.1 { "response" } else { "request" }),
                        conn: e.message().map(|m| m.2),
                    }
                })
                .collect(),
        })
        .collect();
    let batches = sim.batches.iter().map(batch_info).collect();
    let final_state = sim
        .cluster.partitions
        .iter()
        .enumerate()
        .map(|(i, p)| PartitionState {
            name: p.name.clone(),
            log_end_offset: p.log_end_offset,
            high_watermark: (!p.replicas.followers.is_empty()).then(|| p.high_watermark()),
            isr: (!p.replicas.followers.is_empty()).then(|| p.isr()),
            log: p.log.iter().map(|e| (e.base_offset, to_hex(&e.bytes))).collect(),
            values: sim.log_values(i),
            producers: p
                .producers
                .iter()
                .map(|(pid, e)| ProducerEntry {
                    producer_id: *pid,
                    epoch: e.producer_epoch,
                    batches: e.batches.iter().map(|b| (b.first_seq(), b.last_seq, b.first_offset(), b.last_offset)).collect(),
                })
                .collect(),
        })
        .collect();
    RunReport {
        kafka_version: "4.3",
        title: run.scenario.title.clone(),
        about: run.scenario.about.clone(),
        passed: run.passed(),
        failures: run.failures.clone(),
        error: run.error.as_ref().map(|e| format!("{e}")),
        partitions: run.scenario.partitions.clone(),
        producers: run.scenario.producers.iter().map(|p| p.name.clone()).collect(),
        steps,
        batches,
        final_state,
        next_steps: super::scenario::run_next_lines(sim, run.cluster.as_deref()).into_iter().map(|(label, line)| NextStep { label, line }).collect(),
        initial_state: run.initial.as_ref().map(state_report),
    }
}

/// A client batch as the report shows it.
fn batch_info(b: &super::idempotence::SimBatch) -> BatchInfo {
    let (state, offsets, error) = match &b.state {
        BatchState::Queued => ("queued", None, None),
        BatchState::InFlight => ("in-flight", None, None),
        BatchState::Acked { base_offset, last_offset, .. } => ("acked", Some((*base_offset, *last_offset)), None),
        BatchState::Failed(c) => ("failed", None, Some(c.exception())),
        BatchState::Abandoned => ("abandoned", None, None),
    };
    BatchInfo {
        id: b.id,
        producer: b.producer,
        partition: b.partition,
        values: b.values.clone(),
        producer_id: b.producer_id,
        producer_epoch: b.producer_epoch,
        base_sequence: b.base_sequence,
        last_sequence: if b.base_sequence < 0 { -1 } else { crate::sequence::increment(b.base_sequence, b.values.len() as i32 - 1) },
        attempts: b.attempts,
        state,
        offsets,
        error,
        hex: to_hex(&b.bytes),
    }
}
