// eoslab page: decode what is in the textarea with the wasm package and render it as text.
// Plain ES module, no framework, no bundler. Every value from the decoder reaches the DOM through
// textContent / Text nodes only (never innerHTML), since it may come from untrusted bytes.
import init, { decode, version } from "../pkg/eoslab.js";

// Kafka's record-batch reference, Example A: one idempotent batch, producerId 4242, epoch 1,
// baseSequence 7, one record with key "k" and value "v".
export const SAMPLE_HEX = [
  "00 00 00 00 00 00 00 00 00 00 00 3a ff ff ff ff",
  "02 8c 4a 54 5e 00 00 00 00 00 00 00 00 01 8b cf",
  "e5 68 00 00 00 01 8b cf e5 68 00 00 00 00 00 00",
  "00 10 92 00 01 00 00 00 07 00 00 00 01 10 00 00",
  "00 02 6b 02 76 00",
].join("\n");

const $ = (id) => document.getElementById(id);

/** Builds an element; children that are not Nodes become Text nodes. */
function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value !== undefined && value !== null) node.setAttribute(name, String(value));
  }
  for (const child of children.flat()) {
    if (child === undefined || child === null) continue;
    node.append(child instanceof Node ? child : String(child));
  }
  return node;
}

const hex32 = (n) => "0x" + (n >>> 0).toString(16).padStart(8, "0");

/** Text preview of a hex byte string when every byte is printable ASCII. */
function asciiPreview(hex) {
  if (typeof hex !== "string" || hex.length === 0 || hex.length % 2 !== 0) return null;
  let text = "";
  for (let i = 0; i < hex.length; i += 2) {
    const code = parseInt(hex.slice(i, i + 2), 16);
    if (!(code >= 0x20 && code < 0x7f)) return null;
    text += String.fromCharCode(code);
  }
  return text;
}

function bytesCell(hex) {
  if (hex === null || hex === undefined) return el("td", { class: "mono muted" }, "null");
  const preview = asciiPreview(hex);
  return el("td", { class: "mono" }, hex === "" ? "(empty)" : hex, preview !== null ? `  "${preview}"` : "");
}

function timestampText(value) {
  const ms = Number(value);
  if (!Number.isFinite(ms) || ms < 0 || ms > 8.64e15) return String(value);
  return `${value}  (${new Date(ms).toISOString()})`;
}

/** One value of the header table, formatted by field name. */
function formatHeaderValue(name, value) {
  if ((name === "crc" || name === "crcComputed") && typeof value === "number") return `${hex32(value)}  (${value >>> 0})`;
  if (name.endsWith("Timestamp") && typeof value === "string") return timestampText(value);
  return String(value);
}

function headerTable(header) {
  const rows = [];
  const add = (name, value) => {
    const cls = name === "crcValid" ? (value ? "mono ok" : "mono bad") : "mono";
    rows.push(el("tr", { "data-field": name }, el("th", {}, name), el("td", { class: cls }, formatHeaderValue(name, value))));
  };
  for (const [name, value] of Object.entries(header ?? {})) {
    if (value !== null && typeof value === "object") {
      for (const [sub, subValue] of Object.entries(value)) add(`${name}.${sub}`, subValue);
    } else {
      add(name, value);
    }
  }
  return el("table", { class: "header" }, el("tbody", {}, rows));
}

function recordsTable(records) {
  const head = el("tr", {}, ["offset", "timestamp", "sequence", "key", "value", "headers"].map((h) => el("th", {}, h)));
  const rows = records.map((r, i) =>
    el(
      "tr",
      { "data-record": i },
      el("td", { class: "mono" }, r.offset ?? `+${r.offsetDelta}`),
      el("td", { class: "mono" }, r.timestamp !== undefined ? timestampText(r.timestamp) : `+${r.timestampDelta}`),
      el("td", { class: "mono" }, r.sequence ?? ""),
      bytesCell(r.key),
      bytesCell(r.value),
      el(
        "td",
        { class: "mono" },
        (r.headers ?? []).length === 0
          ? ""
          : r.headers.map((h) => {
              const preview = asciiPreview(h.value);
              return el("div", {}, `${h.key} = ${h.value ?? "null"}`, preview !== null ? `  "${preview}"` : "");
            }),
      ),
    ),
  );
  return el("table", { class: "records" }, el("thead", {}, head), el("tbody", {}, rows));
}

