//! Golden envelopes: every message of `tests/fixtures/envelopes-4.3.1` was written by
//! Kafka 4.3.1's own serializers and read back by Kafka into JSON (see its PROVENANCE.md). eoslab
//! decodes the bytes with the vendored schemas; the tree, turned into the JSON converters' shape,
//! must equal Kafka's field for field. Plus streams, the consumer view of aborted transactions,
//! errors on the byte, and bounded allocation.
use std::path::PathBuf;

use eoslab_core::message::{decode_messages, decode_messages_bytes, Framing, MessageOptions, Node};
use serde_json::{json, Map, Value};

fn dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/fixtures/envelopes-4.3.1")
}

fn unhex(s: &str) -> Vec<u8> {
    let s = s.trim();
    (0..s.len()).step_by(2).map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap()).collect()
}

fn b64(bytes: &[u8]) -> String {
    const A: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut s = String::new();
    for ch in bytes.chunks(3) {
        let n = (u32::from(ch[0]) << 16) | (u32::from(*ch.get(1).unwrap_or(&0)) << 8) | u32::from(*ch.get(2).unwrap_or(&0));
        for i in 0..4 {
            if i <= ch.len() {
                s.push(A[((n >> (18 - 6 * i)) & 63) as usize] as char);
            } else {
                s.push('=');
            }
        }
    }
    s
}

/// Our tree in the shape of Kafka's `*JsonConverter.write` (tagged fields inline, by name).
fn kafka_json(n: &Node, bytes: &[u8]) -> Value {
    if n.null {
        return Value::Null;
    }
    match n.ty {
        "struct" => {
            let mut o = Map::new();
            for c in &n.children {
                if c.name == "_taggedFields" {
                    for t in &c.children {
                        if !t.name.starts_with("_tag") {
                            o.insert(t.name.to_string(), kafka_json(t, bytes));
                        }
                    }
                } else if c.name != "size" {
                    o.insert(c.name.to_string(), kafka_json(c, bytes));
                }
            }
            Value::Object(o)
        }
        "array" => Value::Array(n.children.iter().map(|c| kafka_json(c, bytes)).collect()),
        "bool" => Value::Bool(n.value.as_deref() == Some("true")),
        "string" | "uuid" => Value::String(n.value.clone().unwrap()),
        "float64" => json!(n.value.as_ref().unwrap().parse::<f64>().unwrap()),
        "bytes" => Value::String(b64(&unhex(n.value.as_ref().unwrap()))),
        "records" => {
            // The value bytes follow the length: the last `len` bytes of the span.
            let len: usize = n.value.as_ref().unwrap().trim_end_matches(" byte(s)").parse().unwrap();
            Value::String(b64(&bytes[n.end - len..n.end]))
        }
        _ => json!(n.value.as_ref().unwrap().parse::<i64>().unwrap()),
    }
}

fn fixtures() -> Vec<(String, Vec<u8>, Value)> {
    let mut out = Vec::new();
    let mut names: Vec<_> = std::fs::read_dir(dir()).unwrap().map(|e| e.unwrap().path()).filter(|p| p.extension().is_some_and(|e| e == "hex")).collect();
    names.sort();
    for p in names {
        let name = p.file_stem().unwrap().to_string_lossy().into_owned();
        let bytes = unhex(&std::fs::read_to_string(&p).unwrap());
        let want: Value = serde_json::from_str(&std::fs::read_to_string(p.with_extension("json")).unwrap()).unwrap();
        out.push((name, bytes, want));
    }
    out
}

fn opts_for(want: &Value) -> MessageOptions {
    let mut o = MessageOptions::default();
    if want["kind"] == "response" {
        o.api_key = Some(want["apiKey"].as_i64().unwrap() as i16);
        o.api_version = Some(want["version"].as_i64().unwrap() as i16);
    }
    o
}

