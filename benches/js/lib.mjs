// Shared by benches/js/node.bench.mjs and the Chromium page (benches/js/page.mjs): the wasm
// passes, timed the same way in both. Plain ES module, no Node APIs.
//
// "Every field materialized": after each decode, every record's offset, timestamp, key, value and
// headers are read and summed into a digest that must equal the generator's (corpus.json), so no
// engine can skip work and every engine is checked for correct output.

import { RecordColumns } from '../../www/lib/record-columns.js'

export const median = xs => {
  const s = [...xs].sort((a, b) => a - b)
  const n = s.length
  return n % 2 ? s[(n - 1) / 2] : (s[n / 2 - 1] + s[n / 2]) / 2
}

export const emptyDigest = () => ({
  batches: 0, records: 0, keyBytes: 0, valueBytes: 0, headers: 0, headerBytes: 0, offsetSum: 0, timestampSum: 0,
})

export function sameDigest(got, want) {
  for (const k of Object.keys(want)) if (got[k] !== want[k]) return `${k}: got ${got[k]}, want ${want[k]}`
  return null
}

const utf8Len = s => {
  // header keys are Java Strings; ASCII here, but count UTF-8 bytes properly anyway
  let n = 0
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i)
    n += c < 0x80 ? 1 : c < 0x800 ? 2 : c >= 0xd800 && c < 0xdc00 ? (i++, 4) : 3
  }
  return n
}

// Bytes are hex strings in the package's contract; a Uint8Array is counted too (prototypes).
const byteLen = v => (v === null ? 0 : typeof v === 'string' ? v.length >>> 1 : typeof v === 'number' ? v : v.length)

/** Walks a DecodeResult of the wasm package (hex strings for bytes, decimal strings for int64s). */
export function wasmDigest(res, baseTimestamp) {
  const bad = res.errors.find(e => e.severity === 'error')
  if (bad) throw new Error(`eoslab wasm reported ${bad.kind} at ${bad.at}: ${bad.message}`)
  const d = emptyDigest()
  let fields = 0
  for (const b of res.batches) {
    if (!b.header.crcValid) throw new Error(`eoslab wasm: CRC not valid in batch at ${b.start}`)
    d.batches++
    fields += b.fields.length
    for (const r of b.records) {
      d.records++
      d.offsetSum += Number(r.offset)
      d.timestampSum += Number(r.timestamp) - baseTimestamp
      d.keyBytes += byteLen(r.key)
      d.valueBytes += byteLen(r.value)
      for (const h of r.headers) {
        d.headers++
        d.headerBytes += utf8Len(h.key) + byteLen(h.value)
      }
    }
  }
  d.fields = fields // not part of the comparison: only keeps the spans "used"
  return d
}

/**
 * Walks the package's `decodeColumns` result through www/lib/record-columns.js, as a program
 * reading a segment would: every batch's CRC verdict, every record materialized (offset and
 * timestamp as BigInt, key/value/header values as Uint8Array views, header keys as strings).
 */
export function columnsDigest(cols, baseTimestamp) {
  if (cols.errors.length) {
    const e = cols.errors[0]
    throw new Error(`eoslab wasm decodeColumns reported ${e.kind} at ${e.at}: ${e.message}`)
  }
  const d = emptyDigest()
  const base = BigInt(baseTimestamp)
  let offsets = 0n
  let timestamps = 0n
  for (let i = 0; i < cols.batchCount; i++) {
    if (!cols.crcValid(i)) throw new Error(`eoslab wasm: CRC not valid in batch at ${cols.batchStart[i]}`)
    d.batches++
  }
  for (const r of cols) {
    d.records++
    offsets += r.offset
    timestamps += r.timestamp - base
    if (r.key) d.keyBytes += r.key.length
    if (r.value) d.valueBytes += r.value.length
    for (const h of r.headers) {
      d.headers++
      d.headerBytes += utf8Len(h.key) + (h.value ? h.value.length : 0)
    }
  }
  d.offsetSum = Number(offsets)
  d.timestampSum = Number(timestamps)
  return d
}

