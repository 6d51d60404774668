//! One model: a producer without a transactional.id in a `model transactions` script is
//! the idempotence scripts' producer, hosted by the transactions world on its partition leaders
//! (`model/txn/idempotent.rs`). This test runs every shipped idempotence scenario that speaks only
//! of such producers, and random idempotence schedules, both ways — as an idempotence script, and
//! as a transactions script with the same lines — and requires the same run: every expect holds
//! in both, every batch ends in the same state with the same attempts, and every partition log
//! holds the same bytes.

use std::path::PathBuf;

use eoslab_core::model::schedule::{random_script, ScheduleShape};
use eoslab_core::model::{scenario, txn_scenario};

/// The idempotence script as a transactions script: `model transactions` first, `broker KEY=V`
/// as `cluster KEY=V`; `None` when it uses a line only the idempotence scripts have.
fn as_transactions(text: &str) -> Option<String> {
    // The idempotence scripts run the leaders' expiry check (X1) at the end of each `advance`; the
    // transactions world at Kafka's check interval: one second keeps them together at the scale of
    // these scripts (their producers expire after an hour or a day).
    let mut out = String::from("model transactions\ncluster producer.id.expiration.check.interval.ms=1s\n");
    for l in text.lines() {
        let w: Vec<&str> = scenario::strip_comment(l).split_whitespace().collect();
        match w.first().copied() {
            Some("log-end" | "producer-state" | "produce" | "marker" | "fetch" | "list-offsets") => return None,
            Some("expect") if matches!(w.get(1).copied(), Some("last" | "read")) => return None,
            Some("broker") => out.push_str(&format!("cluster {}\n", w[1..].join(" "))),
            _ => {
                out.push_str(l);
                out.push('\n');
            }
        }
    }
    Some(out)
}

fn same_run(name: &str, text: &str) -> bool {
    let Some(txn_text) = as_transactions(text) else { return false };
    let sc = scenario::parse(text).unwrap_or_else(|e| panic!("{name}: {e}"));
    let alone = scenario::run(&sc);
    let tsc = txn_scenario::parse(&txn_text).unwrap_or_else(|e| panic!("{name} as a transactions script: {e}\n{txn_text}"));
    let hosted = txn_scenario::run(&tsc, None, false);
    assert_eq!(alone.passed(), hosted.passed(), "{name}: passes alone {:?} {:?}, hosted {:?} {:?}", alone.failures, alone.error, hosted.failures, hosted.error);
    assert_eq!(alone.sim.batches, hosted.world.idem.batches, "{name}: the batches");
    assert_eq!(alone.sim.cluster.partitions.len(), hosted.world.idem.cluster.partitions.len());
    for (a, b) in alone.sim.cluster.partitions.iter().zip(&hosted.world.idem.cluster.partitions) {
        assert_eq!(a.log, b.log, "{name}: the log of {}", a.name);
        assert_eq!(a.high_watermark(), b.high_watermark(), "{name}: the HW of {}", a.name);
        assert_eq!(a.producers, b.producers, "{name}: the producer state of {}", a.name);
    }
    true
}

#[test]
fn a_producer_without_a_transactional_id_is_the_same_in_both_script_languages() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../scenarios");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().path()).filter(|p| p.extension().is_some_and(|e| e == "eos")).collect();
    files.sort();
    let mut compared = Vec::new();
    for f in files {
        let text = std::fs::read_to_string(&f).unwrap();
        if txn_scenario::is_transactions(&text) {
            continue;
        }
        let name = f.file_stem().unwrap().to_string_lossy().into_owned();
        if same_run(&name, &text) {
            compared.push(name);
        }
    }
    assert!(compared.len() >= 10, "shipped idempotence scenarios compared: {compared:?}");
    for must in ["lost-response-retry", "epoch-bump", "expired-producer-state", "out-of-order-5-in-flight", "slow-follower-timeout-retry"] {
        assert!(compared.iter().any(|c| c == must), "{must} is compared: {compared:?}");
    }
    // Producer state that never expires here: the idempotence scripts expire it only at `advance`,
    // the world at every check interval however the time passed (a `timeout` too, as Kafka's
    // periodic check does), so with expiry the two clocks legitimately part. The shipped
    // scenarios above compare expiry (expired-producer-state).
    let shape = ScheduleShape { steps: 40, producers: 2, partitions: 2, first_producer_id: 5000, start_ms: 1_700_000_000_000, producer_id_expiration_ms: 365 * 86_400_000 };
    let mut schedules = 0;
    for seed in 1..=200u64 {
        if same_run(&format!("random schedule {seed}"), &random_script(seed, &shape)) {
            schedules += 1;
        }
    }
    assert_eq!(schedules, 200, "random schedules compared");
}

