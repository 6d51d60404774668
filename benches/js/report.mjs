// Last step of `make bench`: reads benches/target/results/*.json (written by the native, Node,
// Chromium and Python passes of the same run), prints the results table, the ratios and the
// decode and model targets, and writes the same Markdown to benches/target/results.md.
//
//   node benches/js/report.mjs [RESULTS_DIR]
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { cpus, totalmem } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { gzipSync } from 'node:zlib'

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..')
const DIR = process.argv[2] ?? join(ROOT, 'benches', 'target', 'results')
const load = name => {
  const f = join(DIR, `${name}.json`)
  return existsSync(f) ? JSON.parse(readFileSync(f, 'utf8')) : null
}
const runs = { native: load('native'), node: load('node'), chromium: load('chromium'), python: load('python') }
const meta = JSON.parse(readFileSync(join(ROOT, 'benches', 'target', 'corpus.json'), 'utf8'))
const CODECS = ['none', 'lz4', 'zstd']

// engine label -> (run, engine id in that run)
const ENGINES = [
  ['eoslab-core (native, default options)', 'native', 'eoslab-core'],
  ['eoslab-core (native, spans: false)', 'native', 'eoslab-core-nospans'],
  ['eoslab-core `view` (native, zero-copy records)', 'native', 'eoslab-view'],
  ['kafka-protocol 0.18.0 (native)', 'native', 'kafka-protocol'],
  ['CRC-32C only (native)', 'native', 'crc32c-only'],
  ['eoslab wasm `decode` (Node)', 'node', 'eoslab-wasm'],
  ['eoslab wasm `decode` spans: false (Node)', 'node', 'eoslab-wasm-nospans'],
  ['eoslab wasm `decodeColumnsInPlace` + record-columns.js (Node)', 'node', 'eoslab-wasm-columns'],
  ['eoslab wasm `decodeColumns` (copied out) + record-columns.js (Node)', 'node', 'eoslab-wasm-columns-copy'],
  ['eoslab wasm `crc32c` only (Node)', 'node', 'eoslab-wasm-crc32c-only'],
  ['eoslab wasm `decode` (Chromium)', 'chromium', 'eoslab-wasm'],
  ['eoslab wasm `decode` spans: false (Chromium)', 'chromium', 'eoslab-wasm-nospans'],
  ['eoslab wasm `decodeColumnsInPlace` + record-columns.js (Chromium)', 'chromium', 'eoslab-wasm-columns'],
  ['eoslab wasm `decodeColumns` (copied out) + record-columns.js (Chromium)', 'chromium', 'eoslab-wasm-columns-copy'],
  ['eoslab wasm `crc32c` only (Chromium)', 'chromium', 'eoslab-wasm-crc32c-only'],
  ['kafkajs 2.2.4 + kafkajs crc32C (Node)', 'node', 'kafkajs'],
  ['kafka-python 3.0.12 + crc32c ext. (CPython)', 'python', 'kafka-python'],
  ['kafka-python 3.0.12, pure-Python CRC (CPython)', 'python', 'kafka-python-purecrc'],
]
const row = (run, engine, codec) => runs[run]?.rows.find(r => r.engine === engine && r.codec === codec)
const mbs = r => r.bytes / r.seconds / 1e6
const fmt = (x, d = 0) => (x === undefined || x === null || Number.isNaN(x) ? '—' : x.toLocaleString('en-US', { maximumFractionDigits: d, minimumFractionDigits: d }))

const out = []
const p = (s = '') => out.push(s)
const bytesOf = c => meta.files[c].bytes
p(`Corpus: ${meta.digest.batches} batches × ${meta.recordsPerBatch} records (${fmt(meta.digest.records)} records, ~${meta.valueLen} B values, 2 headers each), the same records per codec, written by eoslab's \`encode_segment\`: ` +
  CODECS.map(c => `${c} ${fmt(bytesOf(c) / 1048576, 1)} MiB`).join(', ') + '.')
