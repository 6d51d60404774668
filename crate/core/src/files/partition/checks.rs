//! The files of a partition directory checked against the replay of its log: each
//! `.snapshot`, the `leader-epoch-checkpoint`, and each index through Kafka's own `sanityCheck`.

use super::*;

pub(super) fn compare_snapshot(
    name: &str,
    offset: i64,
    stored: &[ProducerEntry],
    replayed: &[ProducerEntry],
    log_start: i64,
    out: &mut Vec<Check>,
) {
    let mut bad = Vec::new();
    let mut notes = Vec::new();
    for s in stored {
        match replayed.iter().find(|r| r.producer_id == s.producer_id) {
            Some(r) if r == s => {}
            Some(r) => bad.push(format!("producer {}: {}", s.producer_id, entry_diff(s, r))),
            None if log_start > 0 => notes.push(format!(
                "producer {} is not in the log from offset {log_start}: its batches were deleted, the snapshot keeps it",
                s.producer_id
            )),
            None => bad.push(format!("producer {}: the log has no batch of this producer", s.producer_id)),
        }
    }
    for r in replayed.iter().filter(|r| !stored.iter().any(|s| s.producer_id == r.producer_id)) {
        // ProducerStateManager.removeExpiredProducers runs before a snapshot is taken: an idle
        // producer past producer.id.expiration.ms is not written.
        notes.push(format!(
            "producer {} is in the log but not in the snapshot: expired before it was taken (no open transaction; last timestamp {})",
            r.producer_id, r.timestamp
        ));
    }
    let what = format!("{} producer(s) against the log replayed to offset {offset}", stored.len());
    let ok = bad.is_empty();
    bad.extend(notes);
    out.push(check(name, ok, what, bad.join("; ")));
}

/// The fields of two entries that differ, by the schema's names (`ProducerSnapshot.json`).
pub fn differing_fields(s: &ProducerEntry, r: &ProducerEntry) -> Vec<&'static str> {
    let pairs: [(&'static str, i64, i64); 7] = [
        ("producerEpoch", s.epoch as i64, r.epoch as i64),
        ("lastSequence", s.last_sequence as i64, r.last_sequence as i64),
        ("lastOffset", s.last_offset, r.last_offset),
        ("offsetDelta", s.offset_delta as i64, r.offset_delta as i64),
        ("timestamp", s.timestamp, r.timestamp),
        ("coordinatorEpoch", s.coordinator_epoch as i64, r.coordinator_epoch as i64),
        ("currentTxnFirstOffset", s.current_txn_first_offset, r.current_txn_first_offset),
    ];
    pairs.iter().filter(|(_, a, b)| a != b).map(|(n, _, _)| *n).collect()
}

/// Every producer of the snapshot or of the replayed log, by producer id.
pub(super) fn side_by_side(stored: &[ProducerEntry], rebuilt: &[ProducerEntry]) -> Vec<SnapshotProducer> {
    let mut ids: Vec<i64> = stored.iter().chain(rebuilt).map(|e| e.producer_id).collect();
    ids.sort_unstable();
    ids.dedup();
    ids.into_iter()
        .map(|pid| {
            let s = stored.iter().find(|e| e.producer_id == pid).copied();
            let r = rebuilt.iter().find(|e| e.producer_id == pid).copied();
            let differs = match (&s, &r) {
                (Some(s), Some(r)) => differing_fields(s, r),
                _ => Vec::new(),
            };
            SnapshotProducer { producer_id: pid, stored: s, rebuilt: r, differs }
        })
        .collect()
}

