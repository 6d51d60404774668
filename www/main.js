// The lab page: one <kafka-batch> element (www/kafka-batch.js) plus sample buttons, and the
// partition directory view (<kafka-partition>) and the packet capture view (<kafka-capture>), which load
// pkg/eoslab-files.js on first use. The element
// loads the decode-only wasm package itself; this module only shares the same loader (lib/wasm.js)
// to show the version. The samples are constants (lib/samples.js, checked against encodeBatch by
// tests/wasm/samples.test.mjs), except the 10,000-batch segment, which is encoded on demand by the
// full package (lib/wasm.js encoder(), imported on the first press of its button).
import "./kafka-batch.js";
import { OPEN_LOG_EVENT } from "./kafka-partition.js";
import { OPEN_EVENT as OPEN_EXCHANGE_EVENT } from "./kafka-capture.js";
import { CAPTURE_EVENT } from "./kafka-batch/events.js";
import { loadEoslab, encoder, encoderIfLoaded } from "./lib/wasm.js";
import { SAMPLE_HEX, SAMPLES, segmentSpecs } from "./lib/samples.js";
import { LinkWriter, decodeState, downloadText } from "./lib/link-state.js";

export { SAMPLE_HEX };

const kb = document.getElementById("kb");
const status = document.getElementById("sample-status");

function setStatus(text, bad = false) {
  if (!status) return;
  status.textContent = text;
  status.className = bad ? "error" : "muted";
}

let encodingSegment = false;

// --- the link: the inspector's input (a built-in sample's name, or the bytes) and selection -----

let loadedSample = null; // {name, bytes}: the sample loaded last, to tell it from pasted bytes
let restoring = true;
const b64 = (bytes) => {
  let s = "";
  for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(s);
};
const unb64 = (text) => Uint8Array.from(atob(text), (c) => c.charCodeAt(0));
/** Bytes as hex text, 16 bytes a line (what the inspector's hex box shows for a link's bytes). */
const hexText = (bytes) => {
  const lines = [];
  for (let i = 0; i < bytes.length; i += 16) lines.push(Array.from(bytes.subarray(i, i + 16), (b) => b.toString(16).padStart(2, "0")).join(" "));
  return lines.join("\n");
};
const sameBytes = (a, b) => a.length === b.length && a.every((x, i) => x === b[i]);

const isLoadedSample = (bytes) => !!loadedSample && sameBytes(loadedSample.bytes, bytes);

function linkState(bytes = kb.bytes, sample = isLoadedSample(bytes)) {
  const state = { v: 1, page: "inspector", batch: kb.batch };
  if (sample) state.sample = loadedSample.name;
  else state.bytes = b64(bytes);
  const field = kb.selectedField;
  if (field) state.field = field;
  return state;
}

function linkTooLong(why) {
  setStatus(`This input does not fit in a link (${why}): “Download the bytes” and open the file here (drop it on the inspector) to share it.`);
  history.replaceState(null, "", `${location.pathname}${location.search}`);
  offerDownload(true);
}

const writer = new LinkWriter({
  tooLong: (state, length) => linkTooLong(`${length.toLocaleString("en")} characters; links stop at 8,000`),
  written: () => offerDownload(false),
});

// Deflate compresses at most 1032:1, so the base64 of more bytes than this can never fit in a
// link of 8,000 characters: such an input goes to the download offer without being encoded (a
// 100 MB segment took seconds of base64 and deflate on the main thread after every open).
const LINK_BYTES_MAX = 5 * 1024 * 1024;

function offerDownload(on) {
  const b = document.getElementById("download-bytes");
  if (b) b.hidden = !on;
}

let writeTimer = 0;
function writeLink() {
  if (restoring) return;
  clearTimeout(writeTimer);
  writeTimer = setTimeout(() => {
    const bytes = kb.bytes;
    const sample = isLoadedSample(bytes);
    if (!sample && bytes.length > LINK_BYTES_MAX) {
      writer.cancel();
      linkTooLong(`${bytes.length.toLocaleString("en")} bytes: more than a link of 8,000 characters can hold`);
    } else {
      writer.write(linkState(bytes, sample));
    }
  }, 80);
}

/** Resolves once `kb` has opened batch `n` (or after 3 s). */
function openedBatch(n) {
  return new Promise((resolve) => {
    const t0 = performance.now();
    const poll = () => (kb.openedBatch === n || performance.now() - t0 > 3000 ? resolve(kb.openedBatch === n) : requestAnimationFrame(poll));
    poll();
  });
}

/** Restores the inspector from a link's state: the input, then the batch, then the field. */
/** Applies a link's state; whether it held bytes or named a sample (a damaged link's kept part may not). */
async function applyState(state) {
  const hasInput = (typeof state.sample === "string" && (state.sample === "sample" || SAMPLES[state.sample] || state.sample === "segment")) || typeof state.bytes === "string";
  if (!hasInput) return false;
  if (typeof state.sample === "string" && (state.sample === "sample" || SAMPLES[state.sample] || state.sample === "segment")) {
    if (state.sample === "sample") await loadSample("sample", SAMPLE_HEX);
    else await sample(state.sample);
  } else if (typeof state.bytes === "string") {
    loadedSample = null;
    // As hex text, like a paste: the inspector's hex box shows the bytes and they can be edited
    // there (a File would decode them with the box left empty).
    await kb.load(hexText(unb64(state.bytes)), "input-from-link");
  }
  const n = Number.isInteger(state.batch) && state.batch >= 0 ? state.batch : 0;
  if (n !== kb.openedBatch) kb.batch = n;
  if (await openedBatch(n)) {
    if (typeof state.field === "string") {
      // The field spans of a big batch follow a first paint: try until it is there.
      for (let i = 0; i < 60 && !kb.selectField(state.field); i++) await new Promise((r) => requestAnimationFrame(r));
    }
  }
  return true;
}

