//! `eoslab decode` on a real Kafka 4.3.1 broker's segments (tests/fixtures/kafka-4.3.1, see
//! tests/kafka/README.md): the listing's batch and record lines are, character for character,
//! the lines `kafka-dump-log --print-data-log --deep-iteration` printed (`<file>.dump-log.txt`).
//! For __transaction_state / __consumer_offsets the listing shows keys and values as hex where
//! DumpLogSegments' decoders print JSON (compared in crate/core/tests/kafka_fixtures.rs), so
//! there data record lines are compared up to `headerKeys: […]` (control records in full).

use std::path::{Path, PathBuf};
use std::process::Command;

fn logs() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/fixtures/kafka-4.3.1");
    let mut out = Vec::new();
    for d in std::fs::read_dir(&root).expect("tests/fixtures/kafka-4.3.1") {
        let d = d.unwrap().path();
        if d.is_dir() {
            for f in std::fs::read_dir(&d).unwrap() {
                let f = f.unwrap().path();
                if f.extension().is_some_and(|e| e == "log") {
                    out.push(f);
                }
            }
        }
    }
    out.sort();
    assert!(out.len() >= 5, "{out:?}");
    out
}

/// Batch and record lines; internal topics' record lines cut after `headerKeys: […]`.
fn entry_lines(text: &str, internal: bool) -> Vec<String> {
    text.lines()
        .filter(|l| l.starts_with("baseOffset: ") || l.starts_with("| offset: "))
        .map(|l| {
            let end = l.find("headerKeys: [").map(|at| at + l[at..].find(']').unwrap() + 1);
            match end {
                Some(end) if internal && (l[end..].starts_with(" key: ") || l[end..].starts_with(" payload: ")) => {
                    l[..end].to_string()
                }
                _ => l.to_string(),
            }
        })
        .collect()
}

#[test]
fn the_listing_is_what_dump_log_segments_printed() {
    let mut lines = 0;
    for log in logs() {
        let dir = log.parent().unwrap().file_name().unwrap().to_str().unwrap();
        let internal = dir.starts_with("__");
        let o = Command::new(env!("CARGO_BIN_EXE_eoslab")).arg("decode").arg(&log).output().unwrap();
        assert!(o.status.success(), "{}: exit {:?}\n{}", log.display(), o.status, String::from_utf8_lossy(&o.stdout));
        let ours = entry_lines(&String::from_utf8(o.stdout).unwrap(), internal);
        let dump = std::fs::read_to_string(format!("{}.dump-log.txt", log.display())).unwrap();
        let kafka = entry_lines(&dump, internal);
        assert!(!kafka.is_empty());
        for (i, (a, b)) in ours.iter().zip(&kafka).enumerate() {
            assert_eq!(a, b, "{} line {i}", log.display());
        }
        assert_eq!(ours.len(), kafka.len(), "{}: line count", log.display());
        lines += kafka.len();
    }
    assert!(lines > 50);
}
