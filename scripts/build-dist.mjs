#!/usr/bin/env node
// Writes dist/eoslab/ from www/, pkg/ and scenarios/ (scripts/build-dist.sh builds pkg/ first):
//
//   eoslab.js                  registers every element (www/eoslab.js)
//   frame.html, frame.js       the iframe fallback: one element configured from the URL hash
//   kafka-batch.js … kafka-producer-config.js, eoslab-fences.js, decode-worker.js
//   kafka-batch/, kafka-ladder/, kafka-timeline/   the modules of those elements (their entries import them)
//   lib/*.js                   only the modules the entries reach
//   pkg/eoslab{,-decode}.js + _bg.wasm   the wasm-bindgen glue and the two wasm modules (no .d.ts)
//   scenarios/*.eos, index.json
//   package.json               npm-shaped: name, version, exports, files
//
// The files are www/'s own, copied, with one change: every relative path in them (import
// specifiers, new URL(…, import.meta.url), the scenario URL prefix) is re-pointed at the same file
// in the new layout (www/lib/x → lib/x, www/x → x, pkg/x → pkg/x, scenarios/x → scenarios/x).
// Then every import and every new URL(…, import.meta.url) of every copied module is resolved
// inside dist/eoslab/ and must exist there: the build fails on a path that escapes the folder.
// Nothing else (no demo pages, no .d.ts, no CSS files: the elements' CSS is constructed
// stylesheets inside their modules).
import { cpSync, existsSync, mkdirSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, posix, relative } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("../", import.meta.url));
const OUT = join(ROOT, "dist/eoslab");
const ENTRIES = ["eoslab.js", "kafka-batch.js", "kafka-ladder.js", "kafka-timeline.js", "kafka-producer-config.js", "eoslab-fences.js", "frame.js"];
// Pages shipped as they are: frame.html, the iframe fallback (one element from the URL hash; frame.js).
const PAGES = ["frame.html"];
const ELEMENTS = ["kafka-batch", "kafka-ladder", "kafka-timeline", "kafka-producer-config"];
// Elements whose code lives in a folder of modules beside their entry (www/kafka-timeline/element.js …).
const ELEMENT_DIRS = ["kafka-batch", "kafka-ladder", "kafka-timeline"];
const inElementDir = (path) => ELEMENT_DIRS.some((d) => path.startsWith(`${d}/`) && !path.slice(d.length + 1).includes("/"));

const fail = (msg) => {
  console.error(`dist: ${msg}`);
  process.exit(1);
};

/** Repository path (posix, from the root) → path inside dist/eoslab, or null when it is not shipped. */
function distPath(repoPath) {
  if (repoPath.startsWith("www/lib/")) return "lib/" + repoPath.slice(8);
  if (repoPath.startsWith("www/") && !repoPath.slice(4).includes("/")) return repoPath.slice(4);
  if (repoPath.startsWith("www/") && inElementDir(repoPath.slice(4))) return repoPath.slice(4);
  if (repoPath.startsWith("pkg/") || repoPath.startsWith("scenarios/") || repoPath.startsWith("runs/")) return repoPath;
  return null;
}

