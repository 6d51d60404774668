// Node tests of the built wasm package (pkg/, from `make pkg`): the JS API contract that the page
// and README rely on. Run: node --test tests/wasm/
import { test } from "node:test";
import assert from "node:assert/strict";
import { load } from "./load-pkg.mjs";

const eoslab = await load("eoslab");
const { decode, encodeBatch, encodeSegment, version } = eoslab;

// Kafka's record-batch reference, Example A: an idempotent batch, producerId 4242, epoch 1,
// baseSequence 7, one record key "k" value "v".
const EXAMPLE_A_HEX =
  "00 00 00 00 00 00 00 00 00 00 00 3a ff ff ff ff 02 8c 4a 54 5e 00 00 00 00 00 00 00 00 01 8b cf " +
  "e5 68 00 00 00 01 8b cf e5 68 00 00 00 00 00 00 00 10 92 00 01 00 00 00 07 00 00 00 01 10 00 00 " +
  "00 02 6b 02 76 00";
const EXAMPLE_A = Uint8Array.from(EXAMPLE_A_HEX.split(" "), (b) => parseInt(b, 16));

/** `xxd` output of the same bytes. */
function xxd(bytes) {
  const lines = [];
  for (let off = 0; off < bytes.length; off += 16) {
    const chunk = [...bytes.subarray(off, off + 16)];
    const hex = [];
    for (let i = 0; i < chunk.length; i += 2) {
      hex.push(chunk.slice(i, i + 2).map((b) => b.toString(16).padStart(2, "0")).join(""));
    }
    const ascii = chunk.map((b) => (b >= 0x20 && b < 0x7f ? String.fromCharCode(b) : ".")).join("");
    lines.push(`${off.toString(16).padStart(8, "0")}: ${hex.join(" ").padEnd(39)}  ${ascii}`);
  }
  return lines.join("\n") + "\n";
}

/** encodeBatch takes the shape decode returns (derived fields such as crc are ignored). */
function specFromBatch(batch) {
  return structuredClone(batch);
}

function assertExampleA(result) {
  assert.equal(result.length, 70);
  assert.deepEqual(result.errors, [], "Example A decodes without issues");
  assert.equal(result.batches.length, 1);
  const [batch] = result.batches;
  assert.equal(batch.start, 0);
  assert.equal(batch.end, 70);
  assert.equal(batch.magic, 2);
  assert.equal(batch.legacy, false);
  assert.equal(batch.truncated, false);
  const h = batch.header;
  assert.equal(h.baseOffset, "0");
  assert.equal(h.batchLength, 58);
  assert.equal(h.partitionLeaderEpoch, -1);
  assert.equal(h.crc, 0x8c4a545e);
  assert.equal(h.crcComputed, 0x8c4a545e);
  assert.equal(h.crcValid, true);
  assert.equal(h.attributes.compression, "none");
  assert.equal(h.attributes.timestampType, "CreateTime");
  assert.equal(h.attributes.transactional, false);
  assert.equal(h.attributes.control, false);
  assert.equal(h.baseTimestamp, "1700000000000");
  assert.equal(h.producerId, "4242");
  assert.equal(h.producerEpoch, 1);
  assert.equal(h.baseSequence, 7);
  assert.equal(h.recordsCount, 1);
  assert.equal(batch.records.length, 1);
  const [r] = batch.records;
  assert.equal(r.key, "6b");
  assert.equal(r.value, "76");
  assert.deepEqual(r.headers, []);
  assert.equal(r.offset, "0");
  assert.equal(r.sequence, 7);
  assert.equal(batch.control, null);
}

test("version() is the crate version", () => {
  assert.match(version(), /^\d+\.\d+\.\d+/);
});

test("Example A decodes from bytes", () => {
  const result = decode(EXAMPLE_A);
  assert.equal(result.format, "binary");
  assertExampleA(result);
});

test("the result is plain JSON data (objects and arrays, no Map/BigInt)", () => {
  const result = decode(EXAMPLE_A);
  assert.equal(Object.getPrototypeOf(result), Object.prototype);
  assert.equal(Object.getPrototypeOf(result.batches[0].header), Object.prototype);
  assert.deepEqual(JSON.parse(JSON.stringify(result)), result);
  for (const f of result.batches[0].fields) {
    assert.equal(typeof f.name, "string");
    assert.ok(Number.isInteger(f.start) && Number.isInteger(f.end) && f.start <= f.end, JSON.stringify(f));
  }
});

