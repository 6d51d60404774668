// The lab page: one <kafka-batch> element (www/kafka-batch.js) plus sample buttons, and the
// partition directory view (<kafka-partition>, which loads pkg/eoslab-files.js on first use). The element
// loads the decode-only wasm package itself; this module only shares the same loader (lib/wasm.js)
// to show the version. The samples are constants (lib/samples.js, checked against encodeBatch by
// tests/wasm/samples.test.mjs), except the 10,000-batch segment, which is encoded on demand by the
// full package (lib/wasm.js encoder(), imported on the first press of its button).
import "./kafka-batch.js";
import { OPEN_LOG_EVENT } from "./kafka-partition.js";
import { loadEoslab, encoder, encoderIfLoaded } from "./lib/wasm.js";
import { SAMPLE_HEX, SAMPLES, segmentSpecs } from "./lib/samples.js";

export { SAMPLE_HEX };

const kb = document.getElementById("kb");
const status = document.getElementById("sample-status");

function setStatus(text, bad = false) {
  if (!status) return;
  status.textContent = text;
  status.className = bad ? "error" : "muted";
}

let encodingSegment = false;

async function sample(name, button) {
  if (SAMPLES[name]) {
    if (!encodingSegment) setStatus("");
    return kb.load(SAMPLES[name], name);
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
    await kb.load(new File([bytes], "generated-00000000000000000000.log"), "segment");
  } finally {
    encodingSegment = false;
    button?.removeAttribute("aria-busy");
  }
}

async function main() {
  const eoslab = await loadEoslab();
  document.getElementById("version").textContent = `eoslab ${eoslab.version()}`;
  document.getElementById("sample").addEventListener("click", () => kb.load(SAMPLE_HEX, "sample"));
  document.getElementById("samples").addEventListener("click", (e) => {
    const button = e.target.closest("button[data-sample]");
    if (button) sample(button.dataset.sample, button).catch((err) => setStatus(String(err?.message ?? err), true));
  });
  // The partition view's "Open the log in the inspector": the segment goes to the inspector above.
  document.addEventListener(OPEN_LOG_EVENT, (e) => {
    kb.load(e.detail.file, "partition");
    document.getElementById("inspector")?.scrollIntoView();
  });
  await kb.load(SAMPLE_HEX, "sample");
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
