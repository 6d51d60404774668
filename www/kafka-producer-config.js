// <kafka-producer-config>: what `new KafkaProducer(props)` makes of a producer config.
//
// A small form (enable.idempotence, acks, retries, max.in.flight.requests.per.connection,
// transactional.id, the client line) over a free-form .properties text; the core's resolver
// (resolveProducerConfig, the rules P1–P9 of KIP-679 and ProducerConfig) answers with the
// resolved settings and whether idempotence is on and why, or the exact ConfigException text.
//
//   <kafka-producer-config properties="acks=1&#10;enable.idempotence=true"></kafka-producer-config>
//
// Attributes (the source of truth): `properties` (the .properties text), `client` ("4.x",
// the default, or "pre-3.0"), `theme` ("light" | "dark" | "auto": lib/theme.js). Form edits rewrite `properties` (and `client`); the form follows
// the attribute. Event (bubbling, composed): `kafka-producer-config:resolve` {properties, client, result},
// then its deprecated older name `eoslab-config` with the same detail.
// Every value reaches the page through textContent, never innerHTML.
import { fetchRun, resolveConfig } from "./lib/runs.js";
import { dispatchWithLegacyName, el as h, lazyStyleSheet } from "./lib/dom.js";
import { SchemeWatcher } from "./lib/theme.js";
import {
  BaseElement, ComposedEvent, attachStyledShadow, defineElement, hostCSS, modelDarkSheet, microtaskUpdater, ready, reflectAttributes,
} from "./lib/element.js";

export const CONFIG_EVENT = "kafka-producer-config:resolve";
/** The event's earlier name, deprecated: still dispatched after CONFIG_EVENT with the same detail. */
export const LEGACY_CONFIG_EVENT = "eoslab-config";

/** `kafka-producer-config:resolve`: the config was resolved (result as resolveProducerConfig returns it). */
export class ProducerConfigEvent extends ComposedEvent {
  constructor(properties, client, result) {
    super(CONFIG_EVENT, { properties, client, result });
  }
}

const CLIENTS = ["4.x", "pre-3.0"];
const PRODUCER_CONFIG_SOURCE = "clients/src/main/java/org/apache/kafka/clients/producer/ProducerConfig.java";

/** The resolver's rules, as the rule catalogue (P1–P9) states them, briefly. */
export const RULES = {
  P1: "acks must be one of all, -1, 0, 1; \"all\" is stored as -1",
  P2: "enable.idempotence defaults to true (since 3.0, KIP-679); set explicitly or not matters below",
  P3: "idempotence needs retries > 0: an explicit enable.idempotence=true throws, an unset one is silently turned off",
  P4: "idempotence needs acks=all: an explicit enable.idempotence=true throws, an unset one is silently turned off",
  P5: "idempotence needs max.in.flight.requests.per.connection ≤ 5: a ConfigException in 4.x even when enable.idempotence is unset",
  P6: "a silent turn-off (P3/P4) is applied: enable.idempotence becomes false",
  P7: "a transactional.id needs idempotence: a ConfigException when it ends up off",
  P8: "transaction.two.phase.commit.enable=true cannot go with a user-set transaction.timeout.ms",
  P9: "with enable.idempotence=false none of P3–P5 apply",
};

/** The form's fields: property key → control. */
const FIELDS = [
  { key: "enable.idempotence", type: "select", options: ["true", "false"] },
  { key: "acks", type: "select", options: ["all", "-1", "1", "0"] },
  { key: "retries", type: "text", inputmode: "numeric", placeholder: "unset (2147483647)" },
  { key: "max.in.flight.requests.per.connection", type: "text", inputmode: "numeric", placeholder: "unset (5)" },
  { key: "transactional.id", type: "text", placeholder: "unset" },
];

// --- .properties text -----------------------------------------------------------------------

