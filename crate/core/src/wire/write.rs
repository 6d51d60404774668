//! The one typed writer of the batches the project emits: v2 record batches
//! (`MemoryRecordsBuilder` / `DefaultRecordBatch.writeHeader`, `DefaultRecord.writeTo`), control
//! markers (`MemoryRecords.withEndTransactionMarker`) and legacy magic 0/1 messages
//! (`LegacyRecord.write`, compressed wrappers as `AbstractLegacyRecordBatch` reads them).
//! Records are borrowed (key, value, headers); the JSON-shaped [`crate::spec::BatchSpec`] is a
//! front to this, and the models write their batches with it too.
//!
//! An uncompressed v2 batch is written into one buffer, allocated once from an upper bound of
//! the records' sizes (their lengths, walked first), so the writer costs no more than
//! hand-written bytes.

use alloc::vec::Vec;

use crate::wire::batch::{field, Attributes, Batch, HeaderRepr, HEADER_LEN, NO_PARTITION_LEADER_EPOCH, NO_PRODUCER_EPOCH, NO_PRODUCER_ID, NO_SEQUENCE, NO_TIMESTAMP};
use crate::wire::compression::{self, Codec};
use crate::wire::control::ControlType;
use crate::wire::reader::write::{size_of_varint, size_of_varlong, varint, varlong};

/// One record, borrowed: what `DefaultRecord.writeTo` writes (v2), or a legacy message's key
/// and value (magic 0/1 use `timestamp_delta` and `offset_delta` from the batch's base).
#[derive(Clone, Copy, Debug, Default)]
pub struct Record<'a> {
    pub attributes: i8,
    pub timestamp_delta: i64,
    pub offset_delta: i32,
    pub key: Option<&'a [u8]>,
    pub value: Option<&'a [u8]>,
    /// Header keys (a Java `String`, UTF-8) and values.
    pub headers: &'a [(&'a [u8], Option<&'a [u8]>)],
}

#[inline]
fn size_of_bytes(b: Option<&[u8]>) -> usize {
    b.map_or(1, |b| size_of_varint(b.len() as i32) + b.len())
}

#[inline(always)]
fn put_bytes(out: &mut Vec<u8>, b: Option<&[u8]>) {
    match b {
        // varint −1 (zigzag 1): one byte
        None => out.push(1),
        Some(b) => {
            varint(out, b.len() as i32);
            out.extend_from_slice(b);
        }
    }
}

impl Record<'_> {
    /// `DefaultRecord.sizeInBytes` without the length prefix.
    #[inline]
    fn body_size(&self) -> usize {
        1 + size_of_varlong(self.timestamp_delta)
            + size_of_varint(self.offset_delta)
            + size_of_bytes(self.key)
            + size_of_bytes(self.value)
            + size_of_varint(self.headers.len() as i32)
            + self.headers.iter().map(|(k, v)| size_of_bytes(Some(k)) + size_of_bytes(*v)).sum::<usize>()
    }

    /// At least [`Self::size`], from the lengths alone (every varint counted at its 5-byte
    /// maximum, a varlong at 10): what sizes a batch's buffer without a second pass over the
    /// records' varints.
    #[inline]
    fn size_bound(&self) -> usize {
        let len = |b: Option<&[u8]>| 5 + b.map_or(0, <[u8]>::len);
        5 + 1 + 10 + 5 + len(self.key) + len(self.value) + 5 + self.headers.iter().map(|(k, v)| len(Some(k)) + len(*v)).sum::<usize>()
    }

    /// The record's size in the batch, length prefix included.
    pub fn size(&self) -> usize {
        let b = self.body_size();
        size_of_varint(b as i32) + b
    }

    /// Append the record (length varint first) as `DefaultRecord.writeTo` does.
    #[inline(always)]
    pub fn write(&self, out: &mut Vec<u8>) {
        // A record without headers whose key and value hold at most 36 bytes has a body of at
        // most 63 bytes (attributes 1, timestamp delta ≤ 10, offset delta ≤ 5, two lengths
        // ≤ 5 each, header count 1), so its length is one varint byte: the body is written
        // after it and measured, instead of sized field by field first (the models' records).
        let short = self.headers.is_empty() && self.key.map_or(0, <[u8]>::len) + self.value.map_or(0, <[u8]>::len) <= 36;
        if short {
            let start = out.len();
            out.push(0);
            self.write_body(out);
            let body = out.len() - start - 1;
            debug_assert!(body < 64 && body == self.body_size());
            out[start] = (body as u8) << 1;
        } else {
            varint(out, self.body_size() as i32);
            self.write_body(out);
        }
    }

    #[inline(always)]
    fn write_body(&self, out: &mut Vec<u8>) {
        out.push(self.attributes as u8);
        varlong(out, self.timestamp_delta);
        varint(out, self.offset_delta);
        put_bytes(out, self.key);
        put_bytes(out, self.value);
        varint(out, self.headers.len() as i32);
        for (k, v) in self.headers {
            put_bytes(out, Some(k));
            put_bytes(out, *v);
        }
    }
}

