//! The JSON shape of a transactions run (`eoslab run --json` on a `model transactions`
//! script, and the wasm `runTxnScenario`), drawn by `<kafka-timeline>`. State at step i is
//! `steps[i].state`; a record is on its lane from `records[k].step`, and its transaction's
//! outcome applies from `closedAt`. Every record carries its real bytes as hex.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

pub use super::txn::state::{snapshot, AbortedEntry, ConsumerState, CoordinatorState, FollowerState, GroupState, OffsetState, PartitionState, Position, ProducerEntry, ProducerState, ReplicationState, StateSnapshot, TxnState, VerificationEntry};
use super::txn::state::iso;
use super::scenario::Failure;
use super::txn::World;
use super::txn_scenario::{next_lines, TxnRun};
use crate::report::to_hex;

#[cfg(feature = "serde")]
use serde::Serialize;

#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(Serialize), serde(rename_all = "camelCase"))]
pub struct TxnRunReport {
    pub kafka_version: &'static str,
    /// The script's language: "transactions", or "idempotence" (an idempotence script's run
    /// as the timeline draws it: `txn_scenario::run_idempotence`).
    pub model: &'static str,
    pub title: String,
    pub about: String,
    pub passed: bool,
    pub failures: Vec<FailureReport>,
    pub error: Option<String>,
    pub outside_model: Option<String>,
    pub transaction_version: u8,
    pub features: String,
    pub lanes: Vec<Lane>,
    pub steps: Vec<StepReport>,
    pub records: Vec<RecordReport>,
    pub deliveries: Vec<DeliveryReport>,
    pub effects: Vec<EffectReport>,
    /// (partitions touched, EndTxn → Complete ms) per completed transaction.
    pub completions: Vec<CompletionReport>,
    pub next_steps: Vec<NextStep>,
    // An idempotence script's run (`model: "idempotence"`) also carries what `<kafka-ladder>`'s
    // per-batch view draws, read off the same run (`TxnRun::sequence`): the producers and
    // partitions by index (as each step's `events` name them), every client batch with its
    // bytes, each partition's final log with its bytes, and the state before the first step
    // (each step's `changes` has what it changed). Absent (None) for a transactions script.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub producers: Option<Vec<String>>,
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub partitions: Option<Vec<String>>,
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub batches: Option<Vec<super::report::BatchInfo>>,
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub final_state: Option<Vec<super::report::PartitionState>>,
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub initial_state: Option<super::report::StepStateReport>,
}

#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(Serialize), serde(rename_all = "camelCase"))]
pub struct FailureReport {
    pub line: usize,
    pub expect: String,
    pub actual: String,
}

#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(Serialize), serde(rename_all = "camelCase"))]
pub struct Lane {
    pub id: String,
    pub kind: &'static str,
    pub label: String,
}

/// The step buttons' entries, shaped as the idempotence runs have them.
pub use super::report::NextStep;

#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(Serialize), serde(rename_all = "camelCase"))]
pub struct StepReport {
    pub line: usize,
    pub text: String,
    pub ok: bool,
    pub t: i64,
    pub narration: String,
    pub messages: Vec<MessageReport>,
    pub state: StateSnapshot,
    pub invariants: Vec<InvariantReport>,
    /// The answer to a request step (`end-txn …`, `produce …`), as data.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub reply: Option<super::txn::Reply>,
    /// An idempotence script's step, as the ladder's per-batch view draws it: the model's events
    /// (sends, Produce attempts, the leader's decisions with their rules, acks, retries …), the
    /// producer-state entries each leader holds after it, and what it changed (the leaders, the
    /// client batches it touched, the lines that could come next; none after the last step,
    /// whose state is the run's own). None for a transactions script's step; a step that could
    /// not be carried out has no events.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub events: Option<Vec<super::report::EventReport>>,
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub producer_entries: Option<Vec<usize>>,
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub changes: Option<super::report::StepStateReport>,
}

#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(Serialize), serde(rename_all = "camelCase"))]
pub struct MessageReport {
    pub from: String,
    pub to: String,
    pub kind: &'static str,
    pub text: String,
    pub rule: Option<&'static str>,
    pub source: Option<&'static str>,
    pub error: Option<&'static str>,
    pub code: Option<i16>,
    pub lost: bool,
    pub record: Option<usize>,
}

