//! The idempotence script's runner: a [`Scenario`] set up as a [`Sim`] on the run's one cluster ([`Runner`]) and driven step by step.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use super::expect::check_expect;
use super::idempotence::{Action, ClusterEvent, MessageKind, Sim};
use super::parse::{leader_log_end, producer_config};
use super::partition::MarkerVersion;
use super::text::describe;
use super::{Direction, LeaderStateDecl, Scenario, Step};
use crate::model::script::{perr, Failure, ParseError};
use crate::model::txn::{ClusterConfig, Reply, World};

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
/// `end-txn` …): a transactions world, started at the first such line, whose leaders, clock and
/// producer-id counter were the run's own ([`Runner`]), with the answers kept by
/// label.
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

/// What a script's run acts on, held in one place: a transactions [`World`] whose idempotence
/// model (`world.idem`) is the script's own [`Sim`]. The partitions' leaders, the clock and the
/// producer-id counter the script's steps use are the ones the coordinators answer on, so a
/// request line's write is what the next step meets, and an InitProducerId and a producer's
/// own id come from one counter.
///
/// The coordinators start at the first line that needs them (`init-producer-id`, `end-txn`,
/// `deliver-markers`, a coordinator task): until then `expect` finds no coordinator, `advance`
/// runs no coordinator scan, and the run reports no [`Run::cluster`].
pub(in crate::model) struct Runner {
    cluster: Cluster,
    /// The coordinators' clock, once they started. Their round trips (a request's rtt, a
    /// marker's appends) take coordinator time that the script's clock does not count: while
    /// they act the cluster runs on theirs (never behind the script's), and the script's steps
    /// go on at the script's time.
    coordinators_ms: Option<i64>,
}

impl Runner {
    /// The run of `sc` on `sim` (its set-up model, or a placeholder for a model that is lent
    /// for each step: [`Runner::lent`]).
    pub(in crate::model) fn new(sc: &Scenario, sim: Sim) -> Self {
        let config = ClusterConfig { kafka: sc.kafka, transaction_version: sc.transaction_version.unwrap_or(2), ..Default::default() };
        let mut world = World::new(sc.start_ms, sim.next_producer_id(), config);
        world.idem = sim;
        Runner { cluster: Cluster { world, replies: Vec::new() }, coordinators_ms: None }
    }

    pub(in crate::model) fn sim(&self) -> &Sim {
        &self.cluster.world.idem
    }

    pub(in crate::model) fn sim_mut(&mut self) -> &mut Sim {
        &mut self.cluster.world.idem
    }

    /// The coordinators and their answers, once a line started them.
    pub(in crate::model) fn cluster(&self) -> Option<&Cluster> {
        self.coordinators_ms.map(|_| &self.cluster)
    }

    /// Have the coordinators markers queued (an EndTxn answered, its markers not delivered)?
    pub(in crate::model) fn has_markers(&self) -> bool {
        self.cluster().is_some_and(|c| !c.world.markers.is_empty())
    }

    /// Keep `reply` under each of `labels` and under `last` (a label names its latest answer).
    pub(in crate::model) fn keep_reply(&mut self, labels: &[String], reply: Reply) {
        let replies = &mut self.cluster.replies;
        for l in labels.iter().map(String::as_str).chain(core::iter::once("last")) {
            replies.retain(|x| x.0 != l);
            replies.push((String::from(l), reply.clone()));
        }
    }

    /// Run `f` on the cluster's coordinators (started now if no line started them) at their
    /// clock; what they did becomes the trace's
    /// [`EventKind::Cluster`](super::idempotence::EventKind::Cluster) events.
    pub(in crate::model) fn on_cluster<R>(&mut self, f: impl FnOnce(&mut World) -> Result<R, String>) -> Result<R, String> {
        let coordinators_ms = self.start();
        let w = &mut self.cluster.world;
        let script_ms = w.idem.cluster.now_ms;
        w.idem.cluster.now_ms = coordinators_ms.max(script_ms);
        w.messages.clear();
        w.narration.clear();
        let r = f(w);
        self.coordinators_ms = Some(w.idem.cluster.now_ms);
        w.idem.cluster.now_ms = script_ms;
        let events: Vec<ClusterEvent> = w.messages.drain(..).map(cluster_event).collect();
        w.idem.cluster_events(events);
        r
    }

    /// The coordinators' clock, starting them at the script's time if they have not started:
    /// their periodic scans count from now (nothing was there to scan before this line).
    fn start(&mut self) -> i64 {
        if let Some(ms) = self.coordinators_ms {
            return ms;
        }
        let w = &mut self.cluster.world;
        let now = w.idem.cluster.now_ms;
        w.start_ms = w.start_ms.min(now);
        w.abort_scans_done = now;
        w.expiry_scans_done = now;
        self.coordinators_ms = Some(now);
        now
    }

