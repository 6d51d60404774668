// <kafka-timeline>'s DOM panels: the title, the narration of the step, the selected record, every
// lane's state, the invariants, the next-step buttons, the commit-latency table and the summary;
// and the compare marks on them (facts). `v` is the element's view (element.js #view).
import { el as h } from "../lib/dom.js";
import { nextStepButton } from "../lib/element.js";
import { checksList, storyChecks } from "../lib/player.js";
import {
  LONG_LATENCY_TABLE, MAX_BUTTONS, MAX_LATENCY_ROWS, clusterCosts, isMarker, lowerBound, recordLabel,
  recordStatus,
} from "../lib/timeline-model.js";

/** A fact's text as shown, without the screen-reader notes added to it. */
export function factText(node) {
  let out = "";
  const walk = (n) => {
    for (const c of n.childNodes) {
      if (c.nodeType === Node.TEXT_NODE) out += c.data;
      else if (c.nodeType === Node.ELEMENT_NODE && !c.classList.contains("differs-note")) walk(c);
    }
  };
  walk(node);
  return out.replace(/\s+/g, " ").trim();
}

/** [key, node] of every fact shown (sets data-fact on each node). */
export function factNodes(v) {
  const ui = v.ui;
  if (!ui) return [];
  const out = [];
  ui.now.querySelectorAll("ol.messages > li").forEach((li, i) => out.push([`msg:${i}`, li]));
  for (const sec of ui.state.querySelectorAll("section[data-lane]")) {
    const seen = new Map();
    for (const node of sec.querySelectorAll("p:not(.state-title), li")) {
      let key;
      if (node.dataset.txn) key = `txn ${node.dataset.txn}`;
      else if (node.dataset.producer) key = `producer ${node.dataset.producer}`;
      else {
        const word = factText(node).split(/\s+/)[0] ?? "";
        const n = seen.get(word) ?? 0;
        seen.set(word, n + 1);
        key = `${word}#${n}`;
      }
      out.push([`${sec.dataset.lane}:${key}`, node]);
    }
  }
  for (const tr of ui.state.querySelectorAll("tr[data-metric]")) out.push([`metric:${tr.dataset.metric}`, tr]);
  for (const [key, node] of out) node.dataset.fact = key;
  return out;
}

export function applyFactMarks(v) {
  const m = v.factMarks;
  for (const [key, node] of factNodes(v)) {
    const on = !!m && m.at === v.at && m.keys.has(key);
    node.classList.toggle("differs", on);
    const sr = node.querySelector(":scope > .sr-only.differs-note");
    if (on && !sr) node.append(h("span", { class: "sr-only differs-note" }, ` (${m.label})`));
    else if (!on && sr) sr.remove();
  }
}

export function renderHeader(v) {
  const r = v.report;
  v.ui.title.textContent = r?.title ?? "";
  v.ui.about.textContent = r?.about ?? "";
  const forced = r && v.sourceText !== null ? v.el.transactionVersion : null;
  // The regions' names say which protocol when the page forces one (V1 beside V2: unique landmarks).
  const which = v.el.transactionVersion === null ? "" : ` (transaction.version ${v.el.transactionVersion})`;
  v.ui.state.setAttribute("aria-label", `State after this step${which}`);
  v.ui.invariantsWhich.textContent = which;
  // (An idempotence script's run has no transactions to version.)
  v.ui.features.textContent = r && r.model !== "idempotence"
    ? `transaction.version ${r.transactionVersion ?? "?"} (finalized feature level${forced !== null ? `, set by transaction-version="${forced}" whatever the script's cluster line says` : ""})${r.features ? "\n" + r.features : ""}`
    : "";
}

export function renderControls(v) {
  v.player.render((k) => {
    const s = v.report?.steps?.[v.story[k]?.first];
    return s ? `step ${k + 1} of ${v.story.length}: line ${s.line}: ${s.text}` : `step ${k + 1}`;
  });
}