/** Loads a built-in sample (text or bytes), remembering it so the link names it instead of holding its bytes. */
async function loadSample(name, input) {
  await kb.load(input, name);
  loadedSample = { name, bytes: kb.bytes.slice() };
  writeLink();
}

async function sample(name, button) {
  if (SAMPLES[name]) {
    if (!encodingSegment) setStatus("");
    return loadSample(name, SAMPLES[name]);
  }
  if (name !== "segment" || encodingSegment) return;
  encodingSegment = true;
  button?.setAttribute("aria-busy", "true");
  try {
    let enc = encoderIfLoaded();
    if (!enc) {
      setStatus("Loading the encoder (pkg/eoslab.js)…");
      try {
        enc = await encoder();
      } catch (err) {
        setStatus(`Could not load the encoder (pkg/eoslab.js): ${err instanceof Error ? err.message : String(err)}`, true);
        return;
      }
    }
    setStatus("Encoding 10,000 batches…");
    // Let the status paint before the (synchronous, ~100 ms) encode.
    await new Promise((r) => setTimeout(r, 0));
    let bytes;
    try {
      bytes = enc.encodeSegment(segmentSpecs(10000));
    } catch (err) {
      setStatus(`Could not encode the segment: ${err instanceof Error ? err.message : String(err)}`, true);
      return;
    }
    setStatus("");
    await loadSample("segment", new File([bytes], "generated-00000000000000000000.log"));
  } finally {
    encodingSegment = false;
    button?.removeAttribute("aria-busy");
  }
}

async function main() {
  const eoslab = await loadEoslab();
  document.getElementById("version").textContent = `eoslab ${eoslab.version()}`;
  document.getElementById("sample").addEventListener("click", () => loadSample("sample", SAMPLE_HEX));
  document.getElementById("samples").addEventListener("click", (e) => {
    const button = e.target.closest("button[data-sample]");
    if (button) sample(button.dataset.sample, button).catch((err) => setStatus(String(err?.message ?? err), true));
  });
  // The partition view's "Open the log in the inspector": the segment goes to the inspector above.
  // A capture dropped on the inspector opens in the capture view; an exchange opened there comes
  // back to the inspector as its request's and response's bytes.
  kb.addEventListener(CAPTURE_EVENT, (e) => {
    const kc = document.getElementById("kc");
    if (!kc) return;
    e.preventDefault();
    kc.load(e.detail.file).catch((err) => setStatus(`Could not read the capture: ${err.message}`, true));
    document.getElementById("capture")?.scrollIntoView();
  });
  document.addEventListener(OPEN_EXCHANGE_EVENT, (e) => {
    kb.load(e.detail.bytes, e.detail.label);
    document.getElementById("inspector")?.scrollIntoView();
  });
  document.addEventListener(OPEN_LOG_EVENT, (e) => {
    kb.load(e.detail.file, "partition");
    document.getElementById("inspector")?.scrollIntoView();
  });
  for (const type of ["kafka-batch:decode", "kafka-batch:select", "kafka-batch:edit", "click", "keyup"]) kb.addEventListener(type, writeLink);
  document.getElementById("download-bytes")?.addEventListener("click", () => downloadText("eoslab-input.bin", kb.bytes, "application/octet-stream"));
  const linked = await decodeState();
  // A damaged link: {state, error} when a part of it could be read (shown, with what is wrong), {error} when none.
  const shown = linked?.state ? await applyState(linked.state) : false;
  if (!shown) await loadSample("sample", SAMPLE_HEX);
  if (linked?.error) setStatus(shown ? `Opened what the link still holds: ${linked.error}.` : `Could not open the link: ${linked.error}; showing the sample.`, true);
  restoring = false;
  writeLink();
  window.addEventListener("hashchange", async () => {
    if (writer.last === location.hash) return;
    const l = await decodeState();
    if (l?.error) setStatus(l.state ? `Opened what the link still holds: ${l.error}.` : `Could not open the link: ${l.error}.`, true);
    if (!l?.state) return;
    restoring = true;
    await applyState(l.state);
    restoring = false;
  });
  document.body.dataset.ready = "1";
}

// The idempotence section below the inspector (<kafka-ladder>, <kafka-producer-config>) runs the
// models, which live only in the full package (pkg/eoslab_bg.wasm, nearly three times the
// decode-only module): its elements are imported when the section comes near the viewport, watched
// from the moment the inspector has rendered (before that, the section is near the top of an empty page).
function lazyIdempotence() {
  const section = document.getElementById("idempotence");
  if (!section) return;
  const load = () => import("./idempotence-elements.js").catch((err) => console.error(err));
  if (!("IntersectionObserver" in window)) return void load();
  const io = new IntersectionObserver((entries) => {
    if (!entries.some((e) => e.isIntersecting)) return;
    io.disconnect();
    load();
  }, { rootMargin: "200px 0px" });
  io.observe(section);
}

main().finally(lazyIdempotence).catch((err) => {
  const p = document.createElement("p");
  p.className = "error";
  p.textContent = `failed to load the decoder: ${err instanceof Error ? err.message : String(err)}`;
  document.querySelector("main").prepend(p);
  console.error(err);
});
