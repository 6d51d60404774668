//! A capture's exchanges replayed on the simulator: the requests it models become a transactions
//! script of request lines, in capture order ([`replay`]), and running that script gives, for
//! each captured answer, the simulator's answer in the same state: a verdict per exchange
//! ([`check`]): it **agrees**, it **differs** (the field, both values, and the rule and Kafka
//! source that decide it), or it **cannot be judged** (and why: the state it depends on is not in
//! the capture, or the simulator does not answer that request).
//!
//! What the capture does not show is chosen, and said, in the script's header:
//! - the state before the capture: none (a fresh cluster). A transactional.id whose first request
//!   in the capture is not an InitProducerId cannot be judged;
//! - the producer ids the coordinator hands out: from the first one a captured InitProducerId
//!   returned (`first-producer-id`; the broker's block of ids is not in the capture), so that
//!   first id is taken, not judged; its epoch and every later id are;
//! - when the coordinator's WriteTxnMarkers arrive: before the transactional.id's next request,
//!   unless Kafka answered that request CONCURRENT_TRANSACTIONS (its markers still out), and
//!   before a read (`deliver markers`);
//! - the transaction version: 1 when a client sends AddPartitionsToTxn (v3 and below) or an
//!   EndTxn below v5, else 2.
//!
//! Compared: every error code (per partition where the answer has one per partition), and the
//! producer id and epoch InitProducerId (and EndTxn v5+) return. Not compared: offsets (they
//! depend on the partitions' history before the capture).

use alloc::collections::BTreeSet;
use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;

use super::{CaptureReport, Exchange};
pub use crate::conformance::{judge, Check, Judged, Verdict};
use crate::conformance::{Captured, ExchangeRef, Replay, Replayed};
use crate::message::Node;
use crate::model::errors::ErrorCode;

/// Answers that say where or when, not what: Kafka did not process the request, so replaying it
/// would answer a request Kafka never decided on.
const TRANSIENT: &[i16] = &[
    7,  // REQUEST_TIMED_OUT
    6,  // NOT_LEADER_OR_FOLLOWER
    13, // NETWORK_EXCEPTION
    14, // COORDINATOR_LOAD_IN_PROGRESS
    15, // COORDINATOR_NOT_AVAILABLE
    16, // NOT_COORDINATOR
];

/// The api keys replayed: Produce, ListOffsets, InitProducerId, AddPartitionsToTxn,
/// AddOffsetsToTxn, EndTxn, WriteTxnMarkers (as the coordinator's own `deliver markers`) and
/// TxnOffsetCommit.
const MODELLED: &[i16] = &[0, 2, 22, 24, 25, 26, 27, 28];

/// The field named `name` of struct `n`.
fn field<'a>(n: &'a Node, name: &str) -> Option<&'a Node> {
    n.child(name)
}

fn int(n: &Node, name: &str) -> Option<i64> {
    field(n, name)?.value.as_deref()?.parse().ok()
}

fn text<'a>(n: &'a Node, name: &str) -> Option<&'a str> {
    let f = field(n, name)?;
    if f.null {
        None
    } else {
        f.value.as_deref()
    }
}

/// The elements of array field `name` of `n`.
fn items<'a>(n: &'a Node, name: &str) -> impl Iterator<Item = &'a Node> {
    field(n, name).into_iter().flat_map(|a| a.children.iter())
}

/// Per-partition error codes of a response: `topics[].partitions[].errorCode`-shaped arrays
/// under any names (Produce, AddPartitionsToTxn, TxnOffsetCommit, ListOffsets, WriteTxnMarkers).
fn partition_errors(n: &Node, topic: Option<&str>, out: &mut Vec<(String, i16)>) {
    let topic = super::topic_name(n).or(topic);
    if let (Some(t), Some(i)) = (topic, super::partition_index(n)) {
        let code = ["errorCode", "partitionErrorCode"].iter().find_map(|f| int(n, f));
        if let Some(code) = code {
            out.push((format!("{t}-{i}"), code as i16));
            return;
        }
    }
    for c in &n.children {
        partition_errors(c, topic, out);
    }
}