/** The narration of the current step, its messages (numbered as on the canvas) and what it wrote. */
export function renderNow(v) {
  const { now } = v.ui;
  const r = v.report;
  const s = r?.steps?.[v.step];
  if (!s) {
    now.replaceChildren();
    now.classList.remove("failed-step");
    return;
  }
  const k = v.step;
  const g = v.story[v.at];
  const children = [
    h("p", { class: "now-head" }, `Step ${v.at + 1} of ${v.story.length} · `, h("span", { class: "line" }, `line ${s.line}: ${s.text}`),
      s.t ? h("span", { class: "line" }, ` · t=${s.t} ms`) : null),
  ];
  if (s.narration) children.push(h("p", { class: "narration" }, s.narration));
  const checks = storyChecks(r, g);
  now.classList.toggle("failed-step", s.ok === false || checks.some((c) => !c.ok));
  children.push(checksList(checks));
  const broken = (s.invariants ?? []).filter((i) => !i.holds);
  if (broken.length) children.push(h("p", { class: "failed" }, `✗ ${broken.length} invariant${broken.length === 1 ? "" : "s"} broken: ${broken.map((i) => i.name).join("; ")}`));
  const msgs = s.messages ?? [];
  if (msgs.length) {
    const ol = h("ol", { class: "messages", "aria-label": "Messages of this step" });
    for (const m of msgs.slice(0, 40)) {
      const parts = [`${v.laneLabel(m.from)} → ${v.laneLabel(m.to)} · ${m.kind}: ${m.text}`];
      if (m.error) parts.push(` · error ${m.error}${Number.isInteger(m.code) ? ` (${m.code})` : ""}`);
      if (m.lost) parts.push(" · LOST");
      const li = h("li", { class: m.lost ? "lost" : m.error ? "error" : "", "data-kind": m.kind }, ...parts);
      if (m.rule) li.append(" ", h("span", { class: "rule", title: "rule id in the team reference" }, m.rule));
      if (m.source) li.append(" ", h("span", { class: "source" }, `Kafka source: ${m.source}`));
      ol.append(li);
    }
    if (msgs.length > 40) ol.append(h("li", {}, `… and ${msgs.length - 40} more`));
    children.push(ol);
  } else {
    children.push(h("p", { class: "about" }, "Nothing goes on the wire at this step."));
  }
  const written = v.tl?.writtenAt[k] ?? [];
  if (written.length) {
    const div = h("div", { class: "written", role: "group", "aria-label": "Records written at this step" }, h("span", {}, "Written:"));
    for (const i of written.slice(0, MAX_BUTTONS)) {
      const rec = r.records[i];
      div.append(h("button", { type: "button", "data-record": i, "data-kind": rec.kind, title: "open its bytes" }, recordLabel(rec)));
    }
    if (written.length > MAX_BUTTONS) div.append(h("span", {}, `… and ${written.length - MAX_BUTTONS} more`));
    children.push(div);
  }
  now.replaceChildren(...children.filter(Boolean));
}

/** The selected record, as text, with a button to open it. */
export function renderDetail(v) {
  const { detail } = v.ui;
  const rec = v.tl?.records[v.selected];
  const focused = !rec && v.laneFocus !== null && v.laneFocus !== undefined ? v.tl?.byId.get(v.laneFocus) : null;
  if (focused) {
    // A lane reached with ↑/↓ that has no record to select: its full name and what it is.
    detail.hidden = false;
    detail.replaceChildren(
      h("span", { class: "detail-lane" }, `${focused.label}: `),
      h("span", {}, `${focused.kind} lane${focused.shortenedState ? ` · ${focused.shortenedState}` : ""} · ↑/↓ for the next lane`),
    );
    return;
  }
  if (!rec) {
    detail.hidden = true;
    detail.replaceChildren();
    return;
  }
  detail.hidden = false;
  const status = isMarker(rec) ? rec.kind : recordStatus(rec, v.step);
  // The lane's full name first, in words: the gutter may show it abbreviated, and ↑/↓ move
  // the selection (and so this line) from lane to lane.
  const lane = v.tl.byId.get(rec.lane);
  detail.replaceChildren(
    h("span", { class: "detail-lane" }, `${lane?.label ?? rec.lane}: `),
    h("span", {}, `${recordLabel(rec)} · pid ${rec.pid} epoch ${rec.epoch} · ${status}` +
      (rec.closedAt !== null && rec.closedAt !== undefined && !isMarker(rec) ? ` (closed at step ${v.storyNo(rec.closedAt)})` : "") +
      ` · written at step ${v.storyNo(rec.step)} `),
    h("button", { type: "button", "data-record": v.selected }, "Open bytes"),
  );
}

