// What the model elements (<kafka-ladder>, <kafka-timeline>, <kafka-producer-config>) share: the
// base class and events, define(), attribute reflection, the microtask-batched update, the wasm
// package, the scenario source (the step controls are lib/player.js), the HiDPI canvas and its theme, and the dialog
// that opens a batch in <kafka-batch>. They run the full package (pkg/eoslab.js); <kafka-batch>,
// which loads the decode-only one (wasm.js), does not import this module.
//
// Importable in Node, where HTMLElement, CustomEvent and document may be absent: nothing here
// touches the DOM until an element is built. Text always reaches the page as text (dom.js el).
import { el, lazyStyleSheet } from "./dom.js";
import { fetchAsset, loadFull } from "./wasm.js";
import { isScenarioName } from "./script-kind.js";

// --- elements and events ---------------------------------------------------------------------

/** HTMLElement where there is one; a plain class elsewhere (Node imports the modules for their helpers). */
export const BaseElement = globalThis.HTMLElement ?? class {};
const BaseEvent = globalThis.CustomEvent ?? class {};

/** A CustomEvent that bubbles and crosses shadow roots (composed), carrying `detail`. */
export class ComposedEvent extends BaseEvent {
  constructor(type, detail) {
    super(type, { bubbles: true, composed: true, detail });
  }
}

/** Defines `cls` as `tag` in `registry` unless the tag is taken (each element's static define()). */
export function defineElement(cls, tag, registry = globalThis.customElements) {
  if (registry && !registry.get(tag)) registry.define(tag, cls);
  return cls;
}

/** Attaches `host`'s open shadow root and adopts `sheet` (dom.js lazyStyleSheet) when there is one. */
export function attachStyledShadow(host, sheet) {
  const root = host.attachShadow({ mode: "open" });
  if (sheet) root.adoptedStyleSheets = [sheet];
  return root;
}

/**
 * Defines properties on `cls.prototype` that reflect attributes of the lower-cased name (readOnly
 * → readonly): String ones read the attribute (or "") and write String(v), Boolean ones are the
 * attribute's presence. `spec` maps property → String | Boolean.
 */
export function reflectAttributes(cls, spec) {
  for (const [prop, type] of Object.entries(spec)) {
    const attr = prop.toLowerCase();
    const accessors =
      type === Boolean
        ? { get() { return this.hasAttribute(attr); }, set(v) { this.toggleAttribute(attr, !!v); } }
        : { get() { return this.getAttribute(attr) ?? ""; }, set(v) { this.setAttribute(attr, String(v)); } };
    Object.defineProperty(cls.prototype, prop, { ...accessors, configurable: true });
  }
  return cls;
}

const reflecting = new WeakSet();

/**
 * Sets attribute `name` of `host` to `value` (when it differs) on the element's own behalf: while
 * it does, isReflecting(host) is true, so attributeChangedCallback can tell it from a page's change.
 */
export function reflectAttribute(host, name, value) {
  if (host.getAttribute(name) === value) return;
  reflecting.add(host);
  try {
    host.setAttribute(name, value);
  } finally {
    reflecting.delete(host);
  }
}

/** True inside reflectAttribute(host, …): the attribute change is the element's own. */
const isReflecting = (host) => reflecting.has(host);

/**
 * Coalesces calls into one `update()` in a microtask, so attribute changes made together update
 * the element once. A call while one is pending, or while `active()` is false (the element is not
 * connected), does nothing.
 */
export function microtaskUpdater(update, active) {
  let pending = null;
  return () => {
    if (pending || !active()) return;
    pending = (async () => {
      await Promise.resolve();
      pending = null;
      await update();
    })();
  };
}

// --- wasm and <kafka-batch> --------------------------------------------------------------------

let wasmReady = null;

/**
 * Resolves to the initialised package pkg/eoslab.js, importing it and fetching its wasm on the first
 * call only: a model element drawing a pre-built run (lib/runs.js) never calls it until the reader
 * asks for something the run does not hold. A failed load is not cached (the next call tries again)
 * and says what could not be fetched: lib/wasm.js loadFull's error names the file, the URL it tried
 * and that the eoslab/ folder must be served whole next to the module (assetError).
 */
