// <kafka-ladder>'s questions and dialogs: predict-then-reveal questions, the picture export
// (lib/export.js) and the batch dialog. `v` is the element's view (element.js #view).
import { CanvasStyle, ready, showBatchDialog } from "../lib/element.js";
import { pngWithCaption, svgOfDrawing } from "../lib/export.js";
import { LEADER_ANSWERS, ROW_EVENT, splitDecision } from "../lib/ladder-rows.js";
import { choicesFor } from "../lib/player.js";
import { TXN_ANSWERS } from "../lib/timeline-model.js";
import { drawLadder } from "./draw.js";
import { contentHeight } from "./layout.js";

/**
 * Predict, then reveal (lib/player.js): the question for story step k — the leader's decision on
 * the first batch it decides at that step — or null when the step decides nothing. The choices
 * are the model's possible answers: the decisions of this run, then the leader's outcomes.
 */
export function predictQuestion(v, k) {
  if (v.ladder?.kind === "transactions") return answerQuestion(v, k);
  const g = v.story[k];
  const s = g && v.run?.steps[g.first];
  const e = s?.events?.find((x) => x.kind === "decision");
  if (!e) return null;
  const label = (x) => (x.outcome === "append" ? "APPEND (NONE)" : x.outcome === "duplicate" ? "DUPLICATE (NONE, the original offsets)" : x.errorName ?? "?");
  const seen = v.run.steps.flatMap((x) => x.events ?? []).filter((x) => x.kind === "decision").map(label);
  const { sentence } = splitDecision(e);
  return {
    prompt: `${s.text}: what does the leader of ${v.run.partitions?.[e.partition] ?? "the partition"} decide for b${e.batch}?`,
    answer: label(e),
    choices: choicesFor(label(e), [...seen, ...LEADER_ANSWERS]),
    rule: e.rule,
    sentence: sentence || e.text,
    source: e.source,
  };
}

/**
 * A transactions run's question (as <kafka-timeline> asks it): the first answer a producer gets at
 * story step k — what does the coordinator or the leader answer? The choices are the answers of
 * this run, then the usual ones.
 */
function answerQuestion(v, k) {
  const g = v.story[k];
  const s = g && v.run?.steps[g.first];
  const answerOf = (m) => m.error ?? /\bresponse ([A-Z][A-Z_]+)\b/.exec(m.text)?.[1] ?? null;
  const toProducer = (m) => /^producer:/.test(m.to) && m.kind === "response" && answerOf(m);
  const m = (s?.messages ?? []).find(toProducer);
  if (!m) return null;
  const seen = v.run.steps.flatMap((x) => x.messages ?? []).filter(toProducer).map(answerOf);
  const request = /^(\w+) response/.exec(m.text)?.[1] ?? "request";
  const name = (id) => id.slice(id.indexOf(":") + 1);
  return {
    prompt: `${s.text}: what does ${name(m.from)} answer ${name(m.to)}'s ${request}?`,
    answer: answerOf(m),
    choices: choicesFor(answerOf(m), [...seen, ...TXN_ANSWERS]),
    rule: m.rule,
    sentence: m.text,
    source: m.source,
  };
}

/** Opens record `index` of a transactions run (a message's record) in the dialog: its lane, offsets and bytes. */
export async function openRecord(v, index) {
  const r = v.run?.records?.[index];
  if (!r) return;
  const rows = [["partition", r.partition], ["offsets", r.offset === r.lastOffset ? String(r.offset) : `${r.offset}..${r.lastOffset}`],
    ["kind", r.kind], ["producerId", r.pid], ["producerEpoch", r.epoch], ["transactional", r.transactional],
    ["values", (r.values ?? []).map((x) => x ?? "null").join(", ")], ["outcome", r.outcome ?? "open"]];
  await showBatchDialog(v.ui.dialog, { title: `${r.text} · ${r.partition} @${r.offset}`, rows, hex: r.hex, hexLabel: "batch bytes (hex)" });
}

/** The caption of an exported picture: the scenario, the step and the Kafka line. */
export function captionOf(v) {
  const run = v.run;
  const g = v.story[v.at];
  const s = g && run?.steps[g.first];
  const where = s ? `step ${v.at + 1} of ${v.story.length} (line ${s.line}: ${s.text})` : "no steps";
  const model = v.ladder?.kind === "transactions" ? "transactions" : "idempotent producers";
  return `${run?.title || "eoslab scenario"} · ${where} · ${model}, Kafka ${run?.kafkaVersion ?? "4.3"} (eoslab)`;
}

