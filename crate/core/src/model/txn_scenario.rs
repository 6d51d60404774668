// Over 800 lines: the transactions script's parser (to `parse`) and its runner (from `TxnRun`), not yet split (issue 12); tests in txn_scenario/tests.rs.
//! The scenario language for transactions: the same line format as the idempotence
//! scenarios (`scenarios/README.md`), chosen by a first directive `model transactions`.
//! Every step is run on a [`World`]; after each step the invariants are checked and the
//! state is snapshotted, so a view steps back and forward without re-running.

use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;

use super::coordinator::TxnState;
use super::line::KafkaLine;
use super::partition::Isolation;
use super::scenario::{parse_duration, Failure, ParseError};
use super::txn::{CallResult, ClusterConfig, Sabotage, World, DEFAULT_TXN_TIMEOUT_MS, TRANSACTIONAL_ID_EXPIRATION_INTERVAL_MS_DEFAULT, TRANSACTIONAL_ID_EXPIRATION_MS_DEFAULT};

#[cfg(feature = "serde")]
use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize), serde(rename_all = "camelCase", default))]
pub struct TxnScenario {
    pub title: String,
    pub about: String,
    pub start_ms: i64,
    pub first_producer_id: i64,
    pub transaction_version: u8,
    pub two_phase_commit_broker: bool,
    /// `cluster kafka=4.1|4.3|trunk`: the line whose answers the model gives (default 4.3).
    pub kafka: KafkaLine,
    /// `cluster transaction.partition.verification.enable=false`.
    pub verification_disabled: bool,
    /// `cluster transactional.id.expiration.ms=D` (None: Kafka's 7 days).
    pub transactional_id_expiration_ms: Option<i64>,
    /// `cluster transaction.remove.expired.transaction.cleanup.interval.ms=D` (None: 1 hour).
    pub transactional_id_expiration_interval_ms: Option<i64>,
    pub rtt_ms: i64,
    pub append_ms: i64,
    pub brokers: usize,
    pub partitions: Vec<String>,
    pub producers: Vec<TxnProducerDecl>,
    pub consumers: Vec<ConsumerDecl>,
    /// `txn-state ID pid=N epoch=E`: coordinator metadata as if loaded from the log.
    pub seeds: Vec<TxnSeed>,
    /// `producer-state PART pid=N epoch=E seq=A..B [offset=O] [txn-first=T]`: the partition
    /// leader's entry for one producer, as if its last batch had been appended.
    pub producer_states: Vec<ProducerStateSeed>,
    pub steps: Vec<TxnStep>,
}

/// One `producer-state` line: the leader of `partition` holds an entry for `producer_id` at
/// `epoch` whose last batch carried sequences `first_seq..=last_seq` at offsets from `offset`
/// (the partition's log end when not given), and, with `txn_first`, a transaction open since
/// that offset ([`super::partition::Partition::seed_producer`]).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize), serde(rename_all = "camelCase", default))]
pub struct ProducerStateSeed {
    pub line: usize,
    pub partition: String,
    pub producer_id: i64,
    pub epoch: i16,
    pub first_seq: i32,
    pub last_seq: i32,
    pub offset: Option<i64>,
    pub txn_first: Option<i64>,
}

const PRODUCER_STATE_USAGE: &str = "usage: producer-state PARTITION pid=N epoch=E seq=FIRST..LAST [offset=N] [txn-first=N]";

/// Parse the words after `producer-state`.
const TXN_STATE_USAGE: &str = "usage: txn-state TRANSACTIONAL_ID pid=N epoch=E [state=Empty|Ongoing|CompleteCommit|CompleteAbort] [partitions=P,…] [timeout=60s] [last-epoch=E]";

fn txn_seed(line: usize, rest: &str) -> Result<TxnSeed, ParseError> {
    let w: Vec<&str> = rest.split_whitespace().collect();
    let Some((&id, kvs)) = w.split_first().filter(|(id, _)| !id.contains('=')) else { return perr(line, TXN_STATE_USAGE) };
    let mut s = TxnSeed { transactional_id: id.to_string(), producer_id: -1, epoch: -1, state: String::from("CompleteCommit"), ..Default::default() };
    for kv in kvs {
        let Some((k, v)) = kv.split_once('=') else { return perr(line, format!("{TXN_STATE_USAGE}: {kv:?} is not KEY=VALUE")) };
        let bad = |what: &str| ParseError { line, message: format!("{kv}: {what}") };
        match k {
            "pid" => s.producer_id = v.parse::<i64>().ok().filter(|p| *p >= 0).ok_or_else(|| bad("a producer id is a number ≥ 0"))?,
            "epoch" => s.epoch = v.parse::<i16>().ok().filter(|e| *e >= 0).ok_or_else(|| bad("a producer epoch is 0..32767"))?,
            "state" => {
                if !matches!(v, "Empty" | "Ongoing" | "CompleteCommit" | "CompleteAbort") {
                    return Err(bad("Empty, Ongoing, CompleteCommit or CompleteAbort (a Prepare* state has markers in flight: replay its EndTxn instead)"));
                }
                s.state = v.to_string();
            }
            "partitions" => s.partitions = v.split(',').filter(|p| !p.is_empty()).map(String::from).collect(),
            "timeout" => s.timeout_ms = Some(parse_duration(v).and_then(|t| i32::try_from(t).ok()).filter(|t| *t > 0).ok_or_else(|| bad("a duration such as 60s"))?),
            "last-epoch" => s.last_epoch = Some(v.parse::<i16>().ok().filter(|e| *e >= -1).ok_or_else(|| bad("an epoch, or -1 for none"))?),
            _ => return perr(line, format!("unknown txn-state setting {kv:?} (pid, epoch, state, partitions, timeout, last-epoch)")),
        }
    }
    if s.producer_id < 0 || s.epoch < 0 {
        return perr(line, TXN_STATE_USAGE);
    }
    if !s.partitions.is_empty() && s.state != "Ongoing" {
        return perr(line, "txn-state: partitions= belong to an Ongoing transaction (state=Ongoing)");
    }
    Ok(s)
}

