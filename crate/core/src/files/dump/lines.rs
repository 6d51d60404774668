//! The lines `DumpLogSegments` prints for a batch and a record, as Java formats them.

use super::*;

/// `new String(bytes, UTF_8)` (`StringDecoder`): malformed sequences become U+FFFD.
pub fn java_string(b: &[u8]) -> String {
    String::from(alloc::string::String::from_utf8_lossy(b))
}

/// `DumpLogSegments.printBatchLevel` for a batch at file position `position` (no newline).
pub fn batch_line(b: &BatchReport, position: usize) -> String {
    let h = &b.header;
    let a = &h.attributes;
    let mut s = if b.magic >= 2 {
        let horizon = if a.delete_horizon {
            format!("OptionalLong[{}]", h.base_timestamp)
        } else {
            String::from("OptionalLong.empty")
        };
        format!(
            "baseOffset: {} lastOffset: {} count: {} baseSequence: {} lastSequence: {} producerId: {} producerEpoch: {} partitionLeaderEpoch: {} isTransactional: {} isControl: {} deleteHorizonMs: {horizon}",
            h.base_offset, h.last_offset, h.records_count, h.base_sequence, h.last_sequence, h.producer_id,
            h.producer_epoch, h.partition_leader_epoch, a.transactional, a.control
        )
    } else {
        format!("offset: {}", h.last_offset)
    };
    s.push_str(&format!(
        " position: {position} {}: {} size: {} magic: {} compresscodec: {} crc: {} isvalid: {}",
        timestamp_type(b),
        h.max_timestamp,
        b.end - b.start,
        h.magic,
        a.compression,
        h.crc,
        h.crc_valid
    ));
    s
}

/// `batch.timestampType()`: `NoTimestampType` for magic 0.
pub(super) fn timestamp_type(b: &BatchReport) -> &'static str {
    if b.magic == 0 {
        "NoTimestampType"
    } else {
        b.header.attributes.timestamp_type
    }
}

/// `DumpLogSegments.printRecordMetadata` (no newline): offset, timestamp, sizes, then for v2
/// sequence and header keys, for magic 0/1 `isValid` and `crc`, then a control record's marker.
pub fn record_line(b: &BatchReport, r: &RecordReport) -> String {
    let size = |v: &Option<Vec<u8>>| v.as_ref().map_or(-1, |v| v.len() as i64);
    let mut s = format!(
        "| offset: {} {}: {} keySize: {} valueSize: {}",
        r.offset,
        timestamp_type(b),
        r.timestamp,
        size(&r.key),
        size(&r.value)
    );
    if b.magic >= 2 {
        let keys: Vec<&str> = r.headers.iter().map(|h| h.key.as_str()).collect();
        s.push_str(&format!(
            " sequence: {} headerKeys: [{}]",
            r.sequence,
            keys.join(",")
        ));
    } else {
        s.push_str(&format!(
            " isValid: {} crc: {}",
            b.header.crc_valid, b.header.crc
        ));
    }
    if b.header.attributes.control && b.magic >= 2 {
        if let Some(c) = &b.control {
            match c.coordinator_epoch {
                Some(e) => s.push_str(&format!(
                    " endTxnMarker: {} coordinatorEpoch: {e}",
                    c.type_name
                )),
                None => s.push_str(&format!(" controlType: {}({})", c.type_name, c.type_id)),
            }
        }
    }
    s
}
