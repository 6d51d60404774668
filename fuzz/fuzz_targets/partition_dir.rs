//! `eoslab_core::files::partition` (a partition directory read as the broker loads it) and its
//! text, script and checks on fuzzer bytes cut into files: the first byte picks how many files,
//! each next byte a file kind, and the rest is split evenly. Never a panic; every check names a
//! file that was given; the simulator script it writes always parses.
#![no_main]

use eoslab_core::files::partition::{self, DirFile};
use libfuzzer_sys::fuzz_target;

const NAMES: [&str; 8] = [
    "00000000000000000000.log",
    "00000000000000000000.index",
    "00000000000000000000.timeindex",
    "00000000000000000000.txnindex",
    "00000000000000000005.snapshot",
    "00000000000000000007.log",
    "00000000000000000007.index",
    "leader-epoch-checkpoint",
];

fuzz_target!(|data: &[u8]| {
    let Some((&n, rest)) = data.split_first() else { return };
    let n = (n as usize % 6) + 1;
    if rest.len() < n {
        return;
    }
    let (kinds, body) = rest.split_at(n);
    let chunk = body.len() / n + 1;
    let files: Vec<DirFile<'_>> = kinds
        .iter()
        .zip(body.chunks(chunk).chain(core::iter::repeat(&[][..])))
        .map(|(k, bytes)| DirFile { name: NAMES[*k as usize % NAMES.len()], bytes })
        .collect();
    let p = partition::load(&files);
    for c in &p.checks {
        assert!(files.iter().any(|f| f.name == c.file), "a check on a file not given: {}", c.file);
    }
    let _ = partition::render(&p);
    let script = partition::simulator_script(&p, "fuzz");
    if let Err(e) = eoslab_core::model::scenario::parse(&script) {
        panic!("the continued script does not parse: {e}\n{script}");
    }
});