fn producer_state(line: usize, rest: &str) -> Result<ProducerStateSeed, ParseError> {
    let w: Vec<&str> = rest.split_whitespace().collect();
    let Some((&partition, kvs)) = w.split_first().filter(|(p, _)| !p.contains('=')) else {
        return perr(line, format!("{PRODUCER_STATE_USAGE}: the partition comes first"));
    };
    let mut seed = ProducerStateSeed { line, partition: partition.to_string(), ..Default::default() };
    let (mut pid, mut epoch, mut seq) = (None, None, None);
    for kv in kvs {
        let Some((k, v)) = kv.split_once('=') else { return perr(line, format!("{PRODUCER_STATE_USAGE}: {kv:?} is not KEY=VALUE")) };
        let bad = |what: &str| ParseError { line, message: format!("{kv}: {what}") };
        match k {
            "pid" => pid = Some(v.parse::<i64>().ok().filter(|p| *p >= 0).ok_or_else(|| bad("a producer id is a number ≥ 0"))?),
            "epoch" => epoch = Some(v.parse::<i16>().ok().filter(|e| *e >= 0).ok_or_else(|| bad("a producer epoch is 0..32767"))?),
            "seq" => {
                if seq.is_some() {
                    return perr(line, format!("{kv}: one batch per producer-state line here (its last batch; seq= or batch=, once)"));
                }
                let (a, b) = v.split_once("..").unwrap_or((v, v));
                let n = |x: &str| x.parse::<i32>().ok().filter(|s| *s >= 0);
                seq = Some(n(a).zip(n(b)).ok_or_else(|| bad("the last batch's sequences, FIRST..LAST (0..2147483647; LAST below FIRST wraps), or one sequence"))?);
            }
            "offset" => seed.offset = Some(v.parse::<i64>().ok().filter(|o| *o >= 0).ok_or_else(|| bad("the last batch's first offset, a number ≥ 0"))?),
            // The idempotence scripts' spelling (`txn-first-offset=`) means the same.
            "txn-first" | "txn-first-offset" => seed.txn_first = Some(v.parse::<i64>().ok().filter(|o| *o >= 0).ok_or_else(|| bad("the open transaction's first offset, a number ≥ 0"))?),
            // The idempotence scripts' `batch=FIRST..LAST@OFFSET[..LASTOFFSET]`: here one batch,
            // the producer's last (seq= and offset= in one).
            "batch" => {
                if seq.is_some() {
                    return perr(line, format!("{kv}: one batch per producer-state line here (its last batch; seq= or batch=, once)"));
                }
                let n = |x: &str| x.parse::<i32>().ok().filter(|s| *s >= 0);
                let parsed = v.split_once('@').and_then(|(sq, off)| {
                    let (a, b) = sq.split_once("..").unwrap_or((sq, sq));
                    let first_off = off.split_once("..").map_or(off, |(o, _)| o).parse::<i64>().ok().filter(|o| *o >= 0)?;
                    Some((n(a)?, n(b)?, first_off))
                });
                let (a, b, o) = parsed.ok_or_else(|| bad("batch=FIRST..LAST@OFFSET: the last batch's sequences and its first offset"))?;
                seq = Some((a, b));
                seed.offset = Some(o);
            }
            _ => return perr(line, format!("unknown producer-state setting {kv:?} (pid, epoch, seq, offset, txn-first, batch)")),
        }
    }
    match (pid, epoch, seq) {
        (Some(p), Some(e), Some((a, b))) => {
            (seed.producer_id, seed.epoch, seed.first_seq, seed.last_seq) = (p, e, a, b);
            Ok(seed)
        }
        _ => perr(line, format!("{PRODUCER_STATE_USAGE}: pid=, epoch= and seq= are needed")),
    }
}

/// Give the partitions' leaders the scenario's `producer-state` entries, in line order: each
/// batch is written after what the partition already holds; a producer id seeded here is one
/// the coordinator gave out, so later InitProducerId answers are higher.
pub fn seed_producer_states(w: &mut World, seeds: &[ProducerStateSeed]) -> Result<(), ParseError> {
    seeds.iter().try_for_each(|s| seed_producer_state(w, s).map(|_| ()))
}

/// One `producer-state` line on `w`; the seeded batch's first offset.
fn seed_producer_state(w: &mut World, s: &ProducerStateSeed) -> Result<i64, ParseError> {
    {
        let err = |m: String| ParseError { line: s.line, message: format!("producer-state {}: {m}", s.partition) };
        let Some(p) = w.partitions.iter_mut().find(|p| p.name == s.partition) else {
            return Err(err(String::from("no such partition (declare it with `partition` or `partitions` first)")));
        };
        if p.producers.contains_key(&s.producer_id) {
            return Err(err(format!("producer {} already has a state on this partition", s.producer_id)));
        }
        let offset = s.offset.unwrap_or(p.log_end_offset);
        if offset < p.log_end_offset {
            return Err(err(format!("offset={offset}: the partition already holds offsets up to {} (an earlier producer-state line): the batch goes at {} or later", p.log_end_offset - 1, p.log_end_offset)));
        }
        p.seed_producer(s.producer_id, s.epoch, s.first_seq, s.last_seq, offset, w.now_ms, s.txn_first).map_err(err)?;
        w.next_pid = w.next_pid.max(s.producer_id.saturating_add(1));
        Ok(offset)
    }
}

/// `txn-state ID pid=N epoch=E [state=S] [partitions=P,…] [timeout=D] [last-epoch=E]`: a
/// transactional.id's coordinator metadata as if loaded from `__transaction_state`.
#[derive(Clone, Debug, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize), serde(rename_all = "camelCase", default))]
pub struct TxnSeed {
    pub transactional_id: String,
    pub producer_id: i64,
    pub epoch: i16,
    /// Empty, Ongoing, CompleteCommit or CompleteAbort (default CompleteCommit). A Prepare*
    /// state is not given here: its markers would be in flight (load it by replaying the EndTxn).
    pub state: String,
    /// The transaction's partitions (Ongoing only).
    pub partitions: Vec<String>,
    pub timeout_ms: Option<i32>,
    pub last_epoch: Option<i16>,
}

#[derive(Clone, Debug, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize), serde(rename_all = "camelCase", default))]
pub struct TxnProducerDecl {
    pub name: String,
    pub transactional_id: String,
    pub timeout_ms: i32,
    pub two_phase_commit: bool,
}

#[derive(Clone, Debug, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize), serde(rename_all = "camelCase", default))]
pub struct ConsumerDecl {
    pub name: String,
    pub read_committed: bool,
    pub group: Option<String>,
    pub partitions: Vec<String>,
}

/// One step line.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize), serde(tag = "op", rename_all = "kebab-case"))]
pub enum TxnStep {
    Init { line: usize, producer: String },
    Begin { line: usize, producer: String },
    Send { line: usize, producer: String, partition: String, values: Vec<String> },
    /// One record to each of the first `count` partitions.
    SendAll { line: usize, producer: String, count: usize, value: String },
    SendOffsets { line: usize, producer: String, consumer: String },
    Commit { line: usize, producer: String, lose_response: bool },
    Abort { line: usize, producer: String, lose_response: bool },
    DeliverMarkers { line: usize, partition: Option<String> },
    DelayMarker { line: usize, partition: String },
    Crash { line: usize, producer: String },
    Advance { line: usize, ms: i64 },
    Failover { line: usize },
    Poll { line: usize, consumer: String },
    Rebalance { line: usize, group: String },
    /// The application seeks the consumer back to its group's committed offsets (what it must
    /// do after an abort: Kafka does not rewind a consumer's position).
    Seek { line: usize, consumer: String },
    OffsetFetch { line: usize, consumer: String },
    Effect { line: usize, producer: String, name: String, key: Option<String> },
    Feature { line: usize, level: u8 },
    Flush { line: usize },
    Repeat { line: usize, times: usize, steps: Vec<TxnStep> },
    Expect { line: usize, words: Vec<String> },
    /// A request sent straight to the cluster (`end-txn …`, `produce …`; [`super::txn::Request`]),
    /// its answer kept under `label` (and as `last`) for `expect` lines.
    Request { line: usize, label: Option<String>, from: Option<String>, request: super::txn::Request },
}

