//! The transactions script's parser: set-up lines and steps into a [`TxnScenario`].

use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;

use super::line::KafkaLine;
use super::run::{seed_producer_state, setup_partitions};
use super::txn::DEFAULT_TXN_TIMEOUT_MS;
use super::{ConsumerDecl, ProducerStateSeed, TxnProducerDecl, TxnScenario, TxnSeed, TxnStep};
use crate::model::script::{self, parse_duration, perr, Line, ParseError};

const PRODUCER_STATE_USAGE: &str = "usage: producer-state PARTITION pid=N epoch=E seq=FIRST..LAST [offset=N] [txn-first=N]";

const TXN_STATE_USAGE: &str = "usage: txn-state TRANSACTIONAL_ID pid=N epoch=E [state=Empty|Ongoing|CompleteCommit|CompleteAbort] [partitions=P,…] [timeout=60s] [last-epoch=E] [txn-start=T] [last-update=T] [coordinator-epoch=N] (T from the script's start: -55s, 0, 2m)";

/// A time from the script's start: a duration, or minus one (`-55s`: before the start).
fn signed_duration(v: &str) -> Option<i64> {
    match v.strip_prefix('-') {
        Some(d) => parse_duration(d).map(|d| -d),
        None => parse_duration(v),
    }
}

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
            "txn-start" => s.txn_start_ms = Some(signed_duration(v).ok_or_else(|| bad("a time from the script's start, such as -55s or 0"))?),
            "last-update" => s.last_update_ms = Some(signed_duration(v).ok_or_else(|| bad("a time from the script's start, such as -55s or 0"))?),
            "coordinator-epoch" => s.coordinator_epoch = Some(v.parse::<i32>().ok().filter(|e| *e >= 0).ok_or_else(|| bad("a coordinator epoch is a number ≥ 0"))?),
            _ => return perr(line, format!("unknown txn-state setting {kv:?} (pid, epoch, state, partitions, timeout, last-epoch, txn-start, last-update, coordinator-epoch)")),
        }
    }
    if s.txn_start_ms.is_some() && s.state != "Ongoing" {
        return perr(line, "txn-state: txn-start= is an Ongoing transaction's start (state=Ongoing)");
    }
    if s.producer_id < 0 || s.epoch < 0 {
        return perr(line, TXN_STATE_USAGE);
    }
    if !s.partitions.is_empty() && s.state != "Ongoing" {
        return perr(line, "txn-state: partitions= belong to an Ongoing transaction (state=Ongoing)");
    }
    Ok(s)
}

const GROUP_STATE_USAGE: &str = "usage: group-state GROUP generation=N [members=A,B] [static=INSTANCE:MEMBER,…] [committed=PART=OFFSET,…]";

/// Parse the words after `group-state`.
fn group_seed(line: usize, rest: &str) -> Result<super::GroupSeed, ParseError> {
    let w: Vec<&str> = rest.split_whitespace().collect();
    let Some((&group, kvs)) = w.split_first().filter(|(g, _)| !g.contains('=')) else { return perr(line, GROUP_STATE_USAGE) };
    let mut g = super::GroupSeed { group: group.to_string(), generation: -1, ..Default::default() };
    for kv in kvs {
        let Some((k, v)) = kv.split_once('=') else { return perr(line, format!("{GROUP_STATE_USAGE}: {kv:?} is not KEY=VALUE")) };
        let bad = |what: &str| ParseError { line, message: format!("{kv}: {what}") };
        let list = || v.split(',').filter(|x| !x.is_empty());
        match k {
            "generation" => g.generation = v.parse::<i32>().ok().filter(|n| *n >= 0).ok_or_else(|| bad("a generation is a number ≥ 0"))?,
            "members" => g.members = list().map(String::from).collect(),
            "static" => {
                for x in list() {
                    let (i, m) = x.split_once(':').ok_or_else(|| bad("static members are INSTANCE:MEMBER"))?;
                    g.static_members.push((i.to_string(), m.to_string()));
                }
            }
            "committed" => {
                // PART=OFFSET pairs: the value itself holds `=`.
                let all = kv.strip_prefix("committed=").unwrap_or("");
                for x in all.split(',').filter(|x| !x.is_empty()) {
                    let (p, o) = x.rsplit_once('=').ok_or_else(|| bad("committed offsets are PART=OFFSET"))?;
                    g.committed.push((p.to_string(), o.parse::<i64>().ok().filter(|o| *o >= 0).ok_or_else(|| bad("an offset is a number ≥ 0"))?));
                }
            }
            _ => return perr(line, format!("unknown group-state setting {kv:?} (generation, members, static, committed)")),
        }
    }
    if g.generation < 0 {
        return perr(line, format!("{GROUP_STATE_USAGE}: generation= is required"));
    }
    if let Some((i, m)) = g.static_members.iter().find(|(_, m)| !g.members.contains(m)) {
        return perr(line, format!("group-state: static member {i}:{m}: {m} is not among members="));
    }
    Ok(g)
}

