// Light or dark, per element: the `theme` attribute ("light", "dark", or "auto", the default); in
// auto the host page's own flag when it has one — MkDocs Material's data-md-color-scheme ("slate"
// is dark, any other scheme light) and Docusaurus's data-theme ("dark" | "light") on the element's
// nearest ancestor that carries either (<body> and <html> on those sites), or the theme of the
// eoslab element it is nested in — else
// prefers-color-scheme. The dark palette is a second constructed stylesheet that the watcher adds
// to the shadow root's adoptedStyleSheets (and removes), so no inline style, no <style> element
// and no :host-context() (which only Chromium implements) are needed.
//
// A SchemeWatcher is connected in connectedCallback and disconnected in disconnectedCallback: it
// holds one MutationObserver (attributes data-md-color-scheme and data-theme, anywhere in the
// document: MkDocs' instant navigation and Docusaurus' toggle change them in place) and one
// matchMedia listener, and nothing else.
//
// Colours are custom properties a host page can override on the element or any ancestor (both
// schemes; scope the rule with the site's own dark selector to override one):
//   --eoslab-bg --eoslab-fg --eoslab-muted --eoslab-border --eoslab-panel --eoslab-accent
//   --eoslab-ok --eoslab-bad --eoslab-warn --eoslab-font --eoslab-mono
export const SCHEME_ATTRIBUTES = ["data-md-color-scheme", "data-theme"];

const themeOf = (node) => {
  const t = (node.getAttribute("theme") ?? "").trim().toLowerCase();
  return t === "dark" || t === "light" ? t : null;
};

/**
 * The scheme asked for around `host` ("dark" | "light"), or null: walking up from it, across shadow
 * roots (an inspector in a timeline's dialog follows the timeline), the first of an eoslab
 * element's theme attribute, data-md-color-scheme or data-theme.
 */
export function pageScheme(host) {
  for (let n = host; n; n = n.parentElement ?? (n.parentNode instanceof ShadowRoot ? n.parentNode.host : null)) {
    if (n !== host && n.localName.startsWith("kafka-") && themeOf(n)) return themeOf(n);
    const md = n.getAttribute("data-md-color-scheme");
    if (md) return md === "slate" ? "dark" : "light";
    const ds = n.getAttribute("data-theme");
    if (ds === "dark" || ds === "light") return ds;
  }
  return null;
}

/** "dark" | "light": what `host` shows (its theme attribute, else the page's flag, else the OS). */
export function resolveScheme(host) {
  return themeOf(host) ?? pageScheme(host) ?? (globalThis.matchMedia?.("(prefers-color-scheme: dark)").matches ? "dark" : "light");
}

export class SchemeWatcher {
  #host;
  #dark;
  #onChange;
  #observer = null;
  #query = null;
  #scheme = null;

  /**
   * `darkSheet()`: the stylesheet getter (dom.js lazyStyleSheet) of the dark palette; `onChange(scheme)`
   * runs after the palette changed (canvas elements re-read their colours and redraw).
   */
  constructor(host, darkSheet, onChange = () => {}) {
    this.#host = host;
    this.#dark = darkSheet;
    this.#onChange = onChange;
  }

  /** "dark" | "light", as last applied (null before connect()). */
  get scheme() {
    return this.#scheme;
  }

  connect() {
    if (this.#observer) return;
    this.#query = matchMedia("(prefers-color-scheme: dark)");
    this.#query.addEventListener("change", this.update);
    this.#observer = new MutationObserver(this.update);
    this.#observer.observe(this.#host.ownerDocument.documentElement, { attributes: true, subtree: true, attributeFilter: SCHEME_ATTRIBUTES });
    this.update();
  }

  disconnect() {
    this.#observer?.disconnect();
    this.#observer = null;
    this.#query?.removeEventListener("change", this.update);
    this.#query = null;
  }

  /** Re-resolves the scheme (call it when the theme attribute changes) and applies it when it changed. */
  update = () => {
    const scheme = resolveScheme(this.#host);
    if (scheme === this.#scheme) return;
    this.#scheme = scheme;
    const root = this.#host.shadowRoot;
    const dark = this.#dark();
    if (root && dark) {
      const sheets = root.adoptedStyleSheets.filter((s) => s !== dark);
      if (scheme === "dark") sheets.push(dark);
      root.adoptedStyleSheets = sheets;
    }
    this.#onChange(scheme);
  };
}
