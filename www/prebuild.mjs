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
//
// For a fence: `tag` and `attributes` are the element to put in its place (lib/fences.js, as the
// page-side eoslab-fences.js would make it; without `script` when there is a run, which holds it),
// `load` text for kafka-batch's load() (a dump in a layout only the paste detector reads) or null,
// `run` the run file to write next to the page and name in the element's `run` attribute (a
// relative URL), or null when the element has nothing to pre-build, and `error` null or
// {"line": N, "message": "…"}: the fence's script is wrong at line N of its body, and a docs build
// must fail with it as it fails on a broken link.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import * as eoslab from "../pkg/eoslab.js";
import * as decodeOnly from "../pkg/eoslab-decode.js";
import { makeFirstViewCalls, recordingDecoder } from "./lib/decode-replay.js";
import { fenceElement } from "./lib/fences.js";
import { computeRun, runFile } from "./lib/runs.js";

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
  return { ...runFile(decoder(), "kafka-batch", { script: null }, { calls }), input: { [force]: attributes[force] } };
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

async function main(args) {
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

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  main(process.argv.slice(2)).catch((err) => {
    console.error(`prebuild: ${err.message}`);
    process.exit(1);
  });
}
