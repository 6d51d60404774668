//! `eoslab rules`: the rule catalogue as the docs print it, with the scenarios whose runs cite
//! each rule, the ones the Kafka harness does not run, and how many of its seeded random
//! sequences reach each rule.

use std::path::Path;
use std::process::Command;

fn root() -> &'static Path {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."))
}

#[test]
fn the_markdown_catalogue_lists_each_rule_with_the_scenarios_that_cite_it() {
    let o = Command::new(env!("CARGO_BIN_EXE_eoslab"))
        .args(["rules", "--markdown", "--scenarios"])
        .arg(root().join("scenarios"))
        .arg("--not-checked")
        .arg(root().join("tests/kafka/not-checked.json"))
        .arg("--random-coverage")
        .arg(root().join("tests/kafka/random-coverage.json"))
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let md = String::from_utf8(o.stdout).unwrap();
    for r in eoslab_core::rules::RULES {
        assert!(md.contains(&format!("\n### {}\n", r.id)), "{} has its heading", r.id);
    }
    // A retried batch answered with its first offsets (A1) is what lost-response-retry shows.
    let a1 = md.split("\n### A1\n").nth(1).unwrap().split("\n### ").next().unwrap();
    assert!(a1.contains("`lost-response-retry`"), "{a1}");
    // A scenario the Kafka harness cannot pose to a real broker says so, with the harness's reason.
    assert!(md.contains("`txn-epoch-exhaustion` (not run against Kafka: "), "the harness's reason is shown");
    // Every rule says what the seeded random sequences do for it; a duplicate is among the
    // commonest answers they get from Kafka 4.3.1.
    assert_eq!(md.matches("\n- Random sequences: ").count(), eoslab_core::rules::RULES.len());
    assert!(a1.contains("- Random sequences: checked against Kafka 4.3.1 by "), "{a1}");
}

#[test]
fn a_random_coverage_file_that_names_a_rule_the_catalogue_lacks_is_refused() {
    let path = std::env::temp_dir().join(format!("eoslab-random-coverage-{}.json", std::process::id()));
    std::fs::write(&path, r#"{"seed": 1, "runs": [{"run": "r", "generator": "g", "about": "x", "kafka": "4.3.1", "sequences": 1}], "rules": {"Z9": {"r": 1}}}"#).unwrap();
    let o = Command::new(env!("CARGO_BIN_EXE_eoslab")).args(["rules", "--markdown", "--random-coverage"]).arg(&path).output().unwrap();
    std::fs::remove_file(&path).unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("rule Z9 is not in the catalogue"), "{}", String::from_utf8_lossy(&o.stderr));
}

#[test]
fn a_scenario_that_fails_to_run_fails_the_catalogue() {
    let dir = std::env::temp_dir().join(format!("eoslab-rules-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("broken.eos"), "producer p\nsend q orders-0 a\n").unwrap();
    let o = Command::new(env!("CARGO_BIN_EXE_eoslab")).args(["rules", "--markdown", "--scenarios"]).arg(&dir).output().unwrap();
    std::fs::remove_dir_all(&dir).unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("broken.eos does not run cleanly"), "{}", String::from_utf8_lossy(&o.stderr));
}
