//! The transaction coordinator's decisions for one `transactional.id` (`core/.../coordinator/
//! transaction/TransactionCoordinator.scala`, `TransactionMetadata.java`,
//! `TransactionState.java`; KIP-98, KIP-360, KIP-890), as rules I1–I11, AP1–AP8, E0–E7
//! and F0–F8 of the rule catalogue, for Kafka 4.3. Sans-IO: time is an argument, new
//! producer ids come from the caller, and each transition returns the record the
//! coordinator appends to `__transaction_state`.
//!
//! Markers, the partitions' side and the client are separate; this module is the state
//! machine the transactions timeline builds on.

use alloc::collections::BTreeSet;
use alloc::string::String;
use alloc::vec::Vec;
use core::fmt::{self, Write};

use super::errors::ErrorCode;
use crate::internal::txn_state;
use super::name::{empty_set, Name};
use super::kafka_source::{TRANSACTION_COORDINATOR, TRANSACTION_METADATA};

/// `transaction.max.timeout.ms` default.
pub const TRANSACTION_MAX_TIMEOUT_MS: i32 = 900_000;
/// `TransactionMetadata.isEpochExhausted`: epoch ≥ Short.MAX − 1.
pub const EPOCH_EXHAUSTED: i16 = i16::MAX - 1;
/// `transaction.state.log.num.partitions` default.
pub const TRANSACTION_STATE_PARTITIONS: i32 = 50;

// The coordinator's answers (declared in `errors::ERROR_CODES`).
pub const CONCURRENT_TRANSACTIONS: ErrorCode = ErrorCode::CONCURRENT_TRANSACTIONS;
pub const INVALID_PRODUCER_ID_MAPPING: ErrorCode = ErrorCode::INVALID_PRODUCER_ID_MAPPING;
pub const INVALID_TRANSACTION_TIMEOUT: ErrorCode = ErrorCode::INVALID_TRANSACTION_TIMEOUT;
pub const INVALID_REQUEST: ErrorCode = ErrorCode::INVALID_REQUEST;

/// Java's `String.hashCode` over UTF-16 code units.
pub fn java_string_hash(s: &str) -> i32 {
    s.encode_utf16().fold(0i32, |h, u| h.wrapping_mul(31).wrapping_add(u as i32))
}

/// `Utils.abs`: 0 for i32::MIN (not `& 0x7fffffff`).
pub fn kafka_abs(n: i32) -> i32 {
    if n == i32::MIN {
        0
    } else {
        n.abs()
    }
}

/// The `__transaction_state` partition that owns a transactional.id (`partitionFor`).
pub fn partition_for(transactional_id: &str, partitions: i32) -> i32 {
    kafka_abs(java_string_hash(transactional_id)) % partitions
}

/// `TransactionState`, its ids and Kafka's names declared once, in
/// [`crate::internal::txn_state`] (the `__transaction_state` schema's table).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
#[repr(i8)]
pub enum TxnState {
    Empty = txn_state::EMPTY,
    Ongoing = txn_state::ONGOING,
    PrepareCommit = txn_state::PREPARE_COMMIT,
    PrepareAbort = txn_state::PREPARE_ABORT,
    CompleteCommit = txn_state::COMPLETE_COMMIT,
    CompleteAbort = txn_state::COMPLETE_ABORT,
    Dead = txn_state::DEAD,
    PrepareEpochFence = txn_state::PREPARE_EPOCH_FENCE,
}

impl TxnState {
    /// The state's id in `__transaction_state` records (`TransactionState.id`).
    pub fn id(self) -> i8 {
        self as i8
    }

    /// Kafka's name ("Empty", "PrepareCommit" …).
    pub fn name(self) -> &'static str {
        txn_state::name(self.id()).expect("every TxnState has a TransactionState id")
    }

    /// `TransactionState.validPreviousStates`.
    pub fn valid_previous(self) -> &'static [TxnState] {
        use TxnState::*;
        match self {
            Empty => &[Empty, CompleteCommit, CompleteAbort],
            Ongoing => &[Ongoing, Empty, CompleteCommit, CompleteAbort],
            PrepareCommit => &[Ongoing],
            PrepareAbort => &[Ongoing, PrepareEpochFence, Empty, CompleteCommit, CompleteAbort],
            CompleteCommit => &[PrepareCommit],
            CompleteAbort => &[PrepareAbort],
            Dead => &[Empty, CompleteAbort, CompleteCommit],
            PrepareEpochFence => &[Ongoing],
        }
    }

    fn is_complete_or_empty(self) -> bool {
        matches!(self, TxnState::Empty | TxnState::CompleteCommit | TxnState::CompleteAbort)
    }
}

/// The client protocol a request uses (`TransactionVersion`; EndTxn v5+ / AddPartitions v4+ ⇒ TV2).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tv {
    Tv1,
    Tv2,
}

