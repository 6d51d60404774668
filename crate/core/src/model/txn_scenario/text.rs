//! The transactions scripts as text: a step as its line, the lines that can come next, and a
//! run as a timeline.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use super::partition::Isolation;
use super::run::TxnRun;
use super::txn::World;
use super::TxnStep;
use crate::model::script;

/// The step as a script line.
pub fn describe(s: &TxnStep) -> String {
    match s {
        TxnStep::Init { producer, .. } => format!("init {producer}"),
        TxnStep::Begin { producer, .. } => format!("begin {producer}"),
        TxnStep::Send { producer, partition, values, .. } => format!("send {producer} {partition} {}", values.join(" ")),
        TxnStep::SendAll { producer, count, value, .. } => format!("send-all {producer} {count} {value}"),
        TxnStep::SendOffsets { producer, consumer, .. } => format!("send-offsets {producer} {consumer}"),
        TxnStep::Commit { producer, lose_response, .. } => format!("commit {producer}{}", if *lose_response { " lose-response" } else { "" }),
        TxnStep::Abort { producer, lose_response, .. } => format!("abort {producer}{}", if *lose_response { " lose-response" } else { "" }),
        TxnStep::DeliverMarkers { partition: None, .. } => String::from("deliver markers"),
        TxnStep::DeliverMarkers { partition: Some(p), .. } => format!("deliver marker {p}"),
        TxnStep::DelayMarker { partition, .. } => format!("delay marker {partition}"),
        TxnStep::Crash { producer, .. } => format!("crash {producer}"),
        TxnStep::Advance { ms, .. } => format!("advance {ms}ms"),
        TxnStep::Failover { .. } => String::from("failover coordinator"),
        TxnStep::RunTask { task, .. } => format!("run-task {task}"),
        TxnStep::Poll { consumer, .. } => format!("poll {consumer}"),
        TxnStep::Rebalance { group, .. } => format!("rebalance {group}"),
        TxnStep::Seek { consumer, .. } => format!("seek {consumer} committed"),
        TxnStep::OffsetFetch { consumer, .. } => format!("offset-fetch {consumer}"),
        TxnStep::Effect { producer, name, key, .. } => format!("effect {producer} {name}{}", key.as_ref().map_or(String::new(), |k| format!(" key={k}"))),
        TxnStep::Feature { level, .. } => format!("feature transaction.version={level}"),
        TxnStep::Request { request, label, from, .. } => {
            let mut s = request.line();
            if let Some(f) = from {
                s.push_str(&format!(" from={f}"));
            }
            if let Some(l) = label {
                s.push_str(&format!(" as {l}"));
            }
            s
        }
        TxnStep::Flush { .. } => String::from("flush"),
        TxnStep::Lag { partition, broker, .. } => format!("lag {partition}{}", broker.map_or(String::new(), |b| format!(" broker={b}"))),
        TxnStep::CatchUp { partition, broker, .. } => format!("catch-up {partition}{}", broker.map_or(String::new(), |b| format!(" broker={b}"))),
        TxnStep::LeaderFails { partition, .. } => format!("leader-fails {partition}"),
        TxnStep::Inject { producer, api, what, .. } => format!("inject {producer} {api} {what}"),
        TxnStep::Release { producer, api, .. } => format!("release {producer} {api}"),
        TxnStep::Repeat { times, steps, .. } => script::repeat_text(*times, steps.iter().map(describe)),
        TxnStep::Expect { words, .. } => format!("expect {}", words.join(" ")),
        TxnStep::Idempotent { step, .. } => super::super::scenario::describe(step),
    }
}

