//! The magic-2 record body (`clients/.../common/record/DefaultRecord.java`, KIP-82):
//! `length varint | attributes int8 | timestampDelta varlong | offsetDelta varint |
//! keyLength varint | key | valueLength varint | value | headersCount varint | headers`.
//! Parsing follows `DefaultRecord.readFrom` check for check, with Java's messages.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use crate::wire::reader::{ReadError, Reader};
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
    /// Append the record (length varint first) as `DefaultRecord.writeTo` does, through the
    /// one writer ([`crate::wire::write::Record::write`]).
    pub fn emit(&self, out: &mut Vec<u8>) {
        let headers: Vec<(&[u8], Option<&[u8]>)> = self.headers.iter().map(|(k, v)| (&k[..], v.as_deref())).collect();
        self.as_record(&headers).write(out)
    }

    /// The record borrowed as the writer takes it, `headers` being `self.headers` borrowed.
    pub fn as_record<'a>(&'a self, headers: &'a [(&'a [u8], Option<&'a [u8]>)]) -> crate::wire::write::Record<'a> {
        crate::wire::write::Record {
            attributes: self.attributes,
            timestamp_delta: self.timestamp_delta,
            offset_delta: self.offset_delta,
            key: self.key.as_deref(),
            value: self.value.as_deref(),
            headers,
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

impl Context {
    /// The context of a magic-2 batch's records, from its header (`DefaultRecordBatch`'s
    /// iterator: base offset, base timestamp, base sequence; LogAppendTime batches give every
    /// record `maxTimestamp`; compressed batches read each record from a bounded body).
    pub fn of_batch(h: &crate::wire::batch::HeaderRepr, compressed: bool, spans: bool) -> Context {
        Context {
            base_offset: h.base_offset,
            base_timestamp: h.base_timestamp,
            base_sequence: h.base_sequence,
            log_append_time: (h.attributes.timestamp_type() == crate::wire::batch::TimestampType::LogAppendTime)
                .then_some(h.max_timestamp),
            bounded_body: compressed,
            spans,
        }
    }
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

/// A record read in place: every field of `DefaultRecord`, the byte fields borrowed from
/// the buffer the record was read from (the batch, or its decompressed records), plus the
/// values Java derives from the batch (offset, timestamp, sequence). Built by [`read`],
/// which runs every check `DefaultRecord.readFrom` runs, so a `RecordView` is a record Java
/// would have returned.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RecordView<'a> {
    /// Declared body length (the record's first varint).
    pub length: i32,
    pub attributes: i8,
    pub timestamp_delta: i64,
    pub offset_delta: i32,
    pub key: Option<&'a [u8]>,
    pub value: Option<&'a [u8]>,
    /// The headers, already validated; iterate with [`RecordView::headers`].
    headers: HeadersView<'a>,
    /// Derived: baseOffset + offsetDelta.
    pub offset: i64,
    /// Derived: maxTimestamp under LogAppendTime, else baseTimestamp + timestampDelta.
    pub timestamp: i64,
    /// Derived: incrementSequence(baseSequence, offsetDelta), or −1.
    pub sequence: i32,
}

impl<'a> RecordView<'a> {
    /// The record headers: `(key, value)` with the key's UTF-8 bytes (a Java `String`) and
    /// the value (`None` for a negative length).
    pub fn headers(&self) -> HeadersView<'a> {
        self.headers
    }
}

/// The headers section of a validated record (`headersCount` entries in `raw`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HeadersView<'a> {
    raw: &'a [u8],
    count: usize,
}

impl HeadersView<'_> {
    pub fn len(&self) -> usize {
        self.count
    }
    pub fn is_empty(&self) -> bool {
        self.count == 0
    }
}

impl<'a> Iterator for HeadersView<'a> {
    type Item = (&'a [u8], Option<&'a [u8]>);
    fn next(&mut self) -> Option<Self::Item> {
        if self.count == 0 {
            return None;
        }
        // `read` checked every length against the buffer, so these reads cannot fail;
        // should they, the iteration simply ends.
        let mut r = Reader::new(self.raw);
        let klen = r.varint().ok()?;
        let k = r.take(usize::try_from(klen).ok()?).ok()?;
        let vlen = r.varint().ok()?;
        let v = if vlen >= 0 { Some(r.take(vlen as usize).ok()?) } else { None };
        self.raw = &self.raw[r.pos()..];
        self.count -= 1;
        Some((k, v))
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        (self.count, Some(self.count))
    }
}