/// `TransactionMetadata`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TxnMetadata {
    pub transactional_id: Name,
    pub producer_id: i64,
    pub prev_producer_id: i64,
    pub next_producer_id: i64,
    pub producer_epoch: i16,
    pub last_producer_epoch: i16,
    pub txn_timeout_ms: i32,
    pub state: TxnState,
    /// At most one in-flight transition; while Prepare* it is Complete*.
    pub pending_state: Option<TxnState>,
    pub partitions: BTreeSet<Name>,
    pub txn_start_ms: i64,
    pub last_update_ms: i64,
    /// The producer id before the last transition: what Kafka's `prepareTransitionTo` puts in
    /// `TxnTransitMetadata.prevProducerId` (`this.producerId`), written to
    /// `__transaction_state` as PreviousProducerId (a fresh transactional.id's first record
    /// has its own id there; a real 4.3.1 broker's: tests/fixtures/kafka-4.3.1/__transaction_state-23).
    pub transit_prev_pid: i64,
    /// `clientTransactionVersion`: 2 after an AddPartitionsToTxn v4+ or EndTxn v5+ (a TV2
    /// client, or a leader or group coordinator adding for it), 0 after the older versions
    /// (`TransactionVersion.transactionVersionForAddPartitionsToTxn` / `…ForEndTxn`); an
    /// InitProducerId, a timeout abort and a completion keep it. Written as
    /// ClientTransactionVersion when not 0.
    pub client_tv: u8,
    /// `partitions` in the order they were added: Kafka keeps them in a `HashSet`, whose
    /// iteration order (bucket, then insertion within a bucket) is the order
    /// `TransactionLog.valueToBytes` writes them in (see `txn::java_partition_groups`).
    pub added_order: Vec<Name>,
}

impl TxnMetadata {
    /// Fence the producer of an ongoing transaction and abort it (I11 on InitProducerId, T2 on
    /// a timeout): bump the epoch, forget the last one, Ongoing → PrepareAbort with
    /// CompleteAbort pending (`prepareFenceProducerEpoch`, then `prepareAbortOrCommit`).
    fn fence_and_prepare_abort(&mut self, now_ms: i64) {
        self.transit_prev_pid = self.producer_id;
        self.producer_epoch = self.producer_epoch.saturating_add(1);
        self.last_producer_epoch = -1;
        self.state = TxnState::PrepareAbort;
        self.pending_state = Some(TxnState::CompleteAbort);
        self.last_update_ms = now_ms;
    }
}

/// A coordinator answer: the error (NONE on success), the (pid, epoch) returned, the rule
/// that decided, why, and whether a new state was appended to `__transaction_state`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Answer {
    pub error: ErrorCode,
    pub producer_id: i64,
    pub producer_epoch: i16,
    pub rule: &'static str,
    /// Why, as data: the sentence is rendered only when someone reads it ([`Answer::why`]).
    pub why: Why,
    pub source: &'static str,
    /// The state written to `__transaction_state` by this request, if any.
    pub wrote: Option<TxnState>,
}

impl Answer {
    /// The sentence for the request about `id` (with the partitions it added, for AP8).
    pub fn why(&self, id: &str, parts: &[&str]) -> String {
        let mut s = String::new();
        let _ = self.why.write(&mut s, id, parts);
        s
    }
}

/// Why the coordinator answered as it did, kept as data (the numbers the sentence needs; the
/// transactional.id and the partitions are supplied when rendering, [`Why::write`]). A
/// long run formats no sentence per request.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Why {
    /// A sentence without numbers.
    Fixed(&'static str),
    /// I3.
    BadTimeout { timeout_ms: i32, max_ms: i32 },
    /// I6.
    InProgress,
    /// I7.
    NotCurrentProducer { pid: i64, current: i64 },
    /// I11.
    FenceOpen { epoch: i16 },
    /// I10, refused.
    NeitherEpoch { epoch: i16 },
    /// I9/I10.
    Initialized { pid: i64, epoch: i16 },
    /// AP2, E0, F0.
    NoState,
    /// AP4, E0, F1.
    NotOwner { pid: i64 },
    /// AP5.
    NotCurrentEpoch { epoch: i16, current: i16 },
    /// AP8.
    Added,
    /// E1.
    EpochNe { epoch: i16, current: i16 },
    /// E3.
    Prepared { commit: bool, state: TxnState },
    /// E4/E5, a retry.
    Already { state: TxnState },
    /// E4/E5, the other outcome.
    EndedAs { commit: bool, state: TxnState },
    /// E7.
    NoTxn { commit: bool, state: TxnState },
    /// F2.
    EpochMismatch { epoch: i16, current: i16 },
    /// F4.
    PreparedBumped { commit: bool, state: TxnState, epoch: i16 },
    /// F5, a retry.
    RetryCompleted { commit: bool },
    /// F5, refused.
    InState { commit: bool, state: TxnState },
    /// F5 on trunk (KAFKA-20785).
    CommitAfterAbort,
    /// T2.
    TimedOut { epoch: i16 },
}

