// Browser tests of the teaching features on idempotence.html (<kafka-ladder>) and
// transactions.html (<kafka-timeline>): stories told from the start with `expect` lines as
// checks, the shared player and its keyboard map, script errors that suggest the fix, links that
// restore the view, presenter mode. Debian's Chromium driven by playwright-core, served by
// scripts/serve.py on 127.0.0.1.
// Run: node --test tests/browser/teach.test.mjs   (needs `make pkg` and /usr/bin/chromium)
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { launch } from "./helpers.mjs";
import { abbreviateLabel } from "../../www/lib/timeline-model.js";

let lab;
let baseUrl;
let page;

before(async () => {
  lab = await launch({ colorScheme: "light", viewport: { width: 1400, height: 1000 } });
  ({ baseUrl, page } = lab);
  // Every fillText on a canvas, while a test sets window.__fillTextLog to an array: the text, the
  // font's px, the transform's scale and the backing store's width, so that the size the text has
  // on screen can be measured (font px × scale × the canvas's shown width / its backing width).
  await lab.context.addInitScript(() => {
    const fillText = CanvasRenderingContext2D.prototype.fillText;
    CanvasRenderingContext2D.prototype.fillText = function (text, x, y, maxWidth) {
      const log = window.__fillTextLog;
      if (Array.isArray(log)) {
        const px = /(\d+(?:\.\d+)?)px/.exec(this.font);
        const t = this.getTransform();
        const squeezed = maxWidth !== undefined && this.measureText(String(text)).width > maxWidth;
        log.push({ canvas: this.canvas, text: String(text), font: this.font, px: px ? Number(px[1]) : NaN, scale: Math.hypot(t.a, t.b), backing: this.canvas.width, squeezed });
      }
      return fillText.apply(this, arguments);
    };
  });
});

after(async () => {
  await lab?.close();
});

// The two views: their page, element and a scenario with expect lines.
const VIEWS = [
  { tag: "kafka-ladder", page: "idempotence.html", scenario: "lost-response-retry", report: "run" },
  { tag: "kafka-timeline", page: "transactions.html", scenario: "txn-zombie-fenced", report: "report" },
];

/** Opens a view's page (a hash, or the scenario's) and waits until its element has run. */
async function openView(v, hash = `#scenario=${v.scenario}`) {
  await page.goto("about:blank");
  await page.goto(`${baseUrl}/www/${v.page}${hash}`, { waitUntil: "load" });
  await page.waitForSelector('body[data-ready="1"]');
  await page.waitForFunction((tag) => document.querySelector(tag)?.steps > 0, v.tag);
}

const state = (v) =>
  page.evaluate(({ tag, report }) => {
    const e = document.querySelector(tag);
    return { step: e.step, steps: e.steps, playing: e.playing, speed: e.speed, attr: e.getAttribute("step"), report: !!e[report] };
  }, v);

const waitStep = (v, k) => page.waitForFunction(({ tag, k }) => document.querySelector(tag).step === k, { tag: v.tag, k });

