// <kafka-batch>: the element — attributes, properties, lifecycle, reading the input (text, bytes, files;
// the worker's pass over big inputs), opening a batch, selection and events (documented in
// ../kafka-batch.js, the entry module). Beside it: limits.js, format.js, skeleton.js, panels.js, edit.js, picture.js, events.js.
import { bytesAreText, hexToBytes, isCapture } from "../lib/bytes.js";
import { dispatchWithLegacyName, el, replace, setText } from "../lib/dom.js";
import { ERROR_EXPLANATIONS, fieldInfo, labelOf } from "../lib/field-docs.js";
import { fieldValue } from "../lib/format.js";
import { MessagesPanel } from "../lib/messages.js";
import { shiftResult } from "../lib/slices.js";
import { darkStyleSheet, styleSheet } from "../lib/styles.js";
import { SchemeWatcher } from "../lib/theme.js";
import { NeedsDecoder, replayDecoder } from "../lib/decode-replay.js";
import { fetchRun } from "../lib/runs.js";
import { decoderIfLoaded, encoder, encoderIfLoaded, loadEoslab } from "../lib/wasm.js";
import { keepState } from "./edit.js";
import { CAPTURE_EVENT, INDEXED_EVENT, KafkaBatchDecodeEvent, KafkaBatchSelectEvent, LEGACY_EVENT, SPANS_EVENT } from "./events.js";
import { fmtBytes, fmtInt, hex2 } from "./format.js";
import { BIG_TEXT, RECORDS_PAGE, ROW_CACHE_MAX, SPAN_DEFER_BYTES, SYNC_PASS_MAX_BATCHES, SYNC_PASS_MAX_BYTES } from "./limits.js";
import {
  renderCompare, renderDetail, renderEmpty, renderErrors, renderLeader, renderNoBatch, renderPage,
  renderSummary, setProgress,
} from "./panels.js";
import { captionOf, exportPicture } from "./picture.js";
import { applyReadonly, buildShadowDom } from "./skeleton.js";

const HTMLElementBase = globalThis.HTMLElement || class {};

export class KafkaBatchElement extends HTMLElementBase {
  static define(tag = "kafka-batch", registry = globalThis.customElements) {
    if (registry && !registry.get(tag)) registry.define(tag, this);
    return this;
  }

  static get observedAttributes() {
    return ["hex", "base64", "run", "readonly", "batch", "compare-hex", "rows", "theme"];
  }

