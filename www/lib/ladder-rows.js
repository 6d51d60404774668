// <kafka-ladder>'s rows, from the one report <kafka-timeline> also draws (runTxnScenario): an
// idempotence script's run (`model: "idempotence"`: its steps' `events` and `changes`, its
// `batches`) to the ladder's per-batch rows and arrows (buildLadder), a transactions run to the
// same rows as a sequence diagram of its requests and answers (buildMessageLadder), their
// geometry constants and labels, and the state after any step. No DOM: the element
// (../kafka-ladder.js) draws what this builds.
import { storySteps } from "./player.js";

export { ellipsize, wrapText } from "./fit-text.js";

// Geometry and labels

export const HEADER_H = 38; // lane names, pinned at the top of the canvas
export const STEP_H = 24;
export const EVENT_H = 20;
export const LINE_H = 15; // a wrapped line of a decision's sentence
export const GUTTER_W = 58; // time column
export const TAG_COLS = 9; // "decision " column in the text area
export const MIN_TEXT_W = 220; // the narrowest text column before the ladder scrolls sideways
export const FONT_PX = 12;
/** The leader's answers to an idempotent Produce (the model's outcomes: append, duplicate, the refusals). */
export const LEADER_ANSWERS = ["APPEND (NONE)", "DUPLICATE (NONE, the original offsets)", "OUT_OF_ORDER_SEQUENCE_NUMBER", "INVALID_PRODUCER_EPOCH"];
/** Presenter mode shows the ladder at this CSS zoom: its 12 px lane names and decisions at 21 px; smaller type is raised to 20 px on screen (CanvasStyle.minFont). */
export const PRESENTER_ZOOM = 1.75;
export const BUCKET = 64; // rows per arrow bucket
export const ROW_STEP = 0;
export const ROW_EVENT = 1;

export const KIND_LABEL = {
  send: "send",
  request: "request",
  decision: "decision",
  ack: "ack",
  retry: "retry",
  fail: "fail",
  lost: "lost",
  delayed: "delayed",
  timeout: "timeout",
  restart: "restart",
  "epoch-bump": "epoch",
  time: "time",
  task: "task",
  expired: "expired",
  "leader-change": "leader",
  // Requests written with chosen fields (produce / marker lines) and the leader's answers.
  "produce-request": "produce",
  "produce-decision": "decision",
  "marker-request": "marker",
  "marker-decision": "decision",
  // Replication (S1–S6): followers, the ISR, elections; acks=-1 answers held for the HW.
  replication: "replicas",
  held: "held",
  released: "answer",
  // Reads asked directly (fetch / list-offsets lines).
  fetch: "fetch",
  "list-offsets": "offsets",
  // Requests for the coordinators (init-producer-id, end-txn …) and the markers they write.
  cluster: "cluster",
};

/** Theme colour key of an event row's tag. */
export function kindColor(e) {
  switch (e.kind) {
    case "decision":
    case "produce-decision":
    case "marker-decision":
      return e.outcome === "append" ? "ok" : e.outcome === "duplicate" ? "dup" : "bad";
    case "send":
      return "accent";
    case "ack":
      return "ok";
    case "fail":
    case "lost":
      return "bad";
    case "retry":
    case "delayed":
    case "timeout":
    case "held":
      return "warn";
    case "released":
      return /REQUEST_TIMED_OUT|NOT_LEADER/.test(e.text ?? "") ? "bad" : "ok";
    case "replication":
      return /unclean|truncated/.test(e.text ?? "") ? "bad" : "muted";
    case "fetch":
    case "list-offsets":
      return /OFFSET_OUT_OF_RANGE/.test(e.text ?? "") ? "bad" : "accent";
    case "restart":
    case "epoch-bump":
      return "dup";
    case "time":
    case "task":
    case "expired":
    case "leader-change":
      return "muted";
    case "message":
      // A transactions run's request or answer: refused or lost in red, an answer with its rule in green.
      return e.lost || e.outcome === "reject" ? "bad" : e.outcome === "ok" ? "ok" : "fg";
    default:
      return "fg";
  }
}

