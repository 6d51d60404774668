// docs/pages/embedding.md followed word for word: its "Plain HTML" block, as it stands in the page,
// in a fresh site served under a path prefix (/project/) with dist/eoslab copied beside it as
// eoslab/ — the elements render, under the block's own CSP and nothing else, with nothing off the
// host. Then "A hand-written page": `node eoslab/prebuild.mjs --html page.src.html page.html`, run
// as written in that site's folder — the built page draws every element from its run, with no
// WebAssembly (nor its glue) fetched.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ROOT, everyElementDrawn, launch } from "./helpers.mjs";
import { startStatic } from "./embed-server.mjs";

const DOC = readFileSync(join(ROOT, "docs/pages/embedding.md"), "utf8");
let site;
let server;
let browser;

/** The first ```html block after `marker` in embedding.md. */
function blockAfter(marker) {
  const at = DOC.indexOf(marker);
  assert.ok(at >= 0, `embedding.md says ${marker}`);
  const m = /```html\n([\s\S]*?)\n```/.exec(DOC.slice(at));
  assert.ok(m, `a html block after ${marker}`);
  return m[1];
}

before(async () => {
  execFileSync(process.execPath, [join(ROOT, "scripts/build-dist.mjs")], { cwd: ROOT, stdio: ["ignore", "ignore", "inherit"] });
  site = mkdtempSync(join(tmpdir(), "eoslab-snippet-"));
  cpSync(join(ROOT, "dist/eoslab"), join(site, "eoslab"), { recursive: true });
  const page = `<!doctype html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n<title>snippet</title>\n${blockAfter("**Plain HTML**")}\n</html>\n`;
  writeFileSync(join(site, "page.src.html"), page);
  // "A hand-written page": the command as the page gives it, in the site's folder.
  const command = /`(node eoslab\/prebuild\.mjs --html page\.src\.html page\.html)`/.exec(DOC)?.[1];
  assert.ok(command, "embedding.md gives the --html command");
  const [, script, ...args] = command.split(" ");
  execFileSync(process.execPath, [script, ...args], { cwd: site });
  server = await startStatic([{ prefix: "/project/", dir: site }]);
  browser = await launch({ timeout: 60_000 });
});

after(async () => {
  await browser?.close();
  server?.close();
  if (site) rmSync(site, { recursive: true, force: true });
});

for (const [file, noWasm] of [["page.src.html", false], ["page.html", true]]) {
  test(`embedding.md's plain HTML, word for word, under /project/: ${file} renders its four elements${noWasm ? " with no wasm" : ""}`, { timeout: 120_000 }, async () => {
    const page = await browser.context.newPage();
    const seen = [];
    const errors = [];
    page.on("request", (r) => seen.push(new URL(r.url()).pathname));
    page.on("console", (m) => m.type() === "error" && errors.push(m.text()));
    page.on("pageerror", (e) => errors.push(String(e)));
    await page.goto(`${server.url}/project/${file}`);
    await everyElementDrawn(page, 4);
    assert.deepEqual(errors, [], "no console error, no CSP refusal");
    assert.deepEqual(seen.filter((u) => !u.startsWith("/project/")), [], "nothing outside the site's prefix");
    if (noWasm) assert.deepEqual(seen.filter((u) => u.includes("/pkg/")), [], "the built page fetches no wasm, nor its glue");
    else assert.ok(seen.some((u) => u.endsWith(".wasm")), "the page as written computes its inspector and config in the page");
    await page.close();
  });
}
