// Loads the decode-only package pkg/eoslab-decode.js once per page, relative to this module's own
// URL (import.meta.url), so an element embedded with a single <script type="module"
// src=".../www/kafka-batch.js"> finds its wasm without any configuration. eoslab-decode.js itself
// fetches eoslab-decode_bg.wasm next to it: decode, crc32c, version, without the models and without
// the encoders (encodeBatch, encodeSegment and the compressors' compression halves), so well under
// half the size of the full pkg/eoslab_bg.wasm. What encodes (the inspector's edit form and
// compare builders, the page's generated samples) awaits encoder(), which imports the full
// package on first use.
import init, * as eoslab from "../../pkg/eoslab-decode.js";

let loading = null;
let full = false;
let encoding = null;
let loadedEncoder = null;

/**
 * For the model pages, which load the full package (pkg/eoslab.js) anyway: call before the first
 * loadEoslab() and it resolves to that package (a superset of the decode-only API) instead of
 * downloading the decode-only wasm as well. No effect once loading has started.
 */
export function useFullPackage() {
  if (!loading) full = true;
}

/** The model elements, which run the full package: on a page that has one defined, the inspector uses it too. */
const MODEL_ELEMENTS = ":is(kafka-ladder, kafka-timeline, kafka-producer-config):defined";

/**
 * Resolves to the initialised module namespace ({decode, crc32c, version}; more with useFullPackage()).
 * On a page that already holds a defined model element (which loads the full package anyway: a docs
 * page with an inspector and a timeline, all registered by eoslab.js), the first call takes the full
 * package too, so the page fetches one wasm module rather than both.
 */
export function loadEoslab() {
  if (!loading && !full && globalThis.document?.querySelector(MODEL_ELEMENTS)) full = true;
  if (!loading) loading = full ? loadFull() : init().then(() => eoslab);
  return loading;
}

/**
 * Resolves to the initialised full package ({decode, encodeBatch, encodeSegment, crc32c, version,
 * and the models}), importing pkg/eoslab.js and fetching its wasm on the first call only (shared
 * with the model pages' own imports of it). A failed load (offline, missing file) is not cached:
 * the next call tries again.
 */
export function encoder() {
  if (!encoding) {
    encoding = loadFull().then(
      (m) => (loadedEncoder = m),
      (err) => {
        encoding = null;
        throw err;
      },
    );
  }
  return encoding;
}

/** The full package once encoder() has resolved, else null (callers skip their "loading" state). */
export function encoderIfLoaded() {
  return loadedEncoder;
}
let artifactsLoading = null;

/**
 * Resolves to the initialised broker-artifacts package pkg/eoslab-files.js ({decode,
 * decodeMessages, loadPartition, dumpLog}): the requests-and-responses panel and the partition
 * directory view import it on first use, once per page. A failed load is not cached.
 */
export function artifacts() {
  if (!artifactsLoading) {
    artifactsLoading = import("../../pkg/eoslab-files.js").then(
      async (m) => (await m.default(), m),
      (err) => {
        artifactsLoading = null;
        throw err;
      },
    );
  }
  return artifactsLoading;
}

function loadFull() {
  return import("../../pkg/eoslab.js").then(async (m) => (await m.default(), m));
}
