// <kafka-batch>'s exports: the byte map as a picture (SVG/PNG with its caption, lib/export.js) and the
// batches as files. `view` is the element's view (element.js #view).
import { toBase64, toHex } from "../lib/bytes.js";
import { el, setText } from "../lib/dom.js";
import { drawingToPng, drawingToSvg, wrapCaption } from "../lib/export.js";
import { dumpLogLines } from "../lib/format.js";
import { fmtInt, hex2 } from "./format.js";
import { EXPORT_MAX_BATCHES } from "./limits.js";
import { rowLabel } from "./panels.js";

/** The caption of an exported byte map: which batch, which bytes, what it holds. */
export function captionOf(view) {
  const d = view.d;
  if (!d) return "";
  const b = d.batch;
  const h = b.header ?? {};
  const what = b.legacy ? `a magic ${h.magic} message set entry` :
    `record batch v2, baseOffset ${h.baseOffset}, producerId ${h.producerId}, epoch ${h.producerEpoch}, baseSequence ${h.baseSequence}, ${b.records?.length ?? h.recordsCount ?? 0} record(s)`;
  const count = view.frames?.count ?? 1;
  const shown = Math.min(d.end - d.start, PICTURE_MAX_BYTES);
  return `Batch ${d.index + 1}${count > 1 ? ` of ${fmtInt(count)}` : ""}: ${what}; bytes ${fmtInt(d.start)}–${fmtInt(d.end - 1)}` +
    (shown < d.end - d.start ? ` (the first ${fmtInt(shown)} shown)` : "") + ". Byte map by eoslab.";
}

export function pictureName(view) {
  const d = view.d;
  return `kafka-batch-${(d?.index ?? 0) + 1}-byte-map`;
}

/**
 * The opened batch's byte map as a picture: "svg" returns the SVG text (cells, hex, field tags and
 * legend as shapes and text), "png" resolves to a PNG Blob of the same drawing; both end with
 * the caption. Null when no batch is open.
 */
export function exportPicture(view, kind) {
  const d = view.d;
  if (!d) return kind === "png" ? Promise.resolve(null) : null;
  const { prims, w, h } = byteMapDrawing(view, d);
  return kind === "png" ? drawingToPng(prims, w, h, 2) : drawingToSvg(prims, w, h, view.el.caption);
}

