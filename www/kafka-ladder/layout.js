// <kafka-ladder>'s geometry: the columns, the rows' heights (wrapped sentences), the viewport's size and
// scroll, and which row is under the pointer. `v` is the element's view (element.js #view).
import { presenterMinFont } from "../lib/element.js";
import {
  EVENT_H, FONT_PX, GUTTER_W, HEADER_H, LINE_H, MIN_TEXT_W, ROW_EVENT, STEP_H, TAG_COLS, wrapText,
} from "../lib/ladder-rows.js";

/** The small type of the drawing: time labels, lane roles, decision badges (presenter mode raises it). */
export const TIME_PX = 10.5;

/** Reads the viewport's size; only on resize, theme or load, never while drawing a frame. */
export function measure(v) {
  const { viewport: vp, canvas } = v.ui;
  // The ladder is drawn at least wide enough for every lane at the width of its name plus a
  // readable text column; wider than the element, it scrolls sideways inside it.
  const need = minWidth(v);
  const width = Math.max(vp.clientWidth, need);
  v.width = vp.clientWidth > 0 ? width : 0;
  const css = width > vp.clientWidth && vp.clientWidth > 0 ? `${width}px` : "";
  if (canvas.style.width !== css) canvas.style.width = css;
  vp.classList.toggle("wide", css !== "");
  v.maxHeight = parseFloat(getComputedStyle(vp).maxHeight) || 480;
}

/** The narrowest the drawing can be: the time gutter, every lane as wide as its name, MIN_TEXT_W of text. */
export function minWidth(v) {
  if (!v.ladder) return 0;
  const names = v.ladder.laneNames;
  const minLaneW = Math.ceil(Math.max(0, ...names.map((n) => String(n).length)) * v.charW + 10);
  return gutterW(v) + Math.max(1, v.ladder.lanes ?? names.length) * minLaneW + 12 + MIN_TEXT_W + 6;
}

/** The size of the small type (time labels, lane roles, request labels): TIME_PX, at least the presenter minimum. */
export function smallPx(v, px = TIME_PX) {
  return v.el.hasAttribute("presenter") ? Math.max(px, presenterMinFont(v.zoom())) : px;
}

/** The time column: `min` (GUTTER_W), or wider when the longest time label ("+1 min 30 s") needs it (never cut). */
export function gutterW(v, min = GUTTER_W) {
  const chars = v.ladder?.timeLabelChars ?? 0;
  return Math.max(min, Math.ceil(chars * v.charW * (smallPx(v) / FONT_PX)) + 16);
}

/** Columns: time gutter, the lanes, the text (kind tag + sentence). Narrow hosts drop the tag. */
export function geometry(v, width) {
  const lanes = Math.max(1, v.ladder?.lanes ?? 1);
  const narrow = width < 600;
  const minDiagram = narrow ? 130 : 220;
  // Every lane at least as wide as the longest lane name (never ellipsized): the text column gives way.
  const names = v.ladder?.laneNames ?? [];
  const minLaneW = Math.ceil(Math.max(0, ...names.map((n) => String(n).length)) * v.charW + 10);
  const diagramW = Math.max(lanes * minLaneW,
    Math.round(Math.min(Math.max(lanes * 120, minDiagram), Math.max(minDiagram, width * (narrow ? 0.38 : 0.42)))));
  const x0 = gutterW(v, narrow ? 42 : GUTTER_W);
  const laneW = diagramW / lanes;
  const textX = x0 + diagramW + (narrow ? 8 : 12);
  const textW = Math.max(60, width - textX - 6);
  const cols = Math.max(12, Math.floor(textW / v.charW));
  const tagCols = narrow ? 0 : TAG_COLS;
  return { x0, diagramW, laneW, textX, textW, cols, tagCols, laneX: (i) => x0 + laneW * (i + 0.5) };
}

/**
 * Row heights depend on the width: every text of a row is wrapped to the text column, whole (a
 * row grows by a line rather than cutting its sentence).
 */
