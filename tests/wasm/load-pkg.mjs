// Loads a wasm-bindgen package of pkg/ synchronously for the node tests (no fetch in Node):
// `eoslab` (full) or `eoslab-decode` (decode-only). Not a test file itself.
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

export const pkgDir = new URL("../../pkg/", import.meta.url);

/** The initialised module pkg/NAME.js. */
export async function load(name) {
  const m = await import(new URL(`${name}.js`, pkgDir).href);
  m.initSync({ module: readFileSync(fileURLToPath(new URL(`${name}_bg.wasm`, pkgDir))) });
  return m;
}