for (const v of VIEWS) {
  test(`${v.tag}: the story opens at step 0, expect lines are the checks of the step they follow`, { timeout: 60_000 }, async () => {
    await openView(v);
    const s = await state(v);
    assert.equal(s.step, 0, "opens at step 0");
    assert.equal(s.attr, "0");
    const story = await page.evaluate(({ tag, report }) => {
      const e = document.querySelector(tag);
      const steps = e[report].steps;
      return {
        kinds: e.story.map((g) => steps[g.first].text),
        expects: steps.filter((x) => /^expect\b/.test(x.text)).length,
        checks: e.story.reduce((n, g) => n + g.checks.length, 0),
        withChecks: e.story.findIndex((g) => g.checks.length > 0),
      };
    }, v);
    assert.ok(story.expects > 0, "the scenario has expect lines");
    assert.equal(story.kinds.filter((t) => /^expect\b/.test(t)).length, 0, "no story step is an expect line");
    assert.equal(story.checks, story.expects, "every expect line is a check of some step");
    // Every step moves something: the narration is never "nothing goes on the wire" for an expect line.
    await page.evaluate(({ tag, k }) => document.querySelector(tag).setAttribute("step", String(k)), { tag: v.tag, k: story.withChecks });
    await waitStep(v, story.withChecks);
    const ticks = page.locator(`${v.tag} .now ul.checks li[data-ok="true"]`);
    assert.ok((await ticks.count()) >= 1, "the step shows its checks");
    assert.match(await ticks.first().textContent(), /^✓ check holds: expect \S/);
  });

  test(`${v.tag}: a failing check shows a cross with the expected and the actual value; step="end" opens at the end`, { timeout: 60_000 }, async () => {
    await openView(v);
    const script =
      v.tag === "kafka-ladder"
        ? "partition p\nproducer app\nsend app p x\ndeliver request b1\nexpect b1 duplicate 0..0\nexpect b1 appended 0..0\n"
        : "model transactions\npartition p-0\nproducer a transactional.id=t\ninit a\nexpect a state ABORTABLE_ERROR\nexpect a state READY\nbegin a\n";
    await page.evaluate(({ tag, script }) => {
      const e = document.querySelector(tag);
      e.setAttribute("step", "end");
      e.setAttribute("script", script);
    }, { tag: v.tag, script });
    await page.waitForFunction(({ tag, script }) => document.querySelector(tag).script === script, { tag: v.tag, script });
    const s = await state(v);
    assert.equal(s.step, s.steps - 1, 'step="end" shows the last step');
    const at = v.tag === "kafka-ladder" ? 1 : 0;
    await page.evaluate(({ tag, at }) => (document.querySelector(tag).step = at), { tag: v.tag, at });
    await waitStep(v, at);
    const cross = page.locator(`${v.tag} .now ul.checks li[data-ok="false"]`);
    assert.equal(await cross.count(), 1);
    const text = await cross.textContent();
    if (v.tag === "kafka-ladder") assert.match(text, /^✗ check fails: expect b1 duplicate 0\.\.0 — actual: appended 0\.\.0 \[A6\] \(line 5\)$/);
    else assert.match(text, /^✗ check fails: expect .*ABORTABLE_ERROR — actual: .*READY.* \(line 5\)$/);
    assert.equal(await page.locator(`${v.tag} .now ul.checks li[data-ok="true"]`).count(), 1, "the other check holds");
  });

  test(`${v.tag}: every shortcut of the ? keyboard map works`, { timeout: 90_000 }, async () => {
    await openView(v);
    const { steps } = await state(v);
    assert.ok(steps >= 4);
    await page.locator(`${v.tag} .viewport`).focus();
    // ? opens the map: a modal dialog listing every shortcut.
    await page.keyboard.press("?");
    const dialog = page.locator(`${v.tag} dialog.keymap[open]`);
    await dialog.waitFor();
    assert.equal(await dialog.getAttribute("aria-labelledby") !== null, true);
    const keys = await dialog.locator("tbody tr").evaluateAll((trs) => trs.map((tr) => tr.dataset.key));
    await page.keyboard.press("Escape");
    await page.waitForFunction((tag) => !document.querySelector(tag).shadowRoot.querySelector("dialog.keymap").open, v.tag);
    await page.locator(`${v.tag} .viewport`).focus();

    const checks = {
      "→": async () => {
        await page.keyboard.press("ArrowRight");
        await waitStep(v, 1);
      },
      "←": async () => {
        await page.keyboard.press("ArrowLeft");
        await waitStep(v, 0);
      },
      End: async () => {
        await page.keyboard.press("End");
        await waitStep(v, steps - 1);
      },
      Home: async () => {
        await page.keyboard.press("Home");
        await waitStep(v, 0);
      },
      Space: async () => {
        await page.evaluate((tag) => (document.querySelector(tag).interval = 60_000), v.tag);
        await page.keyboard.press(" ");
        assert.equal((await state(v)).playing, true, "Space plays");
        await page.keyboard.press(" ");
        assert.equal((await state(v)).playing, false, "Space pauses");
      },
      "+": async () => {
        const before = (await state(v)).speed;
        await page.keyboard.press("+");
        assert.equal((await state(v)).speed, before * 2, "+ doubles the speed");
        await page.keyboard.press("+");
        await page.keyboard.press("+");
        await page.keyboard.press("+");
        await page.keyboard.press("+");
        assert.equal((await state(v)).speed, 8, "8× at most");
        assert.equal(await page.locator(`${v.tag} select[data-action="speed"]`).inputValue(), "8");
      },
      "-": async () => {
        for (let i = 0; i < 6; i++) await page.keyboard.press("-");
        assert.equal((await state(v)).speed, 0.25, "0.25× at least");
        await page.keyboard.press("+");
        await page.keyboard.press("+");
      },
      "?": async () => {
        await page.keyboard.press("?");
        await dialog.waitFor();
        await page.keyboard.press("Escape");
        await page.waitForFunction((tag) => !document.querySelector(tag).shadowRoot.querySelector("dialog.keymap").open, v.tag);
        await page.locator(`${v.tag} .viewport`).focus();
      },
      "↑ / ↓": async () => {
        await page.keyboard.press("End");
        await waitStep(v, steps - 1);
        await page.keyboard.press("ArrowDown");
        await page.locator(`${v.tag} .detail`).waitFor();
        await page.keyboard.press("ArrowUp");
        assert.equal(await page.locator(`${v.tag} .detail`).isVisible(), true);
      },
      "Shift+← / Shift+→ or [ / ]": async () => {
        const detail = page.locator(`${v.tag} .detail`);
        const first = await detail.textContent();
        await page.keyboard.press("Shift+ArrowLeft");
        await page.keyboard.press("Shift+ArrowLeft");
        assert.notEqual(await detail.textContent(), first, "Shift+← selects another record");
        await page.keyboard.press("]");
        await page.keyboard.press("[");
      },
      Enter: async () => {
        if (v.tag === "kafka-ladder") {
          // Select a row with a batch (a send), then Enter opens its dialog.
          await page.keyboard.press("Home");
          await waitStep(v, 0);
          await page.keyboard.press("ArrowDown");
          await page.keyboard.press("ArrowDown");
          await page.keyboard.press("Enter");
          await page.locator(`${v.tag} dialog:not(.keymap)[open]`).waitFor();
          await page.keyboard.press("Escape");
          await page.locator(`${v.tag} .viewport`).focus();
        } else {
          await page.evaluate(() => document.getElementById("inspector").removeAttribute("hex"));
          await page.keyboard.press("Enter");
          await page.waitForFunction(() => !!document.getElementById("inspector").getAttribute("hex"));
          await page.locator(`${v.tag} .viewport`).focus();
        }
      },
      P: async () => {
        await page.keyboard.press("p");
        await page.waitForFunction((tag) => document.querySelector(tag).hasAttribute("presenter"), v.tag);
        await page.keyboard.press("Escape");
        await page.waitForFunction((tag) => !document.querySelector(tag).hasAttribute("presenter"), v.tag);
        if (await page.evaluate(() => !!document.fullscreenElement)) await page.evaluate(() => document.exitFullscreen());
        await page.locator(`${v.tag} .viewport`).focus();
      },
      Q: async () => {
        await page.keyboard.press("q");
        assert.equal(await page.locator(`${v.tag} button[data-action="predict"]`).getAttribute("aria-pressed"), "true");
        await page.keyboard.press("q");
        assert.equal(await page.locator(`${v.tag} button[data-action="predict"]`).getAttribute("aria-pressed"), "false");
      },
      "1 … 9": async () => {
        await page.keyboard.press("Home");
        await waitStep(v, 0);
        await page.keyboard.press("q");
        const question = page.locator(`${v.tag} .quiz button[data-choice]`);
        for (let i = 0; i < steps && !(await question.count()); i++) await page.keyboard.press("ArrowRight");
        assert.ok((await question.count()) > 1, "a question is asked");
        await page.keyboard.press("2");
        await page.locator(`${v.tag} .quiz .reveal`).waitFor();
        await page.keyboard.press("q");
        await page.keyboard.press("Home");
        await waitStep(v, 0);
        await page.locator(`${v.tag} .viewport`).focus();
      },
      Esc: async () => {
        if (!(await page.locator(`${v.tag} .detail`).isVisible())) await page.keyboard.press("ArrowDown");
        await page.locator(`${v.tag} .detail`).waitFor();
        await page.keyboard.press("Escape");
        assert.equal(await page.locator(`${v.tag} .detail`).isHidden(), true, "Esc clears the selection");
      },
    };
    const missing = keys.filter((k) => !checks[k]);
    assert.deepEqual(missing, [], "every shortcut in the map has a check here");
    for (const k of keys) await checks[k]();
    // The keys work from the step buttons too (not only in the drawing).
    await page.locator(`${v.tag} button[data-action="play"]`).focus();
    await page.keyboard.press("End");
    await waitStep(v, steps - 1);
    await page.keyboard.press("ArrowLeft");
    await waitStep(v, steps - 2);
  });

  test(`${v.tag}: the scrub slider and speed control drive it, and its events are named ${v.tag}:step`, { timeout: 60_000 }, async () => {
    await openView(v);
    const { steps } = await state(v);
    await page.evaluate((tag) => {
      window.__events = [];
      document.querySelector(tag).addEventListener(`${tag}:step`, (e) => window.__events.push(e.detail));
    }, v.tag);
    await page.evaluate((tag) => {
      const s = document.querySelector(tag).shadowRoot.querySelector("input.scrub");
      s.value = "2"; // as a drag does
      s.dispatchEvent(new Event("input", { bubbles: true }));
    }, v.tag);
    await waitStep(v, 2);
    assert.deepEqual(await page.evaluate(() => window.__events), [{ step: 2, steps }]);
    assert.match(await page.locator(`${v.tag} input.scrub`).getAttribute("aria-valuetext"), new RegExp(`^step 3 of ${steps}: line \\d+: `));
    await page.locator(`${v.tag} select[data-action="speed"]`).selectOption("0.25");
    assert.equal((await state(v)).speed, 0.25);
    await page.evaluate((tag) => (document.querySelector(tag).interval = 5), v.tag);
    await page.locator(`${v.tag} select[data-action="speed"]`).selectOption("8");
    await page.click(`${v.tag} button[data-action="play"]`);
    await page.waitForFunction(({ tag, n }) => document.querySelector(tag).step === n - 1 && !document.querySelector(tag).playing, { tag: v.tag, n: steps });
  });

  test(`${v.tag}: a script typo names the line, quotes it, suggests the verb, and the steps before it stay`, { timeout: 60_000 }, async () => {
    await openView(v);
    const script =
      v.tag === "kafka-ladder"
        ? "partition p\nproducer app\nsend app p x\ndeliver request b1\nsned app p y\nflush\n"
        : "model transactions\npartition p-0\nproducer a transactional.id=t\ninit a\nbegin a\ncomit a\n";
    await page.evaluate(({ tag, script }) => document.querySelector(tag).setAttribute("script", script), { tag: v.tag, script });
    const error = page.locator(`${v.tag} .error`);
    await page.waitForFunction((tag) => /did you mean/.test(document.querySelector(tag).shadowRoot.querySelector(".error").textContent), v.tag);
    const text = await error.textContent();
    if (v.tag === "kafka-ladder") {
      assert.match(text, /^line 5: unknown step `sned` — did you mean `send`\?\n {2}5 \| sned app p y\n/);
    } else {
      assert.match(text, /^line 6: unknown step `comit` — did you mean `commit`\?\n {2}6 \| comit a\n/);
    }
    assert.match(text, /The steps before line \d are shown/);
    const s = await state(v);
    assert.equal(s.steps, 2, "the two steps before the typo are shown");
    assert.equal(await page.evaluate(({ tag }) => document.querySelector(tag).script, v), script, "the script keeps the line to fix");
    await page.keyboard.press("End");
    await page.evaluate((tag) => (document.querySelector(tag).step = "end"), v.tag);
    await waitStep(v, 1);
    // Fixed, it runs whole and the error is gone.
    const fixed = script.replace("sned", "send").replace("comit", "commit");
    await page.evaluate(({ tag, fixed }) => document.querySelector(tag).setAttribute("script", fixed), { tag: v.tag, fixed });
    await page.waitForFunction(({ tag, fixed }) => document.querySelector(tag).script === fixed && document.querySelector(tag).steps === 4 - (tag === "kafka-ladder" ? 0 : 1), { tag: v.tag, fixed });
    assert.equal(await error.textContent(), "");
  });
}

// --- event names -------------------------------------------------------------------------------

/** Every event's name (kafka-<element>:<what>) and the deprecated name it had before (docs: Embedding). */
const EVENT_NAMES = {
  "kafka-batch:decode": "kafka-batch-decode",
  "kafka-batch:select": "kafka-batch-select",
  "kafka-batch:edit": "kafka-batch-edit",
  "kafka-batch:indexed": "kafka-batch-indexed",
  "kafka-batch:spans": "kafka-batch-spans",
  "kafka-batch:messages-decode": "kafka-messages-decode",
  "kafka-producer-config:resolve": "eoslab-config",
  "kafka-ladder:step": "eoslab-step",
  "kafka-ladder:script": "eoslab-script",
  "kafka-ladder:load": "eoslab-load",
};

/** Records every event of EVENT_NAMES (new and old names) that reaches the window: [{type, detail}]. */
const recordEvents = () =>
  page.evaluate((names) => {
    window.__events = [];
    for (const n of names) window.addEventListener(n, (e) => window.__events.push({ type: e.type, detail: JSON.stringify(e.detail ?? null) }));
  }, Object.entries(EVENT_NAMES).flat());

const waitEvent = (type) => page.waitForFunction((type) => window.__events.some((e) => e.type === type), type, { timeout: 60_000 });

