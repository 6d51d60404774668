//! `eoslab dump-log` against what Kafka 4.3.1's own `kafka-dump-log` printed for every file of
//! a real broker's partition directories (tests/fixtures/kafka-4.3.1/<dir>/<file>.dump-log.txt),
//! run with the options PROVENANCE.md lists for each file: data `.log`
//! `--print-data-log --deep-iteration`; `__transaction_state-N/*.log` `--deep-iteration
//! --transaction-log-decoder`; `__consumer_offsets-N/*.log` `--deep-iteration --offsets-decoder`;
//! `.index`, `.timeindex`, `.txnindex`, `.snapshot` none. Standard output must equal the golden
//! text line for line (a diff is printed otherwise); run in the fixtures directory so the
//! "Dumping <dir>/<file>" headers name the same relative paths.
//!
//! Each flag on its own (`--index-sanity-check`, `--verify-index-only`, `--max-message-size`,
//! `--print-data-log` without `--deep-iteration`, `--deep-iteration` alone, no options,
//! `--skip-record-metadata`, `--max-bytes`) against the same tool's
//! `<file>.dump-log.<variant>.txt` (and `.stderr.txt`), see PROVENANCE.md.

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
        // Kafka's standard error, where the generator kept one (the files it does not know).
        let kafka_err = std::fs::read_to_string(root().join(format!("{file}.dump-log.stderr.txt"))).unwrap_or_default();
        let ours_err = String::from_utf8(o.stderr).unwrap();
        if !o.status.success() || ours != kafka || ours_err != kafka_err {
            failures.push(format!(
                "{file} {opts:?}: exit {:?}, stderr {ours_err:?} (Kafka's {kafka_err:?})\n{}",
                o.status.code(),
                diff(&ours, &kafka)
            ));
        }
    }
    assert!(failures.is_empty(), "{} of {} differ:\n{}", failures.len(), cases.len(), failures.join("\n"));
}

/// The flag variants tests/kafka/make_fixtures.py (`VARIANTS`) ran Kafka's tool with, one flag
/// at a time: (variant, which files, ARGS); `DECODER` is the internal topic's decoder option.
const VARIANTS: &[(&str, &str, &[&str])] = &[
    ("index-sanity-check", "index", &["--index-sanity-check"]),
    ("verify-index-only", "index", &["--verify-index-only"]),
    ("max-message-size-10", ".index", &["--max-message-size", "10"]),
    ("no-options", "data log", &[]),
    ("deep-iteration", "data log", &["--deep-iteration"]),
    ("print-data-log", "data log", &["--print-data-log"]),
    ("skip-record-metadata", "data log", &["--print-data-log", "--skip-record-metadata"]),
    ("max-bytes-200", "data log", &["--print-data-log", "--max-bytes", "200"]),
    ("max-bytes-minus-1", "data log", &["--max-bytes", "-1"]),
    ("max-bytes-200", "internal log", &["DECODER", "--max-bytes", "200"]),
];

fn internal_decoder(dir: &str) -> Option<&'static str> {
    if dir.starts_with("__transaction_state-") {
        Some("--transaction-log-decoder")
    } else if dir.starts_with("__consumer_offsets-") {
        Some("--offsets-decoder")
    } else {
        None
    }
}

