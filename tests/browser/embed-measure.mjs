// What an embedding page costs until its eoslab elements first render: the requests it has issued
// by then and their bodies gzipped (gzip -9 of each body, as a static host compressing on the fly
// sends it; the test server does not compress). Shared by tests/browser/embed-budget.test.mjs (the
// budgets) and scripts/embed-sizes.mjs (`make bench`'s embed pass, the README's table).
//
// "First render", concretely: every eoslab element on the page has shown its content, and the
// browser has then run one more animation frame (the frame that paints it):
//   <kafka-batch>             a `kafka-batch:decode` event with batches ≥ 1 and errors 0, and its
//                             shadow root holds the decoded header fields (tr[data-field="producerId"]);
//   <kafka-ladder>, <kafka-timeline>   a `kafka-…:load` event with steps ≥ 1 and no error, and a
//                             `kafka-…:step` event (the first step is on screen);
//   <kafka-producer-config>   a `kafka-producer-config:resolve` event;
// and no code fence of the page (a block eoslab-fences.js upgrades: lib/fences.js FENCE_KINDS) is
// still waiting to become an element. The elements and fences are counted on the page as it is,
// never assumed. An element that reports an error (a load event with an error, a decode with
// errors) fails the measurement with that error rather than waiting for a render that will not come.
//
// "Until first render" counts every request the page issued (workers' included) up to that frame,
// as seen by the browser; nothing after it (a lazy panel, an idle prefetch) is counted there.
// Requests after it, to network idle, are reported apart as `total`.
import { gzipSync } from "node:zlib";
import { FENCE_KINDS } from "../../www/lib/fences.js";

/** Runs in the page before any of its scripts (addInitScript): watches the elements' events. */
function firstRenderProbe(kinds) {
  const TAGS = "kafka-batch, kafka-ladder, kafka-timeline, kafka-producer-config";
  const FENCES = kinds.flatMap((k) => [`div.language-${k}`, `pre.${k}`, `pre.language-${k}`, `code.language-${k}`]).join(", ");
  const loaded = new WeakSet();
  const stepped = new WeakSet();
  const st = (window.__eoslabFirstRender = { t: null, error: null, elements: 0, fences: 0 });
  const fail = (el, what) => {
    if (st.error || st.t !== null) return;
    st.error = `${el.localName}${el.id ? `#${el.id}` : ""}: ${what}`;
    window.__eoslabRenderFailed?.(st.error);
  };
  const rendered = (el) => {
    if (el.localName === "kafka-batch") return loaded.has(el) && !!el.shadowRoot?.querySelector('tr[data-field="producerId"]');
    if (el.localName === "kafka-producer-config") return loaded.has(el);
    return loaded.has(el) && stepped.has(el);
  };
  let looping = false;
  const check = () => {
    if (st.t !== null || st.error) return;
    const els = [...document.querySelectorAll(TAGS)];
    // Fence blocks not yet upgraded: eoslab-fences.js marks the hidden source data-eoslab-fence="source".
    const pending = [...document.querySelectorAll(FENCES)].filter((n) => !n.closest('[data-eoslab-fence="source"]'));
    if (els.length && !pending.length && els.every(rendered)) {
      st.elements = els.length;
      st.fences = document.querySelectorAll('[data-eoslab-fence="source"]').length;
      requestAnimationFrame(() => {
        if (st.t !== null) return;
        st.t = performance.now();
        window.__eoslabRendered?.(st.t);
      });
      return;
    }
    if (!looping) {
      looping = true;
      const loop = () => {
        check();
        if (st.t === null && !st.error) requestAnimationFrame(loop);
      };
      requestAnimationFrame(loop);
    }
  };
  const on = (type, f) => document.addEventListener(type, (e) => { f(e.target, e.detail ?? {}); check(); });
  on("kafka-batch:decode", (el, d) => (d.batches >= 1 && !d.errors ? loaded.add(el) : fail(el, `decoded ${d.batches} batches with ${d.errors} errors`)));
  for (const tag of ["kafka-ladder", "kafka-timeline"]) {
    on(`${tag}:load`, (el, d) => (d.steps >= 1 && !d.error ? loaded.add(el) : fail(el, `load: ${d.error ?? "no steps"}`)));
    on(`${tag}:step`, (el) => stepped.add(el));
  }
  on("kafka-producer-config:resolve", (el) => loaded.add(el));
}

const gz = (b) => gzipSync(b, { level: 9 }).length;

