//! Printing internal-topic records as `kafka-console-consumer --formatter` and
//! `kafka-dump-log --transaction-log-decoder` / `--offsets-decoder` do.

#[allow(unused_imports)]
use super::*;

/// What the formatter does with one record.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Formatted {
    /// The line it prints (without the trailing newline the console consumer adds).
    Printed(String),
    /// It prints nothing; the reason, for people.
    Skipped(String),
}

/// Parse a record of either topic (chosen by `topic`), returning the formatter's text or a
/// precise error with byte offset; never panics on arbitrary bytes. A record the formatter
/// prints nothing for (no key, a record type it does not show) gives an empty string; see
/// [`format_record_detailed`] for the reason.
pub fn format_record(
    topic: InternalTopic,
    key: Option<&[u8]>,
    value: Option<&[u8]>,
) -> Result<String, InternalError> {
    format_record_detailed(topic, key, value).map(|f| match f {
        Formatted::Printed(s) => s,
        Formatted::Skipped(_) => String::new(),
    })
}

/// [`format_record`], saying why nothing is printed when that is the case.
///
/// Follows `CoordinatorRecordMessageFormatter.writeTo`: a `null` key prints nothing; an
/// unknown record type prints nothing (`UnknownRecordTypeException`); `__consumer_offsets`
/// records other than offset commits (types 0, 1) print nothing (`OffsetsMessageFormatter`
/// allows only those); a `null` value prints `"value":null`; anything unreadable is an error
/// (Kafka: `RuntimeException("Could not read record at offset N due to: …")`). Bytes after the
/// message are ignored, as the generated `read` does.
///
/// One deviation: Kafka parses a group-metadata or consumer-group record before deciding not
/// to print it, so a malformed one is an error there; here it is skipped unread.
pub fn format_record_detailed(
    topic: InternalTopic,
    key: Option<&[u8]>,
    value: Option<&[u8]>,
) -> Result<Formatted, InternalError> {
    let Some(key) = key else {
        return Ok(Formatted::Skipped(String::from(
            "the record has no key: the formatter prints nothing",
        )));
    };
    let t = read_version(key, false)?;
    let mut out = String::with_capacity(96 + key.len() * 2 + value.map_or(0, |v| v.len() * 3));
    let supported = match topic {
        InternalTopic::TransactionState => t == TRANSACTION_LOG_RECORD_TYPE,
        InternalTopic::ConsumerOffsets => {
            t == LEGACY_OFFSET_COMMIT_RECORD_TYPE || t == OFFSET_COMMIT_RECORD_TYPE
        }
    };
    if !supported {
        return Ok(Formatted::Skipped(match topic {
            InternalTopic::TransactionState => format!(
                "record type {t} is unknown in __transaction_state (only 0, TransactionLog): the formatter prints nothing"
            ),
            InternalTopic::ConsumerOffsets => match group_record_name(t) {
                Some(n) => format!("record type {t} ({n}) is not an offset commit: OffsetsMessageFormatter prints nothing"),
                None => format!(
                    "record type {t} is not an offset commit (a consumer/share/streams group record, or unknown): OffsetsMessageFormatter prints nothing"
                ),
            },
        }));
    }
    out.push_str(&format!("{{\"key\":{{\"type\":{t},\"data\":"));
    out.push_str(&key_data_json(topic, key)?);
    out.push_str("},\"value\":");
    match value {
        None => out.push_str("null"),
        Some(v) => {
            let (version, data) = value_data_json(topic, v)?;
            out.push_str(&format!("{{\"version\":{version},\"data\":{data}}}"));
        }
    }
    out.push('}');
    Ok(Formatted::Printed(out))
}

/// The `data` JSON of a supported key (`TransactionLogKey`, `OffsetCommitKey`), as the
/// generated `*JsonConverter.write` prints it.
pub(crate) fn key_data_json(topic: InternalTopic, key: &[u8]) -> Result<String, InternalError> {
    let mut out = String::with_capacity(32 + key.len() * 2);
    match topic {
        InternalTopic::TransactionState => {
            let id = parse_txn_log_key(key)?;
            out.push_str("{\"transactionalId\":");
            json_str(&mut out, &id);
            out.push('}');
        }
        InternalTopic::ConsumerOffsets => {
            let k = parse_offset_commit_key(key)?;
            out.push_str("{\"group\":");
            json_str(&mut out, &k.group);
            out.push_str(",\"topic\":");
            json_str(&mut out, &k.topic);
            out.push_str(&format!(",\"partition\":{}}}", k.partition));
        }
    }
    Ok(out)
}

