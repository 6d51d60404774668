// decode-replay.js: <kafka-batch>'s first view without the decoder's wasm. At build time
// (prebuild.mjs) the decode-only package's answers to the calls the element makes for its first
// view are recorded (recordBatchRun); in the page, a replaying stand-in for the package answers
// those same calls from the record (replayDecoder), so the inspector draws what the wasm would
// have, having fetched a few KB of JSON instead of the decoder. A call the record does not hold
// throws NeedsDecoder: the element then loads the real package and does the same again. It loads
// it anyway as soon as the reader acts (focus, a key, a pointer, an attribute change).
//
// A batch run file is {"eoslab": "run", "format": 1, "element": "kafka-batch", "version",
// "input": {"hex" | "base64": "…"}, "run": {"calls": [[fn, key, result], …]}} where a result's
// typed arrays are written {"$typed": "Float64Array", "values": […]}.
//
// Importable in Node: nothing here touches the DOM.
import { SPAN_DEFER_BYTES, SYNC_PASS_MAX_BATCHES, SYNC_PASS_MAX_BYTES } from "../kafka-batch/limits.js";

/** Thrown by a replaying decoder for a call its record does not hold. */
export class NeedsDecoder extends Error {
  constructor(fn) {
    super(`the pre-built run holds no answer to this ${fn}() call`);
    this.name = "NeedsDecoder";
  }
}

/** The batches whose opening is recorded (a list of more is opened by the real decoder). */
export const RECORDED_OPENS = 64;

const TYPED = { Uint8Array, Float64Array, Uint32Array, Int32Array };

/** `v` with its typed arrays as {$typed, values} (JSON keeps them). */
function toJSONValue(v) {
  if (ArrayBuffer.isView(v)) return { $typed: v.constructor.name, values: Array.from(v) };
  if (Array.isArray(v)) return v.map(toJSONValue);
  if (v && typeof v === "object") {
    const out = {};
    for (const [k, x] of Object.entries(v)) if (x !== undefined) out[k] = toJSONValue(x);
    return out;
  }
  return v;
}

/** The inverse of toJSONValue (a fresh copy each time: the element may change what it gets). */
function fromJSONValue(v) {
  if (Array.isArray(v)) return v.map(fromJSONValue);
  if (v && typeof v === "object") {
    if (typeof v.$typed === "string" && Array.isArray(v.values) && TYPED[v.$typed]) return TYPED[v.$typed].from(v.values);
    const out = {};
    for (const [k, x] of Object.entries(v)) out[k] = fromJSONValue(x);
    return out;
  }
  return v;
}

const HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, "0"));

/** The key of a call: its input (text, or the bytes as hex) and its options in a stable order. */
function callKey(input, options) {
  const inp = typeof input === "string" ? `t:${input}` : `b:${Array.from(input, (b) => HEX[b]).join("")}`;
  const opts = options ? Object.keys(options).sort().filter((k) => options[k] !== undefined).map((k) => [k, options[k] ?? null]) : [];
  return `${inp}|${JSON.stringify(opts)}`;
}

const FNS = ["detectInput", "frames", "decode"];

/** A stand-in for the decode package that passes calls to `real` and records them: {decoder, calls}. */
export function recordingDecoder(real) {
  const calls = [];
  const seen = new Set();
  const decoder = { ...real };
  for (const fn of FNS) {
    decoder[fn] = (input, options) => {
      const result = real[fn](input, options);
      const key = callKey(input, options);
      if (!seen.has(`${fn} ${key}`)) {
        seen.add(`${fn} ${key}`);
        calls.push([fn, key, toJSONValue(result)]);
      }
      return result;
    };
  }
  return { decoder, calls };
}

/**
 * A stand-in for the decode package that answers the recorded `calls`; any other call goes to the
 * real package when `loaded()` returns it (the reader's first act started loading it), else throws
 * NeedsDecoder.
 */
export function replayDecoder(calls, version = null, loaded = () => null) {
  const answers = new Map(calls.map(([fn, key, result]) => [`${fn} ${key}`, result]));
  const decoder = { replay: true, version: () => version ?? "" };
  for (const fn of FNS) {
    decoder[fn] = (input, options) => {
      const key = `${fn} ${callKey(input, options)}`;
      if (answers.has(key)) return fromJSONValue(answers.get(key));
      const real = loaded();
      if (real) return real[fn](input, options);
      throw new NeedsDecoder(fn);
    };
  }
  decoder.crc32c = (...args) => {
    const real = loaded();
    if (real) return real.crc32c(...args);
    throw new NeedsDecoder("crc32c");
  };
  return decoder;
}

/**
 * Makes, through `decoder` (a recordingDecoder), the calls <kafka-batch> makes for the first view
 * of its `hex` or `base64` attribute (`force`: "hex" | "base64"; kafka-batch/element.js #loadText,
 * #loadBytes, #open): the input's detection, its frames, the whole-input check, and the opening of
 * each of its first RECORDED_OPENS batches. False when the element would check the input in a
 * worker (too big to pre-build: it loads the decoder).
 */
export function makeFirstViewCalls(decoder, text, force) {
  if (!text.trim()) return true;
  const parsed = decoder.detectInput(text, { format: force });
  if (parsed.error) return true;
  const bytes = parsed.bytes;
  const f = decoder.frames(bytes);
  const n = f.count;
  if (n === 0) decoder.decode(bytes, { spans: false });
  else if (n === 1) {
    const tail = f.truncatedLast ? bytes.length : f.ends[0];
    if (tail < bytes.length) decoder.decode(bytes.subarray(tail), { spans: false });
  } else if (bytes.length <= SYNC_PASS_MAX_BYTES && n <= SYNC_PASS_MAX_BATCHES) decoder.decode(bytes, { spans: false });
  else return false;
  for (let i = 0; i < Math.min(n, RECORDED_OPENS); i++) {
    const sub = bytes.subarray(f.starts[i], f.ends[i]);
    const defer = f.ends[i] - f.starts[i] > SPAN_DEFER_BYTES;
    decoder.decode(sub, { includeDecompressed: true, spans: !defer, formatter: null });
    if (defer) decoder.decode(sub, { includeDecompressed: true, formatter: null });
  }
  return true;
}
