//! The `eoslab` binary as a terminal user runs it: exit codes, the listing, JSON, encode
//! and scenario runs.

use std::io::Write;
use std::process::{Command, Output, Stdio};

/// Example A of the golden vectors (crate/core/tests/golden.rs): an idempotent batch, key "k", value "v".
const EXAMPLE_A: &str = "00 00 00 00 00 00 00 00 00 00 00 3a ff ff ff ff 02 8c 4a 54 5e 00 00 00 00 00 00 \
00 00 01 8b cf e5 68 00 00 00 01 8b cf e5 68 00 00 00 00 00 00 00 10 92 00 01 00 00 00 07 00 00 00 01 10 00 00 00 02 6b 02 76 00";

fn eoslab(args: &[&str], stdin: &[u8]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_eoslab"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // A usage error exits before reading stdin: a broken pipe here is that, not a failure.
    if let Err(e) = child.stdin.take().unwrap().write_all(stdin) {
        assert_eq!(e.kind(), std::io::ErrorKind::BrokenPipe, "{e}");
    }
    child.wait_with_output().unwrap()
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

#[test]
fn decode_prints_a_dump_log_style_listing_and_exits_0() {
    let o = eoslab(&["decode", "-"], EXAMPLE_A.as_bytes());
    assert!(o.status.success(), "{}", text(&o.stderr));
    let out = text(&o.stdout);
    assert!(out.starts_with("Input: hex (70 bytes)"), "{out}");
    assert!(out.contains("producerId: 4242 producerEpoch: 1"), "{out}");
    assert!(out.contains("crc: 2353681502 isvalid: true"), "{out}");
    assert!(out.contains("| offset: 0 CreateTime: 1700000000000 keySize: 1 valueSize: 1 sequence: 7 headerKeys: [] key: k payload: v"));
}

#[test]
fn decode_of_binary_bytes_works_too() {
    let bytes: Vec<u8> = EXAMPLE_A.split_whitespace().map(|h| u8::from_str_radix(h, 16).unwrap()).collect();
    let o = eoslab(&["decode"], &bytes);
    assert!(o.status.success());
    assert!(text(&o.stdout).starts_with("Input: binary (70 bytes)"));
}

#[test]
fn a_corrupt_batch_exits_1_and_names_the_kafka_exception_and_byte() {
    let bad = EXAMPLE_A.replacen("6b 02 76", "6c 02 76", 1);
    let o = eoslab(&["decode", "-"], bad.as_bytes());
    assert_eq!(o.status.code(), Some(1));
    assert!(text(&o.stdout).contains("! error at byte 17 CorruptRecordException: Record is corrupt (stored crc = 2353681502"));
}

#[test]
fn json_output_is_the_decode_contract() {
    let o = eoslab(&["decode", "--json", "-"], EXAMPLE_A.as_bytes());
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["format"], "hex");
    assert_eq!(v["batches"][0]["header"]["producerId"], "4242", "int64 as an exact decimal string");
    assert_eq!(v["batches"][0]["records"][0]["value"], "76");
}

#[test]
fn encode_writes_the_batch_a_java_producer_would() {
    let spec = r#"{"header":{"producerId":4242,"producerEpoch":1,"baseSequence":7},
                   "records":[{"timestamp":"1700000000000","keyText":"k","valueText":"v"}]}"#;
    let o = eoslab(&["encode", "-"], spec.as_bytes());
    assert!(o.status.success(), "{}", text(&o.stderr));
    assert_eq!(text(&o.stdout).trim(), EXAMPLE_A.replace(' ', ""));
}

#[test]
fn run_prints_the_ladder_and_fails_on_a_broken_expectation() {
    let ok = "partition p\nproducer a\nsend a p x\nflush\nexpect b1 appended 0..0\n";
    let o = eoslab(&["run", "-"], ok.as_bytes());
    assert!(o.status.success(), "{}", text(&o.stdout));
    assert!(text(&o.stdout).contains("1 expectation(s): 1 passed, 0 failed"));
    let bad = "partition p\nproducer a\nsend a p x\nflush\nexpect b1 duplicate\n";
    let o = eoslab(&["run", "-"], bad.as_bytes());
    assert_eq!(o.status.code(), Some(1));
    assert!(text(&o.stdout).contains("FAILED line 5: expected b1 duplicate, got appended 0..0 [A6]"));
}

