// <kafka-ladder>'s DOM panels: the title, the narration of the step, the selected row, the leader's
// windows and the client's batches, the next-step buttons, and the list of the rows in view (the
// canvas's text alternative). `v` is the element's view (element.js #view).
import { el as h } from "../lib/dom.js";
import { nextStepButton } from "../lib/element.js";
import { KIND_LABEL, ROW_EVENT, ROW_STEP, range, rowText, splitDecision } from "../lib/ladder-rows.js";
import { checksList, storyChecks } from "../lib/player.js";

export function renderHeader(v) {
  const run = v.run;
  v.ui.title.textContent = run?.title ?? "";
  v.ui.about.textContent = run?.about ?? "";
}

export function renderControls(v) {
  v.player.render((k) => {
    const g = v.story[k];
    const s = g && v.run?.steps[g.first];
    return s ? `step ${k + 1} of ${v.story.length}: line ${s.line}: ${s.text}` : `step ${k + 1}`;
  });
}

/** What the current step did: its line and its decisions (or its events). */
export function renderNow(v) {
  const { now } = v.ui;
  const run = v.run;
  if (!run) {
    now.replaceChildren();
    return;
  }
  const g = v.story[v.at];
  if (!g) {
    now.replaceChildren(h("p", { class: "now-head" }, "No steps: the script only sets up partitions and producers."));
    return;
  }
  const s = run.steps[g.first];
  const head = h("p", { class: "now-head" }, `Step ${v.at + 1} of ${v.story.length} · `, h("span", { class: "line" }, `line ${s.line}: ${s.text}`));
  const children = [head];
  // The step's decisions (each with its rule), else its events; a transactions run's answers, else its messages.
  let important;
  let all;
  let item;
  let nouns;
  if (v.ladder?.kind === "transactions") {
    all = (v.ladder.rows ?? []).filter((r) => r.type === ROW_EVENT && r.step === g.first).map((r) => r.e);
    important = all.filter((e) => e.rule);
    item = (e) => (e.rule ? answerItem(e) : h("li", {}, `${e.tag}: ${e.fromName} → ${e.toName}: ${e.text}`));
    nouns = ["answers", "messages"];
  } else {
    all = s.events ?? [];
    important = all.filter((e) => e.kind === "decision");
    item = (e) => (e.kind === "decision" ? decisionItem(e) : h("li", {}, `${KIND_LABEL[e.kind] ?? e.kind}: ${e.text}`));
    nouns = ["decisions", "events"];
  }
  const pool = important.length ? important : all;
  if (pool.length) {
    const list = h("ul");
    for (const e of pool.slice(0, 4)) list.append(item(e));
    if (pool.length > 4) list.append(h("li", { class: "more" }, `… and ${pool.length - 4} more ${important.length ? nouns[0] : nouns[1]}`));
    children.push(list);
  } else if (!/^expect\b/.test(s.text)) {
    children.push(h("p", { class: "about" }, "Nothing happens on the wire at this step."));
  }
  children.push(checksList(storyChecks(run, g)));
  now.classList.toggle("failed-step", (g.checks ?? []).some((i) => run.steps[i].ok === false));
  now.replaceChildren(...children.filter(Boolean));
}

/** The selected row: its full text, rule, error, source and batch. */
export function renderDetail(v) {
  const { detail } = v.ui;
  const row = v.ladder?.rows[v.selectedRow];
  if (!row || v.selectedRow >= v.revealed()) {
    detail.hidden = true;
    detail.replaceChildren();
    return;
  }
  detail.hidden = false;
  if (row.type === ROW_STEP) {
    detail.replaceChildren(h("span", {}, rowText(v.run, row)));
    return;
  }
  const e = row.e;
  const parts = [];
  if (e.kind === "decision") parts.push(...decisionItem(e).childNodes);
  else if (e.kind === "message" && e.rule) parts.push(...answerItem(e).childNodes);
  else if (e.kind === "message") parts.push(h("span", {}, rowText(v.run, row)));
  else parts.push(h("span", {}, `${KIND_LABEL[e.kind] ?? e.kind}: ${e.text}`));
  if (e.kind === "message" && Number.isInteger(e.record)) {
    parts.push(" ", h("button", { type: "button", "data-record": e.record }, "Open its bytes"));
  }
  if (Number.isInteger(e.batch)) {
    parts.push(" ", h("button", { type: "button", "data-batch": e.batch }, `Open b${e.batch}`));
  }
  detail.replaceChildren(...parts);
}