/// `leader-epoch-checkpoint` against the epochs the log's batches carry. `LeaderEpochFileCache`
/// keeps epochs and start offsets strictly increasing (`assign` → `maybeTruncateNonMonotonicEntries`
/// drops any entry at or above a new one); the broker assigns an epoch at the first batch it
/// appends in it (`UnifiedLog.append` → `maybeAssignEpochStartOffset(batch.partitionLeaderEpoch,
/// batch.baseOffset)`, as `LogSegment.recover` does when it rebuilds the cache), and at the log end
/// offset when it becomes leader (`Partition.makeLeader`): the last entry may name an epoch no
/// batch carries yet, starting at the log end. `truncateFromStart` moves the first entry to the log
/// start offset (`log-start-offset-checkpoint` is in the log dir, not here).
pub(super) fn check_leader_epochs(name: &str, cp: &[EpochStart], log: &[EpochStart], log_start: i64, log_end: i64, out: &mut Vec<Check>) {
    let mut bad = Vec::new();
    let mut notes = Vec::new();
    for w in cp.windows(2) {
        if w[1].epoch <= w[0].epoch || w[1].start_offset <= w[0].start_offset {
            bad.push(format!(
                "epoch {} at offset {} after epoch {} at offset {}: epochs and start offsets must both increase (LeaderEpochFileCache.assign drops an entry that does not)",
                w[1].epoch, w[1].start_offset, w[0].epoch, w[0].start_offset
            ));
        }
    }
    for (i, l) in log.iter().enumerate() {
        match cp.iter().find(|c| c.epoch == l.epoch) {
            None => bad.push(format!(
                "the log's first batch of leader epoch {} is at offset {}; the checkpoint has no entry for epoch {}",
                l.epoch, l.start_offset, l.epoch
            )),
            Some(c) if c.start_offset == l.start_offset => {}
            Some(c)
                if i == 0
                    && c == &cp[0]
                    && c.start_offset > log_start.min(l.start_offset)
                    && c.start_offset <= log_end
                    && log.get(1).is_none_or(|n| c.start_offset < n.start_offset) => notes.push(format!(
                "epoch {} starts at offset {} in the checkpoint, its first batch here is at {}: the log start offset moved into it (truncateFromStart)",
                c.epoch, c.start_offset, l.start_offset
            )),
            Some(c) => bad.push(format!(
                "epoch {} starts at offset {} in the checkpoint, but the log's first batch of epoch {} is at offset {}",
                c.epoch, c.start_offset, l.epoch, l.start_offset
            )),
        }
    }
    let last_log_epoch = log.last().map_or(-1, |l| l.epoch);
    let first_log_epoch = log.first().map_or(i32::MAX, |l| l.epoch);
    for (i, c) in cp.iter().enumerate().filter(|(_, c)| !log.iter().any(|l| l.epoch == c.epoch)) {
        if i + 1 == cp.len() && c.epoch > last_log_epoch && c.start_offset == log_end {
            notes.push(format!(
                "epoch {} from offset {}: the leader's epoch since the log end, no batch written in it yet (Partition.makeLeader assigns it at the log end offset)",
                c.epoch, c.start_offset
            ));
        } else if i == 0 && c.epoch < first_log_epoch && c.start_offset <= log_start {
            notes.push(format!("epoch {} from offset {}: before the log's first batch (deleted segments)", c.epoch, c.start_offset));
        } else if c.start_offset > log_end {
            bad.push(format!("epoch {} starts at offset {}, past the log end {log_end}", c.epoch, c.start_offset));
        } else {
            bad.push(format!("epoch {} from offset {}: no batch of the log carries leader epoch {}", c.epoch, c.start_offset, c.epoch));
        }
    }
    let what = format!(
        "{} entries (epoch → start offset) against the leader epochs of the log's batches (LeaderEpochFileCache, as LogSegment.recover rebuilds it)",
        cp.len()
    );
    let ok = bad.is_empty();
    bad.extend(notes);
    out.push(check(name, ok, what, bad.join("; ")));
}

