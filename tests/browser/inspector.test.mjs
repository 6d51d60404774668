// Browser tests of the Batch Inspector (<kafka-batch>, www/kafka-batch.js): the lab page
// and the one-script-tag embed page, in Debian's Chromium driven by playwright-core.
// Run: node --test tests/browser/      (needs `make pkg`, /usr/bin/chromium and `npm ci` in tests/)
// EOSLAB_SCREENSHOTS=/tmp saves light/dark screenshots of the page.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { launch, loadPkg, toHex, EXAMPLE_A_HEX, ROOT } from "./helpers.mjs";

const EXAMPLE_B_HEX =
  "00 00 00 00 00 00 00 00 00 00 00 48 ff ff ff ff 02 95 13 a2 2f 00 10 00 00 00 01 00 00 01 8b cf e5 68 00 00 00 01 8b cf e5 68 fa " +
  "00 00 00 00 00 00 10 92 00 01 00 00 00 08 00 00 00 02 18 00 00 00 02 6b 02 76 02 02 68 02 78 12 00 f4 03 02 04 6b 32 01 00";
const EXAMPLE_C_HEX =
  "00 00 00 00 00 00 00 0a 00 00 00 42 00 00 00 03 02 ab 14 49 b2 00 30 00 00 00 00 00 00 01 8b cf e5 69 f4 00 00 01 8b cf e5 69 f4 " +
  "00 00 00 00 00 00 10 92 00 01 ff ff ff ff 00 00 00 01 20 00 00 00 08 00 00 00 01 0c 00 00 00 00 00 07 00";
const XSS = "<img src=x onerror=alert(1)>";
/** The input byte map (the decompressed pane is a second .hexgrid). */
const MAP = "#batch .map-left > .hexgrid";

let env;
let page;
let pkg;

before(async () => {
  pkg = await loadPkg();
  env = await launch();
  page = env.page;
  // A page helper for the shadow root (an init script, so the page's CSP does not apply to it).
  await env.context.addInitScript(() => {
    globalThis.kbRoot = () => document.querySelector("kafka-batch").shadowRoot;
    // index.html imports its idempotence section (the models, pkg/eoslab_bg.wasm) when the section
    // nears the viewport (www/main.js), which these tests' scrolling would trigger: an observer that
    // never fires keeps it dormant, so the wasm requests below are the inspector's alone.
    if (location.pathname === "/www/") {
      globalThis.IntersectionObserver = class {
        observe() {}
        unobserve() {}
        disconnect() {}
        takeRecords() { return []; }
      };
    }
  });
  await page.goto(`${env.baseUrl}/`, { waitUntil: "load" });
  await page.waitForSelector('body[data-ready="1"]');
  await countDecodes();
});

after(async () => {
  await env?.close();
});

/** Installs a counter of kafka-batch:decode events (per page load). */
async function countDecodes() {
  await page.evaluate(() => {
    window.__decodes = 0;
    document.querySelector("kafka-batch").addEventListener("kafka-batch:decode", () => window.__decodes++);
  });
}

/** Types text into the input box (as a paste) and waits until it has been decoded. */
async function paste(text) {
  const n = await page.evaluate(() => window.__decodes);
  await page.fill("#input", text);
  await until((prev) => window.__decodes > prev, n);
}

const field = (name) => page.locator(`#fields tr[data-field="${name}"] td`).first();
const fieldText = async (name) => (await field(name).textContent()).trim();

/**
 * Polls fn(arg) in the page until it is truthy. (page.waitForFunction evaluates its predicate
 * with eval() in the page, which the page's CSP rightly forbids; page.evaluate does not.)
 */
