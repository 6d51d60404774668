//! `eoslab`: Kafka Record Batch bytes on the terminal.
//!
//! ```text
//! eoslab decode [FILE|-] [--json] [--headers-only] [--max-decompressed BYTES] [--formatter transaction-log|offsets]
//!               [--messages|--batches] [--size-prefixed|--no-size-prefix] [--request|--response] [--api-key K] [--api-version V]
//! eoslab encode SPEC.json [--hex|--base64|--binary] [-o FILE]
//! eoslab dump-log --files F[,F…] [--print-data-log] [--deep-iteration] [--transaction-log-decoder|--offsets-decoder] [--index-sanity-check] [--verify-index-only] [--skip-record-metadata] [--max-bytes N] [--max-message-size N]
//! eoslab partition DIR|FILE… [--json | --script]
//! ```
//! `partition` reads a partition directory (or the files given) as the broker loads it: producer
//! state from the latest snapshot plus the log after it, open transactions, the LSO, the aborted
//! transactions, and every `.snapshot`, `.index`, `.timeindex` and `.txnindex` checked against
//! the log (exit 1 when one disagrees or a file cannot be read); `--script` prints a simulator
//! script that starts from that state (`log-end`, `producer-state`) and retries each producer's
//! last batch.
//! `dump-log` prints what Kafka 4.3.1's `kafka-dump-log` prints for `.log`, `.index`,
//! `.timeindex`, `.txnindex` and `.snapshot` files (same lines on the same streams; exit 1 where
//! Kafka's tool throws), from eoslab_core::files::dump.
//! `decode` takes binary (a `.log` segment, a dumped `records` field) or text (hex in any
//! common layout, base64, byte-array literals) and prints a `kafka-dump-log
//! --print-data-log`-style listing, or with `--json` the same object the wasm `decode`
//! returns. `--formatter` reads the records as `__transaction_state` or `__consumer_offsets`
//! records and adds what `kafka-console-consumer --formatter` prints for each.
//! `decode` also reads whole requests and responses (issue 16; eoslab_core::message): with
//! `--messages`, or by itself when the bytes are not clean batches but are clean messages (so every
//! batch or segment input prints exactly as before). It prints each message's header and body as
//! a tree of Kafka's field names with their byte ranges, the records of Produce/Fetch as the batch
//! listing, and, for Fetch responses, what a read_committed consumer does with each batch.
//! `--json` then prints the `decodeMessages` object. A response needs its request's api key and
//! version: from a request with the same correlation id earlier in the input, or `--api-key`
//! (number or name: `Fetch`) and `--api-version`.
//! Exit status: 0 clean, 1 when the input has errors, 2 on usage errors.
//! `encode` reads a batch spec (or an array of them) in the `encodeBatch` shape.

use std::io::{Read, Write};
use std::process::ExitCode;

use eoslab_core::report::{BatchReport, Report, Severity};
use eoslab_core::{decode, encode_segment, BatchSpec, DecodeOptions};

const USAGE: &str = "usage:
  eoslab decode [FILE|-] [--json] [--headers-only] [--max-decompressed BYTES] [--formatter transaction-log|offsets]
                [--messages|--batches] [--size-prefixed|--no-size-prefix] [--request|--response] [--api-key K] [--api-version V]
  eoslab encode SPEC.json [--hex|--base64|--binary] [-o FILE]
  eoslab dump-log --files F[,F...] [--print-data-log] [--deep-iteration] [--transaction-log-decoder|--offsets-decoder] [--index-sanity-check] [--verify-index-only] [--skip-record-metadata] [--max-bytes N] [--max-message-size N]
  eoslab partition DIR|FILE... [--json | --script]
  eoslab partition --write-dir DIR --script SCENARIO.eos [--index-interval-bytes N]
  eoslab run SCENARIO.eos [--json] [--transaction-version 0|1|2] [--kafka 4.1|4.3|trunk] [--leader-log]
  eoslab schedule [--requests | --transactions [--requests | --exclude TEXT,…]] --seed N [--count N] [--steps N] [--producers N] [--partitions N] [--first-producer-id N] [--time MS]";

/// `eoslab … | head`: a reader that has gone ends the program as it ends `cat` (SIGPIPE), not with
/// a panic from `println!` or an error message. Rust ignores SIGPIPE by default; this restores
/// the default action (`signal(SIGPIPE, SIG_DFL)`; 13 and 0 on every Unix).
#[cfg(unix)]
fn quiet_on_closed_pipe() {
    extern "C" {
        fn signal(signum: i32, handler: usize) -> usize;
    }
    // SAFETY: plain libc call at start-up, before any thread exists; SIG_DFL is a valid handler.
    unsafe {
        signal(13, 0);
    }
}

#[cfg(not(unix))]
fn quiet_on_closed_pipe() {}

fn main() -> ExitCode {
    quiet_on_closed_pipe();
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = match args.first().map(String::as_str) {
        Some("decode") => cmd_decode(&args[1..]),
        Some("encode") => cmd_encode(&args[1..]),
        Some("dump-log") => cmd_dump_log(&args[1..]),
        Some("partition") => cmd_partition(&args[1..]),
        Some("run") => cmd_run(&args[1..]),
        Some("schedule") => cmd_schedule(&args[1..]),
        Some("-h" | "--help" | "help") => {
            println!("{USAGE}");
            Ok(ExitCode::SUCCESS)
        }
        _ => Err(USAGE.to_string()),
    };
    match result {
        Ok(code) => code,
        Err(msg) => {
            eprintln!("eoslab: {msg}");
            ExitCode::from(2)
        }
    }
}

