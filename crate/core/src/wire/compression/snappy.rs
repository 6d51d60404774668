//! snappy: xerial framing (`SnappyInputStream`) and raw blocks.

#[allow(unused_imports)]
use super::*;


pub(crate) const XERIAL_MAGIC: [u8; 8] = [0x82, b'S', b'N', b'A', b'P', b'P', b'Y', 0];
pub(crate) const XERIAL_HEADER_LEN: usize = 16;
/// snappy-java's default block size for `SnappyOutputStream` (what Kafka uses).
pub(crate) const XERIAL_BLOCK: usize = 32 * 1024;
/// A snappy block cannot expand more than ~22x (a 3-byte copy tag yields 64 bytes); anything
/// declaring more is corrupt, so the declared length is never trusted beyond this.
pub(crate) fn snappy_max_expansion(compressed_len: usize) -> usize {
    compressed_len.saturating_mul(32).saturating_add(64)
}

/// Decompresses one raw snappy block into `out`; `at` is the block's offset in the input.
pub(crate) fn snappy_block(block: &[u8], out: &mut Sink<'_>, at: usize) -> Result<()> {
    let c = Codec::Snappy;
    let n = snap::raw::decompress_len(block)
        .map_err(|e| DecompressError::corrupt(c, at, format_args!("invalid block header: {e}")))?;
    if n > snappy_max_expansion(block.len()) {
        return Err(DecompressError::corrupt(
            c,
            at,
            format_args!(
                "corrupt block: declares {n} bytes from {} compressed bytes",
                block.len()
            ),
        ));
    }
    if n > out.room() {
        return Err(DecompressError::limit(at, out.cap));
    }
    let start = out.buf.len();
    out.buf.resize(start + n, 0);
    let dst = out.buf.get_mut(start..).unwrap_or(&mut []);
    match snap::raw::Decoder::new().decompress(block, dst) {
        Ok(written) => {
            out.buf.truncate(start + written);
            Ok(())
        }
        Err(e) => {
            out.buf.truncate(start);
            Err(DecompressError::corrupt(
                c,
                at,
                format_args!("corrupt block: {e}"),
            ))
        }
    }
}

pub(crate) fn snappy_decompress(data: &[u8], out: &mut Sink<'_>) -> Result<()> {
    let c = Codec::Snappy;
    if data.is_empty() {
        return Ok(());
    }
    if data.len() < XERIAL_HEADER_LEN || data.get(..8) != Some(&XERIAL_MAGIC[..]) {
        // Not xerial-framed: SnappyInputStream reads everything as one raw block.
        snappy_block(data, out, 0)?;
        return Ok(());
    }
    xerial_check_version(data, 0)?;
    let mut pos = XERIAL_HEADER_LEN;
    // Fewer than 4 bytes left where a chunk length is expected: SnappyInputStream treats that
    // as the end of the stream.
    while let Some(len) = u32_be(data, pos) {
        if len.to_be_bytes() == [0x82, b'S', b'N', b'A'] {
            // A repeated header (concatenated streams).
            let Some(header) = slice_at(data, pos, XERIAL_HEADER_LEN) else {
                return Err(DecompressError::corrupt(
                    c,
                    pos,
                    "Insufficient header size in a concatenated block",
                ));
            };
            if header.get(..8) != Some(&XERIAL_MAGIC[..]) {
                break; // not a valid header: snappy-java stops reading here
            }
            xerial_check_version(data, pos)?;
            pos += XERIAL_HEADER_LEN;
            continue;
        }
        let len = i32::from_be_bytes(len.to_be_bytes());
        if len < 0 {
            return Err(DecompressError::corrupt(
                c,
                pos,
                format_args!("invalid chunk size {len}"),
            ));
        }
        let block_at = pos + 4;
        let Some(block) = slice_at(data, block_at, len as usize) else {
            return Err(DecompressError::corrupt(
                c,
                pos,
                "failed to read chunk (truncated)",
            ));
        };
        snappy_block(block, out, block_at)?;
        pos = block_at + block.len();
    }
    Ok(())
}

pub(crate) fn xerial_check_version(data: &[u8], at: usize) -> Result<()> {
    // SnappyCodec.MINIMUM_COMPATIBLE_VERSION = 1 (the version is read big-endian).
    let version = u32_be(data, at + 8).map(|v| v as i32).unwrap_or(0);
    if version < 1 {
        return Err(DecompressError::corrupt(
            Codec::Snappy,
            at + 8,
            format_args!(
                "compressed with incompatible codec version {version}; at least 1 is required"
            ),
        ));
    }
    Ok(())
}

/// Raw (unframed) snappy: one block, as sarama and librdkafka write it.
///
/// # Panics
/// If `data` is longer than 2^32 - 1 bytes (snappy's block limit).
pub fn compress_snappy_raw(data: &[u8]) -> Vec<u8> {
    snap::raw::Encoder::new()
        .compress_vec(data)
        .expect("snappy block input must be shorter than 4 GiB")
}

pub(crate) fn snappy_xerial_compress(data: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(XERIAL_HEADER_LEN + data.len() + data.len() / 6 + 16);
    out.extend_from_slice(&XERIAL_MAGIC);
    out.extend_from_slice(&1u32.to_be_bytes()); // version
    out.extend_from_slice(&1u32.to_be_bytes()); // minimum compatible version
    let mut encoder = snap::raw::Encoder::new();
    let mut block = Vec::new();
    for chunk in data.chunks(XERIAL_BLOCK) {
        block.resize(snap::raw::max_compress_len(chunk.len()), 0);
        // Cannot fail: the chunk is 32 KiB and `block` has the maximum compressed size.
        let n = encoder.compress(chunk, &mut block).unwrap_or(0);
        out.extend_from_slice(&(n as u32).to_be_bytes());
        out.extend_from_slice(block.get(..n).unwrap_or(&[]));
    }
    out
}
