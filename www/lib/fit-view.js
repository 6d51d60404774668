// A page whose view should be on the first screen (idempotence.html's ladder): the ladder's
// scrolling box is made as tall as the window leaves below its top (at least `min` px), through
// --eos-ladder-fit (a custom property of the element, set with the CSSOM: no style attribute in
// the markup). Measured again when the window is resized and after each step (the text above the
// drawing changes); presenter mode has its own height.

/** Keeps `el`'s (a <kafka-ladder>) drawing inside the window. */
export function fitToWindow(el, { min = 224, margin = 10 } = {}) {
  let frame = 0;
  const fit = () => {
    frame = 0;
    const vp = el.shadowRoot?.querySelector(".viewport");
    if (!vp || el.hasAttribute("presenter")) return;
    const top = vp.getBoundingClientRect().top + scrollY;
    const h = Math.max(min, Math.floor(innerHeight - top - margin));
    if (el.style.getPropertyValue("--eos-ladder-fit") === `${h}px`) return;
    el.style.setProperty("--eos-ladder-fit", `${h}px`);
    // The step shown scrolled into the box of its new height, as a step would scroll it (the same
    // picture whether the box had its height before or after the run).
    if (el.steps > 0) el.goTo(el.step);
  };
  const later = () => {
    if (!frame) frame = requestAnimationFrame(fit);
  };
  addEventListener("resize", later);
  for (const type of ["kafka-ladder:load", "kafka-ladder:step"]) el.addEventListener(type, later);
  later();
}