export function ready() {
  wasmReady ??= loadFull().catch((err) => {
    wasmReady = null;
    throw err;
  });
  return wasmReady;
}

let batchInspector = null; // promise of the lazy import of <kafka-batch>

/** Resolves to whether <kafka-batch> is defined, importing ../kafka-batch.js on first use. */
export function loadBatchInspector() {
  if (customElements.get("kafka-batch")) return Promise.resolve(true);
  batchInspector ??= import(new URL("../kafka-batch.js", import.meta.url).href).then(
    () => !!customElements.get("kafka-batch"),
    () => false,
  );
  return batchInspector;
}

// --- scenario players (<kafka-ladder>, <kafka-timeline>) -----------------------------------------

/**
 * The script `host` runs: its `script` attribute, else the built-in scenario its `scenario`
 * attribute names (scenarios/<name>.eos, fetched relative to www/), else its text content.
 */
export async function scenarioSource(host) {
  const script = host.getAttribute("script");
  if (script !== null) return script;
  const name = host.getAttribute("scenario");
  if (name !== null && name.trim() !== "") {
    if (!isScenarioName(name)) throw new Error(`unknown scenario name "${name}"`);
    const url = new URL(`../../scenarios/${name}.eos`, import.meta.url);
    // A 404 is a name that is not built in, or a folder copied in part: the message names the URL and both.
    const res = await fetchAsset(url, `the built-in scenario "${name}" (is the name right? scenarios/index.json lists them)`);
    return await res.text();
  }
  return host.textContent ?? "";
}

/** Calls `changed()` when `host`'s text changes while it is the script (no `script` or `scenario` attribute). */
export function observeScriptText(host, changed) {
  const observer = new MutationObserver(() => {
    if (!host.hasAttribute("script") && !host.hasAttribute("scenario")) changed();
  });
  observer.observe(host, { childList: true, characterData: true, subtree: true });
  return observer;
}

/**
 * The `step` attribute as a step in 0..max: `end` is `max`; `fallback` (the first step, 0: stories
 * are told from the start) when it is absent, empty or not a number.
 */
export function stepAttribute(host, max, fallback = 0) {
  const raw = host.getAttribute("step");
  if (raw !== null && raw.trim().toLowerCase() === "end") return Math.max(0, max);
  if (raw === null || raw.trim() === "") return Math.min(Math.max(0, max), fallback);
  const v = Math.trunc(Number(raw));
  return Number.isFinite(v) ? Math.min(Math.max(0, max), Math.max(0, v)) : Math.min(Math.max(0, max), fallback);
}

/**
 * What a scenario player has to redo as its attributes change: run its source again (`source`: the
 * script, scenario … changed) or show the step its `step` attribute asks for (`step`). Both hold
 * before the first update, which loads.
 */
export class PlayerChanges {
  source = true;
  step = true;
  #host;
  #firstLoad = true;

  constructor(host) {
    this.#host = host;
  }

