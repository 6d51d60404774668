// <kafka-batch>'s editing: typing bytes, Fix CRC, the edit form (encodeBatch) and replacing the opened
// batch's bytes. `view` is the element's view (element.js #view).
import { toHex } from "../lib/bytes.js";
import { el, replace, setText } from "../lib/dom.js";
import { hex32, textOf } from "../lib/format.js";
import { encoderIfLoaded } from "../lib/wasm.js";
import { KafkaBatchEditEvent } from "./events.js";
import { fmtInt, hex2 } from "./format.js";
import { BIG_TEXT, EDIT_MAX_BYTES } from "./limits.js";

export const FORM_HEADER = [
  ["baseOffset", "int64"], ["partitionLeaderEpoch", "int32"], ["baseTimestamp", "int64"], ["maxTimestamp", "int64"],
  ["producerId", "int64"], ["producerEpoch", "int16"], ["baseSequence", "int32"],
];

// --- editing ---
export function keepState(view, from) {
  const f = view.active >= 0 ? view.d?.F[view.active] : null;
  return { sel: view.sel, active: f ? f.name + "@" + f.buf : null, focus: view.grid.focusPos, page: view.page, from };
}

export function replaceBatchBytes(view, newBatch, how) {
  const d = view.d;
  const old = view.input.bytes;
  const out = new Uint8Array(old.length - (d.end - d.start) + newBatch.length);
  out.set(old.subarray(0, d.start), 0);
  out.set(newBatch, d.start);
  out.set(old.subarray(d.end), d.start + newBatch.length);
  commitBytes(view, out, how);
}

export function commitBytes(view, bytes, how) {
  const keep = keepState(view, how);
  view.loadBytes(bytes, { format: "edited", stripped: [], label: view.input.label }, keep);
  if (bytes.length * 3 <= BIG_TEXT && view.els.input && !view.el.readOnly) view.els.input.value = toHex(bytes, " ", 16);
  const b = view.d?.batch;
  view.emit(new KafkaBatchEditEvent({ batch: view.sel, how, length: bytes.length, crcValid: Boolean(b?.header.crcValid) }));
}

export function typeByte(view, pos, value) {
  if (view.el.readOnly || !view.input || view.input.bytes.length > EDIT_MAX_BYTES) return;
  const bytes = view.input.bytes.slice();
  const before = bytes[pos];
  bytes[pos] = value;
  commitBytes(view, bytes, "byte");
  const h = view.d?.batch?.header;
  view.announce(`Byte ${pos} changed from ${hex2(before)} to ${hex2(value)}.${h ? ` CRC ${h.crcValid ? "valid" : `now invalid: stored ${hex32(h.crc)}, computed ${hex32(h.crcComputed)}`}.` : ""}`);
}

export function fixCrc(view) {
  const d = view.d;
  if (!d?.crcField || d.batch.header.crcValid) return;
  const bytes = view.input.bytes.slice();
  const c = d.batch.header.crcComputed >>> 0;
  const at = d.crcField.start;
  bytes[at] = c >>> 24;
  bytes[at + 1] = (c >>> 16) & 0xff;
  bytes[at + 2] = (c >>> 8) & 0xff;
  bytes[at + 3] = c & 0xff;
  commitBytes(view, bytes, "fix-crc");
  view.announce(`CRC fixed: ${hex32(c)} written at bytes ${at}–${at + 3}.`);
}

