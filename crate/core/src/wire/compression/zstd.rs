//! zstd: zstd-jni frames via ruzstd, with the window and output caps.

#[allow(unused_imports)]
use super::*;

pub(crate) const ZSTD_MAGIC: u32 = 0xFD2F_B528;
pub(crate) const ZSTD_BLOCK_MAX: u64 = 128 * 1024;
/// A zstd block of at least 4 input bytes (RLE) yields at most 128 KiB.
pub(crate) const ZSTD_MAX_EXPANSION: u64 = 32 * 1024;
/// libzstd's default decoder window limit (ZSTD_WINDOWLOG_LIMIT_DEFAULT = 27); Kafka's
/// `ZstdFactory` never raises it (no `setLongMax`), so larger windows fail in Java too.
pub(crate) const ZSTD_WINDOW_LIMIT: u64 = 1 << 27;

/// Reader handing ruzstd a rewritten frame header followed by the rest of the real frame.
pub(crate) struct ZstdReader<'a> {
    pub(crate) head: &'a [u8],
    pub(crate) body: &'a [u8],
}

impl ruzstd::io::Read for ZstdReader<'_> {
    fn read(&mut self, buf: &mut [u8]) -> core::result::Result<usize, ruzstd::io::Error> {
        if self.head.is_empty() {
            ruzstd::io::Read::read(&mut self.body, buf)
        } else {
            ruzstd::io::Read::read(&mut self.head, buf)
        }
    }
}

/// ruzstd 0.8.1 `FrameDecoder::reset` refuses windows above this (`MAXIMUM_ALLOWED_WINDOW_SIZE`);
/// the first frame of a new decoder skips that check.
pub(crate) const RUZSTD_RESET_WINDOW_MAX: u64 = 100 * 1024 * 1024;

/// The window size a window descriptor byte stands for.
pub(crate) fn zstd_window(descriptor: u8) -> u64 {
    let base = 1u64 << (10 + u32::from(descriptor >> 3));
    base + (base / 8) * u64::from(descriptor & 7)
}

/// Smallest window descriptor whose window is >= `want` (and >= 1 KiB).
pub(crate) fn zstd_window_descriptor(want: u64) -> u8 {
    for exponent in 0u8..=31 {
        let base = 1u64 << (10 + u32::from(exponent));
        for mantissa in 0u8..8 {
            if base + (base / 8) * u64::from(mantissa) >= want {
                return (exponent << 3) | mantissa;
            }
        }
    }
    0xff
}

