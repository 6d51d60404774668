// frame.html: one element configured from the URL hash, for docs hosts that forbid scripts in
// their own pages but allow an <iframe> ("An iframe fallback"):
//
//   <iframe class="eoslab-frame" width="690" height="520" title="Fencing a zombie producer" loading="lazy"
//           src="eoslab/frame.html#kafka-timeline?scenario=txn-zombie-fenced&amp;step=3"></iframe>
//
// (a relative src, and no style="…": a host page under style-src 'self' drops that attribute; the
// width comes from a class in the host's stylesheet — docs/pages/embedding.md "An iframe fallback").
//
// The hash takes two forms:
//   #ELEMENT?ATTR=VALUE&ATTR…   one of kafka-batch, kafka-ladder, kafka-timeline, kafka-producer-config,
//                               with its attributes URL-encoded (a bare name is a boolean attribute);
//                               what an author writes by hand.
//   #s=1.…                     the state format of the lab's share links (lib/link-state.js): a link
//                               copied from the inspector, the idempotence or the transactions page
//                               opens the same moment here ({page, sample|bytes, batch, field} or
//                               {page, scenario|script, step}), and {element, attrs} names any element.
// Frames are compact and read-only unless the hash sets `compact=0` / `readonly=0`.
//
// Sizing: the frame posts its content height to the parent whenever it changes —
//   {type: "eoslab:frame-size", height: <CSS px>, id: <the hash's `frame` attribute, or null>}
// — and a host that allows one script file of its own sets the iframe's height attribute to it
// (docs/pages/embedding.md "An iframe fallback", tested by tests/browser/embed-frames.test.mjs).
// Nothing of the hash is ever inserted as markup: attributes are set with setAttribute, scripts
// and bytes are handed to the elements as text.
import { decodeState } from "./lib/link-state.js";
import { isScenarioName } from "./lib/script-kind.js";
import { SAMPLE_HEX, SAMPLES } from "./lib/samples.js";

const ELEMENTS = {
  "kafka-batch": () => import("./kafka-batch.js"),
  "kafka-ladder": () => import("./kafka-ladder.js"),
  "kafka-timeline": () => import("./kafka-timeline.js"),
  "kafka-producer-config": () => import("./kafka-producer-config.js"),
};
// Attributes a frame may set, per element (what each element observes, plus the layout ones).
const ATTRS = {
  "kafka-batch": ["hex", "base64", "readonly", "batch", "compare-hex", "rows", "theme", "compact"],
  "kafka-ladder": ["scenario", "script", "step", "readonly", "transaction-version", "theme", "compact", "presenter", "predict"],
  "kafka-timeline": ["scenario", "script", "step", "readonly", "transaction-version", "theme", "compact", "presenter", "predict"],
  "kafka-producer-config": ["properties", "client", "theme"],
};

/** The frame's configuration from `hash`: {element, attrs, field?, warning?} or {error}. */
export async function frameConfig(hash) {
  if (hash.startsWith("#s=")) {
    const linked = await decodeState(hash);
    if (!linked) return { error: "this hash is not a state link" };
    if (!linked.state) return { error: linked.error };
    // A damaged link of which a part could be read: that part is shown, under what is wrong with it.
    const cfg = fromState(linked.state);
    if (linked.error) return cfg.error ? { error: `${linked.error}; ${cfg.error}` } : { ...cfg, warning: linked.error };
    return cfg;
  }
  const m = /^#([a-z-]+)(?:\?(.*))?$/s.exec(hash);
  if (!m) return { error: "the hash names no element: #kafka-batch?hex=…, #kafka-ladder?scenario=…, #kafka-timeline?scenario=…, #kafka-producer-config?properties=… or a share link's #s=1.…" };
  if (!ELEMENTS[m[1]]) return { error: `unknown element “${m[1]}” (one of ${Object.keys(ELEMENTS).join(", ")})` };
  const attrs = {};
  for (const part of (m[2] ?? "").split("&")) {
    if (!part) continue;
    const eq = part.indexOf("=");
    const key = decodeURIComponent(eq < 0 ? part : part.slice(0, eq));
    const value = eq < 0 ? "" : decodeURIComponent(part.slice(eq + 1).replace(/\+/g, " "));
    attrs[key] = value;
  }
  return { element: m[1], attrs };
}

