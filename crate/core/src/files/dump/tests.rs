use super::*;

#[test]
fn java_string_hash_and_map_order() {
    assert_eq!(java_hash("a"), 97);
    assert_eq!(java_hash("ab"), 97 * 31 + 98);
    let v = alloc::vec![(String::from("b"), ()), (String::from("a"), ())];
    assert_eq!(java_hashmap_order(&v), alloc::vec![1, 0]);
}

/// A time index entry past the log and one whose batch ends elsewhere, as Kafka 4.3.1's
/// tool reported them on a copy of tests/fixtures/kafka-4.3.1/txn-0 with such entries
/// (stderr: `The following indexed offsets are not found in :<absolute path>`, then one line
/// per entry in index order).
#[test]
fn time_index_offsets_not_in_the_log() {
    use crate::encode::{HeaderSpec, RecordSpec, I64};
    let batch = |base: i64, n: usize| {
        crate::encode_batch(&crate::BatchSpec {
            header: HeaderSpec { base_offset: Some(I64(base)), base_timestamp: Some(I64(1000)), ..Default::default() },
            records: alloc::vec![RecordSpec::default(); n],
            ..Default::default()
        })
        .unwrap()
    };
    let mut log = batch(0, 2);
    let second = log.len() as i32;
    log.extend(batch(2, 1));
    let ix = super::super::index::OffsetIndexRepr {
        base_offset: 0,
        entries: alloc::vec![
            super::super::index::OffsetPosition { offset: 0, position: 0 },
            super::super::index::OffsetPosition { offset: 2, position: second },
        ],
        trailing_bytes: 0,
    }
    .emit();
    let tix = super::super::timeindex::TimeIndexRepr {
        base_offset: 0,
        entries: alloc::vec![
            super::super::timeindex::TimestampOffset { timestamp: 1000, offset: 0 },
            super::super::timeindex::TimestampOffset { timestamp: 1001, offset: 100 },
        ],
        trailing_bytes: 0,
    }
    .emit();
    let mut d = DumpLog::new(DumpOptions::default());
    let path = "/p/00000000000000000000.timeindex";
    d.dump(&DumpInput { path, absolute_path: path, bytes: Ok(&tix), log: Some(Ok(&log)), index: Some(Ok(&ix)) });
    d.finish();
    let err: Vec<&str> = d.lines().iter().filter(|(s, _)| *s == Stream::Err).map(|(_, l)| l.as_str()).collect();
    assert_eq!(
        err,
        [
            "The following indexed offsets are not found in :/p/00000000000000000000.timeindex",
            "Indexed offset: 0, found log offset: 1",
            "Indexed offset: 100, found log offset: -1",
        ]
    );
}

#[test]
fn garbage_never_panics() {
    let mut d = DumpLog::new(DumpOptions {
        print_data_log: true,
        ..DumpOptions::default()
    });
    let junk = [0xffu8; 40];
    for path in [
        "0.log",
        "0.index",
        "0.timeindex",
        "0.txnindex",
        "0.snapshot",
        "x.checkpoint",
        "x",
    ] {
        d.dump(&DumpInput {
            path,
            absolute_path: path,
            bytes: Ok(&junk),
            log: Some(Ok(&junk)),
            index: Some(Ok(&junk)),
        });
        d.failed = None;
    }
    d.finish();
}
