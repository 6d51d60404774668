//! The models' JS API: scenario runs (the ladders) and the producer-config resolver.
//! Conversion only; the decisions are in `eoslab_core::model`.

use eoslab_core::model::config::{resolve, ClientLine, UserConfig};
use eoslab_core::model::report::run_report;
use eoslab_core::model::scenario::{self, Scenario};
use wasm_bindgen::prelude::*;

use crate::{from_js, js_error, to_js};

/// A transactions script's parse error with its line quoted and the nearest valid verb or name
/// suggested (eoslab_core::model::suggest; the idempotence parser does this itself).
fn txn_explain(e: eoslab_core::model::scenario::ParseError, script: &str) -> eoslab_core::model::scenario::ParseError {
    eoslab_core::model::suggest::explain(e, script, eoslab_core::model::suggest::TXN_VERBS)
}

#[derive(serde::Deserialize, Default)]
#[serde(rename_all = "camelCase")]
struct RunOptionsDto {
    states: Option<bool>,
}

/// Runs a scenario — script text, or its JSON twin as an object — and returns the run:
/// steps with their events and decisions, every batch's bytes, the final partition state,
/// and `nextSteps` (script lines to append for the step buttons). Throws on a script
/// error ("line N: …"); a failing `expect` is reported in `failures`, not thrown.
/// Options: `{states: true}` adds `initialState` and each step's `state` (what the step
/// changed: leaders, batches, next steps), so a view shows the state after any step from this
/// one run instead of running the script's prefix again.
#[wasm_bindgen(js_name = runScenario)]
pub fn run_scenario(
    #[wasm_bindgen(unchecked_param_type = "string | object")] script: JsValue,
    #[wasm_bindgen(unchecked_optional_param_type = "{states?: boolean}")] options: JsValue,
) -> Result<JsValue, JsError> {
    let o: RunOptionsDto = crate::from_js_or_default(options, "invalid runScenario options")?;
    let sc: Scenario = match script.as_string() {
        Some(text) => scenario::parse(&text).map_err(js_error)?,
        None => from_js(script, "invalid scenario")?,
    };
    let run = if o.states.unwrap_or(false) { scenario::run_with_states(&sc) } else { scenario::run(&sc) };
    to_js(&run_report(&run))
}

#[derive(serde::Deserialize, Default)]
#[serde(rename_all = "camelCase")]
struct LayoutDto {
    index_interval_bytes: Option<i32>,
}

/// Runs an idempotence-model script and writes each partition's leader as the directory a Kafka
/// 4.3 broker would leave on disk (eoslab_core::files::layout: `.log`, `.index`, `.timeindex`,
/// `.txnindex`, `.snapshot`, `leader-epoch-checkpoint`, `partition.metadata`). Options:
/// `{indexIntervalBytes}` (the topic's `index.interval.bytes`, default 4096). Returns
/// `[{partition, files: [{name, bytes: Uint8Array}]}]`; throws on a script error, or when a
/// leader's state is not a directory's (a log end no batch reaches).
#[wasm_bindgen(js_name = writePartitionDirectory)]
pub fn write_partition_directory(
    script: &str,
    #[wasm_bindgen(unchecked_optional_param_type = "{indexIntervalBytes?: number}")] options: JsValue,
) -> Result<JsValue, JsError> {
    use eoslab_core::files::layout::{lab_topic_id, partition_dir, LayoutOptions, DEFAULT_INDEX_INTERVAL_BYTES};
    use js_sys::{Array, Object, Reflect, Uint8Array};
    let o: LayoutDto = crate::from_js_or_default(options, "invalid writePartitionDirectory options")?;
    let interval = o.index_interval_bytes.unwrap_or(DEFAULT_INDEX_INTERVAL_BYTES);
    if interval < 0 {
        return Err(js_error("invalid writePartitionDirectory options: indexIntervalBytes is ≥ 0"));
    }
    let sc = scenario::parse(script).map_err(js_error)?;
    let run = scenario::run(&sc);
    if let Some(e) = &run.error {
        return Err(js_error(e));
    }
    let set = |o: &Object, k: &str, v: &JsValue| Reflect::set(o, &JsValue::from_str(k), v).map(|_| ()).map_err(|_| js_error("cannot build the result"));
    let out = Array::new();
    for p in &run.sim.cluster.partitions {
        let files = partition_dir(p, &LayoutOptions { index_interval_bytes: interval, topic_id: lab_topic_id(&p.name) }).map_err(js_error)?;
        let list = Array::new();
        for (name, bytes) in &files {
            let f = Object::new();
            set(&f, "name", &JsValue::from_str(name))?;
            set(&f, "bytes", &Uint8Array::from(&bytes[..]).into())?;
            list.push(&f);
        }
        let d = Object::new();
        set(&d, "partition", &JsValue::from_str(&p.name))?;
        set(&d, "files", &list.into())?;
        out.push(&d);
    }
    Ok(out.into())
}

