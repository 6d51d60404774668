// <kafka-partition>: a partition directory read as the broker loads it.
//
// Pick or drop the files of one partition directory (or the folder itself): the `.log` segments,
// `.index`, `.timeindex`, `.txnindex`, the producer-state `.snapshot` files,
// `leader-epoch-checkpoint`, `partition.metadata`. The element shows the partition as the broker
// rebuilds it on load — producer state from the latest snapshot plus the log after it, the open
// transactions, the LSO, the aborted transactions — and every snapshot and index checked against
// the log, each disagreement named (the core's files::partition, through loadPartition in
// pkg/eoslab-files.js, fetched on first use relative to this module): the rebuilt producer state
// field by field, each `.snapshot` (version, CRC-32C) with its producers beside the log's (the
// differing fields marked ≠), the leader epochs of `leader-epoch-checkpoint` beside those of the
// log's batches, the topic id of `partition.metadata`, Kafka's index sanity checks. Then:
//   - "Open the log in the inspector": `kafka-partition:open-log` {file} (the lab page hands the
//     segment to its <kafka-batch>);
//   - "Export as kafka-dump-log text": every file as Kafka 4.3's kafka-dump-log --deep-iteration
//     --print-data-log (or --transaction-log-decoder / --offsets-decoder) prints it, downloaded;
//   - "Continue in the simulator": a script in the idempotence model's language that starts from
//     that producer state and log end (`log-end`, `producer-state`) and retries each producer's
//     last batch, editable, run by a <kafka-ladder> below it.
//
//   <kafka-partition></kafka-partition>
//
// Events (bubbling, composed): `kafka-partition:load` {ok, files, logEndOffset, lastStableOffset,
// producers, aborted} after each load; `kafka-partition:open-log` {file}.
// Every value reaches the page as text (textContent), never as markup.
import { el as h, lazyStyleSheet, replace } from "./lib/dom.js";
import { FILE_VIEW_CSS, FILE_VIEW_DARK_CSS, dropZone } from "./lib/file-view.js";
import { SchemeWatcher } from "./lib/theme.js";
import { artifacts as loadFilesModule } from "./lib/wasm.js";

export const LOAD_EVENT = "kafka-partition:load";
export const OPEN_LOG_EVENT = "kafka-partition:open-log";

const css = lazyStyleSheet(FILE_VIEW_CSS + `
ul.checks { list-style: none; padding: 0; margin: 4px 0; }
ul.checks li { padding: 2px 0; overflow-wrap: anywhere; }
.tables { overflow-x: auto; }
table { border-collapse: collapse; font: 12px/1.4 var(--eoslab-mono, ui-monospace, monospace); margin: 4px 0 8px; }
caption { text-align: left; font: 600 13px/1.4 var(--eoslab-font, system-ui, sans-serif); padding: 2px 0; }
th, td { border: 1px solid var(--eoslab-border, #d0d7de); padding: 2px 6px; text-align: right; }
th { font-weight: 600; background: var(--eoslab-panel, #f6f8fa); }
th[scope=row], td.src { text-align: left; }
td.bad { font-weight: 600; }
pre, textarea { font: 12px/1.4 var(--eoslab-mono, ui-monospace, monospace); }
pre { overflow: auto; max-height: 24em; padding: 8px; background: var(--eoslab-panel, #f6f8fa);
  border: 1px solid var(--eoslab-border, #d0d7de); border-radius: 4px; }
textarea { width: 100%; box-sizing: border-box; min-height: 10em; color: inherit; background: var(--eoslab-bg, #fff); }
`);
const dark = lazyStyleSheet(FILE_VIEW_DARK_CSS + `
textarea { background: #0d1117; }
`);

/** A snapshot entry's fields (ProducerSnapshot.json names) and their column labels. */
const FIELDS = [
  ["producerId", "producer id"],
  ["producerEpoch", "epoch"],
  ["lastSequence", "last seq"],
  ["lastOffset", "last offset"],
  ["offsetDelta", "offset delta"],
  ["timestamp", "timestamp"],
  ["coordinatorEpoch", "coordinator epoch"],
  ["currentTxnFirstOffset", "txn first offset"],
];

const epochsText = (list) => (list.length ? list.map((e) => `epoch ${e.epoch} from offset ${e.startOffset}`).join(", ") : "none");

/**
 * One .snapshot: its version and CRC-32C (stored, and computed when they differ), then each producer
 * twice — as the file stores it and as the log replayed to the snapshot's offset gives it — with
 * every differing field marked "≠" (text, not only colour).
 */
