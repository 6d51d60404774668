// Browser tests of the pages as a class sees them on a 1280×720 projector (and at 1920×1080 in
// presenter mode): the keys work right after loading, a shared inspector link shows its bytes in
// the hex box, the ladder's row numbers are the step counter's, the script editor is as wide as
// the view and shows an error next to the line it names, no text drawn on a canvas is cut (mid-word
// or at the drawing's edge), and a lane's full name reaches the keyboard. Debian's Chromium driven by
// playwright-core, served by scripts/serve.py on 127.0.0.1.
// Run: node --test tests/browser/classroom.test.mjs   (needs `make pkg` and /usr/bin/chromium)
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { EXAMPLE_A_HEX, launch } from "./helpers.mjs";

let lab;
let baseUrl;
let page;

before(async () => {
  lab = await launch({ colorScheme: "light", viewport: { width: 1280, height: 720 } });
  ({ baseUrl, page } = lab);
  await lab.context.addInitScript(() => {
    // Every fillText on a canvas while a test sets window.__fillTextLog to an array.
    const fillText = CanvasRenderingContext2D.prototype.fillText;
    CanvasRenderingContext2D.prototype.fillText = function (text, x, y, maxWidth) {
      if (Array.isArray(window.__fillTextLog)) {
        window.__fillTextLog.push({ canvas: this.canvas, text: String(text), x, y, align: this.textAlign, w: this.measureText(String(text)).width });
      }
      return fillText.apply(this, arguments);
    };
  });
});

after(async () => {
  await lab?.close();
});

const VIEWS = [
  { tag: "kafka-ladder", page: "idempotence.html", scenario: "lost-response-retry" },
  { tag: "kafka-timeline", page: "transactions.html", scenario: "txn-zombie-fenced" },
];

async function open(v, hash = `#scenario=${v.scenario}`, size = { width: 1280, height: 720 }) {
  await page.setViewportSize(size);
  await page.goto("about:blank");
  await page.goto(`${baseUrl}/www/${v.page}${hash}`, { waitUntil: "load" });
  await page.waitForSelector('body[data-ready="1"]');
  await page.waitForFunction((tag) => document.querySelector(tag)?.steps > 0, v.tag);
}

const stepOf = (v) => page.evaluate((tag) => document.querySelector(tag).step, v.tag);
const keymapOpen = (v) => page.evaluate((tag) => !!document.querySelector(tag).shadowRoot.querySelector("dialog.keymap")?.open, v.tag);

for (const v of VIEWS) {
  test(`${v.page}: the view's keys work from the page right after loading, after clicking a scenario or the title`, async () => {
    await open(v);
    assert.equal(await stepOf(v), 0);
    await page.keyboard.press("ArrowRight");
    assert.equal(await stepOf(v), 1, "→ right after loading steps forward");
    await page.keyboard.press("ArrowRight");
    await page.keyboard.press("ArrowLeft");
    assert.equal(await stepOf(v), 1, "← steps back");
    await page.keyboard.press("End");
    const steps = await page.evaluate((tag) => document.querySelector(tag).steps, v.tag);
    assert.equal(await stepOf(v), steps - 1, "End: the last step");
    await page.keyboard.press("Home");
    assert.equal(await stepOf(v), 0, "Home: the first step");

    // After clicking the scenario in the list (the focus is on its button) and the view's title.
    await page.click(`#scenario-list button[data-name="${v.scenario}"]`);
    await page.waitForFunction((tag) => document.querySelector(tag)?.steps > 0, v.tag);
    await page.keyboard.press("ArrowRight");
    assert.equal(await stepOf(v), 1, "→ after clicking a scenario");
    await page.click("#lab h2");
    await page.keyboard.press("ArrowRight");
    assert.equal(await stepOf(v), 2, "→ after clicking the view's title");
    await page.keyboard.press(" ");
    assert.equal(await page.evaluate((tag) => document.querySelector(tag).playing, v.tag), true, "Space plays");
    await page.keyboard.press(" ");
    assert.equal(await page.evaluate((tag) => document.querySelector(tag).playing, v.tag), false, "Space pauses");

    // ? opens the keyboard map from the page; Esc closes it.
    await page.keyboard.press("Shift+Slash");
    await page.waitForFunction((tag) => document.querySelector(tag).shadowRoot.querySelector("dialog.keymap")?.open, v.tag);
    await page.keyboard.press("Escape");
    assert.equal(await keymapOpen(v), false);

    // Typing in the script editor stays typing.
    await page.click("#editor summary");
    const before = await stepOf(v);
    await page.click("#script");
    await page.keyboard.press("End");
    await page.keyboard.press("ArrowRight");
    await page.keyboard.type("?");
    assert.equal(await stepOf(v), before, "keys typed into the editor do not step the view");
    assert.equal(await keymapOpen(v), false, "? typed into the editor is a character");
    assert.ok((await page.inputValue("#script")).includes("?"));
  });
}