/// Actions enabled in the world's current state, as script lines (the step buttons).
pub fn next_lines(w: &World) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = Vec::new();
    let mut push = |label: String, line: String| push_new(&mut out, label, line);
    for (label, line) in super::hosted::next_lines(w) {
        push(label, line);
    }
    for (i, c) in w.clients.iter().enumerate() {
        if c.crashed {
            continue;
        }
        let n = &c.name;
        use super::txn::ClientState as S;
        match c.state {
            S::Uninitialized => push(format!("{n}: initTransactions()"), format!("init {n}")),
            S::Initializing if c.pending.is_some() => {}
            S::Ready => push(format!("{n}: beginTransaction()"), format!("begin {n}")),
            S::InTransaction => {
                if let Some(p) = w.idem.cluster.partitions.first() {
                    push(format!("{n}: send to {}", p.name), format!("send {n} {} v{}", p.name, w.records.len() + 1));
                }
                if let Some(p) = w.idem.cluster.partitions.get(1) {
                    push(format!("{n}: send to {}", p.name), format!("send {n} {} v{}", p.name, w.records.len() + 1));
                }
                for con in w.consumers.iter().filter(|x| x.group.is_some()) {
                    push(format!("{n}: sendOffsetsToTransaction({})", con.name), format!("send-offsets {n} {}", con.name));
                }
                push(format!("{n}: commitTransaction()"), format!("commit {n}"));
                push(format!("{n}: commit, response lost"), format!("commit {n} lose-response"));
                push(format!("{n}: abortTransaction()"), format!("abort {n}"));
            }
            S::CommittingTransaction | S::AbortingTransaction if c.outcome_unknown => {
                let op = if c.state == S::CommittingTransaction { "commit" } else { "abort" };
                push(format!("{n}: retry {op} (same call)"), format!("{op} {n}"));
            }
            S::AbortableError => push(format!("{n}: abortTransaction()"), format!("abort {n}")),
            _ => {}
        }
        if c.state != S::Uninitialized && c.state != S::FatalError {
            push(format!("{n} crashes"), format!("crash {n}"));
        }
        // The network holds the client's next request of an API: the call waits, and
        // `release` or request.timeout.ms (`advance`) ends the wait.
        let holds: &[&str] = match c.state {
            S::Uninitialized => &["InitProducerId"],
            S::InTransaction if c.tv2 => &["Produce", "EndTxn"],
            S::InTransaction => &["AddPartitionsToTxn", "Produce", "EndTxn"],
            _ => &[],
        };
        let free = |api: &str| !w.injections.iter().any(|(k, a, _)| *k == i && *a == api) && !w.held_requests.iter().any(|h| h.client == i && h.api() == api);
        for api in holds.iter().filter(|api| free(api)) {
            push(format!("{n}: the network holds its next {api}"), format!("inject {n} {api} hold"));
        }
        // Request-level losses (walked by the schedule check too): the ones whose retry meets a
        // rule — an InitProducerId answered twice bumps twice (I10), a Produce sent again is a
        // duplicate (A1), an add sent again finds the partition added, a lost EndTxn goes again.
        let losses: &[(&str, &str)] = match c.state {
            S::Uninitialized => &[("InitProducerId", "lose-response")],
            S::InTransaction if c.tv2 => &[("Produce", "lose-response"), ("EndTxn", "lose-request")],
            S::InTransaction => &[("AddPartitionsToTxn", "lose-response"), ("Produce", "lose-response"), ("EndTxn", "lose-request")],
            _ => &[],
        };
        for (api, what) in losses.iter().filter(|(api, _)| free(api)) {
            let label = if *what == "lose-request" { format!("{n}: the network loses its next {api}") } else { format!("{n}: the network loses the answer to its next {api}") };
            push(label, format!("inject {n} {api} {what}"));
        }
    }
    for h in &w.held_requests {
        let n = &w.clients[h.client].name;
        push(format!("{n}: its held {} arrives", h.api()), format!("release {n} {}", h.api()));
    }
    request_lines(w, &mut push);
    if w.markers.iter().any(|m| !m.held) {
        push(String::from("deliver every marker"), String::from("deliver markers"));
    }
    for m in &w.markers {
        push(format!("deliver the marker to {}", m.partition), format!("deliver marker {}", m.partition));
        if !m.held {
            push(format!("delay the marker to {}", m.partition), format!("delay marker {}", m.partition));
        }
    }
    push(String::from("fail over the coordinator"), String::from("failover coordinator"));
    for con in &w.consumers {
        push(format!("{} polls", con.name), format!("poll {}", con.name));
        if con.group.is_some() {
            push(format!("{} seeks to the committed offsets", con.name), format!("seek {} committed", con.name));
        }
    }
    for g in &w.groups {
        push(format!("{} rebalances", g.name), format!("rebalance {}", g.name));
    }
    push(String::from("time passes (1 minute)"), String::from("advance 1m"));
    for (label, line) in w.replication_next_lines() {
        push(label, line);
    }
    out
}