export function layoutRows(v, width) {
  const t0 = performance.now();
  const ladder = v.ladder;
  const rows = ladder?.rows ?? [];
  const g = geometry(v, width);
  const sentenceCols = g.cols - g.tagCols;
  const stepCols = Math.floor((width - g.textX - 8) / v.charW);
  const tops = new Float64Array(rows.length + 1);
  let y = 0;
  for (let i = 0; i < rows.length; i++) {
    const row = rows[i];
    if (row.type === ROW_EVENT) {
      if (row.e.kind === "decision") {
        // The headline on the first lines, the reasons below it.
        row.head = wrapText(row.headline ?? "", sentenceCols);
        row.lines = row.sentence ? wrapText(row.sentence, sentenceCols) : [];
        row.h = EVENT_H + (row.head.length - 1 + row.lines.length) * LINE_H + (row.lines.length ? 5 : 0);
      } else {
        row.lines = wrapText(row.e.text, sentenceCols);
        row.h = EVENT_H + (row.lines.length - 1) * LINE_H + (row.lines.length > 1 ? 3 : 0);
      }
    } else if (v.run) {
      row.lines = wrapText(stepText(v, row), stepCols);
      row.h = STEP_H + (row.lines.length - 1) * LINE_H;
    }
    tops[i] = y;
    y += row.h;
  }
  tops[rows.length] = y;
  v.rowTop = tops;
  v.layoutWidth = width;
  v.layoutDirty = false;
  v.stats.layoutMs = performance.now() - t0;
}

/** A step row's text: its script line, and the producer-state entries when the step changed them. */
export function stepText(v, row) {
  const s = row.s;
  const entries = s.producerEntries;
  const prev = row.step > 0 ? v.run.steps[row.step - 1].producerEntries : null;
  let extra = "";
  if (entries && entries.some((n, q) => n !== (prev ? prev[q] : 0))) {
    extra = "   · producer-state entries: " + entries.map((n, q) => `${v.run.partitions[q]} ${n}`).join(", ");
  }
  return `line ${s.line}: ${s.text}${extra}`;
}

/** First row whose bottom is below content y. */
export function rowAtY(v, y) {
  const tops = v.rowTop;
  let lo = 0;
  let hi = Math.max(0, tops.length - 2);
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (tops[mid] <= y) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

export function firstVisibleRow(v) {
  return Math.min(v.revealed() - 1, rowAtY(v, v.ui.viewport.scrollTop));
}

export function contentHeight(v) {
  return HEADER_H + (v.rowTop[v.revealed()] ?? 0);
}

export function scrollRowIntoView(v, r) {
  const vp = v.ui.viewport;
  const top = v.rowTop[r];
  const bottom = v.rowTop[r + 1];
  const view = vp.clientHeight - HEADER_H;
  if (top < vp.scrollTop) vp.scrollTop = top;
  else if (bottom > vp.scrollTop + view) vp.scrollTop = bottom - view;
}

/** After a step: keep the current step's rows in view. */
export function scrollForStep(v, mode) {
  if (!v.ladder) return;
  if (v.width <= 0) measure(v);
  const width = v.width;
  if (width > 0 && (v.layoutDirty || width !== v.layoutWidth)) layoutRows(v, width);
  sizeViewport(v);
  const vp = v.ui.viewport;
  const k = v.step;
  if (k === 0 || mode === "top") {
    vp.scrollTop = 0;
    return;
  }
  const start = v.rowTop[v.ladder.stepEnd[v.story[v.at]?.first ?? k - 1]];
  const end = v.rowTop[v.ladder.stepEnd[k]];
  const view = vp.clientHeight - HEADER_H;
  if (start >= vp.scrollTop && end <= vp.scrollTop + view) return;
  vp.scrollTop = end - start <= view ? end - view : start;
}

/** Viewport height: the content, up to --eos-ladder-max-height. Spacer makes the scroll range. */
export function sizeViewport(v) {
  const { viewport, canvas, spacer } = v.ui;
  const total = v.ladder ? contentHeight(v) : HEADER_H;
  const maxH = v.maxHeight;
  const hgt = Math.max(HEADER_H + 24, Math.min(total, maxH));
  const px = `${hgt}px`;
  if (canvas.style.height !== px) canvas.style.height = px;
  if (viewport.style.height !== px) viewport.style.height = px;
  const rest = `${Math.max(0, total - hgt)}px`;
  if (spacer.style.height !== rest) spacer.style.height = rest;
  return hgt;
}

export function rowAtEvent(v, ev) {
  if (!v.ladder) return -1;
  const rect = v.ui.canvas.getBoundingClientRect();
  const z = v.zoom(); // the canvas is zoomed in presenter mode: its rect is, the drawing is not
  const y = (ev.clientY - rect.top) / z - HEADER_H + v.ui.viewport.scrollTop;
  if ((ev.clientY - rect.top) / z < HEADER_H || y < 0) return -1;
  const r = rowAtY(v, y);
  return r < v.revealed() && y < v.rowTop[r + 1] ? r : -1;
}
