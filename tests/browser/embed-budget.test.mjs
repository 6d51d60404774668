// The embed size budget: what a docs page pays, cold, until its eoslab elements first render.
//
// dist/eoslab (rebuilt here by scripts/build-dist.mjs) is served under a path prefix
// (/docs/v2/_static/eoslab/) next to three host pages (/docs/v2/*.html), every response with the
// strict Content-Security-Policy (embed-server.mjs STRICT_CSP), no compression and no-store. Each
// page is loaded once in a fresh Chromium context (cold cache), no interaction; requests off
// 127.0.0.1 are refused. Measured (tests/browser/embed-measure.mjs), per page:
//   - the eoslab requests issued until first render, and their bodies gzipped (gzip -9 of each body,
//     summed: what a host compressing on the fly sends), raw bytes beside;
//   - the same for the whole page (the host's own HTML too), and the totals to network idle.
// "First render": every element has shown its content — <kafka-batch> a kafka-batch:decode event
// with ≥ 1 batch and no error and its decoded header fields (tr[data-field="producerId"]) in its
// shadow root; <kafka-ladder>/<kafka-timeline> a …:load event with ≥ 1 step and no error, then the
// …:step event of the first step shown — and the browser has run one more animation frame.
//
// Pages and budgets (eoslab files, gzipped, until first render), as a docs build writes them (the
// MkDocs and Docusaurus plugins, or dist/eoslab/prebuild.mjs for a hand-written page): the batch
// carries its pre-built run (run="batch-run.json", made here by prebuild.mjs's batchRun, as the
// plugins make it), the players' scenarios have theirs in dist/eoslab/runs/:
//   batch      <kafka-batch compact readonly hex=… run=…> (a real record batch: helpers.mjs EXAMPLE_A_HEX), kafka-batch.js   ≤ 60 KB
//   timeline   <kafka-timeline scenario="txn-zombie-fenced" compact readonly>, kafka-timeline.js                               ≤ 100 KB
//   three      that batch + <kafka-ladder scenario="lost-response-retry" compact readonly> + that timeline, eoslab-fences.js   ≤ 150 KB
//              (the docs pages' one script: it imports each element's module when the page has one)
// and a page with one element makes at most 6 eoslab requests until first render.
// (KB = 1000 bytes, as the README's tables.)
//
// The measurements go to target/embed-budget.json (the README's size table is written from it) and
// to stdout, before the budgets are checked: a page over budget fails its test with its figures.
// Run: node --test tests/browser/embed-budget.test.mjs      (needs pkg/ and /usr/bin/chromium)
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium } from "playwright-core";
import { ROOT, CHROMIUM, CHROMIUM_ARGS, EXAMPLE_A_HEX } from "./helpers.mjs";
import { startStatic, STRICT_CSP } from "./embed-server.mjs";
import { measurePage } from "./embed-measure.mjs";

const DIST = join(ROOT, "dist/eoslab");
const HOST = "/docs/v2/";
const PREFIX = `${HOST}_static/eoslab/`;
const OUT = join(ROOT, "target/embed-budget.json");
const KB = 1000;
const MAX_REQUESTS_ONE_ELEMENT = 6;

const page = (title, entry, body) => `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>${title}</title>
  <script type="module" src="_static/eoslab/${entry}"></script>
</head>
<body>
  <main>
${body}
  </main>
</body>
</html>
`;
const BATCH = `<kafka-batch compact readonly hex="${EXAMPLE_A_HEX}" run="batch-run.json"></kafka-batch>`;
const TIMELINE = `<kafka-timeline scenario="txn-zombie-fenced" compact readonly></kafka-timeline>`;
const LADDER = `<kafka-ladder scenario="lost-response-retry" compact readonly></kafka-ladder>`;
const PAGES = [
  { id: "batch", file: "batch.html", what: "<kafka-batch compact readonly hex=…> (kafka-batch.js)", elements: 1, budget: 60 * KB,
    html: page("batch", "kafka-batch.js", BATCH) },
  { id: "timeline", file: "timeline.html", what: '<kafka-timeline scenario="txn-zombie-fenced" compact readonly> (kafka-timeline.js)', elements: 1, budget: 100 * KB,
    html: page("timeline", "kafka-timeline.js", TIMELINE) },
  { id: "three", file: "three.html", what: 'batch + <kafka-ladder scenario="lost-response-retry"> + that timeline (eoslab-fences.js)', elements: 3, budget: 150 * KB,
    html: page("three", "eoslab-fences.js", [BATCH, LADDER, TIMELINE].join("\n")) },
];

