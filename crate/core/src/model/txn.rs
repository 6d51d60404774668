// Over 800 lines on purpose: one state machine, `World` (the cluster in the transactions model), whose step handlers share its private fields; its direct requests are apart (txn/requests.rs).
//! Transactions, end to end (issue 5): transactional producers with Kafka's client
//! `TransactionManager` states, the transaction coordinator ([`super::coordinator`]) and its
//! `__transaction_state` log, WriteTxnMarkers reaching each partition independently, the
//! partitions' logs with HW/LSO and the aborted-transaction index ([`super::partition`]),
//! `__consumer_offsets` with transactional offset commits and group-generation fencing
//! (KIP-447), read_committed and read_uncommitted consumers, and an external side effect
//! that no abort can undo.
//!
//! Sans-IO and deterministic: time only moves when a step says so, producer ids come from a
//! counter, and every record any log holds is a real Record Batch built by the codec.
//! Rule ids are those of the team reference `semantics.md` (§2–§6); each message names the
//! Kafka source it follows.

use alloc::collections::{BTreeMap, BTreeSet};
use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;
use core::fmt;

use super::coordinator::{self, Answer, Coordinator, Tv, TxnState, TRANSACTION_STATE_PARTITIONS};
pub use super::name::{empty_set, Name};
use super::errors::ErrorCode;
use super::line::KafkaLine;
use super::partition::{Decision, Isolation, MarkerVersion, Outcome, Partition};
use crate::wire::write::{BatchWriter, Record};
use super::kafka_source::{ADD_PARTITIONS_TO_TXN_MANAGER, COMPLETED_FETCH, KIP_939, OFFSET_METADATA_MANAGER, REPLICA_MANAGER_RETRY, REPLICA_MANAGER_VERIFICATION, TRANSACTION_COORDINATOR, TRANSACTION_MANAGER, TRANSACTION_MARKER_CHANNEL_MANAGER, TRANSACTION_STATE_MANAGER, TRANSACTION_VERSION};

/// Messages and narration are text for people: built only when the world traces
/// (`World::trace`, on for scenarios and views; off for long runs and the schedule checker,
/// where only the decisions and the invariants matter). The text expression is evaluated
/// only when tracing.
macro_rules! msg {
    ($w:expr, $from:expr, $to:expr, $kind:expr, $text:expr $(,)?) => {
        if $w.trace {
            let (from, to, text) = ($from, $to, $text);
            $w.push_msg(from, to, $kind, text, None, None, ErrorCode::NONE)
        } else {
            usize::MAX
        }
    };
}
macro_rules! msg_rule {
    ($w:expr, $from:expr, $to:expr, $kind:expr, $text:expr, $rule:expr, $source:expr, $err:expr $(,)?) => {
        if $w.trace {
            let (from, to, text) = ($from, $to, $text);
            $w.push_msg(from, to, $kind, text, Some($rule), Some($source), $err)
        } else {
            usize::MAX
        }
    };
}
macro_rules! say {
    ($w:expr, $text:expr $(,)?) => {
        if $w.trace {
            let text = $text;
            $w.say(text);
        }
    };
}

/// `max.block.ms` (ProducerConfig's default): how long commitTransaction() and
/// abortTransaction() await their answer before throwing a TimeoutException.
const MAX_BLOCK_MS: i64 = 60_000;

/// `__consumer_offsets` partitions (`offsets.topic.num.partitions` default).
pub const CONSUMER_OFFSETS_PARTITIONS: i32 = 50;
/// `transaction.timeout.ms` client default.
pub const DEFAULT_TXN_TIMEOUT_MS: i32 = 60_000;

/// `add.partitions.to.txn.retry.backoff.ms` (AddPartitionsToTxnConfig default): the TV2
/// leader's backoff between implicit adds answered CONCURRENT_TRANSACTIONS (V6).
const ADD_PARTITIONS_RETRY_BACKOFF_MS: i64 = 20;
/// min(`add.partitions.to.txn.retry.backoff.max.ms` (100), `request.timeout.ms` (30000)):
/// how long after its first try the TV2 leader keeps retrying (V6).
const ADD_PARTITIONS_RETRY_WINDOW_MS: i64 = 100;

/// The client's `TransactionManager.State` (semantics.md §6.1).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ClientState {
    Uninitialized,
    Initializing,
    Ready,
    InTransaction,
    CommittingTransaction,
    AbortingTransaction,
    AbortableError,
    FatalError,
}

impl ClientState {
    pub fn name(self) -> &'static str {
        match self {
            ClientState::Uninitialized => "UNINITIALIZED",
            ClientState::Initializing => "INITIALIZING",
            ClientState::Ready => "READY",
            ClientState::InTransaction => "IN_TRANSACTION",
            ClientState::CommittingTransaction => "COMMITTING_TRANSACTION",
            ClientState::AbortingTransaction => "ABORTING_TRANSACTION",
            ClientState::AbortableError => "ABORTABLE_ERROR",
            ClientState::FatalError => "FATAL_ERROR",
        }
    }
}

/// A coordinator operation the client keeps retrying (CONCURRENT_TRANSACTIONS, or a
/// timed-out commit/abort the application calls again, §6.2).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PendingOp {
    Init,
    Commit,
    Abort,
}

impl PendingOp {
    fn method(self) -> &'static str {
        match self {
            PendingOp::Init => "initTransactions",
            PendingOp::Commit => "commitTransaction",
            PendingOp::Abort => "abortTransaction",
        }
    }
}

/// `commit P lose-response`: the EndTxn's answer is lost when the coordinator accepted it or
/// asked for a retry (an error answer still comes back).
fn end_answer_lost(lose_response: bool, a: &Answer) -> bool {
    lose_response && (a.error == ErrorCode::NONE || a.error == coordinator::CONCURRENT_TRANSACTIONS)
}

/// A transactional batch a client built and gave its sequence: partition `partition` (an
/// index), its bytes and record values, transaction instance `txn`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SentBatch {
    pub partition: usize,
    pub bytes: Vec<u8>,
    pub values: Vec<String>,
    pub txn: usize,
}

/// One transactional producer instance (a Java 4.x `KafkaProducer` with a transactional.id).
#[derive(Clone, Debug)]
pub struct Client {
    pub name: Name,
    pub transactional_id: Name,
    pub timeout_ms: i32,
    pub two_phase_commit: bool,
    pub state: ClientState,
    pub pid: i64,
    pub epoch: i16,
    /// true when the client speaks the transactions-V2 protocol (KIP-890).
    pub tv2: bool,
    /// The finalized transaction.version in the last ApiVersions answer the client read: the
    /// Java client reads it when it connects, so a live connection does not see an upgrade.
    pub features_tv: u8,
    pub sequences: BTreeMap<String, i32>,
    /// Partitions added to the current transaction (TV1: by AddPartitionsToTxn).
    pub added: BTreeSet<Name>,
    pub started: bool,
    pub pending: Option<PendingOp>,
    /// The application called commit/abort, the response never came: outcome unknown.
    pub outcome_unknown: bool,
    pub last_error: Option<String>,
    pub crashed: bool,
    /// Metrics, as the Java client names them.
    pub begin_ms: i64,
    /// Sends waiting on a retriable answer (CONCURRENT_TRANSACTIONS while the previous
    /// transaction completes): the client sends them again once it can.
    pub held: Vec<(String, Vec<String>)>,
    /// Batches that already have their sequence and were answered with a retriable error
    /// (a held Produce released while the previous transaction completes): the `Sender`
    /// re-enqueues them and sends them again as they are, ahead of later batches.
    pub requeued: Vec<SentBatch>,
    /// Batches written but not acknowledged: acks=all waits for the HW (S1). commit/abort waits
    /// for them (the client flushes before EndTxn).
    pub unacked: Vec<replication::Unacked>,
}

#[derive(Clone, Debug)]
pub struct Group {
    pub name: String,
    pub generation: i32,
    /// Materialized offsets: partition → offset.
    pub committed: BTreeMap<String, i64>,
    /// Pending transactional offsets: (producer id, partition, offset) (G4).
    pub pending: Vec<(i64, String, i64)>,
    /// Member ids (the model's consumers of the group go by their names); none: the group is
    /// Empty, as a "simple" group a TxnOffsetCommit with generation −1 creates (G1).
    pub members: Vec<String>,
    /// Static members (`group.instance.id` → member id, `ClassicGroup.staticMembers`).
    pub static_members: Vec<(String, String)>,
}