/// Parse the words after `producer-state`.
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

/// The first words only the transactions scripts read (one script language). A script
/// without a `model` line that uses one is a transactions script all the same, so any line works
/// in any script; one that uses none stays an idempotence script, run as it always was.
/// (`www/lib/ladder-rows.js` keeps the same list: `TRANSACTIONS_WORDS`, compared by a test.)
pub const TRANSACTIONS_WORDS: [&str; 19] = [
    "init", "begin", "send-all", "send-offsets", "commit", "abort", "crash", "failover", "poll", "rebalance", "seek", "effect", "feature", "release", "inject", "cluster", "txn-state", "group-state", "consumer",
];

/// Whether a line (its first word and the rest) is one only the transactions scripts read.
fn transactions_line(word: &str, rest: &str) -> bool {
    TRANSACTIONS_WORDS.contains(&word)
        || (word == "delay" && rest.split_whitespace().next() == Some("marker"))
        || (word == "producer" && rest.split_whitespace().any(|w| w.starts_with("transactional.id=")))
        || (word == "repeat" && rest.split_once(':').is_some_and(|(_, body)| {
            script::repeat_steps(body).any(|st| {
                let (w, r) = st.split_once(char::is_whitespace).unwrap_or((st, ""));
                transactions_line(w, r.trim())
            })
        }))
}

/// Does this script use the transactions model: `model transactions` as its first directive, or,
/// with no `model` line, a line only the transactions scripts read ([`TRANSACTIONS_WORDS`])?
pub fn is_transactions(text: &str) -> bool {
    match script::lines(text).next() {
        Some(l) if is_model_line(l.content) => true,
        Some(l) if l.word == "model" => false,
        Some(_) => script::lines(text).any(|l| transactions_line(l.word, l.rest)),
        None => false,
    }
}

/// `model transactions` (any spacing).
fn is_model_line(content: &str) -> bool {
    content.split_whitespace().collect::<Vec<_>>() == ["model", "transactions"]
}

/// What a step line needs to know to tell a hosted producer's step (`send`, `deliver request b1`,
/// `expect b1 acked` … in the idempotence scripts' words) from the transactions scripts' own: the
/// producers without a transactional.id and the partitions, as the idempotence parser reads them,
/// and the request labels so far (`expect b1 …` names a request labelled `b1` when there is one).
#[derive(Default)]
pub(in crate::model) struct Hosted {
    pub(super) sc: crate::model::scenario::Scenario,
    pub(super) labels: Vec<String>,
}

impl Hosted {
    /// The hosted producers and partitions of a world (for a line appended to a run).
    pub(super) fn of_world(w: &super::txn::World) -> Hosted {
        let sc = crate::model::scenario::Scenario {
            partitions: w.idem.cluster.partitions.iter().map(|p| p.name.clone()).collect(),
            producers: w.idem.producers.iter().map(|p| crate::model::scenario::ProducerDecl { name: p.name.clone(), settings: Vec::new() }).collect(),
            ..Default::default()
        };
        Hosted { sc, labels: Vec::new() }
    }

    /// `w`, when it is a hosted producer's step: parsed by the idempotence scripts' parser.
    fn step(&self, line: usize, content: &str, w: &[&str]) -> Option<Result<TxnStep, ParseError>> {
        let hosted = |name: &str| self.sc.producers.iter().any(|p| p.name == name);
        let batch_name = |x: &str| x.strip_prefix('b').is_some_and(|n| n.split('#').next().is_some_and(|n| !n.is_empty() && n.bytes().all(|c| c.is_ascii_digit())));
        let second = w.get(1).copied().unwrap_or("");
        let parsed = || Some(crate::model::scenario::parse_step(line, content, &self.sc).map(|step| TxnStep::Idempotent { line, step }));
        let network = match w[0] {
            // A replica takes over leadership, the producer state moving with the log, and the
            // count of a leader's producer-state entries: the idempotence scripts' lines, which any
            // script may use.
            "leader-change" => return parsed(),
            "expect" if second == "producers" => return parsed(),
            "send" => hosted(second),
            "lose" | "timeout" | "restart" | "refuse" => true,
            "deliver" => matches!(second, "request" | "response"),
            "delay" => second == "request",
            "expect" => {
                (batch_name(second) && !self.labels.iter().any(|l| l == second))
                    || (second == "producer" && w.get(2).is_some_and(|p| hosted(p)))
            }
            _ => false,
        };
        if !network {
            return None;
        }
        if self.sc.producers.is_empty() {
            return Some(perr(line, format!("`{}` drives a producer without a transactional.id (its batches b1, b2 …): declare one with `producer NAME`", w[..w.len().min(2)].join(" "))));
        }
        parsed()
    }
}

