// Requests and responses in the Batch Inspector: when pasted bytes are not clean record
// batches, they may be Kafka protocol messages (a Produce request, a Fetch response, a whole TCP
// stream of them, copied from Wireshark). This panel reads them with the wasm `decodeMessages`
// (eoslab_core::message: Kafka 4.3.1's own message schemas), which only the full package has: it is
// imported on first use (lib/wasm.js artifacts(): pkg/eoslab-files.js), so the inspector's decode-only module stays in its
// size budget. It shows each message's header and body as a tree of Kafka's field names, linked both
// ways with a byte map, the records of Produce and Fetch with, for Fetch responses, what a
// read_committed consumer does with each batch (CompletedFetch: aborted batches are skipped), and
// opens a records field in a nested <kafka-batch> (the existing batch view).
//
// Every value from the input reaches the DOM as text (lib/dom.js el()), never as markup.
import { dispatchWithLegacyName, el, replace, lazyStyleSheet } from "./dom.js";
import { artifacts } from "./wasm.js";

/** The event the panel dispatches (it bubbles out of <kafka-batch>) once bytes were read as messages. */
export const MESSAGES_DECODE_EVENT = "kafka-batch:messages-decode";

/** Bytes of one message shown in its byte map (the tree always covers the whole message). */
const MAP_MAX = 8192;

const CSS = `
#messages { margin: 0.75rem 0; padding: 0.5rem 0.75rem; border: 1px solid var(--border); border-radius: 6px; background: var(--panel); }
#messages h3 { margin: 0.25rem 0; }
#messages details.msg { margin: 0.5rem 0; border-top: 1px solid var(--border); padding-top: 0.25rem; }
#messages summary { cursor: pointer; font-weight: 600; }
#messages .msg-cols { display: flex; flex-wrap: wrap; gap: 1rem; align-items: flex-start; }
#messages ul.tree { list-style: none; margin: 0; padding-left: 1rem; font-family: var(--mono); font-size: 12.5px; }
#messages ul.tree.top { padding-left: 0; }
#messages button.node { all: unset; cursor: pointer; padding: 0 0.2rem; border-radius: 3px; }
#messages button.node:focus-visible { outline: 2px solid var(--accent); }
#messages button.node[aria-pressed="true"] { background: var(--t4); color: #1b1f24; }
#messages .range, #messages .ty { color: var(--muted); }
#messages pre.bytemap { font-family: var(--mono); font-size: 12.5px; margin: 0; max-height: 28rem; overflow: auto; background: var(--bg); padding: 0.25rem; border: 1px solid var(--border); }
#messages pre.bytemap span.b { cursor: pointer; }
#messages pre.bytemap span.b.sel { background: var(--t4); color: #1b1f24; }
#messages pre.bytemap span.off { color: var(--muted); }
#messages ol.verdicts { font-size: 13px; margin: 0.25rem 0 0.25rem 1rem; }
#messages li[data-verdict="aborted"] { color: var(--bad); }
#messages li[data-verdict="aborted"] .v::before { content: "✗ "; }
#messages li[data-verdict="delivered"] .v::before { content: "✓ "; }
#messages ul.msg-errors li { color: var(--bad); }
#messages ul.msg-errors li.info, #messages ul.msg-errors li.warning { color: var(--warn); }
`;
export const messagesStyleSheet = lazyStyleSheet(CSS);

/**
 * Request versions Kafka 4.3.1 reads, per api key eoslab has schemas for (the vendored
 * crate/core/messages/*Request.json validVersions): a cheap look at the first bytes decides whether
 * loading the full package to try them as messages is worth it, so a corrupt batch does not fetch it.
 */
const REQUEST_VERSIONS = { 0: [3, 13], 1: [4, 18], 2: [1, 11], 9: [1, 10], 10: [0, 6], 18: [0, 4], 22: [0, 6], 24: [0, 5], 25: [0, 4], 26: [0, 5], 27: [1, 2], 28: [0, 5] };

