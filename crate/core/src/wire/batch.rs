//! The magic-2 Record Batch header (`clients/.../common/record/DefaultRecordBatch.java`,
//! KIP-98, KIP-101, KIP-534): 61 bytes, big-endian, in the smoltcp style — named byte
//! ranges in [`field`], a zero-copy [`Batch`] view over any `T: AsRef<[u8]>`, and an
//! owned [`HeaderRepr`] with `parse`/`emit`.

use core::ops::Range;

/// Byte ranges of the v2 header, relative to the start of the batch.
#[allow(non_snake_case)]
pub mod field {
    use core::ops::Range;
    pub type Field = Range<usize>;

    pub const BASE_OFFSET: Field = 0..8;
    pub const BATCH_LENGTH: Field = 8..12;
    pub const PARTITION_LEADER_EPOCH: Field = 12..16;
    pub const MAGIC: usize = 16;
    pub const CRC: Field = 17..21;
    pub const ATTRIBUTES: Field = 21..23;
    pub const LAST_OFFSET_DELTA: Field = 23..27;
    pub const BASE_TIMESTAMP: Field = 27..35;
    pub const MAX_TIMESTAMP: Field = 35..43;
    pub const PRODUCER_ID: Field = 43..51;
    pub const PRODUCER_EPOCH: Field = 51..53;
    pub const BASE_SEQUENCE: Field = 53..57;
    pub const RECORDS_COUNT: Field = 57..61;

    /// `Records.LOG_OVERHEAD`: baseOffset + batchLength, the bytes batchLength excludes.
    pub const LOG_OVERHEAD: usize = BATCH_LENGTH.end;
    /// `Records.HEADER_SIZE_UP_TO_MAGIC`.
    pub const HEADER_SIZE_UP_TO_MAGIC: usize = MAGIC + 1;
    /// First byte covered by the CRC (`DefaultRecordBatch.ATTRIBUTES_OFFSET`).
    pub const CRC_START: usize = ATTRIBUTES.start;

    // Attribute bits (`DefaultRecordBatch` masks; the codec ids are `CompressionType`).
    pub const ATTR_COMPRESSION_MASK: u16 = 0x07;
    pub const ATTR_TIMESTAMP_TYPE: u16 = 0x08;
    pub const ATTR_TRANSACTIONAL: u16 = 0x10;
    pub const ATTR_CONTROL: u16 = 0x20;
    pub const ATTR_DELETE_HORIZON: u16 = 0x40;

    /// Header fields in wire order with Kafka's names, for byte maps.
    pub const NAMED: [(&str, Field); 13] = [
        ("baseOffset", BASE_OFFSET),
        ("batchLength", BATCH_LENGTH),
        ("partitionLeaderEpoch", PARTITION_LEADER_EPOCH),
        ("magic", MAGIC..MAGIC + 1),
        ("crc", CRC),
        ("attributes", ATTRIBUTES),
        ("lastOffsetDelta", LAST_OFFSET_DELTA),
        ("baseTimestamp", BASE_TIMESTAMP),
        ("maxTimestamp", MAX_TIMESTAMP),
        ("producerId", PRODUCER_ID),
        ("producerEpoch", PRODUCER_EPOCH),
        ("baseSequence", BASE_SEQUENCE),
        ("recordsCount", RECORDS_COUNT),
    ];
}

/// `DefaultRecordBatch.RECORD_BATCH_OVERHEAD`, derived from the last field.
pub const HEADER_LEN: usize = field::RECORDS_COUNT.end;
/// `RecordBatch.CURRENT_MAGIC_VALUE`.
pub const MAGIC_V2: i8 = 2;
/// Sentinels from `RecordBatch.java`.
pub const NO_PRODUCER_ID: i64 = -1;
pub const NO_PRODUCER_EPOCH: i16 = -1;
pub const NO_SEQUENCE: i32 = -1;
pub const NO_PARTITION_LEADER_EPOCH: i32 = -1;
pub const NO_TIMESTAMP: i64 = -1;

/// `TimestampType`: bit 3 of the attributes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TimestampType {
    CreateTime,
    LogAppendTime,
}

impl TimestampType {
    pub fn name(self) -> &'static str {
        match self {
            TimestampType::CreateTime => "CreateTime",
            TimestampType::LogAppendTime => "LogAppendTime",
        }
    }
}

/// The attributes int16, decoded. Java reads only the low byte (`(byte) getShort(21)`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Attributes(pub u16);

impl Attributes {
    pub fn codec_id(self) -> u8 {
        (self.0 & field::ATTR_COMPRESSION_MASK) as u8
    }
    pub fn timestamp_type(self) -> TimestampType {
        if self.0 & field::ATTR_TIMESTAMP_TYPE != 0 {
            TimestampType::LogAppendTime
        } else {
            TimestampType::CreateTime
        }
    }
    pub fn is_transactional(self) -> bool {
        self.0 & field::ATTR_TRANSACTIONAL != 0
    }
    pub fn is_control(self) -> bool {
        self.0 & field::ATTR_CONTROL != 0
    }
    pub fn has_delete_horizon(self) -> bool {
        self.0 & field::ATTR_DELETE_HORIZON != 0
    }
}