/// Why a batch cannot be written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WriteError {
    /// The batch would be larger than an int32 `batchLength` allows.
    TooLarge,
    /// zstd in a magic 0/1 message (`ZStandard compression is not supported for magic N`).
    ZstdNeedsMagic2,
    /// A compressed legacy message set needs at least one message.
    EmptyCompressedLegacySet,
}

/// A batch to write: every header field typed, with the sentinels of a producer that has no
/// producer id (`-1`) as defaults.
#[derive(Clone, Copy, Debug)]
pub struct BatchWriter {
    pub base_offset: i64,
    pub partition_leader_epoch: i32,
    pub producer_id: i64,
    pub producer_epoch: i16,
    pub base_sequence: i32,
    /// Codec bits, timestamp type, transactional, control, delete horizon.
    pub attributes: Attributes,
    pub base_timestamp: i64,
    /// `None`: the largest record timestamp (`NO_TIMESTAMP` without records).
    pub max_timestamp: Option<i64>,
    /// `None`: the largest record offset delta (0 without records).
    pub last_offset_delta: Option<i32>,
    /// Snappy without the xerial framing (what sarama/librdkafka write; Java reads both).
    pub snappy_raw: bool,
}

impl Default for BatchWriter {
    fn default() -> Self {
        BatchWriter {
            base_offset: 0,
            partition_leader_epoch: NO_PARTITION_LEADER_EPOCH,
            producer_id: NO_PRODUCER_ID,
            producer_epoch: NO_PRODUCER_EPOCH,
            base_sequence: NO_SEQUENCE,
            attributes: Attributes(0),
            base_timestamp: NO_TIMESTAMP,
            max_timestamp: None,
            last_offset_delta: None,
            snappy_raw: false,
        }
    }
}

impl BatchWriter {
    /// The batch a producer sends (uncompressed, CreateTime): its producer id, epoch, first
    /// sequence, the transactional bit, and the base timestamp; every other field as a client
    /// leaves it. The models write every client batch from this.
    pub fn producer(producer_id: i64, producer_epoch: i16, base_sequence: i32, transactional: bool, base_timestamp: i64) -> Self {
        BatchWriter {
            producer_id,
            producer_epoch,
            base_sequence,
            attributes: Attributes(if transactional { field::ATTR_TRANSACTIONAL } else { 0 }),
            base_timestamp,
            ..BatchWriter::default()
        }
    }

    fn codec(&self) -> Codec {
        Codec::from_id(self.attributes.codec_id()).unwrap_or(Codec::None)
    }

    fn compress(&self, codec: Codec, data: &[u8], magic: u8) -> Vec<u8> {
        match codec {
            Codec::Snappy if self.snappy_raw => compression::compress_snappy_raw(data),
            c => compression::compress(c, data, magic),
        }
    }

