//! The other files of a Kafka partition directory, besides the `.log` segments
//! (`storage/src/main/java/org/apache/kafka/storage/internals/…`):
//! - [`index`]: `<offset>.index`, the sparse offset index (`OffsetIndex.java`, 8-byte entries).
//! - [`timeindex`]: `<offset>.timeindex` (`TimeIndex.java`, 12-byte entries).
//! - [`txnindex`]: `<offset>.txnindex`, the aborted transactions (`TransactionIndex.java`,
//!   `AbortedTxn.java`, 34-byte entries).
//! - [`snapshot`]: `<offset>.snapshot`, the producer state (`ProducerStateManager.readSnapshot`,
//!   the `ProducerSnapshot.json` schema, CRC-32C).
//! - [`checkpoint`]: `leader-epoch-checkpoint` (`CheckpointFile.java`,
//!   `LeaderEpochCheckpointFile.java`) and `partition.metadata` (`PartitionMetadataReadBuffer.java`).
//! - [`partition`]: the directory as a whole, as the broker loads it (producer state from the
//!   latest snapshot plus the log after it, open transactions, LSO, aborted transactions), each
//!   file checked against the log.
//! - [`layout`]: the other way: a directory written from the lab's own leader (the idempotence
//!   model's partition), as a Kafka 4.3 broker lays out its files.
//! - [`dump`]: `kafka-dump-log` (`tools/.../DumpLogSegments.java`) over any of them, sans-IO:
//!   the caller hands in the bytes of a file and of its sibling `.log` / `.index`.
//!
//! Every view is zero-copy over `T: AsRef<[u8]>`, with a `field` module of byte ranges; an
//! entry count is always derived from the input's length, so no length field can make a
//! reader allocate more than a small multiple of the input. Errors are [`FileError`]s: the
//! byte offset, Kafka's exception name, and Kafka's message.

pub mod checkpoint;
pub mod dump;
pub mod index;
pub mod layout;
pub mod partition;
pub mod snapshot;
pub mod timeindex;
pub mod txnindex;

use alloc::string::String;

/// Kafka's exception names used by these readers.
pub mod kind {
    /// `org.apache.kafka.storage.internals.log.CorruptIndexException` (`sanityCheck`).
    pub const CORRUPT_INDEX: &str = "CorruptIndexException";
    /// `org.apache.kafka.storage.internals.log.CorruptSnapshotException`.
    pub const CORRUPT_SNAPSHOT: &str = "CorruptSnapshotException";
    /// `org.apache.kafka.common.KafkaException` (e.g. an unknown AbortedTxn version).
    pub const KAFKA: &str = "KafkaException";
    /// `java.io.IOException` (checkpoint and partition.metadata readers).
    pub const IO: &str = "IOException";
    /// `java.lang.NumberFormatException` (`Long.parseLong` of a file name).
    pub const NUMBER_FORMAT: &str = "NumberFormatException";
    /// `org.apache.kafka.common.errors.CorruptRecordException` (a `.log` read by `FileLogInputStream`).
    pub const CORRUPT_RECORD: &str = "CorruptRecordException";
    /// `java.lang.IllegalArgumentException`.
    pub const ILLEGAL_ARGUMENT: &str = "IllegalArgumentException";
    /// `java.util.NoSuchElementException` (an index entry pointing at no batch).
    pub const NO_SUCH_ELEMENT: &str = "NoSuchElementException";
}

/// The fully qualified Java class of an exception name used here (as the JVM prints it).
pub fn java_class(kind: &str) -> &str {
    match kind {
        "CorruptIndexException" => "org.apache.kafka.storage.internals.log.CorruptIndexException",
        "CorruptSnapshotException" => "org.apache.kafka.storage.internals.log.CorruptSnapshotException",
        "KafkaException" => "org.apache.kafka.common.KafkaException",
        "CorruptRecordException" => "org.apache.kafka.common.errors.CorruptRecordException",
        "InvalidRecordException" => "org.apache.kafka.common.InvalidRecordException",
        "IOException" => "java.io.IOException",
        "NoSuchFileException" => "java.nio.file.NoSuchFileException",
        "NumberFormatException" => "java.lang.NumberFormatException",
        "IllegalArgumentException" => "java.lang.IllegalArgumentException",
        "RuntimeException" => "java.lang.RuntimeException",
        "NoSuchElementException" => "java.util.NoSuchElementException",
        other => other,
    }
}

/// A problem in one of these files: the byte offset it is pinned on (into that file), Kafka's
/// exception name, and the message Kafka's exception carries.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct FileError {
    pub at: usize,
    pub kind: &'static str,
    pub message: String,
}

impl FileError {
    pub fn new(at: usize, kind: &'static str, message: impl Into<String>) -> Self {
        FileError {
            at,
            kind,
            message: message.into(),
        }
    }
}

impl core::fmt::Display for FileError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "at byte {}: {}: {}", self.at, self.kind, self.message)
    }
}

#[cfg(feature = "std")]
impl std::error::Error for FileError {}

