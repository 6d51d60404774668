// Text formatting of decoded values: field values for the field table, key/value previews,
// kafka-dump-log lines, the producer (idempotence) summary. Pure functions over the decode shape;
// everything returned is plain text that the element puts in textContent.

export const hex32 = (n) => "0x" + (n >>> 0).toString(16).padStart(8, "0");
export const hex16 = (n) => "0x" + (n & 0xffff).toString(16).padStart(4, "0");
export const INT32_MAX = 2147483647;

/** "1700000000000 (2023-11-14T22:13:20.000Z)" for plausible epoch-ms timestamps. */
export function timestampText(value) {
  const ms = Number(value);
  if (value === "-1") return "-1 (NO_TIMESTAMP)";
  if (!Number.isFinite(ms) || ms < 0 || ms > 8.64e15) return String(value);
  return `${value} (${new Date(ms).toISOString()})`;
}

const utf8 = new TextDecoder("utf-8", { fatal: true });

/** Printable text of hex bytes, or null when they are not printable UTF-8. */
export function textOf(hex, limit = 4096) {
  if (typeof hex !== "string" || hex.length % 2) return null;
  const n = Math.min(hex.length / 2, limit);
  const bytes = new Uint8Array(n);
  for (let i = 0; i < n; i++) bytes[i] = parseInt(hex.substr(2 * i, 2), 16);
  let text;
  try {
    text = utf8.decode(bytes);
  } catch {
    return null;
  }
  // Control characters (other than tab/newline) mean binary data.
  return /[\u0000-\u0008\u000b-\u001f\u007f]/.test(text) ? null : text;
}

/** `6b  "k"`, `null`, `(empty)`, or truncated hex for long binary values. */
export function bytesPreview(hex, max = 48) {
  if (hex === null || hex === undefined) return "null";
  if (hex === "") return "(empty)";
  const n = hex.length / 2;
  const shown = n > max ? spaced(hex.slice(0, max * 2)) + ` … (${n} bytes)` : spaced(hex);
  const text = textOf(hex);
  if (text === null) return shown;
  const t = text.length > 120 ? text.slice(0, 120) + "…" : text;
  return `${n > 8 ? `(${n} bytes)` : spaced(hex)}  "${t}"`;
}

const spaced = (hex) => hex.replace(/(..)(?=.)/g, "$1 ");

const SENTINEL = {
  producerId: { "-1": "NO_PRODUCER_ID: not idempotent" },
  producerEpoch: { "-1": "NO_PRODUCER_EPOCH" },
  baseSequence: { "-1": "NO_SEQUENCE" },
  partitionLeaderEpoch: { "-1": "NO_PARTITION_LEADER_EPOCH: as a producer sends it" },
  lastSequence: { "-1": "no sequence" },
};

function withSentinel(name, value) {
  const note = SENTINEL[name]?.[String(value)];
  return note ? `${value} (${note})` : String(value);
}

export function attributesText(a) {
  const flags = [a.compression, a.timestampType];
  if (a.transactional) flags.push("transactional");
  if (a.control) flags.push("control");
  if (a.deleteHorizon) flags.push("delete horizon");
  return `${hex16(a.raw)}: ${flags.join(", ")}`;
}

const LEGACY_HEADER = { offset: "baseOffset", messageSize: "batchLength", timestamp: "baseTimestamp" };

