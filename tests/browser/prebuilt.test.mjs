// Pre-built runs (make dist's runs/<element>/<scenario>.json, www/lib/runs.js): for every shipped
// scenario, what a reader sees in <kafka-timeline scenario=…> and <kafka-ladder scenario=…> drawn
// from the pre-built run, with no WebAssembly loaded, is what the same element shows when it runs
// the scenario's script in the wasm: the element's whole shadow text at the first and the last
// step, and its step count. Also: the first view needs no wasm request at all, stepping needs
// none, and a change of the script loads the model once and draws the new run.
//
// dist/eoslab is rebuilt from pkg/ first (node scripts/build-dist.mjs), as make test's dist step does.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { ROOT, everyElementDrawn, launch } from "./helpers.mjs";
import { startStatic, STRICT_CSP } from "./embed-server.mjs";

const DIST = join(ROOT, "dist/eoslab");
const PREFIX = "/handbook/_eoslab/";
let server;
let context;
let closeBrowser;
let page;
const requests = [];

const HTML = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>pre-built</title>
<script type="module" src="${PREFIX}eoslab-fences.js"></script></head><body><main id="col"></main></body></html>`;

before(async () => {
  execFileSync(process.execPath, [join(ROOT, "scripts/build-dist.mjs")], { cwd: ROOT, stdio: ["ignore", "ignore", "inherit"] });
  const { mkdtempSync, writeFileSync } = await import("node:fs");
  const { tmpdir } = await import("node:os");
  const site = mkdtempSync(join(tmpdir(), "eoslab-prebuilt-"));
  writeFileSync(join(site, "index.html"), HTML);
  server = await startStatic([{ prefix: PREFIX, dir: DIST, csp: STRICT_CSP }, { prefix: "/handbook/", dir: site, csp: STRICT_CSP }]);
  ({ context, page, close: closeBrowser } = await launch({ timeout: 60_000 }));
  page.on("request", (r) => requests.push(new URL(r.url()).pathname));
  await page.goto(`${server.url}/handbook/index.html`);
});

after(async () => {
  await closeBrowser?.();
  server?.close();
});

const wasmRequests = () => requests.filter((p) => p.endsWith(".wasm") || p.includes("/pkg/"));

/** Shows `tag` with `attrs` in the column and resolves to {steps, first, last}: its shadow text at the first and last step. */
function view(tag, attrs) {
  return page.evaluate(
    async ({ tag, attrs }) => {
      const col = document.getElementById("col");
      col.replaceChildren();
      const el = document.createElement(tag);
      for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, v);
      const loaded = new Promise((resolve) => {
        el.addEventListener(`${tag}:load`, (e) => resolve(e.detail), { once: true });
        setTimeout(() => resolve({ error: "no load event within 20 s" }), 20_000);
      });
      col.append(el);
      // eoslab-fences.js imports an element's module the first time the page has one.
      const detail = await loaded;
      const settle = () => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
      await settle();
      const text = () => el.shadowRoot.textContent.replace(/\s+/g, " ").trim();
      const first = text();
      el.step = "end";
      await settle();
      await new Promise((r) => setTimeout(r, 0));
      const last = text();
      return { steps: el.steps, first, last, error: detail.error ?? null };
    },
    { tag, attrs },
  );
}

const index = JSON.parse(readFileSync(join(ROOT, "scenarios/index.json"), "utf8"));

test("every shipped scenario: the pre-built view is the wasm's view (timeline and ladder), and the first views load no wasm", { timeout: 900_000 }, async () => {
  // Pre-built first: not one wasm request (nor the glue) for all of them.
  const prebuilt = new Map();
  for (const tag of ["kafka-timeline", "kafka-ladder"]) {
    for (const { name } of index) prebuilt.set(`${tag}/${name}`, await view(tag, { scenario: name, compact: "", readonly: "" }));
  }
  assert.deepEqual(wasmRequests(), [], "no wasm, no glue for any pre-built view");
  assert.ok(requests.includes(`${PREFIX}runs/kafka-timeline/txn-zombie-fenced.json`));
  assert.ok(!requests.some((p) => p.endsWith(".eos")), "no script fetched: the run holds it");
  // Then each one computed in the wasm from its script.
  const differ = [];
  for (const tag of ["kafka-timeline", "kafka-ladder"]) {
    for (const { name } of index) {
      const script = readFileSync(join(ROOT, "scenarios", `${name}.eos`), "utf8");
      const computed = await view(tag, { script, compact: "", readonly: "" });
      const pre = prebuilt.get(`${tag}/${name}`);
      if (pre.steps !== computed.steps || pre.first !== computed.first || pre.last !== computed.last || pre.error !== computed.error) {
        differ.push(`${tag} ${name}: steps ${pre.steps}/${computed.steps}; first view ${pre.first === computed.first ? "same" : "differs"}; last view ${pre.last === computed.last ? "same" : "differs"}`);
      }
      assert.ok(computed.steps > 0, `${tag} ${name} ran`);
    }
  }
  assert.deepEqual(differ, []);
  assert.ok(wasmRequests().some((p) => p.endsWith("/pkg/eoslab_bg.wasm")), "the scripts ran in the wasm");
});

test("a pre-built view steps without wasm; editing its script loads the model once and draws the edited run", { timeout: 120_000 }, async () => {
  await page.goto(`${server.url}/handbook/index.html`);
  requests.length = 0;
  const before = await view("kafka-timeline", { scenario: "txn-zombie-fenced", compact: "", readonly: "" });
  assert.ok(before.steps > 2);
  const stepped = await page.evaluate(async () => {
    const el = document.querySelector("kafka-timeline");
    el.step = 2;
    await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
    return el.step;
  });
  assert.equal(stepped, 2);
  assert.deepEqual(wasmRequests(), [], "stepping needs no model");
  const edited = await page.evaluate(async () => {
    const el = document.querySelector("kafka-timeline");
    const loaded = new Promise((resolve) => el.addEventListener("kafka-timeline:load", (e) => resolve(e.detail), { once: true }));
    el.setAttribute("script", el.script.replace(/\s*$/, "\n") + "begin new\n");
    const detail = await loaded;
    return { steps: el.steps, error: detail.error ?? null };
  });
  assert.equal(edited.error, null);
  assert.equal(edited.steps, before.steps + 1, "the edited script's run: one more step");
  assert.deepEqual(wasmRequests().filter((p) => p.endsWith(".wasm")), [`${PREFIX}pkg/eoslab_bg.wasm`], "the full model, once");
});

/** Real Kafka 4.3.1 bytes (tests/fixtures/kafka-4.3.1: see its PROVENANCE.md) and their damaged copies, as hex. */
function batchInputs() {
  const seg = (p) => readFileSync(join(ROOT, "tests/fixtures/kafka-4.3.1", p));
  const hex = (b) => Buffer.from(b).toString("hex").replace(/(..)(?!$)/g, "$1 ");
  const compressed = seg("compressed-0/00000000000000000000.log");
  const txn = seg("txn-0/00000000000000000000.log");
  const firstBatch = (b) => b.subarray(0, 12 + b.readInt32BE(8));
  const badCrc = Buffer.from(firstBatch(txn));
  badCrc[badCrc.length - 1] ^= 0xff;
  return [
    ["one batch", { hex: hex(firstBatch(txn)) }],
    ["a whole segment (batches and markers)", { hex: hex(txn) }],
    ["compressed batches", { hex: hex(compressed) }],
    ["a damaged CRC", { hex: hex(badCrc) }],
    ["cut short", { hex: hex(firstBatch(compressed).subarray(0, 40)) }],
    ["base64", { base64: firstBatch(txn).toString("base64") }],
  ];
}

test("<kafka-batch run=…>: the inspector drawn from a pre-built decode is the wasm's, with no wasm fetched until the reader acts", { timeout: 180_000 }, async () => {
  const { batchRun } = await import(join(DIST, "prebuild.mjs"));
  const { mkdtempSync, writeFileSync } = await import("node:fs");
  const { tmpdir } = await import("node:os");
  const site = mkdtempSync(join(tmpdir(), "eoslab-prebuilt-batch-"));
  writeFileSync(join(site, "index.html"), HTML);
  const cases = batchInputs().map(([label, attrs], i) => {
    const file = batchRun({ readonly: "", compact: "", ...attrs });
    assert.ok(file, `${label}: pre-built`);
    writeFileSync(join(site, `b${i}.json`), JSON.stringify(file));
    return { label, attrs, run: `b${i}.json` };
  });
  const srv = await startStatic([{ prefix: PREFIX, dir: DIST, csp: STRICT_CSP }, { prefix: "/handbook/", dir: site, csp: STRICT_CSP }]);
  try {
    const p = await context.newPage();
    const seen = [];
    p.on("request", (r) => seen.push(new URL(r.url()).pathname));
    await p.goto(`${srv.url}/handbook/index.html`);
    const show = (attrs) =>
      p.evaluate(async (attrs) => {
        const el = document.createElement("kafka-batch");
        for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, v);
        const decoded = new Promise((resolve) => {
          el.addEventListener("kafka-batch:decode", () => resolve(true), { once: true });
          setTimeout(() => resolve(false), 20_000);
        });
        document.getElementById("col").replaceChildren(el);
        const ok = await decoded;
        await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
        await new Promise((r) => setTimeout(r, 50)); // a big batch's deferred spans
        return ok ? el.shadowRoot.textContent.replace(/\s+/g, " ").trim() : null;
      }, attrs);
    const pre = [];
    for (const c of cases) pre.push(await show({ compact: "", readonly: "", ...c.attrs, run: c.run }));
    assert.deepEqual(seen.filter((u) => u.includes("/pkg/")), [], "no decoder (glue or wasm) for the pre-built views");
    for (const [i, c] of cases.entries()) {
      const computed = await show({ compact: "", readonly: "", ...c.attrs });
      assert.ok(pre[i] && computed, `${c.label}: shown`);
      assert.equal(pre[i], computed, `${c.label}: the pre-built view is the wasm's`);
    }
    assert.ok(seen.some((u) => u.endsWith("/pkg/eoslab-decode_bg.wasm")), "the wasm decoded the others");
    // An inspector with an input box, drawn from its run: the reader types other bytes into it, and
    // the real decoder (loaded on the first act) decodes them; nothing is thrown on the way.
    const pageErrors = [];
    p.on("pageerror", (e) => pageErrors.push(String(e)));
    await show({ ...cases[0].attrs, run: cases[0].run });
    const typed = batchInputs()[4][1].hex;
    const decoded = p.evaluate(() => new Promise((resolve) => {
      document.querySelector("kafka-batch").addEventListener("kafka-batch:decode", (e) => resolve(e.detail.length), { once: true });
    }));
    await p.locator("kafka-batch textarea").first().fill(typed);
    assert.equal(await decoded, typed.split(" ").length, "the typed bytes were decoded");
    assert.deepEqual(pageErrors, []);
    // A run made for other bytes is not used: the element decodes its own.
    const other = await show({ compact: "", readonly: "", hex: cases[0].attrs.hex.replace(/^00/, "ff"), run: cases[0].run });
    assert.ok(other, "shown");
    await p.close();
  } finally {
    srv.close();
  }
});

