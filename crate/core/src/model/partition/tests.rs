//! One test per rule of the catalogue's partition-leader families, each named for the Kafka behaviour it pins.
use super::*;
use crate::wire::write::{BatchWriter, Record};
use alloc::vec;

fn batch(pid: i64, epoch: i16, seq: i32, n: usize, ts: i64) -> Vec<u8> {
    batch_txn(pid, epoch, seq, n, ts, false)
}

/// `n` records "r0", "r1", … at `ts`, written as a client writes them.
fn batch_txn(pid: i64, epoch: i16, seq: i32, n: usize, ts: i64, txn: bool) -> Vec<u8> {
    let values: Vec<String> = (0..n).map(|i| format!("r{i}")).collect();
    let writer = BatchWriter::producer(pid, epoch, seq, txn, if n == 0 { crate::wire::batch::NO_TIMESTAMP } else { ts });
    let records: Vec<Record<'_>> = values.iter().enumerate().map(|(i, v)| Record { offset_delta: i as i32, value: Some(v.as_bytes()), ..Record::default() }).collect();
    writer.write_v2(&records).unwrap()
}

fn appended(d: &Decision) -> (i64, i64) {
    match d.outcome {
        Outcome::Appended { base_offset, last_offset } => (base_offset, last_offset),
        ref o => panic!("expected an append, got {o:?}: {}", d.why),
    }
}

#[test]
fn a0_non_idempotent_batches_are_appended_without_checks_even_when_retried() {
    let mut p = Partition::new("t-0");
    let b = batch(-1, -1, -1, 1, 0);
    assert_eq!(appended(&p.append_client(&b)), (0, 0));
    assert_eq!(appended(&p.append_client(&b)), (1, 1), "no producer id: a retry is written again");
}

#[test]
fn a1_duplicate_is_answered_none_with_the_original_offsets_and_nothing_written() {
    let mut p = Partition::new("t-0");
    p.append_client(&batch(7, 0, 0, 2, 0));
    p.append_client(&batch(7, 0, 2, 1, 0));
    let d = p.append_client(&batch(7, 0, 0, 2, 0));
    assert_eq!((d.rule, d.error()), ("A1", ErrorCode::NONE));
    assert_eq!(d.outcome, Outcome::Duplicate { base_offset: 0, last_offset: 1 });
    assert_eq!(p.log_end_offset, 3);
}

#[test]
fn a1_the_window_holds_five_batches_not_records() {
    let mut p = Partition::new("t-0");
    let mut seq = 0;
    for _ in 0..6 {
        p.append_client(&batch(7, 0, seq, 3, 0));
        seq += 3;
    }
    assert_eq!(p.producers[&7].batches.len(), NUM_BATCHES_TO_RETAIN);
    // The second batch (seq 3..5) is still retained; the first (0..2) fell out.
    assert_eq!(p.append_client(&batch(7, 0, 3, 3, 0)).rule, "A1");
    let d = p.append_client(&batch(7, 0, 0, 3, 0));
    assert_eq!((d.rule, d.error()), ("A7", ErrorCode::OUT_OF_ORDER_SEQUENCE_NUMBER));
}

#[test]
fn a1_a_retry_that_matches_only_the_first_sequence_is_not_a_duplicate() {
    let mut p = Partition::new("t-0");
    p.append_client(&batch(7, 0, 0, 2, 0));
    let d = p.append_client(&batch(7, 0, 0, 1, 0));
    assert_eq!(d.error(), ErrorCode::OUT_OF_ORDER_SEQUENCE_NUMBER);
}

#[test]
fn a3_a_stale_epoch_is_invalid_producer_epoch_47_not_producer_fenced() {
    let mut p = Partition::new("t-0");
    p.append_client(&batch(7, 3, 0, 1, 0));
    let d = p.append_client(&batch(7, 2, 1, 1, 0));
    assert_eq!((d.rule, d.error(), d.error().0), ("A3", ErrorCode::INVALID_PRODUCER_EPOCH, 47));
}

#[test]
fn a2_a_stale_transactional_batch_is_refused_before_sequence_checks() {
    let mut p = Partition::new("t-0");
    p.append_client(&batch(7, 3, 0, 1, 0));
    let d = p.append_client(&batch_txn(7, 2, 1, 1, 0, true));
    assert_eq!((d.rule, d.error()), ("A2", ErrorCode::INVALID_PRODUCER_EPOCH));
}

