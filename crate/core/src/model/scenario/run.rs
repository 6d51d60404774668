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
    /// What changed in the step, for a view that steps back without re-running
    /// ([`run_with_states`]; `None` from [`run`], and for the last step, whose state is the
    /// run's own).
    pub state: Option<StepState>,
}

/// How many producer-state entries per partition a step's state carries (what the ladder's
/// panel lists; `producer_entries` has the count).
pub const STATE_ENTRIES: usize = 4;

/// A leader's state as the ladder's panel shows it: its log end and its first
/// [`STATE_ENTRIES`] producer-state entries (producer id, epoch, retained window
/// `(firstSeq, lastSeq, firstOffset, lastOffset)` oldest first).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LeaderAt {
    pub partition: usize,
    pub log_end_offset: i64,
    /// With followers (`broker default.replication.factor` ≥ 2): the high watermark and the
    /// ISR, in ascending broker order (as Kafka 4.3 lists it).
    pub replicas: Option<(i64, Vec<i32>)>,
    pub producers: Vec<EntryAt>,
}

/// One producer-state entry as the panel shows it: producer id, epoch, and the retained window
/// `(firstSeq, lastSeq, firstOffset, lastOffset)`, oldest first.
pub type EntryAt = (i64, i16, Vec<(i32, i32, i64, i64)>);

/// The changes of one step: the leaders whose state changed, the client batches it touched (as
/// they are after it), and the lines that could come next.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StepState {
    pub leaders: Vec<LeaderAt>,
    pub batches: Vec<super::idempotence::SimBatch>,
    pub next: Vec<(String, String)>,
}

fn leader_at(sim: &Sim, q: usize) -> LeaderAt {
    let p = &sim.cluster.partitions[q];
    LeaderAt {
        partition: q,
        log_end_offset: p.log_end_offset,
        replicas: (!p.replicas.followers.is_empty()).then(|| (p.high_watermark(), p.isr())),
        producers: p
            .producers
            .iter()
            .take(STATE_ENTRIES)
            .map(|(&pid, e)| (pid, e.producer_epoch, e.batches.iter().map(|b| (b.first_seq(), b.last_seq, b.first_offset(), b.last_offset)).collect()))
            .collect(),
    }
}

/// The lines that could come next ([`super::text::next_lines`]), and, once an EndTxn queued
/// markers, the coordinator's delivery of them.
pub fn run_next_lines(sim: &Sim, cluster: Option<&Cluster>) -> Vec<(String, String)> {
    let mut v = super::text::next_lines(sim);
    if cluster.is_some_and(|c| !c.world.markers.is_empty()) {
        v.push((String::from("the coordinator's markers reach the leaders"), String::from("deliver markers")));
    }
    v
}

/// The state before the first step: every leader, no batch, the first lines.
pub fn initial_state(sim: &Sim) -> StepState {
    StepState { leaders: (0..sim.cluster.partitions.len()).map(|q| leader_at(sim, q)).collect(), batches: Vec::new(), next: super::text::next_lines(sim) }
}

/// The state a step leaves, as changes against `last` (the leaders as the previous step left
/// them, updated here): the leaders that differ, every batch the step's events name and every
/// batch that was unfinished before it (`open`, updated here) of a producer they name.
fn step_state(sim: &Sim, cluster: Option<&Cluster>, events: core::ops::Range<usize>, last: &mut [LeaderAt], open: &mut Vec<usize>) -> StepState {
    use super::idempotence::BatchState;
    let mut leaders = Vec::new();
    for (q, prev) in last.iter_mut().enumerate() {
        let now = leader_at(sim, q);
        if now != *prev {
            *prev = now.clone();
            leaders.push(now);
        }
    }
    let mut ids: Vec<usize> = Vec::new();
    let mut producers: Vec<usize> = Vec::new();
    for e in &sim.trace[events] {
        ids.extend(e.batch());
        producers.extend(e.producer());
    }
    producers.sort_unstable();
    producers.dedup();
    if !producers.is_empty() {
        ids.extend(open.iter().copied().filter(|&id| sim.batches.get(id - 1).is_some_and(|b| producers.binary_search(&b.producer).is_ok())));
    }
    ids.sort_unstable();
    ids.dedup();
    let batches: Vec<_> = ids.iter().filter_map(|&id| sim.batches.get(id.wrapping_sub(1)).cloned()).collect();
    for b in &batches {
        let unfinished = matches!(b.state, BatchState::Queued | BatchState::InFlight);
        match open.binary_search(&b.id) {
            Ok(k) if !unfinished => {
                open.remove(k);
            }
            Err(k) if unfinished => open.insert(k, b.id),
            _ => {}
        }
    }
    StepState { leaders, batches, next: run_next_lines(sim, cluster) }
}

