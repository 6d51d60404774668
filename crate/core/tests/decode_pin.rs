//! The decode pin: the report JSON (`eoslab decode --json`, the wasm `decode`) of every input of
//! the test corpus, so a refactor of the codec is shown byte-identical.
//!
//! Corpus: the golden vectors of `tests/golden.rs` (read from that file, so there is one copy),
//! the differential-test segments (`tests/fixtures/diff`, see its README), the fuzz and
//! property-test regressions (`tests/fixtures/fuzz`) and every `.log` of the Kafka 4.3.1 broker
//! fixtures (`../../tests/fixtures/kafka-4.3.1`), the internal topics also with their formatter.
//! Each input is decoded with `decode` (text detection first, as the CLI and the page do) under
//! the default options, and once more with records off and once with spans off and the
//! decompressed bytes in.
//!
//! Besides, every golden vector and legacy message set (plain, in a wrapper of each codec, and
//! wrappers of damaged inner sets) is damaged byte by byte and the reports of all those inputs
//! are pinned together (`snapshots/decode_pin__damaged.snap`), so the fault paths are pinned too.
//!
//! The snapshot (`snapshots/decode_pin__corpus.snap`) holds one line per input and option set:
//! the JSON's length and FNV-1a-64 digest, with the batch and issue counts. When it changes,
//! compare the JSON itself: `DECODE_PIN_DUMP=/tmp/after cargo test -p eoslab-core --test
//! decode_pin` writes every report, and the same on the previous commit gives the "before".

mod common;

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use eoslab_core::compression::{compress, Codec};
use eoslab_core::internal::InternalTopic;
use eoslab_core::{decode, decode_bytes, encode_batch, BatchSpec, DecodeOptions};

fn hex(s: &str) -> Vec<u8> {
    eoslab_core::encode::parse_hex(s).unwrap()
}

/// The `const NAME: &str = "…";` hex vectors of golden.rs and its compressed variants
/// (built as golden.rs's `compressed_batch` builds them), in file order.
fn golden() -> Vec<(String, Vec<u8>)> {
    let src = include_str!("golden.rs");
    let mut out = Vec::new();
    let mut rest = src;
    while let Some(i) = rest.find("\nconst ") {
        rest = &rest[i + 7..];
        let name = &rest[..rest.find(':').unwrap()];
        let decl_end = rest.find(';').unwrap();
        let decl = &rest[..decl_end];
        if decl.starts_with(&format!("{name}: &str =")) {
            let q = decl.find('"').unwrap();
            let lit = &decl[q + 1..decl.rfind('"').unwrap()];
            out.push((format!("golden/{name}"), hex(lit)));
        }
    }
    let example_a = out.iter().find(|(n, _)| n == "golden/EXAMPLE_A").expect("EXAMPLE_A in golden.rs").1.clone();
    let table = &src[src.find("const COMPRESSED").expect("COMPRESSED in golden.rs")..];
    let table = &table[..table.find("];").unwrap()];
    for (i, line) in table.lines().filter(|l| l.trim_start().starts_with("(\"")).enumerate() {
        // ("codec", attr, len, 0xCRC, "section"),
        let inner = line.trim().trim_start_matches('(').trim_end_matches("),");
        let parts: Vec<&str> = inner.splitn(5, ", ").collect();
        let codec = parts[0].trim_matches('"');
        let attr: u16 = parts[1].parse().unwrap();
        let len: i32 = parts[2].parse().unwrap();
        let crc = u32::from_str_radix(&parts[3].trim_start_matches("0x").replace('_', ""), 16).unwrap();
        let mut b = example_a[..61].to_vec();
        b[8..12].copy_from_slice(&len.to_be_bytes());
        b[17..21].copy_from_slice(&crc.to_be_bytes());
        b[21..23].copy_from_slice(&attr.to_be_bytes());
        b.extend(hex(parts[4].trim_matches('"')));
        assert_eq!(b.len(), len as usize + 12, "{line}");
        out.push((format!("golden/COMPRESSED[{i}]-{codec}"), b));
    }
    // golden.rs's segment_of_all_examples_reports_each_byte_range
    let seg: Vec<u8> = ["EXAMPLE_A", "EXAMPLE_B", "LEGACY_V1", "EXAMPLE_C"]
        .iter()
        .flat_map(|n| out.iter().find(|(m, _)| m == &format!("golden/{n}")).unwrap().1.clone())
        .collect();
    out.push(("golden/segment-A-B-LEGACY_V1-C".into(), seg));
    assert!(out.len() >= 11, "golden.rs vectors not found: {:?}", out.iter().map(|o| &o.0).collect::<Vec<_>>());
    out
}

