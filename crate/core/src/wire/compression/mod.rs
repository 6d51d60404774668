//! Kafka record-batch compression codecs (attributes bits 0–2): none, gzip, snappy, lz4, zstd.
//!
//! Decompression follows what Kafka's Java readers accept:
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

mod gzip;
mod snappy;
mod lz4;
mod zstd;
#[allow(unused_imports)]
use gzip::*;
#[allow(unused_imports)]
pub use snappy::compress_snappy_raw;
use snappy::*;
#[allow(unused_imports)]
use lz4::*;
#[allow(unused_imports)]
use zstd::*;

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


#[cfg(test)]
mod tests;
