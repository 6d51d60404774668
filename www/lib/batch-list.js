// Virtualized list of the batches of a segment: one fixed-height row per batch, only the rows in
// view in the DOM (a 100 MB segment of 70-byte batches has 1.5 M of them). Rows get their text
// from the owner's rowFor(i), which decodes that batch's header on demand (records: false).
//
// role="listbox" with aria-activedescendant; rows are role="option" with aria-posinset/setsize,
// so a screen reader hears "batch 12 of 10000". Up/Down/PageUp/PageDown/Home/End move the
// selection (which follows focus, as in a native listbox) and open the batch.
import { el, setText } from "./dom.js";

const ROW_H = 24; // px, = .bl-row height in styles.js
const MAX_SPACER_PX = 8_000_000;

export const LIST_COLUMNS = ["#", "position", "offsets", "producer", "sequences", "records", "codec", "flags", "CRC"];

export class BatchList {
  /**
   * @param {object} o
   * @param {(i: number) => string[]} o.rowFor the column texts of row i
   * @param {(i: number) => string} [o.rowClass] extra classes of row i (e.g. "bad")
   * @param {(i: number, how: string) => void} o.onSelect
   */
  constructor({ label, rows = 10, rowFor, rowClass = () => "", onSelect }) {
    this.rowFor = rowFor;
    this.rowClass = rowClass;
    this.onSelect = onSelect;
    this.visibleRows = rows;
    this.count = 0;
    this.selected = -1;
    this.first = 0;
    this.id = `bl${Math.random().toString(36).slice(2, 8)}`;
    this.rowsBox = el("div", { class: "bl-rows", role: "presentation" });
    this.spacer = el("div", { class: "bl-spacer", role: "presentation" }, this.rowsBox);
    this.view = el("div", { class: "bl-view", role: "listbox", tabindex: "0", "aria-label": label }, this.spacer);
    const head = el("div", { class: "bl-head bl-cols", "aria-hidden": "true" }, LIST_COLUMNS.map((c) => el("span", {}, c)));
    this.root = el("div", { class: "batchlist" }, head, this.view);
    this.pool = [];
    this.raf = 0;
    this.view.addEventListener("scroll", () => this.invalidate(), { passive: true });
    this.view.addEventListener("click", (e) => {
      const row = e.target.closest?.("[data-index]");
      if (row) this.select(Number(row.dataset.index), "click");
    });
    this.view.addEventListener("focus", () => {
      if (this.selected < 0 && this.count) this.select(0, "key");
    });
    this.view.addEventListener("keydown", (e) => this.#key(e));
  }

  setCount(n) {
    this.count = n;
    this.view.style.height = `${Math.min(this.visibleRows, Math.max(1, n)) * ROW_H + 2}px`;
    this.spacer.style.height = `${Math.min(n * ROW_H, MAX_SPACER_PX)}px`;
    const vis = Math.min(this.visibleRows, n);
    while (this.pool.length < vis + 1) {
      const cells = LIST_COLUMNS.map(() => el("span", {}));
      const node = el("div", { class: "bl-row bl-cols", role: "option" }, cells);
      this.pool.push({ node, cells });
      this.rowsBox.append(node);
    }
    this.invalidate();
  }

  /** Re-renders the rows in view (new data for them arrived). */
  refresh() {
    this.invalidate();
  }

  select(i, how = "api") {
    if (!this.count) return;
    i = Math.max(0, Math.min(this.count - 1, i));
    this.selected = i;
    this.scrollTo(i);
    this.flush();
    this.view.setAttribute("aria-activedescendant", `${this.id}-${i}`);
    this.onSelect(i, how);
  }

  #scaled() {
    return this.count * ROW_H > MAX_SPACER_PX;
  }

  #vis() {
    return Math.min(this.visibleRows, Math.max(1, this.count));
  }

  scrollTo(i) {
    const vis = this.#vis();
    if (i >= this.first && i < this.first + vis - 1) return;
    const target = i < this.first ? i : i - vis + 2;
    const row = Math.max(0, target);
    if (!this.#scaled()) this.view.scrollTop = row * ROW_H;
    else {
      const maxFirst = Math.max(1, this.count - vis);
      this.view.scrollTop = (Math.min(row, maxFirst) / maxFirst) * (MAX_SPACER_PX - vis * ROW_H);
    }
    this.invalidate();
  }

  invalidate() {
    if (!this.raf) this.raf = requestAnimationFrame(() => {
      this.raf = 0;
      this.#render();
    });
  }

  flush() {
    if (this.raf) cancelAnimationFrame(this.raf);
    this.raf = 0;
    this.#render();
  }

  #render() {
    const vis = this.#vis();
    const top = this.view.scrollTop;
    let first;
    let offset;
    if (this.#scaled()) {
      const span = Math.max(1, MAX_SPACER_PX - vis * ROW_H);
      first = Math.round((Math.min(top, span) / span) * Math.max(0, this.count - vis));
      offset = Math.min(top, span);
    } else {
      first = Math.min(Math.floor(top / ROW_H), Math.max(0, this.count - vis));
      offset = first * ROW_H;
    }
    this.first = first;
    this.rowsBox.style.transform = `translateY(${offset}px)`;
    for (let k = 0; k < this.pool.length; k++) {
      const { node, cells } = this.pool[k];
      const i = first + k;
      if (i >= this.count) {
        node.hidden = true;
        continue;
      }
      node.hidden = false;
      node.id = `${this.id}-${i}`;
      node.dataset.index = String(i);
      node.setAttribute("aria-posinset", String(i + 1));
      node.setAttribute("aria-setsize", String(this.count));
      node.setAttribute("aria-selected", i === this.selected ? "true" : "false");
      const texts = this.rowFor(i);
      for (let c = 0; c < cells.length; c++) setText(cells[c], texts[c] ?? "");
      const cls = `bl-row bl-cols ${this.rowClass(i)}${i === this.selected ? " sel" : ""}`;
      if (node.className !== cls) node.className = cls;
    }
  }

  #key(e) {
    if (!this.count || e.altKey || e.metaKey) return;
    const page = this.#vis() - 1;
    let i = this.selected < 0 ? 0 : this.selected;
    switch (e.key) {
      case "ArrowUp": i -= 1; break;
      case "ArrowDown": i += 1; break;
      case "PageUp": i -= page; break;
      case "PageDown": i += page; break;
      case "Home": i = 0; break;
      case "End": i = this.count - 1; break;
      default: return;
    }
    e.preventDefault();
    this.select(i, "key");
  }
}