/// Runs a transactions scenario (a script whose first line is `model transactions`, or its JSON
/// twin: an object with `model: "transactions"`, as `parseScenario` returns it) and
/// returns the timeline. An idempotence script (its text, or its JSON twin as an object, as
/// `runScenario` takes it) is run by its own runner and returned in the same
/// shape (`model: "idempotence"`: one report from which both views draw), with what
/// `<kafka-ladder>`'s per-batch view reads besides: each step's `events`, `producerEntries` and
/// `changes`, and the run's `producers`, `partitions`, `batches`, `finalState` and
/// `initialState`, as `runScenario(…, {states: true})` has them. The options that choose a
/// cluster (`transactionVersion`, `kafka`, `sabotage`) are the transactions scripts' and refused
/// for it; `snapshots` and `trace` apply to both. The timeline: lanes, steps with their messages, the state after every step and
/// the invariants checked after it, every record with its bytes, and `nextSteps`. Options:
/// `{sabotage: "read-committed-sees-aborted"}` breaks the read path on purpose so tests can
/// show the invariants panel catching it; `{snapshots: false}` keeps only the last state
/// (long runs); `{transactionVersion: 1}` runs the script on a cluster finalized at that level
/// instead of its own `cluster` line (the same script under V1 and V2, side by side);
/// `{trace: false}` builds no messages or narration (benchmarks, long runs); `{sequence: false}`
/// leaves an idempotence script's per-batch view out (`<kafka-timeline>` does not draw it). Throws
/// on a script error ("line N: …").
#[wasm_bindgen(js_name = runTxnScenario)]
pub fn run_txn_scenario(
    #[wasm_bindgen(unchecked_param_type = "string | object")] script: JsValue,
    #[wasm_bindgen(unchecked_param_type = "{sabotage?: string, snapshots?: boolean, transactionVersion?: 0 | 1 | 2, kafka?: \"4.1\" | \"4.3\" | \"trunk\", trace?: boolean, sequence?: boolean}")] options: JsValue,
) -> Result<JsValue, JsError> {
    use eoslab_core::model::txn::Sabotage;
    use eoslab_core::model::txn_scenario;
    let opts: TxnOptions = crate::from_js_or_default(options, "invalid options")?;
    let text = script.as_string();
    let twin = text.is_none() && is_transactions_twin(&script);
    if !twin && text.as_deref().is_none_or(|t| !txn_scenario::is_transactions(t)) {
        if opts.sabotage.is_some() || opts.transaction_version.is_some() || opts.kafka.is_some() {
            return Err(JsError::new("sabotage, transactionVersion and kafka apply to `model transactions` scripts (an idempotence script sets its own with `broker` lines)"));
        }
        // An idempotence script: its text, or its JSON twin as an object (as runScenario takes it).
        let sc: Scenario = match text {
            Some(t) => scenario::parse(&t).map_err(js_error)?,
            None => from_js(script, "invalid scenario")?,
        };
        let run = txn_scenario::run_idempotence_opts(&sc, opts.snapshots.unwrap_or(true), opts.trace.unwrap_or(true), opts.sequence.unwrap_or(true));
        return to_js(&eoslab_core::model::txn_report::into_txn_run_report(run));
    }
    let sabotage = match opts.sabotage.as_deref() {
        None | Some("") => None,
        Some(s) => Some(Sabotage::parse(s).ok_or_else(|| JsError::new(&format!("unknown sabotage {s:?}")))?),
    };
    let mut sc = match text.as_deref() {
        Some(script) => txn_scenario::parse(script).map_err(|e| js_error(txn_explain(e, script)))?,
        None => from_js::<txn_scenario::TxnScenario>(script, "invalid transactions scenario")?,
    };
    if let Some(v) = opts.transaction_version {
        if v > 2 {
            return Err(JsError::new("transactionVersion must be 0, 1 or 2"));
        }
        sc.transaction_version = v;
    }
    if let Some(k) = opts.kafka.as_deref() {
        sc.kafka = eoslab_core::model::line::KafkaLine::parse(k).ok_or_else(|| JsError::new("kafka must be \"4.1\", \"4.3\" or \"trunk\""))?;
    }
    let run = txn_scenario::run_with(&sc, sabotage, opts.snapshots.unwrap_or(true), opts.trace.unwrap_or(true));
    to_js(&eoslab_core::model::txn_report::into_txn_run_report(run))
}

