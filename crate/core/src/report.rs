//! The decode report: the JSON-shaped contract shared by the wasm package (`decode`) and
//! the CLI (`eoslab decode --json`). Kafka's field names, camelCase; every int64 is an
//! exact decimal string (JavaScript numbers lose precision past 2^53); keys and values
//! are lowercase hex or `null`; every offset is a byte offset into the decoded input.

use alloc::borrow::Cow;
use alloc::string::String;
use alloc::vec::Vec;
use core::ops::Range;

#[cfg(feature = "serde")]
use serde::Serialize;

/// Everything `decode` found in one input.
#[derive(Clone, Debug, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(Serialize), serde(rename_all = "camelCase"))]
pub struct Report {
    /// What the input was detected as (`input::Format::name`): "binary", "hex", "xxd" …
    pub format: String,
    /// What text-input parsing removed (offset columns, ASCII columns, `0x` …).
    pub stripped: Vec<String>,
    /// Number of bytes after text decoding; every `start`/`end`/`at` indexes these bytes.
    pub length: usize,
    pub batches: Vec<BatchReport>,
    /// Every problem, in input order, each pinned on a byte.
    pub errors: Vec<Issue>,
}

impl Report {
    /// True when no issue of severity `error` was found.
    pub fn is_clean(&self) -> bool {
        !self.errors.iter().any(|e| e.severity == Severity::Error)
    }
}

