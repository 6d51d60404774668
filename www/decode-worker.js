// Module worker: the headers-only pass over a big input (a whole .log segment), off the main
// thread. It frames the bytes (the wasm `frames`), decodes them in ~1 MB chunks with {records: false, spans: false,
// summary: true} (counts instead of an object per batch) and posts every problem found (with
// absolute byte positions and batch indexes) plus running counts, so the page stays responsive
// while 100 MB are checked. Records are decoded by the page only for the batch the user opens.
//
// in:  {type: "index", id, blob?: Blob, buffer?: ArrayBuffer}
// out: {type: "progress", id, done, total, errors, stats} ... {type: "done", id, ms, stats}
//      {type: "failed", id, message}
import init, { decode, frames as frameSegment } from "../pkg/eoslab-decode.js";
import { frameChunks, shiftResult } from "./lib/slices.js";

const CHUNK = 1 << 20;
const HEADERS_ONLY = { records: false, spans: false, summary: true };
const ready = init();

self.onmessage = async (event) => {
  const msg = event.data;
  if (msg?.type !== "index") return;
  const { id } = msg;
  try {
    await ready;
    const t0 = performance.now();
    const buffer = msg.buffer ?? (await msg.blob.arrayBuffer());
    const bytes = new Uint8Array(buffer);
    const frames = frameSegment(bytes);
    const stats = { batches: frames.count, crcInvalid: 0, control: 0, transactional: 0, idempotent: 0, records: 0, codecs: {} };
    let errors = [];
    let lastPost = performance.now();
    for (const chunk of frameChunks(frames, CHUNK)) {
      const result = shiftResult(decode(bytes.subarray(chunk.start, chunk.end), HEADERS_ONLY), chunk.start, chunk.first);
      const s = result.summary;
      stats.crcInvalid += s.crcInvalid;
      stats.control += s.control;
      stats.transactional += s.transactional;
      stats.idempotent += s.idempotent;
      stats.records += s.records;
      for (const [codec, n] of s.codecs) stats.codecs[codec] = (stats.codecs[codec] ?? 0) + n;
      if (result.errors.length) errors.push(...result.errors);
      const now = performance.now();
      if (now - lastPost > 100) {
        self.postMessage({ type: "progress", id, done: chunk.last, total: frames.count, errors, stats });
        errors = [];
        lastPost = now;
        // Let a newer message (or termination) in between chunks.
        await new Promise((r) => setTimeout(r, 0));
      }
    }
    // Whatever follows the last complete entry (garbage, a bad size or magic) gets the
    // decoder's own report.
    const tailStart = frames.count && !frames.truncatedLast ? frames.ends[frames.count - 1] : frames.count ? bytes.length : 0;
    if (tailStart < bytes.length) {
      const tail = shiftResult(decode(bytes.subarray(tailStart), HEADERS_ONLY), tailStart, frames.count);
      errors.push(...tail.errors);
    }
    self.postMessage({ type: "done", id, done: frames.count, total: frames.count, errors, stats, ms: performance.now() - t0 });
  } catch (err) {
    self.postMessage({ type: "failed", id, message: err instanceof Error ? err.message : String(err) });
  }
};
