// The Chromium side of benches/js/browser.bench.mjs: the same wasm passes as in Node
// (benches/js/lib.mjs), with pkg/ loaded the way www/ loads it (`init()` fetches the .wasm).
import init, * as wasm from '/pkg/eoslab.js'
import { wasmModel, wasmPasses } from './lib.mjs'

window.runBench = async ({ reps, modelN, only }) => {
  await init()
  const want = name => !only.length || only.some(o => name.startsWith(o))
  const log = s => console.log(`chromium: ${s}`)
  const meta = await (await fetch('/target/corpus.json')).json()
  const rows = []
  for (const codec of ['none', 'lz4', 'zstd']) {
    if (!want('eoslab-wasm')) break
    const bytes = new Uint8Array(await (await fetch(`/target/corpus-${codec}.bin`)).arrayBuffer())
    rows.push(...(await wasmPasses(wasm, codec, bytes, meta, reps, log)))
  }
  const model = want('model') ? await wasmModel(wasm, Math.min(Math.max(reps, 3), 7), modelN, log) : null
  return { runtime: navigator.userAgent.match(/(?:Headless)?Chrome\/[\d.]+/)?.[0] ?? navigator.userAgent, reps, rows, model }
}
window.benchReady = true
