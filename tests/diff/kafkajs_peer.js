'use strict'
// kafkajs as a differential-testing peer of eoslab, driven by tests/diff/diff.py.
//
//   node kafkajs_peer.js encode CASES.json OUT.bin META.json
//       Writes every case as one v2 batch with kafkajs' own RecordBatch/Record encoders
//       (kafkajs/src/protocol/recordBatch/v0, .../record/v0), back to back in OUT.bin, and
//       in META.json what kafkajs says it wrote where that differs from the case (the
//       header order, see below).
//   node kafkajs_peer.js decode SEGMENT.bin
//       Reads batch after batch with kafkajs' RecordBatch decoder (what its consumer runs on
//       a Fetch response) and prints them as JSON (int64s as decimal strings, bytes as hex).
//
// Compression plugs in as kafkajs documents it (CompressionCodecs[CompressionTypes.X] = …):
// kafkajs-snappy, kafkajs-lz4 and @mongodb-js/zstd 1.2.2 (napi-rs, its prebuilt binary comes in
// a registry package; 7.x downloads one at install time, and @kafkajs/zstd does not build on
// Node 20). GZIP is built in.
const fs = require('fs')
const { CompressionTypes, CompressionCodecs } = require('kafkajs')
const SnappyCodec = require('kafkajs-snappy')
const LZ4Codec = require('kafkajs-lz4')
const zstd = require('@mongodb-js/zstd')

CompressionCodecs[CompressionTypes.Snappy] = SnappyCodec
CompressionCodecs[CompressionTypes.LZ4] = new LZ4Codec().codec
CompressionCodecs[CompressionTypes.ZSTD] = () => ({
  compress: async encoder => zstd.compress(encoder.buffer, 3),
  decompress: async buffer => zstd.decompress(buffer),
})

const { RecordBatch } = require('kafkajs/src/protocol/recordBatch/v0')
const Record = require('kafkajs/src/protocol/recordBatch/record/v0')
const decodeRecordBatch = require('kafkajs/src/protocol/recordBatch/v0/decoder')
const Decoder = require('kafkajs/src/protocol/decoder')
const crc32C = require('kafkajs/src/protocol/recordBatch/crc32C')
const Long = require('kafkajs/src/utils/long')

const CODEC = { none: 0, gzip: 1, snappy: 2, lz4: 3, zstd: 4 }
const bytes = h => (h === null ? null : Buffer.from(h, 'hex'))
const hex = b => (b === null || b === undefined ? null : Buffer.isBuffer(b) ? b.toString('hex') : `<${typeof b}>`)

// kafkajs takes record headers as an object { key: value | [values] }, so a record's headers
// reach the wire grouped by key, in JavaScript property order (array-index keys such as "7"
// first, ascending, then the others in insertion order). Java keeps them as written (a list).
function headersObject(list) {
  const obj = {}
  for (const [k, v] of list) {
    const b = bytes(v)
    if (!Object.prototype.hasOwnProperty.call(obj, k)) obj[k] = b
    else if (Array.isArray(obj[k])) obj[k].push(b)
    else obj[k] = [obj[k], b]
  }
  return obj
}

// Exactly the flattening kafkajs' record encoder does (record/v0/index.js): what it writes.
const wireHeaders = headers =>
  Object.keys(headers).flatMap(k =>
    !Array.isArray(headers[k]) ? [[k, hex(headers[k])]] : headers[k].map(v => [k, hex(v)])
  )

async function encode(casesPath, outPath, metaPath) {
  const cases = JSON.parse(fs.readFileSync(casesPath, 'utf8'))
  const parts = []
  const meta = []
  for (const c of cases) {
    const written = []
    const records = c.records.map(r => {
      const headers = headersObject(r.headers)
      written.push(wireHeaders(headers))
      return Record({
        offsetDelta: r.offsetDelta,
        timestampDelta: Long.fromString(r.timestampDelta),
        key: bytes(r.key),
        value: bytes(r.value),
        headers,
      })
    })
    const batch = await RecordBatch({
      compression: CODEC[c.codec],
      firstOffset: Long.fromString(c.baseOffset),
      firstTimestamp: Long.fromString(c.baseTimestamp),
      maxTimestamp: Long.fromString(c.maxTimestamp),
      partitionLeaderEpoch: c.partitionLeaderEpoch,
      lastOffsetDelta: c.lastOffsetDelta,
      transactional: c.transactional,
      producerId: Long.fromString(c.producerId),
      producerEpoch: c.producerEpoch,
      firstSequence: c.baseSequence,
      records,
    })
    parts.push(batch.buffer)
    meta.push({ headers: written })
  }
  fs.writeFileSync(outPath, Buffer.concat(parts))
  fs.writeFileSync(metaPath, JSON.stringify(meta))
}

async function decode(segPath) {
  const buf = fs.readFileSync(segPath)
  const decoder = new Decoder(buf)
  const out = []
  while (decoder.offset < buf.length) {
    const start = decoder.offset
    let b
    try {
      b = await decodeRecordBatch(decoder)
    } catch (e) {
      out.push({ start, error: String(e && e.stack ? e.stack : e) })
      break
    }
    const end = decoder.offset
    out.push({
      start,
      end,
      // kafkajs never checks the CRC (its decoder reads and drops it); this is kafkajs'
      // own CRC-32C over the bytes, checked by diff.py in its place.
      crcStored: buf.readUInt32BE(start + 17),
      crcKafkajs: crc32C(buf.subarray(start + 21, end)),
      firstOffset: b.firstOffset,
      partitionLeaderEpoch: b.partitionLeaderEpoch,
      lastOffsetDelta: b.lastOffsetDelta,
      firstTimestamp: b.firstTimestamp,
      maxTimestamp: b.maxTimestamp,
      producerId: b.producerId,
      producerEpoch: b.producerEpoch,
      firstSequence: b.firstSequence,
      inTransaction: b.inTransaction,
      isControlBatch: b.isControlBatch,
      timestampType: b.timestampType,
      records: b.records.map(r => ({
        offset: r.offset,
        timestamp: String(r.timestamp),
        key: hex(r.key),
        value: hex(r.value),
        attributes: r.attributes,
        isControlRecord: r.isControlRecord,
        headers: Object.entries(r.headers).map(([k, v]) => [k, Array.isArray(v) ? v.map(hex) : [hex(v)]]),
      })),
    })
  }
  process.stdout.write(JSON.stringify(out))
}

const [mode, ...args] = process.argv.slice(2)
const run = mode === 'encode' ? encode(...args) : mode === 'decode' ? decode(...args) : Promise.reject(new Error(`usage: ${mode}`))
run.catch(e => {
  console.error(e && e.stack ? e.stack : e)
  process.exit(1)
})