test("every element's events are named kafka-<element>:<what>; each old name still fires right after, with the same detail", { timeout: 120_000 }, async () => {
  const { loadPkg, toHex, EXAMPLE_A_HEX } = await import("./helpers.mjs");
  const { readFileSync } = await import("node:fs");
  const pkg = await loadPkg();
  const fired = [];
  const check = async () => {
    const events = await page.evaluate(() => window.__events);
    const old = new Set(Object.values(EVENT_NAMES));
    for (let i = 0; i < events.length; i++) {
      const e = events[i];
      if (old.has(e.type)) {
        const before = events[i - 1];
        assert.ok(before && EVENT_NAMES[before.type] === e.type && before.detail === e.detail, `${e.type} follows its new name with the same detail: ${JSON.stringify(events.slice(Math.max(0, i - 2), i + 1))}`);
      } else {
        assert.ok(e.type in EVENT_NAMES, e.type);
        assert.match(e.type, /^kafka-[a-z-]+:[a-z-]+$/);
        assert.deepEqual(events[i + 1], { type: EVENT_NAMES[e.type], detail: e.detail }, `${e.type} is followed by ${EVENT_NAMES[e.type]}`);
        fired.push(e.type);
      }
    }
  };
  // <kafka-batch> on the inspector page.
  await page.goto("about:blank");
  await page.goto(`${baseUrl}/www/`, { waitUntil: "load" });
  await page.waitForSelector('body[data-ready="1"]');
  await recordEvents();
  // Example A with a wrong CRC: decoded, a field selected, the CRC fixed (an edit).
  const badCrc = EXAMPLE_A_HEX.replace("8c 4a 54 5e", "8c 4a 54 5f");
  await page.evaluate((hex) => document.getElementById("kb").load(hex), badCrc);
  await waitEvent("kafka-batch:decode");
  await page.locator('#kb tr[data-field="producerId"] button.fname').first().dispatchEvent("click");
  await waitEvent("kafka-batch:select");
  await page.locator("#kb #btn-fix").click();
  await waitEvent("kafka-batch:edit");
  // A batch over 48 KB: its record spans follow the first paint.
  const big = pkg.encodeBatch({ records: [{ keyText: "k", valueText: "x".repeat(60_000) }] });
  await page.evaluate((hex) => document.getElementById("kb").load(hex), toHex(big));
  await waitEvent("kafka-batch:spans");
  // A segment of more than 2,000 batches: a worker checks the headers.
  const specs = Array.from({ length: 2100 }, (_, i) => ({ header: { baseOffset: i }, records: [{ valueText: `v${i}` }] }));
  await page.setInputFiles("#file", { name: "00000000000000000000.log", mimeType: "application/octet-stream", buffer: Buffer.from(pkg.encodeSegment(specs)) });
  await waitEvent("kafka-batch:indexed");
  // Protocol messages (a Fetch request and its response): the messages panel of <kafka-batch>.
  const fixture = (name) => readFileSync(new URL(`../fixtures/envelopes-4.3.1/${name}.hex`, import.meta.url), "utf8").trim();
  await page.evaluate((hex) => document.getElementById("kb").load(hex), fixture("fetch-v12-request") + "\n" + fixture("fetch-v12-response"));
  await waitEvent("kafka-batch:messages-decode");
  await check();
  // <kafka-ladder> and <kafka-producer-config> on the idempotence page.
  await page.goto("about:blank");
  await page.goto(`${baseUrl}/www/idempotence.html`, { waitUntil: "load" });
  await page.waitForSelector('body[data-ready="1"]');
  await page.waitForFunction(() => document.querySelector("kafka-ladder")?.steps > 0);
  await recordEvents();
  await page.evaluate(() => document.getElementById("producer-config").setAttribute("properties", "acks=all\nenable.idempotence=true"));
  await waitEvent("kafka-producer-config:resolve");
  await page.evaluate(() => document.querySelector("kafka-ladder").setAttribute("script", "partition p\nproducer app\nsend app p x\ndeliver request b1\n"));
  await waitEvent("kafka-ladder:load");
  await page.waitForFunction(() => /deliver request b1\n$/.test(document.querySelector("kafka-ladder").script) && document.querySelector("kafka-ladder").steps > 1);
  await page.evaluate(() => (document.querySelector("kafka-ladder").step = 0));
  await page.click('kafka-ladder button[data-action="forward"]');
  await waitEvent("kafka-ladder:step");
  await page.locator('kafka-ladder .next button[data-line]').first().click();
  await waitEvent("kafka-ladder:script");
  await check();
  assert.deepEqual([...new Set(fired)].sort(), Object.keys(EVENT_NAMES).sort(), "every event fired under its new name");
});

// --- share any moment by link ------------------------------------------------------------------

/** The rendered state of a view: step, script, narration, state panel and the canvas pixels. */
const rendered = async (tag, p = page) => {
  await p.mouse.move(1, 1); // no hovered row
  return p.evaluate(async (tag) => {
    const e = document.querySelector(tag);
    await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
    const root = e.shadowRoot;
    const c = root.querySelector("canvas");
    const data = c.getContext("2d", { willReadFrequently: true }).getImageData(0, 0, c.width, c.height).data;
    let hash = 0x811c9dc5;
    for (let i = 0; i < data.length; i++) hash = Math.imul(hash ^ data[i], 0x01000193) >>> 0;
    return {
      step: e.step, steps: e.steps, script: e.script, transactionVersion: e.getAttribute("transaction-version"),
      now: root.querySelector(".now").textContent, state: root.querySelector(".state").textContent,
      canvas: `${c.width}x${c.height}:${hash.toString(16)}`,
    };
  }, tag);
};

/** The state the page's link holds (lib/link-state.js) once it matches `want` (polled: the page writes it after a step). */
async function linkState(page, want) {
  let s = null;
  for (let i = 0; i < 100; i++) {
    s = await page.evaluate(async () => (await (await import("/www/lib/link-state.js")).decodeState())?.state ?? null);
    if (s && Object.entries(want).every(([k, v]) => (v === undefined ? !(k in s) : s[k] === v))) return s;
    await page.waitForTimeout(100);
  }
  throw new Error(`the link never held ${JSON.stringify(want)}: ${JSON.stringify(s)?.slice(0, 300)}`);
}

