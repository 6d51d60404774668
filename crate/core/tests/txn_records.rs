//! The transactions model writes real records (issue 5): every batch any log holds decodes
//! with a valid CRC; markers are control batches carrying the coordinator epoch; the
//! coordinator's `__transaction_state` writes read back the way
//! `kafka-console-consumer --formatter TransactionLogMessageFormatter` prints them; a
//! transactional offset commit reads back like `OffsetsMessageFormatter`. Plus the client
//! and coordinator decisions the scenarios lean on, one test each, named for the rule.

use eoslab_core::decode::{decode_bytes, DecodeOptions};
use eoslab_core::internal::InternalTopic;
use eoslab_core::model::txn::{ClientState, World};
use eoslab_core::model::txn_scenario::{apply_line, parse, run, setup};

fn world(script: &str) -> World {
    let sc = parse(script).unwrap();
    let mut w = setup(&sc, None);
    for l in sc_lines(script) {
        apply_line(&mut w, &l).unwrap_or_else(|e| panic!("{l}: {e}"));
    }
    w
}

/// The step lines of a script (after the set-up lines).
fn sc_lines(script: &str) -> Vec<String> {
    const SETUP: [&str; 8] = ["model", "title", "about", "cluster", "partition", "partitions", "producer", "consumer"];
    script.lines().map(str::trim).filter(|l| !l.is_empty() && !SETUP.iter().any(|w| l.split_whitespace().next() == Some(w))).map(String::from).collect()
}

const HEAD: &str = "model transactions\npartition orders-0\nproducer app transactional.id=my-txn\nconsumer c read_committed group=g orders-0\n";

#[test]
fn every_record_is_a_real_batch_with_a_valid_crc() {
    let w = world(&format!("{HEAD}init app\nbegin app\nsend app orders-0 a b\nsend-offsets app c\ncommit app\ndeliver markers\nbegin app\nsend app orders-0 x\nabort app\ndeliver markers\n"));
    assert!(w.records.len() >= 8);
    for r in &w.records {
        let rep = decode_bytes(&r.bytes, &DecodeOptions::default());
        assert!(rep.errors.is_empty(), "{}: {:?}", r.text, rep.errors);
        let b = &rep.batches[0];
        assert!(b.header.crc_valid, "{}", r.text);
        assert_eq!(b.header.base_offset, r.offset, "{}: the leader's offset is in the stored bytes", r.text);
        match r.kind {
            "commit" | "abort" => {
                let c = b.control.as_ref().expect("markers are control batches");
                assert_eq!(c.type_name, if r.kind == "commit" { "COMMIT" } else { "ABORT" });
                assert_eq!(c.coordinator_epoch, Some(0));
                assert!(b.header.attributes.transactional && b.header.attributes.control);
            }
            "data" | "offset-commit" => assert!(b.header.attributes.transactional, "{}", r.text),
            "txn-log" => assert_eq!(b.header.producer_id, -1, "the coordinator's own appends are not idempotent"),
            k => panic!("unexpected kind {k}"),
        }
    }
}

