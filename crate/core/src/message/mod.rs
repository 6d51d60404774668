// Over 800 lines on purpose: one generic reader of Kafka's message schemas (framing, header versions, fields, records) over one cursor (`Ctx`); the schema tables are in schema.rs.
//! Whole Kafka requests and responses: a stream of messages, each with or without its
//! 4-byte size prefix (`NetworkReceive`: `int32 size` then the payload), decoded generically from
//! Kafka's own message schemas ([`schema`], generated from the vendored `messages/*.json`) into a
//! tree of [`Node`]s with byte spans. Reading follows the code Kafka's generator emits
//! (`generator/.../MessageDataGenerator.java`: `read(Readable, short)`), field by field:
//! classic int16 string / int32 bytes and array lengths below the flexible versions, compact
//! (unsigned varint length + 1, 0 = null) from them on, and a tagged-fields section ending every
//! struct in flexible versions. Headers: `RequestHeader` v1, or v2 for an API's flexible versions;
//! `ResponseHeader` v0/v1 likewise, except ApiVersions responses, always v0 (KIP-511;
//! `ApiMessageTypeGenerator.generateHeaderVersion`).
//!
//! Problems get Kafka's own texts (the generated `read` methods' exceptions:
//! `non-nullable field X was serialized as null`, `Tried to allocate a collection of size N, but
//! there are only M bytes remaining.` …), pinned on the byte, with the field's path. Decoding a
//! message stops at its first error (as Java's reader throws); everything read before stays.
//! Allocation is bounded: an array's element count is checked against the bytes left before
//! anything is allocated, as Kafka's generated code does, so each node stands on ≥ 1 input byte
//! (or on a ≥ 1-byte length) and the tree is at most a constant × the input.
//!
//! A size-prefixed request of an api Kafka has but eoslab has no schema for (Metadata,
//! JoinGroup … between the transactions of a capture), and its response, are named and skipped
//! to the end of their frame with an `UnsupportedApi` warning, so the rest of the stream decodes.
//!
//! `records` fields are decoded by the batch decoder ([`crate::decode_bytes`]); in a Fetch
//! response each partition's batches are also marked as a read_committed consumer sees them,
//! from the response's own `abortedTransactions` ([`consumer_view`]).

pub mod schema;

use alloc::borrow::Cow;
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

#[cfg(feature = "serde")]
use serde::Serialize;

use crate::reader::{ReadError, Reader};
use crate::report::{Report, Severity};
use crate::DecodeOptions;
use schema::{FieldDef, Kind, MessageDef, Type, Versions};

/// How the input is framed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Framing {
    /// Each message decides: the reading that decodes cleanly wins (size-prefixed first).
    #[default]
    Auto,
    /// Every message starts with its int32 size (a TCP stream).
    Sized,
    /// No size prefixes: each message ends where its schema says.
    Unsized,
}

/// What to decode and how (the CLI's and `decodeMessages`' options).
#[derive(Clone, Debug, Default)]
pub struct MessageOptions {
    pub framing: Framing,
    /// Force requests or responses (`None`: detect).
    pub kind: Option<Kind>,
    /// For a response whose request is not in the input: its api key and version.
    pub api_key: Option<i16>,
    pub api_version: Option<i16>,
    /// For the `records` fields.
    pub records: DecodeOptions,
}

/// One node of a message tree: a field (or an array element `[i]`) with its byte span.
#[derive(Clone, Debug, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(Serialize), serde(rename_all = "camelCase"))]
pub struct Node {
    /// Kafka's field name in camelCase (the JSON converters' key), `[i]` for array elements,
    /// `size` for the size prefix, `_tag N` for unknown tagged fields.
    pub name: Cow<'static, str>,
    /// The schema's type: `int32`, `string`, `[]PartitionData` is `array` with `struct` elements …
    #[cfg_attr(feature = "serde", serde(rename = "type"))]
    pub ty: &'static str,
    pub start: usize,
    pub end: usize,
    /// The value as text: integers in decimal (exact, also int64), `true`/`false`, strings as
    /// decoded (UTF-8, lossy), uuids as Kafka prints them (base64url), bytes as hex; `None` for
    /// structs, arrays and nulls.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub value: Option<String>,
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "core::ops::Not::not"))]
    pub null: bool,
    /// The tag of a tagged field.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub tag: Option<u32>,
    /// For `records`: the index into [`MessageReport::records`].
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub records: Option<usize>,
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Vec::is_empty"))]
    pub children: Vec<Node>,
}

impl Node {
    pub fn child(&self, name: &str) -> Option<&Node> {
        self.children.iter().find(|c| c.name == name)
    }
}

/// How a read_committed consumer treats one batch of a fetched partition.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(Serialize), serde(rename_all = "camelCase"))]
pub struct BatchVerdict {
    /// "delivered" (its records reach the application), "aborted" (skipped: a transactional
    /// batch of a producer whose aborted transaction began at or before its last offset),
    /// "control" (a marker: never returned to the application).
    pub verdict: &'static str,
    /// For "aborted": the aborted transaction's `firstOffset` that made it so.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub first_offset: Option<String>,
}

/// A `records` field: its bytes decoded by the batch decoder.
#[derive(Clone, Debug, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(Serialize), serde(rename_all = "camelCase"))]
pub struct RecordsReport {
    /// The field's path, e.g. `responses[0].partitions[0].records`.
    pub path: String,
    /// Where the records bytes are in the input; the report's own offsets are relative to `start`.
    pub start: usize,
    pub end: usize,
    pub report: Report,
    /// Fetch responses: one verdict per batch as the consumer reads it; `None` elsewhere.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub consumer: Option<ConsumerView>,
}

#[derive(Clone, Debug, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(Serialize), serde(rename_all = "camelCase"))]
pub struct ConsumerView {
    /// "READ_COMMITTED" / "READ_UNCOMMITTED": from the request's `isolationLevel` when the
    /// request is in the input, else inferred: brokers send `abortedTransactions` only to
    /// read_committed fetchers (null otherwise).
    pub isolation_level: &'static str,
    /// True when taken from the request.
    pub from_request: bool,
    pub batches: Vec<BatchVerdict>,
}

