// A static server for the embedding tests (and scripts/embed-sizes.mjs): serves folders under URL
// prefixes, like any static host would, with an optional Content-Security-Policy header on every
// response. No rewriting, no index magic beyond "dir/ → dir/index.html".
import { createServer } from "node:http";
import { createReadStream, existsSync, statSync } from "node:fs";
import { extname, join, normalize } from "node:path";

const TYPES = {
  ".html": "text/html; charset=utf-8", ".js": "text/javascript", ".mjs": "text/javascript", ".css": "text/css",
  ".wasm": "application/wasm", ".json": "application/json", ".eos": "text/plain; charset=utf-8", ".svg": "image/svg+xml",
  ".png": "image/png", ".ico": "image/x-icon", ".woff2": "font/woff2", ".txt": "text/plain; charset=utf-8", ".xml": "application/xml",
};

export const STRICT_CSP = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'";

/**
 * Starts a server on 127.0.0.1 (free port). `mounts`: [{prefix: "/docs/eoslab/", dir, csp?}], the
 * longest matching prefix wins. Resolves to {url, close()}.
 */
export function startStatic(mounts) {
  const sorted = [...mounts].sort((a, b) => b.prefix.length - a.prefix.length);
  const server = createServer((req, res) => {
    const path = decodeURIComponent(new URL(req.url, "http://x").pathname);
    const m = sorted.find((mm) => path.startsWith(mm.prefix));
    if (!m) return end(res, 404);
    const rel = normalize(path.slice(m.prefix.length)).replace(/^(\.\.(\/|$))+/, "");
    let file = join(m.dir, rel);
    if (existsSync(file) && statSync(file).isDirectory()) {
      if (!path.endsWith("/")) {
        res.writeHead(301, { Location: path + "/" });
        return res.end();
      }
      file = join(file, "index.html");
    }
    if (!existsSync(file) || !statSync(file).isFile()) return end(res, 404);
    const headers = { "Content-Type": TYPES[extname(file)] ?? "application/octet-stream", "Cache-Control": "no-store" };
    if (m.csp) headers["Content-Security-Policy"] = m.csp;
    res.writeHead(200, headers);
    createReadStream(file).pipe(res);
  });
  const end = (res, code) => {
    res.writeHead(code, { "Content-Type": "text/plain" });
    res.end(String(code));
  };
  return new Promise((resolve) => {
    server.listen(0, "127.0.0.1", () => {
      resolve({ url: `http://127.0.0.1:${server.address().port}`, close: () => new Promise((r) => server.close(r)) });
    });
  });
}

/**
 * A fresh Chromium profile in `dir` for a docs-site test: light scheme, 1280×900, every request
 * off 127.0.0.1 aborted and recorded, console errors and page errors recorded. Returns
 * {context, page, rec: {console, page, foreign}, close()}.
 */
export async function recordingContext(dir) {
  const { chromium } = await import("playwright-core");
  const { CHROMIUM, CHROMIUM_ARGS } = await import("./helpers.mjs");
  const rec = { console: [], page: [], foreign: [] };
  const context = await chromium.launchPersistentContext(dir, {
    executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS, timeout: 30_000, colorScheme: "light", viewport: { width: 1280, height: 900 },
  });
  context.setDefaultTimeout(20_000);
  await context.route("**/*", (route) => {
    const u = new URL(route.request().url());
    if (u.hostname === "127.0.0.1" || u.protocol === "data:" || u.protocol === "blob:") return route.continue();
    rec.foreign.push(u.href);
    return route.abort();
  });
  const page = context.pages()[0] ?? (await context.newPage());
  page.on("console", (m) => m.type() === "error" && rec.console.push(m.text()));
  page.on("pageerror", (e) => rec.page.push(String(e)));
  const close = () => Promise.race([context.close(), new Promise((r) => setTimeout(r, 10_000))]).catch(() => {});
  return { context, page, rec, close };
}
