// Text input → bytes, for what people paste: hex in any common layout (spaced, colon- or
// comma-separated, 0x/\x prefixed, one long stream), dumps with an offset column (xxd, hexdump -C,
// Wireshark "copy as hex dump", od -Ax -tx1z) whose ASCII column is dropped, base64 (standard or
// URL-safe, wrapped or not), byte-array literals (Java/JS/C/Python lists, signed or unsigned) and
// Python bytes literals (b'\x00k').
//
// The page needs the bytes themselves (to draw the byte map), not just the decode report, so the
// text is turned into bytes here and the wasm decoder always gets a Uint8Array.

export class InputError extends Error {
  /** @param {number} at character offset in the text  @param {string} message */
  constructor(at, message) {
    super(message);
    this.name = "InvalidInput";
    this.at = at;
  }
}

const HEX = /^[0-9a-fA-F]+$/;
const isHexChar = (c) => (c >= 48 && c <= 57) || (c >= 65 && c <= 70) || (c >= 97 && c <= 102);
const hexVal = (c) => (c <= 57 ? c - 48 : (c | 0x20) - 87);

/**
 * @param {string} text
 * @param {{format?: "hex" | "base64"}} [opts] force a format (the `hex` / `base64` attributes)
 * @returns {{format: string, stripped: string[], bytes: Uint8Array}}
 * @throws {InputError}
 */
export function parseInput(text, opts = {}) {
  if (typeof text !== "string") throw new TypeError("parseInput expects a string");
  const trimmed = text.trim();
  if (trimmed === "") return { format: "empty", stripped: [], bytes: new Uint8Array(0) };
  if (opts.format === "base64") return parseBase64(text, true);
  if (opts.format !== "hex") {
    const arr = parseByteArray(text);
    if (arr) return arr;
    const lit = parsePythonBytes(trimmed, text.indexOf(trimmed));
    if (lit) return lit;
  }
  const dump = parseDump(text);
  if (dump) return dump;
  if (opts.format === "hex" || looksHex(text)) return parsePlainHex(text);
  return parseBase64(text, false);
}

/** True when the text is mostly hex digits and separators (so errors are reported as hex errors). */
function looksHex(text) {
  let hex = 0;
  let other = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (isHexChar(c)) hex++;
    else if (isSeparator(c)) continue;
    else if ((c === 120 || c === 88) && i > 0 && (text.charCodeAt(i - 1) === 48 || text.charCodeAt(i - 1) === 92)) continue; // 0x, \x
    else if (c === 92 && text.charCodeAt(i + 1) === 120) continue;
    else other++;
  }
  if (other === 0) return true;
  const tokens = text.trim().split(/[\s,:;]+/);
  if (tokens.length >= 2 && tokens.filter((t) => /^(0x)?[0-9a-fA-F]{2}$/.test(t)).length / tokens.length >= 0.6) return true;
  // A base64 text has many letters past f; a hex paste with a typo has very few.
  return hex >= 8 && other / (hex + other) < 0.05 && /(^|\s)[0-9a-fA-F]{2}(\s|$)/.test(text);
}

function isSeparator(c) {
  return c === 32 || c === 9 || c === 10 || c === 13 || c === 44 || c === 58 || c === 45 || c === 59 || c === 160;
}

/** Plain hex: separators (whitespace , : - ;) and 0x / \x prefixes are dropped. */
function parsePlainHex(text) {
  const out = new Uint8Array(text.length >> 1);
  let n = 0;
  let pendingAt = -1;
  let pending = 0;
  let sawPrefix = false;
  let sawSep = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 48 && (text.charCodeAt(i + 1) | 0x20) === 120 && pendingAt < 0 && isHexChar(text.charCodeAt(i + 2))) {
      sawPrefix = true;
      i++;
      continue;
    }
    if (c === 92 && text.charCodeAt(i + 1) === 120 && pendingAt < 0) {
      sawPrefix = true;
      i++;
      continue;
    }
    if (isHexChar(c)) {
      if (pendingAt < 0) {
        pending = hexVal(c);
        pendingAt = i;
      } else {
        out[n++] = (pending << 4) | hexVal(c);
        pendingAt = -1;
      }
      continue;
    }
    if (isSeparator(c)) {
      sawSep = true;
      if (pendingAt >= 0) {
        throw new InputError(pendingAt, `a lone hex digit '${text[pendingAt]}' at character ${pendingAt}: bytes need two hex digits`);
      }
      continue;
    }
    throw new InputError(i, `'${text[i]}' at character ${i} is not a hex digit`);
  }
  if (pendingAt >= 0) {
    throw new InputError(pendingAt, `odd number of hex digits: the digit at character ${pendingAt} has no partner`);
  }
  const stripped = [];
  if (sawSep) stripped.push("whitespace and separators");
  if (sawPrefix) stripped.push("0x/\\x prefixes");
  return { format: "hex", stripped, bytes: out.slice(0, n) };
}

/**
 * Dumps with an offset column. Every non-empty line starts with an offset of at least 4 hex
 * digits (xxd ends it with ':'), offsets increase, and the byte count per line follows from two
 * consecutive offsets; the ASCII column after the hex is dropped.
 */