fn perr<T>(line: usize, m: impl Into<String>) -> Result<T, ParseError> {
    Err(ParseError { line, message: m.into() })
}

/// Does this script use the transactions model (`model transactions` as its first directive)?
pub fn is_transactions(text: &str) -> bool {
    text.lines()
        .map(|l| super::scenario::strip_comment(l).trim())
        .find(|l| !l.is_empty())
        .is_some_and(|l| l.split_whitespace().collect::<Vec<_>>() == ["model", "transactions"])
}

fn step(line: usize, content: &str) -> Result<TxnStep, ParseError> {
    let w: Vec<&str> = content.split_whitespace().collect();
    // `offset-fetch CONSUMER` is a step of the Java-client model; the request carries a group
    // (`offset-fetch group=G PART …`). A short `marker` line is a request missing its fields.
    let client_step = w[0] == "offset-fetch" && !w.iter().any(|x| x.starts_with("group="));
    if super::txn::is_request_verb(w[0]) && !client_step {
        let (request, label, from) = super::txn::parse_request(&w).map_err(|message| ParseError { line, message })?;
        return Ok(TxnStep::Request { line, label, from, request });
    }
    let need = |n: usize, usage: &str| if w.len() < n { perr(line, format!("usage: {usage}")) } else { Ok(()) };
    let s = |i: usize| w[i].to_string();
    Ok(match w[0] {
        "init" => {
            need(2, "init PRODUCER")?;
            TxnStep::Init { line, producer: s(1) }
        }
        "begin" => {
            need(2, "begin PRODUCER")?;
            TxnStep::Begin { line, producer: s(1) }
        }
        "send" => {
            need(4, "send PRODUCER PARTITION VALUE …")?;
            TxnStep::Send { line, producer: s(1), partition: s(2), values: w[3..].iter().map(|x| x.to_string()).collect() }
        }
        "send-all" => {
            need(4, "send-all PRODUCER COUNT VALUE")?;
            let count = w[2].parse::<usize>().map_err(|_| ParseError { line, message: String::from("send-all needs a partition count") })?;
            TxnStep::SendAll { line, producer: s(1), count, value: s(3) }
        }
        "send-offsets" => {
            need(3, "send-offsets PRODUCER CONSUMER")?;
            TxnStep::SendOffsets { line, producer: s(1), consumer: s(2) }
        }
        "commit" | "abort" => {
            need(2, "commit|abort PRODUCER [lose-response]")?;
            let lose = match w.get(2) {
                None => false,
                Some(&"lose-response") => true,
                Some(x) => return perr(line, format!("unknown option {x:?} (lose-response)")),
            };
            if w[0] == "commit" {
                TxnStep::Commit { line, producer: s(1), lose_response: lose }
            } else {
                TxnStep::Abort { line, producer: s(1), lose_response: lose }
            }
        }
        "deliver" => match (w.get(1).copied(), w.get(2)) {
            (Some("markers"), None) => TxnStep::DeliverMarkers { line, partition: None },
            (Some("marker"), Some(p)) => TxnStep::DeliverMarkers { line, partition: Some(p.to_string()) },
            _ => return perr(line, "usage: deliver markers | deliver marker PARTITION"),
        },
        "delay" => match (w.get(1).copied(), w.get(2)) {
            (Some("marker"), Some(p)) => TxnStep::DelayMarker { line, partition: p.to_string() },
            _ => return perr(line, "usage: delay marker PARTITION"),
        },
        "crash" => {
            need(2, "crash PRODUCER")?;
            TxnStep::Crash { line, producer: s(1) }
        }
        "advance" => {
            need(2, "advance DURATION")?;
            TxnStep::Advance { line, ms: parse_duration(w[1]).ok_or_else(|| ParseError { line, message: format!("bad duration {:?}", w[1]) })? }
        }
        "failover" => TxnStep::Failover { line },
        "poll" => {
            need(2, "poll CONSUMER")?;
            TxnStep::Poll { line, consumer: s(1) }
        }
        "rebalance" => {
            need(2, "rebalance GROUP")?;
            TxnStep::Rebalance { line, group: s(1) }
        }
        "seek" => match (w.get(1), w.get(2).copied()) {
            (Some(c), Some("committed")) => TxnStep::Seek { line, consumer: c.to_string() },
            _ => return perr(line, "usage: seek CONSUMER committed"),
        },
        "offset-fetch" => {
            need(2, "offset-fetch CONSUMER")?;
            TxnStep::OffsetFetch { line, consumer: s(1) }
        }
        "effect" => {
            need(3, "effect PRODUCER NAME [key=KEY]")?;
            let key = match w.get(3) {
                None => None,
                Some(k) => Some(k.strip_prefix("key=").ok_or_else(|| ParseError { line, message: String::from("expected key=KEY") })?.to_string()),
            };
            TxnStep::Effect { line, producer: s(1), name: s(2), key }
        }
        "feature" => {
            need(2, "feature transaction.version=N")?;
            let lvl = w[1].strip_prefix("transaction.version=").and_then(|v| v.parse::<u8>().ok()).filter(|l| *l <= 2);
            TxnStep::Feature { line, level: lvl.ok_or_else(|| ParseError { line, message: String::from("expected transaction.version=0|1|2") })? }
        }
        "flush" => TxnStep::Flush { line },
        "expect" => {
            need(2, "expect …")?;
            TxnStep::Expect { line, words: w[1..].iter().map(|x| x.to_string()).collect() }
        }
        other => return perr(line, format!("unknown step {other:?}")),
    })
}

