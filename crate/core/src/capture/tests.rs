//! Captures made here from the real Java-client traffic of `tests/fixtures/capture-4.3.1` (every
//! byte each side of each connection sent to a Kafka 4.3.1 broker, with Kafka's own reading of
//! every frame in the `.json` beside it): written as pcap and pcapng packets, then reordered,
//! duplicated, cut and mixed with other traffic, and read back.

extern crate std;

use alloc::string::String;
use alloc::vec;
use alloc::vec::Vec;
use std::path::PathBuf;

use super::*;

fn fixtures() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/fixtures/capture-4.3.1")
}

/// The recorded connections: (name, client→broker bytes, broker→client bytes, Kafka's reading).
fn connections() -> Vec<(String, Vec<u8>, Vec<u8>, serde_json::Value)> {
    let mut names: Vec<String> = std::fs::read_dir(fixtures()).unwrap().filter_map(|e| e.ok()?.file_name().to_str()?.strip_suffix(".json").map(String::from)).collect();
    names.sort();
    names
        .into_iter()
        .map(|n| {
            let f = fixtures();
            let json = serde_json::from_slice(&std::fs::read(f.join(format!("{n}.json"))).unwrap()).unwrap();
            (n.clone(), std::fs::read(f.join(format!("{n}.c2b.bin"))).unwrap(), std::fs::read(f.join(format!("{n}.b2c.bin"))).unwrap(), json)
        })
        .collect()
}

/// One captured TCP segment: which connection, which way, sequence offset, flags, payload.
#[derive(Clone)]
struct Pkt {
    conn: usize,
    to_broker: bool,
    seq: u32,
    syn: bool,
    payload: Vec<u8>,
}

const ISN_C: u32 = 0xfff0_0000; // wraps within the stream: sequence arithmetic is modular
const ISN_B: u32 = 1000;

/// SYN both ways, then each side's bytes in `mss`-byte segments, a request's bytes before its
/// response's (interleaved by stream position, as a client and a broker would send them).
fn packets(conns: &[(String, Vec<u8>, Vec<u8>, serde_json::Value)], mss: usize) -> Vec<Pkt> {
    let mut out = Vec::new();
    for (i, (_, c2b, b2c, _)) in conns.iter().enumerate() {
        out.push(Pkt { conn: i, to_broker: true, seq: ISN_C, syn: true, payload: vec![] });
        out.push(Pkt { conn: i, to_broker: false, seq: ISN_B, syn: true, payload: vec![] });
        let c: Vec<&[u8]> = c2b.chunks(mss).collect();
        let b: Vec<&[u8]> = b2c.chunks(mss).collect();
        for k in 0..c.len().max(b.len()) {
            if let Some(p) = c.get(k) {
                out.push(Pkt { conn: i, to_broker: true, seq: ISN_C.wrapping_add(1 + (k * mss) as u32), syn: false, payload: p.to_vec() });
            }
            if let Some(p) = b.get(k) {
                out.push(Pkt { conn: i, to_broker: false, seq: ISN_B.wrapping_add(1 + (k * mss) as u32), syn: false, payload: p.to_vec() });
            }
        }
    }
    out
}

fn ipv4_tcp(p: &Pkt, port: u16) -> Vec<u8> {
    let (src, dst, sport, dport) = if p.to_broker { ([10, 0, 0, 2], [10, 0, 0, 1], 40000 + p.conn as u16, port) } else { ([10, 0, 0, 1], [10, 0, 0, 2], port, 40000 + p.conn as u16) };
    let total = 40 + p.payload.len();
    let mut b = vec![0x45, 0, (total >> 8) as u8, total as u8, 0, 0, 0x40, 0, 64, 6, 0, 0];
    b.extend_from_slice(&src);
    b.extend_from_slice(&dst);
    b.extend_from_slice(&sport.to_be_bytes());
    b.extend_from_slice(&dport.to_be_bytes());
    b.extend_from_slice(&p.seq.to_be_bytes());
    b.extend_from_slice(&[0, 0, 0, 0, 0x50, if p.syn { 0x02 } else { 0x18 }, 0xff, 0xff, 0, 0, 0, 0]);
    b.extend_from_slice(&p.payload);
    b
}

