// One-line meanings and Kafka's own names for every field the decoder reports a byte span for
// (v2 batch header, records, record headers, control key/value, legacy magic 0/1 messages).
// Sources: DefaultRecordBatch.java, DefaultRecord.java, ControlRecordType.java,
// EndTransactionMarker.java, LegacyRecord.java.
//
// kind: the colour/pattern class of the byte map. Each kind also has a short visible `tag`, so the
// map never relies on colour alone.

/** @typedef {{label: string, meaning: string, kafka: string, kind: string, tag: string, crc?: boolean}} FieldDoc */

const HEADER = {
  baseOffset: ["First offset of the batch. Producers send 0; the partition leader assigns the real offset. Not covered by the CRC.", "baseOffset · DefaultRecordBatch BASE_OFFSET_OFFSET (0)", "bo"],
  batchLength: ["Bytes after this field up to the end of the batch; the whole batch is batchLength + 12 bytes.", "batchLength · LENGTH_OFFSET (8)", "len"],
  partitionLeaderEpoch: ["Leader epoch stamped by the leader on append (KIP-101); producers send −1. Outside the CRC, so the leader can set it without recomputing it.", "partitionLeaderEpoch · PARTITION_LEADER_EPOCH_OFFSET (12)", "ple"],
  magic: ["Format version: 2 for record batches (Kafka 0.11+), 0 or 1 for legacy message sets.", "magic · MAGIC_OFFSET (16)", "mg"],
  crc: ["CRC-32C (Castagnoli) of every byte from attributes (offset 21) to the end of the batch.", "crc · CRC_OFFSET (17), Crc32C", "crc"],
  attributes: ["Bit flags: compression codec (bits 0–2), timestamp type (3), transactional (4), control (5), delete horizon (6).", "attributes · ATTRIBUTES_OFFSET (21)", "at"],
  lastOffsetDelta: ["Offset of the last record minus baseOffset; also the last sequence delta (lastSequence = baseSequence + lastOffsetDelta).", "lastOffsetDelta · LAST_OFFSET_DELTA_OFFSET (23)", "lod"],
  baseTimestamp: ["Timestamp of the first record (ms since epoch); record timestamps are deltas from it. Holds the delete horizon when attribute bit 6 is set.", "baseTimestamp (firstTimestamp) · BASE_TIMESTAMP_OFFSET (27)", "bts"],
  maxTimestamp: ["Largest record timestamp (CreateTime), or the broker's append time for LogAppendTime topics.", "maxTimestamp · MAX_TIMESTAMP_OFFSET (35)", "mts"],
  producerId: ["Idempotent/transactional producer id from InitProducerId; −1 (NO_PRODUCER_ID) means the producer is not idempotent.", "producerId · PRODUCER_ID_OFFSET (43)", "pid"],
  producerEpoch: ["Producer epoch: a newer epoch fences older producers with the same id; −1 (NO_PRODUCER_EPOCH) when not idempotent.", "producerEpoch · PRODUCER_EPOCH_OFFSET (51)", "ep"],
  baseSequence: ["Sequence number of the first record; the broker deduplicates retries by (producerId, epoch, sequence). −1 (NO_SEQUENCE) when not idempotent.", "baseSequence · BASE_SEQUENCE_OFFSET (53)", "seq"],
  recordsCount: ["Number of records in the batch (always stored uncompressed).", "recordsCount · RECORDS_COUNT_OFFSET (57)", "cnt"],
  records: ["The records section: recordsCount records back to back, each framed by its own length varint.", "records · RECORDS_OFFSET (61)", "rec"],
  compressedRecords: ["The compressed records section, as one stream; it inflates to the records (see the decompressed pane). CRC and batchLength cover these compressed bytes.", "records (compressed) · RECORDS_OFFSET (61)", "zip"],
};

