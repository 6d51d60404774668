//! Zero-copy reading: the entries of a segment, each magic-2 batch's header, and its records
//! as [`RecordView`]s borrowed from the input (or from the batch's decompressed bytes), with
//! no report, no spans and no copies. Every check is the one [`crate::read::decode`] runs (the same
//! framing, the same `DefaultRecord.readFrom` checks via [`record::read`]), with the same
//! Kafka exception names and byte offsets; what it leaves out is the report (hex, spans,
//! issue lists) that the inspector needs and a bulk consumer does not.
//!
//! ```
//! use eoslab_core::view::{entries, Entry};
//! # let spec = eoslab_core::BatchSpec::default();
//! # let bytes = eoslab_core::encode_batch(&spec).unwrap();
//! let mut scratch = Vec::new();
//! for entry in entries(&bytes) {
//!     let Entry::V2(batch) = entry.unwrap() else { continue }; // legacy: use `decode_bytes`
//!     assert!(batch.crc_valid());
//!     for record in batch.records(&mut scratch, 64 << 20).unwrap() {
//!         let record = record.unwrap();
//!         let _ = (record.offset, record.timestamp, record.key, record.value);
//!         for (_key, _value) in record.headers() {}
//!     }
//! }
//! ```

use alloc::format;
use alloc::vec::Vec;

use crate::wire::batch::{field, Batch, HeaderRepr, HEADER_LEN};
use crate::wire::compression::{self, Codec};
use crate::wire::reader::Reader;
use crate::wire::record::{self, Context, RecordView};
use crate::report::kind;

pub use crate::wire::frame::ViewError;
use crate::wire::frame::{batch_codec, check_records_count, frame, partial_batch_message};

/// The entries of `bytes` (a Produce/Fetch `records` blob or a `.log` segment), in order.
/// The walk ends after the first error, as Java's log readers stop there; a trailing
/// partial entry is a `PartialBatch` error (Java consumers skip it, KIP-74).
pub fn entries(bytes: &[u8]) -> Entries<'_> {
    Entries { bytes, pos: 0, done: false }
}

/// Iterator of [`entries`].
#[derive(Clone, Debug)]
pub struct Entries<'a> {
    bytes: &'a [u8],
    pos: usize,
    done: bool,
}

/// One entry of a segment.
#[derive(Clone, Debug)]
pub enum Entry<'a> {
    /// A magic-2 record batch.
    V2(BatchView<'a>),
    /// A magic 0/1 message (with its wrapped messages): [`crate::read::decode::decode_bytes`]
    /// and [`crate::read::columns`] read it, both through the one legacy walk
    /// (`wire::legacy::read_entry`).
    Legacy { start: usize, magic: i8, bytes: &'a [u8] },
}

impl<'a> Iterator for Entries<'a> {
    type Item = Result<Entry<'a>, ViewError>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.done || self.pos >= self.bytes.len() {
            return None;
        }
        let rem = &self.bytes[self.pos..];
        let start = self.pos;
        let stop = |at: usize, kind, message| Err(ViewError { at, decompressed_at: None, kind, message });
        let (magic, total, truncated) = match frame(rem) {
            Ok(f) => f,
            Err((at, kind, _, message)) => {
                self.done = true;
                return Some(stop(start + at, kind, message));
            }
        };
        if truncated {
            self.done = true;
            return Some(stop(
                start,
                kind::PARTIAL_BATCH,
                partial_batch_message(total, rem.len()),
            ));
        }
        self.pos += total;
        let bytes = &rem[..total];
        if magic != 2 {
            return Some(Ok(Entry::Legacy { start, magic, bytes }));
        }
        match BatchView::new(start, bytes) {
            Ok(b) => Some(Ok(Entry::V2(b))),
            Err(e) => {
                self.done = true;
                Some(Err(e))
            }
        }
    }
}

/// A magic-2 batch: its header, parsed, and the CRC-32C computed over bytes 21..end.
#[derive(Clone, Debug)]
pub struct BatchView<'a> {
    /// Offset of the batch in the input.
    pub start: usize,
    pub header: HeaderRepr,
    pub crc_computed: u32,
    bytes: &'a [u8],
}

