// Export the current view as a picture: a PNG of the drawing with its caption under it (the
// scenario, the step and the Kafka line), and an SVG of the whole drawing as vectors — the view's
// own drawing code run into a context that records SVG shapes and <text> (lib/svg-context.js),
// the caption as text. No dependency; nothing leaves the browser (the files are downloads).

import { SvgContext, xml } from "./svg-context.js";

const CAPTION_PX = 13;
const CAPTION_LINE = 18;

/** Greedy word wrap of `text` to `width` px with `ctx`'s font. */
function wrap(ctx, text, width) {
  const lines = [];
  let line = "";
  for (const word of String(text).split(/\s+/)) {
    const next = line ? `${line} ${word}` : word;
    if (line && ctx.measureText(next).width > width) {
      lines.push(line);
      line = word;
    } else line = next;
  }
  if (line) lines.push(line);
  return lines;
}

/** The caption's lines at the drawing's CSS width (measured with a scratch canvas). */
function captionLines(caption, cssWidth, font) {
  const ctx = document.createElement("canvas").getContext("2d");
  ctx.font = `${CAPTION_PX}px ${font}`;
  return wrap(ctx, caption, Math.max(100, cssWidth - 16));
}

/** A PNG (Blob) of `canvas` as drawn, with `caption` under it. */
export function pngWithCaption(canvas, caption, { font = "system-ui, sans-serif", bg = "#ffffff", fg = "#1b1f24" } = {}) {
  const cssW = canvas.clientWidth || canvas.width;
  const scale = canvas.width / cssW;
  const lines = captionLines(caption, cssW, font);
  const capH = lines.length * CAPTION_LINE + 12;
  const out = document.createElement("canvas");
  out.width = canvas.width;
  out.height = canvas.height + Math.ceil(capH * scale);
  const ctx = out.getContext("2d");
  ctx.fillStyle = bg;
  ctx.fillRect(0, 0, out.width, out.height);
  ctx.drawImage(canvas, 0, 0);
  ctx.scale(scale, scale);
  ctx.fillStyle = fg;
  ctx.font = `${CAPTION_PX}px ${font}`;
  ctx.textBaseline = "top";
  const top = canvas.height / scale + 6;
  lines.forEach((l, i) => ctx.fillText(l, 8, top + i * CAPTION_LINE));
  return new Promise((resolve, reject) => out.toBlob((b) => (b ? resolve(b) : reject(new Error("the PNG could not be made"))), "image/png"));
}

/**
 * The SVG text of a view's drawing made by `draw(fake)`: the view's own drawing function run
 * with a canvas whose context records SVG (lib/svg-context.js), `width`×`height` CSS px, with
 * `caption` as text under it. Vectors and text only, no raster image.
 */
export function svgOfDrawing(draw, width, height, caption, { font = "system-ui, sans-serif", bg = "#ffffff", fg = "#1b1f24", hatch } = {}) {
  const ctx = new SvgContext(width, height, { hatch });
  const style = {};
  // The element the drawing code sizes: its CSS size and backing store, and the context.
  const canvas = { style, width: 0, height: 0, clientWidth: width, clientHeight: height, getContext: () => ctx };
  draw(canvas);
  return ctx.toSvg({ title: caption, captionLines: captionLines(caption, width, font), captionFont: font, captionPx: CAPTION_PX, captionLine: CAPTION_LINE, bg, fg });
}

// --- vector drawings ---------------------------------------------------------------------------
// A drawing is a list of primitives in CSS px, rendered once as SVG (real shapes and text) and once
// on a canvas for the PNG — the inspector's byte map is exported this way (kafka-batch.js
// exportPicture): the same picture in both files, its text selectable in the SVG.
//   {rect: [x, y, w, h], fill, hatch?}     hatch: diagonal stripes of that colour over fill
//   {line: [x1, y1, x2, y2], stroke, width}
//   {text, x, y, fill, font, anchor?}      font "SIZE FAMILY"; anchor "start" (default) | "middle" | "end"; y is the baseline