/** The decoded value of a field span (or derived row) as text. */
export function fieldValue(name, batch) {
  const h = batch.header;
  if (batch.legacy && LEGACY_HEADER[name]) name = LEGACY_HEADER[name];
  if (batch.legacy && /^(key|value|keyLength|valueLength)$/.test(name)) name = `records[0].${name}`;
  switch (name) {
    case "crc":
    case "crcComputed":
      return `${hex32(h[name])} (${h[name] >>> 0})`;
    case "crcValid":
      return String(h.crcValid);
    case "attributes":
      return attributesText(h.attributes);
    case "batchLength":
      return `${h.batchLength} (batch is ${h.batchLength + 12} bytes)`;
    case "baseTimestamp":
    case "maxTimestamp":
      return timestampText(h[name]);
    case "compressedRecords":
    case "records":
      return batch.decompressed
        ? `${batch.decompressed.codec}: ${batch.decompressed.compressedEnd - batch.decompressed.compressedStart} bytes → ${batch.decompressed.size}`
        : `${batch.records.length} record(s)`;
    default:
      break;
  }
  if (name.startsWith("attributes.")) return String(h.attributes[name.slice(11)]);
  if (name in h) return withSentinel(name, h[name]);
  const m = /^records\[(\d+)\](?:\.(.*))?$/.exec(name);
  if (!m) return "";
  const r = batch.records[Number(m[1])];
  if (!r) return "";
  const sub = m[2] ?? "";
  const c = batch.control;
  switch (sub) {
    case "":
      return `offset ${r.offset}${r.sequence >= 0 ? `, sequence ${r.sequence}` : ""}, ${r.length} body bytes`;
    case "length":
      return `${r.length} (body bytes)`;
    case "attributes":
      return String(r.attributes);
    case "timestampDelta":
      return `${r.timestampDelta} → ${timestampText(r.timestamp)}`;
    case "offsetDelta":
      return `${r.offsetDelta} → offset ${r.offset}${r.sequence >= 0 ? `, sequence ${r.sequence}` : ""}`;
    case "keyLength":
      return r.key === null ? "-1 (null key)" : String(r.key.length / 2);
    case "valueLength":
      return r.value === null ? "-1 (null value: a tombstone)" : String(r.value.length / 2);
    case "key":
      return c ? `control key (${c.type})` : bytesPreview(r.key);
    case "value":
      return c && c.coordinatorEpoch !== null ? `EndTxnMarker (coordinatorEpoch ${c.coordinatorEpoch})` : bytesPreview(r.value);
    case "headersCount":
      return String(r.headers.length);
    case "key.version":
      return c ? String(c.version) : "";
    case "key.type":
      return c ? `${c.typeId} (${c.type})` : "";
    case "value.version":
      return c?.markerVersion !== null && c?.markerVersion !== undefined ? String(c.markerVersion) : "";
    case "value.coordinatorEpoch":
      return c?.coordinatorEpoch !== null && c?.coordinatorEpoch !== undefined ? String(c.coordinatorEpoch) : "";
    default:
      break;
  }
  const hm = /^headers\[(\d+)\]\.?(.*)$/.exec(sub);
  if (hm) {
    const hd = r.headers[Number(hm[1])];
    if (!hd) return "";
    switch (hm[2]) {
      case "":
        return `${JSON.stringify(hd.key)} = ${bytesPreview(hd.value)}`;
      case "keyLength":
        return String(new TextEncoder().encode(hd.key).length);
      case "key":
        return JSON.stringify(hd.key);
      case "valueLength":
        return hd.value === null ? "-1 (null)" : String(hd.value.length / 2);
      case "value":
        return bytesPreview(hd.value);
      default:
        return "";
    }
  }
  return "";
}

/** Sequence arithmetic of DefaultRecordBatch.incrementSequence (wraps to 0 after 2^31−1). */
export function incrementSequence(seq, inc) {
  return seq > INT32_MAX - inc ? inc - (INT32_MAX - seq) - 1 : seq + inc;
}