pub(crate) fn zstd_decompress(data: &[u8], out: &mut Sink<'_>) -> Result<()> {
    use ruzstd::decoding::{BlockDecodingStrategy, FrameDecoder};
    let c = Codec::Zstd;
    if data.is_empty() {
        // zstd-jni: end of input before any frame is "Read error or truncated source".
        return Err(DecompressError::corrupt(c, 0, "empty input (no frame)"));
    }
    let truncated = |at: usize| DecompressError::corrupt(c, at, "truncated frame header");
    let mut decoder = FrameDecoder::new();
    let mut primed = false;
    let mut pos = 0usize;
    while pos < data.len() {
        let frame = data.get(pos..).unwrap_or(&[]);
        let magic = u32_le(frame, 0).ok_or_else(|| truncated(pos))?;
        if magic & 0xFFFF_FFF0 == 0x184D_2A50 {
            // Skippable frame: magic, u32 LE size, payload.
            let size = u32_le(frame, 4).ok_or_else(|| truncated(pos))? as usize;
            let skip = size
                .checked_add(8)
                .filter(|&n| n <= frame.len())
                .ok_or_else(|| DecompressError::corrupt(c, pos, "truncated skippable frame"))?;
            pos += skip;
            continue;
        }
        if magic != ZSTD_MAGIC {
            return Err(DecompressError::corrupt(
                c,
                pos,
                format_args!("unknown frame magic 0x{magic:08x}"),
            ));
        }
        // Frame header: parsed here so that neither the window nor Frame_Content_Size can make
        // the decoder allocate more than the cap allows.
        let fhd = *frame.get(4).ok_or_else(|| truncated(pos))?;
        if fhd & 0x08 != 0 {
            return Err(DecompressError::corrupt(
                c,
                pos + 4,
                "reserved frame header bit set",
            ));
        }
        let single_segment = fhd & 0x20 != 0;
        let mut p = 5usize;
        let window_byte = if single_segment {
            None
        } else {
            let b = *frame.get(p).ok_or_else(|| truncated(pos))?;
            p += 1;
            Some(b)
        };
        let dict_len = [0usize, 1, 2, 4][usize::from(fhd & 3)];
        let dict = slice_at(frame, p, dict_len).ok_or_else(|| truncated(pos))?;
        p += dict_len;
        let fcs_len = match fhd >> 6 {
            0 if single_segment => 1,
            0 => 0,
            1 => 2,
            2 => 4,
            _ => 8,
        };
        let fcs_bytes = slice_at(frame, p, fcs_len).ok_or_else(|| truncated(pos))?;
        p += fcs_len;
        let fcs = if fcs_len == 0 {
            None
        } else {
            let mut le = [0u8; 8];
            le.get_mut(..fcs_len)
                .unwrap_or(&mut [])
                .copy_from_slice(fcs_bytes);
            let v = u64::from_le_bytes(le);
            Some(if fcs_len == 2 { v + 256 } else { v })
        };
        let window = match window_byte {
            Some(b) => zstd_window(b),
            None => fcs.unwrap_or(0),
        };
        if window > ZSTD_WINDOW_LIMIT {
            return Err(DecompressError::corrupt(
                c,
                pos + 5,
                format_args!(
                    "Frame requires too much memory for decoding (window {window} bytes > {ZSTD_WINDOW_LIMIT})"
                ),
            ));
        }
        // Back-references never reach past the start of the output, which is capped, so a
        // window of max(cap, one block) is equivalent; also bound it by what the input can
        // expand to.
        let remaining = (frame.len() as u64).saturating_mul(ZSTD_MAX_EXPANSION);
        let limit = (out.cap as u64).min(remaining).max(ZSTD_BLOCK_MAX);
        let mut head = Vec::with_capacity(10);
        head.extend_from_slice(&ZSTD_MAGIC.to_le_bytes());
        head.push(fhd & 0x07); // keep checksum + dictionary flags; no single segment, no FCS
        let descriptor = zstd_window_descriptor(window.min(limit));
        head.push(descriptor);
        head.extend_from_slice(dict);
        let body = frame.get(p..).unwrap_or(&[]);
        let mut reader = ZstdReader { head: &head, body };
        let body_at = |r: &ZstdReader<'_>| pos + p + (body.len() - r.body.len());

        if !primed && zstd_window(descriptor) <= RUZSTD_RESET_WINDOW_MAX {
            // A new FrameDecoder starts with an empty ring buffer and grows it by doubling while
            // decoding (~20 reallocations and copies per 100 KiB frame); `reset` on a decoder
            // that has state reserves the whole window at once. So the first frame's header (the
            // rewritten one: all that `reset` reads) primes it, and the real `reset` below parses
            // the very same bytes, reporting any header error itself. Skipped for windows that
            // `reset` refuses but a new decoder's first frame accepts, which must stay accepted.
            let _ = decoder.reset(&mut head.as_slice());
        }
        decoder
            .reset(&mut reader)
            .map_err(|e| DecompressError::corrupt(c, pos, format_args!("{e}")))?;
        primed = true;
        let frame_start = out.buf.len();
        if let Some(n) = fcs {
            // A hint only (checked after decoding): never past the cap or what the frame's
            // bytes can expand to.
            let n = n.min(remaining).min(out.room() as u64) as usize;
            out.buf.reserve(n);
        }
        loop {
            let finished = decoder
                .decode_blocks(&mut reader, BlockDecodingStrategy::UptoBytes(64 * 1024))
                .map_err(|e| DecompressError::corrupt(c, body_at(&reader), format_args!("{e}")))?;
            // Drains everything beyond the window while decoding, everything once finished.
            zstd_drain(&mut decoder, out, body_at(&reader))?;
            if finished {
                break;
            }
        }
        let produced = out.buf.get(frame_start..).unwrap_or(&[]);
        if let Some(expected) = fcs {
            if produced.len() as u64 != expected {
                return Err(DecompressError::corrupt(
                    c,
                    pos,
                    format_args!(
                        "frame content size mismatch: header says {expected}, decoded {}",
                        produced.len()
                    ),
                ));
            }
        }
        if fhd & 0x04 != 0 {
            let stored = decoder.get_checksum_from_data();
            let computed = xxhash_rust::xxh64::xxh64(produced, 0) as u32;
            if stored != Some(computed) {
                return Err(DecompressError::corrupt(
                    c,
                    body_at(&reader),
                    "content checksum mismatch",
                ));
            }
        }
        pos = body_at(&reader);
    }
    Ok(())
}

/// Moves what the decoder can hand out (everything past the window while decoding, everything
/// once the frame is finished) straight from its ring buffer into `out`, without `collect`'s
/// intermediate `Vec`; all of it or, past the cap, nothing (`at`: where the limit is reported).
pub(crate) fn zstd_drain(
    decoder: &mut ruzstd::decoding::FrameDecoder,
    out: &mut Sink<'_>,
    at: usize,
) -> Result<()> {
    let n = decoder.can_collect();
    if n == 0 {
        return Ok(());
    }
    if n > out.room() {
        return Err(DecompressError::limit(at, out.cap));
    }
    out.buf.reserve(n);
    match decoder.collect_to_writer(&mut *out) {
        Ok(written) if written == n => Ok(()),
        _ => Err(DecompressError::corrupt(
            Codec::Zstd,
            at,
            "failed to drain the decode buffer",
        )),
    }
}

pub(crate) fn zstd_compress(data: &[u8]) -> Vec<u8> {
    // Pure-Rust encoder (ruzstd "Fastest", ~ zstd level 1); Java uses zstd-jni level 3. Both
    // write one standard frame without content size or checksum.
    ruzstd::encoding::compress_to_vec(data, ruzstd::encoding::CompressionLevel::Fastest)
}
