//! Every `model transactions` scenario in `scenarios/` is a test: it parses, runs to its
//! end, every `expect` holds, every invariant holds after every step, and its text timeline
//! is snapshotted so a change in any decision shows up as a reviewed diff.

use std::path::PathBuf;

use eoslab_core::model::txn::Sabotage;
use eoslab_core::model::txn_scenario::{is_transactions, parse, run, timeline_text};

fn txn_files() -> Vec<(String, String)> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../scenarios");
    let mut v: Vec<(String, String)> = std::fs::read_dir(&dir)
        .expect("scenarios/ exists")
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "eos"))
        .map(|p| (p.file_stem().unwrap().to_string_lossy().into_owned(), std::fs::read_to_string(&p).unwrap()))
        .filter(|(_, t)| is_transactions(t))
        .collect();
    v.sort();
    v
}

#[test]
fn every_transactions_scenario_passes_with_invariants_after_every_step() {
    let files = txn_files();
    assert!(files.len() >= 12, "the transactions lessons ship as scenario files ({} found)", files.len());
    for (name, text) in files {
        let sc = parse(&text).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert!(!sc.title.is_empty(), "{name}: every scenario has a title");
        let r = run(&sc, None, true);
        assert!(r.passed(), "{name}:\n{}", timeline_text(&r));
        for (k, s) in r.steps.iter().enumerate() {
            for (inv, holds, detail) in &s.invariants {
                assert!(holds, "{name}: step {k} ({}) breaks {inv}: {detail}", s.text);
            }
        }
        insta::assert_snapshot!(format!("txn-{name}"), timeline_text(&r));
    }
}

#[test]
fn a_transactions_scenario_replays_identically() {
    for (name, text) in txn_files() {
        let sc = parse(&text).unwrap();
        assert_eq!(timeline_text(&run(&sc, None, true)), timeline_text(&run(&sc, None, true)), "{name}");
    }
}

