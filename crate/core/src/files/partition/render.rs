//! The loaded partition as text (`eoslab partition DIR`) and as a transactions-model script
//! that continues from it ([`super::load`] reads the directory).

use super::*;

/// The partition as text: what `eoslab partition DIR` prints.
pub fn render(p: &Partition) -> String {
    let mut s = String::new();
    let mut line = |t: String| {
        s.push_str(&t);
        s.push('\n');
    };
    line(format!("log: offsets {}..{} in {} segment(s)", p.log_start_offset, p.log_end_offset, p.segments.len()));
    for g in &p.segments {
        line(format!("  {}: {} batch(es), {} bytes, next offset {}", g.name, g.batches, g.bytes, g.next_offset));
    }
    line(format!(
        "producer state loaded from: {}",
        p.snapshot_used.as_deref().unwrap_or("no snapshot (the whole log replayed)")
    ));
    for ps in &p.producers {
        let txn = if ps.current_txn_first_offset >= 0 { format!("open transaction from offset {}", ps.current_txn_first_offset) } else { String::from("no open transaction") };
        line(format!(
            "  producer {} epoch {} coordinatorEpoch {} lastTimestamp {}: {txn}",
            ps.producer_id, ps.epoch, ps.coordinator_epoch, ps.last_timestamp
        ));
        for b in &ps.batches {
            line(format!(
                "    batch seq {}..{} offsets {}..{} timestamp {}",
                b.first_sequence,
                b.last_sequence,
                b.last_offset.wrapping_sub(b.offset_delta as i64),
                b.last_offset,
                b.timestamp
            ));
        }
    }
    line(format!("last stable offset: {} (high watermark taken as the log end, {})", p.last_stable_offset, p.log_end_offset));
    for (o, pid) in &p.open_transactions {
        line(format!("  open: producer {pid} from offset {o}"));
    }
    line(format!("aborted transactions (from the log's markers): {}", p.aborted.len()));
    for a in &p.aborted {
        line(format!(
            "  producerId: {} firstOffset: {} lastOffset: {} lastStableOffset: {}",
            a.producer_id, a.first_offset, a.last_offset, a.last_stable_offset
        ));
    }
    line(format!("topic id (partition.metadata): {}", p.topic_id.as_deref().unwrap_or("no partition.metadata")));
    let epochs = |v: &[EpochStart]| {
        if v.is_empty() {
            String::from("none")
        } else {
            v.iter().map(|e| format!("epoch {} from offset {}", e.epoch, e.start_offset)).collect::<Vec<_>>().join(", ")
        }
    };
    line(format!("leader epochs (leader-epoch-checkpoint): {}", epochs(&p.leader_epochs)));
    line(format!("leader epochs of the log's batches: {}", epochs(&p.log_leader_epochs)));
    let fields = |e: &ProducerEntry| {
        format!(
            "producerEpoch: {} lastSequence: {} lastOffset: {} offsetDelta: {} timestamp: {} coordinatorEpoch: {} currentTxnFirstOffset: {}",
            e.epoch, e.last_sequence, e.last_offset, e.offset_delta, e.timestamp, e.coordinator_epoch, e.current_txn_first_offset
        )
    };
    for f in &p.snapshots {
        let crc = if f.crc == f.computed_crc { String::from("checked") } else { format!("MISMATCH, computed {:#010x}", f.computed_crc) };
        line(format!("snapshot {}: version {} CRC-32C {:#010x} ({crc}), {} producer(s)", f.name, f.version, f.crc, f.producers.iter().filter(|e| e.stored.is_some()).count()));
        for e in &f.producers {
            match &e.stored {
                Some(st) => line(format!("  producer {} in the snapshot:          {}", e.producer_id, fields(st))),
                None => line(format!("  producer {} in the snapshot:          absent", e.producer_id)),
            }
            match &e.rebuilt {
                Some(r) => line(format!("  producer {} in the log up to offset {}: {}", e.producer_id, f.offset, fields(r))),
                None => line(format!("  producer {} in the log up to offset {}: absent", e.producer_id, f.offset)),
            }
            if !e.differs.is_empty() {
                line(format!("  producer {} differs in: {}", e.producer_id, e.differs.join(", ")));
            }
        }
    }
    line(String::from("checks:"));
    for c in &p.checks {
        let mark = if c.ok { "ok  " } else { "DIFF" };
        let detail = if c.detail.is_empty() { String::new() } else { format!(": {}", c.detail) };
        line(format!("  {mark} {} — {}{detail}", c.file, c.what));
    }
    for e in &p.errors {
        line(format!("error: {e}"));
    }
    for i in &p.ignored {
        line(format!("ignored: {i}"));
    }
    s
}

