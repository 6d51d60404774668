//! `files::partition::load` over the partition directories a real Kafka 4.3.1 broker wrote
//! (tests/fixtures/kafka-4.3.1, see its PROVENANCE.md; the broker was stopped cleanly, so each
//! directory holds a snapshot at its log end).
//!
//! - Every file agrees with the log: each `.snapshot` equals the producer state a replay of the
//!   log from offset 0 reaches at its offset (field by field, as `writeSnapshot` writes it), each
//!   `.txnindex` lists exactly the aborted transactions the log's ABORT markers close (with the
//!   same lastStableOffset), each `.index` / `.timeindex` entry points at a batch of the log.
//! - The load itself (snapshot + log after it) gives the same state as the replay from offset 0.
//! - A file that disagrees is flagged, with the field that differs.

use std::fs;
use std::path::{Path, PathBuf};

use eoslab_core::files::partition::{self, DirFile};

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/fixtures/kafka-4.3.1")
}

fn read_dir(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut v: Vec<(String, Vec<u8>)> = fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| !p.to_string_lossy().ends_with(".txt"))
        .map(|p| (p.file_name().unwrap().to_string_lossy().into_owned(), fs::read(&p).unwrap()))
        .collect();
    v.sort();
    v
}

fn load(files: &[(String, Vec<u8>)]) -> partition::Partition {
    let dir: Vec<DirFile<'_>> = files.iter().map(|(n, b)| DirFile { name: n, bytes: b }).collect();
    partition::load(&dir)
}

#[test]
fn every_file_of_every_broker_directory_agrees_with_its_log() {
    let mut dirs = 0;
    for e in fs::read_dir(fixtures()).unwrap() {
        let dir = e.unwrap().path();
        if !dir.is_dir() {
            continue;
        }
        dirs += 1;
        let files = read_dir(&dir);
        let p = load(&files);
        let text = partition::render(&p);
        assert!(p.errors.is_empty(), "{}:\n{text}", dir.display());
        assert!(p.checks.iter().all(|c| c.ok), "{}:\n{text}", dir.display());
        // One check per snapshot entry, per index file: the comparison really ran.
        let indexes = files.iter().filter(|(n, _)| n.ends_with("index")).count();
        assert!(p.checks.len() > indexes, "{}:\n{text}", dir.display());
        assert!(p.snapshot_used.is_some(), "{}: a clean shutdown leaves a snapshot", dir.display());
        // The load (snapshot + log after it) equals the replay of the whole log.
        let without_snapshots: Vec<(String, Vec<u8>)> = files.iter().filter(|(n, _)| !n.ends_with(".snapshot")).cloned().collect();
        let q = load(&without_snapshots);
        let entries = |p: &partition::Partition| p.producers.iter().map(|s| s.snapshot_entry()).collect::<Vec<_>>();
        assert_eq!(entries(&p), entries(&q), "{}", dir.display());
        assert_eq!(p.last_stable_offset, q.last_stable_offset);
        assert_eq!(p.aborted, q.aborted);
    }
    assert!(dirs >= 8, "fixtures present");
}

#[test]
fn the_transactional_partition_shows_its_aborted_transaction_and_lso() {
    let p = load(&read_dir(&fixtures().join("txn-0")));
    // The dump of 00000000000000000000.txnindex: producerId 1 firstOffset 3 lastOffset 4 lastStableOffset 5.
    let a: Vec<(i64, i64, i64, i64)> = p.aborted.iter().map(|a| (a.producer_id, a.first_offset, a.last_offset, a.last_stable_offset)).collect();
    assert_eq!(a, vec![(1, 3, 4, 5)]);
    assert!(p.open_transactions.is_empty());
    assert_eq!(p.last_stable_offset, p.log_end_offset);
    // TV2: the ABORT marker bumped the epoch to 2, which drops the retained batches.
    let s = &p.producers[0];
    assert_eq!((s.producer_id, s.epoch, s.batches.len()), (1, 2, 0));
}