/// The capture's exchanges in the order their requests were sent (capture time, then file order).
fn in_order(rep: &CaptureReport) -> Vec<usize> {
    let mut order: Vec<usize> = (0..rep.exchanges.len()).collect();
    order.sort_by_key(|&i| (rep.exchanges[i].request.as_ref().map_or(i64::MAX, |s| s.time_us), i));
    order
}

/// The transaction version the capture's clients show (see the module's doc).
fn transaction_version(rep: &CaptureReport) -> u8 {
    let tv1 = rep.exchanges.iter().any(|e| (e.api_key == 24 && e.api_version <= 3) || (e.api_key == 26 && e.api_version < 5));
    if tv1 {
        1
    } else {
        2
    }
}

/// Builds the script that replays `rep`'s modelled requests (see the module's doc).
pub fn replay(rep: &CaptureReport, name: &str, kafka: Option<&str>) -> Replay {
    let mut r = Replay { exchanges: rep.exchanges.iter().enumerate().map(exchange_ref).collect(), ..Replay::default() };
    let mut body: Vec<String> = Vec::new();
    let mut partitions: BTreeSet<String> = BTreeSet::new();
    let mut first_pid: Option<i64> = None;
    // transactional.ids seen initialised; those with an EndTxn whose markers are not delivered yet.
    let mut known: BTreeSet<String> = BTreeSet::new();
    let mut pending_markers = false;
    for i in in_order(rep) {
        let e = &rep.exchanges[i];
        if !MODELLED.contains(&e.api_key) {
            r.unjudged.push((i, format!("{} is not replayed: {}", e.api_name.unwrap_or("this API"), not_replayed_why(e))));
            continue;
        }
        let (Some(req), Some(resp)) = (e.request.as_ref().and_then(|s| s.message.body.as_ref()), e.response.as_ref().and_then(|s| s.message.body.as_ref())) else {
            r.unjudged.push((i, String::from(if e.response.is_none() { "no response in the capture" } else { "the request or its response could not be read" })));
            continue;
        };
        let own_error = int(resp, "errorCode").map(|c| c as i16);
        if let Some(c) = own_error.filter(|c| TRANSIENT.contains(c)) {
            r.unjudged.push((i, format!("Kafka answered {} without deciding on the request (a transient state the capture does not show); it is not replayed", ErrorCode(c))));
            continue;
        }
        let txn_id = ["transactionalId", "v3AndBelowTransactionalId"].iter().find_map(|f| text(req, f)).map(String::from);
        let label = format!("x{i}");
        let v = e.api_version;
        let mut captured = Captured::default();
        let mut lines: Vec<(Option<String>, String)> = Vec::new();
        match e.api_key {
            22 => {
                let pid = int(req, "producerId").unwrap_or(-1);
                let epoch = int(req, "producerEpoch").unwrap_or(-1);
                let mut l = String::from("init-producer-id");
                if let Some(t) = &txn_id {
                    l.push_str(&format!(" transactional.id={}", quoted(t)));
                }
                l.push_str(&format!(" timeout={}ms", int(req, "transactionTimeoutMs").unwrap_or(60_000)));
                if pid >= 0 {
                    l.push_str(&format!(" pid={pid} epoch={epoch}"));
                }
                l.push_str(&format!(" v={v} as {label}"));
                lines.push((None, l));
                captured.errors.push((String::new(), own_error.unwrap_or(0)));
                let got = (int(resp, "producerId").unwrap_or(-1), int(resp, "producerEpoch").unwrap_or(-1) as i16);
                if own_error == Some(0) {
                    captured.producer = Some(got);
                }
                // The ids the coordinator hands out start at the first one the capture shows.
                if first_pid.is_none() && pid < 0 && got.0 >= 0 {
                    first_pid = Some(got.0);
                }
                // From here the replay holds the coordinator's state for this id: the simulator's
                // own, decided on the captured requests.
                if let Some(t) = &txn_id {
                    known.insert(t.clone());
                }
            }
            24 if v <= 3 => {
                let parts = topic_partitions(req, "v3AndBelowTopics");
                partitions.extend(parts.iter().cloned());
                let l = format!(
                    "add-partitions-to-txn transactional.id={} pid={} epoch={} {} v={v} as {label}",
                    quoted(txn_id.as_deref().unwrap_or("")),
                    int(req, "v3AndBelowProducerId").unwrap_or(-1),
                    int(req, "v3AndBelowProducerEpoch").unwrap_or(-1),
                    parts.join(" ")
                );
                lines.push((None, l));
                partition_errors(resp, None, &mut captured.errors);
            }
            24 => {
                r.unjudged.push((i, String::from("a broker's AddPartitionsToTxn (v4+: the partition leader verifying a transactional Produce with the coordinator); the simulator's leader makes it itself when it replays the Produce")));
                continue;
            }
            25 => {
                lines.push((None, format!(
                    "add-offsets-to-txn transactional.id={} pid={} epoch={} group={} v={v} as {label}",
                    quoted(txn_id.as_deref().unwrap_or("")),
                    int(req, "producerId").unwrap_or(-1),
                    int(req, "producerEpoch").unwrap_or(-1),
                    quoted(text(req, "groupId").unwrap_or(""))
                )));
                captured.errors.push((String::new(), own_error.unwrap_or(0)));
            }
            26 => {
                let commit = field(req, "committed").and_then(|n| n.value.as_deref()) == Some("true");
                lines.push((None, format!(
                    "end-txn transactional.id={} pid={} epoch={} {} v={v} as {label}",
                    quoted(txn_id.as_deref().unwrap_or("")),
                    int(req, "producerId").unwrap_or(-1),
                    int(req, "producerEpoch").unwrap_or(-1),
                    if commit { "commit" } else { "abort" }
                )));
                captured.errors.push((String::new(), own_error.unwrap_or(0)));
                if v >= 5 && own_error == Some(0) {
                    captured.producer = Some((int(resp, "producerId").unwrap_or(-1), int(resp, "producerEpoch").unwrap_or(-1) as i16));
                }
            }
            28 if (4..=5).contains(&v) => {
                let mut offsets = Vec::new();
                for t in items(req, "topics") {
                    let topic = text(t, "name").unwrap_or("");
                    for p in items(t, "partitions") {
                        let tp = format!("{topic}-{}", int(p, "partitionIndex").unwrap_or(0));
                        partitions.insert(tp.clone());
                        offsets.push(format!("{tp}={}", int(p, "committedOffset").unwrap_or(0)));
                    }
                }
                let mut l = format!(
                    "txn-offset-commit transactional.id={} pid={} epoch={} group={} generation={} member={}",
                    quoted(txn_id.as_deref().unwrap_or("")),
                    int(req, "producerId").unwrap_or(-1),
                    int(req, "producerEpoch").unwrap_or(-1),
                    quoted(text(req, "groupId").unwrap_or("")),
                    int(req, "generationId").unwrap_or(-1),
                    quoted(text(req, "memberId").unwrap_or(""))
                );
                if let Some(g) = text(req, "groupInstanceId") {
                    l.push_str(&format!(" group-instance-id={}", quoted(g)));
                }
                l.push_str(&format!(" v={v} {} as {label}", offsets.join(" ")));
                lines.push((None, l));
                partition_errors(resp, None, &mut captured.errors);
            }
            0 => {
                if int(req, "acks") == Some(0) {
                    r.unjudged.push((i, String::from("acks=0: Kafka sends no answer")));
                    continue;
                }
                let m = &e.request.as_ref().expect("checked above").message;
                let side = e.request.as_ref().expect("checked above");
                for t in items(req, "topicData") {
                    let topic = text(t, "name").unwrap_or("");
                    for p in items(t, "partitionData") {
                        let tp = format!("{topic}-{}", int(p, "index").unwrap_or(0));
                        let Some(rec) = field(p, "records").filter(|n| !n.null) else { continue };
                        let batches = rec.records.and_then(|k| m.records.get(k)).map_or(0, |x| x.report.batches.len());
                        if batches != 1 {
                            r.unjudged.push((i, format!("{tp}: {batches} batches in one partition's records (a replayed produce line sends one)")));
                            continue;
                        }
                        let (s, e2) = (rec.start - m.start, rec.end - m.start);
                        // The records field's span includes its length prefix: the batch is its last bytes.
                        let batch_len = rec.records.and_then(|k| m.records.get(k)).map_or(0, |x| x.end - x.start);
                        let bytes = side.bytes.get(e2.saturating_sub(batch_len).max(s)..e2).unwrap_or(&[]);
                        partitions.insert(tp.clone());
                        let mut l = format!("produce {tp} batch={}", hex(bytes));
                        if let Some(t) = &txn_id {
                            l.push_str(&format!(" transactional.id={}", quoted(t)));
                        }
                        l.push_str(&format!(" v={v} as {label}.{tp}"));
                        lines.push((Some(tp), l));
                    }
                }
                partition_errors(resp, None, &mut captured.errors);
            }
            2 => {
                let committed = int(req, "isolationLevel") == Some(1);
                for t in items(req, "topics") {
                    let topic = text(t, "name").unwrap_or("");
                    for p in items(t, "partitions") {
                        let tp = format!("{topic}-{}", int(p, "partitionIndex").unwrap_or(0));
                        if int(p, "timestamp") != Some(-1) {
                            continue;
                        }
                        partitions.insert(tp.clone());
                        lines.push((Some(tp.clone()), format!("list-offsets {tp} {} as {label}.{tp}", if committed { "read_committed" } else { "read_uncommitted" })));
                    }
                }
                if lines.is_empty() {
                    r.unjudged.push((i, String::from("ListOffsets for a timestamp other than LATEST (-1): the simulator answers LATEST only")));
                    continue;
                }
                partition_errors(resp, None, &mut captured.errors);
            }
            27 => {
                r.unjudged.push((i, String::from("the coordinator's own WriteTxnMarkers: replayed as the simulator coordinator's `deliver markers` before the transactional.id's next request; its answers are not compared")));
                continue;
            }
            _ => {
                r.unjudged.push((i, format!("{} v{v} is not replayed: the simulator's request lines do not take that version", e.api_name.unwrap_or("this API"))));
                continue;
            }
        }
        if let Some(t) = &txn_id {
            if e.api_key != 22 && !known.contains(t) {
                r.unjudged.push((i, format!("transactional.id {t:?} was initialised before the capture began (no InitProducerId for it in the capture): its coordinator state is not known")));
                continue;
            }
        }
        // The coordinator's markers arrive before a transactional.id's next request (unless
        // Kafka's answer says they were still out) and before a read.
        let concurrent = captured.errors.iter().any(|(_, c)| *c == 51);
        if pending_markers && !concurrent {
            body.push(String::from("deliver markers"));
            pending_markers = false;
        }
        for (part, l) in lines {
            body.push(l);
            r.lines.push(Replayed { line: body.len(), exchange: i, part });
        }
        if e.api_key == 26 && own_error == Some(0) {
            pending_markers = true;
        }
        r.captured.push((i, captured));
    }
    let mut head = vec![
        String::from("model transactions"),
        format!("title Replay of {name}"),
        String::from("about Written by eoslab capture --script: the requests of the capture the simulator answers, in capture order."),
        String::from("about Assumed: a fresh cluster; the coordinator's markers arrive before the transactional.id's next request."),
    ];
    let mut cluster = format!("cluster transaction.version={}", transaction_version(rep));
    if let Some(k) = kafka {
        cluster.push_str(&format!(" kafka={k}"));
    }
    head.push(cluster);
    if let Some(p) = first_pid {
        head.push(format!("first-producer-id {p}"));
    }
    if !partitions.is_empty() {
        head.push(format!("partition {}", partitions.iter().cloned().collect::<Vec<_>>().join(" ")));
    }
    head.push(String::new());
    let offset = head.len();
    for l in &mut r.lines {
        l.line += offset;
    }
    head.extend(body);
    r.script = head.join("\n") + "\n";
    r
}

