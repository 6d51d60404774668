// <kafka-timeline>: the element — attributes, properties, lifecycle, loading and running the script,
// stepping, keyboard selection and events (documented in ../kafka-timeline.js, the entry module).
// What it draws and shows lives beside it: layout.js, draw.js, panels.js, dialogs.js, styles.js.
import { el as h } from "../lib/dom.js";
import {
  BaseElement, CanvasStyle, PlayerChanges, attachStyledShadow, defineElement, frameRequester, microtaskUpdater,
  modelDarkSheet, nextStepsGroup, observeScriptText, readTheme, ready, reflectAttribute, reflectAttributes,
  scenarioSource, stepAttribute, stepValue, watchDisplay,
} from "../lib/element.js";
import { Player, partialNote, storyIndexOf, storySteps } from "../lib/player.js";
import { loadRun } from "../lib/runs.js";
import { SchemeWatcher } from "../lib/theme.js";
import { PRESENTER_ZOOM, buildTimeline, recordLabel } from "../lib/timeline-model.js";
import { captionOf, exportPicture, exportScript, fileBase, openRecord, predictQuestion } from "./dialogs.js";
import { drawLanes } from "./draw.js";
import { TimelineLoadEvent, TimelineScriptEvent, TimelineStepEvent } from "./events.js";
import { followStep, geometry, laneAt, recordAtEvent, recordBox, scrollOffsetIntoView, sizeTrack } from "./layout.js";
import {
  applyFactMarks, factNodes, factText, renderControls, renderDetail, renderHeader, renderInvariants,
  renderLatency, renderNext, renderNow, renderState, renderSummary,
} from "./panels.js";
import { styleSheet } from "./styles.js";

export class KafkaTimelineElement extends BaseElement {
  static define(tag = "kafka-timeline", registry = globalThis.customElements) {
    return defineElement(this, tag, registry);
  }

