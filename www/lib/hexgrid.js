// A virtualized hex + ASCII byte grid (not an element of its own: the <kafka-batch> element owns
// two of them, the input bytes and the decompressed records). Only the rows in view exist in the
// DOM, recycled from a pool, so a 100 MB buffer costs the same as 70 bytes.
//
// Accessibility: the scroll viewport is one tab stop with role="grid"; the focused byte is its
// aria-activedescendant (a role="gridcell" with a stable id), arrow keys / PageUp / PageDown /
// Home / End move it, and the owner announces the byte's field in a polite live region. The
// ASCII and field-label columns repeat what the cells say and are aria-hidden.
//
// Redraws follow uPlot's habit: state changes set dirty flags and one requestAnimationFrame
// (or an explicit flush()) repaints the rows in view.
import { el, setText } from "./dom.js";
import { hexByte } from "./bytes.js";

const PER_ROW = 16;
const MAX_SPACER_PX = 8_000_000; // below every engine's maximum element height
const ROW_H = 20; // px, = .hg-row height in styles.js
const ASCII = Array.from({ length: 256 }, (_, b) => (b >= 0x20 && b < 0x7f ? String.fromCharCode(b) : "."));

let gridIds = 0;

export class HexGrid {
  /**
   * @param {object} opts
   * @param {string} opts.label accessible name of the grid
   * @param {number} [opts.rows] rows in view (height)
   * @param {(pos: number | null, how: "hover" | "focus") => void} [opts.onActive]
   * @param {(pos: number, value: number) => void} [opts.onType] hex digit typed over a byte (0..15)
   */
  constructor({ label, rows = 16, onActive = () => {}, onType = null }) {
    this.id = `hg${++gridIds}`;
    this.onActive = onActive;
    this.onType = onType;
    this.visibleRows = rows;
    this.bytes = new Uint8Array(0);
    this.base = 0;
    this.owner = null;
    this.classOf = () => "";
    this.rowLabel = null;
    this.starts = null;
    this.marks = new Map();
    this.xcrcEnd = -1;
    this.hl = [-1, -1];
    this.focusPos = -1;
    this.pending = -1; // first nibble typed over the focused byte
    this.editable = false;
    this.first = 0;
    this.#dirty = true;

    this.rowsBox = el("div", { class: "hg-rows", role: "rowgroup" });
    this.spacer = el("div", { class: "hg-spacer" }, this.rowsBox);
    this.view = el(
      "div",
      { class: "hg-view", role: "grid", tabindex: "0", "aria-label": label, "aria-colcount": PER_ROW + 1, "aria-readonly": "true" },
      this.spacer,
    );
    const head = el(
      "div",
      { class: "hg-head", "aria-hidden": "true" },
      el("span", { class: "addr" }, "offset"),
      Array.from({ length: PER_ROW }, (_, i) => el("span", { class: "b" }, hexByte(i))),
      el("span", { class: "ascii" }, "ASCII"),
      el("span", { class: "labels" }, "fields starting here"),
    );
    this.root = el("div", { class: "hexgrid" }, head, this.view);
    this.pool = [];

    this.view.addEventListener("scroll", () => this.#invalidate(), { passive: true });
    this.view.addEventListener("pointerover", (e) => {
      const pos = posOf(e.target);
      if (pos >= 0) this.onActive(pos, "hover");
    });
    this.view.addEventListener("pointerleave", () => this.onActive(null, "hover"));
    this.view.addEventListener("pointerdown", (e) => {
      const pos = posOf(e.target);
      if (pos < 0) return;
      e.preventDefault();
      this.view.focus({ preventScroll: true });
      this.setFocus(pos);
    });
    this.view.addEventListener("focus", () => {
      if (this.focusPos < 0 && this.bytes.length) this.setFocus(this.base);
      else if (this.focusPos >= 0) this.onActive(this.focusPos, "focus");
    });
    this.view.addEventListener("keydown", (e) => this.#key(e));
  }

  #dirty = false;
  #raf = 0;

  /**
   * @param {object} d
   * @param {Uint8Array} d.bytes the bytes shown; d.base is the address of bytes[0]
   * @param {Int32Array} [d.owner] per byte: index of the innermost field, or -1
   * @param {(fi: number) => string} [d.classOf] class names of a field's bytes
   * @param {Uint8Array} [d.starts] per byte: 1 where a field starts, 2 where a record starts
   * @param {(from: number, to: number) => string} [d.rowLabel] the visible label column text of a row
   * @param {Map<number, string>} [d.marks] absolute position → extra class ("err", "diff")
   * @param {number} [d.xcrcEnd] bytes before this address are outside the CRC (-1: none)
   */
  setData({ bytes, base = 0, owner = null, classOf = () => "", starts = null, rowLabel = null, marks = new Map(), xcrcEnd = -1 }) {
    const same = bytes.length === this.bytes.length && base === this.base;
    Object.assign(this, { bytes, base, owner, classOf, starts, rowLabel, marks, xcrcEnd });
    this.rows = Math.ceil(bytes.length / PER_ROW);
    this.view.setAttribute("aria-rowcount", String(this.rows));
    if (!same) {
      if (this.focusPos >= 0 && bytes.length) this.focusPos = Math.min(Math.max(this.focusPos, base), base + bytes.length - 1);
      else this.focusPos = -1;
      this.pending = -1;
    }
    this.#layout();
    this.#invalidate();
  }

  setEditable(on) {
    this.editable = Boolean(on) && Boolean(this.onType);
    this.view.setAttribute("aria-readonly", this.editable ? "false" : "true");
  }

  /** Highlights [from, to) (absolute); from < 0 clears. */
  setHighlight(from, to) {
    if (this.hl[0] === from && this.hl[1] === to) return;
    this.hl = [from, to];
    this.#invalidate();
  }

  setFocus(pos, { scroll = true, notify = true } = {}) {
    if (!this.bytes.length) return;
    pos = Math.min(Math.max(pos, this.base), this.base + this.bytes.length - 1);
    if (pos !== this.focusPos) this.pending = -1;
    this.focusPos = pos;
    if (scroll) this.scrollTo(pos);
    this.flush();
    this.view.setAttribute("aria-activedescendant", `${this.id}-${pos}`);
    if (notify) this.onActive(pos, "focus");
  }

  /** Scrolls so that absolute position `pos` is in view (no-op when it is). */
  scrollTo(pos, align = "nearest") {
    const r = Math.floor((pos - this.base) / PER_ROW);
    const vis = this.#visRows();
    if (align === "nearest" && r >= this.first && r < this.first + vis - 1) return;
    const target = align === "start" ? r : r < this.first ? r : r - vis + 2;
    this.view.scrollTop = this.#scrollFor(Math.max(0, target));
    this.#invalidate();
  }

  /** Repaints now if anything changed (tests and the owner call it to avoid waiting a frame). */
  flush() {
    if (this.#raf) cancelAnimationFrame(this.#raf);
    this.#raf = 0;
    if (this.#dirty) this.#render();
  }

  #invalidate() {
    this.#dirty = true;
    if (!this.#raf) this.#raf = requestAnimationFrame(() => {
      this.#raf = 0;
      if (this.#dirty) this.#render();
    });
  }

  #rowH() {
    return ROW_H;
  }

  #visRows() {
    return Math.min(this.visibleRows, Math.max(1, this.rows));
  }

  #spacerH() {
    return Math.min(this.rows * this.#rowH(), MAX_SPACER_PX);
  }

  #scaled() {
    return this.rows * this.#rowH() > MAX_SPACER_PX;
  }

