//! The scenario language for transactions: the same line format as the idempotence
//! scenarios (`scenarios/README.md`), chosen by a first directive `model transactions`.
//! Every step is run on a [`World`](txn::World); after each step the invariants are checked and the
//! state is snapshotted, so a view steps back and forward without re-running.
//!
//! The parser is [`parse()`] (parse.rs), the runner [`run()`] (run.rs); `expect` lines are
//! checked by expect.rs, and text.rs writes steps, the next possible lines and the timeline.
//! What both script languages share (lines, comments, [`ParseError`], durations) is in
//! [`super::script`].

use alloc::string::String;
use alloc::vec::Vec;

use super::line::KafkaLine;

#[cfg(feature = "serde")]
use serde::{Deserialize, Serialize};

// The model's modules, named by the files below as `super::txn::…` and so on.
use super::{coordinator, line, partition, txn};

mod expect;
mod hosted;
mod parse;
mod run;
mod text;

pub use expect::producer_entry_words;
pub use super::txn::GroupSeed;
pub use parse::{is_transactions, parse, TRANSACTIONS_WORDS};
pub use run::{apply_line, run, run_idempotence, run_idempotence_opts, run_idempotence_with, run_with, seed_producer_states, setup, TxnRun, TxnStepRun};
pub use super::script::{Failure, ParseError};
pub use text::{describe, next_lines, request_next_lines, timeline_text};

#[derive(Clone, Debug, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize), serde(rename_all = "camelCase", default))]
pub struct TxnScenario {
    /// "transactions": the text's first line (`model transactions`), set by [`parse()`]. The JSON
    /// twin (this value serialized) carries it, so a twin is told from an idempotence script's.
    pub model: String,
    pub title: String,
    pub about: String,
    pub start_ms: i64,
    pub first_producer_id: i64,
    pub transaction_version: u8,
    pub two_phase_commit_broker: bool,
    /// `cluster kafka=4.1|4.3|trunk`: the line whose answers the model gives (default 4.3).
    pub kafka: KafkaLine,
    /// `cluster transaction.partition.verification.enable=false`.
    pub verification_disabled: bool,
    /// `cluster transactional.id.expiration.ms=D` (None: Kafka's 7 days).
    pub transactional_id_expiration_ms: Option<i64>,
    /// `cluster transaction.remove.expired.transaction.cleanup.interval.ms=D` (None: 1 hour).
    pub transactional_id_expiration_interval_ms: Option<i64>,
    /// `cluster transaction.abort.timed.out.transaction.cleanup.interval.ms=D` (None: Kafka's
    /// 10 s): how often the coordinator aborts transactions past their timeout (T1).
    pub abort_timed_out_interval_ms: Option<i64>,
    pub rtt_ms: i64,
    pub append_ms: i64,
    pub brokers: usize,
    /// `cluster default.replication.factor=N` (0 or 1: one replica, HW = LEO).
    pub replication_factor: usize,
    /// `cluster replica.lag.time.max.ms=D` (None: Kafka's 30 s).
    pub replica_lag_time_max_ms: Option<i64>,
    /// `cluster unclean.leader.election.enable=true`.
    pub unclean_leader_election: bool,
    /// `cluster transaction.max.timeout.ms=D` (None: Kafka's 15 minutes).
    pub transaction_max_timeout_ms: Option<i64>,
    /// `cluster producer.id.expiration.ms=D` / `producer.id.expiration.check.interval.ms=D`
    /// (None: Kafka's 1 day / 10 minutes).
    pub producer_id_expiration_ms: Option<i64>,
    pub producer_id_expiration_check_interval_ms: Option<i64>,
    pub partitions: Vec<String>,
    pub producers: Vec<TxnProducerDecl>,
    /// `producer NAME [idempotence=…] [max.in.flight=N] …` without a transactional.id: a Java
    /// producer driven by the idempotence scripts' steps, hosted in the same world
    /// ([`super::txn::idempotent`]).
    pub idempotent_producers: Vec<super::scenario::ProducerDecl>,
    pub consumers: Vec<ConsumerDecl>,
    /// `txn-state ID pid=N epoch=E`: coordinator metadata as if loaded from the log.
    pub seeds: Vec<TxnSeed>,
    /// `producer-state PART pid=N epoch=E seq=A..B [offset=O] [txn-first=T]`: the partition
    /// leader's entry for one producer, as if its last batch had been appended.
    pub producer_states: Vec<ProducerStateSeed>,
    /// `group-state G generation=N [members=A,B] [static=INSTANCE:MEMBER,…] [committed=P=O,…]`:
    /// a classic consumer group as the group coordinator holds it.
    pub groups: Vec<GroupSeed>,
    pub steps: Vec<TxnStep>,
}

/// One `producer-state` line: the leader of `partition` holds an entry for `producer_id` at
/// `epoch` whose last batch carried sequences `first_seq..=last_seq` at offsets from `offset`
/// (the partition's log end when not given), and, with `txn_first`, a transaction open since
/// that offset ([`super::partition::Partition::seed_producer`]).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize), serde(rename_all = "camelCase", default))]
pub struct ProducerStateSeed {
    pub line: usize,
    pub partition: String,
    pub producer_id: i64,
    pub epoch: i16,
    pub first_seq: i32,
    pub last_seq: i32,
    pub offset: Option<i64>,
    pub txn_first: Option<i64>,
}

