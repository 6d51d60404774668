//! The JSON boundary of the encoder: [`BatchSpec`] (the shape `decode` returns, hex or text
//! for bytes, every field optional) resolved into a typed [`BatchWriter`]
//! ([`crate::wire::write`]), which writes batches as Kafka writes them: producer batches like
//! `MemoryRecordsBuilder` (baseOffset 0, partitionLeaderEpoch −1, lastOffsetDelta n−1,
//! baseTimestamp = first record's, maxTimestamp = the largest, CRC-32C filled last),
//! transaction markers like `MemoryRecords.writeEndTransactionalMarker`, and legacy
//! magic 0/1 messages like `LegacyRecord.write` (wrapper + inner set when compressed).
//!
//! [`BatchSpec`] has the shape `decode` returns, so a decoded batch re-encodes to the
//! same bytes; derived fields (`batchLength`, `crc`, `recordsCount` …) are recomputed.
//! Time is an input: a record without `timestamp`/`timestampDelta` gets timestamp 0.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use crate::wire::batch::{field, Attributes};
use crate::wire::compression::Codec;
use crate::wire::control::{self, ControlType};
use crate::wire::record::RecordRepr;
use crate::wire::write::{BatchWriter, Record, WriteError};

#[cfg(feature = "serde")]
use serde::Deserialize;

/// Why a spec could not be encoded.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EncodeError(pub String);

impl core::fmt::Display for EncodeError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(&self.0)
    }
}

#[cfg(feature = "std")]
impl std::error::Error for EncodeError {}

fn err<T>(m: impl Into<String>) -> Result<T, EncodeError> {
    Err(EncodeError(m.into()))
}

/// An int64 given as a JSON number or an exact decimal string (as `decode` writes them).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct I64(pub i64);

#[cfg(feature = "serde")]
impl<'de> Deserialize<'de> for I64 {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl serde::de::Visitor<'_> for V {
            type Value = I64;
            fn expecting(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
                f.write_str("an int64 as a number or a decimal string")
            }
            fn visit_i64<E: serde::de::Error>(self, v: i64) -> Result<I64, E> {
                Ok(I64(v))
            }
            fn visit_u64<E: serde::de::Error>(self, v: u64) -> Result<I64, E> {
                i64::try_from(v).map(I64).map_err(|_| E::custom("int64 out of range"))
            }
            fn visit_f64<E: serde::de::Error>(self, v: f64) -> Result<I64, E> {
                if v.fract() == 0.0 && v.abs() <= 9_007_199_254_740_992.0 {
                    Ok(I64(v as i64))
                } else {
                    Err(E::custom("int64 given as an inexact number: pass it as a decimal string"))
                }
            }
            fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<I64, E> {
                v.trim().parse::<i64>().map(I64).map_err(|_| E::custom(format!("not an int64: {v:?}")))
            }
        }
        d.deserialize_any(V)
    }
}

/// A batch to encode. Every field is optional; missing ones default as a Java producer
/// would set them.
#[derive(Clone, Debug, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(Deserialize), serde(rename_all = "camelCase", default))]
pub struct BatchSpec {
    /// 2 (default), or 0/1 for legacy messages.
    pub magic: Option<i8>,
    pub header: HeaderSpec,
    pub records: Vec<RecordSpec>,
    /// Makes a control batch: a COMMIT/ABORT marker (or another control type).
    pub control: Option<ControlSpec>,
    /// Snappy framing: "xerial" (Java's, default) or "raw" (sarama, librdkafka).
    pub snappy_framing: Option<String>,
}

#[derive(Clone, Debug, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(Deserialize), serde(rename_all = "camelCase", default))]
pub struct HeaderSpec {
    pub base_offset: Option<I64>,
    pub partition_leader_epoch: Option<i32>,
    pub attributes: AttributesSpec,
    pub last_offset_delta: Option<i32>,
    pub base_timestamp: Option<I64>,
    pub max_timestamp: Option<I64>,
    pub producer_id: Option<I64>,
    pub producer_epoch: Option<i16>,
    pub base_sequence: Option<i32>,
}

