//! The magic-2 record body (`clients/.../common/record/DefaultRecord.java`, KIP-82):
//! `length varint | attributes int8 | timestampDelta varlong | offsetDelta varint |
//! keyLength varint | key | valueLength varint | value | headersCount varint | headers`.
//! Parsing follows `DefaultRecord.readFrom` check for check, with Java's messages.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use crate::reader::{self, ReadError, Reader};
use crate::report::{Field, RecordHeader, RecordReport};

/// Owned record, as a producer builds it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RecordRepr {
    pub attributes: i8,
    pub timestamp_delta: i64,
    pub offset_delta: i32,
    pub key: Option<Vec<u8>>,
    pub value: Option<Vec<u8>>,
    /// Header key bytes (a Java `String`, UTF-8) and value.
    pub headers: Vec<(Vec<u8>, Option<Vec<u8>>)>,
}

impl RecordRepr {
    /// Append the record (length varint first) as `DefaultRecord.writeTo` does.
    pub fn emit(&self, out: &mut Vec<u8>) {
        let mut body = Vec::with_capacity(self.body_size_hint());
        body.push(self.attributes as u8);
        reader::write::varlong(&mut body, self.timestamp_delta);
        reader::write::varint(&mut body, self.offset_delta);
        emit_bytes(&mut body, self.key.as_deref());
        emit_bytes(&mut body, self.value.as_deref());
        reader::write::varint(&mut body, self.headers.len() as i32);
        for (k, v) in &self.headers {
            emit_bytes(&mut body, Some(k));
            emit_bytes(&mut body, v.as_deref());
        }
        reader::write::varint(out, body.len() as i32);
        out.extend_from_slice(&body);
    }

    fn body_size_hint(&self) -> usize {
        21 + self.key.as_ref().map_or(0, Vec::len)
            + self.value.as_ref().map_or(0, Vec::len)
            + self.headers.iter().map(|(k, v)| 10 + k.len() + v.as_ref().map_or(0, Vec::len)).sum::<usize>()
    }
}

fn emit_bytes(out: &mut Vec<u8>, b: Option<&[u8]>) {
    match b {
        None => reader::write::varint(out, -1),
        Some(b) => {
            reader::write::varint(out, b.len() as i32);
            out.extend_from_slice(b);
        }
    }
}

/// Batch-level values a record needs to derive its offset, timestamp and sequence.
#[derive(Clone, Copy, Debug)]
pub struct Context {
    pub base_offset: i64,
    pub base_timestamp: i64,
    pub base_sequence: i32,
    /// `Some(maxTimestamp)` for LogAppendTime batches: every record takes it.
    pub log_append_time: Option<i64>,
    /// Compressed path (`readFrom(InputStream)`): the body is read into a buffer of exactly
    /// `length` bytes first; the uncompressed path reads straight from the batch buffer.
    pub bounded_body: bool,
    /// Emit byte spans for each field.
    pub spans: bool,
}

/// A failure inside one record: Kafka's exception name, message, and the offset (relative
/// to the reader's buffer) where it was detected.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecordError {
    pub at: usize,
    pub kind: &'static str,
    pub message: String,
}

use crate::report::kind;

fn structure(e: ReadError) -> RecordError {
    // `DefaultRecord.readFrom`: BufferUnderflowException | IllegalArgumentException →
    // InvalidRecordException("Found invalid record structure", e).
    RecordError { at: e.at(), kind: kind::INVALID_RECORD, message: format!("Found invalid record structure ({e})") }
}

/// Read one record at the reader's position. `index` names the spans (`records[i].…`);
/// `span_base` is added to every span offset (position of the reader's buffer in the
/// input, or 0 in a decompressed buffer); spans are pushed to `fields`.
pub fn parse(
    r: &mut Reader<'_>,
    ctx: &Context,
    index: usize,
    span_base: usize,
    buffer: Option<&'static str>,
    fields: &mut Vec<Field>,
) -> Result<RecordReport, RecordError> {
    let mark = fields.len();
    let result = parse_inner(r, ctx, index, span_base, buffer, fields);
    if result.is_err() && fields.len() > mark {
        // A record that failed part-way keeps the spans it did decode; its own span ends
        // where the last of them ends.
        let end = fields[mark..].iter().map(|f| f.end).max().unwrap_or(fields[mark].start);
        fields[mark].end = end.max(fields[mark].start);
    }
    result
}

