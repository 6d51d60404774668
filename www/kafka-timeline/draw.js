// <kafka-timeline>'s canvases: the swimlanes (ruler, record cells, HW/LSO pointers, consumers, effects,
// the gutter's labels and the wire of this step) and the commit-latency plot. `v` is the element's
// view (element.js #view); `ctx` the 2D context, drawn through v.ctxStyle.
import { backingSize, cross, hidpiContext, presenterMinFont } from "../lib/element.js";
import {
  CELL_W, RULER_H, SUBROW_H, TXN_LINES, abbreviateLabel, cellBox, cellText, ellipsize, isMarker, lowerBound, niceTicks,
  recordStatus,
} from "../lib/timeline-model.js";
import { wrapText } from "../lib/fit-text.js";
import { geometry } from "./layout.js";
import { latencyCount, latencyPoints } from "./panels.js";

/** The latency plot: x partitions, y ms, axes fixed to the whole run, the points so far joined by a line. */
export function drawLatency(v) {
  const { latency, latencyCanvas: canvas } = v.ui;
  if (latency.hidden) {
    v.latencySize = null;
    return;
  }
  // The canvas's size as the ResizeObserver last saw it; measured here only before it has.
  v.latencySize ??= { width: canvas.clientWidth, height: canvas.clientHeight };
  const { width, height } = v.latencySize;
  if (width <= 0 || height <= 0) {
    v.latencySize = null;
    return;
  }
  const { width: bw, height: bh } = backingSize(width, height);
  // The plot changes with the completions shown and the one of this step, not with scrolling:
  // redraw only when that (or the size, the theme, the run) changes. A software canvas is
  // rasterized when the frame is committed, so an unchanged redraw is not free.
  const count = latencyCount(v);
  const at = v.tl?.completionSteps;
  const nowAt = at && count >= 0 && count > 0 && at[count - 1] === v.step ? v.step : -1;
  const key = count >= 0 ? `${count}:${nowAt}:${bw}x${bh}:${width}x${height}` : null;
  if (key !== null && key === v.latencyPlotKey && v.latencyPlotFor.report === v.report && v.latencyPlotFor.theme === v.theme &&
      canvas.width === bw && canvas.height === bh) return;
  v.latencyPlotKey = key ?? "";
  v.latencyPlotFor = { report: v.report, theme: v.theme };
  const { ctx } = hidpiContext(canvas, width, height);
  const th = v.theme;
  ctx.fillStyle = th.bg;
  ctx.fillRect(0, 0, width, height);
  const all = v.report.completions;
  const xTicks = niceTicks(Math.max(...all.map((c) => Number(c.partitions))));
  const yTicks = niceTicks(Math.max(...all.map((c) => Number(c.ms))));
  const xMax = xTicks[xTicks.length - 1];
  const yMax = yTicks[yTicks.length - 1];
  const m = { left: 44, right: 14, top: 22, bottom: 34 };
  const pw = width - m.left - m.right;
  const ph = height - m.top - m.bottom;
  const X = (v) => m.left + (v / xMax) * pw;
  const Y = (v) => m.top + ph - (v / yMax) * ph;
  // Grid, axes, tick labels and axis titles.
  ctx.font = `10px ${th.mono}`;
  ctx.lineWidth = 1;
  ctx.strokeStyle = th.border;
  ctx.fillStyle = th.muted;
  ctx.beginPath();
  for (const v of yTicks) {
    ctx.moveTo(m.left, Math.round(Y(v)) + 0.5);
    ctx.lineTo(m.left + pw, Math.round(Y(v)) + 0.5);
  }
  ctx.stroke();
  ctx.strokeStyle = th.muted;
  ctx.beginPath();
  ctx.moveTo(m.left + 0.5, m.top);
  ctx.lineTo(m.left + 0.5, m.top + ph + 0.5);
  ctx.lineTo(m.left + pw, m.top + ph + 0.5);
  for (const v of xTicks) {
    ctx.moveTo(Math.round(X(v)) + 0.5, m.top + ph);
    ctx.lineTo(Math.round(X(v)) + 0.5, m.top + ph + 4);
  }
  ctx.stroke();
  ctx.textAlign = "right";
  ctx.textBaseline = "middle";
  for (const v of yTicks) ctx.fillText(String(v), m.left - 5, Y(v));
  ctx.textAlign = "center";
  ctx.textBaseline = "top";
  for (const v of xTicks) ctx.fillText(String(v), X(v), m.top + ph + 6);
  ctx.font = `11px ${th.mono}`;
  ctx.fillStyle = th.fg;
  ctx.textAlign = "right";
  ctx.textBaseline = "alphabetic";
  ctx.fillText("partitions touched →", m.left + pw, height - 3);
  ctx.textAlign = "left";
  ctx.fillText("ms EndTxn→Complete", 4, 13);
  // The completions so far, by partitions (chronological among equals), joined by a line.
  const points = latencyPoints(v).sort((a, b) => a.partitions - b.partitions || a.n - b.n);
  if (!points.length) {
    ctx.fillStyle = th.muted;
    ctx.textAlign = "center";
    ctx.textBaseline = "middle";
    ctx.fillText("no transaction has completed yet", m.left + pw / 2, m.top + ph / 2);
    return;
  }
  ctx.strokeStyle = th.accent;
  ctx.lineWidth = 1.5;
  ctx.beginPath();
  let px = NaN;
  let py = NaN;
  points.forEach((p, i) => {
    const x = X(p.partitions);
    const y = Y(p.ms);
    if (x === px && y === py) return; // a zero-length segment adds nothing to the line
    if (i) ctx.lineTo(x, y);
    else ctx.moveTo(x, y);
    px = x;
    py = y;
  });
  ctx.stroke();
  // Equal points are one circle (drawn where the last of them is drawn): thousands of
  // transactions with the same cost are one dot, not thousands of overlapping arcs to rasterize.
  const lastAt = new Map();
  points.forEach((p, i) => lastAt.set(`${p.partitions}:${p.ms}:${p.step === v.step}`, i));
  for (const [i, p] of points.entries()) {
    if (lastAt.get(`${p.partitions}:${p.ms}:${p.step === v.step}`) !== i) continue;
    const now = p.step === v.step;
    ctx.fillStyle = now ? th.bg : th.accent;
    ctx.strokeStyle = th.accent;
    ctx.lineWidth = 2;
    ctx.beginPath();
    ctx.arc(X(p.partitions), Y(p.ms), now ? 5 : 3.5, 0, Math.PI * 2);
    ctx.fill();
    ctx.stroke();
  }
  // The last point's values, as on the table (the table is the accessible copy).
  const last = points.reduce((a, b) => (b.n > a.n ? b : a));
  ctx.font = `bold 10px ${th.mono}`;
  ctx.fillStyle = th.fg;
  ctx.textBaseline = "bottom";
  const label = `${last.partitions} → ${last.ms} ms`;
  const lx = X(last.partitions);
  ctx.textAlign = lx > m.left + pw - ctx.measureText(label).width - 8 ? "right" : "left";
  ctx.fillText(label, lx + (ctx.textAlign === "right" ? -7 : 7), Y(last.ms) - 4);
}