/// The transactions script as an idempotence script: the same lines without `model transactions`;
/// `None` when it sets up what only the transactions scripts can (a `cluster` line, seeded state,
/// Java clients, consumers) or checks what only they name.
fn as_idempotence(text: &str) -> Option<String> {
    let mut out = String::new();
    for l in text.lines().skip_while(|l| l.trim() != "model transactions").skip(1) {
        let w: Vec<&str> = scenario::strip_comment(l).split_whitespace().collect();
        match w.first().copied() {
            Some("cluster" | "txn-state" | "group-state" | "producer-state" | "producer" | "consumer" | "partitions" | "init" | "send" | "begin" | "commit" | "abort") => return None,
            // The transactions world's invariants: not the idempotence model's to check.
            Some("expect") if w.get(1) == Some(&"invariants") => {}
            Some("expect") if matches!(w.get(1).copied(), Some("producer-state" | "aborted" | "leo" | "isr" | "leader")) => return None,
            _ => {
                out.push_str(l);
                out.push('\n');
            }
        }
    }
    Some(out)
}

/// A producer-state entry without its timestamps: producer id, epoch, coordinator epoch, open
/// transaction's first offset, retained batches (last sequence, last offset).
type Entry = (i64, i16, i32, Option<i64>, Vec<(i32, i64)>);

#[test]
fn the_request_lines_answer_the_same_in_both_script_languages() {
    // The transactions scripts' request-only scenarios, run as idempotence scripts: the same
    // answers (by label), the same logs, and every expect holds in both.
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../scenarios");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().path()).filter(|p| p.file_name().is_some_and(|n| n.to_string_lossy().starts_with("txn-request-"))).collect();
    files.sort();
    let mut compared = Vec::new();
    for f in files {
        let text = std::fs::read_to_string(&f).unwrap();
        let name = f.file_stem().unwrap().to_string_lossy().into_owned();
        let Some(idem) = as_idempotence(&text) else { continue };
        let Ok(sc) = scenario::parse(&idem) else { continue };
        let alone = scenario::run(&sc);
        let txn = txn_scenario::run(&txn_scenario::parse(&text).unwrap(), None, false);
        assert!(txn.passed(), "{name}");
        assert!(alone.passed(), "{name} as an idempotence script: {:?} {:?}\n{}", alone.failures, alone.error, scenario::ladder(&alone));
        // Every labelled answer is the same.
        let replies = &alone.cluster.as_ref().map(|c| c.replies.clone()).unwrap_or_default();
        for (label, r) in replies.iter().filter(|x| x.0 != "last") {
            let k = txn.steps.iter().position(|s| s.text.ends_with(&format!(" as {label}"))).unwrap_or_else(|| panic!("{name}: {label}"));
            let t = txn.steps[k].reply.as_ref().unwrap();
            assert_eq!((r.error_code, &r.rule, &r.outcome, r.offsets, r.producer_id, r.producer_epoch), (t.error_code, &t.rule, &t.outcome, t.offsets, t.producer_id, t.producer_epoch), "{name}: {label}");
        }
        // Producer state without timestamps: the transactions world's clock moves by a round trip
        // per request, the idempotence scripts' only when the script says so.
        let entries = |p: &eoslab_core::model::partition::Partition| -> Vec<Entry> {
            p.producers.iter().map(|(pid, e)| (*pid, e.producer_epoch, e.coordinator_epoch, e.current_txn_first_offset, e.batches.iter().map(|b| (b.last_seq, b.last_offset)).collect())).collect()
        };
        for (a, b) in alone.sim.cluster.partitions.iter().zip(&txn.world.idem.cluster.partitions) {
            assert_eq!(a.log_end_offset, b.log_end_offset, "{name}: {}", a.name);
            assert_eq!(entries(a), entries(b), "{name}: {}", a.name);
            assert_eq!(a.aborted_txns, b.aborted_txns, "{name}: {}", a.name);
        }
        compared.push(name);
    }
    for must in ["txn-request-append-rules", "txn-request-append-txn", "txn-request-endtxn-tv2", "txn-request-fetch-aborted", "txn-request-refusals", "txn-request-verification-entry"] {
        assert!(compared.iter().any(|c| c == must), "{must} is compared: {compared:?}");
    }
}

