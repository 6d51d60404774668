// The wasm `decodeMessages` (pkg/eoslab-files.js only) over the golden envelopes Kafka 4.3.1's
// own serializers wrote (tests/fixtures/envelopes-4.3.1, `make envelope-fixtures`). The
// field-by-field comparison with Kafka's read-back is crate/core/tests/envelopes.rs; here: the JS
// contract, the stream pairing, the consumer view, options and the decode-only split.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, readdirSync } from "node:fs";
import { load } from "./load-pkg.mjs";

const hex = (name) => readFileSync(new URL(`../fixtures/envelopes-4.3.1/${name}.hex`, import.meta.url), "utf8").trim();
const full = await load("eoslab-files");
const models = await load("eoslab");
const decodeOnly = await load("eoslab-decode");

test("a Fetch request and its response: tree, pairing and the aborted batch", () => {
  const r = full.decodeMessages(hex("fetch-v12-request") + "\n" + hex("fetch-v12-response"));
  assert.deepEqual(r.errors, []);
  assert.equal(r.format, "hex");
  assert.equal(r.messages.length, 2);
  const [req, resp] = r.messages;
  assert.equal(req.apiName, "Fetch");
  assert.equal(req.clientId, "consumer-1");
  assert.equal(resp.apiFrom, "request");
  assert.equal(resp.requestIndex, 0);
  const part = resp.body.children.find((c) => c.name === "responses").children[0].children.find((c) => c.name === "partitions").children[0];
  const hw = part.children.find((c) => c.name === "highWatermark");
  assert.deepEqual([hw.type, hw.value], ["int64", "5"]);
  const rec = resp.records[part.children.find((c) => c.name === "records").records];
  assert.equal(rec.report.batches.length, 4);
  assert.deepEqual(rec.consumer.batches.map((b) => b.verdict), ["delivered", "control", "aborted", "control"]);
  assert.equal(rec.consumer.isolationLevel, "READ_COMMITTED");
  assert.equal(JSON.parse(JSON.stringify(r)).messages.length, 2);
});

test("a lone response takes its api from the options, by name or number", () => {
  const resp = hex("end-txn-v5-response");
  const alone = full.decodeMessages(resp);
  assert.ok(alone.errors.some((e) => e.message.includes("request's api key and version")));
  for (const apiKey of ["EndTxn", 26]) {
    const r = full.decodeMessages(resp, { apiKey, apiVersion: 5 });
    assert.deepEqual(r.errors, []);
    assert.equal(r.messages[0].apiFrom, "options");
    assert.equal(r.messages[0].body.children.find((c) => c.name === "producerEpoch").value, "3");
  }
  assert.throws(() => full.decodeMessages(resp, { framing: "nope" }), /framing must be/);
  assert.throws(() => full.decodeMessages(resp, { apiKey: "Nope", apiVersion: 1 }), /unknown api/);
});

test("a cut message keeps what was read and pins Kafka's error on its byte", () => {
  const h = hex("produce-v11-request");
  const r = full.decodeMessages(h.slice(0, h.length - 100));
  // A records field longer than what is left: Kafka's reader slices the buffer past its end
  // (ByteBuffer.limit), IllegalArgumentException "newLimit > capacity".
  const e = r.errors.find((x) => x.kind === "IllegalArgumentException");
  assert.equal(e.field, "topicData[0].partitionData[0].records");
  assert.match(e.message, /^newLimit > capacity: \(\d+ > \d+\)$/);
  assert.equal(r.messages[0].body.children.find((c) => c.name === "transactionalId").value, "tx-1");
});

test("decodeMessages is only in the broker-artifacts package (pkg/eoslab-files.js)", () => {
  assert.equal(typeof full.decodeMessages, "function");
  assert.equal(decodeOnly.decodeMessages, undefined);
  assert.equal(models.decodeMessages, undefined);
});

test("real client traffic (tests/fixtures/capture-4.3.1): every connection decodes; Metadata is named and skipped", () => {
  const dir = new URL("../fixtures/capture-4.3.1/", import.meta.url);
  const conns = readdirSync(dir).filter((f) => f.endsWith(".c2b.bin")).map((f) => f.slice(0, -".c2b.bin".length));
  assert.ok(conns.length >= 3);
  const decoded = new Set();
  const skipped = new Set();
  for (const c of conns) {
    const bytes = Buffer.concat([readFileSync(new URL(`${c}.c2b.bin`, dir)), readFileSync(new URL(`${c}.b2c.bin`, dir))]);
    const r = full.decodeMessages(bytes.toString("hex"));
    assert.deepEqual(r.errors.filter((e) => e.severity === "error"), [], c);
    const frames = JSON.parse(readFileSync(new URL(`${c}.json`, dir), "utf8"));
    assert.equal(r.messages.length, frames.length, c);
    r.messages.forEach((m, i) => {
      assert.deepEqual([m.kind, m.apiName, m.apiVersion, m.correlationId], [frames[i].kind, frames[i].api, frames[i].version, frames[i].correlationId], `${c} #${i}`);
      if (m.body) decoded.add(m.apiName);
      else {
        const w = r.errors.filter((e) => e.index === i);
        assert.deepEqual(w.map((e) => [e.kind, e.severity]), [["UnsupportedApi", "warning"]], `${c} #${i}`);
        skipped.add(m.apiName);
      }
    });
  }
  for (const api of ["Produce", "Fetch", "InitProducerId", "AddPartitionsToTxn", "EndTxn", "WriteTxnMarkers"]) assert.ok(decoded.has(api), api);
  assert.deepEqual([...skipped], ["Metadata"]);
});