/** "2 h 30 s" from milliseconds since the scenario's start (at most two units). */
export function formatDuration(ms) {
  if (!Number.isFinite(ms) || ms <= 0) return "0";
  const units = [
    ["d", 86_400_000],
    ["h", 3_600_000],
    ["min", 60_000],
    ["s", 1_000],
    ["ms", 1],
  ];
  const parts = [];
  let rest = ms;
  for (const [name, size] of units) {
    const n = Math.floor(rest / size);
    rest -= n * size;
    if (n > 0) parts.push(`${n} ${name}`);
    if (parts.length === 2) break;
  }
  return parts.join(" ");
}

/** "7" or "7..9". */
export const range = (a, b) => (a === b ? String(a) : `${a}..${b}`);

/** Which attempt of its batch an event is about (the events carry it in their text). */
export function attemptOf(e) {
  if (Number.isInteger(e.attempt)) return e.attempt;
  const m = /\battempt (\d+)/.exec(e.text);
  return m ? Number(m[1]) : 1;
}

/** "request" or "response" for lost/delayed events. */
export function messageOf(e) {
  if (e.message === "request" || e.message === "response") return e.message;
  const m = /\b(request|response)\b/.exec(e.text);
  return m ? m[1] : "request";
}

/** Splits a decision's text into its headline (up to the rule) and the sentence after it. */
export function splitDecision(e) {
  const mark = e.rule ? `[${e.rule}]` : null;
  const at = mark ? e.text.indexOf(mark) : -1;
  if (at < 0) return { headline: e.text, sentence: "" };
  return { headline: e.text.slice(0, at + mark.length), sentence: e.text.slice(at + mark.length).trim() };
}

/**
 * The numbering of a run's script lines as the step counter counts them (lib/player.js story
 * steps): for report step i, {n, check} where n is the 1-based story step it belongs to and check
 * is true for an `expect` line (a check of step n, not a step of its own).
 */
export function storyNumbers(steps) {
  const out = new Array(steps?.length ?? 0);
  storySteps(steps).forEach((g, k) => {
    out[g.first] = { n: k + 1, check: false };
    for (const c of g.checks) if (c !== g.first) out[c] = { n: k + 1, check: true };
  });
  for (let i = 0; i < out.length; i++) out[i] ??= { n: i + 1, check: false };
  return out;
}

/** The text a screen reader (and the tooltip) gets for one row. */
export function rowText(run, row) {
  if (row.type === ROW_STEP) {
    const s = row.s;
    const fail = s.ok ? "" : " (expectation failed)";
    const no = row.story ?? { n: row.step + 1, check: false };
    return `${no.check ? `Check of step ${no.n}` : `Step ${no.n}`}, line ${s.line}: ${s.text}${fail}`;
  }
  const e = row.e;
  if (e.kind === "message") {
    // A transactions run's message: who sends it to whom, its API, and the rule of an answer.
    let text = `${e.tag}: ${e.fromName} → ${e.toName}: ${e.api}: ${e.text}`;
    if (e.lost) text += " (lost)";
    if (e.rule) text += ` (rule ${e.rule}, ${e.errorName} ${e.errorCode}${e.source ? `, source ${e.source}` : ""})`;
    return text;
  }
  let text = `${KIND_LABEL[e.kind] ?? e.kind}: ${e.text}`;
  if (e.kind === "decision") {
    text += ` (rule ${e.rule ?? "none"}, ${e.errorName ?? "?"} ${e.errorCode ?? ""}`.trimEnd();
    text += e.source ? `, source ${e.source})` : ")";
  }
  return text;
}

// ---------------------------------------------------------------------------------------------
// From a run to rows and arrows

/**
 * Lays out a run: one row per step and per event, and the arrows (requests and responses)
 * between rows. `stepEnd[k]` is the number of rows that show the first k steps.
 */