#[test]
fn an_idempotence_script_picks_the_kafka_line_and_level_its_requests_are_answered_by() {
    // The same TV2 marker sent again: Kafka 4.3 writes it (M2's exception); 4.1 has no
    // WriteTxnMarkers v2 to carry it. `broker kafka=…` picks the line, as `cluster kafka=…` does.
    let script = |line: &str| {
        format!(
            "broker kafka={line}\npartition orders-0\ninit-producer-id transactional.id=app\n\
             produce orders-0 pid=1000 epoch=0 seq=0 txn transactional.id=app a\n\
             end-txn transactional.id=app pid=1000 epoch=0 commit v=5 as commit\ndeliver markers\n\
             marker orders-0 pid=1000 epoch=1 commit coordinator-epoch=0 tv=2 as again\nexpect again rule M2\n"
        )
    };
    let on43 = scenario::run(&scenario::parse(&script("4.3")).unwrap());
    assert!(on43.passed(), "{:?} {:?}", on43.failures, on43.error);
    let on41 = scenario::run(&scenario::parse(&script("4.1")).unwrap());
    let e = on41.error.expect("Kafka 4.1 has no WriteTxnMarkers v2");
    assert!(e.message.contains("Kafka 4.1"), "{}", e.message);
    // transaction.version=1: the coordinator answers an EndTxn v5 as a TV1 cluster's does.
    let tv1 = "broker transaction.version=1\npartition orders-0\ninit-producer-id transactional.id=app as i\n\
               add-partitions-to-txn transactional.id=app pid=1000 epoch=0 orders-0 v=3 as add\nexpect add error NONE\n";
    let r = scenario::run(&scenario::parse(tv1).unwrap());
    assert!(r.passed(), "{:?} {:?}", r.failures, r.error);
    assert_eq!(r.cluster.as_ref().unwrap().world.cluster.transaction_version, 1);
    assert!(scenario::parse("broker kafka=3.9\npartition p\n").unwrap_err().message.contains("kafka=3.9"));
}

/// `expect txn-state` reads the coordinator's metadata in both languages, and says the same.
#[test]
fn expect_txn_state_reads_the_coordinator_in_both_script_languages() {
    let body = "partition orders-0\ninit-producer-id transactional.id=pay as init\n\
                add-partitions-to-txn transactional.id=pay pid=1000 epoch=0 orders-0 v=3 as add\n\
                expect txn-state pay pid=1000 epoch=0 state=Ongoing partitions=orders-0 tv=0 pending=none\n";
    let idem = scenario::run(&scenario::parse(body).unwrap());
    assert!(idem.passed(), "{:?} {:?}", idem.failures, idem.error);
    let txn = txn_scenario::run(&txn_scenario::parse(&format!("model transactions\n{body}")).unwrap(), None, false);
    assert!(txn.passed(), "{:?}", txn.error);
    let wrong = format!("{body}expect txn-state pay epoch=3\n");
    let idem = scenario::run(&scenario::parse(&wrong).unwrap());
    let txn = txn_scenario::run(&txn_scenario::parse(&format!("model transactions\n{wrong}")).unwrap(), None, false);
    assert_eq!(idem.failures.len(), 1);
    assert_eq!(idem.failures[0].got, txn.failures[0].got);
    assert!(idem.failures[0].got.starts_with("pid=1000 epoch=0 state=Ongoing"), "{}", idem.failures[0].got);
}

