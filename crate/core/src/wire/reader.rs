//! A bounds-checked cursor over a byte slice, in the manner of rustls' `codec::Reader`,
//! with Kafka's integer encodings: big-endian fixed-width ints and zigzag LEB128
//! varints/varlongs exactly as `clients/.../common/utils/ByteUtils.java` reads them
//! (including which over-long encodings Java accepts and which it rejects).

/// Why a read failed. Small and `Copy`: callers attach Kafka's exception name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ReadError {
    /// Fewer than `need` bytes remained at `at` (Java: `BufferUnderflowException`).
    Eof { at: usize, need: usize },
    /// The 5th byte of a varint had its MSB set (`ByteUtils.illegalVarintException`).
    VarintTooLong { at: usize },
    /// The 10th byte of a varlong had its MSB set (`ByteUtils.illegalVarlongException`).
    VarlongTooLong { at: usize },
}

impl ReadError {
    /// Offset (relative to the reader's buffer) where the problem was found.
    pub fn at(self) -> usize {
        match self {
            ReadError::Eof { at, .. } | ReadError::VarintTooLong { at } | ReadError::VarlongTooLong { at } => at,
        }
    }
}

impl core::fmt::Display for ReadError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            ReadError::Eof { need, .. } => write!(f, "needed {need} more byte(s) but the buffer ended"),
            ReadError::VarintTooLong { .. } => {
                f.write_str("Varint is too long, the most significant bit in the 5th byte is set")
            }
            ReadError::VarlongTooLong { .. } => {
                f.write_str("Varlong is too long, most significant bit in the 10th byte is set")
            }
        }
    }
}

pub type Result<T> = core::result::Result<T, ReadError>;

/// Cursor over `buf`; every offset it reports is relative to `buf`.
#[derive(Clone, Debug)]
pub struct Reader<'a> {
    buf: &'a [u8],
    pos: usize,
}

impl<'a> Reader<'a> {
    pub fn new(buf: &'a [u8]) -> Self {
        Reader { buf, pos: 0 }
    }

    #[inline]
    pub fn pos(&self) -> usize {
        self.pos
    }

    #[inline]
    pub fn remaining(&self) -> usize {
        self.buf.len() - self.pos
    }

    #[inline]
    pub fn any_left(&self) -> bool {
        self.pos < self.buf.len()
    }

