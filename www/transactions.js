// transactions.html: the transaction scenarios (../scenarios/index.json, the entries whose model is
// "transactions"; all of them when the index has no model field) beside one <kafka-timeline>, a
// script editor, and the page's <kafka-batch> where the timeline opens records. The URL hash holds
// the moment shown (lib/link-state.js: the scenario or its edited script, the step, compare mode),
// so a link restores it; the older #scenario=NAME[&compare=1] links still work. An edited script is
// kept in local storage (a reload never loses it) until "Reset". `?sabotage=NAME` passes a test-only fault to the core
// (runTxnScenario's `sabotage` option) and says so on the page. Text only: no innerHTML.
//
// "Compare V1 / V2" (a toggle button, `&compare=1` in the hash) shows the same script twice, side
// by side: the page's timeline with transaction-version="1" and a second one with "2". Stepping one
// steps the other: by index when both runs have the same number of steps, otherwise to the step of
// the same script line; a note says where the runs diverge (step counts, a producer's state, an
// expectation that holds under one protocol only).
//
// A shipped scenario with no edits, not compared, is drawn from its pre-built run when the server
// has one (lib/player.js labRuns: the timeline's `run` attribute), with no wasm loaded; an edited
// script, a next-step fork, a file, a sabotage and Compare V1/V2 (a transaction-version the run was
// not made for) run in the model. The elements are defined (./kafka-timeline.js and
// ./kafka-batch.js imported) only once the first moment's attributes are set, so the timeline does
// not start a run of its empty markup first. The page's <kafka-batch> loads the decode module as
// soon as it is defined (even empty), so it is defined after the timeline's first drawn step, or
// when a record is opened, whichever comes first (the hex a timeline sets on it before is read then).
import { followView } from "./lib/follow-view.js";
import { isScenarioName } from "./lib/script-kind.js";
import { labRuns } from "./lib/player.js";
import { LinkWriter, clearScript, decodeState, downloadText, saveScript, savedScript } from "./lib/link-state.js";
import { pageKeys } from "./lib/page-keys.js";
import { scriptEditor } from "./lib/script-editor.js";

const $ = (id) => document.getElementById(id);
const timeline = $("timeline");
const list = $("scenario-list");
const editor = $("script");
const status = $("list-status");
const panes = $("panes");
const compareButton = $("compare-protocols");
const compareNote = $("compare-note");
const note = $("link-note");
const resetButton = $("reset-script");
const PAGE = "transactions";
let restoring = true; // until the first state is applied: no hash is written

let current = null; // the scenario chosen last (named in the hash)
let comparing = false;
let twin = null; // the V2 timeline, in compare mode
let runOf = () => null; // the pre-built run's URL of a shipped scenario (labRuns), once known
const runsKnown = labRuns().then((f) => (runOf = f));

/**
 * `t` draws shipped scenario `name` from its pre-built run when there is one (else runs it). The
 * run is made for the script's own transaction.version: the element does not use it under a
 * `transaction-version` attribute (Compare V1/V2), nor with a `sabotage` or a `script`.
 */
function shippedRun(t, name) {
  const url = name && !sabotaged ? runOf("kafka-timeline", name) : null;
  if (url) t.setAttribute("run", url);
  else t.removeAttribute("run");
}

// A script error is shown under the editor, its line marked in it.
const scriptUi = scriptEditor({ editor, box: $("script-error") });
let ranByUser = false; // the next load follows the user's "Run script": its error selects its line

// The timeline is the page's main view (in compare mode the V2 side follows it): its keys work
// from anywhere on the page.
pageKeys(() => timeline);

const sabotage = new URLSearchParams(location.search).get("sabotage");
// A sabotage is a fault's name (letters, digits, `-`): anything else is not passed on.
const sabotaged = !!sabotage && /^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(sabotage);
if (sabotaged) {
  timeline.setAttribute("sabotage", sabotage);
  const note = $("sabotage-note");
  note.textContent = `Test fault “${sabotage}” is on: the model is deliberately broken, so an invariant should fail.`;
  note.hidden = false;
}

