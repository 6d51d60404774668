// <kafka-batch>'s panels: the summary, errors and marks, the opened batch (fields, bits, coverage, legend,
// the records' pages), the compare panel and "Send to a leader". `view` is the element's view (element.js #view).
import { toHex } from "../lib/bytes.js";
import { el, replace, setText } from "../lib/dom.js";
import { ATTRIBUTE_BITS, DERIVED, ERROR_EXPLANATIONS, labelOf } from "../lib/field-docs.js";
import { bytesPreview, checks, compareVerdict, fieldValue, hex32, producerSummary, timestampText } from "../lib/format.js";
import { renderEdit } from "./edit.js";
import { fmtBytes, fmtInt } from "./format.js";
import { EDIT_MAX_BYTES, RECORDS_PAGE } from "./limits.js";

export function renderEmpty(view) {
  setText(view.els.summary, "Paste or drop Kafka bytes to decode them.");
  view.els.batch.hidden = true;
  view.els.segment.hidden = true;
  renderErrors(view);
}

export function renderSummary(view) {
  const i = view.input;
  const n = view.frames.count;
  const parts = [`Detected: ${i.format}`];
  if (i.stripped.length) parts.push(`stripped ${i.stripped.join(", ")}`);
  parts.push(`${fmtBytes(i.bytes.length)}`, `${fmtInt(n)} ${n === 1 ? "batch" : "batches"}`);
  const st = view.pass?.stats;
  if (st) {
    const codecs = Object.entries(st.codecs).map(([c, k]) => `${c} ${fmtInt(k)}`).join(", ");
    parts.push(`${fmtInt(st.records)} records`, codecs, `${fmtInt(st.transactional)} transactional`, `${fmtInt(st.control)} control`, `${fmtInt(st.crcInvalid)} bad CRC`);
  }
  setText(view.els.summary, parts.join(" · "));
  setText(view.els.detected, `Detected: ${i.format}${i.stripped.length ? ` (stripped ${i.stripped.join(", ")})` : ""}, ${fmtBytes(i.bytes.length)}`);
}

export function setProgress(view, text) {
  setText(view.els.progress, text);
  view.els.progress.hidden = !text;
}

export function renderNoBatch(view) {
  view.d = null;
  view.els.batch.hidden = true;
  renderErrors(view);
}

export function allErrors(view) {
  const d = view.d;
  const own = d ? d.errors : [];
  const other = view.globalErrors.filter((e) => !d || e.batch !== d.index);
  return [...own, ...other];
}

export function renderErrors(view) {
  const errs = allErrors(view);
  const shown = errs.slice(0, 200);
  view.els.errorsEmpty.hidden = errs.length > 0;
  setText(view.els.errorsEmpty, errs.length ? "" : "No errors.");
  replace(view.els.errorsList, 
    ...shown.map((e) => {
      const sev = e.severity === "warning" ? "⚠ warning" : e.severity === "info" ? "ℹ info" : "✗ error";
      const where = e.batch !== undefined && e.batch !== null ? ` [batch ${e.batch}]` : "";
      const dec = e.decompressedAt !== undefined && e.decompressedAt !== null ? ` (decompressed byte ${e.decompressedAt})` : "";
      return el("li", { class: e.severity === "warning" ? "warning" : e.severity === "info" ? "info" : "error", "data-kind": e.kind },
        el("button", { type: "button", class: "at", "data-at": e.at, "data-batch": e.batch ?? "", title: "Show this byte in the byte map" }, `@${e.at}`),
        `${where} ${e.kind} `, el("span", { class: "sev" }, `(${sev})`), `: ${e.message}${dec}`,
        ERROR_EXPLANATIONS[e.kind] ? el("span", { class: "explain" }, ERROR_EXPLANATIONS[e.kind]) : null);
    }),
    errs.length > shown.length ? el("li", { class: "muted" }, `… and ${fmtInt(errs.length - shown.length)} more`) : null,
  );
  if (view.d?.batch) renderMarks(view);
}

