//! eoslab-wasm: the JavaScript boundary of eoslab-core.
//!
//! This crate is deliberately thin (in the style of Ruff's wasm crate): it converts JS values into
//! the core's DTOs, calls exactly one core function per export, and converts the result back. It
//! holds no codec logic. Every failure crosses the boundary through one conversion, [`js_error`],
//! and surfaces in JS as a thrown `Error` whose `message` is the core's `Display` text.
//!
//! The exported API is a contract that `README.md`, `www/` and `tests/wasm/` rely on:
//!
//! | JS                                   | Rust                                      |
//! |--------------------------------------|-------------------------------------------|
//! | `decode(input, options?)` → object   | [`eoslab_core::decode::decode`]           |
//! | `encodeBatch(spec)` → `Uint8Array`   | [`eoslab_core::encode::encode_batch`]     |
//! | `encodeSegment(specs)` → `Uint8Array`| [`eoslab_core::encode::encode_segment`]   |
//! | `decodeColumns(bytes, options?)`     | [`eoslab_core::columns::columns`] (`columns.rs`) |
//! | `decodeColumnsInPlace(bytes, options?)` → `PackedColumns` | the same, kept in wasm memory |
//! | `decodeMessages(input, options?)` → object | [`eoslab_core::message::decode_messages`] (`envelope.rs`) |
//! | `crc32c(bytes)` → number             | [`eoslab_core::crc::crc32c`]              |
//! | `frames(bytes)` → `Frames`           | [`eoslab_core::wire::frame::frames`]      |
//! | `detectInput(text, options?)` → object | [`eoslab_core::input::detect_as`]       |
//! | `version()` → string                 | this crate's package version              |
//!
//! With the `models` feature (default) the models' API is exported too (`model.rs`:
//! `runScenario`, `runScenarioSummary`, `runTxnScenario`, `parseScenario`, `resolveProducerConfig`); without it
//! the module is decode-only (`pkg/eoslab-decode.js`, built by `scripts/build-pkg.sh`).
//! With the `files` feature (default) `loadPartition(files)` reads a partition directory as the
//! broker loads it (`files.rs`, [`eoslab_core::files::partition`]); the inspector loads it with
//! the full package on first use.
//! `encodeBatch` and `encodeSegment` need the `encode` feature (default): without it the encoders
//! (and the compressors' compression halves) are not linked, and pkg/eoslab-decode.js lacks them.

#[cfg(feature = "models")]
mod model;
#[cfg(feature = "columns")]
mod columns;
#[cfg(feature = "envelope")]
mod envelope;
#[cfg(feature = "files")]
mod files;
#[cfg(feature = "capture")]
mod capture;

use core::fmt::Display;

use eoslab_core::decode::DecodeOptions;
#[cfg(feature = "encode")]
use eoslab_core::encode::BatchSpec;
use js_sys::{ArrayBuffer, Uint8Array};
use serde::{Deserialize, Serialize};
use serde_wasm_bindgen::Serializer;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

/// Plain objects and arrays only (no `Map`, no `BigInt`), `None` as `null`: the result can be
/// `JSON.stringify`-ed as is. 64-bit integers never reach this serializer as numbers: the core's
/// report serializes them as decimal strings.
const SERIALIZER: Serializer = Serializer::json_compatible();

#[wasm_bindgen(typescript_custom_section)]
const TS_TYPES: &'static str = r#"
/** Result of `detectInput`: the bytes the input denotes, or `error` (then no `format`/`bytes`). */
export interface DetectedInput {
  format?: "binary" | "hex" | "xxd" | "hexdump -C" | "wireshark" | "base64" | "byte-array";
  stripped: string[];
  bytes?: Uint8Array;
  /** `at`: index into the string (UTF-16 units); `byteAt`: the UTF-8 byte offset. */
  error?: { name: "InvalidInput"; at: number; byteAt: number; message: string };
}

