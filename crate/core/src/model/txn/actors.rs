//! The parties the transactions world holds: transactional clients, consumer groups and
//! consumers, queued markers and the transactions themselves.

use super::*;

/// The client's `TransactionManager.State` (`TransactionManager.java`).
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
/// timed-out commit/abort the application calls again).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PendingOp {
    Init,
    Commit,
    Abort,
}

impl PendingOp {
    pub(super) fn method(self) -> &'static str {
        match self {
            PendingOp::Init => "initTransactions",
            PendingOp::Commit => "commitTransaction",
            PendingOp::Abort => "abortTransaction",
        }
    }
}

/// `commit P lose-response`: the EndTxn's answer is lost when the coordinator accepted it or
/// asked for a retry (an error answer still comes back).
pub(super) fn end_answer_lost(lose_response: bool, a: &Answer) -> bool {
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