export function renderMarks(view) {
  const d = view.d;
  const marks = new Map();
  for (const e of d.errors) if (e.severity !== "info" && e.at >= d.start && e.at < d.end) marks.set(e.at, "err");
  if (view.compareB?.diff) for (const p of view.compareB.diff) if (!marks.has(p)) marks.set(p, "diff");
  view.grid.marks = marks;
  view.grid.setHighlight(...view.grid.hl);
  view.grid.flush();
}

export function renderDetail(view, keep) {
  const d = view.d;
  const b = d.batch;
  const E = view.els;
  E.batch.hidden = false;
  const h = b.header;
  setText(E.batchTitle,
    `Batch ${d.index}: bytes ${d.start}–${d.end - 1} (${fmtInt(d.end - d.start)} bytes), magic ${b.magic}${b.legacy ? " (legacy message)" : " (record batch v2)"}${b.truncated ? ", truncated" : ""}${b.control ? `, ${b.control.type} marker` : ""}`);
  const big = view.input.bytes.length > EDIT_MAX_BYTES;
  E.btnFix.disabled = h.crcValid || b.truncated || !d.crcField || big;
  E.btnEdit.disabled = big;
  E.btnEdit.setAttribute("aria-pressed", String(view.editing));
  E.btnAlone.hidden = view.el.readOnly || view.frames.count < 2;
  view.grid.setEditable(!view.el.readOnly && !big);

  // The header fields of compact mode (CSS shows them only there).
  const hf = b.legacy
    ? [["magic", b.magic], ["offset", h.baseOffset ?? h.offset], ["crc", h.crcValid ? "✓ valid" : "✗ invalid"]]
    : [["baseOffset", h.baseOffset], ["records", h.recordsCount], ["producerId", h.producerId], ["producerEpoch", h.producerEpoch],
       ["baseSequence", h.baseSequence], ["compression", h.attributes?.compression ?? "none"],
       ["transactional", h.attributes?.transactional ? "yes" : "no"], ["crc", h.crcValid ? "✓ valid" : "✗ invalid"],
       ...(b.control ? [["marker", b.control.type]] : [])];
  replace(E.compactHead, hf.map(([k, v]) => el("div", {}, el("dt", {}, k), el("dd", {}, String(v ?? "—")))));
  // Producer meaning.
  replace(E.producer, 
    ...(b.control ? [el("p", { class: `marker ${b.control.type.toLowerCase()}` },
      el("span", { class: "badge" }, b.control.type),
      b.control.coordinatorEpoch !== null ? ` coordinatorEpoch ${b.control.coordinatorEpoch}` : "",
      b.control.markerVersion !== null ? `, marker version ${b.control.markerVersion}` : "",
      `, producerId ${h.producerId}, producerEpoch ${h.producerEpoch}`)] : []),
    ...producerSummary(b).map((t) => el("p", {}, t)),
  );
  // Checks.
  replace(E.checks, 
    el("thead", {}, el("tr", {}, el("th", { scope: "col" }, "Check"), el("th", { scope: "col" }, "Stored"), el("th", { scope: "col" }, "Expected"), el("th", { scope: "col" }, "Result"))),
    el("tbody", {}, checks(b, b.truncated ? view.input.bytes.length - d.start : d.end - d.start, view.frames.count > 1).map((c) =>
      el("tr", { "data-check": c.name, class: c.ok ? "ok" : "bad" },
        el("th", { scope: "row" }, c.name), el("td", { class: "mono" }, c.stored), el("td", { class: "mono" }, c.expected),
        el("td", { class: c.ok ? "ok" : "bad" }, c.ok ? "✓ ok" : "✗ mismatch")))),
  );
  renderBits(view, b);
  // Coverage bar.
  renderCoverage(view, b, d);
  // Grids.
  view.grid.setData({
    bytes: view.input.bytes.subarray(d.start, d.end),
    base: d.start,
    owner: d.ownerMain,
    starts: d.startsMain,
    classOf: (k) => "k-" + d.F[k].doc.kind,
    rowLabel: (from, to) => rowLabel(view, d.ownerMain, d.startsMain, d.start, from, to),
    marks: new Map(),
    xcrcEnd: b.legacy ? d.start + 16 : d.start + 21,
  });
  if (d.decBytes) {
    E.dec.hidden = false;
    const dz = b.decompressed;
    const csize = dz.compressedEnd - dz.compressedStart;
    const ratio = csize ? dz.size / csize : 0;
    setText(E.ratio, `${dz.codec}: the compressed payload (bytes ${dz.compressedStart}–${dz.compressedEnd - 1}, ${fmtInt(csize)} bytes) inflates to ${fmtInt(dz.size)} bytes of records: compression ratio ${ratio.toFixed(2)} : 1${ratio < 1 ? " (the payload got bigger: too small to compress)" : ""}. Offsets in this pane count from the start of the decompressed records.`);
    view.decGrid.setData({
      bytes: d.decBytes,
      base: 0,
      owner: d.ownerDec,
      starts: d.startsDec,
      classOf: (k) => "k-" + d.F[k].doc.kind,
      rowLabel: (from, to) => rowLabel(view, d.ownerDec, d.startsDec, 0, from, to),
    });
  } else {
    E.dec.hidden = true;
    view.decGrid.setData({ bytes: new Uint8Array(0) });
  }
  renderLegend(view, d);
  renderPage(view);
  renderMarks(view);
  renderEdit(view, !keep || (keep.from !== "form" && keep.from !== "spans"));
  if (view.comparing) renderCompare(view);
  const activeK = keep?.active ? d.F.findIndex((f) => f.name + "@" + f.buf === keep.active) : -1;
  if (activeK >= 0) view.setActive(activeK, "restore");
  else view.setActive(-1, "hover");
  if (keep && keep.focus >= 0 && keep.focus < d.end) view.grid.setFocus(keep.focus, { scroll: false, notify: false });
  // Paint the rows in view now rather than on the next frame: the decode event means "rendered".
  view.grid.flush();
  view.decGrid.flush();
}

