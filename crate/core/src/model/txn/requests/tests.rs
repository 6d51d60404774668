use super::*;
use crate::model::txn::ClusterConfig;

fn world() -> World {
    let mut w = World::new(1_700_000_000_000, 1000, ClusterConfig::default());
    w.add_partition("orders-0");
    w.add_partition("orders-1");
    w
}

fn send(w: &mut World, line: &str) -> Reply {
    let words: Vec<&str> = line.split_whitespace().collect();
    let (req, _, from) = parse_request(&words).unwrap();
    w.request(&req, from.as_deref().unwrap_or("client")).unwrap()
}

#[test]
fn i1_an_idempotent_init_producer_id_gets_a_fresh_id_at_epoch_0() {
    let mut w = world();
    let r = send(&mut w, "init-producer-id");
    assert_eq!((r.error.as_str(), r.rule, r.producer_id, r.producer_epoch), ("NONE", "I1", Some(1000), Some(0)));
    assert_eq!(send(&mut w, "init-producer-id").producer_id, Some(1001));
    assert!(w.coordinator.txns.is_empty(), "nothing persisted");
}

#[test]
fn i3_and_i10_and_kip360_through_requests() {
    let mut w = world();
    assert_eq!(send(&mut w, "init-producer-id transactional.id=app timeout=16m").error, "INVALID_TRANSACTION_TIMEOUT");
    let r = send(&mut w, "init-producer-id transactional.id=app");
    assert_eq!((r.rule, r.producer_id, r.producer_epoch), ("I10", Some(1000), Some(0)));
    // KIP-360: the current (pid, epoch) bumps; a stranger's pid is fenced (I7).
    let r = send(&mut w, "init-producer-id transactional.id=app pid=1000 epoch=0");
    assert_eq!((r.error.as_str(), r.producer_epoch), ("NONE", Some(1)));
    let r = send(&mut w, "init-producer-id transactional.id=app pid=77 epoch=0");
    assert_eq!((r.error.as_str(), r.rule), ("PRODUCER_FENCED", "I7"));
}

#[test]
fn a_raw_tv1_transaction_commits_and_its_markers_close_it() {
    let mut w = world();
    send(&mut w, "init-producer-id transactional.id=app");
    // TV1 Produce (v11) before the add: the leader's verification refuses it (V3 → 120).
    let r = send(&mut w, "produce orders-0 pid=1000 epoch=0 seq=0 txn transactional.id=app v=11 a");
    assert_eq!((r.error.as_str(), r.outcome.as_deref()), ("TRANSACTION_ABORTABLE", Some("rejected")));
    let r = send(&mut w, "add-partitions-to-txn transactional.id=app pid=1000 epoch=0 orders-0");
    assert_eq!((r.error.as_str(), r.rule), ("NONE", "AP8"));
    let r = send(&mut w, "add-partitions-to-txn transactional.id=app pid=1000 epoch=0 orders-0 verify-only");
    assert_eq!((r.error.as_str(), r.rule), ("NONE", "V3"));
    let r = send(&mut w, "produce orders-0 pid=1000 epoch=0 seq=0 txn transactional.id=app v=11 a b");
    assert_eq!((r.outcome.as_deref(), r.offsets), (Some("appended"), Some((0, 1))));
    // The same batch again: a duplicate with the original offsets (A1).
    let r = send(&mut w, "produce orders-0 pid=1000 epoch=0 seq=0 txn transactional.id=app v=11 a b");
    assert_eq!((r.outcome.as_deref(), r.offsets, r.rule), (Some("duplicate"), Some((0, 1)), "A1"));
    assert_eq!(send(&mut w, "list-offsets orders-0 read_committed").offset, Some(0));
    let r = send(&mut w, "end-txn transactional.id=app pid=1000 epoch=0 commit v=4");
    assert_eq!((r.error.as_str(), r.rule, r.producer_id), ("NONE", "E3", None));
    // A retried EndTxn while the markers are in flight: CONCURRENT_TRANSACTIONS.
    assert_eq!(send(&mut w, "end-txn transactional.id=app pid=1000 epoch=0 commit v=4").error, "CONCURRENT_TRANSACTIONS");
    w.deliver_markers(None).unwrap();
    assert_eq!(w.coordinator.get("app").unwrap().state, TxnState::CompleteCommit);
    let f = send(&mut w, "fetch orders-0 read_committed");
    assert_eq!((f.last_stable_offset, f.records.len(), f.aborted.as_deref()), (Some(3), 2, Some(&[][..])));
}

#[test]
fn a_transactional_batch_without_a_transactional_id_is_refused_53() {
    let mut w = world();
    let r = send(&mut w, "produce orders-0 pid=5 epoch=0 seq=0 txn a");
    assert_eq!((r.error_code, r.rule), (53, "C0g"));
    assert_eq!(w.idem.cluster.partitions[0].log_end_offset, 0);
}

#[test]
fn a_stale_marker_and_a_zombie_coordinator_are_refused_by_the_leader() {
    let mut w = world();
    send(&mut w, "produce orders-0 pid=7 epoch=3 seq=0 a");
    let r = send(&mut w, "marker orders-0 pid=7 epoch=2 abort tv=1");
    assert_eq!((r.error.as_str(), r.rule, r.outcome.as_deref()), ("INVALID_PRODUCER_EPOCH", "M1", Some("rejected")));
    let r = send(&mut w, "marker orders-0 pid=7 epoch=3 commit coordinator-epoch=5 tv=1");
    assert_eq!((r.error.as_str(), r.offsets), ("NONE", Some((1, 1))));
    let r = send(&mut w, "marker orders-0 pid=7 epoch=3 commit coordinator-epoch=4 tv=1");
    assert_eq!((r.error.as_str(), r.rule), ("TRANSACTION_COORDINATOR_FENCED", "M3"));
}

