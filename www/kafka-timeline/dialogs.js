// <kafka-timeline>'s questions and dialogs: predict-then-reveal questions, the picture and script
// export (lib/export.js) and the record dialog. `v` is the element's view (element.js #view).
import { CanvasStyle, ready, showBatchDialog } from "../lib/element.js";
import { pngWithCaption, svgOfDrawing } from "../lib/export.js";
import { choicesFor } from "../lib/player.js";
import { CELL_W, TXN_ANSWERS, isMarker, range, recordLabel, recordStatus } from "../lib/timeline-model.js";
import { drawLanes } from "./draw.js";
import { TimelineOpenEvent } from "./events.js";
import { geometry } from "./layout.js";

/**
 * Predict, then reveal (lib/player.js): the question for story step k — the first answer a
 * producer gets at that step (from the coordinator or a partition leader) — or null when no
 * producer is answered. The choices are the model's possible answers: those of this run, then
 * the coordinator's usual ones.
 */
export function predictQuestion(v, k) {
  const g = v.story[k];
  const s = g && v.report?.steps[g.first];
  const answerOf = (m) => m.error ?? /\bresponse ([A-Z][A-Z_]+)\b/.exec(m.text)?.[1] ?? null;
  const toProducer = (m) => /^producer:/.test(m.to) && m.kind === "response" && answerOf(m);
  const m = (s?.messages ?? []).find(toProducer);
  if (!m) return invariantQuestion(v, g, s) ?? fetchQuestion(v, g, s);
  const seen = v.report.steps.flatMap((x) => x.messages ?? []).filter(toProducer).map(answerOf);
  const request = /^(\w+) response/.exec(m.text)?.[1] ?? "request";
  return {
    prompt: `${s.text}: what does ${v.laneLabel(m.from)} answer ${v.laneLabel(m.to)}'s ${request}?`,
    answer: answerOf(m),
    choices: choicesFor(answerOf(m), [...seen, ...TXN_ANSWERS]),
    rule: m.rule,
    sentence: m.text,
    source: m.source,
  };
}

/**
 * A consumer's Fetch at this step: which records does it receive? The choices are what the
 * model's own log answers to the same Fetch read three ways — read_committed with the aborted
 * list (what Kafka's consumer returns, rule R1), every record below the LSO (aborted ones kept:
 * a consumer that ignored the aborted list), every record below the HW (read_uncommitted) — and
 * nothing at all.
 */
export function fetchQuestion(v, g, s) {
  const r = v.report;
  const m = (s?.messages ?? []).find((x) => x.kind === "Fetch" && /^consumer:/.test(x.from) && /^partition:/.test(x.to));
  if (!m) return null;
  const part = m.to.slice("partition:".length);
  const from = Number(/\bfrom (\d+)/.exec(m.text)?.[1]);
  const p = (s.state?.partitions ?? []).find((x) => x.lane === m.to);
  if (!Number.isInteger(from) || !p) return null;
  const list = (vals) => (vals.length ? vals.join(", ") : "nothing");
  const got = (r.deliveries ?? []).filter((d) => d.consumer === m.from && d.partition === part && d.step === g.first).map((d) => d.value ?? "null");
  const below = (end) => r.records
    .filter((x) => x.partition === part && x.kind === "data" && x.step <= g.first && x.offset >= from && x.offset < end)
    .flatMap((x) => x.values.map((v) => v ?? "null"));
  const answer = list(got);
  const choices = [...new Set([answer, list(below(p.lso)), list(below(p.hw)), "nothing"])];
  if (choices.length < 2) return null;
  const c = (s.state?.consumers ?? []).find((x) => x.lane === m.from);
  const who = v.laneLabel(m.from);
  return {
    prompt: `${s.text}: which records does ${who}${c && !who.includes(c.isolation) ? ` (${c.isolation})` : ""} receive from ${part}, reading from offset ${from}?`,
    answer,
    choices: choices.sort(),
    rule: m.rule,
    sentence: `${m.text} (HW ${p.hw}, LSO ${p.lso}${(p.aborted ?? []).length ? `; aborted: ${p.aborted.map((a) => `${a.firstOffset}..${a.lastOffset}`).join(", ")}` : ""})`,
    source: m.source,
  };
}

/** A step after which an invariant changes (holds → broken, or back): does it still hold? */
export function invariantQuestion(v, g, s) {
  const before = g.first > 0 ? v.report.steps[g.first - 1]?.invariants ?? [] : [];
  const was = new Map(before.map((i) => [i.name, i.holds]));
  const inv = (s?.invariants ?? []).find((i) => was.has(i.name) && was.get(i.name) !== i.holds);
  if (!inv) return null;
  const say = (holds) => (holds ? "it still holds" : "it is broken");
  return {
    prompt: `${s.text}: does the invariant “${inv.name}” (${inv.detail}) hold after this step?`,
    answer: say(inv.holds),
    choices: [say(false), say(true)].sort(),
    rule: inv.name,
    sentence: inv.holds ? `${inv.name} holds again: ${inv.detail}` : `${inv.name} is broken: ${inv.detail}`,
    source: null, // an invariant of the model (named properties), not a rule of Kafka's code
  };
}

