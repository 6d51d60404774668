//! The state of a transactions world after a step, as the timeline's state panel shows it
//! ([`snapshot`]): every producer, the coordinator's metadata, each partition's producer entries,
//! HW, LSO, transaction index and replicas, the groups' offsets and the consumers' positions.
//! Kept by the runner after each step and serialized in the timeline's report
//! (`model::txn_report`, which re-exports these types).

use alloc::collections::BTreeMap;
use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;

#[cfg(feature = "serde")]
use serde::Serialize;

use super::World;
use crate::model::partition::Isolation;

#[derive(Clone, Debug, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(Serialize), serde(rename_all = "camelCase"))]
pub struct StateSnapshot {
    pub producers: Vec<ProducerState>,
    pub coordinator: CoordinatorState,
    pub partitions: Vec<PartitionState>,
    pub offsets: Vec<OffsetState>,
    /// Each consumer group as the group coordinator holds it: generation and members.
    pub groups: Vec<GroupState>,
    pub consumers: Vec<ConsumerState>,
    pub metrics: BTreeMap<&'static str, i64>,
}

#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(Serialize), serde(rename_all = "camelCase"))]
pub struct ProducerState {
    pub lane: String,
    pub name: String,
    pub transactional_id: String,
    pub state: &'static str,
    pub pid: i64,
    pub epoch: i16,
    pub protocol: &'static str,
    pub outcome: Option<&'static str>,
    pub error: Option<String>,
    pub fenced: bool,
    pub crashed: bool,
    /// The TransactionManager's next sequence per partition (`sequenceNumber`), by partition.
    pub sequences: Vec<(String, i32)>,
}

#[derive(Clone, Debug, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(Serialize), serde(rename_all = "camelCase"))]
pub struct CoordinatorState {
    pub lane: &'static str,
    pub epoch: i32,
    pub txns: Vec<TxnState>,
    /// Markers queued or held in the network.
    pub pending_markers: Vec<String>,
}

#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(Serialize), serde(rename_all = "camelCase"))]
pub struct TxnState {
    pub transactional_id: String,
    /// The `__transaction_state` partition that owns it.
    pub partition: i32,
    pub state: &'static str,
    pub pending_state: Option<&'static str>,
    pub pid: i64,
    pub epoch: i16,
    pub partitions: Vec<String>,
    pub timeout_ms: i32,
    /// `lastProducerEpoch`, `prevProducerId`, `nextProducerId` (−1: none), `txnStartTimestamp`.
    pub last_producer_epoch: i16,
    pub prev_producer_id: i64,
    pub next_producer_id: i64,
    pub txn_start_ms: i64,
}

#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(Serialize), serde(rename_all = "camelCase"))]
pub struct PartitionState {
    pub lane: String,
    pub name: String,
    pub hw: i64,
    pub lso: i64,
    pub log_end: i64,
    /// The leader's producer state (`ProducerStateEntry` per producer id), by producer id.
    pub producers: Vec<ProducerEntry>,
    /// The transaction index (`AbortedTxn` entries), oldest first.
    pub aborted: Vec<AbortedEntry>,
    /// The leader's verification entries (`ProducerStateManager.verificationStates`), by
    /// producer id: while one exists, no batch of that producer may start above its lowest
    /// sequence (A5), nor, for a TV2 client's, a first batch at a sequence other than 0 (A4).
    pub verifications: Vec<VerificationEntry>,
    /// Replication (`cluster default.replication.factor` ≥ 2; absent with one replica): the
    /// leader's broker, the ISR and each follower.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub replication: Option<ReplicationState>,
}

/// A partition's replicas (S1–S6).
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(Serialize), serde(rename_all = "camelCase"))]
pub struct ReplicationState {
    pub leader: i32,
    pub leader_epoch: i32,
    pub isr: Vec<i32>,
    pub followers: Vec<FollowerState>,
}

/// One follower: its broker, its log end, whether it fetches, is in the ISR, is up.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(Serialize), serde(rename_all = "camelCase"))]
pub struct FollowerState {
    pub broker: i32,
    pub log_end: i64,
    pub fetching: bool,
    pub in_isr: bool,
    pub alive: bool,
}

