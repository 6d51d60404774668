//! Kafka record-batch compression codecs (attributes bits 0–2): none, gzip, snappy, lz4, zstd.
//!
//! Decompression follows what Kafka's Java readers accept (record-batch.md §4.2):
//! - gzip: `KafkaGZIPInputStream` (a copy of `java.util.zip.GZIPInputStream`): RFC 1952 member,
//!   FEXTRA/FNAME/FCOMMENT skipped, FHCRC checked, CRC32/ISIZE trailer checked, concatenated
//!   members read; trailing bytes that do not parse as a member header are ignored.
//! - snappy: xerial `SnappyInputStream`: framed (`82 'SNAPPY' 00` + version + compat, then
//!   `[int32 BE len][raw block]` chunks, a repeated header between chunks tolerated) when the first
//!   8 bytes are the xerial magic, otherwise the whole input is one raw snappy block.
//! - lz4: `Lz4BlockInputStream`: the KIP-57 frame subset, header checksum ignored for magic 0 only.
//! - zstd: zstd-jni `ZstdInputStreamNoFinalizer`: standard frames, several concatenated frames,
//!   skippable frames skipped; Frame_Content_Size is checked, and only hints the output's
//!   reservation (never past the cap or what the frame's bytes can expand to).
//!
//! Every decoder stops at `cap` output bytes and reports `limit_exceeded`; allocation is bounded
//! by roughly `cap` plus one codec block (and, for zstd, a window clamped to `max(cap, 128 KiB)`).
//! Corrupt or truncated input yields `Err`, never a panic.
//!
//! Compression writes what Kafka's Java producer writes (framing byte-for-byte; the entropy-coded
//! payload comes from pure-Rust encoders, so it is valid but not identical to Java's bytes).

use alloc::boxed::Box;
use alloc::format;
use alloc::string::String;
use alloc::vec;
use alloc::vec::Vec;
use core::fmt;

/// Compression codec, as stored in the low 3 bits of the batch/message attributes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Codec {
    None,
    Gzip,
    Snappy,
    Lz4,
    Zstd,
}

impl Codec {
    /// Codec for an attributes codec id (0–4); 5–7 are invalid.
    pub fn from_id(id: u8) -> Option<Codec> {
        match id {
            0 => Some(Codec::None),
            1 => Some(Codec::Gzip),
            2 => Some(Codec::Snappy),
            3 => Some(Codec::Lz4),
            4 => Some(Codec::Zstd),
            _ => None,
        }
    }

    /// The attributes codec id.
    pub fn id(self) -> u8 {
        match self {
            Codec::None => 0,
            Codec::Gzip => 1,
            Codec::Snappy => 2,
            Codec::Lz4 => 3,
            Codec::Zstd => 4,
        }
    }

    /// Kafka's `compression.type` name.
    pub fn name(self) -> &'static str {
        match self {
            Codec::None => "none",
            Codec::Gzip => "gzip",
            Codec::Snappy => "snappy",
            Codec::Lz4 => "lz4",
            Codec::Zstd => "zstd",
        }
    }
}

/// Why decompression failed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DecompressError {
    /// Byte offset inside the compressed input where the problem was detected (best effort).
    pub at: usize,
    /// Human-readable reason; corrupt-input messages start with the codec name.
    pub message: String,
    /// True when the output would exceed the caller's cap (the input may still be valid).
    pub limit_exceeded: bool,
}

impl DecompressError {
    fn corrupt(codec: Codec, at: usize, message: impl fmt::Display) -> Self {
        DecompressError {
            at,
            message: format!("{}: {}", codec.name(), message),
            limit_exceeded: false,
        }
    }

    fn limit(at: usize, cap: usize) -> Self {
        DecompressError {
            at,
            message: format!("decompressed size exceeds the limit of {cap} bytes"),
            limit_exceeded: true,
        }
    }
}

impl fmt::Display for DecompressError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} (at compressed byte {})", self.message, self.at)
    }
}

impl core::error::Error for DecompressError {}

type Result<T> = core::result::Result<T, DecompressError>;

/// Output buffer that refuses to grow past `cap` bytes: appends to the caller's `Vec`, counting
/// only the bytes appended since `base`.
struct Sink<'a> {
    buf: &'a mut Vec<u8>,
    base: usize,
    cap: usize,
}

impl<'a> Sink<'a> {
    fn new(buf: &'a mut Vec<u8>, cap: usize) -> Self {
        let base = buf.len();
        Sink { buf, base, cap }
    }

    /// Bytes appended so far.
    fn len(&self) -> usize {
        self.buf.len() - self.base
    }

    fn room(&self) -> usize {
        self.cap.saturating_sub(self.len())
    }

    fn push(&mut self, bytes: &[u8], at: usize) -> Result<()> {
        if bytes.len() > self.room() {
            return Err(DecompressError::limit(at, self.cap));
        }
        self.buf.extend_from_slice(bytes);
        Ok(())
    }
}

/// `collect_to_writer` target for ruzstd: callers check `room()` first, so a write that does not
/// fit is refused (short write) rather than ever exceeding the cap.
impl ruzstd::io::Write for Sink<'_> {
    fn write(&mut self, bytes: &[u8]) -> core::result::Result<usize, ruzstd::io::Error> {
        let n = bytes.len().min(self.room());
        self.buf.extend_from_slice(bytes.get(..n).unwrap_or(&[]));
        Ok(n)
    }

    fn flush(&mut self) -> core::result::Result<(), ruzstd::io::Error> {
        Ok(())
    }
}

fn slice_at(data: &[u8], at: usize, len: usize) -> Option<&[u8]> {
    data.get(at..at.checked_add(len)?)
}

