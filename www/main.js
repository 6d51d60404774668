// The lab page: one <kafka-batch> element (www/kafka-batch.js) plus sample buttons. The element
// loads the wasm package itself; this module only shares the same loader (lib/wasm.js) to show
// the version and build samples with encodeBatch / encodeSegment.
import "./kafka-batch.js";
import { loadEoslab } from "./lib/wasm.js";

// Kafka's record-batch reference, Example A: one idempotent batch, producerId 4242, epoch 1,
// baseSequence 7, one record with key "k" and value "v".
export const SAMPLE_HEX = [
  "00 00 00 00 00 00 00 00 00 00 00 3a ff ff ff ff",
  "02 8c 4a 54 5e 00 00 00 00 00 00 00 00 01 8b cf",
  "e5 68 00 00 00 01 8b cf e5 68 00 00 00 00 00 00",
  "00 10 92 00 01 00 00 00 07 00 00 00 01 10 00 00",
  "00 02 6b 02 76 00",
].join("\n");

// Example B (transactional, 2 records, a header, a null value) and Example C (COMMIT marker).
const SAMPLES = {
  transactional:
    "00 00 00 00 00 00 00 00 00 00 00 48 ff ff ff ff 02 95 13 a2 2f 00 10 00 00 00 01 00 00 01 8b cf e5 68 00 00 00 01 8b cf e5 68 fa " +
    "00 00 00 00 00 00 10 92 00 01 00 00 00 08 00 00 00 02 18 00 00 00 02 6b 02 76 02 02 68 02 78 12 00 f4 03 02 04 6b 32 01 00",
  commit:
    "00 00 00 00 00 00 00 0a 00 00 00 42 00 00 00 03 02 ab 14 49 b2 00 30 00 00 00 00 00 00 01 8b cf e5 69 f4 00 00 01 8b cf e5 69 f4 " +
    "00 00 00 00 00 00 10 92 00 01 ff ff ff ff 00 00 00 01 20 00 00 00 08 00 00 00 01 0c 00 00 00 00 00 07 00",
};

const kb = document.getElementById("kb");

function hex(bytes) {
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join(" ").replace(/((?:\S\S ){16})/g, "$1\n").trim();
}

async function sample(name, eoslab) {
  if (SAMPLES[name]) return kb.load(SAMPLES[name], name);
  if (name === "zstd") {
    const bytes = eoslab.encodeBatch({
      header: { attributes: { compression: "zstd" }, producerId: 4242, producerEpoch: 1, baseSequence: 10, baseTimestamp: 1700000000000 },
      records: [
        { keyText: "order-1", valueText: "{\"item\":\"book\",\"qty\":1}", headers: [{ key: "trace", valueText: "abc" }] },
        { offsetDelta: 1, timestampDelta: 5, keyText: "order-2", valueText: "{\"item\":\"book\",\"qty\":2}" },
        { offsetDelta: 2, timestampDelta: 9, keyText: "order-3", valueText: "{\"item\":\"book\",\"qty\":3}" },
      ],
    });
    return kb.load(hex(bytes), "zstd sample");
  }
  if (name === "segment") {
    const specs = [];
    for (let i = 0; i < 10000; i++) {
      specs.push({
        header: { baseOffset: i * 2, producerId: 1000 + (i % 5), producerEpoch: 0, baseSequence: Math.floor(i / 5) * 2, baseTimestamp: 1700000000000 + i,
          attributes: { compression: i % 10 === 9 ? "zstd" : "none", transactional: i % 7 === 0 } },
        records: [{ keyText: `k${i}`, valueText: `value ${i}` }, { offsetDelta: 1, valueText: `second ${i}` }],
      });
    }
    const bytes = eoslab.encodeSegment(specs);
    kb.load(new File([bytes], "generated-00000000000000000000.log"), "segment");
  }
}

async function main() {
  const eoslab = await loadEoslab();
  document.getElementById("version").textContent = `eoslab ${eoslab.version()}`;
  document.getElementById("sample").addEventListener("click", () => kb.load(SAMPLE_HEX, "sample"));
  document.getElementById("samples").addEventListener("click", (e) => {
    const name = e.target.closest("button[data-sample]")?.dataset.sample;
    if (name) sample(name, eoslab);
  });
  await kb.load(SAMPLE_HEX, "sample");
  document.body.dataset.ready = "1";
}

// The idempotence section below the inspector (<kafka-ladder>, <kafka-producer-config>) runs the
// models, which live only in the full package (pkg/eoslab_bg.wasm, about twice the decode-only
// module): its elements are imported when the section comes near the viewport, watched from the
// moment the inspector has rendered (before that, the section is near the top of an empty page).
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