impl Group {
    /// G5: one partition's OffsetFetch answer (`OffsetMetadataManager.fetchOffsets`): with
    /// requireStable, UNSTABLE_OFFSET_COMMIT while a transactional commit of it is pending;
    /// else the materialized offset (`None`: none committed).
    pub fn fetch_offset(&self, partition: &str, require_stable: bool) -> OffsetFetch {
        if require_stable && self.pending.iter().any(|x| x.1 == partition) {
            Err(ErrorCode::UNSTABLE_OFFSET_COMMIT)
        } else {
            Ok(self.committed.get(partition).copied())
        }
    }
}

/// Why the group coordinator refuses a TxnOffsetCommit's group fields (G1/G2).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GroupRefusal {
    pub error: ErrorCode,
    pub rule: &'static str,
    pub why: String,
}

#[derive(Clone, Debug)]
pub struct Consumer {
    pub name: String,
    pub isolation: Isolation,
    pub group: Option<String>,
    pub generation: i32,
    pub partitions: Vec<String>,
    pub positions: BTreeMap<String, i64>,
    /// (partition, offset, value) of each record handed to the application.
    pub received: Vec<(Name, i64, Option<Name>)>,
}

/// A WriteTxnMarkers entry for one partition, queued by the coordinator (K2).
#[derive(Clone, Debug)]
pub struct MarkerReq {
    pub transactional_id: Name,
    pub txn: usize,
    pub pid: i64,
    pub epoch: i16,
    pub commit: bool,
    pub coordinator_epoch: i32,
    pub partition: Name,
    pub version: MarkerVersion,
    /// Held up in the network (`delay marker`): not sent by `deliver markers`.
    pub held: bool,
}

/// One transaction as the model tracks it (for the invariants).
#[derive(Clone, Debug, Default)]
pub struct TxnInstance {
    pub transactional_id: Name,
    pub producer: Name,
    pub pid: i64,
    pub epoch: i16,
    pub outcome: Option<bool>,
    pub markers: Vec<bool>,
    pub offsets: Vec<(String, String, i64)>,
    /// Record indexes written in this transaction.
    pub records: Vec<usize>,
    pub commit_by_fenced: bool,
}

/// A record's values as the timeline shows them: a single value (most records) is held
/// inline, more in a list, so writing a record allocates no list for one value. Derefs to
/// the slice of values (`record.values.iter()`, `record.values[0]`).
#[derive(Clone, Default, PartialEq, Eq)]
pub struct Values(ValuesRepr);

#[derive(Clone, PartialEq, Eq)]
enum ValuesRepr {
    One(Option<Name>),
    Many(Vec<Option<Name>>),
}

impl Default for ValuesRepr {
    fn default() -> Self {
        ValuesRepr::Many(Vec::new())
    }
}

impl Values {
    /// One value.
    pub fn one(v: Option<Name>) -> Values {
        Values(ValuesRepr::One(v))
    }
}

impl core::ops::Deref for Values {
    type Target = [Option<Name>];
    fn deref(&self) -> &[Option<Name>] {
        match &self.0 {
            ValuesRepr::One(v) => core::slice::from_ref(v),
            ValuesRepr::Many(v) => v,
        }
    }
}

impl From<Vec<Option<Name>>> for Values {
    fn from(v: Vec<Option<Name>>) -> Values {
        Values(ValuesRepr::Many(v))
    }
}

impl FromIterator<Option<Name>> for Values {
    fn from_iter<I: IntoIterator<Item = Option<Name>>>(it: I) -> Values {
        let mut it = it.into_iter();
        let Some(first) = it.next() else { return Values::default() };
        match it.next() {
            None => Values::one(first),
            Some(second) => {
                let mut v = Vec::with_capacity(2 + it.size_hint().0);
                v.push(first);
                v.push(second);
                v.extend(it);
                Values(ValuesRepr::Many(v))
            }
        }
    }
}

impl fmt::Debug for Values {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

/// A record's timeline text, kept as data and written out when read (`Display`,
/// `to_string()`): a data batch's values and base offset, a marker's result and coordinator
/// epoch, or text given as it is. Writing a record formats nothing.
#[derive(Clone, PartialEq, Eq)]
pub struct RecordText(TextRepr);

#[derive(Clone, PartialEq, Eq)]
enum TextRepr {
    Text(String),
    /// `format!("{} @{base_offset}", values.join(" "))`.
    Data { values: Values, base_offset: i64 },
    /// `format!("{COMMIT|ABORT} marker (coordinator epoch {coordinator_epoch})")`.
    Marker { commit: bool, coordinator_epoch: i32 },
}

impl RecordText {
    /// A data record's text: its values, then `@base offset`.
    pub fn data(values: Values, base_offset: i64) -> RecordText {
        RecordText(TextRepr::Data { values, base_offset })
    }

    /// A marker record's text.
    pub fn marker(commit: bool, coordinator_epoch: i32) -> RecordText {
        RecordText(TextRepr::Marker { commit, coordinator_epoch })
    }

    /// Whether the written text contains `pat` (`str::contains`).
    pub fn contains(&self, pat: &str) -> bool {
        match &self.0 {
            TextRepr::Text(s) => s.contains(pat),
            _ => self.to_string().contains(pat),
        }
    }
}

impl From<String> for RecordText {
    fn from(s: String) -> RecordText {
        RecordText(TextRepr::Text(s))
    }
}

impl fmt::Display for RecordText {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.0 {
            TextRepr::Text(s) => f.write_str(s),
            TextRepr::Data { values, base_offset } => {
                for (k, v) in values.iter().enumerate() {
                    if k > 0 {
                        f.write_str(" ")?;
                    }
                    f.write_str(v.as_deref().unwrap_or_default())?;
                }
                write!(f, " @{base_offset}")
            }
            TextRepr::Marker { commit, coordinator_epoch } => {
                write!(f, "{} marker (coordinator epoch {coordinator_epoch})", if *commit { "COMMIT" } else { "ABORT" })
            }
        }
    }
}

impl fmt::Debug for RecordText {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&self.to_string(), f)
    }
}

/// A record written to any log, for the timeline.
#[derive(Clone, Debug)]
pub struct LogRecord {
    pub lane: Name,
    pub partition: Name,
    pub offset: i64,
    pub last_offset: i64,
    pub kind: &'static str,
    pub pid: i64,
    pub epoch: i16,
    pub transactional: bool,
    pub values: Values,
    pub text: RecordText,
    pub step: usize,
    pub closed_at: Option<usize>,
    pub outcome: Option<&'static str>,
    pub bytes: Vec<u8>,
    pub txn: Option<usize>,
    /// The step whose election truncated it from the log (S6).
    pub truncated_at: Option<usize>,
}

/// A message between lanes.
#[derive(Clone, Debug)]
pub struct Message {
    /// Lanes, shared (`producer:app`, `coordinator`, …).
    pub from: Name,
    pub to: Name,
    pub kind: &'static str,
    pub text: String,
    pub rule: Option<&'static str>,
    pub source: Option<&'static str>,
    pub error: Option<ErrorCode>,
    pub lost: bool,
    pub record: Option<usize>,
}

#[derive(Clone, Debug)]
pub struct Effect {
    pub name: String,
    pub key: Option<String>,
    pub producer: String,
    pub step: usize,
    pub duplicate: bool,
}

#[derive(Clone, Debug)]
pub struct Delivery {
    pub consumer: Name,
    pub partition: Name,
    pub offset: i64,
    pub value: Option<Name>,
    pub step: usize,
    pub record: Option<usize>,
}

/// A deliberate fault for tests of the invariant checker (never used by scenarios).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Sabotage {
    /// read_committed consumers skip abort filtering and read up to the high watermark.
    ReadCommittedSeesAborted,
}

impl Sabotage {
    pub fn parse(s: &str) -> Option<Sabotage> {
        match s {
            "read-committed-sees-aborted" => Some(Sabotage::ReadCommittedSeesAborted),
            _ => None,
        }
    }
}