/// `txn-state ID pid=N epoch=E [state=S] [partitions=P,…] [timeout=D] [last-epoch=E]`: a
/// transactional.id's coordinator metadata as if loaded from `__transaction_state`.
#[derive(Clone, Debug, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize), serde(rename_all = "camelCase", default))]
pub struct TxnSeed {
    pub transactional_id: String,
    pub producer_id: i64,
    pub epoch: i16,
    /// Empty, Ongoing, CompleteCommit or CompleteAbort (default CompleteCommit). A Prepare*
    /// state is not given here: its markers would be in flight (load it by replaying the EndTxn).
    pub state: String,
    /// The transaction's partitions (Ongoing only).
    pub partitions: Vec<String>,
    pub timeout_ms: Option<i32>,
    pub last_epoch: Option<i16>,
    /// `txn-start=T`: txnStartTimestamp, T from the script's start (may be negative: a
    /// transaction open since before the script; Ongoing only; default the start).
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub txn_start_ms: Option<i64>,
    /// `last-update=T`: txnLastUpdateTimestamp, T from the script's start (default the start).
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub last_update_ms: Option<i64>,
    /// `coordinator-epoch=N`: the epoch of the coordinator's `__transaction_state` partition
    /// (the coordinator's one epoch in the model: every `txn-state` line giving it agrees).
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub coordinator_epoch: Option<i32>,
}

#[derive(Clone, Debug, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize), serde(rename_all = "camelCase", default))]
pub struct TxnProducerDecl {
    pub name: String,
    pub transactional_id: String,
    pub timeout_ms: i32,
    pub two_phase_commit: bool,
}

#[derive(Clone, Debug, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize), serde(rename_all = "camelCase", default))]
pub struct ConsumerDecl {
    pub name: String,
    pub read_committed: bool,
    pub group: Option<String>,
    pub partitions: Vec<String>,
}

/// One step line.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize), serde(tag = "op", rename_all = "kebab-case"))]
pub enum TxnStep {
    Init { line: usize, producer: String },
    Begin { line: usize, producer: String },
    Send { line: usize, producer: String, partition: String, values: Vec<String> },
    /// One record to each of the first `count` partitions.
    SendAll { line: usize, producer: String, count: usize, value: String },
    SendOffsets { line: usize, producer: String, consumer: String },
    Commit { line: usize, producer: String, lose_response: bool },
    Abort { line: usize, producer: String, lose_response: bool },
    DeliverMarkers { line: usize, partition: Option<String> },
    DelayMarker { line: usize, partition: String },
    Crash { line: usize, producer: String },
    Advance { line: usize, ms: i64 },
    Failover { line: usize },
    /// `run-task NAME`: one of Kafka's periodic tasks runs now, its schedule unchanged
    /// ([`super::txn::World::run_task`]).
    RunTask { line: usize, task: String },
    Poll { line: usize, consumer: String },
    Rebalance { line: usize, group: String },
    /// The application seeks the consumer back to its group's committed offsets (what it must
    /// do after an abort: Kafka does not rewind a consumer's position).
    Seek { line: usize, consumer: String },
    OffsetFetch { line: usize, consumer: String },
    Effect { line: usize, producer: String, name: String, key: Option<String> },
    Feature { line: usize, level: u8 },
    Flush { line: usize },
    Repeat { line: usize, times: usize, steps: Vec<TxnStep> },
    Expect { line: usize, words: Vec<String> },
    /// `lag PART [broker=B]`: that follower (every follower) stops fetching (S1).
    Lag { line: usize, partition: String, broker: Option<i32> },
    /// `catch-up PART [broker=B]`: it fetches to the log end and rejoins the ISR (S4).
    CatchUp { line: usize, partition: String, broker: Option<i32> },
    /// `leader-fails PART`: the leader's broker fails; the controller elects (S5, S6).
    LeaderFails { line: usize, partition: String },
    /// `inject P API ERROR|lose-request|lose-response`: P's next request of that API is answered
    /// ERROR without being processed, lost on its way, or processed with its answer lost
    /// ([`super::txn::inject`]).
    Inject { line: usize, producer: String, api: String, what: String },
    /// `release P API`: P's request held with `inject P API hold` reaches its coordinator now
    /// ([`super::txn::World::release`]).
    Release { line: usize, producer: String, api: String },
    /// A step of a producer without a transactional.id, in the idempotence scripts' words (`send`,
    /// `deliver request|response bN`, `lose`, `delay request`, `refuse request`, `timeout`,
    /// `restart`, `expect bN …`, `expect producer P …`; [`super::txn::idempotent`]).
    Idempotent { line: usize, step: super::scenario::Step },
    /// A request sent straight to the cluster (`end-txn …`, `produce …`; [`super::txn::Request`]),
    /// its answer kept under `label` (and as `last`) for `expect` lines.
    Request { line: usize, label: Option<String>, from: Option<String>, request: super::txn::Request },
}

#[cfg(test)]
mod tests;
