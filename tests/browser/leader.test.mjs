// Browser test of "Send to a leader" in <kafka-batch>: paste Kafka's Example A, open the
// panel, send it to a leader with an empty state (appended), with the batch's own producer entry
// (a duplicate, A1) and with a last sequence that leaves a gap (OUT_OF_ORDER_SEQUENCE_NUMBER, A7).
// Run: node --test tests/browser/      (needs `make pkg`, /usr/bin/chromium and `npm ci` in tests/)
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { launch, EXAMPLE_A_HEX } from "./helpers.mjs";

let env;
let page;

before(async () => {
  env = await launch();
  page = env.page;
  await page.goto(`${env.baseUrl}/`, { waitUntil: "load" });
  await page.waitForSelector('body[data-ready="1"]');
});

after(async () => {
  await env?.close();
});

/** Polls fn(arg) in the page until it is truthy (no eval: the page's CSP forbids it). */
async function until(fn, arg, timeout = 20_000) {
  const end = Date.now() + timeout;
  for (;;) {
    const v = await page.evaluate(fn, arg);
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${fn.toString().slice(0, 160)}`);
    await new Promise((r) => setTimeout(r, 40));
  }
}

/** Sends, and waits for the answer: {outcome, rule, error, text}. */
async function send() {
  await page.evaluate(() => {
    const out = document.querySelector("kafka-batch").shadowRoot.querySelector("#leader-out");
    out.replaceChildren();
  });
  await page.click("#leader-send");
  await until(() => document.querySelector("kafka-batch").shadowRoot.querySelector("#leader-verdict"));
  return page.evaluate(() => {
    const root = document.querySelector("kafka-batch").shadowRoot;
    const v = root.querySelector("#leader-verdict");
    return { outcome: v.dataset.outcome, rule: v.dataset.rule, error: v.dataset.error, text: root.querySelector("#leader-out").textContent };
  });
}

test("Send to a leader: appended on an empty state, a duplicate of its own entry (A1), a gap (A7)", { timeout: 90_000 }, async () => {
  await page.evaluate(() => {
    window.__decoded = 0;
    document.querySelector("kafka-batch").addEventListener("kafka-batch:decode", () => window.__decoded++);
  });
  await page.fill("#input", EXAMPLE_A_HEX);
  await until(() => window.__decoded > 0);
  assert.equal(await page.locator("#leader").isHidden(), true);
  // Keyboard: the toolbar button opens the panel and focuses the state's choice.
  await page.focus("#btn-leader");
  await page.keyboard.press("Enter");
  await page.waitForSelector("#leader:not([hidden])");
  assert.equal(await page.locator("#btn-leader").getAttribute("aria-pressed"), "true");
  assert.equal(await page.evaluate(() => {
    let a = document.activeElement;
    while (a?.shadowRoot?.activeElement) a = a.shadowRoot.activeElement;
    return a?.id;
  }), "leader-empty");
  // The entry's fields start as the batch's own producer fields.
  assert.deepEqual(
    await Promise.all(["#leader-pid", "#leader-epoch", "#leader-first", "#leader-last"].map((s) => page.inputValue(s))),
    ["4242", "1", "7", "7"]);

  const empty = await send();
  assert.deepEqual([empty.outcome, empty.rule, empty.error], ["appended", "A6", "NONE"]);
  assert.match(empty.text, /Appended at offsets 0–0/);

  // The leader already holds this producer's batch 7..7 (at offset 5): a duplicate.
  await page.check("#leader-entry");
  await page.fill("#leader-offset", "5");
  const dup = await send();
  assert.deepEqual([dup.outcome, dup.rule, dup.error], ["duplicate", "A1", "NONE"]);
  assert.match(dup.text, /original offsets 5–5/);

  // Its last batch ended at sequence 5: 7 leaves a gap.
  await page.fill("#leader-first", "3");
  await page.fill("#leader-last", "5");
  const gap = await send();
  assert.deepEqual([gap.outcome, gap.rule, gap.error], ["rejected", "A7", "OUT_OF_ORDER_SEQUENCE_NUMBER"]);
  assert.match(gap.text, /OUT_OF_ORDER_SEQUENCE_NUMBER \(45\)/);
  assert.match(gap.text, /ProducerAppendInfo/);

  // A field that is not a number is named, not sent.
  await page.fill("#leader-epoch", "one");
  const bad = await page.click("#leader-send").then(() => until(() => document.querySelector("kafka-batch").shadowRoot.querySelector("#leader-out p.bad")?.textContent));
  assert.match(bad, /^epoch: a whole number/);
  assert.equal(await page.locator("#leader-epoch").getAttribute("aria-invalid"), "true");

  assert.deepEqual(env.pageErrors, []);
  assert.deepEqual(env.consoleErrors, []);
  assert.deepEqual(env.foreignRequests, []);
});
