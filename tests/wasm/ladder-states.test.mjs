// <kafka-ladder> shows the state after any step from one run ("the ladder no longer re-runs
// script prefixes to step back", and one report shape for both views): the report it draws an
// idempotence script from is the timeline's (runTxnScenario, as the element calls it: without the
// world's per-step snapshots and messages), whose steps carry their changes, and stateAfter
// (www/lib/ladder-rows.js) folds them. For every shipped idempotence scenario and every step k, the
// folded state is what the idempotence runner's own run of the script's first k steps (runScenario)
// shows in the panels: each leader's log end and producer-state entries, every client batch, and
// the next-step lines.
// Run: node --test tests/wasm/
import { test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { join } from "node:path";
import { load } from "./load-pkg.mjs";
import { TRANSACTIONS_WORDS, isTransactionsScript, parseSource, prefixSource, stateAfter } from "../../www/lib/ladder-rows.js";

const { runScenario, runTxnScenario } = await load("eoslab");
const dir = fileURLToPath(new URL("../../scenarios/", import.meta.url));
const scripts = readdirSync(dir)
  .filter((f) => f.endsWith(".eos"))
  .map((f) => [f, readFileSync(join(dir, f), "utf8")])
  .filter(([, text]) => !/^\s*model\s+transactions\b/m.test(text.split("\n").find((l) => l.trim() && !l.trim().startsWith("#")) ?? ""));

// What the panels read of a state.
const panel = (s) => ({
  leaders: s.finalState.map((p) => ({ name: p.name, logEndOffset: p.logEndOffset, highWatermark: p.highWatermark, isr: p.isr, producers: (p.producers ?? []).slice(0, 4) })),
  batches: s.batches,
  nextSteps: s.nextSteps,
});

test("the state after every step, folded from one run, is the state a run of that prefix ends in", () => {
  assert.ok(scripts.length >= 9);
  for (const [name, text] of scripts) {
    const run = runTxnScenario(text, { snapshots: false, trace: false });
    assert.equal(run.model, "idempotence", name);
    assert.ok(run.initialState, name);
    const source = parseSource(text);
    for (let k = 0; k <= run.steps.length; k++) {
      const prefix = runScenario(prefixSource(source, run, k));
      assert.deepEqual(panel(stateAfter(run, k)), panel(prefix), `${name} after step ${k}`);
    }
  }
});

test("without {states: true} a run carries no per-step state (the JSON twin and the CLI's shape)", () => {
  const [, text] = scripts[0];
  const run = runScenario(text);
  assert.equal(run.initialState, undefined);
  assert.ok(run.steps.every((s) => s.state === undefined));
  assert.equal(stateAfter(run, 0), null);
});

test("runScenario's own report with {states: true} folds to the same states (its steps call the changes `state`)", () => {
  const [name, text] = scripts.find(([f]) => f === "lost-response-retry.eos") ?? scripts[0];
  const own = runScenario(text, { states: true });
  const one = runTxnScenario(text, { snapshots: false, trace: false });
  for (let k = 0; k <= own.steps.length; k++) assert.deepEqual(panel(stateAfter(own, k)), panel(stateAfter(one, k)), `${name} after step ${k}`);
});

test("{sequence: false} (the timeline's call) leaves the per-batch view out and nothing else", () => {
  for (const [name, text] of scripts) {
    const full = runTxnScenario(text);
    const lean = runTxnScenario(text, { sequence: false });
    for (const key of ["producers", "partitions", "batches", "finalState", "initialState"]) assert.equal(lean[key], undefined, `${name}: ${key}`);
    assert.ok(lean.steps.every((s) => s.events === undefined && s.changes === undefined), name);
    // The timeline's part of the report is the same.
    const strip = (r) => ({ ...r, producers: undefined, partitions: undefined, batches: undefined, finalState: undefined, initialState: undefined, steps: r.steps.map((s) => ({ ...s, events: undefined, producerEntries: undefined, changes: undefined })) });
    assert.deepEqual(strip(lean), strip(full), name);
  }
});

// One script language: the views decide a script's language before any wasm is loaded
// (www/lib/script-kind.js); the core decides it when it runs one (txn_scenario::is_transactions).
test("the views and the core read a script's language the same way, with or without a model line", () => {
  const rust = readFileSync(fileURLToPath(new URL("../../crate/core/src/model/txn_scenario/parse.rs", import.meta.url)), "utf8");
  const list = /pub const TRANSACTIONS_WORDS: \[&str; \d+\] = \[([^\]]*)\]/.exec(rust);
  assert.ok(list, "TRANSACTIONS_WORDS in parse.rs");
  assert.deepEqual(TRANSACTIONS_WORDS, [...list[1].matchAll(/"([^"]+)"/g)].map((m) => m[1]));
  const index = JSON.parse(readFileSync(join(dir, "index.json"), "utf8"));
  for (const { name, model } of index) {
    assert.equal(isTransactionsScript(readFileSync(join(dir, `${name}.eos`), "utf8")), model === "transactions", name);
  }
  // No model line, a transactional producer and a consumer beside an idempotent one: the
  // timeline's runner takes it as a transactions script, and it passes.
  const mixed = "partition orders-0\nproducer legacy\nproducer app transactional.id=pay # a comment\nconsumer r read_committed orders-0\n" +
    "send legacy orders-0 x\nflush\ninit app\nbegin app\nsend app orders-0 y\ncommit app\ndeliver markers\npoll r\nexpect r received x y\n";
  assert.equal(isTransactionsScript(mixed), true);
  const run = runTxnScenario(mixed);
  assert.equal(run.model, "transactions");
  assert.equal(run.passed, true, JSON.stringify(run.failures ?? run.error));
  assert.equal(isTransactionsScript("partition p\nproducer a\nsend a p x # begin\ndelay request b1\n"), false);
  assert.equal(isTransactionsScript("partition p\nproducer a transactional.id=t\nrepeat 3: begin a; abort a\n"), true);
});
