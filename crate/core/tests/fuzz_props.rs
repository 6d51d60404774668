//! The fuzz targets `dump_files`, `scripts` and `capture` as property tests: the same bodies
//! (tests/fuzz_bodies/) on proptest's bytes, so tests/fuzz-smoke.sh's fallback (no nightly
//! toolchain) still runs every target's checks. The capture test needs the core's `capture`
//! feature (`cargo test -p eoslab-core --features capture --test fuzz_props`).
//!
//! Case counts: `PROPTEST_CASES` overrides them all (tests/fuzz-smoke.sh's fallback sets it).

#[allow(dead_code)]
mod fuzz_bodies;

#[cfg(feature = "capture")]
#[path = "fuzz_bodies/capture.rs"]
mod capture_body;

use proptest::prelude::*;

/// `cases` unless PROPTEST_CASES is set (ProptestConfig::default() reads it), as in props.rs.
fn config(cases: u32) -> ProptestConfig {
    let mut c = ProptestConfig::default();
    if std::env::var_os("PROPTEST_CASES").is_none() {
        c.cases = cases;
    }
    c
}

/// Words of both script dialects and their arguments' shapes, so generated scripts get past the
/// first word of a line into the parsers' argument handling.
const SCRIPT_WORDS: &[&str] = &[
    "model transactions", "model idempotence", "producer p1", "producer p1 transactional t1", "send p1 b1",
    "append", "begin", "commit", "abort", "init", "ack", "retry", "wait 5s", "expect", "log-end p0 10",
    "producer-state", "partition p0", "leader", "broker 1", "fail", "timeout 30s", "# comment", "-1",
    "9223372036854775807", "seq=0", "epoch=3", "1ms", "", " ", "\t", "=", ":", "p0", "t1", "b1#1",
];

fn script() -> impl Strategy<Value = String> {
    let line = proptest::collection::vec(
        prop_oneof![proptest::sample::select(SCRIPT_WORDS).prop_map(String::from), "[ -~]{0,12}"],
        0..6,
    )
    .prop_map(|w| w.join(" "));
    proptest::collection::vec(line, 0..12).prop_map(|l| l.join("\n"))
}

proptest! {
    #![proptest_config(config(512))]

    #[test]
    fn dump_files_holds(bytes in proptest::collection::vec(any::<u8>(), 0..800)) {
        fuzz_bodies::dump_files(&bytes);
    }

    #[test]
    fn scripts_hold_on_bytes(bytes in proptest::collection::vec(any::<u8>(), 0..300)) {
        fuzz_bodies::scripts(&bytes);
    }

    #[test]
    fn scripts_hold_on_script_words(text in script()) {
        fuzz_bodies::scripts(text.as_bytes());
    }
}

#[cfg(feature = "capture")]
mod capture {
    use super::*;

    /// A pcap global header (little-endian, Ethernet) followed by fuzzer records, so the cases
    /// reach the packet and TCP layers instead of stopping at the magic number.
    fn pcap_with(records: &[u8]) -> Vec<u8> {
        let mut b = Vec::new();
        b.extend_from_slice(&0xa1b2_c3d4u32.to_le_bytes());
        b.extend_from_slice(&2u16.to_le_bytes());
        b.extend_from_slice(&4u16.to_le_bytes());
        b.extend_from_slice(&[0; 8]);
        b.extend_from_slice(&262_144u32.to_le_bytes());
        b.extend_from_slice(&1u32.to_le_bytes());
        b.extend_from_slice(records);
        b
    }

    proptest! {
        #![proptest_config(config(512))]

        #[test]
        fn capture_holds_on_noise(bytes in proptest::collection::vec(any::<u8>(), 0..800)) {
            capture_body::capture(&bytes);
        }

        #[test]
        fn capture_holds_on_pcap_records(bytes in proptest::collection::vec(any::<u8>(), 0..800)) {
            capture_body::capture(&pcap_with(&bytes));
        }
    }
}
