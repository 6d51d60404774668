// Fitting text into a width counted in characters of a monospace font, for the canvas views: wrap
// it onto more lines (wrapText), or, where the box cannot grow, shorten it at a word or token
// boundary (ellipsize) so that what is shown is whole words; the views keep the full text in their
// accessible text list and hover titles. No DOM.

/** Characters after which a long word may break (a value's parts: "order-1", "e1,e2", "a→b"). */
const BREAK_AFTER = /[,\-_.:/→·;)]/;

/**
 * Greedy word wrap: lines of at most `cols` characters, broken at spaces; a word longer than a
 * line breaks after one of its separators, and only a word without any is split where the line
 * ends (wrapped, never dropped). At most `maxLines` lines: more text than that ends the last line
 * with "…" at a word boundary; the default is every line the text needs.
 */
export function wrapText(text, cols, maxLines = Infinity) {
  cols = Math.max(4, cols | 0);
  const out = [];
  let rest = String(text).trim();
  while (rest.length > cols && out.length < maxLines - 1) {
    const cut = breakAt(rest, cols);
    out.push(rest.slice(0, cut).trimEnd());
    rest = rest.slice(cut).trimStart();
  }
  if (rest.length || !out.length) out.push(ellipsize(rest, cols));
  return out;
}

/** Where a line of `text` wider than `cols` ends: after its last space, else after a separator, else at `cols`. */
function breakAt(text, cols) {
  const space = text.lastIndexOf(" ", cols);
  if (space > 0) return space + 1;
  for (let i = cols - 1; i > 0; i--) if (BREAK_AFTER.test(text[i])) return i + 1;
  return cols;
}

/**
 * `text` in at most `cols` characters: whole, or shortened deliberately with "…" after its last
 * whole word or token that fits ("line 12: deliver request b1 …", never "… req…"). A first word
 * longer than the room keeps only what fits of it, the one case where a word is cut.
 */
export function ellipsize(text, cols) {
  text = String(text);
  if (text.length <= cols) return text;
  if (cols <= 1) return "…";
  const room = cols - 1;
  for (let i = room; i > 0; i--) {
    const end = text[i] === " " ? i : BREAK_AFTER.test(text[i - 1]) ? i : -1;
    if (end > 0 && text.slice(0, end).trim()) return `${text.slice(0, end).trimEnd()}…`;
  }
  return text.slice(0, room) + "…";
}