/// One request or response.
#[derive(Clone, Debug, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(Serialize), serde(rename_all = "camelCase"))]
pub struct MessageReport {
    /// From the size prefix (if any) to the end of what was read.
    pub start: usize,
    pub end: usize,
    /// The int32 size prefix, when the message had one.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub size: Option<i32>,
    /// "request" | "response"
    pub kind: &'static str,
    pub api_key: i16,
    /// `ApiKeys` name: "Produce", "Fetch" …
    pub api_name: Option<&'static str>,
    pub api_version: i16,
    pub header_version: i16,
    pub correlation_id: i32,
    /// Requests: `ClientId` (null when absent).
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub client_id: Option<String>,
    /// The schema the body was read with (`FetchResponse`), if vendored.
    pub schema: Option<&'static str>,
    /// Responses: where the api key and version came from: "request" (the request with the same
    /// correlation id earlier in the input, `requestIndex`) or "options".
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub api_from: Option<&'static str>,
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub request_index: Option<usize>,
    pub header: Node,
    pub body: Option<Node>,
    pub records: Vec<RecordsReport>,
}

/// A problem pinned on a byte: Kafka's exception name and text, and the field's path.
#[derive(Clone, Debug, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(Serialize), serde(rename_all = "camelCase"))]
pub struct MessageIssue {
    pub at: usize,
    pub kind: &'static str,
    pub message: String,
    pub severity: Severity,
    /// The field being read (`responses[0].partitions[1].records`).
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub field: Option<String>,
    /// The message it belongs to.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub index: Option<usize>,
}

/// Everything found in one input.
#[derive(Clone, Debug, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(Serialize), serde(rename_all = "camelCase"))]
pub struct MessagesReport {
    pub format: String,
    pub stripped: Vec<String>,
    pub length: usize,
    pub messages: Vec<MessageReport>,
    /// Every problem in input order, records' problems included (with absolute offsets).
    pub errors: Vec<MessageIssue>,
}

impl MessagesReport {
    pub fn is_clean(&self) -> bool {
        !self.errors.iter().any(|e| e.severity == Severity::Error)
    }
}

/// Issue kinds (Kafka's exception names).
pub mod kind {
    pub const RUNTIME: &str = "RuntimeException";
    pub const BUFFER_UNDERFLOW: &str = "BufferUnderflowException";
    pub const ILLEGAL_ARGUMENT: &str = "IllegalArgumentException";
    pub const UNSUPPORTED_VERSION: &str = "UnsupportedVersionException";
    pub const INVALID_REQUEST: &str = "InvalidRequestException";
    pub const CORRELATION_ID_MISMATCH: &str = "CorrelationIdMismatchException";
    pub const INVALID_INPUT: &str = "InvalidInput";
    /// A size prefix larger than the bytes pasted (a capture cut short).
    pub const PARTIAL_MESSAGE: &str = "PartialMessage";
    pub const TRAILING_BYTES: &str = "TrailingBytes";
    /// A request (or its response) of an api eoslab has no schema for, named and skipped.
    pub const UNSUPPORTED_API: &str = "UnsupportedApi";
    /// The tree would outgrow the memory allowed for the input ([`super::node_budget`]).
    pub const BUDGET: &str = "MemoryBudgetExceeded";
}

/// What one node of a tree costs at most, all told: the [`Node`] itself, its value's text and
/// its place in its parent's list (measured: about 240 bytes per node on a stream of small
/// messages).
const NODE_COST: usize = 320;

/// How many nodes the messages of an input of `len` bytes may make: the trees stay within twice
/// the input plus 48 MiB whatever the bytes, so that the whole decode, input included, peaks
/// under 3× the input + 64 MiB. Real messages need far fewer (the records of Produce and Fetch
/// are read by the batch decoder, under its own bound); bytes that read as endless tiny messages
/// (zeros read as Produce v0 requests: 16 bytes each) hit it and stop with an error.
pub fn node_budget(len: usize) -> usize {
    len.saturating_mul(2).saturating_add(48 << 20) / NODE_COST
}

fn budget_text(len: usize) -> String {
    format!(
        "the decoded messages reached {} fields, all the memory eoslab allows for {len} bytes of input: decoding stops here (decode a smaller part of the input)",
        node_budget(len)
    )
}

/// Text input (hex, base64 … as the batch decoder accepts it) or raw bytes.
pub fn decode_messages(input: &[u8], opts: &MessageOptions) -> MessagesReport {
    crate::input::decode_text(input, |bytes| decode_messages_bytes(bytes, opts))
}

impl crate::input::TextReport for MessagesReport {
    fn name_input(&mut self, format: String, stripped: Vec<String>) {
        self.format = format;
        self.stripped = stripped;
    }
    fn push_invalid_input(&mut self, at: usize, message: String) {
        self.errors.push(MessageIssue { at, kind: kind::INVALID_INPUT, message, ..MessageIssue::default() });
    }
}

/// A request seen earlier in the input: what a response to it needs.
#[derive(Clone, Copy, Debug)]
struct Pending {
    correlation_id: i32,
    api_key: i16,
    version: i16,
    index: usize,
    isolation_level: Option<i8>,
}

/// How one message is read.
#[derive(Clone, Copy, Debug)]
struct Plan {
    sized: bool,
    kind: Kind,
    /// Responses: api key, version, and where they came from.
    api: Option<(i16, i16, Option<usize>)>,
}