export function renderBits(view, b) {
  const raw = b.header.attributes.raw;
  const cells = [];
  for (let bit = 15; bit >= 0; bit--) {
    const on = (raw >> bit) & 1;
    cells.push(el("span", { class: `bit${on ? " on" : ""}`, title: `bit ${bit}` }, String(on)));
  }
  const a = b.header.attributes;
  const values = { "delete horizon": a.deleteHorizon, control: a.control, transactional: a.transactional, "timestamp type": a.timestampType, "compression codec": a.compression, unused: "0" };
  const legacyNote = b.legacy ? el("p", { class: "muted small" }, "Legacy messages have one attributes byte: codec in bits 0–2, timestamp type in bit 3 (magic 1).") : null;
  replace(view.els.bits, 
    el("div", { class: "bitrow mono", role: "img", "aria-label": `attributes ${hex32(raw).replace("0x0000", "0x")} in binary: ${raw.toString(2).padStart(16, "0")}` }, cells),
    el("div", { class: "bitlabels mono", "aria-hidden": "true" }, "15 …          7 6 5 4 3 2 1 0"),
    el("dl", { class: "bitdefs" }, ATTRIBUTE_BITS.map((g) => [
      el("dt", {}, g.bits[0] === g.bits[1] ? `bit ${g.bits[0]}` : `bits ${g.bits[1]}–${g.bits[0]}`),
      el("dd", {}, `${g.label}: ${String(values[g.label])}`),
    ])),
    legacyNote,
  );
}

export function renderCoverage(view, b, d) {
  const total = d.end - d.start;
  const E = view.els;
  if (b.legacy) {
    replace(E.coverage, el("p", { class: "small" }, `CRC-32 covers bytes ${d.start + 16}–${d.end - 1} (magic to the end of the value); bytes ${d.start}–${d.start + 15} (offset, size, crc) are outside it (dashed top edge in the map).`));
    return;
  }
  const seg = (cls, from, to, label) => {
    const node = el("span", { class: `cov ${cls}` }, label);
    node.style.flexGrow = String(Math.max(1, to - from));
    return node;
  };
  replace(E.coverage, 
    el("div", { class: "covbar", "aria-hidden": "true" },
      seg("pre", 0, 17, "0–16 not in CRC"), seg("crcf", 17, 21, "crc"), seg("in", 21, Math.max(22, total), `21–${total - 1} covered by CRC-32C`)),
    el("p", { class: "small" },
      `CRC-32C covers bytes ${d.start + 21}–${d.end - 1} (attributes to the end). Bytes ${d.start}–${d.start + 16} (baseOffset, batchLength, partitionLeaderEpoch, magic) and the crc field itself are outside it, so a broker can set the offset and leader epoch without recomputing the CRC; they have a dashed top edge in the map.`),
  );
}