/// The value version and `data` JSON of a supported value (`TransactionLogValue`,
/// `OffsetCommitValue`).
pub(crate) fn value_data_json(topic: InternalTopic, v: &[u8]) -> Result<(i16, String), InternalError> {
    let mut out = String::with_capacity(64 + v.len() * 3);
    match topic {
        InternalTopic::TransactionState => {
            let p = parse_txn_log_value(v)?;
            txn_value_json(&mut out, &p);
            Ok((p.version, out))
        }
        InternalTopic::ConsumerOffsets => {
            let p = parse_offset_commit_value(v)?;
            out.push_str(&format!("{{\"offset\":{}", p.offset));
            if p.version >= 3 {
                out.push_str(&format!(",\"leaderEpoch\":{}", p.leader_epoch));
            }
            out.push_str(",\"metadata\":");
            json_str(&mut out, &p.metadata);
            out.push_str(&format!(",\"commitTimestamp\":{}", p.commit_timestamp_ms));
            if p.version == 1 {
                out.push_str(&format!(",\"expireTimestamp\":{}", p.expire_timestamp_ms));
            }
            if let Some(id) = p.topic_id {
                out.push_str(",\"topicId\":\"");
                base64url(&mut out, &id);
                out.push('"');
            }
            out.push('}');
            Ok((p.version, out))
        }
    }
}

/// What `kafka-dump-log --transaction-log-decoder` / `--offsets-decoder` prints for one data
/// record (`DumpLogSegments.CoordinatorRecordMessageParser.parse`): `key` and `payload`
/// texts, each printed only when present.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DumpLogParsed {
    pub key: Option<String>,
    pub payload: Option<String>,
    /// Set when eoslab cannot print this record as Kafka does (a `__consumer_offsets` record
    /// type other than an offset commit: Kafka prints its JSON, eoslab does not know the
    /// schema); `key` then says so.
    pub unsupported: bool,
}

/// The text Java's `getMessage()` gives where eoslab's says more: a `ByteBuffer` underflow
/// (`BufferUnderflowException`) has no message, so Kafka prints `null` where eoslab's
/// [`super::parser`] names the missing bytes (kafka-dump-log 4.3.1 `--offsets-decoder` on a
/// `__transaction_state` segment: `… from key's buffer due to: null.`).
fn java_message(m: &str) -> String {
    const UNDERFLOW: &str = "java.nio.BufferUnderflowException: ";
    const END: &str = " but the buffer ended";
    match (m.find(UNDERFLOW), m.find(END)) {
        (Some(a), Some(b)) if b > a => format!("{}null{}", &m[..a], &m[b + END.len()..]),
        _ => String::from(m),
    }
}

/// `CoordinatorRecordMessageParser.parse` for the record at `offset`: key
/// `{"type":"T","data":{…}}`, payload `{"version":"V","data":{…}}` or `<DELETE>` for a
/// tombstone; an unknown record type gives the key `Unknown record type T at offset O,
/// skipping.`; a record that cannot be read gives `Error at offset O, skipping. <message>`.
/// A record without a key is Kafka's fatal `RuntimeException` (returned as `Err`).
pub fn dump_log_parse(
    topic: InternalTopic,
    offset: i64,
    key: Option<&[u8]>,
    value: Option<&[u8]>,
) -> Result<DumpLogParsed, String> {
    let Some(key) = key else {
        return Err(format!(
            "Failed to decode message at offset {offset} using the specified decoder (message had a missing key)"
        ));
    };
    let error = |e: InternalError| DumpLogParsed {
        key: Some(format!("Error at offset {offset}, skipping. {}", java_message(&e.message))),
        payload: None,
        unsupported: false,
    };
    let t = match read_version(key, false) {
        Ok(t) => t,
        Err(e) => return Ok(error(e)),
    };
    let supported = match topic {
        InternalTopic::TransactionState => t == TRANSACTION_LOG_RECORD_TYPE,
        InternalTopic::ConsumerOffsets => {
            t == LEGACY_OFFSET_COMMIT_RECORD_TYPE || t == OFFSET_COMMIT_RECORD_TYPE
        }
    };
    if !supported {
        // Kafka's group coordinator knows record types 0..=KNOWN_GROUP_RECORD_TYPES; the
        // transaction coordinator only 0.
        let known = matches!(topic, InternalTopic::ConsumerOffsets) && known_group_record_type(t);
        if known {
            return Ok(DumpLogParsed {
                key: Some(format!(
                    "[eoslab: record type {t}{} is not an offset commit; eoslab does not print its JSON]",
                    group_record_name(t).map(|n| format!(" ({n})")).unwrap_or_default()
                )),
                payload: None,
                unsupported: true,
            });
        }
        return Ok(DumpLogParsed {
            key: Some(format!(
                "Unknown record type {t} at offset {offset}, skipping."
            )),
            payload: None,
            unsupported: false,
        });
    }
    let k = match key_data_json(topic, key) {
        Ok(k) => k,
        Err(e) => return Ok(error(e)),
    };
    let payload = match value {
        None => String::from("<DELETE>"),
        Some(v) => match value_data_json(topic, v) {
            Ok((version, data)) => format!("{{\"version\":\"{version}\",\"data\":{data}}}"),
            Err(e) => return Ok(error(e)),
        },
    };
    Ok(DumpLogParsed {
        key: Some(format!("{{\"type\":\"{t}\",\"data\":{k}}}")),
        payload: Some(payload),
        unsupported: false,
    })
}

