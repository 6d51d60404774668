#!/usr/bin/env node
// What an embedding page downloads: loads pages in Chromium (Debian's, through tests/' playwright-core)
// from a static server, waits until the elements have rendered, and sums every response, raw and
// gzipped (gzip -9 of the body, as a static host compressing on the fly would send it). The eoslab
// files (dist/eoslab) are counted apart from the page's own (MkDocs Material's theme, the HTML).
//   node scripts/embed-sizes.mjs            (after make dist; the MkDocs row needs .venv-docs: scripts/ensure-docs-tools.sh)
// Prints a Markdown table (the README's "Sizes"): per page the eoslab requests, bytes raw and
// gzipped against the targets, and the time to first render. `make bench` runs it.
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";

const ROOT = fileURLToPath(new URL("../", import.meta.url));
const require = createRequire(join(ROOT, "tests/package.json"));
const { chromium } = require("playwright-core");
const { startStatic } = await import(join(ROOT, "tests/browser/embed-server.mjs"));
const DIST = join(ROOT, "dist/eoslab");
if (!existsSync(join(DIST, "eoslab.js"))) {
  console.error("embed-sizes: dist/eoslab is not built (make dist)");
  process.exit(1);
}

const work = mkdtempSync(join(tmpdir(), "eoslab-sizes-"));
const mounts = [
  { prefix: "/docs/v2/_static/eoslab/", dir: DIST },
  { prefix: "/site/eoslab/", dir: DIST },
  { prefix: "/site/", dir: join(ROOT, "examples/plain-html") },
  { prefix: "/fixtures/", dir: join(ROOT, "tests/browser/embed-fixtures") },
  { prefix: "/project/eoslab/", dir: DIST },
  { prefix: "/project/", dir: join(work, "site") },
];
const server = await startStatic(mounts);
// Targets: gzipped transfer of everything the page loads from dist/, and the first
// render after the first eoslab script starts loading.
const pages = [
  { name: "`examples/plain-html` (3 elements + 3 fences: every module; the full wasm only)", path: "/site/", target: 350_000, done: () => document.querySelectorAll("[data-eoslab-fence='source'][hidden]").length === 3 && document.querySelector("#timeline")?.steps > 0 },
  { name: "`<kafka-batch>` alone (`kafka-batch.js`)", path: "/fixtures/batch-only.html", target: 180_000, done: () => !!document.querySelector("kafka-batch")?.shadowRoot.querySelector('tr[data-field="producerId"]') },
  { name: "`<kafka-timeline>` alone (`kafka-timeline.js`)", path: "/fixtures/timeline-only.html", target: 250_000, done: () => document.querySelector("kafka-timeline")?.steps > 0 },
];
const RENDER_TARGET_MS = 300;
const mkdocs = join(ROOT, ".venv-docs/bin/mkdocs");
if (existsSync(mkdocs)) {
  execFileSync(mkdocs, ["build", "-q", "-f", join(ROOT, "examples/mkdocs/mkdocs.yml"), "-d", join(work, "site")], {
    stdio: ["ignore", "ignore", "ignore"], env: { ...process.env, NO_MKDOCS_2_WARNING: "1", EOSLAB_SITE_URL: `${server.url}/project/` },
  });
  pages.push({ name: "`examples/mkdocs`, first page (fences: batch + config, a ladder)", path: "/project/", done: () => document.querySelector("kafka-ladder")?.steps > 0 && !!document.querySelector("kafka-producer-config")?.result });
}

const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH || "/usr/bin/chromium", args: ["--headless", "--no-sandbox", "--disable-gpu"] });
const kb = (n) => `${(n / 1000).toFixed(1)} KB`;
console.log("| page | eoslab requests | eoslab raw | eoslab gzipped (target) | of which wasm (gzipped) | whole page gzipped | first render (target 300 ms) |");
console.log("|---|---:|---:|---:|---:|---:|---:|");
for (const p of pages) {
  const page = await browser.newPage();
  const bodies = [];
  page.on("response", (r) => bodies.push(r.body().then((b) => ({ url: new URL(r.url()).pathname, b })).catch(() => null)));
  await page.goto(server.url + p.path, { waitUntil: "load" });
  await page.waitForFunction(p.done, null, { timeout: 30_000, polling: "raf" });
  // From the start of the first eoslab script's request to the frame the element had rendered.
  const renderMs = await page.evaluate(() => {
    const first = performance.getEntriesByType("resource").filter((e) => /\/eoslab\/.*\.js$/.test(new URL(e.name).pathname))
      .reduce((m, e) => Math.min(m, e.startTime), Infinity);
    return performance.now() - first;
  });
  await page.waitForLoadState("networkidle");
  const all = (await Promise.all(bodies)).filter(Boolean);
  const eos = all.filter((x) => /\/eoslab\//.test(x.url));
  const sum = (xs, f) => xs.reduce((n, x) => n + f(x), 0);
  const gz = (x) => gzipSync(x.b, { level: 9 }).length;
  const eosGz = sum(eos, gz);
  const verdict = (ok) => (ok ? "met" : "not met");
  const target = p.target ? ` (≤ ${kb(p.target)}: ${verdict(eosGz <= p.target)})` : "";
  console.log(`| ${p.name} | ${eos.length} | ${kb(sum(eos, (x) => x.b.length))} | ${kb(eosGz)}${target} | ${kb(sum(eos.filter((x) => x.url.endsWith(".wasm")), gz))} | ${kb(sum(all, gz))} | ${renderMs.toFixed(0)} ms (${verdict(renderMs < RENDER_TARGET_MS)}) |`);
  await page.close();
}
await browser.close();
await server.close();
rmSync(work, { recursive: true, force: true });
