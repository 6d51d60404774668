// examples/docusaurus built with Docusaurus 3.10.2 (pinned in examples/docusaurus/package.json and
// its package-lock.json; scripts/build-docusaurus.sh) with dist/eoslab as its static eoslab/ folder,
// served under a path prefix: the three fences (prism-react-renderer's markup) upgrade, the JSX
// element renders, the color-mode toggle (html[data-theme]) switches the elements' theme, and a
// client-side route change (no page load) upgrades the next page's fences, and back again.
// Skipped, with the reason, when npm cannot install the site's packages.
// Run: node --test tests/browser/embed-docusaurus.test.mjs      (needs `make pkg` and /usr/bin/chromium)
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ROOT } from "./helpers.mjs";
import { recordingContext, startStatic } from "./embed-server.mjs";

let skip = "";
let server;
let closeBrowser;
let page;
let work;
let rec;

before(async () => {
  execFileSync("node", [join(ROOT, "scripts/build-dist.mjs")], { stdio: "inherit" });
  work = mkdtempSync(join(tmpdir(), "eoslab-docusaurus-"));
  try {
    execFileSync("bash", [join(ROOT, "scripts/build-docusaurus.sh"), join(work, "site")], {
      stdio: "inherit", env: { ...process.env, EOSLAB_BASE_URL: "/project/" },
    });
  } catch (err) {
    skip = `the Docusaurus site could not be installed or built (scripts/build-docusaurus.sh): ${err.message}`;
    return;
  }
  server = await startStatic([{ prefix: "/project/", dir: join(work, "site") }]);
  ({ page, rec, close: closeBrowser } = await recordingContext(join(work, "profile")));
});

after(async () => {
  await closeBrowser?.();
  await server?.close();
  if (work) rmSync(work, { recursive: true, force: true });
});

const bgOf = (sel) => page.evaluate((s) => getComputedStyle(document.querySelector(s)).backgroundColor, sel);

test("Docusaurus: fences upgrade, the color-mode toggle switches the theme, client routing upgrades the next page", { timeout: 180_000 }, async (t) => {
  if (skip) return t.skip(skip);
  await page.goto(`${server.url}/project/`, { waitUntil: "load" });
  // prism-react-renderer's blocks (div.language-kafka-batch …) became elements; the blocks stay, hidden.
  await page.waitForFunction(() => document.querySelectorAll("[data-eoslab-fence='source'][hidden]").length === 2);
  await page.locator('kafka-batch[data-eoslab-fence] tr[data-field="producerId"]').first().waitFor();
  assert.equal((await page.locator('kafka-batch tr[data-field="producerId"] td').first().textContent()).trim(), "4242");
  assert.equal((await page.locator('kafka-batch tr[data-field="baseSequence"] td').first().textContent()).trim(), "7");
  await page.waitForFunction(() => document.querySelector("kafka-producer-config")?.result);
  // acks=1 with enable.idempotence=true: the ConfigException KafkaProducer throws (rule P4).
  assert.deepEqual(await page.evaluate(() => { const r = document.querySelector("kafka-producer-config").result; return [r.ok, r.exception, r.rule]; }), [false, "ConfigException", "P4"]);
  await page.waitForFunction(() => document.querySelector("kafka-ladder")?.steps > 0); // JSX in MDX
  assert.equal(await bgOf("kafka-batch"), "rgb(255, 255, 255)");
  // Docusaurus' color-mode toggle: html[data-theme="dark"].
  await page.locator("nav button[aria-label*='dark and light mode' i]").first().click();
  await page.waitForFunction(() => document.documentElement.getAttribute("data-theme") === "dark");
  for (const s of ["kafka-batch", "kafka-ladder", "kafka-producer-config"]) {
    await page.waitForFunction((x) => getComputedStyle(document.querySelector(x)).backgroundColor === "rgb(13, 17, 23)", s);
  }
  // Client-side routing: the link is followed without a page load (the marker survives).
  await page.evaluate(() => (window.__eoslabMarker = 1));
  await page.locator("article a", { hasText: "transactions" }).first().click();
  await page.waitForURL(/\/project\/transactions\/?$/);
  await page.waitForFunction(() => document.querySelector("kafka-timeline")?.steps > 0);
  await page.waitForFunction(() => [...document.querySelectorAll("kafka-ladder")].some((l) => l.steps > 0));
  assert.equal(await page.evaluate(() => window.__eoslabMarker), 1, "no page load");
  // ```kafka-ladder names its view: the transactions scenario as a sequence diagram.
  await page.waitForFunction(() => document.querySelector('kafka-ladder[data-eoslab-fence="kafka-ladder"]')?.run?.model === "transactions");
  assert.equal(await page.evaluate(() => document.querySelectorAll("[data-eoslab-fence='source'][hidden]").length), 3);
  // The timeline follows the dark theme the page is in.
  await page.waitForFunction(() => getComputedStyle(document.querySelector("kafka-timeline")).backgroundColor === "rgb(13, 17, 23)");
  // And back: the first page's widgets render again.
  await page.locator("article a", { hasText: "batches" }).first().click();
  await page.waitForURL(/\/project\/?$/);
  await page.locator('kafka-batch[data-eoslab-fence] tr[data-field="producerId"]').first().waitFor();
  assert.equal(await page.evaluate(() => window.__eoslabMarker), 1, "no page load");
  assert.deepEqual(rec.foreign, []);
  assert.deepEqual(rec.page, []);
  assert.deepEqual(rec.console, []);
});
