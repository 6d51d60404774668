// <kafka-timeline>: a scenario of the transactions model drawn as swimlanes, one step at a time.
//
// One horizontal lane per participant of the run (as the core's report lists them): producers
// (client state, producer id and epoch, an outcome that is UNKNOWN while a commit response is
// outstanding), the transaction coordinator (its state for each transactional id and the records
// it wrote to __transaction_state), every data partition (record batches as cells by offset, the
// COMMIT/ABORT markers as solid cells, the HW and LSO pointers, aborted ranges hatched, open
// transactions dashed), __consumer_offsets (pending vs committed group offsets), consumers
// (read_committed beside read_uncommitted: their positions and what they received, aligned with
// the partition's offsets) and the external effects. The messages of the current step are drawn as
// numbered arrows between the lanes (lost ones end in a cross) and listed as text. Below: the
// narration of the step, the state of every lane as text, the metrics after the step (the Java
// client's and the brokers' counter names, with what the step added) as a table, the invariants
// (broken ones highlighted) and one button per action the model allows after the last step. When
// the run completes two transactions or more (report.completions), a small plot of commit latency
// (EndTxn → Complete, model ms) against the partitions each touched, with the same numbers as a
// table (the accessible copy; only the completions up to the current step) and a caption naming
// the modelled costs (`cluster rtt=… append=… brokers=…`).
//
//   <kafka-timeline scenario="txn-commit-abort"></kafka-timeline>     scenarios/<name>.eos
//   <kafka-timeline script="model transactions&#10;…"></kafka-timeline>
//   el.report = reportJson                                             a precomputed TxnRunReport
//
// Attributes (the source of truth; `script` wins over `scenario`):
//   scenario   name of a built-in scenario, loaded from ../scenarios/<name>.eos next to this module
//   script     the scenario text (its first line is `model transactions`)
//   step       the story step shown, 0..steps-1, or "end" (reflected; default: 0, the first). A story
//              step is a script line that does something with the `expect` lines after it, which
//              are shown as its checks (lib/player.js)
//   sabotage   passed to runTxnScenario(script, {sabotage}) — a test-only fault of the core
//   transaction-version  "0" | "1" | "2": run the script on a cluster finalized at that
//              transaction.version (runTxnScenario's {transactionVersion}), whatever its own
//              `cluster transaction.version=` line says — the same script under V1 and V2 side by
//              side; absent (or empty): the script's own. Reflected as the property
//              `transactionVersion` (a number, or null when absent); any other value is an error.
//   readonly   no next-step buttons (stepping still works)
//   inspector  id of a <kafka-batch> in the same document: records open there instead of in a dialog
//   theme      "light" | "dark" | "auto" (default: the page's MkDocs / Docusaurus flag, else the OS; lib/theme.js)
//   compact    for a documentation column: controls, narration and lanes only (lane labels never
//              cut: the label column widens, the logs scroll inside the element)
// Events (bubbling, composed): `kafka-timeline:step` {step, steps}; `kafka-timeline:script`
// {script} when a next-step button appended a line; `kafka-timeline:load` {steps, records, ms,
// error} after each run; `kafka-timeline:open` {record, label, hex} when a record is opened.
// Keyboard (lib/player.js; `?` lists them): anywhere in the element ←/→ step, Home/End first/last
// step, Space play/pause, +/- speed (on the slider also ↑/↓, and PageUp/PageDown a tenth of the
// run); in the lanes ↑/↓
// select a record lane, Shift+←/→ (or [ and ]) the previous/next record, Enter opens the selected
// record's bytes in <kafka-batch>, Escape clears the selection.
//
// Everything is decided by the core (runTxnScenario in ../pkg/eoslab.js): the state at step i is
// steps[i].state, records with step ≤ i are in the log, a data record is committed/aborted once
// the step of its marker (closedAt) is reached. The lanes are one canvas (HiDPI, only the cells in
// view drawn, redrawn on a dirty flag once per animation frame); all text a reader needs is DOM
// text. Every value reaches the page as text: textContent or fillText, never innerHTML.
import * as eoslab from "../pkg/eoslab.js";
import { el as h, lazyStyleSheet } from "./lib/dom.js";
import { SchemeWatcher } from "./lib/theme.js";
import {
  BaseElement, CanvasStyle, ComposedEvent, DIALOG_CSS, DRAWING_TOKENS, NEXT_STEPS_CSS, PlayerChanges,
  attachStyledShadow, backingSize, cross, defineElement, frameRequester, hidpiContext, hostCSS, microtaskUpdater,
  nextStepButton, nextStepsGroup, observeScriptText, readTheme, ready, reflectAttribute, reflectAttributes,
  scenarioSource, showBatchDialog, stepAttribute, stepValue, watchDisplay, modelDarkSheet, presenterMinFont,
} from "./lib/element.js";
import { pngWithCaption, svgOf } from "./lib/export.js";
import { PLAYER_CSS, Player, checksList, choicesFor, linesBeforeError, partialNote, storyChecks, storyIndexOf, storySteps } from "./lib/player.js";
import {
  PRESENTER_ZOOM, TXN_ANSWERS, RULER_H, CELL_W, SUBROW_H, LOG_ROW_H, ROW_LABEL_H, cellBox, LANE_H, RECORD_LANES,
  MAX_BUTTONS, LONG_LATENCY_TABLE, MAX_LATENCY_ROWS, TXN_LINES, ellipsize, range, recordStatus, isMarker,
  recordLabel, cellText, lowerBound, buildTimeline, completionSteps, DEFAULT_COSTS, clusterCosts, niceTicks,
} from "./lib/timeline-model.js";

// What this module exported before its model side moved to lib/timeline-model.js.
export { PRESENTER_ZOOM, recordStatus, recordLabel, buildTimeline, completionSteps, DEFAULT_COSTS, clusterCosts, niceTicks } from "./lib/timeline-model.js";

export const STEP_EVENT = "kafka-timeline:step";
export const SCRIPT_EVENT = "kafka-timeline:script";
export const LOAD_EVENT = "kafka-timeline:load";
export const OPEN_EVENT = "kafka-timeline:open";

/** `kafka-timeline:step`: the timeline now shows story step `step` (0-based) of `steps`. */
export class TimelineStepEvent extends ComposedEvent {
  constructor(step, steps) {
    super(STEP_EVENT, { step, steps });
  }
}

/** `kafka-timeline:script`: the script changed from inside the element (a next-step button). */
export class TimelineScriptEvent extends ComposedEvent {
  constructor(script) {
    super(SCRIPT_EVENT, { script });
  }
}

/** `kafka-timeline:load`: a script was run (or failed: `error`). */
export class TimelineLoadEvent extends ComposedEvent {
  constructor(detail) {
    super(LOAD_EVENT, detail);
  }
}

/** `kafka-timeline:open`: a record was opened (its index in report.records, its label and bytes). */
export class TimelineOpenEvent extends ComposedEvent {
  constructor(detail) {
    super(OPEN_EVENT, detail);
  }
}

// ---------------------------------------------------------------------------------------------
// Styles (a constructed stylesheet: no inline <style>, so pages with style-src 'self' work)

/** A fact's text as shown, without the screen-reader notes added to it. */
function factText(node) {
  let out = "";
  const walk = (n) => {
    for (const c of n.childNodes) {
      if (c.nodeType === Node.TEXT_NODE) out += c.data;
      else if (c.nodeType === Node.ELEMENT_NODE && !c.classList.contains("differs-note")) walk(c);
    }
  };
  walk(node);
  return out.replace(/\s+/g, " ").trim();
}

const CSS = `
${hostCSS(DRAWING_TOKENS)}
.title { font-weight: 600; margin: 0 0 .2rem; }
.about { margin: 0 0 .5rem; color: var(--eos-muted); font-size: 13px; }
.about:empty, .title:empty { display: none; }
.controls { display: flex; flex-wrap: wrap; gap: .4rem; align-items: center; margin: .25rem 0 .5rem; }
button, select { font: inherit; font-size: 13px; padding: .2rem .6rem; border: 1px solid var(--eos-border); border-radius: 6px;
         background: var(--eos-panel); color: var(--eos-fg); cursor: pointer; }
button:hover:not(:disabled) { border-color: var(--eos-accent); }
button:disabled { opacity: .45; cursor: default; }
button:focus-visible, select:focus-visible, input:focus-visible, .viewport:focus-visible { outline: 2px solid var(--eos-accent); outline-offset: 2px; }
button[aria-pressed="true"] { background: var(--eos-accent); color: var(--eos-bg); border-color: var(--eos-accent); }
.counter { font-variant-numeric: tabular-nums; color: var(--eos-muted); margin-left: .25rem; }
.now { contain: layout style; border-left: 3px solid var(--eos-accent); padding: .3rem .6rem; margin: 0 0 .5rem; background: var(--eos-panel);
       border-radius: 0 6px 6px 0; min-height: 2.2rem; }
.now.failed-step { border-left-color: var(--eos-bad); }
.now p { margin: .15rem 0; }
.now-head { font-weight: 600; }
.now-head .line { font-family: var(--eos-mono); font-weight: normal; font-size: 13px; overflow-wrap: anywhere; }
.now .narration { font-size: 14px; }
.now ol.messages { margin: .25rem 0 0; padding-left: 1.6rem; font-size: 12.5px; font-family: var(--eos-mono); overflow-wrap: anywhere; }
.now ol.messages li.lost, .now ol.messages li.error { color: var(--eos-bad); }
.now .rule { border: 1px solid var(--eos-border); border-radius: 4px; padding: 0 .25rem; }
.now .source { color: var(--eos-muted); overflow-wrap: anywhere; }
.written { display: flex; flex-wrap: wrap; gap: .3rem; align-items: center; margin: .3rem 0 0; font-size: 12.5px; }
.written button { font-family: var(--eos-mono); font-size: 11.5px; padding: 0 .35rem; }
.failed { color: var(--eos-bad); font-weight: 600; }
.held { color: var(--eos-ok); }
.lanes { position: relative; }
.viewport { position: relative; overflow-x: auto; overflow-y: hidden; border: 1px solid var(--eos-border); border-radius: 6px;
            background: var(--eos-bg); outline: none; }
.viewport[aria-busy="true"] { opacity: .6; }
.track { position: relative; }
canvas { position: sticky; left: 0; display: block; }
.detail { margin: .4rem 0 0; padding: .3rem .6rem; border: 1px dashed var(--eos-border); border-radius: 6px; font-size: 13px; }
.detail[hidden] { display: none; }
.hint { color: var(--eos-muted); font-size: 12px; margin: .3rem 0 0; }
${NEXT_STEPS_CSS}
/* compact: for a documentation column — the controls, the narration, the lanes (scrolling inside). */
:host([compact]) { padding: .5rem; max-width: 100%; }
:host([compact]) .about, :host([compact]) .hint, :host([compact]) .panels-box, :host([compact]) .latency,
:host([compact]) .summary, :host([compact]) .features { display: none; }
.panels { display: grid; grid-template-columns: minmax(0, 2fr) minmax(14rem, 1fr); gap: .6rem; margin: .6rem 0 0; }
@media (max-width: 48rem) { .panels { grid-template-columns: 1fr; } }
/* A narrow element (two side by side on a wide screen) stacks its panels too. */
.panels-box { container: eos-panels / inline-size; }
@container eos-panels (max-width: 42rem) { .panels { grid-template-columns: 1fr; } }
.state { display: grid; grid-template-columns: repeat(auto-fit, minmax(15rem, 1fr)); gap: .5rem; align-content: start; }
.state section, .invariants { contain: layout style; border: 1px solid var(--eos-border); border-radius: 6px; padding: .35rem .5rem; background: var(--eos-panel); }
.state p, .invariants p { margin: .1rem 0; font-size: 12.5px; color: var(--eos-muted); }
.state p.state-title, .invariants p.state-title { margin: 0 0 .2rem; font-size: 13px; font-weight: 600; color: var(--eos-fg); }
.state .kv { font-family: var(--eos-mono); font-size: 12px; color: var(--eos-fg); }
.state .warn { color: var(--eos-warn); font-weight: 600; }
.state .bad { color: var(--eos-bad); font-weight: 600; }
.state ul { margin: .1rem 0; padding-left: 1rem; font-size: 12px; font-family: var(--eos-mono); }
.invariants ul { list-style: none; margin: 0; padding: 0; }
.invariants li { margin: .25rem 0; padding: .2rem .35rem; border-radius: 4px; font-size: 12.5px; border: 1px solid transparent; }
.invariants li .verdict { font-weight: 700; margin-right: .3rem; }
.invariants li.holds .verdict { color: var(--eos-ok); }
.invariants li.broken { border-color: var(--eos-bad); background: color-mix(in srgb, var(--eos-bad) 12%, transparent); }
.invariants li.broken .verdict { color: var(--eos-bad); }
.invariants li .detail-text { display: block; color: var(--eos-muted); }
.invariants li.broken .detail-text { color: var(--eos-fg); }
.summary { margin: .5rem 0 0; font-size: 12.5px; color: var(--eos-muted); }
.features { font-family: var(--eos-mono); font-size: 11.5px; color: var(--eos-muted); white-space: pre-wrap; margin: .2rem 0 0; }
.features:empty { display: none; }
.error { color: var(--eos-bad); font-family: var(--eos-mono); font-size: 13px; margin: .3rem 0; white-space: pre-wrap; }
.error:empty { display: none; }
.sr-only { position: absolute; width: 1px; height: 1px; padding: 0; margin: -1px; overflow: hidden; clip: rect(0 0 0 0);
           white-space: nowrap; border: 0; }
${DIALOG_CSS}
${PLAYER_CSS}
:host([presenter]) .lanes { zoom: 2; }
.state section.metrics { grid-column: 1 / -1; }
/* Compare: a value that differs from the other run's at the aligned step (markFacts). */
.differs { background: color-mix(in srgb, var(--eos-warn) 16%, transparent); outline: 2px solid var(--eos-warn); outline-offset: 1px; border-radius: 3px; }
.state table, .latency table { border-collapse: collapse; font-size: 12px; font-family: var(--eos-mono); }
.state caption, .latency caption { text-align: left; font-family: system-ui, sans-serif; }
.state caption { font-size: 13px; font-weight: 600; color: var(--eos-fg); margin: 0 0 .2rem; }
.state th, .state td, .latency th, .latency td { padding: .05rem .5rem .05rem 0; text-align: left; font-weight: normal; color: var(--eos-fg); }
.state td.num, .latency td.num { text-align: right; font-variant-numeric: tabular-nums; }
.state thead th, .latency thead th { color: var(--eos-muted); font-family: system-ui, sans-serif; border-bottom: 1px solid var(--eos-border); }
.state td.delta { color: var(--eos-accent); }
/* Thousands of completions make a long table: while the figure is off screen its layout and paint are skipped. */
.latency { content-visibility: auto; contain-intrinsic-block-size: auto 320px; }
.latency { margin: .6rem 0 0; padding: .4rem .6rem; border: 1px solid var(--eos-border); border-radius: 6px; background: var(--eos-panel); }
.latency[hidden] { display: none; }
.latency .state-title { margin: 0 0 .2rem; font-size: 13px; font-weight: 600; }
.latency .plot-row { display: flex; flex-wrap: wrap; gap: .4rem 1.2rem; align-items: flex-start; }
.latency .plot { flex: 1 1 20rem; max-width: 36rem; min-width: 14rem; }
.latency canvas { position: static; width: 100%; height: 220px; border: 1px solid var(--eos-border); border-radius: 4px; background: var(--eos-bg); }
.latency figcaption, .latency .latency-note { font-size: 12.5px; color: var(--eos-muted); margin: .3rem 0 0; max-width: 60rem; }
.latency table.fixed { table-layout: fixed; }
.latency tr.now-row th, .latency tr.now-row td { color: var(--eos-accent); font-weight: 600; }
`;