#[test]
fn every_golden_envelope_decodes_as_kafka_reads_it() {
    let all = fixtures();
    assert!(all.len() >= 182, "{} fixtures", all.len());
    // Every version Kafka 4.3.1 reads (the vendored schemas' validVersions, which are
    // kafka-clients-4.3.1's) of each of the 12 APIs has a golden request and a golden response.
    use eoslab_core::message::schema::{find, Kind};
    for key in [0i16, 1, 2, 9, 10, 18, 22, 24, 25, 26, 27, 28] {
        for (kind, k) in [(Kind::Request, "request"), (Kind::Response, "response")] {
            let def = find(key, kind).unwrap();
            for v in def.valid.lo..=def.valid.hi {
                assert!(
                    all.iter().any(|(_, _, w)| w["apiKey"] == key && w["kind"] == k && w["version"] == v),
                    "no golden {} v{v}",
                    def.name
                );
            }
        }
    }
    for (name, bytes, want) in &all {
        let r = decode_messages_bytes(bytes, &opts_for(want));
        assert!(r.errors.iter().all(|e| e.severity != eoslab_core::report::Severity::Error), "{name}: {:?}", r.errors);
        assert_eq!(r.messages.len(), 1, "{name}");
        let m = &r.messages[0];
        assert_eq!(m.kind, want["kind"], "{name}");
        assert_eq!(i64::from(m.api_key), want["apiKey"].as_i64().unwrap(), "{name}");
        assert_eq!(m.api_name, Some(want["api"].as_str().unwrap()), "{name}");
        assert_eq!(i64::from(m.api_version), want["version"].as_i64().unwrap(), "{name}");
        assert_eq!(i64::from(m.header_version), want["headerVersion"].as_i64().unwrap(), "{name}");
        assert_eq!(i64::from(m.correlation_id), want["correlationId"].as_i64().unwrap(), "{name}");
        if m.kind == "request" {
            assert_eq!(m.client_id.as_deref(), want["clientId"].as_str(), "{name}");
        }
        assert_eq!(m.size, Some(bytes.len() as i32 - 4), "{name}");
        assert_eq!((m.start, m.end), (0, bytes.len()), "{name}");
        let got = kafka_json(m.body.as_ref().unwrap(), bytes);
        assert_eq!(got, want["message"], "{name}");
        // Every byte of the message is covered by the header or the body, which abut.
        assert_eq!(m.header.end, m.body.as_ref().unwrap().start, "{name}");
        assert_eq!(m.body.as_ref().unwrap().end, bytes.len(), "{name}");
    }
}

/// Requests and responses back to back, as a TCP stream holds them (both directions pasted in
/// order): each response takes its api key and version from the request with its correlation id.
#[test]
fn a_stream_pairs_responses_with_their_requests() {
    let all = fixtures();
    let mut stream = Vec::new();
    let mut expected = Vec::new();
    for (name, bytes, want) in &all {
        if !name.ends_with("-request") {
            continue;
        }
        let resp = name.replace("-request", "-response");
        let Some((_, rb, rw)) = all.iter().find(|(n, _, _)| *n == resp) else { continue };
        stream.extend_from_slice(bytes);
        stream.extend_from_slice(rb);
        expected.push(want.clone());
        expected.push(rw.clone());
    }
    assert!(expected.len() >= 30);
    let r = decode_messages_bytes(&stream, &MessageOptions::default());
    assert!(r.is_clean(), "{:?}", r.errors);
    assert_eq!(r.messages.len(), expected.len());
    for (i, (m, w)) in r.messages.iter().zip(&expected).enumerate() {
        assert_eq!(m.kind, w["kind"], "message {i}");
        assert_eq!(i64::from(m.api_version), w["version"].as_i64().unwrap(), "message {i}");
        if m.kind == "response" {
            assert_eq!(m.api_from, Some("request"));
            assert_eq!(m.request_index, Some(i - 1));
        }
    }
    // The same stream without size prefixes: each message ends where its schema says.
    let mut bare = Vec::new();
    let mut pos = 0;
    while pos < stream.len() {
        let n = i32::from_be_bytes(stream[pos..pos + 4].try_into().unwrap()) as usize;
        bare.extend_from_slice(&stream[pos + 4..pos + 4 + n]);
        pos += 4 + n;
    }
    let r2 = decode_messages_bytes(&bare, &MessageOptions { framing: Framing::Unsized, ..Default::default() });
    assert!(r2.is_clean(), "{:?}", r2.errors);
    assert_eq!(r2.messages.len(), expected.len());
    let r3 = decode_messages_bytes(&bare, &MessageOptions::default());
    assert_eq!(r3.messages.len(), expected.len(), "auto framing on the bare stream: {:?}", r3.errors);
}

