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
    let Some(m) = &e.wrapper else { return out };
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