impl Why {
    /// Write the sentence for the request about `id` (`parts`: the partitions it added).
    pub fn write(&self, out: &mut impl Write, id: &str, parts: &[&str]) -> fmt::Result {
        let result = |commit: bool| if commit { "COMMIT" } else { "ABORT" };
        match *self {
            Why::Fixed(s) => out.write_str(s),
            Why::BadTimeout { timeout_ms, max_ms } => {
                write!(out, "transaction.timeout.ms {timeout_ms} is not in 1..{max_ms} (transaction.max.timeout.ms)")
            }
            Why::InProgress => write!(out, "a transition of {id} is still in progress: retry"),
            Why::NotCurrentProducer { pid, current } => write!(out, "producer {pid} is not the current producer {current} of {id}"),
            Why::FenceOpen { epoch } => write!(
                out,
                "{id} has an open transaction: the coordinator fences the old producer by bumping the epoch to {epoch} and aborts that transaction; the new producer retries"
            ),
            Why::NeitherEpoch { epoch } => write!(out, "epoch {epoch} is neither the current nor the last epoch of {id}"),
            Why::Initialized { pid, epoch } => write!(out, "{id} → producer {pid} epoch {epoch}; any older instance is now fenced"),
            Why::NoState => write!(out, "no transaction state for {id}"),
            Why::NotOwner { pid } => write!(out, "producer {pid} does not own {id}"),
            Why::NotCurrentEpoch { epoch, current } => {
                write!(out, "epoch {epoch} is not the current epoch {current} of {id}: this producer has been fenced")
            }
            Why::Added => {
                for (k, p) in parts.iter().enumerate() {
                    if k > 0 {
                        out.write_str(", ")?;
                    }
                    out.write_str(p)?;
                }
                write!(out, " added; {id} is Ongoing")
            }
            Why::EpochNe { epoch, current } => write!(out, "epoch {epoch} ≠ current epoch {current}: fenced"),
            Why::Prepared { commit, state } => {
                write!(out, "{}: {} written to __transaction_state; the producer is answered now, markers follow", result(commit), state.name())
            }
            Why::Already { state } => write!(out, "already {}: a retry", state.name()),
            Why::EndedAs { commit, state } => write!(out, "{} after the transaction ended as {}", result(commit), state.name()),
            Why::NoTxn { commit, state } => write!(out, "{} with no transaction in progress ({})", result(commit), state.name()),
            Why::EpochMismatch { epoch, current } => write!(out, "epoch {epoch} does not match {current}: fenced"),
            Why::PreparedBumped { commit, state, epoch } => {
                write!(out, "{}: {} at the bumped epoch {epoch}; markers carry it", result(commit), state.name())
            }
            Why::RetryCompleted { commit } => write!(out, "a retry of the {} that already completed", result(commit)),
            Why::InState { commit, state } => write!(out, "{} in state {}", result(commit), state.name()),
            Why::CommitAfterAbort => out.write_str(
                "COMMIT at the retry epoch in state CompleteAbort: a commit that raced the coordinator's own abort (its timeout bumped the epoch) — PRODUCER_FENCED on Kafka trunk (KAFKA-20785), INVALID_TXN_STATE up to 4.3",
            ),
            Why::TimedOut { epoch } => {
                write!(out, "transaction.timeout.ms passed: the coordinator aborts {id} at epoch {epoch}, fencing the producer")
            }
        }
    }
}

fn answer(error: ErrorCode, rule: &'static str, why: Why) -> Answer {
    Answer { error, producer_id: -1, producer_epoch: -1, rule, why, source: TRANSACTION_COORDINATOR, wrote: None }
}

/// The coordinator's view of every transactional.id it owns.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Coordinator {
    pub txns: Vec<TxnMetadata>,
    /// The Kafka line whose coordinator answers (`cluster kafka=`, [`super::line`]).
    pub line: super::line::KafkaLine,
    /// Broker `transaction.max.timeout.ms` (`None`: Kafka's default, 15 minutes).
    pub max_timeout_ms: Option<i32>,
}

impl Coordinator {
    pub fn get(&self, id: &str) -> Option<&TxnMetadata> {
        self.txns.iter().find(|t| t.transactional_id == id)
    }

    /// Where `id`'s metadata is in [`Coordinator::txns`].
    pub fn index(&self, id: &str) -> Option<usize> {
        self.txns.iter().position(|t| t.transactional_id == id)
    }

    fn get_mut(&mut self, id: &str) -> Option<&mut TxnMetadata> {
        self.txns.iter_mut().find(|t| t.transactional_id == id)
    }

