//! Property tests.
//!
//! (a) encode∘decode is the identity on batches: a model (every field chosen, with Kafka's
//!     edge values mixed in) is turned into a `BatchSpec`, encoded, decoded, and every header
//!     and record field is compared with what Kafka derives from the model (offset, timestamp,
//!     sequence with `incrementSequence` wrapping, LogAppendTime). Re-encoding the decoded
//!     report's values must give the same bytes back.
//! (b) decode never panics, on arbitrary bytes and on mutated valid batches/segments, and every
//!     offset in the report points into the buffer it indexes (`common::check_report`).
//!
//! Case counts (per property: 800 round trips, 1000 legacy round trips, 300 encoder runs,
//! 5000 arbitrary/framed byte strings, 500 mutated segments / hostile wrappers / hostile
//! decompressed sections, 300 text renderings / text-like strings) keep the whole file around
//! 10–15 s in debug on 2 busy cores; `PROPTEST_CASES` overrides them all (tests/fuzz-smoke.sh
//! sets it to 3000 when it cannot run cargo-fuzz).
//!
//! Failures shrink and are saved in `props.proptest-regressions` (replayed first on every run);
//! the minimal inputs of the core bugs these properties found are kept as named tests at the
//! end of this file and as fixtures in tests/fixtures/fuzz/.

mod common;

use common::{check_report, decode_all_ways, spec_of_report};
use eoslab_core::encode::{AttributesSpec, ControlSpec, HeaderKvSpec, HeaderSpec, RecordSpec, I64};
use eoslab_core::report::{to_hex, Control, Header, RecordHeader, RecordReport, Report, Severity};
use eoslab_core::{decode, decode_bytes, encode_batch, BatchSpec, DecodeOptions};
use proptest::collection::vec;
use proptest::prelude::*;
use proptest::sample::select;

/// `cases` unless PROPTEST_CASES is set (ProptestConfig::default() reads it).
fn config(cases: u32) -> ProptestConfig {
    let mut c = ProptestConfig::default();
    if std::env::var_os("PROPTEST_CASES").is_none() {
        c.cases = cases;
    }
    c.max_shrink_iters = 2048;
    c
}

// ---------------------------------------------------------------- the model

#[derive(Clone, Debug)]
enum Bytes {
    Null,
    Hex(Vec<u8>),
    Text(String),
}

impl Bytes {
    fn get(&self) -> Option<Vec<u8>> {
        match self {
            Bytes::Null => None,
            Bytes::Hex(b) => Some(b.clone()),
            Bytes::Text(t) => Some(t.as_bytes().to_vec()),
        }
    }
    /// (hex, text) spec fields.
    fn spec(&self) -> (Option<String>, Option<String>) {
        match self {
            Bytes::Null => (None, None),
            Bytes::Hex(b) => (Some(to_hex(b)), None),
            Bytes::Text(t) => (None, Some(t.clone())),
        }
    }
}

#[derive(Clone, Debug)]
enum Ts {
    /// Neither timestamp nor timestampDelta: delta 0.
    Unset,
    Delta(i64),
    Absolute(i64),
}

#[derive(Clone, Debug)]
struct Rec {
    /// None: the encoder's default, the record's index.
    offset_delta: Option<i32>,
    ts: Ts,
    key: Bytes,
    value: Bytes,
    headers: Vec<(String, Bytes)>,
    attributes: Option<i8>,
}

#[derive(Clone, Debug)]
struct Ctl {
    commit: bool,
    version: Option<i16>,
    coordinator_epoch: Option<i32>,
    /// The marker record's absolute timestamp.
    timestamp: Option<i64>,
}

#[derive(Clone, Debug)]
struct Model {
    codec: &'static str,
    snappy_raw: bool,
    log_append_time: bool,
    transactional: Option<bool>,
    delete_horizon: bool,
    base_offset: Option<i64>,
    partition_leader_epoch: Option<i32>,
    last_offset_delta: Option<i32>,
    base_timestamp: Option<i64>,
    max_timestamp: Option<i64>,
    producer_id: Option<i64>,
    producer_epoch: Option<i16>,
    base_sequence: Option<i32>,
    records: Vec<Rec>,
    control: Option<Ctl>,
}

// ---------------------------------------------------------------- strategies

fn edge_i32(edges: &'static [i32]) -> impl Strategy<Value = i32> {
    prop_oneof![3 => select(edges), 1 => any::<i32>()]
}
fn edge_i64(edges: &'static [i64]) -> impl Strategy<Value = i64> {
    prop_oneof![3 => select(edges), 1 => any::<i64>()]
}

const BASE_TS: i64 = 1_700_000_000_000;
static TIMESTAMPS: &[i64] = &[-1, 0, 1, BASE_TS, i64::MIN, i64::MIN + 1, i64::MAX, i64::MAX - 1];
static TS_DELTAS: &[i64] = &[0, 1, -1, 250, i64::MIN, i64::MAX, i32::MAX as i64 + 1];
static SEQUENCES: &[i32] = &[0, 1, -1, i32::MAX - 5, i32::MAX - 4, i32::MAX - 3, i32::MAX - 2, i32::MAX - 1, i32::MAX];

fn bytes_strategy() -> impl Strategy<Value = Bytes> {
    prop_oneof![
        3 => Just(Bytes::Null),
        3 => Just(Bytes::Hex(Vec::new())),
        3 => any::<u8>().prop_map(|b| Bytes::Hex(vec![b])),
        1 => vec(any::<u8>(), 300..=300).prop_map(Bytes::Hex),
        2 => vec(any::<u8>(), 2..40).prop_map(Bytes::Hex),
        1 => "\\PC{0,6}".prop_map(Bytes::Text),
    ]
}

