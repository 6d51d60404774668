// Loads the decode-only package pkg/eoslab-decode.js once per page, relative to this module's own
// URL (import.meta.url), so an element embedded with a single <script type="module"
// src=".../www/kafka-batch.js"> finds its wasm without any configuration. eoslab-decode.js itself
// fetches eoslab-decode_bg.wasm next to it: decode, crc32c, version, without the models and without
// the encoders (encodeBatch, encodeSegment and the compressors' compression halves), so well under
// half the size of the full pkg/eoslab_bg.wasm. What encodes (the inspector's edit form and
// compare builders, the page's generated samples) awaits encoder(), which imports the full
// package on first use.
//
// Every package is imported, and its wasm fetched, here (initPackage; fetchAsset for other files), so
// that a page which cannot reach them — the eoslab/ folder copied in part, served under another
// path, offline — gets an error that names the file and the URL it tried and says that the folder
// must be served whole next to its module (assetError), which the elements show; never a bare
// "Failed to fetch", nor an element that never defines because a static import failed.

const DECODE_JS = new URL("../../pkg/eoslab-decode.js", import.meta.url);
/**
 * The folder every eoslab file is fetched relative to: dist/eoslab/ (pkg/'s parent; the
 * repository's root here). Cut from DECODE_JS rather than written as a relative URL, which
 * scripts/build-dist.mjs would re-point as it bundles.
 */
const HOME = new URL(DECODE_JS.href.replace(/pkg\/[^/]*$/, ""));
const DECODE_WASM = new URL("../../pkg/eoslab-decode_bg.wasm", import.meta.url);
const FULL_JS = new URL("../../pkg/eoslab.js", import.meta.url);
const FULL_WASM = new URL("../../pkg/eoslab_bg.wasm", import.meta.url);

/**
 * The Error for an eoslab file that could not be fetched: `what` it is (e.g. "its WebAssembly
 * module"), the URL it tried, `how` it failed, and what to do about it.
 */
export function assetError(url, how, what = "a file it needs") {
  const href = String(url);
  const rel = href.startsWith(HOME.href) ? href.slice(HOME.href.length) : href;
  const err = new Error(
    `eoslab could not fetch ${what}, ${rel} (${how}; tried ${href}). The eoslab/ folder must be served whole, ` +
      `next to the module that loads it: every file it needs (pkg/, scenarios/, lib/ and the element folders) is fetched relative to ${HOME.href}`,
  );
  err.url = href;
  return err;
}

/** fetch(url), or an assetError when the request fails (offline, blocked) or answers other than 2xx. */
export async function fetchAsset(url, what) {
  let res;
  try {
    res = await fetch(url);
  } catch (err) {
    throw assetError(url, `the request failed: ${err instanceof Error ? err.message : err}; offline, blocked or no such host`, what);
  }
  if (!res.ok) throw assetError(url, `${res.status} ${res.statusText}`.trim(), what);
  return res;
}

/**
 * An initialised wasm-bindgen package: `load()` imports its glue (`jsUrl`), whose default export
 * fetches its wasm (`wasmUrl`, beside it) unless the page has done so already. A glue module that
 * does not load, and a wasm that cannot be fetched or is not wasm (a 404 page, a host's HTML
 * fallback), reject with an assetError; any other failure as it is.
 */
async function initPackage(load, jsUrl, wasmUrl) {
  let m;
  try {
    m = await load();
  } catch (err) {
    throw assetError(jsUrl, `the module did not load: ${err instanceof Error ? err.message : err}`, "its WebAssembly glue module");
  }
  try {
    await m.default();
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    // wasm-bindgen's own words for a non-2xx answer: "failed to fetch Wasm: 404 Not Found fetching '<url>'".
    const status = /failed to fetch Wasm: (.*?) fetching/.exec(message);
    if (status) throw assetError(wasmUrl, status[1], "its WebAssembly module");
    if (err instanceof TypeError) throw assetError(wasmUrl, `the request failed: ${message}; offline, blocked or no such host`, "its WebAssembly module");
    if (err instanceof WebAssembly.CompileError) throw assetError(wasmUrl, `what the server sent is not WebAssembly: ${message}`, "its WebAssembly module");
    throw err;
  }
  return m;
}

/**
 * The packages being loaded or loaded, by glue URL, shared by every copy of this module on the page
 * (each element's bundle has its own copy: make dist bundles them apart), so a page fetches each
 * wasm once whichever element asks first. A failed load is dropped: the next call tries again.
 */
const packages = (globalThis[Symbol.for("eoslab.packages")] ??= new Map());

function once(url, load) {
  const key = String(url);
  if (!packages.has(key)) {
    packages.set(key, load().catch((err) => {
      packages.delete(key);
      throw err;
    }));
  }
  return packages.get(key);
}

let loading = null;
let full = false;
let loadedDecoder = null;

/** The package loadEoslab() resolved to, once it has, else null (a pre-built inspector's fallback). */
export function decoderIfLoaded() {
  return loadedDecoder;
}
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

/**
 * Resolves to the initialised module namespace ({decode, crc32c, version}; more with useFullPackage()).
 * When the page is loading (or has loaded) the full package already — a model element ran a
 * script — the first call takes it too (a superset), so the page fetches one wasm module rather
 * than both; a model element that draws a pre-built run loads nothing, and then the inspector
 * fetches the small decode-only module.
 */
export function loadEoslab() {
  if (!loading && !full && packages.has(String(FULL_JS))) full = true;
  if (!loading) {
    loading = (full ? loadFull() : once(DECODE_JS, () => initPackage(() => import("../../pkg/eoslab-decode.js"), DECODE_JS, DECODE_WASM))).catch((err) => {
      loading = null; // not cached: the next call tries again
      throw err;
    });
    loading.then((m) => (loadedDecoder = m), () => {});
  }
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
    artifactsLoading = initPackage(() => import("../../pkg/eoslab-files.js"), new URL("../../pkg/eoslab-files.js", import.meta.url), new URL("../../pkg/eoslab-files_bg.wasm", import.meta.url)).then(
      (m) => m,
      (err) => {
        artifactsLoading = null;
        throw err;
      },
    );
  }
  return artifactsLoading;
}

/**
 * Resolves to the initialised full package (pkg/eoslab.js and its wasm), or rejects with an
 * assetError naming what could not be fetched. lib/element.js ready() is this, for the model elements.
 */
export function loadFull() {
  return once(FULL_JS, () => initPackage(() => import("../../pkg/eoslab.js"), FULL_JS, FULL_WASM));
}
