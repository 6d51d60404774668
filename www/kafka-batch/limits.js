// <kafka-batch>'s size limits: what is checked synchronously, edited in place, paged, deferred, cached.
/** Inputs up to this size (and batch count) get a full synchronous check on the main thread. */
export const SYNC_PASS_MAX_BYTES = 4 << 20;
export const SYNC_PASS_MAX_BATCHES = 2000;
/** Inputs up to this size can be edited in place (re-encoded and re-checked on every change). */
export const EDIT_MAX_BYTES = 4 << 20;
export const RECORDS_PAGE = 20;
/** Batches bigger than this are shown first with header spans only, then with every record span. */
export const SPAN_DEFER_BYTES = 48 << 10;
export const ROW_CACHE_MAX = 5000;
export const EXPORT_MAX_BATCHES = 10000;
/** Pasted texts longer than this are decoded without being kept in the textarea. */
export const BIG_TEXT = 256 << 10;