/// [`next_lines`]' request part alone: what the random request walk picks from at times
/// (`model::schedule::TxnRequestWalk`), so the lines the step buttons offer are among those
/// `make test` replays against Kafka.
pub fn request_next_lines(w: &World) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = Vec::new();
    request_lines(w, &mut |label, line| push_new(&mut out, label, line));
    out
}

/// Adds a step button unless one already appends the same line.
fn push_new(out: &mut Vec<(String, String)>, label: String, line: String) {
    if !out.iter().any(|x| x.1 == line) {
        out.push((label, line));
    }
}

/// The requests a client could send next for each transactional.id that no Java client of the
/// script drives (a request scenario's): the right next request, and the wrong ones a teacher
/// asks about — the same batch again (a retry: A1), a zombie's batch at the previous epoch, a
/// sequence gap, a batch to a partition never added (TV1) — then EndTxn, a new InitProducerId,
/// and a read_committed Fetch of each partition. The fields come from the coordinator's and
/// the leaders' state, so each line is a request Kafka would decide on its own.
fn request_lines(w: &World, push: &mut impl FnMut(String, String)) {
    use super::coordinator::TxnState as T;
    let tv2 = w.cluster.transaction_version >= 2;
    let (produce_v, end_v) = if tv2 { (12, 5) } else { (11, 4) };
    let by_request = |id: &str| !w.clients.iter().any(|c| c.transactional_id.as_str() == id);
    let mut any = false;
    let mut n = w.records.len();
    let mut values = |count: usize| -> String {
        (0..count.max(1))
            .map(|_| {
                n += 1;
                format!("r{n}")
            })
            .collect::<Vec<_>>()
            .join(" ")
    };
    for m in w.coordinator.txns.iter().filter(|m| by_request(&m.transactional_id)) {
        any = true;
        let (id, pid, epoch) = (&m.transactional_id, m.producer_id, m.producer_epoch);
        let open = matches!(m.state, T::Ongoing);
        let may_write = matches!(m.state, T::Empty | T::Ongoing | T::CompleteCommit | T::CompleteAbort);
        if may_write {
            for p in &w.idem.cluster.partitions {
                let part = p.name.as_str();
                let added = m.partitions.iter().any(|x| x.as_str() == part);
                if !tv2 && !added {
                    push(format!("{id}: AddPartitionsToTxn {part}"), format!("add-partitions-to-txn transactional.id={id} pid={pid} epoch={epoch} {part}"));
                }
                let entry = p.producers.get(&pid).filter(|e| e.producer_epoch == epoch);
                let next = entry.map_or(0, |e| crate::sequence::increment(e.last_seq(), 1));
                let produce = |seq: i32, epoch: i16, vals: String| format!("produce {part} pid={pid} epoch={epoch} seq={seq} txn transactional.id={id} v={produce_v} {vals}");
                let what = if tv2 || added { "" } else { " (not added yet)" };
                push(format!("{id}: Produce to {part}, sequence {next}{what}"), produce(next, epoch, values(1)));
                if let Some(b) = entry.and_then(|e| e.batches.back()) {
                    let (first, last) = (b.first_seq(), b.last_seq);
                    let count = if last >= first { (last - first) as usize + 1 } else { 1 };
                    push(format!("{id}: the last batch to {part} again (a retry, sequences {first}..{last})"), produce(first, epoch, values(count)));
                    push(format!("{id}: a batch to {part} that skips a sequence ({})", crate::sequence::increment(next, 1)), produce(crate::sequence::increment(next, 1), epoch, values(1)));
                }
                if epoch > 0 {
                    push(format!("{id}: a zombie's batch to {part} (epoch {})", epoch - 1), produce(0, epoch - 1, values(1)));
                }
            }
        }
        if open {
            push(format!("{id}: EndTxn(COMMIT)"), format!("end-txn transactional.id={id} pid={pid} epoch={epoch} commit v={end_v}"));
            push(format!("{id}: EndTxn(ABORT)"), format!("end-txn transactional.id={id} pid={pid} epoch={epoch} abort v={end_v}"));
        }
        push(format!("{id}: InitProducerId again (a new instance fences this one)"), format!("init-producer-id transactional.id={id}"));
    }
    if any {
        for p in &w.idem.cluster.partitions {
            push(format!("Fetch {} (read_committed)", p.name), format!("fetch {} read_committed", p.name));
        }
    }
}

