//! Every scenario in `scenarios/` is a test: it must parse, run to its end, and every
//! `expect` line in it must hold. Its text ladder is snapshotted, so any change in a
//! decision, a rule id or an explanation shows up as a reviewed diff.

use std::path::PathBuf;

use eoslab_core::model::scenario::{ladder, next_lines, parse, run};

fn scenario_files() -> Vec<PathBuf> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../scenarios");
    let mut v: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("scenarios/ exists")
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "eos"))
        // `model transactions` scripts are run by tests/txn_scenarios.rs.
        .filter(|p| !eoslab_core::model::txn_scenario::is_transactions(&std::fs::read_to_string(p).unwrap()))
        .collect();
    v.sort();
    v
}

#[test]
fn every_shipped_scenario_passes_its_expectations() {
    let files = scenario_files();
    assert!(files.len() >= 9, "the idempotence lessons ship as scenario files");
    for f in files {
        let text = std::fs::read_to_string(&f).unwrap();
        let sc = parse(&text).unwrap_or_else(|e| panic!("{}: {e}", f.display()));
        assert!(!sc.title.is_empty(), "{}: every scenario has a title", f.display());
        let r = run(&sc);
        assert!(r.passed(), "{}:\n{}", f.display(), ladder(&r));
        let name = f.file_stem().unwrap().to_string_lossy().into_owned();
        insta::assert_snapshot!(name, ladder(&r));
    }
}

#[test]
fn a_scenario_replays_identically() {
    for f in scenario_files() {
        let sc = parse(&std::fs::read_to_string(&f).unwrap()).unwrap();
        assert_eq!(ladder(&run(&sc)), ladder(&run(&sc)), "{}", f.display());
    }
}

#[test]
fn the_json_twin_runs_the_same_scenario() {
    for f in scenario_files() {
        let sc = parse(&std::fs::read_to_string(&f).unwrap()).unwrap();
        let json = serde_json::to_string(&sc).unwrap();
        let back: eoslab_core::model::scenario::Scenario = serde_json::from_str(&json).unwrap();
        assert_eq!(ladder(&run(&back)), ladder(&run(&sc)), "{}", f.display());
    }
}

#[test]
fn a_failing_expectation_is_reported_with_its_line() {
    let sc = parse("partition p\nproducer a\nsend a p x\nflush\nexpect b1 duplicate 0..0\n").unwrap();
    let r = run(&sc);
    assert!(!r.passed());
    assert_eq!(r.failures[0].line, 5);
    assert_eq!(r.failures[0].got, "appended 0..0 [A6]");
}

#[test]
fn parse_errors_name_the_line() {
    let e = parse("partition p\nproducer a\nsend b p x\n").unwrap_err();
    assert_eq!(e.line, 3);
    assert!(e.message.contains("unknown producer"));
    assert_eq!(parse("partition p\nfrobnicate\n").unwrap_err().line, 2);
}

#[test]
fn every_offered_next_step_runs_when_appended() {
    // The step buttons of <kafka-ladder> append these lines to the script and re-run it.
    for f in scenario_files() {
        let text = std::fs::read_to_string(&f).unwrap();
        let r = run(&parse(&text).unwrap());
        let lines = next_lines(&r.sim);
        assert!(lines.iter().any(|(_, l)| l.starts_with("send ")), "{}", f.display());
        for (label, line) in lines {
            let more = format!("{text}\n{line}\n");
            let r2 = run(&parse(&more).unwrap_or_else(|e| panic!("{}: {line}: {e}", f.display())));
            assert!(r2.error.is_none(), "{}: `{line}` ({label}) did not run: {:?}", f.display(), r2.error);
        }
    }
}

#[test]
fn an_old_attempt_can_be_named_with_its_number() {
    // b1's first request is held up, the connection closes, the retry goes first, then the
    // old request arrives late: a duplicate.
    let sc = parse(
        "partition p\nproducer a\nsend a p x\ndelay request b1\ntimeout a\ndeliver request b1\ndeliver request b1#1\nexpect b1 duplicate 0..0\n",
    )
    .unwrap();
    let r = run(&sc);
    assert!(r.passed(), "{}", ladder(&r));
}

