use super::*;
use alloc::string::ToString;
use alloc::vec;

fn hex(s: &str) -> Vec<u8> {
    let s: String = s.chars().filter(|c| c.is_ascii_hexdigit()).collect();
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap())
        .collect()
}

/// The value of Kafka's `TransactionLogMessageFormatterTest` (`TXN_LOG_VALUE`).
fn kafka_test_txn_value() -> TxnLogValue {
    TxnLogValue {
        producer_id: 100,
        producer_epoch: 50,
        transaction_status: txn_state::COMPLETE_COMMIT,
        transaction_start_timestamp_ms: 750,
        transaction_last_update_timestamp_ms: 1000,
        transaction_timeout_ms: 500,
        ..TxnLogValue::default()
    }
}

#[test]
fn golden_txn_log_key() {
    // type int16 0 = 00 00; TransactionalId "TXNID": int16 length 5 = 00 05, then
    // "TXNID" = 54 58 4e 49 44.
    assert_eq!(txn_log_key("TXNID"), hex("0000 0005 54584e4944"));
}

#[test]
fn golden_txn_log_value_v1() {
    // version 1            00 01
    // ProducerId 100       00 00 00 00 00 00 00 64
    // ProducerEpoch 50     00 32
    // TransactionTimeoutMs 500   00 00 01 f4
    // TransactionStatus 4  04
    // TransactionPartitions []: compact array, varint 0+1 = 01
    // TransactionLastUpdateTimestampMs 1000   00 00 00 00 00 00 03 e8
    // TransactionStartTimestampMs 750         00 00 00 00 00 00 02 ee
    // tagged fields: prev/next = −1 and clientTransactionVersion = 0 are defaults → count 00
    let want =
        hex("0001 0000000000000064 0032 000001f4 04 01 00000000000003e8 00000000000002ee 00");
    assert_eq!(txn_log_value(&kafka_test_txn_value(), 1), want);
}

#[test]
fn golden_txn_log_value_v0_with_partitions_and_v1_tags() {
    let v = TxnLogValue {
        producer_id: 7,
        previous_producer_id: 6,
        next_producer_id: -1,
        producer_epoch: 1,
        transaction_timeout_ms: 60000,
        transaction_status: txn_state::ONGOING,
        transaction_partitions: vec![("t".into(), vec![0, 2])],
        transaction_last_update_timestamp_ms: 5,
        transaction_start_timestamp_ms: 4,
        client_transaction_version: 2,
    };
    // v0: 0000 | pid 7 | epoch 0001 | timeout 60000 = 0000ea60 | status 01 |
    // partitions: int32 count 00000001, topic int16 len 0001 "t" 74, ids int32 count
    // 00000002, 00000000, 00000002 | lastUpdate 5 | start 4. No tagged fields in v0.
    assert_eq!(
        txn_log_value(&v, 0),
        hex("0000 0000000000000007 0001 0000ea60 01 00000001 0001 74 00000002 00000000 00000002 0000000000000005 0000000000000004")
    );
    // v1: compact array 02 (1+1), compact string 02 "t", compact int array 03 (2+1), the
    // element's tagged fields 00; then tags: count 02; tag 0 size 8 prev=6; tag 2 size 2 ctv=2.
    assert_eq!(
        txn_log_value(&v, 1),
        hex("0001 0000000000000007 0001 0000ea60 01 02 02 74 03 00000000 00000002 00 0000000000000005 0000000000000004 02 00 08 0000000000000006 02 02 0002")
    );
}

#[test]
fn empty_state_writes_null_partitions() {
    let v = TxnLogValue {
        transaction_status: txn_state::EMPTY,
        transaction_start_timestamp_ms: -1,
        ..TxnLogValue::default()
    };
    let b0 = txn_log_value(&v, 0);
    assert_eq!(&b0[2 + 8 + 2 + 4 + 1..][..4], &[0xff, 0xff, 0xff, 0xff]);
    let b1 = txn_log_value(&v, 1);
    assert_eq!(b1[2 + 8 + 2 + 4 + 1], 0);
    let p = parse_txn_log_value(&b1).unwrap();
    assert!(p.partitions_null);
    let s = format_record(
        InternalTopic::TransactionState,
        Some(&txn_log_key("x")),
        Some(&b1),
    )
    .unwrap();
    assert!(s.contains("\"transactionPartitions\":null"), "{s}");
}

