//! Partition names, Java's hashing of them, and the batches and `__transaction_state`
//! records the world writes, built by the codec.

use super::*;

/// `orders-0` → ("orders", 0); a name without a numeric suffix is partition 0.
pub fn split_partition(p: &str) -> (String, i32) {
    let (t, n) = split_partition_ref(p);
    (t.to_string(), n)
}

/// [`split_partition`] without copying the topic.
pub(super) fn split_partition_ref(p: &str) -> (&str, i32) {
    // The last '-' (an ASCII byte: never inside a multi-byte character).
    match p.bytes().rposition(|b| b == b'-') {
        Some(at) => match p[at + 1..].parse::<i32>() {
            Ok(n) => (&p[..at], n),
            Err(_) => (p, 0),
        },
        None => (p, 0),
    }
}

/// Java's `String.hashCode` (UTF-16 code units).
pub(super) fn java_hash(s: &str) -> i32 {
    s.encode_utf16().fold(0i32, |h, c| h.wrapping_mul(31).wrapping_add(c as i32))
}

/// `HashMap.hash`: the bucket of hash `h` in a table of `cap` (a power of two).
pub(super) fn java_bucket(h: i32, cap: usize) -> usize {
    let h = h as u32;
    ((h ^ (h >> 16)) as usize) & (cap - 1)
}

/// The table size `HashMap` gives a capacity (`tableSizeFor`: the next power of two).
pub(super) fn java_table_size(n: usize) -> usize {
    n.max(1).next_power_of_two()
}

/// The partitions of a transaction grouped by topic in the order Kafka 4.3.1's
/// `TransactionLog.valueToBytes` writes them: `topicPartitions` (a `HashSet<TopicPartition>`,
/// rebuilt by `prepareAddPartitions` as `new HashSet<>(old)` plus the added ones) streamed
/// into `Collectors.groupingBy(TopicPartition::topic)` (a `HashMap<String, List>`). A
/// `HashMap` iterates its table bucket by bucket (`(h ^ h >>> 16) & (capacity − 1)`), a bucket
/// in insertion order; `TopicPartition.hashCode` is `31 · (31 + partition) + topic.hashCode()`.
/// `added` is the insertion order (one partition per transition, as the model adds them).
/// Checked against a real 4.3.1 broker's records (tests/fixtures/kafka-4.3.1/__transaction_state-32:
/// `ctp-out` before `__consumer_offsets`).
pub(crate) fn java_partition_groups(added: &[Name]) -> Vec<(String, Vec<i32>)> {
    let n = added.len();
    // The set's table: the copy of the n−1 partitions before the last add
    // (`HashSet(Collection)`: max(size / .75 + 1, 16)), doubled while the add passes 3/4 of it.
    let mut cap = java_table_size((((n.saturating_sub(1)) as f32 / 0.75) as usize + 1).max(16));
    while n > cap / 4 * 3 {
        cap *= 2;
    }
    let mut set: Vec<(usize, usize, &str, i32)> = added
        .iter()
        .enumerate()
        .map(|(k, p)| {
            let (t, n) = split_partition_ref(p);
            let h = 31i32.wrapping_mul(31i32.wrapping_add(n)).wrapping_add(java_hash(t));
            (java_bucket(h, cap), k, t, n)
        })
        .collect();
    set.sort_unstable_by_key(|x| (x.0, x.1));
    // groupingBy: topics in first-encounter order into a HashMap (16, doubled past 3/4).
    let mut topics: Vec<(&str, Vec<i32>)> = Vec::new();
    for &(_, _, t, n) in &set {
        match topics.iter_mut().find(|x| x.0 == t) {
            Some(x) => x.1.push(n),
            None => topics.push((t, alloc::vec![n])),
        }
    }
    let mut tcap = 16;
    while topics.len() > tcap / 4 * 3 {
        tcap *= 2;
    }
    let mut keyed: Vec<(usize, usize, (&str, Vec<i32>))> = topics.into_iter().enumerate().map(|(k, x)| (java_bucket(java_hash(x.0), tcap), k, x)).collect();
    keyed.sort_unstable_by_key(|x| (x.0, x.1));
    keyed.into_iter().map(|(_, _, (t, ps))| (String::from(t), ps)).collect()
}