/** True when a request header (size-prefixed or not) plausibly starts the bytes. */
export function looksLikeRequest(bytes) {
  const at = (o) => {
    if (bytes.length < o + 10) return false;
    const key = (bytes[o] << 8) | bytes[o + 1];
    const ver = (bytes[o + 2] << 8) | bytes[o + 3];
    const range = REQUEST_VERSIONS[key];
    if (!range || ver < range[0] || ver > range[1]) return false;
    const len = ((bytes[o + 8] << 8) | bytes[o + 9]) << 16 >> 16;
    return len === -1 || (len >= 0 && o + 10 + len <= bytes.length);
  };
  return at(4) || at(0);
}

/** One complete size-prefixed frame (int32 size = the bytes after it): what a lone response looks like. */
export function looksLikeFrame(bytes) {
  if (bytes.length < 8) return false;
  const size = ((bytes[0] << 24) | (bytes[1] << 16) | (bytes[2] << 8) | bytes[3]) >>> 0;
  return size === bytes.length - 4;
}

/** ApiKeys names of the APIs eoslab has schemas for (REQUEST_VERSIONS' keys), for the "read as a response" form. */
const API_NAMES = { 0: "Produce", 1: "Fetch", 2: "ListOffsets", 9: "OffsetFetch", 10: "FindCoordinator", 18: "ApiVersions", 22: "InitProducerId", 24: "AddPartitionsToTxn", 25: "AddOffsetsToTxn", 26: "EndTxn", 27: "WriteTxnMarkers", 28: "TxnOffsetCommit" };

const VERDICT_TEXT = {
  delivered: "delivered to the application",
  control: "a control batch (transaction marker): never returned to the application",
  aborted: "skipped: an aborted transaction's batch (a read_committed consumer drops it)",
};

/** The panel: `root` goes into the host's shadow root; `update(bytes, batchesClean)` after each load. */
export class MessagesPanel {
  #seq = 0;
  #nested = null;

  constructor() {
    this.title = el("h3", { id: "messages-title" }, "Requests and responses");
    this.summary = el("p", { class: "muted small", id: "messages-summary" });
    this.list = el("div", { id: "messages-list" });
    this.errors = el("ul", { class: "msg-errors", id: "messages-errors" });
    this.recordsBox = el("div", { id: "messages-records" });
    // A response does not name its API: when the bytes are one size-prefixed frame that is not a
    // request, ask for the request's api key and version (nothing is loaded until "Read").
    this.askApi = el("select", { id: "ask-api" }, Object.entries(API_NAMES).map(([k, n]) => el("option", { value: k }, `${n} (${k})`)));
    this.askVersion = el("input", { id: "ask-version", type: "number", min: "0", max: "32767", value: "0", inputmode: "numeric" });
    this.askButton = el("button", { type: "button", id: "ask-read" }, "Read as this response");
    this.ask = el("div", { id: "messages-ask", hidden: true },
      el("p", { class: "muted small" }, "These bytes are one size-prefixed frame but not a request. If they are a response, it does not name its API: choose the API and version of the request it answers."),
      el("label", { for: "ask-api" }, "API "), this.askApi, " ", el("label", { for: "ask-version" }, "version "), this.askVersion, " ", this.askButton);
    this.askButton.addEventListener("click", () => this.#readAsResponse());
    this.root = el("section", { id: "messages", hidden: true, "aria-labelledby": "messages-title" },
      this.title, this.ask, this.summary, this.errors, this.list, this.recordsBox);
  }

  #bytes = null;

  /** `kafka-batch:messages-decode` {messages, errors} from the host element, then its deprecated name `kafka-messages-decode`. */
  #emitDecoded(r) {
    const detail = { messages: r.messages.length, errors: r.errors.length };
    dispatchWithLegacyName(this.root, new CustomEvent(MESSAGES_DECODE_EVENT, { bubbles: true, composed: true, detail }), "kafka-messages-decode");
  }

  async #readAsResponse() {
    const bytes = this.#bytes;
    if (!bytes) return;
    const seq = ++this.#seq;
    const m = await artifacts();
    if (seq !== this.#seq) return;
    const r = m.decodeMessages(bytes, { framing: "sized", kind: "response", apiKey: Number(this.askApi.value), apiVersion: Number(this.askVersion.value) });
    this.#render(r, bytes);
    this.#emitDecoded(r);
  }