/// Is `value` a transactions script's JSON twin (an object whose `model` is "transactions")?
fn is_transactions_twin(value: &JsValue) -> bool {
    value.is_object() && js_sys::Reflect::get(value, &JsValue::from_str("model")).ok().and_then(|m| m.as_string()).is_some_and(|m| m == "transactions")
}

/// A script's JSON twin: the value its parser returns, as an object (an idempotence script's,
/// or a transactions script's with `model: "transactions"`), which `runScenario` and
/// `runTxnScenario` take as they take the text. For programs that build scripts as data. Throws
/// on a script error ("line N: …").
#[wasm_bindgen(js_name = parseScenario)]
pub fn parse_scenario(script: &str) -> Result<JsValue, JsError> {
    use eoslab_core::model::txn_scenario;
    if txn_scenario::is_transactions(script) {
        to_js(&txn_scenario::parse(script).map_err(|e| js_error(txn_explain(e, script)))?)
    } else {
        to_js(&scenario::parse(script).map_err(js_error)?)
    }
}

/// Runs a transactions scenario without tracing and returns only `{passed, steps,
/// invariantsHold}`: the model's own speed in wasm, without building the timeline's JS objects
/// (`make bench`).
#[wasm_bindgen(js_name = runTxnScenarioSummary)]
pub fn run_txn_scenario_summary(script: &str) -> Result<JsValue, JsError> {
    use eoslab_core::model::txn_scenario;
    #[derive(serde::Serialize)]
    #[serde(rename_all = "camelCase")]
    struct Summary {
        passed: bool,
        steps: usize,
        invariants_hold: bool,
    }
    let sc = txn_scenario::parse(script).map_err(|e| js_error(txn_explain(e, script)))?;
    let run = txn_scenario::run_with(&sc, None, false, false);
    let invariants_hold = run.steps.last().is_none_or(|s| s.invariants.iter().all(|i| i.1));
    to_js(&Summary { passed: run.passed(), steps: run.steps.len(), invariants_hold })
}

#[derive(serde::Deserialize, Default)]
#[serde(rename_all = "camelCase")]
struct TxnOptions {
    sabotage: Option<String>,
    snapshots: Option<bool>,
    /// Run the script on a cluster finalized at this transaction.version (the script's
    /// `cluster transaction.version=` otherwise): the same script under V1 and V2, side by side.
    transaction_version: Option<u8>,
    /// Answer as this Kafka line does where lines differ (the script's `cluster kafka=`
    /// otherwise; default 4.3).
    kafka: Option<String>,
    /// false: no messages or narration (decisions, states and invariants only; long runs).
    trace: Option<bool>,
    /// false: an idempotence script's report leaves out the ladder's per-batch view (each
    /// step's events and changes, the client batches, the logs), which the timeline does not
    /// draw.
    sequence: Option<bool>,
}

/// Resolves a Java producer config given as `.properties` text, as `new KafkaProducer(props)`
/// would: `{ok: true, idempotence, reason, acks, retries, maxInFlight, transactionalId, rules}`
/// or `{ok: false, exception: "ConfigException", message, rule}`. `line` is "4.x" (default)
/// or "pre-3.0".
#[wasm_bindgen(js_name = resolveProducerConfig)]
pub fn resolve_producer_config(properties: &str, line: Option<String>) -> Result<JsValue, JsError> {
    let line = match line.as_deref() {
        None | Some("4.x") => ClientLine::V4,
        Some("pre-3.0") => ClientLine::Pre30,
        Some(other) => return Err(js_error(format!("unknown client line {other:?} (4.x, pre-3.0)"))),
    };
    let result = resolve(&UserConfig::parse_properties(properties), line);
    #[derive(serde::Serialize)]
    #[serde(rename_all = "camelCase")]
    struct Failed<'a> {
        ok: bool,
        exception: &'static str,
        message: &'a str,
        rule: &'static str,
    }
    #[derive(serde::Serialize)]
    struct Ok<'a, T: serde::Serialize> {
        ok: bool,
        #[serde(flatten)]
        resolved: &'a T,
    }
    match &result {
        Result::Ok(r) => to_js(&Ok { ok: true, resolved: r }),
        Err(e) => to_js(&Failed { ok: false, exception: "ConfigException", message: &e.message, rule: e.rule }),
    }
}