/// txn-0's log: a committed transaction (0-1, COMMIT at 2), an aborted one (3, ABORT at 4). A
/// read_committed consumer (CompletedFetch) gets 0-1 and skips 3.
#[test]
fn fetch_response_marks_the_aborted_batch() {
    let all = fixtures();
    for (req, resp) in [("fetch-v4-request", "fetch-v4-response"), ("fetch-v12-request", "fetch-v12-response")] {
        let get = |n: &str| all.iter().find(|(x, _, _)| x == n).unwrap().1.clone();
        let mut stream = get(req);
        stream.extend(get(resp));
        let r = decode_messages_bytes(&stream, &MessageOptions::default());
        assert!(r.is_clean(), "{:?}", r.errors);
        let recs = &r.messages[1].records;
        assert_eq!(recs.len(), 1);
        assert_eq!(recs[0].path, "responses[0].partitions[0].records");
        let view = recs[0].consumer.as_ref().unwrap();
        assert_eq!(view.isolation_level, "READ_COMMITTED");
        assert!(view.from_request);
        let v: Vec<_> = view.batches.iter().map(|b| b.verdict).collect();
        assert_eq!(v, ["delivered", "control", "aborted", "control"], "{resp}");
        assert_eq!(view.batches[2].first_offset.as_deref(), Some("3"));
        // Alone (no request), the verdicts are the same, inferred from abortedTransactions.
        let alone = decode_messages_bytes(&get(resp), &MessageOptions { api_key: Some(1), api_version: Some(r.messages[1].api_version), ..Default::default() });
        let view = alone.messages[0].records[0].consumer.as_ref().unwrap();
        assert!(!view.from_request);
        assert_eq!(view.batches[2].verdict, "aborted");
    }
    // v17: read_uncommitted (the request says so; abortedTransactions null): everything delivered.
    let get = |n: &str| all.iter().find(|(x, _, _)| x == n).unwrap().1.clone();
    let mut stream = get("fetch-v17-request");
    stream.extend(get("fetch-v17-response"));
    let r = decode_messages_bytes(&stream, &MessageOptions::default());
    let view = r.messages[1].records[0].consumer.as_ref().unwrap();
    assert_eq!(view.isolation_level, "READ_UNCOMMITTED");
    assert!(view.batches.iter().all(|b| b.verdict != "aborted"));
}

#[test]
fn text_input_and_a_lone_response_without_options() {
    let all = fixtures();
    let (_, bytes, _) = all.iter().find(|(n, _, _)| n == "end-txn-v5-response").unwrap();
    let hex: String = bytes.iter().map(|b| format!("{b:02x} ")).collect();
    let r = decode_messages(hex.as_bytes(), &MessageOptions::default());
    assert_eq!(r.format, "hex");
    assert!(!r.is_clean());
    assert!(r.errors.iter().any(|e| e.kind == "InvalidInput" && e.message.contains("request's api key and version")), "{:?}", r.errors);
    let r = decode_messages(hex.as_bytes(), &MessageOptions { api_key: Some(26), api_version: Some(5), ..Default::default() });
    assert!(r.is_clean(), "{:?}", r.errors);
    assert_eq!((r.messages[0].api_from, r.messages[0].api_name), (Some("options"), Some("EndTxn")));
}

/// Errors are Kafka's, on the byte, with the field's path; what came before is kept.
#[test]
fn errors_are_pinned_with_kafkas_names() {
    let all = fixtures();
    let get = |n: &str| all.iter().find(|(x, _, _)| x == n).unwrap().1.clone();
    // A Produce v11 request cut in its records.
    let full = get("produce-v11-request");
    let cut = &full[..full.len() - 50];
    let r = decode_messages_bytes(cut, &MessageOptions::default());
    assert_eq!(r.errors[0].kind, "PartialMessage");
    // ByteBufferAccessor.readRecords slices the buffer and sets its limit to the length:
    // java.nio refuses a limit past the slice's capacity.
    let e = r.errors.iter().find(|e| e.kind == "IllegalArgumentException").expect("records length past the end");
    assert_eq!(e.field.as_deref(), Some("topicData[0].partitionData[0].records"));
    assert!(e.message.starts_with("newLimit > capacity: ("), "{}", e.message);
    assert!(r.messages[0].body.as_ref().unwrap().child("transactionalId").is_some());

    // An array length of 2^31-1 (classic int32) must not allocate: Kafka's check, on its byte.
    let mut req = get("produce-v3-request");
    let body = decode_messages_bytes(&req, &MessageOptions::default()).messages[0].body.clone().unwrap();
    let topics = body.child("topicData").unwrap().start;
    req[topics..topics + 4].copy_from_slice(&0x7fff_ffffi32.to_be_bytes());
    let r = decode_messages_bytes(&req, &MessageOptions::default());
    let e = &r.errors[0];
    assert_eq!((e.at, e.kind), (topics, "RuntimeException"));
    assert!(e.message.starts_with("Tried to allocate a collection of size 2147483647, but there are only "), "{}", e.message);
    assert_eq!(e.field.as_deref(), Some("topicData"));

    // A non-nullable string serialized as null.
    let mut req = get("add-offsets-v3-request");
    let body = decode_messages_bytes(&req, &MessageOptions::default()).messages[0].body.clone().unwrap();
    let g = body.child("groupId").unwrap().start;
    req[g] = 0; // compact length 0 = null
    let r = decode_messages_bytes(&req, &MessageOptions { framing: Framing::Sized, ..Default::default() });
    let e = r.errors.iter().find(|e| e.kind == "RuntimeException").unwrap();
    assert_eq!((e.at, e.message.as_str()), (g, "non-nullable field groupId was serialized as null"));

    // A version past what Kafka 4.3 defines. EndTxnRequestData's reader has no version check
    // and no nested struct, so it reads v9 without complaint; the request's constructor
    // refuses the version (AbstractRequest(ApiKeys, short)).
    let mut req = get("end-txn-v5-request");
    req[7] = 9;
    let r = decode_messages_bytes(&req, &MessageOptions { framing: Framing::Sized, ..Default::default() });
    assert!(
        r.errors.iter().any(|e| e.kind == "UnsupportedVersionException"
            && e.message == "The END_TXN protocol does not support version 9"),
        "{:?}",
        r.errors
    );
}

