// tour.html: the guided tour of the seeds' story (issue 14). Each chapter is a section with a short
// text and live elements (they run the models in this page); predict is on in every ladder and
// timeline (their `predict` attribute), so each chapter asks before it reveals. Text only.
import "./kafka-batch.js";
import "./idempotence-elements.js";
import "./kafka-timeline.js";
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

const batch = document.getElementById("tour-batch");
batch.load(SAMPLE_HEX, "Example A").then(() => {
  document.body.dataset.ready = "1";
});