/// Settings of the simulated cluster.
#[derive(Clone, Debug)]
pub struct ClusterConfig {
    /// The finalized `transaction.version` feature level (absent = 0).
    pub transaction_version: u8,
    /// Broker `transaction.two.phase.commit.enable`.
    pub two_phase_commit: bool,
    /// Modelled network round trip, for the latency figures.
    pub rtt_ms: i64,
    /// Modelled time of one acks=all append (a log write replicated to the ISR).
    pub append_ms: i64,
    /// Brokers the data partitions are spread over (round-robin), for marker requests.
    pub brokers: usize,
    /// The Kafka line whose answers the model gives where lines differ ([`KafkaLine`]).
    pub kafka: KafkaLine,
    /// Broker `transaction.partition.verification.enable=false` (default true): a TV1 client's
    /// transactional Produce is appended without asking the coordinator (V1); a TV2 client's
    /// is still added by the leader (ADD_PARTITION does not depend on it).
    pub verification_disabled: bool,
    /// Broker `transactional.id.expiration.ms` (default 7 days): an idle transactional.id's
    /// metadata is removed after this long (T4).
    pub transactional_id_expiration_ms: i64,
    /// Broker `transaction.remove.expired.transaction.cleanup.interval.ms` (default 1 hour):
    /// how often the coordinator looks for expired transactional.ids (T4).
    pub transactional_id_expiration_interval_ms: i64,
    /// Broker `transaction.abort.timed.out.transaction.cleanup.interval.ms` (default 10 s): how
    /// often the coordinator looks for transactions open longer than their timeout (T1; its
    /// "transaction-abort" task, scheduled every interval from the coordinator's start).
    pub abort_timed_out_interval_ms: i64,
    /// `default.replication.factor` of the data partitions (1: no followers, HW = LEO).
    pub replication_factor: usize,
    /// Broker `replica.lag.time.max.ms` (S3).
    pub replica_lag_time_max_ms: i64,
    /// `unclean.leader.election.enable` (S5; Kafka's default false).
    pub unclean_leader_election: bool,
    /// Broker `transaction.max.timeout.ms` (`None`: Kafka's 15 minutes; I3).
    pub transaction_max_timeout_ms: Option<i32>,
    /// Broker `producer.id.expiration.ms` (X1; default 1 day) and how often each leader checks
    /// (`producer.id.expiration.check.interval.ms`, default 10 minutes).
    pub producer_id_expiration_ms: i64,
    pub producer_id_expiration_check_interval_ms: i64,
}

/// Kafka's default `producer.id.expiration.check.interval.ms`.
pub const PRODUCER_ID_EXPIRATION_CHECK_INTERVAL_MS_DEFAULT: i64 = 600_000;

/// Kafka's default `transactional.id.expiration.ms` (`TransactionStateManagerConfig`).
pub const TRANSACTIONAL_ID_EXPIRATION_MS_DEFAULT: i64 = 7 * 24 * 3_600_000;
/// Kafka's default `transaction.remove.expired.transaction.cleanup.interval.ms`.
pub const TRANSACTIONAL_ID_EXPIRATION_INTERVAL_MS_DEFAULT: i64 = 3_600_000;
/// Kafka's default `transaction.abort.timed.out.transaction.cleanup.interval.ms`
/// (`TransactionStateManagerConfig.TRANSACTIONS_ABORT_TIMED_OUT_TRANSACTION_CLEANUP_INTERVAL_MS_DEFAULT`).
pub const ABORT_TIMED_OUT_INTERVAL_MS_DEFAULT: i64 = 10_000;

impl Default for ClusterConfig {
    fn default() -> Self {
        ClusterConfig {
            transaction_version: 2,
            two_phase_commit: false,
            rtt_ms: 1,
            append_ms: 2,
            brokers: 3,
            kafka: KafkaLine::K43,
            verification_disabled: false,
            transactional_id_expiration_ms: TRANSACTIONAL_ID_EXPIRATION_MS_DEFAULT,
            transactional_id_expiration_interval_ms: TRANSACTIONAL_ID_EXPIRATION_INTERVAL_MS_DEFAULT,
            abort_timed_out_interval_ms: ABORT_TIMED_OUT_INTERVAL_MS_DEFAULT,
            replication_factor: 1,
            replica_lag_time_max_ms: super::partition::REPLICA_LAG_TIME_MAX_MS_DEFAULT,
            unclean_leader_election: false,
            transaction_max_timeout_ms: None,
            producer_id_expiration_ms: super::partition::DEFAULT_PRODUCER_ID_EXPIRATION_MS,
            producer_id_expiration_check_interval_ms: PRODUCER_ID_EXPIRATION_CHECK_INTERVAL_MS_DEFAULT,
        }
    }
}

/// V5 for a TV2 leader's add (Produce v12, TxnOffsetCommit v5): the coordinator's
/// PRODUCER_FENCED goes back as INVALID_PRODUCER_EPOCH; CONCURRENT_TRANSACTIONS is kept.
pub fn leader_add_error(e: ErrorCode) -> ErrorCode {
    SupportedOperation::AddPartition.map(e)
}

/// What the request a leader verifies may be answered with, by its version
/// (`AddPartitionsToTxnManager.TransactionSupportedOperation`, Kafka 4.3.1): a client too old
/// for TRANSACTION_ABORTABLE gets INVALID_TXN_STATE instead (V5).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SupportedOperation {
    /// Produce v3–v10, TxnOffsetCommit v0–v3: verify only; TRANSACTION_ABORTABLE → INVALID_TXN_STATE.
    DefaultError,
    /// Produce v11, TxnOffsetCommit v4: verify only; TRANSACTION_ABORTABLE kept (KIP-890).
    GenericErrorSupported,
    /// Produce v12+, TxnOffsetCommit v5: the leader adds the partition (TV2).
    AddPartition,
}

impl SupportedOperation {
    /// `produceRequestVersionToTransactionSupportedOperation`.
    pub fn of_produce(version: i16) -> Self {
        match version {
            v if v >= 12 => SupportedOperation::AddPartition,
            11 => SupportedOperation::GenericErrorSupported,
            _ => SupportedOperation::DefaultError,
        }
    }

    /// `txnOffsetCommitRequestVersionToTransactionSupportedOperation`.
    pub fn of_txn_offset_commit(version: i16) -> Self {
        match version {
            v if v > 4 => SupportedOperation::AddPartition,
            4 => SupportedOperation::GenericErrorSupported,
            _ => SupportedOperation::DefaultError,
        }
    }

    /// `AddPartitionsToTxnHandler.onComplete`: a partition's PRODUCER_FENCED goes back as
    /// INVALID_PRODUCER_EPOCH, and TRANSACTION_ABORTABLE as INVALID_TXN_STATE to a
    /// DEFAULT_ERROR request; every other answer as it is.
    pub fn map(self, e: ErrorCode) -> ErrorCode {
        match e {
            ErrorCode::PRODUCER_FENCED => ErrorCode::INVALID_PRODUCER_EPOCH,
            ErrorCode::TRANSACTION_ABORTABLE if self == SupportedOperation::DefaultError => ErrorCode::INVALID_TXN_STATE,
            e => e,
        }
    }
}

/// One partition's answer to OffsetFetch: the committed offset (`None`: none), or the error
/// (UNSTABLE_OFFSET_COMMIT while a transactional commit is pending).
pub type OffsetFetch = Result<Option<i64>, ErrorCode>;

/// One `group-state` line.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize), serde(rename_all = "camelCase", default))]
pub struct GroupSeed {
    pub group: String,
    pub generation: i32,
    pub members: Vec<String>,
    /// (group.instance.id, member id).
    pub static_members: Vec<(String, String)>,
    /// (partition, committed offset).
    pub committed: Vec<(String, i64)>,
}

