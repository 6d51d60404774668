//! `expect` lines of the transactions scripts, checked against the world and the answers kept.

use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;

use super::run::Memory;
use super::txn::World;

/// A leader's entry for a producer as `producer-state` words: `pid=N epoch=E seq=A..B
/// offset=O txn-first=T|none` (the last retained batch's sequences and first offset).
pub fn producer_entry_words(pid: i64, e: &super::partition::ProducerStateEntry) -> String {
    let last = e.batches.back();
    format!(
        "pid={pid} epoch={} seq={} offset={} txn-first={}",
        e.producer_epoch,
        last.map_or_else(|| String::from("none"), |b| format!("{}..{}", b.first_seq(), b.last_seq)),
        last.map_or_else(|| String::from("none"), |b| b.first_offset().to_string()),
        e.current_txn_first_offset.map_or_else(|| String::from("none"), |t| t.to_string())
    )
}

fn list(v: &[String]) -> String {
    v.join(" ")
}

/// Evaluate an `expect`; `Some((expected, got))` when it fails.
pub(super) fn check(w: &World, words: &[String], mem: &Memory) -> Option<(String, String)> {
    let want = words.join(" ");
    let fail = |got: String| Some((want.clone(), got));
    let ws: Vec<&str> = words.iter().map(String::as_str).collect();
    let client = |n: &str| w.clients.iter().find(|c| c.name == n);
    let part = |n: &str| w.idem.cluster.partitions.iter().find(|p| p.name == n);
    if let Some((_, r)) = ws.first().and_then(|l| mem.replies.iter().find(|x| x.0 == *l)) {
        return super::txn::Reply::check(r, &ws[1..]).map(|got| (want.clone(), got));
    }
    match ws.as_slice() {
        ["txn", id, state] => {
            let got = w.coordinator.get(id).map_or("none", |m| m.state.name());
            (got != *state).then(|| (want.clone(), got.to_string()))
        }
        ["log", p, vals @ ..] => {
            let got: Vec<String> = w
                .records
                .iter()
                .filter(|r| r.partition == *p && r.kind != "txn-log" && r.truncated_at.is_none())
                .flat_map(|r| match r.kind {
                    "commit" => alloc::vec![String::from("[COMMIT]")],
                    "abort" => alloc::vec![String::from("[ABORT]")],
                    _ => r.values.iter().map(|v| v.as_deref().map_or_else(|| String::from("null"), String::from)).collect(),
                })
                .collect();
            (got.join(" ") != vals.join(" ")).then(|| (want.clone(), list(&got)))
        }
        ["producer-state", p, kvs @ ..] => {
            let Some(pp) = part(p) else { return fail(format!("no partition {p}")) };
            let Some(pid) = kvs.iter().find_map(|x| x.strip_prefix("pid=")).and_then(|x| x.parse::<i64>().ok()) else {
                return fail(String::from("usage: expect producer-state PARTITION pid=N [epoch=E] [seq=A..B] [offset=O] [txn-first=N|none] [coordinator-epoch=N]"));
            };
            let got = pp.producers.get(&pid).map_or_else(|| String::from("none"), |e| format!("{} coordinator-epoch={}", producer_entry_words(pid, e), e.coordinator_epoch));
            let have: Vec<&str> = got.split(' ').collect();
            (!kvs.iter().all(|k| have.contains(k))).then(|| (want.clone(), got))
        }
        ["txn-state", id, kvs @ ..] => super::txn::state::txn_state_holds(w, id, kvs).err().map(|got| (want.clone(), got)),
        ["group", g, kvs @ ..] => super::txn::state::group_holds(w, g, kvs).err().map(|got| (want.clone(), got)),
        ["lso", p, n] | ["hw", p, n] => {
            let Some(pp) = part(p) else { return fail(format!("no partition {p}")) };
            let got = if ws[0] == "lso" { pp.last_stable_offset() } else { pp.high_watermark() };
            (got.to_string() != *n).then(|| (want.clone(), got.to_string()))
        }
        ["isr", p, brokers] => {
            let Some(pp) = part(p) else { return fail(format!("no partition {p}")) };
            let got = pp.isr().iter().map(|b| b.to_string()).collect::<Vec<_>>().join(",");
            (got != *brokers).then(|| (want.clone(), got))
        }
        ["leader", p, b] => {
            let Some(pp) = part(p) else { return fail(format!("no partition {p}")) };
            let got = pp.replicas.leader.to_string();
            (got != *b).then(|| (want.clone(), got))
        }
        ["leo", p, n] => {
            let Some(pp) = part(p) else { return fail(format!("no partition {p}")) };
            let got = pp.log_end_offset.to_string();
            (got != *n).then(|| (want.clone(), got))
        }
        ["aborted", p, range, kvs @ ..] => {
            // The transaction index: an entry first..last (the ABORT marker's offset), and with
            // `pid=N` / `lso=N` its producer id and lastStableOffset.
            let Some(pp) = part(p) else { return fail(format!("no partition {p}")) };
            let entry = |a: &super::partition::AbortedTxn| format!("{}..{} pid={} lso={}", a.first_offset, a.last_offset, a.producer_id, a.last_stable_offset);
            let found = pp.aborted_txns.iter().any(|a| format!("{}..{}", a.first_offset, a.last_offset) == *range && {
                let e = entry(a);
                let have: Vec<&str> = e.split(' ').collect();
                kvs.iter().all(|k| have.contains(k))
            });
            let got: Vec<String> = pp.aborted_txns.iter().map(|a| if kvs.is_empty() { format!("{}..{}", a.first_offset, a.last_offset) } else { entry(a) }).collect();
            (!found).then(|| (want.clone(), if got.is_empty() { String::from("none") } else { list(&got) }))
        }
        [c, "received", vals @ ..] if w.consumers.iter().any(|x| x.name == *c) => {
            let con = w.consumers.iter().find(|x| x.name == *c)?;
            let got: Vec<String> = con.received.iter().map(|(_, _, v)| v.as_deref().map_or_else(|| String::from("null"), String::from)).collect();
            (got.join(" ") != vals.join(" ")).then(|| (want.clone(), if got.is_empty() { String::from("nothing") } else { list(&got) }))
        }
        [c, "position", p, n] if w.consumers.iter().any(|x| x.name == *c) => {
            let con = w.consumers.iter().find(|x| x.name == *c)?;
            let got = con.positions.get(*p).copied().unwrap_or(0).to_string();
            (got != *n).then(|| (want.clone(), got))
        }
        ["offsets", g, p, n] => {
            let Some(gr) = w.groups.iter().find(|x| x.name == *g) else { return fail(format!("no group {g}")) };
            let got = gr.committed.get(*p).map_or(String::from("none"), |o| o.to_string());
            (got != *n).then(|| (want.clone(), got))
        }
        ["offset-fetch", c, p, v] => {
            let got = mem.offset_fetch.iter().find(|x| x.0 == *c && x.1 == *p).map_or(String::from("not fetched"), |x| x.2.clone());
            (got != *v).then(|| (want.clone(), got))
        }
        ["effects", names @ ..] => {
            let got: Vec<String> = w.effects.iter().map(|e| e.name.clone()).collect();
            (got.join(" ") != names.join(" ")).then(|| (want.clone(), if got.is_empty() { String::from("none") } else { list(&got) }))
        }
        ["invariants", "hold"] => {
            let broken: Vec<String> = w.invariants().into_iter().filter(|x| !x.1).map(|x| format!("{}: {}", x.0, x.2)).collect();
            (!broken.is_empty()).then(|| (want.clone(), broken.join("; ")))
        }
        ["invariant", name, "broken"] => {
            let inv = w.invariants();
            match inv.iter().find(|x| x.0 == *name) {
                Some(x) if !x.1 => None,
                Some(_) => fail(String::from("holds")),
                None => fail(format!("no invariant named {name}")),
            }
        }
        ["outside-model"] => w.outside_model.is_none().then(|| (want.clone(), String::from("inside the model"))),
        ["features", "transaction.version", n] => {
            let got = w.cluster.transaction_version.to_string();
            (got != *n).then(|| (want.clone(), got))
        }
        ["commit-latency", p, n] => {
            // The last completed transaction's EndTxn → CompleteCommit time, in model ms.
            let got = w.completions.last().map(|c| (c.0, c.2 - c.1));
            match got {
                Some((parts, ms)) if parts.to_string() == *p && ms.to_string() == *n => None,
                Some((parts, ms)) => fail(format!("{parts} partitions, {ms}")),
                None => fail(String::from("no completed transaction")),
            }
        }
        [p, "state", st] => {
            let Some(c) = client(p) else { return fail(format!("no producer {p}")) };
            (c.state.name() != *st).then(|| (want.clone(), c.state.name().to_string()))
        }
        [p, "epoch", e] => {
            let Some(c) = client(p) else { return fail(format!("no producer {p}")) };
            (c.epoch.to_string() != *e).then(|| (want.clone(), c.epoch.to_string()))
        }
        [p, "sequence", part, n] => {
            // The TransactionManager's next sequence for the partition.
            let Some(c) = client(p) else { return fail(format!("no producer {p}")) };
            let got = c.sequences.get(*part).copied().unwrap_or(0).to_string();
            (got != *n).then(|| (want.clone(), got))
        }
        [p, "pid", n] => {
            let Some(c) = client(p) else { return fail(format!("no producer {p}")) };
            (c.pid.to_string() != *n).then(|| (want.clone(), c.pid.to_string()))
        }
        [p, "outcome", "unknown"] | [p, "outcome", "known"] => {
            let Some(c) = client(p) else { return fail(format!("no producer {p}")) };
            let got = if c.outcome_unknown { "unknown" } else { "known" };
            (got != ws[2]).then(|| (want.clone(), got.to_string()))
        }
        [p, "error", e] => {
            let Some(c) = client(p) else { return fail(format!("no producer {p}")) };
            let got = c.last_error.clone().unwrap_or_else(|| String::from("none"));
            (!got.contains(*e)).then(|| (want.clone(), got))
        }
        [p, "threw", text @ ..] => {
            let t = text.join(" ");
            let got = mem.thrown.iter().rev().find(|x| x.0 == *p).map(|x| x.1.clone());
            match got {
                Some(g) if g.contains(&t) => None,
                Some(g) => fail(g),
                None => fail(String::from("nothing thrown")),
            }
        }
        [p, "fenced"] => (!w.fenced.contains(*p)).then(|| (want.clone(), String::from("not fenced"))),
        _ => fail(String::from("unknown expect")),
    }
}
