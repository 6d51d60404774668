//! `eoslab run` and `eoslab schedule`: scenarios of both script languages, run or generated.

use super::*;

pub(crate) fn cmd_run(args: &[String]) -> Result<ExitCode, String> {
    use eoslab_core::model::scenario;
    let mut json = false;
    let mut leader_log = false;
    let mut timeline = false;
    let mut path = None;
    let mut tv = None;
    let mut kafka = None;
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "--json" => json = true,
            "--leader-log" => leader_log = true,
            "--timeline" => timeline = true,
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
    let twin: Option<serde_json::Value> = match text.trim_start().starts_with('{') {
        true => Some(serde_json::from_str(&text).map_err(|e| format!("bad scenario JSON: {e}"))?),
        false => None,
    };
    if let Some(v) = twin.as_ref().filter(|v| v.get("model").and_then(|m| m.as_str()) == Some("transactions")) {
        let sc = serde_json::from_value(v.clone()).map_err(|e| format!("bad transactions scenario JSON: {e}"))?;
        return run_transactions_scenario(sc, json, tv, kafka);
    }
    if tv.is_some() || kafka.is_some() {
        return Err(String::from("--transaction-version and --kafka apply to `model transactions` scripts"));
    }
    let sc = match twin {
        Some(v) => serde_json::from_value(v).map_err(|e| format!("bad scenario JSON: {e}"))?,
        None => scenario::parse(&text).map_err(|e| format!("{}: {e}", path.unwrap_or("-")))?,
    };
    if timeline {
        // The run as the timeline draws it (the shape `runTxnScenario` returns for this script).
        let run = eoslab_core::model::txn_scenario::run_idempotence(&sc);
        print_timeline(&run, json)?;
        return Ok(if run.passed() { ExitCode::SUCCESS } else { ExitCode::from(1) });
    }
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
                    "kind": "produce", "line": line_of(*event), "partition": sim.cluster.partitions[*partition].name,
                    "bytes": hex(bytes), "outcome": outcome, "errorCode": verdict.error().0,
                    "errorName": verdict.error().name(), "baseOffset": offsets.map(|o| o.0),
                    "lastOffset": offsets.map(|o| o.1), "rule": verdict.rule(),
                    "why": verdict.decision(&sim.cluster.partitions[*partition].name).why,
                })
            }
            LeaderEvent::ExpirationCheck { event, now_ms } => json!({"kind": "expiration-check", "line": line_of(*event), "nowMs": now_ms}),
            LeaderEvent::Marker { event, partition, producer_id, epoch, commit, coordinator_epoch, version, verdict } => {
                let offset = match verdict.outcome() {
                    Outcome::Appended { base_offset, .. } => Some(base_offset),
                    _ => None,
                };
                json!({
                    "kind": "marker", "line": line_of(*event), "partition": sim.cluster.partitions[*partition].name,
                    "producerId": producer_id, "epoch": epoch, "commit": commit, "coordinatorEpoch": coordinator_epoch,
                    "transactionVersion": if matches!(version, eoslab_core::model::partition::MarkerVersion::Tv2) { 2 } else { 1 },
                    "outcome": if offset.is_some() { "append" } else { "rejected" }, "errorCode": verdict.error().0,
                    "errorName": verdict.error().name(), "baseOffset": offset, "rule": verdict.rule(),
                    "why": verdict.why(&sim.cluster.partitions[*partition].name),
                })
            }
        })
        .collect();
    let partitions: Vec<serde_json::Value> = sim
        .cluster.partitions
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
        "failures": run.failures.len(), "nowMs": sim.cluster.now_ms, "events": events, "partitions": partitions,
    })
}

/// `eoslab schedule`: random schedules of the idempotence model as scripts (one JSON object
/// per line: `{"seed", "script"}`), reproducible from their seed; `--requests`: random
/// `produce`/`marker` request sequences instead of client-level walks.
pub(crate) fn cmd_schedule(args: &[String]) -> Result<ExitCode, String> {
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
pub(crate) fn run_transactions(text: &str, path: Option<&str>, json: bool, tv: Option<u8>, kafka: Option<eoslab_core::model::line::KafkaLine>) -> Result<ExitCode, String> {
    use eoslab_core::model::txn_scenario;
    let sc = txn_scenario::parse(text)
        .map_err(|e| eoslab_core::model::suggest::explain(e, text, eoslab_core::model::suggest::TXN_VERBS))
        .map_err(|e| format!("{}: {e}", path.unwrap_or("-")))?;
    run_transactions_scenario(sc, json, tv, kafka)
}

/// A transactions scenario (parsed, or read from its JSON twin) run and printed as the timeline.
fn run_transactions_scenario(mut sc: eoslab_core::model::txn_scenario::TxnScenario, json: bool, tv: Option<u8>, kafka: Option<eoslab_core::model::line::KafkaLine>) -> Result<ExitCode, String> {
    use eoslab_core::model::txn_scenario;
    if let Some(v) = tv {
        sc.transaction_version = v;
    }
    if let Some(k) = kafka {
        sc.kafka = k;
    }
    let run = txn_scenario::run(&sc, None, true);
    let broken = run.steps.iter().flat_map(|s| s.invariants.iter()).filter(|i| !i.1).count();
    print_timeline(&run, json)?;
    Ok(if run.passed() && broken == 0 { ExitCode::SUCCESS } else { ExitCode::from(1) })
}

/// A run as the timeline has it: `--json` (the shape `runTxnScenario` returns), or the text
/// timeline and the count of expectations.
fn print_timeline(run: &eoslab_core::model::txn_scenario::TxnRun, json: bool) -> Result<(), String> {
    if json {
        let report = eoslab_core::model::txn_report::txn_run_report(run);
        println!("{}", serde_json::to_string(&report).map_err(|e| e.to_string())?);
    } else {
        print!("{}", eoslab_core::model::txn_scenario::timeline_text(run));
        let n = run.steps.iter().filter(|s| s.text.starts_with("expect")).count();
        println!("{} expectation(s): {} passed, {} failed", n, n - run.failures.len(), run.failures.len());
    }
    Ok(())
}

/// `eoslab twin SCENARIO.eos`: the script's JSON twin (the value its parser returns, serialized;
/// a transactions script's has `"model": "transactions"`), which `eoslab run`, `runScenario` and
/// `runTxnScenario` take as they take the text.
pub(crate) fn cmd_twin(args: &[String]) -> Result<ExitCode, String> {
    use eoslab_core::model::{scenario, txn_scenario};
    let path = match args {
        [] => None,
        [p] if !p.starts_with("--") || p == "-" => Some(p.as_str()),
        _ => return Err(format!("eoslab twin takes one scenario file\n{USAGE}")),
    };
    let text = read_input(path)?;
    let text = String::from_utf8(text).map_err(|_| "a scenario is UTF-8 text".to_string())?;
    let out = if txn_scenario::is_transactions(&text) {
        let sc = txn_scenario::parse(&text)
            .map_err(|e| eoslab_core::model::suggest::explain(e, &text, eoslab_core::model::suggest::TXN_VERBS))
            .map_err(|e| format!("{}: {e}", path.unwrap_or("-")))?;
        serde_json::to_string(&sc)
    } else {
        serde_json::to_string(&scenario::parse(&text).map_err(|e| format!("{}: {e}", path.unwrap_or("-")))?)
    };
    println!("{}", out.map_err(|e| e.to_string())?);
    Ok(ExitCode::SUCCESS)
}