export function buildLadder(run) {
  const producers = run.producers ?? [];
  const partitions = run.partitions ?? [];
  const P = producers.length;
  const laneOfProducer = (p) => (Number.isInteger(p) ? p : -1);
  const laneOfPartition = (q) => (Number.isInteger(q) ? P + q : -1);
  const rows = [];
  const arrows = [];
  const steps = run.steps ?? [];
  const stepEnd = new Int32Array(steps.length + 1);
  const numbers = storyNumbers(steps); // the row labels count as the step counter does
  const open = new Set(); // arrows still travelling
  let lastT = -1;

  const close = (arrow, r, fate) => {
    arrow.to = r;
    arrow.fate = fate;
    open.delete(arrow);
  };
  const findOpen = (pred) => {
    for (const a of open) if (pred(a)) return a;
    return null;
  };

  for (let i = 0; i < steps.length; i++) {
    const s = steps[i];
    rows.push({ type: ROW_STEP, step: i, story: numbers[i], s, h: STEP_H, timeLabel: null });
    for (const e of s.events ?? []) {
      const r = rows.length;
      const row = { type: ROW_EVENT, step: i, e, h: EVENT_H, timeLabel: null, lines: null, headline: null, sentence: null };
      if (e.t !== lastT) {
        row.timeLabel = e.t === 0 ? "0" : "+" + formatDuration(e.t);
        lastT = e.t;
      }
      const pl = laneOfProducer(e.producer);
      const ql = laneOfPartition(e.partition);
      switch (e.kind) {
        case "request": {
          const m = /seq (-?\d+)\.\.(-?\d+)/.exec(e.text);
          const ep = /epoch (\d+)/.exec(e.text);
          const arrow = {
            kind: "request", from: r, to: -1, fate: "pending", fromLane: pl, toLane: ql,
            producer: e.producer, partition: e.partition, batch: e.batch, attempt: attemptOf(e),
            delayed: false, orphan: false, outcome: null,
            label: `b${e.batch}` + (m ? ` seq ${m[1]}..${m[2]}` : "") + (ep ? ` e${ep[1]}` : ""),
            shortLabel: `b${e.batch}`,
          };
          arrows.push(arrow);
          open.add(arrow);
          break;
        }
        case "delayed": {
          const a = attemptOf(e);
          const req = findOpen((x) => x.kind === "request" && x.batch === e.batch && x.attempt === a)
            ?? findOpen((x) => x.kind === "request" && x.batch === e.batch);
          if (req) {
            req.delayed = true;
            row.arrow = req;
          }
          break;
        }
        case "decision": {
          const { headline, sentence } = splitDecision(e);
          row.headline = headline;
          row.sentence = sentence;
          const a = attemptOf(e);
          const req = findOpen((x) => x.kind === "request" && x.batch === e.batch && x.attempt === a)
            ?? findOpen((x) => x.kind === "request" && x.batch === e.batch);
          let orphan = false;
          if (req) {
            close(req, r, "delivered");
            req.outcome = e.outcome;
            orphan = req.orphan;
          }
          const resp = {
            kind: "response", from: r, to: -1, fate: "pending", fromLane: ql, toLane: pl,
            producer: e.producer, partition: e.partition, batch: e.batch, attempt: a,
            delayed: false, orphan, outcome: e.outcome, label: "", shortLabel: "",
          };
          arrows.push(resp);
          if (orphan) {
            // Its connection was closed while the request was held up: nobody reads the answer.
            resp.to = r;
            resp.fate = "dropped";
          } else {
            open.add(resp);
          }
          break;
        }
        case "lost": {
          const what = messageOf(e);
          const a = attemptOf(e);
          const msg = findOpen((x) => x.kind === what && x.batch === e.batch && x.attempt === a)
            ?? findOpen((x) => x.kind === what && x.batch === e.batch);
          if (msg) close(msg, r, "lost");
          if (/other message|lost with it/.test(e.text)) {
            // The connection broke: everything else on it is gone too (held-up requests excepted).
            for (const x of [...open]) {
              if (x.producer === e.producer && x.partition === e.partition && !x.delayed) close(x, r, "lost");
              else if (x.producer === e.producer && x.partition === e.partition) x.orphan = true;
            }
          }
          break;
        }
        case "timeout":
        case "restart": {
          // The producer closes its connections: what is on them is never read.
          for (const x of [...open]) {
            if (x.producer !== e.producer) continue;
            if (x.kind === "request" && x.delayed) x.orphan = true;
            else close(x, r, "cut");
          }
          break;
        }
        case "ack":
        case "retry":
        case "fail":
        case "epoch-bump": {
          if (e.batch !== null && e.batch !== undefined) {
            const resp = findOpen((x) => x.kind === "response" && x.batch === e.batch && !x.orphan);
            if (resp) close(resp, r, "delivered");
          }
          break;
        }
        default:
          break;
      }
      rows.push(row);
    }
    stepEnd[i + 1] = rows.length;
  }

  return {
    rows, arrows, buckets: arrowBuckets(rows, arrows), stepEnd, lanes: P + partitions.length, producers, partitions,
    laneNames: [...producers, ...partitions].map(String),
    laneRoles: [...producers.map(() => "producer"), ...partitions.map(() => "leader")],
  };
}