export function hatchPattern(ctx, v) {
  if (v.hatch) return v.hatch;
  const c = document.createElement("canvas");
  c.width = 8;
  c.height = 8;
  const x = c.getContext("2d");
  x.strokeStyle = v.theme.bad;
  x.globalAlpha = 0.55;
  x.lineWidth = 1.5;
  x.beginPath();
  x.moveTo(0, 8);
  x.lineTo(8, 0);
  x.moveTo(-2, 2);
  x.lineTo(2, -2);
  x.moveTo(6, 10);
  x.lineTo(10, 6);
  x.stroke();
  v.hatch = ctx.createPattern(c, "repeat");
  return v.hatch;
}

export function drawLanes(v) {
  const t0 = performance.now();
  const { canvas, viewport } = v.ui;
  if (v.width <= 0) v.measure();
  const width = v.width;
  if (width <= 0) return;
  const tl = v.tl;
  const height = tl ? tl.height : 80;
  const cssW = `${width}px`;
  const cssH = `${height}px`;
  if (canvas.style.width !== cssW) canvas.style.width = cssW;
  if (canvas.style.height !== cssH) canvas.style.height = cssH;
  const { ctx, resized } = hidpiContext(canvas, width, height, v.zoom());
  if (resized) v.ctxStyle.reset();
  // Presenter mode: no text under PRESENTER_TEXT_PX on screen, whatever size each label asks for.
  v.ctxStyle.minFont(v.el.hasAttribute("presenter") ? presenterMinFont(v.zoom()) : 0);
  const th = v.theme;
  v.ctxStyle.set(ctx, "fillStyle", th.bg);
  ctx.fillRect(0, 0, width, height);
  if (!tl || !v.report?.steps?.length) {
    v.ctxStyle.set(ctx, "fillStyle", th.muted);
    v.ctxStyle.set(ctx, "font", `13px ${th.mono}`);
    v.ctxStyle.set(ctx, "textBaseline", "middle");
    ctx.fillText(v.ui.error.textContent ? "No timeline: the script has an error." : "Loading…", 12, 40);
    finishStats(v, t0);
    return;
  }
  const g = geometry(v, width);
  v.stats.abbreviated = [];
  v.stats.gutterW = g.gutterW;
  v.stats.logW = width - g.logX; // the log column's width (CSS px, before presenter zoom)
  const k = v.step;
  const st = v.report.steps[k].state ?? {};
  const scrollLeft = viewport.scrollLeft;
  const firstOff = Math.max(0, Math.floor(scrollLeft / CELL_W));
  const lastOff = Math.ceil((scrollLeft + width - g.logX) / CELL_W);
  const xOf = (off) => g.logX + off * CELL_W - scrollLeft;

  // Lane bands and separators.
  tl.lanes.forEach((l, i) => {
    if (i % 2 === 1) {
      v.ctxStyle.set(ctx, "fillStyle", th.panel);
      ctx.fillRect(0, l.y, width, l.h);
    }
  });
  v.ctxStyle.set(ctx, "strokeStyle", th.border);
  v.ctxStyle.set(ctx, "lineWidth", 1);
  ctx.beginPath();
  for (const l of tl.lanes) {
    ctx.moveTo(0, Math.round(l.y) + 0.5);
    ctx.lineTo(width, Math.round(l.y) + 0.5);
  }
  ctx.moveTo(g.gutterW + 0.5, 0);
  ctx.lineTo(g.gutterW + 0.5, height);
  ctx.moveTo(g.logX + 0.5, 0);
  ctx.lineTo(g.logX + 0.5, height);
  ctx.stroke();

  // The log area (clipped): ruler, cells, pointers.
  ctx.save();
  ctx.beginPath();
  ctx.rect(g.logX + 1, 0, width - g.logX - 1, height);
  ctx.clip();
  drawRuler(ctx, v, g, firstOff, lastOff, xOf, width);
  const byLane = (list) => new Map((list ?? []).map((x) => [x.lane, x]));
  const parts = byLane(st.partitions);
  const cons = byLane(st.consumers);
  for (const l of tl.lanes) {
    if (l.records) drawRecordLane(ctx, v, l, firstOff, lastOff, xOf, parts.get(l.id));
    else if (l.kind === "consumer") drawConsumerLane(ctx, v, l, firstOff, lastOff, xOf, cons.get(l.id));
    else if (l.kind === "external") drawEffects(ctx, v, l, firstOff, lastOff, xOf);
  }
  ctx.restore();
  v.ctxStyle.reset();

  // The gutter (lane names and a short state) and the wire (this step's messages).
  drawGutter(ctx, v, g, st);
  drawWire(ctx, v, g, v.report.steps[k].messages ?? []);
  drawLatency(v);
  if (v.root.activeElement === viewport) {
    v.ctxStyle.set(ctx, "strokeStyle", th.accent);
    v.ctxStyle.set(ctx, "lineWidth", 2);
    ctx.strokeRect(1, 1, width - 2, height - 2);
  }
  finishStats(v, t0);
}

