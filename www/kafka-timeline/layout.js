// <kafka-timeline>'s lane geometry: the columns, the track's scroll range, keeping offsets in view, and
// which record is under the pointer. `v` is the element's view (element.js #view).
import { CELL_W, SUBROW_H, cellBox, lowerBound } from "../lib/timeline-model.js";

/** Columns: lane labels, the wire (this step's messages), the logs by offset (scrolled). */
export function geometry(v, width) {
  const narrow = width < 720;
  // Wide enough for the longest lane label in full (bold 12px, measured in #readTheme), but never
  // more than a quarter of the drawing (35% when narrow): the logs are the picture, and a
  // longer name is abbreviated in the gutter (abbreviateLabel), whole in the lane's tooltip.
  const full = Math.ceil(16 + (v.tl?.longestLabel ?? 0) * v.labelCharW);
  const gutterW = Math.max(narrow ? 118 : 178, Math.min(full, Math.round(width * (narrow ? 0.35 : 0.25))));
  let wireW = narrow ? 120 : Math.min(300, Math.max(180, Math.round(width * 0.2)));
  // Presenter mode shows few offsets, large: the log column is a whole number of cells (the rest
  // widens the wire), so that no record is shown cut in half at the drawing's right edge.
  if (v.el?.hasAttribute("presenter")) wireW += Math.max(0, width - gutterW - wireW) % CELL_W;
  return { gutterW, wireW, logX: gutterW + wireW };
}

/** The track's width makes the horizontal scroll range of the log area. */
export function sizeTrack(v) {
  const { track, viewport } = v.ui;
  const width = v.width || viewport.clientWidth;
  const g = geometry(v, width);
  const content = v.tl ? g.logX + (v.tl.maxOffset + 2) * CELL_W : width;
  const w = `${Math.max(width, content)}px`;
  const hgt = `${v.tl ? v.tl.height : 80}px`;
  if (track.style.width !== w) track.style.width = w;
  if (track.style.height !== hgt) track.style.height = hgt;
}

/** Keeps offsets a..b of the log area in view (minimal scroll). */
export function scrollOffsetIntoView(v, a, b) {
  const vp = v.ui.viewport;
  const width = v.width || vp.clientWidth;
  const g = geometry(v, width);
  const logW = width - g.logX;
  if (logW <= CELL_W) return;
  const x0 = a * CELL_W;
  const x1 = (b + 1) * CELL_W;
  const left = vp.scrollLeft;
  if (x0 >= left && x1 <= left + logW) return;
  vp.scrollLeft = x1 - x0 > logW || x0 < left ? Math.max(0, x0 - CELL_W) : x1 - logW + CELL_W;
}

/** After a step: the records it wrote (or what it delivered) in view. */
export function followStep(v) {
  const tl = v.tl;
  if (!tl) return;
  if (v.width <= 0) v.measure();
  let lo = Infinity;
  let hi = -Infinity;
  for (const i of tl.writtenAt[v.step] ?? []) {
    const r = tl.records[i];
    lo = Math.min(lo, r.offset);
    hi = Math.max(hi, r.lastOffset ?? r.offset);
  }
  if (lo === Infinity) return;
  scrollOffsetIntoView(v, lo, Math.min(hi, lo + 8));
}

/**
 * Where record `idx` is drawn, in CSS pixels relative to the canvas ({x, y, width, height}), or
 * null when it is not on the canvas at this step (not yet written, or scrolled out of view).
 */
export function recordBox(v, idx) {
  const tl = v.tl;
  const r = tl?.records[idx];
  const l = r ? tl.byId.get(r.lane) : null;
  if (!r || !l?.rows || r.step > v.step) return null;
  const ri = Math.max(0, l.rows.findIndex((row) => row.partition === r.partition));
  const { top, ch } = cellBox(l, ri);
  const g = geometry(v, v.width);
  const x = g.logX + r.offset * CELL_W - v.ui.viewport.scrollLeft + 2;
  const w = ((r.lastOffset ?? r.offset) - r.offset + 1) * CELL_W - 4;
  if (x < g.logX || x + w > v.width) return null;
  return { x, y: top, width: w, height: ch };
}

/** Lane index at canvas y. */
export function laneAt(v, y) {
  for (const l of v.tl?.lanes ?? []) if (y >= l.y && y < l.y + l.h) return l;
  return null;
}

export function recordAtEvent(v, ev) {
  const tl = v.tl;
  if (!tl) return -1;
  const rect = v.ui.canvas.getBoundingClientRect();
  const z = v.zoom(); // the lanes are zoomed in presenter mode: the rect is, the drawing is not
  const x = (ev.clientX - rect.left) / z;
  const y = (ev.clientY - rect.top) / z;
  const g = geometry(v, v.width);
  if (x < g.logX) return -1;
  const lane = laneAt(v, y);
  if (!lane) return -1;
  const off = Math.floor((x - g.logX + v.ui.viewport.scrollLeft) / CELL_W);
  const find = (l, o, ri = 0) => {
    const list = l?.rows?.[ri]?.records;
    if (!list) return -1;
    const recs = tl.records;
    const at = lowerBound(list, o - 64, (i) => recs[i].offset);
    let hit = -1;
    for (let j = at; j < list.length && recs[list[j]].offset <= o; j++) {
      const r = recs[list[j]];
      if (r.step <= v.step && o >= r.offset && o <= (r.lastOffset ?? r.offset)) hit = list[j];
    }
    return hit;
  };
  if (lane.rows) {
    let ri = 0;
    for (let i = 0; i < lane.rows.length; i++) if (y >= cellBox(lane, i).top - 6) ri = i;
    return find(lane, off, ri);
  }
  if (lane.kind === "consumer") {
    const row = Math.floor((y - lane.y - 18) / SUBROW_H);
    const part = lane.parts[row];
    return part === undefined ? -1 : find(tl.partitionLane.get(part), off);
  }
  return -1;
}