/// The cluster's coordinators for the request lines that need them (`init-producer-id`,
/// `end-txn` …): the transactions world, made at the first such line, answering on the run's own
/// partitions (lent to it for each line), with the answers kept by label.
#[derive(Clone, Debug)]
pub struct Cluster {
    pub world: crate::model::txn::World,
    pub replies: Vec<(String, crate::model::txn::Reply)>,
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
    /// [`run_with_states`]: the state before the first step (and each step's changes in
    /// [`StepRun::state`]).
    pub initial: Option<StepState>,
    /// The coordinators, once a request line needed them.
    pub cluster: Option<alloc::boxed::Box<Cluster>>,
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
            sim.cluster.partitions[i].producer_id_expiration_ms = ttl;
        }
    }
    for d in &sc.producers {
        sim.add_producer(&d.name, producer_config(d).unwrap_or_default());
    }
    sim.replication.unclean_leader_election = sc.unclean_leader_election;
    if let Some(ms) = sc.replica_lag_time_max_ms {
        sim.replication.replica_lag_time_max_ms = ms;
    }
    for (i, name) in sc.partitions.iter().enumerate() {
        let decls: Vec<&LeaderStateDecl> = sc.leader_state.iter().filter(|d| d.partition == *name).collect();
        if decls.is_empty() {
            continue;
        }
        let part = &mut sim.cluster.partitions[i];
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
    if sc.replication_factor > 1 {
        let now = sim.cluster.now_ms;
        for p in &mut sim.cluster.partitions {
            // The given state is the one an election's rebuild starts from (S6).
            p.keep_snapshot();
            p.set_replication_factor(sc.replication_factor, now);
        }
    }
    sim
}

/// Run a scenario to its end (stopping at a step that cannot be carried out).
pub fn run(sc: &Scenario) -> Run {
    run_sim(sc, setup(sc), false)
}

/// [`run`], keeping what each step changed ([`StepRun::state`], from [`Run::initial`]): a view
/// shows the state after any step from the one run, without re-running the script's prefix.
pub fn run_with_states(sc: &Scenario) -> Run {
    run_sim(sc, setup(sc), true)
}

/// What a run with states carries from one step to the next: the leaders as the last step left
/// them and the client batches still unfinished ([`run_with_states`], and the one report of
/// `txn_scenario::run_idempotence`).
pub(in crate::model) struct States {
    last: Vec<LeaderAt>,
    open: Vec<usize>,
}

impl States {
    /// The state before the first step, kept in `out.initial`.
    pub(in crate::model) fn start(sim: &Sim, out: &mut Run) -> Self {
        let initial = initial_state(sim);
        let last = initial.leaders.clone();
        out.initial = Some(initial);
        States { last, open: Vec::new() }
    }

    /// The changes of the step [`exec`] just recorded (nothing when it recorded none: a step
    /// that could not be carried out).
    pub(in crate::model) fn after_step(&mut self, sim: &Sim, out: &mut Run) {
        if let Some(st) = out.steps.last_mut().filter(|st| st.state.is_none()) {
            st.state = Some(step_state(sim, out.cluster.as_deref(), st.events.clone(), &mut self.last, &mut self.open));
        }
    }

    /// After the last step the state is the run's own (its final state, batches and next
    /// lines): not kept twice.
    pub(in crate::model) fn finish(out: &mut Run) {
        if let Some(last) = out.steps.last_mut() {
            last.state = None;
        }
    }
}

/// [`run`], keeping the leader's replay log ([`Sim::leader_log`]): every Produce a leader
/// decided, with its bytes, and every expiration check, in order.
pub fn run_logged(sc: &Scenario) -> Run {
    let mut sim = setup(sc);
    sim.leader_log = Some(Vec::new());
    run_sim(sc, sim, false)
}

