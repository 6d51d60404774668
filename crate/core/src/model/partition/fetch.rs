//! Reading a partition: a consumer's fetch (L4, R1–R5) by isolation level, and the answer a
//! Fetch gets.

use super::*;

/// A Fetch's answer for one partition (L4, `ReplicaManager.readFromLog`), as both script
/// languages give it: the records below the bound (markers excluded; aborted ones included —
/// a read_committed client filters them with `aborted`), the HW and LSO, and
/// abortedTransactions (`None` for read_uncommitted). A fetch offset outside `[0, HW]` is
/// OFFSET_OUT_OF_RANGE, and the answer then carries no offsets (−1,
/// `FetchResponse.partitionResponse`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FetchAnswer {
    pub error: ErrorCode,
    pub high_watermark: i64,
    pub last_stable_offset: i64,
    /// The offset the records stop below (the LSO or the HW).
    pub upper: i64,
    pub records: Vec<(i64, Option<String>)>,
    pub aborted: Option<Vec<(i64, i64)>>,
}

impl Partition {
    /// L4: the answer to a Fetch from `from_offset` ([`FetchAnswer`]).
    pub fn fetch_answer(&self, isolation: Isolation, from_offset: i64) -> FetchAnswer {
        let (hw, lso) = (self.high_watermark(), self.last_stable_offset());
        if from_offset < 0 || from_offset > hw {
            return FetchAnswer { error: ErrorCode(1), high_watermark: -1, last_stable_offset: -1, upper: -1, records: Vec::new(), aborted: None };
        }
        let (upper, aborted) = self.fetch_bounds(isolation, from_offset);
        let mut records = Vec::new();
        self.fetch_each(Isolation::ReadUncommitted, from_offset, |offset, _, _, value| {
            if offset < upper {
                records.push((offset, value.map(|v| String::from_utf8_lossy(v).into_owned())));
            }
        });
        let aborted = (isolation == Isolation::ReadCommitted).then(|| aborted.iter().map(|a| (a.producer_id, a.first_offset)).collect());
        FetchAnswer { error: ErrorCode::NONE, high_watermark: hw, last_stable_offset: lso, upper, records, aborted }
    }

    /// L5: ListOffsets(LATEST): the LSO for read_committed, the HW otherwise.
    pub fn latest_offset(&self, isolation: Isolation) -> i64 {
        if isolation == Isolation::ReadCommitted {
            self.last_stable_offset()
        } else {
            self.high_watermark()
        }
    }
}

/// A record as a consumer's application sees it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Consumed {
    pub offset: i64,
    pub producer_id: i64,
    pub transactional: bool,
    pub value: Option<Vec<u8>>,
}

/// `isolation.level`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Isolation {
    ReadUncommitted,
    ReadCommitted,
}

impl Partition {
    /// A consumer's fetch from `from_offset` (L4, R1–R5): read_uncommitted gets every data
    /// record below the high watermark; read_committed stops at the last stable offset and
    /// drops the records of aborted transactions. Control records are never returned.
    pub fn fetch(&self, isolation: Isolation, from_offset: i64) -> Vec<Consumed> {
        let mut out = Vec::new();
        self.fetch_each(isolation, from_offset, |offset, producer_id, transactional, value| {
            out.push(Consumed { offset, producer_id, transactional, value: value.map(<[u8]>::to_vec) })
        });
        out
    }

    /// Where a fetch from `from_offset` stops (the high watermark for read_uncommitted, the LSO
    /// for read_committed) and, for read_committed, the aborted transactions that overlap what
    /// it returns, by first offset (R1).
    pub fn fetch_bounds(&self, isolation: Isolation, from_offset: i64) -> (i64, Vec<AbortedTxn>) {
        let upper = match isolation {
            Isolation::ReadUncommitted => self.high_watermark(),
            Isolation::ReadCommitted => self.last_stable_offset(),
        };
        let aborted: Vec<AbortedTxn> = match isolation {
            Isolation::ReadUncommitted => Vec::new(),
            // Nothing to read (from the LSO on): `LocalLog.emptyFetchDataInfo`, an empty list.
            Isolation::ReadCommitted if from_offset >= upper || self.aborted_txns.is_empty() => Vec::new(),
            Isolation::ReadCommitted => {
                // `TransactionIndex.collectAbortedTxns(fetchOffset, upperBoundOffset)`, in index
                // order: an entry that ends at or after the fetch offset and starts below the
                // bound; the scan stops after an entry whose lastStableOffset reaches the bound.
                let bound = self.aborted_upper_bound(from_offset, upper);
                let mut v = Vec::new();
                for a in &self.aborted_txns {
                    if a.last_offset >= from_offset && a.first_offset < bound {
                        v.push(*a);
                    }
                    if a.last_stable_offset >= bound {
                        break;
                    }
                }
                v
            }
        };
        // The answer keeps the index's order (the order the ABORT markers were written), as
        // Kafka 4.3.1's does; a consumer sorts them by first offset itself (`CompletedFetch`'s
        // PriorityQueue), as `fetch_each` does.
        (upper, aborted)
    }