test("examples/plain-html built by dist's prebuild.mjs --html: every element and fence draws with no wasm fetched, no fence text left", { timeout: 120_000 }, async () => {
  const { mkdtempSync } = await import("node:fs");
  const { tmpdir } = await import("node:os");
  const site = mkdtempSync(join(tmpdir(), "eoslab-plain-built-"));
  execFileSync(process.execPath, [join(DIST, "prebuild.mjs"), "--html", join(ROOT, "examples/plain-html/index.html"), join(site, "index.html")]);
  const { copyFileSync } = await import("node:fs");
  copyFileSync(join(ROOT, "examples/plain-html/style.css"), join(site, "style.css"));
  const built = readFileSync(join(site, "index.html"), "utf8");
  assert.ok(!/<code class="language-kafka-/.test(built), "every fence became its element");
  assert.ok(!built.includes("send app orders-0"), "no fence script is left in the page: the runs hold them");
  const srv = await startStatic([{ prefix: "/site/eoslab/", dir: DIST, csp: STRICT_CSP }, { prefix: "/site/", dir: site, csp: STRICT_CSP }]);
  try {
    const p = await context.newPage();
    const seen = [];
    const errors = [];
    p.on("request", (r) => seen.push(new URL(r.url()).pathname));
    p.on("console", (m) => m.type() === "error" && errors.push(m.text()));
    p.on("pageerror", (e) => errors.push(String(e)));
    await p.goto(`${srv.url}/site/`);
    await everyElementDrawn(p, 8);
    assert.deepEqual(seen.filter((u) => u.includes("/pkg/")), [], "no wasm (nor its glue) for the first view of the built page");
    // Stepping a fence's timeline needs none either; editing its script loads the model and draws the edit.
    const stepped = await p.evaluate(async () => {
      const el = document.querySelector('kafka-timeline[data-eoslab-fence="kafka-timeline"]');
      el.step = "end";
      await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
      return { step: el.step, steps: el.steps };
    });
    assert.equal(stepped.step, stepped.steps - 1);
    assert.deepEqual(seen.filter((u) => u.includes("/pkg/")), [], "stepping needs no wasm");
    const edited = await p.evaluate(async () => {
      const el = document.querySelector('kafka-timeline[data-eoslab-fence="kafka-timeline"]');
      const before = el.steps;
      const loaded = new Promise((resolve) => el.addEventListener("kafka-timeline:load", (e) => resolve(e.detail), { once: true }));
      el.setAttribute("script", el.script.replace(/\s*$/, "\n") + "send app orders-0 c\n");
      const detail = await loaded;
      return { before, after: el.steps, error: detail.error ?? null };
    });
    assert.equal(edited.error, null);
    assert.equal(edited.after, edited.before + 1, "the edited script's run: one more step");
    assert.ok(seen.some((u) => u.endsWith("/pkg/eoslab_bg.wasm")), "the edit ran in the model");
    assert.deepEqual(errors, []);
    await p.close();
  } finally {
    srv.close();
  }
});

test("prebuild.mjs --html: a fence whose script is wrong stops the build at its line in the page", { timeout: 60_000 }, async () => {
  const { mkdtempSync, writeFileSync } = await import("node:fs");
  const { tmpdir } = await import("node:os");
  const dir = mkdtempSync(join(tmpdir(), "eoslab-broken-"));
  const page = ["<!doctype html>", "<title>broken</title>", "<p>A ladder:</p>", '<pre><code class="language-kafka-ladder">partition p', "producer app", "send app p x", "bogus line", "</code></pre>", ""].join("\n");
  writeFileSync(join(dir, "src.html"), page);
  let failure = null;
  try {
    execFileSync(process.execPath, [join(DIST, "prebuild.mjs"), "--html", join(dir, "src.html"), join(dir, "out.html")], { stdio: "pipe" });
  } catch (err) {
    failure = err;
  }
  assert.ok(failure, "the build fails");
  assert.equal(failure.status, 1);
  // The fence opens on line 4 of the page; its body's line 4 is page line 7.
  assert.match(String(failure.stderr), new RegExp(`${join(dir, "src.html").replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}:7: line 4: unknown step \`bogus\``));
});