#[test]
fn a6_a_new_epoch_must_start_at_sequence_zero() {
    let mut p = Partition::new("t-0");
    p.append_client(&batch(7, 0, 0, 1, 0));
    let d = p.append_client(&batch(7, 1, 5, 1, 0));
    assert_eq!((d.rule, d.error()), ("A6", ErrorCode::OUT_OF_ORDER_SEQUENCE_NUMBER));
    let ok = p.append_client(&batch(7, 1, 0, 1, 0));
    assert_eq!((ok.rule, appended(&ok)), ("A6", (1, 1)));
    assert_eq!(p.producers[&7].batches.len(), 1, "an epoch change clears the retained batches");
    assert_eq!(p.producers[&7].producer_epoch, 1);
}

#[test]
fn a4_a_tv2_verified_first_batch_must_start_at_sequence_zero() {
    // KAFKA-18202 (4.1+): only for a batch that went through TV2 verification, and only
    // while the producer has no retained batch here.
    let mut p = Partition::new("p-0");
    let d = p.append_client_verified(&batch_txn(7, 0, 3, 1, 0, true), true);
    assert_eq!((d.rule(), d.error(), d.error().0), ("A4", ErrorCode::OUT_OF_ORDER_SEQUENCE_NUMBER, 45));
    assert_eq!(p.log_end_offset, 0);
    assert!(d.why("p-0").contains("Expected sequence 0 for transactions v2"));
    // The same batch without TV2 verification (a TV1 Produce v11): any sequence (A6).
    assert_eq!(p.append_client_verified(&batch_txn(7, 0, 3, 1, 0, true), false).rule(), "A6");
    // Retained batches: A4 no longer applies, A7 does.
    let mut q = Partition::new("p-0");
    assert_eq!(q.append_client_verified(&batch_txn(8, 0, 0, 1, 0, true), true).rule(), "A6");
    assert_eq!(q.append_client_verified(&batch_txn(8, 0, 1, 1, 0, true), true).rule(), "A7");
}

#[test]
fn a6_an_unknown_producer_is_accepted_at_any_sequence_kip_360() {
    let mut p = Partition::new("t-0");
    let d = p.append_client(&batch(9, 4, 1234, 1, 0));
    assert_eq!((d.rule, appended(&d)), ("A6", (0, 0)));
}

#[test]
fn a7_a_gap_is_out_of_order_sequence_45() {
    let mut p = Partition::new("t-0");
    p.append_client(&batch(7, 0, 0, 1, 0));
    let d = p.append_client(&batch(7, 0, 2, 1, 0));
    assert_eq!((d.rule, d.error(), d.error().0), ("A7", ErrorCode::OUT_OF_ORDER_SEQUENCE_NUMBER, 45));
    assert_eq!(p.log_end_offset, 1, "nothing written");
}

#[test]
fn a7_sequences_wrap_from_int_max_to_zero() {
    let mut p = Partition::new("t-0");
    let d = p.append_client(&batch(7, 0, i32::MAX - 1, 3, 0));
    assert_eq!(appended(&d), (0, 2));
    assert_eq!(p.producers[&7].last_seq(), 0, "2147483646, 2147483647, 0");
    assert_eq!(appended(&p.append_client(&batch(7, 0, 1, 1, 0))), (3, 3));
}

#[test]
fn a9_a_plain_write_while_a_transaction_is_open_is_invalid_txn_state_48() {
    let mut p = Partition::new("t-0");
    let t = p.append_client(&batch_txn(7, 0, 0, 1, 0, true));
    assert_eq!(appended(&t), (0, 0));
    assert_eq!(p.producers[&7].current_txn_first_offset, Some(0), "A10: the first transactional batch opens the txn");
    let d = p.append_client(&batch(7, 0, 1, 1, 0));
    assert_eq!((d.rule, d.error()), ("A9", ErrorCode::INVALID_TXN_STATE));
}

