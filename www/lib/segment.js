// Framing of a segment (or any concatenation of log entries) into batch byte ranges, the way
// Java's log input streams walk it and the core's decode walker mirrors: 12-byte log overhead
// (offset int64, size int32), size >= 14, magic 0..2 at offset 16, a trailing partial entry
// kept as the last (truncated) entry. Only the 12/17-byte prefix of each entry is read, so
// 100 MB of 70-byte batches (1.5 M entries) frame in a few tens of ms; everything else about a
// batch comes from the wasm decoder, on demand.

/**
 * @param {Uint8Array} bytes
 * @returns {{count: number, starts: Float64Array, ends: Float64Array, truncatedLast: boolean, stop: null | {at: number, reason: string}}}
 */
export function scanFrames(bytes) {
  const len = bytes.length;
  let cap = Math.max(16, Math.min(1 << 22, (len / 64) | 0));
  let starts = new Float64Array(cap);
  let ends = new Float64Array(cap);
  let count = 0;
  let pos = 0;
  let stop = null;
  let truncatedLast = false;
  while (pos < len) {
    const rem = len - pos;
    if (rem < 12) {
      stop = { at: pos, reason: "trailing bytes shorter than the 12-byte log overhead" };
      break;
    }
    const size = ((bytes[pos + 8] << 24) | (bytes[pos + 9] << 16) | (bytes[pos + 10] << 8) | bytes[pos + 11]) | 0;
    if (size < 14) {
      stop = { at: pos + 8, reason: `size ${size} below the minimum record overhead (14)` };
      break;
    }
    if (rem < 17) {
      stop = { at: pos, reason: "trailing bytes end before the magic byte" };
      break;
    }
    const magic = (bytes[pos + 16] << 24) >> 24;
    if (magic < 0 || magic > 2) {
      stop = { at: pos + 16, reason: `invalid magic ${magic}` };
      break;
    }
    if (count === cap) {
      cap *= 2;
      const s = new Float64Array(cap);
      s.set(starts);
      starts = s;
      const e = new Float64Array(cap);
      e.set(ends);
      ends = e;
    }
    const total = size + 12;
    starts[count] = pos;
    if (rem < total) {
      ends[count++] = len;
      truncatedLast = true;
      break;
    }
    ends[count++] = pos + total;
    pos += total;
  }
  return { count, starts: starts.subarray(0, count), ends: ends.subarray(0, count), truncatedLast, stop };
}

/** Index of the frame containing byte `pos` (binary search), or -1. */
export function frameAt(frames, pos) {
  let lo = 0;
  let hi = frames.count - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (pos < frames.starts[mid]) hi = mid - 1;
    else if (pos >= frames.ends[mid]) lo = mid + 1;
    else return mid;
  }
  return -1;
}

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