/** Buckets of BUCKET rows → the arrows crossing them, so a frame only looks at nearby arrows. */
function arrowBuckets(rows, arrows) {
  const nb = Math.max(1, Math.ceil(rows.length / BUCKET));
  const buckets = Array.from({ length: nb }, () => []);
  arrows.forEach((a, id) => {
    const end = a.to >= 0 ? a.to : rows.length - 1;
    for (let b = Math.floor(a.from / BUCKET); b <= Math.floor(end / BUCKET) && b < nb; b++) buckets[b].push(id);
  });
  return buckets;
}

// ---------------------------------------------------------------------------------------------
// A transactions run as a ladder

// Which language a script is in: lib/script-kind.js (re-exported for the elements and tests).
export { TRANSACTIONS_WORDS, isTransactionsScript } from "./script-kind.js";

/** A lane's role under its name in the header, by the report's lane kind. */
const LANE_ROLE = { producer: "producer", coordinator: "coordinator", partition: "leader", offsets: "offsets", consumer: "consumer", external: "outside" };

/** A lane's short name: its id after the kind ("producer:app" → "app"), or the coordinator's and offsets' own. */
function laneName(lane) {
  if (lane.kind === "offsets") return "__consumer_offsets";
  const at = lane.id.indexOf(":");
  return at < 0 ? lane.id : lane.id.slice(at + 1);
}

/** The tag column of a message row. */
function messageTag(m) {
  if (m.error) return "refused";
  switch (m.kind) {
    case "response":
      return "answer";
    case "append":
      return "write";
    case "Produce":
      return "produce";
    case "Fetch":
      return "fetch";
    case "WriteTxnMarkers":
      return "marker";
    default:
      return /response/i.test(m.kind) ? "answer" : "request";
  }
}

/**
 * Lays out a transactions run (runTxnScenario's report, the one <kafka-timeline> draws) as a
 * ladder: a lane per producer, the coordinator and each partition leader (and the consumers, the
 * offsets topic and the outside system when a message reaches them); a row per step and per
 * message, each message an arrow from its sender's lane to its receiver's, an answer carrying the
 * rule that decided it. Same shape as buildLadder's, plus `kind: "transactions"`.
 */
export function buildMessageLadder(report) {
  const used = new Set();
  for (const s of report.steps ?? []) for (const m of s.messages ?? []) used.add(m.from).add(m.to);
  const always = new Set(["producer", "coordinator", "partition"]);
  const lanes = (report.lanes ?? []).filter((l) => always.has(l.kind) || used.has(l.id));
  const index = new Map(lanes.map((l, i) => [l.id, i]));
  const laneNames = lanes.map(laneName);
  const rows = [];
  const arrows = [];
  const steps = report.steps ?? [];
  const stepEnd = new Int32Array(steps.length + 1);
  const numbers = storyNumbers(steps); // the row labels count as the step counter does
  let lastT = -1;
  for (let i = 0; i < steps.length; i++) {
    const s = steps[i];
    rows.push({ type: ROW_STEP, step: i, story: numbers[i], s, h: STEP_H, timeLabel: null });
    for (const m of s.messages ?? []) {
      const r = rows.length;
      const fromLane = index.get(m.from) ?? -1;
      const toLane = index.get(m.to) ?? -1;
      const answer = Boolean(m.rule);
      const e = {
        kind: "message", api: m.kind, tag: messageTag(m), t: s.t, text: m.text, lost: m.lost, record: m.record ?? null,
        from: m.from, to: m.to, fromName: laneNames[fromLane] ?? m.from, toName: laneNames[toLane] ?? m.to, fromLane, toLane,
        rule: m.rule ?? null, source: m.source ?? null,
        errorName: answer ? m.error ?? "NONE" : m.error ?? null, errorCode: answer ? m.code ?? 0 : m.code ?? null,
        outcome: answer || m.error ? (m.error ? "reject" : "ok") : null,
      };
      const row = { type: ROW_EVENT, step: i, e, h: EVENT_H, timeLabel: null, lines: null, headline: null, sentence: null };
      if (s.t !== lastT) {
        row.timeLabel = s.t === 0 ? "0" : "+" + formatDuration(s.t);
        lastT = s.t;
      }
      if (fromLane >= 0 && toLane >= 0 && fromLane !== toLane) {
        // A message travels within its row: the model answers each request in the step that sends it.
        arrows.push({
          kind: answer ? "response" : "request", from: r, to: r, fate: m.lost ? "lost" : "delivered", fromLane, toLane,
          producer: null, partition: null, batch: null, attempt: 1, delayed: false, orphan: false,
          outcome: answer ? (m.error ? "reject" : "append") : null, label: answer ? "" : m.kind, shortLabel: "",
        });
      }
      rows.push(row);
    }
    stepEnd[i + 1] = rows.length;
  }
  return {
    kind: "transactions", rows, arrows, buckets: arrowBuckets(rows, arrows), stepEnd, lanes: lanes.length,
    producers: [], partitions: [], laneNames, laneRoles: lanes.map((l) => LANE_ROLE[l.kind] ?? l.kind), laneIds: lanes.map((l) => l.id),
  };
}

