// <kafka-capture>: a packet capture read as the Kafka conversations it holds.
//
// Pick or drop a `.pcap` or `.pcapng` (tcpdump, Wireshark, `tshark -w`). The element reads it with
// the core's capture reader (readCapture in pkg/eoslab-files.js, fetched on first use relative to
// this module): every TCP connection that carries Kafka, each direction reassembled, every request
// paired with its response by correlation id. It draws the conversation as a sequence diagram —
// clients and brokers as lanes, one row per exchange in capture order, the request's arrow and the
// answer's arrow with its errors and latency — and lists the capture's problems (damage, gaps,
// requests with no answer) with the file byte, packet or connection they belong to. Filters keep
// the exchanges of one API, one transactional.id, one producer id or one partition.
//
// "Check against Kafka's rules" replays the requests the simulator answers, in capture order
// (captureReplay in pkg/eoslab-files.js makes the script; judgeReplay in pkg/eoslab.js runs it),
// and marks every exchange: ✓ agrees, ✗ differs (the field, both answers, the rule and its Kafka
// source), or – cannot judge (and why), with the counts per API. "Continue in the simulator"
// opens that script in a <kafka-timeline>, editable: change one request and see what Kafka would
// have answered.
//
// Selecting an exchange (click, or focus and Enter) shows what it is about and dispatches
// `kafka-capture:open` {bytes, label}: the request's bytes followed by its response's, which the
// lab page hands to its <kafka-batch> (the inspector decodes both, the response read with the
// request's api version).
//
//   <kafka-capture></kafka-capture>
//
// Events (bubbling, composed): `kafka-capture:load` {exchanges, connections, problems} after each
// load; `kafka-capture:open` {bytes, label}. Every value reaches the page as text, never as markup.
import { el as h, lazyStyleSheet, replace } from "./lib/dom.js";
import { FILE_VIEW_CSS, FILE_VIEW_DARK_CSS, dropZone } from "./lib/file-view.js";
import { SchemeWatcher } from "./lib/theme.js";
import { artifacts as loadFilesModule, loadFull } from "./lib/wasm.js";

export const LOAD_EVENT = "kafka-capture:load";
export const CHECK_EVENT = "kafka-capture:check";
export const OPEN_EVENT = "kafka-capture:open";

/** Rows drawn at most: a larger selection says so and asks for a filter (the DOM stays small). */
export const MAX_ROWS = 2000;

export { isCapture } from "./lib/bytes.js";

const css = lazyStyleSheet(FILE_VIEW_CSS + `
g.ex:focus { outline: 2px solid var(--eoslab-accent, #0969da); }
select { font: inherit; max-width: 16em; }
ul.problems { list-style: none; padding: 0; margin: 4px 0; }
ul.problems li { padding: 2px 0; overflow-wrap: anywhere; }
.diagram { overflow: auto; max-height: 70vh; border: 1px solid var(--eoslab-border, #d0d7de); border-radius: 4px; }
svg { display: block; font: 12px var(--eoslab-mono, ui-monospace, monospace); }
svg text { fill: var(--eoslab-fg, #1b1f24); }
svg .lane { stroke: var(--eoslab-border, #8c959f); stroke-dasharray: 4 4; }
svg .req { stroke: var(--eoslab-accent, #0969da); }
svg path.req { fill: var(--eoslab-accent, #0969da); }
svg .resp { stroke: var(--eoslab-muted, #57606a); }
svg .resp.err { stroke: var(--eoslab-bad, #cf222e); }
svg text.err { fill: var(--eoslab-bad, #cf222e); }
svg text.muted { fill: var(--eoslab-muted, #57606a); }
svg g.ex { cursor: pointer; }
svg g.ex rect.hit { fill: transparent; }
svg g.ex:hover rect.hit, svg g.ex.selected rect.hit { fill: var(--eoslab-panel, #f6f8fa); }
svg .head { font-weight: 600; }
svg text.mark-agrees { fill: var(--eoslab-ok, #1a7f37); }
svg text.mark-differs { fill: var(--eoslab-bad, #cf222e); font-weight: 700; }
table.counts { border-collapse: collapse; margin: 4px 0 8px; }
table.counts th, table.counts td { border: 1px solid var(--eoslab-border, #d0d7de); padding: 2px 8px; text-align: right; }
table.counts th[scope=row] { text-align: left; }
ul.differs li { overflow-wrap: anywhere; }
textarea { width: 100%; box-sizing: border-box; min-height: 12em; font: 12px/1.4 var(--eoslab-mono, ui-monospace, monospace);
  color: inherit; background: var(--eoslab-bg, #fff); }
`);
const dark = lazyStyleSheet(FILE_VIEW_DARK_CSS);