#[test]
fn x1_producer_state_expires_by_record_timestamp_but_never_with_an_open_txn() {
    let mut p = Partition::new("t-0");
    p.append_client(&batch(7, 0, 0, 1, 1_000));
    p.append_client(&batch_txn(8, 0, 0, 1, 1_000, true));
    assert_eq!(p.remove_expired_producers(1_000 + DEFAULT_PRODUCER_ID_EXPIRATION_MS - 1), Vec::<i64>::new());
    assert_eq!(p.remove_expired_producers(1_000 + DEFAULT_PRODUCER_ID_EXPIRATION_MS), vec![7]);
    assert_eq!(p.producer_count(), 1);
    // X2: the forgotten producer's retry is written again, and the decision says why.
    let again = p.append_client(&batch(7, 0, 0, 1, 1_000));
    assert_eq!((again.rule, appended(&again)), ("X2", (2, 2)));
    // Known again: its next batch is in sequence (A7), and a never-seen producer is A6.
    assert_eq!(p.append_client(&batch(7, 0, 1, 1, 1_000)).rule, "A7");
    assert_eq!(p.append_client(&batch(9, 0, 5, 1, 1_000)).rule, "A6");
}

#[test]
fn b_client_batches_are_validated_first() {
    let mut p = Partition::new("t-0");
    let mut b = batch(7, 0, 0, 1, 0);
    b[7] = 1; // baseOffset 1
    assert_eq!((p.append_client(&b).rule, p.append_client(&b).error()), ("B0", ErrorCode::INVALID_RECORD));
    let mut c = batch(7, 0, 0, 1, 0);
    let last = c.len() - 1;
    c[last] ^= 1;
    assert_eq!((p.append_client(&c).rule, p.append_client(&c).error()), ("B1", ErrorCode::CORRUPT_MESSAGE));
    let d = p.append_client(&batch(7, 0, -1, 1, 0));
    assert_eq!((d.rule, d.error()), ("B4", ErrorCode::INVALID_RECORD));
    let marker = BatchWriter::end_txn_marker(7, 0, crate::control::ControlType::Commit, 0, 0);
    assert_eq!(p.append_client(&marker).rule, "B3");
    let plain = p.append_client(&batch(-1, -1, -1, 2, 0));
    assert_eq!((plain.rule, appended(&plain)), ("B5", (0, 1)), "no producer id: appended without producer-state checks");
    for (old, new) in [("V0", "B0"), ("V1", "B1"), ("V2", "B2"), ("V3", "B3"), ("V4", "B4"), ("A0", "B5"), ("L1", "N1"), ("L2", "N2"), ("A7", "A7")] {
        assert_eq!(super::super::verdict::legacy_rule_id(old), new);
    }
}

#[test]
fn a_seeded_producer_state_answers_as_if_its_last_batch_had_been_appended() {
    // Seeded: producer 7 at epoch 2, last batch sequences 5..7 at offsets 10..12.
    let mut p = Partition::new("t-0");
    p.seed_producer(7, 2, 5, 7, 10, 0, None).unwrap();
    assert_eq!((p.log_end_offset, p.producers[&7].last_seq()), (13, 7));
    let d = p.append_client(&batch(7, 2, 5, 3, 0));
    assert_eq!((d.rule, d.outcome.clone()), ("A1", Outcome::Duplicate { base_offset: 10, last_offset: 12 }));
    assert_eq!(p.append_client(&batch(7, 2, 9, 1, 0)).error(), ErrorCode::OUT_OF_ORDER_SEQUENCE_NUMBER);
    assert_eq!(p.append_client(&batch(7, 1, 8, 1, 0)).rule, "A3");
    let ok = p.append_client(&batch(7, 2, 8, 2, 0));
    assert_eq!((ok.rule, appended(&ok)), ("A7", (13, 14)));
    // Sequences wrap: 2147483646..0 is three records.
    let mut q = Partition::new("t-1");
    q.seed_producer(8, 0, i32::MAX - 1, 0, 0, 0, None).unwrap();
    assert_eq!((q.log_end_offset, q.producers[&8].batches[0].first_seq()), (3, i32::MAX - 1));
    assert_eq!(q.append_client(&batch(8, 0, 1, 1, 0)).rule, "A7");
    assert!(q.seed_producer(-1, 0, 0, 0, 0, 0, None).is_err());
    assert!(q.seed_producer(1, -1, 0, 0, 0, 0, None).is_err());
    assert!(q.seed_producer(1, 0, -2, 0, 0, 0, None).is_err());
    assert!(q.seed_producer(1, 0, 0, 0, i64::MAX, 0, None).is_err());
}

fn values(c: &[Consumed]) -> Vec<(i64, String)> {
    c.iter().map(|r| (r.offset, String::from_utf8(r.value.clone().unwrap_or_default()).unwrap())).collect()
}