/// Raw bytes, no text detection.
pub fn decode_messages_bytes(bytes: &[u8], opts: &MessageOptions) -> MessagesReport {
    let mut rep = MessagesReport { format: String::from("binary"), length: bytes.len(), ..MessagesReport::default() };
    let mut pending: Vec<Pending> = Vec::new();
    let mut pos = 0usize;
    let mut nodes_left = node_budget(bytes.len());
    while pos < bytes.len() {
        let index = rep.messages.len();
        let plans = plans(bytes, pos, opts, &pending);
        if plans.is_empty() {
            rep.errors.push(MessageIssue {
                at: pos,
                kind: kind::INVALID_INPUT,
                message: no_message_text(bytes, pos, opts),
                severity: Severity::Error,
                field: None,
                index: None,
            });
            break;
        }
        // The first plan that reads cleanly and, when sized, fills its frame exactly wins; then
        // the first that reads cleanly leaving bytes in its frame (a warning: Kafka ignores
        // them); if none does, the first plausible one is reported with its errors.
        let mut chosen = None;
        let mut clean_with_trailing = None;
        for p in &plans {
            let (m, errs, nodes) = read_message(bytes, pos, *p, opts, &pending, index, nodes_left);
            let clean = !errs.iter().any(|e| e.severity == Severity::Error);
            let trailing = errs.iter().any(|e| e.kind == kind::TRAILING_BYTES);
            if clean && !trailing {
                chosen = Some((m, errs, nodes));
                clean_with_trailing = None;
                break;
            }
            if clean && clean_with_trailing.is_none() {
                clean_with_trailing = Some((m, errs, nodes));
            } else if chosen.is_none() {
                chosen = Some((m, errs, nodes));
            }
        }
        if clean_with_trailing.is_some() {
            chosen = clean_with_trailing;
        }
        let Some((m, mut errs, nodes)) = chosen else { break };
        nodes_left = nodes_left.saturating_sub(nodes);
        let spent = errs.iter().any(|e| e.kind == kind::BUDGET);
        let clean = !errs.iter().any(|e| e.severity == Severity::Error);
        if !clean && opts.kind != Some(Kind::Request) && !plans.iter().any(|p| p.kind == Kind::Response) {
            errs.push(MessageIssue {
                at: pos,
                kind: kind::INVALID_INPUT,
                message: String::from(
                    "read as a request, which failed; if these bytes are a response: a response is read with its request's api key and version: paste the request too, or give them",
                ),
                severity: Severity::Info,
                field: None,
                index: Some(index),
            });
        }
        let fatal = errs.iter().any(|e| e.severity == Severity::Error && e.kind != kind::TRAILING_BYTES);
        let end = m.end;
        if m.kind == "request" {
            let isolation = m.body.as_ref().and_then(|b| b.child("isolationLevel")).and_then(|n| n.value.as_ref()).and_then(|v| v.parse().ok());
            pending.push(Pending { correlation_id: m.correlation_id, api_key: m.api_key, version: m.api_version, index, isolation_level: isolation });
        } else if let Some(i) = m.request_index {
            pending.retain(|p| p.index != i);
        }
        rep.messages.push(m);
        rep.errors.extend(errs);
        // An unsized message that failed cannot say where the next one starts.
        if spent || end <= pos || (fatal && rep.messages.last().is_some_and(|m| m.size.is_none())) {
            break;
        }
        pos = end;
    }
    rep
}

fn no_message_text(bytes: &[u8], pos: usize, opts: &MessageOptions) -> String {
    let rest = &bytes[pos..];
    if opts.kind == Some(Kind::Response) && (opts.api_key.is_none() || opts.api_version.is_none()) {
        return String::from("a response is read with its request's api key and version: paste the request too, or give them");
    }
    if rest.len() < 8 {
        return format!("{} byte(s) left: too short for a request or response header", rest.len());
    }
    let k = i16::from_be_bytes([rest[0], rest[1]]);
    let k4 = i16::from_be_bytes([rest[4], rest[5]]);
    format!(
        "neither a request (api key {k} or, after a size prefix, {k4}: not one eoslab reads, or its version is unknown) \
         nor a response to a request earlier in the input (a response is read with its request's api key and version: paste the request too, or give them)"
    )
}

fn be_i16(b: &[u8], at: usize) -> Option<i16> {
    Some(i16::from_be_bytes([*b.get(at)?, *b.get(at + 1)?]))
}
fn be_i32(b: &[u8], at: usize) -> Option<i32> {
    Some(i32::from_be_bytes([*b.get(at)?, *b.get(at + 1)?, *b.get(at + 2)?, *b.get(at + 3)?]))
}

/// A request header at `at`: a vendored api key and a client id that fits. Its rank in
/// [`plans`]: 1 for a version Kafka 4.3 reads, 3 for one it removed, 4 for one past the newest
/// (read only to say `UnsupportedVersionException`), 5 for an api Kafka has (`ApiKeys`) but
/// eoslab has no schema for (Metadata, JoinGroup … in a capture): only in a size-prefixed frame,
/// which says where it ends, so it can be named and skipped.
fn request_rank(b: &[u8], at: usize, end: usize, sized: bool) -> Option<u8> {
    let (key, ver) = (be_i16(b, at)?, be_i16(b, at + 2)?);
    let def = schema::find(key, Kind::Request);
    if def.is_none() && !(sized && schema::api_name(key).is_some()) {
        return None;
    }
    // `end` is where the frame says the message ends (past the input when it is cut short): in a
    // size-prefixed frame a client id length the input ends before is the truncation's to report.
    let fits = match be_i16(b, at + 8) {
        None => sized,
        Some(-1) => true,
        Some(n) if n >= 0 => at + 10 + n as usize <= end,
        Some(_) => false,
    };
    if !fits || ver < 0 {
        return None;
    }
    Some(match def {
        None => 5,
        Some(def) if ver > def.valid.hi => 4,
        Some(def) if ver < def.valid.lo => 3,
        Some(_) => 1,
    })
}

