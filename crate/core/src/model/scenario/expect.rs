//! `expect` lines of the idempotence scripts: checked against the model, and written back.

use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;

use super::idempotence::{BatchState, EventKind, Sim};
use super::partition::Outcome;
use super::run::{partition_idx, producer_idx};
use super::Expect;

pub(super) fn describe_expect(e: &Expect) -> String {
    match e {
        Expect::Decision { batch, outcome, offsets } => match (outcome.as_str(), offsets) {
            ("appended" | "duplicate", Some((a, b))) => format!("b{batch} {outcome} {a}..{b}"),
            ("appended" | "duplicate", None) => format!("b{batch} {outcome}"),
            _ => format!("b{batch} rejected {outcome}"),
        },
        Expect::Client { batch, state, detail } => match detail {
            Some(d) => format!("b{batch} {state} {d}"),
            None => format!("b{batch} {state}"),
        },
        Expect::Log { partition, values } => format!("log {partition} {}", values.join(" ")),
        Expect::Producers { partition, count } => format!("producers {partition} {count}"),
        Expect::Last { outcome, offsets } => match (outcome.as_str(), offsets) {
            ("appended" | "duplicate", Some((a, b))) => format!("last {outcome} {a}..{b}"),
            ("appended" | "duplicate", None) => format!("last {outcome}"),
            _ => format!("last rejected {outcome}"),
        },
        Expect::Lso { partition, offset } => format!("lso {partition} {offset}"),
        Expect::Hw { partition, offset } => format!("hw {partition} {offset}"),
        Expect::Read { answer, values } => format!("read {answer} {}", values.join(" ")).trim_end().to_string(),
        Expect::Isr { partition, brokers } => format!("isr {partition} {}", brokers.iter().map(|b| b.to_string()).collect::<Vec<_>>().join(",")),
        Expect::Leader { partition, broker } => format!("leader {partition} {broker}"),
        Expect::Reply { label, words } => format!("{label} {}", words.join(" ")),
        Expect::Txn { id, state } => format!("txn {id} {state}"),
        Expect::TxnState { id, words } => format!("txn-state {id} {}", words.join(" ")),
        Expect::Producer { producer, pid, epoch } => {
            let mut s = format!("producer {producer}");
            if let Some(p) = pid {
                s.push_str(&format!(" pid {p}"));
            }
            if let Some(e) = epoch {
                s.push_str(&format!(" epoch {e}"));
            }
            s
        }
    }
}