/// A WriteTxnMarkers request for several partitions is a request line in both languages,
/// answered per partition the same way.
#[test]
fn a_marker_for_two_partitions_is_one_request_in_both_script_languages() {
    let body = "partition orders-0 orders-1\ninit-producer-id transactional.id=pay as init\n\
                add-partitions-to-txn transactional.id=pay pid=1000 epoch=0 orders-0 orders-1 v=3 as add\n\
                marker orders-0 orders-1 pid=1000 epoch=0 abort coordinator-epoch=0 tv=1\n";
    let sc = scenario::parse(body).unwrap();
    assert!(matches!(sc.steps.last(), Some(scenario::Step::Request { .. })), "not the idempotence scripts' one-partition marker");
    let idem = scenario::run(&sc);
    assert!(idem.passed(), "{:?} {:?}", idem.failures, idem.error);
    let last = &idem.cluster.as_ref().unwrap().replies.iter().find(|r| r.0 == "last").unwrap().1;
    let parts: Vec<(&str, &str)> = last.partitions.iter().map(|(p, e, _)| (p.as_str(), e.as_str())).collect();
    assert_eq!(parts, [("orders-0", "NONE"), ("orders-1", "NONE")]);
    let txn = txn_scenario::run(&txn_scenario::parse(&format!("model transactions\n{body}expect last error orders-1 NONE\nexpect log orders-1 [ABORT]\n")).unwrap(), None, false);
    assert!(txn.passed(), "{:?} {:?}", txn.failures, txn.error);
}

/// One language: a script without `model transactions` that uses a line only the
/// transactions scripts read (a transactional producer, `begin`, `consumer` …) is a transactions
/// script, its idempotence lines hosted as ever; every shipped idempotence script stays one.
#[test]
fn a_script_that_uses_transactions_lines_needs_no_model_line() {
    let text = "title mixed\npartition orders-0\nproducer legacy\nproducer app transactional.id=pay\nconsumer reader read_committed orders-0\n\
                send legacy orders-0 x\ndeliver request b1\ndeliver response b1\nexpect b1 acked 0..0\n\
                init app\nbegin app\nsend app orders-0 y\ncommit app\ndeliver markers\npoll reader\nexpect reader received x y\n";
    assert!(txn_scenario::is_transactions(text));
    let with_header = txn_scenario::run(&txn_scenario::parse(&format!("model transactions\n{text}")).unwrap(), None, false);
    let r = txn_scenario::run(&txn_scenario::parse(text).unwrap(), None, false);
    assert!(r.passed(), "{:?} {:?}", r.failures, r.error);
    // The same run, its lines numbered one lower.
    let renumbered = |t: String| t.lines().map(|l| l.split_once(" line ").map_or(l.to_string(), |(a, b)| format!("{a} {}", b.split_once(' ').map_or("", |x| x.1)))).collect::<Vec<_>>().join("\n");
    assert_eq!(renumbered(txn_scenario::timeline_text(&r)), renumbered(txn_scenario::timeline_text(&with_header)));
    // A `repeat` of transactions steps, and `delay marker`, count too; a `model` line other than
    // `model transactions` decides alone.
    assert!(txn_scenario::is_transactions("partition p\nproducer app transactional.id=t\nrepeat 2: begin app; commit app\n"));
    assert!(txn_scenario::is_transactions("partition p\ndelay marker p\n"));
    assert!(!txn_scenario::is_transactions("partition p\nproducer app\nsend app p x\ndelay request b1\n"));
    assert!(!txn_scenario::is_transactions("model idempotence\nbegin app\n"));
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../scenarios");
    let mut idempotence = 0;
    for f in std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().path()).filter(|p| p.extension().is_some_and(|e| e == "eos")) {
        let text = std::fs::read_to_string(&f).unwrap();
        let header = text.lines().map(|l| l.split('#').next().unwrap_or("").trim()).find(|l| !l.is_empty()) == Some("model transactions");
        if !header {
            idempotence += 1;
            assert!(!txn_scenario::is_transactions(&text), "{} is an idempotence script", f.display());
        }
    }
    assert!(idempotence > 10, "{idempotence} idempotence scripts");
}