    /// InitProducerId for a transactional.id (I2–I11). `new_pid` is used when a fresh
    /// producer id is needed; `current` is the (pid, epoch) a KIP-360 client sends.
    pub fn init_producer_id(
        &mut self,
        id: &str,
        timeout_ms: i32,
        current: Option<(i64, i16)>,
        new_pid: i64,
        now_ms: i64,
    ) -> Answer {
        if id.is_empty() {
            return answer(INVALID_REQUEST, "I2", Why::Fixed("an empty transactional.id is an invalid request"));
        }
        let max_ms = self.max_timeout_ms.unwrap_or(TRANSACTION_MAX_TIMEOUT_MS);
        if timeout_ms <= 0 || timeout_ms > max_ms {
            return answer(INVALID_TRANSACTION_TIMEOUT, "I3", Why::BadTimeout { timeout_ms, max_ms });
        }
        if self.get(id).is_none() {
            // I5
            self.txns.push(TxnMetadata {
                transactional_id: id.into(),
                producer_id: new_pid,
                prev_producer_id: -1,
                next_producer_id: -1,
                producer_epoch: -1,
                last_producer_epoch: -1,
                txn_timeout_ms: timeout_ms,
                state: TxnState::Empty,
                pending_state: None,
                partitions: BTreeSet::new(),
                txn_start_ms: -1,
                last_update_ms: now_ms,
                transit_prev_pid: new_pid,
                client_tv: 0,
                added_order: Vec::new(),
            });
        }
        let m = self.get_mut(id).expect("just ensured");
        if m.pending_state.is_some() {
            return answer(CONCURRENT_TRANSACTIONS, "I6", Why::InProgress);
        }
        if let Some((pid, epoch)) = current {
            let ok = m.producer_epoch == -1 || pid == m.producer_id || (pid == m.prev_producer_id && epoch >= EPOCH_EXHAUSTED);
            if !ok {
                return answer(ErrorCode::PRODUCER_FENCED, "I7", Why::NotCurrentProducer { pid, current: m.producer_id });
            }
        }
        match m.state {
            TxnState::PrepareCommit | TxnState::PrepareAbort => {
                answer(CONCURRENT_TRANSACTIONS, "I8", Why::Fixed("the previous transaction is completing: retry"))
            }
            TxnState::Ongoing => {
                // I11: fence the old producer: bump the epoch and abort its transaction.
                m.fence_and_prepare_abort(now_ms);
                let mut a = answer(CONCURRENT_TRANSACTIONS, "I11", Why::FenceOpen { epoch: m.producer_epoch });
                a.wrote = Some(TxnState::PrepareAbort);
                a
            }
            s if s.is_complete_or_empty() => {
                let given = current.map(|c| c.1);
                let rotate = m.producer_epoch >= EPOCH_EXHAUSTED && (given.is_none() || given == Some(m.producer_epoch));
                let before = m.producer_id;
                if rotate {
                    // I9: rotate to a new producer id.
                    m.last_producer_epoch = if given.is_some() { m.producer_epoch } else { -1 };
                    m.prev_producer_id = m.producer_id;
                    m.producer_id = new_pid;
                    m.producer_epoch = 0;
                } else {
                    // I10
                    match given {
                        None => {
                            m.producer_epoch += 1;
                            m.last_producer_epoch = -1;
                        }
                        Some(e) if e == m.producer_epoch || m.producer_epoch == -1 => {
                            m.last_producer_epoch = m.producer_epoch;
                            m.producer_epoch += 1;
                        }
                        Some(e) if e == m.last_producer_epoch => {}
                        Some(e) => {
                            return answer(ErrorCode::PRODUCER_FENCED, "I10", Why::NeitherEpoch { epoch: e })
                        }
                    }
                }
                m.state = TxnState::Empty;
                empty_set(&mut m.partitions);
                m.added_order.clear();
                m.txn_timeout_ms = timeout_ms;
                m.last_update_ms = now_ms;
                // `prepareIncrementProducerEpoch` / `prepareProducerIdRotation`: no transaction.
                m.txn_start_ms = -1;
                m.transit_prev_pid = before;
                Answer {
                    error: ErrorCode::NONE,
                    producer_id: m.producer_id,
                    producer_epoch: m.producer_epoch,
                    rule: if rotate { "I9" } else { "I10" },
                    why: Why::Initialized { pid: m.producer_id, epoch: m.producer_epoch },
                    source: TRANSACTION_METADATA,
                    wrote: Some(TxnState::Empty),
                }
            }
            _ => answer(ErrorCode(-1), "I12", Why::Fixed("illegal current state")),
        }
    }

    /// AddPartitionsToTxn (TV0/1 client) or the leader-originated add of TV2 (AP1–AP8), as a
    /// v0–v3 request (clientTransactionVersion 0); [`Coordinator::add_partitions_v`] says which.
    pub fn add_partitions<P: AsRef<str> + Clone + Into<Name>>(&mut self, id: &str, pid: i64, epoch: i16, parts: &[P], now_ms: i64) -> Answer {
        self.add_partitions_v(id, pid, epoch, parts, now_ms, Tv::Tv1)
    }

