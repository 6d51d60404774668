// Embedding: dist/eoslab (built here by scripts/build-dist.mjs from www/ and pkg/) served under a
// deep path prefix by a plain static server, examples/plain-html under the strict CSP, themes,
// code fences, two instances, mount/unmount without leaks, compact sizes at a 690 px column.
// The MkDocs example has its own file (embed-mkdocs.test.mjs).
// Run: node --test tests/browser/embed.test.mjs      (needs `make pkg` and /usr/bin/chromium)
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { deflateRawSync } from "node:zlib";
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
  // The five fences became elements, their sources hidden (kept as the no-JS fallback).
  await page.waitForFunction(() => document.querySelectorAll("[data-eoslab-fence='source'][hidden]").length === 5);
  const kinds = await page.evaluate(() => [...document.querySelectorAll("[data-eoslab-fence]:not([data-eoslab-fence='source'])")].map((e) => `${e.localName}:${e.getAttribute("data-eoslab-fence")}`));
  assert.deepEqual(kinds.sort(), ["kafka-batch:kafka-batch", "kafka-ladder:kafka-ladder", "kafka-ladder:kafka-scenario", "kafka-producer-config:kafka-config", "kafka-timeline:kafka-timeline"]);
  // A fence that names its view: an idempotence script on the timeline's lanes (the retry answered
  // A1), and a transactions scenario as the ladder's sequence diagram (its lanes are the lanes of
  // the timeline's report: the producer, the coordinator, the partition leader).
  await page.waitForFunction(() => document.querySelector("kafka-timeline[data-eoslab-fence]")?.report?.model === "idempotence");
  assert.equal(await page.evaluate(() => document.querySelector("kafka-timeline[data-eoslab-fence]").report.steps.some((s) => s.messages.some((m) => m.rule === "A1"))), true);
  await page.waitForFunction(() => (document.querySelector('kafka-ladder[data-eoslab-fence="kafka-ladder"]')?.steps ?? 0) > 5);
  assert.equal(await page.evaluate(() => document.querySelector('kafka-ladder[data-eoslab-fence="kafka-ladder"]').getAttribute("scenario")), "txn-commit-response-lost");
  assert.deepEqual(await page.evaluate(() => { const r = document.querySelector('kafka-ladder[data-eoslab-fence="kafka-ladder"]').run; return [r.model, r.lanes.some((l) => l.kind === "coordinator")]; }), ["transactions", true]);
  await page.locator('kafka-batch[data-eoslab-fence] #compact-head, kafka-batch[data-eoslab-fence] .compact-head').first().waitFor();
  await page.waitForFunction(() => /COMMIT/.test(document.querySelector("kafka-batch[data-eoslab-fence]").shadowRoot.querySelector(".compact-head").textContent));
  await page.waitForFunction(() => (document.querySelector('kafka-ladder[data-eoslab-fence="kafka-scenario"]')?.steps ?? 0) === 2);
  await page.waitForFunction(() => /idempotence/i.test(document.querySelector("kafka-producer-config[data-eoslab-fence]").shadowRoot.textContent));
  // The elements' own wasm, fetched under the site's prefix, once each.
  const wasm = rec.responses.map((r) => new URL(r.url()).pathname).filter((p) => p.endsWith(".wasm"));
  // A page with model elements: the inspector shares their full package (one wasm module, once).
  assert.deepEqual(wasm, ["/site/eoslab/pkg/eoslab_bg.wasm"]);
  assert.deepEqual(await violations(page), []);
  assert.deepEqual(rec.console, []);
  assert.deepEqual(rec.page, []);
  assert.deepEqual(rec.foreign, []);
  await page.close();
});

/** The host element's background colour ("rgb(…)"), which the dark palette changes. */
const bg = (page, sel) => page.evaluate((s) => getComputedStyle(document.querySelector(s)).backgroundColor, sel);
const LIGHT = "rgb(255, 255, 255)";
const DARK = "rgb(13, 17, 23)";