/// Every shipped idempotence-language scenario, parsed, by file name, in name order.
fn idempotence_scenarios() -> Vec<(String, scenario::Scenario)> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../scenarios");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().path()).filter(|p| p.extension().is_some_and(|e| e == "eos")).collect();
    files.sort();
    files
        .into_iter()
        .filter_map(|f| {
            let text = std::fs::read_to_string(&f).unwrap();
            let name = f.file_stem().unwrap().to_string_lossy().into_owned();
            (!txn_scenario::is_transactions(&text)).then(|| {
                let sc = scenario::parse(&text).unwrap_or_else(|e| panic!("{name}: {e}"));
                (name, sc)
            })
        })
        .collect()
}

/// One report shape: an idempotence script's run as the timeline draws it
/// (`txn_scenario::run_idempotence`) is that script's own run, recorded by a world that hosts its
/// model: for every shipped idempotence scenario (raw requests, `log-end`, `producer-state`,
/// replication and the coordinators' request lines included) the same expectations hold, every
/// log ends the same, every batch a leader holds is one record of the report with its bytes, and
/// every decision the leader made on a client batch is an answer in the messages with its rule.
#[test]
fn an_idempotence_script_drawn_as_a_timeline_is_its_own_run() {
    let mut checked = 0;
    for (name, sc) in idempotence_scenarios() {
        let own = scenario::run(&sc);
        let tl = txn_scenario::run_idempotence(&sc);
        assert_eq!((own.passed(), &own.failures), (tl.passed(), &tl.failures), "{name}: {:?} / {:?}", own.error, tl.error);
        assert!(tl.passed(), "{name}: {:?} {:?}", tl.failures, tl.error);
        assert_eq!(own.steps.iter().map(|s| s.line).collect::<Vec<_>>(), tl.steps.iter().map(|s| s.line).collect::<Vec<_>>(), "{name}: the steps");
        assert_eq!(own.sim.batches, tl.world.idem.batches, "{name}: the batches");
        for (a, b) in own.sim.cluster.partitions.iter().zip(&tl.world.idem.cluster.partitions) {
            assert_eq!(a.log, b.log, "{name}: the log of {}", a.name);
            assert_eq!(a.producers, b.producers, "{name}: the producer state of {}", a.name);
            for e in &b.log {
                let recs: Vec<_> = tl.world.records.iter().filter(|r| r.partition.as_str() == b.name && r.offset == e.base_offset && r.truncated_at.is_none()).collect();
                assert_eq!(recs.len(), 1, "{name}: {}@{} is one record", b.name, e.base_offset);
                assert_eq!(recs[0].bytes, e.bytes, "{name}: {}@{}'s bytes", b.name, e.base_offset);
            }
        }
        let decisions = own.sim.trace.iter().filter(|e| e.batch().is_some() && matches!(e.kind, eoslab_core::model::idempotence::EventKind::Decision(_))).count();
        let answers = tl.steps.iter().flat_map(|s| &s.messages).filter(|m| m.kind == "response" && m.from.starts_with("partition:") && m.rule.is_some() && m.text.contains(" to b")).count();
        assert_eq!(decisions, answers, "{name}: every decision on a client batch is an answer");
        for st in &tl.steps {
            assert!(st.invariants.iter().all(|i| i.1), "{name}: line {}: {:?}", st.line, st.invariants);
        }
        // The step buttons are the idempotence script's own lines.
        let own_next = scenario::run_next_lines(&own.sim, own.cluster.as_deref());
        assert_eq!(tl.next.as_ref(), Some(&own_next), "{name}: the next lines");
        let last = tl.steps.last().and_then(|s| s.snapshot.as_deref()).unwrap();
        for (p, q) in own.sim.cluster.partitions.iter().zip(&last.partitions) {
            assert_eq!((p.log_end_offset, p.producers.len()), (q.log_end, q.producers.len()), "{name}: the state panel of {}", p.name);
        }
        checked += 1;
    }
    assert!(checked >= 18, "{checked} idempotence scenarios");
}

