//! `<offset>.snapshot`, the producer state of a partition at an offset
//! (`storage/.../log/ProducerStateManager.java` `readSnapshot`/`writeSnapshot`, the generated
//! `ProducerSnapshot` of `storage/src/main/resources/message/ProducerSnapshot.json`, version 1,
//! not flexible): `version int16 | crc uint32 | producerEntries [int32 count, then 46-byte
//! entries]`. The CRC is CRC-32C of every byte after it (`PRODUCER_ENTRIES_OFFSET` = 6 to the
//! end). Kafka parses first (any failure: `CorruptSnapshotException("Snapshot failed schema
//! validation: …")`), then checks the CRC; bytes after the last entry are not an error, but
//! they are under the CRC.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use super::{be_i32, be_i64, kind, FileError};

/// Byte ranges of the snapshot header and of one producer entry (relative to the entry).
pub mod field {
    use core::ops::Range;
    pub const VERSION: Range<usize> = 0..2;
    pub const CRC: Range<usize> = 2..6;
    /// `PRODUCER_ENTRIES_OFFSET`: where the CRC starts.
    pub const PRODUCER_ENTRIES_OFFSET: usize = CRC.end;
    pub const ENTRY_COUNT: Range<usize> = 6..10;
    pub const HEADER_LEN: usize = ENTRY_COUNT.end;

    pub mod entry {
        use core::ops::Range;
        pub const PRODUCER_ID: Range<usize> = 0..8;
        pub const EPOCH: Range<usize> = 8..10;
        pub const LAST_SEQUENCE: Range<usize> = 10..14;
        pub const LAST_OFFSET: Range<usize> = 14..22;
        pub const OFFSET_DELTA: Range<usize> = 22..26;
        pub const TIMESTAMP: Range<usize> = 26..34;
        pub const COORDINATOR_EPOCH: Range<usize> = 34..38;
        pub const CURRENT_TXN_FIRST_OFFSET: Range<usize> = 38..46;
        pub const LEN: usize = CURRENT_TXN_FIRST_OFFSET.end;
        /// Wire order, Kafka's schema names.
        pub const NAMED: [(&str, Range<usize>); 8] = [
            ("producerId", PRODUCER_ID),
            ("epoch", EPOCH),
            ("lastSequence", LAST_SEQUENCE),
            ("lastOffset", LAST_OFFSET),
            ("offsetDelta", OFFSET_DELTA),
            ("timestamp", TIMESTAMP),
            ("coordinatorEpoch", COORDINATOR_EPOCH),
            ("currentTxnFirstOffset", CURRENT_TXN_FIRST_OFFSET),
        ];
    }
}

/// `ProducerSnapshot.LOWEST_SUPPORTED_VERSION` = `HIGHEST_SUPPORTED_VERSION`.
pub const VERSION: i16 = 1;

/// One `ProducerSnapshot.ProducerEntry`, as stored.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize),
    serde(rename_all = "camelCase")
)]
pub struct ProducerEntry {
    pub producer_id: i64,
    pub epoch: i16,
    pub last_sequence: i32,
    pub last_offset: i64,
    pub offset_delta: i32,
    pub timestamp: i64,
    pub coordinator_epoch: i32,
    pub current_txn_first_offset: i64,
}

impl ProducerEntry {
    /// The entry `ProducerStateManager.writeSnapshot` writes for a producer whose last retained
    /// batch has `last` = (lastSeq, lastDataOffset, lastOffsetDelta), or none: then `-1, -1, 0`
    /// (`ProducerStateEntry.lastSeq()`, `lastDataOffset()`, `lastOffsetDelta()`).
    pub fn from_last_batch(
        producer_id: i64,
        epoch: i16,
        last: Option<(i32, i64, i32)>,
        timestamp: i64,
        coordinator_epoch: i32,
        current_txn_first_offset: i64,
    ) -> Self {
        let (last_sequence, last_offset, offset_delta) = last.unwrap_or((-1, -1, 0));
        ProducerEntry { producer_id, epoch, last_sequence, last_offset, offset_delta, timestamp, coordinator_epoch, current_txn_first_offset }
    }