let server;
let browser;
let work;
const results = {};

before(async () => {
  execFileSync("node", [join(ROOT, "scripts/build-dist.mjs")], { stdio: "inherit" });
  work = mkdtempSync(join(tmpdir(), "eoslab-budget-"));
  for (const p of PAGES) writeFileSync(join(work, p.file), p.html);
  const { batchRun } = await import(join(DIST, "prebuild.mjs"));
  writeFileSync(join(work, "batch-run.json"), JSON.stringify(batchRun({ hex: EXAMPLE_A_HEX })));
  server = await startStatic([
    { prefix: PREFIX, dir: DIST, csp: STRICT_CSP },
    { prefix: HOST, dir: work, csp: STRICT_CSP },
  ]);
  browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS, timeout: 30_000 });
  // The pre-built run beside the page is eoslab's payload too.
  const isEoslab = (path) => path.startsWith(PREFIX) || path === `${HOST}batch-run.json`;
  for (const p of PAGES) {
    const m = await measurePage(browser, `${server.url}${HOST}${p.file}`, { isEoslab, timeout: 60_000 });
    results[p.id] = { page: p.what, elements: m.elements, budgetGzip: p.budget, ...(p.elements === 1 ? { maxRequests: MAX_REQUESTS_ONE_ELEMENT } : {}), ...m };
  }
  const kb = (n) => `${(n / KB).toFixed(1)} KB`;
  mkdirSync(join(ROOT, "target"), { recursive: true });
  const chromiumVersion = browser.version();
  writeFileSync(OUT, JSON.stringify({ date: new Date().toISOString(), chromium: chromiumVersion, prefix: PREFIX, csp: STRICT_CSP, kb: KB, pages: results }, null, 2) + "\n");
  console.log(`embed budget (eoslab files until first render, cold, gzip -9 per body; ${OUT}):`);
  console.log("| page | requests | raw | gzipped (budget) | of which wasm | whole page gzipped | first render |");
  console.log("|---|---:|---:|---:|---:|---:|---:|");
  for (const p of PAGES) {
    const r = results[p.id];
    const e = r.untilRender.eoslab;
    const req = p.elements === 1 ? `${e.requests} (≤ ${MAX_REQUESTS_ONE_ELEMENT})` : String(e.requests);
    console.log(`| ${p.what} | ${req} | ${kb(e.bytes)} | ${kb(e.gzip)} (≤ ${kb(p.budget)}) | ${kb(e.wasmGzip)} | ${kb(r.untilRender.gzip)} | ${r.renderMs.toFixed(0)} ms |`);
  }
});

after(async () => {
  await Promise.race([browser?.close(), new Promise((r) => setTimeout(r, 10_000))]).catch(() => {});
  await server?.close();
  if (work) rmSync(work, { recursive: true, force: true });
});

for (const p of PAGES) {
  test(`embed budget, ${p.id}: ${p.what} ≤ ${p.budget / KB} KB gzipped${p.elements === 1 ? `, ≤ ${MAX_REQUESTS_ONE_ELEMENT} requests` : ""} until first render`, () => {
    const r = results[p.id];
    assert.ok(r, `${p.id} was not measured`);
    assert.equal(r.elements, p.elements, "every element of the page rendered");
    // Every eoslab request answered (a 404 would make a page look cheaper than it is).
    const missing = r.untilRender.files.filter((f) => f.status !== 200);
    assert.deepEqual(missing, [], "every eoslab file it asked for was served");
    const e = r.untilRender.eoslab;
    const files = r.untilRender.files.map((f) => `${f.path.slice(PREFIX.length)} ${(f.gzip / KB).toFixed(1)}`).join(", ");
    assert.ok(e.gzip <= p.budget, `${p.id}: ${(e.gzip / KB).toFixed(1)} KB gzipped until first render, budget ${p.budget / KB} KB (${e.requests} requests: ${files})`);
    if (p.elements === 1) {
      assert.ok(e.requests <= MAX_REQUESTS_ONE_ELEMENT, `${p.id}: ${e.requests} requests until first render, budget ${MAX_REQUESTS_ONE_ELEMENT} (${files})`);
    }
  });
}