/** The hash's state: {scenario: NAME | null, compare: boolean} (`#scenario=NAME&compare=1`). */
function parseHash() {
  const params = new URLSearchParams(location.hash.replace(/^#/, ""));
  const name = params.get("scenario");
  return { scenario: name && isScenarioName(name) ? name : null, compare: params.get("compare") === "1" };
}

/** The older hash form (#scenario=NAME&compare=1): what a link that does not fit falls back to. */
function legacyHash() {
  const parts = [];
  if (current) parts.push(`scenario=${encodeURIComponent(current)}`);
  if (comparing) parts.push("compare=1");
  return parts.length ? `#${parts.join("&")}` : "";
}

/** What restores the view: the scenario (or the script when it is not the shipped one), the step, compare mode. */
function linkState() {
  const state = { v: 1, page: PAGE, step: timeline.step };
  if (current) state.scenario = current;
  if (timeline.hasAttribute("script")) state.script = timeline.getAttribute("script");
  if (comparing) state.compare = true;
  if ($("sequence").open) state.sequence = true; // the same run as a sequence diagram, open beside
  return state;
}

const writer = new LinkWriter({
  tooLong: (state, length) => {
    note.textContent = `This moment does not fit in a link (${length.toLocaleString("en")} characters; links stop at 8,000): download the scenario file and share it instead — “Open a scenario file” restores it, step included.`;
    const hash = state.script ? "" : legacyHash();
    history.replaceState(null, "", `${location.pathname}${location.search}${hash}`);
  },
});

let writeTimer = 0;
function writeHash() {
  if (restoring) return;
  clearTimeout(writeTimer);
  writeTimer = setTimeout(() => writer.write(linkState()), 50);
}

/** Applies a link's state; whether it named a scenario or held a script (a damaged link's kept part may not). */
function applyState(state) {
  const step = Number.isInteger(state.step) && state.step >= 0 ? String(state.step) : "0";
  const name = typeof state.scenario === "string" && isScenarioName(state.scenario) ? state.scenario : null;
  if (!name && typeof state.script !== "string") return false;
  current = name;
  for (const t of timelines()) {
    t.setAttribute("step", step);
    shippedRun(t, typeof state.script === "string" ? null : name);
    if (name) t.setAttribute("scenario", name);
    if (typeof state.script === "string") t.setAttribute("script", state.script);
    else t.removeAttribute("script");
  }
  resetButton.hidden = !(typeof state.script === "string" && name);
  markCurrent(name);
  setCompare(state.compare === true, { updateHash: false });
  $("sequence").open = state.sequence === true;
  return true;
}

/** Runs a script of the user's (edited, or opened from a file) on every side, keeping it for a reload. */
function runScript(text, { step = null } = {}) {
  for (const t of timelines()) {
    if (step === null) t.removeAttribute("step");
    else t.setAttribute("step", String(step));
    shippedRun(t, null);
    t.setAttribute("script", text);
  }
  saveScript(PAGE, current, text);
  resetButton.hidden = !current;
}

const timelines = () => (twin ? [timeline, twin] : [timeline]);
const otherOf = (el) => (el === timeline ? twin : el === twin ? timeline : null);

function markCurrent(name) {
  for (const b of list.querySelectorAll("button[data-name]")) b.setAttribute("aria-current", String(b.dataset.name === name));
  revealCurrent();
}

/** Shows scenario `name` (its edited version when one is kept) from the start. */
function choose(name, { updateHash = true } = {}) {
  current = name;
  const saved = savedScript(PAGE, name);
  for (const t of timelines()) {
    t.removeAttribute("step");
    shippedRun(t, saved === null ? name : null);
    t.setAttribute("scenario", name);
    if (saved !== null) t.setAttribute("script", saved);
    else t.removeAttribute("script");
  }
  resetButton.hidden = saved === null;
  note.textContent = saved === null ? "" : `Your edited version of ${name} (kept in this browser). “Reset to the shipped version” brings back the original.`;
  markCurrent(name);
  if (updateHash) writeHash();
}

// --- Compare V1 / V2 -------------------------------------------------------------------------

/** Turns compare mode on or off; the page's timeline keeps the step it shows. */
function setCompare(on, { updateHash = true } = {}) {
  on = !!on;
  if (on !== comparing) {
    comparing = on;
    compareButton.setAttribute("aria-pressed", String(on));
    panes.classList.toggle("comparing", on);
    $("pane-v1-title").hidden = !on;
    $("pane-v2").hidden = !on;
    const step = timeline.getAttribute("step");
    if (on) timeline.setAttribute("transaction-version", "1");
    else timeline.removeAttribute("transaction-version");
    if (step !== null) {
      // A change of the step attribute makes the rerun show that step rather than the last one.
      timeline.removeAttribute("step");
      timeline.setAttribute("step", step);
    }
    if (on) {
      twin = document.createElement("kafka-timeline");
      twin.id = "timeline-v2";
      twin.setAttribute("inspector", "inspector");
      twin.setAttribute("transaction-version", "2");
      if (sabotaged) twin.setAttribute("sabotage", sabotage);
      // The twin is laid out as the first timeline is (its step text beside the drawing or above).
      for (const attr of ["scenario", "script", "narration", "run"]) {
        const v = timeline.getAttribute(attr);
        if (v !== null) twin.setAttribute(attr, v);
      }
      $("pane-v2").append(twin);
    } else {
      twin?.remove();
      twin = null;
    }
    renderNote();
    markDifferences();
    highlightFacts();
  }
  if (updateHash) writeHash();
}

/** Both sides ran the same script and have a report. */
const sameRun = () => !!twin && !!timeline.report && !!twin.report && timeline.script === twin.script;

/**
 * The step of `to` that matches the step `from` shows: the same index when both runs have the
 * same number of steps; otherwise the same occurrence of the same script line (steps[i].line), or
 * the last step before that line when `to` has none for it.
 */
export function alignedStep(fromSteps, k, toSteps) {
  if (!fromSteps?.length || !toSteps?.length) return null;
  k = Math.min(Math.max(0, k), fromSteps.length - 1);
  if (fromSteps.length === toSteps.length) return k;
  const line = fromSteps[k].line;
  let occurrence = 0;
  for (let i = 0; i < k; i++) if (fromSteps[i].line === line) occurrence++;
  let match = -1;
  let seen = 0;
  for (let j = 0; j < toSteps.length; j++) {
    if (toSteps[j].line !== line) continue;
    match = j;
    if (seen++ === occurrence) break;
  }
  if (match >= 0) return match;
  let before = 0;
  for (let j = 0; j < toSteps.length; j++) if (toSteps[j].line < line) before = j;
  return before;
}

const moving = new WeakMap(); // timeline → the step the page moved it to (its step event is not the user's)
const settling = new WeakSet(); // timelines whose run just finished (their step event lands on the new run)

/** Moves the other side to the step that matches `leader`'s. */
function follow(leader) {
  const f = otherOf(leader);
  if (comparing && f && sameRun()) {
    // Aligned on the report's steps (one per script line), shown as the story step holding it.
    const raw = alignedStep(leader.report.steps, leader.reportStep, f.report.steps);
    const j = raw === null ? null : f.storyStepOf(raw);
    if (j !== null && j !== f.step) {
      moving.set(f, j);
      f.step = j;
    }
  }
  renderNote();
  highlightFacts();
}

/**
 * Highlights, in both panes, the values that differ between the two runs at the steps shown:
 * each message, each lane's state line (epochs, states, producer ids, offsets …) and each metric
 * whose text differs, or that one side shows and the other does not (kafka-timeline facts()).
 */
export function differingFacts(fa, fb) {
  const keys = new Set([...Object.keys(fa), ...Object.keys(fb)]);
  return [...keys].filter((k) => fa[k] !== fb[k]);
}

function highlightFacts() {
  if (!comparing || !twin || !sameRun()) {
    for (const t of timelines()) t.markFacts?.([]);
    return;
  }
  const diff = differingFacts(timeline.facts(), twin.facts());
  timeline.markFacts(diff, "differs under transaction.version 2");
  twin.markFacts(diff, "differs under transaction.version 1");
}

const laneLabel = (report, id) => report.lanes?.find((l) => l.id === id)?.label ?? id;

function producerText(p) {
  let text = p.state;
  if (p.outcome) text += `, outcome ${p.outcome}`;
  if (p.error) text += `, error ${p.error}`;
  if (p.fenced) text += ", fenced";
  if (p.crashed) text += ", crashed";
  return text;
}

/**
 * How the two runs differ at the steps shown (not the epochs: those differ by design): report
 * steps ka and kb, and ga, gb the story steps holding them (their checks are compared pairwise).
 */
function differences(a, ka, b, kb, ga = null, gb = null) {
  const sa = a.steps[ka];
  const sb = b.steps[kb];
  if (!sa || !sb) return [];
  if (sa.line !== sb.line) return [`V1 shows line ${sa.line} (${sa.text}), V2 line ${sb.line} (${sb.text})`];
  const out = [];
  const pb = new Map((sb.state?.producers ?? []).map((p) => [p.lane, p]));
  for (const p of sa.state?.producers ?? []) {
    const q = pb.get(p.lane);
    if (!q) continue;
    const ta = producerText(p);
    const tb = producerText(q);
    if (ta !== tb) out.push(`producer ${laneLabel(a, p.lane)} is ${ta} under V1, ${tb} under V2`);
  }
  // The step's own line and its checks (the expect lines after it), pairwise.
  const ia = [ka, ...(ga?.checks ?? [])];
  const ib = [kb, ...(gb?.checks ?? [])];
  for (let i = 0; i < Math.min(ia.length, ib.length); i++) {
    const ca = a.steps[ia[i]];
    const cb = b.steps[ib[i]];
    if (!ca || !cb || ca.line !== cb.line || (ca.ok === false) === (cb.ok === false)) continue;
    const [bad, good, report] = ca.ok === false ? ["V1", "V2", a] : ["V2", "V1", b];
    const f = (report.failures ?? []).find((x) => x.line === ca.line);
    out.push(`“${ca.text}” (line ${ca.line}) holds under ${good} but fails under ${bad}${f ? ` (got ${f.actual})` : ""}`);
  }
  const broken = (s) => (s.invariants ?? []).filter((i) => !i.holds).length;
  if (broken(sa) !== broken(sb)) out.push(`invariants broken: ${broken(sa)} under V1, ${broken(sb)} under V2`);
  return out;
}

/**
 * Marks on both sides' scrub bars the story steps where the runs differ (differences() at each
 * step of V1 against its aligned step of V2), once both have run the same script.
 */
function markDifferences() {
  if (!comparing || !sameRun()) {
    for (const t of timelines()) t.markSteps?.([]);
    return;
  }
  const a = timeline.report;
  const b = twin.report;
  const onA = [];
  const onB = [];
  timeline.story.forEach((g, k) => {
    const j = alignedStep(a.steps, g.first, b.steps);
    if (j === null) return;
    const kb = twin.storyStepOf(j);
    if (differences(a, g.first, b, twin.story[kb].first, g, twin.story[kb]).length) {
      onA.push(k);
      onB.push(kb);
    }
  });
  timeline.markSteps(onA, "V1 and V2 differ at");
  twin.markSteps(onB, "V1 and V2 differ at");
}

/** The note above the two sides: how they are matched, and where the runs diverge. Text only. */
function renderNote() {
  if (!comparing || !twin) {
    compareNote.hidden = true;
    compareNote.replaceChildren();
    compareNote.classList.remove("diverged");
    return;
  }
  compareNote.hidden = false;
  const parts = [];
  let diverged = false;
  if (!sameRun()) {
    parts.push("Running the script under transactions V1 and V2…");
  } else {
    const a = timeline.report;
    const b = twin.report;
    if (a.steps.length === b.steps.length) {
      parts.push("Stepping one side steps the other to the same step (both runs take the same number of steps).");
    } else {
      diverged = true;
      parts.push(`The runs diverge: V1 takes ${a.steps.length} steps, V2 ${b.steps.length}, so stepping one side steps the other to the same script line.`);
    }
    const diff = differences(a, timeline.reportStep, b, twin.reportStep, timeline.story[timeline.step], twin.story[twin.step]);
    if (diff.length) {
      diverged = true;
      parts.push(`At this step the runs differ: ${diff.join("; ")}.`);
    }
  }
  compareNote.classList.toggle("diverged", diverged);
  compareNote.textContent = parts.join(" ");
}

compareButton.addEventListener("click", () => setCompare(!comparing));

panes.addEventListener("kafka-timeline:step", (ev) => {
  const el = ev.target;
  if (!comparing || !otherOf(el)) return;
  if (settling.has(el)) return; // a fresh run lands on its step; the sides are matched once it has
  if (moving.has(el)) {
    const to = moving.get(el);
    moving.delete(el);
    if (to === ev.detail.step) {
      renderNote();
      highlightFacts();
      return;
    }
  }
  follow(el);
});

panes.addEventListener("kafka-timeline:load", (ev) => {
  const el = ev.target;
  if (!otherOf(el)) return;
  settling.add(el);
  moving.delete(el);
  // After the run the element shows its step (in the same task); then the V2 side follows V1.
  setTimeout(() => {
    settling.delete(el);
    if (comparing) follow(timeline);
    markDifferences();
  }, 0);
});

// A next-step button appends a line to one side's script: the other side runs the same script.
panes.addEventListener("kafka-timeline:script", (ev) => {
  const other = comparing ? otherOf(ev.target) : null;
  if (!other) return;
  // Ignore a stale event (its source has since been given another scenario or script) and an
  // echo (the other side already runs this script): either would undo a newer choice.
  if (ev.target.getAttribute("script") !== ev.detail.script || other.getAttribute("script") === ev.detail.script) return;
  other.setAttribute("step", "end"); // as the side whose button it was: the new last step
  other.setAttribute("script", ev.detail.script);
});

panes.addEventListener("kafka-timeline:open", (ev) => {
  defineInspector();
  $("inspector-note").textContent = `Showing ${ev.detail.label}.`;
});

let inspectorDefined = null;
/** Defines the page's <kafka-batch> (once). */
function defineInspector() {
  inspectorDefined ??= import("./kafka-batch.js");
  return inspectorDefined;
}
timeline.addEventListener("kafka-timeline:load", () => requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(defineInspector, 0))), { once: true });

