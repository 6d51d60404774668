//! `eoslab dump-log` against what Kafka 4.3.1's own `kafka-dump-log` printed for every file of
//! a real broker's partition directories (tests/fixtures/kafka-4.3.1/<dir>/<file>.dump-log.txt),
//! run with the options PROVENANCE.md lists for each file: data `.log`
//! `--print-data-log --deep-iteration`; `__transaction_state-N/*.log` `--deep-iteration
//! --transaction-log-decoder`; `__consumer_offsets-N/*.log` `--deep-iteration --offsets-decoder`;
//! `.index`, `.timeindex`, `.txnindex`, `.snapshot` none. Standard output must equal the golden
//! text line for line (a diff is printed otherwise); run in the fixtures directory so the
//! "Dumping <dir>/<file>" headers name the same relative paths.

use std::path::{Path, PathBuf};
use std::process::Command;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/fixtures/kafka-4.3.1")
}

/// (relative file, options) for every `<file>.dump-log.txt`, per PROVENANCE.md.
fn cases() -> Vec<(String, Vec<&'static str>)> {
    let provenance = std::fs::read_to_string(root().join("PROVENANCE.md")).unwrap();
    // The option sets this test applies are the ones PROVENANCE.md states.
    for needle in [
        "data `.log`: `--print-data-log --deep-iteration`",
        "`__transaction_state-N/*.log`: `--deep-iteration --transaction-log-decoder`",
        "`__consumer_offsets-N/*.log`: `--deep-iteration --offsets-decoder`",
        "`.index`, `.timeindex`, `.txnindex`, `.snapshot`: none",
    ] {
        assert!(provenance.contains(needle), "PROVENANCE.md no longer says {needle}");
    }
    let mut out = Vec::new();
    for d in std::fs::read_dir(root()).unwrap() {
        let d = d.unwrap().path();
        if !d.is_dir() {
            continue;
        }
        let dir = d.file_name().unwrap().to_str().unwrap().to_string();
        for f in std::fs::read_dir(&d).unwrap() {
            let name = f.unwrap().file_name().into_string().unwrap();
            let Some(file) = name.strip_suffix(".dump-log.txt") else { continue };
            let opts = if file.ends_with(".log") {
                if dir.starts_with("__transaction_state-") {
                    vec!["--deep-iteration", "--transaction-log-decoder"]
                } else if dir.starts_with("__consumer_offsets-") {
                    vec!["--deep-iteration", "--offsets-decoder"]
                } else {
                    vec!["--print-data-log", "--deep-iteration"]
                }
            } else {
                vec![]
            };
            out.push((format!("{dir}/{file}"), opts));
        }
    }
    out.sort();
    out
}

fn diff(ours: &str, kafka: &str) -> String {
    let (a, b): (Vec<&str>, Vec<&str>) = (ours.lines().collect(), kafka.lines().collect());
    let mut s = String::new();
    for i in 0..a.len().max(b.len()) {
        match (a.get(i), b.get(i)) {
            (Some(x), Some(y)) if x == y => s.push_str(&format!("  {x}\n")),
            (x, y) => {
                if let Some(y) = y {
                    s.push_str(&format!("- {y}\n"));
                }
                if let Some(x) = x {
                    s.push_str(&format!("+ {x}\n"));
                }
            }
        }
    }
    s
}

#[test]
fn every_fixture_file_dumps_as_kafka_dump_log_printed_it() {
    let cases = cases();
    let exts: std::collections::BTreeSet<&str> =
        cases.iter().map(|(f, _)| f.rsplit('.').next().unwrap()).collect();
    for e in ["log", "index", "timeindex", "txnindex", "snapshot"] {
        assert!(exts.contains(e), "no fixture dump for .{e}: {exts:?}");
    }
    let mut failures = Vec::new();
    for (file, opts) in &cases {
        let o = Command::new(env!("CARGO_BIN_EXE_eoslab"))
            .current_dir(root())
            .arg("dump-log")
            .arg("--files")
            .arg(file)
            .args(opts)
            .output()
            .unwrap();
        let ours = String::from_utf8(o.stdout).unwrap();
        let kafka = std::fs::read_to_string(root().join(format!("{file}.dump-log.txt"))).unwrap();
        if !o.status.success() || ours != kafka {
            failures.push(format!(
                "{file} {opts:?}: exit {:?}, stderr {:?}\n{}",
                o.status.code(),
                String::from_utf8_lossy(&o.stderr),
                diff(&ours, &kafka)
            ));
        }
    }
    assert!(failures.is_empty(), "{} of {} differ:\n{}", failures.len(), cases.len(), failures.join("\n"));
}

#[test]
fn several_files_in_one_run_print_in_order() {
    let dir = "txn-0";
    let names = ["00000000000000000000.index", "00000000000000000000.timeindex", "00000000000000000000.txnindex"];
    let files: Vec<String> = names.iter().map(|n| format!("{dir}/{n}")).collect();
    let o = Command::new(env!("CARGO_BIN_EXE_eoslab"))
        .current_dir(root())
        .args(["dump-log", "--files", &files.join(",")])
        .output()
        .unwrap();
    assert!(o.status.success());
    let expected: String =
        files.iter().map(|f| std::fs::read_to_string(root().join(format!("{f}.dump-log.txt"))).unwrap()).collect();
    assert_eq!(String::from_utf8(o.stdout).unwrap(), expected);
}

#[test]
fn an_unknown_file_is_ignored_on_stderr() {
    let o = Command::new(env!("CARGO_BIN_EXE_eoslab"))
        .current_dir(root())
        .args(["dump-log", "--files", "txn-0/partition.metadata"])
        .output()
        .unwrap();
    assert!(o.status.success());
    assert_eq!(String::from_utf8(o.stdout).unwrap(), "Dumping txn-0/partition.metadata\n");
    assert_eq!(String::from_utf8(o.stderr).unwrap(), "Ignoring unknown file txn-0/partition.metadata\n");
}

#[test]
fn index_sanity_check_passes_on_the_broker_files() {
    let o = Command::new(env!("CARGO_BIN_EXE_eoslab"))
        .current_dir(root())
        .args([
            "dump-log",
            "--index-sanity-check",
            "--files",
            "txn-0/00000000000000000000.index,txn-0/00000000000000000000.timeindex",
        ])
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert_eq!(
        String::from_utf8(o.stdout).unwrap(),
        "Dumping txn-0/00000000000000000000.index\ntxn-0/00000000000000000000.index passed sanity check.\n\
         Dumping txn-0/00000000000000000000.timeindex\ntxn-0/00000000000000000000.timeindex passed sanity check.\n"
    );
}