#[test]
fn l2_read_committed_stops_at_the_first_open_transaction() {
    let mut p = Partition::new("t-0");
    p.append_client(&batch(1, 0, 0, 1, 0)); // offset 0, plain idempotent
    p.append_client(&batch_txn(7, 0, 0, 2, 0, true)); // 1..2, open txn
    p.append_client(&batch(2, 0, 0, 1, 0)); // 3, committed-by-nature
    assert_eq!((p.high_watermark(), p.last_stable_offset()), (4, 1));
    assert_eq!(values(&p.fetch(Isolation::ReadCommitted, 0)), vec![(0, "r0".into())], "head-of-line blocked");
    assert_eq!(p.fetch(Isolation::ReadUncommitted, 0).len(), 4, "read_uncommitted sees the open txn");
    let d = p.append_marker(7, 0, true, 0, MarkerVersion::Tv1, 0);
    assert_eq!((d.rule, p.last_stable_offset()), ("M4", 5));
    let seen = values(&p.fetch(Isolation::ReadCommitted, 0));
    assert_eq!(seen.iter().map(|v| v.0).collect::<Vec<_>>(), vec![0, 1, 2, 3], "the marker at offset 4 is never returned (R3)");
}

#[test]
fn m6_aborted_records_are_filtered_for_read_committed_leaving_offset_gaps() {
    let mut p = Partition::new("t-0");
    p.append_client(&batch_txn(7, 0, 0, 2, 0, true)); // 0..1 aborted later
    p.append_client(&batch(2, 0, 0, 1, 0)); // 2
    p.append_marker(7, 0, false, 0, MarkerVersion::Tv1, 0); // 3
    p.append_client(&batch(2, 0, 1, 1, 0)); // 4
    assert_eq!(p.aborted_txns, vec![AbortedTxn { producer_id: 7, first_offset: 0, last_offset: 3, last_stable_offset: 4 }]);
    let rc: Vec<i64> = p.fetch(Isolation::ReadCommitted, 0).iter().map(|c| c.offset).collect();
    assert_eq!(rc, vec![2, 4], "aborted 0..1 filtered, marker 3 skipped: gaps in offsets (R5)");
    let ru: Vec<i64> = p.fetch(Isolation::ReadUncommitted, 0).iter().map(|c| c.offset).collect();
    assert_eq!(ru, vec![0, 1, 2, 4], "read_uncommitted returns aborted data (R4)");
}

#[test]
fn m1_m2_m3_markers_are_fenced_by_producer_and_coordinator_epochs() {
    let mut p = Partition::new("t-0");
    p.append_client(&batch_txn(7, 3, 0, 1, 0, true));
    assert_eq!(p.append_marker(7, 2, true, 5, MarkerVersion::Tv1, 0).rule, "M1");
    assert_eq!(p.append_marker(7, 3, true, 5, MarkerVersion::Tv2, 0).rule, "M2", "TV2 markers carry the bumped epoch");
    assert_eq!(p.append_marker(7, 4, true, 5, MarkerVersion::Tv2, 0).rule, "M4");
    let d = p.append_marker(7, 5, false, 4, MarkerVersion::Tv2, 0);
    assert_eq!((d.rule, d.error()), ("M3", ErrorCode::TRANSACTION_COORDINATOR_FENCED));
    // The marker is a real control batch with the coordinator epoch.
    let r = crate::decode::decode_bytes(&p.log[1].bytes, &Default::default());
    let c = r.batches[0].control.as_ref().unwrap();
    assert_eq!((c.type_name.as_str(), c.coordinator_epoch, r.batches[0].header.producer_epoch), ("COMMIT", Some(5), 4));
}

