//! The transactions model writes real records: every batch any log holds decodes
//! with a valid CRC; markers are control batches carrying the coordinator epoch; the
//! coordinator's `__transaction_state` writes read back the way
//! `kafka-console-consumer --formatter TransactionLogMessageFormatter` prints them; a
//! transactional offset commit reads back like `OffsetsMessageFormatter`. Plus the client
//! and coordinator decisions the scenarios lean on, one test each, named for the rule.

use eoslab_core::decode::{decode_bytes, DecodeOptions};
use eoslab_core::internal::InternalTopic;
use eoslab_core::model::txn::{CallResult, ClientState, World};
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
    // "my-txn" hashes to __transaction_state-45 (H1); states in write order.
    assert!(w.records.iter().filter(|r| r.kind == "txn-log").all(|r| r.partition == "__transaction_state-45"));
    assert_eq!(texts.len(), 3, "{texts:#?}");
    assert!(texts[0].starts_with(r#"{"key":{"type":0,"data":{"transactionalId":"my-txn"}},"value":{"version":1,"data":{"producerId":1000,"previousProducerId":1000,"producerEpoch":0,"#), "{}", texts[0]);
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

/// I3 at the coordinator, then `TransactionManager.InitProducerIdHandler`: an
/// INVALID_TRANSACTION_TIMEOUT answer is not one it names, so it fails the call with a plain
/// KafkaException ("Unexpected error in InitProducerIdResponse; …"), fatal, and
/// initTransactions() throws it.
#[test]
fn i3_a_timeout_above_transaction_max_timeout_ms_makes_init_throw_a_plain_kafka_exception() {
    let mut w = world("model transactions\npartition p-0\nproducer app transactional.id=t transaction.timeout.ms=20m\n");
    let r = w.init("app").unwrap();
    let CallResult::Thrown(t) = r else { panic!("{r:?}") };
    assert!(t.starts_with("KafkaException: Unexpected error in InitProducerIdResponse; The transaction timeout is larger than the maximum value allowed by the broker"), "{t}");
    assert_eq!(w.clients[0].state, ClientState::FatalError);
    assert!(w.clients[0].last_error.as_deref().unwrap().contains("INVALID_TRANSACTION_TIMEOUT"));
}

/// C3 (`KafkaProducer.commitTransaction` → `TransactionalRequestResult.await(maxBlockTimeMs)`):
/// a commit whose EndTxn answer does not come back throws a TimeoutException from that call;
/// the outcome is unknown and only the same call may be retried.
#[test]
fn c3_a_commit_whose_answer_does_not_come_back_throws_timeout_exception() {
    let mut w = world("model transactions\npartition p-0\nproducer app transactional.id=t\ninit app\nbegin app\nsend app p-0 a\n");
    let r = w.end("app", true, true).unwrap();
    assert_eq!(r, CallResult::Thrown(String::from("TimeoutException: Timeout expired after 60000ms while awaiting EndTxn(true). CommitTransaction timed out - did not complete EndTxn with the transaction coordinator within max.block.ms")));
    assert!(w.clients[0].outcome_unknown);
    assert_eq!(w.clients[0].state, ClientState::CommittingTransaction);
}

/// C3 with `EndTxnHandler`: an abort answered PRODUCER_FENCED fails with a
/// ProducerFencedException (fatal), thrown by abortTransaction() itself.
#[test]
fn c3_an_abort_answered_producer_fenced_throws_producer_fenced_exception() {
    let mut w = world("model transactions\npartition p-0\nproducer old transactional.id=t\nproducer new transactional.id=t\ninit old\nbegin old\nsend old p-0 a\ninit new\ndeliver markers\nsend old p-0 b\n");
    let r = w.end("old", false, false).unwrap();
    assert_eq!(r, CallResult::Thrown(String::from("ProducerFencedException: There is a newer producer with the same transactionalId which fences the current one.")));
    assert_eq!(w.clients[0].state, ClientState::FatalError);
}

/// C3 with `TxnOffsetCommitHandler`: ILLEGAL_GENERATION (G2) fails sendOffsetsToTransaction()
/// with a CommitFailedException, abortable.
#[test]
fn c3_send_offsets_answered_illegal_generation_throws_commit_failed_exception() {
    for tv in [1, 2] {
        let mut w = world(&format!("model transactions\ncluster transaction.version={tv}\npartition in-0 out-0\nproducer app transactional.id=t\nconsumer c read_committed group=g in-0\ninit app\nbegin app\nsend app out-0 x\nrebalance g\n"));
        let r = w.send_offsets("app", "c").unwrap();
        let CallResult::Thrown(t) = r else { panic!("TV{tv}: {r:?}") };
        assert_eq!(t, "CommitFailedException: Transaction offset Commit failed due to consumer group metadata mismatch: Specified group generation id is not valid.", "TV{tv}");
        assert_eq!(w.clients[0].state, ClientState::AbortableError, "TV{tv}");
    }
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
        let p = w.idem.cluster.partitions.iter().find(|p| p.name == "a-0").unwrap();
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

/// The `name` number after `"name":` in `text` replaced by `with(number)`, everywhere.
fn renumber(text: &str, name: &str, with: &dyn Fn(i64) -> String) -> String {
    let pat = format!("\"{name}\":");
    let mut out = String::new();
    let mut rest = text;
    while let Some(at) = rest.find(&pat) {
        let start = at + pat.len();
        out.push_str(&rest[..start]);
        let len = rest[start..].find(|c: char| c != '-' && !c.is_ascii_digit()).unwrap_or(rest.len() - start);
        out.push_str(&with(rest[start..start + len].parse().unwrap()));
        rest = &rest[start + len..];
    }
    out.push_str(rest);
    out
}

/// A record's `data` object as Kafka 4.3.1's `kafka-dump-log` printed it (`payload: {"version":"1","data":{…}}`)
/// or as the model's formatter prints it, with the numbers a run chooses (producer ids,
/// timestamps, offsets) made relative: what is left is every field, its presence and order,
/// its width, and the start timestamp being −1 or not.
fn normalized(data: &str, pid0: i64) -> String {
    let mut d = renumber(data, "producerId", &|v| format!("P+{}", v - pid0));
    d = renumber(&d, "previousProducerId", &|v| format!("P+{}", v - pid0));
    d = renumber(&d, "transactionLastUpdateTimestampMs", &|_| String::from("T"));
    d = renumber(&d, "transactionStartTimestampMs", &|v| String::from(if v < 0 { "-1" } else { "T" }));
    d = renumber(&d, "commitTimestamp", &|_| String::from("T"));
    renumber(&d, "offset", &|_| String::from("O"))
}

/// The records of a real broker's partition: (valueSize, normalized payload data) per record.
fn fixture_records(dir: &str) -> Vec<(usize, String)> {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/fixtures/kafka-4.3.1").join(dir).join("00000000000000000000.log.dump-log.txt");
    let text = std::fs::read_to_string(path).unwrap();
    let mut pid0 = None;
    text.lines()
        .filter_map(|l| {
            let size: usize = l.split("valueSize: ").nth(1)?.split(' ').next()?.parse().ok()?;
            let payload = l.split("payload: ").nth(1)?;
            let data = &payload[payload.find("\"data\":")? + 7..payload.len() - 1];
            let pid = *pid0.get_or_insert_with(|| data.split("\"producerId\":").nth(1).and_then(|s| s.split(',').next()).and_then(|s| s.parse::<i64>().ok()).unwrap_or(0));
            Some((size, normalized(data, pid)))
        })
        .collect()
}

/// The model's records of kind `kind`, the same way.
fn model_records(w: &World, kind: &str, topic: InternalTopic) -> Vec<(usize, String)> {
    let mut pid0 = None;
    w.records
        .iter()
        .filter(|r| r.kind == kind)
        .map(|r| {
            let rep = decode_bytes(&r.bytes, &DecodeOptions { formatter: Some(topic), ..Default::default() });
            let rec = &rep.batches[0].records[0];
            let f = rec.formatted.clone().unwrap();
            let v = &f[f.find("\"value\":").unwrap()..];
            let data = &v[v.find("\"data\":").unwrap() + 7..v.len() - 2];
            let pid = *pid0.get_or_insert_with(|| data.split("\"producerId\":").nth(1).and_then(|s| s.split(',').next()).and_then(|s| s.parse::<i64>().ok()).unwrap_or(0));
            (rec.value.as_ref().map_or(0, Vec::len), normalized(data, pid))
        })
        .collect()
}

/// Every internal record the model writes is what Kafka 4.3.1 writes (TransactionMetadata,
/// TransactionLog.valueToBytes, GroupCoordinatorRecordHelpers), field by field and size by size,
/// against a real broker's files (tests/fixtures/kafka-4.3.1, `make kafka-fixtures`): the
/// consume-transform-produce of `fx-ctp` (offsets added first, then the output partition; two
/// rounds). It pins PreviousProducerId (the producer id before the transition, written from
/// the first record on), ClientTransactionVersion (absent for the first Empty, 2 from the TV2
/// adds on), the partitions in Java's HashSet/HashMap order (`ctp-out` before
/// `__consumer_offsets`), transactionStartTimestampMs kept by CompleteCommit (it was −1), and
/// OffsetCommitValue version 4 (it was 3).
#[test]
fn internal_records_are_byte_for_byte_what_kafka_4_3_1_writes() {
    let w = world(
        "model transactions\npartition ctp-in-0 ctp-out-0\nproducer app transactional.id=fx-ctp\n\
         consumer c read_committed group=fx-ctp-group ctp-in-0\n\
         init app\nbegin app\nsend-offsets app c\nsend app ctp-out-0 A\ncommit app\ndeliver markers\n\
         begin app\nsend-offsets app c\nsend app ctp-out-0 B\ncommit app\ndeliver markers\n",
    );
    let txn = model_records(&w, "txn-log", InternalTopic::TransactionState);
    let kafka = fixture_records("__transaction_state-32");
    assert_eq!(txn.len(), kafka.len(), "model {txn:#?}\nkafka {kafka:#?}");
    for (k, (m, f)) in txn.iter().zip(&kafka).enumerate() {
        assert_eq!(m, f, "record {k} of __transaction_state");
    }
    let offsets = model_records(&w, "offset-commit", InternalTopic::ConsumerOffsets);
    let kafka = fixture_records("__consumer_offsets-10");
    assert_eq!(offsets.len(), kafka.len(), "model {offsets:#?}\nkafka {kafka:#?}");
    for (k, (m, f)) in offsets.iter().zip(&kafka).enumerate() {
        assert_eq!(m, f, "record {k} of __consumer_offsets");
    }
    // The group hashes to the broker's partition (50 partitions, as the fixture broker had).
    assert!(w.records.iter().any(|r| r.kind == "offset-commit" && r.partition == "__consumer_offsets-10"));
}

/// Java's HashSet/HashMap order of a transaction's partitions (`TransactionLog.valueToBytes`),
/// against the real broker's first record with two topics, and for one topic's partitions.
#[test]
fn transaction_partitions_are_written_in_javas_hash_order() {
    let w = world(
        "model transactions\npartition orders-0 orders-1 payments-0\nproducer app transactional.id=t\n\
         init app\nbegin app\nsend app payments-0 p\nsend app orders-1 b\nsend app orders-0 a\ncommit app\n",
    );
    let last = model_records(&w, "txn-log", InternalTopic::TransactionState).pop().unwrap().1;
    // The set's buckets ((h ^ h >>> 16) & 15 of 31·(31 + p) + topic.hashCode()): payments-0 4,
    // orders-0 9, orders-1 10, so orders-0 comes before orders-1 although it was added after
    // it; the topics' HashMap: "payments" bucket 7, "orders" bucket 10.
    assert!(last.contains(r#""transactionPartitions":[{"topic":"payments","partitionIds":[0]},{"topic":"orders","partitionIds":[0,1]}]"#), "{last}");
}

/// V6 (`ReplicaManager.appendRecordsWithTransactionVerification`, `maybeRetryOnConcurrentTransactions`,
/// Kafka 4.3): a TV2 leader whose implicit add is answered CONCURRENT_TRANSACTIONS (the
/// previous transaction's markers are still on their way) asks again every 20 ms
/// (add.partitions.to.txn.retry.backoff.ms) until 100 ms (add.partitions.to.txn.retry.backoff.max.ms)
/// have passed since its first try, and only then answers the producer 51.
#[test]
fn v6_the_tv2_leader_retries_concurrent_transactions_inside_its_100_ms_window() {
    let mut w = world("model transactions\npartition p-0\nproducer app transactional.id=t\ninit app\nbegin app\nsend app p-0 a\ncommit app\nbegin app\n");
    let (m0, t0) = (w.messages.len(), w.idem.cluster.now_ms);
    apply_line(&mut w, "send app p-0 b").unwrap();
    let new = &w.messages[m0..];
    let adds = new.iter().filter(|m| m.kind == "AddPartitionsToTxn").count();
    let retries: Vec<_> = new.iter().filter(|m| m.rule == Some("V6")).collect();
    assert_eq!(retries.len(), adds - 1, "every add but the last is followed by a V6 retry");
    assert!(adds >= 5, "20 ms apart within 100 ms: {adds} adds");
    assert!(w.idem.cluster.now_ms - t0 >= 100, "the window is spent before the answer: {} ms", w.idem.cluster.now_ms - t0);
    let answer = new.iter().rev().find(|m| m.kind == "response" && m.to.contains("producer")).unwrap();
    assert_eq!((answer.rule, answer.error), (Some("V5"), Some(eoslab_core::model::errors::ErrorCode(51))), "{}", answer.text);
    // Under TV1 the leader only verifies, once (no V6).
    let mut w1 = world("model transactions\ncluster transaction.version=1\npartition p-0\nproducer app transactional.id=t\ninit app\nbegin app\nsend app p-0 a\ncommit app\nbegin app\n");
    let m1 = w1.messages.len();
    apply_line(&mut w1, "send app p-0 b").unwrap();
    assert!(w1.messages[m1..].iter().all(|m| m.rule != Some("V6")));
}