#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(Serialize), serde(rename_all = "camelCase"))]
pub struct InvariantReport {
    pub name: &'static str,
    pub holds: bool,
    pub detail: String,
}

#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(Serialize), serde(rename_all = "camelCase"))]
pub struct RecordReport {
    pub lane: String,
    pub partition: String,
    pub offset: i64,
    pub last_offset: i64,
    pub kind: &'static str,
    pub pid: i64,
    pub epoch: i16,
    pub transactional: bool,
    pub values: Vec<Option<String>>,
    pub text: String,
    pub step: usize,
    pub closed_at: Option<usize>,
    pub outcome: Option<&'static str>,
    pub hex: String,
    /// The step whose leader election truncated it from the log (S6).
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub truncated_at: Option<usize>,
}

#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(Serialize), serde(rename_all = "camelCase"))]
pub struct DeliveryReport {
    pub consumer: String,
    pub partition: String,
    pub offset: i64,
    pub value: Option<String>,
    pub step: usize,
}

#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(Serialize), serde(rename_all = "camelCase"))]
pub struct EffectReport {
    pub name: String,
    pub key: Option<String>,
    pub producer: String,
    pub step: usize,
    pub duplicate: bool,
}

#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(Serialize), serde(rename_all = "camelCase"))]
pub struct CompletionReport {
    pub partitions: usize,
    pub ms: i64,
    /// The step whose marker (or failover) completed the transaction.
    pub step: usize,
}

fn lanes(w: &World) -> Vec<Lane> {
    let mut v = Vec::new();
    for c in &w.clients {
        v.push(Lane { id: format!("producer:{}", c.name), kind: "producer", label: format!("{} ({})", c.name, c.transactional_id) });
    }
    // The __transaction_state partitions of the ids the coordinator serves: the clients' first,
    // then ids only requests (or `txn-state`) named.
    let mut parts: Vec<String> = Vec::new();
    let ids = w.clients.iter().map(|c| c.transactional_id.as_str()).chain(w.coordinator.txns.iter().map(|m| m.transactional_id.as_str()));
    for id in ids {
        let p = format!("__transaction_state-{}", World::coordinator_partition(id));
        if !parts.contains(&p) {
            parts.push(p);
        }
    }
    for p in &w.idem.producers {
        let kind = if p.config.idempotence { "idempotent" } else { "not idempotent" };
        v.push(Lane { id: format!("producer:{}", p.name), kind: "producer", label: format!("{} ({kind})", p.name) });
    }
    for n in &w.request_senders {
        v.push(Lane { id: format!("producer:{n}"), kind: "producer", label: format!("{n} (requests)") });
    }
    v.push(Lane { id: String::from("coordinator"), kind: "coordinator", label: if parts.is_empty() { String::from("coordinator") } else { format!("coordinator ({})", parts.join(", ")) } });
    for p in &w.idem.cluster.partitions {
        v.push(Lane { id: format!("partition:{}", p.name), kind: "partition", label: p.name.clone() });
    }
    if !w.groups.is_empty() {
        let names: Vec<String> = w.groups.iter().map(|g| format!("__consumer_offsets-{} ({})", World::offsets_partition(&g.name), g.name)).collect();
        v.push(Lane { id: String::from("offsets"), kind: "offsets", label: names.join(", ") });
    }
    for c in &w.consumers {
        v.push(Lane { id: format!("consumer:{}", c.name), kind: "consumer", label: format!("{} ({})", c.name, iso(c.isolation)) });
    }
    v.push(Lane { id: String::from("external"), kind: "external", label: String::from("external system (outside Kafka)") });
    v
}

pub fn txn_run_report(run: &TxnRun) -> TxnRunReport {
    let mut report = report_without_sequence(run);
    if let Some(seq) = run.sequence.as_deref() {
        attach_sequence(&mut report, seq.clone());
    }
    report
}

/// [`txn_run_report`] of a run no longer needed: the per-batch view's parts (an idempotence
/// script's events, changes, batches and logs, the largest part of a ladder's report) are moved
/// into the report, not copied.
pub fn into_txn_run_report(mut run: TxnRun) -> TxnRunReport {
    let seq = run.sequence.take();
    let mut report = report_without_sequence(&run);
    if let Some(seq) = seq {
        attach_sequence(&mut report, *seq);
    }
    report
}

