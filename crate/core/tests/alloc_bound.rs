//! Allocation bound: decoding hostile input must not allocate in proportion to what the
//! input *claims* (recordsCount, lengths, headersCount of 2^31), only to what it *has*.
//!
//! A counting `#[global_allocator]` (its own test binary, so other tests are unaffected)
//! tracks the peak of live heap bytes while one decode runs. Tests are serialized with a
//! mutex so the peak belongs to the decode being measured.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering::SeqCst};
use std::sync::Mutex;

use eoslab_core::encode::{AttributesSpec, HeaderKvSpec, HeaderSpec, RecordSpec};
use eoslab_core::{decode, decode_bytes, encode_batch, BatchSpec, DecodeOptions};

struct Counting;

static LIVE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

fn grew(n: usize) {
    let now = LIVE.fetch_add(n, SeqCst) + n;
    PEAK.fetch_max(now, SeqCst);
}

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, l: Layout) -> *mut u8 {
        let p = System.alloc(l);
        if !p.is_null() {
            grew(l.size());
        }
        p
    }
    unsafe fn alloc_zeroed(&self, l: Layout) -> *mut u8 {
        let p = System.alloc_zeroed(l);
        if !p.is_null() {
            grew(l.size());
        }
        p
    }
    unsafe fn dealloc(&self, p: *mut u8, l: Layout) {
        System.dealloc(p, l);
        LIVE.fetch_sub(l.size(), SeqCst);
    }
    unsafe fn realloc(&self, p: *mut u8, l: Layout, new: usize) -> *mut u8 {
        let q = System.realloc(p, l, new);
        if !q.is_null() {
            if new >= l.size() {
                grew(new - l.size());
            } else {
                LIVE.fetch_sub(l.size() - new, SeqCst);
            }
        }
        q
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

static SERIAL: Mutex<()> = Mutex::new(());

/// Every test holds this for its whole run (input construction allocates too).
fn serial() -> std::sync::MutexGuard<'static, ()> {
    SERIAL.lock().unwrap_or_else(|e| e.into_inner())
}

/// Peak extra heap bytes while `f` runs (what it allocated and had live at once).
fn peak_during<R>(f: impl FnOnce() -> R) -> (usize, R) {
    let base = LIVE.load(SeqCst);
    PEAK.store(base, SeqCst);
    let r = f();
    (PEAK.load(SeqCst).saturating_sub(base), r)
}

const MIB: usize = 1 << 20;

/// The bound for input that only *claims* to be big.
fn bound(input_len: usize) -> usize {
    64 * input_len + MIB
}

/// Decode `input` with several option sets (binary and text entry points); assert the peak
/// stays under `limit`. Returns the worst peak.
fn assert_peak(name: &str, input: &[u8], opts: &DecodeOptions, limit: usize) -> usize {
    let mut worst = 0;
    for (how, spans) in [("decode_bytes", true), ("decode_bytes", false), ("decode", true)] {
        let o = DecodeOptions { spans: spans && opts.spans, ..opts.clone() };
        let (peak, rep) = peak_during(|| if how == "decode" { decode(input, &o) } else { decode_bytes(input, &o) });
        let nbatches = rep.batches.len();
        let nrecords: usize = rep.batches.iter().map(|b| b.records.len()).sum();
        let first_error =
            rep.errors.iter().find(|e| e.severity == eoslab_core::report::Severity::Error).map(|e| e.kind);
        drop(rep);
        eprintln!(
            "{name:<40} {how:<12} spans={:<5} input {:>8} B  peak {:>10} B  ({:>6.1}× input)  batches {nbatches} records {nrecords} error {first_error:?}",
            o.spans,
            input.len(),
            peak,
            peak as f64 / input.len().max(1) as f64
        );
        assert!(
            peak <= limit,
            "{name} ({how}, spans {}): peak allocation {peak} B for a {} B input exceeds the bound {limit} B",
            o.spans,
            input.len()
        );
        worst = worst.max(peak);
    }
    worst
}

fn fix_crc(b: &mut [u8]) {
    let crc = eoslab_core::crc::crc32c(&b[21..]);
    b[17..21].copy_from_slice(&crc.to_be_bytes());
}

fn set_i32(b: &mut [u8], at: usize, v: i32) {
    b[at..at + 4].copy_from_slice(&v.to_be_bytes());
}

/// A v2 batch (61-byte header from the encoder) around a hand-made records section.
fn v2_with_body(records_count: i32, body: &[u8]) -> Vec<u8> {
    let mut b = encode_batch(&BatchSpec::default()).unwrap();
    b.truncate(61);
    b.extend_from_slice(body);
    let len = (b.len() - 12) as i32;
    set_i32(&mut b, 8, len);
    set_i32(&mut b, 57, records_count);
    fix_crc(&mut b);
    b
}