fn header_strategy() -> impl Strategy<Value = (String, Bytes)> {
    let key = prop_oneof![Just(String::new()), "[a-z_.-]{1,8}", "\\PC{1,4}"];
    (key, bytes_strategy())
}

fn ts_strategy() -> impl Strategy<Value = Ts> {
    prop_oneof![
        1 => Just(Ts::Unset),
        3 => edge_i64(TS_DELTAS).prop_map(Ts::Delta),
        2 => edge_i64(TIMESTAMPS).prop_map(Ts::Absolute),
        2 => (0i64..100_000).prop_map(|d| Ts::Absolute(BASE_TS + d)),
    ]
}

/// Offset deltas for `n` records: none (0..n), or explicit with gaps, possibly near i32::MAX.
fn offset_deltas(n: usize) -> impl Strategy<Value = Vec<Option<i32>>> {
    let start = prop_oneof![Just(0i32), Just(1), Just(i32::MAX - 25), Just(i32::MAX), 0i32..1000];
    let gap = prop_oneof![4 => Just(1i32), 2 => Just(0), 2 => 2i32..5, 1 => 0i32..=i32::MAX];
    prop_oneof![
        Just(vec![None; n]),
        (start, vec(gap, n)).prop_map(|(s, gaps)| {
            let mut cur = s;
            gaps.into_iter()
                .enumerate()
                .map(|(i, g)| {
                    if i > 0 {
                        cur = cur.saturating_add(g);
                    }
                    Some(cur)
                })
                .collect()
        }),
    ]
}

fn records_strategy() -> impl Strategy<Value = Vec<Rec>> {
    (0usize..=20).prop_flat_map(|n| {
        let rec = (
            ts_strategy(),
            bytes_strategy(),
            bytes_strategy(),
            vec(header_strategy(), 0..=3),
            prop_oneof![4 => Just(None), 1 => any::<i8>().prop_map(Some)],
        );
        (vec(rec, n), offset_deltas(n)).prop_map(|(recs, ods)| {
            recs.into_iter()
                .zip(ods)
                .map(|((ts, key, value, headers, attributes), offset_delta)| Rec {
                    offset_delta,
                    ts,
                    key,
                    value,
                    headers,
                    attributes,
                })
                .collect()
        })
    })
}

fn ctl_strategy() -> impl Strategy<Value = Option<Ctl>> {
    let ctl = (
        any::<bool>(),
        prop_oneof![Just(None), (0i16..=3).prop_map(Some), Just(Some(i16::MAX))],
        prop_oneof![Just(None), edge_i32(&[0, 1, -1, i32::MAX]).prop_map(Some)],
        prop_oneof![Just(None), edge_i64(TIMESTAMPS).prop_map(Some)],
    )
        .prop_map(|(commit, version, coordinator_epoch, timestamp)| Ctl {
            commit,
            version,
            coordinator_epoch,
            timestamp,
        });
    prop_oneof![4 => Just(None), 1 => ctl.prop_map(Some)]
}

fn opt<S: Strategy>(s: S) -> impl Strategy<Value = Option<S::Value>>
where
    S::Value: Clone,
{
    prop_oneof![1 => Just(None), 3 => s.prop_map(Some)]
}

fn model_strategy() -> impl Strategy<Value = Model> {
    let attrs = (
        select(&["none", "gzip", "snappy", "lz4", "zstd"][..]),
        any::<bool>(),
        prop::bool::weighted(0.25),
        prop_oneof![Just(None), any::<bool>().prop_map(Some)],
        prop::bool::weighted(0.1),
    );
    let header = (
        opt(edge_i64(&[0, 1, 10, i64::MAX, i64::MAX - 20, -1])),
        opt(edge_i32(&[-1, 0, 3, i32::MAX])),
        prop_oneof![6 => Just(None), 1 => edge_i32(&[0, 1, -1, i32::MAX, i32::MIN]).prop_map(Some)],
        prop_oneof![3 => Just(None), 1 => edge_i64(TIMESTAMPS).prop_map(Some)],
        prop_oneof![4 => Just(None), 1 => edge_i64(TIMESTAMPS).prop_map(Some)],
        opt(edge_i64(&[-1, 0, 4242, i64::MAX])),
        opt(prop_oneof![3 => select(&[-1i16, 0, 1, i16::MAX][..]), 1 => any::<i16>()]),
        opt(edge_i32(SEQUENCES)),
    );
    (attrs, header, records_strategy(), ctl_strategy()).prop_map(
        |((codec, snappy_raw, lat, transactional, delete_horizon), h, records, control)| Model {
            codec,
            snappy_raw: snappy_raw && codec == "snappy",
            log_append_time: lat,
            transactional,
            delete_horizon,
            base_offset: h.0,
            partition_leader_epoch: h.1,
            last_offset_delta: h.2,
            base_timestamp: h.3,
            max_timestamp: h.4,
            producer_id: h.5,
            producer_epoch: h.6,
            base_sequence: h.7,
            records,
            control,
        },
    )
}

// ---------------------------------------------------------------- model → spec, expected report