  static get observedAttributes() {
    return ["scenario", "script", "run", "step", "sabotage", "readonly", "inspector", "transaction-version", "theme", "compact", "presenter", "predict"];
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
  #paint = frameRequester(() => drawLanes(this.#view), () => this.isConnected);
  #width = 0;
  #selected = -1; // record index
  #laneFocus = null; // the lane ↑/↓ reached when it has no record to select (its name is shown whole)
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
    for (const [key, node] of factNodes(this.#view)) out[key] = factText(node);
    return out;
  }
  /**
   * Highlights the current step's facts named by `keys` (from facts()) as differing, `label`
   * read by screen readers after each one; [] clears. Kept until the step changes.
   */
  markFacts(keys, label = "differs") {
    this.#factMarks = { at: this.#at, keys: new Set(keys), label };
    applyFactMarks(this.#view);
    return [...this.#factMarks.keys];
  }
  /** The keys of the facts highlighted now. */
  get markedFacts() {
    return factNodes(this.#view).filter(([, node]) => node.classList.contains("differs")).map(([key]) => key);
  }
  #factMarks = null;
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
        // A pre-built run is drawn as it is; the model is loaded only to run a script (lib/runs.js).
        const loaded = await loadRun(this, "kafka-timeline", { source: scenarioSource, ready, stale: () => token !== this.#loadToken });
        if (!loaded) return false;
        const { result } = loaded;
        text = loaded.text;
        report = result.report;
        if (result.partial) {
          // A mistake in the script: the steps before its line are shown, with the error.
          partial = result.partial;
          full = text;
        }
        text = result.ran; // what ran: a next-step fork starts from it
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
      this.#laneFocus = null;
      this.#hover = -1;
      this.#stats.records = report.records?.length ?? 0;
      this.#stats.loadMs = performance.now() - t0;
      renderHeader(this.#view);
      sizeTrack(this.#view);
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
    renderHeader(this.#view);
    this.#renderAll();
    sizeTrack(this.#view);
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
    if (follow) followStep(this.#view);
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
  /**
   * Handles a keydown that a page passes on from outside the element (lib/page-keys.js): the
   * player's keys (←/→, Home/End, Space, ?, …). Returns true when the key did something.
   */
  handleKey(ev) {
    return this.#player?.handleKey(ev) ?? false;
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
      question: (k) => predictQuestion(this.#view, k),
      exporter: {
        png: async () => ({ name: `${fileBase(this.#view)}.png`, blob: await this.exportPicture("png") }),
        svg: () => ({ name: `${fileBase(this.#view)}.svg`, text: this.exportPicture("svg") }),
        script: () => ({ name: `${fileBase(this.#view)}.eos`, text: this.exportScript() }),
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
      const r = recordAtEvent(this.#view, ev);
      ui.canvas.style.cursor = r >= 0 ? "pointer" : "default";
      // Over the lane names: the lane's full name as the tooltip (the gutter may abbreviate it),
      // and its state when the gutter shortened that; over a record: its full label (a cell may
      // show its value shortened).
      const rect = ui.canvas.getBoundingClientRect();
      const z = this.#zoom();
      const lane = (ev.clientX - rect.left) / z < geometry(this.#view, this.#width).gutterW ? laneAt(this.#view, (ev.clientY - rect.top) / z) : null;
      const title = lane ? [String(lane.label), lane.shortenedState].filter(Boolean).join("\n") : r >= 0 ? recordLabel(this.#tl.records[r]) : "";
      if (ui.canvas.title !== title) ui.canvas.title = title;
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
      const r = recordAtEvent(this.#view, ev);
      if (r < 0) return;
      this.#select(r);
      this.openRecord(r);
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

  /**
   * The scenario text that reproduces the view: the script run (at the transaction.version the
   * element forces, as a `feature` line would not: a comment says so) with the step as the
   * `# eoslab step=N` comment that the pages' "Open a scenario file" reads back.
   */
  exportScript() {
    return exportScript(this.#view);
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
      if (this.#selected < 0 && this.#laneFocus === null) return;
      this.#laneFocus = null;
      this.#select(-1);
    } else return;
    ev.preventDefault();
  }

  /** Records of a lane visible at the current step (indexes, by offset). */
  #visibleIn(lane) {
    const recs = this.#tl.records;
    return (lane.records ?? []).filter((i) => recs[i].step <= this.#step);
  }

  /**
   * ↑/↓: with nothing selected, the first (last) lane with records; then the next lane up or down,
   * every lane in turn. A lane with records selects the one nearest the current record's offset;
   * a lane without (a producer, a consumer) is focused as a lane, so its full name is shown as
   * text all the same (the gutter may draw it abbreviated).
   */
  #moveLane(dir) {
    const tl = this.#tl;
    const lanes = tl.lanes;
    if (!lanes.length) return;
    const cur = this.#tl.records[this.#selected];
    const from = cur ? cur.lane : this.#laneFocus;
    let at = from !== null && from !== undefined ? lanes.findIndex((l) => l.id === from) : -1;
    if (at < 0) {
      const withRecords = lanes.map((l, i) => (l.records && this.#visibleIn(l).length ? i : -1)).filter((i) => i >= 0);
      at = withRecords.length ? withRecords[dir > 0 ? 0 : withRecords.length - 1] : dir > 0 ? 0 : lanes.length - 1;
    } else at = Math.min(lanes.length - 1, Math.max(0, at + dir));
    const vis = lanes[at].records ? this.#visibleIn(lanes[at]) : [];
    if (!vis.length) {
      this.#laneFocus = lanes[at].id;
      this.#select(-1);
      return;
    }
    this.#laneFocus = null;
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
    if (r >= 0) this.#laneFocus = null;
    if (scroll && r >= 0) scrollOffsetIntoView(this.#view, this.#tl.records[r].offset, this.#tl.records[r].lastOffset ?? this.#tl.records[r].offset);
    renderDetail(this.#view);
    this.#invalidate();
  }

  // --- DOM panels --------------------------------------------------------------------------

  #renderAll() {
    const t0 = performance.now();
    renderControls(this.#view);
    renderNow(this.#view);
    renderDetail(this.#view);
    renderState(this.#view);
    renderInvariants(this.#view);
    renderNext(this.#view);
    renderLatency(this.#view);
    renderSummary(this.#view);
    if (this.#factMarks) applyFactMarks(this.#view);
    this.#stats.panelMs = performance.now() - t0;
  }

  #laneLabel(id) {
    return this.#tl?.byId.get(id)?.label ?? id;
  }

  // --- batch inspector ---------------------------------------------------------------------

  /** Opens record `idx` (an index into report.records) in a dialog: <kafka-batch> when available. */
  async openRecord(idx) {
    return openRecord(this.#view, idx);
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
    sizeTrack(this.#view);
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

  /**
   * Where record `idx` is drawn, in CSS pixels relative to the canvas ({x, y, width, height}), or
   * null when it is not on the canvas at this step (not yet written, or scrolled out of view).
   */
  recordBox(idx) {
    return recordBox(this.#view, idx);
  }


  // What the modules of this folder see of the element (they cannot reach its private fields):
  // live getters (and setters) of the private state they use, its private methods they call,
  // and `el`, the element itself (its public API).
  #view = ((el) => ({
    el,
    get at() { return el.#at; },
    get ctxStyle() { return el.#ctxStyle; },
    get factMarks() { return el.#factMarks; },
    get hatch() { return el.#hatch; },
    set hatch(x) { el.#hatch = x; },
    get hover() { return el.#hover; },
    get labelCharW() { return el.#labelCharW; },
    get latency() { return el.#latency; },
    get latencyPlotFor() { return el.#latencyPlotFor; },
    set latencyPlotFor(x) { el.#latencyPlotFor = x; },
    get latencyPlotKey() { return el.#latencyPlotKey; },
    set latencyPlotKey(x) { el.#latencyPlotKey = x; },
    get latencySize() { return el.#latencySize; },
    set latencySize(x) { el.#latencySize = x; },
    get nextCache() { return el.#nextCache; },
    get player() { return el.#player; },
    get report() { return el.#report; },
    get root() { return el.#root; },
    get selected() { return el.#selected; },
    get laneFocus() { return el.#laneFocus; },
    get sourceText() { return el.#sourceText; },
    get stats() { return el.#stats; },
    get step() { return el.#step; },
    get story() { return el.#story; },
    get summaryFor() { return el.#summaryFor; },
    set summaryFor(x) { el.#summaryFor = x; },
    get theme() { return el.#theme; },
    get tl() { return el.#tl; },
    get ui() { return el.#ui; },
    get width() { return el.#width; },
    laneLabel: (...a) => el.#laneLabel(...a),
    measure: (...a) => el.#measure(...a),
    storyNo: (...a) => el.#storyNo(...a),
    zoom: (...a) => el.#zoom(...a),
  }))(this);
}

reflectAttributes(KafkaTimelineElement, { scenario: String, readOnly: Boolean });

if (globalThis.customElements) KafkaTimelineElement.define();
