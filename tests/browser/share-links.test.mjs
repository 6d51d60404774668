// Damaged share links (`#s=1.…`, lib/link-state.js): a link cut short or altered after it was
// copied says what is wrong with it — which part could not be read (its version, its data, the
// compressed state in it, the state's JSON) — and keeps what came through whole, on the
// transactions page, the idempotence page, the inspector and the iframe fallback (frame.html);
// never the bare "(Failed to fetch)" that a stream error used to read as.
// Run: node --test tests/browser/share-links.test.mjs      (needs pkg/ and /usr/bin/chromium)
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { constants, deflateRawSync, inflateRawSync } from "node:zlib";
import { launch, ROOT } from "./helpers.mjs";

let env;
before(async () => {
  env = await launch();
});
after(async () => {
  await env?.close();
});

const b64url = (buf) => buf.toString("base64").replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
/** The link's data (after `#s=1.`) of `state`, as lib/link-state.js writes it. */
const linkData = (state) => b64url(deflateRawSync(Buffer.from(JSON.stringify(state))));

/** What the first `n` characters of `data` still inflate to (the test's own check that the cut kept a part). */
function inflatedPrefix(data, n) {
  const cut = data.slice(0, n - (n % 4)); // whole 4-character groups
  const bytes = Buffer.from(cut.replace(/-/g, "+").replace(/_/g, "/"), "base64");
  return inflateRawSync(bytes, { finishFlush: constants.Z_SYNC_FLUSH }).toString("utf8");
}

// A script long enough that a cut in its compressed text leaves the members before it whole.
const SCRIPT = `${readFileSync(join(ROOT, "scenarios/txn-commit-two-partitions.eos"), "utf8")}\n${Array.from({ length: 80 }, (_, i) => `# note ${i}: ${(i * 7919).toString(36)} ${"abcdefghij".slice(i % 10)}`).join("\n")}\n`;

/** Loads `path` with `hash` as a new document. */
async function open(path, hash) {
  const { page } = env;
  await page.goto("about:blank");
  await page.goto(`${env.baseUrl}${path}${hash}`, { waitUntil: "load" });
  return page;
}

