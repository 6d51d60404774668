// Browser tests of <kafka-ladder> and <kafka-producer-config> on www/idempotence.html (and the
// section of www/index.html once it embeds them), in Debian's Chromium driven by playwright-core
// (which downloads no browser), served by scripts/serve.py on 127.0.0.1.
// Run: node --test tests/browser/      (needs `make pkg` and /usr/bin/chromium)
// EOSLAB_SCREENSHOT_DIR=/tmp saves ladder-light.png and ladder-dark.png there.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { ROOT, launch } from "./helpers.mjs";

const SHOTS = process.env.EOSLAB_SCREENSHOT_DIR;
// The ladder opens a rung in <kafka-batch> when www/kafka-batch.js exists (it imports it lazily);
// without it, it shows the batch's fields and hex, and the failed import is the only error allowed.
const HAVE_INSPECTOR = existsSync(join(ROOT, "www/kafka-batch.js"));

let lab; // {baseUrl, context, page, consoleErrors, pageErrors, foreignRequests, dialogs, close}
let baseUrl;
let page;

before(async () => {
  lab = await launch({ colorScheme: "light", viewport: { width: 1280, height: 900 } });
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

/** Opens idempotence.html on a scenario and waits until its ladder has run. */
async function openScenario(name) {
  await page.goto("about:blank"); // a new document: only the hash would differ, which does not reload
  await page.goto(`${baseUrl}/www/idempotence.html#scenario=${name}`, { waitUntil: "load" });
  await page.waitForSelector('body[data-ready="1"]');
  await page.waitForFunction(
    (n) => {
      const l = document.querySelector("kafka-ladder");
      return l && l.getAttribute("scenario") === n && l.steps > 0 && l.run?.title;
    },
    name,
  );
}

const ladderState = () =>
  page.evaluate(() => {
    const l = document.querySelector("kafka-ladder");
    return { step: l.step, steps: l.steps, attr: l.getAttribute("step"), rows: l.renderStats.rows, script: l.script };
  });

/** Steps the ladder to `k` through its attribute and waits for the step to show. */
async function goTo(k) {
  await page.evaluate((k) => document.querySelector("kafka-ladder").setAttribute("step", String(k)), k);
  await page.waitForFunction((k) => document.querySelector("kafka-ladder").step === k, k);
}

/** The story step (0-based; `expect` lines are checks, not steps) whose own script line is `line`. */
const stepOfLine = (line) =>
  page.evaluate((line) => {
    const l = document.querySelector("kafka-ladder");
    return l.story.findIndex((g) => l.run.steps[g.first].line === line);
  }, line);

const nowText = () => page.locator("kafka-ladder .now").textContent();

// --- tests -----------------------------------------------------------------------------------

test("scenarios/index.json lists every .eos file with its title", () => {
  const files = readdirSync(join(ROOT, "scenarios")).filter((f) => f.endsWith(".eos")).map((f) => f.replace(/\.eos$/, "")).sort();
  const index = JSON.parse(readFileSync(join(ROOT, "scenarios/index.json"), "utf8"));
  assert.deepEqual(index.map((e) => e.name).sort(), files);
  for (const { name, title, model } of index) {
    const text = readFileSync(join(ROOT, "scenarios", `${name}.eos`), "utf8");
    const m = /^title\s+(.+?)\s*$/m.exec(text);
    assert.equal(title, m ? m[1] : name, `title of ${name}`);
    assert.equal(model, /^\s*model\s+transactions\s*$/m.test(text.replace(/#.*$/gm, "").trim().split("\n")[0]) ? "transactions" : "idempotence", `model of ${name}`);
  }
});

test("the page lists every scenario and loads the chosen one", { timeout: 60_000 }, async () => {
  await openScenario("lost-response-retry");
  const index = JSON.parse(readFileSync(join(ROOT, "scenarios/index.json"), "utf8")).filter((e) => e.model === "idempotence");
  const names = await page.locator("#scenario-list button[data-name]").evaluateAll((bs) => bs.map((b) => b.dataset.name));
  assert.deepEqual(names, index.map((e) => e.name));
  await page.click('#scenario-list button[data-name="restart-new-pid"]');
  await page.waitForFunction(() => document.querySelector("kafka-ladder").run?.title?.startsWith("A restarted producer"));
  // The link holds the scenario (a versioned, compressed state; #scenario= links still open).
  await linkState(page, { scenario: "restart-new-pid", script: undefined, step: 0 });
  assert.equal(await page.locator('#scenario-list button[aria-current="true"]').getAttribute("data-name"), "restart-new-pid");
});

test("a scenario steps forward and back and shows the same decision twice", { timeout: 60_000 }, async () => {
  await openScenario("lost-response-retry");
  const { steps } = await ladderState();
  // The story opens at its first step, and no step is an `expect` line.
  assert.equal((await ladderState()).step, 0, "opens at step 0");
  assert.match(await nowText(), /^Step 1 of \d+ · line 11: send app orders-0 order-1/);
  assert.equal(await page.evaluate(() => { const l = document.querySelector("kafka-ladder"); return l.story.filter((g) => /^expect\b/.test(l.run.steps[g.first].text)).length; }), 0);
  const retry = await stepOfLine(16); // deliver request b1 (the retry): DUPLICATE, rule A1
  assert.ok(retry > 0 && retry < steps - 1);
  await goTo(retry);
  const first = await nowText();
  assert.match(first, /DUPLICATE/);
  assert.match(first, /\bA1\b/);
  assert.match(first, /NONE \(0\)/);
  assert.match(first, /original offsets 0\.\.0/);
  assert.match(first, /Kafka source: storage\/src\/main\/java\/org\/apache\/kafka\/storage\/internals\/log\/ProducerStateEntry\.java/);

  await page.evaluate(() => {
    const seen = (window.__seen = []);
    document.querySelector("kafka-ladder").addEventListener("kafka-ladder:step", (e) => seen.push(e.detail.step));
  });
  await page.click('kafka-ladder button[data-action="back"]');
  await page.waitForFunction((k) => document.querySelector("kafka-ladder").step === k - 1, retry);
  assert.notEqual(await nowText(), first);
  await page.click('kafka-ladder button[data-action="forward"]');
  await page.waitForFunction((k) => document.querySelector("kafka-ladder").step === k, retry);
  assert.equal(await nowText(), first, "the same step shows the same decision");
  assert.deepEqual(await page.evaluate(() => window.__seen), [retry - 1, retry]);
  assert.equal((await ladderState()).attr, String(retry), "step is reflected");

  // The retry's check (line 17, `expect b1 duplicate 0..0`) is shown on it as a tick.
  assert.equal(await page.locator('kafka-ladder .now ul.checks li[data-line="17"][data-ok="true"]').count(), 1);
  // Step 0 is the first send; the last step shows every row.
  await page.click('kafka-ladder button[data-action="first"]');
  await page.waitForFunction(() => document.querySelector("kafka-ladder").step === 0);
  assert.match(await nowText(), /Step 1 of/);
  await page.click('kafka-ladder button[data-action="last"]');
  await page.waitForFunction((n) => document.querySelector("kafka-ladder").step === n - 1, steps);
});

test("stepping back shows that step's leader and batches at once, from the one run (no re-run)", { timeout: 60_000 }, async () => {
  await openScenario("lost-response-retry");
  const { steps } = await ladderState();
  const panels = await page.evaluate((n) => {
    const l = document.querySelector("kafka-ladder");
    const read = () => {
      const root = l.shadowRoot;
      return {
        leader: root.querySelector('section[data-partition="orders-0"]')?.textContent ?? "",
        batches: [...root.querySelectorAll('section[data-producer="app"] ul.batches button')].map((b) => b.textContent),
      };
    };
    l.goTo(n - 1);
    const last = read();
    l.goTo(0); // synchronous: the panels are folded from the run's per-step changes
    const first = read();
    // The one report both views draw (runTxnScenario): an idempotence script's steps carry their
    // per-batch `changes` beside the timeline's messages.
    return { last, first, states: l.run.model === "idempotence" && l.run.steps.slice(0, -1).every((s) => s.changes && s.messages) && !!l.run.initialState };
  }, steps);
  assert.ok(panels.states, "the run carries each step's changes");
  assert.match(panels.first.leader, /log end offset 0/);
  assert.deepEqual(panels.first.batches, ["b1 seq 0 e0 in-flight"]);
  assert.match(panels.last.leader, /log end offset 1/);
  assert.match(panels.last.batches[0], /^b1 seq 0 e0 acked @0/);
});

test("slow-follower-timeout-retry: the panel shows the HW and the ISR, and the held answer's rows", { timeout: 60_000 }, async () => {
  await openScenario("slow-follower-timeout-retry");
  const { steps } = await ladderState();
  const read = (k) => page.evaluate((k) => {
    const l = document.querySelector("kafka-ladder");
    l.goTo(k);
    return {
      leader: l.shadowRoot.querySelector('section[data-partition="orders-0"]')?.textContent ?? "",
      rows: [...l.shadowRoot.querySelectorAll("ol.sr-only li")].map((li) => li.textContent).join("\n"),
    };
  }, k);
  const held = await stepOfLine(19); // deliver request b2: written, the answer held for the HW
  let s = await read(held);
  assert.match(s.leader, /high watermark 1 · ISR 1, 2, 3 \(leader on broker 1\)/);
  s = await read(steps - 1);
  assert.match(s.leader, /high watermark 2 · ISR 1, 2, 3/);
  const all = await page.evaluate(() => document.querySelector("kafka-ladder").run.steps.flatMap((st) => st.events.map((e) => `${e.kind}: ${e.text}`)).join("\n"));
  assert.match(all, /held: orders-0 \[S1\]: b2 attempt 1 is written, but acks=-1: its answer waits until the high watermark \(1\) reaches 2/);
  assert.match(all, /released: orders-0 \[S1\]: the request's timeout passed .* REQUEST_TIMED_OUT/);
  assert.match(all, /replication: orders-0 \[S3\]: the leader's ISR check finds broker\(s\) 3 behind/);
});

test("window-moved-past: OUT_OF_ORDER_SEQUENCE_NUMBER (45), rule A7, in the step and in the rows in view", { timeout: 60_000 }, async () => {
  await openScenario("window-moved-past");
  const k = await stepOfLine(30); // deliver request b1: the retry, out of the window
  await goTo(k);
  const decision = page.locator('kafka-ladder .now li.decision[data-rule="A7"]');
  await decision.waitFor();
  assert.equal(await decision.getAttribute("data-error-code"), "45");
  const text = await decision.textContent();
  assert.match(text, /OUT_OF_ORDER_SEQUENCE_NUMBER \(45\)/);
  assert.match(text, /Out of order sequence number for producer 1000/);
  assert.match(text, /ProducerAppendInfo\.java|ProducerStateEntry\.java/);
  // The ladder's text alternative (rows in view) names the decision, its rule and its code.
  await page.waitForFunction(() =>
    [...document.querySelector("kafka-ladder").shadowRoot.querySelectorAll("ol.sr-only li")].some((li) => li.dataset.rule === "A7" && li.dataset.errorCode === "45"),
  );
  const row = await page.locator('kafka-ladder ol.sr-only li[data-rule="A7"][data-error-code="45"]').last().textContent();
  assert.match(row, /decision: .*OUT_OF_ORDER_SEQUENCE_NUMBER\(45\) \[A7\]/);
  assert.match(row, /source storage\//);
  // The retained window after that step: five batches, sequences 1..5 (b1's 0 has left it).
  const window = await page.locator('kafka-ladder section[data-partition="orders-0"] ol.window li').allTextContents();
  assert.deepEqual(window, ["seq 1@1", "seq 2@2", "seq 3@3", "seq 4@4", "seq 5@5"]);
  if (SHOTS) await page.locator("kafka-ladder").screenshot({ path: join(SHOTS, "ladder-light.png") });
});

test("a next-step button appends its line, and the ladder grows", { timeout: 60_000 }, async () => {
  await openScenario("lost-response-retry");
  await goTo(await page.evaluate(() => document.querySelector("kafka-ladder").steps - 1)); // the story opens at step 0
  const before = await ladderState();
  assert.equal(before.step, before.steps - 1);
  const button = page.locator('kafka-ladder .next button[data-line^="send app orders-0"]');
  const line = await button.getAttribute("data-line");
  const appended = page.evaluate(
    () => new Promise((r) => document.querySelector("kafka-ladder").addEventListener("kafka-ladder:script", (e) => r(e.detail.script), { once: true })),
  );
  await button.click();
  const script = await appended;
  assert.ok(script.trimEnd().endsWith(line), "the line is appended to the script");
  await page.waitForFunction((n) => document.querySelector("kafka-ladder").steps === n + 1, before.steps);
  const after = await ladderState();
  assert.equal(after.step, before.steps, "the ladder shows the new (last) step");
  assert.ok(after.rows > before.rows, `rows grew: ${before.rows} → ${after.rows}`);
  assert.match(await nowText(), new RegExp(`line \\d+: ${line}`));
  assert.match(await nowText(), /application sends b2/);
  assert.equal(await page.locator("#script").inputValue(), after.script, "the page's editor follows");

  // Stepping back and choosing again forks: the later steps are replaced.
  await goTo(1); // deliver request b1 (and its check)
  await page.locator('kafka-ladder .next button[data-line="restart app"]').click();
  await page.waitForFunction(() => document.querySelector("kafka-ladder").steps === 3);
  assert.match(await nowText(), /new producer id 1001/);
});

test("a rung opens its batch (clicked on the canvas, or with the keyboard)", { timeout: 60_000 }, async () => {
  await openScenario("lost-response-retry");
  await goTo(0); // send b1
  // Row 0 is step 1's band (24 px below the 38 px lane header), row 1 the send of b1.
  const canvas = page.locator("kafka-ladder canvas");
  await canvas.click({ position: { x: 150, y: 38 + 24 + 8 } });
  const dialog = page.locator("kafka-ladder dialog[open]");
  await dialog.waitFor();
  assert.match(await dialog.locator(":scope > h2").textContent(), /^b1 · app → orders-0/);
  const field = (name) => dialog.locator(`:scope > table.fields tr[data-field="${name}"] td`).textContent();
  assert.equal(await field("producerId"), "1000");
  assert.equal(await field("producerEpoch"), "0");
  assert.equal(await field("baseSequence"), "0");
  assert.equal(await field("crcValid"), "true");
  if (HAVE_INSPECTOR) {
    const inspector = dialog.locator(":scope > kafka-batch");
    await inspector.waitFor();
    assert.match(await inspector.getAttribute("hex"), /^[0-9a-f]+$/);
    assert.equal(await inspector.getAttribute("readonly"), "");
  } else {
    assert.match(await dialog.locator(":scope > pre.hex").textContent(), /^00 00 00 00 00 00 00 00 /);
  }
  await page.keyboard.press("Escape");
  await page.waitForFunction(() => !document.querySelector("kafka-ladder").shadowRoot.querySelector("dialog").open);

  // Keyboard: the ladder is focusable; ↓ selects rows, Enter opens the selected batch.
  await goTo(1); // deliver request b1: the leader appends it
  await page.locator("kafka-ladder .viewport").focus();
  // rows: step 1, send b1, request b1, step 2, the decision, its check (line 13): down to the end, one up
  for (let i = 0; i < 7; i++) await page.keyboard.press("ArrowDown");
  await page.keyboard.press("ArrowUp");
  const detail = page.locator("kafka-ladder .detail");
  await detail.waitFor();
  assert.match(await detail.textContent(), /APPEND 0\.\.0 \[A6\]/);
  assert.match(await detail.textContent(), /Kafka source: storage\/.*ProducerAppendInfo\.java/);
  await page.keyboard.press("Enter");
  await dialog.waitFor();
  assert.match(await dialog.locator(":scope > h2").textContent(), /as the leader wrote it at offset 0/);
  assert.equal(await field("baseOffset"), "0");
  await page.keyboard.press("Escape");
});

test("keyboard: Tab reaches the step buttons; Enter and the arrow keys step", { timeout: 60_000 }, async () => {
  await openScenario("epoch-bump");
  const n = (await ladderState()).steps;
  await goTo(5);
  await page.focus("#long-run"); // the last control before the ladder
  const focused = () =>
    page.evaluate(() => {
      const l = document.querySelector("kafka-ladder");
      return document.activeElement === l ? l.shadowRoot.activeElement?.dataset.action ?? l.shadowRoot.activeElement?.className : null;
    });
  let action = null;
  for (let i = 0; i < 4 && action !== "back"; i++) {
    await page.keyboard.press("Tab");
    action = await focused();
  }
  assert.equal(action, "back", "Tab reaches the Back button");
  await page.keyboard.press("Enter");
  await page.waitForFunction(() => document.querySelector("kafka-ladder").step === 4);
  await page.keyboard.press("ArrowLeft");
  await page.waitForFunction(() => document.querySelector("kafka-ladder").step === 3);
  await page.keyboard.press("ArrowRight");
  await page.keyboard.press("ArrowRight");
  await page.waitForFunction(() => document.querySelector("kafka-ladder").step === 5);
  await page.keyboard.press("Home");
  await page.waitForFunction(() => document.querySelector("kafka-ladder").step === 0);
  await page.keyboard.press("End");
  await page.waitForFunction((n) => document.querySelector("kafka-ladder").step === n - 1, n);
  await page.keyboard.press("Home");
  await page.waitForFunction(() => document.querySelector("kafka-ladder").step === 0);
  // Play runs to the end by itself.
  await page.evaluate(() => (document.querySelector("kafka-ladder").interval = 20));
  await page.click('kafka-ladder button[data-action="play"]');
  await page.waitForFunction((n) => document.querySelector("kafka-ladder").step === n - 1 && !document.querySelector("kafka-ladder").playing, n);
});

test("config conflicts show Kafka's ConfigException text", { timeout: 60_000 }, async () => {
  await openScenario("lost-response-retry");
  const config = page.locator("kafka-producer-config");
  const result = config.locator(".result");
  await config.locator('select[data-key="enable.idempotence"]').selectOption("true");
  await config.locator('select[data-key="acks"]').selectOption("1");
  await result.locator(".exception").waitFor();
  assert.match(
    await result.textContent(),
    /ConfigException.*Must set acks to all in order to use the idempotent producer\. Otherwise we cannot guarantee idempotence\./,
  );
  assert.equal(await result.locator(".exception").getAttribute("data-rule"), "P4");
  assert.equal(await config.getAttribute("properties"), "acks=1\nenable.idempotence=true", "the form writes the attribute");

  // The free-form text is the same source of truth: max.in.flight 6 → P5 (thrown even when unset).
  await config.locator("textarea").fill("max.in.flight.requests.per.connection=6");
  await page.waitForFunction(() => /at most 5/.test(document.querySelector("kafka-producer-config").shadowRoot.querySelector(".result").textContent));
  assert.match(
    await result.textContent(),
    /To use the idempotent producer, max\.in\.flight\.requests\.per\.connection must be set to at most 5\. Current value is 6\./,
  );
  assert.equal(await result.locator(".exception").getAttribute("data-rule"), "P5");
  assert.equal(await config.locator('input[data-key="max.in.flight.requests.per.connection"]').inputValue(), "6", "the form follows the text");

  // The pre-3.0 client line: the same config resolves, idempotence off by default.
  await config.locator('input[type="radio"][value="pre-3.0"]').check();
  await result.locator("table.resolved").waitFor();
  assert.match(await result.locator('tr[data-field="idempotence"] td').textContent(), /^off/);

  // Attribute in, table out: an empty 4.x config is idempotent by default (P2).
  await page.evaluate(() => {
    const c = document.querySelector("kafka-producer-config");
    c.setAttribute("client", "4.x");
    c.setAttribute("properties", "");
  });
  await page.waitForFunction(() => /default since 3\.0/.test(document.querySelector("kafka-producer-config").shadowRoot.querySelector(".result").textContent));
  assert.match(await result.locator('tr[data-field="idempotence"] td').textContent(), /^on/);
  assert.match(await result.locator('tr[data-field="acks"] td').textContent(), /-1 \(all\)/);
  assert.deepEqual(await result.locator("ul.rules li").evaluateAll((lis) => lis.map((li) => li.dataset.rule)), ["P1", "P2"]);
});

test("a script error is shown as text, and a fixed script runs", { timeout: 60_000 }, async () => {
  await openScenario("lost-response-retry");
  const ladder = page.locator("kafka-ladder");
  await page.evaluate(() => document.querySelector("kafka-ladder").setAttribute("script", "partition p\nproducer app\nsend app p <img src=x onerror=alert(1)>\nbogus b1"));
  await ladder.locator(".error").waitFor();
  assert.match(await ladder.locator(".error").textContent(), /^line 4: /);
  await page.evaluate(() => document.querySelector("kafka-ladder").setAttribute("script", "partition p\nproducer app\nsend app p <b>x</b>\nflush"));
  await page.waitForFunction(() => document.querySelector("kafka-ladder").steps === 2);
  assert.equal(await ladder.locator(".error").textContent(), "");
  assert.equal(await page.evaluate(() => document.querySelector("kafka-ladder").shadowRoot.querySelectorAll("b, img").length), 0, "values stay text");
});

test("request lines (produce, marker) run in the ladder: their answers are listed, nothing breaks", { timeout: 60_000 }, async () => {
  await openScenario("lost-response-retry");
  const script = [
    "partition p",
    "producer app",
    "send app p a",
    "flush",
    "produce p pid=7 epoch=0 seq=0 txn x y",
    "marker p pid=7 epoch=1 abort coordinator-epoch=0 tv=2",
    "produce p pid=7 epoch=0 seq=2 z",
    "expect last rejected INVALID_PRODUCER_EPOCH",
  ].join("\n");
  await page.evaluate((s) => document.querySelector("kafka-ladder").setAttribute("script", s), script);
  await page.waitForFunction(() => document.querySelector("kafka-ladder").steps === 5); // the expect line is a check of the last
  const run = await page.evaluate(() => document.querySelector("kafka-ladder").run);
  assert.equal(run.passed, true, JSON.stringify(run.failures));
  const kinds = run.steps.flatMap((s) => s.events.map((e) => e.kind));
  for (const k of ["produce-request", "produce-decision", "marker-request", "marker-decision"]) assert.ok(kinds.includes(k), `${k} in ${kinds}`);
  const rules = run.steps.flatMap((s) => s.events.filter((e) => e.rule).map((e) => e.rule));
  assert.ok(rules.includes("M4") && rules.includes("A3"), rules.join(","));
  // Step to the end: every row draws (the last test checks no console or page error).
  await page.evaluate(() => document.querySelector("kafka-ladder").setAttribute("step", "end"));
  await page.waitForFunction(() => document.querySelector("kafka-ladder").step === 4);
});

test("embedding: the text content as the script, step from markup, readonly", { timeout: 60_000 }, async () => {
  await openScenario("lost-response-retry");
  await page.evaluate(() => {
    const l = document.createElement("kafka-ladder");
    l.id = "inline";
    l.setAttribute("readonly", "");
    l.setAttribute("step", "end");
    l.textContent = "title Inline\npartition p0\nproducer app\nsend app p0 a b\nflush\nsend app p0 c";
    document.querySelector("#lab").append(l);
  });
  await page.waitForFunction(() => document.getElementById("inline").steps === 3);
  const inline = page.locator("#inline");
  assert.equal(await page.evaluate(() => document.getElementById("inline").step), 2, "the markup's step (end) is honoured");
  assert.match(await inline.locator(".now").textContent(), /application sends b2: 1 record\(s\)/);
  await page.evaluate(() => document.getElementById("inline").setAttribute("step", "0"));
  await page.waitForFunction(() => document.getElementById("inline").step === 0);
  assert.match(await inline.locator(".now").textContent(), /application sends b1: 2 record\(s\)/);
  assert.equal(await inline.locator(".next").isHidden(), true, "readonly: no next-step buttons");
  await page.evaluate(() => (document.getElementById("inline").textContent = "partition p0\nproducer app\nsend app p0 a\nflush\nexpect b1 acked 0..0"));
  await page.waitForFunction(() => document.getElementById("inline").steps === 2);
  assert.match(await inline.locator(".summary").textContent(), /All 1 expectations hold/);
});

test("dark mode follows prefers-color-scheme, canvas included", { timeout: 60_000 }, async () => {
  await openScenario("window-moved-past");
  await goTo(await stepOfLine(30));
  const pixel = () =>
    page.evaluate(() => {
      const c = document.querySelector("kafka-ladder").shadowRoot.querySelector("canvas");
      return [...c.getContext("2d", { willReadFrequently: true }).getImageData(c.width - 4, c.height - 4, 1, 1).data];
    });
  const light = await pixel();
  await page.emulateMedia({ colorScheme: "dark" });
  // The media change redraws the canvas in a later frame; an unrelated redraw (a resize, a font)
  // may come first, so wait for the corner pixel itself to change rather than for any draw.
  await page.waitForFunction((before) => {
    const c = document.querySelector("kafka-ladder").shadowRoot.querySelector("canvas");
    const now = [...c.getContext("2d", { willReadFrequently: true }).getImageData(c.width - 4, c.height - 4, 1, 1).data];
    return now.some((v, i) => v !== before[i]);
  }, light, { timeout: 10_000 });
  const dark = await pixel();
  if (SHOTS) await page.locator("kafka-ladder").screenshot({ path: join(SHOTS, "ladder-dark.png") });
  await page.emulateMedia({ colorScheme: "light" });
  assert.notDeepEqual(light, dark);
  assert.ok(light[0] + light[1] + light[2] > dark[0] + dark[1] + dark[2], `light ${light} is brighter than dark ${dark}`);
});

test("a 10,000-batch run scrolls, drawing only the rows in view", { timeout: 120_000 }, async () => {
  await openScenario("lost-response-retry");
  const loaded = page.evaluate(
    () => new Promise((r) => document.querySelector("kafka-ladder").addEventListener("kafka-ladder:load", (e) => r(e.detail), { once: true })),
  );
  await page.click("#long-run");
  const detail = await loaded;
  assert.equal(detail.error, null);
  assert.equal(detail.rows, 1 + 4 * 10_000);
  const stats = await page.evaluate(async () => {
    const l = document.querySelector("kafka-ladder");
    const vp = l.shadowRoot.querySelector(".viewport");
    vp.scrollTop = vp.scrollHeight / 2;
    await new Promise((r) => setTimeout(r, 300)); // the text alternative follows once scrolling pauses
    await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
    const items = [...l.shadowRoot.querySelectorAll("ol.sr-only li")];
    return { items: items.length, first: items[0]?.textContent, last: items.at(-1)?.textContent, ms: l.renderStats.lastDrawMs };
  });
  assert.ok(stats.items > 5 && stats.items < 80, `only the rows in view are in the DOM (${stats.items})`);
  const batch = Number(/\bb(\d+)\b/.exec(stats.first)?.[1]);
  assert.ok(batch > 4000 && batch < 6000, `halfway down is around b5000: ${stats.first}`);
});

test("index.html embeds the idempotence section", { timeout: 60_000 }, async (t) => {
  const html = readFileSync(join(ROOT, "www/index.html"), "utf8");
  if (!/<kafka-ladder\b/.test(html)) {
    t.skip("www/index.html has no <kafka-ladder> yet (its #idempotence placeholder is not replaced)");
    return;
  }
  await page.goto(`${baseUrl}/www/`, { waitUntil: "load" });
  const section = page.locator("#idempotence");
  assert.equal(await section.isVisible(), true);
  // The section's elements (and the full package with the models) load when it nears the viewport.
  await section.scrollIntoViewIfNeeded();
  await page.waitForFunction(() => document.querySelector("#idempotence kafka-ladder")?.run?.title?.startsWith("Lost response"));
  assert.match(await section.locator("kafka-ladder .now").textContent(), /Step \d+ of \d+/);
  await section.locator("kafka-producer-config .result table, kafka-producer-config .result .exception").first().waitFor();
  assert.equal(await section.locator('a[href="idempotence.html"]').count(), 1);
});

test("axe-core finds no accessibility violations on idempotence.html (light, dark, batch dialog open)", { timeout: 120_000 }, async (t) => {
  const axePath = join(ROOT, "tests/node_modules/axe-core/axe.min.js");
  assert.ok(existsSync(axePath), `axe-core is missing (${axePath}): it is a devDependency in tests/package.json — run scripts/ensure-test-tools.sh (or npm ci in tests/); the accessibility scan must not be skipped`);
  const axeSource = readFileSync(axePath, "utf8");
  const scan = async (label) => {
    await page.evaluate(axeSource); // through the devtools protocol: the page's CSP does not apply
    const result = await page.evaluate(() => window.axe.run(document, { resultTypes: ["violations"] }));
    const summary = result.violations.map((v) => `${v.id}: ${v.help} (${v.nodes.length}) ${v.nodes.slice(0, 3).map((n) => JSON.stringify(n.target)).join(" ")}`);
    assert.deepEqual(summary, [], `${label}: ${summary.join("\n")}`);
  };
  await openScenario("window-moved-past");
  await goTo(await stepOfLine(30));
  await page.locator("kafka-ladder .viewport").focus();
  await page.keyboard.press("ArrowDown"); // a selected row shows its detail panel
  await scan("light");
  await page.emulateMedia({ colorScheme: "dark" });
  await scan("dark");
  await page.emulateMedia({ colorScheme: "light" });
  await page.locator("kafka-ladder ul.batches button").first().click();
  await page.locator("kafka-ladder dialog[open]").waitFor();
  await scan("batch dialog");
  await page.keyboard.press("Escape");
});

test("coordinator-requests: the coordinator's answers and its markers are steps of the ladder, as text", { timeout: 60_000 }, async () => {
  await openScenario("coordinator-requests");
  const lines = await page.evaluate(() => document.querySelector("kafka-ladder").run.steps.map((s) => [s.line, s.text]));
  const endTxn = lines.find(([, t]) => t.startsWith("end-txn "));
  const markers = lines.find(([, t]) => t === "deliver markers");
  assert.ok(endTxn && markers, JSON.stringify(lines));
  await goTo(await stepOfLine(endTxn[0]));
  assert.match(await nowText(), /EndTxn response NONE\(0\): ABORT: PrepareAbort written to __transaction_state/);
  await goTo(await stepOfLine(markers[0]));
  const now = await nowText();
  assert.match(now, /WriteTxnMarkers\(ABORT, producer 1001 epoch 0/);
  assert.match(now, /CompleteAbort for pay: every marker is written \(K5\)/);
  const kinds = await page.evaluate(() => document.querySelector("kafka-ladder").run.steps.flatMap((s) => s.events.map((e) => e.kind)));
  assert.ok(kinds.includes("cluster") && kinds.includes("decision"), kinds.join(" "));
});

test("a transactions script in <kafka-ladder>: the timeline's report drawn as a sequence diagram, lanes, rules and state per step", { timeout: 90_000 }, async () => {
  await page.goto("about:blank");
  await page.goto(`${baseUrl}/www/frame.html#kafka-ladder?scenario=txn-commit-response-lost&compact=0&readonly=0`, { waitUntil: "load" });
  await page.waitForFunction(() => document.querySelector("kafka-ladder")?.steps > 0);
  // The same report as <kafka-timeline>'s (runTxnScenario): one row per step and per message.
  const shape = await page.evaluate(async () => {
    const l = document.querySelector("kafka-ladder");
    const { runTxnScenario } = await import("/pkg/eoslab.js");
    const again = runTxnScenario(l.script, {});
    const rows = again.steps.length + again.steps.reduce((n, s) => n + s.messages.length, 0);
    return { model: l.run.model, same: JSON.stringify(again) === JSON.stringify(l.run), rows, drawn: l.renderStats.rows, passed: l.run.passed };
  });
  assert.deepEqual(shape, { model: "transactions", same: true, rows: shape.rows, drawn: shape.rows, passed: true });

  // Its JSON twin (parseScenario; "model": "transactions") draws the same sequence diagram, and a
  // <kafka-timeline> beside it draws the same report (its steps, records, lanes and next steps; the
  // timeline adds its own index to each delivery).
  const twin = await page.evaluate(async () => {
    const l = document.querySelector("kafka-ladder");
    const { parseScenario } = await import("/pkg/eoslab.js");
    await import("/www/kafka-timeline.js");
    const text = l.script;
    const before = JSON.stringify(l.run);
    const rows = l.renderStats.rows;
    const json = JSON.stringify(parseScenario(text), null, 1);
    const t = document.createElement("kafka-timeline");
    const loaded = (el, name) => new Promise((resolve) => el.addEventListener(name, (e) => resolve(e.detail), { once: true }));
    const both = Promise.all([loaded(l, "kafka-ladder:load"), loaded(t, "kafka-timeline:load")]);
    t.setAttribute("script", json);
    document.body.append(t);
    l.setAttribute("script", json);
    const [ld, td] = await both;
    const out = { errors: [ld.error ?? null, td.error ?? null], kind: l.run.model, same: JSON.stringify(l.run) === before, rows: l.renderStats.rows === rows, timeline: ["steps", "records", "lanes", "nextSteps"].every((k) => JSON.stringify(t.report?.[k]) === JSON.stringify(l.run[k])) };
    t.remove();
    l.setAttribute("script", text);
    return out;
  });
  assert.deepEqual(twin, { errors: [null, null], kind: "transactions", same: true, rows: true, timeline: true });

  // The first commit: its answer is lost on the way back (a lost arrow), the producer throws.
  const commit = await page.evaluate(() => document.querySelector("kafka-ladder").run.steps.find((s) => s.text === "commit app lose-response").line);
  await goTo(await stepOfLine(commit));
  // The rows in view as text (the canvas's text alternative; rebuilt once scrolling pauses: polled).
  const rows = () => page.evaluate(() => [...document.querySelector("kafka-ladder").shadowRoot.querySelectorAll("ol.sr-only li")].map((li) => ({ text: li.textContent, rule: li.dataset.rule ?? null, code: li.dataset.errorCode ?? null })));
  const rowsWith = async (pred) => {
    let list = [];
    for (let i = 0; i < 50 && !pred(list); i++) {
      if (i) await page.waitForTimeout(100);
      list = await rows();
    }
    return list;
  };
  let list = await rowsWith((l) => l.some((r) => /lost/.test(r.text)));
  assert.ok(list.some((r) => /^request: app → coordinator: EndTxn: EndTxn v5\(order-service, producer 1000 epoch 0, COMMIT\)/.test(r.text)), JSON.stringify(list));
  assert.ok(list.some((r) => /^answer: coordinator → app: response: .*\(lost\)/.test(r.text)), JSON.stringify(list));
  // Its state after that step (folded from the report, not run again): PrepareCommit, the LSO held at the open transaction.
  let panels = await page.locator("kafka-ladder .state").textContent();
  assert.match(panels, /orders-0 · leader.*last stable offset 0/s);
  assert.match(panels, /order-service: PrepareCommit/);
  assert.match(panels, /COMMITTING_TRANSACTION/);

  // The retried commit while the markers are pending: CONCURRENT_TRANSACTIONS (51) by rule F7, as a refusal with its rule.
  const retry = await page.evaluate(() => document.querySelector("kafka-ladder").run.steps.filter((s) => s.text === "commit app").at(-1).line);
  await goTo(await stepOfLine(retry));
  list = await rowsWith((l) => l.some((r) => r.rule === "F7"));
  const refused = list.find((r) => r.rule === "F7");
  assert.ok(refused && refused.code === "51" && /^refused: coordinator → app: response: EndTxn response CONCURRENT_TRANSACTIONS\(51\)/.test(refused.text), JSON.stringify(list));
  assert.match(await nowText(), /REFUSED\s*CONCURRENT_TRANSACTIONS \(51\)\s*F7/);

  // The end: the markers are written (K2, M4), the consumer reads o1, the LSO has moved.
  await page.evaluate(() => { document.querySelector("kafka-ladder").step = "end"; });
  await page.waitForFunction(() => { const l = document.querySelector("kafka-ladder"); return l.step === l.steps - 1; });
  list = await rowsWith((l) => l.some((r) => r.rule === "K2"));
  assert.ok(list.some((r) => r.rule === "K2" && /^marker: coordinator → orders-0: WriteTxnMarkers/.test(r.text)), JSON.stringify(list));
  assert.ok(list.some((r) => r.rule === "M4" && /^answer: orders-0 → coordinator/.test(r.text)), JSON.stringify(list));
  panels = await page.locator("kafka-ladder .state").textContent();
  assert.match(panels, /last stable offset 2/);
  assert.match(panels, /order-service: CompleteCommit/);
  // Its next steps are the timeline's (the report's), as buttons.
  const next = await page.locator("kafka-ladder .next button").allTextContents();
  assert.ok(next.includes("app: beginTransaction()"), next.join(" | "));

  // A row whose message wrote a record opens its bytes (keyboard: ↓ from the top to the marker's answer, Enter).
  await page.evaluate(() => { document.querySelector("kafka-ladder").shadowRoot.querySelector(".viewport").scrollTop = 0; });
  await page.locator("kafka-ladder .viewport").focus();
  const detail = page.locator("kafka-ladder .detail");
  let found = false;
  for (let i = 0; i < 80 && !found; i++) {
    await page.keyboard.press("ArrowDown");
    found = /marker written: COMMIT marker/.test((await detail.textContent()) ?? "") && (await detail.locator("button[data-record]").count()) > 0;
  }
  assert.ok(found, "the marker's answer is selectable with its record");
  await page.keyboard.press("Enter");
  const dialog = page.locator("kafka-ladder dialog[open]");
  await dialog.waitFor();
  assert.match(await dialog.locator(":scope > h2").textContent(), /orders-0 @1/);
  const field = (name) => dialog.locator(`:scope > table.fields tr[data-field="${name}"] td`).textContent();
  assert.equal(await field("kind"), "commit");
  assert.equal(await field("producerId"), "1000");
  await page.keyboard.press("Escape");
});

test("a transactions script in <kafka-ladder> with predict: the coordinator's answer is asked before it is shown, then revealed with its rule", { timeout: 60_000 }, async () => {
  await page.goto("about:blank");
  await page.goto(`${baseUrl}/www/frame.html#kafka-ladder?scenario=txn-commit-response-lost&compact=0&readonly=0&step=0`, { waitUntil: "load" });
  await page.waitForFunction(() => document.querySelector("kafka-ladder")?.steps > 0);
  await goTo(0);
  await page.click('kafka-ladder button[data-action="predict"]');
  // Step 1 (init app) is shown; forward to step 2 asks nothing (begin: no answer) …
  const quiz = page.locator("kafka-ladder .quiz");
  let prompt = null;
  for (let i = 0; i < 6 && !prompt; i++) {
    await page.click('kafka-ladder button[data-action="forward"]');
    if (await quiz.locator("button[data-choice]").count()) prompt = await quiz.locator(".choices").getAttribute("aria-labelledby").then((id) => quiz.locator(`#${id}`).textContent());
  }
  // … the first answered step is the send: the leader answers the Produce (the answer a producer gets first in that step).
  assert.match(prompt ?? "", /what does (orders-0|coordinator) answer app's (Produce|EndTxn)\?$/);
  const labels = await quiz.locator("button[data-choice]").evaluateAll((bs) => bs.map((b) => b.dataset.choice));
  assert.ok(labels.includes("NONE") && labels.length >= 3, labels.join(" | "));
  await page.keyboard.press(String(labels.indexOf("NONE") + 1));
  await quiz.locator(".reveal").waitFor();
  assert.match(await quiz.locator(".reveal").textContent(), /^✓ Right: NONE\..*\b(A6|F4)\b/s);
  await page.click('kafka-ladder button[data-action="predict"]');
});

test("a transactions script with a mistake in <kafka-ladder>: the steps before it run, the error names its line", { timeout: 60_000 }, async () => {
  await page.goto("about:blank");
  const script = "model transactions\npartition p\nproducer app transactional.id=t\ninit app\nbegin app\nsned app p x\n";
  await page.goto(`${baseUrl}/www/frame.html#kafka-ladder?script=${encodeURIComponent(script)}&compact=0&readonly=0`, { waitUntil: "load" });
  await page.waitForFunction(() => document.querySelector("kafka-ladder")?.steps > 0);
  const error = await page.locator("kafka-ladder .error").textContent();
  assert.match(error, /line 6/);
  const steps = await page.evaluate(() => document.querySelector("kafka-ladder").run.steps.map((s) => s.text));
  assert.deepEqual(steps, ["init app", "begin app"]);
});

test("the same run as a timeline: an idempotence script in <kafka-timeline>, stepping with the ladder", { timeout: 90_000 }, async () => {
  await openScenario("lost-response-retry");
  await page.evaluate(() => { document.getElementById("timeline-view").open = true; });
  await page.waitForFunction(() => document.getElementById("timeline")?.steps > 0);
  const facts = await page.evaluate(() => {
    const l = document.getElementById("ladder");
    const t = document.getElementById("timeline");
    const r = t.report;
    return {
      model: r.model, passed: r.passed, steps: [l.steps, t.steps],
      lines: JSON.stringify(r.steps.map((s) => s.line)) === JSON.stringify(l.run.steps.map((s) => s.line)),
      // The leader's log as records: b1 once, with the bytes the ladder's final state holds.
      records: r.records.map((x) => [x.partition, x.offset, x.hex === l.run.finalState[0].log.find(([o]) => o === x.offset)?.[1]]),
      // The retry's answer: a duplicate, rule A1, to the producer's lane.
      answers: r.steps.flatMap((s) => s.messages).filter((m) => m.kind === "response" && !m.lost).map((m) => `${m.from}>${m.to} ${m.rule}`),
      lost: r.steps.flatMap((s) => s.messages).filter((m) => m.lost).length,
      // The step buttons are the idempotence script's own (the ladder's), not the transactions world's.
      next: JSON.stringify(r.nextSteps) === JSON.stringify(l.run.nextSteps),
      nextLines: r.nextSteps.map((n) => n.line),
    };
  });
  assert.equal(facts.model, "idempotence");
  assert.ok(facts.passed && facts.lines);
  assert.equal(facts.steps[0], facts.steps[1]);
  assert.deepEqual(facts.records, [["orders-0", 0, true]]);
  assert.deepEqual(facts.answers, ["partition:orders-0>producer:app A6", "partition:orders-0>producer:app A1"]);
  assert.equal(facts.lost, 1, "the lost response is a lost message");
  assert.ok(facts.next && facts.nextLines.some((l) => l.startsWith("send app")), facts.nextLines.join(" | "));
  // Stepping either steps the other.
  await page.evaluate(() => { document.getElementById("ladder").step = 1; });
  await page.waitForFunction(() => document.getElementById("timeline").step === 1);
  await page.evaluate(() => { document.getElementById("timeline").step = 3; });
  await page.waitForFunction(() => document.getElementById("ladder").step === 3);
  // The link keeps the open timeline: opened again, it shows it at the same step.
  await linkState(page, { timeline: true, step: 3 });
  const hash = await page.evaluate(() => location.hash);
  await page.goto("about:blank");
  await page.goto(`${baseUrl}/www/idempotence.html${hash}`, { waitUntil: "load" });
  await page.waitForFunction(() => document.getElementById("timeline-view").open && document.getElementById("timeline")?.step === 3 && document.getElementById("ladder").step === 3);
  await page.evaluate(() => { document.getElementById("timeline-view").open = false; });
  await linkState(page, { timeline: undefined });
});

test("no console errors, no page errors, no dialogs, no requests off 127.0.0.1", () => {
  const { consoleErrors, pageErrors, foreignRequests, dialogs } = lab;
  // Without www/kafka-batch.js, opening a rung tries its lazy import (a 404) and falls back to hex.
  const allowed = HAVE_INSPECTOR ? [] : consoleErrors.filter((e) => /404|Failed to fetch dynamically imported module/.test(e));
  assert.deepEqual(pageErrors, []);
  assert.deepEqual(consoleErrors.filter((e) => !allowed.includes(e)), []);
  assert.deepEqual(foreignRequests, []);
  assert.deepEqual(dialogs, []);
});
