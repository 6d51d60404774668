//! A real Kafka 4.3.1 broker's own files (tests/fixtures/kafka-4.3.1, made by `make
//! kafka-fixtures`, see its PROVENANCE.md) against what Kafka's DumpLogSegments printed for
//! them (`<file>.dump-log.txt`, the golden truth, parsed here).
//!
//! - Every `.log` decodes without an issue, batch by batch and record by record equal to the
//!   `--print-data-log --deep-iteration` listing: every header field DumpLogSegments prints,
//!   every record's offset, timestamp, sizes, sequence, header keys, key and payload, and the
//!   control records' endTxnMarker / coordinatorEpoch.
//! - `__transaction_state` / `__consumer_offsets`: our formatter's key and value JSON against
//!   the `--transaction-log-decoder` / `--offsets-decoder` key and payload.
//! - The broker's derived files against our decode of the `.log`: `.index` entries point at a
//!   batch start and name its last offset, `.timeindex` entries carry the max timestamp so far
//!   and its batch's last offset, `.txnindex` entries are the aborted transactions (ABORT markers
//!   and their first offsets), `.snapshot` entries are each producer's last epoch, timestamp,
//!   coordinator epoch and retained batches.
//!
//! No broker at test time: the fixtures are checked in. Nothing here names a producer id,
//! timestamp or CRC: every expected value is read from the dumps, so a regeneration needs no
//! change here.

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};

use eoslab_core::internal::InternalTopic;
use eoslab_core::report::{BatchReport, RecordReport, Report};
use eoslab_core::{decode_bytes, DecodeOptions};
use serde_json::Value;

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/fixtures/kafka-4.3.1")
}

/// The partition directories, sorted.
fn partition_dirs() -> Vec<PathBuf> {
    let mut dirs: Vec<PathBuf> = fs::read_dir(fixtures())
        .expect("tests/fixtures/kafka-4.3.1 (make kafka-fixtures)")
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_dir())
        .collect();
    dirs.sort();
    assert!(dirs.len() >= 5, "expected the fixture partition directories, found {dirs:?}");
    dirs
}

/// The files of `dir` ending with `ext`, sorted.
fn files(dir: &Path, ext: &str) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.file_name().unwrap().to_str().unwrap().ends_with(ext))
        .collect();
    v.sort();
    v
}

fn dump_of(file: &Path) -> String {
    let mut name = file.as_os_str().to_owned();
    name.push(".dump-log.txt");
    fs::read_to_string(&name).unwrap_or_else(|e| panic!("{}: {e}", Path::new(&name).display()))
}

fn topic_of(dir: &Path) -> Option<InternalTopic> {
    let name = dir.file_name().unwrap().to_str().unwrap();
    if name.starts_with("__transaction_state-") {
        Some(InternalTopic::TransactionState)
    } else if name.starts_with("__consumer_offsets-") {
        Some(InternalTopic::ConsumerOffsets)
    } else {
        None
    }
}

fn decode_log(file: &Path, formatter: Option<InternalTopic>) -> Report {
    let bytes = fs::read(file).unwrap();
    let report = decode_bytes(&bytes, &DecodeOptions { formatter, ..DecodeOptions::default() });
    assert!(report.errors.is_empty(), "{}: our decoder reports issues: {:#?}", file.display(), report.errors);
    assert_eq!(report.length, bytes.len());
    report
}

// ---------------------------------------------------------------------------------------
// Parsing DumpLogSegments' text

/// `name: value` pairs of a line whose values have no spaces, in order (names may repeat).
fn pairs(s: &str) -> Vec<(String, String)> {
    let toks: Vec<&str> = s.split(' ').collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < toks.len() {
        let name = toks[i].strip_suffix(':').unwrap_or_else(|| panic!("expected `name:` at {:?} in {s:?}", toks[i]));
        let value = *toks.get(i + 1).unwrap_or_else(|| panic!("no value for {name} in {s:?}"));
        out.push((name.to_string(), value.to_string()));
        i += 2;
    }
    out
}

