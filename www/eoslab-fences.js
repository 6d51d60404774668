// eoslab-fences.js: turns Markdown code fences into live elements, for documentation sites —
//   <script type="module" src=".../eoslab/eoslab-fences.js"></script>
//
//   ```kafka-batch          Kafka bytes: hex, base64, or any dump the inspector reads (xxd, hexdump -C …)
//   ```kafka-scenario       a scenario script (a transactions script — `model transactions` first, or
//                           any line only those read — <kafka-timeline>, else <kafka-ladder>), or
//                           just the name of a built-in scenario
//   ```kafka-ladder         the same, always drawn by <kafka-ladder> (a transactions script as a
//   ```kafka-timeline       sequence diagram) or always by <kafka-timeline> (an idempotence
//                           script's run on its lanes): the view chosen by the author
//   ```kafka-config         producer .properties text → <kafka-producer-config>
//
// It recognises the fences as the generators render them:
//   MkDocs (pymdownx.highlight + superfences)  <div class="language-kafka-batch highlight"><pre><span></span><code>…
//   MkDocs superfences custom fence            <pre class="kafka-batch"><code>…
//   Docusaurus (prism-react-renderer)          <div class="language-kafka-batch …"><div …><pre class="prism-code language-kafka-batch …"><code>
//                                              <span class="token-line">…<br></span>…
//   plain Markdown (markdown-it, marked …)     <pre><code class="language-kafka-batch">…
// The element is inserted before the block, and the block is hidden (attribute `hidden`), not
// removed: without JavaScript (or when this module fails to load) the reader sees the original
// text. Elements are created compact and read-only. The text is read as text (never markup).
// Each element's module is imported only when the page has one (a fence of its kind, or the
// element written in the page, as the MkDocs and Docusaurus plugins write them with a pre-built
// `run`): one script tag serves every page, and a page pays for the elements it shows.
//
// Pages that swap their content in place (MkDocs Material's navigation.instant, Docusaurus' client
// routing) are covered by one MutationObserver on <body> that upgrades blocks as they arrive (on a
// Docusaurus page, only once React has hydrated it: changing its markup before is a mismatch); a
// page that wants to stop it calls stopFences(). upgradeFences(root) upgrades one subtree now.
import { FENCE_KINDS as KINDS, fenceElement } from "./lib/fences.js";

// Each element's module, imported the first time the page has one (from a fence, or written in the
// page as the MkDocs and Docusaurus plugins write them): a page with one timeline loads the
// timeline's module only.
const ENTRIES = {
  "kafka-batch": () => import("./kafka-batch.js"),
  "kafka-ladder": () => import("./kafka-ladder.js"),
  "kafka-timeline": () => import("./kafka-timeline.js"),
  "kafka-producer-config": () => import("./kafka-producer-config.js"),
};
const TAGS = Object.keys(ENTRIES);
const importing = new Map();

/** Imports the module of element `tag` once (a failed import is tried again next time). */
export function defineElement(tag) {
  if (!importing.has(tag)) {
    importing.set(tag, ENTRIES[tag]().catch((err) => {
      importing.delete(tag);
      throw err;
    }));
  }
  return importing.get(tag);
}

/** Imports the modules of the eoslab elements under `root` (and `root` itself) not yet defined. */
export function defineElementsIn(root) {
  for (const tag of TAGS) {
    if (customElements.get(tag)) continue;
    if ((root.nodeType === Node.ELEMENT_NODE && root.localName === tag) || root.querySelector?.(tag)) {
      defineElement(tag).catch((err) => console.error(`eoslab: <${tag}> could not be loaded: ${err.message}`));
    }
  }
}

const DONE = "data-eoslab-fence";
const SELECTOR = KINDS.flatMap((k) => [`div.language-${k}`, `pre.${k}`, `pre.language-${k}`, `code.language-${k}`]).join(", ");

/** The code text of a rendered block: text nodes, <br> as line breaks, one line per Docusaurus token-line. */
export function codeText(node) {
  let out = "";
  const walk = (n) => {
    for (const c of n.childNodes) {
      if (c.nodeType === Node.TEXT_NODE) out += c.data;
      else if (c.nodeName === "BR") out += "\n";
      else if (c.nodeType === Node.ELEMENT_NODE) {
        walk(c);
        if (c.classList.contains("token-line") && !out.endsWith("\n")) out += "\n";
      }
    }
  };
  walk(node);
  return out.replace(/\s+$/, "") + "\n";
}

