//! `<offset>.timeindex` (`storage/.../log/TimeIndex.java`): 12-byte entries
//! `timestamp int64 | relativeOffset int32`, big-endian; `length / 12` entries (rounded down).

use alloc::format;

use super::index::{IndexEntry, IndexRepr, SegmentIndex};
use super::{be_i32, be_i64, kind, FileError};

/// Byte ranges of one entry, relative to the entry's first byte.
pub mod field {
    use core::ops::Range;
    pub const TIMESTAMP: Range<usize> = 0..8;
    pub const RELATIVE_OFFSET: Range<usize> = 8..12;
    /// `TimeIndex.ENTRY_SIZE`.
    pub const ENTRY_SIZE: usize = RELATIVE_OFFSET.end;
}

/// `TimestampOffset`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize),
    serde(rename_all = "camelCase")
)]
pub struct TimestampOffset {
    pub timestamp: i64,
    pub offset: i64,
}

/// `RecordBatch.NO_TIMESTAMP`.
pub const NO_TIMESTAMP: i64 = -1;

impl IndexEntry for TimestampOffset {
    const ENTRY_SIZE: usize = field::ENTRY_SIZE;
    fn parse(d: &[u8], at: usize, base_offset: i64) -> Self {
        TimestampOffset {
            timestamp: be_i64(d, at),
            offset: base_offset.wrapping_add(be_i32(d, at + field::RELATIVE_OFFSET.start) as i64),
        }
    }
    fn empty(base_offset: i64) -> Self {
        TimestampOffset {
            timestamp: NO_TIMESTAMP,
            offset: base_offset,
        }
    }
    fn key(&self) -> i64 {
        self.timestamp
    }
    fn emit(&self, base_offset: i64, out: &mut alloc::vec::Vec<u8>) {
        out.extend_from_slice(&self.timestamp.to_be_bytes());
        out.extend_from_slice(&(self.offset.wrapping_sub(base_offset) as i32).to_be_bytes());
    }
}

/// Zero-copy view of a time index; never panics (the reader is [`SegmentIndex`]).
pub type TimeIndex<T> = SegmentIndex<T, TimestampOffset>;

impl<T: AsRef<[u8]>> TimeIndex<T> {
    /// `TimeIndex.sanityCheck()` for the file at `path`.
    pub fn sanity_check(&self, path: &str) -> Result<(), FileError> {
        let last = self.last_entry();
        let n = self.entries();
        if n != 0 {
            let first = self.entry(0).map_or(NO_TIMESTAMP, |e| e.timestamp);
            let at = (n - 1) * field::ENTRY_SIZE;
            if last.timestamp < first {
                return Err(FileError::new(
                    at,
                    kind::CORRUPT_INDEX,
                    format!(
                        "Corrupt time index found, time index file ({path}) has non-zero size but the last timestamp is {} which is less than the first timestamp {first}",
                        last.timestamp
                    ),
                ));
            }
            if last.offset < self.base_offset() {
                return Err(FileError::new(
                    at + field::RELATIVE_OFFSET.start,
                    kind::CORRUPT_INDEX,
                    format!(
                        "Corrupt time index found, time index file ({path}) has non-zero size but the last offset is {} which is less than the first offset {}",
                        last.offset, self.base_offset()
                    ),
                ));
            }
        }
        if self.trailing_bytes() != 0 {
            return Err(FileError::new(
                n * field::ENTRY_SIZE,
                kind::CORRUPT_INDEX,
                format!(
                    "Time index file {path} is corrupt, found {} bytes which is neither positive nor a multiple of {}",
                    self.length(),
                    field::ENTRY_SIZE
                ),
            ));
        }
        Ok(())
    }
}

/// The owned entries of a time index.
pub type TimeIndexRepr = IndexRepr<TimestampOffset>;

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::vec::Vec;

    fn bytes(entries: &[(i64, i32)]) -> Vec<u8> {
        entries
            .iter()
            .flat_map(|(t, o)| t.to_be_bytes().into_iter().chain(o.to_be_bytes()))
            .collect()
    }

    #[test]
    fn entries_and_lookup() {
        let b = bytes(&[(1000, 2), (2000, 4)]);
        let ix = TimeIndex::new(&b[..], 10);
        assert_eq!(ix.entries(), 2);
        assert_eq!(
            ix.entry(1),
            Some(TimestampOffset {
                timestamp: 2000,
                offset: 14
            })
        );
        assert_eq!(ix.lookup(1500).offset, 12);
        assert_eq!(
            ix.lookup(10),
            TimestampOffset {
                timestamp: -1,
                offset: 10
            }
        );
        assert!(ix.sanity_check("t").is_ok());
        assert_eq!(TimeIndexRepr::parse(&ix).emit(), b);
    }

    #[test]
    fn sanity_check_failures_name_the_byte() {
        let b = bytes(&[(2000, 2), (1000, 4)]);
        let e = TimeIndex::new(&b[..], 0).sanity_check("/t").unwrap_err();
        assert_eq!((e.at, e.kind), (12, "CorruptIndexException"));
        assert!(e
            .message
            .contains("last timestamp is 1000 which is less than the first timestamp 2000"));
        let mut b = bytes(&[(1, 1)]);
        b.push(0);
        let e = TimeIndex::new(&b[..], 0).sanity_check("/t").unwrap_err();
        assert_eq!(e.at, 12);
        assert_eq!(e.message, "Time index file /t is corrupt, found 13 bytes which is neither positive nor a multiple of 12");
    }
}
