#!/usr/bin/env node
// What an embedding page downloads: loads pages in Chromium (Debian's, through tests/' playwright-core)
// from a static server, each in a fresh context (cold cache), and measures them with
// tests/browser/embed-measure.mjs: until the first render of every element the page has (its
// elements and code fences are counted on the page, not assumed; "first render" is defined
// there), the requests issued and their bodies gzipped (gzip -9 of each body, as a static host
// compressing on the fly would send it); then, to network idle, everything the page loaded. The
// eoslab files (dist/eoslab) are counted apart from the page's own (MkDocs Material's theme, the HTML).
//   node scripts/embed-sizes.mjs            (after make dist; the MkDocs row needs .venv-docs: scripts/ensure-docs-tools.sh)
// Prints a Markdown table (the README's "Sizes"): per page the eoslab requests and gzipped bytes
// until first render (against the targets), the totals to network idle, and the time from
// the first eoslab script to the first render. `make bench` runs it; it exits 1 only when a page
// cannot be measured (an element reports an error, or nothing renders in 30 s).
import { execFileSync } from "node:child_process";
import { cpSync, existsSync, mkdtempSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("../", import.meta.url));
const require = createRequire(join(ROOT, "tests/package.json"));
const { chromium } = require("playwright-core");
const { startStatic } = await import(join(ROOT, "tests/browser/embed-server.mjs"));
const { measurePage } = await import(join(ROOT, "tests/browser/embed-measure.mjs"));
const DIST = join(ROOT, "dist/eoslab");
if (!existsSync(join(DIST, "eoslab.js"))) {
  console.error("embed-sizes: dist/eoslab is not built (make dist)");
  process.exit(1);
}

const work = mkdtempSync(join(tmpdir(), "eoslab-sizes-"));
// examples/plain-html built as a hand-written page is (dist's prebuild.mjs --html: every element its run).
execFileSync(process.execPath, [join(DIST, "prebuild.mjs"), "--html", join(ROOT, "examples/plain-html/index.html"), join(work, "built/index.html")]);
cpSync(join(ROOT, "examples/plain-html/style.css"), join(work, "built/style.css"));
const mounts = [
  { prefix: "/docs/v2/_static/eoslab/", dir: DIST },
  { prefix: "/site/eoslab/", dir: DIST },
  { prefix: "/site/", dir: join(ROOT, "examples/plain-html") },
  { prefix: "/built/eoslab/", dir: DIST },
  { prefix: "/built/", dir: join(work, "built") },
  { prefix: "/fixtures/", dir: join(ROOT, "tests/browser/embed-fixtures") },
  { prefix: "/project/eoslab/", dir: DIST },
  { prefix: "/project/", dir: join(work, "site") },
];
const server = await startStatic(mounts);
// Targets: gzipped transfer of everything the page loads from dist/, and the first
// render after the first eoslab script starts loading.
const pages = [
  { name: "`examples/plain-html` as written (its fences' scripts run in the page: the wasm)", path: "/site/" },
  { name: "`examples/plain-html` built by `prebuild.mjs --html` (every element from its run)", path: "/built/", target: 150_000 },
  { name: "`<kafka-batch>` alone, no pre-built run (`kafka-batch.js`)", path: "/fixtures/batch-only.html" },
  { name: "`<kafka-timeline scenario=…>` alone (`kafka-timeline.js`)", path: "/fixtures/timeline-only.html", target: 100_000 },
];
const RENDER_TARGET_MS = 300;
const mkdocs = join(ROOT, ".venv-docs/bin/mkdocs");
if (existsSync(mkdocs)) {
  execFileSync(mkdocs, ["build", "-q", "-f", join(ROOT, "examples/mkdocs/mkdocs.yml"), "-d", join(work, "site")], {
    stdio: ["ignore", "ignore", "ignore"], env: { ...process.env, NO_MKDOCS_2_WARNING: "1", EOSLAB_SITE_URL: `${server.url}/project/` },
  });
  pages.push({ name: "`examples/mkdocs`, first page (the plugin's pre-built batch and ladder)", path: "/project/", target: 150_000 });
}

const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH || "/usr/bin/chromium", args: ["--headless", "--no-sandbox", "--disable-gpu"] });
const kb = (n) => `${(n / 1000).toFixed(1)} KB`;
const verdict = (ok) => (ok ? "met" : "not met");
console.log("| page | elements (of which fences) | eoslab requests until first render | eoslab gzipped until first render (target) | of which wasm (gzipped) | eoslab requests, gzipped to network idle | whole page gzipped to network idle | first render (target 300 ms) |");
console.log("|---|---:|---:|---:|---:|---:|---:|---:|");
let failures = 0;
for (const p of pages) {
  let m;
  try {
    m = await measurePage(browser, server.url + p.path, { isEoslab: (path) => /\/eoslab\//.test(path) });
  } catch (err) {
    failures++;
    console.log(`| ${p.name} | could not be measured: ${String(err.message).replace(/\|/g, "\\|")} | | | | | | |`);
    continue;
  }
  const e = m.untilRender.eoslab;
  const target = p.target ? ` (≤ ${kb(p.target)}: ${verdict(e.gzip <= p.target)})` : "";
  const ms = m.fromFirstScriptMs ?? m.renderMs;
  console.log(`| ${p.name} | ${m.elements} (${m.fences}) | ${e.requests} | ${kb(e.gzip)}${target} | ${kb(e.wasmGzip)} | ${m.total.eoslab.requests}, ${kb(m.total.eoslab.gzip)} | ${kb(m.total.gzip)} | ${ms.toFixed(0)} ms (${verdict(ms < RENDER_TARGET_MS)}) |`);
}
await browser.close();
await server.close();
rmSync(work, { recursive: true, force: true });
process.exitCode = failures ? 1 : 0;
