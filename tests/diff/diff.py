#!/usr/bin/env python3
"""Differential tests of eoslab against two independent Kafka record codecs.

Peers: kafka-python (its pure-Python DefaultRecordBatchBuilder / DefaultRecordBatch) and
kafkajs (its internal RecordBatch/Record encoders and RecordBatch decoder, through
kafkajs_peer.js). Kafka's Java code is the truth: where a peer deviates from it, the
comparison says so in a comment and special-cases exactly that field, never loosens it.

  direction 1  the peer encodes randomized batches; one `eoslab decode --json` reads the whole
               segment; every field is compared with what the peer was asked to write (adjusted
               only for the documented peer deviations) and with Java's derived values.
  direction 2  `eoslab encode` writes randomized specs as one segment; the peer decodes it and
               every field it reports is compared with the spec.
  messages     kafka-python's hand-written protocol classes encode requests and responses of
               every version it defines of the APIs eoslab has schemas for; `eoslab decode
               --messages` reads them field by field (tests/diff/messages.py, its deviations there);
               and Wireshark's Kafka dissector (tshark) over captures of the golden envelopes and
               of the real-client capture, every field tshark reports (tests/diff/tshark.py); and the
               capture file itself read by `eoslab capture` and by tshark: the same connections,
               requests and pairs (tests/diff/capture_pairs.py).
  fixed        the sequence wrap at 2^31-1, LogAppendTime, COMMIT/ABORT markers (both ways),
               record attributes 0x7f, Object.prototype-named header keys, an empty batch.

Peer deviations from Java (each special-cased where it is compared, with a comment):
  kafka-python 3.0.12
    - writes partitionLeaderEpoch 0 where Java's producer writes -1 (the broker overwrites it)
    - writes the records uncompressed (codec bits 0) when compressing does not shrink them;
      Java always applies the configured codec
    - reads the record attributes byte as a zigzag varint (same for 0x00-0x7f only)
  kafkajs 2.2.4
    - never verifies the CRC (kafkajs' own CRC-32C function is checked in its place)
    - folds record headers into an object: grouped by key, JavaScript property order
      (array-index keys first); Java keeps the list as written. Both ways.
    - a header key naming an Object.prototype member ("constructor", "__proto__") decodes as
      [that member, value]
    - cannot encode a null header value (TypeError in the record encoder)
    - its producer writes producerEpoch 0 and firstSequence 0 without a producer id
      (Java: -1, -1) and partitionLeaderEpoch 0
    - kafkajs-snappy writes raw snappy, not Java's xerial framing (Java reads both)
    - not a deviation in 2.2.4: under LogAppendTime its decoder does give every record
      maxTimestamp, as Java does

Env: DIFF_SEED (default 20240611), DIFF_N (random batches per peer and direction, default 500),
DIFF_CODECS (comma list, default all five), DIFF_VERBOSE=1 (print every failure in full),
DIFF_SAVE=DIR (also write every segment eoslab decodes or encodes to DIR/<tag>.bin: how
crate/core/tests/fixtures/diff was made).
Prints `diff: N passed, M failed` last and exits 1 when anything failed.
"""
import json
import os
import random
import re
import struct
import subprocess
import sys
import tempfile
import time

from kafka.record.default_records import DefaultRecordBatch, DefaultRecordBatchBuilder

import messages  # tests/diff/messages.py: the request/response differential
import tshark  # tests/diff/tshark.py: the same against Wireshark's Kafka dissector
import capture_pairs  # tests/diff/capture_pairs.py: eoslab capture against tshark on the capture files
from kafka.record.util import calc_crc32c, size_of_varint

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
EOSLAB = os.environ.get("EOSLAB", os.path.join(ROOT, "target", "release", "eoslab"))
NODE_PEER = os.path.join(HERE, "kafkajs_peer.js")

SEED = int(os.environ.get("DIFF_SEED", "20240611"))
N = int(os.environ.get("DIFF_N", "500"))
ALL_CODECS = ["none", "gzip", "snappy", "lz4", "zstd"]
CODECS = [c for c in os.environ.get("DIFF_CODECS", ",".join(ALL_CODECS)).split(",") if c]
VERBOSE = os.environ.get("DIFF_VERBOSE") == "1"
SAVE_DIR = os.environ.get("DIFF_SAVE") or None
CODEC_ID = {c: i for i, c in enumerate(ALL_CODECS)}
INT32_MAX = 2**31 - 1
INT64_MAX = 2**63 - 1

# v2 batch header layout (DefaultRecordBatch): offsets of the fields a broker rewrites.
BASE_OFFSET_AT, PLE_AT, CRC_AT, ATTR_AT, MAXTS_AT = 0, 12, 17, 21, 35
ATTR_LOG_APPEND_TIME, ATTR_TRANSACTIONAL, ATTR_CONTROL = 0x08, 0x10, 0x20


# ----------------------------------------------------------------------------------------
# Java's rules (DefaultRecordBatch / DefaultRecord)

def increment_sequence(base, increment):
    """DefaultRecordBatch.incrementSequence: sequences wrap from 2^31-1 to 0."""
    if base > INT32_MAX - increment:
        return increment - (INT32_MAX - base) - 1
    return base + increment


def record_sequence(base_seq, offset_delta):
    return -1 if base_seq == -1 else increment_sequence(base_seq, offset_delta)


def record_body_len(ts_delta, offset_delta, key, value, headers):
    """DefaultRecord.sizeOfBodyInBytes: the record's leading length varint."""
    n = 1 + size_of_varint(ts_delta) + size_of_varint(offset_delta)
    for b in (key, value):
        n += 1 if b is None else size_of_varint(len(b)) + len(b)
    n += size_of_varint(len(headers))
    for k, v in headers:
        kb = k.encode("utf-8")
        n += size_of_varint(len(kb)) + len(kb)
        n += 1 if v is None else size_of_varint(len(v)) + len(v)
    return n


def coverage(stats, cases):
    """Counts of the features the random cases exercised (printed, so a generator change that
    stops exercising one shows)."""
    def add(k, n=1):
        stats[k] = stats.get(k, 0) + n
    for c in cases:
        recs = c["records"]
        add("batches")
        add("records", len(recs))
        add(f"codec {c['codec']}")
        add("sequence wraps", int(c["baseSequence"] >= 0 and c["baseSequence"] + c["lastOffsetDelta"] > INT32_MAX))
        add("offset gaps", int(c["lastOffsetDelta"] + 1 != len(recs)))
        add("transactional", int(c["transactional"]))
        add("LogAppendTime", int(c["timestampType"] == "LogAppendTime"))
        add("negative timestamp deltas", sum(r["timestamp"] < c["baseTimestamp"] for r in recs))
        add("timestamp deltas >= 2^20", sum(abs(r["timestamp"] - c["baseTimestamp"]) >= 2**20 for r in recs))
        for r in recs:
            for b in (r["key"], r["value"]):
                add("null key/value" if b is None else "empty key/value" if not b else
                    "key/value > 16 KiB" if len(b) > 16384 else "key/value > 127 B" if len(b) > 127 else "key/value small")
            add("headers", len(r["headers"]))
            add("null header values", sum(v is None for _, v in r["headers"]))


