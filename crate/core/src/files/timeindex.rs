//! `<offset>.timeindex` (`storage/.../log/TimeIndex.java`): 12-byte entries
//! `timestamp int64 | relativeOffset int32`, big-endian; `length / 12` entries (rounded down).

use alloc::format;

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

/// Zero-copy view of a time index; never panics.
#[derive(Debug, Clone)]
pub struct TimeIndex<T: AsRef<[u8]>> {
    buffer: T,
    base_offset: i64,
}

impl<T: AsRef<[u8]>> TimeIndex<T> {
    pub fn new(buffer: T, base_offset: i64) -> Self {
        TimeIndex {
            buffer,
            base_offset,
        }
    }

    pub fn base_offset(&self) -> i64 {
        self.base_offset
    }

    pub fn length(&self) -> usize {
        self.buffer.as_ref().len()
    }

    pub fn entries(&self) -> usize {
        self.length() / field::ENTRY_SIZE
    }

    pub fn trailing_bytes(&self) -> usize {
        self.length() % field::ENTRY_SIZE
    }

    /// `TimeIndex.entry(n)`.
    pub fn entry(&self, n: usize) -> Option<TimestampOffset> {
        if n >= self.entries() {
            return None;
        }
        let d = self.buffer.as_ref();
        let at = n * field::ENTRY_SIZE;
        Some(TimestampOffset {
            timestamp: be_i64(d, at),
            offset: self
                .base_offset
                .wrapping_add(be_i32(d, at + field::RELATIVE_OFFSET.start) as i64),
        })
    }

    pub fn iter(&self) -> impl Iterator<Item = TimestampOffset> + '_ {
        (0..self.entries()).filter_map(move |n| self.entry(n))
    }

    /// `TimeIndex.lastEntryFromIndexFile()`: the last entry, or `(NO_TIMESTAMP, baseOffset)`.
    pub fn last_entry(&self) -> TimestampOffset {
        match self.entries() {
            0 => TimestampOffset {
                timestamp: NO_TIMESTAMP,
                offset: self.base_offset,
            },
            n => self.entry(n - 1).unwrap_or(TimestampOffset {
                timestamp: NO_TIMESTAMP,
                offset: self.base_offset,
            }),
        }
    }

    /// `TimeIndex.lookup(targetTimestamp)`: the entry with the largest timestamp ≤ the target
    /// (Kafka's search), or `(NO_TIMESTAMP, baseOffset)`.
    pub fn lookup(&self, target: i64) -> TimestampOffset {
        let none = TimestampOffset {
            timestamp: NO_TIMESTAMP,
            offset: self.base_offset,
        };
        let slot = super::index::largest_lower_bound(
            self.entries(),
            8192 / field::ENTRY_SIZE,
            target,
            |n| self.entry(n).map_or(0, |e| e.timestamp),
        );
        slot.and_then(|n| self.entry(n)).unwrap_or(none)
    }

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
            if last.offset < self.base_offset {
                return Err(FileError::new(
                    at + field::RELATIVE_OFFSET.start,
                    kind::CORRUPT_INDEX,
                    format!(
                        "Corrupt time index found, time index file ({path}) has non-zero size but the last offset is {} which is less than the first offset {}",
                        last.offset, self.base_offset
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
#[derive(Clone, Debug, PartialEq, Eq, Default)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize),
    serde(rename_all = "camelCase")
)]
pub struct TimeIndexRepr {
    pub base_offset: i64,
    pub entries: alloc::vec::Vec<TimestampOffset>,
    pub trailing_bytes: usize,
}

impl TimeIndexRepr {
    pub fn parse<T: AsRef<[u8]>>(ix: &TimeIndex<T>) -> Self {
        TimeIndexRepr {
            base_offset: ix.base_offset(),
            entries: ix.iter().collect(),
            trailing_bytes: ix.trailing_bytes(),
        }
    }

    pub fn emit(&self) -> alloc::vec::Vec<u8> {
        let mut out = alloc::vec::Vec::with_capacity(self.entries.len() * field::ENTRY_SIZE);
        for e in &self.entries {
            out.extend_from_slice(&e.timestamp.to_be_bytes());
            out.extend_from_slice(&(e.offset.wrapping_sub(self.base_offset) as i32).to_be_bytes());
        }
        out
    }
}

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
