//! Arbitrary batch → `encode_batch` → `decode_bytes` → compare: no errors, a valid CRC, the
//! record values as given, and re-encoding the decoded report reproduces the bytes.
#![no_main]

#[path = "../../crate/core/tests/common/mod.rs"]
mod common;

use arbitrary::Arbitrary;
use eoslab_core::encode::{AttributesSpec, ControlSpec, HeaderKvSpec, HeaderSpec, RecordSpec, I64};
use eoslab_core::report::{to_hex, Severity};
use eoslab_core::{decode_bytes, encode_batch, BatchSpec, DecodeOptions};
use libfuzzer_sys::fuzz_target;

#[derive(Arbitrary, Debug)]
struct Rec {
    offset_delta: Option<i32>,
    timestamp_delta: Option<i64>,
    timestamp: Option<i64>,
    key: Option<Vec<u8>>,
    value: Option<Vec<u8>>,
    headers: Vec<(String, Option<Vec<u8>>)>,
    attributes: Option<i8>,
}

#[derive(Arbitrary, Debug)]
struct Ctl {
    commit: bool,
    version: Option<u8>,
    coordinator_epoch: Option<i32>,
}

#[derive(Arbitrary, Debug)]
struct Spec {
    codec: u8,
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

const CODECS: [&str; 5] = ["none", "gzip", "snappy", "lz4", "zstd"];

fn batch_spec(s: &Spec) -> BatchSpec {
    BatchSpec {
        magic: None,
        header: HeaderSpec {
            base_offset: s.base_offset.map(I64),
            partition_leader_epoch: s.partition_leader_epoch,
            attributes: AttributesSpec {
                compression: Some(CODECS[s.codec as usize % 5].into()),
                timestamp_type: s.log_append_time.then(|| "LogAppendTime".into()),
                transactional: s.transactional,
                control: None,
                delete_horizon: Some(s.delete_horizon),
            },
            last_offset_delta: s.last_offset_delta,
            base_timestamp: s.base_timestamp.map(I64),
            max_timestamp: s.max_timestamp.map(I64),
            producer_id: s.producer_id.map(I64),
            producer_epoch: s.producer_epoch,
            base_sequence: s.base_sequence,
        },
        records: s
            .records
            .iter()
            .take(64)
            .map(|r| RecordSpec {
                offset_delta: r.offset_delta,
                timestamp_delta: r.timestamp_delta.map(I64),
                timestamp: r.timestamp.map(I64),
                key: r.key.as_deref().map(to_hex),
                key_text: None,
                value: r.value.as_deref().map(to_hex),
                value_text: None,
                headers: r
                    .headers
                    .iter()
                    .take(8)
                    .map(|(k, v)| HeaderKvSpec { key: k.clone(), value: v.as_deref().map(to_hex), value_text: None })
                    .collect(),
                attributes: r.attributes,
            })
            .collect(),
        control: s.control.as_ref().map(|c| ControlSpec {
            type_name: if c.commit { "COMMIT" } else { "ABORT" }.into(),
            type_id: None,
            version: c.version.map(i16::from),
            coordinator_epoch: c.coordinator_epoch,
        }),
        snappy_framing: (s.snappy_raw && s.codec % 5 == 2).then(|| "raw".into()),
    }
}

fuzz_target!(|s: Spec| {
    let spec = batch_spec(&s);
    let bytes = match encode_batch(&spec) {
        Ok(b) => b,
        Err(_) => return, // e.g. a batch past 2 GiB: refusing is fine, panicking is not
    };
    // To turn a crasher into a decode fixture: EOSLAB_FUZZ_DUMP=out.bin cargo fuzz run roundtrip <crash>
    if let Some(path) = std::env::var_os("EOSLAB_FUZZ_DUMP") {
        std::fs::write(path, &bytes).expect("write EOSLAB_FUZZ_DUMP");
    }
    let rep = decode_bytes(&bytes, &DecodeOptions::default());
    common::check_report(&rep, bytes.len()).unwrap();
    let errors: Vec<_> = rep.errors.iter().filter(|e| e.severity == Severity::Error).collect();
    assert!(errors.is_empty(), "decode errors on encoder output: {errors:#?}");
    assert_eq!(rep.batches.len(), 1);
    let b = &rep.batches[0];
    assert!(b.header.crc_valid);
    let h = &spec.header;
    assert_eq!(b.header.base_offset, h.base_offset.map_or(0, |o| o.0));
    assert_eq!(b.header.producer_id, h.producer_id.map_or(-1, |o| o.0));
    assert_eq!(b.header.producer_epoch, h.producer_epoch.unwrap_or(-1));
    assert_eq!(b.header.base_sequence, h.base_sequence.unwrap_or(-1));
    assert_eq!(b.header.partition_leader_epoch, h.partition_leader_epoch.unwrap_or(-1));
    if spec.control.is_none() {
        assert_eq!(b.records.len(), spec.records.len());
        for (i, (g, r)) in b.records.iter().zip(&s.records).enumerate() {
            assert_eq!(g.key, r.key, "record {i} key");
            assert_eq!(g.value, r.value, "record {i} value");
            assert_eq!(g.offset_delta, r.offset_delta.unwrap_or(i as i32), "record {i} offsetDelta");
            assert_eq!(g.attributes, r.attributes.unwrap_or(0));
            let hs: Vec<_> = r.headers.iter().take(8).map(|(k, v)| (k.clone(), v.clone())).collect();
            let gh: Vec<_> = g.headers.iter().map(|h| (h.key.clone(), h.value.clone())).collect();
            assert_eq!(gh, hs, "record {i} headers");
            if s.log_append_time {
                assert_eq!(g.timestamp, b.header.max_timestamp);
            } else {
                assert_eq!(g.timestamp, b.header.base_timestamp.wrapping_add(g.timestamp_delta));
            }
        }
    } else {
        assert_eq!(b.records.len(), 1);
        let c = b.control.as_ref().expect("control record decoded");
        assert_eq!(c.coordinator_epoch, Some(s.control.as_ref().unwrap().coordinator_epoch.unwrap_or(0)));
    }
    let mut again = common::spec_of_report(b);
    again.snappy_framing = spec.snappy_framing.clone();
    let bytes2 = encode_batch(&again).expect("re-encode");
    assert!(bytes2 == bytes, "re-encoded bytes differ:\n  {}\n  {}", to_hex(&bytes), to_hex(&bytes2));
});
