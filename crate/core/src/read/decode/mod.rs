//! The entry walker: any number of concatenated log entries (a Produce/Fetch `records`
//! blob or a whole `.log` segment) → [`Report`]. Framing follows
//! `ByteBufferLogInputStream.nextBatch`; magic 2 follows
//! `DefaultRecordBatch` (`ensureValid`, the record iterators), magic 0/1 `legacy`.
//!
//! Guarantees: never panics; allocation is bounded by a small multiple of the input plus
//! `max_decompressed` per compressed batch; everything decoded before a fault is returned.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use crate::wire::batch::{self, field, Batch, HeaderRepr, HEADER_LEN};
use crate::wire::compression::{self, Codec};
use crate::wire::control;
use crate::input;
use crate::wire::reader::Reader;
use crate::wire::record::{self, Context};
use crate::report::*;

pub(crate) mod budget;
mod legacy;
use budget::*;

/// How much to decode.
#[derive(Clone, Debug)]
pub struct DecodeOptions {
    /// Cap on one batch's decompressed size (default 64 MiB): past it the batch reports
    /// `DecompressionLimitExceeded` instead of allocating more.
    pub max_decompressed: usize,
    /// Decode records (false: headers, CRCs and control markers only — for browsing big
    /// segments; records can be decoded per batch later).
    pub records: bool,
    /// Return the decompressed bytes of compressed batches (`decompressed.data`).
    pub include_decompressed: bool,
    /// Emit byte spans (`fields`) for every record field.
    pub spans: bool,
    /// Read every record as a record of this internal topic and put the text
    /// `kafka-console-consumer --formatter` prints in `records[i].formatted` (default off);
    /// see [`crate::wire::internal`]. A record the formatter cannot read gets a
    /// `RuntimeException` issue pinned on its key or value byte.
    pub formatter: Option<crate::wire::internal::InternalTopic>,
}

impl Default for DecodeOptions {
    fn default() -> Self {
        DecodeOptions { max_decompressed: 64 << 20, records: true, include_decompressed: false, spans: true, formatter: None }
    }
}

/// Decode text or binary input: detects hex/base64/byte-array text first (see [`input`]).
/// For input that is not valid text of any known kind, the report carries one
/// `InvalidInput` issue whose `at` is an offset into the *text*.
pub fn decode(input: &[u8], opts: &DecodeOptions) -> Report {
    input::decode_text(input, |bytes| decode_bytes(bytes, opts))
}

impl input::TextReport for Report {
    fn name_input(&mut self, format: String, stripped: Vec<String>) {
        self.format = format;
        self.stripped = stripped;
    }
    fn push_invalid_input(&mut self, at: usize, message: String) {
        self.errors.push(Issue { at, kind: kind::INVALID_INPUT, message, severity: Severity::Error, ..Issue::default() });
    }
}

/// Decode raw bytes (no text detection).
pub fn decode_bytes(bytes: &[u8], opts: &DecodeOptions) -> Report {
    let mut rep = Report { format: String::from("binary"), length: bytes.len(), ..Report::default() };
    let mut budget = Budget::new(bytes.len());
    let mut pos = 0usize;
    while pos < bytes.len() {
        let rem = &bytes[pos..];
        let bi = rep.batches.len();
        let mut issue = |at: usize, kind: &'static str, severity: Severity, message: String| {
            rep.errors.push(Issue { at, kind, message, severity, batch: Some(bi), decompressed_at: None })
        };
        let (magic, total, truncated) = match crate::wire::frame::frame(rem) {
            Ok(f) => f,
            Err((at, kind, severity, message)) => {
                issue(pos + at, kind, severity, message);
                break;
            }
        };
        if truncated {
            issue(
                pos,
                kind::PARTIAL_BATCH,
                Severity::Info,
                crate::wire::frame::partial_batch_message(total, rem.len()),
            );
        }
        let slice = &rem[..total.min(rem.len())];
        let b = if magic == 2 {
            decode_v2(slice, pos, truncated, bi, opts, &mut rep.errors, &mut budget)
        } else {
            legacy::decode(slice, pos, truncated, bi, opts, &mut rep.errors, &mut budget)
        };
        rep.batches.push(b);
        if truncated {
            break;
        }
        pos += total;
    }
    if let Some(topic) = opts.formatter {
        format_internal_records(&mut rep, topic);
    }
    rep
}