#[test]
fn formats_like_kafka_transaction_log_formatter_test() {
    // TransactionLogMessageFormatterTest (tools/src/test/java/.../consumer), Kafka 4.x.
    let key = txn_log_key("TXNID");
    let value = txn_log_value(&kafka_test_txn_value(), 1);
    assert_eq!(
        format_record(InternalTopic::TransactionState, Some(&key), Some(&value)).unwrap(),
        "{\"key\":{\"type\":0,\"data\":{\"transactionalId\":\"TXNID\"}},\"value\":{\"version\":1,\"data\":{\"producerId\":100,\"producerEpoch\":50,\"transactionTimeoutMs\":500,\"transactionStatus\":4,\"transactionPartitions\":[],\"transactionLastUpdateTimestampMs\":1000,\"transactionStartTimestampMs\":750}}}"
    );
    // Tombstone.
    assert_eq!(
        format_record(InternalTopic::TransactionState, Some(&key), None).unwrap(),
        "{\"key\":{\"type\":0,\"data\":{\"transactionalId\":\"TXNID\"}},\"value\":null}"
    );
    // No key, unknown record types (1, 10, Short.MAX_VALUE): nothing.
    assert_eq!(
        format_record(InternalTopic::TransactionState, None, Some(&value)).unwrap(),
        ""
    );
    for t in [1i16, 10, i16::MAX] {
        let mut k = key.clone();
        k[..2].copy_from_slice(&t.to_be_bytes());
        assert_eq!(
            format_record(InternalTopic::TransactionState, Some(&k), Some(&value)).unwrap(),
            ""
        );
    }
}

#[test]
fn formats_tagged_fields_and_partitions() {
    let v = TxnLogValue {
        producer_id: 7,
        previous_producer_id: 6,
        next_producer_id: 8,
        transaction_status: txn_state::PREPARE_COMMIT,
        transaction_partitions: vec![("a\"b".into(), vec![0, 2]), ("c".into(), vec![])],
        client_transaction_version: 2,
        ..TxnLogValue::default()
    };
    let s = format_record(
        InternalTopic::TransactionState,
        Some(&txn_log_key("id")),
        Some(&txn_log_value(&v, 1)),
    )
    .unwrap();
    assert_eq!(
        s,
        "{\"key\":{\"type\":0,\"data\":{\"transactionalId\":\"id\"}},\"value\":{\"version\":1,\"data\":{\"producerId\":7,\"previousProducerId\":6,\"nextProducerId\":8,\"producerEpoch\":0,\"transactionTimeoutMs\":0,\"transactionStatus\":2,\"transactionPartitions\":[{\"topic\":\"a\\\"b\",\"partitionIds\":[0,2]},{\"topic\":\"c\",\"partitionIds\":[]}],\"transactionLastUpdateTimestampMs\":0,\"transactionStartTimestampMs\":0,\"clientTransactionVersion\":2}}}"
    );
    // v0 has no tagged fields: they are not written, not printed.
    let s0 = format_record(
        InternalTopic::TransactionState,
        Some(&txn_log_key("id")),
        Some(&txn_log_value(&v, 0)),
    )
    .unwrap();
    assert!(
        !s0.contains("previousProducerId") && !s0.contains("clientTransactionVersion"),
        "{s0}"
    );
}

#[test]
fn txn_round_trips() {
    let v = TxnLogValue {
        producer_id: i64::MAX,
        previous_producer_id: 3,
        next_producer_id: i64::MIN,
        producer_epoch: -1,
        transaction_timeout_ms: i32::MIN,
        transaction_status: txn_state::PREPARE_ABORT,
        transaction_partitions: vec![
            ("é🦀".into(), vec![i32::MAX, -1]),
            (String::new(), vec![]),
        ],
        transaction_last_update_timestamp_ms: -5,
        transaction_start_timestamp_ms: 1 << 40,
        client_transaction_version: 2,
    };
    let p = parse_txn_log_value(&txn_log_value(&v, 1)).unwrap();
    assert_eq!((p.version, &p.value, p.partitions_null), (1, &v, false));
    let p0 = parse_txn_log_value(&txn_log_value(&v, 0)).unwrap();
    let v0 = TxnLogValue {
        previous_producer_id: -1,
        next_producer_id: -1,
        client_transaction_version: 0,
        ..v.clone()
    };
    assert_eq!((p0.version, &p0.value), (0, &v0));
    assert_eq!(parse_txn_log_key(&txn_log_key("é🦀")).unwrap(), "é🦀");
}

