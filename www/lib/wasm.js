// Loads pkg/eoslab.js once per page, relative to this module's own URL (import.meta.url), so an
// element embedded with a single <script type="module" src=".../www/kafka-batch.js"> finds its
// wasm without any configuration. eoslab.js itself fetches eoslab_bg.wasm next to it.
import init, * as eoslab from "../../pkg/eoslab.js";

let loading = null;

/** Resolves to the initialised module namespace ({decode, encodeBatch, encodeSegment, version, ...}). */
export function loadEoslab() {
  if (!loading) loading = init().then(() => eoslab);
  return loading;
}
