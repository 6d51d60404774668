//! Packet captures read as Kafka conversations: a `.pcap` or `.pcapng` (tcpdump, Wireshark,
//! `tshark -w`) → its TCP connections, each direction reassembled → the Kafka requests and
//! responses on them, paired by correlation id (the response read with its request's api key and
//! version), with the time each was captured.
//!
//! The container formats are pcap-parser's and the link, IP and TCP headers etherparse's; what
//! this module adds is what no crate does for Kafka: reassembly (a retransmitted or overlapping
//! byte is taken once, out-of-order segments are put in order, a missing range is reported as a
//! gap with its bytes and the messages around it still decode), finding the Kafka streams (port
//! 9092, or any port whose client side starts with a Kafka request header) and pairing.
//!
//! Memory: the packets' TCP payloads are copied once into their flow (at most the input's size),
//! and each message is decoded from the reassembled stream in place.

mod tcp;
pub mod replay;

use alloc::collections::BTreeMap;
use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;
use core::net::IpAddr;

use crate::message::schema::{self, Kind};
use crate::message::{decode_messages_bytes, Framing, MessageIssue, MessageOptions, MessageReport, Node};
use crate::report::Severity;
pub use tcp::{Flow, Gap};

/// Kafka's registered port: a connection to it is taken as Kafka without looking at its bytes.
pub const KAFKA_PORT: u16 = 9092;

/// A problem with the capture, pinned where it was found.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
pub struct Problem {
    pub severity: Severity,
    /// Byte offset in the capture file, when the problem is the file's.
    pub at: Option<usize>,
    /// The packet (1-based, in file order), when it is one packet's.
    pub packet: Option<usize>,
    /// The connection (1-based), when it is one connection's.
    pub connection: Option<usize>,
    pub message: String,
}

/// One message of an exchange.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
pub struct Side {
    /// Capture time of the packet that carried its first byte, in microseconds since the epoch.
    pub time_us: i64,
    /// Its span in its direction's reassembled stream.
    pub stream_start: u64,
    pub stream_end: u64,
    /// The decoded message (header, body, records), as `decodeMessages` gives it.
    pub message: MessageReport,
    /// What the decoder found in it (`at`: the byte within the message).
    pub problems: Vec<MessageIssue>,
    /// The message's own bytes, size prefix included (a view reads them again to draw its byte
    /// map); not in the JSON report, which gives `stream_start..stream_end`.
    #[cfg_attr(feature = "serde", serde(skip))]
    pub bytes: Vec<u8>,
}

/// A request and its response (absent when the capture has none).
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
pub struct Exchange {
    pub connection: usize,
    pub api_key: i16,
    pub api_name: Option<&'static str>,
    pub api_version: i16,
    pub correlation_id: i32,
    pub client_id: Option<String>,
    pub request: Option<Side>,
    pub response: Option<Side>,
    /// The error codes the response carries that are not NONE, by name, with how often.
    pub errors: Vec<(String, usize)>,
    /// The transactional.ids, producer ids and partitions the request and response name.
    pub about: About,
}

/// What an exchange is about, for filtering a conversation: every `transactionalId`,
/// `producerId` and topic-partition its request and response name, each once, in order.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
pub struct About {
    pub transactional_ids: Vec<String>,
    pub producer_ids: Vec<i64>,
    /// `topic-partition`, as Kafka prints a TopicPartition.
    pub partitions: Vec<String>,
}