// --- the scenario list and the editor --------------------------------------------------------

/** The transaction scenarios of the index: `model: "transactions"`; every entry when no entry has a model. */
export function transactionScenarios(index) {
  const hasModel = index.some((e) => typeof e.model === "string");
  return hasModel ? index.filter((e) => e.model === "transactions") : index;
}

/**
 * The groups of the scenario list: the application's stories (a transactional producer, its
 * consumers, what goes wrong between them), then the request-level ones (`txn-request-*`: one
 * request and the broker's answer to it, rule by rule). [{id, title, scenarios}], in that order.
 */
export function scenarioGroups(scenarios) {
  const request = (e) => /^txn-request-/.test(e.name);
  return [
    { id: "application", title: "The application: producers, consumers, failures", scenarios: scenarios.filter((e) => !request(e)) },
    { id: "request", title: "Request by request: the broker's answers", scenarios: scenarios.filter(request) },
  ].filter((g) => g.scenarios.length);
}

async function loadIndex() {
  const res = await fetch(new URL("../scenarios/index.json", import.meta.url));
  if (!res.ok) throw new Error(`scenarios/index.json: ${res.status}`);
  const scenarios = transactionScenarios(await res.json());
  // One list (one Tab order), each group under a heading item of its own.
  list.replaceChildren(
    ...scenarioGroups(scenarios).flatMap((g) => {
      const head = document.createElement("li");
      head.className = "group-head";
      head.dataset.group = g.id;
      const h = document.createElement("h3");
      h.textContent = `${g.title} (${g.scenarios.length})`;
      head.append(h);
      return [head, ...g.scenarios.map(({ name, title }) => {
        const b = document.createElement("button");
        b.type = "button";
        b.dataset.name = name;
        const small = document.createElement("small");
        small.textContent = name;
        b.append(title ?? name, small);
        const li = document.createElement("li");
        li.dataset.group = g.id;
        li.append(b);
        return li;
      })];
    }),
  );
  status.textContent = scenarios.length ? "" : "No transaction scenarios yet.";
  applyFilter();
  return scenarios;
}

