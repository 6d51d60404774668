//! The partition-file decoders and `kafka-dump-log` never panic on arbitrary bytes, and what
//! they return stays within the input (no entry count from a length field allocates more).

use eoslab_core::files::checkpoint::{parse_leader_epoch_checkpoint, parse_partition_metadata};
use eoslab_core::files::dump::{DumpInput, DumpLog, DumpOptions};
use eoslab_core::files::index::OffsetIndex;
use eoslab_core::files::snapshot::{ProducerSnapshot, SnapshotRepr};
use eoslab_core::files::timeindex::TimeIndex;
use eoslab_core::files::txnindex::TransactionIndex;
use eoslab_core::internal::InternalTopic;
use proptest::prelude::*;

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

    #[test]
    fn decoders_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..400), base in any::<i64>(), t in any::<i64>()) {
        let ix = OffsetIndex::new(&bytes[..], base);
        prop_assert!(ix.iter().count() * 8 <= bytes.len());
        let _ = ix.lookup(t);
        let _ = ix.sanity_check("p");
        let tix = TimeIndex::new(&bytes[..], base);
        prop_assert!(tix.iter().count() * 12 <= bytes.len());
        let _ = tix.lookup(t);
        let _ = tix.sanity_check("p");
        let x = TransactionIndex::new(&bytes[..], base);
        if let Ok(v) = x.all_aborted_txns("p") {
            prop_assert!(v.len() * 34 <= bytes.len());
        }
        let _ = x.sanity_check("p");
        if let Ok(s) = ProducerSnapshot::new_checked(&bytes[..]) {
            prop_assert!(10 + s.len() * 46 <= bytes.len());
            prop_assert_eq!(s.iter().count(), s.len());
        }
        let _ = parse_leader_epoch_checkpoint(&bytes, "p");
        let _ = parse_partition_metadata(&bytes, "p");
    }

    #[test]
    fn snapshot_errors_are_within_the_input(bytes in proptest::collection::vec(any::<u8>(), 0..200)) {
        if let Err(e) = SnapshotRepr::parse(&bytes) {
            prop_assert!(e.at <= bytes.len().max(10));
        }
    }

    #[test]
    fn dump_log_never_panics(
        bytes in proptest::collection::vec(any::<u8>(), 0..600),
        log in proptest::collection::vec(any::<u8>(), 0..600),
        deep in any::<bool>(),
        decoder in 0u8..3,
    ) {
        let decoder = match decoder { 0 => None, 1 => Some(InternalTopic::TransactionState), _ => Some(InternalTopic::ConsumerOffsets) };
        let mut d = DumpLog::new(DumpOptions { print_data_log: deep, deep_iteration: deep, decoder, ..DumpOptions::default() });
        for path in ["0.log", "0.index", "0.timeindex", "0.txnindex", "0.snapshot", "00000000000000000005-0000000001.checkpoint"] {
            d.dump(&DumpInput { path, absolute_path: path, bytes: Ok(&bytes), log: Some(Ok(&log)), index: Some(Ok(&bytes)) });
        }
        d.finish();
    }
}

/// An index entry pointing at a position where the log has no batch stops the dump as
/// Kafka's tool does.
#[test]
fn an_index_entry_past_the_log_fails_like_kafka() {
    let bytes = [0u8, 0, 0, 3, 0, 0, 0, 0];
    let mut d = DumpLog::new(DumpOptions::default());
    d.dump(&DumpInput { path: "0.index", absolute_path: "/x/0.index", bytes: Ok(&bytes), log: Some(Ok(&[])), index: None });
    // position 0 of an empty log: Kafka's iterator has no batch (NoSuchElementException).
    assert_eq!(d.failed().unwrap().error.kind, "NoSuchElementException");
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    /// A partition directory of arbitrary files: `files::partition::load` never panics, the
    /// text and the simulator script are written, and the script parses (the same property the
    /// `partition_dir` fuzz target checks under libFuzzer).
    #[test]
    fn a_directory_of_arbitrary_files_never_panics(
        files in proptest::collection::vec((0usize..8, proptest::collection::vec(any::<u8>(), 0..300)), 1..5)
    ) {
        use eoslab_core::files::partition::{self, DirFile};
        const NAMES: [&str; 8] = [
            "00000000000000000000.log", "00000000000000000000.index", "00000000000000000000.timeindex",
            "00000000000000000000.txnindex", "00000000000000000005.snapshot", "00000000000000000007.log",
            "00000000000000000007.index", "partition.metadata",
        ];
        let dir: Vec<DirFile<'_>> = files.iter().map(|(k, b)| DirFile { name: NAMES[*k], bytes: b }).collect();
        let p = partition::load(&dir);
        prop_assert!(p.producers.len() <= files.iter().map(|(_, b)| b.len()).sum::<usize>() / 40 + 1);
        let _ = partition::render(&p);
        let script = partition::simulator_script(&p, "prop");
        prop_assert!(eoslab_core::model::scenario::parse(&script).is_ok(), "{}", script);
    }
}