/// One verification entry on a partition leader (`VerificationStateEntry`, V2).
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(Serialize), serde(rename_all = "camelCase"))]
pub struct VerificationEntry {
    pub producer_id: i64,
    pub epoch: i16,
    /// The lowest first sequence seen since the entry was made (Kafka's `lowestSequence`).
    pub lowest_sequence: i32,
    /// Made for a TV2 client (`supportsEpochBump`).
    pub supports_epoch_bump: bool,
    /// When it was made, on the steps' clock (`t`, ms since the run's start); expiry counts
    /// from here.
    pub since_t: i64,
}

/// One producer's entry on a partition leader (`ProducerStateEntry`).
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(Serialize), serde(rename_all = "camelCase"))]
pub struct ProducerEntry {
    pub producer_id: i64,
    pub epoch: i16,
    /// The last sequence written (−1: none at this epoch).
    pub last_sequence: i32,
    /// The retained batches (at most 5), oldest first: `[firstSeq, lastSeq, firstOffset, lastOffset]`.
    pub batches: Vec<[i64; 4]>,
    pub coordinator_epoch: i32,
    /// `currentTxnFirstOffset`: the open transaction's first offset here.
    pub txn_first_offset: Option<i64>,
}

/// One entry of the transaction index (`AbortedTxn`).
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(Serialize), serde(rename_all = "camelCase"))]
pub struct AbortedEntry {
    pub producer_id: i64,
    pub first_offset: i64,
    pub last_offset: i64,
    pub last_stable_offset: i64,
}

#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(Serialize), serde(rename_all = "camelCase"))]
pub struct OffsetState {
    pub group: String,
    pub generation: i32,
    pub partition: String,
    pub committed: Option<i64>,
    pub pending: Option<i64>,
}

#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(Serialize), serde(rename_all = "camelCase"))]
pub struct GroupState {
    pub group: String,
    pub generation: i32,
    /// Member ids (none: the group is Empty).
    pub members: Vec<String>,
    /// Static members, as `group.instance.id` → member id.
    pub static_members: Vec<(String, String)>,
}

#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(Serialize), serde(rename_all = "camelCase"))]
pub struct ConsumerState {
    pub lane: String,
    pub name: String,
    pub isolation: &'static str,
    pub generation: i32,
    pub positions: Vec<Position>,
    pub received: usize,
}

#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(Serialize), serde(rename_all = "camelCase"))]
pub struct Position {
    pub partition: String,
    pub position: i64,
}

pub(crate) fn iso(i: Isolation) -> &'static str {
    match i {
        Isolation::ReadCommitted => "read_committed",
        Isolation::ReadUncommitted => "read_uncommitted",
    }
}