/// `--timeline`: an idempotence script's own run as the timeline draws it (the shape
/// `runTxnScenario` returns for it): the leader's answers with their rules, the same expectations.
#[test]
fn run_of_an_idempotence_script_as_a_timeline() {
    let ok = "partition p\nproducer a\nsend a p x\ndeliver request b1\nlose response b1\ntimeout a\nflush\nexpect b1 acked 0..0\nexpect log p x\n";
    let o = eoslab(&["run", "-", "--timeline"], ok.as_bytes());
    assert!(o.status.success(), "{}", text(&o.stdout));
    let out = text(&o.stdout);
    assert!(out.contains("2 expectation(s): 2 passed, 0 failed"), "{out}");
    assert!(out.contains("[A1]"), "the retry is a duplicate: {out}");
    let o = eoslab(&["run", "-", "--timeline", "--json"], ok.as_bytes());
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["model"], "idempotence");
    assert_eq!(v["records"].as_array().unwrap().len(), 1, "x is written once");
    let bad = ok.replace("acked 0..0", "acked 1..1");
    assert_eq!(eoslab(&["run", "-", "--timeline"], bad.as_bytes()).status.code(), Some(1));
}

#[test]
fn usage_errors_exit_2() {
    assert_eq!(eoslab(&["frobnicate"], b"").status.code(), Some(2));
    assert_eq!(eoslab(&["decode", "--nope"], b"").status.code(), Some(2));
}