  /**
   * Records a change of attribute `name` (step, readonly: the step; any other: the source). False
   * when there is nothing to update: the element reflected its own step.
   */
  attribute(name) {
    if (name === "step" && isReflecting(this.#host)) return false;
    if (name === "step" || name === "readonly") this.step = true;
    else this.source = true;
    return true;
  }

  /**
   * Takes the source change (and any step change with it): whether the step to show once loaded is
   * the `step` attribute's, which it is when that changed too or was set before the first load.
   */
  takeSource() {
    const fromAttribute = this.step || (this.#firstLoad && this.#host.hasAttribute("step"));
    this.source = false;
    this.step = false;
    this.#firstLoad = false;
    return fromAttribute;
  }

  /** Takes the step change: whether there was one. */
  takeStep() {
    const changed = this.step;
    this.step = false;
    return changed;
  }
}

/** What the `step` property's setter writes to the attribute: a whole number ≥ 0, or "end". */
export const stepValue = (v) => (String(v).trim().toLowerCase() === "end" ? "end" : String(Math.max(0, Math.trunc(Number(v)) || 0)));

/** The rules of nextStepsGroup. */
export const NEXT_STEPS_CSS = `.next { display: flex; flex-wrap: wrap; gap: .35rem; align-items: center; margin: .5rem 0 0; }
.next[hidden] { display: none; }
.next .label { color: var(--eos-muted); font-size: 13px; margin-right: .2rem; }`;

/** The group of next-step buttons (data-line: the script line a click appends with player.appendStep). */
export function nextStepsGroup(player) {
  const next = el("div", { class: "next", role: "group", "aria-label": "What can happen next", part: "next" });
  next.addEventListener("click", (ev) => {
    const b = ev.target instanceof Element ? ev.target.closest("button[data-line]") : null;
    if (b) player.appendStep(b.dataset.line);
  });
  return next;
}

/** A next-step button for {line, label}, one of the model's nextSteps. */
export const nextStepButton = (n) => el("button", { type: "button", "data-line": n.line, title: n.line }, n.label);

// --- styles and theme --------------------------------------------------------------------------

/**
 * The start of a model element's stylesheet: the :host rule with the light colour tokens (each the
 * page's --eoslab-* override when it sets one: lib/theme.js; the defaults are the lab pages' own
 * palette, www/style.css, whose contrast the axe tests check), the box and the font.
 * `tokens.light` are declarations added to the tokens (e.g. DRAWING_TOKENS). The dark tokens are
 * hostDarkCSS(tokens), a second sheet that lib/theme.js's SchemeWatcher adopts while dark.
 */
export function hostCSS(tokens = {}) {
  const more = (decls) => (decls ? ` ${decls}` : "");
  return `:host {
  --eos-bg: var(--eoslab-bg, #ffffff); --eos-fg: var(--eoslab-fg, #1b1f24); --eos-muted: var(--eoslab-muted, #57606a);
  --eos-border: var(--eoslab-border, #d0d7de); --eos-panel: var(--eoslab-panel, #f6f8fa); --eos-accent: var(--eoslab-accent, #0a58b5);
  --eos-ok: var(--eoslab-ok, #1a7f37); --eos-bad: var(--eoslab-bad, #b3261e);${more(tokens.light)}
  --eos-mono: var(--eoslab-mono, ui-monospace, SFMono-Regular, Menlo, Consolas, "Liberation Mono", "DejaVu Sans Mono", monospace);
  display: block; color: var(--eos-fg); font: 14px/1.45 var(--eoslab-font, system-ui, -apple-system, "Segoe UI", Roboto, sans-serif);
  border: 1px solid var(--eos-border); border-radius: 8px; background: var(--eos-bg); padding: .75rem; margin: .75rem 0;
  color-scheme: light;
}
:host([hidden]) { display: none; }
* { box-sizing: border-box; }`;
}

/** The dark tokens of hostCSS(tokens), as a rule of their own (a sheet adopted after the element's). */
export function hostDarkCSS(tokens = {}) {
  const more = (decls) => (decls ? ` ${decls}` : "");
  return `:host {
  --eos-bg: var(--eoslab-bg, #0d1117); --eos-fg: var(--eoslab-fg, #e6edf3); --eos-muted: var(--eoslab-muted, #9da7b3);
  --eos-border: var(--eoslab-border, #3d444d); --eos-panel: var(--eoslab-panel, #161b22); --eos-accent: var(--eoslab-accent, #6cb6ff);
  --eos-ok: var(--eoslab-ok, #3fb950); --eos-bad: var(--eoslab-bad, #ff7b72);${more(tokens.dark)}
  color-scheme: dark;
}`;
}

/** The warn and dup tokens of the elements that draw (readTheme reads them), light and dark. */
export const DRAWING_TOKENS = {
  light: "--eos-warn: var(--eoslab-warn, #9a6700); --eos-dup: #8250df;",
  dark: "--eos-warn: var(--eoslab-warn, #d29922); --eos-dup: #a371f7;",
};

/** The dark sheet of every model element (hostDarkCSS with the drawing tokens, unused by those that do not draw). */
export const modelDarkSheet = lazyStyleSheet(hostDarkCSS(DRAWING_TOKENS));

/** The colours and the monospace font a canvas draws with: the host's --eos-* tokens, with the light defaults. */
export function readTheme(host) {
  const cs = getComputedStyle(host);
  const v = (name, fallback) => cs.getPropertyValue(name).trim() || fallback;
  return {
    bg: v("--eos-bg", "#fff"), fg: v("--eos-fg", "#1b1f24"), muted: v("--eos-muted", "#5b6570"),
    border: v("--eos-border", "#d0d7de"), panel: v("--eos-panel", "#f6f8fa"), accent: v("--eos-accent", "#0b62c4"),
    ok: v("--eos-ok", "#1a7f37"), bad: v("--eos-bad", "#c62828"), warn: v("--eos-warn", "#9a6700"), dup: v("--eos-dup", "#8250df"),
    mono: v("--eos-mono", "monospace"),
  };
}

/**
 * Calls `scheme()` when prefers-color-scheme changes and `dpr()` when the device pixel ratio does
 * (zoom, another screen). Returns the function that stops watching.
 */
export function watchDisplay({ scheme = null, dpr }) {
  const schemeQuery = scheme ? matchMedia("(prefers-color-scheme: dark)") : null;
  schemeQuery?.addEventListener("change", scheme);
  let dprQuery = null;
  const onDpr = () => {
    watchDpr();
    dpr();
  };
  // A resolution query matches one ratio only: after a change, watch the new one.
  const watchDpr = () => {
    dprQuery?.removeEventListener("change", onDpr);
    dprQuery = matchMedia(`(resolution: ${globalThis.devicePixelRatio || 1}dppx)`);
    dprQuery.addEventListener("change", onDpr);
  };
  watchDpr();
  return () => {
    schemeQuery?.removeEventListener("change", scheme);
    dprQuery.removeEventListener("change", onDpr);
  };
}

// --- canvas ------------------------------------------------------------------------------------

/**
 * request() has `draw()` called once in the next animation frame, however often it is called
 * before that frame (and not at all while `active()` is false); cancel() drops a pending frame.
 */
export function frameRequester(draw, active) {
  let raf = 0;
  return {
    request() {
      if (raf || !active()) return;
      raf = requestAnimationFrame(() => {
        raf = 0;
        draw();
      });
    },
    cancel() {
      if (raf) cancelAnimationFrame(raf);
      raf = 0;
    },
  };
}

/**
 * The device pixel ratio and the backing store size (device pixels) of a width × height CSS px
 * canvas; `scale` is a CSS zoom the canvas is shown at (presenter mode), so it stays sharp.
 */
export function backingSize(width, height, scale = 1) {
  const dpr = (globalThis.devicePixelRatio || 1) * scale;
  return { dpr, width: Math.round(width * dpr), height: Math.round(height * dpr) };
}

/**
 * Sizes `canvas`'s backing store for width × height CSS px at the device pixel ratio (when it
 * differs) and returns its 2d context scaled to CSS px, and whether the store was resized (which
 * resets the context's state: CanvasStyle reset()).
 */
export function hidpiContext(canvas, width, height, scale = 1) {
  const { dpr, width: bw, height: bh } = backingSize(width, height, scale);
  const resized = canvas.width !== bw || canvas.height !== bh;
  if (resized) {
    canvas.width = bw;
    canvas.height = bh;
  }
  const ctx = canvas.getContext("2d");
  ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
  return { ctx, resized };
}

/** Strokes an × of half-width `s` centred on (x, y) (a lost message, a failed check). */
export function cross(ctx, x, y, s) {
  ctx.beginPath();
  ctx.moveTo(x - s, y - s);
  ctx.lineTo(x + s, y + s);
  ctx.moveTo(x + s, y - s);
  ctx.lineTo(x - s, y + s);
  ctx.stroke();
}

const FONT_PX_RE = /(\d+(?:\.\d+)?)px\b/;

/** Presenter mode draws no text smaller than this on screen (readable from the back of a room at 1280×720). */
export const PRESENTER_TEXT_PX = 20;

/** The smallest font (CSS px of a drawing shown at CSS `zoom`) that is PRESENTER_TEXT_PX on screen, rounded up. */
// (0.5% above the minimum: a canvas shown at a fractional CSS width loses a hair to its whole-pixel backing store.)
export const presenterMinFont = (zoom) => Math.ceil((PRESENTER_TEXT_PX * 100.5) / zoom) / 100;

/**
 * Sets context properties (fillStyle, font …) only when they change: setting one is not free.
 * With a minimum font size (presenter mode: minFont(20 / zoom)), every font set through
 * it is drawn at least that large: "bold 9.5px mono" becomes "bold 10px mono" at minFont(10).
 */
export class CanvasStyle {
  #values = {};
  #minFontPx = 0;

  set(ctx, key, value) {
    if (key === "font" && this.#minFontPx > 0) value = value.replace(FONT_PX_RE, (m, px) => `${this.px(Number(px))}px`);
    if (this.#values[key] !== value) {
      ctx[key] = value;
      this.#values[key] = value;
    }
  }

  /** Sets the smallest font size (CSS px of the drawing) that set() lets through; 0: none. */
  minFont(px) {
    const min = px > 0 ? px : 0;
    if (min !== this.#minFontPx) {
      this.#minFontPx = min;
      this.#values.font = null;
    }
  }

  /** The size a font of `px` is drawn at (at least the minimum font size). */
  px(px) {
    return Math.max(px, this.#minFontPx);
  }

  /** Forgets `key` after it was set directly on the context (a pattern as fillStyle). */
  forget(key) {
    this.#values[key] = null;
  }

  /** Forgets everything: the context's state was reset (restore(), a resized canvas). */
  reset() {
    this.#values = {};
  }
}

// --- the batch dialog ----------------------------------------------------------------------------

/** The rules of the batch dialog (showBatchDialog), for the stylesheet of an element that has one. */
export const DIALOG_CSS = `dialog { max-width: min(60rem, 95vw); width: 100%; border: 1px solid var(--eos-border); border-radius: 8px;
         background: var(--eos-bg); color: var(--eos-fg); padding: .75rem 1rem; }
dialog::backdrop { background: rgb(0 0 0 / .35); }
dialog h2 { margin: 0 0 .4rem; font-size: 15px; }
dialog table { border-collapse: collapse; font-size: 13px; margin: .3rem 0 .6rem; }
dialog th, dialog td { border: 1px solid var(--eos-border); padding: .1rem .45rem; text-align: left; }
dialog th { background: var(--eos-panel); font-weight: 600; }
dialog td { font-family: var(--eos-mono); }
dialog pre { font-family: var(--eos-mono); font-size: 12px; background: var(--eos-panel); padding: .5rem; border-radius: 6px;
             white-space: pre-wrap; overflow-wrap: anywhere; max-height: 16rem; overflow: auto; }
.dialog-actions { display: flex; justify-content: flex-end; gap: .5rem; }`;

/**
 * Shows a batch in `dialog` (a <dialog aria-labelledby=…>) and opens it: the title (an h2 with the
 * id the dialog is labelled by), a table of `rows` ([field, value]), then the bytes in a read-only
 * <kafka-batch> when ../kafka-batch.js loads, else as hex text (a pre labelled `hexLabel`), and a
 * Close button, which gets the focus.
 */
export async function showBatchDialog(dialog, { title, rows, hex, hexLabel }) {
  const heading = el("h2", { id: dialog.getAttribute("aria-labelledby") }, title);
  const fields = el("table", { class: "fields" },
    el("tbody", {}, rows.map(([k, v]) => el("tr", { "data-field": k }, el("th", {}, k), el("td", {}, String(v))))));
  const close = el("button", { type: "button", class: "close" }, "Close");
  close.addEventListener("click", () => dialog.close());
  const body = [heading, fields];
  if (await loadBatchInspector()) {
    const inspector = document.createElement("kafka-batch");
    inspector.setAttribute("hex", hex);
    inspector.setAttribute("readonly", "");
    body.push(inspector);
  } else {
    body.push(el("pre", { class: "hex", "aria-label": hexLabel }, (hex.match(/.{1,2}/g) ?? []).join(" ")));
  }
  body.push(el("div", { class: "dialog-actions" }, close));
  dialog.replaceChildren(...body);
  if (!dialog.open) dialog.showModal();
  close.focus();
}
