//! The body of the fuzz target `capture` (fuzz/fuzz_targets/capture.rs), shared with its
//! property test (tests/fuzz_props.rs, feature `capture`) and the regression fixtures.

use eoslab_core::capture::read_capture;
use eoslab_core::message::Node;

/// `eoslab_core::capture::read_capture` on fuzzer bytes (a pcap or pcapng, or noise). Checks:
/// no panic; the report's length is the input's; a problem's file offset lies inside the file,
/// its packet among the packets read, its connection among the connections; each exchange's
/// connection exists; each message's stream span is ordered and its decoded nodes lie inside it; each gap is ordered.
pub fn capture(data: &[u8]) {
    let rep = read_capture(data);
    assert_eq!(rep.length, data.len());
    for p in &rep.problems {
        if let Some(at) = p.at {
            assert!(at <= data.len(), "problem at {at} past the file ({}): {}", data.len(), p.message);
        }
        if let Some(n) = p.packet {
            assert!(n >= 1 && n <= rep.packets.max(1), "problem on packet {n} of {}: {}", rep.packets, p.message);
        }
        if let Some(c) = p.connection {
            assert!(c >= 1 && c <= rep.connections.len(), "problem on connection {c} of {}: {}", rep.connections.len(), p.message);
        }
    }
    for c in &rep.connections {
        for g in &c.gaps {
            assert!(g.start <= g.end, "gap [{}..{})", g.start, g.end);
        }
    }
    for x in &rep.exchanges {
        assert!(x.connection >= 1 && x.connection <= rep.connections.len(), "exchange on connection {} of {}", x.connection, rep.connections.len());
        for side in [&x.request, &x.response] {
            let Some(s) = side else { continue };
            assert!(s.stream_start <= s.stream_end, "message span [{}..{})", s.stream_start, s.stream_end);
            let len = (s.stream_end - s.stream_start) as usize;
            // The message's own offsets are in its chunk of the stream; its nodes lie within
            // the frame the span covers.
            let m = &s.message;
            assert!(m.start <= m.end && m.end - m.start <= len, "message [{}..{}) longer than its {len}-byte frame", m.start, m.end);
            node_inside(&m.header, m.start, m.start + len);
            if let Some(b) = &m.body {
                node_inside(b, m.start, m.start + len);
            }
            for issue in &s.problems {
                assert!(issue.at <= len, "issue at {} past the message's {len} bytes: {}", issue.at, issue.message);
            }
        }
    }
}

fn node_inside(n: &Node, lo: usize, hi: usize) {
    assert!(lo <= n.start && n.start <= n.end && n.end <= hi, "{} [{}..{}) outside [{lo}..{hi})", n.name, n.start, n.end);
    for c in &n.children {
        node_inside(c, n.start, n.end);
    }
}