    /// `ProducerStateEntry.currentTxnFirstOffset()`: present when ≥ 0.
    pub fn current_txn_first_offset(&self) -> Option<i64> {
        (self.current_txn_first_offset >= 0).then_some(self.current_txn_first_offset)
    }

    /// `readSnapshot`: the entry has one retained batch (`BatchMetadata`) when `lastOffset ≥ 0`.
    pub fn has_batch(&self) -> bool {
        self.last_offset >= 0
    }

    /// `BatchMetadata.firstSeq()`: `decrementSequence(lastSeq, offsetDelta)`.
    pub fn first_sequence(&self) -> i32 {
        crate::sequence::decrement(self.last_sequence, self.offset_delta)
    }

    /// The line `DumpLogSegments.dumpProducerIdSnapshot` prints for this entry (no newline).
    pub fn dump_line(&self) -> String {
        let txn = match self.current_txn_first_offset() {
            Some(o) => format!("OptionalLong[{o}]"),
            None => String::from("OptionalLong.empty"),
        };
        let mut s = format!(
            "producerId: {} producerEpoch: {} coordinatorEpoch: {} currentTxnFirstOffset: {txn} lastTimestamp: {}",
            self.producer_id, self.epoch, self.coordinator_epoch, self.timestamp
        );
        if self.has_batch() {
            s.push_str(&format!(
                " firstSequence: {} lastSequence: {} lastOffset: {} offsetDelta: {} timestamp: {}",
                self.first_sequence(),
                self.last_sequence,
                self.last_offset,
                self.offset_delta,
                self.timestamp
            ));
        }
        s
    }

    fn read(d: &[u8]) -> Self {
        use field::entry::*;
        ProducerEntry {
            producer_id: be_i64(d, PRODUCER_ID.start),
            epoch: i16::from_be_bytes([d[EPOCH.start], d[EPOCH.start + 1]]),
            last_sequence: be_i32(d, LAST_SEQUENCE.start),
            last_offset: be_i64(d, LAST_OFFSET.start),
            offset_delta: be_i32(d, OFFSET_DELTA.start),
            timestamp: be_i64(d, TIMESTAMP.start),
            coordinator_epoch: be_i32(d, COORDINATOR_EPOCH.start),
            current_txn_first_offset: be_i64(d, CURRENT_TXN_FIRST_OFFSET.start),
        }
    }

    fn emit(&self, out: &mut Vec<u8>) {
        out.extend_from_slice(&self.producer_id.to_be_bytes());
        out.extend_from_slice(&self.epoch.to_be_bytes());
        out.extend_from_slice(&self.last_sequence.to_be_bytes());
        out.extend_from_slice(&self.last_offset.to_be_bytes());
        out.extend_from_slice(&self.offset_delta.to_be_bytes());
        out.extend_from_slice(&self.timestamp.to_be_bytes());
        out.extend_from_slice(&self.coordinator_epoch.to_be_bytes());
        out.extend_from_slice(&self.current_txn_first_offset.to_be_bytes());
    }
}

/// Zero-copy view of a producer snapshot. [`ProducerSnapshot::new_checked`] runs Kafka's
/// schema validation and CRC check, after which the accessors cannot panic.
#[derive(Debug, Clone)]
pub struct ProducerSnapshot<T: AsRef<[u8]>> {
    buffer: T,
    count: usize,
}

fn schema(at: usize, why: &str) -> FileError {
    FileError::new(
        at,
        kind::CORRUPT_SNAPSHOT,
        format!("Snapshot failed schema validation: {why}"),
    )
}

impl<T: AsRef<[u8]>> ProducerSnapshot<T> {
    /// `ProducerStateManager.readSnapshot` up to the entries: the version, the schema (the
    /// generated reader's checks, in its order), then the CRC. Errors are Kafka's
    /// `CorruptSnapshotException` messages, pinned on the offending byte.
    pub fn new_checked(buffer: T) -> Result<Self, FileError> {
        let s = Self::new_schema_checked(buffer)?;
        let (stored, computed) = (s.crc(), s.computed_crc());
        if stored != computed {
            return Err(crc_error(stored, computed));
        }
        Ok(s)
    }