function snapshotTable(f) {
  const crcOk = f.crc === f.computedCrc;
  const hex = (n) => `0x${n.toString(16).padStart(8, "0")}`;
  const caption = `${f.name}: version ${f.version}, CRC-32C ${hex(f.crc)} ` + (crcOk ? "(checked ✓)" : `(✗ no longer valid: computed ${hex(f.computedCrc)})`);
  const row = (e, source, label, differs) =>
    h("tr", { "data-producer": String(e.producerId), "data-source": source },
      h("td", { class: "src" }, label),
      source === "snapshot" && !e.stored ? h("td", { colspan: String(FIELDS.length) }, "absent") : null,
      source === "log" && !e.rebuilt ? h("td", { colspan: String(FIELDS.length) }, "absent") : null,
      ...((source === "snapshot" ? e.stored : e.rebuilt)
        ? FIELDS.map(([k]) => {
            const v = String((source === "snapshot" ? e.stored : e.rebuilt)[k]);
            const d = differs.includes(k);
            return h("td", { "data-field": k, class: d ? "bad" : null }, d ? `≠ ${v}` : v);
          })
        : []),
    );
  return h("table", { "data-snapshot": f.name, "data-crc-ok": String(crcOk) },
    h("caption", { class: crcOk ? null : "bad" }, caption),
    h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "from"), FIELDS.map(([, label]) => h("th", { scope: "col" }, label)))),
    h("tbody", {}, f.producers.flatMap((e) => [row(e, "snapshot", "the snapshot", e.differs), row(e, "log", `the log up to offset ${f.offset}`, e.differs)])),
  );
}

/** Reads a dropped folder (one level: a partition directory holds no subfolders). */
async function filesOfDrop(dataTransfer) {
  const out = [];
  const entries = [...(dataTransfer.items ?? [])].map((i) => i.webkitGetAsEntry?.()).filter(Boolean);
  if (!entries.length) return [...dataTransfer.files];
  const fileOf = (entry) => new Promise((resolve, reject) => entry.file(resolve, reject));
  for (const entry of entries) {
    if (entry.isFile) out.push(await fileOf(entry));
    else if (entry.isDirectory) {
      const reader = entry.createReader();
      for (;;) {
        const batch = await new Promise((resolve, reject) => reader.readEntries(resolve, reject));
        if (!batch.length) break;
        for (const e of batch) if (e.isFile) out.push(await fileOf(e));
      }
    }
  }
  return out;
}

export class KafkaPartition extends HTMLElement {
  #root;
  #watcher;
  #log = null; // the first .log File of the last load
  #read = []; // the last load's files as {name, bytes}
  #folder = "";
  #ui;

  constructor() {
    super();
    this.#root = this.attachShadow({ mode: "open" });
    const sheet = css();
    if (sheet) this.#root.adoptedStyleSheets = [sheet];
    this.#watcher = new SchemeWatcher(this, dark);
    const ui = (this.#ui = {
      pick: h("input", { type: "file", multiple: true, "aria-label": "Choose the files of a partition directory" }),
      folder: h("input", { type: "file", webkitdirectory: true, "aria-label": "Choose a partition directory" }),
      status: h("p", { class: "muted", role: "status" }),
      result: h("div", { hidden: true }),
      summary: h("dl"),
      producerTable: h("div", { class: "tables" }),
      snapshotTables: h("div", { class: "tables" }),
      checks: h("ul", { class: "checks" }),
      text: h("pre", { tabindex: "0", "aria-label": "The partition as text (eoslab partition)" }),
      openLog: h("button", { type: "button" }, "Open the log in the inspector"),
      decoder: h("select", { "aria-label": "kafka-dump-log decoder for the records" },
        h("option", { value: "" }, "records as data (--print-data-log)"),
        h("option", { value: "transaction-log" }, "__transaction_state (--transaction-log-decoder)"),
        h("option", { value: "offsets" }, "__consumer_offsets (--offsets-decoder)"),
      ),
      exportDump: h("button", { type: "button" }, "Export as kafka-dump-log text"),
      cont: h("button", { type: "button" }, "Continue in the simulator"),
      sim: h("div", { hidden: true }),
      script: h("textarea", { spellcheck: "false", "aria-label": "Simulator script starting from this partition's state" }),
      run: h("button", { type: "button" }, "Run the script"),
      ladderBox: h("div"),
    });
    const drop = h(
      "div",
      { class: "drop" },
      h("div", { class: "row" },
        h("label", { class: "button" }, "Choose files…", ui.pick),
        h("label", { class: "button" }, "Choose a folder…", ui.folder),
        h("span", { class: "muted" }, "or drop a partition directory (or its files) here: .log, .index, .timeindex, .txnindex, .snapshot, leader-epoch-checkpoint, partition.metadata."),
      ),
      ui.status,
    );
    ui.result.append(
      h("h3", {}, "As the broker loads it"),
      ui.summary,
      h("h3", {}, "Producer state, rebuilt"),
      ui.producerTable,
      h("h3", {}, "Producer-state snapshots, beside the log"),
      ui.snapshotTables,
      h("h3", {}, "The files against the log"),
      ui.checks,
      h("div", { class: "row" }, ui.openLog, ui.cont),
      h("div", { class: "row" }, ui.exportDump, ui.decoder),
      h("details", {}, h("summary", {}, "Everything, as text"), ui.text),
      ui.sim,
    );
    ui.sim.append(
      h("h3", {}, "Continue in the simulator"),
      h("p", { class: "muted" }, "The leader below starts from this partition's producer state and log end. Edit the requests (the script language: scenarios/README.md) and run it again."),
      ui.script,
      h("div", { class: "row" }, ui.run),
      ui.ladderBox,
    );
    this.#root.append(drop, ui.result);