/// A simulator script (the idempotence model's language, `scenarios/README.md`) that starts
/// from this partition's loaded state — its log end and every producer's entry — and asks the
/// leader the question engineers ask of a real partition: the retry of each producer's last
/// batch (a duplicate, answered with the original offsets). `title` names the source.
/// Whether `e` can be written as a `producer-state` line the scenario parser accepts
/// (`model::scenario`'s producer-state and leader-state checks): a damaged file can hold an
/// entry no leader could.
fn fits(e: &ProducerState, log_end: i64) -> bool {
    if e.epoch < 0 || e.producer_id < 0 || e.batches.len() > crate::model::partition::NUM_BATCHES_TO_RETAIN {
        return false;
    }
    let mut prev_last: Option<i64> = None;
    for b in &e.batches {
        let Some(first) = b.last_offset.checked_sub(b.offset_delta as i64) else { return false };
        if b.offset_delta < 0 || first < 0 || b.last_offset >= log_end || prev_last.is_some_and(|p| first <= p) {
            return false;
        }
        if crate::sequence::increment(b.first_sequence, b.offset_delta) != b.last_sequence {
            return false;
        }
        prev_last = Some(b.last_offset);
    }
    e.current_txn_first_offset < log_end
}

pub fn simulator_script(p: &Partition, title: &str) -> String {
    let mut s = String::new();
    s.push_str(&format!("title {title}\n"));
    s.push_str(&format!(
        "about The leader's state as the broker loads these files ({}): log end {}, {} producer(s). Edit the requests below, or add your own.\n",
        p.snapshot_used.as_deref().unwrap_or("the whole log replayed"),
        p.log_end_offset,
        p.producers.len()
    ));
    let now = p.producers.iter().map(|e| e.last_timestamp).max().filter(|t| *t > 0);
    if let Some(t) = now {
        s.push_str(&format!("time {t}\n"));
    }
    s.push_str("partition p0\nproducer app\n");
    if p.log_end_offset >= 0 {
        s.push_str(&format!("log-end p0 {}\n", p.log_end_offset));
    } else {
        // A damaged log can end below 0 (a negative base offset): the leader starts empty.
        s.push_str(&format!("# log end {} is not an offset (a damaged file): the leader starts at 0\n", p.log_end_offset));
    }
    for e in &p.producers {
        // An entry no leader could hold (a damaged file: offsets at or past the log end, below
        // 0 or out of order, sequences that do not match the offsets) is left out.
        if !fits(e, p.log_end_offset) {
            s.push_str(&format!("# producer {} left out: its state does not fit the log (epoch {}, log end {})\n", e.producer_id, e.epoch, p.log_end_offset));
            continue;
        }
        s.push_str(&format!("producer-state p0 pid={} epoch={}", e.producer_id, e.epoch));
        if e.coordinator_epoch >= 0 {
            s.push_str(&format!(" coordinator-epoch={}", e.coordinator_epoch));
        }
        if e.last_timestamp >= 0 {
            s.push_str(&format!(" timestamp={}", e.last_timestamp));
        }
        if e.current_txn_first_offset >= 0 {
            s.push_str(&format!(" txn-first-offset={}", e.current_txn_first_offset));
        }
        for b in &e.batches {
            s.push_str(&format!(
                " batch={}..{}@{}..{}",
                b.first_sequence,
                b.last_sequence,
                b.last_offset - b.offset_delta as i64,
                b.last_offset
            ));
        }
        s.push('\n');
    }
    for e in p.producers.iter().filter(|e| fits(e, p.log_end_offset) && e.batches.last().is_some_and(|b| b.first_sequence >= 0)) {
        let b = e.batches.last().copied().unwrap_or(RetainedBatch { first_sequence: 0, last_sequence: 0, last_offset: 0, offset_delta: 0, timestamp: 0 });
        let first = b.last_offset - b.offset_delta as i64;
        let values: Vec<String> = (first..=b.last_offset).take(50).map(|o| format!("r{o}")).collect();
        if values.len() as i64 != b.last_offset - first + 1 {
            continue;
        }
        let txn = if e.current_txn_first_offset >= 0 { " txn" } else { "" };
        s.push_str(&format!(
            "# producer {}: a retry of its last batch (sequences {}..{}; the leader compares sequences, not values)\n",
            e.producer_id, b.first_sequence, b.last_sequence
        ));
        s.push_str(&format!(
            "produce p0 pid={} epoch={} seq={}{txn} {}\n",
            e.producer_id,
            e.epoch,
            b.first_sequence,
            values.join(" ")
        ));
        s.push_str(&format!("expect last duplicate {first}..{}\n", b.last_offset));
    }
    for e in p.producers.iter().filter(|e| e.epoch > 0 && e.batches.is_empty() && fits(e, p.log_end_offset)) {
        s.push_str(&format!(
            "# producer {}: a late batch from the epoch before {} (a zombie, or a write the last marker fenced)\n",
            e.producer_id, e.epoch
        ));
        let txn = if e.coordinator_epoch >= 0 { " txn" } else { "" };
        s.push_str(&format!("produce p0 pid={} epoch={} seq=0{txn} late\n", e.producer_id, e.epoch - 1));
        s.push_str("expect last rejected INVALID_PRODUCER_EPOCH\n");
    }
    s
}
