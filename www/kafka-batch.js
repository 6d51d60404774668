// <kafka-batch>: the Batch Inspector. Paste or drop Kafka bytes (hex in any layout, a dump, base64,
// a byte array, a binary batch or a whole .log segment) and see every byte explained: a hex + ASCII
// byte map coloured by field, linked both ways with a field table (offset, size, raw bytes, value,
// meaning, Kafka's name), the producer fields' idempotence meaning, truth checks against Kafka,
// problems pinned on their byte, decompressed records in a second pane, live editing through
// encodeBatch, a fix-CRC action, a compare mode and exports.
//
//   <script type="module" src=".../www/kafka-batch.js"></script>
//   <kafka-batch readonly hex="00 00 00 00 ..."></kafka-batch>
//
// One script tag is enough: this module defines the element and loads ../pkg/eoslab-decode.js (the
// decode-only package, and its wasm) relative to its own URL. It has no encoder: the edit form and
// the compare panel's "build B" buttons import the full ../pkg/eoslab.js on first use
// (lib/wasm.js encoder(); "Loading the encoder…" meanwhile); Fix CRC and byte typing need only the
// decoder. No network access beyond those same-origin files.
//
// Attributes (the source of truth; properties reflect them): hex, base64 (the input), readonly
// (no input box, no editing), batch (index of the opened batch), compare-hex (batch B of the
// compare panel), rows (byte-map height in rows); theme ("light" | "dark" | "auto", the default:
// the host page's MkDocs Material / Docusaurus flag, else prefers-color-scheme; lib/theme.js);
// compact (for a documentation column: the byte map, the header fields and a small field table,
// no input, no headings, no "No errors"; as tall as its content).
// Methods: load(text | Uint8Array | Blob); properties bytes, selectedBatch, ready, timing.
// Events (bubbling, composed): kafka-batch:decode, kafka-batch:select, kafka-batch:edit; kafka-batch:indexed
// (a worker checked every batch header), kafka-batch:spans (a big batch's record spans arrived),
// kafka-batch:messages-decode (the bytes were read as protocol messages). Each is followed by its
// deprecated older name (kafka-batch-decode …, kafka-messages-decode) with the same detail.
// Conventions follow github/relative-time-element: static define(), attributes coalesced into one
// microtask update, typed events, private #fields, an open shadow root.
//
// Every value from the input reaches the DOM through textContent / Text nodes (lib/dom.js el()),
// never as markup.
//
// This file is the entry: one script tag loads the element. The code lives in kafka-batch/:
// element.js (the element: attributes, lifecycle, input, selection), events.js, skeleton.js (the
// shadow DOM and its listeners), panels.js (what is shown of the bytes), edit.js (editing) and
// picture.js (the picture and file exports).
export { KafkaBatchElement } from "./kafka-batch/element.js";
export {
  DECODE_EVENT, SELECT_EVENT, EDIT_EVENT, INDEXED_EVENT, SPANS_EVENT, LEGACY_EVENT, KafkaBatchDecodeEvent, KafkaBatchSelectEvent, KafkaBatchEditEvent,
} from "./kafka-batch/events.js";