fn read_input(path: Option<&str>) -> Result<Vec<u8>, String> {
    let mut buf = Vec::new();
    match path {
        None | Some("-") => std::io::stdin().read_to_end(&mut buf).map_err(|e| format!("stdin: {e}"))?,
        Some(p) => return std::fs::read(p).map_err(|e| format!("{p}: {e}")),
    };
    Ok(buf)
}

fn cmd_decode(args: &[String]) -> Result<ExitCode, String> {
    use eoslab_core::message::{self, schema, Framing, MessageOptions};
    let mut opts = DecodeOptions::default();
    let mut mopts = MessageOptions::default();
    // None: detect; Some(true): messages; Some(false): batches.
    let mut messages: Option<bool> = None;
    let mut json = false;
    let mut path = None;
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "--json" => json = true,
            "--headers-only" => opts.records = false,
            "--max-decompressed" => {
                let v = it.next().ok_or("--max-decompressed needs a byte count")?;
                opts.max_decompressed = v.parse().map_err(|_| format!("not a byte count: {v}"))?;
            }
            "--formatter" => {
                let v = it.next().ok_or("--formatter needs transaction-log or offsets")?;
                opts.formatter = Some(
                    eoslab_core::internal::InternalTopic::from_name(v)
                        .ok_or_else(|| format!("unknown formatter {v}: transaction-log or offsets"))?,
                );
            }
            "--messages" => messages = Some(true),
            "--batches" => messages = Some(false),
            "--size-prefixed" => mopts.framing = Framing::Sized,
            "--no-size-prefix" => mopts.framing = Framing::Unsized,
            "--request" => mopts.kind = Some(schema::Kind::Request),
            "--response" => mopts.kind = Some(schema::Kind::Response),
            "--api-key" => {
                let v = it.next().ok_or("--api-key needs a number or an api name (Fetch)")?;
                let key = v.parse::<i16>().ok().or_else(|| {
                    schema::API_NAMES.iter().position(|n| n.eq_ignore_ascii_case(v)).map(|k| k as i16)
                });
                mopts.api_key = Some(key.ok_or_else(|| format!("unknown api {v}"))?);
            }
            "--api-version" => {
                let v = it.next().ok_or("--api-version needs a number")?;
                mopts.api_version = Some(v.parse().map_err(|_| format!("not a version: {v}"))?);
            }
            s if s.starts_with("--") => return Err(format!("unknown option {s}\n{USAGE}")),
            s => path = Some(s),
        }
    }
    if mopts.api_key.is_some() != mopts.api_version.is_some() {
        return Err(String::from("--api-key and --api-version go together"));
    }
    let envelope_flags = mopts.framing != Framing::Auto || mopts.kind.is_some() || mopts.api_key.is_some();
    if envelope_flags && messages.is_none() {
        messages = Some(true);
    }
    let input = read_input(path)?;
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    let report = if messages == Some(true) { None } else { Some(decode(&input, &opts)) };
    // Detection: batches unless they are broken and the same bytes are clean messages.
    let mreport = match &report {
        None => Some(message::decode_messages(&input, &MessageOptions { records: opts.clone(), ..mopts })),
        Some(r) if messages.is_none() && !r.is_clean() => {
            let m = message::decode_messages(&input, &MessageOptions { records: opts.clone(), ..mopts });
            (m.is_clean() && !m.messages.is_empty()).then_some(m)
        }
        Some(_) => None,
    };
    let clean = if let Some(m) = mreport {
        if json {
            serde_json::to_writer(&mut out, &m).map_err(|e| e.to_string())?;
            writeln!(out).ok();
        } else {
            write_messages(&mut out, &m).map_err(|e| e.to_string())?;
        }
        m.is_clean()
    } else {
        let report = report.unwrap_or_default();
        if json {
            serde_json::to_writer(&mut out, &report).map_err(|e| e.to_string())?;
            writeln!(out).ok();
        } else {
            write_listing(&mut out, &report).map_err(|e| e.to_string())?;
        }
        report.is_clean()
    };
    out.flush().ok();
    Ok(if clean { ExitCode::SUCCESS } else { ExitCode::from(1) })
}

fn severity_word(s: Severity) -> &'static str {
    match s {
        Severity::Error => "error",
        Severity::Warning => "warning",
        Severity::Info => "note",
    }
}

