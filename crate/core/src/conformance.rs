//! Conformance: captured answers judged against the simulator's. A [`Replay`] is a script of
//! request lines with, for each line, the exchange it replays and what the captured answer said;
//! [`judge`] runs the script (the transactions model) and gives a verdict per exchange: it
//! **agrees** (the rule that decides it), it **differs** (the field, both values, the rule and
//! its Kafka source), or it **cannot be judged** (and why). Once an answer differs, later answers
//! about its transactional.ids and partitions are not judged: the simulator's state has left the
//! broker's, and one difference is reported once.
//!
//! Data in, data out, so the capture reader (`capture::replay`, which makes a Replay from a packet
//! capture) and the judge can live in different WebAssembly packages.

use alloc::collections::BTreeMap;
use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec;
use alloc::vec::Vec;

use crate::model::errors::ErrorCode;

/// How one captured answer compares with the simulator's.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase", tag = "verdict"))]
pub enum Verdict {
    Agrees { rule: &'static str, source: &'static str },
    Differs { field: String, captured: String, simulated: String, rule: &'static str, source: &'static str },
    CannotJudge { why: String },
}

/// The verdict on one exchange (`exchange`: its index in the capture report).
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
pub struct Judged {
    pub exchange: usize,
    pub api: String,
    /// The script line that replayed it (the first, for a Produce of several partitions).
    pub line: Option<usize>,
    #[cfg_attr(feature = "serde", serde(flatten))]
    pub verdict: Verdict,
}

/// What a captured answer says, to compare: error codes by partition ("" for the answer's own),
/// and the producer id and epoch it returned.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
pub struct Captured {
    pub errors: Vec<(String, i16)>,
    pub producer: Option<(i64, i16)>,
}

/// A script line and the exchange it replays (`part`: the partition, for a Produce's lines).
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
pub struct Replayed {
    pub line: usize,
    pub exchange: usize,
    pub part: Option<String>,
}

/// An exchange as the verdicts name it: its API, connection and correlation id, and the
/// transactional.ids and partitions it is about (what a difference taints).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
pub struct ExchangeRef {
    pub index: usize,
    pub api: String,
    pub connection: usize,
    pub correlation_id: i32,
    pub keys: Vec<String>,
}

/// Captured answers as a script of request lines, with what to compare each answer with: all a
/// judge needs, as data (the capture reader makes it; the simulator's package judges it).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
pub struct Replay {
    pub script: String,
    /// Every exchange of the capture, in its order.
    pub exchanges: Vec<ExchangeRef>,
    pub lines: Vec<Replayed>,
    pub captured: Vec<(usize, Captured)>,
    /// Exchanges judged without running: why they cannot be.
    pub unjudged: Vec<(usize, String)>,
}


/// The conformance check of a capture: the replay's script and a verdict per exchange.
#[derive(Clone, Debug, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
pub struct Check {
    pub script: String,
    pub verdicts: Vec<Judged>,
    /// A script error that stopped the replay (its line and message).
    pub error: Option<String>,
}

impl Check {
    /// (agrees, differs, cannot judge) for `api` (None: all).
    pub fn counts(&self, api: Option<&str>) -> (usize, usize, usize) {
        let mine = self.verdicts.iter().filter(|j| api.is_none_or(|a| j.api == a));
        mine.fold((0, 0, 0), |(a, d, c), j| match j.verdict {
            Verdict::Agrees { .. } => (a + 1, d, c),
            Verdict::Differs { .. } => (a, d + 1, c),
            Verdict::CannotJudge { .. } => (a, d, c + 1),
        })
    }
}