/// The `TransactionLogValue` of `m` as `TransactionLog.valueToBytes` is given it.
pub(super) fn txn_log_value_spec(m: &coordinator::TxnMetadata, tv: u8) -> crate::internal::TxnLogValue {
    let topics = if m.added_order.len() == m.partitions.len() {
        java_partition_groups(&m.added_order)
    } else {
        // Metadata set up without its history: the set's own order.
        let mut by: BTreeMap<String, Vec<i32>> = BTreeMap::new();
        for p in &m.partitions {
            let (t, n) = split_partition(p);
            by.entry(t).or_default().push(n);
        }
        by.into_iter().collect()
    };
    crate::internal::TxnLogValue {
        producer_id: m.producer_id,
        // `TransactionLog.valueToBytes` (v1): the transit's prevProducerId and nextProducerId.
        previous_producer_id: m.transit_prev_pid,
        next_producer_id: m.next_producer_id,
        producer_epoch: m.producer_epoch,
        transaction_timeout_ms: m.txn_timeout_ms,
        transaction_status: m.state.id(),
        transaction_partitions: topics,
        transaction_last_update_timestamp_ms: m.last_update_ms,
        transaction_start_timestamp_ms: m.txn_start_ms,
        client_transaction_version: if tv >= 1 { m.client_tv as i16 } else { 0 },
    }
}

/// Write the `__transaction_state` record of `m` into `out` (cleared first): the key
/// (`TransactionLog.keyToBytes`), then the value (`valueToBytes`, version 1 when
/// transaction.version ≥ 1, else 0), both by the codec's one writer of the internal topics
/// (`internal::txn_log_key`, `internal::txn_log_value`). Returns where the value starts.
pub(super) fn txn_log_key_value(out: &mut Vec<u8>, m: &coordinator::TxnMetadata, tv: u8) -> usize {
    out.clear();
    crate::internal::txn_log_key_into(out, m.transactional_id.as_str());
    let at = out.len();
    crate::internal::txn_log_value_into(out, &txn_log_value_spec(m, tv), if tv >= 1 { 1 } else { 0 });
    at
}

/// A batch the caller built, as the log stored it: the leader's base offset and partition
/// leader epoch set (outside the CRC, as `Partition::write` does). Equal to the log's last
/// entry, which it was just appended as (checked in debug builds).
pub(super) fn as_stored(mut bytes: Vec<u8>, log: &Partition) -> Vec<u8> {
    let base = log.log.last().map_or(0, |e| e.base_offset);
    let mut b = crate::batch::Batch::new_unchecked(&mut bytes[..]);
    b.set_base_offset(base);
    b.set_partition_leader_epoch(log.leader_epoch);
    debug_assert_eq!(Some(&bytes), log.log.last().map(|e| &e.bytes), "the record keeps what the log stores");
    bytes
}

/// How many distinct partitions the records `of` (indexes into `records`) were written to.
pub(super) fn distinct_partitions(records: &[LogRecord], of: &[usize]) -> usize {
    if of.len() <= 32 {
        (0..of.len()).filter(|&k| !of[..k].iter().any(|&j| records[j].partition == records[of[k]].partition)).count()
    } else {
        of.iter().map(|&r| records[r].partition.as_str()).collect::<BTreeSet<_>>().len()
    }
}

/// Set a producer's next sequence for `partition`.
pub(super) fn set_sequence(sequences: &mut BTreeMap<String, i32>, partition: &str, seq: i32) {
    match sequences.get_mut(partition) {
        Some(s) => *s = seq,
        None => {
            sequences.insert(partition.into(), seq);
        }
    }
}

/// A new epoch (or producer id): every partition's sequence starts again at 0, as it does for
/// a partition never written to.
pub(super) fn restart_sequences(sequences: &mut BTreeMap<String, i32>) {
    for s in sequences.values_mut() {
        *s = 0;
    }
}

/// Set a consumer's position on `partition`.
pub(super) fn set_position(positions: &mut BTreeMap<String, i64>, partition: &str, offset: i64) {
    match positions.get_mut(partition) {
        Some(o) => *o = offset,
        None => {
            positions.insert(partition.into(), offset);
        }
    }
}

