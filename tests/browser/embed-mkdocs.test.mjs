// examples/mkdocs built with MkDocs + Material and eoslab's MkDocs plugin (plugins/mkdocs-eoslab; all
// pinned in examples/mkdocs/requirements.txt, installed into .venv-docs by scripts/ensure-docs-tools.sh),
// served under a path prefix with a strict Content-Security-Policy, as a reader meets it:
//   - the fences were pre-built at `mkdocs build`: every timeline and ladder draws its first step
//     from its run file before any .wasm is requested, and none of the fences' text is shown; the
//     first page's inspector (and a raw HTML ladder of a built-in scenario) need no wasm either;
//   - stepping needs no wasm either; a changed script loads it and draws the new run;
//   - the palette toggle switches the elements' theme, and navigation.instant (content swapped in
//     place, no page load) brings the next page's elements, and the kept xxd fence upgraded in the page,
//     also when the reader landed on a page with no element (so with no eoslab script run yet);
//   - a fence whose script is wrong fails `mkdocs build` at its line in the .md file;
//   - the plugin's own Python tests (the fence scanner, real builds with and without directory URLs).
// Skipped, with the reason, when the venv cannot be built (no PyPI).
// Run: node --test tests/browser/embed-mkdocs.test.mjs      (needs pkg/: make pkg; and /usr/bin/chromium)
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { execFileSync, spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ROOT } from "./helpers.mjs";
import { recordingContext, startStatic, STRICT_CSP } from "./embed-server.mjs";

const MKDOCS = join(ROOT, ".venv-docs/bin/mkdocs");
let skip = "";
let server;
let closeBrowser;
let page;
let work;
let rec;
let site;
/** Every request the pages made: {path, at} (at: Date.now()). */
const requests = [];
const wasmRequests = () => requests.filter((r) => r.path.endsWith(".wasm")).map((r) => r.path);

before(async () => {
  try {
    execFileSync("bash", [join(ROOT, "scripts/ensure-docs-tools.sh")], { stdio: "inherit" });
  } catch (err) {
    skip = `MkDocs could not be installed (scripts/ensure-docs-tools.sh): ${err.message}`;
    return;
  }
  execFileSync("node", [join(ROOT, "scripts/build-dist.mjs")], { stdio: "inherit" });
  work = mkdtempSync(join(tmpdir(), "eoslab-mkdocs-"));
  site = join(work, "site");
  // The whole site, the copied eoslab/ too, as a static host serves it under a prefix.
  server = await startStatic([{ prefix: "/project/", dir: site, csp: STRICT_CSP }]);
  // site_url = where it is served: navigation.instant only follows links of its sitemap.
  execFileSync(MKDOCS, ["build", "-q", "-f", join(ROOT, "examples/mkdocs/mkdocs.yml"), "-d", site], {
    stdio: ["ignore", "inherit", "inherit"], env: { ...process.env, NO_MKDOCS_2_WARNING: "1", EOSLAB_SITE_URL: `${server.url}/project/` },
  });
  ({ page, rec, close: closeBrowser } = await recordingContext(join(work, "profile")));
  page.on("request", (r) => requests.push({ path: new URL(r.url()).pathname, at: Date.now() }));
});

after(async () => {
  await closeBrowser?.();
  await server?.close();
  if (work) rmSync(work, { recursive: true, force: true });
});

/** The run file an element names, read from the built site: its report. */
function reportOf(pageUrl, runAttr) {
  const path = new URL(runAttr, pageUrl).pathname;
  assert.ok(path.startsWith("/project/"), `${runAttr} from ${pageUrl} stays in the site`);
  const file = JSON.parse(readFileSync(join(site, ...path.slice("/project/".length).split("/")), "utf8"));
  return file.run.report;
}

/** What the element's "now" line shows for story step k of a report (lib/player.js storySteps: expect lines join the step before). */
function storyLine(report, k) {
  const steps = report.steps.filter((s, i) => i === 0 || !/^expect\b/.test(s.text));
  return `line ${steps[k].line}: ${steps[k].text}`;
}

const elementsOf = () => page.evaluate(() => [...document.querySelectorAll("[data-eoslab-fence]:not(pre)")].map((el) => ({ tag: el.localName, run: el.getAttribute("run"), fence: el.dataset.eoslabFence })));

