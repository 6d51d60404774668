// One untimed pass of a wasm decode API, for valgrind to count instructions (benches/instructions.sh).
//
//   node --no-liftoff --no-wasm-tier-up --single-threaded benches/js/once.mjs PKG_DIR CORPUS_DIR CODEC API
//
// API: `load` (read the corpus and instantiate the package, nothing else: the baseline the other
// passes are measured against), `columns` (decodeColumnsInPlace, every record walked through
// www/lib/record-columns.js as benches/js/lib.mjs does) or `decode` (the report, as the inspector
// calls it). The digest is checked against corpus.json, so a pass that decodes wrongly fails.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { columnsDigest, sameDigest, wasmDigest } from './lib.mjs'
import { RecordColumns } from '../../www/lib/record-columns.js'

const [pkg, dir, codec, api] = process.argv.slice(2)
const meta = JSON.parse(readFileSync(join(dir, 'corpus.json'), 'utf8'))
const bytes = new Uint8Array(readFileSync(join(dir, `corpus-${codec}.bin`)))
const wasm = await import(join(pkg, 'eoslab.js'))
wasm.initSync({ module: readFileSync(join(pkg, 'eoslab_bg.wasm')) })

let digest = null
if (api === 'columns') {
  const cols = RecordColumns.decodeInPlace(wasm, bytes)
  try {
    digest = columnsDigest(cols, meta.baseTimestamp)
  } finally {
    cols.free()
  }
} else if (api === 'decode') {
  digest = wasmDigest(wasm.decode(bytes), meta.baseTimestamp)
} else if (api !== 'load') {
  throw new Error(`unknown API ${api}: load, columns or decode`)
}
if (digest) {
  const problem = sameDigest(digest, meta.digest)
  if (problem) throw new Error(`${api} ${codec}: ${problem}`)
}
process.stderr.write(`once: ${api} ${codec} ok\n`)
