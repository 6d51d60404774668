//! The idempotence script's runner: a [`Scenario`] set up as a [`Sim`] and driven step by step.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use super::expect::check_expect;
use super::idempotence::{Action, MessageKind, Sim};
use super::parse::{leader_log_end, producer_config};
use super::partition::MarkerVersion;
use super::text::describe;
use super::{Direction, LeaderStateDecl, Scenario, Step};
use crate::model::script::{perr, Failure, ParseError};

/// A step as run: its script line, and the trace events it produced.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StepRun {
    pub line: usize,
    pub text: String,
    pub events: core::ops::Range<usize>,
    pub ok: bool,
    /// Producer-state entries held by each partition's leader after this step (the
    /// broker memory a producer-per-request application fills).
    pub producer_entries: Vec<usize>,
}

/// The result of running a scenario.
#[derive(Clone, Debug)]
pub struct Run {
    pub scenario: Scenario,
    pub sim: Sim,
    pub steps: Vec<StepRun>,
    pub failures: Vec<Failure>,
    /// A step that could not be carried out (e.g. delivering a message that is not there).
    pub error: Option<ParseError>,
}

impl Run {
    pub fn passed(&self) -> bool {
        self.failures.is_empty() && self.error.is_none()
    }
}

/// Set up the model for a scenario.
pub fn setup(sc: &Scenario) -> Sim {
    let mut sim = Sim::new(sc.start_ms, sc.first_producer_id);
    for p in &sc.partitions {
        let i = sim.add_partition(p);
        if let Some(ttl) = sc.producer_id_expiration_ms {
            sim.partitions[i].producer_id_expiration_ms = ttl;
        }
    }
    for d in &sc.producers {
        sim.add_producer(&d.name, producer_config(d).unwrap_or_default());
    }
    for (i, name) in sc.partitions.iter().enumerate() {
        let decls: Vec<&LeaderStateDecl> = sc.leader_state.iter().filter(|d| d.partition == *name).collect();
        if decls.is_empty() {
            continue;
        }
        let part = &mut sim.partitions[i];
        part.log_end_offset = leader_log_end(sc, name);
        for p in decls.iter().filter_map(|d| d.producer.as_ref()) {
            let ts = p.timestamp.unwrap_or(sc.start_ms);
            part.load_producer_state(
                p.producer_id,
                p.epoch,
                p.coordinator_epoch,
                ts,
                p.txn_first_offset,
                p.batches.iter().map(|&(_, ls, fo, lo)| super::partition::BatchMetadata {
                    last_seq: ls,
                    last_offset: lo,
                    offset_delta: (lo - fo) as i32,
                    timestamp: ts,
                }),
            );
        }
    }
    sim
}

/// Run a scenario to its end (stopping at a step that cannot be carried out).
pub fn run(sc: &Scenario) -> Run {
    run_sim(sc, setup(sc))
}

/// [`run`], keeping the leader's replay log ([`Sim::leader_log`]): every Produce a leader
/// decided, with its bytes, and every expiration check, in order.
pub fn run_logged(sc: &Scenario) -> Run {
    let mut sim = setup(sc);
    sim.leader_log = Some(Vec::new());
    run_sim(sc, sim)
}

fn run_sim(sc: &Scenario, mut sim: Sim) -> Run {
    let mut out = Run { scenario: sc.clone(), sim: Sim::new(0, 0), steps: Vec::new(), failures: Vec::new(), error: None };
    let mut budget = 2_000_000usize;
    for s in &sc.steps {
        if let Err(e) = exec(&mut sim, s, &mut out, &mut budget, false) {
            out.error = Some(e);
            break;
        }
    }
    out.sim = sim;
    out
}