fn spec_of(m: &Model) -> BatchSpec {
    let records = match &m.control {
        Some(c) => {
            c.timestamp.map(|t| vec![RecordSpec { timestamp: Some(I64(t)), ..Default::default() }]).unwrap_or_default()
        }
        None => m
            .records
            .iter()
            .map(|r| {
                let (key, key_text) = r.key.spec();
                let (value, value_text) = r.value.spec();
                let (timestamp_delta, timestamp) = match r.ts {
                    Ts::Unset => (None, None),
                    Ts::Delta(d) => (Some(I64(d)), None),
                    Ts::Absolute(t) => (None, Some(I64(t))),
                };
                RecordSpec {
                    offset_delta: r.offset_delta,
                    timestamp_delta,
                    timestamp,
                    key,
                    key_text,
                    value,
                    value_text,
                    headers: r
                        .headers
                        .iter()
                        .map(|(k, v)| {
                            let (value, value_text) = v.spec();
                            HeaderKvSpec { key: k.clone(), value, value_text }
                        })
                        .collect(),
                    attributes: r.attributes,
                }
            })
            .collect(),
    };
    BatchSpec {
        magic: None,
        header: HeaderSpec {
            base_offset: m.base_offset.map(I64),
            partition_leader_epoch: m.partition_leader_epoch,
            attributes: AttributesSpec {
                compression: Some(m.codec.to_string()),
                timestamp_type: m.log_append_time.then(|| "LogAppendTime".to_string()),
                transactional: m.transactional,
                control: None,
                delete_horizon: m.delete_horizon.then_some(true),
            },
            last_offset_delta: m.last_offset_delta,
            base_timestamp: m.base_timestamp.map(I64),
            max_timestamp: m.max_timestamp.map(I64),
            producer_id: m.producer_id.map(I64),
            producer_epoch: m.producer_epoch,
            base_sequence: m.base_sequence,
        },
        records,
        control: m.control.as_ref().map(|c| ControlSpec {
            type_name: if c.commit { "COMMIT" } else { "ABORT" }.to_string(),
            type_id: None,
            version: c.version,
            coordinator_epoch: c.coordinator_epoch,
        }),
        snappy_framing: m.snappy_raw.then(|| "raw".to_string()),
    }
}

/// `DefaultRecordBatch.incrementSequence`, with Java's wrapping int arithmetic.
fn java_increment_sequence(sequence: i32, increment: i32) -> i32 {
    if sequence > i32::MAX.wrapping_sub(increment) {
        increment.wrapping_sub(i32::MAX.wrapping_sub(sequence)).wrapping_sub(1)
    } else {
        sequence.wrapping_add(increment)
    }
}

fn varint_size(v: i32) -> usize {
    let mut u = ((v << 1) ^ (v >> 31)) as u32;
    let mut n = 1;
    while u >= 0x80 {
        u >>= 7;
        n += 1;
    }
    n
}
fn varlong_size(v: i64) -> usize {
    let mut u = ((v << 1) ^ (v >> 63)) as u64;
    let mut n = 1;
    while u >= 0x80 {
        u >>= 7;
        n += 1;
    }
    n
}
fn bytes_size(b: &Option<Vec<u8>>) -> usize {
    match b {
        None => 1,
        Some(b) => varint_size(b.len() as i32) + b.len(),
    }
}

struct Expected {
    header: Header,
    records: Vec<RecordReport>,
    control: Option<Control>,
}

/// What Kafka's reader reports for the batch a Java producer (or broker) writes from `m`.
fn expected(m: &Model, batch_length: i32) -> Expected {
    // (offset delta, timestamp source, key, value, headers, attributes)
    type Raw = (Option<i32>, Ts, Option<Vec<u8>>, Option<Vec<u8>>, Vec<RecordHeader>, i8);
    let raw: Vec<Raw> = match &m.control {
        Some(c) => {
            let mut key = c.version.unwrap_or(0).to_be_bytes().to_vec();
            key.extend_from_slice(&(c.commit as i16).to_be_bytes());
            let mut value = 0i16.to_be_bytes().to_vec();
            value.extend_from_slice(&c.coordinator_epoch.unwrap_or(0).to_be_bytes());
            // The marker's timestamp: its own, else the batch's baseTimestamp.
            let ts = match c.timestamp.or(m.base_timestamp) {
                Some(t) => Ts::Absolute(t),
                None => Ts::Unset,
            };
            vec![(None, ts, Some(key), Some(value), Vec::new(), 0)]
        }
        None => m
            .records
            .iter()
            .map(|r| {
                let headers = r.headers.iter().map(|(k, v)| RecordHeader { key: k.clone(), value: v.get() }).collect();
                (r.offset_delta, r.ts.clone(), r.key.get(), r.value.get(), headers, r.attributes.unwrap_or(0))
            })
            .collect(),
    };
    let first_abs = match raw.first() {
        Some((_, Ts::Absolute(t), ..)) => Some(*t),
        _ => None,
    };
    let base_timestamp = m.base_timestamp.or(first_abs).unwrap_or(if raw.is_empty() { -1 } else { 0 });
    let base_offset = m.base_offset.unwrap_or(0);
    let base_sequence = m.base_sequence.unwrap_or(-1);
    let mut records = Vec::new();
    let mut max_ts: Option<i64> = None;
    let mut max_od: Option<i32> = None;
    for (i, (od, ts, key, value, headers, attributes)) in raw.into_iter().enumerate() {
        let od = od.unwrap_or(i as i32);
        let delta = match ts {
            Ts::Unset => 0,
            Ts::Delta(d) => d,
            Ts::Absolute(t) => t.wrapping_sub(base_timestamp),
        };
        let t = base_timestamp.wrapping_add(delta);
        max_ts = Some(max_ts.map_or(t, |x| x.max(t)));
        max_od = Some(max_od.map_or(od, |x| x.max(od)));
        let length = 1
            + varlong_size(delta)
            + varint_size(od)
            + bytes_size(&key)
            + bytes_size(&value)
            + varint_size(headers.len() as i32)
            + headers
                .iter()
                .map(|h| bytes_size(&Some(h.key.as_bytes().to_vec())) + bytes_size(&h.value))
                .sum::<usize>();
        records.push(RecordReport {
            offset_delta: od,
            timestamp_delta: delta,
            key,
            value,
            headers,
            offset: base_offset.wrapping_add(od as i64),
            timestamp: t, // LogAppendTime fixed below, once maxTimestamp is known
            sequence: if base_sequence >= 0 { java_increment_sequence(base_sequence, od) } else { -1 },
            attributes,
            length: length as i32,
            formatted: None,
        });
    }
    let max_timestamp = m.max_timestamp.or(max_ts).unwrap_or(-1);
    if m.log_append_time {
        for r in &mut records {
            r.timestamp = max_timestamp;
        }
    }
    let last_offset_delta = m.last_offset_delta.or(max_od).unwrap_or(0);
    let codec_id: u16 = match m.codec {
        "none" => 0,
        "gzip" => 1,
        "snappy" => 2,
        "lz4" => 3,
        _ => 4,
    };
    let transactional = m.transactional.unwrap_or(m.control.is_some());
    let control_bit = m.control.is_some();
    let raw_attrs = codec_id
        | if m.log_append_time { 0x08 } else { 0 }
        | if transactional { 0x10 } else { 0 }
        | if control_bit { 0x20 } else { 0 }
        | if m.delete_horizon { 0x40 } else { 0 };
    let header = Header {
        base_offset,
        batch_length,
        partition_leader_epoch: m.partition_leader_epoch.unwrap_or(-1),
        magic: 2,
        crc: 0,          // compared separately
        crc_computed: 0, // compared separately
        crc_valid: true,
        attributes: eoslab_core::report::AttributesReport {
            raw: raw_attrs,
            compression: m.codec.to_string().into(),
            timestamp_type: if m.log_append_time { "LogAppendTime" } else { "CreateTime" },
            transactional,
            control: control_bit,
            delete_horizon: m.delete_horizon,
        },
        last_offset_delta,
        base_timestamp,
        max_timestamp,
        producer_id: m.producer_id.unwrap_or(-1),
        producer_epoch: m.producer_epoch.unwrap_or(-1),
        base_sequence,
        records_count: records.len() as i32,
        last_sequence: if base_sequence == -1 { -1 } else { java_increment_sequence(base_sequence, last_offset_delta) },
        last_offset: base_offset.wrapping_add(last_offset_delta as i64),
    };
    let control = m.control.as_ref().map(|c| Control {
        type_name: if c.commit { "COMMIT" } else { "ABORT" }.to_string(),
        type_id: c.commit as i16,
        version: c.version.unwrap_or(0),
        coordinator_epoch: Some(c.coordinator_epoch.unwrap_or(0)),
        marker_version: Some(0),
    });
    Expected { header, records, control }
}