export function byteMapDrawing(view, d) {
  const root = view.el.shadowRoot;
  const cs = getComputedStyle(view.el);
  const v = (name, dflt) => cs.getPropertyValue(name).trim() || dflt;
  const fg = v("--fg", "#1b1f24");
  const bg = v("--bg", "#ffffff");
  const muted = v("--muted", "#57606a");
  const border = v("--border", "#d0d7de");
  const mono = v("--mono", "monospace");
  const sans = cs.fontFamily || "system-ui, sans-serif";
  // The tints as the byte map draws them (the k-* classes of lib/styles.js).
  const tints = new Map();
  const probe = el("span", { "aria-hidden": "true", hidden: true });
  root.append(probe);
  const tint = (kind) => {
    if (!tints.has(kind)) {
      probe.className = `k-${kind}`;
      probe.hidden = false;
      const st = getComputedStyle(probe);
      const hatched = st.backgroundImage && st.backgroundImage !== "none";
      const t13 = v("--t13", "#e7e5e4");
      tints.set(kind, hatched ? { fill: v("--none", "#f3f4f6"), hatch: t13 } : { fill: st.backgroundColor, hatch: null });
      probe.hidden = true;
    }
    return tints.get(kind);
  };
  const len = Math.min(d.end - d.start, PICTURE_MAX_BYTES);
  const bytes = view.input.bytes.subarray(d.start, d.start + len);
  const CW = 24, RH = 20, OFF_W = 64, PAD = 8, LBL_GAP = 10, LBL_W = 300;
  const rows = Math.ceil(len / 16);
  const gridX = PAD + OFF_W;
  const w = gridX + 16 * CW + LBL_GAP + LBL_W + PAD;
  const prims = [{ rect: [0, 0, w, 0], fill: bg }]; // height set below
  const monoFont = `12px ${mono}`;
  const top = PAD;
  for (let r = 0; r < rows; r++) {
    const y = top + r * RH;
    prims.push({ text: String(d.start + r * 16).padStart(6, " "), x: gridX - 8, y: y + 14, fill: muted, font: monoFont, anchor: "end" });
    for (let c = 0; c < 16; c++) {
      const i = r * 16 + c;
      if (i >= len) break;
      const k = d.ownerMain[i];
      const t = k >= 0 ? tint(d.F[k].doc.kind) : tint("none");
      const x = gridX + c * CW;
      prims.push({ rect: [x, y, CW, RH], fill: t.fill, ...(t.hatch ? { hatch: t.hatch } : {}) });
      prims.push({ text: hex2(bytes[i]), x: x + CW / 2, y: y + 14, fill: fg, font: monoFont, anchor: "middle" });
      if (d.startsMain[i]) prims.push({ line: [x + 0.5, y, x + 0.5, y + RH], stroke: fg, width: d.startsMain[i] === 2 ? 2.5 : 1 });
    }
    const label = rowLabel(view, d.ownerMain, d.startsMain, d.start, d.start + r * 16, d.start + Math.min(len, r * 16 + 16));
    if (label) prims.push({ text: label, x: gridX + 16 * CW + LBL_GAP, y: y + 14, fill: muted, font: `11px ${mono}` });
  }
  let y = top + rows * RH + 14;
  // The legend: each field kind shown, its tag and its name.
  const seen = new Map();
  for (let i = 0; i < len; i++) {
    const k = d.ownerMain[i];
    if (k < 0) continue;
    const doc = d.F[k].doc;
    if (!seen.has(doc.kind)) seen.set(doc.kind, doc);
  }
  const legend = [...seen.values()];
  const colW = Math.floor((w - 2 * PAD) / 3);
  legend.forEach((doc, i) => {
    const x = PAD + (i % 3) * colW;
    const ly = y + Math.floor(i / 3) * 18;
    const t = tint(doc.kind);
    prims.push({ rect: [x, ly, 26, 14], fill: t.fill, ...(t.hatch ? { hatch: t.hatch } : {}) });
    prims.push({ text: doc.tag, x: x + 13, y: ly + 11, fill: fg, font: `10px ${mono}`, anchor: "middle" });
    prims.push({ text: doc.label, x: x + 32, y: ly + 11, fill: fg, font: `11px ${sans}` });
  });
  y += Math.ceil(legend.length / 3) * 18 + 8;
  prims.push({ line: [PAD, y, w - PAD, y], stroke: border, width: 1 });
  const capFont = `13px ${sans}`;
  const lines = wrapCaption(view.el.caption, w - 2 * PAD, capFont);
  lines.forEach((l, i) => prims.push({ text: l, x: PAD, y: y + 18 + i * 18, fill: fg, font: capFont }));
  const h = Math.ceil(y + 18 + lines.length * 18);
  prims[0].rect[3] = h;
  probe.remove();
  return { prims, w, h };
}

// --- export ---
export async function exportBatches(view, kind) {
  const d = view.d;
  if (!d) return;
  const bytes = view.input.bytes.subarray(d.start, d.end);
  let text;
  if (kind === "hex") text = toHex(bytes, " ", 16);
  else if (kind === "base64") text = toBase64(bytes);
  else if (kind === "json") {
    text = JSON.stringify({ format: view.input.format, stripped: view.input.stripped, length: view.input.bytes.length, batches: d.batch ? [d.batch] : [], errors: d.errors }, null, 2);
  } else {
    const n = Math.min(view.frames.count, EXPORT_MAX_BATCHES);
    const lines = [];
    for (let i = 0; i < n; i++) {
      const b = i === d.index ? d.batch : view.rowBatch(i);
      if (b) lines.push(...dumpLogLines(b, true));
    }
    if (view.frames.count > n) lines.push(`(first ${fmtInt(n)} of ${fmtInt(view.frames.count)} batches)`);
    text = lines.join("\n");
  }
  const E = view.els;
  E.exportBox.hidden = false;
  E.exportText.value = text;
  let copied = false;
  try {
    await navigator.clipboard?.writeText(text);
    copied = Boolean(navigator.clipboard);
  } catch {
    copied = false;
  }
  setText(E.exportStatus, copied ? `${kind} copied to the clipboard (also below).` : `${kind}: select the text below and copy it (the clipboard is not available here).`);
  E.exportBox.dataset.kind = kind;
}

/** The most bytes of one batch an exported byte map draws (256 rows). */
export const PICTURE_MAX_BYTES = 4096;