/** Options of `decode`. Omitted fields take the core's defaults. */
export interface DecodeOptions {
  /** Cap on one batch's decompressed size in bytes (core default 64 MiB); past it the batch
   *  reports DecompressionLimitExceeded. Infinity: no cap. */
  maxDecompressed?: number;
  /** Decode records (default true); false: headers, CRCs and control markers only. */
  records?: boolean;
  /** Also return the decompressed records section of each compressed batch. */
  includeDecompressed?: boolean;
  /** Emit byte spans (`fields`) for every record field (default true). */
  spans?: boolean;
  /** Read every record as a `__transaction_state` ("transaction-log") or `__consumer_offsets`
   *  ("offsets") record and put what `kafka-console-consumer --formatter` prints in each
   *  record's `formatted` (default: off). */
  formatter?: "transaction-log" | "offsets" | null;
  /** Return `summary` (counts over the entries) and no batches: an overview of a whole segment
   *  for the cost of its checks, without an object per batch (default false). */
  summary?: boolean;
}

/** 64-bit integers (offsets, timestamps, producer ids) are decimal strings: JS numbers lose precision past 2^53. */
export type Int64 = string;

export interface DecodeResult {
  /** What the input was detected as, e.g. "binary", "hex", "xxd", "base64". */
  format: string;
  /** What text-input parsing removed (offset columns, ASCII columns, `0x`, ...). */
  stripped: string[];
  /** Number of bytes after text decoding; every start/end/at indexes these bytes. */
  length: number;
  batches: Batch[];
  errors: DecodeError[];
  /** With `summary: true` (then `batches` is empty). */
  summary?: DecodeSummary;
}

/** Counts over the entries (eoslab_core::report::Summary). */
export interface DecodeSummary {
  batches: number;
  /** Entries whose stored CRC does not match the computed one. */
  crcInvalid: number;
  control: number;
  transactional: number;
  /** Entries with a producer id (producerId != -1). */
  idempotent: number;
  /** The entries' recordsCount summed (negative counts as 0). */
  records: number;
  /** [codec name, entries], in order of first appearance. */
  codecs: [string, number][];
}

export interface Batch {
  /** Byte range of the batch in the decoded input: [start, end). */
  start: number;
  end: number;
  magic: number;
  /** True for magic 0/1 (legacy message sets). */
  legacy: boolean;
  /** True when the input ended inside this batch. */
  truncated: boolean;
  header: BatchHeader;
  records: BatchRecord[];
  /** The control record of a control batch (transaction marker), else null. */
  control: ControlRecord | null;
  /** Byte spans, outermost first; spans nest (a record contains its key), the innermost is the most specific. */
  fields: Field[];
  /** The decompressed records section of a compressed batch, else null. */
  decompressed: Decompressed | null;
}

export interface Decompressed {
  codec: string;
  /** Compressed payload span in the input. */
  compressedStart: number;
  compressedEnd: number;
  /** Decompressed size in bytes. */
  size: number;
  /** The decompressed bytes as lowercase hex; only with `includeDecompressed: true`. */
  data?: string;
}

export interface BatchHeader {
  baseOffset: Int64;
  batchLength: number;
  partitionLeaderEpoch: number;
  magic: number;
  /** Stored CRC as an unsigned 32-bit number. */
  crc: number;
  /** CRC-32C computed over attributes..end of batch. */
  crcComputed: number;
  crcValid: boolean;
  attributes: Attributes;
  lastOffsetDelta: number;
  baseTimestamp: Int64;
  maxTimestamp: Int64;
  producerId: Int64;
  producerEpoch: number;
  baseSequence: number;
  recordsCount: number;
  /** Derived as Java does: baseSequence + lastOffsetDelta (wrapping at 2^31-1), or -1. */
  lastSequence: number;
  /** Derived: baseOffset + lastOffsetDelta. */
  lastOffset: Int64;
}

export interface Attributes {
  /** The whole int16 as stored. */
  raw: number;
  /** "none" | "gzip" | "snappy" | "lz4" | "zstd" (or the raw code when unknown). */
  compression: string;
  /** "CreateTime" | "LogAppendTime". */
  timestampType: string;
  transactional: boolean;
  control: boolean;
  deleteHorizon: boolean;
}

export interface BatchRecord {
  offsetDelta: number;
  timestampDelta: Int64;
  /** Key bytes as lowercase hex, or null for a null key. */
  key: string | null;
  /** Value bytes as lowercase hex, or null for a null value (tombstone). */
  value: string | null;
  headers: RecordHeader[];
  /** baseOffset + offsetDelta. */
  offset: Int64;
  /** baseTimestamp + timestampDelta. */
  timestamp: Int64;
  /** baseSequence + offsetDelta for idempotent batches, else -1. */
  sequence: number;
  /** The record's attributes byte (unused by Kafka, written 0). */
  attributes: number;
  /** Declared body length (the record's first varint). */
  length: number;
  /** Only with the `formatter` option: the formatter's text for this record ("" when it prints
   *  nothing for it). Absent for control records and records it cannot read (see `errors`). */
  formatted?: string;
}