/// Parse a transactions scenario.
pub fn parse(text: &str) -> Result<TxnScenario, ParseError> {
    let mut sc = TxnScenario { start_ms: 1_700_000_000_000, first_producer_id: 1000, transaction_version: 2, rtt_ms: 1, append_ms: 2, brokers: 3, ..Default::default() };
    let mut seen_model = false;
    for (i, raw) in text.lines().enumerate() {
        let line = i + 1;
        // `#` starts a comment at the start of a line or after a space (as in the idempotence
        // scripts), so `b1#1` stays one word.
        let content = super::scenario::strip_comment(raw).trim();
        if content.is_empty() {
            continue;
        }
        let (word, rest) = content.split_once(char::is_whitespace).unwrap_or((content, ""));
        let rest = rest.trim();
        if !seen_model {
            if content.split_whitespace().collect::<Vec<_>>() != ["model", "transactions"] {
                return perr(line, "a transactions scenario starts with `model transactions`");
            }
            seen_model = true;
            continue;
        }
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
            "cluster" => {
                for kv in rest.split_whitespace() {
                    let bad = || ParseError { line, message: format!("bad cluster setting {kv:?}") };
                    match kv.split_once('=') {
                        Some(("transaction.version", v)) => sc.transaction_version = v.parse::<u8>().ok().filter(|l| *l <= 2).ok_or_else(bad)?,
                        Some(("transaction.two.phase.commit.enable", v)) => sc.two_phase_commit_broker = v == "true",
                        Some(("transaction.partition.verification.enable", v)) => {
                            sc.verification_disabled = match v {
                                "true" => false,
                                "false" => true,
                                _ => return perr(line, "transaction.partition.verification.enable is true or false"),
                            }
                        }
                        Some(("transactional.id.expiration.ms", v)) => sc.transactional_id_expiration_ms = Some(parse_duration(v).filter(|d| *d >= 1).ok_or_else(bad)?),
                        Some(("transaction.remove.expired.transaction.cleanup.interval.ms", v)) => {
                            sc.transactional_id_expiration_interval_ms = Some(parse_duration(v).filter(|d| *d >= 1).ok_or_else(bad)?)
                        }
                        Some(("rtt", v)) => sc.rtt_ms = parse_duration(v).ok_or_else(bad)?,
                        Some(("append", v)) => sc.append_ms = parse_duration(v).ok_or_else(bad)?,
                        Some(("brokers", v)) => sc.brokers = v.parse::<usize>().ok().filter(|b| (1..=1000).contains(b)).ok_or_else(bad)?,
                        Some(("kafka", v)) => {
                            sc.kafka = KafkaLine::parse(v).ok_or_else(|| ParseError { line, message: format!("kafka={v}: the model knows the lines 4.1 (4.0–4.1), 4.3 (4.2–4.3) and trunk") })?
                        }
                        _ => return perr(line, format!("unknown cluster setting {kv:?} (transaction.version, kafka, transaction.partition.verification.enable, transactional.id.expiration.ms, transaction.remove.expired.transaction.cleanup.interval.ms, rtt, append, brokers)")),
                    }
                }
            }
            "txn-state" => sc.seeds.push(txn_seed(line, rest)?),
            "producer-state" => sc.producer_states.push(producer_state(line, rest)?),
            "partition" => sc.partitions.extend(rest.split_whitespace().map(String::from)),
            "partitions" => {
                // `partitions PREFIX N`: PREFIX-0 … PREFIX-(N-1)
                let w: Vec<&str> = rest.split_whitespace().collect();
                let n = w.get(1).and_then(|n| n.parse::<usize>().ok()).filter(|n| (1..=1000).contains(n));
                match (w.first(), n) {
                    (Some(p), Some(n)) => sc.partitions.extend((0..n).map(|k| format!("{p}-{k}"))),
                    _ => return perr(line, "usage: partitions PREFIX COUNT (1..1000)"),
                }
            }
            "producer" => {
                let mut it = rest.split_whitespace();
                let name = it.next().ok_or_else(|| ParseError { line, message: String::from("producer needs a name") })?;
                let mut d = TxnProducerDecl { name: name.into(), transactional_id: String::new(), timeout_ms: DEFAULT_TXN_TIMEOUT_MS, two_phase_commit: false };
                for kv in it {
                    match kv.split_once('=') {
                        Some(("transactional.id", v)) => d.transactional_id = v.into(),
                        Some(("transaction.timeout.ms", v)) => {
                            d.timeout_ms = parse_duration(v).and_then(|x| i32::try_from(x).ok()).ok_or_else(|| ParseError { line, message: format!("bad duration {v:?}") })?
                        }
                        Some(("transaction.two.phase.commit.enable", v)) => d.two_phase_commit = v == "true",
                        _ => return perr(line, format!("unknown producer setting {kv:?} (transactional.id, transaction.timeout.ms, transaction.two.phase.commit.enable)")),
                    }
                }
                if d.transactional_id.is_empty() {
                    return perr(line, "a transactional producer needs transactional.id=ID");
                }
                sc.producers.push(d);
            }
            "consumer" => {
                let w: Vec<&str> = rest.split_whitespace().collect();
                if w.len() < 3 {
                    return perr(line, "usage: consumer NAME read_committed|read_uncommitted [group=G] PARTITION …");
                }
                let read_committed = match w[1] {
                    "read_committed" => true,
                    "read_uncommitted" => false,
                    x => return perr(line, format!("isolation must be read_committed or read_uncommitted, not {x:?}")),
                };
                let mut d = ConsumerDecl { name: w[0].into(), read_committed, group: None, partitions: Vec::new() };
                for x in &w[2..] {
                    match x.strip_prefix("group=") {
                        Some(g) => d.group = Some(g.into()),
                        None => d.partitions.push(x.to_string()),
                    }
                }
                sc.consumers.push(d);
            }
            "repeat" => {
                let (n, body) = rest.split_once(':').ok_or_else(|| ParseError { line, message: String::from("usage: repeat N: STEP; STEP …") })?;
                let times = n.trim().parse::<usize>().ok().filter(|n| *n <= 100_000).ok_or_else(|| ParseError { line, message: String::from("repeat needs a count up to 100000") })?;
                let steps = body.split(';').map(str::trim).filter(|s| !s.is_empty()).map(|s| step(line, s)).collect::<Result<Vec<_>, _>>()?;
                sc.steps.push(TxnStep::Repeat { line, times, steps });
            }
            _ => sc.steps.push(step(line, content)?),
        }
    }
    if !seen_model {
        return perr(1, "empty scenario");
    }
    // Check the `producer-state` lines and say where each batch went (the log end when no
    // `offset=` was given).
    let mut scratch = setup_partitions(&sc);
    for k in 0..sc.producer_states.len() {
        let at = seed_producer_state(&mut scratch, &sc.producer_states[k])?;
        sc.producer_states[k].offset = Some(at);
    }
    Ok(sc)
}

