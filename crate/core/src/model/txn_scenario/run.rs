//! The transactions script's runner: a [`TxnScenario`] set up as a [`World`] and run step by
//! step, with the state kept after each step.

use alloc::boxed::Box;
use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;

use super::coordinator::TxnState;
use super::expect::check;
use super::parse::step;
use super::partition::Isolation;
use super::text::describe;
use super::txn::{CallResult, ClusterConfig, Sabotage, World, TRANSACTIONAL_ID_EXPIRATION_INTERVAL_MS_DEFAULT, TRANSACTIONAL_ID_EXPIRATION_MS_DEFAULT};
use super::{ProducerStateSeed, TxnScenario, TxnStep};
use crate::model::script::{Failure, ParseError};

/// Give the partitions' leaders the scenario's `producer-state` entries, in line order: each
/// batch is written after what the partition already holds; a producer id seeded here is one
/// the coordinator gave out, so later InitProducerId answers are higher.
pub fn seed_producer_states(w: &mut World, seeds: &[ProducerStateSeed]) -> Result<(), ParseError> {
    seeds.iter().try_for_each(|s| seed_producer_state(w, s).map(|_| ()))
}

/// One `producer-state` line on `w`; the seeded batch's first offset.
pub(super) fn seed_producer_state(w: &mut World, s: &ProducerStateSeed) -> Result<i64, ParseError> {
    {
        let err = |m: String| ParseError { line: s.line, message: format!("producer-state {}: {m}", s.partition) };
        let Some(p) = w.idem.cluster.partitions.iter_mut().find(|p| p.name == s.partition) else {
            return Err(err(String::from("no such partition (declare it with `partition` or `partitions` first)")));
        };
        if p.producers.contains_key(&s.producer_id) {
            return Err(err(format!("producer {} already has a state on this partition", s.producer_id)));
        }
        let offset = s.offset.unwrap_or(p.log_end_offset);
        if offset < p.log_end_offset {
            return Err(err(format!("offset={offset}: the partition already holds offsets up to {} (an earlier producer-state line): the batch goes at {} or later", p.log_end_offset - 1, p.log_end_offset)));
        }
        p.seed_producer(s.producer_id, s.epoch, s.first_seq, s.last_seq, offset, w.idem.cluster.now_ms, s.txn_first).map_err(err)?;
        w.idem.cluster.next_producer_id = w.idem.cluster.next_producer_id.max(s.producer_id.saturating_add(1));
        Ok(offset)
    }
}

