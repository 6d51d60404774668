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
                format!("no producer named {name:?}")
            }
        })
    }

    fn partition_index(&self, name: &str) -> Result<usize, String> {
        self.idem.cluster.partitions.iter().position(|p| p.name == name).ok_or_else(|| format!("no partition named {name:?}"))
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

    /// `initTransactions()`: FindCoordinator, then InitProducerId (I1–I11).
    pub fn init(&mut self, name: &str) -> Result<CallResult, String> {
        let i = self.client_index(name)?;
        let c = self.clients[i].clone();
        if c.crashed {
            return Err(format!("{name} has crashed"));
        }
        if c.two_phase_commit {
            let why = String::from(
                "transaction.two.phase.commit.enable=true (KIP-939): InitProducerId v6 with enable2Pc is an unstable API in Kafka 4.3 (keepPreparedTxn answers UNSUPPORTED_VERSION; the public prepare/complete API was removed in 4.2). The model does not guess: OUTSIDE_MODEL.",
            );
            self.outside_model = Some(why.clone());
            msg_rule!(self, self.producer_lane(name), COORD_LANE, "InitProducerId", String::from("InitProducerId(enable2Pc=true)"), "I13", KIP_939, ErrorCode::NONE);
            say!(self, why);
            return Ok(CallResult::Thrown(String::from("OUTSIDE_MODEL")));
        }
        if !(matches!(c.state, ClientState::Uninitialized) || c.pending == Some(PendingOp::Init)) {
            let e = format!("IllegalStateException: Invalid transition attempted from state {} to state INITIALIZING", c.state.name());
            say!(self, format!("{name}.initTransactions() throws {e}"));
            return Ok(CallResult::Thrown(e));
        }
        let id = c.transactional_id.clone();
        let part = Self::coordinator_partition(&id);
        if c.pending.is_none() {
            msg!(self, 
                self.producer_lane(name),
                COORD_LANE,
                "FindCoordinator",
                format!(
                    "FindCoordinator(TRANSACTION, {id}): abs(\"{id}\".hashCode() = {}) % {TRANSACTION_STATE_PARTITIONS} = __transaction_state-{part}; its leader is the coordinator (coordinator epoch {})",
                    coordinator::java_string_hash(&id),
                    self.coordinator_epoch
                ),
            );
            // The client's first connection: ApiVersions tells it the finalized level.
            self.clients[i].features_tv = self.cluster.transaction_version;
            self.clients[i].tv2 = self.cluster.transaction_version >= 2;
        }
        self.clients[i].state = ClientState::Initializing;
        self.do_init(i, None)
    }

    fn do_init(&mut self, i: usize, current: Option<(i64, i16)>) -> Result<CallResult, String> {
        let id = self.clients[i].transactional_id.clone();
        if self.waits_for_held(i, "InitProducerId") {
            return Ok(CallResult::Pending);
        }
        let lose = match self.injected_request(i, "InitProducerId", COORD_LANE, || format!("InitProducerId(transactionalId={id})")) {
            Some(inject::Injection::Hold) => {
                let text = format!("InitProducerId(transactionalId={id}{})", current.map_or(String::new(), |(p, e)| format!(", producerId={p}, producerEpoch={e}")));
                self.clients[i].pending = Some(PendingOp::Init);
                return Ok(self.hold_request(i, inject::HeldCall::InitProducerId { current }, text, "initTransactions"));
            }
            Some(inject::Injection::Answer(e)) => return self.init_answered(i, World::injected_coordinator_answer(e)),
            Some(inject::Injection::LoseResponse) => true,
            _ => false,
        };
        // `inject P InitProducerId lose-response`: the coordinator bumped the epoch (or fenced
        // the open transaction) and wrote it; the answer is lost. After its timeout the client
        // sends the same request again (`InitProducerIdHandler`, re-enqueued), which the
        // coordinator handles anew: a second bump when it carried no producer id, the same id
        // and epoch when it carried the epoch just replaced (KIP-360, I10).
        let a = self.answered_after_loss(i, "InitProducerId", COORD_LANE, lose, |w, again| w.init_producer_id_request(i, current, if again { " again" } else { "" }), |a| a.error);
        self.init_answered(i, a)
    }

    /// `initTransactions()` reads the coordinator's answer `a` to its InitProducerId.
    fn init_answered(&mut self, i: usize, a: Answer) -> Result<CallResult, String> {
        let id = self.clients[i].transactional_id.clone();
        let name = self.clients[i].name.clone();
        if a.rule == "I11" {
            say!(self, format!(
                "{name} takes over {id}: the coordinator finds a transaction still open, bumps the epoch to fence the old producer, writes PrepareAbort and answers CONCURRENT_TRANSACTIONS; {name} retries once the abort markers are written (I11)."
            ));
            self.clients[i].pending = Some(PendingOp::Init);
            return Ok(CallResult::Pending);
        }
        match a.error {
            ErrorCode::NONE => {
                let c = &mut self.clients[i];
                c.pid = a.producer_id;
                c.epoch = a.producer_epoch;
                c.sequences.clear();
                empty_set(&mut c.added);
                c.started = false;
                c.pending = None;
                c.state = ClientState::Ready;
                c.last_error = None;
                self.fenced.remove(name.as_str());
                say!(self, format!("{name} is READY as producer {} epoch {}: any other instance of {id} is fenced ({})", a.producer_id, a.producer_epoch, a.rule));
                Ok(CallResult::Ok)
            }
            e if e == coordinator::CONCURRENT_TRANSACTIONS => {
                self.clients[i].pending = Some(PendingOp::Init);
                say!(self, format!("{name}: CONCURRENT_TRANSACTIONS — the previous transaction of {id} is still completing; the client retries ({})", a.rule));
                Ok(CallResult::Pending)
            }
            e => {
                // `TransactionManager.InitProducerIdHandler`: PRODUCER_FENCED (or an old
                // coordinator's INVALID_PRODUCER_EPOCH) is a ProducerFencedException; any other
                // error, INVALID_TRANSACTION_TIMEOUT included, a plain KafkaException
                // ("Unexpected error in InitProducerIdResponse; …"). Both are fatal, and
                // initTransactions() rethrows it (`TransactionalRequestResult.await`).
                let thrown = match e.0 {
                    47 | 90 => format!("ProducerFencedException: {}", ErrorCode::PRODUCER_FENCED.message()),
                    _ => format!("KafkaException: Unexpected error in InitProducerIdResponse; {}", e.message()),
                };
                let c = &mut self.clients[i];
                c.pending = None;
                c.state = ClientState::FatalError;
                c.last_error = Some(format!("{thrown} ({} {}: {})", e.name(), a.rule, a.why(&id, &[])));
                say!(self, format!("{name}.initTransactions() throws {thrown} — fatal ({}, {})", e.name(), a.rule));
                Ok(CallResult::Thrown(thrown))
            }
        }
    }

    /// One InitProducerId of client `i` (with `current`, its KIP-360 producer id and epoch),
    /// as the coordinator handles it: the request, the coordinator's decision and write, the
    /// instances it fences and the markers it queues, the answer on the timeline (its message
    /// index, if drawn). The client's reaction is the caller's.
    fn init_producer_id_request(&mut self, i: usize, current: Option<(i64, i16)>, suffix: &str) -> (Answer, Option<usize>) {
        let name = self.clients[i].name.clone();
        let id = self.clients[i].transactional_id.clone();
        let timeout = self.clients[i].timeout_ms;
        let new_pid = self.idem.cluster.next_producer_id;
        msg!(self, 
            self.producer_lane(&name),
            COORD_LANE,
            "InitProducerId",
            format!(
                "InitProducerId(transactionalId={id}, transactionTimeoutMs={timeout}{}){}",
                current.map_or(String::new(), |(p, e)| format!(", producerId={p}, producerEpoch={e}")),
                suffix
            ),
        );
        let existed = self.coordinator.get(&id).is_some();
        let a = self.coordinator.init_producer_id(&id, timeout, current, new_pid, self.idem.cluster.now_ms);
        if self.coordinator.get(&id).is_some_and(|m| m.producer_id == new_pid) {
            self.idem.cluster.next_producer_id += 1;
        }
        let elapsed = self.tick(if a.wrote.is_some() { 1 } else { 0 });
        self.metric(Metric::InitTime, elapsed * 1_000_000);
        if a.wrote.is_some() {
            let r = self.write_txn_log(&id);
            let k = msg!(self, COORD_LANE, COORD_LANE, "append", format!("__transaction_state: {} for {id}", a.wrote.map_or("", |s| s.name())));
            self.link(k, r);
        }
        self.coordinator_answer_msg(&name, "InitProducerId", &a, &id, &[]);
        let k = self.last_response();
        if a.rule == "I11" {
            // The coordinator fences the open transaction: every instance holding it is fenced.
            self.fence_instances(&id, Some(&name));
            if let Some(t) = self.open_txn.get(&id).copied() {
                self.queue_markers(&id, t, false);
            }
        } else if a.error == ErrorCode::NONE && existed {
            // The new epoch fences every other instance of the id.
            self.fence_instances(&id, Some(&name));
        }
        (a, k)
    }

    fn fence_instances(&mut self, id: &str, except: Option<&str>) {
        let names: Vec<String> = self
            .clients
            .iter()
            .filter(|c| c.transactional_id == id && Some(c.name.as_str()) != except && c.pid >= 0 && !self.fenced.contains(c.name.as_str()))
            .map(|c| String::from(c.name.as_str()))
            .collect();
        for n in names {
            self.fenced.insert(n);
            self.metric(Metric::FencedProducers, 1);
        }
    }

    fn check_usable(&mut self, i: usize, call: &str) -> Option<CallResult> {
        let c = &self.clients[i];
        let thrown = if c.crashed {
            Some(format!("{} has crashed", c.name))
        } else if c.state == ClientState::FatalError {
            Some(format!("{}: the producer is in FATAL_ERROR ({}); only close() is meaningful", call, c.last_error.clone().unwrap_or_default()))
        } else if let Some(p) = c.pending.filter(|p| *p != PendingOp::Init) {
            if (call == "commitTransaction" && p == PendingOp::Commit) || (call == "abortTransaction" && p == PendingOp::Abort) {
                None
            } else {
                Some(format!("IllegalStateException: The previous call to `{}` timed out and must be retried (TransactionManager)", p.method()))
            }
        } else if c.state == ClientState::AbortableError && call != "abortTransaction" {
            // TransactionManager.maybeFailWithError: an InvalidProducerEpochException is thrown
            // again as itself (a new instance), anything else wrapped in a KafkaException
            // (seen on Kafka 4.3.1: tests/kafka/txn_scenarios.py, txn-zombie-fenced).
            let last = c.last_error.clone().unwrap_or_default();
            if last.contains("InvalidProducerEpochException") {
                Some(format!(
                    "InvalidProducerEpochException: Producer with transactionalId '{}' and (producerId={}, epoch={}) attempted to produce with an old epoch (cannot {call} in ABORTABLE_ERROR; call abortTransaction())",
                    c.transactional_id, c.pid, c.epoch
                ))
            } else {
                Some(format!("KafkaException: Cannot execute transactional method because we are in an error state: cannot {call} in ABORTABLE_ERROR ({last}); call abortTransaction()"))
            }
        } else {
            None
        };
        thrown.map(|t| {
            let n = self.clients[i].name.clone();
            say!(self, format!("{n}.{call}() throws {t}"));
            CallResult::Thrown(t)
        })
    }

    /// `beginTransaction()`: local only (§6.2).
    pub fn begin(&mut self, name: &str) -> Result<CallResult, String> {
        let i = self.client_index(name)?;
        self.not_blocked(i, "beginTransaction")?;
        if let Some(r) = self.check_usable(i, "beginTransaction") {
            return Ok(r);
        }
        if self.clients[i].state != ClientState::Ready {
            let e = format!("IllegalStateException: Invalid transition attempted from state {} to state IN_TRANSACTION", self.clients[i].state.name());
            msg_rule!(self, self.producer_lane(name), self.producer_lane(name), "call", format!("beginTransaction() throws {e}"), "C6.1", TRANSACTION_MANAGER, ErrorCode::NONE);
            say!(self, format!("{name}.beginTransaction() throws {e}"));
            return Ok(CallResult::Thrown(e));
        }
        let c = &mut self.clients[i];
        c.state = ClientState::InTransaction;
        empty_set(&mut c.added);
        c.started = false;
        c.begin_ms = self.idem.cluster.now_ms;
        self.metric(Metric::BeginTime, 1_000);
        say!(self, format!("{name}.beginTransaction(): IN_TRANSACTION (nothing is sent to the coordinator yet)"));
        Ok(CallResult::Ok)
    }

    fn current_instance(&mut self, i: usize) -> usize {
        let c = &self.clients[i];
        if let Some(&t) = self.open_txn.get(c.transactional_id.as_str()) {
            if self.txns[t].pid == c.pid && self.txns[t].producer == c.name {
                return t;
            }
        }
        let id = c.transactional_id.clone();
        self.txns.push(TxnInstance {
            transactional_id: id.clone(),
            producer: self.clients[i].name.clone(),
            pid: self.clients[i].pid,
            epoch: self.clients[i].epoch,
            // Its records are pushed next (the room the first push would make).
            records: Vec::with_capacity(4),
            ..Default::default()
        });
        let t = self.txns.len() - 1;
        self.open_txn.insert(id, t);
        t
    }

    /// TV1 AddPartitionsToTxn (or AddOffsetsToTxn for the offsets partition, whose
    /// TxnOffsetCommit then carries `consumer`'s positions).
    fn add_partition_tv1(&mut self, i: usize, partition: Name, kind: &'static str, consumer: Option<&str>) -> Added {
        let (id, pid, epoch) = (self.clients[i].transactional_id.clone(), self.clients[i].pid, self.clients[i].epoch);
        let text = format!("{kind}({id}, producer {pid} epoch {epoch}, {partition})");
        let lose = match self.injected_request(i, kind, COORD_LANE, || text.clone()) {
            Some(inject::Injection::Hold) => {
                let call = inject::HeldCall::Add { api: kind, partition, consumer: consumer.map(String::from) };
                self.hold_request(i, call, text, if kind == "AddOffsetsToTxn" { "sendOffsetsToTransaction" } else { "send" });
                return Added::Held;
            }
            Some(inject::Injection::Answer(e)) => return self.add_answered(i, partition, e),
            Some(inject::Injection::LoseResponse) => true,
            _ => false,
        };
        // `inject P AddPartitionsToTxn|AddOffsetsToTxn lose-response`: the coordinator did its
        // part; the answer is lost, and the client sends the request again after its timeout.
        // The retry finds the partition added: NONE, nothing written again.
        let a = self.answered_after_loss(i, kind, COORD_LANE, lose, |w, again| w.add_partitions_request(i, partition.clone(), kind, (pid, epoch), if again { " again" } else { "" }), |a| a.error);
        self.add_answered(i, partition, a.error)
    }

    /// One TV1 AddPartitionsToTxn / AddOffsetsToTxn of client `i` carrying `ids` (producer id,
    /// epoch), as the coordinator handles it: the request (`suffix` says which copy), the
    /// decision and its write, the answer on the timeline (its message index, if drawn).
    fn add_partitions_request(&mut self, i: usize, partition: Name, kind: &'static str, ids: (i64, i16), suffix: &str) -> (Answer, Option<usize>) {
        let name = self.clients[i].name.clone();
        let id = self.clients[i].transactional_id.clone();
        let (pid, epoch) = ids;
        msg!(self, self.producer_lane(&name), COORD_LANE, kind, format!("{kind}({id}, producer {pid} epoch {epoch}, {partition}){suffix}"));
        self.metric(Metric::AddPartitionsRequests, 1);
        let a = self.coordinator.add_partitions(&id, pid, epoch, core::slice::from_ref(&partition), self.idem.cluster.now_ms);
        self.tick(if a.wrote.is_some() { 1 } else { 0 });
        if a.wrote.is_some() {
            let r = self.write_txn_log(&id);
            let k = msg!(self, COORD_LANE, COORD_LANE, "append", format!("__transaction_state: Ongoing with {partition}"));
            self.link(k, r);
        }
        self.coordinator_answer_msg(&name, kind, &a, &id, &[partition.as_str()]);
        (a, self.last_response())
    }

    /// The client reads the answer `e` to its add of `partition`.
    fn add_answered(&mut self, i: usize, partition: Name, e: ErrorCode) -> Added {
        if e == ErrorCode::NONE {
            self.clients[i].added.insert(partition);
            Added::Yes
        } else {
            Added::Refused(e)
        }
    }

    /// Client `i`'s request of `api`, sent by `request(world, again)` (which returns its answer
    /// and the answer's message index): with `lose`, the first answer is lost on its way back
    /// and, after `request.timeout.ms`, the client sends the request again (`again`); the
    /// answer returned is the one the client reads.
    fn answered_after_loss<A>(&mut self, i: usize, api: &'static str, from: Name, lose: bool, mut request: impl FnMut(&mut Self, bool) -> (A, Option<usize>), error: impl Fn(&A) -> ErrorCode) -> A {
        let (a, k) = request(self, false);
        if !lose {
            return a;
        }
        self.lose_answer(k, from, i, api, error(&a));
        self.injected_loss(i, api);
        request(self, true).0
    }

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

    /// `send(record)` inside a transaction; the batch is sent at once.
    pub fn send(&mut self, name: &str, partition: &str, values: &[String]) -> Result<CallResult, String> {
        let i = self.client_index(name)?;
        self.not_blocked(i, "send")?;
        let pi = self.partition_index(partition)?;
        if let Some(r) = self.check_usable(i, "send") {
            return Ok(r);
        }
        if self.clients[i].state != ClientState::InTransaction {
            let e = format!("IllegalStateException: Cannot call send in state {}", self.clients[i].state.name());
            say!(self, format!("{name}.send() throws {e}"));
            return Ok(CallResult::Thrown(e));
        }
        let tv2 = self.clients[i].tv2;
        if self.waits_for_held(i, "AddPartitionsToTxn") {
            // The transactional requests go one at a time (`TransactionManager`): while an add is
            // in the network the batch waits in the accumulator.
            self.clients[i].held.push((partition.into(), values.to_vec()));
            say!(self, format!("{name}.send(): the batch waits in the accumulator while its AddPartitionsToTxn is in the network"));
            return Ok(CallResult::Pending);
        }
        if self.clients[i].requeued.iter().any(|b| b.partition == pi) {
            // A re-enqueued batch of this partition goes first (the accumulator keeps the
            // partition's batches in sequence order).
            self.clients[i].held.push((partition.into(), values.to_vec()));
            say!(self, format!("{name}.send(): the batch waits in the accumulator behind the batch re-enqueued for {partition}"));
            return Ok(CallResult::Pending);
        }
        if !tv2 && !self.clients[i].added.contains(partition) {
            let pname = self.partition_names(pi).0;
            match self.add_partition_tv1(i, pname, "AddPartitionsToTxn", None) {
                Added::Yes => {}
                Added::Held => {
                    // `isSendToPartitionAllowed`: no Produce before the partition is added.
                    self.clients[i].held.push((partition.into(), values.to_vec()));
                    return Ok(CallResult::Pending);
                }
                Added::Refused(e) if e == ErrorCode::CONCURRENT_TRANSACTIONS => return Ok(self.hold(i, partition, values, "AddPartitionsToTxn")),
                Added::Refused(e) => {
                    self.client_error(i, e, "AddPartitionsToTxn");
                    return Ok(CallResult::Ok);
                }
            }
        }
        let t = self.current_instance(i);
        self.clients[i].started = true;
        let (pid, epoch) = (self.clients[i].pid, self.clients[i].epoch);
        let seq = *self.clients[i].sequences.get(partition).unwrap_or(&0);
        let bytes = data_batch(pid, epoch, seq, true, values, self.idem.cluster.now_ms);
        let request = |again: bool| {
            let last = seq + values.len() as i32 - 1;
            if again {
                format!("Produce again: producer {pid} epoch {epoch}, sequences {seq}..{last}")
            } else {
                format!("Produce{} transactional batch: producer {pid} epoch {epoch}, sequences {seq}..{last}, {} record(s)", if tv2 { " v12" } else { " v11" }, values.len())
            }
        };
        // An injected answer or loss: the request on the timeline, the client's reaction, and
        // then the batch sent again, for real; a lost answer is handled below.
        let injected = self.injected_request(i, "Produce", self.partition_lane(partition), || request(false));
        if injected == Some(inject::Injection::Hold) {
            // `inject P Produce hold`: the batch is sent (its sequence taken) and the request held
            // in the network; `send()` returns, a commit or abort waits for the answer.
            self.clients[i].started = true;
            set_sequence(&mut self.clients[i].sequences, partition, seq + values.len() as i32);
            return Ok(self.hold_request(i, inject::HeldCall::Produce(SentBatch { partition: pi, bytes, values: values.to_vec(), txn: t }), request(false), "send"));
        }
        if let Some(inject::Injection::Answer(e)) = injected {
            // Not processed, not retried: the batch fails (`Sender.failBatch`), its sequence
            // unused; the transaction is then abortable or fatal (§6.3), and send() returns.
            self.client_error(i, e, "Produce");
            return Ok(CallResult::Ok);
        }
        let again = matches!(injected, Some(inject::Injection::Error(_) | inject::Injection::LoseRequest));
        msg!(self, self.producer_lane(name), self.partition_lane(partition), "Produce", request(again));
        let op = if tv2 { SupportedOperation::AddPartition } else { SupportedOperation::GenericErrorSupported };
        let msgs_before = self.messages.len();
        // The bytes are kept only where the client may send the batch again: after a lost answer,
        // or to a partition with followers (an unacknowledged batch goes to a new leader, S6).
        let resend = injected == Some(inject::Injection::LoseResponse) || !self.idem.cluster.partitions[pi].replicas.followers.is_empty();
        let kept = resend.then(|| bytes.clone());
        let first = self.leader_append(pi, bytes, op, t, values);
        let result = if injected == Some(inject::Injection::LoseResponse) && first.is_ok() {
            // The leader wrote the batch; its answer is lost. After request.timeout.ms the client
            // sends it again with the same sequence: the leader recognises it (A1).
            let plane = self.producer_lane(name);
            let from = msgs_before.min(self.messages.len());
            for m in self.messages[from..].iter_mut().filter(|m| m.kind == "response" && m.to == plane) {
                m.lost = true;
                m.text.push_str(" — lost on the way back");
            }
            self.idem.cluster.now_ms += inject::REQUEST_TIMEOUT_MS;
            say!(self, format!("{name}: no answer to its Produce within request.timeout.ms: it sends the batch again with the same sequence"));
            msg!(self, self.producer_lane(name), self.partition_lane(partition), "Produce", format!("Produce again: producer {pid} epoch {epoch}, sequences {seq}..{}", seq + values.len() as i32 - 1));
            self.leader_append(pi, kept.clone().unwrap_or_default(), op, t, values)
        } else {
            first
        };
        match result {
            Ok(r) => {
                set_sequence(&mut self.clients[i].sequences, partition, seq + values.len() as i32);
                self.produced(i, pi, r, kept, op, t, values, msgs_before);
                Ok(CallResult::Ok)
            }
            Err(e) if e == ErrorCode::CONCURRENT_TRANSACTIONS || e == ErrorCode::NOT_ENOUGH_REPLICAS => Ok(self.hold(i, partition, values, "Produce")),
            Err(e) => {
                self.client_error(i, e, "Produce");
                Ok(CallResult::Ok)
            }
        }
    }

    /// Client `i`'s batch to partition `pi` of transaction instance `t` was written as record
    /// `r`: acknowledged (or, with followers, waiting for the HW: `kept` are its bytes, to send
    /// again to a new leader), its partition in the transaction, the record in the instance.
    #[allow(clippy::too_many_arguments)]
    fn produced(&mut self, i: usize, pi: usize, r: usize, kept: Option<Vec<u8>>, op: SupportedOperation, t: usize, values: &[String], msgs_before: usize) {
        if let Some(bytes) = kept {
            self.maybe_unacked(i, pi, r, bytes, op, t, values, msgs_before);
        }
        let pname = self.partition_names(pi).0;
        if !self.clients[i].added.contains(pname.as_str()) {
            self.clients[i].added.insert(pname);
        }
        if !self.txns[t].records.contains(&r) {
            self.txns[t].records.push(r);
        }
    }

    /// One transactional Produce of client `i` carrying `ids`, its batch `sent`, reaches the
    /// leader (`suffix` says which copy), which verifies or adds it (KIP-890) and decides the
    /// append; the answer on the timeline.
    pub(super) fn produce_request(&mut self, i: usize, sent: &SentBatch, ids: (i64, i16, bool), suffix: &str) -> Result<usize, ErrorCode> {
        let name = self.clients[i].name.clone();
        let pname = self.partition_names(sent.partition).0;
        let b = crate::batch::Batch::new_unchecked(&sent.bytes[..]);
        let (seq, n) = (b.base_sequence(), sent.values.len() as i32);
        msg!(self, self.producer_lane(&name), self.partition_lane(pname.as_str()), "Produce", format!(
            "Produce{} transactional batch: producer {} epoch {}, sequences {seq}..{}, {n} record(s){suffix}",
            if ids.2 { " v12" } else { " v11" },
            ids.0,
            ids.1,
            seq + n - 1
        ));
        let op = if ids.2 { SupportedOperation::AddPartition } else { SupportedOperation::GenericErrorSupported };
        self.leader_append(sent.partition, sent.bytes.clone(), op, sent.txn, &sent.values)
    }

    /// The answer `r` to a Produce the client sent outside `send()` (a held one, or one sent
    /// again) reaches it: the batch is acknowledged; or, answered with a retriable error
    /// (CONCURRENT_TRANSACTIONS, or NOT_ENOUGH_REPLICAS, V5), re-enqueued with its sequence
    /// (`Sender.canRetry`, `reenqueueBatch`); or it fails.
    /// (`msgs_before`: the timeline's length before the request was drawn.)
    fn produce_answered(&mut self, i: usize, sent: SentBatch, r: Result<usize, ErrorCode>, msgs_before: usize) {
        match r {
            Ok(rec) => {
                let op = if self.clients[i].tv2 { SupportedOperation::AddPartition } else { SupportedOperation::GenericErrorSupported };
                // With followers the batch waits for the HW, and goes to a new leader if this one
                // fails first (S6): its bytes are kept.
                let kept = (!self.idem.cluster.partitions[sent.partition].replicas.followers.is_empty()).then(|| sent.bytes.clone());
                self.produced(i, sent.partition, rec, kept, op, sent.txn, &sent.values, msgs_before);
            }
            Err(e) if e == ErrorCode::CONCURRENT_TRANSACTIONS || e == ErrorCode::NOT_ENOUGH_REPLICAS => {
                say!(self, format!(
                    "{}: its Produce was answered {} (retriable) while the previous transaction of {} completes; the Sender keeps the batch with its sequence and sends it again once it can",
                    self.clients[i].name,
                    e.name(),
                    self.clients[i].transactional_id
                ));
                self.clients[i].requeued.push(sent);
            }
            Err(e) => self.client_error(i, e, "Produce"),
        }
    }

    /// The answer to a held Produce reaches the client (`r`: the leader's); a commit or abort
    /// that waited for it goes on (a commit waits on while the batch is re-enqueued).
    pub(super) fn after_held_produce(&mut self, i: usize, sent: SentBatch, r: Result<usize, ErrorCode>, msgs_before: usize) -> CallResult {
        self.produce_answered(i, sent, r, msgs_before);
        let name = self.clients[i].name.clone();
        match self.clients[i].pending {
            Some(PendingOp::Commit) => self.end(&name, true, false).unwrap_or(CallResult::Ok),
            Some(PendingOp::Abort) => self.end(&name, false, false).unwrap_or(CallResult::Ok),
            _ => CallResult::Ok,
        }
    }

    /// A retriable answer (CONCURRENT_TRANSACTIONS; NOT_ENOUGH_REPLICAS is what a TV1 client's
    /// leader maps it to, V5): the client keeps the batch and sends it again once the
    /// previous transaction has completed (TransactionManager retries; `RecordAccumulator`).
    fn hold(&mut self, i: usize, partition: &str, values: &[String], during: &str) -> CallResult {
        self.clients[i].held.push((partition.into(), values.to_vec()));
        say!(self, format!("{}: {during} answered with a retriable error while the previous transaction of {} completes; the client retries the send", self.clients[i].name, self.clients[i].transactional_id));
        CallResult::Pending
    }

    /// The leader's side of a transactional Produce: verification or implicit add
    /// (KIP-890, §2), then the append decision (§1). `bytes` becomes the record's copy of
    /// what the log stores.
    fn leader_append(&mut self, pi: usize, bytes: Vec<u8>, op: SupportedOperation, t: usize, values: &[String]) -> Result<usize, ErrorCode> {
        let tv2 = op == SupportedOperation::AddPartition;
        let b = crate::batch::Batch::new_unchecked(&bytes[..]);
        let (pid, epoch, first_seq) = (b.producer_id(), b.producer_epoch(), b.base_sequence());
        // (transaction open here, epoch) of the producer's state on this partition.
        let st = self.idem.cluster.partitions[pi].producers.get(&pid).map(|s| (s.current_txn_first_offset.is_some(), s.producer_epoch));
        let open_here = st.is_some_and(|(open, e)| open && e == epoch);
        // V1: the leader asks the coordinator only when verification is on, or for a TV2
        // client's batch, which it adds (`ReplicaManager.appendRecordsWithTransactionVerification`).
        let verify = tv2 || !self.cluster.verification_disabled;
        if !open_here && !verify {
            msg_rule!(
                self,
                self.partition_lane(&self.idem.cluster.partitions[pi].name),
                self.partition_lane(&self.idem.cluster.partitions[pi].name),
                "verify",
                format!(
                    "transaction.partition.verification.enable=false: producer {pid}'s transactional batch is appended without asking the coordinator whether {} is in its transaction",
                    self.idem.cluster.partitions[pi].name
                ),
                "V1",
                REPLICA_MANAGER_VERIFICATION,
                ErrorCode::NONE
            );
        }
        if !open_here && verify {
            // V2: early epoch check.
            if let Some((_, last)) = st.filter(|&(_, e)| epoch < e) {
                msg_rule!(
                    self,
                    self.partition_lane(&self.idem.cluster.partitions[pi].name),
                    self.producer_lane(&self.txns[t].producer),
                    "response",
                    format!(
                        "Produce response INVALID_PRODUCER_EPOCH(47): epoch {epoch} is below producer {pid}'s epoch {last} on {}: refused before asking the coordinator (KAFKA-18042)",
                        self.idem.cluster.partitions[pi].name
                    ),
                    "V2",
                    REPLICA_MANAGER_VERIFICATION,
                    ErrorCode::INVALID_PRODUCER_EPOCH
                );
                return Err(ErrorCode::INVALID_PRODUCER_EPOCH);
            }
            // V2: the verification entry (kept whatever the coordinator answers; A5 reads it).
            let now = self.idem.cluster.now_ms;
            self.idem.cluster.partitions[pi].start_verification(pid, first_seq, epoch, tv2, now);
            if tv2 {
                // V4: the leader adds the partition (AddPartitionsToTxn v5, verifyOnly=false).
                // V6: on CONCURRENT_TRANSACTIONS it asks again every
                // add.partitions.to.txn.retry.backoff.ms (20) until min(add.partitions.to.txn
                // .retry.backoff.max.ms (100), request.timeout.ms) have passed since the first try,
                // then answers with what it has (`ReplicaManager.appendRecordsWithTransactionVerification`,
                // `maybeRetryOnConcurrentTransactions`, for TransactionSupportedOperation.ADD_PARTITION).
                let start = self.idem.cluster.now_ms;
                let mut attempt = 0u32;
                let a = loop {
                    msg!(
                        self,
                        self.partition_lane(&self.idem.cluster.partitions[pi].name),
                        COORD_LANE,
                        "AddPartitionsToTxn",
                        format!(
                            "AddPartitionsToTxn v5 (verifyOnly=false) from the leader of {}: add it to {}{}",
                            self.idem.cluster.partitions[pi].name,
                            self.txns[t].transactional_id,
                            if attempt == 0 { String::new() } else { format!(" (retry {attempt}, {} ms after the first)", self.idem.cluster.now_ms - start) }
                        )
                    );
                    self.metric(Metric::AddPartitionsRequests, 1);
                    let pname = self.partition_names(pi).0;
                    let a = self.coordinator.add_partitions_v(&self.txns[t].transactional_id, pid, epoch, core::slice::from_ref(&pname), self.idem.cluster.now_ms, Tv::Tv2);
                    self.tick(if a.wrote.is_some() { 1 } else { 0 });
                    if a.wrote.is_some() {
                        let r = self.coordinator.index(&self.txns[t].transactional_id).and_then(|ci| self.write_txn_log_at(ci));
                        let k = msg!(self, COORD_LANE, COORD_LANE, "append", format!("__transaction_state: Ongoing with {}", self.idem.cluster.partitions[pi].name));
                        self.link(k, r);
                    }
                    msg_rule!(
                        self,
                        COORD_LANE,
                        self.partition_lane(&self.idem.cluster.partitions[pi].name),
                        "response",
                        format!("{}: {}", a.error, a.why(&self.txns[t].transactional_id, &[self.idem.cluster.partitions[pi].name.as_str()])),
                        a.rule,
                        a.source,
                        a.error
                    );
                    let elapsed = self.idem.cluster.now_ms - start;
                    if a.error != coordinator::CONCURRENT_TRANSACTIONS || elapsed >= ADD_PARTITIONS_RETRY_WINDOW_MS {
                        break a;
                    }
                    msg_rule!(
                        self,
                        self.partition_lane(&self.idem.cluster.partitions[pi].name),
                        self.partition_lane(&self.idem.cluster.partitions[pi].name),
                        "retry",
                        format!(
                            "CONCURRENT_TRANSACTIONS after {elapsed} ms of the leader's {ADD_PARTITIONS_RETRY_WINDOW_MS} ms window: it asks the coordinator again in {ADD_PARTITIONS_RETRY_BACKOFF_MS} ms instead of answering the producer"
                        ),
                        "V6",
                        REPLICA_MANAGER_RETRY,
                        ErrorCode::NONE
                    );
                    self.idem.cluster.now_ms += ADD_PARTITIONS_RETRY_BACKOFF_MS;
                    attempt += 1;
                };
                if a.error != ErrorCode::NONE {
                    let mapped = leader_add_error(a.error);
                    msg_rule!(
                        self,
                        self.partition_lane(&self.idem.cluster.partitions[pi].name),
                        self.producer_lane(&self.txns[t].producer),
                        "response",
                        format!("Produce response {mapped}: the coordinator refused the implicit add ({})", a.error),
                        "V5",
                        REPLICA_MANAGER_VERIFICATION,
                        mapped
                    );
                    return Err(mapped);
                }
            } else {
                // V3: verify only.
                let (id, pname) = (self.txns[t].transactional_id.as_str(), self.idem.cluster.partitions[pi].name.as_str());
                let verdict = self.verify(id, pid, epoch, pname);
                let coordinator_err = verdict.error();
                msg_rule!(
                    self,
                    self.partition_lane(&self.idem.cluster.partitions[pi].name),
                    COORD_LANE,
                    "AddPartitionsToTxn",
                    format!("AddPartitionsToTxn v4 verifyOnly=true: {}", verdict.why(pid, epoch, &self.txns[t].transactional_id, &self.idem.cluster.partitions[pi].name)),
                    "V3",
                    TRANSACTION_COORDINATOR,
                    coordinator_err
                );
                let err = op.map(coordinator_err);
                if err != ErrorCode::NONE {
                    if err != coordinator_err {
                        // A Produce older than v11 cannot carry TRANSACTION_ABORTABLE (V5).
                        msg_rule!(self, self.partition_lane(&self.idem.cluster.partitions[pi].name), self.producer_lane(&self.txns[t].producer), "response", format!("Produce response {err}: Partition was not added to the transaction ({coordinator_err} goes back as {err} to a Produce older than v11)"), "V5", ADD_PARTITIONS_TO_TXN_MANAGER, err);
                    } else {
                        msg_rule!(self, self.partition_lane(&self.idem.cluster.partitions[pi].name), self.producer_lane(&self.txns[t].producer), "response", format!("Produce response {err}"), "V5", REPLICA_MANAGER_VERIFICATION, err);
                    }
                    return Err(err);
                }
            }
        }
        // The decision as data; its sentence is rendered only when tracing. A transaction not
        // yet open here went through the TV2 add above: A4 applies to it.
        let d = self.idem.cluster.partitions[pi].append_client_verified(&bytes, tv2 && !open_here);
        self.tick(1);
        match d.outcome() {
            o @ (Outcome::Appended { base_offset, last_offset } | Outcome::Duplicate { base_offset, last_offset }) => {
                let log = &self.idem.cluster.partitions[pi];
                let stored = match o {
                    Outcome::Appended { .. } => as_stored(bytes, log),
                    // Nothing was written: the record shows the log's last batch, as before.
                    _ => log.log.last().map(|e| e.bytes.clone()).unwrap_or_default(),
                };
                // A duplicate (A1) wrote nothing: its answer points at the original batch's record.
                let original = if matches!(o, Outcome::Duplicate { .. }) { self.record_at(pi, base_offset) } else { None };
                let r = match original {
                    Some(k) => k,
                    None => self.push_data_record(pi, (base_offset, last_offset), (pid, epoch), values, stored, Some(t)),
                };
                let k = msg_rule!(
                    self,
                    self.partition_lane(&self.idem.cluster.partitions[pi].name),
                    self.producer_lane(&self.txns[t].producer),
                    "response",
                    format!(
                        "Produce response NONE: {}; the records are not visible to read_committed until the transaction ends (LSO {})",
                        d.why(&self.idem.cluster.partitions[pi].name),
                        self.idem.cluster.partitions[pi].last_stable_offset()
                    ),
                    d.rule(),
                    d.source(),
                    ErrorCode::NONE,
                );
                self.link(k, Some(r));
                Ok(r)
            }
            Outcome::Rejected(e) => {
                msg_rule!(
                    self,
                    self.partition_lane(&self.idem.cluster.partitions[pi].name),
                    self.producer_lane(&self.txns[t].producer),
                    "response",
                    format!("Produce response {e}: {}", d.why(&self.idem.cluster.partitions[pi].name)),
                    d.rule(),
                    d.source(),
                    e
                );
                Err(e)
            }
        }
    }

    /// `sendOffsetsToTransaction(consumer's positions, consumer.groupMetadata())`.
    pub fn send_offsets(&mut self, name: &str, consumer: &str) -> Result<CallResult, String> {
        let i = self.client_index(name)?;
        self.not_blocked(i, "sendOffsetsToTransaction")?;
        let ci = self.consumers.iter().position(|c| c.name == consumer).ok_or_else(|| format!("no consumer named {consumer:?}"))?;
        let group = self.consumers[ci].group.clone().ok_or_else(|| format!("consumer {consumer} has no group"))?;
        if let Some(r) = self.check_usable(i, "sendOffsetsToTransaction") {
            return Ok(r);
        }
        if self.clients[i].state != ClientState::InTransaction {
            let e = format!("IllegalStateException: Cannot send offsets in state {}", self.clients[i].state.name());
            say!(self, format!("{name}.sendOffsetsToTransaction() throws {e}"));
            return Ok(CallResult::Thrown(e));
        }
        let offsets_part = Self::offsets_name(&group);
        let tv2 = self.clients[i].tv2;
        if !tv2 && !self.clients[i].added.contains(offsets_part.as_str()) {
            match self.add_partition_tv1(i, Name::from(offsets_part.as_str()), "AddOffsetsToTxn", Some(consumer)) {
                Added::Yes => {}
                Added::Held => return Ok(CallResult::Pending),
                Added::Refused(e) => return Ok(self.add_offsets_refused(i, e)),
            }
        }
        self.send_offsets_commit(i, ci)
    }

    /// `TransactionManager.AddOffsetsToTxnHandler`: fenced (INVALID_PRODUCER_EPOCH too) is a
    /// fatal ProducerFencedException, an unknown or unmapped producer id abortable, anything else
    /// a fatal KafkaException; sendOffsetsToTransaction() rethrows it.
    fn add_offsets_refused(&mut self, i: usize, e: ErrorCode) -> CallResult {
        let e = if e == ErrorCode::INVALID_PRODUCER_EPOCH { ErrorCode::PRODUCER_FENCED } else { e };
        let thrown = match e.0 {
            90 | 49 | 59 => format!("{}: {}", e.exception(), e.message()),
            _ => format!("KafkaException: Unexpected error in AddOffsetsToTxnResponse: {}", e.message()),
        };
        self.client_error(i, e, "AddOffsetsToTxn");
        self.rethrow(i, "sendOffsetsToTransaction", thrown)
    }

    /// `sendOffsetsToTransaction()` once the group's partition is in the transaction: the
    /// TxnOffsetCommit of consumer `ci`'s positions.
    fn send_offsets_commit(&mut self, i: usize, ci: usize) -> Result<CallResult, String> {
        let consumer = self.consumers[ci].name.clone();
        let consumer = consumer.as_str();
        let group = self.consumers[ci].group.clone().ok_or_else(|| format!("consumer {consumer} has no group"))?;
        let generation = self.consumers[ci].generation;
        let positions: Vec<(String, i64)> = self.consumers[ci].positions.iter().map(|(p, o)| (p.clone(), *o)).collect();
        let ids = (self.clients[i].pid, self.clients[i].epoch, self.clients[i].tv2);
        let lose = match self.injected_request(i, "TxnOffsetCommit", OFFSETS_LANE, || format!("TxnOffsetCommit({group}, generation {generation})")) {
            Some(inject::Injection::Hold) => {
                let text = format!(
                    "TxnOffsetCommit{}({group}, generation {generation}, producer {} epoch {}: {})",
                    if ids.2 { " v5" } else { " v4" },
                    ids.0,
                    ids.1,
                    positions.iter().map(|(p, o)| format!("{p}={o}")).collect::<Vec<_>>().join(", ")
                );
                let call = inject::HeldCall::TxnOffsetCommit { consumer: String::from(consumer), group, generation, positions };
                return Ok(self.hold_request(i, call, text, "sendOffsetsToTransaction"));
            }
            Some(inject::Injection::Answer(e)) => {
                // `TxnOffsetCommitHandler`: the group's refusals are a CommitFailedException
                // (abortable); anything else goes the way of a refused write.
                let answer = if matches!(e, ErrorCode::ILLEGAL_GENERATION | ErrorCode::UNKNOWN_MEMBER_ID | ErrorCode::FENCED_INSTANCE_ID) { OffsetsAnswer::Refused(e) } else { OffsetsAnswer::AddRefused(e) };
                return self.offsets_answered(i, answer);
            }
            Some(inject::Injection::LoseResponse) => true,
            _ => false,
        };
        // `inject P TxnOffsetCommit lose-response`: the group coordinator did its part (the
        // offsets are in its log); the answer is lost, and after its timeout the client sends the
        // same request again, which is written again (origin COORDINATOR: no duplicate check),
        // its offsets replacing the pending ones.
        let answer = self.answered_after_loss(i, "TxnOffsetCommit", OFFSETS_LANE, lose, |w, again| w.txn_offset_commit(i, consumer, &group, generation, &positions, ids, if again { " again" } else { "" }), |a| a.error());
        self.offsets_answered(i, answer)
    }

    /// `sendOffsetsToTransaction()` reads the group coordinator's answer to its TxnOffsetCommit.
    fn offsets_answered(&mut self, i: usize, answer: OffsetsAnswer) -> Result<CallResult, String> {
        let name = self.clients[i].name.clone();
        match answer {
            OffsetsAnswer::Written => {
                self.clients[i].started = true;
                say!(self, format!("{name} commits the consumer's offsets inside the transaction: they count only if the transaction commits"));
            }
            OffsetsAnswer::AddRefused(e) => {
                // `TransactionManager.TxnOffsetCommitHandler`: INVALID_PRODUCER_EPOCH and
                // PRODUCER_FENCED are fatal as themselves (`isFatalException`), anything else a
                // fatal KafkaException; sendOffsetsToTransaction() rethrows it.
                let thrown = match e.0 {
                    47 | 90 => format!("{}: {}", e.exception(), e.message()),
                    _ => format!("KafkaException: Unexpected error in TxnOffsetCommitResponse: {}", e.message()),
                };
                self.client_error(i, e, "TxnOffsetCommit");
                return Ok(self.rethrow(i, "sendOffsetsToTransaction", thrown));
            }
            OffsetsAnswer::Refused(e) => {
                self.clients[i].last_error = Some(String::from(e.name()));
                self.clients[i].state = ClientState::AbortableError;
                say!(self, format!("{name}: the offset commit is refused with {} — an abortable CommitFailedException: the transaction must abort, and its output with it (§6.3)", e.name()));
                // `TransactionManager.TxnOffsetCommitHandler`: ILLEGAL_GENERATION / UNKNOWN_MEMBER_ID
                // fail the result with a CommitFailedException (abortable), which
                // sendOffsetsToTransaction() rethrows.
                let thrown = format!("CommitFailedException: Transaction offset Commit failed due to consumer group metadata mismatch: {}", e.message());
                return Ok(self.rethrow(i, "sendOffsetsToTransaction", thrown));
            }
            OffsetsAnswer::WriteRefused(e) => self.client_error(i, e, "TxnOffsetCommit"),
        }
        Ok(CallResult::Ok)
    }

    /// One TxnOffsetCommit of client `i` for `consumer`'s positions, as the group coordinator
    /// handles it: the request and the answer on the timeline (the answer's message index, if
    /// one was drawn), the client's reaction left to the caller.
    /// `ids`: the producer id, epoch and protocol it carries; `suffix` says which copy.
    #[allow(clippy::too_many_arguments)]
    fn txn_offset_commit(&mut self, i: usize, consumer: &str, group: &str, generation: i32, positions: &[(String, i64)], ids: (i64, i16, bool), suffix: &str) -> (OffsetsAnswer, Option<usize>) {
        let name = self.clients[i].name.clone();
        let (pid, epoch, tv2) = ids;
        let id = self.clients[i].transactional_id.clone();
        let offsets_part = Self::offsets_name(group);
        msg!(self, 
            self.producer_lane(&name),
            OFFSETS_LANE,
            "TxnOffsetCommit",
            format!(
                "TxnOffsetCommit{}({group}, generation {generation}, producer {pid} epoch {epoch}: {}){}",
                if tv2 { " v5" } else { " v4" },
                positions.iter().map(|(p, o)| format!("{p}={o}")).collect::<Vec<_>>().join(", "),
                suffix
            ),
        );
        let t = self.current_instance(i);
        if tv2 {
            // G3: the group coordinator adds its partition (TxnOffsetCommit v5) before it looks
            // at the request: `GroupCoordinatorService.commitTransactionalOffsets` runs the
            // write through `CoordinatorRuntime.scheduleTransactionalWriteOperation`, whose
            // `maybeStartTransactionVerification` (AddPartitionsToTxnManager, verifyOnly=false
            // for TV2) completes first; the generation is checked in the write (G1/G2). So a
            // fenced commit still leaves the partition in the transaction, and its abort sends
            // a marker there (Kafka 4.3.1, tests/kafka/txn_scenarios.py txn-rebalance-fences-offsets).
            self.metric(Metric::AddPartitionsRequests, 1);
            let a = self.coordinator.add_partitions_v(&id, pid, epoch, &[offsets_part.as_str()], self.idem.cluster.now_ms, Tv::Tv2);
            if a.wrote.is_some() {
                let r = self.write_txn_log(&id);
                let k = msg!(self, COORD_LANE, COORD_LANE, "append", format!("__transaction_state: Ongoing with {offsets_part}"));
                self.link(k, r);
            }
            msg_rule!(self, OFFSETS_LANE, COORD_LANE, "AddPartitionsToTxn", format!("the group coordinator adds {offsets_part} to {id}: {}", a.why(&id, &[offsets_part.as_str()])), "G3", a.source, a.error);
            // The add goes through the leader's path (ReplicaManager, V5): PRODUCER_FENCED comes
            // back as INVALID_PRODUCER_EPOCH (Kafka 4.3.1 and 4.1.2, txn-request-offsets).
            let e = leader_add_error(a.error);
            if e != ErrorCode::NONE {
                let k = msg_rule!(self, OFFSETS_LANE, self.producer_lane(&name), "response", format!("TxnOffsetCommit response {e}: the add of {offsets_part} failed"), "G3", a.source, e);
                return (OffsetsAnswer::AddRefused(e), Some(k));
            }
        } else {
            // G3 (TV1, v4): verified to be in the transaction unless the producer has one open on
            // the partition at this epoch (V1) — what refuses a TxnOffsetCommit that arrives after
            // its transaction ended (a held copy, delivered late).
            let n = Self::offsets_partition(group);
            let open = self.offsets_logs.get(&n).and_then(|l| l.producers.get(&pid)).is_some_and(|e| e.producer_epoch == epoch && e.current_txn_first_offset.is_some());
            if !open {
                if let Some((e, why)) = self.verify_offsets_write(&id, pid, epoch, &offsets_part, SupportedOperation::of_txn_offset_commit(4), 4) {
                    let k = msg_rule!(self, OFFSETS_LANE, self.producer_lane(&name), "response", format!("TxnOffsetCommit response {e}: {why}"), "G3", TRANSACTION_COORDINATOR, e);
                    return (OffsetsAnswer::AddRefused(e), Some(k));
                }
            }
        }
        // G1/G2: generation fencing (KIP-447).
        let gi = match self.validate_txn_offset_commit(group, generation, consumer, None) {
            Ok((gi, _)) => gi,
            Err(refusal) => {
                let e = refusal.error;
                let k = msg_rule!(self, OFFSETS_LANE, self.producer_lane(&name), "response", format!("TxnOffsetCommit response {e}: {}", refusal.why), refusal.rule, OFFSET_METADATA_MANAGER, e);
                return (OffsetsAnswer::Refused(e), Some(k));
            }
        };
        // G4: the offsets are written as transactional records, pending until the marker.
        self.metric(Metric::SendOffsetsTime, (self.cluster.rtt_ms + self.cluster.append_ms) * 1_000_000);
        match self.write_pending_offsets(gi, pid, epoch, positions, t) {
            Ok(r) => {
                let k = msg_rule!(self, OFFSETS_LANE, self.producer_lane(&name), "response", String::from("TxnOffsetCommit response NONE: the offsets are written as transactional records, pending until the COMMIT marker reaches this partition"), "G4", OFFSET_METADATA_MANAGER, ErrorCode::NONE);
                self.link(k, Some(r));
                (OffsetsAnswer::Written, Some(k))
            }
            Err(d) => {
                let e = d.error();
                let k = msg_rule!(self, OFFSETS_LANE, self.producer_lane(&name), "response", format!("TxnOffsetCommit response {e}: {}", d.why), d.rule, d.source, e);
                (OffsetsAnswer::WriteRefused(e), Some(k))
            }
        }
    }

    /// The answer drawn as message `k` (none drawn: one is drawn now, from `from` to client
    /// `i`) is lost on its way back to the client.
    fn lose_answer(&mut self, k: Option<usize>, from: Name, i: usize, api: &'static str, e: ErrorCode) {
        if !self.trace {
            return;
        }
        let k = match k {
            Some(k) => k,
            None => {
                let to = self.producer_lane(&self.clients[i].name.clone());
                msg!(self, from, to, "response", format!("{api} response {e}"))
            }
        };
        if let Some(m) = self.messages.get_mut(k) {
            m.lost = true;
            m.text.push_str(" — lost on the way back");
        }
    }

    /// G1/G2: the group coordinator's check of a TxnOffsetCommit's group fields
    /// (`OffsetMetadataManager.validateTransactionalOffsetCommit`, then
    /// `ClassicGroup.validateOffsetCommit(…, isTransactional=true)`): an unknown group is
    /// created as an Empty "simple" group when generation < 0 (G1), else ILLEGAL_GENERATION; a
    /// known group accepts generation < 0 while Empty, else checks the member (a static member's
    /// instance id: the model has none, UNKNOWN_MEMBER_ID) and the generation (G2).
    /// `Ok((group index, rule))`.
    pub fn validate_txn_offset_commit(&mut self, group: &str, generation: i32, member: &str, instance: Option<&str>) -> Result<(usize, &'static str), GroupRefusal> {
        let refuse = |error, rule, why| Err(GroupRefusal { error, rule, why });
        let Some(gi) = self.groups.iter().position(|g| g.name == group) else {
            if generation >= 0 {
                return refuse(ErrorCode::ILLEGAL_GENERATION, "G1", format!("no group {group} is known and generation {generation} ≥ 0: ILLEGAL_GENERATION (only generation −1 creates a simple group)"));
            }
            self.groups.push(Group { name: group.into(), generation: 0, committed: BTreeMap::new(), pending: Vec::new(), members: Vec::new(), static_members: Vec::new() });
            return Ok((self.groups.len() - 1, "G1"));
        };
        let g = &self.groups[gi];
        if generation < 0 && g.members.is_empty() {
            return Ok((gi, "G2"));
        }
        if generation >= 0 || !member.is_empty() || instance.is_some() {
            // `ClassicGroup.validateMember`: a group.instance.id is looked up among the static
            // members; its member id must be the request's (KIP-345 fencing).
            if let Some(x) = instance {
                match g.static_members.iter().find(|(i, _)| i == x) {
                    None => return refuse(ErrorCode::UNKNOWN_MEMBER_ID, "G2", format!("group.instance.id {x:?} is no static member of {group}: UNKNOWN_MEMBER_ID")),
                    Some((_, m)) if m != member => {
                        return refuse(ErrorCode::FENCED_INSTANCE_ID, "G2", format!("group.instance.id {x:?} belongs to member {m:?} now, not {member:?}: a newer instance took it over, FENCED_INSTANCE_ID"))
                    }
                    Some(_) => {}
                }
            }
            if !g.members.iter().any(|m| m == member) {
                return refuse(ErrorCode::UNKNOWN_MEMBER_ID, "G2", format!("member id {member:?} is no member of {group}{}: UNKNOWN_MEMBER_ID", if g.members.is_empty() { " (it has none)" } else { "" }));
            }
            if generation != g.generation {
                return refuse(ErrorCode::ILLEGAL_GENERATION, "G2", format!("generation {generation} is stale: the group is at generation {} after a rebalance (KIP-447 fencing)", g.generation));
            }
        }
        Ok((gi, "G2"))
    }

    /// G4: `positions` written to the group's `__consumer_offsets` partition as one
    /// transactional batch of producer `pid`, pending until the marker, for transaction
    /// instance `t`. The group coordinator writes it (`CoordinatorRuntime`: base sequence 0,
    /// origin COORDINATOR, so no duplicate or sequence check: a TxnOffsetCommit sent again is
    /// written again, and its offsets replace the pending ones, as
    /// `OffsetMetadataManager.replay` puts them in its map). `Ok(record)` appended, `Err` the
    /// leader's refusal (A2/A3/A9).
    fn write_pending_offsets(&mut self, gi: usize, pid: i64, epoch: i16, positions: &[(String, i64)], t: usize) -> Result<usize, Decision> {
        let group = self.groups[gi].name.clone();
        let offsets_part = Self::offsets_name(&group);
        let mut recs = Vec::new();
        for (p, o) in positions {
            let (topic, part) = split_partition(p);
            let key = crate::internal::offset_commit_key(&group, &topic, part);
            let value = crate::internal::offset_commit_value(&crate::internal::OffsetCommit {
                group: group.clone(),
                topic,
                partition: part,
                offset: *o,
                leader_epoch: -1,
                metadata: String::new(),
                commit_timestamp_ms: self.idem.cluster.now_ms,
            });
            recs.push((key, value));
        }
        let n = Self::offsets_partition(&group);
        let bytes = records_batch(pid, epoch, 0, true, &recs, self.idem.cluster.now_ms);
        let (d, stored) = {
            let log = self.offsets_logs.entry(n).or_insert_with(|| Partition::new(format!("__consumer_offsets-{n}")));
            let d = log.append_coordinator_verdict(&bytes).decision(&log.name);
            (d, log.log.last().map(|e| e.bytes.clone()).unwrap_or_default())
        };
        self.tick(1);
        match d.outcome {
            Outcome::Appended { base_offset, last_offset } => {
                for (p, o) in positions {
                    let g = &mut self.groups[gi];
                    g.pending.retain(|x| !(x.0 == pid && x.1 == *p));
                    g.pending.push((pid, p.clone(), *o));
                    let offsets = &mut self.txns[t].offsets;
                    offsets.retain(|x| !(x.0 == group && x.1 == *p));
                    offsets.push((group.clone(), p.clone(), *o));
                }
                let r = self.push_record(LogRecord {
                    lane: Name::fixed(OFFSETS),
                    partition: Name::from(offsets_part.as_str()),
                    offset: base_offset,
                    last_offset,
                    kind: "offset-commit",
                    pid,
                    epoch,
                    transactional: true,
                    values: positions.iter().map(|(p, o)| Some(Name::from(format!("{group} {p}={o}")))).collect(),
                    text: format!("{group}: {}", positions.iter().map(|(p, o)| format!("{p}={o}")).collect::<Vec<_>>().join(", ")).into(),
                    step: self.step,
                    closed_at: None,
                    outcome: None,
                    bytes: stored,
                    txn: Some(t),
                    truncated_at: None,
                });
                self.txns[t].records.push(r);
                Ok(r)
            }
            Outcome::Duplicate { .. } | Outcome::Rejected(_) => Err(d),
        }
    }

    /// `commitTransaction()` / `abortTransaction()`: EndTxn (E/F rules). With
    /// `lose_response` the coordinator acts but the answer never arrives.
    pub fn end(&mut self, name: &str, commit: bool, lose_response: bool) -> Result<CallResult, String> {
        let i = self.client_index(name)?;
        let call = if commit { "commitTransaction" } else { "abortTransaction" };
        self.not_blocked(i, call)?;
        if let Some(r) = self.check_usable(i, call) {
            return Ok(r);
        }
        let op = if commit { PendingOp::Commit } else { PendingOp::Abort };
        let st = self.clients[i].state;
        let retrying = self.clients[i].pending == Some(op);
        let allowed = retrying || st == ClientState::InTransaction || (!commit && st == ClientState::AbortableError);
        if !allowed {
            let e = format!("IllegalStateException: Invalid transition attempted from state {} to state {}", st.name(), if commit { "COMMITTING_TRANSACTION" } else { "ABORTING_TRANSACTION" });
            say!(self, format!("{name}.{call}() throws {e}"));
            return Ok(CallResult::Thrown(e));
        }
        if !self.clients[i].unacked.is_empty() {
            // EndTxn goes only when no batch is incomplete (`TransactionManager.nextRequest`):
            // commit and abort both wait for the acks=all answers the HW holds back.
            self.clients[i].state = if commit { ClientState::CommittingTransaction } else { ClientState::AbortingTransaction };
            self.clients[i].pending = Some(op);
            let parts: Vec<String> = self.clients[i].unacked.iter().map(|u| String::from(self.idem.cluster.partitions[u.partition].name.as_str())).collect();
            say!(self, format!("{name}.{call}() waits: its batches to {} are written but not acknowledged (acks=all waits for the high watermark); EndTxn goes once they are", parts.join(", ")));
            return Ok(CallResult::Pending);
        }
        if self.waits_for_held(i, "Produce") {
            // EndTxn goes only when no batch is in flight (`TransactionManager.nextRequest`):
            // commit and abort both wait for the held Produce's answer.
            self.clients[i].state = if commit { ClientState::CommittingTransaction } else { ClientState::AbortingTransaction };
            self.clients[i].pending = Some(op);
            say!(self, format!("{name}.{call}() waits: its Produce is held in the network, and EndTxn goes only once no batch is in flight"));
            return Ok(CallResult::Pending);
        }
        if !self.clients[i].held.is_empty() || !self.clients[i].requeued.is_empty() {
            // commitTransaction() flushes first: EndTxn goes once the held sends are through;
            // abortTransaction() drops them.
            if commit {
                self.clients[i].state = ClientState::CommittingTransaction;
                self.clients[i].pending = Some(op);
                say!(self, format!("{name}.commitTransaction() waits for its held sends to go through first (flush)"));
                return Ok(CallResult::Pending);
            }
            self.clients[i].held.clear();
            self.clients[i].requeued.clear();
        }
        self.clients[i].state = if commit { ClientState::CommittingTransaction } else { ClientState::AbortingTransaction };
        if self.waits_for_held(i, "AddPartitionsToTxn") {
            // The requests go one at a time: the EndTxn waits for the add's answer (and then is
            // needed: the coordinator has the partition).
            self.clients[i].pending = Some(op);
            say!(self, format!("{name}.{call}() waits for the answer to its AddPartitionsToTxn, held in the network; EndTxn goes after it"));
            return Ok(CallResult::Pending);
        }
        if !self.clients[i].started && !retrying {
            // Nothing reached Kafka: no EndTxn (§6.2).
            self.clients[i].state = ClientState::Ready;
            self.clients[i].last_error = None;
            say!(self, format!("{name}.{call}(): nothing was sent in this transaction, so no EndTxn is needed; READY"));
            return Ok(CallResult::Ok);
        }
        self.do_end(i, commit, lose_response)
    }

    fn do_end(&mut self, i: usize, commit: bool, lose_response: bool) -> Result<CallResult, String> {
        let id = self.clients[i].transactional_id.clone();
        let name = self.clients[i].name.clone();
        let op = if commit { PendingOp::Commit } else { PendingOp::Abort };
        if self.waits_for_held(i, "EndTxn") {
            // `TransactionalRequestResult.await`: the call waits for the answer to the request
            // already sent, which is held in the network.
            self.clients[i].pending = Some(op);
            say!(self, format!("{name}.{}() waits for the answer to its EndTxn, which is held in the network", op.method()));
            return Ok(CallResult::Pending);
        }
        let ids = (self.clients[i].pid, self.clients[i].epoch, self.clients[i].tv2);
        match self.injected_request(i, "EndTxn", COORD_LANE, || format!("EndTxn({id}, {})", if commit { "COMMIT" } else { "ABORT" })) {
            Some(inject::Injection::Hold) => {
                // `inject P EndTxn hold`: the request is on its way but does not arrive; the call
                // waits (`release P EndTxn` delivers it; after request.timeout.ms the client sends
                // it again).
                let text = format!("EndTxn{}({id}, producer {} epoch {}, {})", if ids.2 { " v5" } else { " v4" }, ids.0, ids.1, if commit { "COMMIT" } else { "ABORT" });
                self.clients[i].pending = Some(op);
                Ok(self.hold_request(i, inject::HeldCall::EndTxn { commit }, text, op.method()))
            }
            Some(inject::Injection::LoseResponse) => {
                // `inject P EndTxn lose-response`: the coordinator decided and wrote it; the answer
                // is lost. Within max.block.ms the client's request times out (request.timeout.ms),
                // it disconnects, looks the coordinator up again and sends the same EndTxn, which
                // the coordinator answers from the state it is in now: CONCURRENT_TRANSACTIONS while
                // the markers are out (the client retries), NONE once complete (a retry of the
                // same EndTxn, E rules). `commit P lose-response` is the other case: no answer
                // within max.block.ms, the call throws.
                let a = self.end_txn_request(i, commit, "", ids);
                self.coordinator_answer_msg(&name, "EndTxn", &a, &id, &[]);
                let k = self.last_response();
                self.lose_answer(k, COORD_LANE, i, "EndTxn", a.error);
                self.injected_loss(i, "EndTxn");
                self.end_with(i, commit, lose_response, " again", ids)
            }
            Some(inject::Injection::Answer(e)) => self.end_answered(i, commit, false, World::injected_coordinator_answer(e)),
            _ => self.end_with(i, commit, lose_response, "", ids),
        }
    }

    /// An EndTxn of client `i` carrying `ids` (producer id, epoch, TV2) reaches the coordinator
    /// (`suffix` says which copy), and its answer the client, which reacts (`lose_response`:
    /// `commit P lose-response`, no answer within max.block.ms).
    fn end_with(&mut self, i: usize, commit: bool, lose_response: bool, suffix: &str, ids: (i64, i16, bool)) -> Result<CallResult, String> {
        let a = self.end_txn_request(i, commit, suffix, ids);
        if self.trace && !end_answer_lost(lose_response, &a) {
            let (name, id) = (self.clients[i].name.clone(), self.clients[i].transactional_id.clone());
            self.coordinator_answer_msg(&name, "EndTxn", &a, &id, &[]);
        }
        self.end_answered(i, commit, lose_response, a)
    }

    /// `commitTransaction()` / `abortTransaction()` reads the answer `a` to its EndTxn (drawn
    /// already, unless it is lost: `lose_response`).
    fn end_answered(&mut self, i: usize, commit: bool, lose_response: bool, a: Answer) -> Result<CallResult, String> {
        let (tv2, result) = (self.clients[i].tv2, if commit { "COMMIT" } else { "ABORT" });
        let op = if commit { PendingOp::Commit } else { PendingOp::Abort };
        if end_answer_lost(lose_response, &a) {
            let k = msg_rule!(self, COORD_LANE, self.producer_lane(&self.clients[i].name), "response", format!("EndTxn response {} — lost on the way back", a.error), a.rule, a.source, a.error);
            if let Some(m) = self.messages.get_mut(k) {
                m.lost = true;
            }
            let c = &mut self.clients[i];
            c.pending = Some(op);
            c.outcome_unknown = true;
            // `TransactionalRequestResult.await(maxBlockTimeMs)`: the answer did not come back
            // in time, so commitTransaction()/abortTransaction() throws a TimeoutException
            // (the state stays COMMITTING/ABORTING_TRANSACTION; the retried call awaits the same
            // result).
            // `KafkaProducer` adds its COMMIT_TXN_TIMEOUT_MSG / ABORT_TXN_TIMEOUT_MSG (the commit's
            // text as Kafka 4.3.1 printed it, tests/kafka/txn_scenarios.py txn-commit-response-lost).
            let thrown = format!(
                "TimeoutException: Timeout expired after {MAX_BLOCK_MS}ms while awaiting EndTxn({commit}). {}",
                if commit {
                    "CommitTransaction timed out - did not complete EndTxn with the transaction coordinator within max.block.ms"
                } else {
                    "AbortTransaction timed out - did not complete EndTxn(abort) with the transaction coordinator within max.block.ms"
                }
            );
            c.last_error = Some(thrown.clone());
            say!(self, format!(
                "{}.{}() throws {thrown}: the coordinator has decided ({}), but the producer does not know — the outcome is UNKNOWN. The only correct move is to call the same method again (KIP-588 / §6.2); calling the other one throws.",
                self.clients[i].name,
                op.method(),
                a.wrote.map_or("no change", |s| s.name())
            ));
            return Ok(CallResult::Thrown(thrown));
        }
        match a.error {
            ErrorCode::NONE => {
                let c = &mut self.clients[i];
                if tv2 && a.producer_id >= 0 && (c.pid, c.epoch) != (a.producer_id, a.producer_epoch) {
                    // TV2: adopt the bumped epoch (or the next producer id) and restart
                    // sequences at 0. Under TV1 the epoch stays and sequences continue.
                    c.pid = a.producer_id;
                    c.epoch = a.producer_epoch;
                    restart_sequences(&mut c.sequences);
                }
                empty_set(&mut c.added);
                c.started = false;
                c.pending = None;
                c.outcome_unknown = false;
                c.last_error = None;
                c.state = ClientState::Ready;
                // The coordinator answered with the current (pid, epoch): under TV2 a producer
                // whose transaction timed out recovers this way (T3), so it is fenced no more.
                self.fenced.remove(self.clients[i].name.as_str());
                say!(self, format!(
                    "{}: {result} accepted ({}); the producer is READY{}. Markers go to each partition next.",
                    self.clients[i].name,
                    a.rule,
                    if tv2 { format!(" at epoch {} (TV2 bumps the epoch at every EndTxn)", self.clients[i].epoch) } else { String::new() }
                ));
                self.maybe_switch_protocol(i);
                Ok(CallResult::Ok)
            }
            e if e == coordinator::CONCURRENT_TRANSACTIONS => {
                // An answer arrived: the client itself retries until the state completes.
                self.clients[i].pending = Some(op);
                self.clients[i].outcome_unknown = false;
                say!(self, format!("{}: CONCURRENT_TRANSACTIONS — the transaction is still completing; the client retries EndTxn ({})", self.clients[i].name, a.rule));
                Ok(CallResult::Pending)
            }
            e => {
                // `TransactionManager.EndTxnHandler`: INVALID_PRODUCER_EPOCH is treated as
                // PRODUCER_FENCED (fatal); INVALID_TXN_STATE is fatal as itself; an unknown or
                // unmapped producer id is abortable if the epoch can be bumped; anything else a
                // fatal KafkaException. The call that got the answer rethrows it.
                let e = if e == ErrorCode::INVALID_PRODUCER_EPOCH { ErrorCode::PRODUCER_FENCED } else { e };
                let thrown = match e.0 {
                    90 | 48 | 49 | 59 => format!("{}: {}", e.exception(), e.message()),
                    _ => format!("KafkaException: Unhandled error in EndTxnResponse: {}", e.message()),
                };
                self.client_error(i, e, "EndTxn");
                Ok(self.rethrow(i, op.method(), thrown))
            }
        }
    }

    /// One EndTxn of client `i`, as the coordinator handles it: the request, the decision, the
    /// write and the markers it queues. The answer is drawn, and reacted to, by the caller.
    fn end_txn_request(&mut self, i: usize, commit: bool, suffix: &str, ids: (i64, i16, bool)) -> Answer {
        let (pid, epoch, tv2) = ids;
        let tv = if tv2 { Tv::Tv2 } else { Tv::Tv1 };
        let result = if commit { "COMMIT" } else { "ABORT" };
        msg!(
            self,
            self.producer_lane(&self.clients[i].name),
            COORD_LANE,
            "EndTxn",
            format!("EndTxn{}({}, producer {pid} epoch {epoch}, {result}){suffix}", if tv2 { " v5" } else { " v4" }, self.clients[i].transactional_id)
        );
        self.metric(Metric::EndTxnRequests, 1);
        // Completion time is measured from the first EndTxn of the transaction (retries keep it).
        if let Some(&t) = self.open_txn.get(self.clients[i].transactional_id.as_str()) {
            self.end_txn_at.entry(t).or_insert(self.idem.cluster.now_ms);
        }
        let a = self.coordinator.end_txn_alloc(&self.clients[i].transactional_id, pid, epoch, commit, tv, self.idem.cluster.now_ms, self.idem.cluster.next_producer_id);
        let ci = self.coordinator.index(&self.clients[i].transactional_id);
        if ci.is_some_and(|ci| self.coordinator.txns[ci].next_producer_id == self.idem.cluster.next_producer_id) {
            self.idem.cluster.next_producer_id += 1;
        }
        let elapsed = self.tick(if a.wrote.is_some() { 1 } else { 0 });
        self.metric(if commit { Metric::CommitTime } else { Metric::AbortTime }, elapsed * 1_000_000);
        if a.wrote.is_some() {
            let r = ci.and_then(|ci| self.write_txn_log_at(ci));
            let k = msg!(self, COORD_LANE, COORD_LANE, "append", format!("__transaction_state: {} for {} (K1)", a.wrote.map_or("", |s| s.name()), self.clients[i].transactional_id));
            self.link(k, r);
            // None: a TV2 empty abort, a transaction with no partitions.
            let t = match self.open_txn.get(self.clients[i].transactional_id.as_str()).copied() {
                Some(t) => t,
                None => self.current_instance(i),
            };
            if commit && self.fenced.contains(self.clients[i].name.as_str()) {
                self.txns[t].commit_by_fenced = true;
            }
            if let Some(ci) = ci {
                // A client's EndTxn: the markers follow the protocol of that EndTxn (the
                // coordinator's clientTransactionVersion), not the cluster's level now (TV).
                // On 4.1 every marker goes out as WriteTxnMarkers v1 and meets M1 (KafkaLine).
                let version = self.cluster.kafka.marker_version(tv2);
                self.queue_markers_with(ci, t, commit, version);
            }
        }
        a
    }

    /// The call `call` of client `i` throws `thrown`, the exception the answer it awaited
    /// failed its `TransactionalRequestResult` with (`KafkaProducer` rethrows from
    /// `TransactionalRequestResult.await`); the client keeps it as its last error.
    fn rethrow(&mut self, i: usize, call: &str, thrown: String) -> CallResult {
        let name = self.clients[i].name.clone();
        let during = self.clients[i].last_error.take().unwrap_or_default();
        self.clients[i].last_error = Some(if during.is_empty() { thrown.clone() } else { format!("{thrown} ({during})") });
        say!(self, format!("{name}.{call}() throws {thrown}"));
        CallResult::Thrown(thrown)
    }

    /// §4.2: a 4.x client re-reads the finalized transaction.version between transactions;
    /// an upgrade to TV2 forces a client-side epoch bump (InitProducerId with pid/epoch).
    /// The level it re-reads is the one of its last ApiVersions answer (`features_tv`): Kafka
    /// 4.3.1's client sends ApiVersions only when it connects, so a producer whose connections
    /// stay up keeps its protocol after `kafka-features.sh upgrade` (seen on a real broker:
    /// tests/kafka/txn_scenarios.py, txn-protocol-upgrade).
    fn maybe_switch_protocol(&mut self, i: usize) {
        let want = self.clients[i].features_tv >= 2;
        if self.clients[i].tv2 == want {
            return;
        }
        self.clients[i].tv2 = want;
        let name = self.clients[i].name.clone();
        say!(self, format!("{name} sees transaction.version {} and switches to the {} protocol between transactions", self.clients[i].features_tv, if want { "V2" } else { "V1" }));
        if want {
            let cur = (self.clients[i].pid, self.clients[i].epoch);
            self.clients[i].state = ClientState::Initializing;
            let _ = self.do_init(i, Some(cur));
        }
    }

    fn queue_markers(&mut self, id: &str, t: usize, commit: bool) {
        if let Some(ci) = self.coordinator.index(id) {
            self.queue_markers_at(ci, t, commit);
        }
    }

    /// Queue a marker for each partition of the coordinator's `ci`-th transaction (K2); a
    /// server-initiated abort uses the cluster's finalized transaction.version.
    fn queue_markers_at(&mut self, ci: usize, t: usize, commit: bool) {
        let version = self.cluster.kafka.marker_version(self.cluster.transaction_version >= 2);
        self.queue_markers_with(ci, t, commit, version);
    }

    fn queue_markers_with(&mut self, ci: usize, t: usize, commit: bool, version: MarkerVersion) {
        let m = &self.coordinator.txns[ci];
        self.markers.retain(|x| x.transactional_id != m.transactional_id || x.held);
        for p in &m.partitions {
            self.markers.push(MarkerReq {
                transactional_id: m.transactional_id.clone(),
                txn: t,
                pid: m.producer_id,
                epoch: m.producer_epoch,
                commit,
                coordinator_epoch: self.coordinator_epoch,
                partition: p.clone(),
                version,
                held: false,
            });
        }
        self.txns[t].outcome = Some(commit);
        self.txns[t].markers.reserve(m.partitions.len());
        if m.partitions.is_empty() {
            let id = m.transactional_id.clone();
            self.complete_txn(&id, t);
        }
    }

    fn complete_txn(&mut self, id: &str, t: usize) {
        if let Some(s) = self.coordinator.complete(id, self.idem.cluster.now_ms) {
            self.tick(1);
            let r = self.write_txn_log(id);
            let k = msg!(self, COORD_LANE, COORD_LANE, "append", format!("__transaction_state: {} for {id}: every marker is written (K5)", s.name()));
            self.link(k, r);
            if self.open_txn.get(id) == Some(&t) {
                self.open_txn.remove(id);
            }
            let parts = distinct_partitions(&self.records, &self.txns[t].records);
            if let Some(start) = self.end_txn_at.remove(&t) {
                self.completions.push((parts, start, self.idem.cluster.now_ms, self.step));
            }
            say!(self, format!("{id} is {} (K5): the transaction is over", s.name()));
        }
    }

    /// Deliver queued WriteTxnMarkers: all (not held), or the one for `partition`.
    pub fn deliver_markers(&mut self, partition: Option<&str>) -> Result<usize, String> {
        let mut batch = core::mem::take(&mut self.delivering);
        batch.clear();
        // Move the picked markers out, in queue order; the others stay queued in order.
        let mut queued = core::mem::take(&mut self.markers);
        for m in queued.drain(..) {
            let pick = match partition {
                Some(p) => m.partition == p,
                None => !m.held,
            };
            if pick {
                batch.push(m);
            } else {
                self.markers.push(m);
            }
        }
        if self.markers.is_empty() {
            self.markers = queued; // keep the queue's buffer
        }
        if batch.is_empty() {
            self.delivering = batch;
            return Err(String::from(match partition {
                Some(_) => "no marker is queued for that partition",
                None => "no marker is queued",
            }));
        }
        let nb = self.cluster.brokers.max(1);
        let broker = |m: &MarkerReq| self.idem.cluster.partitions.iter().position(|p| p.name == m.partition).map_or(0, |bi| bi % nb);
        let brokers = if nb == 1 {
            1 // one broker leads every partition
        } else if nb <= 128 {
            batch.iter().fold(0u128, |mask, m| mask | 1 << broker(m)).count_ones() as usize
        } else {
            batch.iter().map(broker).collect::<BTreeSet<usize>>().len()
        };
        let n = batch.len() as i64;
        self.metric(Metric::WriteTxnMarkersRequests, brokers as i64);
        // Parallel per broker: one round trip plus the appends on the busiest broker.
        let per_broker = (n + brokers as i64 - 1) / (brokers.max(1) as i64);
        self.idem.cluster.now_ms += self.cluster.rtt_ms + per_broker * self.cluster.append_ms;
        for m in &batch {
            let pi = self.idem.cluster.partitions.iter().position(|p| p.name == m.partition);
            let end_before = pi.map(|pi| self.idem.cluster.partitions[pi].log_end_offset);
            let msgs_before = self.messages.len();
            self.write_marker(m);
            // A marker written above the HW: its acks=-1 answer waits for the followers (S1).
            if let (Some(pi), Some(before)) = (pi, end_before) {
                let p = &self.idem.cluster.partitions[pi];
                if p.log_end_offset > before && !p.replicas.followers.is_empty() && p.high_watermark() < p.log_end_offset {
                    let need = p.log_end_offset;
                    self.hold_marker(m.clone(), pi, need, msgs_before);
                }
            }
        }
        // K5: complete transactions with no marker left (current coordinator's).
        for m in &batch {
            self.maybe_complete(m.transactional_id.as_str(), m.txn);
        }
        batch.clear();
        self.delivering = batch;
        self.retry_pending();
        Ok(n as usize)
    }

    /// K5: complete the transaction when no marker of it is left to answer (the current
    /// coordinator's: queued, or held for the HW).
    pub(super) fn maybe_complete(&mut self, id: &str, t: usize) {
        let ce = self.coordinator_epoch;
        let left = self.markers.iter().any(|x| x.transactional_id == id && x.txn == t && x.coordinator_epoch == ce)
            || self.held_markers.iter().any(|h| h.marker.transactional_id == id && h.marker.txn == t && h.marker.coordinator_epoch == ce);
        let pending = self.coordinator.get(id).is_some_and(|m| m.pending_state.is_some());
        let abandoned = self.markers_abandoned.contains(&(t, ce));
        if !left && pending && !abandoned && self.txns[t].outcome.is_some() && self.open_txn.get(id).is_none_or(|&o| o == t) {
            self.complete_txn(id, t);
        }
    }

    fn write_marker(&mut self, m: &MarkerReq) {
        let result = if m.commit { "COMMIT" } else { "ABORT" };
        let is_offsets = m.partition.starts_with("__consumer_offsets-");
        msg_rule!(self,
            COORD_LANE,
            self.marker_lane(&m.partition, is_offsets),
            "WriteTxnMarkers",
            format!("WriteTxnMarkers({result}, producer {} epoch {}, coordinator epoch {}, {})", m.pid, m.epoch, m.coordinator_epoch, m.partition),
            "K2",
            TRANSACTION_MARKER_CHANNEL_MANAGER,
            ErrorCode::NONE,
        );
        let now = self.idem.cluster.now_ms;
        let pi = match is_offsets {
            true => None,
            false => match self.idem.cluster.partitions.iter().position(|p| p.name == m.partition) {
                Some(pi) => Some(pi),
                None => return,
            },
        };
        // (partition, lane) for the record, shared for a data partition.
        let (partition, lane_name) = match pi {
            None => (Name::from(m.partition.as_str()), Name::fixed(OFFSETS)),
            Some(pi) => self.partition_names(pi),
        };
        let log: &mut Partition = match pi {
            None => {
                let n: i32 = m.partition.rsplit('-').next().and_then(|x| x.parse().ok()).unwrap_or(0);
                self.offsets_logs.entry(n).or_insert_with(|| Partition::new(m.partition.clone()))
            }
            Some(pi) => &mut self.idem.cluster.partitions[pi],
        };
        // The decision as data; its sentence is rendered only when tracing.
        let d = log.append_marker_verdict(m.pid, m.epoch, m.commit, m.coordinator_epoch, m.version, now);
        match d.outcome() {
            Outcome::Appended { base_offset, .. } => {
                let stored = log.log.last().map(|e| e.bytes.clone()).unwrap_or_default();
                let lso = log.last_stable_offset();
                let r = self.push_record(LogRecord {
                    lane: lane_name,
                    partition,
                    offset: base_offset,
                    last_offset: base_offset,
                    kind: if m.commit { "commit" } else { "abort" },
                    pid: m.pid,
                    epoch: m.epoch,
                    transactional: true,
                    values: Values::default(),
                    text: RecordText::marker(m.commit, m.coordinator_epoch),
                    step: self.step,
                    closed_at: Some(self.step),
                    outcome: Some(if m.commit { "committed" } else { "aborted" }),
                    bytes: stored,
                    txn: Some(m.txn),
                    truncated_at: None,
                });
                // Close this producer's open records on that partition: those of every
                // transaction instance of this producer id still open there.
                let step = self.step;
                let outcome = Some(if m.commit { "committed" } else { "aborted" });
                if let Some(open) = self.open_records.get_mut(m.partition.as_str()).and_then(|by_pid| by_pid.get_mut(&m.pid)) {
                    for k in open.drain(..) {
                        let rec = &mut self.records[k];
                        if rec.closed_at.is_none() && rec.offset < base_offset {
                            rec.closed_at = Some(step);
                            rec.outcome = outcome;
                        }
                    }
                }
                self.txns[m.txn].markers.push(m.commit);
                let k = msg_rule!(self, self.marker_lane(&m.partition, is_offsets), COORD_LANE, "response", format!("marker written: {}; LSO now {lso}", d.why(&m.partition)), d.rule(), d.source(), ErrorCode::NONE);
                self.link(k, Some(r));
                if is_offsets {
                    // K3/G4: materialize or discard this producer's pending offsets.
                    for g in self.groups.iter_mut() {
                        if Self::offsets_name(&g.name) != m.partition {
                            continue;
                        }
                        let mine: Vec<(i64, String, i64)> = g.pending.iter().filter(|x| x.0 == m.pid).cloned().collect();
                        g.pending.retain(|x| x.0 != m.pid);
                        if m.commit {
                            for (_, p, o) in mine {
                                g.committed.insert(p, o);
                            }
                        }
                    }
                    say!(self, format!("{result} reaches {}: the group's pending offsets are {}", m.partition, if m.commit { "materialized" } else { "discarded" }));
                }
            }
            _ => {
                let e = d.error();
                msg_rule!(self, self.marker_lane(&m.partition, is_offsets), COORD_LANE, "response", format!("marker refused {e}: {} — the coordinator stops sending markers for this transaction (K4)", d.why(&m.partition)), d.rule(), d.source(), e);
                if m.coordinator_epoch == self.coordinator_epoch {
                    // K4: the coordinator drops this transaction's queued markers and does not
                    // write Complete*: the transaction stays in Prepare* (pending Complete*).
                    let (t, ce) = (m.txn, m.coordinator_epoch);
                    self.markers_abandoned.insert((t, ce));
                    let id = m.transactional_id.clone();
                    self.markers.retain(|x| !(x.transactional_id == id && x.txn == t && x.coordinator_epoch == ce));
                }
                say!(self, format!("a marker for {} from coordinator epoch {} is refused ({}): {}", m.partition, m.coordinator_epoch, d.rule(), d.why(&m.partition)));
            }
        }
    }

    /// Hold the marker for `partition` in the network.
    pub fn delay_marker(&mut self, partition: &str) -> Result<(), String> {
        let m = self.markers.iter_mut().find(|m| m.partition == partition && !m.held).ok_or("no marker is queued for that partition")?;
        m.held = true;
        say!(self, format!("the marker for {partition} is held up in the network"));
        Ok(())
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

    /// Time passes; the coordinator's timeout scan aborts expired transactions (T1–T2), and
    /// its transactional.id expiry scans that fall in the time passed run (T4).
    pub fn advance(&mut self, ms: i64) {
        let target = self.idem.cluster.now_ms + ms;
        msg!(self, COORD_LANE, COORD_LANE, "timeout", format!("{} ms pass", ms));
        // A client's held request times out on the way (request.timeout.ms): the periodic tasks
        // due before it run first, then the client's retry, then the rest of the time.
        while let Some(d) = self.held_requests.iter().filter(|h| !h.timed_out).map(|h| h.since_ms + inject::REQUEST_TIMEOUT_MS).filter(|d| *d <= target).min() {
            self.idem.cluster.now_ms = self.idem.cluster.now_ms.max(d);
            self.run_periodic();
            self.held_request_timeouts();
        }
        self.idem.cluster.now_ms = self.idem.cluster.now_ms.max(target);
        self.run_periodic();
    }

    /// The periodic tasks due by the world's clock: the coordinator's scans (T1–T2, T4), the
    /// leaders' ISR checks (S3) and producer-state expiry (X1).
    fn run_periodic(&mut self) {
        self.coordinator_timeouts();
        self.check_isr();
        self.expire_producers();
    }

    /// The coordinator's periodic tasks at the world's clock: its "transaction-abort" scans, every
    /// `transaction.abort.timed.out.transaction.cleanup.interval.ms` from its start, abort the
    /// transactions open longer than their transaction.timeout.ms (T1–T2), each at the first scan
    /// after its deadline (`TransactionStateManager.timedOutTransactions`: start + timeout < the
    /// scan's time), with that scan's time in the records it writes; its
    /// "transactionalId-expiration" scans remove idle transactional.ids (T4).
    pub fn coordinator_timeouts(&mut self) {
        let iv = self.cluster.abort_timed_out_interval_ms.max(1);
        let (start, now) = (self.start_ms, self.idem.cluster.now_ms);
        let done = self.abort_scans_done.max(start);
        // The first scan (start + k·interval, k ≥ 1) strictly after `t`.
        let scan_after = |t: i64| start.saturating_add(t.saturating_sub(start).div_euclid(iv).saturating_add(1).max(1).saturating_mul(iv));
        let mut due: Vec<(i64, i32, String)> = self
            .coordinator
            .txns
            .iter()
            .filter(|m| m.state == TxnState::Ongoing && m.pending_state.is_none())
            .map(|m| (scan_after(m.txn_start_ms.saturating_add(m.txn_timeout_ms as i64).max(done)), Self::coordinator_partition(m.transactional_id.as_str()), String::from(m.transactional_id.as_str())))
            .filter(|(at, _, _)| *at <= now)
            .collect();
        self.abort_scans_done = now;
        due.sort();
        for (at, _, id) in due {
            self.idem.cluster.now_ms = at;
            self.abort_timed_out(&id);
            self.idem.cluster.now_ms = now;
        }
        self.expire_transactional_ids();
    }

    /// T1–T2 for one transactional.id, at the world's clock: an Ongoing transaction past its
    /// timeout is aborted by the coordinator, which bumps the epoch (fencing its producer) and
    /// queues the ABORT markers.
    fn abort_timed_out(&mut self, id: &str) -> bool {
        let Some(a) = self.coordinator.abort_timed_out(id, self.idem.cluster.now_ms) else { return false };
        let r = self.write_txn_log(id);
        let k = msg_rule!(self, COORD_LANE, COORD_LANE, "append", format!("__transaction_state: PrepareAbort for {id}: {}", a.why(id, &[])), a.rule, a.source, ErrorCode::NONE);
        self.link(k, r);
        self.fence_instances(id, None);
        // A transaction given by `txn-state` has no instance yet: its markers need one.
        let t = match self.open_txn.get(id).copied() {
            Some(t) => Some(t),
            None => self.coordinator.get(id).filter(|m| !m.partitions.is_empty()).map(|m| (m.producer_id, m.producer_epoch)).map(|(pid, epoch)| self.instance_for(id, pid, epoch, COORD)),
        };
        if let Some(t) = t {
            self.queue_markers(id, t, false);
        }
        say!(self, format!("transaction.timeout.ms has passed for {id}: the coordinator aborts it and bumps the epoch, fencing its producer (T1–T2)"));
        true
    }

    /// X1 on every leader (`ProducerStateManager.removeExpiredProducers`, run by LogManager's
    /// `PeriodicProducerExpirationCheck` every producer.id.expiration.check.interval.ms from the
    /// start, first after one interval): a producer with no open transaction whose last record
    /// is at least producer.id.expiration.ms old loses its entry; its next batch meets X2.
    fn expire_producers(&mut self) {
        let iv = self.cluster.producer_id_expiration_check_interval_ms.max(1);
        let (start, now) = (self.start_ms, self.idem.cluster.now_ms);
        let mut t = start + ((self.producer_checks_done.max(start) - start) / iv + 1) * iv;
        while t <= now {
            // Nothing changes between two checks: skip to the first check at which an entry is
            // due (the same checks remove the same entries as visiting every one).
            let Some(due) = self.idem.cluster.partitions.iter().chain(self.offsets_logs.values()).filter_map(Partition::next_expiry).min() else { break };
            if due > t {
                t = t.max(start + (due - start).div_euclid(iv) * iv + if (due - start).rem_euclid(iv) == 0 { 0 } else { iv });
                if t > now {
                    break;
                }
            }
            self.producer_expiry_check(t);
            t += iv;
        }
        self.producer_checks_done = now;
    }

    /// X1 at time `t` on every leader (`UnifiedLog`'s "PeriodicProducerExpirationCheck").
    fn producer_expiry_check(&mut self, t: i64) {
        for pi in 0..self.idem.cluster.partitions.len() {
            let removed = self.idem.cluster.partitions[pi].remove_expired_producers(t);
            if !removed.is_empty() {
                let name = self.idem.cluster.partitions[pi].name.clone();
                let lane = self.partition_lane(&name);
                let ttl = self.idem.cluster.partitions[pi].producer_id_expiration_ms;
                msg_rule!(self, lane.clone(), lane, "expire", format!("{name}: producer state of {removed:?} expired (its last record is at least producer.id.expiration.ms = {ttl} ms old, no open transaction); a retry of its batches would be written again (X2)"), "X1", super::partition::EXPIRY_SOURCE, ErrorCode::NONE);
                say!(self, format!("{name} forgets producer(s) {removed:?}: producer.id.expiration.ms passed (X1)"));
            }
        }
        for log in self.offsets_logs.values_mut() {
            log.remove_expired_producers(t);
        }
    }

    /// Kafka's scheduler tasks a script can run at once (`run-task NAME`), by their names in
    /// Kafka's scheduler.
    pub const TASKS: [&'static str; 4] = ["transaction-abort", "transactionalId-expiration", "PeriodicProducerExpirationCheck", "isr-expiration"];

    /// `run-task NAME`: one of the periodic tasks runs now, as if the scheduler fired it; its
    /// schedule is not moved (the next periodic run comes when it would have).
    /// - `transaction-abort` (TransactionCoordinator): every transaction open longer than its
    ///   timeout is aborted (T1–T2);
    /// - `transactionalId-expiration` (TransactionStateManager): every idle transactional.id past
    ///   transactional.id.expiration.ms gets its tombstone (T4);
    /// - `PeriodicProducerExpirationCheck` (UnifiedLog): every leader forgets the producers past
    ///   producer.id.expiration.ms (X1);
    /// - `isr-expiration` (ReplicaManager): every leader drops the followers past
    ///   replica.lag.time.max.ms from its ISR (S3).
    pub fn run_task(&mut self, name: &str) -> Result<(), String> {
        let now = self.idem.cluster.now_ms;
        match name {
            "transaction-abort" => {
                let mut n = 0;
                for id in self.coordinator.timed_out(now) {
                    n += usize::from(self.abort_timed_out(&id));
                }
                say!(self, format!("the coordinator's transaction-abort task runs now: {n} transaction(s) past their timeout aborted (T1)"));
            }
            "transactionalId-expiration" => {
                let exp = self.cluster.transactional_id_expiration_ms.max(0);
                let mut due: Vec<(i64, i32, Name)> = self
                    .coordinator
                    .txns
                    .iter()
                    .filter(|m| matches!(m.state, TxnState::Empty | TxnState::CompleteCommit | TxnState::CompleteAbort) && m.pending_state.is_none() && m.last_update_ms.saturating_add(exp) <= now)
                    .map(|m| (now, Self::coordinator_partition(m.transactional_id.as_str()), m.transactional_id.clone()))
                    .collect();
                due.sort_by_key(|(_, n, _)| *n);
                say!(self, format!("the coordinator's transactionalId-expiration task runs now: {} idle transactional.id(s) expire (T4)", due.len()));
                self.remove_expired_ids(&due);
            }
            "PeriodicProducerExpirationCheck" => {
                say!(self, String::from("every leader's PeriodicProducerExpirationCheck runs now (X1)"));
                self.producer_expiry_check(now);
            }
            "isr-expiration" => {
                say!(self, String::from("every leader's isr-expiration task runs now (S3)"));
                self.expire_held(now);
                self.isr_check(now);
            }
            _ => return Err(format!("unknown task {name:?}: {}", Self::TASKS.join(", "))),
        }
        Ok(())
    }

    /// T4, transactional.id expiry (`TransactionStateManager.removeExpiredTransactionalIds`,
    /// scheduled every transaction.remove.expired.transaction.cleanup.interval.ms from the
    /// coordinator's start, first after one interval): a transactional.id whose state allows
    /// expiration (Empty, CompleteCommit, CompleteAbort), with no transition pending and
    /// `txnLastUpdateTimestamp <= scan time - transactional.id.expiration.ms`, gets a tombstone
    /// (its key, a null value, the scan's timestamp; one uncompressed batch per
    /// `__transaction_state` partition and scan) and its metadata is removed (`prepareDead`):
    /// the next InitProducerId starts it afresh with a new producer id, and a producer still
    /// holding the old one is answered INVALID_PRODUCER_ID_MAPPING (AP2, E0/F0). The scans
    /// that fall between the previous `advance` and now run here, each at its own time.
    fn expire_transactional_ids(&mut self) {
        let iv = self.cluster.transactional_id_expiration_interval_ms.max(1);
        let exp = self.cluster.transactional_id_expiration_ms.max(0);
        let (start, now) = (self.start_ms, self.idem.cluster.now_ms);
        // The first scan (start + k·interval, k ≥ 1) at or after `t`.
        let scan_at = |t: i64| start.saturating_add(t.saturating_sub(start).saturating_add(iv - 1).div_euclid(iv).max(1).saturating_mul(iv));
        // The scans up to `expiry_scans_done` ran already (in an earlier advance).
        let scans_from = self.expiry_scans_done.max(start);
        let mut due: Vec<(i64, i32, Name)> = self
            .coordinator
            .txns
            .iter()
            .filter(|m| matches!(m.state, TxnState::Empty | TxnState::CompleteCommit | TxnState::CompleteAbort) && m.pending_state.is_none())
            .map(|m| (scan_at(m.last_update_ms.saturating_add(exp).max(scans_from.saturating_add(1))), Self::coordinator_partition(m.transactional_id.as_str()), m.transactional_id.clone()))
            .filter(|(at, _, _)| *at <= now)
            .collect();
        self.expiry_scans_done = now;
        if due.is_empty() {
            return;
        }
        due.sort_by_key(|(at, n, _)| (*at, *n));
        self.remove_expired_ids(&due);
    }

    /// T4's scans as given: (scan time, `__transaction_state` partition, id), in scan and
    /// partition order: one tombstone batch per scan and partition, the metadata removed.
    fn remove_expired_ids(&mut self, due: &[(i64, i32, Name)]) {
        let exp = self.cluster.transactional_id_expiration_ms.max(0);
        let start = self.start_ms;
        let mut i = 0;
        while i < due.len() {
            let (at, n) = (due[i].0, due[i].1);
            let j = i + due[i..].iter().take_while(|d| d.0 == at && d.1 == n).count();
            let keys: Vec<Vec<u8>> = due[i..j].iter().map(|d| crate::internal::txn_log_key(d.2.as_str())).collect();
            let recs: Vec<KeyValue<'_>> = keys.iter().map(|k| (Some(k.as_slice()), None)).collect();
            let bytes = raw_batch(-1, -1, -1, false, &recs, at);
            let log = self.txn_logs.entry(n).or_insert_with(|| Partition::new(format!("__transaction_state-{n}")));
            let appended = log.append_client_verdict(&bytes).outcome();
            let stored = matches!(appended, Outcome::Appended { .. }).then(|| as_stored(bytes, log));
            let base_offset = match appended {
                Outcome::Appended { base_offset, .. } => base_offset,
                _ => -1,
            };
            let partition = self.txn_log_name(n);
            let mut said = Vec::with_capacity(j - i);
            let mut first: Option<(i64, i16)> = None;
            let mut ids = Vec::with_capacity(j - i);
            for d in &due[i..j] {
                let id = d.2.clone();
                let Some(ci) = self.coordinator.index(id.as_str()) else { continue };
                let m = self.coordinator.txns.remove(ci);
                first.get_or_insert((m.producer_id, m.producer_epoch));
                let k = msg_rule!(self, COORD_LANE, COORD_LANE, "append", format!(
                    "transactional.id expiry at t={}: {id} ({}, producer {} epoch {}, last updated at t={}) has been idle for transactional.id.expiration.ms ({exp} ms): tombstone in __transaction_state, metadata removed",
                    at - start, m.state.name(), m.producer_id, m.producer_epoch, m.last_update_ms - start), "T4", TRANSACTION_STATE_MANAGER, ErrorCode::NONE);
                said.push(k);
                say!(self, format!("{id} expired: it was idle (state {}) for transactional.id.expiration.ms; its next initTransactions() gets a new producer id (T4)", m.state.name()));
                ids.push(id);
            }
            if let (Some(bytes), Some((pid, epoch))) = (stored, first) {
                self.metric(Metric::TxnStateLogAppends, 1);
                let text = if self.trace { format!("{}: tombstone (expired)", ids.iter().map(|x| x.as_str()).collect::<Vec<_>>().join(", ")) } else { String::new() };
                let r = self.push_record(LogRecord {
                    lane: Name::fixed(COORD),
                    partition,
                    offset: base_offset,
                    last_offset: base_offset + (j - i) as i64 - 1,
                    kind: "txn-log",
                    pid,
                    epoch,
                    transactional: false,
                    values: Values::one(None),
                    text: text.into(),
                    step: self.step,
                    closed_at: None,
                    outcome: None,
                    bytes,
                    txn: None,
                    truncated_at: None,
                });
                for k in said {
                    self.link(k, Some(r));
                }
            }
            i = j;
        }
    }

    /// The `__transaction_state` leader moves: a new coordinator epoch; Prepare* transactions
    /// have their markers re-sent with it (K6); queued markers of the old epoch are dropped,
    /// held ones may still arrive (and are fenced, M3).
    pub fn failover(&mut self) {
        self.coordinator_epoch += 1;
        let ep = self.coordinator_epoch;
        let line = self.cluster.kafka;
        // The producers connect to the new coordinator's broker: its ApiVersions answer tells
        // them the finalized transaction.version (they switch protocol between transactions).
        for c in self.clients.iter_mut() {
            c.features_tv = self.cluster.transaction_version;
        }
        self.markers.retain(|m| m.held);
        msg_rule!(self, COORD_LANE, COORD_LANE, "failover", format!("a new broker leads __transaction_state: coordinator epoch {ep}; it loads the log"), "K6", TRANSACTION_STATE_MANAGER, ErrorCode::NONE);
        let ids: Vec<Name> = self.coordinator.txns.iter().filter(|m| matches!(m.state, TxnState::PrepareCommit | TxnState::PrepareAbort)).map(|m| m.transactional_id.clone()).collect();
        for id in &ids {
            let commit = self.coordinator.get(id).is_some_and(|m| m.state == TxnState::PrepareCommit);
            if let Some(t) = self.open_txn.get(id.as_str()).copied() {
                // K6: the new coordinator loads the Prepare* record, whose partitions are all of
                // the transaction's (`TransactionStateManager.loadTransactionsForTxnTopicPartition`
                // → `TransactionMarkerChannelManager.addTxnMarkersToSend` with
                // `txnMetadata.topicPartitions`), and re-sends the marker to every one of them,
                // including partitions the old coordinator's marker already reached: the leader
                // decides on the duplicate (M1, or M2's retried-marker exception for TV2).
                let Some(m) = self.coordinator.get(id).cloned() else { continue };
                // The markers carry the transaction's own clientTransactionVersion, loaded
                // with it from its record (ClientTransactionVersion), not the cluster's level.
                let version = line.marker_version(m.client_tv >= 2);
                for p in m.partitions.iter() {
                    self.markers.push(MarkerReq { transactional_id: id.clone(), txn: t, pid: m.producer_id, epoch: m.producer_epoch, commit, coordinator_epoch: ep, partition: p.clone(), version, held: false });
                }
                if m.partitions.is_empty() {
                    self.complete_txn(id, t);
                }
            }
        }
        self.retry_pending();
        say!(self, format!(
            "coordinator failover: the new coordinator (epoch {ep}) finds {} and re-sends their markers with coordinator epoch {ep} (K6)",
            if ids.is_empty() { String::from("no transaction mid-commit") } else { ids.join(", ") + " in a Prepare state" }
        ));
    }

    /// A consumer polls every assigned partition (L4, R1–R5). Rejoining the group takes the
    /// current generation.
    pub fn poll(&mut self, name: &str) -> Result<usize, String> {
        let ci = self.consumers.iter().position(|c| c.name == name).ok_or_else(|| format!("no consumer named {name:?}"))?;
        if let Some(g) = self.consumers[ci].group.as_deref() {
            if let Some(gr) = self.groups.iter().find(|x| x.name == g) {
                self.consumers[ci].generation = gr.generation;
            }
        }
        let iso = self.consumers[ci].isolation;
        let effective = match (iso, self.sabotage) {
            (Isolation::ReadCommitted, Some(Sabotage::ReadCommittedSeesAborted)) => Isolation::ReadUncommitted,
            _ => iso,
        };
        let mut total = 0;
        let mut got = core::mem::take(&mut self.fetched);
        for pk in 0..self.consumers[ci].partitions.len() {
            let p = self.consumers[ci].partitions[pk].as_str();
            let Some(pi) = self.idem.cluster.partitions.iter().position(|x| x.name == p) else { continue };
            let from = *self.consumers[ci].positions.get(p).unwrap_or(&0);
            // The records the fetch returns, read from the stored bytes.
            got.clear();
            // A value equal to the one the model wrote at that offset shares its name (no copy).
            let (records, index) = (&self.records, self.data_index.get(p));
            let written = |offset: i64, v: &[u8]| -> Option<Name> {
                let index = index?;
                let k = index[index.partition_point(|&(o, _)| o <= offset).checked_sub(1)?].1;
                let name = records[k].values.get(usize::try_from(offset - records[k].offset).ok()?)?.as_ref()?;
                (name.as_bytes() == v).then(|| name.clone())
            };
            self.idem.cluster.partitions[pi].fetch_each(effective, from, |offset, _, _, value| {
                got.push((offset, value.map(|v| written(offset, v).unwrap_or_else(|| Name::from(String::from_utf8_lossy(v).into_owned())))))
            });
            // The bounds the fetch read to (a fetch changes neither), computed once.
            let (hw, lso) = (self.idem.cluster.partitions[pi].high_watermark(), self.idem.cluster.partitions[pi].last_stable_offset());
            let upper = match effective {
                Isolation::ReadCommitted => lso,
                Isolation::ReadUncommitted => hw,
            };
            let count = got.len();
            let iso_name = if iso == Isolation::ReadCommitted { "read_committed" } else { "read_uncommitted" };
            msg_rule!(self,
                self.consumer_lane(name),
                self.partition_lane(&self.consumers[ci].partitions[pk]),
                "Fetch",
                format!("Fetch({} from {from}, {iso_name}) → {count} record(s) below {} {upper}", self.consumers[ci].partitions[pk], if iso == Isolation::ReadCommitted { "LSO" } else { "HW" }),
                if iso == Isolation::ReadCommitted { "R1" } else { "R4" },
                COMPLETED_FETCH,
                ErrorCode::NONE,
            );
            let (partition, consumer) = (self.partition_names(pi).0, self.consumer_lane_at(ci));
            for (offset, value) in got.drain(..) {
                let p = self.consumers[ci].partitions[pk].as_str();
                let record = self
                    .data_index
                    .get(p)
                    .and_then(|index| index.partition_point(|&(o, _)| o <= offset).checked_sub(1).map(|at| index[at].1))
                    .filter(|&k| self.records[k].last_offset >= offset);
                if iso == Isolation::ReadCommitted && self.read_committed_break.is_none() {
                    // Invariant 1, checked as each record is handed to the application.
                    if let Some(rec) = record.map(|k| &self.records[k]) {
                        if rec.transactional && !(rec.outcome == Some("committed") && rec.closed_at.is_some_and(|s| s <= self.step)) {
                            self.read_committed_break = Some(format!(
                                "{name} got {p}@{offset} from a transaction that {}",
                                if rec.outcome == Some("aborted") { "aborted" } else { "was open" }
                            ));
                        }
                    }
                }
                self.deliveries.push(Delivery { consumer: consumer.clone(), partition: partition.clone(), offset, value: value.clone(), step: self.step, record });
                self.consumers[ci].received.push((partition.clone(), offset, value));
            }
            total += count;
            if upper > from {
                let Consumer { positions, partitions, .. } = &mut self.consumers[ci];
                set_position(positions, &partitions[pk], upper);
            }
            if iso == Isolation::ReadCommitted && lso < hw {
                say!(self, format!(
                    "{name} (read_committed) stops at the LSO {lso} of {}: an open transaction starts there, and everything behind it waits, committed or not (head-of-line blocking, L2)",
                    self.consumers[ci].partitions[pk]
                ));
            }
        }
        self.fetched = got;
        Ok(total)
    }

    /// The group rebalances: a new generation (KIP-447 fencing of the old one).
    pub fn rebalance(&mut self, group: &str) -> Result<(), String> {
        let g = self.groups.iter_mut().find(|g| g.name == group).ok_or_else(|| format!("no group named {group:?}"))?;
        g.generation += 1;
        let gen = g.generation;
        msg!(self, OFFSETS_LANE, OFFSETS_LANE, "rebalance", format!("{group} rebalances: generation {gen}"));
        say!(self, format!("{group} rebalances to generation {gen}: a transactional offset commit carrying an older generation will be refused (KIP-447)"));
        Ok(())
    }

    /// The application seeks the consumer to its group's committed offsets (0 where none):
    /// after an abort the consumer's position is not rewound by Kafka, so without this the
    /// aborted input would be skipped, not re-processed.
    pub fn seek_committed(&mut self, consumer: &str) -> Result<(), String> {
        let ci = self.consumers.iter().position(|c| c.name == consumer).ok_or_else(|| format!("no consumer named {consumer:?}"))?;
        let group = self.consumers[ci].group.clone().ok_or("the consumer has no group")?;
        let committed = self.groups.iter().find(|g| g.name == group).map(|g| g.committed.clone()).unwrap_or_default();
        for p in self.consumers[ci].partitions.clone() {
            let to = committed.get(&p).copied().unwrap_or(0);
            let from = self.consumers[ci].positions.insert(p.clone(), to).unwrap_or(0);
            msg!(self, self.consumer_lane(consumer), self.consumer_lane(consumer), "seek", format!("seek({p}) from {from} to the committed offset {to}"));
        }
        say!(self, format!("{consumer} seeks back to {group}'s committed offsets, so the input of the aborted transaction is read again"));
        Ok(())
    }

    /// OffsetFetch with requireStable (read_committed consumers, G5).
    pub fn offset_fetch(&mut self, consumer: &str) -> Result<Vec<(String, OffsetFetch)>, String> {
        let ci = self.consumers.iter().position(|c| c.name == consumer).ok_or_else(|| format!("no consumer named {consumer:?}"))?;
        let group = self.consumers[ci].group.clone().ok_or("the consumer has no group")?;
        let g = self.groups.iter().find(|g| g.name == group).cloned().ok_or("no group")?;
        let mut out = Vec::new();
        for p in self.consumers[ci].partitions.clone() {
            let r = g.fetch_offset(&p, true);
            let text = match &r {
                Err(e) => format!("OffsetFetch({group}, {p}, requireStable) → {e}: a transactional commit of this partition's offset is pending (retriable)"),
                Ok(o) => format!("OffsetFetch({group}, {p}, requireStable) → {}", o.map_or(String::from("none"), |o| o.to_string())),
            };
            let e = r.err().unwrap_or(ErrorCode::NONE);
            msg_rule!(self, self.consumer_lane(consumer), OFFSETS_LANE, "OffsetFetch", text, "G5", OFFSET_METADATA_MANAGER, e);
            out.push((p, r));
        }
        Ok(out)
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
