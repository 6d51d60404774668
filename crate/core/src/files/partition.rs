//! A partition directory read as the broker reads it when it loads the partition: the
//! producer state rebuilt from the latest `.snapshot` plus the log after it
//! (`LogLoader.load` → `UnifiedLog.rebuildProducerState`, `ProducerStateManager.loadFromSnapshot`,
//! `ProducerAppendInfo.append` with origin REPLICATION: nothing is refused while loading), the
//! open transactions and the LSO (`ProducerStateManager.firstUndecidedOffset`), the aborted
//! transactions with the LSO Kafka stores beside each (`ProducerStateManager.lastStableOffset`,
//! `LogSegment.updateTxnIndex`) — and, side by side, what the files themselves say, with every
//! disagreement flagged:
//! - each `.snapshot` against the state a replay of the log from its start reaches at the
//!   snapshot's offset (`ProducerStateManager.takeSnapshot` writes `lastSeq`, `lastDataOffset`,
//!   `lastOffsetDelta`, `lastTimestamp`, `coordinatorEpoch`, `currentTxnFirstOffset`);
//! - each `.txnindex` against the aborted transactions the log's ABORT markers close;
//! - each `.index` / `.timeindex` entry against the log (`DumpLogSegments.dumpIndex` /
//!   `dumpTimeIndex`: an offset index entry names the position of a batch whose last offset it
//!   is; a time index entry names a batch's last offset and its max timestamp), and each index
//!   through Kafka's own `sanityCheck` (`OffsetIndex`, `TimeIndex`, `TransactionIndex`: what
//!   `kafka-dump-log --index-sanity-check` runs), with Kafka's `CorruptIndexException` message;
//! - each `.snapshot`'s version and CRC-32C (`ProducerStateManager.readSnapshot`), its entries
//!   shown field by field beside the rebuilt ones;
//! - `leader-epoch-checkpoint` against the leader epochs of the log's batches
//!   (`LeaderEpochFileCache`: the entries a recovery of the log assigns, `LogSegment.recover`);
//! - `partition.metadata`: the topic id.
//!
//! Sans-IO: the caller hands in every file's name and bytes. The high watermark is not in the
//! partition directory (it lives in the log dir's `replication-offset-checkpoint`): the LSO is
//! computed with HW = log end, as after a clean shutdown of a single replica, and says so.
//! Producer-id expiry (`producer.id.expiration.ms`) needs the wall clock: entries are shown as
//! loaded, with their last timestamp, and none is expired here.

use alloc::collections::BTreeMap;
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use super::checkpoint::{parse_leader_epoch_checkpoint, parse_partition_metadata};
use super::index::{IndexEntry, OffsetIndex, OffsetPosition, SegmentIndex};
use super::snapshot::{ProducerEntry, ProducerSnapshot};
use super::timeindex::{TimeIndex, TimestampOffset};
use super::txnindex::{AbortedTxn, TransactionIndex};
use super::{file_name, offset_from_name, FileKind};
use crate::batch::HeaderRepr;
use crate::control::ControlType;
use crate::view::{entries, Entry};

/// One file of the directory: its name (or path) and its bytes.
#[derive(Clone, Copy, Debug)]
pub struct DirFile<'a> {
    pub name: &'a str,
    pub bytes: &'a [u8],
}

/// `BatchMetadata`: one retained batch of a producer (at most five per producer,
/// `ProducerStateEntry.NUM_BATCHES_TO_RETAIN`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize), serde(rename_all = "camelCase"))]
pub struct RetainedBatch {
    pub first_sequence: i32,
    pub last_sequence: i32,
    pub last_offset: i64,
    pub offset_delta: i32,
    pub timestamp: i64,
}

/// `ProducerStateEntry` as the broker holds it after loading.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize), serde(rename_all = "camelCase"))]
pub struct ProducerState {
    pub producer_id: i64,
    pub epoch: i16,
    pub coordinator_epoch: i32,
    pub last_timestamp: i64,
    /// The first offset of the producer's open transaction on this partition, or −1.
    pub current_txn_first_offset: i64,
    /// Oldest first; the last one gives lastSequence / lastOffset.
    pub batches: Vec<RetainedBatch>,
}