/// One step as run, with the state after it.
#[derive(Clone, Debug)]
pub struct TxnStepRun {
    pub line: usize,
    pub text: String,
    pub ok: bool,
    pub t: i64,
    pub narration: String,
    pub messages: Vec<super::txn::Message>,
    /// The state after the step: every step's with snapshots, else the last step's only. Boxed,
    /// like `reply`, so a step the run keeps in its list stays small (a long untraced run).
    pub snapshot: Option<Box<super::txn::state::StateSnapshot>>,
    pub invariants: Vec<(&'static str, bool, String)>,
    /// A request step's answer, as data.
    pub reply: Option<Box<super::txn::Reply>>,
}

#[derive(Clone, Debug)]
pub struct TxnRun {
    /// The scenario's header (title, about, cluster, declarations): its `steps` are left
    /// empty — the steps as run are [`TxnRun::steps`] — so a long script is not copied.
    pub scenario: TxnScenario,
    pub world: World,
    pub steps: Vec<TxnStepRun>,
    pub failures: Vec<Failure>,
    pub error: Option<ParseError>,
    /// The script's language: "transactions", or "idempotence" for [`run_idempotence`].
    pub model: &'static str,
    /// [`run_idempotence`]: the lines that script's language offers next (its step buttons),
    /// instead of the world's.
    pub next: Option<Vec<(String, String)>>,
    /// [`run_idempotence`]: the script's run as the ladder's per-batch view draws it (each step's
    /// events and changes, the client batches, each log's bytes; `sequence.steps[k]` is
    /// `steps[k]`, and a step that could not be carried out has none).
    pub sequence: Option<Box<crate::model::report::RunReport>>,
}

impl TxnRun {
    pub fn passed(&self) -> bool {
        self.failures.is_empty() && self.error.is_none()
    }
}

/// A world with only the scenario's partitions (to check its `producer-state` lines).
pub(super) fn setup_partitions(sc: &TxnScenario) -> World {
    let mut w = World::new(sc.start_ms, sc.first_producer_id, ClusterConfig::default());
    for p in &sc.partitions {
        w.add_partition(p);
    }
    w
}

/// The world a scenario starts from. Its `producer-state` lines were checked when it was
/// parsed; [`run`] reports a bad one given another way (a scenario built as JSON).
pub fn setup(sc: &TxnScenario, sabotage: Option<Sabotage>) -> World {
    let mut w = World::new(
        sc.start_ms,
        sc.first_producer_id,
        ClusterConfig { transaction_version: sc.transaction_version, two_phase_commit: sc.two_phase_commit_broker, rtt_ms: sc.rtt_ms, append_ms: sc.append_ms, brokers: sc.brokers.max(1), kafka: sc.kafka, verification_disabled: sc.verification_disabled,
            transactional_id_expiration_ms: sc.transactional_id_expiration_ms.unwrap_or(TRANSACTIONAL_ID_EXPIRATION_MS_DEFAULT),
            transactional_id_expiration_interval_ms: sc.transactional_id_expiration_interval_ms.unwrap_or(TRANSACTIONAL_ID_EXPIRATION_INTERVAL_MS_DEFAULT),
            abort_timed_out_interval_ms: sc.abort_timed_out_interval_ms.unwrap_or(super::txn::ABORT_TIMED_OUT_INTERVAL_MS_DEFAULT),
            replication_factor: sc.replication_factor.max(1),
            replica_lag_time_max_ms: sc.replica_lag_time_max_ms.unwrap_or(super::partition::REPLICA_LAG_TIME_MAX_MS_DEFAULT),
            unclean_leader_election: sc.unclean_leader_election,
            transaction_max_timeout_ms: sc.transaction_max_timeout_ms.and_then(|d| i32::try_from(d).ok()),
            producer_id_expiration_ms: sc.producer_id_expiration_ms.unwrap_or(super::partition::DEFAULT_PRODUCER_ID_EXPIRATION_MS),
            producer_id_expiration_check_interval_ms: sc.producer_id_expiration_check_interval_ms.unwrap_or(super::txn::PRODUCER_ID_EXPIRATION_CHECK_INTERVAL_MS_DEFAULT) },
    );
    w.sabotage = sabotage;
    for p in &sc.partitions {
        w.add_partition(p);
    }
    for p in &sc.producers {
        w.add_client(&p.name, &p.transactional_id, p.timeout_ms, p.two_phase_commit);
    }
    for s in &sc.seeds {
        w.seed_txn(&s.transactional_id, s.producer_id, s.epoch);
        if let Some(m) = w.coordinator.index(&s.transactional_id).map(|i| &mut w.coordinator.txns[i]) {
            m.state = match s.state.as_str() {
                "Empty" => TxnState::Empty,
                "Ongoing" => TxnState::Ongoing,
                "CompleteAbort" => TxnState::CompleteAbort,
                _ => TxnState::CompleteCommit,
            };
            for p in &s.partitions {
                m.partitions.insert(p.as_str().into());
                m.added_order.push(p.as_str().into());
            }
            if let Some(t) = s.timeout_ms {
                m.txn_timeout_ms = t;
            }
            if let Some(e) = s.last_epoch {
                m.last_producer_epoch = e;
            }
            if let Some(t) = s.last_update_ms {
                m.last_update_ms = sc.start_ms.saturating_add(t);
            }
            if m.state == TxnState::Ongoing {
                m.txn_start_ms = s.txn_start_ms.map_or(m.last_update_ms, |t| sc.start_ms.saturating_add(t));
            }
        }
        if let Some(e) = s.coordinator_epoch {
            w.coordinator_epoch = e;
        }
    }
    let _ = seed_producer_states(&mut w, &sc.producer_states);
    // After the seeds: the ids they name are taken.
    for d in &sc.idempotent_producers {
        w.add_idempotent_producer(&d.name, super::hosted::config(&d.settings).unwrap_or_default());
    }
    for g in &sc.groups {
        w.seed_group(g);
    }
    for c in &sc.consumers {
        w.add_consumer(&c.name, if c.read_committed { Isolation::ReadCommitted } else { Isolation::ReadUncommitted }, c.group.as_deref(), c.partitions.clone());
    }
    w
}

/// Per-run memory of things expects look at.
#[derive(Default)]
pub(super) struct Memory {
    pub(super) thrown: Vec<(String, String)>,
    pub(super) offset_fetch: Vec<(String, String, String)>,
    /// Answers to the script's requests: (label, answer); the latest is also `last`.
    pub(super) replies: Vec<(String, super::txn::Reply)>,
}

/// Run a transactions scenario. `snapshots`: keep the state after every step (views) or
/// only after the last (benchmarks of long runs).
pub fn run(sc: &TxnScenario, sabotage: Option<Sabotage>, snapshots: bool) -> TxnRun {
    run_with(sc, sabotage, snapshots, true)
}

/// [`run`] with tracing chosen: `trace: false` builds no messages or narration (the same
/// decisions, states and invariants; for long runs and benchmarks).
pub fn run_with(sc: &TxnScenario, sabotage: Option<Sabotage>, snapshots: bool, trace: bool) -> TxnRun {
    let mut w = setup(sc, sabotage);
    w.trace = trace;
    let mut out = TxnRun { scenario: header(sc), world: World::new(0, 0, ClusterConfig::default()), steps: Vec::new(), failures: Vec::new(), error: None, model: "transactions", next: None, sequence: None };
    if let Err(e) = seed_producer_states(&mut setup_partitions(sc), &sc.producer_states) {
        out.error = Some(e);
        out.world = w;
        return out;
    }
    let mut mem = Memory::default();
    let mut budget = 1_000_000usize;
    let mut flat = Vec::new();
    flatten(&sc.steps, &mut budget, &mut flat);
    let n = flat.len();
    out.steps.reserve_exact(n.min(1 << 16));
    // Most steps write a record or more: room for one a step, so a long run's record list is
    // not copied each time it doubles.
    w.records.reserve(n.min(1 << 16));
    let snapshot = |w: &World, _| super::txn::state::snapshot(w);
    drive(&mut w, &mut out, n, snapshots, snapshot, |w, k, _| {
        let s = flat[k];
        let line = line_of(s);
        let mut ran = Ran { line, text: if w.trace || matches!(s, TxnStep::Expect { .. }) { describe(s) } else { String::new() }, failures: Vec::new(), error: None, reply: None, cluster: None };
        match exec(w, s, &mut mem) {
            Ok(Some(fail)) => ran.failures.push(Failure { line, expected: fail.0, got: fail.1 }),
            Ok(None) => {}
            Err(e) => ran.error = Some(ParseError { line, message: e }),
        }
        if matches!(s, TxnStep::Request { .. }) {
            ran.reply = mem.replies.last().map(|x| Box::new(x.1.clone()));
        }
        ran
    });
    out.world = w;
    out
}

/// An idempotence script run for the views (one report shape, from which
/// `<kafka-timeline>` and `<kafka-ladder>` both draw): the script's own runner runs every step on
/// its own model — the same decisions, clock, expiry and checks as `eoslab run` on it — while a
/// world hosts that model and its cluster (the world's partitions, clock and producer-id
/// counter are the model's), recording what each step did as the
/// timeline's messages, narration, records and state ([`World::mirror_hosted`]). The run also
/// keeps what the ladder's per-batch view draws ([`TxnRun::sequence`]: each step's events and
/// changes, the client batches, the logs' bytes), so both views read this one run.
pub fn run_idempotence(sc: &crate::model::scenario::Scenario) -> TxnRun {
    run_idempotence_with(sc, true, true)
}

/// [`run_idempotence`]; `snapshots`: keep the world's state after every step (the timeline's
/// panels), else after the last step only (the ladder folds the per-batch changes instead);
/// `trace: false`: the world builds no messages or narration (the timeline's lanes; the ladder's
/// per-batch view reads the model's own events).
pub fn run_idempotence_with(sc: &crate::model::scenario::Scenario, snapshots: bool, trace: bool) -> TxnRun {
    run_idempotence_opts(sc, snapshots, trace, true)
}

/// [`run_idempotence_with`]; `sequence: false` leaves out the ladder's per-batch view
/// ([`TxnRun::sequence`]), which the timeline does not draw: the model's per-step states are
/// not recorded and no [`crate::model::report::RunReport`] is built.
pub fn run_idempotence_opts(sc: &crate::model::scenario::Scenario, snapshots: bool, trace: bool, sequence: bool) -> TxnRun {
    use crate::model::scenario;
    let sim = scenario::setup(sc);
    let cluster = ClusterConfig { kafka: sc.kafka, transaction_version: sc.transaction_version.unwrap_or(2), ..Default::default() };
    let mut w = World::new(sc.start_ms, sim.next_producer_id(), cluster);
    w.trace = trace;
    // The world runs the script's model, with the cluster the script set up: its partitions,
    // clock and producer-id counter are the world's.
    w.idem = sim;
    w.record_log_entries();
    let header = TxnScenario {
        title: sc.title.clone(),
        about: sc.about.clone(),
        start_ms: sc.start_ms,
        first_producer_id: sc.first_producer_id,
        transaction_version: w.cluster.transaction_version,
        kafka: sc.kafka,
        partitions: sc.partitions.clone(),
        idempotent_producers: sc.producers.clone(),
        ..Default::default()
    };
    let mut run = scenario::Run { scenario: sc.clone(), sim: crate::model::idempotence::Sim::new(0, 0), steps: Vec::new(), failures: Vec::new(), error: None, initial: None, cluster: None };
    let mut out = TxnRun { scenario: header, world: World::new(0, 0, ClusterConfig::default()), steps: Vec::new(), failures: Vec::new(), error: None, model: "idempotence", next: None, sequence: None };
    let mut states = sequence.then(|| w.mirror_hosted(|sim| scenario::States::start(sim, &mut run)));
    // The script's run: the model this world hosts is lent to it for each step, so the run's
    // coordinators answer on the world's one cluster.
    let mut rn = scenario::Runner::new(sc, crate::model::idempotence::Sim::new(0, 0));
    let mut budget = 2_000_000usize;
    // The coordinators of the script's request lines (the run's): their state beside the
    // leaders'. (The world's own counters stay at zero: its coordinator answers nothing here.)
    // Each step hands theirs over in `Ran::cluster`, for the snapshot after it.
    let snapshot = |w: &World, cluster: Option<super::txn::state::StateSnapshot>| {
        let mut snapshot = super::txn::state::snapshot(w);
        match cluster {
            Some(c) => {
                snapshot.coordinator = c.coordinator;
                snapshot.metrics = c.metrics;
            }
            None => snapshot.metrics = Default::default(),
        }
        snapshot
    };
    drive(&mut w, &mut out, sc.steps.len(), snapshots, snapshot, |w, k, keep| {
        let s = &sc.steps[k];
        let failures = run.failures.len();
        let r = w.mirror_hosted(|sim| {
            rn.lent(sim, |rn| {
                let r = scenario::exec(rn, s, &mut run, &mut budget, false);
                if let Some(states) = states.as_mut() {
                    states.after_step(rn, &mut run);
                }
                r
            })
        });
        // Only for a step whose snapshot is kept (`drive`'s rule: every step, the last, one that
        // failed).
        let cluster = if keep || r.is_err() { rn.cluster().map(|c| super::txn::state::snapshot(&c.world)) } else { None };
        for m in &w.messages {
            for lane in [&m.from, &m.to] {
                if let Some(name) = lane.strip_prefix("producer:").filter(|n| !w.is_idempotent_producer(n) && !w.request_senders.iter().any(|s| s == n)) {
                    w.request_senders.push(String::from(name));
                }
            }
        }
        let line = scenario::step_line(s);
        Ran {
            line,
            text: run.steps.last().filter(|st| st.line == line).map_or_else(|| crate::model::scenario::describe(s), |st| st.text.clone()),
            failures: run.failures[failures..].to_vec(),
            error: r.err(),
            reply: None,
            cluster,
        }
    });
    if out.error.is_none() && sequence {
        scenario::States::finish(&mut run);
    }
    // The model stays the world's: the run hands back only the placeholder it was lent over.
    rn.finish(&mut run);
    // The ladder's per-batch view of the run: the events of each step, what it changed, the
    // client batches and the logs' bytes, read off the model the world ran.
    out.next = Some(scenario::run_next_lines(&w.idem, run.cluster.as_deref()));
    out.sequence = sequence.then(|| Box::new(crate::model::report::run_report_of(&run, &w.idem)));
    out.world = w;
    out
}

/// What one step did, for [`drive`] to record.
struct Ran {
    line: usize,
    text: String,
    /// Its `expect`s that failed (a `repeat` body may hold several).
    failures: Vec<Failure>,
    /// It could not be carried out: the run stops here.
    error: Option<ParseError>,
    reply: Option<Box<super::txn::Reply>>,
    /// The state of the request lines' coordinators after it (an idempotence script's), for the
    /// snapshot after it, if that is kept.
    cluster: Option<super::txn::state::StateSnapshot>,
}

/// The world's runner loop, for a script of either language (one runner): `step(w, k)`
/// carries out the k-th of `n` steps, and the loop records each step as the views draw it — its
/// line, its messages and narration, the time, the state after it and the invariants checked on
/// it (after every step with `snapshots`, else after the last), its answer — stopping at a step
/// that cannot be carried out.
fn drive(w: &mut World, out: &mut TxnRun, n: usize, snapshots: bool, snapshot: impl Fn(&World, Option<super::txn::state::StateSnapshot>) -> super::txn::state::StateSnapshot, mut step: impl FnMut(&mut World, usize, bool) -> Ran) {
    for k in 0..n {
        w.step = out.steps.len();
        w.messages.clear();
        w.narration.clear();
        // The step is told whether its snapshot will be kept (as well as when it fails).
        let ran = step(w, k, snapshots || k + 1 == n);
        let keep = snapshots || k + 1 == n || ran.error.is_some();
        out.steps.push(TxnStepRun {
            line: ran.line,
            text: ran.text,
            ok: ran.failures.is_empty() && ran.error.is_none(),
            t: w.idem.cluster.now_ms - w.start_ms,
            narration: if w.narration.is_empty() { String::new() } else { w.narration.join(" ") },
            messages: core::mem::take(&mut w.messages),
            snapshot: keep.then(|| Box::new(snapshot(w, ran.cluster))),
            invariants: if keep { w.invariants() } else { Vec::new() },
            reply: ran.reply,
        });
        out.failures.extend(ran.failures);
        if let Some(e) = ran.error {
            out.error = Some(e);
            break;
        }
    }
}

/// `sc` without its steps (what a run keeps of its scenario).
fn header(sc: &TxnScenario) -> TxnScenario {
    TxnScenario {
        model: sc.model.clone(),
        title: sc.title.clone(),
        about: sc.about.clone(),
        start_ms: sc.start_ms,
        first_producer_id: sc.first_producer_id,
        transaction_version: sc.transaction_version,
        two_phase_commit_broker: sc.two_phase_commit_broker,
        kafka: sc.kafka,
        verification_disabled: sc.verification_disabled,
        transactional_id_expiration_ms: sc.transactional_id_expiration_ms,
        transactional_id_expiration_interval_ms: sc.transactional_id_expiration_interval_ms,
        abort_timed_out_interval_ms: sc.abort_timed_out_interval_ms,
        rtt_ms: sc.rtt_ms,
        append_ms: sc.append_ms,
        brokers: sc.brokers,
        replication_factor: sc.replication_factor,
        replica_lag_time_max_ms: sc.replica_lag_time_max_ms,
        unclean_leader_election: sc.unclean_leader_election,
        transaction_max_timeout_ms: sc.transaction_max_timeout_ms,
        producer_id_expiration_ms: sc.producer_id_expiration_ms,
        producer_id_expiration_check_interval_ms: sc.producer_id_expiration_check_interval_ms,
        partitions: sc.partitions.clone(),
        producers: sc.producers.clone(),
        idempotent_producers: sc.idempotent_producers.clone(),
        consumers: sc.consumers.clone(),
        seeds: sc.seeds.clone(),
        producer_states: sc.producer_states.clone(),
        groups: sc.groups.clone(),
        steps: Vec::new(),
    }
}

/// Apply one step line (as `nextSteps` offers them) to a world: the driver of randomized
/// schedules and of exploration. An `expect` line is rejected here.
pub fn apply_line(w: &mut World, line: &str) -> Result<(), String> {
    let hosted = super::parse::Hosted::of_world(w);
    let st = step(0, line.trim(), &hosted).map_err(|e| e.message)?;
    if matches!(st, TxnStep::Expect { .. } | TxnStep::Repeat { .. }) {
        return Err(String::from("apply_line takes actions, not expect/repeat"));
    }
    w.messages.clear();
    w.narration.clear();
    exec(w, &st, &mut Memory::default()).map(|_| ())
}

fn flatten<'a>(steps: &'a [TxnStep], budget: &mut usize, out: &mut Vec<&'a TxnStep>) {
    for s in steps {
        match s {
            TxnStep::Repeat { times, steps, .. } => {
                for _ in 0..*times {
                    if *budget == 0 {
                        return;
                    }
                    flatten(steps, budget, out);
                }
            }
            _ => {
                if *budget == 0 {
                    return;
                }
                *budget -= 1;
                out.push(s);
            }
        }
    }
}

