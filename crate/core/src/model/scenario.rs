// Over 800 lines: the idempotence script's parser (to `parse_expect`) and its runner (from `Run`), not yet split (issue 12); tests in scenario/leader_state_tests.rs.
//! The scenario language: a line-oriented script (with a JSON twin, the same [`Scenario`]
//! value serialized) that sets up partitions and producers, drives the model step by step,
//! and checks itself with `expect` lines. Documented in `scenarios/README.md`.
//!
//! ```text
//! title Lost response, then retry
//! partition orders-0
//! producer app
//! send app orders-0 order-1
//! deliver request b1
//! lose response b1
//! timeout app
//! deliver request b1
//! expect b1 duplicate 0..0
//! ```

use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;

use super::idempotence::{Action, BatchState, EventKind, MessageKind, ProducerConfig, Sim};
use super::partition::{MarkerVersion, Outcome};

#[cfg(feature = "serde")]
use serde::{Deserialize, Serialize};

/// A parsed scenario.
#[derive(Clone, Debug, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize), serde(rename_all = "camelCase", default))]
pub struct Scenario {
    pub title: String,
    pub about: String,
    pub start_ms: i64,
    pub first_producer_id: i64,
    pub producer_id_expiration_ms: Option<i64>,
    pub partitions: Vec<String>,
    pub producers: Vec<ProducerDecl>,
    /// `log-end PART N` and `producer-state PART …`: a leader's state given, not replayed (a
    /// real partition's, from `eoslab partition` or the inspector's directory view).
    pub leader_state: Vec<LeaderStateDecl>,
    pub steps: Vec<Step>,
}

/// One set-up line giving a partition leader's state.
#[derive(Clone, Debug, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize), serde(rename_all = "camelCase", default))]
pub struct LeaderStateDecl {
    pub line: usize,
    pub partition: String,
    /// `log-end PART N`: the log ends at N (the records below it are not in the model).
    pub log_end: Option<i64>,
    /// `producer-state PART pid=N epoch=E [coordinator-epoch=C] [timestamp=T]
    /// [txn-first-offset=F] [batch=FIRSTSEQ..LASTSEQ@FIRSTOFFSET..LASTOFFSET …]`: a
    /// `ProducerStateEntry` (at most 5 retained batches, oldest first).
    pub producer: Option<ProducerStateDecl>,
}

#[derive(Clone, Debug, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize), serde(rename_all = "camelCase", default))]
pub struct ProducerStateDecl {
    pub producer_id: i64,
    pub epoch: i16,
    pub coordinator_epoch: i32,
    /// The entry's last timestamp (and every retained batch's); the scenario's start when absent.
    pub timestamp: Option<i64>,
    pub txn_first_offset: Option<i64>,
    /// (first sequence, last sequence, first offset, last offset).
    pub batches: Vec<(i32, i32, i64, i64)>,
}

#[derive(Clone, Debug, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize), serde(rename_all = "camelCase", default))]
pub struct ProducerDecl {
    pub name: String,
    /// `key=value` settings: idempotence, max.in.flight, retries, delivery.timeout.ms,
    /// request.timeout.ms.
    pub settings: Vec<(String, String)>,
}

/// One line of the script after `#` comments are removed.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize), serde(tag = "op", rename_all = "kebab-case"))]
pub enum Step {
    Send { line: usize, producer: String, partition: String, values: Vec<String> },
    /// `attempt`: which attempt's message (`b1#2`); the latest when absent.
    Deliver { line: usize, what: Direction, batch: usize, #[cfg_attr(feature = "serde", serde(default))] attempt: Option<u32> },
    Lose { line: usize, what: Direction, batch: usize, #[cfg_attr(feature = "serde", serde(default))] attempt: Option<u32> },
    Delay { line: usize, batch: usize },
    /// The leader answers the request with a retriable error (NOT_ENOUGH_REPLICAS …).
    Refuse { line: usize, batch: usize, error: String },
    Timeout { line: usize, producer: String },
    Restart { line: usize, producer: String },
    Advance { line: usize, ms: i64 },
    LeaderChange { line: usize, partition: String },
    /// Deliver everything deliverable, oldest first, until the network is quiet.
    Flush { line: usize },
    Repeat { line: usize, times: usize, steps: Vec<Step> },
    Expect { line: usize, check: Expect },
    /// `produce PART pid=N epoch=E seq=S [txn] V …`: a Produce request with these fields,
    /// straight to the partition's leader.
    Produce { line: usize, partition: String, producer_id: i64, epoch: i16, base_sequence: i32, #[cfg_attr(feature = "serde", serde(default))] transactional: bool, values: Vec<String> },
    /// `produce PART batch=HEX`: a Produce carrying these bytes (one batch, as the inspector
    /// or a log segment shows it), straight to the partition's leader; `batch` is the hex.
    ProduceBytes { line: usize, partition: String, batch: String },
    /// `marker PART pid=N epoch=E commit|abort [coordinator-epoch=C] [tv=1|2]`: a
    /// WriteTxnMarkers request for the partition.
    Marker { line: usize, partition: String, producer_id: i64, epoch: i16, commit: bool, #[cfg_attr(feature = "serde", serde(default))] coordinator_epoch: i32, #[cfg_attr(feature = "serde", serde(default))] tv2: bool },
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize), serde(rename_all = "lowercase"))]
pub enum Direction {
    Request,
    Response,
}

/// A self-check.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize), serde(tag = "what", rename_all = "kebab-case"))]
pub enum Expect {
    /// The leader's latest decision on batch `b`: "appended" | "duplicate" | an error name.
    Decision { batch: usize, outcome: String, offsets: Option<(i64, i64)> },
    /// The batch's state at the client: "acked" | "failed" | "abandoned" | "in-flight" | "queued".
    Client { batch: usize, state: String, detail: Option<String> },
    /// Record values in a partition's log, in offset order.
    Log { partition: String, values: Vec<String> },
    /// Producer-state entries held by a partition.
    Producers { partition: String, count: usize },
    /// A producer's id and epoch.
    Producer { producer: String, pid: Option<i64>, epoch: Option<i16> },
    /// The leader's answer to the latest `produce` or `marker` line: "appended" | "duplicate" |
    /// an error name.
    Last { outcome: String, offsets: Option<(i64, i64)> },
    /// A partition's last stable offset.
    Lso { partition: String, offset: i64 },
}

/// A parse error, with its 1-based line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError {
    pub line: usize,
    pub message: String,
}

impl core::fmt::Display for ParseError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "line {}: {}", self.line, self.message)
    }
}

