//! Allocation bound: decoding hostile input must not allocate in proportion to what the
//! input *claims* (recordsCount, lengths, headersCount of 2^31), only to what it *has*.
//!
//! A counting `#[global_allocator]` (its own test binary, so other tests are unaffected)
//! tracks the peak of live heap bytes (and the total bytes asked for) while one decode runs.
//! Tests are serialized with a mutex so the peak belongs to the decode being measured.
//!
//! Besides record batches: whole requests/responses (`message::decode_messages*`) and
//! a partition directory's files (the `.index`/`.timeindex`/`.txnindex`/`.snapshot`/checkpoint
//! decoders, `kafka-dump-log` rendering, `files::partition::load` + its text and script), on
//! Kafka's own golden bytes and on mutations of them (cuts, corrupt bytes, lengths and counts of
//! 2^31-1 stamped at every position).

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering::SeqCst};
use std::sync::Mutex;

use eoslab_core::encode::{AttributesSpec, HeaderKvSpec, HeaderSpec, RecordSpec};
use eoslab_core::{decode, decode_bytes, encode_batch, BatchSpec, DecodeOptions};

struct Counting;

static LIVE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);
/// Every byte asked for (allocations, and the growth of reallocations), never decreasing.
static TOTAL: AtomicUsize = AtomicUsize::new(0);

fn grew(n: usize) {
    TOTAL.fetch_add(n, SeqCst);
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

// ---------------------------------------------------------------------------------------
// Requests/responses and partition files

/// (peak live, total asked for) extra heap bytes while `f` runs.
fn measure<R>(f: impl FnOnce() -> R) -> (usize, usize, R) {
    let base = LIVE.load(SeqCst);
    PEAK.store(base, SeqCst);
    let total = TOTAL.load(SeqCst);
    let r = f();
    (PEAK.load(SeqCst).saturating_sub(base), TOTAL.load(SeqCst) - total, r)
}

/// The worst ratios seen by a test, printed at its end (`--nocapture`) so the constants below
/// can be checked against what is measured.
#[derive(Default)]
struct Worst {
    runs: usize,
    /// Inputs shorter than this count as small.
    small_below: usize,
    /// Worst peak and total per input byte over the inputs that are not small (for those the
    /// fixed part dominates the ratio) …
    peak: (f64, String),
    total: (f64, String),
    /// … and the largest absolute peak and total over the small ones.
    small: (usize, usize, String),
}

impl Worst {
    /// Measure `f` on an input of `len` bytes; assert peak ≤ `peak_k`·len + `fixed` and total
    /// ≤ `total_k`·len + `fixed`.
    fn check<R>(&mut self, name: &str, len: usize, (peak_k, total_k, fixed): (usize, usize, usize), f: impl FnOnce() -> R) {
        let (peak, total, r) = measure(f);
        drop(r);
        self.runs += 1;
        let (p, t) = (peak as f64 / len.max(1) as f64, total as f64 / len.max(1) as f64);
        if len < self.small_below {
            if peak.max(total) > self.small.0.max(self.small.1) {
                self.small = (peak, total, format!("{name}, {len} B"));
            }
        } else {
            if p > self.peak.0 {
                self.peak = (p, format!("{name}: peak {peak} B for {len} B"));
            }
            if t > self.total.0 {
                self.total = (t, format!("{name}: total {total} B for {len} B"));
            }
        }
        assert!(peak <= peak_k * len + fixed, "{name}: peak {peak} B for a {len} B input exceeds {peak_k}×{len} + {fixed}");
        assert!(total <= total_k * len + fixed, "{name}: total {total} B allocated for a {len} B input exceeds {total_k}×{len} + {fixed}");
    }

    fn report(&self, what: &str) {
        eprintln!(
            "{what}: {} runs; inputs ≥ {} B: worst peak {:.1}× ({}), worst total {:.1}× ({}); smaller inputs: largest peak {} B, total {} B ({})",
            self.runs, self.small_below, self.peak.0, self.peak.1, self.total.0, self.total.1, self.small.0, self.small.1, self.small.2
        );
        assert!(self.runs > 0);
    }
}

fn fixtures_dir(name: &str) -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/fixtures").join(name)
}