export function finishStats(v, t0) {
  v.stats.draws++;
  v.stats.lastDrawMs = performance.now() - t0;
  v.stats.maxDrawMs = Math.max(v.stats.maxDrawMs, v.stats.lastDrawMs);
}

export function drawRuler(ctx, v, g, firstOff, lastOff, xOf, width) {
  const th = v.theme;
  v.ctxStyle.set(ctx, "fillStyle", th.panel);
  ctx.fillRect(g.logX, 0, width - g.logX, RULER_H);
  v.ctxStyle.set(ctx, "font", `10px ${th.mono}`);
  v.ctxStyle.set(ctx, "textBaseline", "middle");
  v.ctxStyle.set(ctx, "textAlign", "center");
  v.ctxStyle.set(ctx, "fillStyle", th.muted);
  const digits = String(lastOff).length;
  const every = digits * 6.5 + 6 > CELL_W ? Math.ceil((digits * 6.5 + 6) / CELL_W) : 1;
  for (let o = firstOff - (firstOff % every); o <= lastOff; o += every) ctx.fillText(String(o), xOf(o) + CELL_W / 2, RULER_H / 2);
  v.ctxStyle.set(ctx, "textAlign", "left");
}

export function drawRecordLane(ctx, v, l, firstOff, lastOff, xOf, pstate) {
  const th = v.theme;
  const tl = v.tl;
  const recs = tl.records;
  const k = v.step;
  const partition = l.kind === "partition";
  l.rows.forEach((row, ri) => {
    const { top, ch } = cellBox(l, ri);
    const mid = top + ch / 2;
    const list = row.records;
    const at = lowerBound(list, firstOff - 256, (i) => recs[i].offset);
    // Aborted ranges first (behind the cells).
    for (let j = at; j < list.length; j++) {
      const idx = list[j];
      const r = recs[idx];
      if (r.offset > lastOff + 1) break;
      if (r.kind !== "abort" || r.step > k) continue;
      const from = tl.abortFrom.get(idx) ?? r.offset;
      ctx.fillStyle = hatchPattern(ctx, v);
      v.ctxStyle.forget("fillStyle");
      ctx.globalAlpha = 0.5;
      ctx.fillRect(xOf(from), top - 4, (r.offset - from + 1) * CELL_W, ch + 8);
      ctx.globalAlpha = 1;
    }
    v.ctxStyle.set(ctx, "font", `11px ${th.mono}`);
    v.ctxStyle.set(ctx, "textBaseline", "middle");
    v.ctxStyle.set(ctx, "textAlign", "center");
    for (let j = at; j < list.length; j++) {
      const idx = list[j];
      const r = recs[idx];
      if (r.offset > lastOff) break;
      const end = r.lastOffset ?? r.offset;
      if (end < firstOff || r.step > k) continue;
      const x = xOf(r.offset) + 2;
      const w = (end - r.offset + 1) * CELL_W - 4;
      drawCell(ctx, v, r, x, top, w, ch, mid, k);
      if (r.step === k) {
        // Written at this step.
        v.ctxStyle.set(ctx, "fillStyle", th.accent);
        ctx.fillRect(x, top + ch + 1, w, 3);
      }
      if (idx === v.selected || idx === v.hover) {
        v.ctxStyle.set(ctx, "strokeStyle", idx === v.selected ? th.accent : th.fg);
        v.ctxStyle.set(ctx, "lineWidth", 2);
        ctx.strokeRect(x - 2, top - 2, w + 4, ch + 4);
      }
    }
    v.ctxStyle.set(ctx, "textAlign", "left");
    if (!partition && l.rows.length > 1) {
      v.ctxStyle.set(ctx, "font", `9.5px ${th.mono}`);
      v.ctxStyle.set(ctx, "fillStyle", th.muted);
      v.ctxStyle.set(ctx, "textBaseline", "alphabetic");
      ctx.fillText(row.partition, xOf(firstOff) + 3, top - 3);
    }
    if (partition && pstate) drawPointers(ctx, v, l, pstate, xOf, top, ch);
  });
}