test("index.html: a shared link with pasted bytes restores them in the hex box", async () => {
  await page.setViewportSize({ width: 1280, height: 720 });
  await page.goto("about:blank");
  await page.goto(`${baseUrl}/www/index.html`, { waitUntil: "load" });
  await page.waitForSelector('body[data-ready="1"]');
  // Pasted bytes (not a built-in sample): Example A with its last value byte changed.
  const hex = EXAMPLE_A_HEX.replace(/76 00$/, "77 00");
  const box = page.locator("#kb").locator("textarea").first();
  await box.fill(hex);
  await page.waitForFunction(() => /^#/.test(location.hash) && location.hash.length > 10 && !location.hash.includes("sample"));
  await page.waitForTimeout(300);
  const link = await page.evaluate(() => location.href);
  await page.goto("about:blank");
  await page.goto(link, { waitUntil: "load" });
  await page.waitForSelector('body[data-ready="1"]');
  const shown = (await page.locator("#kb").locator("textarea").first().inputValue()).replace(/\s+/g, " ").trim();
  assert.equal(shown, hex, "the hex box shows the link's bytes");
  assert.deepEqual(await page.evaluate(() => Array.from(document.getElementById("kb").bytes.slice(-2))), [0x77, 0]);
  // And they can be edited there: the decode follows the box.
  await page.locator("#kb").locator("textarea").first().fill(EXAMPLE_A_HEX);
  await page.waitForFunction(() => document.getElementById("kb").bytes.at(-2) === 0x76);
});

test("idempotence.html: the ladder's row numbers are the step counter's (expect lines are checks, not steps)", async () => {
  const v = VIEWS[0];
  await open(v);
  const info = await page.evaluate(async () => {
    const ladder = document.querySelector("kafka-ladder");
    const n = ladder.steps;
    ladder.goTo(n - 1);
    await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
    window.__fillTextLog = [];
    ladder.goTo(n - 2);
    await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
    const canvas = ladder.shadowRoot.querySelector("canvas");
    const numbers = window.__fillTextLog.filter((c) => c.canvas === canvas && c.x === 10 && /^\d+$/.test(c.text)).map((c) => Number(c.text));
    window.__fillTextLog = null;
    const expects = ladder.run.steps.filter((s) => /^expect\b/.test(s.text)).length;
    return { n, numbers, expects, counter: ladder.shadowRoot.querySelector(".counter").textContent };
  });
  assert.ok(info.expects > 0, "the scenario has expect lines");
  assert.equal(info.counter, `step ${info.n - 1} / ${info.n}`);
  assert.ok(info.numbers.length > 0);
  assert.equal(Math.max(...info.numbers), info.n - 1, `at step ${info.n - 1} of ${info.n} the highest row number drawn is ${info.n - 1}`);
  // The rows in view (the first may have scrolled away): one number per step, no gaps.
  const seen = [...new Set(info.numbers)].sort((a, b) => a - b);
  assert.deepEqual(seen, Array.from({ length: seen.length }, (_, i) => seen[0] + i), JSON.stringify(info.numbers));
});

for (const v of VIEWS) {
  test(`${v.page}: the script editor is as wide as the view and does not wrap lines`, async () => {
    await open(v);
    await page.click("#editor summary");
    const m = await page.evaluate(() => {
      const t = document.getElementById("script");
      const lab = document.getElementById("lab");
      return { w: t.getBoundingClientRect().width, lab: lab.getBoundingClientRect().width, ws: getComputedStyle(t).whiteSpace };
    });
    assert.ok(m.w >= m.lab - 4, `editor ${m.w}px wide in a view of ${m.lab}px`);
    assert.ok(m.w >= 700, `editor ${m.w}px wide at 1280`);
    assert.equal(m.ws, "pre");
  });

  test(`${v.page}: a script error appears next to the editor and marks its line`, async () => {
    await open(v);
    await page.click("#editor summary");
    const text = await page.inputValue("#script");
    const lines = text.replace(/\s*$/, "").split("\n");
    const bad = lines.length; // before the script's last line
    lines.splice(bad - 1, 0, "frobnicate the widget");
    await page.fill("#script", lines.join("\n"));
    await page.click("#run");
    await page.waitForSelector("#script-error:not([hidden])");
    await page.waitForFunction(() => {
      const b = document.getElementById("script-error").getBoundingClientRect();
      return b.top >= 0 && b.bottom <= innerHeight + 1;
    }, null, { timeout: 2000 }).catch(() => {});
    const m = await page.evaluate(() => {
      const box = document.getElementById("script-error").getBoundingClientRect();
      const run = document.getElementById("run").getBoundingClientRect();
      const t = document.getElementById("script");
      const mark = document.querySelector("#editor .line-mark");
      return {
        text: document.getElementById("script-error").textContent,
        gap: Math.abs(box.top - run.bottom),
        inView: box.top >= 0 && box.bottom <= innerHeight + 1,
        invalid: t.getAttribute("aria-invalid"),
        selected: t.value.slice(t.selectionStart, t.selectionEnd),
        focused: document.activeElement === t,
        mark: mark && !mark.hidden ? { top: mark.getBoundingClientRect().top - t.getBoundingClientRect().top } : null,
      };
    });
    assert.match(m.text, new RegExp(`^line ${bad}:`), m.text);
    assert.ok(m.gap < 720, `the error is ${m.gap}px from the Run button`);
    assert.ok(m.inView, "the error is on screen after Run");
    assert.equal(m.invalid, "true");
    assert.equal(m.selected, "frobnicate the widget", "the line is selected in the editor");
    assert.ok(m.focused);
    assert.ok(m.mark, "the line is marked");
    assert.ok(m.mark.top > 0);
    // Fixing it clears the error.
    await page.fill("#script", text);
    await page.click("#run");
    await page.waitForSelector("#script-error[hidden]", { state: "attached" });
    assert.equal(await page.getAttribute("#script", "aria-invalid"), null);
    await page.evaluate(() => localStorage.clear()); // the run kept the script as an edit
  });
}

test("transactions.html: the scenarios in two groups with a filter box, the list a box of its own with the current one in view", async () => {
  const v = VIEWS[1];
  const last = await (async () => {
    await open(v, "");
    return page.evaluate(() => [...document.querySelectorAll("#scenario-list button[data-name]")].at(-1).dataset.name);
  })();
  await open(v, `#scenario=${last}`);
  const m = await page.evaluate(() => {
    const nav = document.getElementById("scenarios").getBoundingClientRect();
    const list = document.getElementById("scenario-list");
    const cur = list.querySelector('button[aria-current="true"]').getBoundingClientRect();
    const lb = list.getBoundingClientRect();
    return {
      pageH: document.documentElement.scrollHeight,
      navH: nav.height,
      groups: [...list.querySelectorAll("li.group-head h3")].map((h) => h.textContent),
      cur: { top: cur.top, bottom: cur.bottom },
      list: { top: lb.top, bottom: lb.bottom },
    };
  });
  assert.equal(m.groups.length, 2, JSON.stringify(m.groups));
  assert.match(m.groups[1], /^Request by request/);
  assert.ok(m.navH <= 720, `the scenario column is ${m.navH}px tall`);
  assert.ok(m.cur.top >= m.list.top - 1 && m.cur.bottom <= m.list.bottom + 1 && m.cur.bottom <= 720, `the current scenario is in view: ${JSON.stringify(m)}`);
  // Scrolled down the page, the list stays on screen.
  await page.evaluate(() => window.scrollTo(0, 1500));
  const top = await page.evaluate(() => document.getElementById("scenarios").getBoundingClientRect().top);
  assert.ok(top >= 0 && top < 100, `the list stays in view (top ${top})`);
  await page.evaluate(() => window.scrollTo(0, 0));
  // The filter.
  await page.fill("#scenario-filter", "zombie");
  const shown = await page.evaluate(() => [...document.querySelectorAll("#scenario-list li:not([hidden]) button[data-name]")].map((b) => b.dataset.name));
  assert.ok(shown.includes("txn-zombie-fenced"), JSON.stringify(shown));
  assert.ok(shown.every((n) => /zombie/.test(n) || n === last || /zombie/i.test(n)), JSON.stringify(shown));
  assert.ok(shown.length < 10);
  assert.match(await page.textContent("#filter-status"), /^\d+ of \d+ scenarios$/);
  // What was typed survives a reload.
  await page.reload({ waitUntil: "load" });
  await page.waitForSelector('body[data-ready="1"]');
  assert.equal(await page.inputValue("#scenario-filter"), "zombie");
  assert.ok(await page.evaluate(() => document.querySelectorAll("#scenario-list li:not([hidden]) button[data-name]").length < 10));
  // Keys typed in the filter stay there.
  const step = await stepOf(v);
  await page.press("#scenario-filter", "ArrowLeft");
  assert.equal(await stepOf(v), step);
  await page.fill("#scenario-filter", "");
});

test("transactions.html: Compare V1 / V2 at 1280×720 keeps each timeline's log column readable", async () => {
  const v = VIEWS[1];
  await open(v, "#scenario=txn-protocol-v2&compare=1");
  await page.waitForFunction(() => document.getElementById("timeline-v2")?.steps > 0);
  const m = await page.evaluate(() =>
    ["timeline", "timeline-v2"].map((id) => {
      const t = document.getElementById(id);
      const vp = t.shadowRoot.querySelector(".viewport");
      const vb = vp.getBoundingClientRect();
      const nb = t.shadowRoot.querySelector(".now").getBoundingClientRect();
      return { w: vp.clientWidth, logW: t.renderStats?.logW ?? null, narration: t.getAttribute("narration"),
        nowBeside: nb.x >= vb.right - 1, nowTop: Math.round(nb.y - vb.y) };
    }));
  for (const side of m) {
    assert.ok(side.w >= 600, `each timeline is ${side.w}px wide`);
    assert.ok(side.logW >= 250, `the log column is ${side.logW}px`);
  }
  // Both timelines put the step's text in the same place: beside the drawing, level with its top.
  assert.equal(m[1].narration, m[0].narration);
  for (const side of m) {
    assert.ok(side.nowBeside, "the step's text is beside the drawing");
    assert.equal(side.nowTop, 0, "the step's text starts level with the drawing");
  }
});

for (const v of VIEWS) {
  test(`${v.page}: presenter mode at 1920×1080 — the drawing fills the screen, the step's text beside it at presenter size`, async () => {
    await open(v, `#scenario=${v.scenario}`, { width: 1920, height: 1080 });
    await page.evaluate((tag) => document.querySelector(tag).setAttribute("presenter", ""), v.tag);
    await page.evaluate((tag) => document.querySelector(tag).goTo(3), v.tag);
    await page.waitForTimeout(300);
    const m = await page.evaluate((tag) => {
      const e = document.querySelector(tag);
      const r = e.shadowRoot;
      const box = (el) => { const b = el.getBoundingClientRect(); return { x: b.x, y: b.y, w: b.width, h: b.height, right: b.right, bottom: b.bottom }; };
      const small = [...r.querySelectorAll(".now *")].filter((el) => el.childNodes.length && [...el.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim()))
        .map((el) => parseFloat(getComputedStyle(el).fontSize)).filter((px) => px < 18);
      return { drawing: box(r.querySelector(".viewport")), now: box(r.querySelector(".now")), small };
    }, v.tag);
    assert.ok(m.drawing.y < 260, `the drawing starts at y=${m.drawing.y}`);
    assert.ok(m.drawing.w >= 1100, `the drawing is ${m.drawing.w}px wide`);
    assert.ok(m.now.x >= m.drawing.right - 1 || m.now.y >= m.drawing.bottom - 1, "the step's text is beside or under the drawing");
    assert.ok(m.now.y >= 0 && m.now.y < 1080);
    assert.deepEqual(m.small, [], "no text of the step under 18px in presenter mode");
    await page.evaluate((tag) => document.querySelector(tag).removeAttribute("presenter"), v.tag);
  });
}

test("transactions.html: presenter mode — lane names abbreviated (full name on hover), record values whole", async () => {
  const v = VIEWS[1];
  await open(v, "#scenario=txn-consume-transform-produce", { width: 1920, height: 1080 });
  await page.evaluate(() => document.querySelector("kafka-timeline").setAttribute("presenter", ""));
  await page.waitForTimeout(300);
  const m = await page.evaluate(async () => {
    const e = document.querySelector("kafka-timeline");
    const frames = () => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
    e.goTo(e.steps - 1);
    await frames();
    window.__fillTextLog = [];
    e.goTo(e.steps - 2);
    await frames();
    e.goTo(e.steps - 1);
    await frames();
    const canvas = e.shadowRoot.querySelector("canvas");
    const texts = window.__fillTextLog.filter((t) => t.canvas === canvas).map((t) => t.text);
    window.__fillTextLog = null;
    const s = e.renderStats;
    return { texts, gutterW: s.gutterW, logW: s.logW, coordinator: e.report.lanes.find((l) => l.kind === "coordinator").label };
  });
  assert.ok(m.gutterW <= 0.25 * (m.gutterW + m.logW) + 200, `lane names take ${m.gutterW}px, the logs ${m.logW}px`);
  assert.ok(m.logW > m.gutterW, `the logs (${m.logW}px) are wider than the lane names (${m.gutterW}px)`);
  assert.ok(!m.texts.some((t) => /^e\d.*…$/.test(t)), `a record's value cut: ${m.texts.filter((t) => /…/.test(t))}`);
  assert.ok(m.texts.includes("e1,e2") || (m.texts.includes("e1,") && m.texts.includes("e2")), "the record e1,e2 is drawn whole or wrapped");
  // The coordinator's long name is abbreviated in the gutter, whole in the tooltip over it.
  assert.ok(!m.texts.includes(m.coordinator));
  const box = await page.evaluate(() => {
    const e = document.querySelector("kafka-timeline");
    const c = e.shadowRoot.querySelector("canvas").getBoundingClientRect();
    return { x: c.x, y: c.y };
  });
  const laneY = await page.evaluate(() => {
    const e = document.querySelector("kafka-timeline");
    const c = e.shadowRoot.querySelector("canvas");
    const zoom = c.getBoundingClientRect().width / c.clientWidth;
    const i = e.report.lanes.findIndex((l) => l.kind === "coordinator");
    return { zoom, i };
  });
  // Hover the gutter down the lanes until the coordinator's tooltip shows.
  let title = "";
  for (let y = 40; y < 900 && title !== m.coordinator; y += 20) {
    await page.mouse.move(box.x + 30, box.y + y);
    title = await page.evaluate(() => document.querySelector("kafka-timeline").shadowRoot.querySelector("canvas").title);
  }
  assert.equal(title, m.coordinator, `zoom ${laneY.zoom}`);
  await page.evaluate(() => document.querySelector("kafka-timeline").removeAttribute("presenter"));
});

for (const v of VIEWS) {
  test(`${v.page}: at 1280×720 the drawing is on the first screen at every step, the step's text beside it`, async () => {
    await open(v);
    const steps = await page.evaluate((tag) => document.querySelector(tag).steps, v.tag);
    for (const k of [0, Math.floor(steps / 2), steps - 1]) {
      await page.evaluate(({ tag, k }) => document.querySelector(tag).goTo(k), { tag: v.tag, k });
      await page.waitForTimeout(150);
      const m = await page.evaluate((tag) => {
        const r = document.querySelector(tag).shadowRoot;
        const b = (el) => { const x = el.getBoundingClientRect(); return { top: x.top, bottom: x.bottom, left: x.left, right: x.right, h: x.height }; };
        return { drawing: b(r.querySelector(".viewport")), now: b(r.querySelector(".now")), scrollY };
      }, v.tag);
      assert.equal(m.scrollY, 0);
      if (v.tag === "kafka-ladder") {
        assert.ok(m.drawing.top >= 0 && m.drawing.bottom <= 720, `step ${k + 1}: the ladder at ${m.drawing.top}–${m.drawing.bottom}`);
      } else {
        // The lanes are drawn whole (no scrolling box of their own): their first 250 px on screen.
        assert.ok(m.drawing.top >= 0 && m.drawing.top <= 720 - 250, `step ${k + 1}: the lanes begin at y=${m.drawing.top}`);
      }
      assert.ok(m.now.left >= m.drawing.right - 1, `step ${k + 1}: the step's text beside the drawing`);
      assert.ok(m.now.top < 720, "the step's text starts on the first screen");
    }
  });
}

test("idempotence.html: a step the model cannot take (deliver request b7, no such batch) is an error beside the editor, its line marked", async () => {
  const v = VIEWS[0];
  await open(v);
  await page.click("#editor summary");
  const text = (await page.inputValue("#script")).replace(/\s*$/, "\n");
  const line = text.split("\n").length; // the appended line's number
  await page.fill("#script", `${text}deliver request b7\n`);
  await page.click("#run");
  await page.waitForSelector("#script-error:not([hidden])");
  const m = await page.evaluate(() => {
    const t = document.getElementById("script");
    return { text: document.getElementById("script-error").textContent, selected: t.value.slice(t.selectionStart, t.selectionEnd), mark: !document.querySelector("#editor .line-mark").hidden };
  });
  assert.match(m.text, new RegExp(`^line ${line}: b7 `), m.text);
  assert.equal(m.selected, "deliver request b7");
  assert.ok(m.mark);
  // The ladder shows it too, at the top of the view.
  assert.match(await page.evaluate(() => document.querySelector("kafka-ladder").shadowRoot.querySelector(".error").textContent), /b7/);
  await page.evaluate(() => localStorage.clear());
});

test("transactions.html: a step naming a producer the script lacks (send olld …) is an error beside the editor naming the nearest producer", async () => {
  const v = VIEWS[1];
  await open(v);
  await page.click("#editor summary");
  const text = (await page.inputValue("#script")).replace(/\s*$/, "\n");
  const line = text.split("\n").length; // the appended line's number
  await page.fill("#script", `${text}send olld orders-0 x\n`);
  await page.click("#run");
  await page.waitForSelector("#script-error:not([hidden])");
  const m = await page.evaluate(() => {
    const t = document.getElementById("script");
    return { text: document.getElementById("script-error").textContent, selected: t.value.slice(t.selectionStart, t.selectionEnd) };
  });
  assert.match(m.text, new RegExp(`^line ${line}: `), m.text);
  assert.ok(m.text.includes('no producer named "olld"'), m.text);
  assert.ok(m.text.includes('did you mean "old"?'), m.text);
  assert.equal(m.selected, "send olld orders-0 x");
  await page.evaluate(() => localStorage.clear());
});

for (const v of VIEWS) {
  test(`${v.page}: Save SVG is the whole drawing as vectors — lane names and record values as <text>, no raster image`, async () => {
    await open(v);
    await page.evaluate((tag) => { const e = document.querySelector(tag); e.goTo(e.steps - 1); }, v.tag);
    await page.waitForTimeout(200);
    const out = await page.evaluate((tag) => {
      const e = document.querySelector(tag);
      const ladder = tag === "kafka-ladder";
      const lanes = ladder ? [...e.run.producers, ...e.run.partitions] : e.report.lanes.map((l) => l.label);
      const values = ladder ? e.run.batches.flatMap((b) => b.values ?? []) : e.report.records.flatMap((r) => r.values ?? []).filter((x) => typeof x === "string" && x);
      const before = e.renderStats?.draws ?? null;
      const svg = e.exportPicture("svg");
      const doc = new DOMParser().parseFromString(svg, "image/svg+xml");
      const root = doc.documentElement;
      const texts = [...doc.querySelectorAll("#drawing text")].map((t) => t.textContent);
      const canvas = e.shadowRoot.querySelector("canvas");
      const vp = e.shadowRoot.querySelector(".viewport");
      return {
        parseError: !!doc.querySelector("parsererror"), ns: root.namespaceURI, name: root.localName,
        images: doc.querySelectorAll("image, foreignObject").length, shapes: doc.querySelectorAll("#drawing path").length,
        texts, lanes: lanes.map(String), values: values.map(String),
        svgW: Number(root.getAttribute("width")), svgH: Number(root.getAttribute("height")),
        viewW: vp.clientWidth, viewH: vp.clientHeight, canvasW: canvas.clientWidth, scrollW: vp.scrollWidth, scrollH: vp.scrollHeight,
        drawsAfter: e.renderStats?.draws ?? null, before,
      };
    }, v.tag);
    assert.equal(out.parseError, false, "the SVG parses");
    assert.equal(out.ns, "http://www.w3.org/2000/svg");
    assert.equal(out.name, "svg");
    assert.equal(out.images, 0, "no raster image");
    assert.ok(out.shapes > 10, `shapes drawn as SVG paths (${out.shapes})`);
    // Every lane name the gutter has room for (a longer one is drawn abbreviated, as on screen).
    const short = out.lanes.filter((l) => l.length <= 16);
    assert.ok(short.length > 0);
    for (const lane of short) assert.ok(out.texts.some((t) => t.includes(lane)), `lane ${lane} is a <text>`);
    assert.ok(out.values.length > 0, "the scenario has record values");
    assert.ok(out.values.some((val) => out.texts.some((t) => t.includes(val))), `a record value (${out.values.slice(0, 3)}) is a <text>`);
    // The whole drawing, not only what the scroll window shows.
    assert.ok(out.svgW >= out.scrollW - 1, `the SVG is ${out.svgW}px wide, the drawing ${out.scrollW}px`);
    assert.ok(out.svgH >= out.scrollH, `the SVG is ${out.svgH}px high, the drawing ${out.scrollH}px`);
    assert.equal(out.drawsAfter, out.before, "exporting does not touch the element's own drawing");
  });
}

test("kafka-timeline: an idempotence script's request lines (produce, marker, fetch) put their request and its answer on the wire", async () => {
  await open(VIEWS[1]);
  const script = [
    "partition p",
    "produce p pid=5 epoch=0 seq=0 y",
    "marker p pid=5 epoch=0 commit",
    "fetch p",
    "advance 1h",
  ].join("\n");
  await page.evaluate((text) => {
    const t = document.getElementById("timeline");
    t.setAttribute("step", "0");
    t.setAttribute("script", text);
  }, script);
  await page.waitForFunction(() => document.getElementById("timeline").steps === 4 && document.getElementById("timeline").step === 0);
  const shown = async (k) => {
    await page.evaluate((n) => (document.getElementById("timeline").step = n), k);
    await page.waitForFunction((n) => document.getElementById("timeline").step === n, k);
    return page.evaluate(() => {
      const now = document.getElementById("timeline").shadowRoot.querySelector(".now");
      return { text: now.textContent, messages: [...now.querySelectorAll("ol.messages > li")].map((li) => ({ kind: li.dataset.kind, text: li.textContent })) };
    });
  };
  const expected = [
    { line: "produce", request: "Produce", answer: /Produce response NONE\(0\).*A6/ },
    { line: "marker", request: "WriteTxnMarkers", answer: /WriteTxnMarkers response NONE\(0\).*M1/ },
    { line: "fetch", request: "Fetch", answer: /Fetch\(from 0, read_uncommitted\) → y .*L4/ },
  ];
  for (const [k, e] of expected.entries()) {
    const s = await shown(k);
    assert.doesNotMatch(s.text, /Nothing goes on the wire/, `${e.line}: the step sends a request`);
    assert.equal(s.messages.length, 2, `${e.line}: its request and the leader's answer: ${JSON.stringify(s.messages)}`);
    assert.equal(s.messages[0].kind, e.request, e.line);
    assert.match(s.messages[0].text, new RegExp(`^client[^→]* → p · ${e.request}: `), e.line);
    assert.equal(s.messages[1].kind, "response", e.line);
    assert.match(s.messages[1].text, /^p → client[^·]* · response: /, e.line);
    assert.match(s.messages[1].text, e.answer, e.line);
  }
  // A step that sends nothing still says so.
  const quiet = await shown(3);
  assert.match(quiet.text, /Nothing goes on the wire at this step/);
  assert.equal(quiet.messages.length, 0);
});

/** Waits until serve.py has made the pre-built runs (in the background, when it starts). */
async function runsMade() {
  const deadline = Date.now() + 180_000;
  for (;;) {
    const index = await (await fetch(`${baseUrl}/runs/index.json`)).json();
    const r = index.runs ?? {};
    if (VIEWS.every((v) => r[v.tag]?.includes(v.scenario)) && r["kafka-producer-config"]?.includes("idempotence")) return;
    if (Date.now() > deadline) throw new Error("serve.py made no pre-built runs in 180 s");
    await new Promise((res) => setTimeout(res, 500));
  }
}

for (const v of VIEWS) {
  test(`${v.page}: a shipped scenario is drawn from its pre-built run before any .wasm request; an edit runs in the model`, async () => {
    await runsMade();
    const requests = [];
    const onRequest = (r) => requests.push(new URL(r.url()).pathname);
    page.on("request", onRequest);
    try {
      await page.setViewportSize({ width: 1280, height: 720 });
      await page.goto("about:blank");
      requests.length = 0;
      await page.goto(`${baseUrl}/www/${v.page}#scenario=${v.scenario}`, { waitUntil: "load" });
      // The first drawn step, and what had been asked for by then.
      await page.waitForFunction((tag) => document.querySelector(tag)?.steps > 0 && document.querySelector(tag).renderStats.draws > 0, v.tag, { polling: "raf" });
      const atFirstDraw = [...requests];
      assert.ok(atFirstDraw.includes(`/runs/${v.tag}/${v.scenario}.json`), `the run file is fetched: ${atFirstDraw.join(" ")}`);
      assert.deepEqual(atFirstDraw.filter((p) => p.endsWith(".wasm")), [], "no wasm before the first drawn step");
      await page.waitForSelector('body[data-ready="1"]');
      // Nothing else on the page needs the model at load either (the idempotence page's producer
      // config answers from its own pre-built run); the transactions page's empty <kafka-batch>
      // inspector loads the decode-only module once it is defined, after the first drawn step.
      await page.waitForLoadState("networkidle");
      await page.waitForTimeout(300);
      const allowed = v.tag === "kafka-timeline" ? ["/pkg/eoslab-decode_bg.wasm"] : [];
      assert.deepEqual(requests.filter((p) => p.endsWith(".wasm") && !allowed.includes(p)), [], "no model wasm at load");
      const shown = await page.evaluate((tag) => {
        const el = document.querySelector(tag);
        return { run: el.getAttribute("run"), steps: el.steps, step: el.step, title: (el.run ?? el.report)?.title, script: el.script };
      }, v.tag);
      assert.equal(shown.step, 0);
      assert.match(shown.run ?? "", new RegExp(`/runs/${v.tag}/${v.scenario}\\.json$`));
      const shipped = await (await fetch(`${baseUrl}/scenarios/${v.scenario}.eos`)).text();
      assert.equal(shown.script, shipped, "the editor's text is the shipped script");
      assert.equal(await page.inputValue("#script"), shipped);
      // The keys step it, as ever.
      await page.keyboard.press("ArrowRight");
      assert.equal(await stepOf(v), 1);

      // An edited script runs in the model (the run attribute is dropped), and draws the edit.
      const edited = shipped.replace(/^title .*$/m, "title An edited copy");
      await page.evaluate(() => document.querySelector("details#editor")?.setAttribute("open", ""));
      await page.fill("#script", edited);
      await page.click("#run");
      await page.waitForFunction((tag) => (document.querySelector(tag).run ?? document.querySelector(tag).report)?.title === "An edited copy", v.tag);
      assert.ok(requests.some((p) => p.endsWith(".wasm")), "the edit loads the model");
      assert.equal(await page.evaluate((tag) => document.querySelector(tag).hasAttribute("run"), v.tag), false);
      assert.equal(await page.evaluate((tag) => document.querySelector(tag).steps, v.tag), shown.steps);

      // Reset: the shipped scenario again, from its run.
      await page.click("#reset-script");
      await page.waitForFunction((tag) => {
        const el = document.querySelector(tag);
        const title = (el.run ?? el.report)?.title;
        return el.steps > 0 && !!title && title !== "An edited copy";
      }, v.tag);
      assert.match((await page.evaluate((tag) => document.querySelector(tag).getAttribute("run"), v.tag)) ?? "", /\.json$/);
    } finally {
      page.off("request", onRequest);
    }
  });
}

test("idempotence.html and transactions.html without pre-built runs (another server): they run the model as before", async () => {
  await page.route("**/runs/**", (route) => route.fulfill({ status: 404, body: "" }));
  try {
    for (const v of VIEWS) {
      await open(v);
      assert.equal(await page.evaluate((tag) => document.querySelector(tag).hasAttribute("run"), v.tag), false);
      assert.ok((await page.evaluate((tag) => document.querySelector(tag).steps, v.tag)) > 0);
    }
  } finally {
    await page.unroute("**/runs/**");
  }
});

// --- the guided tour in presenter mode --------------------------------------------------------

/**
 * Walks every step of every ladder and timeline of tour.html in presenter mode at 1280×720 and
 * returns what is clipped: `dom`, a text of the view (its title, controls, the step's text, the
 * next steps …) whose box is narrower than its text (scrollWidth > clientWidth) with no title or
 * aria-label holding it whole, or cut off by the screen's edge; `canvas`, a text drawn on the
 * canvas shortened with "…" that is not a lane name (whose full name is the lane's tooltip) nor
 * cut by the view at a word or token boundary, its full text listed (renderStats.abbreviated).
 */
async function walkTourInPresenterMode() {
  await page.setViewportSize({ width: 1280, height: 720 });
  await page.goto("about:blank");
  await page.goto(`${baseUrl}/www/tour.html`, { waitUntil: "load" });
  await page.waitForSelector('body[data-ready="1"]', { timeout: 90_000 });
  const count = await page.evaluate(() => document.querySelectorAll("#tour kafka-ladder, #tour kafka-timeline").length);
  assert.ok(count >= 12, `${count} views in the tour`);
  const found = { dom: [], canvas: [], steps: 0, views: 0 };
  for (let i = 0; i < count; i++) {
    const r = await page.evaluate(async (i) => {
      const e = document.querySelectorAll("#tour kafka-ladder, #tour kafka-timeline")[i];
      const name = `${e.closest("section").id} ${e.getAttribute("scenario")}`;
      const frames = () => new Promise((res) => requestAnimationFrame(() => requestAnimationFrame(res)));
      e.setAttribute("presenter", "");
      await frames();
      // A lane's name abbreviated in the gutter the way abbreviateLabel does (the internal topics'
      // prefixes shortened, the words in parentheses cut after a whole item): deliberate, whole in its tooltip.
      const short = (l) => l.replace(/__transaction_state-/g, "txn-state-").replace(/__consumer_offsets-/g, "offsets-");
      const labels = ((e.report ?? e.run)?.lanes ?? []).flatMap((l) => [String(l.label), short(String(l.label))]);
      const isLaneName = (t) => {
        const head = t.split("…")[0];
        return head.length > 0 && labels.some((l) => l.startsWith(head) && l !== t);
      };
      // A text shortened deliberately: listed by the view with its full text, and cut after a
      // whole word or token of it (a space or a separator follows, or ends, what is shown).
      const atBoundary = (t, shortened) => {
        const head = t.slice(0, -1).trimEnd();
        return t.endsWith("…") && head.length > 0 && shortened.some(({ shown, full }) => {
          const i = shown === t ? full.indexOf(head) : -1;
          return i >= 0 && (/[,\-_.:/→·;) ]$/.test(head) || /^[ ,]/.test(full.slice(i + head.length)));
        });
      };
      const dom = [];
      const canvas = [];
      for (let k = 0; k < e.steps; k++) {
        window.__fillTextLog = [];
        e.goTo(k);
        await frames();
        const c = e.shadowRoot.querySelector("canvas");
        // What the view says it shortened, with the full text it shows elsewhere (tooltip, detail, state panel).
        const shortened = e.renderStats?.abbreviated ?? [];
        for (const t of window.__fillTextLog.filter((t) => t.canvas === c)) {
          if (t.text.includes("…") && !isLaneName(t.text) && !atBoundary(t.text, shortened)) canvas.push(`${name} step ${k + 1}: "${t.text}"`);
        }
        window.__fillTextLog = null;
        for (const el of e.shadowRoot.querySelectorAll("*")) {
          if (el.closest(".sr-only, dialog:not([open])") || !el.getClientRects().length) continue;
          if (getComputedStyle(el).visibility === "hidden") continue;
          if (![...el.childNodes].some((n) => n.nodeType === Node.TEXT_NODE && n.textContent.trim())) continue;
          const text = el.textContent.replace(/\s+/g, " ").trim();
          const whole = [el.getAttribute("title"), el.getAttribute("aria-label")].some((a) => a && a.includes(text));
          if (el.clientWidth > 1 && el.scrollWidth > el.clientWidth + 1 && !whole) {
            dom.push(`${name} step ${k + 1}: <${el.localName} class="${el.className}"> ${el.scrollWidth} > ${el.clientWidth}px: "${text.slice(0, 80)}"`);
          }
          const b = el.getBoundingClientRect();
          if (b.width > 0 && (b.left < -1 || b.right > innerWidth + 1) && !whole) {
            dom.push(`${name} step ${k + 1}: <${el.localName} class="${el.className}"> off the screen (${Math.round(b.left)}–${Math.round(b.right)}): "${text.slice(0, 80)}"`);
          }
        }
      }
      const steps = e.steps;
      e.removeAttribute("presenter");
      await frames();
      return { dom, canvas, steps };
    }, i);
    found.dom.push(...r.dom);
    found.canvas.push(...r.canvas);
    found.steps += r.steps;
    found.views += 1;
  }
  return found;
}