/// (relative file, variant, ARGS) for every `<file>.dump-log.<variant>.txt`.
fn variant_cases() -> Vec<(String, String, Vec<String>)> {
    let provenance = std::fs::read_to_string(root().join("PROVENANCE.md")).unwrap();
    let mut out = Vec::new();
    let mut seen = std::collections::BTreeSet::new();
    for d in std::fs::read_dir(root()).unwrap() {
        let d = d.unwrap().path();
        if !d.is_dir() {
            continue;
        }
        let dir = d.file_name().unwrap().to_str().unwrap().to_string();
        for f in std::fs::read_dir(&d).unwrap() {
            let name = f.unwrap().file_name().into_string().unwrap();
            if name.ends_with(".stderr.txt") {
                continue;
            }
            let Some((file, rest)) = name.split_once(".dump-log.") else { continue };
            let Some(variant) = rest.strip_suffix(".txt") else { continue };
            let kind = if file.ends_with(".log") {
                if internal_decoder(&dir).is_some() { "internal log" } else { "data log" }
            } else if file.ends_with(".index") {
                ".index"
            } else {
                "index"
            };
            let Some((_, k, args)) = VARIANTS
                .iter()
                .find(|(v, k, _)| *v == variant && (*k == kind || (*k == "index" && kind == ".index")))
            else {
                panic!("{dir}/{name}: variant {variant} of a {kind} is not in VARIANTS (tests/kafka/make_fixtures.py)");
            };
            seen.insert((variant.to_string(), *k));
            let args = args
                .iter()
                .map(|a| if *a == "DECODER" { internal_decoder(&dir).unwrap().to_string() } else { a.to_string() })
                .collect();
            out.push((format!("{dir}/{file}"), variant.to_string(), args));
        }
    }
    for (v, k, args) in VARIANTS {
        assert!(seen.contains(&(v.to_string(), *k)), "no golden text for variant {v} ({k})");
        // The same ARGS as PROVENANCE.md records (make_fixtures.py writes that list from its table).
        let a = args.join(" ").replace("DECODER", "<its decoder>");
        let needle = if a.is_empty() { format!("- `{v}` (") } else { format!("`{a}`") };
        assert!(provenance.contains(&format!("- `{v}` (")) && provenance.contains(&needle), "PROVENANCE.md does not list {v}: {a}");
    }
    out.sort();
    out
}