#[test]
fn golden_offset_commit_key_and_value() {
    // type 1 = 00 01; group "group-id" = 00 08 67726f75702d6964; topic "foo" = 00 03
    // 666f6f; partition 1 = 00 00 00 01.
    assert_eq!(
        offset_commit_key("group-id", "foo", 1),
        hex("0001 0008 67726f75702d6964 0003 666f6f 00000001")
    );
    let c = OffsetCommit {
        group: "group-id".into(),
        topic: "foo".into(),
        partition: 1,
        offset: 100,
        leader_epoch: 10,
        metadata: "metadata".into(),
        commit_timestamp_ms: 1234,
    };
    // version 3 = 00 03; offset 100 = 00..64; leaderEpoch 10 = 00 00 00 0a;
    // metadata "metadata" = 00 08 6d65746164617461; commitTimestamp 1234 = 00..04 d2.
    assert_eq!(
        offset_commit_value_version(&c, 3),
        hex("0003 0000000000000064 0000000a 0008 6d65746164617461 00000000000004d2")
    );
    // version 4 (Kafka 4.3.1): metadata as a compact string (length + 1 = 09), then no
    // tagged fields (00).
    assert_eq!(
        offset_commit_value(&c),
        hex("0004 0000000000000064 0000000a 09 6d65746164617461 00000000000004d2 00")
    );
}

#[test]
fn formats_like_kafka_offset_message_formatter_test() {
    // OffsetMessageFormatterTest (tools/src/test/java/.../consumer), Kafka 4.x.
    let c = OffsetCommit {
        group: "group-id".into(),
        topic: "foo".into(),
        partition: 1,
        offset: 100,
        leader_epoch: 10,
        metadata: "metadata".into(),
        commit_timestamp_ms: 1234,
    };
    let key = offset_commit_key(&c.group, &c.topic, c.partition);
    let value = offset_commit_value_version(&c, 3);
    let k = "{\"key\":{\"type\":1,\"data\":{\"group\":\"group-id\",\"topic\":\"foo\",\"partition\":1}},";
    assert_eq!(
        format_record(InternalTopic::ConsumerOffsets, Some(&key), Some(&value)).unwrap(),
        format!("{k}\"value\":{{\"version\":3,\"data\":{{\"offset\":100,\"leaderEpoch\":10,\"metadata\":\"metadata\",\"commitTimestamp\":1234}}}}}}")
    );
    assert_eq!(
        format_record(InternalTopic::ConsumerOffsets, Some(&key), None).unwrap(),
        format!("{k}\"value\":null}}")
    );
    // Value versions 0, 1, 2 and 4 (hand-built), key type 0.
    let mut key0 = key.clone();
    key0[1] = 0;
    let v0 = hex("0000 0000000000000064 0008 6d65746164617461 00000000000004d2");
    assert_eq!(
        format_record(InternalTopic::ConsumerOffsets, Some(&key0), Some(&v0)).unwrap(),
        "{\"key\":{\"type\":0,\"data\":{\"group\":\"group-id\",\"topic\":\"foo\",\"partition\":1}},\"value\":{\"version\":0,\"data\":{\"offset\":100,\"metadata\":\"metadata\",\"commitTimestamp\":1234}}}"
    );
    let v1 =
        hex("0001 0000000000000064 0008 6d65746164617461 00000000000004d2 000000000000162e");
    assert!(format_record(InternalTopic::ConsumerOffsets, Some(&key), Some(&v1))
        .unwrap()
        .ends_with("\"value\":{\"version\":1,\"data\":{\"offset\":100,\"metadata\":\"metadata\",\"commitTimestamp\":1234,\"expireTimestamp\":5678}}}"));
    // v4: compact string 09 "metadata", tagged fields: 1 field, tag 0, size 16, the
    // uuid MKXx1fIkQy2J9jXHhK8m1w (Kafka's test id).
    let id = hex("30a5f1d5f224432d89f635c784af26d7");
    let mut v4 =
        hex("0004 0000000000000064 0000000a 09 6d65746164617461 00000000000004d2 01 00 10");
    v4.extend_from_slice(&id);
    let mut s = String::new();
    base64url(&mut s, &id);
    assert_eq!(s, "MKXx1fIkQy2J9jXHhK8m1w");
    assert!(format_record(InternalTopic::ConsumerOffsets, Some(&key), Some(&v4)).unwrap().ends_with(
        "\"value\":{\"version\":4,\"data\":{\"offset\":100,\"leaderEpoch\":10,\"metadata\":\"metadata\",\"commitTimestamp\":1234,\"topicId\":\"MKXx1fIkQy2J9jXHhK8m1w\"}}}"
    ));
    // Group metadata (type 2) and unknown types: nothing printed.
    let mut gk = key.clone();
    gk[1] = 2;
    assert_eq!(
        format_record_detailed(InternalTopic::ConsumerOffsets, Some(&gk), Some(&value)).unwrap(),
        Formatted::Skipped("record type 2 (GroupMetadata) is not an offset commit: OffsetsMessageFormatter prints nothing".into())
    );
    gk[..2].copy_from_slice(&i16::MAX.to_be_bytes());
    assert_eq!(
        format_record(InternalTopic::ConsumerOffsets, Some(&gk), Some(&value)).unwrap(),
        ""
    );
}