/** Idempotence / transaction meaning of the producer fields, as sentences. */
export function producerSummary(batch) {
  const h = batch.header;
  const lines = [];
  if (batch.legacy) {
    lines.push(`Legacy message format (magic ${batch.magic}): no producerId, epoch or sequence, so no idempotence or transactions.`);
    return lines;
  }
  if (h.producerId === "-1") {
    lines.push(
      "Not idempotent: producerId −1, producerEpoch −1 and baseSequence −1 are the NO_PRODUCER_ID / NO_PRODUCER_EPOCH / NO_SEQUENCE sentinels. A broker appends every retry of this batch again (possible duplicates).",
    );
  } else if (batch.control) {
    lines.push(
      `Transaction marker of producerId ${h.producerId}, producerEpoch ${h.producerEpoch}: written by the broker, not the producer, so baseSequence is ${h.baseSequence} and it takes offset ${h.baseOffset}.`,
    );
  } else if (h.baseSequence < 0) {
    lines.push(
      `producerId ${h.producerId} is set but baseSequence is ${h.baseSequence}: a broker rejects this with InvalidRecordException ("Invalid sequence number").`,
    );
  } else {
    lines.push(
      `Idempotent producer ${h.producerId}, epoch ${h.producerEpoch}: records carry sequences ${h.baseSequence}–${h.lastSequence} (baseSequence + offsetDelta, wrapping after 2^31−1 to 0). The leader appends this batch only if baseSequence is one past the last sequence it has for this producer and epoch; a retry with the same producerId, epoch and sequences is recognised as a duplicate (the original offsets are returned), a lower epoch is fenced.`,
    );
  }
  if (h.attributes.transactional && !batch.control) {
    lines.push(
      `Transactional: read_committed consumers see these records only after the COMMIT marker of producerId ${h.producerId}; an ABORT marker hides them.`,
    );
  }
  if (batch.control) {
    const c = batch.control;
    if (c.type === "COMMIT" || c.type === "ABORT") {
      lines.push(
        `${c.type} marker (coordinatorEpoch ${c.coordinatorEpoch}): ends producerId ${h.producerId}'s transaction on this partition; ${c.type === "COMMIT" ? "its records become visible to read_committed consumers" : "its records are skipped by read_committed consumers"} and the Last Stable Offset can move past it. Control records are never returned to applications.`,
      );
    } else {
      lines.push(`Control batch of type ${c.type} (id ${c.typeId}): a KRaft/Raft control record, never returned to applications.`);
    }
  }
  return lines;
}

/** Truth checks: [{name, stored, expected, ok, note}] */
export function checks(batch, available, segment = false) {
  const h = batch.header;
  const out = [];
  if (!batch.legacy) {
    out.push({ name: "magic", stored: String(h.magic), expected: "2 (record batch)", ok: h.magic === 2 });
  } else {
    out.push({ name: "magic", stored: String(h.magic), expected: "0/1 (legacy message)", ok: true });
  }
  out.push({
    name: batch.legacy ? "CRC-32" : "CRC-32C",
    stored: hex32(h.crc),
    expected: hex32(h.crcComputed) + " computed",
    ok: h.crcValid,
  });
  out.push({
    name: batch.legacy ? "messageSize" : "batchLength",
    stored: `${h.batchLength} (+12 = ${h.batchLength + 12} bytes)`,
    expected: batch.truncated ? `only ${available} bytes left in the input` : `${available} bytes ${segment ? "up to the next batch" : "in the input"}`,
    ok: !batch.truncated && h.batchLength + 12 === batch.end - batch.start,
  });
  if (!batch.legacy) {
    const decoded = batch.records.length;
    out.push({ name: "recordsCount", stored: String(h.recordsCount), expected: `${decoded} record(s) decoded`, ok: h.recordsCount === decoded });
    const lastDelta = decoded ? batch.records[decoded - 1].offsetDelta : null;
    out.push({
      name: "lastOffsetDelta",
      stored: String(h.lastOffsetDelta),
      expected: lastDelta === null ? "no records" : `last record's offsetDelta ${lastDelta}; recordsCount − 1 = ${h.recordsCount - 1}`,
      ok: lastDelta === null ? h.recordsCount === 0 : h.lastOffsetDelta === lastDelta && h.lastOffsetDelta === h.recordsCount - 1,
    });
  }
  return out;
}