/// The idempotence scripts' runner loop: every step [`exec`]uted in order on `sim`, stopping at
/// one that cannot be carried out; with `states`, what each step changed is kept.
/// (`txn_scenario::run_idempotence` runs the same steps with a world hosting `sim`.)
fn run_sim(sc: &Scenario, mut sim: Sim, states: bool) -> Run {
    let mut out = Run { scenario: sc.clone(), sim: Sim::new(0, 0), steps: Vec::new(), failures: Vec::new(), error: None, initial: None, cluster: None };
    let mut kept = states.then(|| States::start(&sim, &mut out));
    let mut budget = 2_000_000usize;
    for s in &sc.steps {
        let r = exec(&mut sim, s, &mut out, &mut budget, false);
        if let Some(k) = kept.as_mut() {
            k.after_step(&sim, &mut out);
        }
        if let Err(e) = r {
            out.error = Some(e);
            break;
        }
    }
    if states {
        States::finish(&mut out);
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
    let act = |sim: &mut Sim, a: Action| sim.apply(a).map_err(|m| ParseError { line, message: m });
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
                return perr(line, no_message(sim, *batch, resp));
            };
            let a = if matches!(s, Step::Deliver { .. }) { Action::Deliver { message: m } } else { Action::Lose { message: m } };
            act(sim, a)?;
        }
        Step::Delay { batch, .. } => {
            let Some(m) = sim.latest_message(*batch, false).map(|m| m.id) else {
                return perr(line, no_message(sim, *batch, false));
            };
            act(sim, Action::Delay { message: m })?;
        }
        Step::Refuse { batch, error, .. } => {
            let Some(m) = sim.latest_message(*batch, false).map(|m| m.id) else {
                return perr(line, no_message(sim, *batch, false));
            };
            let code = super::errors::ErrorCode::from_name(error).unwrap_or(super::errors::ErrorCode::NOT_ENOUGH_REPLICAS);
            act(sim, Action::Refuse { message: m, code })?;
        }
        Step::Timeout { producer, .. } => act(sim, Action::Timeout { producer: producer_idx(sim, producer) })?,
        Step::Restart { producer, .. } => act(sim, Action::Restart { producer: producer_idx(sim, producer) })?,
        Step::Advance { ms, .. } => {
            act(sim, Action::Advance { ms: *ms })?;
            // The coordinators, once a request line made them, run their timeouts too (T1–T2, T4).
            if out.cluster.is_some() {
                on_cluster(sim, out, |w| {
                    w.coordinator_timeouts();
                    Ok(())
                })
                .map_err(|message| ParseError { line, message })?;
            }
        }
        Step::RunTask { task, .. } => match super::idempotence::LeaderTask::named(task) {
            Some(task) => act(sim, Action::RunTask { task })?,
            // The coordinator's tasks run on the cluster the request lines use (made now if no
            // line has made it: a coordinator with nothing to scan).
            None => on_cluster(sim, out, |w| w.run_task(task)).map_err(|message| ParseError { line, message })?,
        },
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
        Step::Lag { partition, broker, .. } => act(sim, Action::Lag { partition: partition_idx(sim, partition), broker: *broker })?,
        Step::CatchUp { partition, broker, .. } => act(sim, Action::CatchUp { partition: partition_idx(sim, partition), broker: *broker })?,
        Step::LeaderFails { partition, .. } => act(sim, Action::LeaderFails { partition: partition_idx(sim, partition) })?,
        Step::Fetch { partition, read_committed, from, .. } => {
            act(sim, Action::Read { partition: partition_idx(sim, partition), read_committed: *read_committed, from: *from, list_offsets: false })?
        }
        Step::ListOffsets { partition, read_committed, .. } => {
            act(sim, Action::Read { partition: partition_idx(sim, partition), read_committed: *read_committed, from: 0, list_offsets: true })?
        }
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
        Step::Request { label, from, request, .. } => {
            let from = from.as_deref().unwrap_or("client");
            let reply = on_cluster(sim, out, |w| w.request(request, from)).map_err(|message| ParseError { line, message })?;
            let c = out.cluster.as_mut().expect("made by on_cluster");
            for l in label.iter().map(String::as_str).chain(core::iter::once("last")) {
                c.replies.retain(|x| x.0 != l);
                c.replies.push((String::from(l), reply.clone()));
            }
        }
        Step::DeliverMarkers { partition, .. } => {
            if out.cluster.as_ref().is_none_or(|c| c.world.markers.is_empty()) {
                return perr(line, "no markers to deliver: no EndTxn has been answered with markers to write");
            }
            on_cluster(sim, out, |w| w.deliver_markers(partition.as_deref())).map_err(|message| ParseError { line, message })?;
        }
        Step::Expect { check, .. } => {
            if let Err((expected, got)) = check_expect(sim, out.cluster.as_deref(), check) {
                ok = false;
                out.failures.push(Failure { line, expected, got });
            }
        }
    }
    if !nested {
        // Only top-level steps are recorded: a `repeat` body's steps are not described.
        let text = describe(s);
        let producer_entries = sim.cluster.partitions.iter().map(|p| p.producer_count()).collect();
        out.steps.push(StepRun { line, text, events: start..sim.trace.len(), ok, producer_entries, state: None });
    }
    Ok(())
}