fn errors_of(r: &Report) -> Vec<&eoslab_core::report::Issue> {
    r.errors.iter().filter(|e| e.severity == Severity::Error).collect()
}

fn check_roundtrip(m: &Model) -> Result<(), TestCaseError> {
    let spec = spec_of(m);
    let bytes = encode_batch(&spec).map_err(|e| TestCaseError::fail(format!("encode failed: {e}")))?;
    let rep = decode_bytes(&bytes, &DecodeOptions::default());
    prop_assert!(errors_of(&rep).is_empty(), "decode errors: {:#?}", rep.errors);
    check_report(&rep, bytes.len()).map_err(TestCaseError::fail)?;
    prop_assert_eq!(rep.batches.len(), 1);
    let b = &rep.batches[0];
    prop_assert_eq!((b.start, b.end, b.magic, b.legacy, b.truncated), (0, bytes.len(), 2, false, false));
    prop_assert!(b.header.crc_valid, "crc invalid: {:?}", b.header);
    prop_assert_eq!(b.header.crc, b.header.crc_computed);

    let exp = expected(m, bytes.len() as i32 - 12);
    let mut got_header = b.header.clone();
    got_header.crc = 0;
    got_header.crc_computed = 0;
    prop_assert_eq!(&got_header, &exp.header);
    prop_assert_eq!(b.records.len(), exp.records.len());
    for (i, (g, e)) in b.records.iter().zip(&exp.records).enumerate() {
        prop_assert_eq!(g, e, "record {}", i);
    }
    prop_assert_eq!(&b.control, &exp.control);
    // recordsCount 0: like Java, the decoder does not look at the (compressed) records section.
    prop_assert_eq!(b.decompressed.is_some(), m.codec != "none" && !exp.records.is_empty());

    // The text-detecting entry point must see a binary batch as binary.
    let rep2 = decode(&bytes, &DecodeOptions::default());
    prop_assert_eq!(
        &rep2.batches,
        &rep.batches,
        "decode() (text detection) changed the result, format {}",
        rep2.format
    );

    // Re-encoding the decoded values reproduces the bytes.
    let mut again = spec_of_report(b);
    again.snappy_framing = spec.snappy_framing.clone();
    let bytes2 = encode_batch(&again).map_err(|e| TestCaseError::fail(format!("re-encode failed: {e}")))?;
    prop_assert!(bytes2 == bytes, "re-encoded bytes differ:\n  {}\n  {}", to_hex(&bytes), to_hex(&bytes2));
    Ok(())
}

// ---------------------------------------------------------------- legacy magic 0/1 round trip

#[derive(Clone, Debug)]
struct LegacyModel {
    magic: i8,
    codec: &'static str,
    log_append_time: bool,
    base_offset: i64,
    base_timestamp: i64,
    /// (offset-delta gap, timestamp delta, key, value)
    records: Vec<(i32, i64, Bytes, Bytes)>,
}

fn legacy_strategy() -> impl Strategy<Value = LegacyModel> {
    (
        0i8..=1,
        select(&["none", "gzip", "snappy", "lz4"][..]),
        any::<bool>(),
        prop_oneof![Just(0i64), Just(1), 0i64..(1 << 40)],
        prop_oneof![Just(BASE_TS), Just(0i64), Just(-1i64)],
        vec((prop_oneof![3 => Just(1i32), 1 => 0i32..100], -1000i64..1000, bytes_strategy(), bytes_strategy()), 1..=8),
    )
        .prop_map(|(magic, codec, lat, base_offset, base_timestamp, records)| LegacyModel {
            magic,
            codec,
            log_append_time: lat && magic == 1,
            base_offset,
            base_timestamp,
            records,
        })
}

