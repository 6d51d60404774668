// Share any moment by link: the URL hash holds, versioned and compressed, what
// restores a page's view exactly — `#s=1.<base64url of the deflate-raw of a JSON object>`. The
// pages decide what goes in the object (a scenario's name or its full script, the step, compare
// mode, the inspector's bytes and selection …); this module only packs, unpacks and writes it,
// and keeps edited scripts in the browser's local storage so a reload never loses work.
//
// Links longer than MAX_LINK characters are not written: the page offers the state as a file to
// download instead (downloadText) and says so. Hashes of the older form (#scenario=NAME&compare=1)
// are still read by the pages themselves. No dependency: CompressionStream/DecompressionStream.

/** The version of the state format; a link of another version is refused with a message. */
export const LINK_VERSION = 1;
/** Links longer than this (characters of the whole URL) fall back to a file download. */
export const MAX_LINK = 8000;

const b64url = (bytes) => {
  let s = "";
  for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(s).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
};

const unb64url = (text) => {
  const s = atob(text.replace(/-/g, "+").replace(/_/g, "/"));
  const out = new Uint8Array(s.length);
  for (let i = 0; i < s.length; i++) out[i] = s.charCodeAt(i);
  return out;
};

async function pipe(bytes, stream) {
  const out = new Response(new Blob([bytes]).stream().pipeThrough(stream));
  return new Uint8Array(await out.arrayBuffer());
}

/** The hash (`#s=1.…`) that holds `state` (a JSON-able object). */
export async function encodeState(state) {
  const json = new TextEncoder().encode(JSON.stringify(state));
  return `#s=${LINK_VERSION}.${b64url(await pipe(json, new CompressionStream("deflate-raw")))}`;
}

/**
 * The state a hash holds: {state} for `#s=1.…`, {error} when it is one that cannot be read (another
 * version, damaged), null when the hash is not a state link (empty, or the older #scenario= form).
 */
export async function decodeState(hash = location.hash) {
  const m = /^#s=(\d+)\.([A-Za-z0-9_-]*)$/.exec(hash);
  if (!m) return null;
  if (Number(m[1]) !== LINK_VERSION) return { error: `this link is in format version ${m[1]}; this lab reads version ${LINK_VERSION}` };
  try {
    const json = await pipe(unb64url(m[2]), new DecompressionStream("deflate-raw"));
    const state = JSON.parse(new TextDecoder().decode(json));
    if (!state || typeof state !== "object" || Array.isArray(state)) throw new Error("not an object");
    return { state };
  } catch (err) {
    return { error: `this link is damaged (${err instanceof Error ? err.message : String(err)})` };
  }
}

/**
 * Writes states to the hash (history.replaceState: no history entry per step), the latest one
 * winning when compressions overlap. `tooLong(state, length)` is called instead when the URL
 * would exceed MAX_LINK; `written(hash)` after each write.
 */
export class LinkWriter {
  #seq = 0;
  #tooLong;
  #written;
  last = null;

  constructor({ tooLong = () => {}, written = () => {} } = {}) {
    this.#tooLong = tooLong;
    this.#written = written;
  }

  /** Drops a write still encoding (its link would be older than what the page shows now). */
  cancel() {
    this.#seq++;
  }

  async write(state) {
    const seq = ++this.#seq;
    const hash = await encodeState(state);
    if (seq !== this.#seq) return;
    const url = `${location.pathname}${location.search}${hash}`;
    if (location.origin.length + url.length > MAX_LINK) {
      this.#tooLong(state, location.origin.length + url.length);
      return;
    }
    this.last = hash;
    if (location.hash !== hash) history.replaceState(null, "", url);
    this.#written(hash);
  }
}

// --- edited scripts in local storage -----------------------------------------------------------

const KEY = (page, name) => `eoslab:${page}:script:${name ?? "(custom)"}`;

/** The edited script saved for scenario `name` of `page` (null: none, or no storage). */
export function savedScript(page, name) {
  try {
    return localStorage.getItem(KEY(page, name));
  } catch {
    return null;
  }
}

/** Saves an edited script (false when the browser refuses: private mode, quota). */
export function saveScript(page, name, text) {
  try {
    localStorage.setItem(KEY(page, name), text);
    return true;
  } catch {
    return false;
  }
}

/** Forgets the edited script of scenario `name`. */
export function clearScript(page, name) {
  try {
    localStorage.removeItem(KEY(page, name));
  } catch {
    // nothing kept
  }
}

/** Offers `text` as a file download named `name` (a blob URL; nothing leaves the browser). */
export function downloadText(name, text, type = "text/plain") {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const a = document.createElement("a");
  a.href = url;
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** Reads a chosen file as text (a scenario file or a saved state). */
export const readFileText = (file) => file.text();
