//! "One writer must not cost the models their speed", measured where it is decided:
//! the codec's one writer (`eoslab_core::wire::write::BatchWriter`) against the hand-written
//! writers the transactions model used before it (`raw_batch_with` in `model/txn.rs` and
//! `marker_bytes` in `model/partition.rs` at commit 286cdd3, copied below as they were, with
//! only their imports adapted), writing the batches the models write: a Java producer's
//! one-record and five-record batches, a coordinator's keyed record, and COMMIT markers.
//!
//!   eoslab-bench-writer [N] [writer|hand|both]
//!
//! Every batch of both writers is compared byte for byte before anything is counted. With
//! `writer` or `hand` it writes N rounds with that one only, for valgrind to count
//! (`benches/instructions.sh`); `both` (default) times both, which this VM does only roughly.
use std::time::Instant;

use eoslab_core::batch::{field, Attributes, Batch, HeaderRepr, HEADER_LEN, NO_PARTITION_LEADER_EPOCH, NO_SEQUENCE};
use eoslab_core::control::ControlType;
use eoslab_core::reader::write::{size_of_varint, varint};
use eoslab_core::wire::write::{BatchWriter, Record};

type KeyValue<'a> = (Option<&'a [u8]>, Option<&'a [u8]>);

/// 286cdd3's `raw_batch_with` (model/txn.rs), its debug-build comparison left out.
fn hand_batch<'a>(pid: i64, epoch: i16, seq: i32, transactional: bool, n: usize, rec: impl Fn(usize) -> KeyValue<'a>, now: i64) -> Vec<u8> {
    let opt_len = |b: Option<&[u8]>| b.map_or(1, |b| size_of_varint(b.len() as i32) + b.len());
    let body_len = |i: usize, k: Option<&[u8]>, v: Option<&[u8]>| 1 + 1 + size_of_varint(i as i32) + opt_len(k) + opt_len(v) + 1;
    let bound = HEADER_LEN + (0..n).map(&rec).map(|(k, v)| 23 + k.map_or(0, <[u8]>::len) + v.map_or(0, <[u8]>::len)).sum::<usize>();
    let mut out = Vec::with_capacity(bound);
    out.resize(HEADER_LEN, 0);
    let put = |out: &mut Vec<u8>, b: Option<&[u8]>| match b {
        None => varint(out, -1),
        Some(b) => {
            varint(out, b.len() as i32);
            out.extend_from_slice(b);
        }
    };
    for i in 0..n {
        let (k, v) = rec(i);
        varint(&mut out, body_len(i, k, v) as i32);
        out.extend_from_slice(&[0, 0]);
        varint(&mut out, i as i32);
        put(&mut out, k);
        put(&mut out, v);
        varint(&mut out, 0);
    }
    let n = n as i32;
    let repr = HeaderRepr {
        base_offset: 0,
        batch_length: (out.len() - field::LOG_OVERHEAD) as i32,
        partition_leader_epoch: NO_PARTITION_LEADER_EPOCH,
        magic: 2,
        crc: 0,
        attributes: Attributes(if transactional { field::ATTR_TRANSACTIONAL } else { 0 }),
        last_offset_delta: n - 1,
        base_timestamp: now,
        max_timestamp: now,
        producer_id: pid,
        producer_epoch: epoch,
        base_sequence: seq,
        records_count: n,
    };
    let hdr: &mut [u8; HEADER_LEN] = (&mut out[..HEADER_LEN]).try_into().expect("HEADER_LEN bytes");
    repr.emit(hdr);
    Batch::new_unchecked(&mut out[..]).fill_crc();
    out
}

/// 286cdd3's `marker_bytes` (model/partition.rs), its debug-build comparisons left out.
fn hand_marker(producer_id: i64, epoch: i16, commit: bool, coordinator_epoch: i32, timestamp_ms: i64) -> Vec<u8> {
    let ty = if commit { ControlType::Commit } else { ControlType::Abort };
    let [t0, t1] = ty.id().to_be_bytes();
    let key = [0, 0, t0, t1];
    let [e0, e1, e2, e3] = coordinator_epoch.to_be_bytes();
    let value = [0, 0, e0, e1, e2, e3];
    let body = 3 + 1 + key.len() + 1 + value.len() + 1;
    let mut out = Vec::with_capacity(HEADER_LEN + 1 + body);
    out.resize(HEADER_LEN, 0);
    varint(&mut out, body as i32);
    out.extend_from_slice(&[0, 0, 0]);
    varint(&mut out, key.len() as i32);
    out.extend_from_slice(&key);
    varint(&mut out, value.len() as i32);
    out.extend_from_slice(&value);
    out.push(0);
    let repr = HeaderRepr {
        base_offset: 0,
        batch_length: (out.len() - field::LOG_OVERHEAD) as i32,
        partition_leader_epoch: NO_PARTITION_LEADER_EPOCH,
        magic: 2,
        crc: 0,
        attributes: Attributes(field::ATTR_TRANSACTIONAL | field::ATTR_CONTROL),
        last_offset_delta: 0,
        base_timestamp: timestamp_ms,
        max_timestamp: timestamp_ms,
        producer_id,
        producer_epoch: epoch,
        base_sequence: NO_SEQUENCE,
        records_count: 1,
    };
    let hdr: &mut [u8; HEADER_LEN] = (&mut out[..HEADER_LEN]).try_into().expect("HEADER_LEN bytes");
    repr.emit(hdr);
    Batch::new_unchecked(&mut out[..]).fill_crc();
    out
}