export interface RecordHeader {
  key: string;
  /** Header value bytes as lowercase hex, or null. */
  value: string | null;
}

export interface ControlRecord {
  /** "ABORT" | "COMMIT" | "LEADER_CHANGE" | "SNAPSHOT_HEADER" | "SNAPSHOT_FOOTER" | "KRAFT_VERSION" | "KRAFT_VOTERS" | "UNKNOWN". */
  type: string;
  typeId: number;
  /** The control key's version. */
  version: number;
  /** EndTxnMarker.coordinatorEpoch for COMMIT/ABORT, else null. */
  coordinatorEpoch: number | null;
  /** EndTxnMarker version for COMMIT/ABORT, else null. */
  markerVersion: number | null;
}

export interface Field {
  /** Dotted field path, e.g. "header.crc" or "records[0].key". */
  name: string;
  start: number;
  end: number;
  /** Which buffer the range indexes: absent for the input itself, "decompressed" for the inflated records section. */
  buffer?: string;
}

export interface DecodeError {
  /** Byte offset in the input (inside compressed data: the first byte of the compressed payload). */
  at: number;
  /** Kafka's exception name ("CorruptRecordException", "InvalidRecordException", "KafkaException", ...),
   *  or "InvalidInput" / "PartialBatch" / "DecompressionLimitExceeded" where Kafka has none. */
  kind: string;
  message: string;
  severity: "error" | "warning" | "info";
  /** Index of the batch the error belongs to, if any. */
  batch?: number;
  /** Offset inside the decompressed bytes, for problems found there. */
  decompressedAt?: number;
}
"#;

#[cfg(feature = "encode")]
#[wasm_bindgen(typescript_custom_section)]
const TS_ENCODE_TYPES: &'static str = r#"
/** Input of `encodeBatch`: the shape `decode` returns for a batch, so a decoded batch re-encodes
 *  to the same bytes. Every field is optional (defaults as a Java producer sets them); derived
 *  fields (batchLength, crc, recordsCount, ...) are recomputed and other fields are ignored. */
export interface BatchSpec {
  /** 2 (default), or 0/1 for legacy messages. */
  magic?: number;
  header?: HeaderSpec;
  records?: RecordSpec[];
  /** Makes a control batch: a COMMIT/ABORT marker (or another control type). */
  control?: ControlSpec | null;
  /** Snappy framing: "xerial" (Java's, default) or "raw" (sarama, librdkafka). */
  snappyFraming?: "xerial" | "raw";
  [ignored: string]: unknown;
}

export interface HeaderSpec {
  baseOffset?: Int64 | number;
  partitionLeaderEpoch?: number;
  attributes?: {
    compression?: "none" | "gzip" | "snappy" | "lz4" | "zstd";
    timestampType?: "CreateTime" | "LogAppendTime";
    transactional?: boolean;
    control?: boolean;
    deleteHorizon?: boolean;
    [ignored: string]: unknown;
  };
  lastOffsetDelta?: number;
  baseTimestamp?: Int64 | number;
  maxTimestamp?: Int64 | number;
  producerId?: Int64 | number;
  producerEpoch?: number;
  baseSequence?: number;
  [ignored: string]: unknown;
}

export interface RecordSpec {
  offsetDelta?: number;
  timestampDelta?: Int64 | number;
  /** Absolute timestamp, used when timestampDelta is absent. */
  timestamp?: Int64 | number;
  /** Hex, or null/absent for a null key. */
  key?: string | null;
  /** UTF-8 text instead of hex `key`. */
  keyText?: string;
  /** Hex, or null/absent for a null value (tombstone). */
  value?: string | null;
  valueText?: string;
  headers?: { key: string; value?: string | null; valueText?: string }[];
  attributes?: number;
  [ignored: string]: unknown;
}

/** Result of `frames`: the entry boundaries of a segment, byte offsets in the input. */
export interface Frames {
  count: number;
  starts: Float64Array;
  ends: Float64Array;
  /** The last entry is a trailing partial one, cut at the input's end. */
  truncatedLast: boolean;
}

