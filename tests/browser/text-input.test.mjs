// Node test of www/lib/text-input.js, the page's paste parser (the page needs the bytes to draw
// the byte map, which decode() does not return): every layout gives Example A's 70 bytes, and the
// core's own text detection (decode of the same text) agrees on the format and the length.
// Run: node --test tests/browser/      (needs `make pkg`)
import { test } from "node:test";
import assert from "node:assert/strict";
import { parseInput, InputError, toBase64, toHex } from "../../www/lib/text-input.js";
import { loadPkg, EXAMPLE_A_HEX } from "./helpers.mjs";

const pkg = await loadPkg();
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
    const core = pkg.decode(text, { records: false, spans: false });
    assert.equal(core.length, 70, `the core reads ${name} as 70 bytes too`);
    if (coreFormat) {
      assert.equal(r.format, coreFormat);
      assert.equal(core.format, coreFormat);
    }
  });
}

test("a dump whose short last line is not padded still parses (the ASCII column is found by its length)", () => {
  const text = dump("wireshark").replace(/ +(\S+)$/, "   $1").replace(/(76 00) +/, "$1   ");
  assert.equal(toHex(parseInput(text).bytes), EXAMPLE_A_HEX);
});

test("errors are pinned on the character", () => {
  for (const [text, at] of [["00 0g 11", 4], ["00 11 2", 6], ["hello world!", 11]]) {
    assert.throws(() => parseInput(text), (e) => e instanceof InputError && e.at === at, text);
  }
  assert.equal(parseInput("  \n").bytes.length, 0);
});
