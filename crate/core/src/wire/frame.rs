//! Entry framing and the batch-level checks, written once: how Kafka's log readers frame the
//! entry at the start of a segment's remaining bytes (`ByteBufferLogInputStream.nextBatch`), and
//! the checks on a magic-2 batch header that every reader runs (the report, the view, the
//! columns): its codec, its records count, and the names of a failed decompression.

use alloc::format;
use alloc::string::String;

use crate::report::{kind, Severity};
use crate::wire::batch::{field, HeaderRepr};
use crate::wire::compression::{self, Codec};
use crate::wire::reader::Reader;
use crate::wire::record::RecordError;

/// A problem, located as the report locates it: `at` is an offset in the input; for a
/// fault inside a compressed batch's records, `at` is the compressed payload's start and
/// `decompressed_at` the offset in the decompressed bytes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ViewError {
    pub at: usize,
    pub decompressed_at: Option<usize>,
    /// Kafka's exception name (`report::kind`).
    pub kind: &'static str,
    pub message: String,
}

/// Why a walk stops: offset relative to the entry, Kafka's name, severity, message.
pub(crate) type Stop = (usize, &'static str, Severity, String);

/// How the log readers frame the entry at the start of `rem` (`ByteBufferLogInputStream.
/// nextBatch`): `Ok((magic, declared total size, truncated))`, or why the walk stops.
pub(crate) fn frame(rem: &[u8]) -> Result<(i8, usize, bool), Stop> {
    if rem.len() < field::LOG_OVERHEAD {
        return Err((
            0,
            kind::PARTIAL_BATCH,
            Severity::Info,
            format!(
                "{} trailing byte(s): fewer than the 12-byte log overhead (offset + size); Java's log readers stop here",
                rem.len()
            ),
        ));
    }
    let size = i32::from_be_bytes([rem[8], rem[9], rem[10], rem[11]]);
    if size < 14 {
        // ByteBufferLogInputStream: LegacyRecord.RECORD_OVERHEAD_V0.
        return Err((
            8,
            kind::CORRUPT_RECORD,
            Severity::Error,
            format!("Record size {size} is less than the minimum record overhead (14)"),
        ));
    }
    if rem.len() < field::HEADER_SIZE_UP_TO_MAGIC {
        return Err((
            0,
            kind::PARTIAL_BATCH,
            Severity::Info,
            format!("{} trailing byte(s) end before the magic byte; Java's log readers stop here", rem.len()),
        ));
    }
    let magic = rem[field::MAGIC] as i8;
    if !(0..=2).contains(&magic) {
        return Err((field::MAGIC, kind::CORRUPT_RECORD, Severity::Error, format!("Invalid magic found in record: {magic}")));
    }
    let total = size as usize + field::LOG_OVERHEAD;
    Ok((magic, total, rem.len() < total))
}

/// One entry's bytes as [`frames`] finds them: `start..end` in the input; `truncated`: the
/// trailing partial entry, cut at the input's end (then always the last).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FrameBounds {
    pub start: usize,
    pub end: usize,
    pub truncated: bool,
}

/// The entry boundaries of a segment (or of any concatenation of log entries), framed by
/// [`frame`] entry after entry as the report, the view and the columns frame them: only each
/// entry's 17-byte prefix is read, so a 100 MB segment of small batches frames in milliseconds.
/// A trailing partial entry is the last item, `truncated`; the walk ends silently where the
/// bytes frame no entry (what is wrong there is the report's to say: `decode` over the rest).
/// The inspector's virtualized list and its worker take their rows from this (wasm `frames`).
pub fn frames(bytes: &[u8]) -> Frames<'_> {
    Frames { bytes, pos: 0 }
}

/// Iterator of [`frames`].
#[derive(Clone, Debug)]
pub struct Frames<'a> {
    bytes: &'a [u8],
    pos: usize,
}

impl Iterator for Frames<'_> {
    type Item = FrameBounds;

    fn next(&mut self) -> Option<FrameBounds> {
        let rem = self.bytes.get(self.pos..).filter(|r| !r.is_empty())?;
        let Ok((_, total, truncated)) = frame(rem) else {
            self.pos = self.bytes.len();
            return None;
        };
        let start = self.pos;
        self.pos = if truncated { self.bytes.len() } else { start + total };
        Some(FrameBounds { start, end: self.pos, truncated })
    }
}

