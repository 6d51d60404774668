//! Records of Kafka's two internal coordinator topics, `__transaction_state` and
//! `__consumer_offsets`: writing them as the coordinators do, and printing them as
//! `kafka-console-consumer --formatter …TransactionLogMessageFormatter` /
//! `…OffsetsMessageFormatter` does (Kafka 4.x).
//!
//! Sources (`apache/kafka`):
//! - Schemas: `transaction-coordinator/src/main/resources/common/message/TransactionLogKey.json`,
//!   `TransactionLogValue.json`; `group-coordinator/src/main/resources/common/message/OffsetCommitKey.json`,
//!   `OffsetCommitValue.json`.
//! - Framing: `coordinator-common/src/main/java/org/apache/kafka/coordinator/common/runtime/CoordinatorRecordSerde.java`
//!   — key = int16 *record type* (the key schema's `apiKey`: 0 TransactionLog; 0 LegacyOffsetCommit,
//!   1 OffsetCommit, 2 GroupMetadata … in `__consumer_offsets`) + the key message; value = int16
//!   *value version* + the value message; a tombstone is a `null` value.
//! - Who writes what: `transaction-coordinator/.../TransactionLog.java` (`keyToBytes`,
//!   `valueToBytes`: value version = `TransactionVersion.transactionLogValueVersion()`, 0 at TV0 and
//!   1 from TV1; `transactionPartitions` is `null` in state Empty; PreviousProducerId/NextProducerId
//!   are not set, so they stay at their −1 default); `group-coordinator/.../GroupCoordinatorRecordHelpers.java`
//!   (`newOffsetCommitRecord`: key type 1, value version 3, or 1 when the commit carries an
//!   expire timestamp).
//! - Printing: `tools/src/main/java/org/apache/kafka/tools/consumer/CoordinatorRecordMessageFormatter.java`,
//!   `TransactionLogMessageFormatter.java`, `OffsetsMessageFormatter.java`, and the generated
//!   `*JsonConverter.write` (`generator/.../JsonConverterGenerator.java`: schema order, camelCase
//!   names, tagged fields only when not at their default); Jackson's `ObjectNode.toString()`
//!   (compact, non-ASCII unescaped, control characters as `\uXXXX` with upper-case hex).
//! - Encoding rules: `generator/.../MessageDataGenerator.java` — non-flexible versions: int16-length
//!   strings, int32-length arrays (−1 = null); flexible versions: unsigned-varint length+1 (0 = null)
//!   and a tagged-fields section (count, then tag/size/data, in tag order) after every struct.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use crate::reader::{write, ReadError, Reader};

/// `TransactionState` ids (`transaction-coordinator/.../TransactionState.java`).
pub mod txn_state {
    pub const EMPTY: i8 = 0;
    pub const ONGOING: i8 = 1;
    pub const PREPARE_COMMIT: i8 = 2;
    pub const PREPARE_ABORT: i8 = 3;
    pub const COMPLETE_COMMIT: i8 = 4;
    pub const COMPLETE_ABORT: i8 = 5;
    pub const DEAD: i8 = 6;
    pub const PREPARE_EPOCH_FENCE: i8 = 7;

    /// Kafka's state name ("Empty", "Ongoing" …), or `None` for an unknown id.
    pub fn name(id: i8) -> Option<&'static str> {
        Some(match id {
            EMPTY => "Empty",
            ONGOING => "Ongoing",
            PREPARE_COMMIT => "PrepareCommit",
            PREPARE_ABORT => "PrepareAbort",
            COMPLETE_COMMIT => "CompleteCommit",
            COMPLETE_ABORT => "CompleteAbort",
            DEAD => "Dead",
            PREPARE_EPOCH_FENCE => "PrepareEpochFence",
            _ => return None,
        })
    }
}

/// Record type of `__transaction_state` keys (`TransactionLogKey.json` `apiKey` 0).
pub const TRANSACTION_LOG_RECORD_TYPE: i16 = 0;
/// Record type of pre-KIP-848 offset commit keys (key "version" 0), still read.
pub const LEGACY_OFFSET_COMMIT_RECORD_TYPE: i16 = 0;
/// Record type Kafka 4.x writes for offset commits (`OffsetCommitKey.json` `apiKey` 1).
pub const OFFSET_COMMIT_RECORD_TYPE: i16 = 1;
/// The `OffsetCommitValue` version Kafka 4.3.1 writes for a commit without an expire
/// timestamp: 4, the flexible one (a real 4.3.1 broker's transactional offset commit,
/// `tests/fixtures/kafka-4.3.1/__consumer_offsets-10`, `{"version":"4",…}`, value bytes
/// `0004 … 01 … 00`). Earlier 4.x lines wrote 3 (`GroupCoordinatorRecordHelpers
/// .offsetCommitValueVersion(false)`: "the highest supported non-flexible version");
/// [`offset_commit_value_version`] writes any version.
pub const OFFSET_COMMIT_VALUE_VERSION: i16 = 4;
/// Highest `TransactionLogValue` version (`validVersions` "0-1", flexible from 1).
pub const TXN_LOG_VALUE_MAX_VERSION: i16 = 1;
/// Highest `OffsetCommitValue` version (`validVersions` "0-4", flexible from 4).
pub const OFFSET_COMMIT_VALUE_MAX_VERSION: i16 = 4;