/** Every lane's state after the current step, as text. */
export function renderState(v) {
  const { state } = v.ui;
  const s = v.report?.steps?.[v.step];
  if (!s) {
    state.replaceChildren();
    return;
  }
  const st = s.state ?? {};
  const sections = [];
  const kv = (text, cls) => h("p", { class: cls ?? "kv" }, text);
  for (const lane of v.tl.lanes) {
    const sec = h("section", { "data-lane": lane.id, "data-kind": lane.kind }, h("p", { class: "state-title" }, `${lane.label} · ${lane.kind}`));
    switch (lane.kind) {
      case "producer": {
        const p = (st.producers ?? []).find((x) => x.lane === lane.id);
        if (!p) {
          sec.append(kv("no state", "about"));
          break;
        }
        sec.append(kv(`transactional.id ${p.transactionalId || "—"} · protocol ${p.protocol ?? "?"}`));
        sec.append(h("p", { class: "kv", "data-field": "state" }, "state ", h("span", { class: /ERROR/.test(p.state) ? "bad" : "" }, p.state)));
        sec.append(kv(`producer id ${p.pid} · epoch ${p.epoch}`));
        const seqs = p.sequences ?? [];
        if (seqs.length) sec.append(kv(`next sequence: ${seqs.map(([part, n]) => `${part} ${n}`).join(", ")}`));
        if (p.outcome) sec.append(h("p", { class: "kv", "data-field": "outcome" }, "outcome ", h("span", { class: "warn" }, p.outcome)));
        if (p.error) sec.append(h("p", { class: "kv" }, "error ", h("span", { class: "bad" }, p.error)));
        if (p.fenced) sec.append(kv("fenced: a newer instance with the same transactional.id took over", "bad"));
        if (p.crashed) sec.append(kv("crashed (the process is gone)", "bad"));
        break;
      }
      case "coordinator": {
        const c = st.coordinator;
        if (!c) {
          sec.append(kv("no state", "about"));
          break;
        }
        sec.append(kv(`coordinator epoch ${c.epoch}`));
        const txns = c.txns ?? [];
        const ul = h("ul", { "aria-label": "transactions" });
        for (const t of txns.slice(0, 8)) {
          ul.append(h("li", { "data-txn": t.transactionalId },
            `${t.transactionalId}${Number.isInteger(t.partition) ? ` (__transaction_state-${t.partition})` : ""}: ${t.state}${t.pendingState ? ` → ${t.pendingState}` : ""} · pid ${t.pid} epoch ${t.epoch}` +
            ` · partitions [${(t.partitions ?? []).join(", ")}] · timeout ${t.timeoutMs} ms` +
            (t.lastProducerEpoch >= 0 ? ` · lastProducerEpoch ${t.lastProducerEpoch}` : "") +
            (t.prevProducerId >= 0 ? ` · prevProducerId ${t.prevProducerId}` : "") +
            (t.nextProducerId >= 0 ? ` · nextProducerId ${t.nextProducerId}` : "")));
        }
        if (txns.length > 8) ul.append(h("li", {}, `… and ${txns.length - 8} more`));
        if (!txns.length) ul.append(h("li", {}, "no transactional ids"));
        sec.append(ul);
        const pm = c.pendingMarkers ?? [];
        if (pm.length) sec.append(kv(`markers not yet written: ${pm.join("; ")}`, "warn"));
        break;
      }
      case "partition": {
        const p = (st.partitions ?? []).find((x) => x.lane === lane.id);
        if (p) {
          sec.append(kv(`log end ${p.logEnd} · HW ${p.hw} · LSO ${p.lso}`));
          if (p.lso < p.hw) sec.append(kv(`an open transaction holds the LSO at ${p.lso}: read_committed consumers stop there`, "warn"));
          // Replicas (S1–S6): the leader's broker, the ISR and each follower.
          const rep = p.replication;
          if (rep) {
            sec.append(kv(`leader on broker ${rep.leader} (leader epoch ${rep.leaderEpoch}) · ISR [${rep.isr.join(", ")}]`));
            const ul = h("ul", { "aria-label": `followers of ${p.name}` });
            for (const f of rep.followers) {
              const what = !f.alive ? "broker down" : !f.fetching ? "not fetching" : "fetching";
              ul.append(h("li", { "data-broker": String(f.broker) },
                `broker ${f.broker}: ${what} · log end ${f.logEnd} · ${f.inIsr ? "in the ISR" : "out of the ISR"}`));
            }
            sec.append(ul);
            if (p.hw < p.logEnd) sec.append(kv(`the HW waits at ${p.hw} for a follower in the ISR: acks=all answers above it are held`, "warn"));
          }
          // The leader's producer state (ProducerStateEntry per producer id) and its
          // transaction index (AbortedTxn), as text.
          const prods = p.producers ?? [];
          if (prods.length) {
            const ul = h("ul", { "aria-label": `producer state of ${p.name}` });
            for (const e of prods.slice(0, 8)) {
              const batches = (e.batches ?? []).map(([f, l, o, lo]) => `${f}..${l}@${o}${lo !== o ? `..${lo}` : ""}`).join(", ");
              ul.append(h("li", { "data-producer": String(e.producerId) },
                `producer ${e.producerId} · epoch ${e.epoch} · last seq ${e.lastSequence}` +
                ` · batches [${batches}]` +
                (e.coordinatorEpoch >= 0 ? ` · coordinator epoch ${e.coordinatorEpoch}` : "") +
                (e.txnFirstOffset !== null && e.txnFirstOffset !== undefined ? ` · open transaction from ${e.txnFirstOffset}` : "")));
            }
            if (prods.length > 8) ul.append(h("li", {}, `… and ${prods.length - 8} more`));
            sec.append(ul);
          }
          // The leader's verification entries (VerificationStateEntry, V2): kept whatever the
          // coordinator answered, until the producer's next transactional append (A5).
          const ver = p.verifications ?? [];
          if (ver.length) {
            const ul = h("ul", { "aria-label": `verification entries of ${p.name}` });
            for (const v of ver.slice(0, 8)) {
              ul.append(h("li", { "data-verification": String(v.producerId) },
                `verification entry: producer ${v.producerId} · epoch ${v.epoch} · lowest sequence ${v.lowestSequence} · since t+${v.sinceT}ms` +
                ` · a batch starting above sequence ${v.lowestSequence} is refused (A5)` +
                (v.supportsEpochBump ? "; a TV2 producer's first batch must start at 0 (A4)" : "")));
            }
            if (ver.length > 8) ul.append(h("li", {}, `… and ${ver.length - 8} more`));
            sec.append(ul);
          }
          const ab = p.aborted ?? [];
          if (ab.length) {
            sec.append(kv(`transaction index: ${ab.slice(-6).map((a) => `producer ${a.producerId} aborted ${a.firstOffset}..${a.lastOffset} (LSO ${a.lastStableOffset})`).join("; ")}`));
          }
        } else sec.append(kv("no state", "about"));
        break;
      }
      case "offsets": {
        for (const g of st.groups ?? []) {
          const stat = (g.staticMembers ?? []).map(([inst, m]) => `${inst} → ${m}`);
          sec.append(kv(`group ${g.group}: generation ${g.generation} · members ${(g.members ?? []).join(", ") || "none (Empty)"}` +
            (stat.length ? ` · static ${stat.join(", ")}` : "")));
        }
        const list = st.offsets ?? [];
        if (!list.length) sec.append(kv("no group offsets", "about"));
        const ul = h("ul", { "aria-label": "group offsets" });
        for (const o of list.slice(0, 10)) {
          ul.append(h("li", {}, `${o.group} (generation ${o.generation}) ${o.partition}: committed ${o.committed ?? "—"}` +
            (o.pending !== null && o.pending !== undefined ? ` · pending ${o.pending} (in an open transaction)` : "")));
        }
        if (list.length) sec.append(ul);
        break;
      }
      case "consumer": {
        const c = (st.consumers ?? []).find((x) => x.lane === lane.id);
        if (!c) {
          sec.append(kv("no state", "about"));
          break;
        }
        sec.append(kv(`${c.isolation}${Number.isInteger(c.generation) ? ` · generation ${c.generation}` : ""} · received ${c.received}`));
        sec.append(kv(`positions: ${(c.positions ?? []).map((p) => `${p.partition} @${p.position}`).join(", ") || "none"}`));
        let last = [];
        for (const list of lane.deliveries.values()) for (const d of list) if (d.step <= v.step) last.push(d);
        if (last.length) {
          last.sort((a, b) => a.step - b.step || a.offset - b.offset);
          last = last.slice(-8);
          const tag = (d) => (v.tl.records[d.record] && recordStatus(v.tl.records[d.record], v.step) === "aborted" ? " ABORTED" : "");
          sec.append(kv(`last received: ${last.map((d) => `${d.value ?? "null"} (${d.partition}@${d.offset}${tag(d)})`).join(", ")}`));
        }
        break;
      }
      case "external": {
        const eff = v.tl.effects.filter((e) => e.step <= v.step);
        const dup = eff.filter((e) => e.duplicate).length;
        sec.append(kv(`${eff.length} effect${eff.length === 1 ? "" : "s"}${dup ? ` · ${dup} duplicate${dup === 1 ? "" : "s"}` : ""}`, dup ? "bad" : "kv"));
        if (eff.length) sec.append(kv(`last: ${eff.slice(-5).map((e) => `${e.name}${e.key ? " " + e.key : ""}${e.duplicate ? " (duplicate)" : ""}`).join(", ")}`));
        break;
      }
      default:
        break;
    }
    sections.push(sec);
  }
  const metrics = Object.entries(st.metrics ?? {});
  if (metrics.length) {
    // The counters as the Java client and the brokers name them, with what this step added.
    const before = v.step > 0 ? (v.report.steps[v.step - 1]?.state?.metrics ?? {}) : {};
    const rows = metrics.map(([k, v]) => {
      const delta = Number(v) - Number(before[k] ?? 0);
      return h("tr", { "data-metric": k, "data-value": String(v) },
        h("th", { scope: "row" }, k),
        h("td", { class: "num" }, String(v)),
        h("td", { class: "num delta" }, Number.isFinite(delta) && delta !== 0 ? `${delta > 0 ? "+" : ""}${delta}` : ""));
    });
    sections.push(h("section", { class: "metrics", "data-kind": "metrics" },
      h("table", { class: "metrics" },
        h("caption", {}, "Metrics after this step"),
        h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "name"), h("th", { scope: "col" }, "value"), h("th", { scope: "col" }, "this step"))),
        h("tbody", {}, rows))));
  }
  state.replaceChildren(...sections);
}