export function fileBase(v) {
  return `${(v.el.getAttribute("scenario") || "ladder").replace(/[^A-Za-z0-9._-]/g, "_")}-step-${v.at + 1}`;
}

/** The view as a picture: "png" resolves to a Blob, "svg" is the SVG text (lib/export.js). */
export function exportPicture(v, kind) {
  const canvas = v.ui.canvas;
  const th = v.theme ?? {};
  const opts = { mono: th.mono, bg: th.bg, fg: th.fg };
  if (kind === "png") return pngWithCaption(canvas, v.el.caption, opts);
  // The whole drawing: every row up to this step (not only those scrolled into view).
  const height = v.ladder ? contentHeight(v) : 80;
  return svgOfDrawing((fake) => drawLadder(exportView(v, fake, height)), v.width, height, v.el.caption, { ...opts, hatch: th.bad });
}

/**
 * The view `v` as the drawing code sees it, drawing into `canvas` (a recording one) `height` CSS
 * px high, scrolled to the top, without presenter zoom: what it writes (stats, the frame, sizes,
 * the rows' text list) stays on this copy, so the element's own drawing is untouched.
 */
function exportView(v, canvas, height) {
  const r = v.revealed();
  const ui = { ...v.ui, canvas, viewport: { scrollLeft: 0, scrollTop: 0, clientWidth: v.width, style: {} }, spacer: { style: {} }, rowsList: document.createElement("ol") };
  return Object.create(v, {
    ui: { value: ui },
    maxHeight: { value: height },
    zoom: { value: () => 1 },
    el: { value: { hasAttribute: () => false, caption: v.el.caption, getAttribute: (n) => v.el.getAttribute(n) } },
    ctxStyle: { value: new CanvasStyle() },
    stats: { value: { draws: 0, lastDrawMs: 0, maxDrawMs: 0 }, writable: true },
    frame: { value: 0, writable: true },
    frameCtx: { value: null, writable: true },
    measuredFont: { value: v.measuredFont, writable: true },
    // The rows' text list is the element's; this drawing is not what it lists.
    srRange: { value: `${v.loadToken}:0:${r > 0 ? r - 1 : -1}:${r}`, writable: true },
    srTimer: { value: 0, writable: true },
  });
}

/** Opens batch `id` (b1 = 1) in a dialog: <kafka-batch> when available, else its fields and hex. */
export async function openBatch(v, id, rowIndex = -1) {
  const prefix = v.prefixRun(v.step) ?? v.run;
  if (!prefix) return;
  const batch = (prefix.batches ?? []).find((b) => b.id === id) ?? (v.run.batches ?? []).find((b) => b.id === id);
  if (!batch) return;
  let hex = batch.hex;
  let where = "as the producer sends it";
  const row = v.ladder?.rows[rowIndex];
  if (row?.type === ROW_EVENT && row.e.kind === "decision" && row.e.outcome === "append" && row.e.offsets) {
    const log = prefix.finalState?.[row.e.partition]?.log ?? [];
    const written = log.find(([base]) => base === row.e.offsets[0]);
    if (written) {
      hex = written[1];
      where = `as the leader wrote it at offset ${written[0]}`;
    }
  }
  let header = null;
  try {
    header = (await ready()).decode(hex).batches?.[0]?.header ?? null;
  } catch {
    header = null;
  }
  const rows = header
    ? [["producerId", header.producerId], ["producerEpoch", header.producerEpoch], ["baseSequence", header.baseSequence],
       ["lastSequence", header.lastSequence], ["baseOffset", header.baseOffset], ["recordsCount", header.recordsCount],
       ["crcValid", header.crcValid]]
    : [["producerId", batch.producerId], ["producerEpoch", batch.producerEpoch], ["baseSequence", batch.baseSequence], ["lastSequence", batch.lastSequence]];
  rows.push(["values", (batch.values ?? []).join(", ")], ["state", `${batch.state}${batch.error ? " (" + batch.error + ")" : ""}, ${batch.attempts} attempt(s)`]);
  const title = `b${id} · ${v.run.producers[batch.producer] ?? "?"} → ${v.run.partitions[batch.partition] ?? "?"} · ${where}`;
  await showBatchDialog(v.ui.dialog, { title, rows, hex, hexLabel: "batch bytes (hex)" });
}