/**
 * A value too long for its cell on two lines, split after a separator (",", "-", "_", ".", " ")
 * nearest the middle, so that a value wraps between its parts rather than being cut mid-word;
 * null when it has no separator.
 */
export function twoLines(text) {
  let best = -1;
  for (let i = 1; i < text.length - 1; i++) {
    if (/[,\-_. ]/.test(text[i]) && (best < 0 || Math.abs(i + 1 - text.length / 2) < Math.abs(best + 1 - text.length / 2))) best = i;
  }
  if (best < 0) return null;
  return [text.slice(0, best + 1).trimEnd(), text.slice(best + 1).trimStart()];
}

/** Width of a character of the monospace font at `px` (as drawn: presenter mode may raise it). */
const charW = (v, px) => 0.61 * v.ctxStyle.px(px);

/**
 * How a value is drawn in a box `w`×`hgt` (a cell, a delivery, an effect): on one line at 11 px,
 * else at 9.5 px, else on two lines (split at `split`, a separator or a space) when the box is tall
 * enough; only a value that fits none of these is shortened, after a whole token, its full text in
 * the record's tooltip and dialog. Returns the font size and the lines.
 */
export function fitValue(v, text, w, hgt, split = null) {
  const room = w - 4;
  if (text.length * charW(v, 11) <= room) return { px: 11, lines: [text] };
  const cols = Math.max(1, Math.floor(room / charW(v, 9.5)));
  if (text.length <= cols) return { px: 9.5, lines: [text] };
  if (hgt >= 20) {
    const two = split ?? twoLines(text);
    const lines = two && two.length === 2 && two.every((t) => t.length <= cols) ? two : wrapText(text, cols, 2);
    return { px: 9.5, lines: noteShortened(v, lines, text) };
  }
  return { px: 9.5, lines: noteShortened(v, [ellipsize(text, cols)], text) };
}

/**
 * Lists in the render stats each text the frame drew shortened (`lines` ending in "…") with its
 * full text, which the view shows elsewhere (a record's tooltip and detail, the state panel).
 */
function noteShortened(v, lines, full) {
  const last = lines[lines.length - 1] ?? "";
  if (last.endsWith("…")) v.stats.abbreviated?.push({ shown: last, full });
  return lines;
}

/** Draws `text` centred at (cx, mid) in a box `w`×`hgt` as fitValue lays it out, then restores 11 px. */
export function fillValue(ctx, v, text, cx, mid, w, hgt, split = null) {
  const { px, lines } = fitValue(v, text, w, hgt, split);
  v.ctxStyle.set(ctx, "font", `${px}px ${v.theme.mono}`);
  const gap = Math.min(6, hgt / 4);
  if (lines.length === 2) {
    ctx.fillText(lines[0], cx, mid - gap);
    ctx.fillText(lines[1], cx, mid + gap);
  } else {
    ctx.fillText(lines[0] ?? "", cx, mid);
  }
  v.ctxStyle.set(ctx, "font", `11px ${v.theme.mono}`);
}

