// The <kafka-batch> shadow-root stylesheet, adopted as a constructed CSSStyleSheet (one instance
// shared by every element on the page; no <style> element, so a strict style-src CSP is fine).
// Light here; dark is darkStyleSheet, adopted on top by lib/theme.js (the theme attribute, the host
// page's MkDocs Material / Docusaurus flag, prefers-color-scheme). The public colours are the
// --eoslab-* custom properties (lib/theme.js lists them); a host page sets them to override.
//
// Field kinds (field-docs.js) map to 14 tints. Every tint is paired with text of at least 4.5:1
// contrast, and no kind relies on its tint alone: field starts have a left rule, records a thick
// one, bytes outside the CRC a dashed top edge, the compressed payload a hatch, problems a wavy
// underline, and the label column names the fields that start on each row.
import { lazyStyleSheet } from "./dom.js";

const CSS = `
:host {
  --fg: var(--eoslab-fg, #1b1f24); --bg: var(--eoslab-bg, #ffffff); --muted: var(--eoslab-muted, #57606a);
  --border: var(--eoslab-border, #d0d7de); --panel: var(--eoslab-panel, #f6f8fa); --accent: var(--eoslab-accent, #0a58b5);
  --ok: var(--eoslab-ok, #116329); --bad: var(--eoslab-bad, #b3261e); --warn: var(--eoslab-warn, #7d4e00); --hl: var(--eoslab-fg, #1b1f24);
  --t1: #dbeafe; --t2: #fde2e1; --t3: #dcfce7; --t4: #fef3c7; --t5: #ede9fe; --t6: #ffe4c7;
  --t7: #cffafe; --t8: #fce7f3; --t9: #e2e8f0; --t10: #d9f99d; --t11: #fbcfe8; --t12: #c7d2fe;
  --t13: #e7e5e4; --t14: #a5f3fc; --none: #f3f4f6;
  --mono: var(--eoslab-mono, ui-monospace, SFMono-Regular, Menlo, Consolas, "Liberation Mono", monospace);
  display: block; color: var(--fg); background: var(--bg); color-scheme: light;
  font: 14px/1.45 var(--eoslab-font, system-ui, -apple-system, "Segoe UI", Roboto, sans-serif);
  container-type: inline-size;
}
[hidden] { display: none !important; }
* { box-sizing: border-box; }
.kb { position: relative; }
.sr-only { position: absolute !important; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); clip-path: inset(50%); white-space: nowrap; margin: -1px; padding: 0; border: 0; }
.muted { color: var(--muted); }
.small { font-size: 12.5px; }
.mono, .mono * { font-family: var(--mono); font-size: 12.5px; }
.ok { color: var(--ok); font-weight: 600; }
.bad { color: var(--bad); font-weight: 600; }
h3 { font-size: 1.05rem; margin: 1rem 0 .4rem; }
h4 { font-size: .95rem; margin: .9rem 0 .35rem; }
p { margin: .3rem 0; }
.lbl { display: block; font-weight: 600; margin-bottom: .2rem; }
textarea { width: 100%; font: 12.5px/1.4 var(--mono); padding: .45rem; color: var(--fg); background: var(--panel);
  border: 1px solid var(--border); border-radius: 6px; resize: vertical; }
textarea[aria-invalid="true"] { border-color: var(--bad); border-width: 2px; }
.row { display: flex; gap: .6rem; align-items: center; flex-wrap: wrap; margin: .4rem 0; }
button, .button { font: inherit; font-size: 13px; padding: .22rem .6rem; border: 1px solid var(--border); border-radius: 6px;
  background: var(--panel); color: var(--fg); cursor: pointer; }
button:disabled { opacity: .55; cursor: default; }
button[aria-pressed="true"] { border-color: var(--accent); box-shadow: inset 0 -2px 0 var(--accent); }
:focus-visible { outline: 2px solid var(--accent); outline-offset: 2px; }
input.sr-only:focus-visible + label.button { outline: 2px solid var(--accent); outline-offset: 2px; }
input:not([type]), input[type="text"], select { font: 12.5px var(--mono); padding: .2rem .35rem; color: var(--fg); background: var(--bg);
  border: 1px solid var(--border); border-radius: 4px; min-width: 0; }
input[aria-invalid="true"] { border: 2px solid var(--bad); }
.summary { font-size: 13px; margin: .6rem 0 .2rem; }
.toolbar { display: flex; flex-wrap: wrap; gap: .4rem 1.2rem; margin: .3rem 0 .5rem; }
.toolbar .group { display: inline-flex; gap: .35rem; align-items: center; flex-wrap: wrap; }
ul.errors { margin: .2rem 0; padding-left: 1.1rem; }
ul.errors li { margin: .2rem 0; font-size: 13px; }
ul.errors li.error { color: var(--bad); }
ul.errors li.warning { color: var(--warn); }
ul.errors li .explain { display: block; color: var(--muted); font-size: 12.5px; }
ul.errors li button.at { font-family: var(--mono); padding: 0 .35rem; margin-right: .2rem; color: inherit; }
.producer p { margin: .25rem 0; max-width: 62rem; }
.marker .badge { display: inline-block; font-weight: 700; letter-spacing: .04em; padding: 0 .4rem; border: 2px solid currentColor; border-radius: 4px; }
.marker.commit .badge { color: var(--ok); }
.marker.abort .badge { color: var(--bad); border-style: dashed; }
.cols2 { display: grid; grid-template-columns: minmax(0, 1.3fr) minmax(0, 1fr); gap: 0 1.5rem; }
@container (max-width: 760px) { .cols2 { grid-template-columns: minmax(0, 1fr); } }
table { border-collapse: collapse; font-size: 13px; }
th, td { border: 1px solid var(--border); padding: .15rem .4rem; text-align: left; vertical-align: top; }
thead th { background: var(--panel); font-weight: 600; }
.table-scroll thead th { position: sticky; top: 0; z-index: 1; }
table.checks td.ok, table.checks td.bad { white-space: nowrap; }
table.checks { display: block; max-width: 100%; overflow-x: auto; } /* scrolls in its own box on a small screen */
.bits .bitrow { display: flex; gap: 2px; }
.bits .bit { width: 1.45em; text-align: center; border: 1px solid var(--border); border-radius: 3px; }
.bits .bit.on { font-weight: 700; border: 2px solid var(--fg); }
.bits .bitlabels { color: var(--muted); white-space: pre; font-size: 11px; }
.bitdefs { display: grid; grid-template-columns: auto 1fr; gap: 0 .6rem; margin: .3rem 0; font-size: 12.5px; }
.bitdefs dt { color: var(--muted); }
.bitdefs dd { margin: 0; font-family: var(--mono); }
.map { display: grid; grid-template-columns: min-content minmax(0, 1fr); gap: .5rem 1.25rem; align-items: start; }
@container (max-width: 1000px) { .map { grid-template-columns: minmax(0, 1fr); } }
.map-left { min-width: 0; max-width: 100%; overflow-x: auto; overflow-y: hidden; }
.map-side { min-width: 0; max-width: 46rem; }
.map-side h4.first { margin-top: 0; }
.where dl { display: grid; grid-template-columns: auto 1fr; gap: .1rem .7rem; margin: 0 0 .5rem; font-size: 13px; }
.where dt { color: var(--muted); }
.where dd { margin: 0; overflow-wrap: anywhere; }
.table-scroll { max-height: 560px; overflow: auto; border: 1px solid var(--border); border-radius: 6px; }
.table-scroll.wide { max-height: 420px; }
.table-scroll table { width: 100%; }
.table-scroll table.fields { width: max(100%, 78rem); }
.table-scroll th, .table-scroll td { border-width: 0 0 1px 0; }
table.fields { table-layout: fixed; width: max(100%, 78rem); }
table.fields col.c-name { width: 14rem; } table.fields col.c-value { width: 15rem; } table.fields col.c-off { width: 5rem; }
table.fields col.c-size { width: 3.5rem; } table.fields col.c-raw { width: 12rem; } table.fields col.c-kafka { width: 12rem; }
table.fields td, table.fields th { overflow-wrap: break-word; }
table.fields td.meaning { font-size: 12.5px; }
table.fields td.kafka { color: var(--muted); }
table.fields td.raw { overflow-wrap: anywhere; }
table.fields tr.group th, table.fields tr.group td { border-top: 2px solid var(--fg); }
table.fields tr.d1 th { padding-left: 1rem; }
table.fields tr.d2 th { padding-left: 1.8rem; }
table.fields tr.d3 th { padding-left: 2.6rem; }
table.fields th { font-weight: normal; }
table.fields tr.hl > * { background: var(--panel); box-shadow: inset 0 2px 0 var(--hl), inset 0 -2px 0 var(--hl); }
table.fields tr.hl th button { font-weight: 700; }
table.fields tr.derived th { font-style: italic; }
button.fname { border: 0; background: none; padding: 0; font-family: var(--mono); font-size: 12.5px; color: var(--fg); text-decoration: underline dotted; }
table.records td { max-width: 28rem; overflow-wrap: anywhere; }
table.records tr.formatted td.formatted-text { max-width: none; white-space: pre-wrap; overflow-wrap: anywhere; }
.pager { display: flex; gap: .4rem; align-items: center; margin: .3rem 0; font-size: 13px; }
.coverage .covbar { display: flex; width: 100%; max-width: 46rem; font-size: 11px; margin: .2rem 0; }
.cov { padding: 0 .3rem; white-space: nowrap; overflow: hidden; text-overflow: ellipsis; border: 1px solid var(--fg); min-width: 2.5rem; }
.cov.pre { border-style: dashed; }
.cov.crcf { background: var(--t5); border-style: dashed; }
.cov.in { border-width: 2px; }
.legend { display: flex; flex-wrap: wrap; gap: .2rem .8rem; list-style: none; padding: 0; margin: .4rem 0; font-size: 12px; max-width: 46rem; }
.sw { display: inline-block; min-width: 2.2em; height: 1.35em; line-height: 1.35em; text-align: center; font-family: var(--mono); font-size: 11px; border-radius: 2px; }
.where { min-height: 9em; margin: .2rem 0 .6rem; padding: .4rem .6rem; border: 1px solid var(--border); border-radius: 6px; background: var(--panel); }

/* Hex grid */
.hexgrid { font-family: var(--mono); font-size: 13px; }
.hg-head, .hg-row, .hg-spacer { width: 64.8em; }
.hg-head, .hg-row { display: flex; align-items: center; white-space: nowrap; height: 20px; }
.hg-head { color: var(--muted); font-size: 11px; }
.hg-view { position: relative; overflow-y: auto; overflow-x: hidden; border: 1px solid var(--border); border-radius: 6px; width: max-content; }
.hg-view:focus-visible { outline: 2px solid var(--accent); outline-offset: 1px; }
.hg-spacer { position: relative; }
.hg-rows { position: absolute; top: 0; left: 0; right: 0; will-change: transform; }
.hexgrid .addr { flex: none; width: 6.2em; padding: 0 .5em 0 .3em; color: var(--muted); }
.hexgrid .b { display: inline-block; width: 2.1em; flex: none; height: 20px; line-height: 18px; text-align: center; border-top: 2px solid transparent; cursor: default; }
.hexgrid .ascii { display: inline-flex; margin-left: .8em; }
.hexgrid .c { flex: none; display: inline-block; width: .95em; height: 20px; line-height: 20px; text-align: center; }
.hexgrid .labels { flex: none; margin-left: .8em; color: var(--muted); font-size: 11px; width: 10.5em; white-space: nowrap; overflow: hidden; text-overflow: ellipsis; }
.b.fs { box-shadow: inset 2px 0 0 var(--fg); }
.b.rs { box-shadow: inset 4px 0 0 var(--fg); }
.b.xcrc { border-top: 2px dashed var(--fg); }
.b.hl, .c.hl { outline: 2px solid var(--hl); outline-offset: -2px; font-weight: 700; }
.b.cur, .c.cur { text-decoration: underline 2px; text-underline-offset: 3px; }
.hg-view:focus .b.cur { outline: 3px solid var(--accent); outline-offset: -3px; }
.b.typing { font-style: italic; }
.b.err { text-decoration: wavy underline var(--bad) 2px; text-underline-offset: 3px; font-weight: 700; }
.b.diff { outline: 2px dotted var(--fg); outline-offset: -3px; }
.b.none { background: none !important; }

.k-none { background: var(--none); }
.k-h-bo, .k-l-bo { background: var(--t1); } .k-h-len, .k-l-len { background: var(--t2); } .k-h-ple { background: var(--t3); }
.k-h-mg, .k-l-mg { background: var(--t4); } .k-h-crc, .k-l-crc { background: var(--t5); } .k-h-at, .k-l-at { background: var(--t6); }
.k-h-lod { background: var(--t7); } .k-h-bts, .k-l-bts { background: var(--t8); } .k-h-mts { background: var(--t9); }
.k-h-pid { background: var(--t10); } .k-h-ep { background: var(--t11); } .k-h-seq { background: var(--t12); }
.k-h-cnt { background: var(--t14); } .k-h-rec, .k-r-r, .k-r-h { background: var(--none); }
.k-zip { background: repeating-linear-gradient(135deg, var(--t13) 0 4px, var(--none) 4px 8px); }
.k-r-rl, .k-r-kl, .k-r-vl, .k-r-hc, .k-r-hkl, .k-r-hvl, .k-l-kl, .k-l-vl { background: var(--t13); }
.k-r-ra { background: var(--t4); } .k-r-td { background: var(--t8); } .k-r-od { background: var(--t7); }
.k-r-key, .k-l-key { background: var(--t10); } .k-r-val, .k-l-val { background: var(--t3); }
.k-r-hk { background: var(--t6); } .k-r-hv { background: var(--t1); }
.k-c-key { background: var(--t5); } .k-c-val { background: var(--t11); }
.k-other { background: var(--none); }

/* Batch list */
.batchlist { font-size: 12.5px; }
.bl-cols { display: grid; grid-template-columns: 5.5em 7em 10em 7em 8em 4.5em 4.5em minmax(6em, 1fr) 4.5em; gap: 0 .4em; align-items: center; }
.bl-head { color: var(--muted); font-weight: 600; padding: 0 .4em; }
.bl-view { position: relative; overflow-y: auto; border: 1px solid var(--border); border-radius: 6px; }
.bl-spacer { position: relative; }
.bl-rows { position: absolute; top: 0; left: 0; right: 0; will-change: transform; }
.bl-row { height: 24px; padding: 0 .4em; font-family: var(--mono); white-space: nowrap; cursor: pointer; border-bottom: 1px solid var(--border); }
.bl-row span { overflow: hidden; text-overflow: ellipsis; }
.bl-row.sel { background: var(--panel); box-shadow: inset 4px 0 0 var(--accent); font-weight: 700; }
.bl-row.bad span:last-child { color: var(--bad); font-weight: 700; }

/* Edit / compare / export */
#edit fieldset { border: 1px solid var(--border); border-radius: 6px; margin: .4rem 0; display: flex; flex-wrap: wrap; gap: .4rem 1rem; }
#edit .fld { display: flex; flex-direction: column; gap: .1rem; font-size: 12.5px; }
#edit .fld.chk { flex-direction: row; align-items: center; gap: .3rem; }
#edit .recedit { display: flex; gap: .6rem; align-items: end; flex-wrap: wrap; width: 100%; }
#edit-status.bad, #edit p.bad { color: var(--bad); }
#compare .verdict { font-weight: 600; max-width: 62rem; }
#leader fieldset { border: 1px solid var(--border); border-radius: 6px; margin: .4rem 0; display: flex; flex-wrap: wrap; gap: .4rem 1rem; align-items: end; }
#leader .fld { display: flex; flex-direction: column; gap: .1rem; font-size: 12.5px; }
#leader .fld.chk { flex-direction: row; align-items: center; gap: .3rem; }
#leader .fld[hidden] { display: none; }
#leader-seq-help { width: 100%; margin: 0; }
#leader .verdict { font-weight: 600; max-width: 62rem; }
#leader .verdict.bad, #leader p.bad { color: var(--bad); }
.leader-answer { display: grid; grid-template-columns: repeat(auto-fill, minmax(12rem, 1fr)); gap: .1rem .8rem; margin: .2rem 0; font-size: 12.5px; }
.leader-answer div { display: flex; gap: .4rem; min-width: 0; }
.leader-answer div[data-k="Kafka source"] { grid-column: 1 / -1; }
.leader-answer dt { color: var(--muted); }
.leader-answer dd { margin: 0; overflow-wrap: anywhere; }
#leader-why { max-width: 62rem; }
#compare tr.differs th, #compare tr.differs td { font-weight: 700; }
/* compact: for a documentation column — the byte map, the header fields and a small field table, no
   headings, no input, no "No errors" (problems only when there are some); as tall as its content. */
.compact-head { display: none; }
:host([compact]) .compact-head { display: grid; grid-template-columns: repeat(auto-fill, minmax(10.5rem, 1fr)); gap: .1rem .8rem;
  margin: 0 0 .4rem; padding: 0; font-size: 12.5px; }
:host([compact]) .compact-head div { display: flex; gap: .4rem; min-width: 0; }
:host([compact]) .compact-head dt { color: var(--muted); }
:host([compact]) .compact-head dd { margin: 0; font-family: var(--mono); overflow-wrap: anywhere; }
:host([compact]) :is(.input-box, #summary:not([data-error]), #batch-title, .toolbar, #export-box, #producer, .cols2, h3, h4, .map-side,
  .pager, #records-title, .read-as, .records-box, #edit, #compare, #segment > p, #errors-title, #errors > p.muted) { display: none !important; }
:host([compact]) #summary[data-error] { color: var(--bad); overflow-wrap: anywhere; }
:host([compact]) ul.errors { margin: 0 0 .3rem; }
:host([compact]) ul.errors:empty { display: none; }
:host([compact]) .map { display: block; }
:host([compact]) .map-left { overflow-x: auto; margin-bottom: .4rem; }
:host([compact]) .hexgrid .labels { display: none; }
:host([compact]) :is(.hg-head, .hg-row, .hg-spacer) { width: 55em; }
:host([compact]) .hexgrid { font-size: 12px; }
:host([compact]) .table-scroll { max-height: 15rem; }
:host([compact]) table.fields { width: 100%; table-layout: auto; }
:host([compact]) table.fields :is(col.c-raw, col.c-meaning, col.c-kafka) { display: none; }
:host([compact]) table.fields tr > :nth-child(n+5) { display: none; }
:host([compact]) table.fields td, :host([compact]) table.fields th { font-size: 12px; }
.drop-hint { display: none; position: absolute; inset: 0; border: 3px dashed var(--accent); background: color-mix(in srgb, var(--bg) 85%, transparent);
  align-items: center; justify-content: center; font-size: 1.2rem; font-weight: 600; z-index: 5; }
.drop-hint.on { display: flex; }
`;

export const styleSheet = lazyStyleSheet(CSS);

/** The dark palette, adopted after styleSheet while the element is dark (lib/theme.js SchemeWatcher). */
export const darkStyleSheet = lazyStyleSheet(`:host {
  --fg: var(--eoslab-fg, #e6edf3); --bg: var(--eoslab-bg, #0d1117); --muted: var(--eoslab-muted, #9da7b3);
  --border: var(--eoslab-border, #3d444d); --panel: var(--eoslab-panel, #161b22); --accent: var(--eoslab-accent, #6cb6ff);
  --ok: var(--eoslab-ok, #56d364); --bad: var(--eoslab-bad, #ff7b72); --warn: var(--eoslab-warn, #e3b341); --hl: var(--eoslab-fg, #ffffff);
  --t1: #1e3a5f; --t2: #5c2526; --t3: #1f4d2c; --t4: #4d3b0a; --t5: #3b2f66; --t6: #5a3214;
  --t7: #134e56; --t8: #5b1f45; --t9: #2d3748; --t10: #3a4d12; --t11: #6b2150; --t12: #2e3a78;
  --t13: #3f3a36; --t14: #0f5660; --none: #1c2128;
  color-scheme: dark;
}`);