fn dir_files(dir: &Path, ext: &str) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_file() && p.extension().is_some_and(|x| x == ext))
        .collect();
    v.sort();
    v
}

/// Every corpus input: (name, bytes, formatter to try as well).
fn corpus() -> Vec<(String, Vec<u8>, Option<InternalTopic>)> {
    let here = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut out: Vec<(String, Vec<u8>, Option<InternalTopic>)> = golden().into_iter().map(|(n, b)| (n, b, None)).collect();
    for sub in ["diff", "fuzz"] {
        let files = dir_files(&here.join("tests/fixtures").join(sub), "bin");
        assert!(!files.is_empty() || sub == "fuzz", "tests/fixtures/{sub} is empty");
        for p in files {
            let name = format!("{sub}/{}", p.file_name().unwrap().to_string_lossy());
            out.push((name, std::fs::read(&p).unwrap(), None));
        }
    }
    let kafka = here.join("../../tests/fixtures/kafka-4.3.1");
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(&kafka).unwrap().map(|e| e.unwrap().path()).filter(|p| p.is_dir()).collect();
    dirs.sort();
    for d in dirs {
        let part = d.file_name().unwrap().to_string_lossy().into_owned();
        let formatter = if part.starts_with("__transaction_state") {
            Some(InternalTopic::TransactionState)
        } else if part.starts_with("__consumer_offsets") {
            Some(InternalTopic::ConsumerOffsets)
        } else {
            None
        };
        for p in dir_files(&d, "log") {
            out.push((format!("kafka-4.3.1/{part}/{}", p.file_name().unwrap().to_string_lossy()), std::fs::read(&p).unwrap(), formatter));
        }
    }
    out
}

/// A legacy wrapper message (magic 0/1) whose value is `inner` compressed with `codec`,
/// its CRC right (`LegacyRecord.write`).
fn legacy_wrapper(magic: u8, codec: Codec, offset: i64, inner: &[u8]) -> Vec<u8> {
    let value = compress(codec, inner, magic);
    let mut m = Vec::new();
    m.extend_from_slice(&offset.to_be_bytes());
    m.extend_from_slice(&[0; 8]);
    m.push(magic);
    m.push(codec.id());
    if magic == 1 {
        m.extend_from_slice(&1_700_000_000_000i64.to_be_bytes());
    }
    m.extend_from_slice(&(-1i32).to_be_bytes());
    m.extend_from_slice(&(value.len() as i32).to_be_bytes());
    m.extend_from_slice(&value);
    let size = (m.len() - 12) as i32;
    m[8..12].copy_from_slice(&size.to_be_bytes());
    let crc = eoslab_core::crc::crc32_ieee(&m[16..]);
    m[12..16].copy_from_slice(&crc.to_be_bytes());
    m
}