/// Every prefix and every single-byte corruption of every golden envelope: no panic, and the
/// report stays within a constant times the input.
#[test]
fn mutations_never_panic_and_stay_bounded() {
    for (_, bytes, want) in fixtures() {
        let opts = opts_for(&want);
        let step = (bytes.len() / 97).max(1);
        for cut in (0..bytes.len()).step_by(step) {
            let _ = decode_messages_bytes(&bytes[..cut], &opts);
        }
        for i in (0..bytes.len()).step_by(step) {
            for v in [0x00u8, 0x7f, 0x80, 0xff] {
                let mut b = bytes.clone();
                b[i] = v;
                let r = decode_messages_bytes(&b, &opts);
                let nodes = count(&r.messages.iter().map(|m| m.header.clone()).collect::<Vec<_>>())
                    + r.messages.iter().filter_map(|m| m.body.as_ref()).map(|b| count(std::slice::from_ref(b))).sum::<usize>();
                assert!(nodes <= 4 * b.len() + 64, "{nodes} nodes for {} bytes", b.len());
            }
        }
    }
}

fn count(nodes: &[Node]) -> usize {
    nodes.iter().map(|n| 1 + count(&n.children)).sum()
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig { cases: std::env::var("PROPTEST_CASES").ok().and_then(|c| c.parse().ok()).unwrap_or(256), ..Default::default() })]
    /// Any bytes after a plausible header of any vendored api and version (as request, or as a
    /// response through the options): no panic, spans inside the input, bounded tree.
    #[test]
    fn any_body_after_any_header(key in proptest::sample::select(vec![0i16, 1, 2, 9, 10, 18, 22, 24, 25, 26, 27, 28]),
                                 version in 0i16..20, sized in proptest::bool::ANY,
                                 body in proptest::collection::vec(proptest::num::u8::ANY, 0..300)) {
        let mut req = Vec::new();
        req.extend_from_slice(&key.to_be_bytes());
        req.extend_from_slice(&version.to_be_bytes());
        req.extend_from_slice(&7i32.to_be_bytes());
        req.extend_from_slice(&(-1i16).to_be_bytes());
        req.extend_from_slice(&body);
        let mut bytes = Vec::new();
        if sized {
            bytes.extend_from_slice(&(req.len() as i32).to_be_bytes());
        }
        bytes.extend_from_slice(&req);
        for opts in [MessageOptions::default(), MessageOptions { api_key: Some(key), api_version: Some(version), ..Default::default() }] {
            let r = decode_messages_bytes(&bytes, &opts);
            let nodes: usize = r.messages.iter().map(|m| count(std::slice::from_ref(&m.header)) + m.body.as_ref().map_or(0, |b| count(std::slice::from_ref(b)))).sum();
            proptest::prop_assert!(nodes <= 4 * bytes.len() + 64);
            for m in &r.messages {
                proptest::prop_assert!(m.end <= bytes.len());
            }
            for e in &r.errors {
                proptest::prop_assert!(e.at <= bytes.len());
            }
        }
    }
}

fn capture_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/fixtures/capture-4.3.1")
}

