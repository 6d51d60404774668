//! Legacy magic 0 and 1 entries into the report: the wrapper and its inner messages as the
//! report's batches and records (`AbstractLegacyRecordBatch.java`); the message format itself
//! is [`crate::wire::legacy`].

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use crate::wire::batch::{Attributes, NO_PARTITION_LEADER_EPOCH, NO_PRODUCER_EPOCH, NO_PRODUCER_ID, NO_SEQUENCE};
use crate::wire::compression::{self, Codec};
use crate::wire::legacy::*;
use super::budget::{attributes_report, push, push_decompress_error, record_limit_note, Budget};
use super::DecodeOptions;
use crate::report::*;

fn header_for(m: &Message<'_>, records_count: i32, last_offset_delta: i32) -> Header {
    let a = Attributes(m.attributes as u16 & if m.magic == 0 { 0x07 } else { 0x0f });
    Header {
        base_offset: m.offset,
        batch_length: m.size,
        partition_leader_epoch: NO_PARTITION_LEADER_EPOCH,
        magic: m.magic,
        crc: m.crc,
        crc_computed: m.crc_computed,
        crc_valid: m.crc == m.crc_computed,
        attributes: attributes_report(a),
        last_offset_delta,
        base_timestamp: m.timestamp,
        max_timestamp: m.timestamp,
        producer_id: NO_PRODUCER_ID,
        producer_epoch: NO_PRODUCER_EPOCH,
        base_sequence: NO_SEQUENCE,
        records_count,
        last_sequence: NO_SEQUENCE,
        last_offset: m.offset,
    }
}

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

