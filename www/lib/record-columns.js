// The result of the package's `decodeColumns(bytes)` (pkg/eoslab.js) as typed-array columns with
// record accessors: the bulk way to read whole segments in JS. One call decodes and checks every
// batch (the same checks and Kafka error names as `decode`); records are materialized only when
// asked for, keys and values as zero-copy `subarray`s of the input (or of the `decompressed`
// column for compressed batches). No DOM: works in browsers and in Node.
//
//   import init, { decodeColumns } from "../../pkg/eoslab.js";
//   import { RecordColumns } from "./record-columns.js";
//   await init();
//   const cols = RecordColumns.decode({ decodeColumns }, bytes);
//   for (const r of cols) console.log(r.offset, r.key, r.value, r.headers);

const TYPES = { i8: Int8Array, u8: Uint8Array, i16: Int16Array, u16: Uint16Array, i32: Int32Array, u32: Uint32Array, i64: BigInt64Array };
const utf8 = new TextDecoder();

// Header keys repeat across records (a handful of names per topic): short keys are decoded once
// and looked up by their bytes (hash, then a byte-for-byte check).
const KEY_CACHE_MAX = 256;
function headerKey(cache, bytes) {
  const n = bytes.length;
  if (n > 48) return utf8.decode(bytes);
  let h = n;
  for (let i = 0; i < n; i++) h = (Math.imul(h, 31) + bytes[i]) | 0;
  const hit = cache.get(h);
  if (hit !== undefined && hit.bytes.length === n) {
    let same = true;
    for (let i = 0; i < n; i++) if (hit.bytes[i] !== bytes[i]) { same = false; break; }
    if (same) return hit.text;
  }
  const text = utf8.decode(bytes);
  if (cache.size < KEY_CACHE_MAX) cache.set(h, { bytes: bytes.slice(), text });
  return text;
}


export class RecordColumns {
  /** `input` is the Uint8Array that was decoded; `result` what decodeColumns(input) returned. */
  constructor(input, result) {
    this.input = input;
    /** [{at, kind, message, decompressedAt, batch}]: as `decode` reports them. */
    this.errors = result.errors;
    const buf = result.buffer;
    for (const [name, type, offset, length] of result.layout) {
      this[name] = new TYPES[type](buf.buffer, buf.byteOffset + offset, length);
    }
    this.keys = new Map();
    this.batchCount = this.batchStart.length;
    this.recordCount = this.offset.length;
  }

  /** Decode `input` (Uint8Array) with a loaded package's decodeColumns. */
  static decode(eoslab, input, options) {
    return new RecordColumns(input, eoslab.decodeColumns(input, options));
  }

  /** The bytes batch (entry) `i`'s record positions index. */
  bufferOf(i) {
    return this.inDecompressed[i] ? this.decompressed : this.input;
  }

  /** The batch (entry) that record `j` belongs to. */
  batchOf(j) {
    let lo = 0;
    let hi = this.batchCount - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >>> 1;
      if (this.firstRecord[mid] <= j) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }

  /** Whether batch `i`'s stored CRC-32C matches the computed one. */
  crcValid(i) {
    return this.crc[i] === this.crcComputed[i];
  }

  /**
   * Record `j`: {offset, timestamp (BigInt), sequence, key, value (Uint8Array | null), headers:
   * [{key: string, value: Uint8Array | null}]}. Pass `buf` (bufferOf(batch)) when walking a batch.
   */
  record(j, buf = this.bufferOf(this.batchOf(j))) {
    const headers = [];
    for (let h = this.firstHeader[j], end = this.firstHeader[j + 1]; h < end; h++) {
      const ks = this.headerKeyStart[h];
      const vl = this.headerValueLength[h];
      headers.push({
        key: headerKey(this.keys, buf.subarray(ks, ks + this.headerKeyLength[h])),
        value: vl < 0 ? null : buf.subarray(this.headerValueStart[h], this.headerValueStart[h] + vl),
      });
    }
    const kl = this.keyLength[j];
    const vl = this.valueLength[j];
    return {
      offset: this.offset[j],
      timestamp: this.timestamp[j],
      sequence: this.sequence[j],
      key: kl < 0 ? null : buf.subarray(this.keyStart[j], this.keyStart[j] + kl),
      value: vl < 0 ? null : buf.subarray(this.valueStart[j], this.valueStart[j] + vl),
      headers,
    };
  }

  /** Every record, batch by batch. */
  *[Symbol.iterator]() {
    for (let i = 0; i < this.batchCount; i++) {
      const buf = this.bufferOf(i);
      for (let j = this.firstRecord[i], end = this.firstRecord[i + 1]; j < end; j++) yield this.record(j, buf);
    }
  }
}
