//! `eoslab capture FILE [--json] [--api NAME[,NAME…]] [--transactional-id ID] [--producer-id N]
//! [--partition TOPIC-N]`: a packet capture (pcap or pcapng) as the Kafka conversations it holds,
//! exchange by exchange (eoslab_core::capture), optionally only the exchanges a filter keeps.

use super::*;
use eoslab_core::capture::replay::{self, Check, Verdict};
use eoslab_core::capture::{read_capture, CaptureReport, Exchange};

/// What `capture` prints: the exchanges, the replay script, or the conformance check.
enum Mode {
    Exchanges,
    Script,
    Check,
}

/// The check as text: one line per judged exchange (capture order), then the counts per API.
fn render_check(rep: &CaptureReport, check: &Check) -> String {
    let mut s = String::new();
    for j in &check.verdicts {
        let e = &rep.exchanges[j.exchange];
        let head = format!("connection {} {} v{} correlation id {}", e.connection, j.api, e.api_version, e.correlation_id);
        let line = match &j.verdict {
            Verdict::Agrees { rule, .. } => format!("agrees        {head}{}", if rule.is_empty() { String::new() } else { format!(" ({rule})") }),
            Verdict::Differs { field, captured, simulated, rule, source } => {
                format!("DIFFERS       {head}: {field}: Kafka's broker answered {captured}, the simulator {simulated}; rule {rule} ({source})")
            }
            Verdict::CannotJudge { why } => format!("cannot judge  {head}: {why}"),
        };
        s.push_str(&line);
        s.push('\n');
    }
    if let Some(e) = &check.error {
        s.push_str(&format!("\nthe replay stopped: {e}\n"));
    }
    let mut apis: Vec<&str> = check.verdicts.iter().map(|j| j.api.as_str()).collect();
    apis.sort_unstable();
    apis.dedup();
    s.push_str("\nper API: agrees / differs / cannot judge\n");
    for api in apis {
        let (a, d, c) = check.counts(Some(api));
        s.push_str(&format!("  {api:<20} {a:>5} {d:>5} {c:>5}\n"));
    }
    let (a, d, c) = check.counts(None);
    s.push_str(&format!("{a} agree, {d} differ, {c} cannot be judged\n"));
    s
}

pub(crate) fn cmd_capture(args: &[String]) -> Result<ExitCode, String> {
    let mut json = false;
    let mut mode = Mode::Exchanges;
    let mut kafka: Option<String> = None;
    let mut path = None;
    let mut filter = Filter::default();
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let mut value = |name: &str| it.next().cloned().ok_or_else(|| format!("{name} needs a value\n{USAGE}"));
        match a.as_str() {
            "--json" => json = true,
            "--script" => mode = Mode::Script,
            "--check" => mode = Mode::Check,
            "--kafka" => {
                let k = value("--kafka")?;
                if !["4.1", "4.3", "trunk"].contains(&k.as_str()) {
                    return Err(format!("--kafka takes 4.1, 4.3 or trunk\n{USAGE}"));
                }
                kafka = Some(k);
            }
            "--api" => filter.apis = value("--api")?.split(',').map(|s| s.trim().to_ascii_lowercase()).filter(|s| !s.is_empty()).collect(),
            "--transactional-id" => filter.transactional_id = Some(value("--transactional-id")?),
            "--producer-id" => filter.producer_id = Some(value("--producer-id")?.parse().map_err(|_| "--producer-id needs a number".to_string())?),
            "--partition" => filter.partition = Some(value("--partition")?),
            s if s.starts_with("--") => return Err(format!("unknown option {s}\n{USAGE}")),
            s => path = Some(s),
        }
    }
    let path = path.ok_or_else(|| format!("capture needs a .pcap or .pcapng file\n{USAGE}"))?;
    let bytes = read_input(Some(path))?;
    let mut rep = read_capture(&bytes);
    let name = std::path::Path::new(path).file_name().map_or_else(|| path.to_string(), |n| n.to_string_lossy().into_owned());
    match mode {
        Mode::Exchanges => {}
        Mode::Script => {
            print!("{}", replay::replay(&rep, &name, kafka.as_deref()).script);
            return Ok(ExitCode::SUCCESS);
        }
        Mode::Check => {
            let check = replay::check(&rep, &name, kafka.as_deref());
            let keep: Vec<usize> = (0..rep.exchanges.len()).filter(|&i| filter.keeps(&rep.exchanges[i])).collect();
            let check = replay::Check { verdicts: check.verdicts.into_iter().filter(|j| keep.contains(&j.exchange)).collect(), ..check };
            if json {
                println!("{}", serde_json::to_string(&check).map_err(|e| e.to_string())?);
            } else {
                print!("{}", render_check(&rep, &check));
            }
            return Ok(if check.counts(None).1 > 0 || check.error.is_some() { ExitCode::from(1) } else { ExitCode::SUCCESS });
        }
    }
    rep.exchanges.retain(|e| filter.keeps(e));
    if json {
        println!("{}", serde_json::to_string(&rep).map_err(|e| e.to_string())?);
    } else {
        print!("{}", render(&rep, filter.active()));
    }
    Ok(if rep.has_errors() { ExitCode::from(1) } else { ExitCode::SUCCESS })
}