#[derive(Clone, Debug, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(Deserialize), serde(rename_all = "camelCase", default))]
pub struct AttributesSpec {
    /// "none" | "gzip" | "snappy" | "lz4" | "zstd"
    pub compression: Option<String>,
    /// "CreateTime" | "LogAppendTime"
    pub timestamp_type: Option<String>,
    pub transactional: Option<bool>,
    pub control: Option<bool>,
    pub delete_horizon: Option<bool>,
}

#[derive(Clone, Debug, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(Deserialize), serde(rename_all = "camelCase", default))]
pub struct RecordSpec {
    pub offset_delta: Option<i32>,
    pub timestamp_delta: Option<I64>,
    /// Absolute timestamp (used when `timestampDelta` is absent).
    pub timestamp: Option<I64>,
    /// Hex, or null/absent for a null key.
    pub key: Option<String>,
    /// UTF-8 text alternative to `key`.
    pub key_text: Option<String>,
    /// Hex, or null/absent for a null value (a tombstone).
    pub value: Option<String>,
    pub value_text: Option<String>,
    pub headers: Vec<HeaderKvSpec>,
    pub attributes: Option<i8>,
}

#[derive(Clone, Debug, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(Deserialize), serde(rename_all = "camelCase", default))]
pub struct HeaderKvSpec {
    pub key: String,
    /// Hex or null.
    pub value: Option<String>,
    pub value_text: Option<String>,
}

#[derive(Clone, Debug, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(Deserialize), serde(rename_all = "camelCase", default))]
pub struct ControlSpec {
    /// Kafka's name ("COMMIT", "ABORT", "LEADER_CHANGE" …).
    #[cfg_attr(feature = "serde", serde(rename = "type"))]
    pub type_name: String,
    /// Numeric type id, overriding `type`.
    pub type_id: Option<i16>,
    pub version: Option<i16>,
    pub coordinator_epoch: Option<i32>,
}

/// Parse lowercase/uppercase hex (whitespace ignored).
pub fn parse_hex(s: &str) -> Result<Vec<u8>, EncodeError> {
    let digits: Vec<u8> = s.bytes().filter(|b| !b.is_ascii_whitespace()).collect();
    if digits.len() % 2 != 0 {
        return err(format!("odd number of hex digits in {s:?}"));
    }
    let val = |c: u8| -> Result<u8, EncodeError> {
        match c {
            b'0'..=b'9' => Ok(c - b'0'),
            b'a'..=b'f' => Ok(c - b'a' + 10),
            b'A'..=b'F' => Ok(c - b'A' + 10),
            _ => err(format!("invalid hex digit {:?}", c as char)),
        }
    };
    digits.chunks(2).map(|p| Ok(val(p[0])? << 4 | val(p[1])?)).collect()
}

fn bytes_of(hex: &Option<String>, text: &Option<String>, what: &str) -> Result<Option<Vec<u8>>, EncodeError> {
    match (hex, text) {
        (Some(_), Some(_)) => err(format!("give either {what} (hex) or {what}Text, not both")),
        (Some(h), None) => parse_hex(h).map(Some).map_err(|e| EncodeError(format!("{what}: {}", e.0))),
        (None, Some(t)) => Ok(Some(t.as_bytes().to_vec())),
        (None, None) => Ok(None),
    }
}

fn codec_of(name: Option<&str>) -> Result<Codec, EncodeError> {
    match name.unwrap_or("none") {
        n if n.eq_ignore_ascii_case("none") => Ok(Codec::None),
        n if n.eq_ignore_ascii_case("gzip") => Ok(Codec::Gzip),
        n if n.eq_ignore_ascii_case("snappy") => Ok(Codec::Snappy),
        n if n.eq_ignore_ascii_case("lz4") => Ok(Codec::Lz4),
        n if n.eq_ignore_ascii_case("zstd") => Ok(Codec::Zstd),
        other => err(format!("unknown compression {other:?} (none, gzip, snappy, lz4, zstd)")),
    }
}

/// Records with their resolved timestamps and offset deltas.
struct Resolved {
    records: Vec<RecordRepr>,
    base_timestamp: i64,
    max_timestamp: i64,
    last_offset_delta: i32,
}