fn check_legacy_roundtrip(m: &LegacyModel) -> Result<(), TestCaseError> {
    let mut od = 0i32;
    let mut ods = Vec::new();
    let recs: Vec<RecordSpec> = m
        .records
        .iter()
        .enumerate()
        .map(|(i, (gap, td, k, v))| {
            if i > 0 {
                od += gap;
            }
            ods.push(od);
            let (key, key_text) = k.spec();
            let (value, value_text) = v.spec();
            RecordSpec {
                offset_delta: Some(od),
                timestamp_delta: Some(I64(*td)),
                key,
                key_text,
                value,
                value_text,
                ..Default::default()
            }
        })
        .collect();
    let spec = BatchSpec {
        magic: Some(m.magic),
        header: HeaderSpec {
            base_offset: Some(I64(m.base_offset)),
            base_timestamp: Some(I64(m.base_timestamp)),
            attributes: AttributesSpec {
                compression: Some(m.codec.into()),
                timestamp_type: m.log_append_time.then(|| "LogAppendTime".into()),
                ..Default::default()
            },
            ..Default::default()
        },
        records: recs,
        ..Default::default()
    };
    let bytes = encode_batch(&spec).map_err(|e| TestCaseError::fail(format!("encode failed: {e}")))?;
    let rep = decode_bytes(&bytes, &DecodeOptions::default());
    prop_assert!(rep.errors.is_empty(), "decode issues: {:#?}", rep.errors);
    check_report(&rep, bytes.len()).map_err(TestCaseError::fail)?;
    let max_ts = m.records.iter().map(|r| m.base_timestamp + r.1).max().unwrap();
    let got: Vec<&RecordReport> = rep.batches.iter().flat_map(|b| &b.records).collect();
    prop_assert_eq!(got.len(), m.records.len());
    for (i, (g, (_, td, k, v))) in got.iter().zip(&m.records).enumerate() {
        let ts = match (m.magic, m.log_append_time) {
            (0, _) => -1,
            (_, true) if m.codec != "none" => max_ts,
            _ => m.base_timestamp + td,
        };
        prop_assert_eq!(
            (g.offset, g.timestamp, &g.key, &g.value),
            (m.base_offset + ods[i] as i64, ts, &k.get(), &v.get()),
            "record {}",
            i
        );
    }
    for b in &rep.batches {
        prop_assert!(b.legacy && b.header.crc_valid && b.magic == m.magic);
    }
    if m.codec == "none" {
        prop_assert_eq!(rep.batches.len(), m.records.len());
    } else {
        prop_assert_eq!(rep.batches.len(), 1);
        let h = &rep.batches[0].header;
        prop_assert_eq!((h.base_offset, h.records_count), (m.base_offset, m.records.len() as i32));
        prop_assert_eq!(h.last_offset, m.base_offset + *ods.last().unwrap() as i64);
    }
    Ok(())
}

// ---------------------------------------------------------------- mutations

#[derive(Clone, Debug)]
enum Mutation {
    /// Flip bit `bit` of the byte at `pos` (mod length).
    BitFlip(usize, u8),
    /// Keep only the first `n` bytes (mod length + 1).
    Truncate(usize),
    Insert(usize, Vec<u8>),
    Remove(usize, usize),
    /// Overwrite an int32 at a header offset of one entry (`batch` mod count) with a value.
    SetI32 {
        batch: usize,
        at: usize,
        value: i32,
    },
    /// Write a varint at `pos` (mod length), overwriting.
    Varint(usize, Vec<u8>),
    /// Recompute the CRC-32C of every v2 entry (so the decoder goes past the CRC check).
    FixCrcs,
}

static LENGTH_EDGES: &[i32] = &[-1, 0, 13, 14, 48, 49, 61, i32::MAX, i32::MIN, 60, 62, 26, 34];

fn mutation_strategy() -> impl Strategy<Value = Mutation> {
    // Header int32 fields: batchLength 8, partitionLeaderEpoch 12, lastOffsetDelta 23,
    // baseSequence 53, recordsCount 57; legacy keyLength (v0) 18.
    let i32_field = select(&[8usize, 8, 8, 12, 23, 53, 57, 57, 18, 26][..]);
    let varints: Vec<Vec<u8>> = vec![
        vec![0xfe, 0xff, 0xff, 0xff, 0x0f],                               // i32::MAX
        vec![0xff, 0xff, 0xff, 0xff, 0x0f],                               // i32::MIN
        vec![0x80, 0x80, 0x80, 0x80, 0x80],                               // too long
        vec![0x01],                                                       // -1
        vec![0x03],                                                       // -2
        vec![0xfe, 0xff, 0xff, 0xff, 0x07],                               // 2^30-ish
        vec![0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01], // varlong i64::MIN
    ];
    prop_oneof![
        4 => (any::<usize>(), 0u8..8).prop_map(|(p, b)| Mutation::BitFlip(p, b)),
        2 => any::<usize>().prop_map(Mutation::Truncate),
        1 => (any::<usize>(), vec(any::<u8>(), 1..8)).prop_map(|(p, b)| Mutation::Insert(p, b)),
        1 => (any::<usize>(), 1usize..8).prop_map(|(p, n)| Mutation::Remove(p, n)),
        4 => (any::<usize>(), i32_field, edge_i32(LENGTH_EDGES)).prop_map(|(batch, at, value)| Mutation::SetI32 { batch, at, value }),
        2 => (any::<usize>(), select(varints)).prop_map(|(p, v)| Mutation::Varint(p, v)),
        2 => Just(Mutation::FixCrcs),
    ]
}

