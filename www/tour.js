// tour.html: the guided tour of the seeds' story. Each chapter is a section with a short
// text and live elements (they run the models in this page); predict is on in every ladder and
// timeline (their `predict` attribute), so each chapter asks before it reveals. The two chapters
// without a ladder or a timeline (1, the batch header; 5, the producer config) end with a question
// of their own, built from the decoder's and the config resolver's real answers. Text only.
import "./kafka-batch.js";
import "./idempotence-elements.js";
import "./kafka-timeline.js";
import { resolveProducerConfig } from "../pkg/eoslab.js";
import { RULES } from "./kafka-producer-config.js";
import { el } from "./lib/dom.js";
import { ready } from "./lib/element.js";
import { loadEoslab } from "./lib/wasm.js";
import { SAMPLE_HEX } from "./lib/samples.js";

const toc = document.getElementById("toc");
for (const section of document.querySelectorAll("#tour > section")) {
  const h = section.querySelector("h2");
  const a = document.createElement("a");
  a.href = `#${section.id}`;
  a.textContent = h.textContent.replace(/^\d+\.\s*/, "");
  const li = document.createElement("li");
  li.append(a);
  toc.append(li);
}

/**
 * Ends `section` with a predict-then-reveal question: `prompt`, the `choices` as buttons (1 … n
 * work too while one has the focus), then the answer with `why` (paragraphs), its rule and its
 * Kafka source. `who` names where the answer comes from ("the decoder", "the resolver").
 */
function chapterQuestion(section, { prompt, choices, answer, who, why, rule, source }) {
  const id = `${section.id}-question`;
  const reveal = el("div", { class: "reveal", "aria-live": "polite" });
  const buttons = choices.map((c, i) => el("button", { type: "button", "data-choice": c, "aria-keyshortcuts": String(i + 1) }, `${i + 1}. ${c}`));
  const group = el("div", { class: "choices", role: "group", "aria-labelledby": `${id}-prompt` }, buttons);
  const box = el("div", { class: "chapter-quiz", id, role: "group", "aria-label": "Predict, then reveal", tabindex: "-1" },
    el("p", { class: "prompt", id: `${id}-prompt` }, `Predict: ${prompt}`), group, reveal);
  const choose = (choice) => {
    const right = choice === answer;
    box.dataset.answered = right ? "right" : "wrong";
    group.remove();
    reveal.className = `reveal ${right ? "right" : "wrong"}`;
    reveal.replaceChildren(
      el("p", { class: "verdict" }, right ? `✓ Right: ${answer}.` : `✗ You chose ${choice}; ${who}'s answer is ${answer}.`),
      ...why.map((p) => el("p", {}, p)),
      rule ? el("p", {}, el("span", { class: "rule" }, rule.id), ` ${rule.text}`) : null,
      source ? el("p", { class: "source" }, `Kafka source: ${source}`) : null);
    box.focus();
  };
  group.addEventListener("click", (ev) => {
    const b = ev.target instanceof Element ? ev.target.closest("button[data-choice]") : null;
    if (b) choose(b.dataset.choice);
  });
  group.addEventListener("keydown", (ev) => {
    const b = /^[1-9]$/.test(ev.key) ? buttons[Number(ev.key) - 1] : null;
    if (!b) return;
    ev.preventDefault();
    choose(b.dataset.choice);
  });
  section.append(box);
  return box;
}

/** Chapter 1: which header values make the retry recognisable — the choices are the decoded header's own fields. */
async function headerQuestion() {
  const section = document.getElementById("header");
  const { decode } = await loadEoslab();
  const h = decode(document.getElementById("tour-batch").bytes).batches[0].header;
  const answer = `producerId ${h.producerId}, producerEpoch ${h.producerEpoch}, baseSequence ${h.baseSequence}`;
  const choices = [answer, `baseOffset ${h.baseOffset}, crc 0x${(h.crc >>> 0).toString(16).padStart(8, "0")}`,
    `baseTimestamp ${h.baseTimestamp}, maxTimestamp ${h.maxTimestamp}`, `partitionLeaderEpoch ${h.partitionLeaderEpoch}, recordsCount ${h.recordsCount}`].sort();
  // The leader's own rule for a duplicate, from the model's run in chapter 2.
  const ladder = document.querySelector("#lost-response kafka-ladder");
  const dup = ladder?.run?.steps.flatMap((s) => s.events).find((e) => e.kind === "decision" && e.outcome === "duplicate");
  const sentence = dup ? dup.text.replace(/^.*?\[[A-Z]\d+\]\s*/, "") : "";
  chapterQuestion(section, {
    prompt: "this batch was appended, but its response was lost, so the producer sends it again. Which of its header values does the leader compare with what it keeps, to recognise the retry as a batch it already wrote?",
    choices, answer, who: "the decoder",
    why: [`The leader keeps, per producer id, its epoch and the sequence ranges of the last five batches it appended — not their offsets, CRCs or timestamps. The retry of producer ${h.producerId} at epoch ${h.producerEpoch} with sequences ${h.baseSequence}..${h.lastSequence} matches one of them: it is a duplicate, answered with the original offsets.`],
    rule: dup ? { id: dup.rule, text: `(the leader's rule, as in chapter 2's run) ${sentence}` } : null,
    source: dup?.source ?? null,
  });
}

/** Chapter 5: what new KafkaProducer(props) does with the chapter's properties — the choices are the resolver's own outcomes. */
function configQuestion() {
  const section = document.getElementById("config");
  const config = section.querySelector("kafka-producer-config");
  const props = config.getAttribute("properties") ?? "";
  const client = "4.x";
  const outcome = (r) => (r.ok ? `it starts, with idempotence ${r.idempotence ? "on" : "off"}` : `it throws ${r.exception}`);
  const result = resolveProducerConfig(props, client);
  // The same settings as the chapter's, with enable.idempotence named or with acks=all: the other outcomes.
  const variants = [props, `${props}\nenable.idempotence=true`, "acks=all", "enable.idempotence=false"].map((p) => outcome(resolveProducerConfig(p, client)));
  const choices = [...new Set(variants)].sort();
  const rule = result.ok ? (result.rules ?? []).filter((id) => id !== "P1" && id !== "P2")[0] ?? null : result.rule;
  chapterQuestion(section, {
    prompt: `a Kafka 4.x producer is created with ${props.split("\n").join(", ")} and nothing else set. What does new KafkaProducer(props) do?`,
    choices, answer: outcome(result), who: "the config resolver",
    why: [result.ok ? `${result.reason ?? ""}: no error, no warning — a retry can now write a batch twice. Name enable.idempotence=true and the same settings throw a ConfigException instead.` : result.message],
    rule: rule ? { id: rule, text: RULES[rule] ?? "" } : null,
    source: "clients/src/main/java/org/apache/kafka/clients/producer/ProducerConfig.java",
  });
}

const batch = document.getElementById("tour-batch");
const ladders = [...document.querySelectorAll("kafka-ladder")];
const laddersRan = Promise.all(ladders.map((l) => (l.steps > 0 ? null : new Promise((r) => l.addEventListener("kafka-ladder:load", r, { once: true })))));
batch.load(SAMPLE_HEX, "Example A").then(async () => {
  await ready(); // pkg/eoslab.js, for the config resolver
  configQuestion();
  await laddersRan;
  await headerQuestion();
  document.body.dataset.ready = "1";
});
