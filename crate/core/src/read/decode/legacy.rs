//! Legacy magic 0 and 1 entries into the report: the wrapper and its inner messages as the
//! report's batches and records (`AbstractLegacyRecordBatch.java`); the message format itself
//! is [`crate::wire::legacy`].

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use crate::wire::batch::NO_SEQUENCE;
use crate::wire::legacy::{read_entry, LegacyFault, Message};
use super::budget::{header_report, record_limit_note, Budget};
use super::DecodeOptions;
use crate::report::*;

fn record_of(m: &Message<'_>, offset: i64, offset_delta: i32, timestamp: i64) -> RecordReport {
    RecordReport {
        offset_delta,
        timestamp_delta: 0,
        key: m.key.map(<[u8]>::to_vec),
        value: m.value.map(<[u8]>::to_vec),
        headers: Vec::new(),
        offset,
        timestamp,
        sequence: NO_SEQUENCE,
        attributes: m.attributes as i8,
        length: m.size,
        formatted: None,
    }
}

/// The header of a legacy entry read at `LegacyRecord`'s fixed offsets (offset 0, size 8,
/// crc 12, magic 16, attributes 17, magic 1's timestamp 18), as `Message::header_repr` shows a
/// message that parses; `None` when the entry is shorter than that.
fn fixed_header(slice: &[u8]) -> Option<crate::wire::batch::HeaderRepr> {
    use crate::wire::batch::{Attributes, HeaderRepr, NO_PARTITION_LEADER_EPOCH, NO_PRODUCER_EPOCH, NO_PRODUCER_ID, NO_TIMESTAMP};
    let be = |r: core::ops::Range<usize>| slice.get(r).map(|b| b.iter().fold(0u64, |n, &x| n << 8 | u64::from(x)));
    let magic = *slice.get(16)? as i8;
    let attributes = *slice.get(17)?;
    let timestamp = if magic == 1 { be(18..26)? as i64 } else { NO_TIMESTAMP };
    Some(HeaderRepr {
        base_offset: be(0..8)? as i64,
        batch_length: be(8..12)? as u32 as i32,
        partition_leader_epoch: NO_PARTITION_LEADER_EPOCH,
        magic,
        crc: be(12..16)? as u32,
        attributes: Attributes(u16::from(attributes) & if magic == 0 { 0x07 } else { 0x0f }),
        last_offset_delta: 0,
        base_timestamp: timestamp,
        max_timestamp: timestamp,
        producer_id: NO_PRODUCER_ID,
        producer_epoch: NO_PRODUCER_EPOCH,
        base_sequence: NO_SEQUENCE,
        records_count: 1,
    })
}

/// One legacy entry at `base` (`slice` shorter than declared when `truncated`), read by
/// [`read_entry`] (the walk the columns share) and listed with its spans.
pub(crate) fn decode(
    slice: &[u8],
    base: usize,
    truncated: bool,
    bi: usize,
    opts: &DecodeOptions,
    errors: &mut Vec<Issue>,
    budget: &mut Budget,
) -> BatchReport {
    let magic = slice.get(16).map_or(0, |&m| m as i8);
    let mut out = BatchReport { start: base, end: base + slice.len(), magic, legacy: true, truncated, ..Default::default() };
    if truncated {
        return out;
    }
    let mut scratch = Vec::new();
    let e = read_entry(slice, opts.max_decompressed, &mut scratch, &mut |f: LegacyFault| {
        errors.push(Issue {
            at: base + f.at,
            kind: f.kind,
            message: f.message,
            severity: Severity::Error,
            batch: Some(bi),
            decompressed_at: f.decompressed_at,
        })
    });
    let Some(m) = &e.wrapper else {
        // The message does not parse (a key or value length past its end …): Kafka still shows
        // its header, read at fixed offsets (`LegacyFileChannelRecordBatch` / `LegacyRecord`:
        // offset, checksum, magic, attributes, magic 1's timestamp; nothing checks the lengths).
        if let Some(h) = fixed_header(slice) {
            let computed = crate::crc::crc32_ieee(&slice[16..]);
            out.header = header_report(&h, computed, h.crc == computed, NO_SEQUENCE, h.base_offset);
        }
        return out;
    };
    if opts.spans {
        out.fields = m.spans.iter().map(|&(n, a, b)| Field::new(n, base + a..base + b)).collect();
    }
    let header = e.header_repr().expect("a parsed wrapper has a header");
    out.header = header_report(&header, m.crc_computed, header.crc == m.crc_computed, NO_SEQUENCE, m.offset);
    if m.attributes & 0x07 == 0 {
        if opts.records {
            out.records.push(record_of(m, m.offset, 0, m.timestamp));
        }
        return out;
    }
    let Some(inner) = e.inner else { return out };
    budget.add_decompressed(inner.len());
    let Some((first_offset, _)) = e.offsets else { return out };
    let value_start = base + e.value_at;
    let value_len = m.value.map_or(0, <[u8]>::len);
    out.decompressed = Some(Decompressed {
        codec: String::from(e.codec.expect("decompressed").name()),
        compressed_start: value_start,
        compressed_end: value_start + value_len,
        size: inner.len(),
        data: opts.include_decompressed.then(|| inner.to_vec()),
    });
    let log_append = m.magic == 1 && m.attributes & 0x08 != 0;
    if opts.records {
        for (i, (p, im)) in e.messages.iter().enumerate() {
            if !budget.allows() {
                record_limit_note(errors, bi, base, i);
                break;
            }
            let off = e.offset_of(im);
            let ts = if log_append { m.timestamp } else { im.timestamp };
            let rec = record_of(im, off, off.wrapping_sub(first_offset) as i32, ts);
            budget.charge(&rec, if opts.spans { 1 + im.spans.len() } else { 0 });
            out.records.push(rec);
            if opts.spans {
                out.fields.push(Field {
                    name: format!("records[{i}]").into(),
                    start: *p,
                    end: p + 12 + im.size as usize,
                    buffer: Some("decompressed"),
                });
                for &(n, a, b) in &im.spans {
                    out.fields.push(Field {
                        name: format!("records[{i}].{n}").into(),
                        start: p + a,
                        end: p + b,
                        buffer: Some("decompressed"),
                    });
                }
            }
        }
    }
    out
}
