//! Reading the internal topics' keys and values (the generated `read(Readable, version)`), with
//! every failure pinned on a byte.

#[allow(unused_imports)]
use super::*;

/// A failure inside one message: offset into the buffer and Kafka-like text.
pub(crate) type Fault = (usize, String);

pub(crate) fn eof(e: ReadError) -> Fault {
    match e {
        ReadError::Eof { at, need } => {
            (at, format!("java.nio.BufferUnderflowException: {need} more byte(s) needed at byte {at} but the buffer ended"))
        }
        ReadError::VarintTooLong { at } => (
            at,
            String::from("java.lang.IllegalArgumentException: Varint is too long, the most significant bit in the 5th byte is set"),
        ),
        ReadError::VarlongTooLong { at } => (
            at,
            String::from("java.lang.IllegalArgumentException: Varlong is too long, the most significant bit in the 10th byte is set"),
        ),
    }
}

pub(crate) struct Msg<'a> {
    pub(crate) r: Reader<'a>,
    pub(crate) flexible: bool,
}

impl<'a> Msg<'a> {
    pub(crate) fn i8(&mut self) -> Result<i8, Fault> {
        self.r.i8().map_err(eof)
    }
    pub(crate) fn i16(&mut self) -> Result<i16, Fault> {
        self.r.i16().map_err(eof)
    }
    pub(crate) fn i32(&mut self) -> Result<i32, Fault> {
        self.r.i32().map_err(eof)
    }
    pub(crate) fn i64(&mut self) -> Result<i64, Fault> {
        self.r.i64().map_err(eof)
    }
    /// `readUnsignedVarint()` as a Java int.
    pub(crate) fn uvarint(&mut self) -> Result<i32, Fault> {
        self.r.unsigned_varint().map(|u| u as i32).map_err(eof)
    }

    /// A non-nullable string field named `name` (`MessageDataGenerator` checks and texts).
    pub(crate) fn string(&mut self, name: &str) -> Result<String, Fault> {
        let at = self.r.pos();
        let len = if self.flexible {
            self.uvarint()?.wrapping_sub(1)
        } else {
            self.i16()? as i32
        };
        if len < 0 {
            return Err((
                at,
                format!("non-nullable field {name} was serialized as null"),
            ));
        }
        if len > 0x7fff {
            return Err((at, format!("string field {name} had invalid length {len}")));
        }
        let data_at = self.r.pos();
        // Kafka 4.3.1 `ByteBufferAccessor.readString` reads through `readArray` (its text, as
        // kafka-dump-log --transaction-log-decoder printed it on a damaged key).
        let b = self.r.take(len as usize).map_err(|_| {
            (
                data_at,
                format!(
                    "Error reading byte array of {len} byte(s): only {} byte(s) available",
                    self.r.remaining()
                ),
            )
        })?;
        // Java: new String(bytes, UTF_8) — malformed input becomes U+FFFD.
        Ok(String::from_utf8_lossy(b).into_owned())
    }

    /// An array length: `Ok(None)` for null (only when `nullable`), capped by the bytes left.
    pub(crate) fn array_len(&mut self, name: &str, nullable: bool) -> Result<Option<usize>, Fault> {
        let at = self.r.pos();
        let n = if self.flexible {
            self.uvarint()?.wrapping_sub(1)
        } else {
            self.i32()?
        };
        if n < 0 {
            return if nullable {
                Ok(None)
            } else {
                Err((
                    at,
                    format!("non-nullable field {name} was serialized as null"),
                ))
            };
        }
        if n as usize > self.r.remaining() {
            return Err((
                at,
                format!(
                    "Tried to allocate a collection of size {n}, but there are only {} bytes remaining.",
                    self.r.remaining()
                ),
            ));
        }
        Ok(Some(n as usize))
    }

    /// A tagged-fields section: `known(self, tag, size)` reads a known tag and returns true,
    /// or returns false to have it skipped as an unknown tag (`readUnknownTaggedField`).
    pub(crate) fn tagged(
        &mut self,
        mut known: impl FnMut(&mut Self, i32) -> Result<bool, Fault>,
    ) -> Result<(), Fault> {
        let n = self.uvarint()?;
        let mut i = 0;
        while i < n {
            let tag = self.uvarint()?;
            let size_at = self.r.pos();
            let size = self.uvarint()?;
            if !known(self, tag)? {
                if size < 0 || size as usize > self.r.remaining() {
                    return Err((
                        size_at,
                        format!(
                            "Error reading byte array of {size} byte(s): only {} byte(s) available (unknown tagged field {tag})",
                            self.r.remaining()
                        ),
                    ));
                }
                self.r.take(size as usize).map_err(eof)?;
            }
            i += 1;
        }
        Ok(())
    }
}

