// The wasm `decode` (full and decode-only packages) over a real Kafka 4.3.1 broker's segments
// (tests/fixtures/kafka-4.3.1, `make kafka-fixtures`): no issues, and the batches DumpLogSegments
// listed (`<file>.dump-log.txt`): same count, same position, offsets, producer, codec, CRC and
// record count per batch. The field-by-field comparison is crate/core/tests/kafka_fixtures.rs.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { join } from "node:path";
import { load } from "./load-pkg.mjs";

const root = fileURLToPath(new URL("../fixtures/kafka-4.3.1/", import.meta.url));
const logs = readdirSync(root)
  .filter((d) => statSync(join(root, d)).isDirectory())
  .sort()
  .flatMap((d) => readdirSync(join(root, d)).filter((f) => f.endsWith(".log")).sort().map((f) => join(d, f)));

const formatterOf = (path) =>
  path.startsWith("__transaction_state-") ? "transaction-log" : path.startsWith("__consumer_offsets-") ? "offsets" : null;

/** The batch lines of a dump, each as {name: value}, with the number of record lines under it. */
function dumpBatches(path) {
  const batches = [];
  for (const line of readFileSync(join(root, path + ".dump-log.txt"), "utf8").split("\n")) {
    if (line.startsWith("baseOffset: ")) {
      const toks = line.split(" ");
      const f = {};
      for (let i = 0; i < toks.length; i += 2) f[toks[i].replace(/:$/, "")] = toks[i + 1];
      batches.push({ f, records: 0, line });
    } else if (line.startsWith("| ")) {
      batches.at(-1).records++;
    }
  }
  return batches;
}

test("the fixture segments are there", () => {
  assert.ok(logs.length >= 5, JSON.stringify(logs));
});

for (const name of ["eoslab", "eoslab-decode"]) {
  const { decode } = await load(name);
  for (const path of logs) {
    test(`${name} decode ${path}: no issues, the batches DumpLogSegments lists`, () => {
      const bytes = readFileSync(join(root, path));
      const r = decode(bytes, { formatter: formatterOf(path) });
      assert.deepEqual(r.errors, []);
      assert.equal(r.length, bytes.length);
      const kafka = dumpBatches(path);
      assert.equal(r.batches.length, kafka.length, "batch count");
      r.batches.forEach((b, i) => {
        const k = kafka[i].f;
        const h = b.header;
        const ours = {
          baseOffset: h.baseOffset,
          lastOffset: h.lastOffset,
          count: String(h.recordsCount),
          producerId: h.producerId,
          producerEpoch: String(h.producerEpoch),
          isTransactional: String(h.attributes.transactional),
          isControl: String(h.attributes.control),
          position: String(b.start),
          size: String(b.end - b.start),
          compresscodec: h.attributes.compression,
          crc: String(h.crc),
          isvalid: String(h.crcValid),
        };
        const theirs = Object.fromEntries(Object.keys(ours).map((n) => [n, k[n]]));
        assert.deepEqual(ours, theirs, `batch ${i}: ${kafka[i].line}`);
        assert.equal(b.records.length, kafka[i].records, `batch ${i} records`);
        if (formatterOf(path) && !h.attributes.control) {
          assert.ok(b.records.every((rec) => typeof rec.formatted === "string" && rec.formatted.length > 0));
        }
      });
      const s = decode(bytes, { records: false, spans: false, summary: true });
      assert.equal(s.summary.batches, kafka.length, "summary batch count");
      assert.deepEqual(s.errors, []);
    });
  }
}
