// The project's own documentation site (docs/, `make docs`) as a reader meets it: built by
// scripts/build-docs.sh for the URL this test serves it at, under a /docs/ path prefix with a
// strict Content-Security-Policy, then every page walked in Chromium: no console or page error,
// no request leaving the site, every fence turned into a widget that rendered, and every internal
// link (and its #fragment) resolving. The fences are pre-built by eoslab's MkDocs plugin: a page
// whose elements all have a pre-built run fetches no wasm. The rule catalogue and the CLI page are generated from the
// code by the build, so they are walked like the rest.
// Skipped, with the reason, when MkDocs cannot be installed (no PyPI).
// Run: node --test tests/browser/docs.test.mjs      (needs dist/eoslab: make dist)
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { ROOT } from "./helpers.mjs";
import { recordingContext, startStatic, STRICT_CSP } from "./embed-server.mjs";

const SITE = join(ROOT, "target/docs/site");
let skip = "";
let server;
let closeBrowser;
let page;
let rec;
let work;

before(async () => {
  server = await startStatic([{ prefix: "/docs/", dir: SITE, csp: STRICT_CSP }]);
  try {
    execFileSync("bash", [join(ROOT, "scripts/ensure-docs-tools.sh")], { stdio: "inherit" });
  } catch (err) {
    skip = `MkDocs could not be installed (scripts/ensure-docs-tools.sh): ${err.message}`;
    return;
  }
  execFileSync("bash", [join(ROOT, "scripts/build-docs.sh"), "--no-dist"], {
    stdio: ["ignore", "inherit", "inherit"], env: { ...process.env, EOSLAB_SITE_URL: `${server.url}/docs/` },
  });
  work = mkdtempSync(join(tmpdir(), "eoslab-docs-"));
  ({ page, rec, close: closeBrowser } = await recordingContext(join(work, "profile")));
});

after(async () => {
  await closeBrowser?.();
  await server?.close();
  if (work) rmSync(work, { recursive: true, force: true });
});

/** Every page of the site, as URL paths under /docs/ (the widgets' own folder left out). */
function pages() {
  const out = [];
  const walk = (dir) => {
    for (const name of readdirSync(dir)) {
      const p = join(dir, name);
      if (statSync(p).isDirectory()) {
        if (name !== "eoslab" && name !== "assets" && name !== "search") walk(p);
      } else if (name === "index.html") {
        out.push(`/docs/${relative(SITE, dir).split("\\").join("/")}${dir === SITE ? "" : "/"}`);
      }
    }
  };
  walk(SITE);
  return out.sort();
}

