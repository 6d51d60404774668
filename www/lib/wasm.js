// Loads the decode-only package pkg/eoslab-decode.js once per page, relative to this module's own
// URL (import.meta.url), so an element embedded with a single <script type="module"
// src=".../www/kafka-batch.js"> finds its wasm without any configuration. eoslab-decode.js itself
// fetches eoslab-decode_bg.wasm next to it: decode, encodeBatch, encodeSegment, crc32c, version,
// without the models (less than half the size of the full pkg/eoslab_bg.wasm).
import init, * as eoslab from "../../pkg/eoslab-decode.js";

let loading = null;
let full = false;

/**
 * For the model pages, which load the full package (pkg/eoslab.js) anyway: call before the first
 * loadEoslab() and it resolves to that package (a superset of the decode-only API) instead of
 * downloading the decode-only wasm as well. No effect once loading has started.
 */
export function useFullPackage() {
  if (!loading) full = true;
}

/** Resolves to the initialised module namespace ({decode, encodeBatch, encodeSegment, crc32c, version}). */
export function loadEoslab() {
  if (!loading) {
    loading = full
      ? import("../../pkg/eoslab.js").then(async (m) => (await m.default(), m))
      : init().then(() => eoslab);
  }
  return loading;
}