export function renderInvariants(v) {
  const { invariantList, invariantSummary } = v.ui;
  const list = v.report?.steps?.[v.step]?.invariants ?? [];
  const broken = list.filter((i) => !i.holds).length;
  invariantSummary.textContent = !v.report ? "" : !list.length ? "none checked at this step" : broken ? `${broken} of ${list.length} broken` : `all ${list.length} hold`;
  invariantList.replaceChildren(
    ...list.map((inv) =>
      h("li", { class: inv.holds ? "holds" : "broken", "data-holds": String(!!inv.holds), "data-name": inv.name },
        h("span", { class: "verdict" }, inv.holds ? "✓ holds" : "✗ BROKEN"),
        h("span", { class: "name" }, inv.name),
        inv.detail ? h("span", { class: "detail-text" }, inv.detail) : null),
    ),
  );
}

export function renderNext(v) {
  const { next } = v.ui;
  const r = v.report;
  const canAppend = !!r && !v.el.readOnly && v.sourceText !== null;
  const label = v.at < v.el.steps - 1 ? "After the last step:" : "What can happen next:";
  const c = v.nextCache;
  // The buttons depend on the run only: rebuilt when it changes, the label follows the step.
  if (c.report !== r || c.canAppend !== canAppend || !c.label) {
    const buttons = (r?.nextSteps ?? []).map(nextStepButton);
    c.report = r;
    c.canAppend = canAppend;
    c.label = h("span", { class: "label" }, label);
    next.hidden = !canAppend || buttons.length === 0;
    next.replaceChildren(c.label, ...buttons);
  } else if (c.label.textContent !== label) {
    c.label.textContent = label;
  }
}

