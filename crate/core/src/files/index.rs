//! `<offset>.index`, the sparse offset index (`storage/.../log/OffsetIndex.java`,
//! `AbstractIndex.java`): 8-byte entries `relativeOffset int32 | position int32`, big-endian,
//! the offset relative to the segment's base offset (the file name), the position a byte
//! offset into the `.log`. Kafka maps the file and counts `length / 8` entries (rounded down:
//! trailing bytes are not an entry, but fail the sanity check).

use alloc::format;
use core::marker::PhantomData;

use super::{be_i32, kind, FileError};

/// Byte ranges of one entry, relative to the entry's first byte.
pub mod field {
    use core::ops::Range;
    pub const RELATIVE_OFFSET: Range<usize> = 0..4;
    pub const POSITION: Range<usize> = 4..8;
    /// `OffsetIndex.ENTRY_SIZE`.
    pub const ENTRY_SIZE: usize = POSITION.end;
}

/// `OffsetPosition`: an absolute offset and a `.log` byte position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize),
    serde(rename_all = "camelCase")
)]
pub struct OffsetPosition {
    pub offset: i64,
    pub position: i32,
}

/// One fixed-size entry of a segment index: what an `AbstractIndex` subclass parses
/// (`parseEntry`), searches by (`OffsetIndex`: the offset, `TimeIndex`: the timestamp), answers
/// when it has no entry, and writes.
pub trait IndexEntry: Copy {
    /// `ENTRY_SIZE` of the index.
    const ENTRY_SIZE: usize;
    /// The entry whose first byte is `d[at]` (`d` holds the whole entry), its relative offset
    /// added to `base_offset`.
    fn parse(d: &[u8], at: usize, base_offset: i64) -> Self;
    /// The answer of an empty index, or of a lookup below the first entry.
    fn empty(base_offset: i64) -> Self;
    /// The key `lookup` searches by.
    fn key(&self) -> i64;
    /// This entry's file bytes (the offset relative to `base_offset`, truncated to i32 as
    /// Kafka's `putInt(relativeOffset)` would).
    fn emit(&self, base_offset: i64, out: &mut alloc::vec::Vec<u8>);
}

impl IndexEntry for OffsetPosition {
    const ENTRY_SIZE: usize = field::ENTRY_SIZE;
    fn parse(d: &[u8], at: usize, base_offset: i64) -> Self {
        OffsetPosition {
            offset: base_offset.wrapping_add(be_i32(d, at + field::RELATIVE_OFFSET.start) as i64),
            position: be_i32(d, at + field::POSITION.start),
        }
    }
    fn empty(base_offset: i64) -> Self {
        OffsetPosition {
            offset: base_offset,
            position: 0,
        }
    }
    fn key(&self) -> i64 {
        self.offset
    }
    fn emit(&self, base_offset: i64, out: &mut alloc::vec::Vec<u8>) {
        out.extend_from_slice(&(self.offset.wrapping_sub(base_offset) as i32).to_be_bytes());
        out.extend_from_slice(&self.position.to_be_bytes());
    }
}

/// Zero-copy view of a segment index (`AbstractIndex`) of `E` entries. Never panics: every
/// accessor is bounded by the entry count derived from the buffer length.
#[derive(Debug, Clone)]
pub struct SegmentIndex<T: AsRef<[u8]>, E> {
    buffer: T,
    base_offset: i64,
    entry: PhantomData<E>,
}

/// Zero-copy view of an offset index.
pub type OffsetIndex<T> = SegmentIndex<T, OffsetPosition>;

impl<T: AsRef<[u8]>, E: IndexEntry> SegmentIndex<T, E> {
    /// A view of `buffer` for the segment starting at `base_offset`.
    pub fn new(buffer: T, base_offset: i64) -> Self {
        SegmentIndex {
            buffer,
            base_offset,
            entry: PhantomData,
        }
    }

    pub fn base_offset(&self) -> i64 {
        self.base_offset
    }

    /// The file length (`AbstractIndex.length()`).
    pub fn length(&self) -> usize {
        self.buffer.as_ref().len()
    }

    /// `AbstractIndex.entries()`: whole entries in the file.
    pub fn entries(&self) -> usize {
        self.length() / E::ENTRY_SIZE
    }