/** Waits until the page has written a state link (#s=1.…) and returns the URL. */
async function stateUrl(want = () => true) {
  await page.waitForFunction(() => /^#s=1\./.test(location.hash));
  await page.waitForTimeout(200); // the last write of a burst lands
  return page.url();
}

async function reopen(url, tag) {
  await page.goto("about:blank");
  await page.goto(url, { waitUntil: "load" });
  await page.waitForSelector('body[data-ready="1"]');
  if (tag) await page.waitForFunction((tag) => document.querySelector(tag)?.steps > 0, tag);
}

test("a link restores the ladder's step and a fork made with a next-step button, identically", { timeout: 60_000 }, async () => {
  await openView(VIEWS[0]);
  await page.evaluate(() => (document.querySelector("kafka-ladder").step = 1));
  await waitStep(VIEWS[0], 1);
  await page.locator('kafka-ladder .next button[data-line="restart app"]').click();
  await page.waitForFunction(() => /restart app\n$/.test(document.querySelector("kafka-ladder").script));
  await page.evaluate(() => (document.querySelector("kafka-ladder").step = 1)); // back into the fork
  await waitStep(VIEWS[0], 1);
  const before = await rendered("kafka-ladder");
  const url = await stateUrl();
  await reopen(url, "kafka-ladder");
  await waitStep(VIEWS[0], 1);
  assert.deepEqual(await rendered("kafka-ladder"), before, "the same step of the same fork, the same pixels");
  assert.equal(await page.locator("#scenario-list button[aria-current=true]").getAttribute("data-name"), "lost-response-retry");
});

test("a link restores the timeline in compare mode at its step, both sides identically", { timeout: 90_000 }, async () => {
  await openView(VIEWS[1], "#scenario=txn-protocol-v2&compare=1"); // an older link still opens
  await page.waitForFunction(() => document.getElementById("timeline-v2")?.steps > 0);
  await page.evaluate(() => (document.getElementById("timeline").step = 3));
  await page.waitForFunction(() => document.getElementById("timeline").step === 3 && document.getElementById("timeline-v2").step === 3);
  const side = (id) => page.evaluate((id) => {
    const t = document.getElementById(id);
    return { step: t.step, tv: t.getAttribute("transaction-version"), now: t.shadowRoot.querySelector(".now").textContent, state: t.shadowRoot.querySelector(".state").textContent };
  }, id);
  const before = [await side("timeline"), await side("timeline-v2")];
  const url = await stateUrl();
  await reopen(url, "kafka-timeline");
  await page.waitForFunction(() => document.getElementById("timeline").step === 3 && document.getElementById("timeline-v2")?.step === 3 && document.getElementById("timeline-v2").report);
  assert.deepEqual([await side("timeline"), await side("timeline-v2")], before);
  assert.equal(await page.locator("#compare-protocols").getAttribute("aria-pressed"), "true");
});

for (const v of VIEWS) {
  test(`${v.page}: an edited script survives a reload and a link; Reset brings back the shipped version`, { timeout: 90_000 }, async () => {
    await openView(v);
    const shipped = await page.evaluate((tag) => document.querySelector(tag).script, v.tag);
    const edited = shipped.replace(/\n*$/, "\n") + (v.tag === "kafka-ladder" ? "send app orders-0 edited-by-me\n" : "advance 5ms\n");
    await page.locator("#editor summary").click();
    await page.locator("#script").fill(edited);
    await page.click("#run");
    await page.waitForFunction(({ tag, edited }) => document.querySelector(tag).script === edited, { tag: v.tag, edited });
    await stateUrl();
    await page.reload({ waitUntil: "load" });
    await page.waitForSelector('body[data-ready="1"]');
    await page.waitForFunction(({ tag, edited }) => document.querySelector(tag).script === edited, { tag: v.tag, edited });
    // An old-style link to the scenario (no state): the edit is kept in this browser.
    await openView(v, `#scenario=${v.scenario}`);
    await page.waitForFunction(({ tag, edited }) => document.querySelector(tag).script === edited, { tag: v.tag, edited });
    assert.equal(await page.locator("#reset-script").isVisible(), true);
    assert.match(await page.locator("#link-note").textContent(), /Your edited version/);
    await page.click("#reset-script");
    await page.waitForFunction(({ tag, shipped }) => document.querySelector(tag).script === shipped, { tag: v.tag, shipped });
    assert.equal(await page.locator("#reset-script").isHidden(), true);
    // The link follows: the scenario by name, no script.
    await linkState(page, { scenario: v.scenario, script: undefined });
    await page.reload({ waitUntil: "load" });
    await page.waitForSelector('body[data-ready="1"]');
    await page.waitForFunction(({ tag, shipped }) => document.querySelector(tag).script === shipped, { tag: v.tag, shipped }, { timeout: 5000 }).catch(async (err) => {
      throw new Error(`${err.message} ${JSON.stringify(await page.evaluate((tag) => ({ s: document.querySelector(tag).script, h: location.hash, ls: Object.keys(localStorage) }), v.tag))} shipped=${JSON.stringify(shipped)}`);
    });
  });

  test(`${v.page}: a moment too big for a link offers the scenario file instead, which restores it`, { timeout: 90_000 }, async () => {
    await openView(v);
    // 12,000 characters of about-text that deflate cannot shrink below 8,000 (a fixed xorshift stream).
    let x = 2463534242;
    let noise = "";
    for (let i = 0; i < 12_000; i++) {
      x ^= x << 13; x >>>= 0; x ^= x >>> 17; x ^= x << 5; x >>>= 0;
      noise += "abcdefghijklmnopqrstuvwxyz0123456789"[x % 36];
      if (i % 100 === 99) noise += "\nabout ";
    }
    const shipped = await page.evaluate((tag) => document.querySelector(tag).script, v.tag);
    const big = `${shipped.replace(/\n*$/, "\n")}about ${noise}\n`;
    await page.locator("#editor summary").click();
    await page.locator("#script").fill(big);
    await page.click("#run");
    await page.waitForFunction(({ tag, big }) => document.querySelector(tag).script === big, { tag: v.tag, big });
    await page.evaluate((tag) => (document.querySelector(tag).step = 2), v.tag);
    await waitStep(v, 2);
    await page.waitForTimeout(300); // the link write after the step
    await page.waitForFunction(() => /does not fit in a link/.test(document.getElementById("link-note").textContent));
    assert.doesNotMatch(page.url(), /#s=/, "no link over 8,000 characters");
    const [download] = await Promise.all([page.waitForEvent("download"), page.click("#download-script")]);
    const path = await download.path();
    const { readFileSync } = await import("node:fs");
    const file = readFileSync(path, "utf8");
    assert.match(file, /^# eoslab step=2\n/);
    await openView(v);
    await page.locator("#upload-script").setInputFiles({ name: "shared.eos", mimeType: "text/plain", buffer: Buffer.from(file) });
    await page.waitForFunction(({ tag }) => document.querySelector(tag).step === 2 && document.querySelector(tag).script.length > 12_000, { tag: v.tag });
    await page.evaluate(() => localStorage.clear());
  });
}

/**
 * Opens `url`'s page and hash in a second Chromium (a fresh profile, its own server on another
 * port: another origin, so no localStorage, no cache, nothing but the link) and returns the
 * rendered state of `tag` once it shows `step`.
 */
async function renderedFromLinkAlone(url, tag, step) {
  const other = await launch({ colorScheme: "light", viewport: { width: 1400, height: 1000 } });
  try {
    const u = new URL(url);
    const p = other.page;
    await p.goto(`${other.baseUrl}/www/`, { waitUntil: "load" });
    assert.equal(await p.evaluate(() => localStorage.length), 0, "the fresh browser has nothing stored");
    await p.goto("about:blank");
    await p.goto(`${other.baseUrl}${u.pathname}${u.hash}`, { waitUntil: "load" });
    await p.waitForSelector('body[data-ready="1"]');
    await p.waitForFunction(({ tag, step }) => document.querySelector(tag)?.steps > 0 && document.querySelector(tag).step === step, { tag, step });
    const state = await rendered(tag, p);
    assert.deepEqual([other.pageErrors, other.consoleErrors, other.foreignRequests], [[], [], []]);
    return state;
  } finally {
    await other.close();
  }
}

for (const v of VIEWS) {
  test(`${v.page}: an edited script is restored from the link alone, in a fresh browser, rendered identically`, { timeout: 120_000 }, async () => {
    await openView(v);
    const shipped = await page.evaluate((tag) => document.querySelector(tag).script, v.tag);
    const edited = shipped.replace(/\n*$/, "\n") + (v.tag === "kafka-ladder" ? "send app orders-0 edited-by-me\nflush\n" : "advance 5ms\n");
    await page.locator("#editor summary").click();
    await page.locator("#script").fill(edited);
    await page.click("#run");
    await page.waitForFunction(({ tag, edited }) => document.querySelector(tag).script === edited, { tag: v.tag, edited });
    assert.equal(await page.locator(`${v.tag} .error`).textContent(), "", "the edit runs whole");
    const last = (await state(v)).steps - 1;
    await page.evaluate(({ tag, last }) => (document.querySelector(tag).step = last), { tag: v.tag, last });
    await waitStep(v, last);
    await linkState(page, { script: edited, step: last });
    const before = await rendered(v.tag);
    assert.equal(before.script, edited);
    const after = await renderedFromLinkAlone(await stateUrl(), v.tag, last);
    assert.deepEqual(after, before, "the same script, step, narration, state panel and pixels");
    await page.evaluate(() => localStorage.clear());
  });
}

test("a timeline fork made with a next-step button is restored from the link alone, rendered identically", { timeout: 120_000 }, async () => {
  const v = VIEWS[1];
  await openView(v);
  const shipped = await page.evaluate(() => document.querySelector("kafka-timeline").script);
  await page.evaluate(() => (document.querySelector("kafka-timeline").step = 2));
  await waitStep(v, 2);
  const button = page.locator("kafka-timeline .next button[data-line]").first();
  const line = await button.getAttribute("data-line");
  await button.click();
  await page.waitForFunction((line) => document.querySelector("kafka-timeline").script.endsWith(`${line}\n`), line);
  const fork = await page.evaluate(() => document.querySelector("kafka-timeline").script);
  assert.notEqual(fork, shipped, "a fork of the shipped story");
  const at = await page.evaluate(() => document.querySelector("kafka-timeline").step);
  await linkState(page, { script: fork, step: at });
  const before = await rendered("kafka-timeline");
  const after = await renderedFromLinkAlone(await stateUrl(), "kafka-timeline", at);
  assert.deepEqual(after, before, `the fork (… ${line}) at step ${at}: the same script, narration, state panel and pixels`);
  await page.evaluate(() => localStorage.clear());
});

test("a link restores the inspector's bytes, opened batch and selected field", { timeout: 60_000 }, async () => {
  await page.goto("about:blank");
  await page.goto(`${baseUrl}/www/`, { waitUntil: "load" });
  await page.waitForSelector('body[data-ready="1"]');
  const inspector = () => page.evaluate(() => {
    const k = document.getElementById("kb");
    return { bytes: Array.from(k.bytes).join(","), batch: k.openedBatch, field: k.selectedField };
  });
  // A sample is linked by name, pasted bytes by value.
  await page.click('button[data-sample="zstd"]');
  // The click is dispatched on the field's button itself: in CI the table was once still moving
  // under the pointer for 20 s after the sample loaded ("element is not stable"), so a pointer
  // click hit the row above it. What is tested is the selection a click makes and the link.
  await page.locator('#kb tr[data-field="baseSequence"] button.fname').first().dispatchEvent("click");
  await page.waitForFunction(() => document.getElementById("kb").selectedField === "baseSequence");
  const sampleState = await inspector();
  await reopen(await stateUrl());
  await page.waitForFunction(() => document.getElementById("kb").selectedField === "baseSequence");
  assert.deepEqual(await inspector(), sampleState);
  const linked = await page.evaluate(async () => (await (await import("/www/lib/link-state.js")).decodeState()).state);
  assert.equal(linked.sample, "zstd");
  assert.equal(linked.bytes, undefined);

  const a = "00 00 00 00 00 00 00 00 00 00 00 3a ff ff ff ff 02 8c 4a 54 5e 00 00 00 00 00 00 00 00 01 8b cf e5 68 00 00 00 01 8b cf e5 68 00 00 00 00 00 00 00 10 92 00 01 00 00 00 07 00 00 00 01 10 00 00 00 02 6b 02 76 00";
  await page.evaluate((hex) => document.getElementById("kb").load(hex + " " + hex.replace(/^00 00 00 00 00 00 00 00/, "00 00 00 00 00 00 00 01")), a);
  await page.waitForFunction(() => document.getElementById("kb").bytes.length === 140);
  await page.evaluate(() => (document.getElementById("kb").batch = 1));
  await page.waitForFunction(() => document.getElementById("kb").openedBatch === 1);
  await page.locator('#kb tr[data-field="producerId"] button.fname').first().dispatchEvent("click");
  await page.waitForFunction(() => document.getElementById("kb").selectedField === "producerId");
  const pasted = await inspector();
  await page.waitForTimeout(300);
  await reopen(page.url());
  await page.waitForFunction(() => document.getElementById("kb").selectedField === "producerId");
  assert.deepEqual(await inspector(), pasted);
  const where = await page.locator("#kb").evaluate((k) => k.shadowRoot.textContent.includes("producerId"));
  assert.equal(where, true);
});

test("the inspector: bytes too big for a link are offered as a file, which opens them again", { timeout: 60_000 }, async () => {
  await page.goto("about:blank");
  await page.goto(`${baseUrl}/www/`, { waitUntil: "load" });
  await page.waitForSelector('body[data-ready="1"]');
  // 12,000 bytes that do not compress (a deterministic xorshift stream): far past 8,000 characters.
  const n = await page.evaluate(async () => {
    const b = new Uint8Array(12000);
    let x = 2463534242;
    for (let i = 0; i < b.length; i++) {
      x ^= x << 13; x >>>= 0; x ^= x >>> 17; x ^= x << 5; x >>>= 0;
      b[i] = x & 0xff;
    }
    await document.getElementById("kb").load(new File([b], "big.bin"));
    return b.length;
  });
  await page.waitForFunction((len) => document.getElementById("kb").bytes.length === len, n);
  // No link (the hash is cleared), a message, and the download button.
  await page.waitForFunction(() => !document.getElementById("download-bytes").hidden);
  assert.match(await page.locator("#sample-status").textContent(), /does not fit in a link \([\d,]+ characters; links stop at 8,000\)/);
  assert.equal(new URL(page.url()).hash, "");
  const [dl] = await Promise.all([page.waitForEvent("download"), page.click("#download-bytes")]);
  assert.equal(dl.suggestedFilename(), "eoslab-input.bin");
  const saved = readFileSync(await dl.path());
  const shown = Buffer.from(await page.evaluate(() => Array.from(document.getElementById("kb").bytes)));
  assert.ok(saved.equals(shown), "the file holds the bytes shown");
  // Opening the file on a fresh page (as a drop does: load(File)) shows the same bytes.
  await page.goto("about:blank");
  await page.goto(`${baseUrl}/www/`, { waitUntil: "load" });
  await page.waitForSelector('body[data-ready="1"]');
  await page.evaluate((arr) => document.getElementById("kb").load(new File([new Uint8Array(arr)], "eoslab-input.bin")), Array.from(saved));
  await page.waitForFunction((len) => document.getElementById("kb").bytes.length === len, n);
  const again = Buffer.from(await page.evaluate(() => Array.from(document.getElementById("kb").bytes)));
  assert.ok(again.equals(saved));
});

test("the inspector: a segment of megabytes goes to the download offer without being encoded into a link", { timeout: 60_000 }, async () => {
  await page.goto("about:blank");
  await page.goto(`${baseUrl}/www/`, { waitUntil: "load" });
  await page.waitForSelector('body[data-ready="1"]');
  // 6 MiB: deflate compresses at most 1032:1, so no link of 8,000 characters can hold it, and the
  // page must not spend seconds in base64 and deflate to find that out (a 100 MB segment did).
  const ms = await page.evaluate(async () => {
    const b = new Uint8Array(6 * 1024 * 1024);
    for (let i = 0; i < b.length; i++) b[i] = (i * 2654435761) >>> 24;
    const longest = [];
    const obs = new PerformanceObserver((l) => l.getEntries().forEach((e) => longest.push(e.duration)));
    obs.observe({ type: "longtask" });
    const t0 = performance.now();
    await document.getElementById("kb").load(new File([b], "big.log"));
    await new Promise((r) => {
      const poll = () => (!document.getElementById("download-bytes").hidden ? r() : setTimeout(poll, 10));
      poll();
    });
    obs.disconnect();
    return { total: performance.now() - t0, longest: Math.max(0, ...longest) };
  });
  assert.match(await page.locator("#sample-status").textContent(), /does not fit in a link \(6,291,456 bytes: more than a link of 8,000 characters can hold\)/);
  assert.equal(new URL(page.url()).hash, "");
  assert.ok(ms.longest < 1000, `no long main-thread task encoding the link (longest ${ms.longest} ms, ${ms.total} ms to the offer)`);
});

// --- presenter mode ----------------------------------------------------------------------------

/**
 * Redraws the view's lanes with fillText recorded (scrolled through every row of the ladder, every
 * offset of the timeline) and returns each text with the size it has on screen: {texts: [{text,
 * font, screenPx, squeezed}], min, lanes}.
 */
async function drawnTexts(tag) {
  return page.evaluate(async (tag) => {
    const e = document.querySelector(tag);
    const root = e.shadowRoot;
    const canvas = root.querySelector("canvas");
    const vp = root.querySelector(".viewport");
    const frames = () => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
    window.__fillTextLog = [];
    try {
      const step = e.step;
      e.step = Math.max(0, step - 1); // a full redraw of the last step
      await frames();
      e.step = step;
      await frames();
      // Every part of the drawing: the ladder scrolls down, the timeline's log sideways.
      const vertical = tag === "kafka-ladder";
      const max = vertical ? vp.scrollHeight - vp.clientHeight : vp.scrollWidth - vp.clientWidth;
      const page = Math.max(50, (vertical ? vp.clientHeight : vp.clientWidth) / 2);
      for (let at = 0; at <= max + page; at += page) {
        if (vertical) vp.scrollTop = Math.min(at, max);
        else vp.scrollLeft = Math.min(at, max);
        await frames();
      }
      const shown = canvas.getBoundingClientRect().width;
      const texts = window.__fillTextLog
        .filter((t) => t.canvas === canvas && t.text.trim() !== "")
        .map((t) => ({ text: t.text, font: t.font, squeezed: t.squeezed, screenPx: (t.px * t.scale * shown) / t.backing }));
      const lanes = tag === "kafka-ladder" ? [...e.run.producers, ...e.run.partitions].map(String) : e.report.lanes.map((l) => String(l.label));
      return { texts, min: Math.min(...texts.map((t) => t.screenPx)), lanes };
    } finally {
      window.__fillTextLog = null;
    }
  }, tag);
}

for (const v of VIEWS) {
  test(`${v.tag}: presenter mode (p, Esc) fills 1280×720, hides the list, lanes and decisions ≥ 20 px, nothing cut`, { timeout: 60_000 }, async () => {
    await page.setViewportSize({ width: 1280, height: 720 });
    try {
      await openView(v, `#scenario=${v.tag === "kafka-ladder" ? "window-moved-past" : "txn-consume-transform-produce"}`);
      await page.locator(`${v.tag} .viewport`).focus();
      await page.keyboard.press("End");
      await page.keyboard.press("p");
      await page.waitForFunction((tag) => document.querySelector(tag).hasAttribute("presenter"), v.tag);
      await page.waitForTimeout(300); // the relayout at the new zoom lands
      const m = await page.evaluate((tag) => {
        const e = document.querySelector(tag);
        const root = e.shadowRoot;
        const c = root.querySelector("canvas");
        const r = e.getBoundingClientRect();
        window.scrollTo(0, 0); // the list at the top of the page, under the presenter view
        const list = document.getElementById("scenarios").getBoundingClientRect();
        const covering = document.elementFromPoint(list.left + 20, list.top + 20);
        const px = (sel) => [...root.querySelectorAll(sel)].filter((n) => n.getClientRects().length).map((n) => parseFloat(getComputedStyle(n).fontSize));
        const cut = [...root.querySelectorAll(".now, .now *")].filter((n) => !n.closest(".sr-only") && n.scrollWidth > n.clientWidth + 1 && getComputedStyle(n).overflowX !== "visible");
        return {
          rect: [r.left, r.top, r.width, r.height],
          listHidden: covering === e || e.contains(covering),
          zoom: c.getBoundingClientRect().width / c.clientWidth,
          truncated: e.renderStats.truncatedLabels,
          narration: Math.min(...px(".now-head, .now li, .now p")),
          cut: cut.length,
          hidden: [...root.querySelectorAll(".hint, .summary, .state")].every((n) => !n.getClientRects().length),
          scrollX: document.documentElement.scrollWidth > document.documentElement.clientWidth,
        };
      }, v.tag);
      assert.deepEqual(m.rect, [0, 0, 1280, 720], "fills the window");
      assert.equal(m.listHidden, true, "the scenario list is covered");
      // The ladder's lane names are short; the timeline's gutter is at most a quarter of the drawing
      // and abbreviates a longer name (its full name is the lane's tooltip), so that the logs
      // keep the room (the classroom at 1280×720: the names had taken ~880 of 1,250 px).
      if (v.tag === "kafka-ladder") assert.equal(m.truncated, 0, "no lane label is cut");
      // Every text drawn in the lanes, measured as it is drawn: on screen at 20 px at least.
      const drawn = await drawnTexts(v.tag);
      assert.ok(drawn.texts.length > 20, `the lanes were drawn (${drawn.texts.length} texts)`);
      const small = drawn.texts.filter((t) => !(t.screenPx >= 20));
      assert.deepEqual(small.map((t) => `${JSON.stringify(t.text)} at ${t.screenPx.toFixed(2)} px (${t.font})`).slice(0, 10), [],
        `${small.length} of ${drawn.texts.length} texts under 20 px on screen (smallest ${drawn.min.toFixed(2)} px)`);
      assert.equal(drawn.texts.filter((t) => t.squeezed).length, 0, "no text squeezed by a maxWidth");
      // Every lane's name is drawn whole (not ellipsized), and the decisions' badges are among the texts measured.
      for (const name of drawn.lanes) {
        const whole = (t) => t.text === name;
        const abbreviated = (t) => v.tag === "kafka-timeline" && t.text.length < name.length && abbreviateLabel(name, t.text.length) === t.text;
        assert.ok(drawn.texts.some((t) => whole(t) || abbreviated(t)), `lane ${name} drawn in full or abbreviated`);
      }
      if (v.tag === "kafka-ladder") assert.ok(drawn.texts.some((t) => /^[A-Z]\d+[a-z]? (append|dup|-?\d+)$/.test(t.text)), "decision badges measured");
      else assert.ok(drawn.texts.some((t) => t.text === "HW") && drawn.texts.some((t) => /^\d+$/.test(t.text)), "HW pointer and wire numbers measured");
      assert.ok(m.narration >= 20, `narration type ${m.narration} px`);
      assert.equal(m.cut, 0, "no narration text is cut");
      assert.equal(m.hidden, true, "the panels that are not the story are hidden");
      assert.equal(m.scrollX, false);
      assert.equal(await page.locator(`${v.tag} button[data-action="present"]`).getAttribute("aria-pressed"), "true");
      // Stepping still works, and Esc leaves.
      await page.keyboard.press("Home");
      await waitStep(v, 0);
      await page.keyboard.press("Escape");
      await page.waitForFunction((tag) => !document.querySelector(tag).hasAttribute("presenter"), v.tag);
      // The button enters it too.
      await page.click(`${v.tag} button[data-action="present"]`);
      await page.waitForFunction((tag) => document.querySelector(tag).hasAttribute("presenter"), v.tag);
      await page.click(`${v.tag} button[data-action="present"]`);
      await page.waitForFunction((tag) => !document.querySelector(tag).hasAttribute("presenter"), v.tag);
    } finally {
      if (await page.evaluate(() => !!document.fullscreenElement)) await page.evaluate(() => document.exitFullscreen());
      await page.setViewportSize({ width: 1400, height: 1000 });
    }
  });
}

// --- small screens -----------------------------------------------------------------------------

test("no page scrolls sideways at 390×844 (lists, tables and drawings scroll in their own boxes)", { timeout: 90_000 }, async () => {
  await page.setViewportSize({ width: 390, height: 844 });
  try {
    for (const path of ["", "idempotence.html", "transactions.html", "transactions.html#scenario=txn-protocol-v2&compare=1", "embed-example.html", "tour.html"]) {
      await page.goto("about:blank");
      await page.goto(`${baseUrl}/www/${path}`, { waitUntil: "load" });
      await page.waitForFunction(() => document.body.dataset.ready === "1" || !document.querySelector("script[src$='main.js'], script[src$='idempotence.js'], script[src$='transactions.js']"));
      await page.waitForFunction(() => [...document.querySelectorAll("kafka-ladder, kafka-timeline")].every((e) => !customElements.get(e.localName) || e.steps > 0));
      await page.waitForTimeout(300);
      const m = await page.evaluate(() => ({ sw: document.documentElement.scrollWidth, cw: document.documentElement.clientWidth }));
      assert.ok(m.sw <= m.cw, `${path || "index.html"}: the page is ${m.sw} px wide in a ${m.cw} px window`);
    }
    // The scenario list collapses to a short box of its own.
    await page.goto(`${baseUrl}/www/idempotence.html`, { waitUntil: "load" });
    await page.waitForSelector('body[data-ready="1"]');
    const list = await page.locator("#scenario-list").evaluate((l) => ({ h: l.clientHeight, sh: l.scrollHeight, overflow: getComputedStyle(l).overflowY }));
    assert.ok(list.h <= 200 && list.sh > list.h && list.overflow === "auto", JSON.stringify(list));
  } finally {
    await page.setViewportSize({ width: 1400, height: 1000 });
  }
});

// --- predict, then reveal ------------------------------------------------------------------------

for (const v of VIEWS) {
  test(`${v.tag}: predict asks before a decision is shown, reveals it with its rule and source, and scores`, { timeout: 60_000 }, async () => {
    await openView(v);
    const { steps } = await state(v);
    await page.click(`${v.tag} button[data-action="predict"]`);
    const quiz = page.locator(`${v.tag} .quiz`);
    const asked = [];
    for (let guard = 0; guard < steps * 2 && asked.length < 2; guard++) {
      const before = (await state(v)).step;
      if (before >= steps - 1) break;
      await page.click(`${v.tag} button[data-action="forward"]`);
      const choices = quiz.locator("button[data-choice]");
      if (!(await choices.count())) continue;
      // Asked first: the step is not shown yet, and the choices are a labelled group.
      assert.equal((await state(v)).step, before, "the decision is not shown before the answer");
      const promptId = await quiz.locator(".choices").getAttribute("aria-labelledby");
      assert.match(await quiz.locator(`#${promptId}`).textContent(), /^Step \d+: .*\?$/);
      const labels = await choices.evaluateAll((bs) => bs.map((b) => b.dataset.choice));
      assert.ok(labels.length >= 3, `several choices: ${labels}`);
      const truth = await page.evaluate(({ tag, k }) => {
        const e = document.querySelector(tag);
        const g = e.story[k];
        if (tag === "kafka-ladder") {
          const d = e.run.steps[g.first].events.find((x) => x.kind === "decision");
          return { answer: d.outcome === "append" ? "APPEND (NONE)" : d.outcome === "duplicate" ? "DUPLICATE (NONE, the original offsets)" : d.errorName, rule: d.rule, source: d.source };
        }
        const m = e.report.steps[g.first].messages.find((x) => /^producer:/.test(x.to) && x.kind === "response");
        return { answer: m.error ?? /\bresponse ([A-Z][A-Z_]+)\b/.exec(m.text)[1], rule: m.rule, source: m.source };
      }, { tag: v.tag, k: before + 1 });
      assert.ok(labels.includes(truth.answer), `the answer ${truth.answer} is among ${labels}`);
      // The first question answered wrongly with the mouse, the second rightly with its number key.
      const wrong = asked.length === 0;
      if (wrong) await choices.filter({ hasNotText: truth.answer }).first().click();
      else await page.keyboard.press(String(labels.indexOf(truth.answer) + 1));
      await quiz.locator(".reveal").waitFor();
      await waitStep(v, before + 1);
      const reveal = await quiz.locator(".reveal").textContent();
      assert.match(reveal, wrong ? new RegExp(`^✗ You chose .*; the model's answer is ${truth.answer.replace(/[()]/g, "\\$&")}\\.`) : new RegExp(`^✓ Right: ${truth.answer.replace(/[()]/g, "\\$&")}\\.`));
      if (truth.rule) assert.ok(reveal.includes(truth.rule), "the rule");
      if (truth.source) assert.ok(reveal.includes(`Kafka source: ${truth.source}`), "the Kafka source");
      asked.push(wrong);
      assert.equal(await quiz.locator(".score").textContent(), `Score: ${asked.length - 1} of ${asked.length}`);
    }
    assert.equal(asked.length, 2, "two decisions were asked");
    // Going back and forward again does not ask twice; leaving predict clears the panel.
    await page.click(`${v.tag} button[data-action="back"]`);
    await page.click(`${v.tag} button[data-action="forward"]`);
    assert.equal(await quiz.locator("button[data-choice]").count(), 0);
    await page.click(`${v.tag} button[data-action="predict"]`);
    assert.equal(await quiz.isHidden(), true);
  });
}

test("kafka-timeline: predict also asks what a read_committed consumer receives, and whether an invariant holds", { timeout: 90_000 }, async () => {
  const v = VIEWS[1];
  /** Steps forward in predict mode until a question matching `re` is asked; its prompt and choices. */
  const seenPrompts = [];
  const askUntil = async (re) => {
    const quiz = page.locator(`${v.tag} .quiz`);
    const { steps } = await state(v);
    for (let guard = 0; guard < steps; guard++) {
      const before = (await state(v)).step;
      if (before >= steps - 1) break;
      await page.click(`${v.tag} button[data-action="forward"]`);
      const choices = quiz.locator("button[data-choice]");
      if (!(await choices.count())) continue;
      const prompt = await quiz.locator(`#${await quiz.locator(".choices").getAttribute("aria-labelledby")}`).textContent();
      const labels = await choices.evaluateAll((bs) => bs.map((b) => b.dataset.choice));
      if (re.test(prompt)) return { prompt, labels, before, quiz };
      seenPrompts.push(prompt);
      await choices.first().click(); // not this one: answer and go on
      await quiz.locator(".reveal").waitFor();
    }
    throw new Error(`no question matching ${re}; asked: ${seenPrompts.join(" / ")}`);
  };
  // The stalled reader: once the long transaction aborts, it receives f1 and skips the aborted
  // "stuck" — the choices are the model's own log read as read_committed, below the LSO with the
  // aborted record kept, below the HW (read_uncommitted), and nothing.
  await openView(v, "#scenario=txn-read-committed-stall");
  await page.click(`${v.tag} button[data-action="predict"]`);
  let q = await askUntil(/which records does reader \(read_committed\) receive from events-0, reading from offset 0\?$/);
  if (q.labels.length === 2) {
    // The first poll, while the LSO stalls at 0: nothing, or the record below the HW.
    assert.ok(q.labels.includes("nothing"));
    await q.quiz.locator('button[data-choice="nothing"]').click();
    await q.quiz.locator(".reveal").waitFor();
    assert.match(await q.quiz.locator(".reveal").textContent(), /^✓ Right: nothing\..*LSO 0/);
    q = await askUntil(/which records does reader \(read_committed\) receive/);
  }
  assert.deepEqual(q.labels, ["f1", "nothing", "stuck, f1"]);
  await q.quiz.locator('button[data-choice="stuck, f1"]').click();
  await q.quiz.locator(".reveal").waitFor();
  const reveal = await q.quiz.locator(".reveal").textContent();
  assert.match(reveal, /^✗ You chose stuck, f1; the model's answer is f1\./);
  assert.match(reveal, /R1/);
  assert.match(reveal, /aborted: 0\.\.3/);
  await waitStep(v, q.before + 1);
  // A model whose read_committed skips abort filtering (the test-only fault): that poll breaks an
  // invariant, and predict asks whether it holds.
  await page.goto("about:blank");
  await page.goto(`${baseUrl}/www/transactions.html?sabotage=read-committed-sees-aborted#scenario=txn-read-committed-stall`, { waitUntil: "load" });
  await page.waitForSelector('body[data-ready="1"]');
  await page.waitForFunction(() => document.querySelector("kafka-timeline")?.steps > 0);
  await page.click(`${v.tag} button[data-action="predict"]`);
  q = await askUntil(/does the invariant “read-committed-sees-only-committed” .* hold after this step\?$/);
  assert.deepEqual(q.labels, ["it is broken", "it still holds"]);
  await page.keyboard.press("1");
  await q.quiz.locator(".reveal").waitFor();
  assert.match(await q.quiz.locator(".reveal").textContent(), /^✓ Right: it is broken\..*read-committed-sees-only-committed is broken/);
});

test("Compare V1 / V2 marks the steps where the runs differ on both scrub bars and highlights the differing values in both panes", { timeout: 60_000 }, async () => {
  await openView(VIEWS[1], "#scenario=txn-protocol-v2&compare=1");
  await page.waitForFunction(() => document.getElementById("timeline-v2")?.report && document.getElementById("timeline").markedSteps.length > 0);
  const m = await page.evaluate(() => {
    const [a, b] = ["timeline", "timeline-v2"].map((id) => document.getElementById(id));
    return {
      a: a.markedSteps, b: b.markedSteps,
      failsAt: a.storyStepOf(a.report.steps.findIndex((s) => s.ok === false)),
      options: [...a.shadowRoot.querySelectorAll("datalist option")].map((o) => Number(o.value)),
      list: a.shadowRoot.querySelector("input.scrub").getAttribute("list"),
      note: a.shadowRoot.querySelector(".marks-note").textContent,
    };
  });
  assert.deepEqual(m.a, m.b, "the same steps on both sides (the runs take as many steps)");
  assert.ok(m.a.includes(m.failsAt), `the epoch expectation that fails under V1 (step ${m.failsAt}) is marked: ${m.a}`);
  assert.deepEqual(m.options, m.a, "the marks are the slider's tick marks");
  assert.ok(m.list);
  assert.match(m.note, /^V1 and V2 differ at steps? \d/);
  // The page's own note agrees at a marked step.
  await page.evaluate((k) => (document.getElementById("timeline").step = k), m.failsAt);
  await page.waitForFunction(() => /At this step the runs differ/.test(document.getElementById("compare-note").textContent));
  // The differing values are highlighted in both panes: exactly the facts whose text differs.
  await page.waitForFunction(() => document.getElementById("timeline").markedFacts.length > 0);
  const f = await page.evaluate(() => {
    const [a, b] = ["timeline", "timeline-v2"].map((id) => document.getElementById(id));
    const fa = a.facts();
    const fb = b.facts();
    const shown = (t) => [...t.shadowRoot.querySelectorAll(".differs")].map((n) => n.dataset.fact);
    return { fa, fb, ma: a.markedFacts, mb: b.markedFacts, shownA: shown(a), shownB: shown(b),
      note: a.shadowRoot.querySelector(".differs .differs-note")?.textContent ?? "" };
  });
  const differ = Object.keys({ ...f.fa, ...f.fb }).filter((k) => f.fa[k] !== f.fb[k]).sort();
  assert.ok(differ.length > 0);
  assert.deepEqual([...f.ma].sort(), differ.filter((k) => k in f.fa), "V1 highlights every differing value it shows, and nothing else");
  assert.deepEqual([...f.mb].sort(), differ.filter((k) => k in f.fb), "V2 too");
  assert.deepEqual(f.shownA.sort(), [...f.ma].sort(), "drawn as highlighted");
  assert.deepEqual(f.shownB.sort(), [...f.mb].sort());
  assert.ok(differ.some((k) => /epoch/.test(`${f.fa[k]} ${f.fb[k]}`)), `an epoch is among them: ${differ.map((k) => `${k}: ${f.fa[k]} | ${f.fb[k]}`).join("; ")}`);
  assert.match(f.note, /differs under transaction\.version 2/, "screen readers hear it");
  // Stepping on (the other side follows) highlights again exactly the values that differ there.
  await page.evaluate((k) => (document.getElementById("timeline").step = k), m.failsAt + 1);
  await page.waitForFunction((k) => document.getElementById("timeline-v2").step === k, m.failsAt + 1);
  const g = await page.evaluate(() => {
    const [a, b] = ["timeline", "timeline-v2"].map((id) => document.getElementById(id));
    const fa = a.facts();
    const fb = b.facts();
    return { ma: a.markedFacts.sort(), mb: b.markedFacts.sort(), wantA: Object.keys(fa).filter((k) => fa[k] !== fb[k]).sort(), wantB: Object.keys(fb).filter((k) => fa[k] !== fb[k]).sort() };
  });
  assert.deepEqual(g.ma, g.wantA);
  assert.deepEqual(g.mb, g.wantB);
  await page.click("#compare-protocols");
  await page.waitForFunction(() => !document.getElementById("timeline-v2") && document.getElementById("timeline").markedSteps.length === 0 && document.getElementById("timeline").markedFacts.length === 0);
});

// --- export a picture ----------------------------------------------------------------------------

for (const v of VIEWS) {
  test(`${v.tag}: SVG and PNG export with the lanes and a caption naming the scenario, step and Kafka line`, { timeout: 60_000 }, async () => {
    await openView(v);
    await page.evaluate((tag) => (document.querySelector(tag).step = 2), v.tag);
    await waitStep(v, 2);
    await page.waitForTimeout(100); // drawn
    const out = await page.evaluate(async (tag) => {
      const e = document.querySelector(tag);
      const lanes = tag === "kafka-ladder" ? [...e.run.producers, ...e.run.partitions] : e.report.lanes.map((l) => l.label);
      const svg = e.exportPicture("svg");
      const doc = new DOMParser().parseFromString(svg, "image/svg+xml");
      const blob = await e.exportPicture("png");
      const img = await createImageBitmap(blob);
      const c = document.createElement("canvas");
      c.width = img.width;
      c.height = img.height;
      const ctx = c.getContext("2d");
      ctx.drawImage(img, 0, 0);
      const canvas = e.shadowRoot.querySelector("canvas");
      // The caption strip under the drawing: some pixels are dark (text on the light background).
      const strip = ctx.getImageData(0, canvas.height, c.width, c.height - canvas.height).data;
      let dark = 0;
      for (let i = 0; i < strip.length; i += 4) if (strip[i] + strip[i + 1] + strip[i + 2] < 300) dark++;
      return {
        lanes,
        svgTexts: [...doc.querySelectorAll("#drawing text")].map((t) => t.textContent),
        parseError: !!doc.querySelector("parsererror"),
        image: doc.querySelector("image") !== null,
        caption: doc.querySelector("#caption")?.textContent ?? "",
        title: doc.querySelector("title")?.textContent ?? "",
        pngType: blob.type, pngSize: blob.size, pngH: img.height, canvasH: canvas.height, pngW: img.width, canvasW: canvas.width, dark,
        elCaption: e.caption,
      };
    }, v.tag);
    assert.equal(out.parseError, false, "the SVG parses");
    // Every lane name the gutter has room for (a longer one is drawn abbreviated, as on screen).
    for (const lane of out.lanes.map(String).filter((l) => l.length <= 16)) assert.ok(out.svgTexts.some((t) => t.includes(lane)), `the SVG names lane ${lane}`);
    assert.equal(out.image, false, "the SVG is vectors, no raster image");
    assert.match(out.title, /· step 3 of \d+ \(line \d+: .+\) · .*Kafka \d+\.\d+/);
    assert.equal(out.caption.replace(/\s+/g, ""), out.title.replace(/\s+/g, ""), "the caption is the title, as text (wrapped in lines)");
    assert.equal(out.pngType, "image/png");
    assert.ok(out.pngSize > 2000, `a real PNG (${out.pngSize} bytes)`);
    assert.equal(out.pngW, out.canvasW);
    assert.ok(out.pngH > out.canvasH, "the caption is under the drawing");
    assert.ok(out.dark > 50, `the caption is drawn (${out.dark} dark pixels)`);
    // The buttons download the files.
    const [png] = await Promise.all([page.waitForEvent("download"), page.click(`${v.tag} button[data-action="export-png"]`)]);
    assert.match(png.suggestedFilename(), /-step-3\.png$/);
    const [svg] = await Promise.all([page.waitForEvent("download"), page.click(`${v.tag} button[data-action="export-svg"]`)]);
    assert.match(svg.suggestedFilename(), /-step-3\.svg$/);
    if (v.tag === "kafka-timeline") {
      const [script] = await Promise.all([page.waitForEvent("download"), page.click(`${v.tag} button[data-action="export-script"]`)]);
      const { readFileSync } = await import("node:fs");
      const text = readFileSync(await script.path(), "utf8");
      assert.match(text, /^# eoslab step=2\n/);
      assert.ok(text.includes("model transactions"), "the scenario text that reproduces it");
    }
  });
}

// --- the guided tour -----------------------------------------------------------------------------

test("the guided tour: every chapter renders its live view, asks before it reveals, and is reachable from every page", { timeout: 120_000 }, async () => {
  for (const path of ["", "idempotence.html", "transactions.html", "embed-example.html"]) {
    await page.goto(`${baseUrl}/www/${path}`, { waitUntil: "load" });
    assert.equal(await page.locator('a[href="tour.html"]').count() >= 1, true, `${path || "index.html"} links to the tour`);
  }
  await page.goto(`${baseUrl}/www/tour.html`, { waitUntil: "load" });
  await page.waitForSelector('body[data-ready="1"]');
  await page.waitForFunction(() => [...document.querySelectorAll("kafka-ladder, kafka-timeline")].every((e) => e.steps > 0), null, { timeout: 60_000 });
  const chapters = await page.evaluate(() => [...document.querySelectorAll("#tour > section")].map((s) => s.id));
  assert.equal(chapters.length, 13);
  assert.equal(await page.locator("#toc li a").count(), 13, "a table of contents");
  // Chapter 1: the header, decoded (producerId 4242, epoch 1, sequence 7).
  await page.waitForFunction(() => /4242/.test(document.getElementById("tour-batch").shadowRoot.querySelector('tr[data-field="producerId"]')?.textContent ?? ""));
  // Chapter 5: the config resolver answers.
  await page.locator("#config kafka-producer-config .result table, #config kafka-producer-config .result .exception").first().waitFor();
  // Every chapter ends with its predict-then-reveal question: its own (chapters 1 and 5), else its last view, with predict on.
  const ends = await page.evaluate(() => [...document.querySelectorAll("#tour > section")].map((s) => {
    const last = s.lastElementChild;
    return { id: s.id, last: last.localName, cls: last.className, predict: last.hasAttribute("predict") };
  }));
  for (const e of ends) {
    assert.ok(e.cls === "chapter-quiz" || (/^kafka-(ladder|timeline)$/.test(e.last) && e.predict), `chapter ${e.id} ends with a question: ${JSON.stringify(e)}`);
  }
  assert.deepEqual(ends.filter((e) => e.cls === "chapter-quiz").map((e) => e.id), ["header", "config"]);
  // Chapter 1's question: the three values the decoder shows, among other decoded fields; a wrong pick reveals them.
  const decoded = await page.evaluate(() => {
    const root = document.getElementById("tour-batch").shadowRoot;
    const v = (f) => root.querySelector(`tr[data-field="${f}"] td`).textContent.trim();
    return { producerId: v("producerId"), producerEpoch: v("producerEpoch"), baseSequence: v("baseSequence"), baseOffset: v("baseOffset") };
  });
  const q1 = page.locator("#header .chapter-quiz");
  assert.match(await q1.locator(".prompt").textContent(), /^Predict: .*\?$/);
  const c1 = await q1.locator("button[data-choice]").evaluateAll((bs) => bs.map((b) => b.dataset.choice));
  const a1 = `producerId ${decoded.producerId}, producerEpoch ${decoded.producerEpoch}, baseSequence ${decoded.baseSequence}`;
  assert.equal(a1, "producerId 4242, producerEpoch 1, baseSequence 7");
  assert.ok(c1.length >= 3 && c1.includes(a1), `the decoded answer among ${c1}`);
  assert.ok(c1.some((c) => c.startsWith(`baseOffset ${decoded.baseOffset},`)), "the other choices are decoded fields too");
  await q1.locator("button[data-choice]").filter({ hasNotText: a1 }).first().click();
  const r1 = await q1.locator(".reveal").textContent();
  assert.ok(r1.startsWith(`✗ You chose `) && r1.includes(`the decoder's answer is ${a1}.`), r1);
  assert.match(r1, /A1 .*Kafka source: storage\/src\/main\/java\/org\/apache\/kafka\/storage\/internals\/log\/ProducerStateEntry\.java/, "the model's duplicate rule and its source");
  assert.equal(await q1.locator("button[data-choice]").count(), 0, "answered once");
  // Chapter 5's question: the answer is the resolver's, as the element shows it; answered with its number key.
  const shown = await page.evaluate(() => document.querySelector("#config kafka-producer-config").result);
  const a5 = shown.ok ? `it starts, with idempotence ${shown.idempotence ? "on" : "off"}` : `it throws ${shown.exception}`;
  assert.equal(a5, "it starts, with idempotence off", "acks=1: idempotence silently off (P4)");
  const q5 = page.locator("#config .chapter-quiz");
  const c5 = await q5.locator("button[data-choice]").evaluateAll((bs) => bs.map((b) => b.dataset.choice));
  assert.ok(c5.length >= 3 && c5.includes(a5) && c5.includes("it throws ConfigException"), `${c5}`);
  await q5.locator("button[data-choice]").first().focus();
  await page.keyboard.press(String(c5.indexOf(a5) + 1));
  const r5 = await q5.locator(".reveal").textContent();
  assert.ok(r5.startsWith(`✓ Right: ${a5}.`), r5);
  assert.match(r5, /silently disabled: acks is 1.*P4 .*Kafka source: clients\/src\/main\/java\/org\/apache\/kafka\/clients\/producer\/ProducerConfig\.java/);
  // Every ladder and timeline: predict is on, and stepping forward reaches a question.
  const views = page.locator("#tour kafka-ladder, #tour kafka-timeline");
  const n = await views.count();
  assert.ok(n >= 14, `${n} live views`);
  for (let i = 0; i < n; i++) {
    const view = views.nth(i);
    assert.equal(await view.locator('button[data-action="predict"]').getAttribute("aria-pressed"), "true");
    const steps = await view.evaluate((e) => e.steps);
    let asked = false;
    for (let k = 0; k < steps && !asked; k++) {
      await view.locator('button[data-action="forward"]').click();
      asked = (await view.locator(".quiz button[data-choice]").count()) > 0;
    }
    assert.ok(asked, `chapter view ${i} (${await view.getAttribute("scenario")}) asks a question`);
    await view.locator(".quiz button[data-choice]").first().click();
    await view.locator(".quiz .reveal").waitFor();
  }
});

// --- accessibility -------------------------------------------------------------------------------

test("axe-core finds no violations with the player, the keyboard map, presenter mode and a failing check", { timeout: 120_000 }, async (t) => {
  const { existsSync, readFileSync } = await import("node:fs");
  const { join } = await import("node:path");
  const { ROOT } = await import("./helpers.mjs");
  const axePath = join(ROOT, "tests/node_modules/axe-core/axe.min.js");
  assert.ok(existsSync(axePath), `axe-core is missing (${axePath}): it is a devDependency in tests/package.json — run scripts/ensure-test-tools.sh (or npm ci in tests/); the accessibility scan must not be skipped`);
  const axeSource = readFileSync(axePath, "utf8");
  const scan = async (label) => {
    await page.evaluate(axeSource); // through the devtools protocol: the page's CSP does not apply
    const result = await page.evaluate(() => window.axe.run(document, { resultTypes: ["violations"] }));
    const summary = result.violations.map((x) => `${x.id}: ${x.help} (${x.nodes.length}) ${x.nodes.slice(0, 3).map((n) => JSON.stringify(n.target)).join(" ")}`);
    assert.deepEqual(summary, [], `${label}: ${summary.join("\n")}`);
  };
  for (const v of VIEWS) {
    await openView(v);
    await page.evaluate((tag) => (document.querySelector(tag).step = 1), v.tag);
    await waitStep(v, 1);
    await scan(`${v.page}`);
    await page.locator(`${v.tag} .viewport`).focus();
    await page.keyboard.press("?");
    await page.locator(`${v.tag} dialog.keymap[open]`).waitFor();
    await scan(`${v.page}, keyboard map`);
    await page.keyboard.press("Escape");
    await page.locator(`${v.tag} .viewport`).focus();
    await page.keyboard.press("p");
    await page.waitForFunction((tag) => document.querySelector(tag).hasAttribute("presenter"), v.tag);
    await scan(`${v.page}, presenter mode`);
    await page.keyboard.press("q");
    for (let i = 0; i < 6 && !(await page.locator(`${v.tag} .quiz button[data-choice]`).count()); i++) await page.keyboard.press("ArrowRight");
    await scan(`${v.page}, presenter mode, predict asking`);
    await page.keyboard.press("1");
    await page.locator(`${v.tag} .quiz .reveal`).waitFor();
    await scan(`${v.page}, presenter mode, predict revealed`);
    await page.keyboard.press("q");
    await page.keyboard.press("Escape");
    if (await page.evaluate(() => !!document.fullscreenElement)) await page.evaluate(() => document.exitFullscreen());
    await page.emulateMedia({ colorScheme: "dark" });
    await page.locator(`${v.tag} .viewport`).focus();
    await page.keyboard.press("p");
    await page.waitForFunction((tag) => document.querySelector(tag).hasAttribute("presenter"), v.tag);
    await scan(`${v.page}, presenter mode, dark`);
    await page.keyboard.press("Escape");
    if (await page.evaluate(() => !!document.fullscreenElement)) await page.evaluate(() => document.exitFullscreen());
    await page.emulateMedia({ colorScheme: "light" });
  }
  // The embed example: a documentation author's page (two <kafka-batch>, a <kafka-timeline>, the pages' links).
  await page.goto("about:blank");
  await page.goto(`${baseUrl}/www/embed-example.html`, { waitUntil: "load" });
  await page.waitForFunction(() => document.getElementById("zombie")?.steps > 0);
  await page.locator('#example-a tr[data-field="producerId"] td').first().waitFor();
  await scan("embed-example.html");
  await page.locator("#zombie .viewport").focus();
  await page.keyboard.press("p");
  await page.waitForFunction(() => document.getElementById("zombie").hasAttribute("presenter"));
  await scan("embed-example.html, the timeline in presenter mode");
  await page.keyboard.press("Escape");
  if (await page.evaluate(() => !!document.fullscreenElement)) await page.evaluate(() => document.exitFullscreen());
  // The guided tour, with predict on in every view.
  await page.goto(`${baseUrl}/www/tour.html`, { waitUntil: "load" });
  await page.waitForSelector('body[data-ready="1"]');
  await page.waitForFunction(() => [...document.querySelectorAll("kafka-ladder, kafka-timeline")].every((e) => e.steps > 0), null, { timeout: 60_000 });
  await page.locator("#lost-response kafka-ladder button[data-action=forward]").click();
  await page.locator("#lost-response kafka-ladder .quiz button[data-choice]").first().waitFor();
  await scan("tour.html, a question asked");
  // A failing check (✗ with expected and actual).
  await openView(VIEWS[0]);
  await page.evaluate(() => document.querySelector("kafka-ladder").setAttribute("script", "partition p\nproducer app\nsend app p x\ndeliver request b1\nexpect b1 duplicate 0..0\n"));
  await page.locator('kafka-ladder .now ul.checks li[data-ok="false"]').waitFor().catch(async () => {
    await page.evaluate(() => (document.querySelector("kafka-ladder").step = 1));
    await page.locator('kafka-ladder .now ul.checks li[data-ok="false"]').waitFor();
  });
  await scan("a failing check");
});

test("no console errors, no page errors, no dialogs, no requests off 127.0.0.1", () => {
  const { consoleErrors, pageErrors, foreignRequests, dialogs } = lab;
  assert.deepEqual(pageErrors, []);
  assert.deepEqual(consoleErrors, []);
  assert.deepEqual(foreignRequests, []);
  assert.deepEqual(dialogs, []);
});