    /// [`Coordinator::add_partitions`] from a request of protocol `tv`: AddPartitionsToTxn v4+
    /// (a TV2 leader's or group coordinator's add) records clientTransactionVersion 2.
    pub fn add_partitions_v<P: AsRef<str> + Clone + Into<Name>>(&mut self, id: &str, pid: i64, epoch: i16, parts: &[P], now_ms: i64, tv: Tv) -> Answer {
        if id.is_empty() {
            // `TransactionCoordinator.handleAddPartitionsToTransaction`: a null or empty id.
            return answer(INVALID_REQUEST, "AP1", Why::Fixed("an empty transactional.id is an invalid request"));
        }
        let Some(m) = self.get_mut(id) else {
            return answer(INVALID_PRODUCER_ID_MAPPING, "AP2", Why::NoState);
        };
        if m.pending_state.is_some() {
            return answer(CONCURRENT_TRANSACTIONS, "AP3", Why::Fixed("a transition is in progress: retry"));
        }
        if pid != m.producer_id {
            return answer(INVALID_PRODUCER_ID_MAPPING, "AP4", Why::NotOwner { pid });
        }
        if epoch != m.producer_epoch {
            return answer(ErrorCode::PRODUCER_FENCED, "AP5", Why::NotCurrentEpoch { epoch, current: m.producer_epoch });
        }
        if m.state == TxnState::Ongoing && parts.iter().all(|p| m.partitions.contains(p.as_ref())) {
            return Answer { error: ErrorCode::NONE, producer_id: pid, producer_epoch: epoch, rule: "AP7", why: Why::Fixed("already in the transaction"), source: TRANSACTION_COORDINATOR, wrote: None };
        }
        if m.state != TxnState::Ongoing {
            m.txn_start_ms = now_ms;
        }
        m.transit_prev_pid = m.producer_id;
        m.client_tv = if tv == Tv::Tv2 { 2 } else { 0 };
        m.state = TxnState::Ongoing;
        for p in parts {
            let p: Name = p.clone().into();
            if !m.partitions.contains(&p) {
                m.added_order.push(p.clone());
            }
            m.partitions.insert(p);
        }
        m.last_update_ms = now_ms;
        Answer {
            error: ErrorCode::NONE,
            producer_id: pid,
            producer_epoch: epoch,
            rule: "AP8",
            why: Why::Added,
            source: TRANSACTION_COORDINATOR,
            wrote: Some(TxnState::Ongoing),
        }
    }

    /// EndTxn (E0–E7 for TV0/1, F0–F6 for TV2). On success the state is Prepare* with
    /// a pending Complete*; call [`Coordinator::complete`] once every marker is written.
    pub fn end_txn(&mut self, id: &str, pid: i64, epoch: i16, commit: bool, tv: Tv, now_ms: i64) -> Answer {
        self.end_txn_alloc(id, pid, epoch, commit, tv, now_ms, -1)
    }

