//! A partition directory written from the lab's own leader: the files a Kafka 4.3 broker would
//! leave on disk for the log the idempotence model's leader holds ([`crate::model::partition::Partition`]),
//! after a clean shutdown — one segment, laid out with the writers of the sibling modules:
//! - `<base>.log`: the batches as the leader stored them (offsets and partition leader epoch set
//!   by the leader, `LogValidator` / `UnifiedLog.append`);
//! - `<base>.index` and `<base>.timeindex`: the entries `LogSegment.append` (Kafka 4.3.1,
//!   `storage/.../log/LogSegment.java`) adds batch by batch — an index entry when more than
//!   `index.interval.bytes` were appended since the last one (`bytesSinceLastIndexEntry >
//!   indexIntervalBytes`, tested *before* the batch's own bytes are counted, so the first batch never
//!   has one): `offsetIndex.append(batchLastOffset, physicalPosition)` and
//!   `timeIndex.maybeAppend(maxTimestampSoFar, shallowOffsetOfMaxTimestampSoFar)`; then
//!   `LogSegment.close` → `timeIndex.maybeAppend(maxTimestampSoFar, …, true)`, and both trimmed to
//!   their entries (`trimToValidSize`);
//! - `<base>.txnindex` (only when a transaction was aborted: `TransactionIndex` creates its file on
//!   the first append): the leader's aborted transactions (`LogSegment.updateTxnIndex`);
//! - `<log end>.snapshot`: `ProducerStateManager.takeSnapshot` on close (when the log end is past
//!   offset 0), every producer as `writeSnapshot` writes it;
//! - `leader-epoch-checkpoint`: what `LeaderEpochFileCache.assign` keeps for the first batch of each
//!   leader epoch, and the leader's current epoch at the log end (`Partition.makeLeader`);
//! - `partition.metadata`: `version: 0` and the topic id (`PartitionMetadataFile.write`).
//!
//! [`crate::files::partition::load`] reads such a directory back; every check agrees, and the
//! state it rebuilds is the model's.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use super::checkpoint::{EpochEntry, LeaderEpochCheckpoint, PartitionMetadata, LEADER_EPOCH_CHECKPOINT_VERSION};
use super::index::{OffsetIndexRepr, OffsetPosition};
use super::snapshot::{ProducerEntry, SnapshotRepr};
use super::timeindex::{TimeIndexRepr, TimestampOffset, NO_TIMESTAMP};
use super::txnindex::AbortedTxn;
use crate::model::partition::Partition;
use crate::view::{entries, Entry};

/// Kafka's default `log.index.interval.bytes` (`ServerLogConfigs.LOG_INDEX_INTERVAL_BYTES_DEFAULT`).
pub const DEFAULT_INDEX_INTERVAL_BYTES: i32 = 4096;

/// How the directory is laid out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LayoutOptions {
    /// The topic's `index.interval.bytes`.
    pub index_interval_bytes: i32,
    /// The topic id `partition.metadata` holds.
    pub topic_id: [u8; 16],
}

/// A topic id for a lab partition: Kafka draws a random `Uuid`; the lab derives one from the
/// partition's name (CRC-32C of the name with four seeds), so a script always lays out the same
/// bytes. Never zero; its base64 string never starts with `-` (`Uuid.randomUuid` redraws those).
pub fn lab_topic_id(name: &str) -> [u8; 16] {
    let mut id = [0u8; 16];
    for (i, chunk) in id.chunks_mut(4).enumerate() {
        let mut seed = Vec::with_capacity(name.len() + 8);
        seed.extend_from_slice(b"eoslab ");
        seed.push(b'0' + i as u8);
        seed.extend_from_slice(name.as_bytes());
        chunk.copy_from_slice(&crate::crc::crc32c(&seed).to_be_bytes());
    }
    id[0] &= 0x7f; // the first base64 character below '-' (62)
    id[15] |= 1; // never the zero Uuid
    id
}