/** Leader windows and client batches after the current step; next-step buttons. */
export function renderPanels(v, prefix) {
  const { state, next, summary } = v.ui;
  const run = v.run;
  if (!run || !prefix) {
    state.replaceChildren();
    next.replaceChildren();
    next.hidden = true;
    summary.textContent = "";
    return;
  }
  const k = v.step;
  if (v.ladder?.kind === "transactions") return txnPanels(v, prefix);
  const entries = k > 0 ? run.steps[k - 1].producerEntries ?? [] : [];
  const sections = [];
  (prefix.finalState ?? []).forEach((p, q) => {
    const list = p.producers ?? [];
    const n = entries[q] ?? list.length;
    const sec = h("section", { "data-partition": p.name },
      h("p", { class: "state-title" }, `${p.name} · leader`),
      h("p", {}, `log end offset ${p.logEndOffset} · ${n} producer-state ${n === 1 ? "entry" : "entries"} · retains the last 5 batches per producer`),
      p.isr ? h("p", { class: "replicas" }, `high watermark ${p.highWatermark} · ISR ${p.isr.join(", ")} (leader on broker ${p.isr[0]})`) : null);
    for (const entry of list.slice(0, 4)) {
      const slots = h("ol", { class: "window", "aria-label": `retained batches of producer ${entry.producerId}` });
      const batches = entry.batches ?? [];
      for (let i = 0; i < 5; i++) {
        const b = batches[i];
        slots.append(
          b
            ? h("li", { title: `sequences ${b[0]}..${b[1]} at offsets ${b[2]}..${b[3]}` }, `seq ${range(b[0], b[1])}`, h("br"), `@${range(b[2], b[3])}`)
            : h("li", { class: "empty" }, "empty"),
        );
      }
      sec.append(h("div", { class: "entry", "data-pid": entry.producerId },
        h("div", { class: "entry-head" }, `pid ${entry.producerId} · epoch ${entry.epoch}`), slots));
    }
    if (list.length > 4) sec.append(h("p", {}, `… and ${list.length - 4} more producer ids`));
    if (list.length === 0) sec.append(h("p", {}, "no producer state"));
    sections.push(sec);
  });
  const batches = prefix.batches ?? [];
  (prefix.producers ?? run.producers ?? []).forEach((name, p) => {
    const mine = batches.filter((b) => b.producer === p);
    const latest = mine[mine.length - 1];
    const sec = h("section", { "data-producer": name },
      h("p", { class: "state-title" }, `${name} · producer`),
      h("p", {}, latest ? `pid ${latest.producerId} · epoch ${latest.producerEpoch} (latest batch) · ${mine.length} batch${mine.length === 1 ? "" : "es"}` : "no batches yet"));
    if (mine.length) {
      const ul = h("ul", { class: "batches", "aria-label": `batches of ${name}` });
      for (const b of mine.slice(-6)) {
        const off = b.offsets ? ` @${range(b.offsets[0], b.offsets[1])}` : "";
        ul.append(h("li", {}, h("button", {
          type: "button", "data-batch": b.id,
          title: `open b${b.id}: pid ${b.producerId}, epoch ${b.producerEpoch}, sequences ${b.baseSequence}..${b.lastSequence}, ${b.attempts} attempt(s)`,
        }, `b${b.id} seq ${range(b.baseSequence, b.lastSequence)} e${b.producerEpoch} ${b.state}${off}${b.error ? " " + b.error : ""}`)));
      }
      if (mine.length > 6) ul.prepend(h("li", { class: "about" }, `${mine.length - 6} earlier …`));
      sec.append(ul);
    }
    sections.push(sec);
  });
  state.replaceChildren(...sections);

  footer(v, prefix);
}

