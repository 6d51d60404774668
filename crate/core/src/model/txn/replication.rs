//! Replication faults on the transactions model's data partitions: followers that
//! stop fetching and so hold the high watermark and the LSO, the ISR that drops them on the
//! leader's periodic check, a leader that fails — a clean or an unclean election, the log
//! truncated and the producer state rebuilt — and the acks=-1 Produce answers that wait for
//! the HW meanwhile. The partition's side (rules S1–S6) is [`super::Partition`]'s
//! (`model/partition/replicas.rs`); here are the steps, their timeline and the held answers.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use super::{ErrorCode, Name, Reply, World};
use crate::model::kafka_source::{DELAYED_PRODUCE, PARTITION_CHANGE_BUILDER, PARTITION_HW};

/// The `timeoutMs` of the Produce requests the script sends (the Java client's
/// `request.timeout.ms` default): how long a held acks=-1 answer waits (DelayedProduce).
pub const PRODUCE_TIMEOUT_MS: i64 = 30_000;

/// The Java client's `delivery.timeout.ms` default: a batch not acknowledged within it fails.
pub const DELIVERY_TIMEOUT_MS: i64 = 120_000;

/// A Java transactional client's batch that is written but not acknowledged: acks=all waits for
/// the HW to pass `need`. The client resends it (same sequence; a duplicate, A1) when its request
/// times out, to a new leader after an election, and gives up after `delivery.timeout.ms`.
#[derive(Clone, Debug)]
pub struct Unacked {
    pub partition: usize,
    pub need: i64,
    pub leader_epoch: i32,
    pub sent_ms: i64,
    pub bytes: Vec<u8>,
    pub op: super::SupportedOperation,
    pub txn: usize,
    pub values: Vec<String>,
}

/// An acks=-1 Produce answer the leader holds until the HW passes the batch (DelayedProduce).
#[derive(Clone, Debug)]
pub struct HeldAnswer {
    pub id: u64,
    pub partition: usize,
    /// The HW the answer waits for (the batch's last offset + 1).
    pub need: i64,
    pub deadline_ms: i64,
    /// The leader epoch it was appended in: another leader answers NOT_LEADER_OR_FOLLOWER.
    pub leader_epoch: i32,
    pub reply: Reply,
    pub lane: Name,
}

/// A coordinator's marker written above the HW: the coordinator hears its answer once the HW
/// passes it (DelayedProduce); a timeout or a new leader makes it send the marker again (K4).
#[derive(Clone, Debug)]
pub struct HeldMarker {
    pub marker: super::MarkerReq,
    pub partition: usize,
    pub need: i64,
    pub deadline_ms: i64,
    pub leader_epoch: i32,
}

impl World {
    pub(super) fn hold_marker(&mut self, marker: super::MarkerReq, pi: usize, need: i64, msgs_before: usize) {
        let lane = self.partition_lane(&self.idem.cluster.partitions[pi].name.clone());
        let note = format!(" — held: acks=-1, the coordinator's answer waits until the HW reaches {need} (DelayedProduce); the transaction stays in {} until then", if marker.commit { "PrepareCommit" } else { "PrepareAbort" });
        let from = msgs_before.min(self.messages.len());
        for m in self.messages[from..].iter_mut().filter(|m| m.kind == "response" && m.to == super::COORD_LANE) {
            m.to = lane.clone();
            m.kind = "held";
            m.text.push_str(&note);
        }
        let (deadline_ms, leader_epoch) = (self.idem.cluster.now_ms + PRODUCE_TIMEOUT_MS, self.idem.cluster.partitions[pi].leader_epoch);
        self.held_markers.push(HeldMarker { marker, partition: pi, need, deadline_ms, leader_epoch });
    }