/// A TV1 leader's verify-only AddPartitionsToTxn (V3), as data.
#[derive(Clone, Copy)]
pub(super) enum Verify {
    NoState,
    NotOwner,
    Fenced(i16),
    Completing,
    Added,
    NotAdded,
}

impl Verify {
    pub(super) fn error(self) -> ErrorCode {
        match self {
            Verify::NoState | Verify::NotOwner => ErrorCode::INVALID_PRODUCER_ID_MAPPING,
            Verify::Fenced(_) => ErrorCode::INVALID_PRODUCER_EPOCH,
            Verify::Completing => ErrorCode::NOT_ENOUGH_REPLICAS,
            Verify::Added => ErrorCode::NONE,
            Verify::NotAdded => ErrorCode::TRANSACTION_ABORTABLE,
        }
    }

    /// The coordinator's own answer (V3), before the leader maps it (V5).
    pub(super) fn coordinator_error(self) -> ErrorCode {
        match self {
            Verify::Fenced(_) => ErrorCode::PRODUCER_FENCED,
            Verify::Completing => ErrorCode::CONCURRENT_TRANSACTIONS,
            v => v.error(),
        }
    }

    pub(super) fn why(self, pid: i64, epoch: i16, id: &str, pname: &str) -> String {
        match self {
            Verify::NoState => format!("no transaction state for {id}"),
            Verify::NotOwner => format!("producer {pid} does not own {id}"),
            Verify::Fenced(current) => format!("epoch {epoch} ≠ {current}: fenced (PRODUCER_FENCED, mapped to 47 by the leader, V5)"),
            Verify::Completing => String::from("CONCURRENT_TRANSACTIONS, mapped to NOT_ENOUGH_REPLICAS for a TV1 client (V5)"),
            Verify::Added => format!("{pname} is in {id}'s transaction"),
            Verify::NotAdded => format!("{pname} was not added to the transaction"),
        }
    }
}

pub(super) fn data_batch(pid: i64, epoch: i16, seq: i32, transactional: bool, values: &[String], now: i64) -> Vec<u8> {
    raw_batch_with(pid, epoch, seq, transactional, values.len(), |i| (None, Some(values[i].as_bytes())), now)
}

pub(super) fn records_batch(pid: i64, epoch: i16, seq: i32, transactional: bool, recs: &[(Vec<u8>, Vec<u8>)], now: i64) -> Vec<u8> {
    let recs: Vec<KeyValue<'_>> = recs.iter().map(|(k, v)| (Some(&k[..]), Some(&v[..]))).collect();
    raw_batch(pid, epoch, seq, transactional, &recs, now)
}

/// A non-idempotent batch (producerId −1) of one record: the coordinator's own appends.
pub(super) fn plain_batch(key: &[u8], value: &[u8], now: i64) -> Vec<u8> {
    raw_batch(-1, -1, -1, false, &[(Some(key), Some(value))], now)
}

/// The v2 batch (no compression, CreateTime, every record at `now`, no headers) that a Java
/// client writes for these records, by the codec's one writer ([`BatchWriter`]).
pub(super) fn raw_batch(pid: i64, epoch: i16, seq: i32, transactional: bool, recs: &[KeyValue<'_>], now: i64) -> Vec<u8> {
    raw_batch_with(pid, epoch, seq, transactional, recs.len(), |i| recs[i], now)
}

/// A record's (key, value).
pub(super) type KeyValue<'a> = (Option<&'a [u8]>, Option<&'a [u8]>);

/// [`raw_batch`] of `n` records, the `i`-th given by `rec(i)` (key, value), written straight
/// into one exact-size buffer.
pub(super) fn raw_batch_with<'a>(pid: i64, epoch: i16, seq: i32, transactional: bool, n: usize, rec: impl Fn(usize) -> KeyValue<'a>, now: i64) -> Vec<u8> {
    let writer = BatchWriter::producer(pid, epoch, seq, transactional, now);
    let rec = &rec;
    let records = (0..n).map(move |i| {
        let (key, value) = rec(i);
        Record { offset_delta: i as i32, key, value, ..Record::default() }
    });
    writer.write_v2_from(records).expect("model batches are far below 2 GiB")
}