/// Mutations of `bytes`: prefixes, single corrupt bytes, and at every (strided) position an
/// int32 2^31-1 (a classic array/bytes length or an entry count), an int16 0x7fff (a classic
/// string length) and the unsigned varint 2^31 (a compact length of 2^31-1).
fn mutations(bytes: &[u8]) -> Vec<(String, Vec<u8>)> {
    let mut out = vec![(String::from("as is"), bytes.to_vec())];
    let step = (bytes.len() / 61).max(1);
    for i in (0..bytes.len()).step_by(step) {
        out.push((format!("cut at {i}"), bytes[..i].to_vec()));
        for v in [0x00u8, 0x80, 0xff] {
            let mut b = bytes.to_vec();
            b[i] = v;
            out.push((format!("byte {i} = {v:#x}"), b));
        }
        let mut b = bytes.to_vec();
        let n = (b.len() - i).min(4);
        b[i..i + n].copy_from_slice(&0x7fff_ffffi32.to_be_bytes()[..n]);
        out.push((format!("int32 2^31-1 at {i}"), b));
        let mut b = bytes.to_vec();
        let n = (b.len() - i).min(2);
        b[i..i + n].copy_from_slice(&0x7fffi16.to_be_bytes()[..n]);
        out.push((format!("int16 0x7fff at {i}"), b));
        let mut b = bytes.to_vec();
        let n = (b.len() - i).min(5);
        b[i..i + n].copy_from_slice(&[0xff, 0xff, 0xff, 0xff, 0x07][..n]);
        out.push((format!("uvarint 2^31 at {i}"), b));
    }
    out
}

fn unhex(s: &str) -> Vec<u8> {
    let s = s.trim();
    (0..s.len()).step_by(2).map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap()).collect()
}

/// Requests and responses: the bound holds on every golden envelope of
/// tests/fixtures/envelopes-4.3.1 (written by Kafka 4.3.1's own serializers), on all the golden
/// requests back to back (a TCP stream of ~2.3 KB), and on ~370 mutations of each, read as bytes
/// (auto framing; responses also with their api key and version given) and as hex text.
///
/// Constants, from measurement (`cargo test -p eoslab-core --test alloc_bound -- --nocapture
/// envelopes`, 2026-12-04, this machine): over inputs of at least 1 KiB the worst peak was 79×
/// the input and the worst total 86× (the stream cut at ~1 KB: every message's tree, the
/// `records` batch reports, the issues); below 1 KiB the largest peak was 75 KB and total 80 KB
/// (the fixed parts of a report: a cut Fetch response of 132 bytes still allocates 15 KB).
/// The bound is 128× + 64 KiB peak and 256× + 64 KiB total (~1.6× and ~3× above the worst
/// measured). An array length of 2^31-1 reserving its elements would need gigabytes. Dense
/// `records` (many tiny records) cost what the batch decoder's own bounds above allow.
#[test]
fn envelopes_allocate_within_a_multiple_of_the_input() {
    use eoslab_core::message::{decode_messages, decode_messages_bytes, MessageOptions};
    let _serial = serial();
    const K: (usize, usize, usize) = (128, 256, 64 << 10);
    let mut names: Vec<_> = std::fs::read_dir(fixtures_dir("envelopes-4.3.1"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "hex"))
        .collect();
    names.sort();
    assert!(names.len() >= 20, "{names:?}");
    let mut w = Worst { small_below: 1024, ..Worst::default() };
    let mut stream = Vec::new();
    for p in names {
        let name = p.file_stem().unwrap().to_string_lossy().into_owned();
        let want: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(p.with_extension("json")).unwrap()).unwrap();
        let mut given = MessageOptions::default();
        if want["kind"] == "response" {
            given.api_key = Some(want["apiKey"].as_i64().unwrap() as i16);
            given.api_version = Some(want["version"].as_i64().unwrap() as i16);
        }
        let bytes = unhex(&std::fs::read_to_string(&p).unwrap());
        if want["kind"] == "request" {
            stream.extend_from_slice(&bytes);
        }
        for (m, b) in mutations(&bytes) {
            w.check(&format!("{name} {m} (bytes)"), b.len(), K, || decode_messages_bytes(&b, &MessageOptions::default()));
            w.check(&format!("{name} {m} (bytes, api given)"), b.len(), K, || decode_messages_bytes(&b, &given));
        }
        let text: String = bytes.iter().map(|x| format!("{x:02x}")).collect();
        w.check(&format!("{name} (hex text)"), bytes.len(), K, || decode_messages(text.as_bytes(), &given));
    }
    // Every golden request back to back (a TCP stream), as is and mutated.
    for (m, b) in mutations(&stream) {
        w.check(&format!("all requests, a stream {m}"), b.len(), K, || decode_messages_bytes(&b, &MessageOptions::default()));
    }
    // The brief's case on its own: a Produce v3 request whose topicData array claims 2^31-1
    // elements (Kafka: "Tried to allocate a collection of size 2147483647, …").
    let mut req = unhex(&std::fs::read_to_string(fixtures_dir("envelopes-4.3.1").join("produce-v3-request.hex")).unwrap());
    let body = decode_messages_bytes(&req, &MessageOptions::default()).messages[0].body.clone().unwrap();
    let at = body.child("topicData").unwrap().start;
    req[at..at + 4].copy_from_slice(&i32::MAX.to_be_bytes());
    let (peak, _, r) = measure(|| decode_messages_bytes(&req, &MessageOptions::default()));
    assert!(r.errors[0].message.starts_with("Tried to allocate a collection of size 2147483647"), "{:?}", r.errors);
    assert!(peak <= K.0 * req.len() + K.2, "{peak}");
    w.report("envelopes");
}

