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
    // Kafka's TimeIndex.sanityCheck reads the last zero entry as the last entry (timestamp 0, below
    // the first): kafka-dump-log --index-sanity-check fails on such a file, and the view says so
    // without calling it a disagreement with the log.
    let t = p.checks.iter().find(|c| c.file.ends_with(".timeindex") && c.what.starts_with("TimeIndex.sanityCheck")).unwrap();
    assert!(t.detail.starts_with("kafka-dump-log would print org.apache.kafka.storage.internals.log.CorruptIndexException: Corrupt time index found, time index file (00000000000000000000.timeindex) has non-zero size but the last timestamp is 0 which is less than the first timestamp 1796320877328"), "{text}");
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

fn replace(files: &mut Vec<(String, Vec<u8>)>, name: &str, bytes: &[u8]) {
    files.retain(|(n, _)| n != name);
    files.push((name.to_string(), bytes.to_vec()));
    files.sort();
}

#[test]
fn the_leader_epochs_and_the_topic_id_are_read_and_checked_against_the_log() {
    let files = read_dir(&fixtures().join("txn-0"));
    let p = load(&files);
    let text = partition::render(&p);
    // The broker's files: "0\n1\n0 0\n" and topic_id VtkvmtHySUegWza8Nz0Hng; every batch of txn-0 has
    // partitionLeaderEpoch 0 (00000000000000000000.log.dump-log.txt).
    let e = |v: &[partition::EpochStart]| v.iter().map(|e| (e.epoch, e.start_offset)).collect::<Vec<_>>();
    assert_eq!(e(&p.leader_epochs), vec![(0, 0)]);
    assert_eq!(e(&p.log_leader_epochs), vec![(0, 0)]);
    assert_eq!(p.topic_id.as_deref(), Some("VtkvmtHySUegWza8Nz0Hng"));
    assert!(text.contains("topic id (partition.metadata): VtkvmtHySUegWza8Nz0Hng"), "{text}");
    assert!(text.contains("leader epochs (leader-epoch-checkpoint): epoch 0 from offset 0"), "{text}");
    let c = p.checks.iter().find(|c| c.file == "leader-epoch-checkpoint").expect("a leader epoch check");
    assert!(c.ok, "{text}");

    // A leader that took over at the log end (5) and has written nothing yet: no disagreement.
    let mut f = files.clone();
    replace(&mut f, "leader-epoch-checkpoint", b"0\n2\n0 0\n1 5\n");
    let p = load(&f);
    let c = p.checks.iter().find(|c| c.file == "leader-epoch-checkpoint").unwrap();
    assert!(c.ok && c.detail.contains("no batch written in it yet"), "{c:?}");

    // An epoch no batch carries, inside the log; an epoch starting past the log end; a
    // non-monotonic file: each flagged.
    for (bytes, want) in [
        (&b"0\n2\n0 0\n1 3\n"[..], "epoch 1 from offset 3: no batch of the log carries leader epoch 1"),
        (&b"0\n1\n0 7\n"[..], "epoch 0 starts at offset 7 in the checkpoint, but the log's first batch of epoch 0 is at offset 0"),
        (&b"0\n2\n0 0\n0 3\n"[..], "epochs and start offsets must both increase"),
        (&b"0\n1\n1 0\n"[..], "the log's first batch of leader epoch 0 is at offset 0; the checkpoint has no entry for epoch 0"),
    ] {
        let mut f = files.clone();
        replace(&mut f, "leader-epoch-checkpoint", bytes);
        let p = load(&f);
        let c = p.checks.iter().find(|c| c.file == "leader-epoch-checkpoint").unwrap();
        assert!(!c.ok && c.detail.contains(want), "{want}: {c:?}");
    }

    // Unreadable files: Kafka's exception and message, pinned on the byte; an unknown file is ignored.
    let mut f = files.clone();
    replace(&mut f, "leader-epoch-checkpoint", b"0\n2\n0 0\n");
    replace(&mut f, "partition.metadata", b"version: 0\ntopic_id: AAAAAAAAAAAAAAAAAAAAAA");
    replace(&mut f, "cleaner-offset-checkpoint.tmp", b"");
    let p = load(&f);
    assert!(p.errors.iter().any(|e| e == "leader-epoch-checkpoint: IOException at byte 2: Expected [2] entries in checkpoint file [leader-epoch-checkpoint], but found only [1]"), "{:?}", p.errors);
    assert!(p.errors.iter().any(|e| e == "partition.metadata: IOException at byte 21: Invalid topic ID in partition metadata file (partition.metadata)"), "{:?}", p.errors);
    assert_eq!(p.ignored, vec!["cleaner-offset-checkpoint.tmp".to_string()]);
    assert!(partition::render(&p).contains("ignored: cleaner-offset-checkpoint.tmp"));
}

