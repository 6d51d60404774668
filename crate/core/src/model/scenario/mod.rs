//! The scenario language: a line-oriented script (with a JSON twin, the same [`Scenario`]
//! value serialized) that sets up partitions and producers, drives the model step by step,
//! and checks itself with `expect` lines. Documented in `scenarios/README.md`.
//!
//! ```text
//! title Lost response, then retry
//! partition orders-0
//! producer app
//! send app orders-0 order-1
//! deliver request b1
//! lose response b1
//! timeout app
//! deliver request b1
//! expect b1 duplicate 0..0
//! ```
//!
//! The parser is [`parse()`] (parse.rs), the runner [`run()`] (run.rs); `expect` lines are
//! checked by expect.rs, and text.rs writes steps, the next possible lines and the ladder.
//! What both script languages share (lines, comments, [`ParseError`], durations) is in
//! [`super::script`].

use alloc::string::String;
use alloc::vec::Vec;

#[cfg(feature = "serde")]
use serde::{Deserialize, Serialize};

// The model's modules, named by the files below as `super::idempotence::…` and so on.
use super::{errors, idempotence, line, partition, suggest, txn};

mod expect;
mod parse;
mod run;
mod text;

pub use super::script::{parse_duration, strip_comment, Failure, ParseError};
pub(in crate::model) use parse::{parse_step, producer_config};
pub use parse::parse;
pub(in crate::model) use run::{exec, Runner, States};
pub use run::{initial_state, run, run_logged, run_next_lines, run_with_states, setup, step_line, Cluster, LeaderAt, Run, StepRun, StepState, STATE_ENTRIES};
pub use text::{client_next_lines, describe, ladder, next_lines};

/// A parsed scenario.
#[derive(Clone, Debug, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize), serde(rename_all = "camelCase", default))]
pub struct Scenario {
    pub title: String,
    pub about: String,
    pub start_ms: i64,
    pub first_producer_id: i64,
    pub producer_id_expiration_ms: Option<i64>,
    /// `broker default.replication.factor=N` (0 or 1: one replica, HW = LEO).
    pub replication_factor: usize,
    /// `broker replica.lag.time.max.ms=D` (None: Kafka's 30 s).
    pub replica_lag_time_max_ms: Option<i64>,
    /// `broker unclean.leader.election.enable=true`.
    pub unclean_leader_election: bool,
    /// `broker kafka=4.1|4.3|trunk`: the line whose answers the coordinators give to the script's
    /// request lines, where lines differ (default 4.3; left out of the JSON twin when default).
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "is_default_line"))]
    pub kafka: super::line::KafkaLine,
    /// `broker transaction.version=N`: the cluster's finalized level for the coordinators
    /// (None: 2, a new 4.3 cluster's).
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub transaction_version: Option<u8>,
    pub partitions: Vec<String>,
    pub producers: Vec<ProducerDecl>,
    /// `log-end PART N` and `producer-state PART …`: a leader's state given, not replayed (a
    /// real partition's, from `eoslab partition` or the inspector's directory view).
    pub leader_state: Vec<LeaderStateDecl>,
    pub steps: Vec<Step>,
}

#[cfg(feature = "serde")]
fn is_default_line(l: &line::KafkaLine) -> bool {
    *l == line::KafkaLine::default()
}

/// One set-up line giving a partition leader's state.
#[derive(Clone, Debug, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize), serde(rename_all = "camelCase", default))]
pub struct LeaderStateDecl {
    pub line: usize,
    pub partition: String,
    /// `log-end PART N`: the log ends at N (the records below it are not in the model).
    pub log_end: Option<i64>,
    /// `producer-state PART pid=N epoch=E [coordinator-epoch=C] [timestamp=T]
    /// [txn-first-offset=F] [batch=FIRSTSEQ..LASTSEQ@FIRSTOFFSET..LASTOFFSET …]`: a
    /// `ProducerStateEntry` (at most 5 retained batches, oldest first).
    pub producer: Option<ProducerStateDecl>,
}