let tourWalk = null;

test("tour.html walked in presenter mode at 1280×720, start to end: no text of a view clipped", { timeout: 600_000 }, async () => {
  tourWalk = await walkTourInPresenterMode();
  assert.ok(tourWalk.steps > 100, `${tourWalk.steps} steps walked in ${tourWalk.views} views`);
  assert.deepEqual([...new Set(tourWalk.dom)].slice(0, 30), []);
});

test("tour.html walked in presenter mode at 1280×720: no drawn record value, sentence or state cut mid-word with … (they wrap, or stop after a whole token)",
  { timeout: 600_000 },
  async () => {
    tourWalk ??= await walkTourInPresenterMode();
    assert.deepEqual([...new Set(tourWalk.canvas)].slice(0, 30), []);
  });

// --- presenter mode, as a class sees it: the screenshots in docs/pages/teaching.md -------------

const SHOTS = [
  { page: "idempotence.html", tag: "kafka-ladder", scenario: "lost-response-retry", step: 4, file: "presenter-lost-response-retry.png" },
  { page: "transactions.html", tag: "kafka-timeline", scenario: "txn-zombie-fenced", step: 6, file: "presenter-txn-zombie-fenced.png" },
  { page: "transactions.html", tag: "kafka-timeline", scenario: "txn-consume-transform-produce", step: 8, file: "presenter-txn-consume-transform-produce.png" },
];

