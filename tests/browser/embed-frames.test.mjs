// The iframe fallback as docs/pages/embedding.md gives it, under the strict CSP on the host page: the
// page's ```html, ```css and ```js blocks of "An iframe fallback" are taken from the Markdown as they
// are and served as a host page (/docs/v2/frames.html), its stylesheet (eoslab-frames.css) and its
// one script file (eoslab-frames.js), with dist/eoslab beside them (/docs/v2/eoslab/: the
// snippet's relative src works under that prefix), every response with STRICT_CSP. Checked: each
// frame renders its element, is as wide as the column and as tall as its content (the height its
// frame posted), and nothing of the snippet is refused by the CSP — while an iframe with the
// style="…" attribute the docs used to give is (the frame stays 300 × 150).
// Run: node --test tests/browser/embed-frames.test.mjs      (needs pkg/ and /usr/bin/chromium)
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium } from "playwright-core";
import { ROOT, CHROMIUM, CHROMIUM_ARGS } from "./helpers.mjs";
import { startStatic, STRICT_CSP } from "./embed-server.mjs";

const DIST = join(ROOT, "dist/eoslab");
const HOST = "/docs/v2/";

/** The fenced blocks of `lang` in the "An iframe fallback" part of embedding.md. */
function docBlocks(lang) {
  const md = readFileSync(join(ROOT, "docs/pages/embedding.md"), "utf8");
  const from = md.indexOf("**An iframe fallback**");
  const to = md.indexOf("**Hosting**", from);
  assert.ok(from >= 0 && to > from, "embedding.md has its iframe fallback section");
  const part = md.slice(from, to);
  return [...part.matchAll(new RegExp("```" + lang + "\\n([\\s\\S]*?)\\n```", "g"))].map((m) => m[1]);
}

let server;
let browser;
let work;

before(async () => {
  execFileSync("node", [join(ROOT, "scripts/build-dist.mjs")], { stdio: "inherit" });
  const [html] = docBlocks("html");
  const [css] = docBlocks("css");
  const [js] = docBlocks("js");
  assert.ok(html && css && js, "the section gives an html, a css and a js block");
  assert.match(html, /eoslab-frames\.css/);
  assert.match(html, /eoslab-frames\.js/);
  assert.doesNotMatch(html, /style=/, "the snippet has no style attribute");
  work = mkdtempSync(join(tmpdir(), "eoslab-frames-"));
  writeFileSync(join(work, "eoslab-frames.css"), `${css}\n`);
  writeFileSync(join(work, "eoslab-frames.js"), `${js}\n`);
  writeFileSync(join(work, "column.css"), "main { max-width: 720px; margin: 0 auto; padding: 0 12px; }\n");
  // The host page: the docs' snippet as it is, then an iframe written the old way (style="…").
  writeFileSync(join(work, "frames.html"), `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>eoslab frames</title>
<link rel="stylesheet" href="column.css">
</head>
<body>
<main id="col">
${html}
<iframe id="old" src="eoslab/frame.html#kafka-batch?hex=00" title="written the old way" style="width:100%;border:0"></iframe>
</main>
</body>
</html>
`);
  server = await startStatic([
    { prefix: `${HOST}eoslab/`, dir: DIST, csp: STRICT_CSP },
    { prefix: HOST, dir: work, csp: STRICT_CSP },
  ]);
  browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS, timeout: 30_000 });
});

after(async () => {
  await Promise.race([browser?.close(), new Promise((r) => setTimeout(r, 10_000))]).catch(() => {});
  await server?.close();
  if (work) rmSync(work, { recursive: true, force: true });
});

test("embedding.md's iframe snippet under the strict CSP: frames render, column-wide, as tall as their content; no CSP refusal", { timeout: 90_000 }, async () => {
  const context = await browser.newContext({ viewport: { width: 900, height: 1400 } });
  const rec = { page: [], foreign: [], console: [] };
  await context.route("**/*", (r) => {
    const u = new URL(r.request().url());
    if (u.hostname === "127.0.0.1") return r.continue();
    rec.foreign.push(u.href);
    return r.abort();
  });
  // In the host page and in every frame: CSP violations, as the browser reports them.
  await context.addInitScript(() => {
    window.__violations = [];
    document.addEventListener("securitypolicyviolation", (e) => window.__violations.push({ directive: e.violatedDirective, blocked: e.blockedURI, line: e.lineNumber, sample: e.sample }));
  });
  const page = await context.newPage();
  page.on("pageerror", (e) => rec.page.push(String(e)));
  page.on("console", (m) => m.type() === "error" && rec.console.push(m.text()));
  await page.goto(`${server.url}${HOST}frames.html`, { waitUntil: "load" });

  const frames = await page.$$("iframe.eoslab-frame");
  assert.equal(frames.length, 2, "the snippet's two frames");
  const timeline = await frames[0].contentFrame();
  const batch = await frames[1].contentFrame();
  await timeline.waitForFunction(() => document.body.dataset.ready === "1" && (document.querySelector("kafka-timeline")?.steps ?? 0) > 0);
  await batch.waitForFunction(() => document.body.dataset.ready === "1" && !!document.querySelector("kafka-batch")?.shadowRoot?.querySelector('tr[data-field="producerId"]'));
  assert.equal(await timeline.evaluate(() => document.querySelector("kafka-timeline").step), 2);

  // Each frame: as wide as the column, as tall as the height it posted (its content), not its initial attribute's.
  for (const [i, f] of [timeline, batch].entries()) {
    await page.waitForFunction((k) => {
      const el = document.querySelectorAll("iframe.eoslab-frame")[k];
      const posted = Number(el.contentDocument?.body?.dataset.height ?? -1);
      return posted > 100 && Math.abs(el.getBoundingClientRect().height - posted) <= 1 && el.getAttribute("height") === String(posted);
    }, i);
    const box = await page.evaluate((k) => {
      const el = document.querySelectorAll("iframe.eoslab-frame")[k];
      const col = document.getElementById("col");
      const r = el.getBoundingClientRect();
      const style = getComputedStyle(col);
      return { width: r.width, height: r.height, column: col.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight), border: getComputedStyle(el).borderTopWidth };
    }, i);
    assert.ok(Math.abs(box.width - box.column) <= 1, `frame ${i} is column-wide: ${box.width} vs ${box.column}`);
    assert.equal(box.border, "0px");
    // The frame's document fits: no vertical scrolling inside it.
    assert.ok(await f.evaluate(() => document.documentElement.scrollHeight <= window.innerHeight + 1), `frame ${i} shows its whole content`);
  }

  // The old way: the style attribute is refused under style-src 'self', the frame stays 300 × 150.
  const old = await page.evaluate(() => {
    const el = document.getElementById("old");
    return { width: el.clientWidth, height: el.clientHeight, border: getComputedStyle(el).borderTopWidth };
  });
  assert.deepEqual(old, { width: 300, height: 150, border: "2px" }, "the default size and border: style=… was dropped");
  const hostViolations = await page.evaluate(() => window.__violations);
  assert.equal(hostViolations.length, 1, JSON.stringify(hostViolations));
  assert.match(hostViolations[0].directive, /^style-src/);
  for (const f of [timeline, batch]) assert.deepEqual(await f.evaluate(() => window.__violations), []);
  assert.deepEqual(rec.page, []);
  assert.deepEqual(rec.foreign, []);
  await context.close();
});