/// `TransactionLogValue` (field names in the docs are Kafka's).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TxnLogValue {
    /// `ProducerId`.
    pub producer_id: i64,
    /// `PreviousProducerId`, −1 when none (tagged field 0 in v1; absent in v0).
    pub previous_producer_id: i64,
    /// `NextProducerId`, −1 when none (tagged field 1 in v1; absent in v0).
    pub next_producer_id: i64,
    /// `ProducerEpoch`.
    pub producer_epoch: i16,
    /// `TransactionTimeoutMs`.
    pub transaction_timeout_ms: i32,
    /// `TransactionStatus`: a `TransactionState` id, see [`txn_state`].
    pub transaction_status: i8,
    /// `TransactionPartitions`: (`Topic`, `PartitionIds`). Kafka writes `null` for state
    /// Empty; [`txn_log_value`] does the same when the status is Empty and this is empty.
    pub transaction_partitions: Vec<(String, Vec<i32>)>,
    /// `TransactionLastUpdateTimestampMs`.
    pub transaction_last_update_timestamp_ms: i64,
    /// `TransactionStartTimestampMs` (−1 when no transaction has started).
    pub transaction_start_timestamp_ms: i64,
    /// `ClientTransactionVersion` (tagged field 2 in v1, default 0; absent in v0).
    pub client_transaction_version: i16,
}

impl Default for TxnLogValue {
    /// The schema defaults (`new TransactionLogValue()`), with an empty partition list.
    fn default() -> Self {
        TxnLogValue {
            producer_id: 0,
            previous_producer_id: -1,
            next_producer_id: -1,
            producer_epoch: 0,
            transaction_timeout_ms: 0,
            transaction_status: 0,
            transaction_partitions: Vec::new(),
            transaction_last_update_timestamp_ms: 0,
            transaction_start_timestamp_ms: 0,
            client_transaction_version: 0,
        }
    }
}

/// One `__consumer_offsets` offset commit: key (`OffsetCommitKey`) and value (`OffsetCommitValue`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct OffsetCommit {
    /// Key `group`.
    pub group: String,
    /// Key `topic`.
    pub topic: String,
    /// Key `partition`.
    pub partition: i32,
    /// Value `offset`.
    pub offset: i64,
    /// Value `leaderEpoch` (v3+), −1 when unknown (`RecordBatch.NO_PARTITION_LEADER_EPOCH`).
    pub leader_epoch: i32,
    /// Value `metadata`.
    pub metadata: String,
    /// Value `commitTimestamp`.
    pub commit_timestamp_ms: i64,
}

/// Which internal topic a record comes from (chooses the schema and the formatter).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum InternalTopic {
    /// `__transaction_state`, printed like `TransactionLogMessageFormatter`.
    TransactionState,
    /// `__consumer_offsets`, printed like `OffsetsMessageFormatter` (offset commits only).
    ConsumerOffsets,
}

impl InternalTopic {
    /// The topic name.
    pub fn topic_name(self) -> &'static str {
        match self {
            InternalTopic::TransactionState => "__transaction_state",
            InternalTopic::ConsumerOffsets => "__consumer_offsets",
        }
    }

    /// The option value used by the CLI and the wasm package: "transaction-log" | "offsets".
    pub fn formatter_name(self) -> &'static str {
        match self {
            InternalTopic::TransactionState => "transaction-log",
            InternalTopic::ConsumerOffsets => "offsets",
        }
    }

    /// Parses a formatter name or a topic name ("transaction-log", "__transaction_state",
    /// "offsets", "__consumer_offsets").
    pub fn from_name(s: &str) -> Option<Self> {
        match s {
            "transaction-log" | "__transaction_state" => Some(InternalTopic::TransactionState),
            "offsets" | "__consumer_offsets" => Some(InternalTopic::ConsumerOffsets),
            _ => None,
        }
    }
}

/// Why a key or value could not be read. `at` is a byte offset into the key (or, when
/// `in_value`, the value); `message` reads like Kafka's (`CoordinatorRecordSerde` wording).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InternalError {
    pub at: usize,
    pub in_value: bool,
    pub message: String,
}

impl core::fmt::Display for InternalError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(
            f,
            "{} byte {}: {}",
            if self.in_value { "value" } else { "key" },
            self.at,
            self.message
        )
    }
}

#[cfg(feature = "std")]
impl std::error::Error for InternalError {}

// ---------------------------------------------------------------------------------------
// Writing

/// Java strings of a Kafka message are at most 0x7fff UTF-8 bytes (the generated `write`
/// throws beyond that); longer input is cut at the last char boundary that fits.
fn clamp(s: &str) -> &[u8] {
    if s.len() <= 0x7fff {
        return s.as_bytes();
    }
    let mut end = 0x7fff;
    while !s.is_char_boundary(end) {
        end -= 1;
    }
    &s.as_bytes()[..end]
}

fn put_string(out: &mut Vec<u8>, s: &str, flexible: bool) {
    let b = clamp(s);
    if flexible {
        write::unsigned_varint(out, b.len() as u32 + 1);
    } else {
        out.extend_from_slice(&(b.len() as i16).to_be_bytes());
    }
    out.extend_from_slice(b);
}

