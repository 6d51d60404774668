// <kafka-batch>: the Batch Inspector. Paste or drop Kafka bytes (hex in any layout, a dump, base64,
// a byte array, a binary batch or a whole .log segment) and see every byte explained: a hex + ASCII
// byte map coloured by field, linked both ways with a field table (offset, size, raw bytes, value,
// meaning, Kafka's name), the producer fields' idempotence meaning, truth checks against Kafka,
// problems pinned on their byte, decompressed records in a second pane, live editing through
// encodeBatch, a fix-CRC action, a compare mode and exports.
//
//   <script type="module" src=".../www/kafka-batch.js"></script>
//   <kafka-batch readonly hex="00 00 00 00 ..."></kafka-batch>
//
// One script tag is enough: this module defines the element and loads ../pkg/eoslab-decode.js (the
// decode-only package, and its wasm) relative to its own URL. It has no encoder: the edit form and
// the compare panel's "build B" buttons import the full ../pkg/eoslab.js on first use
// (lib/wasm.js encoder(); "Loading the encoder…" meanwhile); Fix CRC and byte typing need only the
// decoder. No network access beyond those same-origin files.
//
// Attributes (the source of truth; properties reflect them): hex, base64 (the input), readonly
// (no input box, no editing), batch (index of the opened batch), compare-hex (batch B of the
// compare panel), rows (byte-map height in rows); theme ("light" | "dark" | "auto", the default:
// the host page's MkDocs Material / Docusaurus flag, else prefers-color-scheme; lib/theme.js);
// compact (for a documentation column: the byte map, the header fields and a small field table,
// no input, no headings, no "No errors"; as tall as its content).
// Methods: load(text | Uint8Array | Blob); properties bytes, selectedBatch, ready, timing.
// Events (bubbling, composed): kafka-batch:decode, kafka-batch:select, kafka-batch:edit; kafka-batch:indexed
// (a worker checked every batch header), kafka-batch:spans (a big batch's record spans arrived),
// kafka-batch:messages-decode (the bytes were read as protocol messages). Each is followed by its
// deprecated pre-issue-14 name (kafka-batch-decode …, kafka-messages-decode) with the same detail.
// Conventions follow github/relative-time-element: static define(), attributes coalesced into one
// microtask update, typed events, private #fields, an open shadow root.
//
// Every value from the input reaches the DOM through textContent / Text nodes (lib/dom.js el()),
// never as markup.
import { loadEoslab, encoder, encoderIfLoaded } from "./lib/wasm.js";
import { dispatchWithLegacyName, el, setText, replace } from "./lib/dom.js";
import { bytesAreText, toHex, toBase64, hexToBytes } from "./lib/bytes.js";
import { fieldInfo, labelOf, DERIVED, ERROR_EXPLANATIONS, ATTRIBUTE_BITS } from "./lib/field-docs.js";
import { shiftResult } from "./lib/slices.js";
import { HexGrid } from "./lib/hexgrid.js";
import { BatchList } from "./lib/batch-list.js";
import {
  fieldValue, producerSummary, checks, dumpLogLines, listCells, compareVerdict, hex32, bytesPreview, textOf,
  timestampText, incrementSequence,
} from "./lib/format.js";
import { styleSheet, darkStyleSheet } from "./lib/styles.js";
import { SchemeWatcher } from "./lib/theme.js";
import { MessagesPanel } from "./lib/messages.js";
import { drawingToPng, drawingToSvg, wrapCaption } from "./lib/export.js";
import { downloadText } from "./lib/link-state.js";

const HTMLElementBase = globalThis.HTMLElement || class {};

/** Inputs up to this size (and batch count) get a full synchronous check on the main thread. */
const SYNC_PASS_MAX_BYTES = 4 << 20;
const SYNC_PASS_MAX_BATCHES = 2000;
/** Inputs up to this size can be edited in place (re-encoded and re-checked on every change). */
const EDIT_MAX_BYTES = 4 << 20;
const RECORDS_PAGE = 20;
/** Batches bigger than this are shown first with header spans only, then with every record span. */
const SPAN_DEFER_BYTES = 48 << 10;
const ROW_CACHE_MAX = 5000;
const EXPORT_MAX_BATCHES = 10000;
/** Pasted texts longer than this are decoded without being kept in the textarea. */
const BIG_TEXT = 256 << 10;

/** The events' names (kafka-<element>:<what>), and the deprecated names they had before issue 14, still dispatched after them. */
export const DECODE_EVENT = "kafka-batch:decode";
export const SELECT_EVENT = "kafka-batch:select";
export const EDIT_EVENT = "kafka-batch:edit";
export const INDEXED_EVENT = "kafka-batch:indexed";
export const SPANS_EVENT = "kafka-batch:spans";
export const LEGACY_EVENT = {
  [DECODE_EVENT]: "kafka-batch-decode", [SELECT_EVENT]: "kafka-batch-select", [EDIT_EVENT]: "kafka-batch-edit",
  [INDEXED_EVENT]: "kafka-batch-indexed", [SPANS_EVENT]: "kafka-batch-spans",
};

export class KafkaBatchDecodeEvent extends Event {
  constructor(detail) {
    super(DECODE_EVENT, { bubbles: true, composed: true });
    /** @type {{format: string, stripped: string[], length: number, batches: number, errors: number, selected: number, ms: number}} */
    this.detail = detail;
  }
}

export class KafkaBatchSelectEvent extends Event {
  constructor(detail) {
    super(SELECT_EVENT, { bubbles: true, composed: true });
    /** @type {{batch: number, field: string | null, start: number, end: number, buffer: string}} */
    this.detail = detail;
  }
}

export class KafkaBatchEditEvent extends Event {
  constructor(detail) {
    super(EDIT_EVENT, { bubbles: true, composed: true });
    /** @type {{batch: number, how: "form" | "byte" | "fix-crc", length: number, crcValid: boolean}} */
    this.detail = detail;
  }
}

const FORM_HEADER = [
  ["baseOffset", "int64"], ["partitionLeaderEpoch", "int32"], ["baseTimestamp", "int64"], ["maxTimestamp", "int64"],
  ["producerId", "int64"], ["producerEpoch", "int16"], ["baseSequence", "int32"],
];

export class KafkaBatchElement extends HTMLElementBase {
  static define(tag = "kafka-batch", registry = globalThis.customElements) {
    if (registry && !registry.get(tag)) registry.define(tag, this);
    return this;
  }