/// Messages as text: one heading per message, its header and body as an indented tree of
/// Kafka's field names (camelCase, as the JSON converters print them) with `[start..end)` byte
/// ranges, the records of each `records` field as the batch listing, and the message's issues.
fn write_messages(out: &mut impl Write, r: &eoslab_core::message::MessagesReport) -> std::io::Result<()> {
    use eoslab_core::message::Node;
    fn node(out: &mut impl Write, n: &Node, depth: usize, m: &eoslab_core::message::MessageReport) -> std::io::Result<()> {
        let pad = "  ".repeat(depth);
        let value = if n.null {
            String::from("null")
        } else {
            match (&n.value, n.ty) {
                (Some(v), "string") => serde_json::to_string(v).unwrap_or_default(),
                (Some(v), "array") => format!("{v} element(s)"),
                (Some(v), "taggedFields") => format!("{v} tagged field(s)"),
                (Some(v), _) => v.clone(),
                (None, _) => String::new(),
            }
        };
        let tag = n.tag.map(|t| format!(" (tag {t})")).unwrap_or_default();
        let sep = if value.is_empty() { "" } else { " " };
        writeln!(out, "{pad}{}{tag}:{sep}{value} [{}..{})", n.name, n.start, n.end)?;
        if let Some(ri) = n.records {
            if let Some(rec) = m.records.get(ri) {
                let mut buf = Vec::new();
                for (i, b) in rec.report.batches.iter().enumerate() {
                    write_batch(&mut buf, b)?;
                    if let Some(v) = rec.consumer.as_ref().and_then(|c| c.batches.get(i).map(|x| (c, x))) {
                        let (c, x) = v;
                        let why = x.first_offset.as_ref().map(|f| format!(" (aborted transaction firstOffset {f})")).unwrap_or_default();
                        writeln!(buf, "consumer {}: {}{why}", c.isolation_level, x.verdict)?;
                    }
                }
                let text = String::from_utf8_lossy(&buf);
                for l in text.lines() {
                    writeln!(out, "{pad}  {l}")?;
                }
                writeln!(out, "{pad}  (batch positions are relative to byte {})", rec.start)?;
            }
        }
        for c in &n.children {
            node(out, c, depth + 1, m)?;
        }
        Ok(())
    }
    write!(out, "Input: {} ({} bytes)", r.format, r.length)?;
    if !r.stripped.is_empty() {
        write!(out, ", stripped: {}", r.stripped.join(", "))?;
    }
    writeln!(out)?;
    for (i, m) in r.messages.iter().enumerate() {
        write!(
            out,
            "#{i} {} {} v{} (header v{}) correlationId: {} [{}..{})",
            m.kind,
            m.api_name.unwrap_or("?"),
            m.api_version,
            m.header_version,
            m.correlation_id,
            m.start,
            m.end
        )?;
        match (m.api_from, m.request_index) {
            (Some("request"), Some(q)) => write!(out, " answers #{q}")?,
            (Some("options"), _) => write!(out, " (api key and version from the options)")?,
            _ => {}
        }
        writeln!(out)?;
        node(out, &m.header, 1, m)?;
        if let Some(b) = &m.body {
            node(out, b, 1, m)?;
        }
        for e in r.errors.iter().filter(|e| e.index == Some(i)) {
            write!(out, "! {} at byte {}", severity_word(e.severity), e.at)?;
            if let Some(f) = &e.field {
                write!(out, " ({f})")?;
            }
            writeln!(out, " {}: {}", e.kind, e.message)?;
        }
    }
    for e in r.errors.iter().filter(|e| e.index.is_none()) {
        writeln!(out, "! {} at byte {} {}: {}", severity_word(e.severity), e.at, e.kind, e.message)?;
    }
    writeln!(out, "{} message(s), {} error(s)", r.messages.len(), r.errors.iter().filter(|e| e.severity == Severity::Error).count())
}

/// Text as `DumpLogSegments` prints it, made terminal-safe: valid UTF-8 without control
/// characters is printed as is, anything else as `0x…` hex.
fn printable(b: &Option<Vec<u8>>) -> String {
    match b {
        None => "null".into(),
        Some(b) => match std::str::from_utf8(b) {
            Ok(s) if !s.chars().any(char::is_control) => s.to_string(),
            _ => format!("0x{}", eoslab_core::report::to_hex(b)),
        },
    }
}

fn write_listing(out: &mut impl Write, r: &Report) -> std::io::Result<()> {
    write!(out, "Input: {} ({} bytes)", r.format, r.length)?;
    if !r.stripped.is_empty() {
        write!(out, ", stripped: {}", r.stripped.join(", "))?;
    }
    writeln!(out)?;
    let unattached = r.errors.iter().filter(|e| e.batch.is_none());
    for e in unattached {
        writeln!(out, "! at {} {}: {}", e.at, e.kind, e.message)?;
    }
    for (i, b) in r.batches.iter().enumerate() {
        write_batch(out, b)?;
        for e in r.errors.iter().filter(|e| e.batch == Some(i)) {
            let sev = match e.severity {
                Severity::Error => "error",
                Severity::Warning => "warning",
                Severity::Info => "note",
            };
            write!(out, "! {sev} at byte {}", e.at)?;
            if let Some(d) = e.decompressed_at {
                write!(out, " (decompressed byte {d})")?;
            }
            writeln!(out, " {}: {}", e.kind, e.message)?;
        }
    }
    writeln!(out, "{} batch(es), {} error(s)", r.batches.len(), r.errors.iter().filter(|e| e.severity == Severity::Error).count())
}