fn varint(out: &mut Vec<u8>, v: i32) {
    let mut u = ((v << 1) ^ (v >> 31)) as u32;
    while u >= 0x80 {
        out.push(u as u8 | 0x80);
        u >>= 7;
    }
    out.push(u as u8);
}

/// One record body with the given key length varint (and no key bytes behind it).
fn record_with_key_len(key_len: i32, length: i32) -> Vec<u8> {
    let mut body = vec![0u8, 0, 0]; // attributes, timestampDelta 0, offsetDelta 0
    varint(&mut body, key_len);
    let mut r = Vec::new();
    varint(&mut r, length);
    r.extend(body);
    r
}

fn spec(records: Vec<RecordSpec>, codec: &str) -> BatchSpec {
    BatchSpec {
        header: HeaderSpec {
            attributes: AttributesSpec { compression: Some(codec.into()), ..Default::default() },
            ..Default::default()
        },
        records,
        ..Default::default()
    }
}

fn legacy_v0(offset: i64, attributes: u8, value: Option<&[u8]>) -> Vec<u8> {
    let mut out = offset.to_be_bytes().to_vec();
    out.extend_from_slice(&[0; 8]);
    out.push(0);
    out.push(attributes);
    out.extend_from_slice(&(-1i32).to_be_bytes());
    match value {
        None => out.extend_from_slice(&(-1i32).to_be_bytes()),
        Some(v) => {
            out.extend_from_slice(&(v.len() as i32).to_be_bytes());
            out.extend_from_slice(v);
        }
    }
    let size = (out.len() - 12) as i32;
    set_i32(&mut out, 8, size);
    let crc = eoslab_core::crc::crc32_ieee(&out[16..]);
    out[12..16].copy_from_slice(&crc.to_be_bytes());
    out
}

#[test]
fn huge_records_count_allocates_nothing_big() {
    let _serial = serial();
    let opts = DecodeOptions::default();
    // Header only, recordsCount 2^31−1.
    let b = v2_with_body(i32::MAX, &[]);
    assert_peak("header-only, recordsCount i32::MAX", &b, &opts, bound(b.len()));
    // One real record, recordsCount 2^31−1, every codec.
    for codec in ["none", "gzip", "snappy", "lz4", "zstd"] {
        let mut b =
            encode_batch(&spec(vec![RecordSpec { value: Some("76".into()), ..Default::default() }], codec)).unwrap();
        set_i32(&mut b, 57, i32::MAX);
        fix_crc(&mut b);
        assert_peak(&format!("1 record, recordsCount i32::MAX, {codec}"), &b, &opts, bound(b.len()));
    }
}

#[test]
fn huge_lengths_allocate_nothing_big() {
    let _serial = serial();
    let opts = DecodeOptions::default();
    for (name, key_len, length) in [
        ("keyLength i32::MAX", i32::MAX, 6),
        ("keyLength i32::MAX, length i32::MAX", i32::MAX, i32::MAX),
        ("length i32::MAX", 0, i32::MAX),
        ("length i32::MIN", 0, i32::MIN),
        ("keyLength 2^30", 1 << 30, 100),
    ] {
        let mut body = record_with_key_len(key_len, length);
        body.extend(std::iter::repeat(0u8).take(64));
        let b = v2_with_body(1, &body);
        assert_peak(name, &b, &opts, bound(b.len()));
    }
    // batchLength claims 2 GiB; the input has 61 bytes.
    let mut b = v2_with_body(1, &[]);
    set_i32(&mut b, 8, i32::MAX);
    assert_peak("batchLength i32::MAX (truncated)", &b, &opts, bound(b.len()));
    // Legacy: keyLength / valueLength i32::MAX.
    let mut l = legacy_v0(0, 0, Some(b"v"));
    set_i32(&mut l, 18, i32::MAX);
    assert_peak("legacy keyLength i32::MAX", &l, &opts, bound(l.len()));
}

#[test]
fn huge_headers_count_allocates_nothing_big() {
    let _serial = serial();
    let opts = DecodeOptions::default();
    for count in [i32::MAX, 1 << 20, 60_000] {
        // A record whose headersCount is `count`, followed by 64 KiB of bytes that are not headers.
        let mut body = vec![0u8, 0, 0, 1, 1]; // attributes, tsDelta, offsetDelta, key null, value null
        varint(&mut body, count);
        body.extend(std::iter::repeat(0x80u8).take(64 << 10));
        let mut rec = Vec::new();
        varint(&mut rec, body.len() as i32);
        rec.extend(body);
        let b = v2_with_body(1, &rec);
        assert_peak(&format!("headersCount {count}"), &b, &opts, bound(b.len()));
    }
}