fn line_of(s: &TxnStep) -> usize {
    match s {
        TxnStep::Init { line, .. }
        | TxnStep::Begin { line, .. }
        | TxnStep::Send { line, .. }
        | TxnStep::SendAll { line, .. }
        | TxnStep::SendOffsets { line, .. }
        | TxnStep::Commit { line, .. }
        | TxnStep::Abort { line, .. }
        | TxnStep::DeliverMarkers { line, .. }
        | TxnStep::DelayMarker { line, .. }
        | TxnStep::Crash { line, .. }
        | TxnStep::Advance { line, .. }
        | TxnStep::Failover { line }
        | TxnStep::RunTask { line, .. }
        | TxnStep::Poll { line, .. }
        | TxnStep::Rebalance { line, .. }
        | TxnStep::Seek { line, .. }
        | TxnStep::OffsetFetch { line, .. }
        | TxnStep::Effect { line, .. }
        | TxnStep::Feature { line, .. }
        | TxnStep::Flush { line }
        | TxnStep::Repeat { line, .. }
        | TxnStep::Expect { line, .. }
        | TxnStep::Lag { line, .. }
        | TxnStep::CatchUp { line, .. }
        | TxnStep::LeaderFails { line, .. }
        | TxnStep::Inject { line, .. }
        | TxnStep::Release { line, .. }
        | TxnStep::Idempotent { line, .. }
        | TxnStep::Request { line, .. } => *line,
    }
}