impl<'a> BatchView<'a> {
    /// `bytes` is exactly one batch (its declared size). `DefaultRecordBatch.ensureValid`'s
    /// size check is applied; the CRC is computed, and judged by [`Self::crc_valid`].
    pub fn new(start: usize, bytes: &'a [u8]) -> Result<Self, ViewError> {
        let Ok(b) = Batch::new_checked(bytes) else {
            return Err(ViewError {
                at: start + field::BATCH_LENGTH.start,
                decompressed_at: None,
                kind: kind::CORRUPT_RECORD,
                message: format!(
                    "Record batch is corrupt (the size {} is smaller than the minimum allowed overhead {HEADER_LEN})",
                    bytes.len()
                ),
            });
        };
        Ok(BatchView { start, header: HeaderRepr::parse(&b), crc_computed: b.compute_crc(), bytes })
    }

    /// The batch's bytes.
    pub fn bytes(&self) -> &'a [u8] {
        self.bytes
    }

    /// Offset just past the batch in the input.
    pub fn end(&self) -> usize {
        self.start + self.bytes.len()
    }

    /// Stored CRC = CRC-32C of bytes 21..end (`DefaultRecordBatch.isValid`).
    pub fn crc_valid(&self) -> bool {
        self.header.crc == self.crc_computed
    }

    /// The records, read in place (uncompressed) or from `scratch`, which receives the
    /// decompressed records (at most `max_decompressed` bytes; reuse it across batches).
    /// Control batches yield their control record (see [`crate::wire::control::parse`]).
    pub fn records<'b>(&'b self, scratch: &'b mut Vec<u8>, max_decompressed: usize) -> Result<Records<'b>, ViewError>
    where
        'a: 'b,
    {
        scratch.clear();
        self.records_appending(scratch, max_decompressed)
    }

    /// [`Self::records`], the decompressed records appended to `out` (which keeps what it
    /// held; on failure it is left as it was).
    pub fn records_appending<'b>(&'b self, out: &'b mut Vec<u8>, max_decompressed: usize) -> Result<Records<'b>, ViewError>
    where
        'a: 'b,
    {
        let h = &self.header;
        let codec = batch_codec(h, self.start)?;
        check_records_count(h, self.start)?;
        let payload = &self.bytes[HEADER_LEN..];
        let payload_at = self.start + HEADER_LEN;
        let ctx = Context::of_batch(h, codec != Codec::None, false);
        let left = h.records_count as usize;
        let buf: &'b [u8] = if codec == Codec::None || left == 0 {
            payload
        } else {
            let from = out.len();
            match compression::decompress_into(codec, payload, 2, max_decompressed, out) {
                Ok(()) => &out[from..],
                Err(e) => {
                    let at = payload_at + e.at.min(payload.len());
                    let (kind, message) = crate::wire::frame::decompress_failure(e);
                    return Err(ViewError { at, decompressed_at: None, kind, message });
                }
            }
        };
        Ok(Records { r: Reader::new(buf), ctx, left, done: false, payload_at })
    }
}

/// Iterator of a batch's records ([`BatchView::records`]). After `recordsCount` records it
/// checks, as Java's iterator does, that no bytes are left; it ends after an error.
#[derive(Clone, Debug)]
pub struct Records<'b> {
    pub(super) r: Reader<'b>,
    pub(super) ctx: Context,
    left: usize,
    done: bool,
    payload_at: usize,
}

impl Records<'_> {
    fn fault(&mut self, e: record::RecordError) -> ViewError {
        self.done = true;
        let (at, decompressed_at) =
            if self.ctx.bounded_body { (self.payload_at, Some(e.at)) } else { (self.payload_at + e.at, None) };
        ViewError { at, decompressed_at, kind: e.kind, message: e.message }
    }
}

impl<'b> Iterator for Records<'b> {
    type Item = Result<RecordView<'b>, ViewError>;

