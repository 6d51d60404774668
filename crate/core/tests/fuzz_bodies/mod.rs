//! The bodies of the fuzz targets `dump_files` and `scripts` (fuzz/fuzz_targets/), shared with
//! the property tests that stand in for them without a nightly toolchain (tests/fuzz_props.rs)
//! and with the regression fixtures (tests/fuzz_regressions.rs). The fuzz targets include this
//! file by path, so all three run exactly the same checks. `capture.rs` holds the `capture`
//! target's body (it needs the core's `capture` feature).

use eoslab_core::files::dump::{DumpInput, DumpLog, DumpOptions, Stream};
use eoslab_core::internal::InternalTopic;

/// The file names `dump_files` gives its inputs: one per reader `kafka-dump-log` has, plus a
/// KRaft snapshot (read as a log) and a name it ignores.
pub const DUMP_NAMES: [&str; 7] = [
    "00000000000000000000.log",
    "00000000000000000000.index",
    "00000000000000000000.timeindex",
    "00000000000000000000.txnindex",
    "00000000000000000005.snapshot",
    "00000000000000000005-0000000001.checkpoint",
    "leader-epoch-checkpoint",
];

/// `eoslab dump-log` on fuzzer bytes: the first byte picks the file name and the options
/// (deep iteration, a decoder, index sanity check, verify-index-only, skip metadata), the second
/// where the rest is cut into the file itself, its sibling `.log` and its sibling `.index`.
/// Checks: no panic; a failure names the file that was dumped and its offset lies inside the
/// bytes read (the file or a sibling); the output starts by naming the file and stays within
/// a constant times the input (no line count from a length field). A line may hold a line
/// break: `--print-data-log` prints keys and values as Kafka's tool does, raw.
pub fn dump_files(data: &[u8]) {
    let [sel, cut, rest @ ..] = data else { return };
    let name = DUMP_NAMES[*sel as usize % DUMP_NAMES.len()];
    let bits = sel / DUMP_NAMES.len() as u8;
    let decoder = match bits % 3 {
        0 => None,
        1 => Some(InternalTopic::TransactionState),
        _ => Some(InternalTopic::ConsumerOffsets),
    };
    let opts = DumpOptions {
        print_data_log: bits & 4 != 0,
        deep_iteration: bits & 8 != 0,
        decoder,
        index_sanity_check: bits & 16 != 0,
        verify_index_only: bits & 32 != 0,
        skip_record_metadata: bits & 64 != 0,
        ..DumpOptions::default()
    };
    // The file takes the first `cut` 256ths of the rest; its siblings share what remains.
    let at = rest.len() * usize::from(*cut) / 256;
    let (file, siblings) = rest.split_at(at);
    let (log, index) = siblings.split_at(siblings.len() / 2);
    let mut d = DumpLog::new(opts);
    d.dump(&DumpInput { path: name, absolute_path: name, bytes: Ok(file), log: Some(Ok(log)), index: Some(Ok(index)) });
    d.finish();
    if let Some(f) = d.failed() {
        assert_eq!(f.path, name, "a failure in a file not dumped");
        let read = file.len().max(log.len()).max(index.len());
        assert!(f.error.at <= read, "failure at {} past the bytes read ({read}): {}", f.error.at, f.error.message);
    }
    let lines = d.lines();
    assert!(lines.first().is_some_and(|(s, l)| *s == Stream::Out && l == &format!("Dumping {name}")), "the dump does not start by naming its file");
    assert!(lines.len() <= data.len() + 16, "{} lines for {} bytes", lines.len(), data.len());
}

/// Both script dialects' parsers on fuzzer text (`model::scenario::parse`, the idempotence
/// dialect, and `model::txn_scenario::parse`, the transactions dialect; `is_transactions` picks
/// between them in the CLI). Checks: no panic; an error names a line of the script (1-based,
/// at most one past its last line) and says something.
pub fn scripts(data: &[u8]) {
    let Ok(text) = core::str::from_utf8(data) else { return };
    let lines = text.lines().count();
    let _ = eoslab_core::model::txn_scenario::is_transactions(text);
    if let Err(e) = eoslab_core::model::scenario::parse(text) {
        assert!(e.line <= lines + 1, "idempotence: error on line {} of {lines}: {}", e.line, e.message);
        assert!(!e.message.is_empty(), "idempotence: an error without a message");
    }
    if let Err(e) = eoslab_core::model::txn_scenario::parse(text) {
        assert!(e.line <= lines + 1, "transactions: error on line {} of {lines}: {}", e.line, e.message);
        assert!(!e.message.is_empty(), "transactions: an error without a message");
    }
}