export function drawCell(ctx, v, r, x, y, w, hgt, mid, k) {
  const th = v.theme;
  const raw = cellText(r);
  if (isMarker(r)) {
    // Markers: solid, with a notch (a flag) — shape as well as colour.
    const color = r.kind === "commit" ? th.ok : th.bad;
    v.ctxStyle.set(ctx, "fillStyle", color);
    ctx.beginPath();
    ctx.moveTo(x, y);
    ctx.lineTo(x + w, y);
    ctx.lineTo(x + w - 5, mid);
    ctx.lineTo(x + w, y + hgt);
    ctx.lineTo(x, y + hgt);
    ctx.closePath();
    ctx.fill();
    v.ctxStyle.set(ctx, "fillStyle", th.bg);
    v.ctxStyle.set(ctx, "font", `bold 9.5px ${th.mono}`);
    ctx.fillText(ellipsize(raw, Math.floor((w - 8) / ((5.8 * v.ctxStyle.px(9.5)) / 9.5))), x + (w - 4) / 2, mid);
    v.ctxStyle.set(ctx, "font", `11px ${th.mono}`);
    return;
  }
  const status = r.kind === "txn-log" ? "log" : recordStatus(r, k);
  let stroke = th.border;
  let fill = th.bg;
  let dash = false;
  if (status === "committed") {
    stroke = th.ok;
  } else if (status === "aborted") {
    stroke = th.bad;
  } else if (status === "open") {
    stroke = th.warn;
    dash = true;
  } else if (status === "log") {
    stroke = th.accent;
  } else if (status === "truncated") {
    stroke = th.bad;
    dash = true;
  }
  v.ctxStyle.set(ctx, "fillStyle", fill);
  ctx.fillRect(x, y, w, hgt);
  if (status === "committed" || status === "open") {
    ctx.globalAlpha = 0.16;
    v.ctxStyle.set(ctx, "fillStyle", stroke);
    ctx.fillRect(x, y, w, hgt);
    ctx.globalAlpha = 1;
  } else if (status === "aborted") {
    ctx.fillStyle = hatchPattern(ctx, v);
    v.ctxStyle.forget("fillStyle");
    ctx.fillRect(x, y, w, hgt);
  }
  v.ctxStyle.set(ctx, "strokeStyle", stroke);
  v.ctxStyle.set(ctx, "lineWidth", status === "open" ? 1.5 : 1);
  if (dash) ctx.setLineDash([4, 3]);
  ctx.strokeRect(x + 0.5, y + 0.5, w - 1, hgt - 1);
  if (dash) ctx.setLineDash([]);
  v.ctxStyle.set(ctx, "fillStyle", status === "aborted" ? th.bad : th.fg);
  // A __transaction_state value splits between its words ("Prepare" / "Commit").
  fillValue(ctx, v, raw, x + w / 2, mid, w, hgt, r.kind === "txn-log" && TXN_LINES[raw]?.length === 2 ? TXN_LINES[raw] : null);
  if (status === "aborted" || status === "truncated") {
    // Struck through: aborted (never returned to read_committed consumers) or truncated.
    v.ctxStyle.set(ctx, "strokeStyle", th.bad);
    ctx.beginPath();
    ctx.moveTo(x + 4, mid);
    ctx.lineTo(x + w - 4, mid);
    ctx.stroke();
  }
}

/** HW (▲ below the cells), LSO (▼ above), an open transaction's span between them. */
export function drawPointers(ctx, v, l, p, xOf, top, ch) {
  const th = v.theme;
  v.ctxStyle.set(ctx, "font", `bold 9.5px ${th.mono}`);
  v.ctxStyle.set(ctx, "textBaseline", "middle");
  const tri = (x, y, up, color) => {
    v.ctxStyle.set(ctx, "fillStyle", color);
    ctx.beginPath();
    if (up) {
      ctx.moveTo(x, y);
      ctx.lineTo(x - 5, y + 7);
      ctx.lineTo(x + 5, y + 7);
    } else {
      ctx.moveTo(x, y);
      ctx.lineTo(x - 5, y - 7);
      ctx.lineTo(x + 5, y - 7);
    }
    ctx.closePath();
    ctx.fill();
  };
  const hwX = xOf(p.hw);
  const lsoX = xOf(p.lso);
  if (p.lso < p.hw) {
    v.ctxStyle.set(ctx, "strokeStyle", th.warn);
    v.ctxStyle.set(ctx, "lineWidth", 1.5);
    ctx.setLineDash([3, 3]);
    ctx.beginPath();
    ctx.moveTo(lsoX, top - 6);
    ctx.lineTo(hwX, top - 6);
    ctx.stroke();
    ctx.setLineDash([]);
  }
  tri(lsoX, top - 1, false, th.dup);
  v.ctxStyle.set(ctx, "fillStyle", th.dup);
  pointerLabel(ctx, v, p.lso < p.hw ? "LSO · open txn" : "LSO", lsoX, 7, l.y + 6);
  tri(hwX, top + ch + 6, true, th.accent);
  v.ctxStyle.set(ctx, "fillStyle", th.accent);
  pointerLabel(ctx, v, "HW", hwX, 7, top + ch + 12);
  if (p.logEnd !== p.hw) {
    const x = xOf(p.logEnd);
    v.ctxStyle.set(ctx, "strokeStyle", th.muted);
    v.ctxStyle.set(ctx, "lineWidth", 1);
    ctx.beginPath();
    ctx.moveTo(x, top);
    ctx.lineTo(x, top + ch);
    ctx.stroke();
    v.ctxStyle.set(ctx, "fillStyle", th.muted);
    pointerLabel(ctx, v, "LEO", x, 3, top + ch + 12);
  }
}