// Relative specifiers in string literals: "./x", '../x', `../../scenarios/${…` (the part before ${).
const REL = /(["'`])(\.\.?\/[^"'`$\s]*)/g;
// What must resolve inside dist: static and dynamic imports, re-exports, new URL(…, import.meta.url).
const REFS = [
  /\bimport\s*(?:[\w*{}\s,$]+\sfrom\s*)?["']([^"']+)["']/g,
  /\bexport\s+(?:\*|\{[^}]*\})\s*from\s*["']([^"']+)["']/g,
  /\bimport\(\s*["']([^"']+)["']\s*\)/g,
  /new URL\(\s*["'`]([^"'`$]+)[^,]*,\s*import\.meta\.url\s*\)/g,
];

const stripComments = (src) => src.replace(/\/\*[\s\S]*?\*\//g, "").replace(/^\s*\/\/.*$/gm, "");

const copied = new Map(); // dist path → source text after rewriting
const queue = ENTRIES.map((e) => `www/${e}`).concat(["www/decode-worker.js", "www/prebuild.mjs"]);

while (queue.length) {
  const repoPath = queue.shift();
  const to = distPath(repoPath);
  if (to === null) fail(`${repoPath} is reached but not shipped`);
  if (copied.has(to)) continue;
  const abs = join(ROOT, repoPath);
  if (!existsSync(abs)) fail(`${repoPath} not found${repoPath.startsWith("pkg/") ? " (make pkg)" : ""}`);
  if (!/\.m?js$/.test(repoPath)) {
    copied.set(to, null); // binary (wasm): copied as is
    continue;
  }
  let src = readFileSync(abs, "utf8");
  const fromDir = posix.dirname(repoPath);
  const toDir = posix.dirname(to);
  src = src.replace(REL, (whole, quote, spec) => {
    const target = posix.normalize(posix.join(fromDir, spec));
    const keepSlash = spec.endsWith("/") ? "/" : "";
    const mapped = distPath(target + keepSlash);
    if (mapped === null) return whole; // e.g. a comment naming a repository path: left alone, checked below if it is a real reference
    let rel = posix.relative(toDir, mapped);
    if (keepSlash && !rel.endsWith("/")) rel += "/";
    if (!rel.startsWith(".")) rel = "./" + rel;
    return quote + rel;
  });
  copied.set(to, src);
  const code = stripComments(src);
  for (const re of REFS) {
    for (const m of code.matchAll(re)) {
      const spec = m[1];
      if (!spec.startsWith(".") && !/^[\w.-]+\.(js|wasm)$/.test(spec)) continue; // bare names: none expected
      const resolved = posix.normalize(posix.join(toDir, spec));
      if (resolved.startsWith("..")) fail(`${to}: "${spec}" leaves dist/eoslab`);
      if (resolved.startsWith("runs/")) continue; // the pre-built runs' URL prefix (written below)
      // Back to the repository path, to copy it.
      let repo;
      if (resolved.startsWith("lib/")) repo = "www/" + resolved;
      else if (resolved.startsWith("pkg/") || resolved.startsWith("scenarios/")) repo = resolved;
      else if (!resolved.includes("/") || inElementDir(resolved)) repo = "www/" + resolved;
      else fail(`${to}: "${spec}" resolves to ${resolved}, outside the shipped folders`);
      if (resolved.startsWith("scenarios/") && resolved.endsWith("/")) continue; // the scenario URL prefix
      queue.push(repo);
    }
  }
}

// Write. The copied modules go to a staging folder, then esbuild (pinned in tests/package.json)
// bundles each entry into one module at the top of dist/eoslab, with the code several entries
// share split into chunks beside them (a page with one element fetches its entry and a chunk or
// two, not twenty modules). The wasm-bindgen glue (pkg/*.js) stays a file of its own, imported
// by the bundles as ./pkg/… and only when a module asks for the model (dynamic imports), so the
// wasm is fetched on first use. Every new URL(…, import.meta.url) is made relative to the top of
// dist/eoslab in the staged copy, since every bundle lands there. prebuild.mjs (Node) is bundled
// on its own for Node. Minified (whitespace, syntax and local names; keepNames keeps class and
// function names) unless EOSLAB_DIST_MINIFY=0 (readable, for debugging a host page).
const minify = process.env.EOSLAB_DIST_MINIFY !== "0";
const esbuild = createRequire(join(ROOT, "tests/package.json"))("esbuild");
const STAGE = join(ROOT, "target/dist-stage");
rmSync(STAGE, { recursive: true, force: true });
rmSync(OUT, { recursive: true, force: true });
mkdirSync(OUT, { recursive: true });
const URL_REF = /new URL\(\s*(["'`])(\.\.?\/[^"'`$]*)/g;
for (const [to, text] of copied) {
  const src = join(ROOT, to.startsWith("pkg/") ? to : `www/${to}`);
  if (to.startsWith("pkg/")) {
    const dest = join(OUT, to);
    mkdirSync(dirname(dest), { recursive: true });
    if (text === null) cpSync(src, dest);
    else writeFileSync(dest, minify ? esbuild.transformSync(text, { minify: true, format: "esm", target: "es2022", legalComments: "none", charset: "utf8" }).code : text);
    continue;
  }
  if (text === null) {
    if (to.startsWith("scenarios/")) continue; // copied with the others below
    fail(`${to}: a data file reached from the modules, not shipped`);
  }
  let code = text;
  // new URL("../x", import.meta.url) in a module under lib/ names dist's x: "./x" once bundled at the top.
  code = code.replace(URL_REF, (whole, quote, spec) => `new URL(${quote}./${posix.normalize(posix.join(posix.dirname(to), spec))}`);
  const dest = join(STAGE, to);
  mkdirSync(dirname(dest), { recursive: true });
  writeFileSync(dest, code);
}
/** Imports of the glue (pkg/…) stay imports of dist's ./pkg/… files. */
const pkgExternal = {
  name: "pkg-external",
  setup(build) {
    build.onResolve({ filter: /pkg\/[^/]+\.js$/ }, (args) => {
      const abs = posix.normalize(posix.join(args.resolveDir.split("\\").join("/"), args.path));
      const rel = posix.relative(STAGE.split("\\").join("/"), abs);
      if (!rel.startsWith("pkg/")) return null;
      return { path: `./${rel}`, external: true };
    });
  },
};
/** eoslab.js and eoslab-fences.js import the element entries as the files they are (no second copy). */
const ENTRY_FILES = new Set(ELEMENTS.map((e) => `${e}.js`).concat(["eoslab.js"]));
const entryExternal = {
  name: "entry-external",
  setup(build) {
    build.onResolve({ filter: /^\.\/[\w-]+\.js$/ }, (args) =>
      ENTRY_FILES.has(args.path.slice(2)) && args.importer && posix.basename(args.importer) !== args.path.slice(2) && resolveDirIsStage(args.resolveDir)
        ? { path: args.path, external: true }
        : null);
  },
};
const resolveDirIsStage = (dir) => dir.split("\\").join("/") === STAGE.split("\\").join("/");
// EOSLAB_DIST is defined in the bundles only: lib/runs.js then fetches the runs/ this dist ships.
const common = {
  bundle: true, format: "esm", target: "es2022", minify, keepNames: true, legalComments: "none", charset: "utf8", logLevel: "error",
  plugins: [pkgExternal], define: { EOSLAB_DIST: "true" },
};
try {
  // Each element's entry is one module with all its code (a page with one element fetches one
  // file, then its run); the code two elements share is in both (a page with several pays it
  // more than once, within the budgets that tests/browser/embed-budget.test.mjs checks).
  const standalone = ENTRIES.filter((e) => !["eoslab.js", "eoslab-fences.js"].includes(e)).concat(["decode-worker.js"]);
  await esbuild.build({ ...common, entryPoints: standalone.map((e) => join(STAGE, e)), outdir: OUT, platform: "browser" });
  await esbuild.build({
    ...common,
    plugins: [entryExternal, pkgExternal],
    entryPoints: ["eoslab.js", "eoslab-fences.js"].map((e) => join(STAGE, e)),
    outdir: OUT,
    platform: "browser",
  });
  await esbuild.build({ ...common, entryPoints: [join(STAGE, "prebuild.mjs")], outfile: join(OUT, "prebuild.mjs"), platform: "node", minify: false });
} catch (err) {
  fail(`bundling: ${err.message}`);
}
for (const f of readdirSync(OUT).filter((f) => /\.m?js$/.test(f))) {
  if (readFileSync(join(OUT, f), "utf8").includes("EOSLAB_DIST")) fail(`${f}: EOSLAB_DIST left undefined by the bundler (runs/ would never be read)`);
}
for (const p of PAGES) cpSync(join(ROOT, "www", p), join(OUT, p));
mkdirSync(join(OUT, "scenarios"), { recursive: true });
const scenarios = readdirSync(join(ROOT, "scenarios")).filter((f) => f.endsWith(".eos") || f === "index.json").sort();
for (const f of scenarios) cpSync(join(ROOT, "scenarios", f), join(OUT, "scenarios", f));
if (!scenarios.includes("index.json")) fail("scenarios/index.json missing (bash scripts/scenario-index.sh)");

// runs/<element>/<name>.json: every built-in scenario's run for both players, made by the shipped
// prebuild.mjs itself (the very wasm and code the elements run), so `scenario="…"` draws with no
// model loaded (lib/runs.js).
{
  const { spawnSync } = await import("node:child_process");
  const r = spawnSync(process.execPath, [join(OUT, "prebuild.mjs"), "--scenarios", join(OUT, "runs")], { stdio: ["ignore", "inherit", "inherit"] });
  if (r.status !== 0) fail("prebuild.mjs --scenarios failed");
}

// The written modules must not point anywhere but inside the folder: every import, re-export and
// new URL(…, import.meta.url) of every bundle, chunk and glue file resolves to a file in
// dist/eoslab (a URL prefix such as the scenarios' to a folder there).
const written = readdirSync(OUT).filter((f) => /\.m?js$/.test(f)).concat(readdirSync(join(OUT, "pkg")).filter((f) => f.endsWith(".js")).map((f) => `pkg/${f}`));
for (const to of written) {
  const text = readFileSync(join(OUT, to), "utf8");
  for (const re of REFS) {
    for (const m of stripComments(text).matchAll(re)) {
      const spec = m[1];
      if (!spec.startsWith(".") && !/^[\w.-]+\.(js|wasm)$/.test(spec)) continue;
      const resolved = posix.normalize(posix.join(posix.dirname(to), spec));
      if (resolved.startsWith("..") || !existsSync(join(OUT, resolved))) fail(`${to}: "${spec}" → ${resolved} is not in dist/eoslab`);
    }
  }
}
for (const e of ENTRIES) if (!copied.has(e)) fail(`entry ${e} missing`);
for (const w of ["pkg/eoslab_bg.wasm", "pkg/eoslab-decode_bg.wasm"]) if (!copied.has(w)) fail(`${w} not reached from the entries`);

// package.json
const cargo = readFileSync(join(ROOT, "Cargo.toml"), "utf8");
const version = cargo.match(/\[workspace\.package\][^[]*?\bversion\s*=\s*"([^"]+)"/)?.[1] ?? "0.0.0";
const exportsMap = { ".": "./eoslab.js", "./eoslab.js": "./eoslab.js", "./fences": "./eoslab-fences.js", "./eoslab-fences.js": "./eoslab-fences.js" };
for (const name of ELEMENTS) {
  exportsMap[`./${name}`] = `./${name}.js`;
  exportsMap[`./${name}.js`] = `./${name}.js`;
}
exportsMap["./frame.html"] = "./frame.html";
exportsMap["./scenarios/*"] = "./scenarios/*";
exportsMap["./pkg/*"] = "./pkg/*";
exportsMap["./package.json"] = "./package.json";
const pkgJson = {
  name: "eoslab",
  version,
  description: "Kafka record batches, idempotence and transactions as embeddable web components (WebAssembly core, no dependencies)",
  license: "Apache-2.0",
  type: "module",
  main: "./eoslab.js",
  module: "./eoslab.js",
  exports: exportsMap,
  files: [...ENTRIES, ...PAGES, "decode-worker.js", "prebuild.mjs", "pkg/*.js", "pkg/*.wasm", "scenarios/", "runs/"],
  bin: { "eoslab-prebuild": "./prebuild.mjs" },
  sideEffects: true,
  keywords: ["kafka", "web-components", "custom-elements", "webassembly", "documentation"],
};
writeFileSync(join(OUT, "package.json"), JSON.stringify(pkgJson, null, 2) + "\n");

// Report: files and gzipped sizes.
const { gzipSync } = await import("node:zlib");
let total = 0;
let totalGz = 0;
const walk = (dir) => readdirSync(dir).flatMap((f) => (statSync(join(dir, f)).isDirectory() ? walk(join(dir, f)) : [join(dir, f)]));
const files = walk(OUT);
for (const f of files) {
  const b = readFileSync(f);
  total += b.length;
  totalGz += gzipSync(b, { level: 9 }).length;
}
console.log(`dist: dist/eoslab/ ${files.length} files, ${Math.round(total / 1000)} KB, ${Math.round(totalGz / 1000)} KB gzipped (eoslab ${version})`);
