//! The capture file's containers, by pcap-parser: legacy pcap (either byte order, micro- or
//! nanosecond timestamps) and pcapng (any number of sections and interfaces, each with its own
//! link type and timestamp resolution; comment, statistics and name blocks are skipped).

use alloc::format;
use alloc::string::ToString;
use alloc::vec::Vec;

use pcap_parser::pcapng::Block;
use pcap_parser::{create_reader, Linktype, PcapBlockOwned, PcapError};

use super::{CaptureReport, Problem};
use crate::report::Severity;

/// The largest block read whole: a packet can be 256 KiB (the usual snapshot length); a block
/// claiming more is damage.
const MAX_BLOCK: usize = 16 << 20;

struct Interface {
    link: Linktype,
    /// Units per second, and the offset in seconds.
    resolution: u64,
    offset: i64,
}

/// Calls `push(report, packet number, time in µs, link type, frame bytes)` for every packet.
pub(super) fn each_packet(bytes: &[u8], rep: &mut CaptureReport, push: &mut dyn FnMut(&mut CaptureReport, usize, i64, Linktype, &[u8])) -> Result<(), Problem> {
    let problem = |at: usize, message: alloc::string::String| Problem { severity: Severity::Error, at: Some(at), packet: None, connection: None, message };
    let mut reader = create_reader(1 << 16, bytes).map_err(|e| problem(0, format!("not a pcap or pcapng capture: {}", describe(&e))))?;
    let mut legacy: Option<(Linktype, u64)> = None;
    let mut interfaces: Vec<Interface> = Vec::new();
    let mut packet = 0usize;
    let mut consumed = 0usize;
    let mut seen_links: Vec<Linktype> = Vec::new();
    loop {
        match reader.next() {
            Ok((len, block)) => {
                match block {
                    PcapBlockOwned::LegacyHeader(h) => {
                        rep.format = "pcap".to_string();
                        legacy = Some((h.network, if h.is_nanosecond_precision() { 1_000_000_000 } else { 1_000_000 }));
                        note_link(rep, &mut seen_links, h.network);
                    }
                    PcapBlockOwned::Legacy(b) => {
                        packet += 1;
                        let (link, res) = legacy.unwrap_or((Linktype::ETHERNET, 1_000_000));
                        let frac = i64::from(b.ts_usec) * 1_000_000 / res as i64;
                        let data = &b.data[..(b.caplen as usize).min(b.data.len())];
                        push(rep, packet, i64::from(b.ts_sec) * 1_000_000 + frac, link, data);
                    }
                    PcapBlockOwned::NG(Block::SectionHeader(_)) => {
                        rep.format = "pcapng".to_string();
                        interfaces.clear();
                    }
                    PcapBlockOwned::NG(Block::InterfaceDescription(idb)) => {
                        note_link(rep, &mut seen_links, idb.linktype);
                        interfaces.push(Interface { link: idb.linktype, resolution: idb.ts_resolution().unwrap_or(1_000_000), offset: idb.ts_offset() });
                    }
                    PcapBlockOwned::NG(Block::EnhancedPacket(epb)) => {
                        packet += 1;
                        let Some(ifc) = interfaces.get(epb.if_id as usize) else {
                            rep.problems.push(Problem { severity: Severity::Error, at: Some(consumed), packet: Some(packet), connection: None, message: format!("packet on interface {} that no Interface Description Block declared", epb.if_id) });
                            consumed += len;
                            reader.consume(len);
                            continue;
                        };
                        let ticks = (u64::from(epb.ts_high) << 32) | u64::from(epb.ts_low);
                        let micros = (ticks as u128 * 1_000_000 / u128::from(ifc.resolution.max(1))) as i64 + ifc.offset * 1_000_000;
                        let data = &epb.data[..(epb.caplen as usize).min(epb.data.len())];
                        push(rep, packet, micros, ifc.link, data);
                    }
                    PcapBlockOwned::NG(Block::SimplePacket(spb)) => {
                        packet += 1;
                        let link = interfaces.first().map_or(Linktype::ETHERNET, |i| i.link);
                        push(rep, packet, 0, link, spb.data);
                    }
                    PcapBlockOwned::NG(_) => {}
                }
                consumed += len;
                reader.consume(len);
            }
            Err(PcapError::Eof) => break,
            Err(PcapError::UnexpectedEof) => {
                rep.problems.push(problem(consumed, format!("the capture ends inside a block: the bytes from byte {consumed} are not a whole block (a truncated file)")));
                break;
            }
            Err(PcapError::Incomplete(_)) => {
                if reader.reader_exhausted() {
                    if reader.data().is_empty() {
                        break;
                    }
                    rep.problems.push(problem(consumed, format!("the capture ends inside a block: {} bytes from byte {consumed} are not a whole block (a truncated file)", reader.data().len())));
                    break;
                }
                reader.refill().map_err(|e| problem(consumed, format!("reading the capture: {}", describe(&e))))?;
            }
            Err(PcapError::BufferTooSmall) => {
                let now = reader.data().len().max(1 << 16);
                if now * 2 > MAX_BLOCK || !reader.grow(now * 2) {
                    rep.problems.push(problem(consumed, format!("a block at byte {consumed} is larger than {} MiB: the rest of the capture is not read", MAX_BLOCK >> 20)));
                    break;
                }
                reader.refill().map_err(|e| problem(consumed, format!("reading the capture: {}", describe(&e))))?;
            }
            Err(e) => {
                rep.problems.push(problem(consumed, format!("damaged block at byte {consumed}: {}; the rest of the capture is not read", describe(&e))));
                break;
            }
        }
    }
    rep.packets = packet;
    Ok(())
}

fn note_link(rep: &mut CaptureReport, seen: &mut Vec<Linktype>, link: Linktype) {
    if !seen.contains(&link) {
        seen.push(link);
        rep.link_types.push(format!("{link}"));
    }
}

fn describe<I: core::fmt::Debug>(e: &PcapError<I>) -> alloc::string::String {
    match e {
        PcapError::Eof => "end of file".to_string(),
        PcapError::HeaderNotRecognized => "the header is neither pcap nor pcapng".to_string(),
        other => format!("{other:?}"),
    }
}