#[test]
fn repeated_legacy_entries_and_wrappers_stay_bounded() {
    let _serial = serial();
    let opts = DecodeOptions::default();
    // 10 000 back-to-back minimal v0 messages (26 bytes each).
    let one = legacy_v0(0, 0, None);
    let many: Vec<u8> = one.iter().copied().cycle().take(one.len() * 10_000).collect();
    assert_peak("10k legacy v0 messages", &many, &opts, bound(many.len()));
    // A gzip wrapper whose inner set is 2 000 wrappers (each rejected: no recursion).
    let inner_wrapper = legacy_v0(0, 1, Some(&[0u8; 32]));
    let set: Vec<u8> = inner_wrapper.iter().copied().cycle().take(inner_wrapper.len() * 2_000).collect();
    let z = eoslab_core::compression::compress(eoslab_core::compression::Codec::Gzip, &set, 0);
    let w = legacy_v0(0, 1, Some(&z));
    let small = DecodeOptions { max_decompressed: 256 << 10, ..opts.clone() };
    assert_peak("gzip wrapper of 2k wrappers", &w, &small, bound(w.len()) + 4 * small.max_decompressed);
}

/// Many tiny entries/records: the report is proportional to what the input *has*. Spans cost
/// the most (one named `Field` per record field); this pins the amplification factor.
#[test]
fn dense_inputs_stay_within_a_fixed_multiple() {
    let _serial = serial();
    let opts = DecodeOptions::default();
    // 5 000 empty v2 batches back to back.
    let empty = encode_batch(&BatchSpec::default()).unwrap();
    let seg: Vec<u8> = empty.iter().copied().cycle().take(empty.len() * 5_000).collect();
    assert_peak("5k empty v2 batches", &seg, &opts, bound(seg.len()));
    // One batch of 20 000 minimal records (7 bytes each).
    let recs = vec![RecordSpec::default(); 20_000];
    let b = encode_batch(&spec(recs, "none")).unwrap();
    assert_peak("20k minimal records", &b, &opts, 256 * b.len() + MIB);
    // One record with 20 000 empty headers (2 bytes each).
    let hdrs = vec![HeaderKvSpec { key: String::new(), value: None, value_text: None }; 20_000];
    let b = encode_batch(&spec(vec![RecordSpec { headers: hdrs, ..Default::default() }], "none")).unwrap();
    assert_peak("1 record, 20k empty headers", &b, &opts, 256 * b.len() + MIB);
}

/// Compressed input: the decompressed size is capped by `max_decompressed`; what is decoded
/// from it must stay proportional to the cap, not to what the records claim.
#[test]
fn compression_bombs_are_capped() {
    let _serial = serial();
    let cap = 256 << 10;
    let opts = DecodeOptions { max_decompressed: cap, ..DecodeOptions::default() };
    for codec in ["gzip", "snappy", "lz4", "zstd"] {
        // 8 MiB of value bytes compress to a few KiB; the cap stops decompression.
        let big = RecordSpec { value: Some("00".repeat(8 << 20)), ..Default::default() };
        let b = encode_batch(&spec(vec![big], codec)).unwrap();
        assert_peak(&format!("8 MiB value bomb, {codec}"), &b, &opts, bound(b.len()) + 4 * cap);
    }
}

/// A compressed batch of minimal records (8 bytes each once decompressed) that decompresses
/// to just under `cap`: a few hundred input bytes.
fn compressed_dense(codec: &str, cap: usize) -> Vec<u8> {
    let n = (cap - 1024) / 8;
    let recs = vec![RecordSpec { offset_delta: Some(0), ..Default::default() }; n];
    encode_batch(&spec(recs, codec)).unwrap()
}

/// The report's cost per decompressed byte, pinned at today's level (≈110× the decompressed
/// size with spans, ≈15× without): a regression past it fails here.
#[test]
fn compressed_dense_records_stay_within_a_multiple_of_the_cap() {
    let _serial = serial();
    let cap = 256 << 10;
    let opts = DecodeOptions { max_decompressed: cap, ..DecodeOptions::default() };
    for codec in ["gzip", "zstd"] {
        let b = compressed_dense(codec, cap);
        assert_peak(&format!("dense records under the cap, {codec}"), &b, &opts, bound(b.len()) + 128 * cap);
    }
}

/// What `read/decode` (`eoslab_core::decode`) promises ("allocation is bounded by a small multiple of the input plus
/// `max_decompressed` per compressed batch") does not hold today: a 244-byte zstd batch
/// decoded with a 256 KiB cap allocates ~28 MB (~110× the cap), so with the default 64 MiB
/// cap a ~2 KB input asks for ~7 GB. Reported to the core owner; un-ignore once the report
/// is budgeted against the decompressed bytes.
#[test]
fn compressed_dense_records_are_bounded_by_a_small_multiple_of_the_cap() {
    let _serial = serial();
    let cap = 256 << 10;
    let opts = DecodeOptions { max_decompressed: cap, ..DecodeOptions::default() };
    for codec in ["gzip", "zstd"] {
        let b = compressed_dense(codec, cap);
        assert_peak(&format!("dense records under the cap, {codec}"), &b, &opts, bound(b.len()) + 8 * cap);
    }
}