/// The state the timeline draws after a step.
pub fn snapshot(w: &World) -> StateSnapshot {
    StateSnapshot {
        producers: w
            .clients
            .iter()
            .map(|c| ProducerState {
                lane: format!("producer:{}", c.name),
                name: String::from(c.name.as_str()),
                transactional_id: String::from(c.transactional_id.as_str()),
                state: c.state.name(),
                pid: c.pid,
                epoch: c.epoch,
                protocol: if c.tv2 { "v2" } else { "v1" },
                outcome: if c.outcome_unknown { Some("UNKNOWN") } else { None },
                error: c.last_error.clone(),
                fenced: w.fenced.contains(c.name.as_str()),
                crashed: c.crashed,
                sequences: c.sequences.iter().map(|(p, s)| (p.clone(), *s)).collect(),
            })
            .chain(w.idempotent_producers().map(|(name, pid, epoch, sequences)| {
                let idempotent = pid >= 0;
                ProducerState {
                    lane: format!("producer:{name}"),
                    name: String::from(name),
                    transactional_id: String::new(),
                    // An idempotent producer's TransactionManager is READY once it has its
                    // producer id; a producer without idempotence has none.
                    state: if idempotent { "READY" } else { "—" },
                    pid,
                    epoch,
                    protocol: if idempotent { "idempotent" } else { "not idempotent" },
                    outcome: None,
                    error: None,
                    fenced: false,
                    crashed: false,
                    sequences,
                }
            }))
            .collect(),
        coordinator: CoordinatorState {
            lane: "coordinator",
            epoch: w.coordinator_epoch,
            txns: w
                .coordinator
                .txns
                .iter()
                .map(|m| TxnState {
                    transactional_id: String::from(m.transactional_id.as_str()),
                    partition: World::coordinator_partition(&m.transactional_id),
                    state: m.state.name(),
                    pending_state: m.pending_state.map(|s| s.name()),
                    pid: m.producer_id,
                    epoch: m.producer_epoch,
                    partitions: m.partitions.iter().map(|p| String::from(p.as_str())).collect(),
                    timeout_ms: m.txn_timeout_ms,
                    last_producer_epoch: m.last_producer_epoch,
                    prev_producer_id: m.prev_producer_id,
                    next_producer_id: m.next_producer_id,
                    txn_start_ms: m.txn_start_ms,
                })
                .collect(),
            pending_markers: w
                .markers
                .iter()
                .map(|m| format!("{} {} (coordinator epoch {}){}", if m.commit { "COMMIT" } else { "ABORT" }, m.partition, m.coordinator_epoch, if m.held { " held" } else { "" }))
                .collect(),
        },
        partitions: w
            .idem.cluster.partitions
            .iter()
            .map(|p| PartitionState {
                lane: format!("partition:{}", p.name),
                name: p.name.clone(),
                hw: p.high_watermark(),
                lso: p.last_stable_offset(),
                log_end: p.log_end_offset,
                producers: p
                    .producers
                    .iter()
                    .map(|(&pid, e)| ProducerEntry {
                        producer_id: pid,
                        epoch: e.producer_epoch,
                        last_sequence: e.last_seq(),
                        batches: e.batches.iter().map(|b| [b.first_seq() as i64, b.last_seq as i64, b.first_offset(), b.last_offset]).collect(),
                        coordinator_epoch: e.coordinator_epoch,
                        txn_first_offset: e.current_txn_first_offset,
                    })
                    .collect(),
                aborted: p
                    .aborted_txns
                    .iter()
                    .map(|a| AbortedEntry { producer_id: a.producer_id, first_offset: a.first_offset, last_offset: a.last_offset, last_stable_offset: a.last_stable_offset })
                    .collect(),
                verifications: p
                    .verifications
                    .iter()
                    .map(|(&pid, v)| VerificationEntry { producer_id: pid, epoch: v.epoch, lowest_sequence: v.lowest_seq, supports_epoch_bump: v.supports_epoch_bump, since_t: v.at_ms - w.start_ms })
                    .collect(),
                replication: (!p.replicas.followers.is_empty()).then(|| ReplicationState {
                    leader: p.replicas.leader,
                    leader_epoch: p.leader_epoch,
                    isr: p.isr(),
                    followers: p
                        .replicas
                        .followers
                        .iter()
                        .map(|f| FollowerState { broker: f.broker, log_end: f.log_end(p.log_end_offset), fetching: f.fetching, in_isr: f.in_isr, alive: f.alive })
                        .collect(),
                }),
            })
            .collect(),
        offsets: w
            .groups
            .iter()
            .flat_map(|g| {
                let mut parts: Vec<String> = g.committed.keys().cloned().collect();
                for (_, p, _) in &g.pending {
                    if !parts.contains(p) {
                        parts.push(p.clone());
                    }
                }
                parts.sort();
                parts
                    .into_iter()
                    .map(|p| OffsetState {
                        group: g.name.clone(),
                        generation: g.generation,
                        committed: g.committed.get(&p).copied(),
                        pending: g.pending.iter().rev().find(|x| x.1 == p).map(|x| x.2),
                        partition: p,
                    })
                    .collect::<Vec<_>>()
            })
            .collect(),
        groups: w.groups.iter().map(|g| GroupState { group: g.name.clone(), generation: g.generation, members: g.members.clone(), static_members: g.static_members.clone() }).collect(),
        consumers: w
            .consumers
            .iter()
            .map(|c| ConsumerState {
                lane: format!("consumer:{}", c.name),
                name: c.name.clone(),
                isolation: iso(c.isolation),
                generation: c.generation,
                positions: c.positions.iter().map(|(p, o)| Position { partition: p.clone(), position: *o }).collect(),
                received: c.received.len(),
            })
            .collect(),
        metrics: w.metrics.to_map(),
    }
}

// `expect txn-state` and `expect group`: the state read in the set-up lines' spelling.

/// A comma list as a sorted set (`none` or empty: no element), to compare lists given in any order.
fn set(v: &str) -> Vec<&str> {
    let mut x: Vec<&str> = v.split(',').filter(|e| !e.is_empty() && *e != "none").collect();
    x.sort_unstable();
    x
}

fn joined(v: impl Iterator<Item = String>) -> String {
    let v: Vec<String> = v.collect();
    if v.is_empty() {
        String::from("none")
    } else {
        v.join(",")
    }
}

