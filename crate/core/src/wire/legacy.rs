//! Legacy magic 0 and 1 messages (`clients/.../common/record/LegacyRecord.java`,
//! `AbstractLegacyRecordBatch.java`; KIP-31, KIP-32; deprecated by KIP-724, only read by
//! 4.x brokers). Layout: `offset int64 | size int32 | crc uint32 | magic int8 |
//! attributes int8 | [timestamp int64, v1] | keyLength int32 | key | valueLength int32 |
//! value`, CRC-32 (IEEE) over `[16, end)`. A compressed message is a wrapper whose value
//! is a compressed inner message set.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use crate::wire::batch::NO_TIMESTAMP;
use crate::wire::reader::{ReadError, Reader};
use crate::report::kind;

/// `LegacyRecord.RECORD_OVERHEAD_V0` / `_V1`.
pub const RECORD_OVERHEAD_V0: usize = 14;
pub const RECORD_OVERHEAD_V1: usize = 22;

/// One parsed message, offsets relative to its own first byte.
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
