// A/B of wasm package builds in one Node process: for evaluating an optimization on a shared,
// noisy machine, the builds are run alternately (A B A B ...) over the same corpus, so that
// machine noise hits them alike; the per-build medians and their ratio are printed.
//
//   node benches/js/ab.mjs [--reps N] [--codecs none,lz4,zstd] [--options JSON] DIR_A DIR_B [DIR_C ...]
//
// Each DIR is a wasm-bindgen --target web output (like pkg/). --options is passed to decode
// (default: {} = the defaults, records + spans). Every result is checked against the corpus
// digest (benches/target/corpus.json).
import { readFileSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { median, sameDigest, wasmDigest } from './lib.mjs'

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..')
const TARGET = join(ROOT, 'benches', 'target')
const argv = process.argv.slice(2)
const opt = (name, dflt) => {
  const i = argv.indexOf(`--${name}`)
  if (i < 0) return dflt
  const v = argv[i + 1]
  argv.splice(i, 2)
  return v
}
const reps = Number(opt('reps', 5))
const codecs = opt('codecs', 'none,lz4,zstd').split(',')
const options = JSON.parse(opt('options', '{}'))
const dirs = argv.map(d => resolve(d))
if (dirs.length < 2) {
  console.error('usage: node benches/js/ab.mjs [--reps N] [--codecs ...] [--options JSON] DIR_A DIR_B ...')
  process.exit(2)
}
const meta = JSON.parse(readFileSync(join(TARGET, 'corpus.json'), 'utf8'))
const pkgs = []
for (const d of dirs) {
  const m = await import(`${join(d, 'eoslab.js')}?${pkgs.length}`)
  m.initSync({ module: readFileSync(join(d, 'eoslab_bg.wasm')) })
  pkgs.push(m)
}
for (const codec of codecs) {
  const bytes = new Uint8Array(readFileSync(join(TARGET, `corpus-${codec}.bin`)))
  const times = pkgs.map(() => [])
  for (let r = -1; r < reps; r++) {
    pkgs.forEach((m, i) => {
      const t = performance.now()
      const d = wasmDigest(m.decode(bytes, options), meta.baseTimestamp)
      const dt = (performance.now() - t) / 1000
      const bad = sameDigest(d, meta.digest)
      if (bad) throw new Error(`${dirs[i]}: ${bad}`)
      if (r >= 0) times[i].push(dt) // r = -1: warm-up
    })
  }
  const meds = times.map(median)
  const line = dirs.map((d, i) => `${d.split('/').pop()} ${(bytes.length / meds[i] / 1e6).toFixed(1)} MB/s (${meds[i].toFixed(3)}s)`).join('  ')
  const ratios = meds.slice(1).map((m, i) => `${dirs[i + 1].split('/').pop()}/A ${(meds[0] / m).toFixed(2)}x`).join('  ')
  console.log(`${codec.padEnd(5)} ${line}  | ${ratios}`)
}