/// [`DecodeOptions::formatter`]: fills `formatted` for every listed data record (control
/// records are never shown by a consumer) and pins what the formatter cannot read (those
/// records keep `formatted: None`).
fn format_internal_records(rep: &mut Report, topic: crate::wire::internal::InternalTopic) {
    use crate::wire::internal::{format_record_detailed, Formatted};
    let mut formatter_errors = Vec::new();
    for (bi, b) in rep.batches.iter_mut().enumerate() {
        if b.header.attributes.control && !b.legacy {
            continue;
        }
        // records[i].key / records[i].value spans: (start, buffer).
        type Span = Option<(usize, Option<&'static str>)>;
        let mut spans: Vec<(Span, Span)> = alloc::vec![(None, None); b.records.len()];
        for f in &b.fields {
            let Some(rest) = f.name.strip_prefix("records[") else { continue };
            let Some((idx, field)) = rest.split_once("].") else { continue };
            let Some(slot) = idx.parse::<usize>().ok().and_then(|i| spans.get_mut(i)) else { continue };
            match field {
                "key" => slot.0 = Some((f.start, f.buffer)),
                "value" => slot.1 = Some((f.start, f.buffer)),
                _ => {}
            }
        }
        let compressed_at = b.decompressed.as_ref().map(|d| d.compressed_start);
        for (i, rec) in b.records.iter_mut().enumerate() {
            match format_record_detailed(topic, rec.key.as_deref(), rec.value.as_deref()) {
                Ok(Formatted::Printed(s)) => rec.formatted = Some(s),
                Ok(Formatted::Skipped(_)) => rec.formatted = Some(String::new()),
                Err(e) => {
                    let span = if e.in_value { spans[i].1 } else { spans[i].0 };
                    let (at, decompressed_at) = match span {
                        Some((start, Some(_))) => (compressed_at.unwrap_or(b.start), Some(start + e.at)),
                        Some((start, None)) => (start + e.at, None),
                        None => (b.start, None),
                    };
                    formatter_errors.push(Issue {
                        at,
                        kind: kind::RUNTIME,
                        message: format!("Could not read record at offset {} due to: {}", rec.offset, e.message),
                        severity: Severity::Error,
                        batch: Some(bi),
                        decompressed_at,
                    });
                }
            }
        }
    }
    // Each batch's issues together, in batch order, the walk's before the formatter's: what a
    // stable sort by batch would give, as a merge of the two lists, each in batch order already
    // (the walk's issues carry the index of the batch being walked; this loop goes in batch
    // order). A merge, not a sort: the decode-only wasm module is on a size budget.
    if formatter_errors.is_empty() {
        return;
    }
    let key = |e: &Issue| e.batch.unwrap_or(usize::MAX);
    debug_assert!(rep.errors.is_sorted_by_key(key));
    let walk = core::mem::take(&mut rep.errors);
    let mut merged = Vec::with_capacity(walk.len() + formatter_errors.len());
    let mut formatter_errors = formatter_errors.into_iter().peekable();
    for e in walk {
        while let Some(f) = formatter_errors.next_if(|f| key(f) < key(&e)) {
            merged.push(f);
        }
        merged.push(e);
    }
    merged.extend(formatter_errors);
    rep.errors = merged;
}

/// One magic-2 batch. `slice` is the batch (shorter than declared when `truncated`),
/// `base` its position in the input.
fn decode_v2(
    slice: &[u8],
    base: usize,
    truncated: bool,
    bi: usize,
    opts: &DecodeOptions,
    errors: &mut Vec<Issue>,
    budget: &mut Budget,
) -> BatchReport {
    // A truncated header is read zero-padded; only fully present fields get spans.
    let mut padded = [0u8; HEADER_LEN];
    let have = slice.len().min(HEADER_LEN);
    padded[..have].copy_from_slice(&slice[..have]);
    let h = HeaderRepr::parse(&Batch::new_unchecked(&padded[..]));
    let mut fields = Vec::with_capacity(if opts.spans { 16 } else { 0 });
    if opts.spans {
        for (name, r) in field::NAMED.iter() {
            if r.end <= slice.len() {
                fields.push(Field::new(*name, batch::shifted(r, base)));
            }
        }
    }
    let crc_computed = if slice.len() > field::CRC_START { crate::wire::crc::crc32c(&slice[field::CRC_START..]) } else { 0 };
    let size_ok = slice.len() >= HEADER_LEN;
    let crc_valid = !truncated && size_ok && h.crc == crc_computed;
    let mut out = BatchReport {
        start: base,
        end: base + slice.len(),
        magic: h.magic,
        legacy: false,
        truncated,
        header: header_report(
            &h,
            crc_computed,
            crc_valid,
            if h.base_sequence == batch::NO_SEQUENCE {
                batch::NO_SEQUENCE
            } else {
                crate::wire::sequence::increment(h.base_sequence, h.last_offset_delta)
            },
            h.base_offset.wrapping_add(h.last_offset_delta as i64),
        ),
        ..BatchReport::default()
    };
    if truncated {
        out.fields = fields;
        return out;
    }
    if !size_ok {
        // DefaultRecordBatch.ensureValid.
        push(
            errors,
            bi,
            base + field::BATCH_LENGTH.start,
            kind::CORRUPT_RECORD,
            Severity::Error,
            format!(
                "Record batch is corrupt (the size {} is smaller than the minimum allowed overhead {HEADER_LEN})",
                slice.len()
            ),
        );
        out.fields = fields;
        return out;
    }
    if !crc_valid {
        push(
            errors,
            bi,
            base + field::CRC.start,
            kind::CORRUPT_RECORD,
            Severity::Error,
            format!("Record is corrupt (stored crc = {}, computed crc = {crc_computed})", h.crc),
        );
    }
    let attrs = h.attributes;
    let codec = match crate::wire::frame::batch_codec(&h, base) {
        Ok(c) => c,
        Err(e) => {
            push(errors, bi, e.at, e.kind, Severity::Error, e.message);
            out.fields = fields;
            return out;
        }
    };
    let payload = &slice[HEADER_LEN..];
    let payload_span = base + HEADER_LEN..base + slice.len();
    if opts.spans {
        fields.push(Field::new(if codec == Codec::None { "records" } else { "compressedRecords" }, payload_span.clone()));
    }

    validate_like_log_validator(&h, base, bi, errors);

    if let Err(e) = crate::wire::frame::check_records_count(&h, base) {
        push(errors, bi, e.at, e.kind, Severity::Error, e.message);
        out.fields = fields;
        return out;
    }
    if (!opts.records && !attrs.is_control()) || h.records_count == 0 {
        // recordsCount 0: Java returns no records and does not look at trailing bytes.
        out.fields = fields;
        return out;
    }

    let mut ctx = Context::of_batch(&h, codec != Codec::None, opts.spans);
    let decompressed;
    let (records_buf, span_base, buffer): (&[u8], usize, Option<&'static str>) = if codec == Codec::None {
        (payload, base + HEADER_LEN, None)
    } else {
        match compression::decompress(codec, payload, 2, opts.max_decompressed) {
            Ok(d) => {
                decompressed = d;
                budget.add_decompressed(decompressed.len());
                out.decompressed = Some(Decompressed {
                    codec: String::from(codec.name()),
                    compressed_start: payload_span.start,
                    compressed_end: payload_span.end,
                    size: decompressed.len(),
                    data: opts.include_decompressed.then(|| decompressed.clone()),
                });
                (&decompressed[..], 0, Some("decompressed"))
            }
            Err(e) => {
                push_decompress_error(errors, bi, payload_span.start, payload.len(), e);
                out.fields = fields;
                return out;
            }
        }
    };
    let fault = |e: record::RecordError, errors: &mut Vec<Issue>| {
        let (at, dat) = if buffer.is_some() { (payload_span.start, Some(e.at)) } else { (span_base + e.at, None) };
        errors.push(Issue {
            at,
            kind: e.kind,
            message: e.message,
            severity: Severity::Error,
            batch: Some(bi),
            decompressed_at: dat,
        });
    };

    let mut r = Reader::new(records_buf);
    let mut records = Vec::new();
    let mut complete = true;
    let mut limited = false;
    for i in 0..h.records_count as usize {
        let listed = budget.allows();
        if !listed && !limited {
            limited = true;
            record_limit_note(errors, bi, base, i);
        }
        ctx.spans = opts.spans && listed;
        let before = fields.len();
        match record::parse(&mut r, &ctx, i, span_base, buffer, &mut fields) {
            Ok(rec) if listed => {
                budget.charge(&rec, fields.len() - before);
                records.push(rec)
            }
            Ok(_) => {}
            Err(e) => {
                fault(e, errors);
                complete = false;
                break;
            }
        }
    }
    if complete {
        if let Err(e) = crate::wire::frame::check_no_records_left(&r) {
            fault(e, errors);
        }
    }
    if attrs.is_control() {
        out.control = decode_control(&records, &mut fields, bi, errors, buffer.is_some().then_some(payload_span.start));
    }
    out.records = records;
    out.fields = fields;
    out
}

/// The control record of a control batch, with spans for its key/value sub-fields.
fn decode_control(
    records: &[RecordReport],
    fields: &mut Vec<Field>,
    bi: usize,
    errors: &mut Vec<Issue>,
    compressed_at: Option<usize>,
) -> Option<Control> {
    let rec = records.first()?;
    let find = |fields: &[Field], n: &str| fields.iter().find(|f| f.name == n).map(|f| (f.start, f.buffer));
    let key_at = find(fields, "records[0].key");
    let value_at = find(fields, "records[0].value");
    match control::parse(rec.key.as_deref(), rec.value.as_deref()) {
        Ok(c) => {
            if let Some((k, buf)) = key_at {
                fields.push(Field { name: "records[0].key.version".into(), start: k, end: k + 2, buffer: buf });
                fields.push(Field { name: "records[0].key.type".into(), start: k + 2, end: k + 4, buffer: buf });
            }
            if let (Some((v, buf)), true) = (value_at, c.coordinator_epoch.is_some()) {
                fields.push(Field { name: "records[0].value.version".into(), start: v, end: v + 2, buffer: buf });
                fields.push(Field {
                    name: "records[0].value.coordinatorEpoch".into(),
                    start: v + 2,
                    end: v + 6,
                    buffer: buf,
                });
            }
            Some(c)
        }
        Err(e) => {
            let local = if e.in_value { value_at } else { key_at }.map_or(0, |(p, _)| p) + e.at;
            let (at, dat) = match compressed_at {
                Some(c) => (c, Some(local)),
                None => (local, None),
            };
            errors.push(Issue {
                at,
                kind: e.kind,
                message: e.message,
                severity: Severity::Error,
                batch: Some(bi),
                decompressed_at: dat,
            });
            None
        }
    }
}

/// What the leader's `LogValidator.validateBatch` would refuse from a producer: reported
/// as warnings, since compaction and markers legitimately produce some of these shapes.
fn validate_like_log_validator(h: &HeaderRepr, base: usize, bi: usize, errors: &mut Vec<Issue>) {
    if h.attributes.is_control() {
        return;
    }
    let last = h.base_offset.wrapping_add(h.last_offset_delta as i64);
    if h.records_count >= 0 && h.last_offset_delta as i64 + 1 != h.records_count as i64 {
        push(
            errors,
            bi,
            base + field::LAST_OFFSET_DELTA.start,
            kind::INVALID_RECORD,
            Severity::Warning,
            format!(
                "Inconsistent batch offset range [{}, {last}] and count of records {} (LogValidator.validateBatch; a broker refuses this from a producer, compaction can leave it)",
                h.base_offset, h.records_count
            ),
        );
    }
    if h.producer_id >= 0 && h.base_sequence < 0 {
        push(
            errors,
            bi,
            base + field::BASE_SEQUENCE.start,
            kind::INVALID_RECORD,
            Severity::Warning,
            format!(
                "Invalid sequence number {} in record batch with producerId {} (LogValidator.validateBatch)",
                h.base_sequence, h.producer_id
            ),
        );
    }
}
