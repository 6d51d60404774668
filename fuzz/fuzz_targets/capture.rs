//! See `crate/core/tests/fuzz_bodies/capture.rs::capture` for what this target feeds and
//! checks; the same body runs as a property test without a nightly toolchain
//! (`crate/core/tests/fuzz_props.rs`, feature `capture`) and on every kept crasher
//! (`crate/core/tests/fuzz_regressions.rs`).
#![no_main]

#[path = "../../crate/core/tests/fuzz_bodies/capture.rs"]
mod bodies;

libfuzzer_sys::fuzz_target!(|data: &[u8]| bodies::capture(data));
