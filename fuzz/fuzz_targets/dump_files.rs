//! See `crate/core/tests/fuzz_bodies/mod.rs::dump_files` for what this target feeds and checks; the
//! same body runs as a property test without a nightly toolchain (`crate/core/tests/fuzz_props.rs`)
//! and on every kept crasher (`crate/core/tests/fuzz_regressions.rs`).
#![no_main]

#[allow(dead_code)]
#[path = "../../crate/core/tests/fuzz_bodies/mod.rs"]
mod bodies;

libfuzzer_sys::fuzz_target!(|data: &[u8]| bodies::dump_files(data));