fn ipv6_tcp(p: &Pkt, port: u16) -> Vec<u8> {
    let v4 = ipv4_tcp(p, port);
    let tcp = &v4[20..];
    let (client, broker) = ([0xfd, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2u8], [0xfd, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1u8]);
    let (src, dst) = if p.to_broker { (client, broker) } else { (broker, client) };
    let mut b = vec![0x60, 0, 0, 0, (tcp.len() >> 8) as u8, tcp.len() as u8, 6, 64];
    b.extend_from_slice(&src);
    b.extend_from_slice(&dst);
    b.extend_from_slice(tcp);
    b
}

fn ethernet(ip: &[u8], v6: bool) -> Vec<u8> {
    let mut b = vec![2, 0, 0, 0, 0, 1, 2, 0, 0, 0, 0, 2];
    b.extend_from_slice(if v6 { &[0x86, 0xdd] } else { &[0x08, 0x00] });
    b.extend_from_slice(ip);
    b
}

/// A legacy pcap (little-endian, microseconds) of Ethernet frames; `snap` cuts each packet.
fn pcap(frames: &[Vec<u8>], snap: usize) -> Vec<u8> {
    let mut f = Vec::new();
    f.extend_from_slice(&0xa1b2_c3d4u32.to_le_bytes());
    f.extend_from_slice(&2u16.to_le_bytes());
    f.extend_from_slice(&4u16.to_le_bytes());
    f.extend_from_slice(&[0; 8]);
    f.extend_from_slice(&(snap as u32).to_le_bytes());
    f.extend_from_slice(&1u32.to_le_bytes());
    for (i, fr) in frames.iter().enumerate() {
        let cap = fr.len().min(snap);
        f.extend_from_slice(&1_700_000_000u32.to_le_bytes());
        f.extend_from_slice(&(i as u32 * 1000).to_le_bytes());
        f.extend_from_slice(&(cap as u32).to_le_bytes());
        f.extend_from_slice(&(fr.len() as u32).to_le_bytes());
        f.extend_from_slice(&fr[..cap]);
    }
    f
}

fn ng_block(kind: u32, body: &[u8]) -> Vec<u8> {
    let mut body = body.to_vec();
    while body.len() % 4 != 0 {
        body.push(0);
    }
    let len = (12 + body.len()) as u32;
    let mut b = Vec::new();
    b.extend_from_slice(&kind.to_le_bytes());
    b.extend_from_slice(&len.to_le_bytes());
    b.extend_from_slice(&body);
    b.extend_from_slice(&len.to_le_bytes());
    b
}

/// A pcapng with an Ethernet interface (0) and a Linux cooked one (1), a comment-only custom
/// block and a statistics-free section: frames go to the interface their index says.
fn pcapng(frames: &[(u32, Vec<u8>)]) -> Vec<u8> {
    let mut f = Vec::new();
    let mut shb = Vec::new();
    shb.extend_from_slice(&0x1a2b_3c4du32.to_le_bytes());
    shb.extend_from_slice(&1u16.to_le_bytes());
    shb.extend_from_slice(&0u16.to_le_bytes());
    shb.extend_from_slice(&(-1i64).to_le_bytes());
    // opt_comment "made by the tests", then opt_endofopt
    shb.extend_from_slice(&1u16.to_le_bytes());
    shb.extend_from_slice(&17u16.to_le_bytes());
    shb.extend_from_slice(b"made by the tests\0\0\0");
    shb.extend_from_slice(&[0, 0, 0, 0]);
    f.extend(ng_block(0x0a0d_0d0a, &shb));
    for link in [1u16, 113] {
        let mut idb = Vec::new();
        idb.extend_from_slice(&link.to_le_bytes());
        idb.extend_from_slice(&0u16.to_le_bytes());
        idb.extend_from_slice(&262_144u32.to_le_bytes());
        f.extend(ng_block(1, &idb));
    }
    for (i, (ifc, fr)) in frames.iter().enumerate() {
        let ts = 1_700_000_000_000_000u64 + i as u64 * 1000;
        let mut epb = Vec::new();
        epb.extend_from_slice(&ifc.to_le_bytes());
        epb.extend_from_slice(&((ts >> 32) as u32).to_le_bytes());
        epb.extend_from_slice(&(ts as u32).to_le_bytes());
        epb.extend_from_slice(&(fr.len() as u32).to_le_bytes());
        epb.extend_from_slice(&(fr.len() as u32).to_le_bytes());
        epb.extend_from_slice(fr);
        f.extend(ng_block(6, &epb));
    }
    f
}

