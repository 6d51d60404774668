// idempotence.html: the built-in scenarios (../scenarios/index.json) beside one <kafka-ladder>,
// a script editor, a 10,000-batch run, and <kafka-producer-config>. The URL hash holds the moment
// shown (lib/link-state.js: the scenario or its edited script, the step, the config's client line),
// so a link restores it; the older #scenario=NAME links still open their scenario. An edited script
// is kept in local storage (a reload never loses it) until "Reset". Text only: no innerHTML.
//
// A shipped scenario with no edits is drawn from its pre-built run when the server has one
// (lib/player.js labRuns: the ladder's and the producer config's `run` attribute), with no wasm
// loaded; an edited script, a next-step fork, a file or the long run runs in the model. The
// elements are defined (./idempotence-elements.js imported) only once the first moment's
// attributes are set, so they do not start a run of the markup's default first.
import { useFullPackage } from "./lib/wasm.js";
import { labRuns } from "./lib/player.js";
import { followView } from "./lib/follow-view.js";
import { isScenarioName } from "./lib/script-kind.js";
import { LinkWriter, clearScript, decodeState, downloadText, saveScript, savedScript } from "./lib/link-state.js";
import { pageKeys } from "./lib/page-keys.js";
import { fitToWindow } from "./lib/fit-view.js";
import { scriptEditor } from "./lib/script-editor.js";

// This page loads the full package for its models anyway: a batch opened in <kafka-batch> uses it
// too instead of downloading the decode-only module as well.
useFullPackage();

const $ = (id) => document.getElementById(id);
const ladder = $("ladder");
const list = $("scenario-list");
const editor = $("script");
const status = $("run-status");
const note = $("link-note");
const resetButton = $("reset-script");
const PAGE = "idempotence";
let current = ladder.getAttribute("scenario"); // the scenario chosen (null: a script of the user's own)
let restoring = true; // until the first state is applied: no hash is written
let runOf = () => null; // the pre-built run's URL of a shipped scenario (labRuns), once known
const runsKnown = labRuns().then((f) => (runOf = f));

// A script error is shown under the editor, its line marked in it.
const scriptUi = scriptEditor({ editor, box: $("script-error") });
let ranByUser = false; // the next load follows the user's "Run script": its error selects its line

// The ladder is the page's one view: its keys work from anywhere on the page.
pageKeys(() => ladder);
// Its drawing on the first screen: its scrolling box ends at the window's bottom.
fitToWindow(ladder);

const LONG_RUN = [
  "title 10,000 batches from one producer",
  "about One idempotent producer sends 10,000 single-record batches to one partition; each is",
  "about delivered and acknowledged. The leader keeps one producer-state entry whose window holds",
  "about the last five batches, however many were written.",
  "partition orders-0",
  "producer app",
  "repeat 10000: send app orders-0 x; flush; flush",
  "",
].join("\n");


function hashScenario() {
  const m = /^#scenario=(.+)$/.exec(location.hash);
  const name = m ? decodeURIComponent(m[1]) : null;
  return name && isScenarioName(name) ? name : null;
}

function markCurrent(name) {
  for (const b of list.querySelectorAll("button[data-name]")) {
    b.setAttribute("aria-current", String(b.dataset.name === name));
  }
}

/** The ladder draws shipped scenario `name` from its pre-built run when there is one (else runs it). */
function shippedRun(name) {
  const url = name ? runOf("kafka-ladder", name) : null;
  if (url) ladder.setAttribute("run", url);
  else ladder.removeAttribute("run");
}

/** Shows scenario `name` (its edited version when one is kept), at `step` (default: the start). */
function choose(name, { step = null } = {}) {
  current = name;
  const saved = savedScript(PAGE, name);
  if (step === null) ladder.removeAttribute("step");
  else ladder.setAttribute("step", String(step));
  shippedRun(saved === null ? name : null);
  ladder.setAttribute("scenario", name);
  if (saved !== null) ladder.setAttribute("script", saved);
  else ladder.removeAttribute("script");
  resetButton.hidden = saved === null;
  if (saved !== null) note.textContent = `Your edited version of ${name} (kept in this browser). “Reset to the shipped version” brings back the original.`;
  else note.textContent = "";
  markCurrent(name);
}