fn perr<T>(line: usize, m: impl Into<String>) -> Result<T, ParseError> {
    Err(ParseError { line, message: m.into() })
}

/// `30s`, `500ms`, `2h`, `1d`, `15m` or plain milliseconds.
pub fn parse_duration(s: &str) -> Option<i64> {
    let (num, mul) = if let Some(n) = s.strip_suffix("ms") {
        (n, 1)
    } else if let Some(n) = s.strip_suffix('s') {
        (n, 1000)
    } else if let Some(n) = s.strip_suffix('m') {
        (n, 60_000)
    } else if let Some(n) = s.strip_suffix('h') {
        (n, 3_600_000)
    } else if let Some(n) = s.strip_suffix('d') {
        (n, 86_400_000)
    } else {
        (s, 1)
    };
    num.parse::<i64>().ok().and_then(|n| n.checked_mul(mul))
}

fn batch_ref(line: usize, s: &str) -> Result<usize, ParseError> {
    match s.strip_prefix('b').and_then(|n| n.parse::<usize>().ok()) {
        Some(n) if n >= 1 => Ok(n),
        _ => perr(line, format!("expected a batch name like b1, found {s:?}")),
    }
}

/// `b3` or `b3#2` (attempt 2).
fn message_ref(line: usize, s: &str) -> Result<(usize, Option<u32>), ParseError> {
    match s.split_once('#') {
        None => Ok((batch_ref(line, s)?, None)),
        Some((b, a)) => match a.parse::<u32>() {
            Ok(a) if a >= 1 => Ok((batch_ref(line, b)?, Some(a))),
            _ => perr(line, format!("expected an attempt number after #, found {a:?}")),
        },
    }
}

fn direction(line: usize, s: &str) -> Result<Direction, ParseError> {
    match s {
        "request" | "req" => Ok(Direction::Request),
        "response" | "resp" => Ok(Direction::Response),
        _ => perr(line, format!("expected request or response, found {s:?}")),
    }
}

fn range(line: usize, s: &str) -> Result<(i64, i64), ParseError> {
    let (a, b) = s.split_once("..").unwrap_or((s, s));
    match (a.parse(), b.parse()) {
        (Ok(a), Ok(b)) => Ok((a, b)),
        _ => perr(line, format!("expected offsets like 0..2, found {s:?}")),
    }
}

/// Parse a scenario script.
pub fn parse(text: &str) -> Result<Scenario, ParseError> {
    // An error names its line, quotes it and suggests the nearest verb or name (issue 14).
    parse_script(text).map_err(|e| super::suggest::explain(e, text, super::suggest::IDEMPOTENCE_VERBS))
}

fn parse_script(text: &str) -> Result<Scenario, ParseError> {
    let mut sc = Scenario { start_ms: 1_700_000_000_000, first_producer_id: 1000, ..Default::default() };
    for (i, raw) in text.lines().enumerate() {
        let line = i + 1;
        let content = strip_comment(raw).trim();
        if content.is_empty() {
            continue;
        }
        let (word, rest) = content.split_once(char::is_whitespace).unwrap_or((content, ""));
        let rest = rest.trim();
        match word {
            "title" => sc.title = rest.to_string(),
            "about" => {
                if !sc.about.is_empty() {
                    sc.about.push(' ');
                }
                sc.about.push_str(rest);
            }
            "time" => sc.start_ms = rest.parse().or_else(|_| perr(line, "time needs epoch milliseconds"))?,
            "first-producer-id" => sc.first_producer_id = rest.parse().or_else(|_| perr(line, "expected a number"))?,
            "broker" => {
                for kv in rest.split_whitespace() {
                    match kv.split_once('=') {
                        Some(("producer.id.expiration.ms", v)) => {
                            sc.producer_id_expiration_ms =
                                Some(parse_duration(v).ok_or_else(|| ParseError { line, message: format!("bad duration {v:?}") })?)
                        }
                        _ => return perr(line, format!("unknown broker setting {kv:?} (producer.id.expiration.ms)")),
                    }
                }
            }
            "partition" => {
                for p in rest.split_whitespace() {
                    sc.partitions.push(p.to_string());
                }
            }
            "producer" => {
                let mut it = rest.split_whitespace();
                let name = it.next().ok_or(ParseError { line, message: "producer needs a name".into() })?;
                let mut settings = Vec::new();
                for kv in it {
                    let Some((k, v)) = kv.split_once('=') else { return perr(line, format!("expected key=value, found {kv:?}")) };
                    settings.push((k.to_string(), v.to_string()));
                }
                let decl = ProducerDecl { name: name.to_string(), settings };
                producer_config(&decl).map_err(|m| ParseError { line, message: m })?;
                sc.producers.push(decl);
            }
            "log-end" | "producer-state" => {
                let decl = parse_leader_state(line, word, rest)?;
                sc.leader_state.push(decl);
            }
            _ => sc.steps.push(parse_step(line, content, &sc)?),
        }
    }
    if sc.partitions.is_empty() {
        return perr(1, "a scenario needs at least one `partition` line");
    }
    check_leader_state(&sc)?;
    Ok(sc)
}

