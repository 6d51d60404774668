// Node test of the page's paste parser, the core's `detectInput` (wasm; the page needs the bytes
// to draw the byte map, which decode() does not return), over the inputs the former JS paste parser
// was cross-checked with: every layout gives Example A's 70 bytes, with
// the format `decode` reports for the same text; errors point into the text.
// Run: node --test tests/browser/      (needs `make pkg`)
import { test } from "node:test";
import assert from "node:assert/strict";
import { toBase64, toHex } from "../../www/lib/bytes.js";
import { loadPkg, EXAMPLE_A_HEX } from "./helpers.mjs";

const pkg = await loadPkg();
const decodePkg = await import("../../pkg/eoslab-decode.js");
{
  const { readFileSync } = await import("node:fs");
  decodePkg.initSync({ module: readFileSync(new URL("../../pkg/eoslab-decode_bg.wasm", import.meta.url)) });
}
const parseInput = (text, opts) => {
  const r = decodePkg.detectInput(text, opts);
  if (r.error) throw Object.assign(new Error(r.error.message), { name: "InvalidInput", at: r.error.at });
  return r;
};
const bytes = Uint8Array.from(EXAMPLE_A_HEX.split(" "), (b) => parseInt(b, 16));
const hex2 = (b) => b.toString(16).padStart(2, "0");
const ascii = (c) => c.map((b) => (b >= 0x20 && b < 0x7f ? String.fromCharCode(b) : ".")).join("");

function dump(kind) {
  const lines = [];
  for (let off = 0; off < bytes.length; off += 16) {
    const c = [...bytes.subarray(off, off + 16)];
    const h = c.map(hex2);
    if (kind === "xxd") {
      const groups = [];
      for (let i = 0; i < h.length; i += 2) groups.push(h.slice(i, i + 2).join(""));
      lines.push(`${off.toString(16).padStart(8, "0")}: ${groups.join(" ").padEnd(39)}  ${ascii(c)}`);
    } else if (kind === "hexdump") {
      lines.push(`${off.toString(16).padStart(8, "0")}  ${h.slice(0, 8).join(" ").padEnd(23)}  ${h.slice(8).join(" ").padEnd(23)}  |${ascii(c)}|`);
    } else {
      // As Wireshark's "Copy as Hex Dump" writes it: the last line's hex area padded to full width.
      lines.push(`${off.toString(16).padStart(4, "0")}   ${`${h.slice(0, 8).join(" ")}  ${h.slice(8).join(" ")}`.padEnd(48)}   ${ascii(c)}`);
    }
  }
  return lines.join("\n");
}

const CASES = {
  "spaced hex": [EXAMPLE_A_HEX, "hex"],
  "hex stream": [EXAMPLE_A_HEX.replace(/ /g, ""), "hex"],
  "0x, comma separated": [EXAMPLE_A_HEX.split(" ").map((b) => "0x" + b).join(", "), null],
  xxd: [dump("xxd"), "xxd"],
  "hexdump -C": [dump("hexdump"), "hexdump -C"],
  "wireshark hex dump": [dump("wireshark"), "wireshark"],
  base64: [toBase64(bytes), "base64"],
  "signed byte array": ["[" + [...bytes].map((b) => (b > 127 ? b - 256 : b)).join(", ") + "]", "byte-array"],
  "Java byte array": ["new byte[] {" + [...bytes].map((b) => "(byte)0x" + hex2(b)).join(", ") + "}", "byte-array"],
  "Python bytes literal": ["b'" + [...bytes].map((b) => (b >= 0x20 && b < 0x7f && b !== 39 && b !== 92 ? String.fromCharCode(b) : "\\x" + hex2(b))).join("") + "'", null],
};

for (const [name, [text, coreFormat]] of Object.entries(CASES)) {
  test(`parses ${name}`, () => {
    const r = parseInput(text);
    assert.equal(toHex(r.bytes), EXAMPLE_A_HEX);
    assert.deepEqual(pkg.detectInput(text), r, "the full and the decode-only packages agree");
    const core = pkg.decode(text, { records: false, spans: false });
    assert.equal(core.length, 70, `decode reads ${name} as 70 bytes too`);
    assert.equal(r.format, core.format);
    assert.deepEqual(r.stripped, core.stripped);
    if (coreFormat) assert.equal(r.format, coreFormat);
  });
}

test("a dump whose short last line is not padded still parses (the ASCII column is found by its length)", () => {
  const text = dump("wireshark").replace(/ +(\S+)$/, "   $1").replace(/(76 00) +/, "$1   ");
  assert.equal(toHex(parseInput(text).bytes), EXAMPLE_A_HEX);
});

test("errors are pinned on the character", () => {
  // (the core reads "0g" as a lone hex digit before a non-hex letter: "odd number of hex digits")
  for (const [text, at] of [["00 0g 11", 3], ["00 11 2", 6], ["hello world!", 11]]) {
    assert.throws(() => parseInput(text), (e) => e.name === "InvalidInput" && e.at === at, text);
  }
  // The page shows nothing for a blank text before asking the core, which calls it empty.
  assert.equal(decodePkg.detectInput("  \n").error.message, "empty input");
});

test("error positions index the JS string, not its UTF-8 bytes", () => {
  // NBSP separators are whitespace (2 UTF-8 bytes each): the lone digit is character 6, byte 8.
  const text = "00\u00a011\u00a02";
  const r = decodePkg.detectInput(text);
  assert.equal(r.error.name, "InvalidInput");
  assert.deepEqual([r.error.at, r.error.byteAt, text[r.error.at]], [6, 8, "2"]);
});

test("a forced format reads only that format (the hex / base64 attributes)", () => {
  const b64 = toBase64(bytes);
  assert.equal(toHex(parseInput(b64, { format: "base64" }).bytes), EXAMPLE_A_HEX);
  assert.equal(parseInput(EXAMPLE_A_HEX, { format: "hex" }).format, "hex");
  assert.equal(parseInput(dump("xxd"), { format: "hex" }).format, "xxd");
  assert.throws(() => parseInput(b64, { format: "hex" }), (e) => e.name === "InvalidInput");
  assert.throws(() => parseInput("[1, 2]", { format: "base64" }), (e) => e.name === "InvalidInput");
  assert.throws(() => decodePkg.detectInput("00", { format: "octal" }), /format must be "hex" or "base64"/);
});
