// A page with one main view (idempotence.html's ladder, transactions.html's timeline) takes the
// view's keys from the whole page: right after loading, after clicking a scenario or a heading,
// →, ←, Home, End, Space and ? step and play the view without first clicking into it. A key
// pressed inside any eoslab element (the view itself, a second timeline, the sequence diagram, the
// inspector) is that element's own; a key typed into a form field (the script editor, a filter
// box) or pressed in a dialog stays there (the player's handleKey leaves those alone).

/** Passes keydowns outside any eoslab element to `view()`'s handleKey (the element or null). */
export function pageKeys(view) {
  document.addEventListener("keydown", (ev) => {
    if (ev.defaultPrevented) return;
    const inElement = ev.composedPath().some((n) => n instanceof Element && n.localName.startsWith("kafka-"));
    if (inElement) return;
    const el = view();
    el?.handleKey?.(ev);
  });
}
