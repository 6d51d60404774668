//! One direction of a TCP connection, reassembled: segments in sequence order, each byte taken
//! once (a retransmission or an overlap adds nothing), a missing range kept as a gap with its
//! bytes, and for every byte the capture time of the packet that brought it.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;
use core::net::{IpAddr, Ipv4Addr, Ipv6Addr};

use etherparse::{LaxNetSlice, LaxSlicedPacket, TransportSlice};
use pcap_parser::Linktype;

/// A direction: source and destination address and port.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Key {
    pub src: (IpAddr, u16),
    pub dst: (IpAddr, u16),
}

impl Key {
    pub fn reversed(&self) -> Key {
        Key { src: self.dst, dst: self.src }
    }
}

/// A TCP segment as one packet carried it.
pub struct Segment<'a> {
    pub key: Key,
    pub seq: u32,
    pub syn: bool,
    pub payload: &'a [u8],
    /// Payload bytes the IP header declares that the capture did not keep (a snapshot length).
    pub missing: u64,
}


/// The TCP segment in a captured frame of link type `link`, `None` for anything else (ARP, UDP,
/// another link type's frames …), an error for a TCP/IP packet too damaged to read.
pub fn segment(link: Linktype, data: &[u8]) -> Result<Option<Segment<'_>>, String> {
    let parsed = match link {
        Linktype::ETHERNET => LaxSlicedPacket::from_ethernet(data).map_err(|e| format!("Ethernet frame: {e}"))?,
        // Linux cooked capture v1: 16 bytes, the protocol (an EtherType) in the last two.
        Linktype::LINUX_SLL => match data.get(14..16) {
            Some(&[0x08, 0x00]) | Some(&[0x86, 0xdd]) => from_ip(&data[16..])?,
            _ => return Ok(None),
        },
        // Linux cooked capture v2: 20 bytes, the protocol in the first two.
        Linktype::LINUX_SLL2 => match data.get(0..2) {
            Some(&[0x08, 0x00]) | Some(&[0x86, 0xdd]) if data.len() >= 20 => from_ip(&data[20..])?,
            _ => return Ok(None),
        },
        // BSD loopback: a 4-byte address family, in the capturing host's byte order (NULL) or
        // network order (LOOP): 2 is IPv4, 24, 28 and 30 are IPv6.
        Linktype::NULL | Linktype::LOOP => match data.get(0..4) {
            Some(f) if [2u32, 24, 28, 30].iter().any(|&v| u32::from_le_bytes([f[0], f[1], f[2], f[3]]) == v || u32::from_be_bytes([f[0], f[1], f[2], f[3]]) == v) => from_ip(&data[4..])?,
            _ => return Ok(None),
        },
        Linktype::RAW | Linktype::IPV4 | Linktype::IPV6 => from_ip(data)?,
        // DLT_RAW's other numbers on some systems.
        Linktype(12) | Linktype(14) => from_ip(data)?,
        _ => return Ok(None),
    };
    let (src, dst, ip_payload) = match &parsed.net {
        Some(LaxNetSlice::Ipv4(v4)) => {
            let h = v4.header();
            (IpAddr::V4(Ipv4Addr::from(h.source())), IpAddr::V4(Ipv4Addr::from(h.destination())), usize::from(h.total_len()).saturating_sub(usize::from(h.ihl()) * 4))
        }
        Some(LaxNetSlice::Ipv6(v6)) => {
            let h = v6.header();
            (IpAddr::V6(Ipv6Addr::from(h.source())), IpAddr::V6(Ipv6Addr::from(h.destination())), usize::from(h.payload_length()))
        }
        _ => return Ok(None),
    };
    let Some(TransportSlice::Tcp(tcp)) = &parsed.transport else { return Ok(None) };
    let missing = ip_payload.saturating_sub(tcp.header_len() + tcp.payload().len()) as u64;
    Ok(Some(Segment {
        key: Key { src: (src, tcp.source_port()), dst: (dst, tcp.destination_port()) },
        seq: tcp.sequence_number(),
        syn: tcp.syn(),
        payload: tcp.payload(),
        missing,
    }))
}

fn from_ip(data: &[u8]) -> Result<LaxSlicedPacket<'_>, String> {
    LaxSlicedPacket::from_ip(data).map_err(|e| format!("IP packet: {e}"))
}

/// A missing range of one direction's stream.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
pub struct Gap {
    #[cfg_attr(feature = "serde", serde(skip))]
    pub flow: Key,
    /// Stream offsets (0 = the first byte after the SYN, or the first byte seen).
    pub start: u64,
    pub end: u64,
    /// The packet that arrived after the gap (or, for bytes a snapshot length cut off the end of
    /// the stream, the packet they were cut from).
    pub before_packet: usize,
}