/**
 * The state after the first k steps of a transactions run, in the shape the ladder's panels read:
 * each partition leader as `finalState` (log end, HW, LSO, producer entries with their retained
 * batches), the clients and the coordinator's transactions as `txn`, and the next steps (after
 * the last step only: the report has them there).
 */
export function txnStateAfter(report, k) {
  const steps = report?.steps ?? [];
  k = Math.max(0, Math.min(k | 0, steps.length));
  const state = k > 0 ? steps[k - 1].state : null;
  const partitions = state?.partitions ?? [];
  return {
    finalState: partitions.map((p) => ({
      name: p.name, logEndOffset: p.logEnd, highWatermark: p.hw, lastStableOffset: p.lso, isr: p.replication?.isr ?? null,
      producers: p.producers ?? [], aborted: p.aborted ?? [],
    })),
    batches: [],
    producers: [],
    txn: { producers: state?.producers ?? [], coordinator: state?.coordinator ?? null },
    nextSteps: k === steps.length ? report.nextSteps ?? [] : [],
  };
}

// ---------------------------------------------------------------------------------------------
// Script prefixes

// parseSource lives with the other script helpers (./player.js); kept importable from here.
export { parseSource } from "./player.js";

/**
 * The state after the first k steps of an idempotence script's run, in the shape the panels read
 * (`finalState`, `batches`, `nextSteps`, `producers`): the run's `initialState` with each step's
 * `changes` applied in order (after the last step: the run itself, whose step carries none). The
 * stored bytes of the log come from the whole run (a batch's bytes at an offset never change once
 * written). Null for a run without them. Also reads runScenario(…, {states: true})'s report, whose
 * steps call the changes `state`.
 */
export function stateAfter(run, k) {
  const steps = run?.steps ?? [];
  k = Math.max(0, Math.min(k | 0, steps.length));
  if (k === steps.length) return run;
  const init = run.initialState;
  if (!init) return null;
  const leaders = [...init.leaders];
  const batches = new Map();
  let next = init.nextSteps;
  for (let i = 0; i < k; i++) {
    const s = "messages" in steps[i] ? steps[i].changes : steps[i].state;
    if (!s) return null;
    for (const l of s.leaders) leaders[l.partition] = l;
    for (const b of s.batches) batches.set(b.id, b);
    next = s.nextSteps;
  }
  return {
    producers: run.producers,
    finalState: leaders.map((l, q) => ({
      name: run.partitions?.[q] ?? run.finalState?.[q]?.name ?? "",
      logEndOffset: l.logEndOffset,
      highWatermark: l.highWatermark,
      isr: l.isr,
      producers: l.producers,
      log: run.finalState?.[q]?.log ?? [],
    })),
    batches: [...batches.values()].sort((a, b) => a.id - b.id),
    nextSteps: next,
  };
}

/** The script of the first k steps (the set-up lines and every line up to step k's). */
export function prefixSource(source, run, k) {
  const steps = run.steps ?? [];
  if (k >= steps.length) return source.value;
  if (source.kind === "json") return { ...source.value, steps: (source.value.steps ?? []).slice(0, k) };
  const lines = source.text.split(/\r?\n/);
  const upto = k === 0 ? (steps.length ? steps[0].line - 1 : lines.length) : steps[k - 1].line;
  return lines.slice(0, Math.max(0, upto)).join("\n") + "\n";
}