async function until(fn, arg, timeout = 20_000) {
  const end = Date.now() + timeout;
  for (;;) {
    const v = await page.evaluate(fn, arg);
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${fn.toString().slice(0, 160)}`);
    await new Promise((r) => setTimeout(r, 40));
  }
}

const hlCells = () =>
  page.evaluate(() => [...kbRoot().querySelectorAll("#batch .map-left > .hexgrid .b.hl")].map((c) => Number(c.dataset.pos)));

/** The deepest focused element: [role, id, aria-activedescendant]. */
const focused = () =>
  page.evaluate(() => {
    let a = document.activeElement;
    while (a?.shadowRoot?.activeElement) a = a.shadowRoot.activeElement;
    return { role: a?.getAttribute("role") ?? a?.tagName.toLowerCase(), text: a?.textContent?.slice(0, 40), active: a?.getAttribute("aria-activedescendant") ?? "" };
  });

test("paste a hex batch: detected format, field values, byte highlighting both ways", { timeout: 60_000 }, async () => {
  // An xxd dump of Example A: the offset and ASCII columns are stripped.
  const bytes = Uint8Array.from(EXAMPLE_A_HEX.split(" "), (b) => parseInt(b, 16));
  const lines = [];
  for (let off = 0; off < bytes.length; off += 16) {
    const chunk = [...bytes.subarray(off, off + 16)];
    const groups = [];
    for (let i = 0; i < chunk.length; i += 2) groups.push(chunk.slice(i, i + 2).map((b) => b.toString(16).padStart(2, "0")).join(""));
    const ascii = chunk.map((b) => (b >= 0x20 && b < 0x7f ? String.fromCharCode(b) : ".")).join("");
    lines.push(`${off.toString(16).padStart(8, "0")}: ${groups.join(" ").padEnd(39)}  ${ascii}`);
  }
  await paste(lines.join("\n"));
  assert.match(await page.locator("#detected").textContent(), /xxd.*offset column.*ASCII column.*70 bytes/);
  assert.equal(await fieldText("producerId"), "4242");
  assert.equal(await fieldText("producerEpoch"), "1");
  assert.equal(await fieldText("baseSequence"), "7");
  assert.match(await fieldText("crc"), /0x8c4a545e/);
  assert.equal(await fieldText("crcValid"), "true");
  assert.match(await fieldText("lastSequence"), /^7$/);
  assert.match(await fieldText("records[0].key"), /6b\s+"k"/);
  assert.match(await page.locator("#fields tr[data-field='producerId']").textContent(), /producerId · PRODUCER_ID_OFFSET \(43\)/);
  assert.match(await page.locator("#producer").textContent(), /Idempotent producer 4242, epoch 1: records carry sequences 7–7/);

  // Byte → field: hovering byte 45 (inside producerId, 43..50) highlights all of producerId and its row.
  await page.hover(`${MAP} .b[data-pos="45"]`);
  await until(() => { const root = kbRoot(); return root.querySelector('#fields tr[data-field="producerId"]').classList.contains("hl"); });
  assert.deepEqual(await hlCells(), [43, 44, 45, 46, 47, 48, 49, 50]);
  assert.match(await page.locator("#where").textContent(), /producerId.*bytes 43–50.*4242/s);

  // Field → bytes: hovering the baseSequence row highlights bytes 53..56 only.
  await page.hover('#fields tr[data-field="baseSequence"] td.v');
  await until(() => { const root = kbRoot(); return root.querySelector('#batch .map-left > .hexgrid .b[data-pos="53"]').classList.contains("hl"); });
  assert.deepEqual(await hlCells(), [53, 54, 55, 56]);
  // A record field: the key byte (66).
  await page.hover('#fields tr[data-field="records[0].key"] td.v');
  await until(() => { const root = kbRoot(); return root.querySelector('#batch .map-left > .hexgrid .b[data-pos="66"]').classList.contains("hl"); });
  assert.deepEqual(await hlCells(), [66]);
  // Labels readable without colour: every row of the map names the fields starting on it.
  const labels = await page.evaluate(() => [...kbRoot().querySelectorAll("#batch .map-left > .hexgrid .hg-row:not([hidden]) .labels")].map((l) => l.textContent));
  assert.equal(labels[1].split(" ")[0], "mg");
  assert.match(labels[3], /pid|ep/);
});

test("an uncompressed transactional batch (Example B): records, header, null value, sequences", { timeout: 60_000 }, async () => {
  await paste(EXAMPLE_B_HEX);
  assert.equal(await fieldText("attributes.transactional"), "true");
  assert.equal(await fieldText("attributes.compression"), "none");
  const r0 = await page.locator('#records tr[data-record="0"]').textContent();
  const r1 = await page.locator('#records tr[data-record="1"]').textContent();
  assert.match(r0, /6b\s+"k"/);
  assert.match(r0, /"h" = 78\s+"x"/);
  assert.match(r1, /1700000000250/);
  assert.match(r1, /null/);
  assert.equal((await page.locator('#records tr[data-record="1"] td').nth(3).textContent()).trim(), "9");
  assert.match(await fieldText("records[1].valueLength"), /-1 \(null value: a tombstone\)/);
  assert.match(await page.locator("#producer").textContent(), /Transactional: read_committed consumers/);
  assert.match(await page.locator("#errors").textContent(), /No errors/);
});

test("a zstd batch: compressed payload as one span, decompressed pane linked, ratio", { timeout: 60_000 }, async () => {
  const bytes = pkg.encodeBatch({
    header: { attributes: { compression: "zstd" }, producerId: 77, producerEpoch: 2, baseSequence: 100, baseTimestamp: 1700000000000 },
    records: [
      { keyText: "alpha", valueText: "the quick brown fox jumps over the lazy dog ".repeat(4), headers: [{ key: "trace", valueText: "t-1" }] },
      { offsetDelta: 1, keyText: "beta", valueText: "the quick brown fox jumps over the lazy dog ".repeat(4) },
    ],
  });
  await paste(toHex(bytes));
  assert.equal(await fieldText("attributes.compression"), "zstd");
  assert.match(await page.locator("#ratio").textContent(), /zstd: the compressed payload \(bytes 61–\d+, \d+ bytes\) inflates to \d+ bytes of records: compression ratio \d+\.\d\d : 1/);
  const zipRow = page.locator('#fields tr[data-field="compressedRecords"]');
  assert.equal((await zipRow.locator("td").nth(1).textContent()).trim(), "61");
  assert.match(await page.locator('#records tr[data-record="0"]').textContent(), /"alpha"/);
  assert.match(await page.locator('#records tr[data-record="1"]').textContent(), /"beta"/);
  assert.equal((await page.locator('#records tr[data-record="1"] td').nth(3).textContent()).trim(), "101");
  // The whole payload is one field in the input map.
  const len = bytes.length;
  await page.hover(`${MAP} .b[data-pos="70"]`);
  await until(() => { const root = kbRoot(); return root.querySelector('#fields tr[data-field="compressedRecords"]').classList.contains("hl"); });
  const main = await page.evaluate(() => kbRoot().querySelectorAll("#batch .map-left > .hexgrid .b.hl").length);
  assert.ok(main >= 16, `compressed span highlighted in view (${main})`);
  // Hovering the key in the decompressed pane highlights it there, and the payload in the input map.
  const keyRow = page.locator('#fields tr[data-field="records[0].key"]');
  assert.match(await keyRow.textContent(), /decompressed/);
  assert.match(await keyRow.locator("td").nth(1).textContent(), /dec\+\d+/);
  await keyRow.locator("td.v").hover();
  await until(() => { const root = kbRoot(); return root.querySelectorAll("#dec .b.hl").length === 5; });
  assert.deepEqual(await page.evaluate(() => [...kbRoot().querySelectorAll("#dec .b.hl")].map((c) => c.textContent).join(" ")), "61 6c 70 68 61");
  assert.ok(len > 61);
});

test("the byte map exports as SVG (shapes and text) and PNG, with a caption naming the batch", { timeout: 60_000 }, async () => {
  await paste(EXAMPLE_A_HEX);
  const svg = await page.evaluate(() => document.querySelector("kafka-batch").exportPicture("svg"));
  const m = await page.evaluate((text) => {
    const doc = new DOMParser().parseFromString(text, "image/svg+xml");
    const texts = [...doc.querySelectorAll("text")].map((t) => t.textContent);
    return {
      root: doc.documentElement.localName, error: !!doc.querySelector("parsererror"),
      title: doc.querySelector("title")?.textContent ?? "",
      hexCells: texts.filter((t) => /^[0-9a-f]{2}$/.test(t)),
      fills: new Set([...doc.querySelectorAll("rect")].map((r) => r.getAttribute("fill"))).size,
      texts,
    };
  }, svg);
  assert.equal(m.root, "svg");
  assert.equal(m.error, false);
  assert.match(m.title, /^Batch 1: record batch v2, baseOffset 0, producerId 4242, epoch 1, baseSequence 7, 1 record\(s\); bytes 0–69\./);
  // Every byte drawn, in order, as the grid shows it; the field tints and the field tags too.
  assert.deepEqual(m.hexCells, EXAMPLE_A_HEX.split(" "));
  assert.ok(m.fills >= 8, `field kinds are tinted (${m.fills} fills)`);
  const gridTags = await page.evaluate(() => [...kbRoot().querySelectorAll("#legend li .sw")].map((s) => s.textContent).filter((t) => /^[a-z]/i.test(t)));
  for (const tag of gridTags) assert.ok(m.texts.includes(tag), `legend tag ${tag} drawn`);
  assert.ok(m.texts.some((t) => t.startsWith("Batch 1: record batch v2")), "the caption is text in the picture");
  // The PNG: the same drawing at 2 px per CSS px.
  const png = await page.evaluate(async () => {
    const blob = await document.querySelector("kafka-batch").exportPicture("png");
    const bmp = await createImageBitmap(blob);
    const svgEl = new DOMParser().parseFromString(document.querySelector("kafka-batch").exportPicture("svg"), "image/svg+xml").documentElement;
    return { type: blob.type, size: blob.size, w: bmp.width, h: bmp.height, svgW: Number(svgEl.getAttribute("width")), svgH: Number(svgEl.getAttribute("height")) };
  });
  assert.equal(png.type, "image/png");
  assert.ok(png.size > 2000, `a drawn PNG (${png.size} bytes)`);
  assert.equal(png.w, png.svgW * 2);
  assert.equal(png.h, png.svgH * 2);
  // The toolbar's buttons download both files.
  for (const [id, ext] of [["#save-svg", "svg"], ["#save-png", "png"]]) {
    const [dl] = await Promise.all([page.waitForEvent("download"), page.click(id)]);
    assert.equal(dl.suggestedFilename(), `kafka-batch-1-byte-map.${ext}`);
  }
  // A compressed payload is drawn hatched, as in the grid.
  const zstd = pkg.encodeBatch({ header: { attributes: { compression: "zstd" }, producerId: 77, baseTimestamp: 1700000000000 },
    records: [{ keyText: "k", valueText: "the quick brown fox jumps over the lazy dog ".repeat(4) }] });
  await paste(toHex(zstd));
  assert.match(await page.evaluate(() => document.querySelector("kafka-batch").exportPicture("svg")), /<pattern id="h0"/);
});

test("a control batch: COMMIT marker with coordinator epoch", { timeout: 60_000 }, async () => {
  await paste(EXAMPLE_C_HEX);
  assert.match(await page.locator("#producer .marker").textContent(), /COMMIT coordinatorEpoch 7/);
  assert.match(await page.locator("#batch-title").textContent(), /COMMIT marker/);
  assert.equal(await fieldText("records[0].key.type"), "1 (COMMIT)");
  assert.equal(await fieldText("records[0].value.coordinatorEpoch"), "7");
  assert.equal(await fieldText("attributes.control"), "true");
  assert.equal(await fieldText("baseSequence"), "-1 (NO_SEQUENCE)");
  assert.match(await page.locator('#records tr[data-record="0"]').textContent(), /COMMIT key.*coordinatorEpoch 7/);
});

test("a corrupted CRC is pinned on its byte and 'Fix CRC' repairs it", { timeout: 60_000 }, async () => {
  const bytes = EXAMPLE_A_HEX.split(" ");
  bytes[30] = (parseInt(bytes[30], 16) ^ 0x01).toString(16).padStart(2, "0");
  await paste(bytes.join(" "));
  const error = page.locator('#errors li[data-kind="CorruptRecordException"]').first();
  await error.waitFor();
  assert.match(await error.textContent(), /@17\b.*CorruptRecordException.*stored crc = 2353681502/);
  assert.match(await error.textContent(), /CORRUPT_MESSAGE/);
  assert.equal(await fieldText("crcValid"), "false");
  assert.equal(await fieldText("producerId"), "4242", "the part that decoded is still shown");
  assert.ok(await page.evaluate(() => kbRoot().querySelector('#batch .map-left > .hexgrid .b[data-pos="17"]').classList.contains("err")));
  assert.match(await page.locator('#checks tr[data-check="CRC-32C"]').textContent(), /✗ mismatch/);
  // Clicking the error moves the byte focus to it.
  await error.locator("button.at").click();
  await until(() => { const root = kbRoot(); return root.querySelector("#batch .map-left > .hexgrid .hg-view").getAttribute("aria-activedescendant")?.endsWith("-17"); });
  assert.equal(await page.locator("#btn-fix").isDisabled(), false);
  await page.click("#btn-fix");
  await until(() => { const root = kbRoot(); return root.querySelector('#fields tr[data-field="crcValid"] td').textContent.trim() === "true"; });
  assert.match(await page.locator("#errors").textContent(), /No errors/);
  assert.equal(await page.locator("#btn-fix").isDisabled(), true);
  const fixed = await fieldText("crc");
  assert.doesNotMatch(fixed, /0x8c4a545e/);
  assert.match(await page.locator("#input").inputValue(), new RegExp(fixed.slice(2, 4)));
  // Decoding every kind of batch and fixing a CRC need only the decode-only package: the encoder
  // (the full pkg/eoslab_bg.wasm) has not been fetched yet.
  assert.deepEqual([...new Set(env.wasmRequests.map((r) => r.path))], ["/pkg/eoslab-decode_bg.wasm"]);
});

test("editing producerEpoch loads the encoder on demand, re-encodes the batch and the CRC changes", { timeout: 60_000 }, async () => {
  await paste(EXAMPLE_A_HEX);
  assert.match(await fieldText("crc"), /0x8c4a545e/);
  const FULL_WASM = "**/pkg/eoslab_bg.wasm";
  // Opening the form starts loading the encoder (pkg/eoslab.js); here its wasm fails to load first:
  // the failure is shown as text and the form stays usable.
  const consoleBefore = env.consoleErrors.length;
  await page.route(FULL_WASM, (route) => route.abort());
  await page.click("#btn-edit");
  await page.locator("#edit-producerEpoch").waitFor();
  await page.locator("#edit-status.bad", { hasText: "Could not load the encoder (pkg/eoslab.js)" }).waitFor();
  await page.unroute(FULL_WASM);
  // The aborted request's console line is the one expected error of this page.
  for (let t = 0; t < 50 && env.consoleErrors.length === consoleBefore; t++) await new Promise((r) => setTimeout(r, 40));
  const added = env.consoleErrors.splice(consoleBefore);
  assert.ok(added.every((m) => /Failed to load resource/.test(m)), added.join("\n"));
  // The next change tries again; while the (held back) wasm loads, the status says so.
  let release;
  const held = new Promise((r) => (release = r));
  await page.route(FULL_WASM, async (route) => {
    await held;
    await route.continue();
  });
  const n = await page.evaluate(() => window.__decodes);
  await page.fill("#edit-producerEpoch", "2");
  await page.locator("#edit-status", { hasText: "Loading the encoder (pkg/eoslab.js)…" }).waitFor();
  assert.equal(await page.evaluate(() => window.__decodes), n, "nothing re-encoded before the encoder is there");
  release();
  await until((prev) => window.__decodes > prev, n);
  await page.unroute(FULL_WASM);
  assert.equal(await fieldText("producerEpoch"), "2");
  assert.doesNotMatch(await fieldText("crc"), /0x8c4a545e/);
  assert.equal(await fieldText("crcValid"), "true");
  assert.deepEqual(await page.evaluate(() => [51, 52].map((p) => kbRoot().querySelector(`#batch .map-left > .hexgrid .b[data-pos="${p}"]`).textContent)), ["00", "02"]);
  assert.match(await page.locator("#edit-status").textContent(), /Re-encoded with encodeBatch: 70 bytes, crc 0x[0-9a-f]{8} \(valid\)/);
  // The form keeps focus while it re-encodes; an invalid value is refused, not encoded.
  await page.fill("#edit-producerEpoch", "x");
  await page.locator("#edit-producerEpoch[aria-invalid='true']").waitFor();
  assert.match(await page.locator("#edit-status").textContent(), /Not re-encoded/);
  assert.equal(await fieldText("producerEpoch"), "2");
  await page.click("#btn-edit");
});