    const onFiles = (files) => this.load(files).catch((err) => this.#fail(err));
    ui.pick.addEventListener("change", () => onFiles([...ui.pick.files]));
    ui.folder.addEventListener("change", () => onFiles([...ui.folder.files]));
    dropZone(drop, (transfer) => filesOfDrop(transfer).then(onFiles, (err) => this.#fail(err)));
    ui.openLog.addEventListener("click", () => {
      if (this.#log) this.dispatchEvent(new CustomEvent(OPEN_LOG_EVENT, { bubbles: true, composed: true, detail: { file: this.#log } }));
    });
    ui.cont.addEventListener("click", () => {
      ui.sim.hidden = false;
      this.#runScript().catch((err) => this.#fail(err));
      ui.script.focus();
    });
    ui.run.addEventListener("click", () => this.#runScript().catch((err) => this.#fail(err)));
    ui.exportDump.addEventListener("click", () => this.#exportDump().catch((err) => this.#fail(err)));
  }

  connectedCallback() {
    this.#watcher.connect();
  }

  disconnectedCallback() {
    this.#watcher.disconnect();
  }

  /** The script "Continue in the simulator" runs (editable in the element), or "" before a load. */
  get script() {
    return this.#ui.script.value;
  }

  /**
   * Reads `files` (File or {name, bytes: Uint8Array} objects) as one partition directory; resolves
   * to loadPartition's result.
   */
  async load(files) {
    const ui = this.#ui;
    if (!files.length) return null;
    ui.status.className = "muted";
    ui.status.textContent = `Reading ${files.length} file(s)…`;
    const m = await loadFilesModule();
    const read = await Promise.all(
      // (A File has a bytes() method in recent browsers: test for a Blob, not for `bytes`.)
      files.map(async (f) => ({ name: f.name, bytes: f instanceof Blob ? new Uint8Array(await f.arrayBuffer()) : f.bytes })),
    );
    const folder = files[0]?.webkitRelativePath?.split("/")[0] || "";
    this.#read = read;
    this.#folder = folder;
    // An internal topic's directory name picks kafka-dump-log's decoder for the export.
    ui.decoder.value = folder.startsWith("__transaction_state-") ? "transaction-log" : folder.startsWith("__consumer_offsets-") ? "offsets" : "";
    const p = m.loadPartition(read, `Continue from the partition ${folder || "directory"}`.trim());
    this.#log = files.find((f) => f.name.endsWith(".log")) ?? null;
    this.#render(p, files.length);
    ui.script.value = p.script;
    ui.sim.hidden = true;
    ui.ladderBox.replaceChildren();
    this.dispatchEvent(
      new CustomEvent(LOAD_EVENT, {
        bubbles: true,
        composed: true,
        detail: { ok: p.ok, files: files.length, logEndOffset: p.logEndOffset, lastStableOffset: p.lastStableOffset, producers: p.producers, aborted: p.aborted },
      }),
    );
    return p;
  }

  #render(p, count) {
    const ui = this.#ui;
    ui.status.className = p.ok ? "good" : "bad";
    ui.status.textContent = p.ok
      ? `${count} file(s) read; every file agrees with the log.`
      : `${count} file(s) read; ${p.checks.filter((c) => !c.ok).length} disagreement(s), ${p.errors.length} unreadable file(s).`;
    const item = (k, v) => [h("dt", {}, k), h("dd", {}, v)];
    replace(
      ui.summary,
      item("Log", `offsets ${p.logStartOffset} to ${p.logEndOffset} (log end)`),
      item("Producer state from", p.snapshotUsed ?? "no snapshot: the whole log replayed"),
      item("Producers", String(p.producers)),
      item("Open transactions", String(p.openTransactions)),
      item("Last stable offset", `${p.lastStableOffset} (the high watermark is not in the directory: taken as the log end)`),
      item("Aborted transactions", String(p.aborted)),
      item("Topic id", p.topicId ?? "no partition.metadata"),
      item("Leader epochs (leader-epoch-checkpoint)", epochsText(p.leaderEpochs)),
      item("Leader epochs of the log's batches", epochsText(p.logLeaderEpochs)),
    );
    replace(
      ui.producerTable,
      p.producerState.length
        ? h("table", { "data-table": "producer-state" },
            h("caption", {}, `After the load (${p.snapshotUsed ?? "the whole log replayed"}), as the broker's next snapshot would write it`),
            h("thead", {}, h("tr", {}, FIELDS.map(([, label]) => h("th", { scope: "col" }, label)))),
            h("tbody", {}, p.producerState.map((e) => h("tr", { "data-producer": String(e.producerId) }, FIELDS.map(([k], i) => i === 0 ? h("th", { scope: "row", "data-field": k }, String(e[k])) : h("td", { "data-field": k }, String(e[k])))))),
          )
        : h("p", { class: "muted" }, "No producer: no batch of the log has a producer id."),
    );
    replace(ui.snapshotTables, p.snapshots.length ? p.snapshots.map(snapshotTable) : h("p", { class: "muted" }, "No readable .snapshot among the files."));
    replace(
      ui.checks,
      p.checks.map((c) =>
        h("li", {}, h("span", { class: c.ok ? "good" : "bad" }, c.ok ? "✓ agrees " : "✗ disagrees "), `${c.file}: ${c.what}`, c.detail ? ` — ${c.detail}` : ""),
      ),
      p.errors.map((e) => h("li", { class: "bad" }, `✗ ${e}`)),
      p.ignored.length ? h("li", { class: "muted" }, `Not read: ${p.ignored.join(", ")}`) : null,
    );
    ui.text.textContent = p.text;
    ui.openLog.disabled = !this.#log;
    ui.result.hidden = false;
  }

  /**
   * The whole directory as `kafka-dump-log --files <every file, sorted> --deep-iteration
   * --print-data-log` (or the chosen decoder) prints it (loadPartition's module, dumpLog), as a
   * download; resolves to the text.
   */
  async #exportDump() {
    const m = await loadFilesModule();
    const files = this.#read.filter((f) => /\.(log|index|timeindex|txnindex|snapshot)$/.test(f.name)).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    const decoder = this.#ui.decoder.value || undefined;
    const r = m.dumpLog(files, { deepIteration: true, printDataLog: !decoder, decoder });
    const text = r.text + (r.errors ? `\n${r.errors}` : "");
    const a = h("a", { href: URL.createObjectURL(new Blob([text], { type: "text/plain" })), download: `${this.#folder || "partition"}.dump-log.txt` });
    this.#root.append(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(a.href), 10_000);
    this.#ui.status.textContent = r.failed ? `kafka-dump-log stops: ${r.failed}` : `Exported ${files.length} file(s) as kafka-dump-log text.`;
    return text;
  }

  async #runScript() {
    await import("./kafka-ladder.js");
    const ladder = document.createElement("kafka-ladder");
    ladder.setAttribute("script", this.#ui.script.value);
    // The answers at once: the last step (a student can still step back through them).
    ladder.setAttribute("step", "end");
    this.#ui.ladderBox.replaceChildren(ladder);
  }

  #fail(err) {
    this.#ui.status.className = "bad";
    this.#ui.status.textContent = `Could not read the files: ${err instanceof Error ? err.message : String(err)}`;
  }
}

if (!customElements.get("kafka-partition")) customElements.define("kafka-partition", KafkaPartition);