#[test]
fn offset_commit_round_trip() {
    let c = OffsetCommit {
        group: "g\u{1}".into(),
        topic: "t".into(),
        partition: -3,
        offset: -1,
        leader_epoch: -1,
        metadata: String::new(),
        commit_timestamp_ms: i64::MIN,
    };
    let k =
        parse_offset_commit_key(&offset_commit_key(&c.group, &c.topic, c.partition)).unwrap();
    assert_eq!(
        (
            k.record_type,
            k.group.as_str(),
            k.topic.as_str(),
            k.partition
        ),
        (1, "g\u{1}", "t", -3)
    );
    let v = parse_offset_commit_value(&offset_commit_value(&c)).unwrap();
    assert_eq!(
        v,
        ParsedOffsetCommitValue {
            version: 4,
            offset: -1,
            leader_epoch: -1,
            metadata: String::new(),
            commit_timestamp_ms: i64::MIN,
            expire_timestamp_ms: -1,
            topic_id: None
        }
    );
    let s = format_record(
        InternalTopic::ConsumerOffsets,
        Some(&offset_commit_key(&c.group, "t", 0)),
        None,
    )
    .unwrap();
    assert!(s.contains("\"group\":\"g\\u0001\""), "{s}");
}

#[test]
fn json_escapes_like_jackson() {
    let mut s = String::new();
    json_str(&mut s, "a\"\\\u{8}\t\n\u{c}\r\u{1f}\u{7f}é/");
    assert_eq!(s, "\"a\\\"\\\\\\b\\t\\n\\f\\r\\u001F\u{7f}é/\"");
}

#[test]
fn errors_are_pinned() {
    let key = txn_log_key("TXNID");
    // Key too short for the type.
    let e = format_record(InternalTopic::TransactionState, Some(&[0]), None).unwrap_err();
    assert_eq!(
        (e.at, e.in_value, e.message.as_str()),
        (0, false, "Could not read version from key's buffer.")
    );
    // Key string cut short: the data starts at byte 4.
    let e = format_record(InternalTopic::TransactionState, Some(&key[..6]), None).unwrap_err();
    assert_eq!((e.at, e.in_value), (4, false));
    assert!(e.message.starts_with("Could not read record with version 0 from key's buffer due to: Error reading byte array of 5 byte(s)"), "{}", e.message);
    // Negative string length.
    let e = parse_txn_log_key(&hex("0000 ffff")).unwrap_err();
    assert_eq!(e.at, 2);
    assert!(
        e.message
            .contains("non-nullable field transactionalId was serialized as null"),
        "{}",
        e.message
    );
    // Unknown value version.
    let e = format_record(
        InternalTopic::TransactionState,
        Some(&key),
        Some(&hex("0005 00")),
    )
    .unwrap_err();
    assert_eq!((e.at, e.in_value), (0, true));
    // Truncated value: the start timestamp (bytes 26..34 of the value) is cut.
    let v = txn_log_value(&kafka_test_txn_value(), 1);
    let e =
        format_record(InternalTopic::TransactionState, Some(&key), Some(&v[..30])).unwrap_err();
    assert_eq!((e.at, e.in_value), (26, true));
    assert!(
        e.message.contains("BufferUnderflowException"),
        "{}",
        e.message
    );
    // A huge array count is refused before allocating.
    let e = parse_txn_log_value(&hex("0000 0000000000000064 0032 000001f4 04 7fffffff"))
        .unwrap_err();
    assert_eq!(e.at, 17);
    assert!(e.message.contains("Tried to allocate a collection of size 2147483647, but there are only 0 bytes remaining."), "{}", e.message);
    let e = parse_txn_log_value(&hex("0001 0000000000000064 0032 000001f4 04 ffffffff07"))
        .unwrap_err();
    assert_eq!(e.at, 17);
    // Offset commit with an unknown value version.
    let e = format_record(
        InternalTopic::ConsumerOffsets,
        Some(&offset_commit_key("g", "t", 0)),
        Some(&hex("0009")),
    )
    .unwrap_err();
    assert!(
        e.message.contains("Unknown value version 9"),
        "{}",
        e.to_string()
    );
}