#[test]
fn m2_a_tv2_marker_retried_at_the_same_epoch_is_written_again_once_the_transaction_is_closed() {
    // Kafka 4.3.1 ProducerAppendInfo.checkProducerEpoch: with transaction version 2 the
    // marker epoch must be above the producer's, but the same epoch is accepted when no
    // transaction is open here (a retried marker, KAFKA-19999) or at Short.MAX_VALUE.
    // Found by tests/kafka's random request sequences against a 4.3.1 broker.
    let mut p = Partition::new("t-0");
    p.append_client(&batch_txn(7, 3, 0, 1, 0, true));
    assert_eq!(p.append_marker(7, 3, true, 5, MarkerVersion::Tv2, 0).rule, "M2", "open: the epoch must be bumped");
    assert_eq!(p.append_marker(7, 4, true, 5, MarkerVersion::Tv2, 0).rule, "M4");
    let again = p.append_marker(7, 4, true, 5, MarkerVersion::Tv2, 0);
    assert_eq!((again.rule, again.error()), ("M2", ErrorCode::NONE), "the retry is written again, by M2's exception");
    assert_eq!(p.log.len(), 3);
    assert_eq!(p.append_marker(7, 3, true, 5, MarkerVersion::Tv2, 0).rule, "M2", "an older epoch is still fenced");
    // The marker cleared the retained batches: the next batch at epoch 4 starts at 0 (A7),
    // and its sentence says why (not "0 follows 2147483647", which is a real wrap).
    let next = p.append_client(&batch_txn(7, 4, 0, 1, 0, true));
    assert_eq!(next.rule, "A7");
    assert!(next.why.starts_with("sequence 0 starts this epoch here"), "{}", next.why);
    // At the epoch's maximum the same epoch is accepted even with a transaction open.
    let mut q = Partition::new("t-1");
    q.append_client(&batch_txn(8, i16::MAX, 0, 1, 0, true));
    assert_eq!(q.append_marker(8, i16::MAX, true, 0, MarkerVersion::Tv2, 0).rule, "M4");
}

#[test]
fn stored_batches_carry_the_assigned_offset_and_keep_their_crc() {
    let mut p = Partition::new("t-0");
    p.leader_epoch = 4;
    p.append_client(&batch(-1, -1, -1, 2, 0));
    p.append_client(&batch(-1, -1, -1, 1, 0));
    let r = crate::decode::decode_bytes(&p.log[1].bytes, &Default::default());
    assert!(r.is_clean());
    assert_eq!((r.batches[0].header.base_offset, r.batches[0].header.partition_leader_epoch), (2, 4));
    assert!(r.batches[0].header.crc_valid);
}

#[test]
fn a5_a_verification_entry_refuses_any_batch_above_its_lowest_sequence_until_a_transactional_append_clears_it() {
    // Kafka 4.3.1 (ProducerAppendInfo.checkSequence, "earliest seen sequence"): a TV2 batch at
    // epoch 1 starts a verification the coordinator refuses; the entry stays, so the producer's
    // next batch at epoch 0, joining the transaction already open here at sequence 1, is
    // OUT_OF_ORDER_SEQUENCE_NUMBER — found by the random request sequences against a real broker.
    let mut p = Partition::new("t-0");
    assert_eq!(appended(&p.append_client(&batch_txn(7, 0, 0, 1, 0, true))), (0, 0));
    p.start_verification(7, 0, 1, true, 0); // the refused epoch-1 batch's verification (V2)
    let d = p.append_client(&batch_txn(7, 0, 1, 1, 0, true));
    assert_eq!((d.rule, d.error()), ("A5", ErrorCode::OUT_OF_ORDER_SEQUENCE_NUMBER), "{}", d.why);
    assert!(d.why.contains("1 (incoming seq. number), 0 (earliest seen sequence)"), "{}", d.why);
    // Lower or equal to the lowest sequence passes A5 (here: a duplicate of the open batch).
    assert!(matches!(p.append_client(&batch_txn(7, 0, 0, 1, 0, true)).outcome, Outcome::Duplicate { .. }));
    // A marker clears it (not a TV2 marker at the entry's own epoch: that keeps it).
    let mut q = p.clone();
    q.append_marker(7, 1, false, 0, MarkerVersion::Tv2, 0);
    assert!(q.verifications.contains_key(&7), "a TV2 marker at the entry's epoch keeps it (the next transaction started)");
    p.append_marker(7, 0, false, 0, MarkerVersion::Tv1, 0);
    assert!(p.verifications.is_empty());
    assert_eq!(appended(&p.append_client(&batch_txn(7, 0, 1, 1, 0, true))), (2, 2));
    // A higher epoch resets the lowest sequence; the same epoch only lowers it.
    p.start_verification(9, 4, 0, false, 0);
    p.start_verification(9, 6, 0, false, 0);
    p.start_verification(9, 2, 0, false, 0);
    assert_eq!(p.verifications[&9].lowest_seq, 2);
    p.start_verification(9, 5, 1, false, 0);
    assert_eq!((p.verifications[&9].lowest_seq, p.verifications[&9].epoch), (5, 1));
}