#[test]
fn fetch_read_committed_lists_the_aborted_transactions() {
    let mut w = world();
    send(&mut w, "init-producer-id transactional.id=app");
    send(&mut w, "produce orders-0 pid=1000 epoch=0 seq=0 txn transactional.id=app a b");
    send(&mut w, "end-txn transactional.id=app pid=1000 epoch=0 abort");
    w.deliver_markers(None).unwrap();
    let f = send(&mut w, "fetch orders-0 read_committed");
    assert_eq!((f.aborted.clone(), f.last_stable_offset, f.high_watermark), (Some(alloc::vec![(1000, 0)]), Some(3), Some(3)));
    assert_eq!(f.records.iter().map(|r| r.0).collect::<Vec<_>>(), [0, 1], "the client filters them (R1–R2)");
    assert_eq!(send(&mut w, "fetch orders-0 read_uncommitted").aborted, None);
    assert_eq!(send(&mut w, "fetch orders-0 from=9").error, "OFFSET_OUT_OF_RANGE");
}

#[test]
fn find_coordinator_uses_kafkas_abs_not_to_positive() {
    let mut w = world();
    let r = send(&mut w, "find-coordinator transaction my-txn");
    assert_eq!((r.coordinator_partition, r.hash, r.rule), (Some(45), Some(-1061187895), "H1"));
    assert_eq!(send(&mut w, "find-coordinator group polygenelubricants").coordinator_partition, Some(0));
}

fn raw(pid: i64, epoch: i16, seq: i32, n: usize, txn: bool) -> Vec<u8> {
    use crate::wire::write::{BatchWriter, Record};
    let values: Vec<String> = (0..n).map(|i| format!("v{i}")).collect();
    let writer = BatchWriter {
        producer_id: pid,
        producer_epoch: epoch,
        base_sequence: seq,
        attributes: crate::wire::batch::Attributes(if txn { crate::wire::batch::field::ATTR_TRANSACTIONAL } else { 0 }),
        base_timestamp: if n == 0 { crate::wire::batch::NO_TIMESTAMP } else { 0 },
        ..BatchWriter::default()
    };
    let records: Vec<Record<'_>> = values.iter().enumerate().map(|(i, v)| Record { offset_delta: i as i32, value: Some(v.as_bytes()), ..Record::default() }).collect();
    writer.write_v2(&records).unwrap()
}

fn state(pid: i64, epoch: i16, first: i32, last: i32, offset: Option<i64>) -> LeaderQuestion {
    LeaderQuestion { producer: Some(LeaderProducerState { producer_id: pid, epoch, first_sequence: first, last_sequence: last, base_offset: offset }), ..Default::default() }
}

fn ask(bytes: &[u8], q: &LeaderQuestion) -> (String, i16, &'static str, Option<(i64, i64)>, Option<usize>) {
    let r = send_to_leader(bytes, q).unwrap();
    assert!(!r.why.is_empty(), "every answer says why");
    (r.outcome.unwrap_or_default(), r.error_code, r.rule, r.offsets, r.byte_offset)
}

#[test]
fn send_to_leader_with_an_empty_state_accepts_any_sequence() {
    let b = raw(1000, 3, 7, 3, false);
    assert_eq!(ask(&b, &LeaderQuestion::default()), (String::from("appended"), 0, "A6", Some((0, 2)), None));
    let r = send_to_leader(&b, &LeaderQuestion::default()).unwrap();
    assert_eq!((r.api, r.error.as_str(), r.batch.as_deref()), ("Produce", "NONE", Some(crate::report::to_hex(&b).as_str())));
}

#[test]
fn send_to_leader_appends_the_next_sequence_a7_and_a_new_epoch_at_zero_a6() {
    assert_eq!(ask(&raw(1000, 0, 7, 3, false), &state(1000, 0, 3, 6, Some(20))), (String::from("appended"), 0, "A7", Some((24, 26)), None));
    assert_eq!(ask(&raw(1000, 1, 0, 2, false), &state(1000, 0, 3, 6, None)), (String::from("appended"), 0, "A6", Some((4, 5)), None));
}

#[test]
fn send_to_leader_answers_a_duplicate_with_the_original_offsets_a1() {
    let (outcome, code, rule, offsets, _) = ask(&raw(1000, 0, 7, 3, false), &state(1000, 0, 7, 9, Some(40)));
    assert_eq!((outcome.as_str(), code, rule, offsets), ("duplicate", 0, "A1", Some((40, 42))));
}

#[test]
fn send_to_leader_refuses_a_gap_a_stale_epoch_and_a_new_epoch_not_at_zero() {
    assert_eq!(ask(&raw(1000, 0, 7, 3, false), &state(1000, 0, 3, 4, None)), (String::from("rejected"), 45, "A7", None, None));
    assert_eq!(ask(&raw(1000, 1, 7, 3, false), &state(1000, 2, 3, 6, None)), (String::from("rejected"), 47, "A3", None, None));
    assert_eq!(ask(&raw(1000, 1, 7, 3, false), &state(1000, 0, 3, 6, None)), (String::from("rejected"), 45, "A6", None, None));
    // Another producer's state does not matter: this one is unknown.
    assert_eq!(ask(&raw(1000, 0, 7, 1, false), &state(5, 0, 0, 0, None)).2, "A6");
}

/// (The reply's outcome is `rejected` since 2026-12-05, as the Kafka run of
/// txn-request-refusals.eos showed; it was empty.)
#[test]
fn send_to_leader_refuses_a_transactional_batch_without_a_transactional_id_53() {
    assert_eq!(ask(&raw(1000, 0, 0, 2, true), &LeaderQuestion::default()), (String::from("rejected"), 53, "C0g", None, None));
    // With one, a TV2 leader asks the coordinator to add the partition; this one knows no
    // transaction for the id (V5).
    let q = LeaderQuestion { transactional_id: String::from("app"), ..Default::default() };
    let r = send_to_leader(&raw(1000, 0, 0, 2, true), &q).unwrap();
    assert_eq!((r.outcome.as_deref(), r.rule), (Some("rejected"), "V5"), "{}", r.why);
}

