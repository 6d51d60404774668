// Benchmark (not a test): how soon the lab pages show their picture. For www/idempotence.html
// (<kafka-ladder>) and www/transactions.html (<kafka-timeline>) on a shipped scenario, at
// 1280×720 in headless Chromium, the time from navigation to the view's first drawn step (its
// canvas drawn once with the run: renderStats.draws > 0, read on an animation frame), with the
// pre-built runs scripts/serve.py serves at /runs/ and without them (/runs/ answered 404: the page
// runs the model in wasm, as before). Each load starts from about:blank (serve.py sends no-store:
// nothing is cached). Prints a table; the median of RUNS loads.
//   node benches/page-ready.bench.mjs      (after `make pkg`; RUNS=5 CHROMIUM_PATH=/usr/bin/chromium)
import { existsSync } from "node:fs";
import { join } from "node:path";
import { ROOT, launch } from "../tests/browser/helpers.mjs";

const RUNS = Number(process.env.RUNS || 5);
if (!existsSync(join(ROOT, "pkg/eoslab.js"))) {
  console.error("page-ready.bench: pkg/ is not built (make pkg)");
  process.exit(2);
}

const PAGES = [
  { page: "idempotence.html", tag: "kafka-ladder", scenario: "lost-response-retry" },
  { page: "transactions.html", tag: "kafka-timeline", scenario: "txn-zombie-fenced" },
];
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const lab = await launch({ viewport: { width: 1280, height: 720 }, timeout: 120_000 });
try {
  // serve.py makes the runs in the background when it starts: wait for them.
  const deadline = Date.now() + 180_000;
  for (;;) {
    const index = await (await fetch(`${lab.baseUrl}/runs/index.json`)).json();
    if (PAGES.every((p) => index.runs?.[p.tag]?.includes(p.scenario))) break;
    if (Date.now() > deadline) throw new Error("serve.py made no pre-built runs in 180 s (is node on PATH?)");
    await new Promise((r) => setTimeout(r, 500));
  }
  const { page } = lab;
  const rows = [];
  for (const p of PAGES) {
    const row = { ...p };
    for (const runs of [true, false]) {
      const times = [];
      const wasm = [];
      for (let i = 0; i < RUNS; i++) {
        await page.goto("about:blank");
        let wasmRequests = 0;
        const count = (r) => {
          if (new URL(r.url()).pathname.endsWith(".wasm")) wasmRequests++;
        };
        page.on("request", count);
        if (!runs) await page.route("**/runs/**", (route) => route.fulfill({ status: 404, body: "" }));
        await page.goto(`${lab.baseUrl}/www/${p.page}#scenario=${p.scenario}`, { waitUntil: "commit" });
        const ms = await page.waitForFunction(
          (tag) => {
            const el = document.querySelector(tag);
            return el?.steps > 0 && el.renderStats?.draws > 0 ? performance.now() : null;
          },
          p.tag,
          { polling: "raf", timeout: 60_000 },
        );
        times.push(await ms.jsonValue());
        wasm.push(wasmRequests);
        page.off("request", count);
        if (!runs) await page.unroute("**/runs/**");
      }
      row[runs ? "with" : "without"] = median(times);
      row[runs ? "wasmWith" : "wasmWithout"] = Math.max(...wasm);
    }
    rows.push(row);
  }
  console.log(`page-ready: navigation → the view's first drawn step, 1280×720, median of ${RUNS} loads (Chromium ${lab.context.browser()?.version() ?? "from helpers.mjs"})`);
  console.log("");
  console.log("| page | scenario | pre-built run | .wasm before it | running the model | .wasm before it | saved |");
  console.log("|---|---|---:|---:|---:|---:|---:|");
  for (const r of rows) {
    console.log(`| ${r.page} | ${r.scenario} | ${r.with.toFixed(0)} ms | ${r.wasmWith} | ${r.without.toFixed(0)} ms | ${r.wasmWithout} | ${(r.without - r.with).toFixed(0)} ms |`);
  }
} finally {
  await lab.close();
}