/** How many of report.completions are shown at the current step: all of them when their steps are unknown. */
export function latencyCount(v) {
  const all = v.report?.completions ?? [];
  const at = v.tl?.completionSteps ?? null;
  if (!at) return all.length;
  if (v.tl.completionsInOrder) return lowerBound(at, v.step + 1, (s) => s);
  return -1; // not a prefix: see #latencyIndexes
}

/** The indexes (into report.completions) of the completions shown at the current step. */
export function latencyIndexes(v) {
  const count = latencyCount(v);
  if (count >= 0) return Array.from({ length: count }, (_, i) => i);
  const at = v.tl.completionSteps;
  const out = [];
  at.forEach((s, i) => {
    if (s <= v.step) out.push(i);
  });
  return out;
}

/** The completions shown at the current step: [{n, partitions, ms, step}] (step null when unknown). */
export function latencyPoints(v) {
  const all = v.report?.completions ?? [];
  const at = v.tl?.completionSteps ?? null;
  return latencyIndexes(v).map((i) => ({ n: i + 1, partitions: Number(all[i].partitions), ms: Number(all[i].ms), step: at ? at[i] : null }));
}

/** Row i of the latency table (built once per run; "(this step)" and now-row set by #markLatencyRow). */
export function latencyRow(v, i) {
  const rows = v.latency.rows;
  if (!rows[i]) {
    const c = v.report.completions[i];
    const step = v.tl?.completionSteps?.[i] ?? null;
    const p = { partitions: Number(c.partitions), ms: Number(c.ms) };
    rows[i] = h("tr", { "data-partitions": p.partitions, "data-ms": p.ms },
      h("th", { scope: "row" }, `#${i + 1}`),
      h("td", { class: "num", "data-col": "partitions" }, String(p.partitions)),
      h("td", { class: "num", "data-col": "ms" }, String(p.ms)),
      h("td", { "data-col": "step" }, step === null ? "—" : `step ${v.storyNo(step)}`));
  }
  return rows[i];
}

