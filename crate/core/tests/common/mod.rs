//! Helpers shared by the property tests, the fuzz-regression test and the fuzz targets
//! (`fuzz/fuzz_targets/*.rs` include this file with `#[path]`): the report sanity check
//! every decode must pass, and the report → spec conversion used for re-encoding.
#![allow(dead_code)]

use eoslab_core::encode::{AttributesSpec, HeaderKvSpec, HeaderSpec, RecordSpec, I64};
use eoslab_core::report::{to_hex, BatchReport, Report};
use eoslab_core::{BatchSpec, DecodeOptions};

/// The option sets every hostile input is decoded with.
pub fn option_sets() -> [DecodeOptions; 4] {
    let d = DecodeOptions::default();
    [
        d.clone(),
        DecodeOptions { spans: false, ..d.clone() },
        DecodeOptions { records: false, ..d.clone() },
        DecodeOptions { include_decompressed: true, max_decompressed: 4096, ..d },
    ]
}

/// Structural invariants of a report for an input of `input_len` bytes (text or binary):
/// every offset points into the bytes it claims to index.
pub fn check_report(rep: &Report, input_len: usize) -> Result<(), String> {
    let len = rep.length;
    let invalid_text = rep.errors.iter().any(|e| e.kind == "InvalidInput");
    if invalid_text {
        // Text that is not valid input: one issue, offsets into the text, nothing decoded.
        if !rep.batches.is_empty() {
            return Err(format!("InvalidInput report with {} batches", rep.batches.len()));
        }
        for e in &rep.errors {
            if e.at > input_len {
                return Err(format!("InvalidInput issue at {} past the input's {input_len} bytes: {e:?}", e.at));
            }
        }
        return Ok(());
    }
    if rep.format == "binary" && len != input_len {
        return Err(format!("binary input of {input_len} bytes reported as length {len}"));
    }
    let mut prev_end = 0usize;
    for (i, b) in rep.batches.iter().enumerate() {
        if !(b.start <= b.end && b.end <= len) {
            return Err(format!("batch {i}: start {} end {} length {len}", b.start, b.end));
        }
        if b.start < prev_end {
            return Err(format!("batch {i} starts at {} inside the previous batch (ends {prev_end})", b.start));
        }
        prev_end = b.end;
        if b.records.len() > len {
            return Err(format!("batch {i}: {} records from {len} bytes", b.records.len()));
        }
        let dsize = b.decompressed.as_ref().map(|d| d.size);
        if let Some(d) = &b.decompressed {
            if !(b.start <= d.compressed_start && d.compressed_start <= d.compressed_end && d.compressed_end <= b.end) {
                return Err(format!(
                    "batch {i}: compressed span {}..{} outside batch {}..{}",
                    d.compressed_start, d.compressed_end, b.start, b.end
                ));
            }
            if let Some(data) = &d.data {
                if data.len() != d.size {
                    return Err(format!("batch {i}: decompressed data {} bytes, size says {}", data.len(), d.size));
                }
            }
        }
        for f in &b.fields {
            if f.start > f.end {
                return Err(format!("batch {i}: field {} has start {} > end {}", f.name, f.start, f.end));
            }
            match f.buffer {
                None => {
                    if !(b.start <= f.start && f.end <= b.end) {
                        return Err(format!(
                            "batch {i}: field {} spans {}..{} outside its batch {}..{} (input length {len})",
                            f.name, f.start, f.end, b.start, b.end
                        ));
                    }
                }
                Some("decompressed") => match dsize {
                    Some(s) if f.end <= s => {}
                    Some(s) => {
                        return Err(format!(
                            "batch {i}: field {} spans {}..{} past the decompressed size {s}",
                            f.name, f.start, f.end
                        ))
                    }
                    None => {
                        return Err(format!(
                            "batch {i}: field {} indexes a decompressed buffer the batch does not have",
                            f.name
                        ))
                    }
                },
                Some(other) => return Err(format!("batch {i}: field {} in unknown buffer {other:?}", f.name)),
            }
        }
    }
    for e in &rep.errors {
        if e.at > len {
            return Err(format!("issue at {} past the input length {len}: {e:?}", e.at));
        }
        if let Some(bi) = e.batch {
            // An issue may name the entry that could not be framed (index == batches.len()).
            if bi > rep.batches.len() {
                return Err(format!("issue names batch {bi} of {}: {e:?}", rep.batches.len()));
            }
            if let (Some(dat), Some(b)) = (e.decompressed_at, rep.batches.get(bi)) {
                if let Some(d) = &b.decompressed {
                    if dat > d.size {
                        return Err(format!("issue decompressedAt {dat} past the decompressed size {}: {e:?}", d.size));
                    }
                }
            }
        }
    }
    Ok(())
}

/// Decode `data` as text-or-binary and as raw bytes with every option set; panic (for the
/// fuzzer / test harness) on any insane report.
pub fn decode_all_ways(data: &[u8]) {
    for opts in option_sets() {
        for (how, rep) in
            [("decode", eoslab_core::decode(data, &opts)), ("decode_bytes", eoslab_core::decode_bytes(data, &opts))]
        {
            if let Err(e) = check_report(&rep, data.len()) {
                panic!("{how} with {opts:?}: {e}\nreport: {rep:#?}");
            }
        }
    }
    check_view_agrees(data);
}

