// The lab page's packet capture view (<kafka-capture>, www/kafka-capture.js) in Chromium, fed the
// pcapng of real Java-client traffic to a real Kafka 4.3.1 broker (tests/fixtures/capture-4.3.1,
// see its PROVENANCE.md) as a user opening it would: every exchange drawn between its client and
// broker lanes, the filters keeping one transaction, producer, partition or API, an exchange
// opened (mouse and keyboard) into the inspector as its request and response, a capture dropped on
// the inspector handed to the capture view, and a damaged capture named with its file byte while
// what could be read is still drawn.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { launch, ROOT } from "./helpers.mjs";

const PCAP = readFileSync(join(ROOT, "tests/fixtures/capture-4.3.1/capture.pcapng"));
const file = (buffer, name = "capture.pcapng") => ({ name, mimeType: "application/octet-stream", buffer });

let env;
let page;

before(async () => {
  env = await launch({ colorScheme: "light" });
  page = env.page;
  await page.goto(`${env.baseUrl}/`, { waitUntil: "load" });
  await page.waitForSelector('body[data-ready="1"]');
});

after(async () => {
  await env?.close();
});

const loaded = () => page.evaluate(() => new Promise((resolve) => document.addEventListener("kafka-capture:load", (e) => resolve(e.detail), { once: true })));
const rows = () => page.locator("kafka-capture g.ex");
const shown = () => page.locator("kafka-capture [data-shown]").textContent();
const choose = (label, value) => page.locator(`kafka-capture select[aria-label="${label}"]`).selectOption(value);

