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

/** One record header: `key` a string (Java String), `value` a Uint8Array or null. */
export class Header {
  constructor(key, value) {
    this.key = key;
    this.value = value;
  }
}

/** One record, as `RecordColumns.record(j)` materializes it (one shape for all: fast in V8). */
export class Record {
  constructor(offset, timestamp, sequence, key, value, headers) {
    /** BigInt */
    this.offset = offset;
    /** BigInt: milliseconds (LogAppendTime batches: the batch's maxTimestamp, as Kafka reads it). */
    this.timestamp = timestamp;
    /** number: baseSequence + offsetDelta (wrapping at 2^31 - 1 to 0), -1 without a producer id. */
    this.sequence = sequence;
    /** Uint8Array | null */
    this.key = key;
    /** Uint8Array | null */
    this.value = value;
    /** Header[] */
    this.headers = headers;
  }
}

export class RecordColumns {
  #packed = null;
  #layout;
  #bytes;

  /**
   * `input` is the Uint8Array that was decoded; `result` what decodeColumns(input) returned
   * ({buffer, layout, errors}), or the PackedColumns of decodeColumnsInPlace(input).
   */
  constructor(input, result) {
    this.input = input;
    /** [{at, kind, message, decompressedAt, batch}]: as `decode` reports them. */
    this.errors = result.errors;
    this.#layout = result.layout;
    if (typeof result.bytes === 'function') {
      this.#packed = result;
      this.#bind(result.bytes());
    } else {
      this.#bind(result.buffer);
    }
    /** The distinct header keys as strings (`headerKey` indexes them), decoded once here. */
    this.headerKeys = [];
    for (let k = 0; k + 1 < this.headerKeyAt.length; k++) {
      this.headerKeys.push(utf8.decode(this.headerKeyBytes.subarray(this.headerKeyAt[k], this.headerKeyAt[k + 1])));
    }
    this.batchCount = this.batchStart.length;
    this.recordCount = this.offset.length;
  }

  /** Decode `input` (Uint8Array) with a loaded package's decodeColumns: columns copied into JS. */
  static decode(eoslab, input, options) {
    return new RecordColumns(input, eoslab.decodeColumns(input, options));
  }

  /**
   * Decode with the full package's decodeColumnsInPlace: nothing is copied out of the package's
   * memory (a compressed segment's decompressed bytes can be most of it). The columns and the
   * key/value views of compressed batches read that memory: they are valid until `free()`, and
   * `slice()` what you keep beyond it. If a later call into the package grows its memory, the
   * column views are re-made on the next `record()`, iteration or `refresh()`; key/value views
   * taken before that read as empty.
   */
  static decodeInPlace(eoslab, input, options) {
    return new RecordColumns(input, eoslab.decodeColumnsInPlace(input, options));
  }

  #bind(buf) {
    this.#bytes = buf;
    for (const [name, type, offset, length] of this.#layout) {
      this[name] = new TYPES[type](buf.buffer, buf.byteOffset + offset, length);
    }
  }

  /** In-place columns: re-make the views if the package's memory grew (a no-op otherwise). */
  refresh() {
    if (this.#packed !== null && this.#bytes.byteLength === 0) this.#bind(this.#packed.bytes());
    return this;
  }

  /** In-place columns: release the package's memory now (else when garbage-collected). */
  free() {
    if (this.#packed === null) return;
    this.#packed.free();
    this.#packed = null;
    this.#layout = this.#layout.map(([name, type]) => [name, type, 0, 0]);
    this.#bind(new Uint8Array(8));
    this.batchCount = 0;
    this.recordCount = 0;
  }

  /** The bytes batch (entry) `i`'s record positions index. */
  bufferOf(i) {
    this.refresh();
    return this.inDecompressed[i] ? this.decompressed : this.input;
  }

  /** The batch (entry) that record `j` belongs to. */
  batchOf(j) {
    this.refresh();
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
    this.refresh();
    return this.crc[i] === this.crcComputed[i];
  }

  /**
   * Record `j` (a Record: offset and timestamp BigInt, key/value Uint8Array views or null,
   * headers [{key: string, value}]). Pass `buf` (bufferOf(batch)) when walking a batch.
   */
  record(j, buf = this.bufferOf(this.batchOf(j))) {
    const ab = buf.buffer;
    const at = buf.byteOffset;
    const headers = [];
    for (let h = this.firstHeader[j], end = this.firstHeader[j + 1]; h < end; h++) {
      const vl = this.headerValueLength[h];
      headers.push(new Header(
        this.headerKeys[this.headerKey[h]],
        vl < 0 ? null : new Uint8Array(ab, at + this.headerValueStart[h], vl),
      ));
    }
    const kl = this.keyLength[j];
    const vl = this.valueLength[j];
    return new Record(
      this.offset[j],
      this.timestamp[j],
      this.sequence[j],
      kl < 0 ? null : new Uint8Array(ab, at + this.keyStart[j], kl),
      vl < 0 ? null : new Uint8Array(ab, at + this.valueStart[j], vl),
      headers,
    );
  }

  /** Every record, batch by batch. */
  [Symbol.iterator]() {
    return new RecordIterator(this);
  }
}

// A plain iterator object rather than a generator: ~10% of a whole-segment walk in V8.
class RecordIterator {
  constructor(cols) {
    this.cols = cols;
    this.batch = -1;
    this.j = 0;
    this.end = 0;
    this.buf = null;
  }

  next() {
    const c = this.cols;
    while (this.j >= this.end) {
      if (++this.batch >= c.batchCount) return { value: undefined, done: true };
      this.buf = c.bufferOf(this.batch);
      this.j = c.firstRecord[this.batch];
      this.end = c.firstRecord[this.batch + 1];
    }
    return { value: c.record(this.j++, this.buf), done: false };
  }

  [Symbol.iterator]() {
    return this;
  }
}
