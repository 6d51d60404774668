// Benchmark of the Batch Inspector (<kafka-batch>) in headless Chromium (Debian's, driven by
// playwright-core from tests/node_modules; no browser download):
//   1. paste → rendered byte map, for 1 MB of hex text (one batch of ~350 KB with thousands of
//      records: the worst case for the detail view, since every record field gets a byte span);
//   2. opening a 100 MB segment file (file picked → list of all batches + batch 0 rendered), plus
//      the time the worker takes to check every batch header, and the longest main-thread task
//      meanwhile (the page must not freeze).
// Targets: < 100 ms and < 1 s. It prints milliseconds; it is a benchmark, not a test.
// Run: node benches/inspector.bench.mjs     (after `make pkg`, and `npm ci` in tests/)
import { mkdtempSync, rmSync, openSync, writeSync, closeSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

let helpers;
try {
  helpers = await import("../tests/browser/helpers.mjs");
} catch (err) {
  console.error(`inspector bench: needs playwright-core in tests/node_modules (cd tests && npm ci): ${err.message}`);
  process.exit(1);
}
const { launch, loadPkg } = helpers;

const RUNS = Number(process.env.BENCH_RUNS || 7);
const SEGMENT_MB = Number(process.env.BENCH_SEGMENT_MB || 100);

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const fmt = (ms) => `${ms.toFixed(1)} ms`;

const pkg = await loadPkg();

// 1 MB of hex text: "xx " per byte, 16 bytes a line (about 3 characters a byte).
function oneMegabyteHex() {
  const records = [];
  for (let i = 0; records.length < 4000; i++) {
    records.push({ offsetDelta: i, timestampDelta: i, keyText: `key-${i}`, valueText: `value ${i}: the quick brown fox jumps over the lazy dog ${i}`, headers: [{ key: "trace", valueText: `t-${i}` }] });
  }
  let bytes = pkg.encodeBatch({ header: { producerId: 4242, producerEpoch: 1, baseSequence: 0, baseTimestamp: 1700000000000 }, records });
  // Trim to about 1 MB of text by re-encoding with fewer records.
  const per = bytes.length / records.length;
  const want = Math.floor((1 << 20) / 3 / per);
  bytes = pkg.encodeBatch({ header: { producerId: 4242, producerEpoch: 1, baseSequence: 0, baseTimestamp: 1700000000000 }, records: records.slice(0, want) });
  const lines = [];
  for (let off = 0; off < bytes.length; off += 16) {
    lines.push(Array.from(bytes.subarray(off, off + 16), (b) => b.toString(16).padStart(2, "0")).join(" "));
  }
  return { text: lines.join("\n"), bytes: bytes.length, records: want };
}

function writeSegment(path, megabytes) {
  const specs = [];
  for (let i = 0; i < 10000; i++) {
    specs.push({
      header: { baseOffset: i * 2, producerId: 1000 + (i % 5), producerEpoch: 0, baseSequence: i * 2, baseTimestamp: 1700000000000 + i,
        attributes: { compression: i % 20 === 19 ? "zstd" : "none", transactional: i % 7 === 0 } },
      records: [{ keyText: `k${i}`, valueText: `value ${i}` }, { offsetDelta: 1, valueText: `second ${i}` }],
    });
  }
  const block = pkg.encodeSegment(specs);
  const fd = openSync(path, "w");
  let size = 0;
  while (size + block.length <= megabytes * (1 << 20)) {
    writeSync(fd, block);
    size += block.length;
  }
  closeSync(fd);
  return { size, batches: (size / block.length) * 10000 };
}

const env = await launch();
const { page } = env;
const dir = mkdtempSync(join(tmpdir(), "eoslab-bench-"));
try {
  await page.goto(`${env.baseUrl}/`, { waitUntil: "load" });
  await page.waitForSelector('body[data-ready="1"]');

  // --- 1 MB hex paste ---
  const hex = oneMegabyteHex();
  console.log(`paste: ${(hex.text.length / (1 << 20)).toFixed(2)} MB of hex text = one batch of ${hex.bytes} bytes, ${hex.records} records`);
  const paste = [];
  for (let i = 0; i < RUNS; i++) {
    // Alternate with the small sample so every run really re-decodes.
    await page.evaluate(() => document.querySelector("kafka-batch").load("00"));
    const r = await page.evaluate(async (text) => {
      const kb = document.querySelector("kafka-batch");
      const ta = kb.shadowRoot.querySelector("#input");
      const decoded = new Promise((res) => kb.addEventListener("kafka-batch:decode", res, { once: true }));
      const spans = new Promise((res) => kb.addEventListener("kafka-batch:spans", res, { once: true }));
      const t0 = performance.now();
      ta.value = text;
      ta.dispatchEvent(new InputEvent("input", { inputType: "insertFromPaste", bubbles: true }));
      await decoded;
      const rendered = performance.now() - t0;
      // The next animation frame: style, layout and paint of the rendered map follow it at once.
      const painted = (await new Promise((res) => requestAnimationFrame(() => res(performance.now())))) - t0;
      await spans;
      const allSpans = performance.now() - t0;
      const cells = kb.shadowRoot.querySelectorAll("#batch .map-left > .hexgrid .b[data-pos]").length;
      return { rendered, painted, allSpans, cells, opened: kb.timing.opened };
    }, hex.text);
    if (r.cells === 0) throw new Error("the byte map has no cells");
    paste.push(r);
  }
  console.log(`paste → rendered map (decode event, rows in the DOM): median ${fmt(median(paste.map((r) => r.rendered)))}, min ${fmt(Math.min(...paste.map((r) => r.rendered)))} over ${RUNS} runs (target < 100 ms)`);
  console.log(`paste → next animation frame (map painted):       median ${fmt(median(paste.map((r) => r.painted)))}`);
  console.log(`paste → every record field's span in the map:     median ${fmt(median(paste.map((r) => r.allSpans)))} (a second decode with record spans, after that frame)`);

  // --- 100 MB segment ---
  const path = join(dir, "00000000000000000000.log");
  const seg = writeSegment(path, SEGMENT_MB);
  console.log(`segment: ${(seg.size / (1 << 20)).toFixed(1)} MB, ${seg.batches.toLocaleString("en-US")} batches`);
  const opens = [];
  for (let i = 0; i < Math.min(RUNS, 3); i++) {
    await page.evaluate(() => {
      window.__longest = 0;
      window.__obs?.disconnect();
      window.__obs = new PerformanceObserver((list) => {
        for (const e of list.getEntries()) window.__longest = Math.max(window.__longest, e.duration);
      });
      window.__obs.observe({ type: "longtask" });
      const kb = document.querySelector("kafka-batch");
      window.__opened = new Promise((res) => kb.addEventListener("kafka-batch:decode", res, { once: true }));
      window.__indexed = new Promise((res) => kb.addEventListener("kafka-batch:indexed", res, { once: true }));
    });
    await page.setInputFiles("#file", path);
    const r = await page.evaluate(async () => {
      const kb = document.querySelector("kafka-batch");
      await window.__opened;
      const opened = kb.timing.opened;
      const longestOpening = window.__longest;
      // Responsiveness probe while the worker checks headers: timer lateness.
      let worstLag = 0;
      let probing = true;
      (function probe() {
        const t = performance.now();
        setTimeout(() => {
          worstLag = Math.max(worstLag, performance.now() - t - 10);
          if (probing) probe();
        }, 10);
      })();
      await window.__indexed;
      probing = false;
      const rows = kb.shadowRoot.querySelectorAll('[role="option"]:not([hidden])').length;
      return { opened, indexed: kb.timing.indexed, longestOpening, longest: window.__longest, worstLag, rows, summary: kb.shadowRoot.querySelector("#summary").textContent };
    });
    if (!r.rows) throw new Error("no batch rows rendered");
    opens.push(r);
    console.log(`  run ${i + 1}: open ${fmt(r.opened)}, all headers checked ${fmt(r.indexed)}, longest main-thread task ${fmt(r.longest)} (while opening ${fmt(r.longestOpening)}), worst timer lag while checking ${fmt(r.worstLag)}`);
  }
  console.log(`  ${opens.at(-1).summary}`);
  console.log(`open 100 MB segment → list + batch 0 rendered: median ${fmt(median(opens.map((r) => r.opened)))} (target < 1 s)`);
  console.log(`every batch header checked (worker, page usable meanwhile): median ${fmt(median(opens.map((r) => r.indexed)))}`);
  console.log(`longest main-thread task during open + check: ${fmt(Math.max(...opens.map((r) => r.longest)))}`);
} finally {
  await env.close();
  rmSync(dir, { recursive: true, force: true });
}