#[test]
fn send_to_leader_refuses_bytes_that_are_not_one_v2_batch_naming_the_byte() {
    let q = LeaderQuestion::default();
    let good = raw(1000, 0, 0, 2, false);
    let e = |bytes: &[u8]| {
        let r = send_to_leader(bytes, &q).unwrap();
        (r.error, r.rule, r.byte_offset, r.why)
    };
    let (err, rule, at, why) = e(b"hello");
    assert_eq!((err.as_str(), rule, at), ("INVALID_RECORD", "B0", Some(0)));
    assert!(why.starts_with("byte 0: Produce requests with version 12 must have at least one record batch"), "{why}");
    assert_eq!(e(&good[..good.len() - 1]).2, Some(8), "batchLength claims a byte that is not there");
    let mut magic = good.clone();
    magic[16] = 7;
    assert_eq!((e(&magic).0.as_str(), e(&magic).1, e(&magic).2), ("CORRUPT_MESSAGE", "B1", Some(16)));
    let mut v1 = good.clone();
    v1[16] = 1;
    assert_eq!((e(&v1).0.as_str(), e(&v1).2), ("INVALID_RECORD", Some(16)));
    let mut crc = good.clone();
    *crc.last_mut().unwrap() ^= 1;
    assert_eq!((e(&crc).0.as_str(), e(&crc).1, e(&crc).2), ("CORRUPT_MESSAGE", "B1", Some(17)));
    let mut small = good.clone();
    small[8..12].copy_from_slice(&3i32.to_be_bytes());
    assert_eq!((e(&small).0.as_str(), e(&small).2), ("CORRUPT_MESSAGE", Some(8)));
    let two = [good.clone(), good.clone()].concat();
    assert_eq!((e(&two).0.as_str(), e(&two).2), ("INVALID_RECORD", Some(good.len())));
    // A marker as the coordinator writes it is transactional: a request carrying it with
    // no transactionalId is refused as a whole first (RequestUtils.hasTransactionalRecords
    // tests the first batch's transactional bit, C0g).
    let marker = crate::wire::write::BatchWriter::end_txn_marker(1000, 0, crate::control::ControlType::Commit, 0, 0);
    assert_eq!((e(&marker).0.as_str(), e(&marker).1), ("TRANSACTIONAL_ID_AUTHORIZATION_FAILED", "C0g"));
    // A control batch without the transactional bit reaches the leader: B3.
    let (key, value) = (crate::control::key_bytes(crate::control::ControlType::Commit), crate::control::end_txn_marker_value(0));
    let control = crate::wire::write::BatchWriter {
        producer_id: 1000,
        producer_epoch: 0,
        attributes: crate::wire::batch::Attributes(crate::wire::batch::field::ATTR_CONTROL),
        base_timestamp: 0,
        ..Default::default()
    }
    .write_v2(&[crate::wire::write::Record { key: Some(&key), value: Some(&value), ..Default::default() }])
    .unwrap();
    assert_eq!((e(&control).0.as_str(), e(&control).1, e(&control).2), ("INVALID_RECORD", "B3", Some(21)));
    let mut stored = good.clone();
    stored[7] = 42;
    assert_eq!((e(&stored).0.as_str(), e(&stored).1, e(&stored).2), ("INVALID_RECORD", "B0", Some(0)));
    let rebased = send_to_leader(&stored, &LeaderQuestion { zero_base_offset: true, ..Default::default() }).unwrap();
    assert_eq!((rebased.outcome.as_deref(), rebased.offsets), (Some("appended"), Some((0, 1))));
    // Bytes after the batch that frame no batch are dropped by the log, not refused.
    let trailing = [good.clone(), alloc::vec![0u8; 5]].concat();
    let r = send_to_leader(&trailing, &q).unwrap();
    assert_eq!(r.outcome.as_deref(), Some("appended"));
    assert!(r.why.contains("trimInvalidBytes"), "{}", r.why);
}

#[test]
fn send_to_leader_never_panics_on_cut_or_changed_bytes() {
    let good = raw(1000, 0, 0, 3, true);
    let q = state(1000, 0, 0, 2, Some(9));
    for n in 0..=good.len() {
        send_to_leader(&good[..n], &q).unwrap();
    }
    for i in 0..good.len() {
        for x in [0x01u8, 0x80, 0xff] {
            let mut b = good.clone();
            b[i] ^= x;
            send_to_leader(&b, &q).unwrap();
            send_to_leader(&b, &LeaderQuestion { transactional_id: String::from("t"), ..Default::default() }).unwrap();
        }
    }
    assert!(send_to_leader(&good, &state(-1, 0, 0, 0, None)).is_err());
    assert!(send_to_leader(&good, &LeaderQuestion { version: Some(2), ..Default::default() }).is_err());
}

#[test]
fn produce_batch_hex_is_a_script_line() {
    let b = raw(1000, 0, 0, 2, false);
    let line = format!("produce orders-0 batch={} as p", crate::report::to_hex(&b));
    let words: Vec<&str> = line.split_whitespace().collect();
    let (req, label, _) = parse_request(&words).unwrap();
    assert_eq!(label.as_deref(), Some("p"));
    assert_eq!(req, Request::ProduceBytes { partition: String::from("orders-0"), bytes: b.clone(), transactional_id: String::new(), version: 12 });
    let again: Vec<String> = req.line().split_whitespace().map(String::from).collect();
    let again: Vec<&str> = again.iter().map(String::as_str).collect();
    assert_eq!(parse_request(&again).unwrap().0, req, "line() reads back");
    let mut w = world();
    let r = send(&mut w, &line);
    assert_eq!((r.outcome.as_deref(), r.offsets, r.rule), (Some("appended"), Some((0, 1)), "A6"));
    let r = send(&mut w, &line);
    assert_eq!((r.outcome.as_deref(), r.offsets, r.rule), (Some("duplicate"), Some((0, 1)), "A1"));
    assert!(parse_request(&["produce", "orders-0", "batch=0g"]).unwrap_err().contains("batch="));
    assert!(parse_request(&["produce", "orders-0", "batch=00", "seq=0"]).unwrap_err().contains("from the batch"));
}