    /// [`Coordinator::end_txn`] with the producer id to hand out if a TV2 commit or abort
    /// exhausts the epoch (F4: `nextProducerId`; the client gets (new pid, 0)).
    #[allow(clippy::too_many_arguments)]
    pub fn end_txn_alloc(&mut self, id: &str, pid: i64, epoch: i16, commit: bool, tv: Tv, now_ms: i64, new_pid: i64) -> Answer {
        let self_line = self.line;
        if id.is_empty() {
            // `TransactionCoordinator.handleEndTransaction`: a null or empty id.
            return answer(INVALID_REQUEST, if tv == Tv::Tv1 { "E0" } else { "F0" }, Why::Fixed("an empty transactional.id is an invalid request"));
        }
        let Some(m) = self.get_mut(id) else {
            return answer(INVALID_PRODUCER_ID_MAPPING, if tv == Tv::Tv1 { "E0" } else { "F0" }, Why::NoState);
        };
        match tv {
            Tv::Tv1 => {
                if pid != m.producer_id {
                    return answer(INVALID_PRODUCER_ID_MAPPING, "E0", Why::NotOwner { pid });
                }
                if epoch != m.producer_epoch {
                    return answer(ErrorCode::PRODUCER_FENCED, "E1", Why::EpochNe { epoch, current: m.producer_epoch });
                }
                if m.pending_state.is_some() {
                    return answer(CONCURRENT_TRANSACTIONS, "E2", Why::Fixed("the transaction is completing: retry"));
                }
                match (m.state, commit) {
                    (TxnState::Ongoing, _) => {
                        m.transit_prev_pid = m.producer_id;
                        m.client_tv = 0;
                        m.state = if commit { TxnState::PrepareCommit } else { TxnState::PrepareAbort };
                        m.pending_state = Some(if commit { TxnState::CompleteCommit } else { TxnState::CompleteAbort });
                        m.last_update_ms = now_ms;
                        let mut a = answer(ErrorCode::NONE, "E3", Why::Prepared { commit, state: m.state });
                        a.wrote = Some(m.state);
                        a
                    }
                    (TxnState::CompleteCommit, true) | (TxnState::CompleteAbort, false) => {
                        answer(ErrorCode::NONE, if commit { "E4" } else { "E5" }, Why::Already { state: m.state })
                    }
                    (TxnState::CompleteCommit, false) | (TxnState::CompleteAbort, true) => {
                        answer(ErrorCode::INVALID_TXN_STATE, if commit { "E5" } else { "E4" }, Why::EndedAs { commit, state: m.state })
                    }
                    _ => answer(ErrorCode::INVALID_TXN_STATE, "E7", Why::NoTxn { commit, state: m.state }),
                }
            }
            Tv::Tv2 => {
                // F7: a TV2 EndTxn that arrives while the transaction is PrepareCommit/PrepareAbort
                // is answered CONCURRENT_TRANSACTIONS before anything else is looked at: the
                // producer id, the epoch (the retry epoch, the bumped one, any other) and the
                // result. The reference this model was first written from gave this to trunk only (F6 says PRODUCER_FENCED for a
                // non-retry epoch up to 4.3), but Kafka 4.3.1 answers 51 to all of them, a stranger's
                // producer id included (tests/kafka: scenarios/txn-request-endtxn-tv2.eos). Kafka wins.
                if matches!(m.state, TxnState::PrepareCommit | TxnState::PrepareAbort) {
                    return answer(CONCURRENT_TRANSACTIONS, "F7", Why::Fixed("the previous EndTxn is completing (its markers are being written): retry"));
                }
                let retry_overflow = m.prev_producer_id == pid && epoch == EPOCH_EXHAUSTED && m.producer_epoch == 0;
                let retry_bump = m.producer_epoch as i32 == epoch as i32 + 1 || retry_overflow;
                if pid != m.producer_id && !retry_overflow {
                    return answer(INVALID_PRODUCER_ID_MAPPING, "F1", Why::NotOwner { pid });
                }
                let epoch_ok = match m.state {
                    TxnState::Ongoing | TxnState::Empty => epoch == m.producer_epoch,
                    TxnState::PrepareCommit | TxnState::PrepareAbort => retry_bump,
                    _ => retry_bump || epoch == m.producer_epoch,
                };
                if !epoch_ok {
                    return answer(ErrorCode::PRODUCER_FENCED, "F2", Why::EpochMismatch { epoch, current: m.producer_epoch });
                }
                if m.pending_state.is_some() {
                    return answer(CONCURRENT_TRANSACTIONS, "F3", Why::Fixed("the transaction is completing: retry"));
                }
                let bump = |m: &mut TxnMetadata, st: TxnState| {
                    // F4: at an exhausted epoch the markers carry 32767 under the old id and
                    // the producer continues as (nextProducerId, 0) once complete.
                    if m.producer_epoch >= EPOCH_EXHAUSTED && new_pid >= 0 {
                        m.next_producer_id = new_pid;
                    }
                    m.transit_prev_pid = m.producer_id;
                    m.client_tv = 2;
                    m.last_producer_epoch = m.producer_epoch;
                    m.producer_epoch = m.producer_epoch.saturating_add(1);
                    m.state = st;
                    m.pending_state = Some(if st == TxnState::PrepareCommit { TxnState::CompleteCommit } else { TxnState::CompleteAbort });
                    m.last_update_ms = now_ms;
                };
                let ok = |m: &TxnMetadata, rule, why: Why, wrote| Answer {
                    error: ErrorCode::NONE,
                    producer_id: if m.next_producer_id >= 0 { m.next_producer_id } else { m.producer_id },
                    producer_epoch: if m.next_producer_id >= 0 { 0 } else { m.producer_epoch },
                    rule,
                    why,
                    source: TRANSACTION_COORDINATOR,
                    wrote,
                };
                match (m.state, commit, retry_bump) {
                    (TxnState::Ongoing, _, _) => {
                        bump(m, if commit { TxnState::PrepareCommit } else { TxnState::PrepareAbort });
                        let st = m.state;
                        ok(m, "F4", Why::PreparedBumped { commit, state: st, epoch: m.producer_epoch }, Some(st))
                    }
                    (TxnState::CompleteAbort, false, true) | (TxnState::CompleteCommit, true, true) => {
                        ok(m, "F5", Why::RetryCompleted { commit }, None)
                    }
                    (_, false, false) => {
                        m.txn_start_ms = now_ms;
                        bump(m, TxnState::PrepareAbort);
                        ok(m, "F5", Why::Fixed("an empty abort: the epoch is bumped"), Some(TxnState::PrepareAbort))
                    }
                    // KAFKA-20785 (trunk, after 4.3.1): a COMMIT at the retry epoch that finds the
                    // transaction CompleteAbort can only be a commit that raced the coordinator's
                    // own abort (a timeout bumped the epoch): PRODUCER_FENCED, which the client can
                    // recover from, instead of the fatal INVALID_TXN_STATE (`TransactionCoordinator.endTransaction`).
                    (TxnState::CompleteAbort, true, true) if self_line == super::line::KafkaLine::Trunk => {
                        answer(ErrorCode::PRODUCER_FENCED, "F5", Why::CommitAfterAbort)
                    }
                    _ => answer(ErrorCode::INVALID_TXN_STATE, "F5", Why::InState { commit, state: m.state }),
                }
            }
        }
    }