test("Docusaurus-shaped fences (token lines, <br>) upgrade; html[data-theme] switches the theme, the theme attribute wins", { timeout: 90_000 }, async () => {
  const page = await open("/fixtures/docusaurus.html");
  await page.waitForFunction(() => document.querySelectorAll("[data-eoslab-fence='source'][hidden]").length === 4);
  const batch = "kafka-batch[data-eoslab-fence]";
  await batchReady(page, batch);
  assert.equal((await page.locator(`${batch} tr[data-field="producerId"] td`).first().textContent()).trim(), "4242");
  // The xxd dump (neither hex nor base64) went through load(): the same 70 bytes.
  await page.waitForFunction(() => document.querySelectorAll("kafka-batch[data-eoslab-fence]")[1]?.bytes.length === 70);
  assert.equal(await page.evaluate(() => [...document.querySelectorAll("kafka-batch[data-eoslab-fence]")[1].bytes].map((b) => b.toString(16).padStart(2, "0")).join(" ")), EXAMPLE_A_HEX);
  await page.waitForFunction(() => document.querySelector("kafka-ladder[data-eoslab-fence]")?.steps === 1);
  await page.waitForFunction(() => /acks/.test(document.querySelector("kafka-producer-config[data-eoslab-fence]").getAttribute("properties")));
  assert.equal(await page.evaluate(() => document.querySelector("kafka-producer-config[data-eoslab-fence]").getAttribute("properties")), "acks=all\nenable.idempotence=false\n");
  const tags = [batch, "kafka-ladder[data-eoslab-fence]", "kafka-producer-config[data-eoslab-fence]"];
  for (const t of tags) assert.equal(await bg(page, t), LIGHT, `${t} light`);
  // Docusaurus' toggle: <html data-theme="dark">.
  await page.evaluate(() => document.documentElement.setAttribute("data-theme", "dark"));
  for (const t of tags) await page.waitForFunction((s) => getComputedStyle(document.querySelector(s)).backgroundColor === "rgb(13, 17, 23)", t);
  // The ladder's canvas is redrawn in the dark palette too.
  const draws = await page.evaluate(() => document.querySelector("kafka-ladder").renderStats.draws);
  await page.evaluate(() => document.documentElement.setAttribute("data-theme", "light"));
  await page.waitForFunction((n) => document.querySelector("kafka-ladder").renderStats.draws > n, draws);
  for (const t of tags) await page.waitForFunction((s) => getComputedStyle(document.querySelector(s)).backgroundColor === "rgb(255, 255, 255)", t);
  // theme="dark" on one element: only that one; theme="auto" gives it back to the page.
  await page.evaluate((s) => document.querySelector(s).setAttribute("theme", "dark"), batch);
  await page.waitForFunction((s) => getComputedStyle(document.querySelector(s)).backgroundColor === "rgb(13, 17, 23)", batch);
  assert.equal(await bg(page, "kafka-ladder[data-eoslab-fence]"), LIGHT);
  await page.evaluate((s) => document.querySelector(s).setAttribute("theme", "auto"), batch);
  await page.waitForFunction((s) => getComputedStyle(document.querySelector(s)).backgroundColor === "rgb(255, 255, 255)", batch);
  // No page flag: prefers-color-scheme decides; theme="light" overrides it.
  await page.evaluate(() => document.documentElement.removeAttribute("data-theme"));
  await page.emulateMedia({ colorScheme: "dark" });
  for (const t of tags) await page.waitForFunction((s) => getComputedStyle(document.querySelector(s)).backgroundColor === "rgb(13, 17, 23)", t);
  await page.evaluate((s) => document.querySelector(s).setAttribute("theme", "light"), batch);
  await page.waitForFunction((s) => getComputedStyle(document.querySelector(s)).backgroundColor === "rgb(255, 255, 255)", batch);
  await page.emulateMedia({ colorScheme: "light" });
  // A host page's override of a documented custom property.
  await page.evaluate(() => document.querySelector("kafka-ladder").style.setProperty("--eoslab-bg", "rgb(1, 2, 3)"));
  assert.equal(await bg(page, "kafka-ladder"), "rgb(1, 2, 3)");
  assert.deepEqual(await violations(page), []);
  assert.deepEqual(rec.console, []);
  assert.deepEqual(rec.page, []);
  assert.deepEqual(rec.foreign, []);
  await page.close();
});

