//! Legacy magic 0 and 1 messages (`clients/.../common/record/LegacyRecord.java`,
//! `AbstractLegacyRecordBatch.java`; KIP-31, KIP-32; deprecated by KIP-724, only read by
//! 4.x brokers). Layout: `offset int64 | size int32 | crc uint32 | magic int8 |
//! attributes int8 | [timestamp int64, v1] | keyLength int32 | key | valueLength int32 |
//! value`, CRC-32 (IEEE) over `[16, end)`. A compressed message is a wrapper whose value
//! is a compressed inner message set.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use crate::report::kind;
use crate::wire::batch::{Attributes, HeaderRepr, NO_PARTITION_LEADER_EPOCH, NO_PRODUCER_EPOCH, NO_PRODUCER_ID, NO_SEQUENCE, NO_TIMESTAMP};
use crate::wire::compression::{self, Codec};
use crate::wire::reader::{ReadError, Reader};

/// `LegacyRecord.RECORD_OVERHEAD_V0` / `_V1`.
pub const RECORD_OVERHEAD_V0: usize = 14;
pub const RECORD_OVERHEAD_V1: usize = 22;

/// One parsed message, offsets relative to its own first byte.
#[derive(Clone, Debug)]
pub(crate) struct Message<'a> {
    pub(crate) offset: i64,
    pub(crate) size: i32,
    pub(crate) crc: u32,
    pub(crate) crc_computed: u32,
    pub(crate) magic: i8,
    pub(crate) attributes: u8,
    pub(crate) timestamp: i64,
    pub(crate) key: Option<&'a [u8]>,
    pub(crate) value: Option<&'a [u8]>,
    pub(crate) spans: Vec<(&'static str, usize, usize)>,
}

pub(crate) struct Fault {
    pub(crate) at: usize,
    pub(crate) kind: &'static str,
    pub(crate) message: String,
}

pub(crate) fn structure(e: ReadError) -> Fault {
    Fault { at: e.at(), kind: kind::INVALID_RECORD, message: format!("Found invalid record structure ({e})") }
}

/// Parse one complete message from `buf` (exactly `size + 12` bytes).
pub(crate) fn parse_message(buf: &[u8]) -> Result<Message<'_>, Fault> {
    let mut r = Reader::new(buf);
    let mut spans = Vec::with_capacity(10);
    let mut p = 0;
    macro_rules! span {
        ($name:expr) => {{
            spans.push(($name, p, r.pos()));
            p = r.pos();
        }};
    }
    let offset = r.i64().map_err(structure)?;
    span!("offset");
    let size = r.i32().map_err(structure)?;
    span!("messageSize");
    let crc = r.u32().map_err(structure)?;
    span!("crc");
    let magic = r.i8().map_err(structure)?;
    span!("magic");
    let attributes = r.u8().map_err(structure)?;
    span!("attributes");
    let timestamp = if magic >= 1 {
        let t = r.i64().map_err(structure)?;
        span!("timestamp");
        t
    } else {
        NO_TIMESTAMP
    };
    let crc_computed = crate::wire::crc::crc32_ieee(buf.get(16..).unwrap_or(&[]));
    let mut key = None;
    let mut value = None;
    for (slot, len_name, name) in [(&mut key, "keyLength", "key"), (&mut value, "valueLength", "value")] {
        let len = r.i32().map_err(structure)?;
        spans.push((len_name, p, r.pos()));
        p = r.pos();
        if len >= 0 {
            *slot = Some(r.take(len as usize).map_err(structure)?);
            spans.push((name, p, r.pos()));
            p = r.pos();
        }
    }
    if r.any_left() {
        return Err(Fault {
            at: r.pos(),
            kind: kind::INVALID_RECORD,
            message: format!("{} byte(s) left over after the value: the message size does not match its fields", r.remaining()),
        });
    }
    Ok(Message { offset, size, crc, crc_computed, magic, attributes, timestamp, key, value, spans })
}