export function rowLabel(view, owner, starts, base, from, to) {
  const d = view.d;
  const tags = [];
  for (let p = from; p < to; p++) {
    const rel = p - base;
    if (!starts[rel]) continue;
    const k = owner[rel];
    if (k < 0) continue;
    const f = d.F[k];
    tags.push(starts[rel] === 2 && f.rec >= 0 ? `r${f.rec}:${f.doc.tag}` : f.doc.tag);
  }
  return tags.join(" ");
}

export function renderLegend(view, d) {
  const seen = new Map();
  for (const f of d.F) {
    const key = f.doc.kind;
    if (key === "r-r" || key === "r-h" || key === "h-rec") continue;
    if (!seen.has(key)) seen.set(key, f);
  }
  replace(view.els.legend, 
    ...[...seen.values()].map((f) => {
      return el("li", {}, el("span", { class: `sw b k-${f.doc.kind}`, "aria-hidden": "true" }, f.doc.tag), ` ${f.doc.label}`);
    }),
    el("li", {}, el("span", { class: "sw b fs", "aria-hidden": "true" }, "│"), " a field starts"),
    el("li", {}, el("span", { class: "sw b rs", "aria-hidden": "true" }, "┃"), " a record starts"),
    el("li", {}, el("span", { class: "sw b xcrc", "aria-hidden": "true" }, "--"), " outside the CRC"),
    el("li", {}, el("span", { class: "sw b err", "aria-hidden": "true" }, "!!"), " a problem is pinned here"),
  );
}

/** Field table + records table for the current records page. */
export function renderPage(view) {
  const d = view.d;
  if (!d?.batch) return;
  const b = d.batch;
  const nrec = b.records.length;
  const pages = Math.max(1, Math.ceil(nrec / RECORDS_PAGE));
  view.page = Math.min(view.page, pages - 1);
  const from = view.page * RECORDS_PAGE;
  const to = Math.min(nrec, from + RECORDS_PAGE);
  const rows = [];
  const derivedAfter = { crc: ["crcComputed", "crcValid"], attributes: ["attributes.compression", "attributes.timestampType", "attributes.transactional", "attributes.control", "attributes.deleteHorizon"], lastOffsetDelta: ["lastOffset"], baseSequence: ["lastSequence"] };
  let firstButton = true;
  for (const f of d.F) {
    if (f.rec >= 0 && (f.rec < from || f.rec >= to)) continue;
    rows.push(fieldRow(view, f, b, firstButton));
    firstButton = false;
    if (!b.legacy && derivedAfter[f.name] && f.buf === "main") {
      for (const name of derivedAfter[f.name]) rows.push(derivedRow(view, name, b));
    }
  }
  replace(view.els.fields, ...rows);
  // Records table.
  const recs = [];
  for (let i = from; i < to; i++) {
    const r = b.records[i];
    recs.push(el("tr", { "data-record": i },
      el("td", { class: "num" }, i),
      el("td", { class: "mono" }, r.offset),
      el("td", { class: "mono" }, timestampText(r.timestamp)),
      el("td", { class: "mono" }, r.sequence),
      el("td", { class: "mono" }, b.control ? `${b.control.type} key` : bytesPreview(r.key)),
      el("td", { class: "mono" }, b.control && b.control.coordinatorEpoch !== null ? `coordinatorEpoch ${b.control.coordinatorEpoch}` : bytesPreview(r.value)),
      el("td", { class: "mono" }, r.headers.map((x) => el("div", {}, `${JSON.stringify(x.key)} = ${bytesPreview(x.value)}`)))));
    if (view.formatter && !b.control) recs.push(formattedRow(view, i, r));
  }
  replace(view.els.records, ...recs);
  if (!nrec) replace(view.els.records, el("tr", {}, el("td", { colspan: "7", class: "muted" }, b.truncated ? "No records: the batch is truncated." : "No records decoded.")));
  setText(view.els.recordsTitle, `Records (${fmtInt(nrec)})`);
  for (const pager of [view.els.pager, view.els.pager2]) {
    if (pages <= 1) {
      replace(pager, );
      continue;
    }
    replace(pager, 
      el("button", { type: "button", "data-page": view.page - 1, disabled: view.page === 0 }, "◀ Previous records"),
      el("span", { class: "muted" }, ` records ${from}–${to - 1} of ${fmtInt(nrec)} `),
      el("button", { type: "button", "data-page": view.page + 1, disabled: view.page >= pages - 1 }, "Next records ▶"),
    );
  }
  if (view.active >= 0) view.markRows(view.active);
}

