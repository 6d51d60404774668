// <kafka-ladder>: a scenario of the idempotence model drawn as a ladder (sequence diagram).
//
// One lane per producer (the client side) and one per partition leader; every event of the run
// is a row: sends, Produce requests as arrows from the producer to the leader (the rungs, labelled
// with batch, sequence range and epoch), the leader's decision where a request arrives (outcome,
// error name and code, the rule id and its sentence; the Kafka source file on hover and on
// keyboard selection), responses back to the producer, lost messages ending in a cross. Below the
// ladder: the leader's retained window per producer (the last 5 batches) and the client's batches
// after the current step, and one button per action the model allows next.
//
//   <kafka-ladder scenario="lost-response-retry"></kafka-ladder>    scenarios/<name>.eos
//   <kafka-ladder script="partition p&#10;producer app&#10;send app p x"></kafka-ladder>
//   <kafka-ladder>partition p
//   producer app
//   send app p x</kafka-ladder>                                       the text content
//
// Attributes (the source of truth; `script` wins over `scenario`, which wins over the text):
//   scenario   name of a built-in scenario, loaded from ../scenarios/<name>.eos next to this module
//   script     the scenario text (or its JSON twin, starting with "{")
//   step       the story step shown, 0..steps-1, or "end" (reflected; default: 0, the first). A story
//              step is a script line that does something with the `expect` lines after it, which
//              are shown as its checks (lib/player.js)
//   presenter  presenter mode (lib/player.js: fills the window, large type, the ladder zoomed)
//   readonly   no next-step buttons (stepping still works)
//   theme      "light" | "dark" | "auto" (default: the page's MkDocs / Docusaurus flag, else the OS; lib/theme.js)
//   compact    for a documentation column: controls, narration and ladder only (lane names never cut)
// Events (bubbling, composed): `kafka-ladder:step` {step, steps}; `kafka-ladder:script` {script}
// when a next-step button forked the story; `kafka-ladder:load` {steps, rows, ms, error} after
// each run (error: a script error when only the lines before it ran). Each is followed by its
// pre-issue-14 name (eoslab-step, eoslab-script, eoslab-load) with the same detail.
// Keyboard (lib/player.js; `?` lists them): anywhere in the element ←/→ step, Home/End first/last,
// Space play/pause, +/- speed, p presenter mode; in the ladder ↑/↓ select a row, Enter opens its
// batch, Escape clears.
//
// The model is deterministic, so step k is the run of the script's first k steps: the rows come
// from one run of the whole script (revealed step by step), the retained windows, batches and
// next steps from a run of the prefix. The ladder is a canvas (HiDPI, only visible rows drawn,
// redrawn on a dirty flag once per animation frame), with an ordered list of the rows in view as
// its text alternative. Every value reaches the page as text: textContent or fillText, never
// innerHTML.
import { runScenario, decode } from "../pkg/eoslab.js";
import { dispatchWithLegacyName, el as h, lazyStyleSheet } from "./lib/dom.js";
import { SchemeWatcher } from "./lib/theme.js";
import {
  BaseElement, CanvasStyle, ComposedEvent, DIALOG_CSS, DRAWING_TOKENS, NEXT_STEPS_CSS, PlayerChanges,
  attachStyledShadow, cross, defineElement, frameRequester, hidpiContext, hostCSS, microtaskUpdater, nextStepButton,
  nextStepsGroup, observeScriptText, readTheme, ready, reflectAttribute, reflectAttributes, scenarioSource,
  showBatchDialog, stepAttribute, stepValue, watchDisplay, modelDarkSheet, presenterMinFont,
} from "./lib/element.js";
import { pngWithCaption, svgOf } from "./lib/export.js";
import {
  HEADER_H, STEP_H, EVENT_H, LINE_H, MAX_SENTENCE_LINES, MAX_EVENT_LINES, GUTTER_W, TAG_COLS, MIN_TEXT_W,
  FONT_PX, LEADER_ANSWERS, PRESENTER_ZOOM, BUCKET, PREFIX_SYNC_ROWS, ROW_STEP, ROW_EVENT, KIND_LABEL, kindColor,
  formatDuration, wrapText, range, ellipsize, attemptOf, messageOf, splitDecision, rowText, buildLadder,
  parseSource, prefixSource,
} from "./lib/ladder-rows.js";
import { PLAYER_CSS, Player, checksList, choicesFor, linesBeforeError, partialNote, storyChecks, storySteps } from "./lib/player.js";

// What this module exported before its rows moved to lib/ladder-rows.js.
export { PRESENTER_ZOOM, buildLadder, formatDuration, wrapText } from "./lib/ladder-rows.js";

/** The small type of the drawing: time labels, lane roles, decision badges (presenter mode raises it). */
const TIME_PX = 10.5;

export const STEP_EVENT = "kafka-ladder:step";
export const SCRIPT_EVENT = "kafka-ladder:script";
export const LOAD_EVENT = "kafka-ladder:load";
/** The events' names before issue 14 (eoslab-step …): still dispatched, after the new ones, for pages written against them. */
const LEGACY_EVENT = { [STEP_EVENT]: "eoslab-step", [SCRIPT_EVENT]: "eoslab-script", [LOAD_EVENT]: "eoslab-load" };

/** `kafka-ladder:step`: the ladder now shows story step `step` (0-based) of `steps`. */
export class LadderStepEvent extends ComposedEvent {
  constructor(step, steps) {
    super(STEP_EVENT, { step, steps });
  }
}

/** `kafka-ladder:script`: the script changed from inside the element (a next-step button). */
export class LadderScriptEvent extends ComposedEvent {
  constructor(script) {
    super(SCRIPT_EVENT, { script });
  }
}

/** `kafka-ladder:load`: a script was run (or failed: `error`). */
export class LadderLoadEvent extends ComposedEvent {
  constructor(detail) {
    super(LOAD_EVENT, detail);
  }
}

// ---------------------------------------------------------------------------------------------
// Styles (a constructed stylesheet: no inline <style>, so pages with style-src 'self' work)

const CSS = `
${hostCSS(DRAWING_TOKENS)}
:host { --eos-ladder-max-height: 30rem; }
.title { font-weight: 600; margin: 0 0 .2rem; }
.about { margin: 0 0 .5rem; color: var(--eos-muted); font-size: 13px; }
.about:empty, .title:empty { display: none; }
.controls { display: flex; flex-wrap: wrap; gap: .4rem; align-items: center; margin: .25rem 0 .5rem; }
button { font: inherit; font-size: 13px; padding: .2rem .6rem; border: 1px solid var(--eos-border); border-radius: 6px;
         background: var(--eos-panel); color: var(--eos-fg); cursor: pointer; }
button:hover:not(:disabled) { border-color: var(--eos-accent); }
button:disabled { opacity: .45; cursor: default; }
button:focus-visible, .viewport:focus-visible { outline: 2px solid var(--eos-accent); outline-offset: 2px; }
button[aria-pressed="true"] { background: var(--eos-accent); color: var(--eos-bg); border-color: var(--eos-accent); }
.counter { font-variant-numeric: tabular-nums; color: var(--eos-muted); margin-left: .25rem; }
.now { border-left: 3px solid var(--eos-accent); padding: .3rem .6rem; margin: 0 0 .5rem; background: var(--eos-panel);
       border-radius: 0 6px 6px 0; min-height: 2.2rem; }
.now-head { margin: 0; font-weight: 600; }
.now-head .line { font-family: var(--eos-mono); font-weight: normal; font-size: 13px; overflow-wrap: anywhere; }
.now ul { margin: .25rem 0 0; padding-left: 1.1rem; }
.now li { margin: .15rem 0; }
.badge { display: inline-block; font-size: 12px; font-weight: 700; padding: 0 .35rem; border-radius: 4px;
         color: var(--eos-bg); background: var(--eos-muted); margin-right: .3rem; }
.badge.append { background: var(--eos-ok); } .badge.duplicate { background: var(--eos-dup); } .badge.reject { background: var(--eos-bad); }
.code, .rule { font-family: var(--eos-mono); font-size: 12px; }
.rule { border: 1px solid var(--eos-border); border-radius: 4px; padding: 0 .25rem; }
.source { display: block; font-family: var(--eos-mono); font-size: 11.5px; color: var(--eos-muted); overflow-wrap: anywhere; }
.failed { color: var(--eos-bad); font-weight: 600; }
.held { color: var(--eos-ok); }
.ladder { position: relative; }
.viewport { position: relative; overflow-x: hidden; overflow-y: auto; max-height: var(--eos-ladder-max-height);
            border: 1px solid var(--eos-border); border-radius: 6px; background: var(--eos-bg); outline: none; }
.viewport[aria-busy="true"] { opacity: .6; }
canvas { position: sticky; top: 0; display: block; width: 100%; }
/* compact: for a documentation column — the controls, the narration and the ladder. */
:host([compact]) { padding: .5rem; max-width: 100%; }
.viewport.wide { overflow-x: auto; }
:host([compact]) .about, :host([compact]) .hint, :host([compact]) .state, :host([compact]) .summary { display: none; }
.tip { position: absolute; z-index: 2; max-width: min(36rem, 90%); pointer-events: none; padding: .35rem .5rem;
       background: var(--eos-panel); color: var(--eos-fg); border: 1px solid var(--eos-border); border-radius: 6px;
       box-shadow: 0 2px 8px rgb(0 0 0 / .2); font-size: 12.5px; }
.tip[hidden] { display: none; }
.tip .source { margin-top: .2rem; }
.detail { margin: .4rem 0 0; padding: .3rem .6rem; border: 1px dashed var(--eos-border); border-radius: 6px; font-size: 13px; }
.detail[hidden] { display: none; }
.hint { color: var(--eos-muted); font-size: 12px; margin: .3rem 0 0; }
${NEXT_STEPS_CSS}
.state { display: grid; grid-template-columns: repeat(auto-fit, minmax(16rem, 1fr)); gap: .5rem; margin: .6rem 0 0; }
.state section { border: 1px solid var(--eos-border); border-radius: 6px; padding: .35rem .5rem; background: var(--eos-panel); }
.state p { margin: .1rem 0; font-size: 12.5px; color: var(--eos-muted); }
.state p.state-title { margin: 0 0 .2rem; font-size: 13px; font-weight: 600; color: var(--eos-fg); }
.entry { margin: .3rem 0 0; }
.entry-head { font-family: var(--eos-mono); font-size: 12px; }
ol.window { list-style: none; display: grid; grid-template-columns: repeat(5, 1fr); gap: 3px; margin: .15rem 0 0; padding: 0; }
ol.window li { border: 1px solid var(--eos-border); border-radius: 4px; padding: 1px 3px; font-family: var(--eos-mono);
               font-size: 11px; line-height: 1.3; background: var(--eos-bg); min-height: 2.1em; overflow-wrap: anywhere; }
ol.window li.empty { border-style: dashed; color: var(--eos-muted); background: transparent; }
ul.batches { list-style: none; margin: .2rem 0 0; padding: 0; display: flex; flex-wrap: wrap; gap: 3px; }
ul.batches button { font-family: var(--eos-mono); font-size: 11.5px; padding: 0 .3rem; }
.summary { margin: .5rem 0 0; font-size: 12.5px; color: var(--eos-muted); }
.error { color: var(--eos-bad); font-family: var(--eos-mono); font-size: 13px; margin: .3rem 0; white-space: pre-wrap; }
.error:empty { display: none; }
.sr-only { position: absolute; width: 1px; height: 1px; padding: 0; margin: -1px; overflow: hidden; clip: rect(0 0 0 0);
           white-space: nowrap; border: 0; }
${DIALOG_CSS}
${PLAYER_CSS}
:host([presenter]) .ladder { zoom: 1.75; }
:host([presenter]) { --eos-ladder-max-height: calc((100vh - 15rem) / 1.75); }
.now.failed-step { border-left-color: var(--eos-bad); }
`;