fn parse_leader_state(line: usize, word: &str, rest: &str) -> Result<LeaderStateDecl, ParseError> {
    let words: Vec<&str> = rest.split_whitespace().collect();
    let Some(&partition) = words.first() else { return perr(line, format!("`{word}` needs a partition")) };
    let mut decl = LeaderStateDecl { line, partition: partition.to_string(), ..Default::default() };
    let num = |w: &str, v: &str| v.parse::<i64>().or_else(|_| perr(line, format!("{w}: expected a number")));
    if word == "log-end" {
        let [_, n] = words[..] else { return perr(line, "expected `log-end PART N`") };
        let n = num(n, n)?;
        if n < 0 {
            return perr(line, "the log end is an offset (0 or more)");
        }
        decl.log_end = Some(n);
        return Ok(decl);
    }
    let mut p = ProducerStateDecl { coordinator_epoch: -1, ..Default::default() };
    let (mut pid, mut epoch) = (None, None);
    for w in &words[1..] {
        let Some((k, v)) = w.split_once('=') else { return perr(line, format!("expected key=value, found {w:?}")) };
        match k {
            "pid" => pid = Some(num(w, v)?),
            "epoch" => epoch = Some(i16::try_from(num(w, v)?).or_else(|_| perr(line, "epoch is a 16-bit number"))?),
            "coordinator-epoch" => p.coordinator_epoch = i32::try_from(num(w, v)?).or_else(|_| perr(line, "coordinator-epoch is a 32-bit number"))?,
            "timestamp" => p.timestamp = Some(num(w, v)?),
            "txn-first-offset" => p.txn_first_offset = Some(num(w, v)?),
            "batch" => {
                let bad = || ParseError { line, message: format!("{w}: expected batch=FIRSTSEQ..LASTSEQ@FIRSTOFFSET..LASTOFFSET") };
                let (seqs, offs) = v.split_once('@').ok_or_else(bad)?;
                let (fs, ls) = seqs.split_once("..").ok_or_else(bad)?;
                let (fo, lo) = offs.split_once("..").ok_or_else(bad)?;
                let (fs, ls) = (fs.parse::<i32>().map_err(|_| bad())?, ls.parse::<i32>().map_err(|_| bad())?);
                let (fo, lo) = (fo.parse::<i64>().map_err(|_| bad())?, lo.parse::<i64>().map_err(|_| bad())?);
                if lo < fo || fo < 0 || lo - fo > i32::MAX as i64 {
                    return perr(line, format!("{w}: the offsets must be FIRST..LAST with FIRST ≤ LAST"));
                }
                if crate::sequence::increment(fs, (lo - fo) as i32) != ls {
                    return perr(line, format!("{w}: {} records from sequence {fs} end at sequence {}, not {ls}", lo - fo + 1, crate::sequence::increment(fs, (lo - fo) as i32)));
                }
                if p.batches.len() == super::partition::NUM_BATCHES_TO_RETAIN {
                    return perr(line, "a producer's state retains at most 5 batches (ProducerStateEntry.NUM_BATCHES_TO_RETAIN)");
                }
                p.batches.push((fs, ls, fo, lo));
            }
            _ => return perr(line, format!("unknown producer-state field {k:?} (pid, epoch, coordinator-epoch, timestamp, txn-first-offset, batch)")),
        }
    }
    let (Some(pid), Some(epoch)) = (pid, epoch) else { return perr(line, "`producer-state PART` needs pid=N and epoch=E") };
    if pid < 0 {
        return perr(line, "pid is a producer id (0 or more)");
    }
    p.producer_id = pid;
    p.epoch = epoch;
    decl.producer = Some(p);
    Ok(decl)
}

/// The partitions named exist; every offset a producer-state line names is below its log end.
fn check_leader_state(sc: &Scenario) -> Result<(), ParseError> {
    for d in &sc.leader_state {
        if !sc.partitions.iter().any(|p| *p == d.partition) {
            return perr(d.line, format!("unknown partition {:?}", d.partition));
        }
        let Some(p) = &d.producer else { continue };
        let end = leader_log_end(sc, &d.partition);
        let top = p.batches.iter().map(|b| b.3).chain(p.txn_first_offset).max();
        if let Some(top) = top {
            if top >= end {
                return perr(d.line, format!("offset {top} is at or past the log end {end} of {} (add `log-end {} N`)", d.partition, d.partition));
            }
        }
        if p.batches.windows(2).any(|w| w[1].2 <= w[0].3) {
            return perr(d.line, "the retained batches are oldest first, at increasing offsets");
        }
    }
    Ok(())
}

/// The log end a scenario gives a partition: its `log-end` line, else just past the highest
/// offset its producer-state lines name, else 0.
fn leader_log_end(sc: &Scenario, partition: &str) -> i64 {
    let mine = || sc.leader_state.iter().filter(move |d| d.partition == partition);
    if let Some(n) = mine().filter_map(|d| d.log_end).last() {
        return n;
    }
    mine()
        .filter_map(|d| d.producer.as_ref())
        .flat_map(|p| p.batches.iter().map(|b| b.3 + 1).chain(p.txn_first_offset.map(|o| o + 1)))
        .max()
        .unwrap_or(0)
}

/// The line without its comment: `#` starts one at the beginning of the line or after
/// whitespace, so a message name such as `b3#2` (b3's second attempt) is not cut.
pub fn strip_comment(raw: &str) -> &str {
    let b = raw.as_bytes();
    for (i, &c) in b.iter().enumerate() {
        if c == b'#' && (i == 0 || b[i - 1].is_ascii_whitespace()) {
            return &raw[..i];
        }
    }
    raw
}