/// The readings worth trying at `pos`, most likely first: a response to a request earlier in
/// the input (its correlation id is the strongest evidence), then a request of a version Kafka
/// 4.3 reads, then a response with the api key and version given as options, then a request
/// of a version Kafka removed in 4.0; size-prefixed before bare within each.
fn plans(b: &[u8], pos: usize, opts: &MessageOptions, pending: &[Pending]) -> Vec<Plan> {
    let mut out: Vec<(u8, Plan)> = Vec::new();
    let framings: &[bool] = match opts.framing {
        Framing::Sized => &[true],
        Framing::Unsized => &[false],
        Framing::Auto => &[true, false],
    };
    for &sized in framings {
        let at = pos + if sized { 4 } else { 0 };
        let end = if sized {
            match be_i32(b, pos) {
                Some(n) if n >= 0 => at.saturating_add(n as usize),
                _ => continue,
            }
        } else {
            b.len()
        };
        // A request the options insist on, in a size prefix that frames exactly the rest of
        // the input, is read however short: Kafka's `RequestHeader.parse` reads a frame of 0-3
        // bytes too (and throws BufferUnderflowException, which it wraps).
        let forced_exact = sized && end == b.len() && opts.kind == Some(Kind::Request);
        if at >= b.len() && !forced_exact {
            continue;
        }
        // A size prefix that frames exactly the rest of the input is the strongest evidence of
        // all: that reading is reported first whatever its header holds (an unknown api key, a
        // client id length past the frame), so its errors are the ones shown rather than those
        // of a reading without the prefix, which would take the prefix for the api key and
        // version.
        // (A response with the api key and version given as options still comes first when the
        // header is not one a request would have.)
        let exact = sized && end == b.len();
        if opts.kind != Some(Kind::Response) {
            match request_rank(b, at, end, sized) {
                Some(rank) => out.push((if exact { rank.min(1) } else { rank }, Plan { sized, kind: Kind::Request, api: None })),
                None if exact && (at + 4 <= b.len() || forced_exact) => {
                    out.push((if opts.api_key.is_some() { 3 } else { 1 }, Plan { sized, kind: Kind::Request, api: None }))
                }
                // A frame cut short (its size prefix promises more than the input has) of a
                // request the options insist on: read as far as it goes, so that the cut is
                // what is reported (PartialMessage), not "too short for a header".
                None if sized && opts.kind == Some(Kind::Request) => out.push((4, Plan { sized, kind: Kind::Request, api: None })),
                None => {}
            }
        }
        if opts.kind != Some(Kind::Request) {
            if let Some(corr) = be_i32(b, at) {
                if let Some(p) = pending.iter().find(|p| p.correlation_id == corr) {
                    out.push((0, Plan { sized, kind: Kind::Response, api: Some((p.api_key, p.version, Some(p.index))) }));
                } else if let (Some(k), Some(v)) = (opts.api_key, opts.api_version) {
                    out.push((2, Plan { sized, kind: Kind::Response, api: Some((k, v, None)) }));
                }
            }
        }
    }
    out.sort_by_key(|(rank, _)| *rank);
    out.into_iter().map(|(_, p)| p).collect()
}

/// A failure: where, Kafka's name and text, and which field.
struct Fault {
    at: usize,
    kind: &'static str,
    message: String,
}

fn eof_fault(e: ReadError, base: usize) -> Fault {
    match e {
        ReadError::Eof { at, need } => Fault {
            at: base + at,
            kind: kind::BUFFER_UNDERFLOW,
            message: format!("needed {need} more byte(s) but the message ended"),
        },
        other => Fault { at: base + other.at(), kind: kind::ILLEGAL_ARGUMENT, message: format!("{other}") },
    }
}

struct Ctx<'a, 'o> {
    r: Reader<'a>,
    /// Absolute offset of the reader's first byte.
    base: usize,
    version: i16,
    flexible: Versions,
    records: Vec<RecordsReport>,
    opts: &'o DecodeOptions,
    /// Path of the field being read, for issues.
    path: Vec<Cow<'static, str>>,
    fault_path: Option<String>,
    /// Nodes made so far, and how many this reading may make ([`node_budget`]).
    nodes: usize,
    max_nodes: usize,
    /// The whole input's length, for the budget's message.
    input_len: usize,
    /// The newest version the message's schema has: Kafka's generated reader of a nested struct
    /// throws `UnsupportedVersionException` past it (the message's own reader does not check).
    newest: i16,
}

impl Ctx<'_, '_> {
    /// A nested struct's generated `read(Readable, short)`: `Can't read version N of
    /// TopicProduceData` past the newest version.
    fn enter_struct(&mut self, f: &'static FieldDef) -> Result<(), Fault> {
        if self.version > self.newest {
            let at = self.pos();
            return Err(self.fail(at, kind::UNSUPPORTED_VERSION, format!("Can't read version {} of {}", self.version, f.struct_name)));
        }
        Ok(())
    }
    /// Counts one more node of the tree, or stops the reading when the budget is spent.
    fn node(&mut self) -> Result<(), Fault> {
        self.nodes += 1;
        if self.nodes > self.max_nodes {
            let at = self.pos();
            return Err(self.fail(at, kind::BUDGET, budget_text(self.input_len)));
        }
        Ok(())
    }
    fn pos(&self) -> usize {
        self.base + self.r.pos()
    }
    fn path_string(&self) -> String {
        let mut s = String::new();
        for p in &self.path {
            if !s.is_empty() && !p.starts_with('[') {
                s.push('.');
            }
            s.push_str(p);
        }
        s
    }
    fn fail(&mut self, at: usize, kind: &'static str, message: String) -> Fault {
        if self.fault_path.is_none() {
            self.fault_path = Some(self.path_string());
        }
        Fault { at, kind, message }
    }
    fn eof(&mut self, e: ReadError) -> Fault {
        let f = eof_fault(e, self.base);
        self.fail(f.at, f.kind, f.message)
    }
    fn uvarint(&mut self) -> Result<u32, Fault> {
        self.r.unsigned_varint().map_err(|e| self.eof(e))
    }
    /// A length: compact (unsigned varint − 1; 0 = null → −1) or classic int16/int32.
    fn length(&mut self, compact: bool, wide: bool) -> Result<i64, Fault> {
        if compact {
            Ok(i64::from(self.uvarint()?) - 1)
        } else if wide {
            self.r.i32().map(i64::from).map_err(|e| self.eof(e))
        } else {
            self.r.i16().map(i64::from).map_err(|e| self.eof(e))
        }
    }
}

/// Reads `fields` (one struct) at `c`'s position into `out`; then, in flexible versions, the
/// struct's tagged-fields section.
fn read_struct(c: &mut Ctx, fields: &'static [FieldDef], out: &mut Vec<Node>) -> Result<(), Fault> {
    let v = c.version;
    for f in fields {
        if !f.versions.contains(v) || f.tagged.contains(v) {
            continue;
        }
        read_field(c, f, out)?;
    }
    if c.flexible.contains(v) {
        c.node()?;
        let start = c.pos();
        let n = c.uvarint()?;
        let mut section = Node { name: Cow::Borrowed("_taggedFields"), ty: "taggedFields", start, end: c.pos(), value: Some(format!("{n}")), ..Node::default() };
        let res = read_tagged(c, fields, n, &mut section.children);
        section.end = c.pos();
        out.push(section);
        res?;
    }
    Ok(())
}