test("MkDocs Material's flag (body[data-md-color-scheme=slate]) switches the theme", { timeout: 60_000 }, async () => {
  const page = await open("/fixtures/blank.html");
  await page.evaluate((hex) => {
    document.body.setAttribute("data-md-color-scheme", "default");
    const b = document.createElement("kafka-batch");
    b.setAttribute("readonly", "");
    b.setAttribute("compact", "");
    b.setAttribute("hex", hex);
    const t = document.createElement("kafka-timeline");
    t.setAttribute("compact", "");
    t.setAttribute("scenario", "txn-zombie-fenced");
    document.getElementById("col").append(b, t);
  }, EXAMPLE_A_HEX);
  await batchReady(page, "kafka-batch");
  await timelineReady(page, "kafka-timeline");
  assert.equal(await bg(page, "kafka-batch"), LIGHT);
  assert.equal(await bg(page, "kafka-timeline"), LIGHT);
  await page.evaluate(() => document.body.setAttribute("data-md-color-scheme", "slate"));
  await page.waitForFunction(() => ["kafka-batch", "kafka-timeline"].every((s) => getComputedStyle(document.querySelector(s)).backgroundColor === "rgb(13, 17, 23)"));
  // The timeline's canvas follows: its background pixel is dark.
  await page.waitForFunction(() => {
    const c = document.querySelector("kafka-timeline").shadowRoot.querySelector("canvas");
    const [r, g, b] = c.getContext("2d", { willReadFrequently: true }).getImageData(c.width - 4, c.height - 4, 1, 1).data;
    return r + g + b < 150;
  });
  // An inspector inside another element's shadow root (a timeline's record dialog) follows the page too,
  // and the theme of the eoslab element it sits in.
  const nestedBg = () => page.evaluate(() => getComputedStyle(document.getElementById("shadowed").shadowRoot.querySelector("kafka-batch")).backgroundColor);
  await page.evaluate((hex) => {
    const host = document.createElement("div");
    host.id = "shadowed";
    document.getElementById("col").append(host);
    const inner = document.createElement("kafka-batch");
    inner.setAttribute("hex", hex);
    host.attachShadow({ mode: "open" }).append(inner);
  }, EXAMPLE_A_HEX);
  assert.equal(await nestedBg(), DARK);
  await page.evaluate(() => document.body.setAttribute("data-md-color-scheme", "default"));
  await page.waitForFunction(() => ["kafka-batch", "kafka-timeline"].every((s) => getComputedStyle(document.querySelector(s)).backgroundColor === "rgb(255, 255, 255)"));
  await page.waitForFunction(() => getComputedStyle(document.getElementById("shadowed").shadowRoot.querySelector("kafka-batch")).backgroundColor === "rgb(255, 255, 255)");
  const timeline = await page.evaluate(() => {
    const inner = document.createElement("kafka-batch");
    document.querySelector("kafka-timeline").setAttribute("theme", "dark");
    document.querySelector("kafka-timeline").shadowRoot.append(inner);
    return getComputedStyle(inner).backgroundColor;
  });
  assert.equal(timeline, DARK, "an inspector inside <kafka-timeline theme=dark> is dark");
  assert.deepEqual(await violations(page), []);
  assert.deepEqual(rec.console, []);
  assert.deepEqual(rec.page, []);
  await page.close();
});

