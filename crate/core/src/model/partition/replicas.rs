//! A partition's replicas: the followers behind the leader, the high watermark they hold, the
//! ISR that shrinks when one falls behind, and the election that moves leadership — clean (an
//! ISR replica) or unclean (`unclean.leader.election.enable`) — with the log truncated to the
//! new leader's end and its producer state rebuilt from what remains.
//!
//! Kafka 4.3.1, as read in its code:
//! - S1, the high watermark is the smallest log end offset of the ISR, the leader's included
//!   (`Partition.maybeIncrementLeaderHW`; a follower out of the ISR does not hold it).
//! - S2, the last stable offset waits for the markers too: a transaction whose marker is
//!   above the HW is still unstable (`ProducerStateManager.unreplicatedTxns`, removed by
//!   `onHighWatermarkUpdated` once the HW passes the marker; `firstUnstableOffset`).
//! - S3, a follower leaves the ISR when it is not caught up — its log end is not the leader's
//!   and it last caught up more than `replica.lag.time.max.ms` ago (`Replica.isCaughtUp`,
//!   `Partition.getOutOfSyncReplicas`) — at the leader's periodic check (`ReplicaManager`'s
//!   `isr-expiration` task, every `replica.lag.time.max.ms / 2`).
//! - S4, a follower that fetches up to the leader's log end rejoins the ISR
//!   (`Partition.maybeExpandIsr`).
//! - S5, when the leader fails, the controller elects the first replica of the assignment that
//!   is in the ISR and alive (`PartitionChangeBuilder.electLeader`); with none, the first live
//!   replica if `unclean.leader.election.enable` is set (its ISR is then itself alone), else the
//!   partition has no leader.
//! - S6, the new leader's log is the truth: the other replicas truncate to it; its producer
//!   state is what its own log built (`UnifiedLog.truncateTo` → `rebuildProducerState`), the
//!   transaction index keeps only the entries below the end (`TransactionIndex.truncateTo`), and
//!   the old leader's verification entries were in its memory only.
//!
//! S1–S6 in the rule catalogue are this model's ids for replication, in a letter the other families
//! does not use for anything else. `min.insync.replicas` is Kafka's default, 1: the leader alone
//! is always enough, so NOT_ENOUGH_REPLICAS never applies.

use alloc::boxed::Box;
use alloc::collections::BTreeMap;
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use super::{BatchMetadata, Partition, ProducerStateEntry};
use crate::batch::Batch;

/// Kafka's default `replica.lag.time.max.ms`.
pub const REPLICA_LAG_TIME_MAX_MS_DEFAULT: i64 = 30_000;

/// The broker the first leader is on; followers are on the next ones (the assignment order).
pub const FIRST_BROKER: i32 = 1;

/// One replica that is not the leader.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Follower {
    pub broker: i32,
    /// Fetching from the leader: replication is instant in the model, so its log end is the
    /// leader's. Not fetching (`lag`, or its broker down): `leo` is where its log stopped.
    pub fetching: bool,
    pub leo: i64,
    pub in_isr: bool,
    /// Its broker is up (a failed leader's broker is down until it returns).
    pub alive: bool,
    /// When it last had the leader's whole log (`Replica.lastCaughtUpTimeMs`).
    pub caught_up_ms: i64,
    /// Not fetching, and its log holds offsets past the current leader's end written in an
    /// older leader epoch (it truncates them when it fetches again). The model keeps one log,
    /// so it does not elect such a replica: it must fetch first.
    pub diverged: bool,
}

impl Follower {
    /// Its log end offset, the leader's being `leader_leo`.
    pub fn log_end(&self, leader_leo: i64) -> i64 {
        if self.fetching {
            leader_leo
        } else {
            self.leo
        }
    }
}

/// The replicas of a partition besides its leader, and what replication holds back.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Replicas {
    /// The leader's broker (0 for a partition with no replicas set: the model's single leader).
    pub leader: i32,
    pub followers: Vec<Follower>,
    /// Completed transactions whose marker is at or above the HW: first offset → marker offset
    /// (`ProducerStateManager.unreplicatedTxns`, S2).
    pub unreplicated: BTreeMap<i64, i64>,
    /// The state given rather than replayed (`producer-state` lines), from which the producer
    /// state is rebuilt on an election (a broker loads its latest snapshot, then replays).
    pub snapshot: Option<Box<Partition>>,
}

/// What an election did (S5, S6).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Election {
    pub old_leader: i32,
    pub new_leader: i32,
    pub unclean: bool,
    pub leader_epoch: i32,
    /// The log end before and after: the offsets `[new_end, old_end)` are gone.
    pub old_end: i64,
    pub new_end: i64,
    /// The high watermark before the election (acks=all answers went out below it).
    pub old_hw: i64,
}