  #scrollFor(row) {
    const vis = this.#visRows();
    if (!this.#scaled()) return row * this.#rowH();
    const maxFirst = Math.max(1, this.rows - vis);
    return (Math.min(row, maxFirst) / maxFirst) * (this.#spacerH() - vis * this.#rowH());
  }

  #layout() {
    const rh = this.#rowH();
    const vis = this.#visRows();
    this.view.style.height = `${vis * rh + 2}px`;
    this.spacer.style.height = `${this.#spacerH()}px`;
    while (this.pool.length < vis + 1) this.pool.push(this.#makeRow());
    for (const row of this.pool) if (!row.node.parentNode) this.rowsBox.append(row.node);
  }

  #makeRow() {
    const addr = el("span", { class: "addr", role: "rowheader" });
    const cells = [];
    const chars = [];
    for (let i = 0; i < PER_ROW; i++) cells.push(el("span", { class: "b" }));
    for (let i = 0; i < PER_ROW; i++) chars.push(el("span", { class: "c" }));
    const ascii = el("span", { class: "ascii", "aria-hidden": "true" }, chars);
    const label = el("span", { class: "labels", "aria-hidden": "true" });
    const node = el("div", { class: "hg-row", role: "row" }, addr, cells, ascii, label);
    return { node, addr, cells, chars, label };
  }