    /// Run `f` with `sim` as the run's model: the model a timeline's world hosts, handed to this
    /// run for one step and back (it is never in both).
    pub(in crate::model) fn lent<R>(&mut self, sim: &mut Sim, f: impl FnOnce(&mut Self) -> R) -> R {
        core::mem::swap(sim, &mut self.cluster.world.idem);
        let r = f(self);
        core::mem::swap(sim, &mut self.cluster.world.idem);
        r
    }

    /// The run's end: the coordinators (if a line started them) go to `out`, and the model is
    /// returned.
    pub(in crate::model) fn finish(self, out: &mut Run) -> Sim {
        let Runner { mut cluster, coordinators_ms } = self;
        let sim = core::mem::replace(&mut cluster.world.idem, Sim::new(0, 0));
        out.cluster = coordinators_ms.map(|_| alloc::boxed::Box::new(cluster));
        sim
    }
}

/// A coordinator's message as the script's trace records it.
fn cluster_event(m: crate::model::txn::Message) -> ClusterEvent {
    ClusterEvent {
        api: m.kind,
        from: String::from(m.from.as_str()),
        to: String::from(m.to.as_str()),
        text: m.text,
        rule: m.rule,
        source: m.source,
        error: m.error.unwrap_or(super::errors::ErrorCode::NONE),
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
    pub(in crate::model) fn after_step(&mut self, rn: &Runner, out: &mut Run) {
        if let Some(st) = out.steps.last_mut().filter(|st| st.state.is_none()) {
            st.state = Some(step_state(rn.sim(), rn.cluster(), st.events.clone(), &mut self.last, &mut self.open));
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

/// The idempotence scripts' runner loop: every step [`exec`]uted in order on `sim` (the model of
/// the run's one cluster, [`Runner`]), stopping at one that cannot be carried out; with
/// `states`, what each step changed is kept. (`txn_scenario::run_idempotence` runs the same
/// steps with a world hosting `sim`.)
fn run_sim(sc: &Scenario, sim: Sim, states: bool) -> Run {
    let mut out = Run { scenario: sc.clone(), sim: Sim::new(0, 0), steps: Vec::new(), failures: Vec::new(), error: None, initial: None, cluster: None };
    let mut kept = states.then(|| States::start(&sim, &mut out));
    let mut rn = Runner::new(sc, sim);
    let mut budget = 2_000_000usize;
    for s in &sc.steps {
        let r = exec(&mut rn, s, &mut out, &mut budget, false);
        if let Some(k) = kept.as_mut() {
            k.after_step(&rn, &mut out);
        }
        if let Err(e) = r {
            out.error = Some(e);
            break;
        }
    }
    if states {
        States::finish(&mut out);
    }
    out.sim = rn.finish(&mut out);
    out
}

/// Carry out step `s` on the run's cluster `rn`, recording it in `out` (a top-level step; a
/// `repeat` body's steps run `nested`, not described).
pub(in crate::model) fn exec(rn: &mut Runner, s: &Step, out: &mut Run, budget: &mut usize, nested: bool) -> Result<(), ParseError> {
    if *budget == 0 {
        return perr(step_line(s), "step budget exhausted (the scenario is too long)");
    }
    *budget -= 1;
    let start = rn.sim().trace.len();
    let line = step_line(s);
    let on_cluster_err = |message| ParseError { line, message };
    let mut ok = true;
    match s {
        Step::Advance { .. } => {
            exec_model(rn.sim_mut(), s, line)?;
            // The coordinators, once a request line started them, run their timeouts too (T1–T2, T4).
            if rn.cluster().is_some() {
                rn.on_cluster(|w| {
                    w.coordinator_timeouts();
                    Ok(())
                })
                .map_err(on_cluster_err)?;
            }
        }
        // The coordinator's tasks run on the cluster the request lines use (started now if no
        // line has started it: a coordinator with nothing to scan).
        Step::RunTask { task, .. } if super::idempotence::LeaderTask::named(task).is_none() => rn.on_cluster(|w| w.run_task(task)).map_err(on_cluster_err)?,
        Step::Repeat { times, steps, .. } => {
            let failures_before = out.failures.len();
            for _ in 0..*times {
                for st in steps {
                    exec(rn, st, out, budget, true)?;
                }
            }
            ok = out.failures.len() == failures_before;
        }
        Step::Request { label, from, request, .. } => {
            let from = from.as_deref().unwrap_or("client");
            let reply = rn.on_cluster(|w| w.request(request, from)).map_err(on_cluster_err)?;
            rn.keep_reply(label.as_slice(), reply);
        }
        Step::DeliverMarkers { partition, .. } => {
            if !rn.has_markers() {
                return perr(line, "no markers to deliver: no EndTxn has been answered with markers to write");
            }
            rn.on_cluster(|w| w.deliver_markers(partition.as_deref())).map_err(on_cluster_err)?;
        }
        Step::Expect { check, .. } => {
            if let Err((expected, got)) = check_expect(rn.sim(), rn.cluster(), check) {
                ok = false;
                out.failures.push(Failure { line, expected, got });
            }
        }
        _ => exec_model(rn.sim_mut(), s, line)?,
    }
    if !nested {
        // Only top-level steps are recorded: a `repeat` body's steps are not described.
        let sim = rn.sim();
        let producer_entries = sim.cluster.partitions.iter().map(|p| p.producer_count()).collect();
        out.steps.push(StepRun { line, text: describe(s), events: start..sim.trace.len(), ok, producer_entries, state: None });
    }
    Ok(())
}

/// A step of the idempotence model itself (its producers, network, leaders and clock), on
/// `sim`; the steps of the coordinators, `repeat` and `expect` are [`exec`]'s.
fn exec_model(sim: &mut Sim, s: &Step, line: usize) -> Result<(), ParseError> {
    let act = |sim: &mut Sim, a: Action| sim.apply(a).map_err(|m| ParseError { line, message: m });
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
        Step::Advance { ms, .. } => act(sim, Action::Advance { ms: *ms })?,
        Step::RunTask { task, .. } => {
            if let Some(task) = super::idempotence::LeaderTask::named(task) {
                act(sim, Action::RunTask { task })?;
            }
        }
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
        // [`exec`]'s own steps.
        Step::Repeat { .. } | Step::Request { .. } | Step::DeliverMarkers { .. } | Step::Expect { .. } => {}
    }
    Ok(())
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

#[cfg(test)]
mod tests {
    use super::super::parse;
    use super::*;

    /// The request lines and the script's own steps act on one cluster: a marker the
    /// coordinators write lands after the idempotent producer's batch and before its next one,
    /// and one producer-id counter serves InitProducerId and the producer's own ids.
    #[test]
    fn request_lines_and_the_script_share_partitions_and_producer_ids() {
        let sc = parse(
            "partition orders-0\nproducer app\n\
             init-producer-id transactional.id=pay as init\nexpect init pid 1001 epoch 0\n\
             add-partitions-to-txn transactional.id=pay pid=1001 epoch=0 orders-0 v=3 as add\n\
             produce orders-0 pid=1001 epoch=0 seq=0 txn a\n\
             send app orders-0 x\ndeliver request b1\ndeliver response b1\nexpect b1 acked 1..1\n\
             end-txn transactional.id=pay pid=1001 epoch=0 abort v=4 as abort\ndeliver markers\n\
             expect log orders-0 a x [ABORT]\n\
             send app orders-0 y\ndeliver request b2\ndeliver response b2\nexpect b2 acked 3..3\n\
             restart app\nsend app orders-0 z\ndeliver request b3\nexpect producer app pid 1002\n\
             init-producer-id transactional.id=other as other\nexpect other pid 1003 epoch 0\n",
        )
        .unwrap();
        let r = run(&sc);
        assert!(r.passed(), "{:?} {:?}", r.failures, r.error);
        assert_eq!(r.sim.cluster.partitions[0].log_end_offset, 5);
        assert_eq!(r.sim.next_producer_id(), 1004);
        // The coordinators started at the first request line and report with the run.
        assert!(r.cluster.as_ref().is_some_and(|c| c.replies.iter().any(|x| x.0 == "other")));
    }

    /// Until a line needs them the coordinators have not started: no cluster is reported, and
    /// their scans count from the line that starts them.
    #[test]
    fn the_coordinators_start_at_the_first_line_that_needs_them() {
        let sc = parse("time 1000\npartition p\nproducer app\nsend app p x\nadvance 5000\nexpect txn pay none\n").unwrap();
        let r = run(&sc);
        assert!(r.passed(), "{:?} {:?}", r.failures, r.error);
        assert!(r.cluster.is_none());
        let sc = parse("time 1000\npartition p\nadvance 5000\ninit-producer-id transactional.id=pay\n").unwrap();
        let w = &run(&sc).cluster.expect("started by the request line").world;
        assert_eq!((w.start_ms, w.abort_scans_done, w.expiry_scans_done), (1000, 6000, 6000));
    }
}