impl Partition {
    /// Keep the state as it is now as the one an election's rebuild starts from (after
    /// `producer-state` lines: a broker loads its latest snapshot, then replays the log).
    pub fn keep_snapshot(&mut self) {
        let replicas = core::mem::take(&mut self.replicas);
        let snapshot = self.clone();
        self.replicas = Replicas { snapshot: Some(Box::new(snapshot)), ..replicas };
    }

    /// `replication.factor` replicas on brokers 1.., the leader on broker 1, every follower in
    /// the ISR and fetching.
    pub fn set_replication_factor(&mut self, factor: usize, now_ms: i64) {
        let leo = self.log_end_offset;
        self.replicas.leader = FIRST_BROKER;
        self.replicas.followers = (1..factor as i32)
            .map(|k| Follower { broker: FIRST_BROKER + k, fetching: true, leo, in_isr: true, alive: true, caught_up_ms: now_ms, diverged: false })
            .collect();
    }

    /// The ISR in the order Kafka 4.3 stores it (and Metadata and `kafka-topics --describe`
    /// show it): ascending broker ids. At creation it is the assignment's order (brokers 1..N
    /// here); a leader's AlterPartition sends it from a `java.util.HashSet` (`PendingExpandIsr` /
    /// `PendingShrinkIsr.maximalIsr`), whose iteration order for broker ids below 16 is
    /// ascending; the controller keeps the order it is sent (`PartitionChangeBuilder
    /// .setTargetIsr`) and removes a broker in place. So a follower that rejoins behind a new
    /// leader is listed before it when its id is lower: `1,2` under leader 2, as a 4.3.1
    /// cluster answers (tests/kafka/replication.py), not leader first.
    pub fn isr(&self) -> Vec<i32> {
        let mut v = Vec::with_capacity(1 + self.replicas.followers.len());
        v.push(self.replicas.leader);
        v.extend(self.replicas.followers.iter().filter(|f| f.in_isr).map(|f| f.broker));
        v.sort_unstable();
        v
    }

    /// S1: the smallest log end offset in the ISR.
    pub(super) fn isr_high_watermark(&self) -> i64 {
        let leo = self.log_end_offset;
        self.replicas.followers.iter().filter(|f| f.in_isr).map(|f| f.log_end(leo).min(leo)).fold(leo, i64::min)
    }

    /// S2: the first offset of a completed transaction whose marker the HW has not passed.
    pub(super) fn first_unreplicated(&self, hw: i64) -> Option<i64> {
        self.replicas.unreplicated.iter().filter(|(_, &marker)| marker >= hw).map(|(&first, _)| first).min()
    }

    /// After a marker at `offset` closed a transaction from `first` (S2).
    pub(super) fn note_completed_txn(&mut self, first: i64, offset: i64) {
        if self.replicas.followers.is_empty() {
            return;
        }
        let hw = self.isr_high_watermark();
        self.replicas.unreplicated.retain(|_, m| *m >= hw);
        if offset >= hw {
            self.replicas.unreplicated.insert(first, offset);
        }
    }

    fn follower_mut(&mut self, broker: i32) -> Result<&mut Follower, String> {
        let leader = self.replicas.leader;
        let name = self.name.clone();
        let brokers: Vec<i32> = self.replicas.followers.iter().map(|f| f.broker).collect();
        self.replicas.followers.iter_mut().find(|f| f.broker == broker).ok_or_else(|| {
            if broker == leader {
                format!("broker {broker} is {name}'s leader, not a follower")
            } else {
                format!("{name} has no follower on broker {broker} (followers: {})", list(&brokers))
            }
        })
    }

    /// The followers named (`None`: all of them), checked.
    fn brokers_or_all(&self, broker: Option<i32>) -> Result<Vec<i32>, String> {
        if self.replicas.followers.is_empty() {
            return Err(format!("{} has one replica (set `cluster default.replication.factor=N`, N ≥ 2, for followers)", self.name));
        }
        Ok(match broker {
            Some(b) => alloc::vec![b],
            None => self.replicas.followers.iter().map(|f| f.broker).collect(),
        })
    }

    /// A follower stops fetching (a slow disk, a network partition): its log end stays where
    /// it is. Returns the brokers that stopped.
    pub fn stop_fetching(&mut self, broker: Option<i32>, now_ms: i64) -> Result<Vec<i32>, String> {
        let leo = self.log_end_offset;
        let mut out = Vec::new();
        for b in self.brokers_or_all(broker)? {
            let f = self.follower_mut(b)?;
            if f.fetching {
                f.fetching = false;
                f.leo = leo;
                f.caught_up_ms = now_ms;
                out.push(b);
            }
        }
        Ok(out)
    }