test("MkDocs Material + mkdocs-eoslab: pre-built elements draw with no wasm, stepping needs none, a changed script loads it", { timeout: 120_000 }, async (t) => {
  if (skip) return t.skip(skip);
  const url = `${server.url}/project/transactions/`;
  await page.goto(url, { waitUntil: "load" });
  const els = await elementsOf();
  assert.deepEqual(els.map((e) => `${e.fence}→${e.tag}`), ["kafka-scenario→kafka-timeline", "kafka-scenario→kafka-ladder", "kafka-ladder→kafka-ladder", "kafka-timeline→kafka-timeline"]);
  const firstLines = els.map((e) => {
    assert.match(e.run ?? "", /^eoslab-runs\/[0-9a-f]{16}\.json$/);
    return storyLine(reportOf(url, e.run), 0);
  });
  // Every element shows its first step, read from its run file: at that moment no .wasm has been
  // asked for (the page's own record of what it fetched, and the browser's).
  const wasmAtRender = await page.waitForFunction((lines) => {
    const els = [...document.querySelectorAll("[data-eoslab-fence]:not(pre)")];
    if (!els.every((el, i) => el.shadowRoot?.textContent.includes(lines[i]))) return false;
    return performance.getEntriesByType("resource").filter((e) => new URL(e.name).pathname.endsWith(".wasm")).map((e) => e.name);
  }, firstLines).then((h) => h.jsonValue());
  assert.deepEqual(wasmAtRender, [], "no wasm fetched before the elements rendered");
  assert.deepEqual(wasmRequests(), []);

  // None of the fences' text is on the page (light DOM, what is laid out); the fence shown inside
  // a ````markdown fence, an example, is.
  const shown = await page.evaluate(() => {
    const out = [];
    const walk = document.createTreeWalker(document.querySelector("article"), NodeFilter.SHOW_TEXT);
    for (let n = walk.nextNode(); n; n = walk.nextNode()) if (n.parentElement.getClientRects().length && n.data.trim()) out.push(n.data);
    return out.join("");
  });
  for (const s of ["txn-zombie-fenced", "send app orders-0 b", "producer billing", "send billing payments-0 p1", "txn-commit-response-lost", "```kafka-scenario"]) {
    assert.ok(!shown.includes(s), `fence text "${s}" is not shown`);
  }
  assert.ok(shown.includes("partition shown-0"), "the fence inside a fence stays an example");

  // Stepping: the zombie timeline to its third step, then its fourth, with no wasm.
  const timeline = page.locator("kafka-timeline[data-eoslab-fence]").first();
  const zombie = reportOf(url, els[0].run);
  await timeline.evaluate((el) => { el.step = 2; });
  await page.waitForFunction((line) => document.querySelector("kafka-timeline[data-eoslab-fence]").shadowRoot.textContent.includes(line), storyLine(zombie, 2));
  assert.equal(await timeline.evaluate((el) => el.step), 2);
  // And its own control: Forward.
  await timeline.locator('button[data-action="forward"]').click();
  await page.waitForFunction((line) => document.querySelector("kafka-timeline[data-eoslab-fence]").shadowRoot.textContent.includes(line), storyLine(zombie, 3));
  assert.equal(await timeline.evaluate((el) => el.step), 3);
  await page.waitForTimeout(300);
  assert.deepEqual(wasmRequests(), [], "stepping fetches no wasm");

  // A changed script: the wasm is fetched, and the new run (three sends) is drawn.
  const ladder = page.locator('kafka-ladder[data-eoslab-fence="kafka-scenario"]');
  assert.equal(await ladder.evaluate((el) => el.steps), 2);
  await ladder.evaluate((el) => el.setAttribute("script", "partition orders-0\nproducer app\nsend app orders-0 a\nsend app orders-0 b\nsend app orders-0 c\n"));
  await page.waitForFunction(() => document.querySelector('kafka-ladder[data-eoslab-fence="kafka-scenario"]').steps === 3, null, { timeout: 30_000 });
  await ladder.evaluate((el) => { el.step = 2; });
  await page.waitForFunction(() => document.querySelector('kafka-ladder[data-eoslab-fence="kafka-scenario"]').shadowRoot.textContent.includes("line 5: send app orders-0 c"));
  assert.ok(wasmRequests().some((p) => p.endsWith("/project/eoslab/pkg/eoslab_bg.wasm")), `the wasm was fetched (${wasmRequests().join(", ")})`);
  assert.deepEqual(rec.console, []);
  assert.deepEqual(rec.page, []);
  assert.deepEqual(rec.foreign, []);
});

