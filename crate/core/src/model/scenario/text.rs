//! The idempotence scripts as text: a step as its line, the lines that can come next, and a
//! run as a ladder.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use super::expect::describe_expect;
use super::idempotence::{Action, EventKind, MessageKind, Sim};
use super::run::Run;
use super::{Direction, Step};
use crate::model::script;

/// The step as script text (the text twin of the JSON form).
pub fn describe(s: &Step) -> String {
    let dir = |d: &Direction| if *d == Direction::Request { "request" } else { "response" };
    match s {
        Step::Send { producer, partition, values, .. } => format!("send {producer} {partition} {}", values.join(" ")),
        Step::Deliver { what, batch, attempt, .. } => format!("deliver {} {}", dir(what), msg_name(*batch, *attempt)),
        Step::Lose { what, batch, attempt, .. } => format!("lose {} {}", dir(what), msg_name(*batch, *attempt)),
        Step::Delay { batch, .. } => format!("delay request b{batch}"),
        Step::Refuse { batch, error, .. } => format!("refuse request b{batch} {error}"),
        Step::Timeout { producer, .. } => format!("timeout {producer}"),
        Step::Restart { producer, .. } => format!("restart {producer}"),
        Step::Advance { ms, .. } => format!("advance {ms}ms"),
        Step::RunTask { task, .. } => format!("run-task {task}"),
        Step::LeaderChange { partition, .. } => format!("leader-change {partition}"),
        Step::Lag { partition, broker, .. } => format!("lag {partition}{}", broker.map_or(String::new(), |b| format!(" broker={b}"))),
        Step::CatchUp { partition, broker, .. } => format!("catch-up {partition}{}", broker.map_or(String::new(), |b| format!(" broker={b}"))),
        Step::LeaderFails { partition, .. } => format!("leader-fails {partition}"),
        Step::Fetch { partition, read_committed, from, .. } => format!("fetch {partition} {} from={from}", if *read_committed { "read_committed" } else { "read_uncommitted" }),
        Step::ListOffsets { partition, read_committed, .. } => format!("list-offsets {partition} {}", if *read_committed { "read_committed" } else { "read_uncommitted" }),
        Step::Flush { .. } => String::from("flush"),
        Step::Repeat { times, steps, .. } => script::repeat_text(*times, steps.iter().map(describe)),
        Step::Expect { check, .. } => format!("expect {}", describe_expect(check)),
        Step::Produce { partition, producer_id, epoch, base_sequence, transactional, values, .. } => {
            format!("produce {partition} pid={producer_id} epoch={epoch} seq={base_sequence}{} {}", if *transactional { " txn" } else { "" }, values.join(" "))
        }
        Step::ProduceBytes { partition, batch, .. } => format!("produce {partition} batch={batch}"),
        Step::Request { label, from, request, .. } => {
            let mut t = request.line();
            if let Some(f) = from {
                t.push_str(&format!(" from={f}"));
            }
            if let Some(l) = label {
                t.push_str(&format!(" as {l}"));
            }
            t
        }
        Step::DeliverMarkers { partition: None, .. } => String::from("deliver markers"),
        Step::DeliverMarkers { partition: Some(p), .. } => format!("deliver marker {p}"),
        Step::Marker { partition, producer_id, epoch, commit, coordinator_epoch, tv2, .. } => format!(
            "marker {partition} pid={producer_id} epoch={epoch} {} coordinator-epoch={coordinator_epoch} tv={}",
            if *commit { "commit" } else { "abort" },
            if *tv2 { 2 } else { 1 }
        ),
    }
}

fn msg_name(batch: usize, attempt: Option<u32>) -> String {
    match attempt {
        Some(a) => format!("b{batch}#{a}"),
        None => format!("b{batch}"),
    }
}

/// What can happen next, as script lines a view can append (its step buttons): each is
/// (label, line). Running the script with the line appended performs that action.
pub fn next_lines(sim: &Sim) -> Vec<(String, String)> {
    let names: Vec<&str> = sim.cluster.partitions.iter().map(|p| p.name.as_str()).collect();
    let mut out = lines_of(sim, sim.enabled_actions(), &names);
    if !sim.deliverable().is_empty() {
        out.push((String::from("deliver everything"), String::from("flush")));
    }
    out
}

/// The clients' lines only ([`Sim::client_actions`]: their sends to the partitions named, and
/// what their network can deliver, lose, hold up or refuse), for a world hosting this model.
pub fn client_next_lines(sim: &Sim, partitions: &[&str]) -> Vec<(String, String)> {
    lines_of(sim, sim.client_actions(partitions.len()), partitions)
}