/**
 * Redraws the view `tag` at its step and measures its drawing as the class sees it: `log`, the box
 * of the timeline's log column on the page and whether it holds whole cells; `outside`, each text
 * drawn on the canvas that starts inside the visible drawing but runs past its right edge or the
 * screen's (a text's "scrollWidth" beyond its "clientWidth").
 */
async function measureDrawing(tag) {
  return page.evaluate(async (tag) => {
    const e = document.querySelector(tag);
    const frames = () => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
    const step = e.step;
    window.__fillTextLog = [];
    e.goTo(Math.max(0, step - 1));
    await frames();
    window.__fillTextLog = [];
    e.goTo(step);
    await frames();
    const canvas = e.shadowRoot.querySelector("canvas");
    const texts = window.__fillTextLog.filter((t) => t.canvas === canvas);
    window.__fillTextLog = null;
    const c = canvas.getBoundingClientRect();
    const vp = e.shadowRoot.querySelector(".viewport").getBoundingClientRect();
    const zoom = c.width / canvas.clientWidth;
    const right = Math.min(vp.right, innerWidth);
    const outside = [];
    for (const t of texts) {
      const left = t.align === "center" ? t.x - t.w / 2 : t.align === "right" || t.align === "end" ? t.x - t.w : t.x;
      const [a, b] = [c.x + left * zoom, c.x + (left + t.w) * zoom];
      if (a < right - 1 && b > right + 1) outside.push(`"${t.text}" ${Math.round(a)}–${Math.round(b)} past ${Math.round(right)}`);
    }
    const s = e.renderStats;
    const log = s.logW === undefined ? null : {
      left: c.x + (canvas.clientWidth - s.logW) * zoom, right: c.x + canvas.clientWidth * zoom, width: innerWidth, cells: s.logW / 56,
      viewportRight: vp.right,
    };
    return { log, outside };
  }, tag);
}