/**
 * A pointer's name `gap` px right of its mark at `x`, or left of it when it would run past the
 * drawing's right edge (the last offsets in view): drawn whole either way.
 */
function pointerLabel(ctx, v, text, x, gap, y) {
  const w = ctx.measureText(text).width;
  const right = x + gap + w <= v.width - 2;
  v.ctxStyle.set(ctx, "textAlign", right ? "left" : "right");
  ctx.fillText(text, right ? x + gap : x - gap, y);
  v.ctxStyle.set(ctx, "textAlign", "left");
}

export function drawConsumerLane(ctx, v, l, firstOff, lastOff, xOf, c) {
  const th = v.theme;
  const k = v.step;
  v.ctxStyle.set(ctx, "font", `11px ${th.mono}`);
  v.ctxStyle.set(ctx, "textBaseline", "middle");
  l.parts.forEach((part, row) => {
    const y = l.y + 18 + row * SUBROW_H;
    const mid = y + (SUBROW_H - 4) / 2;
    const list = l.deliveries.get(part) ?? [];
    const at = lowerBound(list, firstOff, (d) => d.offset);
    v.ctxStyle.set(ctx, "textAlign", "center");
    for (let j = at; j < list.length; j++) {
      const d = list[j];
      if (d.offset > lastOff) break;
      if (d.step > k) continue;
      const x = xOf(d.offset) + 4;
      const w = CELL_W - 8;
      const rec = v.tl.records[d.record];
      const status = rec ? recordStatus(rec, k) : "plain";
      const color = status === "aborted" ? th.bad : status === "committed" ? th.ok : status === "open" ? th.warn : th.fg;
      v.ctxStyle.set(ctx, "fillStyle", d.step === k ? th.accent : color);
      ctx.globalAlpha = d.step === k ? 0.25 : 0.12;
      ctx.fillRect(x, y, w, SUBROW_H - 4);
      ctx.globalAlpha = 1;
      if (status === "aborted") {
        // An aborted record in a consumer's hands: hatched and struck through, as in the log.
        ctx.fillStyle = hatchPattern(ctx, v);
        v.ctxStyle.forget("fillStyle");
        ctx.fillRect(x, y, w, SUBROW_H - 4);
      }
      v.ctxStyle.set(ctx, "strokeStyle", color);
      v.ctxStyle.set(ctx, "lineWidth", status === "aborted" ? 2 : 1);
      if (status === "open") ctx.setLineDash([4, 3]);
      ctx.strokeRect(x + 0.5, y + 0.5, w - 1, SUBROW_H - 5);
      if (status === "open") ctx.setLineDash([]);
      v.ctxStyle.set(ctx, "fillStyle", status === "aborted" ? th.bad : th.fg);
      fillValue(ctx, v, d.value === null ? "∅" : String(d.value), x + w / 2, mid, w, SUBROW_H - 4);
      if (status === "aborted") {
        v.ctxStyle.set(ctx, "lineWidth", 1);
        ctx.beginPath();
        ctx.moveTo(x + 4, mid);
        ctx.lineTo(x + w - 4, mid);
        ctx.stroke();
      }
    }
    v.ctxStyle.set(ctx, "textAlign", "left");
    const pos = c?.positions?.find((p) => p.partition === part)?.position;
    if (pos !== undefined && pos !== null) {
      const x = xOf(pos);
      v.ctxStyle.set(ctx, "fillStyle", th.accent);
      ctx.beginPath();
      ctx.moveTo(x + 1, y - 1);
      ctx.lineTo(x + 8, mid);
      ctx.lineTo(x + 1, y + SUBROW_H - 3);
      ctx.closePath();
      ctx.fill();
      pointerLabel(ctx, v, `${part} pos ${pos}`, x, 10, mid);
    }
  });
  v.ctxStyle.set(ctx, "fillStyle", th.muted);
  v.ctxStyle.set(ctx, "font", `10px ${th.mono}`);
  ctx.fillText(c?.isolation ?? "", xOf(firstOff) + 4, l.y + 9);
}

