// Browser tests of <kafka-timeline> on www/transactions.html, in Debian's Chromium driven by
// playwright-core (which downloads no browser), served by scripts/serve.py on 127.0.0.1.
// Run: node --test tests/browser/timeline.test.mjs   (needs `make pkg` and /usr/bin/chromium)
// EOSLAB_SCREENSHOT_DIR=/tmp saves timeline-light.png and timeline-dark.png there.
//
// The tests need the transactions model in pkg/ (runTxnScenario) and at least one scenario whose
// first line is `model transactions`; without them they are skipped, saying why.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { ROOT, launch } from "./helpers.mjs";

const SHOTS = process.env.EOSLAB_SCREENSHOT_DIR;
const SABOTAGE = "read-committed-sees-aborted";

const pkgJs = join(ROOT, "pkg/eoslab.js");
const HAVE_MODEL = existsSync(pkgJs) && readFileSync(pkgJs, "utf8").includes("runTxnScenario");
/** `model transactions` as the first directive (comments and blank lines before it are fine). */
const isTxn = (text) =>
  text.split("\n").map((l) => l.split("#")[0].trim()).find((l) => l)?.split(/\s+/).join(" ") === "model transactions";
const TXN_SCENARIOS = readdirSync(join(ROOT, "scenarios"))
  .filter((f) => f.endsWith(".eos") && isTxn(readFileSync(join(ROOT, "scenarios", f), "utf8")))
  .map((f) => f.replace(/\.eos$/, ""))
  .sort();
const SKIP = !HAVE_MODEL
  ? "pkg/eoslab.js has no runTxnScenario (build pkg/ with the transactions model)"
  : TXN_SCENARIOS.length === 0
    ? "no scenarios/*.eos starts with `model transactions`"
    : false;

let lab; // {baseUrl, context, page, consoleErrors, pageErrors, foreignRequests, dialogs, close}
let baseUrl;
let page;

before(async () => {
  if (SKIP) return;
  lab = await launch({ colorScheme: "light", viewport: { width: 1400, height: 1000 } });
  ({ baseUrl, page } = lab);
});

after(async () => {
  await lab?.close();
});

/** The state the page's link holds (lib/link-state.js) once it matches `want` (polled: the page writes it after a step). */
async function linkState(page, want) {
  let s = null;
  for (let i = 0; i < 100; i++) {
    s = await page.evaluate(async () => (await (await import("/www/lib/link-state.js")).decodeState())?.state ?? null);
    if (s && Object.entries(want).every(([k, v]) => (v === undefined ? !(k in s) : s[k] === v))) return s;
    await page.waitForTimeout(100);
  }
  throw new Error(`the link never held ${JSON.stringify(want)}: ${JSON.stringify(s)?.slice(0, 300)}`);
}

// --- helpers ---------------------------------------------------------------------------------

/** The page's scenario list in order (the default scenario is the first). */
function pageScenarios() {
  const index = JSON.parse(readFileSync(join(ROOT, "scenarios/index.json"), "utf8"));
  const hasModel = index.some((e) => typeof e.model === "string");
  return hasModel ? index.filter((e) => e.model === "transactions").map((e) => e.name) : index.map((e) => e.name);
}

