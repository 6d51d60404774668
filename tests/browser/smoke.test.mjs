// Browser smoke test: the page in www/ with the built pkg/, served by scripts/serve.py on
// 127.0.0.1, in Debian's Chromium driven by playwright-core (which downloads no browser).
// Run: node --test tests/browser/      (needs `make pkg` and /usr/bin/chromium)
// EOSLAB_SCREENSHOT=/tmp/page.png saves a screenshot of the decoded sample.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { launch, EXAMPLE_A_HEX } from "./helpers.mjs";

// Server, Chromium (fresh --user-data-dir) and the console/page-error/foreign-request recorders
// live in helpers.mjs, shared with the other browser tests.
let env;
let page;

before(async () => {
  env = await launch({ colorScheme: "light" });
  page = env.page;
});

after(async () => {
  await env?.close();
});

const cell = (field) => page.locator(`tr[data-field="${field}"] td`).first();

test("the page loads, decodes the built-in sample and sets data-ready", { timeout: 60_000 }, async () => {
  const response = await page.goto(`${env.baseUrl}/`, { waitUntil: "load" });
  assert.equal(response.status(), 200);
  assert.ok(page.url().endsWith("/www/"), `redirected to /www/, got ${page.url()}`);
  await page.waitForSelector('body[data-ready="1"]');
  assert.equal((await cell("producerId").textContent()).trim(), "4242");
  assert.equal((await cell("producerEpoch").textContent()).trim(), "1");
  assert.equal((await cell("baseSequence").textContent()).trim(), "7");
  assert.equal((await cell("crcValid").textContent()).trim(), "true");
  assert.match(await cell("crc").textContent(), /0x8c4a545e/);
  assert.match(await page.locator("#errors").textContent(), /No errors/);
  const record = page.locator('tr[data-record="0"]');
  assert.match(await record.textContent(), /6b\s+"k"/);
  assert.match(await record.textContent(), /76\s+"v"/);
  assert.match(await page.locator("#version").textContent(), /eoslab \d+\.\d+\.\d+/);
  if (process.env.EOSLAB_SCREENSHOT) await page.screenshot({ path: process.env.EOSLAB_SCREENSHOT, fullPage: true });
});

test("pasting a corrupted batch shows the CRC error", { timeout: 60_000 }, async () => {
  const bytes = EXAMPLE_A_HEX.split(" ");
  bytes[30] = (parseInt(bytes[30], 16) ^ 0x01).toString(16).padStart(2, "0");
  await page.fill("#input", bytes.join(" "));
  const error = page.locator('#errors li[data-kind="CorruptRecordException"]').first();
  await error.waitFor();
  assert.match(await error.textContent(), /@17\b.*CorruptRecordException/);
  assert.equal((await cell("crcValid").textContent()).trim(), "false");
  assert.equal((await cell("producerId").textContent()).trim(), "4242");
});

test("the sample button restores Example A", { timeout: 60_000 }, async () => {
  await page.click("#sample");
  await page.locator("#errors", { hasText: "No errors" }).waitFor();
  assert.equal((await cell("crcValid").textContent()).trim(), "true");
});

test("dark mode follows prefers-color-scheme", { timeout: 30_000 }, async () => {
  const background = () => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  const light = await background();
  await page.emulateMedia({ colorScheme: "dark" });
  const dark = await background();
  await page.emulateMedia({ colorScheme: "light" });
  assert.notEqual(light, dark);
});

test("the inspector page loads only the decode-only wasm, never the models' pkg/eoslab_bg.wasm", () => {
  const paths = [...new Set(env.wasmRequests.map((r) => r.path))];
  assert.deepEqual(paths, ["/pkg/eoslab-decode_bg.wasm"]);
});

test("no console errors, no page errors, no requests off 127.0.0.1", () => {
  assert.deepEqual(env.pageErrors, []);
  assert.deepEqual(env.consoleErrors, []);
  assert.deepEqual(env.foreignRequests, []);
});