/// `Uuid.toString()`: URL-safe base64 without padding (22 characters), as `partition.metadata`
/// spells it ([`PartitionMetadata::new`]).
pub fn uuid_to_string(id: &[u8; 16]) -> String {
    PartitionMetadata::new(0, *id).topic_id
}

/// The `.index` and `.timeindex` bytes Kafka 4.3.1 leaves for a segment holding `log` (batches
/// from `base_offset`), appended batch by batch and closed (see the module comment). Batches that
/// do not read stop the walk, as Kafka's readers stop.
pub fn segment_indexes(log: &[u8], base_offset: i64, index_interval_bytes: i32) -> (Vec<u8>, Vec<u8>) {
    let mut offsets: Vec<OffsetPosition> = Vec::new();
    let mut times: Vec<TimestampOffset> = Vec::new();
    // TimeIndex.lastEntry of an empty index: (NO_TIMESTAMP, baseOffset).
    let last_time = |t: &[TimestampOffset]| t.last().copied().unwrap_or(TimestampOffset { timestamp: NO_TIMESTAMP, offset: base_offset });
    // maxTimestampAndOffsetSoFar starts as TimestampOffset.UNKNOWN (-1, -1).
    let mut max_so_far = TimestampOffset { timestamp: -1, offset: -1 };
    let mut bytes_since_last_entry: i64 = 0;
    for e in entries(log) {
        let (position, last_offset, max_timestamp, size) = match e {
            Ok(Entry::V2(v)) => {
                let h = &v.header;
                (v.start, h.base_offset.wrapping_add(h.last_offset_delta as i64), h.max_timestamp, h.batch_length as i64 + 12)
            }
            _ => break,
        };
        if max_timestamp > max_so_far.timestamp {
            max_so_far = TimestampOffset { timestamp: max_timestamp, offset: last_offset };
        }
        if bytes_since_last_entry > index_interval_bytes as i64 {
            // OffsetIndex.append: only past the last entry (offsets only grow here).
            if offsets.last().is_none_or(|l| last_offset > l.offset) {
                offsets.push(OffsetPosition { offset: last_offset, position: position as i32 });
            }
            // TimeIndex.maybeAppend: only a timestamp above the last entry's.
            if max_so_far.timestamp > last_time(&times).timestamp {
                times.push(max_so_far);
            }
            bytes_since_last_entry = 0;
        }
        bytes_since_last_entry += size;
    }
    // LogSegment.close: timeIndex.maybeAppend(maxTimestampSoFar, shallowOffsetOfMaxTimestampSoFar, true).
    if max_so_far.offset != -1 && max_so_far.timestamp > last_time(&times).timestamp {
        times.push(max_so_far);
    }
    let index = OffsetIndexRepr { base_offset, entries: offsets, trailing_bytes: 0 }.emit();
    let timeindex = TimeIndexRepr { base_offset, entries: times, trailing_bytes: 0 }.emit();
    (index, timeindex)
}

