//! The invariants, checked after every step.

use super::*;

impl World {

    // ----- invariants (checked after every step) -----------------------------------------

    pub fn invariants(&self) -> Vec<(&'static str, bool, String)> {
        let mut out = Vec::new();
        // 1. read_committed never sees aborted or open records (checked in `poll`).
        let bad = self.read_committed_break.clone();
        out.push(("read-committed-sees-only-committed", bad.is_none(), bad.unwrap_or_else(|| String::from("every record a read_committed consumer received was committed when it was read"))));
        // 2. all participants get the same outcome.
        let mut bad = None;
        for (k, t) in self.txns.iter().enumerate() {
            if let Some(o) = t.outcome {
                if t.markers.iter().any(|&m| m != o) {
                    bad = Some(format!("transaction #{k} of {} has both COMMIT and ABORT markers", t.transactional_id));
                }
            }
        }
        out.push(("same-outcome-everywhere", bad.is_none(), bad.unwrap_or_else(|| String::from("every partition of a transaction got the same marker"))));
        // 3. LSO ≤ HW.
        let bad = self.idem.cluster.partitions.iter().find(|p| p.last_stable_offset() > p.high_watermark()).map(|p| format!("{}: LSO {} > HW {}", p.name, p.last_stable_offset(), p.high_watermark()));
        out.push(("lso-le-hw", bad.is_none(), bad.unwrap_or_else(|| String::from("LSO ≤ HW on every partition"))));
        // 4. A fenced producer never commits.
        let bad = self.txns.iter().find(|t| t.commit_by_fenced).map(|t| format!("{} committed after it was fenced", t.producer));
        out.push(("fenced-never-commits", bad.is_none(), bad.unwrap_or_else(|| String::from("no fenced producer's commit was accepted"))));
        // 5. Offsets committed in a transaction are visible iff its outputs are.
        let mut bad = None;
        for t in &self.txns {
            if t.offsets.is_empty() || t.markers.is_empty() {
                continue;
            }
            let outputs_committed = t.records.iter().any(|&r| self.records[r].kind == "data" && self.records[r].outcome == Some("committed"));
            let outputs_any = t.records.iter().any(|&r| self.records[r].kind == "data");
            let offsets_rec = t.records.iter().find(|&&r| self.records[r].kind == "offset-commit");
            let offsets_committed = offsets_rec.is_some_and(|&r| self.records[r].outcome == Some("committed"));
            let offsets_closed = offsets_rec.is_some_and(|&r| self.records[r].closed_at.is_some());
            let outputs_closed = t.records.iter().filter(|&&r| self.records[r].kind == "data").all(|&r| self.records[r].closed_at.is_some());
            if offsets_closed && outputs_closed && outputs_any && offsets_committed != outputs_committed {
                bad = Some(format!("{}: offsets {} but outputs {}", t.transactional_id, if offsets_committed { "committed" } else { "discarded" }, if outputs_committed { "committed" } else { "aborted" }));
            }
        }
        out.push(("offsets-iff-outputs", bad.is_none(), bad.unwrap_or_else(|| String::from("offsets committed in a transaction become visible exactly when its outputs do"))));
        out
    }
}