pub(in crate::model) fn exec(sim: &mut Sim, s: &Step, out: &mut Run, budget: &mut usize, nested: bool) -> Result<(), ParseError> {
    if *budget == 0 {
        return perr(step_line(s), "step budget exhausted (the scenario is too long)");
    }
    *budget -= 1;
    let start = sim.trace.len();
    let line = step_line(s);
    let act = |sim: &mut Sim, a: Action| sim.step(&a).map_err(|m| ParseError { line, message: m });
    let mut ok = true;
    match s {
        Step::Send { producer, partition, values, .. } => {
            let (p, q) = (producer_idx(sim, producer), partition_idx(sim, partition));
            act(sim, Action::Send { producer: p, partition: q, values: values.clone() })?;
        }
        Step::Deliver { what, batch, attempt, .. } | Step::Lose { what, batch, attempt, .. } => {
            let resp = *what == Direction::Response;
            let found = match attempt {
                Some(a) => sim
                    .wire
                    .iter()
                    .find(|m| m.batch == *batch && m.attempt == *a && matches!(m.kind, MessageKind::Response(_)) == resp),
                None => sim.latest_message(*batch, resp),
            };
            let Some(m) = found.map(|m| m.id) else {
                return perr(line, format!("b{batch} has no {} in the network", if resp { "response" } else { "request" }));
            };
            let a = if matches!(s, Step::Deliver { .. }) { Action::Deliver { message: m } } else { Action::Lose { message: m } };
            act(sim, a)?;
        }
        Step::Delay { batch, .. } => {
            let Some(m) = sim.latest_message(*batch, false).map(|m| m.id) else {
                return perr(line, format!("b{batch} has no request in the network"));
            };
            act(sim, Action::Delay { message: m })?;
        }
        Step::Refuse { batch, error, .. } => {
            let Some(m) = sim.latest_message(*batch, false).map(|m| m.id) else {
                return perr(line, format!("b{batch} has no request in the network"));
            };
            let code = super::errors::ErrorCode::from_name(error).unwrap_or(super::errors::ErrorCode::NOT_ENOUGH_REPLICAS);
            act(sim, Action::Refuse { message: m, code })?;
        }
        Step::Timeout { producer, .. } => act(sim, Action::Timeout { producer: producer_idx(sim, producer) })?,
        Step::Restart { producer, .. } => act(sim, Action::Restart { producer: producer_idx(sim, producer) })?,
        Step::Advance { ms, .. } => act(sim, Action::Advance { ms: *ms })?,
        Step::ProduceBytes { partition, batch, .. } => act(
            sim,
            Action::ProduceBytes { partition: partition_idx(sim, partition), bytes: crate::spec::parse_hex(batch).or_else(|e| perr(line, format!("batch=: {e}")))? },
        )?,
        Step::Produce { partition, producer_id, epoch, base_sequence, transactional, values, .. } => act(
            sim,
            Action::Produce {
                partition: partition_idx(sim, partition),
                producer_id: *producer_id,
                epoch: *epoch,
                base_sequence: *base_sequence,
                transactional: *transactional,
                values: values.clone(),
            },
        )?,
        Step::Marker { partition, producer_id, epoch, commit, coordinator_epoch, tv2, .. } => act(
            sim,
            Action::Marker {
                partition: partition_idx(sim, partition),
                producer_id: *producer_id,
                epoch: *epoch,
                commit: *commit,
                coordinator_epoch: *coordinator_epoch,
                version: if *tv2 { MarkerVersion::Tv2 } else { MarkerVersion::Tv1 },
            },
        )?,
        Step::LeaderChange { partition, .. } => act(sim, Action::LeaderChange { partition: partition_idx(sim, partition) })?,
        Step::Flush { .. } => {
            let mut n = 0;
            while let Some(m) = sim.first_deliverable() {
                act(sim, Action::Deliver { message: m })?;
                n += 1;
                if n > 100_000 {
                    return perr(line, "flush did not settle");
                }
            }
        }
        Step::Repeat { times, steps, .. } => {
            let failures_before = out.failures.len();
            for _ in 0..*times {
                for st in steps {
                    exec(sim, st, out, budget, true)?;
                }
            }
            ok = out.failures.len() == failures_before;
        }
        Step::Expect { check, .. } => {
            if let Err((expected, got)) = check_expect(sim, check) {
                ok = false;
                out.failures.push(Failure { line, expected, got });
            }
        }
    }
    if !nested {
        // Only top-level steps are recorded: a `repeat` body's steps are not described.
        let text = describe(s);
        let producer_entries = sim.partitions.iter().map(|p| p.producer_count()).collect();
        out.steps.push(StepRun { line, text, events: start..sim.trace.len(), ok, producer_entries });
    }
    Ok(())
}

pub(super) fn producer_idx(sim: &Sim, name: &str) -> usize {
    sim.producers.iter().position(|p| p.name == name).unwrap_or(0)
}

pub(super) fn partition_idx(sim: &Sim, name: &str) -> usize {
    sim.partitions.iter().position(|p| p.name == name).unwrap_or(0)
}

pub fn step_line(s: &Step) -> usize {
    match s {
        Step::Send { line, .. }
        | Step::Deliver { line, .. }
        | Step::Lose { line, .. }
        | Step::Delay { line, .. }
        | Step::Refuse { line, .. }
        | Step::Timeout { line, .. }
        | Step::Restart { line, .. }
        | Step::Advance { line, .. }
        | Step::LeaderChange { line, .. }
        | Step::Flush { line }
        | Step::Repeat { line, .. }
        | Step::Expect { line, .. }
        | Step::Produce { line, .. }
        | Step::ProduceBytes { line, .. }
        | Step::Marker { line, .. } => *line,
    }
}
