// idempotence.html: the built-in scenarios (../scenarios/index.json) beside one <kafka-ladder>,
// a script editor, a 10,000-batch run, and <kafka-producer-config>. The chosen scenario is kept in
// the URL hash (#scenario=NAME), so a link opens it. Text only: no innerHTML.
import "./idempotence-elements.js";
import { useFullPackage } from "./lib/wasm.js";

// This page loads the full package for its models anyway: a batch opened in <kafka-batch> uses it
// too instead of downloading the decode-only module as well.
useFullPackage();

const $ = (id) => document.getElementById(id);
const ladder = $("ladder");
const list = $("scenario-list");
const editor = $("script");
const status = $("run-status");

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

const NAME = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

function hashScenario() {
  const m = /^#scenario=(.+)$/.exec(location.hash);
  const name = m ? decodeURIComponent(m[1]) : null;
  return name && NAME.test(name) ? name : null;
}

function markCurrent(name) {
  for (const b of list.querySelectorAll("button[data-name]")) {
    b.setAttribute("aria-current", String(b.dataset.name === name));
  }
}

function choose(name, { updateHash = true } = {}) {
  ladder.removeAttribute("script");
  ladder.removeAttribute("step");
  ladder.setAttribute("scenario", name);
  markCurrent(name);
  if (updateHash && location.hash !== `#scenario=${name}`) history.replaceState(null, "", `#scenario=${encodeURIComponent(name)}`);
}

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
  markCurrent(ladder.getAttribute("scenario"));
}

list.addEventListener("click", (ev) => {
  const b = ev.target instanceof Element ? ev.target.closest("button[data-name]") : null;
  if (b) choose(b.dataset.name);
});

$("run").addEventListener("click", () => {
  ladder.removeAttribute("step");
  ladder.setAttribute("script", editor.value);
  markCurrent(null);
});

$("long-run").addEventListener("click", () => {
  status.textContent = "running 10,000 batches …";
  markCurrent(null);
  // Let the status paint before the (synchronous) run.
  requestAnimationFrame(() =>
    setTimeout(() => {
      ladder.removeAttribute("step");
      editor.value = LONG_RUN;
      ladder.setAttribute("script", LONG_RUN);
    }, 0),
  );
});

ladder.addEventListener("eoslab-load", (ev) => {
  const { error, rows, ms } = ev.detail;
  if (!error && document.activeElement !== editor) editor.value = ladder.script;
  if (ladder.hasAttribute("script") && !error) status.textContent = `${rows.toLocaleString("en")} rows, run and laid out in ${Math.round(ms)} ms`;
  else if (!ladder.hasAttribute("script")) status.textContent = "";
});

window.addEventListener("hashchange", () => {
  const name = hashScenario();
  if (name) choose(name, { updateHash: false });
});

const initial = hashScenario();
if (initial) choose(initial, { updateHash: false });

loadIndex()
  .then(() => {
    document.body.dataset.ready = "1";
  })
  .catch((err) => {
    list.replaceChildren(Object.assign(document.createElement("li"), { textContent: `could not load the scenario list: ${err.message}` }));
    console.error(err);
  });