fn read_tagged(c: &mut Ctx, fields: &'static [FieldDef], n: u32, out: &mut Vec<Node>) -> Result<(), Fault> {
    let v = c.version;
    for _ in 0..n {
        c.node()?;
        let tag_at = c.pos();
        let tag = c.uvarint()?;
        let size = c.uvarint()? as usize;
        let data_at = c.pos();
        let known = fields.iter().find(|f| f.tag == tag && f.tagged.contains(v) && f.versions.contains(v));
        match known {
            Some(f) => {
                // Kafka's generated reader reads a tagged field it knows straight from the
                // buffer (`case 0: { … clusterId = _readable.readString(length) … }`): the
                // declared size is read and then not used, neither checked against the bytes
                // left nor against what the value took.
                let _ = size;
                let mut tmp = Vec::new();
                let res = read_field(c, f, &mut tmp);
                for mut node in tmp {
                    node.tag = Some(tag);
                    node.start = tag_at;
                    out.push(node);
                }
                res?;
            }
            None => {
                // `readUnknownTaggedField` → `readArray(size)`.
                if size > c.r.remaining() {
                    let rem = c.r.remaining();
                    return Err(c.fail(data_at, kind::RUNTIME, format!("Error reading byte array of {size} byte(s): only {rem} byte(s) available")));
                }
                let slice = c.r.take(size).map_err(|e| c.eof(e))?;
                out.push(Node {
                    name: Cow::Owned(format!("_tag {tag}")),
                    ty: "bytes",
                    start: tag_at,
                    end: c.pos(),
                    value: Some(crate::report::to_hex(slice)),
                    tag: Some(tag),
                    ..Node::default()
                });
            }
        }
    }
    Ok(())
}

fn read_field(c: &mut Ctx, f: &'static FieldDef, out: &mut Vec<Node>) -> Result<(), Fault> {
    c.node()?;
    c.path.push(Cow::Borrowed(f.name));
    let res = read_field_inner(c, f, out);
    c.path.pop();
    res
}

fn read_field_inner(c: &mut Ctx, f: &'static FieldDef, out: &mut Vec<Node>) -> Result<(), Fault> {
    let v = c.version;
    let flexible = f.flexible.unwrap_or(c.flexible).contains(v);
    let start = c.pos();
    if f.array {
        let n = c.length(flexible, true)?;
        let mut node = Node { name: Cow::Borrowed(f.name), ty: "array", start, end: c.pos(), ..Node::default() };
        if n < 0 {
            if !f.nullable.contains(v) {
                return Err(c.fail(start, kind::RUNTIME, format!("non-nullable field {} was serialized as null", f.name)));
            }
            node.null = true;
            out.push(node);
            return Ok(());
        }
        let rem = c.r.remaining();
        if n as u64 > rem as u64 {
            return Err(c.fail(start, kind::RUNTIME, format!("Tried to allocate a collection of size {n}, but there are only {rem} bytes remaining.")));
        }
        node.value = Some(format!("{n}"));
        let mut res = Ok(());
        for i in 0..n as usize {
            if let Err(f) = c.node() {
                res = Err(f);
                break;
            }
            c.path.push(Cow::Owned(format!("[{i}]")));
            let el_start = c.pos();
            let mut el = Node { name: Cow::Owned(format!("[{i}]")), ty: f.ty.name(), start: el_start, ..Node::default() };
            let r = if f.ty == Type::Struct {
                c.enter_struct(f).and_then(|()| read_struct(c, f.fields, &mut el.children))
            } else {
                read_scalar(c, f, flexible, &mut el)
            };
            el.end = c.pos();
            node.children.push(el);
            c.path.pop();
            if r.is_err() {
                res = r;
                break;
            }
        }
        node.end = c.pos();
        out.push(node);
        return res;
    }
    let mut node = Node { name: Cow::Borrowed(f.name), ty: f.ty.name(), start, ..Node::default() };
    let res = if f.ty == Type::Struct {
        // A single struct field: Kafka's generated code has no null marker for it unless
        // nullable (an int8 −1/1 prefix, `nullableVersions` on a struct).
        if f.nullable.contains(v) {
            match c.r.i8().map_err(|e| c.eof(e)) {
                Ok(-1) => {
                    node.null = true;
                    Ok(())
                }
                Ok(_) => c.enter_struct(f).and_then(|()| read_struct(c, f.fields, &mut node.children)),
                Err(e) => Err(e),
            }
        } else {
            c.enter_struct(f).and_then(|()| read_struct(c, f.fields, &mut node.children))
        }
    } else {
        read_scalar(c, f, flexible, &mut node)
    };
    node.end = c.pos();
    out.push(node);
    res
}

/// Kafka's `Uuid.toString`: URL-safe base64 without padding.
fn uuid_text(b: &[u8]) -> String {
    const A: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    let mut s = String::new();
    for ch in b.chunks(3) {
        let n = (u32::from(ch[0]) << 16) | (u32::from(*ch.get(1).unwrap_or(&0)) << 8) | u32::from(*ch.get(2).unwrap_or(&0));
        let k = ch.len() + 1;
        for i in 0..k {
            s.push(A[((n >> (18 - 6 * i)) & 63) as usize] as char);
        }
    }
    s
}