fn write_batch(out: &mut impl Write, b: &BatchReport) -> std::io::Result<()> {
    let h = &b.header;
    let a = &h.attributes;
    let ts_type = &a.timestamp_type;
    if b.legacy {
        writeln!(
            out,
            "offset: {} lastOffset: {} count: {} position: {} {ts_type}: {} size: {} magic: {} compresscodec: {} crc: {} isvalid: {} (legacy message format v{})",
            h.base_offset, h.last_offset, h.records_count, b.start, h.max_timestamp, b.end - b.start, h.magic,
            a.compression, h.crc, h.crc_valid, h.magic
        )?;
    } else {
        let horizon = if a.delete_horizon { format!("OptionalLong[{}]", h.base_timestamp) } else { "OptionalLong.empty".into() };
        writeln!(
            out,
            "baseOffset: {} lastOffset: {} count: {} baseSequence: {} lastSequence: {} producerId: {} producerEpoch: {} partitionLeaderEpoch: {} isTransactional: {} isControl: {} deleteHorizonMs: {horizon} position: {} {ts_type}: {} size: {} magic: {} compresscodec: {} crc: {} isvalid: {}{}",
            h.base_offset, h.last_offset, h.records_count, h.base_sequence, h.last_sequence, h.producer_id,
            h.producer_epoch, h.partition_leader_epoch, a.transactional, a.control, b.start, h.max_timestamp,
            b.end - b.start, h.magic, a.compression, h.crc, h.crc_valid,
            if b.truncated { " (truncated)" } else { "" }
        )?;
    }
    for r in &b.records {
        // DumpLogSegments.dumpLog: the same fields for data and control records; then an
        // end-transaction marker, another control type, or (data) `key:` / `payload:` each only
        // when the record has one (a null key or value prints nothing, not "null").
        let size = |v: &Option<Vec<u8>>| v.as_ref().map_or(-1, |v| v.len() as i64);
        let header_keys: Vec<&str> = r.headers.iter().map(|h| h.key.as_str()).collect();
        write!(
            out,
            "| offset: {} {ts_type}: {} keySize: {} valueSize: {} sequence: {} headerKeys: [{}]",
            r.offset,
            r.timestamp,
            size(&r.key),
            size(&r.value),
            r.sequence,
            header_keys.join(",")
        )?;
        if let Some(c) = &b.control {
            match c.coordinator_epoch {
                Some(e) => writeln!(out, " endTxnMarker: {} coordinatorEpoch: {e}", c.type_name)?,
                None => writeln!(out, " controlType: {}({})", c.type_name, c.type_id)?,
            }
            continue;
        }
        if r.key.is_some() {
            write!(out, " key: {}", printable(&r.key))?;
        }
        if r.value.is_some() {
            write!(out, " payload: {}", printable(&r.value))?;
        }
        writeln!(out)?;
        match r.formatted.as_deref() {
            None => {}
            Some("") => writeln!(out, "|   formatter: (prints nothing for this record)")?,
            Some(f) => writeln!(out, "|   formatter: {f}")?,
        }
    }
    Ok(())
}

fn cmd_encode(args: &[String]) -> Result<ExitCode, String> {
    let mut path = None;
    let mut format = "hex";
    let mut out_path = None;
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "--hex" => format = "hex",
            "--base64" => format = "base64",
            "--binary" => format = "binary",
            "-o" => out_path = Some(it.next().ok_or("-o needs a file")?.clone()),
            s if s.starts_with("--") => return Err(format!("unknown option {s}\n{USAGE}")),
            s => path = Some(s),
        }
    }
    let text = read_input(path)?;
    let value: serde_json::Value = serde_json::from_slice(&text).map_err(|e| format!("spec is not JSON: {e}"))?;
    let specs: Vec<BatchSpec> = if value.is_array() {
        serde_json::from_value(value).map_err(|e| format!("bad spec: {e}"))?
    } else {
        vec![serde_json::from_value(value).map_err(|e| format!("bad spec: {e}"))?]
    };
    let bytes = encode_segment(&specs).map_err(|e| e.to_string())?;
    let rendered = match format {
        "binary" => bytes,
        "base64" => {
            let mut s = base64(&bytes);
            s.push('\n');
            s.into_bytes()
        }
        _ => {
            let mut s = eoslab_core::report::to_hex(&bytes);
            s.push('\n');
            s.into_bytes()
        }
    };
    match out_path {
        Some(p) => std::fs::write(&p, rendered).map_err(|e| format!("{p}: {e}"))?,
        None => std::io::stdout().write_all(&rendered).map_err(|e| e.to_string())?,
    }
    Ok(ExitCode::SUCCESS)
}

fn base64(b: &[u8]) -> String {
    const A: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut s = String::with_capacity(b.len().div_ceil(3) * 4);
    for c in b.chunks(3) {
        let n = (c[0] as u32) << 16 | (*c.get(1).unwrap_or(&0) as u32) << 8 | *c.get(2).unwrap_or(&0) as u32;
        for i in 0..4 {
            if i <= c.len() {
                s.push(A[(n >> (18 - 6 * i) & 63) as usize] as char);
            } else {
                s.push('=');
            }
        }
    }
    s
}