#[test]
fn the_json_twin_runs_the_same_scenario() {
    for (name, text) in txn_files() {
        let sc = parse(&text).unwrap();
        let json = serde_json::to_string(&sc).unwrap();
        // The twin says its language, as the text's first line does (`eoslab run`,
        // `runTxnScenario` and the views tell it from an idempotence script's by it).
        assert!(json.starts_with(r#"{"model":"transactions","#), "{name}");
        let back: eoslab_core::model::txn_scenario::TxnScenario = serde_json::from_str(&json).unwrap();
        assert_eq!(back, sc, "{name}");
        assert_eq!(timeline_text(&run(&back, None, true)), timeline_text(&run(&sc, None, true)), "{name}");
    }
}

/// The invariant checker can fail: with the read path sabotaged, the abort scenario's
/// read_committed consumer receives aborted records and the checker says so.
#[test]
fn the_invariant_checker_catches_a_sabotaged_read_path() {
    let text = txn_files().into_iter().find(|(n, _)| n == "txn-abort-offset-gaps").unwrap().1;
    let r = run(&parse(&text).unwrap(), Some(Sabotage::ReadCommittedSeesAborted), true);
    let last = r.steps.last().unwrap();
    let inv = last.invariants.iter().find(|i| i.0 == "read-committed-sees-only-committed").unwrap();
    assert!(!inv.1, "the sabotaged run must break the invariant");
    assert!(inv.2.contains("aborted"), "{}", inv.2);
}

#[test]
fn a_failing_expectation_is_reported_with_its_line() {
    let sc = parse("model transactions\npartition p\nproducer a transactional.id=t\ninit a\nexpect a state IN_TRANSACTION\n").unwrap();
    let r = run(&sc, None, true);
    assert!(!r.passed());
    assert_eq!(r.failures[0].line, 5);
    assert_eq!(r.failures[0].got, "READY");
}

#[test]
fn a_script_without_the_model_line_is_not_a_transactions_script() {
    assert!(!is_transactions("partition p\nproducer a\n"));
    assert!(is_transactions("# comment\n\nmodel transactions\n"));
    assert!(parse("partition p\n").is_err());
}

/// Rule TV, as Kafka 4.3.1 does it (tests/kafka/txn_scenarios.py, txn-protocol-upgrade):
/// a transaction that a TV1 client ends with EndTxn v4 gets TV1 markers even when the cluster
/// was upgraded to transaction.version=2 in the meantime (the coordinator keeps the EndTxn's
/// clientTransactionVersion); the simulator used the cluster's level, the leader refused the
/// marker, and the transaction "completed" without its COMMIT marker.
#[test]
fn a_v1_transaction_open_across_the_upgrade_gets_a_v1_marker() {
    let sc = parse(
        "model transactions\ncluster transaction.version=1\npartition p-0\nproducer a transactional.id=t\n\
         init a\nbegin a\nsend a p-0 v1\nfeature transaction.version=2\ncommit a\ndeliver markers\n\
         expect log p-0 v1 [COMMIT]\nexpect lso p-0 2\nexpect txn t CompleteCommit\n",
    )
    .unwrap();
    let r = run(&sc, None, true);
    assert!(r.passed(), "{}", timeline_text(&r));
}

/// Rule TV: the Java client learns the finalized transaction.version from ApiVersions,
/// which it sends when it connects. Kafka 4.3.1 on a real broker: after `kafka-features.sh
/// upgrade`, a producer whose connections stay up keeps V1 (no epoch bump at commit); after it
/// reconnects (here: the coordinator moves), its next commit is followed by an InitProducerId
/// that bumps the epoch, and the commits after that bump it again (V2).
#[test]
fn a_connected_client_keeps_its_protocol_until_it_reconnects() {
    let sc = parse(
        "model transactions\ncluster transaction.version=1\npartition p-0\nproducer a transactional.id=t\n\
         init a\nfeature transaction.version=2\n\
         begin a\nsend a p-0 v1\ncommit a\ndeliver markers\nexpect a epoch 0\n\
         begin a\nsend a p-0 v2\ncommit a\ndeliver markers\nexpect a epoch 0\n\
         failover coordinator\n\
         begin a\nsend a p-0 v3\ncommit a\ndeliver markers\nexpect a epoch 1\n\
         begin a\nsend a p-0 v4\ncommit a\ndeliver markers\nexpect a epoch 2\n\
         expect log p-0 v1 [COMMIT] v2 [COMMIT] v3 [COMMIT] v4 [COMMIT]\n",
    )
    .unwrap();
    let r = run(&sc, None, true);
    assert!(r.passed(), "{}", timeline_text(&r));
}

/// Rule C6 (TransactionManager.maybeFailWithError), as Kafka 4.3.1 does it
/// (tests/kafka/txn_scenarios.py, txn-zombie-fenced and txn-rebalance-fences-offsets): a
/// call in ABORTABLE_ERROR throws an InvalidProducerEpochException as itself, and wraps any
/// other abortable error (here CommitFailedException after ILLEGAL_GENERATION) in a
/// KafkaException. The simulator said KafkaException for both.
#[test]
fn an_abortable_invalid_producer_epoch_is_thrown_again_as_itself() {
    let zombie = parse(
        "model transactions\npartition p-0\nproducer old transactional.id=t\nproducer new transactional.id=t\n\
         init old\nbegin old\nsend old p-0 a\ninit new\ndeliver markers\nsend old p-0 b\n\
         expect old state ABORTABLE_ERROR\ncommit old\nexpect old threw InvalidProducerEpochException\n",
    )
    .unwrap();
    let r = run(&zombie, None, true);
    assert!(r.passed(), "{}", timeline_text(&r));
    let fenced_offsets = txn_files().into_iter().find(|(n, _)| n == "txn-rebalance-fences-offsets").unwrap().1;
    let text = fenced_offsets.replace("expect app threw ABORTABLE_ERROR", "expect app threw KafkaException: Cannot execute transactional method");
    let r = run(&parse(&text).unwrap(), None, true);
    assert!(r.passed(), "{}", timeline_text(&r));
}
