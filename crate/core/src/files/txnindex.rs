//! `<offset>.txnindex`, the aborted transactions of a segment (`storage/.../log/TransactionIndex.java`,
//! `AbortedTxn.java`): 34-byte entries `version int16 | producerId int64 | firstOffset int64 |
//! lastOffset int64 | lastStableOffset int64`. Kafka reads whole entries while at least 34
//! bytes remain (a shorter tail is ignored) and reads the version as ONE byte
//! (`buffer.get(VERSION_OFFSET)`, the high byte of the int16), failing on a version above 0.

use alloc::format;
use alloc::vec::Vec;

use super::{be_i64, kind, FileError};

/// Byte ranges of one entry (`AbortedTxn.*_OFFSET`).
pub mod field {
    use core::ops::Range;
    pub const VERSION: Range<usize> = 0..2;
    pub const PRODUCER_ID: Range<usize> = 2..10;
    pub const FIRST_OFFSET: Range<usize> = 10..18;
    pub const LAST_OFFSET: Range<usize> = 18..26;
    pub const LAST_STABLE_OFFSET: Range<usize> = 26..34;
    /// `AbortedTxn.TOTAL_SIZE`.
    pub const ENTRY_SIZE: usize = LAST_STABLE_OFFSET.end;
}

/// `AbortedTxn.CURRENT_VERSION`.
pub const CURRENT_VERSION: i16 = 0;

/// One `AbortedTxn`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize),
    serde(rename_all = "camelCase")
)]
pub struct AbortedTxn {
    /// As Kafka reads it: the first byte, sign-extended.
    pub version: i16,
    pub producer_id: i64,
    pub first_offset: i64,
    pub last_offset: i64,
    pub last_stable_offset: i64,
}

impl AbortedTxn {
    /// The 34 bytes Kafka writes (`AbortedTxn.toByteBuffer`: version as an int16).
    pub fn emit(&self) -> [u8; field::ENTRY_SIZE] {
        let mut out = [0u8; field::ENTRY_SIZE];
        out[field::VERSION].copy_from_slice(&self.version.to_be_bytes());
        out[field::PRODUCER_ID].copy_from_slice(&self.producer_id.to_be_bytes());
        out[field::FIRST_OFFSET].copy_from_slice(&self.first_offset.to_be_bytes());
        out[field::LAST_OFFSET].copy_from_slice(&self.last_offset.to_be_bytes());
        out[field::LAST_STABLE_OFFSET].copy_from_slice(&self.last_stable_offset.to_be_bytes());
        out
    }
}

/// Zero-copy view of a transaction index; never panics.
#[derive(Debug, Clone)]
pub struct TransactionIndex<T: AsRef<[u8]>> {
    buffer: T,
    start_offset: i64,
}

impl<T: AsRef<[u8]>> TransactionIndex<T> {
    pub fn new(buffer: T, start_offset: i64) -> Self {
        TransactionIndex {
            buffer,
            start_offset,
        }
    }

    pub fn start_offset(&self) -> i64 {
        self.start_offset
    }

    pub fn entries(&self) -> usize {
        self.buffer.as_ref().len() / field::ENTRY_SIZE
    }

    pub fn trailing_bytes(&self) -> usize {
        self.buffer.as_ref().len() % field::ENTRY_SIZE
    }

    /// Entry `n` as stored, version check not applied.
    pub fn entry(&self, n: usize) -> Option<AbortedTxn> {
        if n >= self.entries() {
            return None;
        }
        let d = &self.buffer.as_ref()[n * field::ENTRY_SIZE..];
        Some(AbortedTxn {
            version: d[0] as i8 as i16,
            producer_id: be_i64(d, field::PRODUCER_ID.start),
            first_offset: be_i64(d, field::FIRST_OFFSET.start),
            last_offset: be_i64(d, field::LAST_OFFSET.start),
            last_stable_offset: be_i64(d, field::LAST_STABLE_OFFSET.start),
        })
    }