#[test]
fn unknown_tagged_fields_are_skipped_and_checked() {
    let mut v = txn_log_value(&kafka_test_txn_value(), 1);
    *v.last_mut().unwrap() = 1; // one tagged field
    v.extend_from_slice(&hex("05 02 abcd"));
    assert!(format_record(
        InternalTopic::TransactionState,
        Some(&txn_log_key("x")),
        Some(&v)
    )
    .is_ok());
    v.truncate(v.len() - 1);
    let e = parse_txn_log_value(&v).unwrap_err();
    assert!(
        e.message.contains("unknown tagged field 5"),
        "{}",
        e.message
    );
}

#[test]
fn decode_option_fills_formatted_and_pins_errors() {
    use crate::spec::{encode_batch, BatchSpec, RecordSpec};
    use crate::report::to_hex;
    use crate::{decode_bytes, DecodeOptions};
    let key = txn_log_key("TXNID");
    let good = txn_log_value(&kafka_test_txn_value(), 1);
    let bad = &good[..30];
    let rec = |k: &[u8], v: Option<&[u8]>| RecordSpec {
        key: Some(to_hex(k)),
        value: v.map(to_hex),
        ..RecordSpec::default()
    };
    let spec = BatchSpec {
        records: vec![
            rec(&key, Some(&good)),
            rec(&key, None),
            rec(&key, Some(bad)),
            rec(&[0, 7], None),
        ],
        ..BatchSpec::default()
    };
    let bytes = encode_batch(&spec).unwrap();
    let off = decode_bytes(&bytes, &DecodeOptions::default());
    assert!(off.batches[0].records.iter().all(|r| r.formatted.is_none()));
    let opts = DecodeOptions {
        formatter: Some(InternalTopic::TransactionState),
        ..DecodeOptions::default()
    };
    let r = decode_bytes(&bytes, &opts);
    let recs = &r.batches[0].records;
    assert!(recs[0]
        .formatted
        .as_deref()
        .unwrap()
        .contains("\"transactionStartTimestampMs\":750"));
    assert!(recs[1]
        .formatted
        .as_deref()
        .unwrap()
        .ends_with("\"value\":null}"));
    assert_eq!(recs[2].formatted, None);
    assert_eq!(recs[3].formatted.as_deref(), Some(""));
    assert_eq!(r.errors.len(), 1, "{:?}", r.errors);
    let e = &r.errors[0];
    let value_start = r.batches[0]
        .fields
        .iter()
        .find(|f| f.name == "records[2].value")
        .unwrap()
        .start;
    assert_eq!((e.kind, e.at), ("RuntimeException", value_start + 26));
    assert!(e.message.starts_with("Could not read record at offset 2 due to: Could not read record with version 1 from value's buffer"));
    // Without spans the issue falls back to the batch start.
    let r = decode_bytes(
        &bytes,
        &DecodeOptions {
            spans: false,
            ..opts.clone()
        },
    );
    assert_eq!(r.errors[0].at, 0);
    // Compressed: pinned on the payload, with the offset inside the decompressed bytes.
    let mut gz = spec.clone();
    gz.header.attributes.compression = Some("gzip".into());
    let r = decode_bytes(&encode_batch(&gz).unwrap(), &opts);
    let e = &r.errors[0];
    assert_eq!(
        e.at,
        r.batches[0].decompressed.as_ref().unwrap().compressed_start
    );
    let dv = r.batches[0]
        .fields
        .iter()
        .find(|f| f.name == "records[2].value")
        .unwrap()
        .start;
    assert_eq!(e.decompressed_at, Some(dv + 26));
}

mod props {
    use super::super::*;
    use proptest::prelude::*;

    fn txn_value() -> impl Strategy<Value = TxnLogValue> {
        (
            any::<i64>(),
            any::<i64>(),
            any::<i64>(),
            any::<i16>(),
            any::<i32>(),
            1i8..8,
            proptest::collection::vec(
                (".{0,8}", proptest::collection::vec(any::<i32>(), 0..4)),
                0..4,
            ),
            any::<i64>(),
            any::<i64>(),
            any::<i16>(),
        )
            .prop_map(|(a, b, c, d, e, f, g, h, i, j)| TxnLogValue {
                producer_id: a,
                previous_producer_id: b,
                next_producer_id: c,
                producer_epoch: d,
                transaction_timeout_ms: e,
                transaction_status: f,
                transaction_partitions: g,
                transaction_last_update_timestamp_ms: h,
                transaction_start_timestamp_ms: i,
                client_transaction_version: j,
            })
    }