/** One logical line's key and value, as java.util.Properties reads simple lines; null for comments. */
function parseLine(line) {
  const t = line.replace(/^\s+/, "");
  if (t === "" || t[0] === "#" || t[0] === "!") return null;
  const m = /^((?:\\.|[^\s=:\\])+)\s*(?:[=:]\s*|\s+|$)(.*)$/.exec(t);
  if (!m) return null;
  return { key: m[1].replace(/\\(.)/g, "$1"), value: m[2].replace(/\s+$/, "") };
}

/** The value of `key` (the last line wins, as in Properties), or null when unset. */
export function getProperty(text, key) {
  let value = null;
  for (const line of text.split(/\r?\n/)) {
    const kv = parseLine(line);
    if (kv && kv.key === key) value = kv.value;
  }
  return value;
}

/** `text` with `key` set to `value` (its last line replaced, other lines for it removed), or removed when value is null. */
export function setProperty(text, key, value) {
  const lines = text === "" ? [] : text.split(/\r?\n/);
  let lastIndex = -1;
  lines.forEach((line, i) => {
    const kv = parseLine(line);
    if (kv && kv.key === key) lastIndex = i;
  });
  const out = [];
  lines.forEach((line, i) => {
    const kv = parseLine(line);
    if (kv && kv.key === key) {
      if (i === lastIndex && value !== null) out.push(`${key}=${value}`);
      return;
    }
    out.push(line);
  });
  if (lastIndex < 0 && value !== null) {
    while (out.length && out[out.length - 1].trim() === "") out.pop();
    out.push(`${key}=${value}`);
  }
  return out.join("\n");
}

// --- element --------------------------------------------------------------------------------

const CSS = `
${hostCSS()}
.layout { display: grid; grid-template-columns: minmax(15rem, 1fr) minmax(15rem, 1.2fr); gap: .75rem; }
@media (max-width: 40rem) { .layout { grid-template-columns: minmax(0, 1fr); } }
form { display: grid; gap: .35rem; margin: 0; }
label { display: grid; grid-template-columns: minmax(0, 1fr) minmax(6rem, 9rem); overflow-wrap: anywhere; gap: .5rem; align-items: center; font-family: var(--eos-mono); font-size: 12.5px; }
label.text { grid-template-columns: 1fr; }
fieldset { min-width: 0; border: 1px solid var(--eos-border); border-radius: 6px; margin: 0; padding: .2rem .5rem .35rem; font-size: 13px; }
fieldset label { display: inline-flex; gap: .3rem; margin-right: .8rem; font-family: inherit; font-size: 13px; }
legend { color: var(--eos-muted); padding: 0 .25rem; }
input, select, textarea { font: 13px var(--eos-mono); color: var(--eos-fg); background: var(--eos-panel); border: 1px solid var(--eos-border);
                          border-radius: 5px; padding: .15rem .35rem; width: 100%; }
input[type="radio"] { width: auto; }
textarea { min-height: 6.5rem; resize: vertical; line-height: 1.4; }
input:focus-visible, select:focus-visible, textarea:focus-visible { outline: 2px solid var(--eos-accent); outline-offset: 1px; }
.result-title { margin: 0 0 .3rem; font-size: 13px; color: var(--eos-muted); font-weight: 600; }
table { border-collapse: collapse; font-size: 13px; width: 100%; }
td { overflow-wrap: anywhere; }
.layout > * { min-width: 0; }
th, td { border: 1px solid var(--eos-border); padding: .15rem .45rem; text-align: left; vertical-align: top; }
th { background: var(--eos-panel); font-weight: 600; font-family: var(--eos-mono); font-size: 12.5px; white-space: nowrap; }
td { font-family: var(--eos-mono); font-size: 12.5px; }
.on { color: var(--eos-ok); font-weight: 700; }
.off { color: var(--eos-bad); font-weight: 700; }
ul.rules { margin: .35rem 0 0; padding-left: 1.1rem; font-size: 12.5px; }
ul.rules li { margin: .1rem 0; }
.rule { font-family: var(--eos-mono); font-weight: 700; }
.exception { border: 1px solid var(--eos-bad); border-left-width: 4px; border-radius: 6px; padding: .4rem .6rem; }
.exception .name { color: var(--eos-bad); font-family: var(--eos-mono); font-weight: 700; font-size: 12.5px; overflow-wrap: anywhere; }
.exception .message { display: block; font-family: var(--eos-mono); font-size: 13px; margin: .25rem 0; }
.muted, .source { color: var(--eos-muted); font-size: 12px; }
.source { font-family: var(--eos-mono); overflow-wrap: anywhere; }
`;