test("two instances of each element work independently", { timeout: 90_000 }, async () => {
  const page = await open("/fixtures/blank.html");
  const C_B64 = "AAAAAAAAAAoAAABCAAAAAwKrFEmyADAAAAAAAAABi8/lafQAAAGLz+Vp9AAAAAAAABCSAAH/////AAAAASAAAAAIAAAAAQwAAAAAAAcA";
  await page.evaluate(([hex, b64]) => {
    const mk = (tag, attrs) => {
      const e = document.createElement(tag);
      for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
      document.getElementById("col").append(e);
    };
    mk("kafka-batch", { id: "b1", readonly: "", compact: "", hex });
    mk("kafka-batch", { id: "b2", readonly: "", compact: "", base64: b64 });
    mk("kafka-timeline", { id: "t1", compact: "", scenario: "txn-zombie-fenced" });
    mk("kafka-timeline", { id: "t2", compact: "", scenario: "txn-commit-two-partitions" });
    mk("kafka-ladder", { id: "l1", compact: "", scenario: "lost-response-retry" });
    mk("kafka-ladder", { id: "l2", compact: "", scenario: "epoch-bump" });
  }, [EXAMPLE_A_HEX, C_B64]);
  await batchReady(page, "#b1");
  await batchReady(page, "#b2");
  for (const id of ["#t1", "#t2", "#l1", "#l2"]) await page.waitForFunction((s) => document.querySelector(s).steps > 0, id);
  const head = (s) => page.evaluate((x) => document.querySelector(x).shadowRoot.querySelector(".compact-head").textContent, s);
  assert.match(await head("#b1"), /producerId4242/);
  assert.match(await head("#b2"), /markerCOMMIT/);
  const steps = () => page.evaluate(() => ["#t1", "#t2", "#l1", "#l2"].map((s) => [document.querySelector(s).step, document.querySelector(s).steps]));
  const before = await steps();
  const titles = await page.evaluate(() => ["#t1", "#t2", "#l1", "#l2"].map((s) => document.querySelector(s).shadowRoot.querySelector(".title").textContent));
  assert.equal(new Set(titles).size, 4, `each shows its own scenario: ${titles}`);
  await page.evaluate(() => document.querySelector("#t1").goTo(0));
  await page.evaluate(() => document.querySelector("#l2").goTo(1));
  const afterSteps = await steps();
  assert.equal(afterSteps[0][0], 0);
  assert.deepEqual(afterSteps[1], before[1]);
  assert.deepEqual(afterSteps[2], before[2]);
  assert.equal(afterSteps[3][0], 1);
  // One wasm fetch for all six (the inspectors share the models' full package).
  const wasm = rec.responses.map((r) => new URL(r.url()).pathname).filter((p) => p.endsWith(".wasm"));
  assert.deepEqual(wasm, [`${PREFIX}pkg/eoslab_bg.wasm`]);
  assert.deepEqual(rec.console, []);
  assert.deepEqual(rec.page, []);
  await page.close();
});

test("remove and re-add: no timers, intervals, observers or listeners left behind; renders again", { timeout: 120_000 }, async () => {
  const page = await open("/fixtures/blank.html");
  const counts = () => page.evaluate(async () => {
    // Let queued timeouts (debounces, live-region delays) run out first.
    await new Promise((r) => setTimeout(r, 400));
    const l = window.__eoslabLeaks;
    return { timeouts: l.timeouts.size, intervals: l.intervals.size, observers: l.observers.size, media: l.media, docListeners: l.docListeners };
  });
  await page.waitForFunction(() => customElements.get("kafka-timeline") && customElements.get("kafka-batch"));
  const baseline = await counts();
  // eoslab.js registered every element, but with none on the page no wasm has been fetched.
  assert.deepEqual(rec.responses.map((r) => r.url()).filter((u) => u.endsWith(".wasm")), [], "wasm only on first use");
  await page.evaluate((hex) => {
    const els = [];
    const mk = (tag, attrs) => {
      const e = document.createElement(tag);
      for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
      els.push(e);
    };
    mk("kafka-batch", { hex, compact: "" });
    mk("kafka-timeline", { compact: "", scenario: "txn-zombie-fenced" });
    mk("kafka-ladder", { compact: "", scenario: "lost-response-retry" });
    mk("kafka-producer-config", { properties: "acks=1\n" });
    window.__els = els;
    document.getElementById("col").append(...els);
  }, EXAMPLE_A_HEX);
  const ready = async () => {
    await batchReady(page, "kafka-batch");
    await page.waitForFunction(() => document.querySelector("kafka-timeline")?.steps > 0 && document.querySelector("kafka-ladder")?.steps > 0);
    await page.waitForFunction(() => document.querySelector("kafka-producer-config")?.result);
  };
  await ready();
  const mounted = await counts();
  assert.ok(mounted.observers > baseline.observers && mounted.media > baseline.media, `mounted elements observe: ${JSON.stringify(mounted)}`);
  for (let round = 0; round < 2; round++) {
    // Playing (an interval), a hovered byte and a typed edit pending (timeouts), then removed.
    await page.evaluate(() => {
      document.querySelector("kafka-timeline").goTo(0);
      document.querySelector("kafka-timeline").play();
      document.querySelector("kafka-ladder").goTo(0);
      document.querySelector("kafka-ladder").play();
    });
    assert.ok((await page.evaluate(() => window.__eoslabLeaks.intervals.size)) >= 2);
    await page.evaluate(() => window.__els.forEach((e) => e.remove()));
    assert.deepEqual(await counts(), baseline, `round ${round}: after removal`);
    const draws = await page.evaluate(() => window.__els.map((e) => e.renderStats?.draws ?? 0));
    await page.evaluate(() => document.getElementById("col").append(...window.__els));
    await ready();
    // The canvases draw again once back in the document.
    await page.waitForFunction((d) => window.__els.every((e, i) => !e.renderStats || e.renderStats.draws > d[i]), draws);
    await page.evaluate(() => document.querySelector("kafka-timeline").pause());
    await page.evaluate(() => document.querySelector("kafka-ladder").pause());
    assert.deepEqual(await counts(), mounted, `round ${round}: re-added`);
  }
  await page.evaluate(() => window.__els.forEach((e) => e.remove()));
  assert.deepEqual(await counts(), baseline, "finally removed");
  assert.deepEqual(rec.console, []);
  assert.deepEqual(rec.page, []);
  await page.close();
});