/// The transactions world.
#[derive(Clone, Debug)]
pub struct World {
    pub start_ms: i64,
    /// The model time up to which the transactional.id expiry scans have run (T4).
    pub expiry_scans_done: i64,
    /// The model time up to which the coordinator's timeout scans have run (T1).
    pub abort_scans_done: i64,
    pub cluster: ClusterConfig,
    pub coordinator: Coordinator,
    pub coordinator_epoch: i32,
    /// `__transaction_state-N` partitions in use.
    pub txn_logs: BTreeMap<i32, Partition>,
    /// `__consumer_offsets-N` partitions in use.
    pub offsets_logs: BTreeMap<i32, Partition>,
    pub groups: Vec<Group>,
    pub clients: Vec<Client>,
    pub consumers: Vec<Consumer>,
    pub markers: Vec<MarkerReq>,
    pub txns: Vec<TxnInstance>,
    /// Per transactional.id: the open TxnInstance index.
    pub open_txn: BTreeMap<Name, usize>,
    pub records: Vec<LogRecord>,
    pub deliveries: Vec<Delivery>,
    pub effects: Vec<Effect>,
    pub metrics: Metrics,
    /// Transactions whose completion time we report: (partitions, EndTxn ms, complete ms,
    /// the step that completed it).
    pub completions: Vec<(usize, i64, i64, usize)>,
    pub end_txn_at: BTreeMap<usize, i64>,
    pub outside_model: Option<String>,
    pub sabotage: Option<Sabotage>,
    /// Producer instances that have been fenced (by name).
    pub fenced: BTreeSet<String>,
    pub step: usize,
    pub messages: Vec<Message>,
    pub narration: Vec<String>,
    /// Open transactional record indexes by partition, then producer id (an empty list: none).
    pub open_records: BTreeMap<Name, BTreeMap<i64, Vec<usize>>>,
    /// Data record index by partition: (base offset, record index), in offset order.
    pub data_index: BTreeMap<Name, Vec<(i64, usize)>>,
    /// Build messages and narration (off: decisions and invariants only).
    pub trace: bool,
    /// Invariant 1 is checked as each record is delivered (`poll`): the first break.
    pub read_committed_break: Option<String>,
    /// Transactions (instance, coordinator epoch) whose coordinator stopped sending markers
    /// because a leader refused one (K4: INVALID_PRODUCER_EPOCH or TRANSACTION_COORDINATOR_FENCED,
    /// `TransactionMarkerRequestCompletionHandler`'s abortSending): never completed by that
    /// coordinator, so they stay in Prepare* with their pending Complete*.
    pub markers_abandoned: BTreeSet<(usize, i32)>,
    /// Reused buffer for the `__transaction_state` key and value of each append.
    scratch: Vec<u8>,
    /// Shared names: (partition, its lane) per data partition, by index.
    partition_names: Vec<(Name, Name)>,
    /// Shared names of the `__transaction_state` partitions in use.
    txn_log_names: Vec<(i32, Name)>,
    /// Shared lane names of the consumers, by index.
    consumer_lanes: Vec<Name>,
    /// Shared lane names of the producers.
    producer_lanes: Vec<Name>,
    /// Reused buffers: the records of one fetch, the markers of one delivery.
    fetched: Vec<(i64, Option<Name>)>,
    delivering: Vec<MarkerReq>,
    /// Senders of requests written in the script (`from=NAME`, `client` by default) that are
    /// not Java producers: each gets a `producer:NAME` lane.
    pub request_senders: Vec<String>,
    /// Mirroring an idempotence script's run ([`World::mirror_hosted`]): per partition, the log
    /// end up to which its entries have records.
    mirrored_to: Vec<i64>,
    /// acks=-1 Produce answers held until the HW passes their batch (DelayedProduce).
    pub held: Vec<replication::HeldAnswer>,
    /// The coordinator's WriteTxnMarkers whose acks=-1 answer waits for the HW.
    pub held_markers: Vec<replication::HeldMarker>,
    /// Faults armed for a Java client's next request of an API (`inject P API …`).
    pub injections: Vec<(usize, &'static str, inject::Injection)>,
    /// Java clients' requests held in the network (`inject P EndTxn hold`, `release P EndTxn`).
    pub held_requests: Vec<inject::HeldRequest>,
    held_seq: u64,
    /// Held answers sent since the runner last took them: (id, the answer).
    pub released: Vec<(u64, Reply)>,
    /// The model time up to which the leaders' ISR checks have run (S3).
    pub isr_checks_done: i64,
    /// The model time up to which the leaders' producer-id expiration checks have run (X1).
    pub producer_checks_done: i64,
    /// The Java producers without a transactional.id, with their network: the idempotence
    /// model, and the cluster it acts on — the world's own: its data partitions' leaders
    /// (`idem.cluster.partitions`), clock and producer-id counter ([`idempotent`]).
    pub idem: super::idempotence::Sim,
}

pub const METRIC_NAMES: [&str; 10] = [
    "txn-init-time-ns-total",
    "txn-begin-time-ns-total",
    "txn-send-offsets-time-ns-total",
    "txn-commit-time-ns-total",
    "txn-abort-time-ns-total",
    "end-txn-requests",
    "add-partitions-to-txn-requests",
    "write-txn-markers-requests",
    "fenced-producers",
    "txn-state-log-appends",
];

/// The model's counters, one slot per name of [`METRIC_NAMES`] (as the Java client and the
/// broker name them): counted without a map lookup, reported by name ([`Metrics::to_map`]).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Metrics(pub [i64; METRIC_NAMES.len()]);

impl Metrics {
    /// The counter named `name` (one of [`METRIC_NAMES`]).
    pub fn get(&self, name: &str) -> Option<i64> {
        METRIC_NAMES.iter().position(|m| *m == name).map(|k| self.0[k])
    }

    /// (name, value) in [`METRIC_NAMES`] order.
    pub fn iter(&self) -> impl Iterator<Item = (&'static str, i64)> + '_ {
        METRIC_NAMES.iter().copied().zip(self.0.iter().copied())
    }

    /// By name, as the state snapshot reports them.
    pub fn to_map(&self) -> BTreeMap<&'static str, i64> {
        self.iter().collect()
    }
}

/// A slot of [`Metrics`]: the index of its name in [`METRIC_NAMES`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Metric {
    InitTime = 0,
    BeginTime = 1,
    SendOffsetsTime = 2,
    CommitTime = 3,
    AbortTime = 4,
    EndTxnRequests = 5,
    AddPartitionsRequests = 6,
    WriteTxnMarkersRequests = 7,
    FencedProducers = 8,
    TxnStateLogAppends = 9,
}

fn lane_producer(name: &str) -> String {
    format!("producer:{name}")
}
fn lane_partition(name: &str) -> String {
    format!("partition:{name}")
}
fn lane_consumer(name: &str) -> String {
    format!("consumer:{name}")
}
const COORD: &str = "coordinator";
const OFFSETS: &str = "offsets";
const EXTERNAL: &str = "external";
const COORD_LANE: Name = Name::fixed(COORD);
const OFFSETS_LANE: Name = Name::fixed(OFFSETS);
const EXTERNAL_LANE: Name = Name::fixed(EXTERNAL);

/// The group coordinator's answer to a client's TxnOffsetCommit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum OffsetsAnswer {
    /// G4: written, pending until the marker.
    Written,
    /// G3: the coordinator's add of the offsets partition refused (TV2).
    AddRefused(ErrorCode),
    /// G1/G2: the group's check refused it.
    Refused(ErrorCode),
    /// The offsets partition's leader refused the write (A2/A3/A9).
    WriteRefused(ErrorCode),
}

/// What a TV1 client's add of a partition (AddPartitionsToTxn / AddOffsetsToTxn) came to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Added {
    /// The partition is in the transaction.
    Yes,
    /// The request is held in the network (`inject P API hold`): no answer yet.
    Held,
    /// The coordinator answered this error.
    Refused(ErrorCode),
}

impl OffsetsAnswer {
    fn error(self) -> ErrorCode {
        match self {
            OffsetsAnswer::Written => ErrorCode::NONE,
            OffsetsAnswer::AddRefused(e) | OffsetsAnswer::Refused(e) | OffsetsAnswer::WriteRefused(e) => e,
        }
    }
}

/// What one client-side call came to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CallResult {
    Ok,
    /// Thrown to the application: without a request (IllegalStateException, …), or the
    /// exception the awaited answer failed the call with (rethrown from
    /// `TransactionalRequestResult.await`: ProducerFencedException, CommitFailedException,
    /// TimeoutException when the answer did not come back, …), as "Class: message".
    Thrown(String),
    /// The call is in progress (retrying CONCURRENT_TRANSACTIONS, or waiting for markers).
    Pending,
}

impl World {
    pub fn new(start_ms: i64, first_pid: i64, cluster: ClusterConfig) -> Self {
        let max_timeout = cluster.transaction_max_timeout_ms;
        let line = cluster.kafka;
        World {
            start_ms,
            expiry_scans_done: start_ms,
            abort_scans_done: start_ms,
            cluster,
            coordinator: Coordinator { max_timeout_ms: max_timeout, line, ..Coordinator::default() },
            coordinator_epoch: 0,
            txn_logs: BTreeMap::new(),
            offsets_logs: BTreeMap::new(),
            groups: Vec::new(),
            clients: Vec::new(),
            consumers: Vec::new(),
            markers: Vec::new(),
            txns: Vec::new(),
            open_txn: BTreeMap::new(),
            records: Vec::new(),
            deliveries: Vec::new(),
            effects: Vec::new(),
            metrics: Metrics::default(),
            completions: Vec::new(),
            end_txn_at: BTreeMap::new(),
            outside_model: None,
            sabotage: None,
            fenced: BTreeSet::new(),
            step: 0,
            messages: Vec::new(),
            narration: Vec::new(),
            open_records: BTreeMap::new(),
            data_index: BTreeMap::new(),
            read_committed_break: None,
            markers_abandoned: BTreeSet::new(),
            trace: true,
            scratch: Vec::new(),
            partition_names: Vec::new(),
            txn_log_names: Vec::new(),
            consumer_lanes: Vec::new(),
            producer_lanes: Vec::new(),
            fetched: Vec::new(),
            delivering: Vec::new(),
            request_senders: Vec::new(),
            mirrored_to: Vec::new(),
            held: Vec::new(),
            held_markers: Vec::new(),
            injections: Vec::new(),
            held_requests: Vec::new(),
            held_seq: 0,
            released: Vec::new(),
            isr_checks_done: start_ms,
            producer_checks_done: start_ms,
            idem: super::idempotence::Sim::new(start_ms, first_pid),
        }
    }

