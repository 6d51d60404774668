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

use crate::wire::reader::{write, ReadError, Reader};

mod writer;
mod parser;
mod formatter;
#[allow(unused_imports)]
pub use writer::*;
#[allow(unused_imports)]
pub use parser::*;
#[allow(unused_imports)]
pub use formatter::*;

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

#[cfg(test)]
mod tests;