export function drawEffects(ctx, v, l, firstOff, lastOff, xOf) {
  const th = v.theme;
  const k = v.step;
  const effects = v.tl.effects;
  const top = l.y + 7;
  const hgt = l.h - 14;
  v.ctxStyle.set(ctx, "font", `11px ${th.mono}`);
  v.ctxStyle.set(ctx, "textBaseline", "middle");
  v.ctxStyle.set(ctx, "textAlign", "center");
  for (let i = firstOff; i <= Math.min(lastOff, effects.length - 1); i++) {
    const e = effects[i];
    if (e.step > k) break;
    const x = xOf(i) + 2;
    const w = CELL_W - 4;
    v.ctxStyle.set(ctx, "fillStyle", e.duplicate ? th.bad : th.dup);
    ctx.globalAlpha = e.duplicate ? 0.3 : 0.15;
    ctx.beginPath();
    ctx.arc(x + w / 2, top + hgt / 2, Math.min(w, hgt) / 2, 0, Math.PI * 2);
    ctx.fill();
    ctx.globalAlpha = 1;
    v.ctxStyle.set(ctx, "strokeStyle", e.duplicate ? th.bad : th.dup);
    v.ctxStyle.set(ctx, "lineWidth", e.duplicate ? 2 : 1);
    ctx.stroke();
    v.ctxStyle.set(ctx, "fillStyle", e.duplicate ? th.bad : th.fg);
    const d = Math.min(w, hgt);
    fillValue(ctx, v, String(e.duplicate ? `2×${e.key ?? e.name}` : e.key ?? e.name), x + w / 2, top + hgt / 2, w, d);
  }
  v.ctxStyle.set(ctx, "textAlign", "left");
}

export function drawGutter(ctx, v, g, st) {
  const th = v.theme;
  const cols = Math.floor((g.gutterW - 12) / 6.6);
  const labelCols = Math.floor((g.gutterW - 12) / v.labelCharW);
  let truncated = 0;
  v.ctxStyle.set(ctx, "textBaseline", "alphabetic");
  v.ctxStyle.set(ctx, "textAlign", "left");
  v.ctxStyle.set(ctx, "font", `10px ${th.mono}`);
  v.ctxStyle.set(ctx, "fillStyle", th.muted);
  ctx.fillText("lane", 8, 15);
  ctx.fillText(`messages of step ${v.at + 1}`, g.gutterW + 8, 15);
  const find = (list, id) => (list ?? []).find((x) => x.lane === id);
  for (const l of v.tl.lanes) {
    if (v.laneFocus === l.id) {
      // The lane ↑/↓ reached (it has no record to select): outlined, its name in the detail line.
      v.ctxStyle.set(ctx, "strokeStyle", th.accent);
      ctx.lineWidth = 2;
      ctx.strokeRect(2, l.y + 2, g.gutterW - 4, l.h - 4);
    }
    v.ctxStyle.set(ctx, "font", `bold 12px ${th.mono}`);
    v.ctxStyle.set(ctx, "fillStyle", th.fg);
    if (String(l.label).length > labelCols) truncated++;
    ctx.fillText(abbreviateLabel(l.label, labelCols), 8, l.y + 16);
    let line2 = l.kind;
    let line3 = "";
    let warn = false;
    if (l.kind === "producer") {
      const p = find(st.producers, l.id);
      if (p) {
        line2 = `${p.state}`;
        line3 = `pid ${p.pid} e${p.epoch}${p.outcome ? ` · ${p.outcome}` : ""}${p.fenced ? " · fenced" : ""}${p.crashed ? " · crashed" : ""}`;
        warn = !!p.outcome || /ERROR/.test(p.state) || !!p.fenced || !!p.crashed;
      }
    } else if (l.kind === "coordinator") {
      const c = st.coordinator;
      const t = c?.txns?.[0];
      line2 = c ? `coordinator e${c.epoch}` : "coordinator";
      if (t) line3 = `${t.state}${t.pendingState ? "→" + t.pendingState : ""}${c.txns.length > 1 ? ` +${c.txns.length - 1}` : ""}`;
    } else if (l.kind === "partition") {
      const p = find(st.partitions, l.id);
      if (p) line3 = `HW ${p.hw} LSO ${p.lso}`;
      warn = !!p && p.lso < p.hw;
    } else if (l.kind === "offsets") {
      const o = (st.offsets ?? [])[0];
      if (o) line3 = `${o.partition}: ${o.committed ?? "—"}${o.pending !== null && o.pending !== undefined ? ` (${o.pending}?)` : ""}`;
    } else if (l.kind === "consumer") {
      const c = find(st.consumers, l.id);
      if (c) {
        line2 = c.isolation;
        line3 = `received ${c.received}`;
      }
    } else if (l.kind === "external") {
      line2 = "external effects";
    }
    v.ctxStyle.set(ctx, "font", `10.5px ${th.mono}`);
    const state = `${line2} ${line3}`.trim();
    const lines = noteShortened(v, stateLines(line2, line3, cols, Math.floor((l.h - 17) / 12)), state);
    // The state whole, for the lane's tooltip, when the gutter had to shorten it.
    l.shortenedState = lines[lines.length - 1]?.endsWith("…") ? state : null;
    lines.forEach((t, i) => {
      v.ctxStyle.set(ctx, "fillStyle", warn && i >= lines.first3 ? th.warn : th.muted);
      ctx.fillText(t, 8, l.y + 29 + 12 * i);
    });
  }
  v.stats.truncatedLabels = truncated;
}

