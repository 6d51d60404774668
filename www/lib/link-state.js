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
 * Inflates `bytes` (deflate-raw) as far as they go: {bytes: what came out, error: null | the
 * stream's error}. A link cut short still yields the state's first part, which decodeState keeps.
 */
async function inflatePartial(bytes) {
  const ds = new DecompressionStream("deflate-raw");
  const writer = ds.writable.getWriter();
  const reader = ds.readable.getReader();
  const writing = writer.write(bytes).then(() => writer.close()).catch(() => {}); // the error surfaces on the reading side
  const chunks = [];
  let error = null;
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      chunks.push(value);
    }
  } catch (err) {
    error = err;
  }
  await writing;
  const out = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.length;
  }
  return { bytes: out, error };
}

/**
 * The complete members of a JSON object whose text was cut short: the longest prefix of `text` that
 * ends before a top-level comma, closed with "}" (a member the cut went through, even a number that
 * may have lost digits, is dropped). Null when not even one member is whole.
 */
export function salvageObject(text) {
  if (!text.startsWith("{")) return null;
  const cuts = [];
  let depth = 0;
  let inString = false;
  let escaped = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (escaped) escaped = false;
      else if (c === "\\") escaped = true;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === "{" || c === "[") depth++;
    else if (c === "}" || c === "]") depth--;
    else if (c === "," && depth === 1) cuts.push(i);
  }
  for (let k = cuts.length - 1; k >= 0; k--) {
    try {
      const o = JSON.parse(`${text.slice(0, cuts[k])}}`);
      if (o && typeof o === "object" && !Array.isArray(o) && Object.keys(o).length) return o;
    } catch {
      // not a whole member either: try the previous cut
    }
  }
  return null;
}

/** The members a damaged link kept, for its message (the format's own "v" left out). */
const keptNames = (state) => Object.keys(state).filter((k) => k !== "v").join(", ") || "nothing but its format version";

const plural = (n, one, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/**
 * The state a hash holds:
 *   {state}          for a whole `#s=1.…` link;
 *   {state, error}   for a damaged one of which a part could be read: `state` holds the members that
 *                    came through whole (never one the damage went through), `error` says what is wrong
 *                    and what was kept — a page applies the state and shows the error;
 *   {error}          when nothing could be read (another version, no data, not a link's characters);
 *   null             when the hash is not a state link (empty, or the older #scenario= form).
 * The error names the part of the link that could not be read: its version, its data (base64url
 * text), the compressed state in it, or the state's JSON.
 */
export async function decodeState(hash = location.hash) {
  if (!hash.startsWith("#s=")) return null;
  const body = hash.slice(3);
  const m = /^(\d+)(?:\.(.*))?$/s.exec(body);
  if (!m) return { error: `this link is damaged: its version (the number after “#s=”) cannot be read from “${body.slice(0, 12)}${body.length > 12 ? "…" : ""}”` };
  if (Number(m[1]) !== LINK_VERSION) return { error: `this link is in format version ${m[1]}; this lab reads version ${LINK_VERSION}` };
  const data = m[2];
  if (data === undefined || data === "") return { error: `this link is cut short: it ends after its version (#s=${m[1]}), before any of its data` };
  const bad = /[^A-Za-z0-9_-]/.exec(data);
  if (bad) {
    return {
      error: `this link is damaged: its data has a character a link never holds (“${bad[0]}” at character ${bad.index + 1} of ${data.length}), ` +
        "so it was changed after it was copied (an editor or mail program re-wrapping or escaping it); copy the link again",
    };
  }
  // base64url: 4 characters hold 3 bytes; a lone last character holds none (the link was cut there).
  const whole = data.length % 4 === 1 ? data.slice(0, -1) : data;
  const { bytes: json, error: inflateError } = await inflatePartial(unb64url(whole));
  const text = new TextDecoder().decode(json);
  if (!inflateError) {
    try {
      const state = JSON.parse(text);
      if (!state || typeof state !== "object" || Array.isArray(state)) return { error: "this link is damaged: what it holds is not a page's state (not a JSON object)" };
      return { state };
    } catch (err) {
      const state = salvageObject(text);
      const what = `this link is damaged: its state (JSON, ${plural(text.length, "character")}) cannot be read (${err instanceof Error ? err.message : err})`;
      return state ? { state, error: `${what}; kept ${keptNames(state)}` } : { error: what };
    }
  }
  // The compressed state stops early (a cut) or goes wrong (a changed character): keep what came before.
  const where = `its compressed state could not be read to the end (${plural(data.length, "character")} of data, ${plural(json.length, "byte")} of state before it stopped)`;
  const cause = "the link was cut short or altered after it was copied";
  const state = salvageObject(text);
  if (!state) return { error: `this link is damaged: ${where}, which holds no whole part of the state; ${cause}` };
  return { state, error: `this link is damaged: ${where}; ${cause}. Kept what came through whole: ${keptNames(state)}; the rest is lost` };
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
