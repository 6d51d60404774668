// An embed that cannot find its own files says so, in the element: dist/eoslab copied in part (a
// wasm module, a wasm-bindgen glue module, or a built-in scenario — its pre-built runs and its
// script — left out), or a wasm request that fails (offline), under a path prefix and the strict
// CSP. The model elements need the wasm only to run a script (a built-in scenario is drawn from
// runs/<element>/<name>.json), so the wasm cases give them scripts. The element shows, as text, a message that
// names the file it tried to fetch (its path in the folder and the full URL) and says that the
// eoslab/ folder must be served whole next to the module — not a bare "Failed to fetch", not a
// blank element.
// Run: node --test tests/browser/embed-assets.test.mjs      (needs pkg/ and /usr/bin/chromium)
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium } from "playwright-core";
import { ROOT, CHROMIUM, CHROMIUM_ARGS, EXAMPLE_A_HEX } from "./helpers.mjs";
import { startStatic, STRICT_CSP } from "./embed-server.mjs";

const DIST = join(ROOT, "dist/eoslab");
let work;
let server;
let browser;

// Scripts the model elements run (their text content): these need the model, pkg/eoslab.js and its
// wasm, where a built-in scenario is drawn from dist's pre-built run (runs/<element>/<name>.json).
const escape = (t) => t.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
const script = (name) => escape(readFileSync(join(ROOT, "scenarios", `${name}.eos`), "utf8"));
const MODEL_SCRIPTS = `<kafka-timeline compact readonly>${script("txn-zombie-fenced")}</kafka-timeline>\n<kafka-ladder compact readonly>${script("lost-response-retry")}</kafka-ladder>`;

// Each case: a copy of dist/eoslab without `remove`, mounted at /<id>/_static/eoslab/, and a page /<id>/page.html.
const CASES = {
  "no-decode-wasm": { remove: ["pkg/eoslab-decode_bg.wasm"], entry: "kafka-batch.js", body: `<kafka-batch compact readonly hex="${EXAMPLE_A_HEX}"></kafka-batch>` },
  "no-decode-glue": { remove: ["pkg/eoslab-decode.js"], entry: "kafka-batch.js", body: `<kafka-batch compact readonly hex="${EXAMPLE_A_HEX}"></kafka-batch>` },
  "no-full-wasm": { remove: ["pkg/eoslab_bg.wasm"], entry: "eoslab.js", body: MODEL_SCRIPTS },
  // A built-in scenario with neither its pre-built runs nor its script: nothing to draw, and the element says which file.
  "no-scenario": {
    remove: ["scenarios/txn-zombie-fenced.eos", "scenarios/lost-response-retry.eos", "runs/kafka-timeline/txn-zombie-fenced.json", "runs/kafka-ladder/lost-response-retry.json"],
    entry: "eoslab.js",
    body: '<kafka-timeline compact readonly scenario="txn-zombie-fenced"></kafka-timeline>\n<kafka-ladder compact readonly scenario="lost-response-retry"></kafka-ladder>',
  },
  offline: { remove: [], entry: "eoslab.js", body: `<kafka-batch compact readonly hex="${EXAMPLE_A_HEX}"></kafka-batch>\n${MODEL_SCRIPTS}` },
  whole: { remove: [], entry: "eoslab.js", body: `<kafka-batch compact readonly hex="${EXAMPLE_A_HEX}"></kafka-batch>\n<kafka-timeline compact readonly scenario="txn-zombie-fenced"></kafka-timeline>\n${MODEL_SCRIPTS.replace("<kafka-timeline compact readonly>", '<kafka-timeline id="scripted" compact readonly>')}` },
};

before(async () => {
  execFileSync("node", [join(ROOT, "scripts/build-dist.mjs")], { stdio: "inherit" });
  work = mkdtempSync(join(tmpdir(), "eoslab-assets-"));
  const mounts = [];
  for (const [id, c] of Object.entries(CASES)) {
    const dir = join(work, id);
    cpSync(DIST, join(dir, "_static/eoslab"), { recursive: true });
    for (const f of c.remove) rmSync(join(dir, "_static/eoslab", f), { force: true });
    writeFileSync(join(dir, "page.html"), `<!doctype html>\n<html lang="en"><head><meta charset="utf-8"><title>${id}</title>\n<script type="module" src="_static/eoslab/${c.entry}"></script></head>\n<body>\n${c.body}\n</body></html>\n`);
    mounts.push({ prefix: `/${id}/`, dir, csp: STRICT_CSP });
  }
  server = await startStatic(mounts);
  browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS, timeout: 30_000 });
});

after(async () => {
  await Promise.race([browser?.close(), new Promise((r) => setTimeout(r, 10_000))]).catch(() => {});
  await server?.close();
  if (work) rmSync(work, { recursive: true, force: true });
});

/** Opens case `id` in a fresh context; `route` may intercept requests. Returns {page, context, rec}. */
async function open(id, { route } = {}) {
  const context = await browser.newContext();
  const rec = { page: [], foreign: [] };
  await context.route("**/*", (r) => {
    const u = new URL(r.request().url());
    if (u.hostname !== "127.0.0.1") {
      rec.foreign.push(u.href);
      return r.abort();
    }
    if (route && route(u)) return r.abort("internetdisconnected");
    return r.continue();
  });
  const page = await context.newPage();
  page.on("pageerror", (e) => rec.page.push(String(e)));
  await page.goto(`${server.url}/${id}/page.html`);
  return { page, context, rec };
}

