//! lz4: the KIP-57 frame subset (`Lz4BlockInputStream` / `Lz4BlockOutputStream`).

#[allow(unused_imports)]
use super::*;

pub(crate) const LZ4_MAGIC: u32 = 0x184D_2204;
/// FLG: version 01, block independence; no block/content checksum, no content size.
pub(crate) const LZ4_FLG: u8 = 0x60;
/// BD: block maximum size code 4 = 64 KiB (Kafka's default).
pub(crate) const LZ4_BD: u8 = 0x40;
pub(crate) const LZ4_BLOCK: usize = 64 * 1024;
pub(crate) const LZ4_STORED: u32 = 0x8000_0000;

pub(crate) fn lz4_hc(bytes: &[u8]) -> u8 {
    (xxhash_rust::xxh32::xxh32(bytes, 0) >> 8) as u8
}

pub(crate) fn lz4_decompress(data: &[u8], magic: u8, out: &mut Sink<'_>) -> Result<()> {
    let c = Codec::Lz4;
    let premature = |at: usize| DecompressError::corrupt(c, at, "Stream ended prematurely");
    if data.len() < 6 {
        return Err(premature(data.len()));
    }
    if u32_le(data, 0) != Some(LZ4_MAGIC) {
        return Err(DecompressError::corrupt(
            c,
            0,
            "Stream unsupported (invalid magic bytes)",
        ));
    }
    let (flg, bd) = match data.get(4..6) {
        Some(&[flg, bd]) => (flg, bd),
        _ => return Err(premature(4)),
    };
    // FLG.validate() order: reserved bits (incl. DictID), block independence, version.
    if flg & 0x03 != 0 {
        return Err(DecompressError::corrupt(c, 4, "Reserved bits must be 0"));
    }
    if (flg >> 5) & 1 != 1 {
        return Err(DecompressError::corrupt(
            c,
            4,
            "Dependent block stream is unsupported",
        ));
    }
    if flg >> 6 != 1 {
        return Err(DecompressError::corrupt(
            c,
            4,
            format_args!("Version {} is unsupported", flg >> 6),
        ));
    }
    let block_checksum = flg & 0x10 != 0;
    let content_size = flg & 0x08 != 0;
    let content_checksum = flg & 0x04 != 0;
    if bd & 0x0f != 0 {
        return Err(DecompressError::corrupt(c, 5, "Reserved2 field must be 0"));
    }
    let size_code = (bd >> 4) & 7;
    if size_code < 4 {
        return Err(DecompressError::corrupt(
            c,
            5,
            "Block size value must be between 4 and 7",
        ));
    }
    if bd >> 7 != 0 {
        return Err(DecompressError::corrupt(c, 5, "Reserved3 field must be 0"));
    }
    let max_block = 1usize << (2 * usize::from(size_code) + 8);
    let mut pos = 6;
    if content_size {
        if data.len() < pos + 8 {
            return Err(premature(pos));
        }
        pos += 8; // skipped, as Java does
    }
    let hc = *data.get(pos).ok_or_else(|| premature(pos))?;
    // KIP-57: magic 0 producers wrote a broken HC, so Java ignores it for magic 0 only.
    if magic != 0 && hc != lz4_hc(data.get(4..pos).unwrap_or(&[])) {
        return Err(DecompressError::corrupt(
            c,
            pos,
            "Stream frame descriptor corrupted",
        ));
    }
    pos += 1;

    // Reserve the output once instead of doubling it block by block: the block headers bound
    // it (a hint only, never past the cap or what the blocks present can expand to; the loop
    // below does all the checking).
    let mut hint = 0usize;
    let mut q = pos;
    while let Some(word) = u32_le(data, q) {
        let size = (word & !LZ4_STORED) as usize;
        if size == 0 || size > max_block || hint >= out.room() {
            break;
        }
        hint += if word & LZ4_STORED != 0 {
            size
        } else {
            max_block.min(size.saturating_mul(256).saturating_add(64))
        };
        q = q.saturating_add(4 + size + if block_checksum { 4 } else { 0 });
    }
    out.buf.reserve(hint.min(out.room()));

    loop {
        let word = u32_le(data, pos).ok_or_else(|| premature(pos))?;
        let block_at = pos + 4;
        let stored = word & LZ4_STORED != 0;
        let size = (word & !LZ4_STORED) as usize;
        if size == 0 {
            // End mark. Java reads the content checksum but does not verify it ("TODO").
            if content_checksum && u32_le(data, block_at).is_none() {
                return Err(premature(block_at));
            }
            break;
        }
        if size > max_block {
            return Err(DecompressError::corrupt(
                c,
                pos,
                format_args!("Block size {size} exceeded max: {max_block}"),
            ));
        }
        let block = slice_at(data, block_at, size).ok_or_else(|| premature(block_at))?;
        if stored {
            out.push(block, block_at)?;
        } else {
            // An lz4 block expands at most ~255x; never size the buffer past that, the frame's
            // block maximum (Java's decompression buffer) or the remaining cap.
            let bound = max_block.min(size.saturating_mul(256).saturating_add(64));
            let room = out.room();
            let len = bound.min(room);
            let start = out.buf.len();
            out.buf.resize(start + len, 0);
            let dst = out.buf.get_mut(start..).unwrap_or(&mut []);
            match lz4_flex::block::decompress_into(block, dst) {
                Ok(n) => out.buf.truncate(start + n),
                Err(e) => {
                    out.buf.truncate(start);
                    let capped = len < bound;
                    return Err(match e {
                        lz4_flex::block::DecompressError::OutputTooSmall { .. } if capped => {
                            DecompressError::limit(block_at, out.cap)
                        }
                        lz4_flex::block::DecompressError::OutputTooSmall { .. } => {
                            DecompressError::corrupt(
                                c,
                                block_at,
                                format_args!("block decompresses to more than {max_block} bytes"),
                            )
                        }
                        e => DecompressError::corrupt(
                            c,
                            block_at,
                            format_args!("corrupt block: {e}"),
                        ),
                    });
                }
            }
        }
        pos = block_at + size;
        if block_checksum {
            let stored_hash = u32_le(data, pos).ok_or_else(|| premature(pos))?;
            if stored_hash != xxhash_rust::xxh32::xxh32(block, 0) {
                return Err(DecompressError::corrupt(c, pos, "Block checksum mismatch"));
            }
            pos += 4;
        }
    }
    // Only one frame is read; anything after the end mark is ignored, as in Java.
    Ok(())
}