/// Array length: `None` = null.
fn put_array_len(out: &mut Vec<u8>, n: Option<usize>, flexible: bool) {
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
    out.extend_from_slice(&TRANSACTION_LOG_RECORD_TYPE.to_be_bytes());
    put_string(&mut out, transactional_id, false);
    out
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
    let version = version.clamp(0, TXN_LOG_VALUE_MAX_VERSION);
    let flexible = version >= 1;
    let mut out = Vec::with_capacity(
        64 + v
            .transaction_partitions
            .iter()
            .map(|(t, p)| 8 + t.len() + 4 * p.len())
            .sum::<usize>(),
    );
    out.extend_from_slice(&version.to_be_bytes());
    out.extend_from_slice(&v.producer_id.to_be_bytes());
    out.extend_from_slice(&v.producer_epoch.to_be_bytes());
    out.extend_from_slice(&v.transaction_timeout_ms.to_be_bytes());
    out.push(v.transaction_status as u8);
    let null = v.transaction_status == txn_state::EMPTY && v.transaction_partitions.is_empty();
    put_array_len(
        &mut out,
        (!null).then_some(v.transaction_partitions.len()),
        flexible,
    );
    if !null {
        for (topic, parts) in &v.transaction_partitions {
            put_string(&mut out, topic, flexible);
            put_array_len(&mut out, Some(parts.len()), flexible);
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
        let mut tags: Vec<(u32, Vec<u8>)> = Vec::new();
        if v.previous_producer_id != -1 {
            tags.push((0, v.previous_producer_id.to_be_bytes().to_vec()));
        }
        if v.next_producer_id != -1 {
            tags.push((1, v.next_producer_id.to_be_bytes().to_vec()));
        }
        if v.client_transaction_version != 0 {
            tags.push((2, v.client_transaction_version.to_be_bytes().to_vec()));
        }
        write::unsigned_varint(&mut out, tags.len() as u32);
        for (tag, data) in tags {
            write::unsigned_varint(&mut out, tag);
            write::unsigned_varint(&mut out, data.len() as u32);
            out.extend_from_slice(&data);
        }
    }
    out
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

// ---------------------------------------------------------------------------------------
// Reading (the generated `read(Readable, version)`), with every failure pinned on a byte.

/// A failure inside one message: offset into the buffer and Kafka-like text.
type Fault = (usize, String);

fn eof(e: ReadError) -> Fault {
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

struct Msg<'a> {
    r: Reader<'a>,
    flexible: bool,
}

impl<'a> Msg<'a> {
    fn i8(&mut self) -> Result<i8, Fault> {
        self.r.i8().map_err(eof)
    }
    fn i16(&mut self) -> Result<i16, Fault> {
        self.r.i16().map_err(eof)
    }
    fn i32(&mut self) -> Result<i32, Fault> {
        self.r.i32().map_err(eof)
    }
    fn i64(&mut self) -> Result<i64, Fault> {
        self.r.i64().map_err(eof)
    }
    /// `readUnsignedVarint()` as a Java int.
    fn uvarint(&mut self) -> Result<i32, Fault> {
        self.r.unsigned_varint().map(|u| u as i32).map_err(eof)
    }

    /// A non-nullable string field named `name` (`MessageDataGenerator` checks and texts).
    fn string(&mut self, name: &str) -> Result<String, Fault> {
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
        let b = self.r.take(len as usize).map_err(|_| {
            (
                data_at,
                format!(
                    "Error reading string of length {len}, only {} bytes available",
                    self.r.remaining()
                ),
            )
        })?;
        // Java: new String(bytes, UTF_8) — malformed input becomes U+FFFD.
        Ok(String::from_utf8_lossy(b).into_owned())
    }

    /// An array length: `Ok(None)` for null (only when `nullable`), capped by the bytes left.
    fn array_len(&mut self, name: &str, nullable: bool) -> Result<Option<usize>, Fault> {
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
    fn tagged(
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

fn key_error(at: usize, msg: String) -> InternalError {
    InternalError {
        at,
        in_value: false,
        message: msg,
    }
}

fn value_error(at: usize, msg: String) -> InternalError {
    InternalError {
        at,
        in_value: true,
        message: msg,
    }
}

/// `CoordinatorRecordSerde.readVersion`.
fn read_version(buf: &[u8], in_value: bool) -> Result<i16, InternalError> {
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
fn wrap(f: Fault, version: i16, in_value: bool) -> InternalError {
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

fn read_txn_value_body(m: &mut Msg<'_>, version: i16) -> Result<ParsedTxnLogValue, Fault> {
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

// ---------------------------------------------------------------------------------------
// Printing

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
fn key_data_json(topic: InternalTopic, key: &[u8]) -> Result<String, InternalError> {
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
fn value_data_json(topic: InternalTopic, v: &[u8]) -> Result<(i16, String), InternalError> {
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
        key: Some(format!("Error at offset {offset}, skipping. {}", e.message)),
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
fn known_group_record_type(t: i16) -> bool {
    (0..=23).contains(&t) && t != 9 && t != 18
}

/// `__consumer_offsets` record types other than offset commits that this module names
/// (`group-coordinator/src/main/resources/common/message/GroupMetadataKey.json`, `apiKey` 2); the
/// consumer/share/streams group records have higher types.
fn group_record_name(t: i16) -> Option<&'static str> {
    match t {
        2 => Some("GroupMetadata"),
        _ => None,
    }
}

/// `TransactionLogValueJsonConverter.write`: schema order; tagged fields (v1) only when
/// not at their default.
fn txn_value_json(out: &mut String, p: &ParsedTxnLogValue) {
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
fn json_str(out: &mut String, s: &str) {
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
fn base64url(out: &mut String, b: &[u8]) {
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

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::string::ToString;
    use alloc::vec;

    fn hex(s: &str) -> Vec<u8> {
        let s: String = s.chars().filter(|c| c.is_ascii_hexdigit()).collect();
        (0..s.len())
            .step_by(2)
            .map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap())
            .collect()
    }

    /// The value of Kafka's `TransactionLogMessageFormatterTest` (`TXN_LOG_VALUE`).
    fn kafka_test_txn_value() -> TxnLogValue {
        TxnLogValue {
            producer_id: 100,
            producer_epoch: 50,
            transaction_status: txn_state::COMPLETE_COMMIT,
            transaction_start_timestamp_ms: 750,
            transaction_last_update_timestamp_ms: 1000,
            transaction_timeout_ms: 500,
            ..TxnLogValue::default()
        }
    }

    #[test]
    fn golden_txn_log_key() {
        // type int16 0 = 00 00; TransactionalId "TXNID": int16 length 5 = 00 05, then
        // "TXNID" = 54 58 4e 49 44.
        assert_eq!(txn_log_key("TXNID"), hex("0000 0005 54584e4944"));
    }

    #[test]
    fn golden_txn_log_value_v1() {
        // version 1            00 01
        // ProducerId 100       00 00 00 00 00 00 00 64
        // ProducerEpoch 50     00 32
        // TransactionTimeoutMs 500   00 00 01 f4
        // TransactionStatus 4  04
        // TransactionPartitions []: compact array, varint 0+1 = 01
        // TransactionLastUpdateTimestampMs 1000   00 00 00 00 00 00 03 e8
        // TransactionStartTimestampMs 750         00 00 00 00 00 00 02 ee
        // tagged fields: prev/next = −1 and clientTransactionVersion = 0 are defaults → count 00
        let want =
            hex("0001 0000000000000064 0032 000001f4 04 01 00000000000003e8 00000000000002ee 00");
        assert_eq!(txn_log_value(&kafka_test_txn_value(), 1), want);
    }

    #[test]
    fn golden_txn_log_value_v0_with_partitions_and_v1_tags() {
        let v = TxnLogValue {
            producer_id: 7,
            previous_producer_id: 6,
            next_producer_id: -1,
            producer_epoch: 1,
            transaction_timeout_ms: 60000,
            transaction_status: txn_state::ONGOING,
            transaction_partitions: vec![("t".into(), vec![0, 2])],
            transaction_last_update_timestamp_ms: 5,
            transaction_start_timestamp_ms: 4,
            client_transaction_version: 2,
        };
        // v0: 0000 | pid 7 | epoch 0001 | timeout 60000 = 0000ea60 | status 01 |
        // partitions: int32 count 00000001, topic int16 len 0001 "t" 74, ids int32 count
        // 00000002, 00000000, 00000002 | lastUpdate 5 | start 4. No tagged fields in v0.
        assert_eq!(
            txn_log_value(&v, 0),
            hex("0000 0000000000000007 0001 0000ea60 01 00000001 0001 74 00000002 00000000 00000002 0000000000000005 0000000000000004")
        );
        // v1: compact array 02 (1+1), compact string 02 "t", compact int array 03 (2+1), the
        // element's tagged fields 00; then tags: count 02; tag 0 size 8 prev=6; tag 2 size 2 ctv=2.
        assert_eq!(
            txn_log_value(&v, 1),
            hex("0001 0000000000000007 0001 0000ea60 01 02 02 74 03 00000000 00000002 00 0000000000000005 0000000000000004 02 00 08 0000000000000006 02 02 0002")
        );
    }

    #[test]
    fn empty_state_writes_null_partitions() {
        let v = TxnLogValue {
            transaction_status: txn_state::EMPTY,
            transaction_start_timestamp_ms: -1,
            ..TxnLogValue::default()
        };
        let b0 = txn_log_value(&v, 0);
        assert_eq!(&b0[2 + 8 + 2 + 4 + 1..][..4], &[0xff, 0xff, 0xff, 0xff]);
        let b1 = txn_log_value(&v, 1);
        assert_eq!(b1[2 + 8 + 2 + 4 + 1], 0);
        let p = parse_txn_log_value(&b1).unwrap();
        assert!(p.partitions_null);
        let s = format_record(
            InternalTopic::TransactionState,
            Some(&txn_log_key("x")),
            Some(&b1),
        )
        .unwrap();
        assert!(s.contains("\"transactionPartitions\":null"), "{s}");
    }

    #[test]
    fn formats_like_kafka_transaction_log_formatter_test() {
        // TransactionLogMessageFormatterTest (tools/src/test/java/.../consumer), Kafka 4.x.
        let key = txn_log_key("TXNID");
        let value = txn_log_value(&kafka_test_txn_value(), 1);
        assert_eq!(
            format_record(InternalTopic::TransactionState, Some(&key), Some(&value)).unwrap(),
            "{\"key\":{\"type\":0,\"data\":{\"transactionalId\":\"TXNID\"}},\"value\":{\"version\":1,\"data\":{\"producerId\":100,\"producerEpoch\":50,\"transactionTimeoutMs\":500,\"transactionStatus\":4,\"transactionPartitions\":[],\"transactionLastUpdateTimestampMs\":1000,\"transactionStartTimestampMs\":750}}}"
        );
        // Tombstone.
        assert_eq!(
            format_record(InternalTopic::TransactionState, Some(&key), None).unwrap(),
            "{\"key\":{\"type\":0,\"data\":{\"transactionalId\":\"TXNID\"}},\"value\":null}"
        );
        // No key, unknown record types (1, 10, Short.MAX_VALUE): nothing.
        assert_eq!(
            format_record(InternalTopic::TransactionState, None, Some(&value)).unwrap(),
            ""
        );
        for t in [1i16, 10, i16::MAX] {
            let mut k = key.clone();
            k[..2].copy_from_slice(&t.to_be_bytes());
            assert_eq!(
                format_record(InternalTopic::TransactionState, Some(&k), Some(&value)).unwrap(),
                ""
            );
        }
    }

    #[test]
    fn formats_tagged_fields_and_partitions() {
        let v = TxnLogValue {
            producer_id: 7,
            previous_producer_id: 6,
            next_producer_id: 8,
            transaction_status: txn_state::PREPARE_COMMIT,
            transaction_partitions: vec![("a\"b".into(), vec![0, 2]), ("c".into(), vec![])],
            client_transaction_version: 2,
            ..TxnLogValue::default()
        };
        let s = format_record(
            InternalTopic::TransactionState,
            Some(&txn_log_key("id")),
            Some(&txn_log_value(&v, 1)),
        )
        .unwrap();
        assert_eq!(
            s,
            "{\"key\":{\"type\":0,\"data\":{\"transactionalId\":\"id\"}},\"value\":{\"version\":1,\"data\":{\"producerId\":7,\"previousProducerId\":6,\"nextProducerId\":8,\"producerEpoch\":0,\"transactionTimeoutMs\":0,\"transactionStatus\":2,\"transactionPartitions\":[{\"topic\":\"a\\\"b\",\"partitionIds\":[0,2]},{\"topic\":\"c\",\"partitionIds\":[]}],\"transactionLastUpdateTimestampMs\":0,\"transactionStartTimestampMs\":0,\"clientTransactionVersion\":2}}}"
        );
        // v0 has no tagged fields: they are not written, not printed.
        let s0 = format_record(
            InternalTopic::TransactionState,
            Some(&txn_log_key("id")),
            Some(&txn_log_value(&v, 0)),
        )
        .unwrap();
        assert!(
            !s0.contains("previousProducerId") && !s0.contains("clientTransactionVersion"),
            "{s0}"
        );
    }

    #[test]
    fn txn_round_trips() {
        let v = TxnLogValue {
            producer_id: i64::MAX,
            previous_producer_id: 3,
            next_producer_id: i64::MIN,
            producer_epoch: -1,
            transaction_timeout_ms: i32::MIN,
            transaction_status: txn_state::PREPARE_ABORT,
            transaction_partitions: vec![
                ("é🦀".into(), vec![i32::MAX, -1]),
                (String::new(), vec![]),
            ],
            transaction_last_update_timestamp_ms: -5,
            transaction_start_timestamp_ms: 1 << 40,
            client_transaction_version: 2,
        };
        let p = parse_txn_log_value(&txn_log_value(&v, 1)).unwrap();
        assert_eq!((p.version, &p.value, p.partitions_null), (1, &v, false));
        let p0 = parse_txn_log_value(&txn_log_value(&v, 0)).unwrap();
        let v0 = TxnLogValue {
            previous_producer_id: -1,
            next_producer_id: -1,
            client_transaction_version: 0,
            ..v.clone()
        };
        assert_eq!((p0.version, &p0.value), (0, &v0));
        assert_eq!(parse_txn_log_key(&txn_log_key("é🦀")).unwrap(), "é🦀");
    }

    #[test]
    fn golden_offset_commit_key_and_value() {
        // type 1 = 00 01; group "group-id" = 00 08 67726f75702d6964; topic "foo" = 00 03
        // 666f6f; partition 1 = 00 00 00 01.
        assert_eq!(
            offset_commit_key("group-id", "foo", 1),
            hex("0001 0008 67726f75702d6964 0003 666f6f 00000001")
        );
        let c = OffsetCommit {
            group: "group-id".into(),
            topic: "foo".into(),
            partition: 1,
            offset: 100,
            leader_epoch: 10,
            metadata: "metadata".into(),
            commit_timestamp_ms: 1234,
        };
        // version 3 = 00 03; offset 100 = 00..64; leaderEpoch 10 = 00 00 00 0a;
        // metadata "metadata" = 00 08 6d65746164617461; commitTimestamp 1234 = 00..04 d2.
        assert_eq!(
            offset_commit_value_version(&c, 3),
            hex("0003 0000000000000064 0000000a 0008 6d65746164617461 00000000000004d2")
        );
        // version 4 (Kafka 4.3.1): metadata as a compact string (length + 1 = 09), then no
        // tagged fields (00).
        assert_eq!(
            offset_commit_value(&c),
            hex("0004 0000000000000064 0000000a 09 6d65746164617461 00000000000004d2 00")
        );
    }

    #[test]
    fn formats_like_kafka_offset_message_formatter_test() {
        // OffsetMessageFormatterTest (tools/src/test/java/.../consumer), Kafka 4.x.
        let c = OffsetCommit {
            group: "group-id".into(),
            topic: "foo".into(),
            partition: 1,
            offset: 100,
            leader_epoch: 10,
            metadata: "metadata".into(),
            commit_timestamp_ms: 1234,
        };
        let key = offset_commit_key(&c.group, &c.topic, c.partition);
        let value = offset_commit_value_version(&c, 3);
        let k = "{\"key\":{\"type\":1,\"data\":{\"group\":\"group-id\",\"topic\":\"foo\",\"partition\":1}},";
        assert_eq!(
            format_record(InternalTopic::ConsumerOffsets, Some(&key), Some(&value)).unwrap(),
            format!("{k}\"value\":{{\"version\":3,\"data\":{{\"offset\":100,\"leaderEpoch\":10,\"metadata\":\"metadata\",\"commitTimestamp\":1234}}}}}}")
        );
        assert_eq!(
            format_record(InternalTopic::ConsumerOffsets, Some(&key), None).unwrap(),
            format!("{k}\"value\":null}}")
        );
        // Value versions 0, 1, 2 and 4 (hand-built), key type 0.
        let mut key0 = key.clone();
        key0[1] = 0;
        let v0 = hex("0000 0000000000000064 0008 6d65746164617461 00000000000004d2");
        assert_eq!(
            format_record(InternalTopic::ConsumerOffsets, Some(&key0), Some(&v0)).unwrap(),
            "{\"key\":{\"type\":0,\"data\":{\"group\":\"group-id\",\"topic\":\"foo\",\"partition\":1}},\"value\":{\"version\":0,\"data\":{\"offset\":100,\"metadata\":\"metadata\",\"commitTimestamp\":1234}}}"
        );
        let v1 =
            hex("0001 0000000000000064 0008 6d65746164617461 00000000000004d2 000000000000162e");
        assert!(format_record(InternalTopic::ConsumerOffsets, Some(&key), Some(&v1))
            .unwrap()
            .ends_with("\"value\":{\"version\":1,\"data\":{\"offset\":100,\"metadata\":\"metadata\",\"commitTimestamp\":1234,\"expireTimestamp\":5678}}}"));
        // v4: compact string 09 "metadata", tagged fields: 1 field, tag 0, size 16, the
        // uuid MKXx1fIkQy2J9jXHhK8m1w (Kafka's test id).
        let id = hex("30a5f1d5f224432d89f635c784af26d7");
        let mut v4 =
            hex("0004 0000000000000064 0000000a 09 6d65746164617461 00000000000004d2 01 00 10");
        v4.extend_from_slice(&id);
        let mut s = String::new();
        base64url(&mut s, &id);
        assert_eq!(s, "MKXx1fIkQy2J9jXHhK8m1w");
        assert!(format_record(InternalTopic::ConsumerOffsets, Some(&key), Some(&v4)).unwrap().ends_with(
            "\"value\":{\"version\":4,\"data\":{\"offset\":100,\"leaderEpoch\":10,\"metadata\":\"metadata\",\"commitTimestamp\":1234,\"topicId\":\"MKXx1fIkQy2J9jXHhK8m1w\"}}}"
        ));
        // Group metadata (type 2) and unknown types: nothing printed.
        let mut gk = key.clone();
        gk[1] = 2;
        assert_eq!(
            format_record_detailed(InternalTopic::ConsumerOffsets, Some(&gk), Some(&value)).unwrap(),
            Formatted::Skipped("record type 2 (GroupMetadata) is not an offset commit: OffsetsMessageFormatter prints nothing".into())
        );
        gk[..2].copy_from_slice(&i16::MAX.to_be_bytes());
        assert_eq!(
            format_record(InternalTopic::ConsumerOffsets, Some(&gk), Some(&value)).unwrap(),
            ""
        );
    }

    #[test]
    fn offset_commit_round_trip() {
        let c = OffsetCommit {
            group: "g\u{1}".into(),
            topic: "t".into(),
            partition: -3,
            offset: -1,
            leader_epoch: -1,
            metadata: String::new(),
            commit_timestamp_ms: i64::MIN,
        };
        let k =
            parse_offset_commit_key(&offset_commit_key(&c.group, &c.topic, c.partition)).unwrap();
        assert_eq!(
            (
                k.record_type,
                k.group.as_str(),
                k.topic.as_str(),
                k.partition
            ),
            (1, "g\u{1}", "t", -3)
        );
        let v = parse_offset_commit_value(&offset_commit_value(&c)).unwrap();
        assert_eq!(
            v,
            ParsedOffsetCommitValue {
                version: 4,
                offset: -1,
                leader_epoch: -1,
                metadata: String::new(),
                commit_timestamp_ms: i64::MIN,
                expire_timestamp_ms: -1,
                topic_id: None
            }
        );
        let s = format_record(
            InternalTopic::ConsumerOffsets,
            Some(&offset_commit_key(&c.group, "t", 0)),
            None,
        )
        .unwrap();
        assert!(s.contains("\"group\":\"g\\u0001\""), "{s}");
    }

    #[test]
    fn json_escapes_like_jackson() {
        let mut s = String::new();
        json_str(&mut s, "a\"\\\u{8}\t\n\u{c}\r\u{1f}\u{7f}é/");
        assert_eq!(s, "\"a\\\"\\\\\\b\\t\\n\\f\\r\\u001F\u{7f}é/\"");
    }

    #[test]
    fn errors_are_pinned() {
        let key = txn_log_key("TXNID");
        // Key too short for the type.
        let e = format_record(InternalTopic::TransactionState, Some(&[0]), None).unwrap_err();
        assert_eq!(
            (e.at, e.in_value, e.message.as_str()),
            (0, false, "Could not read version from key's buffer.")
        );
        // Key string cut short: the data starts at byte 4.
        let e = format_record(InternalTopic::TransactionState, Some(&key[..6]), None).unwrap_err();
        assert_eq!((e.at, e.in_value), (4, false));
        assert!(e.message.starts_with("Could not read record with version 0 from key's buffer due to: Error reading string of length 5"), "{}", e.message);
        // Negative string length.
        let e = parse_txn_log_key(&hex("0000 ffff")).unwrap_err();
        assert_eq!(e.at, 2);
        assert!(
            e.message
                .contains("non-nullable field transactionalId was serialized as null"),
            "{}",
            e.message
        );
        // Unknown value version.
        let e = format_record(
            InternalTopic::TransactionState,
            Some(&key),
            Some(&hex("0005 00")),
        )
        .unwrap_err();
        assert_eq!((e.at, e.in_value), (0, true));
        // Truncated value: the start timestamp (bytes 26..34 of the value) is cut.
        let v = txn_log_value(&kafka_test_txn_value(), 1);
        let e =
            format_record(InternalTopic::TransactionState, Some(&key), Some(&v[..30])).unwrap_err();
        assert_eq!((e.at, e.in_value), (26, true));
        assert!(
            e.message.contains("BufferUnderflowException"),
            "{}",
            e.message
        );
        // A huge array count is refused before allocating.
        let e = parse_txn_log_value(&hex("0000 0000000000000064 0032 000001f4 04 7fffffff"))
            .unwrap_err();
        assert_eq!(e.at, 17);
        assert!(e.message.contains("Tried to allocate a collection of size 2147483647, but there are only 0 bytes remaining."), "{}", e.message);
        let e = parse_txn_log_value(&hex("0001 0000000000000064 0032 000001f4 04 ffffffff07"))
            .unwrap_err();
        assert_eq!(e.at, 17);
        // Offset commit with an unknown value version.
        let e = format_record(
            InternalTopic::ConsumerOffsets,
            Some(&offset_commit_key("g", "t", 0)),
            Some(&hex("0009")),
        )
        .unwrap_err();
        assert!(
            e.message.contains("Unknown value version 9"),
            "{}",
            e.to_string()
        );
    }

    #[test]
    fn unknown_tagged_fields_are_skipped_and_checked() {
        let mut v = txn_log_value(&kafka_test_txn_value(), 1);
        *v.last_mut().unwrap() = 1; // one tagged field
        v.extend_from_slice(&hex("05 02 abcd"));
        assert!(format_record(
            InternalTopic::TransactionState,
            Some(&txn_log_key("x")),
            Some(&v)
        )
        .is_ok());
        v.truncate(v.len() - 1);
        let e = parse_txn_log_value(&v).unwrap_err();
        assert!(
            e.message.contains("unknown tagged field 5"),
            "{}",
            e.message
        );
    }

    #[test]
    fn decode_option_fills_formatted_and_pins_errors() {
        use crate::encode::{encode_batch, BatchSpec, RecordSpec};
        use crate::report::to_hex;
        use crate::{decode_bytes, DecodeOptions};
        let key = txn_log_key("TXNID");
        let good = txn_log_value(&kafka_test_txn_value(), 1);
        let bad = &good[..30];
        let rec = |k: &[u8], v: Option<&[u8]>| RecordSpec {
            key: Some(to_hex(k)),
            value: v.map(to_hex),
            ..RecordSpec::default()
        };
        let spec = BatchSpec {
            records: vec![
                rec(&key, Some(&good)),
                rec(&key, None),
                rec(&key, Some(bad)),
                rec(&[0, 7], None),
            ],
            ..BatchSpec::default()
        };
        let bytes = encode_batch(&spec).unwrap();
        let off = decode_bytes(&bytes, &DecodeOptions::default());
        assert!(off.batches[0].records.iter().all(|r| r.formatted.is_none()));
        let opts = DecodeOptions {
            formatter: Some(InternalTopic::TransactionState),
            ..DecodeOptions::default()
        };
        let r = decode_bytes(&bytes, &opts);
        let recs = &r.batches[0].records;
        assert!(recs[0]
            .formatted
            .as_deref()
            .unwrap()
            .contains("\"transactionStartTimestampMs\":750"));
        assert!(recs[1]
            .formatted
            .as_deref()
            .unwrap()
            .ends_with("\"value\":null}"));
        assert_eq!(recs[2].formatted, None);
        assert_eq!(recs[3].formatted.as_deref(), Some(""));
        assert_eq!(r.errors.len(), 1, "{:?}", r.errors);
        let e = &r.errors[0];
        let value_start = r.batches[0]
            .fields
            .iter()
            .find(|f| f.name == "records[2].value")
            .unwrap()
            .start;
        assert_eq!((e.kind, e.at), ("RuntimeException", value_start + 26));
        assert!(e.message.starts_with("Could not read record at offset 2 due to: Could not read record with version 1 from value's buffer"));
        // Without spans the issue falls back to the batch start.
        let r = decode_bytes(
            &bytes,
            &DecodeOptions {
                spans: false,
                ..opts.clone()
            },
        );
        assert_eq!(r.errors[0].at, 0);
        // Compressed: pinned on the payload, with the offset inside the decompressed bytes.
        let mut gz = spec.clone();
        gz.header.attributes.compression = Some("gzip".into());
        let r = decode_bytes(&encode_batch(&gz).unwrap(), &opts);
        let e = &r.errors[0];
        assert_eq!(
            e.at,
            r.batches[0].decompressed.as_ref().unwrap().compressed_start
        );
        let dv = r.batches[0]
            .fields
            .iter()
            .find(|f| f.name == "records[2].value")
            .unwrap()
            .start;
        assert_eq!(e.decompressed_at, Some(dv + 26));
    }

    mod props {
        use super::super::*;
        use proptest::prelude::*;

        fn txn_value() -> impl Strategy<Value = TxnLogValue> {
            (
                any::<i64>(),
                any::<i64>(),
                any::<i64>(),
                any::<i16>(),
                any::<i32>(),
                1i8..8,
                proptest::collection::vec(
                    (".{0,8}", proptest::collection::vec(any::<i32>(), 0..4)),
                    0..4,
                ),
                any::<i64>(),
                any::<i64>(),
                any::<i16>(),
            )
                .prop_map(|(a, b, c, d, e, f, g, h, i, j)| TxnLogValue {
                    producer_id: a,
                    previous_producer_id: b,
                    next_producer_id: c,
                    producer_epoch: d,
                    transaction_timeout_ms: e,
                    transaction_status: f,
                    transaction_partitions: g,
                    transaction_last_update_timestamp_ms: h,
                    transaction_start_timestamp_ms: i,
                    client_transaction_version: j,
                })
        }

        proptest! {
            #[test]
            fn arbitrary_bytes_never_panic(key in proptest::option::of(proptest::collection::vec(any::<u8>(), 0..64)),
                                           value in proptest::option::of(proptest::collection::vec(any::<u8>(), 0..96))) {
                for t in [InternalTopic::TransactionState, InternalTopic::ConsumerOffsets] {
                    let _ = format_record(t, key.as_deref(), value.as_deref());
                }
                let _ = parse_txn_log_value(value.as_deref().unwrap_or(&[]));
                let _ = parse_offset_commit_value(value.as_deref().unwrap_or(&[]));
            }

            #[test]
            fn valid_prefix_then_garbage_never_panics(v in txn_value(), cut in 0usize..200, junk in proptest::collection::vec(any::<u8>(), 0..16)) {
                for version in [0i16, 1] {
                    let mut b = txn_log_value(&v, version);
                    b.truncate(cut.min(b.len()));
                    b.extend_from_slice(&junk);
                    let _ = format_record(InternalTopic::TransactionState, Some(&txn_log_key("k")), Some(&b));
                }
            }

            #[test]
            fn txn_value_round_trips(v in txn_value(), id in ".{0,16}") {
                let p = parse_txn_log_value(&txn_log_value(&v, 1)).unwrap();
                prop_assert_eq!(&p.value, &v);
                prop_assert_eq!(parse_txn_log_key(&txn_log_key(&id)).unwrap(), id);
                let s = format_record(InternalTopic::TransactionState, Some(&txn_log_key("k")), Some(&txn_log_value(&v, 0))).unwrap();
                prop_assert!(s.starts_with("{\"key\":{\"type\":0"), "{}", s);
            }

            #[test]
            fn offset_commit_round_trips(g in ".{0,12}", t in ".{0,12}", p in any::<i32>(), o in any::<i64>(), le in any::<i32>(), m in ".{0,12}", ts in any::<i64>()) {
                let c = OffsetCommit { group: g.clone(), topic: t.clone(), partition: p, offset: o, leader_epoch: le, metadata: m.clone(), commit_timestamp_ms: ts };
                let k = parse_offset_commit_key(&offset_commit_key(&g, &t, p)).unwrap();
                prop_assert_eq!((k.group, k.topic, k.partition), (g, t, p));
                let v = parse_offset_commit_value(&offset_commit_value(&c)).unwrap();
                prop_assert_eq!((v.offset, v.leader_epoch, v.metadata, v.commit_timestamp_ms), (o, le, m, ts));
            }
        }
    }
}