test("transactions page: a link cut in the middle of its script keeps the scenario and step, and says the link was cut", { timeout: 60_000 }, async () => {
  const state = { v: 1, page: "transactions", scenario: "txn-commit-two-partitions", step: 3, script: SCRIPT };
  const data = linkData(state);
  const n = Math.floor(data.length * 0.6);
  assert.match(inflatedPrefix(data, n), /"step":3,"script":"/, "the cut falls inside the script");
  const page = await open("/www/transactions.html", `#s=1.${data.slice(0, n)}`);
  await page.waitForFunction(() => /link/.test(document.getElementById("link-note")?.textContent ?? ""));
  const note = await page.textContent("#link-note");
  assert.doesNotMatch(note, /Failed to fetch/);
  assert.match(note, /compressed state could not be read to the end/);
  assert.match(note, /cut short or altered/);
  assert.match(note, /Kept what came through whole: page, scenario, step; the rest is lost/);
  // What it kept is shown: the scenario at step 3, its shipped script (the cut one is not run).
  await page.waitForFunction(() => (document.getElementById("timeline")?.steps ?? 0) > 0);
  const t = await page.evaluate(() => {
    const el = document.getElementById("timeline");
    return { scenario: el.getAttribute("scenario"), script: el.hasAttribute("script"), step: el.step };
  });
  assert.deepEqual(t, { scenario: "txn-commit-two-partitions", script: false, step: 3 });
  assert.deepEqual(env.pageErrors, []);
});

test("transactions page: a link cut before any whole member, a changed character, no data: each says which part", { timeout: 60_000 }, async () => {
  const data = linkData({ v: 1, page: "transactions", scenario: "txn-commit-two-partitions", step: 3, script: SCRIPT });
  const cases = [
    [`#s=1.${data.slice(0, 6)}`, /Could not open the link: this link is damaged: its compressed state could not be read to the end \(6 characters of data, .*\), which holds no whole part of the state; the link was cut short or altered.*showing the default scenario/],
    [`#s=1.${data.slice(0, 40)}%20${data.slice(40)}`, /its data has a character a link never holds \(“%” at character 41 of/],
    ["#s=1.", /this link is cut short: it ends after its version \(#s=1\), before any of its data/],
    ["#s=1", /this link is cut short: it ends after its version \(#s=1\)/],
    [`#s=x${data}`, /its version \(the number after “#s=”\) cannot be read/],
  ];
  for (const [hash, want] of cases) {
    const page = await open("/www/transactions.html", hash);
    await page.waitForFunction(() => /link/.test(document.getElementById("link-note")?.textContent ?? ""), null, { timeout: 10_000 })
      .catch(async () => assert.fail(`${hash.slice(0, 20)}: no note (${await page.textContent("#link-note")})`));
    const note = await page.textContent("#link-note");
    assert.match(note, want, hash.slice(0, 20));
    assert.doesNotMatch(note, /Failed to fetch/);
    // Nothing kept: the page shows its default scenario rather than nothing.
    await page.waitForFunction(() => (document.getElementById("timeline")?.steps ?? 0) > 0);
  }
  assert.deepEqual(env.pageErrors, []);
});

test("idempotence page: a cut link keeps the scenario and step it held", { timeout: 60_000 }, async () => {
  const state = { v: 1, page: "idempotence", scenario: "lost-response-retry", step: 2, script: SCRIPT.replace(/^/, "# an idempotence script\n") };
  const data = linkData(state);
  const n = Math.floor(data.length * 0.6);
  assert.match(inflatedPrefix(data, n), /"step":2,"script":"/);
  const page = await open("/www/idempotence.html", `#s=1.${data.slice(0, n)}`);
  await page.waitForFunction(() => /link/.test(document.getElementById("link-note")?.textContent ?? ""));
  const note = await page.textContent("#link-note");
  assert.match(note, /^Opened what the link still holds: this link is damaged: .*Kept what came through whole: page, scenario, step; the rest is lost/);
  await page.waitForFunction(() => (document.getElementById("ladder")?.steps ?? 0) > 0);
  const l = await page.evaluate(() => ({ scenario: document.getElementById("ladder").getAttribute("scenario"), step: document.getElementById("ladder").getAttribute("step") }));
  assert.deepEqual(l, { scenario: "lost-response-retry", step: "2" });
  assert.deepEqual(env.pageErrors, []);
});

test("inspector: a link cut inside its bytes says so and shows the sample", { timeout: 60_000 }, async () => {
  const bytes = Buffer.from(Array.from({ length: 3000 }, (_, i) => (i * 131 + (i >> 3)) & 0xff)).toString("base64");
  const data = linkData({ v: 1, page: "inspector", bytes, batch: 0 });
  const page = await open("/www/", `#s=1.${data.slice(0, Math.floor(data.length / 2))}`);
  await page.waitForFunction(() => /link/.test(document.getElementById("sample-status")?.textContent ?? ""));
  const status = await page.textContent("#sample-status");
  // The bytes were cut: only `page` came through, which holds no input: the sample is shown.
  assert.match(status, /^Could not open the link: this link is damaged: its compressed state could not be read to the end \(\d+ characters of data, \d+ bytes of state before it stopped\); the link was cut short or altered after it was copied\. Kept what came through whole: page; the rest is lost; showing the sample\.$/);
  assert.doesNotMatch(status, /Failed to fetch/);
  assert.deepEqual(env.pageErrors, []);
});

test("frame.html: a cut share link shows what it kept, under a note saying what is wrong, as text", { timeout: 60_000 }, async () => {
  const data = linkData({ v: 1, page: "transactions", scenario: "txn-zombie-fenced", step: 2, script: SCRIPT });
  const page = await open("/www/frame.html", `#s=1.${data.slice(0, Math.floor(data.length * 0.6))}`);
  await page.waitForFunction(() => document.body.dataset.ready === "1" && (document.querySelector("kafka-timeline")?.steps ?? 0) > 0);
  const f = await page.evaluate(() => ({
    warning: document.querySelector(".frame-warning")?.textContent ?? null,
    error: document.querySelector(".frame-error")?.textContent ?? null,
    scenario: document.querySelector("kafka-timeline").getAttribute("scenario"),
    step: document.querySelector("kafka-timeline").step,
  }));
  assert.equal(f.error, null);
  assert.match(f.warning, /^eoslab frame: this link is damaged: its compressed state could not be read to the end .*Kept what came through whole: page, scenario, step; the rest is lost$/);
  assert.equal(f.scenario, "txn-zombie-fenced");
  assert.equal(f.step, 2);
  // Nothing kept: the frame's error message, not an element.
  await page.goto("about:blank");
  await page.goto(`${env.baseUrl}/www/frame.html#s=1.${data.slice(0, 5)}`);
  await page.waitForFunction(() => document.body.dataset.ready === "1");
  assert.match(await page.textContent(".frame-error"), /holds no whole part of the state/);
  assert.equal(await page.$("kafka-timeline"), null);
  assert.deepEqual(env.pageErrors, []);
});