export interface ControlSpec {
  /** "COMMIT" | "ABORT" | "LEADER_CHANGE" | ... */
  type: string;
  /** Numeric type id, overriding `type`. */
  typeId?: number;
  version?: number;
  coordinatorEpoch?: number;
}
"#;

/// Installs the panic hook so a Rust panic shows its message in the console.
#[wasm_bindgen(start)]
fn start() {
    console_error_panic_hook::set_once();
}

/// The package version, e.g. "0.1.0".
#[wasm_bindgen]
pub fn version() -> String {
    env!("CARGO_PKG_VERSION").to_owned()
}

/// CRC-32C (Castagnoli) of `bytes`, as Kafka checksums a v2 batch: a baseline for how fast
/// the wasm build can touch every byte.
#[wasm_bindgen]
pub fn crc32c(bytes: &[u8]) -> u32 {
    eoslab_core::crc::crc32c(bytes)
}

/// The entry boundaries of a segment as the core frames it ([`eoslab_core::wire::frame::frames`]):
/// `{count, starts, ends, truncatedLast}`, what the inspector's virtualized list and its worker
/// index a segment by (each entry then decoded on demand). Never throws: the walk ends where the
/// bytes frame no entry, and `decode` of the rest says why.
#[wasm_bindgen(unchecked_return_type = "Frames")]
pub fn frames(bytes: &[u8]) -> JsValue {
    let (mut starts, mut ends, mut truncated_last) = (Vec::new(), Vec::new(), false);
    for f in eoslab_core::wire::frame::frames(bytes) {
        starts.push(f.start as f64);
        ends.push(f.end as f64);
        truncated_last = f.truncated;
    }
    let out = js_sys::Object::new();
    let set = |k: &str, v: &JsValue| js_sys::Reflect::set(&out, &JsValue::from_str(k), v).is_ok();
    set("count", &JsValue::from(starts.len() as f64));
    set("starts", &js_sys::Float64Array::from(&starts[..]));
    set("ends", &js_sys::Float64Array::from(&ends[..]));
    set("truncatedLast", &JsValue::from(truncated_last));
    out.into()
}

/// Decodes a Kafka record batch (or a segment of them) from bytes or from text (hex, xxd, base64:
/// the core detects which). Never throws for malformed data: problems are listed in `errors`.
#[wasm_bindgen(unchecked_return_type = "DecodeResult")]
pub fn decode(
    #[wasm_bindgen(unchecked_param_type = "Uint8Array | string")] input: JsValue,
    #[wasm_bindgen(unchecked_optional_param_type = "DecodeOptions")] options: JsValue,
) -> Result<JsValue, JsError> {
    let bytes = input_bytes(&input)?;
    let options: DecodeOptionsDto = from_js_or_default(options, "invalid decode options")?;
    let summary = options.summary == Some(true);
    let options = options.into_core().map_err(js_error)?;
    let mut report = eoslab_core::decode::decode(&bytes, &options);
    if !summary {
        return to_js(&report);
    }
    let counts = eoslab_core::report::Summary::of(&report.batches);
    report.batches = Vec::new();
    let out = to_js(&report)?;
    js_sys::Reflect::set(&out, &JsValue::from_str("summary"), &to_js(&counts)?).map_err(|_| js_error("cannot build result"))?;
    Ok(out)
}

