//! `eoslab capture`: the recorded Java-client traffic of tests/fixtures/capture-4.3.1 as a pcapng
//! (`capture.pcapng`, written from the recorded streams by tests/kafka/capture_pcap.py), read
//! exchange by exchange and checked against Kafka's own reading of every frame (the `.json`
//! beside each recording); damaged captures exit 1 and say where.

use std::path::PathBuf;
use std::process::{Command, Output};

fn fixtures() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/fixtures/capture-4.3.1")
}

fn eoslab(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_eoslab")).args(args).output().unwrap()
}

#[test]
fn a_capture_of_real_traffic_is_every_request_paired_with_kafkas_reading() {
    let pcap = fixtures().join("capture.pcapng");
    let o = eoslab(&["capture", pcap.to_str().unwrap(), "--json"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let rep: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(rep["format"], "pcapng");
    let exchanges = rep["exchanges"].as_array().unwrap();
    let mut names: Vec<PathBuf> = std::fs::read_dir(fixtures()).unwrap().map(|e| e.unwrap().path()).filter(|p| p.extension().is_some_and(|x| x == "json")).collect();
    names.sort();
    assert_eq!(rep["connections"].as_array().unwrap().len(), names.len());
    for (i, f) in names.iter().enumerate() {
        let kafka: serde_json::Value = serde_json::from_slice(&std::fs::read(f).unwrap()).unwrap();
        let requests: Vec<&serde_json::Value> = kafka.as_array().unwrap().iter().filter(|x| x["kind"] == "request").collect();
        let ours: Vec<&serde_json::Value> = exchanges.iter().filter(|e| e["connection"] == i + 1).collect();
        assert_eq!(ours.len(), requests.len(), "{}", f.display());
        for (e, r) in ours.iter().zip(requests) {
            assert_eq!((&e["apiName"], &e["apiVersion"], &e["correlationId"]), (&r["api"], &r["version"], &r["correlationId"]), "{}", f.display());
            assert_eq!(e["response"]["message"]["correlationId"], r["correlationId"], "answered, with the same correlation id");
        }
    }
    // The text says the same, with each answer's errors: the producer's first InitProducerId
    // met a coordinator still loading.
    let o = eoslab(&["capture", pcap.to_str().unwrap()]);
    let text = String::from_utf8(o.stdout).unwrap();
    assert!(text.contains("7 TCP connection(s), 7 carrying Kafka"), "{text}");
    assert!(text.contains("InitProducerId v5  correlation id 6  client \"capture-producer\"  → COORDINATOR_LOAD_IN_PROGRESS(14)"), "{text}");
    assert!(text.contains("\n44 exchange(s), 44 answered; 0 problem(s)\n"), "{text}");
}

#[test]
fn a_damaged_capture_exits_1_and_says_where() {
    let whole = std::fs::read(fixtures().join("capture.pcapng")).unwrap();
    let dir = std::env::temp_dir().join(format!("eoslab-capture-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let cut = dir.join("cut.pcapng");
    std::fs::write(&cut, &whole[..whole.len() - 100]).unwrap();
    let o = eoslab(&["capture", cut.to_str().unwrap()]);
    let text = String::from_utf8_lossy(&o.stdout).to_string();
    assert_eq!(o.status.code(), Some(1), "{text}");
    assert!(text.contains("error: file byte ") && text.contains("the capture ends inside a block"), "{text}");
    assert!(text.contains("exchange(s)"), "what did decode is still shown: {text}");
    let junk = dir.join("junk.pcap");
    std::fs::write(&junk, b"this is not a capture").unwrap();
    let o = eoslab(&["capture", junk.to_str().unwrap()]);
    std::fs::remove_dir_all(&dir).unwrap();
    assert_eq!(o.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&o.stdout).contains("error: file byte 0: not a pcap or pcapng capture"), "{}", String::from_utf8_lossy(&o.stdout));
}

#[test]
fn filters_keep_the_exchanges_of_one_transaction_one_producer_or_one_partition() {
    let pcap = fixtures().join("capture.pcapng");
    let json = |extra: &[&str]| -> Vec<serde_json::Value> {
        let mut args = vec!["capture", pcap.to_str().unwrap(), "--json"];
        args.extend_from_slice(extra);
        let o = eoslab(&args);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        let rep: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
        rep["exchanges"].as_array().unwrap().clone()
    };
    let api = |e: &serde_json::Value| e["apiName"].as_str().unwrap().to_string();
    // The transactional producer's coordinator requests, its transactional Produce requests, and
    // the leader's AddPartitionsToTxn verification (v5) name "capture-tx"; the markers do not
    // (WriteTxnMarkers carries the producer id only).
    let txn = json(&["--transactional-id", "capture-tx"]);
    assert_eq!(txn.len(), 20);
    assert!(txn.iter().all(|e| ["InitProducerId", "AddPartitionsToTxn", "AddOffsetsToTxn", "TxnOffsetCommit", "Produce", "EndTxn"].contains(&api(e).as_str())), "{txn:?}");
    // Producer id 0 also reaches the markers (their field) and the Fetch answer (its batches'
    // headers), but not the first InitProducerId, answered before an id was given.
    let pid = json(&["--producer-id", "0"]);
    assert!(pid.iter().any(|e| api(e) == "WriteTxnMarkers") && pid.iter().any(|e| api(e) == "Fetch"));
    assert!(!pid.iter().any(|e| e["correlationId"] == 6 && api(e) == "InitProducerId"));
    // One partition, one api: the first markers are the only WriteTxnMarkers for txn-1.
    let markers = json(&["--api", "writetxnmarkers", "--partition", "txn-1"]);
    assert_eq!(markers.len(), 1);
    assert_eq!(markers[0]["about"]["partitions"], serde_json::json!(["txn-0", "txn-1", "__consumer_offsets-0"]));
    // The text names what each exchange is about, and says the list is filtered.
    let o = eoslab(&["capture", pcap.to_str().unwrap(), "--api", "EndTxn"]);
    let text = String::from_utf8(o.stdout).unwrap();
    assert!(text.contains("EndTxn v4  correlation id 15  client \"capture-producer\"  → NONE after 0.100 ms  [transactional.id \"capture-tx\", producer id 0]"), "{text}");
    assert!(text.contains("\n3 exchange(s) kept by the filter, 3 answered"), "{text}");
    assert!(!text.contains("connection 1:"), "connections with nothing kept are left out: {text}");
    let o = eoslab(&["capture", pcap.to_str().unwrap(), "--producer-id", "x"]);
    assert!(!o.status.success() && String::from_utf8_lossy(&o.stderr).contains("--producer-id needs a number"));
}

#[test]
fn check_replays_the_capture_and_real_kafka_agrees_with_the_simulator() {
    let pcap = fixtures().join("capture.pcapng");
    let o = eoslab(&["capture", pcap.to_str().unwrap(), "--check"]);
    let text = String::from_utf8(o.stdout).unwrap();
    assert!(o.status.success(), "{text}");
    assert!(text.ends_with("16 agree, 0 differ, 28 cannot be judged\n"), "{text}");
    assert!(text.contains("agrees        connection 2 EndTxn v4 correlation id 15 (E3)"), "{text}");
    assert!(text.contains("cannot judge  connection 2 InitProducerId v5 correlation id 6: Kafka answered COORDINATOR_LOAD_IN_PROGRESS(14) without deciding"), "{text}");
    assert!(text.contains("  Produce                  3     0     0\n"), "{text}");
    // The same as JSON, one verdict per exchange; a filter keeps the verdicts of its exchanges.
    let o = eoslab(&["capture", pcap.to_str().unwrap(), "--check", "--json", "--api", "EndTxn"]);
    let c: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let v = c["verdicts"].as_array().unwrap();
    assert_eq!(v.len(), 3);
    assert!(v.iter().all(|j| j["verdict"] == "agrees" && j["rule"] == "E3" && j["source"].as_str().unwrap().starts_with("core/src/main/scala/kafka/coordinator/transaction/")), "{v:?}");
    // --script is the replay a user continues from: `eoslab run` runs it as it is.
    let o = eoslab(&["capture", pcap.to_str().unwrap(), "--script", "--kafka", "4.1"]);
    let script = String::from_utf8(o.stdout).unwrap();
    assert!(script.starts_with("model transactions\ntitle Replay of capture.pcapng\n"), "{script}");
    assert!(script.contains("cluster transaction.version=1 kafka=4.1\nfirst-producer-id 0\npartition txn-0 txn-1\n"), "{script}");
    assert!(script.contains("\nend-txn transactional.id=capture-tx pid=0 epoch=0 commit v=4 as x14\n"), "{script}");
    let path = std::env::temp_dir().join(format!("eoslab-capture-replay-{}.eos", std::process::id()));
    std::fs::write(&path, &script).unwrap();
    let o = eoslab(&["run", path.to_str().unwrap()]);
    std::fs::remove_file(&path).ok();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stdout));
    let o = eoslab(&["capture", pcap.to_str().unwrap(), "--check", "--kafka", "5.0"]);
    assert!(!o.status.success() && String::from_utf8_lossy(&o.stderr).contains("--kafka takes 4.1, 4.3 or trunk"));
}