const SVG = "http://www.w3.org/2000/svg";
/** An SVG element with attributes and text children (as text nodes). */
function s(tag, attrs = {}, ...text) {
  const node = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) if (v !== null && v !== undefined) node.setAttribute(k, String(v));
  for (const t of text) node.append(String(t));
  return node;
}

/**
 * The lane of a connection's client: its client id (from its first request that has one) on its
 * host, or its address when no request names a client id; connections of one client share it.
 */
function clientLane(conn, exchanges) {
  const id = exchanges.find((e) => e.connection === conn.index && e.clientId)?.clientId;
  const host = conn.client.replace(/:\d+$/, "");
  return id ? { key: `c:${id}@${host}`, name: id, host } : { key: `c:${conn.client}`, name: "client", host: conn.client };
}

/** The answer as text: its errors (NONE when it has none) and latency, or that it is absent. */
export function answerText(e) {
  if (!e.response) return "no response in the capture";
  const errors = e.errors.length ? e.errors.map(([n, k]) => (k > 1 ? `${n} ×${k}` : n)).join(", ") : "NONE";
  const ms = e.request ? ` after ${((e.response.timeUs - e.request.timeUs) / 1000).toFixed(3)} ms` : "";
  return `${errors}${ms}`;
}

/** What an exchange is about, as text ("transactional.id "t", producer id 7, orders-0"). */
export function aboutText(e) {
  const a = e.about;
  return [...a.transactionalIds.map((t) => `transactional.id ${JSON.stringify(t)}`), ...a.producerIds.map((p) => `producer id ${p}`), ...a.partitions].join(", ");
}

/** The filter's choices present in `exchanges`: api names, transactional.ids, producer ids, partitions. */
function choices(exchanges) {
  const sets = { api: new Set(), txn: new Set(), pid: new Set(), partition: new Set() };
  for (const e of exchanges) {
    sets.api.add(e.apiName ?? `api ${e.apiKey}`);
    e.about.transactionalIds.forEach((t) => sets.txn.add(t));
    e.about.producerIds.forEach((p) => sets.pid.add(String(p)));
    e.about.partitions.forEach((p) => sets.partition.add(p));
  }
  const sorted = (set, numeric = false) => [...set].sort(numeric ? (a, b) => Number(a) - Number(b) : undefined);
  return { api: sorted(sets.api), txn: sorted(sets.txn), pid: sorted(sets.pid, true), partition: sorted(sets.partition) };
}

/** Whether exchange `e` passes filter `f` ({api, txn, pid, partition}: "" for any). */
export function keeps(e, f) {
  return (!f.api || (e.apiName ?? `api ${e.apiKey}`) === f.api)
    && (!f.txn || e.about.transactionalIds.includes(f.txn))
    && (!f.pid || e.about.producerIds.map(String).includes(f.pid))
    && (!f.partition || e.about.partitions.includes(f.partition));
}

export class KafkaCapture extends HTMLElement {
  #root;
  #watcher;
  #ui;
  #result = null; // the last readCapture result
  #bytes = null; // the last capture's bytes
  #check = null; // the last judgeReplay answer, for the result above
  #marks = new Map(); // exchange index → its verdict
  #selected = -1; // index into the result's exchanges
  #name = "capture";