// --- the filter box: hides the scenarios whose name and title do not hold every word typed -----

const filter = $("scenario-filter");
function applyFilter() {
  const words = filter.value.toLowerCase().split(/\s+/).filter(Boolean);
  let shown = 0;
  const groupsShown = new Set();
  for (const li of list.querySelectorAll("li:not(.group-head)")) {
    const b = li.querySelector("button[data-name]");
    const text = `${b.dataset.name} ${b.textContent}`.toLowerCase();
    // The scenario shown stays in the list whatever the filter.
    const keep = words.every((w) => text.includes(w)) || b.dataset.name === current;
    li.hidden = !keep;
    if (keep) {
      shown++;
      groupsShown.add(li.dataset.group);
    }
  }
  for (const head of list.querySelectorAll("li.group-head")) head.hidden = !groupsShown.has(head.dataset.group);
  const total = list.querySelectorAll("li:not(.group-head)").length;
  $("filter-status").textContent = words.length ? `${shown} of ${total} scenarios` : "";
  revealCurrent();
}
// What was typed in the box survives a reload of the tab (session storage: a filter is for now).
const FILTER_KEY = "eoslab:transactions:filter";
try {
  filter.value = sessionStorage.getItem(FILTER_KEY) ?? "";
} catch {
  // no storage: the box starts empty
}
filter.addEventListener("input", () => {
  try {
    sessionStorage.setItem(FILTER_KEY, filter.value);
  } catch {
    // not kept
  }
  applyFilter();
});