impl About {
    /// Collects from a message body's field tree.
    fn gather(&mut self, n: &Node) {
        // Also the older versions' names: `v3AndBelowTransactionalId` of AddPartitionsToTxn …
        let name = n.name.to_ascii_lowercase();
        match name.as_str() {
            s if s.ends_with("transactionalid") => {
                if let Some(v) = n.value.as_ref().filter(|v| !self.transactional_ids.contains(v)) {
                    self.transactional_ids.push(v.clone());
                }
            }
            s if s.ends_with("producerid") => {
                if let Some(v) = n.value.as_deref().and_then(|v| v.parse::<i64>().ok()) {
                    self.producer(v);
                }
            }
            _ => {}
        }
        if let Some(topic) = topic_name(n) {
            for p in n.children.iter().filter(|c| c.ty == "array").flat_map(|a| a.children.iter()) {
                if let Some(i) = partition_index(p) {
                    let tp = format!("{topic}-{i}");
                    if !self.partitions.contains(&tp) {
                        self.partitions.push(tp);
                    }
                }
            }
        }
        for c in &n.children {
            self.gather(c);
        }
    }

    fn producer(&mut self, id: i64) {
        if id >= 0 && !self.producer_ids.contains(&id) {
            self.producer_ids.push(id);
        }
    }

    /// Whether this exchange passes a filter: each given value must be among the exchange's.
    pub fn matches(&self, transactional_id: Option<&str>, producer_id: Option<i64>, partition: Option<&str>) -> bool {
        transactional_id.is_none_or(|t| self.transactional_ids.iter().any(|x| x == t))
            && producer_id.is_none_or(|p| self.producer_ids.contains(&p))
            && partition.is_none_or(|p| self.partitions.iter().any(|x| x == p))
    }
}

/// The topic a struct names (its `name`, `topic` or `topicName` string field), if it is one of
/// the schemas' per-topic structs.
fn topic_name(n: &Node) -> Option<&str> {
    n.children.iter().find(|c| matches!(&*c.name, "name" | "topic" | "topicName") && c.ty == "string").and_then(|c| c.value.as_deref())
}

/// The partition a per-partition element names: an int32 element (`partitionIndexes`,
/// `partitions` of AddPartitionsToTxn) or a struct's `index`, `partition` or `partitionIndex`.
fn partition_index(p: &Node) -> Option<i32> {
    let v = if p.ty == "int32" { Some(p) } else { p.children.iter().find(|c| matches!(&*c.name, "index" | "partition" | "partitionIndex") && c.ty == "int32") };
    v.and_then(|v| v.value.as_deref()).and_then(|v| v.parse().ok())
}

/// One TCP connection that carries Kafka.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
pub struct Connection {
    pub index: usize,
    pub client: String,
    pub broker: String,
    /// Found by port 9092 or by the first bytes of the client's stream.
    pub found_by: &'static str,
    /// Did the capture see the connection open (SYN)? If not, it starts mid-stream.
    pub saw_open: bool,
    pub bytes_to_broker: u64,
    pub bytes_to_client: u64,
    pub gaps: Vec<Gap>,
}

/// What a capture holds.
#[derive(Clone, Debug, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
pub struct CaptureReport {
    /// `pcap` or `pcapng`.
    pub format: String,
    pub length: usize,
    pub packets: usize,
    /// Link types seen, by name (`ETHERNET`, `LINUX_SLL` …).
    pub link_types: Vec<String>,
    /// TCP connections seen, Kafka or not.
    pub tcp_connections: usize,
    pub connections: Vec<Connection>,
    pub exchanges: Vec<Exchange>,
    pub problems: Vec<Problem>,
}

impl CaptureReport {
    pub fn has_errors(&self) -> bool {
        self.problems.iter().any(|p| p.severity == Severity::Error)
    }
}

/// Read a whole capture held in memory.
pub fn read_capture(bytes: &[u8]) -> CaptureReport {
    let mut rep = CaptureReport { length: bytes.len(), ..CaptureReport::default() };
    let mut flows: BTreeMap<tcp::Key, Flow> = BTreeMap::new();
    let mut order: Vec<tcp::Key> = Vec::new();
    let mut push = |rep: &mut CaptureReport, packet: usize, time_us: i64, link: pcap_parser::Linktype, data: &[u8]| {
        match tcp::segment(link, data) {
            Ok(Some(seg)) => {
                let key = seg.key;
                let flow = flows.entry(key).or_insert_with(|| {
                    order.push(key);
                    Flow::new(key)
                });
                flow.add(seg.seq, seg.syn, seg.payload, seg.missing, packet, time_us);
            }
            Ok(None) => {}
            Err(m) => rep.problems.push(Problem { severity: Severity::Warning, at: None, packet: Some(packet), connection: None, message: m }),
        }
    };
    if let Err(p) = containers::each_packet(bytes, &mut rep, &mut push) {
        rep.problems.push(p);
    }
    pair_flows(&mut rep, &flows, &order);
    rep
}