/** PNG width and height (the IHDR chunk). */
const pngSize = (buf) => ({ png: buf.subarray(1, 4).toString("latin1") === "PNG", width: buf.readUInt32BE(16), height: buf.readUInt32BE(20) });

for (const s of SHOTS) {
  test(`presenter mode at 1280×720, ${s.scenario} step ${s.step + 1}: its screenshot (docs/pages/img/${s.file})`, async () => {
    const { mkdirSync, writeFileSync } = await import("node:fs");
    const { join } = await import("node:path");
    const { ROOT } = await import("./helpers.mjs");
    await open({ page: s.page, tag: s.tag, scenario: s.scenario });
    await page.evaluate(({ tag, step }) => {
      const e = document.querySelector(tag);
      e.setAttribute("presenter", "");
      e.goTo(step);
    }, s);
    await page.waitForFunction(({ tag, step }) => document.querySelector(tag).step === step, s);
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    // What the picture must show: the drawing on the screen, the step's text beside it, nothing cut.
    const m = await page.evaluate((tag) => {
      const r = document.querySelector(tag).shadowRoot;
      const b = (el) => el.getBoundingClientRect();
      const cut = [...r.querySelectorAll(".now *, .title, .controls *")].filter((el) => el.clientWidth > 1 && el.scrollWidth > el.clientWidth + 1 && !el.closest(".sr-only"));
      return { drawing: b(r.querySelector(".viewport")).toJSON(), now: b(r.querySelector(".now")).toJSON(), narration: r.querySelector(".now")?.textContent ?? "", cut: cut.map((el) => el.textContent.slice(0, 60)) };
    }, s.tag);
    assert.ok(m.drawing.top >= 0 && m.drawing.top < 200 && m.drawing.width > 700, `the drawing at ${JSON.stringify(m.drawing)}`);
    assert.ok(m.now.left >= m.drawing.right - 1 && m.now.top < 720, "the step's text beside the drawing");
    assert.match(m.narration, new RegExp(`^Step ${s.step + 1} of `));
    assert.deepEqual(m.cut, []);
    // Nothing drawn is cut at the right: the timeline's log column on the screen, whole cells in it,
    // and every text on the canvas inside the drawing.
    const d = await measureDrawing(s.tag);
    if (d.log) {
      assert.ok(d.log.left >= 0 && d.log.right <= Math.min(d.log.viewportRight, d.log.width) + 1, `the log column at ${JSON.stringify(d.log)}`);
      assert.ok(Number.isInteger(d.log.cells) && d.log.cells >= 3, `the log column holds ${d.log.cells} cells`);
    }
    assert.deepEqual(d.outside, []);
    const png = await page.screenshot({ fullPage: false });
    assert.deepEqual(pngSize(png), { png: true, width: 1280, height: 720 });
    // Written into the docs only when asked (EOSLAB_WRITE_SCREENSHOTS=1), else beside the build.
    const dir = process.env.EOSLAB_WRITE_SCREENSHOTS === "1" ? join(ROOT, "docs/pages/img") : join(ROOT, "target/screenshots");
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, s.file), png);
    await page.evaluate((tag) => document.querySelector(tag).removeAttribute("presenter"), s.tag);
  });
}