pub(super) fn parse_step(line: usize, content: &str, sc: &Scenario) -> Result<Step, ParseError> {
    let words: Vec<&str> = content.split_whitespace().collect();
    let need = |n: usize| -> Result<(), ParseError> {
        if words.len() < n {
            perr(line, format!("`{}` needs {} argument(s)", words[0], n - 1))
        } else {
            Ok(())
        }
    };
    let producer = |s: &str| -> Result<String, ParseError> {
        if sc.producers.iter().any(|p| p.name == s) {
            Ok(s.to_string())
        } else {
            perr(line, format!("unknown producer {s:?}: declare it with `producer {s}`"))
        }
    };
    let partition = |s: &str| -> Result<String, ParseError> {
        if sc.partitions.iter().any(|p| p == s) {
            Ok(s.to_string())
        } else {
            perr(line, format!("unknown partition {s:?}: declare it with `partition {s}`"))
        }
    };
    Ok(match words[0] {
        "send" => {
            need(4)?;
            Step::Send {
                line,
                producer: producer(words[1])?,
                partition: partition(words[2])?,
                values: words[3..].iter().map(|s| s.to_string()).collect(),
            }
        }
        "deliver" => {
            need(3)?;
            let (batch, attempt) = message_ref(line, words[2])?;
            Step::Deliver { line, what: direction(line, words[1])?, batch, attempt }
        }
        "lose" => {
            need(3)?;
            let (batch, attempt) = message_ref(line, words[2])?;
            Step::Lose { line, what: direction(line, words[1])?, batch, attempt }
        }
        "delay" => {
            need(3)?;
            if direction(line, words[1])? != Direction::Request {
                return perr(line, "only requests can be delayed");
            }
            Step::Delay { line, batch: batch_ref(line, words[2])? }
        }
        "refuse" => {
            need(4)?;
            if direction(line, words[1])? != Direction::Request {
                return perr(line, "only requests can be refused");
            }
            if super::errors::ErrorCode::from_name(words[3]).is_none() {
                return perr(line, format!("unknown error {:?}", words[3]));
            }
            Step::Refuse { line, batch: batch_ref(line, words[2])?, error: words[3].to_string() }
        }
        "timeout" => {
            need(2)?;
            Step::Timeout { line, producer: producer(words[1])? }
        }
        "restart" => {
            need(2)?;
            Step::Restart { line, producer: producer(words[1])? }
        }
        "advance" => {
            need(2)?;
            Step::Advance { line, ms: parse_duration(words[1]).ok_or(ParseError { line, message: format!("bad duration {:?}", words[1]) })? }
        }
        "leader-change" => {
            need(2)?;
            Step::LeaderChange { line, partition: partition(words[1])? }
        }
        "flush" => Step::Flush { line },
        "produce" if words.iter().any(|w| w.starts_with("batch=")) => {
            // The bytes alone: their header says who sent them (as in the transactions scripts).
            need(2)?;
            let part = partition(words[1])?;
            let [_, _, w] = words[..] else { return perr(line, "`produce PART batch=HEX` takes the batch alone (its header has the producer id, epoch and sequences)") };
            let hex = w.strip_prefix("batch=").unwrap_or_default();
            let bytes = crate::spec::parse_hex(hex).or_else(|e| perr(line, format!("batch=: {e}")))?;
            if bytes.is_empty() {
                return perr(line, "batch= needs the batch's bytes in hex");
            }
            Step::ProduceBytes { line, partition: part, batch: crate::report::to_hex(&bytes) }
        }
        "produce" | "marker" => {
            need(2)?;
            let part = partition(words[1])?;
            let (mut pid, mut epoch, mut seq, mut txn, mut commit, mut ce, mut tv2) = (None, None, None, false, None, 0i32, false);
            let mut values = Vec::new();
            for w in &words[2..] {
                let num = |v: &str| v.parse::<i64>().or_else(|_| perr(line, format!("{w}: expected a number")));
                match w.split_once('=') {
                    Some(("pid", v)) => pid = Some(num(v)?),
                    Some(("epoch", v)) => epoch = Some(i16::try_from(num(v)?).or_else(|_| perr(line, "epoch is a 16-bit number"))?),
                    Some(("seq", v)) => seq = Some(i32::try_from(num(v)?).or_else(|_| perr(line, "seq is a 32-bit number"))?),
                    Some(("coordinator-epoch", v)) if words[0] == "marker" => ce = i32::try_from(num(v)?).or_else(|_| perr(line, "coordinator-epoch is a 32-bit number"))?,
                    Some(("tv", v)) if words[0] == "marker" => {
                        tv2 = match v {
                            "1" | "0" => false,
                            "2" => true,
                            _ => return perr(line, "tv is 1 or 2"),
                        }
                    }
                    None if *w == "txn" && words[0] == "produce" => txn = true,
                    None if (*w == "commit" || *w == "abort") && words[0] == "marker" => commit = Some(*w == "commit"),
                    None if words[0] == "produce" => values.push(w.to_string()),
                    _ => return perr(line, format!("unexpected {w:?}")),
                }
            }
            let (Some(producer_id), Some(epoch)) = (pid, epoch) else { return perr(line, format!("`{}` needs pid=N and epoch=E", words[0])) };
            if words[0] == "produce" {
                let Some(base_sequence) = seq else { return perr(line, "`produce` needs seq=S (-1 for none)") };
                if values.is_empty() {
                    return perr(line, "`produce PART pid=N epoch=E seq=S [txn] VALUE…` needs at least one record value");
                }
                Step::Produce { line, partition: part, producer_id, epoch, base_sequence, transactional: txn, values }
            } else {
                let Some(commit) = commit else { return perr(line, "`marker` needs commit or abort") };
                Step::Marker { line, partition: part, producer_id, epoch, commit, coordinator_epoch: ce, tv2 }
            }
        }
        "repeat" => {
            // repeat N: step; step; …
            let rest = content["repeat".len()..].trim();
            let Some((n, body)) = rest.split_once(':') else { return perr(line, "expected `repeat N: step; step`") };
            let times = n.trim().parse::<usize>().or_else(|_| perr(line, "repeat needs a count"))?;
            if times > 100_000 {
                return perr(line, "repeat at most 100000 times");
            }
            let mut steps = Vec::new();
            for part in body.split(';').map(str::trim).filter(|s| !s.is_empty()) {
                steps.push(parse_step(line, part, sc)?);
            }
            Step::Repeat { line, times, steps }
        }
        "expect" => Step::Expect { line, check: parse_expect(line, &words[1..], sc)? },
        other => return perr(line, format!("unknown command {other:?}")),
    })
}

