// Node tests of the transactions runner in the wasm package (runTxnScenario): the report shape
// <kafka-timeline> draws, the same decisions as the native CLI (scenario expectations hold in
// wasm too), real bytes for every record, the sabotage switch the invariants panel is tested
// with, and script errors with their line. Run: node --test tests/wasm/
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, readdirSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { load } from "./load-pkg.mjs";

const eoslab = await load("eoslab");
const { runTxnScenario, decode } = eoslab;

const scenariosDir = new URL("../../scenarios/", import.meta.url);
const txnScenarios = readdirSync(fileURLToPath(scenariosDir))
  .filter((f) => f.endsWith(".eos"))
  .map((f) => [f, readFileSync(fileURLToPath(new URL(f, scenariosDir)), "utf8")])
  .filter(([, text]) => /^\s*model\s+transactions\s*$/m.test(text.replace(/#.*$/gm, "").trim().split("\n")[0]));

test("every transactions scenario passes in wasm, with every invariant holding at every step", () => {
  assert.ok(txnScenarios.length >= 12);
  for (const [name, text] of txnScenarios) {
    const r = runTxnScenario(text);
    assert.equal(r.passed, true, `${name}: ${JSON.stringify(r.failures)} ${r.error}`);
    assert.equal(r.model, "transactions");
    assert.equal(r.kafkaVersion, "4.3");
    for (const [i, s] of r.steps.entries()) {
      for (const inv of s.invariants) assert.equal(inv.holds, true, `${name} step ${i} ${inv.name}: ${inv.detail}`);
    }
  }
});

test("the report carries lanes, per-step state, and every record's real bytes", () => {
  const text = readFileSync(fileURLToPath(new URL("txn-commit-two-partitions.eos", scenariosDir)), "utf8");
  const r = runTxnScenario(text);
  assert.deepEqual(
    r.lanes.map((l) => l.kind),
    ["producer", "coordinator", "partition", "partition", "consumer", "consumer", "external"],
  );
  assert.match(r.features, /FinalizedVersionLevel: 2/);
  const last = r.steps.at(-1).state;
  assert.equal(last.coordinator.txns[0].state, "CompleteCommit");
  assert.equal(last.coordinator.txns[0].partition, 26, "order-service → __transaction_state-26");
  assert.deepEqual(last.partitions.map((p) => [p.name, p.hw, p.lso]), [["orders-0", 3, 3], ["payments-0", 2, 2]]);
  const kinds = new Set(r.records.map((x) => x.kind));
  for (const k of ["data", "commit", "txn-log"]) assert.ok(kinds.has(k), k);
  for (const rec of r.records) {
    const d = decode(rec.hex);
    assert.deepEqual(d.errors, [], rec.text);
    assert.equal(d.batches[0].header.crcValid, true);
    if (rec.kind === "commit") assert.equal(d.batches[0].control.type, "COMMIT");
  }
  // A marker closes the data records it commits, from the step it landed.
  const o1 = r.records.find((x) => x.kind === "data" && x.partition === "orders-0");
  assert.equal(o1.outcome, "committed");
  assert.ok(o1.closedAt > o1.step);
  assert.ok(r.nextSteps.some((n) => n.line === "begin app"), JSON.stringify(r.nextSteps));
});

test("a partition's state lists the leader's verification entries: made by a refused batch, kept until the next transactional append (A5)", () => {
  const text = readFileSync(fileURLToPath(new URL("txn-request-verification-entry.eos", scenariosDir)), "utf8");
  const r = runTxnScenario(text);
  assert.equal(r.passed, true, JSON.stringify(r.failures));
  const entries = (i) => r.steps[i].state.partitions.find((p) => p.name === "orders-0").verifications;
  const at = (end) => {
    const i = r.steps.findIndex((s) => s.text.endsWith(end));
    assert.ok(i >= 0, end);
    return i;
  };
  const future = at(" as future");
  assert.deepEqual(entries(future - 1), [], "the first batch of the open transaction leaves none");
  // The epoch-1 batch's verification noted sequence 0 at epoch 1 (a TV2 client's: supportsEpochBump),
  // and the coordinator's refusal did not remove it.
  const made = entries(future);
  assert.deepEqual(made, [{ producerId: 1000, epoch: 1, lowestSequence: 0, supportsEpochBump: true, sinceT: made[0]?.sinceT }]);
  assert.ok(made[0].sinceT >= r.steps[future - 1].t && made[0].sinceT <= r.steps[future].t, "made while the batch was decided");
  assert.deepEqual(entries(at(" as retry")), made, "refused batches leave it as it is");
  // The abort's TV2 marker is written at the bumped epoch 1, the entry's own: Kafka 4.3.1 keeps it
  // (UnifiedLog.updateProducers); the next transaction's first append clears it.
  assert.deepEqual(entries(at("deliver markers")), made);
  assert.deepEqual(entries(at(" as next-txn")), []);
});

test("the lost commit response shows COMMITTED at the coordinator while the producer's outcome is UNKNOWN", () => {
  const text = readFileSync(fileURLToPath(new URL("txn-commit-response-lost.eos", scenariosDir)), "utf8");
  const r = runTxnScenario(text);
  const i = r.steps.findIndex((s) => s.text === "commit app lose-response");
  const st = r.steps[i].state;
  assert.equal(st.producers[0].outcome, "UNKNOWN");
  assert.equal(st.coordinator.txns[0].state, "PrepareCommit");
  assert.ok(r.steps[i].messages.some((m) => m.lost && m.kind === "response"));
});

test("sabotage breaks the read path on purpose and the invariants say so", () => {
  const text = readFileSync(fileURLToPath(new URL("txn-abort-offset-gaps.eos", scenariosDir)), "utf8");
  const r = runTxnScenario(text, { sabotage: "read-committed-sees-aborted" });
  const broken = r.steps.at(-1).invariants.find((x) => x.name === "read-committed-sees-only-committed");
  assert.equal(broken.holds, false);
  assert.throws(() => runTxnScenario(text, { sabotage: "nope" }), /unknown sabotage/);
});

test("snapshots: false keeps only the last state; a script error names its line", () => {
  const r = runTxnScenario("model transactions\npartition p-0\nproducer a transactional.id=t\ninit a\nbegin a\n", { snapshots: false });
  assert.equal(r.steps[0].state.producers.length, 0);
  assert.equal(r.steps.at(-1).state.producers[0].state, "IN_TRANSACTION");
  assert.throws(() => runTxnScenario("model transactions\npartition p-0\nfrobnicate\n"), /line 3/);
});

test("transactionVersion runs the same script under V1 and V2: the epoch stays or bumps per commit", () => {
  const script = "model transactions\npartition p-0\nproducer a transactional.id=t\ninit a\nbegin a\nsend a p-0 x\ncommit a\ndeliver markers\n";
  const v1 = runTxnScenario(script, { transactionVersion: 1 });
  const v2 = runTxnScenario(script, { transactionVersion: 2 });
  assert.equal(v1.transactionVersion, 1);
  assert.equal(v1.steps.at(-1).state.producers[0].epoch, 0);
  assert.equal(v2.steps.at(-1).state.producers[0].epoch, 1);
  assert.ok(v1.steps.some((s) => s.messages.some((m) => m.kind === "AddPartitionsToTxn" && m.from === "producer:a")), "TV1: the client adds the partition");
  assert.ok(!v2.steps.some((s) => s.messages.some((m) => m.kind === "AddPartitionsToTxn" && m.from === "producer:a")), "TV2: the leader does");
  assert.throws(() => runTxnScenario(script, { transactionVersion: 3 }), /0, 1 or 2/);
});

test("replication: the partition state carries the replicas, and an election's truncated records are marked and drawn as such", async () => {
  const { recordStatus } = await import("../../www/lib/timeline-model.js");
  const text = readFileSync(fileURLToPath(new URL("txn-request-unclean-election.eos", scenariosDir)), "utf8");
  const r = runTxnScenario(text);
  assert.equal(r.passed, true, JSON.stringify(r.failures));
  const last = r.steps.at(-1).state.partitions.find((p) => p.name === "orders-0");
  // Kafka 4.3 lists the ISR in ascending broker order, not leader first (a 4.3.1 cluster: tests/kafka/replication.py).
  assert.deepEqual([last.replication.leader, last.replication.isr], [2, [1, 2]]);
  assert.ok(last.replication.followers.every((f) => f.inIsr && f.fetching && f.alive));
  const gone = r.records.filter((x) => x.truncatedAt !== undefined);
  assert.deepEqual(gone.map((x) => x.offset), [1, 2], "b and c, acknowledged, are gone");
  const k = gone[0].truncatedAt;
  assert.equal(recordStatus(gone[0], k - 1), "plain");
  assert.equal(recordStatus(gone[0], k), "truncated");
  // Without replication the report has no replication field (the shape is unchanged).
  const plain = runTxnScenario("model transactions\ntitle t\npartition p\nfetch p as f\n");
  assert.equal(plain.passed, true);
  assert.equal(plain.steps.at(-1).state.partitions[0].replication, undefined);
});

test("an idempotence script given as its JSON twin draws the same timeline as its text", () => {
  const text =
    "partition p\nproducer app\nsend app p x\ndeliver request b1\nlose response b1\ntimeout app\n" +
    "deliver request b1\nexpect b1 duplicate 0..0\ndeliver response b1\nexpect b1 acked 0..0\n";
  // The JSON twin of that script (serde of eoslab_core::model::scenario::Scenario), as runScenario takes it.
  const twin = {
    title: "", about: "", startMs: 1700000000000, firstProducerId: 1000, producerIdExpirationMs: null,
    replicationFactor: 0, replicaLagTimeMaxMs: null, uncleanLeaderElection: false,
    partitions: ["p"], producers: [{ name: "app", settings: [] }], leaderState: [],
    steps: [
      { op: "send", line: 3, producer: "app", partition: "p", values: ["x"] },
      { op: "deliver", line: 4, what: "request", batch: 1, attempt: null },
      { op: "lose", line: 5, what: "response", batch: 1, attempt: null },
      { op: "timeout", line: 6, producer: "app" },
      { op: "deliver", line: 7, what: "request", batch: 1, attempt: null },
      { op: "expect", line: 8, check: { what: "decision", batch: 1, outcome: "duplicate", offsets: [0, 0] } },
      { op: "deliver", line: 9, what: "response", batch: 1, attempt: null },
      { op: "expect", line: 10, check: { what: "client", batch: 1, state: "acked", detail: "0..0" } },
    ],
  };
  const fromText = runTxnScenario(text);
  const fromTwin = runTxnScenario(twin);
  assert.equal(fromTwin.model, "idempotence");
  assert.equal(fromTwin.passed, true, JSON.stringify(fromTwin.failures) + fromTwin.error);
  // The retry of b1 is answered A1 (a duplicate): one record in the log.
  assert.deepEqual(fromTwin.records.map((r) => r.offset), [0]);
  assert.ok(fromTwin.steps.some((s) => s.messages.some((m) => m.rule === "A1")), "the retry's answer cites A1");
  assert.deepEqual(fromTwin, fromText);
  // A cluster option is a transactions script's, refused for the twin as for the text.
  assert.throws(() => runTxnScenario(twin, { transactionVersion: 1 }), /apply to `model transactions` scripts/);
  assert.throws(() => runTxnScenario({ steps: "nope" }), /invalid scenario/);
});

test("parseScenario gives either script's JSON twin, which runs as its text does (a transactions twin says model: transactions)", () => {
  const { parseScenario, runScenario } = eoslab;
  assert.ok(txnScenarios.length >= 30);
  for (const [name, text] of txnScenarios) {
    const twin = parseScenario(text);
    assert.equal(twin.model, "transactions", name);
    // Through JSON text too, as a program or a page would store it.
    const stored = JSON.parse(JSON.stringify(twin));
    assert.deepEqual(runTxnScenario(stored), runTxnScenario(text), name);
  }
  // The cluster options apply to a transactions twin as to its text.
  const [, tv] = txnScenarios.find(([n]) => n === "txn-commit-response-lost.eos");
  assert.deepEqual(runTxnScenario(parseScenario(tv), { transactionVersion: 1 }), runTxnScenario(tv, { transactionVersion: 1 }));
  // An idempotence script's twin has no model field and runs in both runners as its text.
  const idem = readFileSync(new URL("lost-response-retry.eos", scenariosDir), "utf8");
  const twin = parseScenario(idem);
  assert.equal(twin.model, undefined);
  assert.deepEqual(runScenario(twin), runScenario(idem));
  assert.deepEqual(runTxnScenario(twin), runTxnScenario(idem));
  // A script error names its line, as running the text does.
  assert.throws(() => parseScenario("model transactions\npartition p\nbgein app\n"), /line 3/);
  assert.throws(() => runTxnScenario({ model: "transactions", steps: "nope" }), /invalid transactions scenario/);
});

test("the state names each group's generation and members, static ones with their instance ids", () => {
  const text = readFileSync(fileURLToPath(new URL("txn-request-static-member.eos", scenariosDir)), "utf8");
  const r = runTxnScenario(text);
  const g = r.steps.at(-1).state.groups.find((x) => x.group === "g");
  assert.deepEqual([g.generation, g.members, g.staticMembers], [3, ["m1", "m2"], [["i1", "m1"]]]);
});