    proptest! {
        #[test]
        fn arbitrary_bytes_never_panic(key in proptest::option::of(proptest::collection::vec(any::<u8>(), 0..64)),
                                       value in proptest::option::of(proptest::collection::vec(any::<u8>(), 0..96))) {
            for t in [InternalTopic::TransactionState, InternalTopic::ConsumerOffsets] {
                let _ = format_record(t, key.as_deref(), value.as_deref());
            }
            let _ = parse_txn_log_value(value.as_deref().unwrap_or(&[]));
            let _ = parse_offset_commit_value(value.as_deref().unwrap_or(&[]));
        }

        #[test]
        fn valid_prefix_then_garbage_never_panics(v in txn_value(), cut in 0usize..200, junk in proptest::collection::vec(any::<u8>(), 0..16)) {
            for version in [0i16, 1] {
                let mut b = txn_log_value(&v, version);
                b.truncate(cut.min(b.len()));
                b.extend_from_slice(&junk);
                let _ = format_record(InternalTopic::TransactionState, Some(&txn_log_key("k")), Some(&b));
            }
        }

        #[test]
        fn txn_value_round_trips(v in txn_value(), id in ".{0,16}") {
            let p = parse_txn_log_value(&txn_log_value(&v, 1)).unwrap();
            prop_assert_eq!(&p.value, &v);
            prop_assert_eq!(parse_txn_log_key(&txn_log_key(&id)).unwrap(), id);
            let s = format_record(InternalTopic::TransactionState, Some(&txn_log_key("k")), Some(&txn_log_value(&v, 0))).unwrap();
            prop_assert!(s.starts_with("{\"key\":{\"type\":0"), "{}", s);
        }

        #[test]
        fn offset_commit_round_trips(g in ".{0,12}", t in ".{0,12}", p in any::<i32>(), o in any::<i64>(), le in any::<i32>(), m in ".{0,12}", ts in any::<i64>()) {
            let c = OffsetCommit { group: g.clone(), topic: t.clone(), partition: p, offset: o, leader_epoch: le, metadata: m.clone(), commit_timestamp_ms: ts };
            let k = parse_offset_commit_key(&offset_commit_key(&g, &t, p)).unwrap();
            prop_assert_eq!((k.group, k.topic, k.partition), (g, t, p));
            let v = parse_offset_commit_value(&offset_commit_value(&c)).unwrap();
            prop_assert_eq!((v.offset, v.leader_epoch, v.metadata, v.commit_timestamp_ms), (o, le, m, ts));
        }
    }
}

#[test]
fn formatter_errors_sit_with_their_batch_after_the_walks_own() {
    // Each batch's issues together, in batch order, the walk's first: a CRC mismatch in
    // batch 0 before its unreadable record, then batch 1's unreadable record, then the
    // trailing bytes' issue (numbered as batch 2).
    use crate::report::to_hex;
    use crate::spec::{encode_batch, BatchSpec, RecordSpec};
    use crate::{decode_bytes, DecodeOptions};
    let spec = BatchSpec {
        records: vec![RecordSpec { key: Some(to_hex(&txn_log_key("TXNID"))), value: Some(to_hex(&[0, 1, 2])), ..RecordSpec::default() }],
        ..BatchSpec::default()
    };
    let mut first = encode_batch(&spec).unwrap();
    let crc_at = crate::wire::batch::field::CRC.start;
    first[crc_at] ^= 0xff;
    let bytes = [first.clone(), encode_batch(&spec).unwrap(), vec![0u8; 5]].concat();
    let opts = DecodeOptions { formatter: Some(InternalTopic::TransactionState), ..DecodeOptions::default() };
    let r = decode_bytes(&bytes, &opts);
    let order: Vec<(Option<usize>, &str)> = r.errors.iter().map(|e| (e.batch, e.kind)).collect();
    assert_eq!(
        order,
        [(Some(0), "CorruptRecordException"), (Some(0), "RuntimeException"), (Some(1), "RuntimeException"), (Some(2), "PartialBatch")],
        "{:?}",
        r.errors
    );
}