const RECORD = {
  "": ["One record: a length varint followed by that many body bytes.", "Record · DefaultRecord", "r"],
  length: ["Varint: size of the record body that follows (attributes to the end of its headers).", "length (varint) · DefaultRecord.sizeInBytes", "rl"],
  attributes: ["Record attributes byte: unused by Kafka, written 0.", "attributes (int8) · DefaultRecord", "ra"],
  timestampDelta: ["Varlong: timestamp − baseTimestamp.", "timestampDelta (varlong) · DefaultRecord", "td"],
  offsetDelta: ["Varint: offset − baseOffset; also this record's sequence delta (sequence = baseSequence + offsetDelta, wrapping at 2^31−1).", "offsetDelta (varint) · DefaultRecord", "od"],
  keyLength: ["Varint: key size in bytes; −1 means a null key.", "keyLength (varint) · DefaultRecord", "kl"],
  key: ["Key bytes (partitioning and compaction key).", "key (byte[]) · DefaultRecord", "key"],
  valueLength: ["Varint: value size in bytes; −1 means a null value (a tombstone).", "valueLength (varint) · DefaultRecord", "vl"],
  value: ["Value bytes (the payload).", "value (byte[]) · DefaultRecord", "val"],
  headersCount: ["Varint: number of record headers (KIP-82).", "Headers count (varint) · DefaultRecord", "hc"],
  "headers[]": ["One record header: key length, key (UTF-8), value length, value.", "Header · RecordHeader", "h"],
  "headers[].keyLength": ["Varint: header key size; must not be negative.", "headerKeyLength (varint) · DefaultRecord", "hkl"],
  "headers[].key": ["Header key (UTF-8 text).", "headerKey (String) · RecordHeader.key()", "hk"],
  "headers[].valueLength": ["Varint: header value size; −1 means a null value.", "headerValueLength (varint) · DefaultRecord", "hvl"],
  "headers[].value": ["Header value bytes.", "Value (byte[]) · RecordHeader.value()", "hv"],
  "key.version": ["Control record key version (int16).", "ControlRecordType key: version (int16)", "cv"],
  "key.type": ["Control record type (int16): 0 ABORT, 1 COMMIT, 2 LEADER_CHANGE, 3–6 KRaft snapshot/version/voters.", "ControlRecordType key: type (int16)", "ct"],
  "value.version": ["End transaction marker version (int16).", "EndTxnMarker: version (int16)", "mv"],
  "value.coordinatorEpoch": ["Epoch of the transaction coordinator that wrote the marker; a leader rejects markers from an older coordinator (TransactionCoordinatorFencedException).", "EndTxnMarker: coordinatorEpoch (int32)", "ce"],
};

// Legacy message sets (magic 0/1): names as the decoder reports them.
const LEGACY = {
  offset: ["Offset of the message (of the last inner message for a compressed wrapper).", "offset · LegacyRecord (log overhead)", "bo"],
  messageSize: ["Bytes after this field; the entry is messageSize + 12 bytes.", "message_size · LegacyRecord (log overhead)", "len"],
  crc: ["CRC-32 (IEEE, not CRC-32C) of the bytes from magic to the end of the value.", "crc · LegacyRecord.CRC_OFFSET", "crc"],
  magic: ["Message format version: 0 (pre-0.10) or 1 (0.10, adds a timestamp).", "magic · LegacyRecord.MAGIC_OFFSET", "mg"],
  attributes: ["Compression codec (bits 0–2) and, in magic 1, the timestamp type (bit 3).", "attributes · LegacyRecord.ATTRIBUTES_OFFSET", "at"],
  timestamp: ["Message timestamp in ms (magic 1 only); −1 when none.", "timestamp · LegacyRecord.TIMESTAMP_OFFSET", "bts"],
  keyLength: ["int32 key size; −1 means a null key.", "key length · LegacyRecord.KEY_SIZE_OFFSET", "kl"],
  key: ["Key bytes.", "key · LegacyRecord", "key"],
  valueLength: ["int32 value size; −1 means a null value.", "value length · LegacyRecord", "vl"],
  value: ["Value bytes (for a compressed wrapper: the compressed inner message set).", "value · LegacyRecord", "val"],
};

/** Derived rows of the field table (no bytes of their own). */
export const DERIVED = {
  crcComputed: ["CRC-32C computed here over attributes..end; must equal the stored crc.", "DefaultRecordBatch.computeChecksum()"],
  crcValid: ["Stored crc equals the computed one (DefaultRecordBatch.isValid()).", "DefaultRecordBatch.isValid()"],
  lastOffset: ["baseOffset + lastOffsetDelta: the offset of the last record.", "RecordBatch.lastOffset()"],
  lastSequence: ["baseSequence + lastOffsetDelta (wrapping at 2^31−1), or −1: the last sequence the broker records for this producer.", "RecordBatch.lastSequence()"],
  "attributes.compression": ["Bits 0–2: none 0, gzip 1, snappy 2, lz4 3, zstd 4.", "CompressionType (COMPRESSION_CODEC_MASK 0x07)"],
  "attributes.timestampType": ["Bit 3: CreateTime 0 (set by the producer) or LogAppendTime 1 (set by the broker).", "TimestampType (TIMESTAMP_TYPE_MASK 0x08)"],
  "attributes.transactional": ["Bit 4: the batch belongs to a transaction; read_committed consumers wait for its COMMIT/ABORT marker.", "isTransactional (TRANSACTIONAL_FLAG_MASK 0x10)"],
  "attributes.control": ["Bit 5: a control batch (transaction marker or KRaft record), never handed to applications.", "isControlBatch (CONTROL_FLAG_MASK 0x20)"],
  "attributes.deleteHorizon": ["Bit 6: baseTimestamp holds the delete horizon set by the log cleaner (KIP-534).", "hasDeleteHorizonMs (DELETE_HORIZON_FLAG_MASK 0x40)"],
};