    /// Take exactly `n` bytes.
    #[inline]
    pub fn take(&mut self, n: usize) -> Result<&'a [u8]> {
        if n > self.remaining() {
            return Err(ReadError::Eof { at: self.pos, need: n - self.remaining() });
        }
        let s = &self.buf[self.pos..self.pos + n];
        self.pos += n;
        Ok(s)
    }

    #[inline]
    pub fn take_array<const N: usize>(&mut self) -> Result<[u8; N]> {
        let s = self.take(N)?;
        let mut a = [0u8; N];
        a.copy_from_slice(s);
        Ok(a)
    }

    #[inline]
    pub fn u8(&mut self) -> Result<u8> {
        match self.buf.get(self.pos) {
            Some(&b) => {
                self.pos += 1;
                Ok(b)
            }
            None => Err(ReadError::Eof { at: self.pos, need: 1 }),
        }
    }

    #[inline]
    pub fn i8(&mut self) -> Result<i8> {
        Ok(self.u8()? as i8)
    }
    #[inline]
    pub fn i16(&mut self) -> Result<i16> {
        Ok(i16::from_be_bytes(self.take_array()?))
    }
    #[inline]
    pub fn i32(&mut self) -> Result<i32> {
        Ok(i32::from_be_bytes(self.take_array()?))
    }
    #[inline]
    pub fn u32(&mut self) -> Result<u32> {
        Ok(u32::from_be_bytes(self.take_array()?))
    }
    #[inline]
    pub fn i64(&mut self) -> Result<i64> {
        Ok(i64::from_be_bytes(self.take_array()?))
    }

    /// `ByteUtils.readUnsignedVarint`: at most 5 bytes; an MSB on the 5th byte is an
    /// error; bits of the 5th byte above bit 3 are dropped, as Java's `int` shift does.
    #[inline]
    pub fn unsigned_varint(&mut self) -> Result<u32> {
        let start = self.pos;
        let mut result: u32 = 0;
        for i in 0..5u32 {
            let b = self.u8()?;
            if i == 4 {
                if b & 0x80 != 0 {
                    self.pos = start;
                    return Err(ReadError::VarintTooLong { at: start });
                }
                return Ok(result | ((b as u32) << 28));
            }
            result |= ((b & 0x7f) as u32) << (7 * i);
            if b & 0x80 == 0 {
                return Ok(result);
            }
        }
        unreachable!("loop returns on the 5th byte")
    }

    /// `ByteUtils.readVarint`: zigzag-decoded int32.
    #[inline]
    pub fn varint(&mut self) -> Result<i32> {
        let u = self.unsigned_varint()?;
        Ok(((u >> 1) as i32) ^ -((u & 1) as i32))
    }

    /// `ByteUtils.readUnsignedVarlong`: at most 10 bytes; an MSB on the 10th byte is an
    /// error; high bits of the 10th byte are dropped.
    #[inline]
    pub fn unsigned_varlong(&mut self) -> Result<u64> {
        let start = self.pos;
        let mut value: u64 = 0;
        let mut shift: u32 = 0;
        loop {
            let b = self.u8()? as u64;
            if b & 0x80 == 0 {
                return Ok(value | (b << shift));
            }
            value |= (b & 0x7f) << shift;
            shift += 7;
            if shift > 63 {
                self.pos = start;
                return Err(ReadError::VarlongTooLong { at: start });
            }
        }
    }

    /// `ByteUtils.readVarlong`: zigzag-decoded int64.
    #[inline]
    pub fn varlong(&mut self) -> Result<i64> {
        let u = self.unsigned_varlong()?;
        Ok(((u >> 1) as i64) ^ -((u & 1) as i64))
    }
}

/// Writers for the same encodings (`ByteUtils.writeVarint` etc.): always minimal.
pub mod write {
    use alloc::vec::Vec;

    #[inline]
    pub fn unsigned_varint(out: &mut Vec<u8>, mut v: u32) {
        while v >= 0x80 {
            out.push((v as u8) | 0x80);
            v >>= 7;
        }
        out.push(v as u8);
    }

    #[inline]
    pub fn varint(out: &mut Vec<u8>, v: i32) {
        unsigned_varint(out, ((v << 1) ^ (v >> 31)) as u32)
    }

    #[inline]
    pub fn varlong(out: &mut Vec<u8>, v: i64) {
        let mut u = ((v << 1) ^ (v >> 63)) as u64;
        while u >= 0x80 {
            out.push((u as u8) | 0x80);
            u >>= 7;
        }
        out.push(u as u8);
    }

    /// `ByteUtils.sizeOfVarint`.
    #[inline]
    pub fn size_of_varint(v: i32) -> usize {
        let u = ((v << 1) ^ (v >> 31)) as u32;
        groups_of_7(32 - (u | 1).leading_zeros() as usize)
    }

    /// `ByteUtils.sizeOfVarlong`.
    #[inline]
    pub fn size_of_varlong(v: i64) -> usize {
        let u = ((v << 1) ^ (v >> 63)) as u64;
        groups_of_7(64 - (u | 1).leading_zeros() as usize)
    }