/** The text `tag` shows in its shadow root once it mentions "eoslab could not fetch" (or the whole text after the wait fails). */
async function shownError(page, tag) {
  await page.waitForFunction((t) => /eoslab could not fetch/.test(document.querySelector(t)?.shadowRoot?.textContent ?? ""), tag, { timeout: 20_000 })
    .catch(async () => assert.fail(`${tag} shows no error: ${await page.evaluate((t) => document.querySelector(t)?.shadowRoot?.textContent ?? "(no shadow root: not defined)", tag)}`));
  return page.evaluate((t) => {
    const root = document.querySelector(t).shadowRoot;
    // The innermost element that holds the message, and whether it is on screen and text only.
    const holder = [...root.querySelectorAll("*")].reverse().find((n) => /eoslab could not fetch/.test(n.textContent));
    const box = holder.getBoundingClientRect();
    return { text: holder.textContent, visible: box.width > 0 && box.height > 0 && getComputedStyle(holder).visibility !== "hidden", markup: holder.querySelector("a, b, i, em, strong, img") !== null };
  }, tag);
}

const url = (id, file) => `${server.url}/${id}/_static/eoslab/${file}`;

function assertNamed(shown, id, file) {
  assert.ok(shown.visible, `the message is on screen: ${shown.text}`);
  assert.ok(shown.text.includes(file), `names ${file}: ${shown.text}`);
  assert.ok(shown.text.includes(url(id, file)), `gives the URL it tried, ${url(id, file)}: ${shown.text}`);
  assert.match(shown.text, /eoslab\/ folder must be served whole/);
  assert.ok(shown.text.includes(`${server.url}/${id}/_static/eoslab/`), "says where the folder is expected");
  assert.equal(shown.markup, false, "text, not markup");
}

test("<kafka-batch> without pkg/eoslab-decode_bg.wasm (404): names the wasm, its URL and the whole folder", { timeout: 60_000 }, async () => {
  const { page, context, rec } = await open("no-decode-wasm");
  const shown = await shownError(page, "kafka-batch");
  assertNamed(shown, "no-decode-wasm", "pkg/eoslab-decode_bg.wasm");
  assert.match(shown.text, /404 Not Found/);
  assert.doesNotMatch(shown.text, /^Failed to fetch$/);
  assert.deepEqual(rec.page, []);
  assert.deepEqual(rec.foreign, []);
  await context.close();
});

test("<kafka-batch> without pkg/eoslab-decode.js (the glue module): the element still defines and says which module", { timeout: 60_000 }, async () => {
  const { page, context } = await open("no-decode-glue");
  const shown = await shownError(page, "kafka-batch");
  assertNamed(shown, "no-decode-glue", "pkg/eoslab-decode.js");
  await context.close();
});

test("offline (the wasm requests fail): <kafka-batch> and a <kafka-timeline> running a script say the request failed, and which", { timeout: 60_000 }, async () => {
  const { page, context } = await open("offline", { route: (u) => u.pathname.endsWith("/pkg/eoslab-decode_bg.wasm") || u.pathname.endsWith("/pkg/eoslab_bg.wasm") });
  const batch = await shownError(page, "kafka-batch");
  // On a page with a model element the inspector runs on the full package: either wasm is named.
  const file = batch.text.includes("pkg/eoslab_bg.wasm") ? "pkg/eoslab_bg.wasm" : "pkg/eoslab-decode_bg.wasm";
  assertNamed(batch, "offline", file);
  assert.match(batch.text, /request failed/);
  const timeline = await shownError(page, "kafka-timeline");
  assertNamed(timeline, "offline", "pkg/eoslab_bg.wasm");
  assert.match(timeline.text, /request failed/);
  await context.close();
});

test("<kafka-timeline> and <kafka-ladder> running scripts without pkg/eoslab_bg.wasm (404): each names it", { timeout: 60_000 }, async () => {
  const { page, context, rec } = await open("no-full-wasm");
  for (const tag of ["kafka-timeline", "kafka-ladder"]) {
    const shown = await shownError(page, tag);
    assertNamed(shown, "no-full-wasm", "pkg/eoslab_bg.wasm");
    assert.match(shown.text, /404 Not Found/);
  }
  assert.deepEqual(rec.page, []);
  await context.close();
});

test("<kafka-timeline> and <kafka-ladder> whose built-in scenario is missing (its run and its script: 404): each names the scenario file", { timeout: 60_000 }, async () => {
  const { page, context, rec } = await open("no-scenario");
  for (const [tag, name] of [["kafka-timeline", "txn-zombie-fenced"], ["kafka-ladder", "lost-response-retry"]]) {
    const shown = await shownError(page, tag);
    assertNamed(shown, "no-scenario", `scenarios/${name}.eos`);
    assert.ok(shown.text.includes(`"${name}"`), shown.text);
  }
  assert.deepEqual(rec.page, []);
  await context.close();
});

test("the whole folder: no such message, the elements render (a built-in scenario and scripts)", { timeout: 60_000 }, async () => {
  const { page, context, rec } = await open("whole");
  await page.locator('kafka-batch tr[data-field="producerId"]').first().waitFor();
  await page.waitForFunction(() => [...document.querySelectorAll("kafka-timeline, kafka-ladder")].every((e) => e.steps > 0));
  for (const sel of ["kafka-batch", "kafka-timeline", "#scripted", "kafka-ladder"]) {
    assert.doesNotMatch(await page.evaluate((t) => document.querySelector(t).shadowRoot.textContent, sel), /could not fetch/);
  }
  assert.deepEqual(rec.page, []);
  await context.close();
});
