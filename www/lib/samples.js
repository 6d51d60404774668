// The lab page's built-in samples (www/main.js), as constants: the page decodes them with the
// decode-only package, which has no encoder. No DOM here, so tests/wasm/samples.test.mjs imports
// this module in node and checks that every constant is exactly what the full package's
// encodeBatch produces for the spec next to it (re-run that test after a codec change).

// Kafka's record-batch reference, Example A: one idempotent batch, producerId 4242, epoch 1,
// baseSequence 7, one record with key "k" and value "v".
export const SAMPLE_HEX = [
  "00 00 00 00 00 00 00 00 00 00 00 3a ff ff ff ff",
  "02 8c 4a 54 5e 00 00 00 00 00 00 00 00 01 8b cf",
  "e5 68 00 00 00 01 8b cf e5 68 00 00 00 00 00 00",
  "00 10 92 00 01 00 00 00 07 00 00 00 01 10 00 00",
  "00 02 6b 02 76 00",
].join("\n");

/** The zstd sample's spec: three JSON records of one idempotent producer, the first with a header. */
export const ZSTD_SPEC = {
  header: { attributes: { compression: "zstd" }, producerId: 4242, producerEpoch: 1, baseSequence: 10, baseTimestamp: 1700000000000 },
  records: [
    { keyText: "order-1", valueText: "{\"item\":\"book\",\"qty\":1}", headers: [{ key: "trace", valueText: "abc" }] },
    { offsetDelta: 1, timestampDelta: 5, keyText: "order-2", valueText: "{\"item\":\"book\",\"qty\":2}" },
    { offsetDelta: 2, timestampDelta: 9, keyText: "order-3", valueText: "{\"item\":\"book\",\"qty\":3}" },
  ],
};

// encodeBatch(ZSTD_SPEC) from pkg/eoslab.js (eoslab 0.1.0, ruzstd 0.8.1), printed 16 bytes a line.
export const ZSTD_HEX = [
  "00 00 00 00 00 00 00 00 00 00 00 93 ff ff ff ff",
  "02 9e 9a 6b 16 00 04 00 00 00 02 00 00 01 8b cf",
  "e5 68 00 00 00 01 8b cf e5 68 09 00 00 00 00 00",
  "00 10 92 00 01 00 00 00 0a 00 00 00 03 28 b5 2f",
  "fd 00 38 cd 02 00 fc 03 00 5c 00 00 00 0e 6f 72",
  "64 65 72 2d 31 2e 7b 22 69 74 65 6d 22 3a 22 62",
  "6f 6f 6b 22 2c 22 71 74 79 22 3a 31 7d 02 0a 74",
  "72 61 63 65 06 61 62 63 48 00 0a 02 32 32 7d 00",
  "48 00 12 04 33 33 7d 00 04 a8 10 88 71 be ff 19",
  "10 2e 7e 10 26 c6 7f 1f d7 2e 49 c5 c8 10 52",
].join("\n");

// Example B (transactional, 2 records, a header, a null value) and Example C (COMMIT marker), as
// the reference prints them (crate/core/tests/golden.rs; decoded and re-encoded by the test).
export const SAMPLES = {
  transactional:
    "00 00 00 00 00 00 00 00 00 00 00 48 ff ff ff ff 02 95 13 a2 2f 00 10 00 00 00 01 00 00 01 8b cf e5 68 00 00 00 01 8b cf e5 68 fa " +
    "00 00 00 00 00 00 10 92 00 01 00 00 00 08 00 00 00 02 18 00 00 00 02 6b 02 76 02 02 68 02 78 12 00 f4 03 02 04 6b 32 01 00",
  commit:
    "00 00 00 00 00 00 00 0a 00 00 00 42 00 00 00 03 02 ab 14 49 b2 00 30 00 00 00 00 00 00 01 8b cf e5 69 f4 00 00 01 8b cf e5 69 f4 " +
    "00 00 00 00 00 00 10 92 00 01 ff ff ff ff 00 00 00 01 20 00 00 00 08 00 00 00 01 0c 00 00 00 00 00 07 00",
  zstd: ZSTD_HEX,
};

/**
 * Specs of the generated segment sample: `n` batches of five producers, every tenth zstd, every
 * seventh transactional. Too big to ship as bytes: the page encodes it with the full package
 * (lib/wasm.js encoder()), loaded when the button is first pressed.
 */
export function segmentSpecs(n = 10000) {
  const specs = [];
  for (let i = 0; i < n; i++) {
    specs.push({
      header: { baseOffset: i * 2, producerId: 1000 + (i % 5), producerEpoch: 0, baseSequence: Math.floor(i / 5) * 2, baseTimestamp: 1700000000000 + i,
        attributes: { compression: i % 10 === 9 ? "zstd" : "none", transactional: i % 7 === 0 } },
      records: [{ keyText: `k${i}`, valueText: `value ${i}` }, { offsetDelta: 1, valueText: `second ${i}` }],
    });
  }
  return specs;
}