  constructor() {
    super();
    this.#root = this.attachShadow({ mode: "open" });
    const sheet = css();
    if (sheet) this.#root.adoptedStyleSheets = [sheet];
    this.#watcher = new SchemeWatcher(this, dark);
    const select = (label) => h("select", { "aria-label": label });
    const ui = (this.#ui = {
      pick: h("input", { type: "file", accept: ".pcap,.pcapng,.cap,application/vnd.tcpdump.pcap", "aria-label": "Choose a packet capture" }),
      status: h("p", { class: "muted", role: "status" }),
      result: h("div", { hidden: true }),
      summary: h("p", { class: "summary" }),
      api: select("Only this API"),
      txn: select("Only this transactional.id"),
      pid: select("Only this producer id"),
      partition: select("Only this partition"),
      shown: h("span", { class: "muted", role: "status", "data-shown": "" }),
      diagram: h("div", { class: "diagram" }),
      detail: h("dl", { hidden: true }),
      problems: h("ul", { class: "problems" }),
      problemsTitle: h("h3", {}, "Problems"),
      kafka: h("select", { "aria-label": "Kafka release line whose rules judge the answers" },
        h("option", { value: "4.3" }, "Kafka 4.3"), h("option", { value: "4.1" }, "Kafka 4.1"), h("option", { value: "trunk" }, "Kafka trunk")),
      checkButton: h("button", { type: "button" }, "Check against Kafka's rules"),
      contButton: h("button", { type: "button" }, "Continue in the simulator"),
      checkStatus: h("span", { class: "muted", role: "status", "data-check": "" }),
      checkBox: h("div", { hidden: true }),
      sim: h("div", { hidden: true }),
      script: h("textarea", { spellcheck: "false", "aria-label": "The capture's requests as a simulator script" }),
      run: h("button", { type: "button" }, "Run the script"),
      timelineBox: h("div"),
    });
    const drop = h("div", { class: "drop" },
      h("div", { class: "row" },
        h("label", { class: "button" }, "Choose a capture…", ui.pick),
        h("span", { class: "muted" }, "or drop a .pcap or .pcapng here (tcpdump -w, Wireshark, tshark -w). It is read in this page; nothing is uploaded."),
      ),
      ui.status,
    );
    ui.sim.append(
      h("h3", {}, "Continue in the simulator"),
      h("p", { class: "muted" }, "The capture's requests that the simulator answers, in capture order, with what the capture cannot show assumed in the header. Change a request and run it again."),
      ui.script,
      h("div", { class: "row" }, ui.run),
      ui.timelineBox,
    );
    ui.result.append(
      ui.summary,
      h("div", { class: "row" }, ui.checkButton, ui.kafka, ui.contButton, ui.checkStatus),
      ui.checkBox,
      h("div", { class: "row" }, "Show ", ui.api, ui.txn, ui.pid, ui.partition, ui.shown),
      ui.diagram,
      ui.detail,
      ui.problemsTitle,
      ui.problems,
      ui.sim,
    );
    this.#root.append(drop, ui.result);