    /// `readSnapshot`'s schema validation only (the version, then the generated reader's
    /// checks): the entries of a snapshot whose CRC no longer matches can still be shown beside
    /// the log. [`ProducerSnapshot::crc`] and [`ProducerSnapshot::computed_crc`] tell whether
    /// Kafka would go on to accept it (it would not: `CorruptSnapshotException`).
    pub fn new_schema_checked(buffer: T) -> Result<Self, FileError> {
        let d = buffer.as_ref();
        if d.len() < field::VERSION.end {
            // ByteBuffer.getShort: BufferUnderflowException, whose message is null.
            return Err(schema(0, "null"));
        }
        let version = i16::from_be_bytes([d[0], d[1]]);
        if version != VERSION {
            return Err(schema(
                0,
                &format!("Snapshot contained an unknown file version {version}"),
            ));
        }
        if d.len() < field::ENTRY_COUNT.end {
            let at = if d.len() < field::CRC.end {
                field::CRC.start
            } else {
                field::ENTRY_COUNT.start
            };
            return Err(schema(at, "null"));
        }
        let count = be_i32(d, field::ENTRY_COUNT.start);
        let remaining = d.len() - field::HEADER_LEN;
        if count < 0 {
            return Err(schema(
                field::ENTRY_COUNT.start,
                "non-nullable field producerEntries was serialized as null",
            ));
        }
        if count as usize > remaining {
            return Err(schema(
                field::ENTRY_COUNT.start,
                &format!(
                    "Tried to allocate a collection of size {count}, but there are only {remaining} bytes remaining."
                ),
            ));
        }
        let count = count as usize;
        let need = count * field::entry::LEN; // count ≤ remaining: no overflow
        if need > remaining {
            // The entry reads run out of bytes: BufferUnderflowException (message null) at
            // the first entry that does not fit.
            let whole = remaining / field::entry::LEN;
            return Err(schema(
                field::HEADER_LEN + whole * field::entry::LEN,
                "null",
            ));
        }
        Ok(ProducerSnapshot { buffer, count })
    }

    /// CRC-32C of every byte after the CRC field (`Crc32C.compute(buffer, PRODUCER_ENTRIES_OFFSET, …)`).
    pub fn computed_crc(&self) -> u32 {
        crate::crc::crc32c(&self.buffer.as_ref()[field::PRODUCER_ENTRIES_OFFSET..])
    }

    pub fn version(&self) -> i16 {
        VERSION
    }

    pub fn crc(&self) -> u32 {
        let d = self.buffer.as_ref();
        u32::from_be_bytes([d[2], d[3], d[4], d[5]])
    }

    pub fn len(&self) -> usize {
        self.count
    }

    pub fn is_empty(&self) -> bool {
        self.count == 0
    }

    /// Bytes after the last entry (covered by the CRC, otherwise ignored by Kafka).
    pub fn trailing_bytes(&self) -> usize {
        self.buffer.as_ref().len() - field::HEADER_LEN - self.count * field::entry::LEN
    }

    /// Byte offset of entry `n`.
    pub fn entry_start(n: usize) -> usize {
        field::HEADER_LEN + n * field::entry::LEN
    }

    pub fn entry(&self, n: usize) -> Option<ProducerEntry> {
        (n < self.count).then(|| {
            let at = Self::entry_start(n);
            ProducerEntry::read(&self.buffer.as_ref()[at..at + field::entry::LEN])
        })
    }

    pub fn iter(&self) -> impl Iterator<Item = ProducerEntry> + '_ {
        (0..self.count).filter_map(move |n| self.entry(n))
    }
}

/// `readSnapshot`'s `CorruptSnapshotException` for a CRC that no longer matches, pinned on the CRC.
pub fn crc_error(stored: u32, computed: u32) -> FileError {
    FileError::new(
        field::CRC.start,
        kind::CORRUPT_SNAPSHOT,
        format!("Snapshot is corrupt (CRC is no longer valid). Stored crc: {stored}. Computed crc: {computed}"),
    )
}