pub(crate) fn key_error(at: usize, msg: String) -> InternalError {
    InternalError {
        at,
        in_value: false,
        message: msg,
    }
}

pub(crate) fn value_error(at: usize, msg: String) -> InternalError {
    InternalError {
        at,
        in_value: true,
        message: msg,
    }
}

/// `CoordinatorRecordSerde.readVersion`.
pub(crate) fn read_version(buf: &[u8], in_value: bool) -> Result<i16, InternalError> {
    match buf {
        [a, b, ..] => Ok(i16::from_be_bytes([*a, *b])),
        _ => Err(InternalError {
            at: 0,
            in_value,
            message: format!(
                "Could not read version from {}'s buffer.",
                if in_value { "value" } else { "key" }
            ),
        }),
    }
}

/// `CoordinatorRecordSerde.readMessage`'s wrapping of a read failure.
pub(crate) fn wrap(f: Fault, version: i16, in_value: bool) -> InternalError {
    InternalError {
        at: f.0,
        in_value,
        message: format!(
            "Could not read record with version {version} from {}'s buffer due to: {}.",
            if in_value { "value" } else { "key" },
            f.1
        ),
    }
}

/// A `__transaction_state` key: the transactional id, or an error when the record type is
/// not 0 (`TransactionLog.readTxnRecordKey`) or the key is malformed.
pub fn parse_txn_log_key(key: &[u8]) -> Result<String, InternalError> {
    let t = read_version(key, false)?;
    if t != TRANSACTION_LOG_RECORD_TYPE {
        return Err(key_error(
            0,
            format!("Unknown version {t} from the transaction log message key"),
        ));
    }
    let mut m = Msg {
        r: Reader::new(key),
        flexible: false,
    };
    m.r.take(2).map_err(|e| wrap(eof(e), t, false))?;
    m.string("transactionalId").map_err(|f| wrap(f, 0, false))
}

/// A parsed `TransactionLogValue`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParsedTxnLogValue {
    /// The value version (0 or 1).
    pub version: i16,
    pub value: TxnLogValue,
    /// `TransactionPartitions` was `null` (Kafka writes that for state Empty).
    pub partitions_null: bool,
}

/// Reads a `__transaction_state` value (version prefix included).
pub fn parse_txn_log_value(value: &[u8]) -> Result<ParsedTxnLogValue, InternalError> {
    let version = read_version(value, true)?;
    if !(0..=TXN_LOG_VALUE_MAX_VERSION).contains(&version) {
        return Err(value_error(
            0,
            format!("Unknown value version {version} for record type 0: TransactionLogValue has versions 0-1 (UnknownRecordVersionException)"),
        ));
    }
    let mut m = Msg {
        r: Reader::new(&value[2..]),
        flexible: version >= 1,
    };
    read_txn_value_body(&mut m, version).map_err(|(at, msg)| wrap((at + 2, msg), version, true))
}

pub(crate) fn read_txn_value_body(m: &mut Msg<'_>, version: i16) -> Result<ParsedTxnLogValue, Fault> {
    let mut v = TxnLogValue {
        producer_id: m.i64()?,
        ..TxnLogValue::default()
    };
    v.producer_epoch = m.i16()?;
    v.transaction_timeout_ms = m.i32()?;
    v.transaction_status = m.i8()?;
    let parts = m.array_len("transactionPartitions", true)?;
    if let Some(n) = parts {
        let mut list = Vec::with_capacity(n);
        for _ in 0..n {
            let topic = m.string("topic")?;
            let k = m.array_len("partitionIds", false)?.unwrap_or(0);
            let mut ids = Vec::with_capacity(k);
            for _ in 0..k {
                ids.push(m.i32()?);
            }
            if m.flexible {
                m.tagged(|_, _| Ok(false))?;
            }
            list.push((topic, ids));
        }
        v.transaction_partitions = list;
    }
    v.transaction_last_update_timestamp_ms = m.i64()?;
    v.transaction_start_timestamp_ms = m.i64()?;
    if m.flexible {
        let (mut prev, mut next, mut ctv) = (-1i64, -1i64, 0i16);
        m.tagged(|m, tag| match tag {
            0 => m.i64().map(|x| {
                prev = x;
                true
            }),
            1 => m.i64().map(|x| {
                next = x;
                true
            }),
            2 => m.i16().map(|x| {
                ctv = x;
                true
            }),
            _ => Ok(false),
        })?;
        v.previous_producer_id = prev;
        v.next_producer_id = next;
        v.client_transaction_version = ctv;
    }
    Ok(ParsedTxnLogValue {
        version,
        value: v,
        partitions_null: parts.is_none(),
    })
}