impl ProducerState {
    fn empty(producer_id: i64) -> Self {
        ProducerState {
            producer_id,
            epoch: -1,
            coordinator_epoch: -1,
            last_timestamp: -1,
            current_txn_first_offset: -1,
            batches: Vec::new(),
        }
    }

    /// `ProducerStateManager.readSnapshot`: one retained batch when `lastOffset ≥ 0`.
    fn from_snapshot(e: &ProducerEntry) -> Self {
        let mut s = ProducerState {
            producer_id: e.producer_id,
            epoch: e.epoch,
            coordinator_epoch: e.coordinator_epoch,
            last_timestamp: e.timestamp,
            current_txn_first_offset: e.current_txn_first_offset,
            batches: Vec::new(),
        };
        if e.has_batch() {
            s.batches.push(RetainedBatch {
                first_sequence: e.first_sequence(),
                last_sequence: e.last_sequence,
                last_offset: e.last_offset,
                offset_delta: e.offset_delta,
                timestamp: e.timestamp,
            });
        }
        s
    }

    /// The entry `ProducerStateManager.writeSnapshot` would write for this state.
    pub fn snapshot_entry(&self) -> ProducerEntry {
        let last = self.batches.last().map(|b| (b.last_sequence, b.last_offset, b.offset_delta));
        ProducerEntry::from_last_batch(self.producer_id, self.epoch, last, self.last_timestamp, self.coordinator_epoch, self.current_txn_first_offset)
    }

    /// `ProducerStateEntry.maybeUpdateProducerEpoch`: a new epoch drops the retained batches.
    fn set_epoch(&mut self, epoch: i16) {
        if self.epoch != epoch {
            self.batches.clear();
            self.epoch = epoch;
        }
    }
}

/// A batch of the log as the producer state sees it.
#[derive(Clone, Debug)]
struct Appended {
    header: HeaderRepr,
    /// A magic v2 batch (the only kind with a partition leader epoch).
    v2: bool,
    /// For a control batch: its marker (COMMIT/ABORT), coordinator epoch and record timestamp.
    marker: Option<(ControlType, i32, i64)>,
}

/// The producer state and the open transactions while the log is replayed.
#[derive(Clone, Debug, Default)]
struct Replay {
    producers: BTreeMap<i64, ProducerState>,
    /// `ongoingTxns`: first offset → producer id.
    ongoing: BTreeMap<i64, i64>,
    aborted: Vec<AbortedTxn>,
}

impl Replay {
    fn load(entries: &[ProducerEntry]) -> Self {
        let mut r = Replay::default();
        for e in entries {
            let s = ProducerState::from_snapshot(e);
            if s.current_txn_first_offset >= 0 {
                r.ongoing.insert(s.current_txn_first_offset, s.producer_id);
            }
            r.producers.insert(e.producer_id, s);
        }
        r
    }

