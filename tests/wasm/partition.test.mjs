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

test("txn-0: the leader epochs, the topic id and the snapshot beside the log, field by field", () => {
  const p = files.loadPartition(dir("txn-0"));
  assert.equal(p.topicId, "VtkvmtHySUegWza8Nz0Hng");
  assert.deepEqual(p.leaderEpochs, [{ epoch: 0, startOffset: 0 }]);
  assert.deepEqual(p.logLeaderEpochs, [{ epoch: 0, startOffset: 0 }]);
  // 00000000000000000005.snapshot.dump-log.txt: producerId: 1 producerEpoch: 2 coordinatorEpoch: 0
  // currentTxnFirstOffset: OptionalLong.empty lastTimestamp: 1796320879315 (no retained batch).
  const entry = { producerId: 1, producerEpoch: 2, lastSequence: -1, lastOffset: -1, offsetDelta: 0, timestamp: 1796320879315, coordinatorEpoch: 0, currentTxnFirstOffset: -1 };
  assert.deepEqual(p.producerState, [entry]);
  const [s] = p.snapshots;
  assert.deepEqual({ name: s.name, offset: s.offset, version: s.version, crcOk: s.crc === s.computedCrc }, { name: "00000000000000000005.snapshot", offset: 5, version: 1, crcOk: true });
  assert.deepEqual(s.producers, [{ producerId: 1, stored: entry, rebuilt: entry, differs: [] }]);
  const sanity = p.checks.filter((c) => c.what.includes("sanityCheck"));
  assert.deepEqual(sanity.map((c) => [c.file, c.ok]), [
    ["00000000000000000000.index", true],
    ["00000000000000000000.timeindex", true],
    ["00000000000000000000.txnindex", true],
  ]);
  assert.ok(p.checks.some((c) => c.file === "leader-epoch-checkpoint" && c.ok));
});

test("a snapshot whose CRC no longer matches is a failed check, its entries still shown", () => {
  const d = dir("txn-0").map((f) => {
    if (!f.name.endsWith(".snapshot")) return f;
    const bytes = f.bytes.slice();
    bytes[19] = 7; // the epoch of the first entry (bytes 18..20), the CRC left as it was
    return { name: f.name, bytes };
  });
  const p = files.loadPartition(d);
  assert.equal(p.ok, false);
  const bad = p.checks.filter((c) => !c.ok);
  assert.equal(bad.length, 2, JSON.stringify(bad));
  const crc = bad.find((c) => c.what.includes("CRC-32C"));
  assert.match(crc.detail, /^CorruptSnapshotException at byte 2: Snapshot is corrupt \(CRC is no longer valid\)\. Stored crc: \d+\. Computed crc: \d+$/);
  assert.deepEqual(p.snapshots[0].producers[0].differs, ["producerEpoch"]);
  assert.equal(p.snapshots[0].producers[0].stored.producerEpoch, 7);
  assert.equal(p.snapshotUsed, null, "the broker does not load from a corrupt snapshot");
});

test("writePartitionDirectory: the model's leader as a broker's directory, read back clean with the model's state", () => {
  const script = readFileSync(fileURLToPath(new URL("../../scenarios/marker-retried.eos", import.meta.url)), "utf8");
  const [d, ...more] = full.writePartitionDirectory(script, { indexIntervalBytes: 1 });
  assert.equal(more.length, 0);
  assert.equal(d.partition, "orders-0");
  assert.deepEqual(d.files.map((f) => f.name), [
    "00000000000000000000.index",
    "00000000000000000000.log",
    "00000000000000000000.timeindex",
    "00000000000000000000.txnindex",
    "00000000000000000006.snapshot",
    "leader-epoch-checkpoint",
    "partition.metadata",
  ]);
  assert.ok(d.files.every((f) => f.bytes instanceof Uint8Array));
  const p = files.loadPartition(d.files);
  assert.equal(p.ok, true, p.text);
  // The model's own final state (runScenario's report) and the files' agree.
  const leader = full.runScenario(script).finalState.find((q) => q.name === "orders-0");
  assert.equal(p.logEndOffset, leader.logEndOffset);
  assert.deepEqual(p.producerState.map((e) => [String(e.producerId), e.producerEpoch]), leader.producers.map((e) => [e.producerId, e.epoch]));
  assert.equal(p.lastStableOffset, 6); // the script's own `expect lso orders-0 6`
  assert.equal(p.logEndOffset, 6);
  // The model after the script: producer 4000 at epoch 2 (the abort's bumped epoch), coordinator
  // epoch 1 (the new coordinator's), no open transaction, no retained batch.
  assert.deepEqual(
    p.producerState.map((e) => [e.producerId, e.producerEpoch, e.lastSequence, e.coordinatorEpoch, e.currentTxnFirstOffset]),
    [[4000, 2, -1, 1, -1]],
  );
  assert.throws(() => full.writePartitionDirectory("partition p0\nfrobnicate\n"), /line 2/);
  assert.throws(() => full.writePartitionDirectory(script, { indexIntervalBytes: -1 }), /indexIntervalBytes is ≥ 0/);
});