mod containers;

/// Which flow of a connection is the client's (to the broker) and which the broker's, and how
/// that was decided; `None` when neither looks like Kafka. A capture may hold only one of them.
fn sides<'a>(a: &'a Flow, b: Option<&'a Flow>) -> Option<(Option<&'a Flow>, Option<&'a Flow>, &'static str)> {
    let flows = [Some(a), b];
    for f in flows.iter().flatten() {
        let other = flows.iter().flatten().copied().find(|o| o.key != f.key);
        if f.key.dst.1 == KAFKA_PORT {
            return Some((Some(f), other, "port 9092"));
        }
        if f.key.src.1 == KAFKA_PORT {
            return Some((other, Some(f), "port 9092"));
        }
    }
    for f in flows.iter().flatten() {
        if looks_like_request(f.first_bytes()) {
            let other = flows.iter().flatten().copied().find(|o| o.key != f.key);
            return Some((Some(f), other, "a Kafka request header"));
        }
    }
    None
}

/// A size-prefixed request header at the start of `b`: a plausible size, a known api key and a
/// version its schema accepts.
pub fn looks_like_request(b: &[u8]) -> bool {
    if b.len() < 12 {
        return false;
    }
    let size = i32::from_be_bytes([b[0], b[1], b[2], b[3]]);
    let key = i16::from_be_bytes([b[4], b[5]]);
    let version = i16::from_be_bytes([b[6], b[7]]);
    (8..=100 << 20).contains(&size) && schema::find(key, Kind::Request).is_some_and(|d| d.valid.contains(version))
}

fn pair_flows(rep: &mut CaptureReport, flows: &BTreeMap<tcp::Key, Flow>, order: &[tcp::Key]) {
    let mut seen: Vec<tcp::Key> = Vec::new();
    for key in order {
        if seen.contains(key) {
            continue;
        }
        let a = &flows[key];
        let back = flows.get(&key.reversed());
        seen.push(*key);
        seen.push(key.reversed());
        rep.tcp_connections += 1;
        let Some((client, broker, found_by)) = sides(a, back) else { continue };
        let index = rep.connections.len() + 1;
        let to_broker = client.map(Flow::assemble).unwrap_or_default();
        let to_client = broker.map(Flow::assemble).unwrap_or_default();
        let key = client.map_or_else(|| broker.unwrap().key.reversed(), |c| c.key);
        let mut gaps: Vec<Gap> = to_broker.gaps.clone();
        gaps.extend(to_client.gaps.iter().cloned());
        for g in &gaps {
            rep.problems.push(Problem { severity: Severity::Warning, at: None, packet: Some(g.before_packet), connection: Some(index), message: format!("{} bytes {}..{} are missing from the capture (a gap): the messages around them still decode", g.direction(key == g.flow), g.start, g.end) });
        }
        if client.is_none() || broker.is_none() {
            let missing = if client.is_none() { "client's (requests)" } else { "broker's (responses)" };
            rep.problems.push(Problem { severity: Severity::Warning, at: None, packet: None, connection: Some(index), message: format!("the capture has no bytes of the {missing} side of this connection") });
        }
        rep.connections.push(Connection {
            index,
            client: addr(key.src),
            broker: addr(key.dst),
            found_by,
            saw_open: client.or(broker).is_some_and(|f| f.saw_syn),
            bytes_to_broker: to_broker.len(),
            bytes_to_client: to_client.len(),
            gaps,
        });
        decode_connection(rep, index, &to_broker, &to_client);
    }
}

