// The script editor of idempotence.html and transactions.html: a script error is shown next to the
// editor (under its Run button, not only at the top of the view, a screen or more away) and its
// line is marked in the editor: a band over that line of the textarea (which does not wrap, so
// one script line is one row of it), the line selected when the error follows the user's own
// "Run script". Text only: the error is set with textContent.

/** The script line an error names ("line N: …"), or null. */
export function errorLine(message) {
  const m = /^line (\d+):/.exec(String(message ?? ""));
  return m ? Number(m[1]) : null;
}

/**
 * Wires `editor` (the textarea) with an error box `box` and a line mark added around it. Returns
 * {show(message, {select}), clear()}.
 */
export function scriptEditor({ editor, box }) {
  const frame = document.createElement("div");
  frame.className = "editor-frame";
  const mark = document.createElement("div");
  mark.className = "line-mark";
  mark.hidden = true;
  mark.setAttribute("aria-hidden", "true");
  editor.replaceWith(frame);
  frame.append(editor, mark);
  let line = null;

  const place = () => {
    if (line === null) {
      mark.hidden = true;
      return;
    }
    const cs = getComputedStyle(editor);
    const lh = parseFloat(cs.lineHeight) || parseFloat(cs.fontSize) * 1.2;
    const top = editor.offsetTop + editor.clientTop + parseFloat(cs.paddingTop) + (line - 1) * lh - editor.scrollTop;
    const inside = top + lh > editor.offsetTop && top < editor.offsetTop + editor.clientTop + editor.clientHeight;
    mark.hidden = !inside;
    mark.style.top = `${top}px`;
    mark.style.height = `${lh}px`;
    mark.style.left = `${editor.offsetLeft + editor.clientLeft}px`;
    mark.style.width = `${editor.clientWidth}px`;
  };
  editor.addEventListener("scroll", place, { passive: true });
  new ResizeObserver(place).observe(editor);
  // Editing the script moves its lines: the mark goes until the next run says where the error is.
  editor.addEventListener("input", () => {
    if (line === null) return;
    line = null;
    place();
  });

  function clear() {
    line = null;
    place();
    box.hidden = true;
    box.textContent = "";
    editor.removeAttribute("aria-invalid");
    editor.removeAttribute("aria-errormessage");
  }

  /** Shows `message` under the editor and marks its line; `select`: select that line and focus the editor. */
  function show(message, { select = false } = {}) {
    box.textContent = message;
    box.hidden = false;
    editor.setAttribute("aria-invalid", "true");
    if (box.id) editor.setAttribute("aria-errormessage", box.id);
    line = errorLine(message);
    const lines = editor.value.split("\n");
    if (line !== null && line > lines.length) line = null;
    if (line !== null) {
      const start = lines.slice(0, line - 1).reduce((n, l) => n + l.length + 1, 0);
      const cs = getComputedStyle(editor);
      const lh = parseFloat(cs.lineHeight) || parseFloat(cs.fontSize) * 1.2;
      // The line in the middle of the editor's rows when it is not in view.
      const y = (line - 1) * lh;
      if (y < editor.scrollTop || y + lh > editor.scrollTop + editor.clientHeight) editor.scrollTop = Math.max(0, y - editor.clientHeight / 2);
      if (select) {
        editor.focus({ preventScroll: true });
        editor.setSelectionRange(start, start + lines[line - 1].length);
      }
    }
    place();
    // After the view has laid out its new run (it may change the page's height above the editor).
    if (select) requestAnimationFrame(() => box.scrollIntoView({ block: "nearest" }));
  }

  return { show, clear };
}