fn cmd_run(args: &[String]) -> Result<ExitCode, String> {
    use eoslab_core::model::scenario;
    let mut json = false;
    let mut leader_log = false;
    let mut path = None;
    let mut tv = None;
    let mut kafka = None;
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "--json" => json = true,
            "--leader-log" => leader_log = true,
            "--transaction-version" => {
                tv = Some(
                    it.next()
                        .and_then(|v| v.parse::<u8>().ok())
                        .filter(|v| *v <= 2)
                        .ok_or_else(|| format!("--transaction-version takes 0, 1 or 2\n{USAGE}"))?,
                )
            }
            "--kafka" => {
                kafka = Some(
                    it.next()
                        .and_then(|v| eoslab_core::model::line::KafkaLine::parse(v))
                        .ok_or_else(|| format!("--kafka takes 4.1, 4.3 or trunk\n{USAGE}"))?,
                )
            }
            s if s.starts_with("--") => return Err(format!("unknown option {s}\n{USAGE}")),
            s => path = Some(s),
        }
    }
    let text = read_input(path)?;
    let text = String::from_utf8(text).map_err(|_| "a scenario is UTF-8 text".to_string())?;
    if eoslab_core::model::txn_scenario::is_transactions(&text) {
        return run_transactions(&text, path, json, tv, kafka);
    }
    if tv.is_some() || kafka.is_some() {
        return Err(String::from("--transaction-version and --kafka apply to `model transactions` scripts"));
    }
    let sc = match text.trim_start().starts_with('{') {
        true => serde_json::from_str(&text).map_err(|e| format!("bad scenario JSON: {e}"))?,
        false => scenario::parse(&text).map_err(|e| format!("{}: {e}", path.unwrap_or("-")))?,
    };
    if leader_log {
        let run = scenario::run_logged(&sc);
        println!("{}", serde_json::to_string(&leader_log_json(&run)).map_err(|e| e.to_string())?);
        return Ok(if run.passed() { ExitCode::SUCCESS } else { ExitCode::from(1) });
    }
    let run = scenario::run(&sc);
    if json {
        let report = eoslab_core::model::report::run_report(&run);
        println!("{}", serde_json::to_string(&report).map_err(|e| e.to_string())?);
    } else {
        print!("{}", scenario::ladder(&run));
        let n = run.steps.iter().filter(|s| s.text.starts_with("expect")).count();
        println!("{} expectation(s): {} passed, {} failed", n, n - run.failures.len(), run.failures.len());
    }
    Ok(if run.passed() { ExitCode::SUCCESS } else { ExitCode::from(1) })
}

/// `eoslab run --leader-log`: what reached each partition leader, in order (the exact batch
/// bytes, the decision, the rule), every producer-state expiration check, and each
/// partition's final log and producer state: what `tests/kafka/idempotence.py` replays
/// against a real broker and compares.
fn leader_log_json(run: &eoslab_core::model::scenario::Run) -> serde_json::Value {
    use eoslab_core::model::idempotence::LeaderEvent;
    use eoslab_core::model::partition::Outcome;
    use serde_json::json;
    let hex = eoslab_core::report::to_hex;
    let sim = &run.sim;
    let line_of = |event: usize| run.steps.iter().rev().find(|s| s.events.contains(&event)).map(|s| s.line);
    let events: Vec<serde_json::Value> = sim
        .leader_log
        .as_deref()
        .unwrap_or(&[])
        .iter()
        .map(|e| match e {
            LeaderEvent::Produce { event, partition, bytes, verdict } => {
                let (outcome, offsets) = match verdict.outcome() {
                    Outcome::Appended { base_offset, last_offset } => ("append", Some((base_offset, last_offset))),
                    Outcome::Duplicate { base_offset, last_offset } => ("duplicate", Some((base_offset, last_offset))),
                    Outcome::Rejected(_) => ("rejected", None),
                };
                json!({
                    "kind": "produce", "line": line_of(*event), "partition": sim.partitions[*partition].name,
                    "bytes": hex(bytes), "outcome": outcome, "errorCode": verdict.error().0,
                    "errorName": verdict.error().name(), "baseOffset": offsets.map(|o| o.0),
                    "lastOffset": offsets.map(|o| o.1), "rule": verdict.rule(),
                    "why": verdict.decision(&sim.partitions[*partition].name).why,
                })
            }
            LeaderEvent::ExpirationCheck { event, now_ms } => json!({"kind": "expiration-check", "line": line_of(*event), "nowMs": now_ms}),
            LeaderEvent::Marker { event, partition, producer_id, epoch, commit, coordinator_epoch, version, verdict } => {
                let offset = match verdict.outcome() {
                    Outcome::Appended { base_offset, .. } => Some(base_offset),
                    _ => None,
                };
                json!({
                    "kind": "marker", "line": line_of(*event), "partition": sim.partitions[*partition].name,
                    "producerId": producer_id, "epoch": epoch, "commit": commit, "coordinatorEpoch": coordinator_epoch,
                    "transactionVersion": if matches!(version, eoslab_core::model::partition::MarkerVersion::Tv2) { 2 } else { 1 },
                    "outcome": if offset.is_some() { "append" } else { "rejected" }, "errorCode": verdict.error().0,
                    "errorName": verdict.error().name(), "baseOffset": offset, "rule": verdict.rule(),
                    "why": verdict.why(&sim.partitions[*partition].name),
                })
            }
        })
        .collect();
    let partitions: Vec<serde_json::Value> = sim
        .partitions
        .iter()
        .map(|p| {
            json!({
                "name": p.name, "logEndOffset": p.log_end_offset, "producerIdExpirationMs": p.producer_id_expiration_ms,
                "lastStableOffset": p.last_stable_offset(),
                "abortedTransactions": p.aborted_txns.iter().map(|a| json!({
                    "producerId": a.producer_id, "firstOffset": a.first_offset, "lastOffset": a.last_offset,
                    "lastStableOffset": a.last_stable_offset,
                })).collect::<Vec<_>>(),
                "log": p.log.iter().map(|e| json!({"baseOffset": e.base_offset, "bytes": hex(&e.bytes)})).collect::<Vec<_>>(),
                "producers": p.producers.iter().map(|(pid, s)| json!({
                    "producerId": pid, "producerEpoch": s.producer_epoch, "lastSequence": s.last_seq(),
                    "lastTimestamp": s.last_timestamp, "coordinatorEpoch": s.coordinator_epoch,
                    "currentTxnStartOffset": s.current_txn_first_offset.unwrap_or(-1),
                })).collect::<Vec<_>>(),
            })
        })
        .collect();
    json!({
        "passed": run.passed(), "error": run.error.as_ref().map(|e| e.to_string()),
        "failures": run.failures.len(), "nowMs": sim.now_ms, "events": events, "partitions": partitions,
    })
}