test("every page of the docs renders its widgets under a strict CSP, with nothing fetched from elsewhere and no broken link", { timeout: 600_000 }, async (t) => {
  if (skip) return t.skip(skip);
  const all = pages();
  for (const p of ["/docs/", "/docs/guide/", "/docs/rules/", "/docs/cli/", "/docs/js-reference/", "/docs/scripts/"]) assert.ok(all.includes(p), `${p} is built (${all.join(", ")})`);
  const links = new Map(); // absolute URL without fragment -> Set of fragments ("" for none)
  let widgets = 0;
  let prebuiltPages = 0;
  for (const path of all) {
    await page.goto(`${server.url}${path}`, { waitUntil: "load" });
    // The fences were pre-built by eoslab's MkDocs plugin: each is its element in the page's HTML
    // (a kafka-batch dump only the paste detector reads is kept as a <pre class="kafka-batch">, which
    // eoslab-fences.js upgrades).
    const html = await (await fetch(`${server.url}${path}`)).text();
    const fences = (html.match(/ data-eoslab-fence="/g) ?? []).length + (html.match(/<pre class="kafka-(batch|scenario|ladder|timeline|config)"/g) ?? []).length;
    if (fences > 0) {
      // Each element renders: a ladder or timeline has steps, the inspector its fields.
      await page.waitForFunction((n) => document.querySelectorAll("[data-eoslab-fence]:not(pre)").length === n, fences, { timeout: 60_000 });
      await page.waitForFunction(() => [...document.querySelectorAll("[data-eoslab-fence]:not(pre)")].every((el) => {
        if (el.localName === "kafka-batch") return el.shadowRoot?.querySelector("tr[data-field]") ?? el.querySelector("tr[data-field]");
        if (el.localName === "kafka-producer-config") return el.result;
        return el.steps > 0;
      }), null, { timeout: 60_000 });
      widgets += fences;
      // A page whose elements all have a pre-built run (timelines, ladders, an inspector of hex)
      // drew them from those: no wasm fetched.
      if (await page.evaluate(() => [...document.querySelectorAll("[data-eoslab-fence]:not(pre)")].every((el) => el.hasAttribute("run")))) {
        const wasm = await page.evaluate(() => performance.getEntriesByType("resource").map((e) => e.name).filter((n) => new URL(n).pathname.endsWith(".wasm")));
        assert.deepEqual(wasm, [], `${path}: pre-built, its elements need no wasm`);
        prebuiltPages += 1;
      }
      // No fence's own text (the script, the hex, the scenario name) is shown: a kept block is hidden under its widget.
      const shown = await page.evaluate(() => [...document.querySelectorAll("pre[class^='kafka-']")].filter((p) => p.getClientRects().length > 0).map((p) => p.textContent.slice(0, 40)));
      assert.deepEqual(shown, [], `fence sources visible on ${path}`);
    }
    for (const href of await page.evaluate(() => [...document.querySelectorAll("a[href]")].map((a) => a.href))) {
      const u = new URL(href);
      if (u.origin !== server.url || !u.pathname.startsWith("/docs/")) continue;
      const key = u.origin + u.pathname;
      if (!links.has(key)) links.set(key, new Set());
      links.get(key).add(decodeURIComponent(u.hash.slice(1)));
    }
    assert.deepEqual(rec.console, [], `console errors on ${path}`);
    assert.deepEqual(rec.page, [], `page errors on ${path}`);
  }
  assert.ok(widgets >= 10, `the guide and the home page show live widgets (${widgets})`);
  assert.ok(prebuiltPages >= 3, `the home page, the guide and the script language's page draw pre-built runs (${prebuiltPages})`);
  assert.deepEqual(rec.foreign, [], "no request leaves the site");
  // Internal links: the page exists, and a #fragment names an element on it (a rule's heading).
  const broken = [];
  for (const [url, frags] of links) {
    const res = await fetch(url);
    if (res.status !== 200) {
      broken.push(`${url} (${res.status})`);
      continue;
    }
    const html = await res.text();
    for (const f of frags) if (f && !html.includes(`id="${f}"`)) broken.push(`${url}#${f}`);
  }
  assert.deepEqual(broken, [], "every internal link resolves");
  assert.ok([...links.keys()].some((u) => u.endsWith("/docs/rules/")) && [...(links.get(`${server.url}/docs/rules/`) ?? [])].includes("a1"), "the guide links a rule's entry");
});

// The README's picture: the guide's zombie-fencing timeline, stepped to the fence, as a reader sees it.
test("the README's picture is made from the docs' guide", { timeout: 120_000 }, async (t) => {
  if (skip) return t.skip(skip);
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto(`${server.url}/docs/guide/`, { waitUntil: "load" });
  const timeline = page.locator("kafka-timeline[data-eoslab-fence]").first();
  await page.waitForFunction(() => document.querySelector("kafka-timeline[data-eoslab-fence]")?.steps > 0);
  await timeline.evaluate((el) => { el.step = Math.min(el.steps - 1, 8); });
  await timeline.scrollIntoViewIfNeeded();
  mkdirSync(join(ROOT, "docs/pages/img"), { recursive: true });
  const png = await timeline.screenshot({ path: join(ROOT, "docs/pages/img/zombie-fenced.png") });
  assert.ok(png.length > 10_000, `a real picture (${png.length} bytes)`);
});