const styleSheet = lazyStyleSheet(CSS);
let uid = 0;

export class KafkaProducerConfigElement extends BaseElement {
  static define(tag = "kafka-producer-config", registry = globalThis.customElements) {
    return defineElement(this, tag, registry);
  }

  static get observedAttributes() {
    return ["properties", "client", "run", "theme"];
  }

  #root = null;
  #ui = null;
  #result = null;
  #id = ++uid;

  // properties: the attribute (or ""), defined by reflectAttributes after the class.
  get client() {
    const v = this.getAttribute("client");
    return CLIENTS.includes(v) ? v : "4.x";
  }
  set client(v) {
    this.setAttribute("client", CLIENTS.includes(v) ? v : "4.x");
  }
  /** The last resolution, as resolveProducerConfig returns it (null before the first). */
  get result() {
    return this.#result;
  }

  connectedCallback() {
    if (!this.#root) this.#build();
    this.#scheme.connect();
    this.#schedule();
  }

  disconnectedCallback() {
    this.#scheme.disconnect();
  }

  attributeChangedCallback(name, oldValue, newValue) {
    if (oldValue === newValue) return;
    if (name === "theme") return this.#scheme.update();
    this.#schedule();
  }

  #scheme = new SchemeWatcher(this, modelDarkSheet);

  #schedule = microtaskUpdater(() => this.#update(), () => this.isConnected);

  #build() {
    this.#root = attachStyledShadow(this, styleSheet());
    const ui = { fields: new Map() };
    const form = h("form", { part: "form", "aria-label": "Producer config" });
    const radios = CLIENTS.map((c) =>
      h("label", {}, h("input", { type: "radio", name: `client-${this.#id}`, value: c }), c === "4.x" ? "Kafka 4.x client" : "pre-3.0 client (2.x defaults)"));
    ui.client = h("fieldset", {}, h("legend", {}, "client line"), radios);
    form.append(ui.client);
    for (const f of FIELDS) {
      const id = `f-${this.#id}-${f.key.replace(/\W/g, "-")}`;
      let control;
      if (f.type === "select") {
        control = h("select", { id, "data-key": f.key }, h("option", { value: "" }, "(unset)"), f.options.map((o) => h("option", { value: o }, o)));
      } else {
        control = h("input", { id, type: "text", "data-key": f.key, inputmode: f.inputmode, placeholder: f.placeholder, autocomplete: "off", spellcheck: "false" });
      }
      ui.fields.set(f.key, control);
      form.append(h("label", { for: id }, f.key, control));
    }
    ui.text = h("textarea", { id: `props-${this.#id}`, spellcheck: "false", autocomplete: "off", "data-key": "*", rows: "6" });
    form.append(h("label", { class: "text", for: `props-${this.#id}` }, "producer .properties (free form; the fields above edit it)", ui.text));
    ui.result = h("div", { class: "result", part: "result", "aria-live": "polite" });
    this.#root.append(h("div", { class: "layout" }, form, ui.result));
    this.#ui = ui;

    form.addEventListener("submit", (ev) => ev.preventDefault());
    form.addEventListener("input", (ev) => this.#onInput(ev));
    form.addEventListener("change", (ev) => this.#onInput(ev));
  }

  #onInput(ev) {
    const t = ev.target;
    if (!(t instanceof Element)) return;
    if (t.name === `client-${this.#id}`) {
      if (t.checked) this.client = t.value;
      return;
    }
    const key = t.dataset.key;
    if (!key) return;
    if (key === "*") {
      this.properties = t.value;
      return;
    }
    const value = t.value.trim() === "" ? null : t.value.trim();
    this.properties = setProperty(this.properties, key, value);
  }

  async #update() {
    if (!this.#ui) return;
    const text = this.properties;
    const client = this.client;
    // The form follows the attribute (without disturbing the control being typed in).
    const focused = this.#root.activeElement;
    if (this.#ui.text.value !== text && focused !== this.#ui.text) this.#ui.text.value = text;
    for (const [key, control] of this.#ui.fields) {
      const v = getProperty(text, key) ?? "";
      if (control.tagName === "SELECT" && v !== "" && ![...control.options].some((o) => o.value === v)) {
        control.append(h("option", { value: v, "data-typed": "" }, `${v} (as typed)`));
      }
      if (control.value !== v && !(focused === control && control.value.trim() === v)) control.value = v;
    }
    for (const r of this.#ui.client.querySelectorAll("input")) r.checked = r.value === client;

    // A pre-built answer (the `run` attribute's file, made at build time for these very properties
    // and client) is shown as it is; otherwise the model resolves them.
    let result = null;
    const runUrl = (this.getAttribute("run") ?? "").trim();
    if (runUrl) {
      try {
        const file = await fetchRun(new URL(runUrl, this.ownerDocument?.baseURI ?? location.href), "kafka-producer-config");
        if (file.input?.properties === text && file.input?.client === client) result = file.run.result;
      } catch (err) {
        console.warn(`<kafka-producer-config>: ${err instanceof Error ? err.message : err}; resolving in the page instead`);
      }
    }
    if (!result) result = resolveConfig(await ready(), text, client);
    if (text !== this.properties || client !== this.client) return; // changed meanwhile: the next update shows it
    this.#result = result;
    this.#render(result, client);
    dispatchWithLegacyName(this, new ProducerConfigEvent(text, client, result), LEGACY_CONFIG_EVENT);
  }

  #render(r, client) {
    const out = this.#ui.result;
    const heading = h("p", { class: "result-title" }, `new KafkaProducer(props) — ${client === "pre-3.0" ? "a pre-3.0 client" : "a Kafka 4.x client"}`);
    if (!r.ok) {
      const fqcn = r.exception === "ConfigException" ? "org.apache.kafka.common.config.ConfigException" : r.exception;
      out.replaceChildren(
        heading,
        h("div", { class: "exception", role: "alert", "data-rule": r.rule ?? "" },
          h("span", { class: "name" }, `throws ${fqcn}`),
          h("span", { class: "message" }, r.message),
          r.rule ? h("span", { class: "muted" }, h("span", { class: "rule" }, r.rule), ` — ${RULES[r.rule] ?? ""}`) : null,
          h("span", { class: "source" }, ` · source: ${PRODUCER_CONFIG_SOURCE}`)),
      );
      return;
    }
    const acks = r.acks === "-1" ? "-1 (all)" : String(r.acks);
    const rows = [
      ["idempotence", h("span", { class: r.idempotence ? "on" : "off" }, r.idempotence ? "on" : "off"), r.reason ? ` — ${r.reason}` : ""],
      ["acks", acks],
      ["retries", String(r.retries)],
      ["max.in.flight.requests.per.connection", String(r.maxInFlight)],
      ["transactional.id", r.transactionalId ?? "(none)"],
    ];
    const table = h("table", { class: "resolved" }, h("tbody", {},
      rows.map(([k, ...v]) => h("tr", { "data-field": k }, h("th", { scope: "row" }, k), h("td", {}, ...v)))));
    const rules = h("ul", { class: "rules", "aria-label": "rules applied" },
      (r.rules ?? []).map((id) => h("li", { "data-rule": id }, h("span", { class: "rule" }, id), ` ${RULES[id] ?? ""}`)));
    out.replaceChildren(heading, table, rules, h("p", { class: "source" }, `source: ${PRODUCER_CONFIG_SOURCE}`));
  }
}

reflectAttributes(KafkaProducerConfigElement, { properties: String });

if (globalThis.customElements) KafkaProducerConfigElement.define();