#[test]
fn kafka_4_1_has_no_write_txn_markers_v2_and_checks_every_marker_by_m1() {
    use crate::model::line::KafkaLine;
    let mut w = World::new(1_700_000_000_000, 1000, ClusterConfig { kafka: KafkaLine::K41, ..ClusterConfig::default() });
    w.add_partition("orders-0");
    send(&mut w, "produce orders-0 pid=7 epoch=3 seq=0 a");
    let words: Vec<&str> = "marker orders-0 pid=7 epoch=3 commit tv=2".split_whitespace().collect();
    let (req, _, _) = parse_request(&words).unwrap();
    let e = w.request(&req, "client").unwrap_err();
    assert!(e.contains("WriteTxnMarkers v1 only") && e.contains("KIP-1228"), "{e}");
    // The same marker as v1: not older than the producer's epoch, so written (M1).
    let r = send(&mut w, "marker orders-0 pid=7 epoch=3 commit tv=1");
    assert_eq!((r.rule, r.error.as_str()), ("M1", "NONE"));
    // On 4.3 a v2 marker meets M2 instead (its retried-marker exception here: same epoch, no
    // transaction open, written again).
    let mut w = world();
    send(&mut w, "produce orders-0 pid=7 epoch=3 seq=0 a");
    send(&mut w, "marker orders-0 pid=7 epoch=3 commit tv=1");
    let r = send(&mut w, "marker orders-0 pid=7 epoch=3 abort tv=2");
    assert_eq!((r.rule, r.error.as_str(), r.outcome.as_deref()), ("M2", "NONE", Some("appended")));
}

/// A TV2 transaction of `app` (pid 1000, epoch 0) open on the coordinator.
fn open_tv2(w: &mut World) {
    send(w, "init-producer-id transactional.id=app");
    assert_eq!(send(w, "add-partitions-to-txn transactional.id=app pid=1000 epoch=0 orders-0 v=5").error, "NONE");
}

#[test]
fn ap8_add_offsets_to_txn_adds_the_groups_consumer_offsets_partition() {
    let mut w = world();
    send(&mut w, "init-producer-id transactional.id=app");
    let r = send(&mut w, "add-offsets-to-txn transactional.id=app pid=1000 epoch=0 group=g");
    assert_eq!((r.api, r.error.as_str(), r.rule), ("AddOffsetsToTxn", "NONE", "AP8"));
    let part = World::offsets_name("g");
    assert!(w.coordinator.get("app").unwrap().partitions.contains(part.as_str()), "{part} is in the transaction");
    // Again: already there, no write (AP7).
    assert_eq!(send(&mut w, "add-offsets-to-txn transactional.id=app pid=1000 epoch=0 group=g").rule, "AP7");
}

#[test]
fn ap5_add_offsets_to_txn_with_a_stale_epoch_is_fenced_and_v1_says_invalid_producer_epoch() {
    let mut w = world();
    send(&mut w, "init-producer-id transactional.id=app");
    send(&mut w, "init-producer-id transactional.id=app pid=1000 epoch=0");
    let r = send(&mut w, "add-offsets-to-txn transactional.id=app pid=1000 epoch=0 group=g");
    assert_eq!((r.error.as_str(), r.rule), ("PRODUCER_FENCED", "AP5"));
    assert_eq!(send(&mut w, "add-offsets-to-txn transactional.id=app pid=1000 epoch=0 group=g v=1").error, "INVALID_PRODUCER_EPOCH");
    // AP4: another producer id.
    assert_eq!(send(&mut w, "add-offsets-to-txn transactional.id=app pid=77 epoch=1 group=g").error, "INVALID_PRODUCER_ID_MAPPING");
}

#[test]
fn g4_txn_offset_commit_is_pending_until_the_commit_marker_and_g5_require_stable_sees_it() {
    let mut w = world();
    open_tv2(&mut w);
    let r = send(&mut w, "txn-offset-commit transactional.id=app pid=1000 epoch=0 group=g orders-0=3 orders-1=7");
    assert_eq!((r.api, r.error.as_str(), r.rule), ("TxnOffsetCommit", "NONE", "G4"));
    assert_eq!(r.partitions.len(), 2);
    // G3: v5 added the group's partition to the transaction.
    assert!(w.coordinator.get("app").unwrap().partitions.contains(World::offsets_name("g").as_str()));
    let f = send(&mut w, "offset-fetch group=g require-stable orders-0 orders-1");
    assert_eq!((f.error.as_str(), f.rule), ("UNSTABLE_OFFSET_COMMIT", "G5"));
    assert_eq!(f.partitions[0], (String::from("orders-0"), String::from("UNSTABLE_OFFSET_COMMIT"), None));
    // Without requireStable: the materialized offset, none yet.
    let f = send(&mut w, "offset-fetch group=g orders-0");
    assert_eq!((f.error.as_str(), f.offset), ("NONE", None));
    send(&mut w, "end-txn transactional.id=app pid=1000 epoch=0 commit");
    w.deliver_markers(None).unwrap();
    let f = send(&mut w, "offset-fetch group=g require-stable orders-0 orders-1");
    assert_eq!(f.partitions, [(String::from("orders-0"), String::from("NONE"), Some(3)), (String::from("orders-1"), String::from("NONE"), Some(7))]);
}

#[test]
fn g4_an_abort_marker_drops_the_pending_offsets() {
    let mut w = world();
    open_tv2(&mut w);
    send(&mut w, "txn-offset-commit transactional.id=app pid=1000 epoch=0 group=g orders-0=3");
    send(&mut w, "end-txn transactional.id=app pid=1000 epoch=0 abort");
    w.deliver_markers(None).unwrap();
    let f = send(&mut w, "offset-fetch group=g require-stable orders-0");
    assert_eq!((f.error.as_str(), f.offset), ("NONE", None));
    // The next transaction (epoch 1 after the TV2 bump) commits a second batch of offsets.
    send(&mut w, "txn-offset-commit transactional.id=app pid=1000 epoch=1 group=g orders-0=4");
    let r = send(&mut w, "txn-offset-commit transactional.id=app pid=1000 epoch=1 group=g orders-0=5");
    assert_eq!(r.error, "NONE", "a second commit in one transaction: {}", r.why);
    send(&mut w, "end-txn transactional.id=app pid=1000 epoch=1 commit");
    w.deliver_markers(None).unwrap();
    assert_eq!(send(&mut w, "offset-fetch group=g orders-0").offset, Some(5));
}

