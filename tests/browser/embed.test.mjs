// Embedding: dist/eoslab (built here by scripts/build-dist.mjs from www/ and pkg/) served under a
// deep path prefix by a plain static server, examples/plain-html under the strict CSP, themes,
// code fences, two instances, mount/unmount without leaks, compact sizes at a 690 px column.
// The MkDocs example has its own file (embed-mkdocs.test.mjs).
// Run: node --test tests/browser/embed.test.mjs      (needs `make pkg` and /usr/bin/chromium)
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium } from "playwright-core";
import { ROOT, CHROMIUM, CHROMIUM_ARGS, EXAMPLE_A_HEX } from "./helpers.mjs";
import { startStatic, STRICT_CSP } from "./embed-server.mjs";

const DIST = join(ROOT, "dist/eoslab");
const PREFIX = "/docs/v2/_static/eoslab/"; // any prefix: nothing in dist assumes where it is mounted
let server;
let context;
let userDataDir;
/** Per page: console errors, page errors, CSP violations, requests off 127.0.0.1. */
let rec;

// Counts what an element could leave behind: timers, intervals, animation frames, observers,
// media-query and document/window listeners. Installed before any page script runs.
const INSTRUMENT = () => {
  const live = { timeouts: new Set(), intervals: new Set(), observers: new Set(), media: 0, docListeners: 0 };
  window.__eoslabLeaks = live;
  const sT = window.setTimeout.bind(window);
  const cT = window.clearTimeout.bind(window);
  window.setTimeout = (fn, ms, ...a) => {
    const id = sT((...x) => {
      live.timeouts.delete(id);
      if (typeof fn === "function") fn(...x);
    }, ms, ...a);
    live.timeouts.add(id);
    return id;
  };
  window.clearTimeout = (id) => {
    live.timeouts.delete(id);
    cT(id);
  };
  const sI = window.setInterval.bind(window);
  const cI = window.clearInterval.bind(window);
  window.setInterval = (...a) => {
    const id = sI(...a);
    live.intervals.add(id);
    return id;
  };
  window.clearInterval = (id) => {
    live.intervals.delete(id);
    cI(id);
  };
  for (const name of ["MutationObserver", "ResizeObserver", "IntersectionObserver"]) {
    const Orig = window[name];
    window[name] = class extends Orig {
      observe(...a) {
        live.observers.add(this);
        return super.observe(...a);
      }
      disconnect() {
        live.observers.delete(this);
        return super.disconnect();
      }
    };
  }
  const mqAdd = MediaQueryList.prototype.addEventListener;
  const mqRemove = MediaQueryList.prototype.removeEventListener;
  const mqListeners = new Set();
  MediaQueryList.prototype.addEventListener = function (type, fn, o) {
    mqListeners.add(fn);
    live.media = mqListeners.size;
    return mqAdd.call(this, type, fn, o);
  };
  MediaQueryList.prototype.removeEventListener = function (type, fn, o) {
    mqListeners.delete(fn);
    live.media = mqListeners.size;
    return mqRemove.call(this, type, fn, o);
  };
  for (const target of [window, document]) {
    const add = target.addEventListener.bind(target);
    const remove = target.removeEventListener.bind(target);
    target.addEventListener = (t, fn, o) => {
      live.docListeners++;
      return add(t, fn, o);
    };
    target.removeEventListener = (t, fn, o) => {
      live.docListeners--;
      return remove(t, fn, o);
    };
  }
  window.__eoslabViolations = [];
  document.addEventListener("securitypolicyviolation", (e) =>
    window.__eoslabViolations.push(`${e.violatedDirective} ${e.blockedURI} ${e.sourceFile}:${e.lineNumber}`));
};