/// How the verdicts name exchange `i`, and the keys a difference in it taints.
fn exchange_ref((index, e): (usize, &Exchange)) -> ExchangeRef {
    let keys = e.about.transactional_ids.iter().chain(e.about.partitions.iter()).cloned().collect();
    ExchangeRef { index, api: String::from(e.api_name.unwrap_or("?")), connection: e.connection, correlation_id: e.correlation_id, keys }
}

/// `topic-partition` names of a request's `[]{name, partitions: []int32}` array field.
fn topic_partitions(req: &Node, array: &str) -> Vec<String> {
    items(req, array)
        .flat_map(|t| {
            let topic = text(t, "name").unwrap_or("").to_string();
            items(t, "partitions").filter_map(move |p| p.value.as_deref().map(|i| format!("{topic}-{i}")))
        })
        .collect()
}

fn not_replayed_why(e: &Exchange) -> &'static str {
    match e.api_key {
        1 => "Fetch answers are not compared yet",
        9 => "OffsetFetch answers are not compared yet",
        10 => "which broker coordinates depends on the cluster's layout, which the capture does not give",
        _ => "the simulator does not answer it",
    }
}

/// A value as a script word: as it is when it has no space, else in double quotes.
fn quoted(s: &str) -> String {
    if !s.is_empty() && !s.contains(char::is_whitespace) && !s.contains('"') {
        s.to_string()
    } else {
        format!("{s:?}")
    }
}