function parseDump(text) {
  const lines = text.split(/\r?\n/);
  const rows = [];
  let pos = 0;
  for (const line of lines) {
    const start = pos;
    pos += line.length + 1;
    if (line.trim() === "") continue;
    const m = /^(\s*)([0-9a-fA-F]{4,16})(:?)(\s+)/.exec(line);
    if (!m) return null;
    rows.push({ line, start, offset: parseInt(m[2], 16), colon: m[3] === ":", body: m[0].length, digits: m[2].length });
  }
  if (rows.length === 0) return null;
  const colon = rows.every((r) => r.colon);
  if (rows.length === 1 && !colon && !(/^0+$/.test(line0Offset(rows[0])) && rows[0].digits <= 8 && /^\s*[0-9a-fA-F]+\s\s/.test(rows[0].line))) {
    return null;
  }
  for (let i = 1; i < rows.length; i++) if (rows[i].offset <= rows[i - 1].offset) return null;
  // A plain "00 00 00 ..." paste has a 2-digit first token and never gets here; "0000 0000 ..."
  // (hex in 4-digit groups) would, so require the offsets to match the bytes per line.
  const perLine = rows.length > 1 ? rows[1].offset - rows[0].offset : 16;
  if (perLine <= 0 || perLine > 64) return null;
  if (rows.length > 1 && !colon) {
    let first = 0;
    for (const tok of rows[0].line.slice(rows[0].body).split(/\s+/)) {
      if (!HEX.test(tok) || tok.length % 2) break;
      first += tok.length / 2;
    }
    if (first < perLine) return null;
  }
  const out = [];
  let ascii = false;
  let pipes = false;
  for (let r = 0; r < rows.length; r++) {
    const row = rows[r];
    const want = r + 1 < rows.length ? rows[r + 1].offset - row.offset : perLine;
    let body = row.line.slice(row.body);
    const bar = body.indexOf("|");
    if (bar >= 0) {
      body = body.slice(0, bar);
      pipes = true;
      ascii = true;
    }
    const angle = body.indexOf(">");
    if (angle >= 0) {
      body = body.slice(0, angle);
      ascii = true;
    }
    const re = /(\s*)(\S+)/g;
    let count = 0;
    let m;
    while ((m = re.exec(body)) && count < want) {
      const [, gap, token] = m;
      const tok = token.replace(/^0x/i, "");
      if (!HEX.test(tok) || tok.length % 2 !== 0 || tok.length / 2 + count > want) {
        ascii = true;
        break;
      }
      // On the last (short) line, a wide gap followed by exactly `count` characters is the ASCII column.
      if (r === rows.length - 1 && count > 0 && gap.length >= 2) {
        const rest = body.slice(m.index + gap.length).replace(/\s+$/, "");
        if (rest.length <= count && rest.length >= count - 2 && !isNextHalf(count, gap)) {
          ascii = true;
          break;
        }
      }
      for (let i = 0; i < tok.length; i += 2) out.push(parseInt(tok.slice(i, i + 2), 16));
      count += tok.length / 2;
    }
    if (count === 0) {
      throw new InputError(row.start + row.body, `line ${r + 1} of the dump has no hex bytes after its offset`);
    }
    if (m && count >= want && re.lastIndex < body.length && body.slice(re.lastIndex).trim() !== "") ascii = true;
  }
  const stripped = ["offset column"];
  if (ascii) stripped.push("ASCII column");
  const format = colon ? "xxd" : pipes ? "hexdump -C" : "wireshark";
  return { format, stripped, bytes: Uint8Array.from(out) };
}

const line0Offset = (row) => row.line.trim().split(/[\s:]/)[0];
/** hexdump -C puts a double space after the 8th byte: that gap is not the ASCII column. */
const isNextHalf = (count, gap) => count === 8 && gap.length === 2;