const styleSheet = lazyStyleSheet(CSS);

// ---------------------------------------------------------------------------------------------

export class KafkaLadderElement extends BaseElement {
  static define(tag = "kafka-ladder", registry = globalThis.customElements) {
    return defineElement(this, tag, registry);
  }

  static get observedAttributes() {
    return ["scenario", "script", "step", "readonly", "theme", "compact", "presenter", "predict"];
  }

  // state
  #root = null;
  #ui = null;
  #source = null; // {kind, text, value}
  #run = null; // run of the whole script
  #ladder = null; // buildLadder(#run)
  #prefix = new Map(); // k → run of the first k steps
  #step = 0; // report steps shown (the run's first #step script lines): story step #at's last line
  #at = 0; // the story step shown (lib/player.js storySteps)
  #story = []; // storySteps(#run.steps)
  #openAt = null; // "end": the next load shows the last step (a next-step button was pressed)
  #dispatchedStep = -1;
  #loadToken = 0;
  #changes = new PlayerChanges(this);
  #player = null;
  #panelTimer = 0;
  #scrollAfterLoad = "top";
  #mutation = null;
  #resize = null;
  #unwatchDisplay = null;
  #scheme = new SchemeWatcher(this, modelDarkSheet, () => {
    this.#readTheme();
    this.#invalidate(false);
  });

  // drawing
  #theme = null;
  #charW = 7.2;
  #layoutWidth = -1;
  #rowTop = new Float64Array(1);
  #frame = 0;
  #paint = frameRequester(() => this.#draw(), () => this.isConnected);
  #layoutDirty = true;
  #arrowStamp = new Uint32Array(0);
  #hoverRow = -1;
  #selectedRow = -1;
  #srRange = "";
  #srTimer = 0;
  #width = 0; // viewport clientWidth and max-height, read on resize (not per frame: no forced layout)
  #maxHeight = 480;
  #ctxStyle = new CanvasStyle();
  #measuredFont = "";
  #frameCtx = null; // {anchor, revealed, bottomY} of the frame being drawn
  #stats = { rows: 0, draws: 0, lastDrawMs: 0, maxDrawMs: 0, loadMs: 0, layoutMs: 0, truncatedLabels: 0, fontPx: FONT_PX };

  /** Interval between steps while playing at 1×, in ms. */
  get interval() {
    return this.#interval;
  }
  set interval(v) {
    this.#interval = Number(v) || 900;
    if (this.#player) this.#player.interval = this.#interval;
  }
  #interval = 900;

  // --- attributes as properties ------------------------------------------------------------

  // scenario and readOnly: the attributes, defined by reflectAttributes after the class.
  get script() {
    return this.#source?.text ?? this.getAttribute("script") ?? "";
  }
  set script(v) {
    this.setAttribute("script", String(v));
  }
  /** The story step shown (0-based; `expect` lines are checks of the step they follow, not steps). */
  get step() {
    return this.#at;
  }
  set step(v) {
    this.setAttribute("step", stepValue(v));
  }
  /** Number of story steps of the current script. */
  get steps() {
    return this.#story.length;
  }
  /** The story steps: [{first, last, checks}], indexes into run.steps (lib/player.js storySteps). */
  get story() {
    return this.#story;
  }
  /** Play speed multiplier (0.25 … 8). */
  get speed() {
    return this.#player?.speed ?? 1;
  }
  set speed(v) {
    if (this.#player) this.#player.speed = v;
  }
  /** The run of the whole script (as runScenario returns it), or null. */
  get run() {
    return this.#run;
  }
  /** Drawing statistics, for benchmarks: rows, draws, lastDrawMs, maxDrawMs, loadMs, layoutMs. */
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
      dpr: () => this.#invalidate(false),
    });
    this.#resize = new ResizeObserver(() => {
      this.#measure();
      this.#invalidate(false);
    });
    this.#resize.observe(this.#ui.viewport);
    this.#mutation = observeScriptText(this, () => {
      this.#changes.source = true;
      this.#schedule();
    });
    this.#invalidate(true);
    this.#schedule();
  }

  disconnectedCallback() {
    this.pause();
    clearTimeout(this.#panelTimer);
    clearTimeout(this.#srTimer);
    this.#resize?.disconnect();
    this.#mutation?.disconnect();
    this.#unwatchDisplay?.();
    this.#unwatchDisplay = null;
    this.#scheme.disconnect();
    this.#paint.cancel();
  }

  attributeChangedCallback(name, oldValue, newValue) {
    if (oldValue === newValue) return;
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
      const wanted = this.#openAt === "end" ? n - 1 : stepFromAttr ? stepAttribute(this, n - 1) : 0;
      this.#openAt = null;
      // A step other than the first (a link, step="end") is scrolled into view as stepping does.
      const scroll = wanted > 0 ? "step" : this.#scrollAfterLoad;
      this.#scrollAfterLoad = "top";
      this.#setStep(wanted, { scroll });
      return;
    }
    if (this.#changes.takeStep() && this.#run) this.#setStep(stepAttribute(this, this.steps - 1), { scroll: "step" });
  }

  // --- loading and running -----------------------------------------------------------------

  async #load() {
    const token = ++this.#loadToken;
    const { viewport, error } = this.#ui;
    viewport.setAttribute("aria-busy", "true");
    error.textContent = "";
    let text;
    try {
      text = await scenarioSource(this);
      await ready();
    } catch (err) {
      if (token !== this.#loadToken) return false;
      return this.#fail(err);
    }
    if (token !== this.#loadToken) return false;
    const t0 = performance.now();
    try {
      const source = parseSource(text);
      let run;
      let partial = null; // the script error, when only the steps before its line run
      try {
        run = runScenario(source.value);
      } catch (err) {
        // A mistake in the script: show the steps before its line (issue 14), with the error.
        const before = source.kind === "text" ? linesBeforeError(source.text, err instanceof Error ? err.message : String(err)) : null;
        if (before === null) throw err;
        try {
          run = runScenario(before);
        } catch {
          throw err;
        }
        partial = err instanceof Error ? err.message : String(err);
        source.value = before; // what ran: the prefixes and a next-step fork start from it
      }
      const t1 = performance.now();
      this.#source = source;
      this.#run = run;
      this.#story = storySteps(run.steps);
      this.#player?.newRun();
      this.#prefix = new Map([[run.steps.length, run]]);
      this.#ladder = buildLadder(run);
      this.#ladder.timeLabelChars = this.#ladder.rows.reduce((n, r) => Math.max(n, r.timeLabel?.length ?? 0), 0);
      this.#arrowStamp = new Uint32Array(this.#ladder.arrows.length);
      this.#layoutDirty = true;
      this.#measure(); // the lanes' names set the narrowest width
      this.#hoverRow = -1;
      this.#selectedRow = -1;
      this.#stats.rows = this.#ladder.rows.length;
      this.#stats.loadMs = performance.now() - t0;
      this.#renderHeader();
      viewport.removeAttribute("aria-busy");
      if (partial) error.textContent = partialNote(partial);
      this.#emit(
        new LadderLoadEvent({ steps: this.#story.length, rows: this.#ladder.rows.length, ms: this.#stats.loadMs, runMs: t1 - t0, error: partial }),
      );
      return true;
    } catch (err) {
      return this.#fail(err);
    }
  }

  #fail(err) {
    const message = err instanceof Error ? err.message : String(err);
    this.#run = null;
    this.#story = [];
    this.#ladder = null;
    this.#source = null;
    this.#prefix = new Map();
    this.#ui.viewport.removeAttribute("aria-busy");
    this.#ui.error.textContent = message;
    this.pause();
    this.#renderHeader();
    this.#renderControls();
    this.#renderNow();
    this.#renderDetail();
    this.#renderPanels(null);
    this.#invalidate(true);
    this.#emit(new LadderLoadEvent({ steps: 0, rows: 0, ms: 0, runMs: 0, error: message }));
    return false;
  }

  /** The run of the first k steps (cached; the full run is k = steps). */
  #prefixRun(k) {
    const run = this.#run;
    if (!run) return null;
    if (this.#prefix.has(k)) return this.#prefix.get(k);
    let r;
    try {
      r = runScenario(prefixSource(this.#source, run, k));
    } catch (err) {
      this.#ui.error.textContent = `step ${k}: ${err instanceof Error ? err.message : String(err)}`;
      return null;
    }
    if (this.#prefix.size > (this.#stats.rows > 5000 ? 2 : 64)) this.#prefix.delete(this.#prefix.keys().next().value);
    this.#prefix.set(k, r);
    return r;
  }

  // --- stepping ----------------------------------------------------------------------------

  /** Shows story step `at` (clamped): the rows of the script's lines up to its last check. */
  #setStep(at, { scroll = "step" } = {}) {
    const n = this.steps;
    at = Math.min(Math.max(0, n - 1), Math.max(0, at | 0));
    const k = n ? this.#story[at].last + 1 : 0;
    const changed = at !== this.#at || k !== this.#step;
    this.#at = at;
    this.#step = k;
    reflectAttribute(this, "step", String(at));
    if (this.#selectedRow >= this.#revealed()) this.#selectedRow = -1;
    this.#renderControls();
    this.#panelsForStep(k);
    this.#renderNow();
    this.#renderDetail();
    this.#invalidate(false);
    this.#scrollForStep(scroll);
    if (changed || this.#dispatchedStep !== at) {
      this.#dispatchedStep = at;
      this.#emit(new LadderStepEvent(at, n));
    }
  }

  /**
   * The panels need the run of the first k steps. Small prefixes (or cached ones) run at once; a
   * long one (a re-run costs ~30 µs per event) waits until stepping pauses, so stepping and playing
   * through a long script stay responsive while the rows reveal immediately.
   */
  #panelsForStep(k) {
    clearTimeout(this.#panelTimer);
    const rows = this.#ladder?.stepEnd[k] ?? 0;
    if (this.#prefix.has(k) || rows < PREFIX_SYNC_ROWS) {
      this.#renderPanels(this.#prefixRun(k));
      return;
    }
    this.#ui.state.replaceChildren(h("p", { class: "summary" }, `Computing the state after step ${k} …`));
    this.#ui.next.hidden = true;
    this.#panelTimer = setTimeout(() => {
      if (this.#step === k && this.#run) this.#renderPanels(this.#prefixRun(k));
    }, 150);
  }

  /** Dispatches `event`, then its pre-issue-14 name (eoslab-step …) with the same detail. */
  #emit(event) {
    dispatchWithLegacyName(this, event, LEGACY_EVENT[event.type]);
  }

  /** Shows story step k (0-based). */
  goTo(k) {
    if (!this.#run) return;
    this.#setStep(k, { scroll: "step" });
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
    if (this.#run) this.#player?.play();
  }
  pause() {
    this.#player?.pause();
  }

  /** Appends a script line after the current step (later steps are dropped) and runs it. */
  appendStep(line) {
    if (!this.#run || !this.#source || this.#source.kind !== "text") return;
    const base = prefixSource(this.#source, this.#run, this.#step);
    const text = (typeof base === "string" ? base : this.#source.text).replace(/\s*$/, "\n") + String(line).trim() + "\n";
    this.pause();
    this.#scrollAfterLoad = "step";
    this.#openAt = "end";
    this.removeAttribute("step");
    this.setAttribute("script", text);
    this.#emit(new LadderScriptEvent(text));
  }

  // --- DOM skeleton ------------------------------------------------------------------------

  #build() {
    this.#root = attachStyledShadow(this, styleSheet());
    this.#player = new Player(this, {
      element: "ladder",
      interval: this.#interval,
      question: (k) => this.#question(k),
      exporter: {
        png: async () => ({ name: `${this.#fileBase()}.png`, blob: await this.exportPicture("png") }),
        svg: () => ({ name: `${this.#fileBase()}.svg`, text: this.exportPicture("svg") }),
      },
      viewKeys: [["↑ / ↓", "select a row of the ladder (in the ladder)"], ["Enter", "open the selected row's batch"], ["Esc", "clear the selection"]],
    });
    const ui = this.#player.ui;
    ui.title = h("p", { class: "title", part: "title" });
    ui.about = h("p", { class: "about", part: "about" });
    ui.now = h("div", { class: "now", "aria-live": "polite", part: "now" });
    ui.error = h("div", { class: "error", role: "alert" });
    ui.canvas = h("canvas", { "aria-hidden": "true" });
    ui.spacer = h("div", { class: "spacer" });
    ui.viewport = h("div", {
      class: "viewport", tabindex: "0", role: "group", part: "viewport",
      "aria-roledescription": "ladder",
      "aria-label": "Ladder: ↑/↓ select a row, Enter opens its batch, ←/→ step",
    }, ui.canvas, ui.spacer);
    ui.tip = h("div", { class: "tip", role: "tooltip", hidden: true });
    ui.rowsList = h("ol", { class: "sr-only", "aria-label": "Ladder rows in view" });
    ui.ladder = h("div", { class: "ladder" }, ui.viewport, ui.tip, ui.rowsList);
    ui.detail = h("div", { class: "detail", "aria-live": "polite", hidden: true, part: "detail" });
    ui.hint = h("p", { class: "hint" }, "Click a batch (or select a row with ↑/↓ and press Enter) to open its bytes. Hover a decision for its Kafka source.");
    ui.next = nextStepsGroup(this);
    ui.state = h("div", { class: "state", part: "state" });
    ui.summary = h("p", { class: "summary" });
    ui.dialog = h("dialog", { "aria-labelledby": "batch-title" });
    this.#root.append(ui.title, ui.about, ui.controls, ui.quiz, ui.now, ui.error, ui.ladder, ui.detail, ui.hint, ui.next, ui.state, ui.summary, ui.dialog, ui.keymap);
    this.#ui = ui;

    ui.state.addEventListener("click", (ev) => {
      const b = ev.target instanceof Element ? ev.target.closest("button[data-batch]") : null;
      if (b) this.openBatch(Number(b.dataset.batch));
    });
    ui.detail.addEventListener("click", (ev) => {
      const b = ev.target instanceof Element ? ev.target.closest("button[data-batch]") : null;
      if (b) this.openBatch(Number(b.dataset.batch), this.#selectedRow);
    });
    ui.viewport.addEventListener("scroll", () => this.#invalidate(false), { passive: true });
    ui.viewport.addEventListener("keydown", (ev) => this.#onViewportKey(ev));
    ui.viewport.addEventListener("focus", () => this.#invalidate(false));
    ui.viewport.addEventListener("blur", () => this.#invalidate(false));
    ui.canvas.addEventListener("mousemove", (ev) => this.#onPointer(ev));
    ui.canvas.addEventListener("mouseleave", () => {
      this.#hoverRow = -1;
      ui.tip.hidden = true;
      this.#invalidate(false);
    });
    ui.canvas.addEventListener("click", (ev) => {
      const r = this.#rowAtEvent(ev);
      if (r < 0) return;
      this.#selectedRow = r;
      this.#renderDetail();
      this.#invalidate(false);
      const row = this.#ladder.rows[r];
      if (row.type === ROW_EVENT && Number.isInteger(row.e.batch)) this.openBatch(row.e.batch, r);
    });
  }

  /**
   * Predict, then reveal (lib/player.js): the question for story step k — the leader's decision on
   * the first batch it decides at that step — or null when the step decides nothing. The choices
   * are the model's possible answers: the decisions of this run, then the leader's outcomes.
   */
  #question(k) {
    const g = this.#story[k];
    const s = g && this.#run?.steps[g.first];
    const e = s?.events?.find((x) => x.kind === "decision");
    if (!e) return null;
    const label = (x) => (x.outcome === "append" ? "APPEND (NONE)" : x.outcome === "duplicate" ? "DUPLICATE (NONE, the original offsets)" : x.errorName ?? "?");
    const seen = this.#run.steps.flatMap((x) => x.events ?? []).filter((x) => x.kind === "decision").map(label);
    const { sentence } = splitDecision(e);
    return {
      prompt: `${s.text}: what does the leader of ${this.#run.partitions?.[e.partition] ?? "the partition"} decide for b${e.batch}?`,
      answer: label(e),
      choices: choicesFor(label(e), [...seen, ...LEADER_ANSWERS]),
      rule: e.rule,
      sentence: sentence || e.text,
      source: e.source,
    };
  }

  /** The caption of an exported picture: the scenario, the step and the Kafka line. */
  get caption() {
    const run = this.#run;
    const g = this.#story[this.#at];
    const s = g && run?.steps[g.first];
    const where = s ? `step ${this.#at + 1} of ${this.#story.length} (line ${s.line}: ${s.text})` : "no steps";
    return `${run?.title || "eoslab scenario"} · ${where} · idempotent producers, Kafka ${run?.kafkaVersion ?? "4.3"} (eoslab)`;
  }

  #fileBase() {
    return `${(this.getAttribute("scenario") || "ladder").replace(/[^A-Za-z0-9._-]/g, "_")}-step-${this.#at + 1}`;
  }

  /** The view as a picture: "png" resolves to a Blob, "svg" is the SVG text (lib/export.js). */
  exportPicture(kind) {
    const canvas = this.#ui.canvas;
    const th = this.#theme ?? {};
    const opts = { mono: th.mono, bg: th.bg, fg: th.fg };
    if (kind === "png") return pngWithCaption(canvas, this.caption, opts);
    const g = this.#geometry(this.#width);
    const names = this.#ladder ? [...this.#ladder.producers, ...this.#ladder.partitions] : [];
    const lanes = names.map((name, i) => ({ name: String(name), x: g.laneX(i), y: 17, anchor: "middle" }));
    return svgOf(canvas, this.caption, lanes, opts);
  }

  /** The CSS zoom of the ladder: PRESENTER_ZOOM in presenter mode (12 px text drawn at 21 px), else 1. */
  #zoom() {
    return this.hasAttribute("presenter") ? PRESENTER_ZOOM : 1;
  }

  #presenterChanged() {
    this.#player?.syncPresent(); // the button's state (the page may set the attribute)
    this.#measure();
    this.#invalidate(true);
    requestAnimationFrame(() => {
      this.#measure();
      this.#invalidate(true);
    });
  }

  #onViewportKey(ev) {
    if (ev.altKey || ev.ctrlKey || ev.metaKey || !this.#ladder) return;
    const revealed = this.#revealed();
    const move = (r) => {
      if (revealed === 0) return;
      this.#selectedRow = Math.min(revealed - 1, Math.max(0, r));
      this.#scrollRowIntoView(this.#selectedRow);
      this.#renderDetail();
      this.#invalidate(false);
    };
    switch (ev.key) {
      case "ArrowDown":
        move(this.#selectedRow < 0 ? this.#firstVisibleRow() : this.#selectedRow + 1);
        break;
      case "ArrowUp":
        move(this.#selectedRow < 0 ? this.#firstVisibleRow() : this.#selectedRow - 1);
        break;
      case "Enter": {
        const row = this.#ladder.rows[this.#selectedRow];
        if (!row || row.type !== ROW_EVENT || !Number.isInteger(row.e.batch)) return;
        this.openBatch(row.e.batch, this.#selectedRow);
        break;
      }
      case "Escape":
        if (this.#selectedRow < 0) return;
        this.#selectedRow = -1;
        this.#renderDetail();
        this.#invalidate(false);
        break;
      default:
        return;
    }
    ev.preventDefault();
  }

  // --- DOM panels --------------------------------------------------------------------------

  #renderHeader() {
    const run = this.#run;
    this.#ui.title.textContent = run?.title ?? "";
    this.#ui.about.textContent = run?.about ?? "";
  }

  #renderControls() {
    this.#player.render((k) => {
      const g = this.#story[k];
      const s = g && this.#run?.steps[g.first];
      return s ? `step ${k + 1} of ${this.#story.length}: line ${s.line}: ${s.text}` : `step ${k + 1}`;
    });
  }

  /** What the current step did: its line and its decisions (or its events). */
  #renderNow() {
    const { now } = this.#ui;
    const run = this.#run;
    if (!run) {
      now.replaceChildren();
      return;
    }
    const g = this.#story[this.#at];
    if (!g) {
      now.replaceChildren(h("p", { class: "now-head" }, "No steps: the script only sets up partitions and producers."));
      return;
    }
    const s = run.steps[g.first];
    const head = h("p", { class: "now-head" }, `Step ${this.#at + 1} of ${this.#story.length} · `, h("span", { class: "line" }, `line ${s.line}: ${s.text}`));
    const children = [head];
    const events = s.events ?? [];
    const decisions = events.filter((e) => e.kind === "decision");
    const shown = (decisions.length ? decisions : events).slice(0, 4);
    if (shown.length) {
      const list = h("ul");
      for (const e of shown) list.append(e.kind === "decision" ? decisionItem(e) : h("li", {}, `${KIND_LABEL[e.kind] ?? e.kind}: ${e.text}`));
      const rest = (decisions.length ? decisions : events).length - shown.length;
      if (rest > 0) list.append(h("li", { class: "more" }, `… and ${rest} more ${decisions.length ? "decisions" : "events"}`));
      children.push(list);
    } else if (!/^expect\b/.test(s.text)) {
      children.push(h("p", { class: "about" }, "Nothing happens on the wire at this step."));
    }
    children.push(checksList(storyChecks(run, g)));
    now.classList.toggle("failed-step", (g.checks ?? []).some((i) => run.steps[i].ok === false));
    now.replaceChildren(...children.filter(Boolean));
  }

  /** The selected row: its full text, rule, error, source and batch. */
  #renderDetail() {
    const { detail } = this.#ui;
    const row = this.#ladder?.rows[this.#selectedRow];
    if (!row || this.#selectedRow >= this.#revealed()) {
      detail.hidden = true;
      detail.replaceChildren();
      return;
    }
    detail.hidden = false;
    if (row.type === ROW_STEP) {
      detail.replaceChildren(h("span", {}, rowText(this.#run, row)));
      return;
    }
    const e = row.e;
    const parts = [];
    if (e.kind === "decision") parts.push(...decisionItem(e).childNodes);
    else parts.push(h("span", {}, `${KIND_LABEL[e.kind] ?? e.kind}: ${e.text}`));
    if (Number.isInteger(e.batch)) {
      parts.push(" ", h("button", { type: "button", "data-batch": e.batch }, `Open b${e.batch}`));
    }
    detail.replaceChildren(...parts);
  }

  /** Leader windows and client batches after the current step; next-step buttons. */
  #renderPanels(prefix) {
    const { state, next, summary } = this.#ui;
    const run = this.#run;
    if (!run || !prefix) {
      state.replaceChildren();
      next.replaceChildren();
      next.hidden = true;
      summary.textContent = "";
      return;
    }
    const k = this.#step;
    const entries = k > 0 ? run.steps[k - 1].producerEntries ?? [] : [];
    const sections = [];
    (prefix.finalState ?? []).forEach((p, q) => {
      const list = p.producers ?? [];
      const n = entries[q] ?? list.length;
      const sec = h("section", { "data-partition": p.name },
        h("p", { class: "state-title" }, `${p.name} · leader`),
        h("p", {}, `log end offset ${p.logEndOffset} · ${n} producer-state ${n === 1 ? "entry" : "entries"} · retains the last 5 batches per producer`));
      for (const entry of list.slice(0, 4)) {
        const slots = h("ol", { class: "window", "aria-label": `retained batches of producer ${entry.producerId}` });
        const batches = entry.batches ?? [];
        for (let i = 0; i < 5; i++) {
          const b = batches[i];
          slots.append(
            b
              ? h("li", { title: `sequences ${b[0]}..${b[1]} at offsets ${b[2]}..${b[3]}` }, `seq ${range(b[0], b[1])}`, h("br"), `@${range(b[2], b[3])}`)
              : h("li", { class: "empty" }, "empty"),
          );
        }
        sec.append(h("div", { class: "entry", "data-pid": entry.producerId },
          h("div", { class: "entry-head" }, `pid ${entry.producerId} · epoch ${entry.epoch}`), slots));
      }
      if (list.length > 4) sec.append(h("p", {}, `… and ${list.length - 4} more producer ids`));
      if (list.length === 0) sec.append(h("p", {}, "no producer state"));
      sections.push(sec);
    });
    const batches = prefix.batches ?? [];
    (prefix.producers ?? run.producers ?? []).forEach((name, p) => {
      const mine = batches.filter((b) => b.producer === p);
      const latest = mine[mine.length - 1];
      const sec = h("section", { "data-producer": name },
        h("p", { class: "state-title" }, `${name} · producer`),
        h("p", {}, latest ? `pid ${latest.producerId} · epoch ${latest.producerEpoch} (latest batch) · ${mine.length} batch${mine.length === 1 ? "" : "es"}` : "no batches yet"));
      if (mine.length) {
        const ul = h("ul", { class: "batches", "aria-label": `batches of ${name}` });
        for (const b of mine.slice(-6)) {
          const off = b.offsets ? ` @${range(b.offsets[0], b.offsets[1])}` : "";
          ul.append(h("li", {}, h("button", {
            type: "button", "data-batch": b.id,
            title: `open b${b.id}: pid ${b.producerId}, epoch ${b.producerEpoch}, sequences ${b.baseSequence}..${b.lastSequence}, ${b.attempts} attempt(s)`,
          }, `b${b.id} seq ${range(b.baseSequence, b.lastSequence)} e${b.producerEpoch} ${b.state}${off}${b.error ? " " + b.error : ""}`)));
        }
        if (mine.length > 6) ul.prepend(h("li", { class: "about" }, `${mine.length - 6} earlier …`));
        sec.append(ul);
      }
      sections.push(sec);
    });
    state.replaceChildren(...sections);

    const buttons = (prefix.nextSteps ?? []).map(nextStepButton);
    const canAppend = !this.readOnly && this.#source?.kind === "text";
    next.hidden = !canAppend || buttons.length === 0;
    next.replaceChildren(h("span", { class: "label" }, this.#step < this.#run.steps.length ? "What could happen instead:" : "What can happen next:"), ...buttons);

    const checks = run.steps.filter((s) => /^expect\b/.test(s.text)).length;
    const failed = (run.failures ?? []).length;
    summary.textContent =
      (checks ? (failed ? `${failed} of ${checks} expectations fail. ` : `All ${checks} expectations hold. `) : "") +
      `Decisions follow Kafka ${run.kafkaVersion ?? "4.3"}.`;
    if (run.error) summary.textContent += ` ${run.error}`;
  }

  // --- batch inspector ---------------------------------------------------------------------

  /** Opens batch `id` (b1 = 1) in a dialog: <kafka-batch> when available, else its fields and hex. */
  async openBatch(id, rowIndex = -1) {
    const prefix = this.#prefixRun(this.#step) ?? this.#run;
    if (!prefix) return;
    const batch = (prefix.batches ?? []).find((b) => b.id === id) ?? (this.#run.batches ?? []).find((b) => b.id === id);
    if (!batch) return;
    let hex = batch.hex;
    let where = "as the producer sends it";
    const row = this.#ladder?.rows[rowIndex];
    if (row?.type === ROW_EVENT && row.e.kind === "decision" && row.e.outcome === "append" && row.e.offsets) {
      const log = prefix.finalState?.[row.e.partition]?.log ?? [];
      const written = log.find(([base]) => base === row.e.offsets[0]);
      if (written) {
        hex = written[1];
        where = `as the leader wrote it at offset ${written[0]}`;
      }
    }
    let header = null;
    try {
      header = decode(hex).batches?.[0]?.header ?? null;
    } catch {
      header = null;
    }
    const rows = header
      ? [["producerId", header.producerId], ["producerEpoch", header.producerEpoch], ["baseSequence", header.baseSequence],
         ["lastSequence", header.lastSequence], ["baseOffset", header.baseOffset], ["recordsCount", header.recordsCount],
         ["crcValid", header.crcValid]]
      : [["producerId", batch.producerId], ["producerEpoch", batch.producerEpoch], ["baseSequence", batch.baseSequence], ["lastSequence", batch.lastSequence]];
    rows.push(["values", (batch.values ?? []).join(", ")], ["state", `${batch.state}${batch.error ? " (" + batch.error + ")" : ""}, ${batch.attempts} attempt(s)`]);
    const title = `b${id} · ${this.#run.producers[batch.producer] ?? "?"} → ${this.#run.partitions[batch.partition] ?? "?"} · ${where}`;
    await showBatchDialog(this.#ui.dialog, { title, rows, hex, hexLabel: "batch bytes (hex)" });
  }

  // --- drawing -----------------------------------------------------------------------------

  #readTheme() {
    this.#theme = readTheme(this);
    // The text column is laid out in characters: measure the monospace font before any layout.
    const scratch = document.createElement("canvas").getContext("2d");
    if (scratch) {
      scratch.font = `${FONT_PX}px ${this.#theme.mono}`;
      const w = scratch.measureText("0123456789abcdef").width / 16;
      if (w > 0 && Math.abs(w - this.#charW) > 0.01) {
        this.#charW = w;
        this.#layoutDirty = true;
      }
      this.#measuredFont = `${FONT_PX}px ${this.#theme.mono}`;
    }
  }

  /** The compact attribute changed: its CSS hides panels, so the ladder's width may change. */
  #compactChanged() {
    if (!this.#ui || !this.isConnected) return;
    this.#measure();
    this.#invalidate(true);
  }

  /** Reads the viewport's size; only on resize, theme or load, never while drawing a frame. */
  #measure() {
    const { viewport: vp, canvas } = this.#ui;
    // The ladder is drawn at least wide enough for every lane at the width of its name plus a
    // readable text column; wider than the element, it scrolls sideways inside it.
    const need = this.#minWidth();
    const width = Math.max(vp.clientWidth, need);
    this.#width = vp.clientWidth > 0 ? width : 0;
    const css = width > vp.clientWidth && vp.clientWidth > 0 ? `${width}px` : "";
    if (canvas.style.width !== css) canvas.style.width = css;
    vp.classList.toggle("wide", css !== "");
    this.#maxHeight = parseFloat(getComputedStyle(vp).maxHeight) || 480;
  }

  /** The narrowest the drawing can be: the time gutter, every lane as wide as its name, MIN_TEXT_W of text. */
  #minWidth() {
    if (!this.#ladder) return 0;
    const names = [...this.#ladder.producers, ...this.#ladder.partitions];
    const minLaneW = Math.ceil(Math.max(0, ...names.map((n) => String(n).length)) * this.#charW + 10);
    return this.#gutterW() + Math.max(1, this.#ladder.lanes ?? names.length) * minLaneW + 12 + MIN_TEXT_W + 6;
  }

  /** Marks the canvas dirty and draws once in the next animation frame. */
  #invalidate(layout) {
    if (layout) this.#layoutDirty = true;
    this.#paint.request();
  }

  #revealed() {
    return this.#ladder ? this.#ladder.stepEnd[this.#step] ?? 0 : 0;
  }

  /** The size of the small type (time labels, lane roles, request labels): TIME_PX, at least the presenter minimum. */
  #smallPx(px = TIME_PX) {
    return this.hasAttribute("presenter") ? Math.max(px, presenterMinFont(this.#zoom())) : px;
  }

  /** The time column: GUTTER_W, or wider when the longest time label ("+1 min 30 s") needs it (never cut). */
  #gutterW() {
    const chars = this.#ladder?.timeLabelChars ?? 0;
    return Math.max(GUTTER_W, Math.ceil(chars * this.#charW * (this.#smallPx() / FONT_PX)) + 16);
  }

  /** Columns: time gutter, the lanes, the text (kind tag + sentence). Narrow hosts drop the tag. */
  #geometry(width) {
    const lanes = Math.max(1, this.#ladder?.lanes ?? 1);
    const narrow = width < 600;
    const minDiagram = narrow ? 130 : 220;
    // Every lane at least as wide as the longest lane name (never ellipsized): the text column gives way.
    const names = this.#ladder ? [...this.#ladder.producers, ...this.#ladder.partitions] : [];
    const minLaneW = Math.ceil(Math.max(0, ...names.map((n) => String(n).length)) * this.#charW + 10);
    const diagramW = Math.max(lanes * minLaneW,
      Math.round(Math.min(Math.max(lanes * 120, minDiagram), Math.max(minDiagram, width * (narrow ? 0.38 : 0.42)))));
    const x0 = narrow ? 42 : this.#gutterW();
    const laneW = diagramW / lanes;
    const textX = x0 + diagramW + (narrow ? 8 : 12);
    const textW = Math.max(60, width - textX - 6);
    const cols = Math.max(12, Math.floor(textW / this.#charW));
    const tagCols = narrow ? 0 : TAG_COLS;
    return { x0, diagramW, laneW, textX, textW, cols, tagCols, eventLines: narrow ? 4 : MAX_EVENT_LINES, laneX: (i) => x0 + laneW * (i + 0.5) };
  }

  /** Row heights depend on the width (wrapped sentences): recomputed when it changes. */
  #layout(width) {
    const t0 = performance.now();
    const ladder = this.#ladder;
    const rows = ladder?.rows ?? [];
    const g = this.#geometry(width);
    const sentenceCols = g.cols - g.tagCols;
    const tops = new Float64Array(rows.length + 1);
    let y = 0;
    for (let i = 0; i < rows.length; i++) {
      const row = rows[i];
      if (row.type === ROW_EVENT) {
        if (row.e.kind === "decision") {
          // The headline on the first line, the reasons below it.
          row.lines = row.sentence ? wrapText(row.sentence, sentenceCols, MAX_SENTENCE_LINES) : [];
          row.h = EVENT_H + row.lines.length * LINE_H + (row.lines.length ? 5 : 0);
        } else {
          const text = row.e.text;
          row.lines = text.length <= sentenceCols ? [text] : wrapText(text, sentenceCols, g.eventLines);
          row.h = EVENT_H + (row.lines.length - 1) * LINE_H + (row.lines.length > 1 ? 3 : 0);
        }
      }
      tops[i] = y;
      y += row.h;
    }
    tops[rows.length] = y;
    this.#rowTop = tops;
    this.#layoutWidth = width;
    this.#layoutDirty = false;
    this.#stats.layoutMs = performance.now() - t0;
  }

  /** First row whose bottom is below content y. */
  #rowAtY(y) {
    const tops = this.#rowTop;
    let lo = 0;
    let hi = Math.max(0, tops.length - 2);
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (tops[mid] <= y) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }

  #firstVisibleRow() {
    return Math.min(this.#revealed() - 1, this.#rowAtY(this.#ui.viewport.scrollTop));
  }

  #contentHeight() {
    return HEADER_H + (this.#rowTop[this.#revealed()] ?? 0);
  }

  #scrollRowIntoView(r) {
    const vp = this.#ui.viewport;
    const top = this.#rowTop[r];
    const bottom = this.#rowTop[r + 1];
    const view = vp.clientHeight - HEADER_H;
    if (top < vp.scrollTop) vp.scrollTop = top;
    else if (bottom > vp.scrollTop + view) vp.scrollTop = bottom - view;
  }

  /** After a step: keep the current step's rows in view. */
  #scrollForStep(mode) {
    if (!this.#ladder) return;
    if (this.#width <= 0) this.#measure();
    const width = this.#width;
    if (width > 0 && (this.#layoutDirty || width !== this.#layoutWidth)) this.#layout(width);
    this.#sizeViewport();
    const vp = this.#ui.viewport;
    const k = this.#step;
    if (k === 0 || mode === "top") {
      vp.scrollTop = 0;
      return;
    }
    const start = this.#rowTop[this.#ladder.stepEnd[this.#story[this.#at]?.first ?? k - 1]];
    const end = this.#rowTop[this.#ladder.stepEnd[k]];
    const view = vp.clientHeight - HEADER_H;
    if (start >= vp.scrollTop && end <= vp.scrollTop + view) return;
    vp.scrollTop = end - start <= view ? end - view : start;
  }

  /** Viewport height: the content, up to --eos-ladder-max-height. Spacer makes the scroll range. */
  #sizeViewport() {
    const { viewport, canvas, spacer } = this.#ui;
    const total = this.#ladder ? this.#contentHeight() : HEADER_H;
    const maxH = this.#maxHeight;
    const hgt = Math.max(HEADER_H + 24, Math.min(total, maxH));
    const px = `${hgt}px`;
    if (canvas.style.height !== px) canvas.style.height = px;
    if (viewport.style.height !== px) viewport.style.height = px;
    const rest = `${Math.max(0, total - hgt)}px`;
    if (spacer.style.height !== rest) spacer.style.height = rest;
    return hgt;
  }

  #rowAtEvent(ev) {
    if (!this.#ladder) return -1;
    const rect = this.#ui.canvas.getBoundingClientRect();
    const z = this.#zoom(); // the canvas is zoomed in presenter mode: its rect is, the drawing is not
    const y = (ev.clientY - rect.top) / z - HEADER_H + this.#ui.viewport.scrollTop;
    if ((ev.clientY - rect.top) / z < HEADER_H || y < 0) return -1;
    const r = this.#rowAtY(y);
    return r < this.#revealed() && y < this.#rowTop[r + 1] ? r : -1;
  }

  #onPointer(ev) {
    const r = this.#rowAtEvent(ev);
    const { tip, canvas } = this.#ui;
    if (r !== this.#hoverRow) {
      this.#hoverRow = r;
      this.#invalidate(false);
    }
    const row = r >= 0 ? this.#ladder.rows[r] : null;
    canvas.style.cursor = row?.type === ROW_EVENT && Number.isInteger(row.e.batch) ? "pointer" : "default";
    if (!row || row.type !== ROW_EVENT) {
      tip.hidden = true;
      return;
    }
    const e = row.e;
    const children = [h("div", {}, e.text)];
    if (e.kind === "decision") {
      children.unshift(h("div", {}, h("strong", {}, `${e.errorName}(${e.errorCode})`), ` · rule ${e.rule ?? "—"}`));
      if (e.source) children.push(h("span", { class: "source" }, `Kafka source: ${e.source}`));
    }
    if (Number.isInteger(e.batch)) children.push(h("span", { class: "source" }, `click to open b${e.batch}`));
    tip.replaceChildren(...children);
    tip.hidden = false;
    const host = this.#ui.ladder.getBoundingClientRect();
    const z = this.#zoom();
    const x = Math.min((ev.clientX - host.left) / z + 14, host.width / z - tip.offsetWidth - 4);
    const y = (ev.clientY - host.top) / z + 16;
    tip.style.left = `${Math.max(0, x)}px`;
    tip.style.top = `${y}px`;
  }

  #draw() {
    const t0 = performance.now();
    const { canvas, viewport } = this.#ui;
    if (this.#width <= 0) this.#measure();
    const width = this.#width;
    if (width <= 0) return;
    if (this.#layoutDirty || width !== this.#layoutWidth) this.#layout(width);
    const height = this.#sizeViewport();
    const { ctx, resized } = hidpiContext(canvas, width, height, this.#zoom());
    if (resized) this.#ctxStyle.reset();
    // Presenter mode: no text under PRESENTER_TEXT_PX on screen, whatever size each label asks for.
    this.#ctxStyle.minFont(this.hasAttribute("presenter") ? presenterMinFont(this.#zoom()) : 0);
    const th = this.#theme;
    const mono = `${FONT_PX}px ${th.mono}`;
    if (this.#measuredFont !== mono) {
      // The text column is laid out in characters of the monospace font: measure it once.
      this.#ctxStyle.set(ctx, "font", mono);
      const w = ctx.measureText("0123456789abcdef").width / 16;
      this.#measuredFont = mono;
      if (w > 0 && Math.abs(w - this.#charW) > 0.01) {
        this.#charW = w;
        this.#layout(width);
      }
    }
    this.#ctxStyle.set(ctx, "fillStyle", th.bg);
    ctx.fillRect(0, 0, width, height);
    this.#frame = (this.#frame + 1) >>> 0 || 1;

    const ladder = this.#ladder;
    const g = this.#geometry(width);
    const scrollTop = viewport.scrollTop;
    const revealed = this.#revealed();
    const viewH = height - HEADER_H;
    const yOf = (r) => HEADER_H + this.#rowTop[r] - scrollTop;
    const anchor = (r) => yOf(r) + (ladder.rows[r].type === ROW_STEP ? STEP_H / 2 : EVENT_H / 2);

    let first = 0;
    let last = -1;
    if (ladder && revealed > 0) {
      first = Math.min(revealed - 1, this.#rowAtY(scrollTop));
      last = Math.min(revealed - 1, this.#rowAtY(scrollTop + viewH));
      const contentBottom = Math.min(height, yOf(revealed));

      ctx.save();
      ctx.beginPath();
      ctx.rect(0, HEADER_H, width, viewH);
      ctx.clip();

      // Row backgrounds: step bands, the current step, hover and selection.
      const curStart = ladder.stepEnd[this.#story[this.#at]?.first ?? Math.max(0, this.#step - 1)];
      for (let r = first; r <= last; r++) {
        const row = ladder.rows[r];
        const y = yOf(r);
        if (row.type === ROW_STEP) {
          this.#ctxStyle.set(ctx, "fillStyle", th.panel);
          ctx.fillRect(0, y, width, row.h);
        }
        if (r >= curStart && this.#step > 0) {
          ctx.globalAlpha = 0.1;
          this.#ctxStyle.set(ctx, "fillStyle", th.accent);
          ctx.fillRect(0, y, width, row.h);
          ctx.globalAlpha = 1;
        }
        if (r === this.#hoverRow) {
          ctx.globalAlpha = 0.08;
          this.#ctxStyle.set(ctx, "fillStyle", th.fg);
          ctx.fillRect(0, y, width, row.h);
          ctx.globalAlpha = 1;
        }
      }
      if (this.#step > 0 && curStart <= last) {
        // A bar in the gutter marks the current step.
        const y0 = Math.max(HEADER_H, yOf(Math.max(curStart, first)));
        this.#ctxStyle.set(ctx, "fillStyle", th.accent);
        ctx.fillRect(0, y0, 3, contentBottom - y0);
      }

      // Lanes.
      this.#ctxStyle.set(ctx, "strokeStyle", th.border);
      this.#ctxStyle.set(ctx, "lineWidth", 1);
      ctx.setLineDash([]);
      ctx.beginPath();
      for (let i = 0; i < ladder.lanes; i++) {
        const x = Math.round(g.laneX(i)) + 0.5;
        ctx.moveTo(x, HEADER_H);
        ctx.lineTo(x, contentBottom);
      }
      ctx.stroke();

      // Arrows crossing the visible rows.
      const stamp = this.#arrowStamp;
      const bottomY = yOf(revealed);
      for (let b = Math.floor(first / BUCKET); b <= Math.floor(last / BUCKET); b++) {
        for (const id of ladder.buckets[b] ?? []) {
          if (stamp[id] === this.#frame) continue;
          stamp[id] = this.#frame;
          const a = ladder.arrows[id];
          if (a.from >= revealed || a.fromLane < 0 || a.toLane < 0) continue;
          this.#drawArrow(ctx, g, a, anchor, revealed, bottomY);
        }
      }

      // Row contents.
      this.#frameCtx = { anchor, revealed, bottomY };
      for (let r = first; r <= last; r++) this.#drawRow(ctx, g, ladder.rows[r], r, yOf(r), width);

      if (this.#selectedRow >= first && this.#selectedRow <= last) {
        const y = yOf(this.#selectedRow);
        this.#ctxStyle.set(ctx, "strokeStyle", th.accent);
        this.#ctxStyle.set(ctx, "lineWidth", 2);
        ctx.strokeRect(2, y + 1, width - 4, ladder.rows[this.#selectedRow].h - 2);
      }
      ctx.restore();
      this.#ctxStyle.reset(); // restore() put the context's styles back
    } else {
      this.#ctxStyle.set(ctx, "fillStyle", th.muted);
      this.#ctxStyle.set(ctx, "font", `13px ${th.mono}`);
      this.#ctxStyle.set(ctx, "textBaseline", "middle");
      ctx.fillText(this.#run ? "Step 0: nothing has happened yet — step forward." : this.#ui.error.textContent ? "No ladder: the script has an error." : "Loading…", 12, HEADER_H + 12);
    }

    this.#drawHeader(ctx, g, width);
    this.#updateRowList(first, last);
    this.#stats.draws++;
    this.#stats.lastDrawMs = performance.now() - t0;
    this.#stats.maxDrawMs = Math.max(this.#stats.maxDrawMs, this.#stats.lastDrawMs);
  }

  #drawHeader(ctx, g, width) {
    const th = this.#theme;
    this.#ctxStyle.set(ctx, "fillStyle", th.panel);
    ctx.fillRect(0, 0, width, HEADER_H);
    this.#ctxStyle.set(ctx, "strokeStyle", th.border);
    this.#ctxStyle.set(ctx, "lineWidth", 1);
    ctx.beginPath();
    ctx.moveTo(0, HEADER_H - 0.5);
    ctx.lineTo(width, HEADER_H - 0.5);
    ctx.stroke();
    const ladder = this.#ladder;
    this.#ctxStyle.set(ctx, "textBaseline", "alphabetic");
    this.#ctxStyle.set(ctx, "textAlign", "left");
    this.#ctxStyle.set(ctx, "font", `11px ${th.mono}`);
    this.#ctxStyle.set(ctx, "fillStyle", th.muted);
    ctx.fillText("time", 8, 24);
    ctx.fillText("what happens", g.textX, 24);
    if (!ladder) {
      return;
    }
    const cols = Math.max(3, Math.floor((g.laneW - 6) / this.#charW));
    this.#stats.truncatedLabels = [...ladder.producers, ...ladder.partitions].filter((n) => String(n).length > cols).length;
    this.#ctxStyle.set(ctx, "textAlign", "center");
    ladder.producers.forEach((name, i) => {
      this.#ctxStyle.set(ctx, "font", `bold 12px ${th.mono}`);
      this.#ctxStyle.set(ctx, "fillStyle", th.fg);
      ctx.fillText(ellipsize(name, cols), g.laneX(i), 16);
      this.#ctxStyle.set(ctx, "font", `10.5px ${th.mono}`);
      this.#ctxStyle.set(ctx, "fillStyle", th.muted);
      ctx.fillText("producer", g.laneX(i), 30);
    });
    ladder.partitions.forEach((name, q) => {
      const i = ladder.producers.length + q;
      this.#ctxStyle.set(ctx, "font", `bold 12px ${th.mono}`);
      this.#ctxStyle.set(ctx, "fillStyle", th.fg);
      ctx.fillText(ellipsize(name, cols), g.laneX(i), 16);
      this.#ctxStyle.set(ctx, "font", `10.5px ${th.mono}`);
      this.#ctxStyle.set(ctx, "fillStyle", th.muted);
      ctx.fillText("leader", g.laneX(i), 30);
    });
    this.#ctxStyle.set(ctx, "textAlign", "left");
  }

  /** Where arrow `a` (as #drawArrow draws it in this frame) crosses height y. */
  #arrowXAt(g, a, y) {
    const { anchor, revealed, bottomY } = this.#frameCtx;
    const x1 = g.laneX(a.fromLane);
    const x2 = g.laneX(a.toLane);
    const y1 = anchor(a.from);
    const arrived = a.to >= 0 && a.to < revealed;
    const xEnd = arrived ? (a.fate === "delivered" ? x2 : x1 + (x2 - x1) * 0.5) : x1 + (x2 - x1) * 0.45;
    const yEnd = arrived ? anchor(a.to) : Math.max(y1 + 6, bottomY - 6);
    if (yEnd <= y1) return x1;
    return x1 + (xEnd - x1) * Math.min(1, Math.max(0, (y - y1) / (yEnd - y1)));
  }

  #drawArrow(ctx, g, a, anchor, revealed, bottomY) {
    const th = this.#theme;
    const x1 = g.laneX(a.fromLane);
    const x2 = g.laneX(a.toLane);
    const y1 = anchor(a.from);
    const arrived = a.to >= 0 && a.to < revealed;
    const color = a.kind === "request" ? th.fg : a.outcome === "append" ? th.ok : a.outcome === "duplicate" ? th.dup : a.outcome ? th.bad : th.muted;
    this.#ctxStyle.set(ctx, "strokeStyle", color);
    this.#ctxStyle.set(ctx, "fillStyle", color);
    this.#ctxStyle.set(ctx, "lineWidth", a.kind === "request" ? 1.5 : 1.25);
    if (!arrived) {
      // Still travelling at this step: dashed, halfway, with the message as a dot.
      const xm = x1 + (x2 - x1) * 0.45;
      const ym = Math.max(y1 + 6, bottomY - 6);
      ctx.setLineDash([4, 3]);
      ctx.beginPath();
      ctx.moveTo(x1, y1);
      ctx.lineTo(xm, ym);
      ctx.stroke();
      ctx.setLineDash([]);
      ctx.beginPath();
      ctx.arc(xm, ym, 3, 0, Math.PI * 2);
      ctx.fill();
    } else if (a.fate === "delivered") {
      const y2 = anchor(a.to);
      ctx.beginPath();
      ctx.moveTo(x1, y1);
      ctx.lineTo(x2, y2);
      ctx.stroke();
      arrowHead(ctx, x1, y1, x2, y2);
    } else {
      // lost, cut (connection closed) or dropped (orphan response): ends in a cross.
      // A dropped answer (its connection closed while the request was held up) stops short.
      const ym = a.fate === "dropped" ? y1 + 8 : anchor(a.to);
      const xm = x1 + (x2 - x1) * (a.fate === "dropped" ? 0.25 : 0.5);
      if (a.fate !== "lost") ctx.setLineDash([2, 3]);
      ctx.beginPath();
      ctx.moveTo(x1, y1);
      ctx.lineTo(xm, ym);
      ctx.stroke();
      ctx.setLineDash([]);
      this.#ctxStyle.set(ctx, "strokeStyle", a.fate === "lost" ? th.bad : th.muted);
      this.#ctxStyle.set(ctx, "lineWidth", 2);
      cross(ctx, xm, ym, 4.5);
    }
    if (a.kind === "request" && a.label) {
      this.#ctxStyle.set(ctx, "textBaseline", "alphabetic");
      this.#ctxStyle.set(ctx, "font", `10px ${th.mono}`);
      this.#ctxStyle.set(ctx, "fillStyle", th.muted);
      const room = Math.abs(x2 - x1) - 16;
      // The full label when it fits between the lanes, else its short form (the full one is in the row's text and tooltip).
      const label = room > ctx.measureText(a.label).width ? a.label : a.shortLabel;
      const dir = x2 >= x1 ? 1 : -1;
      this.#ctxStyle.set(ctx, "textAlign", dir > 0 ? "left" : "right");
      ctx.fillText(label, x1 + dir * 8, y1 - 3);
      this.#ctxStyle.set(ctx, "textAlign", "left");
    }
  }

  #drawRow(ctx, g, row, r, y, width) {
    const th = this.#theme;
    const mono = `${FONT_PX}px ${th.mono}`;
    this.#ctxStyle.set(ctx, "textBaseline", "middle");
    if (row.type === ROW_STEP) {
      const s = row.s;
      const mid = y + STEP_H / 2;
      this.#ctxStyle.set(ctx, "font", `bold ${FONT_PX}px ${th.mono}`);
      this.#ctxStyle.set(ctx, "fillStyle", th.fg);
      ctx.fillText(String(row.step + 1), 10, mid);
      const expect = /^expect\b/.test(s.text);
      const x = g.textX;
      if (expect) {
        this.#ctxStyle.set(ctx, "strokeStyle", s.ok ? th.ok : th.bad);
        this.#ctxStyle.set(ctx, "lineWidth", 2);
        if (s.ok) check(ctx, g.x0 - 14, mid, 5);
        else cross(ctx, g.x0 - 14, mid, 4);
      }
      const entries = s.producerEntries;
      const prev = row.step > 0 ? this.#run.steps[row.step - 1].producerEntries : null;
      let extra = "";
      if (entries && entries.some((n, q) => n !== (prev ? prev[q] : 0))) {
        extra = "   · producer-state entries: " + entries.map((n, q) => `${this.#run.partitions[q]} ${n}`).join(", ");
      }
      const cols = Math.floor((width - x - 8) / this.#charW);
      this.#ctxStyle.set(ctx, "font", mono);
      this.#ctxStyle.set(ctx, "fillStyle", expect ? (s.ok ? th.muted : th.bad) : th.fg);
      ctx.fillText(ellipsize(`line ${s.line}: ${s.text}${extra}`, cols), x, mid);
      return;
    }
    const e = row.e;
    const mid = y + EVENT_H / 2;
    if (row.timeLabel) {
      this.#ctxStyle.set(ctx, "font", `${TIME_PX}px ${th.mono}`);
      this.#ctxStyle.set(ctx, "fillStyle", th.muted);
      // The gutter is as wide as the longest label (#gutterW); only a narrow host's is cut.
      ctx.fillText(ellipsize(row.timeLabel, Math.floor((g.x0 - 10) / (this.#charW * (this.#smallPx() / FONT_PX)))), 6, mid);
    }
    const color = th[kindColor(e)] ?? th.fg;
    const P = this.#ladder.producers.length;
    const px = Number.isInteger(e.producer) ? g.laneX(e.producer) : null;
    const qx = Number.isInteger(e.partition) ? g.laneX(P + e.partition) : null;
    this.#ctxStyle.set(ctx, "fillStyle", color);
    this.#ctxStyle.set(ctx, "strokeStyle", color);
    this.#ctxStyle.set(ctx, "lineWidth", 2);
    switch (e.kind) {
      case "send":
        if (px !== null) ctx.fillRect(px - 4, mid - 4, 8, 8);
        break;
      case "request":
        if (px !== null) {
          ctx.beginPath();
          ctx.arc(px, mid, 2.5, 0, Math.PI * 2);
          ctx.fill();
        }
        break;
      case "decision":
        if (qx !== null) this.#badge(ctx, qx, mid, e);
        break;
      case "ack":
        if (px !== null) check(ctx, px, mid, 5);
        break;
      case "fail":
        if (px !== null) cross(ctx, px, mid, 4.5);
        break;
      case "retry":
        if (px !== null) {
          ctx.beginPath();
          ctx.arc(px, mid, 5, 0.3, Math.PI * 1.7);
          ctx.stroke();
        }
        break;
      case "timeout":
      case "delayed":
        if (px !== null || qx !== null) {
          const x = e.kind === "delayed" && row.arrow ? this.#arrowXAt(g, row.arrow, mid) : px ?? qx;
          ctx.beginPath();
          ctx.arc(x, mid, 5, 0, Math.PI * 2);
          ctx.moveTo(x, mid);
          ctx.lineTo(x, mid - 3.5);
          ctx.moveTo(x, mid);
          ctx.lineTo(x + 3, mid);
          ctx.stroke();
        }
        break;
      case "restart":
      case "epoch-bump":
        if (px !== null) {
          ctx.fillRect(px - g.laneW * 0.3, mid - 3, g.laneW * 0.6, 2);
          if (e.kind === "restart" || e.batch === null) ctx.fillRect(px - g.laneW * 0.3, mid + 1, g.laneW * 0.6, 2);
        }
        break;
      case "leader-change":
      case "expired":
        if (qx !== null) {
          if (e.kind === "expired") cross(ctx, qx, mid, 4);
          else ctx.fillRect(qx - g.laneW * 0.3, mid - 1, g.laneW * 0.6, 3);
        }
        break;
      case "time":
        ctx.setLineDash([2, 4]);
        this.#ctxStyle.set(ctx, "lineWidth", 1);
        ctx.beginPath();
        ctx.moveTo(g.x0, mid + 0.5);
        ctx.lineTo(g.x0 + g.diagramW, mid + 0.5);
        ctx.stroke();
        ctx.setLineDash([]);
        break;
      default:
        break;
    }
    // Text column: the kind, then the event's sentence (a decision: headline, then its reasons).
    const tx = g.textX;
    this.#ctxStyle.set(ctx, "font", mono);
    this.#ctxStyle.set(ctx, "fillStyle", color);
    if (g.tagCols) ctx.fillText(KIND_LABEL[e.kind] ?? e.kind, tx, mid);
    const bodyX = tx + g.tagCols * this.#charW;
    const bodyCols = g.cols - g.tagCols;
    if (e.kind === "decision") {
      this.#ctxStyle.set(ctx, "font", `bold ${FONT_PX}px ${th.mono}`);
      this.#ctxStyle.set(ctx, "fillStyle", th.fg);
      ctx.fillText(ellipsize(row.headline, bodyCols), bodyX, mid);
      this.#ctxStyle.set(ctx, "font", mono);
      this.#ctxStyle.set(ctx, "fillStyle", th.muted);
      const lines = row.lines ?? [];
      for (let i = 0; i < lines.length; i++) ctx.fillText(lines[i], bodyX, y + EVENT_H + LINE_H * i + LINE_H / 2);
    } else {
      this.#ctxStyle.set(ctx, "fillStyle", e.kind === "time" || e.kind === "expired" ? th.muted : th.fg);
      const lines = row.lines ?? [ellipsize(e.text, bodyCols)];
      for (let i = 0; i < lines.length; i++) ctx.fillText(lines[i], bodyX, mid + LINE_H * i);
    }
  }

  /** The decision at the leader's lane: rule and outcome in a filled box. */
  #badge(ctx, x, mid, e) {
    const th = this.#theme;
    const short = e.outcome === "append" ? "append" : e.outcome === "duplicate" ? "dup" : String(e.errorCode ?? "err");
    const text = `${e.rule ?? "?"} ${short}`;
    this.#ctxStyle.set(ctx, "font", `bold ${TIME_PX}px ${th.mono}`);
    const w = ctx.measureText(text).width + 8;
    const hgt = Math.max(14, Math.ceil(this.#ctxStyle.px(TIME_PX)) + 4); // grows with the presenter's type
    const color = e.outcome === "append" ? th.ok : e.outcome === "duplicate" ? th.dup : th.bad;
    this.#ctxStyle.set(ctx, "fillStyle", color);
    roundRect(ctx, x - w / 2, mid - hgt / 2, w, hgt, 3);
    ctx.fill();
    if (e.outcome !== "append" && e.outcome !== "duplicate") {
      // Refusals get a heavier outline: shape as well as colour.
      this.#ctxStyle.set(ctx, "strokeStyle", th.fg);
      this.#ctxStyle.set(ctx, "lineWidth", 1);
      ctx.stroke();
    }
    this.#ctxStyle.set(ctx, "fillStyle", th.bg);
    this.#ctxStyle.set(ctx, "textAlign", "center");
    ctx.fillText(text, x, mid + 0.5);
    this.#ctxStyle.set(ctx, "textAlign", "left");
  }

  /** The DOM text alternative: the rows in view, as an ordered list (updated once scrolling pauses). */
  #updateRowList(first, last) {
    const revealed = this.#revealed();
    const key = `${this.#loadToken}:${first}:${last}:${revealed}`;
    if (key === this.#srRange) return;
    clearTimeout(this.#srTimer);
    if (this.#srRange.split(":").slice(0, 1)[0] === String(this.#loadToken) && this.#srRange.endsWith(`:${revealed}`)) {
      // Same run and step, only scrolled: rebuild when the scrolling pauses, not on every frame.
      this.#srTimer = setTimeout(() => this.#fillRowList(first, last, key), 120);
      return;
    }
    this.#fillRowList(first, last, key);
  }

  #fillRowList(first, last, key) {
    this.#srRange = key;
    const revealed = this.#revealed();
    const list = this.#ui.rowsList;
    if (!this.#ladder || revealed === 0 || last < first) {
      list.replaceChildren();
      return;
    }
    list.start = first + 1;
    const items = [];
    for (let r = first; r <= last; r++) {
      const row = this.#ladder.rows[r];
      const li = h("li", { "data-row": r }, rowText(this.#run, row));
      if (row.type === ROW_EVENT && row.e.kind === "decision") {
        li.dataset.rule = row.e.rule ?? "";
        li.dataset.errorCode = String(row.e.errorCode ?? "");
      }
      items.push(li);
    }
    list.replaceChildren(...items);
  }
}

function decisionItem(e) {
  const { headline, sentence } = splitDecision(e);
  return h("li", { class: "decision", "data-outcome": e.outcome ?? "", "data-rule": e.rule ?? "", "data-error-code": e.errorCode ?? "" },
    h("span", { class: `badge ${e.outcome ?? ""}` }, e.outcome === "reject" ? "REJECTED" : (e.outcome ?? "").toUpperCase()),
    h("span", { class: "code" }, `${e.errorName} (${e.errorCode})`), " ",
    h("span", { class: "rule", title: "rule id in the team reference" }, e.rule ?? "—"), " ",
    h("span", { class: "headline" }, headline), " ",
    h("span", { class: "sentence" }, sentence),
    e.source ? h("span", { class: "source" }, `Kafka source: ${e.source}`) : null);
}

function arrowHead(ctx, x1, y1, x2, y2) {
  const ang = Math.atan2(y2 - y1, x2 - x1);
  const len = 7;
  ctx.beginPath();
  ctx.moveTo(x2, y2);
  ctx.lineTo(x2 - len * Math.cos(ang - 0.4), y2 - len * Math.sin(ang - 0.4));
  ctx.lineTo(x2 - len * Math.cos(ang + 0.4), y2 - len * Math.sin(ang + 0.4));
  ctx.closePath();
  ctx.fill();
}

function check(ctx, x, y, s) {
  ctx.beginPath();
  ctx.moveTo(x - s, y);
  ctx.lineTo(x - s / 3, y + s * 0.7);
  ctx.lineTo(x + s, y - s * 0.7);
  ctx.stroke();
}

function roundRect(ctx, x, y, w, hgt, r) {
  ctx.beginPath();
  if (typeof ctx.roundRect === "function") {
    ctx.roundRect(x, y, w, hgt, r);
    return;
  }
  ctx.rect(x, y, w, hgt);
}

reflectAttributes(KafkaLadderElement, { scenario: String, readOnly: Boolean });

if (globalThis.customElements) KafkaLadderElement.define();
