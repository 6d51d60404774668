// docusaurus-eoslab: eoslab's code fences (```kafka-batch, ```kafka-scenario, ```kafka-ladder,
// ```kafka-timeline, ```kafka-config) become their elements when `docusaurus build` compiles the
// Markdown, and the scenario players' runs are computed then, by eoslab's own prebuild.mjs (the
// wasm package, in Node), so a reader sees each widget drawn with no WebAssembly downloaded: the
// element draws the run file its `run` attribute names and loads the wasm only when the reader
// acts (edits, forks).
//
//   import { eoslabDocusaurus } from "docusaurus-eoslab";
//   const eoslab = eoslabDocusaurus({ dist: "node_modules/eoslab" });   // the dist/eoslab folder
//   export default {
//     plugins: [eoslab.plugin],
//     presets: [["classic", { docs: { remarkPlugins: [eoslab.remark] } }]],
//   };
//
// Two halves sharing one state, which is why they come from one call:
//   remark   a remark plugin: each fence → an MDX JSX flow element holding the custom element
//            with its attributes (`run="<baseUrl>eoslab-runs/<sha256:16>.json"` for a pre-built
//            player; see elementNode for why it is escaped markup in a <div>, not JSX),
//            the run written to <siteDir>/node_modules/.cache/docusaurus-eoslab/runs/. A fence whose script is
//            wrong fails the build: "<file>:<line>: <message>", the line in the Markdown file.
//   plugin   the Docusaurus plugin: the module script <baseUrl>eoslab/eoslab.js in every page's
//            head, and after the build dist/eoslab copied to <outDir>/eoslab/ and every run file a
//            built page names copied to <outDir>/eoslab-runs/ (read back from the run store, so a
//            page webpack's persistent cache did not recompile still gets its runs); under
//            `docusaurus start`, the dev server serves both folders at those paths.
// No dependencies: the Markdown tree is walked here; the fences' meaning is eoslab's (prebuild.mjs).
import { createHash } from "node:crypto";
import { cpSync, existsSync, mkdirSync, readFileSync, readdirSync, renameSync, statSync, writeFileSync } from "node:fs";
import { basename, isAbsolute, join, relative, resolve } from "node:path";
import { pathToFileURL } from "node:url";

/** The fence languages eoslab gives a meaning to (www/lib/fences.js, FENCE_KINDS). */
export const FENCE_KINDS = ["kafka-batch", "kafka-scenario", "kafka-ladder", "kafka-timeline", "kafka-config"];

const NAME = "docusaurus-eoslab";
const HASH = /^[0-9a-f]{16}$/;
const escapeRegExp = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** "line 4: unknown step …" → "unknown step …" (the file:line prefix replaces it). */
const withoutLine = (message) => String(message).replace(/^line \d+:\s*/, "");

const escapeAttribute = (v) => String(v).replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

/**
 * The MDX node that puts element `tag` with `attributes` in a fence's place:
 *   <div className="eoslab-element" dangerouslySetInnerHTML={{__html: '<kafka-ladder run="…" …></kafka-ladder>'}} />
 * The element is markup React does not own, its attribute values escaped (& " < >), rather than
 * a JSX element: in the browser React 19 gives a custom element that is already defined (every
 * page after the first, in Docusaurus' client-side navigation) its props as *properties* when the
 * element has one of that name (`el.run = "…"`), and an element's property need not take the
 * attribute's text (kafka-ladder's `run` is the run it shows, with no setter: React throws and
 * the page is not rendered). Parsed markup sets attributes, before the element upgrades, on the
 * server's HTML and on a client-side navigation alike; hydration leaves it as it is.
 */
function elementNode(tag, attributes, position) {
  if (!/^[a-z][a-z0-9]*-[a-z0-9-]+$/.test(tag)) throw new Error(`${NAME}: not a custom element name: "${tag}"`);
  let html = `<${tag}`;
  for (const [name, value] of Object.entries(attributes)) {
    if (!/^[a-z][a-z0-9-]*$/.test(name)) throw new Error(`${NAME}: not an attribute name: "${name}"`);
    html += ` ${name}="${escapeAttribute(value)}"`;
  }
  html += `></${tag}>`;
  const object = {
    type: "ObjectExpression",
    properties: [{ type: "Property", kind: "init", method: false, shorthand: false, computed: false, key: { type: "Identifier", name: "__html" }, value: { type: "Literal", value: html } }],
  };
  return {
    type: "mdxJsxFlowElement",
    name: "div",
    attributes: [
      { type: "mdxJsxAttribute", name: "className", value: "eoslab-element" },
      {
        type: "mdxJsxAttribute",
        name: "dangerouslySetInnerHTML",
        value: {
          type: "mdxJsxAttributeValueExpression",
          value: `{__html: ${JSON.stringify(html)}}`,
          data: { estree: { type: "Program", sourceType: "module", comments: [], body: [{ type: "ExpressionStatement", expression: object }] } },
        },
      },
    ],
    children: [],
    position,
  };
}