/// Zero-copy view of a v2 batch. Accessors read fixed header offsets; call
/// [`Batch::new_checked`] on untrusted input so no accessor can panic.
#[derive(Debug, Clone)]
pub struct Batch<T: AsRef<[u8]>> {
    buffer: T,
}

/// The buffer is shorter than the 61-byte header.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Truncated;

macro_rules! be_get {
    ($name:ident, $ty:ty, $f:expr) => {
        #[inline]
        pub fn $name(&self) -> $ty {
            let d = self.buffer.as_ref();
            let mut a = [0u8; core::mem::size_of::<$ty>()];
            a.copy_from_slice(&d[$f]);
            <$ty>::from_be_bytes(a)
        }
    };
}

impl<T: AsRef<[u8]>> Batch<T> {
    pub const fn new_unchecked(buffer: T) -> Self {
        Batch { buffer }
    }

    /// Ensure that no accessor method will panic.
    pub fn new_checked(buffer: T) -> Result<Self, Truncated> {
        if buffer.as_ref().len() < HEADER_LEN {
            Err(Truncated)
        } else {
            Ok(Batch { buffer })
        }
    }

    pub fn into_inner(self) -> T {
        self.buffer
    }

    be_get!(base_offset, i64, field::BASE_OFFSET);
    be_get!(batch_length, i32, field::BATCH_LENGTH);
    be_get!(partition_leader_epoch, i32, field::PARTITION_LEADER_EPOCH);
    be_get!(crc, u32, field::CRC);
    be_get!(last_offset_delta, i32, field::LAST_OFFSET_DELTA);
    be_get!(base_timestamp, i64, field::BASE_TIMESTAMP);
    be_get!(max_timestamp, i64, field::MAX_TIMESTAMP);
    be_get!(producer_id, i64, field::PRODUCER_ID);
    be_get!(producer_epoch, i16, field::PRODUCER_EPOCH);
    be_get!(base_sequence, i32, field::BASE_SEQUENCE);
    be_get!(records_count, i32, field::RECORDS_COUNT);

    #[inline]
    pub fn magic(&self) -> i8 {
        self.buffer.as_ref()[field::MAGIC] as i8
    }

    #[inline]
    pub fn attributes(&self) -> Attributes {
        let d = self.buffer.as_ref();
        Attributes(u16::from_be_bytes([d[field::ATTRIBUTES.start], d[field::ATTRIBUTES.start + 1]]))
    }

    /// CRC-32C over `[21, len)` of the buffer as given (the caller slices to the batch).
    pub fn compute_crc(&self) -> u32 {
        crate::wire::crc::crc32c(&self.buffer.as_ref()[field::CRC_START..])
    }

    /// `DefaultRecordBatch.lastSequence`.
    pub fn last_sequence(&self) -> i32 {
        let base = self.base_sequence();
        if base == NO_SEQUENCE {
            NO_SEQUENCE
        } else {
            crate::wire::sequence::increment(base, self.last_offset_delta())
        }
    }

    pub fn payload(&self) -> &[u8] {
        &self.buffer.as_ref()[HEADER_LEN..]
    }
}

impl<T: AsRef<[u8]> + AsMut<[u8]>> Batch<T> {
    pub fn set_base_offset(&mut self, v: i64) {
        self.buffer.as_mut()[field::BASE_OFFSET].copy_from_slice(&v.to_be_bytes());
    }
    pub fn set_partition_leader_epoch(&mut self, v: i32) {
        self.buffer.as_mut()[field::PARTITION_LEADER_EPOCH].copy_from_slice(&v.to_be_bytes());
    }
    /// Recompute and store the CRC (bytes 21..end must be final).
    pub fn fill_crc(&mut self) {
        let crc = self.compute_crc();
        self.buffer.as_mut()[field::CRC].copy_from_slice(&crc.to_be_bytes());
    }
}

/// The owned, high-level header.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct HeaderRepr {
    pub base_offset: i64,
    pub batch_length: i32,
    pub partition_leader_epoch: i32,
    pub magic: i8,
    pub crc: u32,
    pub attributes: Attributes,
    pub last_offset_delta: i32,
    pub base_timestamp: i64,
    pub max_timestamp: i64,
    pub producer_id: i64,
    pub producer_epoch: i16,
    pub base_sequence: i32,
    pub records_count: i32,
}

impl HeaderRepr {
    pub fn parse<T: AsRef<[u8]>>(b: &Batch<T>) -> Self {
        HeaderRepr {
            base_offset: b.base_offset(),
            batch_length: b.batch_length(),
            partition_leader_epoch: b.partition_leader_epoch(),
            magic: b.magic(),
            crc: b.crc(),
            attributes: b.attributes(),
            last_offset_delta: b.last_offset_delta(),
            base_timestamp: b.base_timestamp(),
            max_timestamp: b.max_timestamp(),
            producer_id: b.producer_id(),
            producer_epoch: b.producer_epoch(),
            base_sequence: b.base_sequence(),
            records_count: b.records_count(),
        }
    }