    /// Push a record written to any log, indexing it for markers (open transactional
    /// records by partition and producer id) and for consumers (data batches by base offset).
    fn push_record(&mut self, rec: LogRecord) -> usize {
        let k = self.records.len();
        if rec.transactional && rec.closed_at.is_none() && (rec.kind == "data" || rec.kind == "offset-commit") {
            let by_pid = match self.open_records.get_mut(rec.partition.as_str()) {
                Some(m) => m,
                None => self.open_records.entry(rec.partition.clone()).or_default(),
            };
            by_pid.entry(rec.pid).or_default().push(k);
        }
        if rec.kind == "data" {
            let index = match self.data_index.get_mut(rec.partition.as_str()) {
                Some(v) => v,
                None => self.data_index.entry(rec.partition.clone()).or_default(),
            };
            // Base offsets arrive in log order; a duplicate's original offset replaces its entry.
            let at = index.partition_point(|&(o, _)| o < rec.offset);
            match index.get_mut(at) {
                Some(e) if e.0 == rec.offset => e.1 = k,
                _ => index.insert(at, (rec.offset, k)),
            }
        }
        self.records.push(rec);
        k
    }

    /// Push the record of a data batch written to partition `pi` at `offsets` by producer
    /// (id, epoch): transactional when it belongs to transaction `txn`.
    fn push_data_record(&mut self, pi: usize, offsets: (i64, i64), producer: (i64, i16), values: &[String], bytes: Vec<u8>, txn: Option<usize>) -> usize {
        let (partition, lane) = self.partition_names(pi);
        let values: Values = values.iter().map(|v| Some(Name::from(v.as_str()))).collect();
        self.push_record(LogRecord {
            lane,
            partition,
            offset: offsets.0,
            last_offset: offsets.1,
            kind: "data",
            pid: producer.0,
            epoch: producer.1,
            transactional: txn.is_some(),
            values: values.clone(),
            text: RecordText::data(values, offsets.0),
            step: self.step,
            closed_at: None,
            outcome: None,
            bytes,
            txn,
            truncated_at: None,
        })
    }

    /// The record of the data batch at `offset` on partition `pi` (what a duplicate's answer
    /// points at: the original batch).
    fn record_at(&self, pi: usize, offset: i64) -> Option<usize> {
        let v = self.data_index.get(self.idem.cluster.partitions[pi].name.as_str())?;
        v.binary_search_by_key(&offset, |e| e.0).ok().map(|i| v[i].1)
    }

    /// The shared (name, lane) of data partition `pi`.
    fn partition_names(&mut self, pi: usize) -> (Name, Name) {
        let name = self.idem.cluster.partitions[pi].name.as_str();
        if let Some((n, lane)) = self.partition_names.get(pi).filter(|(n, _)| *n == name) {
            return (n.clone(), lane.clone());
        }
        // First use (or the partition list changed): name it.
        if self.partition_names.len() <= pi {
            self.partition_names.resize(pi + 1, (Name::fixed(""), Name::fixed("")));
        }
        self.partition_names[pi] = (Name::from(name), Name::from(lane_partition(name)));
        self.partition_names[pi].clone()
    }

    /// The shared lane of consumer `ci`.
    fn consumer_lane_at(&mut self, ci: usize) -> Name {
        let name = self.consumers[ci].name.as_str();
        if let Some(lane) = self.consumer_lanes.get(ci).filter(|l| l.strip_prefix("consumer:") == Some(name)) {
            return lane.clone();
        }
        if self.consumer_lanes.len() <= ci {
            self.consumer_lanes.resize(ci + 1, Name::fixed(""));
        }
        self.consumer_lanes[ci] = Name::from(lane_consumer(name));
        self.consumer_lanes[ci].clone()
    }

    /// The lane of producer `name` (shared when it is one of the world's producers).
    fn producer_lane(&self, name: &str) -> Name {
        match self.producer_lanes.iter().find(|l| l.strip_prefix("producer:") == Some(name)) {
            Some(l) => l.clone(),
            None => Name::from(lane_producer(name)),
        }
    }

    /// The lane of partition `name` (shared once the partition is named).
    fn partition_lane(&self, name: &str) -> Name {
        match self.partition_names.iter().find(|(n, _)| *n == name) {
            Some((_, l)) => l.clone(),
            None => Name::from(lane_partition(name)),
        }
    }

    /// The lane of consumer `name` (shared once the consumer is named).
    fn consumer_lane(&self, name: &str) -> Name {
        match self.consumer_lanes.iter().find(|l| l.strip_prefix("consumer:") == Some(name)) {
            Some(l) => l.clone(),
            None => Name::from(lane_consumer(name)),
        }
    }

    /// The lane a marker for `partition` is written on.
    fn marker_lane(&self, partition: &str, offsets: bool) -> Name {
        if offsets {
            OFFSETS_LANE
        } else {
            self.partition_lane(partition)
        }
    }

    /// The shared name of `__transaction_state-{n}`.
    fn txn_log_name(&mut self, n: i32) -> Name {
        if let Some((_, name)) = self.txn_log_names.iter().find(|(k, _)| *k == n) {
            return name.clone();
        }
        let name = Name::from(format!("__transaction_state-{n}"));
        self.txn_log_names.push((n, name.clone()));
        name
    }

    pub fn add_partition(&mut self, name: &str) {
        let mut p = Partition::new(name);
        p.producer_id_expiration_ms = self.cluster.producer_id_expiration_ms;
        if self.cluster.replication_factor > 1 {
            p.set_replication_factor(self.cluster.replication_factor, self.idem.cluster.now_ms);
        }
        self.idem.cluster.partitions.push(p);
        self.partition_names(self.idem.cluster.partitions.len() - 1);
    }

    pub fn add_client(&mut self, name: &str, transactional_id: &str, timeout_ms: i32, two_phase_commit: bool) {
        if !self.producer_lanes.iter().any(|l| l.strip_prefix("producer:") == Some(name)) {
            self.producer_lanes.push(Name::from(lane_producer(name)));
        }
        self.clients.push(Client {
            name: name.into(),
            transactional_id: transactional_id.into(),
            timeout_ms,
            two_phase_commit,
            state: ClientState::Uninitialized,
            pid: -1,
            epoch: -1,
            tv2: false,
            features_tv: 0,
            sequences: BTreeMap::new(),
            added: BTreeSet::new(),
            started: false,
            pending: None,
            outcome_unknown: false,
            last_error: None,
            crashed: false,
            begin_ms: 0,
            held: Vec::new(),
            requeued: Vec::new(),
            unacked: Vec::new(),
        });
    }

    /// A classic consumer group as the group coordinator holds it (`group-state`): its
    /// generation, members, static members and committed offsets.
    pub fn seed_group(&mut self, g: &GroupSeed) {
        self.groups.retain(|x| x.name != g.group);
        self.groups.push(Group {
            name: g.group.clone(),
            generation: g.generation,
            committed: g.committed.iter().cloned().collect(),
            pending: Vec::new(),
            members: g.members.clone(),
            static_members: g.static_members.clone(),
        });
    }

    /// Coordinator metadata as if loaded from `__transaction_state` (for scenarios that
    /// start late in a transactional.id's life, e.g. near epoch exhaustion).
    pub fn seed_txn(&mut self, id: &str, pid: i64, epoch: i16) {
        self.coordinator.txns.push(coordinator::TxnMetadata {
            transactional_id: id.into(),
            producer_id: pid,
            prev_producer_id: -1,
            next_producer_id: -1,
            producer_epoch: epoch,
            last_producer_epoch: -1,
            txn_timeout_ms: DEFAULT_TXN_TIMEOUT_MS,
            state: TxnState::CompleteCommit,
            pending_state: None,
            partitions: BTreeSet::new(),
            txn_start_ms: -1,
            last_update_ms: self.idem.cluster.now_ms,
            transit_prev_pid: pid,
            client_tv: if self.cluster.transaction_version >= 2 { 2 } else { 0 },
            added_order: Vec::new(),
        });
        self.idem.cluster.next_producer_id = self.idem.cluster.next_producer_id.max(pid + 1);
    }

