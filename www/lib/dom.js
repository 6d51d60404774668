// Small DOM helpers (uPlot's src/dom.js habit). Every child that is not a Node becomes a Text node,
// so data never reaches the DOM as markup: there is no innerHTML anywhere in www/.

/** Builds an element: attrs are set with setAttribute (null/undefined/false skipped), children appended. */
export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue;
    if (name === "class") node.className = String(value);
    else node.setAttribute(name, value === true ? "" : String(value));
  }
  append(node, children);
  return node;
}

/** Appends children (nested arrays flattened; strings and numbers as Text nodes). */
export function append(node, children) {
  for (const child of children.flat(Infinity)) {
    if (child === undefined || child === null || child === false) continue;
    node.append(child instanceof Node ? child : String(child));
  }
  return node;
}

/** Sets text only when it changed (relative-time-element habit: no needless DOM writes). */
export function setText(node, text) {
  const s = String(text);
  if (node.textContent !== s) node.textContent = s;
}

export function toggle(node, cls, on) {
  if (node.classList.contains(cls) !== Boolean(on)) node.classList.toggle(cls, Boolean(on));
}

/** Visually hidden but read by screen readers. */
export const SR_ONLY = "sr-only";

/**
 * A getter of one constructed stylesheet for `css`, built on its first call and then shared by every
 * shadow root that adopts it (no <style> element, so a strict style-src CSP is fine); null where
 * CSSStyleSheet cannot be constructed (Node, which imports the element modules for their helpers).
 */
export function lazyStyleSheet(css) {
  let sheet = null;
  return () => {
    if (!sheet && typeof CSSStyleSheet === "function") {
      sheet = new CSSStyleSheet();
      sheet.replaceSync(css);
    }
    return sheet;
  };
}

/** replaceChildren that skips null/undefined/false and flattens arrays (plain replaceChildren writes "null"). */
export function replace(node, ...children) {
  node.replaceChildren();
  return append(node, children);
}

/**
 * Dispatches `event` on `target`, then the same detail under `legacy`: the event's name before the
 * elements' events were named `kafka-<element>:<what>`. The old names are deprecated and
 * still fire, after the new ones, for pages written against them (README, "Embedding").
 */
export function dispatchWithLegacyName(target, event, legacy) {
  const result = target.dispatchEvent(event);
  if (legacy) target.dispatchEvent(new CustomEvent(legacy, { bubbles: event.bubbles, composed: event.composed, detail: event.detail ?? null }));
  return result;
}