/// An index through Kafka's own `sanityCheck` (what `kafka-dump-log --index-sanity-check`
/// prints: "… passed sanity check." or the exception). `zero_tail`: the file ends in zero
/// entries that the entry check stopped at — an active segment's preallocated space
/// (`AbstractIndex.resize` to `segment.index.bytes`, trimmed by `trimToValidSize` when the
/// segment closes); `TimeIndex.sanityCheck` reads the last of those zeros as the last entry and
/// fails, which is then no disagreement with the log (the broker itself skips this check when it
/// loads a segment: `LogSegment.sanityCheck` checks only the `.txnindex`).
pub(super) fn sanity(name: &str, class: &str, result: Result<(), crate::files::FileError>, zero_tail: bool, out: &mut Vec<Check>) {
    let what = format!("{class}.sanityCheck (kafka-dump-log --index-sanity-check)");
    match result {
        Ok(()) => out.push(check(name, true, what, String::new())),
        Err(e) => {
            let said = format!("{}: {} (at byte {})", crate::files::java_class(e.kind), e.message, e.at);
            if zero_tail {
                out.push(check(
                    name,
                    true,
                    what,
                    format!("kafka-dump-log would print {said} — the zero entries at the end are a running broker's preallocated space, not entries"),
                ));
            } else {
                out.push(check(name, false, what, said));
            }
        }
    }
}

pub(super) fn entry_diff(s: &ProducerEntry, r: &ProducerEntry) -> String {
    let mut d = Vec::new();
    let mut f = |n: &str, a: i64, b: i64| {
        if a != b {
            d.push(format!("{n}: snapshot {a}, log {b}"));
        }
    };
    f("producerEpoch", s.epoch as i64, r.epoch as i64);
    f("lastSequence", s.last_sequence as i64, r.last_sequence as i64);
    f("lastOffset", s.last_offset, r.last_offset);
    f("offsetDelta", s.offset_delta as i64, r.offset_delta as i64);
    f("timestamp", s.timestamp, r.timestamp);
    f("coordinatorEpoch", s.coordinator_epoch as i64, r.coordinator_epoch as i64);
    f("currentTxnFirstOffset", s.current_txn_first_offset, r.current_txn_first_offset);
    d.join("; ")
}

/// The entries of `ix` against the log, up to its zero tail, as one check: `each` looks at one
/// entry (pushing what disagrees), `offset` is an entry's absolute offset, `zero` whether it
/// reads as an all-zero entry. The number of entries before the tail is returned.
pub(super) fn check_index_entries<E: IndexEntry>(
    name: &str,
    ix: &SegmentIndex<&[u8], E>,
    seg: &[&(usize, usize, Appended)],
    offset: impl Fn(&E) -> i64,
    zero: impl Fn(&E) -> bool,
    mut each: impl FnMut(&E, &mut Vec<String>),
    each_is: &str,
    out: &mut Vec<Check>,
) -> usize {
    let base = ix.base_offset();
    let mut bad = Vec::new();
    let mut n = 0;
    for (i, e) in ix.iter().enumerate() {
        // DumpLogSegments.dumpIndex / dumpTimeIndex: "since it is a sparse file, in the event of a
        // crash there may be many zero entries, stop if we see one" — and a running broker's
        // active segment has its index preallocated (AbstractIndex.resize to segment.index.bytes),
        // zeros past the entries. An all-zero first entry is the same tail (an index with no entry
        // yet: a Produce writes one only every index.interval.bytes), unless the first batch
        // really ends at the base.
        let empty_head = i == 0 && zero(&e) && seg.first().is_some_and(|(_, _, b)| last_of(b) != base);
        if (offset(&e) == base && i > 0) || empty_head {
            break;
        }
        n += 1;
        each(&e, &mut bad);
    }
    let tail = if n < ix.entries() { format!(" (then {} zero entries: preallocated space of an active segment)", ix.entries() - n) } else { String::new() };
    let what = format!("{n} entries against the log (each: {each_is}){tail}");
    out.push(check(name, bad.is_empty(), what, bad.join("; ")));
    n
}

