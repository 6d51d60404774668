//! `eoslab_core::decode_bytes` (no text detection) on raw fuzzer bytes, with every option
//! set; the report must be structurally sane, and the zero-copy `view` must read the same
//! batches, records and first fault (tests/common/mod.rs).
#![no_main]

#[path = "../../crate/core/tests/common/mod.rs"]
mod common;

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    for opts in common::option_sets() {
        let rep = eoslab_core::decode_bytes(data, &opts);
        if let Err(e) = common::check_report(&rep, data.len()) {
            panic!("decode_bytes with {opts:?}: {e}");
        }
    }
    common::check_view_agrees(data);
});