/// Inputs whose every byte is damaged in turn (each one decoded, pinned together): the
/// golden v2 batches and legacy messages, legacy wrappers of every codec magic 0/1 allow, and
/// wrappers whose decompressed inner set is damaged (the deep-iteration faults).
fn mutant_sources() -> Vec<(String, Vec<Vec<u8>>)> {
    let mut out = Vec::new();
    let flips = |b: &[u8]| -> Vec<Vec<u8>> {
        let mut v = Vec::new();
        for i in 0..b.len() {
            for x in [0x80u8, 0xff] {
                let mut m = b.to_vec();
                m[i] ^= x;
                v.push(m);
            }
        }
        v
    };
    for (name, b) in golden().into_iter().filter(|(n, _)| !n.contains("segment")) {
        out.push((format!("mutants of {name}"), flips(&b)));
    }
    for magic in [0i8, 1] {
        // three plain messages, offsets 100..102: an inner set as a v0 wrapper holds it (absolute
        // offsets), and for v1 the wrapper offset 102 makes them relative 0..2 by subtraction
        let spec: BatchSpec = serde_json::from_value(serde_json::json!({
            "magic": magic,
            "header": {"baseOffset": "100"},
            "records": [
                {"timestamp": "1700000000000", "keyText": "k", "valueText": "v"},
                {"timestamp": "1700000000001", "valueText": "w"},
                {"timestamp": "1700000000002", "keyText": "x"}
            ]
        }))
        .unwrap();
        let plain = encode_batch(&spec).unwrap();
        out.push((format!("mutants of legacy v{magic} plain set"), flips(&plain)));
        for codec in [Codec::Gzip, Codec::Snappy, Codec::Lz4] {
            let mut s = spec.clone();
            s.header.attributes.compression = Some(codec.name().into());
            let wrapped = encode_batch(&s).unwrap();
            out.push((format!("mutants of legacy v{magic} {} wrapper", codec.name()), flips(&wrapped)));
        }
        let mut deep = Vec::new();
        for i in 0..plain.len() {
            let mut inner = plain.clone();
            inner[i] ^= 0x80;
            deep.push(legacy_wrapper(magic as u8, Codec::Gzip, 102, &inner));
            deep.push(legacy_wrapper(magic as u8, Codec::Gzip, if magic == 1 { 1 } else { 102 }, &inner[..i]));
        }
        out.push((format!("legacy v{magic} gzip wrappers of damaged inner sets"), deep));
    }
    out
}

#[test]
fn decode_report_json_of_damaged_inputs_is_pinned() {
    let d = DecodeOptions::default();
    let mut lines = String::new();
    for (name, inputs) in mutant_sources() {
        for (label, opts) in [("default", d.clone()), ("spans=false,decompressed", DecodeOptions { spans: false, include_decompressed: true, ..d.clone() })] {
            let mut h = 0xcbf2_9ce4_8422_2325u64;
            let (mut issues, mut bytes) = (0usize, 0usize);
            for b in &inputs {
                let json = serde_json::to_string(&decode_bytes(b, &opts)).unwrap();
                h = fnv1a64_from(h, json.as_bytes());
                bytes += json.len();
                issues += serde_json::from_str::<serde_json::Value>(&json).unwrap()["errors"].as_array().unwrap().len();
            }
            writeln!(lines, "{name} [{label}]: {} inputs -> json {bytes} bytes fnv {h:016x}, {issues} issues", inputs.len()).unwrap();
        }
    }
    insta::assert_snapshot!("damaged", lines);
}

/// The same damaged inputs and the corpus through `view::columns` (the inspector's bulk
/// path), pinned by the digest of each source's `Columns` (`Debug` form).
#[test]
fn columns_of_damaged_inputs_and_the_corpus_are_pinned() {
    let mut lines = String::new();
    let mut sources = mutant_sources();
    sources.extend(corpus().into_iter().map(|(n, b, _)| (n, vec![b])));
    for (name, inputs) in sources {
        let mut h = 0xcbf2_9ce4_8422_2325u64;
        let mut errors = 0;
        for b in &inputs {
            let c = eoslab_core::columns::columns(b, 64 << 20);
            errors += c.errors.len();
            h = fnv1a64_from(h, format!("{c:?}").as_bytes());
        }
        writeln!(lines, "{name}: {} inputs -> fnv {h:016x}, {errors} errors", inputs.len()).unwrap();
    }
    insta::assert_snapshot!("columns", lines);
}