pub(super) fn check_offset_index(name: &str, bytes: &[u8], base: i64, seg: &[&(usize, usize, Appended)], out: &mut Vec<Check>) {
    let ix = OffsetIndex::new(bytes, base);
    let mut prev = i64::MIN;
    let each = |e: &OffsetPosition, bad: &mut Vec<String>| {
        if e.offset <= prev {
            bad.push(format!("offset {} after {prev}: not increasing", e.offset));
        }
        prev = e.offset;
        match seg.iter().find(|(_, pos, _)| *pos as i64 == e.position as i64) {
            None => bad.push(format!("offset {} → position {}: no batch starts there", e.offset, e.position)),
            Some((_, _, b)) => {
                let last = b.header.base_offset.wrapping_add(b.header.last_offset_delta as i64);
                if last != e.offset {
                    bad.push(format!("offset {} → position {}: that batch's last offset is {last}", e.offset, e.position));
                }
            }
        }
    };
    let zero = |e: &OffsetPosition| e.offset == base && e.position == 0;
    let n = check_index_entries(name, &ix, seg, |e| e.offset, zero, each, "a batch's last offset → its position", out);
    sanity(name, "OffsetIndex", ix.sanity_check(name), n < ix.entries(), out);
}

pub(super) fn check_time_index(name: &str, bytes: &[u8], base: i64, seg: &[&(usize, usize, Appended)], out: &mut Vec<Check>) {
    let ix = TimeIndex::new(bytes, base);
    let mut prev = (i64::MIN, i64::MIN);
    let each = |e: &TimestampOffset, bad: &mut Vec<String>| {
        if e.timestamp < prev.0 || e.offset < prev.1 {
            bad.push(format!("({}, {}) after ({}, {}): not monotonic", e.timestamp, e.offset, prev.0, prev.1));
        }
        prev = (e.timestamp, e.offset);
        let hit = seg.iter().find(|(_, _, b)| b.header.base_offset.wrapping_add(b.header.last_offset_delta as i64) == e.offset);
        match hit {
            None => bad.push(format!("timestamp {} → offset {}: no batch ends there", e.timestamp, e.offset)),
            Some((_, _, b)) if b.header.max_timestamp != e.timestamp => bad.push(format!(
                "timestamp {} → offset {}: that batch's max timestamp is {}",
                e.timestamp, e.offset, b.header.max_timestamp
            )),
            Some(_) => {}
        }
    };
    let zero = |e: &TimestampOffset| e.offset == base && e.timestamp == 0;
    let n = check_index_entries(name, &ix, seg, |e| e.offset, zero, each, "a batch's max timestamp → its last offset", out);
    sanity(name, "TimeIndex", ix.sanity_check(name), n < ix.entries(), out);
}

pub(super) fn check_txn_index(name: &str, bytes: &[u8], base: i64, expected: &[AbortedTxn], out: &mut Vec<Check>) {
    let ix = TransactionIndex::new(bytes, base);
    sanity(name, "TransactionIndex", ix.sanity_check(name), false, out);
    let stored = match ix.all_aborted_txns(name) {
        Ok(v) => v,
        Err(e) => {
            out.push(check(name, false, String::from("its entries"), format!("{} at byte {}: {}", e.kind, e.at, e.message)));
            return;
        }
    };
    let what = format!("{} aborted transaction(s) against the ABORT markers of the log", stored.len());
    let fmt = |a: &AbortedTxn| {
        format!("(producerId {} firstOffset {} lastOffset {} lastStableOffset {})", a.producer_id, a.first_offset, a.last_offset, a.last_stable_offset)
    };
    let mut bad = Vec::new();
    for s in &stored {
        if !expected.iter().any(|e| e.producer_id == s.producer_id && e.first_offset == s.first_offset && e.last_offset == s.last_offset && e.last_stable_offset == s.last_stable_offset) {
            bad.push(format!("{} is not an aborted transaction of the log", fmt(s)));
        }
    }
    for e in expected {
        if !stored.iter().any(|s| e.producer_id == s.producer_id && e.first_offset == s.first_offset && e.last_offset == s.last_offset) {
            bad.push(format!("the log aborts {} but the index does not list it", fmt(e)));
        }
    }
    out.push(check(name, bad.is_empty(), what, bad.join("; ")));
}