function errorItem(e) {
  const where = e.batch !== undefined && e.batch !== null ? ` [batch ${e.batch}]` : "";
  return el(
    "li",
    { class: e.severity === "warning" ? "warning" : "error", "data-kind": e.kind },
    `@${e.at}${where} ${e.kind} (${e.severity}): ${e.message}`,
  );
}

function render(result) {
  const batches = result.batches ?? [];
  const errors = result.errors ?? [];

  $("summary").replaceChildren(
    el(
      "p",
      { class: "summary" },
      el("span", {}, "format: ", el("b", { id: "format" }, result.format)),
      el("span", {}, "bytes: ", el("b", {}, result.length)),
      el("span", {}, "batches: ", el("b", { id: "batch-count" }, batches.length)),
      el("span", {}, "errors: ", el("b", { id: "error-count", class: errors.length ? "bad" : "ok" }, errors.length)),
      (result.stripped ?? []).length ? el("span", { class: "muted" }, "stripped: ", result.stripped.join(", ")) : null,
    ),
  );

  $("errors").replaceChildren(
    el("h2", {}, "Errors"),
    errors.length === 0 ? el("p", { class: "muted" }, "No errors.") : el("ul", { class: "errors" }, errors.map(errorItem)),
  );

  $("batches").replaceChildren(
    ...batches.map((b, i) =>
      el(
        "article",
        { class: "batch", "data-batch": i },
        el(
          "h2",
          {},
          `Batch ${i}: bytes ${b.start}–${b.end}, magic ${b.magic}`,
          b.legacy ? " (legacy message set)" : "",
          b.truncated ? " (truncated)" : "",
        ),
        el("h3", {}, "Header"),
        headerTable(b.header),
        b.control ? el("p", { class: "mono" }, `control record: ${b.control.type} (version ${b.control.version}, coordinatorEpoch ${b.control.coordinatorEpoch})`) : null,
        el("h3", {}, `Records (${(b.records ?? []).length})`),
        (b.records ?? []).length ? recordsTable(b.records) : el("p", { class: "muted" }, "No records decoded."),
      ),
    ),
  );
}

function setStatus(text, isError = false) {
  const status = $("status");
  status.textContent = text;
  status.classList.toggle("error", isError);
}

function run(input, label) {
  const t0 = performance.now();
  try {
    const result = decode(input);
    render(result);
    document.body.dataset.decodes = String(Number(document.body.dataset.decodes ?? 0) + 1);
    setStatus(`${label}: decoded in ${(performance.now() - t0).toFixed(1)} ms`);
  } catch (err) {
    setStatus(`${label}: ${err instanceof Error ? err.message : String(err)}`, true);
  }
}

async function main() {
  await init();
  $("version").textContent = `eoslab ${version()}`;
  const input = $("input");
  input.value = SAMPLE_HEX;

  let pending = 0;
  input.addEventListener("input", () => {
    clearTimeout(pending);
    pending = setTimeout(() => run(input.value, "input"), 40);
  });
  $("sample").addEventListener("click", () => {
    input.value = SAMPLE_HEX;
    run(input.value, "sample");
  });
  $("file").addEventListener("change", async (event) => {
    const file = event.target.files?.[0];
    if (!file) return;
    const bytes = new Uint8Array(await file.arrayBuffer());
    input.value = "";
    input.placeholder = `Showing ${file.name}. Paste text here to decode it instead.`;
    event.target.value = ""; // so choosing the same file again fires "change"
    run(bytes, `${file.name} (${file.size} bytes)`);
  });

  run(input.value, "sample");
  document.body.dataset.ready = "1";
}

main().catch((err) => {
  setStatus(`failed to load the decoder: ${err instanceof Error ? err.message : String(err)}`, true);
  console.error(err);
});
