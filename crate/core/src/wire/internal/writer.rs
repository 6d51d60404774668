//! Writing the internal topics' keys and values (the generated `write(Writable, version)`).

#[allow(unused_imports)]
use super::*;

/// Java strings of a Kafka message are at most 0x7fff UTF-8 bytes (the generated `write`
/// throws beyond that); longer input is cut at the last char boundary that fits.
pub(crate) fn clamp(s: &str) -> &[u8] {
    if s.len() <= 0x7fff {
        return s.as_bytes();
    }
    let mut end = 0x7fff;
    while !s.is_char_boundary(end) {
        end -= 1;
    }
    &s.as_bytes()[..end]
}

pub(crate) fn put_string(out: &mut Vec<u8>, s: &str, flexible: bool) {
    let b = clamp(s);
    if flexible {
        write::unsigned_varint(out, b.len() as u32 + 1);
    } else {
        out.extend_from_slice(&(b.len() as i16).to_be_bytes());
    }
    out.extend_from_slice(b);
}

/// Array length: `None` = null.
pub(crate) fn put_array_len(out: &mut Vec<u8>, n: Option<usize>, flexible: bool) {
    match (n, flexible) {
        (None, true) => out.push(0),
        (None, false) => out.extend_from_slice(&(-1i32).to_be_bytes()),
        (Some(n), true) => write::unsigned_varint(out, (n as u32).saturating_add(1)),
        (Some(n), false) => out.extend_from_slice(&(n as i32).to_be_bytes()),
    }
}

/// `TransactionLog.keyToBytes`: record type 0, then `TransactionLogKey` v0
/// (`TransactionalId`: int16 length + UTF-8).
pub fn txn_log_key(transactional_id: &str) -> Vec<u8> {
    let mut out = Vec::with_capacity(4 + transactional_id.len());
    txn_log_key_into(&mut out, transactional_id);
    out
}

/// [`txn_log_key`], appended to `out` (no allocation of its own: the models' path).
pub fn txn_log_key_into(out: &mut Vec<u8>, transactional_id: &str) {
    out.extend_from_slice(&TRANSACTION_LOG_RECORD_TYPE.to_be_bytes());
    put_string(out, transactional_id, false);
}

/// `TransactionLog.valueToBytes`: value version 0 (TV0) or 1 (flexible, TV1+), as Kafka
/// writes it for the finalized `transaction.version`; any other `version` is written as 1
/// when > 1 and as 0 when < 0 (the only versions that exist). `TransactionPartitions` is
/// written `null` when the status is Empty and there are no partitions (Kafka refuses an
/// Empty state with partitions; they are written as given here). In v1 the tagged fields
/// PreviousProducerId (tag 0), NextProducerId (tag 1) and ClientTransactionVersion (tag 2)
/// are written only when they differ from their defaults (−1, −1, 0), as the generated
/// `write` does.
pub fn txn_log_value(v: &TxnLogValue, version: i16) -> Vec<u8> {
    let mut out = Vec::with_capacity(
        64 + v
            .transaction_partitions
            .iter()
            .map(|(t, p)| 8 + t.len() + 4 * p.len())
            .sum::<usize>(),
    );
    txn_log_value_into(&mut out, v, version);
    out
}

/// [`txn_log_value`], appended to `out` (no allocation of its own: the models' path).
pub fn txn_log_value_into(out: &mut Vec<u8>, v: &TxnLogValue, version: i16) {
    let version = version.clamp(0, TXN_LOG_VALUE_MAX_VERSION);
    let flexible = version >= 1;
    out.extend_from_slice(&version.to_be_bytes());
    out.extend_from_slice(&v.producer_id.to_be_bytes());
    out.extend_from_slice(&v.producer_epoch.to_be_bytes());
    out.extend_from_slice(&v.transaction_timeout_ms.to_be_bytes());
    out.push(v.transaction_status as u8);
    let null = v.transaction_status == txn_state::EMPTY && v.transaction_partitions.is_empty();
    put_array_len(
        out,
        (!null).then_some(v.transaction_partitions.len()),
        flexible,
    );
    if !null {
        for (topic, parts) in &v.transaction_partitions {
            put_string(out, topic, flexible);
            put_array_len(out, Some(parts.len()), flexible);
            for p in parts {
                out.extend_from_slice(&p.to_be_bytes());
            }
            if flexible {
                out.push(0); // PartitionsSchema's (empty) tagged fields
            }
        }
    }
    out.extend_from_slice(&v.transaction_last_update_timestamp_ms.to_be_bytes());
    out.extend_from_slice(&v.transaction_start_timestamp_ms.to_be_bytes());
    if flexible {
        // Tagged fields in tag order, each only when it differs from its default.
        let (prev, next, client) = (v.previous_producer_id != -1, v.next_producer_id != -1, v.client_transaction_version != 0);
        write::unsigned_varint(out, u32::from(prev) + u32::from(next) + u32::from(client));
        let tag = |out: &mut Vec<u8>, tag: u32, data: &[u8]| {
            write::unsigned_varint(out, tag);
            write::unsigned_varint(out, data.len() as u32);
            out.extend_from_slice(data);
        };
        if prev {
            tag(out, 0, &v.previous_producer_id.to_be_bytes());
        }
        if next {
            tag(out, 1, &v.next_producer_id.to_be_bytes());
        }
        if client {
            tag(out, 2, &v.client_transaction_version.to_be_bytes());
        }
    }
}

/// `GroupCoordinatorRecordHelpers.newOffsetCommitRecord`'s key: record type 1
/// (OffsetCommit), then `OffsetCommitKey` (`group`, `topic`: int16 length + UTF-8;
/// `partition`: int32).
pub fn offset_commit_key(group: &str, topic: &str, partition: i32) -> Vec<u8> {
    let mut out = Vec::with_capacity(10 + group.len() + topic.len());
    out.extend_from_slice(&OFFSET_COMMIT_RECORD_TYPE.to_be_bytes());
    put_string(&mut out, group, false);
    put_string(&mut out, topic, false);
    out.extend_from_slice(&partition.to_be_bytes());
    out
}

/// The value Kafka 4.3.1 writes for a commit without an expire timestamp:
/// `OffsetCommitValue` version 4 (flexible: `offset` int64, `leaderEpoch` int32, `metadata`
/// compact string, `commitTimestamp` int64, no tagged fields), byte for byte as the 4.3.1
/// broker wrote `tests/fixtures/kafka-4.3.1/__consumer_offsets-10`.
pub fn offset_commit_value(c: &OffsetCommit) -> Vec<u8> {
    offset_commit_value_version(c, OFFSET_COMMIT_VALUE_VERSION)
}

/// `OffsetCommitValue` at `version` 3 (int16-length metadata, as Kafka 4.0–4.2 wrote it) or 4
/// (flexible); any other version is written as the nearer of the two. Version 1's
/// `expireTimestamp` is never written by Kafka 4.x for a commit without one.
pub fn offset_commit_value_version(c: &OffsetCommit, version: i16) -> Vec<u8> {
    let version = version.clamp(3, OFFSET_COMMIT_VALUE_MAX_VERSION);
    let flexible = version >= 4;
    let mut out = Vec::with_capacity(27 + c.metadata.len());
    out.extend_from_slice(&version.to_be_bytes());
    out.extend_from_slice(&c.offset.to_be_bytes());
    out.extend_from_slice(&c.leader_epoch.to_be_bytes());
    put_string(&mut out, &c.metadata, flexible);
    out.extend_from_slice(&c.commit_timestamp_ms.to_be_bytes());
    if flexible {
        out.push(0); // no tagged fields
    }
    out
}