#[derive(Debug)]
struct DumpBatch {
    line: String,
    fields: Vec<(String, String)>,
    records: Vec<DumpRecord>,
}

#[derive(Debug)]
struct DumpRecord {
    line: String,
    /// offset, CreateTime/LogAppendTime, keySize, valueSize, sequence, headerKeys, and for
    /// control records endTxnMarker, coordinatorEpoch.
    fields: Vec<(String, String)>,
    key: Option<String>,
    payload: Option<String>,
}

struct DataDump {
    log_start: i64,
    batches: Vec<DumpBatch>,
}

/// A `--print-data-log --deep-iteration` (or decoder) listing of one `.log`.
fn parse_data_dump(text: &str, file: &Path, internal: bool) -> DataDump {
    let mut lines = text.lines();
    let first = lines.next().unwrap();
    assert!(first.starts_with("Dumping "), "{first}");
    let mut log_start = None;
    let mut batches: Vec<DumpBatch> = Vec::new();
    for line in lines {
        if let Some(v) = line.strip_prefix("Log starting offset: ") {
            log_start = Some(v.parse().unwrap());
        } else if line.starts_with("baseOffset: ") {
            batches.push(DumpBatch { line: line.to_string(), fields: pairs(line), records: Vec::new() });
        } else if let Some(rest) = line.strip_prefix("| ") {
            let b = batches.last_mut().unwrap_or_else(|| panic!("{}: record line before any batch", file.display()));
            b.records.push(parse_record_line(line, rest, internal));
        } else {
            panic!("{}: a line this test does not know: {line:?}", file.display());
        }
    }
    DataDump { log_start: log_start.expect("Log starting offset"), batches }
}

fn parse_record_line(line: &str, rest: &str, internal: bool) -> DumpRecord {
    // Fixed part: up to and including `headerKeys: [...]` (header keys have no spaces here).
    let hk = rest.find("headerKeys: [").unwrap_or_else(|| panic!("no headerKeys in {line:?}"));
    let close = hk + rest[hk..].find(']').unwrap();
    let mut fields = pairs(&rest[..=close]);
    let mut tail = rest[close + 1..].strip_prefix(' ').unwrap_or("");
    let get = |f: &Vec<(String, String)>, n: &str| -> i64 {
        f.iter().find(|(k, _)| k == n).unwrap_or_else(|| panic!("no {n} in {line:?}")).1.parse().unwrap()
    };
    let (key_size, value_size) = (get(&fields, "keySize"), get(&fields, "valueSize"));
    let (mut key, mut payload) = (None, None);
    if tail.starts_with("endTxnMarker: ") {
        fields.extend(pairs(tail));
        tail = "";
    } else {
        if key_size >= 0 {
            let k = tail.strip_prefix("key: ").unwrap_or_else(|| panic!("keySize {key_size} but no key in {line:?}"));
            let end = if internal {
                // JSON: the first value's extent.
                let mut it = serde_json::Deserializer::from_str(k).into_iter::<Value>();
                it.next().unwrap().unwrap();
                it.byte_offset()
            } else if value_size >= 0 {
                // Kafka prints `new String(key, UTF_8)`: valid UTF-8 keys keep their byte length.
                key_size as usize
            } else {
                k.len()
            };
            key = Some(k[..end].to_string());
            tail = k[end..].strip_prefix(' ').unwrap_or(&k[end..]);
        }
        if value_size >= 0 {
            let p = tail.strip_prefix("payload: ").unwrap_or_else(|| panic!("valueSize {value_size} but no payload in {line:?}"));
            payload = Some(p.to_string());
            tail = "";
        }
    }
    assert!(tail.is_empty(), "unparsed {tail:?} in {line:?}");
    DumpRecord { line: line.to_string(), fields, key, payload }
}

fn field<'a>(fields: &'a [(String, String)], name: &str, line: &str) -> &'a str {
    &fields.iter().find(|(k, _)| k == name).unwrap_or_else(|| panic!("no {name} in {line:?}")).1
}