test("compare mode: a retry is recognised as a duplicate; exports", { timeout: 60_000 }, async () => {
  await paste(EXAMPLE_A_HEX);
  await page.click("#btn-compare");
  await page.click("#compare-retry");
  await page.locator("#compare-verdict").waitFor();
  assert.match(await page.locator("#compare-verdict").textContent(), /^Duplicate: same producerId 4242, epoch 1 and sequences 7–7/);
  await page.click("#compare-next");
  await until(() => /In sequence/.test(kbRoot().querySelector("#compare-verdict")?.textContent));
  assert.match(await page.locator("#compare-out").textContent(), /baseSequence.*7.*8.*≠ differs/s);
  await page.click("#compare-fenced");
  await until(() => /older/.test(kbRoot().querySelector("#compare-verdict")?.textContent));
  await page.click("#btn-compare");

  await page.click("#copy-dump");
  assert.match(await page.locator("#export").inputValue(),
    /^baseOffset: 0 lastOffset: 0 count: 1 baseSequence: 7 lastSequence: 7 producerId: 4242 producerEpoch: 1 partitionLeaderEpoch: -1 isTransactional: false isControl: false deleteHorizonMs: OptionalLong.empty position: 0 CreateTime: 1700000000000 size: 70 magic: 2 compresscodec: none crc: 2353681502 isvalid: true\n\| offset: 0 CreateTime: 1700000000000 keySize: 1 valueSize: 1 sequence: 7 headerKeys: \[\]$/);
  await page.click("#copy-json");
  const json = JSON.parse(await page.locator("#export").inputValue());
  assert.equal(json.batches[0].header.producerId, "4242");
  assert.equal(json.batches[0].fields.find((f) => f.name === "crc").start, 17);
  await page.click("#copy-base64");
  assert.equal(await page.locator("#export").inputValue(), Buffer.from(EXAMPLE_A_HEX.replace(/ /g, ""), "hex").toString("base64"));
  await page.click("#copy-hex");
  assert.equal((await page.locator("#export").inputValue()).replace(/\s+/g, " "), EXAMPLE_A_HEX);
});