#[test]
fn l4_a_read_committed_fetch_lists_aborted_transactions_up_to_the_offset_index_bound_and_none_at_the_lso() {
    // LocalLog.addAbortedTransactions: on a log with no offset-index entry the bound is the log
    // end, so aborted transactions past the returned data are listed too; from the LSO nothing
    // is read and the list is empty (emptyFetchDataInfo).
    let mut p = Partition::new("t-0");
    appended(&p.append_client(&batch_txn(1, 0, 0, 1, 0, true))); // 0: producer 1, aborted below
    p.append_marker(1, 0, false, 0, MarkerVersion::Tv1, 0); // 1
    appended(&p.append_client(&batch_txn(2, 0, 0, 1, 0, true))); // 2: producer 2, open
    appended(&p.append_client(&batch_txn(1, 0, 1, 1, 0, true))); // 3: producer 1 again
    p.append_marker(1, 0, false, 0, MarkerVersion::Tv1, 0); // 4
    assert_eq!(p.last_stable_offset(), 2);
    let (_, aborted) = p.fetch_bounds(Isolation::ReadCommitted, 0);
    assert_eq!(aborted.iter().map(|a| a.first_offset).collect::<Vec<_>>(), [0, 3], "the second abort is past the data (offsets 0–1) and listed");
    assert!(p.fetch_bounds(Isolation::ReadCommitted, 2).1.is_empty(), "from the LSO: nothing read, nothing listed");
}

#[test]
fn l4_aborted_transactions_are_answered_in_the_order_they_were_aborted_and_a_consumer_still_filters_them() {
    // Producer 2's transaction (from offset 1) is aborted before producer 1's (from offset 0):
    // the transaction index, and so the Fetch answer, lists 2 first (Kafka 4.3.1, random request
    // sequence seed 31351); a consumer orders them by first offset itself.
    let mut p = Partition::new("t-0");
    appended(&p.append_client(&batch_txn(1, 0, 0, 1, 0, true))); // 0: producer 1
    appended(&p.append_client(&batch_txn(2, 0, 0, 1, 0, true))); // 1: producer 2
    p.append_marker(2, 0, false, 0, MarkerVersion::Tv1, 0); // 2: producer 2 aborted first
    p.append_marker(1, 0, false, 0, MarkerVersion::Tv1, 0); // 3
    let answer = p.fetch_answer(Isolation::ReadCommitted, 0);
    assert_eq!(answer.aborted, Some(vec![(2, 1), (1, 0)]));
    assert!(p.fetch(Isolation::ReadCommitted, 0).is_empty(), "both transactions aborted: nothing for read_committed");
}

// Replication (S1–S6, `partition/replicas.rs`).

fn replicated(factor: usize) -> Partition {
    let mut p = Partition::new("t-0");
    p.set_replication_factor(factor, 0);
    p
}

#[test]
fn s1_a_stalled_follower_in_the_isr_holds_the_high_watermark() {
    let mut p = replicated(3);
    appended(&p.append_client(&batch(7, 0, 0, 2, 0)));
    assert_eq!(p.high_watermark(), 2);
    p.stop_fetching(Some(3), 0).unwrap();
    appended(&p.append_client(&batch(7, 0, 2, 1, 0)));
    assert_eq!((p.log_end_offset, p.high_watermark(), p.last_stable_offset()), (3, 2, 2));
    p.resume_fetching(Some(3), 0).unwrap();
    assert_eq!(p.high_watermark(), 3, "S4: caught up, back in the ISR");
}

#[test]
fn s2_a_completed_transaction_is_unstable_until_the_hw_passes_its_marker() {
    let mut p = replicated(2);
    appended(&p.append_client(&batch_txn(7, 0, 0, 2, 0, true)));
    p.stop_fetching(None, 0).unwrap();
    p.append_marker(7, 0, true, 0, MarkerVersion::Tv1, 0);
    assert!(p.ongoing_txns.is_empty());
    assert_eq!((p.high_watermark(), p.last_stable_offset()), (2, 0), "ProducerStateManager.unreplicatedTxns");
    p.resume_fetching(None, 0).unwrap();
    assert_eq!(p.last_stable_offset(), 3);
}