#[test]
fn index_sanity_checks_report_kafkas_corrupt_index_exception() {
    let files = read_dir(&fixtures().join("txn-0"));
    let p = load(&files);
    let sanity: Vec<&partition::Check> = p.checks.iter().filter(|c| c.what.contains("sanityCheck")).collect();
    assert_eq!(sanity.len(), 3, "{}", partition::render(&p));
    assert!(sanity.iter().all(|c| c.ok && c.detail.is_empty()));
    assert!(sanity.iter().any(|c| c.file.ends_with(".index") && c.what == "OffsetIndex.sanityCheck (kafka-dump-log --index-sanity-check)"));

    let mut bad = files.clone();
    for (n, b) in bad.iter_mut() {
        if n.ends_with(".index") {
            b.push(0); // 25 bytes: not a multiple of 8
        }
        if n.ends_with(".timeindex") {
            // The last entry's timestamp (bytes 12..20) below the first's.
            b[12..20].copy_from_slice(&1i64.to_be_bytes());
        }
        if n.ends_with(".txnindex") {
            // The entry's lastOffset (bytes 18..26) below the segment's start: -1.
            b[18..26].copy_from_slice(&(-1i64).to_be_bytes());
        }
    }
    let p = load(&bad);
    let text = partition::render(&p);
    let failed = |suffix: &str| p.checks.iter().find(|c| c.file.ends_with(suffix) && c.what.contains("sanityCheck") && !c.ok).map(|c| c.detail.clone());
    assert_eq!(
        failed(".index").as_deref(),
        Some("org.apache.kafka.storage.internals.log.CorruptIndexException: Index file 00000000000000000000.index is corrupt, found 25 bytes which is neither positive nor a multiple of 8 (at byte 24)"),
        "{text}"
    );
    assert_eq!(
        failed(".timeindex").as_deref(),
        Some("org.apache.kafka.storage.internals.log.CorruptIndexException: Corrupt time index found, time index file (00000000000000000000.timeindex) has non-zero size but the last timestamp is 1 which is less than the first timestamp 1796320879227 (at byte 12)"),
        "{text}"
    );
    assert!(failed(".txnindex").is_some_and(|d| d.contains("Last offset of aborted transaction AbortedTxn(version=0, producerId=1, firstOffset=3, lastOffset=-1, lastStableOffset=5) in index 00000000000000000000.txnindex is less than start offset 0")), "{text}");
}

#[test]
fn a_snapshot_is_shown_beside_the_log_field_by_field_and_a_bad_crc_is_a_failed_check() {
    let files = read_dir(&fixtures().join("txn-0"));
    let p = load(&files);
    let s = &p.snapshots[0];
    assert_eq!((s.name.as_str(), s.offset, s.version), ("00000000000000000005.snapshot", 5, 1));
    assert_eq!(s.crc, s.computed_crc);
    // 00000000000000000005.snapshot.dump-log.txt: producerId: 1 producerEpoch: 2 coordinatorEpoch: 0
    // currentTxnFirstOffset: OptionalLong.empty lastTimestamp: 1796320879315 (no batch).
    let e = s.producers[0].stored.unwrap();
    assert_eq!((e.producer_id, e.epoch, e.coordinator_epoch, e.current_txn_first_offset, e.timestamp, e.last_offset), (1, 2, 0, -1, 1796320879315, -1));
    assert_eq!(s.producers[0].rebuilt, Some(e));
    assert!(s.producers[0].differs.is_empty());
    let crc_check = p.checks.iter().find(|c| c.file == s.name && c.what.contains("CRC-32C")).unwrap();
    assert!(crc_check.ok, "{crc_check:?}");
    assert!(crc_check.what.starts_with("version 1, CRC-32C 0x"), "{crc_check:?}");

    // One field changed, the CRC left as it was: the CRC check fails with Kafka's message, the
    // entries are still shown with the differing field named, and the load does not use the file.
    let mut bad = files.clone();
    for (n, b) in bad.iter_mut() {
        if n.ends_with(".snapshot") {
            b[10 + 44 + 1] = 9; // currentTxnFirstOffset of entry 0 (bytes 38..46 of it): -1 → -247
        }
    }
    let p = load(&bad);
    let text = partition::render(&p);
    let s = &p.snapshots[0];
    assert_ne!(s.crc, s.computed_crc);
    assert_eq!(s.producers[0].differs, vec!["currentTxnFirstOffset"]);
    let crc_check = p.checks.iter().find(|c| c.file == s.name && c.what.contains("CRC-32C")).unwrap();
    assert!(!crc_check.ok);
    assert_eq!(
        crc_check.detail,
        format!("CorruptSnapshotException at byte 2: Snapshot is corrupt (CRC is no longer valid). Stored crc: {}. Computed crc: {}", s.crc, s.computed_crc)
    );
    assert!(p.snapshot_used.is_none(), "{text}");
    assert!(text.contains("producer 1 differs in: currentTxnFirstOffset"), "{text}");
    assert!(text.contains("(MISMATCH, computed 0x"), "{text}");
}