/** A share link's state (or an {element, attrs} one) as a frame configuration. */
function fromState(state) {
  const step = Number.isInteger(state.step) && state.step >= 0 ? String(state.step) : undefined;
  if (typeof state.element === "string") {
    if (!ELEMENTS[state.element]) return { error: `unknown element “${state.element}”` };
    const attrs = {};
    for (const [k, v] of Object.entries(state.attrs ?? {})) if (typeof v === "string") attrs[k] = v;
    return { element: state.element, attrs };
  }
  if (state.page === "inspector") {
    const attrs = {};
    if (typeof state.bytes === "string") attrs.base64 = state.bytes;
    else if (state.sample === "sample") attrs.hex = SAMPLE_HEX;
    else if (typeof state.sample === "string" && SAMPLES[state.sample]) attrs.text = SAMPLES[state.sample];
    else if (state.sample === "segment") return { error: "the 10,000-batch sample segment is made on the inspector page; open the link there" };
    else return { error: "this inspector link holds no bytes" };
    if (Number.isInteger(state.batch) && state.batch > 0) attrs.batch = String(state.batch);
    return { element: "kafka-batch", attrs, field: typeof state.field === "string" ? state.field : null };
  }
  if (state.page === "idempotence" || state.page === "transactions") {
    const attrs = {};
    if (typeof state.scenario === "string" && isScenarioName(state.scenario)) attrs.scenario = state.scenario;
    if (typeof state.script === "string") attrs.script = state.script;
    if (!attrs.scenario && !attrs.script) return { error: "this link holds no scenario" };
    if (step) attrs.step = step;
    return { element: state.page === "idempotence" ? "kafka-ladder" : "kafka-timeline", attrs };
  }
  return { error: "this link is not one of the inspector's, the idempotence page's or the transactions page's" };
}

const sheet = new CSSStyleSheet();
sheet.replaceSync(`
html, body { margin: 0; padding: 0; background: transparent; }
body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; }
.frame-error { margin: .5rem; padding: .5rem .7rem; border: 1px solid #b3261e; border-radius: 6px; color: #b3261e; }
.frame-warning { margin: .3rem .5rem; font-size: 12.5px; color: #7d4e00; }
`);
document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet];

let frameId = null;
let lastHeight = -1;
function postSize() {
  const height = Math.ceil(document.documentElement.getBoundingClientRect().height);
  if (height === lastHeight) return;
  lastHeight = height;
  if (window.parent !== window) window.parent.postMessage({ type: "eoslab:frame-size", height, id: frameId }, "*");
  document.body.dataset.height = String(height);
}

function showError(message) {
  const p = document.createElement("p");
  p.className = "frame-error";
  p.setAttribute("role", "alert");
  p.textContent = `eoslab frame: ${message}`;
  document.body.replaceChildren(p);
}

async function render() {
  const cfg = await frameConfig(location.hash);
  if (cfg.error) {
    showError(cfg.error);
    return;
  }
  frameId = cfg.attrs.frame ?? null;
  await ELEMENTS[cfg.element]();
  const el = document.createElement(cfg.element);
  const allowed = ATTRS[cfg.element];
  const unknown = Object.keys(cfg.attrs).filter((k) => !allowed.includes(k) && k !== "frame" && k !== "text");
  if (unknown.length) {
    showError(`${cfg.element} has no attribute ${unknown.map((k) => `“${k}”`).join(", ")} (it takes ${allowed.join(", ")})`);
    return;
  }
  // Compact and read-only by default, as an embedded widget is.
  const defaults = cfg.element === "kafka-producer-config" ? {} : { compact: "", readonly: "" };
  for (const [k, v] of Object.entries({ ...defaults, ...cfg.attrs })) {
    if (k === "frame" || k === "text") continue;
    if ((k === "compact" || k === "readonly") && (v === "0" || v === "false")) continue;
    el.setAttribute(k, v);
  }
  if (cfg.warning) {
    const p = document.createElement("p");
    p.className = "frame-warning";
    p.setAttribute("role", "status");
    p.textContent = `eoslab frame: ${cfg.warning}`;
    document.body.replaceChildren(p, el);
  } else document.body.replaceChildren(el);
  if (cfg.element === "kafka-batch") {
    await customElements.whenDefined("kafka-batch");
    if (typeof cfg.attrs.text === "string") await el.load(cfg.attrs.text, "sample");
    if (cfg.field) {
      for (let i = 0; i < 120 && !el.selectField(cfg.field); i++) await new Promise((r) => requestAnimationFrame(r));
    }
  }
}

new ResizeObserver(postSize).observe(document.documentElement);
window.addEventListener("hashchange", () => render().catch((err) => showError(err instanceof Error ? err.message : String(err))));
render()
  .catch((err) => showError(err instanceof Error ? err.message : String(err)))
  .finally(() => {
    postSize();
    document.body.dataset.ready = "1";
  });