fn addr((ip, port): (IpAddr, u16)) -> String {
    match ip {
        IpAddr::V4(v4) => format!("{v4}:{port}"),
        IpAddr::V6(v6) => format!("[{v6}]:{port}"),
    }
}

/// The requests of a connection's client stream and the responses of its broker stream, paired.
fn decode_connection(rep: &mut CaptureReport, conn: usize, to_broker: &tcp::Stream, to_client: &tcp::Stream) {
    let mut pending: BTreeMap<i32, usize> = BTreeMap::new();
    for chunk in &to_broker.chunks {
        let opts = MessageOptions { framing: Framing::Sized, kind: Some(Kind::Request), ..MessageOptions::default() };
        let mut at = resync(&chunk.bytes, chunk.after_gap, |b| looks_like_request(b));
        while at < chunk.bytes.len() {
            let Some(end) = frame_end(&chunk.bytes, at) else {
                rep.problems.push(Problem { severity: Severity::Warning, at: None, packet: None, connection: Some(conn), message: format!("client stream bytes {}..{}: a request cut off by the end of the capture", chunk.start + at as u64, chunk.start + chunk.bytes.len() as u64) });
                break;
            };
            let decoded = decode_messages_bytes(&chunk.bytes[at..end], &opts);
            let Some(mut m) = decoded.messages.into_iter().next() else { break };
            let problems = decoded.errors;
            let start = chunk.start + at as u64;
            shift(&mut m, at);
            pending.insert(m.correlation_id, rep.exchanges.len());
            rep.exchanges.push(Exchange {
                connection: conn,
                api_key: m.api_key,
                api_name: m.api_name,
                api_version: m.api_version,
                correlation_id: m.correlation_id,
                client_id: m.client_id.clone(),
                request: Some(Side { time_us: to_broker.time_at(start), stream_start: start, stream_end: chunk.start + end as u64, message: m, problems, bytes: chunk.bytes[at..end].to_vec() }),
                response: None,
                errors: Vec::new(),
                about: About::default(),
            });
            at = end;
        }
    }
    for chunk in &to_client.chunks {
        let mut at = resync(&chunk.bytes, chunk.after_gap, |b| b.len() >= 8 && pending.contains_key(&i32::from_be_bytes([b[4], b[5], b[6], b[7]])));
        while at < chunk.bytes.len() {
            let Some(end) = frame_end(&chunk.bytes, at) else {
                rep.problems.push(Problem { severity: Severity::Warning, at: None, packet: None, connection: Some(conn), message: format!("broker stream bytes {}..{}: a response cut off by the end of the capture", chunk.start + at as u64, chunk.start + chunk.bytes.len() as u64) });
                break;
            };
            let frame = &chunk.bytes[at..end];
            let corr = if frame.len() >= 8 { i32::from_be_bytes([frame[4], frame[5], frame[6], frame[7]]) } else { -1 };
            let start = chunk.start + at as u64;
            let Some(&ex) = pending.get(&corr) else {
                rep.problems.push(Problem { severity: Severity::Warning, at: None, packet: None, connection: Some(conn), message: format!("broker stream byte {start}: a response with correlation id {corr} whose request is not in the capture (its api and version are unknown, so its body is not read)") });
                at = end;
                continue;
            };
            pending.remove(&corr);
            let (key, version) = (rep.exchanges[ex].api_key, rep.exchanges[ex].api_version);
            let opts = MessageOptions { framing: Framing::Sized, kind: Some(Kind::Response), api_key: Some(key), api_version: Some(version), ..MessageOptions::default() };
            let decoded = decode_messages_bytes(frame, &opts);
            if let Some(mut m) = decoded.messages.into_iter().next() {
                let problems = decoded.errors;
                shift(&mut m, at);
                let mut errors: BTreeMap<String, usize> = BTreeMap::new();
                if let Some(body) = &m.body {
                    error_codes(body, &mut errors);
                }
                rep.exchanges[ex].errors = errors.into_iter().collect();
                rep.exchanges[ex].response = Some(Side { time_us: to_client.time_at(start), stream_start: start, stream_end: chunk.start + end as u64, message: m, problems, bytes: frame.to_vec() });
            }
            at = end;
        }
    }
    for e in rep.exchanges.iter_mut().filter(|e| e.connection == conn) {
        let mut about = About::default();
        for m in [&e.request, &e.response].into_iter().flatten().map(|s| &s.message) {
            if let Some(body) = &m.body {
                about.gather(body);
            }
            // A Produce or Fetch names its producers in its batches' headers.
            for b in m.records.iter().flat_map(|r| &r.report.batches) {
                about.producer(b.header.producer_id);
            }
        }
        e.about = about;
    }
    for (corr, ex) in pending {
        let api = rep.exchanges[ex].api_name.unwrap_or("?");
        // A request the broker never answers is normal for Produce with acks=0.
        let acks0 = rep.exchanges[ex].api_key == 0 && rep.exchanges[ex].request.as_ref().and_then(|s| s.message.body.as_ref()).and_then(|b| b.child("acks")).and_then(|n| n.value.as_deref()) == Some("0");
        if !acks0 {
            rep.problems.push(Problem { severity: Severity::Info, at: None, packet: None, connection: Some(conn), message: format!("{api} request with correlation id {corr} has no response in the capture") });
        }
    }
}