const styleSheet = lazyStyleSheet(CSS);

// ---------------------------------------------------------------------------------------------

export class KafkaTimelineElement extends BaseElement {
  static define(tag = "kafka-timeline", registry = globalThis.customElements) {
    return defineElement(this, tag, registry);
  }

  static get observedAttributes() {
    return ["scenario", "script", "step", "sabotage", "readonly", "inspector", "transaction-version", "theme", "compact", "presenter", "predict"];
  }

  // state
  #root = null;
  #ui = null;
  #sourceText = null; // the script that was run (null: a report set directly)
  #givenText = null; // the script as given when it has an error and only the lines before it ran
  #report = null;
  #given = null; // a report set through the `report` property
  #tl = null; // buildTimeline(#report)
  #labelCharW = 7.3; // width of a character of the lane labels' font (bold 12px monospace)
  #step = 0; // the report step shown: story step #at's own line (its checks change no state)
  #at = 0; // the story step shown (lib/player.js storySteps)
  #story = []; // storySteps(#report.steps)
  #openAt = null; // "end": the next load shows the last step (a next-step button was pressed)
  #dispatchedStep = -1;
  #loadToken = 0;
  #changes = new PlayerChanges(this);
  #player = null;
  #interval = 1000;
  #mutation = null;
  #resize = null;
  #unwatchDisplay = null;
  #scheme = new SchemeWatcher(this, modelDarkSheet, () => {
    this.#readTheme();
    this.#invalidate(false);
  });

  // drawing
  #theme = null;
  #paint = frameRequester(() => this.#draw(), () => this.isConnected);
  #width = 0;
  #selected = -1; // record index
  #hover = -1;
  #hatch = null;
  #ctxStyle = new CanvasStyle();
  // fontPx: the smallest type of the lane labels and the messages on the wire (lane state lines 10.5 px, wire 11 px).
  #stats = { records: 0, draws: 0, lastDrawMs: 0, maxDrawMs: 0, loadMs: 0, panelMs: 0, truncatedLabels: 0, fontPx: 10.5 };
  // What the DOM panels show already (they are updated, not rebuilt, when the step changes).
  #nextCache = { report: undefined, canAppend: false, label: null };
  #summaryFor = null;
  #latency = { report: undefined, source: undefined, rows: [], lo: 0, shown: -1, marked: [], caption: null };
  #latencyPlotKey = ""; // what the latency plot shows: redrawn only when it changes
  #latencyPlotFor = { report: null, theme: null };
  #latencySize = null; // {width, height} of the latency canvas in CSS px (ResizeObserver), null: unknown

  /** Interval between steps while playing at 1×, in ms. */
  get interval() {
    return this.#interval;
  }
  set interval(v) {
    this.#interval = Number(v) || 1000;
    if (this.#player) this.#player.interval = this.#interval;
  }

  // --- attributes as properties ------------------------------------------------------------

  // scenario and readOnly: the attributes, defined by reflectAttributes after the class.
  get script() {
    return this.#givenText ?? this.#sourceText ?? this.getAttribute("script") ?? "";
  }
  set script(v) {
    this.setAttribute("script", String(v));
  }
  get sabotage() {
    return this.getAttribute("sabotage") ?? "";
  }
  set sabotage(v) {
    if (v) this.setAttribute("sabotage", String(v));
    else this.removeAttribute("sabotage");
  }
  /** The transaction.version the script runs at (0, 1 or 2), or null: the script's own `cluster` line. */
  get transactionVersion() {
    const raw = this.getAttribute("transaction-version");
    return raw !== null && /^\s*[012]\s*$/.test(raw) ? Number(raw) : null;
  }
  set transactionVersion(v) {
    if (v === null || v === undefined || v === "") this.removeAttribute("transaction-version");
    else this.setAttribute("transaction-version", String(v));
  }
  /** The story step shown (0-based; `expect` lines are checks of the step they follow, not steps). */
  get step() {
    return this.#at;
  }
  set step(v) {
    this.setAttribute("step", stepValue(v));
  }
  /** Number of story steps of the current run. */
  get steps() {
    return this.#story.length;
  }
  /** The story steps: [{first, last, checks}], indexes into report.steps (lib/player.js storySteps). */
  get story() {
    return this.#story;
  }
  /** The 1-based story step number of report step `i` (what the texts call "step N"). */
  #storyNo(i) {
    return storyIndexOf(this.#story, i) + 1;
  }
  /** The index into report.steps of the step shown (its state, messages and records are drawn). */
  get reportStep() {
    return this.#step;
  }
  /** Marks story steps on the scrub bar with a label (compare mode: where the runs differ). */
  markSteps(steps, label) {
    return this.#player?.setMarks(steps, label) ?? [];
  }
  /**
   * What the current step shows, by a stable key: each message of the step (`msg:N`), each line
   * of each lane's state (`LANE:WORD#N`, WORD the line's first word, N its repeat in the lane;
   * `LANE:txn ID` / `LANE:producer PID` for the coordinator's and the leaders' per-id lines) and
   * each metric (`metric:NAME`), as the text shown. Compare mode compares two timelines' facts.
   */
  facts() {
    const out = {};
    for (const [key, node] of this.#factNodes()) out[key] = factText(node);
    return out;
  }
  /**
   * Highlights the current step's facts named by `keys` (from facts()) as differing, `label`
   * read by screen readers after each one; [] clears. Kept until the step changes.
   */
  markFacts(keys, label = "differs") {
    this.#factMarks = { at: this.#at, keys: new Set(keys), label };
    this.#applyFactMarks();
    return [...this.#factMarks.keys];
  }
  /** The keys of the facts highlighted now. */
  get markedFacts() {
    return this.#factNodes().filter(([, node]) => node.classList.contains("differs")).map(([key]) => key);
  }
  #factMarks = null;
  /** [key, node] of every fact shown (sets data-fact on each node). */
  #factNodes() {
    const ui = this.#ui;
    if (!ui) return [];
    const out = [];
    ui.now.querySelectorAll("ol.messages > li").forEach((li, i) => out.push([`msg:${i}`, li]));
    for (const sec of ui.state.querySelectorAll("section[data-lane]")) {
      const seen = new Map();
      for (const node of sec.querySelectorAll("p:not(.state-title), li")) {
        let key;
        if (node.dataset.txn) key = `txn ${node.dataset.txn}`;
        else if (node.dataset.producer) key = `producer ${node.dataset.producer}`;
        else {
          const word = factText(node).split(/\s+/)[0] ?? "";
          const n = seen.get(word) ?? 0;
          seen.set(word, n + 1);
          key = `${word}#${n}`;
        }
        out.push([`${sec.dataset.lane}:${key}`, node]);
      }
    }
    for (const tr of ui.state.querySelectorAll("tr[data-metric]")) out.push([`metric:${tr.dataset.metric}`, tr]);
    for (const [key, node] of out) node.dataset.fact = key;
    return out;
  }
  #applyFactMarks() {
    const m = this.#factMarks;
    for (const [key, node] of this.#factNodes()) {
      const on = !!m && m.at === this.#at && m.keys.has(key);
      node.classList.toggle("differs", on);
      const sr = node.querySelector(":scope > .sr-only.differs-note");
      if (on && !sr) node.append(h("span", { class: "sr-only differs-note" }, ` (${m.label})`));
      else if (!on && sr) sr.remove();
    }
  }
  /** The story steps marked on the scrub bar. */
  get markedSteps() {
    const v = this.#ui?.marksNote?.dataset.steps ?? "";
    return v ? v.split(",").map(Number) : [];
  }
  /** The story step that shows report step `i`. */
  storyStepOf(i) {
    return storyIndexOf(this.#story, i);
  }
  /** The TxnRunReport shown (as runTxnScenario returned it), or null. */
  get report() {
    return this.#report;
  }
  /** Shows a precomputed TxnRunReport (no script is run; attributes `script`/`scenario` are ignored until it is cleared). */
  set report(r) {
    this.#given = r ?? null;
    this.#changes.source = true;
    this.#schedule();
  }
  /** Play speed multiplier (0.25 … 8). */
  get speed() {
    return this.#player?.speed ?? 1;
  }
  set speed(v) {
    if (this.#player) this.#player.speed = v;
  }
  /** Drawing statistics, for benchmarks: records, draws, lastDrawMs, maxDrawMs, loadMs, panelMs. */
  get renderStats() {
    return { ...this.#stats };
  }

  // --- lifecycle ---------------------------------------------------------------------------

  connectedCallback() {
    if (!this.#root) {
      this.#build();
      if (this.hasAttribute("predict")) this.#player.setPredict(true); // predict mode from the markup
    }
    this.#readTheme();
    this.#scheme.connect();
    this.#unwatchDisplay = watchDisplay({
      dpr: () => this.#invalidate(),
    });
    this.#resize = new ResizeObserver((entries) => {
      for (const e of entries) {
        if (e.target === this.#ui.latencyCanvas) {
          // Read here, where layout is clean: #drawLatency then needs no layout of the figure
          // (content-visibility: auto skips it while it is off screen).
          const c = this.#ui.latencyCanvas;
          this.#latencySize = { width: c.clientWidth, height: c.clientHeight };
        } else this.#measure();
      }
      this.#invalidate();
    });
    this.#resize.observe(this.#ui.viewport);
    this.#resize.observe(this.#ui.latencyCanvas);
    this.#mutation = observeScriptText(this, () => {
      if (this.#given) return;
      this.#changes.source = true;
      this.#schedule();
    });
    this.#invalidate();
    this.#schedule();
  }

  disconnectedCallback() {
    this.pause();
    this.#resize?.disconnect();
    this.#mutation?.disconnect();
    this.#unwatchDisplay?.();
    this.#unwatchDisplay = null;
    this.#scheme.disconnect();
    this.#paint.cancel();
  }

  attributeChangedCallback(name, oldValue, newValue) {
    if (oldValue === newValue || name === "inspector") return; // read when a record is opened
    if (name === "theme") return this.#scheme.update();
    if (name === "compact") return this.#compactChanged();
    if (name === "presenter") return this.#presenterChanged();
    if (name === "predict") return this.#player?.setPredict(this.hasAttribute("predict"));
    if (this.#changes.attribute(name)) this.#schedule();
  }

  /** Coalesces attribute changes into one update in a microtask. */
  #schedule = microtaskUpdater(() => this.#update(), () => this.isConnected);

  async #update() {
    if (!this.#root) return;
    if (this.#changes.source) {
      const stepFromAttr = this.#changes.takeSource();
      const ok = await this.#load();
      if (!ok) return;
      const n = this.steps;
      const at = this.#openAt === "end" ? n - 1 : stepFromAttr ? stepAttribute(this, n - 1) : 0;
      this.#openAt = null;
      this.#setStep(at, { follow: true });
      return;
    }
    if (this.#changes.takeStep() && this.#report) this.#setStep(stepAttribute(this, this.steps - 1), { follow: true });
  }

  // --- loading and running -----------------------------------------------------------------

  async #load() {
    const token = ++this.#loadToken;
    const { viewport, error } = this.#ui;
    viewport.setAttribute("aria-busy", "true");
    error.textContent = "";
    let text = null;
    let full = null; // the script as given, when only the lines before its error ran
    let partial = null; // that error
    let report = this.#given;
    const t0 = performance.now();
    try {
      if (!report) {
        text = await scenarioSource(this);
        await ready();
        if (token !== this.#loadToken) return false;
        const run = eoslab.runTxnScenario;
        if (typeof run !== "function") throw new Error("pkg/eoslab.js has no runTxnScenario: rebuild pkg/ (make pkg)");
        const options = {};
        const sabotage = this.getAttribute("sabotage");
        if (sabotage) options.sabotage = sabotage;
        const tv = this.getAttribute("transaction-version");
        if (tv !== null && tv.trim() !== "") {
          if (!/^\s*[012]\s*$/.test(tv)) throw new Error(`transaction-version "${tv}": must be 0, 1 or 2 (or absent: the script's own)`);
          options.transactionVersion = Number(tv);
        }
        try {
          report = Object.keys(options).length ? run(text, options) : run(text);
        } catch (err) {
          // A mistake in the script: show the steps before its line (issue 14), with the error.
          const before = linesBeforeError(text, err instanceof Error ? err.message : String(err));
          if (before === null) throw err;
          try {
            report = Object.keys(options).length ? run(before, options) : run(before);
          } catch {
            throw err;
          }
          partial = err instanceof Error ? err.message : String(err);
          full = text;
          text = before; // what ran: a next-step fork starts from it
        }
      }
    } catch (err) {
      if (token !== this.#loadToken) return false;
      return this.#fail(err);
    }
    if (token !== this.#loadToken) return false;
    const runMs = performance.now() - t0;
    try {
      this.#sourceText = text;
      this.#givenText = full;
      this.#report = report;
      this.#story = storySteps(report.steps);
      this.#player?.newRun();
      this.#tl = buildTimeline(report);
      this.#tl.longestLabel = Math.max(0, ...this.#tl.lanes.map((l) => String(l.label).length));
      this.#selected = -1;
      this.#hover = -1;
      this.#stats.records = report.records?.length ?? 0;
      this.#stats.loadMs = performance.now() - t0;
      this.#renderHeader();
      this.#sizeTrack();
      viewport.removeAttribute("aria-busy");
      if (report.error) error.textContent = report.error;
      if (partial) error.textContent = partialNote(partial);
      this.dispatchEvent(
        new TimelineLoadEvent({
          steps: this.steps, records: this.#stats.records, ms: this.#stats.loadMs, runMs, error: partial ?? report.error ?? null,
        }),
      );
      if (!this.steps) {
        this.#renderAll();
        this.#invalidate();
      }
      return this.steps > 0;
    } catch (err) {
      return this.#fail(err);
    }
  }

  #fail(err) {
    const message = err instanceof Error ? err.message : String(err);
    this.#report = null;
    this.#story = [];
    this.#tl = null;
    this.#sourceText = null;
    this.#givenText = null;
    this.#ui.viewport.removeAttribute("aria-busy");
    this.#ui.error.textContent = message;
    this.pause();
    this.#renderHeader();
    this.#renderAll();
    this.#sizeTrack();
    this.#invalidate();
    this.dispatchEvent(new TimelineLoadEvent({ steps: 0, records: 0, ms: 0, runMs: 0, error: message }));
    return false;
  }

  // --- stepping ----------------------------------------------------------------------------

  /** Shows story step `at` (clamped): the state after its line. */
  #setStep(at, { follow = true } = {}) {
    const n = this.steps;
    at = Math.min(n - 1, Math.max(0, at | 0));
    const k = this.#story[at]?.first ?? 0;
    const changed = at !== this.#at || k !== this.#step;
    this.#at = at;
    this.#step = k;
    reflectAttribute(this, "step", String(at));
    const sel = this.#tl?.records[this.#selected];
    if (sel && sel.step > k) this.#selected = -1;
    this.#renderAll();
    if (follow) this.#follow();
    this.#invalidate();
    if (changed || this.#dispatchedStep !== at) {
      this.#dispatchedStep = at;
      this.dispatchEvent(new TimelineStepEvent(at, n));
    }
  }

  /** Shows story step k (0-based). */
  goTo(k) {
    if (!this.#report || !this.steps) return;
    this.#setStep(k);
  }
  stepForward() {
    this.goTo(this.#at + 1);
  }
  stepBack() {
    this.goTo(this.#at - 1);
  }
  get playing() {
    return this.#player?.playing ?? false;
  }
  play() {
    if (this.#report) this.#player?.play();
  }
  pause() {
    this.#player?.pause();
  }

  /** Appends a line to the end of the script and runs it again, showing the new last step. */
  appendStep(line) {
    if (this.#sourceText === null) return;
    const text = this.#sourceText.replace(/\s*$/, "\n") + String(line).trim() + "\n";
    this.pause();
    this.#openAt = "end";
    this.removeAttribute("step");
    this.setAttribute("script", text);
    this.dispatchEvent(new TimelineScriptEvent(text));
  }

  // --- DOM skeleton ------------------------------------------------------------------------

  #build() {
    this.#root = attachStyledShadow(this, styleSheet());
    this.#player = new Player(this, {
      element: "timeline",
      interval: this.#interval,
      question: (k) => this.#question(k),
      exporter: {
        png: async () => ({ name: `${this.#fileBase()}.png`, blob: await this.exportPicture("png") }),
        svg: () => ({ name: `${this.#fileBase()}.svg`, text: this.exportPicture("svg") }),
        script: () => ({ name: `${this.#fileBase()}.eos`, text: this.exportScript() }),
      },
      viewKeys: [
        ["↑ / ↓", "select a record lane (in the lanes)"],
        ["Shift+← / Shift+→ or [ / ]", "previous / next record of the lane"],
        ["Enter", "open the selected record's bytes"],
        ["Esc", "clear the selection"],
      ],
    });
    const ui = this.#player.ui;
    ui.title = h("p", { class: "title", part: "title" });
    ui.about = h("p", { class: "about", part: "about" });
    ui.now = h("div", { class: "now", "aria-live": "polite", part: "narration" });
    ui.error = h("div", { class: "error", role: "alert" });
    ui.canvas = h("canvas", { "aria-hidden": "true" });
    ui.track = h("div", { class: "track" }, ui.canvas);
    ui.viewport = h("div", {
      class: "viewport", tabindex: "0", role: "group", part: "lanes",
      "aria-roledescription": "swimlanes",
      "aria-label": "Lanes: ←/→ step, ↑/↓ select a record lane, Shift+←/→ previous/next record, Enter opens its bytes",
    }, ui.track);
    ui.lanes = h("div", { class: "lanes" }, ui.viewport);
    ui.detail = h("div", { class: "detail", "aria-live": "polite", hidden: true, part: "detail" });
    ui.hint = h("p", { class: "hint" }, "Click a record, marker or delivery (or select one with ↑/↓ and Shift+←/→, then Enter) to open its bytes in the Batch Inspector.");
    ui.state = h("div", { class: "state", part: "state", role: "region", "aria-label": "State after this step" });
    ui.invariantList = h("ul");
    ui.invariantSummary = h("p");
    ui.invariantsWhich = h("span", { class: "sr-only" }); // " (transaction.version N)": two timelines on a page, unique landmarks
    ui.invariants = h("section", { class: "invariants", part: "invariants", "aria-labelledby": "inv-title" },
      h("p", { class: "state-title", id: "inv-title" }, "Invariants", ui.invariantsWhich), ui.invariantSummary, ui.invariantList);
    ui.panels = h("div", { class: "panels" }, ui.state, ui.invariants);
    ui.next = nextStepsGroup(this);
    // Commit latency against partitions touched (report.completions), when the run completes ≥ 2
    // transactions: a plot (aria-hidden: the table below it is the accessible source of truth).
    ui.latencyCanvas = h("canvas", { class: "latency-plot", "aria-hidden": "true" });
    ui.latencyCaption = h("figcaption");
    ui.latencyNote = h("p", { class: "latency-note" });
    ui.latencyBody = h("tbody");
    ui.latencyCols = [h("col"), h("col"), h("col"), h("col")]; // widths set for a long table (#layoutLatencyTable)
    ui.latencyTable = h("table", { class: "latency-table" },
      h("caption", { class: "sr-only" }, "Completed transactions: partitions touched and model ms from EndTxn to Complete"),
      h("colgroup", {}, ui.latencyCols),
      h("thead", {}, h("tr", {},
        h("th", { scope: "col" }, "txn"), h("th", { scope: "col" }, "partitions"),
        h("th", { scope: "col" }, "ms EndTxn→Complete"), h("th", { scope: "col" }, "completed at"))),
      ui.latencyBody);
    ui.latency = h("figure", { class: "latency", part: "latency", hidden: true, "aria-labelledby": "latency-title" },
      h("p", { class: "state-title", id: "latency-title" }, "Commit latency by partitions touched"),
      h("div", { class: "plot-row" }, h("div", { class: "plot" }, ui.latencyCanvas), ui.latencyTable),
      ui.latencyNote, ui.latencyCaption);
    ui.summary = h("p", { class: "summary" });
    ui.features = h("p", { class: "features" });
    ui.dialog = h("dialog", { "aria-labelledby": "record-title" });
    this.#root.append(ui.title, ui.about, ui.controls, ui.quiz, ui.now, ui.error, ui.lanes, ui.detail, ui.hint, ui.next, h("div", { class: "panels-box" }, ui.panels), ui.latency, ui.summary, ui.features, ui.dialog, ui.keymap);
    this.#ui = ui;

    const openFromButton = (ev) => {
      const b = ev.target instanceof Element ? ev.target.closest("button[data-record]") : null;
      if (b) this.openRecord(Number(b.dataset.record));
    };
    ui.now.addEventListener("click", openFromButton);
    ui.detail.addEventListener("click", openFromButton);
    ui.viewport.addEventListener("scroll", () => this.#invalidate(), { passive: true });
    ui.viewport.addEventListener("keydown", (ev) => this.#onViewportKey(ev));
    ui.viewport.addEventListener("focus", () => this.#invalidate());
    ui.viewport.addEventListener("blur", () => this.#invalidate());
    ui.canvas.addEventListener("mousemove", (ev) => {
      const r = this.#recordAtEvent(ev);
      ui.canvas.style.cursor = r >= 0 ? "pointer" : "default";
      if (r !== this.#hover) {
        this.#hover = r;
        this.#invalidate();
      }
    });
    ui.canvas.addEventListener("mouseleave", () => {
      this.#hover = -1;
      this.#invalidate();
    });
    ui.canvas.addEventListener("click", (ev) => {
      const r = this.#recordAtEvent(ev);
      if (r < 0) return;
      this.#select(r);
      this.openRecord(r);
    });
  }

  /**
   * Predict, then reveal (lib/player.js): the question for story step k — the first answer a
   * producer gets at that step (from the coordinator or a partition leader) — or null when no
   * producer is answered. The choices are the model's possible answers: those of this run, then
   * the coordinator's usual ones.
   */
  #question(k) {
    const g = this.#story[k];
    const s = g && this.#report?.steps[g.first];
    const answerOf = (m) => m.error ?? /\bresponse ([A-Z][A-Z_]+)\b/.exec(m.text)?.[1] ?? null;
    const toProducer = (m) => /^producer:/.test(m.to) && m.kind === "response" && answerOf(m);
    const m = (s?.messages ?? []).find(toProducer);
    if (!m) return this.#invariantQuestion(g, s) ?? this.#fetchQuestion(g, s);
    const seen = this.#report.steps.flatMap((x) => x.messages ?? []).filter(toProducer).map(answerOf);
    const request = /^(\w+) response/.exec(m.text)?.[1] ?? "request";
    return {
      prompt: `${s.text}: what does ${this.#laneLabel(m.from)} answer ${this.#laneLabel(m.to)}'s ${request}?`,
      answer: answerOf(m),
      choices: choicesFor(answerOf(m), [...seen, ...TXN_ANSWERS]),
      rule: m.rule,
      sentence: m.text,
      source: m.source,
    };
  }

  /**
   * A consumer's Fetch at this step: which records does it receive? The choices are what the
   * model's own log answers to the same Fetch read three ways — read_committed with the aborted
   * list (what Kafka's consumer returns, rule R1), every record below the LSO (aborted ones kept:
   * a consumer that ignored the aborted list), every record below the HW (read_uncommitted) — and
   * nothing at all.
   */
  #fetchQuestion(g, s) {
    const r = this.#report;
    const m = (s?.messages ?? []).find((x) => x.kind === "Fetch" && /^consumer:/.test(x.from) && /^partition:/.test(x.to));
    if (!m) return null;
    const part = m.to.slice("partition:".length);
    const from = Number(/\bfrom (\d+)/.exec(m.text)?.[1]);
    const p = (s.state?.partitions ?? []).find((x) => x.lane === m.to);
    if (!Number.isInteger(from) || !p) return null;
    const list = (vals) => (vals.length ? vals.join(", ") : "nothing");
    const got = (r.deliveries ?? []).filter((d) => d.consumer === m.from && d.partition === part && d.step === g.first).map((d) => d.value ?? "null");
    const below = (end) => r.records
      .filter((x) => x.partition === part && x.kind === "data" && x.step <= g.first && x.offset >= from && x.offset < end)
      .flatMap((x) => x.values.map((v) => v ?? "null"));
    const answer = list(got);
    const choices = [...new Set([answer, list(below(p.lso)), list(below(p.hw)), "nothing"])];
    if (choices.length < 2) return null;
    const c = (s.state?.consumers ?? []).find((x) => x.lane === m.from);
    const who = this.#laneLabel(m.from);
    return {
      prompt: `${s.text}: which records does ${who}${c && !who.includes(c.isolation) ? ` (${c.isolation})` : ""} receive from ${part}, reading from offset ${from}?`,
      answer,
      choices: choices.sort(),
      rule: m.rule,
      sentence: `${m.text} (HW ${p.hw}, LSO ${p.lso}${(p.aborted ?? []).length ? `; aborted: ${p.aborted.map((a) => `${a.firstOffset}..${a.lastOffset}`).join(", ")}` : ""})`,
      source: m.source,
    };
  }

  /** A step after which an invariant changes (holds → broken, or back): does it still hold? */
  #invariantQuestion(g, s) {
    const before = g.first > 0 ? this.#report.steps[g.first - 1]?.invariants ?? [] : [];
    const was = new Map(before.map((i) => [i.name, i.holds]));
    const inv = (s?.invariants ?? []).find((i) => was.has(i.name) && was.get(i.name) !== i.holds);
    if (!inv) return null;
    const say = (holds) => (holds ? "it still holds" : "it is broken");
    return {
      prompt: `${s.text}: does the invariant “${inv.name}” (${inv.detail}) hold after this step?`,
      answer: say(inv.holds),
      choices: [say(false), say(true)].sort(),
      rule: inv.name,
      sentence: inv.holds ? `${inv.name} holds again: ${inv.detail}` : `${inv.name} is broken: ${inv.detail}`,
      source: null, // an invariant of the model (named properties), not a rule of Kafka's code
    };
  }

  /** The caption of an exported picture: the scenario, the step and the Kafka line. */
  get caption() {
    const r = this.#report;
    const g = this.#story[this.#at];
    const s = g && r?.steps[g.first];
    const where = s ? `step ${this.#at + 1} of ${this.#story.length} (line ${s.line}: ${s.text})` : "no steps";
    return `${r?.title || "eoslab scenario"} · ${where} · transactions, Kafka ${r?.kafkaVersion ?? "4.3"}, transaction.version ${r?.transactionVersion ?? "?"} (eoslab)`;
  }

  #fileBase() {
    return `${(this.getAttribute("scenario") || "timeline").replace(/[^A-Za-z0-9._-]/g, "_")}-step-${this.#at + 1}`;
  }

  /** The view as a picture: "png" resolves to a Blob, "svg" is the SVG text (lib/export.js). */
  exportPicture(kind) {
    const canvas = this.#ui.canvas;
    const th = this.#theme ?? {};
    const opts = { mono: th.mono, bg: th.bg, fg: th.fg };
    if (kind === "png") return pngWithCaption(canvas, this.caption, opts);
    const lanes = (this.#tl?.lanes ?? []).map((l) => ({ name: String(l.label), x: 8, y: l.y + 16 }));
    return svgOf(canvas, this.caption, lanes, opts);
  }

  /**
   * The scenario text that reproduces the view: the script run (at the transaction.version the
   * element forces, as a `feature` line would not: a comment says so) with the step as the
   * `# eoslab step=N` comment that the pages' "Open a scenario file" reads back.
   */
  exportScript() {
    const tv = this.transactionVersion;
    const note = tv === null ? "" : `# eoslab: shown with transaction-version="${tv}" (the cluster line of the script may say otherwise)\n`;
    return `# eoslab step=${this.#at}\n${note}${(this.#sourceText ?? "").replace(/^# eoslab step=\d+\n/, "")}`;
  }

  /** The CSS zoom of the lanes: PRESENTER_ZOOM in presenter mode, else 1. */
  #zoom() {
    return this.hasAttribute("presenter") ? PRESENTER_ZOOM : 1;
  }

  #presenterChanged() {
    this.#player?.syncPresent(); // the button's state (the page may set the attribute)
    this.#measure();
    this.#invalidate();
    requestAnimationFrame(() => {
      this.#measure();
      this.#invalidate();
    });
  }

  #onViewportKey(ev) {
    if (ev.altKey || ev.ctrlKey || ev.metaKey || !this.#tl) return;
    const key = ev.key;
    if ((key === "ArrowLeft" || key === "ArrowRight") && ev.shiftKey) this.#moveInLane(key === "ArrowLeft" ? -1 : 1);
    else if (key === "[" || key === "]") this.#moveInLane(key === "[" ? -1 : 1);
    else if (key === "ArrowUp" || key === "ArrowDown") this.#moveLane(key === "ArrowUp" ? -1 : 1);
    else if (key === "Enter") {
      if (this.#selected < 0) return;
      this.openRecord(this.#selected);
    } else if (key === "Escape") {
      if (this.#selected < 0) return;
      this.#select(-1);
    } else return;
    ev.preventDefault();
  }

  /** Records of a lane visible at the current step (indexes, by offset). */
  #visibleIn(lane) {
    const recs = this.#tl.records;
    return (lane.records ?? []).filter((i) => recs[i].step <= this.#step);
  }

  #moveLane(dir) {
    const tl = this.#tl;
    const lanes = tl.lanes.filter((l) => l.records && this.#visibleIn(l).length);
    if (!lanes.length) return;
    const cur = this.#tl.records[this.#selected];
    let at = cur ? lanes.findIndex((l) => l.id === cur.lane) : -1;
    at = at < 0 ? (dir > 0 ? 0 : lanes.length - 1) : Math.min(lanes.length - 1, Math.max(0, at + dir));
    const vis = this.#visibleIn(lanes[at]);
    let pick = vis[vis.length - 1];
    if (cur) {
      // The record nearest to the current one's offset.
      let best = Infinity;
      for (const i of vis) {
        const d = Math.abs(tl.records[i].offset - cur.offset);
        if (d < best) {
          best = d;
          pick = i;
        }
      }
    }
    this.#select(pick, true);
  }

  #moveInLane(dir) {
    const cur = this.#tl.records[this.#selected];
    if (!cur) return this.#moveLane(1);
    const vis = this.#visibleIn(this.#tl.byId.get(cur.lane));
    const at = vis.indexOf(this.#selected);
    const next = vis[Math.min(vis.length - 1, Math.max(0, at + dir))];
    if (next !== undefined) this.#select(next, true);
  }

  #select(r, scroll = false) {
    this.#selected = r;
    if (scroll && r >= 0) this.#scrollOffsetIntoView(this.#tl.records[r].offset, this.#tl.records[r].lastOffset ?? this.#tl.records[r].offset);
    this.#renderDetail();
    this.#invalidate();
  }

  // --- DOM panels --------------------------------------------------------------------------

  #renderAll() {
    const t0 = performance.now();
    this.#renderControls();
    this.#renderNow();
    this.#renderDetail();
    this.#renderState();
    this.#renderInvariants();
    this.#renderNext();
    this.#renderLatency();
    this.#renderSummary();
    if (this.#factMarks) this.#applyFactMarks();
    this.#stats.panelMs = performance.now() - t0;
  }

  #renderHeader() {
    const r = this.#report;
    this.#ui.title.textContent = r?.title ?? "";
    this.#ui.about.textContent = r?.about ?? "";
    const forced = r && this.#sourceText !== null ? this.transactionVersion : null;
    // The regions' names say which protocol when the page forces one (V1 beside V2: unique landmarks).
    const which = this.transactionVersion === null ? "" : ` (transaction.version ${this.transactionVersion})`;
    this.#ui.state.setAttribute("aria-label", `State after this step${which}`);
    this.#ui.invariantsWhich.textContent = which;
    this.#ui.features.textContent = r
      ? `transaction.version ${r.transactionVersion ?? "?"} (finalized feature level${forced !== null ? `, set by transaction-version="${forced}" whatever the script's cluster line says` : ""})${r.features ? "\n" + r.features : ""}`
      : "";
  }

  #renderControls() {
    this.#player.render((k) => {
      const s = this.#report?.steps?.[this.#story[k]?.first];
      return s ? `step ${k + 1} of ${this.#story.length}: line ${s.line}: ${s.text}` : `step ${k + 1}`;
    });
  }

  #laneLabel(id) {
    return this.#tl?.byId.get(id)?.label ?? id;
  }

  /** The narration of the current step, its messages (numbered as on the canvas) and what it wrote. */
  #renderNow() {
    const { now } = this.#ui;
    const r = this.#report;
    const s = r?.steps?.[this.#step];
    if (!s) {
      now.replaceChildren();
      now.classList.remove("failed-step");
      return;
    }
    const k = this.#step;
    const g = this.#story[this.#at];
    const children = [
      h("p", { class: "now-head" }, `Step ${this.#at + 1} of ${this.#story.length} · `, h("span", { class: "line" }, `line ${s.line}: ${s.text}`),
        s.t ? h("span", { class: "line" }, ` · t=${s.t} ms`) : null),
    ];
    if (s.narration) children.push(h("p", { class: "narration" }, s.narration));
    const checks = storyChecks(r, g);
    now.classList.toggle("failed-step", s.ok === false || checks.some((c) => !c.ok));
    children.push(checksList(checks));
    const broken = (s.invariants ?? []).filter((i) => !i.holds);
    if (broken.length) children.push(h("p", { class: "failed" }, `✗ ${broken.length} invariant${broken.length === 1 ? "" : "s"} broken: ${broken.map((i) => i.name).join("; ")}`));
    const msgs = s.messages ?? [];
    if (msgs.length) {
      const ol = h("ol", { class: "messages", "aria-label": "Messages of this step" });
      for (const m of msgs.slice(0, 40)) {
        const parts = [`${this.#laneLabel(m.from)} → ${this.#laneLabel(m.to)} · ${m.kind}: ${m.text}`];
        if (m.error) parts.push(` · error ${m.error}${Number.isInteger(m.code) ? ` (${m.code})` : ""}`);
        if (m.lost) parts.push(" · LOST");
        const li = h("li", { class: m.lost ? "lost" : m.error ? "error" : "", "data-kind": m.kind }, ...parts);
        if (m.rule) li.append(" ", h("span", { class: "rule", title: "rule id in the team reference" }, m.rule));
        if (m.source) li.append(" ", h("span", { class: "source" }, `Kafka source: ${m.source}`));
        ol.append(li);
      }
      if (msgs.length > 40) ol.append(h("li", {}, `… and ${msgs.length - 40} more`));
      children.push(ol);
    } else {
      children.push(h("p", { class: "about" }, "Nothing goes on the wire at this step."));
    }
    const written = this.#tl?.writtenAt[k] ?? [];
    if (written.length) {
      const div = h("div", { class: "written", role: "group", "aria-label": "Records written at this step" }, h("span", {}, "Written:"));
      for (const i of written.slice(0, MAX_BUTTONS)) {
        const rec = r.records[i];
        div.append(h("button", { type: "button", "data-record": i, "data-kind": rec.kind, title: "open its bytes" }, recordLabel(rec)));
      }
      if (written.length > MAX_BUTTONS) div.append(h("span", {}, `… and ${written.length - MAX_BUTTONS} more`));
      children.push(div);
    }
    now.replaceChildren(...children.filter(Boolean));
  }

  /** The selected record, as text, with a button to open it. */
  #renderDetail() {
    const { detail } = this.#ui;
    const rec = this.#tl?.records[this.#selected];
    if (!rec) {
      detail.hidden = true;
      detail.replaceChildren();
      return;
    }
    detail.hidden = false;
    const status = isMarker(rec) ? rec.kind : recordStatus(rec, this.#step);
    detail.replaceChildren(
      h("span", {}, `${recordLabel(rec)} · pid ${rec.pid} epoch ${rec.epoch} · ${status}` +
        (rec.closedAt !== null && rec.closedAt !== undefined && !isMarker(rec) ? ` (closed at step ${this.#storyNo(rec.closedAt)})` : "") +
        ` · written at step ${this.#storyNo(rec.step)} `),
      h("button", { type: "button", "data-record": this.#selected }, "Open bytes"),
    );
  }

  /** Every lane's state after the current step, as text. */
  #renderState() {
    const { state } = this.#ui;
    const s = this.#report?.steps?.[this.#step];
    if (!s) {
      state.replaceChildren();
      return;
    }
    const st = s.state ?? {};
    const sections = [];
    const kv = (text, cls) => h("p", { class: cls ?? "kv" }, text);
    for (const lane of this.#tl.lanes) {
      const sec = h("section", { "data-lane": lane.id, "data-kind": lane.kind }, h("p", { class: "state-title" }, `${lane.label} · ${lane.kind}`));
      switch (lane.kind) {
        case "producer": {
          const p = (st.producers ?? []).find((x) => x.lane === lane.id);
          if (!p) {
            sec.append(kv("no state", "about"));
            break;
          }
          sec.append(kv(`transactional.id ${p.transactionalId ?? "—"} · protocol ${p.protocol ?? "?"}`));
          sec.append(h("p", { class: "kv", "data-field": "state" }, "state ", h("span", { class: /ERROR/.test(p.state) ? "bad" : "" }, p.state)));
          sec.append(kv(`producer id ${p.pid} · epoch ${p.epoch}`));
          const seqs = p.sequences ?? [];
          if (seqs.length) sec.append(kv(`next sequence: ${seqs.map(([part, n]) => `${part} ${n}`).join(", ")}`));
          if (p.outcome) sec.append(h("p", { class: "kv", "data-field": "outcome" }, "outcome ", h("span", { class: "warn" }, p.outcome)));
          if (p.error) sec.append(h("p", { class: "kv" }, "error ", h("span", { class: "bad" }, p.error)));
          if (p.fenced) sec.append(kv("fenced: a newer instance with the same transactional.id took over", "bad"));
          if (p.crashed) sec.append(kv("crashed (the process is gone)", "bad"));
          break;
        }
        case "coordinator": {
          const c = st.coordinator;
          if (!c) {
            sec.append(kv("no state", "about"));
            break;
          }
          sec.append(kv(`coordinator epoch ${c.epoch}`));
          const txns = c.txns ?? [];
          const ul = h("ul", { "aria-label": "transactions" });
          for (const t of txns.slice(0, 8)) {
            ul.append(h("li", { "data-txn": t.transactionalId },
              `${t.transactionalId}${Number.isInteger(t.partition) ? ` (__transaction_state-${t.partition})` : ""}: ${t.state}${t.pendingState ? ` → ${t.pendingState}` : ""} · pid ${t.pid} epoch ${t.epoch}` +
              ` · partitions [${(t.partitions ?? []).join(", ")}] · timeout ${t.timeoutMs} ms` +
              (t.lastProducerEpoch >= 0 ? ` · lastProducerEpoch ${t.lastProducerEpoch}` : "") +
              (t.prevProducerId >= 0 ? ` · prevProducerId ${t.prevProducerId}` : "") +
              (t.nextProducerId >= 0 ? ` · nextProducerId ${t.nextProducerId}` : "")));
          }
          if (txns.length > 8) ul.append(h("li", {}, `… and ${txns.length - 8} more`));
          if (!txns.length) ul.append(h("li", {}, "no transactional ids"));
          sec.append(ul);
          const pm = c.pendingMarkers ?? [];
          if (pm.length) sec.append(kv(`markers not yet written: ${pm.join("; ")}`, "warn"));
          break;
        }
        case "partition": {
          const p = (st.partitions ?? []).find((x) => x.lane === lane.id);
          if (p) {
            sec.append(kv(`log end ${p.logEnd} · HW ${p.hw} · LSO ${p.lso}`));
            if (p.lso < p.hw) sec.append(kv(`an open transaction holds the LSO at ${p.lso}: read_committed consumers stop there`, "warn"));
            // The leader's producer state (ProducerStateEntry per producer id) and its
            // transaction index (AbortedTxn), as text.
            const prods = p.producers ?? [];
            if (prods.length) {
              const ul = h("ul", { "aria-label": `producer state of ${p.name}` });
              for (const e of prods.slice(0, 8)) {
                const batches = (e.batches ?? []).map(([f, l, o, lo]) => `${f}..${l}@${o}${lo !== o ? `..${lo}` : ""}`).join(", ");
                ul.append(h("li", { "data-producer": String(e.producerId) },
                  `producer ${e.producerId} · epoch ${e.epoch} · last seq ${e.lastSequence}` +
                  ` · batches [${batches}]` +
                  (e.coordinatorEpoch >= 0 ? ` · coordinator epoch ${e.coordinatorEpoch}` : "") +
                  (e.txnFirstOffset !== null && e.txnFirstOffset !== undefined ? ` · open transaction from ${e.txnFirstOffset}` : "")));
              }
              if (prods.length > 8) ul.append(h("li", {}, `… and ${prods.length - 8} more`));
              sec.append(ul);
            }
            const ab = p.aborted ?? [];
            if (ab.length) {
              sec.append(kv(`transaction index: ${ab.slice(-6).map((a) => `producer ${a.producerId} aborted ${a.firstOffset}..${a.lastOffset} (LSO ${a.lastStableOffset})`).join("; ")}`));
            }
          } else sec.append(kv("no state", "about"));
          break;
        }
        case "offsets": {
          const list = st.offsets ?? [];
          if (!list.length) sec.append(kv("no group offsets", "about"));
          const ul = h("ul", { "aria-label": "group offsets" });
          for (const o of list.slice(0, 10)) {
            ul.append(h("li", {}, `${o.group} (generation ${o.generation}) ${o.partition}: committed ${o.committed ?? "—"}` +
              (o.pending !== null && o.pending !== undefined ? ` · pending ${o.pending} (in an open transaction)` : "")));
          }
          if (list.length) sec.append(ul);
          break;
        }
        case "consumer": {
          const c = (st.consumers ?? []).find((x) => x.lane === lane.id);
          if (!c) {
            sec.append(kv("no state", "about"));
            break;
          }
          sec.append(kv(`${c.isolation}${Number.isInteger(c.generation) ? ` · generation ${c.generation}` : ""} · received ${c.received}`));
          sec.append(kv(`positions: ${(c.positions ?? []).map((p) => `${p.partition} @${p.position}`).join(", ") || "none"}`));
          let last = [];
          for (const list of lane.deliveries.values()) for (const d of list) if (d.step <= this.#step) last.push(d);
          if (last.length) {
            last.sort((a, b) => a.step - b.step || a.offset - b.offset);
            last = last.slice(-8);
            const tag = (d) => (this.#tl.records[d.record] && recordStatus(this.#tl.records[d.record], this.#step) === "aborted" ? " ABORTED" : "");
            sec.append(kv(`last received: ${last.map((d) => `${d.value ?? "null"} (${d.partition}@${d.offset}${tag(d)})`).join(", ")}`));
          }
          break;
        }
        case "external": {
          const eff = this.#tl.effects.filter((e) => e.step <= this.#step);
          const dup = eff.filter((e) => e.duplicate).length;
          sec.append(kv(`${eff.length} effect${eff.length === 1 ? "" : "s"}${dup ? ` · ${dup} duplicate${dup === 1 ? "" : "s"}` : ""}`, dup ? "bad" : "kv"));
          if (eff.length) sec.append(kv(`last: ${eff.slice(-5).map((e) => `${e.name}${e.key ? " " + e.key : ""}${e.duplicate ? " (duplicate)" : ""}`).join(", ")}`));
          break;
        }
        default:
          break;
      }
      sections.push(sec);
    }
    const metrics = Object.entries(st.metrics ?? {});
    if (metrics.length) {
      // The counters as the Java client and the brokers name them, with what this step added.
      const before = this.#step > 0 ? (this.#report.steps[this.#step - 1]?.state?.metrics ?? {}) : {};
      const rows = metrics.map(([k, v]) => {
        const delta = Number(v) - Number(before[k] ?? 0);
        return h("tr", { "data-metric": k, "data-value": String(v) },
          h("th", { scope: "row" }, k),
          h("td", { class: "num" }, String(v)),
          h("td", { class: "num delta" }, Number.isFinite(delta) && delta !== 0 ? `${delta > 0 ? "+" : ""}${delta}` : ""));
      });
      sections.push(h("section", { class: "metrics", "data-kind": "metrics" },
        h("table", { class: "metrics" },
          h("caption", {}, "Metrics after this step"),
          h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "name"), h("th", { scope: "col" }, "value"), h("th", { scope: "col" }, "this step"))),
          h("tbody", {}, rows))));
    }
    state.replaceChildren(...sections);
  }

  #renderInvariants() {
    const { invariantList, invariantSummary } = this.#ui;
    const list = this.#report?.steps?.[this.#step]?.invariants ?? [];
    const broken = list.filter((i) => !i.holds).length;
    invariantSummary.textContent = !this.#report ? "" : !list.length ? "none checked at this step" : broken ? `${broken} of ${list.length} broken` : `all ${list.length} hold`;
    invariantList.replaceChildren(
      ...list.map((inv) =>
        h("li", { class: inv.holds ? "holds" : "broken", "data-holds": String(!!inv.holds), "data-name": inv.name },
          h("span", { class: "verdict" }, inv.holds ? "✓ holds" : "✗ BROKEN"),
          h("span", { class: "name" }, inv.name),
          inv.detail ? h("span", { class: "detail-text" }, inv.detail) : null),
      ),
    );
  }

  #renderNext() {
    const { next } = this.#ui;
    const r = this.#report;
    const canAppend = !!r && !this.readOnly && this.#sourceText !== null;
    const label = this.#at < this.steps - 1 ? "After the last step:" : "What can happen next:";
    const c = this.#nextCache;
    // The buttons depend on the run only: rebuilt when it changes, the label follows the step.
    if (c.report !== r || c.canAppend !== canAppend || !c.label) {
      const buttons = (r?.nextSteps ?? []).map(nextStepButton);
      c.report = r;
      c.canAppend = canAppend;
      c.label = h("span", { class: "label" }, label);
      next.hidden = !canAppend || buttons.length === 0;
      next.replaceChildren(c.label, ...buttons);
    } else if (c.label.textContent !== label) {
      c.label.textContent = label;
    }
  }

  /** How many of report.completions are shown at the current step: all of them when their steps are unknown. */
  #latencyCount() {
    const all = this.#report?.completions ?? [];
    const at = this.#tl?.completionSteps ?? null;
    if (!at) return all.length;
    if (this.#tl.completionsInOrder) return lowerBound(at, this.#step + 1, (s) => s);
    return -1; // not a prefix: see #latencyIndexes
  }

  /** The indexes (into report.completions) of the completions shown at the current step. */
  #latencyIndexes() {
    const count = this.#latencyCount();
    if (count >= 0) return Array.from({ length: count }, (_, i) => i);
    const at = this.#tl.completionSteps;
    const out = [];
    at.forEach((s, i) => {
      if (s <= this.#step) out.push(i);
    });
    return out;
  }

  /** The completions shown at the current step: [{n, partitions, ms, step}] (step null when unknown). */
  #latencyPoints() {
    const all = this.#report?.completions ?? [];
    const at = this.#tl?.completionSteps ?? null;
    return this.#latencyIndexes().map((i) => ({ n: i + 1, partitions: Number(all[i].partitions), ms: Number(all[i].ms), step: at ? at[i] : null }));
  }

  /** Row i of the latency table (built once per run; "(this step)" and now-row set by #markLatencyRow). */
  #latencyRow(i) {
    const rows = this.#latency.rows;
    if (!rows[i]) {
      const c = this.#report.completions[i];
      const step = this.#tl?.completionSteps?.[i] ?? null;
      const p = { partitions: Number(c.partitions), ms: Number(c.ms) };
      rows[i] = h("tr", { "data-partitions": p.partitions, "data-ms": p.ms },
        h("th", { scope: "row" }, `#${i + 1}`),
        h("td", { class: "num", "data-col": "partitions" }, String(p.partitions)),
        h("td", { class: "num", "data-col": "ms" }, String(p.ms)),
        h("td", { "data-col": "step" }, step === null ? "—" : `step ${this.#storyNo(step)}`));
    }
    return rows[i];
  }

  #markLatencyRow(i, now) {
    const tr = this.#latencyRow(i);
    const step = this.#tl.completionSteps[i];
    if (now) tr.className = "now-row";
    else tr.removeAttribute("class");
    tr.lastChild.textContent = `step ${this.#storyNo(step)}${now ? " (this step)" : ""}`;
  }

  /**
   * A long latency table (hundreds of completions) gets fixed column widths, wide enough for the
   * longest value of the run: with the automatic table layout every row added or removed while
   * stepping would measure every cell of the table again.
   */
  #layoutLatencyTable() {
    const { latencyTable, latencyCols } = this.#ui;
    const all = this.#report?.completions ?? [];
    if (all.length < LONG_LATENCY_TABLE) {
      latencyTable.classList.remove("fixed");
      latencyTable.style.removeProperty("width");
      for (const col of latencyCols) col.style.removeProperty("width");
      return;
    }
    const digits = (xs) => xs.reduce((m, x) => Math.max(m, String(x).length), 1);
    const lastStep = (this.#tl?.completionSteps ?? []).reduce((m, s) => Math.max(m, s), 0);
    // In characters of the table's monospace font, at least the header's; each cell has .5rem of padding.
    const chars = [
      Math.max(4, digits([all.length]) + 1),
      Math.max(10, digits(all.map((c) => c.partitions))),
      Math.max(18, digits(all.map((c) => c.ms))),
      Math.max(12, `step ${this.#storyNo(lastStep)} (this step)`.length),
    ];
    latencyCols.forEach((col, i) => (col.style.width = `calc(${chars[i]}ch + .5rem)`));
    latencyTable.style.width = `calc(${chars.reduce((a, b) => a + b, 0)}ch + 2rem)`;
    latencyTable.classList.add("fixed");
  }

  /**
   * The latency figure's text: one table row per completion so far, the note and the caption. The
   * rows are built once per run and the body is kept in step with the current step by appending or
   * removing rows at its end (the completions so far are a prefix when their steps are in order).
   */
  #renderLatency() {
    const { latency, latencyBody, latencyNote, latencyCaption } = this.#ui;
    const all = this.#report?.completions ?? [];
    const L = this.#latency;
    if (L.report !== this.#report || L.source !== this.#sourceText) {
      L.report = this.#report;
      L.source = this.#sourceText;
      L.rows = [];
      L.lo = 0;
      L.shown = -1;
      L.marked = [];
      L.caption = null;
      this.#layoutLatencyTable();
    }
    if (all.length < 2) {
      latency.hidden = true;
      if (L.shown !== 0) latencyBody.replaceChildren();
      L.shown = 0;
      return;
    }
    latency.hidden = false;
    const k = this.#step;
    const at = this.#tl?.completionSteps ?? null;
    for (const i of L.marked) if (L.rows[i]) this.#markLatencyRow(i, false);
    L.marked = [];
    const count = this.#latencyCount();
    let shown;
    if (count >= 0 && L.shown >= 0) {
      // The completions so far are a prefix; the table shows its last MAX_LATENCY_ROWS rows,
      // [lo, count): rows leave and join at either end as the window moves.
      const lo = Math.max(0, count - MAX_LATENCY_ROWS);
      if (lo >= L.shown || count <= L.lo) {
        // No overlap with what is shown: build the window afresh.
        const frag = document.createDocumentFragment();
        for (let i = lo; i < count; i++) frag.append(this.#latencyRow(i));
        latencyBody.replaceChildren(frag);
      } else {
        for (let i = L.lo; i < lo; i++) L.rows[i]?.remove();
        for (let i = count; i < L.shown; i++) L.rows[i]?.remove();
        if (lo < L.lo) {
          const frag = document.createDocumentFragment();
          for (let i = lo; i < L.lo; i++) frag.append(this.#latencyRow(i));
          latencyBody.prepend(frag);
        }
        if (L.shown < count) {
          const frag = document.createDocumentFragment();
          for (let i = L.shown; i < count; i++) frag.append(this.#latencyRow(i));
          latencyBody.append(frag);
        }
      }
      L.lo = lo;
      L.shown = count;
      shown = count;
      if (at) for (let i = count - 1; i >= lo && at[i] >= k; i--) if (at[i] === k) L.marked.push(i);
    } else {
      const idx = this.#latencyIndexes();
      latencyBody.replaceChildren(...idx.slice(-MAX_LATENCY_ROWS).map((i) => this.#latencyRow(i)));
      // With a prefix (count ≥ 0) what is shown is the window [count - MAX, count).
      L.lo = Math.max(0, count - MAX_LATENCY_ROWS);
      L.shown = count >= 0 ? count : -1;
      shown = idx.length;
      if (at) for (const i of idx.slice(-MAX_LATENCY_ROWS)) if (at[i] === k) L.marked.push(i);
    }
    for (const i of L.marked) this.#markLatencyRow(i, true);
    const listed = shown > MAX_LATENCY_ROWS ? ` The table lists the latest ${MAX_LATENCY_ROWS}; the plot shows them all.` : "";
    latencyNote.textContent =
      (at
        ? `${shown} of ${all.length} transactions complete by step ${this.#at + 1}.`
        : `All ${all.length} transactions of the run (the report does not say at which step each completed).`) + listed;
    if (L.caption === null) {
      const c = clusterCosts(this.#sourceText ?? "");
      L.caption =
        "x: partitions the transaction touched; y: milliseconds from EndTxn to CompleteCommit/CompleteAbort in the model's time. " +
        "The coordinator sends one WriteTxnMarkers entry per partition (one request per broker, each marker an acks=all append) " +
        "and calls the transaction complete only when every marker is written. The costs are the model's inputs, " +
        `cluster rtt=${c.rtt} append=${c.append} brokers=${c.brokers}` +
        (this.#sourceText === null ? " unless the script set others" : "") +
        ", not measurements: the shape is the lesson, not the numbers.";
    }
    if (latencyCaption.textContent !== L.caption) latencyCaption.textContent = L.caption;
  }

  /** The latency plot: x partitions, y ms, axes fixed to the whole run, the points so far joined by a line. */
  #drawLatency() {
    const { latency, latencyCanvas: canvas } = this.#ui;
    if (latency.hidden) {
      this.#latencySize = null;
      return;
    }
    // The canvas's size as the ResizeObserver last saw it; measured here only before it has.
    this.#latencySize ??= { width: canvas.clientWidth, height: canvas.clientHeight };
    const { width, height } = this.#latencySize;
    if (width <= 0 || height <= 0) {
      this.#latencySize = null;
      return;
    }
    const { width: bw, height: bh } = backingSize(width, height);
    // The plot changes with the completions shown and the one of this step, not with scrolling:
    // redraw only when that (or the size, the theme, the run) changes. A software canvas is
    // rasterized when the frame is committed, so an unchanged redraw is not free.
    const count = this.#latencyCount();
    const at = this.#tl?.completionSteps;
    const nowAt = at && count >= 0 && count > 0 && at[count - 1] === this.#step ? this.#step : -1;
    const key = count >= 0 ? `${count}:${nowAt}:${bw}x${bh}:${width}x${height}` : null;
    if (key !== null && key === this.#latencyPlotKey && this.#latencyPlotFor.report === this.#report && this.#latencyPlotFor.theme === this.#theme &&
        canvas.width === bw && canvas.height === bh) return;
    this.#latencyPlotKey = key ?? "";
    this.#latencyPlotFor = { report: this.#report, theme: this.#theme };
    const { ctx } = hidpiContext(canvas, width, height);
    const th = this.#theme;
    ctx.fillStyle = th.bg;
    ctx.fillRect(0, 0, width, height);
    const all = this.#report.completions;
    const xTicks = niceTicks(Math.max(...all.map((c) => Number(c.partitions))));
    const yTicks = niceTicks(Math.max(...all.map((c) => Number(c.ms))));
    const xMax = xTicks[xTicks.length - 1];
    const yMax = yTicks[yTicks.length - 1];
    const m = { left: 44, right: 14, top: 22, bottom: 34 };
    const pw = width - m.left - m.right;
    const ph = height - m.top - m.bottom;
    const X = (v) => m.left + (v / xMax) * pw;
    const Y = (v) => m.top + ph - (v / yMax) * ph;
    // Grid, axes, tick labels and axis titles.
    ctx.font = `10px ${th.mono}`;
    ctx.lineWidth = 1;
    ctx.strokeStyle = th.border;
    ctx.fillStyle = th.muted;
    ctx.beginPath();
    for (const v of yTicks) {
      ctx.moveTo(m.left, Math.round(Y(v)) + 0.5);
      ctx.lineTo(m.left + pw, Math.round(Y(v)) + 0.5);
    }
    ctx.stroke();
    ctx.strokeStyle = th.muted;
    ctx.beginPath();
    ctx.moveTo(m.left + 0.5, m.top);
    ctx.lineTo(m.left + 0.5, m.top + ph + 0.5);
    ctx.lineTo(m.left + pw, m.top + ph + 0.5);
    for (const v of xTicks) {
      ctx.moveTo(Math.round(X(v)) + 0.5, m.top + ph);
      ctx.lineTo(Math.round(X(v)) + 0.5, m.top + ph + 4);
    }
    ctx.stroke();
    ctx.textAlign = "right";
    ctx.textBaseline = "middle";
    for (const v of yTicks) ctx.fillText(String(v), m.left - 5, Y(v));
    ctx.textAlign = "center";
    ctx.textBaseline = "top";
    for (const v of xTicks) ctx.fillText(String(v), X(v), m.top + ph + 6);
    ctx.font = `11px ${th.mono}`;
    ctx.fillStyle = th.fg;
    ctx.textAlign = "right";
    ctx.textBaseline = "alphabetic";
    ctx.fillText("partitions touched →", m.left + pw, height - 3);
    ctx.textAlign = "left";
    ctx.fillText("ms EndTxn→Complete", 4, 13);
    // The completions so far, by partitions (chronological among equals), joined by a line.
    const points = this.#latencyPoints().sort((a, b) => a.partitions - b.partitions || a.n - b.n);
    if (!points.length) {
      ctx.fillStyle = th.muted;
      ctx.textAlign = "center";
      ctx.textBaseline = "middle";
      ctx.fillText("no transaction has completed yet", m.left + pw / 2, m.top + ph / 2);
      return;
    }
    ctx.strokeStyle = th.accent;
    ctx.lineWidth = 1.5;
    ctx.beginPath();
    let px = NaN;
    let py = NaN;
    points.forEach((p, i) => {
      const x = X(p.partitions);
      const y = Y(p.ms);
      if (x === px && y === py) return; // a zero-length segment adds nothing to the line
      if (i) ctx.lineTo(x, y);
      else ctx.moveTo(x, y);
      px = x;
      py = y;
    });
    ctx.stroke();
    // Equal points are one circle (drawn where the last of them is drawn): thousands of
    // transactions with the same cost are one dot, not thousands of overlapping arcs to rasterize.
    const lastAt = new Map();
    points.forEach((p, i) => lastAt.set(`${p.partitions}:${p.ms}:${p.step === this.#step}`, i));
    for (const [i, p] of points.entries()) {
      if (lastAt.get(`${p.partitions}:${p.ms}:${p.step === this.#step}`) !== i) continue;
      const now = p.step === this.#step;
      ctx.fillStyle = now ? th.bg : th.accent;
      ctx.strokeStyle = th.accent;
      ctx.lineWidth = 2;
      ctx.beginPath();
      ctx.arc(X(p.partitions), Y(p.ms), now ? 5 : 3.5, 0, Math.PI * 2);
      ctx.fill();
      ctx.stroke();
    }
    // The last point's values, as on the table (the table is the accessible copy).
    const last = points.reduce((a, b) => (b.n > a.n ? b : a));
    ctx.font = `bold 10px ${th.mono}`;
    ctx.fillStyle = th.fg;
    ctx.textBaseline = "bottom";
    const label = `${last.partitions} → ${last.ms} ms`;
    const lx = X(last.partitions);
    ctx.textAlign = lx > m.left + pw - ctx.measureText(label).width - 8 ? "right" : "left";
    ctx.fillText(label, lx + (ctx.textAlign === "right" ? -7 : 7), Y(last.ms) - 4);
  }

  #renderSummary() {
    const { summary } = this.#ui;
    const r = this.#report;
    if (!r) {
      this.#summaryFor = null;
      summary.textContent = "";
      return;
    }
    if (this.#summaryFor === r) return; // the same run: the same text
    this.#summaryFor = r;
    const checks = (r.steps ?? []).filter((s) => /^expect\b/.test(s.text)).length;
    const failed = (r.failures ?? []).length;
    let text = checks ? (failed ? `${failed} of ${checks} expectations fail. ` : `All ${checks} expectations hold. `) : failed ? `${failed} expectations fail. ` : "";
    text += `The model follows Kafka ${r.kafkaVersion ?? "4.3"}.`;
    if (r.outsideModel) text += ` Outside the model: ${r.outsideModel}`;
    summary.textContent = text;
  }

  // --- batch inspector ---------------------------------------------------------------------

  /** Opens record `idx` (an index into report.records) in a dialog: <kafka-batch> when available. */
  async openRecord(idx) {
    const rec = this.#report?.records?.[idx];
    if (!rec) return;
    this.dispatchEvent(new TimelineOpenEvent({ record: idx, label: recordLabel(rec), hex: rec.hex }));
    const target = this.getAttribute("inspector");
    const external = target ? this.ownerDocument.getElementById(target) : null;
    if (external && external.localName === "kafka-batch") {
      // The page's own Batch Inspector shows it.
      external.setAttribute("hex", rec.hex);
      external.dataset.record = String(idx);
      external.scrollIntoView?.({ block: "nearest" });
      return;
    }
    let batch = null;
    try {
      batch = eoslab.decode(rec.hex).batches?.[0] ?? null;
    } catch {
      batch = null;
    }
    const hd = batch?.header;
    const rows = hd
      ? [["baseOffset", hd.baseOffset], ["lastOffset", hd.lastOffset], ["producerId", hd.producerId], ["producerEpoch", hd.producerEpoch],
         ["baseSequence", hd.baseSequence], ["transactional", hd.attributes?.transactional], ["control", hd.attributes?.control],
         ["crcValid", hd.crcValid]]
      : [["offset", range(rec.offset, rec.lastOffset ?? rec.offset)], ["producerId", rec.pid], ["producerEpoch", rec.epoch], ["transactional", rec.transactional]];
    if (batch?.control) rows.push(["marker", `${batch.control.type} (coordinatorEpoch ${batch.control.coordinatorEpoch})`]);
    rows.push(["status", isMarker(rec) ? rec.kind : recordStatus(rec, this.#step)]);
    if (!isMarker(rec) && rec.values?.length) rows.push(["values", rec.values.map((v) => v ?? "null").join(", ")]);
    const title = `${recordLabel(rec)} · written at step ${this.#storyNo(rec.step)}`;
    await showBatchDialog(this.#ui.dialog, { title, rows, hex: rec.hex, hexLabel: "record batch bytes (hex)" });
  }

  // --- drawing -----------------------------------------------------------------------------

  #readTheme() {
    this.#theme = readTheme(this);
    this.#hatch = null;
    const scratch = document.createElement("canvas").getContext("2d");
    if (scratch) {
      scratch.font = `bold 12px ${this.#theme.mono}`;
      const w = scratch.measureText("0123456789abcdef").width / 16;
      if (w > 0) this.#labelCharW = w;
    }
  }

  #measure() {
    this.#width = this.#ui.viewport.clientWidth;
    this.#sizeTrack();
  }

  /** Marks the canvas dirty and draws once in the next animation frame. */
  #invalidate() {
    this.#paint.request();
  }

  /** The compact attribute changed: its CSS hides panels, so the lanes' width may change. */
  #compactChanged() {
    if (!this.#ui || !this.isConnected) return;
    this.#measure();
    this.#invalidate();
  }

  /** Columns: lane labels, the wire (this step's messages), the logs by offset (scrolled). */
  #geometry(width) {
    const narrow = width < 720;
    // Wide enough for the longest lane label in full (bold 12px, measured in #readTheme).
    const gutterW = Math.max(narrow ? 118 : 178, Math.ceil(16 + (this.#tl?.longestLabel ?? 0) * this.#labelCharW));
    const wireW = narrow ? 120 : Math.min(300, Math.max(180, Math.round(width * 0.2)));
    return { gutterW, wireW, logX: gutterW + wireW };
  }

  /** The track's width makes the horizontal scroll range of the log area. */
  #sizeTrack() {
    const { track, viewport } = this.#ui;
    const width = this.#width || viewport.clientWidth;
    const g = this.#geometry(width);
    const content = this.#tl ? g.logX + (this.#tl.maxOffset + 2) * CELL_W : width;
    const w = `${Math.max(width, content)}px`;
    const hgt = `${this.#tl ? this.#tl.height : 80}px`;
    if (track.style.width !== w) track.style.width = w;
    if (track.style.height !== hgt) track.style.height = hgt;
  }

  /** Keeps offsets a..b of the log area in view (minimal scroll). */
  #scrollOffsetIntoView(a, b) {
    const vp = this.#ui.viewport;
    const width = this.#width || vp.clientWidth;
    const g = this.#geometry(width);
    const logW = width - g.logX;
    if (logW <= CELL_W) return;
    const x0 = a * CELL_W;
    const x1 = (b + 1) * CELL_W;
    const left = vp.scrollLeft;
    if (x0 >= left && x1 <= left + logW) return;
    vp.scrollLeft = x1 - x0 > logW || x0 < left ? Math.max(0, x0 - CELL_W) : x1 - logW + CELL_W;
  }

  /** After a step: the records it wrote (or what it delivered) in view. */
  #follow() {
    const tl = this.#tl;
    if (!tl) return;
    if (this.#width <= 0) this.#measure();
    let lo = Infinity;
    let hi = -Infinity;
    for (const i of tl.writtenAt[this.#step] ?? []) {
      const r = tl.records[i];
      lo = Math.min(lo, r.offset);
      hi = Math.max(hi, r.lastOffset ?? r.offset);
    }
    if (lo === Infinity) return;
    this.#scrollOffsetIntoView(lo, Math.min(hi, lo + 8));
  }

  /**
   * Where record `idx` is drawn, in CSS pixels relative to the canvas ({x, y, width, height}), or
   * null when it is not on the canvas at this step (not yet written, or scrolled out of view).
   */
  recordBox(idx) {
    const tl = this.#tl;
    const r = tl?.records[idx];
    const l = r ? tl.byId.get(r.lane) : null;
    if (!r || !l?.rows || r.step > this.#step) return null;
    const ri = Math.max(0, l.rows.findIndex((row) => row.partition === r.partition));
    const { top, ch } = cellBox(l, ri);
    const g = this.#geometry(this.#width);
    const x = g.logX + r.offset * CELL_W - this.#ui.viewport.scrollLeft + 2;
    const w = ((r.lastOffset ?? r.offset) - r.offset + 1) * CELL_W - 4;
    if (x < g.logX || x + w > this.#width) return null;
    return { x, y: top, width: w, height: ch };
  }

  /** Lane index at canvas y. */
  #laneAt(y) {
    for (const l of this.#tl?.lanes ?? []) if (y >= l.y && y < l.y + l.h) return l;
    return null;
  }

  #recordAtEvent(ev) {
    const tl = this.#tl;
    if (!tl) return -1;
    const rect = this.#ui.canvas.getBoundingClientRect();
    const z = this.#zoom(); // the lanes are zoomed in presenter mode: the rect is, the drawing is not
    const x = (ev.clientX - rect.left) / z;
    const y = (ev.clientY - rect.top) / z;
    const g = this.#geometry(this.#width);
    if (x < g.logX) return -1;
    const lane = this.#laneAt(y);
    if (!lane) return -1;
    const off = Math.floor((x - g.logX + this.#ui.viewport.scrollLeft) / CELL_W);
    const find = (l, o, ri = 0) => {
      const list = l?.rows?.[ri]?.records;
      if (!list) return -1;
      const recs = tl.records;
      const at = lowerBound(list, o - 64, (i) => recs[i].offset);
      let hit = -1;
      for (let j = at; j < list.length && recs[list[j]].offset <= o; j++) {
        const r = recs[list[j]];
        if (r.step <= this.#step && o >= r.offset && o <= (r.lastOffset ?? r.offset)) hit = list[j];
      }
      return hit;
    };
    if (lane.rows) {
      let ri = 0;
      for (let i = 0; i < lane.rows.length; i++) if (y >= cellBox(lane, i).top - 6) ri = i;
      return find(lane, off, ri);
    }
    if (lane.kind === "consumer") {
      const row = Math.floor((y - lane.y - 18) / SUBROW_H);
      const part = lane.parts[row];
      return part === undefined ? -1 : find(tl.partitionLane.get(part), off);
    }
    return -1;
  }

  #hatchPattern(ctx) {
    if (this.#hatch) return this.#hatch;
    const c = document.createElement("canvas");
    c.width = 8;
    c.height = 8;
    const x = c.getContext("2d");
    x.strokeStyle = this.#theme.bad;
    x.globalAlpha = 0.55;
    x.lineWidth = 1.5;
    x.beginPath();
    x.moveTo(0, 8);
    x.lineTo(8, 0);
    x.moveTo(-2, 2);
    x.lineTo(2, -2);
    x.moveTo(6, 10);
    x.lineTo(10, 6);
    x.stroke();
    this.#hatch = ctx.createPattern(c, "repeat");
    return this.#hatch;
  }

  #draw() {
    const t0 = performance.now();
    const { canvas, viewport } = this.#ui;
    if (this.#width <= 0) this.#measure();
    const width = this.#width;
    if (width <= 0) return;
    const tl = this.#tl;
    const height = tl ? tl.height : 80;
    const cssW = `${width}px`;
    const cssH = `${height}px`;
    if (canvas.style.width !== cssW) canvas.style.width = cssW;
    if (canvas.style.height !== cssH) canvas.style.height = cssH;
    const { ctx, resized } = hidpiContext(canvas, width, height, this.#zoom());
    if (resized) this.#ctxStyle.reset();
    // Presenter mode: no text under PRESENTER_TEXT_PX on screen, whatever size each label asks for.
    this.#ctxStyle.minFont(this.hasAttribute("presenter") ? presenterMinFont(this.#zoom()) : 0);
    const th = this.#theme;
    this.#ctxStyle.set(ctx, "fillStyle", th.bg);
    ctx.fillRect(0, 0, width, height);
    if (!tl || !this.#report?.steps?.length) {
      this.#ctxStyle.set(ctx, "fillStyle", th.muted);
      this.#ctxStyle.set(ctx, "font", `13px ${th.mono}`);
      this.#ctxStyle.set(ctx, "textBaseline", "middle");
      ctx.fillText(this.#ui.error.textContent ? "No timeline: the script has an error." : "Loading…", 12, 40);
      this.#finishStats(t0);
      return;
    }
    const g = this.#geometry(width);
    const k = this.#step;
    const st = this.#report.steps[k].state ?? {};
    const scrollLeft = viewport.scrollLeft;
    const firstOff = Math.max(0, Math.floor(scrollLeft / CELL_W));
    const lastOff = Math.ceil((scrollLeft + width - g.logX) / CELL_W);
    const xOf = (off) => g.logX + off * CELL_W - scrollLeft;

    // Lane bands and separators.
    tl.lanes.forEach((l, i) => {
      if (i % 2 === 1) {
        this.#ctxStyle.set(ctx, "fillStyle", th.panel);
        ctx.fillRect(0, l.y, width, l.h);
      }
    });
    this.#ctxStyle.set(ctx, "strokeStyle", th.border);
    this.#ctxStyle.set(ctx, "lineWidth", 1);
    ctx.beginPath();
    for (const l of tl.lanes) {
      ctx.moveTo(0, Math.round(l.y) + 0.5);
      ctx.lineTo(width, Math.round(l.y) + 0.5);
    }
    ctx.moveTo(g.gutterW + 0.5, 0);
    ctx.lineTo(g.gutterW + 0.5, height);
    ctx.moveTo(g.logX + 0.5, 0);
    ctx.lineTo(g.logX + 0.5, height);
    ctx.stroke();

    // The log area (clipped): ruler, cells, pointers.
    ctx.save();
    ctx.beginPath();
    ctx.rect(g.logX + 1, 0, width - g.logX - 1, height);
    ctx.clip();
    this.#drawRuler(ctx, g, firstOff, lastOff, xOf, width);
    const byLane = (list) => new Map((list ?? []).map((x) => [x.lane, x]));
    const parts = byLane(st.partitions);
    const cons = byLane(st.consumers);
    for (const l of tl.lanes) {
      if (l.records) this.#drawRecordLane(ctx, l, firstOff, lastOff, xOf, parts.get(l.id));
      else if (l.kind === "consumer") this.#drawConsumerLane(ctx, l, firstOff, lastOff, xOf, cons.get(l.id));
      else if (l.kind === "external") this.#drawEffects(ctx, l, firstOff, lastOff, xOf);
    }
    ctx.restore();
    this.#ctxStyle.reset();

    // The gutter (lane names and a short state) and the wire (this step's messages).
    this.#drawGutter(ctx, g, st);
    this.#drawWire(ctx, g, this.#report.steps[k].messages ?? []);
    this.#drawLatency();
    if (this.#root.activeElement === viewport) {
      this.#ctxStyle.set(ctx, "strokeStyle", th.accent);
      this.#ctxStyle.set(ctx, "lineWidth", 2);
      ctx.strokeRect(1, 1, width - 2, height - 2);
    }
    this.#finishStats(t0);
  }

  #finishStats(t0) {
    this.#stats.draws++;
    this.#stats.lastDrawMs = performance.now() - t0;
    this.#stats.maxDrawMs = Math.max(this.#stats.maxDrawMs, this.#stats.lastDrawMs);
  }

  #drawRuler(ctx, g, firstOff, lastOff, xOf, width) {
    const th = this.#theme;
    this.#ctxStyle.set(ctx, "fillStyle", th.panel);
    ctx.fillRect(g.logX, 0, width - g.logX, RULER_H);
    this.#ctxStyle.set(ctx, "font", `10px ${th.mono}`);
    this.#ctxStyle.set(ctx, "textBaseline", "middle");
    this.#ctxStyle.set(ctx, "textAlign", "center");
    this.#ctxStyle.set(ctx, "fillStyle", th.muted);
    const digits = String(lastOff).length;
    const every = digits * 6.5 + 6 > CELL_W ? Math.ceil((digits * 6.5 + 6) / CELL_W) : 1;
    for (let o = firstOff - (firstOff % every); o <= lastOff; o += every) ctx.fillText(String(o), xOf(o) + CELL_W / 2, RULER_H / 2);
    this.#ctxStyle.set(ctx, "textAlign", "left");
  }

  #drawRecordLane(ctx, l, firstOff, lastOff, xOf, pstate) {
    const th = this.#theme;
    const tl = this.#tl;
    const recs = tl.records;
    const k = this.#step;
    const partition = l.kind === "partition";
    l.rows.forEach((row, ri) => {
      const { top, ch } = cellBox(l, ri);
      const mid = top + ch / 2;
      const list = row.records;
      const at = lowerBound(list, firstOff - 256, (i) => recs[i].offset);
      // Aborted ranges first (behind the cells).
      for (let j = at; j < list.length; j++) {
        const idx = list[j];
        const r = recs[idx];
        if (r.offset > lastOff + 1) break;
        if (r.kind !== "abort" || r.step > k) continue;
        const from = tl.abortFrom.get(idx) ?? r.offset;
        ctx.fillStyle = this.#hatchPattern(ctx);
        this.#ctxStyle.forget("fillStyle");
        ctx.globalAlpha = 0.5;
        ctx.fillRect(xOf(from), top - 4, (r.offset - from + 1) * CELL_W, ch + 8);
        ctx.globalAlpha = 1;
      }
      this.#ctxStyle.set(ctx, "font", `11px ${th.mono}`);
      this.#ctxStyle.set(ctx, "textBaseline", "middle");
      this.#ctxStyle.set(ctx, "textAlign", "center");
      for (let j = at; j < list.length; j++) {
        const idx = list[j];
        const r = recs[idx];
        if (r.offset > lastOff) break;
        const end = r.lastOffset ?? r.offset;
        if (end < firstOff || r.step > k) continue;
        const x = xOf(r.offset) + 2;
        const w = (end - r.offset + 1) * CELL_W - 4;
        this.#drawCell(ctx, r, x, top, w, ch, mid, k);
        if (r.step === k) {
          // Written at this step.
          this.#ctxStyle.set(ctx, "fillStyle", th.accent);
          ctx.fillRect(x, top + ch + 1, w, 3);
        }
        if (idx === this.#selected || idx === this.#hover) {
          this.#ctxStyle.set(ctx, "strokeStyle", idx === this.#selected ? th.accent : th.fg);
          this.#ctxStyle.set(ctx, "lineWidth", 2);
          ctx.strokeRect(x - 2, top - 2, w + 4, ch + 4);
        }
      }
      this.#ctxStyle.set(ctx, "textAlign", "left");
      if (!partition && l.rows.length > 1) {
        this.#ctxStyle.set(ctx, "font", `9.5px ${th.mono}`);
        this.#ctxStyle.set(ctx, "fillStyle", th.muted);
        this.#ctxStyle.set(ctx, "textBaseline", "alphabetic");
        ctx.fillText(row.partition, xOf(firstOff) + 3, top - 3);
      }
      if (partition && pstate) this.#drawPointers(ctx, l, pstate, xOf, top, ch);
    });
  }

  #drawCell(ctx, r, x, y, w, hgt, mid, k) {
    const th = this.#theme;
    const raw = cellText(r);
    const text = ellipsize(raw, Math.max(1, Math.floor((w - 4) / 6.7)));
    if (isMarker(r)) {
      // Markers: solid, with a notch (a flag) — shape as well as colour.
      const color = r.kind === "commit" ? th.ok : th.bad;
      this.#ctxStyle.set(ctx, "fillStyle", color);
      ctx.beginPath();
      ctx.moveTo(x, y);
      ctx.lineTo(x + w, y);
      ctx.lineTo(x + w - 5, mid);
      ctx.lineTo(x + w, y + hgt);
      ctx.lineTo(x, y + hgt);
      ctx.closePath();
      ctx.fill();
      this.#ctxStyle.set(ctx, "fillStyle", th.bg);
      this.#ctxStyle.set(ctx, "font", `bold 9.5px ${th.mono}`);
      ctx.fillText(ellipsize(raw, Math.floor((w - 8) / ((5.8 * this.#ctxStyle.px(9.5)) / 9.5))), x + (w - 4) / 2, mid);
      this.#ctxStyle.set(ctx, "font", `11px ${th.mono}`);
      return;
    }
    const status = r.kind === "txn-log" ? "log" : recordStatus(r, k);
    let stroke = th.border;
    let fill = th.bg;
    let dash = false;
    if (status === "committed") {
      stroke = th.ok;
    } else if (status === "aborted") {
      stroke = th.bad;
    } else if (status === "open") {
      stroke = th.warn;
      dash = true;
    } else if (status === "log") {
      stroke = th.accent;
    }
    this.#ctxStyle.set(ctx, "fillStyle", fill);
    ctx.fillRect(x, y, w, hgt);
    if (status === "committed" || status === "open") {
      ctx.globalAlpha = 0.16;
      this.#ctxStyle.set(ctx, "fillStyle", stroke);
      ctx.fillRect(x, y, w, hgt);
      ctx.globalAlpha = 1;
    } else if (status === "aborted") {
      ctx.fillStyle = this.#hatchPattern(ctx);
      this.#ctxStyle.forget("fillStyle");
      ctx.fillRect(x, y, w, hgt);
    }
    this.#ctxStyle.set(ctx, "strokeStyle", stroke);
    this.#ctxStyle.set(ctx, "lineWidth", status === "open" ? 1.5 : 1);
    if (dash) ctx.setLineDash([4, 3]);
    ctx.strokeRect(x + 0.5, y + 0.5, w - 1, hgt - 1);
    if (dash) ctx.setLineDash([]);
    this.#ctxStyle.set(ctx, "fillStyle", status === "aborted" ? th.bad : th.fg);
    const lines = r.kind === "txn-log" && raw.length * 6.7 > w - 4 && hgt >= 22 ? TXN_LINES[raw] : null;
    if (lines && lines.length === 2) {
      this.#ctxStyle.set(ctx, "font", `9.5px ${th.mono}`);
      const cw = (5.9 * this.#ctxStyle.px(9.5)) / 9.5;
      ctx.fillText(ellipsize(lines[0], Math.floor((w - 2) / cw)), x + w / 2, mid - 6);
      ctx.fillText(ellipsize(lines[1], Math.floor((w - 2) / cw)), x + w / 2, mid + 6);
      this.#ctxStyle.set(ctx, "font", `11px ${th.mono}`);
    } else {
      ctx.fillText(text, x + w / 2, mid);
    }
    if (status === "aborted") {
      // Struck through: aborted, never returned to read_committed consumers.
      this.#ctxStyle.set(ctx, "strokeStyle", th.bad);
      ctx.beginPath();
      ctx.moveTo(x + 4, mid);
      ctx.lineTo(x + w - 4, mid);
      ctx.stroke();
    }
  }

  /** HW (▲ below the cells), LSO (▼ above), an open transaction's span between them. */
  #drawPointers(ctx, l, p, xOf, top, ch) {
    const th = this.#theme;
    this.#ctxStyle.set(ctx, "font", `bold 9.5px ${th.mono}`);
    this.#ctxStyle.set(ctx, "textBaseline", "middle");
    const tri = (x, y, up, color) => {
      this.#ctxStyle.set(ctx, "fillStyle", color);
      ctx.beginPath();
      if (up) {
        ctx.moveTo(x, y);
        ctx.lineTo(x - 5, y + 7);
        ctx.lineTo(x + 5, y + 7);
      } else {
        ctx.moveTo(x, y);
        ctx.lineTo(x - 5, y - 7);
        ctx.lineTo(x + 5, y - 7);
      }
      ctx.closePath();
      ctx.fill();
    };
    const hwX = xOf(p.hw);
    const lsoX = xOf(p.lso);
    if (p.lso < p.hw) {
      this.#ctxStyle.set(ctx, "strokeStyle", th.warn);
      this.#ctxStyle.set(ctx, "lineWidth", 1.5);
      ctx.setLineDash([3, 3]);
      ctx.beginPath();
      ctx.moveTo(lsoX, top - 6);
      ctx.lineTo(hwX, top - 6);
      ctx.stroke();
      ctx.setLineDash([]);
    }
    tri(lsoX, top - 1, false, th.dup);
    this.#ctxStyle.set(ctx, "fillStyle", th.dup);
    ctx.fillText(p.lso < p.hw ? "LSO · open txn" : "LSO", lsoX + 7, l.y + 6);
    tri(hwX, top + ch + 6, true, th.accent);
    this.#ctxStyle.set(ctx, "fillStyle", th.accent);
    ctx.fillText("HW", hwX + 7, top + ch + 12);
    if (p.logEnd !== p.hw) {
      const x = xOf(p.logEnd);
      this.#ctxStyle.set(ctx, "strokeStyle", th.muted);
      this.#ctxStyle.set(ctx, "lineWidth", 1);
      ctx.beginPath();
      ctx.moveTo(x, top);
      ctx.lineTo(x, top + ch);
      ctx.stroke();
      this.#ctxStyle.set(ctx, "fillStyle", th.muted);
      ctx.fillText("LEO", x + 3, top + ch + 12);
    }
  }

  #drawConsumerLane(ctx, l, firstOff, lastOff, xOf, c) {
    const th = this.#theme;
    const k = this.#step;
    this.#ctxStyle.set(ctx, "font", `11px ${th.mono}`);
    this.#ctxStyle.set(ctx, "textBaseline", "middle");
    l.parts.forEach((part, row) => {
      const y = l.y + 18 + row * SUBROW_H;
      const mid = y + (SUBROW_H - 4) / 2;
      const list = l.deliveries.get(part) ?? [];
      const at = lowerBound(list, firstOff, (d) => d.offset);
      this.#ctxStyle.set(ctx, "textAlign", "center");
      for (let j = at; j < list.length; j++) {
        const d = list[j];
        if (d.offset > lastOff) break;
        if (d.step > k) continue;
        const x = xOf(d.offset) + 4;
        const w = CELL_W - 8;
        const rec = this.#tl.records[d.record];
        const status = rec ? recordStatus(rec, k) : "plain";
        const color = status === "aborted" ? th.bad : status === "committed" ? th.ok : status === "open" ? th.warn : th.fg;
        this.#ctxStyle.set(ctx, "fillStyle", d.step === k ? th.accent : color);
        ctx.globalAlpha = d.step === k ? 0.25 : 0.12;
        ctx.fillRect(x, y, w, SUBROW_H - 4);
        ctx.globalAlpha = 1;
        if (status === "aborted") {
          // An aborted record in a consumer's hands: hatched and struck through, as in the log.
          ctx.fillStyle = this.#hatchPattern(ctx);
          this.#ctxStyle.forget("fillStyle");
          ctx.fillRect(x, y, w, SUBROW_H - 4);
        }
        this.#ctxStyle.set(ctx, "strokeStyle", color);
        this.#ctxStyle.set(ctx, "lineWidth", status === "aborted" ? 2 : 1);
        if (status === "open") ctx.setLineDash([4, 3]);
        ctx.strokeRect(x + 0.5, y + 0.5, w - 1, SUBROW_H - 5);
        if (status === "open") ctx.setLineDash([]);
        this.#ctxStyle.set(ctx, "fillStyle", status === "aborted" ? th.bad : th.fg);
        ctx.fillText(ellipsize(d.value === null ? "∅" : String(d.value), Math.floor((w - 4) / 6.7)), x + w / 2, mid);
        if (status === "aborted") {
          this.#ctxStyle.set(ctx, "lineWidth", 1);
          ctx.beginPath();
          ctx.moveTo(x + 4, mid);
          ctx.lineTo(x + w - 4, mid);
          ctx.stroke();
        }
      }
      this.#ctxStyle.set(ctx, "textAlign", "left");
      const pos = c?.positions?.find((p) => p.partition === part)?.position;
      if (pos !== undefined && pos !== null) {
        const x = xOf(pos);
        this.#ctxStyle.set(ctx, "fillStyle", th.accent);
        ctx.beginPath();
        ctx.moveTo(x + 1, y - 1);
        ctx.lineTo(x + 8, mid);
        ctx.lineTo(x + 1, y + SUBROW_H - 3);
        ctx.closePath();
        ctx.fill();
        ctx.fillText(`${part} pos ${pos}`, x + 10, mid);
      }
    });
    this.#ctxStyle.set(ctx, "fillStyle", th.muted);
    this.#ctxStyle.set(ctx, "font", `10px ${th.mono}`);
    ctx.fillText(c?.isolation ?? "", xOf(firstOff) + 4, l.y + 9);
  }

  #drawEffects(ctx, l, firstOff, lastOff, xOf) {
    const th = this.#theme;
    const k = this.#step;
    const effects = this.#tl.effects;
    const top = l.y + 7;
    const hgt = l.h - 14;
    this.#ctxStyle.set(ctx, "font", `11px ${th.mono}`);
    this.#ctxStyle.set(ctx, "textBaseline", "middle");
    this.#ctxStyle.set(ctx, "textAlign", "center");
    for (let i = firstOff; i <= Math.min(lastOff, effects.length - 1); i++) {
      const e = effects[i];
      if (e.step > k) break;
      const x = xOf(i) + 2;
      const w = CELL_W - 4;
      this.#ctxStyle.set(ctx, "fillStyle", e.duplicate ? th.bad : th.dup);
      ctx.globalAlpha = e.duplicate ? 0.3 : 0.15;
      ctx.beginPath();
      ctx.arc(x + w / 2, top + hgt / 2, Math.min(w, hgt) / 2, 0, Math.PI * 2);
      ctx.fill();
      ctx.globalAlpha = 1;
      this.#ctxStyle.set(ctx, "strokeStyle", e.duplicate ? th.bad : th.dup);
      this.#ctxStyle.set(ctx, "lineWidth", e.duplicate ? 2 : 1);
      ctx.stroke();
      this.#ctxStyle.set(ctx, "fillStyle", e.duplicate ? th.bad : th.fg);
      ctx.fillText(ellipsize(e.duplicate ? `2×${e.key ?? e.name}` : e.key ?? e.name, Math.floor((w - 2) / 6.7)), x + w / 2, top + hgt / 2);
    }
    this.#ctxStyle.set(ctx, "textAlign", "left");
  }

  #drawGutter(ctx, g, st) {
    const th = this.#theme;
    const cols = Math.floor((g.gutterW - 12) / 6.6);
    const labelCols = Math.floor((g.gutterW - 12) / this.#labelCharW);
    let truncated = 0;
    this.#ctxStyle.set(ctx, "textBaseline", "alphabetic");
    this.#ctxStyle.set(ctx, "textAlign", "left");
    this.#ctxStyle.set(ctx, "font", `10px ${th.mono}`);
    this.#ctxStyle.set(ctx, "fillStyle", th.muted);
    ctx.fillText("lane", 8, 15);
    ctx.fillText(`messages of step ${this.#at + 1}`, g.gutterW + 8, 15);
    const find = (list, id) => (list ?? []).find((x) => x.lane === id);
    for (const l of this.#tl.lanes) {
      this.#ctxStyle.set(ctx, "font", `bold 12px ${th.mono}`);
      this.#ctxStyle.set(ctx, "fillStyle", th.fg);
      if (String(l.label).length > labelCols) truncated++;
      ctx.fillText(ellipsize(l.label, labelCols), 8, l.y + 16);
      let line2 = l.kind;
      let line3 = "";
      let warn = false;
      if (l.kind === "producer") {
        const p = find(st.producers, l.id);
        if (p) {
          line2 = `${p.state}`;
          line3 = `pid ${p.pid} e${p.epoch}${p.outcome ? ` · ${p.outcome}` : ""}${p.fenced ? " · fenced" : ""}${p.crashed ? " · crashed" : ""}`;
          warn = !!p.outcome || /ERROR/.test(p.state) || !!p.fenced || !!p.crashed;
        }
      } else if (l.kind === "coordinator") {
        const c = st.coordinator;
        const t = c?.txns?.[0];
        line2 = c ? `coordinator e${c.epoch}` : "coordinator";
        if (t) line3 = `${t.state}${t.pendingState ? "→" + t.pendingState : ""}${c.txns.length > 1 ? ` +${c.txns.length - 1}` : ""}`;
      } else if (l.kind === "partition") {
        const p = find(st.partitions, l.id);
        if (p) line3 = `HW ${p.hw} LSO ${p.lso}`;
        warn = !!p && p.lso < p.hw;
      } else if (l.kind === "offsets") {
        const o = (st.offsets ?? [])[0];
        if (o) line3 = `${o.partition}: ${o.committed ?? "—"}${o.pending !== null && o.pending !== undefined ? ` (${o.pending}?)` : ""}`;
      } else if (l.kind === "consumer") {
        const c = find(st.consumers, l.id);
        if (c) {
          line2 = c.isolation;
          line3 = `received ${c.received}`;
        }
      } else if (l.kind === "external") {
        line2 = "external effects";
      }
      this.#ctxStyle.set(ctx, "font", `10.5px ${th.mono}`);
      this.#ctxStyle.set(ctx, "fillStyle", th.muted);
      if (l.h >= 36) ctx.fillText(ellipsize(line2, cols), 8, l.y + 29);
      if (line3 && l.h >= 44) {
        this.#ctxStyle.set(ctx, "fillStyle", warn ? th.warn : th.muted);
        ctx.fillText(ellipsize(line3, cols), 8, l.y + 41);
      }
    }
    this.#stats.truncatedLabels = truncated;
  }

  /** This step's messages: numbered vertical arrows between lane centres. */
  #drawWire(ctx, g, msgs) {
    const th = this.#theme;
    const tl = this.#tl;
    if (!msgs.length) {
      this.#ctxStyle.set(ctx, "font", `11px ${th.mono}`);
      this.#ctxStyle.set(ctx, "fillStyle", th.muted);
      this.#ctxStyle.set(ctx, "textBaseline", "middle");
      ctx.fillText("(no messages)", g.gutterW + 10, RULER_H + 18);
      return;
    }
    const pad = 14;
    const n = Math.min(msgs.length, 40);
    const spacing = n > 1 ? Math.min(34, (g.wireW - 2 * pad) / (n - 1)) : 0;
    const centre = (id) => {
      const l = tl.byId.get(id);
      return l ? l.y + l.h / 2 : null;
    };
    this.#ctxStyle.set(ctx, "font", `bold 9.5px ${th.mono}`);
    this.#ctxStyle.set(ctx, "textBaseline", "middle");
    this.#ctxStyle.set(ctx, "textAlign", "center");
    for (let j = 0; j < n; j++) {
      const m = msgs[j];
      const x = g.gutterW + pad + j * spacing;
      const y1 = centre(m.from);
      const y2 = centre(m.to);
      if (y1 === null || y2 === null) continue;
      const color = m.lost || m.error ? th.bad : m.kind === "response" ? th.ok : m.kind === "effect" ? th.dup : th.fg;
      this.#ctxStyle.set(ctx, "strokeStyle", color);
      this.#ctxStyle.set(ctx, "fillStyle", color);
      this.#ctxStyle.set(ctx, "lineWidth", 1.5);
      if (y1 === y2) {
        // A lane acting on itself (a coordinator's log write): a loop.
        ctx.beginPath();
        ctx.arc(x + 10, y1, 6, Math.PI * 1.1, Math.PI * 0.9);
        ctx.stroke();
        ctx.beginPath();
        ctx.moveTo(x + 5, y1 + 4);
        ctx.lineTo(x + 3, y1 + 9);
        ctx.lineTo(x + 8.5, y1 + 8);
        ctx.closePath();
        ctx.fill();
      } else if (m.lost) {
        const ym = (y1 + y2) / 2;
        ctx.setLineDash([4, 3]);
        ctx.beginPath();
        ctx.moveTo(x, y1);
        ctx.lineTo(x, ym);
        ctx.stroke();
        ctx.setLineDash([]);
        this.#ctxStyle.set(ctx, "lineWidth", 2);
        cross(ctx, x, ym, 5);
      } else {
        const dir = y2 > y1 ? 1 : -1;
        ctx.beginPath();
        ctx.moveTo(x, y1);
        ctx.lineTo(x, y2 - dir * 2);
        ctx.stroke();
        ctx.beginPath();
        ctx.moveTo(x, y2);
        ctx.lineTo(x - 4.5, y2 - dir * 8);
        ctx.lineTo(x + 4.5, y2 - dir * 8);
        ctx.closePath();
        ctx.fill();
      }
      // The number, as in the narration's list.
      this.#ctxStyle.set(ctx, "fillStyle", th.bg);
      ctx.beginPath();
      ctx.arc(x, y1, 7, 0, Math.PI * 2);
      ctx.fill();
      this.#ctxStyle.set(ctx, "lineWidth", 1);
      ctx.stroke();
      this.#ctxStyle.set(ctx, "fillStyle", color);
      ctx.fillText(String(j + 1), x, y1 + 0.5);
    }
    this.#ctxStyle.set(ctx, "textAlign", "left");
  }
}

reflectAttributes(KafkaTimelineElement, { scenario: String, readOnly: Boolean });

if (globalThis.customElements) KafkaTimelineElement.define();