/// A partition directory's files: every file of tests/fixtures/kafka-4.3.1 (a real broker's) and
/// mutations of it, through its decoder, `kafka-dump-log` with every option that changes what is
/// rendered (`--print-data-log`, `--deep-iteration`, the internal-topic decoders,
/// `--index-sanity-check`, `--verify-index-only`), and the whole directory (with that one file
/// mutated) through `files::partition::load`, `render` and `simulator_script`. The input length
/// is every byte handed in (the file and the siblings it reads).
///
/// Constants, from measurement (`cargo test -p eoslab-core --test alloc_bound -- --nocapture
/// partition`, 2026-12-04, this machine, after the `.timeindex` dump stopped decoding the whole
/// rest of the log per entry): over inputs of at least 1 KiB the worst peak was 7.8× the input
/// and the worst total 45× (kafka-dump-log `--print-data-log --transaction-log-decoder` of a
/// mutated `__transaction_state` segment: a text line per record); below 1 KiB the largest
/// peak was 2.28 MB and total 2.40 MB, all of it the zstd batch of compressed-0: Kafka's
/// zstd-jni frame declares a 2 MiB window, which the decoder reserves (the core caps a window
/// at max(min(max_decompressed, 32 KiB per frame byte), 128 KiB), so this is the frame's own
/// window, not a claim). The bound is 32× + 4 MiB peak and 128× + 4 MiB total (~4× and ~3×
/// above the worst measured; the fixed 4 MiB is one such window at a time, and the one zstd
/// batch of these fixtures decoded once or twice in a run). An entry count of 2^31-1
/// (snapshot producerEntries, a checkpoint's count line) used to size anything would cost
/// gigabytes.
#[test]
fn partition_files_allocate_within_a_multiple_of_the_input() {
    use eoslab_core::files::checkpoint::{parse_leader_epoch_checkpoint, parse_partition_metadata};
    use eoslab_core::files::dump::{DumpInput, DumpLog, DumpOptions};
    use eoslab_core::files::index::{OffsetIndex, OffsetIndexRepr};
    use eoslab_core::files::partition::{self, DirFile};
    use eoslab_core::files::snapshot::SnapshotRepr;
    use eoslab_core::files::timeindex::{TimeIndex, TimeIndexRepr};
    use eoslab_core::files::txnindex::TransactionIndex;
    use eoslab_core::internal::InternalTopic;
    let _serial = serial();
    const K: (usize, usize, usize) = (32, 128, 4 << 20);
    let root = fixtures_dir("kafka-4.3.1");
    let mut dirs: Vec<_> = std::fs::read_dir(&root).unwrap().map(|e| e.unwrap().path()).filter(|p| p.is_dir()).collect();
    dirs.sort();
    let mut w = Worst { small_below: 1024, ..Worst::default() };
    for dir in dirs {
        let dname = dir.file_name().unwrap().to_string_lossy().into_owned();
        let decoder = if dname.starts_with("__transaction_state-") {
            Some(InternalTopic::TransactionState)
        } else if dname.starts_with("__consumer_offsets-") {
            Some(InternalTopic::ConsumerOffsets)
        } else {
            None
        };
        let mut files: Vec<(String, Vec<u8>)> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| !p.to_string_lossy().ends_with(".txt"))
            .map(|p| (p.file_name().unwrap().to_string_lossy().into_owned(), std::fs::read(&p).unwrap()))
            .collect();
        files.sort();
        let sibling = |ext: &str| files.iter().find(|(n, _)| n.ends_with(ext)).map(|(_, b)| b.clone()).unwrap_or_default();
        let (log, index) = (sibling(".log"), sibling(".index"));
        for (fi, (fname, fbytes)) in files.iter().enumerate() {
            let base = fname.split('.').next().unwrap().parse::<i64>().unwrap_or(0);
            for (m, b) in mutations(fbytes) {
                let what = format!("{dname}/{fname} {m}");
                // The file's own decoder.
                let n = b.len();
                if fname.ends_with(".index") {
                    w.check(&format!("{what}: OffsetIndex"), n, K, || OffsetIndexRepr::parse(&OffsetIndex::new(&b[..], base)));
                } else if fname.ends_with(".timeindex") {
                    w.check(&format!("{what}: TimeIndex"), n, K, || TimeIndexRepr::parse(&TimeIndex::new(&b[..], base)));
                } else if fname.ends_with(".txnindex") {
                    w.check(&format!("{what}: TransactionIndex"), n, K, || TransactionIndex::new(&b[..], base).all_aborted_txns("p"));
                } else if fname.ends_with(".snapshot") {
                    w.check(&format!("{what}: snapshot"), n, K, || SnapshotRepr::parse(&b));
                } else if fname == "leader-epoch-checkpoint" {
                    w.check(&format!("{what}: checkpoint"), n, K, || parse_leader_epoch_checkpoint(&b, "p"));
                } else if fname == "partition.metadata" {
                    w.check(&format!("{what}: partition.metadata"), n, K, || parse_partition_metadata(&b, "p"));
                }
                // kafka-dump-log over it (an index reads the sibling .log, a time index the .index too;
                // the mutated file stands in for its sibling when it is one).
                let (l, ix): (&[u8], &[u8]) =
                    (if fname.ends_with(".log") { &b } else { &log }, if fname.ends_with(".index") { &b } else { &index });
                let n_dump = b.len() + if fname.ends_with(".log") { 0 } else { l.len() } + if fname.ends_with(".timeindex") { ix.len() } else { 0 };
                for opts in [
                    DumpOptions { print_data_log: true, deep_iteration: true, decoder, ..DumpOptions::default() },
                    DumpOptions::default(),
                    DumpOptions { index_sanity_check: true, ..DumpOptions::default() },
                    DumpOptions { verify_index_only: true, ..DumpOptions::default() },
                ] {
                    w.check(&format!("{what}: dump-log {opts:?}"), n_dump, K, || {
                        let mut d = DumpLog::new(opts);
                        let path = format!("{dname}/{fname}");
                        d.dump(&DumpInput { path: &path, absolute_path: &path, bytes: Ok(&b), log: Some(Ok(l)), index: Some(Ok(ix)) });
                        d.finish();
                        d
                    });
                }
                // The whole directory, this file mutated.
                let dir_files: Vec<DirFile<'_>> = files
                    .iter()
                    .enumerate()
                    .map(|(i, (name, bytes))| DirFile { name, bytes: if i == fi { &b } else { bytes } })
                    .collect();
                let n_dir: usize = dir_files.iter().map(|f| f.bytes.len()).sum();
                w.check(&format!("{what}: partition load"), n_dir, K, || {
                    let p = partition::load(&dir_files);
                    let text = partition::render(&p);
                    let script = partition::simulator_script(&p, "alloc");
                    (p, text, script)
                });
            }
        }
    }
    // A checkpoint whose entry count line says 2^31-1 (Java's `new ArrayList<>(expectedSize)`
    // would reserve it): text, so the byte mutations above do not write it.
    let cp = b"0\n2147483647\n0 0\n3 17\n".to_vec();
    w.check("leader-epoch-checkpoint, count 2^31-1", cp.len(), K, || parse_leader_epoch_checkpoint(&cp, "p"));
    let dir_files = [DirFile { name: "leader-epoch-checkpoint", bytes: &cp }];
    w.check("a directory of that checkpoint", cp.len(), K, || partition::render(&partition::load(&dir_files)));
    w.report("partition files");
}


