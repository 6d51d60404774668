// <kafka-ladder>: the element — attributes, properties, lifecycle, loading and running the script,
// stepping, keyboard and pointer selection and events (documented in ../kafka-ladder.js, the entry
// module). What it draws and shows lives beside it: layout.js, draw.js, panels.js, dialogs.js, styles.js.
import { dispatchWithLegacyName, el as h } from "../lib/dom.js";
import {
  BaseElement, CanvasStyle, PlayerChanges, attachStyledShadow, defineElement, frameRequester, microtaskUpdater,
  modelDarkSheet, nextStepsGroup, observeScriptText, readTheme, ready, reflectAttribute, reflectAttributes,
  scenarioSource, stepAttribute, stepValue, watchDisplay,
} from "../lib/element.js";
import {
  FONT_PX, PRESENTER_ZOOM, ROW_EVENT, buildLadder, buildMessageLadder, isTransactionsScript, parseSource, prefixSource,
  stateAfter, txnStateAfter,
} from "../lib/ladder-rows.js";
import { Player, partialNote, storySteps } from "../lib/player.js";
import { loadRun } from "../lib/runs.js";
import { SchemeWatcher } from "../lib/theme.js";
import { captionOf, exportPicture, fileBase, openBatch, openRecord, predictQuestion } from "./dialogs.js";
import { drawLadder } from "./draw.js";
import { LEGACY_EVENT, LadderLoadEvent, LadderScriptEvent, LadderStepEvent } from "./events.js";
import { firstVisibleRow, measure, rowAtEvent, scrollForStep, scrollRowIntoView } from "./layout.js";
import { renderControls, renderDetail, renderHeader, renderNow, renderPanels } from "./panels.js";
import { styleSheet } from "./styles.js";

const HINT = "Click a batch (or select a row with ↑/↓ and press Enter) to open its bytes. Hover a decision for its Kafka source.";

export class KafkaLadderElement extends BaseElement {
  static define(tag = "kafka-ladder", registry = globalThis.customElements) {
    return defineElement(this, tag, registry);
  }