/// A parsed `__consumer_offsets` offset-commit key.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParsedOffsetCommitKey {
    /// 0 (LegacyOffsetCommit) or 1 (OffsetCommit).
    pub record_type: i16,
    pub group: String,
    pub topic: String,
    pub partition: i32,
}

/// Reads an offset-commit key (record type 0 or 1); other record types (GroupMetadata 2,
/// consumer/share group records …) are an error here.
pub fn parse_offset_commit_key(key: &[u8]) -> Result<ParsedOffsetCommitKey, InternalError> {
    let t = read_version(key, false)?;
    if t != LEGACY_OFFSET_COMMIT_RECORD_TYPE && t != OFFSET_COMMIT_RECORD_TYPE {
        return Err(key_error(
            0,
            format!("record type {t} is not an offset commit (0 or 1)"),
        ));
    }
    let mut m = Msg {
        r: Reader::new(key),
        flexible: false,
    };
    let body = |m: &mut Msg<'_>| -> Result<ParsedOffsetCommitKey, Fault> {
        m.r.take(2).map_err(eof)?;
        Ok(ParsedOffsetCommitKey {
            record_type: t,
            group: m.string("group")?,
            topic: m.string("topic")?,
            partition: m.i32()?,
        })
    };
    body(&mut m).map_err(|f| wrap(f, t, false))
}

/// A parsed `OffsetCommitValue` (any version 0–4).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParsedOffsetCommitValue {
    pub version: i16,
    pub offset: i64,
    /// v3+; −1 (the default) in older versions.
    pub leader_epoch: i32,
    pub metadata: String,
    pub commit_timestamp_ms: i64,
    /// v1 only; −1 (the default) otherwise.
    pub expire_timestamp_ms: i64,
    /// v4+: the topic id as a tagged field (tag 0) when not the zero UUID. Newer than 4.1;
    /// read as the formatter test of Kafka trunk prints it.
    pub topic_id: Option<[u8; 16]>,
}

/// Reads an `__consumer_offsets` offset-commit value (version prefix included).
pub fn parse_offset_commit_value(value: &[u8]) -> Result<ParsedOffsetCommitValue, InternalError> {
    let version = read_version(value, true)?;
    if !(0..=OFFSET_COMMIT_VALUE_MAX_VERSION).contains(&version) {
        return Err(value_error(
            0,
            format!("Unknown value version {version}: OffsetCommitValue has versions 0-4 (UnknownRecordVersionException)"),
        ));
    }
    let mut m = Msg {
        r: Reader::new(&value[2..]),
        flexible: version >= 4,
    };
    let body = |m: &mut Msg<'_>| -> Result<ParsedOffsetCommitValue, Fault> {
        let offset = m.i64()?;
        let leader_epoch = if version >= 3 { m.i32()? } else { -1 };
        let metadata = m.string("metadata")?;
        let commit_timestamp_ms = m.i64()?;
        let expire_timestamp_ms = if version == 1 { m.i64()? } else { -1 };
        let mut topic_id = None;
        if m.flexible {
            m.tagged(|m, tag| {
                if tag == 0 {
                    let id: [u8; 16] = m.r.take_array().map_err(eof)?;
                    topic_id = (id != [0u8; 16]).then_some(id);
                    Ok(true)
                } else {
                    Ok(false)
                }
            })?;
        }
        Ok(ParsedOffsetCommitValue {
            version,
            offset,
            leader_epoch,
            metadata,
            commit_timestamp_ms,
            expire_timestamp_ms,
            topic_id,
        })
    };
    body(&mut m).map_err(|(at, msg)| wrap((at + 2, msg), version, true))
}
