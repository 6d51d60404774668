// Node half of `make bench`: the wasm package (pkg/) and kafkajs over the same corpus files.
//
//   node benches/js/node.bench.mjs [--reps N] [--only eoslab-wasm,kafkajs,model] [--out FILE] [--pkg DIR]
//
// Prints one line per measurement on stderr and the rows as JSON on stdout (or into --out).
// Needs pkg/ (scripts/build-pkg.sh), benches/target/corpus-*.bin (eoslab-bench corpus) and
// tests/diff/node_modules (kafkajs + kafkajs-lz4 + @mongodb-js/zstd; benches/run.sh installs it).
import { readFileSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { emptyDigest, sameDigest, timeIt, wasmModel, wasmPasses } from './lib.mjs'

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..')
const TARGET = join(ROOT, 'benches', 'target')
const arg = (name, dflt) => {
  const i = process.argv.indexOf(`--${name}`)
  return i > 0 ? process.argv[i + 1] : dflt
}
const reps = Number(arg('reps', 5))
const only = arg('only', '').split(',').filter(Boolean)
const want = name => !only.length || only.some(o => name.startsWith(o))
const modelN = Number(process.env.BENCH_MODEL_N || 100000)
const log = s => process.stderr.write(`node: ${s}\n`)

const meta = JSON.parse(readFileSync(join(TARGET, 'corpus.json'), 'utf8'))
// --pkg DIR: another build of the package (e.g. a prototype), same corpus and peers.
const PKG = arg('pkg', join(ROOT, 'pkg'))
const wasm = await import(join(PKG, 'eoslab.js'))
wasm.initSync({ module: readFileSync(join(PKG, 'eoslab_bg.wasm')) })

// --- kafkajs, set up as its documentation says (and as tests/diff/kafkajs_peer.js does) ---
const require = createRequire(join(ROOT, 'tests', 'diff', 'package.json'))
const { CompressionTypes, CompressionCodecs } = require('kafkajs')
const LZ4Codec = require('kafkajs-lz4')
const zstd = require('@mongodb-js/zstd')
CompressionCodecs[CompressionTypes.LZ4] = new LZ4Codec().codec
CompressionCodecs[CompressionTypes.ZSTD] = () => ({
  compress: async encoder => zstd.compress(encoder.buffer, 3),
  decompress: async buffer => zstd.decompress(buffer),
})
const decodeRecordBatch = require('kafkajs/src/protocol/recordBatch/v0/decoder')
const Decoder = require('kafkajs/src/protocol/decoder')
// kafkajs' own CRC-32C (pure JS, table-driven). Its batch decoder reads the CRC and drops it
// ("The library is currently not performing CRC validations"), so the bench checks each batch
// with kafkajs' crc32C module, exactly what kafkajs would call if it validated.
const crc32C = require('kafkajs/src/protocol/recordBatch/crc32C')

/** kafkajs' consumer path: RecordBatch decoder per batch (what a Fetch response runs through). */
async function kafkajsDigest(buf, baseTimestamp) {
  const d = emptyDigest()
  const decoder = new Decoder(buf)
  while (decoder.offset < buf.length) {
    const start = decoder.offset
    const b = await decodeRecordBatch(decoder)
    const end = decoder.offset
    if (crc32C(buf.subarray(start + 21, end)) !== buf.readUInt32BE(start + 17)) {
      throw new Error(`kafkajs: CRC mismatch in batch at ${start}`)
    }
    d.batches++
    for (const r of b.records) {
      d.records++
      d.offsetSum += Number(r.offset)
      d.timestampSum += Number(r.timestamp) - baseTimestamp
      if (r.key) d.keyBytes += r.key.length
      if (r.value) d.valueBytes += r.value.length
      for (const k in r.headers) {
        const vs = Array.isArray(r.headers[k]) ? r.headers[k] : [r.headers[k]]
        for (const v of vs) {
          d.headers++
          d.headerBytes += Buffer.byteLength(k) + (v ? v.length : 0)
        }
      }
    }
  }
  return d
}

const rows = []
for (const codec of ['none', 'lz4', 'zstd']) {
  const bytes = new Uint8Array(readFileSync(join(TARGET, `corpus-${codec}.bin`)))
  if (want('eoslab-wasm')) rows.push(...(await wasmPasses(wasm, codec, bytes, meta, reps, log)))
  if (want('kafkajs')) {
    const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length)
    const t = await timeIt(reps, got => sameDigest(got, meta.digest), () => kafkajsDigest(buf, meta.baseTimestamp))
    log(`${'kafkajs'.padEnd(22)} ${codec.padEnd(5)} ${(bytes.length / t.seconds / 1e6).toFixed(1).padStart(9)} MB/s ${(meta.digest.records / t.seconds).toFixed(0).padStart(12)} rec/s  (median of ${t.samples.length} x ${t.seconds.toFixed(3)}s)`)
    rows.push({ engine: 'kafkajs', codec, bytes: bytes.length, records: meta.digest.records, seconds: t.seconds, samples: t.samples })
  }
}
const model = want('model') ? await wasmModel(wasm, Math.min(Math.max(reps, 3), 7), modelN, log) : null

const out = JSON.stringify({ runtime: `node ${process.version}`, reps, rows, model })
const file = arg('out')
if (file) writeFileSync(file, out + '\n')
else process.stdout.write(out + '\n')