    /// Entry `n` as Kafka's iterator returns it: an error (`KafkaException`) on a version
    /// above [`CURRENT_VERSION`], pinned on the version byte. `path` is named in the message.
    pub fn checked_entry(&self, n: usize, path: &str) -> Option<Result<AbortedTxn, FileError>> {
        let e = self.entry(n)?;
        if e.version > CURRENT_VERSION {
            return Some(Err(FileError::new(
                n * field::ENTRY_SIZE,
                kind::KAFKA,
                format!(
                    "Unexpected aborted transaction version {} in transaction index {path}, current version is {CURRENT_VERSION}",
                    e.version
                ),
            )));
        }
        Some(Ok(e))
    }

    /// `TransactionIndex.allAbortedTxns()`: every entry, or the first version error (Kafka
    /// collects them all before returning, so nothing is returned with the error).
    pub fn all_aborted_txns(&self, path: &str) -> Result<Vec<AbortedTxn>, FileError> {
        let mut out = Vec::with_capacity(self.entries());
        for n in 0..self.entries() {
            if let Some(e) = self.checked_entry(n, path) {
                out.push(e?);
            }
        }
        Ok(out)
    }

    /// `TransactionIndex.sanityCheck()`: every entry's last offset at or above the start offset.
    /// Kafka names the entry with `AbortedTxn.toString()`.
    pub fn sanity_check(&self, path: &str) -> Result<(), FileError> {
        for n in 0..self.entries() {
            let e = match self.checked_entry(n, path) {
                Some(r) => r?,
                None => break,
            };
            if e.last_offset < self.start_offset {
                return Err(FileError::new(
                    n * field::ENTRY_SIZE + field::LAST_OFFSET.start,
                    kind::CORRUPT_INDEX,
                    format!(
                        "Last offset of aborted transaction AbortedTxn(version={}, producerId={}, firstOffset={}, lastOffset={}, lastStableOffset={}) in index {path} is less than start offset {}",
                        e.version, e.producer_id, e.first_offset, e.last_offset, e.last_stable_offset, self.start_offset
                    ),
                ));
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const T: AbortedTxn = AbortedTxn {
        version: 0,
        producer_id: 1,
        first_offset: 3,
        last_offset: 4,
        last_stable_offset: 5,
    };

    #[test]
    fn roundtrip_and_tail() {
        let mut b = T.emit().to_vec();
        b.extend_from_slice(&[1, 2, 3]);
        let ix = TransactionIndex::new(&b[..], 0);
        assert_eq!(ix.entries(), 1);
        assert_eq!(ix.trailing_bytes(), 3);
        assert_eq!(ix.all_aborted_txns("p"), Ok(alloc::vec![T]));
        assert!(ix.sanity_check("p").is_ok());
    }

    #[test]
    fn version_is_the_first_byte_only() {
        let mut b = T.emit().to_vec();
        b[1] = 7; // low byte: ignored by Kafka
        assert_eq!(
            TransactionIndex::new(&b[..], 0).entry(0).unwrap().version,
            0
        );
        b[0] = 0xff; // -1: not above 0, accepted
        assert_eq!(
            TransactionIndex::new(&b[..], 0)
                .all_aborted_txns("p")
                .unwrap()[0]
                .version,
            -1
        );
        let mut c = T.emit().to_vec();
        c.extend_from_slice(&T.emit());
        c[34] = 1;
        let e = TransactionIndex::new(&c[..], 0)
            .all_aborted_txns("/x.txnindex")
            .unwrap_err();
        assert_eq!((e.at, e.kind), (34, "KafkaException"));
        assert_eq!(e.message, "Unexpected aborted transaction version 1 in transaction index /x.txnindex, current version is 0");
    }

    #[test]
    fn sanity_check_last_offset_below_start() {
        let b = T.emit();
        let e = TransactionIndex::new(&b[..], 10)
            .sanity_check("/x")
            .unwrap_err();
        assert_eq!((e.at, e.kind), (18, "CorruptIndexException"));
    }
}