/** `[0, 0, 58, -1]`, `new byte[]{(byte)0x00, 0x3a}`, `{0x00, 0x3a}`, `Uint8Array.of(0, 1)`. */
function parseByteArray(text) {
  const open = text.search(/[[{(]/);
  if (open < 0 || text.indexOf(",") < 0) return null;
  const close = Math.max(text.lastIndexOf("]"), text.lastIndexOf("}"), text.lastIndexOf(")"));
  if (close <= open) return null;
  let inner = text.slice(open + 1, close);
  // Java casts and nested openers ("new byte[] {": the first [ is part of the type).
  inner = inner.replace(/\(\s*byte\s*\)/gi, "").replace(/^[^0-9+-]*?[[{(]/, "");
  const tokens = inner.split(",").map((t) => t.trim().replace(/[uU]8?$/, ""));
  if (tokens.length > 0 && tokens[tokens.length - 1] === "") tokens.pop();
  if (tokens.length === 0) return null;
  const bytes = new Uint8Array(tokens.length);
  let signed = false;
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i];
    let v;
    if (/^[+-]?0x[0-9a-f]{1,2}$/i.test(t)) v = parseInt(t, 16);
    else if (/^[+-]?\d{1,3}$/.test(t)) v = parseInt(t, 10);
    else return null;
    if (v < -128 || v > 255) return null;
    if (v < 0) {
      signed = true;
      v += 256;
    }
    bytes[i] = v;
  }
  return { format: "byte-array", stripped: signed ? ["array brackets", "signed bytes as unsigned"] : ["array brackets"], bytes };
}

/** Python bytes literal: b'\x00\x00k' or b"...". */
function parsePythonBytes(t, base) {
  const m = /^b(['"])([\s\S]*)\1$/.exec(t);
  if (!m) return null;
  const s = m[2];
  const out = [];
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    if (c !== "\\") {
      const code = s.charCodeAt(i);
      if (code > 0x7e) throw new InputError(base + 2 + i, `non-ASCII character in a bytes literal at ${base + 2 + i}`);
      out.push(code);
      continue;
    }
    const n = s[i + 1];
    const simple = { n: 10, r: 13, t: 9, "\\": 92, "'": 39, '"': 34, "0": 0 };
    if (n === "x" && HEX.test(s.slice(i + 2, i + 4)) && s.slice(i + 2, i + 4).length === 2) {
      out.push(parseInt(s.slice(i + 2, i + 4), 16));
      i += 3;
    } else if (n in simple) {
      out.push(simple[n]);
      i += 1;
    } else {
      throw new InputError(base + 2 + i, `unknown escape \\${n ?? ""} in a bytes literal`);
    }
  }
  return { format: "bytes literal", stripped: ["b'' quotes", "escapes"], bytes: Uint8Array.from(out) };
}

/** Standard or URL-safe base64, any line wrapping, padding optional. */
function parseBase64(text, forced) {
  let clean = "";
  let urlSafe = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (/\s/.test(c)) continue;
    if (/[A-Za-z0-9+/=]/.test(c)) clean += c;
    else if (c === "-" || c === "_") {
      urlSafe = true;
      clean += c === "-" ? "+" : "/";
    } else {
      throw new InputError(
        i,
        forced
          ? `'${c}' at character ${i} is not a base64 character`
          : `not hex, a dump, base64 or a byte array: '${c}' at character ${i} fits none of them`,
      );
    }
  }
  const eq = clean.indexOf("=");
  if (eq >= 0 && !/^=*$/.test(clean.slice(eq))) throw new InputError(text.indexOf("="), "'=' padding in the middle of base64");
  clean = clean.replace(/=+$/, "");
  if (clean.length % 4 === 1) throw new InputError(text.length - 1, "base64 text of a length that no bytes can have (one character too many or too few)");
  clean += "===".slice(0, (4 - (clean.length % 4)) % 4);
  let bin;
  try {
    bin = atob(clean);
  } catch {
    throw new InputError(0, "invalid base64");
  }
  const bytes = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
  return { format: urlSafe ? "base64url" : "base64", stripped: /\s/.test(text.trim()) ? ["line breaks"] : [], bytes };
}

/** True when raw file bytes are text (printable ASCII and whitespace), as decode() would treat them. */
export function bytesAreText(bytes) {
  if (bytes.length === 0 || bytes.length > 64 << 20) return false;
  const n = Math.min(bytes.length, 1 << 20);
  for (let i = 0; i < n; i++) {
    const b = bytes[i];
    if (!((b >= 0x20 && b < 0x7f) || b === 9 || b === 10 || b === 13)) return false;
  }
  return true;
}

const B64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

export function toBase64(bytes) {
  let out = "";
  let i = 0;
  for (; i + 2 < bytes.length; i += 3) {
    const n = (bytes[i] << 16) | (bytes[i + 1] << 8) | bytes[i + 2];
    out += B64[n >> 18] + B64[(n >> 12) & 63] + B64[(n >> 6) & 63] + B64[n & 63];
  }
  if (i < bytes.length) {
    const n = (bytes[i] << 16) | ((bytes[i + 1] ?? 0) << 8);
    out += B64[n >> 18] + B64[(n >> 12) & 63] + (i + 1 < bytes.length ? B64[(n >> 6) & 63] : "=") + "=";
  }
  return out;
}

const HEX2 = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, "0"));

/** Lowercase hex, `sep` between bytes, a newline every `perLine` bytes (0: none). */
export function toHex(bytes, sep = " ", perLine = 0) {
  const parts = new Array(bytes.length);
  for (let i = 0; i < bytes.length; i++) parts[i] = HEX2[bytes[i]];
  if (!perLine) return parts.join(sep);
  const lines = [];
  for (let i = 0; i < parts.length; i += perLine) lines.push(parts.slice(i, i + perLine).join(sep));
  return lines.join("\n");
}

export const hexByte = (b) => HEX2[b];

export function hexToBytes(hex) {
  const out = new Uint8Array(hex.length >> 1);
  for (let i = 0; i < out.length; i++) out[i] = (hexVal(hex.charCodeAt(2 * i)) << 4) | hexVal(hex.charCodeAt(2 * i + 1));
  return out;
}