/// The byte spans [`read`] can report, by Kafka's field names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Span {
    Length,
    Attributes,
    TimestampDelta,
    OffsetDelta,
    KeyLength,
    Key,
    ValueLength,
    Value,
    HeadersCount,
    HeaderKeyLength(usize),
    HeaderKey(usize),
    HeaderValueLength(usize),
    HeaderValue(usize),
}

/// Receives each field's span (positions in the reader's buffer) while [`read`] parses.
/// `()` ignores them; with `ON = false` the reader does not even compute them.
pub trait SpanSink {
    const ON: bool;
    fn span(&mut self, name: Span, start: usize, end: usize);
}

impl SpanSink for () {
    const ON: bool = false;
    #[inline(always)]
    fn span(&mut self, _: Span, _: usize, _: usize) {}
}

/// Read one record at the reader's position, zero-copy, with `DefaultRecord.readFrom`'s
/// checks and messages; spans go to `sink`. On success the reader stands after the record.
pub fn read<'a, S: SpanSink>(r: &mut Reader<'a>, ctx: &Context, sink: &mut S) -> Result<RecordView<'a>, RecordError> {
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
    if S::ON {
        sink.span(Span::Length, start, body_start);
    }
    let span = |sink: &mut S, name: Span, a: usize, b: usize| {
        if S::ON {
            sink.span(name, body_start + a, body_start + b)
        }
    };
    let at_body = |e: ReadError| {
        let mut e = structure(e);
        e.at += body_start;
        e
    };

    let mut p = body.pos();
    let attributes = body.i8().map_err(at_body)?;
    span(sink, Span::Attributes, p, body.pos());
    p = body.pos();
    let timestamp_delta = body.varlong().map_err(at_body)?;
    span(sink, Span::TimestampDelta, p, body.pos());
    p = body.pos();
    let offset_delta = body.varint().map_err(at_body)?;
    span(sink, Span::OffsetDelta, p, body.pos());

    let key = read_bytes(&mut body, Span::KeyLength, Span::Key, &mut |n, a, b| span(sink, n, a, b)).map_err(at_body)?;
    let value =
        read_bytes(&mut body, Span::ValueLength, Span::Value, &mut |n, a, b| span(sink, n, a, b)).map_err(at_body)?;

    p = body.pos();
    let headers_count = body.varint().map_err(at_body)?;
    span(sink, Span::HeadersCount, p, body.pos());
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
    let headers_start = body.pos();
    for h in 0..headers_count as usize {
        p = body.pos();
        let klen = body.varint().map_err(at_body)?;
        span(sink, Span::HeaderKeyLength(h), p, body.pos());
        if klen < 0 {
            return Err(RecordError {
                at: body_start + p,
                kind: kind::INVALID_RECORD,
                message: format!("Invalid negative header key size {klen}"),
            });
        }
        p = body.pos();
        body.take(klen as usize).map_err(at_body)?;
        span(sink, Span::HeaderKey(h), p, body.pos());
        p = body.pos();
        let vlen = body.varint().map_err(at_body)?;
        span(sink, Span::HeaderValueLength(h), p, body.pos());
        if vlen >= 0 {
            p = body.pos();
            body.take(vlen as usize).map_err(at_body)?;
            span(sink, Span::HeaderValue(h), p, body.pos());
        }
    }
    let consumed = body.pos();
    let headers = HeadersView { raw: body.slice(headers_start, consumed), count: headers_count as usize };

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

    let timestamp = match ctx.log_append_time {
        Some(t) => t,
        None => ctx.base_timestamp.wrapping_add(timestamp_delta),
    };
    Ok(RecordView {
        length,
        attributes,
        timestamp_delta,
        offset_delta,
        key,
        value,
        headers,
        offset: ctx.base_offset.wrapping_add(offset_delta as i64),
        timestamp,
        sequence: crate::wire::sequence::of_record(ctx.base_sequence, offset_delta),
    })
}