impl Message<'_> {
    /// The message as a batch header, as `AbstractLegacyRecordBatch` presents it: Java's
    /// sentinels (−1) for what magic 0/1 lack, the attributes masked to what the magic defines.
    pub(crate) fn header_repr(&self, records_count: i32, last_offset_delta: i32) -> HeaderRepr {
        HeaderRepr {
            base_offset: self.offset,
            batch_length: self.size,
            partition_leader_epoch: NO_PARTITION_LEADER_EPOCH,
            magic: self.magic,
            crc: self.crc,
            attributes: Attributes(self.attributes as u16 & if self.magic == 0 { 0x07 } else { 0x0f }),
            last_offset_delta,
            base_timestamp: self.timestamp,
            max_timestamp: self.timestamp,
            producer_id: NO_PRODUCER_ID,
            producer_epoch: NO_PRODUCER_EPOCH,
            base_sequence: NO_SEQUENCE,
            records_count,
        }
    }
}

/// A problem found reading a legacy entry, with Kafka's name, located as the report locates
/// it: `at` is relative to the entry; a fault inside a wrapper's decompressed inner set has
/// `at` on the wrapper's value and `decompressed_at` its offset in the decompressed bytes.
/// The walk goes on after a CRC mismatch and stops after anything else.
#[derive(Clone, Debug)]
pub(crate) struct LegacyFault {
    pub(crate) at: usize,
    pub(crate) decompressed_at: Option<usize>,
    pub(crate) kind: &'static str,
    pub(crate) message: String,
}

/// One legacy entry (a message, or a compressed wrapper and its inner messages), read as far
/// as it reads: the one walk the report and the columns share
/// (`AbstractLegacyRecordBatch` and its `DeepRecordsIterator`).
#[derive(Debug)]
pub(crate) struct LegacyEntry<'d> {
    /// The outer message; `None` when it does not parse.
    pub(crate) wrapper: Option<Message<'d>>,
    /// The wrapper's value's offset in the entry (0 when it has none).
    pub(crate) value_at: usize,
    /// The codec of a compressed wrapper (zstd is not allowed for magic 0/1).
    pub(crate) codec: Option<Codec>,
    /// The decompressed inner message set, when decompression succeeded.
    pub(crate) inner: Option<&'d [u8]>,
    /// The inner messages with their offsets in `inner`, when the whole set reads.
    pub(crate) messages: Vec<(usize, Message<'d>)>,
    /// Absolute offset of the first inner message and, for v1 wrappers, the base that the
    /// KIP-31 relative inner offsets are added to: `Some` once the set is complete.
    pub(crate) offsets: Option<(i64, Option<i64>)>,
}

impl LegacyEntry<'_> {
    /// The header the entry shows (`records_count` 1 for a plain message; for a wrapper 0
    /// until its inner set is complete).
    pub(crate) fn header_repr(&self) -> Option<HeaderRepr> {
        let m = self.wrapper.as_ref()?;
        Some(match (m.attributes & 0x07, self.offsets) {
            (0, _) => m.header_repr(1, 0),
            (_, Some((first, _))) => {
                let mut h = m.header_repr(self.messages.len() as i32, m.offset.wrapping_sub(first) as i32);
                h.base_offset = first;
                h
            }
            _ => m.header_repr(0, 0),
        })
    }

    /// The inner message's absolute offset.
    pub(crate) fn offset_of(&self, inner: &Message<'_>) -> i64 {
        match self.offsets {
            Some((_, Some(base))) => base.wrapping_add(inner.offset),
            _ => inner.offset,
        }
    }
}