/** The next-step buttons and the summary line (both models). */
function footer(v, prefix) {
  const { next, summary } = v.ui;
  const run = v.run;
  const buttons = (prefix.nextSteps ?? []).map(nextStepButton);
  const canAppend = !v.el.readOnly && v.source?.kind === "text";
  next.hidden = !canAppend || buttons.length === 0;
  next.replaceChildren(h("span", { class: "label" }, v.step < v.run.steps.length ? "What could happen instead:" : "What can happen next:"), ...buttons);

  const checks = run.steps.filter((s) => /^expect\b/.test(s.text)).length;
  const failed = (run.failures ?? []).length;
  summary.textContent =
    (checks ? (failed ? `${failed} of ${checks} expectations fail. ` : `All ${checks} expectations hold. `) : "") +
    `Decisions follow Kafka ${run.kafkaVersion ?? "4.3"}.`;
  if (run.error) summary.textContent += ` ${run.error}`;
}

/**
 * A transactions run's state after the current step (txnStateAfter): each partition leader (log
 * end, HW, LSO, its producer entries with their retained batches, the aborted-transaction index),
 * each producer's TransactionManager and the coordinator's transactions.
 */
function txnPanels(v, prefix) {
  const sections = [];
  for (const p of prefix.finalState ?? []) {
    const list = p.producers ?? [];
    const sec = h("section", { "data-partition": p.name },
      h("p", { class: "state-title" }, `${p.name} · leader`),
      h("p", {}, `log end offset ${p.logEndOffset} · high watermark ${p.highWatermark} · last stable offset ${p.lastStableOffset} · ${list.length} producer-state ${list.length === 1 ? "entry" : "entries"}`),
      p.isr ? h("p", { class: "replicas" }, `ISR ${p.isr.join(", ")} (leader on broker ${p.isr[0]})`) : null,
      (p.aborted ?? []).length
        ? h("p", {}, `aborted transactions: ${p.aborted.map((a) => `pid ${a.producerId} ${a.firstOffset}..${a.lastOffset}`).join(", ")}`)
        : null);
    for (const entry of list.slice(0, 4)) {
      const open = Number.isInteger(entry.txnFirstOffset) && entry.txnFirstOffset >= 0 ? ` · transaction open from offset ${entry.txnFirstOffset}` : "";
      const slots = h("ol", { class: "window", "aria-label": `retained batches of producer ${entry.producerId}` });
      for (let i = 0; i < 5; i++) {
        const b = (entry.batches ?? [])[i];
        slots.append(b
          ? h("li", { title: `sequences ${b[0]}..${b[1]} at offsets ${b[2]}..${b[3]}` }, `seq ${range(b[0], b[1])}`, h("br"), `@${range(b[2], b[3])}`)
          : h("li", { class: "empty" }, "empty"));
      }
      sec.append(h("div", { class: "entry", "data-pid": entry.producerId },
        h("div", { class: "entry-head" }, `pid ${entry.producerId} · epoch ${entry.epoch} · coordinator epoch ${entry.coordinatorEpoch}${open}`), slots));
    }
    if (list.length > 4) sec.append(h("p", {}, `… and ${list.length - 4} more producer ids`));
    if (list.length === 0) sec.append(h("p", {}, "no producer state"));
    sections.push(sec);
  }
  for (const c of prefix.txn?.producers ?? []) {
    const id = c.transactionalId ? ` (${c.transactionalId})` : "";
    sections.push(h("section", { "data-producer": c.name },
      h("p", { class: "state-title" }, `${c.name}${id} · producer`),
      h("p", {}, `${c.state} · pid ${c.pid} · epoch ${c.epoch}${c.error ? ` · ${c.error}` : ""}${c.fenced ? " · fenced" : ""}`)));
  }
  const txns = prefix.txn?.coordinator?.txns ?? [];
  if (txns.length) {
    const ul = h("ul", { "aria-label": "the coordinator's transactions" });
    for (const t of txns) {
      const parts = (t.partitions ?? []).length ? ` with ${t.partitions.join(", ")}` : "";
      ul.append(h("li", {}, `${t.transactionalId}: ${t.state}${t.pendingState ? ` (pending ${t.pendingState})` : ""} · pid ${t.pid} epoch ${t.epoch}${parts}`));
    }
    sections.push(h("section", { "data-coordinator": "" },
      h("p", { class: "state-title" }, `coordinator · epoch ${prefix.txn.coordinator.epoch}`), ul));
  }
  v.ui.state.replaceChildren(...sections);
  footer(v, prefix);
}