#[test]
fn decode_with_a_formatter_prints_what_the_console_consumer_prints() {
    use eoslab_core::internal::{offset_commit_key, offset_commit_value, txn_log_key, txn_log_value, OffsetCommit, TxnLogValue};
    use eoslab_core::report::to_hex;
    let spec = |k: Vec<u8>, v: Vec<u8>| {
        format!(r#"{{"records":[{{"key":"{}","value":"{}"}},{{"key":"{}","value":null}}]}}"#, to_hex(&k), to_hex(&v), to_hex(&k))
    };
    let encode = |spec: String| {
        let o = eoslab(&["encode", "-"], spec.as_bytes());
        assert!(o.status.success(), "{}", text(&o.stderr));
        o.stdout
    };
    let v = TxnLogValue {
        producer_id: 100,
        producer_epoch: 50,
        transaction_timeout_ms: 500,
        transaction_status: 4,
        transaction_last_update_timestamp_ms: 1000,
        transaction_start_timestamp_ms: 750,
        ..TxnLogValue::default()
    };
    let txn_hex = encode(spec(txn_log_key("TXNID"), txn_log_value(&v, 1)));
    let o = eoslab(&["decode", "--formatter", "transaction-log", "-"], &txn_hex);
    assert!(o.status.success(), "{}", text(&o.stdout));
    let out = text(&o.stdout);
    assert!(out.contains(r#"|   formatter: {"key":{"type":0,"data":{"transactionalId":"TXNID"}},"value":{"version":1,"data":{"producerId":100,"producerEpoch":50,"transactionTimeoutMs":500,"transactionStatus":4,"transactionPartitions":[],"transactionLastUpdateTimestampMs":1000,"transactionStartTimestampMs":750}}}"#), "{out}");
    assert!(out.contains(r#"|   formatter: {"key":{"type":0,"data":{"transactionalId":"TXNID"}},"value":null}"#), "{out}");

    let c = OffsetCommit { group: "g".into(), topic: "t".into(), partition: 0, offset: 5, leader_epoch: -1, metadata: String::new(), commit_timestamp_ms: 9 };
    let hex = encode(spec(offset_commit_key("g", "t", 0), offset_commit_value(&c)));
    let o = eoslab(&["decode", "--json", "--formatter", "offsets", "-"], &hex);
    let j: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(
        j["batches"][0]["records"][0]["formatted"],
        r#"{"key":{"type":1,"data":{"group":"g","topic":"t","partition":0}},"value":{"version":4,"data":{"offset":5,"leaderEpoch":-1,"metadata":"","commitTimestamp":9}}}"#
    );
    // Without the option the field is absent.
    let o = eoslab(&["decode", "--json", "-"], &hex);
    let j: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert!(j["batches"][0]["records"][0].get("formatted").is_none());
    // An offset commit (type 1) is not a transaction-log record: the formatter prints nothing.
    let o = eoslab(&["decode", "--formatter", "transaction-log", "-"], &hex);
    assert!(o.status.success());
    assert!(text(&o.stdout).contains("|   formatter: (prints nothing for this record)"), "{}", text(&o.stdout));
    // A transaction-log key (type 0) read as a legacy offset commit key ends early: exit 1,
    // the error pinned on a key byte.
    let o = eoslab(&["decode", "--formatter", "offsets", "-"], &txn_hex);
    assert_eq!(o.status.code(), Some(1));
    let out = text(&o.stdout);
    assert!(out.contains("RuntimeException: Could not read record at offset 0 due to: Could not read record with version 0 from key's buffer"), "{out}");
    let o = eoslab(&["decode", "--formatter", "nope", "-"], &hex);
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn run_of_a_transactions_script_prints_the_timeline_and_checks_it() {
    let script = "model transactions\npartition p-0\nproducer a transactional.id=t\ninit a\nbegin a\nsend a p-0 x\ncommit a\ndeliver markers\nexpect a epoch 1\nexpect txn t CompleteCommit\n";
    let o = eoslab(&["run", "-"], script.as_bytes());
    assert!(o.status.success(), "{}", text(&o.stdout));
    let out = text(&o.stdout);
    assert!(out.contains("WriteTxnMarkers(COMMIT, producer 1000 epoch 1, coordinator epoch 0, p-0) [K2]"), "{out}");
    assert!(out.contains("invariant read-committed-sees-only-committed: holds"));
    assert!(out.contains("2 expectation(s): 2 passed, 0 failed"));
    // The same script on a transactions-V1 cluster: the epoch does not bump, so `expect a epoch 1` fails.
    let o = eoslab(&["run", "-", "--transaction-version", "1"], script.as_bytes());
    assert_eq!(o.status.code(), Some(1));
    assert!(text(&o.stdout).contains("FAILED line 9: expected a epoch 1, got 0"), "{}", text(&o.stdout));
    let o = eoslab(&["run", "-", "--json"], script.as_bytes());
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["model"], "transactions");
    assert_eq!(v["steps"].as_array().unwrap().len(), 7);
    assert_eq!(eoslab(&["run", "-", "--transaction-version", "5"], script.as_bytes()).status.code(), Some(2));

    // `eoslab twin`: the script's JSON twin, which `eoslab run` takes as it takes the text (the
    // options too); an idempotence script's twin has no `model`.
    let o = eoslab(&["twin", "-"], script.as_bytes());
    assert!(o.status.success(), "{}", text(&o.stderr));
    let twin = o.stdout;
    assert!(text(&twin).starts_with(r#"{"model":"transactions","#), "{}", text(&twin));
    for opts in [&[][..], &["--transaction-version", "1"][..]] {
        let args = |a: &[&'static str]| [&["run", "-", "--json"][..], a].concat();
        let (a, b) = (eoslab(&args(opts), script.as_bytes()), eoslab(&args(opts), &twin));
        assert_eq!((a.status.code(), text(&a.stdout)), (b.status.code(), text(&b.stdout)), "{opts:?}");
    }
    let idem = "partition p\nproducer app\nsend app p x\ndeliver request b1\nexpect b1 appended 0..0\n";
    let o = eoslab(&["twin", "-"], idem.as_bytes());
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert!(v.get("model").is_none() && v["steps"].as_array().unwrap().len() == 3, "{v}");
    assert_eq!(text(&eoslab(&["run", "-"], &o.stdout).stdout), text(&eoslab(&["run", "-"], idem.as_bytes()).stdout));
    let o = eoslab(&["twin", "-"], b"model transactions\npartition p\nbgein a\n");
    assert_eq!(o.status.code(), Some(2), "{}", text(&o.stderr));
    assert!(text(&o.stderr).contains("line 3"), "{}", text(&o.stderr));
}

fn envelope(name: &str) -> String {
    let p = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/fixtures/envelopes-4.3.1").join(format!("{name}.hex"));
    std::fs::read_to_string(p).unwrap()
}

/// A Fetch request and its response pasted together are detected as messages; the
/// tree names Kafka's fields with their bytes, and the aborted batch is marked as a
/// read_committed consumer skips it.
#[test]
fn decode_reads_requests_and_responses() {
    let input = envelope("fetch-v12-request") + &envelope("fetch-v12-response");
    let o = eoslab(&["decode", "-"], input.as_bytes());
    let t = text(&o.stdout);
    assert_eq!(o.status.code(), Some(0), "{t}");
    assert!(t.contains("#0 request Fetch v12 (header v2) correlationId: 22 [0..93)"), "{t}");
    assert!(t.contains("#1 response Fetch v12 (header v1) correlationId: 22 [93..519) answers #0"), "{t}");
    assert!(t.contains("            abortedTransactions: 1 element(s) [148..166)"), "{t}");
    assert!(t.contains("consumer READ_COMMITTED: aborted (aborted transaction firstOffset 3)"), "{t}");
    assert!(t.contains("              currentLeader (tag 1): [506..517)"), "{t}");
    assert!(t.ends_with("2 message(s), 0 error(s)\n"), "{t}");

    // A lone response needs its api key and version: by name or number.
    let resp = envelope("fetch-v12-response");
    let o = eoslab(&["decode", "--api-key", "Fetch", "--api-version", "12", "-"], resp.as_bytes());
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stdout));
    assert!(text(&o.stdout).contains("(api key and version from the options)"));
    let o = eoslab(&["decode", "--messages", "-"], resp.as_bytes());
    assert_eq!(o.status.code(), Some(1));
    assert!(text(&o.stdout).contains("request's api key and version"), "{}", text(&o.stdout));

    // --json is the decodeMessages object.
    let o = eoslab(&["decode", "--json", "-"], input.as_bytes());
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["messages"][1]["records"][0]["consumer"]["batches"][2]["verdict"], "aborted");
    assert_eq!(v["messages"][0]["apiName"], "Fetch");

    // --batches keeps the batch reading even for message bytes.
    let o = eoslab(&["decode", "--batches", "-"], input.as_bytes());
    assert!(text(&o.stdout).contains("batch(es)"));
    assert_eq!(eoslab(&["decode", "--api-key", "Fetch", "-"], b"").status.code(), Some(2));
}

/// `eoslab schedule … | head -c 100`: the reader goes away early. The program ends quietly, as
/// `cat` does (SIGPIPE), with no panic and no error message on stderr.
#[cfg(unix)]
#[test]
fn a_reader_that_goes_away_ends_the_output_quietly() {
    use std::io::Read;
    let mut child = Command::new(env!("CARGO_BIN_EXE_eoslab"))
        .args(["schedule", "--transactions", "--requests", "--seed", "1", "--count", "2000", "--steps", "30"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut first = [0u8; 100];
    child.stdout.as_mut().unwrap().read_exact(&mut first).unwrap();
    drop(child.stdout.take()); // the reader closes the pipe
    let o = child.wait_with_output().unwrap();
    assert_eq!(text(&o.stderr), "", "nothing on stderr: no panic, no error");
    assert!(!o.status.success(), "ended by the closed pipe, before writing 2000 schedules");
}
