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
  if (repoPath.startsWith("pkg/") || repoPath.startsWith("scenarios/")) return repoPath;
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
const queue = ENTRIES.map((e) => `www/${e}`).concat(["www/decode-worker.js"]);

while (queue.length) {
  const repoPath = queue.shift();
  const to = distPath(repoPath);
  if (to === null) fail(`${repoPath} is reached but not shipped`);
  if (copied.has(to)) continue;
  const abs = join(ROOT, repoPath);
  if (!existsSync(abs)) fail(`${repoPath} not found${repoPath.startsWith("pkg/") ? " (make pkg)" : ""}`);
  if (!repoPath.endsWith(".js")) {
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

// Write. Every JavaScript file is minified on its own (esbuild's transform, pinned in
// tests/package.json: whitespace, syntax and local names; no bundling, so the files, their import
// specifiers and new URL(…, import.meta.url) stay as they are; keepNames keeps class and function
// names). About half the gzipped JavaScript an embedding page downloads. EOSLAB_DIST_MINIFY=0
// writes the files as they are in www/ (readable, for debugging a host page).
const minify = process.env.EOSLAB_DIST_MINIFY !== "0";
const esbuild = minify ? createRequire(join(ROOT, "tests/package.json"))("esbuild") : null;
const shrink = (code, name) => {
  if (!esbuild) return code;
  try {
    return esbuild.transformSync(code, { minify: true, keepNames: true, format: "esm", target: "es2022", legalComments: "none", charset: "utf8", sourcefile: name }).code;
  } catch (err) {
    fail(`minifying ${name}: ${err.message}`);
  }
};
rmSync(OUT, { recursive: true, force: true });
mkdirSync(OUT, { recursive: true });
for (const [to, text] of copied) {
  const dest = join(OUT, to);
  mkdirSync(dirname(dest), { recursive: true });
  const src = join(ROOT, to.startsWith("pkg/") ? to : `www/${to}`);
  if (to.endsWith(".js")) writeFileSync(dest, shrink(text ?? readFileSync(src, "utf8"), to));
  else if (text === null) cpSync(src, dest);
  else writeFileSync(dest, text);
}
for (const p of PAGES) cpSync(join(ROOT, "www", p), join(OUT, p));
mkdirSync(join(OUT, "scenarios"), { recursive: true });
const scenarios = readdirSync(join(ROOT, "scenarios")).filter((f) => f.endsWith(".eos") || f === "index.json").sort();
for (const f of scenarios) cpSync(join(ROOT, "scenarios", f), join(OUT, "scenarios", f));
if (!scenarios.includes("index.json")) fail("scenarios/index.json missing (bash scripts/scenario-index.sh)");

// The elements' modules must not point anywhere but inside the folder: check every copied module's
// relative references once more, now against the written files.
for (const [to, text] of copied) {
  if (text === null) continue;
  for (const re of REFS) {
    for (const m of stripComments(text).matchAll(re)) {
      const spec = m[1];
      if (!spec.startsWith(".") && !/^[\w.-]+\.(js|wasm)$/.test(spec)) continue;
      const resolved = posix.normalize(posix.join(posix.dirname(to), spec));
      if (!existsSync(join(OUT, resolved))) fail(`${to}: "${spec}" → ${resolved} is not in dist/eoslab`);
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
  files: [...ENTRIES, ...PAGES, "decode-worker.js", ...ELEMENT_DIRS.map((d) => `${d}/`), "lib/", "pkg/*.js", "pkg/*.wasm", "scenarios/"],
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