/// `Utils.readBytes` semantics: any negative length is `null`.
fn read_bytes<'a>(
    body: &mut Reader<'a>,
    len_name: Span,
    name: Span,
    span: &mut impl FnMut(Span, usize, usize),
) -> Result<Option<&'a [u8]>, ReadError> {
    let p = body.pos();
    let len = body.varint()?;
    span(len_name, p, body.pos());
    if len < 0 {
        return Ok(None);
    }
    let p = body.pos();
    let b = body.take(len as usize)?;
    span(name, p, body.pos());
    Ok(Some(b))
}

/// The report's spans: `records[i].name`, offset by `span_base`.
struct ReportSpans<'f> {
    index: usize,
    span_base: usize,
    buffer: Option<&'static str>,
    fields: &'f mut Vec<Field>,
}

impl SpanSink for ReportSpans<'_> {
    const ON: bool = true;
    fn span(&mut self, name: Span, start: usize, end: usize) {
        let i = self.index;
        let name = match name {
            Span::Length => format!("records[{i}].length"),
            Span::Attributes => format!("records[{i}].attributes"),
            Span::TimestampDelta => format!("records[{i}].timestampDelta"),
            Span::OffsetDelta => format!("records[{i}].offsetDelta"),
            Span::KeyLength => format!("records[{i}].keyLength"),
            Span::Key => format!("records[{i}].key"),
            Span::ValueLength => format!("records[{i}].valueLength"),
            Span::Value => format!("records[{i}].value"),
            Span::HeadersCount => format!("records[{i}].headersCount"),
            Span::HeaderKeyLength(h) => format!("records[{i}].headers[{h}].keyLength"),
            Span::HeaderKey(h) => format!("records[{i}].headers[{h}].key"),
            Span::HeaderValueLength(h) => format!("records[{i}].headers[{h}].valueLength"),
            Span::HeaderValue(h) => format!("records[{i}].headers[{h}].value"),
        };
        self.fields.push(Field {
            name: name.into(),
            start: self.span_base + start,
            end: self.span_base + end,
            buffer: self.buffer,
        });
    }
}

impl RecordView<'_> {
    /// The owned report form (bytes copied, header keys decoded lossily for display).
    pub fn to_report(&self) -> RecordReport {
        RecordReport {
            offset_delta: self.offset_delta,
            timestamp_delta: self.timestamp_delta,
            key: self.key.map(<[u8]>::to_vec),
            value: self.value.map(<[u8]>::to_vec),
            headers: self
                .headers()
                .map(|(k, v)| RecordHeader { key: String::from_utf8_lossy(k).into_owned(), value: v.map(<[u8]>::to_vec) })
                .collect(),
            offset: self.offset,
            timestamp: self.timestamp,
            sequence: self.sequence,
            attributes: self.attributes,
            length: self.length,
            formatted: None,
        }
    }
}

/// Read one record at the reader's position into the report form. `index` names the spans
/// (`records[i].…`); `span_base` is added to every span offset (position of the reader's
/// buffer in the input, or 0 in a decompressed buffer); spans are pushed to `fields` when
/// `ctx.spans`.
pub fn parse(
    r: &mut Reader<'_>,
    ctx: &Context,
    index: usize,
    span_base: usize,
    buffer: Option<&'static str>,
    fields: &mut Vec<Field>,
) -> Result<RecordReport, RecordError> {
    if !ctx.spans {
        return read(r, ctx, &mut ()).map(|v| v.to_report());
    }
    let mark = fields.len();
    let start = r.pos();
    fields.push(Field { name: format!("records[{index}]").into(), start: span_base + start, end: 0, buffer });
    let result = read(r, ctx, &mut ReportSpans { index, span_base, buffer, fields });
    match result {
        Ok(v) => {
            fields[mark].end = span_base + r.pos();
            Ok(v.to_report())
        }
        Err(e) if fields.len() == mark + 1 => {
            // Nothing of the record decoded: no span for it.
            fields.truncate(mark);
            Err(e)
        }
        Err(e) => {
            // A record that failed part-way keeps the spans it did decode; its own span
            // ends where the last of them ends.
            let end = fields[mark..].iter().map(|f| f.end).max().unwrap_or(fields[mark].start);
            fields[mark].end = end.max(fields[mark].start);
            Err(e)
        }
    }
}