/// `eoslab schedule`: random schedules of the idempotence model as scripts (one JSON object
/// per line: `{"seed", "script"}`), reproducible from their seed; `--requests`: random
/// `produce`/`marker` request sequences instead of client-level walks.
fn cmd_schedule(args: &[String]) -> Result<ExitCode, String> {
    use eoslab_core::model::schedule::{random_request_script, random_script, ScheduleShape};
    let mut requests = false;
    let mut transactions = false;
    let mut exclude: Vec<String> = Vec::new();
    let mut seed = 0u64;
    let mut count = 1u64;
    let mut shape = ScheduleShape {
        steps: 25,
        producers: 2,
        partitions: 2,
        first_producer_id: 1000,
        start_ms: 1_700_000_000_000,
        producer_id_expiration_ms: 86_400_000,
    };
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let mut num = |name: &str| -> Result<i64, String> {
            it.next().and_then(|v| v.parse::<i64>().ok()).ok_or_else(|| format!("{name} takes a number\n{USAGE}"))
        };
        match a.as_str() {
            "--requests" => requests = true,
            "--transactions" => transactions = true,
            "--exclude" => exclude = it.next().ok_or("--exclude takes TEXT,TEXT… (lines containing any are left out)")?.split(',').map(String::from).collect(),
            "--seed" => seed = num("--seed")? as u64,
            "--count" => count = num("--count")?.max(1) as u64,
            "--steps" => shape.steps = num("--steps")?.clamp(0, 10_000) as usize,
            "--producers" => shape.producers = num("--producers")?.clamp(1, 16) as usize,
            "--partitions" => shape.partitions = num("--partitions")?.clamp(1, 16) as usize,
            "--first-producer-id" => shape.first_producer_id = num("--first-producer-id")?,
            "--time" => shape.start_ms = num("--time")?,
            "--producer-id-expiration-ms" => shape.producer_id_expiration_ms = num("--producer-id-expiration-ms")?,
            s => return Err(format!("unknown option {s}\n{USAGE}")),
        }
    }
    let first = shape.first_producer_id;
    for i in 0..count {
        // Producer ids never overlap between the schedules of one call (each schedule's
        // producers restart at most a few times): 100 ids each.
        shape.first_producer_id = first + 100 * i as i64;
        let s = seed + i;
        let script = if transactions && requests {
            eoslab_core::model::schedule::random_txn_request_script(s, shape.steps, None)
        } else if transactions {
            let ex: Vec<&str> = exclude.iter().map(String::as_str).collect();
            eoslab_core::model::schedule::random_txn_script(s, shape.steps, &ex, true)
        } else if requests {
            random_request_script(s, &shape)
        } else {
            random_script(s, &shape)
        };
        println!("{}", serde_json::json!({"seed": s, "firstProducerId": shape.first_producer_id, "script": script}));
    }
    Ok(ExitCode::SUCCESS)
}

/// `eoslab run` on a `model transactions` script: the text timeline, or `--json` (the
/// shape `runTxnScenario` returns); exit 1 when an `expect` fails or an invariant breaks.
fn run_transactions(text: &str, path: Option<&str>, json: bool, tv: Option<u8>, kafka: Option<eoslab_core::model::line::KafkaLine>) -> Result<ExitCode, String> {
    use eoslab_core::model::txn_scenario;
    let mut sc = txn_scenario::parse(text)
        .map_err(|e| eoslab_core::model::suggest::explain(e, text, eoslab_core::model::suggest::TXN_VERBS))
        .map_err(|e| format!("{}: {e}", path.unwrap_or("-")))?;
    if let Some(v) = tv {
        sc.transaction_version = v;
    }
    if let Some(k) = kafka {
        sc.kafka = k;
    }
    let run = txn_scenario::run(&sc, None, true);
    let broken = run.steps.iter().flat_map(|s| s.invariants.iter()).filter(|i| !i.1).count();
    if json {
        let report = eoslab_core::model::txn_report::txn_run_report(&run);
        println!("{}", serde_json::to_string(&report).map_err(|e| e.to_string())?);
    } else {
        print!("{}", txn_scenario::timeline_text(&run));
        let n = run.steps.iter().filter(|s| s.text.starts_with("expect")).count();
        println!("{} expectation(s): {} passed, {} failed", n, n - run.failures.len(), run.failures.len());
    }
    Ok(if run.passed() && broken == 0 { ExitCode::SUCCESS } else { ExitCode::from(1) })
}