test("Example A decodes from a hex string", () => {
  assertExampleA(decode(EXAMPLE_A_HEX));
});

test("Example A decodes from an xxd dump string", () => {
  const result = decode(xxd(EXAMPLE_A));
  assert.notEqual(result.format, "binary");
  assertExampleA(result);
});

test("a flipped byte at offset 30 fails the CRC with CorruptRecordException at 17", () => {
  const bytes = EXAMPLE_A.slice();
  bytes[30] ^= 0x01;
  const result = decode(bytes);
  const h = result.batches[0].header;
  assert.equal(h.crcValid, false);
  assert.equal(h.crc, 0x8c4a545e);
  assert.notEqual(h.crcComputed, 0x8c4a545e);
  const crcError = result.errors.find((e) => e.kind === "CorruptRecordException");
  assert.ok(crcError, `expected a CorruptRecordException in ${JSON.stringify(result.errors)}`);
  assert.equal(crcError.at, 17);
  assert.equal(crcError.severity, "error");
  assert.equal(crcError.batch, 0);
});

test("decode options: records:false skips records; bad options throw", () => {
  const result = decode(EXAMPLE_A, { records: false });
  assert.equal(result.batches[0].header.producerId, "4242");
  assert.equal(result.batches[0].records.length, 0);
  assert.throws(() => decode(EXAMPLE_A, { maxDecompressed: -1 }), /maxDecompressed/);
  assert.throws(() => decode(EXAMPLE_A, { maxDecompressed: 1.5 }), /maxDecompressed/);
  assert.throws(() => decode(EXAMPLE_A, { records: "no" }), /invalid decode options/);
  assertExampleA(decode(EXAMPLE_A, undefined));
  assertExampleA(decode(EXAMPLE_A, null));
  assertExampleA(decode(EXAMPLE_A, { maxDecompressed: Infinity }));
});

test("decode with summary: the counts a segment overview shows, the same errors, no batches", () => {
  const specs = [];
  for (let i = 0; i < 40; i++) {
    const compression = ["none", "gzip", "zstd"][i % 3];
    const transactional = i % 4 === 0;
    specs.push(i % 10 === 9
      ? { header: { producerId: "5", attributes: { transactional: true } }, control: { type: i % 20 === 9 ? "ABORT" : "COMMIT", coordinatorEpoch: 1 } }
      : { header: { producerId: i % 2 ? "5" : "-1", attributes: { compression, transactional: transactional && i % 2 === 1 } }, records: Array.from({ length: 1 + (i % 4) }, (_, k) => ({ value: "0a".repeat(k) })) });
  }
  const bytes = encodeSegment(specs);
  bytes[bytes.length - 1] ^= 1; // the last batch's CRC no longer matches
  const input = new Uint8Array([...bytes, 0, 0, 0]); // and a truncated tail
  const full = decode(input, { records: false, spans: false });
  const got = decode(input, { records: false, spans: false, summary: true });
  assert.deepEqual(got.batches, []);
  assert.deepEqual(got.errors, full.errors);
  assert.ok(got.errors.some((e) => e.kind === "CorruptRecordException"));
  const codecs = [];
  for (const b of full.batches) {
    const c = codecs.find((x) => x[0] === b.header.attributes.compression);
    if (c) c[1]++;
    else codecs.push([b.header.attributes.compression, 1]);
  }
  const count = (f) => full.batches.filter(f).length;
  assert.deepEqual(got.summary, {
    batches: full.batches.length,
    crcInvalid: count((b) => !b.header.crcValid),
    control: count((b) => b.header.attributes.control),
    transactional: count((b) => b.header.attributes.transactional),
    idempotent: count((b) => b.header.producerId !== "-1"),
    records: full.batches.reduce((n, b) => n + Math.max(0, b.header.recordsCount), 0),
    codecs,
  });
  assert.equal(got.summary.batches, 40);
  assert.equal(got.summary.crcInvalid, 1);
  assert.equal(got.summary.control, 4);
  assert.deepEqual(decode(input, { records: false, spans: false, summary: false }).batches.length, 40);
});

test("decode rejects inputs that are neither bytes nor text", () => {
  assert.throws(() => decode(42), /Uint8Array/);
  assert.throws(() => decode({}), /Uint8Array/);
});