export function markLatencyRow(v, i, now) {
  const tr = latencyRow(v, i);
  const step = v.tl.completionSteps[i];
  if (now) tr.className = "now-row";
  else tr.removeAttribute("class");
  tr.lastChild.textContent = `step ${v.storyNo(step)}${now ? " (this step)" : ""}`;
}

/**
 * A long latency table (hundreds of completions) gets fixed column widths, wide enough for the
 * longest value of the run: with the automatic table layout every row added or removed while
 * stepping would measure every cell of the table again.
 */
export function layoutLatencyTable(v) {
  const { latencyTable, latencyCols } = v.ui;
  const all = v.report?.completions ?? [];
  if (all.length < LONG_LATENCY_TABLE) {
    latencyTable.classList.remove("fixed");
    latencyTable.style.removeProperty("width");
    for (const col of latencyCols) col.style.removeProperty("width");
    return;
  }
  const digits = (xs) => xs.reduce((m, x) => Math.max(m, String(x).length), 1);
  const lastStep = (v.tl?.completionSteps ?? []).reduce((m, s) => Math.max(m, s), 0);
  // In characters of the table's monospace font, at least the header's; each cell has .5rem of padding.
  const chars = [
    Math.max(4, digits([all.length]) + 1),
    Math.max(10, digits(all.map((c) => c.partitions))),
    Math.max(18, digits(all.map((c) => c.ms))),
    Math.max(12, `step ${v.storyNo(lastStep)} (this step)`.length),
  ];
  latencyCols.forEach((col, i) => (col.style.width = `calc(${chars[i]}ch + .5rem)`));
  latencyTable.style.width = `calc(${chars.reduce((a, b) => a + b, 0)}ch + 2rem)`;
  latencyTable.classList.add("fixed");
}

/**
 * The latency figure's text: one table row per completion so far, the note and the caption. The
 * rows are built once per run and the body is kept in step with the current step by appending or
 * removing rows at its end (the completions so far are a prefix when their steps are in order).
 */