/// A segment of `n` one-record batches (offsets 0..n, timestamps 1000+i) with an index and a
/// time index entry for every batch (`index.interval.bytes=1`, as the broker fixtures).
fn indexed_segment(n: usize) -> (Vec<u8>, Vec<u8>, Vec<u8>) {
    use eoslab_core::encode::I64;
    use eoslab_core::files::index::{OffsetIndexRepr, OffsetPosition};
    use eoslab_core::files::timeindex::{TimeIndexRepr, TimestampOffset};
    let (mut log, mut ix, mut tix) = (Vec::new(), Vec::new(), Vec::new());
    for i in 0..n {
        let spec = BatchSpec {
            header: HeaderSpec { base_offset: Some(I64(i as i64)), base_timestamp: Some(I64(1000 + i as i64)), ..Default::default() },
            records: vec![RecordSpec { value: Some("76".into()), ..Default::default() }],
            ..Default::default()
        };
        ix.push(OffsetPosition { offset: i as i64, position: log.len() as i32 });
        tix.push(TimestampOffset { timestamp: 1000 + i as i64, offset: i as i64 });
        log.extend(encode_batch(&spec).unwrap());
    }
    let ix = OffsetIndexRepr { base_offset: 0, entries: ix, trailing_bytes: 0 }.emit();
    let tix = TimeIndexRepr { base_offset: 0, entries: tix, trailing_bytes: 0 }.emit();
    (log, ix, tix)
}