fn parse_expect(line: usize, w: &[&str], sc: &Scenario) -> Result<Expect, ParseError> {
    if w.is_empty() {
        return perr(line, "expect what?");
    }
    match w[0] {
        "log" => {
            if w.len() < 2 || !sc.partitions.iter().any(|p| p == w[1]) {
                return perr(line, "expect log PARTITION VALUE…");
            }
            Ok(Expect::Log { partition: w[1].to_string(), values: w[2..].iter().map(|s| s.to_string()).collect() })
        }
        "producers" => {
            if w.len() != 3 {
                return perr(line, "expect producers PARTITION COUNT");
            }
            Ok(Expect::Producers {
                partition: w[1].to_string(),
                count: w[2].parse().or_else(|_| perr(line, "expected a count"))?,
            })
        }
        "last" => {
            let what = w.get(1).copied().unwrap_or("");
            match what {
                "appended" | "duplicate" => Ok(Expect::Last { outcome: what.to_string(), offsets: w.get(2).map(|r| range(line, r)).transpose()? }),
                "rejected" => Ok(Expect::Last { outcome: w.get(2).ok_or(ParseError { line, message: "rejected with which error?".into() })?.to_string(), offsets: None }),
                _ => perr(line, "expect last appended|duplicate [A..B] | rejected ERROR"),
            }
        }
        "lso" => {
            if w.len() != 3 || !sc.partitions.iter().any(|p| p == w[1]) {
                return perr(line, "expect lso PARTITION OFFSET");
            }
            Ok(Expect::Lso { partition: w[1].to_string(), offset: w[2].parse().or_else(|_| perr(line, "expected an offset"))? })
        }
        "producer" => {
            if w.len() < 2 {
                return perr(line, "expect producer NAME [pid N] [epoch E]");
            }
            let mut e = Expect::Producer { producer: w[1].to_string(), pid: None, epoch: None };
            let mut i = 2;
            while i + 1 < w.len() + 1 && i < w.len() {
                let v = w.get(i + 1).copied().unwrap_or("");
                match (&mut e, w[i]) {
                    (Expect::Producer { pid, .. }, "pid") => *pid = Some(v.parse().or_else(|_| perr(line, "pid needs a number"))?),
                    (Expect::Producer { epoch, .. }, "epoch") => *epoch = Some(v.parse().or_else(|_| perr(line, "epoch needs a number"))?),
                    _ => return perr(line, format!("unexpected {:?}", w[i])),
                }
                i += 2;
            }
            Ok(e)
        }
        b => {
            let batch = batch_ref(line, b)?;
            let what = w.get(1).copied().unwrap_or("");
            match what {
                "appended" | "duplicate" => Ok(Expect::Decision {
                    batch,
                    outcome: what.to_string(),
                    offsets: w.get(2).map(|r| range(line, r)).transpose()?,
                }),
                "rejected" => Ok(Expect::Decision {
                    batch,
                    outcome: w.get(2).ok_or(ParseError { line, message: "rejected with which error?".into() })?.to_string(),
                    offsets: None,
                }),
                "acked" | "failed" | "abandoned" | "in-flight" | "queued" => {
                    Ok(Expect::Client { batch, state: what.to_string(), detail: w.get(2).map(|s| s.to_string()) })
                }
                _ => perr(line, "expect bN appended|duplicate [A..B] | rejected ERROR | acked [A..B] | failed [Exception] | abandoned | in-flight | queued"),
            }
        }
    }
}

fn producer_config(d: &ProducerDecl) -> Result<ProducerConfig, String> {
    let mut c = ProducerConfig::default();
    for (k, v) in &d.settings {
        let num = || v.parse::<i64>().map_err(|_| format!("{k} needs a number, found {v:?}"));
        match k.as_str() {
            "idempotence" | "enable.idempotence" => {
                c.idempotence = match v.as_str() {
                    "true" => true,
                    "false" => false,
                    _ => return Err(format!("{k} is true or false")),
                }
            }
            "max.in.flight" | "max.in.flight.requests.per.connection" => {
                let n = num()?;
                if !(1..=1000).contains(&n) {
                    return Err(String::from("max.in.flight must be 1..1000"));
                }
                c.max_in_flight = n as usize
            }
            "retries" => c.retries = num()?,
            "start-sequence" => {
                let n = num()?;
                if !(0..=i32::MAX as i64).contains(&n) {
                    return Err(String::from("start-sequence must be 0..2147483647"));
                }
                c.start_sequence = n as i32
            }
            "delivery.timeout.ms" => c.delivery_timeout_ms = parse_duration(v).ok_or(format!("bad duration {v:?}"))?,
            "request.timeout.ms" => c.request_timeout_ms = parse_duration(v).ok_or(format!("bad duration {v:?}"))?,
            _ => return Err(format!("unknown producer setting {k:?}")),
        }
    }
    Ok(c)
}