/// Whether every `KEY=VALUE` of `kvs` holds in `have` (the state's words, in the same spelling):
/// lists compare as sets, the keys in `durations` as durations (`60s` = `60000`).
fn words_hold(have: &[(&str, String)], kvs: &[&str], durations: &[&str]) -> Result<(), String> {
    let got = || have.iter().map(|(k, v)| format!("{k}={v}")).collect::<Vec<_>>().join(" ");
    for kv in kvs {
        let Some((k, v)) = kv.split_once('=') else { return Err(format!("{kv:?} is not KEY=VALUE")) };
        let Some((_, h)) = have.iter().find(|(hk, _)| *hk == k) else {
            return Err(format!("no {k} here (keys: {})", have.iter().map(|(k, _)| *k).collect::<Vec<_>>().join(", ")));
        };
        let same = if durations.contains(&k) {
            let d = |x: &str| match x.strip_prefix('-') {
                Some(x) => crate::model::script::parse_duration(x).map(|n| -n),
                None => crate::model::script::parse_duration(x),
            };
            d(v).is_some() && d(v) == d(h)
        } else if matches!(k, "partitions" | "members" | "static" | "committed" | "pending") {
            set(v) == set(h)
        } else {
            v == h
        };
        if !same {
            return Err(got());
        }
    }
    Ok(())
}

/// `expect txn-state ID KEY=VALUE …`: the coordinator's metadata for a transactional.id, in the
/// set-up line's spelling (pid, epoch, state, partitions, timeout, last-epoch, txn-start,
/// last-update, coordinator-epoch) and the rest of `TransactionMetadata`: pending (the
/// transition in flight), prev-pid, next-pid, tv (the client transaction version). Times are
/// from the script's start. `Err`: what the state is (or why the line cannot be read).
pub fn txn_state_holds(w: &World, id: &str, kvs: &[&str]) -> Result<(), String> {
    if kvs.is_empty() {
        return Err(String::from("usage: expect txn-state ID KEY=VALUE … (pid, epoch, state, pending, partitions, timeout, last-epoch, prev-pid, next-pid, tv, txn-start, last-update, coordinator-epoch)"));
    }
    let Some(m) = w.coordinator.get(id) else { return Err(String::from("no metadata")) };
    let have = [
        ("pid", m.producer_id.to_string()),
        ("epoch", m.producer_epoch.to_string()),
        ("state", m.state.name().to_string()),
        ("pending", m.pending_state.map_or("none", |p| p.name()).to_string()),
        ("partitions", joined(m.partitions.iter().map(|p| p.to_string()))),
        ("timeout", format!("{}ms", m.txn_timeout_ms)),
        ("last-epoch", m.last_producer_epoch.to_string()),
        ("prev-pid", m.prev_producer_id.to_string()),
        ("next-pid", m.next_producer_id.to_string()),
        ("tv", m.client_tv.to_string()),
        ("txn-start", if m.txn_start_ms < 0 { String::from("none") } else { format!("{}ms", m.txn_start_ms - w.start_ms) }),
        ("last-update", format!("{}ms", m.last_update_ms - w.start_ms)),
        ("coordinator-epoch", w.coordinator_epoch.to_string()),
    ];
    words_hold(&have, kvs, &["timeout", "txn-start", "last-update"])
}

/// `expect group G KEY=VALUE …`: the group coordinator's state of a group, in `group-state`'s
/// spelling (generation, members, static, committed) and pending (the transactional offsets
/// waiting for their marker, PART=OFFSET).
pub fn group_holds(w: &World, g: &str, kvs: &[&str]) -> Result<(), String> {
    if kvs.is_empty() {
        return Err(String::from("usage: expect group GROUP KEY=VALUE … (generation, members, static, committed, pending)"));
    }
    let Some(gr) = w.groups.iter().find(|x| x.name == g) else { return Err(format!("no group {g}")) };
    let have = [
        ("generation", gr.generation.to_string()),
        ("members", joined(gr.members.iter().cloned())),
        ("static", joined(gr.static_members.iter().map(|(i, m)| format!("{i}:{m}")))),
        ("committed", joined(gr.committed.iter().map(|(p, o)| format!("{p}={o}")))),
        ("pending", joined(gr.pending.iter().map(|(_, p, o)| format!("{p}={o}")))),
    ];
    words_hold(&have, kvs, &[])
}

