// Shared set-up of the browser tests (and of benches/inspector.bench.mjs): the static server
// (scripts/serve.py on 127.0.0.1, port 0) and Debian's Chromium driven by playwright-core, which
// downloads no browser. Every request that is not for the local server is recorded and refused.
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";

export const ROOT = fileURLToPath(new URL("../../", import.meta.url));
export const CHROMIUM = process.env.CHROMIUM_PATH || "/usr/bin/chromium";
export const CHROMIUM_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

export const EXAMPLE_A_HEX =
  "00 00 00 00 00 00 00 00 00 00 00 3a ff ff ff ff 02 8c 4a 54 5e 00 00 00 00 00 00 00 00 01 8b cf " +
  "e5 68 00 00 00 01 8b cf e5 68 00 00 00 00 00 00 00 10 92 00 01 00 00 00 07 00 00 00 01 10 00 00 " +
  "00 02 6b 02 76 00";

/** Starts scripts/serve.py on a free port: {child, url}. */
export function startServer() {
  return new Promise((resolve, reject) => {
    const child = spawn("python3", [join(ROOT, "scripts/serve.py"), "0"], { cwd: ROOT, stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    const timer = setTimeout(() => reject(new Error(`serve.py did not start in 10 s: ${out}`)), 10_000);
    child.on("error", (err) => {
      clearTimeout(timer);
      reject(err);
    });
    child.on("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`serve.py exited (${code}) before listening: ${out}`));
    });
    child.stderr.on("data", (d) => (out += d));
    child.stdout.on("data", (d) => {
      out += d;
      const m = out.match(/http:\/\/127\.0\.0\.1:(\d+)\//);
      if (m) {
        clearTimeout(timer);
        resolve({ child, url: `http://127.0.0.1:${m[1]}` });
      }
    });
    // Whatever happens, never leave the server behind.
    process.on("exit", () => child.kill("SIGKILL"));
  });
}

export function stopServer(child) {
  if (!child || child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const kill = setTimeout(() => child.kill("SIGKILL"), 3_000);
    child.once("exit", () => {
      clearTimeout(kill);
      resolve();
    });
    child.kill("SIGTERM");
  });
}

/**
 * Server + Chromium with a fresh profile. Returns {baseUrl, context, page, consoleErrors,
 * pageErrors, foreignRequests, dialogs, wasmRequests, close()}.
 */
export async function launch({ colorScheme = "light", timeout = 20_000, viewport = { width: 1400, height: 1000 } } = {}) {
  const { child, url } = await startServer();
  const userDataDir = mkdtempSync(join(tmpdir(), "eoslab-chromium-"));
  const consoleErrors = [];
  const pageErrors = [];
  const foreignRequests = [];
  const dialogs = [];
  /** Every .wasm the pages fetched: {path, page} (page: the page's path at the time). */
  const wasmRequests = [];
  let context;
  try {
    // playwright wants the profile directory as launchPersistentContext's argument, not in args.
    context = await chromium.launchPersistentContext(userDataDir, {
      executablePath: CHROMIUM,
      headless: true,
      args: CHROMIUM_ARGS,
      timeout: 30_000,
      colorScheme,
      viewport,
    });
  } catch (err) {
    await stopServer(child);
    rmSync(userDataDir, { recursive: true, force: true });
    throw err;
  }
  context.setDefaultTimeout(timeout);
  await context.route("**/*", (route) => {
    const u = new URL(route.request().url());
    if (u.hostname === "127.0.0.1" || u.protocol === "data:" || u.protocol === "blob:") return route.continue();
    foreignRequests.push(u.href);
    return route.abort();
  });
  const page = context.pages()[0] ?? (await context.newPage());
  page.on("console", (msg) => {
    if (msg.type() === "error") consoleErrors.push(msg.text());
  });
  page.on("pageerror", (err) => pageErrors.push(String(err)));
  page.on("request", (r) => {
    const u = new URL(r.url());
    if (u.pathname.endsWith(".wasm")) wasmRequests.push({ path: u.pathname, page: new URL(page.url()).pathname });
  });
  page.on("dialog", (d) => {
    dialogs.push(`${d.type()}: ${d.message()}`);
    d.dismiss().catch(() => {});
  });
  const close = async () => {
    await Promise.race([context.close(), new Promise((r) => setTimeout(r, 10_000))]).catch(() => {});
    await stopServer(child);
    rmSync(userDataDir, { recursive: true, force: true });
  };
  return { baseUrl: url, context, page, consoleErrors, pageErrors, foreignRequests, dialogs, wasmRequests, close };
}

/** The wasm package in node (for building test inputs with encodeBatch / encodeSegment). */
export async function loadPkg() {
  const { readFileSync } = await import("node:fs");
  const pkg = await import(new URL("pkg/eoslab.js", `file://${ROOT}`).href);
  pkg.initSync({ module: readFileSync(join(ROOT, "pkg/eoslab_bg.wasm")) });
  return pkg;
}

export const toHex = (bytes) => Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join(" ");

/**
 * Waits until the page holds `count` eoslab elements and each has drawn its first view: an
 * inspector its decoded header fields, a config element its resolution, a player its steps.
 */
export function everyElementDrawn(page, count, timeout = 60_000) {
  return page.waitForFunction((n) => {
    const all = [...document.querySelectorAll("kafka-batch, kafka-ladder, kafka-timeline, kafka-producer-config")];
    return all.length === n && all.every((el) => {
      if (el.localName === "kafka-batch") return !!el.shadowRoot?.querySelector('tr[data-field="producerId"]');
      if (el.localName === "kafka-producer-config") return !!el.result;
      return el.steps > 0;
    });
  }, count, { timeout });
}
