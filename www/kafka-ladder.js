// <kafka-ladder>: a scenario of the idempotence model drawn as a ladder (sequence diagram).
//
// A transactions script (`model transactions` first, as <kafka-timeline> takes it) is drawn from
// the very report the timeline draws (runTxnScenario): a lane per producer, the coordinator and
// each partition leader (consumers, __consumer_offsets and the outside system when a message
// reaches them), one row per request and answer with the rule that decided it, writes to
// __transaction_state as squares on the coordinator's lane; below, each leader's log end, HW, LSO,
// producer entries and aborted transactions, the clients' and the coordinator's state after the
// step; a message's record opens its bytes.
//
// One lane per producer (the client side) and one per partition leader; every event of the run
// is a row: sends, Produce requests as arrows from the producer to the leader (the rungs, labelled
// with batch, sequence range and epoch), the leader's decision where a request arrives (outcome,
// error name and code, the rule id and its sentence; the Kafka source file on hover and on
// keyboard selection), responses back to the producer, lost messages ending in a cross. Below the
// ladder: the leader's retained window per producer (the last 5 batches) and the client's batches
// after the current step, and one button per action the model allows next.
//
//   <kafka-ladder scenario="lost-response-retry"></kafka-ladder>    scenarios/<name>.eos
//   <kafka-ladder script="partition p&#10;producer app&#10;send app p x"></kafka-ladder>
//   <kafka-ladder>partition p
//   producer app
//   send app p x</kafka-ladder>                                       the text content
//
// Attributes (the source of truth; `script` wins over `scenario`, which wins over the text):
//   scenario   name of a built-in scenario, loaded from ../scenarios/<name>.eos next to this module
//   script     the scenario text, or a transactions script (or either one's JSON twin, starting
//              with "{"; a transactions script's has "model": "transactions")
//   step       the story step shown, 0..steps-1, or "end" (reflected; default: 0, the first). A story
//              step is a script line that does something with the `expect` lines after it, which
//              are shown as its checks (lib/player.js)
//   presenter  presenter mode (lib/player.js: fills the window, large type, the ladder zoomed)
//   transaction-version  "0" | "1" | "2", transactions scripts only: run on a cluster finalized at
//              that level whatever the script's `cluster` line says (as <kafka-timeline>'s)
//   readonly   no next-step buttons (stepping still works)
//   theme      "light" | "dark" | "auto" (default: the page's MkDocs / Docusaurus flag, else the OS; lib/theme.js)
//   compact    for a documentation column: controls, narration and ladder only (lane names never cut)
// Events (bubbling, composed): `kafka-ladder:step` {step, steps}; `kafka-ladder:script` {script}
// when a next-step button forked the story; `kafka-ladder:load` {steps, rows, ms, error} after
// each run (error: a script error when only the lines before it ran). Each is followed by its
// older, deprecated name (eoslab-step, eoslab-script, eoslab-load) with the same detail.
// Keyboard (lib/player.js; `?` lists them): anywhere in the element ←/→ step, Home/End first/last,
// Space play/pause, +/- speed, p presenter mode; in the ladder ↑/↓ select a row, Enter opens its
// batch, Escape clears.
//
// The model is deterministic, so step k is the run of the script's first k steps: the rows come
// from one run of the whole script (revealed step by step), the retained windows, batches and
// next steps from the same run (its per-step changes, folded: no re-run). The ladder is a canvas (HiDPI, only visible rows drawn,
// redrawn on a dirty flag once per animation frame), with an ordered list of the rows in view as
// its text alternative. Every value reaches the page as text: textContent or fillText, never
// innerHTML.
//
// This file is the entry: one script tag loads the element. The code lives in kafka-ladder/:
// element.js (the element: attributes, lifecycle, stepping, events), events.js, layout.js (columns,
// row heights, scrolling, hit testing), draw.js (the canvas), panels.js (the DOM panels and the rows'
// text alternative), dialogs.js (predict questions, export, the batch dialog) and styles.js.
export { KafkaLadderElement } from "./kafka-ladder/element.js";
export { STEP_EVENT, SCRIPT_EVENT, LOAD_EVENT, LadderStepEvent, LadderScriptEvent, LadderLoadEvent } from "./kafka-ladder/events.js";

// What this module exported before its rows moved to lib/ladder-rows.js.
export { PRESENTER_ZOOM, buildLadder, formatDuration, wrapText } from "./lib/ladder-rows.js";