    /// Bytes after the last whole entry.
    pub fn trailing_bytes(&self) -> usize {
        self.length() % E::ENTRY_SIZE
    }

    /// Entry `n` (`OffsetIndex.entry(n)`, `TimeIndex.entry(n)`; `None` past the end).
    pub fn entry(&self, n: usize) -> Option<E> {
        (n < self.entries()).then(|| E::parse(self.buffer.as_ref(), n * E::ENTRY_SIZE, self.base_offset))
    }

    /// All entries, in file order.
    pub fn iter(&self) -> impl Iterator<Item = E> + '_ {
        (0..self.entries()).filter_map(move |n| self.entry(n))
    }

    /// The last entry, or [`IndexEntry::empty`] (`OffsetIndex.lastEntry()`: `(baseOffset, 0)`;
    /// `TimeIndex.lastEntryFromIndexFile()`: `(NO_TIMESTAMP, baseOffset)`).
    pub fn last_entry(&self) -> E {
        match self.entries() {
            0 => E::empty(self.base_offset),
            n => self.entry(n - 1).unwrap_or(E::empty(self.base_offset)),
        }
    }

    /// `lookup(target)`: the entry with the largest key ≤ the target, or
    /// [`IndexEntry::empty`]; the same search as `AbstractIndex.largestLowerBoundSlotFor` (the
    /// warm-section check first, then a binary search), so an unsorted index answers as Kafka's.
    pub fn lookup(&self, target: i64) -> E {
        let slot = largest_lower_bound(self.entries(), 8192 / E::ENTRY_SIZE, target, |n| {
            self.entry(n).map_or(0, |e| e.key())
        });
        slot.and_then(|n| self.entry(n)).unwrap_or(E::empty(self.base_offset))
    }
}

impl<T: AsRef<[u8]>> OffsetIndex<T> {
    /// The raw relative offset of entry `n` (`None` past the end).
    pub fn relative_offset(&self, n: usize) -> Option<i32> {
        (n < self.entries()).then(|| be_i32(self.buffer.as_ref(), n * field::ENTRY_SIZE))
    }

    /// `OffsetIndex.sanityCheck()` for the file at `path` (Kafka names the absolute path):
    /// the last offset must not be below the base offset, and the length must be a multiple
    /// of 8. `at` is the last entry / the first trailing byte.
    pub fn sanity_check(&self, path: &str) -> Result<(), FileError> {
        let last = self.last_entry().offset;
        if self.entries() != 0 && last < self.base_offset {
            return Err(FileError::new(
                (self.entries() - 1) * field::ENTRY_SIZE,
                kind::CORRUPT_INDEX,
                format!(
                    "Corrupt index found, index file {path} has non-zero size but the last offset is {last} which is less than the base offset {}",
                    self.base_offset
                ),
            ));
        }
        if self.trailing_bytes() != 0 {
            return Err(FileError::new(
                self.entries() * field::ENTRY_SIZE,
                kind::CORRUPT_INDEX,
                format!(
                    "Index file {path} is corrupt, found {} bytes which is neither positive nor a multiple of {}",
                    self.length(),
                    field::ENTRY_SIZE
                ),
            ));
        }
        Ok(())
    }
}

/// `AbstractIndex.indexSlotRangeFor(…, LARGEST_LOWER_BOUND)` over `entries` keys given by
/// `key(n)`, `warm` = `warmEntries()` (8192 / entry size). `None` is Kafka's `-1`.
pub(crate) fn largest_lower_bound(
    entries: usize,
    warm: usize,
    target: i64,
    key: impl Fn(usize) -> i64,
) -> Option<usize> {
    if entries == 0 {
        return None;
    }
    let first_hot = entries.saturating_sub(1 + warm);
    let search = |lo: usize, hi: usize| {
        let (mut lo, mut hi) = (lo, hi);
        while lo < hi {
            let mid = (lo + hi).div_ceil(2);
            let k = key(mid);
            match k.cmp(&target) {
                core::cmp::Ordering::Greater => hi = mid - 1,
                core::cmp::Ordering::Less => lo = mid,
                core::cmp::Ordering::Equal => return mid,
            }
        }
        lo
    };
    if key(first_hot) < target {
        return Some(search(first_hot, entries - 1));
    }
    if key(0) > target {
        return None;
    }
    Some(search(0, first_hot))
}

