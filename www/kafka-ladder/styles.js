// <kafka-ladder>'s stylesheet (a constructed one: no inline <style>, so pages with style-src 'self' work).
import { lazyStyleSheet } from "../lib/dom.js";
import { DIALOG_CSS, DRAWING_TOKENS, NEXT_STEPS_CSS, hostCSS } from "../lib/element.js";
import { PLAYER_CSS } from "../lib/player.js";

export const CSS = `
${hostCSS(DRAWING_TOKENS)}
:host { --eos-ladder-max-height: var(--eos-ladder-fit, 30rem); } /* --eos-ladder-fit: a page's fit to its window (lib/fit-view.js) */
.title { font-weight: 600; margin: 0 0 .2rem; }
.about { margin: 0 0 .5rem; color: var(--eos-muted); font-size: 13px; }
.about:empty, .title:empty { display: none; }
.controls { display: flex; flex-wrap: wrap; gap: .4rem; align-items: center; margin: .25rem 0 .5rem; }
button { font: inherit; font-size: 13px; padding: .2rem .6rem; border: 1px solid var(--eos-border); border-radius: 6px;
         background: var(--eos-panel); color: var(--eos-fg); cursor: pointer; }
button:hover:not(:disabled) { border-color: var(--eos-accent); }
button:disabled { opacity: .45; cursor: default; }
button:focus-visible, .viewport:focus-visible { outline: 2px solid var(--eos-accent); outline-offset: 2px; }
button[aria-pressed="true"] { background: var(--eos-accent); color: var(--eos-bg); border-color: var(--eos-accent); }
.counter { font-variant-numeric: tabular-nums; color: var(--eos-muted); margin-left: .25rem; }
.now { border-left: 3px solid var(--eos-accent); padding: .3rem .6rem; margin: 0 0 .5rem; background: var(--eos-panel);
       border-radius: 0 6px 6px 0; min-height: 2.2rem; }
.now-head { margin: 0; font-weight: 600; }
.now-head .line { font-family: var(--eos-mono); font-weight: normal; font-size: 13px; overflow-wrap: anywhere; }
.now ul { margin: .25rem 0 0; padding-left: 1.1rem; }
.now li { margin: .15rem 0; }
.badge { display: inline-block; font-size: 12px; font-weight: 700; padding: 0 .35rem; border-radius: 4px;
         color: var(--eos-bg); background: var(--eos-muted); margin-right: .3rem; }
.badge.append { background: var(--eos-ok); } .badge.duplicate { background: var(--eos-dup); } .badge.reject { background: var(--eos-bad); }
.code, .rule { font-family: var(--eos-mono); font-size: 12px; }
.rule { border: 1px solid var(--eos-border); border-radius: 4px; padding: 0 .25rem; }
.source { display: block; font-family: var(--eos-mono); font-size: 11.5px; color: var(--eos-muted); overflow-wrap: anywhere; }
.failed { color: var(--eos-bad); font-weight: 600; }
.held { color: var(--eos-ok); }
.ladder { position: relative; }
.viewport { position: relative; overflow-x: hidden; overflow-y: auto; max-height: var(--eos-ladder-max-height);
            border: 1px solid var(--eos-border); border-radius: 6px; background: var(--eos-bg); outline: none; }
.viewport[aria-busy="true"] { opacity: .6; }
canvas { position: sticky; top: 0; display: block; width: 100%; }
/* compact: for a documentation column — the controls, the narration and the ladder. */
:host([compact]) { padding: .5rem; max-width: 100%; }
.viewport.wide { overflow-x: auto; }
:host([compact]) .about, :host([compact]) .hint, :host([compact]) .state, :host([compact]) .summary { display: none; }
.tip { position: absolute; z-index: 2; max-width: min(36rem, 90%); pointer-events: none; padding: .35rem .5rem;
       background: var(--eos-panel); color: var(--eos-fg); border: 1px solid var(--eos-border); border-radius: 6px;
       box-shadow: 0 2px 8px rgb(0 0 0 / .2); font-size: 12.5px; }
.tip[hidden] { display: none; }
.tip .source { margin-top: .2rem; }
.detail { margin: .4rem 0 0; padding: .3rem .6rem; border: 1px dashed var(--eos-border); border-radius: 6px; font-size: 13px; }
.detail[hidden] { display: none; }
.hint { color: var(--eos-muted); font-size: 12px; margin: .3rem 0 0; }
${NEXT_STEPS_CSS}
.state { display: grid; grid-template-columns: repeat(auto-fit, minmax(16rem, 1fr)); gap: .5rem; margin: .6rem 0 0; }
.state section { border: 1px solid var(--eos-border); border-radius: 6px; padding: .35rem .5rem; background: var(--eos-panel); }
.state p { margin: .1rem 0; font-size: 12.5px; color: var(--eos-muted); }
.state p.state-title { margin: 0 0 .2rem; font-size: 13px; font-weight: 600; color: var(--eos-fg); }
.entry { margin: .3rem 0 0; }
.entry-head { font-family: var(--eos-mono); font-size: 12px; }
ol.window { list-style: none; display: grid; grid-template-columns: repeat(5, 1fr); gap: 3px; margin: .15rem 0 0; padding: 0; }
ol.window li { border: 1px solid var(--eos-border); border-radius: 4px; padding: 1px 3px; font-family: var(--eos-mono);
               font-size: 11px; line-height: 1.3; background: var(--eos-bg); min-height: 2.1em; overflow-wrap: anywhere; }
ol.window li.empty { border-style: dashed; color: var(--eos-muted); background: transparent; }
ul.batches { list-style: none; margin: .2rem 0 0; padding: 0; display: flex; flex-wrap: wrap; gap: 3px; }
ul.batches button { font-family: var(--eos-mono); font-size: 11.5px; padding: 0 .3rem; }
.summary { margin: .5rem 0 0; font-size: 12.5px; color: var(--eos-muted); }
.error { color: var(--eos-bad); font-family: var(--eos-mono); font-size: 13px; margin: .3rem 0; white-space: pre-wrap; }
.error:empty { display: none; }
.sr-only { position: absolute; width: 1px; height: 1px; padding: 0; margin: -1px; overflow: hidden; clip: rect(0 0 0 0);
           white-space: nowrap; border: 0; }
${DIALOG_CSS}
${PLAYER_CSS}
:host([presenter]) .ladder { zoom: 1.75; }
:host([presenter]) { --eos-ladder-max-height: calc((100vh - 10rem) / 1.75); }
.now.failed-step { border-left-color: var(--eos-bad); }
`;

export const styleSheet = lazyStyleSheet(CSS);