/** Runs a script of the user's (edited, forked or opened from a file), keeping it for a reload. */
function runScript(text, { step = null } = {}) {
  if (step === null) ladder.removeAttribute("step");
  else ladder.setAttribute("step", String(step));
  shippedRun(null);
  ladder.setAttribute("script", text);
  saveScript(PAGE, current, text);
  resetButton.hidden = false;
}

// --- the link: the moment shown, in the hash ---------------------------------------------------

/** What restores the view: the scenario (or the script when it is not the shipped one), the step, the client line. */
function linkState() {
  const state = { v: 1, page: PAGE, step: ladder.step };
  if (current) state.scenario = current;
  if (ladder.hasAttribute("script")) state.script = ladder.getAttribute("script");
  const client = $("producer-config")?.getAttribute("client");
  if (client) state.client = client;
  if ($("timeline-view").open) state.timeline = true; // the same run as a timeline, open beside
  return state;
}

const writer = new LinkWriter({
  tooLong: (state, length) => {
    note.textContent = `This moment does not fit in a link (${length.toLocaleString("en")} characters; links stop at 8,000): download the scenario file and share it instead — “Open a scenario file” restores it, step included.`;
    const hash = current && !state.script ? `#scenario=${encodeURIComponent(current)}` : "";
    history.replaceState(null, "", `${location.pathname}${location.search}${hash}`);
  },
});

let writeTimer = 0;
function writeLink() {
  if (restoring) return;
  clearTimeout(writeTimer);
  writeTimer = setTimeout(() => writer.write(linkState()), 50);
}

/** Applies a state from a link (or a scenario file). */
/** Applies a link's state; whether it named a scenario or held a script (a damaged link's kept part may not). */
function applyState(state) {
  const step = Number.isInteger(state.step) && state.step >= 0 ? state.step : 0;
  $("timeline-view").open = state.timeline === true;
  if (typeof state.client === "string") $("producer-config")?.setAttribute("client", state.client);
  const name = typeof state.scenario === "string" && isScenarioName(state.scenario) ? state.scenario : null;
  if (typeof state.script === "string") {
    current = name;
    if (name) ladder.setAttribute("scenario", name);
    ladder.setAttribute("step", String(step));
    shippedRun(null);
    ladder.setAttribute("script", state.script);
    resetButton.hidden = !name;
    markCurrent(name);
  } else if (name) {
    current = name;
    ladder.setAttribute("step", String(step));
    shippedRun(name);
    ladder.removeAttribute("script");
    ladder.setAttribute("scenario", name);
    resetButton.hidden = true;
    markCurrent(name);
  }
  return typeof state.script === "string" || name !== null;
}

// --- the same run as a timeline ----------------------------------------------------------------
// While its <details> is open, a <kafka-timeline> runs the ladder's script (runTxnScenario takes an
// idempotence script: the same run, in the timeline's report) and shows the same step
// (lib/follow-view.js). A run of more than MAX_TIMELINE_STEPS steps (the 10,000-batch run) is not
// drawn twice.
const MAX_TIMELINE_STEPS = 2000;
followView({
  details: $("timeline-view"),
  source: ladder,
  sourceEvents: ["kafka-ladder:step", "kafka-ladder:load"],
  ready: () => !!ladder.run,
  tag: "kafka-timeline",
  id: "timeline",
  stepEvent: "kafka-timeline:step",
  load: () => import("./kafka-timeline.js"),
  refuse: () => {
    const n = ladder.run.steps?.length ?? 0;
    return n > MAX_TIMELINE_STEPS ? `This run has ${n} steps: the timeline draws runs of up to ${MAX_TIMELINE_STEPS}.` : null;
  },
  note: $("timeline-note"),
});
$("timeline-view").addEventListener("toggle", writeLink);

ladder.addEventListener("kafka-ladder:step", writeLink);
ladder.addEventListener("kafka-ladder:load", writeLink);
$("producer-config")?.addEventListener("kafka-producer-config:resolve", writeLink);
// A next-step button's fork lives in the link (the script is in it), not in local storage: only
// the user's own edits (Run script, a file) are kept, so choosing a scenario again starts afresh.

resetButton.addEventListener("click", () => {
  if (!current) return;
  clearScript(PAGE, current);
  choose(current);
  note.textContent = `${current}: the shipped version again.`;
});

$("copy-link").addEventListener("click", async () => {
  await writer.write(linkState());
  try {
    await navigator.clipboard.writeText(location.href);
    note.textContent = "The link to this moment is copied (it is also in the address bar).";
  } catch {
    note.textContent = "The address bar holds the link to this moment: copy it from there.";
  }
});