/// Counts over a report's entries: what an overview of a whole segment shows (the inspector's
/// headers pass; the wasm `decode` with `summary: true` returns it instead of the batches).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(Serialize), serde(rename_all = "camelCase"))]
pub struct Summary {
    /// Entries (v2 batches and legacy messages).
    pub batches: u64,
    /// Entries whose stored CRC does not match the computed one.
    pub crc_invalid: u64,
    pub control: u64,
    pub transactional: u64,
    /// Entries written with a producer id (`producerId` ≠ −1): idempotent or transactional.
    pub idempotent: u64,
    /// The entries' `recordsCount` summed (negative counts as 0), records not read.
    pub records: u64,
    /// Entries per codec name (`attributes.compression`), in order of first appearance.
    pub codecs: Vec<(Cow<'static, str>, u64)>,
}

impl Summary {
    pub fn of(batches: &[BatchReport]) -> Summary {
        let mut s = Summary::default();
        for b in batches {
            let h = &b.header;
            let a = &h.attributes;
            s.batches += 1;
            s.crc_invalid += u64::from(!h.crc_valid);
            s.control += u64::from(a.control);
            s.transactional += u64::from(a.transactional);
            s.idempotent += u64::from(h.producer_id != -1);
            s.records += h.records_count.max(0) as u64;
            match s.codecs.iter_mut().find(|(name, _)| *name == a.compression) {
                Some((_, n)) => *n += 1,
                None => s.codecs.push((a.compression.clone(), 1)),
            }
        }
        s
    }
}

/// One log entry: a v2 batch, or a legacy magic 0/1 message (`legacy: true`).
#[derive(Clone, Debug, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(Serialize), serde(rename_all = "camelCase"))]
pub struct BatchReport {
    pub start: usize,
    pub end: usize,
    pub magic: i8,
    pub legacy: bool,
    /// The input ended before `batchLength` said it would (Java readers stop silently, KIP-74).
    pub truncated: bool,
    pub header: Header,
    pub records: Vec<RecordReport>,
    pub control: Option<Control>,
    /// Byte spans, outermost first; spans nest (a record contains its key), the innermost is
    /// the most specific. `buffer: "decompressed"` spans index [`Decompressed`] bytes.
    pub fields: Vec<Field>,
    pub decompressed: Option<Decompressed>,
}

/// The v2 header with Kafka's field names. Legacy messages fill what they have
/// (`baseOffset` = message offset, `batchLength` = message size, `crc` = CRC-32) and
/// report Java's sentinels (−1) for the rest, as `AbstractLegacyRecordBatch` does.
#[derive(Clone, Debug, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(Serialize), serde(rename_all = "camelCase"))]
pub struct Header {
    #[cfg_attr(feature = "serde", serde(serialize_with = "ser::i64_str"))]
    pub base_offset: i64,
    pub batch_length: i32,
    pub partition_leader_epoch: i32,
    pub magic: i8,
    pub crc: u32,
    pub crc_computed: u32,
    pub crc_valid: bool,
    pub attributes: AttributesReport,
    pub last_offset_delta: i32,
    #[cfg_attr(feature = "serde", serde(serialize_with = "ser::i64_str"))]
    pub base_timestamp: i64,
    #[cfg_attr(feature = "serde", serde(serialize_with = "ser::i64_str"))]
    pub max_timestamp: i64,
    #[cfg_attr(feature = "serde", serde(serialize_with = "ser::i64_str"))]
    pub producer_id: i64,
    pub producer_epoch: i16,
    pub base_sequence: i32,
    pub records_count: i32,
    /// Derived as Java does: `lastSequence` (wraps at 2^31−1) and `lastOffset`.
    pub last_sequence: i32,
    #[cfg_attr(feature = "serde", serde(serialize_with = "ser::i64_str"))]
    pub last_offset: i64,
}

#[derive(Clone, Debug, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(Serialize), serde(rename_all = "camelCase"))]
pub struct AttributesReport {
    /// The whole int16 as stored.
    pub raw: u16,
    /// "none" | "gzip" | "snappy" | "lz4" | "zstd" | "unknown(5)" …
    pub compression: Cow<'static, str>,
    /// "CreateTime" | "LogAppendTime"
    pub timestamp_type: &'static str,
    pub transactional: bool,
    pub control: bool,
    pub delete_horizon: bool,
}

#[derive(Clone, Debug, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(Serialize), serde(rename_all = "camelCase"))]
pub struct RecordReport {
    pub offset_delta: i32,
    #[cfg_attr(feature = "serde", serde(serialize_with = "ser::i64_str"))]
    pub timestamp_delta: i64,
    #[cfg_attr(feature = "serde", serde(serialize_with = "ser::opt_hex"))]
    pub key: Option<Vec<u8>>,
    #[cfg_attr(feature = "serde", serde(serialize_with = "ser::opt_hex"))]
    pub value: Option<Vec<u8>>,
    pub headers: Vec<RecordHeader>,
    /// Derived: baseOffset + offsetDelta.
    #[cfg_attr(feature = "serde", serde(serialize_with = "ser::i64_str"))]
    pub offset: i64,
    /// Derived: maxTimestamp under LogAppendTime, else baseTimestamp + timestampDelta.
    #[cfg_attr(feature = "serde", serde(serialize_with = "ser::i64_str"))]
    pub timestamp: i64,
    /// Derived: incrementSequence(baseSequence, offsetDelta), or −1.
    pub sequence: i32,
    /// The record's attributes byte (unused by Kafka, written 0).
    pub attributes: i8,
    /// Declared body length (the record's first varint).
    pub length: i32,
    /// With `DecodeOptions::formatter`: what `kafka-console-consumer --formatter` prints for
    /// this record (`""` when it prints nothing for it). Absent when the option is off, for
    /// control records, and when the formatter cannot read the record (a `RuntimeException`
    /// issue says why).
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub formatted: Option<String>,
}

/// A record header: the key is a Java `String` (UTF-8, decoded lossily for display),
/// the value bytes are hex or `null`.
#[derive(Clone, Debug, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(Serialize), serde(rename_all = "camelCase"))]
pub struct RecordHeader {
    pub key: String,
    #[cfg_attr(feature = "serde", serde(serialize_with = "ser::opt_hex"))]
    pub value: Option<Vec<u8>>,
}

/// A control record (`ControlRecordType`, and `EndTransactionMarker` for COMMIT/ABORT).
#[derive(Clone, Debug, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(Serialize), serde(rename_all = "camelCase"))]
pub struct Control {
    /// Kafka's name: "ABORT", "COMMIT", "LEADER_CHANGE", "SNAPSHOT_HEADER",
    /// "SNAPSHOT_FOOTER", "KRAFT_VERSION", "KRAFT_VOTERS" or "UNKNOWN".
    #[cfg_attr(feature = "serde", serde(rename = "type"))]
    pub type_name: String,
    pub type_id: i16,
    /// The control key's version.
    pub version: i16,
    /// `EndTxnMarker.coordinatorEpoch` for COMMIT/ABORT, else `null`.
    pub coordinator_epoch: Option<i32>,
    /// `EndTxnMarker` version for COMMIT/ABORT, else `null`.
    pub marker_version: Option<i16>,
}

/// A named byte span.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(Serialize), serde(rename_all = "camelCase"))]
pub struct Field {
    /// Kafka's field name; record fields are `records[i].name` (static names need no
    /// allocation, which keeps the report of a large segment small).
    pub name: Cow<'static, str>,
    pub start: usize,
    pub end: usize,
    /// `Some("decompressed")` when the span indexes the decompressed records buffer.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub buffer: Option<&'static str>,
}

impl Field {
    pub fn new(name: impl Into<Cow<'static, str>>, r: Range<usize>) -> Self {
        Field { name: name.into(), start: r.start, end: r.end, buffer: None }
    }
}

/// The decompressed records section of a compressed batch.
#[derive(Clone, Debug, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(Serialize), serde(rename_all = "camelCase"))]
pub struct Decompressed {
    pub codec: String,
    /// Compressed payload span in the input.
    pub compressed_start: usize,
    pub compressed_end: usize,
    /// Decompressed size in bytes.
    pub size: usize,
    /// The decompressed bytes as hex (only with `DecodeOptions::include_decompressed`).
    #[cfg_attr(feature = "serde", serde(serialize_with = "ser::opt_hex", skip_serializing_if = "Option::is_none"))]
    pub data: Option<Vec<u8>>,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(Serialize), serde(rename_all = "lowercase"))]
