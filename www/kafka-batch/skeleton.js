// <kafka-batch>'s shadow DOM: the skeleton (input, list, byte maps, field tables, panels, dialogs) and
// its listeners, and the readonly state. `view` is the element's view (element.js #view).
import { BatchList } from "../lib/batch-list.js";
import { toHex } from "../lib/bytes.js";
import { el, replace } from "../lib/dom.js";
import { incrementSequence, listCells } from "../lib/format.js";
import { HexGrid } from "../lib/hexgrid.js";
import { downloadText } from "../lib/link-state.js";
import { fixCrc, keepState, renderEdit, typeByte } from "./edit.js";
import { BIG_TEXT, EDIT_MAX_BYTES } from "./limits.js";
import { renderCompare, renderLeader, renderPage, sendToLeader } from "./panels.js";
import { exportBatches, pictureName } from "./picture.js";

// --- rendering ---
export function buildShadowDom(view, root) {
  const E = view.els;
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
  view.list = new BatchList({
    label: "Batches of the input",
    rows: 10,
    rowFor: (i) => {
      const b = view.rowBatch(i);
      return b ? listCells(i, b) : [String(i), String(view.frames.starts[i]), "?"];
    },
    rowClass: (i) => (view.rows.get(i)?.header.crcValid === false ? "bad" : ""),
    onSelect: (i, how) => {
      if (i !== view.sel) view.open(i, how);
    },
  });
  E.segment = el("section", { id: "segment", "aria-labelledby": "segment-title", hidden: true },
    E.segmentTitle,
    el("p", { class: "muted small" }, "One row per batch: position, offsets, producerId/epoch, sequence range, record count, codec, flags and CRC. Records are decoded when a batch is opened (click, or arrow keys in the list)."),
    view.list.root);
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
  view.grid = new HexGrid({
    label: "Byte map of the batch",
    rows: 16,
    onActive: (pos, how) => view.onGridActive("main", pos, how),
    onType: (pos, value) => typeByte(view, pos, value),
  });
  view.decGrid = new HexGrid({
    label: "Decompressed records",
    rows: 10,
    onActive: (pos, how) => view.onGridActive("dec", pos, how),
  });
  E.where = el("div", { id: "where", class: "where" });
  E.ratio = el("p", { id: "ratio" });
  E.dec = el("section", { id: "dec", hidden: true, "aria-labelledby": "dec-title" },
    el("h4", { id: "dec-title" }, "Decompressed records"), E.ratio, view.decGrid.root);
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
  // Send to a leader: the leader's state for this producer, then its answer.
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
      el("div", { class: "map-left" }, view.grid.root, E.dec),
      el("div", { class: "map-side" }, el("h4", { class: "first" }, "Selected field"), E.where, E.coverage, E.legend)),
    el("h4", {}, "Fields"), E.pager, E.fieldScroll,
    E.recordsTitle, E.readAsRow, E.pager2, el("div", { class: "table-scroll wide records-box", tabindex: "0", role: "group", "aria-label": "Records table (scrolls)" }, E.recordTable),
    E.edit, E.compare, E.leader);
  E.live = el("div", { id: "live", class: "sr-only", "aria-live": "polite", "aria-atomic": "true" });
  E.drop = el("div", { class: "drop-hint", "aria-hidden": "true" }, "Drop the file to decode it");
  view.messages.mount(root);
  root.append(el("div", { class: "kb", part: "root" }, E.inputBox, E.summary, E.progress, view.messages.root, E.segment, E.errors, E.batch, E.live, E.drop));
  wireShadowDom(view);
}

