// Benchmark (not a test): a 10,000-step <kafka-timeline> in headless Chromium.
//   node benches/timeline.bench.mjs          (after `make pkg`; needs /usr/bin/chromium and
//                                            playwright-core in tests/node_modules: scripts/ensure-test-tools.sh)
// Prints the render time (runTxnScenario in wasm, indexing, first frame) and, while the timeline is
// scrubbed (a new step every animation frame, as dragging the range input does) and while its log
// area is scrolled, the frame intervals (p50/p95 ms, fps), the canvas draw time and the DOM panel
// time per frame. Target: 60 fps (a 16.7 ms frame).
// Options: STEPS=10000 RUNS=3 FRAMES=300 CHROMIUM_PATH=/usr/bin/chromium.
// Server and browser come from tests/browser/helpers.mjs (scripts/serve.py on 127.0.0.1, Debian's
// Chromium through playwright-core, which downloads no browser; other hosts are refused).
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { ROOT, launch } from "../tests/browser/helpers.mjs";

const STEPS = Number(process.env.STEPS || 10_000);
const RUNS = Number(process.env.RUNS || 3);
const FRAMES = Number(process.env.FRAMES || 300);

/**
 * A transactions script of `steps` steps without `repeat`: `init app`, then one cycle of
 * CYCLE.length lines per transaction (begin / send / commit / deliver markers: 2,500 transactions
 * for 10,000 steps), `$i` replaced by the transaction's number.
 * The syntax is the core's (scenarios/README.md); adapt CYCLE or the set-up lines here if it changes.
 */
export const CYCLE = ["begin app", "send app orders-0 v$i", "commit app", "deliver markers"];
export function txnScript(steps, cycle = CYCLE) {
  const lines = [
    "model transactions",
    `title ${steps} steps: ${Math.ceil(steps / cycle.length)} transactions`,
    "partition orders-0",
    "producer app transactional.id=tx-app",
    "consumer reader read_committed orders-0",
    "consumer peek read_uncommitted orders-0",
  ];
  const body = ["init app"]; // the first step: InitProducerId
  for (let i = 0; body.length < steps; i++) {
    for (const c of cycle) if (body.length < steps) body.push(c.replaceAll("$i", String(i)));
  }
  return [...lines, ...body, ""].join("\n");
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const pct = (xs, p) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))];
const f1 = (x) => x.toFixed(1);

if (process.argv[1] && import.meta.url.endsWith(process.argv[1].split("/").pop())) {
  const pkg = join(ROOT, "pkg/eoslab.js");
  if (!existsSync(pkg)) {
    console.error("timeline.bench: pkg/ is not built (make pkg)");
    process.exit(2);
  }
  if (!readFileSync(pkg, "utf8").includes("runTxnScenario")) {
    console.error("timeline.bench: pkg/eoslab.js has no runTxnScenario (the transactions model): skipped");
    process.exit(0);
  }
  await main();
}

