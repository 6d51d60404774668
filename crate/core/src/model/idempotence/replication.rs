//! Replication in the idempotence model (rules S1–S6, the partition's side in
//! `model/partition/replicas.rs`): followers that stop fetching hold the high watermark, so the
//! leader writes a Produce but holds its acks=-1 answer (DelayedProduce) until the HW passes it —
//! or answers REQUEST_TIMED_OUT after the request's timeout, and the producer's retry meets A1; the
//! leader's ISR check drops a follower behind for longer than `replica.lag.time.max.ms`; a failed
//! leader is replaced by the controller's choice, clean or unclean, and the log truncated to it.

use alloc::boxed::Box;
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;
use core::fmt::{self, Write};

use super::{Action, EventKind, Message, ReplicationEvent, Sim, Verdict};
use crate::model::errors::ErrorCode;
use crate::model::partition::{Outcome, REPLICA_LAG_TIME_MAX_MS_DEFAULT};

/// An acks=-1 answer the leader holds until the HW passes the batch.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HeldResponse {
    /// The request it answers.
    pub request: Message,
    pub decision: Verdict,
    pub partition: usize,
    /// The HW it waits for (the batch's last offset + 1).
    pub need: i64,
    /// The Produce request's `timeoutMs` (the producer's `request.timeout.ms`) from its arrival.
    pub deadline_ms: i64,
    pub leader_epoch: i32,
}

/// Replication settings and what is pending.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Settings {
    pub replica_lag_time_max_ms: i64,
    pub unclean_leader_election: bool,
    pub held: Vec<HeldResponse>,
    /// The ISR checks run every `replica.lag.time.max.ms / 2` from `start_ms`, up to `checked_ms`.
    pub start_ms: i64,
    pub checked_ms: i64,
}

impl Settings {
    pub fn new(start_ms: i64) -> Self {
        Settings { replica_lag_time_max_ms: REPLICA_LAG_TIME_MAX_MS_DEFAULT, unclean_leader_election: false, held: Vec::new(), start_ms, checked_ms: start_ms }
    }
}

fn list(v: &[i32]) -> String {
    v.iter().map(|b| format!("{b}")).collect::<Vec<_>>().join(", ")
}

/// The sentence of a replication event.
pub(super) fn write_event(out: &mut impl Write, pname: &str, b: u32, attempt: u32, r: &ReplicationEvent) -> fmt::Result {
    match r {
        ReplicationEvent::Stopped { brokers, at, isr, hw } => write!(
            out,
            "{pname} [S1]: the follower(s) on broker(s) {} stop fetching at offset {at}; while in the ISR [{}] they hold the high watermark ({hw})",
            list(brokers),
            list(isr)
        ),
        ReplicationEvent::CaughtUp { brokers, at, isr, hw } => {
            write!(out, "{pname} [S4]: broker(s) {} fetch up to offset {at} and are in the ISR [{}] again; HW {hw}", list(brokers), list(isr))
        }
        ReplicationEvent::IsrShrink { brokers, max_lag_ms, isr, hw } => write!(
            out,
            "{pname} [S3]: the leader's ISR check finds broker(s) {} behind for more than replica.lag.time.max.ms ({max_lag_ms} ms): out of the ISR, now [{}]; HW {hw}",
            list(brokers),
            list(isr)
        ),
        ReplicationEvent::Elected(e) => {
            write!(
                out,
                "{pname} [{}]: broker {} fails; the controller elects broker {} ({}), leader epoch {}; ",
                if e.unclean { "S5" } else { "S6" },
                e.old_leader,
                e.new_leader,
                if e.unclean { "unclean: it is not in the ISR, unclean.leader.election.enable=true" } else { "the first live replica in the ISR" },
                e.leader_epoch
            )?;
            if e.new_end == e.old_end {
                out.write_str("it holds the whole log")
            } else {
                let acked = (e.old_hw - e.new_end).max(0);
                write!(out, "the log is truncated to its end, {}: offsets {}..{} are gone", e.new_end, e.new_end, e.old_end - 1)?;
                if acked > 0 {
                    write!(out, ", {acked} of them below the old HW {} (acknowledged to acks=all)", e.old_hw)?;
                }
                out.write_str("; the producer state is rebuilt from the log that remains")
            }
        }
        ReplicationEvent::Held { need, hw, duplicate } => write!(
            out,
            "{pname} [S1]: b{b} attempt {attempt} {}, but acks=-1: its answer waits until the high watermark ({hw}) reaches {need} (DelayedProduce)",
            if *duplicate { "was written before" } else { "is written" }
        ),
        ReplicationEvent::Released { code, need, unread } => {
            if *code == ErrorCode::NONE {
                write!(out, "{pname} [S1]: the high watermark reached {need}: the held answer to b{b} attempt {attempt} goes out")?;
            } else if *code == ErrorCode::REQUEST_TIMED_OUT {
                write!(out, "{pname} [S1]: the request's timeout passed before the high watermark reached {need}: the held answer to b{b} attempt {attempt} goes out as REQUEST_TIMED_OUT (the batch stays in the log)")?;
            } else {
                write!(out, "{pname} [S6]: the leader changed while the answer to b{b} attempt {attempt} waited: it goes out as {}", code.name())?;
            }
            if *unread {
                out.write_str("; its connection is closed, so nobody reads it")?;
            }
            Ok(())
        }
    }
}