fn sll(ip: &[u8]) -> Vec<u8> {
    let mut b = vec![0, 0, 0, 1, 0, 6, 2, 0, 0, 0, 0, 2, 0, 0, 0x08, 0x00];
    b.extend_from_slice(ip);
    b
}

/// Every exchange of the capture against Kafka's reading of the same frames: each request with
/// its api, version and correlation id, paired with the response Kafka read for it.
fn assert_matches_kafka(rep: &CaptureReport, conns: &[(String, Vec<u8>, Vec<u8>, serde_json::Value)]) {
    assert_eq!(rep.connections.len(), conns.len(), "{:?}", rep.problems);
    let mut total = 0;
    for (i, (name, _, _, json)) in conns.iter().enumerate() {
        let frames = json.as_array().unwrap();
        let requests: Vec<&serde_json::Value> = frames.iter().filter(|f| f["kind"] == "request").collect();
        let ours: Vec<&Exchange> = rep.exchanges.iter().filter(|e| e.connection == i + 1).collect();
        assert_eq!(ours.len(), requests.len(), "{name}: one exchange per request");
        for (e, r) in ours.iter().zip(&requests) {
            assert_eq!((e.api_name, i64::from(e.api_version), i64::from(e.correlation_id)), (r["api"].as_str(), r["version"].as_i64().unwrap(), r["correlationId"].as_i64().unwrap()), "{name}");
            let answered = frames.iter().any(|f| f["kind"] == "response" && f["correlationId"] == r["correlationId"]);
            assert_eq!(e.response.is_some(), answered, "{name}: {} {}", r["api"], r["correlationId"]);
            if let Some(resp) = &e.response {
                assert!(resp.problems.iter().all(|p| p.severity != Severity::Error), "{name} {}: {:?}", r["api"], resp.problems);
                assert_eq!(resp.message.correlation_id, e.correlation_id);
            }
            total += 1;
        }
    }
    assert!(total > 30, "the fixture's exchanges ({total})");
}

#[test]
fn a_pcap_of_real_client_traffic_pairs_every_request_with_its_response() {
    let conns = connections();
    let frames: Vec<Vec<u8>> = packets(&conns, 1460).iter().map(|p| ethernet(&ipv4_tcp(p, 9092), false)).collect();
    let rep = read_capture(&pcap(&frames, 262_144));
    assert_eq!(rep.format, "pcap");
    assert_eq!(rep.packets, frames.len());
    assert!(rep.connections.iter().all(|c| c.found_by == "port 9092" && c.saw_open && c.gaps.is_empty()));
    assert!(rep.problems.iter().all(|p| p.severity != Severity::Error), "{:?}", rep.problems);
    assert_matches_kafka(&rep, &conns);
    assert!(rep.exchanges.iter().filter_map(|e| Some((e.request.as_ref()?.time_us, e.response.as_ref()?.time_us))).all(|(q, a)| a > q), "each answer is captured after its request");
    // The producer's transaction shows in the exchanges, in order.
    let apis: Vec<&str> = rep.exchanges.iter().filter_map(|e| e.api_name).collect();
    for api in ["InitProducerId", "AddPartitionsToTxn", "Produce", "AddOffsetsToTxn", "TxnOffsetCommit", "EndTxn", "WriteTxnMarkers", "Fetch"] {
        assert!(apis.contains(&api), "{api} in {apis:?}");
    }
}

