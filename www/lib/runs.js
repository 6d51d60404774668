// runs.js: what a scenario player (<kafka-timeline>, <kafka-ladder>) runs for its inputs, as one
// function of the wasm package, and the pre-built run files that carry its result to a page.
//
// computeRun() is called by the elements (in the browser, once pkg/eoslab.js is loaded) and by
// the build-time pre-building (www/prebuild.mjs in Node: make dist, the MkDocs and Docusaurus
// plugins), so a pre-built run is exactly what the element would compute: one code path, one
// answer. A run file is
//
//   {"eoslab": "run", "format": 1, "element": "kafka-timeline", "version": "<package version>",
//    "input": {"script": "…", "scenario": "name" | null, "transactionVersion": 0|1|2|null},
//    "run": {"report": {…}, "ran": "…" | null, "partial": "line N: …" | null}}
//
// where `run` is computeRun's result. An element given a run file (its `run` attribute, or the
// dist's runs/<element>/<scenario>.json for a `scenario` attribute) draws it without loading any
// WebAssembly, and loads pkg/eoslab.js only when the reader does something the run does not hold
// (edits the script, forks it at a next-step button, opens a record's bytes).
//
// Importable in Node: nothing here touches the DOM.
import { linesBeforeError, parseSource } from "./player.js";
import { isScenarioName, isTransactionsScript } from "./script-kind.js";

/** The format of a run file (its "format" field); an element refuses another. */
export const RUN_FORMAT = 1;

/** The elements that draw a scenario run. */
export const RUN_ELEMENTS = ["kafka-timeline", "kafka-ladder"];

/**
 * The `transaction-version` attribute's value as a number, or null when absent or empty; throws
 * the element's own message on anything but 0, 1 or 2.
 */
export function transactionVersionOf(raw) {
  if (raw === null || raw === undefined || String(raw).trim() === "") return null;
  if (!/^\s*[012]\s*$/.test(String(raw))) throw new Error(`transaction-version "${raw}": must be 0, 1 or 2 (or absent: the script's own)`);
  return Number(raw);
}

/**
 * The run `element` ("kafka-timeline" | "kafka-ladder") shows for script `text` (a script, or its
 * JSON twin): `{report, ran, partial}` — the report runTxnScenario returned; `ran`, the text that
 * ran (the lines before a script error when only those ran; null for a JSON twin, which offers no
 * next-step lines); `partial`, that script error (null when the whole script ran). `eoslab` is the
 * initialised package (pkg/eoslab.js). Throws what the core throws when not even the lines before
 * an error run.
 */
export function computeRun(eoslab, element, text, { transactionVersion = null, sabotage = null } = {}) {
  const run = eoslab.runTxnScenario;
  if (typeof run !== "function") throw new Error("pkg/eoslab.js has no runTxnScenario: rebuild pkg/ (make pkg)");
  const source = parseSource(text);
  let options;
  if (element === "kafka-timeline") {
    // The ladder's per-batch view of an idempotence script is not drawn on the timeline.
    options = { sequence: false };
    if (sabotage) options.sabotage = sabotage;
    if (transactionVersion !== null) options.transactionVersion = transactionVersion;
  } else {
    // A transactions script runs as the timeline's does and is drawn from the same report; an
    // idempotence script's report carries the per-batch view's events and per-step changes, not
    // the world's snapshot after every step.
    const transactions = source.kind === "text" ? isTransactionsScript(source.text) : source.value?.model === "transactions";
    options = {};
    if (transactions && transactionVersion !== null) options.transactionVersion = transactionVersion;
    if (!transactions) Object.assign(options, { snapshots: false, trace: false });
  }
  try {
    return { report: run(source.value, options), ran: source.kind === "text" ? text : null, partial: null };
  } catch (err) {
    // A mistake in the script: the steps before its line, with the error.
    const message = err instanceof Error ? err.message : String(err);
    const before = source.kind === "text" ? linesBeforeError(text, message) : null;
    if (before === null) throw err;
    let report;
    try {
      report = run(before, options);
    } catch {
      throw err;
    }
    return { report, ran: before, partial: message };
  }
}

/**
 * What <kafka-producer-config> shows for .properties `text` and `client` ("4.x" | "pre-3.0"):
 * resolveProducerConfig's answer, or the error it threw as a failed resolution.
 */
export function resolveConfig(eoslab, text, client) {
  try {
    return eoslab.resolveProducerConfig(text, client);
  } catch (err) {
    return { ok: false, exception: "Error", message: err instanceof Error ? err.message : String(err), rule: null };
  }
}

/**
 * The run file of `element` for `input` and its `run`. A scenario player's input is
 * `{script, scenario, transactionVersion}` (absent ones null) and its run computeRun's result;
 * another element's input is what it was given (an inspector's one attribute, a config's
 * properties and client), kept as it is.
 */