/// Runs a replay's script on the simulator and judges each exchange (see the module's doc).
pub fn judge(r: &Replay) -> Check {
    let mut out = Check { script: r.script.clone(), ..Check::default() };
    let api = |i: usize| r.exchanges.get(i).map_or_else(|| String::from("?"), |e| e.api.clone());
    let unjudged: BTreeMap<usize, &String> = r.unjudged.iter().map(|(i, w)| (*i, w)).collect();
    let captured: BTreeMap<usize, &Captured> = r.captured.iter().map(|(i, c)| (*i, c)).collect();
    let replies = match crate::model::txn_scenario::parse(&r.script) {
        Err(e) => {
            out.error = Some(format!("line {}: {}", e.line, e.message));
            BTreeMap::new()
        }
        Ok(sc) => {
            let run = crate::model::txn_scenario::run(&sc, None, false);
            if let Some(e) = &run.error {
                out.error = Some(format!("line {}: {}", e.line, e.message));
            }
            run.steps.iter().filter_map(|s| s.reply.as_ref().map(|rep| (s.line, (**rep).clone()))).collect::<BTreeMap<_, _>>()
        }
    };
    // Judged in replay order: once an answer differs, the simulator's state for its
    // transactional.ids and partitions is no longer Kafka's, and later answers about them are not
    // judged (one difference is reported once, not again in everything that follows from it).
    let mut diverged: BTreeMap<String, usize> = BTreeMap::new();
    let mut order: Vec<usize> = (0..r.exchanges.len()).collect();
    order.sort_by_key(|&i| r.lines.iter().find(|l| l.exchange == i).map_or(usize::MAX, |l| l.line));
    for i in order {
        let line = r.lines.iter().find(|l| l.exchange == i).map(|l| l.line);
        let keys = &r.exchanges[i].keys;
        let touches = || keys.iter().find_map(|k| diverged.get(k).map(|&at| (k.clone(), at)));
        let verdict = if let Some(why) = unjudged.get(&i) {
            Verdict::CannotJudge { why: (*why).clone() }
        } else if let Some((k, at)) = touches() {
            let e = &r.exchanges[at];
            Verdict::CannotJudge { why: format!("the simulator's state for {k} left Kafka's at connection {} {} correlation id {} (it differs there)", e.connection, api(at), e.correlation_id) }
        } else if let Some(c) = captured.get(&i) {
            judge_one(c, r.lines.iter().filter(|l| l.exchange == i).map(|l| (l, replies.get(&l.line))), out.error.as_deref())
        } else {
            continue;
        };
        if matches!(verdict, Verdict::Differs { .. }) {
            for k in keys {
                diverged.entry(k.clone()).or_insert(i);
            }
        }
        out.verdicts.push(Judged { exchange: i, api: api(i), line, verdict });
    }
    out.verdicts.sort_by_key(|j| j.exchange);
    out
}

/// Compares one exchange's captured answer with the simulator's replies to its lines.
fn judge_one<'a>(c: &Captured, lines: impl Iterator<Item = (&'a Replayed, Option<&'a crate::model::txn::Reply>)>, error: Option<&str>) -> Verdict {
    let mut rule = ("", "");
    for (l, reply) in lines {
        let Some(reply) = reply else {
            return Verdict::CannotJudge { why: format!("the replay stopped before line {}{}", l.line, error.map(|e| format!(" ({e})")).unwrap_or_default()) };
        };
        rule = (reply.rule, reply.source);
        // The captured codes for this line: its partition's; else the answer's own; else every
        // partition's (the simulator gives such an answer one code: a partition Kafka did not
        // try, OPERATION_NOT_ATTEMPTED, matches any refusal).
        let wanted: Vec<(String, i16)> = match &l.part {
            Some(p) => c.errors.iter().filter(|(q, _)| q == p).cloned().collect(),
            None => match c.errors.iter().find(|(q, _)| q.is_empty()) {
                Some(own) => vec![own.clone()],
                None => c.errors.clone(),
            },
        };
        const OPERATION_NOT_ATTEMPTED: i16 = 55;
        let matches = |w: i16| w == reply.error_code || (w == OPERATION_NOT_ATTEMPTED && reply.error_code != 0);
        if let Some((part, want)) = wanted.iter().find(|(_, w)| !matches(*w)) {
            let field = if part.is_empty() { String::from("errorCode") } else { format!("{part} errorCode") };
            return Verdict::Differs { field, captured: ErrorCode(*want).to_string(), simulated: ErrorCode(reply.error_code).to_string(), rule: reply.rule, source: reply.source };
        }
        if let Some((pid, epoch)) = c.producer {
            if reply.producer_id != Some(pid) || reply.producer_epoch != Some(epoch) {
                let sim = format!("producerId {} producerEpoch {}", reply.producer_id.map_or("none".into(), |p| p.to_string()), reply.producer_epoch.map_or("none".into(), |e| e.to_string()));
                return Verdict::Differs { field: String::from("producerId, producerEpoch"), captured: format!("producerId {pid} producerEpoch {epoch}"), simulated: sim, rule: reply.rule, source: reply.source };
            }
        }
    }
    Verdict::Agrees { rule: rule.0, source: rule.1 }
}

