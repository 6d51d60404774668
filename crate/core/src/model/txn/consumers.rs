//! Consumers: poll, rebalance, the committed offsets they seek to and fetch.

use super::*;

impl World {
    /// A consumer polls every assigned partition (L4, R1–R5). Rejoining the group takes the
    /// current generation.
    pub fn poll(&mut self, name: &str) -> Result<usize, String> {
        let ci = self.consumer_index(name)?;
        if let Some(g) = self.consumers[ci].group.as_deref() {
            if let Some(gr) = self.groups.iter().find(|x| x.name == g) {
                self.consumers[ci].generation = gr.generation;
            }
        }
        let iso = self.consumers[ci].isolation;
        let effective = match (iso, self.sabotage) {
            (Isolation::ReadCommitted, Some(Sabotage::ReadCommittedSeesAborted)) => Isolation::ReadUncommitted,
            _ => iso,
        };
        let mut total = 0;
        let mut got = core::mem::take(&mut self.fetched);
        for pk in 0..self.consumers[ci].partitions.len() {
            let p = self.consumers[ci].partitions[pk].as_str();
            let Some(pi) = self.idem.cluster.partitions.iter().position(|x| x.name == p) else { continue };
            let from = *self.consumers[ci].positions.get(p).unwrap_or(&0);
            // The records the fetch returns, read from the stored bytes.
            got.clear();
            // A value equal to the one the model wrote at that offset shares its name (no copy).
            let (records, index) = (&self.records, self.data_index.get(p));
            let written = |offset: i64, v: &[u8]| -> Option<Name> {
                let index = index?;
                let k = index[index.partition_point(|&(o, _)| o <= offset).checked_sub(1)?].1;
                let name = records[k].values.get(usize::try_from(offset - records[k].offset).ok()?)?.as_ref()?;
                (name.as_bytes() == v).then(|| name.clone())
            };
            self.idem.cluster.partitions[pi].fetch_each(effective, from, |offset, _, _, value| {
                got.push((offset, value.map(|v| written(offset, v).unwrap_or_else(|| Name::from(String::from_utf8_lossy(v).into_owned())))))
            });
            // The bounds the fetch read to (a fetch changes neither), computed once.
            let (hw, lso) = (self.idem.cluster.partitions[pi].high_watermark(), self.idem.cluster.partitions[pi].last_stable_offset());
            let upper = match effective {
                Isolation::ReadCommitted => lso,
                Isolation::ReadUncommitted => hw,
            };
            let count = got.len();
            let iso_name = if iso == Isolation::ReadCommitted { "read_committed" } else { "read_uncommitted" };
            msg_rule!(self,
                self.consumer_lane(name),
                self.partition_lane(&self.consumers[ci].partitions[pk]),
                "Fetch",
                format!("Fetch({} from {from}, {iso_name}) → {count} record(s) below {} {upper}", self.consumers[ci].partitions[pk], if iso == Isolation::ReadCommitted { "LSO" } else { "HW" }),
                if iso == Isolation::ReadCommitted { "R1" } else { "R4" },
                COMPLETED_FETCH,
                ErrorCode::NONE,
            );
            let (partition, consumer) = (self.partition_names(pi).0, self.consumer_lane_at(ci));
            for (offset, value) in got.drain(..) {
                let p = self.consumers[ci].partitions[pk].as_str();
                let record = self
                    .data_index
                    .get(p)
                    .and_then(|index| index.partition_point(|&(o, _)| o <= offset).checked_sub(1).map(|at| index[at].1))
                    .filter(|&k| self.records[k].last_offset >= offset);
                if iso == Isolation::ReadCommitted && self.read_committed_break.is_none() {
                    // Invariant 1, checked as each record is handed to the application.
                    if let Some(rec) = record.map(|k| &self.records[k]) {
                        if rec.transactional && !(rec.outcome == Some("committed") && rec.closed_at.is_some_and(|s| s <= self.step)) {
                            self.read_committed_break = Some(format!(
                                "{name} got {p}@{offset} from a transaction that {}",
                                if rec.outcome == Some("aborted") { "aborted" } else { "was open" }
                            ));
                        }
                    }
                }
                self.deliveries.push(Delivery { consumer: consumer.clone(), partition: partition.clone(), offset, value: value.clone(), step: self.step, record });
                self.consumers[ci].received.push((partition.clone(), offset, value));
            }
            total += count;
            if upper > from {
                let Consumer { positions, partitions, .. } = &mut self.consumers[ci];
                set_position(positions, &partitions[pk], upper);
            }
            if iso == Isolation::ReadCommitted && lso < hw {
                say!(self, format!(
                    "{name} (read_committed) stops at the LSO {lso} of {}: an open transaction starts there, and everything behind it waits, committed or not (head-of-line blocking, L2)",
                    self.consumers[ci].partitions[pk]
                ));
            }
        }
        self.fetched = got;
        Ok(total)
    }