test("record keys, values and headers are text: an <img onerror> value stays inert", { timeout: 60_000 }, async () => {
  const bytes = pkg.encodeBatch({
    header: { producerId: 1, producerEpoch: 0, baseSequence: 0 },
    records: [{ keyText: XSS, valueText: XSS, headers: [{ key: XSS, valueText: XSS }] }],
  });
  await paste(toHex(bytes));
  const row = await page.locator('#records tr[data-record="0"]').textContent();
  assert.ok(row.includes(`"${XSS}"`), row);
  assert.ok((await fieldText("records[0].value")).includes(XSS));
  assert.ok((await fieldText("records[0].headers[0].key")).includes(XSS));
  await page.click("#copy-dump");
  await page.waitForTimeout(300);
  const imgs = await page.evaluate(() => {
    let n = document.querySelectorAll("img").length;
    for (const host of document.querySelectorAll("*")) if (host.shadowRoot) n += host.shadowRoot.querySelectorAll("img").length;
    return n;
  });
  assert.equal(imgs, 0, "no <img> element was created");
  assert.deepEqual(env.dialogs, [], "no dialog fired");
});

test("'Read records as' shows the console consumer's formatter text per record, as text", { timeout: 60_000 }, async () => {
  // __transaction_state record: key type 0 + TransactionalId; value v1 (Kafka 4.x
  // TransactionLogMessageFormatterTest's value: producerId 100, epoch 50, CompleteCommit).
  const id = new TextEncoder().encode(XSS);
  const key = "0000" + id.length.toString(16).padStart(4, "0") + toHex(id).replace(/ /g, "");
  const value = "0001" + "0000000000000064" + "0032" + "000001f4" + "04" + "01" + "00000000000003e8" + "00000000000002ee" + "00";
  await paste(toHex(pkg.encodeBatch({ records: [{ key, value }, { key, value: null }] })));
  assert.equal(await page.locator('#records tr[data-formatted="0"]').count(), 0, "off by default");
  await page.selectOption("#read-as", "transaction-log");
  const row = page.locator('#records tr[data-formatted="0"]');
  await row.waitFor();
  assert.equal(
    (await row.locator("td.formatted-text").textContent()).trim(),
    `{"key":{"type":0,"data":{"transactionalId":"${XSS}"}},"value":{"version":1,"data":{"producerId":100,"producerEpoch":50,` +
      '"transactionTimeoutMs":500,"transactionStatus":4,"transactionPartitions":[],"transactionLastUpdateTimestampMs":1000,' +
      '"transactionStartTimestampMs":750}}}',
  );
  assert.ok((await page.locator('#records tr[data-formatted="1"]').textContent()).includes('"value":null'));
  // The same bytes read as __consumer_offsets do not parse: the row says so, Problems pins it.
  await page.selectOption("#read-as", "offsets");
  await until(() => kbRoot().querySelector('#records tr[data-formatted="0"]')?.textContent.includes("not readable"));
  assert.ok((await page.locator('#errors li[data-kind="RuntimeException"]').count()) >= 1);
  const imgs = await page.evaluate(() => kbRoot().querySelectorAll("img").length);
  assert.equal(imgs, 0, "the formatted text is text");
  await page.selectOption("#read-as", "");
  await until(() => !kbRoot().querySelector("#records tr[data-formatted]"));
});