for (const size of [{ width: 1920, height: 1080 }, { width: 1280, height: 720 }]) {
  test(`transactions.html: presenter mode at ${size.width}×${size.height} — the log column whole on the screen, no drawn text past the drawing's edge`, async () => {
    const v = VIEWS[1];
    for (const scenario of ["txn-consume-transform-produce", "txn-zombie-fenced"]) {
      await open(v, `#scenario=${scenario}`, size);
      await page.evaluate(() => document.querySelector("kafka-timeline").setAttribute("presenter", ""));
      const steps = await page.evaluate(() => document.querySelector("kafka-timeline").steps);
      for (const k of [1, Math.floor(steps / 2), steps - 1]) {
        await page.evaluate((k) => document.querySelector("kafka-timeline").goTo(k), k);
        const d = await measureDrawing("kafka-timeline");
        const at = `${scenario} step ${k + 1}`;
        assert.ok(d.log.left >= 0 && d.log.right <= Math.min(d.log.viewportRight, d.log.width) + 1, `${at}: the log column at ${JSON.stringify(d.log)}`);
        assert.ok(Number.isInteger(d.log.cells) && d.log.cells >= 3, `${at}: the log column holds ${d.log.cells} cells`);
        assert.deepEqual(d.outside, [], at);
      }
      await page.evaluate(() => document.querySelector("kafka-timeline").removeAttribute("presenter"));
    }
  });
}

