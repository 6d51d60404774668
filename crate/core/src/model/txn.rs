//! Transactions, end to end: transactional producers with Kafka's client
//! `TransactionManager` states, the transaction coordinator ([`super::coordinator`]) and its
//! `__transaction_state` log, WriteTxnMarkers reaching each partition independently, the
//! partitions' logs with HW/LSO and the aborted-transaction index ([`super::partition`]),
//! `__consumer_offsets` with transactional offset commits and group-generation fencing
//! (KIP-447), read_committed and read_uncommitted consumers, and an external side effect
//! that no abort can undo.
//!
//! Sans-IO and deterministic: time only moves when a step says so, producer ids come from a
//! counter, and every record any log holds is a real Record Batch built by the codec.
//! Rule ids are those of the rule catalogue (`crate/core/src/rules.rs`); each message names the
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
    /// A marker at `before` closes the producer's records still open on `partition` below it,
    /// with the transaction's `outcome`.
    pub(super) fn close_open_records(&mut self, partition: &str, pid: i64, before: i64, outcome: Option<&'static str>) {
        let step = self.step;
        if let Some(open) = self.open_records.get_mut(partition).and_then(|by_pid| by_pid.get_mut(&pid)) {
            for k in open.drain(..) {
                let rec = &mut self.records[k];
                if rec.closed_at.is_none() && rec.offset < before {
                    rec.closed_at = Some(step);
                    rec.outcome = outcome;
                }
            }
        }
    }

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
// The world's types and helpers by role.
mod actors;
mod batches;
mod calls;
mod invariants;
mod metrics;
mod settings;
mod timeline;
pub use actors::*;
pub use batches::*;
pub use metrics::*;
pub use settings::*;
pub use timeline::*;
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
        self.close_open_records(&m.partition, m.pid, offset, outcome);
        self.txns[m.txn].markers.push(m.commit);
        if self.txns[m.txn].outcome.is_none() {
            self.txns[m.txn].outcome = Some(m.commit);
        }
        let _ = r;
    }
}
