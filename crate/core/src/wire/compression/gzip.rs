//! gzip (`KafkaGZIPInputStream`, RFC 1952) for the codec layer.

#[allow(unused_imports)]
use super::*;


pub(crate) const GZIP_FHCRC: u8 = 0x02;
pub(crate) const GZIP_FEXTRA: u8 = 0x04;
pub(crate) const GZIP_FNAME: u8 = 0x08;
pub(crate) const GZIP_FCOMMENT: u8 = 0x10;
/// Inflate output chunk: the deflate window size.
pub(crate) const GZIP_CHUNK: usize = 32 * 1024;

/// Parses one gzip member header at the start of `d`; returns its length, or (offset, reason).
pub(crate) fn gzip_header(d: &[u8]) -> core::result::Result<usize, (usize, String)> {
    let eof = |at: usize| {
        (
            at,
            String::from("unexpected end of input in the GZIP header"),
        )
    };
    if d.len() < 2 {
        return Err(eof(d.len()));
    }
    if d.get(0..2) != Some(&[0x1f, 0x8b][..]) {
        return Err((0, String::from("Not in GZIP format")));
    }
    let cm = *d.get(2).ok_or_else(|| eof(2))?;
    if cm != 8 {
        return Err((2, format!("Unsupported compression method {cm}")));
    }
    let flg = *d.get(3).ok_or_else(|| eof(3))?;
    // MTIME(4) XFL(1) OS(1); reserved FLG bits are ignored, as Java does.
    let mut p = 10usize;
    if d.len() < p {
        return Err(eof(d.len()));
    }
    if flg & GZIP_FEXTRA != 0 {
        let xlen = u16_le(d, p).ok_or_else(|| eof(p))? as usize;
        p += 2;
        p = p
            .checked_add(xlen)
            .filter(|&e| e <= d.len())
            .ok_or_else(|| eof(d.len()))?;
    }
    for flag in [GZIP_FNAME, GZIP_FCOMMENT] {
        if flg & flag != 0 {
            let rest = d.get(p..).unwrap_or(&[]);
            let nul = rest
                .iter()
                .position(|&b| b == 0)
                .ok_or_else(|| eof(d.len()))?;
            p += nul + 1;
        }
    }
    if flg & GZIP_FHCRC != 0 {
        let stored = u16_le(d, p).ok_or_else(|| eof(p))?;
        let crc = crc32fast::hash(d.get(..p).unwrap_or(&[])) & 0xffff;
        if u32::from(stored) != crc {
            return Err((p, String::from("Corrupt GZIP header")));
        }
        p += 2;
    }
    Ok(p)
}

pub(crate) fn gzip_decompress(data: &[u8], out: &mut Sink<'_>) -> Result<()> {
    use miniz_oxide::inflate::stream::{inflate, InflateState};
    use miniz_oxide::{DataFormat, MZError, MZFlush, MZStatus};

    let c = Codec::Gzip;
    let mut chunk = vec![0u8; GZIP_CHUNK];
    let mut state: Box<InflateState> = InflateState::new_boxed(DataFormat::Raw);
    let mut pos = match gzip_header(data) {
        Ok(n) => n,
        Err((at, msg)) => return Err(DecompressError::corrupt(c, at, msg)),
    };
    loop {
        // One member: raw deflate, then CRC32 and ISIZE (little-endian).
        let member_start = out.buf.len();
        let mut crc = crc32fast::Hasher::new();
        loop {
            let input = data.get(pos..).unwrap_or(&[]);
            let r = inflate(&mut state, input, &mut chunk, MZFlush::None);
            let written = chunk.get(..r.bytes_written).unwrap_or(&[]);
            crc.update(written);
            out.push(written, pos)?;
            pos += r.bytes_consumed;
            match r.status {
                Ok(MZStatus::StreamEnd) => break,
                Ok(_) if r.bytes_consumed > 0 || r.bytes_written > 0 => {}
                Ok(_) | Err(MZError::Buf) => {
                    return Err(DecompressError::corrupt(
                        c,
                        pos,
                        "Unexpected end of ZLIB input stream",
                    ))
                }
                Err(_) => {
                    return Err(DecompressError::corrupt(c, pos, "invalid deflate data"));
                }
            }
        }
        let (Some(stored_crc), Some(stored_size)) = (u32_le(data, pos), u32_le(data, pos + 4))
        else {
            return Err(DecompressError::corrupt(
                c,
                pos,
                "unexpected end of input in the GZIP trailer",
            ));
        };
        let size = (out.buf.len() - member_start) as u64 & 0xffff_ffff;
        if stored_crc != crc.finalize() || u64::from(stored_size) != size {
            return Err(DecompressError::corrupt(c, pos, "Corrupt GZIP trailer"));
        }
        pos += 8;
        // Java tries a concatenated member when more than 18 bytes follow the trailer
        // (`n > 26` counting the trailer) and silently ignores a malformed next header.
        let rest = data.get(pos..).unwrap_or(&[]);
        if rest.len() <= 18 {
            break;
        }
        match gzip_header(rest) {
            Ok(n) => pos += n,
            Err(_) => break,
        }
        state.reset(DataFormat::Raw);
    }
    Ok(())
}

pub(crate) fn gzip_compress(data: &[u8]) -> Vec<u8> {
    // java.util.zip.GZIPOutputStream header: no flags, MTIME 0, XFL 0, OS 255 (JDK 16+; 0 before).
    let mut out = vec![0x1f, 0x8b, 0x08, 0x00, 0, 0, 0, 0, 0x00, 0xff];
    // Deflater.DEFAULT_COMPRESSION is zlib level 6.
    out.extend_from_slice(&miniz_oxide::deflate::compress_to_vec(data, 6));
    out.extend_from_slice(&crc32fast::hash(data).to_le_bytes());
    out.extend_from_slice(&(data.len() as u32).to_le_bytes());
    out
}