/// One legacy entry at `base` (`slice` shorter than declared when `truncated`).
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
    let m = match parse_message(slice) {
        Ok(m) => m,
        Err(f) => {
            push(errors, bi, base + f.at, f.kind, Severity::Error, f.message);
            return out;
        }
    };
    if opts.spans {
        out.fields = m.spans.iter().map(|&(n, a, b)| Field::new(n, base + a..base + b)).collect();
    }
    if m.crc != m.crc_computed {
        // LegacyRecord.ensureValid.
        push(
            errors,
            bi,
            base + 12,
            kind::CORRUPT_RECORD,
            Severity::Error,
            format!("Record is corrupt (stored crc = {}, computed crc = {})", m.crc, m.crc_computed),
        );
    }
    let codec_id = m.attributes & 0x07;
    let log_append = m.magic == 1 && m.attributes & 0x08 != 0;
    if codec_id == 0 {
        out.header = header_for(&m, 1, 0);
        if opts.records {
            out.records.push(record_of(&m, m.offset, 0, m.timestamp));
        }
        return out;
    }
    out.header = header_for(&m, 0, 0);
    let codec = match Codec::from_id(codec_id) {
        Some(c) if c != Codec::Zstd => c,
        _ => {
            push(
                errors,
                bi,
                base + 17,
                kind::ILLEGAL_ARGUMENT,
                Severity::Error,
                format!("Compression type id {codec_id} is not supported for magic {}", m.magic),
            );
            return out;
        }
    };
    let Some(value) = m.value else {
        push(
            errors,
            bi,
            base + 17,
            kind::INVALID_RECORD,
            Severity::Error,
            format!("Found invalid compressed record set with null value (magic = {})", m.magic),
        );
        return out;
    };
    let value_start = m.spans.iter().find(|s| s.0 == "value").map_or(0, |s| s.1) + base;
    let inner = match compression::decompress(codec, value, m.magic as u8, opts.max_decompressed) {
        Ok(d) => {
            budget.add_decompressed(d.len());
            d
        }
        Err(e) => {
            push_decompress_error(errors, bi, value_start, value.len(), e);
            return out;
        }
    };
    // Inner messages (AbstractLegacyRecordBatch.DeepRecordsIterator).
    let mut msgs: Vec<(usize, Message<'_>)> = Vec::new();
    let mut pos = 0usize;
    let inner_fault = |at: usize, kind: &'static str, message: String, errors: &mut Vec<Issue>| {
        errors.push(Issue {
            at: value_start,
            kind,
            message,
            severity: Severity::Error,
            batch: Some(bi),
            decompressed_at: Some(at),
        })
    };
    let mut ok = true;
    while pos + 12 <= inner.len() {
        let size = i32::from_be_bytes([inner[pos + 8], inner[pos + 9], inner[pos + 10], inner[pos + 11]]);
        if size < RECORD_OVERHEAD_V0 as i32 || pos + 12 + size as usize > inner.len() {
            inner_fault(
                pos + 8,
                kind::CORRUPT_RECORD,
                format!("Inner message size {size} is invalid or runs past the decompressed data"),
                errors,
            );
            ok = false;
            break;
        }
        match parse_message(&inner[pos..pos + 12 + size as usize]) {
            Ok(im) => {
                if im.magic != m.magic {
                    // AbstractLegacyRecordBatch.DeepRecordsIterator: ensureMatchingMagic.
                    inner_fault(
                        pos + 16,
                        kind::INVALID_RECORD,
                        format!("Compressed message magic {} does not match wrapper magic {}", im.magic, m.magic),
                        errors,
                    );
                    ok = false;
                    break;
                }
                if im.attributes & 0x07 != 0 {
                    inner_fault(
                        pos + 17,
                        kind::INVALID_RECORD,
                        String::from("Compressed outer record should not have an inner record with a compression attribute set"),
                        errors,
                    );
                    ok = false;
                    break;
                }
                if im.crc != im.crc_computed {
                    inner_fault(
                        pos + 12,
                        kind::CORRUPT_RECORD,
                        format!("Record is corrupt (stored crc = {}, computed crc = {})", im.crc, im.crc_computed),
                        errors,
                    );
                }
                msgs.push((pos, im));
            }
            Err(f) => {
                inner_fault(pos + f.at, f.kind, f.message, errors);
                ok = false;
                break;
            }
        }
        pos += 12 + size as usize;
    }
    if ok && pos < inner.len() {
        inner_fault(pos, kind::INVALID_RECORD, String::from("Incorrect declared batch size, premature EOF reached"), errors);
    }
    if msgs.is_empty() {
        if ok {
            push(
                errors,
                bi,
                value_start,
                kind::INVALID_RECORD,
                Severity::Error,
                String::from("Found invalid compressed record set with no inner records"),
            );
        }
        return out;
    }
    // KIP-31 relative offsets for v1 wrappers.
    let last_inner = msgs.last().map_or(0, |(_, m)| m.offset);
    let abs_base = if m.magic == 1 {
        if m.offset == 0 {
            Some(0)
        } else if m.offset < last_inner {
            push(
                errors,
                bi,
                base,
                kind::INVALID_RECORD,
                Severity::Error,
                format!(
                    "Found invalid wrapper offset in compressed v1 message set, wrapper offset '{}' is less than the last inner message offset '{last_inner}' and it is not zero.",
                    m.offset
                ),
            );
            return out;
        } else {
            Some(m.offset.wrapping_sub(last_inner))
        }
    } else {
        None
    };
    let first_offset = abs_base.map_or(msgs[0].1.offset, |b| b.wrapping_add(msgs[0].1.offset));
    out.header = header_for(&m, msgs.len() as i32, (m.offset.wrapping_sub(first_offset)) as i32);
    out.header.base_offset = first_offset;
    out.header.last_offset = m.offset;
    out.decompressed = Some(Decompressed {
        codec: String::from(codec.name()),
        compressed_start: value_start,
        compressed_end: value_start + value.len(),
        size: inner.len(),
        data: opts.include_decompressed.then(|| inner.clone()),
    });
    if opts.records {
        for (i, (p, im)) in msgs.iter().enumerate() {
            if !budget.allows() {
                record_limit_note(errors, bi, base, i);
                break;
            }
            let off = abs_base.map_or(im.offset, |b| b.wrapping_add(im.offset));
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
