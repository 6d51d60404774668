//! The `eoslab` binary as a terminal user runs it: exit codes, the listing, JSON, encode
//! and scenario runs.

use std::io::Write;
use std::process::{Command, Output, Stdio};

/// record-batch.md §9.1 Example A.
const EXAMPLE_A: &str = "00 00 00 00 00 00 00 00 00 00 00 3a ff ff ff ff 02 8c 4a 54 5e 00 00 00 00 00 00 \
00 00 01 8b cf e5 68 00 00 00 01 8b cf e5 68 00 00 00 00 00 00 00 10 92 00 01 00 00 00 07 00 00 00 01 10 00 00 00 02 6b 02 76 00";

fn eoslab(args: &[&str], stdin: &[u8]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_eoslab"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(stdin).unwrap();
    child.wait_with_output().unwrap()
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

#[test]
fn decode_prints_a_dump_log_style_listing_and_exits_0() {
    let o = eoslab(&["decode", "-"], EXAMPLE_A.as_bytes());
    assert!(o.status.success(), "{}", text(&o.stderr));
    let out = text(&o.stdout);
    assert!(out.starts_with("Input: hex (70 bytes)"), "{out}");
    assert!(out.contains("producerId: 4242 producerEpoch: 1"), "{out}");
    assert!(out.contains("crc: 2353681502 isvalid: true"), "{out}");
    assert!(out.contains("| offset: 0 CreateTime: 1700000000000 keySize: 1 valueSize: 1 sequence: 7 headerKeys: [] key: k payload: v"));
}

#[test]
fn decode_of_binary_bytes_works_too() {
    let bytes: Vec<u8> = EXAMPLE_A.split_whitespace().map(|h| u8::from_str_radix(h, 16).unwrap()).collect();
    let o = eoslab(&["decode"], &bytes);
    assert!(o.status.success());
    assert!(text(&o.stdout).starts_with("Input: binary (70 bytes)"));
}

#[test]
fn a_corrupt_batch_exits_1_and_names_the_kafka_exception_and_byte() {
    let bad = EXAMPLE_A.replacen("6b 02 76", "6c 02 76", 1);
    let o = eoslab(&["decode", "-"], bad.as_bytes());
    assert_eq!(o.status.code(), Some(1));
    assert!(text(&o.stdout).contains("! error at byte 17 CorruptRecordException: Record is corrupt (stored crc = 2353681502"));
}

#[test]
fn json_output_is_the_decode_contract() {
    let o = eoslab(&["decode", "--json", "-"], EXAMPLE_A.as_bytes());
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["format"], "hex");
    assert_eq!(v["batches"][0]["header"]["producerId"], "4242", "int64 as an exact decimal string");
    assert_eq!(v["batches"][0]["records"][0]["value"], "76");
}

#[test]
fn encode_writes_the_batch_a_java_producer_would() {
    let spec = r#"{"header":{"producerId":4242,"producerEpoch":1,"baseSequence":7},
                   "records":[{"timestamp":"1700000000000","keyText":"k","valueText":"v"}]}"#;
    let o = eoslab(&["encode", "-"], spec.as_bytes());
    assert!(o.status.success(), "{}", text(&o.stderr));
    assert_eq!(text(&o.stdout).trim(), EXAMPLE_A.replace(' ', ""));
}

#[test]
fn run_prints_the_ladder_and_fails_on_a_broken_expectation() {
    let ok = "partition p\nproducer a\nsend a p x\nflush\nexpect b1 appended 0..0\n";
    let o = eoslab(&["run", "-"], ok.as_bytes());
    assert!(o.status.success(), "{}", text(&o.stdout));
    assert!(text(&o.stdout).contains("1 expectation(s): 1 passed, 0 failed"));
    let bad = "partition p\nproducer a\nsend a p x\nflush\nexpect b1 duplicate\n";
    let o = eoslab(&["run", "-"], bad.as_bytes());
    assert_eq!(o.status.code(), Some(1));
    assert!(text(&o.stdout).contains("FAILED line 5: expected b1 duplicate, got appended 0..0 [A6]"));
}

#[test]
fn usage_errors_exit_2() {
    assert_eq!(eoslab(&["frobnicate"], b"").status.code(), Some(2));
    assert_eq!(eoslab(&["decode", "--nope"], b"").status.code(), Some(2));
}