/// An `expect` that did not hold.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(Serialize), serde(rename_all = "camelCase"))]
pub struct Failure {
    pub line: usize,
    pub expected: String,
    pub got: String,
}

/// A step as run: its script line, and the trace events it produced.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StepRun {
    pub line: usize,
    pub text: String,
    pub events: core::ops::Range<usize>,
    pub ok: bool,
    /// Producer-state entries held by each partition's leader after this step (the
    /// broker memory a producer-per-request application fills).
    pub producer_entries: Vec<usize>,
}

/// The result of running a scenario.
#[derive(Clone, Debug)]
pub struct Run {
    pub scenario: Scenario,
    pub sim: Sim,
    pub steps: Vec<StepRun>,
    pub failures: Vec<Failure>,
    /// A step that could not be carried out (e.g. delivering a message that is not there).
    pub error: Option<ParseError>,
}

impl Run {
    pub fn passed(&self) -> bool {
        self.failures.is_empty() && self.error.is_none()
    }
}

/// Set up the model for a scenario.
pub fn setup(sc: &Scenario) -> Sim {
    let mut sim = Sim::new(sc.start_ms, sc.first_producer_id);
    for p in &sc.partitions {
        let i = sim.add_partition(p);
        if let Some(ttl) = sc.producer_id_expiration_ms {
            sim.partitions[i].producer_id_expiration_ms = ttl;
        }
    }
    for d in &sc.producers {
        sim.add_producer(&d.name, producer_config(d).unwrap_or_default());
    }
    for (i, name) in sc.partitions.iter().enumerate() {
        let decls: Vec<&LeaderStateDecl> = sc.leader_state.iter().filter(|d| d.partition == *name).collect();
        if decls.is_empty() {
            continue;
        }
        let part = &mut sim.partitions[i];
        part.log_end_offset = leader_log_end(sc, name);
        for p in decls.iter().filter_map(|d| d.producer.as_ref()) {
            let ts = p.timestamp.unwrap_or(sc.start_ms);
            part.load_producer_state(
                p.producer_id,
                p.epoch,
                p.coordinator_epoch,
                ts,
                p.txn_first_offset,
                p.batches.iter().map(|&(_, ls, fo, lo)| super::partition::BatchMetadata {
                    last_seq: ls,
                    last_offset: lo,
                    offset_delta: (lo - fo) as i32,
                    timestamp: ts,
                }),
            );
        }
    }
    sim
}

/// Run a scenario to its end (stopping at a step that cannot be carried out).
pub fn run(sc: &Scenario) -> Run {
    run_sim(sc, setup(sc))
}

/// [`run`], keeping the leader's replay log ([`Sim::leader_log`]): every Produce a leader
/// decided, with its bytes, and every expiration check, in order.
pub fn run_logged(sc: &Scenario) -> Run {
    let mut sim = setup(sc);
    sim.leader_log = Some(Vec::new());
    run_sim(sc, sim)
}

fn run_sim(sc: &Scenario, mut sim: Sim) -> Run {
    let mut out = Run { scenario: sc.clone(), sim: Sim::new(0, 0), steps: Vec::new(), failures: Vec::new(), error: None };
    let mut budget = 2_000_000usize;
    for s in &sc.steps {
        if let Err(e) = exec(&mut sim, s, &mut out, &mut budget, false) {
            out.error = Some(e);
            break;
        }
    }
    out.sim = sim;
    out
}

pub(super) fn exec(sim: &mut Sim, s: &Step, out: &mut Run, budget: &mut usize, nested: bool) -> Result<(), ParseError> {
    if *budget == 0 {
        return perr(step_line(s), "step budget exhausted (the scenario is too long)");
    }
    *budget -= 1;
    let start = sim.trace.len();
    let line = step_line(s);
    let act = |sim: &mut Sim, a: Action| sim.step(&a).map_err(|m| ParseError { line, message: m });
    let mut ok = true;
    match s {
        Step::Send { producer, partition, values, .. } => {
            let (p, q) = (producer_idx(sim, producer), partition_idx(sim, partition));
            act(sim, Action::Send { producer: p, partition: q, values: values.clone() })?;
        }
        Step::Deliver { what, batch, attempt, .. } | Step::Lose { what, batch, attempt, .. } => {
            let resp = *what == Direction::Response;
            let found = match attempt {
                Some(a) => sim
                    .wire
                    .iter()
                    .find(|m| m.batch == *batch && m.attempt == *a && matches!(m.kind, MessageKind::Response(_)) == resp),
                None => sim.latest_message(*batch, resp),
            };
            let Some(m) = found.map(|m| m.id) else {
                return perr(line, format!("b{batch} has no {} in the network", if resp { "response" } else { "request" }));
            };
            let a = if matches!(s, Step::Deliver { .. }) { Action::Deliver { message: m } } else { Action::Lose { message: m } };
            act(sim, a)?;
        }
        Step::Delay { batch, .. } => {
            let Some(m) = sim.latest_message(*batch, false).map(|m| m.id) else {
                return perr(line, format!("b{batch} has no request in the network"));
            };
            act(sim, Action::Delay { message: m })?;
        }
        Step::Refuse { batch, error, .. } => {
            let Some(m) = sim.latest_message(*batch, false).map(|m| m.id) else {
                return perr(line, format!("b{batch} has no request in the network"));
            };
            let code = super::errors::ErrorCode::from_name(error).unwrap_or(super::errors::ErrorCode::NOT_ENOUGH_REPLICAS);
            act(sim, Action::Refuse { message: m, code })?;
        }
        Step::Timeout { producer, .. } => act(sim, Action::Timeout { producer: producer_idx(sim, producer) })?,
        Step::Restart { producer, .. } => act(sim, Action::Restart { producer: producer_idx(sim, producer) })?,
        Step::Advance { ms, .. } => act(sim, Action::Advance { ms: *ms })?,
        Step::ProduceBytes { partition, batch, .. } => act(
            sim,
            Action::ProduceBytes { partition: partition_idx(sim, partition), bytes: crate::spec::parse_hex(batch).or_else(|e| perr(line, format!("batch=: {e}")))? },
        )?,
        Step::Produce { partition, producer_id, epoch, base_sequence, transactional, values, .. } => act(
            sim,
            Action::Produce {
                partition: partition_idx(sim, partition),
                producer_id: *producer_id,
                epoch: *epoch,
                base_sequence: *base_sequence,
                transactional: *transactional,
                values: values.clone(),
            },
        )?,
        Step::Marker { partition, producer_id, epoch, commit, coordinator_epoch, tv2, .. } => act(
            sim,
            Action::Marker {
                partition: partition_idx(sim, partition),
                producer_id: *producer_id,
                epoch: *epoch,
                commit: *commit,
                coordinator_epoch: *coordinator_epoch,
                version: if *tv2 { MarkerVersion::Tv2 } else { MarkerVersion::Tv1 },
            },
        )?,
        Step::LeaderChange { partition, .. } => act(sim, Action::LeaderChange { partition: partition_idx(sim, partition) })?,
        Step::Flush { .. } => {
            let mut n = 0;
            while let Some(m) = sim.first_deliverable() {
                act(sim, Action::Deliver { message: m })?;
                n += 1;
                if n > 100_000 {
                    return perr(line, "flush did not settle");
                }
            }
        }
        Step::Repeat { times, steps, .. } => {
            let failures_before = out.failures.len();
            for _ in 0..*times {
                for st in steps {
                    exec(sim, st, out, budget, true)?;
                }
            }
            ok = out.failures.len() == failures_before;
        }
        Step::Expect { check, .. } => {
            if let Err((expected, got)) = check_expect(sim, check) {
                ok = false;
                out.failures.push(Failure { line, expected, got });
            }
        }
    }
    if !nested {
        // Only top-level steps are recorded: a `repeat` body's steps are not described.
        let text = describe(s);
        let producer_entries = sim.partitions.iter().map(|p| p.producer_count()).collect();
        out.steps.push(StepRun { line, text, events: start..sim.trace.len(), ok, producer_entries });
    }
    Ok(())
}

