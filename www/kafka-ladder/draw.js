// <kafka-ladder>'s canvas: the lane header, the rows (time, arrows, decisions, sentences) and the rungs'
// arrows. `v` is the element's view (element.js #view); `ctx` the 2D context, drawn through v.ctxStyle.
import { cross, hidpiContext, presenterMinFont } from "../lib/element.js";
import {
  BUCKET, EVENT_H, FONT_PX, HEADER_H, KIND_LABEL, LINE_H, ROW_STEP, STEP_H, ellipsize, kindColor, wrapText,
} from "../lib/ladder-rows.js";
import { TIME_PX, geometry, layoutRows, measure, rowAtY, sizeViewport, smallPx, stepText } from "./layout.js";
import { updateRowList } from "./panels.js";

export function drawLadder(v) {
  const t0 = performance.now();
  const { canvas, viewport } = v.ui;
  if (v.width <= 0) measure(v);
  const width = v.width;
  if (width <= 0) return;
  if (v.layoutDirty || width !== v.layoutWidth) layoutRows(v, width);
  const height = sizeViewport(v);
  const { ctx, resized } = hidpiContext(canvas, width, height, v.zoom());
  if (resized) v.ctxStyle.reset();
  // Presenter mode: no text under PRESENTER_TEXT_PX on screen, whatever size each label asks for.
  v.ctxStyle.minFont(v.el.hasAttribute("presenter") ? presenterMinFont(v.zoom()) : 0);
  const th = v.theme;
  const mono = `${FONT_PX}px ${th.mono}`;
  if (v.measuredFont !== mono) {
    // The text column is laid out in characters of the monospace font: measure it once.
    v.ctxStyle.set(ctx, "font", mono);
    const w = ctx.measureText("0123456789abcdef").width / 16;
    v.measuredFont = mono;
    if (w > 0 && Math.abs(w - v.charW) > 0.01) {
      v.charW = w;
      layoutRows(v, width);
    }
  }
  v.ctxStyle.set(ctx, "fillStyle", th.bg);
  ctx.fillRect(0, 0, width, height);
  v.frame = (v.frame + 1) >>> 0 || 1;

  const ladder = v.ladder;
  const g = geometry(v, width);
  const scrollTop = viewport.scrollTop;
  const revealed = v.revealed();
  const viewH = height - HEADER_H;
  const yOf = (r) => HEADER_H + v.rowTop[r] - scrollTop;
  const anchor = (r) => yOf(r) + (ladder.rows[r].type === ROW_STEP ? STEP_H / 2 : EVENT_H / 2);

  let first = 0;
  let last = -1;
  if (ladder && revealed > 0) {
    first = Math.min(revealed - 1, rowAtY(v, scrollTop));
    last = Math.min(revealed - 1, rowAtY(v, scrollTop + viewH));
    const contentBottom = Math.min(height, yOf(revealed));

    ctx.save();
    ctx.beginPath();
    ctx.rect(0, HEADER_H, width, viewH);
    ctx.clip();

    // Row backgrounds: step bands, the current step, hover and selection.
    const curStart = ladder.stepEnd[v.story[v.at]?.first ?? Math.max(0, v.step - 1)];
    for (let r = first; r <= last; r++) {
      const row = ladder.rows[r];
      const y = yOf(r);
      if (row.type === ROW_STEP) {
        v.ctxStyle.set(ctx, "fillStyle", th.panel);
        ctx.fillRect(0, y, width, row.h);
      }
      if (r >= curStart && v.step > 0) {
        ctx.globalAlpha = 0.1;
        v.ctxStyle.set(ctx, "fillStyle", th.accent);
        ctx.fillRect(0, y, width, row.h);
        ctx.globalAlpha = 1;
      }
      if (r === v.hoverRow) {
        ctx.globalAlpha = 0.08;
        v.ctxStyle.set(ctx, "fillStyle", th.fg);
        ctx.fillRect(0, y, width, row.h);
        ctx.globalAlpha = 1;
      }
    }
    if (v.step > 0 && curStart <= last) {
      // A bar in the gutter marks the current step.
      const y0 = Math.max(HEADER_H, yOf(Math.max(curStart, first)));
      v.ctxStyle.set(ctx, "fillStyle", th.accent);
      ctx.fillRect(0, y0, 3, contentBottom - y0);
    }

    // Lanes.
    v.ctxStyle.set(ctx, "strokeStyle", th.border);
    v.ctxStyle.set(ctx, "lineWidth", 1);
    ctx.setLineDash([]);
    ctx.beginPath();
    for (let i = 0; i < ladder.lanes; i++) {
      const x = Math.round(g.laneX(i)) + 0.5;
      ctx.moveTo(x, HEADER_H);
      ctx.lineTo(x, contentBottom);
    }
    ctx.stroke();

    // Arrows crossing the visible rows.
    const stamp = v.arrowStamp;
    const bottomY = yOf(revealed);
    for (let b = Math.floor(first / BUCKET); b <= Math.floor(last / BUCKET); b++) {
      for (const id of ladder.buckets[b] ?? []) {
        if (stamp[id] === v.frame) continue;
        stamp[id] = v.frame;
        const a = ladder.arrows[id];
        if (a.from >= revealed || a.fromLane < 0 || a.toLane < 0) continue;
        drawArrow(ctx, v, g, a, anchor, revealed, bottomY);
      }
    }

    // Row contents.
    v.frameCtx = { anchor, revealed, bottomY };
    for (let r = first; r <= last; r++) drawRow(ctx, v, g, ladder.rows[r], r, yOf(r), width);

    if (v.selectedRow >= first && v.selectedRow <= last) {
      const y = yOf(v.selectedRow);
      v.ctxStyle.set(ctx, "strokeStyle", th.accent);
      v.ctxStyle.set(ctx, "lineWidth", 2);
      ctx.strokeRect(2, y + 1, width - 4, ladder.rows[v.selectedRow].h - 2);
    }
    ctx.restore();
    v.ctxStyle.reset(); // restore() put the context's styles back
  } else {
    v.ctxStyle.set(ctx, "fillStyle", th.muted);
    v.ctxStyle.set(ctx, "font", `13px ${th.mono}`);
    v.ctxStyle.set(ctx, "textBaseline", "middle");
    ctx.fillText(v.run ? "Step 0: nothing has happened yet — step forward." : v.ui.error.textContent ? "No ladder: the script has an error." : "Loading…", 12, HEADER_H + 12);
  }

  drawHeader(ctx, v, g, width);
  updateRowList(v, first, last);
  v.stats.draws++;
  v.stats.lastDrawMs = performance.now() - t0;
  v.stats.maxDrawMs = Math.max(v.stats.maxDrawMs, v.stats.lastDrawMs);
}

