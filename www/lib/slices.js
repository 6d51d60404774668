// Decoding a segment slice by slice: index math over the entry boundaries that the wasm
// `frames(bytes)` returns (the core's one framing, wire::frame::frames: {count, starts, ends,
// truncatedLast}); no framing here.

/**
 * Moves a decode result of a slice to absolute input positions: batch start/end, input-buffer
 * field spans, decompressed spans stay relative to their own buffer, error `at` and batch index.
 */
export function shiftResult(result, base, batchBase = 0) {
  if (base === 0 && batchBase === 0) return result;
  for (const b of result.batches) {
    b.start += base;
    b.end += base;
    for (const f of b.fields) {
      if (!f.buffer) {
        f.start += base;
        f.end += base;
      }
    }
    if (b.decompressed) {
      b.decompressed.compressedStart += base;
      b.decompressed.compressedEnd += base;
    }
  }
  for (const e of result.errors) {
    e.at += base;
    if (e.batch !== undefined && e.batch !== null) e.batch += batchBase;
  }
  return result;
}

/** Chunks of consecutive frames of about `target` bytes (at least one frame each). */
export function* frameChunks(frames, target) {
  let i = 0;
  while (i < frames.count) {
    const first = i;
    const from = frames.starts[i];
    while (i < frames.count && (i === first || frames.ends[i] - from <= target)) i++;
    yield { first, last: i, start: from, end: frames.ends[i - 1] };
  }
}