  static get observedAttributes() {
    return ["hex", "base64", "readonly", "batch", "compare-hex", "rows", "theme"];
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
  /** "Send to a leader" (issue 13): the panel is open; the batch its form was filled from. */
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
  /** Requests/responses (issue 16, lib/messages.js): shown when the bytes are protocol messages. */
  #messages = new MessagesPanel();
  /** Timings of the last load, in ms since t0 (for the page status and the benchmark). */
  timing = null;
  /** Resolves after the first decode has been rendered. */
  ready = new Promise((r) => (this.#readyResolve = r));

  constructor() {
    super();
    const root = this.attachShadow({ mode: "open" });
    root.adoptedStyleSheets = [styleSheet()];
    this.#build(root);
  }

  connectedCallback() {
    this.#scheme.connect();
    this.#schedule();
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

  // For links that restore the view (issue 14, www/lib/link-state.js via main.js): which batch is
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
  /** Dispatches `event`, then its deprecated pre-issue-14 name (kafka-batch-decode …) with the same detail. */
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
    this.#applyReadonly();
    const rows = Number.parseInt(this.getAttribute("rows") ?? "", 10);
    if (Number.isFinite(rows) && rows > 0) this.#grid.visibleRows = rows;
    if (!this.#eoslab) {
      setText(this.#els.summary, "Loading the decoder…");
      try {
        this.#eoslab = await loadEoslab();
      } catch (err) {
        setText(this.#els.summary, `Could not load the decoder (pkg/eoslab-decode.js): ${err instanceof Error ? err.message : err}`);
        return;
      }
    }
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
      this.#renderEmpty();
    } else if (this.#frames && this.batch !== this.#sel && this.batch < this.#frames.count) {
      this.#open(this.batch, "attribute");
    }
    const cmp = this.getAttribute("compare-hex");
    if (cmp !== null && cmp !== this.#applied.compare && this.#d) {
      this.#applied.compare = cmp;
      this.#comparing = true;
      this.#els.compareInput.value = cmp.trim();
      this.#renderCompare();
    }
  }

  #whenReady(fn) {
    if (this.#eoslab) return Promise.resolve(fn());
    return loadEoslab().then((m) => {
      this.#eoslab = m;
      return fn();
    });
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
    this.#setProgress(`Reading ${file.name ?? "file"} (${fmtBytes(file.size)})…`);
    const bytes = new Uint8Array(await file.arrayBuffer());
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
    this.#renderSummary();
    this.#setupList();
    let sel = keep ? keep.sel : this.hasAttribute("batch") ? this.batch : 0;
    sel = Math.max(0, Math.min(n - 1, sel));
    if (n > 0) this.#open(sel, keep ? "keep" : "load", keep);
    else this.#renderNoBatch();
    const tOpened = performance.now();
    if (mode === "worker") this.#startPass(meta.blob ?? null);
    else this.#setProgress("");
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
        this.#setProgress(`Checking headers failed: ${m.message}`);
        return;
      }
      if (m.errors?.length) {
        this.#globalErrors.push(...m.errors);
        this.#renderErrors();
      }
      this.#pass.done = m.done;
      this.#pass.stats = m.stats;
      if (m.type === "done") {
        this.#pass.ms = performance.now() - t0;
        if (this.timing) this.timing.indexed = this.timing.opened + this.#pass.ms;
        this.#worker?.terminate();
        this.#worker = null;
        this.#renderSummary();
        this.#setProgress(`Checked all ${fmtInt(total)} batch headers in ${(this.#pass.ms / 1000).toFixed(1)} s (in a worker): ${fmtInt(this.#globalErrors.length)} problem(s). Records are decoded when a batch is opened.`);
        this.#emit(new Event(INDEXED_EVENT, { bubbles: true, composed: true }));
      } else {
        this.#setProgress(`Checking batch headers in a worker: ${fmtInt(m.done)} of ${fmtInt(total)} (${Math.floor((100 * m.done) / total)}%), ${fmtInt(this.#globalErrors.length)} problem(s) so far. The page stays usable.`);
      }
    };
    let worker;
    try {
      worker = new Worker(new URL("./decode-worker.js", import.meta.url), { type: "module" });
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
    this.#setProgress(`Checking ${fmtInt(total)} batch headers in a worker…`);
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
      this.#renderNoBatch();
      this.#renderErrors();
      return;
    }
    this.#d = this.#index(i, batch, errors, start, end);
    if (defer) this.#deferSpans(this.#d);
    if (!keep) {
      this.#page = 0;
      this.#active = -1;
    } else this.#page = keep.page ?? this.#page;
    this.#renderDetail(keep);
    this.#renderErrors();
    this.#renderLeader();
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
      const keep = this.#keepState("spans");
      this.#d = this.#index(d.index, r.batches[0], d.errors, d.start, d.end);
      this.#renderDetail(keep);
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

  // --- rendering ---
  #build(root) {
    const E = this.#els;
    E.input = el("textarea", { id: "input", spellcheck: "false", autocomplete: "off", rows: "5", "aria-describedby": "input-help" });
    E.file = el("input", { type: "file", id: "file", class: "sr-only" });
    E.detected = el("span", { id: "detected", class: "muted" });
    E.inputBox = el(
      "section",
      { class: "input-box", "aria-label": "Input" },
      el("label", { for: "input", class: "lbl" }, "Kafka bytes to decode"),
      el("p", { id: "input-help", class: "muted small" },
        "Paste hex in any layout, an xxd / hexdump -C / Wireshark dump, base64 or a byte-array literal, or open or drop a binary batch or a whole .log segment file. Everything stays in this page."),
      E.input,
      el("div", { class: "row" }, E.file, el("label", { class: "button", for: "file" }, "Open file…"), E.detected),
    );
    E.summary = el("p", { id: "summary", class: "summary" });
    E.progress = el("p", { id: "progress", class: "muted", role: "status" });
    E.segmentTitle = el("h3", { id: "segment-title" }, "Batches");
    this.#list = new BatchList({
      label: "Batches of the input",
      rows: 10,
      rowFor: (i) => {
        const b = this.#rowBatch(i);
        return b ? listCells(i, b) : [String(i), String(this.#frames.starts[i]), "?"];
      },
      rowClass: (i) => (this.#rows.get(i)?.header.crcValid === false ? "bad" : ""),
      onSelect: (i, how) => {
        if (i !== this.#sel) this.#open(i, how);
      },
    });
    E.segment = el("section", { id: "segment", "aria-labelledby": "segment-title", hidden: true },
      E.segmentTitle,
      el("p", { class: "muted small" }, "One row per batch: position, offsets, producerId/epoch, sequence range, record count, codec, flags and CRC. Records are decoded when a batch is opened (click, or arrow keys in the list)."),
      this.#list.root);
    E.errorsList = el("ul", { class: "errors" });
    E.errorsEmpty = el("p", { class: "muted" }, "No errors.");
    // Groups, not landmarks: a page with two inspectors (embed-example.html) would have two "Problems" regions (axe landmark-unique).
    E.errors = el("section", { id: "errors", role: "group", "aria-labelledby": "errors-title" },
      el("h3", { id: "errors-title" }, "Problems"), E.errorsEmpty, E.errorsList);

    // Opened batch.
    E.batchTitle = el("h3", { id: "batch-title" });
    const btn = (id, text, title) => el("button", { type: "button", id, title }, text);
    E.btnEdit = btn("btn-edit", "Edit fields", "Edit header fields and records; bytes and CRC are re-encoded live");
    E.btnFix = btn("btn-fix", "Fix CRC", "Write the computed CRC into the crc field");
    E.btnCompare = btn("btn-compare", "Compare…", "Diff this batch with another (e.g. a retry)");
    E.btnAlone = btn("btn-alone", "Open this batch alone", "Show only this batch's bytes (to edit a batch of a big segment)");
    E.btnLeader = btn("btn-leader", "Send to a leader…", "Send this batch as a Produce (acks=-1) to a partition leader whose producer state you set, and see its answer with the rule");
    E.btnCopyHex = btn("copy-hex", "Hex", "Copy the batch as hex");
    E.btnCopyB64 = btn("copy-base64", "Base64", "Copy the batch as base64");
    E.btnCopyJson = btn("copy-json", "JSON", "Copy the decode result (JSON)");
    E.btnCopyDump = btn("copy-dump", "dump-log", "Copy kafka-dump-log style lines");
    E.btnSavePng = btn("save-png", "PNG", "Save the byte map of this batch as a PNG picture, with a caption");
    E.btnSaveSvg = btn("save-svg", "SVG", "Save the byte map of this batch as an SVG drawing (text selectable), with a caption");
    E.toolbar = el("div", { class: "toolbar" },
      el("span", { class: "group" }, E.btnEdit, E.btnFix, E.btnCompare, E.btnLeader, E.btnAlone),
      el("span", { class: "group", role: "group", "aria-label": "Copy out" }, el("span", { class: "muted" }, "Copy:"), E.btnCopyHex, E.btnCopyB64, E.btnCopyJson, E.btnCopyDump),
      el("span", { class: "group", role: "group", "aria-label": "Save the byte map as a picture" }, el("span", { class: "muted" }, "Save picture:"), E.btnSavePng, E.btnSaveSvg));
    E.producer = el("div", { id: "producer", class: "producer" });
    E.checks = el("table", { id: "checks", class: "checks" });
    E.bits = el("div", { id: "attr-bits", class: "bits" });
    E.coverage = el("div", { id: "coverage", class: "coverage" });
    E.legend = el("ul", { id: "legend", class: "legend", "aria-label": "Byte map legend" });
    this.#grid = new HexGrid({
      label: "Byte map of the batch",
      rows: 16,
      onActive: (pos, how) => this.#onGridActive("main", pos, how),
      onType: (pos, value) => this.#typeByte(pos, value),
    });
    this.#decGrid = new HexGrid({
      label: "Decompressed records",
      rows: 10,
      onActive: (pos, how) => this.#onGridActive("dec", pos, how),
    });
    E.where = el("div", { id: "where", class: "where" });
    E.ratio = el("p", { id: "ratio" });
    E.dec = el("section", { id: "dec", hidden: true, "aria-labelledby": "dec-title" },
      el("h4", { id: "dec-title" }, "Decompressed records"), E.ratio, this.#decGrid.root);
    E.pager = el("div", { class: "pager" });
    E.fields = el("tbody");
    E.fieldTable = el("table", { id: "fields", class: "fields" },
      el("caption", { class: "sr-only" }, "Fields of the opened batch"),
      el("colgroup", {}, ["c-name", "c-value", "c-off", "c-size", "c-raw", "c-meaning", "c-kafka"].map((c) => el("col", { class: c }))),
      el("thead", {}, el("tr", {}, ["Field", "Value", "Offset", "Size", "Raw bytes", "Meaning", "Kafka field"].map((h) => el("th", { scope: "col" }, h)))),
      E.fields);
    E.fieldScroll = el("div", { class: "table-scroll", tabindex: "-1" }, E.fieldTable);
    E.records = el("tbody");
    E.recordsTitle = el("h4", { id: "records-title" }, "Records");
    E.readAs = el("select", { id: "read-as", "aria-describedby": "read-as-help" },
      el("option", { value: "" }, "none"),
      el("option", { value: "transaction-log" }, "__transaction_state"),
      el("option", { value: "offsets" }, "__consumer_offsets"));
    E.readAsRow = el("div", { class: "row read-as" },
      el("label", { for: "read-as" }, "Read records as"), E.readAs,
      el("span", { id: "read-as-help", class: "muted small" },
        "Interpret keys and values as an internal topic's records and show what kafka-console-consumer --formatter prints for each."));
    E.recordTable = el("table", { id: "records", class: "records", "aria-labelledby": "records-title" },
      el("thead", {}, el("tr", {}, ["#", "offset", "timestamp", "sequence", "key", "value", "headers"].map((h) => el("th", { scope: "col" }, h)))),
      E.records);
    E.pager2 = el("div", { class: "pager" });
    E.edit = el("section", { id: "edit", hidden: true, "aria-labelledby": "edit-title" });
    E.compareInput = el("textarea", { id: "compare-input", rows: "3", spellcheck: "false" });
    E.compareOut = el("div", { id: "compare-out" });
    E.compare = el("section", { id: "compare", hidden: true, "aria-labelledby": "compare-title" },
      el("h4", { id: "compare-title" }, "Compare with batch B"),
      el("label", { for: "compare-input", class: "lbl" }, "Batch B (hex, dump or base64); A is the opened batch"),
      E.compareInput,
      el("div", { class: "row" },
        btn("compare-retry", "B = a retry of A", "The producer resends the same bytes after a timeout"),
        btn("compare-next", "B = A's next batch", "Same producer and epoch, sequence continues"),
        btn("compare-fenced", "B = from an older epoch", "A zombie producer instance with epoch − 1")),
      E.compareOut);
    // Send to a leader (issue 13): the leader's state for this producer, then its answer.
    const num = (id, label, help) => el("div", { class: "fld" }, el("label", { for: id }, label),
      el("input", { id, inputmode: "numeric", spellcheck: "false", autocomplete: "off", size: "12", ...(help ? { "aria-describedby": help } : {}) }));
    E.leaderState = el("fieldset", { id: "leader-state" },
      el("legend", {}, "The leader's producer state"),
      el("div", { class: "fld chk" }, el("input", { type: "radio", name: "leader-state", id: "leader-empty", value: "empty", checked: true }),
        el("label", { for: "leader-empty" }, "Empty: no state for any producer")),
      el("div", { class: "fld chk" }, el("input", { type: "radio", name: "leader-state", id: "leader-entry", value: "entry" }),
        el("label", { for: "leader-entry" }, "An entry for a producer:")),
      num("leader-pid", "producerId"), num("leader-epoch", "epoch"),
      num("leader-first", "last batch: first sequence", "leader-seq-help"), num("leader-last", "last sequence", "leader-seq-help"),
      num("leader-offset", "its first offset (optional)"),
      el("p", { id: "leader-seq-help", class: "muted small" },
        "The leader keeps the sequence ranges of a producer's last batches: a batch with the same range is a duplicate (A1), the next one must start one past the last sequence (A7), a new epoch at 0 (A6)."));
    E.leaderTid = el("input", { id: "leader-tid", spellcheck: "false", autocomplete: "off", size: "16" });
    E.leaderZero = el("input", { type: "checkbox", id: "leader-zero", checked: true });
    E.leaderZeroRow = el("div", { class: "fld chk", hidden: true }, E.leaderZero,
      el("label", { for: "leader-zero" }, "Send it with baseOffset 0, as a producer does (a batch read from a log carries its offset; the leader refuses that from a client)"));
    E.leaderSend = el("button", { type: "submit", id: "leader-send" }, "Send");
    E.leaderOut = el("div", { id: "leader-out", role: "status", "aria-live": "polite" });
    E.leaderForm = el("form", { id: "leader-form", novalidate: true },
      E.leaderState,
      el("div", { class: "row" }, el("div", { class: "fld" }, el("label", { for: "leader-tid" }, "transactional.id of the request (optional)"), E.leaderTid), E.leaderZeroRow),
      el("div", { class: "row" }, E.leaderSend));
    E.leader = el("section", { id: "leader", hidden: true, "aria-labelledby": "leader-title" },
      el("h4", { id: "leader-title" }, "Send to a leader"),
      el("p", { class: "muted small" }, "The opened batch is sent as a Produce (v12, acks=-1) to the leader of orders-0; the leader assigns the offsets. The answer is the model's (Kafka 4.3's rules), computed in this page."),
      E.leaderForm, E.leaderOut);
    E.exportText = el("textarea", { id: "export", readonly: true, rows: "6", spellcheck: "false" });
    E.exportStatus = el("span", { id: "export-status", class: "muted", role: "status" });
    E.exportBox = el("section", { id: "export-box", hidden: true, "aria-label": "Copied text" },
      el("label", { for: "export", class: "lbl" }, "Copied text"), " ", E.exportStatus, E.exportText);

    E.compactHead = el("dl", { class: "compact-head", part: "header" });
    E.batch = el("section", { id: "batch", hidden: true, "aria-labelledby": "batch-title" },
      E.batchTitle, E.compactHead, E.toolbar, E.exportBox, E.producer,
      el("div", { class: "cols2" },
        el("div", {}, el("h4", {}, "Checks against Kafka"), E.checks),
        el("div", {}, el("h4", {}, "Attributes"), E.bits)),
      el("h4", {}, "Byte map"),
      el("div", { class: "map" },
        el("div", { class: "map-left" }, this.#grid.root, E.dec),
        el("div", { class: "map-side" }, el("h4", { class: "first" }, "Selected field"), E.where, E.coverage, E.legend)),
      el("h4", {}, "Fields"), E.pager, E.fieldScroll,
      E.recordsTitle, E.readAsRow, E.pager2, el("div", { class: "table-scroll wide records-box", tabindex: "0", role: "group", "aria-label": "Records table (scrolls)" }, E.recordTable),
      E.edit, E.compare, E.leader);
    E.live = el("div", { id: "live", class: "sr-only", "aria-live": "polite", "aria-atomic": "true" });
    E.drop = el("div", { class: "drop-hint", "aria-hidden": "true" }, "Drop the file to decode it");
    this.#messages.mount(root);
    root.append(el("div", { class: "kb", part: "root" }, E.inputBox, E.summary, E.progress, this.#messages.root, E.segment, E.errors, E.batch, E.live, E.drop));
    this.#wire();
  }

  #wire() {
    const E = this.#els;
    let pending = 0;
    E.input.addEventListener("input", (e) => {
      clearTimeout(pending);
      const text = E.input.value;
      const now = e.inputType === "insertFromPaste" || e.inputType === "insertFromDrop";
      if (text.length > BIG_TEXT) this.#parkBigText(text);
      const run = () => this.#whenReady(() => this.#loadText(text, "input", "auto"));
      if (now) run();
      else pending = setTimeout(run, 40);
    });
    E.file.addEventListener("change", () => {
      const file = E.file.files?.[0];
      if (!file) return;
      E.input.value = "";
      E.input.placeholder = `Showing ${file.name}. Paste text here to decode it instead.`;
      this.#loadBlob(file).finally(() => (E.file.value = ""));
    });
    this.addEventListener("dragover", (e) => {
      if (this.readOnly || !e.dataTransfer?.types?.includes("Files")) return;
      e.preventDefault();
      E.drop.classList.add("on");
    });
    this.addEventListener("dragleave", () => E.drop.classList.remove("on"));
    this.addEventListener("drop", (e) => {
      E.drop.classList.remove("on");
      const file = e.dataTransfer?.files?.[0];
      if (this.readOnly || !file) return;
      e.preventDefault();
      E.input.value = "";
      this.#loadBlob(file);
    });
    E.btnEdit.addEventListener("click", () => {
      this.#editing = !this.#editing;
      this.#renderEdit(true);
      if (this.#editing) E.edit.querySelector("input, select")?.focus();
    });
    E.btnFix.addEventListener("click", () => this.#fixCrc());
    E.btnLeader.addEventListener("click", () => {
      this.#leaderOpen = !this.#leaderOpen;
      this.#renderLeader();
      if (this.#leaderOpen) E.leaderForm.querySelector("input:checked")?.focus();
    });
    E.leaderForm.addEventListener("submit", (e) => {
      e.preventDefault();
      this.#sendToLeader();
    });
    // Typing in the entry's fields chooses the entry.
    E.leaderState.addEventListener("input", (e) => {
      if (e.target.type !== "radio") E.leaderState.querySelector("#leader-entry").checked = true;
    });
    E.btnCompare.addEventListener("click", () => {
      this.#comparing = !this.#comparing;
      this.#renderCompare();
      if (this.#comparing) E.compareInput.focus();
    });
    E.btnAlone.addEventListener("click", () => {
      const d = this.#d;
      if (!d) return;
      const slice = this.#input.bytes.slice(d.start, d.end);
      E.input.value = slice.length <= 1 << 20 ? toHex(slice, " ", 16) : "";
      this.#loadBytes(slice, { format: `batch ${d.index} of ${this.#input.label}`, stripped: [], label: `batch ${d.index}` });
    });
    E.btnCopyHex.addEventListener("click", () => this.#export("hex"));
    E.btnCopyB64.addEventListener("click", () => this.#export("base64"));
    E.btnCopyJson.addEventListener("click", () => this.#export("json"));
    E.btnCopyDump.addEventListener("click", () => this.#export("dump"));
    E.btnSavePng.addEventListener("click", async () => downloadText(`${this.#pictureName()}.png`, await this.exportPicture("png"), "image/png"));
    E.btnSaveSvg.addEventListener("click", () => downloadText(`${this.#pictureName()}.svg`, this.exportPicture("svg"), "image/svg+xml"));
    let cmpPending = 0;
    E.compareInput.addEventListener("input", () => {
      clearTimeout(cmpPending);
      cmpPending = setTimeout(() => this.#renderCompare(), 60);
    });
    E.compare.addEventListener("click", async (e) => {
      const id = e.target.closest?.("button")?.id;
      if (!id?.startsWith("compare-") || !this.#d?.batch) return;
      const d = this.#d;
      const b = d.batch;
      const seq = ++this.#encodeSeq;
      let bytes;
      if (id === "compare-retry") bytes = this.#input.bytes.subarray(d.start, d.end);
      else {
        const spec = structuredClone(b);
        if (id === "compare-next") {
          spec.header.baseSequence = incrementSequence(b.header.lastSequence, 1);
        } else {
          spec.header.producerEpoch = Math.max(0, b.header.producerEpoch - 1);
        }
        const enc = await this.#encoder((text, failed) => replace(E.compareOut, el("p", { class: failed ? "bad" : "muted", role: "status" }, text)));
        // The opened batch changed (or another button was pressed) while the encoder loaded.
        if (!enc || seq !== this.#encodeSeq || this.#d !== d) return;
        try {
          bytes = enc.encodeBatch(spec);
        } catch (err) {
          replace(E.compareOut, el("p", { class: "bad" }, `Could not build B: ${err instanceof Error ? err.message : err}`));
          return;
        }
      }
      E.compareInput.value = toHex(bytes, " ", 16);
      this.#renderCompare();
    });
    // Field table: hover highlights bytes; click / Enter moves the byte focus there.
    E.fields.addEventListener("pointerover", (e) => {
      const tr = e.target.closest?.("tr[data-k]");
      if (tr) this.#setActive(Number(tr.dataset.k), "hover");
    });
    E.fields.addEventListener("pointerleave", () => this.#restoreActive());
    E.fields.addEventListener("focusin", (e) => {
      const tr = e.target.closest?.("tr[data-k]");
      if (tr) this.#setActive(Number(tr.dataset.k), "table");
    });
    E.fields.addEventListener("click", (e) => {
      const b = e.target.closest?.("button.fname");
      if (b) this.#gotoField(Number(b.closest("tr").dataset.k));
    });
    E.fields.addEventListener("keydown", (e) => {
      const b = e.target.closest?.("button.fname");
      if (!b || (e.key !== "ArrowDown" && e.key !== "ArrowUp")) return;
      const all = [...E.fields.querySelectorAll("button.fname")];
      const i = all.indexOf(b) + (e.key === "ArrowDown" ? 1 : -1);
      if (i < 0 || i >= all.length) return;
      e.preventDefault();
      b.tabIndex = -1;
      all[i].tabIndex = 0;
      all[i].focus();
    });
    E.readAs.addEventListener("change", () => {
      this.#formatter = E.readAs.value || null;
      if (this.#d?.batch && this.#sel >= 0) this.#open(this.#sel, "keep", this.#keepState("formatter"));
    });
    E.errorsList.addEventListener("click", (e) => {
      const b = e.target.closest?.("button[data-at]");
      if (!b) return;
      const at = Number(b.dataset.at);
      const batch = Number(b.dataset.batch);
      if (Number.isInteger(batch) && batch >= 0 && batch < (this.#frames?.count ?? 0) && batch !== this.#sel) this.#open(batch, "error");
      if (this.#d && at >= this.#d.start && at < this.#d.end) {
        this.#grid.view.focus({ preventScroll: true });
        this.#grid.setFocus(at);
        this.#grid.root.scrollIntoView?.({ block: "nearest" });
      }
    });
    for (const pager of [E.pager, E.pager2]) {
      pager.addEventListener("click", (e) => {
        const b = e.target.closest?.("button[data-page]");
        if (!b || b.disabled) return;
        this.#page = Number(b.dataset.page);
        this.#renderPage();
      });
    }
  }

  #applyReadonly() {
    const ro = this.readOnly;
    this.#els.inputBox.hidden = ro;
    for (const b of [this.#els.btnEdit, this.#els.btnFix, this.#els.btnCompare, this.#els.btnLeader, this.#els.btnAlone]) b.hidden = ro;
    if (ro) {
      this.#editing = false;
      this.#leaderOpen = false;
      this.#els.leader.hidden = true;
      this.#els.edit.hidden = true;
      if (!this.hasAttribute("compare-hex")) this.#els.compare.hidden = true;
    }
    this.#grid.setEditable(!ro && (this.#input?.bytes.length ?? 0) <= EDIT_MAX_BYTES);
  }

  #renderEmpty() {
    setText(this.#els.summary, "Paste or drop Kafka bytes to decode them.");
    this.#els.batch.hidden = true;
    this.#els.segment.hidden = true;
    this.#renderErrors();
  }

  #renderSummary() {
    const i = this.#input;
    const n = this.#frames.count;
    const parts = [`Detected: ${i.format}`];
    if (i.stripped.length) parts.push(`stripped ${i.stripped.join(", ")}`);
    parts.push(`${fmtBytes(i.bytes.length)}`, `${fmtInt(n)} ${n === 1 ? "batch" : "batches"}`);
    const st = this.#pass?.stats;
    if (st) {
      const codecs = Object.entries(st.codecs).map(([c, k]) => `${c} ${fmtInt(k)}`).join(", ");
      parts.push(`${fmtInt(st.records)} records`, codecs, `${fmtInt(st.transactional)} transactional`, `${fmtInt(st.control)} control`, `${fmtInt(st.crcInvalid)} bad CRC`);
    }
    setText(this.#els.summary, parts.join(" · "));
    setText(this.#els.detected, `Detected: ${i.format}${i.stripped.length ? ` (stripped ${i.stripped.join(", ")})` : ""}, ${fmtBytes(i.bytes.length)}`);
  }

  #setProgress(text) {
    setText(this.#els.progress, text);
    this.#els.progress.hidden = !text;
  }

  #renderNoBatch() {
    this.#d = null;
    this.#els.batch.hidden = true;
    this.#renderErrors();
  }

  #allErrors() {
    const d = this.#d;
    const own = d ? d.errors : [];
    const other = this.#globalErrors.filter((e) => !d || e.batch !== d.index);
    return [...own, ...other];
  }

  #renderErrors() {
    const errs = this.#allErrors();
    const shown = errs.slice(0, 200);
    this.#els.errorsEmpty.hidden = errs.length > 0;
    setText(this.#els.errorsEmpty, errs.length ? "" : "No errors.");
    replace(this.#els.errorsList, 
      ...shown.map((e) => {
        const sev = e.severity === "warning" ? "⚠ warning" : e.severity === "info" ? "ℹ info" : "✗ error";
        const where = e.batch !== undefined && e.batch !== null ? ` [batch ${e.batch}]` : "";
        const dec = e.decompressedAt !== undefined && e.decompressedAt !== null ? ` (decompressed byte ${e.decompressedAt})` : "";
        return el("li", { class: e.severity === "warning" ? "warning" : e.severity === "info" ? "info" : "error", "data-kind": e.kind },
          el("button", { type: "button", class: "at", "data-at": e.at, "data-batch": e.batch ?? "", title: "Show this byte in the byte map" }, `@${e.at}`),
          `${where} ${e.kind} `, el("span", { class: "sev" }, `(${sev})`), `: ${e.message}${dec}`,
          ERROR_EXPLANATIONS[e.kind] ? el("span", { class: "explain" }, ERROR_EXPLANATIONS[e.kind]) : null);
      }),
      errs.length > shown.length ? el("li", { class: "muted" }, `… and ${fmtInt(errs.length - shown.length)} more`) : null,
    );
    if (this.#d?.batch) this.#renderMarks();
  }

  #renderMarks() {
    const d = this.#d;
    const marks = new Map();
    for (const e of d.errors) if (e.severity !== "info" && e.at >= d.start && e.at < d.end) marks.set(e.at, "err");
    if (this.#compareB?.diff) for (const p of this.#compareB.diff) if (!marks.has(p)) marks.set(p, "diff");
    this.#grid.marks = marks;
    this.#grid.setHighlight(...this.#grid.hl);
    this.#grid.flush();
  }

  #renderDetail(keep) {
    const d = this.#d;
    const b = d.batch;
    const E = this.#els;
    E.batch.hidden = false;
    const h = b.header;
    setText(E.batchTitle,
      `Batch ${d.index}: bytes ${d.start}–${d.end - 1} (${fmtInt(d.end - d.start)} bytes), magic ${b.magic}${b.legacy ? " (legacy message)" : " (record batch v2)"}${b.truncated ? ", truncated" : ""}${b.control ? `, ${b.control.type} marker` : ""}`);
    const big = this.#input.bytes.length > EDIT_MAX_BYTES;
    E.btnFix.disabled = h.crcValid || b.truncated || !d.crcField || big;
    E.btnEdit.disabled = big;
    E.btnEdit.setAttribute("aria-pressed", String(this.#editing));
    E.btnAlone.hidden = this.readOnly || this.#frames.count < 2;
    this.#grid.setEditable(!this.readOnly && !big);

    // The header fields of compact mode (CSS shows them only there).
    const hf = b.legacy
      ? [["magic", b.magic], ["offset", h.baseOffset ?? h.offset], ["crc", h.crcValid ? "✓ valid" : "✗ invalid"]]
      : [["baseOffset", h.baseOffset], ["records", h.recordsCount], ["producerId", h.producerId], ["producerEpoch", h.producerEpoch],
         ["baseSequence", h.baseSequence], ["compression", h.attributes?.compression ?? "none"],
         ["transactional", h.attributes?.transactional ? "yes" : "no"], ["crc", h.crcValid ? "✓ valid" : "✗ invalid"],
         ...(b.control ? [["marker", b.control.type]] : [])];
    replace(E.compactHead, hf.map(([k, v]) => el("div", {}, el("dt", {}, k), el("dd", {}, String(v ?? "—")))));
    // Producer meaning.
    replace(E.producer, 
      ...(b.control ? [el("p", { class: `marker ${b.control.type.toLowerCase()}` },
        el("span", { class: "badge" }, b.control.type),
        b.control.coordinatorEpoch !== null ? ` coordinatorEpoch ${b.control.coordinatorEpoch}` : "",
        b.control.markerVersion !== null ? `, marker version ${b.control.markerVersion}` : "",
        `, producerId ${h.producerId}, producerEpoch ${h.producerEpoch}`)] : []),
      ...producerSummary(b).map((t) => el("p", {}, t)),
    );
    // Checks.
    replace(E.checks, 
      el("thead", {}, el("tr", {}, el("th", { scope: "col" }, "Check"), el("th", { scope: "col" }, "Stored"), el("th", { scope: "col" }, "Expected"), el("th", { scope: "col" }, "Result"))),
      el("tbody", {}, checks(b, b.truncated ? this.#input.bytes.length - d.start : d.end - d.start, this.#frames.count > 1).map((c) =>
        el("tr", { "data-check": c.name, class: c.ok ? "ok" : "bad" },
          el("th", { scope: "row" }, c.name), el("td", { class: "mono" }, c.stored), el("td", { class: "mono" }, c.expected),
          el("td", { class: c.ok ? "ok" : "bad" }, c.ok ? "✓ ok" : "✗ mismatch")))),
    );
    this.#renderBits(b);
    // Coverage bar.
    this.#renderCoverage(b, d);
    // Grids.
    this.#grid.setData({
      bytes: this.#input.bytes.subarray(d.start, d.end),
      base: d.start,
      owner: d.ownerMain,
      starts: d.startsMain,
      classOf: (k) => "k-" + d.F[k].doc.kind,
      rowLabel: (from, to) => this.#rowLabel(d.ownerMain, d.startsMain, d.start, from, to),
      marks: new Map(),
      xcrcEnd: b.legacy ? d.start + 16 : d.start + 21,
    });
    if (d.decBytes) {
      E.dec.hidden = false;
      const dz = b.decompressed;
      const csize = dz.compressedEnd - dz.compressedStart;
      const ratio = csize ? dz.size / csize : 0;
      setText(E.ratio, `${dz.codec}: the compressed payload (bytes ${dz.compressedStart}–${dz.compressedEnd - 1}, ${fmtInt(csize)} bytes) inflates to ${fmtInt(dz.size)} bytes of records: compression ratio ${ratio.toFixed(2)} : 1${ratio < 1 ? " (the payload got bigger: too small to compress)" : ""}. Offsets in this pane count from the start of the decompressed records.`);
      this.#decGrid.setData({
        bytes: d.decBytes,
        base: 0,
        owner: d.ownerDec,
        starts: d.startsDec,
        classOf: (k) => "k-" + d.F[k].doc.kind,
        rowLabel: (from, to) => this.#rowLabel(d.ownerDec, d.startsDec, 0, from, to),
      });
    } else {
      E.dec.hidden = true;
      this.#decGrid.setData({ bytes: new Uint8Array(0) });
    }
    this.#renderLegend(d);
    this.#renderPage();
    this.#renderMarks();
    this.#renderEdit(!keep || (keep.from !== "form" && keep.from !== "spans"));
    if (this.#comparing) this.#renderCompare();
    const activeK = keep?.active ? d.F.findIndex((f) => f.name + "@" + f.buf === keep.active) : -1;
    if (activeK >= 0) this.#setActive(activeK, "restore");
    else this.#setActive(-1, "hover");
    if (keep && keep.focus >= 0 && keep.focus < d.end) this.#grid.setFocus(keep.focus, { scroll: false, notify: false });
    // Paint the rows in view now rather than on the next frame: the decode event means "rendered".
    this.#grid.flush();
    this.#decGrid.flush();
  }

  #renderBits(b) {
    const raw = b.header.attributes.raw;
    const cells = [];
    for (let bit = 15; bit >= 0; bit--) {
      const on = (raw >> bit) & 1;
      cells.push(el("span", { class: `bit${on ? " on" : ""}`, title: `bit ${bit}` }, String(on)));
    }
    const a = b.header.attributes;
    const values = { "delete horizon": a.deleteHorizon, control: a.control, transactional: a.transactional, "timestamp type": a.timestampType, "compression codec": a.compression, unused: "0" };
    const legacyNote = b.legacy ? el("p", { class: "muted small" }, "Legacy messages have one attributes byte: codec in bits 0–2, timestamp type in bit 3 (magic 1).") : null;
    replace(this.#els.bits, 
      el("div", { class: "bitrow mono", role: "img", "aria-label": `attributes ${hex32(raw).replace("0x0000", "0x")} in binary: ${raw.toString(2).padStart(16, "0")}` }, cells),
      el("div", { class: "bitlabels mono", "aria-hidden": "true" }, "15 …          7 6 5 4 3 2 1 0"),
      el("dl", { class: "bitdefs" }, ATTRIBUTE_BITS.map((g) => [
        el("dt", {}, g.bits[0] === g.bits[1] ? `bit ${g.bits[0]}` : `bits ${g.bits[1]}–${g.bits[0]}`),
        el("dd", {}, `${g.label}: ${String(values[g.label])}`),
      ])),
      legacyNote,
    );
  }

  #renderCoverage(b, d) {
    const total = d.end - d.start;
    const E = this.#els;
    if (b.legacy) {
      replace(E.coverage, el("p", { class: "small" }, `CRC-32 covers bytes ${d.start + 16}–${d.end - 1} (magic to the end of the value); bytes ${d.start}–${d.start + 15} (offset, size, crc) are outside it (dashed top edge in the map).`));
      return;
    }
    const seg = (cls, from, to, label) => {
      const node = el("span", { class: `cov ${cls}` }, label);
      node.style.flexGrow = String(Math.max(1, to - from));
      return node;
    };
    replace(E.coverage, 
      el("div", { class: "covbar", "aria-hidden": "true" },
        seg("pre", 0, 17, "0–16 not in CRC"), seg("crcf", 17, 21, "crc"), seg("in", 21, Math.max(22, total), `21–${total - 1} covered by CRC-32C`)),
      el("p", { class: "small" },
        `CRC-32C covers bytes ${d.start + 21}–${d.end - 1} (attributes to the end). Bytes ${d.start}–${d.start + 16} (baseOffset, batchLength, partitionLeaderEpoch, magic) and the crc field itself are outside it, so a broker can set the offset and leader epoch without recomputing the CRC; they have a dashed top edge in the map.`),
    );
  }

  #rowLabel(owner, starts, base, from, to) {
    const d = this.#d;
    const tags = [];
    for (let p = from; p < to; p++) {
      const rel = p - base;
      if (!starts[rel]) continue;
      const k = owner[rel];
      if (k < 0) continue;
      const f = d.F[k];
      tags.push(starts[rel] === 2 && f.rec >= 0 ? `r${f.rec}:${f.doc.tag}` : f.doc.tag);
    }
    return tags.join(" ");
  }

  #renderLegend(d) {
    const seen = new Map();
    for (const f of d.F) {
      const key = f.doc.kind;
      if (key === "r-r" || key === "r-h" || key === "h-rec") continue;
      if (!seen.has(key)) seen.set(key, f);
    }
    replace(this.#els.legend, 
      ...[...seen.values()].map((f) => {
        return el("li", {}, el("span", { class: `sw b k-${f.doc.kind}`, "aria-hidden": "true" }, f.doc.tag), ` ${f.doc.label}`);
      }),
      el("li", {}, el("span", { class: "sw b fs", "aria-hidden": "true" }, "│"), " a field starts"),
      el("li", {}, el("span", { class: "sw b rs", "aria-hidden": "true" }, "┃"), " a record starts"),
      el("li", {}, el("span", { class: "sw b xcrc", "aria-hidden": "true" }, "--"), " outside the CRC"),
      el("li", {}, el("span", { class: "sw b err", "aria-hidden": "true" }, "!!"), " a problem is pinned here"),
    );
  }

  /** Field table + records table for the current records page. */
  #renderPage() {
    const d = this.#d;
    if (!d?.batch) return;
    const b = d.batch;
    const nrec = b.records.length;
    const pages = Math.max(1, Math.ceil(nrec / RECORDS_PAGE));
    this.#page = Math.min(this.#page, pages - 1);
    const from = this.#page * RECORDS_PAGE;
    const to = Math.min(nrec, from + RECORDS_PAGE);
    const rows = [];
    const derivedAfter = { crc: ["crcComputed", "crcValid"], attributes: ["attributes.compression", "attributes.timestampType", "attributes.transactional", "attributes.control", "attributes.deleteHorizon"], lastOffsetDelta: ["lastOffset"], baseSequence: ["lastSequence"] };
    let firstButton = true;
    for (const f of d.F) {
      if (f.rec >= 0 && (f.rec < from || f.rec >= to)) continue;
      rows.push(this.#fieldRow(f, b, firstButton));
      firstButton = false;
      if (!b.legacy && derivedAfter[f.name] && f.buf === "main") {
        for (const name of derivedAfter[f.name]) rows.push(this.#derivedRow(name, b));
      }
    }
    replace(this.#els.fields, ...rows);
    // Records table.
    const recs = [];
    for (let i = from; i < to; i++) {
      const r = b.records[i];
      recs.push(el("tr", { "data-record": i },
        el("td", { class: "num" }, i),
        el("td", { class: "mono" }, r.offset),
        el("td", { class: "mono" }, timestampText(r.timestamp)),
        el("td", { class: "mono" }, r.sequence),
        el("td", { class: "mono" }, b.control ? `${b.control.type} key` : bytesPreview(r.key)),
        el("td", { class: "mono" }, b.control && b.control.coordinatorEpoch !== null ? `coordinatorEpoch ${b.control.coordinatorEpoch}` : bytesPreview(r.value)),
        el("td", { class: "mono" }, r.headers.map((x) => el("div", {}, `${JSON.stringify(x.key)} = ${bytesPreview(x.value)}`)))));
      if (this.#formatter && !b.control) recs.push(this.#formattedRow(i, r));
    }
    replace(this.#els.records, ...recs);
    if (!nrec) replace(this.#els.records, el("tr", {}, el("td", { colspan: "7", class: "muted" }, b.truncated ? "No records: the batch is truncated." : "No records decoded.")));
    setText(this.#els.recordsTitle, `Records (${fmtInt(nrec)})`);
    for (const pager of [this.#els.pager, this.#els.pager2]) {
      if (pages <= 1) {
        replace(pager, );
        continue;
      }
      replace(pager, 
        el("button", { type: "button", "data-page": this.#page - 1, disabled: this.#page === 0 }, "◀ Previous records"),
        el("span", { class: "muted" }, ` records ${from}–${to - 1} of ${fmtInt(nrec)} `),
        el("button", { type: "button", "data-page": this.#page + 1, disabled: this.#page >= pages - 1 }, "Next records ▶"),
      );
    }
    if (this.#active >= 0) this.#markRows(this.#active);
  }

  /** The formatter's line for record i, as text (it comes from the input). */
  #formattedRow(i, r) {
    const topic = this.#formatter === "offsets" ? "__consumer_offsets" : "__transaction_state";
    const text = r.formatted === undefined || r.formatted === null
      ? `(not readable as a ${topic} record: see Problems)`
      : r.formatted === "" ? "(the formatter prints nothing for this record)" : r.formatted;
    return el("tr", { class: "formatted", "data-formatted": i },
      el("td", { class: "muted small" }, "↳"),
      el("td", { colspan: "6", class: "mono formatted-text", title: `kafka-console-consumer --formatter output (${topic})` }, text));
  }

  #fieldRow(f, b, tabbable) {
    const doc = f.doc;
    const label = labelOf(doc, f.rec, f.name);
    const depth = (f.name.match(/\.|\]\./g) ?? []).length + (/^records\[\d+\]$/.test(f.name) ? 0 : f.name.startsWith("records[") ? 1 : 0);
    const src = f.buf === "dec" ? this.#d.decBytes : this.#input.bytes;
    const rawFrom = f.start;
    const rawTo = Math.min(f.end, f.start + 16);
    const raw = src ? toHex(src.subarray(rawFrom, rawTo)) + (f.end - f.start > 16 ? ` … (${fmtInt(f.end - f.start)} bytes)` : "") : "";
    const offset = f.buf === "dec" ? `dec+${f.start}` : String(f.start);
    const value = fieldValue(f.name, b);
    return el("tr", { "data-field": f.name, "data-k": f.k, class: `d${Math.min(depth, 3)}${/^records\[\d+\]$/.test(f.name) ? " group" : ""}` },
      el("th", { scope: "row" },
        el("span", { class: `sw b k-${doc.kind}`, "aria-hidden": "true" }, doc.tag), " ",
        el("button", { type: "button", class: "fname", tabindex: tabbable ? "0" : "-1", title: "Show these bytes in the byte map" }, f.buf === "dec" ? `${label} (decompressed)` : label)),
      el("td", { class: "v mono" }, value),
      el("td", { class: "num mono" }, offset),
      el("td", { class: "num" }, f.end - f.start),
      el("td", { class: "mono raw" }, raw),
      el("td", { class: "meaning" }, doc.meaning),
      el("td", { class: "kafka small" }, doc.kafka));
  }

  #derivedRow(name, b) {
    const [meaning, kafka] = DERIVED[name];
    const value = fieldValue(name, b);
    const bad = name === "crcValid" && !b.header.crcValid;
    return el("tr", { "data-field": name, class: `derived d1${bad ? " badrow" : ""}` },
      el("th", { scope: "row" }, el("span", { class: "fname-d" }, name), el("span", { class: "muted small" }, " derived")),
      el("td", { class: `v mono${name === "crcValid" ? (b.header.crcValid ? " ok" : " bad") : ""}` }, value),
      el("td", { class: "num muted" }, "—"), el("td", { class: "num muted" }, "—"), el("td", { class: "muted" }, "—"),
      el("td", { class: "meaning" }, meaning), el("td", { class: "kafka small" }, kafka));
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
        this.#renderPage();
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

  // --- editing ---
  #keepState(from) {
    const f = this.#active >= 0 ? this.#d?.F[this.#active] : null;
    return { sel: this.#sel, active: f ? f.name + "@" + f.buf : null, focus: this.#grid.focusPos, page: this.#page, from };
  }

  #replaceBatchBytes(newBatch, how) {
    const d = this.#d;
    const old = this.#input.bytes;
    const out = new Uint8Array(old.length - (d.end - d.start) + newBatch.length);
    out.set(old.subarray(0, d.start), 0);
    out.set(newBatch, d.start);
    out.set(old.subarray(d.end), d.start + newBatch.length);
    this.#commitBytes(out, how);
  }

  #commitBytes(bytes, how) {
    const keep = this.#keepState(how);
    this.#loadBytes(bytes, { format: "edited", stripped: [], label: this.#input.label }, keep);
    if (bytes.length * 3 <= BIG_TEXT && this.#els.input && !this.readOnly) this.#els.input.value = toHex(bytes, " ", 16);
    const b = this.#d?.batch;
    this.#emit(new KafkaBatchEditEvent({ batch: this.#sel, how, length: bytes.length, crcValid: Boolean(b?.header.crcValid) }));
  }

  #typeByte(pos, value) {
    if (this.readOnly || !this.#input || this.#input.bytes.length > EDIT_MAX_BYTES) return;
    const bytes = this.#input.bytes.slice();
    const before = bytes[pos];
    bytes[pos] = value;
    this.#commitBytes(bytes, "byte");
    const h = this.#d?.batch?.header;
    this.#announce(`Byte ${pos} changed from ${hex2(before)} to ${hex2(value)}.${h ? ` CRC ${h.crcValid ? "valid" : `now invalid: stored ${hex32(h.crc)}, computed ${hex32(h.crcComputed)}`}.` : ""}`);
  }

  #fixCrc() {
    const d = this.#d;
    if (!d?.crcField || d.batch.header.crcValid) return;
    const bytes = this.#input.bytes.slice();
    const c = d.batch.header.crcComputed >>> 0;
    const at = d.crcField.start;
    bytes[at] = c >>> 24;
    bytes[at + 1] = (c >>> 16) & 0xff;
    bytes[at + 2] = (c >>> 8) & 0xff;
    bytes[at + 3] = c & 0xff;
    this.#commitBytes(bytes, "fix-crc");
    this.#announce(`CRC fixed: ${hex32(c)} written at bytes ${at}–${at + 3}.`);
  }

  #renderEdit(rebuild) {
    const E = this.#els;
    const d = this.#d;
    E.btnEdit.setAttribute("aria-pressed", String(this.#editing));
    E.edit.hidden = !this.#editing || this.readOnly || !d?.batch;
    if (E.edit.hidden) {
      this.#formFor = -1;
      return;
    }
    if (!rebuild && this.#formFor === d.index) return;
    this.#formFor = d.index;
    const b = d.batch;
    const h = b.header;
    const hint = "Change a value: the batch is re-encoded with encodeBatch and the bytes, CRC and checks update at once. (Typing hex digits over a focused byte in the map edits raw bytes without fixing the CRC.)";
    const status = el("p", { id: "edit-status", role: "status", class: "muted" }, hint);
    // Opening the form starts loading the encoder (the full package), so it is usually there by
    // the first change; until then the status says so.
    if (!encoderIfLoaded()) {
      this.#encoder((text, bad) => {
        setText(status, text);
        status.className = bad ? "bad" : "muted";
      }).then((enc) => {
        if (enc && /^Loading the encoder/.test(status.textContent)) setText(status, hint);
      });
    }
    const inputs = [];
    const field = (id, label, value, attrs = {}) => {
      const input = el("input", { id: `edit-${id}`, "data-edit": id, value: String(value), inputmode: "numeric", spellcheck: "false", ...attrs });
      inputs.push(input);
      return el("div", { class: "fld" }, el("label", { for: `edit-${id}` }, label), input);
    };
    const headerFields = b.legacy ? [] : FORM_HEADER.map(([name, type]) => field(name, `${name} (${type})`, h[name]));
    const codec = el("select", { id: "edit-compression", "data-edit": "compression" },
      ["none", "gzip", "snappy", "lz4", "zstd"].map((c) => el("option", { value: c, selected: h.attributes.compression === c }, c)));
    const tsType = el("select", { id: "edit-timestampType", "data-edit": "timestampType" },
      ["CreateTime", "LogAppendTime"].map((c) => el("option", { value: c, selected: h.attributes.timestampType === c }, c)));
    const check = (id, label, on) => {
      const input = el("input", { type: "checkbox", id: `edit-${id}`, "data-edit": id, checked: on });
      return el("div", { class: "fld chk" }, input, el("label", { for: `edit-${id}` }, label));
    };
    const attrs = b.legacy ? [] : [
      el("div", { class: "fld" }, el("label", { for: "edit-compression" }, "compression"), codec),
      el("div", { class: "fld" }, el("label", { for: "edit-timestampType" }, "timestampType"), tsType),
      check("transactional", "transactional", h.attributes.transactional),
      check("control", "control", h.attributes.control),
    ];
    let recordsBox = null;
    if (b.control && (b.control.type === "COMMIT" || b.control.type === "ABORT")) {
      recordsBox = el("fieldset", {}, el("legend", {}, "Transaction marker"),
        el("div", { class: "fld" }, el("label", { for: "edit-markerType" }, "marker"),
          el("select", { id: "edit-markerType", "data-edit": "markerType" }, ["COMMIT", "ABORT"].map((t) => el("option", { value: t, selected: b.control.type === t }, t)))),
        field("coordinatorEpoch", "coordinatorEpoch (int32)", b.control.coordinatorEpoch));
    } else if (!b.control && b.records.length) {
      const n = Math.min(b.records.length, 20);
      const recRows = [];
      for (let i = 0; i < n; i++) {
        const r = b.records[i];
        const keyText = r.key === null ? "" : textOf(r.key);
        const valText = r.value === null ? "" : textOf(r.value);
        recRows.push(el("div", { class: "recedit" },
          el("span", { class: "muted" }, `record ${i}`),
          field(`r${i}-key`, `key (${keyText === null ? "hex" : "text"}; empty = null)`, keyText ?? r.key, { inputmode: "text", "data-mode": keyText === null ? "hex" : "text" }),
          field(`r${i}-value`, `value (${valText === null ? "hex" : "text"}; empty = null)`, valText ?? r.value, { inputmode: "text", "data-mode": valText === null ? "hex" : "text" })));
      }
      recordsBox = el("fieldset", {}, el("legend", {}, `Records${b.records.length > n ? ` (first ${n} of ${b.records.length})` : ""}`), recRows);
    }
    const form = el("form", { id: "edit-form", novalidate: true },
      b.legacy ? el("p", { class: "muted" }, "Legacy messages: only the records can be edited here.") : null,
      headerFields.length ? el("fieldset", {}, el("legend", {}, "Header"), headerFields, attrs) : null,
      recordsBox, status);
    form.addEventListener("submit", (e) => e.preventDefault());
    let pending = 0;
    const apply = () => {
      clearTimeout(pending);
      pending = setTimeout(() => this.#applyForm(form, status), 30);
    };
    form.addEventListener("input", apply);
    form.addEventListener("change", apply);
    replace(E.edit, el("h4", { id: "edit-title" }, `Edit batch ${d.index}`), form);
  }

  async #applyForm(form, status) {
    const d = this.#d;
    if (!d?.batch) return;
    const seq = ++this.#encodeSeq;
    const spec = structuredClone(d.batch);
    const h = spec.header;
    let bad = null;
    for (const input of form.querySelectorAll("[data-edit]")) {
      input.removeAttribute("aria-invalid");
      const id = input.dataset.edit;
      const v = input.type === "checkbox" ? input.checked : input.value.trim();
      const typeOf = FORM_HEADER.find(([n]) => n === id)?.[1];
      if (typeOf) {
        if (!/^-?\d+$/.test(v)) {
          bad ??= input;
          input.setAttribute("aria-invalid", "true");
          continue;
        }
        h[id] = typeOf === "int64" ? v : Number(v);
      } else if (id === "compression" || id === "timestampType") h.attributes[id] = v;
      else if (id === "transactional" || id === "control") h.attributes[id] = v;
      else if (id === "markerType") spec.control.type = v;
      else if (id === "coordinatorEpoch") {
        if (!/^-?\d+$/.test(v)) {
          bad ??= input;
          input.setAttribute("aria-invalid", "true");
          continue;
        }
        spec.control.coordinatorEpoch = Number(v);
      } else {
        const m = /^r(\d+)-(key|value)$/.exec(id);
        if (!m) continue;
        const r = spec.records[Number(m[1])];
        const which = m[2];
        delete r[`${which}Text`];
        if (v === "") r[which] = null;
        else if (input.dataset.mode === "text") {
          r[which] = null;
          r[`${which}Text`] = input.value;
        } else if (/^([0-9a-fA-F]{2})*$/.test(v.replace(/\s+/g, ""))) r[which] = v.replace(/\s+/g, "").toLowerCase();
        else {
          bad ??= input;
          input.setAttribute("aria-invalid", "true");
        }
      }
    }
    if (bad) {
      setText(status, `Not re-encoded: ${bad.labels?.[0]?.textContent ?? bad.id} must be ${bad.dataset.mode === "hex" ? "hex bytes" : "an integer"}.`);
      status.className = "bad";
      return;
    }
    const enc = await this.#encoder((text, failed) => {
      setText(status, failed ? `Not re-encoded: ${text}` : text);
      status.className = failed ? "bad" : "muted";
    });
    // A later change, another batch or a closed form while the encoder loaded: this one is stale.
    if (!enc || seq !== this.#encodeSeq || this.#d !== d || !form.isConnected) return;
    let bytes;
    try {
      bytes = enc.encodeBatch(spec);
    } catch (err) {
      setText(status, `Not re-encoded: ${err instanceof Error ? err.message : err}`);
      status.className = "bad";
      return;
    }
    this.#replaceBatchBytes(bytes, "form");
    const nh = this.#d?.batch?.header;
    if (nh) {
      setText(status, `Re-encoded with encodeBatch: ${fmtInt(bytes.length)} bytes, crc ${hex32(nh.crc)} (${nh.crcValid ? "valid" : "invalid"}).`);
      status.className = "muted";
    }
  }

  // --- compare ---
  #renderCompare() {
    const E = this.#els;
    const d = this.#d;
    E.compare.hidden = !this.#comparing || !d?.batch;
    E.btnCompare.setAttribute("aria-pressed", String(this.#comparing));
    this.#compareB = null;
    if (E.compare.hidden) {
      this.#renderMarks();
      return;
    }
    const text = E.compareInput.value;
    if (!text.trim()) {
      replace(E.compareOut, el("p", { class: "muted" }, "Paste batch B, or build one with the buttons above."));
      this.#renderMarks();
      return;
    }
    let bytes;
    try {
      bytes = this.#detect(text).bytes;
    } catch (err) {
      replace(E.compareOut, el("p", { class: "bad" }, `Batch B: ${err.message}`));
      return;
    }
    const r = this.#eoslab.decode(bytes, { spans: false });
    const bB = r.batches[0];
    if (!bB) {
      replace(E.compareOut, el("p", { class: "bad" }, `Batch B does not decode: ${r.errors[0]?.message ?? "no batch"}`));
      return;
    }
    const a = d.batch;
    const A = this.#input.bytes.subarray(d.start, d.end);
    const diff = [];
    const n = Math.max(A.length, bytes.length);
    for (let i = 0; i < n; i++) if (A[i] !== bytes[i]) diff.push(d.start + i);
    const names = ["baseOffset", "batchLength", "partitionLeaderEpoch", "crc", "producerId", "producerEpoch", "baseSequence", "lastSequence", "recordsCount", "lastOffsetDelta", "baseTimestamp"];
    const rows = names.map((nm) => {
      const va = fieldValue(nm, a);
      const vb = fieldValue(nm, bB);
      const same = va === vb;
      return el("tr", { class: same ? "" : "differs" }, el("th", { scope: "row" }, nm), el("td", { class: "mono" }, va), el("td", { class: "mono" }, vb), el("td", {}, same ? "= same" : "≠ differs"));
    });
    const attrSame = a.header.attributes.raw === bB.header.attributes.raw;
    rows.push(el("tr", { class: attrSame ? "" : "differs" }, el("th", { scope: "row" }, "attributes"), el("td", { class: "mono" }, fieldValue("attributes", a)), el("td", { class: "mono" }, fieldValue("attributes", bB)), el("td", {}, attrSame ? "= same" : "≠ differs")));
    const recSame = JSON.stringify(a.records.map((x) => [x.key, x.value])) === JSON.stringify(bB.records.map((x) => [x.key, x.value]));
    rows.push(el("tr", { class: recSame ? "" : "differs" }, el("th", { scope: "row" }, "record keys/values"), el("td", {}, `${a.records.length} record(s)`), el("td", {}, `${bB.records.length} record(s)`), el("td", {}, recSame ? "= same" : "≠ differs")));
    this.#compareB = { batch: bB, diff: diff.filter((p) => p < d.end) };
    replace(E.compareOut, 
      el("p", { id: "compare-verdict", class: "verdict" }, compareVerdict(a, bB)),
      el("table", { id: "compare-table", class: "checks" },
        el("thead", {}, el("tr", {}, ["Field", "A (opened)", "B", "Same?"].map((x) => el("th", { scope: "col" }, x)))),
        el("tbody", {}, rows)),
      el("p", { class: "small" }, diff.length === 0 ? "The bytes are identical." : `${fmtInt(diff.length)} byte(s) differ${A.length !== bytes.length ? ` (A has ${A.length} bytes, B ${bytes.length})` : ""}; they are marked ≠ (dotted outline) in A's byte map.`),
    );
    this.#renderMarks();
  }

  // --- send to a leader (issue 13) ---
  /** Is the opened batch one a producer could send (a decoded v2 data batch)? */
  #leaderCan() {
    const b = this.#d?.batch;
    return Boolean(b && !b.legacy && !b.control && !b.truncated);
  }

  #renderLeader() {
    const E = this.#els;
    const d = this.#d;
    const can = this.#leaderCan();
    E.btnLeader.disabled = !can;
    E.btnLeader.title = can ? "Send this batch as a Produce (acks=-1) to a partition leader whose producer state you set, and see its answer with the rule"
      : "Only a v2 data batch can be sent by a producer (not a legacy message, a control batch or a truncated batch)";
    E.btnLeader.setAttribute("aria-pressed", String(this.#leaderOpen));
    E.leader.hidden = !this.#leaderOpen || !can || this.readOnly;
    if (E.leader.hidden) return;
    // A batch opened (or re-encoded) since the form was filled: its own producer fields as the
    // entry's starting values; the state stays "empty" until the user picks the entry.
    const h = d.batch.header;
    const key = `${d.index}:${h.producerId}:${h.producerEpoch}:${h.baseSequence}:${h.lastSequence}:${h.baseOffset}`;
    if (this.#leaderFor === key) return;
    this.#leaderFor = key;
    const q = (id) => E.leaderState.querySelector(`#${id}`);
    q("leader-pid").value = String(h.producerId);
    q("leader-epoch").value = String(h.producerEpoch);
    q("leader-first").value = String(h.baseSequence);
    q("leader-last").value = String(h.lastSequence);
    q("leader-offset").value = "";
    E.leaderZeroRow.hidden = String(h.baseOffset) === "0";
    replace(E.leaderOut);
  }

  /** The form as sendToLeader's question, or a message naming the field that is not a number. */
  #leaderQuestion() {
    const E = this.#els;
    const q = (id) => E.leaderState.querySelector(`#${id}`);
    const question = { transactionalId: E.leaderTid.value.trim(), zeroBaseOffset: !E.leaderZeroRow.hidden && E.leaderZero.checked, producer: null };
    if (!q("leader-entry").checked) return { question };
    const int = (id, name, optional = false) => {
      const t = q(id).value.trim();
      if (optional && t === "") return undefined;
      if (!/^-?\d+$/.test(t) || !Number.isSafeInteger(Number(t))) throw Object.assign(new Error(`${name}: a whole number, not ${JSON.stringify(t)}`), { input: q(id) });
      return Number(t);
    };
    question.producer = {
      producerId: int("leader-pid", "producerId"), epoch: int("leader-epoch", "epoch"),
      firstSequence: int("leader-first", "first sequence"), lastSequence: int("leader-last", "last sequence"),
      baseOffset: int("leader-offset", "first offset", true),
    };
    return { question };
  }

  async #sendToLeader() {
    const E = this.#els;
    const d = this.#d;
    if (!this.#leaderCan()) return;
    const seq = ++this.#leaderSeq;
    for (const i of E.leaderState.querySelectorAll("input")) i.removeAttribute("aria-invalid");
    const show = (text, bad = false) => replace(E.leaderOut, el("p", { class: bad ? "bad" : "muted" }, text));
    let question;
    try {
      ({ question } = this.#leaderQuestion());
    } catch (err) {
      err.input?.setAttribute("aria-invalid", "true");
      show(err.message, true);
      return;
    }
    const full = await this.#encoder(show);
    if (!full || seq !== this.#leaderSeq || this.#d !== d) return;
    let r;
    try {
      r = full.sendToLeader(this.#input.bytes.slice(d.start, d.end), question);
    } catch (err) {
      show(`The leader cannot hold that state: ${err instanceof Error ? err.message : err}`, true);
      return;
    }
    const outcome = r.outcome ?? "rejected";
    const offsets = r.offsets ? `offsets ${r.offsets[0]}–${r.offsets[1]}` : null;
    const head = outcome === "appended" ? `Appended at ${offsets}`
      : outcome === "duplicate" ? `Duplicate: nothing written; the answer carries the original ${offsets}`
      : `Rejected: ${r.error} (${r.errorCode})`;
    const dl = [
      ["outcome", outcome], ["error", `${r.error} (${r.errorCode})`], ["rule", r.rule || "—"],
      ...(offsets ? [["offsets", offsets.replace("offsets ", "")]] : []),
      ...(r.byteOffset !== undefined && r.byteOffset !== null ? [["byte", String(d.start + r.byteOffset)]] : []),
      ["Kafka source", r.source || "—"],
    ];
    replace(E.leaderOut,
      el("p", { id: "leader-verdict", class: `verdict ${outcome === "rejected" ? "bad" : "ok"}`, "data-outcome": outcome, "data-rule": r.rule, "data-error": r.error }, head),
      el("dl", { id: "leader-answer", class: "leader-answer" }, dl.map(([k, v]) => el("div", { "data-k": k }, el("dt", {}, k), el("dd", { class: k === "Kafka source" ? "mono small" : "" }, v)))),
      el("p", { id: "leader-why" }, r.why));
  }

  // --- the byte map as a picture ---

  /** The caption of an exported byte map: which batch, which bytes, what it holds. */
  get caption() {
    const d = this.#d;
    if (!d) return "";
    const b = d.batch;
    const h = b.header ?? {};
    const what = b.legacy ? `a magic ${h.magic} message set entry` :
      `record batch v2, baseOffset ${h.baseOffset}, producerId ${h.producerId}, epoch ${h.producerEpoch}, baseSequence ${h.baseSequence}, ${b.records?.length ?? h.recordsCount ?? 0} record(s)`;
    const count = this.#frames?.count ?? 1;
    const shown = Math.min(d.end - d.start, PICTURE_MAX_BYTES);
    return `Batch ${d.index + 1}${count > 1 ? ` of ${fmtInt(count)}` : ""}: ${what}; bytes ${fmtInt(d.start)}–${fmtInt(d.end - 1)}` +
      (shown < d.end - d.start ? ` (the first ${fmtInt(shown)} shown)` : "") + ". Byte map by eoslab.";
  }

  #pictureName() {
    const d = this.#d;
    return `kafka-batch-${(d?.index ?? 0) + 1}-byte-map`;
  }

  /**
   * The opened batch's byte map as a picture: "svg" returns the SVG text (cells, hex, field tags and
   * legend as shapes and text), "png" resolves to a PNG Blob of the same drawing; both end with
   * the caption. Null when no batch is open.
   */
  exportPicture(kind) {
    const d = this.#d;
    if (!d) return kind === "png" ? Promise.resolve(null) : null;
    const { prims, w, h } = this.#byteMapDrawing(d);
    return kind === "png" ? drawingToPng(prims, w, h, 2) : drawingToSvg(prims, w, h, this.caption);
  }

  #byteMapDrawing(d) {
    const root = this.shadowRoot;
    const cs = getComputedStyle(this);
    const v = (name, dflt) => cs.getPropertyValue(name).trim() || dflt;
    const fg = v("--fg", "#1b1f24");
    const bg = v("--bg", "#ffffff");
    const muted = v("--muted", "#57606a");
    const border = v("--border", "#d0d7de");
    const mono = v("--mono", "monospace");
    const sans = cs.fontFamily || "system-ui, sans-serif";
    // The tints as the byte map draws them (the k-* classes of lib/styles.js).
    const tints = new Map();
    const probe = el("span", { "aria-hidden": "true", hidden: true });
    root.append(probe);
    const tint = (kind) => {
      if (!tints.has(kind)) {
        probe.className = `k-${kind}`;
        probe.hidden = false;
        const st = getComputedStyle(probe);
        const hatched = st.backgroundImage && st.backgroundImage !== "none";
        const t13 = v("--t13", "#e7e5e4");
        tints.set(kind, hatched ? { fill: v("--none", "#f3f4f6"), hatch: t13 } : { fill: st.backgroundColor, hatch: null });
        probe.hidden = true;
      }
      return tints.get(kind);
    };
    const len = Math.min(d.end - d.start, PICTURE_MAX_BYTES);
    const bytes = this.#input.bytes.subarray(d.start, d.start + len);
    const CW = 24, RH = 20, OFF_W = 64, PAD = 8, LBL_GAP = 10, LBL_W = 300;
    const rows = Math.ceil(len / 16);
    const gridX = PAD + OFF_W;
    const w = gridX + 16 * CW + LBL_GAP + LBL_W + PAD;
    const prims = [{ rect: [0, 0, w, 0], fill: bg }]; // height set below
    const monoFont = `12px ${mono}`;
    const top = PAD;
    for (let r = 0; r < rows; r++) {
      const y = top + r * RH;
      prims.push({ text: String(d.start + r * 16).padStart(6, " "), x: gridX - 8, y: y + 14, fill: muted, font: monoFont, anchor: "end" });
      for (let c = 0; c < 16; c++) {
        const i = r * 16 + c;
        if (i >= len) break;
        const k = d.ownerMain[i];
        const t = k >= 0 ? tint(d.F[k].doc.kind) : tint("none");
        const x = gridX + c * CW;
        prims.push({ rect: [x, y, CW, RH], fill: t.fill, ...(t.hatch ? { hatch: t.hatch } : {}) });
        prims.push({ text: hex2(bytes[i]), x: x + CW / 2, y: y + 14, fill: fg, font: monoFont, anchor: "middle" });
        if (d.startsMain[i]) prims.push({ line: [x + 0.5, y, x + 0.5, y + RH], stroke: fg, width: d.startsMain[i] === 2 ? 2.5 : 1 });
      }
      const label = this.#rowLabel(d.ownerMain, d.startsMain, d.start, d.start + r * 16, d.start + Math.min(len, r * 16 + 16));
      if (label) prims.push({ text: label, x: gridX + 16 * CW + LBL_GAP, y: y + 14, fill: muted, font: `11px ${mono}` });
    }
    let y = top + rows * RH + 14;
    // The legend: each field kind shown, its tag and its name.
    const seen = new Map();
    for (let i = 0; i < len; i++) {
      const k = d.ownerMain[i];
      if (k < 0) continue;
      const doc = d.F[k].doc;
      if (!seen.has(doc.kind)) seen.set(doc.kind, doc);
    }
    const legend = [...seen.values()];
    const colW = Math.floor((w - 2 * PAD) / 3);
    legend.forEach((doc, i) => {
      const x = PAD + (i % 3) * colW;
      const ly = y + Math.floor(i / 3) * 18;
      const t = tint(doc.kind);
      prims.push({ rect: [x, ly, 26, 14], fill: t.fill, ...(t.hatch ? { hatch: t.hatch } : {}) });
      prims.push({ text: doc.tag, x: x + 13, y: ly + 11, fill: fg, font: `10px ${mono}`, anchor: "middle" });
      prims.push({ text: doc.label, x: x + 32, y: ly + 11, fill: fg, font: `11px ${sans}` });
    });
    y += Math.ceil(legend.length / 3) * 18 + 8;
    prims.push({ line: [PAD, y, w - PAD, y], stroke: border, width: 1 });
    const capFont = `13px ${sans}`;
    const lines = wrapCaption(this.caption, w - 2 * PAD, capFont);
    lines.forEach((l, i) => prims.push({ text: l, x: PAD, y: y + 18 + i * 18, fill: fg, font: capFont }));
    const h = Math.ceil(y + 18 + lines.length * 18);
    prims[0].rect[3] = h;
    probe.remove();
    return { prims, w, h };
  }

  // --- export ---
  async #export(kind) {
    const d = this.#d;
    if (!d) return;
    const bytes = this.#input.bytes.subarray(d.start, d.end);
    let text;
    if (kind === "hex") text = toHex(bytes, " ", 16);
    else if (kind === "base64") text = toBase64(bytes);
    else if (kind === "json") {
      text = JSON.stringify({ format: this.#input.format, stripped: this.#input.stripped, length: this.#input.bytes.length, batches: d.batch ? [d.batch] : [], errors: d.errors }, null, 2);
    } else {
      const n = Math.min(this.#frames.count, EXPORT_MAX_BATCHES);
      const lines = [];
      for (let i = 0; i < n; i++) {
        const b = i === d.index ? d.batch : this.#rowBatch(i);
        if (b) lines.push(...dumpLogLines(b, true));
      }
      if (this.#frames.count > n) lines.push(`(first ${fmtInt(n)} of ${fmtInt(this.#frames.count)} batches)`);
      text = lines.join("\n");
    }
    const E = this.#els;
    E.exportBox.hidden = false;
    E.exportText.value = text;
    let copied = false;
    try {
      await navigator.clipboard?.writeText(text);
      copied = Boolean(navigator.clipboard);
    } catch {
      copied = false;
    }
    setText(E.exportStatus, copied ? `${kind} copied to the clipboard (also below).` : `${kind}: select the text below and copy it (the clipboard is not available here).`);
    E.exportBox.dataset.kind = kind;
  }
}

const hex2 = (b) => (b ?? 0).toString(16).padStart(2, "0");
/** The most bytes of one batch an exported byte map draws (256 rows). */
const PICTURE_MAX_BYTES = 4096;
const fmtInt = (n) => Number(n).toLocaleString("en-US");
function fmtBytes(n) {
  if (n < 1024) return `${n} bytes`;
  if (n < 1 << 20) return `${(n / 1024).toFixed(1)} KiB (${fmtInt(n)} bytes)`;
  return `${(n / (1 << 20)).toFixed(1)} MiB (${fmtInt(n)} bytes)`;
}

KafkaBatchElement.define();