fn u32_le(data: &[u8], at: usize) -> Option<u32> {
    Some(u32::from_le_bytes(slice_at(data, at, 4)?.try_into().ok()?))
}

fn u32_be(data: &[u8], at: usize) -> Option<u32> {
    Some(u32::from_be_bytes(slice_at(data, at, 4)?.try_into().ok()?))
}

fn u16_le(data: &[u8], at: usize) -> Option<u16> {
    Some(u16::from_le_bytes(slice_at(data, at, 2)?.try_into().ok()?))
}

/// Decompresses a batch's records section (or a legacy wrapper's value).
///
/// `magic` is the batch/message magic (0, 1, 2): the lz4 header-checksum quirk applies to magic 0
/// only (KIP-57). The output is capped at `cap` bytes: exceeding it returns an error with
/// `limit_exceeded: true` and message "decompressed size exceeds the limit of N bytes".
pub fn decompress(
    codec: Codec,
    data: &[u8],
    magic: u8,
    cap: usize,
) -> core::result::Result<Vec<u8>, DecompressError> {
    let mut out = Vec::new();
    decompress_into(codec, data, magic, cap, &mut out)?;
    Ok(out)
}

/// [`decompress`], appending to `out` instead of returning a new `Vec`; `cap` counts only the
/// appended bytes. Results and errors are exactly those of [`decompress`]; on error `out` is left
/// as it was (truncated back to its original length). Reusing one `out` across batches saves the
/// allocation and regrowth of the output.
pub fn decompress_into(
    codec: Codec,
    data: &[u8],
    magic: u8,
    cap: usize,
    out: &mut Vec<u8>,
) -> core::result::Result<(), DecompressError> {
    let base = out.len();
    let mut sink = Sink::new(out, cap);
    let r = match codec {
        Codec::None => {
            if data.len() <= sink.room() {
                sink.buf.reserve(data.len());
            }
            sink.push(data, 0)
        }
        Codec::Gzip => gzip_decompress(data, &mut sink),
        Codec::Snappy => snappy_decompress(data, &mut sink),
        Codec::Lz4 => lz4_decompress(data, magic, &mut sink),
        Codec::Zstd => zstd_decompress(data, &mut sink),
    };
    if r.is_err() {
        out.truncate(base);
    }
    r
}

/// Compresses like Kafka's Java producer (see the module docs for the framing of each codec).
///
/// `magic` only matters for lz4 (magic 0 writes the KIP-57 broken header checksum). zstd is only
/// valid in magic 2 batches; that rule belongs to the batch builder, not to this function.
pub fn compress(codec: Codec, data: &[u8], magic: u8) -> Vec<u8> {
    match codec {
        Codec::None => data.to_vec(),
        Codec::Gzip => gzip_compress(data),
        Codec::Snappy => snappy_xerial_compress(data),
        Codec::Lz4 => lz4_compress(data, magic),
        Codec::Zstd => zstd_compress(data),
    }
}

// ---------------------------------------------------------------------------------------------
// gzip
// ---------------------------------------------------------------------------------------------

const GZIP_FHCRC: u8 = 0x02;
const GZIP_FEXTRA: u8 = 0x04;
const GZIP_FNAME: u8 = 0x08;
const GZIP_FCOMMENT: u8 = 0x10;
/// Inflate output chunk: the deflate window size.
const GZIP_CHUNK: usize = 32 * 1024;