test("a generated 10,000-batch segment opens with a virtualized list, scrolls, and opens batches on demand", { timeout: 120_000 }, async () => {
  const specs = [];
  for (let i = 0; i < 10000; i++) {
    specs.push({
      header: { baseOffset: i * 2, producerId: 500 + (i % 3), producerEpoch: 0, baseSequence: Math.floor(i / 3) * 2, baseTimestamp: 1700000000000 + i,
        attributes: { compression: i % 50 === 49 ? "zstd" : "none" } },
      records: [{ keyText: `key-${i}`, valueText: `value ${i}` }, { offsetDelta: 1, valueText: `v${i}` }],
    });
  }
  const segment = pkg.encodeSegment(specs);
  const n = await page.evaluate(() => window.__decodes);
  await page.setInputFiles("#file", { name: "00000000000000000000.log", mimeType: "application/octet-stream", buffer: Buffer.from(segment) });
  await until((prev) => window.__decodes > prev, n);
  assert.match(await page.locator("#summary").textContent(), /10,000 batches/);
  const listbox = page.locator('[role="listbox"]');
  const rendered = await page.evaluate(() => kbRoot().querySelectorAll('[role="option"]:not([hidden])').length);
  assert.ok(rendered > 0 && rendered <= 12, `only the rows in view exist (${rendered})`);
  assert.equal(await page.locator('[role="option"][aria-posinset="1"]').getAttribute("aria-setsize"), "10000");
  // Headers are checked in a worker; the page stays responsive meanwhile.
  await page.locator("#progress", { hasText: "Checked all 10,000 batch headers" }).waitFor({ timeout: 60_000 });
  // The worker's counts (decode's summary), every batch once.
  assert.match(await page.locator("#summary").textContent(), /20,000 records · none 9,800, zstd 200 · 0 transactional · 0 control · 0 bad CRC/);
  // Scroll the list with the wheel: rows far down are rendered.
  await listbox.hover();
  await page.mouse.wheel(0, 60_000);
  await until(() => { const root = kbRoot(); return Number(root.querySelector('[role="option"]:not([hidden])').getAttribute("aria-posinset")) > 1000; });
  // Keyboard: End selects (and opens) the last batch, whose records are decoded only now.
  await listbox.focus();
  await page.keyboard.press("End");
  await until(() => { const root = kbRoot(); return /^Batch 9999:/.test(root.querySelector("#batch-title").textContent); });
  assert.equal(await page.locator('[role="option"][aria-posinset="10000"]').getAttribute("aria-selected"), "true");
  assert.match(await page.locator('#records tr[data-record="0"]').textContent(), /"key-9999"/);
  assert.equal(await fieldText("baseOffset"), "19998");
  // Click a row to open it.
  await page.keyboard.press("ArrowUp");
  await until(() => { const root = kbRoot(); return /^Batch 9998:/.test(root.querySelector("#batch-title").textContent); });
  await page.locator('[role="option"][aria-posinset="9997"]').click();
  await until(() => { const root = kbRoot(); return /^Batch 9996:/.test(root.querySelector("#batch-title").textContent); });
  assert.match(await page.locator('#records tr[data-record="0"]').textContent(), /"key-9996"/);
  assert.equal(await page.evaluate(() => document.querySelector("kafka-batch").getAttribute("batch")), "9996");
});