  static get observedAttributes() {
    return ["scenario", "script", "run", "step", "readonly", "transaction-version", "theme", "compact", "presenter", "predict"];
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
  #paint = frameRequester(() => drawLadder(this.#view), () => this.isConnected);
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
  /** The run of the whole script (as runTxnScenario returns it), or null. */
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
      measure(this.#view);
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
    let source;
    let run;
    let partial = null; // the script error, when only the steps before its line run
    const t0 = performance.now();
    try {
      // A pre-built run is drawn as it is; the model is loaded only to run a script (lib/runs.js).
      const loaded = await loadRun(this, "kafka-ladder", { source: scenarioSource, ready, stale: () => token !== this.#loadToken });
      if (!loaded) return false;
      const { result } = loaded;
      source = parseSource(loaded.text);
      run = result.report;
      if (result.partial) {
        partial = result.partial;
        source.value = result.ran; // what ran: the prefixes and a next-step fork start from it
      }
    } catch (err) {
      if (token !== this.#loadToken) return false;
      return this.#fail(err);
    }
    if (token !== this.#loadToken) return false;
    try {
      // A transactions script (`model transactions`) is drawn from the report the timeline draws:
      // its requests and answers between the lanes.
      const transactions = source.kind === "text" ? isTransactionsScript(source.text) : source.value?.model === "transactions";
      const t1 = performance.now();
      this.#source = source;
      this.#run = run;
      this.#story = storySteps(run.steps);
      this.#player?.newRun();
      this.#prefix = transactions ? new Map() : new Map([[run.steps.length, run]]);
      this.#ladder = transactions ? buildMessageLadder(run) : buildLadder(run);
      this.#ui.hint.textContent = transactions
        ? "Click a request or an answer that wrote a record (or select a row with ↑/↓ and press Enter) to open its bytes. Hover an answer for its rule and Kafka source."
        : HINT;
      this.#ladder.timeLabelChars = this.#ladder.rows.reduce((n, r) => Math.max(n, r.timeLabel?.length ?? 0), 0);
      this.#arrowStamp = new Uint32Array(this.#ladder.arrows.length);
      this.#layoutDirty = true;
      measure(this.#view); // the lanes' names set the narrowest width
      this.#hoverRow = -1;
      this.#selectedRow = -1;
      this.#stats.rows = this.#ladder.rows.length;
      this.#stats.loadMs = performance.now() - t0;
      renderHeader(this.#view);
      viewport.removeAttribute("aria-busy");
      // A step the model could not take (`deliver request b7` with no such request) ends the run
      // with an error of its line, as the timeline shows it.
      if (run.error) error.textContent = run.error;
      if (partial) error.textContent = partialNote(partial);
      this.#emit(
        new LadderLoadEvent({ steps: this.#story.length, rows: this.#ladder.rows.length, ms: this.#stats.loadMs, runMs: t1 - t0, error: partial ?? run.error ?? null }),
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
    renderHeader(this.#view);
    renderControls(this.#view);
    renderNow(this.#view);
    renderDetail(this.#view);
    renderPanels(this.#view, null);
    this.#invalidate(true);
    this.#emit(new LadderLoadEvent({ steps: 0, rows: 0, ms: 0, runMs: 0, error: message }));
    return false;
  }

  /**
   * The state after the first k steps (cached; the full run is k = steps), folded from the one run's
   * per-step changes (an idempotence script's `changes`, a transactions script's `state`):
   * stepping back never runs the script again.
   */
  #prefixRun(k) {
    const run = this.#run;
    if (!run) return null;
    if (this.#prefix.has(k)) return this.#prefix.get(k);
    const r = this.#ladder?.kind === "transactions" ? txnStateAfter(run, k) : stateAfter(run, k);
    if (this.#prefix.size > 64) this.#prefix.delete(this.#prefix.keys().next().value);
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
    renderControls(this.#view);
    this.#panelsForStep(k);
    renderNow(this.#view);
    renderDetail(this.#view);
    this.#invalidate(false);
    scrollForStep(this.#view, scroll);
    if (changed || this.#dispatchedStep !== at) {
      this.#dispatchedStep = at;
      this.#emit(new LadderStepEvent(at, n));
    }
  }

  /** The panels show the state after the first k steps. */
  #panelsForStep(k) {
    clearTimeout(this.#panelTimer);
    renderPanels(this.#view, this.#prefixRun(k));
  }

  /** Dispatches `event`, then its older, deprecated name (eoslab-step …) with the same detail. */
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
  /**
   * Handles a keydown that a page passes on from outside the element (lib/page-keys.js): the
   * player's keys (←/→, Home/End, Space, ?, …). Returns true when the key did something.
   */
  handleKey(ev) {
    return this.#player?.handleKey(ev) ?? false;
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
      question: (k) => predictQuestion(this.#view, k),
      exporter: {
        png: async () => ({ name: `${fileBase(this.#view)}.png`, blob: await this.exportPicture("png") }),
        svg: () => ({ name: `${fileBase(this.#view)}.svg`, text: this.exportPicture("svg") }),
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
    ui.hint = h("p", { class: "hint" }, HINT);
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
      const rec = ev.target instanceof Element ? ev.target.closest("button[data-record]") : null;
      if (rec) openRecord(this.#view, Number(rec.dataset.record));
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
      const r = rowAtEvent(this.#view, ev);
      if (r < 0) return;
      this.#selectedRow = r;
      renderDetail(this.#view);
      this.#invalidate(false);
      const row = this.#ladder.rows[r];
      if (row.type === ROW_EVENT && Number.isInteger(row.e.batch)) this.openBatch(row.e.batch, r);
      else if (row.type === ROW_EVENT && Number.isInteger(row.e.record)) openRecord(this.#view, row.e.record);
    });
  }

  /** The caption of an exported picture: the scenario, the step and the Kafka line. */
  get caption() {
    return captionOf(this.#view);
  }

  /** The view as a picture: "png" resolves to a Blob, "svg" is the SVG text (lib/export.js). */
  exportPicture(kind) {
    return exportPicture(this.#view, kind);
  }

  /** The CSS zoom of the ladder: PRESENTER_ZOOM in presenter mode (12 px text drawn at 21 px), else 1. */
  #zoom() {
    return this.hasAttribute("presenter") ? PRESENTER_ZOOM : 1;
  }

  #presenterChanged() {
    this.#player?.syncPresent(); // the button's state (the page may set the attribute)
    measure(this.#view);
    this.#invalidate(true);
    requestAnimationFrame(() => {
      measure(this.#view);
      this.#invalidate(true);
    });
  }

  #onViewportKey(ev) {
    if (ev.altKey || ev.ctrlKey || ev.metaKey || !this.#ladder) return;
    const revealed = this.#revealed();
    const move = (r) => {
      if (revealed === 0) return;
      this.#selectedRow = Math.min(revealed - 1, Math.max(0, r));
      scrollRowIntoView(this.#view, this.#selectedRow);
      renderDetail(this.#view);
      this.#invalidate(false);
    };
    switch (ev.key) {
      case "ArrowDown":
        move(this.#selectedRow < 0 ? firstVisibleRow(this.#view) : this.#selectedRow + 1);
        break;
      case "ArrowUp":
        move(this.#selectedRow < 0 ? firstVisibleRow(this.#view) : this.#selectedRow - 1);
        break;
      case "Enter": {
        const row = this.#ladder.rows[this.#selectedRow];
        if (row?.type === ROW_EVENT && Number.isInteger(row.e.record)) {
          openRecord(this.#view, row.e.record);
          break;
        }
        if (!row || row.type !== ROW_EVENT || !Number.isInteger(row.e.batch)) return;
        this.openBatch(row.e.batch, this.#selectedRow);
        break;
      }
      case "Escape":
        if (this.#selectedRow < 0) return;
        this.#selectedRow = -1;
        renderDetail(this.#view);
        this.#invalidate(false);
        break;
      default:
        return;
    }
    ev.preventDefault();
  }

  // --- batch inspector ---------------------------------------------------------------------

  /** Opens batch `id` (b1 = 1) in a dialog: <kafka-batch> when available, else its fields and hex. */
  async openBatch(id, rowIndex = -1) {
    return openBatch(this.#view, id, rowIndex);
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
    measure(this.#view);
    this.#invalidate(true);
  }

  /** Marks the canvas dirty and draws once in the next animation frame. */
  #invalidate(layout) {
    if (layout) this.#layoutDirty = true;
    this.#paint.request();
  }

  #revealed() {
    return this.#ladder ? this.#ladder.stepEnd[this.#step] ?? 0 : 0;
  }

  #onPointer(ev) {
    const r = rowAtEvent(this.#view, ev);
    const { tip, canvas } = this.#ui;
    if (r !== this.#hoverRow) {
      this.#hoverRow = r;
      this.#invalidate(false);
    }
    const row = r >= 0 ? this.#ladder.rows[r] : null;
    canvas.style.cursor = row?.type === ROW_EVENT && (Number.isInteger(row.e.batch) || Number.isInteger(row.e.record)) ? "pointer" : "default";
    if (!row || row.type !== ROW_EVENT) {
      tip.hidden = true;
      return;
    }
    const e = row.e;
    const children = [h("div", {}, e.text)];
    if (e.kind === "decision" || (e.kind === "message" && e.rule)) {
      children.unshift(h("div", {}, h("strong", {}, `${e.errorName}(${e.errorCode})`), ` · rule ${e.rule ?? "—"}`));
      if (e.source) children.push(h("span", { class: "source" }, `Kafka source: ${e.source}`));
    }
    if (e.kind === "message") children.unshift(h("div", {}, `${e.api}: ${e.fromName} → ${e.toName}${e.lost ? " (lost)" : ""}`));
    if (Number.isInteger(e.record)) children.push(h("span", { class: "source" }, "click to open its bytes"));
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


  // What the modules of this folder see of the element (they cannot reach its private fields):
  // live getters (and setters) of the private state they use, its private methods they call,
  // and `el`, the element itself (its public API).
  #view = ((el) => ({
    el,
    get arrowStamp() { return el.#arrowStamp; },
    get at() { return el.#at; },
    get charW() { return el.#charW; },
    set charW(x) { el.#charW = x; },
    get ctxStyle() { return el.#ctxStyle; },
    get frame() { return el.#frame; },
    set frame(x) { el.#frame = x; },
    get frameCtx() { return el.#frameCtx; },
    set frameCtx(x) { el.#frameCtx = x; },
    get hoverRow() { return el.#hoverRow; },
    get ladder() { return el.#ladder; },
    get layoutDirty() { return el.#layoutDirty; },
    set layoutDirty(x) { el.#layoutDirty = x; },
    get layoutWidth() { return el.#layoutWidth; },
    set layoutWidth(x) { el.#layoutWidth = x; },
    get loadToken() { return el.#loadToken; },
    get maxHeight() { return el.#maxHeight; },
    set maxHeight(x) { el.#maxHeight = x; },
    get measuredFont() { return el.#measuredFont; },
    set measuredFont(x) { el.#measuredFont = x; },
    get player() { return el.#player; },
    get rowTop() { return el.#rowTop; },
    set rowTop(x) { el.#rowTop = x; },
    get run() { return el.#run; },
    get selectedRow() { return el.#selectedRow; },
    get source() { return el.#source; },
    get srRange() { return el.#srRange; },
    set srRange(x) { el.#srRange = x; },
    get srTimer() { return el.#srTimer; },
    set srTimer(x) { el.#srTimer = x; },
    get stats() { return el.#stats; },
    get step() { return el.#step; },
    get story() { return el.#story; },
    get theme() { return el.#theme; },
    get ui() { return el.#ui; },
    get width() { return el.#width; },
    set width(x) { el.#width = x; },
    prefixRun: (...a) => el.#prefixRun(...a),
    revealed: (...a) => el.#revealed(...a),
    zoom: (...a) => el.#zoom(...a),
  }))(this);
}

reflectAttributes(KafkaLadderElement, { scenario: String, readOnly: Boolean });

if (globalThis.customElements) KafkaLadderElement.define();