  /** Adds the panel's stylesheet to the host's shadow root. */
  mount(shadowRoot) {
    const sheet = messagesStyleSheet();
    if (sheet && !shadowRoot.adoptedStyleSheets.includes(sheet)) shadowRoot.adoptedStyleSheets = [...shadowRoot.adoptedStyleSheets, sheet];
  }

  /**
   * Reads `bytes` as messages when they are not clean batches; shows the panel only when they hold at
   * least one message whose body was read. Resolves when done (a newer update wins).
   */
  async update(bytes, batchesClean) {
    const seq = ++this.#seq;
    this.#bytes = bytes;
    this.ask.hidden = true;
    if (!batchesClean && bytes && !looksLikeRequest(bytes) && looksLikeFrame(bytes)) {
      replace(this.summary);
      replace(this.errors);
      replace(this.list);
      replace(this.recordsBox);
      this.ask.hidden = false;
      this.root.hidden = false;
      return null;
    }
    if (batchesClean || !bytes || !looksLikeRequest(bytes)) {
      this.root.hidden = true;
      return null;
    }
    let m;
    try {
      m = await artifacts();
    } catch {
      this.root.hidden = true;
      return null;
    }
    if (seq !== this.#seq) return null;
    const r = m.decodeMessages(bytes);
    if (!r.messages.some((x) => x.body)) {
      this.root.hidden = true;
      return null;
    }
    this.#render(r, bytes);
    this.root.hidden = false;
    this.#emitDecoded(r);
    return r;
  }

  #render(r, bytes) {
    const n = r.messages.length;
    replace(this.summary,
      `These bytes are not record batches but ${n} Kafka protocol message${n === 1 ? "" : "s"} `,
      "(read with Kafka 4.3.1's own message schemas; a response takes its api key and version from the request with its correlation id). ",
      "Click a field to see its bytes, or a byte to see its field.");
    replace(this.errors, r.errors.map((e) => el("li", { class: e.severity, "data-kind": e.kind },
      `${e.severity === "error" ? "✗ error" : e.severity === "warning" ? "⚠ warning" : "ℹ note"} @${e.at}`,
      e.field ? ` (${e.field})` : "", ` ${e.kind}: ${e.message}`)));
    replace(this.list, r.messages.map((msg, i) => this.#message(msg, i, bytes)));
    replace(this.recordsBox);
    this.#nested = null;
  }

  #message(msg, index, bytes) {
    const head = `#${index} ${msg.kind} ${msg.apiName ?? `api key ${msg.apiKey}`} v${msg.apiVersion} · correlationId ${msg.correlationId}` +
      (msg.apiFrom === "request" ? ` · answers #${msg.requestIndex}` : msg.apiFrom === "options" ? " · api from the options" : "") +
      ` · bytes ${msg.start}–${msg.end}`;
    const mapEnd = Math.min(msg.end, msg.start + MAP_MAX);
    const spans = [];
    const map = el("pre", { class: "bytemap", "aria-label": `Byte map of message ${index}` });
    for (let row = msg.start - (msg.start % 16); row < mapEnd; row += 16) {
      map.append(el("span", { class: "off" }, row.toString(16).padStart(6, "0")), " ");
      for (let p = row; p < row + 16; p++) {
        if (p < msg.start || p >= mapEnd) {
          map.append("   ");
          continue;
        }
        const s = el("span", { class: "b", "data-at": p }, bytes[p].toString(16).padStart(2, "0"));
        spans[p - msg.start] = s;
        map.append(s, " ");
      }
      map.append("\n");
    }
    const buttons = [];
    let pressed = null;
    const select = (btn, node) => {
      if (pressed) pressed.setAttribute("aria-pressed", "false");
      pressed = btn;
      btn.setAttribute("aria-pressed", "true");
      for (const s of spans) s?.classList.remove("sel");
      for (let p = node.start; p < node.end; p++) spans[p - msg.start]?.classList.add("sel");
      spans[node.start - msg.start]?.scrollIntoView?.({ block: "nearest" });
    };
    const tree = (nodes, top) => el("ul", { class: top ? "tree top" : "tree" }, nodes.map((node) => {
      const value = node.null ? "null" : node.type === "string" && node.value !== undefined ? JSON.stringify(node.value) :
        node.type === "array" ? `${node.value ?? 0} element(s)` : node.type === "taggedFields" ? `${node.value} tagged field(s)` : node.value ?? "";
      const btn = el("button", { type: "button", class: "node", "aria-pressed": "false", "data-name": node.name },
        node.name, node.tag !== undefined ? ` (tag ${node.tag})` : "", value !== "" ? `: ${value}` : "",
        " ", el("span", { class: "range" }, `[${node.start}..${node.end})`));
      btn.addEventListener("click", () => select(btn, node));
      buttons.push({ btn, node });
      const rec = node.records !== undefined ? msg.records[node.records] : null;
      return el("li", {}, btn, rec ? this.#records(rec, bytes) : null,
        node.children?.length ? tree(node.children, false) : null);
    }));
    map.addEventListener("click", (e) => {
      const at = Number(e.target?.dataset?.at);
      if (!Number.isFinite(at)) return;
      // The innermost field holding the byte: the last one in tree order whose range covers it.
      let best = null;
      for (const b of buttons) if (b.node.start <= at && at < b.node.end) best = b;
      if (best) {
        select(best.btn, best.node);
        best.btn.focus();
      }
    });
    const roots = [msg.header, msg.body].filter(Boolean);
    return el("details", { class: "msg", open: true, "data-index": index },
      el("summary", {}, head),
      el("div", { class: "msg-cols" }, el("div", { class: "msg-tree" }, tree(roots, true)),
        el("div", { class: "msg-map" }, map, msg.end > mapEnd ? el("p", { class: "muted small" }, `Byte map: the first ${MAP_MAX} bytes of the message.`) : null)));
  }

  /** A records field: its batches (with the consumer's verdicts for a Fetch response) and a button to open them. */
  #records(rec, bytes) {
    const view = rec.consumer;
    const items = rec.report.batches.map((b, i) => {
      const h = b.header;
      const v = view?.batches[i];
      const flags = [h.attributes.transactional ? "transactional" : null, h.attributes.control ? `control${b.control ? ` (${b.control.type})` : ""}` : null].filter(Boolean).join(", ");
      return el("li", { "data-verdict": v?.verdict ?? "", "data-batch": i },
        `offsets ${h.baseOffset}–${h.lastOffset} · producerId ${h.producerId}${flags ? ` · ${flags}` : ""}`,
        v ? el("span", { class: "v" }, ` — ${view.isolationLevel}: ${VERDICT_TEXT[v.verdict] ?? v.verdict}` +
          (v.firstOffset !== undefined ? ` (its producer's aborted transaction begins at offset ${v.firstOffset}, from this response's abortedTransactions)` : "")) : null);
    });
    const open = el("button", { type: "button", class: "open-records" }, `Open these records in the batch view (${rec.report.batches.length} batch${rec.report.batches.length === 1 ? "" : "es"})`);
    open.addEventListener("click", () => this.#open(rec, bytes));
    const note = view ? el("p", { class: "muted small" },
      `As a ${view.isolationLevel === "READ_COMMITTED" ? "read_committed" : "read_uncommitted"} consumer reads them (` +
      (view.fromRequest ? "isolation level from the Fetch request" : "inferred: brokers send abortedTransactions only to read_committed fetchers") +
      "; Kafka's CompletedFetch):") : null;
    return el("div", { class: "records", "data-path": rec.path }, note, el("ol", { class: "verdicts", start: "0" }, items), open);
  }

  #open(rec, bytes) {
    if (!this.#nested) {
      this.#nested = document.createElement("kafka-batch");
      this.#nested.setAttribute("readonly", "");
      this.#nested.id = "messages-batch";
    }
    replace(this.recordsBox, el("h4", {}, `Records of ${rec.path} (bytes ${rec.start}–${rec.end}; positions below are relative to byte ${rec.start})`), this.#nested);
    this.#nested.bytes = bytes.subarray(rec.start, rec.end);
    this.recordsBox.scrollIntoView?.({ block: "nearest" });
  }
}