/// Which exchanges to show: each given criterion must hold (`apis`: any of these api names,
/// lowercased, e.g. `endtxn`).
#[derive(Default)]
struct Filter {
    apis: Vec<String>,
    transactional_id: Option<String>,
    producer_id: Option<i64>,
    partition: Option<String>,
}

impl Filter {
    fn active(&self) -> bool {
        !self.apis.is_empty() || self.transactional_id.is_some() || self.producer_id.is_some() || self.partition.is_some()
    }

    fn keeps(&self, e: &Exchange) -> bool {
        let api = e.api_name.unwrap_or("").to_ascii_lowercase();
        (self.apis.is_empty() || self.apis.contains(&api)) && e.about.matches(self.transactional_id.as_deref(), self.producer_id, self.partition.as_deref())
    }
}

/// What an exchange is about, as text: `  [transactional.id "t", producer id 7, orders-0]`.
fn about(e: &Exchange) -> String {
    let a = &e.about;
    let parts: Vec<String> = a
        .transactional_ids
        .iter()
        .map(|t| format!("transactional.id {t:?}"))
        .chain(a.producer_ids.iter().map(|p| format!("producer id {p}")))
        .chain(a.partitions.iter().cloned())
        .collect();
    if parts.is_empty() { String::new() } else { format!("  [{}]", parts.join(", ")) }
}

/// The capture as text: a summary, then each Kafka connection's exchanges in order with their
/// capture time (from the first packet), the response's errors and its latency; then the problems.
pub(crate) fn render(rep: &CaptureReport, filtered: bool) -> String {
    let mut s = format!(
        "Capture: {} ({} bytes), {} packet(s), link type(s) {}; {} TCP connection(s), {} carrying Kafka\n",
        if rep.format.is_empty() { "unreadable" } else { &rep.format },
        rep.length,
        rep.packets,
        if rep.link_types.is_empty() { "none".to_string() } else { rep.link_types.join(", ") },
        rep.tcp_connections,
        rep.connections.len()
    );
    let t0 = rep.exchanges.iter().filter_map(|e| e.request.as_ref().or(e.response.as_ref())).map(|s| s.time_us).min().unwrap_or(0);
    for c in &rep.connections {
        let mine: Vec<&Exchange> = rep.exchanges.iter().filter(|e| e.connection == c.index).collect();
        if filtered && mine.is_empty() {
            continue;
        }
        s.push_str(&format!(
            "\nconnection {}: {} → {} (Kafka by {}{}), {} exchange(s)\n",
            c.index,
            c.client,
            c.broker,
            c.found_by,
            if c.saw_open { "" } else { "; opened before the capture" },
            mine.len()
        ));
        for e in mine {
            let at = e.request.as_ref().or(e.response.as_ref()).map_or(0, |x| x.time_us) - t0;
            let answer = match &e.response {
                None => "(no response in the capture)".to_string(),
                Some(r) => {
                    let errors = if e.errors.is_empty() { "NONE".to_string() } else { e.errors.iter().map(|(n, k)| if *k > 1 { format!("{n} ×{k}") } else { n.clone() }).collect::<Vec<_>>().join(", ") };
                    let latency = e.request.as_ref().map(|q| format!(" after {:.3} ms", (r.time_us - q.time_us) as f64 / 1000.0)).unwrap_or_default();
                    format!("→ {errors}{latency}")
                }
            };
            s.push_str(&format!(
                "  +{:>10.6}s  {} v{}  correlation id {}{}  {}{}\n",
                at as f64 / 1e6,
                e.api_name.unwrap_or("?"),
                e.api_version,
                e.correlation_id,
                e.client_id.as_deref().map(|c| format!("  client {c:?}")).unwrap_or_default(),
                answer,
                about(e)
            ));
        }
    }
    if !rep.problems.is_empty() {
        s.push_str("\nproblems:\n");
        for p in &rep.problems {
            let mut r#where = Vec::new();
            if let Some(a) = p.at {
                r#where.push(format!("file byte {a}"));
            }
            if let Some(n) = p.packet {
                r#where.push(format!("packet {n}"));
            }
            if let Some(c) = p.connection {
                r#where.push(format!("connection {c}"));
            }
            let sev = match p.severity {
                Severity::Error => "error",
                Severity::Warning => "warning",
                Severity::Info => "info",
            };
            s.push_str(&format!("  {sev}: {}{}\n", if r#where.is_empty() { String::new() } else { format!("{}: ", r#where.join(", ")) }, p.message));
        }
    }
    let answered = rep.exchanges.iter().filter(|e| e.response.is_some()).count();
    let kept = if filtered { " kept by the filter" } else { "" };
    s.push_str(&format!("\n{} exchange(s){kept}, {} answered; {} problem(s)\n", rep.exchanges.len(), answered, rep.problems.len()));
    s
}