    #[inline]
    fn next(&mut self) -> Option<Self::Item> {
        if self.done {
            return None;
        }
        if self.left == 0 {
            self.done = true;
            // recordsCount 0: Java returns no records and does not look at trailing bytes.
            if self.r.pos() > 0 {
                if let Err(e) = crate::wire::frame::check_no_records_left(&self.r) {
                    return Some(Err(self.fault(e)));
                }
            }
            return None;
        }
        self.left -= 1;
        match record::read(&mut self.r, &self.ctx, &mut ()) {
            Ok(v) => Some(Ok(v)),
            Err(e) => Some(Err(self.fault(e))),
        }
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        if self.done {
            (0, Some(0))
        } else {
            (0, Some(self.left + 1))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::read::columns::columns;
    use crate::report::Severity;
    use crate::{decode_bytes, encode_batch, encode_segment, BatchSpec, DecodeOptions};

    fn spec(codec: &str, n: usize) -> BatchSpec {
        serde_json::from_value(serde_json::json!({
            "header": {
                "baseOffset": "100", "producerId": "7", "producerEpoch": 1, "baseSequence": 2147483646,
                "baseTimestamp": "1700000000000", "attributes": {"compression": codec},
            },
            "records": (0..n).map(|i| serde_json::json!({
                "key": if i % 3 == 0 { serde_json::Value::Null } else { serde_json::json!(format!("{i:02x}")) },
                "value": "00ff".repeat(i),
                "headers": [{"key": "h", "value": null}, {"key": "trace", "value": "0102"}],
                "timestampDelta": (i as i64 * 1000).to_string(),
            })).collect::<Vec<_>>(),
        }))
        .unwrap()
    }

    /// The view and the report agree on every record field, for every codec.
    #[test]
    fn view_matches_report_every_codec() {
        for codec in ["none", "gzip", "snappy", "lz4", "zstd"] {
            let bytes = encode_segment(&[spec(codec, 5), spec(codec, 0), spec(codec, 40)]).unwrap();
            let report = decode_bytes(&bytes, &DecodeOptions::default());
            assert!(report.is_clean(), "{codec}: {:?}", report.errors);
            let mut scratch = Vec::new();
            let mut n = 0;
            for (entry, b) in entries(&bytes).zip(&report.batches) {
                let Entry::V2(v) = entry.unwrap() else { panic!("v2") };
                assert_eq!((v.start, v.end(), v.crc_valid()), (b.start, b.end, b.header.crc_valid));
                let records: Vec<_> = v.records(&mut scratch, 64 << 20).unwrap().map(|r| r.unwrap().to_report()).collect();
                assert_eq!(records, b.records, "{codec}");
                n += 1;
            }
            assert_eq!(n, 3);
        }
    }

    /// Corruptions fail at the same byte with the same Kafka name as the report says.
    #[test]
    fn view_errors_match_report() {
        let good = encode_batch(&spec("none", 3)).unwrap();
        let gz = encode_batch(&spec("gzip", 3)).unwrap();
        let mut cases: Vec<Vec<u8>> = Vec::new();
        for cut in [5, 20, 70, good.len() - 1] {
            cases.push(good[..cut].to_vec());
        }
        for at in [61, 62, 66, 70, 80] {
            let mut b = good.clone();
            b[at] ^= 0x7f;
            cases.push(b);
        }
        let mut b = good.clone();
        b[22] |= 0x07; // unknown codec 7
        cases.push(b);
        let mut b = gz.clone();
        let n = b.len();
        b[n - 6] ^= 0xff;
        cases.push(b);
        let mut b = good.clone();
        b[57..61].copy_from_slice(&(-1i32).to_be_bytes());
        cases.push(b);
        let mut b = good.clone();
        b[57..61].copy_from_slice(&2i32.to_be_bytes());
        cases.push(b);
        let mut both = 0;
        for bytes in cases {
            let report = decode_bytes(&bytes, &DecodeOptions::default());
            // The view leaves the CRC verdict to `crc_valid()` and has no warnings.
            let want = report
                .errors
                .iter()
                .find(|e| e.severity != Severity::Warning && !e.message.starts_with("Record is corrupt (stored crc"));
            let mut scratch = Vec::new();
            let mut got = None;
            'walk: for entry in entries(&bytes) {
                match entry {
                    Err(e) => {
                        got = Some(e);
                        break;
                    }
                    Ok(Entry::V2(v)) => match v.records(&mut scratch, 64 << 20) {
                        Err(e) => {
                            got = Some(e);
                            break;
                        }
                        Ok(rs) => {
                            for r in rs {
                                if let Err(e) = r {
                                    got = Some(e);
                                    break 'walk;
                                }
                            }
                        }
                    },
                    Ok(Entry::Legacy { .. }) => unreachable!(),
                }
            }
            match (want, got) {
                (Some(w), Some(g)) => {
                    assert_eq!((w.at, w.decompressed_at, w.kind, &w.message), (g.at, g.decompressed_at, g.kind, &g.message));
                    both += 1;
                }
                (None, None) => {}
                (w, g) => panic!("report {w:?} vs view {g:?}"),
            }
        }
        assert!(both >= 10, "only {both} cases failed in both");
    }

    /// Columns hold what the report lists: every batch header field and every record's
    /// offset, timestamp, sequence, key, value and headers (read back through the positions).
    #[test]
    fn columns_match_report() {
        for codec in ["none", "gzip", "lz4", "zstd", "snappy"] {
            let mut bytes = encode_segment(&[spec(codec, 5), spec("none", 0), spec(codec, 40)]).unwrap();
            // A legacy wrapper too (zstd is magic-2 only: KIP-110).
            let mut legacy = spec(if codec == "zstd" { "gzip" } else { codec }, 3);
            legacy.magic = Some(1);
            bytes.extend(encode_batch(&legacy).unwrap());
            let report = decode_bytes(&bytes, &DecodeOptions::default());
            let c = columns(&bytes, 64 << 20);
            assert!(c.errors.is_empty(), "{:?}", c.errors);
            assert_eq!(c.batch_start.len(), report.batches.len());
            assert_eq!((&c.header_key_at[..], &c.header_key_bytes[..]), (&[0, 1, 6][..], &b"htrace"[..]), "each distinct key once");
            let bytes_at = |inside: bool, start: u32, len: i32| -> Option<Vec<u8>> {
                let buf = if inside { &c.decompressed[..] } else { &bytes[..] };
                (len >= 0).then(|| buf[start as usize..start as usize + len as usize].to_vec())
            };
            for (i, b) in report.batches.iter().enumerate() {
                let h = &b.header;
                assert_eq!(
                    (c.batch_start[i] as usize, c.batch_end[i] as usize, c.magic[i], c.base_offset[i], c.crc[i], c.crc_computed[i]),
                    (b.start, b.end, b.magic, h.base_offset, h.crc, h.crc_computed)
                );
                assert_eq!((c.attributes[i], c.max_timestamp[i], c.producer_id[i], c.records_count[i]), (h.attributes.raw, h.max_timestamp, h.producer_id, h.records_count));
                let records = c.first_record[i] as usize..c.first_record[i + 1] as usize;
                assert_eq!(records.len(), b.records.len(), "{codec} batch {i}");
                let inside = c.in_decompressed[i] == 1;
                for (j, r) in records.zip(&b.records) {
                    assert_eq!((c.offset[j], c.timestamp[j], c.sequence[j]), (r.offset, r.timestamp, r.sequence));
                    assert_eq!(bytes_at(inside, c.key_start[j], c.key_length[j]), r.key);
                    assert_eq!(bytes_at(inside, c.value_start[j], c.value_length[j]), r.value);
                    let hs: Vec<_> = (c.first_header[j] as usize..c.first_header[j + 1] as usize)
                        .map(|k| {
                            let key = bytes_at(inside, c.header_key_start[k], c.header_key_length[k]).unwrap();
                            let id = c.header_key[k] as usize;
                            let distinct = &c.header_key_bytes[c.header_key_at[id] as usize..c.header_key_at[id + 1] as usize];
                            assert_eq!(distinct, &key[..], "header {k}: its key id names its bytes");
                            (String::from_utf8(key).unwrap(), bytes_at(inside, c.header_value_start[k], c.header_value_length[k]))
                        })
                        .collect();
                    let want: Vec<_> = r.headers.iter().map(|h| (h.key.clone(), h.value.clone())).collect();
                    assert_eq!(hs, want);
                }
            }
        }
    }

    /// A fault keeps what decoded before it, and is reported with its batch.
    #[test]
    fn columns_keep_what_decoded_before_a_fault() {
        let mut bytes = encode_segment(&[spec("none", 4), spec("none", 4)]).unwrap();
        let second = bytes.len() / 2;
        let n = bytes.len();
        bytes[n - 3] = 0x7f; // the second batch's last record no longer parses
        let c = columns(&bytes, 64 << 20);
        assert_eq!(c.batch_start, [0, second as u32]);
        assert_eq!(c.first_record[..2], [0, 4]);
        assert!(c.first_record[2] < 8);
        assert_eq!(c.errors.len(), 1);
        assert_eq!(c.errors[0].0, Some(1));
        assert_eq!(c.errors[0].1.kind, kind::INVALID_RECORD);
    }

    #[test]
    fn legacy_entries_are_handed_back() {
        // A magic-1 message with null key and value: offset, size 22, crc, magic, attributes,
        // timestamp, key length −1, value length −1 (LegacyRecord.java).
        let mut bytes = alloc::vec![0u8; 8];
        bytes.extend_from_slice(&22i32.to_be_bytes());
        bytes.extend_from_slice(&[0, 0, 0, 0, 1, 0]);
        bytes.extend_from_slice(&0i64.to_be_bytes());
        bytes.extend_from_slice(&[0xff; 8]);
        let mut it = entries(&bytes);
        assert!(matches!(it.next(), Some(Ok(Entry::Legacy { start: 0, magic: 1, .. }))));
    }
}