fn producer_idx(sim: &Sim, name: &str) -> usize {
    sim.producers.iter().position(|p| p.name == name).unwrap_or(0)
}

fn partition_idx(sim: &Sim, name: &str) -> usize {
    sim.partitions.iter().position(|p| p.name == name).unwrap_or(0)
}

pub fn step_line(s: &Step) -> usize {
    match s {
        Step::Send { line, .. }
        | Step::Deliver { line, .. }
        | Step::Lose { line, .. }
        | Step::Delay { line, .. }
        | Step::Refuse { line, .. }
        | Step::Timeout { line, .. }
        | Step::Restart { line, .. }
        | Step::Advance { line, .. }
        | Step::LeaderChange { line, .. }
        | Step::Flush { line }
        | Step::Repeat { line, .. }
        | Step::Expect { line, .. }
        | Step::Produce { line, .. }
        | Step::ProduceBytes { line, .. }
        | Step::Marker { line, .. } => *line,
    }
}

/// The step as script text (the text twin of the JSON form).
pub fn describe(s: &Step) -> String {
    let dir = |d: &Direction| if *d == Direction::Request { "request" } else { "response" };
    match s {
        Step::Send { producer, partition, values, .. } => format!("send {producer} {partition} {}", values.join(" ")),
        Step::Deliver { what, batch, attempt, .. } => format!("deliver {} {}", dir(what), msg_name(*batch, *attempt)),
        Step::Lose { what, batch, attempt, .. } => format!("lose {} {}", dir(what), msg_name(*batch, *attempt)),
        Step::Delay { batch, .. } => format!("delay request b{batch}"),
        Step::Refuse { batch, error, .. } => format!("refuse request b{batch} {error}"),
        Step::Timeout { producer, .. } => format!("timeout {producer}"),
        Step::Restart { producer, .. } => format!("restart {producer}"),
        Step::Advance { ms, .. } => format!("advance {ms}ms"),
        Step::LeaderChange { partition, .. } => format!("leader-change {partition}"),
        Step::Flush { .. } => String::from("flush"),
        Step::Repeat { times, steps, .. } => {
            format!("repeat {times}: {}", steps.iter().map(describe).collect::<Vec<_>>().join("; "))
        }
        Step::Expect { check, .. } => format!("expect {}", describe_expect(check)),
        Step::Produce { partition, producer_id, epoch, base_sequence, transactional, values, .. } => {
            format!("produce {partition} pid={producer_id} epoch={epoch} seq={base_sequence}{} {}", if *transactional { " txn" } else { "" }, values.join(" "))
        }
        Step::ProduceBytes { partition, batch, .. } => format!("produce {partition} batch={batch}"),
        Step::Marker { partition, producer_id, epoch, commit, coordinator_epoch, tv2, .. } => format!(
            "marker {partition} pid={producer_id} epoch={epoch} {} coordinator-epoch={coordinator_epoch} tv={}",
            if *commit { "commit" } else { "abort" },
            if *tv2 { 2 } else { 1 }
        ),
    }
}

fn msg_name(batch: usize, attempt: Option<u32>) -> String {
    match attempt {
        Some(a) => format!("b{batch}#{a}"),
        None => format!("b{batch}"),
    }
}