export function drawHeader(ctx, v, g, width) {
  const th = v.theme;
  v.ctxStyle.set(ctx, "fillStyle", th.panel);
  ctx.fillRect(0, 0, width, HEADER_H);
  v.ctxStyle.set(ctx, "strokeStyle", th.border);
  v.ctxStyle.set(ctx, "lineWidth", 1);
  ctx.beginPath();
  ctx.moveTo(0, HEADER_H - 0.5);
  ctx.lineTo(width, HEADER_H - 0.5);
  ctx.stroke();
  const ladder = v.ladder;
  v.ctxStyle.set(ctx, "textBaseline", "alphabetic");
  v.ctxStyle.set(ctx, "textAlign", "left");
  v.ctxStyle.set(ctx, "font", `11px ${th.mono}`);
  v.ctxStyle.set(ctx, "fillStyle", th.muted);
  ctx.fillText("time", 8, 24);
  ctx.fillText("what happens", g.textX, 24);
  if (!ladder) {
    return;
  }
  const cols = Math.max(3, Math.floor((g.laneW - 6) / v.charW));
  v.stats.truncatedLabels = ladder.laneNames.filter((n) => n.length > cols).length;
  v.ctxStyle.set(ctx, "textAlign", "center");
  ladder.laneNames.forEach((name, i) => {
    v.ctxStyle.set(ctx, "font", `bold 12px ${th.mono}`);
    v.ctxStyle.set(ctx, "fillStyle", th.fg);
    ctx.fillText(ellipsize(name, cols), g.laneX(i), 16);
    v.ctxStyle.set(ctx, "font", `10.5px ${th.mono}`);
    v.ctxStyle.set(ctx, "fillStyle", th.muted);
    ctx.fillText(ladder.laneRoles[i] ?? "", g.laneX(i), 30);
  });
  v.ctxStyle.set(ctx, "textAlign", "left");
}