/// The files of `p`'s directory, by file name, in name order. An error when the leader's state
/// cannot be a directory's: a log end the batches do not reach (a `log-end` or `producer-state`
/// line moves it without writing bytes), or a batch that does not read.
pub fn partition_dir(p: &Partition, opts: &LayoutOptions) -> Result<Vec<(String, Vec<u8>)>, String> {
    let mut log = Vec::new();
    for e in &p.log {
        log.extend_from_slice(&e.bytes);
    }
    let base = p.log.first().map_or(p.log_end_offset, |e| e.base_offset);
    // The batches as a reader sees them: their offsets and leader epochs.
    let mut next = base;
    let mut epochs: Vec<(i32, i64)> = Vec::new();
    for e in entries(&log) {
        match e {
            Ok(Entry::V2(v)) => {
                let h = &v.header;
                next = h.base_offset.wrapping_add(h.last_offset_delta as i64).wrapping_add(1);
                // LeaderEpochFileCache.assign for the first batch of an epoch above the latest.
                if h.partition_leader_epoch >= 0 && epochs.last().is_none_or(|l| h.partition_leader_epoch > l.0) {
                    epochs.push((h.partition_leader_epoch, h.base_offset));
                }
            }
            Ok(Entry::Legacy { start, .. }) => return Err(format!("{}: a magic 0/1 message at byte {start}: the lab's leader writes v2 batches only", p.name)),
            Err(e) => return Err(format!("{}: the log does not read at byte {}: {} {}", p.name, e.at, e.kind, e.message)),
        }
    }
    if next != p.log_end_offset {
        return Err(format!(
            "{}: the log's batches end at offset {next} but the leader's log end is {}: a `log-end` or `producer-state` line moved it without writing a batch, which no file of a partition directory records",
            p.name, p.log_end_offset
        ));
    }
    // Partition.makeLeader: the current leader epoch from the log end offset (assign truncates any
    // entry at or above it; an epoch that wrote nothing keeps no entry once a later one starts at
    // the same offset).
    let current = (p.leader_epoch, p.log_end_offset);
    if p.leader_epoch >= 0 && epochs.last().is_none_or(|l| l.0 != current.0) {
        epochs.retain(|e| e.0 < current.0 && e.1 < current.1);
        epochs.push(current);
    }

    let stem = format!("{base:020}");
    let mut out: Vec<(String, Vec<u8>)> = Vec::new();
    let (index, timeindex) = segment_indexes(&log, base, opts.index_interval_bytes);
    out.push((format!("{stem}.log"), log));
    out.push((format!("{stem}.index"), index));
    out.push((format!("{stem}.timeindex"), timeindex));
    if !p.aborted_txns.is_empty() {
        let mut txn = Vec::new();
        for a in &p.aborted_txns {
            let e = AbortedTxn {
                version: super::txnindex::CURRENT_VERSION,
                producer_id: a.producer_id,
                first_offset: a.first_offset,
                last_offset: a.last_offset,
                last_stable_offset: a.last_stable_offset,
            };
            txn.extend_from_slice(&e.emit());
        }
        out.push((format!("{stem}.txnindex"), txn));
    }
    // ProducerStateManager.takeSnapshot: only past the last snapshot's offset (none yet: 0).
    if p.log_end_offset > 0 {
        let entries = p
            .producers
            .iter()
            .map(|(pid, s)| {
                let last = s.batches.back().map(|b| (b.last_seq, b.last_offset, b.offset_delta));
                let txn_first = s.current_txn_first_offset.unwrap_or(-1);
                ProducerEntry::from_last_batch(*pid, s.producer_epoch, last, s.last_timestamp, s.coordinator_epoch, txn_first)
            })
            .collect();
        out.push((format!("{:020}.snapshot", p.log_end_offset), SnapshotRepr { crc: 0, entries }.emit()));
    }
    // CheckpointFile.write and PartitionMetadataFile.record, by the checkpoint module's writers.
    let cp = LeaderEpochCheckpoint {
        version: Some(LEADER_EPOCH_CHECKPOINT_VERSION),
        entries: epochs.iter().map(|&(epoch, start_offset)| EpochEntry { epoch, start_offset, at: 0 }).collect(),
    };
    out.push((String::from("leader-epoch-checkpoint"), cp.emit()));
    out.push((String::from("partition.metadata"), PartitionMetadata::new(0, opts.topic_id).emit()));
    out.sort();
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn uuid_strings_are_kafkas() {
        // partition.metadata of tests/fixtures/kafka-4.3.1/txn-0: topic_id VtkvmtHySUegWza8Nz0Hng.
        let m = super::super::checkpoint::parse_partition_metadata(b"version: 0\ntopic_id: VtkvmtHySUegWza8Nz0Hng", "p").unwrap();
        assert_eq!(uuid_to_string(&m.topic_id_bytes), "VtkvmtHySUegWza8Nz0Hng");
        let id = lab_topic_id("orders-0");
        let s = uuid_to_string(&id);
        assert_eq!(s.len(), 22);
        assert!(!s.starts_with('-'));
        let back = super::super::checkpoint::parse_partition_metadata(format!("version: 0\ntopic_id: {s}").as_bytes(), "p").unwrap();
        assert_eq!(back.topic_id_bytes, id);
    }
}
