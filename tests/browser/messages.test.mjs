// Browser test of requests and responses in the Batch Inspector (www/lib/messages.js):
// paste a Fetch request and its response (written by Kafka 4.3.1's own serializers,
// tests/fixtures/envelopes-4.3.1) and see the envelope tree, the byte map linked both ways, the
// aborted batch marked as a read_committed consumer skips it, and the records opened in the batch view.
// Run: node --test tests/browser/messages.test.mjs   (needs `make pkg`, /usr/bin/chromium, `npm ci` in tests/)
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { launch, EXAMPLE_A_HEX } from "./helpers.mjs";

const hex = (name) => readFileSync(new URL(`../fixtures/envelopes-4.3.1/${name}.hex`, import.meta.url), "utf8").trim();

let env;
let page;

before(async () => {
  env = await launch();
  page = env.page;
  await env.context.addInitScript(() => {
    globalThis.kbRoot = () => document.querySelector("kafka-batch").shadowRoot;
    // As in inspector.test.mjs: keep the page's lazily imported model sections (the full package)
    // dormant, so the wasm requests seen are the inspector's alone.
    if (location.pathname === "/www/" || location.pathname === "/") {
      globalThis.IntersectionObserver = class {
        observe() {}
        unobserve() {}
        disconnect() {}
        takeRecords() { return []; }
      };
    }
  });
  await page.goto(`${env.baseUrl}/`, { waitUntil: "load" });
  await page.waitForSelector('body[data-ready="1"]');
});

after(async () => {
  await env?.close();
});