    pub fn add_consumer(&mut self, name: &str, isolation: Isolation, group: Option<&str>, partitions: Vec<String>) {
        if let Some(g) = group {
            if !self.groups.iter().any(|x| x.name == g) {
                self.groups.push(Group { name: g.into(), generation: 1, committed: BTreeMap::new(), pending: Vec::new(), members: Vec::new(), static_members: Vec::new() });
            }
            if let Some(x) = self.groups.iter_mut().find(|x| x.name == g && !x.members.iter().any(|m| m == name)) {
                x.members.push(name.into());
            }
        }
        let generation = group.and_then(|g| self.groups.iter().find(|x| x.name == g)).map_or(-1, |g| g.generation);
        let positions = partitions.iter().map(|p| (p.clone(), 0)).collect();
        self.consumers.push(Consumer {
            name: name.into(),
            isolation,
            group: group.map(String::from),
            generation,
            partitions,
            positions,
            received: Vec::new(),
        });
        self.consumer_lane_at(self.consumers.len() - 1);
    }

    fn client_index(&self, name: &str) -> Result<usize, String> {
        self.clients.iter().position(|c| c.name == name).ok_or_else(|| {
            if self.is_idempotent_producer(name) {
                format!("{name} has no transactional.id: this is a transactional producer's step; {name} takes send, deliver request|response bN, lose, delay request, refuse request, timeout and restart")
            } else {
                super::suggest::did_you_mean(format!("no producer named {name:?}"), name, self.clients.iter().map(|c| c.name.as_str()))
            }
        })
    }

    fn partition_index(&self, name: &str) -> Result<usize, String> {
        self.idem.cluster.partitions.iter().position(|p| p.name == name).ok_or_else(|| {
            super::suggest::did_you_mean(format!("no partition named {name:?}"), name, self.idem.cluster.partitions.iter().map(|p| p.name.as_str()))
        })
    }

    /// The index of the consumer `name`; an error naming the nearest one when there is none.
    fn consumer_index(&self, name: &str) -> Result<usize, String> {
        self.consumers.iter().position(|c| c.name == name).ok_or_else(|| {
            super::suggest::did_you_mean(format!("no consumer named {name:?}"), name, self.consumers.iter().map(|c| c.name.as_str()))
        })
    }

    #[allow(clippy::too_many_arguments)]
    fn push_msg(&mut self, from: Name, to: Name, kind: &'static str, text: String, rule: Option<&'static str>, source: Option<&'static str>, error: ErrorCode) -> usize {
        self.messages.push(Message {
            from,
            to,
            kind,
            text,
            rule,
            source,
            error: if error == ErrorCode::NONE { None } else { Some(error) },
            lost: false,
            record: None,
        });
        self.messages.len() - 1
    }

    /// Link message `k` (if traced) to a record.
    fn link(&mut self, k: usize, record: Option<usize>) {
        if let Some(m) = self.messages.get_mut(k) {
            m.record = record;
        }
    }

    fn say(&mut self, mut s: String) {
        if !s.ends_with(['.', ':', '!', '?']) {
            s.push('.');
        }
        self.narration.push(s);
    }

    fn metric(&mut self, m: Metric, by: i64) {
        self.metrics.0[m as usize] += by;
    }

    /// Model time for one request/response and `appends` acks=all appends.
    fn tick(&mut self, appends: i64) -> i64 {
        let d = self.cluster.rtt_ms + appends * self.cluster.append_ms;
        self.idem.cluster.now_ms += d;
        d
    }

    pub fn coordinator_partition(id: &str) -> i32 {
        coordinator::partition_for(id, TRANSACTION_STATE_PARTITIONS)
    }

    pub fn offsets_partition(group: &str) -> i32 {
        coordinator::partition_for(group, CONSUMER_OFFSETS_PARTITIONS)
    }

    fn offsets_name(group: &str) -> String {
        format!("__consumer_offsets-{}", Self::offsets_partition(group))
    }

    /// Persist the coordinator's current metadata for `id` as a TransactionLogKey/Value record
    /// (TSM `appendTransactionToLog`; value version 1 when transaction.version ≥ 1, else 0).
    fn write_txn_log(&mut self, id: &str) -> Option<usize> {
        let ci = self.coordinator.index(id)?;
        self.write_txn_log_at(ci)
    }

    /// [`World::write_txn_log`] for the coordinator's `ci`-th transactional.id: the key and
    /// value are written straight into the batch from the metadata, nothing of it copied.
    fn write_txn_log_at(&mut self, ci: usize) -> Option<usize> {
        let tv = self.cluster.transaction_version;
        let now = self.idem.cluster.now_ms;
        let m = &self.coordinator.txns[ci];
        let id = m.transactional_id.as_str();
        let n = Self::coordinator_partition(id);
        let value_at = txn_log_key_value(&mut self.scratch, m, tv);
        let bytes = plain_batch(&self.scratch[..value_at], &self.scratch[value_at..], now);
        let (state, pid, epoch) = (m.state, m.producer_id, m.producer_epoch);
        let text = if !self.trace {
            String::new()
        } else {
            format!("{id}: {} pid {} epoch {}{}", m.state.name(), m.producer_id, m.producer_epoch, if m.partitions.is_empty() { String::new() } else { format!(" [{}]", m.partitions.iter().cloned().collect::<Vec<_>>().join(", ")) })
        };
        let log = self.txn_logs.entry(n).or_insert_with(|| Partition::new(format!("__transaction_state-{n}")));
        let Outcome::Appended { base_offset, .. } = log.append_client_verdict(&bytes).outcome() else { return None };
        let stored = as_stored(bytes, log);
        debug_assert_eq!(log.name, format!("__transaction_state-{n}"));
        let partition = self.txn_log_name(n);
        self.metric(Metric::TxnStateLogAppends, 1);
        let r = self.push_record(LogRecord {
            lane: Name::fixed(COORD),
            partition,
            offset: base_offset,
            last_offset: base_offset,
            kind: "txn-log",
            pid,
            epoch,
            transactional: false,
            values: Values::one(Some(Name::fixed(state.name()))),
            text: text.into(),
            step: self.step,
            closed_at: None,
            outcome: None,
            bytes: stored,
            txn: None,
            truncated_at: None,
        });
        Some(r)
    }

    /// The coordinator's answer to `producer` about `id` (`parts`: the partitions it added), as
    /// a message (tracing only).
    fn coordinator_answer_msg(&mut self, producer: &str, kind: &'static str, a: &Answer, id: &str, parts: &[&str]) {
        if !self.trace {
            return;
        }
        let why = a.why(id, parts);
        let text = if a.error == ErrorCode::NONE { format!("{kind} response NONE: {why}") } else { format!("{kind} response {}: {why}", a.error) };
        msg_rule!(self, COORD_LANE, self.producer_lane(producer), "response", text, a.rule, a.source, a.error);
    }

    // ----- the application's calls -----------------------------------------------------

    /// The last message, if it is an answer drawn on the timeline.
    fn last_response(&self) -> Option<usize> {
        self.messages.len().checked_sub(1).filter(|k| self.trace && self.messages[*k].kind == "response")
    }

    /// A transactional error reaching the client (§6.3): fatal or abortable.
    fn client_error(&mut self, i: usize, e: ErrorCode, during: &str) {
        let fatal = matches!(e.0, 90 | 49 | 53) || (e == ErrorCode::INVALID_TXN_STATE && during != "Produce");
        let c = &mut self.clients[i];
        c.last_error = Some(format!("{} during {during}", e.exception()));
        let name = c.name.clone();
        if fatal {
            c.state = ClientState::FatalError;
            c.pending = None;
            say!(self, format!("{name}: {} during {during} is fatal: the producer must be closed (TransactionManager, §6.3)", e.exception()));
        } else if c.state != ClientState::FatalError {
            c.state = ClientState::AbortableError;
            say!(self, format!("{name}: {} during {during} is abortable: the application must call abortTransaction() (§6.3)", e.exception()));
        }
    }