/// `detectInput`'s result without the bytes (set on the object afterwards).
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct DetectedDto {
    #[serde(skip_serializing_if = "Option::is_none")]
    format: Option<&'static str>,
    stripped: Vec<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    error: Option<InputErrorDto>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct InputErrorDto {
    name: &'static str,
    /// Index of the offending character in the JS string (UTF-16 code units).
    at: usize,
    /// The same position as a byte offset in the text's UTF-8 bytes (the core's offset).
    byte_at: usize,
    message: String,
}

/// The inspector's paste parser: what a text (or a dropped file's bytes) denotes — the core's
/// [`eoslab_core::input::detect_as`], the same detection `decode` runs. `options.format`
/// ("hex" / "base64") forces a format. Returns `{format, stripped, bytes}`, or `{stripped,
/// error: {name, at, byteAt, message}}` with `at` an index into the string.
#[wasm_bindgen(js_name = detectInput, unchecked_return_type = "DetectedInput")]
pub fn detect_input(
    #[wasm_bindgen(unchecked_param_type = "Uint8Array | string")] input: JsValue,
    #[wasm_bindgen(unchecked_optional_param_type = "{format?: \"hex\" | \"base64\"}")] options: JsValue,
) -> Result<JsValue, JsError> {
    use eoslab_core::input::Format;
    let format = if options.is_object() { js_sys::Reflect::get(&options, &"format".into()).ok().and_then(|f| f.as_string()) } else { None };
    let force = match format.as_deref() {
        None | Some("auto") => None,
        Some("hex") => Some(Format::Hex),
        Some("base64") => Some(Format::Base64),
        Some(_) => return Err(js_error("invalid detectInput options: format must be \"hex\" or \"base64\"")),
    };
    let text = input.as_string();
    let owned;
    let bytes: &[u8] = match &text {
        Some(t) => t.as_bytes(),
        None => {
            owned = input_bytes(&input)?;
            &owned
        }
    };
    match eoslab_core::input::detect_as(bytes, force) {
        Ok(d) => {
            let out = to_js(&DetectedDto { format: Some(d.format.name()), stripped: d.stripped, error: None })?;
            js_sys::Reflect::set(&out, &JsValue::from_str("bytes"), &Uint8Array::from(&d.bytes[..])).map_err(|_| js_error("cannot build result"))?;
            Ok(out)
        }
        Err(e) => {
            // the UTF-16 index of the character holding byte `e.at`
            let at = text.as_deref().map_or(e.at, |t| {
                let cut = (0..=e.at.min(t.len())).rev().find(|&i| t.is_char_boundary(i)).unwrap_or(0);
                t[..cut].encode_utf16().count()
            });
            let error = InputErrorDto { name: "InvalidInput", at, byte_at: e.at, message: e.message };
            to_js(&DetectedDto { format: None, stripped: Vec::new(), error: Some(error) })
        }
    }
}

/// Encodes one record batch; throws an `Error` carrying the core's message when the spec is invalid.
#[cfg(feature = "encode")]
#[wasm_bindgen(js_name = encodeBatch)]
pub fn encode_batch(
    #[wasm_bindgen(unchecked_param_type = "BatchSpec")] spec: JsValue,
) -> Result<Vec<u8>, JsError> {
    let spec: BatchSpec = from_js(spec, "invalid batch spec")?;
    eoslab_core::encode::encode_batch(&spec).map_err(js_error)
}

/// Encodes several batches back to back (a log-segment slice).
#[cfg(feature = "encode")]
#[wasm_bindgen(js_name = encodeSegment)]
pub fn encode_segment(
    #[wasm_bindgen(unchecked_param_type = "BatchSpec[]")] specs: JsValue,
) -> Result<Vec<u8>, JsError> {
    let specs: Vec<BatchSpec> = from_js(specs, "invalid batch specs")?;
    eoslab_core::encode::encode_segment(&specs).map_err(js_error)
}

/// JS-side options: every field optional, camelCase. Unknown keys are ignored, as JS options
/// objects usually are (serde-wasm-bindgen reads only the named fields of an object).
#[derive(Debug, Default, Deserialize, PartialEq)]
#[serde(rename_all = "camelCase")]
struct DecodeOptionsDto {
    /// A JS number; `Infinity` means no limit beyond the address space.
    max_decompressed: Option<f64>,
    records: Option<bool>,
    include_decompressed: Option<bool>,
    spans: Option<bool>,
    /// "transaction-log" | "offsets" (or the topic names); absent/null: off.
    formatter: Option<String>,
    /// Return counts instead of the batches (not a core option: only what crosses the boundary).
    summary: Option<bool>,
}

/// The `maxDecompressed` option of `fn_name` (a JS number; absent: the core's default, 64 MiB).
pub(crate) fn max_decompressed(max: Option<f64>, fn_name: &str) -> Result<usize, String> {
    let Some(max) = max else { return Ok(DecodeOptions::default().max_decompressed) };
    if max.is_nan() || max < 0.0 || (max.is_finite() && max.fract() != 0.0) {
        return Err(format!("invalid {fn_name} options: maxDecompressed must be a non-negative integer, got {max}"));
    }
    // Float-to-int `as` saturates: Infinity and anything past usize::MAX become usize::MAX.
    Ok(max as usize)
}

impl DecodeOptionsDto {
    fn into_core(self) -> Result<DecodeOptions, String> {
        let mut options = DecodeOptions {
            max_decompressed: max_decompressed(self.max_decompressed, "decode")?,
            ..DecodeOptions::default()
        };
        if let Some(records) = self.records {
            options.records = records;
        }
        if let Some(include) = self.include_decompressed {
            options.include_decompressed = include;
        }
        if let Some(spans) = self.spans {
            options.spans = spans;
        }
        if let Some(f) = self.formatter {
            options.formatter = Some(eoslab_core::internal::InternalTopic::from_name(&f).ok_or_else(|| {
                format!("invalid decode options: formatter must be \"transaction-log\" or \"offsets\", got {f:?}")
            })?);
        }
        Ok(options)
    }
}

/// The one error conversion: anything `Display` becomes a thrown JS `Error` with that message.
fn js_error(message: impl Display) -> JsError {
    JsError::new(&message.to_string())
}

/// A string becomes its UTF-8 bytes (the core parses hex/xxd/base64 text); binary is copied.
fn input_bytes(input: &JsValue) -> Result<Vec<u8>, JsError> {
    if let Some(text) = input.as_string() {
        return Ok(text.into_bytes());
    }
    if let Some(array) = input.dyn_ref::<Uint8Array>() {
        return Ok(array.to_vec());
    }
    if let Some(buffer) = input.dyn_ref::<ArrayBuffer>() {
        return Ok(Uint8Array::new(buffer).to_vec());
    }
    Err(js_error(
        "decode: input must be a Uint8Array, an ArrayBuffer or a string",
    ))
}

fn from_js<T: for<'de> Deserialize<'de>>(value: JsValue, context: &str) -> Result<T, JsError> {
    serde_wasm_bindgen::from_value(value).map_err(|e| js_error(format!("{context}: {e}")))
}

/// `undefined` and `null` mean "all defaults".
fn from_js_or_default<T: for<'de> Deserialize<'de> + Default>(
    value: JsValue,
    context: &str,
) -> Result<T, JsError> {
    if value.is_undefined() || value.is_null() {
        Ok(T::default())
    } else {
        from_js(value, context)
    }
}

fn to_js<T: Serialize + ?Sized>(value: &T) -> Result<JsValue, JsError> {
    value
        .serialize(&SERIALIZER)
        .map_err(|e| js_error(format!("cannot convert result: {e}")))
}

#[cfg(test)]
mod tests {
    //! Host-side tests of the pure conversions; the JS-facing behaviour is tested by
    //! `tests/wasm/` (node) and `tests/browser/` (Chromium) against the built package.
    use super::*;

    #[test]
    fn empty_options_are_core_defaults() {
        let core = DecodeOptionsDto::default().into_core().unwrap();
        let default = DecodeOptions::default();
        assert_eq!(core.max_decompressed, default.max_decompressed);
        assert_eq!(core.records, default.records);
        assert_eq!(core.include_decompressed, default.include_decompressed);
        assert_eq!(core.spans, default.spans);
    }

    #[test]
    fn options_override_defaults() {
        let dto = DecodeOptionsDto {
            max_decompressed: Some(1024.0),
            records: Some(false),
            include_decompressed: Some(true),
            spans: Some(false),
            formatter: Some("offsets".into()),
            summary: Some(true),
        };
        let core = dto.into_core().unwrap();
        assert_eq!(core.max_decompressed, 1024);
        assert!(!core.records);
        assert!(core.include_decompressed);
        assert!(!core.spans);
        assert_eq!(core.formatter, Some(eoslab_core::internal::InternalTopic::ConsumerOffsets));
    }

    #[test]
    fn unknown_formatter_is_rejected() {
        let dto = DecodeOptionsDto { formatter: Some("json".into()), ..Default::default() };
        assert!(dto.into_core().unwrap_err().contains("formatter"));
    }

    #[test]
    fn infinite_limit_saturates() {
        let dto = DecodeOptionsDto {
            max_decompressed: Some(f64::INFINITY),
            ..Default::default()
        };
        assert_eq!(dto.into_core().unwrap().max_decompressed, usize::MAX);
    }

    #[test]
    fn bad_limits_are_rejected() {
        for bad in [-1.0, 1.5, f64::NAN, f64::NEG_INFINITY] {
            let dto = DecodeOptionsDto {
                max_decompressed: Some(bad),
                ..Default::default()
            };
            let err = dto.into_core().unwrap_err();
            assert!(err.contains("maxDecompressed"), "{err}");
        }
    }
}