/** Where arrow `a` (as #drawArrow draws it in this frame) crosses height y. */
export function arrowXAt(v, g, a, y) {
  const { anchor, revealed, bottomY } = v.frameCtx;
  const x1 = g.laneX(a.fromLane);
  const x2 = g.laneX(a.toLane);
  const y1 = anchor(a.from);
  const arrived = a.to >= 0 && a.to < revealed;
  const xEnd = arrived ? (a.fate === "delivered" ? x2 : x1 + (x2 - x1) * 0.5) : x1 + (x2 - x1) * 0.45;
  const yEnd = arrived ? anchor(a.to) : Math.max(y1 + 6, bottomY - 6);
  if (yEnd <= y1) return x1;
  return x1 + (xEnd - x1) * Math.min(1, Math.max(0, (y - y1) / (yEnd - y1)));
}

export function drawArrow(ctx, v, g, a, anchor, revealed, bottomY) {
  const th = v.theme;
  const x1 = g.laneX(a.fromLane);
  const x2 = g.laneX(a.toLane);
  const y1 = anchor(a.from);
  const arrived = a.to >= 0 && a.to < revealed;
  const color = a.kind === "request" ? th.fg : a.outcome === "append" ? th.ok : a.outcome === "duplicate" ? th.dup : a.outcome ? th.bad : th.muted;
  v.ctxStyle.set(ctx, "strokeStyle", color);
  v.ctxStyle.set(ctx, "fillStyle", color);
  v.ctxStyle.set(ctx, "lineWidth", a.kind === "request" ? 1.5 : 1.25);
  if (!arrived) {
    // Still travelling at this step: dashed, halfway, with the message as a dot.
    const xm = x1 + (x2 - x1) * 0.45;
    const ym = Math.max(y1 + 6, bottomY - 6);
    ctx.setLineDash([4, 3]);
    ctx.beginPath();
    ctx.moveTo(x1, y1);
    ctx.lineTo(xm, ym);
    ctx.stroke();
    ctx.setLineDash([]);
    ctx.beginPath();
    ctx.arc(xm, ym, 3, 0, Math.PI * 2);
    ctx.fill();
  } else if (a.fate === "delivered") {
    const y2 = anchor(a.to);
    ctx.beginPath();
    ctx.moveTo(x1, y1);
    ctx.lineTo(x2, y2);
    ctx.stroke();
    arrowHead(ctx, x1, y1, x2, y2);
  } else {
    // lost, cut (connection closed) or dropped (orphan response): ends in a cross.
    // A dropped answer (its connection closed while the request was held up) stops short.
    const ym = a.fate === "dropped" ? y1 + 8 : anchor(a.to);
    const xm = x1 + (x2 - x1) * (a.fate === "dropped" ? 0.25 : 0.5);
    if (a.fate !== "lost") ctx.setLineDash([2, 3]);
    ctx.beginPath();
    ctx.moveTo(x1, y1);
    ctx.lineTo(xm, ym);
    ctx.stroke();
    ctx.setLineDash([]);
    v.ctxStyle.set(ctx, "strokeStyle", a.fate === "lost" ? th.bad : th.muted);
    v.ctxStyle.set(ctx, "lineWidth", 2);
    cross(ctx, xm, ym, 4.5);
  }
  if (a.kind === "request" && a.label) {
    v.ctxStyle.set(ctx, "textBaseline", "alphabetic");
    v.ctxStyle.set(ctx, "font", `10px ${th.mono}`);
    v.ctxStyle.set(ctx, "fillStyle", th.muted);
    const room = Math.abs(x2 - x1) - 16;
    // The full label when it fits between the lanes, else its short form (the full one is in the row's text and tooltip).
    const label = room > ctx.measureText(a.label).width ? a.label : a.shortLabel;
    const dir = x2 >= x1 ? 1 : -1;
    v.ctxStyle.set(ctx, "textAlign", dir > 0 ? "left" : "right");
    ctx.fillText(label, x1 + dir * 8, y1 - 3);
    v.ctxStyle.set(ctx, "textAlign", "left");
  }
}

