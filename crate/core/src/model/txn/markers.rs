//! The coordinator's transaction markers: queued, delivered (WriteTxnMarkers) and written by the
//! partition leaders.

use super::*;

impl World {
    pub(super) fn queue_markers(&mut self, id: &str, t: usize, commit: bool) {
        if let Some(ci) = self.coordinator.index(id) {
            self.queue_markers_at(ci, t, commit);
        }
    }

    /// Queue a marker for each partition of the coordinator's `ci`-th transaction (K2); a
    /// server-initiated abort uses the cluster's finalized transaction.version.
    pub(super) fn queue_markers_at(&mut self, ci: usize, t: usize, commit: bool) {
        let version = self.cluster.kafka.marker_version(self.cluster.transaction_version >= 2);
        self.queue_markers_with(ci, t, commit, version);
    }

    pub(super) fn queue_markers_with(&mut self, ci: usize, t: usize, commit: bool, version: MarkerVersion) {
        let m = &self.coordinator.txns[ci];
        self.markers.retain(|x| x.transactional_id != m.transactional_id || x.held);
        for p in &m.partitions {
            self.markers.push(MarkerReq {
                transactional_id: m.transactional_id.clone(),
                txn: t,
                pid: m.producer_id,
                epoch: m.producer_epoch,
                commit,
                coordinator_epoch: self.coordinator_epoch,
                partition: p.clone(),
                version,
                held: false,
            });
        }
        self.txns[t].outcome = Some(commit);
        self.txns[t].markers.reserve(m.partitions.len());
        if m.partitions.is_empty() {
            let id = m.transactional_id.clone();
            self.complete_txn(&id, t);
        }
    }

    pub(super) fn complete_txn(&mut self, id: &str, t: usize) {
        if let Some(s) = self.coordinator.complete(id, self.idem.cluster.now_ms) {
            self.tick(1);
            let r = self.write_txn_log(id);
            let k = msg!(self, COORD_LANE, COORD_LANE, "append", format!("__transaction_state: {} for {id}: every marker is written (K5)", s.name()));
            self.link(k, r);
            if self.open_txn.get(id) == Some(&t) {
                self.open_txn.remove(id);
            }
            let parts = distinct_partitions(&self.records, &self.txns[t].records);
            if let Some(start) = self.end_txn_at.remove(&t) {
                self.completions.push((parts, start, self.idem.cluster.now_ms, self.step));
            }
            say!(self, format!("{id} is {} (K5): the transaction is over", s.name()));
        }
    }

    /// Deliver queued WriteTxnMarkers: all (not held), or the one for `partition`.
    pub fn deliver_markers(&mut self, partition: Option<&str>) -> Result<usize, String> {
        let mut batch = core::mem::take(&mut self.delivering);
        batch.clear();
        // Move the picked markers out, in queue order; the others stay queued in order.
        let mut queued = core::mem::take(&mut self.markers);
        for m in queued.drain(..) {
            let pick = match partition {
                Some(p) => m.partition == p,
                None => !m.held,
            };
            if pick {
                batch.push(m);
            } else {
                self.markers.push(m);
            }
        }
        if self.markers.is_empty() {
            self.markers = queued; // keep the queue's buffer
        }
        if batch.is_empty() {
            self.delivering = batch;
            return Err(String::from(match partition {
                Some(_) => "no marker is queued for that partition",
                None => "no marker is queued",
            }));
        }
        let nb = self.cluster.brokers.max(1);
        let broker = |m: &MarkerReq| self.idem.cluster.partitions.iter().position(|p| p.name == m.partition).map_or(0, |bi| bi % nb);
        let brokers = if nb == 1 {
            1 // one broker leads every partition
        } else if nb <= 128 {
            batch.iter().fold(0u128, |mask, m| mask | 1 << broker(m)).count_ones() as usize
        } else {
            batch.iter().map(broker).collect::<BTreeSet<usize>>().len()
        };
        let n = batch.len() as i64;
        self.metric(Metric::WriteTxnMarkersRequests, brokers as i64);
        // Parallel per broker: one round trip plus the appends on the busiest broker.
        let per_broker = (n + brokers as i64 - 1) / (brokers.max(1) as i64);
        self.idem.cluster.now_ms += self.cluster.rtt_ms + per_broker * self.cluster.append_ms;
        for m in &batch {
            let pi = self.idem.cluster.partitions.iter().position(|p| p.name == m.partition);
            let end_before = pi.map(|pi| self.idem.cluster.partitions[pi].log_end_offset);
            let msgs_before = self.messages.len();
            self.write_marker(m);
            // A marker written above the HW: its acks=-1 answer waits for the followers (S1).
            if let (Some(pi), Some(before)) = (pi, end_before) {
                let p = &self.idem.cluster.partitions[pi];
                if p.log_end_offset > before && !p.replicas.followers.is_empty() && p.high_watermark() < p.log_end_offset {
                    let need = p.log_end_offset;
                    self.hold_marker(m.clone(), pi, need, msgs_before);
                }
            }
        }
        // K5: complete transactions with no marker left (current coordinator's).
        for m in &batch {
            self.maybe_complete(m.transactional_id.as_str(), m.txn);
        }
        batch.clear();
        self.delivering = batch;
        self.retry_pending();
        Ok(n as usize)
    }

