// <kafka-timeline>'s model side: from a transactions run report (runTxnScenario) to the lanes,
// records and indexes the element draws (buildTimeline), the lanes' geometry, the record labels and
// statuses, the completions' steps, the cluster costs and the plot's ticks. No DOM.
import { ellipsize } from "./fit-text.js";

// Geometry

/**
 * Presenter mode shows the lanes at this CSS zoom: lane labels (bold 12 px) at 24 px, the messages
 * and decisions on the wire (10.5–11 px) at 21–22 px (≥ 20 px at 1280×720).
 */
export const PRESENTER_ZOOM = 2;
/** Answers a transactional producer commonly gets (Kafka's error names), for predict's choices. */
export const TXN_ANSWERS = ["NONE", "CONCURRENT_TRANSACTIONS", "INVALID_PRODUCER_EPOCH", "PRODUCER_FENCED", "INVALID_TXN_STATE"];
export const RULER_H = 22; // offsets ruler at the top of the log area
export const CELL_W = 56; // one offset
export const SUBROW_H = 24; // a consumer's row per partition
export const LOG_ROW_H = 34; // each further log partition of a coordinator or offsets lane
export const ROW_LABEL_H = 11; // the partition's name above each row, when a lane has several

/** Top and height of the cells of row `ri` of a record lane. */
export function cellBox(l, ri) {
  if (l.kind === "partition") return { top: l.y + 16, ch: 26 };
  const label = l.rows.length > 1 ? ROW_LABEL_H : 0;
  return { top: l.y + 8 + label + ri * (LOG_ROW_H + label), ch: LOG_ROW_H - 10 };
}
// A coordinator has room for a state line that wraps ("PrepareAbort→" / "CompleteAbort +1").
export const LANE_H = { producer: 46, coordinator: 62, partition: 64, offsets: 50, consumer: 0, external: 40 };
export const RECORD_LANES = new Set(["coordinator", "partition", "offsets"]);
export const MAX_BUTTONS = 12; // "written at this step" buttons in the narration
export const LONG_LATENCY_TABLE = 200; // completions from which the latency table has fixed column widths
// The latency table lists at most this many completions (the latest ones); the plot shows them
// all. A longer table is not read row by row, and laying it out on every step costs frames.
export const MAX_LATENCY_ROWS = 200;

/** __transaction_state values on two lines of a cell. */
export const TXN_LINES = {
  PrepareCommit: ["Prepare", "Commit"], PrepareAbort: ["Prepare", "Abort"], CompleteCommit: ["Complete", "Commit"],
  CompleteAbort: ["Complete", "Abort"], PrepareEpochFence: ["Prepare", "Fence"], Ongoing: ["Ongoing"], Empty: ["Empty"], Dead: ["Dead"],
};

export { ellipsize };
export const range = (a, b) => (a === b ? String(a) : `${a}..${b}`);

/** A data record's status at step i (the core's rule, see the header comment). */
export function recordStatus(rec, i) {
  // Gone from the log: a leader election truncated it (S6).
  if (rec.truncatedAt !== null && rec.truncatedAt !== undefined && rec.truncatedAt <= i) return "truncated";
  if (rec.closedAt !== null && rec.closedAt !== undefined && rec.closedAt <= i) return rec.outcome ?? "plain";
  return rec.transactional ? "open" : "plain";
}

export const isMarker = (rec) => rec.kind === "commit" || rec.kind === "abort";

/** "COMMIT marker · orders-0 @2" */
export function recordLabel(rec) {
  const where = `${rec.partition} @${range(rec.offset, rec.lastOffset ?? rec.offset)}`;
  if (isMarker(rec)) return `${rec.kind.toUpperCase()} marker · ${where}`;
  if (rec.kind === "txn-log") return `__transaction_state record ${rec.text || (rec.values ?? []).join(", ")} · ${where}`;
  if (rec.kind === "offset-commit") return `offset commit ${rec.text} · ${where}`;
  return `${rec.transactional ? "transactional" : "plain"} batch ${rec.text || (rec.values ?? []).map((v) => v ?? "null").join(", ")} · ${where}`;
}

/**
 * A lane label shortened to `cols` characters the way a reader would: the internal topics' long
 * prefixes first (__transaction_state-3 → txn-state-3, __consumer_offsets-32 → offsets-32), then
 * the words in parentheses (the partitions a coordinator owns, a group), cut after a whole item,
 * and only then the end of the name. The full label is the lane's tooltip.
 */
