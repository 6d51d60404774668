// eoslab.js: one script tag registers every element —
//   <script type="module" src=".../eoslab/eoslab.js"></script>
// <kafka-batch>, <kafka-ladder>, <kafka-timeline> and <kafka-producer-config> (each module defines
// its element on import; the per-element modules can be loaded alone instead). Nothing is fetched
// but these modules until an element is used: each loads its wasm (pkg/, next to these files)
// relative to its own module URL on first use, once per page. Code fences are upgraded by the
// separate eoslab-fences.js.
export { KafkaBatchElement } from "./kafka-batch.js";
export { KafkaLadderElement } from "./kafka-ladder.js";
export { KafkaTimelineElement } from "./kafka-timeline.js";
export { KafkaProducerConfigElement } from "./kafka-producer-config.js";
