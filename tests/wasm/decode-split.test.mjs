// Node tests of the two packages `make pkg` builds (scripts/build-pkg.sh): the decode-only one
// (pkg/eoslab-decode.js, crate/wasm built with --no-default-features, which the Batch Inspector,
// the embeds and the decode worker load) must decode exactly as the full one (pkg/eoslab.js) on
// the golden vectors of crate/core/tests/golden.rs, must carry neither the
// models nor the encoders (www/ imports pkg/eoslab.js when it has to encode), and must stay within
// its size budget: 150 KB gzip -9, measured as build-pkg.sh prints it.
// Run: node --test tests/wasm/
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { spawnSync } from "node:child_process";
import { gzipSync } from "node:zlib";
import { fileURLToPath } from "node:url";
import { load, pkgDir } from "./load-pkg.mjs";

const full = await load("eoslab");
const lite = await load("eoslab-decode");

const MODEL_EXPORTS = ["runScenario", "runScenarioSummary", "runTxnScenario", "parseScenario", "resolveProducerConfig"];
const ENCODE_EXPORTS = ["encodeBatch", "encodeSegment"];
const DECODE_EXPORTS = ["decode", "frames", "crc32c", "version"];
/** The decode-only wasm's budget, gzip -9 (README "Performance": wasm ≤ 150 KB gzipped). */
const DECODE_GZIP_BUDGET = 150_000;

const bytes = (hex) => Uint8Array.from(hex.trim().split(/\s+/), (b) => parseInt(b, 16));

// Examples A (idempotent), B (transactional, header, null value), C (COMMIT marker).
const EXAMPLE_A =
  "00 00 00 00 00 00 00 00 00 00 00 3a ff ff ff ff 02 8c 4a 54 5e 00 00 00 00 00 00 00 00 01 8b cf " +
  "e5 68 00 00 00 01 8b cf e5 68 00 00 00 00 00 00 00 10 92 00 01 00 00 00 07 00 00 00 01 10 00 00 " +
  "00 02 6b 02 76 00";
const EXAMPLE_B =
  "00 00 00 00 00 00 00 00 00 00 00 48 ff ff ff ff 02 95 13 a2 2f 00 10 00 00 00 01 00 00 01 8b cf e5 68 00 00 00 01 8b cf e5 68 fa " +
  "00 00 00 00 00 00 10 92 00 01 00 00 00 08 00 00 00 02 18 00 00 00 02 6b 02 76 02 02 68 02 78 12 00 f4 03 02 04 6b 32 01 00";
const EXAMPLE_C =
  "00 00 00 00 00 00 00 0a 00 00 00 42 00 00 00 03 02 ab 14 49 b2 00 30 00 00 00 00 00 00 01 8b cf e5 69 f4 00 00 01 8b cf e5 69 f4 " +
  "00 00 00 00 00 00 10 92 00 01 ff ff ff ff 00 00 00 01 20 00 00 00 08 00 00 00 01 0c 00 00 00 00 00 07 00";
// Example A's record compressed: [codec, attributes, batchLength, crc, records section].
const COMPRESSED = [
  ["gzip", 1, 78, 0x2361a286, "1f 8b 08 00 00 00 00 00 02 03 13 60 60 60 60 ca 66 2a 63 00 00 a3 7f cf a6 09 00 00 00"],
  ["snappy", 2, 80, 0xa99d0876, "82 53 4e 41 50 50 59 00 00 00 00 01 00 00 00 01 00 00 00 0b 09 20 10 00 00 00 02 6b 02 76 00"],
  ["snappy", 2, 60, 0xb763b651, "09 20 10 00 00 00 02 6b 02 76 00"],
  ["lz4", 3, 73, 0x13f8c442, "04 22 4d 18 60 40 82 09 00 00 80 10 00 00 00 02 6b 02 76 00 00 00 00 00"],
  ["zstd", 4, 67, 0x133b14cb, "28 b5 2f fd 00 00 49 00 00 10 00 00 00 02 6b 02 76 00"],
];
// Legacy messages, magic 0 and 1.
const LEGACY_V0 = "00 00 00 00 00 00 00 00 00 00 00 10 1f ec d7 0a 00 00 00 00 00 01 6b 00 00 00 01 76";
const LEGACY_V1 =
  "00 00 00 00 00 00 00 00 00 00 00 18 39 26 8c 33 01 00 00 00 01 8b cf e5 68 00 00 00 00 01 6b 00 00 00 01 76";

