// The player shared by <kafka-ladder> and <kafka-timeline>: the story steps of a run (what a
// student steps through), the expectation checks shown on them, and the controls — first, back,
// play/pause, forward, last, a scrub slider, a speed 0.25×–8× — with their keys (←/→, Home/End,
// Space, +/-, ?) and the keyboard map dialog that lists every shortcut of the view.
//
// One meaning of `step` in every element: the 0-based index of the story step shown, where a story
// step is one script line that does something (send, deliver, init, commit …) together with the
// `expect` lines that follow it. `expect` lines are not steps: they are the checks of the step they
// follow (a tick or a cross with the expected and the actual value), so every step moves something.
// The elements map a story step to the core's report steps (one per script line) themselves.
//
// Importable in Node (the helpers): nothing here touches the DOM until a Player is built.
import { el } from "./dom.js";
import { downloadText } from "./link-state.js";

/** The play speeds the speed control offers (multipliers of the element's interval). */
export const SPEEDS = [0.25, 0.5, 1, 2, 4, 8];

/** True when a report step is an `expect` line. */
export const isExpect = (s) => /^expect\b/.test(s?.text ?? "");

/**
 * The story steps of a run's report steps: [{first, last, checks}] where `first` is the index of
 * the step's own script line, `last` the index of the last `expect` line that follows it, `checks`
 * the indexes of those `expect` lines. `expect` lines before the first action are checks of the
 * first story step; a script of `expect` lines only has one story step per line.
 */
export function storySteps(steps) {
  const out = [];
  let leading = [];
  (steps ?? []).forEach((s, i) => {
    if (isExpect(s) && out.length) {
      const g = out[out.length - 1];
      g.last = i;
      g.checks.push(i);
    } else if (isExpect(s)) {
      leading.push(i);
    } else {
      out.push({ first: i, last: i, checks: leading });
      leading = [];
    }
  });
  // Only expect lines: each is its own step (its check is itself).
  for (const i of leading) out.push({ first: i, last: i, checks: [i] });
  return out;
}

