// Module worker: the headers-only pass over a big input (a whole .log segment), off the main
// thread. It frames the bytes, decodes them in ~1 MB chunks with {records: false, spans: false}
// and posts every problem found (with absolute byte positions and batch indexes) plus running
// counts, so the page stays responsive while 100 MB are checked. Records are decoded by the page
// only for the batch the user opens.
//
// in:  {type: "index", id, blob?: Blob, buffer?: ArrayBuffer}
// out: {type: "progress", id, done, total, errors, stats} ... {type: "done", id, ms, stats}
//      {type: "failed", id, message}
import init, { decode } from "../pkg/eoslab-decode.js";
import { scanFrames, frameChunks, shiftResult } from "./lib/segment.js";

const CHUNK = 1 << 20;
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
    const frames = scanFrames(bytes);
    const stats = { batches: frames.count, crcInvalid: 0, control: 0, transactional: 0, idempotent: 0, records: 0, codecs: {} };
    let errors = [];
    let lastPost = performance.now();
    for (const chunk of frameChunks(frames, CHUNK)) {
      const result = shiftResult(decode(bytes.subarray(chunk.start, chunk.end), { records: false, spans: false }), chunk.start, chunk.first);
      for (const b of result.batches) {
        const h = b.header;
        if (!h.crcValid) stats.crcInvalid++;
        if (h.attributes.control) stats.control++;
        if (h.attributes.transactional) stats.transactional++;
        if (h.producerId !== "-1") stats.idempotent++;
        stats.records += Math.max(0, h.recordsCount);
        stats.codecs[h.attributes.compression] = (stats.codecs[h.attributes.compression] ?? 0) + 1;
      }
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
      const tail = shiftResult(decode(bytes.subarray(tailStart), { records: false, spans: false }), tailStart, frames.count);
      errors.push(...tail.errors);
    }
    self.postMessage({ type: "done", id, done: frames.count, total: frames.count, errors, stats, ms: performance.now() - t0 });
  } catch (err) {
    self.postMessage({ type: "failed", id, message: err instanceof Error ? err.message : String(err) });
  }
};