/// What can happen next, as script lines a view can append (its step buttons): each is
/// (label, line). Running the script with the line appended performs that action.
pub fn next_lines(sim: &Sim) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let msg = |id: usize| -> Option<(String, &'static str, u32, usize)> {
        let m = sim.message(id)?;
        let resp = matches!(m.kind, MessageKind::Response(_));
        let latest = sim.latest_message(m.batch, resp).map(|l| l.id) == Some(id);
        let name = msg_name(m.batch, if latest { None } else { Some(m.attempt) });
        Some((name, if resp { "response" } else { "request" }, m.attempt, m.batch))
    };
    for a in sim.enabled_actions() {
        let item = match a {
            Action::Deliver { message } => msg(message).map(|(n, d, at, b)| {
                (format!("deliver b{b} {d} (attempt {at})"), format!("deliver {d} {n}"))
            }),
            Action::Lose { message } => msg(message).map(|(n, d, at, b)| (format!("lose b{b} {d} (attempt {at})"), format!("lose {d} {n}"))),
            Action::Delay { message } => msg(message).and_then(|(n, _, at, b)| {
                (!n.contains('#')).then(|| (format!("hold up b{b} request (attempt {at})"), format!("delay request b{b}")))
            }),
            Action::Refuse { message, code } => msg(message).and_then(|(n, _, at, b)| {
                (!n.contains('#')).then(|| (format!("refuse b{b} request (attempt {at}) with {}", code.name()), format!("refuse request b{b} {}", code.name())))
            }),
            Action::Timeout { producer } => {
                let p = &sim.producers[producer].name;
                Some((format!("{p}: request times out"), format!("timeout {p}")))
            }
            Action::Send { producer, partition, values } => {
                let p = &sim.producers[producer].name;
                let q = &sim.partitions[partition].name;
                Some((format!("{p} sends to {q}"), format!("send {p} {q} {}", values.join(" "))))
            }
            Action::Restart { producer } => {
                let p = &sim.producers[producer].name;
                Some((format!("restart {p} (new producer id)"), format!("restart {p}")))
            }
            Action::Advance { ms } => Some((String::from("a day passes"), format!("advance {ms}ms"))),
            Action::LeaderChange { partition } => {
                let q = &sim.partitions[partition].name;
                Some((format!("leader of {q} changes"), format!("leader-change {q}")))
            }
            // Requests with chosen fields are written, not offered.
            Action::Produce { .. } | Action::ProduceBytes { .. } | Action::Marker { .. } => None,
        };
        if let Some(i) = item {
            out.push(i);
        }
    }
    if !sim.deliverable().is_empty() {
        out.push((String::from("deliver everything"), String::from("flush")));
    }
    out
}

fn describe_expect(e: &Expect) -> String {
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

fn check_expect(sim: &Sim, e: &Expect) -> Result<(), (String, String)> {
    let want = describe_expect(e);
    match e {
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
            let got = sim.partitions[partition_idx(sim, partition)].producer_count();
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
            let got = sim.partitions[partition_idx(sim, partition)].last_stable_offset();
            if got != *offset {
                return Err((want, format!("lso {partition} {got}")));
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

/// The run as a text ladder: one line per event, grouped under the script step that
/// caused it, with the leader's decisions and their rules. Used by the CLI and snapshots.
pub fn ladder(run: &Run) -> String {
    let sim = &run.sim;
    let mut s = String::new();
    if !run.scenario.title.is_empty() {
        s.push_str(&format!("# {}\n", run.scenario.title));
    }
    let t0 = run.scenario.start_ms;
    for st in &run.steps {
        let mark = if st.ok { "" } else { "   ✗ FAILED" };
        s.push_str(&format!("{:>4}  {}{mark}\n", st.line, st.text));
        let events = &sim.trace[st.events.clone()];
        // Long stretches (a `repeat`) show their first and last events.
        let (head, tail) = if events.len() > 40 { (16, 8) } else { (events.len(), 0) };
        let shown = events[..head].iter().chain(events[events.len() - tail..].iter());
        for (i, ev) in shown.enumerate() {
            if i == head && tail > 0 {
                s.push_str(&format!("      … {} more events …\n", events.len() - head - tail));
            }
            let arrow = match &ev.kind {
                EventKind::Send { .. } => "app",
                EventKind::Request { .. } => "──▶",
                EventKind::Decision(_) => "███",
                EventKind::Response | EventKind::Ack { .. } => "◀──",
                EventKind::Retry { .. } | EventKind::EpochBump(_) => "↻",
                EventKind::Fail { .. } => "✗",
                EventKind::Lost { .. } => "~~✗",
                EventKind::Delayed => "~~~",
                EventKind::Timeout { .. } => "⏱",
                EventKind::Restart { .. } => "⟲",
                EventKind::Time { .. } | EventKind::Expired { .. } => "⌛",
                EventKind::LeaderChange { .. } => "⇄",
                EventKind::RawProduce { .. } | EventKind::RawMarker { .. } => "──▶",
                EventKind::MarkerDecision(_) => "███",
            };
            s.push_str(&format!("      +{}ms {arrow} {}\n", ev.time_ms - t0, ev.text(sim)));
        }
    }
    for f in &run.failures {
        s.push_str(&format!("FAILED line {}: expected {}, got {}\n", f.line, f.expected, f.got));
    }
    if let Some(e) = &run.error {
        s.push_str(&format!("STOPPED {e}\n"));
    }
    for (i, p) in sim.partitions.iter().enumerate() {
        let vals = sim.log_values(i);
        s.push_str(&format!("log {} (end offset {}): {}\n", p.name, p.log_end_offset, vals.join(" ")));
        for (pid, e) in &p.producers {
            let window: Vec<String> = e.batches.iter().map(|b| format!("{}..{}@{}", b.first_seq(), b.last_seq, b.first_offset())).collect();
            s.push_str(&format!("  producer {pid} epoch {}: last 5 batches [{}]\n", e.producer_epoch, window.join(", ")));
        }
    }
    s
}

#[cfg(test)]
mod leader_state_tests;
