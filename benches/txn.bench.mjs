// make bench: transactions-model steps per second, native (benches/src/txn.rs,
// built by benches/run.sh) and wasm in Node (pkg/, runTxnScenario with snapshots off), on the
// same generated script; prints both and the wasm/native ratio (target: >= 1M steps/s native,
// wasm >= 0.3x native).
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");
const CYCLES = 2500;
const REPS = 5;

function script(cycles) {
  let s = "model transactions\npartition p-0 p-1\nproducer a transactional.id=bench\nconsumer rc read_committed p-0 p-1\ninit a\n";
  for (let k = 0; k < cycles; k++) s += `begin a\nsend a p-0 v${k}\nsend a p-1 w${k}\ncommit a\ndeliver markers\npoll rc\n`;
  return s;
}

const target = process.env.CARGO_TARGET_DIR || join(ROOT, "benches/target");
const nativeOut = execFileSync(join(target, "release/eoslab-bench-txn"), [String(CYCLES), String(REPS)], { encoding: "utf8" });
const native = JSON.parse(nativeOut.trim().split("\n").pop());

const wasm = await import(join(ROOT, "pkg/eoslab.js"));
wasm.initSync({ module: readFileSync(join(ROOT, "pkg/eoslab_bg.wasm")) });
const text = script(CYCLES);
function measure(options) {
  let best = Infinity;
  let steps = 0;
  for (let r = 0; r < REPS; r++) {
    const t = performance.now();
    const run = wasm.runTxnScenario(text, options);
    const dt = (performance.now() - t) / 1000;
    if (!run.passed) throw new Error("bench script failed in wasm");
    steps = run.steps.length;
    best = Math.min(best, dt);
  }
  return { steps, rate: steps / best };
}
let best = Infinity;
let summarySteps = 0;
for (let r = 0; r < REPS; r++) {
  const t = performance.now();
  const s = wasm.runTxnScenarioSummary(text);
  const dt = (performance.now() - t) / 1000;
  if (!s.passed || !s.invariantsHold) throw new Error("bench script failed in wasm");
  summarySteps = s.steps;
  best = Math.min(best, dt);
}
const model = { steps: summarySteps, rate: summarySteps / best };
const quiet = measure({ snapshots: false, trace: false });
const traced = measure({ snapshots: false });
const fmt = (n) => Math.round(n).toLocaleString("en");
console.log(`transactions model: ${quiet.steps} steps`);
console.log(`  native, no tracing: ${fmt(native.stepsPerSecond)} steps/s; with every message built: ${fmt(native.tracedStepsPerSecond)} steps/s`);
console.log(`  wasm (Node), the model alone (runTxnScenarioSummary): ${fmt(model.rate)} steps/s = ${(model.rate / native.stepsPerSecond).toFixed(2)}x native`);
console.log(`  wasm (Node), no tracing, incl. the JS report of every step: ${fmt(quiet.rate)} steps/s = ${(quiet.rate / native.stepsPerSecond).toFixed(2)}x native`);
console.log(`  wasm (Node), traced, incl. the JS report: ${fmt(traced.rate)} steps/s = ${(traced.rate / native.tracedStepsPerSecond).toFixed(2)}x native traced`);