/** The formatter's line for record i, as text (it comes from the input). */
export function formattedRow(view, i, r) {
  const topic = view.formatter === "offsets" ? "__consumer_offsets" : "__transaction_state";
  const text = r.formatted === undefined || r.formatted === null
    ? `(not readable as a ${topic} record: see Problems)`
    : r.formatted === "" ? "(the formatter prints nothing for this record)" : r.formatted;
  return el("tr", { class: "formatted", "data-formatted": i },
    el("td", { class: "muted small" }, "↳"),
    el("td", { colspan: "6", class: "mono formatted-text", title: `kafka-console-consumer --formatter output (${topic})` }, text));
}

export function fieldRow(view, f, b, tabbable) {
  const doc = f.doc;
  const label = labelOf(doc, f.rec, f.name);
  const depth = (f.name.match(/\.|\]\./g) ?? []).length + (/^records\[\d+\]$/.test(f.name) ? 0 : f.name.startsWith("records[") ? 1 : 0);
  const src = f.buf === "dec" ? view.d.decBytes : view.input.bytes;
  const rawFrom = f.start;
  const rawTo = Math.min(f.end, f.start + 16);
  const raw = src ? toHex(src.subarray(rawFrom, rawTo)) + (f.end - f.start > 16 ? ` … (${fmtInt(f.end - f.start)} bytes)` : "") : "";
  const offset = f.buf === "dec" ? `dec+${f.start}` : String(f.start);
  const value = fieldValue(f.name, b);
  return el("tr", { "data-field": f.name, "data-k": f.k, class: `d${Math.min(depth, 3)}${/^records\[\d+\]$/.test(f.name) ? " group" : ""}` },
    el("th", { scope: "row" },
      el("span", { class: `sw b k-${doc.kind}`, "aria-hidden": "true" }, doc.tag), " ",
      el("button", { type: "button", class: "fname", tabindex: tabbable ? "0" : "-1", title: "Show these bytes in the byte map" }, f.buf === "dec" ? `${label} (decompressed)` : label)),
    el("td", { class: "v mono" }, value),
    el("td", { class: "num mono" }, offset),
    el("td", { class: "num" }, f.end - f.start),
    el("td", { class: "mono raw" }, raw),
    el("td", { class: "meaning" }, doc.meaning),
    el("td", { class: "kafka small" }, doc.kafka));
}

export function derivedRow(view, name, b) {
  const [meaning, kafka] = DERIVED[name];
  const value = fieldValue(name, b);
  const bad = name === "crcValid" && !b.header.crcValid;
  return el("tr", { "data-field": name, class: `derived d1${bad ? " badrow" : ""}` },
    el("th", { scope: "row" }, el("span", { class: "fname-d" }, name), el("span", { class: "muted small" }, " derived")),
    el("td", { class: `v mono${name === "crcValid" ? (b.header.crcValid ? " ok" : " bad") : ""}` }, value),
    el("td", { class: "num muted" }, "—"), el("td", { class: "num muted" }, "—"), el("td", { class: "muted" }, "—"),
    el("td", { class: "meaning" }, meaning), el("td", { class: "kafka small" }, kafka));
}

