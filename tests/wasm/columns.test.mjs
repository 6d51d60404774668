// decodeColumns and decodeColumnsInPlace (pkg/eoslab.js) read through www/lib/record-columns.js
// give what decode gives:
// the same batches and header fields, every record's offset, timestamp, sequence, key, value and
// headers, and the same first problem (offset, Kafka's name, message) for broken input; what
// decoded before a fault is kept. In-place columns live in the package's memory: they survive its
// growth (re-made views) and end with free(). The decode-only package carries neither (size budget).
// Run: node --test tests/wasm/
import { test } from "node:test";
import assert from "node:assert/strict";
import { RecordColumns } from "../../www/lib/record-columns.js";
import { load } from "./load-pkg.mjs";

const full = await load("eoslab");
const lite = await load("eoslab-decode");

const hex = (u8) => (u8 === null ? null : Array.from(u8, (b) => b.toString(16).padStart(2, "0")).join(""));
const spec = (compression, n, extra = {}) => ({
  header: { attributes: { compression }, producerId: "9", producerEpoch: 2, baseSequence: 2147483646, baseOffset: "40", baseTimestamp: "1700000000000", ...extra },
  records: Array.from({ length: n }, (_, i) => ({
    offsetDelta: i,
    timestampDelta: String(i * 7),
    key: i % 3 === 0 ? null : i.toString(16).padStart(2, "0"),
    value: "ab".repeat(i * 5),
    headers: [{ key: "trace", value: "0102" }, { key: "empty", value: null }, { key: "ü", value: "" }],
  })),
});

function sameAsDecode(bytes, open = "decode") {
  const want = full.decode(bytes, { spans: false });
  const cols = RecordColumns[open](full, bytes);
  assert.equal(cols.batchCount, want.batches.length);
  for (const [i, b] of want.batches.entries()) {
    const h = b.header;
    assert.deepEqual(
      [cols.batchStart[i], cols.batchEnd[i], cols.magic[i], String(cols.baseOffset[i]), cols.crc[i], cols.crcValid(i), String(cols.producerId[i]), cols.recordsCount[i]],
      [b.start, b.end, b.magic, h.baseOffset, h.crc, h.crcValid, h.producerId, h.recordsCount],
    );
    const buf = cols.bufferOf(i);
    const got = [];
    for (let j = cols.firstRecord[i]; j < cols.firstRecord[i + 1]; j++) {
      assert.equal(cols.batchOf(j), i);
      const r = cols.record(j, buf);
      got.push({ offset: String(r.offset), timestamp: String(r.timestamp), sequence: r.sequence, key: hex(r.key), value: hex(r.value), headers: r.headers.map((x) => ({ key: x.key, value: hex(x.value) })) });
    }
    assert.deepEqual(got, b.records.map((r) => ({ offset: r.offset, timestamp: r.timestamp, sequence: r.sequence, key: r.key, value: r.value, headers: r.headers })));
  }
  return { cols, want };
}

const mixed = (codec) => {
  const legacy = { ...spec(codec === "zstd" ? "gzip" : codec, 3), magic: 1 };
  const marker = { header: { producerId: "9", producerEpoch: 2, attributes: { transactional: true } }, control: { type: "COMMIT", coordinatorEpoch: 5 } };
  return new Uint8Array([...full.encodeSegment([spec(codec, 5), spec(codec, 0), spec(codec, 30), marker]), ...full.encodeBatch(legacy)]);
};

for (const open of ["decode", "decodeInPlace"]) {
  test(`${open}: every codec, legacy messages and control batches read as decode reads them`, () => {
    for (const codec of ["none", "gzip", "snappy", "lz4", "zstd"]) {
      const { cols } = sameAsDecode(mixed(codec), open);
      assert.deepEqual(cols.errors, []);
      assert.equal(cols.recordCount, 5 + 30 + 1 + 3);
      assert.equal([...cols].length, cols.recordCount);
      // Header keys: each distinct name decoded once (UTF-8), shared by every header using it.
      assert.deepEqual(cols.headerKeys, ["trace", "empty", "ü"]);
      cols.free();
    }
  });
}