/// kafka-dump-log of a `.timeindex` looks each entry's batch up from the index position, as
/// Kafka does (`fileRecords.slice(position, …).batches()`, a shallow walk to the first batch whose
/// last offset reaches the entry, then that batch's records). Decoding everything from the
/// position to the end for every entry (and keeping it) was quadratic: 400 batches, ~28 KB,
/// peaked at hundreds of MB.
#[test]
fn time_index_dump_is_linear_in_the_segment() {
    use eoslab_core::files::dump::{DumpInput, DumpLog, DumpOptions};
    let _serial = serial();
    for n in [50usize, 400] {
        let (log, ix, tix) = indexed_segment(n);
        let len = log.len() + ix.len() + tix.len();
        let (peak, total, d) = measure(|| {
            let mut d = DumpLog::new(DumpOptions::default());
            let path = "p/00000000000000000000.timeindex";
            d.dump(&DumpInput { path, absolute_path: path, bytes: Ok(&tix), log: Some(Ok(&log)), index: Some(Ok(&ix)) });
            d.finish();
            d
        });
        assert!(d.failed().is_none(), "{:?}", d.failed());
        assert_eq!(d.lines().len(), n + 1, "{:?}", &d.lines()[..3]);
        assert!(d.lines().iter().all(|(s, _)| *s == eoslab_core::files::dump::Stream::Out), "{:?}", d.lines());
        eprintln!("timeindex of {n} batches ({len} B): peak {peak} B ({:.1}×), total {total} B ({:.1}×)", peak as f64 / len as f64, total as f64 / len as f64);
        assert!(peak <= 64 * len + MIB, "{n} batches, {len} B: peak {peak} B");
        assert!(total <= 512 * len + MIB, "{n} batches, {len} B: total {total} B");
    }
}