export function drawRow(ctx, v, g, row, r, y, width) {
  const th = v.theme;
  const mono = `${FONT_PX}px ${th.mono}`;
  v.ctxStyle.set(ctx, "textBaseline", "middle");
  if (row.type === ROW_STEP) {
    const s = row.s;
    const mid = y + STEP_H / 2;
    v.ctxStyle.set(ctx, "font", `bold ${FONT_PX}px ${th.mono}`);
    v.ctxStyle.set(ctx, "fillStyle", th.fg);
    const expect = /^expect\b/.test(s.text);
    // The step counter's number (story steps): an `expect` line is a check of the step above it
    // and has its tick or cross instead of a number of its own.
    if (!row.story?.check) ctx.fillText(String(row.story?.n ?? row.step + 1), 10, mid);
    const x = g.textX;
    if (expect) {
      v.ctxStyle.set(ctx, "strokeStyle", s.ok ? th.ok : th.bad);
      v.ctxStyle.set(ctx, "lineWidth", 2);
      if (s.ok) check(ctx, g.x0 - 14, mid, 5);
      else cross(ctx, g.x0 - 14, mid, 4);
    }
    v.ctxStyle.set(ctx, "font", mono);
    v.ctxStyle.set(ctx, "fillStyle", expect ? (s.ok ? th.muted : th.bad) : th.fg);
    // The step's text, wrapped by layoutRows (the row is as tall as its lines).
    const lines = row.lines ?? [stepText(v, row)];
    for (let i = 0; i < lines.length; i++) ctx.fillText(lines[i], x, mid + LINE_H * i);
    return;
  }
  const e = row.e;
  const mid = y + EVENT_H / 2;
  if (row.timeLabel) {
    v.ctxStyle.set(ctx, "font", `${TIME_PX}px ${th.mono}`);
    v.ctxStyle.set(ctx, "fillStyle", th.muted);
    // The gutter is as wide as the longest label (#gutterW); only a narrow host's is cut.
    ctx.fillText(ellipsize(row.timeLabel, Math.floor((g.x0 - 10) / (v.charW * (smallPx(v) / FONT_PX)))), 6, mid);
  }
  const color = th[kindColor(e)] ?? th.fg;
  const P = v.ladder.producers.length;
  const px = Number.isInteger(e.producer) ? g.laneX(e.producer) : null;
  const qx = Number.isInteger(e.partition) ? g.laneX(P + e.partition) : null;
  v.ctxStyle.set(ctx, "fillStyle", color);
  v.ctxStyle.set(ctx, "strokeStyle", color);
  v.ctxStyle.set(ctx, "lineWidth", 2);
  switch (e.kind) {
    case "send":
      if (px !== null) ctx.fillRect(px - 4, mid - 4, 8, 8);
      break;
    case "request":
      if (px !== null) {
        ctx.beginPath();
        ctx.arc(px, mid, 2.5, 0, Math.PI * 2);
        ctx.fill();
      }
      break;
    case "decision":
      if (qx !== null) badge(ctx, v, qx, mid, e);
      break;
    case "ack":
      if (px !== null) check(ctx, px, mid, 5);
      break;
    case "fail":
      if (px !== null) cross(ctx, px, mid, 4.5);
      break;
    case "retry":
      if (px !== null) {
        ctx.beginPath();
        ctx.arc(px, mid, 5, 0.3, Math.PI * 1.7);
        ctx.stroke();
      }
      break;
    case "timeout":
    case "delayed":
      if (px !== null || qx !== null) {
        const x = e.kind === "delayed" && row.arrow ? arrowXAt(v, g, row.arrow, mid) : px ?? qx;
        ctx.beginPath();
        ctx.arc(x, mid, 5, 0, Math.PI * 2);
        ctx.moveTo(x, mid);
        ctx.lineTo(x, mid - 3.5);
        ctx.moveTo(x, mid);
        ctx.lineTo(x + 3, mid);
        ctx.stroke();
      }
      break;
    case "restart":
    case "epoch-bump":
      if (px !== null) {
        ctx.fillRect(px - g.laneW * 0.3, mid - 3, g.laneW * 0.6, 2);
        if (e.kind === "restart" || e.batch === null) ctx.fillRect(px - g.laneW * 0.3, mid + 1, g.laneW * 0.6, 2);
      }
      break;
    case "leader-change":
    case "expired":
      if (qx !== null) {
        if (e.kind === "expired") cross(ctx, qx, mid, 4);
        else ctx.fillRect(qx - g.laneW * 0.3, mid - 1, g.laneW * 0.6, 3);
      }
      break;
    case "message":
      // A transactions run's message: its arrow is drawn with the others; here a write to the
      // sender's own log (the coordinator's __transaction_state) as a square, and an answer's
      // rule as a badge at the lane that decided it.
      if (e.fromLane >= 0 && e.fromLane === e.toLane) {
        const x = g.laneX(e.fromLane);
        ctx.fillRect(x - 4, mid - 4, 8, 8);
      } else if (e.rule && e.fromLane >= 0) {
        badge(ctx, v, g.laneX(e.fromLane), mid, e);
      }
      break;
    case "time":
      ctx.setLineDash([2, 4]);
      v.ctxStyle.set(ctx, "lineWidth", 1);
      ctx.beginPath();
      ctx.moveTo(g.x0, mid + 0.5);
      ctx.lineTo(g.x0 + g.diagramW, mid + 0.5);
      ctx.stroke();
      ctx.setLineDash([]);
      break;
    default:
      break;
  }
  // Text column: the kind, then the event's sentence (a decision: headline, then its reasons).
  const tx = g.textX;
  v.ctxStyle.set(ctx, "font", mono);
  v.ctxStyle.set(ctx, "fillStyle", color);
  if (g.tagCols) ctx.fillText(e.tag ?? KIND_LABEL[e.kind] ?? e.kind, tx, mid);
  const bodyX = tx + g.tagCols * v.charW;
  const bodyCols = g.cols - g.tagCols;
  if (e.kind === "decision") {
    v.ctxStyle.set(ctx, "font", `bold ${FONT_PX}px ${th.mono}`);
    v.ctxStyle.set(ctx, "fillStyle", th.fg);
    // The headline and the reasons, wrapped by layoutRows.
    const head = row.head ?? wrapText(row.headline ?? "", bodyCols);
    for (let i = 0; i < head.length; i++) ctx.fillText(head[i], bodyX, mid + LINE_H * i);
    v.ctxStyle.set(ctx, "font", mono);
    v.ctxStyle.set(ctx, "fillStyle", th.muted);
    const lines = row.lines ?? [];
    const top = y + EVENT_H + LINE_H * (head.length - 1);
    for (let i = 0; i < lines.length; i++) ctx.fillText(lines[i], bodyX, top + LINE_H * i + LINE_H / 2);
  } else {
    v.ctxStyle.set(ctx, "fillStyle", e.kind === "time" || e.kind === "expired" ? th.muted : th.fg);
    const lines = row.lines ?? wrapText(e.text, bodyCols);
    for (let i = 0; i < lines.length; i++) ctx.fillText(lines[i], bodyX, mid + LINE_H * i);
  }
}