/** The story step (index into `story`) that shows report step `raw`: the one whose lines contain it. */
export function storyIndexOf(story, raw) {
  let lo = 0;
  let hi = story.length - 1;
  if (hi < 0) return 0;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (Math.min(story[mid].first, ...(story[mid].checks.length ? [story[mid].checks[0]] : [])) <= raw) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/**
 * The checks of a story step: [{line, text, ok, expected, actual}] from the report's steps and
 * failures (the idempotence model names them expected/got, the transactions model expect/actual).
 * A check that holds has no actual value of its own: it is the expected one.
 */
export function storyChecks(report, g) {
  const steps = report?.steps ?? [];
  return (g?.checks ?? []).map((i) => {
    const s = steps[i];
    const expected = s.text.replace(/^expect\s+/, "");
    if (s.ok !== false) return { line: s.line, text: s.text, ok: true, expected, actual: expected };
    const f = (report.failures ?? []).find((x) => x.line === s.line) ?? {};
    return { line: s.line, text: s.text, ok: false, expected: f.expected ?? f.expect ?? expected, actual: f.got ?? f.actual ?? "?" };
  });
}

/** The checks as a list (class "checks"): ✓ or ✗, the expectation, and what the model found when it fails. */
export function checksList(checks) {
  if (!checks.length) return null;
  return el("ul", { class: "checks", "aria-label": "Checks of this step" },
    checks.map((c) =>
      el("li", { class: c.ok ? "held" : "failed", "data-line": c.line, "data-ok": String(c.ok) },
        el("span", { class: "mark", "aria-hidden": "true" }, c.ok ? "✓ " : "✗ "),
        el("span", { class: "sr-only" }, c.ok ? "check holds: " : "check fails: "),
        `expect ${c.expected}`,
        c.ok ? "" : el("span", { class: "actual" }, ` — actual: ${c.actual}`),
        el("span", { class: "line" }, ` (line ${c.line})`))));
}

/** The rules of the player's controls, the checks and the keyboard map (for each element's sheet). */
export const PLAYER_CSS = `:host([presenter]) { position: fixed; inset: 0; z-index: 2147483000; margin: 0; border: 0; border-radius: 0;
  overflow: auto; font-size: 20px; padding: .6rem 1rem;
  --eos-bg: #ffffff; --eos-fg: #000000; --eos-muted: #24292f; --eos-border: #24292f; --eos-panel: #eef1f4; --eos-accent: #0550ae;
  --eos-ok: #116329; --eos-bad: #a40e26; --eos-warn: #6f4400; --eos-dup: #5e2ca5; color-scheme: light; }
:host([presenter]) .about, :host([presenter]) .hint, :host([presenter]) .summary, :host([presenter]) .features,
:host([presenter]) .state, :host([presenter]) .panels-box, :host([presenter]) .latency, :host([presenter]) .detail { display: none; }
:host([presenter]) .title { font-size: 24px; }
:host([presenter]) button, :host([presenter]) select { font-size: 18px; }
:host([presenter]) .now { font-size: 24px; line-height: 1.35; }
:host([presenter]) .now .line, :host([presenter]) .now .source, :host([presenter]) ul.checks, :host([presenter]) .now .code,
:host([presenter]) .now .rule, :host([presenter]) .now ol.messages, :host([presenter]) .now .written { font-size: 20px; }
:host([presenter]) .now .narration { font-size: 24px; }
/* A word longer than the step's column (an exception's name at 24 px beside the drawing at 1280 px)
   wraps rather than being cut off at the column's edge. */
:host([presenter]) .now, :host([presenter]) .title, :host([presenter]) .next, :host([presenter]) .quiz { overflow-wrap: anywhere; }
:host([presenter]) .now ol.messages li { font-size: 20px; }
/* Presenter mode: the drawing right under the title and the controls, so the picture starts near
   the top; the step's text under it, or beside it (its own column, scrolling inside when long) on
   a screen wide enough for both; what can happen next after them. */
:host([presenter]) { display: grid; grid-template-columns: minmax(0, 1fr); column-gap: 1rem; align-content: start; }
:host([presenter]) .title { grid-row: 1; }
:host([presenter]) .controls { grid-row: 2; }
:host([presenter]) .quiz { grid-row: 3; }
:host([presenter]) .error { grid-row: 4; }
:host([presenter]) .ladder, :host([presenter]) .lanes { grid-row: 5; min-width: 0; }
:host([presenter]) .now { grid-row: 6; margin: .5rem 0 0; }
:host([presenter]) .next { grid-row: 7; }
@media (min-width: 75rem) {
  :host([presenter]) { grid-template-columns: minmax(0, 1fr) minmax(14rem, 25%); }
  :host([presenter]) .title, :host([presenter]) .controls, :host([presenter]) .quiz, :host([presenter]) .error, :host([presenter]) .next { grid-column: 1 / -1; }
  :host([presenter]) .ladder, :host([presenter]) .lanes { grid-column: 1; }
  :host([presenter]) .now { grid-area: 5 / 2 / 6 / 3; align-self: start; max-height: calc(100vh - 9rem); overflow-y: auto; margin: 0; }
}
/* narration="side" (a page whose view has the room: idempotence.html, transactions.html): on a
   wide window the step's text goes beside the drawing instead of above it, so that the drawing
   starts on the first screen; everything else keeps its order under them. Every child has its
   row, so that none is placed in the row of one that is hidden. */
@media (min-width: 64rem) {
  :host([narration="side"]:not([presenter])) { display: grid; grid-template-columns: minmax(0, 1fr) minmax(13rem, 27%); column-gap: 1rem; align-items: start; }
  :host([narration="side"]:not([presenter])) > * { grid-column: 1 / -1; }
  :host([narration="side"]:not([presenter])) .title { grid-row: 1; }
  :host([narration="side"]:not([presenter])) .about { grid-row: 2; }
  :host([narration="side"]:not([presenter])) .controls { grid-row: 3; }
  :host([narration="side"]:not([presenter])) .quiz { grid-row: 4; }
  :host([narration="side"]:not([presenter])) .error { grid-row: 5; }
  :host([narration="side"]:not([presenter])) .ladder, :host([narration="side"]:not([presenter])) .lanes { grid-area: 6 / 1 / 7 / 2; min-width: 0; }
  :host([narration="side"]:not([presenter])) .now { grid-area: 6 / 2 / 7 / 3; margin: 0; }
  :host([narration="side"]:not([presenter])) .detail { grid-row: 7; }
  :host([narration="side"]:not([presenter])) .hint { grid-row: 8; }
  :host([narration="side"]:not([presenter])) .next { grid-row: 9; }
  :host([narration="side"]:not([presenter])) .state, :host([narration="side"]:not([presenter])) .panels-box { grid-row: 10; }
  :host([narration="side"]:not([presenter])) .latency { grid-row: 11; }
  :host([narration="side"]:not([presenter])) .summary { grid-row: 12; }
  :host([narration="side"]:not([presenter])) .features { grid-row: 13; }
}
.controls { display: flex; flex-wrap: wrap; gap: .4rem; align-items: center; margin: .25rem 0 .5rem; }
.controls label.speed { font-size: 13px; color: var(--eos-muted); display: inline-flex; gap: .3rem; align-items: center; }
.controls select { font: inherit; font-size: 13px; background: var(--eos-bg); color: var(--eos-fg); border: 1px solid var(--eos-border); border-radius: 6px; }
.controls input.scrub { flex: 1 1 8rem; min-width: 6rem; max-width: 24rem; accent-color: var(--eos-accent); }
ul.checks { list-style: none; margin: .3rem 0 0; padding: 0; font-size: 13px; }
ul.checks li { margin: .1rem 0; font-family: var(--eos-mono); overflow-wrap: anywhere; }
ul.checks li.held .mark { color: var(--eos-ok); font-weight: 700; }
ul.checks li.failed { color: var(--eos-bad); font-weight: 600; }
ul.checks .line { color: var(--eos-muted); font-weight: normal; }
.marks-note { font-size: 13px; color: var(--eos-bad); }
.marks-note:empty { display: none; }
.quiz { border: 2px solid var(--eos-accent); border-radius: 6px; padding: .4rem .6rem; margin: 0 0 .5rem; }
.quiz[hidden] { display: none; }
.quiz p { margin: .15rem 0; }
.quiz .prompt { font-weight: 600; }
.quiz .choices { display: flex; flex-wrap: wrap; gap: .35rem; margin: .3rem 0; }
.quiz .reveal.right .verdict { color: var(--eos-ok); font-weight: 600; }
.quiz .reveal.wrong .verdict { color: var(--eos-bad); font-weight: 600; }
.quiz .score { color: var(--eos-muted); font-size: 13px; }
dialog.keymap { max-width: min(34rem, 95vw); }
dialog.keymap table { width: 100%; }
dialog.keymap kbd { font-family: var(--eos-mono); border: 1px solid var(--eos-border); border-radius: 4px; padding: 0 .3rem; background: var(--eos-panel); }`;

/**
 * A multiple-choice question about one decision: the answer and up to `n` - 1 others from the
 * model's possible answers (`pool`: the answers the run gives anywhere, then the model's own
 * list), in a stable order (sorted), so a student cannot tell the answer by its place.
 */
export function choicesFor(answer, pool, n = 4) {
  const others = [...new Set(pool)].filter((c) => c !== answer).slice(0, n - 1);
  return [answer, ...others].sort();
}

/** Keys a form field keeps for itself (typing, choosing). */
const FIELD = "textarea, select, input:not([type=range]), [contenteditable=''], [contenteditable='true']";

/**
 * The controls of a scenario player and their keys. `host` is the element: it has goTo(k), step
 * and steps (story steps) and calls player.render() whenever its step or run changes. `element`
 * names it for the keyboard map; `viewKeys` are the view's own shortcuts ([[keys, what]], listed
 * in the map); `extraKeys` ({key: () => void}) are handled with the player's (presenter …).
 */
export class Player {
  #host;
  #timer = null;
  #speed = 1;
  #viewKeys;
  #extraKeys;
  interval;
  ui;

  #question;
  #predict = false;
  #answers = new Map(); // story step → {picked, right}
  #asking = -1; // the story step whose question is shown

  constructor(host, { element, interval = 1000, viewKeys = [], extraKeys = {}, extraControls = [], question = null, exporter = null }) {
    this.#host = host;
    this.#question = question;
    this.interval = interval;
    this.#viewKeys = viewKeys;
    this.#extraKeys = extraKeys;
    const ui = {
      first: el("button", { type: "button", "data-action": "first", "aria-label": "First step (Home)", "aria-keyshortcuts": "Home" }, "«"),
      back: el("button", { type: "button", "data-action": "back", "aria-label": "Step back (←)", "aria-keyshortcuts": "ArrowLeft" }, "‹ Back"),
      play: el("button", { type: "button", "data-action": "play", "aria-pressed": "false", "aria-keyshortcuts": "Space" }, "Play"),
      forward: el("button", { type: "button", "data-action": "forward", "aria-label": "Step forward (→)", "aria-keyshortcuts": "ArrowRight" }, "Forward ›"),
      last: el("button", { type: "button", "data-action": "last", "aria-label": "Last step (End)", "aria-keyshortcuts": "End" }, "»"),
      speed: el("select", { "data-action": "speed", "aria-label": "Play speed (+/-)" },
        SPEEDS.map((v) => el("option", { value: v, selected: v === 1 }, `${v}×`))),
      scrub: el("input", { type: "range", class: "scrub", min: 0, max: 0, step: 1, value: 0, "aria-label": "Step", "data-action": "scrub" }),
      counter: el("span", { class: "counter", part: "counter" }),
      marks: el("datalist", { id: `marks-${element}` }),
      marksNote: el("span", { class: "marks-note", part: "marks" }),
      predict: question ? el("button", { type: "button", "data-action": "predict", "aria-pressed": "false", "aria-keyshortcuts": "Q" }, "Predict") : null,
      exportPng: exporter ? el("button", { type: "button", "data-action": "export-png", title: "the view as a PNG picture, with a caption" }, "Save PNG") : null,
      exportSvg: exporter ? el("button", { type: "button", "data-action": "export-svg", title: "the view as an SVG picture, with a caption" }, "Save SVG") : null,
      exportScript: exporter?.script ? el("button", { type: "button", "data-action": "export-script", title: "the scenario text that reproduces this view" }, "Save script") : null,
      present: el("button", { type: "button", "data-action": "present", "aria-pressed": "false", "aria-keyshortcuts": "P" }, "Present"),
      keys: el("button", { type: "button", "data-action": "keys", "aria-label": "Keyboard shortcuts (?)", "aria-keyshortcuts": "Shift+?", "aria-haspopup": "dialog" }, "?"),
    };
    ui.keymap = el("dialog", { class: "keymap", "aria-labelledby": `keymap-title-${element}` });
    ui.controls = el("div", { class: "controls", role: "group", "aria-label": "Step controls", part: "controls" },
      ui.first, ui.back, ui.play, ui.forward, ui.last, el("label", { class: "speed" }, "speed", ui.speed), ui.scrub, ui.marks, ui.counter, ui.marksNote,
      extraControls, ui.predict, ui.present, ui.exportPng, ui.exportSvg, ui.exportScript, ui.keys);
    ui.quiz = el("div", { class: "quiz", part: "quiz", role: "group", "aria-label": "Predict, then reveal", tabindex: "-1", hidden: true });
    ui.quiz.addEventListener("click", (ev) => {
      const b = ev.target instanceof Element ? ev.target.closest("button[data-choice]") : null;
      if (b) this.answer(b.dataset.choice);
    });
    this.ui = ui;
    this.element = element;

    ui.controls.addEventListener("click", (ev) => {
      const action = ev.target instanceof Element ? ev.target.closest("button")?.dataset.action : null;
      if (action === "first") this.first();
      else if (action === "back") this.back();
      else if (action === "forward") this.forward();
      else if (action === "last") this.last();
      else if (action === "play") this.toggle();
      else if (action === "keys") this.showKeys();
      else if (action === "present") this.present(!host.hasAttribute("presenter"));
      else if (action === "predict") this.setPredict(!this.#predict);
      else if (action === "export-png") exporter.png().then(({ name, blob }) => downloadText(name, blob, "image/png"));
      else if (action === "export-svg") {
        const { name, text } = exporter.svg();
        downloadText(name, text, "image/svg+xml");
      } else if (action === "export-script") {
        const { name, text } = exporter.script();
        downloadText(name, text);
      }
    });
    ui.scrub.addEventListener("input", () => {
      const k = Number(ui.scrub.value); // before pause() re-renders the controls
      this.pause();
      host.goTo(k);
    });
    // The slider's keys step the player themselves rather than relying on the browser to turn a
    // key into an `input` event: one step per arrow, a tenth of the run per Page key.
    ui.scrub.addEventListener("keydown", (ev) => {
      if (ev.altKey || ev.ctrlKey || ev.metaKey || !host.steps) return;
      const k = host.step;
      const page = Math.max(1, Math.round(host.steps / 10));
      const to = {
        ArrowRight: k + 1, ArrowUp: k + 1, ArrowLeft: k - 1, ArrowDown: k - 1,
        PageUp: k + page, PageDown: k - page, Home: 0, End: host.steps - 1,
      }[ev.key];
      if (to === undefined) return;
      ev.preventDefault();
      this.pause();
      host.goTo(to);
    });
    ui.speed.addEventListener("change", () => (this.speed = Number(ui.speed.value)));
    host.addEventListener("keydown", (ev) => this.#onKey(ev));
  }

  /** Every shortcut of the view: [[keys, what]] (the keyboard map's rows). */
  get shortcuts() {
    return [
      ["←", "step back"],
      ["→", "step forward"],
      ["Home", "first step"],
      ["End", "last step"],
      ["Space", "play / pause"],
      ["+", "play faster"],
      ["-", "play slower"],
      ["?", "this keyboard map"],
      ["P", "presenter mode (Esc leaves it)"],
      ...(this.#question ? [["Q", "predict, then reveal: asked before each decision is shown"], ["1 … 9", "answer the question shown"]] : []),
      ...this.#viewKeys,
    ];
  }

  #onKey(ev) {
    this.handleKey(ev);
  }

  /**
   * Handles one keydown for the view: from the host itself, or passed on by a page whose one main
   * view takes the keys pressed anywhere on it (lib/page-keys.js). Keys typed into a form field or
   * pressed in a dialog are left alone. Returns true when the key did something.
   */
  handleKey(ev) {
    if (ev.defaultPrevented || ev.altKey || ev.ctrlKey || ev.metaKey) return false;
    const target = ev.composedPath()[0];
    if (!(target instanceof Element)) return false;
    if (target.closest("dialog") || target.closest(FIELD)) return false;
    if (this.#asking >= 0 && /^[1-9]$/.test(ev.key)) {
      const b = this.ui.quiz.querySelectorAll("button[data-choice]")[Number(ev.key) - 1];
      if (!b) return false;
      ev.preventDefault();
      this.answer(b.dataset.choice);
      return true;
    }
    const onButton = !!target.closest("button, a[href], summary");
    const actions = {
      ArrowLeft: () => this.back(),
      ArrowRight: () => this.forward(),
      Home: () => this.first(),
      End: () => this.last(),
      " ": onButton ? null : () => this.toggle(),
      "+": () => this.faster(1),
      "=": () => this.faster(1),
      "-": () => this.faster(-1),
      "_": () => this.faster(-1),
      "?": () => this.showKeys(),
      p: () => this.present(!this.#host.hasAttribute("presenter")),
      q: this.#question ? () => this.setPredict(!this.#predict) : null,
      Q: this.#question ? () => this.setPredict(!this.#predict) : null,
      P: () => this.present(!this.#host.hasAttribute("presenter")),
      Escape: this.#host.hasAttribute("presenter") ? () => this.present(false) : null,
      ...this.#extraKeys,
    };
    const act = actions[ev.key];
    if (!act) return false;
    ev.preventDefault();
    act();
    return true;
  }

  /**
   * Presenter mode on or off: the host's `presenter` attribute (the element's sheet fills the
   * screen, hides what is not the story, grows type and lanes, high contrast), and the browser's
   * fullscreen where it allows it (leaving fullscreen with Esc leaves presenter mode too).
   */
  present(on) {
    const host = this.#host;
    host.toggleAttribute("presenter", !!on);
    this.syncPresent();
    if (on && !document.fullscreenElement && host.requestFullscreen) {
      host.requestFullscreen().then(() => (this.#fullscreen = true), () => {});
    } else if (!on && this.#fullscreen && document.fullscreenElement === host) {
      document.exitFullscreen().catch(() => {});
    }
    if (!on) this.#fullscreen = false;
    if (!this.#watchingFullscreen) {
      this.#watchingFullscreen = true;
      document.addEventListener("fullscreenchange", () => {
        if (this.#fullscreen && document.fullscreenElement !== host) {
          this.#fullscreen = false;
          if (host.hasAttribute("presenter")) this.present(false);
        }
      });
    }
  }
  #fullscreen = false;
  #watchingFullscreen = false;

  /** The Present button follows the host's `presenter` attribute (a page may set it). */
  syncPresent() {
    const on = this.#host.hasAttribute("presenter");
    this.ui.present.setAttribute("aria-pressed", String(on));
    this.ui.present.textContent = on ? "Leave presenter mode" : "Present";
  }

  first() {
    this.pause();
    this.#host.goTo(0);
  }
  last() {
    this.pause();
    this.#host.goTo(this.#host.steps - 1);
  }
  back() {
    this.#host.goTo(this.#host.step - 1);
  }
  forward() {
    const k = this.#host.step + 1;
    if (k >= this.#host.steps) return;
    if (this.#predict && !this.#answers.has(k) && this.#question?.(k)) {
      this.pause();
      this.#ask(k);
      return;
    }
    this.#host.goTo(k);
  }

  // --- predict, then reveal --------------------------------------------------------------------

  get predicting() {
    return this.#predict;
  }
  /** The score of the run so far: {right, asked}. */
  get score() {
    let right = 0;
    for (const a of this.#answers.values()) if (a.right) right++;
    return { right, asked: this.#answers.size };
  }
  /** Predict mode on or off: on, stepping forward onto a decision asks for it first. */
  setPredict(on) {
    this.#predict = !!on;
    this.ui.predict?.setAttribute("aria-pressed", String(this.#predict));
    if (!this.#predict) this.#clearQuiz();
    else this.#renderQuiz(null, this.#predict ? "Predict is on: step forward, and before each decision is shown you choose what it will be." : "");
  }
  /** A new run: the answers and the score start again. */
  newRun() {
    this.#answers.clear();
    this.#asking = -1;
    if (this.#predict) this.#renderQuiz(null, "Predict is on: step forward, and before each decision is shown you choose what it will be.");
    else this.#clearQuiz();
  }
  #clearQuiz() {
    this.#asking = -1;
    // Hiding the panel would drop a focus inside it to the page: hand it to the Predict button.
    const active = this.ui.quiz.getRootNode()?.activeElement;
    if (active && (active === this.ui.quiz || this.ui.quiz.contains(active))) this.ui.predict?.focus();
    this.ui.quiz.hidden = true;
    this.ui.quiz.replaceChildren();
  }
  #scoreText() {
    const { right, asked } = this.score;
    return `Score: ${right} of ${asked}`;
  }
  #renderQuiz(body, text) {
    const quiz = this.ui.quiz;
    quiz.hidden = false;
    quiz.replaceChildren(...[text ? el("p", { class: "quiz-note" }, text) : null, body, el("p", { class: "score", "aria-live": "polite" }, this.#scoreText())].filter(Boolean));
  }
  #ask(k) {
    const q = this.#question(k);
    this.#asking = k;
    const id = `quiz-prompt-${this.element}`;
    const group = el("div", { class: "choices", role: "group", "aria-labelledby": id },
      q.choices.map((c, i) => el("button", { type: "button", "data-choice": c, "aria-keyshortcuts": String(i + 1) }, `${i + 1}. ${c}`)));
    this.#renderQuiz(el("div", {}, el("p", { class: "prompt", id }, `Step ${k + 1}: ${q.prompt}`), group), "");
    group.querySelector("button")?.focus();
  }
  /** Answers the question shown with `choice`, reveals the real answer and shows its step. */
  answer(choice) {
    const k = this.#asking;
    if (k < 0) return;
    const q = this.#question(k);
    const right = choice === q.answer;
    this.#answers.set(k, { picked: choice, right });
    this.#asking = -1;
    const reveal = el("div", { class: `reveal ${right ? "right" : "wrong"}`, "data-right": String(right) },
      el("p", { class: "verdict" }, right ? `✓ Right: ${q.answer}.` : `✗ You chose ${choice}; the model's answer is ${q.answer}.`),
      q.rule ? el("p", {}, el("span", { class: "rule" }, q.rule), ` ${q.sentence ?? ""}`) : el("p", {}, q.sentence ?? ""),
      q.source ? el("p", { class: "source" }, `Kafka source: ${q.source}`) : null);
    this.#renderQuiz(reveal, "");
    this.#host.goTo(k);
    // The chosen button is gone: the reveal keeps the focus (and the keys) inside the element.
    this.ui.quiz.focus();
  }

  get speed() {
    return this.#speed;
  }
  set speed(v) {
    const n = Number(v);
    this.#speed = SPEEDS.includes(n) ? n : 1;
    this.ui.speed.value = String(this.#speed);
    if (this.playing) this.#restart();
  }
  /** One speed up (dir 1) or down (-1). */
  faster(dir) {
    const i = SPEEDS.indexOf(this.#speed);
    this.speed = SPEEDS[Math.min(SPEEDS.length - 1, Math.max(0, i + dir))];
  }

  get playing() {
    return this.#timer !== null;
  }
  toggle() {
    if (this.playing) this.pause();
    else this.play();
  }
  play() {
    const host = this.#host;
    if (this.playing || host.steps < 2) return;
    if (host.step >= host.steps - 1) host.goTo(0);
    this.#restart();
    this.render();
  }
  #restart() {
    clearInterval(this.#timer);
    this.#timer = setInterval(() => {
      const host = this.#host;
      if (host.step < host.steps - 1) this.forward(); // a question pauses the play
      if (host.step >= host.steps - 1) this.pause();
    }, Math.max(10, this.interval / this.#speed));
  }
  pause() {
    if (this.#timer !== null) clearInterval(this.#timer);
    this.#timer = null;
    this.render();
  }

  /**
   * Marks story steps on the scrub bar (tick marks: the slider's datalist) and names them beside
   * it (`label`, e.g. "the runs differ at"); an empty list clears them. Returns the steps marked.
   */
  setMarks(steps, label = "marked") {
    const { marks, marksNote, scrub } = this.ui;
    const list = [...new Set(steps)].filter((k) => Number.isInteger(k) && k >= 0).sort((a, b) => a - b);
    marks.replaceChildren(...list.map((k) => el("option", { value: k, label: `step ${k + 1}` })));
    if (list.length) scrub.setAttribute("list", marks.id);
    else scrub.removeAttribute("list");
    marksNote.textContent = list.length ? `${label} step${list.length === 1 ? "" : "s"} ${list.map((k) => k + 1).join(", ")}` : "";
    marksNote.dataset.steps = list.join(",");
    return list;
  }

  /** Updates the controls to the host's step; `valuetext(k)` is the slider's spoken value. */
  render(valuetext = null) {
    const { first, back, play, forward, last, counter, scrub } = this.ui;
    const n = this.#host.steps;
    const k = this.#host.step;
    const none = n === 0;
    const active = this.ui.controls.getRootNode()?.activeElement ?? null;
    first.disabled = none || k === 0;
    back.disabled = none || k === 0;
    forward.disabled = none || k >= n - 1;
    last.disabled = none || k >= n - 1;
    play.disabled = none || n < 2;
    play.textContent = this.playing ? "Pause" : "Play";
    play.setAttribute("aria-pressed", String(this.playing));
    scrub.disabled = none;
    scrub.max = String(Math.max(0, n - 1));
    if (scrub.value !== String(k)) scrub.value = String(k);
    if (valuetext) this.#valuetext = valuetext;
    scrub.setAttribute("aria-valuetext", none ? "no steps" : this.#valuetext?.(k) ?? `step ${k + 1} of ${n}`);
    counter.textContent = none ? "" : `step ${k + 1} / ${n}`;
    if (active && active.disabled) {
      // A focused button that gets disabled (Back at the first step …) would drop the focus to
      // the page: hand it to the control that still moves.
      const to = active === first || active === back ? forward : active === forward || active === last ? back : scrub;
      (to.disabled ? scrub : to).focus();
    }
  }
  #valuetext = null;

  /** Opens the keyboard map: every shortcut of the view, in a dialog (Esc or Close closes it). */
  showKeys() {
    const dialog = this.ui.keymap;
    const close = el("button", { type: "button", class: "close" }, "Close");
    close.addEventListener("click", () => dialog.close());
    dialog.replaceChildren(
      el("h2", { id: `keymap-title-${this.element}` }, `Keyboard shortcuts: the ${this.element}`),
      el("table", {},
        el("thead", {}, el("tr", {}, el("th", { scope: "col" }, "key"), el("th", { scope: "col" }, "what it does"))),
        el("tbody", {}, this.shortcuts.map(([k, what]) => el("tr", { "data-key": k }, el("td", {}, el("kbd", {}, k)), el("td", {}, what))))),
      el("div", { class: "dialog-actions" }, close));
    if (!dialog.open) dialog.showModal();
    close.focus();
  }
}

/**
 * The script source: text, or a script's JSON twin (text starting with "{") as an object — an
 * idempotence script's, or a transactions script's (`"model": "transactions"`; parseScenario and
 * `eoslab twin` write either) — which runTxnScenario takes as it takes the text.
 */
export function parseSource(text) {
  const t = text.trim();
  if (t.startsWith("{")) {
    try {
      return { kind: "json", text, value: JSON.parse(t) };
    } catch (err) {
      throw new Error(`JSON scenario: ${err.message}`);
    }
  }
  return { kind: "text", text, value: text };
}

/**
 * The script's lines before the line a script error names ("line N: …"), to run instead so the
 * view keeps showing the steps before the mistake; null when the error names no line after the
 * first (nothing to show then).
 */
export function linesBeforeError(text, message) {
  const m = /^line (\d+):/.exec(String(message ?? ""));
  const n = m ? Number(m[1]) : 0;
  if (!(n > 1) || typeof text !== "string") return null;
  const lines = text.split(/\r?\n/);
  if (n > lines.length) return null;
  return lines.slice(0, n - 1).join("\n") + "\n";
}

/** The message shown under a script error when the steps before it are shown. */
export const partialNote = (message) => {
  const n = /^line (\d+):/.exec(message)?.[1];
  return `${message}\nThe steps before line ${n} are shown; fix the line and run the script again.`;
};

/**
 * The lab pages' pre-built runs (scripts/serve.py's /runs/, made as make dist makes dist's runs/):
 * resolves to `(element, name) => URL | null`, the run file of built-in scenario `name` for
 * `element` (kafka-ladder, kafka-timeline, or kafka-producer-config and a page's name), or null
 * when the server has none (another static server, runs not made yet, a pkg/ rebuilt since):
 * the page then runs the model as before. Never throws.
 */
export async function labRuns(base = new URL("../../runs/", import.meta.url)) {
  const none = () => null;
  try {
    const res = await fetch(new URL("index.json", base));
    if (!res.ok) return none;
    const index = await res.json();
    const runs = index?.eoslab === "runs-index" && index.runs && typeof index.runs === "object" ? index.runs : {};
    return (element, name) =>
      Array.isArray(runs[element]) && runs[element].includes(name) ? new URL(`${element}/${encodeURIComponent(name)}.json`, base).href : null;
  } catch {
    return none;
  }
}