    /// `ProducerAppendInfo.append` (origin REPLICATION) followed by `ProducerStateManager.update`
    /// and, for a marker that closes a transaction, `completeTxn` (an ABORT also goes to the
    /// transaction index with `lastStableOffset(completedTxn)`).
    fn append(&mut self, b: &Appended) {
        let h = &b.header;
        // `RecordBatch.hasProducerId`.
        if h.producer_id < 0 {
            return;
        }
        let pid = h.producer_id;
        let entry = self.producers.entry(pid).or_insert_with(|| ProducerState::empty(pid));
        let last_offset = h.base_offset.wrapping_add(h.last_offset_delta as i64);
        match b.marker {
            None if !h.attributes.is_control() => {
                // appendDataBatch → ProducerStateEntry.addBatch.
                entry.set_epoch(h.producer_epoch);
                if entry.batches.len() == 5 {
                    entry.batches.remove(0);
                }
                let last_sequence = crate::sequence::increment(h.base_sequence, h.last_offset_delta);
                entry.batches.push(RetainedBatch {
                    first_sequence: h.base_sequence,
                    last_sequence: if h.base_sequence < 0 { -1 } else { last_sequence },
                    last_offset,
                    offset_delta: h.last_offset_delta,
                    timestamp: h.max_timestamp,
                });
                entry.last_timestamp = h.max_timestamp;
                if entry.current_txn_first_offset < 0 && h.attributes.is_transactional() {
                    entry.current_txn_first_offset = h.base_offset;
                    self.ongoing.insert(h.base_offset, pid);
                }
            }
            None => {} // an empty control batch: the transaction was cleaned away
            Some((ty, coordinator_epoch, timestamp)) => {
                if !ty.is_end_txn_marker() {
                    return;
                }
                let first = entry.current_txn_first_offset;
                // appendEndTxnMarker → ProducerStateEntry.update(epoch, coordinatorEpoch, timestamp).
                entry.set_epoch(h.producer_epoch);
                entry.coordinator_epoch = coordinator_epoch;
                entry.current_txn_first_offset = -1;
                entry.last_timestamp = timestamp;
                if first >= 0 {
                    if ty == ControlType::Abort {
                        // lastStableOffset(completedTxn): the first open transaction of another producer.
                        let lso = self
                            .ongoing
                            .iter()
                            .find(|(_, p)| **p != pid)
                            .map_or(h.base_offset + 1, |(o, _)| *o);
                        self.aborted.push(AbortedTxn {
                            version: 0,
                            producer_id: pid,
                            first_offset: first,
                            last_offset: h.base_offset,
                            last_stable_offset: lso,
                        });
                    }
                    self.ongoing.remove(&first);
                }
            }
        }
    }

    fn snapshot_entries(&self) -> Vec<ProducerEntry> {
        self.producers.values().map(ProducerState::snapshot_entry).collect()
    }
}

/// One segment of the log.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize), serde(rename_all = "camelCase"))]
pub struct Segment {
    pub name: String,
    pub base_offset: i64,
    pub bytes: usize,
    pub batches: usize,
    /// The offset after the segment's last batch (its base offset when empty).
    pub next_offset: i64,
}

/// A comparison of a file with the log: `ok` or a disagreement, in words.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize), serde(rename_all = "camelCase"))]
pub struct Check {
    pub file: String,
    pub ok: bool,
    /// What was compared (e.g. "producer 1000 against the log replayed to offset 7").
    pub what: String,
    /// The disagreement (empty when `ok`).
    pub detail: String,
}

/// One leader epoch and the offset it starts at (`EpochEntry`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize), serde(rename_all = "camelCase"))]
pub struct EpochStart {
    pub epoch: i32,
    pub start_offset: i64,
}

/// One producer of a `.snapshot`, side by side with the state the log replayed from its start
/// reaches at the snapshot's offset.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize), serde(rename_all = "camelCase"))]
pub struct SnapshotProducer {
    pub producer_id: i64,
    /// As the file stores it (`None`: the producer is in the log but not in the snapshot).
    pub stored: Option<ProducerEntry>,
    /// As the log gives it (`None`: the log has no batch of this producer up to the offset).
    pub rebuilt: Option<ProducerEntry>,
    /// The fields that differ, by Kafka's schema names (`ProducerSnapshot.json`).
    pub differs: Vec<&'static str>,
}

/// A `.snapshot` file as it reads: version, CRC (stored and computed), and its producers beside
/// the log's.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize), serde(rename_all = "camelCase"))]
pub struct SnapshotFile {
    pub name: String,
    pub offset: i64,
    pub version: i16,
    pub crc: u32,
    pub computed_crc: u32,
    pub producers: Vec<SnapshotProducer>,
}