test("compact at a 690 px column: inspector under 600 px tall, the ladder's lane labels whole, the timeline's logs with room, no page overflow", { timeout: 90_000 }, async () => {
  const page = await open("/site/", { width: 722 }); // body: 690 px of content
  await batchReady(page, "#inspector");
  await ladderReady(page, "#ladder");
  await timelineReady(page, "#timeline");
  await page.waitForFunction(() => ["#ladder", "#timeline"].every((s) => document.querySelector(s).renderStats.draws > 0));
  const m = await page.evaluate(() => {
    const box = (s) => {
      const e = document.querySelector(s);
      const r = e.getBoundingClientRect();
      return { width: r.width, height: r.height, scrollWidth: e.scrollWidth, clientWidth: e.clientWidth, truncated: e.renderStats?.truncatedLabels ?? 0 };
    };
    const inspector = document.querySelector("#inspector").shadowRoot;
    return {
      inspector: box("#inspector"), ladder: box("#ladder"), timeline: box("#timeline"),
      pageOverflow: document.documentElement.scrollWidth - document.documentElement.clientWidth,
      headings: [...inspector.querySelectorAll("h3, h4")].filter((h) => h.offsetParent !== null).map((h) => h.textContent),
      noErrorsShown: [...inspector.querySelectorAll("#errors p")].some((p) => p.offsetParent !== null && /No errors/.test(p.textContent)),
      headFields: inspector.querySelector(".compact-head").textContent,
      fieldTableShown: inspector.querySelector("#fields").offsetParent !== null,
      mapShown: inspector.querySelector(".hg-view").offsetParent !== null,
    };
  });
  assert.equal(Math.round(m.inspector.width), 690);
  assert.ok(m.inspector.height < 600, `inspector ${m.inspector.height} px tall`);
  assert.deepEqual(m.headings, []);
  assert.equal(m.noErrorsShown, false);
  assert.match(m.headFields, /producerId4242.*producerEpoch1.*baseSequence7/);
  assert.ok(m.fieldTableShown && m.mapShown);
  for (const k of ["inspector", "ladder", "timeline"]) assert.ok(m[k].scrollWidth <= m[k].clientWidth, `${k} does not overflow: ${JSON.stringify(m[k])}`);
  assert.equal(m.ladder.truncated, 0);
  // The timeline's lane names take at most 35% of a narrow drawing: a longer one (the coordinator
  // with its __transaction_state partitions) is abbreviated, whole in its tooltip, so that the
  // logs keep their room (they had been squeezed to a few offsets by a gutter of ~430 px).
  const tl = await page.evaluate(() => { const s = document.querySelector("#timeline").renderStats; return { gutterW: s.gutterW, logW: s.logW }; });
  assert.ok(tl.gutterW <= 0.35 * 690 + 1 && tl.logW >= 200, JSON.stringify(tl));
  assert.equal(m.pageOverflow, 0);
  await page.close();
});

