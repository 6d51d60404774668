//! The idempotence script's parser: set-up lines, steps and `expect` lines into a [`Scenario`].

use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;

use super::idempotence::ProducerConfig;
use super::{Direction, Expect, LeaderStateDecl, ProducerDecl, ProducerStateDecl, Scenario, Step};
use crate::model::script::{self, parse_duration, perr, Line, ParseError};

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
    // An error names its line, quotes it and suggests the nearest verb or name.
    parse_script(text).map_err(|e| super::suggest::explain(e, text, super::suggest::IDEMPOTENCE_VERBS))
}

fn parse_script(text: &str) -> Result<Scenario, ParseError> {
    let mut sc = Scenario { start_ms: 1_700_000_000_000, first_producer_id: 1000, ..Default::default() };
    for l in script::lines(text) {
        if script::common_directive(&l, &mut sc.title, &mut sc.about, &mut sc.start_ms, &mut sc.first_producer_id)? {
            continue;
        }
        let Line { line, content, word, rest } = l;
        match word {
            "broker" => {
                for kv in rest.split_whitespace() {
                    match kv.split_once('=') {
                        Some(("producer.id.expiration.ms", v)) => {
                            sc.producer_id_expiration_ms =
                                Some(parse_duration(v).ok_or_else(|| ParseError { line, message: format!("bad duration {v:?}") })?)
                        }
                        Some(("default.replication.factor", v)) => {
                            sc.replication_factor = v.parse::<usize>().ok().filter(|n| (1..=9).contains(n)).ok_or_else(|| ParseError { line, message: format!("default.replication.factor={v}: 1..9") })?
                        }
                        Some(("replica.lag.time.max.ms", v)) => {
                            sc.replica_lag_time_max_ms = Some(parse_duration(v).filter(|d| *d >= 1).ok_or_else(|| ParseError { line, message: format!("bad duration {v:?}") })?)
                        }
                        Some(("unclean.leader.election.enable", v)) => {
                            sc.unclean_leader_election = match v {
                                "true" => true,
                                "false" => false,
                                _ => return perr(line, "unclean.leader.election.enable is true or false"),
                            }
                        }
                        Some(("min.insync.replicas", "1")) => {}
                        Some(("min.insync.replicas", _)) => return perr(line, "min.insync.replicas: the model has Kafka's default, 1 (NOT_ENOUGH_REPLICAS is not modelled)"),
                        // For the coordinators that answer the script's request lines.
                        Some(("kafka", v)) => {
                            sc.kafka = super::line::KafkaLine::parse(v).ok_or_else(|| ParseError { line, message: format!("kafka={v}: the model knows the lines 4.1 (4.0–4.1), 4.3 (4.2–4.3) and trunk") })?
                        }
                        Some(("transaction.version", v)) => {
                            sc.transaction_version = Some(v.parse::<u8>().ok().filter(|l| *l <= 2).ok_or_else(|| ParseError { line, message: format!("transaction.version={v}: 0, 1 or 2") })?)
                        }
                        _ => return perr(line, format!("unknown broker setting {kv:?} (producer.id.expiration.ms, default.replication.factor, replica.lag.time.max.ms, unclean.leader.election.enable, kafka, transaction.version)")),
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
pub(super) fn leader_log_end(sc: &Scenario, partition: &str) -> i64 {
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


pub(in crate::model) fn parse_step(line: usize, content: &str, sc: &Scenario) -> Result<Step, ParseError> {
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
    if let Some(st) = cluster_request(line, &words)? {
        return Ok(st);
    }
    Ok(match words[0] {
        "deliver" if matches!(words.get(1).copied(), Some("markers" | "marker")) => match (words[1], words.get(2)) {
            ("markers", None) => Step::DeliverMarkers { line, partition: None },
            ("marker", Some(p)) => Step::DeliverMarkers { line, partition: Some(partition(p)?) },
            _ => return perr(line, "usage: deliver markers | deliver marker PARTITION"),
        },
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
        "run-task" => {
            need(2)?;
            let tasks = crate::model::txn::World::TASKS;
            if !tasks.contains(&words[1]) {
                return Err(ParseError { line, message: format!("unknown task {:?}: run-task takes one of Kafka's scheduler tasks: {}", words[1], tasks.join(", ")) });
            }
            Step::RunTask { line, task: words[1].to_string() }
        }
        "leader-change" => {
            need(2)?;
            Step::LeaderChange { line, partition: partition(words[1])? }
        }
        "lag" | "catch-up" => {
            need(2)?;
            let broker = match words.get(2) {
                None => None,
                Some(b) => Some(b.strip_prefix("broker=").and_then(|n| n.parse::<i32>().ok()).ok_or_else(|| ParseError { line, message: format!("expected broker=N, not {b:?}") })?),
            };
            let partition = partition(words[1])?;
            if words[0] == "lag" {
                Step::Lag { line, partition, broker }
            } else {
                Step::CatchUp { line, partition, broker }
            }
        }
        "leader-fails" => {
            need(2)?;
            Step::LeaderFails { line, partition: partition(words[1])? }
        }
        "fetch" | "list-offsets" => {
            need(2)?;
            let part = partition(words[1])?;
            let (mut read_committed, mut from) = (false, 0i64);
            for w in &words[2..] {
                match *w {
                    "read_committed" => read_committed = true,
                    "read_uncommitted" => read_committed = false,
                    x if x.starts_with("from=") && words[0] == "fetch" => from = x[5..].parse().or_else(|_| perr(line, format!("{x}: expected from=OFFSET")))?,
                    x => return perr(line, format!("unexpected {x:?} (usage: {} PARTITION [read_committed|read_uncommitted]{})", words[0], if words[0] == "fetch" { " [from=N]" } else { "" })),
                }
            }
            if words[0] == "fetch" {
                Step::Fetch { line, partition: part, read_committed, from }
            } else {
                Step::ListOffsets { line, partition: part, read_committed }
            }
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
            if times > script::MAX_REPEAT {
                return perr(line, "repeat at most 100000 times");
            }
            let mut steps = Vec::new();
            for part in script::repeat_steps(body) {
                steps.push(parse_step(line, part, sc)?);
            }
            Step::Repeat { line, times, steps }
        }
        "expect" => Step::Expect { line, check: parse_expect(line, &words[1..], sc)? },
        other => return perr(line, format!("unknown command {other:?}")),
    })
}

/// A request line for the cluster (the transactions scripts' verbs the leader alone does not
/// answer, or a `produce`, `marker`, `fetch` or `list-offsets` line labelled `as LABEL` or naming
/// a transactional.id or version); `None` for any other line. The idempotence scripts' own
/// `produce`, `marker`, `fetch` and `list-offsets` lines stay theirs (`expect last …`,
/// `expect read …`).
fn cluster_request(line: usize, words: &[&str]) -> Result<Option<Step>, ParseError> {
    // A labelled one (`… as LABEL`), or one with the transactions scripts' fields, is answered
    // as there, kept for `expect LABEL …`.
    // A marker for several partitions is one request too (answered per partition).
    let several = words[0] == "marker" && words[1..].iter().filter(|w| !w.contains('=') && !matches!(**w, "commit" | "abort")).count() > 1;
    let own = matches!(words[0], "produce" | "marker" | "fetch" | "list-offsets")
        && !several
        && !words.iter().any(|w| w.starts_with("transactional.id=") || w.starts_with("v=") || *w == "as");
    if own || !super::txn::is_request_verb(words[0]) {
        return Ok(None);
    }
    let (request, label, from) = super::txn::parse_request(words).map_err(|message| ParseError { line, message })?;
    Ok(Some(Step::Request { line, label, from, request }))
}

/// The labels of the request lines so far (`… as LABEL`).
fn labels(sc: &Scenario) -> impl Iterator<Item = &str> {
    sc.steps.iter().filter_map(|s| match s {
        Step::Request { label: Some(l), .. } => Some(l.as_str()),
        _ => None,
    })
}

fn parse_expect(line: usize, w: &[&str], sc: &Scenario) -> Result<Expect, ParseError> {
    if w.is_empty() {
        return perr(line, "expect what?");
    }
    if labels(sc).any(|l| l == w[0]) {
        if w.len() < 2 {
            return perr(line, format!("expect {} what? (error NAME, pid N epoch E, rule R …)", w[0]));
        }
        return Ok(Expect::Reply { label: w[0].to_string(), words: w[1..].iter().map(|s| s.to_string()).collect() });
    }
    match w[0] {
        "txn" if w.len() == 3 => return Ok(Expect::Txn { id: w[1].to_string(), state: w[2].to_string() }),
        "txn" => return perr(line, "expect txn TRANSACTIONAL_ID STATE"),
        "txn-state" if w.len() >= 3 => return Ok(Expect::TxnState { id: w[1].to_string(), words: w[2..].iter().map(|s| s.to_string()).collect() }),
        "txn-state" => return perr(line, "expect txn-state TRANSACTIONAL_ID KEY=VALUE … (pid, epoch, state, pending, partitions, timeout, last-epoch, prev-pid, next-pid, tv, txn-start, last-update, coordinator-epoch)"),
        _ => {}
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
        "read" => {
            let what = w.get(1).copied().unwrap_or("");
            if !matches!(what, "records" | "hw" | "lso" | "offset" | "error" | "aborted") {
                return perr(line, "expect read records V …|nothing, hw N, lso N, offset N, error NAME or aborted PID@FIRST …|none|null (the latest fetch or list-offsets answer)");
            }
            Ok(Expect::Read { answer: what.to_string(), values: w[2..].iter().map(|x| x.to_string()).collect() })
        }
        "lso" => {
            if w.len() != 3 || !sc.partitions.iter().any(|p| p == w[1]) {
                return perr(line, "expect lso PARTITION OFFSET");
            }
            Ok(Expect::Lso { partition: w[1].to_string(), offset: w[2].parse().or_else(|_| perr(line, "expected an offset"))? })
        }
        "hw" => {
            if w.len() != 3 || !sc.partitions.iter().any(|p| p == w[1]) {
                return perr(line, "expect hw PARTITION OFFSET");
            }
            Ok(Expect::Hw { partition: w[1].to_string(), offset: w[2].parse().or_else(|_| perr(line, "expected an offset"))? })
        }
        "isr" => {
            let brokers = w.get(2).map(|l| l.split(',').map(|b| b.parse::<i32>()).collect::<Result<Vec<_>, _>>());
            match brokers {
                Some(Ok(b)) if w.len() == 3 && sc.partitions.iter().any(|p| p == w[1]) => Ok(Expect::Isr { partition: w[1].to_string(), brokers: b }),
                _ => perr(line, "expect isr PARTITION B1,B2,… (in ascending broker order, as Kafka lists it)"),
            }
        }
        "leader" => match w.get(2).map(|b| b.parse::<i32>()) {
            Some(Ok(b)) if w.len() == 3 && sc.partitions.iter().any(|p| p == w[1]) => Ok(Expect::Leader { partition: w[1].to_string(), broker: b }),
            _ => perr(line, "expect leader PARTITION BROKER"),
        },
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

pub(in crate::model) fn producer_config(d: &ProducerDecl) -> Result<ProducerConfig, String> {
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