/// The `PartialBatch` message for an entry that declares `total` bytes of which `remaining` are
/// present.
pub(crate) fn partial_batch_message(total: usize, remaining: usize) -> String {
    format!(
        "the entry declares {total} bytes (size {} + 12) but only {remaining} remain: a trailing partial batch, which Java consumers skip (KIP-74)",
        total - field::LOG_OVERHEAD
    )
}

/// The codec of the magic-2 batch at `start` (`CompressionType.forId`), or Kafka's error on its
/// attributes. Shared with the report (`decode`).
pub(crate) fn batch_codec(h: &HeaderRepr, start: usize) -> Result<Codec, ViewError> {
    Codec::from_id(h.attributes.codec_id()).ok_or_else(|| ViewError {
        at: start + field::ATTRIBUTES.start,
        decompressed_at: None,
        kind: kind::ILLEGAL_ARGUMENT,
        message: format!("Unknown compression type id: {}", h.attributes.codec_id()),
    })
}

/// `DefaultRecordBatch`: a negative recordsCount is an InvalidRecordException. Shared with the
/// report (`decode`).
pub(crate) fn check_records_count(h: &HeaderRepr, start: usize) -> Result<(), ViewError> {
    if h.records_count >= 0 {
        return Ok(());
    }
    Err(ViewError {
        at: start + field::RECORDS_COUNT.start,
        decompressed_at: None,
        kind: kind::INVALID_RECORD,
        message: format!("Found invalid record count {} in magic v2 batch", h.records_count),
    })
}


/// Kafka's name and message for a failed decompression (or our cap).
pub(crate) fn decompress_failure(e: compression::DecompressError) -> (&'static str, String) {
    if e.limit_exceeded {
        (kind::DECOMPRESSION_LIMIT, e.message)
    } else {
        (kind::KAFKA, format!("Failed to decompress record stream: {}", e.message))
    }
}

/// After a magic-2 batch's `recordsCount` records (at least one) were read from `r`, bytes left
/// over are Kafka's `InvalidRecordException("Incorrect declared batch size, records still
/// remaining in file")` (`DefaultRecordBatch.RecordIterator.next`, `ensureNoneRemaining`),
/// pinned on the first byte left. With `recordsCount` 0 Java reads nothing and does not look.
pub(crate) fn check_no_records_left(r: &Reader<'_>) -> Result<(), RecordError> {
    if !r.any_left() {
        return Ok(());
    }
    Err(RecordError {
        at: r.pos(),
        kind: kind::INVALID_RECORD,
        message: String::from("Incorrect declared batch size, records still remaining in file"),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::vec;
    use alloc::vec::Vec;

    /// The smallest entry [`frame`] accepts: offset, size 14, and a magic byte at offset 16.
    fn entry(magic: u8) -> Vec<u8> {
        let mut e = vec![0u8; 26];
        e[8..12].copy_from_slice(&14i32.to_be_bytes());
        e[field::MAGIC] = magic;
        e
    }

    fn bounds(bytes: &[u8]) -> Vec<(usize, usize, bool)> {
        frames(bytes).map(|f| (f.start, f.end, f.truncated)).collect()
    }

    #[test]
    fn frames_every_entry_and_a_trailing_partial_one() {
        let mut seg = [entry(2), entry(1), entry(0)].concat();
        assert_eq!(bounds(&seg), [(0, 26, false), (26, 52, false), (52, 78, false)]);
        seg.extend_from_slice(&entry(2)[..20]);
        assert_eq!(bounds(&seg), [(0, 26, false), (26, 52, false), (52, 78, false), (78, 98, true)]);
        assert_eq!(bounds(&[]), []);
    }

    #[test]
    fn stops_where_the_bytes_frame_no_entry() {
        let one = entry(2);
        // fewer than 12 bytes, fewer than 17, a size below 14, a magic past 2
        for tail in [&[0u8; 11][..], &one[..16]] {
            assert_eq!(bounds(&[&one[..], tail].concat()), [(0, 26, false)]);
        }
        let mut small = entry(2);
        small[11] = 13;
        assert_eq!(bounds(&[&one[..], &small[..]].concat()), [(0, 26, false)]);
        assert_eq!(bounds(&[one.clone(), entry(3), entry(2)].concat()), [(0, 26, false)]);
    }
}