  // --- state ---
  #eoslab = null;
  #updating = null;
  #applied = { hex: null, base64: null, compare: null };
  #reflecting = false;
  #input = null; // {bytes, format, stripped, label, t0}
  #frames = null;
  #rows = new Map(); // batch index -> headers-only batch (segment list)
  #globalErrors = [];
  #pass = null; // {mode, done, total, stats, ms, id}
  #worker = null;
  #passId = 0;
  #sel = -1;
  #d = null; // opened batch: {index, batch, errors, start, end, F, ownerMain, ownerDec, decBytes, crcField, compressed}
  #active = -1;
  #page = 0;
  #editing = false;
  #formFor = -1;
  #comparing = false;
  #compareB = null;
  #liveTimer = 0;
  /** "Send to a leader": the panel is open; the batch its form was filled from. */
  #leaderOpen = false;
  #leaderFor = null;
  #leaderSeq = 0;
  /** Bumped by every encode request (form, compare builders): a late encoder load drops stale ones. */
  #encodeSeq = 0;
  /** "transaction-log" | "offsets" | null: the "Read records as" select (DecodeOptions.formatter). */
  #formatter = null;
  #readyResolve = null;
  #scheme = new SchemeWatcher(this, darkStyleSheet);
  #els = {};
  #grid = null;
  #decGrid = null;
  #list = null;
  /** Requests/responses (lib/messages.js): shown when the bytes are protocol messages. */
  #messages = new MessagesPanel();
  /** Timings of the last load, in ms since t0 (for the page status and the benchmark). */
  timing = null;
  /** Resolves after the first decode has been rendered. */
  ready = new Promise((r) => (this.#readyResolve = r));

  constructor() {
    super();
    const root = this.attachShadow({ mode: "open" });
    root.adoptedStyleSheets = [styleSheet()];
    buildShadowDom(this.#view, root);
  }

  connectedCallback() {
    this.#scheme.connect();
    if (!this.#actListening) {
      // Drawn from a pre-built run: the reader's first act (a pointer, a key, focus, a drop or a
      // paste) loads the real decoder, which answers whatever comes next.
      const act = () => {
        if (this.#eoslab?.replay) this.#realDecoder().catch(() => {});
      };
      for (const type of ["pointerdown", "keydown", "focusin", "dragenter", "paste"]) this.addEventListener(type, act, { capture: true, passive: true });
      this.#actListening = true;
    }
    this.#schedule();
  }
  #actListening = false;
  #replayUpdates = 0;

  /** The pre-built run file of the `run` attribute (a decode recorded at build time: lib/decode-replay.js), or null. */
  async #prebuilt() {
    const url = (this.getAttribute("run") ?? "").trim();
    if (!url) return null;
    const file = await fetchRun(new URL(url, this.ownerDocument?.baseURI ?? location.href), "kafka-batch");
    const input = file.input ?? {};
    // Made for these very bytes, or not used.
    return input.hex === this.getAttribute("hex") || (input.hex === undefined && input.base64 === this.getAttribute("base64")) ? file : null;
  }

  /** Replaces a replaying decoder with the real decode package (loaded once). */
  async #realDecoder() {
    if (this.#eoslab && !this.#eoslab.replay) return this.#eoslab;
    const m = await loadEoslab();
    this.#eoslab = m;
    return m;
  }

  disconnectedCallback() {
    this.#scheme.disconnect();
    this.#worker?.terminate();
    this.#worker = null;
    clearTimeout(this.#liveTimer);
  }

  attributeChangedCallback(name, oldValue, newValue) {
    if (oldValue === newValue) return;
    if (name === "theme") return this.#scheme.update();
    if (name === "batch" && this.#reflecting) return;
    this.#schedule();
  }

  // --- properties reflecting attributes ---
  get hex() { return this.getAttribute("hex") ?? ""; }
  set hex(v) { this.setAttribute("hex", String(v)); }
  get base64() { return this.getAttribute("base64") ?? ""; }
  set base64(v) { this.setAttribute("base64", String(v)); }
  get readOnly() { return this.hasAttribute("readonly"); }
  set readOnly(v) { this.toggleAttribute("readonly", Boolean(v)); }
  get batch() {
    const n = Number.parseInt(this.getAttribute("batch") ?? "0", 10);
    return Number.isFinite(n) && n >= 0 ? n : 0;
  }
  set batch(v) { this.setAttribute("batch", String(v)); }

  /** The bytes currently shown (the whole input). */
  get bytes() { return this.#input?.bytes ?? new Uint8Array(0); }
  /** Shows these bytes (copied), as if a binary file had been opened. */
  set bytes(v) {
    const bytes = v instanceof Uint8Array ? v.slice() : new Uint8Array(v);
    this.#whenReady(() => this.#loadBytes(bytes, { format: "binary", stripped: [], label: "bytes" }));
  }

  /** The opened batch in the decode shape (absolute positions), or null. */
  get selectedBatch() { return this.#d?.batch ?? null; }

  // For links that restore the view (www/lib/link-state.js via main.js): which batch is
  // open, which field is selected, and selecting a field by name as a click on its row does.
  /** The index of the opened batch (-1: none yet). */
  get openedBatch() { return this.#d?.index ?? -1; }
  /** The name of the selected field of the opened batch, or null. */
  get selectedField() { return this.#d?.F[this.#active]?.name ?? null; }
  /** Selects the opened batch's field `name` (false when it has none). */
  selectField(name) {
    const k = this.#d ? this.#d.F.findIndex((f) => f.name === name) : -1;
    if (k < 0) return false;
    this.#setActive(k, "table");
    return true;
  }

  /** Loads text (any accepted layout), bytes or a Blob/File, like a paste or a drop. */
  load(input, label = "input") {
    if (typeof input === "string") {
      if (input.length > BIG_TEXT) this.#parkBigText(input);
      else if (this.#els.input) this.#els.input.value = input;
      return this.#whenReady(() => this.#loadText(input, label, "auto"));
    }
    if (input instanceof Blob) return this.#loadBlob(input);
    this.bytes = input;
    return this.ready;
  }

  // --- update cycle ---
  /** Dispatches `event`, then its deprecated older name (kafka-batch-decode …) with the same detail. */
  #emit(event) {
    return dispatchWithLegacyName(this, event, LEGACY_EVENT[event.type]);
  }

  #schedule() {
    if (this.#updating) return;
    this.#updating = (async () => {
      await Promise.resolve();
      this.#updating = null;
      await this.#update();
    })();
  }

  async #update() {
    if (!this.isConnected) return;
    applyReadonly(this.#view);
    const rows = Number.parseInt(this.getAttribute("rows") ?? "", 10);
    if (Number.isFinite(rows) && rows > 0) this.#grid.visibleRows = rows;
    if (this.#eoslab?.replay && this.#replayUpdates > 0) {
      // An attribute changed after the pre-built first view: the real decoder from now on.
      try {
        await this.#realDecoder();
      } catch (err) {
        setText(this.#els.summary, `Could not load the decoder (pkg/eoslab-decode.js): ${err instanceof Error ? err.message : err}`);
        return;
      }
    }
    if (!this.#eoslab && this.getAttribute("hex") === null && this.getAttribute("base64") === null && !this.#input) {
      // Nothing to decode yet: the empty inspector, and no decoder fetched until there are bytes
      // (typed, pasted, dropped, load() or an attribute: each of those loads it).
      renderEmpty(this.#view);
      return;
    }
    if (!this.#eoslab) {
      try {
        const file = await this.#prebuilt();
        if (file) this.#eoslab = replayDecoder(file.run.calls, file.version, decoderIfLoaded);
      } catch (err) {
        console.warn(`<kafka-batch>: ${err instanceof Error ? err.message : err}; decoding in the page instead`);
      }
    }
    if (!this.#eoslab) {
      setText(this.#els.summary, "Loading the decoder…");
      delete this.#els.summary.dataset.error;
      this.#els.summary.removeAttribute("role");
      try {
        this.#eoslab = await loadEoslab();
      } catch (err) {
        // Shown in compact mode too (lib/styles.js #summary[data-error]): the message names the file that could not be fetched.
        setText(this.#els.summary, `Could not load the decoder: ${err instanceof Error ? err.message : err}`);
        this.#els.summary.dataset.error = "";
        this.#els.summary.setAttribute("role", "alert");
        return;
      }
    }
    if (this.#eoslab.replay) this.#replayUpdates += 1;
    try {
      const hex = this.getAttribute("hex");
      const b64 = this.getAttribute("base64");
      if (hex !== null && hex !== this.#applied.hex) {
        this.#applied.hex = hex;
        if (this.#els.input && !this.readOnly) this.#els.input.value = hex.trim();
        this.#loadText(hex, "hex attribute", "hex");
      } else if (b64 !== null && b64 !== this.#applied.base64) {
        this.#applied.base64 = b64;
        if (this.#els.input && !this.readOnly) this.#els.input.value = b64.trim();
        this.#loadText(b64, "base64 attribute", "base64");
      } else if (!this.#input && hex === null && b64 === null) {
        renderEmpty(this.#view);
      } else if (this.#frames && this.batch !== this.#sel && this.batch < this.#frames.count) {
        this.#open(this.batch, "attribute");
      }
    } catch (err) {
      if (!(err instanceof NeedsDecoder)) throw err;
      // The pre-built run does not hold this view: decode in the page, from the start.
      await this.#realDecoder();
      this.#applied.hex = null;
      this.#applied.base64 = null;
      return this.#update();
    }
    const cmp = this.getAttribute("compare-hex");
    if (cmp !== null && cmp !== this.#applied.compare && this.#d) {
      this.#applied.compare = cmp;
      this.#comparing = true;
      this.#els.compareInput.value = cmp.trim();
      renderCompare(this.#view);
    }
  }

  #whenReady(fn) {
    if (this.#eoslab && !this.#eoslab.replay) return Promise.resolve(fn());
    return this.#realDecoder().then(() => fn());
  }

  /**
   * The full package for encodeBatch (lib/wasm.js encoder()), or null when it cannot load. While it
   * loads, and when it fails, `show(text)` puts the state in front of the user as text.
   */
  async #encoder(show) {
    const loaded = encoderIfLoaded();
    if (loaded) return loaded;
    show("Loading the encoder (pkg/eoslab.js)…");
    try {
      return await encoder();
    } catch (err) {
      show(`Could not load the encoder (pkg/eoslab.js): ${err instanceof Error ? err.message : err}`, true);
      return null;
    }
  }

  // --- input ---
  /**
   * The bytes a text denotes, by the core's paste parser (wasm `detectInput`, the detection
   * `decode` runs); `force` "hex" / "base64" forces a format. An empty text is no bytes. Throws an
   * `InvalidInput` error whose `at` indexes the text.
   */
  #detect(text, force = "auto") {
    if (!text.trim()) return { format: "empty", stripped: [], bytes: new Uint8Array(0) };
    const r = this.#eoslab.detectInput(text, force === "auto" ? undefined : { format: force });
    if (r.error) throw Object.assign(new Error(r.error.message), { name: "InvalidInput", at: r.error.at });
    return r;
  }

  #loadText(text, label, force) {
    const t0 = performance.now();
    let parsed;
    try {
      parsed = this.#detect(text, force);
    } catch (err) {
      if (err?.name !== "InvalidInput") throw err;
      this.#showInputError(err, text);
      return;
    }
    this.#loadBytes(parsed.bytes, { format: parsed.format, stripped: parsed.stripped, label, t0 });
  }

  async #loadBlob(file) {
    const t0 = performance.now();
    setProgress(this.#view, `Reading ${file.name ?? "file"} (${fmtBytes(file.size)})…`);
    const bytes = new Uint8Array(await file.arrayBuffer());
    if (isCapture(bytes) && !this.dispatchEvent(new CustomEvent(CAPTURE_EVENT, { bubbles: true, composed: true, cancelable: true, detail: { file } }))) {
      setProgress(this.#view, `${file.name ?? "The file"} is a packet capture: opened in the page's capture view.`);
      return;
    }
    if (bytesAreText(bytes)) {
      const text = new TextDecoder().decode(bytes);
      return this.#whenReady(() => {
        let parsed;
        try {
          parsed = this.#detect(text);
        } catch (err) {
          if (err?.name !== "InvalidInput") throw err;
          this.#showInputError(err, text);
          return;
        }
        return this.#loadBytes(parsed.bytes, { format: `${parsed.format} (text file)`, stripped: parsed.stripped, label: file.name, t0 });
      });
    }
    return this.#whenReady(() => this.#loadBytes(bytes, { format: "binary", stripped: [], label: file.name ?? "file", t0, blob: file }));
  }

  /**
   * A pasted text of more than BIG_TEXT characters is decoded but not left in the textarea:
   * laying out a megabyte of text in a textarea costs the browser far more than decoding it.
   */
  #parkBigText(text) {
    const E = this.#els;
    E.input.value = "";
    E.input.placeholder = `Pasted ${fmtInt(text.length)} characters (decoded below; too long to show here). Paste or type to replace them.`;
  }

  #showInputError(err, text) {
    const line = text.slice(0, err.at).split("\n").length;
    this.#input = null;
    this.#frames = null;
    this.#d = null;
    this.#worker?.terminate();
    setText(this.#els.detected, "");
    setText(this.#els.summary, "");
    this.#els.segment.hidden = true;
    this.#els.batch.hidden = true;
    replace(this.#els.errorsList, 
      el("li", { class: "error", "data-kind": "InvalidInput" },
        el("span", { class: "sev" }, "✗ error"), " ",
        `@${err.at} (line ${line}) InvalidInput: ${err.message}. `,
        el("span", { class: "explain" }, ERROR_EXPLANATIONS.InvalidInput)),
    );
    setText(this.#els.errorsEmpty, "");
    this.#els.errorsEmpty.hidden = true;
    this.#els.input?.setAttribute("aria-invalid", "true");
  }

  /** Frames, checks and renders `bytes`; keep = keep the opened batch / field / page (after an edit). */
  #loadBytes(bytes, meta, keep = null) {
    const t0 = meta.t0 ?? performance.now();
    this.#input = { ...meta, bytes };
    this.#els.input?.removeAttribute("aria-invalid");
    this.#worker?.terminate();
    this.#worker = null;
    this.#rows.clear();
    this.#globalErrors = [];
    const { decode } = this.#eoslab;
    const frames = (this.#frames = this.#eoslab.frames(bytes));
    const n = frames.count;
    let mode;
    if (n === 0) {
      mode = "none";
      this.#globalErrors = decode(bytes, { spans: false }).errors;
    } else if (n === 1) {
      mode = "single";
      const tail = frames.truncatedLast ? bytes.length : frames.ends[0];
      if (tail < bytes.length) this.#globalErrors = shiftResult(decode(bytes.subarray(tail), { spans: false }), tail, 1).errors;
    } else if (bytes.length <= SYNC_PASS_MAX_BYTES && n <= SYNC_PASS_MAX_BATCHES) {
      mode = "sync";
      const r = decode(bytes, { spans: false });
      this.#globalErrors = r.errors;
      r.batches.forEach((b, i) => this.#rows.set(i, b));
    } else {
      mode = "worker";
    }
    this.#pass = { mode, done: mode === "worker" ? 0 : n, total: n, stats: null, ms: 0 };
    const tListed = performance.now();
    renderSummary(this.#view);
    this.#setupList();
    let sel = keep ? keep.sel : this.hasAttribute("batch") ? this.batch : 0;
    sel = Math.max(0, Math.min(n - 1, sel));
    if (n > 0) this.#open(sel, keep ? "keep" : "load", keep);
    else renderNoBatch(this.#view);
    const tOpened = performance.now();
    if (mode === "worker") this.#startPass(meta.blob ?? null);
    else setProgress(this.#view, "");
    this.timing = { listed: tListed - t0, opened: tOpened - t0, indexed: mode === "worker" ? null : tOpened - t0, batches: n, mode };
    this.#readyResolve?.();
    this.#emit(new KafkaBatchDecodeEvent({
      format: meta.format, stripped: meta.stripped, length: bytes.length, batches: n,
      errors: this.#globalErrors.length + (this.#d?.errors.length ?? 0), selected: this.#sel, ms: tOpened - t0,
    }));
    this.#messages.update(bytes, this.#globalErrors.length + (this.#d?.errors.length ?? 0) === 0);
  }

  // --- segment pass (worker) ---
  #startPass(blob) {
    const id = ++this.#passId;
    const total = this.#frames.count;
    const t0 = performance.now();
    const onData = (m) => {
      if (m.id !== id || id !== this.#passId) return;
      if (m.type === "failed") {
        setProgress(this.#view, `Checking headers failed: ${m.message}`);
        return;
      }
      if (m.errors?.length) {
        this.#globalErrors.push(...m.errors);
        renderErrors(this.#view);
      }
      this.#pass.done = m.done;
      this.#pass.stats = m.stats;
      if (m.type === "done") {
        this.#pass.ms = performance.now() - t0;
        if (this.timing) this.timing.indexed = this.timing.opened + this.#pass.ms;
        this.#worker?.terminate();
        this.#worker = null;
        renderSummary(this.#view);
        setProgress(this.#view, `Checked all ${fmtInt(total)} batch headers in ${(this.#pass.ms / 1000).toFixed(1)} s (in a worker): ${fmtInt(this.#globalErrors.length)} problem(s). Records are decoded when a batch is opened.`);
        this.#emit(new Event(INDEXED_EVENT, { bubbles: true, composed: true }));
      } else {
        setProgress(this.#view, `Checking batch headers in a worker: ${fmtInt(m.done)} of ${fmtInt(total)} (${Math.floor((100 * m.done) / total)}%), ${fmtInt(this.#globalErrors.length)} problem(s) so far. The page stays usable.`);
      }
    };
    let worker;
    try {
      worker = new Worker(new URL("../decode-worker.js", import.meta.url), { type: "module" });
    } catch {
      worker = null;
    }
    if (!worker) {
      this.#mainThreadPass(id, onData);
      return;
    }
    this.#worker = worker;
    worker.onmessage = (e) => onData(e.data);
    worker.onerror = () => {
      if (this.#worker === worker) {
        worker.terminate();
        this.#worker = null;
        this.#mainThreadPass(id, onData);
      }
    };
    if (blob) worker.postMessage({ type: "index", id, blob });
    else {
      const copy = this.#input.bytes.slice();
      worker.postMessage({ type: "index", id, buffer: copy.buffer }, [copy.buffer]);
    }
    setProgress(this.#view, `Checking ${fmtInt(total)} batch headers in a worker…`);
  }

  /** Fallback when module workers are unavailable: the same pass in chunks between frames. */
  async #mainThreadPass(id, onData) {
    const { decode } = this.#eoslab;
    const bytes = this.#input.bytes;
    const f = this.#frames;
    let i = 0;
    while (i < f.count && id === this.#passId) {
      const first = i;
      const start = f.starts[i];
      while (i < f.count && f.ends[i] - start < 256 << 10) i++;
      if (i === first) i++;
      const r = shiftResult(decode(bytes.subarray(start, f.ends[i - 1]), { records: false, spans: false }), start, first);
      onData({ id, type: i < f.count ? "progress" : "done", done: i, errors: r.errors, stats: null });
      await new Promise((res) => setTimeout(res, 0));
    }
  }

  // --- list ---
  #setupList() {
    const n = this.#frames.count;
    this.#els.segment.hidden = n < 2;
    if (n < 2) return;
    this.#list.setCount(n);
    this.#list.selected = -1;
    this.#list.view.scrollTop = 0;
    setText(this.#els.segmentTitle, `Batches (${fmtInt(n)})`);
  }

  #rowBatch(i) {
    let b = this.#rows.get(i);
    if (b) return b;
    const f = this.#frames;
    const r = shiftResult(this.#eoslab.decode(this.#input.bytes.subarray(f.starts[i], f.ends[i]), { records: false, spans: false }), f.starts[i], i);
    b = r.batches[0];
    if (this.#rows.size > ROW_CACHE_MAX && this.#pass.mode === "worker") this.#rows.delete(this.#rows.keys().next().value);
    if (b) this.#rows.set(i, b);
    return b;
  }

  // --- opening a batch ---
  #open(i, how, keep = null) {
    const f = this.#frames;
    const start = f.starts[i];
    const end = f.ends[i];
    const { decode } = this.#eoslab;
    const defer = end - start > SPAN_DEFER_BYTES;
    const r = shiftResult(decode(this.#input.bytes.subarray(start, end), { includeDecompressed: true, spans: !defer, formatter: this.#formatter }), start, i);
    const batch = r.batches[0];
    const errors = r.errors.map((e) => ({ ...e, batch: i }));
    this.#sel = i;
    this.#reflectBatch(i);
    if (this.#list && f.count > 1 && this.#list.selected !== i) {
      this.#list.selected = i;
      this.#list.scrollTo(i);
      this.#list.flush();
      this.#list.view.setAttribute("aria-activedescendant", `${this.#list.id}-${i}`);
    }
    if (!batch) {
      this.#d = { index: i, batch: null, errors, start, end };
      renderNoBatch(this.#view);
      renderErrors(this.#view);
      return;
    }
    this.#d = this.#index(i, batch, errors, start, end);
    if (defer) this.#deferSpans(this.#d);
    if (!keep) {
      this.#page = 0;
      this.#active = -1;
    } else this.#page = keep.page ?? this.#page;
    renderDetail(this.#view, keep);
    renderErrors(this.#view);
    renderLeader(this.#view);
    if (how !== "load" && how !== "keep") {
      this.#emit(new KafkaBatchSelectEvent({ batch: i, field: null, start, end, buffer: "input" }));
    }
  }

  /**
   * A big batch is first shown with its header spans only (records as one span); every record
   * field's span follows in a second decode right after that first paint.
   */
  #deferSpans(d) {
    d.partial = true;
    const run = () => {
      if (this.#d !== d) return;
      const r = shiftResult(this.#eoslab.decode(this.#input.bytes.subarray(d.start, d.end), { includeDecompressed: true, formatter: this.#formatter }), d.start, d.index);
      if (this.#d !== d || !r.batches[0]) return;
      const keep = keepState(this.#view, "spans");
      this.#d = this.#index(d.index, r.batches[0], d.errors, d.start, d.end);
      renderDetail(this.#view, keep);
      this.#emit(new Event(SPANS_EVENT, { bubbles: true, composed: true }));
    };
    requestAnimationFrame(() => setTimeout(run, 0));
  }

  #reflectBatch(i) {
    if (String(i) === this.getAttribute("batch") || (!this.hasAttribute("batch") && i === 0)) return;
    this.#reflecting = true;
    this.setAttribute("batch", String(i));
    this.#reflecting = false;
  }

  /** Field index, byte owners and starts for the opened batch. */
  #index(i, batch, errors, start, end) {
    const F = new Array(batch.fields.length);
    for (let k = 0; k < F.length; k++) {
      const f = batch.fields[k];
      const [doc, rec] = fieldInfo(f.name, batch.legacy);
      F[k] = { name: f.name, start: f.start, end: f.end, k, buf: f.buffer === "decompressed" ? "dec" : "main", doc, rec };
    }
    const len = end - start;
    const ownerMain = new Int32Array(len).fill(-1);
    const startsMain = new Uint8Array(len);
    const decBytes = batch.decompressed?.data ? hexToBytes(batch.decompressed.data) : null;
    const ownerDec = decBytes ? new Int32Array(decBytes.length).fill(-1) : null;
    const startsDec = decBytes ? new Uint8Array(decBytes.length) : null;
    for (const fl of F) {
      const isRecord = fl.rec >= 0 && fl.doc.kind === "r-r";
      if (fl.buf === "main") {
        const a = Math.max(0, fl.start - start);
        const b = Math.min(len, fl.end - start);
        if (b > a) {
          ownerMain.fill(fl.k, a, b);
          startsMain[a] = isRecord ? 2 : startsMain[a] || 1;
        }
      } else if (ownerDec) {
        const a = Math.max(0, fl.start);
        const b = Math.min(ownerDec.length, fl.end);
        if (b > a) {
          ownerDec.fill(fl.k, a, b);
          startsDec[a] = isRecord ? 2 : startsDec[a] || 1;
        }
      }
    }
    const compressed = F.find((fl) => fl.name === "compressedRecords") ?? null;
    const crcField = F.find((fl) => fl.name === "crc" && fl.buf === "main") ?? null;
    return { index: i, batch, errors, start, end, F, ownerMain, startsMain, decBytes, ownerDec, startsDec, compressed, crcField, partial: false };
  }

  // --- highlighting ---
  #onGridActive(which, pos, how) {
    const d = this.#d;
    if (!d) return;
    if (pos === null) {
      this.#restoreActive();
      return;
    }
    const k = which === "main" ? d.ownerMain[pos - d.start] : d.ownerDec[pos];
    this.#setActive(k ?? -1, how, which, pos);
  }

  /** k: field index (-1 none). how: hover | focus | table | restore. */
  #setActive(k, how, which = null, pos = -1) {
    const d = this.#d;
    if (!d) return;
    if (how === "focus" || how === "table" || how === "restore") this.#active = k;
    const f = k >= 0 ? d.F[k] : null;
    if (!f) {
      this.#grid.setHighlight(-1, -1);
      this.#decGrid.setHighlight(-1, -1);
      this.#markRows(-1);
      replace(this.#els.where, el("p", { class: "muted" }, "Hover or focus a byte (Tab to the map, then arrow keys) to see its field here; hover a field in the table to see its bytes."));
      return;
    }
    if (f.buf === "main") {
      this.#grid.setHighlight(f.start, f.end);
      this.#decGrid.setHighlight(-1, -1);
    } else {
      this.#decGrid.setHighlight(f.start, f.end);
      if (d.compressed) this.#grid.setHighlight(d.compressed.start, d.compressed.end);
    }
    if ((how === "focus" || how === "table") && f.rec >= 0) {
      const page = Math.floor(f.rec / RECORDS_PAGE);
      if (page !== this.#page) {
        this.#page = page;
        renderPage(this.#view);
      }
    }
    this.#markRows(k, how === "focus");
    const label = labelOf(f.doc, f.rec, f.name);
    const value = fieldValue(f.name, d.batch);
    const range = f.buf === "dec" ? `decompressed bytes ${f.start}–${f.end - 1}` : `bytes ${f.start}–${f.end - 1}`;
    const at = pos >= 0 ? `${pos}${which === "dec" ? " (decompressed)" : ""} = 0x${hex2(which === "dec" ? d.decBytes[pos] : this.#input.bytes[pos])}` : "—";
    replace(this.#els.where, el("dl", {},
      el("dt", {}, "byte"), el("dd", { class: "mono" }, at),
      el("dt", {}, "field"), el("dd", { class: "mono" }, el("span", { class: `sw b k-${f.doc.kind}` }, f.doc.tag), " ", label),
      el("dt", {}, "range"), el("dd", {}, `${range} (${f.end - f.start} bytes)`),
      el("dt", {}, "value"), el("dd", { class: "mono" }, value),
      f.doc.meaning ? [el("dt", {}, "meaning"), el("dd", {}, f.doc.meaning)] : null,
      f.doc.kafka ? [el("dt", {}, "Kafka"), el("dd", { class: "small" }, f.doc.kafka)] : null));
    if (how === "focus") {
      this.#announce(`${pos >= 0 ? `Byte ${pos}${which === "dec" ? " of the decompressed records" : ""}, ${hex2(which === "dec" ? d.decBytes[pos] : this.#input.bytes[pos])}. ` : ""}Field ${label}, ${range}: ${value}. ${f.doc.meaning}`);
      this.#emit(new KafkaBatchSelectEvent({ batch: d.index, field: f.name, start: f.start, end: f.end, buffer: f.buf === "dec" ? "decompressed" : "input" }));
    }
  }

  #restoreActive() {
    const d = this.#d;
    if (!d) return;
    if (this.#active >= 0) this.#setActive(this.#active, "restore");
    else this.#setActive(-1, "hover");
  }

  #markRows(k, scroll = false) {
    const E = this.#els;
    for (const tr of E.fields.querySelectorAll("tr.hl")) tr.classList.remove("hl");
    if (k < 0) return;
    const tr = E.fields.querySelector(`tr[data-k="${k}"]`);
    if (!tr) return;
    tr.classList.add("hl");
    if (scroll) {
      const box = E.fieldScroll;
      const top = tr.offsetTop - E.fieldTable.tHead.offsetHeight;
      if (top < box.scrollTop || top + tr.offsetHeight > box.scrollTop + box.clientHeight) {
        box.scrollTop = Math.max(0, top - box.clientHeight / 3);
      }
    }
  }

  #gotoField(k) {
    const d = this.#d;
    const f = d?.F[k];
    if (!f) return;
    const grid = f.buf === "dec" ? this.#decGrid : this.#grid;
    grid.view.focus({ preventScroll: true });
    grid.setFocus(f.start);
  }

  #announce(text) {
    clearTimeout(this.#liveTimer);
    this.#liveTimer = setTimeout(() => setText(this.#els.live, text), 120);
  }

  // --- the byte map as a picture ---

  /** The caption of an exported byte map: which batch, which bytes, what it holds. */
  get caption() {
    return captionOf(this.#view);
  }

  /**
   * The opened batch's byte map as a picture: "svg" returns the SVG text (cells, hex, field tags and
   * legend as shapes and text), "png" resolves to a PNG Blob of the same drawing; both end with
   * the caption. Null when no batch is open.
   */
  exportPicture(kind) {
    return exportPicture(this.#view, kind);
  }


  // What the modules of this folder see of the element (they cannot reach its private fields):
  // live getters (and setters) of the private state they use, its private methods they call,
  // and `el`, the element itself (its public API).
  #view = ((el) => ({
    el,
    get active() { return el.#active; },
    get compareB() { return el.#compareB; },
    set compareB(x) { el.#compareB = x; },
    get comparing() { return el.#comparing; },
    set comparing(x) { el.#comparing = x; },
    get d() { return el.#d; },
    set d(x) { el.#d = x; },
    get decGrid() { return el.#decGrid; },
    set decGrid(x) { el.#decGrid = x; },
    get editing() { return el.#editing; },
    set editing(x) { el.#editing = x; },
    get els() { return el.#els; },
    get encodeSeq() { return el.#encodeSeq; },
    set encodeSeq(x) { el.#encodeSeq = x; },
    get eoslab() { return el.#eoslab; },
    get formFor() { return el.#formFor; },
    set formFor(x) { el.#formFor = x; },
    get formatter() { return el.#formatter; },
    set formatter(x) { el.#formatter = x; },
    get frames() { return el.#frames; },
    get globalErrors() { return el.#globalErrors; },
    get grid() { return el.#grid; },
    set grid(x) { el.#grid = x; },
    get input() { return el.#input; },
    get leaderFor() { return el.#leaderFor; },
    set leaderFor(x) { el.#leaderFor = x; },
    get leaderOpen() { return el.#leaderOpen; },
    set leaderOpen(x) { el.#leaderOpen = x; },
    get leaderSeq() { return el.#leaderSeq; },
    set leaderSeq(x) { el.#leaderSeq = x; },
    get list() { return el.#list; },
    set list(x) { el.#list = x; },
    get messages() { return el.#messages; },
    get page() { return el.#page; },
    set page(x) { el.#page = x; },
    get pass() { return el.#pass; },
    get rows() { return el.#rows; },
    get sel() { return el.#sel; },
    announce: (...a) => el.#announce(...a),
    detect: (...a) => el.#detect(...a),
    emit: (...a) => el.#emit(...a),
    encoder: (...a) => el.#encoder(...a),
    gotoField: (...a) => el.#gotoField(...a),
    loadBlob: (...a) => el.#loadBlob(...a),
    loadBytes: (...a) => el.#loadBytes(...a),
    loadText: (...a) => el.#loadText(...a),
    markRows: (...a) => el.#markRows(...a),
    onGridActive: (...a) => el.#onGridActive(...a),
    open: (...a) => el.#open(...a),
    parkBigText: (...a) => el.#parkBigText(...a),
    restoreActive: (...a) => el.#restoreActive(...a),
    rowBatch: (...a) => el.#rowBatch(...a),
    setActive: (...a) => el.#setActive(...a),
    whenReady: (...a) => el.#whenReady(...a),
  }))(this);
}

KafkaBatchElement.define();