fn note_thrown(mem: &mut Memory, p: &str, r: CallResult) {
    if let CallResult::Thrown(t) = r {
        mem.thrown.push((p.to_string(), t));
    }
}

fn exec(w: &mut World, s: &TxnStep, mem: &mut Memory) -> Result<Option<(String, String)>, String> {
    match s {
        TxnStep::Init { producer, .. } => {
            let r = w.init(producer)?;
            note_thrown(mem, producer, r);
        }
        TxnStep::Begin { producer, .. } => {
            let r = w.begin(producer)?;
            note_thrown(mem, producer, r);
        }
        TxnStep::Send { producer, partition, values, .. } => {
            let r = w.send(producer, partition, values)?;
            note_thrown(mem, producer, r);
        }
        TxnStep::SendAll { producer, count, value, .. } => {
            if *count > w.idem.cluster.partitions.len() {
                return Err(format!("send-all {count}: only {} partitions are declared", w.idem.cluster.partitions.len()));
            }
            for k in 0..*count {
                let p = w.idem.cluster.partitions[k].name.clone();
                let r = w.send(producer, &p, core::slice::from_ref(value))?;
                note_thrown(mem, producer, r);
            }
        }
        TxnStep::SendOffsets { producer, consumer, .. } => {
            let r = w.send_offsets(producer, consumer)?;
            note_thrown(mem, producer, r);
        }
        TxnStep::Commit { producer, lose_response, .. } => {
            let r = w.end(producer, true, *lose_response)?;
            note_thrown(mem, producer, r);
        }
        TxnStep::Abort { producer, lose_response, .. } => {
            let r = w.end(producer, false, *lose_response)?;
            note_thrown(mem, producer, r);
        }
        TxnStep::DeliverMarkers { partition, .. } => {
            w.deliver_markers(partition.as_deref())?;
        }
        TxnStep::DelayMarker { partition, .. } => w.delay_marker(partition)?,
        TxnStep::Crash { producer, .. } => w.crash(producer)?,
        TxnStep::Advance { ms, .. } => w.advance(*ms),
        TxnStep::Failover { .. } => w.failover(),
        TxnStep::Poll { consumer, .. } => {
            w.poll(consumer)?;
        }
        TxnStep::Rebalance { group, .. } => w.rebalance(group)?,
        TxnStep::Seek { consumer, .. } => w.seek_committed(consumer)?,
        TxnStep::OffsetFetch { consumer, .. } => {
            for (p, r) in w.offset_fetch(consumer)? {
                let v = match r {
                    Err(e) => e.name().to_string(),
                    Ok(None) => String::from("none"),
                    Ok(Some(o)) => o.to_string(),
                };
                mem.offset_fetch.retain(|x| !(x.0 == *consumer && x.1 == p));
                mem.offset_fetch.push((consumer.clone(), p, v));
            }
        }
        TxnStep::Effect { producer, name, key, .. } => w.effect(producer, name, key.as_deref()),
        TxnStep::Feature { level, .. } => w.set_feature(*level),
        TxnStep::RunTask { task, .. } => w.run_task(task)?,
        TxnStep::Flush { .. } => {
            for m in w.markers.iter_mut() {
                m.held = false;
            }
            let mut guard = 0;
            while !w.markers.is_empty() && guard < 100 {
                w.deliver_markers(None)?;
                guard += 1;
            }
            super::hosted::flush(w)?;
        }
        TxnStep::Idempotent { step, .. } => {
            if let Some(fail) = super::hosted::step(w, step)? {
                return Ok(Some(fail));
            }
        }
        TxnStep::Repeat { .. } => {}
        TxnStep::Request { label, from, request, .. } => {
            let r = w.request(request, from.as_deref().unwrap_or("client"))?;
            if let Some(l) = label {
                mem.replies.retain(|x| x.0 != *l);
                mem.replies.push((l.clone(), r.clone()));
            }
            // The idempotence scripts' words for the latest answers: `expect last …` (any request)
            // and `expect read …` (the latest Fetch or ListOffsets).
            if matches!(request, super::txn::Request::Fetch { .. } | super::txn::Request::ListOffsets { .. }) {
                mem.replies.retain(|x| x.0 != "read");
                mem.replies.push((String::from("read"), r.clone()));
            }
            mem.replies.retain(|x| x.0 != "last");
            mem.replies.push((String::from("last"), r));
        }
        TxnStep::Expect { words, .. } => return Ok(check(w, words, mem)),
        TxnStep::Lag { partition, broker, .. } => w.lag(partition, *broker)?,
        TxnStep::CatchUp { partition, broker, .. } => w.catch_up(partition, *broker)?,
        TxnStep::LeaderFails { partition, .. } => w.leader_fails(partition)?,
        TxnStep::Inject { producer, api, what, .. } => {
            let (_, api, how) = super::txn::inject::parse(&["inject", producer, api, what])?;
            w.inject(producer, api, how)?
        }
        // The call that waited for the held request gets its answer now, and throws from there.
        TxnStep::Release { producer, api, .. } => {
            let r = w.release(producer, api)?;
            note_thrown(mem, producer, r);
        }
    }
    // Held acks=-1 answers that went out in this step replace what their labels held.
    for (id, r) in core::mem::take(&mut w.released) {
        for x in mem.replies.iter_mut().filter(|x| x.1.held_id == Some(id)) {
            x.1 = r.clone();
        }
    }
    Ok(None)
}