/// `eoslab dump-log`: `kafka-dump-log` (DumpLogSegments) over the files named by `--files`.
/// Reads each file (and an index's sibling `.log` / `.index`) and prints the lines
/// `eoslab_core::files::dump` produces on the stream Kafka prints them on.
fn cmd_partition(args: &[String]) -> Result<ExitCode, String> {
    use eoslab_core::files::partition::{self, DirFile};
    if args.iter().any(|a| a == "--write-dir") {
        return write_partition_dirs(args);
    }
    let json = args.iter().any(|a| a == "--json");
    let script = args.iter().any(|a| a == "--script");
    if let Some(bad) = args.iter().find(|a| a.starts_with("--") && *a != "--json" && *a != "--script") {
        return Err(format!("unknown option {bad}\n{USAGE}"));
    }
    let mut paths = Vec::new();
    for a in args.iter().filter(|a| !a.starts_with("--")) {
        let p = std::path::Path::new(a);
        if p.is_dir() {
            let rd = std::fs::read_dir(p).map_err(|e| format!("{a}: {e}"))?;
            for e in rd {
                let e = e.map_err(|e| format!("{a}: {e}"))?;
                if e.path().is_file() {
                    paths.push(e.path());
                }
            }
        } else {
            paths.push(p.to_path_buf());
        }
    }
    if paths.is_empty() {
        return Err(format!("partition needs a directory or files\n{USAGE}"));
    }
    paths.sort();
    let mut files = Vec::new();
    for p in &paths {
        let bytes = std::fs::read(p).map_err(|e| format!("{}: {e}", p.display()))?;
        files.push((p.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default(), bytes));
    }
    let dir: Vec<DirFile<'_>> = files.iter().map(|(n, b)| DirFile { name: n, bytes: b }).collect();
    let p = partition::load(&dir);
    let mut out = std::io::stdout().lock();
    let text = if json {
        serde_json::to_string_pretty(&p).map_err(|e| e.to_string())? + "\n"
    } else if script {
        let from = args.iter().find(|a| !a.starts_with("--")).map_or("", String::as_str);
        partition::simulator_script(&p, &format!("Continue from the partition in {from}"))
    } else {
        partition::render(&p)
    };
    out.write_all(text.as_bytes()).map_err(|e| e.to_string())?;
    let clean = p.errors.is_empty() && p.checks.iter().all(|c| c.ok);
    Ok(if clean { ExitCode::SUCCESS } else { ExitCode::from(1) })
}

/// `eoslab partition --write-dir DIR --script SCENARIO.eos`: runs the idempotence-model script and
/// writes each partition's leader as the directory a Kafka 4.3 broker would leave
/// (`DIR/<partition>/`: files::layout), then prints each file written with its size. Exit 1 when
/// the script's own expectations fail (the files are written all the same).
fn write_partition_dirs(args: &[String]) -> Result<ExitCode, String> {
    use eoslab_core::files::layout::{lab_topic_id, partition_dir, LayoutOptions, DEFAULT_INDEX_INTERVAL_BYTES};
    use eoslab_core::model::scenario;
    let (mut dir, mut script, mut interval) = (None, None, DEFAULT_INDEX_INTERVAL_BYTES);
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "--write-dir" => dir = Some(it.next().ok_or_else(|| format!("--write-dir takes a directory\n{USAGE}"))?),
            "--script" => script = Some(it.next().ok_or_else(|| format!("--script takes a scenario file\n{USAGE}"))?),
            "--index-interval-bytes" => {
                interval = it
                    .next()
                    .and_then(|v| v.parse::<i32>().ok())
                    .filter(|v| *v >= 0)
                    .ok_or_else(|| format!("--index-interval-bytes takes a number ≥ 0 (the topic's index.interval.bytes)\n{USAGE}"))?
            }
            s => return Err(format!("unknown argument {s} with --write-dir\n{USAGE}")),
        }
    }
    let (Some(dir), Some(path)) = (dir, script) else {
        return Err(format!("--write-dir needs --script SCENARIO.eos\n{USAGE}"));
    };
    let text = String::from_utf8(read_input(Some(path))?).map_err(|_| "a scenario is UTF-8 text".to_string())?;
    if eoslab_core::model::txn_scenario::is_transactions(&text) {
        return Err(format!("{path}: a `model transactions` script; --write-dir takes an idempotence-model script (produce/marker requests to a leader)"));
    }
    let sc = scenario::parse(&text).map_err(|e| format!("{path}: {e}"))?;
    let run = scenario::run(&sc);
    if let Some(e) = &run.error {
        return Err(format!("{path}: {e}"));
    }
    let mut out = std::io::stdout().lock();
    for p in &run.sim.partitions {
        let files = partition_dir(p, &LayoutOptions { index_interval_bytes: interval, topic_id: lab_topic_id(&p.name) })?;
        let to = std::path::Path::new(dir).join(&p.name);
        std::fs::create_dir_all(&to).map_err(|e| format!("{}: {e}", to.display()))?;
        for (name, bytes) in &files {
            let f = to.join(name);
            std::fs::write(&f, bytes).map_err(|e| format!("{}: {e}", f.display()))?;
            writeln!(out, "{} ({} bytes)", f.display(), bytes.len()).map_err(|e| e.to_string())?;
        }
    }
    Ok(if run.passed() { ExitCode::SUCCESS } else { ExitCode::from(1) })
}