test("a per-element entry alone (kafka-batch.js under a deep prefix, strict CSP) loads only the decode-only wasm", { timeout: 60_000 }, async () => {
  const page = await open("/fixtures/batch-only.html", { width: 722 });
  await batchReady(page, "kafka-batch");
  const paths = rec.responses.map((r) => new URL(r.url()).pathname);
  assert.deepEqual(paths.filter((p) => p.endsWith(".wasm")), [`${PREFIX}pkg/eoslab-decode_bg.wasm`]);
  assert.ok(!paths.some((p) => /kafka-(timeline|ladder|producer-config)(\.js$|\/)/.test(p)), "no other element's module");
  // The entry is one bundled module (make dist): it and the decode-only glue beside it are all the
  // JavaScript the page fetches.
  assert.deepEqual(paths.filter((p) => /\.m?js$/.test(p)).sort(), [`${PREFIX}kafka-batch.js`, `${PREFIX}pkg/eoslab-decode.js`]);
  assert.deepEqual(await violations(page), []);
  assert.deepEqual(rec.console, []);
  assert.deepEqual(rec.page, []);
  await page.close();
});

test("dist/eoslab is an npm package of the elements, wasm, scenarios and their pre-built runs only (npm pack --dry-run)", { timeout: 60_000 }, () => {
  const out = execFileSync("npm", ["pack", "--dry-run", "--json", "--ignore-scripts"], { cwd: DIST, encoding: "utf8", env: { ...process.env, npm_config_loglevel: "silent" } });
  const [info] = JSON.parse(out);
  const files = info.files.map((f) => f.path).sort();
  assert.equal(info.name, "eoslab");
  for (const f of ["eoslab.js", "eoslab-fences.js", "kafka-batch.js", "kafka-ladder.js", "kafka-timeline.js", "kafka-producer-config.js",
    "prebuild.mjs", "runs/kafka-timeline/txn-zombie-fenced.json", "runs/kafka-ladder/lost-response-retry.json",
    "decode-worker.js", "frame.html", "frame.js", "package.json", "pkg/eoslab_bg.wasm", "pkg/eoslab-decode_bg.wasm", "scenarios/index.json", "scenarios/txn-zombie-fenced.eos"]) {
    assert.ok(files.includes(f), `${f} is packed`);
  }
  const unexpected = files.filter((f) => !/^(eoslab|eoslab-fences|kafka-[a-z-]+|decode-worker|frame)\.js$|^frame\.html$|^package\.json$|^prebuild\.mjs$|^runs\/kafka-(timeline|ladder)\/[a-z0-9.-]+\.json$|^pkg\/eoslab(-decode|-files)?(_bg\.wasm|\.js)$|^scenarios\/([a-z0-9.-]+\.eos|index\.json)$/.test(f));
  assert.deepEqual(unexpected, [], "no demo pages (only the iframe fallback's frame.html), no .d.ts, nothing else");
  const pkg = JSON.parse(readFileSync(join(DIST, "package.json"), "utf8"));
  assert.equal(pkg.exports["."], "./eoslab.js");
  for (const [k, v] of Object.entries(pkg.exports)) if (!k.includes("*")) assert.ok(existsSync(join(DIST, v)), `exports ${k} → ${v} exists`);
});

test("a ladder with many long lane names at 690 px: names whole, the ladder scrolls sideways inside the element", { timeout: 60_000 }, async () => {
  const page = await open("/fixtures/blank.html");
  const script = [
    "partition payments-ledger-eu-west-0", "partition payments-ledger-eu-west-1", "partition payments-ledger-us-east-0",
    "producer checkout-service-instance-a", "producer checkout-service-instance-b",
    "send checkout-service-instance-a payments-ledger-eu-west-0 x", "send checkout-service-instance-b payments-ledger-us-east-0 y",
  ].join("\n");
  await page.evaluate((text) => {
    const l = document.createElement("kafka-ladder");
    l.setAttribute("compact", "");
    l.setAttribute("script", text);
    document.getElementById("col").append(l);
  }, script);
  await page.waitForFunction(() => document.querySelector("kafka-ladder").steps === 2 && document.querySelector("kafka-ladder").renderStats.draws > 0);
  const m = await page.evaluate(() => {
    const l = document.querySelector("kafka-ladder");
    const vp = l.shadowRoot.querySelector(".viewport");
    return { truncated: l.renderStats.truncatedLabels, host: [l.scrollWidth, l.clientWidth], vp: [vp.scrollWidth, vp.clientWidth],
      page: document.documentElement.scrollWidth - document.documentElement.clientWidth };
  });
  assert.equal(m.truncated, 0);
  assert.ok(m.vp[0] > m.vp[1], `the ladder scrolls inside: ${m.vp}`);
  assert.ok(m.host[0] <= m.host[1], `the element itself does not overflow: ${m.host}`);
  assert.equal(m.page, 0);
  // The lane names are drawn whole on the canvas.
  assert.deepEqual(rec.console, []);
  assert.deepEqual(rec.page, []);
  await page.close();
});