fn fix_crcs(buf: &mut [u8], starts: &[usize]) {
    for &s in starts {
        if s + 61 <= buf.len() && buf[s + 16] == 2 {
            let len = i32::from_be_bytes([buf[s + 8], buf[s + 9], buf[s + 10], buf[s + 11]]);
            let end = (s as i64 + 12 + len as i64).clamp((s + 21) as i64, buf.len() as i64) as usize;
            let crc = eoslab_core::crc::crc32c(&buf[s + 21..end]);
            buf[s + 17..s + 21].copy_from_slice(&crc.to_be_bytes());
        }
    }
}

fn apply(buf: &mut Vec<u8>, starts: &[usize], m: &Mutation) {
    let len = buf.len();
    match m {
        Mutation::BitFlip(p, b) if len > 0 => buf[p % len] ^= 1 << b,
        Mutation::Truncate(n) => buf.truncate(n % (len + 1)),
        Mutation::Insert(p, b) => {
            let p = p % (len + 1);
            buf.splice(p..p, b.iter().copied());
        }
        Mutation::Remove(p, n) if len > 0 => {
            let p = p % len;
            buf.drain(p..(p + n).min(len));
        }
        Mutation::SetI32 { batch, at, value } if !starts.is_empty() => {
            let s = starts[batch % starts.len()] + at;
            if s + 4 <= len {
                buf[s..s + 4].copy_from_slice(&value.to_be_bytes());
            }
        }
        Mutation::Varint(p, v) if len > 0 => {
            let p = p % len;
            for (i, b) in v.iter().enumerate() {
                if p + i < len {
                    buf[p + i] = *b;
                }
            }
        }
        Mutation::FixCrcs => fix_crcs(buf, starts),
        _ => {}
    }
}

/// A valid segment: 1–3 entries (v2 batches, mostly uncompressed so mutations reach the
/// records; legacy messages too), with the start of each entry.
fn segment_strategy() -> impl Strategy<Value = (Vec<u8>, Vec<usize>)> {
    let entry = prop_oneof![
        4 => model_strategy().prop_map(|mut m| {
            // Mostly uncompressed: mutating compressed bytes mostly stops at decompression.
            if m.codec != "none" && m.records.len() % 3 != 0 {
                m.codec = "none";
                m.snappy_raw = false;
            }
            m.records.truncate(6);
            spec_of(&m)
        }),
        1 => legacy_strategy().prop_map(|m| BatchSpec {
            magic: Some(m.magic),
            header: HeaderSpec {
                attributes: AttributesSpec { compression: Some(m.codec.into()), ..Default::default() },
                ..Default::default()
            },
            records: m
                .records
                .iter()
                .take(3)
                .map(|(_, _, k, v)| {
                    let (key, key_text) = k.spec();
                    let (value, value_text) = v.spec();
                    RecordSpec { key, key_text, value, value_text, ..Default::default() }
                })
                .collect(),
            ..Default::default()
        }),
    ];
    vec(entry, 1..=3).prop_map(|specs| {
        let mut out = Vec::new();
        let mut starts = Vec::new();
        for s in &specs {
            let b = encode_batch(s).expect("generated specs encode");
            // A legacy uncompressed set is one entry per record.
            let mut p = 0;
            while p + 12 <= b.len() {
                starts.push(out.len() + p);
                let size = i32::from_be_bytes([b[p + 8], b[p + 9], b[p + 10], b[p + 11]]) as usize;
                p += 12 + size;
            }
            out.extend_from_slice(&b);
        }
        (out, starts)
    })
}

/// A batch whose *decompressed* records section is hostile: encode uncompressed, mutate the
/// records bytes, then compress them with a real codec and fix length, attributes and CRC.
fn compressed_hostile_strategy() -> impl Strategy<Value = Vec<u8>> {
    (model_strategy(), select(&[1u16, 2, 3, 4][..]), vec(mutation_strategy(), 1..4)).prop_map(|(mut m, codec, muts)| {
        m.codec = "none";
        m.snappy_raw = false;
        m.control = None;
        m.records.truncate(6);
        let plain = encode_batch(&spec_of(&m)).expect("encodes");
        let mut body = plain[61..].to_vec();
        for mu in &muts {
            apply(&mut body, &[], mu);
        }
        let c = eoslab_core::compression::Codec::from_id(codec as u8).unwrap();
        let z = eoslab_core::compression::compress(c, &body, 2);
        let mut out = plain[..61].to_vec();
        out.extend_from_slice(&z);
        let len = (out.len() - 12) as i32;
        out[8..12].copy_from_slice(&len.to_be_bytes());
        let attrs = u16::from_be_bytes([out[21], out[22]]) & !7 | codec;
        out[21..23].copy_from_slice(&attrs.to_be_bytes());
        fix_crcs(&mut out, &[0]);
        out
    })
}

/// `LegacyRecord.write` with a chosen offset, attributes and timestamp.
fn legacy_message(
    out: &mut Vec<u8>,
    magic: u8,
    offset: i64,
    attributes: u8,
    timestamp: i64,
    key: Option<&[u8]>,
    value: Option<&[u8]>,
) {
    let start = out.len();
    out.extend_from_slice(&offset.to_be_bytes());
    out.extend_from_slice(&[0; 8]);
    out.push(magic);
    out.push(attributes);
    if magic >= 1 {
        out.extend_from_slice(&timestamp.to_be_bytes());
    }
    for b in [key, value] {
        match b {
            None => out.extend_from_slice(&(-1i32).to_be_bytes()),
            Some(b) => {
                out.extend_from_slice(&(b.len() as i32).to_be_bytes());
                out.extend_from_slice(b);
            }
        }
    }
    let size = (out.len() - start - 12) as i32;
    out[start + 8..start + 12].copy_from_slice(&size.to_be_bytes());
    let crc = eoslab_core::crc::crc32_ieee(&out[start + 16..]);
    out[start + 12..start + 16].copy_from_slice(&crc.to_be_bytes());
}