    /// Held markers answered (`Some(error)`) at time `t`: NONE once the HW passes, else
    /// NOT_LEADER_OR_FOLLOWER after an election, REQUEST_TIMED_OUT past the deadline — both
    /// retried by the coordinator (K4: the marker is queued again).
    fn answer_held_markers(&mut self, t: i64, expire: bool) {
        let mut k = 0;
        while k < self.held_markers.len() {
            let h = &self.held_markers[k];
            let p = &self.idem.cluster.partitions[h.partition];
            let e = if p.leader_epoch != h.leader_epoch {
                Some(ErrorCode::NOT_LEADER_OR_FOLLOWER)
            } else if p.high_watermark() >= h.need {
                Some(ErrorCode::NONE)
            } else if expire && h.deadline_ms <= t {
                Some(ErrorCode::REQUEST_TIMED_OUT)
            } else {
                None
            };
            let Some(e) = e else {
                k += 1;
                continue;
            };
            let h = self.held_markers.remove(k);
            let lane = self.partition_lane(&self.idem.cluster.partitions[h.partition].name.clone());
            let m = h.marker;
            if e == ErrorCode::NONE {
                msg_rule!(self, lane, super::COORD_LANE, "response", format!("WriteTxnMarkers response NONE for {}: the HW reached {}", m.partition, h.need), "K4", DELAYED_PRODUCE, e);
                self.maybe_complete(m.transactional_id.clone().as_str(), m.txn);
            } else {
                msg_rule!(self, lane, super::COORD_LANE, "response", format!("WriteTxnMarkers response {e} for {}: the coordinator sends the marker again (K4)", m.partition), "K4", DELAYED_PRODUCE, e);
                self.markers.push(m);
            }
        }
    }

    /// A consumer whose position the election of `elected` would truncate past: not modelled
    /// (its next fetch would be OFFSET_OUT_OF_RANGE and auto.offset.reset would decide).
    fn truncation_passes_consumer(&self, pi: usize, elected: i32) -> Option<String> {
        let p = &self.idem.cluster.partitions[pi];
        let end = p.replicas.followers.iter().find(|f| f.broker == elected)?.log_end(p.log_end_offset);
        let c = self.consumers.iter().find(|c| c.positions.get(p.name.as_str()).is_some_and(|&o| o > end))?;
        Some(format!("consumer {}'s position on {} is past the new leader's log end {end}: what its next fetch meets (OFFSET_OUT_OF_RANGE, auto.offset.reset) is not modelled", c.name, p.name))
    }

    fn need_replicas(&self, pi: usize, step: &str) -> Result<(), String> {
        if step == "leader-fails" {
            if let Ok((elected, _)) = self.idem.cluster.partitions[pi].electable(self.cluster.unclean_leader_election) {
                if let Some(why) = self.truncation_passes_consumer(pi, elected) {
                    return Err(format!("{step}: {why}"));
                }
            }
        }
        if self.idem.cluster.partitions[pi].replicas.followers.is_empty() {
            return Err(format!("{step}: {} has one replica (set `cluster default.replication.factor=N`, N ≥ 2)", self.idem.cluster.partitions[pi].name));
        }
        Ok(())
    }

    /// The replication faults a step button offers now, as script lines: a fetching follower
    /// stops, a stopped or failed one catches up, the leader fails when the controller can elect.
    pub fn replication_next_lines(&self) -> Vec<(String, String)> {
        let mut out = Vec::new();
        for (pi, p) in self.idem.cluster.partitions.iter().enumerate() {
            for f in &p.replicas.followers {
                if f.fetching && f.alive {
                    out.push((format!("{}: the follower on broker {} stops fetching", p.name, f.broker), format!("lag {} broker={}", p.name, f.broker)));
                } else {
                    out.push((format!("{}: broker {} catches up", p.name, f.broker), format!("catch-up {} broker={}", p.name, f.broker)));
                }
            }
            // The controller can elect (so the partition has followers), and no consumer is past the new end.
            if p.electable(self.cluster.unclean_leader_election).is_ok_and(|(elected, _)| self.truncation_passes_consumer(pi, elected).is_none()) {
                out.push((format!("{}: the leader's broker fails", p.name), format!("leader-fails {}", p.name)));
            }
        }
        out
    }