#[test]
fn g4_the_group_coordinator_writes_every_txn_offset_commit_at_sequence_0_without_duplicate_or_sequence_checks() {
    // `CoordinatorRuntime` builds each batch with base sequence 0, and the leader runs A1 and
    // A4–A7 for origin CLIENT only (A8): the same TxnOffsetCommit sent
    // twice is written twice, both at sequence 0, the second replacing the pending offset.
    let mut w = world();
    open_tv2(&mut w);
    let line = "txn-offset-commit transactional.id=app pid=1000 epoch=0 group=g orders-0=3 orders-1=7";
    let first = send(&mut w, line);
    let again = send(&mut w, line);
    assert_eq!((first.rule, again.rule, again.error.as_str()), ("G4", "G4", "NONE"));
    let n = World::offsets_partition("g");
    let log = &w.offsets_logs[&n];
    let batches: Vec<(i64, i32, i32)> = log.log.iter().map(|e| {
        let b = crate::batch::Batch::new_checked(&e.bytes[..]).unwrap();
        (e.base_offset, b.base_sequence(), b.last_sequence())
    }).collect();
    assert_eq!(batches, [(0, 0, 1), (2, 0, 1)], "both written, both at sequences 0..1");
    assert_eq!(log.producers[&1000].batches.len(), 2);
    assert_eq!(w.groups[0].pending.len(), 2, "one pending offset per partition, not per write: {:?}", w.groups[0].pending);
    // The epoch is still checked (A2/A3, `checkProducerEpoch`): scenario
    // txn-request-marker-refused's TxnOffsetCommit at epoch 0 after the bump is refused [A2].
    send(&mut w, "end-txn transactional.id=app pid=1000 epoch=0 commit");
    w.deliver_markers(None).unwrap();
    let stale = crate::model::txn::records_batch(1000, 0, 0, true, &[(b"k".to_vec(), b"v".to_vec())], 0);
    let log = w.offsets_logs.get_mut(&n).unwrap();
    assert_eq!(log.producers[&1000].producer_epoch, 1, "the TV2 marker bumped the epoch");
    let v = log.append_coordinator_verdict(&stale);
    assert_eq!((v.rule(), v.error()), ("A2", crate::model::errors::ErrorCode::INVALID_PRODUCER_EPOCH));
}

#[test]
fn g1_an_unknown_group_with_a_generation_is_illegal_generation_and_generation_minus_1_creates_it() {
    let mut w = world();
    open_tv2(&mut w);
    let r = send(&mut w, "txn-offset-commit transactional.id=app pid=1000 epoch=0 group=g generation=3 orders-0=3");
    assert_eq!((r.error.as_str(), r.rule), ("ILLEGAL_GENERATION", "G1"));
    assert!(w.groups.is_empty(), "no group was created");
    assert_eq!(send(&mut w, "txn-offset-commit transactional.id=app pid=1000 epoch=0 group=g orders-0=3").rule, "G4");
    assert_eq!((w.groups[0].generation, w.groups[0].members.len()), (0, 0), "an Empty simple group");
}

#[test]
fn g2_a_generation_on_an_empty_group_is_unknown_member_id() {
    let mut w = world();
    open_tv2(&mut w);
    send(&mut w, "txn-offset-commit transactional.id=app pid=1000 epoch=0 group=g orders-0=3");
    for line in [
        "txn-offset-commit transactional.id=app pid=1000 epoch=0 group=g generation=0 orders-0=4",
        "txn-offset-commit transactional.id=app pid=1000 epoch=0 group=g generation=0 member=m1 orders-0=4",
        "txn-offset-commit transactional.id=app pid=1000 epoch=0 group=g generation=0 group-instance-id=i1 orders-0=4",
    ] {
        let r = send(&mut w, line);
        assert_eq!((r.error.as_str(), r.rule), ("UNKNOWN_MEMBER_ID", "G2"), "{line}");
    }
    // Generation −1 on an Empty group is accepted before any member check
    // (ClassicGroup.validateOffsetCommit), whatever member id it names.
    let r = send(&mut w, "txn-offset-commit transactional.id=app pid=1000 epoch=0 group=g member=m1 orders-0=4");
    assert_eq!((r.error.as_str(), r.rule), ("NONE", "G4"));
}

#[test]
fn g2_a_members_stale_generation_is_illegal_generation() {
    let mut w = world();
    w.add_consumer("c", Isolation::ReadCommitted, Some("g"), alloc::vec![String::from("orders-0")]);
    open_tv2(&mut w);
    assert_eq!(send(&mut w, "txn-offset-commit transactional.id=app pid=1000 epoch=0 group=g generation=1 member=c orders-0=1").error, "NONE");
    w.rebalance("g").unwrap();
    let r = send(&mut w, "txn-offset-commit transactional.id=app pid=1000 epoch=0 group=g generation=1 member=c orders-0=2");
    assert_eq!((r.error.as_str(), r.rule), ("ILLEGAL_GENERATION", "G2"));
    // Generation −1 with no member on a group that has members: accepted (transactional).
    assert_eq!(send(&mut w, "txn-offset-commit transactional.id=app pid=1000 epoch=0 group=g orders-0=2").error, "NONE");
}