test("transactions.html: presenter mode at 1280×720 — a lane's full name is shown as text when the keyboard reaches its lane (Tab, then ↑/↓)", async () => {
  const v = VIEWS[1];
  await open(v, "#scenario=txn-consume-transform-produce");
  await page.evaluate(() => {
    const e = document.querySelector("kafka-timeline");
    e.setAttribute("presenter", "");
    e.goTo(e.steps - 1);
  });
  const coordinator = await page.evaluate(() => document.querySelector("kafka-timeline").report.lanes.find((l) => l.kind === "coordinator").label);
  // The gutter draws the coordinator's name abbreviated.
  const drawn = await page.evaluate(async () => {
    const e = document.querySelector("kafka-timeline");
    window.__fillTextLog = [];
    e.goTo(e.steps - 2);
    e.goTo(e.steps - 1);
    await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
    const c = e.shadowRoot.querySelector("canvas");
    const texts = window.__fillTextLog.filter((t) => t.canvas === c).map((t) => t.text);
    window.__fillTextLog = null;
    return texts;
  });
  assert.ok(!drawn.includes(coordinator), "the coordinator's name is abbreviated in the gutter");
  // From the view's first control, Tab to the lanes.
  const onLanes = () => page.evaluate(() => document.querySelector("kafka-timeline").shadowRoot.activeElement?.classList.contains("viewport") ?? false);
  await page.evaluate(() => document.querySelector("kafka-timeline").shadowRoot.querySelector("button").focus());
  for (let i = 0; i < 60 && !(await onLanes()); i++) await page.keyboard.press("Tab");
  assert.ok(await onLanes(), "Tab reaches the lanes");
  // ↓ moves from lane to lane; the selected record's lane is named in full, as visible text.
  const shown = () => page.evaluate(() => {
    const d = document.querySelector("kafka-timeline").shadowRoot.querySelector(".detail");
    return d.hidden || !d.getClientRects().length ? "" : d.innerText;
  });
  let text = "";
  for (let i = 0; i < 8 && !text.includes(coordinator); i++) {
    await page.keyboard.press("ArrowDown");
    text = await shown();
  }
  assert.ok(text.startsWith(`${coordinator}: `), `the detail reads "${text}"`);
  // Every lane, records or not (a producer, a consumer), is reached by ↑/↓ and named in full.
  const lanes = await page.evaluate(() => document.querySelector("kafka-timeline").report.lanes.map((l) => l.label));
  const seen = new Set();
  for (const key of [...lanes.map(() => "ArrowUp"), ...lanes.map(() => "ArrowDown")]) {
    await page.keyboard.press(key);
    const t = await shown();
    const name = lanes.find((l) => t.startsWith(`${l}: `));
    if (name) seen.add(name);
  }
  assert.deepEqual([...seen].sort(), [...lanes].sort(), "every lane's full name is shown when ↑/↓ reach it");
  await page.evaluate(() => document.querySelector("kafka-timeline").removeAttribute("presenter"));
});
