// transactions.html: the transaction scenarios (../scenarios/index.json, the entries whose model is
// "transactions"; all of them when the index has no model field) beside one <kafka-timeline>, a
// script editor, and the page's <kafka-batch> where the timeline opens records. The chosen scenario
// is kept in the URL hash (#scenario=NAME). `?sabotage=NAME` passes a test-only fault to the core
// (runTxnScenario's `sabotage` option) and says so on the page. Text only: no innerHTML.
import "./kafka-timeline.js";
import "./kafka-batch.js";

const $ = (id) => document.getElementById(id);
const timeline = $("timeline");
const list = $("scenario-list");
const editor = $("script");
const status = $("list-status");
const NAME = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

const sabotage = new URLSearchParams(location.search).get("sabotage");
if (sabotage && NAME.test(sabotage)) {
  timeline.setAttribute("sabotage", sabotage);
  const note = $("sabotage-note");
  note.textContent = `Test fault “${sabotage}” is on: the model is deliberately broken, so an invariant should fail.`;
  note.hidden = false;
}

function hashScenario() {
  const m = /^#scenario=(.+)$/.exec(location.hash);
  const name = m ? decodeURIComponent(m[1]) : null;
  return name && NAME.test(name) ? name : null;
}

function markCurrent(name) {
  for (const b of list.querySelectorAll("button[data-name]")) b.setAttribute("aria-current", String(b.dataset.name === name));
}

function choose(name, { updateHash = true } = {}) {
  timeline.removeAttribute("script");
  timeline.removeAttribute("step");
  timeline.setAttribute("scenario", name);
  markCurrent(name);
  if (updateHash && location.hash !== `#scenario=${name}`) history.replaceState(null, "", `${location.search}#scenario=${encodeURIComponent(name)}`);
}

/** The transaction scenarios of the index: `model: "transactions"`; every entry when no entry has a model. */
export function transactionScenarios(index) {
  const hasModel = index.some((e) => typeof e.model === "string");
  return hasModel ? index.filter((e) => e.model === "transactions") : index;
}

async function loadIndex() {
  const res = await fetch(new URL("../scenarios/index.json", import.meta.url));
  if (!res.ok) throw new Error(`scenarios/index.json: ${res.status}`);
  const scenarios = transactionScenarios(await res.json());
  list.replaceChildren(
    ...scenarios.map(({ name, title }) => {
      const b = document.createElement("button");
      b.type = "button";
      b.dataset.name = name;
      const small = document.createElement("small");
      small.textContent = name;
      b.append(title ?? name, small);
      const li = document.createElement("li");
      li.append(b);
      return li;
    }),
  );
  status.textContent = scenarios.length ? "" : "No transaction scenarios yet.";
  return scenarios;
}

list.addEventListener("click", (ev) => {
  const b = ev.target instanceof Element ? ev.target.closest("button[data-name]") : null;
  if (b) choose(b.dataset.name);
});

$("run").addEventListener("click", () => {
  timeline.removeAttribute("step");
  timeline.setAttribute("script", editor.value);
  markCurrent(null);
});

timeline.addEventListener("kafka-timeline:load", (ev) => {
  if (!ev.detail.error && document.activeElement !== editor) editor.value = timeline.script;
  document.body.dataset.loaded = String((Number(document.body.dataset.loaded) || 0) + 1);
});

timeline.addEventListener("kafka-timeline:open", (ev) => {
  $("inspector-note").textContent = `Showing ${ev.detail.label}.`;
});

window.addEventListener("hashchange", () => {
  const name = hashScenario();
  if (name) choose(name, { updateHash: false });
});

loadIndex()
  .then((scenarios) => {
    const initial = hashScenario() ?? scenarios[0]?.name ?? null;
    if (initial) choose(initial, { updateHash: false });
    document.body.dataset.ready = "1";
  })
  .catch((err) => {
    list.replaceChildren(Object.assign(document.createElement("li"), { textContent: `could not load the scenario list: ${err.message}` }));
    console.error(err);
  });
