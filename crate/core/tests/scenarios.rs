//! Every scenario in `scenarios/` is a test: it must parse, run to its end, and every
//! `expect` line in it must hold. Its text ladder is snapshotted, so any change in a
//! decision, a rule id or an explanation shows up as a reviewed diff.

use std::path::PathBuf;

use eoslab_core::model::scenario::{ladder, parse, run};

fn scenario_files() -> Vec<PathBuf> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../scenarios");
    let mut v: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("scenarios/ exists")
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "eos"))
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