static LEGACY_OFFSETS: &[i64] = &[0, 1, -1, 5, i64::MAX, i64::MIN, i64::MAX - 1, i64::MIN + 1];

/// A legacy compressed wrapper with hostile inner messages: arbitrary (edge) inner and
/// wrapper offsets, inner compression bits, inner magic mismatches, mutated inner bytes.
fn legacy_wrapper_strategy() -> impl Strategy<Value = Vec<u8>> {
    let inner = (
        edge_i64(LEGACY_OFFSETS),
        prop_oneof![4 => Just(0u8), 1 => any::<u8>()],
        0u8..=2,
        edge_i64(TIMESTAMPS),
        bytes_strategy(),
    );
    (
        0u8..=1,
        select(&[1u8, 2, 3][..]),
        edge_i64(LEGACY_OFFSETS),
        any::<bool>(),
        vec(inner, 0..5),
        vec(mutation_strategy(), 0..3),
    )
        .prop_map(|(magic, codec, wrapper_offset, lat, inner, muts)| {
            let mut set = Vec::new();
            for (off, attrs, m, ts, v) in &inner {
                let m = if *m == 2 { magic } else { *m };
                legacy_message(&mut set, m, *off, *attrs, *ts, None, v.get().as_deref());
            }
            for mu in &muts {
                apply(&mut set, &[], mu);
            }
            let c = eoslab_core::compression::Codec::from_id(codec).unwrap();
            let z = eoslab_core::compression::compress(c, &set, magic);
            let mut out = Vec::new();
            legacy_message(
                &mut out,
                magic,
                wrapper_offset,
                codec | if lat && magic == 1 { 8 } else { 0 },
                BASE_TS,
                None,
                Some(&z),
            );
            out
        })
}

/// An arbitrary 61-byte-ish header that frames (magic 0/1/2, batchLength = what follows)
/// over arbitrary bytes, CRC fixed or not.
fn framed_garbage_strategy() -> impl Strategy<Value = Vec<u8>> {
    (vec(any::<u8>(), 61..200), 0u8..=2, any::<bool>(), vec(any::<u8>(), 0..4)).prop_map(|(mut b, magic, fix, tail)| {
        let len = (b.len() - 12) as i32;
        b[8..12].copy_from_slice(&len.to_be_bytes());
        b[16] = magic;
        if fix {
            fix_crcs(&mut b, &[0]);
        }
        b.extend(tail);
        b
    })
}

/// Text renderings of bytes (what `decode`'s text detection must handle).
fn textify(bytes: &[u8], how: u8) -> Vec<u8> {
    let hex = to_hex(bytes);
    match how % 4 {
        0 => hex.into_bytes(),
        1 => {
            hex.as_bytes().chunks(2).map(|c| std::str::from_utf8(c).unwrap()).collect::<Vec<_>>().join(" ").into_bytes()
        }
        2 => hex
            .as_bytes()
            .chunks(32)
            .map(|c| std::str::from_utf8(c).unwrap())
            .collect::<Vec<_>>()
            .join("\n")
            .to_uppercase()
            .into_bytes(),
        _ => bytes.iter().map(|b| format!("0x{b:02x}")).collect::<Vec<_>>().join(", ").into_bytes(),
    }
}

// ---------------------------------------------------------------- the properties

proptest! {
    #![proptest_config(config(800))]

    /// (a) decode(encode(spec)) reports exactly what Kafka derives, and re-encodes to the same bytes.
    #[test]
    fn encode_decode_is_identity(m in model_strategy()) {
        check_roundtrip(&m)?;
    }
}

proptest! {
    #![proptest_config(config(1000))]

    /// (a) legacy magic 0/1 messages (plain and compressed wrappers) round-trip.
    #[test]
    fn legacy_encode_decode_is_identity(m in legacy_strategy()) {
        check_legacy_roundtrip(&m)?;
    }
}

proptest! {
    #![proptest_config(config(300))]

    /// The encoder never panics either (it takes user JSON in the wasm package and CLI): any
    /// model as magic 0, 1 or 2, and whatever it encodes decodes sanely.
    #[test]
    fn encode_never_panics(m in model_strategy(), magic in 0i8..=2) {
        let mut spec = spec_of(&m);
        spec.magic = Some(magic);
        if let Ok(bytes) = encode_batch(&spec) {
            decode_all_ways(&bytes);
        }
    }
}

proptest! {
    #![proptest_config(config(5000))]

    /// (b) arbitrary bytes: no panic, sane spans.
    #[test]
    fn decode_never_panics_on_arbitrary_bytes(data in vec(any::<u8>(), 0..300)) {
        decode_all_ways(&data);
    }

    /// (b) arbitrary bytes behind a header that frames: the decoder gets past the framing.
    #[test]
    fn decode_never_panics_on_framed_garbage(data in framed_garbage_strategy()) {
        decode_all_ways(&data);
    }
}

proptest! {
    #![proptest_config(config(500))]

    /// (b) mutated valid segments (bit flips, truncations, insertions, edge length fields).
    #[test]
    fn decode_never_panics_on_mutated_segments(
        (seg, starts) in segment_strategy(),
        muts in vec(mutation_strategy(), 1..5),
    ) {
        let mut buf = seg;
        for m in &muts {
            apply(&mut buf, &starts, m);
        }
        decode_all_ways(&buf);
    }

    /// (b) legacy compressed wrappers around hostile inner message sets.
    #[test]
    fn decode_never_panics_on_hostile_legacy_wrappers(data in legacy_wrapper_strategy()) {
        decode_all_ways(&data);
    }

    /// (b) valid compressed framing around hostile decompressed records.
    #[test]
    fn decode_never_panics_on_hostile_decompressed_records(data in compressed_hostile_strategy()) {
        decode_all_ways(&data);
    }
}