#[test]
fn g3_v4_verifies_the_partition_and_v5_adds_it_even_when_g1_refuses() {
    let mut w = world();
    open_tv2(&mut w);
    // v4 (TV1 client) without AddOffsetsToTxn: the partition is not in the transaction.
    let r = send(&mut w, "txn-offset-commit transactional.id=app pid=1000 epoch=0 group=g v=4 orders-0=3");
    assert_eq!((r.error.as_str(), r.rule), ("TRANSACTION_ABORTABLE", "G3"));
    send(&mut w, "add-offsets-to-txn transactional.id=app pid=1000 epoch=0 group=g");
    assert_eq!(send(&mut w, "txn-offset-commit transactional.id=app pid=1000 epoch=0 group=g v=4 orders-0=3").rule, "G4");
    // A fenced epoch: the coordinator's PRODUCER_FENCED to the v5 add comes back as
    // INVALID_PRODUCER_EPOCH (the leader's mapping, V5; Kafka 4.3.1 and 4.1.2).
    let r = send(&mut w, "txn-offset-commit transactional.id=app pid=1000 epoch=5 group=h orders-0=3");
    assert_eq!((r.error.as_str(), r.rule), ("INVALID_PRODUCER_EPOCH", "G3"));
    // v5: the add happens before the group check, so a refused commit still leaves the
    // partition in the transaction.
    let r = send(&mut w, "txn-offset-commit transactional.id=app pid=1000 epoch=0 group=k generation=2 orders-0=3");
    assert_eq!(r.error, "ILLEGAL_GENERATION");
    assert!(w.coordinator.get("app").unwrap().partitions.contains(World::offsets_name("k").as_str()));
}

#[test]
fn v1_a_commit_at_the_open_epoch_joins_the_completing_transaction_without_asking_the_coordinator() {
    let mut w = world();
    open_tv2(&mut w);
    send(&mut w, "txn-offset-commit transactional.id=app pid=1000 epoch=0 group=g orders-0=3");
    send(&mut w, "end-txn transactional.id=app pid=1000 epoch=0 commit");
    // PrepareCommit at epoch 1; __consumer_offsets still has producer 1000's transaction open
    // at epoch 0 (Kafka 4.3.1: NONE, and the COMMIT marker materializes it).
    let r = send(&mut w, "txn-offset-commit transactional.id=app pid=1000 epoch=0 group=g orders-0=4");
    assert_eq!((r.error.as_str(), r.rule), ("NONE", "G4"));
    let r = send(&mut w, "txn-offset-commit transactional.id=app pid=1000 epoch=1 group=g orders-0=5");
    assert_eq!((r.error.as_str(), r.rule), ("CONCURRENT_TRANSACTIONS", "G3"));
    w.deliver_markers(None).unwrap();
    assert_eq!(send(&mut w, "offset-fetch group=g require-stable orders-0").offset, Some(4));
}

#[test]
fn g3_a_v4_commit_while_the_transaction_completes_is_concurrent_transactions_as_the_coordinator_said() {
    let mut w = world();
    send(&mut w, "init-producer-id transactional.id=app");
    send(&mut w, "add-offsets-to-txn transactional.id=app pid=1000 epoch=0 group=g");
    send(&mut w, "end-txn transactional.id=app pid=1000 epoch=0 commit v=4");
    // AP3 for the add; the v4 verification's 51 is not turned into NOT_ENOUGH_REPLICAS
    // (that is ReplicaManager's, for a Produce): Kafka 4.3.1 and 4.1.2.
    assert_eq!(send(&mut w, "add-offsets-to-txn transactional.id=app pid=1000 epoch=0 group=h").rule, "AP3");
    let r = send(&mut w, "txn-offset-commit transactional.id=app pid=1000 epoch=0 group=h v=4 orders-0=1");
    assert_eq!((r.error.as_str(), r.rule), ("CONCURRENT_TRANSACTIONS", "G3"));
}

#[test]
fn g5_offset_fetch_of_an_unknown_group_has_no_offsets() {
    let mut w = world();
    let r = send(&mut w, "offset-fetch group=nobody require-stable orders-0");
    assert_eq!((r.error.as_str(), r.offset, r.rule), ("NONE", None, "G5"));
}

#[test]
fn group_request_lines_read_back() {
    for line in [
        "add-offsets-to-txn transactional.id=app pid=1000 epoch=0 group=g v=4",
        "txn-offset-commit transactional.id=app pid=1000 epoch=0 group=g generation=2 member=m group-instance-id=i v=5 orders-0=3 orders-1=4",
        "offset-fetch group=g require-stable orders-0 orders-1",
        "txn-offset-commit transactional.id=app pid=1000 epoch=0 group=g generation=-1 v=2 orders-0=3",
        "txn-offset-commit transactional.id=app pid=1000 epoch=0 group=g generation=1 member=m v=3 orders-0=3",
    ] {
        let words: Vec<&str> = line.split_whitespace().collect();
        let req = parse_request(&words).unwrap().0;
        assert_eq!(req.line(), line);
    }
    for (line, want) in [
        ("txn-offset-commit transactional.id=app pid=1 epoch=0 orders-0=1", "group=G"),
        ("txn-offset-commit transactional.id=app pid=1 epoch=0 group=g", "PART=OFFSET"),
        ("txn-offset-commit transactional.id=app pid=1 epoch=0 group=g v=6 orders-0=1", "0–5"),
        // v0–v2 carry no member fields (TxnOffsetCommitRequest.json: v3 adds them).
        ("txn-offset-commit transactional.id=app pid=1 epoch=0 group=g generation=2 v=2 orders-0=1", "v3 adds them"),
        ("txn-offset-commit transactional.id=app pid=1 epoch=0 group=g member=m v=1 orders-0=1", "v3 adds them"),
        ("add-offsets-to-txn transactional.id=app pid=1 epoch=0 group=g v=5", "0–4"),
        ("offset-fetch group=g", "partition"),
    ] {
        let words: Vec<&str> = line.split_whitespace().collect();
        let e = parse_request(&words).unwrap_err();
        assert!(e.contains(want), "{line}: {e}");
    }
}

#[test]
fn v1_with_verification_off_a_tv1_batch_is_appended_without_asking_the_coordinator() {
    let mut w = World::new(1_700_000_000_000, 1000, ClusterConfig { transaction_version: 1, verification_disabled: true, ..ClusterConfig::default() });
    w.add_partition("orders-0");
    send(&mut w, "init-producer-id transactional.id=app");
    // Never added to the transaction: with verification on this is V3's refusal.
    let r = send(&mut w, "produce orders-0 pid=1000 epoch=0 seq=0 txn transactional.id=app v=11 x");
    assert_eq!((r.error.as_str(), r.outcome.as_deref()), ("NONE", Some("appended")));
    assert!(w.messages.iter().any(|m| m.rule == Some("V1")), "the leader says it did not ask");
    assert!(w.coordinator.get("app").is_some_and(|m| m.partitions.is_empty()), "the coordinator knows nothing of it");
    assert_eq!(w.idem.cluster.partitions[0].last_stable_offset(), 0, "a transaction nobody will end holds the LSO");
    // A TV2 client's batch is still added by the leader (ADD_PARTITION does not depend on it).
    let mut w = World::new(1_700_000_000_000, 1001, ClusterConfig { verification_disabled: true, ..ClusterConfig::default() });
    w.add_partition("orders-0");
    send(&mut w, "init-producer-id transactional.id=b");
    send(&mut w, "produce orders-0 pid=1001 epoch=0 seq=0 txn transactional.id=b v=12 y");
    assert!(w.coordinator.get("b").is_some_and(|m| m.partitions.contains("orders-0")));
}