export function renderEdit(view, rebuild) {
  const E = view.els;
  const d = view.d;
  E.btnEdit.setAttribute("aria-pressed", String(view.editing));
  E.edit.hidden = !view.editing || view.el.readOnly || !d?.batch;
  if (E.edit.hidden) {
    view.formFor = -1;
    return;
  }
  if (!rebuild && view.formFor === d.index) return;
  view.formFor = d.index;
  const b = d.batch;
  const h = b.header;
  const hint = "Change a value: the batch is re-encoded with encodeBatch and the bytes, CRC and checks update at once. (Typing hex digits over a focused byte in the map edits raw bytes without fixing the CRC.)";
  const status = el("p", { id: "edit-status", role: "status", class: "muted" }, hint);
  // Opening the form starts loading the encoder (the full package), so it is usually there by
  // the first change; until then the status says so.
  if (!encoderIfLoaded()) {
    view.encoder((text, bad) => {
      setText(status, text);
      status.className = bad ? "bad" : "muted";
    }).then((enc) => {
      if (enc && /^Loading the encoder/.test(status.textContent)) setText(status, hint);
    });
  }
  const inputs = [];
  const field = (id, label, value, attrs = {}) => {
    const input = el("input", { id: `edit-${id}`, "data-edit": id, value: String(value), inputmode: "numeric", spellcheck: "false", ...attrs });
    inputs.push(input);
    return el("div", { class: "fld" }, el("label", { for: `edit-${id}` }, label), input);
  };
  const headerFields = b.legacy ? [] : FORM_HEADER.map(([name, type]) => field(name, `${name} (${type})`, h[name]));
  const codec = el("select", { id: "edit-compression", "data-edit": "compression" },
    ["none", "gzip", "snappy", "lz4", "zstd"].map((c) => el("option", { value: c, selected: h.attributes.compression === c }, c)));
  const tsType = el("select", { id: "edit-timestampType", "data-edit": "timestampType" },
    ["CreateTime", "LogAppendTime"].map((c) => el("option", { value: c, selected: h.attributes.timestampType === c }, c)));
  const check = (id, label, on) => {
    const input = el("input", { type: "checkbox", id: `edit-${id}`, "data-edit": id, checked: on });
    return el("div", { class: "fld chk" }, input, el("label", { for: `edit-${id}` }, label));
  };
  const attrs = b.legacy ? [] : [
    el("div", { class: "fld" }, el("label", { for: "edit-compression" }, "compression"), codec),
    el("div", { class: "fld" }, el("label", { for: "edit-timestampType" }, "timestampType"), tsType),
    check("transactional", "transactional", h.attributes.transactional),
    check("control", "control", h.attributes.control),
  ];
  let recordsBox = null;
  if (b.control && (b.control.type === "COMMIT" || b.control.type === "ABORT")) {
    recordsBox = el("fieldset", {}, el("legend", {}, "Transaction marker"),
      el("div", { class: "fld" }, el("label", { for: "edit-markerType" }, "marker"),
        el("select", { id: "edit-markerType", "data-edit": "markerType" }, ["COMMIT", "ABORT"].map((t) => el("option", { value: t, selected: b.control.type === t }, t)))),
      field("coordinatorEpoch", "coordinatorEpoch (int32)", b.control.coordinatorEpoch));
  } else if (!b.control && b.records.length) {
    const n = Math.min(b.records.length, 20);
    const recRows = [];
    for (let i = 0; i < n; i++) {
      const r = b.records[i];
      const keyText = r.key === null ? "" : textOf(r.key);
      const valText = r.value === null ? "" : textOf(r.value);
      recRows.push(el("div", { class: "recedit" },
        el("span", { class: "muted" }, `record ${i}`),
        field(`r${i}-key`, `key (${keyText === null ? "hex" : "text"}; empty = null)`, keyText ?? r.key, { inputmode: "text", "data-mode": keyText === null ? "hex" : "text" }),
        field(`r${i}-value`, `value (${valText === null ? "hex" : "text"}; empty = null)`, valText ?? r.value, { inputmode: "text", "data-mode": valText === null ? "hex" : "text" })));
    }
    recordsBox = el("fieldset", {}, el("legend", {}, `Records${b.records.length > n ? ` (first ${n} of ${b.records.length})` : ""}`), recRows);
  }
  const form = el("form", { id: "edit-form", novalidate: true },
    b.legacy ? el("p", { class: "muted" }, "Legacy messages: only the records can be edited here.") : null,
    headerFields.length ? el("fieldset", {}, el("legend", {}, "Header"), headerFields, attrs) : null,
    recordsBox, status);
  form.addEventListener("submit", (e) => e.preventDefault());
  let pending = 0;
  const apply = () => {
    clearTimeout(pending);
    pending = setTimeout(() => applyForm(view, form, status), 30);
  };
  form.addEventListener("input", apply);
  form.addEventListener("change", apply);
  replace(E.edit, el("h4", { id: "edit-title" }, `Edit batch ${d.index}`), form);
}

export async function applyForm(view, form, status) {
  const d = view.d;
  if (!d?.batch) return;
  const seq = ++view.encodeSeq;
  const spec = structuredClone(d.batch);
  const h = spec.header;
  let bad = null;
  for (const input of form.querySelectorAll("[data-edit]")) {
    input.removeAttribute("aria-invalid");
    const id = input.dataset.edit;
    const v = input.type === "checkbox" ? input.checked : input.value.trim();
    const typeOf = FORM_HEADER.find(([n]) => n === id)?.[1];
    if (typeOf) {
      if (!/^-?\d+$/.test(v)) {
        bad ??= input;
        input.setAttribute("aria-invalid", "true");
        continue;
      }
      h[id] = typeOf === "int64" ? v : Number(v);
    } else if (id === "compression" || id === "timestampType") h.attributes[id] = v;
    else if (id === "transactional" || id === "control") h.attributes[id] = v;
    else if (id === "markerType") spec.control.type = v;
    else if (id === "coordinatorEpoch") {
      if (!/^-?\d+$/.test(v)) {
        bad ??= input;
        input.setAttribute("aria-invalid", "true");
        continue;
      }
      spec.control.coordinatorEpoch = Number(v);
    } else {
      const m = /^r(\d+)-(key|value)$/.exec(id);
      if (!m) continue;
      const r = spec.records[Number(m[1])];
      const which = m[2];
      delete r[`${which}Text`];
      if (v === "") r[which] = null;
      else if (input.dataset.mode === "text") {
        r[which] = null;
        r[`${which}Text`] = input.value;
      } else if (/^([0-9a-fA-F]{2})*$/.test(v.replace(/\s+/g, ""))) r[which] = v.replace(/\s+/g, "").toLowerCase();
      else {
        bad ??= input;
        input.setAttribute("aria-invalid", "true");
      }
    }
  }
  if (bad) {
    setText(status, `Not re-encoded: ${bad.labels?.[0]?.textContent ?? bad.id} must be ${bad.dataset.mode === "hex" ? "hex bytes" : "an integer"}.`);
    status.className = "bad";
    return;
  }
  const enc = await view.encoder((text, failed) => {
    setText(status, failed ? `Not re-encoded: ${text}` : text);
    status.className = failed ? "bad" : "muted";
  });
  // A later change, another batch or a closed form while the encoder loaded: this one is stale.
  if (!enc || seq !== view.encodeSeq || view.d !== d || !form.isConnected) return;
  let bytes;
  try {
    bytes = enc.encodeBatch(spec);
  } catch (err) {
    setText(status, `Not re-encoded: ${err instanceof Error ? err.message : err}`);
    status.className = "bad";
    return;
  }
  replaceBatchBytes(view, bytes, "form");
  const nh = view.d?.batch?.header;
  if (nh) {
    setText(status, `Re-encoded with encodeBatch: ${fmtInt(bytes.length)} bytes, crc ${hex32(nh.crc)} (${nh.crcValid ? "valid" : "invalid"}).`);
    status.className = "muted";
  }
}