    /// Clients retry operations the coordinator answered CONCURRENT_TRANSACTIONS.
    pub(super) fn retry_pending(&mut self) {
        for i in 0..self.clients.len() {
            let c = &self.clients[i];
            if c.crashed || c.outcome_unknown || !c.unacked.is_empty() {
                continue;
            }
            let busy = self.coordinator.get(&c.transactional_id).is_some_and(|m| m.pending_state.is_some());
            if busy {
                continue;
            }
            if self.held_requests.iter().any(|h| h.client == i && !h.timed_out) {
                // It waits for the answer to a request held in the network.
                continue;
            }
            if !c.held.is_empty() || !c.requeued.is_empty() {
                let _ = self.resume_held_sends(i);
                continue;
            }
            let c = &self.clients[i];
            match c.pending {
                Some(PendingOp::Init) => {
                    let _ = self.do_init(i, None);
                }
                Some(PendingOp::Commit) => {
                    let _ = self.do_end(i, true, false);
                }
                Some(PendingOp::Abort) => {
                    let _ = self.do_end(i, false, false);
                }
                None => {}
            }
        }
    }

    /// Client `i`'s batches waiting in the accumulator go now; a commit that waited for them
    /// (flush) follows, whose result is returned (Ok when none did).
    fn resume_held_sends(&mut self, i: usize) -> CallResult {
        let name = self.clients[i].name.clone();
        let held = core::mem::take(&mut self.clients[i].held);
        let requeued = core::mem::take(&mut self.clients[i].requeued);
        let pending = self.clients[i].pending.take();
        if pending == Some(PendingOp::Commit) {
            self.clients[i].state = ClientState::InTransaction;
        }
        // The re-enqueued batches go first, with their sequences, then the held sends.
        for sent in requeued {
            let b = crate::batch::Batch::new_unchecked(&sent.bytes[..]);
            let ids = (b.producer_id(), b.producer_epoch(), self.clients[i].tv2);
            let msgs_before = self.messages.len();
            let r = self.produce_request(i, &sent, ids, " (sent again)");
            self.produce_answered(i, sent, r, msgs_before);
        }
        for (p, v) in held {
            let _ = self.send(&name, &p, &v);
        }
        if pending == Some(PendingOp::Commit) && self.clients[i].held.is_empty() && self.clients[i].requeued.is_empty() && self.clients[i].state == ClientState::InTransaction {
            return self.end(&name, true, false).unwrap_or(CallResult::Ok);
        }
        if self.clients[i].pending.is_none() {
            self.clients[i].pending = pending;
        }
        CallResult::Ok
    }

    /// The producer process dies (its open transaction stays open at the coordinator).
    pub fn crash(&mut self, name: &str) -> Result<(), String> {
        let i = self.client_index(name)?;
        self.clients[i].crashed = true;
        say!(self, format!("{name} crashes: whatever it started stays open until a new instance of {} calls initTransactions() or transaction.timeout.ms passes", self.clients[i].transactional_id));
        Ok(())
    }

    /// The application performs an external side effect (an HTTP payment): no Kafka abort
    /// can undo it. With an idempotency key the external service drops repeats.
    pub fn effect(&mut self, actor: &str, name: &str, key: Option<&str>) {
        let lane = if self.consumers.iter().any(|c| c.name == actor) { self.consumer_lane(actor) } else { self.producer_lane(actor) };
        let producer = actor;
        let seen_key = key.is_some_and(|k| self.effects.iter().any(|e| e.key.as_deref() == Some(k) && !e.duplicate));
        let repeat = self.effects.iter().any(|e| e.name == name && !e.duplicate);
        let dup = if key.is_some() { false } else { repeat };
        if seen_key {
            msg!(self, lane.clone(), EXTERNAL_LANE, "effect", format!("{name} (idempotency key {}) — the service has seen this key and does nothing", key.unwrap_or("")));
            say!(self, format!("{producer} repeats {name}, but the idempotency key makes the external service answer with the first result: applied once"));
            return;
        }
        self.effects.push(Effect { name: name.into(), key: key.map(String::from), producer: producer.into(), step: self.step, duplicate: dup });
        msg!(self, lane.clone(), EXTERNAL_LANE, "effect", format!("{name}{}", key.map_or(String::new(), |k| format!(" (idempotency key {k})"))));
        if dup {
            say!(self, format!("{producer} performs {name} again: outside Kafka nothing deduplicates it — the payment happened twice, whatever the transaction's outcome"));
        } else {
            say!(self, format!("{producer} performs {name} outside Kafka: an abort will not undo it"));
        }
    }

    /// `kafka-features.sh upgrade --feature transaction.version=N`.
    pub fn set_feature(&mut self, level: u8) {
        self.cluster.transaction_version = level;
        msg_rule!(self, COORD_LANE, COORD_LANE, "feature", format!("transaction.version finalized at {level}"), "TV", TRANSACTION_VERSION, ErrorCode::NONE);
        say!(self, format!("the cluster finalizes transaction.version={level}; clients switch protocol only between transactions (§4.2)"));
    }

    /// `kafka-features.sh describe` for transaction.version.
    pub fn features_line(&self) -> String {
        format!(
            "Feature: transaction.version\tSupportedMinVersion: 0\tSupportedMaxVersion: 2\tFinalizedVersionLevel: {}",
            self.cluster.transaction_version
        )
    }

    // ----- invariants (checked after every step) -----------------------------------------

    pub fn invariants(&self) -> Vec<(&'static str, bool, String)> {
        let mut out = Vec::new();
        // 1. read_committed never sees aborted or open records (checked in `poll`).
        let bad = self.read_committed_break.clone();
        out.push(("read-committed-sees-only-committed", bad.is_none(), bad.unwrap_or_else(|| String::from("every record a read_committed consumer received was committed when it was read"))));
        // 2. all participants get the same outcome.
        let mut bad = None;
        for (k, t) in self.txns.iter().enumerate() {
            if let Some(o) = t.outcome {
                if t.markers.iter().any(|&m| m != o) {
                    bad = Some(format!("transaction #{k} of {} has both COMMIT and ABORT markers", t.transactional_id));
                }
            }
        }
        out.push(("same-outcome-everywhere", bad.is_none(), bad.unwrap_or_else(|| String::from("every partition of a transaction got the same marker"))));
        // 3. LSO ≤ HW.
        let bad = self.idem.cluster.partitions.iter().find(|p| p.last_stable_offset() > p.high_watermark()).map(|p| format!("{}: LSO {} > HW {}", p.name, p.last_stable_offset(), p.high_watermark()));
        out.push(("lso-le-hw", bad.is_none(), bad.unwrap_or_else(|| String::from("LSO ≤ HW on every partition"))));
        // 4. A fenced producer never commits.
        let bad = self.txns.iter().find(|t| t.commit_by_fenced).map(|t| format!("{} committed after it was fenced", t.producer));
        out.push(("fenced-never-commits", bad.is_none(), bad.unwrap_or_else(|| String::from("no fenced producer's commit was accepted"))));
        // 5. Offsets committed in a transaction are visible iff its outputs are.
        let mut bad = None;
        for t in &self.txns {
            if t.offsets.is_empty() || t.markers.is_empty() {
                continue;
            }
            let outputs_committed = t.records.iter().any(|&r| self.records[r].kind == "data" && self.records[r].outcome == Some("committed"));
            let outputs_any = t.records.iter().any(|&r| self.records[r].kind == "data");
            let offsets_rec = t.records.iter().find(|&&r| self.records[r].kind == "offset-commit");
            let offsets_committed = offsets_rec.is_some_and(|&r| self.records[r].outcome == Some("committed"));
            let offsets_closed = offsets_rec.is_some_and(|&r| self.records[r].closed_at.is_some());
            let outputs_closed = t.records.iter().filter(|&&r| self.records[r].kind == "data").all(|&r| self.records[r].closed_at.is_some());
            if offsets_closed && outputs_closed && outputs_any && offsets_committed != outputs_committed {
                bad = Some(format!("{}: offsets {} but outputs {}", t.transactional_id, if offsets_committed { "committed" } else { "discarded" }, if outputs_committed { "committed" } else { "aborted" }));
            }
        }
        out.push(("offsets-iff-outputs", bad.is_none(), bad.unwrap_or_else(|| String::from("offsets committed in a transaction become visible exactly when its outputs do"))));
        out
    }
}

/// `orders-0` → ("orders", 0); a name without a numeric suffix is partition 0.
pub fn split_partition(p: &str) -> (String, i32) {
    let (t, n) = split_partition_ref(p);
    (t.to_string(), n)
}