#[test]
fn t4_an_idle_transactional_id_expires_at_the_first_scan_after_its_expiration() {
    let cfg = ClusterConfig { transactional_id_expiration_ms: 10_000, transactional_id_expiration_interval_ms: 1_000, ..ClusterConfig::default() };
    let start = 1_700_000_000_000;
    let mut w = World::new(start, 1000, cfg);
    w.add_partition("orders-0");
    send(&mut w, "init-producer-id transactional.id=pay");
    send(&mut w, "init-producer-id transactional.id=busy");
    send(&mut w, "add-partitions-to-txn transactional.id=busy pid=1001 epoch=0 orders-0 v=4");
    let last_update = w.coordinator.get("pay").unwrap().last_update_ms;
    // Scans run at start + k·1 s; the first at or after last update + 10 s expires it.
    let due = start + (last_update - start + 10_000 + 999) / 1_000 * 1_000;
    w.advance(due - w.idem.cluster.now_ms - 1);
    assert!(w.coordinator.get("pay").is_some(), "one millisecond before its scan it is still there");
    w.advance(5_000);
    assert!(w.coordinator.get("pay").is_none(), "expired (T4)");
    // An Ongoing transaction never expires (its state does not allow it); it times out instead.
    assert_eq!(w.coordinator.get("busy").map(|m| m.state), Some(TxnState::Ongoing));
    // The tombstone: pay's key, a null value, the scan's timestamp, in pay's __transaction_state partition.
    let n = World::coordinator_partition("pay");
    let e = w.txn_logs[&n].log.last().unwrap();
    let rep = crate::decode::decode_bytes(&e.bytes, &Default::default());
    assert!(rep.errors.is_empty(), "{:?}", rep.errors);
    let b = &rep.batches[0];
    assert_eq!((b.header.base_timestamp, b.header.producer_id, b.records.len()), (due, -1, 1));
    assert_eq!(b.records[0].key.as_deref(), Some(&crate::internal::txn_log_key("pay")[..]));
    assert_eq!(b.records[0].value, None, "a tombstone");
    assert!(w.messages.iter().any(|m| m.rule == Some("T4")));
    // Its old producer id means nothing now (AP2); a new InitProducerId starts afresh.
    let r = send(&mut w, "add-partitions-to-txn transactional.id=pay pid=1000 epoch=0 orders-0 v=4");
    assert_eq!(r.error, "INVALID_PRODUCER_ID_MAPPING");
    let r = send(&mut w, "init-producer-id transactional.id=pay");
    assert_eq!((r.producer_id, r.producer_epoch), (Some(1002), Some(0)));
}

#[test]
fn bad_lines_say_what_is_missing() {
    for (line, want) in [
        ("end-txn transactional.id=app pid=1 epoch=0", "commit or abort"),
        ("produce orders-0 pid=1 epoch=0 a", "seq=S"),
        ("add-partitions-to-txn pid=1 epoch=0 orders-0", "transactional.id"),
        ("fetch", "needs a partition"),
        ("find-coordinator topic x", "usage"),
        ("init-producer-id pid=3", "both pid"),
    ] {
        let words: Vec<&str> = line.split_whitespace().collect();
        let e = parse_request(&words).unwrap_err();
        assert!(e.contains(want), "{line}: {e}");
    }
}

/// Found by the random request sequences against Kafka 4.3.1 (verification off, TV1): the v4
/// TxnOffsetCommit is not verified (V1), so a future epoch's offsets are written and move the
/// `__consumer_offsets` partition's producer epoch; the transaction's COMMIT marker at the old
/// epoch is then refused there (M1), the coordinator stops sending markers (K4) and the
/// transaction stays in PrepareCommit, its EndTxn retries and adds answered
/// CONCURRENT_TRANSACTIONS.
#[test]
fn k4_a_refused_marker_leaves_the_transaction_in_prepare_commit_and_v1_skips_v4_offset_verification() {
    let mut w = World::new(1_700_000_000_000, 1000, ClusterConfig { transaction_version: 1, verification_disabled: true, ..ClusterConfig::default() });
    w.add_partition("orders-0");
    send(&mut w, "init-producer-id transactional.id=app");
    assert_eq!(send(&mut w, "add-offsets-to-txn transactional.id=app pid=1000 epoch=0 group=g").error, "NONE");
    let r = send(&mut w, "txn-offset-commit transactional.id=app pid=1000 epoch=1 group=g v=4 orders-0=0");
    assert_eq!((r.error.as_str(), r.rule), ("NONE", "G4"), "not verified (V1): written at epoch 1");
    let r = send(&mut w, "txn-offset-commit transactional.id=app pid=1000 epoch=0 group=g v=4 orders-0=0");
    assert_eq!(r.error, "INVALID_PRODUCER_EPOCH", "the offsets partition's producer is at epoch 1 now");
    assert_eq!(send(&mut w, "end-txn transactional.id=app pid=1000 epoch=0 commit v=4").error, "NONE");
    w.deliver_markers(None).unwrap();
    let m = w.coordinator.get("app").unwrap();
    assert_eq!(m.state.name(), "PrepareCommit", "K4: no CompleteCommit after a refused marker");
    assert!(w.markers.is_empty(), "and no marker left to send");
    assert_eq!(send(&mut w, "add-partitions-to-txn transactional.id=app pid=1000 epoch=0 orders-0").error, "CONCURRENT_TRANSACTIONS");
}