/// The partition as the broker rebuilds it on load, and what its files say.
#[derive(Clone, Debug, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize), serde(rename_all = "camelCase"))]
pub struct Partition {
    pub segments: Vec<Segment>,
    pub log_start_offset: i64,
    pub log_end_offset: i64,
    /// The snapshot the load starts from (the latest at or below the log end), if any.
    pub snapshot_used: Option<String>,
    /// Producer state after the load, by producer id.
    pub producers: Vec<ProducerState>,
    /// Open transactions: (first offset, producer id), oldest first.
    pub open_transactions: Vec<(i64, i64)>,
    /// `firstUndecidedOffset`, else the log end (HW taken as the log end).
    pub last_stable_offset: i64,
    /// The aborted transactions the log's markers close, with the LSO Kafka stores for each.
    pub aborted: Vec<AbortedTxn>,
    /// `leader-epoch-checkpoint`'s entries (empty without the file).
    pub leader_epochs: Vec<EpochStart>,
    /// The entries a recovery of the log would assign (`LogSegment.recover`: the first batch of
    /// each leader epoch above the latest one, at its base offset).
    pub log_leader_epochs: Vec<EpochStart>,
    /// `partition.metadata`'s topic id (base64url, as Kafka's `Uuid.toString()` writes it).
    pub topic_id: Option<String>,
    /// Every readable `.snapshot`, in offset order.
    pub snapshots: Vec<SnapshotFile>,
    pub checks: Vec<Check>,
    /// Files that could not be read (name, Kafka's exception and message, byte offset).
    pub errors: Vec<String>,
    /// Files not used (not part of a partition directory).
    pub ignored: Vec<String>,
}

/// Reads the batches of one `.log` segment (the walk stops at the first error, as Java's
/// log readers do; the error is reported). Every batch's CRC is checked as the broker's
/// recovery checks it (`LogSegment.recover` calls `ensureValid` on each batch and truncates the
/// segment at the first that fails): a corrupt batch is an error and nothing from it on is loaded.
fn read_segment(name: &str, bytes: &[u8], out: &mut Vec<(usize, Appended)>, errors: &mut Vec<String>) -> usize {
    let mut n = 0;
    let mut scratch = Vec::new();
    let corrupt = |at: usize, start: usize, stored: u32, computed: u32| {
        format!(
            "{name}: CorruptRecordException at byte {at}: Record is corrupt (stored crc = {stored}, computed crc = {computed}); the broker's recovery truncates the segment at byte {start} (LogSegment.recover)"
        )
    };
    for e in entries(bytes) {
        match e {
            Ok(Entry::V2(v)) if !v.crc_valid() => {
                errors.push(corrupt(v.start + crate::wire::batch::field::CRC.start, v.start, v.header.crc, v.crc_computed));
                break;
            }
            Ok(Entry::Legacy { start, bytes, .. })
                if bytes.len() >= 16 && u32::from_be_bytes([bytes[12], bytes[13], bytes[14], bytes[15]]) != crate::wire::crc::crc32_ieee(&bytes[16..]) =>
            {
                // LegacyRecord.ensureValid: the CRC-32 of everything after the crc field.
                let stored = u32::from_be_bytes([bytes[12], bytes[13], bytes[14], bytes[15]]);
                errors.push(corrupt(start + 12, start, stored, crate::wire::crc::crc32_ieee(&bytes[16..])));
                break;
            }
            Ok(Entry::V2(v)) => {
                let mut marker = None;
                if v.header.attributes.is_control() {
                    if let Ok(mut recs) = v.records(&mut scratch, 1 << 20) {
                        if let Some(Ok(r)) = recs.next() {
                            if let Ok(c) = crate::control::parse(r.key, r.value) {
                                marker = Some((ControlType::from_id(c.type_id), c.coordinator_epoch.unwrap_or(-1), r.timestamp));
                            }
                        }
                    }
                }
                out.push((v.start, Appended { header: v.header, v2: true, marker }));
                n += 1;
            }
            Ok(Entry::Legacy { .. }) => n += 1,
            Err(err) => {
                errors.push(format!("{name}: {} at byte {}: {}", err.kind, err.at, err.message));
                break;
            }
        }
    }
    n
}

