#!/usr/bin/env node
// prebuild.mjs: the runs a page's elements draw, made at build time (Node ≥ 18) by the very wasm
// package the elements load, so a reader sees the first view with no WebAssembly downloaded.
// Shipped as dist/eoslab/prebuild.mjs; the MkDocs plugin (plugins/mkdocs-eoslab) and the Docusaurus
// plugin (plugins/docusaurus-eoslab) call it, and make dist uses it for the built-in scenarios.
//
//   node prebuild.mjs < fences.jsonl > elements.jsonl
//       one JSON object a line in: {"id": any, "fence": "kafka-timeline", "text": "<the fence body>"}
//       one a line out, in order:  {"id", "tag", "attributes", "load", "run", "error"}
//   node prebuild.mjs --scenarios DIR
//       DIR/<element>/<name>.json for every built-in scenario (scenarios/index.json) and both players
//   node prebuild.mjs --html IN.html OUT.html
//       a hand-written page, built: each fence (<pre><code class="language-kafka-…">) becomes its
//       element and each element gets its run (an element that names a built-in scenario has one
//       in dist's runs/ already), the run files in eoslab-runs/ beside OUT.html; a script error
//       stops it with IN.html's line
//
// For a fence: `tag` and `attributes` are the element to put in its place (lib/fences.js, as the
// page-side eoslab-fences.js would make it; without `script` when there is a run, which holds it),
// `load` text for kafka-batch's load() (a dump in a layout only the paste detector reads) or null,
// `run` the run file to write next to the page and name in the element's `run` attribute (a
// relative URL), or null when the element has nothing to pre-build, and `error` null or
// {"line": N, "message": "…"}: the fence's script is wrong at line N of its body, and a docs build
// must fail with it as it fails on a broken link.
import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, realpathSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import * as eoslab from "../pkg/eoslab.js";
import * as decodeOnly from "../pkg/eoslab-decode.js";
import { makeFirstViewCalls, recordingDecoder } from "./lib/decode-replay.js";
import { fenceElement } from "./lib/fences.js";
import { computeRun, resolveConfig, runFile } from "./lib/runs.js";

let initialised = false;

/** The initialised wasm package (pkg/eoslab.js, its wasm read from beside it). */
export function core() {
  if (!initialised) {
    eoslab.initSync({ module: readFileSync(fileURLToPath(new URL("../pkg/eoslab_bg.wasm", import.meta.url))) });
    initialised = true;
  }
  return eoslab;
}

let decodeInitialised = false;

/** The initialised decode-only package (pkg/eoslab-decode.js), which <kafka-batch> loads. */
function decoder() {
  if (!decodeInitialised) {
    decodeOnly.initSync({ module: readFileSync(fileURLToPath(new URL("../pkg/eoslab-decode_bg.wasm", import.meta.url))) });
    decodeInitialised = true;
  }
  return decodeOnly;
}

/**
 * The run file of a <kafka-batch> with `attributes` (its hex or base64): the decoder's answers to
 * the calls its first view makes (lib/decode-replay.js), or null when it has nothing to pre-build
 * (no bytes, or so many that the element checks them in a worker).
 */
export function batchRun(attributes) {
  const force = attributes.hex !== undefined ? "hex" : attributes.base64 !== undefined ? "base64" : null;
  if (!force) return null;
  const { decoder: recording, calls } = recordingDecoder(decoder());
  if (!makeFirstViewCalls(recording, attributes[force], force)) return null;
  return runFile(decoder(), "kafka-batch", { [force]: attributes[force] }, { calls });
}

/** The run file of a <kafka-producer-config> with `properties` for `client` (its default, "4.x"). */
export function configRun(properties, client = "4.x") {
  const input = { properties, client };
  return runFile(core(), "kafka-producer-config", input, { result: resolveConfig(core(), properties, client) });
}

const scenarioText = (name) => readFileSync(fileURLToPath(new URL(`../scenarios/${name}.eos`, import.meta.url)), "utf8");

/** The line a core message names ("line N: …"), else 1. */
const lineOf = (message) => Number(/^line (\d+):/.exec(message)?.[1] ?? 1);

/** The run file of `element` for built-in scenario `name` (throws when it has no such scenario). */
export function scenarioRun(element, name) {
  const script = scenarioText(name);
  return runFile(core(), element, { script, scenario: name }, computeRun(core(), element, script));
}

/** What fence `{fence, text}` becomes: {tag, attributes, load, run, error} (see the top of this file). */
export function prebuildFence({ fence, text }) {
  const { tag, attributes, load } = fenceElement(fence, String(text ?? ""));
  const out = { tag, attributes, load, run: null, error: null };
  if (tag === "kafka-batch") {
    out.run = batchRun(attributes);
    return out;
  }
  if (tag === "kafka-producer-config") {
    out.run = configRun(attributes.properties);
    return out;
  }
  if (tag !== "kafka-timeline" && tag !== "kafka-ladder") return out;
  const name = attributes.scenario ?? null;
  let script;
  try {
    script = name ? scenarioText(name) : String(text);
  } catch {
    out.error = { line: 1, message: `unknown scenario "${name}" (eoslab's built-in scenarios are listed in its scenarios/index.json)` };
    return out;
  }
  let run;
  try {
    run = computeRun(core(), tag, script);
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    out.error = { line: lineOf(message), message };
    return out;
  }
  if (run.partial) {
    out.error = { line: lineOf(run.partial), message: run.partial };
    return out;
  }
  out.run = runFile(core(), tag, { script, scenario: name }, run);
  if (!name) delete out.attributes.script;
  return out;
}