#[test]
fn reordered_duplicated_and_overlapping_segments_are_taken_once_in_order() {
    let conns = connections();
    let mut pkts = packets(&conns, 500);
    // Overlaps: every third data segment sent again as one larger segment that also covers the
    // next segment of its direction.
    let extra: Vec<Pkt> = pkts
        .iter()
        .enumerate()
        .filter(|(i, p)| i % 3 == 0 && !p.syn)
        .filter_map(|(_, p)| {
            let next = pkts.iter().find(|q| q.conn == p.conn && q.to_broker == p.to_broker && q.seq == p.seq.wrapping_add(p.payload.len() as u32))?;
            let mut big = p.clone();
            big.payload.extend_from_slice(&next.payload);
            Some(big)
        })
        .collect();
    assert!(extra.len() > 5, "{}", extra.len());
    pkts.extend(extra);
    // Retransmissions: a third of the segments twice.
    let dup: Vec<Pkt> = pkts.iter().step_by(3).cloned().collect();
    pkts.extend(dup);
    // Out of order: a fixed shuffle within windows of 7 (the SYNs stay first).
    let (syns, mut rest): (Vec<Pkt>, Vec<Pkt>) = pkts.into_iter().partition(|p| p.syn);
    for w in rest.chunks_mut(7) {
        w.reverse();
    }
    let frames: Vec<Vec<u8>> = syns.iter().chain(rest.iter()).map(|p| ethernet(&ipv4_tcp(p, 9092), false)).collect();
    let rep = read_capture(&pcap(&frames, 262_144));
    assert!(rep.connections.iter().all(|c| c.gaps.is_empty()), "{:?}", rep.problems);
    assert_matches_kafka(&rep, &conns);
}

#[test]
fn pcapng_with_two_interfaces_ipv6_and_any_port_found_by_its_bytes() {
    let conns = connections();
    // Connection 0 on the Linux cooked interface over IPv4 and port 9092; the rest on Ethernet,
    // IPv6, port 19092 (no port to go by: found by the first request header).
    let frames: Vec<(u32, Vec<u8>)> = packets(&conns, 1200)
        .iter()
        .map(|p| if p.conn == 0 { (1, sll(&ipv4_tcp(p, 9092))) } else { (0, ethernet(&ipv6_tcp(p, 19092), true)) })
        .collect();
    let rep = read_capture(&pcapng(&frames));
    assert_eq!(rep.format, "pcapng");
    assert_eq!(rep.link_types.len(), 2, "{:?}", rep.link_types);
    assert_eq!(rep.connections[0].found_by, "port 9092");
    assert!(rep.connections[1..].iter().all(|c| c.found_by == "a Kafka request header" && c.broker.starts_with('[')), "{:?}", rep.connections);
    assert_matches_kafka(&rep, &conns);
}

#[test]
fn a_gap_is_reported_with_its_bytes_and_the_messages_after_it_still_decode() {
    let conns = connections();
    let mut pkts = packets(&conns, 300);
    // Lose one segment of the consumer's response stream, in its middle.
    let victims: Vec<usize> = pkts.iter().enumerate().filter(|(_, p)| p.conn == 4 && !p.to_broker && !p.syn).map(|(i, _)| i).collect();
    let lost = victims[victims.len() / 2];
    let lost_seq = pkts[lost].seq;
    pkts.remove(lost);
    let frames: Vec<Vec<u8>> = pkts.iter().map(|p| ethernet(&ipv4_tcp(p, 9092), false)).collect();
    let rep = read_capture(&pcap(&frames, 262_144));
    let c = &rep.connections[4];
    assert_eq!(c.gaps.len(), 1);
    assert_eq!((c.gaps[0].start, c.gaps[0].end - c.gaps[0].start), (u64::from(lost_seq.wrapping_sub(ISN_B + 1)), 300));
    assert!(rep.problems.iter().any(|p| p.connection == Some(5) && p.message.contains("are missing from the capture (a gap)")), "{:?}", rep.problems);
    let answered = rep.exchanges.iter().filter(|e| e.connection == 5 && e.response.is_some()).count();
    let requests = conns[4].3.as_array().unwrap().iter().filter(|f| f["kind"] == "request").count();
    assert!(answered + 2 >= requests && answered < requests, "all but the responses the gap cut are read ({answered} of {requests})");
    // The other connections are untouched.
    assert!(rep.exchanges.iter().filter(|e| e.connection != 5).all(|e| e.response.is_some() || e.api_name == Some("Produce")));
}