export function renderLatency(v) {
  const { latency, latencyBody, latencyNote, latencyCaption } = v.ui;
  const all = v.report?.completions ?? [];
  const L = v.latency;
  if (L.report !== v.report || L.source !== v.sourceText) {
    L.report = v.report;
    L.source = v.sourceText;
    L.rows = [];
    L.lo = 0;
    L.shown = -1;
    L.marked = [];
    L.caption = null;
    layoutLatencyTable(v);
  }
  if (all.length < 2) {
    latency.hidden = true;
    if (L.shown !== 0) latencyBody.replaceChildren();
    L.shown = 0;
    return;
  }
  latency.hidden = false;
  const k = v.step;
  const at = v.tl?.completionSteps ?? null;
  for (const i of L.marked) if (L.rows[i]) markLatencyRow(v, i, false);
  L.marked = [];
  const count = latencyCount(v);
  let shown;
  if (count >= 0 && L.shown >= 0) {
    // The completions so far are a prefix; the table shows its last MAX_LATENCY_ROWS rows,
    // [lo, count): rows leave and join at either end as the window moves.
    const lo = Math.max(0, count - MAX_LATENCY_ROWS);
    if (lo >= L.shown || count <= L.lo) {
      // No overlap with what is shown: build the window afresh.
      const frag = document.createDocumentFragment();
      for (let i = lo; i < count; i++) frag.append(latencyRow(v, i));
      latencyBody.replaceChildren(frag);
    } else {
      for (let i = L.lo; i < lo; i++) L.rows[i]?.remove();
      for (let i = count; i < L.shown; i++) L.rows[i]?.remove();
      if (lo < L.lo) {
        const frag = document.createDocumentFragment();
        for (let i = lo; i < L.lo; i++) frag.append(latencyRow(v, i));
        latencyBody.prepend(frag);
      }
      if (L.shown < count) {
        const frag = document.createDocumentFragment();
        for (let i = L.shown; i < count; i++) frag.append(latencyRow(v, i));
        latencyBody.append(frag);
      }
    }
    L.lo = lo;
    L.shown = count;
    shown = count;
    if (at) for (let i = count - 1; i >= lo && at[i] >= k; i--) if (at[i] === k) L.marked.push(i);
  } else {
    const idx = latencyIndexes(v);
    latencyBody.replaceChildren(...idx.slice(-MAX_LATENCY_ROWS).map((i) => latencyRow(v, i)));
    // With a prefix (count ≥ 0) what is shown is the window [count - MAX, count).
    L.lo = Math.max(0, count - MAX_LATENCY_ROWS);
    L.shown = count >= 0 ? count : -1;
    shown = idx.length;
    if (at) for (const i of idx.slice(-MAX_LATENCY_ROWS)) if (at[i] === k) L.marked.push(i);
  }
  for (const i of L.marked) markLatencyRow(v, i, true);
  const listed = shown > MAX_LATENCY_ROWS ? ` The table lists the latest ${MAX_LATENCY_ROWS}; the plot shows them all.` : "";
  latencyNote.textContent =
    (at
      ? `${shown} of ${all.length} transactions complete by step ${v.at + 1}.`
      : `All ${all.length} transactions of the run (the report does not say at which step each completed).`) + listed;
  if (L.caption === null) {
    const c = clusterCosts(v.sourceText ?? "");
    L.caption =
      "x: partitions the transaction touched; y: milliseconds from EndTxn to CompleteCommit/CompleteAbort in the model's time. " +
      "The coordinator sends one WriteTxnMarkers entry per partition (one request per broker, each marker an acks=all append) " +
      "and calls the transaction complete only when every marker is written. The costs are the model's inputs, " +
      `cluster rtt=${c.rtt} append=${c.append} brokers=${c.brokers}` +
      (v.sourceText === null ? " unless the script set others" : "") +
      ", not measurements: the shape is the lesson, not the numbers.";
  }
  if (latencyCaption.textContent !== L.caption) latencyCaption.textContent = L.caption;
}

export function renderSummary(v) {
  const { summary } = v.ui;
  const r = v.report;
  if (!r) {
    v.summaryFor = null;
    summary.textContent = "";
    return;
  }
  if (v.summaryFor === r) return; // the same run: the same text
  v.summaryFor = r;
  const checks = (r.steps ?? []).filter((s) => /^expect\b/.test(s.text)).length;
  const failed = (r.failures ?? []).length;
  let text = checks ? (failed ? `${failed} of ${checks} expectations fail. ` : `All ${checks} expectations hold. `) : failed ? `${failed} expectations fail. ` : "";
  text += `The model follows Kafka ${r.kafkaVersion ?? "4.3"}.`;
  if (r.outsideModel) text += ` Outside the model: ${r.outsideModel}`;
  summary.textContent = text;
}