async function main() {
  const script = txnScript(STEPS);
  const lab = await launch({ viewport: { width: 1280, height: 900 }, timeout: 120_000 });
  try {
    const { page, context } = lab;
    page.on("pageerror", (e) => console.error("page error:", String(e)));
    await page.goto(`${lab.baseUrl}/www/transactions.html`);
    await page.waitForSelector('body[data-ready="1"]');
    console.log(`timeline.bench: ${STEPS} steps, Chromium ${context.browser()?.version() ?? "(persistent)"}, ${RUNS} runs`);

    const renders = [];
    for (let i = 0; i < RUNS; i++) {
      // From a small script, so every run starts from the same state.
      await page.evaluate((s) => {
        const t = document.querySelector("kafka-timeline");
        t.removeAttribute("scenario");
        t.removeAttribute("step");
        t.setAttribute("script", s);
      }, txnScript(8));
      await page.waitForFunction(() => document.querySelector("kafka-timeline").steps === 8);
      renders.push(
        await page.evaluate(async (script) => {
          const t = document.querySelector("kafka-timeline");
          const loaded = new Promise((r) => t.addEventListener("kafka-timeline:load", (e) => r(e.detail), { once: true }));
          const t0 = performance.now();
          t.setAttribute("script", script);
          const d = await loaded;
          const tLoaded = performance.now();
          await new Promise((r) => requestAnimationFrame(() => r()));
          const tFrame = performance.now();
          return { error: d.error, steps: d.steps, records: d.records, runMs: d.runMs, indexMs: d.ms - d.runMs, firstFrameMs: tFrame - tLoaded, totalMs: tFrame - t0, drawMs: t.renderStats.lastDrawMs };
        }, script),
      );
      if (renders.at(-1).error) throw new Error(`the generated script fails: ${renders.at(-1).error}`);
    }
    const r = (k) => f1(median(renders.map((x) => x[k])));
    console.log(`run     ${renders[0].steps} steps, ${renders[0].records} records`);
    console.log(`render  (median of ${RUNS}): total ${r("totalMs")} ms = runTxnScenario + JSON ${r("runMs")} ms + index ${r("indexMs")} ms + to first frame ${r("firstFrameMs")} ms (canvas draw ${r("drawMs")} ms)`);

    const passes = [
      ["scrub 1 step/frame", { stride: 1, px: 0 }],
      ["scrub 37 steps/frame (drag)", { stride: 37, px: 0 }],
      ["scroll log 120 px/frame", { stride: 0, px: 120 }],
      ["scroll log 4000 px/frame", { stride: 0, px: 4000 }],
    ];
    for (const [label, opts] of passes) {
      const s = await page.evaluate(
        async ({ frames, stride, px }) => {
          const t = document.querySelector("kafka-timeline");
          const vp = t.shadowRoot.querySelector(".viewport");
          const n = t.steps;
          t.goTo(stride ? 0 : n - 1);
          vp.scrollLeft = 0;
          await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
          const intervals = [];
          const draws = [];
          const panels = [];
          const draws0 = t.renderStats.draws;
          let last = 0;
          let k = 0;
          await new Promise((resolve) => {
            let f = 0;
            const tick = (ts) => {
              if (last) {
                intervals.push(ts - last);
                draws.push(t.renderStats.lastDrawMs);
                panels.push(t.renderStats.panelMs);
              }
              last = ts;
              if (stride) {
                k = (k + stride) % n;
                t.goTo(k); // what the range input's input event does
              } else {
                vp.scrollLeft = (vp.scrollLeft + px) % Math.max(1, vp.scrollWidth - vp.clientWidth);
              }
              if (++f <= frames) requestAnimationFrame(tick);
              else resolve();
            };
            requestAnimationFrame(tick);
          });
          return { intervals, draws, panels, drawn: t.renderStats.draws - draws0, width: vp.scrollWidth };
        },
        { frames: FRAMES, ...opts },
      );
      const fps = (s.intervals.length / s.intervals.reduce((a, b) => a + b, 0)) * 1000;
      const long = s.intervals.filter((x) => x > 20).length;
      console.log(
        `${label.padEnd(30)} frame p50 ${f1(median(s.intervals))} ms, p95 ${f1(pct(s.intervals, 0.95))} ms, max ${f1(Math.max(...s.intervals))} ms ` +
          `(${f1(fps)} fps, ${long} of ${s.intervals.length} over 20 ms); canvas draw p50 ${f1(median(s.draws))} ms, p95 ${f1(pct(s.draws, 0.95))} ms; ` +
          (opts.stride ? `DOM panels p50 ${f1(median(s.panels))} ms, p95 ${f1(pct(s.panels, 0.95))} ms; ` : "") +
          `${s.drawn} redraws; log ${Math.round(s.width / 1000)}k px wide`,
      );
    }
    console.log("target: 60 fps (a 16.7 ms frame); draw + panels must stay well under it");
  } finally {
    await lab.close();
  }
}