/** Polls fn(arg) in the page until truthy (page.waitForFunction would need eval, which the CSP forbids). */
async function until(fn, arg, timeout = 20_000) {
  const end = Date.now() + timeout;
  for (;;) {
    const v = await page.evaluate(fn, arg);
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${fn.toString().slice(0, 160)}`);
    await new Promise((r) => setTimeout(r, 40));
  }
}

test("a Fetch response with an aborted transaction: the aborted batch is marked", async () => {
  const input = hex("fetch-v12-request") + "\n" + hex("fetch-v12-response");
  await page.fill("#input", input);
  await until(() => {
    const m = kbRoot().querySelector("#messages");
    return m && !m.hidden && m.querySelectorAll("details.msg").length === 2;
  });
  const heads = await page.evaluate(() => [...kbRoot().querySelectorAll("#messages details.msg > summary")].map((s) => s.textContent));
  assert.equal(heads[0], "#0 request Fetch v12 · correlationId 22 · bytes 0–93");
  assert.equal(heads[1], "#1 response Fetch v12 · correlationId 22 · answers #0 · bytes 93–519");
  const verdicts = await page.evaluate(() =>
    [...kbRoot().querySelectorAll("#messages .records li")].map((li) => [li.dataset.verdict, li.textContent]));
  assert.deepEqual(verdicts.map((v) => v[0]), ["delivered", "control", "aborted", "control"]);
  assert.match(verdicts[2][1], /^offsets 3–3 · producerId 1 · transactional — READ_COMMITTED: skipped: an aborted transaction's batch/);
  assert.match(verdicts[2][1], /aborted transaction begins at offset 3/);
  const note = await page.evaluate(() => kbRoot().querySelector("#messages .records p").textContent);
  assert.match(note, /isolation level from the Fetch request/);
  // The aborted transactions field itself, in the tree.
  const names = await page.evaluate(() => [...kbRoot().querySelectorAll("#messages details.msg")[1].querySelectorAll("button.node")].map((b) => b.textContent));
  assert.ok(names.includes("abortedTransactions: 1 element(s) [148..166)"), names.join("\n"));
  assert.ok(names.includes("currentLeader (tag 1) [506..517)"), names.join("\n"));
});

test("field → bytes and byte → field", async () => {
  await page.evaluate(() => [...kbRoot().querySelectorAll("#messages details.msg")[1].querySelectorAll("button.node")].find((b) => b.dataset.name === "highWatermark").click());
  const sel = await page.evaluate(() => [...kbRoot().querySelectorAll("#messages details.msg")[1].querySelectorAll("pre.bytemap span.b.sel")].map((s) => Number(s.dataset.at)));
  assert.deepEqual(sel, [124, 125, 126, 127, 128, 129, 130, 131]);
  await page.evaluate(() => kbRoot().querySelectorAll("#messages details.msg")[1].querySelector('pre.bytemap span.b[data-at="159"]').click());
  const pressed = await page.evaluate(() => kbRoot().querySelectorAll("#messages details.msg")[1].querySelector('button.node[aria-pressed="true"]').textContent);
  assert.equal(pressed, "firstOffset: 3 [157..165)");
});

test("the records open in the batch view", async () => {
  await page.evaluate(() => kbRoot().querySelectorAll("#messages button.open-records")[0].click());
  await until(() => {
    const nested = kbRoot().querySelector("#messages-batch");
    return nested?.shadowRoot && nested.bytes.length === 333;
  });
  const heading = await page.evaluate(() => kbRoot().querySelector("#messages-records h4").textContent);
  assert.equal(heading, "Records of responses[0].partitions[0].records (bytes 172–505; positions below are relative to byte 172)");
  const rows = await until(() => kbRoot().querySelector("#messages-batch").shadowRoot.querySelectorAll("#segment [role=option], #segment tr").length);
  assert.ok(rows >= 4, `nested batch list rows: ${rows}`);
});

test("a lone response: the panel asks for its API and version, then reads it", async () => {
  const before = await page.evaluate(() => kbRoot().querySelectorAll("#messages details.msg").length);
  assert.equal(before, 2);
  await page.fill("#input", hex("fetch-v4-response"));
  await until(() => !kbRoot().querySelector("#messages-ask").hidden);
  assert.equal(await page.evaluate(() => kbRoot().querySelectorAll("#messages details.msg").length), 0);
  await page.selectOption("#ask-api", "1");
  await page.fill("#ask-version", "4");
  await page.click("#ask-read");
  await until(() => kbRoot().querySelectorAll("#messages details.msg").length === 1);
  const head = await page.evaluate(() => kbRoot().querySelector("#messages details.msg > summary").textContent);
  assert.equal(head, "#0 response Fetch v4 · correlationId 21 · api from the options · bytes 0–404");
  const verdicts = await page.evaluate(() => [...kbRoot().querySelectorAll("#messages .records li")].map((li) => li.dataset.verdict));
  assert.deepEqual(verdicts, ["delivered", "control", "aborted", "control"]);
  const note = await page.evaluate(() => kbRoot().querySelector("#messages .records p").textContent);
  assert.match(note, /inferred: brokers send abortedTransactions only to read_committed fetchers/);
});

test("a corrupt batch does not load the message decoder (pkg/eoslab-files.js)", async () => {
  await page.reload({ waitUntil: "load" });
  await page.waitForSelector('body[data-ready="1"]');
  const before = env.wasmRequests.length;
  // Example A with its last byte changed: a CRC error, not a request.
  const bad = EXAMPLE_A_HEX.slice(0, -2) + "01";
  const n = await page.evaluate(() => {
    window.__d = 0;
    document.querySelector("kafka-batch").addEventListener("kafka-batch:decode", () => window.__d++);
    return 0;
  });
  await page.fill("#input", bad);
  await until((prev) => window.__d > prev, n);
  await new Promise((r) => setTimeout(r, 300));
  const full = env.wasmRequests.slice(before).filter((w) => w.path.endsWith("/pkg/eoslab-files_bg.wasm"));
  assert.deepEqual(full, []);
  assert.equal(await page.evaluate(() => kbRoot().querySelector("#messages").hidden), true);
  assert.equal(await page.evaluate(() => kbRoot().querySelector("#messages-ask").hidden), true);
});

test("the page stays clean: no page errors, console errors or foreign requests", async () => {
  assert.deepEqual(env.pageErrors, []);
  assert.deepEqual(env.consoleErrors, []);
  assert.deepEqual(env.foreignRequests, []);
});