#[derive(Clone, Debug, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize), serde(rename_all = "camelCase", default))]
pub struct ProducerStateDecl {
    pub producer_id: i64,
    pub epoch: i16,
    pub coordinator_epoch: i32,
    /// The entry's last timestamp (and every retained batch's); the scenario's start when absent.
    pub timestamp: Option<i64>,
    pub txn_first_offset: Option<i64>,
    /// (first sequence, last sequence, first offset, last offset).
    pub batches: Vec<(i32, i32, i64, i64)>,
}

#[derive(Clone, Debug, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize), serde(rename_all = "camelCase", default))]
pub struct ProducerDecl {
    pub name: String,
    /// `key=value` settings: idempotence, max.in.flight, retries, delivery.timeout.ms,
    /// request.timeout.ms.
    pub settings: Vec<(String, String)>,
}

/// One line of the script after `#` comments are removed.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize), serde(tag = "op", rename_all = "kebab-case"))]
pub enum Step {
    Send { line: usize, producer: String, partition: String, values: Vec<String> },
    /// `attempt`: which attempt's message (`b1#2`); the latest when absent.
    Deliver { line: usize, what: Direction, batch: usize, #[cfg_attr(feature = "serde", serde(default))] attempt: Option<u32> },
    Lose { line: usize, what: Direction, batch: usize, #[cfg_attr(feature = "serde", serde(default))] attempt: Option<u32> },
    Delay { line: usize, batch: usize },
    /// The leader answers the request with a retriable error (NOT_ENOUGH_REPLICAS …).
    Refuse { line: usize, batch: usize, error: String },
    Timeout { line: usize, producer: String },
    Restart { line: usize, producer: String },
    Advance { line: usize, ms: i64 },
    /// `run-task NAME`: one of Kafka's periodic tasks runs now, by its scheduler name: the
    /// leaders' `PeriodicProducerExpirationCheck` (X1) or `isr-expiration` (S3), or the
    /// coordinator's `transaction-abort` (T1) or `transactionalId-expiration` (T4).
    RunTask { line: usize, task: String },
    LeaderChange { line: usize, partition: String },
    /// `lag PART [broker=B]`: a follower stops fetching (S1).
    Lag { line: usize, partition: String, #[cfg_attr(feature = "serde", serde(default))] broker: Option<i32> },
    /// `catch-up PART [broker=B]`: it fetches to the log end and rejoins the ISR (S4).
    CatchUp { line: usize, partition: String, #[cfg_attr(feature = "serde", serde(default))] broker: Option<i32> },
    /// `leader-fails PART`: the leader's broker fails; the controller elects (S5, S6).
    LeaderFails { line: usize, partition: String },
    /// `fetch PART [read_committed|read_uncommitted] [from=N]`: a Fetch to the leader (L4).
    Fetch { line: usize, partition: String, #[cfg_attr(feature = "serde", serde(default))] read_committed: bool, #[cfg_attr(feature = "serde", serde(default))] from: i64 },
    /// `list-offsets PART [read_committed|read_uncommitted]`: ListOffsets(LATEST) (L5).
    ListOffsets { line: usize, partition: String, #[cfg_attr(feature = "serde", serde(default))] read_committed: bool },
    /// Deliver everything deliverable, oldest first, until the network is quiet.
    Flush { line: usize },
    Repeat { line: usize, times: usize, steps: Vec<Step> },
    Expect { line: usize, check: Expect },
    /// `produce PART pid=N epoch=E seq=S [txn] V …`: a Produce request with these fields,
    /// straight to the partition's leader.
    Produce { line: usize, partition: String, producer_id: i64, epoch: i16, base_sequence: i32, #[cfg_attr(feature = "serde", serde(default))] transactional: bool, values: Vec<String> },
    /// `produce PART batch=HEX`: a Produce carrying these bytes (one batch, as the inspector
    /// or a log segment shows it), straight to the partition's leader; `batch` is the hex.
    ProduceBytes { line: usize, partition: String, batch: String },
    /// A request to the cluster's coordinators, in the transactions scripts' words
    /// (`init-producer-id …`, `add-partitions-to-txn …`, `add-offsets-to-txn …`, `end-txn …`,
    /// `txn-offset-commit …`, `offset-fetch group=G …`, `find-coordinator …`, and a `produce` naming
    /// its `transactional.id=`): answered by the transactions world on this script's partitions
    /// ([`super::txn::World::request`]), its answer kept under `label` for `expect LABEL …`.
    Request { line: usize, #[cfg_attr(feature = "serde", serde(default))] label: Option<String>, #[cfg_attr(feature = "serde", serde(default))] from: Option<String>, request: super::txn::Request },
    /// `deliver markers` / `deliver marker PART`: the WriteTxnMarkers the coordinator queued for an
    /// EndTxn reach the leaders (all, or PART's).
    DeliverMarkers { line: usize, #[cfg_attr(feature = "serde", serde(default))] partition: Option<String> },
    /// `marker PART pid=N epoch=E commit|abort [coordinator-epoch=C] [tv=1|2]`: a
    /// WriteTxnMarkers request for the partition.
    Marker { line: usize, partition: String, producer_id: i64, epoch: i16, commit: bool, #[cfg_attr(feature = "serde", serde(default))] coordinator_epoch: i32, #[cfg_attr(feature = "serde", serde(default))] tv2: bool },
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize), serde(rename_all = "lowercase"))]
pub enum Direction {
    Request,
    Response,
}

/// A self-check.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize), serde(tag = "what", rename_all = "kebab-case"))]
pub enum Expect {
    /// The leader's latest decision on batch `b`: "appended" | "duplicate" | an error name.
    Decision { batch: usize, outcome: String, offsets: Option<(i64, i64)> },
    /// The batch's state at the client: "acked" | "failed" | "abandoned" | "in-flight" | "queued".
    Client { batch: usize, state: String, detail: Option<String> },
    /// Record values in a partition's log, in offset order.
    Log { partition: String, values: Vec<String> },
    /// Producer-state entries held by a partition.
    Producers { partition: String, count: usize },
    /// A producer's id and epoch.
    Producer { producer: String, pid: Option<i64>, epoch: Option<i16> },
    /// The leader's answer to the latest `produce` or `marker` line: "appended" | "duplicate" |
    /// an error name.
    Last { outcome: String, offsets: Option<(i64, i64)> },
    /// A partition's last stable offset.
    Lso { partition: String, offset: i64 },
    /// A partition's high watermark.
    Hw { partition: String, offset: i64 },
    /// The latest `fetch` / `list-offsets` answer: `records V …|nothing`, `hw N`, `lso N`,
    /// `offset N`, `error NAME`, `aborted PID@FIRST …|none|null`.
    Read { answer: String, values: Vec<String> },
    /// A partition's ISR in ascending broker order, as Kafka 4.3 lists it (`expect isr PART 1,2,3`).
    Isr { partition: String, brokers: Vec<i32> },
    /// The broker leading a partition.
    Leader { partition: String, broker: i32 },
    /// `expect LABEL …` on the answer to a request line labelled `as LABEL` (the transactions
    /// scripts' words: `error NAME`, `pid N epoch E`, `rule R` …).
    Reply { label: String, words: Vec<String> },
    /// `expect txn ID STATE`: the coordinator's state of a transactional.id.
    Txn { id: String, state: String },
    /// `expect txn-state ID KEY=VALUE …`: the coordinator's metadata of a transactional.id, as
    /// in the transactions scripts.
    TxnState { id: String, words: Vec<String> },
}

#[cfg(test)]
mod leader_state_tests;