/** Opens transactions.html (optionally on a scenario, with a query) and waits until the timeline has run. */
async function openPage({ name = null, query = "" } = {}) {
  await page.goto("about:blank");
  await page.goto(`${baseUrl}/www/transactions.html${query}${name ? `#scenario=${name}` : ""}`, { waitUntil: "load" });
  await page.waitForSelector('body[data-ready="1"]');
  await page.waitForFunction(
    (n) => {
      const t = document.querySelector("kafka-timeline");
      return t && (!n || t.getAttribute("scenario") === n) && t.steps > 0 && t.report;
    },
    name,
  );
}

const tlState = () =>
  page.evaluate(() => {
    const t = document.querySelector("kafka-timeline");
    return { step: t.step, steps: t.steps, attr: t.getAttribute("step"), script: t.script, passed: t.report?.passed };
  });

/** The story step (0-based; `expect` lines are checks, not steps) that shows report step `i`. */
const storyOf = (i) => page.evaluate((i) => document.querySelector("kafka-timeline").storyStepOf(i), i);

async function goTo(k) {
  await page.evaluate((k) => document.querySelector("kafka-timeline").setAttribute("step", String(k)), k);
  await page.waitForFunction((k) => document.querySelector("kafka-timeline").step === k, k);
}

/** Text of the narration, state and invariants panels and a hash of the canvas pixels, after the frame is drawn. */
const snapshot = () =>
  page.evaluate(async () => {
    const t = document.querySelector("kafka-timeline");
    await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
    const root = t.shadowRoot;
    const c = root.querySelector("canvas");
    const data = c.getContext("2d", { willReadFrequently: true }).getImageData(0, 0, c.width, c.height).data;
    let hash = 0x811c9dc5;
    for (let i = 0; i < data.length; i++) hash = Math.imul(hash ^ data[i], 0x01000193) >>> 0;
    return {
      step: t.step,
      now: root.querySelector(".now").textContent,
      state: root.querySelector(".state").textContent,
      invariants: root.querySelector(".invariants").textContent,
      canvas: `${c.width}x${c.height}:${hash.toString(16)}`,
    };
  });

const clickAction = (action) => page.click(`kafka-timeline button[data-action="${action}"]`);

// --- tests -----------------------------------------------------------------------------------

test("the page lists the transaction scenarios and loads the default one", { skip: SKIP, timeout: 60_000 }, async () => {
  await openPage();
  const names = await page.locator("#scenario-list button[data-name]").evaluateAll((bs) => bs.map((b) => b.dataset.name));
  // In two groups: the application's stories, then the request-level ones (txn-request-*).
  const request = (n) => /^txn-request-/.test(n);
  assert.deepEqual(names, [...pageScenarios().filter((n) => !request(n)), ...pageScenarios().filter(request)]);
  const { steps, step } = await tlState();
  assert.equal(step, 0, "stories are told from the start: the default position is step 0");
  // No story step is an `expect` line: those are the checks of the step they follow.
  assert.equal(await page.evaluate(() => { const t = document.querySelector("kafka-timeline"); return t.story.filter((g) => /^expect\b/.test(t.report.steps[g.first].text)).length; }), 0);
  assert.equal(await page.locator("kafka-timeline").getAttribute("scenario"), names[0]);
  assert.match(await page.locator("kafka-timeline .features").textContent(), /transaction\.version [012]/);
});

test("the default scenario steps to completion, forward one step at a time", { skip: SKIP, timeout: 90_000 }, async () => {
  await openPage();
  const { steps, passed } = await tlState();
  assert.ok(steps >= 3, `a real scenario (${steps} steps)`);
  assert.equal(passed, true, "the default scenario's expectations hold");
  const seen = [];
  await page.evaluate(() => {
    window.__steps = [];
    document.querySelector("kafka-timeline").addEventListener("kafka-timeline:step", (e) => window.__steps.push(e.detail.step));
  });
  await goTo(steps - 1);
  await clickAction("first");
  await page.waitForFunction(() => document.querySelector("kafka-timeline").step === 0);
  await page.evaluate(() => (window.__steps = [0])); // the story opens at 0: going there from the end is one more event
  for (let k = 0; k < steps; k++) {
    const now = await page.locator("kafka-timeline .now").textContent();
    assert.match(now, new RegExp(`^Step ${k + 1} of ${steps} · line \\d+: `));
    seen.push(k);
    if (k < steps - 1) {
      await clickAction("forward");
      await page.waitForFunction((k) => document.querySelector("kafka-timeline").step === k + 1, k);
    }
  }
  assert.equal(await page.locator('kafka-timeline button[data-action="forward"]').isDisabled(), true, "at the end, forward is disabled");
  assert.deepEqual(await page.evaluate(() => window.__steps), seen, "one kafka-timeline:step event per step");
  assert.equal((await tlState()).attr, String(steps - 1), "step is reflected");
  // The scrubber follows and drives.
  const scrub = page.locator("kafka-timeline input.scrub");
  assert.equal(await scrub.inputValue(), String(steps - 1));
  await page.evaluate(() => {
    const s = document.querySelector("kafka-timeline").shadowRoot.querySelector("input.scrub");
    s.value = "2"; // as a drag does
    s.dispatchEvent(new Event("input", { bubbles: true }));
  });
  await page.waitForFunction(() => document.querySelector("kafka-timeline").step === 2);
  // Play runs to the end by itself.
  await page.evaluate(() => (document.querySelector("kafka-timeline").interval = 20));
  await clickAction("first");
  await clickAction("play");
  await page.waitForFunction((n) => {
    const t = document.querySelector("kafka-timeline");
    return t.step === n - 1 && !t.playing;
  }, steps);
});

test("back and forward reproduce identical rendered states", { skip: SKIP, timeout: 60_000 }, async () => {
  await openPage();
  const { steps } = await tlState();
  const k = Math.max(1, Math.floor(steps / 2));
  await goTo(k);
  const first = await snapshot();
  await clickAction("back");
  await page.waitForFunction((k) => document.querySelector("kafka-timeline").step === k - 1, k);
  const previous = await snapshot();
  assert.notEqual(previous.now, first.now, "the previous step narrates something else");
  await clickAction("forward");
  await page.waitForFunction((k) => document.querySelector("kafka-timeline").step === k, k);
  const again = await snapshot();
  assert.deepEqual(again, first, "the same step renders the same panels and the same pixels");
  // And every step against a second pass (keyboard this time).
  const pass = [];
  await goTo(0);
  await page.locator("kafka-timeline .viewport").focus();
  for (let i = 0; i < steps; i++) {
    pass.push(await snapshot());
    await page.keyboard.press("ArrowRight");
  }
  for (let i = steps - 1; i >= 0; i--) {
    await goTo(i);
    const s = await snapshot();
    assert.equal(s.state, pass[i].state, `state panel of step ${i}`);
    assert.equal(s.invariants, pass[i].invariants, `invariants of step ${i}`);
    assert.equal(s.now, pass[i].now, `narration of step ${i}`);
  }
});

test("the scrub slider steps with the keyboard: one step per arrow, Home/End, focus kept", { skip: SKIP, timeout: 60_000 }, async () => {
  await openPage({ name: "txn-zombie-fenced" });
  const { steps } = await tlState();
  await goTo(3);
  const scrub = page.locator("kafka-timeline input.scrub");
  await scrub.focus();
  const onSlider = () => page.evaluate(() => document.querySelector("kafka-timeline").shadowRoot.activeElement?.classList.contains("scrub"));
  await page.keyboard.press("ArrowRight");
  await page.waitForFunction(() => document.querySelector("kafka-timeline").step === 4);
  await page.waitForTimeout(50); // a second (native) adjustment would land by now
  assert.equal((await tlState()).step, 4, "ArrowRight moves exactly one step");
  assert.equal(await scrub.inputValue(), "4");
  assert.match(await scrub.getAttribute("aria-valuetext"), new RegExp(`^step 5 of ${steps}: `));
  assert.match(await page.locator("kafka-timeline .now").textContent(), new RegExp(`^Step 5 of ${steps} · `));
  await page.keyboard.press("ArrowLeft");
  await page.keyboard.press("ArrowLeft");
  await page.waitForFunction(() => document.querySelector("kafka-timeline").step === 2);
  await page.keyboard.press("End");
  await page.waitForFunction((n) => document.querySelector("kafka-timeline").step === n - 1, steps);
  await page.keyboard.press("ArrowRight"); // at the end: stays
  await page.keyboard.press("Home");
  await page.waitForFunction(() => document.querySelector("kafka-timeline").step === 0);
  await page.keyboard.press("ArrowLeft"); // at the start: stays
  await page.keyboard.press("ArrowUp");
  await page.waitForFunction(() => document.querySelector("kafka-timeline").step === 1);
  assert.equal(await onSlider(), true, "the slider keeps the focus");
  // While playing, an arrow on the slider pauses and steps.
  await page.evaluate(() => {
    const t = document.querySelector("kafka-timeline");
    t.interval = 60_000;
    t.play();
  });
  await page.keyboard.press("ArrowRight");
  await page.waitForFunction(() => document.querySelector("kafka-timeline").step === 2 && !document.querySelector("kafka-timeline").playing);
});

test("txn-commit-latency-sweep: the commit-latency plot and its table grow with the partitions", { skip: SKIP, timeout: 90_000 }, async (t) => {
  await openPage({ name: "txn-commit-latency-sweep" });
  const { steps } = await tlState();
  await goTo(steps - 1);
  const figure = page.locator("kafka-timeline figure.latency");
  await figure.waitFor();
  const rows = () =>
    figure.locator("tbody tr").evaluateAll((trs) =>
      trs.map((tr) => ({
        partitions: Number(tr.querySelector('[data-col="partitions"]').textContent),
        ms: Number(tr.querySelector('[data-col="ms"]').textContent),
      })),
    );
  const all = await rows();
  assert.equal(all.length, 7, "one row per completed transaction");
  assert.deepEqual(all.map((r) => r.partitions), [1, 2, 5, 10, 20, 50, 100]);
  // Markers to one broker share a request, so with brokers=3 one and two partitions cost the same
  // (each broker gets one marker); from there on every row costs strictly more.
  for (let i = 1; i < all.length; i++) assert.ok(all[i].ms >= all[i - 1].ms, `ms never decreases: ${JSON.stringify(all)}`);
  for (let i = 2; i < all.length; i++) assert.ok(all[i].ms > all[i - 1].ms, `ms strictly increases from 2 partitions on: ${JSON.stringify(all)}`);
  assert.ok(all[6].ms > all[0].ms, "100 partitions take longer than 1");
  const report = await page.evaluate(() => document.querySelector("kafka-timeline").report.completions);
  assert.deepEqual(all, report.map((c) => ({ partitions: c.partitions, ms: c.ms })), "the table is the report's numbers");
  assert.equal(all.at(-1).ms, 75, "the scenario's own expectation: 100 partitions, 75 model ms");
  // The caption says the costs are the model's inputs, as the script set them.
  const caption = await figure.locator("figcaption").textContent();
  assert.match(caption, /cluster rtt=1ms append=2ms brokers=3/);
  assert.match(caption, /model's inputs/);
  // The plot is drawn (HiDPI backing store, something besides the background) and hidden from AT.
  const plot = await page.evaluate(async () => {
    await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
    const c = document.querySelector("kafka-timeline").shadowRoot.querySelector("canvas.latency-plot");
    const d = c.getContext("2d", { willReadFrequently: true }).getImageData(0, 0, c.width, c.height).data;
    const colours = new Set();
    for (let i = 0; i < d.length; i += 4 * 7) colours.add((d[i] << 16) | (d[i + 1] << 8) | d[i + 2]);
    return { w: c.width, cssW: c.clientWidth, h: c.height, cssH: c.clientHeight, dpr: devicePixelRatio, colours: colours.size, hidden: c.getAttribute("aria-hidden") };
  });
  assert.equal(plot.w, Math.round(plot.cssW * plot.dpr));
  assert.equal(plot.h, Math.round(plot.cssH * plot.dpr));
  assert.ok(plot.colours > 3, `the plot has content (${plot.colours} colours)`);
  assert.equal(plot.hidden, "true");
  // Only the completions up to the shown step: the third completes at the 12th step (index 12).
  const third = await page.evaluate(() => {
    const r = document.querySelector("kafka-timeline").report;
    return r.steps.findIndex((s, i) => i > 0 && (s.messages ?? []).some((m) => /CompleteCommit for wide-writer/.test(m.text)) &&
      r.steps.slice(0, i).flatMap((x) => x.messages ?? []).filter((m) => /CompleteCommit for wide-writer/.test(m.text)).length === 2);
  });
  assert.ok(third > 0);
  await goTo((await storyOf(third)) - 1);
  assert.deepEqual((await rows()).map((r) => r.partitions), [1, 2]);
  await goTo(await storyOf(third));
  assert.deepEqual((await rows()).map((r) => r.partitions), [1, 2, 5]);
  assert.match(await figure.locator("tr.now-row").textContent(), /this step/);
  await goTo(0);
  assert.equal(await figure.locator("tbody tr").count(), 0);
  assert.match(await figure.locator(".latency-note").textContent(), /^0 of 7 transactions complete by step 1\./);
  await goTo(steps - 1);
  if (SHOTS) await figure.screenshot({ path: join(SHOTS, "timeline-latency.png") });
  // The metrics table: the counters at this step, as text.
  const metric = (name) => page.locator(`kafka-timeline tr[data-metric="${name}"] td`).first();
  assert.equal(await metric("end-txn-requests").textContent(), "7");
  assert.equal(await metric("fenced-producers").textContent(), "0");
  assert.ok(Number(await metric("write-txn-markers-requests").textContent()) >= 7);
  // A scenario with fewer than two completions shows no plot.
  await openPage({ name: "txn-zombie-fenced" });
  assert.equal(await page.locator("kafka-timeline figure.latency").isHidden(), true);
  // axe-core on the page with the plot and the tables.
  const axePath = join(ROOT, "tests/node_modules/axe-core/axe.min.js");
  assert.ok(existsSync(axePath), `axe-core is missing (${axePath}): it is a devDependency in tests/package.json — run scripts/ensure-test-tools.sh (or npm ci in tests/); the accessibility scan must not be skipped`);
  await openPage({ name: "txn-commit-latency-sweep" });
  await page.evaluate(readFileSync(axePath, "utf8"));
  for (const scheme of ["light", "dark"]) {
    await page.emulateMedia({ colorScheme: scheme });
    const result = await page.evaluate(() => window.axe.run(document, { resultTypes: ["violations"] }));
    const summary = result.violations.map((v) => `${v.id}: ${v.help} (${v.nodes.length}) ${v.nodes.slice(0, 3).map((n) => JSON.stringify(n.target)).join(" ")}`);
    assert.deepEqual(summary, [], `${scheme}: ${summary.join("\n")}`);
  }
  await page.emulateMedia({ colorScheme: "light" });
});

test("a long run's latency table lists the latest 200 completions, and keeps up with back and forward", { skip: SKIP, timeout: 90_000 }, async () => {
  await openPage();
  const lines = ["model transactions", "partition p-0", "producer a transactional.id=t", "init a"];
  for (let i = 0; i < 260; i++) lines.push("begin a", `send a p-0 v${i}`, "commit a", "deliver markers");
  await page.evaluate((script) => document.querySelector("kafka-timeline").setAttribute("script", script), lines.join("\n"));
  const fig = page.locator("kafka-timeline figure.latency");
  await page.waitForFunction(() => document.querySelector("kafka-timeline").steps === 1041);
  const table = async () => page.evaluate(() => {
    const t = document.querySelector("kafka-timeline");
    const rows = [...t.shadowRoot.querySelectorAll("figure.latency tbody tr th")].map((th) => th.textContent);
    return { step: t.step, rows, note: t.shadowRoot.querySelector(".latency-note").textContent };
  });
  const expectWindow = (s, done) => {
    const lo = Math.max(0, done - 200);
    assert.deepEqual(s.rows, Array.from({ length: done - lo }, (_, i) => `#${lo + i + 1}`), `step ${s.step + 1}`);
    if (done > 200) assert.match(s.note, /The table lists the latest 200; the plot shows them all\./);
  };
  await page.evaluate(() => document.querySelector("kafka-timeline").goTo(1040));
  let s = await table();
  assert.match(s.note, /^260 of 260 transactions complete by step 1041\./);
  expectWindow(s, 260);
  // Back by a little (the window slides), by a lot (rebuilt), then forward again.
  for (const [k, done] of [[1000, 250], [400, 100], [900, 225], [1040, 260]]) {
    await page.evaluate((k) => document.querySelector("kafka-timeline").goTo(k), k);
    await page.waitForFunction((k) => document.querySelector("kafka-timeline").step === k, k);
    s = await table();
    assert.match(s.note, new RegExp(`^${done} of 260 transactions complete by step ${k + 1}\\.`));
    expectWindow(s, done);
  }
  assert.equal(await fig.isHidden(), false);
});

test("the embed page shows <kafka-timeline scenario=txn-zombie-fenced> with its steps", { skip: SKIP, timeout: 60_000 }, async () => {
  await page.goto(`${baseUrl}/www/embed-example.html`, { waitUntil: "load" });
  assert.equal(await page.locator('script[src$="kafka-timeline.js"]').count(), 1, "one script tag for the timeline");
  await page.waitForFunction(() => document.getElementById("zombie")?.steps > 0);
  const zombie = page.locator("#zombie");
  const { steps, passed } = await page.evaluate(() => ({ steps: document.getElementById("zombie").steps, passed: document.getElementById("zombie").report.passed }));
  assert.ok(steps >= 10, `the scenario's steps (${steps})`);
  assert.equal(passed, true);
  assert.match(await zombie.locator(".title").textContent(), /\S/);
  // The story opens at its first step; » shows the last.
  assert.match(await zombie.locator(".now").textContent(), new RegExp(`^Step 1 of ${steps} · line \\d+: init `));
  await zombie.locator('button[data-action="last"]').click();
  await page.waitForFunction((n) => document.getElementById("zombie").step === n - 1, steps);
  assert.match(await zombie.locator(".now").textContent(), new RegExp(`^Step ${steps} of ${steps} · `));
  assert.match(await zombie.locator(".state").textContent(), /fenced/);
  await zombie.locator('button[data-action="first"]').click();
  await page.waitForFunction(() => document.getElementById("zombie").step === 0);
  assert.match(await zombie.locator(".now").textContent(), new RegExp(`^Step 1 of ${steps} · line \\d+: init `));
  // The Batch Inspector examples on the same page still work.
  await page.locator('#example-a #fields tr[data-field="producerId"] td').first().waitFor();
});

test("a marker opens in the Batch Inspector as a COMMIT/ABORT control batch", { skip: SKIP, timeout: 60_000 }, async () => {
  await openPage();
  const marker = await page.evaluate(() => {
    const r = document.querySelector("kafka-timeline").report;
    const idx = r.records.findIndex((x) => x.kind === "commit" || x.kind === "abort");
    return idx < 0 ? null : { idx, kind: r.records[idx].kind, step: r.records[idx].step, hex: r.records[idx].hex };
  });
  assert.ok(marker, "the default scenario writes a marker");
  await goTo(await storyOf(marker.step));
  // The narration's "Written" button for it…
  await page.locator(`kafka-timeline .written button[data-record="${marker.idx}"]`).click();
  await page.waitForFunction((hex) => document.getElementById("inspector").getAttribute("hex") === hex, marker.hex);
  const type = marker.kind.toUpperCase();
  await page.waitForFunction((type) => new RegExp(`\\b${type} marker`).test(document.getElementById("inspector").shadowRoot.textContent), type);
  assert.match(await page.locator("#inspector-note").textContent(), new RegExp(`${type} marker`));
  const decoded = await page.evaluate(() => document.getElementById("inspector").shadowRoot.textContent);
  assert.match(decoded, /coordinatorEpoch/);

  // …and the cell itself on the canvas (a click), after the inspector is cleared.
  await page.evaluate(() => document.getElementById("inspector").removeAttribute("hex"));
  const box = await page.evaluate((i) => document.querySelector("kafka-timeline").recordBox(i), marker.idx);
  assert.ok(box, "the marker is drawn in view");
  await page.locator("kafka-timeline .viewport canvas").click({ position: { x: box.x + box.width / 2, y: box.y + box.height / 2 } });
  await page.waitForFunction((hex) => document.getElementById("inspector").getAttribute("hex") === hex, marker.hex);
  assert.match(await page.locator("kafka-timeline .detail").textContent(), new RegExp(`${type} marker`));

  // Without a page inspector, the element opens its own dialog with the decoded header.
  await page.evaluate(() => document.querySelector("kafka-timeline").removeAttribute("inspector"));
  await page.locator("kafka-timeline .viewport").focus();
  await page.keyboard.press("Enter");
  const dialog = page.locator("kafka-timeline dialog[open]");
  await dialog.waitFor();
  assert.equal(await dialog.locator('tr[data-field="control"] td').textContent(), "true");
  assert.match(await dialog.locator('tr[data-field="marker"] td').textContent(), new RegExp(`^${type} \\(coordinatorEpoch \\d+\\)`));
  assert.equal(await dialog.locator("kafka-batch").getAttribute("hex"), marker.hex);
  await page.keyboard.press("Escape");
  await page.waitForFunction(() => !document.querySelector("kafka-timeline").shadowRoot.querySelector("dialog").open);
});

test("keyboard: Tab reaches the controls and the lanes; arrows select records, Enter opens one", { skip: SKIP, timeout: 60_000 }, async () => {
  await openPage();
  const { steps } = await tlState();
  await goTo(steps - 1); // Back is enabled (the story opens at step 0)
  await page.focus("#scenario-list li:last-child button"); // the last control before the timeline
  const focused = () =>
    page.evaluate(() => {
      const t = document.querySelector("kafka-timeline");
      const a = t.shadowRoot.activeElement;
      return document.activeElement === t ? a?.dataset.action ?? a?.className ?? null : null;
    });
  let action = null;
  for (let i = 0; i < 12 && action !== "back"; i++) {
    await page.keyboard.press("Tab");
    action = await focused();
  }
  assert.equal(action, "back", "Tab reaches the Back button");
  await page.keyboard.press("Enter");
  await page.waitForFunction((n) => document.querySelector("kafka-timeline").step === n - 2, steps);
  await page.keyboard.press("Home");
  await page.waitForFunction(() => document.querySelector("kafka-timeline").step === 0);
  await page.keyboard.press("End");
  await page.waitForFunction((n) => document.querySelector("kafka-timeline").step === n - 1, steps);
  // In the lanes: ↓ selects a record (its detail is text), Shift+→/← move within the lane.
  await page.locator("kafka-timeline .viewport").focus();
  await page.keyboard.press("ArrowDown");
  const detail = page.locator("kafka-timeline .detail");
  await detail.waitFor();
  const first = await detail.textContent();
  assert.match(first, /written at step \d+/);
  await page.keyboard.press("Shift+ArrowLeft");
  await page.keyboard.press("Shift+ArrowLeft");
  assert.notEqual(await detail.textContent(), first, "Shift+← selects another record of the lane");
  await page.keyboard.press("Enter");
  await page.waitForFunction(() => !!document.getElementById("inspector").getAttribute("hex"));
  await page.keyboard.press("Escape");
  assert.equal(await detail.isHidden(), true, "Escape clears the selection");
  await page.keyboard.press("ArrowLeft");
  await page.waitForFunction((n) => document.querySelector("kafka-timeline").step === n - 2, steps);
});

test(`?sabotage=${SABOTAGE} makes the invariants panel report a broken invariant`, { skip: SKIP, timeout: 120_000 }, async () => {
  // The fault makes read_committed skip abort filtering: any scenario where a read_committed
  // consumer reads past an aborted transaction shows it. Without the fault, none is broken.
  let found = null;
  for (const name of TXN_SCENARIOS) {
    await openPage({ name, query: `?sabotage=${SABOTAGE}` });
    const at = await page.evaluate(() =>
      document.querySelector("kafka-timeline").report.steps.findIndex((s) => s.invariants.some((i) => !i.holds)),
    );
    if (at >= 0) {
      found = { name, at };
      break;
    }
  }
  assert.ok(found, `some transaction scenario breaks an invariant under ${SABOTAGE}`);
  assert.equal(await page.locator("kafka-timeline").getAttribute("sabotage"), SABOTAGE, "the page passes the fault on");
  assert.equal(await page.locator("#sabotage-note").isVisible(), true, "the page says the model is sabotaged");
  await goTo(await storyOf(found.at));
  const broken = page.locator('kafka-timeline .invariants li.broken[data-holds="false"]');
  await broken.first().waitFor();
  assert.match(await broken.first().textContent(), /✗ BROKEN/);
  assert.match(await page.locator("kafka-timeline .invariants > p").nth(1).textContent(), /\d+ of \d+ broken/);
  assert.match(await page.locator("kafka-timeline .now").textContent(), /invariants? broken/);
  if (SHOTS) await page.locator("kafka-timeline").screenshot({ path: join(SHOTS, "timeline-sabotage.png") });

  await openPage({ name: found.name });
  const clean = await page.evaluate(() =>
    document.querySelector("kafka-timeline").report.steps.every((s) => s.invariants.every((i) => i.holds)),
  );
  assert.equal(clean, true, `${found.name} without the fault keeps every invariant`);
  assert.equal(await page.locator("#sabotage-note").isHidden(), true);
});

test("a next-step button appends its line and shows the new last step", { skip: SKIP, timeout: 60_000 }, async () => {
  await openPage();
  const before = await tlState();
  const button = page.locator("kafka-timeline .next button[data-line]").first();
  if ((await button.count()) === 0) return; // the scenario ends where nothing more can happen
  const line = await button.getAttribute("data-line");
  const appended = page.evaluate(
    () => new Promise((r) => document.querySelector("kafka-timeline").addEventListener("kafka-timeline:script", (e) => r(e.detail.script), { once: true })),
  );
  await goTo(0); // wherever the user is, the line goes after the last step
  await button.click();
  const script = await appended;
  assert.ok(script.trimEnd().endsWith(line), "the line is appended to the script");
  await page.waitForFunction((n) => document.querySelector("kafka-timeline").steps > n, before.steps);
  const after = await tlState();
  assert.equal(after.step, after.steps - 1, "the timeline shows the new last step");
  assert.match(await page.locator("kafka-timeline .now").textContent(), new RegExp(`line \\d+: ${line.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}`));
  assert.equal(await page.locator("#script").inputValue(), after.script, "the page's editor follows");
});

test("a request scenario's step buttons offer the next requests, and one appends its line with the broker's answer", { skip: SKIP, timeout: 60_000 }, async () => {
  await openPage({ name: "txn-request-verification-entry" });
  const labels = await page.locator("kafka-timeline .next button[data-line]").allTextContents();
  // The script ends in app's open transaction at epoch 1 on orders-0 (sequence 0 written there).
  for (const want of ["app: Produce to orders-0, sequence 1", "app: the last batch to orders-0 again (a retry, sequences 0..0)", "app: a zombie's batch to orders-0 (epoch 0)", "app: EndTxn(COMMIT)", "Fetch orders-0 (read_committed)"]) {
    assert.ok(labels.some((l) => l.includes(want)), `${want} in ${labels.join(" | ")}`);
  }
  const before = await tlState();
  const retry = page.locator("kafka-timeline .next button[data-line]", { hasText: "again (a retry" }).first();
  const line = await retry.getAttribute("data-line");
  assert.match(line, /^produce orders-0 pid=1000 epoch=1 seq=0 txn transactional\.id=app v=12 /);
  await retry.click();
  await page.waitForFunction((n) => document.querySelector("kafka-timeline").steps > n, before.steps);
  // The leader answers the retry as a duplicate (A1): nothing is written again.
  const last = await page.evaluate(() => document.querySelector("kafka-timeline").report.steps.at(-1));
  assert.equal(last.reply?.outcome, "duplicate", JSON.stringify(last.reply));
  assert.equal(last.reply?.error, "NONE");
});

test("values stay text, and a script error is shown as text", { skip: SKIP, timeout: 60_000 }, async () => {
  await openPage();
  const t = page.locator("kafka-timeline");
  await page.evaluate(() => document.querySelector("kafka-timeline").setAttribute("script", "model transactions\nbogus <img src=x onerror=alert(1)>"));
  await t.locator(".error").waitFor();
  assert.match(await t.locator(".error").textContent(), /line 2/);
  assert.equal(await page.evaluate(() => document.querySelector("kafka-timeline").shadowRoot.querySelectorAll("img, b").length), 0);
});

test("an idempotence script's JSON twin in `script` draws its run, with no next-step lines to append to it", { skip: SKIP, timeout: 60_000 }, async () => {
  await openPage();
  const twin = JSON.stringify({
    partitions: ["p"], producers: [{ name: "app", settings: [] }],
    steps: [
      { op: "send", line: 3, producer: "app", partition: "p", values: ["x"] },
      { op: "deliver", line: 4, what: "request", batch: 1, attempt: null },
      { op: "lose", line: 5, what: "response", batch: 1, attempt: null },
      { op: "timeout", line: 6, producer: "app" },
      { op: "deliver", line: 7, what: "request", batch: 1, attempt: null },
      { op: "deliver", line: 8, what: "response", batch: 1, attempt: null },
      { op: "expect", line: 9, check: { what: "client", batch: 1, state: "acked", detail: "0..0" } },
    ],
  });
  await page.evaluate((twin) => {
    const t = document.querySelector("kafka-timeline");
    t.removeAttribute("step");
    t.setAttribute("script", twin);
  }, twin);
  await page.waitForFunction(() => document.querySelector("kafka-timeline").report?.model === "idempotence");
  const r = await page.evaluate(() => {
    const t = document.querySelector("kafka-timeline");
    return { passed: t.report.passed, records: t.report.records.length, error: t.shadowRoot.querySelector(".error").textContent, nextHidden: t.shadowRoot.querySelector(".next").hidden };
  });
  assert.deepEqual(r, { passed: true, records: 1, error: "", nextHidden: true });
  await clickAction("last");
  await page.waitForFunction(() => /acked|A1/.test(document.querySelector("kafka-timeline").shadowRoot.querySelector(".state")?.textContent + document.querySelector("kafka-timeline").shadowRoot.querySelector(".now")?.textContent));
});

test("dark mode follows prefers-color-scheme, canvas included", { skip: SKIP, timeout: 60_000 }, async () => {
  await openPage();
  const pixel = () =>
    page.evaluate(async () => {
      await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
      const c = document.querySelector("kafka-timeline").shadowRoot.querySelector("canvas");
      return [...c.getContext("2d", { willReadFrequently: true }).getImageData(c.width - 4, c.height - 4, 1, 1).data];
    });
  const light = await pixel();
  if (SHOTS) await page.locator("kafka-timeline").screenshot({ path: join(SHOTS, "timeline-light.png") });
  await page.emulateMedia({ colorScheme: "dark" });
  await page.waitForTimeout(100);
  const dark = await pixel();
  if (SHOTS) await page.locator("kafka-timeline").screenshot({ path: join(SHOTS, "timeline-dark.png") });
  await page.emulateMedia({ colorScheme: "light" });
  assert.ok(light[0] + light[1] + light[2] > dark[0] + dark[1] + dark[2], `light ${light} is brighter than dark ${dark}`);
});

test("axe-core finds no accessibility violations on transactions.html (light, dark, sabotaged)", { skip: SKIP, timeout: 120_000 }, async (t) => {
  const axePath = join(ROOT, "tests/node_modules/axe-core/axe.min.js");
  assert.ok(existsSync(axePath), `axe-core is missing (${axePath}): it is a devDependency in tests/package.json — run scripts/ensure-test-tools.sh (or npm ci in tests/); the accessibility scan must not be skipped`);
  const axeSource = readFileSync(axePath, "utf8");
  const scan = async (label) => {
    await page.evaluate(axeSource); // through the devtools protocol: the page's CSP does not apply
    const result = await page.evaluate(() => window.axe.run(document, { resultTypes: ["violations"] }));
    const summary = result.violations.map((v) => `${v.id}: ${v.help} (${v.nodes.length}) ${v.nodes.slice(0, 3).map((n) => JSON.stringify(n.target)).join(" ")}`);
    assert.deepEqual(summary, [], `${label}: ${summary.join("\n")}`);
  };
  await openPage();
  await page.locator("kafka-timeline .viewport").focus();
  await page.keyboard.press("ArrowDown"); // a selected record shows its detail
  await scan("light");
  await page.emulateMedia({ colorScheme: "dark" });
  await scan("dark");
  await page.emulateMedia({ colorScheme: "light" });
  await openPage({ query: `?sabotage=${SABOTAGE}` });
  const at = await page.evaluate(() => document.querySelector("kafka-timeline").report.steps.findIndex((s) => s.invariants.some((i) => !i.holds)));
  if (at >= 0) await goTo(await storyOf(at));
  await scan("sabotaged");
});

test("Compare V1 / V2: txn-protocol-v2 side by side, stepped together", {
  skip: SKIP || (!TXN_SCENARIOS.includes("txn-protocol-v2") && "no scenarios/txn-protocol-v2.eos"),
  timeout: 120_000,
}, async (t) => {
  const errorsBefore = { console: lab.consoleErrors.length, page: lab.pageErrors.length };
  await page.goto("about:blank");
  await page.goto(`${baseUrl}/www/transactions.html#scenario=txn-protocol-v2&compare=1`, { waitUntil: "load" });
  await page.waitForSelector('body[data-ready="1"]');
  await page.waitForFunction(() => {
    const a = document.getElementById("timeline");
    const b = document.getElementById("timeline-v2");
    return a?.report?.transactionVersion === 1 && b?.report?.transactionVersion === 2 && a.steps > 0 && a.script === b.script;
  });
  const v1 = page.locator("#timeline");
  const v2 = page.locator("#timeline-v2");
  const compare = page.locator("#compare-protocols");
  assert.equal(await compare.getAttribute("aria-pressed"), "true", "the hash turns compare mode on");
  assert.equal(await v1.getAttribute("transaction-version"), "1");
  assert.equal(await v2.getAttribute("transaction-version"), "2");
  assert.equal(await v1.getAttribute("scenario"), "txn-protocol-v2");
  assert.equal(await v2.getAttribute("scenario"), "txn-protocol-v2");
  assert.match(await page.locator("#pane-v1-title").textContent(), /^transactions V1 — AddPartitionsToTxn, one epoch per producer session$/);
  assert.match(await page.locator("#pane-v2-title").textContent(), /^transactions V2 \(KIP-890\) — implicit adds, the epoch bumps at every commit$/);
  assert.equal(await page.locator("#pane-v1-title").isVisible(), true);
  assert.match(await v1.locator(".features").textContent(), /^transaction\.version 1 \(finalized feature level, set by transaction-version="1"/);
  assert.match(await v2.locator(".features").textContent(), /^transaction\.version 2 /);
  // One above the other at 1400 px (side by side, each timeline's log column was squeezed to a
  // few offsets), side by side on a screen wide enough for two (1920 px).
  let [b1, b2] = [await v1.boundingBox(), await v2.boundingBox()];
  assert.ok(b2.y >= b1.y + b1.height - 1 && Math.abs(b2.x - b1.x) < 2, `stacked: ${JSON.stringify([b1, b2])}`);
  await page.setViewportSize({ width: 1920, height: 1080 });
  try {
    await page.waitForTimeout(200);
    [b1, b2] = [await v1.boundingBox(), await v2.boundingBox()];
    assert.ok(b2.x >= b1.x + b1.width - 1 && Math.abs(b2.y - b1.y) < 2, `side by side: ${JSON.stringify([b1, b2])}`);
  } finally {
    await page.setViewportSize({ width: 1400, height: 1000 });
  }

  const sides = () =>
    page.evaluate(() => {
      const a = document.getElementById("timeline");
      const b = document.getElementById("timeline-v2");
      return { a: a.step, b: b.step, na: a.steps, nb: b.steps };
    });
  const { na, nb } = await sides();
  assert.equal(na, nb, "the same script: as many steps under V1 as under V2");

  // Stepping one side steps the other: from the first step (where the story opens) to the end, alternating the side driven.
  await page.waitForFunction(() => document.getElementById("timeline").step === 0 && document.getElementById("timeline-v2").step === 0);
  for (let k = 1; k < na; k++) {
    const side = k % 2 ? v2 : v1;
    await side.locator('button[data-action="forward"]').click();
    await page.waitForFunction((k) => document.getElementById("timeline").step === k && document.getElementById("timeline-v2").step === k, k);
  }
  assert.deepEqual(await sides(), { a: na - 1, b: nb - 1, na, nb }, "both at the last step");
  const epochOf = async (side) => (await side.locator('.state section[data-kind="producer"]').first().textContent()).match(/producer id \d+ · epoch (\d+)/)?.[1];
  assert.equal(await epochOf(v1), "0", "V1: one epoch for the whole producer session");
  assert.equal(await epochOf(v2), "2", "V2: the epoch bumps at every commit");

  // The first send: the V1 client registers the partition itself (AddPartitionsToTxn from the
  // producer), the V2 client does not (the partition leader adds it).
  let { send, producer } = await page.evaluate(() => {
    const r = document.getElementById("timeline").report;
    return { send: r.steps.findIndex((s) => /^send /.test(s.text)), producer: r.lanes.find((l) => l.kind === "producer").label };
  });
  assert.ok(send > 0, "the script sends");
  send = await page.evaluate((i) => document.getElementById("timeline").storyStepOf(i), send);
  await page.evaluate((k) => document.getElementById("timeline-v2").setAttribute("step", String(k)), send);
  await page.waitForFunction((k) => document.getElementById("timeline").step === k && document.getElementById("timeline-v2").step === k, send);
  const fromProducer = (side) =>
    side.locator('.now ol.messages li[data-kind="AddPartitionsToTxn"]').evaluateAll(
      (lis, producer) => lis.filter((li) => li.textContent.startsWith(`${producer} → `)).length,
      producer,
    );
  assert.match(await v1.locator(".now .now-head").textContent(), /line \d+: send app /);
  assert.ok((await fromProducer(v1)) >= 1, "V1: AddPartitionsToTxn from the producer at the first send");
  assert.equal(await fromProducer(v2), 0, "V2: no AddPartitionsToTxn from the producer");
  assert.ok((await v2.locator('.now ol.messages li[data-kind="Produce"]').count()) >= 1, "V2 produces at the first send");

  // The note says where the runs differ: an expectation about the epoch holds under V2 only.
  const note = page.locator("#compare-note");
  assert.equal(await note.isVisible(), true);
  assert.match(await note.textContent(), /the same step/);
  const failsAt = await page.evaluate(() => document.getElementById("timeline").report.steps.findIndex((s) => s.ok === false));
  assert.ok(failsAt > 0, "V1 fails an epoch expectation written for V2");
  const expectAt = await storyOf(failsAt); // the step the failing check belongs to
  await goTo(expectAt);
  await page.waitForFunction((k) => document.getElementById("timeline-v2").step === k, expectAt);
  assert.match(await note.textContent(), /holds under V2 but fails under V1/);
  await linkState(page, { scenario: "txn-protocol-v2", compare: true, step: expectAt });

  if (SHOTS) await page.locator("#lab").screenshot({ path: join(SHOTS, "timeline-compare.png") });
  const axePath = join(ROOT, "tests/node_modules/axe-core/axe.min.js");
  assert.ok(existsSync(axePath), `axe-core is missing (${axePath}): it is a devDependency in tests/package.json — run scripts/ensure-test-tools.sh (or npm ci in tests/); the accessibility scan must not be skipped`);
  await page.evaluate(readFileSync(axePath, "utf8"));
  const axeResult = await page.evaluate(() => window.axe.run(document, { resultTypes: ["violations"] }));
  const axeSummary = axeResult.violations.map((v) => `${v.id}: ${v.help} (${v.nodes.length}) ${v.nodes.slice(0, 3).map((n) => JSON.stringify(n.target)).join(" ")}`);
  assert.deepEqual(axeSummary, [], axeSummary.join("\n"));

  // Stacked on a narrow screen.
  await page.setViewportSize({ width: 760, height: 1000 });
  try {
    await page.waitForFunction(() => {
      const a = document.getElementById("timeline").getBoundingClientRect();
      const b = document.getElementById("timeline-v2").getBoundingClientRect();
      return b.top >= a.bottom - 1;
    });
  } finally {
    await page.setViewportSize({ width: 1400, height: 1000 });
  }

  // The toggle is a button: the keyboard turns compare mode off and on again, the hash follows.
  await compare.focus();
  await page.keyboard.press("Space");
  await page.waitForFunction(() => !document.getElementById("timeline-v2"));
  assert.equal(await compare.getAttribute("aria-pressed"), "false");
  assert.equal(await v1.getAttribute("transaction-version"), null, "one timeline, at the script's own transaction.version");
  assert.equal(await page.locator("#pane-v1-title").isHidden(), true);
  assert.equal(await note.isHidden(), true);
  await linkState(page, { scenario: "txn-protocol-v2", compare: undefined });
  await page.waitForFunction(() => document.getElementById("timeline").report?.transactionVersion === 2);
  assert.equal(await page.evaluate(() => document.getElementById("timeline").step), expectAt, "the timeline keeps its step");
  await page.keyboard.press("Enter");
  await page.waitForFunction(() => document.getElementById("timeline-v2")?.report?.transactionVersion === 2 && document.getElementById("timeline").report?.transactionVersion === 1);
  await page.waitForFunction((k) => document.getElementById("timeline").step === k && document.getElementById("timeline-v2").step === k, expectAt);
  await linkState(page, { scenario: "txn-protocol-v2", compare: true });

  // A next-step button on one side appends its line to both scripts; both show the new last step.
  const nextButton = v2.locator(".next button[data-line]").first();
  if (await nextButton.count()) {
    const line = await nextButton.getAttribute("data-line");
    await nextButton.click();
    await page.waitForFunction(
      ({ n, line }) => {
        const a = document.getElementById("timeline");
        const b = document.getElementById("timeline-v2");
        return a.steps > n && b.steps > n && a.script === b.script && a.script.trimEnd().endsWith(line) && a.step === a.steps - 1 && b.step === b.steps - 1;
      },
      { n: na, line },
    );
  }
  // Another scenario from the list: both sides switch, the hash keeps compare mode.
  const other = pageScenarios().find((n) => n !== "txn-protocol-v2");
  await page.locator(`#scenario-list button[data-name="${other}"]`).click();
  const otherText = readFileSync(join(ROOT, "scenarios", `${other}.eos`), "utf8");
  await page.waitForFunction(
    (text) => ["timeline", "timeline-v2"].every((id) => document.getElementById(id).script === text && document.getElementById(id).steps > 0),
    otherText,
  ).catch(async (err) => {
    const st = await page.evaluate(() => ["timeline", "timeline-v2"].map((id) => { const t = document.getElementById(id); return { id, scenario: t?.getAttribute("scenario"), scriptAttr: t?.getAttribute("script")?.slice(-80), script: t?.script?.slice(0, 120), steps: t?.steps, err: t?.shadowRoot.querySelector(".error")?.textContent }; }));
    throw new Error(`${err.message}\n${JSON.stringify(st, null, 1)}`);
  });
  await linkState(page, { scenario: other, compare: true });

  assert.deepEqual(lab.pageErrors.slice(errorsBefore.page), []);
  assert.deepEqual(lab.consoleErrors.slice(errorsBefore.console), []);
});

test("a request scenario: its own lane, the raw requests as messages, the leader's producer state and transaction index", { skip: SKIP, timeout: 60_000 }, async () => {
  await openPage({ name: "txn-request-fetch-aborted" });
  const last = (await tlState()).steps - 1;
  await goTo(last);
  const s = await snapshot();
  const lanes = await page.evaluate(() => document.querySelector("kafka-timeline").report.lanes.map((l) => l.label));
  assert.ok(lanes.includes("client (requests)"), lanes.join(" | "));
  // The coordinator lane names the __transaction_state partitions of the ids requests used.
  assert.ok(lanes.some((l) => /^coordinator \(__transaction_state-\d+/.test(l)), lanes.join(" | "));
  // Per partition: each producer's entry and the aborted-transaction index, as text.
  // payments' ABORT marker (TV2) bumped producer 1000's epoch and cleared its batches.
  assert.match(s.state, /producer 1000 · epoch 1 · last seq -1 · batches \[\] · coordinator epoch 0/);
  assert.match(s.state, /producer 1001 · epoch 0 · last seq 0 · batches \[0\.\.0@4\] · open transaction from 4/);
  assert.match(s.state, /producer 1002 · epoch 0 · last seq 1 · batches \[0\.\.0@2, 1\.\.1@5\]/);
  assert.match(s.state, /transaction index: producer 1000 aborted 0\.\.3 \(LSO \d+\)/);
  // A raw request is a message like any other, with its fields.
  await goTo(0);
  const now = (await snapshot()).now;
  assert.match(now, /FindCoordinator/);
});

test("the state panel lists a partition's verification entry while it refuses the producer's batches (A5)", { skip: SKIP, timeout: 60_000 }, async () => {
  await openPage({ name: "txn-request-verification-entry" });
  const steps = await page.evaluate(() => document.querySelector("kafka-timeline").report.steps.map((s) => s.text));
  // The story step that shows the report step whose line ends so (`expect` lines are not steps).
  const at = (end) => storyOf(steps.findIndex((t) => t.endsWith(end)));
  await goTo(await at(" as first"));
  assert.doesNotMatch((await snapshot()).state, /verification entry/);
  await goTo(await at(" as retry"));
  const state = (await snapshot()).state;
  assert.match(state, /verification entry: producer 1000 · epoch 1 · lowest sequence 0 · since t\+\d+ms · a batch starting above sequence 0 is refused \(A5\); a TV2 producer's first batch must start at 0 \(A4\)/);
  await goTo(await at(" as next-txn"));
  assert.doesNotMatch((await snapshot()).state, /verification entry/);
});

test("the state panel shows the replicas: a stalled follower holding the HW, the ISR shrinking, and the records an election truncated", { skip: SKIP, timeout: 60_000 }, async () => {
  await openPage({ name: "txn-request-unclean-election" });
  const steps = await page.evaluate(() => document.querySelector("kafka-timeline").report.steps.map((s) => s.text));
  const at = (start) => storyOf(steps.findIndex((t) => t.startsWith(start)));
  await goTo(await at("produce orders-0 pid=1000 epoch=0 seq=1"));
  let state = (await snapshot()).state;
  assert.match(state, /leader on broker 1 \(leader epoch 0\) · ISR \[1, 2\]/);
  assert.match(state, /broker 2: not fetching · log end 1 · in the ISR/);
  assert.match(state, /the HW waits at 1 for a follower in the ISR/);
  await goTo(await at("leader-fails"));
  state = (await snapshot()).state;
  assert.match(state, /leader on broker 2 \(leader epoch 1\) · ISR \[2\]/);
  assert.match(state, /broker 1: broker down · log end 3 · out of the ISR/);
  // The truncated records are drawn struck through: their status says so.
  const statuses = await page.evaluate(async () => {
    const { recordStatus } = await import("/www/lib/timeline-model.js");
    const el = document.querySelector("kafka-timeline");
    return el.report.records.filter((r) => r.truncatedAt !== undefined).map((r) => recordStatus(r, r.truncatedAt));
  });
  assert.deepEqual(statuses, ["truncated", "truncated"]);
});

test("an idempotent producer beside a transaction: its lane, its Produce and the leader's answer, its state, and its network's step buttons", { skip: SKIP, timeout: 60_000 }, async () => {
  await openPage({ name: "txn-mixed-writers" });
  const lanes = await page.evaluate(() => document.querySelector("kafka-timeline").report.lanes.map((l) => l.label));
  assert.ok(lanes.includes("app (idempotent)") && lanes.includes("pay (payments)"), lanes.join(" | "));
  const steps = await page.evaluate(() => document.querySelector("kafka-timeline").report.steps.map((s) => s.text));
  await goTo(await storyOf(steps.indexOf("deliver request b1")));
  const s = await snapshot();
  // The leader's answer to app's batch is a message with its rule; app's state is listed.
  assert.match(s.now, /Produce response NONE\(0\) to b1 \(attempt 1\)/);
  assert.match(s.state, /transactional\.id — · protocol idempotent/);
  assert.match(s.state, /producer id 1000 · epoch 0/);
  assert.match(s.state, /next sequence: orders-0 1/);
  // At the end app's network is quiet: its sends are offered, and one appends its line.
  const labels = await page.locator("kafka-timeline .next button[data-line]").allTextContents();
  assert.ok(labels.some((l) => l.startsWith("app sends to orders-0")), labels.join(" | "));
  const before = await tlState();
  await page.locator("kafka-timeline .next button[data-line]", { hasText: "app sends to orders-0" }).first().click();
  await page.waitForFunction((n) => document.querySelector("kafka-timeline").steps > n, before.steps);
  const after = await page.locator("kafka-timeline .next button[data-line]").evaluateAll((bs) => bs.map((b) => b.getAttribute("data-line")));
  assert.ok(after.includes("deliver request b3"), after.join(" | "));
});

test("the same run as a sequence diagram: the page's <kafka-ladder> draws the timeline's report and steps with it", { skip: SKIP, timeout: 90_000 }, async () => {
  await openPage({ name: "txn-commit-two-partitions" });
  await page.evaluate(() => { document.getElementById("sequence").open = true; });
  const both = () => page.evaluate(() => {
    const t = document.getElementById("timeline");
    const l = document.getElementById("ladder");
    return { t: t.step, l: l.step, tSteps: t.steps, lSteps: l.steps, same: !!l.run && JSON.stringify(l.run.steps.map((s) => s.messages)) === JSON.stringify(t.report.steps.map((s) => s.messages)) };
  });
  await page.waitForFunction(() => document.getElementById("ladder")?.steps > 0);
  let s = await both();
  assert.ok(s.same, "the ladder draws the timeline's messages");
  assert.equal(s.lSteps, s.tSteps);
  // Step the timeline: the ladder follows; step the ladder: the timeline follows.
  await page.evaluate(() => { document.getElementById("timeline").step = 4; });
  await page.waitForFunction(() => document.getElementById("ladder").step === 4);
  await page.evaluate(() => { document.getElementById("ladder").step = 2; });
  await page.waitForFunction(() => document.getElementById("timeline").step === 2);
  s = await both();
  assert.deepEqual([s.t, s.l], [2, 2]);
  // The ladder's text names the coordinator's answers with their rules.
  await page.evaluate(() => { document.getElementById("timeline").step = "end"; });
  await page.waitForFunction(() => { const l = document.getElementById("ladder"); return l.step === l.steps - 1; });
  // (The rows in view, rebuilt once scrolling pauses: polled.)
  await page.waitForFunction(() => [...document.getElementById("ladder").shadowRoot.querySelectorAll("ol.sr-only li[data-rule]")].some((li) => li.dataset.rule === "R1"));
  // Compare mode runs the timeline at V1: the ladder runs at the same level.
  await page.click("#compare-protocols");
  await page.waitForFunction(() => document.getElementById("ladder").getAttribute("transaction-version") === document.getElementById("timeline").getAttribute("transaction-version"));
  await page.click("#compare-protocols");
  // The link keeps the open sequence diagram: opened again, it shows it at the same step.
  await page.evaluate(() => { document.getElementById("timeline").step = 2; });
  const state = await linkState(page, { sequence: true, step: 2 });
  const hash = await page.evaluate(() => location.hash);
  await page.goto("about:blank");
  await page.goto(`${baseUrl}/www/transactions.html${hash}`, { waitUntil: "load" });
  await page.waitForFunction(() => document.getElementById("sequence").open && document.getElementById("ladder")?.step === 2 && document.getElementById("timeline").step === 2);
  assert.equal(state.scenario, "txn-commit-two-partitions");
  await page.evaluate(() => { document.getElementById("sequence").open = false; });
  await linkState(page, { sequence: undefined });
});

test("no console errors, no page errors, no dialogs, no requests off 127.0.0.1", { skip: SKIP }, () => {
  const { consoleErrors, pageErrors, foreignRequests, dialogs } = lab;
  assert.deepEqual(pageErrors, []);
  assert.deepEqual(consoleErrors, []);
  assert.deepEqual(foreignRequests, []);
  assert.deepEqual(dialogs, []);
});
