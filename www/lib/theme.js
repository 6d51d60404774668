// Light or dark, per element: the `theme` attribute ("light", "dark", or "auto", the default); in
// auto the host page's own flag when it has one — MkDocs Material's data-md-color-scheme ("slate"
// is dark, any other scheme light) and Docusaurus's data-theme ("dark" | "light") on the element's
// nearest ancestor that carries either (<body> and <html> on those sites) — else
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

/** The scheme the host page asks for with its own flag ("dark" | "light"), or null when it sets none. */
export function pageScheme(host) {
  const flagged = host.closest?.("[data-md-color-scheme], [data-theme]");
  if (!flagged) return null;
  const md = flagged.getAttribute("data-md-color-scheme");
  if (md !== null && md !== "") return md === "slate" ? "dark" : "light";
  const ds = flagged.getAttribute("data-theme");
  return ds === "dark" ? "dark" : ds === "light" ? "light" : null;
}

/** "dark" | "light": what `host` shows (its theme attribute, else the page's flag, else the OS). */
export function resolveScheme(host) {
  const t = (host.getAttribute("theme") ?? "").trim().toLowerCase();
  if (t === "dark" || t === "light") return t;
  return pageScheme(host) ?? (globalThis.matchMedia?.("(prefers-color-scheme: dark)").matches ? "dark" : "light");
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