#[test]
fn a_capture_started_mid_stream_picks_up_at_the_next_whole_message() {
    let conns = connections();
    let pkts: Vec<Pkt> = packets(&conns, 100).into_iter().filter(|p| !p.syn).skip(6).collect();
    let frames: Vec<Vec<u8>> = pkts.iter().map(|p| ethernet(&ipv4_tcp(p, 9092), false)).collect();
    let rep = read_capture(&pcap(&frames, 262_144));
    // The first connection's requests were all before the capture: its answers are seen, not read.
    assert!(rep.connections.iter().all(|c| !c.saw_open));
    assert_eq!((rep.connections[0].bytes_to_broker, rep.exchanges.iter().filter(|e| e.connection == 1).count()), (0, 0));
    assert!(rep.problems.iter().any(|p| p.connection == Some(1) && p.message.contains("whose request is not in the capture")), "{:?}", rep.problems);
    assert!(rep.exchanges.iter().filter(|e| e.connection > 1).count() > 20);
    // Cut into the middle of a stream instead: the reading picks up at the next whole request.
    let pkts: Vec<Pkt> = packets(&conns, 10).into_iter().filter(|p| !p.syn && !(p.conn == 1 && p.to_broker && p.seq.wrapping_sub(ISN_C) < 30)).collect();
    let frames: Vec<Vec<u8>> = pkts.iter().map(|p| ethernet(&ipv4_tcp(p, 9092), false)).collect();
    let rep = read_capture(&pcap(&frames, 262_144));
    let second: Vec<i32> = rep.exchanges.iter().filter(|e| e.connection == 2).map(|e| e.correlation_id).collect();
    assert!(!second.is_empty() && !second.contains(&4) && second.contains(&5), "{second:?}: the request cut in half is skipped, the next is read");
}

#[test]
fn a_snap_length_cut_and_a_truncated_file_are_reported_not_fatal() {
    let conns = connections();
    let frames: Vec<Vec<u8>> = packets(&conns, 1460).iter().map(|p| ethernet(&ipv4_tcp(p, 9092), false)).collect();
    // Snap length 200: every segment keeps its first 146 bytes of payload; the rest are gaps.
    let rep = read_capture(&pcap(&frames, 200));
    assert!(rep.connections.iter().all(|c| !c.gaps.is_empty()), "{:?}", rep.connections);
    assert!(rep.connections.iter().all(|c| rep.exchanges.iter().any(|e| e.connection == c.index)), "each connection's first request still decodes");
    // The file cut inside its last packet.
    let mut file = pcap(&frames, 262_144);
    file.truncate(file.len() - 10);
    let rep = read_capture(&file);
    assert!(rep.has_errors());
    assert!(rep.problems.iter().any(|p| p.message.contains("ends inside a block")), "{:?}", rep.problems);
    assert!(rep.exchanges.len() > 30);
}

#[test]
fn other_traffic_and_garbage_are_not_kafka() {
    let http = Pkt { conn: 9, to_broker: true, seq: 1, syn: false, payload: b"GET / HTTP/1.1\r\nHost: x\r\n\r\n".to_vec() };
    let rep = read_capture(&pcap(&[ethernet(&ipv4_tcp(&http, 80), false)], 65_535));
    assert_eq!((rep.tcp_connections, rep.connections.len(), rep.exchanges.len()), (1, 0, 0));
    assert!(!rep.has_errors());
    for bad in [&b""[..], b"not a capture at all", &[0xd4, 0xc3, 0xb2, 0xa1, 2, 0]] {
        let rep = read_capture(bad);
        assert!(rep.has_errors(), "{bad:?}");
        assert!(rep.exchanges.is_empty());
    }
}


proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(256))]
    /// Any bytes, and the real capture with bytes changed anywhere: a report, never a panic,
    /// and every exchange's spans inside its stream.
    #[test]
    fn any_input_gives_a_report(noise in proptest::collection::vec(proptest::prelude::any::<u8>(), 0..2048), flips in proptest::collection::vec((0usize..20_000, proptest::prelude::any::<u8>()), 0..16)) {
        let _ = read_capture(&noise);
        let mut real = std::fs::read(fixtures().join("capture.pcapng")).unwrap();
        for (at, b) in flips {
            let n = real.len();
            real[at % n] = b;
        }
        let rep = read_capture(&real);
        for e in &rep.exchanges {
            for s in [&e.request, &e.response].into_iter().flatten() {
                proptest::prop_assert!(s.stream_start < s.stream_end);
            }
        }
    }
}