  #render() {
    this.#dirty = false;
    const rh = this.#rowH();
    const vis = this.#visRows();
    const top = this.view.scrollTop;
    let first;
    let offset;
    if (this.#scaled()) {
      const span = Math.max(1, this.#spacerH() - vis * rh);
      first = Math.round((Math.min(top, span) / span) * Math.max(0, this.rows - vis));
      offset = Math.min(top, span);
    } else {
      first = Math.min(Math.floor(top / rh), Math.max(0, this.rows - vis));
      offset = first * rh;
    }
    this.first = first;
    this.rowsBox.style.transform = `translateY(${offset}px)`;
    const [hlFrom, hlTo] = this.hl;
    for (let k = 0; k < this.pool.length; k++) {
      const row = this.pool[k];
      const r = first + k;
      if (r >= this.rows) {
        row.node.hidden = true;
        continue;
      }
      row.node.hidden = false;
      row.node.setAttribute("aria-rowindex", String(r + 1));
      const rowStart = this.base + r * PER_ROW;
      setText(row.addr, rowStart.toString(16).padStart(8, "0"));
      for (let i = 0; i < PER_ROW; i++) {
        const pos = rowStart + i;
        const rel = pos - this.base;
        const cell = row.cells[i];
        const ch = row.chars[i];
        if (rel >= this.bytes.length) {
          if (cell.dataset.pos !== undefined) {
            cell.textContent = "";
            ch.textContent = "";
            cell.className = "b none";
            ch.className = "c";
            delete cell.dataset.pos;
            delete ch.dataset.pos;
            cell.removeAttribute("id");
            cell.removeAttribute("aria-selected");
            cell.setAttribute("role", "presentation");
          }
          continue;
        }
        const b = this.bytes[rel];
        setText(cell, hexByte(b));
        setText(ch, ASCII[b]);
        const fi = this.owner ? this.owner[rel] : -1;
        let cls = "b " + (fi >= 0 ? this.classOf(fi) : "k-none");
        let chCls = "c " + (fi >= 0 ? this.classOf(fi) : "k-none");
        if (this.starts && this.starts[rel]) cls += this.starts[rel] === 2 ? " rs" : " fs";
        if (pos < this.xcrcEnd) cls += " xcrc";
        if (pos >= hlFrom && pos < hlTo) {
          cls += " hl";
          chCls += " hl";
        }
        const mark = this.marks.get(pos);
        if (mark) cls += " " + mark;
        const focused = pos === this.focusPos;
        if (focused) {
          cls += " cur";
          chCls += " cur";
          if (this.pending >= 0) cls += " typing";
        }
        if (cell.className !== cls) cell.className = cls;
        if (ch.className !== chCls) ch.className = chCls;
        const id = `${this.id}-${pos}`;
        if (cell.id !== id) {
          cell.id = id;
          cell.dataset.pos = String(pos);
          ch.dataset.pos = String(pos);
          cell.setAttribute("role", "gridcell");
        }
        if (focused) cell.setAttribute("aria-selected", "true");
        else if (cell.hasAttribute("aria-selected")) cell.removeAttribute("aria-selected");
      }
      setText(row.label, this.rowLabel ? this.rowLabel(rowStart, Math.min(rowStart + PER_ROW, this.base + this.bytes.length)) : "");
    }
  }

  #key(e) {
    if (!this.bytes.length || e.altKey || e.metaKey) return;
    const last = this.base + this.bytes.length - 1;
    let pos = this.focusPos < 0 ? this.base : this.focusPos;
    const page = PER_ROW * (this.#visRows() - 1);
    switch (e.key) {
      case "ArrowLeft": pos -= 1; break;
      case "ArrowRight": pos += 1; break;
      case "ArrowUp": pos -= PER_ROW; break;
      case "ArrowDown": pos += PER_ROW; break;
      case "PageUp": pos -= page; break;
      case "PageDown": pos += page; break;
      case "Home": pos = e.ctrlKey ? this.base : pos - ((pos - this.base) % PER_ROW); break;
      case "End": pos = e.ctrlKey ? last : Math.min(last, pos - ((pos - this.base) % PER_ROW) + PER_ROW - 1); break;
      case "Escape":
        if (this.pending >= 0) {
          this.pending = -1;
          this.#invalidate();
          e.preventDefault();
        }
        return;
      default:
        if (this.editable && !e.ctrlKey && /^[0-9a-fA-F]$/.test(e.key)) {
          e.preventDefault();
          const nibble = parseInt(e.key, 16);
          if (this.pending < 0) {
            this.pending = nibble;
            this.#invalidate();
          } else {
            const value = (this.pending << 4) | nibble;
            this.pending = -1;
            const at = this.focusPos;
            this.onType(at, value);
            if (at < last) this.setFocus(at + 1);
          }
        }
        return;
    }
    e.preventDefault();
    if (pos < this.base || pos > last) pos = Math.min(Math.max(pos, this.base), last);
    this.setFocus(pos);
  }
}

function posOf(target) {
  const p = target?.dataset?.pos;
  return p === undefined ? -1 : Number(p);
}