    fn replicas_line(&self, pi: usize) -> String {
        let p = &self.idem.cluster.partitions[pi];
        format!("leader broker {}, ISR [{}], HW {}, LSO {}, LEO {}", p.replicas.leader, p.isr().iter().map(|b| format!("{b}")).collect::<Vec<_>>().join(", "), p.high_watermark(), p.last_stable_offset(), p.log_end_offset)
    }

    /// `lag PART [broker=B]`: that follower (every follower) stops fetching.
    pub fn lag(&mut self, partition: &str, broker: Option<i32>) -> Result<(), String> {
        self.set_fetching(partition, broker, false)
    }

    /// `catch-up PART [broker=B]`: the follower(s) fetch up to the log end and rejoin the ISR.
    pub fn catch_up(&mut self, partition: &str, broker: Option<i32>) -> Result<(), String> {
        self.set_fetching(partition, broker, true)
    }

    /// [`World::lag`] (`resume` false, S1) and [`World::catch_up`] (`resume` true, S4).
    fn set_fetching(&mut self, partition: &str, broker: Option<i32>, resume: bool) -> Result<(), String> {
        let pi = self.partition_index(partition)?;
        self.need_replicas(pi, if resume { "catch-up" } else { "lag" })?;
        let now = self.idem.cluster.now_ms;
        let p = &mut self.idem.cluster.partitions[pi];
        let brokers = if resume { p.resume_fetching(broker, now)? } else { p.stop_fetching(broker, now)? };
        let (lane, state, leo) = (self.partition_lane(partition), self.replicas_line(pi), self.idem.cluster.partitions[pi].log_end_offset);
        let (text, rule, said) = if resume {
            (format!("broker(s) {} fetch up to offset {leo} and are in the ISR again; {state}", join(&brokers)), "S4", format!("{partition}: broker(s) {} catch up and rejoin the ISR (S4); the HW and the LSO move on", join(&brokers)))
        } else {
            (
                format!("followers on broker(s) {} stop fetching at offset {leo}: the HW stays at the slowest in-sync replica's log end; {state}", join(&brokers)),
                "S1",
                format!("{partition}: the follower(s) on broker(s) {} stop fetching; while they are in the ISR the high watermark cannot pass their log end (S1)", join(&brokers)),
            )
        };
        msg_rule!(self, lane.clone(), lane, "replication", text, rule, PARTITION_HW, ErrorCode::NONE);
        say!(self, said);
        if resume {
            self.release_held();
        }
        Ok(())
    }

    /// `leader-fails PART`: the leader's broker fails; the controller elects (S5) and the log is
    /// truncated to the new leader's end, its producer state rebuilt (S6).
    pub fn leader_fails(&mut self, partition: &str) -> Result<(), String> {
        let pi = self.partition_index(partition)?;
        self.need_replicas(pi, "leader-fails")?;
        let (now, unclean) = (self.idem.cluster.now_ms, self.cluster.unclean_leader_election);
        let e = self.idem.cluster.partitions[pi].fail_leader(unclean, now)?;
        let lane = self.partition_lane(partition);
        let lost = e.old_end - e.new_end;
        let acked_lost = (e.old_hw - e.new_end).max(0);
        let what = if lost == 0 {
            String::from("it holds the whole log: nothing is truncated")
        } else if acked_lost > 0 {
            format!("its log ends at {}: offsets {}..{} are gone, {} of them below the old HW {} — acknowledged to acks=all producers", e.new_end, e.new_end, e.old_end - 1, acked_lost, e.old_hw)
        } else {
            format!("its log ends at {}: offsets {}..{} (above the HW, never acknowledged to acks=all) are gone", e.new_end, e.new_end, e.old_end - 1)
        };
        let state = self.replicas_line(pi);
        msg_rule!(
            self,
            lane.clone(),
            lane.clone(),
            "replication",
            format!(
                "broker {} fails; the controller elects broker {} ({}), leader epoch {}; {what}; the producer state is rebuilt from the log that remains; {state}",
                e.old_leader,
                e.new_leader,
                if e.unclean { "unclean: not in the ISR, unclean.leader.election.enable=true" } else { "the first live replica in the ISR" },
                e.leader_epoch
            ),
            if e.unclean { "S5" } else { "S6" },
            PARTITION_CHANGE_BUILDER,
            ErrorCode::NONE
        );
        self.truncate_records(pi, e.new_end);
        say!(self, format!("{partition}: broker {} is the leader now{}; {what}", e.new_leader, if e.unclean { " by an unclean election" } else { "" }));
        self.release_held();
        Ok(())
    }