/// The one writer, called as the models call it (model/txn.rs `raw_batch_with`,
/// model/idempotence.rs `batch_bytes`).
fn writer_batch<'a>(pid: i64, epoch: i16, seq: i32, transactional: bool, n: usize, rec: impl Fn(usize) -> KeyValue<'a>, now: i64) -> Vec<u8> {
    let writer = BatchWriter::producer(pid, epoch, seq, transactional, now);
    let rec = &rec;
    let records = (0..n).map(move |i| {
        let (key, value) = rec(i);
        Record { offset_delta: i as i32, key, value, ..Record::default() }
    });
    writer.write_v2_from(records).expect("small batches")
}

fn writer_marker(producer_id: i64, epoch: i16, commit: bool, coordinator_epoch: i32, timestamp_ms: i64) -> Vec<u8> {
    let ty = if commit { ControlType::Commit } else { ControlType::Abort };
    BatchWriter::end_txn_marker(producer_id, epoch, ty, coordinator_epoch, timestamp_ms)
}

/// One round: the batches a transaction of the bench's script writes, roughly.
fn round(i: usize, hand: bool, sink: &mut u64) {
    let values: [&[u8]; 5] = [b"order-1", b"order-2", b"order-3", b"order-4", b"order-5"];
    let key: &[u8] = b"\x00\x00\x00\x03pay";
    let value: &[u8] = b"\x00\x01\x00\x00\x00\x00\x03\xe8\x00\x00\x00\x00\xea\x60\x00\x00\x00\x00\x00\x00\x00\x00\x01\x93";
    let now = 1_700_000_000_000 + i as i64;
    let seq = (i % 1_000_000) as i32;
    let (one, five, keyed, marker) = if hand {
        (
            hand_batch(1000, 0, seq, true, 1, |j| (None, Some(values[j])), now),
            hand_batch(1000, 0, seq, false, 5, |j| (None, Some(values[j])), now),
            hand_batch(-1, -1, -1, false, 1, |_| (Some(key), Some(value)), now),
            hand_marker(1000, 0, true, 0, now),
        )
    } else {
        (
            writer_batch(1000, 0, seq, true, 1, |j| (None, Some(values[j])), now),
            writer_batch(1000, 0, seq, false, 5, |j| (None, Some(values[j])), now),
            writer_batch(-1, -1, -1, false, 1, |_| (Some(key), Some(value)), now),
            writer_marker(1000, 0, true, 0, now),
        )
    };
    *sink = sink.wrapping_add((one.len() + five.len() + keyed.len() + marker.len()) as u64 + u64::from(marker[20]));
}

fn same_bytes(rounds: usize) {
    for i in 0..rounds {
        let (mut a, mut b) = (0, 0);
        round(i, true, &mut a);
        round(i, false, &mut b);
        assert_eq!(a, b, "round {i}");
    }
    let values: [&[u8]; 3] = [b"a", b"", b"ccc"];
    for n in 0..=3 {
        for tx in [false, true] {
            let h = hand_batch(7, 2, 40, tx, n.max(1), |j| (None, Some(values[j % 3])), 99);
            let w = writer_batch(7, 2, 40, tx, n.max(1), |j| (None, Some(values[j % 3])), 99);
            assert_eq!(h, w, "{n} records, transactional {tx}");
        }
    }
    for commit in [false, true] {
        assert_eq!(hand_marker(5, 1, commit, 3, 42), writer_marker(5, 1, commit, 3, 42), "marker commit={commit}");
    }
}

fn main() {
    let n: usize = std::env::args().nth(1).and_then(|v| v.parse().ok()).unwrap_or(100_000);
    let mode = std::env::args().nth(2).unwrap_or_else(|| "both".into());
    same_bytes(1_000);
    let mut sink = 0u64;
    let mut timed = |hand: bool| {
        let t = Instant::now();
        for i in 0..n {
            round(i, hand, &mut sink);
        }
        t.elapsed().as_secs_f64()
    };
    match mode.as_str() {
        "writer" => {
            timed(false);
        }
        "hand" => {
            timed(true);
        }
        "both" => {
            let (h, w) = (timed(true), timed(false));
            println!("{n} rounds (4 batches each): hand-written {:.1} ns/round, BatchWriter {:.1} ns/round ({:.2}x)", h * 1e9 / n as f64, w * 1e9 / n as f64, w / h);
        }
        other => panic!("unknown mode {other:?} (writer, hand, both)"),
    }
    eprintln!("writer: {mode} {n} rounds, checksum {sink}");
}