/// The encoder pinned: every batch of the corpus and of the damaged inputs that decodes
/// without an error, turned back into a spec (`common::spec_of_report`, as the round-trip
/// tests do) and encoded again, with each codec and as magic 0/1 too; the digest of all
/// outputs (or errors) per source.
#[test]
fn encode_of_the_corpus_is_pinned() {
    let mut lines = String::new();
    let mut sources = mutant_sources();
    sources.extend(corpus().into_iter().map(|(n, b, _)| (n, vec![b])));
    for (name, inputs) in sources {
        let mut h = 0xcbf2_9ce4_8422_2325u64;
        let mut n = 0;
        for b in &inputs {
            let rep = decode_bytes(b, &DecodeOptions::default());
            for (i, bt) in rep.batches.iter().enumerate() {
                if rep.errors.iter().any(|e| e.batch == Some(i) && e.severity == eoslab_core::report::Severity::Error) || bt.truncated {
                    continue;
                }
                let spec = common::spec_of_report(bt);
                let mut variants = vec![spec.clone()];
                for codec in ["none", "gzip", "snappy", "lz4", "zstd"] {
                    let mut s = spec.clone();
                    s.header.attributes.compression = Some(codec.into());
                    variants.push(s.clone());
                    if codec == "snappy" {
                        s.snappy_framing = Some("raw".into());
                        variants.push(s.clone());
                    }
                    for magic in [0i8, 1] {
                        let mut m = s.clone();
                        m.magic = Some(magic);
                        m.control = None;
                        variants.push(m);
                    }
                }
                for v in &variants {
                    let out = match encode_batch(v) {
                        Ok(bytes) => bytes,
                        Err(e) => e.0.into_bytes(),
                    };
                    h = fnv1a64_from(h, &out);
                    n += 1;
                }
            }
        }
        writeln!(lines, "{name}: {n} encodings -> fnv {h:016x}").unwrap();
    }
    insta::assert_snapshot!("encode", lines);
}

fn fnv1a64_from(h: u64, b: &[u8]) -> u64 {
    b.iter().fold(h, |h, &x| (h ^ x as u64).wrapping_mul(0x0100_0000_01b3))
}

fn fnv1a64(b: &[u8]) -> u64 {
    b.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, &x| (h ^ x as u64).wrapping_mul(0x0100_0000_01b3))
}

#[test]
fn decode_report_json_of_the_corpus_is_pinned() {
    let dump = std::env::var_os("DECODE_PIN_DUMP").map(PathBuf::from);
    let d = DecodeOptions::default();
    let mut lines = String::new();
    for (name, bytes, formatter) in corpus() {
        let mut sets = vec![
            ("default", d.clone()),
            ("records=false", DecodeOptions { records: false, ..d.clone() }),
            ("spans=false,decompressed", DecodeOptions { spans: false, include_decompressed: true, ..d.clone() }),
        ];
        if let Some(f) = formatter {
            sets.push(("formatter", DecodeOptions { formatter: Some(f), ..d.clone() }));
        }
        for (label, opts) in sets {
            let rep = decode(&bytes, &opts);
            let json = serde_json::to_string(&rep).unwrap();
            writeln!(
                lines,
                "{name} [{label}] {} bytes -> json {} bytes fnv {:016x}, {} batches, {} issues",
                bytes.len(),
                json.len(),
                fnv1a64(json.as_bytes()),
                rep.batches.len(),
                rep.errors.len()
            )
            .unwrap();
            if let Some(dir) = &dump {
                let file = dir.join(format!("{}.{label}.json", name.replace('/', "__")));
                std::fs::create_dir_all(dir).unwrap();
                std::fs::write(file, json).unwrap();
            }
        }
    }
    insta::assert_snapshot!("corpus", lines);
}