test("keyboard only: Tab to the byte map, arrows move the byte focus, the field is announced", { timeout: 60_000 }, async () => {
  await page.goto(`${env.baseUrl}/`, { waitUntil: "load" });
  await page.waitForSelector('body[data-ready="1"]');
  await countDecodes();
  let tabs = 0;
  for (; tabs < 40; tabs++) {
    await page.keyboard.press("Tab");
    if ((await focused()).role === "grid") break;
  }
  assert.ok(tabs < 40, "the byte map is reachable with Tab");
  assert.match((await focused()).active, /-0$/, "focus starts on byte 0");
  await page.keyboard.press("ArrowDown");
  await page.keyboard.press("ArrowDown");
  for (let i = 0; i < 11; i++) await page.keyboard.press("ArrowRight");
  assert.match((await focused()).active, /-43$/);
  await until(() => { const root = kbRoot(); return /Field producerId, bytes 43–50: 4242/.test(root.querySelector("#live").textContent); });
  assert.equal(await page.locator("#live").getAttribute("aria-live"), "polite");
  await page.keyboard.press("End");
  assert.match((await focused()).active, /-47$/);
  await page.keyboard.press("Control+End");
  assert.match((await focused()).active, /-69$/);
  await until(() => { const root = kbRoot(); return /headersCount/.test(root.querySelector("#live").textContent); });
  // Typing two hex digits over a byte edits it (the CRC breaks); Fix CRC by keyboard.
  await page.keyboard.press("Control+Home");
  for (let i = 0; i < 30; i++) await page.keyboard.press("ArrowRight");
  const n = await page.evaluate(() => window.__decodes);
  await page.keyboard.type("ff");
  await until((prev) => window.__decodes > prev, n);
  assert.equal(await fieldText("crcValid"), "false");
  // Tab onwards into the field table: arrow keys move between fields, Enter jumps to the bytes.
  for (tabs = 0; tabs < 10; tabs++) {
    await page.keyboard.press("Tab");
    if ((await focused()).text?.trim() === "baseOffset") break;
  }
  assert.ok(tabs < 10, "the field table follows the map in tab order");
  await page.keyboard.press("ArrowDown");
  assert.equal((await focused()).text.trim(), "batchLength");
  await page.keyboard.press("Enter");
  assert.equal((await focused()).role, "grid");
  assert.match((await focused()).active, /-8$/);
  await until(() => { const root = kbRoot(); return /Field batchLength/.test(root.querySelector("#live").textContent); });
  // Shift+Tab back to the toolbar's Fix CRC button and press it.
  for (tabs = 0; tabs < 12; tabs++) {
    await page.keyboard.press("Shift+Tab");
    if ((await focused()).text?.trim() === "Fix CRC") break;
  }
  assert.ok(tabs < 12, "Fix CRC is reachable by keyboard");
  await page.keyboard.press("Enter");
  await until(() => { const root = kbRoot(); return root.querySelector('#fields tr[data-field="crcValid"] td').textContent.trim() === "true"; });
});