/// Read the complete legacy entry `entry` (exactly its declared size), decompressing a
/// wrapper's value into `scratch` (cleared first, at most `max_decompressed` bytes), and
/// telling `fault` every problem in order.
pub(crate) fn read_entry<'d>(
    entry: &'d [u8],
    max_decompressed: usize,
    scratch: &'d mut Vec<u8>,
    fault: &mut dyn FnMut(LegacyFault),
) -> LegacyEntry<'d> {
    let mut out = LegacyEntry { wrapper: None, value_at: 0, codec: None, inner: None, messages: Vec::new(), offsets: None };
    let outer = |at: usize, kind: &'static str, message: String| LegacyFault { at, decompressed_at: None, kind, message };
    let m = match parse_message(entry) {
        Ok(m) => m,
        Err(f) => {
            fault(outer(f.at, f.kind, f.message));
            return out;
        }
    };
    if m.crc != m.crc_computed {
        // LegacyRecord.ensureValid.
        fault(outer(12, kind::CORRUPT_RECORD, format!("Record is corrupt (stored crc = {}, computed crc = {})", m.crc, m.crc_computed)));
    }
    let codec_id = m.attributes & 0x07;
    out.value_at = m.spans.iter().find(|s| s.0 == "value").map_or(0, |s| s.1);
    let wrapper_magic = m.magic;
    let wrapper_offset = m.offset;
    let value = m.value;
    out.wrapper = Some(m);
    if codec_id == 0 {
        return out;
    }
    let codec = match Codec::from_id(codec_id) {
        Some(c) if c != Codec::Zstd => c,
        _ => {
            fault(outer(
                17,
                kind::ILLEGAL_ARGUMENT,
                format!("Compression type id {codec_id} is not supported for magic {wrapper_magic}"),
            ));
            return out;
        }
    };
    out.codec = Some(codec);
    let Some(value) = value else {
        fault(outer(17, kind::INVALID_RECORD, format!("Found invalid compressed record set with null value (magic = {wrapper_magic})")));
        return out;
    };
    scratch.clear();
    if let Err(e) = compression::decompress_into(codec, value, wrapper_magic as u8, max_decompressed, scratch) {
        let at = out.value_at + e.at.min(value.len());
        let (k, msg) = crate::wire::frame::decompress_failure(e);
        fault(outer(at, k, msg));
        return out;
    }
    let inner: &'d [u8] = scratch;
    out.inner = Some(inner);
    let value_at = out.value_at;
    let deep = |at: usize, kind: &'static str, message: String| LegacyFault { at: value_at, decompressed_at: Some(at), kind, message };
    let mut pos = 0usize;
    let mut ok = true;
    while pos + 12 <= inner.len() {
        let size = i32::from_be_bytes([inner[pos + 8], inner[pos + 9], inner[pos + 10], inner[pos + 11]]);
        if size < RECORD_OVERHEAD_V0 as i32 || pos + 12 + size as usize > inner.len() {
            fault(deep(pos + 8, kind::CORRUPT_RECORD, format!("Inner message size {size} is invalid or runs past the decompressed data")));
            ok = false;
            break;
        }
        match parse_message(&inner[pos..pos + 12 + size as usize]) {
            Ok(im) => {
                if im.magic != wrapper_magic {
                    // AbstractLegacyRecordBatch.DeepRecordsIterator: ensureMatchingMagic.
                    fault(deep(
                        pos + 16,
                        kind::INVALID_RECORD,
                        format!("Compressed message magic {} does not match wrapper magic {wrapper_magic}", im.magic),
                    ));
                    ok = false;
                    break;
                }
                if im.attributes & 0x07 != 0 {
                    fault(deep(
                        pos + 17,
                        kind::INVALID_RECORD,
                        String::from("Compressed outer record should not have an inner record with a compression attribute set"),
                    ));
                    ok = false;
                    break;
                }
                if im.crc != im.crc_computed {
                    fault(deep(
                        pos + 12,
                        kind::CORRUPT_RECORD,
                        format!("Record is corrupt (stored crc = {}, computed crc = {})", im.crc, im.crc_computed),
                    ));
                }
                out.messages.push((pos, im));
            }
            Err(f) => {
                fault(deep(pos + f.at, f.kind, f.message));
                ok = false;
                break;
            }
        }
        pos += 12 + size as usize;
    }
    if ok && pos < inner.len() {
        fault(deep(pos, kind::INVALID_RECORD, String::from("Incorrect declared batch size, premature EOF reached")));
    }
    if out.messages.is_empty() {
        if ok {
            fault(outer(out.value_at, kind::INVALID_RECORD, String::from("Found invalid compressed record set with no inner records")));
        }
        return out;
    }
    // KIP-31 relative offsets for v1 wrappers.
    let last_inner = out.messages.last().map_or(0, |(_, m)| m.offset);
    let abs_base = if wrapper_magic == 1 {
        if wrapper_offset == 0 {
            Some(0)
        } else if wrapper_offset < last_inner {
            fault(outer(
                0,
                kind::INVALID_RECORD,
                format!(
                    "Found invalid wrapper offset in compressed v1 message set, wrapper offset '{wrapper_offset}' is less than the last inner message offset '{last_inner}' and it is not zero."
                ),
            ));
            return out;
        } else {
            Some(wrapper_offset.wrapping_sub(last_inner))
        }
    } else {
        None
    };
    let first = abs_base.map_or(out.messages[0].1.offset, |b| b.wrapping_add(out.messages[0].1.offset));
    out.offsets = Some((first, abs_base));
    out
}