function compressed([, attr, len, crc, section]) {
  const b = [...bytes(EXAMPLE_A).subarray(0, 61), ...bytes(section)];
  const v = new DataView(Uint8Array.from(b).buffer);
  v.setInt32(8, len);
  v.setUint32(17, crc);
  v.setUint16(21, attr);
  return new Uint8Array(v.buffer);
}

const VECTORS = [
  ["Example A", bytes(EXAMPLE_A)],
  ["Example B", bytes(EXAMPLE_B)],
  ["Example C", bytes(EXAMPLE_C)],
  ...COMPRESSED.map((c, i) => [`Example A ${c[0]} #${i}`, compressed(c)]),
  ["legacy v0", bytes(LEGACY_V0)],
  ["legacy v1", bytes(LEGACY_V1)],
  ["A, B and C as one segment", Uint8Array.from([...bytes(EXAMPLE_A), ...bytes(EXAMPLE_B), ...bytes(EXAMPLE_C)])],
  ["Example A with a flipped byte (bad CRC)", bytes(EXAMPLE_A).map((b, i) => (i === 30 ? b ^ 1 : b))],
  ["Example B cut short", bytes(EXAMPLE_B).subarray(0, 70)],
  ["Example A as hex text", EXAMPLE_A],
  ["Example C as base64 text", Buffer.from(bytes(EXAMPLE_C)).toString("base64")],
];
const OPTIONS = [
  undefined,
  { spans: false },
  { records: false },
  { includeDecompressed: true },
  { formatter: "transaction-log" },
  { formatter: "offsets" },
  { maxDecompressed: 4 },
];

test("the decode-only package exports the decoder and none of the encoders or models; the full one exports all", () => {
  for (const name of DECODE_EXPORTS) {
    assert.equal(typeof lite[name], "function", `eoslab-decode.js exports ${name}`);
    assert.equal(typeof full[name], "function", `eoslab.js exports ${name}`);
  }
  for (const name of [...ENCODE_EXPORTS, ...MODEL_EXPORTS]) {
    assert.equal(lite[name], undefined, `eoslab-decode.js must not export ${name}`);
    assert.equal(typeof full[name], "function", `eoslab.js exports ${name}`);
  }
  // Everything the decode-only package exports, the full one exports too (one API, two sizes).
  for (const name of Object.keys(lite)) assert.ok(name in full, `${name} is in eoslab.js too`);
});

test("the decode-only wasm is the smaller one (the split is real)", () => {
  const size = (name) => readFileSync(fileURLToPath(new URL(`${name}_bg.wasm`, pkgDir))).length;
  assert.ok(size("eoslab-decode") < size("eoslab") * 0.5, `${size("eoslab-decode")} vs ${size("eoslab")} bytes`);
});

/** gzip -9 size of a file as scripts/build-pkg.sh measures it (`gzip -9c FILE | wc -c`); node's
 *  zlib (about 0.5% larger, so stricter) where no gzip binary is installed. */
function gzipSize(path) {
  const r = spawnSync("gzip", ["-9c", path], { maxBuffer: 64 << 20 });
  if (r.status === 0) return r.stdout.length;
  return gzipSync(readFileSync(path), { level: 9 }).length;
}

test("the decode-only wasm is at most 150 KB gzip -9 (the stripped pkg/ file, as build-pkg.sh measures it)", () => {
  const path = fileURLToPath(new URL("eoslab-decode_bg.wasm", pkgDir));
  const gz = gzipSize(path);
  assert.ok(gz <= DECODE_GZIP_BUDGET, `pkg/eoslab-decode_bg.wasm is ${gz} bytes gzip -9, budget ${DECODE_GZIP_BUDGET}`);
  // build-pkg.sh binds with --remove-name-section --remove-producers-section: no "name" custom section.
  const wasm = readFileSync(path);
  const sections = customSections(wasm);
  assert.ok(!sections.includes("name") && !sections.includes("producers"), `custom sections: ${sections.join(", ")}`);
});