/// [`split_partition`] without copying the topic.
fn split_partition_ref(p: &str) -> (&str, i32) {
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
fn java_hash(s: &str) -> i32 {
    s.encode_utf16().fold(0i32, |h, c| h.wrapping_mul(31).wrapping_add(c as i32))
}

/// `HashMap.hash`: the bucket of hash `h` in a table of `cap` (a power of two).
fn java_bucket(h: i32, cap: usize) -> usize {
    let h = h as u32;
    ((h ^ (h >> 16)) as usize) & (cap - 1)
}

/// The table size `HashMap` gives a capacity (`tableSizeFor`: the next power of two).
fn java_table_size(n: usize) -> usize {
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
fn txn_log_value_spec(m: &coordinator::TxnMetadata, tv: u8) -> crate::internal::TxnLogValue {
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
fn txn_log_key_value(out: &mut Vec<u8>, m: &coordinator::TxnMetadata, tv: u8) -> usize {
    out.clear();
    crate::internal::txn_log_key_into(out, m.transactional_id.as_str());
    let at = out.len();
    crate::internal::txn_log_value_into(out, &txn_log_value_spec(m, tv), if tv >= 1 { 1 } else { 0 });
    at
}

/// A batch the caller built, as the log stored it: the leader's base offset and partition
/// leader epoch set (outside the CRC, as `Partition::write` does). Equal to the log's last
/// entry, which it was just appended as (checked in debug builds).
fn as_stored(mut bytes: Vec<u8>, log: &Partition) -> Vec<u8> {
    let base = log.log.last().map_or(0, |e| e.base_offset);
    let mut b = crate::batch::Batch::new_unchecked(&mut bytes[..]);
    b.set_base_offset(base);
    b.set_partition_leader_epoch(log.leader_epoch);
    debug_assert_eq!(Some(&bytes), log.log.last().map(|e| &e.bytes), "the record keeps what the log stores");
    bytes
}

/// How many distinct partitions the records `of` (indexes into `records`) were written to.
fn distinct_partitions(records: &[LogRecord], of: &[usize]) -> usize {
    if of.len() <= 32 {
        (0..of.len()).filter(|&k| !of[..k].iter().any(|&j| records[j].partition == records[of[k]].partition)).count()
    } else {
        of.iter().map(|&r| records[r].partition.as_str()).collect::<BTreeSet<_>>().len()
    }
}

/// Set a producer's next sequence for `partition`.
fn set_sequence(sequences: &mut BTreeMap<String, i32>, partition: &str, seq: i32) {
    match sequences.get_mut(partition) {
        Some(s) => *s = seq,
        None => {
            sequences.insert(partition.into(), seq);
        }
    }
}

/// A new epoch (or producer id): every partition's sequence starts again at 0, as it does for
/// a partition never written to.
fn restart_sequences(sequences: &mut BTreeMap<String, i32>) {
    for s in sequences.values_mut() {
        *s = 0;
    }
}

/// Set a consumer's position on `partition`.
fn set_position(positions: &mut BTreeMap<String, i64>, partition: &str, offset: i64) {
    match positions.get_mut(partition) {
        Some(o) => *o = offset,
        None => {
            positions.insert(partition.into(), offset);
        }
    }
}

/// A TV1 leader's verify-only AddPartitionsToTxn (V3), as data.
#[derive(Clone, Copy)]
enum Verify {
    NoState,
    NotOwner,
    Fenced(i16),
    Completing,
    Added,
    NotAdded,
}

impl Verify {
    fn error(self) -> ErrorCode {
        match self {
            Verify::NoState | Verify::NotOwner => ErrorCode::INVALID_PRODUCER_ID_MAPPING,
            Verify::Fenced(_) => ErrorCode::INVALID_PRODUCER_EPOCH,
            Verify::Completing => ErrorCode::NOT_ENOUGH_REPLICAS,
            Verify::Added => ErrorCode::NONE,
            Verify::NotAdded => ErrorCode::TRANSACTION_ABORTABLE,
        }
    }

    /// The coordinator's own answer (V3), before the leader maps it (V5).
    fn coordinator_error(self) -> ErrorCode {
        match self {
            Verify::Fenced(_) => ErrorCode::PRODUCER_FENCED,
            Verify::Completing => ErrorCode::CONCURRENT_TRANSACTIONS,
            v => v.error(),
        }
    }

    fn why(self, pid: i64, epoch: i16, id: &str, pname: &str) -> String {
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

fn data_batch(pid: i64, epoch: i16, seq: i32, transactional: bool, values: &[String], now: i64) -> Vec<u8> {
    raw_batch_with(pid, epoch, seq, transactional, values.len(), |i| (None, Some(values[i].as_bytes())), now)
}

fn records_batch(pid: i64, epoch: i16, seq: i32, transactional: bool, recs: &[(Vec<u8>, Vec<u8>)], now: i64) -> Vec<u8> {
    let recs: Vec<KeyValue<'_>> = recs.iter().map(|(k, v)| (Some(&k[..]), Some(&v[..]))).collect();
    raw_batch(pid, epoch, seq, transactional, &recs, now)
}

/// A non-idempotent batch (producerId −1) of one record: the coordinator's own appends.
fn plain_batch(key: &[u8], value: &[u8], now: i64) -> Vec<u8> {
    raw_batch(-1, -1, -1, false, &[(Some(key), Some(value))], now)
}

/// The v2 batch (no compression, CreateTime, every record at `now`, no headers) that a Java
/// client writes for these records, by the codec's one writer ([`BatchWriter`]).
fn raw_batch(pid: i64, epoch: i16, seq: i32, transactional: bool, recs: &[KeyValue<'_>], now: i64) -> Vec<u8> {
    raw_batch_with(pid, epoch, seq, transactional, recs.len(), |i| recs[i], now)
}

/// A record's (key, value).
type KeyValue<'a> = (Option<&'a [u8]>, Option<&'a [u8]>);

/// [`raw_batch`] of `n` records, the `i`-th given by `rec(i)` (key, value), written straight
/// into one exact-size buffer.
fn raw_batch_with<'a>(pid: i64, epoch: i16, seq: i32, transactional: bool, n: usize, rec: impl Fn(usize) -> KeyValue<'a>, now: i64) -> Vec<u8> {
    let writer = BatchWriter::producer(pid, epoch, seq, transactional, now);
    let rec = &rec;
    let records = (0..n).map(move |i| {
        let (key, value) = rec(i);
        Record { offset_delta: i as i32, key, value, ..Record::default() }
    });
    writer.write_v2_from(records).expect("model batches are far below 2 GiB")
}

pub mod idempotent;
pub mod inject;
pub mod state;
mod replication;
mod requests;
// The world's methods by role: a Java client's calls (init, begin, send, offsets, end), the
// coordinator's markers, time passing, and the consumers.
mod begin;
mod consumers;
mod end;
mod init;
mod markers;
mod offsets;
mod periodic;
mod send;
pub use inject::Injection;
pub use replication::{HeldAnswer, PRODUCE_TIMEOUT_MS};
pub use requests::{frame_one_batch, is_request_verb, parse_request, send_to_leader, FrameError, LeaderProducerState, LeaderQuestion, Reply, Request};

impl World {
    /// The timeline's record of a marker written to data partition `pi` at `offset` (a
    /// WriteTxnMarkers request from the script): the records of that producer's open
    /// transaction there are closed, as [`World::write_marker`] does for the coordinator's.
    fn record_marker(&mut self, pi: usize, m: &MarkerReq, offset: i64) {
        let (partition, lane) = self.partition_names(pi);
        let stored = self.idem.cluster.partitions[pi].log.last().map(|e| e.bytes.clone()).unwrap_or_default();
        let outcome = Some(if m.commit { "committed" } else { "aborted" });
        let r = self.push_record(LogRecord {
            lane,
            partition,
            offset,
            last_offset: offset,
            kind: if m.commit { "commit" } else { "abort" },
            pid: m.pid,
            epoch: m.epoch,
            transactional: true,
            values: Values::default(),
            text: RecordText::marker(m.commit, m.coordinator_epoch),
            step: self.step,
            closed_at: Some(self.step),
            outcome,
            bytes: stored,
            txn: Some(m.txn),
            truncated_at: None,
        });
        let step = self.step;
        if let Some(open) = self.open_records.get_mut(m.partition.as_str()).and_then(|by_pid| by_pid.get_mut(&m.pid)) {
            for k in open.drain(..) {
                let rec = &mut self.records[k];
                if rec.closed_at.is_none() && rec.offset < offset {
                    rec.closed_at = Some(step);
                    rec.outcome = outcome;
                }
            }
        }
        self.txns[m.txn].markers.push(m.commit);
        if self.txns[m.txn].outcome.is_none() {
            self.txns[m.txn].outcome = Some(m.commit);
        }
        let _ = r;
    }
}
