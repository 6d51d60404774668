// <kafka-timeline>'s stylesheet (a constructed one: no inline <style>, so pages with style-src 'self' work).
import { lazyStyleSheet } from "../lib/dom.js";
import { DIALOG_CSS, DRAWING_TOKENS, NEXT_STEPS_CSS, hostCSS } from "../lib/element.js";
import { PLAYER_CSS } from "../lib/player.js";

export const CSS = `
${hostCSS(DRAWING_TOKENS)}
.title { font-weight: 600; margin: 0 0 .2rem; }
.about { margin: 0 0 .5rem; color: var(--eos-muted); font-size: 13px; }
.about:empty, .title:empty { display: none; }
.controls { display: flex; flex-wrap: wrap; gap: .4rem; align-items: center; margin: .25rem 0 .5rem; }
button, select { font: inherit; font-size: 13px; padding: .2rem .6rem; border: 1px solid var(--eos-border); border-radius: 6px;
         background: var(--eos-panel); color: var(--eos-fg); cursor: pointer; }
button:hover:not(:disabled) { border-color: var(--eos-accent); }
button:disabled { opacity: .45; cursor: default; }
button:focus-visible, select:focus-visible, input:focus-visible, .viewport:focus-visible { outline: 2px solid var(--eos-accent); outline-offset: 2px; }
button[aria-pressed="true"] { background: var(--eos-accent); color: var(--eos-bg); border-color: var(--eos-accent); }
.counter { font-variant-numeric: tabular-nums; color: var(--eos-muted); margin-left: .25rem; }
.now { contain: layout style; border-left: 3px solid var(--eos-accent); padding: .3rem .6rem; margin: 0 0 .5rem; background: var(--eos-panel);
       border-radius: 0 6px 6px 0; min-height: 2.2rem; }
.now.failed-step { border-left-color: var(--eos-bad); }
.now p { margin: .15rem 0; }
.now-head { font-weight: 600; }
.now-head .line { font-family: var(--eos-mono); font-weight: normal; font-size: 13px; overflow-wrap: anywhere; }
.now .narration { font-size: 14px; }
.now ol.messages { margin: .25rem 0 0; padding-left: 1.6rem; font-size: 12.5px; font-family: var(--eos-mono); overflow-wrap: anywhere; }
.now ol.messages li.lost, .now ol.messages li.error { color: var(--eos-bad); }
.now .rule { border: 1px solid var(--eos-border); border-radius: 4px; padding: 0 .25rem; }
.now .source { color: var(--eos-muted); overflow-wrap: anywhere; }
.written { display: flex; flex-wrap: wrap; gap: .3rem; align-items: center; margin: .3rem 0 0; font-size: 12.5px; }
.written button { font-family: var(--eos-mono); font-size: 11.5px; padding: 0 .35rem; }
.failed { color: var(--eos-bad); font-weight: 600; }
.held { color: var(--eos-ok); }
.lanes { position: relative; }
.viewport { position: relative; overflow-x: auto; overflow-y: hidden; border: 1px solid var(--eos-border); border-radius: 6px;
            background: var(--eos-bg); outline: none; }
.viewport[aria-busy="true"] { opacity: .6; }
.track { position: relative; }
canvas { position: sticky; left: 0; display: block; }
.detail { margin: .4rem 0 0; padding: .3rem .6rem; border: 1px dashed var(--eos-border); border-radius: 6px; font-size: 13px; }
.detail[hidden] { display: none; }
.hint { color: var(--eos-muted); font-size: 12px; margin: .3rem 0 0; }
${NEXT_STEPS_CSS}
/* compact: for a documentation column — the controls, the narration, the lanes (scrolling inside). */
:host([compact]) { padding: .5rem; max-width: 100%; }
:host([compact]) .about, :host([compact]) .hint, :host([compact]) .panels-box, :host([compact]) .latency,
:host([compact]) .summary, :host([compact]) .features { display: none; }
.panels { display: grid; grid-template-columns: minmax(0, 2fr) minmax(14rem, 1fr); gap: .6rem; margin: .6rem 0 0; }
@media (max-width: 48rem) { .panels { grid-template-columns: 1fr; } }
/* A narrow element (two side by side on a wide screen) stacks its panels too. */
.panels-box { container: eos-panels / inline-size; }
@container eos-panels (max-width: 42rem) { .panels { grid-template-columns: 1fr; } }
.state { display: grid; grid-template-columns: repeat(auto-fit, minmax(15rem, 1fr)); gap: .5rem; align-content: start; }
.state section, .invariants { contain: layout style; border: 1px solid var(--eos-border); border-radius: 6px; padding: .35rem .5rem; background: var(--eos-panel); }
.state p, .invariants p { margin: .1rem 0; font-size: 12.5px; color: var(--eos-muted); }
.state p.state-title, .invariants p.state-title { margin: 0 0 .2rem; font-size: 13px; font-weight: 600; color: var(--eos-fg); }
.state .kv { font-family: var(--eos-mono); font-size: 12px; color: var(--eos-fg); }
.state .warn { color: var(--eos-warn); font-weight: 600; }
.state .bad { color: var(--eos-bad); font-weight: 600; }
.state ul { margin: .1rem 0; padding-left: 1rem; font-size: 12px; font-family: var(--eos-mono); }
.invariants ul { list-style: none; margin: 0; padding: 0; }
.invariants li { margin: .25rem 0; padding: .2rem .35rem; border-radius: 4px; font-size: 12.5px; border: 1px solid transparent; }
.invariants li .verdict { font-weight: 700; margin-right: .3rem; }
.invariants li.holds .verdict { color: var(--eos-ok); }
.invariants li.broken { border-color: var(--eos-bad); background: color-mix(in srgb, var(--eos-bad) 12%, transparent); }
.invariants li.broken .verdict { color: var(--eos-bad); }
.invariants li .detail-text { display: block; color: var(--eos-muted); }
.invariants li.broken .detail-text { color: var(--eos-fg); }
.summary { margin: .5rem 0 0; font-size: 12.5px; color: var(--eos-muted); }
.features { font-family: var(--eos-mono); font-size: 11.5px; color: var(--eos-muted); white-space: pre-wrap; margin: .2rem 0 0; }
.features:empty { display: none; }
.error { color: var(--eos-bad); font-family: var(--eos-mono); font-size: 13px; margin: .3rem 0; white-space: pre-wrap; }
.error:empty { display: none; }
.sr-only { position: absolute; width: 1px; height: 1px; padding: 0; margin: -1px; overflow: hidden; clip: rect(0 0 0 0);
           white-space: nowrap; border: 0; }
${DIALOG_CSS}
${PLAYER_CSS}
:host([presenter]) .lanes { zoom: 2; }
/* Presenter mode hides the selected record's line, except while the keyboard is on the lanes: then
   it shows at the foot of the screen, its lane's full name first (the gutter may abbreviate it). */
:host([presenter]) .lanes:focus-within + .detail:not([hidden]) { display: block; position: fixed; left: 1rem; right: 1rem;
  bottom: .6rem; z-index: 1; margin: 0; font-size: 20px; background: var(--eos-bg); border: 2px solid var(--eos-accent); overflow-wrap: anywhere; }
.state section.metrics { grid-column: 1 / -1; }
/* Compare: a value that differs from the other run's at the aligned step (markFacts). */
.differs { background: color-mix(in srgb, var(--eos-warn) 16%, transparent); outline: 2px solid var(--eos-warn); outline-offset: 1px; border-radius: 3px; }
.state table, .latency table { border-collapse: collapse; font-size: 12px; font-family: var(--eos-mono); }
.state caption, .latency caption { text-align: left; font-family: system-ui, sans-serif; }
.state caption { font-size: 13px; font-weight: 600; color: var(--eos-fg); margin: 0 0 .2rem; }
.state th, .state td, .latency th, .latency td { padding: .05rem .5rem .05rem 0; text-align: left; font-weight: normal; color: var(--eos-fg); }
.state td.num, .latency td.num { text-align: right; font-variant-numeric: tabular-nums; }
.state thead th, .latency thead th { color: var(--eos-muted); font-family: system-ui, sans-serif; border-bottom: 1px solid var(--eos-border); }
.state td.delta { color: var(--eos-accent); }
/* Thousands of completions make a long table: while the figure is off screen its layout and paint are skipped. */
.latency { content-visibility: auto; contain-intrinsic-block-size: auto 320px; }
.latency { margin: .6rem 0 0; padding: .4rem .6rem; border: 1px solid var(--eos-border); border-radius: 6px; background: var(--eos-panel); }
.latency[hidden] { display: none; }
.latency .state-title { margin: 0 0 .2rem; font-size: 13px; font-weight: 600; }
.latency .plot-row { display: flex; flex-wrap: wrap; gap: .4rem 1.2rem; align-items: flex-start; }
.latency .plot { flex: 1 1 20rem; max-width: 36rem; min-width: 14rem; }
.latency canvas { position: static; width: 100%; height: 220px; border: 1px solid var(--eos-border); border-radius: 4px; background: var(--eos-bg); }
.latency figcaption, .latency .latency-note { font-size: 12.5px; color: var(--eos-muted); margin: .3rem 0 0; max-width: 60rem; }
.latency table.fixed { table-layout: fixed; }
.latency tr.now-row th, .latency tr.now-row td { color: var(--eos-accent); font-weight: 600; }
`;

export const styleSheet = lazyStyleSheet(CSS);
