// A recording stand-in for CanvasRenderingContext2D that writes SVG: the views' canvas drawing
// code (kafka-ladder/draw.js, kafka-timeline/draw.js) runs into it unchanged, so "Save SVG" is
// the same drawing as vectors — rectangles, paths and lines as SVG shapes, every label as a
// <text> (selectable, searchable, read by screen readers) — with no raster image. Only the part
// of the 2D context those functions use is implemented; clip() is ignored (the export draws the
// whole drawing, so nothing is scrolled out from under a clip). Every value written into the SVG
// is escaped: lane names and record values are data.

const XML = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&apos;" };
export const xml = (s) => String(s).replace(/[&<>"']/g, (c) => XML[c]);

const num = (x) => (Math.round(x * 100) / 100).toString();
const ANCHOR = { left: "start", start: "start", center: "middle", right: "end", end: "end" };
// SVG's dominant-baseline for each canvas textBaseline (alphabetic: the default, none written).
const BASELINE = { top: "text-before-edge", hanging: "hanging", middle: "central", alphabetic: null, ideographic: "ideographic", bottom: "text-after-edge" };
const FONT_RE = /^\s*((?:(?:italic|oblique|normal|bold|bolder|lighter|[1-9]00|small-caps)\s+)*)([\d.]+)px(?:\/\S+)?\s+(.+)$/;

/** A hatch fill (a CanvasPattern from createPattern) is written as this pattern's stripes. */
const HATCH_ID = "hatch";

export class SvgContext {
  #out = [];
  #stack = [];
  #path = "";
  #scratch = document.createElement("canvas").getContext("2d");
  #usesHatch = false;

  constructor(width, height, { hatch = "#cf222e" } = {}) {
    this.width = width;
    this.height = height;
    this.hatchColor = hatch;
    this.canvas = { width, height };
    this.fillStyle = "#000000";
    this.strokeStyle = "#000000";
    this.lineWidth = 1;
    this.font = "10px sans-serif";
    this.textAlign = "start";
    this.textBaseline = "alphabetic";
    this.globalAlpha = 1;
    this.lineCap = "butt";
    this.lineJoin = "miter";
    this.imageSmoothingEnabled = true;
    this.dash = [];
    this.m = [1, 0, 0, 1, 0, 0];
  }

  // --- state ---
  save() {
    const { fillStyle, strokeStyle, lineWidth, font, textAlign, textBaseline, globalAlpha, lineCap, lineJoin, dash, m } = this;
    this.#stack.push({ fillStyle, strokeStyle, lineWidth, font, textAlign, textBaseline, globalAlpha, lineCap, lineJoin, dash: [...dash], m: [...m] });
  }
  restore() {
    const s = this.#stack.pop();
    if (s) Object.assign(this, s);
  }
  /** The device-pixel scale the views set (lib/element.js hidpiContext) is not kept: the SVG is in CSS px. */
  setTransform() {
    this.m = [1, 0, 0, 1, 0, 0];
  }
  resetTransform() { this.m = [1, 0, 0, 1, 0, 0]; }
  transform(a, b, c, d, e, f) {
    const [A, B, C, D, E, F] = this.m;
    this.m = [A * a + C * b, B * a + D * b, A * c + C * d, B * c + D * d, A * e + C * f + E, B * e + D * f + F];
  }
  translate(x, y) { this.transform(1, 0, 0, 1, x, y); }
  scale(x, y) { this.transform(x, 0, 0, y, 0, 0); }
  setLineDash(d) { this.dash = [...(d ?? [])]; }
  getLineDash() { return [...this.dash]; }
  clip() {}
  createPattern() { return { hatch: true }; }
  measureText(text) {
    this.#scratch.font = this.font;
    return this.#scratch.measureText(text);
  }

  // --- paths ---
  #pt(x, y) {
    const [a, b, c, d, e, f] = this.m;
    return [a * x + c * y + e, b * x + d * y + f];
  }
  #scaleOf() { return Math.hypot(this.m[0], this.m[1]); }
  beginPath() { this.#path = ""; }
  moveTo(x, y) { const [X, Y] = this.#pt(x, y); this.#path += `M${num(X)} ${num(Y)}`; }
  lineTo(x, y) { const [X, Y] = this.#pt(x, y); this.#path += `${this.#path ? "L" : "M"}${num(X)} ${num(Y)}`; }
  closePath() { if (this.#path) this.#path += "Z"; }
  rect(x, y, w, h) {
    this.moveTo(x, y);
    this.lineTo(x + w, y);
    this.lineTo(x + w, y + h);
    this.lineTo(x, y + h);
    this.closePath();
  }
  roundRect(x, y, w, h, radii = 0) {
    const r0 = Array.isArray(radii) ? (radii[0] ?? 0) : radii;
    const r = Math.max(0, Math.min(typeof r0 === "object" ? r0.x : r0, Math.abs(w) / 2, Math.abs(h) / 2));
    if (r === 0) return this.rect(x, y, w, h);
    this.moveTo(x + r, y);
    this.lineTo(x + w - r, y);
    this.arcTo(x + w, y, x + w, y + r, r);
    this.lineTo(x + w, y + h - r);
    this.arcTo(x + w, y + h, x + w - r, y + h, r);
    this.lineTo(x + r, y + h);
    this.arcTo(x, y + h, x, y + h - r, r);
    this.lineTo(x, y + r);
    this.arcTo(x, y, x + r, y, r);
    this.closePath();
  }
  /** A quarter-circle corner from the current point to (x2, y2) (the use roundRect makes of it). */
  arcTo(x1, y1, x2, y2, r) {
    const [X, Y] = this.#pt(x2, y2);
    const R = r * this.#scaleOf();
    this.#path += `A${num(R)} ${num(R)} 0 0 1 ${num(X)} ${num(Y)}`;
  }
  arc(x, y, r, a0, a1, ccw = false) {
    const R = r * this.#scaleOf();
    let sweep = ccw ? a0 - a1 : a1 - a0;
    if (sweep >= 2 * Math.PI - 1e-9 || sweep <= -2 * Math.PI) {
      // A whole circle: two half arcs (one SVG arc cannot end where it starts).
      const [sx, sy] = this.#pt(x + r * Math.cos(a0), y + r * Math.sin(a0));
      const [hx, hy] = this.#pt(x - r * Math.cos(a0), y - r * Math.sin(a0));
      this.#path += `${this.#path ? "L" : "M"}${num(sx)} ${num(sy)}A${num(R)} ${num(R)} 0 1 1 ${num(hx)} ${num(hy)}A${num(R)} ${num(R)} 0 1 1 ${num(sx)} ${num(sy)}`;
      return;
    }
    sweep = ((sweep % (2 * Math.PI)) + 2 * Math.PI) % (2 * Math.PI);
    const [sx, sy] = this.#pt(x + r * Math.cos(a0), y + r * Math.sin(a0));
    const [ex, ey] = this.#pt(x + r * Math.cos(a1), y + r * Math.sin(a1));
    this.#path += `${this.#path ? "L" : "M"}${num(sx)} ${num(sy)}A${num(R)} ${num(R)} 0 ${sweep > Math.PI ? 1 : 0} ${ccw ? 0 : 1} ${num(ex)} ${num(ey)}`;
  }

  // --- painting ---
  #paint(kind) {
    const style = kind === "fill" ? this.fillStyle : this.strokeStyle;
    let paint;
    if (typeof style === "string") paint = xml(style);
    else {
      this.#usesHatch = true;
      paint = `url(#${HATCH_ID})`;
    }
    const alpha = this.globalAlpha < 1 ? ` ${kind}-opacity="${num(this.globalAlpha)}"` : "";
    if (kind === "fill") return ` fill="${paint}"${alpha}`;
    const dash = this.dash.length ? ` stroke-dasharray="${this.dash.map((d) => num(d * this.#scaleOf())).join(" ")}"` : "";
    const cap = this.lineCap !== "butt" ? ` stroke-linecap="${xml(this.lineCap)}"` : "";
    return ` fill="none" stroke="${paint}" stroke-width="${num(this.lineWidth * this.#scaleOf())}"${alpha}${dash}${cap}`;
  }
  fill() { if (this.#path) this.#out.push(`<path d="${this.#path}"${this.#paint("fill")}/>`); }
  stroke() { if (this.#path) this.#out.push(`<path d="${this.#path}"${this.#paint("stroke")}/>`); }
  fillRect(x, y, w, h) {
    const saved = this.#path;
    this.#path = "";
    this.rect(x, y, w, h);
    this.fill();
    this.#path = saved;
  }
  strokeRect(x, y, w, h) {
    const saved = this.#path;
    this.#path = "";
    this.rect(x, y, w, h);
    this.stroke();
    this.#path = saved;
  }
  clearRect() {}
  #text(text, x, y, kind) {
    const [X, Y] = this.#pt(x, y);
    const f = FONT_RE.exec(this.font);
    const size = f ? Number(f[2]) * this.#scaleOf() : 10;
    const family = f ? f[3] : "sans-serif";
    const words = f ? f[1].trim().split(/\s+/) : [];
    const weight = words.find((w) => /^(bold|bolder|lighter|[1-9]00)$/.test(w));
    const italic = words.find((w) => /^(italic|oblique)$/.test(w));
    const anchor = ANCHOR[this.textAlign] ?? "start";
    const base = BASELINE[this.textBaseline] ?? null;
    const attrs = `x="${num(X)}" y="${num(Y)}" font-size="${num(size)}" font-family="${xml(family)}"` +
      (weight ? ` font-weight="${xml(weight)}"` : "") + (italic ? ` font-style="${xml(italic)}"` : "") +
      (anchor !== "start" ? ` text-anchor="${anchor}"` : "") + (base ? ` dominant-baseline="${base}"` : "") +
      (kind === "fill" ? this.#paint("fill") : this.#paint("stroke"));
    this.#out.push(`<text ${attrs} xml:space="preserve">${xml(text)}</text>`);
  }
  fillText(text, x, y) { this.#text(text, x, y, "fill"); }
  strokeText(text, x, y) { this.#text(text, x, y, "stroke"); }
  drawImage() {}

  /** The SVG text of what was drawn, `caption` under it (its lines given), `title` its accessible name. */
  toSvg({ title = "", captionLines = [], captionFont = "system-ui, sans-serif", captionPx = 13, captionLine = 18, bg = "#ffffff", fg = "#1b1f24" } = {}) {
    const w = this.width;
    const h = this.height;
    const total = h + (captionLines.length ? captionLines.length * captionLine + 12 : 0);
    const defs = this.#usesHatch
      ? `<defs><pattern id="${HATCH_ID}" width="8" height="8" patternUnits="userSpaceOnUse" patternTransform="rotate(45)"><rect width="2" height="8" fill="${xml(this.hatchColor)}" fill-opacity="0.55"/></pattern></defs>`
      : "";
    const cap = captionLines.map((l, i) => `<tspan x="8" y="${num(h + 6 + captionPx + i * captionLine)}">${xml(l)}</tspan>`).join("");
    return `<svg xmlns="http://www.w3.org/2000/svg" width="${num(w)}" height="${num(total)}" viewBox="0 0 ${num(w)} ${num(total)}" role="img" aria-labelledby="title">` +
      `<title id="title">${xml(title)}</title>${defs}<rect width="100%" height="100%" fill="${xml(bg)}"/>` +
      `<g id="drawing">${this.#out.join("")}</g>` +
      (cap ? `<text id="caption" font-family="${xml(captionFont)}" font-size="${captionPx}" fill="${xml(fg)}">${cap}</text>` : "") + `</svg>`;
  }
}