    /// Followers fetch again up to the leader's log end (a returning broker first truncates to
    /// the leader's log, S6) and rejoin the ISR (S4). Returns the brokers that came back.
    pub fn resume_fetching(&mut self, broker: Option<i32>, now_ms: i64) -> Result<Vec<i32>, String> {
        let leo = self.log_end_offset;
        let mut out = Vec::new();
        for b in self.brokers_or_all(broker)? {
            let f = self.follower_mut(b)?;
            if !f.fetching || !f.in_isr || !f.alive {
                *f = Follower { broker: b, fetching: true, leo, in_isr: true, alive: true, caught_up_ms: now_ms, diverged: false };
                out.push(b);
            }
        }
        let hw = self.isr_high_watermark();
        self.replicas.unreplicated.retain(|_, m| *m >= hw);
        Ok(out)
    }

    /// S3 at one check at `now_ms`: the followers not caught up for more than `max_lag_ms`
    /// leave the ISR. Returns them.
    pub fn shrink_isr(&mut self, now_ms: i64, max_lag_ms: i64) -> Vec<i32> {
        let leo = self.log_end_offset;
        let mut out = Vec::new();
        for f in self.replicas.followers.iter_mut().filter(|f| f.in_isr) {
            let caught_up = f.log_end(leo) == leo || now_ms - f.caught_up_ms <= max_lag_ms;
            if !caught_up {
                f.in_isr = false;
                out.push(f.broker);
            }
        }
        if !out.is_empty() {
            let hw = self.isr_high_watermark();
            self.replicas.unreplicated.retain(|_, m| *m >= hw);
        }
        out
    }

    /// S5: the replica the controller elects when the leader's broker fails (`Ok((broker,
    /// unclean))`), or why the partition has no leader.
    pub fn electable(&self, unclean_allowed: bool) -> Result<(i32, bool), String> {
        if self.replicas.followers.is_empty() {
            return Err(format!("{} has one replica: when its broker fails the partition has no leader until it returns (set `cluster default.replication.factor=N`)", self.name));
        }
        let live = || self.replicas.followers.iter().filter(|f| f.alive);
        let pick = match live().find(|f| f.in_isr) {
            Some(f) => Some((f, false)),
            None => live().next().filter(|_| unclean_allowed).map(|f| (f, true)),
        };
        if let Some((f, _)) = pick.filter(|(f, _)| f.diverged) {
            return Err(format!(
                "the controller would elect broker {} for {}, whose log still holds offsets {}.. of an older leader epoch; the model keeps one log: let it fetch first (`catch-up {} broker={}`)",
                f.broker, self.name, self.log_end_offset, self.name, f.broker
            ));
        }
        if let Some((f, unclean)) = pick {
            return Ok((f.broker, unclean));
        }
        match live().next() {
            Some(_) => Err(format!(
                "no replica of {} in the ISR is alive (ISR: {}): with unclean.leader.election.enable=false (Kafka's default) the partition has no leader until one returns; `cluster unclean.leader.election.enable=true` lets the controller elect an out-of-sync replica (S5)",
                self.name,
                list(&self.isr())
            )),
            None => Err(format!("no replica of {} is alive: the partition has no leader", self.name)),
        }
    }

    /// S5 + S6: the leader's broker fails and the controller elects; the log is truncated to
    /// the new leader's end, the producer state rebuilt from what remains, the leader epoch
    /// bumped. The old leader's broker is down (`resume_fetching` brings it back).
    pub fn fail_leader(&mut self, unclean_allowed: bool, now_ms: i64) -> Result<Election, String> {
        let (new_leader, unclean) = self.electable(unclean_allowed)?;
        let old_end = self.log_end_offset;
        let old_hw = self.high_watermark();
        let k = self.replicas.followers.iter().position(|f| f.broker == new_leader).unwrap_or(0);
        let chosen = self.replicas.followers.remove(k);
        let new_end = chosen.log_end(old_end);
        self.truncate_to(new_end)?;
        let old_leader = self.replicas.leader;
        self.replicas.leader = new_leader;
        self.replicas.followers.push(Follower { broker: old_leader, fetching: false, leo: old_end, in_isr: false, alive: false, caught_up_ms: now_ms, diverged: old_end > new_end });
        self.replicas.followers.sort_by_key(|f| f.broker);
        if unclean {
            for f in &mut self.replicas.followers {
                f.in_isr = false;
            }
        }
        // The followers still fetching now follow the new leader's log (they truncate to it).
        let leo = self.log_end_offset;
        for f in &mut self.replicas.followers {
            if !f.fetching && f.leo > leo {
                f.diverged = true;
            }
        }
        self.leader_epoch += 1;
        self.verifications.clear();
        let hw = self.isr_high_watermark();
        self.replicas.unreplicated.retain(|_, m| *m < leo && *m >= hw);
        Ok(Election { old_leader, new_leader, unclean, leader_epoch: self.leader_epoch, old_end, new_end, old_hw })
    }