    /// K5: complete the transaction when no marker of it is left to answer (the current
    /// coordinator's: queued, or held for the HW).
    pub(super) fn maybe_complete(&mut self, id: &str, t: usize) {
        let ce = self.coordinator_epoch;
        let left = self.markers.iter().any(|x| x.transactional_id == id && x.txn == t && x.coordinator_epoch == ce)
            || self.held_markers.iter().any(|h| h.marker.transactional_id == id && h.marker.txn == t && h.marker.coordinator_epoch == ce);
        let pending = self.coordinator.get(id).is_some_and(|m| m.pending_state.is_some());
        let abandoned = self.markers_abandoned.contains(&(t, ce));
        if !left && pending && !abandoned && self.txns[t].outcome.is_some() && self.open_txn.get(id).is_none_or(|&o| o == t) {
            self.complete_txn(id, t);
        }
    }

    pub(super) fn write_marker(&mut self, m: &MarkerReq) {
        let result = if m.commit { "COMMIT" } else { "ABORT" };
        let is_offsets = m.partition.starts_with("__consumer_offsets-");
        msg_rule!(self,
            COORD_LANE,
            self.marker_lane(&m.partition, is_offsets),
            "WriteTxnMarkers",
            format!("WriteTxnMarkers({result}, producer {} epoch {}, coordinator epoch {}, {})", m.pid, m.epoch, m.coordinator_epoch, m.partition),
            "K2",
            TRANSACTION_MARKER_CHANNEL_MANAGER,
            ErrorCode::NONE,
        );
        let now = self.idem.cluster.now_ms;
        let pi = match is_offsets {
            true => None,
            false => match self.idem.cluster.partitions.iter().position(|p| p.name == m.partition) {
                Some(pi) => Some(pi),
                None => return,
            },
        };
        // (partition, lane) for the record, shared for a data partition.
        let (partition, lane_name) = match pi {
            None => (Name::from(m.partition.as_str()), Name::fixed(OFFSETS)),
            Some(pi) => self.partition_names(pi),
        };
        let log: &mut Partition = match pi {
            None => {
                let n: i32 = m.partition.rsplit('-').next().and_then(|x| x.parse().ok()).unwrap_or(0);
                self.offsets_logs.entry(n).or_insert_with(|| Partition::new(m.partition.clone()))
            }
            Some(pi) => &mut self.idem.cluster.partitions[pi],
        };
        // The decision as data; its sentence is rendered only when tracing.
        let d = log.append_marker_verdict(m.pid, m.epoch, m.commit, m.coordinator_epoch, m.version, now);
        match d.outcome() {
            Outcome::Appended { base_offset, .. } => {
                let stored = log.log.last().map(|e| e.bytes.clone()).unwrap_or_default();
                let lso = log.last_stable_offset();
                let r = self.push_record(LogRecord {
                    lane: lane_name,
                    partition,
                    offset: base_offset,
                    last_offset: base_offset,
                    kind: if m.commit { "commit" } else { "abort" },
                    pid: m.pid,
                    epoch: m.epoch,
                    transactional: true,
                    values: Values::default(),
                    text: RecordText::marker(m.commit, m.coordinator_epoch),
                    step: self.step,
                    closed_at: Some(self.step),
                    outcome: Some(if m.commit { "committed" } else { "aborted" }),
                    bytes: stored,
                    txn: Some(m.txn),
                    truncated_at: None,
                });
                // Close this producer's open records on that partition: those of every
                // transaction instance of this producer id still open there.
                let outcome = Some(if m.commit { "committed" } else { "aborted" });
                self.close_open_records(&m.partition, m.pid, base_offset, outcome);
                self.txns[m.txn].markers.push(m.commit);
                let k = msg_rule!(self, self.marker_lane(&m.partition, is_offsets), COORD_LANE, "response", format!("marker written: {}; LSO now {lso}", d.why(&m.partition)), d.rule(), d.source(), ErrorCode::NONE);
                self.link(k, Some(r));
                if is_offsets {
                    // K3/G4: materialize or discard this producer's pending offsets.
                    for g in self.groups.iter_mut() {
                        if Self::offsets_name(&g.name) != m.partition {
                            continue;
                        }
                        let mine: Vec<(i64, String, i64)> = g.pending.iter().filter(|x| x.0 == m.pid).cloned().collect();
                        g.pending.retain(|x| x.0 != m.pid);
                        if m.commit {
                            for (_, p, o) in mine {
                                g.committed.insert(p, o);
                            }
                        }
                    }
                    say!(self, format!("{result} reaches {}: the group's pending offsets are {}", m.partition, if m.commit { "materialized" } else { "discarded" }));
                }
            }
            _ => {
                let e = d.error();
                msg_rule!(self, self.marker_lane(&m.partition, is_offsets), COORD_LANE, "response", format!("marker refused {e}: {} — the coordinator stops sending markers for this transaction (K4)", d.why(&m.partition)), d.rule(), d.source(), e);
                if m.coordinator_epoch == self.coordinator_epoch {
                    // K4: the coordinator drops this transaction's queued markers and does not
                    // write Complete*: the transaction stays in Prepare* (pending Complete*).
                    let (t, ce) = (m.txn, m.coordinator_epoch);
                    self.markers_abandoned.insert((t, ce));
                    let id = m.transactional_id.clone();
                    self.markers.retain(|x| !(x.transactional_id == id && x.txn == t && x.coordinator_epoch == ce));
                }
                say!(self, format!("a marker for {} from coordinator epoch {} is refused ({}): {}", m.partition, m.coordinator_epoch, d.rule(), d.why(&m.partition)));
            }
        }
    }

    /// Hold the marker for `partition` in the network.
    pub fn delay_marker(&mut self, partition: &str) -> Result<(), String> {
        let m = self.markers.iter_mut().find(|m| m.partition == partition && !m.held).ok_or("no marker is queued for that partition")?;
        m.held = true;
        say!(self, format!("the marker for {partition} is held up in the network"));
        Ok(())
    }
}