fn hex(b: &[u8]) -> String {
    b.iter().map(|x| format!("{x:02x}")).collect()
}

/// Replays `rep` on the simulator and judges each exchange (see the module's doc).
pub fn check(rep: &CaptureReport, name: &str, kafka: Option<&str>) -> Check {
    judge(&replay(rep, name, kafka))
}

#[cfg(test)]
mod tests {
    //! The real Java-client capture of `tests/fixtures/capture-4.3.1` (see its PROVENANCE.md)
    //! checked against the simulator, as it is and with one answer altered at a time (in the
    //! decoded report: the value the check reads, so each kind of altered answer is one edit).
    use super::*;
    use crate::capture::read_capture;

    fn fixture() -> CaptureReport {
        let path = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/fixtures/capture-4.3.1/capture.pcapng");
        read_capture(&std::fs::read(path).unwrap())
    }

    /// The exchange of `api` with correlation id `corr` on the producer's connections.
    fn find(rep: &CaptureReport, api: &str, corr: i32) -> usize {
        rep.exchanges.iter().position(|e| e.api_name == Some(api) && e.correlation_id == corr && e.connection <= 6).unwrap()
    }

    /// Sets the `nth` (0-based) field named `name` in the response of exchange `i` to `value`.
    fn alter(rep: &mut CaptureReport, i: usize, name: &str, nth: usize, value: &str) {
        fn walk<'a>(n: &'a mut Node, name: &str, out: &mut Vec<&'a mut Node>) {
            if n.name == name {
                out.push(n);
                return;
            }
            for c in &mut n.children {
                walk(c, name, out);
            }
        }
        let body = rep.exchanges[i].response.as_mut().unwrap().message.body.as_mut().unwrap();
        let mut found = Vec::new();
        walk(body, name, &mut found);
        found.into_iter().nth(nth).unwrap().value = Some(String::from(value));
    }

    fn verdict(c: &Check, i: usize) -> &Verdict {
        &c.verdicts.iter().find(|j| j.exchange == i).unwrap().verdict
    }

    #[test]
    fn real_kafka_agrees_with_the_simulator_on_every_answer_it_can_judge() {
        let rep = fixture();
        let c = check(&rep, "capture.pcapng", None);
        assert_eq!(c.error, None, "{}", c.script);
        assert_eq!(c.counts(None), (16, 0, 28), "{}", c.script);
        // Every kind of answer the check covers is judged at least once.
        for api in ["InitProducerId", "AddPartitionsToTxn", "AddOffsetsToTxn", "TxnOffsetCommit", "Produce", "EndTxn", "ListOffsets"] {
            assert!(c.counts(Some(api)).0 > 0, "{api} judged");
        }
        // The loading coordinator's answer is not held against the simulator: it is transient.
        let loading = find(&rep, "InitProducerId", 6);
        assert!(matches!(verdict(&c, loading), Verdict::CannotJudge { why } if why.contains("COORDINATOR_LOAD_IN_PROGRESS(14)")));
        // The script a user continues from is the same check's, runnable as it is.
        let sc = crate::model::txn_scenario::parse(&c.script).unwrap();
        assert!(crate::model::txn_scenario::run(&sc, None, false).error.is_none());
    }

    #[test]
    fn an_altered_answer_differs_at_its_exchange_with_the_rule_that_decides_it() {
        // (api, correlation id, field, which occurrence, altered value, the field named, the rule)
        let cases: &[(&str, i32, &str, usize, &str, &str, &str)] = &[
            ("InitProducerId", 7, "errorCode", 0, "47", "errorCode", "I10"),
            ("InitProducerId", 7, "producerEpoch", 0, "1", "producerId, producerEpoch", "I10"),
            ("AddPartitionsToTxn", 9, "partitionErrorCode", 0, "51", "txn-0 errorCode", "AP8"),
            ("AddOffsetsToTxn", 10, "errorCode", 0, "90", "errorCode", "AP8"),
            ("TxnOffsetCommit", 13, "errorCode", 0, "22", "txn-1 errorCode", "G4"),
            // (Kafka lists the Produce answer's partitions txn-1 first.)
            ("Produce", 14, "errorCode", 1, "45", "txn-0 errorCode", ""),
            ("EndTxn", 15, "errorCode", 0, "48", "errorCode", "E3"),
            ("ListOffsets", 3, "errorCode", 0, "6", "txn-0 errorCode", "L5"),
        ];
        let base = fixture();
        for &(api, corr, field, nth, value, named, rule) in cases {
            let mut rep = base.clone();
            let i = find(&rep, api, corr);
            alter(&mut rep, i, field, nth, value);
            let c = check(&rep, "altered", None);
            match verdict(&c, i) {
                Verdict::Differs { field: f, rule: r, source, .. } => {
                    assert_eq!(f, named, "{api} {corr} {field}");
                    if !rule.is_empty() {
                        assert_eq!(*r, rule, "{api} {corr} {field}");
                    }
                    assert!(!source.is_empty(), "{api} {corr}: the Kafka source is named");
                }
                v => panic!("{api} {corr} {field}={value}: {v:?}"),
            }
            assert_eq!(c.counts(None).1, 1, "{api} {corr} {field}: only the altered answer differs");
        }
    }

    #[test]
    fn a_transactional_id_first_seen_mid_transaction_cannot_be_judged() {
        let mut rep = fixture();
        // Drop the InitProducerId answers: the coordinator's state for capture-tx is unknown.
        for e in rep.exchanges.iter_mut().filter(|e| e.api_key == 22) {
            e.response = None;
        }
        let c = check(&rep, "mid-stream", None);
        let end = find(&rep, "EndTxn", 15);
        assert!(matches!(verdict(&c, end), Verdict::CannotJudge { why } if why.contains("initialised before the capture began")), "{:?}", verdict(&c, end));
        assert_eq!(c.counts(None).1, 0);
    }
}