test("decode never throws on garbage and reports issues instead", () => {
  for (const bytes of [new Uint8Array(0), new Uint8Array(5), EXAMPLE_A.subarray(0, 40), new Uint8Array(300).fill(0xff)]) {
    const result = decode(bytes);
    assert.ok(Array.isArray(result.batches) && Array.isArray(result.errors));
    if (bytes.length > 0) assert.ok(result.errors.length > 0, `issues expected for ${bytes.length} bytes`);
  }
});

test("encodeBatch of the decoded shape reproduces Example A byte for byte", () => {
  const spec = specFromBatch(decode(EXAMPLE_A).batches[0]);
  const out = encodeBatch(spec);
  assert.ok(out instanceof Uint8Array);
  assert.deepEqual(Buffer.from(out).toString("hex"), Buffer.from(EXAMPLE_A).toString("hex"));
});

test("encodeSegment concatenates batches", () => {
  const spec = specFromBatch(decode(EXAMPLE_A).batches[0]);
  const out = encodeSegment([spec, spec]);
  assert.equal(out.length, 140);
  const result = decode(out);
  assert.equal(result.batches.length, 2);
  assert.ok(result.batches.every((b) => b.header.crcValid));
});

test("encodeBatch throws a JS Error for an invalid spec", () => {
  assert.throws(() => encodeBatch("not a spec"), (err) => err instanceof Error && err.message.length > 0);
  const spec = specFromBatch(decode(EXAMPLE_A).batches[0]);
  spec.header.producerEpoch = "x";
  assert.throws(() => encodeBatch(spec), /producerEpoch|invalid/);
  assert.throws(() => encodeBatch({ records: [{ key: "zz" }] }), /hex/);
});

// `formatter` option: records read as __transaction_state / __consumer_offsets, printed as
// kafka-console-consumer --formatter prints them (Kafka 4.x TransactionLogMessageFormatterTest).
test("decode with formatter adds the console consumer's text per record", () => {
  // Key: type 0, TransactionalId "TXNID". Value v1: producerId 100, epoch 50, timeout 500,
  // status 4 (CompleteCommit), partitions [], lastUpdate 1000, start 750, no tagged fields.
  const key = "0000" + "0005" + "54584e4944";
  const value = "0001" + "0000000000000064" + "0032" + "000001f4" + "04" + "01" + "00000000000003e8" + "00000000000002ee" + "00";
  const bytes = encodeBatch({ records: [{ key, value }, { key, value: null }, { key: "0001", value }] });
  const plain = decode(bytes);
  assert.ok(plain.batches[0].records.every((r) => !("formatted" in r)), "absent when off");
  assert.deepEqual(decode(bytes, { formatter: null }).errors, []);
  const r = decode(bytes, { formatter: "transaction-log" });
  const recs = r.batches[0].records;
  assert.equal(
    recs[0].formatted,
    '{"key":{"type":0,"data":{"transactionalId":"TXNID"}},"value":{"version":1,"data":{"producerId":100,' +
      '"producerEpoch":50,"transactionTimeoutMs":500,"transactionStatus":4,"transactionPartitions":[],' +
      '"transactionLastUpdateTimestampMs":1000,"transactionStartTimestampMs":750}}}',
  );
  assert.equal(recs[1].formatted, '{"key":{"type":0,"data":{"transactionalId":"TXNID"}},"value":null}');
  assert.equal(recs[2].formatted, "", "record type 1 is not a transaction-log record: nothing printed");
  assert.deepEqual(r.errors, []);

  // Read as __consumer_offsets: key type 0 is a legacy offset commit key, which "TXNID" is not.
  const o = decode(bytes, { formatter: "offsets" });
  assert.ok(!("formatted" in o.batches[0].records[0]), "unreadable: absent, an error says why");
  const keySpan = o.batches[0].fields.find((f) => f.name === "records[0].key");
  const e = o.errors.find((x) => x.kind === "RuntimeException");
  assert.ok(e, JSON.stringify(o.errors));
  assert.ok(e.at >= keySpan.start && e.at <= keySpan.end, `${e.at} in ${keySpan.start}..${keySpan.end}`);
  assert.match(e.message, /^Could not read record at offset 0 due to: Could not read record with version 0 from key's buffer/);

  assert.throws(() => decode(bytes, { formatter: "json" }), /formatter/);
});
