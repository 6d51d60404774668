// A second view of the same run beside a page's first one (one report, two views): the
// transactions page's sequence diagram (<kafka-ladder> beside its <kafka-timeline>) and the
// idempotence page's timeline (<kafka-timeline> beside its <kafka-ladder>). The view is made when
// its <details> is first opened (a closed view costs nothing); while open it runs the first view's
// script (with the attributes `attrs()` names) and shows the same story step, and stepping either
// steps the other: both draw the same run, so their steps are the same.

/**
 * @param {object} o
 * @param {HTMLDetailsElement} o.details  where the view goes
 * @param {HTMLElement} o.source          the page's view (its `script`, `step`)
 * @param {string[]} o.sourceEvents       its step and load events
 * @param {() => boolean} o.ready         whether the source has run
 * @param {string} o.tag                  the view's element
 * @param {string} o.id                   its id
 * @param {string} o.stepEvent            its step event
 * @param {() => Promise<unknown>} [o.load]                  loads its module
 * @param {() => Record<string, string | null>} [o.attrs]    attributes it takes from the source (null: absent)
 * @param {() => string | null} [o.refuse]                    why it does not draw this run (shown in `o.note`)
 * @param {HTMLElement} [o.note]
 * @returns {() => Promise<void>} the sync function (also run on the events)
 */
export function followView({ details, source, sourceEvents, ready, tag, id, stepEvent, load = async () => {}, attrs = () => ({}), refuse = () => null, note = null }) {
  let view = null;
  const sync = async () => {
    if (!details.open || !ready()) return;
    const why = refuse();
    if (note) note.textContent = why ?? "";
    if (why) {
      if (view) view.hidden = true;
      return;
    }
    if (!view) {
      await load();
      if (!view) {
        view = document.createElement(tag);
        view.id = id;
        view.setAttribute("readonly", "");
        view.addEventListener(stepEvent, (ev) => {
          if (view.getAttribute("script") === source.script && source.step !== ev.detail.step) source.step = ev.detail.step;
        });
        details.append(view);
      }
    }
    view.hidden = false;
    const extra = attrs();
    const same = view.getAttribute("script") === source.script && Object.entries(extra).every(([k, v]) => view.getAttribute(k) === v);
    if (!same) {
      view.setAttribute("step", String(source.step));
      for (const [k, v] of Object.entries(extra)) {
        if (v === null) view.removeAttribute(k);
        else view.setAttribute(k, v);
      }
      view.setAttribute("script", source.script);
    } else if (view.step !== source.step) {
      view.step = source.step;
    }
  };
  details.addEventListener("toggle", sync);
  for (const e of sourceEvents) source.addEventListener(e, sync);
  return sync;
}