export function wireShadowDom(view) {
  const E = view.els;
  let pending = 0;
  E.input.addEventListener("input", (e) => {
    clearTimeout(pending);
    const text = E.input.value;
    const now = e.inputType === "insertFromPaste" || e.inputType === "insertFromDrop";
    if (text.length > BIG_TEXT) view.parkBigText(text);
    const run = () => view.whenReady(() => view.loadText(text, "input", "auto"));
    if (now) run();
    else pending = setTimeout(run, 40);
  });
  E.file.addEventListener("change", () => {
    const file = E.file.files?.[0];
    if (!file) return;
    E.input.value = "";
    E.input.placeholder = `Showing ${file.name}. Paste text here to decode it instead.`;
    view.loadBlob(file).finally(() => (E.file.value = ""));
  });
  view.el.addEventListener("dragover", (e) => {
    if (view.el.readOnly || !e.dataTransfer?.types?.includes("Files")) return;
    e.preventDefault();
    E.drop.classList.add("on");
  });
  view.el.addEventListener("dragleave", () => E.drop.classList.remove("on"));
  view.el.addEventListener("drop", (e) => {
    E.drop.classList.remove("on");
    const file = e.dataTransfer?.files?.[0];
    if (view.el.readOnly || !file) return;
    e.preventDefault();
    E.input.value = "";
    view.loadBlob(file);
  });
  E.btnEdit.addEventListener("click", () => {
    view.editing = !view.editing;
    renderEdit(view, true);
    if (view.editing) E.edit.querySelector("input, select")?.focus();
  });
  E.btnFix.addEventListener("click", () => fixCrc(view));
  E.btnLeader.addEventListener("click", () => {
    view.leaderOpen = !view.leaderOpen;
    renderLeader(view);
    if (view.leaderOpen) E.leaderForm.querySelector("input:checked")?.focus();
  });
  E.leaderForm.addEventListener("submit", (e) => {
    e.preventDefault();
    sendToLeader(view);
  });
  // Typing in the entry's fields chooses the entry.
  E.leaderState.addEventListener("input", (e) => {
    if (e.target.type !== "radio") E.leaderState.querySelector("#leader-entry").checked = true;
  });
  E.btnCompare.addEventListener("click", () => {
    view.comparing = !view.comparing;
    renderCompare(view);
    if (view.comparing) E.compareInput.focus();
  });
  E.btnAlone.addEventListener("click", () => {
    const d = view.d;
    if (!d) return;
    const slice = view.input.bytes.slice(d.start, d.end);
    E.input.value = slice.length <= 1 << 20 ? toHex(slice, " ", 16) : "";
    view.loadBytes(slice, { format: `batch ${d.index} of ${view.input.label}`, stripped: [], label: `batch ${d.index}` });
  });
  E.btnCopyHex.addEventListener("click", () => exportBatches(view, "hex"));
  E.btnCopyB64.addEventListener("click", () => exportBatches(view, "base64"));
  E.btnCopyJson.addEventListener("click", () => exportBatches(view, "json"));
  E.btnCopyDump.addEventListener("click", () => exportBatches(view, "dump"));
  E.btnSavePng.addEventListener("click", async () => downloadText(`${pictureName(view)}.png`, await view.el.exportPicture("png"), "image/png"));
  E.btnSaveSvg.addEventListener("click", () => downloadText(`${pictureName(view)}.svg`, view.el.exportPicture("svg"), "image/svg+xml"));
  let cmpPending = 0;
  E.compareInput.addEventListener("input", () => {
    clearTimeout(cmpPending);
    cmpPending = setTimeout(() => renderCompare(view), 60);
  });
  E.compare.addEventListener("click", async (e) => {
    const id = e.target.closest?.("button")?.id;
    if (!id?.startsWith("compare-") || !view.d?.batch) return;
    const d = view.d;
    const b = d.batch;
    const seq = ++view.encodeSeq;
    let bytes;
    if (id === "compare-retry") bytes = view.input.bytes.subarray(d.start, d.end);
    else {
      const spec = structuredClone(b);
      if (id === "compare-next") {
        spec.header.baseSequence = incrementSequence(b.header.lastSequence, 1);
      } else {
        spec.header.producerEpoch = Math.max(0, b.header.producerEpoch - 1);
      }
      const enc = await view.encoder((text, failed) => replace(E.compareOut, el("p", { class: failed ? "bad" : "muted", role: "status" }, text)));
      // The opened batch changed (or another button was pressed) while the encoder loaded.
      if (!enc || seq !== view.encodeSeq || view.d !== d) return;
      try {
        bytes = enc.encodeBatch(spec);
      } catch (err) {
        replace(E.compareOut, el("p", { class: "bad" }, `Could not build B: ${err instanceof Error ? err.message : err}`));
        return;
      }
    }
    E.compareInput.value = toHex(bytes, " ", 16);
    renderCompare(view);
  });
  // Field table: hover highlights bytes; click / Enter moves the byte focus there.
  E.fields.addEventListener("pointerover", (e) => {
    const tr = e.target.closest?.("tr[data-k]");
    if (tr) view.setActive(Number(tr.dataset.k), "hover");
  });
  E.fields.addEventListener("pointerleave", () => view.restoreActive());
  E.fields.addEventListener("focusin", (e) => {
    const tr = e.target.closest?.("tr[data-k]");
    if (tr) view.setActive(Number(tr.dataset.k), "table");
  });
  E.fields.addEventListener("click", (e) => {
    const b = e.target.closest?.("button.fname");
    if (b) view.gotoField(Number(b.closest("tr").dataset.k));
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
    view.formatter = E.readAs.value || null;
    if (view.d?.batch && view.sel >= 0) view.open(view.sel, "keep", keepState(view, "formatter"));
  });
  E.errorsList.addEventListener("click", (e) => {
    const b = e.target.closest?.("button[data-at]");
    if (!b) return;
    const at = Number(b.dataset.at);
    const batch = Number(b.dataset.batch);
    if (Number.isInteger(batch) && batch >= 0 && batch < (view.frames?.count ?? 0) && batch !== view.sel) view.open(batch, "error");
    if (view.d && at >= view.d.start && at < view.d.end) {
      view.grid.view.focus({ preventScroll: true });
      view.grid.setFocus(at);
      view.grid.root.scrollIntoView?.({ block: "nearest" });
    }
  });
  for (const pager of [E.pager, E.pager2]) {
    pager.addEventListener("click", (e) => {
      const b = e.target.closest?.("button[data-page]");
      if (!b || b.disabled) return;
      view.page = Number(b.dataset.page);
      renderPage(view);
    });
  }
}

export function applyReadonly(view) {
  const ro = view.el.readOnly;
  view.els.inputBox.hidden = ro;
  for (const b of [view.els.btnEdit, view.els.btnFix, view.els.btnCompare, view.els.btnLeader, view.els.btnAlone]) b.hidden = ro;
  if (ro) {
    view.editing = false;
    view.leaderOpen = false;
    view.els.leader.hidden = true;
    view.els.edit.hidden = true;
    if (!view.el.hasAttribute("compare-hex")) view.els.compare.hidden = true;
  }
  view.grid.setEditable(!ro && (view.input?.bytes.length ?? 0) <= EDIT_MAX_BYTES);
}