#[test]
fn a_hash_inside_a_message_name_is_not_a_comment() {
    // `b1#1` names b1's first attempt; only a `#` at the start of a line or after a space
    // starts a comment. (The next-step buttons write such names; until 2026-12-03 the text
    // parser cut `b1#1` to `b1` and delivered the latest attempt instead.)
    let sc = parse(
        "partition p\nproducer a\nsend a p x\ndelay request b1\ntimeout a\ndeliver request b1#1 # the old one first\nexpect b1 appended 0..0\n",
    )
    .unwrap();
    let r = run(&sc);
    assert!(r.passed(), "{}", ladder(&r));
    let text = ladder(&r);
    assert!(text.contains("b1 attempt 1 → APPEND"), "{text}");
    assert!(!text.contains("attempt 2 →"), "{text}");
}

/// The state after step k, folded from a run with states (what `<kafka-ladder>` shows when it
/// steps back), is the state a run of the script's first k steps ends in: its leaders (log end,
/// first producer-state entries), every client batch, and the lines offered next.
#[test]
fn the_state_after_any_step_comes_from_the_one_run_with_states() {
    use eoslab_core::model::scenario::{initial_state, run_with_states, setup, Scenario, StepState};
    use eoslab_core::model::schedule::{random_script, ScheduleShape};
    // Every shipped scenario, and random schedules (faults, restarts, expiry, leader changes).
    let shape = ScheduleShape { steps: 30, producers: 2, partitions: 2, first_producer_id: 5000, start_ms: 1_700_000_000_000, producer_id_expiration_ms: 3_600_000 };
    let texts = scenario_files()
        .into_iter()
        .map(|f| (f.display().to_string(), std::fs::read_to_string(&f).unwrap()))
        .chain((1..=60u64).map(|seed| (format!("random schedule {seed}"), random_script(seed, &shape))));
    for (f, text) in texts {
        let sc = parse(&text).unwrap();
        let full = run_with_states(&sc);
        assert_eq!(full.steps.len(), run(&sc).steps.len(), "{f}");
        let initial = full.initial.clone().expect("a run with states has its initial state");
        assert_eq!(initial, initial_state(&setup(&sc)));
        let mut leaders = initial.leaders.clone();
        let mut batches = std::collections::BTreeMap::new();
        let mut next = initial.next.clone();
        for k in 0..=full.steps.len() {
            if k == full.steps.len() && k > 0 {
                // The last step's state is the run's own.
                assert!(full.steps[k - 1].state.is_none(), "{f}: the last step's state is not kept twice");
                leaders = (0..full.sim.cluster.partitions.len()).map(|q| initial_state(&full.sim).leaders[q].clone()).collect();
                batches = full.sim.batches.iter().map(|b| (b.id, b.clone())).collect();
                next = eoslab_core::model::scenario::run_next_lines(&full.sim, full.cluster.as_deref());
            } else if k > 0 {
                let StepState { leaders: changed, batches: touched, next: n } = full.steps[k - 1].state.clone().expect("every step but the last has its changes");
                for l in changed {
                    let q = l.partition;
                    leaders[q] = l;
                }
                for b in touched {
                    batches.insert(b.id, b);
                }
                next = n;
            }
            let prefix = run(&Scenario { steps: sc.steps[..k].to_vec(), ..sc.clone() });
            let want = initial_state(&prefix.sim);
            let at = format!("{f} after step {k}");
            assert_eq!(leaders, want.leaders, "{at}: leaders");
            assert_eq!(next, eoslab_core::model::scenario::run_next_lines(&prefix.sim, prefix.cluster.as_deref()), "{at}: next lines");
            let got: Vec<_> = batches.values().cloned().collect();
            assert_eq!(got, prefix.sim.batches, "{at}: batches");
        }
    }
}