/// One step as run, with the state after it.
#[derive(Clone, Debug)]
pub struct TxnStepRun {
    pub line: usize,
    pub text: String,
    pub ok: bool,
    pub t: i64,
    pub narration: String,
    pub messages: Vec<super::txn::Message>,
    pub snapshot: super::txn_report::StateSnapshot,
    pub invariants: Vec<(&'static str, bool, String)>,
    /// A request step's answer, as data.
    pub reply: Option<super::txn::Reply>,
}

#[derive(Clone, Debug)]
pub struct TxnRun {
    /// The scenario's header (title, about, cluster, declarations): its `steps` are left
    /// empty — the steps as run are [`TxnRun::steps`] — so a long script is not copied.
    pub scenario: TxnScenario,
    pub world: World,
    pub steps: Vec<TxnStepRun>,
    pub failures: Vec<Failure>,
    pub error: Option<ParseError>,
}

impl TxnRun {
    pub fn passed(&self) -> bool {
        self.failures.is_empty() && self.error.is_none()
    }
}

/// A world with only the scenario's partitions (to check its `producer-state` lines).
fn setup_partitions(sc: &TxnScenario) -> World {
    let mut w = World::new(sc.start_ms, sc.first_producer_id, ClusterConfig::default());
    for p in &sc.partitions {
        w.add_partition(p);
    }
    w
}

/// The world a scenario starts from. Its `producer-state` lines were checked when it was
/// parsed; [`run`] reports a bad one given another way (a scenario built as JSON).
pub fn setup(sc: &TxnScenario, sabotage: Option<Sabotage>) -> World {
    let mut w = World::new(
        sc.start_ms,
        sc.first_producer_id,
        ClusterConfig { transaction_version: sc.transaction_version, two_phase_commit: sc.two_phase_commit_broker, rtt_ms: sc.rtt_ms, append_ms: sc.append_ms, brokers: sc.brokers.max(1), kafka: sc.kafka, verification_disabled: sc.verification_disabled,
            transactional_id_expiration_ms: sc.transactional_id_expiration_ms.unwrap_or(TRANSACTIONAL_ID_EXPIRATION_MS_DEFAULT),
            transactional_id_expiration_interval_ms: sc.transactional_id_expiration_interval_ms.unwrap_or(TRANSACTIONAL_ID_EXPIRATION_INTERVAL_MS_DEFAULT) },
    );
    w.sabotage = sabotage;
    for p in &sc.partitions {
        w.add_partition(p);
    }
    for p in &sc.producers {
        w.add_client(&p.name, &p.transactional_id, p.timeout_ms, p.two_phase_commit);
    }
    for s in &sc.seeds {
        w.seed_txn(&s.transactional_id, s.producer_id, s.epoch);
        if let Some(m) = w.coordinator.index(&s.transactional_id).map(|i| &mut w.coordinator.txns[i]) {
            m.state = match s.state.as_str() {
                "Empty" => TxnState::Empty,
                "Ongoing" => TxnState::Ongoing,
                "CompleteAbort" => TxnState::CompleteAbort,
                _ => TxnState::CompleteCommit,
            };
            for p in &s.partitions {
                m.partitions.insert(p.as_str().into());
                m.added_order.push(p.as_str().into());
            }
            if let Some(t) = s.timeout_ms {
                m.txn_timeout_ms = t;
            }
            if let Some(e) = s.last_epoch {
                m.last_producer_epoch = e;
            }
            if m.state == TxnState::Ongoing {
                m.txn_start_ms = m.last_update_ms;
            }
        }
    }
    let _ = seed_producer_states(&mut w, &sc.producer_states);
    for c in &sc.consumers {
        w.add_consumer(&c.name, if c.read_committed { Isolation::ReadCommitted } else { Isolation::ReadUncommitted }, c.group.as_deref(), c.partitions.clone());
    }
    w
}

/// Per-run memory of things expects look at.
#[derive(Default)]
struct Memory {
    thrown: Vec<(String, String)>,
    offset_fetch: Vec<(String, String, String)>,
    /// Answers to the script's requests: (label, answer); the latest is also `last`.
    replies: Vec<(String, super::txn::Reply)>,
}

/// Run a transactions scenario. `snapshots`: keep the state after every step (views) or
/// only after the last (benchmarks of long runs).
pub fn run(sc: &TxnScenario, sabotage: Option<Sabotage>, snapshots: bool) -> TxnRun {
    run_with(sc, sabotage, snapshots, true)
}

/// [`run`] with tracing chosen: `trace: false` builds no messages or narration (the same
/// decisions, states and invariants; for long runs and benchmarks).
pub fn run_with(sc: &TxnScenario, sabotage: Option<Sabotage>, snapshots: bool, trace: bool) -> TxnRun {
    let mut w = setup(sc, sabotage);
    w.trace = trace;
    let mut out = TxnRun { scenario: header(sc), world: World::new(0, 0, ClusterConfig::default()), steps: Vec::new(), failures: Vec::new(), error: None };
    if let Err(e) = seed_producer_states(&mut setup_partitions(sc), &sc.producer_states) {
        out.error = Some(e);
        out.world = w;
        return out;
    }
    let mut mem = Memory::default();
    let mut budget = 1_000_000usize;
    let mut flat = Vec::new();
    flatten(&sc.steps, &mut budget, &mut flat);
    let n = flat.len();
    out.steps.reserve_exact(n.min(1 << 16));
    // Most steps write a record or more: room for one a step, so a long run's record list is
    // not copied each time it doubles.
    w.records.reserve(n.min(1 << 16));
    for (k, s) in flat.into_iter().enumerate() {
        w.step = out.steps.len();
        w.messages.clear();
        w.narration.clear();
        let line = line_of(s);
        let mut ok = true;
        match exec(&mut w, s, &mut mem) {
            Ok(Some(fail)) => {
                ok = false;
                out.failures.push(Failure { line, expected: fail.0, got: fail.1 });
            }
            Ok(None) => {}
            Err(e) => {
                out.error = Some(ParseError { line, message: e });
                ok = false;
            }
        }
        let keep = snapshots || k + 1 == n || out.error.is_some();
        out.steps.push(TxnStepRun {
            line,
            text: if w.trace || matches!(s, TxnStep::Expect { .. }) { describe(s) } else { String::new() },
            ok,
            t: w.now_ms - w.start_ms,
            narration: if w.narration.is_empty() { String::new() } else { w.narration.join(" ") },
            messages: core::mem::take(&mut w.messages),
            snapshot: if keep { super::txn_report::snapshot(&w) } else { super::txn_report::StateSnapshot::default() },
            invariants: if keep { w.invariants() } else { Vec::new() },
            reply: if matches!(s, TxnStep::Request { .. }) { mem.replies.last().map(|x| x.1.clone()) } else { None },
        });
        if out.error.is_some() {
            break;
        }
    }
    out.world = w;
    out
}

/// `sc` without its steps (what a run keeps of its scenario).
fn header(sc: &TxnScenario) -> TxnScenario {
    TxnScenario {
        title: sc.title.clone(),
        about: sc.about.clone(),
        start_ms: sc.start_ms,
        first_producer_id: sc.first_producer_id,
        transaction_version: sc.transaction_version,
        two_phase_commit_broker: sc.two_phase_commit_broker,
        kafka: sc.kafka,
        verification_disabled: sc.verification_disabled,
        transactional_id_expiration_ms: sc.transactional_id_expiration_ms,
        transactional_id_expiration_interval_ms: sc.transactional_id_expiration_interval_ms,
        rtt_ms: sc.rtt_ms,
        append_ms: sc.append_ms,
        brokers: sc.brokers,
        partitions: sc.partitions.clone(),
        producers: sc.producers.clone(),
        consumers: sc.consumers.clone(),
        seeds: sc.seeds.clone(),
        producer_states: sc.producer_states.clone(),
        steps: Vec::new(),
    }
}

/// Apply one step line (as `nextSteps` offers them) to a world: the driver of randomized
/// schedules and of exploration. An `expect` line is rejected here.
pub fn apply_line(w: &mut World, line: &str) -> Result<(), String> {
    let st = step(0, line.trim()).map_err(|e| e.message)?;
    if matches!(st, TxnStep::Expect { .. } | TxnStep::Repeat { .. }) {
        return Err(String::from("apply_line takes actions, not expect/repeat"));
    }
    w.messages.clear();
    w.narration.clear();
    exec(w, &st, &mut Memory::default()).map(|_| ())
}

fn flatten<'a>(steps: &'a [TxnStep], budget: &mut usize, out: &mut Vec<&'a TxnStep>) {
    for s in steps {
        match s {
            TxnStep::Repeat { times, steps, .. } => {
                for _ in 0..*times {
                    if *budget == 0 {
                        return;
                    }
                    flatten(steps, budget, out);
                }
            }
            _ => {
                if *budget == 0 {
                    return;
                }
                *budget -= 1;
                out.push(s);
            }
        }
    }
}

