// <kafka-timeline>: a scenario of the transactions model drawn as swimlanes, one step at a time.
//
// One horizontal lane per participant of the run (as the core's report lists them): producers
// (client state, producer id and epoch, an outcome that is UNKNOWN while a commit response is
// outstanding), the transaction coordinator (its state for each transactional id and the records
// it wrote to __transaction_state), every data partition (record batches as cells by offset, the
// COMMIT/ABORT markers as solid cells, the HW and LSO pointers, aborted ranges hatched, open
// transactions dashed), __consumer_offsets (pending vs committed group offsets), consumers
// (read_committed beside read_uncommitted: their positions and what they received, aligned with
// the partition's offsets) and the external effects. The messages of the current step are drawn as
// numbered arrows between the lanes (lost ones end in a cross) and listed as text. Below: the
// narration of the step, the state of every lane as text, the metrics after the step (the Java
// client's and the brokers' counter names, with what the step added) as a table, the invariants
// (broken ones highlighted) and one button per action the model allows after the last step. When
// the run completes two transactions or more (report.completions), a small plot of commit latency
// (EndTxn → Complete, model ms) against the partitions each touched, with the same numbers as a
// table (the accessible copy; only the completions up to the current step) and a caption naming
// the modelled costs (`cluster rtt=… append=… brokers=…`).
//
//   <kafka-timeline scenario="txn-commit-abort"></kafka-timeline>     scenarios/<name>.eos
//   <kafka-timeline script="model transactions&#10;…"></kafka-timeline>
//   el.report = reportJson                                             a precomputed TxnRunReport
//
// Attributes (the source of truth; `script` wins over `scenario`):
//   scenario   name of a built-in scenario, loaded from ../scenarios/<name>.eos next to this module
//   script     the scenario text (its first line is `model transactions`; an idempotence script
//              is drawn too: its own run, as runTxnScenario reports it with model "idempotence";
//              so is either script's JSON twin, text starting with "{" — a transactions script's
//              has "model": "transactions" — which offers no next-step lines)
//   step       the story step shown, 0..steps-1, or "end" (reflected; default: 0, the first). A story
//              step is a script line that does something with the `expect` lines after it, which
//              are shown as its checks (lib/player.js)
//   sabotage   passed to runTxnScenario(script, {sabotage}) — a test-only fault of the core
//   transaction-version  "0" | "1" | "2": run the script on a cluster finalized at that
//              transaction.version (runTxnScenario's {transactionVersion}), whatever its own
//              `cluster transaction.version=` line says — the same script under V1 and V2 side by
//              side; absent (or empty): the script's own. Reflected as the property
//              `transactionVersion` (a number, or null when absent); any other value is an error.
//   readonly   no next-step buttons (stepping still works)
//   inspector  id of a <kafka-batch> in the same document: records open there instead of in a dialog
//   theme      "light" | "dark" | "auto" (default: the page's MkDocs / Docusaurus flag, else the OS; lib/theme.js)
//   compact    for a documentation column: controls, narration and lanes only (lane labels never
//              cut: the label column widens, the logs scroll inside the element)
// Events (bubbling, composed): `kafka-timeline:step` {step, steps}; `kafka-timeline:script`
// {script} when a next-step button appended a line; `kafka-timeline:load` {steps, records, ms,
// error} after each run; `kafka-timeline:open` {record, label, hex} when a record is opened.
// Keyboard (lib/player.js; `?` lists them): anywhere in the element ←/→ step, Home/End first/last
// step, Space play/pause, +/- speed (on the slider also ↑/↓, and PageUp/PageDown a tenth of the
// run); in the lanes ↑/↓
// select a record lane, Shift+←/→ (or [ and ]) the previous/next record, Enter opens the selected
// record's bytes in <kafka-batch>, Escape clears the selection.
//
// Everything is decided by the core (runTxnScenario in ../pkg/eoslab.js): the state at step i is
// steps[i].state, records with step ≤ i are in the log, a data record is committed/aborted once
// the step of its marker (closedAt) is reached. The lanes are one canvas (HiDPI, only the cells in
// view drawn, redrawn on a dirty flag once per animation frame); all text a reader needs is DOM
// text. Every value reaches the page as text: textContent or fillText, never innerHTML.
//
// This file is the entry: one script tag loads the element. The code lives in kafka-timeline/:
// element.js (the element: attributes, lifecycle, stepping, events), events.js, layout.js (lane
// geometry, hit testing), draw.js (the canvases), panels.js (the DOM panels), dialogs.js (predict
// questions, export, the record dialog) and styles.js (the stylesheet).
export { KafkaTimelineElement } from "./kafka-timeline/element.js";
export {
  STEP_EVENT, SCRIPT_EVENT, LOAD_EVENT, OPEN_EVENT, TimelineStepEvent, TimelineScriptEvent, TimelineLoadEvent, TimelineOpenEvent,
} from "./kafka-timeline/events.js";

// What this module exported before its model side moved to lib/timeline-model.js.
export { PRESENTER_ZOOM, recordStatus, recordLabel, buildTimeline, completionSteps, DEFAULT_COSTS, clusterCosts, niceTicks } from "./lib/timeline-model.js";