/// Where the next frame starts in a chunk that follows a gap (or starts a capture that missed
/// the connection's opening): the first offset whose bytes look like a frame of this stream, or
/// from which whole frames run to the chunk's end. A chunk with neither is skipped; its gap says so.
fn resync(bytes: &[u8], after_gap: bool, looks: impl Fn(&[u8]) -> bool) -> usize {
    if !after_gap {
        return 0;
    }
    let tiles = |mut i: usize| {
        let mut frames = 0;
        while i < bytes.len() {
            match frame_end(bytes, i) {
                Some(e) if e > i + 8 => i = e,
                _ => return false,
            }
            frames += 1;
        }
        frames > 0
    };
    (0..bytes.len()).find(|&i| (looks(&bytes[i..]) && frame_end(bytes, i).is_some()) || tiles(i)).unwrap_or(bytes.len())
}

/// The end of the size-prefixed frame at `at`, if the chunk holds all of it.
fn frame_end(bytes: &[u8], at: usize) -> Option<usize> {
    let b = bytes.get(at..at + 4)?;
    let size = i32::from_be_bytes([b[0], b[1], b[2], b[3]]);
    let end = at.checked_add(4)?.checked_add(usize::try_from(size).ok()?)?;
    (end <= bytes.len()).then_some(end)
}

/// A message decoded from `bytes[at..]` with its spans made relative to the chunk.
fn shift(m: &mut MessageReport, at: usize) {
    fn node(n: &mut Node, at: usize) {
        n.start += at;
        n.end += at;
        for c in &mut n.children {
            node(c, at);
        }
    }
    m.start += at;
    m.end += at;
    node(&mut m.header, at);
    if let Some(b) = &mut m.body {
        node(b, at);
    }
    for r in &mut m.records {
        r.start += at;
        r.end += at;
    }
}

/// The non-zero `ErrorCode` fields of a response, by Kafka's name.
fn error_codes(n: &Node, out: &mut BTreeMap<String, usize>) {
    // `errorCode`, and the per-partition `partitionErrorCode` of AddPartitionsToTxn (v3 and below).
    if n.name.ends_with("rrorCode") {
        if let Some(v) = n.value.as_deref().and_then(|v| v.parse::<i16>().ok()).filter(|&v| v != 0) {
            *out.entry(crate::model::errors::ErrorCode(v).to_string()).or_insert(0) += 1;
        }
    }
    for c in &n.children {
        error_codes(c, out);
    }
}

#[cfg(test)]
mod tests;