proptest! {
    #![proptest_config(config(300))]

    /// (b) text input: hex renderings of (mutated) segments decode like the bytes they spell.
    #[test]
    fn text_renderings_decode_like_their_bytes(
        (seg, starts) in segment_strategy(),
        muts in vec(mutation_strategy(), 0..3),
        how in any::<u8>(),
    ) {
        let mut buf = seg;
        for m in &muts {
            apply(&mut buf, &starts, m);
        }
        if buf.is_empty() {
            // Empty text is `InvalidInput` ("empty input") by design; empty bytes are no entries.
            return Ok(());
        }
        let text = textify(&buf, how);
        decode_all_ways(&text);
        let from_text = decode(&text, &DecodeOptions::default());
        let from_bytes = decode_bytes(&buf, &DecodeOptions::default());
        prop_assert_eq!(from_text.length, buf.len(), "format {} stripped {:?}", from_text.format, from_text.stripped);
        prop_assert_eq!(&from_text.batches, &from_bytes.batches);
        prop_assert_eq!(&from_text.errors, &from_bytes.errors);
    }

    /// (b) arbitrary text-ish input (hex digits, separators, base64 alphabet) through `decode`.
    #[test]
    fn decode_never_panics_on_text_like_input(s in "[0-9a-fA-FxX ,\\[\\]:|\n\t+/=.'\"\\\\-]{0,200}") {
        decode_all_ways(s.as_bytes());
    }
}

/// Every report serializes to JSON (the wasm/CLI contract) — also for hostile input.
#[test]
fn reports_of_hostile_input_serialize() {
    let (seg, _) = {
        use proptest::strategy::ValueTree;
        use proptest::test_runner::TestRunner;
        let mut runner = TestRunner::deterministic();
        segment_strategy().new_tree(&mut runner).unwrap().current()
    };
    for cut in [0, 5, 12, 17, 30, 61, seg.len() / 2, seg.len()] {
        let r = decode_bytes(&seg[..cut.min(seg.len())], &DecodeOptions::default());
        serde_json::to_string(&r).unwrap();
    }
}

// ---------------------------------------------------------------- shrunk regressions (core bugs)
// The minimal inputs the properties above shrank to; the decode ones are also fixtures in
// tests/fixtures/fuzz/proptest-*.bin (checked by tests/fuzz_regressions.rs).

/// `sequence::increment` overflowed (debug panic, "attempt to subtract with overflow") when
/// `lastOffsetDelta` is negative: `lastSequence` of a batch with baseSequence 0, lastOffsetDelta −1.
/// Java's int arithmetic wraps: `incrementSequence(0, -1)` = 2147483647.
#[test]
fn regression_last_sequence_with_negative_last_offset_delta() {
    let spec = BatchSpec {
        header: HeaderSpec { base_sequence: Some(0), last_offset_delta: Some(-1), ..Default::default() },
        ..Default::default()
    };
    let bytes = encode_batch(&spec).unwrap();
    let rep = decode_bytes(&bytes, &DecodeOptions::default());
    assert_eq!(rep.batches[0].header.last_sequence, java_increment_sequence(0, -1));
    assert_eq!(rep.batches[0].header.last_sequence, i32::MAX);
}

/// A record that fails to parse after its length left its `records[i]` span with end 0
/// (start > end): Example A with keyLength 63 (0x7e) and a fixed CRC.
#[test]
fn regression_failed_record_keeps_a_sane_span() {
    let mut b = eoslab_core::encode::parse_hex(
        "00000000000000000000003affffffff028c4a545e0000000000000000018bcfe568000000018bcfe568\
         0000000000000010920001000000070000000110000000026b027600",
    )
    .unwrap();
    assert_eq!(b.len(), 70);
    b[65] = 0x7e;
    let crc = eoslab_core::crc::crc32c(&b[21..]);
    b[17..21].copy_from_slice(&crc.to_be_bytes());
    let rep = decode_bytes(&b, &DecodeOptions::default());
    assert!(!rep.is_clean());
    check_report(&rep, b.len()).unwrap();
}

/// A v1 gzip wrapper at offset 1 whose inner message has offset i64::MIN: `wrapper − lastInner`
/// overflowed in legacy.rs (debug panic). Java's long arithmetic wraps.
#[test]
fn regression_legacy_wrapper_offset_overflow() {
    let mut inner = Vec::new();
    legacy_message(&mut inner, 0, i64::MIN, 0, -1, None, Some(&[0u8; 4]));
    let z = eoslab_core::compression::compress(eoslab_core::compression::Codec::Gzip, &inner, 1);
    let mut w = Vec::new();
    legacy_message(&mut w, 1, 1, 1, BASE_TS, None, Some(&z));
    decode_all_ways(&w);
}

/// The encoder overflowed (debug panic) on legacy messages at baseOffset i64::MAX with an
/// offsetDelta > 0 (`base + offsetDelta` in encode_legacy, both plain and wrapper offsets).
#[test]
fn regression_legacy_encode_offset_overflow() {
    for codec in ["none", "gzip"] {
        let spec = BatchSpec {
            magic: Some(1),
            header: HeaderSpec {
                base_offset: Some(I64(i64::MAX)),
                attributes: AttributesSpec { compression: Some(codec.into()), ..Default::default() },
                ..Default::default()
            },
            records: vec![RecordSpec::default(), RecordSpec::default()],
            ..Default::default()
        };
        if let Ok(bytes) = encode_batch(&spec) {
            decode_all_ways(&bytes);
        }
    }
}