/** The caption of an exported picture: the scenario, the step and the Kafka line. */
export function captionOf(v) {
  const r = v.report;
  const g = v.story[v.at];
  const s = g && r?.steps[g.first];
  const where = s ? `step ${v.at + 1} of ${v.story.length} (line ${s.line}: ${s.text})` : "no steps";
  return `${r?.title || "eoslab scenario"} · ${where} · transactions, Kafka ${r?.kafkaVersion ?? "4.3"}, transaction.version ${r?.transactionVersion ?? "?"} (eoslab)`;
}

export function fileBase(v) {
  return `${(v.el.getAttribute("scenario") || "timeline").replace(/[^A-Za-z0-9._-]/g, "_")}-step-${v.at + 1}`;
}

/** The view as a picture: "png" resolves to a Blob, "svg" is the SVG text (lib/export.js). */
export function exportPicture(v, kind) {
  const canvas = v.ui.canvas;
  const th = v.theme ?? {};
  const opts = { mono: th.mono, bg: th.bg, fg: th.fg };
  if (kind === "png") return pngWithCaption(canvas, v.el.caption, opts);
  // The whole drawing: every offset of every log (not only the columns scrolled into view).
  const g = geometry(v, v.width);
  const width = v.tl ? Math.max(v.width, g.logX + (v.tl.maxOffset + 2) * CELL_W) : v.width;
  const height = v.tl ? v.tl.height : 80;
  return svgOfDrawing((fake) => drawLanes(exportView(v, fake, width)), width, height, v.el.caption, { ...opts, hatch: th.bad });
}

/**
 * The view `v` as the drawing code sees it, drawing into `canvas` (a recording one) at `width`
 * CSS px, scrolled to the start, without presenter zoom: what it writes (stats, the latency
 * plot's size, the hatch pattern) stays on this copy, so the element's own drawing is untouched.
 */
function exportView(v, canvas, width) {
  const ui = { ...v.ui, canvas, viewport: { scrollLeft: 0, scrollTop: 0, style: {} }, latency: { hidden: true } };
  return Object.create(v, {
    ui: { value: ui },
    width: { value: width },
    zoom: { value: () => 1 },
    el: { value: { hasAttribute: () => false, caption: v.el.caption, getAttribute: (n) => v.el.getAttribute(n) } },
    root: { value: { activeElement: null } },
    ctxStyle: { value: new CanvasStyle() },
    stats: { value: {}, writable: true },
    hatch: { value: undefined, writable: true },
    latencySize: { value: null, writable: true },
  });
}

/**
 * The scenario text that reproduces the view: the script run (at the transaction.version the
 * element forces, as a `feature` line would not: a comment says so) with the step as the
 * `# eoslab step=N` comment that the pages' "Open a scenario file" reads back.
 */
export function exportScript(v) {
  const tv = v.el.transactionVersion;
  const note = tv === null ? "" : `# eoslab: shown with transaction-version="${tv}" (the cluster line of the script may say otherwise)\n`;
  return `# eoslab step=${v.at}\n${note}${(v.sourceText ?? "").replace(/^# eoslab step=\d+\n/, "")}`;
}

/** Opens record `idx` (an index into report.records) in a dialog: <kafka-batch> when available. */
export async function openRecord(v, idx) {
  const rec = v.report?.records?.[idx];
  if (!rec) return;
  v.el.dispatchEvent(new TimelineOpenEvent({ record: idx, label: recordLabel(rec), hex: rec.hex }));
  const target = v.el.getAttribute("inspector");
  const external = target ? v.el.ownerDocument.getElementById(target) : null;
  if (external && external.localName === "kafka-batch") {
    // The page's own Batch Inspector shows it.
    external.setAttribute("hex", rec.hex);
    external.dataset.record = String(idx);
    external.scrollIntoView?.({ block: "nearest" });
    return;
  }
  let batch = null;
  try {
    batch = (await ready()).decode(rec.hex).batches?.[0] ?? null;
  } catch {
    batch = null;
  }
  const hd = batch?.header;
  const rows = hd
    ? [["baseOffset", hd.baseOffset], ["lastOffset", hd.lastOffset], ["producerId", hd.producerId], ["producerEpoch", hd.producerEpoch],
       ["baseSequence", hd.baseSequence], ["transactional", hd.attributes?.transactional], ["control", hd.attributes?.control],
       ["crcValid", hd.crcValid]]
    : [["offset", range(rec.offset, rec.lastOffset ?? rec.offset)], ["producerId", rec.pid], ["producerEpoch", rec.epoch], ["transactional", rec.transactional]];
  if (batch?.control) rows.push(["marker", `${batch.control.type} (coordinatorEpoch ${batch.control.coordinatorEpoch})`]);
  rows.push(["status", isMarker(rec) ? rec.kind : recordStatus(rec, v.step)]);
  if (!isMarker(rec) && rec.values?.length) rows.push(["values", rec.values.map((v) => v ?? "null").join(", ")]);
  const title = `${recordLabel(rec)} · written at step ${v.storyNo(rec.step)}`;
  await showBatchDialog(v.ui.dialog, { title, rows, hex: rec.hex, hexLabel: "record batch bytes (hex)" });
}