fn read_scalar(c: &mut Ctx, f: &'static FieldDef, flexible: bool, node: &mut Node) -> Result<(), Fault> {
    let v = c.version;
    let start = c.pos();
    let value = match f.ty {
        Type::Bool => format!("{}", c.r.i8().map_err(|e| c.eof(e))? != 0),
        Type::Int8 => format!("{}", c.r.i8().map_err(|e| c.eof(e))?),
        Type::Int16 => format!("{}", c.r.i16().map_err(|e| c.eof(e))?),
        Type::Uint16 => format!("{}", c.r.i16().map_err(|e| c.eof(e))? as u16),
        Type::Int32 => format!("{}", c.r.i32().map_err(|e| c.eof(e))?),
        Type::Uint32 => format!("{}", c.r.u32().map_err(|e| c.eof(e))?),
        Type::Int64 => format!("{}", c.r.i64().map_err(|e| c.eof(e))?),
        Type::Float64 => format!("{}", f64::from_bits(c.r.i64().map_err(|e| c.eof(e))? as u64)),
        Type::Uuid => {
            // `ByteBufferAccessor.readUuid`: `new Uuid(readLong(), readLong())`, two reads of 8
            // bytes, so a uuid cut in its second half fails 8 bytes in.
            let mut u = [0u8; 16];
            u[..8].copy_from_slice(c.r.take(8).map_err(|e| c.eof(e))?);
            u[8..].copy_from_slice(c.r.take(8).map_err(|e| c.eof(e))?);
            uuid_text(&u)
        }
        Type::String | Type::Bytes | Type::Records => {
            let wide = f.ty != Type::String;
            let n = c.length(flexible, wide)?;
            if n < 0 {
                if !f.nullable.contains(v) {
                    return Err(c.fail(start, kind::RUNTIME, format!("non-nullable field {} was serialized as null", f.name)));
                }
                node.null = true;
                return Ok(());
            }
            if f.ty == Type::String && n > 0x7fff {
                return Err(c.fail(start, kind::RUNTIME, format!("string field {} had invalid length {n}", f.name)));
            }
            let rem = c.r.remaining();
            if n as u64 > rem as u64 {
                let at = c.pos();
                if f.ty == Type::Records {
                    // `ByteBufferAccessor.readRecords` → `readByteBuffer`: `buf.slice().limit(n)`,
                    // which `java.nio.Buffer.limit` refuses past the slice's capacity.
                    return Err(c.fail(at, kind::ILLEGAL_ARGUMENT, format!("newLimit > capacity: ({n} > {rem})")));
                }
                return Err(c.fail(at, kind::RUNTIME, format!("Error reading byte array of {n} byte(s): only {rem} byte(s) available")));
            }
            let data_at = c.pos();
            let data = c.r.take(n as usize).map_err(|e| c.eof(e))?;
            match f.ty {
                Type::String => String::from_utf8_lossy(data).into_owned(),
                Type::Bytes => crate::report::to_hex(data),
                _ => {
                    let report = crate::decode_bytes(data, c.opts);
                    node.records = Some(c.records.len());
                    c.records.push(RecordsReport { path: c.path_string(), start: data_at, end: data_at + data.len(), report, consumer: None });
                    format!("{} byte(s)", data.len())
                }
            }
        }
        Type::Struct => return Ok(()),
    };
    node.value = Some(value);
    Ok(())
}

/// `ApiKeys`' enum constant name: `AddPartitionsToTxn` → `ADD_PARTITIONS_TO_TXN`.
fn upper_snake(name: &str) -> String {
    let mut s = String::new();
    for (i, ch) in name.chars().enumerate() {
        if ch.is_ascii_uppercase() && i > 0 {
            s.push('_');
        }
        s.push(ch.to_ascii_uppercase());
    }
    s
}

/// `RequestHeader.parse`'s wrapping of a failure to read a request header (any exception but an
/// `InvalidRequestException` or an `UnsupportedVersionException`): Kafka's text, then the cause.
fn header_fault(api_key: i16, cause: Fault) -> Fault {
    Fault {
        at: cause.at,
        kind: kind::INVALID_REQUEST,
        message: format!(
            "Error parsing request header. Our best guess of the apiKeyId is: {api_key} (caused by {}: {})",
            cause.kind, cause.message
        ),
    }
}

