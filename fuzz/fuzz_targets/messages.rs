//! `eoslab_core::message::decode_messages_bytes` (requests and responses read from
//! Kafka's message schemas) on raw fuzzer bytes, framing auto/sized/unsized and, for lone
//! responses, the api key and version taken from the input's first two bytes (every vendored
//! schema gets reached). Never panics; every span lies in the input and nests in its parent; the
//! tree stays within a constant times the input (no allocation from a length field).
#![no_main]

use eoslab_core::message::{decode_messages_bytes, Framing, MessageOptions, Node};
use libfuzzer_sys::fuzz_target;

fn check(n: &Node, lo: usize, hi: usize, len: usize, count: &mut usize) {
    *count += 1;
    assert!(n.start <= n.end && n.end <= len, "{} [{}..{}) outside the input ({len})", n.name, n.start, n.end);
    assert!(lo <= n.start && n.end <= hi, "{} [{}..{}) outside its parent [{lo}..{hi})", n.name, n.start, n.end);
    for c in &n.children {
        check(c, n.start, n.end, len, count);
    }
}

fuzz_target!(|data: &[u8]| {
    let (k, v) = match data {
        [a, b, ..] => (i16::from(a % 30), i16::from(b % 20)),
        _ => (0, 0),
    };
    let options = [
        MessageOptions::default(),
        MessageOptions { framing: Framing::Sized, ..Default::default() },
        MessageOptions { framing: Framing::Unsized, ..Default::default() },
        MessageOptions { api_key: Some(k), api_version: Some(v), ..Default::default() },
    ];
    for opts in &options {
        let r = decode_messages_bytes(data, opts);
        let mut count = 0;
        for m in &r.messages {
            assert!(m.start <= m.end && m.end <= data.len());
            check(&m.header, 0, data.len(), data.len(), &mut count);
            if let Some(b) = &m.body {
                check(b, 0, data.len(), data.len(), &mut count);
            }
            for rec in &m.records {
                assert!(rec.start <= rec.end && rec.end <= data.len());
            }
        }
        assert!(count <= 4 * data.len() + 64, "{count} nodes for {} bytes", data.len());
        for e in &r.errors {
            assert!(e.at <= data.len(), "issue at {} past the input ({})", e.at, data.len());
        }
    }
});
