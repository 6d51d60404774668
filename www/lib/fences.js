// fences.js: which element a documentation code fence becomes, as data — the one decision shared
// by the page-side upgrade (eoslab-fences.js) and the build-time pre-building (prebuild.mjs, which
// the MkDocs and Docusaurus plugins call). Importable in Node: nothing here touches the DOM.
//
//   ```kafka-batch          Kafka bytes: hex, base64, or any dump the inspector reads (xxd, hexdump -C …)
//   ```kafka-scenario       a scenario script (a transactions script — `model transactions` first, or
//                           any line only those read — <kafka-timeline>, else <kafka-ladder>), or
//                           just the name of a built-in scenario
//   ```kafka-ladder         the same, always drawn by <kafka-ladder> or always by <kafka-timeline>:
//   ```kafka-timeline       the view chosen by the author
//   ```kafka-config         producer .properties text → <kafka-producer-config>
import { isScenarioName, isTransactionsScript } from "./script-kind.js";

/** The fence languages, in the order the docs list them. */
export const FENCE_KINDS = ["kafka-batch", "kafka-scenario", "kafka-ladder", "kafka-timeline", "kafka-config"];

const HEX_ONLY = /^[\s0-9a-fA-F]+$/;
const BASE64_ONLY = /^[\sA-Za-z0-9+/=_-]+$/;

/** Whether `text` (a fence body) is just the name of a built-in scenario. */
export const scenarioName = (text) => {
  const body = text.trim();
  return isScenarioName(body) ? body : null;
};

/**
 * The element a fence of `kind` with body `text` becomes: `{tag, attributes, load}` — the tag,
 * its attributes (name → value; "" for a boolean one), and `load`: text to give the element's
 * load() rather than an attribute (a kafka-batch dump in a layout only the paste detector reads),
 * else null. Elements are made compact and read-only. Throws on an unknown kind.
 */
export function fenceElement(kind, text) {
  const body = text.trim();
  if (kind === "kafka-batch") {
    const attributes = { readonly: "", compact: "" };
    // Plain hex and base64 as attributes; anything else (an xxd / hexdump -C / Wireshark dump, a
    // byte-array literal) through load(), which detects the layout as a paste does.
    if (HEX_ONLY.test(body)) return { tag: kind, attributes: { ...attributes, hex: body }, load: null };
    if (BASE64_ONLY.test(body)) return { tag: kind, attributes: { ...attributes, base64: body }, load: null };
    return { tag: kind, attributes, load: body };
  }
  if (kind === "kafka-scenario" || kind === "kafka-ladder" || kind === "kafka-timeline") {
    const name = scenarioName(text);
    // kafka-scenario picks the view by the script's language; the other two name it.
    const byLanguage = name ? (name.startsWith("txn-") ? "kafka-timeline" : "kafka-ladder") : isTransactionsScript(body) ? "kafka-timeline" : "kafka-ladder";
    const tag = kind === "kafka-scenario" ? byLanguage : kind;
    const attributes = { compact: "", readonly: "" };
    if (name) attributes.scenario = name;
    else attributes.script = text;
    return { tag, attributes, load: null };
  }
  if (kind === "kafka-config") return { tag: "kafka-producer-config", attributes: { properties: text }, load: null };
  throw new Error(`unknown fence "${kind}" (known: ${FENCE_KINDS.join(", ")})`);
}
