// examples/mkdocs built with MkDocs + Material (pinned in examples/mkdocs/requirements.txt, installed
// into .venv-docs by scripts/ensure-docs-tools.sh) and dist/eoslab copied in as the site's eoslab/:
// the fences upgrade, the palette toggle (body[data-md-color-scheme]) switches the elements' theme,
// and navigation.instant (content swapped in place, no page load) upgrades the next page's fences.
// Skipped, with the reason, when the venv cannot be built (no PyPI).
// Run: node --test tests/browser/embed-mkdocs.test.mjs      (needs `make pkg` and /usr/bin/chromium)
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
  try {
    execFileSync("bash", [join(ROOT, "scripts/ensure-docs-tools.sh")], { stdio: "inherit" });
  } catch (err) {
    skip = `MkDocs could not be installed (scripts/ensure-docs-tools.sh): ${err.message}`;
    return;
  }
  execFileSync("node", [join(ROOT, "scripts/build-dist.mjs")], { stdio: "inherit" });
  work = mkdtempSync(join(tmpdir(), "eoslab-mkdocs-"));
  server = await startStatic([
    { prefix: "/project/", dir: join(work, "site") },
    { prefix: "/project/eoslab/", dir: join(ROOT, "dist/eoslab") },
  ]);
  // site_url = where it is served: navigation.instant only follows links of its sitemap.
  execFileSync(join(ROOT, ".venv-docs/bin/mkdocs"), ["build", "-q", "-f", join(ROOT, "examples/mkdocs/mkdocs.yml"), "-d", join(work, "site")], {
    stdio: ["ignore", "inherit", "pipe"], env: { ...process.env, NO_MKDOCS_2_WARNING: "1", EOSLAB_SITE_URL: `${server.url}/project/` },
  });
  ({ page, rec, close: closeBrowser } = await recordingContext(join(work, "profile")));
});

after(async () => {
  await closeBrowser?.();
  await server?.close();
  if (work) rmSync(work, { recursive: true, force: true });
});

const bgOf = (sel) => page.evaluate((s) => getComputedStyle(document.querySelector(s)).backgroundColor, sel);

test("MkDocs Material: fences upgrade, the palette toggle switches the theme, navigation.instant upgrades the next page", { timeout: 120_000 }, async (t) => {
  if (skip) return t.skip(skip);
  await page.goto(`${server.url}/project/`, { waitUntil: "load" });
  // The superfences custom fences (<pre class="kafka-batch"><code>) became elements.
  await page.waitForFunction(() => document.querySelectorAll("pre[data-eoslab-fence='source'][hidden]").length === 2);
  await page.locator('kafka-batch[data-eoslab-fence] tr[data-field="producerId"]').first().waitFor();
  assert.equal((await page.locator('kafka-batch tr[data-field="producerId"] td').first().textContent()).trim(), "4242");
  await page.waitForFunction(() => document.querySelector("kafka-producer-config")?.result);
  await page.waitForFunction(() => document.querySelector("kafka-ladder")?.steps > 0); // raw HTML in Markdown
  assert.equal(await bgOf("kafka-batch"), "rgb(255, 255, 255)");
  // Material's palette toggle: body[data-md-color-scheme="slate"].
  await page.locator("form[data-md-component=palette] label:visible").first().click();
  await page.waitForFunction(() => document.body.getAttribute("data-md-color-scheme") === "slate");
  for (const s of ["kafka-batch", "kafka-ladder", "kafka-producer-config"]) {
    await page.waitForFunction((x) => getComputedStyle(document.querySelector(x)).backgroundColor === "rgb(13, 17, 23)", s);
  }
  // Instant navigation: the link is followed without a page load (the marker survives).
  await page.evaluate(() => (window.__sameDocument = true));
  await page.locator("article a[href*='transactions']").first().click();
  await page.waitForFunction(() => /transactions\/?$/.test(location.pathname));
  await page.waitForFunction(() => document.querySelectorAll("kafka-timeline[data-eoslab-fence], kafka-ladder[data-eoslab-fence]").length === 3);
  assert.equal(await page.evaluate(() => window.__sameDocument), true, "navigation.instant swapped the content in place");
  await page.waitForFunction(() => document.querySelector("kafka-timeline")?.steps > 0);
  await page.waitForFunction(() => document.querySelector('kafka-ladder[data-eoslab-fence="kafka-scenario"]')?.steps === 2);
  // ```kafka-ladder names its view: the transactions scenario as a sequence diagram.
  await page.waitForFunction(() => document.querySelector('kafka-ladder[data-eoslab-fence="kafka-ladder"]')?.run?.model === "transactions");
  // Still slate: the new page's elements are dark from the start.
  assert.equal(await bgOf("kafka-timeline"), "rgb(13, 17, 23)");
  // Back (instant too): the first page's fences are upgraded again.
  await page.goBack();
  await page.locator('kafka-batch[data-eoslab-fence] tr[data-field="producerId"]').first().waitFor();
  assert.deepEqual(rec.console, []);
  assert.deepEqual(rec.page, []);
  assert.deepEqual(rec.foreign, []);
});