pub(crate) fn lz4_compress(data: &[u8], magic: u8) -> Vec<u8> {
    let mut out =
        Vec::with_capacity(7 + data.len() + data.len() / 255 + 16 * (data.len() / LZ4_BLOCK + 1));
    out.extend_from_slice(&LZ4_MAGIC.to_le_bytes());
    out.push(LZ4_FLG);
    out.push(LZ4_BD);
    // Correct HC covers FLG..BD; the KIP-57 broken one (magic 0) also covers the magic.
    let hc = if magic == 0 {
        lz4_hc(&out[0..6])
    } else {
        lz4_hc(&out[4..6])
    };
    out.push(hc);
    let mut compressed = Vec::new();
    for chunk in data.chunks(LZ4_BLOCK) {
        compressed.resize(lz4_flex::block::get_maximum_output_size(chunk.len()), 0);
        let n = lz4_flex::block::compress_into(chunk, &mut compressed).unwrap_or(usize::MAX);
        match compressed.get(..n) {
            // Stored uncompressed unless compression shrinks the block (compressedLength >= len).
            Some(block) if n < chunk.len() => {
                out.extend_from_slice(&(n as u32).to_le_bytes());
                out.extend_from_slice(block);
            }
            _ => {
                out.extend_from_slice(&(chunk.len() as u32 | LZ4_STORED).to_le_bytes());
                out.extend_from_slice(chunk);
            }
        }
    }
    out.extend_from_slice(&0u32.to_le_bytes()); // end mark, no content checksum
    out
}