pub(super) fn check_expect(sim: &Sim, cluster: Option<&super::run::Cluster>, e: &Expect) -> Result<(), (String, String)> {
    let want = describe_expect(e);
    match e {
        Expect::Reply { label, words } => {
            let Some(r) = cluster.and_then(|c| c.replies.iter().rev().find(|x| x.0 == *label)) else { return Err((want, format!("no answer labelled {label}"))) };
            let w: Vec<&str> = words.iter().map(String::as_str).collect();
            if let Some(got) = r.1.check(&w) {
                return Err((want, got));
            }
        }
        Expect::TxnState { id, words } => {
            let w: Vec<&str> = words.iter().map(String::as_str).collect();
            let got = match cluster {
                Some(c) => crate::model::txn::state::txn_state_holds(&c.world, id, &w),
                None => Err(String::from("no metadata")),
            };
            if let Err(got) = got {
                return Err((want, got));
            }
        }
        Expect::Txn { id, state } => {
            let got = cluster.and_then(|c| c.world.coordinator.get(id)).map_or("none", |m| m.state.name());
            if got != state {
                return Err((want, got.to_string()));
            }
        }
        Expect::Decision { batch, outcome, offsets } => {
            let last = sim.trace.iter().rev().find_map(|ev| match (&ev.kind, ev.batch()) {
                (EventKind::Decision(d), Some(b)) if b == *batch => Some(*d),
                _ => None,
            });
            let Some(d) = last else { return Err((want, format!("b{batch} never reached a leader"))) };
            let (got_kind, got_offsets) = match d.outcome() {
                Outcome::Appended { base_offset, last_offset } => ("appended".to_string(), Some((base_offset, last_offset))),
                Outcome::Duplicate { base_offset, last_offset } => ("duplicate".to_string(), Some((base_offset, last_offset))),
                Outcome::Rejected(code) => (code.name().to_string(), None),
            };
            let got = match got_offsets {
                Some((a, b)) => format!("{got_kind} {a}..{b} [{}]", d.rule()),
                None => format!("rejected {got_kind} [{}]", d.rule()),
            };
            if got_kind != *outcome || (offsets.is_some() && *offsets != got_offsets) {
                return Err((want, got));
            }
        }
        Expect::Client { batch, state, detail } => {
            let Some(b) = sim.batches.get(batch.wrapping_sub(1)) else { return Err((want, format!("there is no b{batch}"))) };
            let (got, got_detail) = match &b.state {
                BatchState::Queued => ("queued", None),
                BatchState::InFlight => ("in-flight", None),
                BatchState::Acked { base_offset, last_offset, .. } => ("acked", Some(format!("{base_offset}..{last_offset}"))),
                BatchState::Failed(c) => ("failed", Some(c.exception().to_string())),
                BatchState::Abandoned => ("abandoned", None),
            };
            let got_text = match &got_detail {
                Some(d) => format!("{got} {d}"),
                None => got.to_string(),
            };
            if got != state || (detail.is_some() && detail != &got_detail) {
                return Err((want, got_text));
            }
        }
        Expect::Log { partition, values } => {
            let got = sim.log_values(partition_idx(sim, partition));
            if &got != values {
                return Err((want, format!("log {partition} {}", got.join(" "))));
            }
        }
        Expect::Producers { partition, count } => {
            let got = sim.cluster.partitions[partition_idx(sim, partition)].producer_count();
            if got != *count {
                return Err((want, format!("producers {partition} {got}")));
            }
        }
        Expect::Last { outcome, offsets } => {
            let last = sim.trace.iter().rev().find_map(|ev| match (&ev.kind, ev.batch()) {
                (EventKind::Decision(d), None) => Some((d.outcome(), d.rule())),
                (EventKind::MarkerDecision(m), _) => Some((m.outcome(), m.rule())),
                _ => None,
            });
            let Some((o, rule)) = last else { return Err((want, String::from("no produce or marker line has been answered"))) };
            let (got_kind, got_offsets) = match o {
                Outcome::Appended { base_offset, last_offset } => ("appended".to_string(), Some((base_offset, last_offset))),
                Outcome::Duplicate { base_offset, last_offset } => ("duplicate".to_string(), Some((base_offset, last_offset))),
                Outcome::Rejected(code) => (code.name().to_string(), None),
            };
            let got = match got_offsets {
                Some((a, b)) => format!("last {got_kind} {a}..{b} [{rule}]"),
                None => format!("last rejected {got_kind} [{rule}]"),
            };
            if got_kind != *outcome || (offsets.is_some() && *offsets != got_offsets) {
                return Err((want, got));
            }
        }
        Expect::Lso { partition, offset } => {
            let got = sim.cluster.partitions[partition_idx(sim, partition)].last_stable_offset();
            if got != *offset {
                return Err((want, format!("lso {partition} {got}")));
            }
        }
        Expect::Read { answer: what, values } => {
            let last = sim.trace.iter().rev().find_map(|e| if let super::idempotence::EventKind::Read(r) = &e.kind { Some(r) } else { None });
            let Some(r) = last else { return Err((want, String::from("no fetch or list-offsets answer yet"))) };
            let a = &r.answer;
            let got = match what.as_str() {
                "records" if a.records.is_empty() => String::from("nothing"),
                "records" => a.records.iter().map(|(_, v)| v.clone().unwrap_or_else(|| String::from("null"))).collect::<Vec<_>>().join(" "),
                "hw" => a.high_watermark.to_string(),
                "lso" => a.last_stable_offset.to_string(),
                "offset" => r.offset.map_or_else(|| String::from("none"), |o| o.to_string()),
                "error" => String::from(a.error.name()),
                _ => match &a.aborted {
                    None => String::from("null"),
                    Some(l) if l.is_empty() => String::from("none"),
                    Some(l) => l.iter().map(|(p, f)| format!("{p}@{f}")).collect::<Vec<_>>().join(" "),
                },
            };
            if got != values.join(" ") {
                return Err((want, format!("read {what} {got}")));
            }
        }
        Expect::Hw { partition, offset } => {
            let got = sim.cluster.partitions[partition_idx(sim, partition)].high_watermark();
            if got != *offset {
                return Err((want, format!("hw {partition} {got}")));
            }
        }
        Expect::Isr { partition, brokers } => {
            let got = sim.cluster.partitions[partition_idx(sim, partition)].isr();
            if got != *brokers {
                return Err((want, format!("isr {partition} {}", got.iter().map(|b| b.to_string()).collect::<Vec<_>>().join(","))));
            }
        }
        Expect::Leader { partition, broker } => {
            let got = sim.cluster.partitions[partition_idx(sim, partition)].replicas.leader;
            if got != *broker {
                return Err((want, format!("leader {partition} {got}")));
            }
        }
        Expect::Producer { producer, pid, epoch } => {
            let p = &sim.producers[producer_idx(sim, producer)];
            if pid.is_some_and(|x| x != p.producer_id) || epoch.is_some_and(|x| x != p.epoch) {
                return Err((want, format!("producer {producer} pid {} epoch {}", p.producer_id, p.epoch)));
            }
        }
    }
    Ok(())
}