/// One report shape: `<kafka-ladder>` draws an idempotence script from the report
/// `<kafka-timeline>` draws (`runTxnScenario`). What its per-batch view reads there — each step's
/// events, producer-state counts and changes, the state before the first step, the client
/// batches, the final logs with their bytes and the next lines — is exactly what the idempotence
/// runner's own report with states (`runScenario(…, {states: true})`, the ladder's source before)
/// gives, for every shipped idempotence scenario, with and without the per-step world snapshots
/// and the world's messages (the ladder asks for neither).
/// And a step that cannot be carried out is the report's last step, with no events or changes,
/// while the step before it keeps its changes (the ladder steps back to it).
#[test]
fn the_ladder_reads_an_idempotence_script_from_the_timelines_report() {
    use eoslab_core::model::report::run_report;
    use eoslab_core::model::txn_report::txn_run_report;
    let mut checked = 0;
    for (name, sc) in idempotence_scenarios() {
        let own = run_report(&scenario::run_with_states(&sc));
        for (snapshots, trace) in [(true, true), (false, false)] {
            let run = txn_scenario::run_idempotence_with(&sc, snapshots, trace);
            let one = txn_run_report(&run);
            // The views' report (the wasm boundary moves the run into it) is the same report.
            assert!(eoslab_core::model::txn_report::into_txn_run_report(run) == one, "{name}: the moved report");
            assert_eq!(one.model, "idempotence");
            assert_eq!(one.steps.len(), own.steps.len(), "{name}: the steps");
            for (a, b) in own.steps.iter().zip(&one.steps) {
                assert_eq!((a.line, &a.text, a.ok), (b.line, &b.text, b.ok), "{name}");
                assert_eq!(Some(&a.events), b.events.as_ref(), "{name}: line {}'s events", a.line);
                assert_eq!(Some(&a.producer_entries), b.producer_entries.as_ref(), "{name}: line {}'s producer-state entries", a.line);
                assert_eq!(a.state, b.changes, "{name}: what line {} changed", a.line);
            }
            assert_eq!((Some(&own.producers), Some(&own.partitions)), (one.producers.as_ref(), one.partitions.as_ref()), "{name}");
            assert_eq!(Some(&own.batches), one.batches.as_ref(), "{name}: the batches");
            assert_eq!(Some(&own.final_state), one.final_state.as_ref(), "{name}: the final state");
            assert_eq!(own.initial_state, one.initial_state, "{name}: the state before the first step");
            assert_eq!(own.next_steps, one.next_steps, "{name}: the next lines");
            assert!(one.initial_state.is_some(), "{name}");
            assert!(trace || one.steps.iter().all(|s| s.messages.is_empty() && s.narration.is_empty()), "{name}: untraced");
            // Without snapshots only the last step keeps the world's state.
            let kept = one.steps.iter().filter(|s| s.state != Default::default()).count();
            assert!(if snapshots { kept >= one.steps.len() - 1 } else { kept <= 1 }, "{name}: {kept} snapshots");
        }
        checked += 1;
    }
    assert!(checked >= 18, "{checked} idempotence scenarios");

    let bad = scenario::parse("partition p\nproducer app\nsend app p a\ndeliver request b1\ndeliver request b9\nsend app p b\n").unwrap();
    let one = txn_run_report(&txn_scenario::run_idempotence(&bad));
    assert!(one.error.as_deref().is_some_and(|e| e.contains("b9")), "{:?}", one.error);
    assert_eq!(one.steps.iter().map(|s| s.line).collect::<Vec<_>>(), [3, 4, 5]);
    assert!(one.steps[2].events.as_ref().is_some_and(Vec::is_empty) && one.steps[2].changes.is_none() && !one.steps[2].ok);
    assert!(one.steps[1].changes.is_some(), "the step before the error keeps what it changed");
    // A transactions script's report has none of the per-batch view.
    let txn = txn_run_report(&txn_scenario::run(&txn_scenario::parse("model transactions\npartition p\nproducer t transactional.id=t\ninit t\n").unwrap(), None, true));
    assert!(txn.batches.is_none() && txn.final_state.is_none() && txn.initial_state.is_none() && txn.steps.iter().all(|s| s.events.is_none() && s.producer_entries.is_none() && s.changes.is_none()));
}