#[test]
fn s3_the_isr_drops_a_follower_behind_for_longer_than_the_lag_time_but_not_one_with_nothing_to_fetch() {
    let mut p = replicated(2);
    p.stop_fetching(Some(2), 0).unwrap();
    assert!(p.shrink_isr(60_000, 30_000).is_empty(), "its log end is the leader's: caught up (Replica.isCaughtUp)");
    appended(&p.append_client(&batch(7, 0, 0, 1, 0)));
    assert!(p.shrink_isr(30_000, 30_000).is_empty(), "now - lastCaughtUp ≤ replica.lag.time.max.ms");
    assert_eq!(p.shrink_isr(30_001, 30_000), vec![2]);
    assert_eq!((p.isr(), p.high_watermark()), (vec![1], 1));
}

#[test]
fn s5_s6_a_clean_election_truncates_only_what_the_hw_never_passed_and_rebuilds_producer_state() {
    let mut p = replicated(3);
    appended(&p.append_client(&batch(7, 0, 0, 1, 0)));
    p.stop_fetching(Some(2), 0).unwrap();
    appended(&p.append_client(&batch(7, 0, 1, 1, 0)));
    p.start_verification(7, 5, 0, true, 0);
    let e = p.fail_leader(false, 0).unwrap();
    assert_eq!((e.new_leader, e.unclean, e.new_end, e.old_hw), (2, false, 1, 1), "the first live ISR replica in assignment order");
    assert_eq!((p.log_end_offset, p.log.len(), p.leader_epoch), (1, 1, 1));
    assert_eq!(p.producers[&7].last_seq(), 0, "rebuilt from the remaining log");
    assert!(p.verifications.is_empty(), "the old leader's verification entries were its own");
    // The producer's resend of sequence 1 is appended again (A7 in order), at offset 1.
    assert_eq!(appended(&p.append_client(&batch(7, 0, 1, 1, 0))), (1, 1));
}

#[test]
fn s5_no_live_isr_replica_and_unclean_election_disabled_means_no_leader() {
    let mut p = replicated(2);
    p.stop_fetching(Some(2), 0).unwrap();
    appended(&p.append_client(&batch(7, 0, 0, 1, 0)));
    p.shrink_isr(40_000, 30_000);
    let err = p.fail_leader(false, 40_000).unwrap_err();
    assert!(err.contains("unclean.leader.election.enable=false"), "{err}");
    assert_eq!(p.log_end_offset, 1, "nothing changed");
    let e = p.fail_leader(true, 40_000).unwrap();
    assert!(e.unclean);
    assert_eq!((p.log_end_offset, p.isr()), (0, vec![2]));
    assert!(p.producers.is_empty());
}

#[test]
fn s6_a_truncation_keeps_the_seeded_producer_state_and_the_aborted_index_below_the_end() {
    let mut p = replicated(2);
    p.seed_producer(9, 3, 10, 14, 0, 0, None).unwrap();
    appended(&p.append_client(&batch_txn(7, 0, 0, 1, 0, true)));
    p.append_marker(7, 0, false, 0, MarkerVersion::Tv1, 0);
    p.stop_fetching(None, 0).unwrap();
    appended(&p.append_client(&batch(9, 3, 15, 1, 0)));
    p.fail_leader(false, 0).unwrap();
    assert_eq!(p.log_end_offset, 7);
    assert_eq!(p.producers[&9].last_seq(), 14, "the seeded entry, as loaded");
    assert_eq!(p.aborted_txns.len(), 1);
    assert!(p.truncate_to(3).is_err(), "below the given producer state");
}

#[test]
fn s6_a_second_election_rebuilds_from_the_given_state_again_not_from_the_first_truncation() {
    let mut p = replicated(3);
    appended(&p.append_client(&batch(7, 0, 0, 1, 0)));
    p.stop_fetching(Some(3), 0).unwrap();
    appended(&p.append_client(&batch(7, 0, 1, 1, 0)));
    p.stop_fetching(Some(2), 0).unwrap();
    appended(&p.append_client(&batch(7, 0, 2, 1, 0)));
    // Broker 2 (log end 2) is elected; then it fails and broker 3 (log end 1), still in the ISR, is.
    p.fail_leader(false, 0).unwrap();
    assert_eq!(p.log_end_offset, 2);
    p.fail_leader(false, 0).unwrap();
    assert_eq!((p.log_end_offset, p.producers[&7].last_seq()), (1, 0));
}