    /// K5: every marker is written: Prepare* → Complete*.
    pub fn complete(&mut self, id: &str, now_ms: i64) -> Option<TxnState> {
        let m = self.get_mut(id)?;
        let next = m.pending_state.take()?;
        m.state = next;
        m.transit_prev_pid = m.producer_id;
        if m.next_producer_id >= 0 {
            // K5 with TV2 overflow: switch to the next producer id at epoch 0.
            m.prev_producer_id = m.producer_id;
            m.producer_id = m.next_producer_id;
            m.next_producer_id = -1;
            m.last_producer_epoch = -1;
            m.producer_epoch = 0;
        }
        empty_set(&mut m.partitions);
        m.added_order.clear();
        // `TransactionMetadata.prepareComplete` keeps txnStartTimestamp (and
        // `completeTransitionTo` refuses a Complete* without one); a real 4.3.1 broker's
        // CompleteCommit/CompleteAbort records carry it (tests/fixtures/kafka-4.3.1/__transaction_state-23).
        m.last_update_ms = now_ms;
        Some(next)
    }

    /// T1: transactions whose timeout passed (strictly), oldest id first.
    pub fn timed_out(&self, now_ms: i64) -> Vec<String> {
        self.txns
            .iter()
            .filter(|m| m.state == TxnState::Ongoing && m.pending_state.is_none() && m.txn_start_ms + (m.txn_timeout_ms as i64) < now_ms)
            .map(|m| String::from(m.transactional_id.as_str()))
            .collect()
    }