/// The `__consumer_offsets` record types Kafka 4.3.1's group coordinator reads (its generated
/// `CoordinatorRecordType`: 0–8 offset commits, group metadata and consumer group records,
/// 10–16 share group records and ConsumerGroupRegularExpression, 17 and 19–23 streams group
/// records; 9 and 18 are unused).
pub(crate) fn known_group_record_type(t: i16) -> bool {
    (0..=23).contains(&t) && t != 9 && t != 18
}

/// `__consumer_offsets` record types other than offset commits that this module names
/// (`group-coordinator/src/main/resources/common/message/GroupMetadataKey.json`, `apiKey` 2); the
/// consumer/share/streams group records have higher types.
pub(crate) fn group_record_name(t: i16) -> Option<&'static str> {
    match t {
        2 => Some("GroupMetadata"),
        _ => None,
    }
}

/// `TransactionLogValueJsonConverter.write`: schema order; tagged fields (v1) only when
/// not at their default.
pub(crate) fn txn_value_json(out: &mut String, p: &ParsedTxnLogValue) {
    let v = &p.value;
    out.push_str(&format!("{{\"producerId\":{}", v.producer_id));
    if p.version >= 1 && v.previous_producer_id != -1 {
        out.push_str(&format!(
            ",\"previousProducerId\":{}",
            v.previous_producer_id
        ));
    }
    if p.version >= 1 && v.next_producer_id != -1 {
        out.push_str(&format!(",\"nextProducerId\":{}", v.next_producer_id));
    }
    out.push_str(&format!(
        ",\"producerEpoch\":{},\"transactionTimeoutMs\":{},\"transactionStatus\":{},\"transactionPartitions\":",
        v.producer_epoch, v.transaction_timeout_ms, v.transaction_status
    ));
    if p.partitions_null {
        out.push_str("null");
    } else {
        out.push('[');
        for (i, (topic, ids)) in v.transaction_partitions.iter().enumerate() {
            if i > 0 {
                out.push(',');
            }
            out.push_str("{\"topic\":");
            json_str(out, topic);
            out.push_str(",\"partitionIds\":[");
            for (j, id) in ids.iter().enumerate() {
                if j > 0 {
                    out.push(',');
                }
                out.push_str(&format!("{id}"));
            }
            out.push_str("]}");
        }
        out.push(']');
    }
    out.push_str(&format!(
        ",\"transactionLastUpdateTimestampMs\":{},\"transactionStartTimestampMs\":{}",
        v.transaction_last_update_timestamp_ms, v.transaction_start_timestamp_ms
    ));
    if p.version >= 1 && v.client_transaction_version != 0 {
        out.push_str(&format!(
            ",\"clientTransactionVersion\":{}",
            v.client_transaction_version
        ));
    }
    out.push('}');
}

/// A JSON string as Jackson writes it: `"` and `\` escaped, `\b \t \n \f \r` short forms,
/// other control characters as `\u00XX` (upper-case hex), everything else (DEL and
/// non-ASCII included) as is.
pub(crate) fn json_str(out: &mut String, s: &str) {
    const HEX: &[u8; 16] = b"0123456789ABCDEF";
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\u{8}' => out.push_str("\\b"),
            '\t' => out.push_str("\\t"),
            '\n' => out.push_str("\\n"),
            '\u{c}' => out.push_str("\\f"),
            '\r' => out.push_str("\\r"),
            c if (c as u32) < 0x20 => {
                out.push_str("\\u00");
                out.push(HEX[(c as usize) >> 4] as char);
                out.push(HEX[(c as usize) & 15] as char);
            }
            c => out.push(c),
        }
    }
    out.push('"');
}

/// `Uuid.toString()`: URL-safe base64 without padding (22 characters for 16 bytes).
pub(crate) fn base64url(out: &mut String, b: &[u8]) {
    const A: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    for chunk in b.chunks(3) {
        let n = chunk
            .iter()
            .enumerate()
            .fold(0u32, |n, (i, &x)| n | (x as u32) << (16 - 8 * i));
        for i in 0..=chunk.len() {
            out.push(A[((n >> (18 - 6 * i)) & 63) as usize] as char);
        }
    }
}