/** Names of a wasm module's custom sections (id 0). */
function customSections(bytes) {
  const names = [];
  let at = 8;
  const leb = () => {
    let v = 0;
    for (let shift = 0; ; shift += 7) {
      const b = bytes[at++];
      v += (b & 0x7f) * 2 ** shift;
      if (b < 0x80) return v;
    }
  };
  while (at < bytes.length) {
    const id = bytes[at++];
    const size = leb();
    const end = at + size;
    if (id === 0) {
      const n = leb();
      names.push(new TextDecoder().decode(bytes.subarray(at, at + n)));
    }
    at = end;
  }
  return names;
}

test("frames: the entry boundaries decode walks, a trailing partial entry last, nothing for bytes that frame no entry", () => {
  const seg = Uint8Array.from([...bytes(EXAMPLE_A), ...bytes(EXAMPLE_B), ...bytes(EXAMPLE_C), ...bytes(LEGACY_V1)]);
  const bounds = (input) => {
    const f = lite.frames(input);
    assert.ok(f.starts instanceof Float64Array && f.ends instanceof Float64Array);
    assert.equal(f.starts.length, f.count);
    return { pairs: [...f.starts].map((s, i) => [s, f.ends[i]]), truncatedLast: f.truncatedLast };
  };
  const batches = lite.decode(seg, { records: false, spans: false }).batches.map((b) => [b.start, b.end]);
  assert.equal(batches.length, 4);
  assert.deepEqual(bounds(seg), { pairs: batches, truncatedLast: false });
  // cut inside the last entry: it is the last frame, ending at the input's end
  const cut = seg.subarray(0, seg.length - 3);
  assert.deepEqual(bounds(cut), { pairs: [...batches.slice(0, 3), [batches[3][0], cut.length]], truncatedLast: true });
  // trailing bytes that frame no entry (fewer than 12; a size below 14) end the list
  assert.deepEqual(bounds(Uint8Array.from([...seg, 0, 0, 0])), { pairs: batches, truncatedLast: false });
  const small = Uint8Array.from([...seg, ...new Array(8).fill(0), 0, 0, 0, 13, 0, 0, 0, 0, 2]);
  assert.deepEqual(bounds(small), { pairs: batches, truncatedLast: false });
  assert.deepEqual(bounds(new Uint8Array(0)), { pairs: [], truncatedLast: false });
  assert.deepEqual(full.frames(seg), lite.frames(seg));
});

test("both packages have the same version", () => {
  assert.equal(lite.version(), full.version());
});

test("decode: the decode-only package returns exactly what the full one does on the golden vectors", () => {
  for (const [label, input] of VECTORS) {
    for (const options of OPTIONS) {
      const a = full.decode(input, options);
      const b = lite.decode(input, options);
      assert.deepEqual(b, a, `${label}, options ${JSON.stringify(options)}`);
    }
  }
  // The vectors really are what golden.rs says: A, B, C and every codec decode without errors.
  for (const [label, input] of VECTORS.slice(0, 10)) {
    assert.deepEqual(lite.decode(input).errors, [], label);
  }
});

test("crc32c: the same checksum from both packages; the full package re-encodes what the decode-only one decodes", () => {
  for (const [label, input] of VECTORS.slice(0, 10)) {
    const specs = lite.decode(input).batches;
    assert.deepEqual(specs, full.decode(input).batches, label);
    const raw = typeof input === "string" ? full.encodeSegment(specs) : input;
    assert.equal(lite.crc32c(raw), full.crc32c(raw), label);
    // A v2 batch's CRC is CRC-32C over attributes..end (bytes 21..): what Fix CRC writes at 17..21.
    for (const b of specs) {
      if (b.legacy) continue;
      assert.equal(lite.crc32c(raw.subarray(b.start + 21, b.end)), b.header.crcComputed, `${label} crc32c`);
    }
  }
  // Re-encoding a golden vector decoded by the decode-only package reproduces it byte for byte.
  for (const hex of [EXAMPLE_A, EXAMPLE_B, EXAMPLE_C]) {
    const b = bytes(hex);
    assert.deepEqual(full.encodeBatch(lite.decode(b).batches[0]), b);
  }
  assert.equal(lite.encodeBatch, undefined);
  assert.throws(() => full.encodeBatch({ records: [{ key: "zz" }] }), /hex/);
});
