// Browser tests of the teaching features (issue 14) on idempotence.html (<kafka-ladder>) and
// transactions.html (<kafka-timeline>): stories told from the start with `expect` lines as
// checks, the shared player and its keyboard map, script errors that suggest the fix, links that
// restore the view, presenter mode. Debian's Chromium driven by playwright-core, served by
// scripts/serve.py on 127.0.0.1.
// Run: node --test tests/browser/teach.test.mjs   (needs `make pkg` and /usr/bin/chromium)
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { launch } from "./helpers.mjs";

let lab;
let baseUrl;
let page;

before(async () => {
  lab = await launch({ colorScheme: "light", viewport: { width: 1400, height: 1000 } });
  ({ baseUrl, page } = lab);
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

test("no console errors, no page errors, no dialogs, no requests off 127.0.0.1", () => {
  const { consoleErrors, pageErrors, foreignRequests, dialogs } = lab;
  assert.deepEqual(pageErrors, []);
  assert.deepEqual(consoleErrors, []);
  assert.deepEqual(foreignRequests, []);
  assert.deepEqual(dialogs, []);
});