fn line_of(s: &TxnStep) -> usize {
    match s {
        TxnStep::Init { line, .. }
        | TxnStep::Begin { line, .. }
        | TxnStep::Send { line, .. }
        | TxnStep::SendAll { line, .. }
        | TxnStep::SendOffsets { line, .. }
        | TxnStep::Commit { line, .. }
        | TxnStep::Abort { line, .. }
        | TxnStep::DeliverMarkers { line, .. }
        | TxnStep::DelayMarker { line, .. }
        | TxnStep::Crash { line, .. }
        | TxnStep::Advance { line, .. }
        | TxnStep::Failover { line }
        | TxnStep::Poll { line, .. }
        | TxnStep::Rebalance { line, .. }
        | TxnStep::Seek { line, .. }
        | TxnStep::OffsetFetch { line, .. }
        | TxnStep::Effect { line, .. }
        | TxnStep::Feature { line, .. }
        | TxnStep::Flush { line }
        | TxnStep::Repeat { line, .. }
        | TxnStep::Expect { line, .. }
        | TxnStep::Request { line, .. } => *line,
    }
}

/// The step as a script line.
pub fn describe(s: &TxnStep) -> String {
    match s {
        TxnStep::Init { producer, .. } => format!("init {producer}"),
        TxnStep::Begin { producer, .. } => format!("begin {producer}"),
        TxnStep::Send { producer, partition, values, .. } => format!("send {producer} {partition} {}", values.join(" ")),
        TxnStep::SendAll { producer, count, value, .. } => format!("send-all {producer} {count} {value}"),
        TxnStep::SendOffsets { producer, consumer, .. } => format!("send-offsets {producer} {consumer}"),
        TxnStep::Commit { producer, lose_response, .. } => format!("commit {producer}{}", if *lose_response { " lose-response" } else { "" }),
        TxnStep::Abort { producer, lose_response, .. } => format!("abort {producer}{}", if *lose_response { " lose-response" } else { "" }),
        TxnStep::DeliverMarkers { partition: None, .. } => String::from("deliver markers"),
        TxnStep::DeliverMarkers { partition: Some(p), .. } => format!("deliver marker {p}"),
        TxnStep::DelayMarker { partition, .. } => format!("delay marker {partition}"),
        TxnStep::Crash { producer, .. } => format!("crash {producer}"),
        TxnStep::Advance { ms, .. } => format!("advance {ms}ms"),
        TxnStep::Failover { .. } => String::from("failover coordinator"),
        TxnStep::Poll { consumer, .. } => format!("poll {consumer}"),
        TxnStep::Rebalance { group, .. } => format!("rebalance {group}"),
        TxnStep::Seek { consumer, .. } => format!("seek {consumer} committed"),
        TxnStep::OffsetFetch { consumer, .. } => format!("offset-fetch {consumer}"),
        TxnStep::Effect { producer, name, key, .. } => format!("effect {producer} {name}{}", key.as_ref().map_or(String::new(), |k| format!(" key={k}"))),
        TxnStep::Feature { level, .. } => format!("feature transaction.version={level}"),
        TxnStep::Request { request, label, from, .. } => {
            let mut s = request.line();
            if let Some(f) = from {
                s.push_str(&format!(" from={f}"));
            }
            if let Some(l) = label {
                s.push_str(&format!(" as {l}"));
            }
            s
        }
        TxnStep::Flush { .. } => String::from("flush"),
        TxnStep::Repeat { times, steps, .. } => format!("repeat {times}: {}", steps.iter().map(describe).collect::<Vec<_>>().join("; ")),
        TxnStep::Expect { words, .. } => format!("expect {}", words.join(" ")),
    }
}

fn note_thrown(mem: &mut Memory, p: &str, r: CallResult) {
    if let CallResult::Thrown(t) = r {
        mem.thrown.push((p.to_string(), t));
    }
}