impl Gap {
    pub fn direction(&self, to_broker: bool) -> &'static str {
        if to_broker {
            "client stream"
        } else {
            "broker stream"
        }
    }
}

struct Piece {
    rel: u64,
    /// Bytes the packet carried that the capture did not keep (cut by its snapshot length).
    missing: u64,
    packet: usize,
    time_us: i64,
    bytes: Vec<u8>,
}

/// The segments of one direction, as captured.
pub struct Flow {
    pub key: Key,
    pub saw_syn: bool,
    /// The sequence number of stream offset 0.
    base: Option<u32>,
    pieces: Vec<Piece>,
}

/// Contiguous bytes of a stream.
#[derive(Default)]
pub struct Chunk {
    pub start: u64,
    pub bytes: Vec<u8>,
    /// Whether a gap comes right before it (its first bytes may be the middle of a message).
    pub after_gap: bool,
}

/// One direction, reassembled.
#[derive(Default)]
pub struct Stream {
    pub chunks: Vec<Chunk>,
    pub gaps: Vec<Gap>,
    /// (stream offset, capture time) of each piece taken, in stream order.
    times: Vec<(u64, i64)>,
}

impl Stream {
    pub fn len(&self) -> u64 {
        self.chunks.iter().map(|c| c.bytes.len() as u64).sum()
    }

    pub fn is_empty(&self) -> bool {
        self.chunks.is_empty()
    }

    /// The capture time of the packet that brought the byte at `offset`.
    pub fn time_at(&self, offset: u64) -> i64 {
        let i = self.times.partition_point(|&(o, _)| o <= offset);
        self.times.get(i.saturating_sub(1)).map_or(0, |&(_, t)| t)
    }
}

impl Flow {
    pub fn new(key: Key) -> Flow {
        Flow { key, saw_syn: false, base: None, pieces: Vec::new() }
    }

    /// Add a captured segment. A packet the capture cut short (its snapshot length) brings the
    /// bytes it kept; the rest shows as a gap before the next segment.
    pub fn add(&mut self, seq: u32, syn: bool, payload: &[u8], missing: u64, packet: usize, time_us: i64) {
        if syn {
            self.saw_syn = true;
            // The SYN takes one sequence number: data starts after it.
            self.base = Some(seq.wrapping_add(1));
        }
        if payload.is_empty() {
            return;
        }
        let base = *self.base.get_or_insert(seq);
        let rel = seq.wrapping_sub(base);
        // Before the first byte seen (a capture that started mid-stream, then an older
        // retransmission): more than 2 GiB "ahead" is behind.
        if rel >= 1 << 31 {
            return;
        }
        self.pieces.push(Piece { rel: u64::from(rel), missing, packet, time_us, bytes: payload.to_vec() });
    }

    /// The first bytes of the stream, for telling which side is the client.
    pub fn first_bytes(&self) -> &[u8] {
        self.pieces.iter().find(|p| p.rel == 0).map_or(&[][..], |p| &p.bytes[..])
    }

    /// The stream in order, each byte once, gaps noted.
    pub fn assemble(&self) -> Stream {
        let mut idx: Vec<usize> = (0..self.pieces.len()).collect();
        // By offset, then capture order: of two copies of the same bytes the first captured wins.
        idx.sort_by_key(|&i| (self.pieces[i].rel, i));
        let mut out = Stream::default();
        let mut next = 0u64;
        // A capture without the connection's start begins in the middle of a message, maybe.
        let mut chunk = Chunk { after_gap: !self.saw_syn, ..Chunk::default() };
        let mut claimed = (0u64, 0usize);
        for i in idx {
            let p = &self.pieces[i];
            let end = p.rel + p.bytes.len() as u64;
            if end + p.missing > claimed.0 {
                claimed = (end + p.missing, p.packet);
            }
            if end <= next {
                continue; // a retransmission
            }
            if p.rel > next {
                out.gaps.push(Gap { flow: self.key, start: next, end: p.rel, before_packet: p.packet });
                if !chunk.bytes.is_empty() {
                    out.chunks.push(core::mem::take(&mut chunk));
                }
                chunk = Chunk { start: p.rel, bytes: Vec::new(), after_gap: true };
                next = p.rel;
            }
            let skip = (next - p.rel) as usize;
            out.times.push((next, p.time_us));
            chunk.bytes.extend_from_slice(&p.bytes[skip..]);
            next = end;
        }
        if !chunk.bytes.is_empty() {
            out.chunks.push(chunk);
        }
        // The last packets' bytes the snapshot length cut off.
        if claimed.0 > next {
            out.gaps.push(Gap { flow: self.key, start: next, end: claimed.0, before_packet: claimed.1 });
        }
        out
    }
}