$("download-script").addEventListener("click", () => {
  const text = ladder.script;
  if (!text) return;
  // The step rides along as a comment the parser ignores; "Open a scenario file" reads it back.
  downloadText(`${current ?? "scenario"}.eos`, `# eoslab step=${ladder.step}\n${text.replace(/^# eoslab step=\d+\n/, "")}`);
});

$("upload-script").addEventListener("change", async (ev) => {
  const file = ev.target.files?.[0];
  if (!file) return;
  const text = await file.text();
  const step = Number(/^# eoslab step=(\d+)\n/.exec(text)?.[1] ?? 0);
  current = null;
  markCurrent(null);
  editor.value = text;
  runScript(text, { step });
  note.textContent = `Opened ${file.name}.`;
  ev.target.value = "";
});

async function loadIndex() {
  const res = await fetch(new URL("../scenarios/index.json", import.meta.url));
  if (!res.ok) throw new Error(`scenarios/index.json: ${res.status}`);
  // Transactions scripts (`model transactions`) belong to transactions.html.
  const index = (await res.json()).filter((e) => (e.model ?? "idempotence") === "idempotence");
  list.replaceChildren(
    ...index.map(({ name, title }) => {
      const b = document.createElement("button");
      b.type = "button";
      b.dataset.name = name;
      const small = document.createElement("small");
      small.textContent = name;
      b.append(title, small);
      const li = document.createElement("li");
      li.append(b);
      return li;
    }),
  );
  markCurrent(current);
}

list.addEventListener("click", (ev) => {
  const b = ev.target instanceof Element ? ev.target.closest("button[data-name]") : null;
  if (b) choose(b.dataset.name);
});

$("run").addEventListener("click", () => {
  ranByUser = true;
  runScript(editor.value);
});

$("long-run").addEventListener("click", () => {
  status.textContent = "running 10,000 batches …";
  current = null;
  markCurrent(null);
  // Let the status paint before the (synchronous) run.
  requestAnimationFrame(() =>
    setTimeout(() => {
      ladder.removeAttribute("step");
      editor.value = LONG_RUN;
      shippedRun(null);
      ladder.setAttribute("script", LONG_RUN);
    }, 0),
  );
});

ladder.addEventListener("kafka-ladder:load", (ev) => {
  const { error, rows, ms } = ev.detail;
  if ((!error || !ranByUser) && document.activeElement !== editor) editor.value = ladder.script;
  if (error) scriptUi.show(error, { select: ranByUser });
  else scriptUi.clear();
  ranByUser = false;
  if (ladder.hasAttribute("script") && !error) status.textContent = `${rows.toLocaleString("en")} rows, run and laid out in ${Math.round(ms)} ms`;
  else if (!ladder.hasAttribute("script")) status.textContent = "";
});

window.addEventListener("hashchange", async () => {
  if (writer.last === location.hash) return;
  const linked = await decodeState();
  // A damaged link: {state, error} when a part of it could be read (shown, with what is wrong), {error} when none.
  const shown = linked?.state ? applyState(linked.state) : false;
  if (linked?.error) note.textContent = shown ? `Opened what the link still holds: ${linked.error}.` : `Could not open the link: ${linked.error}.`;
  else if (!linked) {
    const name = hashScenario();
    if (name) choose(name);
  }
});

async function restore() {
  const [linked] = await Promise.all([decodeState(), runsKnown]);
  const shown = linked?.state ? applyState(linked.state) : false;
  if (!shown) choose(hashScenario() ?? current ?? "lost-response-retry");
  if (linked?.error) note.textContent = shown ? `Opened what the link still holds: ${linked.error}.` : `Could not open the link: ${linked.error}; showing the default scenario.`;
  // The producer config's first answer from its pre-built run, when it is made for the properties
  // and client shown (the element checks both; anything else asks the model).
  const configRun = runOf("kafka-producer-config", PAGE);
  if (configRun) $("producer-config")?.setAttribute("run", configRun);
  // The first moment's attributes are set: now the elements may run (or draw) it.
  await import("./idempotence-elements.js");
  restoring = false;
}
const restored = restore();

Promise.all([loadIndex(), restored])
  .then(() => {
    document.body.dataset.ready = "1";
  })
  .catch((err) => {
    list.replaceChildren(Object.assign(document.createElement("li"), { textContent: `could not load the scenario list: ${err.message}` }));
    console.error(err);
  });
