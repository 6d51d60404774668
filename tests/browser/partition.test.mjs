// The lab page's partition directory view (<kafka-partition>, www/kafka-partition.js) in
// Chromium, fed the files a real Kafka 4.3.1 broker wrote (tests/fixtures/kafka-4.3.1, see its
// PROVENANCE.md) through its file input, as a user picking them would: the partition as the broker
// loads it (producer state, LSO, the aborted transaction), every file checked against the log, a
// damaged index named, the log opened in the inspector, and "Continue in the simulator" running a
// leader that answers the retry of the last batch as a duplicate. And a directory the lab writes
// itself from its own leader (writePartitionDirectory of pkg/eoslab.js, files::layout: the model's
// batches with the .index/.timeindex/.txnindex/.snapshot/leader-epoch-checkpoint/partition.metadata
// writers), opened the same way: the rebuilt producer state field by field, the LSO, the index
// checks, and a snapshot whose CRC no longer matches shown as a failed check.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { launch, ROOT } from "./helpers.mjs";
import { load } from "../wasm/load-pkg.mjs";

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
  // The snapshot (its CRC, its producers), the leader epochs, each index against the log and
  // through Kafka's sanityCheck.
  assert.equal(checks.length, 9, checks.join("\n"));
  assert.ok(checks.every((c) => c.startsWith("✓ agrees")), checks.join("\n"));
  assert.ok(checks.some((c) => c.includes(".txnindex: 1 aborted transaction(s)")), checks.join("\n"));
  // The text view holds the broker's own .txnindex line.
  const dumped = readFileSync(join(FIXTURES, "txn-0/00000000000000000000.txnindex.dump-log.txt"), "utf8").split("\n")[1];
  assert.ok((await page.locator("kafka-partition pre").textContent()).includes(dumped.replace("version: 0 ", "")));
  assert.ok(env.wasmRequests.some((r) => r.path === "/pkg/eoslab-files_bg.wasm"));
});