    /// The group rebalances: a new generation (KIP-447 fencing of the old one).
    pub fn rebalance(&mut self, group: &str) -> Result<(), String> {
        let names = || self.groups.iter().map(|g| g.name.as_str());
        let Some(gi) = self.groups.iter().position(|g| g.name == group) else {
            return Err(crate::model::suggest::did_you_mean(format!("no group named {group:?}"), group, names()));
        };
        let g = &mut self.groups[gi];
        g.generation += 1;
        let gen = g.generation;
        msg!(self, OFFSETS_LANE, OFFSETS_LANE, "rebalance", format!("{group} rebalances: generation {gen}"));
        say!(self, format!("{group} rebalances to generation {gen}: a transactional offset commit carrying an older generation will be refused (KIP-447)"));
        Ok(())
    }

    /// The application seeks the consumer to its group's committed offsets (0 where none):
    /// after an abort the consumer's position is not rewound by Kafka, so without this the
    /// aborted input would be skipped, not re-processed.
    pub fn seek_committed(&mut self, consumer: &str) -> Result<(), String> {
        let ci = self.consumer_index(consumer)?;
        let group = self.consumers[ci].group.clone().ok_or("the consumer has no group")?;
        let committed = self.groups.iter().find(|g| g.name == group).map(|g| g.committed.clone()).unwrap_or_default();
        for p in self.consumers[ci].partitions.clone() {
            let to = committed.get(&p).copied().unwrap_or(0);
            let from = self.consumers[ci].positions.insert(p.clone(), to).unwrap_or(0);
            msg!(self, self.consumer_lane(consumer), self.consumer_lane(consumer), "seek", format!("seek({p}) from {from} to the committed offset {to}"));
        }
        say!(self, format!("{consumer} seeks back to {group}'s committed offsets, so the input of the aborted transaction is read again"));
        Ok(())
    }

    /// OffsetFetch with requireStable (read_committed consumers, G5).
    pub fn offset_fetch(&mut self, consumer: &str) -> Result<Vec<(String, OffsetFetch)>, String> {
        let ci = self.consumer_index(consumer)?;
        let group = self.consumers[ci].group.clone().ok_or("the consumer has no group")?;
        let g = self.groups.iter().find(|g| g.name == group).cloned().ok_or("no group")?;
        let mut out = Vec::new();
        for p in self.consumers[ci].partitions.clone() {
            let r = g.fetch_offset(&p, true);
            let text = match &r {
                Err(e) => format!("OffsetFetch({group}, {p}, requireStable) → {e}: a transactional commit of this partition's offset is pending (retriable)"),
                Ok(o) => format!("OffsetFetch({group}, {p}, requireStable) → {}", o.map_or(String::from("none"), |o| o.to_string())),
            };
            let e = r.err().unwrap_or(ErrorCode::NONE);
            msg_rule!(self, self.consumer_lane(consumer), OFFSETS_LANE, "OffsetFetch", text, "G5", OFFSET_METADATA_MANAGER, e);
            out.push((p, r));
        }
        Ok(out)
    }
}