export function abbreviateLabel(label, cols) {
  let text = String(label);
  if (text.length <= cols) return text;
  text = text.replace(/__transaction_state-/g, "txn-state-").replace(/__consumer_offsets-/g, "offsets-");
  if (text.length <= cols) return text;
  const m = /^(.*?) \((.*)\)$/.exec(text);
  if (m) {
    const [, name, inner] = m;
    if (inner === name) return name.length <= cols ? name : ellipsize(name, cols); // "upstream (upstream)": its name once
    const items = inner.split(/,\s*/);
    for (let n = items.length - 1; n >= 1; n--) {
      const t = `${name} (${items.slice(0, n).join(", ")}, …)`;
      if (t.length <= cols) return t;
    }
    if (`${name} (…)`.length <= cols) return `${name} (…)`;
    text = name;
  }
  return ellipsize(text, cols);
}

export function cellText(rec) {
  if (isMarker(rec)) return rec.kind.toUpperCase();
  if (rec.kind === "txn-log") return rec.values?.[0] ?? rec.text ?? "";
  if (rec.values?.length) return rec.values.map((v) => (v === null ? "∅" : v)).join(",");
  return rec.text ?? "";
}

export function lowerBound(arr, key, get) {
  let lo = 0;
  let hi = arr.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (get(arr[mid]) < key) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

// ---------------------------------------------------------------------------------------------
// From a report to lanes and indexes (once per run)

/**
 * Indexes a TxnRunReport for drawing: lanes with their heights and, per record lane, the records
 * sorted by offset; per consumer, its partitions (over the whole run) and deliveries by offset;
 * the effects; the abort ranges; the records written by each step.
 */
export function buildTimeline(report) {
  const records = report.records ?? [];
  const steps = report.steps ?? [];
  const lanes = (report.lanes ?? []).map((l) => ({ ...l, y: 0, h: 0, records: null, parts: null, deliveries: null }));
  const byId = new Map(lanes.map((l) => [l.id, l]));
  for (const l of lanes) if (RECORD_LANES.has(l.kind)) l.records = [];
  records.forEach((r, idx) => {
    const lane = byId.get(r.lane);
    if (lane?.records) lane.records.push(idx);
  });
  let maxOffset = 0;
  for (const l of lanes) {
    if (!l.records) continue;
    // One row per log partition of the lane (a coordinator may own several __transaction_state
    // partitions, the offsets lane several __consumer_offsets partitions), by first appearance.
    const rowOf = new Map();
    l.rows = [];
    for (const idx of l.records) {
      const part = records[idx].partition;
      if (!rowOf.has(part)) {
        rowOf.set(part, l.rows.length);
        l.rows.push({ partition: part, records: [] });
      }
      l.rows[rowOf.get(part)].records.push(idx);
    }
    if (!l.rows.length) l.rows.push({ partition: l.label, records: [] });
    const byOffset = (a, b) => records[a].offset - records[b].offset || records[a].step - records[b].step;
    for (const row of l.rows) row.records.sort(byOffset);
    l.records = l.rows.flatMap((row) => row.records);
    for (const idx of l.records) maxOffset = Math.max(maxOffset, (records[idx].lastOffset ?? records[idx].offset) + 1);
  }
  // Consumers: one row per partition they ever read.
  for (const l of lanes) {
    if (l.kind !== "consumer") continue;
    const parts = [];
    const seen = new Set();
    const add = (p) => {
      if (p !== undefined && p !== null && !seen.has(p)) {
        seen.add(p);
        parts.push(p);
      }
    };
    for (const s of steps) for (const c of s.state?.consumers ?? []) if (c.lane === l.id) for (const pos of c.positions ?? []) add(pos.partition);
    l.deliveries = new Map();
    for (const d of report.deliveries ?? []) {
      if (d.consumer !== l.id) continue;
      add(d.partition);
      if (!l.deliveries.has(d.partition)) l.deliveries.set(d.partition, []);
      l.deliveries.get(d.partition).push(d);
      maxOffset = Math.max(maxOffset, d.offset + 1);
    }
    for (const list of l.deliveries.values()) list.sort((a, b) => a.offset - b.offset || a.step - b.step);
    l.parts = parts;
  }
  const effects = [...(report.effects ?? [])].sort((a, b) => a.step - b.step);
  maxOffset = Math.max(maxOffset, effects.length);
  let y = RULER_H;
  for (const l of lanes) {
    if (l.kind === "consumer") l.h = Math.max(1, l.parts.length) * SUBROW_H + 22;
    else if (l.rows) l.h = (LANE_H[l.kind] ?? 50) + (l.rows.length - 1) * LOG_ROW_H + (l.rows.length > 1 ? l.rows.length * ROW_LABEL_H : 0);
    else l.h = LANE_H[l.kind] ?? 40;
    l.y = y;
    y += l.h;
  }
  // An abort marker hatches the range from the first record it closed to itself.
  const abortFrom = new Map();
  for (const l of lanes) {
    if (!l.records) continue;
    for (const idx of l.records) {
      const m = records[idx];
      if (m.kind !== "abort") continue;
      let from = m.offset;
      for (const j of l.records) {
        const r = records[j];
        if (r.closedAt === m.step && r.outcome === "aborted" && !isMarker(r) && r.pid === m.pid && r.offset < from) from = r.offset;
      }
      abortFrom.set(idx, from);
    }
  }
  const writtenAt = Array.from({ length: steps.length }, () => []);
  records.forEach((r, idx) => {
    if (r.step >= 0 && r.step < steps.length) writtenAt[r.step].push(idx);
  });
  const partitionLane = new Map();
  for (const l of lanes) if (l.kind === "partition") partitionLane.set(l.label, l);
  for (const r of records) {
    const l = byId.get(r.lane);
    if (l?.kind === "partition" && !partitionLane.has(r.partition)) partitionLane.set(r.partition, l);
  }
  // Each delivery → the record it came from (its status tells an aborted read from a committed one).
  for (const l of lanes) {
    if (l.kind !== "consumer") continue;
    for (const [part, list] of l.deliveries) {
      const rows = partitionLane.get(part)?.rows ?? [];
      const row = rows.find((r) => r.partition === part) ?? rows[0];
      for (const d of list) {
        d.record = -1;
        if (!row) continue;
        const at = lowerBound(row.records, d.offset + 1, (i) => records[i].offset) - 1;
        for (let j = at; j >= 0 && j > at - 4; j--) {
          const r = records[row.records[j]];
          if (d.offset >= r.offset && d.offset <= (r.lastOffset ?? r.offset)) {
            d.record = row.records[j];
            break;
          }
        }
      }
    }
  }
  const done = completionSteps(report);
  const completionsInOrder = !!done && done.every((s, i) => i === 0 || done[i - 1] <= s);
  return { lanes, byId, height: y + 6, maxOffset, effects, abortFrom, writtenAt, partitionLane, records, completionSteps: done, completionsInOrder };
}

/**
 * The step at which each entry of report.completions ({partitions, ms}: one per transaction that
 * went from EndTxn to Complete*) happened, or null when that cannot be told. An entry's own `step`
 * wins when the core provides one; otherwise it is derived from the messages: a completion is the
 * coordinator's K5 append ("CompleteCommit for ID: every marker is written (K5)") of a
 * transactional id that sent EndTxn since its previous K5 — the core counts no completion for an
 * abort it started itself (transaction.timeout.ms, fencing). When the derivation does not account
 * for every completion, null: the element then shows all of them at every step.
 */
export function completionSteps(report) {
  const completions = report?.completions ?? [];
  if (completions.every((c) => Number.isInteger(c.step))) return completions.map((c) => c.step);
  const out = [];
  const ended = new Set();
  (report.steps ?? []).forEach((s, i) => {
    for (const m of s.messages ?? []) {
      const text = String(m.text ?? "");
      if (m.kind === "EndTxn") {
        const id = /^EndTxn(?: v\d+)?\((.*?), producer /.exec(text)?.[1];
        if (id !== undefined) ended.add(id);
        continue;
      }
      const done = /: Complete(?:Commit|Abort) for (.*): every marker is written \(K5\)$/.exec(text);
      if (done && ended.delete(done[1])) out.push(i);
    }
  });
  return out.length === completions.length ? out : null;
}

/** The core's defaults for the modelled costs (crate/core/src/model/txn_scenario/parse.rs). */
export const DEFAULT_COSTS = Object.freeze({ rtt: "1ms", append: "2ms", brokers: "3" });

/** The costs the script's `cluster` lines set (rtt=, append=, brokers=), over the core's defaults. */
export function clusterCosts(script) {
  const costs = { ...DEFAULT_COSTS };
  for (const raw of String(script ?? "").split("\n")) {
    const words = raw.split("#")[0].trim().split(/\s+/);
    if (words[0] !== "cluster") continue;
    for (const kv of words.slice(1)) {
      const at = kv.indexOf("=");
      const key = kv.slice(0, at);
      if (at > 0 && Object.hasOwn(costs, key) && kv.length > at + 1) costs[key] = kv.slice(at + 1);
    }
  }
  return costs;
}

/** 0, step, 2·step … ≥ max, with step 1, 2 or 5 × 10^n (integers: partitions and model ms are). */
export function niceTicks(max, count = 5) {
  if (!(max > 0)) return [0, 1];
  const raw = max / count;
  const mag = 10 ** Math.floor(Math.log10(raw));
  const norm = raw / mag;
  const step = Math.max(1, (norm <= 1 ? 1 : norm <= 2 ? 2 : norm <= 5 ? 5 : 10) * mag);
  const ticks = [0];
  while (ticks[ticks.length - 1] < max) ticks.push(ticks[ticks.length - 1] + step);
  return ticks;
}
