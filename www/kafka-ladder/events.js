// <kafka-ladder>'s events: kafka-ladder:step, :script and :load (bubbling, composed), each followed by its
// older, deprecated name (LEGACY_EVENT).
import { ComposedEvent } from "../lib/element.js";

export const STEP_EVENT = "kafka-ladder:step";
export const SCRIPT_EVENT = "kafka-ladder:script";
export const LOAD_EVENT = "kafka-ladder:load";
/** The events' earlier names (eoslab-step …): still dispatched, after the new ones, for pages written against them. */
export const LEGACY_EVENT = { [STEP_EVENT]: "eoslab-step", [SCRIPT_EVENT]: "eoslab-script", [LOAD_EVENT]: "eoslab-load" };

/** `kafka-ladder:step`: the ladder now shows story step `step` (0-based) of `steps`. */
export class LadderStepEvent extends ComposedEvent {
  constructor(step, steps) {
    super(STEP_EVENT, { step, steps });
  }
}

/** `kafka-ladder:script`: the script changed from inside the element (a next-step button). */
export class LadderScriptEvent extends ComposedEvent {
  constructor(script) {
    super(SCRIPT_EVENT, { script });
  }
}

/** `kafka-ladder:load`: a script was run (or failed: `error`). */
export class LadderLoadEvent extends ComposedEvent {
  constructor(detail) {
    super(LOAD_EVENT, detail);
  }
}