const ENTITIES = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'", "#39": "'", "#x27": "'" };
const unescapeHtml = (t) => t.replace(/&(amp|lt|gt|quot|apos|#39|#x27);/g, (_, e) => ENTITIES[e]).replace(/&#(\d+);/g, (_, n) => String.fromCodePoint(Number(n)));
const escapeAttr = (t) => String(t).replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
const lineAt = (text, index) => text.slice(0, index).split("\n").length;

/** The markup of element `tag` with `attributes` (values escaped: they are text). */
export const elementMarkup = (tag, attributes) =>
  `<${tag}${Object.entries(attributes).map(([k, v]) => (v === "" ? ` ${k}` : ` ${k}="${escapeAttr(v)}"`)).join("")}></${tag}>`;

/** Writes `run` as eoslab-runs/<hash>.json beside `outFile`; returns its URL relative to the page. */
function writeRun(outFile, run) {
  const json = JSON.stringify(run);
  const name = `${createHash("sha256").update(json).digest("hex").slice(0, 16)}.json`;
  mkdirSync(join(dirname(outFile), "eoslab-runs"), { recursive: true });
  writeFileSync(join(dirname(outFile), "eoslab-runs", name), json);
  return `eoslab-runs/${name}`;
}

/**
 * Builds hand-written page `html` (see the top of this file): its fences become elements with
 * runs, its <kafka-batch hex|base64> elements get theirs. Returns the page; throws "IN:line: …".
 */
export function buildPage(html, outFile, where = "page") {
  const FENCE = /<pre>\s*<code class="language-(kafka-(?:batch|scenario|ladder|timeline|config))">([\s\S]*?)<\/code>\s*<\/pre>/g;
  let out = html.replace(FENCE, (whole, fence, body, index) => {
    const text = unescapeHtml(body);
    const r = prebuildFence({ fence, text });
    if (r.error) throw new Error(`${where}:${lineAt(html, index) + r.error.line - 1}: ${r.error.message}`);
    if (r.load !== null) return whole; // a dump only the page's paste detector reads: eoslab-fences.js upgrades it
    const attributes = { ...r.attributes, "data-eoslab-fence": fence };
    if (r.run) attributes.run = writeRun(outFile, r.run);
    return elementMarkup(r.tag, attributes);
  });
  // Hand-written inspectors and config elements with their input in an attribute, and no run yet.
  out = out.replace(/<kafka-batch\b([^>]*)>/g, (whole, attrs) => {
    if (/\brun=/.test(attrs)) return whole;
    const hex = /\bhex="([^"]*)"/.exec(attrs)?.[1];
    const base64 = /\bbase64="([^"]*)"/.exec(attrs)?.[1];
    const run = batchRun(hex !== undefined ? { hex: unescapeHtml(hex) } : base64 !== undefined ? { base64: unescapeHtml(base64) } : {});
    return run ? `<kafka-batch${attrs} run="${escapeAttr(writeRun(outFile, run))}">` : whole;
  });
  out = out.replace(/<kafka-producer-config\b([^>]*)>/g, (whole, attrs) => {
    if (/\brun=/.test(attrs)) return whole;
    const properties = /\bproperties="([^"]*)"/.exec(attrs)?.[1];
    const client = /\bclient="([^"]*)"/.exec(attrs)?.[1];
    if (properties === undefined || (client !== undefined && !["4.x", "pre-3.0"].includes(client))) return whole;
    return `<kafka-producer-config${attrs} run="${escapeAttr(writeRun(outFile, configRun(unescapeHtml(properties), client ?? "4.x")))}">`;
  });
  return out;
}

async function main(args) {
  if (args[0] === "--html") {
    const [, input, output] = args;
    if (!input || !output) throw new Error("--html IN.html OUT.html");
    const page = buildPage(readFileSync(input, "utf8"), output, input);
    mkdirSync(dirname(output), { recursive: true });
    writeFileSync(output, page);
    return;
  }
  if (args[0] === "--scenarios") {
    const dir = args[1];
    if (!dir) throw new Error("--scenarios DIR: where to write <element>/<name>.json");
    const index = JSON.parse(readFileSync(fileURLToPath(new URL("../scenarios/index.json", import.meta.url)), "utf8"));
    for (const element of ["kafka-timeline", "kafka-ladder"]) {
      mkdirSync(join(dir, element), { recursive: true });
      for (const { name } of index) writeFileSync(join(dir, element, `${name}.json`), JSON.stringify(scenarioRun(element, name)));
    }
    return;
  }
  if (args.length) throw new Error(`unknown arguments: ${args.join(" ")} (usage: node prebuild.mjs < fences.jsonl, or --scenarios DIR)`);
  const lines = createInterface({ input: process.stdin, crlfDelay: Infinity });
  let n = 0;
  for await (const line of lines) {
    n += 1;
    if (!line.trim()) continue;
    let req;
    try {
      req = JSON.parse(line);
    } catch (err) {
      throw new Error(`stdin line ${n}: not JSON (${err.message})`);
    }
    let out;
    try {
      out = prebuildFence(req);
    } catch (err) {
      out = { tag: null, attributes: {}, load: null, run: null, error: { line: 1, message: err instanceof Error ? err.message : String(err) } };
    }
    process.stdout.write(JSON.stringify({ id: req.id ?? null, ...out }) + "\n");
  }
}

/** Whether this module is the script node runs (also through a symlinked copy of the folder). */
function isMain() {
  if (!process.argv[1]) return false;
  try {
    return realpathSync(process.argv[1]) === realpathSync(fileURLToPath(import.meta.url));
  } catch {
    return false;
  }
}

if (isMain()) {
  main(process.argv.slice(2)).catch((err) => {
    console.error(`prebuild: ${err.message}`);
    process.exit(1);
  });
}