/** An answer of a transactions run: its error by name and number, its rule, its sentence and source. */
function answerItem(e) {
  return h("li", { class: "decision", "data-outcome": e.outcome ?? "", "data-rule": e.rule ?? "", "data-error-code": e.errorCode ?? "" },
    h("span", { class: `badge ${e.outcome === "ok" ? "append" : "reject"}` }, e.outcome === "ok" ? "OK" : "REFUSED"),
    h("span", { class: "code" }, `${e.errorName} (${e.errorCode})`), " ",
    h("span", { class: "rule", title: "rule id in the team reference" }, e.rule ?? "—"), " ",
    h("span", { class: "headline" }, `${e.fromName} → ${e.toName}:`), " ",
    h("span", { class: "sentence" }, e.text),
    e.source ? h("span", { class: "source" }, `Kafka source: ${e.source}`) : null);
}

/** The DOM text alternative: the rows in view, as an ordered list (updated once scrolling pauses). */
export function updateRowList(v, first, last) {
  const revealed = v.revealed();
  const key = `${v.loadToken}:${first}:${last}:${revealed}`;
  if (key === v.srRange) return;
  clearTimeout(v.srTimer);
  if (v.srRange.split(":").slice(0, 1)[0] === String(v.loadToken) && v.srRange.endsWith(`:${revealed}`)) {
    // Same run and step, only scrolled: rebuild when the scrolling pauses, not on every frame.
    v.srTimer = setTimeout(() => fillRowList(v, first, last, key), 120);
    return;
  }
  fillRowList(v, first, last, key);
}

export function fillRowList(v, first, last, key) {
  v.srRange = key;
  const revealed = v.revealed();
  const list = v.ui.rowsList;
  if (!v.ladder || revealed === 0 || last < first) {
    list.replaceChildren();
    return;
  }
  list.start = first + 1;
  const items = [];
  for (let r = first; r <= last; r++) {
    const row = v.ladder.rows[r];
    const li = h("li", { "data-row": r }, rowText(v.run, row));
    if (row.type === ROW_EVENT && (row.e.kind === "decision" || (row.e.kind === "message" && row.e.rule))) {
      li.dataset.rule = row.e.rule ?? "";
      li.dataset.errorCode = String(row.e.errorCode ?? "");
    }
    items.push(li);
  }
  list.replaceChildren(...items);
}

export function decisionItem(e) {
  const { headline, sentence } = splitDecision(e);
  return h("li", { class: "decision", "data-outcome": e.outcome ?? "", "data-rule": e.rule ?? "", "data-error-code": e.errorCode ?? "" },
    h("span", { class: `badge ${e.outcome ?? ""}` }, e.outcome === "reject" ? "REJECTED" : (e.outcome ?? "").toUpperCase()),
    h("span", { class: "code" }, `${e.errorName} (${e.errorCode})`), " ",
    h("span", { class: "rule", title: "rule id in the team reference" }, e.rule ?? "—"), " ",
    h("span", { class: "headline" }, headline), " ",
    h("span", { class: "sentence" }, sentence),
    e.source ? h("span", { class: "source" }, `Kafka source: ${e.source}`) : null);
}