/// Each flag against what Kafka 4.3.1's tool printed with it: standard output line for line;
/// standard error too, except the JVM's stack trace under Kafka's `Exception in thread "main" …`
/// line and the `eoslab: <kind> at byte N of F` line eoslab adds under it; exit status 1 exactly
/// when Kafka threw.
#[test]
fn every_flag_dumps_as_kafka_dump_log_printed_it() {
    let cases = variant_cases();
    let mut failures = Vec::new();
    for (file, variant, args) in &cases {
        let o = Command::new(env!("CARGO_BIN_EXE_eoslab"))
            .current_dir(root())
            .arg("dump-log")
            .arg("--files")
            .arg(file)
            .args(args)
            .output()
            .unwrap();
        let ours = String::from_utf8(o.stdout).unwrap();
        let kafka = std::fs::read_to_string(root().join(format!("{file}.dump-log.{variant}.txt"))).unwrap();
        let kafka_err =
            std::fs::read_to_string(root().join(format!("{file}.dump-log.{variant}.stderr.txt"))).unwrap_or_default();
        let threw = kafka_err.starts_with("Exception in thread \"main\" ");
        let kafka_err: String = kafka_err.lines().filter(|l| !l.starts_with("\tat ")).map(|l| format!("{l}\n")).collect();
        let ours_err: String = String::from_utf8(o.stderr)
            .unwrap()
            .lines()
            .filter(|l| !(threw && l.starts_with("eoslab: ")))
            .map(|l| format!("{l}\n"))
            .collect();
        let status_ok = o.status.code() == Some(if threw { 1 } else { 0 });
        if !status_ok || ours != kafka || ours_err != kafka_err {
            failures.push(format!(
                "{file} {args:?}: exit {:?} (Kafka threw: {threw}), stderr {ours_err:?} (Kafka's {kafka_err:?})\n{}",
                o.status.code(),
                diff(&ours, &kafka)
            ));
        }
    }
    let threw = cases.iter().filter(|(f, v, _)| root().join(format!("{f}.dump-log.{v}.stderr.txt")).exists()).count();
    assert!(threw > 0, "no variant where Kafka's tool printed to stderr");
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

/// What Kafka's tool printed for a file it does not know (`partition.metadata`,
/// `leader-epoch-checkpoint`): "Dumping …" on standard output, "Ignoring unknown file …" on
/// standard error (tests/fixtures/kafka-4.3.1/<dir>/<file>.dump-log.txt and .dump-log.stderr.txt).
#[test]
fn an_unknown_file_is_ignored_on_stderr() {
    for file in ["txn-0/partition.metadata", "txn-0/leader-epoch-checkpoint"] {
        let o = Command::new(env!("CARGO_BIN_EXE_eoslab"))
            .current_dir(root())
            .args(["dump-log", "--files", file])
            .output()
            .unwrap();
        assert!(o.status.success());
        let kafka_out = std::fs::read_to_string(root().join(format!("{file}.dump-log.txt"))).unwrap();
        let kafka_err = std::fs::read_to_string(root().join(format!("{file}.dump-log.stderr.txt"))).unwrap();
        assert_eq!(kafka_err, format!("Ignoring unknown file {file}\n"));
        assert_eq!(String::from_utf8(o.stdout).unwrap(), kafka_out);
        assert_eq!(String::from_utf8(o.stderr).unwrap(), kafka_err);
    }
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
    // What Kafka's tool printed for each with --index-sanity-check, one after the other.
    let kafka: String = ["txn-0/00000000000000000000.index", "txn-0/00000000000000000000.timeindex"]
        .iter()
        .map(|f| std::fs::read_to_string(root().join(format!("{f}.dump-log.index-sanity-check.txt"))).unwrap())
        .collect();
    assert!(kafka.contains("txn-0/00000000000000000000.timeindex passed sanity check.\n"), "{kafka}");
    assert_eq!(String::from_utf8(o.stdout).unwrap(), kafka);
    assert!(o.stderr.is_empty(), "{}", String::from_utf8_lossy(&o.stderr));
}

/// A damaged copy of txn-0's segment whose second batch now reads as a magic-0 message that
/// does not parse (4 bytes from its byte 14 = 0x80000000: the magic byte 0, then a key length
/// past the end): Kafka 4.3.1's tool still prints its header from the fixed offsets (found by
/// tests/kafka/dump_log_mutations.py, seed 8; on the current fixtures Kafka printed
/// `offset: 2 position: 99 NoTimestampType: -1 size: 78 magic: 0 compresscodec: none crc: 32768
/// isvalid: false`). The batch's offset, position and size are read from the golden dump.
#[test]
fn a_damaged_legacy_message_shows_its_header_as_kafka_does() {
    let dump = std::fs::read_to_string(root().join("txn-0/00000000000000000000.log.dump-log.txt")).unwrap();
    let second = dump.lines().filter(|l| l.starts_with("baseOffset: ")).nth(1).unwrap();
    let field = |name: &str| second.split(&format!(" {name}: ")).nth(1).unwrap().split(' ').next().unwrap().to_string();
    let base = second.strip_prefix("baseOffset: ").unwrap().split(' ').next().unwrap();
    let (pos, size) = (field("position"), field("size"));
    let at: usize = pos.parse().unwrap();
    let dir = std::env::temp_dir().join(format!("eoslab-dump-log-{}", std::process::id()));
    std::fs::create_dir_all(dir.join("txn-0")).unwrap();
    let mut log = std::fs::read(root().join("txn-0/00000000000000000000.log")).unwrap();
    log[at + 14..at + 18].copy_from_slice(&[0x80, 0, 0, 0]);
    let crc = u32::from_be_bytes(log[at + 12..at + 16].try_into().unwrap());
    std::fs::write(dir.join("txn-0/00000000000000000000.log"), &log).unwrap();
    let o = Command::new(env!("CARGO_BIN_EXE_eoslab"))
        .current_dir(&dir)
        .args(["dump-log", "--files", "txn-0/00000000000000000000.log", "--verify-index-only"])
        .output()
        .unwrap();
    std::fs::remove_dir_all(&dir).ok();
    assert!(o.status.success());
    let out = String::from_utf8(o.stdout).unwrap();
    let want = format!("offset: {base} position: {pos} NoTimestampType: -1 size: {size} magic: 0 compresscodec: none crc: {crc} isvalid: false");
    assert_eq!(out.lines().nth(3), Some(want.as_str()), "{out}");
}