def hx(b):
    return None if b is None else b.hex()


# ----------------------------------------------------------------------------------------
# Randomized cases. A case is what a producer asks for: batch fields plus records with
# absolute timestamps; baseTimestamp/maxTimestamp/lastOffsetDelta follow from the records
# as Java's MemoryRecordsBuilder derives them.

# Header keys: empty, ASCII, multi-byte UTF-8, a key longer than 127 bytes (2-byte varint)
# and an array-index-like key ("7", which JavaScript objects order first: see kafkajs below).
HEADER_KEYS = ["", "trace-id", "k", "ключ", "é", "\U0001f680 rocket", "x" * 130, "7", "content-type"]


def gen_bytes(rng, null_p=0.15, empty_p=0.12, big_p=0.02):
    r = rng.random()
    if r < null_p:
        return None
    if r < null_p + empty_p:
        return b""
    r = rng.random()
    if r < big_p:
        n = rng.randint(16385, 20000)  # length varint of 3 bytes (> 16 KiB)
    elif r < big_p + 0.10:
        n = rng.randint(128, 700)  # length varint of 2 bytes
    else:
        n = rng.randint(1, 40)
    if rng.random() < 0.7:  # compressible, so that peers really compress
        chunk = rng.randbytes(rng.randint(1, 8))
        return (chunk * (n // len(chunk) + 1))[:n]
    return rng.randbytes(n)


def gen_headers(rng, allow_null_values=True):
    hs = []
    for _ in range(rng.choice([0, 0, 1, 2, 3])):
        k = rng.choice(HEADER_KEYS)
        v = gen_bytes(rng, null_p=0.25 if allow_null_values else 0.0, empty_p=0.2, big_p=0.0)
        hs.append((k, v))
    return hs


def gen_case(rng, name, codecs, null_header_values=True):
    n = rng.choice([1, 1, 2, 3, 4, 5, 8, 10, 16, 25, 50, rng.randint(1, 50)])
    # offset deltas: contiguous as a producer writes them, or with gaps as compaction leaves
    if rng.random() < 0.8:
        deltas = list(range(n))
    else:
        deltas, d = [], rng.randint(0, 3)
        for _ in range(n):
            deltas.append(d)
            d += rng.choice([1, 1, 2, 7, 300, 70000])
    base_ts = rng.choice([0, 1, 1_700_000_000_000 + rng.randint(0, 10**10),
                          rng.randint(0, 2**53), rng.randint(2**53, 2**62)])
    mode = rng.random()
    stamps = [base_ts]
    for _ in range(n - 1):
        if mode < 0.4:  # increasing
            stamps.append(stamps[-1] + rng.randint(0, 1000))
        elif mode < 0.75:  # jitter around the first: negative deltas
            stamps.append(base_ts + rng.randint(-100_000, 100_000))
        else:  # far apart: multi-byte varlongs both ways
            stamps.append(base_ts + rng.choice([-1, 1]) * rng.randint(2**20, 2**45))
    r = rng.random()
    if r < 0.25:  # Java's non-idempotent producer
        pid, epoch, seq, txn = -1, -1, -1, False
    elif r < 0.32:  # kafkajs' non-idempotent producer: epoch 0 and firstSequence 0 (Java: -1, -1)
        pid, epoch, seq, txn = -1, 0, 0, False
    else:
        pid = rng.choice([0, rng.randint(1, 5000), rng.randint(2**32, INT64_MAX)])
        epoch = rng.choice([0, 1, rng.randint(0, 32767)])
        seq = rng.choice([0, rng.randint(0, INT32_MAX), rng.randint(0, INT32_MAX),
                          INT32_MAX - rng.randint(0, 60), 2147483646, INT32_MAX])
        txn = rng.random() < 0.4
    last = deltas[-1]
    base_offset = rng.choice([0, rng.randint(1, 2**31), rng.randint(2**31, INT64_MAX - 2**32)])
    return {
        "name": name,
        "codec": rng.choice(codecs),
        "baseOffset": base_offset,
        "partitionLeaderEpoch": rng.choice([-1, 0, rng.randint(1, INT32_MAX)]),
        "producerId": pid, "producerEpoch": epoch, "baseSequence": seq, "transactional": txn,
        "records": [{
            "offsetDelta": deltas[i],
            "timestamp": stamps[i],
            "key": gen_bytes(rng),
            "value": gen_bytes(rng),
            "headers": gen_headers(rng, null_header_values),
        } for i in range(n)],
        "lastOffsetDelta": last,
        "baseTimestamp": stamps[0],
        "maxTimestamp": max(stamps),
        "timestampType": "CreateTime",
    }


# ----------------------------------------------------------------------------------------
# What eoslab must report for a batch, derived from the case and Java's rules.

def expected_report(case, *, compression, base_offset, ple, raw_bytes, ts_type="CreateTime",
                    control=False, headers_written=None):
    recs = case["records"]
    base_ts, max_ts, seq = case["baseTimestamp"], case["maxTimestamp"], case["baseSequence"]
    stored_crc = struct.unpack_from(">I", raw_bytes, CRC_AT)[0]
    raw = CODEC_ID[compression] | (ATTR_LOG_APPEND_TIME if ts_type == "LogAppendTime" else 0) \
        | (ATTR_TRANSACTIONAL if case["transactional"] else 0) | (ATTR_CONTROL if control else 0)
    header = {
        "baseOffset": str(base_offset), "batchLength": len(raw_bytes) - 12,
        "partitionLeaderEpoch": ple, "magic": 2,
        "crc": stored_crc, "crcComputed": calc_crc32c(raw_bytes[ATTR_AT:]), "crcValid": True,
        "attributes": {"raw": raw, "compression": compression, "timestampType": ts_type,
                       "transactional": case["transactional"], "control": control,
                       "deleteHorizon": False},
        "lastOffsetDelta": case["lastOffsetDelta"],
        "baseTimestamp": str(base_ts), "maxTimestamp": str(max_ts),
        "producerId": str(case["producerId"]), "producerEpoch": case["producerEpoch"],
        "baseSequence": seq, "recordsCount": len(recs),
        "lastSequence": record_sequence(seq, case["lastOffsetDelta"]),
        "lastOffset": str(base_offset + case["lastOffsetDelta"]),
    }
    records = []
    for i, r in enumerate(recs):
        hs = r["headers"] if headers_written is None else headers_written[i]
        delta = r["timestamp"] - base_ts
        records.append({
            "offsetDelta": r["offsetDelta"], "timestampDelta": str(delta),
            "key": hx(r["key"]), "value": hx(r["value"]),
            "headers": [{"key": k, "value": hx(v)} for k, v in hs],
            "offset": str(base_offset + r["offsetDelta"]),
            # Java: DefaultRecordBatch under LOG_APPEND_TIME gives every record maxTimestamp
            "timestamp": str(max_ts if ts_type == "LogAppendTime" else r["timestamp"]),
            "sequence": record_sequence(seq, r["offsetDelta"]),
            "attributes": 0,
            "length": record_body_len(delta, r["offsetDelta"], r["key"], r["value"], hs),
        })
    body = sum(size_of_varint(r["length"]) + r["length"] for r in records)
    if compression == "none":
        decompressed = None
        assert len(raw_bytes) == 61 + body, "the peer wrote records the case does not describe"
    else:
        decompressed = {"codec": compression, "compressedStart": 61, "compressedEnd": len(raw_bytes),
                        "size": body}
    return {"magic": 2, "legacy": False, "truncated": False, "header": header, "records": records,
            "decompressed": decompressed}


def diff(expected, actual, path=""):
    """Field-exact comparison of `expected` (only the keys it names) against `actual`."""
    out = []
    if isinstance(expected, dict):
        if not isinstance(actual, dict):
            return [f"{path}: expected an object, got {short(actual)}"]
        for k, v in expected.items():
            if k not in actual:
                out.append(f"{path}.{k}: missing")
            else:
                out += diff(v, actual[k], f"{path}.{k}")
    elif isinstance(expected, list):
        if not isinstance(actual, list) or len(actual) != len(expected):
            return [f"{path}: expected {len(expected)} items, got {short(actual)}"]
        for i, (e, a) in enumerate(zip(expected, actual)):
            out += diff(e, a, f"{path}[{i}]")
    elif expected != actual or type(expected) is not type(actual):
        out.append(f"{path}: expected {short(expected)}, got {short(actual)}")
    return out


def short(v):
    s = json.dumps(v) if not isinstance(v, (bytes, bytearray)) else v.hex()
    return s if len(s) <= 120 else s[:100] + f"…({len(s)} chars)"


class Tally:
    def __init__(self):
        self.passed = self.failed = 0
        self.failures = []
        self.by_group = {}

    def check(self, group, name, problems):
        g = self.by_group.setdefault(group, [0, 0])
        if problems:
            self.failed += 1
            g[1] += 1
            self.failures.append((group, name, problems))
        else:
            self.passed += 1
            g[0] += 1


# ----------------------------------------------------------------------------------------
# eoslab

def eoslab_decode(data, tmp, tag):
    path = os.path.join(tmp, f"{tag}.bin")
    with open(path, "wb") as f:
        f.write(data)
    if SAVE_DIR:  # DIFF_SAVE=dir keeps every input decoded (the decode pin's corpus)
        with open(os.path.join(SAVE_DIR, f"{tag}.bin"), "wb") as f:
            f.write(data)
    p = subprocess.run([EOSLAB, "decode", path, "--json"], capture_output=True)
    if p.returncode not in (0, 1):
        raise RuntimeError(f"eoslab decode exited {p.returncode}: {p.stderr.decode()}")
    return json.loads(p.stdout)


def eoslab_encode(specs, tmp, tag):
    spec_path, out_path = os.path.join(tmp, f"{tag}.json"), os.path.join(tmp, f"{tag}.bin")
    with open(spec_path, "w") as f:
        json.dump(specs, f)
    p = subprocess.run([EOSLAB, "encode", spec_path, "--binary", "-o", out_path], capture_output=True)
    if p.returncode != 0:
        raise RuntimeError(f"eoslab encode exited {p.returncode}: {p.stderr.decode()}")
    with open(out_path, "rb") as f:
        data = f.read()
    if SAVE_DIR:
        with open(os.path.join(SAVE_DIR, f"{tag}.bin"), "wb") as f:
            f.write(data)
    return data


def to_spec(case, rng):
    """A case as an `eoslab encode` spec; int64s as decimal strings. Timestamps are given
    as absolute `timestamp`s, or (one case in three) as `timestampDelta`s from an explicit
    header baseTimestamp, so that both spec forms are exercised."""
    h = {
        "baseOffset": str(case["baseOffset"]), "partitionLeaderEpoch": case["partitionLeaderEpoch"],
        "attributes": {"compression": case["codec"], "timestampType": case["timestampType"],
                       "transactional": case["transactional"]},
        "producerId": str(case["producerId"]), "producerEpoch": case["producerEpoch"],
        "baseSequence": case["baseSequence"],
    }
    if case["timestampType"] == "LogAppendTime":
        h["maxTimestamp"] = str(case["maxTimestamp"])
    by_delta = rng.random() < 0.33
    if by_delta:
        h["baseTimestamp"] = str(case["baseTimestamp"])
    records = []
    for r in case["records"]:
        rec = {"offsetDelta": r["offsetDelta"], "key": hx(r["key"]), "value": hx(r["value"]),
               "headers": [{"key": k, "value": hx(v)} for k, v in r["headers"]]}
        if by_delta:
            rec["timestampDelta"] = str(r["timestamp"] - case["baseTimestamp"])
        else:
            rec["timestamp"] = str(r["timestamp"])
        records.append(rec)
    if rng.random() < 0.5:
        # leave out what equals the encoder's documented default (Java's producer values:
        # baseOffset 0, epoch/producer fields -1, codec none, CreateTime, offsetDelta = index)
        defaults = {"baseOffset": "0", "partitionLeaderEpoch": -1, "producerId": "-1",
                    "producerEpoch": -1, "baseSequence": -1}
        for k, v in defaults.items():
            if h[k] == v:
                del h[k]
        for k, v in {"compression": "none", "timestampType": "CreateTime", "transactional": False}.items():
            if h["attributes"][k] == v:
                del h["attributes"][k]
        for i, rec in enumerate(records):
            if rec["offsetDelta"] == i:
                del rec["offsetDelta"]
    spec = {"header": h, "records": records}
    if case["codec"] == "snappy" and rng.random() < 0.3:
        # raw (unframed) snappy, as kafkajs-snappy writes it; Java's xerial
        # SnappyInputStream reads it too (no xerial magic: one raw block)
        spec["snappyFraming"] = "raw"
    return spec


def split_segment(data):
    out, pos = [], 0
    while pos + 12 <= len(data):
        end = pos + 12 + struct.unpack_from(">i", data, pos + 8)[0]
        out.append((pos, end))
        pos = end
    return out


# ----------------------------------------------------------------------------------------
# kafka-python

def kp_build(case):
    """kafka-python's producer-side builder. It always writes baseOffset 0 and
    partitionLeaderEpoch 0 (Java's producer writes -1: harmless, the broker overwrites it),
    and it cannot set LogAppendTime or the control bit (both are the broker's)."""
    b = DefaultRecordBatchBuilder(
        magic=2, compression_type=CODEC_ID[case["codec"]], is_transactional=case["transactional"],
        producer_id=case["producerId"], producer_epoch=case["producerEpoch"],
        base_sequence=case["baseSequence"], batch_size=2**30)
    for r in case["records"]:
        meta = b.append(r["offsetDelta"], timestamp=r["timestamp"], key=r["key"], value=r["value"],
                        headers=list(r["headers"]))
        assert meta is not None and meta.timestamp == r["timestamp"]
    return bytearray(b.build())


def broker_rewrite(buf, base_offset=None, ple=None, attrs_or=0, max_ts=None):
    """What a broker does to a produced batch: assign baseOffset and partitionLeaderEpoch (both
    outside the CRC), and for LogAppendTime topics set the timestamp type and maxTimestamp and
    recompute the CRC (Java: DefaultRecordBatch.setMaxTimestamp)."""
    if base_offset is not None:
        struct.pack_into(">q", buf, BASE_OFFSET_AT, base_offset)
    if ple is not None:
        struct.pack_into(">i", buf, PLE_AT, ple)
    if attrs_or or max_ts is not None:
        attrs = struct.unpack_from(">h", buf, ATTR_AT)[0] | attrs_or
        struct.pack_into(">h", buf, ATTR_AT, attrs)
        if max_ts is not None:
            struct.pack_into(">q", buf, MAXTS_AT, max_ts)
        struct.pack_into(">I", buf, CRC_AT, calc_crc32c(bytes(buf[ATTR_AT:])))
    return buf


def kp_read(data):
    """kafka-python's consumer-side reader over one batch, as plain values."""
    # (kafka-python reads each record's attributes byte as a zigzag varint: identical to Java's
    # readByte for 0x00-0x7f, which is all any producer writes; see fixed case 4)
    b = DefaultRecordBatch(bytes(data))
    crc_ok = b.validate_crc()  # before iteration, as kafka-python requires
    recs = []
    for r in b:
        d = {"offset": r.offset, "timestamp": r.timestamp, "timestamp_type": r.timestamp_type,
             "key": hx(r.key), "value": hx(r.value),
             "headers": [[k, hx(v)] for k, v in r.headers]}
        if b.is_control_batch:
            d["control"] = {"version": r.version, "type": r.type}
        recs.append(d)
    return {
        "crc_ok": crc_ok, "base_offset": b.base_offset, "size_in_bytes": b.size_in_bytes,
        "leader_epoch": b.leader_epoch, "magic": b.magic, "compression_type": b.compression_type,
        "timestamp_type": b.timestamp_type, "is_transactional": b.is_transactional,
        "is_control_batch": b.is_control_batch, "last_offset_delta": b.last_offset_delta,
        "first_timestamp": b.first_timestamp, "max_timestamp": b.max_timestamp,
        "producer_id": b.producer_id, "producer_epoch": b.producer_epoch,
        "base_sequence": b.base_sequence, "last_sequence": b.last_sequence,
        "last_offset": b.last_offset, "records_count": b.records_count, "records": recs,
    }


def kp_expected(case, size, control=None):
    ts_type = case["timestampType"]
    recs = []
    for r in case["records"]:
        d = {"offset": case["baseOffset"] + r["offsetDelta"],
             "timestamp": case["maxTimestamp"] if ts_type == "LogAppendTime" else r["timestamp"],
             "timestamp_type": 1 if ts_type == "LogAppendTime" else 0,
             "key": hx(r["key"]), "value": hx(r["value"]),
             "headers": [[k, hx(v)] for k, v in r["headers"]]}
        if control:
            d["control"] = {"version": 0, "type": control}
        recs.append(d)
    return {
        "crc_ok": True, "base_offset": case["baseOffset"], "size_in_bytes": size,
        "leader_epoch": case["partitionLeaderEpoch"], "magic": 2,
        "compression_type": CODEC_ID[case["codec"]],
        "timestamp_type": 1 if ts_type == "LogAppendTime" else 0,
        "is_transactional": case["transactional"], "is_control_batch": control is not None,
        "last_offset_delta": case["lastOffsetDelta"], "first_timestamp": case["baseTimestamp"],
        "max_timestamp": case["maxTimestamp"], "producer_id": case["producerId"],
        "producer_epoch": case["producerEpoch"], "base_sequence": case["baseSequence"],
        "last_sequence": record_sequence(case["baseSequence"], case["lastOffsetDelta"]),
        "last_offset": case["baseOffset"] + case["lastOffsetDelta"],
        "records_count": len(case["records"]), "records": recs,
    }


# ----------------------------------------------------------------------------------------
# kafkajs (through kafkajs_peer.js)

def node(*args):
    p = subprocess.run(["node", NODE_PEER, *args], capture_output=True)
    if p.returncode != 0:
        raise RuntimeError(f"kafkajs_peer {args[0]} failed: {p.stderr.decode()[-3000:]}")
    return p.stdout


def js_case(case):
    return {
        "codec": case["codec"], "baseOffset": str(case["baseOffset"]),
        "partitionLeaderEpoch": case["partitionLeaderEpoch"],
        "baseTimestamp": str(case["baseTimestamp"]), "maxTimestamp": str(case["maxTimestamp"]),
        "lastOffsetDelta": case["lastOffsetDelta"], "transactional": case["transactional"],
        "producerId": str(case["producerId"]), "producerEpoch": case["producerEpoch"],
        "baseSequence": case["baseSequence"],
        "records": [{"offsetDelta": r["offsetDelta"],
                     "timestampDelta": str(r["timestamp"] - case["baseTimestamp"]),
                     "key": hx(r["key"]), "value": hx(r["value"]),
                     "headers": [[k, hx(v)] for k, v in r["headers"]]}
                    for r in case["records"]],
    }


ARRAY_INDEX = re.compile(r"0|[1-9][0-9]*")


def js_grouped(headers):
    """kafkajs' decoder folds a record's headers into an object {key: value | [values]}:
    Java returns the list as written. The object keeps every value and the order among equal
    keys, but groups by key and orders keys as JavaScript does (array-index keys first,
    ascending; the rest by first appearance). This is the exact image of the list under that
    fold, so the comparison stays exact."""
    groups = {}
    for k, v in headers:
        groups.setdefault(k, []).append(hx(v))
    idx = sorted((k for k in groups if ARRAY_INDEX.fullmatch(k) and int(k) < 2**32 - 1), key=int)
    return [[k, groups[k]] for k in idx] + [[k, groups[k]] for k in groups if k not in idx]


def js_expected(case, start, end, control=None):
    ts_type = case["timestampType"]
    return {
        "start": start, "end": end,
        "firstOffset": str(case["baseOffset"]), "partitionLeaderEpoch": case["partitionLeaderEpoch"],
        "lastOffsetDelta": case["lastOffsetDelta"], "firstTimestamp": str(case["baseTimestamp"]),
        "maxTimestamp": str(case["maxTimestamp"]), "producerId": str(case["producerId"]),
        "producerEpoch": case["producerEpoch"], "firstSequence": case["baseSequence"],
        "inTransaction": case["transactional"], "isControlBatch": control is not None,
        "timestampType": 1 if ts_type == "LogAppendTime" else 0,
        "records": [{
            "offset": str(case["baseOffset"] + r["offsetDelta"]),
            # kafkajs 2.2.4 does give every record maxTimestamp under LogAppendTime, as Java
            # (record/v0/decoder.js); older kafkajs releases computed base + delta.
            "timestamp": str(case["maxTimestamp"] if ts_type == "LogAppendTime" else r["timestamp"]),
            "key": hx(r["key"]), "value": hx(r["value"]), "attributes": 0,
            "isControlRecord": control is not None,
            "headers": js_grouped(r["headers"]),
        } for r in case["records"]],
    }


# ----------------------------------------------------------------------------------------
# The runs

def expected_issues(cases):
    """The issues eoslab must raise for these batches, and no others. Java's
    LogValidator.validateBatch refuses a produced batch whose offset range does not match its
    record count (`Inconsistent batch offset range`); compaction leaves such batches, so a
    reader only warns. Our gapped offset deltas trigger exactly that."""
    out = []
    for i, c in enumerate(cases):
        if c["lastOffsetDelta"] + 1 != len(c["records"]):
            out.append((i, "InvalidRecordException", "warning", "Inconsistent batch offset range"))
    return out


def check_segment_shape(tally, group, report, cases, data_len):
    problems = []
    if len(report["batches"]) != len(cases):
        problems.append(f"eoslab found {len(report['batches'])} batches, expected {len(cases)}")
    want = expected_issues(cases)
    got = [(e.get("batch"), e["kind"], e["severity"], e["message"]) for e in report["errors"]]
    for w in want:
        if not any(g[:3] == w[:3] and g[3].startswith(w[3]) for g in got):
            problems.append(f"eoslab did not report {w}")
    for g in got:
        if not any(g[:3] == w[:3] and g[3].startswith(w[3]) for w in want):
            problems.append(f"eoslab reported {g}")
    if report["length"] != data_len:
        problems.append(f"length {report['length']} != {data_len}")
    tally.check(group, "segment", problems)


def dir1_kafka_python(rng, tally, tmp, stats):
    group = "kafka-python -> eoslab"
    cases = [gen_case(rng, f"kp-enc-{i}", CODECS) for i in range(N)]
    coverage(stats, cases)
    blobs, expects = [], []
    for case in cases:
        buf = kp_build(case)
        # kafka-python deviation: when compressing does not make the records smaller it
        # silently writes them uncompressed (codec bits 0; DefaultRecordBatchBuilder.
        # _maybe_compress). Java always writes the requested codec. What kafka-python wrote is
        # read back with its own reader; only "requested codec or none" is accepted.
        written = DefaultRecordBatch(bytes(buf)).compression_type
        assert written in (CODEC_ID[case["codec"]], 0), written
        codec = ALL_CODECS[written]
        stats[f"kafka-python wrote {codec}"] = stats.get(f"kafka-python wrote {codec}", 0) + 1
        # kafka-python deviation: partitionLeaderEpoch 0 where Java's producer writes -1
        # (harmless: the broker overwrites it). Half the batches get baseOffset and epoch
        # assigned as a broker does (outside the CRC); the rest are compared with the bytes
        # kafka-python wrote: baseOffset 0, epoch 0.
        if rng.random() < 0.5:
            broker_rewrite(buf, base_offset=case["baseOffset"], ple=case["partitionLeaderEpoch"])
            bo, ple = case["baseOffset"], case["partitionLeaderEpoch"]
        else:
            bo, ple = 0, 0
        blobs.append(bytes(buf))
        expects.append(expected_report(case, compression=codec, base_offset=bo, ple=ple, raw_bytes=buf))
    seg = b"".join(blobs)
    report = eoslab_decode(seg, tmp, "kp-enc")
    check_segment_shape(tally, group, report, cases, len(seg))
    # the CLI takes hex text as well: the first batches, as hex, must decode to the same
    head = sum(len(b) for b in blobs[:40])
    as_bin = eoslab_decode(seg[:head], tmp, "kp-enc-head")
    as_hex = eoslab_decode(seg[:head].hex().encode() + b"\n", tmp, "kp-enc-hex")
    tally.check("eoslab hex input", "40 batches as hex text",
                diff({"format": "hex", "length": head, "batches": as_bin["batches"],
                      "errors": as_bin["errors"]}, as_hex))
    pos = 0
    for case, blob, exp, got in zip(cases, blobs, expects, report["batches"]):
        exp = dict(exp, start=pos, end=pos + len(blob))
        if exp["decompressed"]:
            exp["decompressed"] = dict(exp["decompressed"], compressedStart=pos + 61, compressedEnd=pos + len(blob))
        pos += len(blob)
        tally.check(group, case["name"], diff(exp, got))


def dir1_kafkajs(rng, tally, tmp, stats):
    group = "kafkajs -> eoslab"
    # (kafkajs-snappy writes raw snappy blocks, not the xerial framing Java's producer writes;
    # Java's SnappyInputStream reads both, so eoslab must too: nothing to special-case.)
    # kafkajs deviation: its record encoder crashes on a null header value
    # (record/v0/index.js sizeOfHeaders calls Buffer.byteLength(null) before its null check),
    # so kafkajs cannot write what Java writes for `new RecordHeader(k, null)`: no null
    # header values in the batches kafkajs encodes.
    cases = [gen_case(rng, f"js-enc-{i}", CODECS, null_header_values=False) for i in range(N)]
    coverage(stats, cases)
    path = os.path.join(tmp, "js-enc-cases.json")
    with open(path, "w") as f:
        json.dump([js_case(c) for c in cases], f)
    seg_path, meta_path = os.path.join(tmp, "js-enc.bin"), os.path.join(tmp, "js-enc-meta.json")
    node("encode", path, seg_path, meta_path)
    with open(seg_path, "rb") as f:
        seg = f.read()
    with open(meta_path) as f:
        meta = json.load(f)
    report = eoslab_decode(seg, tmp, "js-enc-check")
    check_segment_shape(tally, group, report, cases, len(seg))
    ranges = split_segment(seg)
    for case, (start, end), m, got in zip(cases, ranges, meta, report["batches"]):
        # kafkajs deviation: it takes headers as an object, so they reach the wire grouped by
        # key in JavaScript property order (see js_grouped). The expected order is what kafkajs
        # says it wrote (its own flattening); that this is the grouped image of the requested
        # list is checked too, so no header can go missing unnoticed.
        written = [[(k, bytes.fromhex(v) if v is not None else None) for k, v in hs] for hs in m["headers"]]
        problems = []
        for r, w in zip(case["records"], written):
            if js_grouped(w) != js_grouped(r["headers"]):
                problems.append(f"kafkajs wrote headers {w!r} for {r['headers']!r}")
        exp = expected_report(case, compression=case["codec"], base_offset=case["baseOffset"],
                              ple=case["partitionLeaderEpoch"], raw_bytes=seg[start:end],
                              headers_written=written)
        exp = dict(exp, start=start, end=end)
        if exp["decompressed"]:
            exp["decompressed"] = dict(exp["decompressed"], compressedStart=start + 61, compressedEnd=end)
        tally.check(group, case["name"], problems + diff(exp, got))


def dir2(rng, tally, tmp, stats):
    """eoslab encodes; kafka-python and kafkajs decode the same segment."""
    cases = [gen_case(rng, f"eos-enc-{i}", CODECS) for i in range(N)]
    for c in cases:
        # LogAppendTime: the broker sets maxTimestamp to its clock, unrelated to the records
        if rng.random() < 0.1:
            c["timestampType"] = "LogAppendTime"
            c["maxTimestamp"] = rng.choice([c["maxTimestamp"] + rng.randint(1, 10**6),
                                            rng.randint(0, 2**62)])
    coverage(stats, cases)
    specs = [to_spec(c, rng) for c in cases]
    stats["raw snappy (eoslab encode)"] = sum("snappyFraming" in sp for sp in specs)
    seg = eoslab_encode(specs, tmp, "eos-enc")
    p = subprocess.run([EOSLAB, "encode", os.path.join(tmp, "eos-enc.json")], capture_output=True)
    tally.check("eoslab -> *", "hex output equals binary output",
                diff(seg.hex() + "\n", p.stdout.decode()) + diff(0, p.returncode))
    ranges = split_segment(seg)
    tally.check("eoslab -> *", "segment splits into batches",
                [] if len(ranges) == len(cases) and (not ranges or ranges[-1][1] == len(seg))
                else [f"{len(ranges)} batch ranges for {len(cases)} specs"])
    for case, (start, end) in zip(cases, ranges):
        try:
            got = kp_read(seg[start:end])
        except Exception as e:  # noqa: BLE001: a peer refusing our bytes is a failure
            tally.check("eoslab -> kafka-python", case["name"], [f"kafka-python raised {e!r}"])
            continue
        tally.check("eoslab -> kafka-python", case["name"], diff(kp_expected(case, end - start), got))
    js = json.loads(node("decode", os.path.join(tmp, "eos-enc.bin")))
    for i, (case, (start, end)) in enumerate(zip(cases, ranges)):
        if i >= len(js) or "error" in js[i]:
            tally.check("eoslab -> kafkajs", case["name"],
                        [f"kafkajs failed: {js[i]['error'][:500] if i < len(js) else 'no batch'}"])
            continue
        got = js[i]
        exp = js_expected(case, start, end)
        # kafkajs deviation: its decoder never verifies the CRC; kafkajs' own CRC-32C over the
        # batch stands in for it.
        exp["crcKafkajs"] = got["crcStored"]
        tally.check("eoslab -> kafkajs", case["name"], diff(exp, got))


def fixed_cases(tally, tmp):
    def base(name, **kw):
        c = gen_case(random.Random(name), name, ["none"])
        c.update(kw)
        return c

    # 1. The sequence wrap: baseSequence 2^31-2 and 4 records -> 2147483646, 2147483647, 0, 1.
    wrap = base("seq-wrap", producerId=4242, producerEpoch=3, baseSequence=2147483646,
                transactional=False, baseOffset=1000, partitionLeaderEpoch=5)
    wrap["records"] = [dict(r, offsetDelta=i, headers=[]) for i, r in enumerate(wrap["records"][:1] * 4)]
    wrap["records"] = [dict(r, timestamp=1_700_000_000_000 + i) for i, r in enumerate(wrap["records"])]
    wrap.update(lastOffsetDelta=3, baseTimestamp=1_700_000_000_000, maxTimestamp=1_700_000_000_003)
    want_seqs = [2147483646, 2147483647, 0, 1]

    # kafka-python writes it (broker assigns offsets), eoslab reads it
    buf = broker_rewrite(kp_build(wrap), base_offset=1000, ple=5)
    rep = eoslab_decode(bytes(buf), tmp, "fx-wrap-kp")
    got = [r["sequence"] for r in rep["batches"][0]["records"]] if rep["batches"] else None
    tally.check("fixed", "seq-wrap kafka-python -> eoslab",
                diff(want_seqs, got) + diff(1, rep["batches"][0]["header"]["lastSequence"] if rep["batches"] else None)
                + diff(expected_report(wrap, compression="none", base_offset=1000, ple=5, raw_bytes=buf),
                       rep["batches"][0] if rep["batches"] else None))
    # eoslab writes it, kafka-python reads it (kafka-python exposes lastSequence only)
    seg = eoslab_encode([to_spec(wrap, random.Random(1))], tmp, "fx-wrap-eos")
    got = kp_read(seg)
    tally.check("fixed", "seq-wrap eoslab -> kafka-python",
                diff(kp_expected(wrap, len(seg)), got) + diff(1, got["last_sequence"]))

    # 2. LogAppendTime: a broker stamps maxTimestamp; Java (DefaultRecordBatch) then reports it
    # for every record, and so must eoslab. kafka-python writes the batch, the broker rewrite
    # sets the type and maxTimestamp and recomputes the CRC.
    lat = base("log-append-time", transactional=False, producerId=-1, producerEpoch=-1,
               baseSequence=-1, baseOffset=77, partitionLeaderEpoch=2)
    lat_ts = 1_800_000_000_123
    buf = broker_rewrite(kp_build(lat), base_offset=77, ple=2, attrs_or=ATTR_LOG_APPEND_TIME, max_ts=lat_ts)
    lat_b = dict(lat, maxTimestamp=lat_ts, timestampType="LogAppendTime")
    rep = eoslab_decode(bytes(buf), tmp, "fx-lat")
    tally.check("fixed", "LogAppendTime kafka-python(+broker) -> eoslab",
                diff(expected_report(lat_b, compression="none", base_offset=77, ple=2,
                                     raw_bytes=buf, ts_type="LogAppendTime"),
                     rep["batches"][0] if rep["batches"] else None)
                + diff([str(lat_ts)] * len(lat["records"]),
                       [r["timestamp"] for r in rep["batches"][0]["records"]] if rep["batches"] else None))
    # kafka-python's reader agrees (a cross-check of the expectation itself)
    tally.check("fixed", "LogAppendTime kafka-python(+broker) -> kafka-python",
                diff(kp_expected(lat_b, len(buf)), kp_read(buf)))
    # eoslab writes a LogAppendTime batch; both peers and eoslab itself read it back
    seg = eoslab_encode([to_spec(lat_b, random.Random(2))], tmp, "fx-lat-eos")
    tally.check("fixed", "LogAppendTime eoslab -> kafka-python", diff(kp_expected(lat_b, len(seg)), kp_read(seg)))
    js = json.loads(node("decode", os.path.join(tmp, "fx-lat-eos.bin")))
    exp = js_expected(lat_b, 0, len(seg))
    exp["crcKafkajs"] = js[0].get("crcStored")
    tally.check("fixed", "LogAppendTime eoslab -> kafkajs", diff(exp, js[0]))
    rep = eoslab_decode(seg, tmp, "fx-lat-self")
    tally.check("fixed", "LogAppendTime eoslab -> eoslab",
                diff(expected_report(lat_b, compression="none", base_offset=77, ple=2, raw_bytes=seg,
                                     ts_type="LogAppendTime"), rep["batches"][0]))

    # 3. Transaction markers. eoslab writes COMMIT and ABORT (MemoryRecords.
    # writeEndTransactionalMarker: one record, key = version 0 + type, value = EndTxnMarker
    # version 0 + coordinatorEpoch), the peers read them.
    for ctype, type_id, epoch in (("COMMIT", 1, 17), ("ABORT", 0, 2**31 - 1)):
        marker = base(f"marker-{ctype}", transactional=True, producerId=99001, producerEpoch=7,
                      baseSequence=-1, baseOffset=5000, partitionLeaderEpoch=3)
        ts = 1_700_000_123_456
        key, value = struct.pack(">hh", 0, type_id), struct.pack(">hi", 0, epoch)
        marker["records"] = [{"offsetDelta": 0, "timestamp": ts, "key": key, "value": value, "headers": []}]
        marker.update(lastOffsetDelta=0, baseTimestamp=ts, maxTimestamp=ts)
        spec = {"header": {"baseOffset": "5000", "partitionLeaderEpoch": 3, "producerId": "99001",
                           "producerEpoch": 7, "attributes": {"compression": "none"}},
                "control": {"type": ctype, "coordinatorEpoch": epoch},
                "records": [{"timestamp": str(ts)}]}
        seg = eoslab_encode([spec], tmp, f"fx-{ctype}")
        got = kp_read(seg)
        problems = diff(kp_expected(marker, len(seg), control=type_id), got)
        problems += diff(value.hex(), got["records"][0]["value"] if got["records"] else None)
        tally.check("fixed", f"{ctype} marker eoslab -> kafka-python", problems)
        js = json.loads(node("decode", os.path.join(tmp, f"fx-{ctype}.bin")))
        exp = js_expected(marker, 0, len(seg), control=type_id)
        exp["crcKafkajs"] = js[0].get("crcStored")
        tally.check("fixed", f"{ctype} marker eoslab -> kafkajs", diff(exp, js[0]))
        # and the other way: kafka-python has no marker writer (markers are the broker's), so
        # its builder writes the marker record and the broker rewrite sets the control bit.
        buf = broker_rewrite(kp_build(marker), base_offset=5000, ple=3, attrs_or=ATTR_CONTROL)
        rep = eoslab_decode(bytes(buf), tmp, f"fx-{ctype}-kp")
        b = rep["batches"][0] if rep["batches"] else {}
        exp = expected_report(marker, compression="none", base_offset=5000, ple=3, raw_bytes=buf, control=True)
        exp["control"] = {"type": ctype, "typeId": type_id, "version": 0, "coordinatorEpoch": epoch,
                          "markerVersion": 0}
        tally.check("fixed", f"{ctype} marker kafka-python(+broker) -> eoslab", diff(exp, b) + diff([], rep["errors"]))
        tally.check("fixed", f"{ctype} marker kafka-python(+broker) -> kafka-python",
                    diff(kp_expected(marker, len(buf), control=type_id), kp_read(buf)))

    # 4. Record attributes. Java reads the byte and ignores it (DefaultRecord.readFrom), writes
    # 0. kafka-python deviation: it reads the byte as a zigzag varint (_read_msg), identical
    # for 0x00-0x7f and misreading 0x80-0xff; so 0x7f, the largest both agree on, is written.
    attr = base("record-attributes-0x7f", producerId=-1, producerEpoch=-1, baseSequence=-1,
                transactional=False, baseOffset=9, partitionLeaderEpoch=0)
    spec = to_spec(attr, random.Random(3))
    for r in spec["records"]:
        r["attributes"] = 0x7f
    seg = eoslab_encode([spec], tmp, "fx-attr")
    tally.check("fixed", "record attributes 0x7f eoslab -> kafka-python", diff(kp_expected(attr, len(seg)), kp_read(seg)))
    js = json.loads(node("decode", os.path.join(tmp, "fx-attr.bin")))
    exp = js_expected(attr, 0, len(seg))
    for r in exp["records"]:
        r["attributes"] = 0x7f
    exp["crcKafkajs"] = js[0].get("crcStored")
    tally.check("fixed", "record attributes 0x7f eoslab -> kafkajs", diff(exp, js[0]))
    rep = eoslab_decode(seg, tmp, "fx-attr-self")
    tally.check("fixed", "record attributes 0x7f eoslab -> eoslab",
                diff([0x7f] * len(attr["records"]), [r["attributes"] for r in rep["batches"][0]["records"]]))

    # 5. Header keys that name Object.prototype members. Java: any string. kafkajs deviation:
    # its decoder folds headers with `obj[key] === undefined ? value : [obj[key], value]` on a
    # plain object, so "constructor" or "__proto__" is taken for a repeated key and its value
    # comes back as [Object.prototype member, value] (kafkajs_peer.js shows a non-Buffer as
    # "<function>"/"<object>"). kafka-python and eoslab keep them as Java does.
    proto = base("header-key-constructor", producerId=-1, producerEpoch=-1, baseSequence=-1,
                 transactional=False, baseOffset=0, partitionLeaderEpoch=0)
    proto["records"] = proto["records"][:1]
    proto["records"][0]["headers"] = [("constructor", b"\x01"), ("__proto__", b"\x02"), ("ok", b"\x03")]
    proto.update(lastOffsetDelta=proto["records"][0]["offsetDelta"],
                 baseTimestamp=proto["records"][0]["timestamp"], maxTimestamp=proto["records"][0]["timestamp"])
    seg = eoslab_encode([to_spec(proto, random.Random(4))], tmp, "fx-proto")
    tally.check("fixed", "header key 'constructor' eoslab -> kafka-python", diff(kp_expected(proto, len(seg)), kp_read(seg)))
    js = json.loads(node("decode", os.path.join(tmp, "fx-proto.bin")))
    exp = js_expected(proto, 0, len(seg))
    exp["records"][0]["headers"] = [["constructor", ["<function>", "01"]], ["__proto__", ["<object>", "02"]], ["ok", ["03"]]]
    exp["crcKafkajs"] = js[0].get("crcStored")
    tally.check("fixed", "header key 'constructor' eoslab -> kafkajs (kafkajs deviation)", diff(exp, js[0]))
    rep = eoslab_decode(seg, tmp, "fx-proto-self")
    tally.check("fixed", "header key 'constructor' eoslab -> eoslab",
                diff(expected_report(proto, compression="none", base_offset=proto["baseOffset"],
                                     ple=0, raw_bytes=seg), rep["batches"][0]))

    # 6. Empty batches: compaction can leave a batch with no records that keeps its header
    # (DefaultRecordBatch.writeEmptyHeader: producer state, offsets and timestamps kept).
    empty_spec = {"header": {"baseOffset": "123456789", "partitionLeaderEpoch": 4, "lastOffsetDelta": 9,
                             "baseTimestamp": "1700000000000", "maxTimestamp": "1700000000999",
                             "producerId": "31337", "producerEpoch": 2, "baseSequence": INT32_MAX - 4,
                             "attributes": {"compression": "none", "transactional": True}},
                  "records": []}
    seg = eoslab_encode([empty_spec], tmp, "fx-empty")
    empty = {"baseOffset": 123456789, "partitionLeaderEpoch": 4, "lastOffsetDelta": 9,
             "baseTimestamp": 1700000000000, "maxTimestamp": 1700000000999, "producerId": 31337,
             "producerEpoch": 2, "baseSequence": INT32_MAX - 4, "transactional": True,
             "codec": "none", "timestampType": "CreateTime", "records": []}
    tally.check("fixed", "empty batch eoslab -> kafka-python",
                diff(kp_expected(empty, len(seg)), kp_read(seg)) + diff(4, kp_read(seg)["last_sequence"]))
    js = json.loads(node("decode", os.path.join(tmp, "fx-empty.bin")))
    exp = js_expected(empty, 0, len(seg))
    exp["crcKafkajs"] = js[0].get("crcStored")
    tally.check("fixed", "empty batch eoslab -> kafkajs", diff(exp, js[0]))
    rep = eoslab_decode(seg, tmp, "fx-empty-self")
    # lastOffsetDelta 9 with no records is what LogValidator.validateBatch refuses from a
    # producer ("Inconsistent batch offset range"): a warning, as for any gapped batch
    tally.check("fixed", "empty batch eoslab -> eoslab",
                diff(expected_report(empty, compression="none", base_offset=123456789, ple=4, raw_bytes=seg),
                     rep["batches"][0])
                + diff([(0, "InvalidRecordException", "warning", "Inconsistent batch offset range")],
                       [(e.get("batch"), e["kind"], e["severity"], e["message"][:31]) for e in rep["errors"]]))


def tshark_step(tally, tmp):
    """Wireshark's Kafka dissector (tests/diff/tshark.py); tshark is installed by
    scripts/ensure-test-tools.sh, so a missing one is a failure, not a skip."""
    import shutil
    if not shutil.which("tshark") or not shutil.which("text2pcap"):
        tally.check("messages (tshark)", "tshark installed", ["tshark/text2pcap not found (scripts/ensure-test-tools.sh installs Debian's tshark)"])
        return
    fx = os.path.join(ROOT, "tests", "fixtures")
    stats = tshark.run(EOSLAB, tally, tmp, os.path.join(fx, "envelopes-4.3.1"), os.path.join(fx, "capture-4.3.1"))
    print(tshark.report(stats))
    for line in capture_pairs.run(EOSLAB, tally, tmp, os.path.join(fx, "capture-4.3.1", "capture.pcapng")):
        print(line)


def main():
    t0 = time.time()
    tally, stats = Tally(), {}
    print(f"diff: seed {SEED}, {N} random batches per peer and direction, codecs {','.join(CODECS)}")
    with tempfile.TemporaryDirectory(prefix="eoslab-diff-") as tmp:
        steps = [
            ("kafka-python encodes, eoslab decodes", lambda: dir1_kafka_python(random.Random(SEED * 10 + 1), tally, tmp, stats)),
            ("kafkajs encodes, eoslab decodes", lambda: dir1_kafkajs(random.Random(SEED * 10 + 2), tally, tmp, stats)),
            ("eoslab encodes, kafka-python and kafkajs decode", lambda: dir2(random.Random(SEED * 10 + 3), tally, tmp, stats)),
            ("fixed cases", lambda: fixed_cases(tally, tmp)),
            ("kafka-python encodes requests/responses, eoslab decodes", lambda: messages.run(EOSLAB, tally, tmp, SEED * 10 + 4)),
            ("tshark dissects Kafka's requests/responses, eoslab decodes", lambda: tshark_step(tally, tmp)),
        ]
        for title, step in steps:
            t = time.time()
            try:
                step()
            except Exception as e:  # noqa: BLE001: one broken step must not hide the others
                import traceback
                tally.check("harness", title, [f"{type(e).__name__}: {e}", traceback.format_exc()[-2000:]])
            print(f"  {title}: {time.time() - t:.1f}s")
    for g, (p, f) in tally.by_group.items():
        print(f"  {g:32s} {p:5d} passed {f:4d} failed")
    if stats:
        print("  exercised: " + ", ".join(f"{k} {v}" for k, v in sorted(stats.items())))
    shown = 0
    for group, name, problems in tally.failures:
        if not VERBOSE and shown >= 15:
            print(f"  … {len(tally.failures) - shown} more failures (DIFF_VERBOSE=1 shows all)")
            break
        shown += 1
        print(f"FAIL [{group}] {name}")
        for p in problems[: None if VERBOSE else 8]:
            print(f"    {p}")
        if not VERBOSE and len(problems) > 8:
            print(f"    … {len(problems) - 8} more")
    print(f"  ({time.time() - t0:.1f}s; reproduce with DIFF_SEED={SEED})")
    print(f"diff: {tally.passed} passed, {tally.failed} failed")
    return 1 if tally.failed else 0


if __name__ == "__main__":
    sys.exit(main())