fn exec(w: &mut World, s: &TxnStep, mem: &mut Memory) -> Result<Option<(String, String)>, String> {
    match s {
        TxnStep::Init { producer, .. } => {
            let r = w.init(producer)?;
            note_thrown(mem, producer, r);
        }
        TxnStep::Begin { producer, .. } => {
            let r = w.begin(producer)?;
            note_thrown(mem, producer, r);
        }
        TxnStep::Send { producer, partition, values, .. } => {
            let r = w.send(producer, partition, values)?;
            note_thrown(mem, producer, r);
        }
        TxnStep::SendAll { producer, count, value, .. } => {
            if *count > w.partitions.len() {
                return Err(format!("send-all {count}: only {} partitions are declared", w.partitions.len()));
            }
            for k in 0..*count {
                let p = w.partitions[k].name.clone();
                let r = w.send(producer, &p, core::slice::from_ref(value))?;
                note_thrown(mem, producer, r);
            }
        }
        TxnStep::SendOffsets { producer, consumer, .. } => {
            let r = w.send_offsets(producer, consumer)?;
            note_thrown(mem, producer, r);
        }
        TxnStep::Commit { producer, lose_response, .. } => {
            let r = w.end(producer, true, *lose_response)?;
            note_thrown(mem, producer, r);
        }
        TxnStep::Abort { producer, lose_response, .. } => {
            let r = w.end(producer, false, *lose_response)?;
            note_thrown(mem, producer, r);
        }
        TxnStep::DeliverMarkers { partition, .. } => {
            w.deliver_markers(partition.as_deref())?;
        }
        TxnStep::DelayMarker { partition, .. } => w.delay_marker(partition)?,
        TxnStep::Crash { producer, .. } => w.crash(producer)?,
        TxnStep::Advance { ms, .. } => w.advance(*ms),
        TxnStep::Failover { .. } => w.failover(),
        TxnStep::Poll { consumer, .. } => {
            w.poll(consumer)?;
        }
        TxnStep::Rebalance { group, .. } => w.rebalance(group)?,
        TxnStep::Seek { consumer, .. } => w.seek_committed(consumer)?,
        TxnStep::OffsetFetch { consumer, .. } => {
            for (p, r) in w.offset_fetch(consumer)? {
                let v = match r {
                    Err(e) => e.name().to_string(),
                    Ok(None) => String::from("none"),
                    Ok(Some(o)) => o.to_string(),
                };
                mem.offset_fetch.retain(|x| !(x.0 == *consumer && x.1 == p));
                mem.offset_fetch.push((consumer.clone(), p, v));
            }
        }
        TxnStep::Effect { producer, name, key, .. } => w.effect(producer, name, key.as_deref()),
        TxnStep::Feature { level, .. } => w.set_feature(*level),
        TxnStep::Flush { .. } => {
            for m in w.markers.iter_mut() {
                m.held = false;
            }
            let mut guard = 0;
            while !w.markers.is_empty() && guard < 100 {
                w.deliver_markers(None)?;
                guard += 1;
            }
        }
        TxnStep::Repeat { .. } => {}
        TxnStep::Request { label, from, request, .. } => {
            let r = w.request(request, from.as_deref().unwrap_or("client"))?;
            if let Some(l) = label {
                mem.replies.retain(|x| x.0 != *l);
                mem.replies.push((l.clone(), r.clone()));
            }
            mem.replies.retain(|x| x.0 != "last");
            mem.replies.push((String::from("last"), r));
        }
        TxnStep::Expect { words, .. } => return Ok(check(w, words, mem)),
    }
    Ok(None)
}

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
fn check(w: &World, words: &[String], mem: &Memory) -> Option<(String, String)> {
    let want = words.join(" ");
    let fail = |got: String| Some((want.clone(), got));
    let ws: Vec<&str> = words.iter().map(String::as_str).collect();
    let client = |n: &str| w.clients.iter().find(|c| c.name == n);
    let part = |n: &str| w.partitions.iter().find(|p| p.name == n);
    if let Some((_, r)) = ws.first().and_then(|l| mem.replies.iter().find(|x| x.0 == *l)) {
        return check_reply(r, &ws[1..]).map(|got| (want.clone(), got));
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
                .filter(|r| r.partition == *p && r.kind != "txn-log")
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
                return fail(String::from("usage: expect producer-state PARTITION pid=N [epoch=E] [seq=A..B] [offset=O] [txn-first=N|none]"));
            };
            let got = pp.producers.get(&pid).map_or_else(|| String::from("none"), |e| producer_entry_words(pid, e));
            let have: Vec<&str> = got.split(' ').collect();
            (!kvs.iter().all(|k| have.contains(k))).then(|| (want.clone(), got))
        }
        ["lso", p, n] | ["hw", p, n] => {
            let Some(pp) = part(p) else { return fail(format!("no partition {p}")) };
            let got = if ws[0] == "lso" { pp.last_stable_offset() } else { pp.high_watermark() };
            (got.to_string() != *n).then(|| (want.clone(), got.to_string()))
        }
        ["aborted", p, range] => {
            let Some(pp) = part(p) else { return fail(format!("no partition {p}")) };
            let got: Vec<String> = pp.aborted_txns.iter().map(|a| format!("{}..{}", a.first_offset, a.last_offset)).collect();
            (!got.iter().any(|g| g == range)).then(|| (want.clone(), if got.is_empty() { String::from("none") } else { list(&got) }))
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

/// `expect LABEL …` on a request's answer; `Some(what it got)` when it does not hold.
///
/// `error NAME|N`, `rule R`, `pid N`, `epoch E` (or `pid N epoch E`), `appended|duplicate [A..B]`,
/// `rejected NAME`, `offsets A..B`, `offset N` (ListOffsets), `hw N`, `lso N`,
/// `aborted PID@FIRST …|none|null` (Fetch's abortedTransactions), `records V …` (Fetch),
/// `partition N` (FindCoordinator), `offset PART N|none` / `error PART NAME|N` (one partition's
/// answer to TxnOffsetCommit or OffsetFetch).
fn check_reply(r: &super::txn::Reply, w: &[&str]) -> Option<String> {
    let err_is = |e: &str| e == r.error || e.parse::<i16>().ok() == Some(r.error_code);
    let got_err = || format!("{}({})", r.error, r.error_code);
    let opt = |v: Option<i64>| v.map_or(String::from("none"), |x| x.to_string());
    let range = |o: Option<(i64, i64)>| o.map_or(String::from("none"), |(a, b)| format!("{a}..{b}"));
    let part = |p: &str| r.partitions.iter().find(|x| x.0 == p);
    match w {
        ["error", e] => (!err_is(e)).then(got_err),
        ["error", p, e] => match part(p) {
            None => Some(format!("no answer for {p}")),
            Some((_, got, _)) => {
                let code = super::errors::ErrorCode::from_name(got).map(|c| c.0);
                (got != e && e.parse::<i16>().ok().is_none_or(|n| Some(n) != code)).then(|| got.clone())
            }
        },
        ["offset", p, x] => match part(p) {
            None => Some(format!("no answer for {p}")),
            Some((_, e, o)) => (opt(*o) != *x || e != "NONE").then(|| if e != "NONE" { e.clone() } else { opt(*o) }),
        },
        ["rule", x] => (r.rule != *x).then(|| r.rule.to_string()),
        ["pid", p, "epoch", e] => {
            let got = format!("pid {} epoch {}", opt(r.producer_id), opt(r.producer_epoch.map(i64::from)));
            (got != format!("pid {p} epoch {e}")).then_some(got)
        }
        ["pid", p] => (opt(r.producer_id) != *p).then(|| opt(r.producer_id)),
        ["epoch", e] => (opt(r.producer_epoch.map(i64::from)) != *e).then(|| opt(r.producer_epoch.map(i64::from))),
        [o @ ("appended" | "duplicate"), rest @ ..] => {
            let got = format!("{} {}", r.outcome.as_deref().unwrap_or("no outcome"), range(r.offsets));
            let ok = r.outcome.as_deref() == Some(*o) && rest.first().is_none_or(|x| *x == range(r.offsets));
            (!ok).then(|| if r.error_code != 0 { got_err() } else { got })
        }
        ["rejected", e] => (r.outcome.as_deref() != Some("rejected") || !err_is(e)).then(|| format!("{} {}", r.outcome.as_deref().unwrap_or("no outcome"), got_err())),
        ["offsets", x] => (range(r.offsets) != *x).then(|| range(r.offsets)),
        ["offset", x] => (opt(r.offset) != *x).then(|| opt(r.offset)),
        ["hw", x] => (opt(r.high_watermark) != *x).then(|| opt(r.high_watermark)),
        ["lso", x] => (opt(r.last_stable_offset) != *x).then(|| opt(r.last_stable_offset)),
        ["partition", x] => (opt(r.coordinator_partition.map(i64::from)) != *x).then(|| opt(r.coordinator_partition.map(i64::from))),
        ["aborted", xs @ ..] => {
            let got = match &r.aborted {
                None => String::from("null"),
                Some(a) if a.is_empty() => String::from("none"),
                Some(a) => a.iter().map(|(p, f)| format!("{p}@{f}")).collect::<Vec<_>>().join(" "),
            };
            (got != xs.join(" ")).then_some(got)
        }
        ["records", xs @ ..] => {
            let got: Vec<String> = r.records.iter().map(|(_, v)| v.clone().unwrap_or_else(|| String::from("null"))).collect();
            let got = if got.is_empty() { String::from("nothing") } else { got.join(" ") };
            (got != xs.join(" ")).then_some(got)
        }
        _ => Some(String::from("unknown expect on an answer (error, rule, pid, epoch, appended, duplicate, rejected, offsets, offset, hw, lso, aborted, records, partition, offset PART, error PART)")),
    }
}

/// Actions enabled in the world's current state, as script lines (the step buttons).
pub fn next_lines(w: &World) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = Vec::new();
    let mut push = |label: String, line: String| {
        if !out.iter().any(|x| x.1 == line) {
            out.push((label, line));
        }
    };
    for c in &w.clients {
        if c.crashed {
            continue;
        }
        let n = &c.name;
        use super::txn::ClientState as S;
        match c.state {
            S::Uninitialized => push(format!("{n}: initTransactions()"), format!("init {n}")),
            S::Initializing if c.pending.is_some() => {}
            S::Ready => push(format!("{n}: beginTransaction()"), format!("begin {n}")),
            S::InTransaction => {
                if let Some(p) = w.partitions.first() {
                    push(format!("{n}: send to {}", p.name), format!("send {n} {} v{}", p.name, w.records.len() + 1));
                }
                if let Some(p) = w.partitions.get(1) {
                    push(format!("{n}: send to {}", p.name), format!("send {n} {} v{}", p.name, w.records.len() + 1));
                }
                for con in w.consumers.iter().filter(|x| x.group.is_some()) {
                    push(format!("{n}: sendOffsetsToTransaction({})", con.name), format!("send-offsets {n} {}", con.name));
                }
                push(format!("{n}: commitTransaction()"), format!("commit {n}"));
                push(format!("{n}: commit, response lost"), format!("commit {n} lose-response"));
                push(format!("{n}: abortTransaction()"), format!("abort {n}"));
            }
            S::CommittingTransaction | S::AbortingTransaction if c.outcome_unknown => {
                let op = if c.state == S::CommittingTransaction { "commit" } else { "abort" };
                push(format!("{n}: retry {op} (same call)"), format!("{op} {n}"));
            }
            S::AbortableError => push(format!("{n}: abortTransaction()"), format!("abort {n}")),
            _ => {}
        }
        if c.state != S::Uninitialized && c.state != S::FatalError {
            push(format!("{n} crashes"), format!("crash {n}"));
        }
    }
    if w.markers.iter().any(|m| !m.held) {
        push(String::from("deliver every marker"), String::from("deliver markers"));
    }
    for m in &w.markers {
        push(format!("deliver the marker to {}", m.partition), format!("deliver marker {}", m.partition));
        if !m.held {
            push(format!("delay the marker to {}", m.partition), format!("delay marker {}", m.partition));
        }
    }
    push(String::from("fail over the coordinator"), String::from("failover coordinator"));
    for con in &w.consumers {
        push(format!("{} polls", con.name), format!("poll {}", con.name));
        if con.group.is_some() {
            push(format!("{} seeks to the committed offsets", con.name), format!("seek {} committed", con.name));
        }
    }
    for g in &w.groups {
        push(format!("{} rebalances", g.name), format!("rebalance {}", g.name));
    }
    push(String::from("time passes (1 minute)"), String::from("advance 1m"));
    out
}