    ui.pick.addEventListener("change", () => {
      const f = ui.pick.files?.[0];
      if (f) this.load(f).catch((err) => this.#fail(err));
    });
    dropZone(drop, (transfer) => {
      const f = transfer.files?.[0];
      if (f) this.load(f).catch((err) => this.#fail(err));
    });
    for (const k of ["api", "txn", "pid", "partition"]) ui[k].addEventListener("change", () => this.#draw());
    const failed = (err) => {
      ui.checkStatus.className = "bad";
      ui.checkStatus.textContent = `Could not check the capture: ${err instanceof Error ? err.message : String(err)}`;
    };
    ui.checkButton.addEventListener("click", () => this.check(ui.kafka.value).catch(failed));
    ui.contButton.addEventListener("click", () => this.#continue().catch(failed));
    ui.run.addEventListener("click", () => this.#runScript().catch(failed));
  }

  connectedCallback() {
    this.#watcher.connect();
  }

  disconnectedCallback() {
    this.#watcher.disconnect();
  }

  /** The last load's readCapture result, or null. */
  get result() {
    return this.#result;
  }

  /** The filter as set in the element: {api, txn, pid, partition} ("" for any). */
  get filter() {
    const ui = this.#ui;
    return { api: ui.api.value, txn: ui.txn.value, pid: ui.pid.value, partition: ui.partition.value };
  }

  /** Sets the filter (missing keys: any) and redraws; a value the capture lacks is left at any. */
  set filter(f) {
    for (const k of ["api", "txn", "pid", "partition"]) {
      const sel = this.#ui[k];
      sel.value = f?.[k] ?? "";
      if (sel.value !== (f?.[k] ?? "")) sel.value = "";
    }
    this.#draw();
  }

  /** Reads a capture (a File/Blob, or bytes with an optional name); resolves to readCapture's result. */
  async load(input, name = input?.name ?? "capture") {
    const ui = this.#ui;
    ui.status.className = "muted";
    ui.status.textContent = `Reading ${name}…`;
    const bytes = input instanceof Blob ? new Uint8Array(await input.arrayBuffer()) : input;
    const m = await loadFilesModule();
    const r = m.readCapture(bytes);
    this.#result = r;
    this.#bytes = bytes;
    this.#check = null;
    this.#marks = new Map();
    this.#name = name;
    this.#selected = -1;
    replace(ui.checkBox);
    ui.checkBox.hidden = true;
    ui.checkStatus.textContent = "";
    ui.sim.hidden = true;
    this.#fillFilters(r.exchanges);
    this.#render(r);
    this.dispatchEvent(new CustomEvent(LOAD_EVENT, { bubbles: true, composed: true, detail: { exchanges: r.exchanges.length, connections: r.connections.length, problems: r.problems.length } }));
    return r;
  }

  /**
   * Replays the capture on the simulator with the rules of Kafka `kafka` ("4.3", "4.1", "trunk")
   * and marks every exchange with its verdict; resolves to judgeReplay's answer.
   */
  async check(kafka = "4.3") {
    const ui = this.#ui;
    if (!this.#bytes) return null;
    ui.checkStatus.className = "muted";
    ui.checkStatus.textContent = "Replaying the capture on the simulator…";
    const files = await loadFilesModule();
    const replay = files.captureReplay(this.#bytes, this.#name, kafka);
    const full = await loadFull();
    const c = full.judgeReplay(replay);
    this.#check = c;
    this.#marks = new Map(c.verdicts.map((v) => [v.exchange, v]));
    ui.script.value = c.script;
    const count = (kind) => c.verdicts.filter((v) => v.verdict === kind).length;
    const [agrees, differs, cannot] = ["agrees", "differs", "cannotJudge"].map(count);
    ui.checkStatus.className = differs || c.error ? "bad" : "muted";
    ui.checkStatus.textContent = `Kafka ${kafka}'s rules: ${agrees} agree, ${differs} differ, ${cannot} cannot be judged.` + (c.error ? ` The replay stopped: ${c.error}` : "");
    this.#renderCheck(c);
    this.#draw();
    this.dispatchEvent(new CustomEvent(CHECK_EVENT, { bubbles: true, composed: true, detail: { agrees, differs, cannotJudge: cannot, error: c.error } }));
    return c;
  }

  /** The counts per API, and every difference in words. */
  #renderCheck(c) {
    const apis = [...new Set(c.verdicts.map((v) => v.api))].sort();
    const n = (api, kind) => String(c.verdicts.filter((v) => v.api === api && v.verdict === kind).length);
    const differs = c.verdicts.filter((v) => v.verdict === "differs");
    const ex = (v) => this.#result.exchanges[v.exchange];
    replace(this.#ui.checkBox,
      h("table", { class: "counts" },
        h("caption", {}, "Per API"),
        h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "API"), h("th", { scope: "col" }, "agrees"), h("th", { scope: "col" }, "differs"), h("th", { scope: "col" }, "cannot judge"))),
        h("tbody", {}, apis.map((a) => h("tr", {}, h("th", { scope: "row" }, a), h("td", {}, n(a, "agrees")), h("td", {}, n(a, "differs")), h("td", {}, n(a, "cannotJudge")))))),
      differs.length
        ? h("ul", { class: "differs" }, differs.map((v) => h("li", { class: "bad" },
          `connection ${ex(v).connection} ${v.api} v${ex(v).apiVersion} correlation id ${ex(v).correlationId}: ${v.field}: the broker answered ${v.captured}, Kafka's rules answer ${v.simulated} (rule ${v.rule}, ${v.source})`)))
        : null,
    );
    this.#ui.checkBox.hidden = false;
  }

  /** Shows the replay's script, editable, and runs it in a <kafka-timeline>. */
  async #continue() {
    if (!this.#check) await this.check(this.#ui.kafka.value);
    this.#ui.sim.hidden = false;
    await this.#runScript();
    this.#ui.script.focus();
  }

  async #runScript() {
    await import("./kafka-timeline.js");
    const timeline = document.createElement("kafka-timeline");
    timeline.setAttribute("script", this.#ui.script.value);
    timeline.setAttribute("step", "end");
    this.#ui.timelineBox.replaceChildren(timeline);
  }

  /** Opens exchange `i` (an index into the result's exchanges): its details, and `kafka-capture:open`. */
  open(i) {
    const e = this.#result?.exchanges[i];
    if (!e) return false;
    this.#selected = i;
    for (const g of this.#ui.diagram.querySelectorAll("g.ex")) g.classList.toggle("selected", Number(g.dataset.index) === i);
    this.#showDetail(e);
    const parts = [e.request?.bytes, e.response?.bytes].filter(Boolean);
    const bytes = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
    let at = 0;
    for (const p of parts) {
      bytes.set(p, at);
      at += p.length;
    }
    const label = `${this.#name}: connection ${e.connection}, ${e.apiName ?? `api ${e.apiKey}`} v${e.apiVersion}, correlation id ${e.correlationId}`;
    this.dispatchEvent(new CustomEvent(OPEN_EVENT, { bubbles: true, composed: true, detail: { bytes, label } }));
    return true;
  }

  #fillFilters(exchanges) {
    const c = choices(exchanges);
    const fill = (sel, any, values) => replace(sel, h("option", { value: "" }, any), values.map((v) => h("option", { value: v }, v)));
    fill(this.#ui.api, "every API", c.api);
    fill(this.#ui.txn, "any transactional.id", c.txn);
    fill(this.#ui.pid, "any producer id", c.pid);
    fill(this.#ui.partition, "any partition", c.partition);
    this.#ui.txn.hidden = !c.txn.length;
    this.#ui.pid.hidden = !c.pid.length;
    this.#ui.partition.hidden = !c.partition.length;
  }

  #render(r) {
    const ui = this.#ui;
    const errors = r.problems.filter((p) => p.severity === "error").length;
    ui.status.className = errors ? "bad" : "muted";
    ui.status.textContent = errors ? `${this.#name}: damaged (${errors} error${errors === 1 ? "" : "s"} below); what could be read is shown.` : `Read ${this.#name}.`;
    const answered = r.exchanges.filter((e) => e.response).length;
    replace(ui.summary,
      `${r.format || "not a capture"}, ${r.length} bytes, ${r.packets} packet(s), link type(s) ${r.linkTypes.join(", ") || "none"}; ` +
      `${r.tcpConnections} TCP connection(s), ${r.connections.length} carrying Kafka; ${r.exchanges.length} exchange(s), ${answered} answered.`);
    replace(ui.problems, r.problems.map((p) => h("li", { class: p.severity === "error" ? "bad" : null, "data-severity": p.severity }, `${p.severity}: ${problemWhere(p)}${p.message}`)));
    ui.problemsTitle.hidden = ui.problems.hidden = !r.problems.length;
    ui.detail.hidden = true;
    ui.result.hidden = false;
    this.#draw();
  }

  /** Draws the exchanges the filter keeps as a sequence diagram. */
  #draw() {
    const r = this.#result;
    if (!r) return;
    const ui = this.#ui;
    const f = this.filter;
    const kept = r.exchanges.map((e, i) => [e, i]).filter(([e]) => keeps(e, f));
    const drawn = kept.slice(0, MAX_ROWS);
    ui.shown.textContent = kept.length > MAX_ROWS
      ? `the first ${MAX_ROWS} of ${kept.length} exchanges (choose a filter to see the others)`
      : `${kept.length} of ${r.exchanges.length} exchange(s)`;
    replace(ui.diagram, drawn.length ? diagram(r, drawn, this.#selected, this.#marks) : h("p", { class: "muted" }, "No exchange to show."));
    for (const g of ui.diagram.querySelectorAll("g.ex")) {
      const i = Number(g.dataset.index);
      g.addEventListener("click", () => this.open(i));
      g.addEventListener("keydown", (ev) => {
        if (ev.key === "Enter" || ev.key === " ") {
          ev.preventDefault();
          this.open(i);
        } else if (ev.key === "ArrowDown" || ev.key === "ArrowUp") {
          ev.preventDefault();
          const next = ev.key === "ArrowDown" ? g.nextElementSibling : g.previousElementSibling;
          if (next?.matches("g.ex")) next.focus();
        }
      });
    }
  }

  #showDetail(e) {
    const ui = this.#ui;
    const conn = this.#result.connections.find((c) => c.index === e.connection);
    const problems = [...(e.request?.problems ?? []).map((p) => ["request", p]), ...(e.response?.problems ?? []).map((p) => ["response", p])];
    replace(ui.detail,
      h("dt", {}, "exchange"), h("dd", {}, `${e.apiName ?? `api ${e.apiKey}`} v${e.apiVersion}, correlation id ${e.correlationId}${e.clientId ? `, client ${JSON.stringify(e.clientId)}` : ""}`),
      h("dt", {}, "connection"), h("dd", {}, conn ? `${conn.index}: ${conn.client} → ${conn.broker}` : String(e.connection)),
      h("dt", {}, "answer"), h("dd", { class: e.errors.length ? "bad" : null }, answerText(e)),
      h("dt", {}, "about"), h("dd", {}, aboutText(e) || "no transactional.id, producer id or partition"),
      h("dt", {}, "bytes"), h("dd", {}, `request ${e.request?.bytes.length ?? 0}, response ${e.response?.bytes.length ?? 0}: opened in the inspector`),
      problems.length ? [h("dt", {}, "problems"), h("dd", {}, problems.map(([side, p]) => `${side} byte ${p.at}: ${p.kind}: ${p.message}`).join("; "))] : null,
      this.#marks.has(this.#selected) ? [h("dt", {}, "Kafka's rules"), h("dd", { class: this.#marks.get(this.#selected).verdict === "differs" ? "bad" : null }, verdictText(this.#marks.get(this.#selected)))] : null,
    );
    ui.detail.hidden = false;
  }

  #fail(err) {
    this.#ui.status.className = "bad";
    this.#ui.status.textContent = `Could not read the capture: ${err instanceof Error ? err.message : String(err)}`;
  }
}

/** A verdict in words. */
export function verdictText(v) {
  if (v.verdict === "agrees") return `agrees${v.rule ? ` (rule ${v.rule}, ${v.source})` : ""}`;
  if (v.verdict === "differs") return `differs: ${v.field}: the broker answered ${v.captured}, Kafka's rules answer ${v.simulated} (rule ${v.rule}, ${v.source})`;
  return `cannot judge: ${v.why}`;
}

/** The mark a verdict puts on its row: ✓, ✗ or –. */
const MARK = { agrees: "✓", differs: "✗", cannotJudge: "–" };

/** Where a capture problem is: "file byte N, packet P, connection C: ". */
function problemWhere(p) {
  const w = [];
  if (p.at !== null && p.at !== undefined) w.push(`file byte ${p.at}`);
  if (p.packet) w.push(`packet ${p.packet}`);
  if (p.connection) w.push(`connection ${p.connection}`);
  return w.length ? `${w.join(", ")}: ` : "";
}

const ROW = 40; // px per exchange: the request's arrow, then the answer's
const TIME_W = 110; // the time column
const LANE_W = 230; // between two lanes' lines
const HEAD = 44; // the lane names
const NOTE_W = 420; // the column right of the lanes: what each exchange is about

/**
 * The sequence diagram of `rows` ([exchange, index] pairs) of capture `r`: a lane per client
 * (client id and host) and per broker, time running down; each exchange one focusable row.
 */
function diagram(r, rows, selected, marks) {
  const lanes = [];
  const laneOf = new Map();
  const lane = ({ key, name, host }) => {
    if (!laneOf.has(key)) {
      laneOf.set(key, lanes.length);
      lanes.push({ name, host });
    }
    return laneOf.get(key);
  };
  const brokerLane = (c) => ({ key: `b:${c.broker}`, name: "broker", host: c.broker });
  const conns = new Map(r.connections.map((c) => [c.index, c]));
  // Clients first, then brokers, each in the order the rows meet them.
  for (const [e] of rows) {
    const c = conns.get(e.connection);
    if (c) lane(clientLane(c, r.exchanges));
  }
  for (const [e] of rows) {
    const c = conns.get(e.connection);
    if (c) lane(brokerLane(c));
  }
  const x = (i) => TIME_W + LANE_W / 2 + i * LANE_W;
  const notes = TIME_W + lanes.length * LANE_W + 8;
  const width = notes + NOTE_W;
  const height = HEAD + rows.length * ROW + 8;
  const svg = s("svg", { width, height, viewBox: `0 0 ${width} ${height}`, role: "list", "aria-label": "The capture's exchanges, in capture order" });
  // A lane's name on one line (a client id, or "broker"), its host under it: both whole.
  lanes.forEach((l, i) => {
    svg.append(
      s("text", { x: x(i), y: 16, "text-anchor": "middle", class: "head" }, l.name),
      s("text", { x: x(i), y: 32, "text-anchor": "middle", class: "muted" }, l.host),
      s("line", { x1: x(i), x2: x(i), y1: HEAD - 6, y2: height, class: "lane" }),
    );
  });
  svg.append(s("text", { x: 4, y: 16, class: "head" }, "time"), s("text", { x: notes, y: 16, class: "head" }, "about"));
  const t0 = Math.min(...r.exchanges.map((e) => (e.request ?? e.response)?.timeUs ?? Infinity));
  rows.forEach(([e, i], k) => {
    const c = conns.get(e.connection);
    const from = x(laneOf.get(clientLane(c, r.exchanges).key));
    const to = x(laneOf.get(brokerLane(c).key));
    const y = HEAD + k * ROW;
    const dir = to >= from ? 1 : -1;
    const api = `${e.apiName ?? `api ${e.apiKey}`} v${e.apiVersion} #${e.correlationId}`;
    const answer = answerText(e);
    const about = aboutText(e);
    const t = (e.request ?? e.response).timeUs;
    const v = marks.get(i);
    const g = s("g", { class: `ex${i === selected ? " selected" : ""}`, tabindex: 0, role: "listitem", "data-index": i, "data-verdict": v?.verdict,
      "aria-label": `+${((t - t0) / 1e6).toFixed(6)} s, connection ${e.connection}: ${api}, answered ${answer}${about ? `; ${about}` : ""}${v ? `; Kafka's rules: ${verdictText(v)}` : ""}` });
    g.append(...[
      s("rect", { class: "hit", x: 0, y: y, width, height: ROW }),
      s("text", { x: 4, y: y + 16, class: "muted" }, `+${((t - t0) / 1e6).toFixed(6)}s`),
      v ? s("text", { x: 4, y: y + 32, class: `mark-${v.verdict}` }, `${MARK[v.verdict]} ${v.verdict === "cannotJudge" ? "not judged" : v.verdict}`) : null,
      s("line", { x1: from, x2: to - dir * 4, y1: y + 18, y2: y + 18, class: "req", "stroke-width": 1.5 }),
      s("path", { d: `M${to} ${y + 18} l${-dir * 7} -4 v8 z`, class: "req" }),
      s("text", { x: (from + to) / 2, y: y + 14, "text-anchor": "middle" }, api),
    ].filter(Boolean));

    if (e.response) {
      const err = e.errors.length > 0;
      g.append(
        s("line", { x1: to, x2: from + dir * 4, y1: y + 34, y2: y + 34, class: `resp${err ? " err" : ""}`, "stroke-width": 1.5, "stroke-dasharray": "5 3" }),
        s("text", { x: (from + to) / 2, y: y + 30, "text-anchor": "middle", class: err ? "err" : "muted" }, answer),
      );
    } else {
      g.append(s("text", { x: (from + to) / 2, y: y + 30, "text-anchor": "middle", class: "muted" }, "no response in the capture"));
    }
    if (about) {
      const note = s("text", { x: notes, y: y + 22 }, fitLabel(about, NOTE_W - 8));
      note.append(s("title", {}, about));
      g.append(note);
    }
    g.append(s("title", {}, `${api}: ${answer}${about ? `\n${about}` : ""}${v ? `\nKafka's rules: ${verdictText(v)}` : ""}`));
    svg.append(g);
  });
  return svg;
}

/**
 * `text` shortened at a word boundary to fit about `px` of 12 px monospace (7.2 px a character),
 * with "…" only when it had to be; the full text stays in the element's <title>.
 */
function fitLabel(text, px) {
  const max = Math.max(4, Math.floor(px / 7.2));
  if (text.length <= max) return text;
  const cut = text.slice(0, max - 1);
  const at = Math.max(cut.lastIndexOf(" "), cut.lastIndexOf(","));
  return `${at > max / 2 ? cut.slice(0, at) : cut}…`;
}

if (!customElements.get("kafka-capture")) customElements.define("kafka-capture", KafkaCapture);