// ---------------------------------------------------------------------------------------
// Comparing

/// What our report says for each field DumpLogSegments prints on a batch line.
fn our_batch_fields(b: &BatchReport) -> Vec<(String, String)> {
    let h = &b.header;
    let a = &h.attributes;
    let horizon =
        if a.delete_horizon { format!("OptionalLong[{}]", h.base_timestamp) } else { "OptionalLong.empty".to_string() };
    [
        ("baseOffset", h.base_offset.to_string()),
        ("lastOffset", h.last_offset.to_string()),
        ("count", h.records_count.to_string()),
        ("baseSequence", h.base_sequence.to_string()),
        ("lastSequence", h.last_sequence.to_string()),
        ("producerId", h.producer_id.to_string()),
        ("producerEpoch", h.producer_epoch.to_string()),
        ("partitionLeaderEpoch", h.partition_leader_epoch.to_string()),
        ("isTransactional", a.transactional.to_string()),
        ("isControl", a.control.to_string()),
        ("deleteHorizonMs", horizon),
        ("position", b.start.to_string()),
        (a.timestamp_type, h.max_timestamp.to_string()),
        ("size", (b.end - b.start).to_string()),
        ("magic", h.magic.to_string()),
        ("compresscodec", a.compression.to_string()),
        ("crc", h.crc.to_string()),
        ("isvalid", h.crc_valid.to_string()),
    ]
    .into_iter()
    .map(|(k, v)| (k.to_string(), v))
    .collect()
}

fn size(v: &Option<Vec<u8>>) -> String {
    v.as_ref().map_or(-1, |v| v.len() as i64).to_string()
}

fn our_record_fields(b: &BatchReport, r: &RecordReport) -> Vec<(String, String)> {
    let mut v: Vec<(String, String)> = vec![
        ("offset".into(), r.offset.to_string()),
        (b.header.attributes.timestamp_type.into(), r.timestamp.to_string()),
        ("keySize".into(), size(&r.key)),
        ("valueSize".into(), size(&r.value)),
        ("sequence".into(), r.sequence.to_string()),
        ("headerKeys".into(), format!("[{}]", r.headers.iter().map(|h| h.key.as_str()).collect::<Vec<_>>().join(","))),
    ];
    if let Some(c) = &b.control {
        if let Some(e) = c.coordinator_epoch {
            v.push(("endTxnMarker".into(), c.type_name.clone()));
            v.push(("coordinatorEpoch".into(), e.to_string()));
        }
    }
    v
}

/// Kafka's `--transaction-log-decoder` / `--offsets-decoder` key (`{"type":"N","data":{…}}`) and
/// payload (`{"version":"N","data":{…}}`) against our formatter's
/// `{"key":{"type":N,"data":{…}},"value":{"version":N,"data":{…}}}`: the same numbers, the same
/// data objects (and the same data text, so field order and number rendering agree too).
fn compare_internal(ours: &str, kafka_key: &str, kafka_payload: Option<&str>, line: &str) {
    let o: Value = serde_json::from_str(ours).unwrap();
    let k: Value = serde_json::from_str(kafka_key).unwrap_or_else(|e| panic!("key JSON {e}: {line}"));
    let num = |v: &Value| -> i64 {
        match v {
            Value::String(s) => s.parse().unwrap(),
            Value::Number(n) => n.as_i64().unwrap(),
            _ => panic!("not a number: {v}"),
        }
    };
    assert_eq!(num(&k["type"]), num(&o["key"]["type"]), "record type\n  kafka: {line}\n  ours:  {ours}");
    assert_eq!(k["data"], o["key"]["data"], "key data\n  kafka: {line}\n  ours:  {ours}");
    assert!(ours.contains(&format!("\"data\":{}", raw_data(kafka_key))), "key data text\n  kafka: {line}\n  ours:  {ours}");
    match kafka_payload {
        // CoordinatorRecordMessageParser: a tombstone's payload is `<DELETE>`.
        None | Some("<DELETE>") => assert_eq!(o["value"], Value::Null, "kafka prints no value: {line}\n  ours: {ours}"),
        Some(text) => {
            let p: Value = serde_json::from_str(text).unwrap_or_else(|e| panic!("payload JSON {e}: {line}"));
            assert_eq!(num(&p["version"]), num(&o["value"]["version"]), "value version\n  kafka: {line}\n  ours:  {ours}");
            assert_eq!(p["data"], o["value"]["data"], "value data\n  kafka: {line}\n  ours:  {ours}");
            assert!(ours.contains(&format!("\"data\":{}}}}}", raw_data(text))), "value data text\n  kafka: {line}\n  ours:  {ours}");
        }
    }
}