/** `#s=1.…` of `state`, as lib/link-state.js writes it (deflate-raw, base64url). */
const stateHash = (state) =>
  `#s=1.${deflateRawSync(Buffer.from(JSON.stringify(state))).toString("base64").replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "")}`;

test("the iframe fallback: frame.html shows one element from its hash, under the strict CSP, and sizes its iframe", { timeout: 90_000 }, async () => {
  const page = await open("/fixtures/frame-host.html", { width: 760 });
  const frame = (id) => page.frameLocator(`#${id}`);
  const inFrame = async (id, fn, arg) => (await (await page.$(`#${id}`)).contentFrame()).evaluate(fn, arg);
  const waitIn = async (id, fn, arg) => (await (await page.$(`#${id}`)).contentFrame()).waitForFunction(fn, arg);
  // A hand-written hash: the timeline at story step 2, compact and read-only by default.
  await waitIn("timeline", () => document.body.dataset.ready === "1" && (document.querySelector("kafka-timeline")?.steps ?? 0) > 0);
  const t = await inFrame("timeline", () => {
    const el = document.querySelector("kafka-timeline");
    return { step: el.step, scenario: el.getAttribute("scenario"), compact: el.hasAttribute("compact"), readonly: el.hasAttribute("readonly") };
  });
  assert.deepEqual(t, { step: 2, scenario: "txn-zombie-fenced", compact: true, readonly: true });
  await frame("batch").locator('kafka-batch tr[data-field="producerId"]').first().waitFor();
  // Each iframe is as tall as its content: the host's listener applied the frame's posted height.
  for (const id of ["timeline", "batch"]) {
    await page.waitForFunction((i) => {
      const f = document.getElementById(i);
      const h = Number(f.contentDocument?.body?.dataset.height ?? -1);
      return h > 100 && Math.abs(f.getBoundingClientRect().height - h) <= 1;
    }, id);
  }
  // A share link's state (the transactions page's, the inspector's with a selected field) opens the same moment.
  await page.evaluate((hash) => { document.getElementById("timeline").src = `/site/eoslab/frame.html${hash}`; },
    stateHash({ v: 1, page: "transactions", scenario: "txn-commit-two-partitions", step: 3 }));
  await waitIn("timeline", () => document.querySelector("kafka-timeline")?.getAttribute("scenario") === "txn-commit-two-partitions" && document.querySelector("kafka-timeline").steps > 0);
  assert.equal(await inFrame("timeline", () => document.querySelector("kafka-timeline").step), 3);
  const bytes = Buffer.from(EXAMPLE_A_HEX.replace(/ /g, ""), "hex").toString("base64");
  await page.evaluate((hash) => { document.getElementById("batch").src = `/site/eoslab/frame.html${hash}`; },
    stateHash({ v: 1, page: "inspector", bytes, batch: 0, field: "producerEpoch" }));
  await waitIn("batch", () => document.querySelector("kafka-batch")?.selectedField === "producerEpoch");
  // A hash that names nothing the frame knows: a message, as text, no element.
  await page.evaluate(() => { document.getElementById("batch").src = "/site/eoslab/frame.html#kafka-batch?hex=00&onload=alert(1)"; });
  await waitIn("batch", () => document.body.dataset.ready === "1" && !!document.querySelector(".frame-error"));
  assert.match(await inFrame("batch", () => document.querySelector(".frame-error").textContent), /no attribute “onload”/);
  for (const id of ["timeline", "batch"]) assert.deepEqual(await inFrame(id, () => window.__eoslabViolations), []);
  assert.deepEqual(await violations(page), []);
  assert.deepEqual(rec.console, []);
  assert.deepEqual(rec.page, []);
  assert.deepEqual(rec.foreign, []);
  await page.close();
});
