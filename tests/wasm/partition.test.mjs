// loadPartition (pkg/eoslab-files.js) over a real Kafka 4.3.1 broker's partition directories
// (tests/fixtures/kafka-4.3.1, see its PROVENANCE.md): the same reading as `eoslab partition`
// (crate/core/tests/partition_dir.rs checks it field by field), as the inspector's partition view
// gets it — every file agrees with the log, the aborted transaction of txn-0 is the one the
// broker's .txnindex lists, and the simulator script starts from the loaded producer state.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { join } from "node:path";
import { load } from "./load-pkg.mjs";

const files = await load("eoslab-files");
const full = await load("eoslab");
const root = fileURLToPath(new URL("../fixtures/kafka-4.3.1/", import.meta.url));
const dir = (d) =>
  readdirSync(join(root, d))
    .filter((f) => !f.endsWith(".txt"))
    .map((name) => ({ name, bytes: new Uint8Array(readFileSync(join(root, d, name))) }));

test("every broker directory loads with every file agreeing with its log", () => {
  for (const d of readdirSync(root).filter((d) => !d.includes("."))) {
    const p = files.loadPartition(dir(d));
    assert.equal(p.ok, true, `${d}\n${p.text}`);
    assert.ok(p.checks.length >= 3, d);
    assert.match(p.snapshotUsed, /\.snapshot \(offset \d+\)$/);
  }
});

test("txn-0: the aborted transaction, the LSO and a script whose leader answers as Kafka would", () => {
  const p = files.loadPartition(dir("txn-0"), "txn-0");
  const dumped = readFileSync(join(root, "txn-0", "00000000000000000000.txnindex.dump-log.txt"), "utf8").split("\n")[1];
  assert.ok(p.text.includes(dumped.replace("version: 0 ", "")), p.text);
  assert.equal(p.aborted, 1);
  assert.equal(p.lastStableOffset, p.logEndOffset);
  assert.match(p.script, /^title txn-0$/m);
  const run = full.runScenario(p.script);
  assert.deepEqual(run.failures, []);
  assert.ok(run.steps.length > 0);
});

test("a damaged file is flagged, and bad arguments throw a clear error", () => {
  const d = dir("idempotent-0").map((f) => {
    if (!f.name.endsWith(".index")) return f;
    const bytes = f.bytes.slice();
    bytes[7] += 1; // the first entry's position, off its batch
    return { name: f.name, bytes };
  });
  const p = files.loadPartition(d);
  assert.equal(p.ok, false);
  const bad = p.checks.filter((c) => !c.ok);
  assert.equal(bad.length, 1);
  assert.match(bad[0].detail, /no batch starts there/);
  assert.throws(() => files.loadPartition([{ name: "x.log" }]), /files\[0\] needs a name \(string\) and bytes \(Uint8Array\)/);
  assert.throws(() => files.loadPartition("nope"), /must be an array/);
});

test("dumpLog prints what Kafka 4.3.1's kafka-dump-log printed for every file of every broker directory", () => {
  // The options each dump was made with (tests/fixtures/kafka-4.3.1/PROVENANCE.md).
  const optionsFor = (d, f) =>
    !f.endsWith(".log") ? {}
    : d.startsWith("__transaction_state-") ? { deepIteration: true, decoder: "transaction-log" }
    : d.startsWith("__consumer_offsets-") ? { deepIteration: true, decoder: "offsets" }
    : { printDataLog: true, deepIteration: true };
  let compared = 0;
  for (const d of readdirSync(root).filter((d) => !d.includes("."))) {
    const all = dir(d).map((f) => ({ name: `${d}/${f.name}`, bytes: f.bytes }));
    for (const f of all.filter((f) => /\.(log|index|timeindex|txnindex|snapshot)$/.test(f.name))) {
      // The file first, its siblings after it (an index reads its .log, a time index its .index
      // too); the first file's part of the text runs up to the next "Dumping ".
      const r = files.dumpLog([f, ...all.filter((g) => g !== f)], optionsFor(d, f.name));
      const first = r.text.split(/(?=^Dumping )/m)[0];
      assert.equal(first, readFileSync(join(root, f.name + ".dump-log.txt"), "utf8"), f.name);
      assert.equal(r.failed, null, f.name);
      compared++;
    }
  }
  assert.ok(compared >= 40, `${compared} files`);
  assert.throws(() => files.dumpLog([], { decoder: "nope" }), /decoder must be "transaction-log" or "offsets"/);
});