    /// The offset up to which a read_committed fetch from `from_offset` that returns the
    /// batches below `upper` (the LSO) collects aborted transactions
    /// (`LocalLog.addAbortedTransactions`): the offset of the first offset-index entry at or
    /// past the end of the returned bytes (`OffsetIndex.fetchUpperBoundOffset`), else — one
    /// segment — the log end. The index has an entry for a batch once more than
    /// `index.interval.bytes` (4096) were appended since the last one (`LogSegment.append`), so
    /// on a small log the bound is the log end: the answer lists aborted transactions past
    /// the data it returns.
    pub(super) fn aborted_upper_bound(&self, from_offset: i64, upper: i64) -> i64 {
        const INDEX_INTERVAL_BYTES: i64 = 4096;
        let last_of = |e: &LogEntry| e.base_offset + i64::from(Batch::new_unchecked(&e.bytes[..]).last_offset_delta());
        // Where the returned bytes end: after the last batch that starts below `upper`, from the
        // batch holding `from_offset` on.
        let mut position = 0i64;
        let mut end = 0i64;
        for e in &self.log {
            position += e.bytes.len() as i64;
            if last_of(e) >= from_offset && e.base_offset < upper {
                end = position;
            }
        }
        // The offset index as the appends built it: (the batch's last offset, its position).
        let (mut position, mut since_entry) = (0i64, 0i64);
        for e in &self.log {
            if since_entry > INDEX_INTERVAL_BYTES {
                if position >= end {
                    return last_of(e);
                }
                since_entry = 0;
            }
            position += e.bytes.len() as i64;
            since_entry += e.bytes.len() as i64;
        }
        self.log_end_offset
    }

    /// [`Partition::fetch`] without building anything: each record the consumer gets is handed
    /// to `deliver` as (offset, producer id, transactional, value) in offset order. Batches are
    /// read in place with the codec's view (compressed ones decompressed into one scratch
    /// buffer); an entry that is not one whole v2 batch goes through the full decoder.
    pub fn fetch_each(&self, isolation: Isolation, from_offset: i64, mut deliver: impl FnMut(i64, i64, bool, Option<&[u8]>)) {
        let (upper, mut aborted) = self.fetch_bounds(isolation, from_offset);
        aborted.sort_by_key(|a| a.first_offset);
        let mut queue = aborted.into_iter().peekable();
        let mut aborted_pids: Vec<i64> = Vec::new();
        // Start at the batch holding `from_offset` (the log is in offset order) and stop at
        // `upper`: read only the batches the fetch returns. The batches' offset ranges follow
        // one another, so the first one ending at or after `from_offset` is the last one
        // starting at or before it (if it reaches `from_offset`), else the next one.
        let last = |e: &LogEntry| Batch::new_checked(&e.bytes[..]).map_or(e.base_offset, |b| e.base_offset + b.last_offset_delta() as i64);
        let after = self.log.partition_point(|e| e.base_offset <= from_offset);
        let start = match after.checked_sub(1) {
            Some(k) if last(&self.log[k]) >= from_offset => k,
            _ => after,
        };
        debug_assert_eq!(start, self.log.partition_point(|e| last(e) < from_offset));
        let mut scratch = Vec::new();
        for e in self.log[start..].iter().take_while(|e| e.base_offset < upper) {
            let decoded;
            let view;
            let (h, records) = match crate::view::entries(&e.bytes).next() {
                Some(Ok(crate::view::Entry::V2(b))) => {
                    view = b;
                    (FetchHeader::of(&view.header), FetchRecords::View(view.records(&mut scratch, MAX_DECOMPRESSED).ok()))
                }
                _ => {
                    // Not one whole v2 batch (the models write none): the full decoder.
                    let opts = crate::decode::DecodeOptions { spans: false, ..Default::default() };
                    decoded = crate::decode::decode_bytes(&e.bytes, &opts);
                    let Some(b) = decoded.batches.first() else { continue };
                    let h = &b.header;
                    let head = FetchHeader {
                        base_offset: h.base_offset,
                        last_offset: h.last_offset,
                        producer_id: h.producer_id,
                        control: h.attributes.control,
                        transactional: h.attributes.transactional,
                        abort: Some(b.control.as_ref().is_some_and(|c| c.type_name == "ABORT")),
                    };
                    (head, FetchRecords::Decoded(&b.records))
                }
            };
            if h.last_offset < from_offset || h.base_offset >= upper {
                continue;
            }
            if isolation == Isolation::ReadCommitted && h.producer_id >= 0 {
                while queue.peek().is_some_and(|a| a.first_offset <= h.last_offset) {
                    aborted_pids.push(queue.next().map_or(0, |a| a.producer_id));
                }
                if h.control {
                    // R2: an ABORT marker ends that producer's aborted range (its control
                    // record is read only while some range is open).
                    if !aborted_pids.is_empty() && h.is_abort(&records) {
                        aborted_pids.retain(|&p| p != h.producer_id);
                    }
                    continue;
                }
                if h.transactional && aborted_pids.contains(&h.producer_id) {
                    continue;
                }
            }
            if h.control {
                continue; // R3
            }
            match records {
                FetchRecords::View(records) => {
                    // A record that does not read ends the batch, as in the decoder.
                    for rec in records.into_iter().flatten().map_while(Result::ok) {
                        if rec.offset >= from_offset && rec.offset < upper {
                            deliver(rec.offset, h.producer_id, h.transactional, rec.value);
                        }
                    }
                }
                FetchRecords::Decoded(records) => {
                    for rec in records {
                        if rec.offset >= from_offset && rec.offset < upper {
                            deliver(rec.offset, h.producer_id, h.transactional, rec.value.as_deref());
                        }
                    }
                }
            }
        }
    }

