// Byte helpers of the page: bytes → hex / base64 text, hex → bytes, and whether a dropped
// file is text. Turning pasted text into bytes is the core's job (wasm `detectInput`, the same
// detection `decode` runs): there is no second paste parser in JS.

const hexVal = (c) => (c <= 57 ? c - 48 : (c | 0x20) - 87);

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

/** Whether `bytes` start as a pcap (either byte order, micro- or nanosecond) or a pcapng file. */
export function isCapture(bytes) {
  if (!bytes || bytes.length < 4) return false;
  const magic = ((bytes[0] << 24) | (bytes[1] << 16) | (bytes[2] << 8) | bytes[3]) >>> 0;
  return [0xa1b2c3d4, 0xd4c3b2a1, 0xa1b23c4d, 0x4d3cb2a1, 0x0a0d0d0a].includes(magic);
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