impl Sim {
    /// The replication actions the step buttons offer for `part` (none with one replica).
    pub(super) fn replication_actions(&self, part: usize, v: &mut Vec<Action>) {
        let p = &self.cluster.partitions[part];
        if p.replicas.followers.is_empty() {
            return;
        }
        for f in &p.replicas.followers {
            if f.fetching && f.alive {
                v.push(Action::Lag { partition: part, broker: Some(f.broker) });
            } else {
                v.push(Action::CatchUp { partition: part, broker: Some(f.broker) });
            }
        }
        if p.electable(self.replication.unclean_leader_election).is_ok() {
            v.push(Action::LeaderFails { partition: part });
        }
    }

    /// Why a replication action cannot be taken now, if it cannot.
    pub(super) fn validate_replication(&self, a: &Action) -> Result<(), String> {
        let (part, broker) = match *a {
            Action::Lag { partition, broker } | Action::CatchUp { partition, broker } => (partition, broker),
            Action::LeaderFails { partition } => {
                return self.cluster.partitions[partition].electable(self.replication.unclean_leader_election).map(|_| ());
            }
            _ => return Ok(()),
        };
        let p = &self.cluster.partitions[part];
        if p.replicas.followers.is_empty() {
            return Err(format!("{} has one replica (set `broker default.replication.factor=N`, N ≥ 2)", p.name));
        }
        if let Some(b) = broker {
            if !p.replicas.followers.iter().any(|f| f.broker == b) {
                return Err(format!("{} has no follower on broker {b} (the leader is on broker {})", p.name, p.replicas.leader));
            }
        }
        Ok(())
    }

    fn isr_state(&self, part: usize) -> (Box<[i32]>, i64) {
        let p = &self.cluster.partitions[part];
        (p.isr().into(), p.high_watermark())
    }

    pub(super) fn handle_lag(&mut self, part: usize, broker: Option<i32>) -> Result<(), String> {
        self.set_fetching(part, broker, false)
    }

    pub(super) fn handle_catch_up(&mut self, part: usize, broker: Option<i32>) -> Result<(), String> {
        self.set_fetching(part, broker, true)
    }

    /// Followers stop fetching (S1) or fetch to the log end again and rejoin the ISR (S4).
    fn set_fetching(&mut self, part: usize, broker: Option<i32>, resume: bool) -> Result<(), String> {
        let now = self.cluster.now_ms;
        let p = &mut self.cluster.partitions[part];
        let brokers: Box<[i32]> = if resume { p.resume_fetching(broker, now)? } else { p.stop_fetching(broker, now)? }.into();
        let at = self.cluster.partitions[part].log_end_offset;
        let (isr, hw) = self.isr_state(part);
        let r = if resume { ReplicationEvent::CaughtUp { brokers, at, isr, hw } } else { ReplicationEvent::Stopped { brokers, at, isr, hw } };
        self.event(EventKind::Replication(Box::new(r)), None, Some(part), None);
        Ok(())
    }

    pub(super) fn handle_leader_fails(&mut self, part: usize) -> Result<(), String> {
        let (unclean, now) = (self.replication.unclean_leader_election, self.cluster.now_ms);
        let e = self.cluster.partitions[part].fail_leader(unclean, now)?;
        self.event(EventKind::Replication(Box::new(ReplicationEvent::Elected(e))), None, Some(part), None);
        Ok(())
    }