#[test]
fn the_index_writer_lays_out_what_the_broker_wrote_for_the_same_log() {
    // files::layout::segment_indexes over each broker segment gives the broker's own .index and
    // .timeindex byte for byte: the data topics were created with index.interval.bytes=1 (PROVENANCE.md),
    // the internal ones have Kafka's default 4096.
    use eoslab_core::files::layout::{segment_indexes, DEFAULT_INDEX_INTERVAL_BYTES};
    let mut compared = 0;
    for e in fs::read_dir(fixtures()).unwrap() {
        let dir = e.unwrap().path();
        if !dir.is_dir() {
            continue;
        }
        let name = dir.file_name().unwrap().to_string_lossy().into_owned();
        let interval = if name.starts_with("__") { DEFAULT_INDEX_INTERVAL_BYTES } else { 1 };
        let log = fs::read(dir.join("00000000000000000000.log")).unwrap();
        let (index, timeindex) = segment_indexes(&log, 0, interval);
        assert_eq!(index, fs::read(dir.join("00000000000000000000.index")).unwrap(), "{name} .index");
        assert_eq!(timeindex, fs::read(dir.join("00000000000000000000.timeindex")).unwrap(), "{name} .timeindex");
        compared += 1;
    }
    assert!(compared >= 8);
}

/// An idempotence-model script whose leader log has every kind of file content: idempotent
/// batches, an aborted transaction (a .txnindex entry), a leader change (a second leader epoch),
/// a transaction left open (the LSO below the log end).
const GENERATED: &str = "title a partition directory from the lab's leader
time 1700000000000
partition orders-0
produce orders-0 pid=1000 epoch=0 seq=0 a b c
produce orders-0 pid=1000 epoch=0 seq=3 d
produce orders-0 pid=2000 epoch=0 seq=0 txn t1 t2
marker orders-0 pid=2000 epoch=0 abort coordinator-epoch=3 tv=1
leader-change orders-0
produce orders-0 pid=1000 epoch=0 seq=4 e f
produce orders-0 pid=2000 epoch=0 seq=2 txn t3
produce orders-0 pid=3000 epoch=0 seq=0 x
expect lso orders-0 9
";