    /// The timeline's records of partition `pi` from `end` on are gone (truncated).
    fn truncate_records(&mut self, pi: usize, end: i64) {
        let (name, _) = self.partition_names(pi);
        let step = self.step;
        for r in self.records.iter_mut().filter(|r| r.partition == name && r.offset >= end && r.truncated_at.is_none()) {
            r.truncated_at = Some(step);
        }
        if let Some(ix) = self.data_index.get_mut(name.as_str()) {
            ix.retain(|(o, _)| *o < end);
        }
    }

    /// S3: the leader's ISR checks between the previous `advance` and now (every
    /// `replica.lag.time.max.ms / 2` from the start), each with the held answers that expired
    /// before it.
    pub(super) fn check_isr(&mut self) {
        if self.idem.cluster.partitions.iter().all(|p| p.replicas.followers.is_empty()) {
            return;
        }
        let max_lag = self.cluster.replica_lag_time_max_ms.max(1);
        let iv = (max_lag / 2).max(1);
        let (start, now) = (self.start_ms, self.idem.cluster.now_ms);
        let mut t = start + ((self.isr_checks_done.max(start) - start) / iv + 1) * iv;
        while t <= now {
            self.expire_held(t);
            self.isr_check(t);
            t += iv;
        }
        self.isr_checks_done = now;
        self.expire_held(now);
    }

    /// S3 at time `t` on every leader (ReplicaManager's "isr-expiration" task), then the held
    /// answers the new HW releases.
    pub(super) fn isr_check(&mut self, t: i64) {
        let max_lag = self.cluster.replica_lag_time_max_ms.max(1);
        let start = self.start_ms;
        for pi in 0..self.idem.cluster.partitions.len() {
            let out = self.idem.cluster.partitions[pi].shrink_isr(t, max_lag);
            if !out.is_empty() {
                let lane = self.partition_lane(&self.idem.cluster.partitions[pi].name.clone());
                let state = self.replicas_line(pi);
                msg_rule!(self, lane.clone(), lane, "replication", format!("at +{} ms the leader's ISR check finds broker(s) {} more than replica.lag.time.max.ms={max_lag} behind: out of the ISR (AlterPartition); {state}", t - start, join(&out)), "S3", PARTITION_HW, ErrorCode::NONE);
                say!(self, format!("{}: broker(s) {} leave the ISR (S3); the HW moves to the log end of the replicas left in it", self.idem.cluster.partitions[pi].name, join(&out)));
            }
        }
        self.release_held();
    }