/// Splits a stream into its int32-size-prefixed frames: (offset, size) of each.
fn split_frames(s: &[u8]) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let mut pos = 0;
    while pos < s.len() {
        let n = i32::from_be_bytes(s[pos..pos + 4].try_into().unwrap());
        assert!(n >= 0 && pos + 4 + n as usize <= s.len(), "a torn frame at {pos}");
        out.push((pos, n as usize));
        pos += 4 + n as usize;
    }
    out
}

/// Real Java-client traffic (tests/fixtures/capture-4.3.1, see its PROVENANCE.md): a
/// transactional KafkaProducer and a read_committed KafkaConsumer of Kafka 4.3.1 talking to a
/// real 4.3.1 broker (and the broker's own WriteTxnMarkers and AddPartitionsToTxn
/// verification), recorded by a proxy, one pair of byte streams per connection. Each
/// connection's requests then its responses are decoded as one input: every response finds
/// its request by correlation id, and every field equals Kafka's own reading of the frame.
/// An api eoslab has no schema for (Metadata) is named and skipped, and the stream goes on.
#[test]
fn a_real_client_capture_decodes_as_kafka_reads_it() {
    let mut conns: Vec<_> = std::fs::read_dir(capture_dir())
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.to_string_lossy().ends_with(".c2b.bin"))
        .collect();
    conns.sort();
    assert!(conns.len() >= 3, "{} connections", conns.len());
    let mut seen = std::collections::BTreeSet::new();
    let mut skipped = std::collections::BTreeSet::new();
    let mut aborted_batches = 0;
    for c2b_path in conns {
        let conn = c2b_path.file_name().unwrap().to_string_lossy().replace(".c2b.bin", "");
        let c2b = std::fs::read(&c2b_path).unwrap();
        let b2c = std::fs::read(capture_dir().join(format!("{conn}.b2c.bin"))).unwrap();
        let want: Vec<Value> = serde_json::from_str(&std::fs::read_to_string(capture_dir().join(format!("{conn}.json"))).unwrap()).unwrap();
        // Our split of each stream is Kafka's (Capture.java's offsets and sizes).
        let frames: Vec<_> = split_frames(&c2b).into_iter().map(|f| ("request", f)).chain(split_frames(&b2c).into_iter().map(|f| ("response", f))).collect();
        assert_eq!(frames.len(), want.len(), "{conn}");
        for ((kind, (off, size)), w) in frames.iter().zip(&want) {
            assert_eq!((*kind, *off as i64, *size as i64), (w["kind"].as_str().unwrap(), w["offset"].as_i64().unwrap(), w["size"].as_i64().unwrap()), "{conn}");
        }
        let mut stream = c2b.clone();
        stream.extend_from_slice(&b2c);
        let r = decode_messages_bytes(&stream, &MessageOptions { framing: Framing::Sized, ..Default::default() });
        assert!(r.is_clean(), "{conn}: {:?}", r.errors);
        assert_eq!(r.messages.len(), want.len(), "{conn}: {:?}", r.errors);
        for (i, (m, w)) in r.messages.iter().zip(&want).enumerate() {
            let at = format!("{conn} frame {i} ({} {} v{})", w["kind"], w["api"], w["version"]);
            let start = w["offset"].as_u64().unwrap() as usize + if m.kind == "response" { c2b.len() } else { 0 };
            assert_eq!((m.start, m.end), (start, start + 4 + w["size"].as_u64().unwrap() as usize), "{at}");
            assert_eq!(m.kind, w["kind"], "{at}");
            assert_eq!(i64::from(m.api_key), w["apiKey"].as_i64().unwrap(), "{at}");
            assert_eq!(m.api_name, Some(w["api"].as_str().unwrap()), "{at}");
            assert_eq!(i64::from(m.api_version), w["version"].as_i64().unwrap(), "{at}");
            assert_eq!(i64::from(m.correlation_id), w["correlationId"].as_i64().unwrap(), "{at}");
            if m.kind == "request" {
                assert_eq!(m.client_id.as_deref(), w["clientId"].as_str(), "{at}");
            } else {
                // Paired as the decoder does: the request with the same correlation id.
                let req = want.iter().position(|x| x["kind"] == "request" && x["correlationId"] == w["correlationId"]).unwrap();
                assert_eq!((m.api_from, m.request_index), (Some("request"), Some(req)), "{at}");
            }
            let issues: Vec<_> = r.errors.iter().filter(|e| e.index == Some(i)).collect();
            match &m.body {
                Some(body) => {
                    assert!(issues.is_empty(), "{at}: {issues:?}");
                    assert_eq!(i64::from(m.header_version), w["headerVersion"].as_i64().unwrap(), "{at}");
                    assert_eq!(kafka_json(body, &stream), w["message"], "{at}");
                    assert_eq!((m.header.end, body.end), (body.start, m.end), "{at}");
                    seen.insert((w["api"].as_str().unwrap().to_string(), m.kind));
                    for rec in &m.records {
                        if let Some(v) = &rec.consumer {
                            assert_eq!((v.isolation_level, v.from_request), ("READ_COMMITTED", true), "{at}");
                            aborted_batches += v.batches.iter().filter(|b| b.verdict == "aborted").count();
                        }
                    }
                }
                None => {
                    // Not read by eoslab: named, skipped to the end of its frame, a warning.
                    assert!(eoslab_core::message::schema::find(m.api_key, eoslab_core::message::schema::Kind::Request).is_none(), "{at}");
                    assert_eq!(issues.len(), 1, "{at}: {issues:?}");
                    assert_eq!((issues[0].kind, issues[0].severity), ("UnsupportedApi", eoslab_core::report::Severity::Warning), "{at}");
                    assert!(issues[0].message.starts_with(&format!("{} (api key {})", w["api"].as_str().unwrap(), w["apiKey"])), "{at}: {}", issues[0].message);
                    skipped.insert(w["api"].as_str().unwrap().to_string());
                }
            }
        }
    }
    // The scenario's requests and responses are all there, and were decoded.
    for api in ["ApiVersions", "FindCoordinator", "InitProducerId", "AddPartitionsToTxn", "AddOffsetsToTxn", "TxnOffsetCommit", "Produce", "EndTxn", "WriteTxnMarkers", "ListOffsets", "OffsetFetch", "Fetch"] {
        for kind in ["request", "response"] {
            assert!(seen.contains(&(api.to_string(), kind)), "no {api} {kind} decoded in the capture: {seen:?}");
        }
    }
    assert!(skipped.contains("Metadata"), "{skipped:?}");
    // The aborted transaction reached the consumer's Fetch with its abortedTransactions entry.
    assert!(aborted_batches >= 1);
}