#[test]
fn a_directory_written_from_the_models_leader_loads_with_every_check_ok_and_the_models_state() {
    use eoslab_core::files::layout::{lab_topic_id, partition_dir, uuid_to_string, LayoutOptions};
    use eoslab_core::model::scenario;
    let run = scenario::run(&scenario::parse(GENERATED).unwrap());
    assert!(run.passed(), "{:?} {:?}", run.error, run.failures);
    let leader = &run.sim.cluster.partitions[0];
    for interval in [1, 4096] {
        let opts = LayoutOptions { index_interval_bytes: interval, topic_id: lab_topic_id("orders-0") };
        let files = partition_dir(leader, &opts).unwrap();
        let names: Vec<&str> = files.iter().map(|(n, _)| n.as_str()).collect();
        assert_eq!(
            names,
            [
                "00000000000000000000.index",
                "00000000000000000000.log",
                "00000000000000000000.timeindex",
                "00000000000000000000.txnindex",
                "00000000000000000011.snapshot",
                "leader-epoch-checkpoint",
                "partition.metadata"
            ]
        );
        let p = load(&files);
        let text = partition::render(&p);
        assert!(p.errors.is_empty() && p.ignored.is_empty(), "{text}");
        assert!(p.checks.iter().all(|c| c.ok), "{text}");
        // A check for each file: snapshot CRC + snapshot, index + sanity ×3, leader epochs.
        assert_eq!(p.checks.len(), 9, "{text}");
        assert_eq!(p.snapshot_used.as_deref(), Some("00000000000000000011.snapshot (offset 11)"));
        // The state rebuilt from the files is the model leader's: each producer as the snapshot
        // writes it, the open transaction, the LSO, the aborted transaction with its LSO.
        let model: Vec<(i64, i16, i32, i64, i32, i64)> = leader
            .producers
            .iter()
            .map(|(pid, s)| (*pid, s.producer_epoch, s.last_seq(), s.current_txn_first_offset.unwrap_or(-1), s.coordinator_epoch, s.last_timestamp))
            .collect();
        let loaded: Vec<(i64, i16, i32, i64, i32, i64)> = p
            .producers
            .iter()
            .map(|s| (s.producer_id, s.epoch, s.snapshot_entry().last_sequence, s.current_txn_first_offset, s.coordinator_epoch, s.last_timestamp))
            .collect();
        assert_eq!(loaded, model);
        assert_eq!(model.iter().map(|m| (m.0, m.2, m.3, m.4)).collect::<Vec<_>>(), vec![(1000, 5, -1, -1), (2000, 2, 9, 3), (3000, 0, -1, -1)]);
        assert_eq!(p.last_stable_offset, leader.last_stable_offset());
        assert_eq!(p.last_stable_offset, 9);
        assert_eq!(p.log_end_offset, leader.log_end_offset);
        assert_eq!(p.open_transactions, vec![(9, 2000)]);
        let aborted: Vec<(i64, i64, i64, i64)> = p.aborted.iter().map(|a| (a.producer_id, a.first_offset, a.last_offset, a.last_stable_offset)).collect();
        let model_aborted: Vec<(i64, i64, i64, i64)> = leader.aborted_txns.iter().map(|a| (a.producer_id, a.first_offset, a.last_offset, a.last_stable_offset)).collect();
        assert_eq!(aborted, model_aborted);
        assert_eq!(aborted, vec![(2000, 4, 6, 7)]);
        let epochs: Vec<(i32, i64)> = p.leader_epochs.iter().map(|e| (e.epoch, e.start_offset)).collect();
        assert_eq!(epochs, vec![(0, 0), (1, 7)]);
        assert_eq!(p.topic_id.as_deref(), Some(uuid_to_string(&lab_topic_id("orders-0")).as_str()));
        // Without the snapshot the whole log is replayed: every retained batch is the model's.
        let no_snapshot: Vec<(String, Vec<u8>)> = files.iter().filter(|(n, _)| !n.ends_with(".snapshot")).cloned().collect();
        let q = load(&no_snapshot);
        for s in &q.producers {
            let m = &leader.producers[&s.producer_id];
            let mb: Vec<(i32, i64, i32, i64)> = m.batches.iter().map(|b| (b.last_seq, b.last_offset, b.offset_delta, b.timestamp)).collect();
            let qb: Vec<(i32, i64, i32, i64)> = s.batches.iter().map(|b| (b.last_sequence, b.last_offset, b.offset_delta, b.timestamp)).collect();
            assert_eq!(qb, mb, "producer {}", s.producer_id);
        }
        if interval == 1 {
            // Every batch but the first has an offset index entry (7 batches).
            assert!(text.contains("6 entries against the log (each: a batch's last offset → its position)"), "{text}");
        } else {
            // Under 4096 bytes in all: no entry, and the time index gets its one entry on close.
            assert!(text.contains("0 entries against the log (each: a batch's last offset → its position)"), "{text}");
            assert!(text.contains("1 entries against the log (each: a batch's max timestamp → its last offset)"), "{text}");
        }
    }
    // A log that starts later (`log-end` before the first write) is a segment named after its
    // first offset, and loads clean.
    let opts = LayoutOptions { index_interval_bytes: 1, topic_id: lab_topic_id("p0") };
    let run = scenario::run(&scenario::parse("partition p0\nlog-end p0 5\nproduce p0 pid=1 epoch=0 seq=0 a\n").unwrap());
    let files = partition_dir(&run.sim.cluster.partitions[0], &opts).unwrap();
    assert_eq!(files[1].0, "00000000000000000005.log");
    let p = load(&files);
    assert!(p.checks.iter().all(|c| c.ok) && p.errors.is_empty(), "{}", partition::render(&p));
    // A log end no batch reaches is refused with the reason.
    let mut leader = run.sim.cluster.partitions[0].clone();
    leader.log_end_offset += 1;
    let e = partition_dir(&leader, &opts);
    assert!(e.as_ref().is_err_and(|m| m.contains("the log's batches end at offset 6 but the leader's log end is 7")), "{e:?}");
}