    /// An appended Produce whose batch is above the HW: its acks=-1 answer is held
    /// (DelayedProduce) — the leader's decision is made and the batch is in the log, but the
    /// client hears nothing until the HW passes it.
    pub(super) fn maybe_hold(&mut self, pi: usize, r: &mut Reply, msgs_before: usize, lane: Name) {
        let Some((_, last)) = r.offsets else { return };
        if r.error_code != 0 || self.idem.cluster.partitions[pi].replicas.followers.is_empty() || self.idem.cluster.partitions[pi].high_watermark() > last {
            return;
        }
        let need = last + 1;
        r.waiting_for_hw = Some(need);
        let note = format!(" — held: acks=-1, the answer waits until the HW reaches {need} (DelayedProduce; REQUEST_TIMED_OUT after the request's {PRODUCE_TIMEOUT_MS} ms)");
        r.why.push_str(&note);
        let plane = self.partition_lane(&self.idem.cluster.partitions[pi].name.clone());
        let from = msgs_before.min(self.messages.len());
        for m in self.messages[from..].iter_mut().filter(|m| m.kind == "response" && m.to == lane) {
            m.to = plane.clone();
            m.kind = "held";
            m.text.push_str(&note);
        }
        self.held_seq += 1;
        let h = HeldAnswer { id: self.held_seq, partition: pi, need, deadline_ms: self.idem.cluster.now_ms + PRODUCE_TIMEOUT_MS, leader_epoch: self.idem.cluster.partitions[pi].leader_epoch, reply: r.clone(), lane };
        r.held_id = Some(h.id);
        self.held.push(h);
    }

