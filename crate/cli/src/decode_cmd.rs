//! `eoslab decode`: batches, segments, requests and responses as a listing, or the report as JSON.

use super::*;

pub(crate) fn cmd_decode(args: &[String]) -> Result<ExitCode, String> {
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
    // Detection: batches unless they are broken or absent and the same bytes read as messages
    // whose first is plausible (`plausible_message`): cleanly, or, when no batch framed at all,
    // with errors (the more plausible reading, shown with them). Bytes that read only as
    // messages of versions Kafka removed (zeros read as Produce v0 requests) are not taken for
    // messages here; `--messages` reads them.
    let mut mreport = match &report {
        None => Some(message::decode_messages(&input, &MessageOptions { records: opts.clone(), ..mopts })),
        Some(r) if messages.is_none() && (!r.is_clean() || r.batches.is_empty()) && r.length > 0 => {
            let m = message::decode_messages(&input, &MessageOptions { records: opts.clone(), ..mopts });
            if plausible_message(&m) && ((m.is_clean() && !m.messages.is_empty()) || r.batches.is_empty()) {
                Some(m)
            } else {
                let summary = nothing_recognised(r, Some(&m));
                let mut r = report.clone().unwrap_or_default();
                if let Some(text) = summary {
                    r.errors.insert(0, unrecognised_issue(text));
                }
                return print_report(&mut out, r, json);
            }
        }
        Some(_) => None,
    };
    if let (Some(m), Some(r)) = (&mut mreport, &report) {
        // Messages shown in place of batches that did not frame: when no message read cleanly
        // either, nothing was recognised; the batch reading's failure is said too.
        let mut failed = vec![false; m.messages.len()];
        for e in m.errors.iter().filter(|e| e.severity == Severity::Error) {
            if let Some(f) = e.index.and_then(|i| failed.get_mut(i)) {
                *f = true;
            }
        }
        if failed.iter().all(|f| *f) {
            if let Some(text) = nothing_recognised(r, Some(m)) {
                m.errors.insert(0, message::MessageIssue { at: 0, kind: message::kind::INVALID_INPUT, message: text, severity: Severity::Error, field: None, index: None });
            }
        }
    }
    let clean = if let Some(m) = mreport {
        if json {
            serde_json::to_writer(&mut out, &m).map_err(|e| e.to_string())?;
            writeln!(out).ok();
        } else {
            write_messages(&mut out, &m).map_err(|e| e.to_string())?;
        }
        m.is_clean()
    } else {
        let mut report = report.unwrap_or_default();
        if let Some(text) = nothing_recognised(&report, None) {
            report.errors.insert(0, unrecognised_issue(text));
        }
        return print_report(&mut out, report, json);
    };
    out.flush().ok();
    Ok(if clean { ExitCode::SUCCESS } else { ExitCode::from(1) })
}

/// The first message's reading is worth showing over batches that did not frame: its size
/// prefix frames exactly the input, or its header names an api and a version Kafka 4.3 reads.
fn plausible_message(m: &eoslab_core::message::MessagesReport) -> bool {
    use eoslab_core::message::schema;
    m.messages.first().is_some_and(|x| {
        let exact = x.size.is_some_and(|n| n as i64 + 4 == m.length as i64);
        let kind = if x.kind == "request" { schema::Kind::Request } else { schema::Kind::Response };
        let known = schema::find(x.api_key, kind).is_some_and(|d| d.valid.contains(x.api_version));
        exact || known
    })
}

fn print_report(out: &mut impl Write, report: Report, json: bool) -> Result<ExitCode, String> {
    if json {
        serde_json::to_writer(&mut *out, &report).map_err(|e| e.to_string())?;
        writeln!(out).ok();
    } else {
        write_listing(out, &report).map_err(|e| e.to_string())?;
    }
    out.flush().ok();
    Ok(if report.is_clean() { ExitCode::SUCCESS } else { ExitCode::from(1) })
}

fn unrecognised_issue(message: String) -> eoslab_core::report::Issue {
    eoslab_core::report::Issue {
        at: 0,
        kind: eoslab_core::report::kind::INVALID_INPUT,
        message,
        severity: Severity::Error,
        batch: None,
        decompressed_at: None,
    }
}

/// When bytes were given and no batch framed (nor, if tried, any message read cleanly): what
/// each reading tried and where and why it failed, as one error. `None` when something was
/// recognised, when the input is empty (an empty segment is a valid file) or when the text
/// itself could not be read (that error says why already).
fn nothing_recognised(r: &Report, m: Option<&eoslab_core::message::MessagesReport>) -> Option<String> {
    if !r.batches.is_empty() || r.length == 0 || r.errors.iter().any(|e| e.kind == eoslab_core::report::kind::INVALID_INPUT) {
        return None;
    }
    let first = |at: usize, kind: &str, msg: &str| format!("at byte {at} {kind}: {msg}");
    let batches = r
        .errors
        .iter()
        .find(|e| e.severity == Severity::Error)
        .or(r.errors.first())
        .map_or_else(|| String::from("no entry"), |e| first(e.at, e.kind, &e.message));
    let mut text = format!("nothing recognised in {} byte(s): as record batches (a .log segment or a records field) {batches}", r.length);
    if let Some(m) = m {
        let why = m
            .errors
            .iter()
            .find(|e| e.severity == Severity::Error)
            .map_or_else(|| String::from("no message"), |e| first(e.at, e.kind, &e.message));
        text.push_str(&format!("; as requests or responses {why}"));
    }
    Some(text)
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
    // Each message's issues, gathered in one pass (not one pass per message: a stream of many
    // small messages would make that quadratic).
    let mut by_message: Vec<Vec<&eoslab_core::message::MessageIssue>> = vec![Vec::new(); r.messages.len()];
    for e in &r.errors {
        if let Some(list) = e.index.and_then(|i| by_message.get_mut(i)) {
            list.push(e);
        }
    }
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
        for e in &by_message[i] {
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
    // Every issue is printed: those of no batch (the text reading) first, each batch's under
    // it, and those pinned on the entry where the walk stopped (an index past the last listed
    // batch: the bytes there framed no batch) after the batches.
    for e in r.errors.iter().filter(|e| e.batch.is_none()) {
        write_issue(out, e)?;
    }
    for (i, b) in r.batches.iter().enumerate() {
        write_batch(out, b)?;
        for e in r.errors.iter().filter(|e| e.batch == Some(i)) {
            write_issue(out, e)?;
        }
    }
    for e in r.errors.iter().filter(|e| e.batch.is_some_and(|i| i >= r.batches.len())) {
        write_issue(out, e)?;
    }
    writeln!(out, "{} batch(es), {} error(s)", r.batches.len(), r.errors.iter().filter(|e| e.severity == Severity::Error).count())
}

/// `! error at byte N Kind: message`, with the decompressed offset for a fault inside a
/// compressed batch's records.
fn write_issue(out: &mut impl Write, e: &eoslab_core::report::Issue) -> std::io::Result<()> {
    write!(out, "! {} at byte {}", severity_word(e.severity), e.at)?;
    if let Some(d) = e.decompressed_at {
        write!(out, " (decompressed byte {d})")?;
    }
    writeln!(out, " {}: {}", e.kind, e.message)
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