/// An owned snapshot: [`SnapshotRepr::parse`] of the bytes, [`SnapshotRepr::emit`] writes
/// them as `ProducerStateManager.writeSnapshot` does (version 1, CRC filled in).
#[derive(Clone, Debug, PartialEq, Eq, Default)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize),
    serde(rename_all = "camelCase")
)]
pub struct SnapshotRepr {
    pub crc: u32,
    pub entries: Vec<ProducerEntry>,
}

impl SnapshotRepr {
    pub fn parse(bytes: &[u8]) -> Result<Self, FileError> {
        let s = ProducerSnapshot::new_checked(bytes)?;
        Ok(SnapshotRepr {
            crc: s.crc(),
            entries: s.iter().collect(),
        })
    }

    pub fn emit(&self) -> Vec<u8> {
        let mut out =
            Vec::with_capacity(field::HEADER_LEN + self.entries.len() * field::entry::LEN);
        out.extend_from_slice(&VERSION.to_be_bytes());
        out.extend_from_slice(&[0; 4]);
        out.extend_from_slice(&(self.entries.len() as i32).to_be_bytes());
        for e in &self.entries {
            e.emit(&mut out);
        }
        let crc = crate::crc::crc32c(&out[field::PRODUCER_ENTRIES_OFFSET..]);
        out[field::CRC].copy_from_slice(&crc.to_be_bytes());
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> SnapshotRepr {
        SnapshotRepr {
            crc: 0,
            entries: alloc::vec![ProducerEntry {
                producer_id: 0,
                epoch: 0,
                last_sequence: 6,
                last_offset: 6,
                offset_delta: 2,
                timestamp: 1_796_320_878_364,
                coordinator_epoch: -1,
                current_txn_first_offset: -1,
            }],
        }
    }

    #[test]
    fn roundtrip_and_dump_line() {
        let b = sample().emit();
        assert_eq!(b.len(), 56);
        let r = SnapshotRepr::parse(&b).unwrap();
        assert_eq!(r.entries, sample().entries);
        assert_eq!(
            r.entries[0].dump_line(),
            "producerId: 0 producerEpoch: 0 coordinatorEpoch: -1 currentTxnFirstOffset: OptionalLong.empty lastTimestamp: 1796320878364 firstSequence: 4 lastSequence: 6 lastOffset: 6 offsetDelta: 2 timestamp: 1796320878364"
        );
    }

    #[test]
    fn corrupt_crc_is_pinned_on_the_crc() {
        let mut b = sample().emit();
        b[20] ^= 1;
        let e = SnapshotRepr::parse(&b).unwrap_err();
        assert_eq!((e.at, e.kind), (2, "CorruptSnapshotException"));
        assert!(e
            .message
            .starts_with("Snapshot is corrupt (CRC is no longer valid). Stored crc: "));
    }

    #[test]
    fn schema_failures() {
        let b = sample().emit();
        assert_eq!(
            SnapshotRepr::parse(&b[..1]).unwrap_err().message,
            "Snapshot failed schema validation: null"
        );
        let e = SnapshotRepr::parse(&b[..30]).unwrap_err();
        assert_eq!(
            (e.at, e.message.as_str()),
            (10, "Snapshot failed schema validation: null")
        );
        let mut v = b.clone();
        v[1] = 2;
        assert_eq!(
            SnapshotRepr::parse(&v).unwrap_err().message,
            "Snapshot failed schema validation: Snapshot contained an unknown file version 2"
        );
        let mut n = b.clone();
        n[6..10].copy_from_slice(&1000i32.to_be_bytes());
        assert_eq!(
            SnapshotRepr::parse(&n).unwrap_err().message,
            "Snapshot failed schema validation: Tried to allocate a collection of size 1000, but there are only 46 bytes remaining."
        );
        n[6..10].copy_from_slice(&(-1i32).to_be_bytes());
        assert_eq!(
            SnapshotRepr::parse(&n).unwrap_err().message,
            "Snapshot failed schema validation: non-nullable field producerEntries was serialized as null"
        );
    }
}