/// The owned entries of a segment index, for callers that want a `Vec`.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize),
    serde(rename_all = "camelCase")
)]
pub struct IndexRepr<E> {
    pub base_offset: i64,
    pub entries: alloc::vec::Vec<E>,
    pub trailing_bytes: usize,
}

/// The owned entries of an offset index.
pub type OffsetIndexRepr = IndexRepr<OffsetPosition>;

impl<E> Default for IndexRepr<E> {
    fn default() -> Self {
        IndexRepr {
            base_offset: 0,
            entries: alloc::vec::Vec::new(),
            trailing_bytes: 0,
        }
    }
}

impl<E: IndexEntry> IndexRepr<E> {
    pub fn parse<T: AsRef<[u8]>>(ix: &SegmentIndex<T, E>) -> Self {
        IndexRepr {
            base_offset: ix.base_offset(),
            entries: ix.iter().collect(),
            trailing_bytes: ix.trailing_bytes(),
        }
    }

    /// The file bytes of these entries (offsets relative to `base_offset`, truncated to i32
    /// as Kafka's `putInt(relativeOffset)` would).
    pub fn emit(&self) -> alloc::vec::Vec<u8> {
        let mut out = alloc::vec::Vec::with_capacity(self.entries.len() * E::ENTRY_SIZE);
        for e in &self.entries {
            e.emit(self.base_offset, &mut out);
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::vec;
    use alloc::vec::Vec;

    fn bytes(entries: &[(i32, i32)]) -> Vec<u8> {
        entries
            .iter()
            .flat_map(|(o, p)| o.to_be_bytes().into_iter().chain(p.to_be_bytes()))
            .collect()
    }

    #[test]
    fn entries_are_relative_to_the_base_offset() {
        let b = bytes(&[(2, 99), (3, 177), (4, 255)]);
        let ix = OffsetIndex::new(&b[..], 100);
        assert_eq!(ix.entries(), 3);
        assert_eq!(
            ix.entry(0),
            Some(OffsetPosition {
                offset: 102,
                position: 99
            })
        );
        assert_eq!(ix.entry(3), None);
        assert_eq!(ix.last_entry().offset, 104);
        assert_eq!(
            ix.lookup(103),
            OffsetPosition {
                offset: 103,
                position: 177
            }
        );
        assert_eq!(ix.lookup(1000).offset, 104);
        assert_eq!(
            ix.lookup(101),
            OffsetPosition {
                offset: 100,
                position: 0
            }
        );
        assert!(ix.sanity_check("f").is_ok());
        let r = OffsetIndexRepr::parse(&ix);
        assert_eq!(r.emit(), b);
    }

    #[test]
    fn trailing_bytes_are_not_an_entry_but_fail_the_sanity_check() {
        let mut b = bytes(&[(1, 10)]);
        b.extend_from_slice(&[0, 0, 0]);
        let ix = OffsetIndex::new(&b[..], 0);
        assert_eq!(ix.entries(), 1);
        let e = ix.sanity_check("/p/0.index").unwrap_err();
        assert_eq!(e.at, 8);
        assert_eq!(e.kind, "CorruptIndexException");
        assert_eq!(
            e.message,
            "Index file /p/0.index is corrupt, found 11 bytes which is neither positive nor a multiple of 8"
        );
    }

    #[test]
    fn a_last_offset_below_the_base_fails_the_sanity_check() {
        let b = bytes(&[(1, 10), (-5, 20)]);
        let e = OffsetIndex::new(&b[..], 10)
            .sanity_check("/p/10.index")
            .unwrap_err();
        assert_eq!(e.at, 8);
        assert!(e.message.starts_with("Corrupt index found, index file /p/10.index has non-zero size but the last offset is 5"));
    }

    #[test]
    fn empty_and_tiny_inputs_never_panic() {
        for n in 0..20 {
            let b = vec![0xffu8; n];
            let ix = OffsetIndex::new(&b[..], i64::MAX);
            let _ = ix.lookup(0);
            let _ = ix.sanity_check("x");
            let _ = ix.iter().count();
        }
    }
}
