// The lab page's partition directory view (<kafka-partition>, www/kafka-partition.js) in
// Chromium, fed the files a real Kafka 4.3.1 broker wrote (tests/fixtures/kafka-4.3.1, see its
// PROVENANCE.md) through its file input, as a user picking them would: the partition as the broker
// loads it (producer state, LSO, the aborted transaction), every file checked against the log, a
// damaged index named, the log opened in the inspector, and "Continue in the simulator" running a
// leader that answers the retry of the last batch as a duplicate.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { launch, ROOT } from "./helpers.mjs";

const FIXTURES = join(ROOT, "tests/fixtures/kafka-4.3.1");
const filesOf = (dir, damage = () => {}) =>
  readdirSync(join(FIXTURES, dir))
    .filter((f) => !f.endsWith(".txt"))
    .map((name) => {
      const buffer = readFileSync(join(FIXTURES, dir, name));
      damage(name, buffer);
      return { name, mimeType: "application/octet-stream", buffer };
    });

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

const loaded = () => page.evaluate(() => new Promise((resolve) => document.addEventListener("kafka-partition:load", (e) => resolve(e.detail), { once: true })));

test("a transactional partition's files: the broker's view and every file agreeing", { timeout: 60_000 }, async () => {
  const wasmBefore = env.wasmRequests.map((r) => r.path);
  assert.ok(!wasmBefore.includes("/pkg/eoslab-files_bg.wasm"), "the files module is not fetched before it is used");
  const done = loaded();
  await page.setInputFiles("kafka-partition input[type=file]:not([webkitdirectory])", filesOf("txn-0"));
  const detail = await done;
  assert.deepEqual({ ok: detail.ok, aborted: detail.aborted, producers: detail.producers }, { ok: true, aborted: 1, producers: 1 });
  const status = page.locator("kafka-partition [role=status]");
  assert.match(await status.textContent(), /every file agrees with the log/);
  const summary = await page.locator("kafka-partition dl").textContent();
  assert.match(summary, /Producer state from00000000000000000005\.snapshot \(offset 5\)/);
  assert.match(summary, /Aborted transactions1/);
  const checks = await page.locator("kafka-partition ul.checks li").allTextContents();
  assert.equal(checks.length, 4, checks.join("\n"));
  assert.ok(checks.every((c) => c.startsWith("✓ agrees")), checks.join("\n"));
  assert.ok(checks.some((c) => c.includes(".txnindex: 1 aborted transaction(s)")), checks.join("\n"));
  // The text view holds the broker's own .txnindex line.
  const dumped = readFileSync(join(FIXTURES, "txn-0/00000000000000000000.txnindex.dump-log.txt"), "utf8").split("\n")[1];
  assert.ok((await page.locator("kafka-partition pre").textContent()).includes(dumped.replace("version: 0 ", "")));
  assert.ok(env.wasmRequests.some((r) => r.path === "/pkg/eoslab-files_bg.wasm"));
});

test("a damaged offset index is named, with the entry that points at no batch", { timeout: 60_000 }, async () => {
  const done = loaded();
  await page.setInputFiles(
    "kafka-partition input[type=file]:not([webkitdirectory])",
    filesOf("idempotent-0", (name, b) => {
      if (name.endsWith(".index")) b[7] += 1;
    }),
  );
  assert.equal((await done).ok, false);
  const bad = await page.locator("kafka-partition ul.checks li", { hasText: "✗ disagrees" }).allTextContents();
  assert.equal(bad.length, 1);
  assert.match(bad[0], /00000000000000000000\.index: .*no batch starts there/);
});

test("open the log in the inspector, and continue in the simulator: the retry is a duplicate", { timeout: 90_000 }, async () => {
  const done = loaded();
  await page.setInputFiles("kafka-partition input[type=file]:not([webkitdirectory])", filesOf("idempotent-0"));
  assert.equal((await done).ok, true);
  await page.click("kafka-partition button:has-text('Open the log in the inspector')");
  // The inspector now shows the segment's first batch: producer 0, base sequence 0, three records.
  await page.locator('kafka-batch tr[data-field="baseSequence"] td', { hasText: /^\s*0\s*$/ }).first().waitFor();
  assert.equal((await page.locator('kafka-batch tr[data-field="producerId"] td').first().textContent()).trim(), "0");
  await page.click("kafka-partition button:has-text('Continue in the simulator')");
  const script = await page.locator("kafka-partition textarea").inputValue();
  assert.match(script, /^producer-state p0 pid=0 epoch=0 timestamp=\d+ batch=4\.\.6@4\.\.6$/m);
  await page.waitForFunction(() => document.querySelector("kafka-partition")?.shadowRoot.querySelector("kafka-ladder")?.run);
  const run = await page.evaluate(() => {
    const r = document.querySelector("kafka-partition").shadowRoot.querySelector("kafka-ladder").run;
    return { failures: r.failures, decisions: r.steps.flatMap((s) => s.events).filter((e) => e.kind === "produce-decision").map((e) => [e.outcome, e.offsets]) };
  });
  assert.deepEqual(run.failures, []);
  assert.deepEqual(run.decisions, [["duplicate", [4, 6]]]);
  // An edited script runs again.
  await page.locator("kafka-partition textarea").fill(script + "produce p0 pid=0 epoch=0 seq=7 next\nexpect last appended 7..7\n");
  await page.click("kafka-partition button:has-text('Run the script')");
  await page.waitForFunction(() => document.querySelector("kafka-partition").shadowRoot.querySelector("kafka-ladder")?.run?.steps.length === 4);
  const failures = await page.evaluate(() => document.querySelector("kafka-partition").shadowRoot.querySelector("kafka-ladder").run.failures);
  assert.deepEqual(failures, []);
  assert.deepEqual([...env.consoleErrors, ...env.pageErrors], []);
});

test("export as kafka-dump-log text: the .log part is what Kafka's tool printed", { timeout: 60_000 }, async () => {
  const done = loaded();
  await page.setInputFiles("kafka-partition input[type=file]:not([webkitdirectory])", filesOf("txn-1"));
  assert.equal((await done).ok, true);
  const [download] = await Promise.all([page.waitForEvent("download"), page.click("kafka-partition button:has-text('Export as kafka-dump-log text')")]);
  const chunks = [];
  for await (const c of await download.createReadStream()) chunks.push(c);
  const text = Buffer.concat(chunks).toString("utf8");
  // The files are named without their folder here: the broker's dump says "Dumping txn-1/…".
  const want = readFileSync(join(FIXTURES, "txn-1/00000000000000000000.log.dump-log.txt"), "utf8").replace("Dumping txn-1/", "Dumping ");
  const part = text.split(/(?=^Dumping )/m).find((p) => p.startsWith("Dumping 00000000000000000000.log"));
  assert.equal(part, want);
  assert.match(text, /^Dumping 00000000000000000005\.snapshot$/m);
});