/// Runs a scenario and returns only `{passed, steps, decisions}` — no per-event objects,
/// so a page (or a benchmark) can measure the model itself.
#[wasm_bindgen(js_name = runScenarioSummary)]
pub fn run_scenario_summary(script: &str) -> Result<JsValue, JsError> {
    let sc = scenario::parse(script).map_err(js_error)?;
    let run = scenario::run(&sc);
    #[derive(serde::Serialize)]
    struct Summary {
        passed: bool,
        steps: usize,
        decisions: usize,
    }
    let decisions = run
        .sim
        .trace
        .iter()
        .filter(|e| matches!(e.kind, eoslab_core::model::idempotence::EventKind::Decision(_)))
        .count();
    to_js(&Summary { passed: run.passed(), steps: run.sim.steps, decisions })
}


/// "Send to a leader": `bytes` (one v2 batch, as the inspector decodes it) sent as a
/// Produce (acks=-1) to a partition leader holding the state in `question` — `{producer:
/// {producerId, epoch, firstSequence, lastSequence, baseOffset?} | null, transactionalId?,
/// version? (12), zeroBaseOffset?, partition?}` — and its answer as the transactions
/// language's request replies: `{api, error, errorCode, rule, source, why, outcome
/// ("appended" | "duplicate" | "rejected"), offsets [first, last], byteOffset?, batch}`.
/// Throws only for a state no leader could hold (a negative producer id, epoch or sequence).
#[wasm_bindgen(js_name = sendToLeader)]
pub fn send_to_leader(
    bytes: &[u8],
    #[wasm_bindgen(unchecked_optional_param_type = "{producer?: {producerId: number, epoch: number, firstSequence: number, lastSequence: number, baseOffset?: number} | null, transactionalId?: string, version?: number, zeroBaseOffset?: boolean, partition?: string}")] question: JsValue,
) -> Result<JsValue, JsError> {
    use eoslab_core::model::txn::LeaderQuestion;
    let q: LeaderQuestion = crate::from_js_or_default(question, "invalid leader state")?;
    to_js(&eoslab_core::model::txn::send_to_leader(bytes, &q).map_err(js_error)?)
}

/// Judges a capture's replay (made by pkg/eoslab-files.js from the capture) on the simulator:
/// `{script, verdicts, error}` (eoslab_core::conformance::judge), a verdict per exchange —
/// "agrees" (rule, source), "differs" (field, captured, simulated, rule, source) or
/// "cannotJudge" (why).
#[wasm_bindgen(js_name = judgeReplay, unchecked_return_type = "CaptureCheck")]
pub fn judge_replay(#[wasm_bindgen(unchecked_param_type = "CaptureReplay")] replay: JsValue) -> Result<JsValue, JsError> {
    let r: eoslab_core::conformance::Replay = from_js(replay, "judgeReplay")?;
    to_js(&eoslab_core::conformance::judge(&r))
}

#[wasm_bindgen(typescript_custom_section)]
const TS_CHECK_TYPES: &'static str = r#"
/** A capture's replay as data: made by pkg/eoslab-files.js from a capture, judged here. */
export interface CaptureReplay {
  /** The script of request lines, in capture order. */
  script: string;
  exchanges: { index: number; api: string; connection: number; correlationId: number; keys: string[] }[];
  lines: { line: number; exchange: number; part: string | null }[];
  captured: [number, { errors: [string, number][]; producer: [number, number] | null }][];
  unjudged: [number, string][];
}

/** `judgeReplay`'s answer: the replay script and a verdict per exchange. */
export interface CaptureCheck {
  script: string;
  verdicts: ({ exchange: number; api: string; line: number | null } & (
    | { verdict: "agrees"; rule: string; source: string }
    | { verdict: "differs"; field: string; captured: string; simulated: string; rule: string; source: string }
    | { verdict: "cannotJudge"; why: string }))[];
  /** A script error that stopped the replay ("line N: …"). */
  error: string | null;
}
"#;