/** The decision at the leader's lane: rule and outcome in a filled box. */
export function badge(ctx, v, x, mid, e) {
  const th = v.theme;
  // "ok": a transactions run's answer without an error (the coordinator's or a leader's).
  const good = e.outcome === "append" || e.outcome === "ok";
  const short = e.outcome === "append" ? "append" : e.outcome === "duplicate" ? "dup" : e.outcome === "ok" ? "ok" : String(e.errorCode ?? "err");
  const text = `${e.rule ?? "?"} ${short}`;
  v.ctxStyle.set(ctx, "font", `bold ${TIME_PX}px ${th.mono}`);
  const w = ctx.measureText(text).width + 8;
  const hgt = Math.max(14, Math.ceil(v.ctxStyle.px(TIME_PX)) + 4); // grows with the presenter's type
  const color = good ? th.ok : e.outcome === "duplicate" ? th.dup : th.bad;
  v.ctxStyle.set(ctx, "fillStyle", color);
  roundRect(ctx, x - w / 2, mid - hgt / 2, w, hgt, 3);
  ctx.fill();
  if (!good && e.outcome !== "duplicate") {
    // Refusals get a heavier outline: shape as well as colour.
    v.ctxStyle.set(ctx, "strokeStyle", th.fg);
    v.ctxStyle.set(ctx, "lineWidth", 1);
    ctx.stroke();
  }
  v.ctxStyle.set(ctx, "fillStyle", th.bg);
  v.ctxStyle.set(ctx, "textAlign", "center");
  ctx.fillText(text, x, mid + 0.5);
  v.ctxStyle.set(ctx, "textAlign", "left");
}

export function arrowHead(ctx, x1, y1, x2, y2) {
  const ang = Math.atan2(y2 - y1, x2 - x1);
  const len = 7;
  ctx.beginPath();
  ctx.moveTo(x2, y2);
  ctx.lineTo(x2 - len * Math.cos(ang - 0.4), y2 - len * Math.sin(ang - 0.4));
  ctx.lineTo(x2 - len * Math.cos(ang + 0.4), y2 - len * Math.sin(ang + 0.4));
  ctx.closePath();
  ctx.fill();
}

export function check(ctx, x, y, s) {
  ctx.beginPath();
  ctx.moveTo(x - s, y);
  ctx.lineTo(x - s / 3, y + s * 0.7);
  ctx.lineTo(x + s, y - s * 0.7);
  ctx.stroke();
}

export function roundRect(ctx, x, y, w, hgt, r) {
  ctx.beginPath();
  if (typeof ctx.roundRect === "function") {
    ctx.roundRect(x, y, w, hgt, r);
    return;
  }
  ctx.rect(x, y, w, hgt);
}