test("axe-core finds no accessibility violations (light and dark, with the edit and compare panels open)", { timeout: 120_000 }, async () => {
  const axeSource = readFileSync(join(ROOT, "tests/node_modules/axe-core/axe.min.js"), "utf8");
  const scan = async (label) => {
    await page.evaluate(axeSource); // evaluated through the devtools protocol, so the page's CSP does not apply
    const result = await page.evaluate(() => window.axe.run(document, { resultTypes: ["violations"] }));
    const summary = result.violations.map((v) => `${v.id}: ${v.help} (${v.nodes.length}) ${v.nodes.slice(0, 3).map((n) => JSON.stringify(n.target)).join(" ")}`);
    assert.deepEqual(summary, [], `${label}: ${summary.join("\n")}`);
  };
  await page.goto(`${env.baseUrl}/`, { waitUntil: "load" });
  await page.waitForSelector('body[data-ready="1"]');
  await countDecodes();
  await scan("default page");
  await paste(EXAMPLE_C_HEX);
  await page.click("#btn-edit");
  await page.click("#btn-compare");
  await page.click("#compare-retry");
  await page.hover(`${MAP} .b[data-pos="45"]`);
  await scan("marker with edit + compare");
  await page.click('button[data-sample="zstd"]');
  await page.locator("#dec:not([hidden])").waitFor();
  await page.emulateMedia({ colorScheme: "dark" });
  await scan("zstd batch, dark");
  await page.click('button[data-sample="segment"]');
  await page.locator("#summary", { hasText: "10,000 batches" }).waitFor();
  await scan("segment list, dark");
  await page.emulateMedia({ colorScheme: "light" });
  if (process.env.EOSLAB_SCREENSHOTS) await page.screenshot({ path: join(process.env.EOSLAB_SCREENSHOTS, "inspector-segment.png"), fullPage: true });
});