/**
 * The plugin and the remark plugin, sharing the build's state. Options:
 *   dist       the dist/eoslab folder (make dist), absolute or relative to the site's folder. Required.
 *   prebuild   its prebuild.mjs (default <dist>/prebuild.mjs).
 *   path       where dist/eoslab is copied in the build output, under baseUrl (default "eoslab").
 *   runs       the folder of the run files in the build output, under baseUrl (default "eoslab-runs").
 *   copy       copy dist/eoslab into the build output (default true; false when the site already
 *              has it as static/<path>).
 *   fences     also load eoslab-fences.js, which upgrades in the browser the code blocks left as they
 *              are (a kafka-batch dump in a layout only the element's load() reads) (default false).
 */
export function eoslabDocusaurus(options = {}) {
  if (!options || typeof options.dist !== "string" || !options.dist) throw new Error(`${NAME}: the "dist" option (the dist/eoslab folder) is required`);
  const opts = { prebuild: null, path: "eoslab", runs: "eoslab-runs", copy: true, fences: false, ...options };
  for (const k of ["path", "runs"]) {
    if (!/^[A-Za-z0-9._-]+(\/[A-Za-z0-9._-]+)*$/.test(opts[k])) throw new Error(`${NAME}: option "${k}" must be a relative URL path (letters, digits, . _ - and /), not "${opts[k]}"`);
  }
  const state = { context: null, dist: null, prebuildPath: null, prebuild: null, store: null };

  /** prebuild.mjs's prebuildFence, imported once. */
  const prebuildFence = () => {
    state.prebuild ??= import(pathToFileURL(state.prebuildPath).href).then((m) => {
      if (typeof m.prebuildFence !== "function") throw new Error(`${NAME}: ${state.prebuildPath} exports no prebuildFence (an eoslab older than the pre-built runs?)`);
      return m.prebuildFence;
    });
    return state.prebuild;
  };

  const runURL = (hash) => `${state.context.baseUrl}${opts.runs}/${hash}.json`;

  /** Writes `run` to the store (content-addressed, so a rewrite is the same bytes); its hash. */
  const storeRun = (run) => {
    const text = JSON.stringify(run);
    const hash = createHash("sha256").update(text).digest("hex").slice(0, 16);
    const file = join(state.store, `${hash}.json`);
    if (!existsSync(file)) {
      mkdirSync(state.store, { recursive: true });
      const tmp = `${file}.${process.pid}.tmp`;
      writeFileSync(tmp, text);
      renameSync(tmp, file);
    }
    return hash;
  };

  function plugin(context) {
    const dist = isAbsolute(opts.dist) ? opts.dist : resolve(context.siteDir, opts.dist);
    if (!existsSync(join(dist, "eoslab.js"))) throw new Error(`${NAME}: ${dist} is not eoslab's dist folder (no eoslab.js; make dist)`);
    const prebuildPath = opts.prebuild ? (isAbsolute(opts.prebuild) ? opts.prebuild : resolve(context.siteDir, opts.prebuild)) : join(dist, "prebuild.mjs");
    if (!existsSync(prebuildPath)) throw new Error(`${NAME}: ${prebuildPath} not found (an eoslab dist without prebuild.mjs?)`);
    // The run store lives beside webpack's persistent cache (node_modules/.cache/webpack), which
    // keeps compiled pages, their run URLs included: the two are kept, cached and cleared
    // (`docusaurus clear`) together.
    Object.assign(state, { context, dist, prebuildPath, store: join(context.siteDir, "node_modules", ".cache", NAME, "runs") });
    mkdirSync(state.store, { recursive: true });
    const base = context.baseUrl;
    return {
      name: NAME,
      injectHtmlTags() {
        const script = (file) => ({ tagName: "script", attributes: { type: "module", src: `${base}${opts.path}/${file}` } });
        return { headTags: [script("eoslab.js"), ...(opts.fences ? [script("eoslab-fences.js")] : [])] };
      },
      configureWebpack(config) {
        const out = {
          // `docusaurus start` (no postBuild): its dev server serves the dist folder and the run
          // store where the build would put them.
          devServer: {
            static: [
              { publicPath: `${base}${opts.path}/`, directory: dist, watch: false },
              { publicPath: `${base}${opts.runs}/`, directory: state.store, watch: false },
            ],
          },
        };
        // A compiled page cached by webpack holds runs made by this eoslab: another dist (its
        // prebuild.mjs, its wasm) must recompile the pages.
        if (config.cache?.type === "filesystem") {
          const wasm = join(dist, "pkg", "eoslab_bg.wasm");
          out.cache = { buildDependencies: { eoslab: [prebuildPath, ...(existsSync(wasm) ? [wasm] : [])] } };
        }
        return out;
      },
      async postBuild({ outDir }) {
        // Every run a built page (its HTML, or the JavaScript a client-side navigation renders it
        // from) names, from the store: the pages compiled in this build wrote theirs there, and a
        // page served from webpack's persistent cache wrote its own in the build that compiled it.
        const named = new RegExp(`${escapeRegExp(`${base}${opts.runs}/`)}([0-9a-f]{16})\\.json`, "g");
        const wanted = new Map(); // hash → a file that names it
        for (const rel of readdirSync(outDir, { recursive: true })) {
          if (!/\.(html|js)$/.test(rel) || !statSync(join(outDir, rel)).isFile()) continue;
          const text = readFileSync(join(outDir, rel), "utf8");
          for (const m of text.matchAll(named)) if (!wanted.has(m[1])) wanted.set(m[1], rel);
        }
        const out = join(outDir, ...opts.runs.split("/"));
        mkdirSync(out, { recursive: true });
        for (const [hash, page] of wanted) {
          const from = join(state.store, `${hash}.json`);
          if (!HASH.test(hash) || !existsSync(from)) {
            throw new Error(`${NAME}: ${page} names the run ${runURL(hash)}, which is not in ${state.store} (its page was compiled in a build whose run store is gone): run \`docusaurus clear\` and build again`);
          }
          cpSync(from, join(out, `${hash}.json`));
        }
        // After the scan, which then reads the site's own files only.
        if (opts.copy) {
          cpSync(dist, join(outDir, ...opts.path.split("/")), { recursive: true, filter: (src) => basename(src) !== "prebuild.mjs" });
        }
      },
    };
  }

  function remark() {
    return async (tree, file) => {
      if (!state.context) throw new Error(`${NAME}: the remark plugin runs without its Docusaurus plugin: add eoslabDocusaurus(…).plugin to the config's plugins`);
      const fences = [];
      (function walk(node) {
        if (!Array.isArray(node.children)) return;
        node.children.forEach((child, index) => {
          if (child.type === "code" && FENCE_KINDS.includes(child.lang)) fences.push({ parent: node, index, node: child });
          else walk(child);
        });
      })(tree);
      if (!fences.length) return;
      const build = await prebuildFence();
      const where = file.path ? relative(state.context.siteDir, file.path) : "<markdown>";
      for (const { parent, index, node } of fences) {
        const start = node.position?.start?.line ?? 1;
        let out;
        try {
          out = build({ fence: node.lang, text: node.value });
        } catch (err) {
          throw new Error(`${where}:${start}: ${err instanceof Error ? err.message : String(err)}`);
        }
        if (out.error) throw new Error(`${where}:${start + out.error.line}: ${withoutLine(out.error.message)}`);
        if (out.load !== null) {
          // A dump only the element's load() reads: the code block stays, for eoslab-fences.js.
          if (!opts.fences) console.warn(`[${NAME}] ${where}:${start}: this ${node.lang} dump stays a code block: only eoslab-fences.js turns it into <${out.tag}> in the browser (option fences: true loads it), or give the bytes as plain hex`);
          continue;
        }
        const attributes = { ...out.attributes };
        if (out.run) attributes.run = runURL(storeRun(out.run));
        parent.children[index] = elementNode(out.tag, attributes, node.position);
      }
    };
  }

  return { plugin, remark };
}

export default eoslabDocusaurus;