// --- compare ---
export function renderCompare(view) {
  const E = view.els;
  const d = view.d;
  E.compare.hidden = !view.comparing || !d?.batch;
  E.btnCompare.setAttribute("aria-pressed", String(view.comparing));
  view.compareB = null;
  if (E.compare.hidden) {
    renderMarks(view);
    return;
  }
  const text = E.compareInput.value;
  if (!text.trim()) {
    replace(E.compareOut, el("p", { class: "muted" }, "Paste batch B, or build one with the buttons above."));
    renderMarks(view);
    return;
  }
  let bytes;
  try {
    bytes = view.detect(text).bytes;
  } catch (err) {
    replace(E.compareOut, el("p", { class: "bad" }, `Batch B: ${err.message}`));
    return;
  }
  const r = view.eoslab.decode(bytes, { spans: false });
  const bB = r.batches[0];
  if (!bB) {
    replace(E.compareOut, el("p", { class: "bad" }, `Batch B does not decode: ${r.errors[0]?.message ?? "no batch"}`));
    return;
  }
  const a = d.batch;
  const A = view.input.bytes.subarray(d.start, d.end);
  const diff = [];
  const n = Math.max(A.length, bytes.length);
  for (let i = 0; i < n; i++) if (A[i] !== bytes[i]) diff.push(d.start + i);
  const names = ["baseOffset", "batchLength", "partitionLeaderEpoch", "crc", "producerId", "producerEpoch", "baseSequence", "lastSequence", "recordsCount", "lastOffsetDelta", "baseTimestamp"];
  const rows = names.map((nm) => {
    const va = fieldValue(nm, a);
    const vb = fieldValue(nm, bB);
    const same = va === vb;
    return el("tr", { class: same ? "" : "differs" }, el("th", { scope: "row" }, nm), el("td", { class: "mono" }, va), el("td", { class: "mono" }, vb), el("td", {}, same ? "= same" : "≠ differs"));
  });
  const attrSame = a.header.attributes.raw === bB.header.attributes.raw;
  rows.push(el("tr", { class: attrSame ? "" : "differs" }, el("th", { scope: "row" }, "attributes"), el("td", { class: "mono" }, fieldValue("attributes", a)), el("td", { class: "mono" }, fieldValue("attributes", bB)), el("td", {}, attrSame ? "= same" : "≠ differs")));
  const recSame = JSON.stringify(a.records.map((x) => [x.key, x.value])) === JSON.stringify(bB.records.map((x) => [x.key, x.value]));
  rows.push(el("tr", { class: recSame ? "" : "differs" }, el("th", { scope: "row" }, "record keys/values"), el("td", {}, `${a.records.length} record(s)`), el("td", {}, `${bB.records.length} record(s)`), el("td", {}, recSame ? "= same" : "≠ differs")));
  view.compareB = { batch: bB, diff: diff.filter((p) => p < d.end) };
  replace(E.compareOut, 
    el("p", { id: "compare-verdict", class: "verdict" }, compareVerdict(a, bB)),
    el("table", { id: "compare-table", class: "checks" },
      el("thead", {}, el("tr", {}, ["Field", "A (opened)", "B", "Same?"].map((x) => el("th", { scope: "col" }, x)))),
      el("tbody", {}, rows)),
    el("p", { class: "small" }, diff.length === 0 ? "The bytes are identical." : `${fmtInt(diff.length)} byte(s) differ${A.length !== bytes.length ? ` (A has ${A.length} bytes, B ${bytes.length})` : ""}; they are marked ≠ (dotted outline) in A's byte map.`),
  );
  renderMarks(view);
}

// --- send to a leader ---
/** Is the opened batch one a producer could send (a decoded v2 data batch)? */
export function leaderCan(view) {
  const b = view.d?.batch;
  return Boolean(b && !b.legacy && !b.control && !b.truncated);
}