    /// A v2 record batch of `records` with its CRC-32C (`DefaultRecordBatch.writeHeader`).
    pub fn write_v2(&self, records: &[Record<'_>]) -> Result<Vec<u8>, WriteError> {
        self.write_v2_from(records.iter().copied())
    }

    /// [`Self::write_v2`] over records made on the fly (the iterator is walked twice: sizes,
    /// then bytes), so a caller needs no array of them.
    pub fn write_v2_from<'r>(&self, records: impl Iterator<Item = Record<'r>> + Clone) -> Result<Vec<u8>, WriteError> {
        let codec = self.codec();
        let (mut count, mut size) = (0usize, 0usize);
        let (mut max_ts, mut last_delta) = (None::<i64>, None::<i32>);
        for r in records.clone() {
            count += 1;
            size += r.size_bound();
            let ts = self.base_timestamp.wrapping_add(r.timestamp_delta);
            max_ts = Some(max_ts.map_or(ts, |m| m.max(ts)));
            last_delta = Some(last_delta.map_or(r.offset_delta, |m| m.max(r.offset_delta)));
        }
        let mut out;
        if codec == Codec::None {
            out = Vec::with_capacity(HEADER_LEN + size);
            out.resize(HEADER_LEN, 0);
            for r in records {
                r.write(&mut out);
            }
        } else {
            let mut body = Vec::with_capacity(size);
            for r in records {
                r.write(&mut body);
            }
            let payload = self.compress(codec, &body, 2);
            out = Vec::with_capacity(HEADER_LEN + payload.len());
            out.resize(HEADER_LEN, 0);
            out.extend_from_slice(&payload);
        }
        if out.len() - field::LOG_OVERHEAD > i32::MAX as usize {
            return Err(WriteError::TooLarge);
        }
        let repr = HeaderRepr {
            base_offset: self.base_offset,
            batch_length: (out.len() - field::LOG_OVERHEAD) as i32,
            partition_leader_epoch: self.partition_leader_epoch,
            magic: 2,
            crc: 0,
            attributes: self.attributes,
            last_offset_delta: self.last_offset_delta.or(last_delta).unwrap_or(0),
            base_timestamp: self.base_timestamp,
            max_timestamp: self.max_timestamp.or(max_ts).unwrap_or(NO_TIMESTAMP),
            producer_id: self.producer_id,
            producer_epoch: self.producer_epoch,
            base_sequence: self.base_sequence,
            records_count: count as i32,
        };
        let hdr: &mut [u8; HEADER_LEN] = (&mut out[..HEADER_LEN]).try_into().expect("HEADER_LEN bytes");
        repr.emit(hdr);
        Batch::new_unchecked(&mut out[..]).fill_crc();
        Ok(out)
    }

    /// The control batch of an end-transaction marker as the broker writes it
    /// (`MemoryRecords.withEndTransactionMarker`): one record at `timestamp`, key (version 0,
    /// type), value (version 0, coordinator epoch), transactional and control bits set,
    /// no sequence.
    pub fn end_txn_marker(producer_id: i64, producer_epoch: i16, ty: ControlType, coordinator_epoch: i32, timestamp: i64) -> Vec<u8> {
        let [t0, t1] = ty.id().to_be_bytes();
        let key = [0, 0, t0, t1];
        let [e0, e1, e2, e3] = coordinator_epoch.to_be_bytes();
        let value = [0, 0, e0, e1, e2, e3];
        let w = BatchWriter {
            producer_id,
            producer_epoch,
            attributes: Attributes(field::ATTR_TRANSACTIONAL | field::ATTR_CONTROL),
            base_timestamp: timestamp,
            ..BatchWriter::default()
        };
        let record = Record { key: Some(&key), value: Some(&value), ..Record::default() };
        w.write_v2(&[record]).expect("a marker is small")
    }