/** Polls fn() until it returns truthy (no eval: the page's CSP forbids it). */
async function until(fn, what, ms = 15_000) {
  const end = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

test("a real capture: every exchange drawn between its client and broker lanes", { timeout: 60_000 }, async () => {
  assert.ok(!env.wasmRequests.some((r) => r.path.endsWith("/eoslab-files_bg.wasm")), "the capture reader is not fetched before a capture is opened");
  const done = loaded();
  await page.setInputFiles("kafka-capture input[type=file]", file(PCAP));
  assert.deepEqual(await done, { exchanges: 44, connections: 7, problems: 0 });
  assert.match(await page.locator("kafka-capture p.summary").textContent(), /pcapng, 20884 bytes, 102 packet\(s\), link type\(s\) ETHERNET; 7 TCP connection\(s\), 7 carrying Kafka; 44 exchange\(s\), 44 answered\./);
  assert.equal(await rows().count(), 44);
  const heads = await page.locator("kafka-capture svg > text").allTextContents();
  // A lane per client (its client id, connections of one client sharing it) and per broker, each name whole.
  for (const lane of ["capture-producer", "AddPartitionsManager-client-1", "broker-1-txn-marker-sender", "capture-consumer", "broker", "127.0.0.1:9092"]) assert.ok(heads.includes(lane), `${lane} in ${heads}`);
  assert.equal(heads.filter((h) => h === "capture-producer").length, 1, "the producer's two connections share its lane");
  // The producer's first InitProducerId met a coordinator still loading: its answer says so.
  const init = rows().filter({ hasText: "InitProducerId v5 #6" });
  assert.match(await init.textContent(), /COORDINATOR_LOAD_IN_PROGRESS\(14\) after 0\.100 ms/);
  assert.match(await init.getAttribute("aria-label"), /InitProducerId v5 #6, answered COORDINATOR_LOAD_IN_PROGRESS\(14\) after 0\.100 ms; transactional\.id "capture-tx"/);
  assert.deepEqual(env.pageErrors, []);
  assert.deepEqual(env.consoleErrors, []);
});

test("filters keep one transactional.id, producer id, partition or API", { timeout: 60_000 }, async () => {
  await choose("Only this transactional.id", "capture-tx");
  assert.equal(await rows().count(), 20);
  assert.equal(await shown(), "20 of 44 exchange(s)");
  const apis = new Set((await rows().allTextContents()).map((t) => t.match(/\+[\d.]+s(\w+)/)[1]));
  assert.deepEqual([...apis].sort(), ["AddOffsetsToTxn", "AddPartitionsToTxn", "EndTxn", "InitProducerId", "Produce", "TxnOffsetCommit"]);
  await choose("Only this transactional.id", "");
  await choose("Only this API", "WriteTxnMarkers");
  await choose("Only this partition", "txn-1");
  assert.equal(await rows().count(), 1, "the first markers are the only ones for txn-1");
  assert.match(await rows().first().textContent(), /WriteTxnMarkers v2 #0/);
  await choose("Only this API", "");
  await choose("Only this partition", "");
  await choose("Only this producer id", "0");
  const pid = await rows().allTextContents();
  assert.ok(pid.some((t) => t.includes("Fetch v18")), "the Fetch answer names producer 0 in its batches");
  assert.ok(!pid.some((t) => t.includes("InitProducerId v5 #6")), "the first InitProducerId was answered before there was an id");
  await choose("Only this producer id", "");
  assert.equal(await rows().count(), 44);
});

test("an exchange opens in the inspector as its request and its response (mouse and keys)", { timeout: 60_000 }, async () => {
  const decoded = () => page.evaluate(() => new Promise((resolve) => document.addEventListener("kafka-batch:messages-decode", (e) => resolve(e.detail), { once: true })));
  const got = decoded();
  await rows().filter({ hasText: "InitProducerId v5 #6" }).click();
  assert.deepEqual(await got, { messages: 2, errors: 0 });
  const detail = await page.locator("kafka-capture dl").textContent();
  assert.match(detail, /answerCOORDINATOR_LOAD_IN_PROGRESS\(14\) after 0\.100 ms/);
  assert.match(detail, /connection2: 127\.0\.0\.1:40001 → 127\.0\.0\.1:9092/);
  const summary = await until(async () => {
    const t = await page.locator("kafka-batch #messages-summary").textContent().catch(() => "");
    return t.includes("2 Kafka protocol messages") && t;
  }, "the inspector's messages summary");
  assert.match(summary, /2 Kafka protocol messages/);
  const list = await page.locator("kafka-batch #messages-list").textContent();
  assert.match(list, /InitProducerId/);
  assert.match(list, /response InitProducerId v5 · correlationId 6 · answers #0/);
  assert.match(list, /errorCode: 14/);
  // Keyboard: focus a row, move down, Enter opens the next exchange.
  const first = rows().filter({ hasText: "EndTxn v4 #15" });
  await first.focus();
  await page.keyboard.press("ArrowDown");
  await page.keyboard.press("Enter");
  assert.match(await page.locator("kafka-capture dl").textContent(), /AddPartitionsToTxn v3, correlation id 16/);
  await until(async () => /request AddPartitionsToTxn v3 · correlationId 16/.test(await page.locator("kafka-batch #messages-list").textContent().catch(() => "")), "the next exchange in the inspector");
});

test("a capture dropped on the inspector opens in the capture view", { timeout: 60_000 }, async () => {
  const done = loaded();
  await page.setInputFiles("kafka-batch #file", file(PCAP, "dropped.pcapng"));
  assert.equal((await done).exchanges, 44);
  assert.match(await page.locator("kafka-capture p[role=status]").first().textContent(), /Read dropped\.pcapng\./);
  assert.match(await page.locator("kafka-batch #progress, kafka-batch [id=progress]").first().textContent().catch(() => ""), /packet capture: opened in the page's capture view|^$/);
});

test("a damaged capture: the error with its file byte, and what could be read", { timeout: 60_000 }, async () => {
  const cut = Buffer.from(PCAP.subarray(0, 9000));
  const done = loaded();
  await page.setInputFiles("kafka-capture input[type=file]", file(cut, "cut.pcapng"));
  const d = await done;
  assert.ok(d.exchanges > 0 && d.exchanges < 44, `some exchanges still read: ${d.exchanges}`);
  assert.match(await page.locator("kafka-capture p[role=status]").first().textContent(), /cut\.pcapng: damaged \(1 error below\); what could be read is shown\./);
  const problems = await page.locator("kafka-capture ul.problems li").allTextContents();
  assert.ok(problems.some((p) => /^error: file byte \d+: /.test(p)), problems.join("\n"));
  assert.equal(await rows().count(), d.exchanges);
  assert.deepEqual(env.pageErrors, []);
});

const checked = () => page.evaluate(() => new Promise((resolve) => document.addEventListener("kafka-capture:check", (e) => resolve(e.detail), { once: true })));

test("checked against Kafka's rules: every answer the simulator can judge agrees, each marked on its row", { timeout: 120_000 }, async () => {
  const done = loaded();
  await page.setInputFiles("kafka-capture input[type=file]", file(PCAP));
  await done;
  const result = checked();
  await page.locator("kafka-capture button", { hasText: "Check against Kafka's rules" }).click();
  assert.deepEqual(await result, { agrees: 16, differs: 0, cannotJudge: 28, error: null });
  assert.match(await page.locator("kafka-capture [data-check]").textContent(), /Kafka 4\.3's rules: 16 agree, 0 differ, 28 cannot be judged\./);
  assert.equal(await page.locator('kafka-capture g.ex[data-verdict="agrees"]').count(), 16);
  const end = rows().filter({ hasText: "EndTxn v4 #15" });
  assert.match(await end.textContent(), /✓ agrees/);
  assert.match(await end.getAttribute("aria-label"), /Kafka's rules: agrees \(rule E3, core\/src\/main\/scala\/kafka\/coordinator\/transaction\/TransactionCoordinator\.scala\)/);
  const loading = rows().filter({ hasText: "InitProducerId v5 #6" });
  assert.match(await loading.getAttribute("aria-label"), /cannot judge: Kafka answered COORDINATOR_LOAD_IN_PROGRESS\(14\) without deciding/);
  const counts = await page.locator("kafka-capture table.counts tbody tr").allTextContents();
  assert.ok(counts.includes("Produce300") && counts.includes("EndTxn300"), counts.join(" | "));
  // Continue in the simulator: the replay's script, editable, run by a timeline.
  await page.locator("kafka-capture button", { hasText: "Continue in the simulator" }).click();
  const script = await page.locator("kafka-capture textarea").inputValue();
  assert.match(script, /^model transactions\ntitle Replay of capture\.pcapng\n/);
  assert.match(script, /\nend-txn transactional\.id=capture-tx pid=0 epoch=0 commit v=4 as x14\n/);
  await until(async () => (await page.locator("kafka-capture kafka-timeline").count()) === 1, "the timeline of the replay");
  assert.deepEqual(env.pageErrors, []);
});

test("an answer altered in the capture's bytes is flagged: it differs, with the rule that decides it", { timeout: 120_000 }, async () => {
  // The EndTxn v4 response to correlation id 15 (size 12, correlation id, no tagged fields,
  // throttleTimeMs, then errorCode): its errorCode set to 48 (INVALID_TXN_STATE).
  const altered = Buffer.from(PCAP);
  const at = altered.indexOf(Buffer.from("0000000c0000000f00", "hex"));
  assert.ok(at > 0 && altered.indexOf(Buffer.from("0000000c0000000f00", "hex"), at + 1) < 0, "the response is found once");
  altered.writeInt16BE(48, at + 13);
  const done = loaded();
  await page.setInputFiles("kafka-capture input[type=file]", file(altered, "altered.pcapng"));
  await done;
  const result = checked();
  await page.locator("kafka-capture button", { hasText: "Check against Kafka's rules" }).click();
  const d = await result;
  assert.equal(d.differs, 1);
  const end = rows().filter({ hasText: "EndTxn v4 #15" });
  assert.match(await end.textContent(), /✗ differs/);
  const listed = await page.locator("kafka-capture ul.differs li").allTextContents();
  assert.deepEqual(listed, ["connection 2 EndTxn v4 correlation id 15: errorCode: the broker answered INVALID_TXN_STATE(48), Kafka's rules answer NONE(0) (rule E3, core/src/main/scala/kafka/coordinator/transaction/TransactionCoordinator.scala)"]);
});
