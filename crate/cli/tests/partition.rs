//! `eoslab partition`: a real Kafka 4.3.1 partition directory (tests/fixtures/kafka-4.3.1, see
//! its PROVENANCE.md) read as the broker loads it, and a copy with a wrong `.txnindex` flagged.

use std::path::{Path, PathBuf};
use std::process::Command;

fn fixture(dir: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/fixtures/kafka-4.3.1").join(dir)
}

fn run(args: &[&str]) -> (i32, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_eoslab")).arg("partition").args(args).output().unwrap();
    (out.status.code().unwrap_or(-1), String::from_utf8(out.stdout).unwrap() + &String::from_utf8(out.stderr).unwrap())
}

#[test]
fn a_broker_directory_loads_clean_with_its_aborted_transaction() {
    let (code, text) = run(&[fixture("txn-1").to_str().unwrap()]);
    assert_eq!(code, 0, "{text}");
    assert!(text.contains("producer state loaded from: 00000000000000000005.snapshot (offset 5)"), "{text}");
    // The same line the broker's .txnindex dump holds (00000000000000000000.txnindex.dump-log.txt).
    let dumped = std::fs::read_to_string(fixture("txn-1").join("00000000000000000000.txnindex.dump-log.txt")).unwrap();
    let entry = dumped.lines().nth(1).unwrap().trim_start_matches("version: 0 ");
    assert!(text.contains(&format!("  {entry}")), "{entry}\n{text}");
    assert!(text.contains("ok   00000000000000000000.txnindex"), "{text}");
    assert!(!text.contains("DIFF"), "{text}");
}

#[test]
fn a_disagreeing_index_exits_1_and_says_which_entry() {
    let tmp = std::env::temp_dir().join(format!("eoslab-partition-{}", std::process::id()));
    std::fs::create_dir_all(&tmp).unwrap();
    for f in ["00000000000000000000.log", "00000000000000000000.index"] {
        let mut b = std::fs::read(fixture("idempotent-0").join(f)).unwrap();
        if f.ends_with(".index") {
            // The first entry's position (bytes 4..8) moved off its batch.
            b[7] = b[7].wrapping_add(1);
        }
        std::fs::write(tmp.join(f), b).unwrap();
    }
    let (code, text) = run(&[tmp.to_str().unwrap()]);
    std::fs::remove_dir_all(&tmp).ok();
    assert_eq!(code, 1, "{text}");
    assert!(text.contains("DIFF 00000000000000000000.index") && text.contains("no batch starts there"), "{text}");
    let (code, text) = run(&["--json", fixture("idempotent-0").to_str().unwrap()]);
    assert_eq!(code, 0, "{text}");
    let v: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert_eq!(v["logEndOffset"], 7);
    assert_eq!(v["producers"][0]["batches"][0]["lastSequence"], 6);
}

#[test]
fn continue_in_the_simulator_starts_from_the_loaded_state_and_its_expectations_hold() {
    // Every broker directory: the script `--script` writes runs, and its own expectations
    // (the retry of each producer's last batch is a duplicate; a late batch from the previous
    // epoch is refused) pass.
    for dir in ["idempotent-0", "txn-0", "txn-1", "ctp-out-0", "compressed-0", "logappend-0"] {
        let (code, script) = run(&["--script", fixture(dir).to_str().unwrap()]);
        assert_eq!(code, 0, "{dir}: {script}");
        assert!(script.contains("producer-state p0 pid="), "{dir}: {script}");
        assert!(script.contains("expect last"), "{dir}: {script}");
        let path = std::env::temp_dir().join(format!("eoslab-continue-{}-{dir}.eos", std::process::id()));
        std::fs::write(&path, &script).unwrap();
        let out = Command::new(env!("CARGO_BIN_EXE_eoslab")).arg("run").arg(&path).output().unwrap();
        std::fs::remove_file(&path).ok();
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(out.status.success(), "{dir}:\n{script}\n{text}");
        assert!(text.contains(" 0 failed"), "{dir}: {text}");
    }
}

#[test]
fn write_dir_lays_out_the_models_leader_and_eoslab_partition_reads_it_back_clean() {
    // scenarios/marker-retried.eos: a transaction committed, its marker written twice, a second
    // transaction aborted by a new coordinator: the directory holds a .txnindex entry.
    let tmp = std::env::temp_dir().join(format!("eoslab-write-dir-{}", std::process::id()));
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../scenarios/marker-retried.eos");
    let (code, listed) = run(&["--write-dir", tmp.to_str().unwrap(), "--script", script.to_str().unwrap(), "--index-interval-bytes", "1"]);
    assert_eq!(code, 0, "{listed}");
    let dir = tmp.join("orders-0");
    for f in ["00000000000000000000.log", "00000000000000000000.index", "00000000000000000000.timeindex", "00000000000000000000.txnindex", "00000000000000000006.snapshot", "leader-epoch-checkpoint", "partition.metadata"] {
        assert!(listed.contains(&format!("{} (", dir.join(f).display())), "{f}: {listed}");
    }
    let (code, text) = run(&[dir.to_str().unwrap()]);
    std::fs::remove_dir_all(&tmp).ok();
    assert_eq!(code, 0, "{text}");
    assert!(!text.contains("DIFF"), "{text}");
    assert!(text.contains("producer state loaded from: 00000000000000000006.snapshot (offset 6)"), "{text}");
    // The script's own expectations: `expect lso orders-0 6`, the ABORT at offset 5 of the
    // transaction from offset 4 (lastStableOffset 6).
    assert!(text.contains("last stable offset: 6 "), "{text}");
    assert!(text.contains("  producerId: 4000 firstOffset: 4 lastOffset: 5 lastStableOffset: 6"), "{text}");
    assert!(text.contains("leader epochs (leader-epoch-checkpoint): epoch 0 from offset 0"), "{text}");
    assert!(text.contains("ok   00000000000000000000.index — OffsetIndex.sanityCheck (kafka-dump-log --index-sanity-check)"), "{text}");
    assert!(text.contains("snapshot 00000000000000000006.snapshot: version 1 CRC-32C 0x"), "{text}");
    // The producer as the broker rebuilds it: epoch 2 after the abort with the new coordinator's epoch 1.
    assert!(text.contains("  producer 4000 epoch 2 coordinatorEpoch 1 "), "{text}");
    // Bad arguments say what is missing.
    let (code, text) = run(&["--write-dir", "x"]);
    assert_eq!(code, 2);
    assert!(text.contains("--write-dir needs --script SCENARIO.eos"), "{text}");
}