const bgOf = (sel) => page.evaluate((s) => getComputedStyle(document.querySelector(s)).backgroundColor, sel);

test("MkDocs Material + mkdocs-eoslab: the palette toggle switches the theme, navigation.instant brings the next page's elements", { timeout: 120_000 }, async (t) => {
  if (skip) return t.skip(skip);
  await page.goto(`${server.url}/project/`, { waitUntil: "load" });
  // The pre-built inspector (its first view from the decoder's recorded answers) and the raw HTML
  // ladder (a built-in scenario: the run shipped in eoslab/runs/): drawn with no wasm.
  assert.match(await page.locator("kafka-batch[data-eoslab-fence]").getAttribute("run"), /^eoslab-runs\/[0-9a-f]{16}\.json$/);
  await page.locator('kafka-batch[data-eoslab-fence] tr[data-field="producerId"]').waitFor();
  assert.equal((await page.locator('kafka-batch tr[data-field="producerId"] td').first().textContent()).trim(), "4242");
  await page.waitForFunction(() => document.querySelector("kafka-ladder")?.steps > 0); // raw HTML in Markdown
  assert.deepEqual(await page.evaluate(() => performance.getEntriesByType("resource").map((e) => e.name).filter((n) => n.endsWith(".wasm"))), [], "the first page needs no wasm");
  assert.equal(await bgOf("kafka-batch"), "rgb(255, 255, 255)");
  // Material's palette toggle: body[data-md-color-scheme="slate"].
  await page.locator("form[data-md-component=palette] label:visible").first().click();
  await page.waitForFunction(() => document.body.getAttribute("data-md-color-scheme") === "slate");
  for (const s of ["kafka-batch", "kafka-ladder"]) {
    await page.waitForFunction((x) => getComputedStyle(document.querySelector(x)).backgroundColor === "rgb(13, 17, 23)", s);
  }
  // Instant navigation: the link is followed without a page load (the marker survives), and the
  // page's pre-built elements draw their runs (relative to the new URL).
  await page.evaluate(() => (window.__sameDocument = true));
  await page.locator("article a[href*='transactions']").first().click();
  await page.waitForFunction(() => /transactions\/?$/.test(location.pathname));
  await page.waitForFunction(() => document.querySelectorAll("kafka-timeline[data-eoslab-fence], kafka-ladder[data-eoslab-fence]").length === 4);
  assert.equal(await page.evaluate(() => window.__sameDocument), true, "navigation.instant swapped the content in place");
  await page.waitForFunction(() => [...document.querySelectorAll("kafka-timeline[data-eoslab-fence], kafka-ladder[data-eoslab-fence]")].every((el) => el.steps > 0));
  await page.waitForFunction(() => document.querySelector('kafka-ladder[data-eoslab-fence="kafka-scenario"]')?.steps === 2);
  // ```kafka-ladder names its view: the transactions scenario as a sequence diagram.
  await page.waitForFunction(() => document.querySelector('kafka-ladder[data-eoslab-fence="kafka-ladder"]')?.run?.model === "transactions");
  // Still slate: the new page's elements are dark from the start.
  assert.equal(await bgOf("kafka-timeline"), "rgb(13, 17, 23)");
  // Back (instant too): the first page's elements again.
  await page.goBack();
  await page.locator('kafka-batch[data-eoslab-fence] tr[data-field="producerId"]').waitFor();
  assert.equal(await page.evaluate(() => window.__sameDocument), true);
  // On to the dumps page: the xxd fence kept as a code block is upgraded in the page (and hidden
  // under its element), the config resolved; these two load their wasm.
  await page.locator("article a[href*='dumps']").first().click();
  await page.waitForFunction(() => /dumps\/?$/.test(location.pathname));
  await page.waitForFunction(() => document.querySelectorAll("pre.kafka-batch[data-eoslab-fence='source']").length === 1);
  await page.locator('kafka-batch[data-eoslab-fence] tr[data-field="producerId"]').waitFor();
  assert.equal((await page.locator('kafka-batch tr[data-field="producerId"] td').first().textContent()).trim(), "4242");
  assert.equal(await page.evaluate(() => document.querySelector("pre.kafka-batch").getClientRects().length), 0, "the xxd text is hidden under its element");
  await page.waitForFunction(() => document.querySelector("kafka-producer-config")?.result);
  assert.equal(await bgOf("kafka-producer-config"), "rgb(13, 17, 23)");
  assert.equal(await page.evaluate(() => window.__sameDocument), true);
  assert.deepEqual(rec.console, []);
  assert.deepEqual(rec.page, []);
  assert.deepEqual(rec.foreign, []);
});

