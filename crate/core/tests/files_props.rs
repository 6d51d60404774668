//! The partition-file decoders and `kafka-dump-log` never panic on arbitrary bytes, and what
//! they return stays within the input (no entry count from a length field allocates more).
//! Round trips: for any valid `.index`, `.timeindex`, `.txnindex`, producer `.snapshot`,
//! `leader-epoch-checkpoint` and `partition.metadata`, parse(emit(x)) == x, and
//! emit(parse(bytes)) == bytes wherever the bytes are what the broker writes.
//!
//! Case counts: `PROPTEST_CASES` overrides them all (tests/fuzz-smoke.sh's fallback sets it).

use eoslab_core::files::checkpoint::{parse_leader_epoch_checkpoint, parse_partition_metadata};
use eoslab_core::files::dump::{DumpInput, DumpLog, DumpOptions};
use eoslab_core::files::index::OffsetIndex;
use eoslab_core::files::snapshot::{ProducerSnapshot, SnapshotRepr};
use eoslab_core::files::timeindex::TimeIndex;
use eoslab_core::files::txnindex::TransactionIndex;
use eoslab_core::internal::InternalTopic;
use proptest::collection::vec;
use proptest::prelude::*;

/// `cases` unless PROPTEST_CASES is set (ProptestConfig::default() reads it), as in props.rs.
fn config(cases: u32) -> ProptestConfig {
    let mut c = ProptestConfig::default();
    if std::env::var_os("PROPTEST_CASES").is_none() {
        c.cases = cases;
    }
    c
}