test("txn-0: the snapshot beside the log, the leader epochs and the topic id", { timeout: 60_000 }, async () => {
  const done = loaded();
  await page.setInputFiles("kafka-partition input[type=file]:not([webkitdirectory])", filesOf("txn-0"));
  assert.equal((await done).ok, true);
  const summary = await page.locator("kafka-partition dl").textContent();
  assert.match(summary, /Topic idVtkvmtHySUegWza8Nz0Hng/);
  assert.match(summary, /Leader epochs \(leader-epoch-checkpoint\)epoch 0 from offset 0Leader epochs of the log's batchesepoch 0 from offset 0/);
  const caption = await page.locator('kafka-partition table[data-snapshot="00000000000000000005.snapshot"] caption').textContent();
  assert.match(caption, /^00000000000000000005\.snapshot: version 1, CRC-32C 0x[0-9a-f]{8} \(checked ✓\)$/);
  // The broker's snapshot dump: producerId: 1 producerEpoch: 2 coordinatorEpoch: 0 … lastTimestamp: 1796320879315.
  for (const source of ["snapshot", "log"]) {
    const cells = await page.locator(`kafka-partition table[data-snapshot] tr[data-producer="1"][data-source="${source}"] td[data-field]`).allTextContents();
    assert.deepEqual(cells, ["1", "2", "-1", "-1", "0", "1796320879315", "0", "-1"], source);
  }
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

/** The idempotence-model script whose leader the lab writes as a directory (see crate/core/tests/partition_dir.rs). */
const GENERATED = `title a partition directory from the lab's leader
time 1700000000000
partition orders-0
produce orders-0 pid=1000 epoch=0 seq=0 a b c
produce orders-0 pid=1000 epoch=0 seq=3 d
produce orders-0 pid=2000 epoch=0 seq=0 txn t1 t2
marker orders-0 pid=2000 epoch=0 abort coordinator-epoch=3 tv=1
leader-change orders-0
produce orders-0 pid=1000 epoch=0 seq=4 e f
produce orders-0 pid=2000 epoch=0 seq=2 txn t3
produce orders-0 pid=3000 epoch=0 seq=0 x
expect lso orders-0 9
`;

async function generated(damage = () => {}) {
  const full = await load("eoslab");
  const [d] = full.writePartitionDirectory(GENERATED, { indexIntervalBytes: 1 });
  return d.files.map((f) => {
    const buffer = Buffer.from(f.bytes);
    damage(f.name, buffer);
    return { name: f.name, mimeType: "application/octet-stream", buffer };
  });
}

test("a directory the lab wrote from its own leader: the rebuilt producer state, the LSO and the index checks", { timeout: 60_000 }, async () => {
  const files = await generated();
  const done = loaded();
  await page.setInputFiles("kafka-partition input[type=file]:not([webkitdirectory])", files);
  const detail = await done;
  assert.deepEqual(
    { ok: detail.ok, files: detail.files, lso: detail.lastStableOffset, leo: detail.logEndOffset, producers: detail.producers, aborted: detail.aborted },
    { ok: true, files: 7, lso: 9, leo: 11, producers: 3, aborted: 1 },
  );
  assert.match(await page.locator("kafka-partition [role=status]").textContent(), /7 file\(s\) read; every file agrees with the log/);
  const summary = await page.locator("kafka-partition dl").textContent();
  assert.match(summary, /Last stable offset9 \(the high watermark is not in the directory: taken as the log end\)/);
  assert.match(summary, /Producer state from00000000000000000011\.snapshot \(offset 11\)/);
  assert.match(summary, /Open transactions1/);
  // The leader changed once (leader-change orders-0) before offset 7.
  assert.match(summary, /Leader epochs \(leader-epoch-checkpoint\)epoch 0 from offset 0, epoch 1 from offset 7/);
  // The rebuilt state, field by field: what the model's leader holds after the script (producer
  // 2000's transaction open from offset 9 under coordinator epoch 3, from the ABORT before it).
  const rows = await page.locator('kafka-partition table[data-table="producer-state"] tbody tr').evaluateAll((trs) =>
    trs.map((tr) => Object.fromEntries([...tr.querySelectorAll("[data-field]")].map((c) => [c.dataset.field, c.textContent]))),
  );
  const row = (producerId, producerEpoch, lastSequence, lastOffset, offsetDelta, coordinatorEpoch, currentTxnFirstOffset) =>
    ({ producerId, producerEpoch, lastSequence, lastOffset, offsetDelta, timestamp: "1700000000000", coordinatorEpoch, currentTxnFirstOffset });
  assert.deepEqual(rows, [
    row("1000", "0", "5", "8", "1", "-1", "-1"),
    row("2000", "0", "2", "9", "0", "3", "9"),
    row("3000", "0", "0", "10", "0", "-1", "-1"),
  ]);
  // The snapshot beside the log: nothing differs.
  assert.equal(await page.locator("kafka-partition table[data-snapshot] td.bad").count(), 0);
  assert.match(await page.locator("kafka-partition table[data-snapshot] caption").textContent(), /version 1, CRC-32C 0x[0-9a-f]{8} \(checked ✓\)/);
  // The index checks as shown: every batch but the first indexed (index.interval.bytes=1, as
  // LogSegment.append lays it out), each file through Kafka's own sanityCheck.
  const checks = await page.locator("kafka-partition ul.checks li").allTextContents();
  const want = [
    "✓ agrees 00000000000000000000.index: 6 entries against the log (each: a batch's last offset → its position)",
    "✓ agrees 00000000000000000000.index: OffsetIndex.sanityCheck (kafka-dump-log --index-sanity-check)",
    "✓ agrees 00000000000000000000.timeindex: 1 entries against the log (each: a batch's max timestamp → its last offset)",
    "✓ agrees 00000000000000000000.timeindex: TimeIndex.sanityCheck (kafka-dump-log --index-sanity-check)",
    "✓ agrees 00000000000000000000.txnindex: TransactionIndex.sanityCheck (kafka-dump-log --index-sanity-check)",
    "✓ agrees 00000000000000000000.txnindex: 1 aborted transaction(s) against the ABORT markers of the log",
  ];
  for (const w of want) assert.ok(checks.includes(w), `${w}\n${checks.join("\n")}`);
  assert.equal(checks.length, 9, checks.join("\n"));
  assert.ok(checks.some((c) => c.startsWith("✓ agrees leader-epoch-checkpoint: 2 entries")), checks.join("\n"));
  assert.deepEqual([...env.consoleErrors, ...env.pageErrors], []);
});

test("the lab's directory with a snapshot whose CRC no longer matches: a failed check, the differing field marked", { timeout: 60_000 }, async () => {
  // currentTxnFirstOffset of producer 2000 (entry 1, bytes 10+46+38..10+46+46): 9 → 8, the CRC left as it was.
  const files = await generated((name, b) => {
    if (name.endsWith(".snapshot")) b[10 + 46 + 45] = 8;
  });
  const done = loaded();
  await page.setInputFiles("kafka-partition input[type=file]:not([webkitdirectory])", files);
  assert.equal((await done).ok, false);
  const bad = await page.locator("kafka-partition ul.checks li", { hasText: "✗ disagrees" }).allTextContents();
  assert.ok(bad.some((c) => /^✗ disagrees 00000000000000000011\.snapshot: version 1, CRC-32C 0x[0-9a-f]{8} of bytes 6\.\.148 \(ProducerStateManager\.readSnapshot\) — CorruptSnapshotException at byte 2: Snapshot is corrupt \(CRC is no longer valid\)\. Stored crc: \d+\. Computed crc: \d+$/.test(c)), bad.join("\n"));
  assert.match(await page.locator("kafka-partition table[data-snapshot] caption").textContent(), /✗ no longer valid: computed 0x[0-9a-f]{8}/);
  const marked = await page.locator('kafka-partition table[data-snapshot] tr[data-producer="2000"] td.bad').allTextContents();
  assert.deepEqual(marked, ["≠ 8", "≠ 9"]);
  // The broker does not load from a corrupt snapshot: the whole log replayed, the same LSO.
  const summary = await page.locator("kafka-partition dl").textContent();
  assert.match(summary, /Producer state fromno snapshot: the whole log replayed/);
  assert.match(summary, /Last stable offset9 /);
});