fn parse_inner(
    r: &mut Reader<'_>,
    ctx: &Context,
    index: usize,
    span_base: usize,
    buffer: Option<&'static str>,
    fields: &mut Vec<Field>,
) -> Result<RecordReport, RecordError> {
    let start = r.pos();
    // The length varint is read outside Java's try block: underflow there is the batch
    // iterator's "premature EOF"; an over-long varint surfaces as IllegalArgumentException.
    let length = match r.varint() {
        Ok(l) => l,
        Err(ReadError::Eof { at, .. }) => {
            return Err(RecordError {
                at,
                kind: kind::INVALID_RECORD,
                message: String::from("Incorrect declared batch size, premature EOF reached"),
            })
        }
        Err(e) => return Err(RecordError { at: e.at(), kind: kind::ILLEGAL_ARGUMENT, message: format!("{e}") }),
    };
    let body_start = r.pos();
    let remaining = r.remaining();
    if ctx.bounded_body {
        if length < 0 {
            return Err(RecordError {
                at: start,
                kind: kind::INVALID_RECORD,
                message: format!("Invalid record size: {length} is negative."),
            });
        }
        if length as usize > remaining {
            return Err(RecordError {
                at: start,
                kind: kind::INVALID_RECORD,
                message: format!(
                    "Invalid record size: expected {length} bytes in record payload, but the record payload reached EOF."
                ),
            });
        }
    } else if (remaining as i64) < length as i64 {
        return Err(RecordError {
            at: start,
            kind: kind::INVALID_RECORD,
            message: format!(
                "Invalid record size: expected {length} bytes in record payload, but instead the buffer has only {remaining} remaining bytes."
            ),
        });
    }
    // The body reader: exactly `length` bytes on the compressed path, the rest of the
    // buffer on the uncompressed one (Java checks the consumed size afterwards).
    let body_len = if ctx.bounded_body { length as usize } else { remaining };
    let mut body = Reader::new(r.take(body_len).map_err(structure)?);
    let abs = |p: usize| span_base + body_start + p;
    let mut span = |fields: &mut Vec<Field>, name: &str, a: usize, b: usize| {
        if ctx.spans {
            fields.push(Field { name: format!("records[{index}].{name}").into(), start: abs(a), end: abs(b), buffer });
        }
    };
    let rec_field_idx = fields.len();
    if ctx.spans {
        fields.push(Field { name: format!("records[{index}]").into(), start: span_base + start, end: 0, buffer });
        fields.push(Field {
            name: format!("records[{index}].length").into(),
            start: span_base + start,
            end: span_base + body_start,
            buffer,
        });
    }
    let at_body = |e: ReadError| {
        let mut e = structure(e);
        e.at += body_start;
        e
    };

    let mut p = body.pos();
    let attributes = body.i8().map_err(at_body)?;
    span(fields, "attributes", p, body.pos());
    p = body.pos();
    let timestamp_delta = body.varlong().map_err(at_body)?;
    span(fields, "timestampDelta", p, body.pos());
    p = body.pos();
    let offset_delta = body.varint().map_err(at_body)?;
    span(fields, "offsetDelta", p, body.pos());

    let key = read_bytes(&mut body, "key", &mut span, fields).map_err(at_body)?;
    let value = read_bytes(&mut body, "value", &mut span, fields).map_err(at_body)?;

    p = body.pos();
    let headers_count = body.varint().map_err(at_body)?;
    span(fields, "headersCount", p, body.pos());
    if headers_count < 0 {
        return Err(RecordError {
            at: body_start + p,
            kind: kind::INVALID_RECORD,
            message: format!("Found invalid number of record headers {headers_count}"),
        });
    }
    if headers_count as usize > body.remaining() {
        return Err(RecordError {
            at: body_start + p,
            kind: kind::INVALID_RECORD,
            message: format!(
                "Found invalid number of record headers. {headers_count} is larger than the remaining size of the buffer"
            ),
        });
    }
    let mut headers = Vec::with_capacity(headers_count as usize);
    for h in 0..headers_count as usize {
        p = body.pos();
        let klen = body.varint().map_err(at_body)?;
        if ctx.spans {
            span(fields, &format!("headers[{h}].keyLength"), p, body.pos());
        }
        if klen < 0 {
            return Err(RecordError {
                at: body_start + p,
                kind: kind::INVALID_RECORD,
                message: format!("Invalid negative header key size {klen}"),
            });
        }
        p = body.pos();
        let k = body.take(klen as usize).map_err(at_body)?;
        if ctx.spans {
            span(fields, &format!("headers[{h}].key"), p, body.pos());
        }
        p = body.pos();
        let vlen = body.varint().map_err(at_body)?;
        if ctx.spans {
            span(fields, &format!("headers[{h}].valueLength"), p, body.pos());
        }
        let v = if vlen >= 0 {
            p = body.pos();
            let v = body.take(vlen as usize).map_err(at_body)?;
            if ctx.spans {
                span(fields, &format!("headers[{h}].value"), p, body.pos());
            }
            Some(v.to_vec())
        } else {
            None
        };
        headers.push(RecordHeader { key: String::from_utf8_lossy(k).into_owned(), value: v });
    }

    let consumed = body.pos();
    if consumed as i64 != length as i64 {
        return Err(RecordError {
            at: body_start + consumed,
            kind: kind::INVALID_RECORD,
            message: format!(
                "Invalid record size: expected to read {length} bytes in record payload, but instead read {consumed}"
            ),
        });
    }
    // Unbounded body: hand back what was not part of this record.
    if !ctx.bounded_body {
        r.rewind_to(body_start + consumed);
    }
    if ctx.spans {
        fields[rec_field_idx].end = span_base + body_start + consumed;
    }

    let timestamp = match ctx.log_append_time {
        Some(t) => t,
        None => ctx.base_timestamp.wrapping_add(timestamp_delta),
    };
    Ok(RecordReport {
        offset_delta,
        timestamp_delta,
        key,
        value,
        headers,
        offset: ctx.base_offset.wrapping_add(offset_delta as i64),
        timestamp,
        sequence: crate::sequence::of_record(ctx.base_sequence, offset_delta),
        attributes,
        length,
        formatted: None,
    })
}

/// `Utils.readBytes` semantics: any negative length is `null`.
fn read_bytes(
    body: &mut Reader<'_>,
    name: &str,
    span: &mut impl FnMut(&mut Vec<Field>, &str, usize, usize),
    fields: &mut Vec<Field>,
) -> Result<Option<Vec<u8>>, ReadError> {
    let p = body.pos();
    let len = body.varint()?;
    span(fields, if name == "key" { "keyLength" } else { "valueLength" }, p, body.pos());
    if len < 0 {
        return Ok(None);
    }
    let p = body.pos();
    let b = body.take(len as usize)?;
    span(fields, name, p, body.pos());
    Ok(Some(b.to_vec()))
}