/// Parses one gzip member header at the start of `d`; returns its length, or (offset, reason).
fn gzip_header(d: &[u8]) -> core::result::Result<usize, (usize, String)> {
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

fn gzip_decompress(data: &[u8], out: &mut Sink<'_>) -> Result<()> {
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

fn gzip_compress(data: &[u8]) -> Vec<u8> {
    // java.util.zip.GZIPOutputStream header: no flags, MTIME 0, XFL 0, OS 255 (JDK 16+; 0 before).
    let mut out = vec![0x1f, 0x8b, 0x08, 0x00, 0, 0, 0, 0, 0x00, 0xff];
    // Deflater.DEFAULT_COMPRESSION is zlib level 6.
    out.extend_from_slice(&miniz_oxide::deflate::compress_to_vec(data, 6));
    out.extend_from_slice(&crc32fast::hash(data).to_le_bytes());
    out.extend_from_slice(&(data.len() as u32).to_le_bytes());
    out
}

// ---------------------------------------------------------------------------------------------
// snappy
// ---------------------------------------------------------------------------------------------

const XERIAL_MAGIC: [u8; 8] = [0x82, b'S', b'N', b'A', b'P', b'P', b'Y', 0];
const XERIAL_HEADER_LEN: usize = 16;
/// snappy-java's default block size for `SnappyOutputStream` (what Kafka uses).
const XERIAL_BLOCK: usize = 32 * 1024;
/// A snappy block cannot expand more than ~22x (a 3-byte copy tag yields 64 bytes); anything
/// declaring more is corrupt, so the declared length is never trusted beyond this.
fn snappy_max_expansion(compressed_len: usize) -> usize {
    compressed_len.saturating_mul(32).saturating_add(64)
}

/// Decompresses one raw snappy block into `out`; `at` is the block's offset in the input.
fn snappy_block(block: &[u8], out: &mut Sink<'_>, at: usize) -> Result<()> {
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

fn snappy_decompress(data: &[u8], out: &mut Sink<'_>) -> Result<()> {
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

fn xerial_check_version(data: &[u8], at: usize) -> Result<()> {
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

fn snappy_xerial_compress(data: &[u8]) -> Vec<u8> {
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

// ---------------------------------------------------------------------------------------------
// lz4 (KIP-57 frame subset, Lz4BlockOutputStream / Lz4BlockInputStream)
// ---------------------------------------------------------------------------------------------

const LZ4_MAGIC: u32 = 0x184D_2204;
/// FLG: version 01, block independence; no block/content checksum, no content size.
const LZ4_FLG: u8 = 0x60;
/// BD: block maximum size code 4 = 64 KiB (Kafka's default).
const LZ4_BD: u8 = 0x40;
const LZ4_BLOCK: usize = 64 * 1024;
const LZ4_STORED: u32 = 0x8000_0000;

fn lz4_hc(bytes: &[u8]) -> u8 {
    (xxhash_rust::xxh32::xxh32(bytes, 0) >> 8) as u8
}

fn lz4_decompress(data: &[u8], magic: u8, out: &mut Sink<'_>) -> Result<()> {
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

fn lz4_compress(data: &[u8], magic: u8) -> Vec<u8> {
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

// ---------------------------------------------------------------------------------------------
// zstd
// ---------------------------------------------------------------------------------------------

const ZSTD_MAGIC: u32 = 0xFD2F_B528;
const ZSTD_BLOCK_MAX: u64 = 128 * 1024;
/// A zstd block of at least 4 input bytes (RLE) yields at most 128 KiB.
const ZSTD_MAX_EXPANSION: u64 = 32 * 1024;
/// libzstd's default decoder window limit (ZSTD_WINDOWLOG_LIMIT_DEFAULT = 27); Kafka's
/// `ZstdFactory` never raises it (no `setLongMax`), so larger windows fail in Java too.
const ZSTD_WINDOW_LIMIT: u64 = 1 << 27;

/// Reader handing ruzstd a rewritten frame header followed by the rest of the real frame.
struct ZstdReader<'a> {
    head: &'a [u8],
    body: &'a [u8],
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
const RUZSTD_RESET_WINDOW_MAX: u64 = 100 * 1024 * 1024;

/// The window size a window descriptor byte stands for.
fn zstd_window(descriptor: u8) -> u64 {
    let base = 1u64 << (10 + u32::from(descriptor >> 3));
    base + (base / 8) * u64::from(descriptor & 7)
}

/// Smallest window descriptor whose window is >= `want` (and >= 1 KiB).
fn zstd_window_descriptor(want: u64) -> u8 {
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

fn zstd_decompress(data: &[u8], out: &mut Sink<'_>) -> Result<()> {
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
fn zstd_drain(
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

fn zstd_compress(data: &[u8]) -> Vec<u8> {
    // Pure-Rust encoder (ruzstd "Fastest", ~ zstd level 1); Java uses zstd-jni level 3. Both
    // write one standard frame without content size or checksum.
    ruzstd::encoding::compress_to_vec(data, ruzstd::encoding::CompressionLevel::Fastest)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Example A's uncompressed records section: one record, key "k", value "v"
    /// (record-batch.md §9.4).
    const RECORDS: [u8; 9] = [0x10, 0x00, 0x00, 0x00, 0x02, 0x6b, 0x02, 0x76, 0x00];

    /// record-batch.md §9.4, gzip row (Python gzip, mtime 0).
    const GZIP_VECTOR: [u8; 29] = [
        0x1f, 0x8b, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x02, 0x03, 0x13, 0x60, 0x60, 0x60, 0x60,
        0xca, 0x66, 0x2a, 0x63, 0x00, 0x00, 0xa3, 0x7f, 0xcf, 0xa6, 0x09, 0x00, 0x00, 0x00,
    ];
    /// record-batch.md §9.4, snappy xerial-framing row.
    const SNAPPY_XERIAL_VECTOR: [u8; 31] = [
        0x82, 0x53, 0x4e, 0x41, 0x50, 0x50, 0x59, 0x00, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00,
        0x01, 0x00, 0x00, 0x00, 0x0b, 0x09, 0x20, 0x10, 0x00, 0x00, 0x00, 0x02, 0x6b, 0x02, 0x76,
        0x00,
    ];
    /// record-batch.md §9.4, snappy raw row (sarama / librdkafka style).
    const SNAPPY_RAW_VECTOR: [u8; 11] = [
        0x09, 0x20, 0x10, 0x00, 0x00, 0x00, 0x02, 0x6b, 0x02, 0x76, 0x00,
    ];
    /// record-batch.md §9.4, lz4 row: header `04 22 4d 18 60 40 82`, stored block, end mark.
    const LZ4_VECTOR: [u8; 24] = [
        0x04, 0x22, 0x4d, 0x18, 0x60, 0x40, 0x82, 0x09, 0x00, 0x00, 0x80, 0x10, 0x00, 0x00, 0x00,
        0x02, 0x6b, 0x02, 0x76, 0x00, 0x00, 0x00, 0x00, 0x00,
    ];
    /// record-batch.md §9.4, zstd row (single frame, no content size, no checksum).
    const ZSTD_VECTOR: [u8; 18] = [
        0x28, 0xb5, 0x2f, 0xfd, 0x00, 0x00, 0x49, 0x00, 0x00, 0x10, 0x00, 0x00, 0x00, 0x02, 0x6b,
        0x02, 0x76, 0x00,
    ];

    const ALL: [Codec; 5] = [
        Codec::None,
        Codec::Gzip,
        Codec::Snappy,
        Codec::Lz4,
        Codec::Zstd,
    ];
    const BIG: usize = 1 << 30;

    fn xorshift(len: usize, mut seed: u64) -> Vec<u8> {
        let mut v = Vec::with_capacity(len);
        while v.len() < len {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            v.push((seed >> 24) as u8);
        }
        v
    }

    fn repetitive(len: usize) -> Vec<u8> {
        b"kafka record batch "
            .iter()
            .copied()
            .cycle()
            .take(len)
            .collect()
    }

    fn samples() -> Vec<Vec<u8>> {
        vec![
            Vec::new(),
            vec![0x42],
            repetitive(100 * 1024),
            xorshift(300 * 1024, 0x9E37_79B9_7F4A_7C15),
        ]
    }

    #[test]
    fn codec_ids_and_names_match_kafka_attributes() {
        for (id, name) in [
            (0, "none"),
            (1, "gzip"),
            (2, "snappy"),
            (3, "lz4"),
            (4, "zstd"),
        ] {
            let codec = Codec::from_id(id).unwrap();
            assert_eq!(codec.id(), id);
            assert_eq!(codec.name(), name);
        }
        for id in 5..=255 {
            assert_eq!(Codec::from_id(id), None);
        }
    }

    #[test]
    fn section_9_4_vectors_decompress_to_example_a_records() {
        let cases: [(Codec, &[u8]); 5] = [
            (Codec::Gzip, &GZIP_VECTOR),
            (Codec::Snappy, &SNAPPY_XERIAL_VECTOR),
            (Codec::Snappy, &SNAPPY_RAW_VECTOR),
            (Codec::Lz4, &LZ4_VECTOR),
            (Codec::Zstd, &ZSTD_VECTOR),
        ];
        for (codec, bytes) in cases {
            for magic in [1, 2] {
                assert_eq!(
                    decompress(codec, bytes, magic, 1024).unwrap(),
                    RECORDS,
                    "{codec:?}"
                );
            }
        }
    }

    #[test]
    fn lz4_compress_matches_kafka_stored_block_vector() {
        assert_eq!(compress(Codec::Lz4, &RECORDS, 2), LZ4_VECTOR);
        assert_eq!(compress(Codec::Lz4, &RECORDS, 1), LZ4_VECTOR);
    }

    #[test]
    fn lz4_magic0_header_uses_kip57_broken_checksum() {
        let v0 = compress(Codec::Lz4, &RECORDS, 0);
        assert_eq!(v0[6], 0x1a);
        assert_eq!(v0[..6], LZ4_VECTOR[..6]);
        assert_eq!(v0[7..], LZ4_VECTOR[7..]);
        assert_eq!(decompress(Codec::Lz4, &v0, 0, 1024).unwrap(), RECORDS);
    }

    #[test]
    fn lz4_wrong_hc_rejected_for_magic_2_accepted_for_magic_0() {
        let mut bad = LZ4_VECTOR;
        bad[6] ^= 0xff;
        let err = decompress(Codec::Lz4, &bad, 2, 1024).unwrap_err();
        assert_eq!(err.message, "lz4: Stream frame descriptor corrupted");
        assert!(!err.limit_exceeded);
        assert!(decompress(Codec::Lz4, &bad, 1, 1024).is_err());
        assert_eq!(decompress(Codec::Lz4, &bad, 0, 1024).unwrap(), RECORDS);
    }

    #[test]
    fn snappy_xerial_compress_matches_vector() {
        assert_eq!(compress(Codec::Snappy, &RECORDS, 2), SNAPPY_XERIAL_VECTOR);
    }

    #[test]
    fn snappy_raw_compress_matches_vector_and_is_accepted() {
        assert_eq!(compress_snappy_raw(&RECORDS), SNAPPY_RAW_VECTOR);
        let data = repetitive(100 * 1024);
        let raw = compress_snappy_raw(&data);
        assert_ne!(raw[..8], XERIAL_MAGIC);
        assert_eq!(decompress(Codec::Snappy, &raw, 2, BIG).unwrap(), data);
    }

    #[test]
    fn round_trip_every_codec_on_empty_one_byte_repetitive_and_random() {
        for data in samples() {
            for codec in ALL {
                for magic in [0, 1, 2] {
                    let packed = compress(codec, &data, magic);
                    let back = decompress(codec, &packed, magic, data.len()).unwrap_or_else(|e| {
                        panic!("{codec:?} len {} magic {magic}: {e}", data.len())
                    });
                    assert_eq!(back, data, "{codec:?} len {} magic {magic}", data.len());
                }
            }
        }
    }

    #[test]
    fn compression_shrinks_repetitive_data() {
        let data = repetitive(100 * 1024);
        for codec in [Codec::Gzip, Codec::Snappy, Codec::Lz4, Codec::Zstd] {
            assert!(
                compress(codec, &data, 2).len() < data.len() / 4,
                "{codec:?}"
            );
        }
    }

    #[test]
    fn lz4_writes_64k_blocks_and_stores_incompressible_ones() {
        let data = xorshift(150 * 1024, 7);
        let packed = compress(Codec::Lz4, &data, 2);
        // Three blocks (64 + 64 + 22 KiB), all stored because random data does not shrink.
        let mut pos = 7;
        let mut sizes = Vec::new();
        loop {
            let word = u32::from_le_bytes(packed[pos..pos + 4].try_into().unwrap());
            pos += 4;
            if word == 0 {
                break;
            }
            assert_ne!(word & LZ4_STORED, 0);
            let size = (word & !LZ4_STORED) as usize;
            sizes.push(size);
            pos += size;
        }
        assert_eq!(sizes, [65536, 65536, 22 * 1024]);
        assert_eq!(pos, packed.len());
    }

    #[test]
    fn snappy_xerial_writes_32k_chunks() {
        let data = repetitive(100 * 1024);
        let packed = compress(Codec::Snappy, &data, 2);
        let mut pos = XERIAL_HEADER_LEN;
        let mut chunks = 0;
        while pos < packed.len() {
            let len = u32::from_be_bytes(packed[pos..pos + 4].try_into().unwrap()) as usize;
            let block = &packed[pos + 4..pos + 4 + len];
            assert!(snap::raw::decompress_len(block).unwrap() <= XERIAL_BLOCK);
            pos += 4 + len;
            chunks += 1;
        }
        assert_eq!(chunks, 4);
    }

    #[test]
    fn zstd_multiple_concatenated_frames_are_all_decoded() {
        let a = repetitive(70 * 1024);
        let b = xorshift(40 * 1024, 3);
        let mut stream = compress(Codec::Zstd, &a, 2);
        stream.extend_from_slice(&ZSTD_VECTOR);
        stream.extend_from_slice(&compress(Codec::Zstd, &b, 2));
        let mut expected = a.clone();
        expected.extend_from_slice(&RECORDS);
        expected.extend_from_slice(&b);
        assert_eq!(decompress(Codec::Zstd, &stream, 2, BIG).unwrap(), expected);
    }

    #[test]
    fn zstd_skippable_frames_are_skipped() {
        let mut stream = vec![0x50, 0x2a, 0x4d, 0x18, 3, 0, 0, 0, 0xaa, 0xbb, 0xcc];
        stream.extend_from_slice(&ZSTD_VECTOR);
        assert_eq!(decompress(Codec::Zstd, &stream, 2, 1024).unwrap(), RECORDS);
    }

    #[test]
    fn zstd_trailing_garbage_is_rejected() {
        let mut stream = ZSTD_VECTOR.to_vec();
        stream.extend_from_slice(&[1, 2, 3, 4, 5]);
        let err = decompress(Codec::Zstd, &stream, 2, 1024).unwrap_err();
        assert!(
            err.message.starts_with("zstd: unknown frame magic"),
            "{}",
            err.message
        );
        assert_eq!(err.at, ZSTD_VECTOR.len());
    }

    #[test]
    fn zstd_huge_declared_window_or_content_size_is_not_trusted() {
        // Window descriptor 0x88: 128 MiB window (libzstd's default maximum), 9-byte raw block:
        // decoded with a window clamped to the cap.
        let mut big_window = ZSTD_VECTOR;
        big_window[5] = 0x88;
        assert_eq!(
            decompress(Codec::Zstd, &big_window, 2, 1024).unwrap(),
            RECORDS
        );
        // 0x90: 256 MiB, beyond libzstd's default limit: zstd-jni (so Kafka) refuses it.
        let mut huge_window = ZSTD_VECTOR;
        huge_window[5] = 0x90;
        let err = decompress(Codec::Zstd, &huge_window, 2, BIG).unwrap_err();
        assert!(err.message.contains("too much memory"), "{}", err.message);
        // Single segment with an 8-byte Frame_Content_Size of 2^40: the window is the content
        // size, refused the same way, without allocating anything near 2^40.
        let mut fcs = vec![0x28, 0xb5, 0x2f, 0xfd, 0xe0];
        fcs.extend_from_slice(&(1u64 << 40).to_le_bytes());
        fcs.extend_from_slice(&ZSTD_VECTOR[6..]);
        assert!(decompress(Codec::Zstd, &fcs, 2, BIG).is_err());
        // Single segment declaring 100 bytes but holding 9: content size mismatch.
        let mut short = vec![0x28, 0xb5, 0x2f, 0xfd, 0x20, 100];
        short.extend_from_slice(&ZSTD_VECTOR[6..]);
        let err = decompress(Codec::Zstd, &short, 2, BIG).unwrap_err();
        assert!(
            err.message.contains("content size mismatch"),
            "{}",
            err.message
        );
        // A correct single-segment content size is accepted.
        let mut ok = vec![0x28, 0xb5, 0x2f, 0xfd, 0x20, 9];
        ok.extend_from_slice(&ZSTD_VECTOR[6..]);
        assert_eq!(decompress(Codec::Zstd, &ok, 2, 1024).unwrap(), RECORDS);
    }

    #[test]
    fn decompress_into_appends_counts_only_appended_bytes_and_restores_on_error() {
        let data = {
            let mut d = repetitive(150 * 1024);
            d.extend_from_slice(&xorshift(5000, 3));
            d
        };
        for codec in ALL {
            for magic in [0, 2] {
                let packed = compress(codec, &data, magic);
                let mut out = b"prefix".to_vec();
                decompress_into(codec, &packed, magic, data.len(), &mut out).unwrap();
                assert_eq!(&out[..6], b"prefix");
                assert!(out[6..] == data[..], "{codec:?}");
                // Appending again, into a buffer with capacity to spare.
                decompress_into(codec, &packed, magic, data.len(), &mut out).unwrap();
                assert_eq!(out.len(), 6 + 2 * data.len());
                // Over the cap: the same error as `decompress`, and `out` unchanged.
                let before = out.clone();
                let err = decompress_into(codec, &packed, magic, data.len() - 1, &mut out);
                assert_eq!(
                    err,
                    decompress(codec, &packed, magic, data.len() - 1).map(|_| ())
                );
                assert!(err.unwrap_err().limit_exceeded);
                assert!(out == before, "{codec:?}");
                // Corrupt: the same error as `decompress`, and `out` unchanged.
                let cut = &packed[..packed.len() - 1];
                let err = decompress_into(codec, cut, magic, BIG, &mut out);
                assert_eq!(
                    err,
                    decompress(codec, cut, magic, BIG).map(|_| ()),
                    "{codec:?}"
                );
                if err.is_err() {
                    assert!(out == before, "{codec:?}");
                }
            }
        }
    }

    #[test]
    fn zstd_window_over_ruzstd_reset_limit_accepted_in_the_first_frame_only() {
        // ruzstd accepts a 104 MiB window (> its 100 MiB `reset` limit) in a new decoder's first
        // frame but refuses it in later ones; that stays so (the ring-buffer priming skips it).
        let frame = {
            let mut f = compress(Codec::Zstd, &xorshift(8000, 9), 2);
            assert_eq!(f[4], 0x00, "no single segment, no content size");
            f[5] = (16 << 3) | 5; // 64 MiB + 5/8: 104 MiB
            f
        };
        assert_eq!(zstd_window(frame[5]), 104 << 20);
        assert_eq!(
            decompress(Codec::Zstd, &frame, 2, BIG).unwrap(),
            xorshift(8000, 9)
        );
        let mut two = frame.clone();
        two.extend_from_slice(&frame);
        let err = decompress(Codec::Zstd, &two, 2, BIG).unwrap_err();
        assert!(!err.limit_exceeded);
        assert_eq!(err.at, frame.len(), "{err}");
        // A small window first, then the big one: refused as before.
        let mut small_first = compress(Codec::Zstd, &RECORDS, 2);
        let at = small_first.len();
        small_first.extend_from_slice(&frame);
        assert_eq!(
            decompress(Codec::Zstd, &small_first, 2, BIG)
                .unwrap_err()
                .at,
            at
        );
    }

    #[test]
    fn zstd_content_checksum_is_verified() {
        // FHD 0x04: checksum flag; then the low 32 bits of XXH64(records).
        let mut framed = vec![0x28, 0xb5, 0x2f, 0xfd, 0x04, 0x00];
        framed.extend_from_slice(&ZSTD_VECTOR[6..]);
        let sum = xxhash_rust::xxh64::xxh64(&RECORDS, 0) as u32;
        framed.extend_from_slice(&sum.to_le_bytes());
        assert_eq!(decompress(Codec::Zstd, &framed, 2, 1024).unwrap(), RECORDS);
        let last = framed.len() - 1;
        framed[last] ^= 1;
        let err = decompress(Codec::Zstd, &framed, 2, 1024).unwrap_err();
        assert!(err.message.contains("checksum"), "{}", err.message);
    }

    #[test]
    fn zstd_empty_input_is_an_error() {
        assert!(decompress(Codec::Zstd, &[], 2, 1024).is_err());
    }

    #[test]
    fn gzip_concatenated_members_are_all_decoded() {
        let a = repetitive(50 * 1024);
        let mut stream = compress(Codec::Gzip, &a, 2);
        stream.extend_from_slice(&GZIP_VECTOR);
        stream.extend_from_slice(&compress(Codec::Gzip, &[], 2));
        let mut expected = a.clone();
        expected.extend_from_slice(&RECORDS);
        assert_eq!(decompress(Codec::Gzip, &stream, 2, BIG).unwrap(), expected);
    }

    #[test]
    fn gzip_trailing_bytes_that_are_not_a_member_are_ignored() {
        let mut stream = GZIP_VECTOR.to_vec();
        stream.extend_from_slice(&[0u8; 40]);
        assert_eq!(decompress(Codec::Gzip, &stream, 2, 1024).unwrap(), RECORDS);
    }

    #[test]
    fn gzip_optional_header_fields_are_skipped_and_header_crc_checked() {
        let deflate = &GZIP_VECTOR[10..];
        // FEXTRA + FNAME + FCOMMENT + FHCRC.
        let mut header = vec![0x1f, 0x8b, 0x08, 0x1e, 0, 0, 0, 0, 0, 0xff];
        header.extend_from_slice(&[3, 0, b'a', b'b', b'c']);
        header.extend_from_slice(b"name\0comment\0");
        let hcrc = (crc32fast::hash(&header) & 0xffff) as u16;
        let mut good = header.clone();
        good.extend_from_slice(&hcrc.to_le_bytes());
        good.extend_from_slice(deflate);
        assert_eq!(decompress(Codec::Gzip, &good, 2, 1024).unwrap(), RECORDS);
        let mut bad = header;
        bad.extend_from_slice(&(hcrc ^ 1).to_le_bytes());
        bad.extend_from_slice(deflate);
        let err = decompress(Codec::Gzip, &bad, 2, 1024).unwrap_err();
        assert_eq!(err.message, "gzip: Corrupt GZIP header");
    }

    #[test]
    fn gzip_bad_magic_method_and_trailer_are_rejected() {
        let mut bad_magic = GZIP_VECTOR;
        bad_magic[0] = 0x1e;
        assert_eq!(
            decompress(Codec::Gzip, &bad_magic, 2, 1024)
                .unwrap_err()
                .message,
            "gzip: Not in GZIP format"
        );
        let mut bad_method = GZIP_VECTOR;
        bad_method[2] = 7;
        assert!(decompress(Codec::Gzip, &bad_method, 2, 1024)
            .unwrap_err()
            .message
            .contains("Unsupported compression method"));
        let mut bad_crc = GZIP_VECTOR;
        bad_crc[21] ^= 1;
        assert_eq!(
            decompress(Codec::Gzip, &bad_crc, 2, 1024)
                .unwrap_err()
                .message,
            "gzip: Corrupt GZIP trailer"
        );
        let mut bad_size = GZIP_VECTOR;
        bad_size[25] = 10;
        assert_eq!(
            decompress(Codec::Gzip, &bad_size, 2, 1024)
                .unwrap_err()
                .message,
            "gzip: Corrupt GZIP trailer"
        );
        assert!(decompress(Codec::Gzip, &[], 2, 1024).is_err());
    }

    #[test]
    fn snappy_repeated_xerial_header_between_chunks_is_tolerated() {
        let mut stream = SNAPPY_XERIAL_VECTOR.to_vec();
        stream.extend_from_slice(&SNAPPY_XERIAL_VECTOR); // header + chunk again
        let mut expected = RECORDS.to_vec();
        expected.extend_from_slice(&RECORDS);
        assert_eq!(
            decompress(Codec::Snappy, &stream, 2, 1024).unwrap(),
            expected
        );
    }

    #[test]
    fn snappy_framing_edge_cases_follow_snappy_java() {
        // Empty input: empty output.
        assert_eq!(
            decompress(Codec::Snappy, &[], 2, 1024).unwrap(),
            Vec::<u8>::new()
        );
        // Header only: no chunks.
        assert_eq!(
            decompress(Codec::Snappy, &SNAPPY_XERIAL_VECTOR[..16], 2, 1024).unwrap(),
            [0u8; 0]
        );
        // 1–3 stray bytes where a chunk length is expected: end of stream.
        let mut stray = SNAPPY_XERIAL_VECTOR.to_vec();
        stray.extend_from_slice(&[0, 0]);
        assert_eq!(decompress(Codec::Snappy, &stray, 2, 1024).unwrap(), RECORDS);
        // A chunk longer than the input: error.
        let mut long = SNAPPY_XERIAL_VECTOR;
        long[19] = 0x0c;
        assert!(decompress(Codec::Snappy, &long, 2, 1024).is_err());
        // Negative chunk length: error.
        let mut negative = SNAPPY_XERIAL_VECTOR;
        negative[16] = 0xff;
        assert!(decompress(Codec::Snappy, &negative, 2, 1024).is_err());
        // Version 0: incompatible.
        let mut v0 = SNAPPY_XERIAL_VECTOR;
        v0[11] = 0;
        assert!(decompress(Codec::Snappy, &v0, 2, 1024)
            .unwrap_err()
            .message
            .contains("version"));
        // Version/compat written little-endian (seen from some producers): still accepted.
        let mut le = SNAPPY_XERIAL_VECTOR;
        le[8..16].copy_from_slice(&[1, 0, 0, 0, 1, 0, 0, 0]);
        assert_eq!(decompress(Codec::Snappy, &le, 2, 1024).unwrap(), RECORDS);
    }

    #[test]
    fn snappy_impossible_declared_length_is_corrupt_not_allocated() {
        // varint 0xffffffff (4 GiB - 1) followed by one literal byte.
        let raw = [0xff, 0xff, 0xff, 0xff, 0x0f, 0x00, 0x41];
        let err = decompress(Codec::Snappy, &raw, 2, usize::MAX).unwrap_err();
        assert!(!err.limit_exceeded);
        assert!(err.message.starts_with("snappy: "), "{}", err.message);
    }

    #[test]
    fn lz4_block_checksum_verified_and_content_checksum_read_but_not_verified() {
        // FLG 0x74: version 1, independent, block checksum, content checksum. Correct HC.
        let mut frame = vec![0x04, 0x22, 0x4d, 0x18, 0x74, 0x40];
        frame.push(lz4_hc(&[0x74, 0x40]));
        frame.extend_from_slice(&(9u32 | LZ4_STORED).to_le_bytes());
        frame.extend_from_slice(&RECORDS);
        frame.extend_from_slice(&xxhash_rust::xxh32::xxh32(&RECORDS, 0).to_le_bytes());
        frame.extend_from_slice(&0u32.to_le_bytes());
        frame.extend_from_slice(&0xdead_beefu32.to_le_bytes()); // wrong content checksum
        assert_eq!(decompress(Codec::Lz4, &frame, 2, 1024).unwrap(), RECORDS);
        // Missing content checksum after the end mark: premature end.
        let short = &frame[..frame.len() - 4];
        assert_eq!(
            decompress(Codec::Lz4, short, 2, 1024).unwrap_err().message,
            "lz4: Stream ended prematurely"
        );
        // Corrupt block checksum.
        let mut bad = frame.clone();
        bad[11 + 9] ^= 1;
        assert_eq!(
            decompress(Codec::Lz4, &bad, 2, 1024).unwrap_err().message,
            "lz4: Block checksum mismatch"
        );
    }

    #[test]
    fn lz4_content_size_field_is_skipped_and_covered_by_hc() {
        let mut frame = vec![0x04, 0x22, 0x4d, 0x18, 0x68, 0x40];
        frame.extend_from_slice(&9u64.to_le_bytes());
        let hc = lz4_hc(&frame[4..]);
        frame.push(hc);
        frame.extend_from_slice(&LZ4_VECTOR[7..]);
        assert_eq!(decompress(Codec::Lz4, &frame, 2, 1024).unwrap(), RECORDS);
    }

    #[test]
    fn lz4_header_validation_matches_kafka_messages() {
        let with = |i: usize, b: u8| {
            let mut v = LZ4_VECTOR;
            v[i] = b;
            decompress(Codec::Lz4, &v, 0, 1024).unwrap_err().message
        };
        assert_eq!(
            with(0, 0x05),
            "lz4: Stream unsupported (invalid magic bytes)"
        );
        assert_eq!(with(4, 0x61), "lz4: Reserved bits must be 0");
        assert_eq!(with(4, 0x40), "lz4: Dependent block stream is unsupported");
        assert_eq!(with(4, 0xa0), "lz4: Version 2 is unsupported");
        assert_eq!(with(5, 0x41), "lz4: Reserved2 field must be 0");
        assert_eq!(
            with(5, 0x30),
            "lz4: Block size value must be between 4 and 7"
        );
        assert_eq!(with(5, 0xc0), "lz4: Reserved3 field must be 0");
        assert_eq!(
            decompress(Codec::Lz4, &LZ4_VECTOR[..5], 2, 1024)
                .unwrap_err()
                .message,
            "lz4: Stream ended prematurely"
        );
    }

    #[test]
    fn lz4_block_larger_than_bd_maximum_is_rejected() {
        let mut frame = LZ4_VECTOR[..7].to_vec();
        frame.extend_from_slice(&(65537u32 | LZ4_STORED).to_le_bytes());
        frame.extend_from_slice(&vec![0u8; 65537]);
        frame.extend_from_slice(&0u32.to_le_bytes());
        assert_eq!(
            decompress(Codec::Lz4, &frame, 2, BIG).unwrap_err().message,
            "lz4: Block size 65537 exceeded max: 65536"
        );
        // BD 0x50 (256 KiB) accepts the same block.
        frame[5] = 0x50;
        frame[6] = lz4_hc(&[0x60, 0x50]);
        assert_eq!(decompress(Codec::Lz4, &frame, 2, BIG).unwrap().len(), 65537);
    }

    #[test]
    fn lz4_missing_end_mark_is_premature_and_trailing_bytes_after_it_ignored() {
        let cut = &LZ4_VECTOR[..LZ4_VECTOR.len() - 4];
        assert!(decompress(Codec::Lz4, cut, 2, 1024).is_err());
        let mut extra = LZ4_VECTOR.to_vec();
        extra.extend_from_slice(&[9, 9, 9]);
        assert_eq!(decompress(Codec::Lz4, &extra, 2, 1024).unwrap(), RECORDS);
    }

    #[test]
    fn cap_exceeded_is_reported_as_limit_for_every_codec() {
        let data = repetitive(100 * 1024);
        for codec in ALL {
            for magic in [0, 2] {
                let packed = compress(codec, &data, magic);
                assert_eq!(decompress(codec, &packed, magic, data.len()).unwrap(), data);
                for cap in [0, 1, 1000, data.len() - 1] {
                    let err = decompress(codec, &packed, magic, cap).unwrap_err();
                    assert!(err.limit_exceeded, "{codec:?} cap {cap}: {err}");
                    assert_eq!(
                        err.message,
                        format!("decompressed size exceeds the limit of {cap} bytes")
                    );
                }
            }
        }
        // Raw snappy and the §9.4 vectors too.
        let raw = compress_snappy_raw(&data);
        assert!(
            decompress(Codec::Snappy, &raw, 2, 10)
                .unwrap_err()
                .limit_exceeded
        );
        for (codec, v) in [
            (Codec::Gzip, &GZIP_VECTOR[..]),
            (Codec::Snappy, &SNAPPY_XERIAL_VECTOR[..]),
            (Codec::Snappy, &SNAPPY_RAW_VECTOR[..]),
            (Codec::Lz4, &LZ4_VECTOR[..]),
            (Codec::Zstd, &ZSTD_VECTOR[..]),
        ] {
            assert!(
                decompress(codec, v, 2, 8).unwrap_err().limit_exceeded,
                "{codec:?}"
            );
            assert_eq!(decompress(codec, v, 2, 9).unwrap(), RECORDS);
        }
    }

    #[test]
    fn zstd_rle_bomb_stops_at_cap() {
        // One frame of many RLE blocks (each 4 bytes -> 128 KiB), no end: must stop at the cap.
        let mut bomb = vec![0x28, 0xb5, 0x2f, 0xfd, 0x00, 0x58]; // 8 MiB window
        for _ in 0..64 {
            // Block header: not last, type 1 (RLE), size 128 KiB; then the byte.
            let header = (128u32 * 1024) << 3 | 1 << 1;
            bomb.extend_from_slice(&header.to_le_bytes()[..3]);
            bomb.push(0x61);
        }
        let err = decompress(Codec::Zstd, &bomb, 2, 1 << 20).unwrap_err();
        assert!(err.limit_exceeded, "{err}");
    }

    #[test]
    fn truncated_inputs_of_every_codec_never_panic() {
        let data = xorshift(3000, 11);
        let mut streams: Vec<(Codec, Vec<u8>)> = Vec::new();
        for codec in ALL {
            let mut mixed = repetitive(5000);
            mixed.extend_from_slice(&data);
            streams.push((codec, compress(codec, &mixed, 2)));
        }
        streams.push((Codec::Snappy, compress_snappy_raw(&repetitive(5000))));
        for (codec, stream) in &streams {
            for len in 0..stream.len() {
                for magic in [0, 2] {
                    let _ = decompress(*codec, &stream[..len], magic, 1 << 20);
                }
            }
            if *codec != Codec::None {
                // Every strict prefix of a framed stream is detectably incomplete, except for
                // snappy's tolerated stray chunk-length bytes, and raw snappy, which is a
                // single block.
                let cut = &stream[..stream.len() - 1];
                if *codec != Codec::Snappy {
                    assert!(decompress(*codec, cut, 2, 1 << 20).is_err(), "{codec:?}");
                }
            }
        }
    }

    #[test]
    fn corrupted_inputs_of_every_codec_never_panic() {
        let data = {
            let mut d = repetitive(20_000);
            d.extend_from_slice(&xorshift(2000, 5));
            d
        };
        let mut seed = 0x1234_5678_9abc_def0u64;
        for codec in ALL {
            let stream = compress(codec, &data, 2);
            for _ in 0..300 {
                let mut s = stream.clone();
                for _ in 0..3 {
                    seed ^= seed << 13;
                    seed ^= seed >> 7;
                    seed ^= seed << 17;
                    let i = (seed % s.len() as u64) as usize;
                    s[i] = (seed >> 32) as u8;
                }
                let _ = decompress(codec, &s, 2, 1 << 20);
                let _ = decompress(codec, &s, 0, 64);
            }
        }
    }
}