pub enum Severity {
    /// Kafka would reject or fail to read these bytes.
    #[default]
    Error,
    /// Readable, but a Kafka broker would refuse it from a client, or it is unusual.
    Warning,
    /// Expected situations worth knowing (a trailing partial batch, KIP-74).
    Info,
}

/// A problem pinned on a byte, with Kafka's own name for it.
#[derive(Clone, Debug, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(Serialize), serde(rename_all = "camelCase"))]
pub struct Issue {
    /// Byte offset in the input (for problems inside decompressed data: the first byte of
    /// the compressed payload; `decompressedAt` gives the offset inside the decompressed bytes).
    pub at: usize,
    /// Kafka's exception name (`CorruptRecordException`, `InvalidRecordException`,
    /// `KafkaException` …), or `InvalidInput`/`PartialBatch` for things Kafka has no name for.
    pub kind: &'static str,
    pub message: String,
    pub severity: Severity,
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub batch: Option<usize>,
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub decompressed_at: Option<usize>,
}

/// Kafka's exception names used in issues.
pub mod kind {
    pub const CORRUPT_RECORD: &str = "CorruptRecordException";
    pub const INVALID_RECORD: &str = "InvalidRecordException";
    pub const KAFKA: &str = "KafkaException";
    pub const ILLEGAL_ARGUMENT: &str = "IllegalArgumentException";
    pub const DECOMPRESSION_LIMIT: &str = "DecompressionLimitExceeded";
    pub const PARTIAL_BATCH: &str = "PartialBatch";
    pub const INVALID_INPUT: &str = "InvalidInput";
    pub const RECORD_LISTING_LIMIT: &str = "RecordListingLimit";
    /// A record that `kafka-console-consumer --formatter` cannot read (`DecodeOptions::formatter`).
    pub const RUNTIME: &str = "RuntimeException";
}

/// Lowercase hex, the contract's encoding for bytes.
pub fn to_hex(bytes: &[u8]) -> String {
    // Two ASCII digits per byte from a 256-entry table, written into a byte buffer in one pass
    // (`String::push` per nibble re-encodes each char as UTF-8 and checks capacity each time).
    static TABLE: [[u8; 2]; 256] = {
        const HEX: &[u8; 16] = b"0123456789abcdef";
        let mut t = [[0u8; 2]; 256];
        let mut i = 0;
        while i < 256 {
            t[i] = [HEX[i >> 4], HEX[i & 15]];
            i += 1;
        }
        t
    };
    let mut v = Vec::with_capacity(bytes.len() * 2);
    for &b in bytes {
        v.extend_from_slice(&TABLE[b as usize]);
    }
    // Only ASCII digits were written: the check cannot fail (and is a fast ASCII scan).
    String::from_utf8(v).unwrap_or_default()
}

#[cfg(feature = "serde")]
mod ser {
    use alloc::vec::Vec;
    use serde::Serializer;

    pub fn i64_str<S: Serializer>(v: &i64, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(v)
    }

    pub fn opt_hex<S: Serializer>(v: &Option<Vec<u8>>, s: S) -> Result<S::Ok, S::Error> {
        match v {
            Some(b) => s.serialize_str(&super::to_hex(b)),
            None => s.serialize_none(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Summary;
    use crate::{decode_bytes, encode_batch, encode_segment, BatchSpec, DecodeOptions};
    use alloc::vec;

    fn spec(v: serde_json::Value) -> BatchSpec {
        serde_json::from_value(v).unwrap()
    }

    /// The overview counts each kind of entry once, from the headers alone.
    #[test]
    fn summary_counts_every_kind_of_entry() {
        let mut bytes = encode_segment(&[
            spec(serde_json::json!({"header": {"producerId": "7", "attributes": {"compression": "gzip"}}, "records": [{"value": "01"}, {"value": "02"}]})),
            spec(serde_json::json!({"header": {"producerId": "7", "attributes": {"transactional": true}}, "records": [{"value": "03"}]})),
            spec(serde_json::json!({"header": {"producerId": "7", "attributes": {"transactional": true}}, "control": {"type": "COMMIT", "coordinatorEpoch": 1}})),
            spec(serde_json::json!({"records": [{"value": "04"}, {"value": "05"}, {"value": "06"}]})),
        ])
        .unwrap();
        let mut legacy = spec(serde_json::json!({"header": {"attributes": {"compression": "gzip"}}, "records": [{"value": "07"}]}));
        legacy.magic = Some(1);
        bytes.extend(encode_batch(&legacy).unwrap());
        let last_v2 = bytes.len() - encode_batch(&legacy).unwrap().len() - 1;
        bytes[last_v2] ^= 1; // the fourth batch's last byte: its CRC no longer matches
        let report = decode_bytes(&bytes, &DecodeOptions { records: false, spans: false, ..Default::default() });
        let s = Summary::of(&report.batches);
        assert_eq!(
            s,
            Summary {
                batches: 5,
                crc_invalid: 1,
                control: 1,
                transactional: 2,
                idempotent: 3,
                records: 2 + 1 + 1 + 3 + 1,
                codecs: vec![("gzip".into(), 2), ("none".into(), 3)],
            }
        );
    }
}
