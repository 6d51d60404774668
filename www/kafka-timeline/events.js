// <kafka-timeline>'s events: kafka-timeline:step, :script, :load and :open (bubbling, composed).
import { ComposedEvent } from "../lib/element.js";

export const STEP_EVENT = "kafka-timeline:step";
export const SCRIPT_EVENT = "kafka-timeline:script";
export const LOAD_EVENT = "kafka-timeline:load";
export const OPEN_EVENT = "kafka-timeline:open";

/** `kafka-timeline:step`: the timeline now shows story step `step` (0-based) of `steps`. */
export class TimelineStepEvent extends ComposedEvent {
  constructor(step, steps) {
    super(STEP_EVENT, { step, steps });
  }
}

/** `kafka-timeline:script`: the script changed from inside the element (a next-step button). */
export class TimelineScriptEvent extends ComposedEvent {
  constructor(script) {
    super(SCRIPT_EVENT, { script });
  }
}

/** `kafka-timeline:load`: a script was run (or failed: `error`). */
export class TimelineLoadEvent extends ComposedEvent {
  constructor(detail) {
    super(LOAD_EVENT, detail);
  }
}

/** `kafka-timeline:open`: a record was opened (its index in report.records, its label and bytes). */
export class TimelineOpenEvent extends ComposedEvent {
  constructor(detail) {
    super(OPEN_EVENT, detail);
  }
}