    /// ⌈bits / 7⌉ for 1 ≤ bits ≤ 64 without a division (protobuf's `VarintSize`); checked
    /// against the division for every `bits` by a test.
    #[inline(always)]
    fn groups_of_7(bits: usize) -> usize {
        (bits * 9 + 64) >> 6
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::vec::Vec;

    #[test]
    fn varint_sizes_are_the_lengths_written() {
        let mut out = Vec::new();
        for shift in 0..64 {
            let p = 1i64 << shift;
            for v in [p, p.wrapping_sub(1), p.wrapping_neg(), p.wrapping_add(1)] {
                out.clear();
                write::varlong(&mut out, v);
                assert_eq!(write::size_of_varlong(v), out.len(), "varlong {v}");
                let v32 = v as i32;
                out.clear();
                write::varint(&mut out, v32);
                assert_eq!(write::size_of_varint(v32), out.len(), "varint {v32}");
            }
        }
        for v in [i64::MIN, i64::MAX, 0] {
            out.clear();
            write::varlong(&mut out, v);
            assert_eq!(write::size_of_varlong(v), out.len());
        }
    }

    fn enc_varint(v: i32) -> Vec<u8> {
        let mut o = Vec::new();
        write::varint(&mut o, v);
        o
    }
    fn enc_varlong(v: i64) -> Vec<u8> {
        let mut o = Vec::new();
        write::varlong(&mut o, v);
        o
    }

    #[test]
    fn varint_examples_from_the_reference() {
        // Zig-zag varints as Kafka's ByteUtils writes them.
        let cases: &[(i32, &[u8])] = &[
            (0, &[0x00]),
            (-1, &[0x01]),
            (1, &[0x02]),
            (-2, &[0x03]),
            (63, &[0x7e]),
            (-64, &[0x7f]),
            (64, &[0x80, 0x01]),
            (i32::MAX, &[0xfe, 0xff, 0xff, 0xff, 0x0f]),
            (i32::MIN, &[0xff, 0xff, 0xff, 0xff, 0x0f]),
        ];
        for &(v, bytes) in cases {
            assert_eq!(enc_varint(v), bytes, "encode {v}");
            assert_eq!(Reader::new(bytes).varint(), Ok(v), "decode {v}");
            assert_eq!(write::size_of_varint(v), bytes.len());
        }
    }

    #[test]
    fn varlong_examples_from_the_reference() {
        let cases: &[(i64, &[u8])] = &[
            (250, &[0xf4, 0x03]),
            (i64::MAX, &[0xfe, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01]),
            (i64::MIN, &[0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01]),
        ];
        for &(v, bytes) in cases {
            assert_eq!(enc_varlong(v), bytes);
            assert_eq!(Reader::new(bytes).varlong(), Ok(v));
        }
    }

    #[test]
    fn varint_with_msb_on_fifth_byte_is_rejected_like_java() {
        let mut r = Reader::new(&[0x80, 0x80, 0x80, 0x80, 0x80, 0x00]);
        assert_eq!(r.varint(), Err(ReadError::VarintTooLong { at: 0 }));
    }

    #[test]
    fn varint_drops_high_bits_of_fifth_byte_like_java() {
        // 0x7f in the 5th byte: Java keeps only the low 4 bits (tmp << 28 in an int).
        assert_eq!(Reader::new(&[0xff, 0xff, 0xff, 0xff, 0x7f]).unsigned_varint(), Ok(u32::MAX));
    }

    #[test]
    fn non_minimal_encodings_are_accepted_like_java() {
        assert_eq!(Reader::new(&[0x80, 0x00]).varint(), Ok(0));
        assert_eq!(Reader::new(&[0x82, 0x80, 0x00]).varint(), Ok(1));
    }

    #[test]
    fn varlong_with_msb_on_tenth_byte_is_rejected_like_java() {
        let bytes = [0x80u8; 11];
        assert_eq!(Reader::new(&bytes).varlong(), Err(ReadError::VarlongTooLong { at: 0 }));
    }

    #[test]
    fn truncated_varint_reports_eof_offset() {
        let mut r = Reader::new(&[0x00, 0x80]);
        r.u8().unwrap();
        assert_eq!(r.varint(), Err(ReadError::Eof { at: 2, need: 1 }));
    }
}

impl<'a> Reader<'a> {
    /// The bytes `start..end` of the buffer (clamped to it).
    pub fn slice(&self, start: usize, end: usize) -> &'a [u8] {
        let end = end.min(self.buf.len());
        &self.buf[start.min(end)..end]
    }

    /// Move the cursor back to `pos` (≤ current length).
    pub fn rewind_to(&mut self, pos: usize) {
        self.pos = pos.min(self.buf.len());
    }
}