proptest! {
    #![proptest_config(config(512))]

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
    #![proptest_config(config(256))]

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

// ---------------------------------------------------------------------------------------
// Round trips

use eoslab_core::files::checkpoint::{EpochEntry, LeaderEpochCheckpoint, PartitionMetadata};
use eoslab_core::files::index::{OffsetIndexRepr, OffsetPosition};
use eoslab_core::files::snapshot::ProducerEntry;
use eoslab_core::files::timeindex::{TimeIndexRepr, TimestampOffset};
use eoslab_core::files::txnindex::AbortedTxn;

fn producer_entry() -> impl Strategy<Value = ProducerEntry> {
    (any::<i64>(), any::<i16>(), any::<i32>(), any::<i64>(), any::<i32>(), any::<i64>(), any::<i32>(), any::<i64>())
        .prop_map(|(producer_id, epoch, last_sequence, last_offset, offset_delta, timestamp, coordinator_epoch, txn)| {
            ProducerEntry {
                producer_id,
                epoch,
                last_sequence,
                last_offset,
                offset_delta,
                timestamp,
                coordinator_epoch,
                current_txn_first_offset: txn,
            }
        })
}

fn aborted_txn() -> impl Strategy<Value = AbortedTxn> {
    (any::<i64>(), any::<i64>(), any::<i64>(), any::<i64>()).prop_map(|(p, f, l, s)| AbortedTxn {
        version: 0, // AbortedTxn.CURRENT_VERSION: the only one Kafka writes and reads back as written
        producer_id: p,
        first_offset: f,
        last_offset: l,
        last_stable_offset: s,
    })
}

proptest! {
    #![proptest_config(config(512))]

    /// `.index`: any entries (relative offsets and positions as int32, Kafka's putInt).
    #[test]
    fn offset_index_roundtrips(base in any::<i64>(), entries in vec((any::<i32>(), any::<i32>()), 0..64)) {
        let x = OffsetIndexRepr {
            base_offset: base,
            entries: entries.iter().map(|&(rel, position)| OffsetPosition { offset: base.wrapping_add(rel as i64), position }).collect(),
            trailing_bytes: 0,
        };
        let bytes = x.emit();
        prop_assert_eq!(bytes.len(), 8 * entries.len());
        prop_assert_eq!(OffsetIndexRepr::parse(&OffsetIndex::new(&bytes[..], base)), x);
    }

    /// `.index` bytes: every whole entry is written back as it was; a tail shorter than an
    /// entry is counted, not an entry.
    #[test]
    fn offset_index_bytes_roundtrip(bytes in vec(any::<u8>(), 0..400), base in any::<i64>()) {
        let r = OffsetIndexRepr::parse(&OffsetIndex::new(&bytes[..], base));
        prop_assert_eq!(r.trailing_bytes, bytes.len() % 8);
        prop_assert_eq!(&r.emit()[..], &bytes[..bytes.len() - r.trailing_bytes]);
    }

    /// A valid `.index` (what LogSegment.append writes: offsets above the base, increasing,
    /// positions increasing): Kafka's sanity check passes and `lookup` is the largest entry at
    /// or below the target (a linear search), `(baseOffset, 0)` below the first.
    #[test]
    fn a_valid_offset_index_passes_and_looks_up(
        base in 0i64..1 << 40,
        steps in vec((1i32..1000, 1i32..100_000), 0..40),
        targets in vec(any::<i64>(), 1..8),
    ) {
        let (mut rel, mut pos) = (0i32, 0i32);
        let entries: Vec<OffsetPosition> = steps.iter().map(|&(dr, dp)| {
            rel += dr;
            let e = OffsetPosition { offset: base + rel as i64, position: pos };
            pos += dp;
            e
        }).collect();
        let bytes = OffsetIndexRepr { base_offset: base, entries: entries.clone(), trailing_bytes: 0 }.emit();
        let ix = OffsetIndex::new(&bytes[..], base);
        prop_assert!(ix.sanity_check("p").is_ok());
        for t in targets.into_iter().chain(entries.iter().map(|e| e.offset)) {
            let want = entries.iter().rev().find(|e| e.offset <= t).copied().unwrap_or(OffsetPosition { offset: base, position: 0 });
            prop_assert_eq!(ix.lookup(t), want);
        }
    }

    /// `.timeindex`: any entries.
    #[test]
    fn time_index_roundtrips(base in any::<i64>(), entries in vec((any::<i64>(), any::<i32>()), 0..64)) {
        let x = TimeIndexRepr {
            base_offset: base,
            entries: entries.iter().map(|&(timestamp, rel)| TimestampOffset { timestamp, offset: base.wrapping_add(rel as i64) }).collect(),
            trailing_bytes: 0,
        };
        let bytes = x.emit();
        prop_assert_eq!(bytes.len(), 12 * entries.len());
        prop_assert_eq!(TimeIndexRepr::parse(&TimeIndex::new(&bytes[..], base)), x);
    }

    #[test]
    fn time_index_bytes_roundtrip(bytes in vec(any::<u8>(), 0..400), base in any::<i64>()) {
        let r = TimeIndexRepr::parse(&TimeIndex::new(&bytes[..], base));
        prop_assert_eq!(r.trailing_bytes, bytes.len() % 12);
        prop_assert_eq!(&r.emit()[..], &bytes[..bytes.len() - r.trailing_bytes]);
    }

    /// `.txnindex`: any version-0 entries, read back by `allAbortedTxns` as written.
    #[test]
    fn txn_index_roundtrips(entries in vec(aborted_txn(), 0..32), start in any::<i64>(), tail in vec(any::<u8>(), 0..34)) {
        let mut bytes: Vec<u8> = entries.iter().flat_map(|t| t.emit()).collect();
        let whole = bytes.len();
        bytes.extend_from_slice(&tail[..tail.len() % 34]);
        let ix = TransactionIndex::new(&bytes[..], start);
        prop_assert_eq!(ix.trailing_bytes(), tail.len() % 34);
        let back = ix.all_aborted_txns("p").unwrap();
        prop_assert_eq!(&back, &entries);
        let again: Vec<u8> = back.iter().flat_map(|t| t.emit()).collect();
        prop_assert_eq!(&again[..], &bytes[..whole]);
    }

    /// `.txnindex` bytes whose entries carry version 0 (the int16 Kafka writes): written back
    /// byte for byte.
    #[test]
    fn txn_index_bytes_roundtrip(mut bytes in vec(any::<u8>(), 0..400)) {
        for e in bytes.chunks_exact_mut(34) {
            e[0] = 0;
            e[1] = 0;
        }
        let whole = bytes.len() / 34 * 34;
        let back = TransactionIndex::new(&bytes[..], 0).all_aborted_txns("p").unwrap();
        let again: Vec<u8> = back.iter().flat_map(|t| t.emit()).collect();
        prop_assert_eq!(&again[..], &bytes[..whole]);
    }

    /// Producer `.snapshot`: any entries; the CRC written is CRC-32C of everything after it,
    /// parsing checks it, and writing the parsed snapshot gives the same bytes.
    #[test]
    fn snapshot_roundtrips(entries in vec(producer_entry(), 0..24)) {
        let x = SnapshotRepr { crc: 0, entries };
        let bytes = x.emit();
        prop_assert_eq!(bytes.len(), 10 + 46 * x.entries.len());
        let back = SnapshotRepr::parse(&bytes).unwrap();
        prop_assert_eq!(&back.entries, &x.entries);
        prop_assert_eq!(back.crc, eoslab_core::crc::crc32c(&bytes[6..]));
        prop_assert_eq!(back.emit(), bytes.clone());
        // Any one flipped bit is refused (version, CRC, count or an entry), never read as data.
        for bit in [0usize, 17, 50, bytes.len() * 8 - 1] {
            let mut b = bytes.clone();
            b[bit / 8] ^= 1 << (bit % 8);
            prop_assert!(SnapshotRepr::parse(&b).is_err(), "bit {} flipped", bit);
        }
    }

    /// `leader-epoch-checkpoint`: any entries; each `at` is its line's first byte; the same
    /// file with `\r\n` line ends (BufferedReader.readLine) reads the same.
    #[test]
    fn leader_epoch_checkpoint_roundtrips(entries in vec((any::<i32>(), any::<i64>()), 0..24)) {
        let x = LeaderEpochCheckpoint {
            version: Some(0),
            entries: entries.iter().map(|&(epoch, start_offset)| EpochEntry { epoch, start_offset, at: 0 }).collect(),
        };
        let bytes = x.emit();
        let back = parse_leader_epoch_checkpoint(&bytes, "p").unwrap();
        prop_assert_eq!(back.version, Some(0));
        let pairs: Vec<(i32, i64)> = back.entries.iter().map(|e| (e.epoch, e.start_offset)).collect();
        prop_assert_eq!(&pairs, &entries);
        for e in &back.entries {
            let line = format!("{} {}\n", e.epoch, e.start_offset);
            prop_assert!(bytes[e.at..].starts_with(line.as_bytes()));
        }
        prop_assert_eq!(back.emit(), bytes.clone());
        let crlf = String::from_utf8(bytes).unwrap().replace('\n', "\r\n");
        let back2 = parse_leader_epoch_checkpoint(crlf.as_bytes(), "p").unwrap();
        let pairs2: Vec<(i32, i64)> = back2.entries.iter().map(|e| (e.epoch, e.start_offset)).collect();
        prop_assert_eq!(pairs2, entries);
    }

    /// `partition.metadata`: any topic id but Uuid.ZERO_UUID (which Kafka refuses).
    #[test]
    fn partition_metadata_roundtrips(id in any::<[u8; 16]>().prop_filter("Uuid.ZERO_UUID", |id| *id != [0; 16])) {
        let x = PartitionMetadata::new(0, id);
        prop_assert_eq!(x.topic_id.len(), 22);
        let bytes = x.emit();
        let back = parse_partition_metadata(&bytes, "p").unwrap();
        prop_assert_eq!(&back, &x);
        prop_assert_eq!(back.emit(), bytes);
    }
}

/// The broker's own files (tests/fixtures/kafka-4.3.1) are what these writers write:
/// emit(parse(bytes)) == bytes for every `.index`, `.timeindex`, `.txnindex`, `.snapshot`,
/// `leader-epoch-checkpoint` and `partition.metadata` there.
#[test]
fn the_broker_files_are_written_back_byte_for_byte() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/fixtures/kafka-4.3.1");
    let mut seen = std::collections::BTreeMap::<&str, usize>::new();
    for d in std::fs::read_dir(&root).unwrap() {
        let d = d.unwrap().path();
        if !d.is_dir() {
            continue;
        }
        for f in std::fs::read_dir(&d).unwrap() {
            let p = f.unwrap().path();
            let name = p.file_name().unwrap().to_str().unwrap().to_string();
            let bytes = std::fs::read(&p).unwrap();
            let base = name.split('.').next().unwrap().parse::<i64>().unwrap_or(0);
            let (kind, again): (&'static str, Vec<u8>) = if name.ends_with(".index") {
                ("index", OffsetIndexRepr::parse(&OffsetIndex::new(&bytes[..], base)).emit())
            } else if name.ends_with(".timeindex") {
                ("timeindex", TimeIndexRepr::parse(&TimeIndex::new(&bytes[..], base)).emit())
            } else if name.ends_with(".txnindex") {
                let t = TransactionIndex::new(&bytes[..], base).all_aborted_txns("p").unwrap();
                ("txnindex", t.iter().flat_map(|t| t.emit()).collect())
            } else if name.ends_with(".snapshot") {
                ("snapshot", SnapshotRepr::parse(&bytes).unwrap().emit())
            } else if name == "leader-epoch-checkpoint" {
                ("leader-epoch-checkpoint", parse_leader_epoch_checkpoint(&bytes, "p").unwrap().emit())
            } else if name == "partition.metadata" {
                ("partition.metadata", parse_partition_metadata(&bytes, "p").unwrap().emit())
            } else {
                continue;
            };
            assert_eq!(again, bytes, "{}", p.display());
            *seen.entry(kind).or_default() += 1;
        }
    }
    for k in ["index", "timeindex", "txnindex", "snapshot", "leader-epoch-checkpoint", "partition.metadata"] {
        assert!(seen.get(k).copied().unwrap_or(0) > 0, "no {k} in the fixtures: {seen:?}");
    }
}