/// The text of `"data":…` in `{"type"|"version":"N","data":…}` as Kafka printed it.
fn raw_data(json: &str) -> &str {
    let at = json.find(",\"data\":").unwrap_or_else(|| panic!("no data in {json}"));
    json[at + 8..].strip_suffix('}').unwrap()
}

/// One `.log` against its dump; returns our report for the derived-file checks.
fn check_log(dir: &Path, log: &Path) -> (Report, usize) {
    let internal = topic_of(dir);
    let report = decode_log(log, internal);
    let dump = parse_data_dump(&dump_of(log), log, internal.is_some());
    let segment_base: i64 = log.file_stem().unwrap().to_str().unwrap().parse().unwrap();
    assert_eq!(dump.log_start, segment_base);
    let ctx = log.strip_prefix(fixtures()).unwrap().display().to_string();
    assert_eq!(report.batches.len(), dump.batches.len(), "{ctx}: batch count");
    let mut records = 0;
    for (i, (ours, kafka)) in report.batches.iter().zip(&dump.batches).enumerate() {
        assert_eq!(our_batch_fields(ours), kafka.fields, "{ctx} batch {i}:\n  kafka: {}", kafka.line);
        assert_eq!(ours.records.len(), kafka.records.len(), "{ctx} batch {i}: records\n  kafka: {}", kafka.line);
        for (j, (r, k)) in ours.records.iter().zip(&kafka.records).enumerate() {
            let at = format!("{ctx} batch {i} record {j}:\n  kafka: {}", k.line);
            assert_eq!(our_record_fields(ours, r), k.fields, "{at}");
            records += 1;
            if ours.control.is_some() {
                assert_eq!((&k.key, &k.payload), (&None, &None), "{at}");
                continue;
            }
            match internal {
                None => {
                    let text = |b: &Option<Vec<u8>>| b.as_ref().map(|b| String::from_utf8_lossy(b).into_owned());
                    assert_eq!(text(&r.key), k.key, "key, {at}");
                    assert_eq!(text(&r.value), k.payload, "payload, {at}");
                }
                Some(_) => {
                    let f = r.formatted.as_deref().unwrap_or_else(|| panic!("our formatter printed nothing, {at}"));
                    let key = k.key.as_deref().unwrap_or_else(|| panic!("kafka printed no key, {at}"));
                    compare_internal(f, key, k.payload.as_deref(), &k.line);
                }
            }
        }
    }
    (report, records)
}

#[test]
fn every_log_decodes_as_dump_log_segments_prints_it() {
    let mut logs = 0;
    let mut batches = 0;
    let mut records = 0;
    let mut codecs = BTreeMap::new();
    let mut internal = BTreeMap::new();
    for dir in partition_dirs() {
        let segs = files(&dir, ".log");
        assert!(!segs.is_empty(), "{}: no .log", dir.display());
        for log in segs {
            let (report, n) = check_log(&dir, &log);
            logs += 1;
            batches += report.batches.len();
            records += n;
            for b in &report.batches {
                *codecs.entry(b.header.attributes.compression.to_string()).or_insert(0) += 1;
            }
            if let Some(t) = topic_of(&dir) {
                *internal.entry(t.topic_name()).or_insert(0) += n;
            }
        }
    }
    // The fixture set covers what PROVENANCE.md says it does.
    for c in ["none", "gzip", "snappy", "lz4", "zstd"] {
        assert!(codecs.contains_key(c), "no {c} batch in the fixtures: {codecs:?}");
    }
    assert!(internal.get("__transaction_state").copied().unwrap_or(0) > 0, "{internal:?}");
    assert!(internal.get("__consumer_offsets").copied().unwrap_or(0) > 0, "{internal:?}");
    eprintln!("{logs} logs, {batches} batches, {records} records compared; codecs {codecs:?}; internal {internal:?}");
}