    /// S6: the log from `end` on is gone and the producer state is the one the remaining log
    /// builds — from the given state (the `producer-state` lines) on, the batches replayed as a
    /// follower appends them (`ProducerAppendInfo` with origin REPLICATION: nothing refused).
    pub fn truncate_to(&mut self, end: i64) -> Result<(), String> {
        if end >= self.log_end_offset {
            return Ok(());
        }
        let snapshot = self.replicas.snapshot.clone();
        let base = match self.replicas.snapshot.as_deref() {
            Some(s) => s.clone(),
            None => {
                let mut p = Partition::new(self.name.clone());
                p.producer_id_expiration_ms = self.producer_id_expiration_ms;
                p
            }
        };
        if end < base.log_end_offset {
            return Err(format!("{}: the new leader's log ends at {end}, below the producer state the scenario gave (up to offset {}), which the model cannot rebuild", self.name, base.log_end_offset));
        }
        let from = base.log_end_offset;
        let log = core::mem::take(&mut self.log);
        let replicas = core::mem::take(&mut self.replicas);
        let kept_aborted: Vec<_> = self.aborted_txns.iter().copied().filter(|a| a.last_offset < end).collect();
        let (expired, leader_epoch) = (core::mem::take(&mut self.expired), self.leader_epoch);
        *self = base;
        self.leader_epoch = leader_epoch;
        self.replicas = replicas;
        self.replicas.snapshot = None;
        let mut kept = Vec::new();
        for e in log {
            if e.base_offset >= end {
                break;
            }
            if e.base_offset >= from {
                self.replay(&e.bytes, e.base_offset);
            }
            kept.push(e);
        }
        self.log = kept;
        self.log_end_offset = self.log_end_offset.max(end);
        self.aborted_txns = kept_aborted;
        // X2 still answers for a producer id whose state expiry removed and that the remaining
        // log does not bring back.
        self.expired = expired.into_iter().filter(|p| !self.producers.contains_key(p)).collect();
        // The next rebuild starts from the same given state (a broker's own snapshots below the
        // end stay; the model keeps only the scenario's).
        self.replicas.snapshot = snapshot;
        Ok(())
    }

    /// One stored batch applied to the producer state as a follower (or a broker loading its
    /// log) applies it: `ProducerAppendInfo.append` / `appendEndTxnMarker` with origin
    /// REPLICATION, which checks nothing.
    fn replay(&mut self, bytes: &[u8], base_offset: i64) {
        let Ok(b) = Batch::new_checked(bytes) else { return };
        let h = crate::batch::HeaderRepr::parse(&b);
        let last_offset = base_offset + h.last_offset_delta as i64;
        self.log_end_offset = last_offset + 1;
        let pid = h.producer_id;
        if pid < 0 {
            return;
        }
        if h.attributes.is_control() {
            let mut scratch = Vec::new();
            let control = match crate::view::entries(bytes).next() {
                Some(Ok(crate::view::Entry::V2(v))) => v
                    .records(&mut scratch, 1 << 20)
                    .ok()
                    .and_then(|mut r| r.next())
                    .and_then(Result::ok)
                    .and_then(|rec| crate::control::parse(rec.key, rec.value).ok()),
                _ => None,
            };
            let coordinator_epoch = control.and_then(|c| c.coordinator_epoch).unwrap_or(-1);
            let s = self.producers.entry(pid).or_insert_with(ProducerStateEntry::empty);
            if let Some(first) = s.current_txn_first_offset.take() {
                self.ongoing_txns.remove(&first);
            }
            if s.producer_epoch != h.producer_epoch {
                s.batches.clear();
                s.producer_epoch = h.producer_epoch;
            }
            s.coordinator_epoch = coordinator_epoch;
            s.last_timestamp = h.max_timestamp;
            return;
        }
        let s = self.producers.entry(pid).or_insert_with(ProducerStateEntry::empty);
        if h.base_sequence >= 0 {
            let meta = BatchMetadata { last_seq: b.last_sequence(), last_offset, offset_delta: h.last_offset_delta, timestamp: h.max_timestamp };
            s.add_batch(h.producer_epoch, meta);
        } else if s.producer_epoch != h.producer_epoch {
            s.batches.clear();
            s.producer_epoch = h.producer_epoch;
        }
        if h.attributes.is_transactional() && s.current_txn_first_offset.is_none() {
            s.current_txn_first_offset = Some(base_offset);
            self.ongoing_txns.insert(base_offset, pid);
        }
    }
}

fn list(v: &[i32]) -> String {
    v.iter().map(|b| format!("{b}")).collect::<Vec<_>>().join(", ")
}