/// An idempotence script's per-batch view ([`TxnRun::sequence`]), step by step beside the
/// world's (`sequence.steps[k]` is `steps[k]`; a step that could not be carried out has none).
fn attach_sequence(report: &mut TxnRunReport, seq: crate::model::report::RunReport) {
    let mut steps = seq.steps.into_iter();
    for s in report.steps.iter_mut() {
        let st = steps.next();
        s.events = Some(Vec::new());
        s.producer_entries = Some(Default::default());
        if let Some(st) = st {
            s.changes = st.state;
            s.events = Some(st.events);
            s.producer_entries = Some(st.producer_entries);
        }
    }
    report.producers = Some(seq.producers);
    report.partitions = Some(seq.partitions);
    report.batches = Some(seq.batches);
    report.final_state = Some(seq.final_state);
    report.initial_state = seq.initial_state;
}

fn report_without_sequence(run: &TxnRun) -> TxnRunReport {
    let w = &run.world;
    TxnRunReport {
        kafka_version: "4.3",
        model: run.model,
        title: run.scenario.title.clone(),
        about: run.scenario.about.clone(),
        passed: run.passed(),
        failures: run.failures.iter().map(|f: &Failure| FailureReport { line: f.line, expect: f.expected.clone(), actual: f.got.clone() }).collect(),
        error: run.error.as_ref().map(|e| format!("{e}")),
        outside_model: w.outside_model.clone(),
        transaction_version: w.cluster.transaction_version,
        features: w.features_line(),
        lanes: lanes(w),
        steps: run
            .steps
            .iter()
            .map(|s| StepReport {
                line: s.line,
                text: s.text.clone(),
                ok: s.ok,
                t: s.t,
                narration: s.narration.clone(),
                messages: s
                    .messages
                    .iter()
                    .map(|m| MessageReport {
                        from: String::from(m.from.as_str()),
                        to: String::from(m.to.as_str()),
                        kind: m.kind,
                        text: m.text.clone(),
                        rule: m.rule,
                        source: m.source,
                        error: m.error.map(|e| e.name()),
                        code: m.error.map(|e| e.0),
                        lost: m.lost,
                        record: m.record,
                    })
                    .collect(),
                state: s.snapshot.as_deref().cloned().unwrap_or_default(),
                invariants: s.invariants.iter().map(|(n, h, d)| InvariantReport { name: n, holds: *h, detail: d.clone() }).collect(),
                reply: s.reply.as_deref().cloned(),
                events: None,
                producer_entries: None,
                changes: None,
            })
            .collect(),
        records: w
            .records
            .iter()
            .map(|r| RecordReport {
                lane: String::from(r.lane.as_str()),
                partition: String::from(r.partition.as_str()),
                offset: r.offset,
                last_offset: r.last_offset,
                kind: r.kind,
                pid: r.pid,
                epoch: r.epoch,
                transactional: r.transactional,
                values: r.values.iter().map(|v| v.as_deref().map(String::from)).collect(),
                text: format!("{}", r.text),
                step: r.step,
                closed_at: r.closed_at,
                outcome: r.outcome,
                hex: to_hex(&r.bytes),
                truncated_at: r.truncated_at,
            })
            .collect(),
        deliveries: w
            .deliveries
            .iter()
            .map(|d| DeliveryReport { consumer: String::from(d.consumer.as_str()), partition: String::from(d.partition.as_str()), offset: d.offset, value: d.value.as_deref().map(String::from), step: d.step })
            .collect(),
        effects: w.effects.iter().map(|e| EffectReport { name: e.name.clone(), key: e.key.clone(), producer: e.producer.clone(), step: e.step, duplicate: e.duplicate }).collect(),
        completions: w.completions.iter().map(|c| CompletionReport { partitions: c.0, ms: c.2 - c.1, step: c.3 }).collect(),
        next_steps: run.next.clone().unwrap_or_else(|| next_lines(w)).into_iter().map(|(label, line)| NextStep { label, line }).collect(),
        producers: None,
        partitions: None,
        batches: None,
        final_state: None,
        initial_state: None,
    }
}