/// The zero-copy reader (`eoslab_core::view`) reads what the report reads: the same
/// batches, the same records field for field, and the same first fault (offset, Kafka
/// name, message); it never panics.
pub fn check_view_agrees(data: &[u8]) {
    use eoslab_core::view::{entries, Entry};
    let rep = eoslab_core::decode_bytes(data, &eoslab_core::DecodeOptions::default());
    let has = |e: &eoslab_core::view::ViewError| {
        rep.errors.iter().any(|i| (i.at, i.decompressed_at, i.kind, i.message.as_str()) == (e.at, e.decompressed_at, e.kind, e.message.as_str()))
    };
    // The columnar form: consistent lengths, every position inside its buffer.
    let c = eoslab_core::columns::columns(data, 64 << 20);
    assert_eq!(c.first_record.len(), c.batch_start.len() + 1);
    assert_eq!(c.first_header.len(), c.offset.len() + 1);
    for (i, w) in c.first_record.windows(2).enumerate() {
        let buf = if c.in_decompressed[i] == 1 { c.decompressed.len() } else { data.len() };
        for j in w[0] as usize..w[1] as usize {
            for (s, l) in [(c.key_start[j], c.key_length[j]), (c.value_start[j], c.value_length[j])] {
                assert!(l < 0 || s as usize + l as usize <= buf, "record {j}: {s}+{l} past {buf}");
            }
            for k in c.first_header[j] as usize..c.first_header[j + 1] as usize {
                assert!(c.header_key_start[k] as usize + c.header_key_length[k] as usize <= buf);
                let (s, l) = (c.header_value_start[k], c.header_value_length[k]);
                assert!(l < 0 || s as usize + l as usize <= buf);
            }
        }
    }
    let mut scratch = Vec::new();
    for entry in entries(data) {
        let v = match entry {
            Err(e) => {
                assert!(has(&e), "view error {e:?} not in the report {:?}", rep.errors);
                break;
            }
            Ok(Entry::Legacy { .. }) => continue,
            Ok(Entry::V2(v)) => v,
        };
        let b = rep.batches.iter().find(|b| b.start == v.start).expect("the report has the batch");
        assert_eq!((v.end(), v.header.crc, v.crc_computed, v.header.records_count), (b.end, b.header.crc, b.header.crc_computed, b.header.records_count));
        match v.records(&mut scratch, 64 << 20) {
            Err(e) => assert!(has(&e), "view error {e:?} not in the report {:?}", rep.errors),
            Ok(records) => {
                let mut n = 0;
                for r in records {
                    match r {
                        Ok(r) => {
                            if let Some(listed) = b.records.get(n) {
                                assert_eq!(&r.to_report(), listed, "record {n} of the batch at {}", v.start);
                            }
                            n += 1;
                        }
                        Err(e) => {
                            assert!(has(&e), "view error {e:?} not in the report {:?}", rep.errors);
                            break;
                        }
                    }
                }
                if !v.header.attributes.is_control() {
                    assert!(n >= b.records.len(), "the view read {n} records, the report lists {}", b.records.len());
                }
            }
        }
    }
}

/// A spec with every field explicit, from a decoded v2 batch: encoding it must give the
/// decoded bytes back (derived fields — length, CRC, count — are recomputed).
pub fn spec_of_report(b: &BatchReport) -> BatchSpec {
    let h = &b.header;
    let a = &h.attributes;
    BatchSpec {
        magic: Some(h.magic),
        header: HeaderSpec {
            base_offset: Some(I64(h.base_offset)),
            partition_leader_epoch: Some(h.partition_leader_epoch),
            attributes: AttributesSpec {
                compression: Some(a.compression.to_string()),
                timestamp_type: Some(a.timestamp_type.to_string()),
                transactional: Some(a.transactional),
                control: Some(a.control),
                delete_horizon: Some(a.delete_horizon),
            },
            last_offset_delta: Some(h.last_offset_delta),
            base_timestamp: Some(I64(h.base_timestamp)),
            max_timestamp: Some(I64(h.max_timestamp)),
            producer_id: Some(I64(h.producer_id)),
            producer_epoch: Some(h.producer_epoch),
            base_sequence: Some(h.base_sequence),
        },
        records: b
            .records
            .iter()
            .map(|r| RecordSpec {
                offset_delta: Some(r.offset_delta),
                timestamp_delta: Some(I64(r.timestamp_delta)),
                timestamp: None,
                key: r.key.as_deref().map(to_hex),
                key_text: None,
                value: r.value.as_deref().map(to_hex),
                value_text: None,
                headers: r
                    .headers
                    .iter()
                    .map(|h| HeaderKvSpec {
                        key: h.key.clone(),
                        value: h.value.as_deref().map(to_hex),
                        value_text: None,
                    })
                    .collect(),
                attributes: Some(r.attributes),
            })
            .collect(),
        control: None,
        snappy_framing: None,
    }
}