test("MkDocs Material + mkdocs-eoslab: landing on a page with no element, navigation.instant to one with elements draws them", { timeout: 120_000 }, async (t) => {
  if (skip) return t.skip(skip);
  // A new page load (so no eoslab module has run in this document yet).
  await page.goto(`${server.url}/project/about/`, { waitUntil: "load" });
  assert.equal(await page.evaluate(() => document.querySelectorAll("script[src*='eoslab']").length), 0, "a page with no element loads no eoslab script");
  const before = requests.length;
  await page.evaluate(() => (window.__sameDocument = true));
  await page.locator("article a[href*='transactions']").first().click();
  await page.waitForFunction(() => /transactions\/?$/.test(location.pathname));
  await page.waitForFunction(() => {
    const els = [...document.querySelectorAll("kafka-timeline[data-eoslab-fence], kafka-ladder[data-eoslab-fence]")];
    return els.length === 4 && els.every((el) => el.steps > 0 && el.shadowRoot?.textContent.includes("Step 1 of"));
  });
  assert.equal(await page.evaluate(() => window.__sameDocument), true, "navigation.instant swapped the content in place");
  assert.deepEqual(requests.slice(before).filter((r) => r.path.endsWith(".wasm")), [], "drawn from the run files, no wasm");
  assert.deepEqual(rec.console, []);
  assert.deepEqual(rec.page, []);
});

test("mkdocs-eoslab: a fence whose script is wrong fails `mkdocs build` at its line in the .md file", { timeout: 120_000 }, (t) => {
  if (skip) return t.skip(skip);
  const dir = join(work, "bad");
  mkdirSync(join(dir, "docs/guide"), { recursive: true });
  writeFileSync(join(dir, "mkdocs.yml"), `site_name: bad\nplugins:\n  - eoslab:\n      dist: ${JSON.stringify(join(ROOT, "dist/eoslab"))}\n`);
  writeFileSync(join(dir, "docs/index.md"), "# Home\n");
  // Line 4 of the fence, line 9 of the file.
  writeFileSync(join(dir, "docs/guide/broken.md"), "# Broken\n\nText.\n\n```kafka-timeline\npartition orders-0\nproducer app\nsend app orders-0 a\nbogus line\n```\n");
  const r = spawnSync(MKDOCS, ["build", "-q"], { cwd: dir, encoding: "utf8", env: { ...process.env, NO_MKDOCS_2_WARNING: "1" } });
  assert.notEqual(r.status, 0, "the build fails");
  assert.match(r.stderr, /^ERROR\s+-\s+docs\/guide\/broken\.md:9: kafka-timeline fence, line 4: unknown step `bogus`/m);
});

test("mkdocs-eoslab's Python tests (fence scanner, escaping, builds with and without directory URLs)", { timeout: 300_000 }, (t) => {
  if (skip) return t.skip(skip);
  const r = spawnSync(join(ROOT, ".venv-docs/bin/python"), ["-m", "unittest", "discover", "-v", "-s", join(ROOT, "plugins/mkdocs-eoslab/tests")], {
    cwd: ROOT, encoding: "utf8", env: { ...process.env, EOSLAB_DIST: join(ROOT, "dist/eoslab"), NO_MKDOCS_2_WARNING: "1" },
  });
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stderr, /^OK$/m);
  assert.doesNotMatch(r.stderr, /skipped/, "every test ran (dist/eoslab is built, node and MkDocs are here)");
});