/// An api eoslab has no schema for (the capture's Metadata request): named and skipped when its
/// size prefix says where it ends, and what follows decodes; without the prefix nothing says
/// where it ends: an error there, and decoding stops.
#[test]
fn an_unsupported_api_is_skipped_only_when_framed() {
    let mut metadata = None;
    for e in std::fs::read_dir(capture_dir()).unwrap() {
        let p = e.unwrap().path();
        if !p.to_string_lossy().ends_with(".c2b.bin") {
            continue;
        }
        let s = std::fs::read(&p).unwrap();
        if let Some((off, n)) = split_frames(&s).into_iter().find(|&(off, _)| s[off + 4..off + 6] == [0, 3]) {
            metadata = Some(s[off..off + 4 + n].to_vec());
            break;
        }
    }
    let metadata = metadata.expect("a Metadata request in the capture");
    let end_txn = fixtures().into_iter().find(|(n, _, _)| n == "end-txn-v5-request").unwrap().1;
    let mut stream = metadata.clone();
    stream.extend_from_slice(&end_txn);
    for framing in [Framing::Auto, Framing::Sized] {
        let r = decode_messages_bytes(&stream, &MessageOptions { framing, ..Default::default() });
        assert!(r.is_clean(), "{:?}", r.errors);
        assert_eq!(r.messages.len(), 2);
        let m = &r.messages[0];
        assert_eq!((m.api_key, m.api_name, m.body.is_none(), m.end), (3, Some("Metadata"), true, metadata.len()));
        assert_eq!((r.errors.len(), r.errors[0].kind, r.errors[0].at), (1, "UnsupportedApi", 4));
        assert!(r.errors[0].message.starts_with("Metadata (api key 3) v"), "{}", r.errors[0].message);
        assert_eq!(r.messages[1].api_name, Some("EndTxn"));
        assert!(r.messages[1].body.is_some());
    }
    let mut bare = metadata[4..].to_vec();
    bare.extend_from_slice(&end_txn[4..]);
    let r = decode_messages_bytes(&bare, &MessageOptions { framing: Framing::Unsized, ..Default::default() });
    assert!(!r.is_clean());
    assert!(r.messages.is_empty());
    assert_eq!((r.errors[0].at, r.errors[0].kind), (0, "InvalidInput"));
}
