// One untimed pass of the transactions model in wasm, for valgrind to count instructions
// (benches/wasm-ratio.sh): the script of benches/src/txn.rs and benches/txn.bench.mjs, run by
// runTxnScenarioSummary (parse, then run untraced without snapshots, as the native pass).
//
//   node --no-liftoff --no-wasm-tier-up --single-threaded benches/js/once-txn.mjs PKG_DIR CYCLES MODE
//
// MODE: `run` (one run) or `run2` (two runs of the same script): their difference is one run with
// the code already compiled (TurboFan compiles a function at its first call: the first run pays
// for compiling what the model uses, which the native count does not include). A run that does
// not pass fails.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'

const [pkg, cyclesArg, mode] = process.argv.slice(2)
const cycles = Number(cyclesArg)
const wasm = await import(join(pkg, 'eoslab.js'))
wasm.initSync({ module: readFileSync(join(pkg, 'eoslab_bg.wasm')) })
let text = 'model transactions\npartition p-0 p-1\nproducer a transactional.id=bench\nconsumer rc read_committed p-0 p-1\ninit a\n'
for (let k = 0; k < cycles; k++) text += `begin a\nsend a p-0 v${k}\nsend a p-1 w${k}\ncommit a\ndeliver markers\npoll rc\n`
const runs = { run: 1, run2: 2 }[mode]
if (!runs) throw new Error(`unknown mode ${mode}: run or run2`)
for (let i = 0; i < runs; i++) {
  const s = wasm.runTxnScenarioSummary(text)
  if (!s.passed || !s.invariantsHold || s.steps !== 1 + 6 * cycles) throw new Error(`bench script failed in wasm: ${JSON.stringify(s)}`)
}
process.stderr.write(`once-txn: ${mode} ${text.length} bytes ok\n`)