    /// After the leader's decision on a request: hold its answer when it is an append (or a
    /// duplicate) that the HW has not passed yet. Returns whether it is held.
    pub(super) fn maybe_hold(&mut self, m: &Message, decision: Verdict, part: usize) -> bool {
        let last = match decision.outcome() {
            Outcome::Appended { last_offset, .. } | Outcome::Duplicate { last_offset, .. } => last_offset,
            Outcome::Rejected(_) => return false,
        };
        let p = &self.cluster.partitions[part];
        if p.replicas.followers.is_empty() || p.high_watermark() > last {
            return false;
        }
        let (need, hw, leader_epoch) = (last + 1, p.high_watermark(), p.leader_epoch);
        let timeout = self.batches.get(m.batch.wrapping_sub(1)).and_then(|b| self.producers.get(b.producer)).map_or(30_000, |p| p.config.request_timeout_ms);
        let producer = self.batches[m.batch - 1].producer;
        self.replication.held.push(HeldResponse { request: m.clone(), decision, partition: part, need, deadline_ms: self.cluster.now_ms + timeout, leader_epoch });
        let duplicate = matches!(decision.outcome(), Outcome::Duplicate { .. });
        self.event(EventKind::Replication(Box::new(ReplicationEvent::Held { need, hw, duplicate })), Some(producer), Some(part), Some(m.batch));
        self.tag(m.attempt, false, m.conn);
        true
    }

    /// After every step: the leaders' ISR checks due by now (S3), and the held answers whose HW
    /// came, whose leader changed (NOT_LEADER_OR_FOLLOWER) or whose timeout passed
    /// (REQUEST_TIMED_OUT), in time order.
    pub(super) fn settle_replication(&mut self) {
        if self.replication.held.is_empty() && self.cluster.partitions.iter().all(|p| p.replicas.followers.is_empty()) {
            self.replication.checked_ms = self.cluster.now_ms;
            return;
        }
        let max_lag = self.replication.replica_lag_time_max_ms.max(1);
        let iv = (max_lag / 2).max(1);
        let start = self.replication.start_ms;
        let now = self.cluster.now_ms;
        let mut t = start + ((self.replication.checked_ms.max(start) - start) / iv + 1) * iv;
        self.release_held(None);
        while t <= now {
            self.release_held(Some(t));
            self.shrink_isrs(t, max_lag);
            self.release_held(None);
            t += iv;
        }
        self.replication.checked_ms = now;
        self.release_held(Some(now));
    }

    /// S3 now, off its schedule (`run-task isr-expiration`): every leader drops the followers
    /// not caught up for `replica.lag.time.max.ms`; the answers that can go then go (the
    /// step's settling sends those whose timeout passed).
    pub(super) fn isr_check_now(&mut self) {
        let max_lag = self.replication.replica_lag_time_max_ms.max(1);
        self.shrink_isrs(self.cluster.now_ms, max_lag);
        self.release_held(None);
    }

    /// Every leader's ISR check at time `t` (S3), each follower it drops an event.
    fn shrink_isrs(&mut self, t: i64, max_lag: i64) {
        for q in 0..self.cluster.partitions.len() {
            let out = self.cluster.partitions[q].shrink_isr(t, max_lag);
            if !out.is_empty() {
                let (isr, hw) = self.isr_state(q);
                self.event(EventKind::Replication(Box::new(ReplicationEvent::IsrShrink { brokers: out.into(), max_lag_ms: max_lag, isr, hw })), None, Some(q), None);
            }
        }
    }

    /// Send the held answers that can go: the HW reached (NONE), the leader changed
    /// (NOT_LEADER_OR_FOLLOWER), or — with `expire_at` — the deadline passed (REQUEST_TIMED_OUT).
    pub(crate) fn release_held(&mut self, expire_at: Option<i64>) {
        let mut k = 0;
        while k < self.replication.held.len() {
            let h = &self.replication.held[k];
            let p = &self.cluster.partitions[h.partition];
            let verdict = if p.leader_epoch != h.leader_epoch {
                Some(Verdict::NotLeader)
            } else if p.high_watermark() >= h.need {
                Some(h.decision)
            } else if expire_at.is_some_and(|t| h.deadline_ms <= t) {
                Some(Verdict::ReplicationTimeout { need: h.need })
            } else {
                None
            };
            let Some(v) = verdict else {
                k += 1;
                continue;
            };
            let h = self.replication.held.remove(k);
            let producer = self.batches[h.request.batch - 1].producer;
            let unread = self.dead_conns.contains(&h.request.conn);
            self.event(EventKind::Replication(Box::new(ReplicationEvent::Released { code: v.error(), need: h.need, unread })), Some(producer), Some(h.partition), Some(h.request.batch));
            self.tag(h.request.attempt, false, h.request.conn);
            self.respond(&h.request, v, h.partition);
        }
    }
}