before(async () => {
  execFileSync("node", [join(ROOT, "scripts/build-dist.mjs")], { stdio: "inherit" });
  server = await startStatic([
    { prefix: PREFIX, dir: DIST, csp: STRICT_CSP },
    { prefix: "/site/eoslab/", dir: DIST, csp: STRICT_CSP },
    { prefix: "/site/", dir: join(ROOT, "examples/plain-html"), csp: STRICT_CSP },
    { prefix: "/fixtures/", dir: join(ROOT, "tests/browser/embed-fixtures"), csp: STRICT_CSP },
  ]);
  userDataDir = mkdtempSync(join(tmpdir(), "eoslab-embed-"));
  context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS, timeout: 30_000, colorScheme: "light",
    viewport: { width: 1000, height: 900 },
  });
  context.setDefaultTimeout(20_000);
  await context.addInitScript(INSTRUMENT);
  await context.route("**/*", (route) => {
    const u = new URL(route.request().url());
    if (u.hostname === "127.0.0.1" || u.protocol === "data:" || u.protocol === "blob:") return route.continue();
    rec.foreign.push(u.href);
    return route.abort();
  });
});

after(async () => {
  await Promise.race([context?.close(), new Promise((r) => setTimeout(r, 10_000))]).catch(() => {});
  await server?.close();
  if (userDataDir) rmSync(userDataDir, { recursive: true, force: true });
});

/** A fresh page with recorders; `path` on the static server. */
async function open(path, { width = 1000 } = {}) {
  rec = { console: [], page: [], foreign: [], responses: [] };
  const page = await context.newPage();
  await page.setViewportSize({ width, height: 900 });
  page.on("console", (m) => m.type() === "error" && rec.console.push(m.text()));
  page.on("pageerror", (e) => rec.page.push(String(e)));
  page.on("response", (r) => rec.responses.push(r));
  await page.goto(server.url + path, { waitUntil: "load" });
  return page;
}

const violations = (page) => page.evaluate(() => window.__eoslabViolations);

/** Waits until `sel` (a <kafka-batch>) shows its field table. */
const batchReady = (page, sel) =>
  page.locator(`${sel} tr[data-field="producerId"]`).first().waitFor();
const ladderReady = (page, sel) => page.waitForFunction((s) => (document.querySelector(s)?.steps ?? 0) > 0, sel);
const timelineReady = (page, sel) => page.waitForFunction((s) => (document.querySelector(s)?.steps ?? 0) > 0, sel);

test("examples/plain-html under the strict CSP: elements and fences render, no violation, no error, nothing off-host", { timeout: 90_000 }, async () => {
  const page = await open("/site/", { width: 760 });
  await batchReady(page, "#inspector");
  await ladderReady(page, "#ladder");
  await timelineReady(page, "#timeline");
  // The three fences became elements, their sources hidden (kept as the no-JS fallback).
  await page.waitForFunction(() => document.querySelectorAll("[data-eoslab-fence='source'][hidden]").length === 3);
  const kinds = await page.evaluate(() => [...document.querySelectorAll("[data-eoslab-fence]:not([data-eoslab-fence='source'])")].map((e) => e.localName));
  assert.deepEqual(kinds.sort(), ["kafka-batch", "kafka-ladder", "kafka-producer-config"]);
  await page.locator('kafka-batch[data-eoslab-fence] #compact-head, kafka-batch[data-eoslab-fence] .compact-head').first().waitFor();
  await page.waitForFunction(() => /COMMIT/.test(document.querySelector("kafka-batch[data-eoslab-fence]").shadowRoot.querySelector(".compact-head").textContent));
  await page.waitForFunction(() => (document.querySelector("kafka-ladder[data-eoslab-fence]")?.steps ?? 0) === 2);
  await page.waitForFunction(() => /idempotence/i.test(document.querySelector("kafka-producer-config[data-eoslab-fence]").shadowRoot.textContent));
  // The elements' own wasm, fetched under the site's prefix, once each.
  const wasm = rec.responses.map((r) => new URL(r.url()).pathname).filter((p) => p.endsWith(".wasm"));
  assert.deepEqual([...new Set(wasm)].sort(), ["/site/eoslab/pkg/eoslab-decode_bg.wasm", "/site/eoslab/pkg/eoslab_bg.wasm"]);
  assert.equal(wasm.length, new Set(wasm).size, `each wasm fetched once: ${wasm}`);
  assert.deepEqual(await violations(page), []);
  assert.deepEqual(rec.console, []);
  assert.deepEqual(rec.page, []);
  assert.deepEqual(rec.foreign, []);
  await page.close();
});