/// Reads a partition directory's files and rebuilds the partition as the broker would.
pub fn load(files: &[DirFile<'_>]) -> Partition {
    let mut p = Partition::default();
    // Segments in base-offset order.
    let mut logs: Vec<(i64, &DirFile<'_>)> = Vec::new();
    let mut snapshots: Vec<(i64, &DirFile<'_>)> = Vec::new();
    let mut epoch_file: Option<&DirFile<'_>> = None;
    for f in files {
        let kind = FileKind::of(f.name);
        let offset = offset_from_name(f.name);
        match (kind, offset) {
            (FileKind::Log, Ok(o)) => logs.push((o, f)),
            (FileKind::ProducerSnapshot, Ok(o)) => snapshots.push((o, f)),
            (FileKind::Index | FileKind::TimeIndex | FileKind::TxnIndex, Ok(_)) => {}
            (FileKind::LeaderEpochCheckpoint, _) => match parse_leader_epoch_checkpoint(f.bytes, file_name(f.name)) {
                Ok(c) => {
                    p.leader_epochs = c.entries.iter().map(|e| EpochStart { epoch: e.epoch, start_offset: e.start_offset }).collect();
                    epoch_file = Some(f);
                }
                Err(e) => p.errors.push(format!("{}: {} at byte {}: {}", file_name(f.name), e.kind, e.at, e.message)),
            },
            (FileKind::PartitionMetadata, _) => match parse_partition_metadata(f.bytes, file_name(f.name)) {
                Ok(m) => p.topic_id = Some(m.topic_id),
                Err(e) => p.errors.push(format!("{}: {} at byte {}: {}", file_name(f.name), e.kind, e.at, e.message)),
            },
            (_, Err(e)) if kind != FileKind::Unknown => p.errors.push(format!("{}: {} {}", file_name(f.name), e.kind, e.message)),
            _ => p.ignored.push(String::from(file_name(f.name))),
        }
    }
    logs.sort_by_key(|(o, _)| *o);
    snapshots.sort_by_key(|(o, _)| *o);

    // Every batch of the log, with its segment.
    let mut batches: Vec<(usize, usize, Appended)> = Vec::new(); // (segment, position, batch)
    for (si, (base, f)) in logs.iter().enumerate() {
        let mut seg = Vec::new();
        let n = read_segment(file_name(f.name), f.bytes, &mut seg, &mut p.errors);
        let next_offset = seg
            .last()
            .map_or(*base, |(_, b)| b.header.base_offset.wrapping_add(b.header.last_offset_delta as i64).wrapping_add(1));
        p.segments.push(Segment {
            name: String::from(file_name(f.name)),
            base_offset: *base,
            bytes: f.bytes.len(),
            batches: n,
            next_offset,
        });
        batches.extend(seg.into_iter().map(|(pos, b)| (si, pos, b)));
    }
    p.log_start_offset = batches.first().map_or_else(|| logs.first().map_or(0, |(o, _)| *o), |(_, _, b)| b.header.base_offset);
    p.log_end_offset = p.segments.last().map_or(0, |s| s.next_offset);
    let last_offset_of = |b: &Appended| b.header.base_offset.wrapping_add(b.header.last_offset_delta as i64);

    // The log replayed from its start: the reference every file is compared with.
    let mut from_start = Replay::default();
    let mut next = 0usize; // batches[..next] are replayed into from_start
    for (so, f) in &snapshots {
        while next < batches.len() && last_offset_of(&batches[next].2) < *so {
            from_start.append(&batches[next].2);
            next += 1;
        }
        let name = String::from(file_name(f.name));
        match ProducerSnapshot::new_schema_checked(f.bytes) {
            Err(e) => p.errors.push(format!("{name}: {} at byte {}: {}", e.kind, e.at, e.message)),
            Ok(s) => {
                // readSnapshot: the CRC-32C of every byte after it; a mismatch is a
                // CorruptSnapshotException (the broker deletes the file and loads from an older one).
                let (crc, computed) = (s.crc(), s.computed_crc());
                let detail = if crc == computed {
                    String::new()
                } else {
                    let e = super::snapshot::crc_error(crc, computed);
                    format!("{} at byte {}: {}", e.kind, e.at, e.message)
                };
                let what = format!(
                    "version {}, CRC-32C {crc:#010x} of bytes {}..{} (ProducerStateManager.readSnapshot)",
                    s.version(),
                    super::snapshot::field::PRODUCER_ENTRIES_OFFSET,
                    f.bytes.len()
                );
                p.checks.push(check(&name, crc == computed, what, detail));
                let stored: Vec<ProducerEntry> = s.iter().collect();
                let rebuilt = from_start.snapshot_entries();
                compare_snapshot(&name, *so, &stored, &rebuilt, p.log_start_offset, &mut p.checks);
                p.snapshots.push(SnapshotFile {
                    name,
                    offset: *so,
                    version: s.version(),
                    crc,
                    computed_crc: computed,
                    producers: side_by_side(&stored, &rebuilt),
                });
            }
        }
    }

    // What the broker does: the latest readable snapshot at or below the log end, then the log after it.
    let used = snapshots
        .iter()
        .rev()
        .filter(|(o, _)| *o <= p.log_end_offset)
        .find_map(|(o, f)| ProducerSnapshot::new_checked(f.bytes).ok().map(|s| (*o, f, s.iter().collect::<Vec<_>>())));
    let mut state = match &used {
        Some((o, f, entries)) => {
            p.snapshot_used = Some(format!("{} (offset {o})", file_name(f.name)));
            let mut r = Replay::load(entries);
            for (_, _, b) in batches.iter().filter(|(_, _, b)| last_offset_of(b) >= *o) {
                r.append(b);
            }
            r
        }
        None => {
            let mut r = Replay::default();
            for (_, _, b) in &batches {
                r.append(b);
            }
            r
        }
    };
    p.producers = core::mem::take(&mut state.producers).into_values().collect();
    p.open_transactions = state.ongoing.iter().map(|(o, pid)| (*o, *pid)).collect();
    p.last_stable_offset = state.ongoing.keys().next().copied().unwrap_or(p.log_end_offset);

    // The aborted transactions from the whole log (the txnindex holds them per segment).
    let mut whole = Replay::default();
    let mut aborted_by_segment: Vec<Vec<AbortedTxn>> = alloc::vec![Vec::new(); logs.len()];
    for (si, _, b) in &batches {
        let before = whole.aborted.len();
        whole.append(b);
        aborted_by_segment[*si].extend_from_slice(&whole.aborted[before..]);
    }
    p.aborted = whole.aborted;

    // LogSegment.recover: a v2 batch whose partition leader epoch is above the latest one
    // assigns (epoch, its base offset) (LeaderEpochFileCache.assign).
    for (_, _, b) in &batches {
        let e = b.header.partition_leader_epoch;
        if b.v2 && e >= 0 && p.log_leader_epochs.last().is_none_or(|l| e > l.epoch) {
            p.log_leader_epochs.push(EpochStart { epoch: e, start_offset: b.header.base_offset });
        }
    }
    if let Some(f) = epoch_file {
        check_leader_epochs(file_name(f.name), &p.leader_epochs, &p.log_leader_epochs, p.log_start_offset, p.log_end_offset, &mut p.checks);
    }

    // Indexes against the log.
    for f in files {
        let kind = FileKind::of(f.name);
        if !matches!(kind, FileKind::Index | FileKind::TimeIndex | FileKind::TxnIndex) {
            continue;
        }
        let name = String::from(file_name(f.name));
        let Ok(base) = offset_from_name(f.name) else { continue };
        let Some(si) = logs.iter().position(|(o, _)| *o == base) else {
            p.checks.push(Check {
                file: name,
                ok: false,
                what: String::from("its segment"),
                detail: format!("no {base:020}.log among the files"),
            });
            continue;
        };
        let seg: Vec<&(usize, usize, Appended)> = batches.iter().filter(|(s, _, _)| *s == si).collect();
        match kind {
            FileKind::Index => check_offset_index(&name, f.bytes, base, &seg, &mut p.checks),
            FileKind::TimeIndex => check_time_index(&name, f.bytes, base, &seg, &mut p.checks),
            _ => check_txn_index(&name, f.bytes, base, &aborted_by_segment[si], &mut p.checks),
        }
    }
    p
}

fn last_of(b: &Appended) -> i64 {
    b.header.base_offset.wrapping_add(b.header.last_offset_delta as i64)
}

fn check(file: &str, ok: bool, what: String, detail: String) -> Check {
    Check { file: String::from(file), ok, what, detail }
}

mod checks;
use checks::{check_leader_epochs, check_offset_index, check_time_index, check_txn_index, compare_snapshot, side_by_side};
pub use checks::differing_fields;

mod render;
pub use render::{render, simulator_script};