pub(super) fn step(line: usize, content: &str, hosted: &Hosted) -> Result<TxnStep, ParseError> {
    let w: Vec<&str> = content.split_whitespace().collect();
    if let Some(st) = hosted.step(line, content, &w) {
        return st;
    }
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
        "run-task" => {
            need(2, "run-task transaction-abort|transactionalId-expiration|PeriodicProducerExpirationCheck|isr-expiration")?;
            if !super::txn::World::TASKS.contains(&w[1]) {
                return perr(line, format!("unknown task {:?}: run-task takes one of Kafka's scheduler tasks: {}", w[1], super::txn::World::TASKS.join(", ")));
            }
            TxnStep::RunTask { line, task: s(1) }
        }
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
        "lag" | "catch-up" => {
            need(2, &format!("{} PARTITION [broker=B]", w[0]))?;
            let broker = match w.get(2) {
                None => None,
                Some(b) => Some(b.strip_prefix("broker=").and_then(|n| n.parse::<i32>().ok()).ok_or_else(|| ParseError { line, message: format!("expected broker=N, not {b:?}") })?),
            };
            if w[0] == "lag" {
                TxnStep::Lag { line, partition: s(1), broker }
            } else {
                TxnStep::CatchUp { line, partition: s(1), broker }
            }
        }
        "leader-fails" => {
            need(2, "leader-fails PARTITION")?;
            TxnStep::LeaderFails { line, partition: s(1) }
        }
        "release" => {
            need(3, "release PRODUCER API")?;
            let apis = &super::txn::inject::APIS;
            let Some(api) = apis.iter().find(|a| a.eq_ignore_ascii_case(w[2])) else {
                return perr(line, format!("release: a request held with `inject P API hold` is released, and {} are held; not {}", apis.join(", "), w[2]));
            };
            TxnStep::Release { line, producer: s(1), api: String::from(*api) }
        }
        "inject" => {
            let (producer, api, _) = super::txn::inject::parse(&w).map_err(|message| ParseError { line, message })?;
            TxnStep::Inject { line, producer, api: String::from(api), what: s(3) }
        }
        "expect" => {
            need(2, "expect …")?;
            TxnStep::Expect { line, words: w[1..].iter().map(|x| x.to_string()).collect() }
        }
        other => return perr(line, format!("unknown step {other:?}")),
    })
}