fn cmd_dump_log(args: &[String]) -> Result<ExitCode, String> {
    use eoslab_core::files::dump::{DumpInput, DumpLog, DumpOptions, Stream};
    use eoslab_core::files::FileKind;
    use eoslab_core::internal::InternalTopic;
    let mut opts = DumpOptions::default();
    let mut files: Option<String> = None;
    let mut it = args.iter();
    let num = |name: &str, v: Option<&String>| -> Result<i32, String> {
        v.and_then(|v| v.parse::<i32>().ok())
            .ok_or_else(|| format!("{name} takes a number (an int)\n{USAGE}"))
    };
    while let Some(a) = it.next() {
        let (a, inline) = match a.split_once('=') {
            Some((k, v)) if k.starts_with("--") => (k, Some(v.to_string())),
            _ => (a.as_str(), None),
        };
        let value =
            |it: &mut std::slice::Iter<String>| inline.clone().or_else(|| it.next().cloned());
        match a {
            "--files" => {
                files = Some(value(&mut it).ok_or("--files needs a comma separated list of files")?)
            }
            "--print-data-log" => opts.print_data_log = true,
            "--deep-iteration" => opts.deep_iteration = true,
            "--transaction-log-decoder" => opts.decoder = Some(InternalTopic::TransactionState),
            "--offsets-decoder" => opts.decoder = Some(InternalTopic::ConsumerOffsets),
            "--index-sanity-check" => opts.index_sanity_check = true,
            "--verify-index-only" => opts.verify_index_only = true,
            "--skip-record-metadata" => opts.skip_record_metadata = true,
            "--max-bytes" => opts.max_bytes = num("--max-bytes", value(&mut it).as_ref())?,
            "--max-message-size" => {
                opts.max_message_size = num("--max-message-size", value(&mut it).as_ref())?
            }
            s => return Err(format!("unknown option {s}\n{USAGE}")),
        }
    }
    // Kafka: `offsetsOpt` is checked first when both decoders are given.
    if args.iter().any(|a| a == "--offsets-decoder") {
        opts.decoder = Some(InternalTopic::ConsumerOffsets);
    }
    let files = files.ok_or_else(|| format!("Missing required argument \"[files]\"\n{USAGE}"))?;
    let mut dump = DumpLog::new(opts);
    let stdout = std::io::stdout();
    let stderr = std::io::stderr();
    let mut out = std::io::BufWriter::new(stdout.lock());
    let read = |p: &std::path::Path| {
        std::fs::read(p).map_err(|e| match e.kind() {
            std::io::ErrorKind::NotFound => p.display().to_string(),
            _ => format!("{}: {e}", p.display()),
        })
    };
    for f in files.split(',') {
        let path = std::path::Path::new(f);
        let absolute = std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf());
        let absolute = absolute.display().to_string();
        let kind = FileKind::of(f);
        let bytes = match kind {
            FileKind::Unknown | FileKind::LeaderEpochCheckpoint | FileKind::PartitionMetadata => {
                Ok(Vec::new())
            }
            _ => read(path),
        };
        // Siblings by absolute path, as DumpLogSegments opens them.
        let sibling = |ext: &str| {
            read(std::path::Path::new(&eoslab_core::files::dump::sibling_path(&absolute, ext)))
        };
        let (log, index) = match kind {
            FileKind::Index => (Some(sibling("log")), None),
            FileKind::TimeIndex => (Some(sibling("log")), Some(sibling("index"))),
            _ => (None, None),
        };
        dump.dump(&DumpInput {
            path: f,
            absolute_path: &absolute,
            bytes: bytes.as_deref().map_err(Clone::clone),
            log: contents(&log),
            index: contents(&index),
        });
        for (s, l) in dump.take_lines() {
            emit(&mut out, &stderr, s, &l);
        }
        if dump.failed().is_some() {
            break;
        }
    }
    dump.finish();
    for (s, l) in dump.take_lines() {
        emit(&mut out, &stderr, s, &l);
    }
    out.flush().ok();
    if let Some(f) = dump.failed() {
        eprintln!(
            "eoslab: {} at byte {} of {}",
            f.error.kind, f.error.at, f.path
        );
        return Ok(ExitCode::from(1));
    }
    fn contents(c: &Option<Result<Vec<u8>, String>>) -> Option<Result<&[u8], String>> {
        c.as_ref().map(|r| r.as_deref().map_err(Clone::clone))
    }
    fn emit(out: &mut impl Write, err: &std::io::Stderr, s: Stream, l: &str) {
        match s {
            Stream::Out => {
                writeln!(out, "{l}").ok();
            }
            Stream::Err => {
                out.flush().ok();
                writeln!(err.lock(), "{l}").ok();
            }
        }
    }
    Ok(ExitCode::SUCCESS)
}