    /// T2: the coordinator aborts a timed-out transaction on the producer's behalf,
    /// fencing it with an epoch bump.
    pub fn abort_timed_out(&mut self, id: &str, now_ms: i64) -> Option<Answer> {
        let m = self.get_mut(id)?;
        if m.state != TxnState::Ongoing || m.pending_state.is_some() {
            return None;
        }
        m.fence_and_prepare_abort(now_ms);
        Some(Answer {
            error: ErrorCode::NONE,
            producer_id: m.producer_id,
            producer_epoch: m.producer_epoch,
            rule: "T2",
            why: Why::TimedOut { epoch: m.producer_epoch },
            source: TRANSACTION_COORDINATOR,
            wrote: Some(TxnState::PrepareAbort),
        })
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn txn_states_are_the_transaction_state_table() {
        use TxnState::*;
        let all = [Empty, Ongoing, PrepareCommit, PrepareAbort, CompleteCommit, CompleteAbort, Dead, PrepareEpochFence];
        let ids: Vec<i8> = all.iter().map(|s| s.id()).collect();
        assert_eq!(ids, [0, 1, 2, 3, 4, 5, 6, 7]);
        let names: Vec<&str> = all.iter().map(|s| s.name()).collect();
        assert_eq!(names, ["Empty", "Ongoing", "PrepareCommit", "PrepareAbort", "CompleteCommit", "CompleteAbort", "Dead", "PrepareEpochFence"]);
    }

    use super::*;

    #[test]
    fn partition_for_uses_java_hash_and_kafka_abs() {
        // Utils.abs(hashCode) % 50: "my-txn" is partition 45, "orders-tx" 48.
        assert_eq!(java_string_hash("my-txn"), -1061187895);
        assert_eq!(partition_for("my-txn", 50), 45);
        assert_eq!(partition_for("orders-tx", 50), 48);
        assert_eq!(java_string_hash("polygenelubricants"), i32::MIN);
        assert_eq!(partition_for("polygenelubricants", 50), 0);
    }

    #[test]
    fn every_state_lists_kafkas_valid_previous_states() {
        assert_eq!(TxnState::PrepareCommit.valid_previous(), &[TxnState::Ongoing]);
        assert!(TxnState::PrepareAbort.valid_previous().contains(&TxnState::Empty), "TV2 empty aborts");
        assert!(!TxnState::CompleteCommit.valid_previous().contains(&TxnState::Ongoing));
    }

    #[test]
    fn i3_timeout_above_the_max_is_invalid_transaction_timeout() {
        let mut c = Coordinator::default();
        let a = c.init_producer_id("t", 900_001, None, 1, 0);
        assert_eq!((a.error, a.rule), (INVALID_TRANSACTION_TIMEOUT, "I3"));
    }

    #[test]
    fn i10_each_init_bumps_the_epoch_and_fences_the_previous_instance() {
        let mut c = Coordinator::default();
        let a = c.init_producer_id("t", 60_000, None, 7, 0);
        assert_eq!((a.error, a.producer_id, a.producer_epoch), (ErrorCode::NONE, 7, 0));
        let b = c.init_producer_id("t", 60_000, None, 8, 0);
        assert_eq!((b.producer_id, b.producer_epoch), (7, 1), "same id, epoch + 1");
        let z = c.add_partitions("t", 7, 0, &["p-0"], 0);
        assert_eq!((z.error, z.rule), (ErrorCode::PRODUCER_FENCED, "AP5"), "the zombie is fenced (90)");
    }

    #[test]
    fn i11_init_during_an_open_transaction_aborts_it_and_answers_concurrent_transactions() {
        let mut c = Coordinator::default();
        c.init_producer_id("t", 60_000, None, 7, 0);
        c.add_partitions("t", 7, 0, &["p-0"], 0);
        let a = c.init_producer_id("t", 60_000, None, 8, 0);
        assert_eq!((a.error, a.rule, a.wrote), (CONCURRENT_TRANSACTIONS, "I11", Some(TxnState::PrepareAbort)));
        assert_eq!(c.init_producer_id("t", 60_000, None, 8, 0).rule, "I6", "while completing: retry");
        c.complete("t", 1);
        let r = c.init_producer_id("t", 60_000, None, 8, 1);
        assert_eq!((r.error, r.producer_epoch), (ErrorCode::NONE, 2), "abort at E+1, retry returns E+2");
    }

    #[test]
    fn i9_an_exhausted_epoch_rotates_the_producer_id() {
        let mut c = Coordinator::default();
        c.init_producer_id("t", 60_000, None, 7, 0);
        c.txns[0].producer_epoch = EPOCH_EXHAUSTED;
        let a = c.init_producer_id("t", 60_000, None, 9, 0);
        assert_eq!((a.producer_id, a.producer_epoch), (9, 0));
    }

    #[test]
    fn e_tv1_commit_then_retries_and_opposite_results() {
        let mut c = Coordinator::default();
        c.init_producer_id("t", 60_000, None, 7, 0);
        c.add_partitions("t", 7, 0, &["p-0", "p-1"], 0);
        let a = c.end_txn("t", 7, 0, true, Tv::Tv1, 1);
        assert_eq!((a.error, a.rule, a.wrote), (ErrorCode::NONE, "E3", Some(TxnState::PrepareCommit)));
        assert_eq!(c.end_txn("t", 7, 0, true, Tv::Tv1, 1).error, CONCURRENT_TRANSACTIONS, "E6: while markers are written");
        assert_eq!(c.complete("t", 2), Some(TxnState::CompleteCommit));
        assert_eq!(c.end_txn("t", 7, 0, true, Tv::Tv1, 3).rule, "E4", "a retried commit after completion is NONE");
        assert_eq!(c.end_txn("t", 7, 0, false, Tv::Tv1, 3).error, ErrorCode::INVALID_TXN_STATE, "never switch the outcome");
        assert_eq!(c.end_txn("t", 7, 1, true, Tv::Tv1, 3).error, ErrorCode::PRODUCER_FENCED);
    }

    #[test]
    fn f_tv2_bumps_the_epoch_at_every_end_and_accepts_the_retry_epoch() {
        let mut c = Coordinator::default();
        c.init_producer_id("t", 60_000, None, 7, 0);
        c.add_partitions("t", 7, 0, &["p-0"], 0);
        let a = c.end_txn("t", 7, 0, true, Tv::Tv2, 1);
        assert_eq!((a.rule, a.producer_epoch), ("F4", 1));
        // While completing, every TV2 EndTxn is 51 before its fields are checked (F7; Kafka 4.3.1).
        assert_eq!(c.end_txn("t", 7, 0, true, Tv::Tv2, 1).rule, "F7", "retry epoch while completing → 51");
        for (pid, epoch) in [(7, 1), (7, 5), (8, 0)] {
            assert_eq!(c.end_txn("t", pid, epoch, false, Tv::Tv2, 1).error, CONCURRENT_TRANSACTIONS, "pid {pid} epoch {epoch}");
        }
        c.complete("t", 2);
        assert_eq!(c.end_txn("t", 7, 0, true, Tv::Tv2, 3).error, ErrorCode::NONE, "retry after completion");
        let empty_abort = c.end_txn("t", 7, 1, false, Tv::Tv2, 3);
        assert_eq!((empty_abort.rule, empty_abort.producer_epoch), ("F5", 2));
    }

    #[test]
    fn t1_t2_a_timed_out_transaction_is_aborted_with_an_epoch_bump() {
        let mut c = Coordinator::default();
        c.init_producer_id("t", 1_000, None, 7, 0);
        c.add_partitions("t", 7, 0, &["p-0"], 100);
        assert!(c.timed_out(1_100).is_empty(), "strictly after start + timeout");
        assert_eq!(c.timed_out(1_101), ["t"]);
        let a = c.abort_timed_out("t", 1_101).unwrap();
        assert_eq!((a.rule, a.producer_epoch), ("T2", 1));
        assert_eq!(c.end_txn("t", 7, 0, true, Tv::Tv1, 1_200).error, ErrorCode::PRODUCER_FENCED, "T3");
    }
}