/// What a file is, from its name, as `DumpLogSegments` decides (the suffix after the last `.`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FileKind {
    /// `.log` (`UnifiedLog.LOG_FILE_SUFFIX`).
    Log,
    /// `.checkpoint` (`Snapshots.SUFFIX`): a KRaft snapshot, read as a log.
    KraftSnapshot,
    /// `.index`.
    Index,
    /// `.timeindex`.
    TimeIndex,
    /// `.txnindex`.
    TxnIndex,
    /// `.snapshot` (`LogFileUtils.PRODUCER_SNAPSHOT_FILE_SUFFIX`).
    ProducerSnapshot,
    /// `leader-epoch-checkpoint` (not a DumpLogSegments file).
    LeaderEpochCheckpoint,
    /// `partition.metadata` (not a DumpLogSegments file).
    PartitionMetadata,
    /// Anything else (`DumpLogSegments`: "Ignoring unknown file").
    Unknown,
}

impl FileKind {
    /// The kind of the file named `name` (a file name or a path; only the last component counts).
    pub fn of(name: &str) -> FileKind {
        let base = file_name(name);
        match base {
            "leader-epoch-checkpoint" => return FileKind::LeaderEpochCheckpoint,
            "partition.metadata" => return FileKind::PartitionMetadata,
            _ => {}
        }
        match base.rfind('.').map(|i| &base[i..]) {
            Some(".log") => FileKind::Log,
            Some(".checkpoint") => FileKind::KraftSnapshot,
            Some(".index") => FileKind::Index,
            Some(".timeindex") => FileKind::TimeIndex,
            Some(".txnindex") => FileKind::TxnIndex,
            Some(".snapshot") => FileKind::ProducerSnapshot,
            _ => FileKind::Unknown,
        }
    }
}

/// The last path component (after the last `/` or `\`).
pub fn file_name(path: &str) -> &str {
    path.rsplit(['/', '\\']).next().unwrap_or(path)
}

/// `Long.parseLong(file.getName().split("\\.")[0])`: the base offset a segment file's name
/// carries. The error is Java's `NumberFormatException` message.
pub fn offset_from_name(path: &str) -> Result<i64, FileError> {
    let name = file_name(path);
    let stem = name.split('.').next().unwrap_or("");
    parse_java_long(stem).ok_or_else(|| {
        FileError::new(
            0,
            kind::NUMBER_FORMAT,
            alloc::format!("For input string: \"{stem}\""),
        )
    })
}

/// `Long.parseLong`: an optional sign then ASCII digits, in range.
pub(crate) fn parse_java_long(s: &str) -> Option<i64> {
    let b = s.as_bytes();
    let (neg, digits) = match b.first() {
        Some(b'-') => (true, &b[1..]),
        Some(b'+') => (false, &b[1..]),
        _ => (false, b),
    };
    if digits.is_empty() || !digits.iter().all(u8::is_ascii_digit) {
        return None;
    }
    let mut v: i64 = 0;
    for &d in digits {
        let d = (d - b'0') as i64;
        v = v.checked_mul(10)?;
        v = if neg {
            v.checked_sub(d)?
        } else {
            v.checked_add(d)?
        };
    }
    Some(v)
}

/// `Integer.parseInt`.
pub(crate) fn parse_java_int(s: &str) -> Option<i32> {
    parse_java_long(s).and_then(|v| i32::try_from(v).ok())
}

#[inline]
pub(crate) fn be_i32(d: &[u8], at: usize) -> i32 {
    i32::from_be_bytes([d[at], d[at + 1], d[at + 2], d[at + 3]])
}

#[inline]
pub(crate) fn be_i64(d: &[u8], at: usize) -> i64 {
    let mut a = [0u8; 8];
    a.copy_from_slice(&d[at..at + 8]);
    i64::from_be_bytes(a)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kinds_from_names() {
        assert_eq!(FileKind::of("a/b/00000000000000000000.log"), FileKind::Log);
        assert_eq!(FileKind::of("00000000000000000000.index"), FileKind::Index);
        assert_eq!(FileKind::of("x.timeindex"), FileKind::TimeIndex);
        assert_eq!(FileKind::of("x.txnindex"), FileKind::TxnIndex);
        assert_eq!(FileKind::of("x.snapshot"), FileKind::ProducerSnapshot);
        assert_eq!(
            FileKind::of("d/partition.metadata"),
            FileKind::PartitionMetadata
        );
        assert_eq!(
            FileKind::of("leader-epoch-checkpoint"),
            FileKind::LeaderEpochCheckpoint
        );
        assert_eq!(FileKind::of("README"), FileKind::Unknown);
    }

    #[test]
    fn offsets_from_names() {
        assert_eq!(offset_from_name("d/00000000000000000042.index"), Ok(42));
        assert_eq!(
            offset_from_name("d/foo.index").unwrap_err().message,
            "For input string: \"foo\""
        );
        assert!(offset_from_name("99999999999999999999.log").is_err());
    }
}
