// The lab page's built-in samples (www/lib/samples.js) are constants, because the page decodes them
// with the decode-only package, which has no encoder: each must be exactly what the full package's
// encodeBatch produces for its spec, and decode cleanly in the decode-only package. The generated
// segment's specs (encoded on demand by the page) encode and decode too.
// Run: node --test tests/wasm/
import { test } from "node:test";
import assert from "node:assert/strict";
import { SAMPLE_HEX, SAMPLES, ZSTD_SPEC, ZSTD_HEX, segmentSpecs } from "../../www/lib/samples.js";
import { load } from "./load-pkg.mjs";

const full = await load("eoslab");
const lite = await load("eoslab-decode");

const bytes = (hex) => Uint8Array.from(hex.trim().split(/\s+/), (b) => parseInt(b, 16));

test("the zstd sample is encodeBatch(ZSTD_SPEC), byte for byte", () => {
  assert.deepEqual(bytes(ZSTD_HEX), full.encodeBatch(ZSTD_SPEC));
  assert.equal(SAMPLES.zstd, ZSTD_HEX);
  const r = lite.decode(ZSTD_HEX);
  assert.deepEqual(r.errors, []);
  const [b] = r.batches;
  assert.equal(b.header.attributes.compression, "zstd");
  assert.equal(b.header.crcValid, true);
  assert.deepEqual(b.records.map((x) => Buffer.from(x.key, "hex").toString()), ["order-1", "order-2", "order-3"]);
});

test("Examples A, B and C decode cleanly and re-encode to themselves", () => {
  for (const hex of [SAMPLE_HEX, SAMPLES.transactional, SAMPLES.commit]) {
    const r = lite.decode(hex);
    assert.deepEqual(r.errors, []);
    assert.equal(r.batches.length, 1);
    assert.deepEqual(full.encodeBatch(r.batches[0]), bytes(hex));
  }
});

test("the generated segment's specs encode to batches the decode-only package reads without errors", () => {
  const specs = segmentSpecs(100);
  const seg = full.encodeSegment(specs);
  const r = lite.decode(seg, { records: false, spans: false });
  assert.deepEqual(r.errors, []);
  assert.equal(r.batches.length, 100);
  assert.equal(r.batches[9].header.attributes.compression, "zstd");
  assert.equal(r.batches[7].header.attributes.transactional, true);
  assert.equal(segmentSpecs().length, 10000);
});