/// KIP-588: a client below InitProducerId v4, EndTxn v2 or AddPartitionsToTxn v2 knows no
/// PRODUCER_FENCED, so the broker answers it INVALID_PRODUCER_EPOCH (KafkaApis, each handler's
/// `version < …` mapping); the decision and its rule are the same.
#[test]
fn kip588_older_versions_read_producer_fenced_as_invalid_producer_epoch() {
    let mut w = world();
    send(&mut w, "init-producer-id transactional.id=app");
    send(&mut w, "init-producer-id transactional.id=app");
    // epoch 0 is fenced now (the coordinator is at 1).
    for (line, want) in [
        ("init-producer-id transactional.id=app pid=77 epoch=0 v=3", "INVALID_PRODUCER_EPOCH"),
        ("init-producer-id transactional.id=app pid=77 epoch=0 v=4", "PRODUCER_FENCED"),
        ("init-producer-id transactional.id=app pid=77 epoch=0", "PRODUCER_FENCED"),
        ("add-partitions-to-txn transactional.id=app pid=1000 epoch=0 orders-0 v=1", "INVALID_PRODUCER_EPOCH"),
        ("add-partitions-to-txn transactional.id=app pid=1000 epoch=0 orders-0 v=2", "PRODUCER_FENCED"),
        ("end-txn transactional.id=app pid=1000 epoch=0 commit v=1", "INVALID_PRODUCER_EPOCH"),
        ("end-txn transactional.id=app pid=1000 epoch=0 commit v=2", "PRODUCER_FENCED"),
    ] {
        assert_eq!(send(&mut w, line).error, want, "{line}");
    }
    // The versions' fields: no KIP-360 ids before v3, no KIP-939 flags before v6, no v= where
    // the model reads none.
    for (line, says) in [
        ("init-producer-id transactional.id=app pid=1000 epoch=1 v=2", "v3+"),
        ("init-producer-id transactional.id=app keep-prepared v=5", "v6"),
        ("init-producer-id transactional.id=app v=7", "0–6"),
        ("fetch orders-0 v=4", "v= is not read for fetch"),
    ] {
        let words: Vec<&str> = line.split_whitespace().collect();
        let e = parse_request(&words).unwrap_err();
        assert!(e.contains(says), "{line}: {e}");
    }
}

/// I13: InitProducerId v6's keepPreparedTxn (KIP-939) is declared OUTSIDE_MODEL, as the Java
/// client's two-phase commit is: the answer names it, nothing changes.
#[test]
fn i13_keep_prepared_txn_is_outside_the_model() {
    let mut w = world();
    let r = send(&mut w, "init-producer-id transactional.id=app keep-prepared");
    assert_eq!((r.error.as_str(), r.rule), ("OUTSIDE_MODEL", "I13"));
    assert!(w.outside_model.is_some());
    assert!(w.coordinator.txns.is_empty(), "nothing written");
    let words: Vec<&str> = "init-producer-id transactional.id=app keep-prepared v=6".split_whitespace().collect();
    let (req, _, _) = parse_request(&words).unwrap();
    assert_eq!(req.line(), "init-producer-id transactional.id=app timeout=60000ms keep-prepared v=6");
}

/// One WriteTxnMarkers request for several partitions: each partition's leader decides its
/// marker, and the answer carries one error (and the marker's offset) per partition.
#[test]
fn a_marker_request_for_two_partitions_is_answered_per_partition() {
    let mut w = world();
    send(&mut w, "init-producer-id transactional.id=app");
    send(&mut w, "add-partitions-to-txn transactional.id=app pid=1000 epoch=0 orders-0 orders-1 v=3");
    send(&mut w, "produce orders-0 pid=1000 epoch=0 seq=0 txn transactional.id=app v=11 a");
    // orders-1 holds producer 1000 at epoch 1 (another writer bumped it there): M1 refuses epoch 0.
    send(&mut w, "produce orders-1 pid=1000 epoch=1 seq=0 b");
    let r = send(&mut w, "marker orders-0 orders-1 pid=1000 epoch=0 commit coordinator-epoch=0 tv=1");
    let parts: Vec<(&str, &str, Option<i64>)> = r.partitions.iter().map(|(p, e, o)| (p.as_str(), e.as_str(), *o)).collect();
    assert_eq!(parts, [("orders-0", "NONE", Some(1)), ("orders-1", "INVALID_PRODUCER_EPOCH", None)]);
    assert_eq!((r.error.as_str(), r.rule), ("INVALID_PRODUCER_EPOCH", "M1"));
    assert_eq!(r.check(&["error", "orders-0", "NONE"]), None);
    assert_eq!(r.check(&["offset", "orders-0", "1"]), None);
    let words: Vec<&str> = "marker orders-0 orders-0 pid=1 epoch=0 commit".split_whitespace().collect();
    assert!(parse_request(&words).unwrap_err().contains("named twice"));
}

/// The coordinator refuses an empty (not null) transactional.id as INVALID_REQUEST on every
/// request (I2, AP1, E0, F0), and the line keeps it as `""`.
#[test]
fn an_empty_transactional_id_is_an_invalid_request_everywhere() {
    let mut w = world();
    for (line, rule) in [
        ("add-partitions-to-txn transactional.id=\"\" pid=1000 epoch=0 orders-0 v=3", "AP1"),
        ("add-offsets-to-txn transactional.id=\"\" pid=1000 epoch=0 group=g", "AP1"),
        ("end-txn transactional.id=\"\" pid=1000 epoch=0 commit v=4", "E0"),
        ("end-txn transactional.id=\"\" pid=1000 epoch=0 commit v=5", "F0"),
    ] {
        let r = send(&mut w, line);
        assert_eq!((r.error.as_str(), r.rule), ("INVALID_REQUEST", rule), "{line}");
        let words: Vec<&str> = line.split_whitespace().collect();
        let (req, _, _) = parse_request(&words).unwrap();
        assert!(req.line().contains("transactional.id=\"\""), "{}", req.line());
    }
    assert!(w.coordinator.txns.is_empty());
}