p(`MB/s = corpus file bytes (compressed, as on disk) / median wall time (10^6 B/s); rec/s = records / median time. Every pass verifies every batch's CRC-32C and reads every record's offset, timestamp, key, value and headers (checked against the generator's digest).`)
p()
p(`| engine | ${CODECS.map(c => `${c} MB/s | ${c} rec/s`).join(' | ')} |`)
p(`| --- | ${CODECS.map(() => '---: | ---:').join(' | ')} |`)
for (const [label, run, engine] of ENGINES) {
  if (!runs[run]) continue
  const cells = CODECS.map(c => {
    const r = row(run, engine, c)
    return r ? `${fmt(mbs(r), 1)} | ${fmt(r.records / r.seconds)}` : '— | —'
  })
  if (cells.every(c => c === '— | —')) continue
  p(`| ${label} | ${cells.join(' | ')} |`)
}
p()

// ---- ratios (their time / our time, same bytes: > 1 means eoslab is faster) and targets
const ratio = (a, b) => (a && b ? b.seconds / a.seconds : NaN)
// The targets are checked on the bulk APIs: natively the zero-copy `view`, in wasm
// `decodeColumnsInPlace` read through www/lib/record-columns.js. `decode` (the inspector's object graph:
// hex strings, decimal strings, a span per field) is shown beside them without a target.
const RATIOS = [
  // label, ours [run, engine], theirs [run, engine], target (codec -> min), note
  ['native eoslab-core view / kafka-protocol', ['native', 'eoslab-view'], ['native', 'kafka-protocol'], { none: 1 }],
  ['wasm decodeColumnsInPlace (Node) / kafkajs (Node)', ['node', 'eoslab-wasm-columns'], ['node', 'kafkajs'], { none: 3, lz4: 3, zstd: 3 }],
  ['wasm decodeColumnsInPlace (Node) / kafka-python + crc32c ext.', ['node', 'eoslab-wasm-columns'], ['python', 'kafka-python'], { none: 3, lz4: 3, zstd: 3 }],
  ['wasm decodeColumnsInPlace (Node) / wasm CRC-only (Node)', ['node', 'eoslab-wasm-columns'], ['node', 'eoslab-wasm-crc32c-only'], { none: 0.5, lz4: 0.5, zstd: 0.5 }],
  ['wasm decodeColumnsInPlace (Chromium) / kafkajs (Node)', ['chromium', 'eoslab-wasm-columns'], ['node', 'kafkajs'], { none: 3, lz4: 3, zstd: 3 }],
  ['wasm decodeColumnsInPlace (Chromium) / kafka-python + crc32c ext.', ['chromium', 'eoslab-wasm-columns'], ['python', 'kafka-python'], { none: 3, lz4: 3, zstd: 3 }],
  ['wasm decodeColumnsInPlace (Chromium) / wasm CRC-only (Chromium)', ['chromium', 'eoslab-wasm-columns'], ['chromium', 'eoslab-wasm-crc32c-only'], { none: 0.5, lz4: 0.5, zstd: 0.5 }],
  ['native eoslab-core decode_bytes (report) / kafka-protocol', ['native', 'eoslab-core'], ['native', 'kafka-protocol'], {}],
  ['native eoslab-core decode_bytes spans:false / kafka-protocol', ['native', 'eoslab-core-nospans'], ['native', 'kafka-protocol'], {}],
  ['wasm decode (Node) / kafkajs (Node)', ['node', 'eoslab-wasm'], ['node', 'kafkajs'], {}],
  ['wasm decode (Node) / kafka-python + crc32c ext.', ['node', 'eoslab-wasm'], ['python', 'kafka-python'], {}],
  ['wasm decode (Node) / wasm CRC-only (Node)', ['node', 'eoslab-wasm'], ['node', 'eoslab-wasm-crc32c-only'], {}],
  ['wasm decode spans:false (Node) / kafkajs', ['node', 'eoslab-wasm-nospans'], ['node', 'kafkajs'], {}],
  ['wasm decode (Chromium) / kafkajs (Node)', ['chromium', 'eoslab-wasm'], ['node', 'kafkajs'], {}],
]
const mark = (v, min) => (min === undefined || Number.isNaN(v) ? '' : v >= min ? ' ✓' : ' ✗')
p(`| ratio: their time / our time (> 1: eoslab faster) | ${CODECS.join(' | ')} | target |`)
p(`| --- | ${CODECS.map(() => '---:').join(' | ')} | --- |`)
const verdicts = []
for (const [label, [ra, ea], [rb, eb], target] of RATIOS) {
  const vals = CODECS.map(c => ratio(row(ra, ea, c), row(rb, eb, c)))
  if (vals.every(Number.isNaN)) continue
  const cells = vals.map((v, i) => (Number.isNaN(v) ? '—' : `${fmt(v, 2)}×${mark(v, target[CODECS[i]])}`))
  const mins = Object.entries(target)
  const t = !mins.length ? '' : new Set(mins.map(([, m]) => m)).size === 1 && mins.length === 3 ? `≥ ${mins[0][1]}× every codec` : mins.map(([c, m]) => `≥ ${m}× ${c}`).join(', ')
  p(`| ${label} | ${cells.join(' | ')} | ${t} |`)
  for (const [c, m] of mins) {
    const v = vals[CODECS.indexOf(c)]
    if (!Number.isNaN(v)) verdicts.push({ name: `${label}, ${c}`, ok: v >= m })
  }
}
p()
// Sizes of both packages scripts/build-pkg.sh writes: the decode-only module (what the Batch
// Inspector downloads; the ≤ 150 KB target) and the full one with the models.
const wasmSize = name => {
  const f = join(ROOT, 'pkg', name)
  const bytes = existsSync(f) ? readFileSync(f) : null
  return { raw: bytes ? bytes.length : NaN, gz: bytes ? gzipSync(bytes, { level: 9 }).length : NaN }
}
const decodeWasm = wasmSize('eoslab-decode_bg.wasm')
const fullWasm = wasmSize('eoslab_bg.wasm')
p(`| other | measured | target |`)
p(`| --- | ---: | --- |`)
p(`| \`pkg/eoslab-decode_bg.wasm\` (decode-only: decode, crc32c, version; what \`<kafka-batch>\` loads), gzip -9 | ${fmt(decodeWasm.gz / 1000, 1)} KB (${fmt(decodeWasm.raw / 1000, 1)} KB raw) | ≤ 150 KB${mark(-decodeWasm.gz, -150000)} |`)
p(`| \`pkg/eoslab_bg.wasm\` (full: + the models, for the idempotence/transactions pages), gzip -9 | ${fmt(fullWasm.gz / 1000, 1)} KB (${fmt(fullWasm.raw / 1000, 1)} KB raw) |  |`)
if (!Number.isNaN(decodeWasm.gz)) verdicts.push({ name: 'wasm gzipped size (decode-only module)', ok: decodeWasm.gz <= 150000 })
for (const [who, run] of [['native', 'native'], ['wasm (Node)', 'node'], ['wasm (Chromium)', 'chromium']]) {
  const m = runs[run]?.model
  if (!m) continue
  const rate = m.decisions / m.seconds
  p(`| idempotence model, ${who}: decisions/s (\`repeat ${fmt(m.decisions)}: send a p x; flush; flush\`, median of ${m.samples.length}) | ${fmt(rate)} | ${who === 'native' ? `≥ 1,000,000${mark(rate, 1e6)}` : ''} |`)
  if (who === 'native') verdicts.push({ name: 'model decisions/s native', ok: rate >= 1e6 })
}
p()
const met = verdicts.filter(v => v.ok).length
p(`Targets met: ${met} of ${verdicts.length} (✓ met, ✗ not met).`)
// The first decode of each runtime (corpus "none", the first pass) runs on a fresh instance: it
// includes growing wasm memory from its initial size to what a 64 MiB decode needs.
const cold = ['node', 'chromium'].map(rt => [rt, row(rt, 'eoslab-wasm', 'none')]).filter(([, r]) => r?.first)
if (cold.length) {
  p()
  p(`First \`decode\` in a fresh wasm instance (corpus none, default options; includes growing wasm memory): ` +
    cold.map(([rt, r]) => `${rt} ${fmt(r.first, 2)} s vs a median of ${fmt(r.seconds, 2)} s once memory has grown`).join('; ') + '.')
}
p()
const runtimes = Object.entries(runs).filter(([, r]) => r?.runtime).map(([k, r]) => `${k}: ${r.runtime}`)
p(`Machine: ${cpus().length} × ${cpus()[0]?.model ?? '?'}, ${fmt(totalmem() / 2 ** 30, 0)} GiB; ${runtimes.join('; ')}. ` +
  `Medians of ${runs.native?.reps ?? '?'} timed runs after one checked warm-up run (fewer where a pass would exceed its time budget).`)

const text = out.join('\n')
writeFileSync(join(DIR, '..', 'results.md'), text + '\n')
process.stdout.write(text + '\n')
