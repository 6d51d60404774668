// examples/docusaurus built with Docusaurus 3.10.2 (pinned in examples/docusaurus/package.json and
// its package-lock.json) and the docusaurus-eoslab plugin (plugins/docusaurus-eoslab;
// scripts/build-docusaurus.sh), served under a path prefix with a strict Content-Security-Policy:
//   - the fences were replaced at build time: the scenario players draw their pre-built run files
//     (the first step shown, then stepped) before any .wasm is requested, no fence's text is on the
//     page, React hydrates without an error; editing a player's script loads the wasm and draws it;
//   - the second page (reached by client-side routing, no page load): kafka-batch and
//     kafka-producer-config from the fences' attributes (escaped in the markup, read back exact), a JSX element, an xxd dump left as a code
//     block and upgraded by eoslab-fences.js, the color-mode toggle; and back, the players again;
//   - a fence whose script is wrong fails `docusaurus build` with "<file>:<line>: <message>".
// Skipped, with the reason, when npm cannot install the site's packages (a failed build is a failure).
// Run: node --test tests/browser/embed-docusaurus.test.mjs      (needs pkg/ and /usr/bin/chromium)
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { execFileSync, spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ROOT } from "./helpers.mjs";
import { recordingContext, startStatic, STRICT_CSP } from "./embed-server.mjs";

const PREFIX = "/project/";
const SITE = join(ROOT, "examples/docusaurus");

let skip = "";
let server;
let closeBrowser;
let context;
let page;
let work;
let site;
let rec;
const requests = []; // every URL the pages (and their workers) asked for, in order

/**
 * The Content-Security-Policy: STRICT_CSP, with the hashes of Docusaurus' own inline scripts (the
 * color-mode one) and of its style attributes ('unsafe-hashes': the hidden SVG sprite's
 * style="display: none;"), and data: images (the theme's CSS draws its icons as data: SVG).
 * Nothing eoslab's plugin writes needs any of them.
 */
function cspFor(dir) {
  const sha = (text) => `'sha256-${createHash("sha256").update(text).digest("base64")}'`;
  const scripts = new Set();
  const styles = new Set();
  for (const rel of readdirSync(dir, { recursive: true })) {
    if (!rel.endsWith(".html")) continue;
    const html = readFileSync(join(dir, rel), "utf8");
    for (const m of html.matchAll(/<script(?![^>]*\bsrc=)([^>]*)>([\s\S]*?)<\/script>/g)) {
      if (!/type="application\/ld\+json"/.test(m[1])) scripts.add(sha(m[2])); // ld+json is data, not run
    }
    for (const m of html.replace(/<script[\s\S]*?<\/script>/g, "").matchAll(/\sstyle="([^"]*)"/g)) styles.add(sha(m[1]));
  }
  const styleSrc = styles.size ? `style-src 'self' 'unsafe-hashes' ${[...styles].join(" ")}` : "style-src 'self'";
  return `${STRICT_CSP.replace("script-src 'self'", `script-src 'self' ${[...scripts].join(" ")}`).replace("style-src 'self'", styleSrc)}; img-src 'self' data:`;
}

before(async () => {
  execFileSync("node", [join(ROOT, "scripts/build-dist.mjs")], { stdio: "inherit" });
  work = mkdtempSync(join(tmpdir(), "eoslab-docusaurus-"));
  site = join(work, "site");
  try {
    execFileSync("bash", [join(ROOT, "scripts/build-docusaurus.sh"), site], { stdio: "inherit", env: { ...process.env, EOSLAB_BASE_URL: PREFIX } });
  } catch (err) {
    // Only an install that could not happen is a reason to skip; a build that fails is a failure.
    if (existsSync(join(SITE, "node_modules/@docusaurus/core"))) throw err;
    skip = `the Docusaurus site's packages could not be installed (scripts/build-docusaurus.sh): ${err.message}`;
    return;
  }
  server = await startStatic([{ prefix: PREFIX, dir: site, csp: cspFor(site) }]);
  ({ context, page, rec, close: closeBrowser } = await recordingContext(join(work, "profile")));
  context.on("request", (r) => requests.push(r.url()));
});