/** The outermost element of the block that `hit` belongs to (the one that is hidden), and its kind. */
function blockOf(hit) {
  let block = hit;
  for (let up = hit.parentElement; up && up !== document.body; up = up.parentElement) {
    if (KINDS.some((k) => up.matches(`div.language-${k}, pre.${k}, pre.language-${k}`))) block = up;
  }
  // A bare <code class="language-…"> sits in a <pre>: hide the <pre>.
  if (block.matches("code") && block.parentElement?.matches("pre")) block = block.parentElement;
  const kind = KINDS.find((k) => [block, hit].some((n) => n.classList.contains(`language-${k}`) || n.classList.contains(k)));
  return { block, kind };
}

/** The element for a fence of `kind` with body `text` (lib/fences.js decides which, with which attributes). */
export function elementFor(kind, text) {
  const { tag, attributes, load } = fenceElement(kind, text);
  const el = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) el.setAttribute(name, value);
  if (load !== null) customElements.whenDefined(tag).then(() => el.load(load, "code block"));
  defineElement(tag).catch((err) => console.error(`eoslab: <${tag}> could not be loaded: ${err.message}`));
  return el;
}

/** Upgrades every not yet upgraded fence under `root`; returns the elements it inserted. */
export function upgradeFences(root = document) {
  const made = [];
  const hits = root.nodeType === Node.ELEMENT_NODE && root.matches(SELECTOR) ? [root] : [];
  hits.push(...root.querySelectorAll(SELECTOR));
  for (const hit of hits) {
    const { block, kind } = blockOf(hit);
    if (!kind || block.hasAttribute(DONE) || !block.isConnected) continue;
    const codes = block.matches("code") ? [block] : block.querySelectorAll("code");
    const code = codes.length ? codes[codes.length - 1] : block;
    const el = elementFor(kind, codeText(code));
    el.setAttribute(DONE, kind);
    block.setAttribute(DONE, "source");
    block.before(el);
    block.hidden = true;
    // A theme's `pre { display: … }` beats the hidden attribute (MkDocs Material's flow-root does):
    // an inline style set through the CSSOM wins, and a strict CSP allows it.
    block.style.setProperty("display", "none", "important");
    made.push(el);
  }
  return made;
}

let observer = null;

/** Stops upgrading fences that arrive later (the observer of <body>). */
export function stopFences() {
  observer?.disconnect();
  observer = null;
}

function start() {
  upgradeFences(document);
  defineElementsIn(document);
  if (observer || !document.body) return;
  observer = new MutationObserver((records) => {
    for (const r of records) {
      for (const n of r.addedNodes) {
        if (n.nodeType !== Node.ELEMENT_NODE) continue;
        if (!n.hasAttribute(DONE)) upgradeFences(n);
        defineElementsIn(n);
      }
    }
  });
  observer.observe(document.body, { childList: true, subtree: true });
}

/**
 * Docusaurus renders its pages on the server and React hydrates them: a block changed before
 * hydration is a hydration mismatch (React error #418, the page re-rendered on the client). Wait
 * until Docusaurus says it has hydrated (`<html data-has-hydrated="true">`, set by its
 * `HtmlClassNameProvider` on the first client render); any other page starts at once.
 */
function whenHydrated(go) {
  const html = document.documentElement;
  if (!document.getElementById("__docusaurus") || html.getAttribute("data-has-hydrated") === "true") return go();
  let started = false;
  const once = () => {
    if (started) return;
    started = true;
    mo.disconnect();
    clearTimeout(timer);
    go();
  };
  const mo = new MutationObserver(() => html.getAttribute("data-has-hydrated") === "true" && once());
  mo.observe(html, { attributes: true, attributeFilter: ["data-has-hydrated"] });
  // A Docusaurus older than the attribute (or a page that never hydrates): start anyway.
  const timer = setTimeout(once, 5000);
}

if (globalThis.document) {
  const go = () => whenHydrated(start);
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", go, { once: true });
  else go();
}