/// `eoslab partition DIR` with a deadline: a FIFO or a device in the directory must not make it
/// wait or read forever.
#[cfg(unix)]
fn run_within(args: &[&str], secs: u64) -> (i32, String) {
    use std::io::Read;
    let mut child = Command::new(env!("CARGO_BIN_EXE_eoslab"))
        .arg("partition")
        .args(args)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(secs);
    let status = loop {
        if let Some(s) = child.try_wait().unwrap() {
            break s;
        }
        if std::time::Instant::now() > deadline {
            child.kill().ok();
            child.wait().ok();
            panic!("eoslab partition {args:?} still running after {secs} s");
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    };
    let mut text = String::new();
    child.stdout.take().unwrap().read_to_string(&mut text).unwrap();
    child.stderr.take().unwrap().read_to_string(&mut text).unwrap();
    (status.code().unwrap_or(-1), text)
}

#[test]
fn a_batch_with_a_bad_crc_is_an_error_as_the_brokers_recovery_finds_it() {
    let tmp = std::env::temp_dir().join(format!("eoslab-partition-crc-{}", std::process::id()));
    std::fs::create_dir_all(&tmp).unwrap();
    let mut log = std::fs::read(fixture("idempotent-0").join("00000000000000000000.log")).unwrap();
    // The first batch's last byte (inside its records): its stored CRC no longer matches.
    let first_len = 12 + i32::from_be_bytes(log[8..12].try_into().unwrap()) as usize;
    log[first_len - 1] ^= 0xff;
    std::fs::write(tmp.join("00000000000000000000.log"), &log).unwrap();
    let (code, text) = run(&[tmp.to_str().unwrap()]);
    std::fs::remove_dir_all(&tmp).ok();
    assert_eq!(code, 1, "{text}");
    assert!(
        text.contains("error: 00000000000000000000.log: CorruptRecordException at byte 17: Record is corrupt (stored crc = "),
        "{text}"
    );
    assert!(text.contains("truncates the segment at byte 0 (LogSegment.recover)"), "{text}");
}

#[cfg(unix)]
#[test]
fn files_that_cannot_be_read_are_named_with_why_and_nothing_waits_or_reads_forever() {
    let tmp = std::env::temp_dir().join(format!("eoslab-partition-special-{}", std::process::id()));
    std::fs::create_dir_all(&tmp).unwrap();
    let log = std::fs::read(fixture("idempotent-0").join("00000000000000000000.log")).unwrap();
    std::fs::write(tmp.join("00000000000000000000.log"), &log).unwrap();
    let fifo = tmp.join("00000000000000000007.log");
    assert!(Command::new("mkfifo").arg(&fifo).status().unwrap().success());
    std::os::unix::fs::symlink("/dev/zero", tmp.join("00000000000000000009.log")).unwrap();
    std::os::unix::fs::symlink(tmp.join("00000000000000000011.log"), tmp.join("00000000000000000011.log")).unwrap();
    std::fs::create_dir(tmp.join("00000000000000000013.log")).unwrap();
    let (code, text) = run_within(&[tmp.to_str().unwrap()], 30);
    // Each named file given alone, too.
    let (fifo_code, fifo_text) = run_within(&[fifo.to_str().unwrap()], 30);
    std::fs::remove_dir_all(&tmp).ok();
    assert_eq!(code, 1, "{text}");
    assert!(text.contains("error: 00000000000000000007.log: could not be read: a FIFO (named pipe)"), "{text}");
    assert!(text.contains("error: 00000000000000000009.log: could not be read: a device, not a file"), "{text}");
    assert!(text.contains("error: 00000000000000000011.log: could not be read: Too many levels of symbolic links"), "{text}");
    assert!(text.contains("error: 00000000000000000013.log: could not be read: a directory, not a file"), "{text}");
    // The readable segment is still loaded.
    assert!(text.contains("00000000000000000000.log"), "{text}");
    assert_eq!(fifo_code, 1, "{fifo_text}");
    assert!(fifo_text.contains("could not be read: a FIFO (named pipe)"), "{fifo_text}");
}