#[test]
fn a_snapshot_or_txnindex_that_disagrees_with_the_log_is_flagged() {
    let files = read_dir(&fixtures().join("txn-0"));
    let mut bad = files.clone();
    for (n, b) in bad.iter_mut() {
        if n.ends_with(".txnindex") {
            // lastStableOffset of the one entry (bytes 26..34): 5 → 6.
            b[33] = 6;
        }
        if n.ends_with(".snapshot") {
            // The epoch of the first entry (bytes 18..20), then the CRC made right again.
            b[19] = 7;
            let crc = crc32c::crc32c(&b[6..]);
            b[2..6].copy_from_slice(&crc.to_be_bytes());
        }
    }
    let p = load(&bad);
    let text = partition::render(&p);
    let diff: Vec<&partition::Check> = p.checks.iter().filter(|c| !c.ok).collect();
    assert_eq!(diff.len(), 2, "{text}");
    assert!(diff.iter().any(|c| c.file.ends_with(".txnindex") && c.detail.contains("lastStableOffset 6")), "{text}");
    assert!(diff.iter().any(|c| c.file.ends_with(".snapshot") && c.detail.contains("producer 1: producerEpoch: snapshot 7, log 2")), "{text}");
}

#[test]
fn an_open_transaction_holds_the_lso_and_a_truncated_segment_is_reported() {
    // The first two batches of txn-0 (offsets 0..1 data, 2 COMMIT) and the third (offset 3,
    // a transactional batch whose ABORT marker is cut off): the transaction is open.
    let files = read_dir(&fixtures().join("txn-0"));
    let log = &files.iter().find(|(n, _)| n.ends_with(".log")).unwrap().1;
    let cut: Vec<(String, Vec<u8>)> = vec![("00000000000000000000.log".into(), log[..255 + 10].to_vec())];
    let p = load(&cut);
    assert_eq!(p.open_transactions, vec![(3, 1)]);
    assert_eq!(p.last_stable_offset, 3);
    assert_eq!(p.log_end_offset, 4);
    assert_eq!(p.errors.len(), 1, "{}", partition::render(&p));
    assert!(p.errors[0].contains("at byte 255"), "{:?}", p.errors);
}


#[test]
fn a_running_brokers_preallocated_index_tail_is_not_read_as_entries() {
    // A broker keeps its active segment's .index and .timeindex preallocated (zeros after the
    // entries) while it runs; DumpLogSegments stops at the first zero entry, and so do the checks.
    let mut files = read_dir(&fixtures().join("idempotent-0"));
    for (n, b) in files.iter_mut() {
        if n.ends_with(".index") || n.ends_with(".timeindex") {
            b.resize(b.len() + 12 * 1000, 0);
        }
    }
    let p = load(&files);
    let text = partition::render(&p);
    assert!(p.checks.iter().all(|c| c.ok), "{text}");
    assert!(text.contains("2 entries against the log (each: a batch's last offset → its position) (then 1500 zero entries"), "{text}");
}

#[test]
fn an_active_segments_index_with_no_entry_yet_is_all_zeros_and_not_a_disagreement() {
    // Kafka 4.3.1 after a restart: the active segment's .index is preallocated and, with fewer than
    // index.interval.bytes appended, holds no entry — every byte zero (seen on a real broker by
    // tests/kafka/partition_restart.py). The first batch of idempotent-0 ends at offset 2.
    let mut files = read_dir(&fixtures().join("idempotent-0"));
    for (n, b) in files.iter_mut() {
        if n.ends_with(".index") {
            *b = vec![0; 8 * 100];
        }
    }
    let p = load(&files);
    let text = partition::render(&p);
    assert!(p.checks.iter().all(|c| c.ok), "{text}");
    assert!(text.contains("0 entries against the log (each: a batch's last offset → its position) (then 100 zero entries"), "{text}");
}