test("the compare builders and the segment sample load the encoder on demand, with a status meanwhile", { timeout: 120_000 }, async () => {
  const FULL_WASM = "**/pkg/eoslab_bg.wasm";
  const hold = async () => {
    let release;
    const held = new Promise((r) => (release = r));
    await page.route(FULL_WASM, async (route) => {
      await held;
      await route.continue();
    });
    return release;
  };
  const reload = async () => {
    await page.goto(`${env.baseUrl}/`, { waitUntil: "load" });
    await page.waitForSelector('body[data-ready="1"]');
    await countDecodes();
  };
  // "B = A's next batch" on a fresh page: the encoder is not there yet.
  await reload();
  await paste(EXAMPLE_A_HEX);
  await page.click("#btn-compare");
  let release = await hold();
  await page.click("#compare-next");
  await page.locator("#compare-out", { hasText: "Loading the encoder (pkg/eoslab.js)…" }).waitFor();
  release();
  await until(() => /In sequence/.test(kbRoot().querySelector("#compare-verdict")?.textContent));
  await page.unroute(FULL_WASM);
  await page.click("#btn-compare");
  // The segment sample on a fresh page: the page's status line says what it waits for.
  await reload();
  release = await hold();
  await page.click('button[data-sample="segment"]');
  await page.locator("#sample-status", { hasText: "Loading the encoder (pkg/eoslab.js)…" }).waitFor();
  release();
  await page.locator("#summary", { hasText: "10,000 batches" }).waitFor();
  assert.equal((await page.locator("#sample-status").textContent()).trim(), "");
  await page.unroute(FULL_WASM);
  // The zstd sample is a constant (www/lib/samples.js): it needs no encoder.
  await page.click('button[data-sample="zstd"]');
  await page.locator("#dec:not([hidden])").waitFor();
  assert.equal(await fieldText("crcValid"), "true");
});

test("the inspector decoded with pkg/eoslab-decode_bg.wasm and fetched the full pkg/eoslab_bg.wasm only to encode", () => {
  const paths = [...new Set(env.wasmRequests.filter((r) => r.page === "/www/").map((r) => r.path))];
  // Decode-only first (page load); the full package only once the edit form needed the encoder
  // (the Fix CRC test above checks that nothing before it fetched it).
  assert.deepEqual(paths, ["/pkg/eoslab-decode_bg.wasm", "/pkg/eoslab_bg.wasm"]);
});

test("the embed page works with one script tag: readonly, no input box, wasm found by itself", { timeout: 60_000 }, async () => {
  await page.goto(`${env.baseUrl}/www/embed-example.html`, { waitUntil: "load" });
  // One script tag for the inspector (the page's other one is <kafka-timeline>'s own one tag).
  const scripts = await page.locator("script").evaluateAll((els) => els.map((e) => e.getAttribute("src")));
  assert.deepEqual(scripts.filter((src) => !src?.endsWith("kafka-timeline.js")), ["./kafka-batch.js"]);
  const a = page.locator("#example-a");
  await a.locator('#fields tr[data-field="producerId"] td').first().waitFor();
  assert.equal((await a.locator('#fields tr[data-field="producerId"] td').first().textContent()).trim(), "4242");
  assert.equal(await a.locator(".input-box").isHidden(), true);
  assert.equal(await a.locator("#btn-edit").isHidden(), true);
  const c = page.locator("#example-c");
  await c.locator("#producer .marker").waitFor();
  assert.match(await c.locator("#producer .marker").textContent(), /COMMIT coordinatorEpoch 7/);
  // Readonly: typing over a byte does nothing.
  await a.locator("#batch .map-left > .hexgrid .hg-view").focus();
  await page.keyboard.type("ff");
  assert.equal((await a.locator('#batch .map-left > .hexgrid .b[data-pos="0"]').textContent()), "00");
  for (const scheme of ["light", "dark"]) {
    await page.emulateMedia({ colorScheme: scheme });
    if (process.env.EOSLAB_SCREENSHOTS) await page.screenshot({ path: join(process.env.EOSLAB_SCREENSHOTS, `embed-${scheme}.png`), fullPage: true });
  }
  await page.emulateMedia({ colorScheme: "light" });
});

test("no console errors, no page errors, no requests off 127.0.0.1, no dialogs", () => {
  assert.deepEqual(env.pageErrors, []);
  assert.deepEqual(env.consoleErrors, []);
  assert.deepEqual(env.foreignRequests, []);
  assert.deepEqual(env.dialogs, []);
});