/// Run `f` on the cluster's coordinators (made at the first request line) with the run's
/// partitions lent to them, on the run's clock and producer-id counter; what they did becomes
/// the trace's [`EventKind::Cluster`](super::idempotence::EventKind::Cluster) events.
fn on_cluster<R>(sim: &mut Sim, out: &mut Run, f: impl FnOnce(&mut crate::model::txn::World) -> Result<R, String>) -> Result<R, String> {
    use super::idempotence::ClusterEvent;
    let c = out.cluster.get_or_insert_with(|| {
        let cluster = crate::model::txn::ClusterConfig { kafka: out.scenario.kafka, transaction_version: out.scenario.transaction_version.unwrap_or(2), ..Default::default() };
        // The coordinators started with the cluster, at the script's start: their periodic scans
        // count from it (nothing was there to scan before this line).
        let mut world = crate::model::txn::World::new(out.scenario.start_ms.min(sim.cluster.now_ms), sim.next_producer_id(), cluster);
        world.idem.cluster.now_ms = sim.cluster.now_ms;
        world.abort_scans_done = sim.cluster.now_ms;
        world.expiry_scans_done = sim.cluster.now_ms;
        alloc::boxed::Box::new(Cluster { world, replies: Vec::new() })
    });
    let w = &mut c.world;
    core::mem::swap(&mut w.idem.cluster.partitions, &mut sim.cluster.partitions);
    w.idem.cluster.now_ms = w.idem.cluster.now_ms.max(sim.cluster.now_ms);
    w.idem.cluster.next_producer_id = sim.next_producer_id();
    w.messages.clear();
    w.narration.clear();
    let r = f(w);
    core::mem::swap(&mut w.idem.cluster.partitions, &mut sim.cluster.partitions);
    sim.cluster.next_producer_id = w.idem.cluster.next_producer_id;
    let events: Vec<ClusterEvent> = w
        .messages
        .drain(..)
        .map(|m| ClusterEvent {
            api: m.kind,
            from: String::from(m.from.as_str()),
            to: String::from(m.to.as_str()),
            text: m.text,
            rule: m.rule,
            source: m.source,
            error: m.error.unwrap_or(super::errors::ErrorCode::NONE),
        })
        .collect();
    sim.cluster_events(events);
    r
}

pub(super) fn producer_idx(sim: &Sim, name: &str) -> usize {
    sim.producers.iter().position(|p| p.name == name).unwrap_or(0)
}

pub(super) fn partition_idx(sim: &Sim, name: &str) -> usize {
    sim.cluster.partitions.iter().position(|p| p.name == name).unwrap_or(0)
}

/// The error of a step naming batch `batch` when it has no request (`resp`: response) in the
/// network, with the nearest batch that has one: `b7 has no request in the network — did you
/// mean "b5"?`.
fn no_message(sim: &Sim, batch: usize, resp: bool) -> String {
    let message = format!("b{batch} has no {} in the network", if resp { "response" } else { "request" });
    let have = sim.wire.iter().filter(|m| matches!(m.kind, MessageKind::Response(_)) == resp).map(|m| m.batch);
    match crate::model::suggest::nearest_batch(batch, have) {
        Some(n) => format!("{message} — did you mean \"b{n}\"?"),
        None => message,
    }
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
        | Step::RunTask { line, .. }
        | Step::LeaderChange { line, .. }
        | Step::Lag { line, .. }
        | Step::CatchUp { line, .. }
        | Step::LeaderFails { line, .. }
        | Step::Fetch { line, .. }
        | Step::ListOffsets { line, .. }
        | Step::Flush { line }
        | Step::Repeat { line, .. }
        | Step::Expect { line, .. }
        | Step::Produce { line, .. }
        | Step::ProduceBytes { line, .. }
        | Step::Marker { line, .. }
        | Step::Request { line, .. }
        | Step::DeliverMarkers { line, .. } => *line,
    }
}