impl Resolved {
    /// The writer's batch-level values these records resolved.
    fn writer(&self, snappy_raw: bool) -> BatchWriter {
        BatchWriter {
            base_timestamp: self.base_timestamp,
            max_timestamp: Some(self.max_timestamp),
            last_offset_delta: Some(self.last_offset_delta),
            snappy_raw,
            ..BatchWriter::default()
        }
    }

    /// `f` over the records borrowed as the writer takes them.
    fn with_records<T>(&self, f: impl FnOnce(&[Record<'_>]) -> T) -> T {
        let headers: Vec<Vec<(&[u8], Option<&[u8]>)>> =
            self.records.iter().map(|r| r.headers.iter().map(|(k, v)| (&k[..], v.as_deref())).collect()).collect();
        let records: Vec<Record<'_>> = self
            .records
            .iter()
            .zip(&headers)
            .map(|(r, h)| r.as_record(h))
            .collect();
        f(&records)
    }
}

fn resolve_records(spec: &BatchSpec) -> Result<Resolved, EncodeError> {
    let h = &spec.header;
    let first_ts = spec.records.first().and_then(|r| r.timestamp.map(|t| t.0));
    let base_timestamp = h.base_timestamp.map(|t| t.0).or(first_ts).unwrap_or(if spec.records.is_empty() {
        crate::wire::batch::NO_TIMESTAMP
    } else {
        0
    });
    let mut records = Vec::with_capacity(spec.records.len());
    let mut max_ts: Option<i64> = None;
    let mut last_delta: Option<i32> = None;
    for (i, r) in spec.records.iter().enumerate() {
        let delta = match (r.timestamp_delta, r.timestamp) {
            (Some(d), _) => d.0,
            (None, Some(t)) => t.0.wrapping_sub(base_timestamp),
            (None, None) => 0,
        };
        let ts = base_timestamp.wrapping_add(delta);
        max_ts = Some(max_ts.map_or(ts, |m| m.max(ts)));
        let od = r.offset_delta.unwrap_or(i as i32);
        last_delta = Some(last_delta.map_or(od, |m| m.max(od)));
        let mut headers = Vec::with_capacity(r.headers.len());
        for hk in &r.headers {
            headers.push((hk.key.as_bytes().to_vec(), bytes_of(&hk.value, &hk.value_text, "header value")?));
        }
        records.push(RecordRepr {
            attributes: r.attributes.unwrap_or(0),
            timestamp_delta: delta,
            offset_delta: od,
            key: bytes_of(&r.key, &r.key_text, "key")?,
            value: bytes_of(&r.value, &r.value_text, "value")?,
            headers,
        });
    }
    Ok(Resolved {
        records,
        base_timestamp,
        max_timestamp: h.max_timestamp.map(|t| t.0).or(max_ts).unwrap_or(crate::wire::batch::NO_TIMESTAMP),
        last_offset_delta: h.last_offset_delta.or(last_delta).unwrap_or(0),
    })
}

/// Encode one batch (or, for `magic` 0/1, one legacy message set) with the right CRC.
pub fn encode_batch(spec: &BatchSpec) -> Result<Vec<u8>, EncodeError> {
    match spec.magic.unwrap_or(2) {
        2 => encode_v2(spec),
        m @ (0 | 1) => encode_legacy(spec, m),
        m => err(format!("magic must be 0, 1 or 2, not {m}")),
    }
}

/// Encode several batches back to back, as in a segment file.
pub fn encode_segment(specs: &[BatchSpec]) -> Result<Vec<u8>, EncodeError> {
    let mut out = Vec::new();
    for (i, s) in specs.iter().enumerate() {
        out.extend(encode_batch(s).map_err(|e| EncodeError(format!("batch {i}: {}", e.0)))?);
    }
    Ok(out)
}

fn encode_v2(spec: &BatchSpec) -> Result<Vec<u8>, EncodeError> {
    let h = &spec.header;
    let a = &h.attributes;
    let mut spec = spec.clone();
    let mut transactional_default = false;
    if let Some(c) = &spec.control {
        // MemoryRecords.writeEndTransactionalMarker / writeLeaderChangeMessage …
        let ty = match c.type_id {
            Some(id) => ControlType::from_id(id),
            None => ControlType::from_name(&c.type_name)
                .ok_or_else(|| EncodeError(format!("unknown control type {:?}", c.type_name)))?,
        };
        let mut key = control::key_bytes(ty);
        if let Some(v) = c.version {
            key[..2].copy_from_slice(&v.to_be_bytes());
        }
        let value = if ty.is_end_txn_marker() {
            Some(control::end_txn_marker_value(c.coordinator_epoch.unwrap_or(0)))
        } else {
            spec.records.first().and_then(|r| r.value.as_ref()).map(|v| parse_hex(v)).transpose()?
        };
        let ts = spec.records.first().and_then(|r| r.timestamp).or(spec.header.base_timestamp);
        spec.records = alloc::vec![RecordSpec {
            key: Some(crate::report::to_hex(&key)),
            value: value.map(|v| crate::report::to_hex(&v)),
            timestamp: ts,
            ..RecordSpec::default()
        }];
        transactional_default = ty.is_end_txn_marker();
    }
    let codec = codec_of(a.compression.as_deref())?;
    let mut attrs = codec.id() as u16;
    match a.timestamp_type.as_deref() {
        None | Some("CreateTime") => {}
        Some("LogAppendTime") => attrs |= field::ATTR_TIMESTAMP_TYPE,
        Some(o) => return err(format!("unknown timestampType {o:?} (CreateTime, LogAppendTime)")),
    }
    let control_batch = spec.control.is_some() || a.control.unwrap_or(false);
    if a.transactional.unwrap_or(transactional_default) {
        attrs |= field::ATTR_TRANSACTIONAL;
    }
    if control_batch {
        attrs |= field::ATTR_CONTROL;
    }
    if a.delete_horizon.unwrap_or(false) {
        attrs |= field::ATTR_DELETE_HORIZON;
    }
    let res = resolve_records(&spec)?;
    let writer = BatchWriter {
        base_offset: h.base_offset.map_or(0, |o| o.0),
        partition_leader_epoch: h.partition_leader_epoch.unwrap_or(crate::wire::batch::NO_PARTITION_LEADER_EPOCH),
        producer_id: h.producer_id.map_or(crate::wire::batch::NO_PRODUCER_ID, |p| p.0),
        producer_epoch: h.producer_epoch.unwrap_or(crate::wire::batch::NO_PRODUCER_EPOCH),
        base_sequence: h.base_sequence.unwrap_or(crate::wire::batch::NO_SEQUENCE),
        attributes: Attributes(attrs),
        ..res.writer(spec.snappy_framing.as_deref() == Some("raw"))
    };
    res.with_records(|records| writer.write_v2(records)).map_err(|_| EncodeError(String::from("batch larger than 2 GiB")))
}

fn encode_legacy(spec: &BatchSpec, magic: i8) -> Result<Vec<u8>, EncodeError> {
    if spec.control.is_some() {
        return err("control records need magic 2");
    }
    let codec = codec_of(spec.header.attributes.compression.as_deref())?;
    if codec == Codec::Zstd {
        return err(format!("ZStandard compression is not supported for magic {magic}"));
    }
    let lat = spec.header.attributes.timestamp_type.as_deref() == Some("LogAppendTime");
    if lat && magic == 0 {
        return err("magic 0 has no timestamp type");
    }
    let res = resolve_records(spec)?;
    let writer = BatchWriter {
        base_offset: spec.header.base_offset.map_or(0, |o| o.0),
        attributes: Attributes(codec.id() as u16 | if lat { field::ATTR_TIMESTAMP_TYPE } else { 0 }),
        ..res.writer(spec.snappy_framing.as_deref() == Some("raw"))
    };
    res.with_records(|records| writer.write_legacy(magic, records)).map_err(|e| {
        EncodeError(String::from(match e {
            WriteError::EmptyCompressedLegacySet => "a compressed legacy message set needs at least one record",
            WriteError::ZstdNeedsMagic2 => "ZStandard compression is not supported for magic 0/1",
            WriteError::TooLarge => "batch larger than 2 GiB",
        }))
    })
}