    /// Write the 61 header bytes (CRC as stored in `self.crc`; see [`Batch::fill_crc`]).
    pub fn emit(&self, out: &mut [u8; HEADER_LEN]) {
        out[field::BASE_OFFSET].copy_from_slice(&self.base_offset.to_be_bytes());
        out[field::BATCH_LENGTH].copy_from_slice(&self.batch_length.to_be_bytes());
        out[field::PARTITION_LEADER_EPOCH].copy_from_slice(&self.partition_leader_epoch.to_be_bytes());
        out[field::MAGIC] = self.magic as u8;
        out[field::CRC].copy_from_slice(&self.crc.to_be_bytes());
        out[field::ATTRIBUTES].copy_from_slice(&self.attributes.0.to_be_bytes());
        out[field::LAST_OFFSET_DELTA].copy_from_slice(&self.last_offset_delta.to_be_bytes());
        out[field::BASE_TIMESTAMP].copy_from_slice(&self.base_timestamp.to_be_bytes());
        out[field::MAX_TIMESTAMP].copy_from_slice(&self.max_timestamp.to_be_bytes());
        out[field::PRODUCER_ID].copy_from_slice(&self.producer_id.to_be_bytes());
        out[field::PRODUCER_EPOCH].copy_from_slice(&self.producer_epoch.to_be_bytes());
        out[field::BASE_SEQUENCE].copy_from_slice(&self.base_sequence.to_be_bytes());
        out[field::RECORDS_COUNT].copy_from_slice(&self.records_count.to_be_bytes());
    }
}

/// Span of a named header field, shifted to an absolute position.
pub fn shifted(r: &Range<usize>, by: usize) -> Range<usize> {
    r.start + by..r.end + by
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Example A of the golden vectors (crate/core/tests/golden.rs): idempotent batch, key "k" value "v".
    #[rustfmt::skip]
    pub(crate) static EXAMPLE_A: [u8; 70] = [
        0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, // baseOffset 0
        0x00, 0x00, 0x00, 0x3a,                         // batchLength 58
        0xff, 0xff, 0xff, 0xff,                         // partitionLeaderEpoch -1
        0x02,                                           // magic 2
        0x8c, 0x4a, 0x54, 0x5e,                         // crc
        0x00, 0x00,                                     // attributes
        0x00, 0x00, 0x00, 0x00,                         // lastOffsetDelta 0
        0x00, 0x00, 0x01, 0x8b, 0xcf, 0xe5, 0x68, 0x00, // baseTimestamp
        0x00, 0x00, 0x01, 0x8b, 0xcf, 0xe5, 0x68, 0x00, // maxTimestamp
        0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x10, 0x92, // producerId 4242
        0x00, 0x01,                                     // producerEpoch 1
        0x00, 0x00, 0x00, 0x07,                         // baseSequence 7
        0x00, 0x00, 0x00, 0x01,                         // recordsCount 1
        0x10, 0x00, 0x00, 0x00, 0x02, 0x6b, 0x02, 0x76, 0x00, // record
    ];

    #[test]
    fn header_len_is_61() {
        assert_eq!(HEADER_LEN, 61);
        assert_eq!(field::LOG_OVERHEAD, 12);
    }

    #[test]
    fn test_deconstruct() {
        let b = Batch::new_checked(&EXAMPLE_A[..]).unwrap();
        assert_eq!(b.base_offset(), 0);
        assert_eq!(b.batch_length(), 58);
        assert_eq!(b.partition_leader_epoch(), -1);
        assert_eq!(b.magic(), 2);
        assert_eq!(b.crc(), 0x8C4A_545E);
        assert_eq!(b.compute_crc(), 0x8C4A_545E);
        assert_eq!(b.producer_id(), 4242);
        assert_eq!(b.producer_epoch(), 1);
        assert_eq!(b.base_sequence(), 7);
        assert_eq!(b.last_sequence(), 7);
        assert_eq!(b.records_count(), 1);
        assert_eq!(b.base_timestamp(), 1_700_000_000_000);
    }

    #[test]
    fn test_emit_roundtrips_header() {
        let b = Batch::new_checked(&EXAMPLE_A[..]).unwrap();
        let repr = HeaderRepr::parse(&b);
        let mut out = [0u8; HEADER_LEN];
        repr.emit(&mut out);
        assert_eq!(&out[..], &EXAMPLE_A[..HEADER_LEN]);
    }

    #[test]
    fn offset_and_leader_epoch_are_outside_the_crc() {
        // The leader rewrites bytes 0–15 without recomputing the CRC.
        let mut buf = EXAMPLE_A;
        let mut b = Batch::new_unchecked(&mut buf[..]);
        b.set_base_offset(5);
        b.set_partition_leader_epoch(3);
        assert_eq!(b.compute_crc(), 0x8C4A_545E);
    }

    #[test]
    fn test_impossible_len() {
        assert_eq!(Batch::new_checked(&EXAMPLE_A[..60]).err(), Some(Truncated));
    }
}