/** Scrolls the list (not the page) so that the current scenario's button is in view. */
function revealCurrent() {
  const b = current ? list.querySelector(`button[data-name="${CSS.escape(current)}"]`) : null;
  if (!b || list.scrollHeight <= list.clientHeight) return;
  const top = b.offsetTop; // the list is the button's offset parent (position: relative)
  // The part of the list on screen: the window may cut its bottom off (the page not scrolled yet).
  const shown = Math.max(b.offsetHeight, Math.min(list.clientHeight, innerHeight - list.getBoundingClientRect().top));
  if (top < list.scrollTop || top + b.offsetHeight > list.scrollTop + shown) {
    list.scrollTop = Math.max(0, top - (shown - b.offsetHeight) / 2);
  }
}

list.addEventListener("click", (ev) => {
  const b = ev.target instanceof Element ? ev.target.closest("button[data-name]") : null;
  if (b) choose(b.dataset.name);
});

$("run").addEventListener("click", () => {
  ranByUser = true;
  runScript(editor.value);
});

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
  const text = timeline.script;
  if (!text) return;
  // The step rides along as a comment the parser ignores; "Open a scenario file" reads it back.
  downloadText(`${current ?? "scenario"}.eos`, `# eoslab step=${timeline.step}\n${text.replace(/^# eoslab step=\d+\n/, "")}`);
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