/**
 * Run `fn` once (warm-up, checked with `check`, timed), then `reps` timed times; the median of
 * those is the result. When the warm-up shows that `reps` runs would take more than
 * `budgetSeconds`, fewer are made (none: the warm-up time itself is the only sample).
 */
export async function timeIt(reps, check, fn, budgetSeconds = Infinity) {
  let t = performance.now()
  let last = await fn()
  const warm = (performance.now() - t) / 1000
  const problem = check(last)
  if (problem) throw new Error(problem)
  if (warm * reps > budgetSeconds) reps = Math.floor(budgetSeconds / warm)
  const samples = []
  for (let i = 0; i < reps; i++) {
    t = performance.now()
    last = await fn()
    samples.push((performance.now() - t) / 1000)
  }
  if (!samples.length) samples.push(warm)
  return { seconds: median(samples), samples, last, first: warm }
}

export const MODEL_SCRIPT = n => `partition p\nproducer a\nrepeat ${n}: send a p x; flush; flush\n`

/**
 * The wasm passes over one corpus: decode (default options: records + spans, as the page calls
 * it), decode without spans, and CRC-32C only. `wasm` is the initialised pkg module.
 */
export async function wasmPasses(wasm, codec, bytes, meta, reps, log = () => {}) {
  const want = meta.digest
  const rows = []
  const check = got => sameDigest(got, want)
  const n = bytes.length
  const row = (engine, t) => {
    log(`${engine.padEnd(22)} ${codec.padEnd(5)} ${(n / t.seconds / 1e6).toFixed(1).padStart(9)} MB/s ${(want.records / t.seconds).toFixed(0).padStart(12)} rec/s  (median of ${t.samples.length} x ${t.seconds.toFixed(3)}s)`)
    rows.push({ engine, codec, bytes: n, records: want.records, seconds: t.seconds, samples: t.samples, first: t.first })
  }
  row('eoslab-wasm', await timeIt(reps, check, () => wasmDigest(wasm.decode(bytes), meta.baseTimestamp)))
  row('eoslab-wasm-nospans', await timeIt(reps, check, () => wasmDigest(wasm.decode(bytes, { spans: false }), meta.baseTimestamp)))
  if (wasm.decodeColumnsInPlace) {
    // The bulk API as a program reading whole segments uses it: columns left in the package's
    // memory (freed after each pass, as such a program would), then copied out (`decodeColumns`).
    const inPlace = () => {
      const cols = RecordColumns.decodeInPlace(wasm, bytes)
      try {
        return columnsDigest(cols, meta.baseTimestamp)
      } finally {
        cols.free()
      }
    }
    row('eoslab-wasm-columns', await timeIt(reps, check, inPlace))
    row('eoslab-wasm-columns-copy', await timeIt(reps, check, () => columnsDigest(RecordColumns.decode(wasm, bytes), meta.baseTimestamp)))
  }
  const crc = wasm.crc32c(bytes)
  row('eoslab-wasm-crc32c-only', await timeIt(reps, c => (c === crc ? null : 'crc differs'), () => wasm.crc32c(bytes)))
  return rows
}

/** Decisions per second of the idempotence model in wasm (parse + run + count). */
export async function wasmModel(wasm, reps, n, log = () => {}) {
  const script = MODEL_SCRIPT(n)
  const t = await timeIt(reps, s => (s.passed ? null : 'model scenario failed'), () => wasm.runScenarioSummary(script), 60)
  const { decisions, steps } = t.last
  log(`model ${(decisions / t.seconds).toFixed(0).padStart(12)} decisions/s (${decisions} decisions, ${steps} steps, median ${t.seconds.toFixed(3)}s)`)
  return { decisions, steps, seconds: t.seconds, samples: t.samples }
}