test("in-place columns: re-made after the package's memory grows, emptied by free()", () => {
  const bytes = full.encodeSegment([spec("lz4", 20), spec("none", 5)]);
  const cols = RecordColumns.decodeInPlace(full, bytes);
  const want = [...cols].map((r) => [r.offset, hex(r.key), hex(r.value), r.headers.map((h) => h.key)]);
  const value = cols.record(3).value; // from the lz4 batch: a view onto the package's memory
  assert.equal(value.length, 15);
  // Any call may grow the memory; an input as large as the memory itself must.
  const memoryBytes = cols.decompressed.buffer.byteLength;
  full.crc32c(new Uint8Array(memoryBytes + (1 << 20)));
  assert.equal(cols.offset.length, 0, "the old views are detached by the growth");
  assert.equal(value.length, 0, "so is a value taken before it: slice() what you keep");
  assert.deepEqual([...cols].map((r) => [r.offset, hex(r.key), hex(r.value), r.headers.map((h) => h.key)]), want);
  assert.equal(cols.refresh().offset.length, 25);
  cols.free();
  assert.equal(cols.recordCount, 0);
  assert.deepEqual([...cols], []);
  cols.free(); // twice is harmless
  // Copied columns need no free(): it is a no-op and they stay readable.
  const copied = RecordColumns.decode(full, bytes);
  copied.free();
  assert.equal([...copied].length, 25);
});

test("a corrupt record: the same error as decode, and the batches and records before it", () => {
  const good = full.encodeSegment([spec("none", 4), spec("lz4", 4)]);
  const cases = [];
  for (const at of [good.length - 2, 70, 75]) {
    const b = good.slice();
    b[at] ^= 0x55;
    cases.push(b);
  }
  cases.push(good.slice(0, good.length - 5)); // trailing partial batch
  const truncatedRecord = full.encodeBatch(spec("none", 4));
  truncatedRecord[60] = 9; // recordsCount 9 > 4: premature EOF
  cases.push(truncatedRecord);
  let compared = 0;
  for (const bytes of cases) {
    const want = full.decode(bytes, { spans: false });
    const cols = RecordColumns.decode(full, bytes);
    const inPlace = full.decodeColumnsInPlace(bytes);
    assert.deepEqual(inPlace.errors, cols.errors);
    inPlace.free();
    const firstWant = want.errors.find((e) => e.severity === "error" && !e.message.startsWith("Record is corrupt (stored crc") || e.kind === "PartialBatch");
    if (!firstWant) continue;
    const e = cols.errors[0];
    assert.ok(e, `decode reports ${firstWant.kind}; decodeColumns nothing`);
    assert.deepEqual([e.at, e.kind, e.message, e.decompressedAt ?? null], [firstWant.at, firstWant.kind, firstWant.message, firstWant.decompressedAt ?? null]);
    compared++;
    // Records before the fault are there, as decode lists them.
    const listed = want.batches.reduce((n, b) => n + b.records.length, 0);
    assert.equal(cols.recordCount, listed);
  }
  assert.ok(compared >= 3, `only ${compared} corruptions compared`);
});

test("options are checked, and the decode-only package does without decodeColumns", () => {
  assert.throws(() => full.decodeColumns(new Uint8Array(0), { maxDecompressed: -1 }), /maxDecompressed/);
  const tiny = full.decodeColumns(full.encodeBatch(spec("gzip", 40)), { maxDecompressed: 100 });
  assert.equal(tiny.errors[0].kind, "DecompressionLimitExceeded");
  assert.equal(typeof lite.decodeColumns, "undefined");
  assert.equal(typeof lite.decodeColumnsInPlace, "undefined");
  assert.throws(() => full.decodeColumnsInPlace(new Uint8Array(0), { maxDecompressed: 1.5 }), /maxDecompressed/);
});