/// Parse a transactions scenario.
pub fn parse(text: &str) -> Result<TxnScenario, ParseError> {
    let mut sc = TxnScenario { model: String::from("transactions"), start_ms: 1_700_000_000_000, first_producer_id: 1000, transaction_version: 2, rtt_ms: 1, append_ms: 2, brokers: 3, ..Default::default() };
    let mut seen_model = false;
    let mut hosted = Hosted::default();
    // `#` starts a comment at the start of a line or after a space (as in the idempotence
    // scripts), so `b1#1` stays one word.
    for l in script::lines(text) {
        let Line { line, content, word, rest } = l;
        if !seen_model {
            seen_model = true;
            if is_model_line(content) {
                continue;
            }
            // No `model` line: a transactions script all the same when it uses a line only the
            // transactions scripts read; this line is its first step or set-up line.
            if !is_transactions(text) {
                return perr(line, "a transactions scenario starts with `model transactions` (or uses a line only transactions scripts read: init, begin, commit, consumer …)");
            }
        }
        if script::common_directive(&l, &mut sc.title, &mut sc.about, &mut sc.start_ms, &mut sc.first_producer_id)? {
            continue;
        }
        match word {
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
                        Some(("transaction.abort.timed.out.transaction.cleanup.interval.ms", v)) => {
                            sc.abort_timed_out_interval_ms = Some(parse_duration(v).filter(|d| *d >= 1).ok_or_else(bad)?)
                        }
                        Some(("default.replication.factor", v)) => sc.replication_factor = v.parse::<usize>().ok().filter(|n| (1..=9).contains(n)).ok_or_else(bad)?,
                        Some(("replica.lag.time.max.ms", v)) => sc.replica_lag_time_max_ms = Some(parse_duration(v).filter(|d| *d >= 1).ok_or_else(bad)?),
                        Some(("unclean.leader.election.enable", v)) => {
                            sc.unclean_leader_election = match v {
                                "true" => true,
                                "false" => false,
                                _ => return perr(line, "unclean.leader.election.enable is true or false"),
                            }
                        }
                        Some(("transaction.max.timeout.ms", v)) => {
                            sc.transaction_max_timeout_ms = Some(parse_duration(v).filter(|d| (1..=i32::MAX as i64).contains(d)).ok_or_else(bad)?)
                        }
                        Some(("producer.id.expiration.ms", v)) => sc.producer_id_expiration_ms = Some(parse_duration(v).filter(|d| *d >= 1).ok_or_else(bad)?),
                        Some(("producer.id.expiration.check.interval.ms", v)) => {
                            sc.producer_id_expiration_check_interval_ms = Some(parse_duration(v).filter(|d| *d >= 1).ok_or_else(bad)?)
                        }
                        Some(("min.insync.replicas", "1")) => {}
                        Some(("min.insync.replicas", _)) => return perr(line, "min.insync.replicas: the model has Kafka's default, 1 (the leader alone is enough; NOT_ENOUGH_REPLICAS is not modelled)"),
                        Some(("rtt", v)) => sc.rtt_ms = parse_duration(v).ok_or_else(bad)?,
                        Some(("append", v)) => sc.append_ms = parse_duration(v).ok_or_else(bad)?,
                        Some(("brokers", v)) => sc.brokers = v.parse::<usize>().ok().filter(|b| (1..=1000).contains(b)).ok_or_else(bad)?,
                        Some(("kafka", v)) => {
                            sc.kafka = KafkaLine::parse(v).ok_or_else(|| ParseError { line, message: format!("kafka={v}: the model knows the lines 4.1 (4.0–4.1), 4.3 (4.2–4.3) and trunk") })?
                        }
                        _ => return perr(line, format!("unknown cluster setting {kv:?} (transaction.version, kafka, transaction.partition.verification.enable, transactional.id.expiration.ms, transaction.remove.expired.transaction.cleanup.interval.ms, transaction.abort.timed.out.transaction.cleanup.interval.ms, default.replication.factor, replica.lag.time.max.ms, unclean.leader.election.enable, transaction.max.timeout.ms, producer.id.expiration.ms, producer.id.expiration.check.interval.ms, rtt, append, brokers)")),
                    }
                }
            }
            "txn-state" => {
                let s = txn_seed(line, rest)?;
                if let (Some(e), Some(o)) = (s.coordinator_epoch, sc.seeds.iter().find_map(|x| x.coordinator_epoch)) {
                    if e != o {
                        return perr(line, format!("txn-state: coordinator-epoch={e}, but an earlier line gave {o} (the model has one coordinator)"));
                    }
                }
                sc.seeds.push(s)
            }
            "group-state" => sc.groups.push(group_seed(line, rest)?),
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
                        Some((k, _)) if !rest.contains("transactional.id=") && !k.starts_with("transaction") => {}
                        _ => return perr(line, format!("unknown producer setting {kv:?} (transactional.id, transaction.timeout.ms, transaction.two.phase.commit.enable; without a transactional.id: idempotence, max.in.flight, retries, delivery.timeout.ms, request.timeout.ms)")),
                    }
                }
                if sc.producers.iter().any(|p| p.name == d.name) || sc.idempotent_producers.iter().any(|p| p.name == d.name) {
                    return perr(line, format!("producer {} is declared twice (two instances of one transactional.id are two names)", d.name));
                }
                if d.transactional_id.is_empty() {
                    // No transactional.id: a Java producer hosted from the idempotence scripts,
                    // with their settings.
                    let settings: Vec<(String, String)> = rest.split_whitespace().skip(1).filter_map(|kv| kv.split_once('=')).map(|(k, v)| (k.to_string(), v.to_string())).collect();
                    super::hosted::config(&settings).map_err(|message| ParseError { line, message })?;
                    let decl = crate::model::scenario::ProducerDecl { name: d.name, settings };
                    hosted.sc.producers.push(decl.clone());
                    sc.idempotent_producers.push(decl);
                    continue;
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
                let times = n.trim().parse::<usize>().ok().filter(|n| *n <= script::MAX_REPEAT).ok_or_else(|| ParseError { line, message: String::from("repeat needs a count up to 100000") })?;
                hosted.sc.partitions.clone_from(&sc.partitions);
                let steps = script::repeat_steps(body).map(|s| step(line, s, &hosted)).collect::<Result<Vec<_>, _>>()?;
                sc.steps.push(TxnStep::Repeat { line, times, steps });
            }
            _ => {
                if hosted.sc.partitions.len() != sc.partitions.len() {
                    hosted.sc.partitions.clone_from(&sc.partitions);
                }
                let st = step(line, content, &hosted)?;
                if let TxnStep::Request { label: Some(l), .. } = &st {
                    hosted.labels.push(l.clone());
                }
                sc.steps.push(st);
            }
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