    /// Magic 0/1 messages (`LegacyRecord.write`): uncompressed, one message per record at
    /// `base_offset + offset_delta`; compressed, one wrapper (at the last offset, with the
    /// largest timestamp) around the inner set (v1: relative offsets 0..n−1, KIP-31; v0:
    /// absolute). Magic 0 has no timestamps; the timestamp-type bit applies to magic 1.
    pub fn write_legacy(&self, magic: i8, records: &[Record<'_>]) -> Result<Vec<u8>, WriteError> {
        let codec = self.codec();
        if codec == Codec::Zstd {
            return Err(WriteError::ZstdNeedsMagic2);
        }
        let ts_attr = (self.attributes.0 & field::ATTR_TIMESTAMP_TYPE) as u8;
        let ts_of = |r: &Record<'_>| if magic == 0 { NO_TIMESTAMP } else { self.base_timestamp.wrapping_add(r.timestamp_delta) };
        let mut out = Vec::new();
        if codec == Codec::None {
            for r in records {
                legacy_message(&mut out, magic, self.base_offset.wrapping_add(r.offset_delta as i64), ts_attr, ts_of(r), r.key, r.value);
            }
            return Ok(out);
        }
        if records.is_empty() {
            return Err(WriteError::EmptyCompressedLegacySet);
        }
        let mut inner = Vec::new();
        for r in records {
            let off = if magic == 1 { r.offset_delta as i64 } else { self.base_offset.wrapping_add(r.offset_delta as i64) };
            legacy_message(&mut inner, magic, off, 0, ts_of(r), r.key, r.value);
        }
        let value = self.compress(codec, &inner, magic as u8);
        let last_delta = self.last_offset_delta.or(records.iter().map(|r| r.offset_delta).max()).unwrap_or(0);
        let max_ts = self.max_timestamp.or(records.iter().map(|r| self.base_timestamp.wrapping_add(r.timestamp_delta)).max());
        let wrapper_ts = if magic == 0 { NO_TIMESTAMP } else { max_ts.unwrap_or(NO_TIMESTAMP) };
        legacy_message(&mut out, magic, self.base_offset.wrapping_add(last_delta as i64), codec.id() | ts_attr, wrapper_ts, None, Some(&value));
        Ok(out)
    }
}

/// `LegacyRecord.write`: one message, its size and CRC-32 filled in.
fn legacy_message(out: &mut Vec<u8>, magic: i8, offset: i64, attributes: u8, timestamp: i64, key: Option<&[u8]>, value: Option<&[u8]>) {
    let start = out.len();
    out.extend_from_slice(&offset.to_be_bytes());
    out.extend_from_slice(&[0; 8]); // size, crc: filled below
    out.push(magic as u8);
    out.push(attributes);
    if magic >= 1 {
        out.extend_from_slice(&timestamp.to_be_bytes());
    }
    for b in [key, value] {
        match b {
            None => out.extend_from_slice(&(-1i32).to_be_bytes()),
            Some(b) => {
                out.extend_from_slice(&(b.len() as i32).to_be_bytes());
                out.extend_from_slice(b);
            }
        }
    }
    let size = (out.len() - start - 12) as i32;
    out[start + 8..start + 12].copy_from_slice(&size.to_be_bytes());
    let crc = crate::wire::crc::crc32_ieee(&out[start + 16..]);
    out[start + 12..start + 16].copy_from_slice(&crc.to_be_bytes());
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::wire::reader::Reader;

    #[test]
    fn varlong_sizes_match_what_is_written() {
        for v in [0i64, 1, -1, 63, 64, -65, i32::MAX as i64, i64::MAX, i64::MIN, 1 << 40] {
            let mut o = Vec::new();
            varlong(&mut o, v);
            assert_eq!(o.len(), size_of_varlong(v), "{v}");
            assert_eq!(Reader::new(&o).varlong().unwrap(), v);
        }
    }

    #[test]
    fn record_size_is_what_write_appends() {
        let headers: [(&[u8], Option<&[u8]>); 2] = [(b"h", Some(b"x")), (b"", None)];
        let r = Record { attributes: 0, timestamp_delta: -300, offset_delta: 70, key: Some(b"key"), value: None, headers: &headers };
        let mut o = Vec::new();
        r.write(&mut o);
        assert_eq!(o.len(), r.size());
    }

    #[test]
    fn markers_and_producer_batches_are_what_the_spec_front_writes() {
        use crate::spec::{encode_batch, BatchSpec, ControlSpec, HeaderSpec, RecordSpec, I64};
        for (ty, name) in [(ControlType::Commit, "COMMIT"), (ControlType::Abort, "ABORT")] {
            let spec = BatchSpec {
                header: HeaderSpec {
                    base_timestamp: Some(I64(1_700_000_000_500)),
                    producer_id: Some(I64(4242)),
                    producer_epoch: Some(3),
                    ..Default::default()
                },
                control: Some(ControlSpec { type_name: name.into(), coordinator_epoch: Some(7), ..Default::default() }),
                ..Default::default()
            };
            assert_eq!(BatchWriter::end_txn_marker(4242, 3, ty, 7, 1_700_000_000_500), encode_batch(&spec).unwrap(), "{name}");
        }
        let values = ["a", "", "ccc"];
        let spec = BatchSpec {
            header: HeaderSpec { producer_id: Some(I64(9)), producer_epoch: Some(0), base_sequence: Some(i32::MAX - 1), ..Default::default() },
            records: values.iter().map(|v| RecordSpec { timestamp: Some(I64(5)), value_text: Some((*v).into()), ..Default::default() }).collect(),
            ..Default::default()
        };
        let w = BatchWriter { producer_id: 9, producer_epoch: 0, base_sequence: i32::MAX - 1, base_timestamp: 5, ..BatchWriter::default() };
        let records = values.iter().enumerate().map(|(i, v)| Record { offset_delta: i as i32, value: Some(v.as_bytes()), ..Record::default() });
        assert_eq!(w.write_v2_from(records).unwrap(), encode_batch(&spec).unwrap());
    }
}