#[test]
fn transaction_log_records_read_back_like_the_console_consumer_formatter() {
    let w = world(&format!("{HEAD}init app\nbegin app\nsend app orders-0 a\ncommit app\n"));
    let texts: Vec<String> = w
        .records
        .iter()
        .filter(|r| r.kind == "txn-log")
        .map(|r| {
            let rep = decode_bytes(&r.bytes, &DecodeOptions { formatter: Some(InternalTopic::TransactionState), ..Default::default() });
            rep.batches[0].records[0].formatted.clone().expect("formatted")
        })
        .collect();
    // "my-txn" hashes to __transaction_state-45 (semantics.md §3.1); states in write order.
    assert!(w.records.iter().filter(|r| r.kind == "txn-log").all(|r| r.partition == "__transaction_state-45"));
    assert_eq!(texts.len(), 3, "{texts:#?}");
    assert!(texts[0].starts_with(r#"{"key":{"type":0,"data":{"transactionalId":"my-txn"}},"value":{"version":1,"data":{"producerId":1000,"producerEpoch":0,"#), "{}", texts[0]);
    assert!(texts[0].contains(r#""transactionStatus":0"#), "Empty: {}", texts[0]);
    assert!(texts[1].contains(r#""transactionStatus":1"#) && texts[1].contains(r#""topic":"orders","partitionIds":[0]"#), "Ongoing with orders-0: {}", texts[1]);
    assert!(texts[2].contains(r#""transactionStatus":2"#) && texts[2].contains(r#""producerEpoch":1"#), "PrepareCommit at the bumped epoch (TV2): {}", texts[2]);
}

#[test]
fn a_transactional_offset_commit_reads_back_like_the_offsets_formatter() {
    let w = world(&format!("{HEAD}init app\npoll c\nbegin app\nsend app orders-0 a\nsend-offsets app c\n"));
    let r = w.records.iter().find(|r| r.kind == "offset-commit").unwrap();
    let rep = decode_bytes(&r.bytes, &DecodeOptions { formatter: Some(InternalTopic::ConsumerOffsets), ..Default::default() });
    let text = rep.batches[0].records[0].formatted.clone().unwrap();
    assert!(text.contains(r#""group":"g","topic":"orders","partition":0"#), "{text}");
    assert!(text.contains(r#""offset":0"#), "{text}");
    assert!(rep.batches[0].header.attributes.transactional, "G4: written as a transactional record");
}

#[test]
fn i3_a_timeout_above_transaction_max_timeout_ms_is_fatal_at_init() {
    let w = world("model transactions\npartition p-0\nproducer app transactional.id=t transaction.timeout.ms=20m\ninit app\n");
    assert_eq!(w.clients[0].state, ClientState::FatalError);
    assert!(w.clients[0].last_error.as_deref().unwrap().contains("InvalidTxnTimeoutException"));
}

#[test]
fn m3_a_marker_from_the_old_coordinator_is_refused_after_failover() {
    let w = world("model transactions\npartition a-0 b-0\nproducer app transactional.id=t\ninit app\nbegin app\nsend app a-0 x\nsend app b-0 y\ncommit app\ndelay marker b-0\nfailover coordinator\ndeliver markers\ndeliver marker b-0\n");
    let markers: Vec<_> = w.records.iter().filter(|r| r.partition == "b-0" && r.kind == "commit").collect();
    assert_eq!(markers.len(), 1, "one COMMIT on b-0: the new coordinator's");
    assert!(markers[0].text.contains("coordinator epoch 1"));
    let p = w.partitions.iter().find(|p| p.name == "b-0").unwrap();
    assert_eq!(p.last_stable_offset(), p.high_watermark());
}

/// K6 (`TransactionStateManager.loadTransactionsForTxnTopicPartition` →
/// `TransactionMarkerChannelManager.addTxnMarkersToSend` with every partition of the loaded
/// Prepare* record): after a failover the new coordinator re-sends the marker to every
/// partition, including one that already has it; the leader writes the duplicate. Under TV2 it
/// is M2's retried-marker exception (Kafka 4.3.1, seen on a real broker by
/// tests/kafka/txn_scenarios.py txn-coordinator-failover), under TV1 the M1 epoch check passes.
#[test]
fn k6_the_new_coordinator_resends_markers_to_every_partition_and_the_leader_decides_the_duplicate() {
    for (tv, rule) in [(2, "M2"), (1, "M1")] {
        let w = world(&format!(
            "model transactions\ncluster transaction.version={tv}\npartition a-0 b-0\nproducer app transactional.id=t\n\
             init app\nbegin app\nsend app a-0 x\nsend app b-0 y\ncommit app\ndelay marker b-0\ndeliver marker a-0\n\
             failover coordinator\ndeliver markers\n"
        ));
        let a: Vec<_> = w.records.iter().filter(|r| r.partition == "a-0" && r.kind == "commit").collect();
        assert_eq!(a.len(), 2, "TV{tv}: a-0 gets the old coordinator's COMMIT and the new one's again");
        assert!(a[0].text.contains("coordinator epoch 0") && a[1].text.contains("coordinator epoch 1"), "TV{tv}");
        let dup = w.messages.iter().rev().find(|m| m.kind == "response" && m.from.contains("a-0")).unwrap();
        assert_eq!(dup.rule, Some(rule), "TV{tv}: {}", dup.text);
        assert_eq!(w.records.iter().filter(|r| r.partition == "b-0" && r.kind == "commit").count(), 1, "TV{tv}");
        let p = w.partitions.iter().find(|p| p.name == "a-0").unwrap();
        assert_eq!((p.last_stable_offset(), p.high_watermark()), (3, 3), "TV{tv}");
    }
}

#[test]
fn client_errors_split_into_fatal_and_abortable_as_the_transaction_manager_does() {
    // 47 on Produce is abortable (KIP-588); 90 on EndTxn is fatal.
    let mut w = world("model transactions\npartition p-0\nproducer old transactional.id=t\nproducer new transactional.id=t\ninit old\nbegin old\nsend old p-0 a\ninit new\ndeliver markers\nsend old p-0 b\n");
    assert_eq!(w.clients[0].state, ClientState::AbortableError);
    apply_line(&mut w, "abort old").unwrap();
    assert_eq!(w.clients[0].state, ClientState::FatalError);
    assert!(w.clients[0].last_error.as_deref().unwrap().contains("ProducerFencedException"));
    assert_eq!(w.clients[1].state, ClientState::Ready);
}

#[test]
fn the_same_script_replays_to_the_same_bytes() {
    let text = format!("{HEAD}init app\nbegin app\nsend app orders-0 a\nsend-offsets app c\ncommit app\ndeliver markers\n");
    let a = run(&parse(&text).unwrap(), None, true).world.records.iter().map(|r| r.bytes.clone()).collect::<Vec<_>>();
    let b = run(&parse(&text).unwrap(), None, true).world.records.iter().map(|r| r.bytes.clone()).collect::<Vec<_>>();
    assert_eq!(a, b);
}