/// The run as text: one block per step (for snapshots, the CLI, and diffs in review).
pub fn timeline_text(run: &TxnRun) -> String {
    let mut s = String::new();
    s.push_str(&format!("# {}\n", run.scenario.title));
    s.push_str(&format!("# transaction.version={} (Kafka {} model)\n", run.scenario.transaction_version, run.scenario.kafka.name()));
    for x in &run.scenario.producer_states {
        s.push_str(&format!(
            "# line {}: the leader of {} holds producer {} epoch {}, last batch sequences {}..{}{}{}\n",
            x.line,
            x.partition,
            x.producer_id,
            x.epoch,
            x.first_seq,
            x.last_seq,
            x.offset.map_or(String::new(), |o| format!(" at offsets {o}..{}", o + if x.last_seq >= x.first_seq { (x.last_seq - x.first_seq) as i64 } else { (i32::MAX - x.first_seq) as i64 + x.last_seq as i64 + 1 })),
            x.txn_first.map_or(String::new(), |t| format!(", a transaction open since offset {t}"))
        ));
    }
    for (k, st) in run.steps.iter().enumerate() {
        s.push_str(&format!("\n[{k}] line {} t+{}ms  {}{}\n", st.line, st.t, st.text, if st.ok { "" } else { "   <-- FAILED" }));
        for m in &st.messages {
            s.push_str(&format!(
                "    {} -> {} {}: {}{}{}\n",
                m.from,
                m.to,
                m.kind,
                m.text,
                m.rule.map_or(String::new(), |r| format!(" [{r}]")),
                if m.lost { " (LOST)" } else { "" }
            ));
        }
        if !st.narration.is_empty() {
            s.push_str(&format!("    = {}\n", st.narration));
        }
    }
    let w = &run.world;
    s.push_str("\nfinal state:\n");
    for c in &w.clients {
        s.push_str(&format!("  producer {} ({}): {} pid {} epoch {}{}\n", c.name, c.transactional_id, c.state.name(), c.pid, c.epoch, if c.outcome_unknown { " outcome UNKNOWN" } else { "" }));
    }
    for m in &w.coordinator.txns {
        s.push_str(&format!("  coordinator {} : {} pid {} epoch {}\n", m.transactional_id, m.state.name(), m.producer_id, m.producer_epoch));
    }
    for p in &w.partitions {
        s.push_str(&format!("  {}: HW {} LSO {} aborted {:?}\n", p.name, p.high_watermark(), p.last_stable_offset(), p.aborted_txns.iter().map(|a| (a.first_offset, a.last_offset)).collect::<Vec<_>>()));
    }
    for c in &w.consumers {
        s.push_str(&format!(
            "  consumer {} ({}): received [{}]\n",
            c.name,
            if c.isolation == Isolation::ReadCommitted { "read_committed" } else { "read_uncommitted" },
            c.received.iter().map(|r| r.2.as_deref().unwrap_or_default()).collect::<Vec<_>>().join(" ")
        ));
    }
    for (name, holds, detail) in w.invariants() {
        s.push_str(&format!("  invariant {name}: {} ({detail})\n", if holds { "holds" } else { "BROKEN" }));
    }
    if let Some(o) = &w.outside_model {
        s.push_str(&format!("  OUTSIDE_MODEL: {o}\n"));
    }
    for f in &run.failures {
        s.push_str(&format!("FAILED line {}: expected {}, got {}\n", f.line, f.expected, f.got));
    }
    if let Some(e) = &run.error {
        s.push_str(&format!("ERROR {e}\n"));
    }
    s
}

#[cfg(test)]
mod tests;