export function renderLeader(view) {
  const E = view.els;
  const d = view.d;
  const can = leaderCan(view);
  E.btnLeader.disabled = !can;
  E.btnLeader.title = can ? "Send this batch as a Produce (acks=-1) to a partition leader whose producer state you set, and see its answer with the rule"
    : "Only a v2 data batch can be sent by a producer (not a legacy message, a control batch or a truncated batch)";
  E.btnLeader.setAttribute("aria-pressed", String(view.leaderOpen));
  E.leader.hidden = !view.leaderOpen || !can || view.el.readOnly;
  if (E.leader.hidden) return;
  // A batch opened (or re-encoded) since the form was filled: its own producer fields as the
  // entry's starting values; the state stays "empty" until the user picks the entry.
  const h = d.batch.header;
  const key = `${d.index}:${h.producerId}:${h.producerEpoch}:${h.baseSequence}:${h.lastSequence}:${h.baseOffset}`;
  if (view.leaderFor === key) return;
  view.leaderFor = key;
  const q = (id) => E.leaderState.querySelector(`#${id}`);
  q("leader-pid").value = String(h.producerId);
  q("leader-epoch").value = String(h.producerEpoch);
  q("leader-first").value = String(h.baseSequence);
  q("leader-last").value = String(h.lastSequence);
  q("leader-offset").value = "";
  E.leaderZeroRow.hidden = String(h.baseOffset) === "0";
  replace(E.leaderOut);
}

/** The form as sendToLeader's question, or a message naming the field that is not a number. */
export function leaderQuestion(view) {
  const E = view.els;
  const q = (id) => E.leaderState.querySelector(`#${id}`);
  const question = { transactionalId: E.leaderTid.value.trim(), zeroBaseOffset: !E.leaderZeroRow.hidden && E.leaderZero.checked, producer: null };
  if (!q("leader-entry").checked) return { question };
  const int = (id, name, optional = false) => {
    const t = q(id).value.trim();
    if (optional && t === "") return undefined;
    if (!/^-?\d+$/.test(t) || !Number.isSafeInteger(Number(t))) throw Object.assign(new Error(`${name}: a whole number, not ${JSON.stringify(t)}`), { input: q(id) });
    return Number(t);
  };
  question.producer = {
    producerId: int("leader-pid", "producerId"), epoch: int("leader-epoch", "epoch"),
    firstSequence: int("leader-first", "first sequence"), lastSequence: int("leader-last", "last sequence"),
    baseOffset: int("leader-offset", "first offset", true),
  };
  return { question };
}

export async function sendToLeader(view) {
  const E = view.els;
  const d = view.d;
  if (!leaderCan(view)) return;
  const seq = ++view.leaderSeq;
  for (const i of E.leaderState.querySelectorAll("input")) i.removeAttribute("aria-invalid");
  const show = (text, bad = false) => replace(E.leaderOut, el("p", { class: bad ? "bad" : "muted" }, text));
  let question;
  try {
    ({ question } = leaderQuestion(view));
  } catch (err) {
    err.input?.setAttribute("aria-invalid", "true");
    show(err.message, true);
    return;
  }
  const full = await view.encoder(show);
  if (!full || seq !== view.leaderSeq || view.d !== d) return;
  let r;
  try {
    r = full.sendToLeader(view.input.bytes.slice(d.start, d.end), question);
  } catch (err) {
    show(`The leader cannot hold that state: ${err instanceof Error ? err.message : err}`, true);
    return;
  }
  const outcome = r.outcome ?? "rejected";
  const offsets = r.offsets ? `offsets ${r.offsets[0]}–${r.offsets[1]}` : null;
  const head = outcome === "appended" ? `Appended at ${offsets}`
    : outcome === "duplicate" ? `Duplicate: nothing written; the answer carries the original ${offsets}`
    : `Rejected: ${r.error} (${r.errorCode})`;
  const dl = [
    ["outcome", outcome], ["error", `${r.error} (${r.errorCode})`], ["rule", r.rule || "—"],
    ...(offsets ? [["offsets", offsets.replace("offsets ", "")]] : []),
    ...(r.byteOffset !== undefined && r.byteOffset !== null ? [["byte", String(d.start + r.byteOffset)]] : []),
    ["Kafka source", r.source || "—"],
  ];
  replace(E.leaderOut,
    el("p", { id: "leader-verdict", class: `verdict ${outcome === "rejected" ? "bad" : "ok"}`, "data-outcome": outcome, "data-rule": r.rule, "data-error": r.error }, head),
    el("dl", { id: "leader-answer", class: "leader-answer" }, dl.map(([k, v]) => el("div", { "data-k": k }, el("dt", {}, k), el("dd", { class: k === "Kafka source" ? "mono small" : "" }, v)))),
    el("p", { id: "leader-why" }, r.why));
}
