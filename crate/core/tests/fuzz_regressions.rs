//! Every input that ever crashed a fuzz target or a property test (tests/fixtures/fuzz/*.bin)
//! must decode without panicking and with sane spans, under every option set. The directory
//! may hold only its README: then this test checks nothing and passes.

mod common;
#[allow(dead_code)]
mod fuzz_bodies;
#[cfg(feature = "capture")]
#[path = "fuzz_bodies/capture.rs"]
mod capture_body;

use std::path::PathBuf;

fn fixtures() -> Vec<PathBuf> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/fuzz");
    let mut files: Vec<PathBuf> = match std::fs::read_dir(&dir) {
        Ok(rd) => rd
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.is_file() && p.extension().is_some_and(|x| x == "bin"))
            .collect(),
        Err(_) => Vec::new(),
    };
    files.sort();
    files
}

#[test]
fn every_fuzz_crasher_stays_fixed() {
    let files = fixtures();
    let mut failed = Vec::new();
    for path in &files {
        let data = std::fs::read(path).unwrap();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        // Each input in its own catch_unwind so one failure does not hide the others.
        let r = std::panic::catch_unwind(|| {
            if name.starts_with("partition_dir-") {
                partition_dir(&data);
            }
            // The bodies of the dump_files, scripts and capture targets (tests/fuzz_bodies/);
            // a capture crasher is checked only with the core's `capture` feature.
            if name.starts_with("dump_files-") {
                fuzz_bodies::dump_files(&data);
            }
            if name.starts_with("scripts-") {
                fuzz_bodies::scripts(&data);
            }
            #[cfg(feature = "capture")]
            if name.starts_with("capture-") {
                capture_body::capture(&data);
            }
            common::decode_all_ways(&data);
            let rep = eoslab_core::decode_bytes(&data, &eoslab_core::DecodeOptions::default());
            serde_json::to_string(&rep).expect("report serializes");
        });
        if let Err(e) = r {
            let msg = e
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| e.downcast_ref::<&str>().map(|s| s.to_string()))
                .unwrap_or_default();
            failed.push(format!("{name} ({} bytes): {}", data.len(), msg.lines().next().unwrap_or("")));
        }
    }
    eprintln!("fuzz regressions: {} input(s) checked", files.len());
    assert!(
        failed.is_empty(),
        "{} of {} regression input(s) fail:\n  {}",
        failed.len(),
        files.len(),
        failed.join("\n  ")
    );
}

/// fuzz/fuzz_targets/partition_dir.rs's body: the bytes cut into a partition directory's files,
/// loaded as the broker loads them; every check names a given file, and the simulator script
/// written from it parses.
fn partition_dir(data: &[u8]) {
    use eoslab_core::files::partition::{self, DirFile};
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
}
