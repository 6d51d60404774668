// Browser smoke test: the page in www/ with the built pkg/, served by scripts/serve.py on
// 127.0.0.1, in Debian's Chromium driven by playwright-core (which downloads no browser).
// Run: node --test tests/browser/      (needs `make pkg` and /usr/bin/chromium)
// EOSLAB_SCREENSHOT=/tmp/page.png saves a screenshot of the decoded sample.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const CHROMIUM = process.env.CHROMIUM_PATH || "/usr/bin/chromium";
const CHROMIUM_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];
const STEP_TIMEOUT = 20_000;

const EXAMPLE_A_HEX =
  "00 00 00 00 00 00 00 00 00 00 00 3a ff ff ff ff 02 8c 4a 54 5e 00 00 00 00 00 00 00 00 01 8b cf " +
  "e5 68 00 00 00 01 8b cf e5 68 00 00 00 00 00 00 00 10 92 00 01 00 00 00 07 00 00 00 01 10 00 00 " +
  "00 02 6b 02 76 00";

let server; // the static server child process
let baseUrl;
let userDataDir;
let context; // playwright persistent context (fresh --user-data-dir)
let page;
const consoleErrors = [];
const pageErrors = [];
const foreignRequests = [];

function startServer() {
  return new Promise((resolve, reject) => {
    const child = spawn("python3", [join(ROOT, "scripts/serve.py"), "0"], {
      cwd: ROOT,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    const timer = setTimeout(() => reject(new Error(`serve.py did not start in 10 s: ${out}`)), 10_000);
    child.on("error", (err) => {
      clearTimeout(timer);
      reject(err);
    });
    child.on("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`serve.py exited (${code}) before listening: ${out}`));
    });
    child.stderr.on("data", (d) => (out += d));
    child.stdout.on("data", (d) => {
      out += d;
      const m = out.match(/http:\/\/127\.0\.0\.1:(\d+)\//);
      if (m) {
        clearTimeout(timer);
        resolve({ child, url: `http://127.0.0.1:${m[1]}` });
      }
    });
  });
}

function stopServer() {
  if (!server || server.exitCode !== null || server.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const kill = setTimeout(() => server.kill("SIGKILL"), 3_000);
    server.once("exit", () => {
      clearTimeout(kill);
      resolve();
    });
    server.kill("SIGTERM");
  });
}

// Whatever happens, never leave the server behind.
process.on("exit", () => server?.kill("SIGKILL"));

before(async () => {
  ({ child: server, url: baseUrl } = await startServer());
  userDataDir = mkdtempSync(join(tmpdir(), "eoslab-chromium-"));
  // playwright wants the profile directory as launchPersistentContext's argument, not in args.
  context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: CHROMIUM,
    headless: true,
    args: CHROMIUM_ARGS,
    timeout: 30_000,
    colorScheme: "light",
  });
  context.setDefaultTimeout(STEP_TIMEOUT);
  // Record, and refuse, any request that is not for the local server.
  await context.route("**/*", (route) => {
    const url = new URL(route.request().url());
    if (url.hostname === "127.0.0.1" || url.protocol === "data:" || url.protocol === "blob:") return route.continue();
    foreignRequests.push(url.href);
    return route.abort();
  });
  page = context.pages()[0] ?? (await context.newPage());
  page.on("console", (msg) => {
    if (msg.type() === "error") consoleErrors.push(msg.text());
  });
  page.on("pageerror", (err) => pageErrors.push(String(err)));
});

after(async () => {
  await Promise.race([context?.close(), new Promise((r) => setTimeout(r, 10_000))]).catch(() => {});
  await stopServer();
  if (userDataDir) rmSync(userDataDir, { recursive: true, force: true });
});

const cell = (field) => page.locator(`tr[data-field="${field}"] td`).first();

test("the page loads, decodes the built-in sample and sets data-ready", { timeout: 60_000 }, async () => {
  const response = await page.goto(`${baseUrl}/`, { waitUntil: "load" });
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

test("no console errors, no page errors, no requests off 127.0.0.1", () => {
  assert.deepEqual(pageErrors, []);
  assert.deepEqual(consoleErrors, []);
  assert.deepEqual(foreignRequests, []);
});