/** A kafka-dump-log (DumpLogSegments --deep-iteration) style batch line plus one line per record. */
export function dumpLogLines(batch, withRecords = true) {
  const h = batch.header;
  const a = h.attributes;
  const horizon = a.deleteHorizon ? `OptionalLong[${h.baseTimestamp}]` : "OptionalLong.empty";
  const line =
    `baseOffset: ${h.baseOffset} lastOffset: ${h.lastOffset} count: ${h.recordsCount} baseSequence: ${h.baseSequence} ` +
    `lastSequence: ${h.lastSequence} producerId: ${h.producerId} producerEpoch: ${h.producerEpoch} ` +
    `partitionLeaderEpoch: ${h.partitionLeaderEpoch} isTransactional: ${a.transactional} isControl: ${a.control} ` +
    `deleteHorizonMs: ${horizon} position: ${batch.start} ${a.timestampType}: ${h.maxTimestamp} size: ${batch.end - batch.start} ` +
    `magic: ${h.magic} compresscodec: ${a.compression} crc: ${h.crc >>> 0} isvalid: ${h.crcValid}`;
  const lines = [line];
  if (withRecords) {
    for (const r of batch.records) {
      let l =
        `| offset: ${r.offset} ${a.timestampType}: ${r.timestamp} keySize: ${r.key === null ? -1 : r.key.length / 2} ` +
        `valueSize: ${r.value === null ? -1 : r.value.length / 2} sequence: ${r.sequence} headerKeys: [${r.headers.map((x) => x.key).join(",")}]`;
      if (batch.control && batch.control.coordinatorEpoch !== null) {
        l += ` endTxnMarker: ${batch.control.type} coordinatorEpoch: ${batch.control.coordinatorEpoch}`;
      }
      lines.push(l);
    }
  }
  return lines;
}

/** One-line summary cells of a batch for the segment list. */
export function listCells(i, b) {
  const h = b.header;
  const a = h.attributes;
  const flags = [];
  if (a.transactional) flags.push("txn");
  if (b.control) flags.push(b.control.type);
  else if (a.control) flags.push("control");
  if (b.truncated) flags.push("partial");
  if (b.legacy) flags.push(`v${b.magic}`);
  const producer = h.producerId === "-1" ? "—" : `${h.producerId}/${h.producerEpoch}`;
  const seq = h.baseSequence < 0 ? "—" : `${h.baseSequence}–${h.lastSequence}`;
  return [
    String(i),
    String(b.start),
    h.lastOffset === h.baseOffset ? String(h.baseOffset) : `${h.baseOffset}–${h.lastOffset}`,
    producer,
    seq,
    String(h.recordsCount),
    a.compression,
    flags.join(" "),
    h.crcValid ? "✓ ok" : "✗ bad",
  ];
}

/** Compare two batches' producer fields the way a partition leader would (given only these two). */
export function compareVerdict(a, b) {
  const ha = a.header;
  const hb = b.header;
  if (a.legacy || b.legacy) return "A legacy message has no producer fields: no idempotence relation.";
  if (ha.producerId === "-1" || hb.producerId === "-1") {
    return "At least one batch is not idempotent (producerId −1): the broker appends both, a retry would be a duplicate record.";
  }
  if (ha.producerId !== hb.producerId) return `Different producers (${ha.producerId} vs ${hb.producerId}): no sequence relation between them.`;
  if (hb.producerEpoch < ha.producerEpoch) {
    return `Same producer, but B's epoch ${hb.producerEpoch} is older than A's ${ha.producerEpoch}: after A, a leader rejects B (InvalidProducerEpochException; a transactional producer is fenced, ProducerFencedException).`;
  }
  if (hb.producerEpoch > ha.producerEpoch) {
    return `B has a newer epoch (${hb.producerEpoch} > ${ha.producerEpoch}): the leader starts a new sequence space, so B must start at sequence 0 (it starts at ${hb.baseSequence}).`;
  }
  if (ha.baseSequence === hb.baseSequence && ha.lastSequence === hb.lastSequence) {
    return `Duplicate: same producerId ${ha.producerId}, epoch ${ha.producerEpoch} and sequences ${ha.baseSequence}–${ha.lastSequence}. A leader that already appended A (and keeps it among the producer's last 5 batches) does not append B again: it answers with A's offsets. This is how a retried send stays exactly-once.`;
  }
  const next = incrementSequence(ha.lastSequence, 1);
  if (hb.baseSequence === next) return `In sequence: B starts at ${next}, one past A's last sequence ${ha.lastSequence}; a leader appends B after A.`;
  return `Out of order: after A the leader expects baseSequence ${next}, B has ${hb.baseSequence} (OutOfOrderSequenceException, unless B is a duplicate of an older retained batch).`;
}