/** The SVG text of a drawing `w`×`h` (CSS px) with `title` as its accessible name. */
export function drawingToSvg(prims, w, h, title) {
  const out = [];
  const patterns = new Map();
  for (const p of prims) {
    if (p.rect) {
      const [x, y, rw, rh] = p.rect;
      out.push(`<rect x="${x}" y="${y}" width="${rw}" height="${rh}" fill="${xml(p.fill)}"/>`);
      if (p.hatch) {
        if (!patterns.has(p.hatch)) patterns.set(p.hatch, `h${patterns.size}`);
        out.push(`<rect x="${x}" y="${y}" width="${rw}" height="${rh}" fill="url(#${patterns.get(p.hatch)})"/>`);
      }
    } else if (p.line) {
      const [x1, y1, x2, y2] = p.line;
      out.push(`<line x1="${x1}" y1="${y1}" x2="${x2}" y2="${y2}" stroke="${xml(p.stroke)}" stroke-width="${p.width ?? 1}"/>`);
    } else if (p.text !== undefined) {
      const anchor = p.anchor && p.anchor !== "start" ? ` text-anchor="${p.anchor}"` : "";
      // Presentation attributes, not a style attribute: the SVG stays valid inline under a strict style-src.
      const [, size, family] = /^(\S+)\s+(.*)$/.exec(p.font) ?? [null, "12px", p.font];
      out.push(`<text x="${p.x}" y="${p.y}"${anchor} fill="${xml(p.fill)}" font-size="${xml(size)}" font-family="${xml(family)}">${xml(p.text)}</text>`);
    }
  }
  const defs = [...patterns].map(([color, id]) =>
    `<pattern id="${id}" width="8" height="8" patternUnits="userSpaceOnUse" patternTransform="rotate(45)"><rect width="4" height="8" fill="${xml(color)}"/></pattern>`);
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}" viewBox="0 0 ${w} ${h}" role="img" aria-label="${xml(title)}">` +
    `<title>${xml(title)}</title>${defs.length ? `<defs>${defs.join("")}</defs>` : ""}${out.join("")}</svg>`;
}

/** A PNG (Blob) of a drawing `w`×`h` (CSS px), at `scale` device px per CSS px. */
export function drawingToPng(prims, w, h, scale = 2) {
  const canvas = document.createElement("canvas");
  canvas.width = Math.ceil(w * scale);
  canvas.height = Math.ceil(h * scale);
  const ctx = canvas.getContext("2d");
  ctx.scale(scale, scale);
  for (const p of prims) {
    if (p.rect) {
      const [x, y, rw, rh] = p.rect;
      ctx.fillStyle = p.fill;
      ctx.fillRect(x, y, rw, rh);
      if (p.hatch) {
        ctx.save();
        ctx.beginPath();
        ctx.rect(x, y, rw, rh);
        ctx.clip();
        ctx.strokeStyle = p.hatch;
        ctx.lineWidth = 2.8;
        for (let d = -rh; d < rw + rh; d += 8) {
          ctx.beginPath();
          ctx.moveTo(x + d, y + rh);
          ctx.lineTo(x + d + rh, y);
          ctx.stroke();
        }
        ctx.restore();
      }
    } else if (p.line) {
      const [x1, y1, x2, y2] = p.line;
      ctx.strokeStyle = p.stroke;
      ctx.lineWidth = p.width ?? 1;
      ctx.beginPath();
      ctx.moveTo(x1, y1);
      ctx.lineTo(x2, y2);
      ctx.stroke();
    } else if (p.text !== undefined) {
      ctx.fillStyle = p.fill;
      ctx.font = p.font;
      ctx.textAlign = p.anchor === "middle" ? "center" : p.anchor === "end" ? "right" : "left";
      ctx.textBaseline = "alphabetic";
      ctx.fillText(p.text, p.x, p.y);
    }
  }
  return new Promise((resolve, reject) => canvas.toBlob((b) => (b ? resolve(b) : reject(new Error("the PNG could not be made"))), "image/png"));
}

/** `caption` wrapped to `width` CSS px in `font` (for a drawing's caption lines). */
export function wrapCaption(caption, width, font) {
  const ctx = document.createElement("canvas").getContext("2d");
  ctx.font = font;
  return wrap(ctx, caption, width);
}