/// `actions` as (label, line), partitions named by `names`.
fn lines_of(sim: &Sim, actions: Vec<Action>, names: &[&str]) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let msg = |id: usize| -> Option<(String, &'static str, u32, usize)> {
        let m = sim.message(id)?;
        let resp = matches!(m.kind, MessageKind::Response(_));
        let latest = sim.latest_message(m.batch, resp).map(|l| l.id) == Some(id);
        let name = msg_name(m.batch, if latest { None } else { Some(m.attempt) });
        Some((name, if resp { "response" } else { "request" }, m.attempt, m.batch))
    };
    for a in actions {
        let item = match a {
            Action::Deliver { message } => msg(message).map(|(n, d, at, b)| {
                (format!("deliver b{b} {d} (attempt {at})"), format!("deliver {d} {n}"))
            }),
            Action::Lose { message } => msg(message).map(|(n, d, at, b)| (format!("lose b{b} {d} (attempt {at})"), format!("lose {d} {n}"))),
            Action::Delay { message } => msg(message).and_then(|(n, _, at, b)| {
                (!n.contains('#')).then(|| (format!("hold up b{b} request (attempt {at})"), format!("delay request b{b}")))
            }),
            Action::Refuse { message, code } => msg(message).and_then(|(n, _, at, b)| {
                (!n.contains('#')).then(|| (format!("refuse b{b} request (attempt {at}) with {}", code.name()), format!("refuse request b{b} {}", code.name())))
            }),
            Action::Timeout { producer } => {
                let p = &sim.producers[producer].name;
                Some((format!("{p}: request times out"), format!("timeout {p}")))
            }
            Action::Send { producer, partition, values } => {
                let p = &sim.producers[producer].name;
                let q = names[partition];
                Some((format!("{p} sends to {q}"), format!("send {p} {q} {}", values.join(" "))))
            }
            Action::Restart { producer } => {
                let p = &sim.producers[producer].name;
                Some((format!("restart {p} (new producer id)"), format!("restart {p}")))
            }
            Action::Advance { ms } => Some((String::from("a day passes"), format!("advance {ms}ms"))),
            Action::RunTask { task } => Some((format!("run {} now", task.name()), format!("run-task {}", task.name()))),
            Action::LeaderChange { partition } => {
                let q = names[partition];
                Some((format!("leader of {q} changes"), format!("leader-change {q}")))
            }
            Action::Lag { partition, broker } => {
                let q = names[partition];
                let b = broker.map_or(String::new(), |b| format!(" broker={b}"));
                Some((format!("{q}: follower{b} stops fetching"), format!("lag {q}{b}")))
            }
            Action::CatchUp { partition, broker } => {
                let q = names[partition];
                let b = broker.map_or(String::new(), |b| format!(" broker={b}"));
                Some((format!("{q}: follower{b} catches up"), format!("catch-up {q}{b}")))
            }
            Action::LeaderFails { partition } => {
                let q = names[partition];
                Some((format!("{q}: the leader's broker fails"), format!("leader-fails {q}")))
            }
            // Requests with chosen fields are written, not offered.
            Action::Produce { .. } | Action::ProduceBytes { .. } | Action::Marker { .. } | Action::Read { .. } => None,
        };
        if let Some(i) = item {
            out.push(i);
        }
    }
    out
}

/// The run as a text ladder: one line per event, grouped under the script step that
/// caused it, with the leader's decisions and their rules. Used by the CLI and snapshots.
pub fn ladder(run: &Run) -> String {
    let sim = &run.sim;
    let mut s = String::new();
    if !run.scenario.title.is_empty() {
        s.push_str(&format!("# {}\n", run.scenario.title));
    }
    let t0 = run.scenario.start_ms;
    for st in &run.steps {
        let mark = if st.ok { "" } else { "   ✗ FAILED" };
        s.push_str(&format!("{:>4}  {}{mark}\n", st.line, st.text));
        let events = &sim.trace[st.events.clone()];
        // Long stretches (a `repeat`) show their first and last events.
        let (head, tail) = if events.len() > 40 { (16, 8) } else { (events.len(), 0) };
        let shown = events[..head].iter().chain(events[events.len() - tail..].iter());
        for (i, ev) in shown.enumerate() {
            if i == head && tail > 0 {
                s.push_str(&format!("      … {} more events …\n", events.len() - head - tail));
            }
            let arrow = match &ev.kind {
                EventKind::Send { .. } => "app",
                EventKind::Request { .. } => "──▶",
                EventKind::Decision(_) => "███",
                EventKind::Response | EventKind::Ack { .. } => "◀──",
                EventKind::Retry { .. } | EventKind::EpochBump(_) => "↻",
                EventKind::Fail { .. } => "✗",
                EventKind::Lost { .. } => "~~✗",
                EventKind::Delayed => "~~~",
                EventKind::Timeout { .. } => "⏱",
                EventKind::Restart { .. } => "⟲",
                EventKind::Time { .. } | EventKind::Expired { .. } | EventKind::Task(_) => "⌛",
                EventKind::LeaderChange { .. } => "⇄",
                EventKind::RawProduce { .. } | EventKind::RawMarker { .. } => "──▶",
                EventKind::MarkerDecision(_) => "███",
                EventKind::Replication(_) => "⧗",
                EventKind::Read(_) => "◀▶",
                EventKind::Cluster(_) => "◆",
            };
            s.push_str(&format!("      +{}ms {arrow} {}\n", ev.time_ms - t0, ev.text(sim)));
        }
    }
    script::push_failures(&mut s, &run.failures);
    if let Some(e) = &run.error {
        s.push_str(&format!("STOPPED {e}\n"));
    }
    for (i, p) in sim.cluster.partitions.iter().enumerate() {
        let vals = sim.log_values(i);
        s.push_str(&format!("log {} (end offset {}): {}\n", p.name, p.log_end_offset, vals.join(" ")));
        for (pid, e) in &p.producers {
            let window: Vec<String> = e.batches.iter().map(|b| format!("{}..{}@{}", b.first_seq(), b.last_seq, b.first_offset())).collect();
            s.push_str(&format!("  producer {pid} epoch {}: last 5 batches [{}]\n", e.producer_epoch, window.join(", ")));
        }
    }
    s
}