    /// The fetch through the inspector's full decoder (`decode_bytes`, the report): the reference
    /// [`Partition::fetch`] is tested against (`tests/txn_schedules.rs`, every step of random
    /// schedules; `partition/tests.rs`). Slow: not for the models.
    pub fn fetch_via_report(&self, isolation: Isolation, from_offset: i64) -> Vec<Consumed> {
        let (upper, mut aborted) = self.fetch_bounds(isolation, from_offset);
        aborted.sort_by_key(|a| a.first_offset);
        let mut queue = aborted.into_iter().peekable();
        let mut aborted_pids: Vec<i64> = Vec::new();
        let mut out = Vec::new();
        let opts = crate::decode::DecodeOptions { spans: false, ..Default::default() };
        let start = self.log.partition_point(|e| {
            let last = Batch::new_checked(&e.bytes[..]).map_or(e.base_offset, |b| e.base_offset + b.last_offset_delta() as i64);
            last < from_offset
        });
        for e in self.log[start..].iter().take_while(|e| e.base_offset < upper) {
            let r = crate::decode::decode_bytes(&e.bytes, &opts);
            let Some(b) = r.batches.first() else { continue };
            let h = &b.header;
            if h.last_offset < from_offset || h.base_offset >= upper {
                continue;
            }
            if isolation == Isolation::ReadCommitted && h.producer_id >= 0 {
                while queue.peek().is_some_and(|a| a.first_offset <= h.last_offset) {
                    aborted_pids.push(queue.next().map_or(0, |a| a.producer_id));
                }
                if h.attributes.control {
                    if b.control.as_ref().is_some_and(|c| c.type_name == "ABORT") {
                        aborted_pids.retain(|&p| p != h.producer_id);
                    }
                    continue;
                }
                if h.attributes.transactional && aborted_pids.contains(&h.producer_id) {
                    continue;
                }
            }
            if h.attributes.control {
                continue;
            }
            for rec in &b.records {
                if rec.offset >= from_offset && rec.offset < upper {
                    out.push(Consumed { offset: rec.offset, producer_id: h.producer_id, transactional: h.attributes.transactional, value: rec.value.clone() });
                }
            }
        }
        out
    }
}

/// What a fetch needs of a batch's header.
pub(super) struct FetchHeader {
    base_offset: i64,
    last_offset: i64,
    producer_id: i64,
    control: bool,
    transactional: bool,
    /// A control batch whose control record reads as an ABORT marker (`None`: not read yet,
    /// see [`FetchHeader::is_abort`]).
    abort: Option<bool>,
}

impl FetchHeader {
    pub(super) fn of(h: &crate::batch::HeaderRepr) -> Self {
        FetchHeader {
            base_offset: h.base_offset,
            last_offset: h.base_offset.wrapping_add(h.last_offset_delta as i64),
            producer_id: h.producer_id,
            control: h.attributes.is_control(),
            transactional: h.attributes.is_transactional(),
            abort: None,
        }
    }

    /// Whether this control batch's control record reads as an ABORT marker.
    pub(super) fn is_abort(&self, records: &FetchRecords<'_>) -> bool {
        match (self.abort, records) {
            (Some(abort), _) => abort,
            (None, FetchRecords::View(records)) => {
                self.control
                    && records.clone().and_then(|mut r| r.next()).is_some_and(|rec| rec.is_ok_and(|rec| is_abort_marker(rec.key, rec.value)))
            }
            (None, FetchRecords::Decoded(_)) => false,
        }
    }
}

/// Where a fetched batch's records come from.
pub(super) enum FetchRecords<'a> {
    /// Read in place with [`crate::view`] (`None`: the batch's records do not read).
    View(Option<crate::view::Records<'a>>),
    /// Already decoded by the full decoder.
    Decoded(&'a [crate::report::RecordReport]),
}

/// The decoder's default cap on a batch's decompressed size (`DecodeOptions::max_decompressed`).
pub(super) const MAX_DECOMPRESSED: usize = 64 << 20;

/// Does this control record read as an ABORT marker (the codec's `control::parse` succeeds
/// with type ABORT: a key of version ≥ 0 and type 0, an EndTransactionMarker value of ≥ 6
/// bytes and version ≥ 0)? Asked only of control batches while an aborted range is open.
pub(super) fn is_abort_marker(key: Option<&[u8]>, value: Option<&[u8]>) -> bool {
    crate::control::parse(key, value).is_ok_and(|c| c.type_id == crate::control::ControlType::Abort.id())
}