/**
 * A lane's state under its name in `room` lines of `cols` characters: its kind or state line, then
 * its details, each wrapped at words or tokens ("PrepareAbort→" / "CompleteAbort"); text beyond the
 * room ends after a whole token with "…" (the lane's tooltip and the state panel have it all).
 * `first3` is the index of the details' first line.
 */
export function stateLines(line2, line3, cols, room) {
  const lines = wrapText(line2, cols);
  const first3 = lines.length;
  if (line3) lines.push(...wrapText(line3, cols));
  if (lines.length > room) {
    lines.length = Math.max(0, room);
    if (room > 0) lines[room - 1] = ellipsize(`${lines[room - 1]} …`, cols);
  }
  lines.first3 = first3;
  return lines;
}

/** This step's messages: numbered vertical arrows between lane centres. */
export function drawWire(ctx, v, g, msgs) {
  const th = v.theme;
  const tl = v.tl;
  if (!msgs.length) {
    v.ctxStyle.set(ctx, "font", `11px ${th.mono}`);
    v.ctxStyle.set(ctx, "fillStyle", th.muted);
    v.ctxStyle.set(ctx, "textBaseline", "middle");
    ctx.fillText("(no messages)", g.gutterW + 10, RULER_H + 18);
    return;
  }
  const pad = 14;
  const n = Math.min(msgs.length, 40);
  const spacing = n > 1 ? Math.min(34, (g.wireW - 2 * pad) / (n - 1)) : 0;
  const centre = (id) => {
    const l = tl.byId.get(id);
    return l ? l.y + l.h / 2 : null;
  };
  v.ctxStyle.set(ctx, "font", `bold 9.5px ${th.mono}`);
  v.ctxStyle.set(ctx, "textBaseline", "middle");
  v.ctxStyle.set(ctx, "textAlign", "center");
  for (let j = 0; j < n; j++) {
    const m = msgs[j];
    const x = g.gutterW + pad + j * spacing;
    const y1 = centre(m.from);
    const y2 = centre(m.to);
    if (y1 === null || y2 === null) continue;
    const color = m.lost || m.error ? th.bad : m.kind === "response" ? th.ok : m.kind === "effect" ? th.dup : th.fg;
    v.ctxStyle.set(ctx, "strokeStyle", color);
    v.ctxStyle.set(ctx, "fillStyle", color);
    v.ctxStyle.set(ctx, "lineWidth", 1.5);
    if (y1 === y2) {
      // A lane acting on itself (a coordinator's log write): a loop.
      ctx.beginPath();
      ctx.arc(x + 10, y1, 6, Math.PI * 1.1, Math.PI * 0.9);
      ctx.stroke();
      ctx.beginPath();
      ctx.moveTo(x + 5, y1 + 4);
      ctx.lineTo(x + 3, y1 + 9);
      ctx.lineTo(x + 8.5, y1 + 8);
      ctx.closePath();
      ctx.fill();
    } else if (m.lost) {
      const ym = (y1 + y2) / 2;
      ctx.setLineDash([4, 3]);
      ctx.beginPath();
      ctx.moveTo(x, y1);
      ctx.lineTo(x, ym);
      ctx.stroke();
      ctx.setLineDash([]);
      v.ctxStyle.set(ctx, "lineWidth", 2);
      cross(ctx, x, ym, 5);
    } else {
      const dir = y2 > y1 ? 1 : -1;
      ctx.beginPath();
      ctx.moveTo(x, y1);
      ctx.lineTo(x, y2 - dir * 2);
      ctx.stroke();
      ctx.beginPath();
      ctx.moveTo(x, y2);
      ctx.lineTo(x - 4.5, y2 - dir * 8);
      ctx.lineTo(x + 4.5, y2 - dir * 8);
      ctx.closePath();
      ctx.fill();
    }
    // The number, as in the narration's list.
    v.ctxStyle.set(ctx, "fillStyle", th.bg);
    ctx.beginPath();
    ctx.arc(x, y1, 7, 0, Math.PI * 2);
    ctx.fill();
    v.ctxStyle.set(ctx, "lineWidth", 1);
    ctx.stroke();
    v.ctxStyle.set(ctx, "fillStyle", color);
    ctx.fillText(String(j + 1), x, y1 + 0.5);
  }
  v.ctxStyle.set(ctx, "textAlign", "left");
}
