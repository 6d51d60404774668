//! Settings of the simulated cluster, Kafka's defaults, and what a leader may answer by request version.

use super::*;
use crate::model::partition;

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
            replica_lag_time_max_ms: partition::REPLICA_LAG_TIME_MAX_MS_DEFAULT,
            unclean_leader_election: false,
            transaction_max_timeout_ms: None,
            producer_id_expiration_ms: partition::DEFAULT_PRODUCER_ID_EXPIRATION_MS,
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
