// <kafka-batch>'s events: kafka-batch:decode, :select, :edit, :indexed and :spans (bubbling, composed), each
// followed by its older, deprecated name (LEGACY_EVENT).
/** The events' names (kafka-<element>:<what>), and the deprecated names they had before (eoslab-…), still dispatched after them. */
export const DECODE_EVENT = "kafka-batch:decode";
export const SELECT_EVENT = "kafka-batch:select";
export const EDIT_EVENT = "kafka-batch:edit";
export const INDEXED_EVENT = "kafka-batch:indexed";
export const SPANS_EVENT = "kafka-batch:spans";
/**
 * A packet capture (.pcap, .pcapng) was dropped or opened: cancelable, {file}. A page with a
 * capture view takes it (preventDefault) and the inspector leaves it alone; otherwise the
 * inspector decodes its bytes as it would any file.
 */
export const CAPTURE_EVENT = "kafka-batch:capture";
export const LEGACY_EVENT = {
  [DECODE_EVENT]: "kafka-batch-decode", [SELECT_EVENT]: "kafka-batch-select", [EDIT_EVENT]: "kafka-batch-edit",
  [INDEXED_EVENT]: "kafka-batch-indexed", [SPANS_EVENT]: "kafka-batch-spans",
};

export class KafkaBatchDecodeEvent extends Event {
  constructor(detail) {
    super(DECODE_EVENT, { bubbles: true, composed: true });
    /** @type {{format: string, stripped: string[], length: number, batches: number, errors: number, selected: number, ms: number}} */
    this.detail = detail;
  }
}

export class KafkaBatchSelectEvent extends Event {
  constructor(detail) {
    super(SELECT_EVENT, { bubbles: true, composed: true });
    /** @type {{batch: number, field: string | null, start: number, end: number, buffer: string}} */
    this.detail = detail;
  }
}

export class KafkaBatchEditEvent extends Event {
  constructor(detail) {
    super(EDIT_EVENT, { bubbles: true, composed: true });
    /** @type {{batch: number, how: "form" | "byte" | "fix-crc", length: number, crcValid: boolean}} */
    this.detail = detail;
  }
}