/**
 * Loads `url` in a new browser context of `browser` (cold cache: a fresh context has none, and the
 * test server sends no-store) and measures it until first render. `isEoslab(pathname)` tells the
 * eoslab files from the page's own. Resolves to
 *   {renderMs, untilRender: {requests, bytes, gzip, eoslab: {requests, bytes, gzip, wasmGzip}, files},
 *    total: {requests, gzip, eoslab: {requests, gzip}}, elements, fences, fromFirstScriptMs}
 * (bytes: raw body bytes; gzip: the bodies gzipped, summed; files: [{path, bytes, gzip}] of the eoslab requests).
 * Rejects when an element reports an error or nothing renders within `timeout` ms.
 */
export async function measurePage(browser, url, { isEoslab = (p) => /\/eoslab\//.test(p), timeout = 30_000, viewport = { width: 1000, height: 900 } } = {}) {
  const context = await browser.newContext({ viewport, colorScheme: "light", serviceWorkers: "block" });
  const requests = [];
  let snapshot = null;
  let failed = null;
  let resolveRender;
  const rendered = new Promise((r) => (resolveRender = r));
  try {
    await context.route("**/*", (route) => {
      const u = new URL(route.request().url());
      if (u.hostname === "127.0.0.1" || u.protocol === "data:" || u.protocol === "blob:") return route.continue();
      return route.abort(); // no network at run time
    });
    await context.addInitScript(firstRenderProbe, FENCE_KINDS);
    await context.exposeBinding("__eoslabRendered", (_src, t) => {
      snapshot ??= { count: requests.length, t };
      resolveRender();
    });
    await context.exposeBinding("__eoslabRenderFailed", (_src, msg) => {
      failed ??= msg;
      resolveRender();
    });
    context.on("request", (r) => requests.push(r));
    const page = await context.newPage();
    const errors = [];
    page.on("pageerror", (e) => errors.push(String(e)));
    page.on("console", (m) => m.type() === "error" && errors.push(m.text()));
    await page.goto(url, { waitUntil: "commit" });
    let timer;
    await Promise.race([rendered, new Promise((r) => (timer = setTimeout(r, timeout)))]);
    clearTimeout(timer);
    if (failed) throw new Error(`${url}: ${failed}`);
    if (!snapshot) {
      const why = await page.evaluate(() => [...document.querySelectorAll("kafka-batch, kafka-ladder, kafka-timeline, kafka-producer-config")]
        .map((e) => `${e.localName}: ${e.shadowRoot ? (e.shadowRoot.textContent || "").replace(/\s+/g, " ").slice(0, 200) : "(not defined)"}`)).catch(() => []);
      throw new Error(`${url}: no first render in ${timeout} ms (${why.join("; ") || "no element"}; errors: ${errors.join("; ") || "none"})`);
    }
    const probe = await page.evaluate(() => {
      const st = window.__eoslabFirstRender;
      const first = performance.getEntriesByType("resource").filter((e) => /\/eoslab\/.*\.js$/.test(new URL(e.name).pathname))
        .reduce((m, e) => Math.min(m, e.startTime), Infinity);
      return { elements: st.elements, fences: st.fences, fromFirstScriptMs: Number.isFinite(first) ? st.t - first : null };
    });
    await page.waitForLoadState("networkidle").catch(() => {});
    const body = async (r) => {
      const res = await r.response().catch(() => null);
      const b = res ? await res.body().catch(() => null) : null;
      return { path: new URL(r.url()).pathname, status: res?.status() ?? 0, b: b ?? Buffer.alloc(0) };
    };
    const all = await Promise.all(requests.map(body));
    const sum = (xs) => ({ requests: xs.length, bytes: xs.reduce((n, x) => n + x.b.length, 0), gzip: xs.reduce((n, x) => n + gz(x.b), 0) });
    const before = all.slice(0, snapshot.count);
    const eos = before.filter((x) => isEoslab(x.path));
    const untilRender = {
      ...sum(before),
      eoslab: { ...sum(eos), wasmGzip: eos.filter((x) => x.path.endsWith(".wasm")).reduce((n, x) => n + gz(x.b), 0) },
      files: eos.map((x) => ({ path: x.path, status: x.status, bytes: x.b.length, gzip: gz(x.b) })),
    };
    const total = { ...sum(all), eoslab: sum(all.filter((x) => isEoslab(x.path))) };
    return { renderMs: snapshot.t, untilRender, total, elements: probe.elements, fences: probe.fences, fromFirstScriptMs: probe.fromFirstScriptMs, errors };
  } finally {
    await Promise.race([context.close(), new Promise((r) => setTimeout(r, 10_000))]).catch(() => {});
  }
}