    /// After a Java client's transactional batch was written at record `r`: unacknowledged while
    /// the HW has not passed it.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn maybe_unacked(&mut self, i: usize, pi: usize, r: usize, bytes: Vec<u8>, op: super::SupportedOperation, t: usize, values: &[String], msgs_before: usize) {
        let last = self.records.get(r).map_or(-1, |x| x.last_offset);
        let p = &self.idem.cluster.partitions[pi];
        if p.replicas.followers.is_empty() || p.high_watermark() > last {
            return;
        }
        let need = last + 1;
        let (leader_epoch, sent_ms) = (p.leader_epoch, self.idem.cluster.now_ms);
        let lane = self.partition_lane(&p.name.clone());
        let plane = self.producer_lane(&self.clients[i].name.clone());
        let note = format!(" — held: acks=all, the answer waits until the HW reaches {need} (DelayedProduce)");
        let from = msgs_before.min(self.messages.len());
        for m in self.messages[from..].iter_mut().filter(|m| m.kind == "response" && m.to == plane) {
            m.to = lane.clone();
            m.kind = "held";
            m.text.push_str(&note);
        }
        self.clients[i].unacked.push(Unacked { partition: pi, need, leader_epoch, sent_ms, bytes, op, txn: t, values: values.to_vec() });
    }

    /// The Java clients' unacknowledged batches at time `t`: acknowledged once the HW passes them,
    /// sent again to a new leader, failed after `delivery.timeout.ms` (with `expire`). A client
    /// whose last one is acknowledged and that waits to commit or abort goes on.
    fn settle_unacked(&mut self, t: i64, expire: bool) {
        let mut any = false;
        for i in 0..self.clients.len() {
            let mut k = 0;
            while k < self.clients[i].unacked.len() {
                let u = self.clients[i].unacked[k].clone();
                let p = &self.idem.cluster.partitions[u.partition];
                let name = self.clients[i].name.clone();
                let pname = String::from(p.name.as_str());
                if p.leader_epoch != u.leader_epoch {
                    // NOT_LEADER_OR_FOLLOWER: the client sends the batch again to the new leader.
                    self.clients[i].unacked.remove(k);
                    any = true;
                    say!(self, format!("{name}: the leader of {pname} changed before its batch was acknowledged (NOT_LEADER_OR_FOLLOWER): it sends the batch again to the new leader"));
                    match self.leader_append(u.partition, u.bytes.clone(), u.op, u.txn, &u.values) {
                        Ok(r) => {
                            let before = self.clients[i].unacked.len();
                            let mb = self.messages.len();
                            self.maybe_unacked(i, u.partition, r, u.bytes, u.op, u.txn, &u.values, mb);
                            if let Some(n) = self.clients[i].unacked.get_mut(before) {
                                n.sent_ms = u.sent_ms;
                            }
                        }
                        Err(e) => self.client_error(i, e, "Produce"),
                    }
                    continue;
                }
                if p.high_watermark() >= u.need {
                    self.clients[i].unacked.remove(k);
                    any = true;
                    let lane = self.partition_lane(&pname);
                    let plane = self.producer_lane(&name);
                    msg_rule!(self, lane, plane, "response", format!("Produce response NONE: the HW reached {} on {pname}", u.need), "S1", DELAYED_PRODUCE, ErrorCode::NONE);
                    continue;
                }
                if expire && t - u.sent_ms >= DELIVERY_TIMEOUT_MS {
                    self.clients[i].unacked.remove(k);
                    any = true;
                    say!(self, format!("{name}: its batch to {pname} was not acknowledged within delivery.timeout.ms ({DELIVERY_TIMEOUT_MS} ms; its requests timed out and were resent, each a duplicate): TimeoutException"));
                    self.clients[i].pending = None;
                    self.client_error(i, ErrorCode::REQUEST_TIMED_OUT, "Produce");
                    continue;
                }
                k += 1;
            }
        }
        if any {
            self.retry_pending();
        }
    }

    /// Held answers whose HW came, or whose leader is gone: sent now.
    pub(crate) fn release_held(&mut self) {
        self.release_hosted(None);
        let now = self.idem.cluster.now_ms;
        self.settle_unacked(now, false);
        self.answer_held_markers(now, false);
        let mut k = 0;
        while k < self.held.len() {
            let h = &self.held[k];
            let p = &self.idem.cluster.partitions[h.partition];
            let outcome = if p.leader_epoch != h.leader_epoch {
                Some((ErrorCode::NOT_LEADER_OR_FOLLOWER, format!("the partition's leader changed while the answer waited: NOT_LEADER_OR_FOLLOWER (the batch's fate is the new leader's log: offsets below {} stay)", p.log_end_offset)))
            } else if p.high_watermark() >= h.need {
                Some((ErrorCode::NONE, format!("the HW reached {}: the held answer goes out", h.need)))
            } else {
                None
            };
            match outcome {
                Some((e, why)) => {
                    let h = self.held.remove(k);
                    self.send_held(h, e, why);
                }
                None => k += 1,
            }
        }
    }

    /// Held answers past their deadline at `t`: REQUEST_TIMED_OUT.
    pub(super) fn expire_held(&mut self, t: i64) {
        self.release_hosted(Some(t));
        self.settle_unacked(t, true);
        self.answer_held_markers(t, true);
        let mut k = 0;
        while k < self.held.len() {
            if self.held[k].deadline_ms <= t {
                let h = self.held.remove(k);
                let why = format!("the HW did not reach {} within the request's {PRODUCE_TIMEOUT_MS} ms: REQUEST_TIMED_OUT — the batch stays in the leader's log", h.need);
                self.send_held(h, ErrorCode::REQUEST_TIMED_OUT, why);
            } else {
                k += 1;
            }
        }
    }

    fn send_held(&mut self, h: HeldAnswer, e: ErrorCode, why: String) {
        let mut r = h.reply;
        r.waiting_for_hw = None;
        r.error = String::from(e.name());
        r.error_code = e.0;
        r.rule = if e == ErrorCode::NONE || e == ErrorCode::REQUEST_TIMED_OUT { "S1" } else { "S6" };
        r.source = DELAYED_PRODUCE;
        r.why = why;
        let plane = self.partition_lane(&self.idem.cluster.partitions[h.partition].name.clone());
        let lane = h.lane.clone();
        msg_rule!(self, plane, lane, "response", format!("Produce response {e}: {}", r.why), r.rule, r.source, e);
        self.released.push((h.id, r));
    }
}

fn join(v: &[i32]) -> String {
    v.iter().map(|b| format!("{b}")).collect::<Vec<_>>().join(", ")
}