// ---------------------------------------------------------------------------------------
// The derived files

/// Lines of a plain dump after `Dumping …`, as name/value pairs (none for an empty file).
fn plain_dump(file: &Path) -> Vec<(String, Vec<(String, String)>)> {
    let text = dump_of(file);
    let mut lines = text.lines();
    assert!(lines.next().unwrap().starts_with("Dumping "));
    lines
        .filter(|l| !l.ends_with(" is empty."))
        .map(|l| (l.to_string(), pairs(l)))
        .collect()
}

fn num(fields: &[(String, String)], name: &str, line: &str) -> i64 {
    field(fields, name, line).parse().unwrap_or_else(|_| panic!("{name} not a number in {line:?}"))
}

fn segment_report(dir: &Path) -> Report {
    let logs = files(dir, ".log");
    assert_eq!(logs.len(), 1, "{}: one segment expected", dir.display());
    decode_log(&logs[0], None)
}

#[test]
fn offset_index_entries_point_at_batches() {
    let mut entries = 0;
    for dir in partition_dirs() {
        let report = segment_report(&dir);
        for idx in files(&dir, ".index") {
            for (line, f) in plain_dump(&idx) {
                let (offset, position) = (num(&f, "offset", &line), num(&f, "position", &line) as usize);
                let b = report.batches.iter().find(|b| b.start == position).unwrap_or_else(|| {
                    panic!("{}: {line}: no batch starts at byte {position}", idx.display())
                });
                assert_eq!(b.header.last_offset, offset, "{}: {line}", idx.display());
                entries += 1;
            }
        }
    }
    assert!(entries > 0);
}

#[test]
fn time_index_entries_are_the_max_timestamp_so_far() {
    let mut entries = 0;
    for dir in partition_dirs() {
        let report = segment_report(&dir);
        for idx in files(&dir, ".timeindex") {
            for (line, f) in plain_dump(&idx) {
                let (ts, offset) = (num(&f, "timestamp", &line), num(&f, "offset", &line));
                let b = report.batches.iter().find(|b| b.header.last_offset == offset).unwrap_or_else(|| {
                    panic!("{}: {line}: no batch ends at offset {offset}", idx.display())
                });
                assert_eq!(b.header.max_timestamp, ts, "{}: {line}", idx.display());
                let so_far = report.batches.iter().filter(|b| b.header.last_offset <= offset).map(|b| b.header.max_timestamp).max();
                assert_eq!(so_far, Some(ts), "{}: {line}", idx.display());
                entries += 1;
            }
        }
    }
    assert!(entries > 0);
}

/// Aborted transactions as our decode shows them: (producerId, first offset, ABORT marker offset).
fn aborted_txns(report: &Report) -> Vec<(i64, i64, i64)> {
    let mut open: BTreeMap<i64, i64> = BTreeMap::new();
    let mut out = Vec::new();
    for b in &report.batches {
        let h = &b.header;
        if !h.attributes.transactional {
            continue;
        }
        match &b.control {
            None => {
                open.entry(h.producer_id).or_insert(h.base_offset);
            }
            Some(c) => {
                let first = open.remove(&h.producer_id);
                if c.type_name == "ABORT" {
                    out.push((h.producer_id, first.unwrap_or(h.base_offset), h.base_offset));
                }
            }
        }
    }
    out
}

