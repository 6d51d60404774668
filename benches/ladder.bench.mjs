// Benchmark (not a test): a 10,000-batch <kafka-ladder> in headless Chromium.
//   node benches/ladder.bench.mjs            (after `make pkg`; needs /usr/bin/chromium and
//                                            playwright-core in tests/node_modules: scripts/ensure-test-tools.sh)
// Prints the render time (runTxnScenario in wasm, rows + layout, first frame) and, while the ladder
// is scrolled on every animation frame, the frame intervals (fps) and the canvas draw time per
// frame. Target: 60 fps. Options: BATCHES=10000 RUNS=3 FRAMES=300 CHROMIUM_PATH=/usr/bin/chromium.
// Server and browser come from tests/browser/helpers.mjs (scripts/serve.py on 127.0.0.1, Debian's
// Chromium through playwright-core, which downloads no browser; other hosts are refused).
import { existsSync } from "node:fs";
import { join } from "node:path";
import { ROOT, launch } from "../tests/browser/helpers.mjs";

const BATCHES = Number(process.env.BATCHES || 10_000);
const RUNS = Number(process.env.RUNS || 3);
const FRAMES = Number(process.env.FRAMES || 300);

if (!existsSync(join(ROOT, "pkg/eoslab.js"))) {
  console.error("ladder.bench: pkg/ is not built (make pkg)");
  process.exit(2);
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const pct = (xs, p) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))];
const f1 = (x) => x.toFixed(1);

const script = `title ${BATCHES} batches\npartition orders-0\nproducer app\nrepeat ${BATCHES}: send app orders-0 x; flush; flush\n`;

const lab = await launch({ viewport: { width: 1280, height: 900 }, timeout: 120_000 });
try {
  const { page, context } = lab;
  page.on("pageerror", (e) => console.error("page error:", String(e)));
  await page.goto(`${lab.baseUrl}/www/idempotence.html`);
  await page.waitForFunction(() => document.querySelector("kafka-ladder")?.steps > 0);

  console.log(`ladder.bench: ${BATCHES} batches (${4 * BATCHES + 1} rows), Chromium ${context.browser()?.version() ?? "(persistent)"}, ${RUNS} runs`);
  const renders = [];
  for (let i = 0; i < RUNS; i++) {
    // Reset to a small scenario so every run starts from the same state.
    await page.evaluate(() => document.querySelector("kafka-ladder").setAttribute("scenario", "business-resend"));
    await page.evaluate(() => document.querySelector("kafka-ladder").removeAttribute("script"));
    // (`steps` counts story steps, so it is not compared with a number here.)
    await page.waitForFunction(() => {
      const l = document.querySelector("kafka-ladder");
      return l.steps > 0 && l.run?.title && !l.script.includes("repeat ");
    });
    renders.push(
      await page.evaluate(async (script) => {
        const l = document.querySelector("kafka-ladder");
        const loaded = new Promise((r) => l.addEventListener("kafka-ladder:load", (e) => r(e.detail), { once: true }));
        const t0 = performance.now();
        l.setAttribute("script", script);
        const d = await loaded;
        const tLoaded = performance.now();
        await new Promise((r) => requestAnimationFrame(() => r())); // the first frame draws
        const tFrame = performance.now();
        return { runMs: d.runMs, loadMs: d.ms, layoutAndRowsMs: d.ms - d.runMs, firstFrameMs: tFrame - tLoaded, totalMs: tFrame - t0, rows: d.rows, drawMs: l.renderStats.lastDrawMs };
      }, script),
    );
  }
  const r = (k) => f1(median(renders.map((x) => x[k])));
  console.log(`render  (median of ${RUNS}): total ${r("totalMs")} ms = runTxnScenario ${r("runMs")} ms + rows/layout ${r("layoutAndRowsMs")} ms + to first frame ${r("firstFrameMs")} ms (canvas draw ${r("drawMs")} ms)`);

  for (const [label, px] of [["scroll 120 px/frame", 120], ["scroll 2000 px/frame (fling)", 2000]]) {
    const s = await page.evaluate(
      async ({ frames, px }) => {
        const l = document.querySelector("kafka-ladder");
        const vp = l.shadowRoot.querySelector(".viewport");
        vp.scrollTop = 0;
        await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
        const intervals = [];
        const draws = [];
        const draws0 = l.renderStats.draws;
        let last = 0;
        const t0 = performance.now();
        await new Promise((resolve) => {
          let n = 0;
          const tick = (ts) => {
            if (last) {
              intervals.push(ts - last);
              draws.push(l.renderStats.lastDrawMs);
            }
            last = ts;
            vp.scrollTop = (vp.scrollTop + px) % Math.max(1, vp.scrollHeight - vp.clientHeight);
            if (++n <= frames) requestAnimationFrame(tick);
            else resolve();
          };
          requestAnimationFrame(tick);
        });
        return { intervals, draws, elapsed: performance.now() - t0, drawn: l.renderStats.draws - draws0, height: vp.scrollHeight };
      },
      { frames: FRAMES, px },
    );
    const fps = (s.intervals.length / s.intervals.reduce((a, b) => a + b, 0)) * 1000;
    const long = s.intervals.filter((x) => x > 20).length;
    console.log(
      `${label.padEnd(30)} ${f1(fps)} fps over ${s.intervals.length} frames (interval median ${f1(median(s.intervals))} ms, p95 ${f1(pct(s.intervals, 0.95))} ms, max ${f1(Math.max(...s.intervals))} ms, ${long} over 20 ms); ` +
        `draw per frame median ${f1(median(s.draws))} ms, p95 ${f1(pct(s.draws, 0.95))} ms, max ${f1(Math.max(...s.draws))} ms; ${s.drawn} redraws; content ${Math.round(s.height / 1000)}k px`,
    );
  }
  console.log("target: 60 fps (a 16.7 ms frame); the draw must stay well under it");
} finally {
  await lab.close();
}