export function runFile(eoslab, element, input, run) {
  return {
    eoslab: "run",
    format: RUN_FORMAT,
    element,
    version: typeof eoslab.version === "function" ? eoslab.version() : null,
    input: RUN_ELEMENTS.includes(element)
      ? { script: input.script, scenario: input.scenario ?? null, transactionVersion: input.transactionVersion ?? null }
      : input,
    run,
  };
}

/**
 * Checks that `file` (parsed JSON) is a run file for `element`; returns it, or throws a message a
 * page author can act on.
 */
export function checkRunFile(file, element, where) {
  if (!file || file.eoslab !== "run") throw new Error(`${where} is not an eoslab run file`);
  if (file.format !== RUN_FORMAT) throw new Error(`${where}: run format ${file.format}, this element reads ${RUN_FORMAT} (pre-build it again with this eoslab)`);
  if (file.element !== element) throw new Error(`${where} is a run for <${file.element}>, not <${element}>`);
  const holds = element === "kafka-batch" ? Array.isArray(file.run?.calls) : element === "kafka-producer-config" ? !!file.run?.result : !!file.run?.report?.steps;
  if (!holds) throw new Error(`${where} holds no run`);
  return file;
}

/* global EOSLAB_DIST */
/**
 * Whether the modules sit in a dist that ships runs/: scripts/build-dist.mjs writes them and
 * defines EOSLAB_DIST in its bundles; www/ served as it is has none, and asking would only log 404s.
 */
export const BUILT_IN_RUNS = typeof EOSLAB_DIST !== "undefined" && EOSLAB_DIST === true;

/** The URL of the dist's pre-built run of built-in scenario `name` for `element`, next to the modules. */
export const builtInRunURL = (element, name) => new URL(`../../runs/${element}/${name}.json`, import.meta.url);

/**
 * Fetches and checks the run file at `url` for `element`. `optional`: resolves to null when there
 * is no such file (404), so the caller runs the model instead (a dist built without runs/).
 */
export async function fetchRun(url, element, { optional = false } = {}) {
  let res;
  try {
    res = await fetch(url);
  } catch (err) {
    if (optional) return null;
    throw new Error(`run file ${url.pathname ?? url}: could not be fetched (${err.message})`);
  }
  if (!res.ok) {
    if (optional && res.status === 404) return null;
    throw new Error(`run file ${new URL(url, globalThis.location?.href).pathname}: ${res.status} ${res.statusText}`);
  }
  let file;
  try {
    file = await res.json();
  } catch (err) {
    throw new Error(`run file ${new URL(url, globalThis.location?.href).pathname}: not JSON (${err.message})`);
  }
  return checkRunFile(file, element, `run file ${new URL(url, globalThis.location?.href).pathname}`);
}

/**
 * The pre-built run file `host` (a <kafka-timeline> or <kafka-ladder> of tag `element`) can draw
 * without loading the model, or null when it must run its script: with no `script` attribute and
 * no `sabotage`, the file its `run` attribute names (a URL relative to the page; an error when it
 * cannot be read), else the dist's run of the built-in scenario its `scenario` attribute names
 * (null when the dist has none). Either only when it was made for the `transaction-version` the
 * element asks for (absent: the script's own).
 */
export async function prebuiltRun(host, element) {
  if (host.hasAttribute("script") || (host.getAttribute("sabotage") ?? "") !== "") return null;
  const tv = transactionVersionOf(host.getAttribute("transaction-version"));
  const runAttr = (host.getAttribute("run") ?? "").trim();
  if (runAttr) {
    const file = await fetchRun(new URL(runAttr, host.ownerDocument?.baseURI ?? globalThis.location?.href), element);
    return file.input.transactionVersion === tv ? file : null;
  }
  const name = (host.getAttribute("scenario") ?? "").trim();
  if (!BUILT_IN_RUNS || !name || tv !== null || !isScenarioName(name)) return null;
  return fetchRun(builtInRunURL(element, name), element, { optional: true });
}

/**
 * What scenario player `host` (of tag `element`) draws: its pre-built run when there is one (see
 * prebuiltRun), else its script run by computeRun with its `sabotage` and `transaction-version`
 * attributes. `source(host)` gives the script; `ready()` the initialised package, loaded only when
 * a script must run. Resolves to `{text, result}` (the script as given and computeRun's result), or
 * to null when `stale()` says a newer load began while this one waited.
 */
export async function loadRun(host, element, { source, ready, stale }) {
  const file = await prebuiltRun(host, element);
  if (stale()) return null;
  if (file) return { text: file.input.script, result: file.run };
  const text = await source(host);
  const transactionVersion = transactionVersionOf(host.getAttribute("transaction-version"));
  const sabotage = host.getAttribute("sabotage") || null;
  const core = await ready();
  if (stale()) return null;
  // A script's JSON twin (text starting with "{") runs as its text does; next-step lines are
  // appended to text only, so it offers none (ran: null).
  return { text, result: computeRun(core, element, text, { sabotage, transactionVersion }) };
}