/// Reads one message at `pos` as `plan` says, making at most `max_nodes` nodes. Returns it with
/// its issues and the nodes it made.
fn read_message(
    b: &[u8],
    pos: usize,
    plan: Plan,
    opts: &MessageOptions,
    pending: &[Pending],
    index: usize,
    max_nodes: usize,
) -> (MessageReport, Vec<MessageIssue>, usize) {
    let mut issues = Vec::new();
    let mut m = MessageReport { start: pos, kind: if plan.kind == Kind::Request { "request" } else { "response" }, ..MessageReport::default() };
    let mut at = pos;
    let mut end = b.len();
    let mut size_node = None;
    if plan.sized {
        let size = be_i32(b, pos).unwrap_or(0);
        m.size = Some(size);
        size_node = Some(Node { name: Cow::Borrowed("size"), ty: "int32", start: pos, end: pos + 4, value: Some(format!("{size}")), ..Node::default() });
        at = pos + 4;
        let want = at.saturating_add(size.max(0) as usize);
        if want > b.len() {
            issues.push(MessageIssue {
                at: pos,
                kind: kind::PARTIAL_MESSAGE,
                message: format!("the size prefix says {size} byte(s) but only {} follow: the message is cut short", b.len() - at),
                severity: Severity::Error,
                field: Some(String::from("size")),
                index: Some(index),
            });
        } else {
            end = want;
        }
    }
    let frame = &b[at..end];
    let push = |issues: &mut Vec<MessageIssue>, f: Fault, path: Option<String>, severity: Severity| {
        issues.push(MessageIssue { at: f.at, kind: f.kind, message: f.message, severity, field: path, index: Some(index) });
    };

    // The header: api key and version first (requests), which choose the header version.
    let (api_key, version, header_def, header_version) = match plan.kind {
        Kind::Request => {
            let key = be_i16(frame, 0).unwrap_or(-1);
            let ver = be_i16(frame, 2).unwrap_or(-1);
            let flex = schema::find(key, Kind::Request).is_some_and(|d| d.flexible.contains(ver));
            (key, ver, schema::header(Kind::Request), if flex { 2 } else { 1 })
        }
        _ => {
            let (key, ver, req) = plan.api.unwrap_or((-1, -1, None));
            m.api_from = Some(if req.is_some() { "request" } else { "options" });
            m.request_index = req;
            let flex = schema::find(key, Kind::Response).is_some_and(|d| d.flexible.contains(ver));
            // ApiVersionsResponse always has a v0 header (KIP-511).
            let hv = if flex && key != 18 { 1 } else { 0 };
            (key, ver, schema::header(Kind::Response), hv)
        }
    };
    m.api_key = api_key;
    m.api_name = schema::api_name(api_key);
    m.api_version = version;
    m.header_version = header_version;
    let mut c = Ctx {
        r: Reader::new(frame),
        base: at,
        version: header_version,
        flexible: header_def.flexible,
        records: Vec::new(),
        opts: &opts.records,
        path: Vec::new(),
        fault_path: None,
        // The message itself, its header, its body and its size prefix.
        nodes: 4,
        max_nodes,
        input_len: b.len(),
        newest: i16::MAX,
    };
    let mut header = Node { name: Cow::Borrowed(header_def.name), ty: "struct", start: at, ..Node::default() };
    let hres = read_struct(&mut c, header_def.fields, &mut header.children);
    header.end = c.pos();
    if let Some(n) = header.child("correlationId").and_then(|n| n.value.as_ref()) {
        m.correlation_id = n.parse().unwrap_or(0);
    }
    if let Some(n) = header.child("clientId") {
        m.client_id = n.value.clone();
    }
    if let Some(s) = size_node {
        header.children.insert(0, s);
        header.start = pos;
    }
    m.header = header;
    if let Err(f) = hres {
        let p = c.fault_path.take();
        // `RequestHeader.parse` wraps whatever reading the header throws (Kafka's broker then
        // closes the connection): its api key, or -1 when not even that could be read.
        let f = if plan.kind == Kind::Request && f.kind != kind::BUDGET { header_fault(be_i16(frame, 0).unwrap_or(-1), f) } else { f };
        push(&mut issues, f, p, Severity::Error);
        // A size prefix still says where the next message starts (the input's end when the
        // frame is cut short).
        m.end = if plan.sized { end } else { c.pos() };
        return (m, issues, c.nodes);
    }

    let def: Option<&'static MessageDef> = schema::find(api_key, plan.kind);
    match def {
        None => {
            // An api Kafka has but eoslab does not read (Metadata, JoinGroup … between the
            // transactions of a capture): named, and skipped to the end of its size prefix's
            // frame, so the rest of the stream (and this request's response, by its correlation
            // id) still decodes. The header was read up to the client id (RequestHeader v1 /
            // ResponseHeader v0: the tagged fields of v2 / v1 follow only in the api's flexible
            // versions, which only its schema says). Unframed, or an unknown key: an error.
            let name = m.api_name.unwrap_or("unknown");
            let (k, text, severity) = if m.api_name.is_none() {
                // `ApiKeys.forId` throws IllegalArgumentException, which `RequestHeader.parse`
                // wraps.
                let f = header_fault(api_key, Fault { at, kind: kind::ILLEGAL_ARGUMENT, message: format!("Unexpected api key: {api_key}") });
                (f.kind, f.message, Severity::Error)
            } else if plan.sized && end <= b.len() && issues.is_empty() {
                (
                    kind::UNSUPPORTED_API,
                    format!("{name} (api key {api_key}) v{version}: eoslab has no schema for it; skipped to the end of its frame ({} byte(s))", end - pos),
                    Severity::Warning,
                )
            } else {
                (kind::INVALID_INPUT, format!("eoslab has no schema for api key {api_key} ({name}): the body is not decoded"), Severity::Error)
            };
            push(&mut issues, Fault { at, kind: k, message: text }, Some(String::from("requestApiKey")), severity);
            m.end = if plan.sized { end } else { c.pos() };
        }
        Some(def) => {
            m.schema = Some(def.name);
            if version < 0 {
                // An ApiVersions request of a version the broker lacks is not parsed
                // (`RequestContext.isUnsupportedApiVersionsRequest`, below).
                let unparsed = plan.kind == Kind::Request && api_key == 18;
                push(
                    &mut issues,
                    Fault {
                        at: at + if plan.kind == Kind::Request { 2 } else { 0 },
                        kind: kind::UNSUPPORTED_VERSION,
                        message: if unparsed {
                            format!(
                                "ApiVersions v{version}: Kafka 4.3 reads {}-{}; the broker does not parse the body of an ApiVersions request of a version it lacks and answers UNSUPPORTED_VERSION with its versions",
                                def.valid.lo, def.valid.hi
                            )
                        } else {
                            format!("Can't read version {version} of {}Data", def.name)
                        },
                    },
                    Some(String::from("requestApiVersion")),
                    if unparsed { Severity::Warning } else { Severity::Error },
                );
                m.end = if plan.sized { end } else { c.pos() };
                return (m, issues, c.nodes);
            }
            // Past the newest version, Kafka's generated reader of the message reads on (it has
            // no version check of its own) with the fields whose versions are open-ended, and the
            // first nested struct's reader throws (`Can't read version 99 of TopicProduceData`).
            c.newest = def.valid.hi;
            if version < def.valid.lo {
                push(
                    &mut issues,
                    Fault {
                        at: at + if plan.kind == Kind::Request { 2 } else { 0 },
                        kind: kind::UNSUPPORTED_VERSION,
                        message: format!(
                            "version {version} of {} was removed in Kafka 4.0 (4.3 reads {}-{}): read with 4.3's schema, whose field versions still describe the removed versions except for fields only they had (ListOffsets v0's MaxNumOffsets)",
                            def.name, def.valid.lo, def.valid.hi
                        ),
                    },
                    Some(String::from("requestApiVersion")),
                    Severity::Warning,
                );
            }
            c.version = version;
            c.flexible = def.flexible;
            let mut body = Node { name: Cow::Borrowed(def.name), ty: "struct", start: c.pos(), ..Node::default() };
            let bres = read_struct(&mut c, def.fields, &mut body.children);
            body.end = c.pos();
            m.end = c.pos();
            m.body = Some(body);
            m.records = core::mem::take(&mut c.records);
            match bres {
                Err(f) => {
                    let p = c.fault_path.take();
                    push(&mut issues, f, p, Severity::Error);
                }
                Ok(()) if version > def.valid.hi && plan.kind == Kind::Request && api_key == 18 => {
                    // `RequestContext.parseRequest`: an ApiVersions request of a version the
                    // broker does not support is not parsed at all
                    // (`isUnsupportedApiVersionsRequest`: an empty ApiVersionsRequest of that
                    // version), and the broker answers UNSUPPORTED_VERSION with the versions it
                    // has, so the client can retry with one of them (KIP-511).
                    push(
                        &mut issues,
                        Fault {
                            at: at + 2,
                            kind: kind::UNSUPPORTED_VERSION,
                            message: format!(
                                "ApiVersions v{version}: Kafka 4.3 reads {}-{}; the broker does not parse the body of an ApiVersions request of a version it lacks and answers UNSUPPORTED_VERSION with its versions",
                                def.valid.lo, def.valid.hi
                            ),
                        },
                        Some(String::from("requestApiVersion")),
                        Severity::Warning,
                    );
                }
                Ok(()) if version > def.valid.hi => {
                    // Read without a nested struct: the generated reader has nothing to refuse;
                    // the request's constructor does (`AbstractRequest(ApiKeys, short)`, for a
                    // version `ApiKeys` does not support, once the body is read).
                    push(
                        &mut issues,
                        Fault {
                            at: at + if plan.kind == Kind::Request { 2 } else { 0 },
                            kind: kind::UNSUPPORTED_VERSION,
                            message: format!(
                                "The {} protocol does not support version {version}",
                                upper_snake(m.api_name.unwrap_or("?")),
                            ),
                        },
                        Some(String::from("requestApiVersion")),
                        Severity::Error,
                    );
                }
                Ok(()) if plan.sized && c.pos() < end => {
                    // `AbstractRequest.parseRequest` / `AbstractResponse.parseResponse` never look
                    // at what is left of the frame (librdkafka's broker answers ApiVersions with
                    // bytes past the body, which Kafka's clients read): a warning when the
                    // reading stands on more than these bytes (a response, whose api comes from
                    // its request or the options, or a kind the options force). A request
                    // guessed from the bytes alone that leaves bytes in its frame is more likely
                    // not a request at all (a response read as one): an error then.
                    let grounded = plan.kind == Kind::Response || opts.kind.is_some();
                    push(
                        &mut issues,
                        Fault {
                            at: c.pos(),
                            kind: kind::TRAILING_BYTES,
                            message: if grounded {
                                format!("{} byte(s) after the body, inside the size prefix's frame: Kafka's parser reads the body and ignores them", end - c.pos())
                            } else {
                                format!("{} byte(s) after the body, inside the size prefix's frame: Kafka's parser would ignore them, but a request read from these bytes alone that does not fill its frame is likely something else", end - c.pos())
                            },
                        },
                        None,
                        if grounded { Severity::Warning } else { Severity::Error },
                    );
                }
                Ok(()) => {}
            }
            if plan.sized {
                m.end = end;
            }
            if api_key == 1 && plan.kind == Kind::Response {
                let isolation = plan.api.and_then(|(_, _, r)| r).and_then(|i| pending.iter().find(|p| p.index == i)).and_then(|p| p.isolation_level);
                consumer_view(&mut m, isolation);
            }
        }
    }
    // The records' own problems, at absolute offsets.
    for rec in &m.records {
        for e in &rec.report.errors {
            issues.push(MessageIssue {
                at: rec.start + e.at,
                kind: e.kind,
                message: e.message.clone(),
                severity: e.severity,
                field: Some(rec.path.clone()),
                index: Some(index),
            });
        }
    }
    issues.sort_by_key(|i| i.at);
    (m, issues, c.nodes)
}

