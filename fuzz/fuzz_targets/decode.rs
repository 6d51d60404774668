//! `eoslab_core::decode` (text detection, then the entry walker) on raw fuzzer bytes, with
//! every option set; the report must be structurally sane (tests/common/mod.rs).
#![no_main]

#[path = "../../crate/core/tests/common/mod.rs"]
mod common;

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    for opts in common::option_sets() {
        let rep = eoslab_core::decode(data, &opts);
        if let Err(e) = common::check_report(&rep, data.len()) {
            panic!("decode with {opts:?}: {e}");
        }
    }
});
