// Node tests of sendToLeader ("Send to a leader"): a pasted batch sent as a Produce to a
// leader whose producer state is given, answered as the transactions language's request replies.
// Run: node --test tests/wasm/
import { test } from "node:test";
import assert from "node:assert/strict";
import { load } from "./load-pkg.mjs";
import { SAMPLE_HEX } from "../../www/lib/samples.js";

const { sendToLeader } = await load("eoslab");
// Kafka's Example A: producer 4242, epoch 1, sequence 7, one record.
const A = Uint8Array.from(SAMPLE_HEX.split(/\s+/), (b) => parseInt(b, 16));
const entry = (firstSequence, lastSequence, extra = {}) => ({ producer: { producerId: 4242, epoch: 1, firstSequence, lastSequence, ...extra } });

test("empty state: appended at any sequence (A6), with the reply's camelCase fields", () => {
  const r = sendToLeader(A);
  assert.deepEqual([r.api, r.outcome, r.error, r.errorCode, r.rule, r.offsets], ["Produce", "appended", "NONE", 0, "A6", [0, 0]]);
  assert.match(r.source, /ProducerAppendInfo|UnifiedLog/);
  assert.ok(r.why.length > 20);
  assert.equal(sendToLeader(A, null).outcome, "appended");
});

test("the batch's own sequence range is a duplicate with the original offsets (A1); a gap is 45 (A7)", () => {
  const dup = sendToLeader(A, entry(7, 7, { baseOffset: 12 }));
  assert.deepEqual([dup.outcome, dup.rule, dup.offsets, dup.errorCode], ["duplicate", "A1", [12, 12], 0]);
  const gap = sendToLeader(A, entry(3, 5));
  assert.deepEqual([gap.outcome, gap.error, gap.errorCode, gap.rule], ["rejected", "OUT_OF_ORDER_SEQUENCE_NUMBER", 45, "A7"]);
  const next = sendToLeader(A, entry(3, 6));
  assert.deepEqual([next.outcome, next.rule, next.offsets], ["appended", "A7", [4, 4]], "after the given batch 3..6 at offsets 0..3");
  const stale = sendToLeader(A, { producer: { producerId: 4242, epoch: 2, firstSequence: 0, lastSequence: 0 } });
  assert.deepEqual([stale.error, stale.errorCode, stale.rule], ["INVALID_PRODUCER_EPOCH", 47, "A3"]);
});

test("bytes that are not one batch: the error with its byte; a state no leader holds throws", () => {
  const r = sendToLeader(A.subarray(0, 30));
  assert.deepEqual([r.outcome, r.error, r.byteOffset], ["rejected", "INVALID_RECORD", 8]);
  assert.match(r.why, /^byte 8: /);
  assert.throws(() => sendToLeader(A, { producer: { producerId: -5, epoch: 0, firstSequence: 0, lastSequence: 0 } }), /producer id/);
});