#[test]
fn transaction_index_lists_the_aborted_transactions() {
    let mut entries = 0;
    for dir in partition_dirs() {
        let report = segment_report(&dir);
        let ours = aborted_txns(&report);
        let idx = files(&dir, ".txnindex");
        let mut kafka = Vec::new();
        for f in &idx {
            for (line, p) in plain_dump(f) {
                assert_eq!(field(&p, "version", &line), "0");
                let (pid, first, last) = (num(&p, "producerId", &line), num(&p, "firstOffset", &line), num(&p, "lastOffset", &line));
                assert!(num(&p, "lastStableOffset", &line) > last, "{line}");
                kafka.push((pid, first, last));
            }
        }
        assert_eq!(ours, kafka, "{}: aborted transactions (producerId, firstOffset, lastOffset)", dir.display());
        entries += kafka.len();
    }
    assert!(entries > 0);
}

#[test]
fn producer_snapshots_match_each_producers_last_batches() {
    let mut producers = 0;
    for dir in partition_dirs() {
        let report = segment_report(&dir);
        let snaps = files(&dir, ".snapshot");
        assert_eq!(snaps.len(), 1, "{}: one producer snapshot after a clean shutdown", dir.display());
        // The snapshot's offset is the log end offset.
        let leo: i64 = snaps[0].file_stem().unwrap().to_str().unwrap().parse().unwrap();
        assert_eq!(Some(leo), report.batches.last().map(|b| b.header.last_offset + 1), "{}", snaps[0].display());
        let mut seen = Vec::new();
        for (line, p) in plain_dump(&snaps[0]) {
            let pid = num(&p, "producerId", &line);
            let mine: Vec<&BatchReport> = report.batches.iter().filter(|b| b.header.producer_id == pid).collect();
            let last = mine.last().unwrap_or_else(|| panic!("{line}: producer {pid} has no batch in the log"));
            assert_eq!(num(&p, "producerEpoch", &line), last.header.producer_epoch as i64, "{line}");
            assert_eq!(num(&p, "lastTimestamp", &line), last.header.max_timestamp, "{line}");
            let marker_epoch = mine.iter().rev().find_map(|b| b.control.as_ref().and_then(|c| c.coordinator_epoch));
            assert_eq!(num(&p, "coordinatorEpoch", &line), marker_epoch.map_or(-1, i64::from), "{line}");
            let open_txn = last.header.attributes.transactional && last.control.is_none();
            assert_eq!(field(&p, "currentTxnFirstOffset", &line) == "OptionalLong.empty", !open_txn, "{line}");
            // Retained batch metadata: repeated groups of firstSequence … timestamp.
            let groups: Vec<&[(String, String)]> =
                p.iter().position(|(k, _)| k == "firstSequence").map_or(Vec::new(), |s| p[s..].chunks(5).collect());
            for g in groups {
                let names: Vec<&str> = g.iter().map(|(k, _)| k.as_str()).collect();
                assert_eq!(names, ["firstSequence", "lastSequence", "lastOffset", "offsetDelta", "timestamp"], "{line}");
                let lo = num(g, "lastOffset", &line);
                let b = mine.iter().find(|b| b.header.last_offset == lo).unwrap_or_else(|| panic!("{line}: no batch of {pid} ends at {lo}"));
                let h = &b.header;
                assert_eq!(num(g, "firstSequence", &line), h.base_sequence as i64, "{line}");
                assert_eq!(num(g, "lastSequence", &line), h.last_sequence as i64, "{line}");
                assert_eq!(num(g, "offsetDelta", &line), h.last_offset_delta as i64, "{line}");
                assert_eq!(num(g, "timestamp", &line), h.max_timestamp, "{line}");
            }
            seen.push(pid);
            producers += 1;
        }
        let mut with_pid: Vec<i64> = report.batches.iter().map(|b| b.header.producer_id).filter(|p| *p >= 0).collect();
        with_pid.sort();
        with_pid.dedup();
        seen.sort();
        assert_eq!(seen, with_pid, "{}: the producers the snapshot keeps", snaps[0].display());
    }
    assert!(producers > 0);
}
