// file-view.js: what the lab's file views (<kafka-partition>, <kafka-capture>) share: their look
// (a drop zone, buttons, the summary list, the dark palette) and the drop zone's behaviour.

/** The styles both views start from; each adds its own after them. */
export const FILE_VIEW_CSS = `
:host { display: block; color: var(--eoslab-fg, #1b1f24); background: var(--eoslab-bg, transparent);
  font: 14px/1.45 var(--eoslab-font, system-ui, sans-serif); }
.drop { border: 2px dashed var(--eoslab-border, #8c959f); border-radius: 6px; padding: 12px; }
.drop.over { border-color: var(--eoslab-accent, #0969da); }
.row { display: flex; flex-wrap: wrap; gap: 8px; align-items: center; }
button, label.button { font: inherit; padding: 4px 10px; border: 1px solid var(--eoslab-border, #8c959f);
  border-radius: 4px; background: var(--eoslab-panel, #f6f8fa); color: inherit; cursor: pointer; }
label.button:focus-within { outline: 2px solid var(--eoslab-accent, #0969da); }
input[type=file] { position: absolute; opacity: 0; width: 1px; height: 1px; }
.muted { color: var(--eoslab-muted, #57606a); }
.bad { color: var(--eoslab-bad, #cf222e); }
.good { color: var(--eoslab-ok, #1a7f37); }
dl { display: grid; grid-template-columns: max-content 1fr; gap: 2px 12px; margin: 8px 0; }
dt { font-weight: 600; }
dd { margin: 0; overflow-wrap: anywhere; }
h3 { font-size: 1em; margin: 12px 0 4px; }
[hidden] { display: none !important; }
`;

/** The dark palette (the page's or the system's dark scheme: lib/theme.js SchemeWatcher). */
export const FILE_VIEW_DARK_CSS = `
:host { --eoslab-fg: #e6edf3; --eoslab-bg: transparent; --eoslab-muted: #9198a1; --eoslab-border: #3d444d;
  --eoslab-panel: #151b23; --eoslab-accent: #4493f8; --eoslab-ok: #3fb950; --eoslab-bad: #f85149; }
`;

/**
 * Makes `zone` take drops: marked `.over` while something is dragged over it, and `onDrop(dataTransfer)`
 * called with what was dropped (the page does not open the file itself).
 */
export function dropZone(zone, onDrop) {
  zone.addEventListener("dragover", (e) => {
    e.preventDefault();
    zone.classList.add("over");
  });
  zone.addEventListener("dragleave", () => zone.classList.remove("over"));
  zone.addEventListener("drop", (e) => {
    e.preventDefault();
    zone.classList.remove("over");
    if (e.dataTransfer) onDrop(e.dataTransfer);
  });
}