/// Marks each fetched batch as a consumer would read it, per partition, from the response's own
/// `abortedTransactions`: Kafka's `CompletedFetch.nextFetchedRecord` (clients/src/main/java/org/
/// apache/kafka/clients/consumer/internals/CompletedFetch.java). Under READ_COMMITTED, for each
/// batch with a producer id: every aborted transaction whose `firstOffset` ≤ the batch's
/// `lastOffset` adds its producer id to the aborted set (`consumeAbortedTransactionsUpTo`, a queue
/// ordered by `firstOffset`); a control batch whose first record is an ABORT marker removes its
/// producer id (`containsAbortMarker`); otherwise a transactional batch of an aborted producer is
/// skipped (`isBatchAborted`). Control batches never reach the application. Under
/// READ_UNCOMMITTED every data batch is delivered.
pub fn consumer_view(m: &mut MessageReport, isolation_from_request: Option<i8>) {
    let Some(body) = &m.body else { return };
    let mut partitions: Vec<(Option<Vec<(i64, i64)>>, usize)> = Vec::new();
    fn walk(n: &Node, out: &mut Vec<(Option<Vec<(i64, i64)>>, usize)>) {
        if let Some(ri) = n.child("records").and_then(|r| r.records) {
            let aborted = n.child("abortedTransactions").filter(|a| !a.null).map(|a| {
                a.children
                    .iter()
                    .map(|t| {
                        let g = |k: &str| t.child(k).and_then(|x| x.value.as_ref()).and_then(|v| v.parse::<i64>().ok()).unwrap_or(0);
                        (g("producerId"), g("firstOffset"))
                    })
                    .collect()
            });
            out.push((aborted, ri));
        }
        for ch in &n.children {
            walk(ch, out);
        }
    }
    walk(body, &mut partitions);
    for (aborted, ri) in partitions {
        let Some(rec) = m.records.get_mut(ri) else { continue };
        let (read_committed, from_request) = match isolation_from_request {
            Some(l) => (l == 1, true),
            None => (aborted.is_some(), false),
        };
        // PriorityQueue by firstOffset (ties: any order; both are consumed together).
        let mut queue: Vec<(i64, i64)> = aborted.unwrap_or_default();
        queue.sort_by_key(|&(_, first)| first);
        let mut qi = 0;
        let mut aborted_pids: Vec<(i64, i64)> = Vec::new(); // (producerId, firstOffset that added it)
        let mut verdicts = Vec::with_capacity(rec.report.batches.len());
        for bt in &rec.report.batches {
            let h = &bt.header;
            let control = h.attributes.control && !bt.legacy;
            let mut verdict = BatchVerdict { verdict: if control { "control" } else { "delivered" }, first_offset: None };
            if read_committed && h.producer_id >= 0 {
                while qi < queue.len() && queue[qi].1 <= h.last_offset {
                    if !aborted_pids.iter().any(|&(p, _)| p == queue[qi].0) {
                        aborted_pids.push(queue[qi]);
                    }
                    qi += 1;
                }
                let abort_marker = control && bt.control.as_ref().is_some_and(|c| c.type_name == "ABORT");
                if abort_marker {
                    aborted_pids.retain(|&(p, _)| p != h.producer_id);
                } else if h.attributes.transactional {
                    if let Some(&(_, first)) = aborted_pids.iter().find(|&&(p, _)| p == h.producer_id) {
                        verdict = BatchVerdict { verdict: "aborted", first_offset: Some(format!("{first}")) };
                    }
                }
            }
            verdicts.push(verdict);
        }
        rec.consumer = Some(ConsumerView {
            isolation_level: if read_committed { "READ_COMMITTED" } else { "READ_UNCOMMITTED" },
            from_request,
            batches: verdicts,
        });
    }
}