const cache = new Map();
const subCache = new Map();

/**
 * Docs of a span name: [doc, record index or -1]. Docs are shared per pattern (a batch of 4,000
 * records has 50,000+ spans, so no per-span objects or regexes here).
 * @returns {[FieldDoc, number]}
 */
export function fieldInfo(name, legacy = false) {
  if (name.startsWith("records[")) {
    const close = name.indexOf("]", 8);
    const rec = Number(name.slice(8, close));
    const sub = name.slice(close + 2);
    let doc = subCache.get(sub);
    if (!doc) {
      doc = lookup(`records[0]${sub ? "." + sub : ""}`, false);
      doc.sub = sub.replace(/^headers\[(\d+)\]\.?/, (_, h) => `h${h}${sub.length > 11 ? "." : ""}`);
      subCache.set(sub, doc);
    }
    return [doc, rec];
  }
  const key = (legacy ? "L:" : "") + name;
  let doc = cache.get(key);
  if (!doc) {
    doc = lookup(name, legacy);
    cache.set(key, doc);
  }
  return [doc, -1];
}

/** Display label of a span: "crc", "r3.key", "r0.h1.value", "record 3". */
export function labelOf(doc, rec, name) {
  if (rec < 0) return doc.label ?? name;
  return doc.sub ? `r${rec}.${doc.sub}` : `record ${rec}`;
}

/** Docs for one span name (convenience: fieldInfo's doc). */
export function fieldDoc(name, legacy = false) {
  return fieldInfo(name, legacy)[0];
}

function lookup(name, legacy) {
  if (legacy && LEGACY[name]) return make(name, LEGACY[name], "l-" + LEGACY[name][2]);
  if (HEADER[name]) return make(name, HEADER[name], name === "compressedRecords" ? "zip" : "h-" + HEADER[name][2]);
  const m = /^records\[(\d+)\](?:\.(.*))?$/.exec(name);
  if (m) {
    const rest = (m[2] ?? "").replace(/\[\d+\]/g, "[]");
    const entry = RECORD[rest];
    if (entry) {
      const kind = rest.startsWith("key.") ? "c-key" : rest.startsWith("value.") ? "c-val" : "r-" + entry[2];
      return make(rest === "" ? "record" : "record " + rest.replace("headers[].", "header "), entry, kind);
    }
  }
  return { label: name, meaning: "", kafka: "", kind: "other", tag: "?" };
}

function make(label, [meaning, kafka, tag], kind) {
  return { label, meaning, kafka, kind, tag };
}

/** Plain explanations of the error kinds the decoder reports. */
export const ERROR_EXPLANATIONS = {
  CorruptRecordException:
    "The bytes fail an integrity check (CRC, size or magic). A broker rejects the batch with CORRUPT_MESSAGE (error code 2); a consumer throws and cannot read past it.",
  InvalidRecordException:
    "The batch is framed correctly but its content breaks a rule (record structure, counts or offsets). A broker answers INVALID_RECORD (87).",
  KafkaException: "Kafka could not read the records section, usually because decompression failed.",
  IllegalArgumentException: "A value is outside what Kafka's reader accepts, such as an unknown compression codec id.",
  DecompressionLimitExceeded:
    "eoslab stopped inflating at its safety cap (maxDecompressed); this is a limit of this page, not a Kafka error.",
  RecordListingLimit:
    "Every record was read and checked, but the later ones are not listed: the decode report hit its size budget (a very dense compressed batch). Not a Kafka error.",
  PartialBatch:
    "The input ends inside a batch. That is normal at the end of a Fetch response (KIP-74): Java consumers skip the partial batch.",
  InvalidInput: "The text is not hex, a hex dump, base64 or a byte-array literal.",
};

/** The bit layout of the v2 attributes int16, most significant first for drawing. */
export const ATTRIBUTE_BITS = [
  { bits: [15, 7], label: "unused", short: "unused" },
  { bits: [6, 6], label: "delete horizon", short: "delH" },
  { bits: [5, 5], label: "control", short: "ctrl" },
  { bits: [4, 4], label: "transactional", short: "txn" },
  { bits: [3, 3], label: "timestamp type", short: "ts" },
  { bits: [2, 0], label: "compression codec", short: "codec" },
];