after(async () => {
  await closeBrowser?.();
  await server?.close();
  if (work) rmSync(work, { recursive: true, force: true });
});

const wasmRequests = () => requests.filter((u) => new URL(u).pathname.endsWith(".wasm"));
/** A built file of the site, by its URL path. */
const built = (urlPath) => readFileSync(join(site, urlPath.slice(PREFIX.length)), "utf8");
const shadowText = (sel, i = 0) => page.evaluate(([s, n]) => document.querySelectorAll(s)[n]?.shadowRoot?.textContent ?? "", [sel, i]);
const waitShadow = (sel, i, needle) =>
  page.waitForFunction(([s, n, x]) => (document.querySelectorAll(s)[n]?.shadowRoot?.textContent ?? "").includes(x), [sel, i, needle]);
const bgOf = (sel) => page.evaluate((s) => getComputedStyle(document.querySelector(s)).backgroundColor, sel);

const PLAYERS = "kafka-timeline, kafka-ladder";
// The inline script of docs/index.md's second fence (the others name built-in scenarios).
const INLINE_FIRST_LINE = "title Two sends, one partition";

test("Docusaurus: the players draw their pre-built runs with no WebAssembly, step, and load it on an edit", { timeout: 180_000 }, async (t) => {
  if (skip) return t.skip(skip);
  const html = built(`${PREFIX}index.html`);
  // The build: three players with run files, no fence left, no script text in the page.
  const runs = [...html.matchAll(/<(kafka-(?:timeline|ladder))\b[^>]*\brun="([^"]+)"/g)].map((m) => ({ tag: m[1], url: m[2] }));
  assert.deepEqual(runs.map((r) => r.tag), ["kafka-timeline", "kafka-ladder", "kafka-ladder"]);
  for (const r of runs) assert.match(r.url, /^\/project\/eoslab-runs\/[0-9a-f]{16}\.json$/);
  const files = runs.map((r) => JSON.parse(built(r.url)));
  assert.deepEqual(files.map((f) => [f.eoslab, f.element, f.input.scenario]), [
    ["run", "kafka-timeline", "txn-zombie-fenced"], ["run", "kafka-ladder", null], ["run", "kafka-ladder", "txn-commit-response-lost"],
  ]);
  assert.ok(files[1].input.script.startsWith(INLINE_FIRST_LINE));
  assert.ok(!html.includes("partition orders-0") && !html.includes(INLINE_FIRST_LINE), "the fence's script is not in the page");
  assert.ok(!/language-kafka-/.test(html), "no kafka-* code block left");
  assert.match(html, /<kafka-ladder compact="" readonly="" run="/, "booleans are attributes in the SSR HTML");

  requests.length = 0;
  await page.goto(`${server.url}${PREFIX}`, { waitUntil: "load" });
  // Each player shows its run's title and its first step, drawn from the run file alone.
  for (let i = 0; i < runs.length; i++) {
    await page.waitForFunction((n) => document.querySelectorAll("kafka-timeline, kafka-ladder")[n]?.steps > 0, i);
    const steps = await page.evaluate((n) => document.querySelectorAll("kafka-timeline, kafka-ladder")[n].steps, i);
    await waitShadow(PLAYERS, i, `Step 1 of ${steps}`);
    const shown = await shadowText(PLAYERS, i);
    assert.ok(shown.includes(files[i].run.report.title), `${runs[i].tag} #${i} shows its title`);
    assert.ok(shown.includes(files[i].run.report.steps[0].text), `${runs[i].tag} #${i} shows its first step, "${files[i].run.report.steps[0].text}"`);
  }
  assert.deepEqual(wasmRequests(), [], "no .wasm before the reader acts");
  for (const r of runs) assert.ok(requests.some((u) => u.endsWith(r.url)), `${r.url} fetched`);
  // No fence text among the page's own (light DOM) text.
  const light = await page.evaluate(() => document.body.innerText);
  assert.ok(!light.includes("partition orders-0") && !light.includes(INLINE_FIRST_LINE));

  // Stepping: the property, then the step controls; still no wasm.
  await page.evaluate(() => (document.querySelectorAll("kafka-timeline, kafka-ladder")[0].step = 2));
  await waitShadow(PLAYERS, 0, "Step 3 of");
  await page.evaluate(() => (document.querySelectorAll("kafka-timeline, kafka-ladder")[2].step = 2));
  await waitShadow(PLAYERS, 2, "Step 3 of");
  assert.deepEqual(wasmRequests(), [], "stepping a pre-built run loads no .wasm");

  // An edit: the script attribute changed; the wasm is fetched and the new run drawn.
  const edited = files[1].input.script.replace(INLINE_FIRST_LINE, "title Three sends, one partition") + "\nsend app orders-0 c\n";
  await page.evaluate((s) => document.querySelectorAll("kafka-timeline, kafka-ladder")[1].setAttribute("script", s), edited);
  await waitShadow(PLAYERS, 1, "Three sends, one partition");
  assert.ok(wasmRequests().length > 0, "the edit loaded the wasm");
  assert.ok(wasmRequests().every((u) => new URL(u).pathname.startsWith(`${PREFIX}eoslab/pkg/`)));

  assert.deepEqual(rec.foreign, []);
  assert.deepEqual(rec.page, []);
  assert.deepEqual(rec.console, [], "no console error (a React hydration error is #418)");
});

test("Docusaurus: client routing to the batches page and back, the color-mode toggle", { timeout: 180_000 }, async (t) => {
  if (skip) return t.skip(skip);
  const html = built(`${PREFIX}batches/index.html`);
  assert.match(html, /<kafka-batch readonly="" compact="" hex="00 00/);
  // Attribute values are escaped in the built markup and read back as the fence's text.
  const CONFIG = 'client.id=docs "<b>&amp;</b>"\nacks=1\nenable.idempotence=true';
  assert.ok(html.includes('<kafka-producer-config properties="client.id=docs &quot;&lt;b&gt;&amp;amp;&lt;/b&gt;&quot;\nacks=1\nenable.idempotence=true" run="'), "the config's text, escaped, and its pre-built resolution");
  assert.equal((html.match(/language-kafka-batch/g) ?? []).length > 0, true, "the xxd dump stays a code block");

  await page.goto(`${server.url}${PREFIX}`, { waitUntil: "load" });
  await page.waitForFunction(() => document.querySelector("kafka-timeline")?.steps > 0);
  await page.evaluate(() => (window.__eoslabMarker = 1));
  await page.locator("article a", { hasText: "batches" }).first().click();
  await page.waitForURL(/\/project\/batches\/?$/);
  // Two kafka-batch: the fence's hex (built), the xxd dump (upgraded in the browser by eoslab-fences.js).
  await page.waitForFunction(() => document.querySelectorAll("[data-eoslab-fence='source'][hidden]").length === 1);
  await page.waitForFunction(() => [...document.querySelectorAll("kafka-batch")].filter((b) => b.shadowRoot?.querySelector('tr[data-field="producerId"]')).length === 2);
  const fields = await page.evaluate(() =>
    [...document.querySelectorAll("kafka-batch")].map((b) => ["producerId", "baseSequence"].map((f) => b.shadowRoot.querySelector(`tr[data-field="${f}"] td`).textContent.trim())),
  );
  assert.deepEqual(fields, [["4242", "7"], ["4242", "7"]]);
  await page.waitForFunction(() => document.querySelector("kafka-producer-config")?.result);
  assert.equal(await page.evaluate(() => document.querySelector("kafka-producer-config").getAttribute("properties")), CONFIG);
  // acks=1 with enable.idempotence=true: the ConfigException KafkaProducer throws (rule P4).
  assert.deepEqual(await page.evaluate(() => { const r = document.querySelector("kafka-producer-config").result; return [r.ok, r.exception, r.rule]; }), [false, "ConfigException", "P4"]);
  await page.waitForFunction(() => document.querySelector("kafka-ladder")?.steps > 0); // JSX in MDX
  assert.equal(await page.evaluate(() => window.__eoslabMarker), 1, "no page load");

  assert.equal(await bgOf("kafka-batch"), "rgb(255, 255, 255)");
  await page.locator("nav button[aria-label*='dark and light mode' i]").first().click();
  await page.waitForFunction(() => document.documentElement.getAttribute("data-theme") === "dark");
  for (const s of ["kafka-batch", "kafka-ladder", "kafka-producer-config"]) {
    await page.waitForFunction((x) => getComputedStyle(document.querySelector(x)).backgroundColor === "rgb(13, 17, 23)", s);
  }

  // And back: the players, created by React this time, draw their runs again.
  await page.locator("article a", { hasText: "scenarios" }).first().click();
  await page.waitForURL(/\/project\/?$/);
  for (let i = 0; i < 3; i++) {
    await page.waitForFunction((n) => document.querySelectorAll("kafka-timeline, kafka-ladder")[n]?.steps > 0, i);
    const steps = await page.evaluate((n) => document.querySelectorAll("kafka-timeline, kafka-ladder")[n].steps, i);
    await waitShadow(PLAYERS, i, `Step 1 of ${steps}`);
  }
  assert.deepEqual(await page.evaluate(() => [...document.querySelectorAll("kafka-timeline, kafka-ladder")].map((e) => e.getAttribute("run")?.startsWith("/project/eoslab-runs/"))), [true, true, true]);
  assert.equal(await page.evaluate(() => window.__eoslabMarker), 1, "no page load");
  assert.deepEqual(rec.foreign, []);
  assert.deepEqual(rec.page, []);
  assert.deepEqual(rec.console, []);
});

test("Docusaurus: a fence whose script is wrong, or names no scenario, fails the build with the file and its line", { timeout: 240_000 }, async (t) => {
  if (skip) return t.skip(skip);
  // The example site with one more page, its fence's line 4 wrong (the fence opens on line 7).
  const copy = join(work, "broken-site");
  mkdirSync(copy);
  for (const f of ["docs", "docusaurus.config.js", "sidebars.js", "package.json"]) cpSync(join(SITE, f), join(copy, f), { recursive: true });
  symlinkSync(join(SITE, "node_modules"), join(copy, "node_modules"));
  writeFileSync(join(copy, "docs/broken.md"), [
    "---", "title: Broken", "---", "", "A scenario with a mistake.", "",
    "```kafka-scenario", "partition orders-0", "producer app", "send app orders-0 a", "bogus line", "```", "",
  ].join("\n"));
  // And a fence naming a built-in scenario eoslab does not have (its line 1; the fence opens on line 3).
  writeFileSync(join(copy, "docs/unknown.md"), ["# Unknown", "", "```kafka-ladder", "no-such-scenario", "```", ""].join("\n"));
  const env = { ...process.env, EOSLAB_DIST: join(ROOT, "dist/eoslab"), DOCUSAURUS_TELEMETRY_DISABLED: "1", DOCUSAURUS_NO_PERSISTENT_CACHE: "1" };
  const r = spawnSync("npx", ["--no-install", "docusaurus", "build", "--out-dir", join(copy, "build")], { cwd: copy, env, encoding: "utf8", timeout: 200_000 });
  assert.notEqual(r.status, 0, "the build fails");
  assert.match(r.stderr, /docs\/broken\.md:11: unknown step `bogus`/);
  assert.match(r.stderr, /docs\/unknown\.md:4: unknown scenario "no-such-scenario"/);
  assert.ok(!existsSync(join(copy, "build/broken/index.html")), "no page was written for it");
});