// --- the same run as a sequence diagram ------------------------------------------------------
// While its <details> is open, a <kafka-ladder> runs the timeline's script at the same
// transaction.version and shows the same step (lib/follow-view.js).
followView({
  details: $("sequence"),
  source: timeline,
  sourceEvents: ["kafka-timeline:step", "kafka-timeline:load"],
  ready: () => !!timeline.report,
  tag: "kafka-ladder",
  id: "ladder",
  stepEvent: "kafka-ladder:step",
  load: () => import("./kafka-ladder.js"),
  attrs: () => ({ "transaction-version": timeline.getAttribute("transaction-version") }),
});
$("sequence").addEventListener("toggle", writeHash);

timeline.addEventListener("kafka-timeline:step", writeHash);
timeline.addEventListener("kafka-timeline:load", writeHash);
// A next-step button's fork lives in the link (the script is in it), not in local storage: only
// the user's own edits (Run script, a file) are kept, so choosing a scenario again starts afresh.

timeline.addEventListener("kafka-timeline:load", (ev) => {
  const { error } = ev.detail;
  if ((!error || !ranByUser) && document.activeElement !== editor) editor.value = timeline.script;
  if (error) scriptUi.show(error, { select: ranByUser });
  else scriptUi.clear();
  ranByUser = false;
  document.body.dataset.loaded = String((Number(document.body.dataset.loaded) || 0) + 1);
});

window.addEventListener("hashchange", async () => {
  if (writer.last === location.hash) return;
  const linked = await decodeState();
  // A damaged link: {state, error} when a part of it could be read (shown, with what is wrong), {error} when none.
  const shown = linked?.state ? applyState(linked.state) : false;
  if (linked?.error) note.textContent = shown ? `Opened what the link still holds: ${linked.error}.` : `Could not open the link: ${linked.error}.`;
  if (linked) return;
  const { scenario, compare } = parseHash();
  if (scenario && scenario !== current) choose(scenario, { updateHash: false });
  setCompare(compare, { updateHash: false });
});

Promise.all([loadIndex(), decodeState(), runsKnown])
  .then(async ([scenarios, linked]) => {
    const shown = linked?.state ? applyState(linked.state) : false;
    if (!shown) {
      const hash = parseHash();
      const initial = hash.scenario ?? scenarios[0]?.name ?? null;
      if (initial) choose(initial, { updateHash: false });
      setCompare(hash.compare, { updateHash: false });
    }
    // After choose(), which sets the note to the scenario's own.
    if (linked?.error) note.textContent = shown ? `Opened what the link still holds: ${linked.error}.` : `Could not open the link: ${linked.error}; showing the default scenario.`;
    // The first moment's attributes are set: now the elements may run (or draw) it.
    await import("./kafka-timeline.js");
    restoring = false;
    document.body.dataset.ready = "1";
  })
  .catch((err) => {
    list.replaceChildren(Object.assign(document.createElement("li"), { textContent: `could not load the scenario list: ${err.message}` }));
    console.error(err);
  });