/// The run as text: one block per step (for snapshots, the CLI, and diffs in review).
pub fn timeline_text(run: &TxnRun) -> String {
    let mut s = String::new();
    s.push_str(&format!("# {}\n", run.scenario.title));
    if run.model == "idempotence" {
        s.push_str(&format!("# an idempotence script's run (Kafka {} model)\n", run.scenario.kafka.name()));
    } else {
        s.push_str(&format!("# transaction.version={} (Kafka {} model)\n", run.scenario.transaction_version, run.scenario.kafka.name()));
    }
    for x in &run.scenario.producer_states {
        s.push_str(&format!(
            "# line {}: the leader of {} holds producer {} epoch {}, last batch sequences {}..{}{}{}\n",
            x.line,
            x.partition,
            x.producer_id,
            x.epoch,
            x.first_seq,
            x.last_seq,
            x.offset.map_or(String::new(), |o| format!(" at offsets {o}..{}", o + if x.last_seq >= x.first_seq { (x.last_seq - x.first_seq) as i64 } else { (i32::MAX - x.first_seq) as i64 + x.last_seq as i64 + 1 })),
            x.txn_first.map_or(String::new(), |t| format!(", a transaction open since offset {t}"))
        ));
    }
    for (k, st) in run.steps.iter().enumerate() {
        s.push_str(&format!("\n[{k}] line {} t+{}ms  {}{}\n", st.line, st.t, st.text, if st.ok { "" } else { "   <-- FAILED" }));
        for m in &st.messages {
            s.push_str(&format!(
                "    {} -> {} {}: {}{}{}\n",
                m.from,
                m.to,
                m.kind,
                m.text,
                m.rule.map_or(String::new(), |r| format!(" [{r}]")),
                if m.lost { " (LOST)" } else { "" }
            ));
        }
        if !st.narration.is_empty() {
            s.push_str(&format!("    = {}\n", st.narration));
        }
    }
    let w = &run.world;
    s.push_str("\nfinal state:\n");
    for c in &w.clients {
        s.push_str(&format!("  producer {} ({}): {} pid {} epoch {}{}\n", c.name, c.transactional_id, c.state.name(), c.pid, c.epoch, if c.outcome_unknown { " outcome UNKNOWN" } else { "" }));
    }
    for (name, pid, epoch, seqs) in w.idempotent_producers() {
        let next: Vec<String> = seqs.iter().map(|(p, n)| format!("{p} {n}")).collect();
        s.push_str(&format!("  producer {name} (no transactional.id): pid {pid} epoch {epoch}, next sequence [{}]\n", next.join(", ")));
    }
    for m in &w.coordinator.txns {
        s.push_str(&format!("  coordinator {} : {} pid {} epoch {}\n", m.transactional_id, m.state.name(), m.producer_id, m.producer_epoch));
    }
    for p in &w.idem.cluster.partitions {
        s.push_str(&format!("  {}: HW {} LSO {} aborted {:?}\n", p.name, p.high_watermark(), p.last_stable_offset(), p.aborted_txns.iter().map(|a| (a.first_offset, a.last_offset)).collect::<Vec<_>>()));
    }
    for c in &w.consumers {
        s.push_str(&format!(
            "  consumer {} ({}): received [{}]\n",
            c.name,
            if c.isolation == Isolation::ReadCommitted { "read_committed" } else { "read_uncommitted" },
            c.received.iter().map(|r| r.2.as_deref().unwrap_or_default()).collect::<Vec<_>>().join(" ")
        ));
    }
    for (name, holds, detail) in w.invariants() {
        s.push_str(&format!("  invariant {name}: {} ({detail})\n", if holds { "holds" } else { "BROKEN" }));
    }
    if let Some(o) = &w.outside_model {
        s.push_str(&format!("  OUTSIDE_MODEL: {o}\n"));
    }
    script::push_failures(&mut s, &run.failures);
    if let Some(e) = &run.error {
        s.push_str(&format!("ERROR {e}\n"));
    }
    s
}
