//! Memory on hostile input: `eoslab decode` peaks under 3× its input + 64 MiB whatever the bytes,
//! measured as the child's peak resident set (`wait4`'s `ru_maxrss`, Linux).

#![cfg(target_os = "linux")]

use std::path::PathBuf;
use std::process::{Command, Stdio};

extern "C" {
    /// `pid_t wait4(pid_t, int *status, int options, struct rusage *)`; `struct rusage` on Linux
    /// is two `timeval`s then fourteen `long`s: 18 words on 64-bit targets, `ru_maxrss` (KiB)
    /// the fifth.
    fn wait4(pid: i32, status: *mut i32, options: i32, rusage: *mut [i64; 18]) -> i32;
}

const MIB: u64 = 1 << 20;

fn tmp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("eoslab-memory-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

/// Runs `eoslab args…`; returns its exit code, its stdout and its peak RSS in bytes.
fn run(args: &[&str]) -> (i32, String, u64) {
    let out = tmp(&format!("out-{}", args.join("_").replace('/', "_")));
    let child = Command::new(env!("CARGO_BIN_EXE_eoslab"))
        .args(args)
        .stdin(Stdio::null())
        .stdout(std::fs::File::create(&out).unwrap())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut status = 0i32;
    let mut usage = [0i64; 18];
    // SAFETY: waits for our own child; both pointers are valid for the call.
    let pid = unsafe { wait4(child.id() as i32, &mut status, 0, &mut usage) };
    assert_eq!(pid, child.id() as i32);
    let code = if status & 0x7f == 0 { (status >> 8) & 0xff } else { -1 };
    let text = std::fs::read_to_string(&out).unwrap_or_default();
    std::fs::remove_file(&out).ok();
    (code, text, usage[4] as u64 * 1024)
}

#[test]
fn decode_of_zeros_stays_within_three_times_its_input_plus_64_mib() {
    for mib in [1u64, 16, 64] {
        let path = tmp(&format!("zeros-{mib}"));
        std::fs::write(&path, vec![0u8; (mib * MIB) as usize]).unwrap();
        let budget = 3 * mib * MIB + 64 * MIB;
        let p = path.to_str().unwrap();
        for args in [&["decode", p][..], &["decode", "--messages", p], &["decode", "--json", p]] {
            let started = std::time::Instant::now();
            let (code, text, peak) = run(args);
            assert_eq!(code, 1, "{args:?}: {}", &text[text.len().saturating_sub(2000)..]);
            // The input is read whole: a peak below it would mean the measure is broken.
            assert!(peak >= mib * MIB, "{args:?}: peak {peak} bytes, below the input");
            assert!(peak <= budget, "{args:?}: peak {} MiB > budget {} MiB", peak / MIB, budget / MIB);
            assert!(started.elapsed().as_secs() < 20, "{args:?}: {:?}", started.elapsed());
            if args[1] == "--messages" {
                // The reading stops where its budget is spent, and says so on the byte.
                assert!(text.contains("MemoryBudgetExceeded: the decoded messages reached"), "{args:?}");
            } else if args[1] != "--json" {
                assert!(text.contains("! error at byte 8 CorruptRecordException: Record size 0 is less than the minimum record overhead (14)"), "{args:?}");
                assert!(text.contains("nothing recognised in"), "{args:?}");
            }
        }
        std::fs::remove_file(&path).ok();
    }
}

fn fixture(dir: &str, file: &str) -> PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/fixtures/kafka-4.3.1").join(dir).join(file)
}

/// A sparse 1 GiB `.log` or `.index` (set_len: no data written, nothing to read) is read no
/// further than the loader looks: the peak stays far under the file's size.
#[test]
fn partition_reads_a_sparse_gigabyte_segment_or_index_through_a_bounded_window() {
    const GIB: u64 = 1 << 30;
    let limit = 64 * MIB;
    // A segment of zeros: the first entry does not frame (size 0).
    let dir = tmp("sparse-log");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::File::create(dir.join("00000000000000000000.log")).unwrap().set_len(GIB).unwrap();
    let (code, text, peak) = run(&["partition", dir.to_str().unwrap()]);
    assert_eq!(code, 1, "{text}");
    assert!(text.contains("error: 00000000000000000000.log: CorruptRecordException at byte 8: Record size 0 is less than the minimum record overhead (14)"), "{text}");
    assert!(text.contains(&format!("{GIB} bytes")), "the segment's size is its file's: {text}");
    assert!(peak <= limit, "sparse .log: peak {} MiB", peak / MIB);
    std::fs::remove_dir_all(&dir).ok();

    // A real segment and its index grown to 1 GiB of zeros (as Kafka preallocates an index):
    // the same checks as the index alone.
    let dir = tmp("sparse-index");
    std::fs::create_dir_all(&dir).unwrap();
    for f in ["00000000000000000000.log", "00000000000000000000.index"] {
        std::fs::copy(fixture("idempotent-0", f), dir.join(f)).unwrap();
    }
    let entries = std::fs::metadata(dir.join("00000000000000000000.index")).unwrap().len() / 8;
    std::fs::OpenOptions::new().write(true).open(dir.join("00000000000000000000.index")).unwrap().set_len(GIB).unwrap();
    let (code, text, peak) = run(&["partition", dir.to_str().unwrap()]);
    assert!(peak <= limit, "sparse .index: peak {} MiB", peak / MIB);
    // The entries are checked, and the zeros after them counted as the file holds them.
    assert_eq!(code, 0, "{text}");
    assert!(
        text.contains(&format!("ok   00000000000000000000.index — {entries} entries against the log (each: a batch's last offset → its position) (then {} zero entries: preallocated space of an active segment)", GIB / 8 - entries)),
        "{text}"
    );
    std::fs::remove_dir_all(&dir).ok();
}
