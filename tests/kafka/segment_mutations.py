#!/usr/bin/env python3
"""`eoslab dump-log` against Kafka's own DumpLogSegments on `.log` segments damaged field by field.

dump_log_mutations.py damages the broker fixtures at random; this damages the `.log` segments of
two of them (txn-0: transactional batches and control markers; compressed-0: compressed batches)
systematically, each case on a fresh copy of the partition directory:

  - cuts: the file cut at every field boundary of the first batch header (0..61) and one byte into each field, inside and at the end of
    the first batch's records, and inside the second batch's header;
  - every field of the first and second batch header (baseOffset, batchLength,
    partitionLeaderEpoch, magic, crc, attributes, lastOffsetDelta, baseTimestamp, maxTimestamp,
    producerId, producerEpoch, baseSequence, recordsCount) with its bytes inverted;
  - chosen values: batchLength 0x7fffffff (past the end), -1, 0, 10, 11, 12 and 16 (shorter than
    a header); magic 0, 1, 3 and -1; a CRC off by one; attributes of compression 5 and 7, of
    every bit set; lastOffsetDelta -1 and 0x7fffffff; recordsCount -1, 0, one more, one less and
    0x7fffffff; a record's length varint made huge;
  - zeros: the whole file zeroed, 1, 12, 16 and 100 zero bytes alone, and 4096 zero bytes after
    the batches (a preallocated segment).

Each damaged file is dumped with `--deep-iteration --print-data-log` (every record read, so the
records count, lengths and CRC are all exercised) and, for the header fields, also without flags
(the shallow iteration that only reads batch headers). Both tools' standard output, standard
error (less Kafka's stack trace and eoslab's `eoslab: <kind> at byte N` line) and exit status
must be equal, so the exception name, its message and every offset Kafka prints are compared.
A difference is kept in target/dump-log-mutations/segment-<case>/ (Kafka wins).

Standard library only. Needs scripts/ensure-kafka.sh (4.3.1) and the CLI built.
    python3 tests/kafka/segment_mutations.py [--only SUBSTRING]
"""
import argparse
import os
import shutil
import struct
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import dump_log_mutations as dlm  # noqa: E402

SEGMENT = "00000000000000000000.log"
DIRS = ("txn-0", "compressed-0")
# The v2 batch header (DefaultRecordBatch): name, offset, size.
FIELDS = [("baseOffset", 0, 8), ("batchLength", 8, 4), ("partitionLeaderEpoch", 12, 4), ("magic", 16, 1),
          ("crc", 17, 4), ("attributes", 21, 2), ("lastOffsetDelta", 23, 4), ("baseTimestamp", 27, 8),
          ("maxTimestamp", 35, 8), ("producerId", 43, 8), ("producerEpoch", 51, 2), ("baseSequence", 53, 2 + 2),
          ("recordsCount", 57, 4)]
HEADER = 61


def batches(b):
    """The start of every batch in a segment (its length field says where the next starts)."""
    out, pos = [], 0
    while pos + 12 <= len(b):
        out.append(pos)
        pos += 12 + struct.unpack_from(">i", b, pos + 8)[0]
    return out


def put(b, at, fmt, v):
    b = bytearray(b)
    struct.pack_into(fmt, b, at, v)
    return bytes(b)


def cases(b, full=True):
    """(name, damaged bytes, flag sets) for one segment."""
    deep = [["--deep-iteration", "--print-data-log"]]
    both = [[], ["--deep-iteration", "--print-data-log"]]
    starts = batches(b)
    first, second = starts[0], starts[1]
    end1 = second
    out = []
    # Every field boundary of the header, the byte before it and the one after it.
    cuts = sorted({x for _, off, size in FIELDS for x in (off, off + 1, off + size - 1)} | {1, 4, 12, 16, HEADER})
    for n in cuts[:: 1 if full else 4] + [HEADER + 5, (HEADER + end1) // 2, end1 - 1, end1, second + 8, second + 20,
                                           second + HEADER - 1, len(b) - 1]:
        out.append((f"cut-{n}", b[:n], deep))
    for base, label in ((first, "batch0"), (second, "batch1")):
        for name, off, size in FIELDS:
            d = bytearray(b)
            for i in range(base + off, base + off + size):
                d[i] ^= 0xFF
            out.append((f"{label}-{name}-inverted", bytes(d), both if label == "batch0" else deep))
    L = first + 8
    for v in (0x7FFFFFFF, -1, 0, 10, 11, 12, 16):
        out.append((f"batchLength-{v}", put(b, L, ">i", v), both))
    for v in (0, 1, 3, -1):
        out.append((f"magic-{v}", put(b, first + 16, ">b", v), both))
    crc = struct.unpack_from(">I", b, first + 17)[0]
    out.append(("crc-plus-1", put(b, first + 17, ">I", (crc + 1) & 0xFFFFFFFF), both))
    attrs = struct.unpack_from(">h", b, first + 21)[0]
    for v, label in (((attrs & ~7) | 5, "compression-5"), ((attrs & ~7) | 7, "compression-7"), (-1, "all-bits")):
        out.append((f"attributes-{label}", put(b, first + 21, ">h", v), both))
    for v in (-1, 0x7FFFFFFF):
        out.append((f"lastOffsetDelta-{v}", put(b, first + 23, ">i", v), both))
    count = struct.unpack_from(">i", b, first + 57)[0]
    for v in (-1, 0, count + 1, count - 1, 0x7FFFFFFF):
        out.append((f"recordsCount-{v}", put(b, first + 57, ">i", v), both))
    attrs_compressed = attrs & 7
    if not attrs_compressed:
        d = bytearray(b)
        d[first + HEADER:first + HEADER + 5] = b"\xfe\xff\xff\xff\x0f"  # zigzag varint 2^31-1
        out.append(("record-length-huge", bytes(d), deep))
    out.append(("all-zeros", bytes(len(b)), both))
    for n in (1, 12, 16, 100):
        out.append((f"zeros-{n}", bytes(n), both))
    out.append(("zeros-4096-after", b + bytes(4096), both))
    return out


# Cases known to differ, not yet fixed in eoslab's dump-log: (case-name pattern, Kafka's behaviour).
# Each is counted and printed; a case of the list that no longer differs fails the run (remove
# it here), and any other difference fails it.
COMPRESSION = ("a compression id Kafka does not know (5-7; an inverted or negative magic, or magic 0 or 1, "
               "make the batch a legacy one whose attributes byte names one): DumpLogSegments.printBatchLevel "
               "throws IllegalArgumentException `Unknown compression type id: N` (CompressionType.forId) in "
               "the middle of the batch line, or LegacyRecord `Invalid magic used in LegacyRecord: -1`; eoslab "
               "prints `compresscodec: unknown(N)` and goes on, or throws CorruptRecordException `Invalid magic "
               "found in record`")
MAGIC3 = ("magic 3: FileLogInputStream reads any magic above 1 as a v2 batch and Kafka prints it (magic: 3, "
          "isvalid: true); eoslab throws `Invalid magic found in record: 3`")
LENGTH16 = ("a batchLength of 16 (less than the v2 header): Kafka reads the header fields past the batch's end "
            "out of the file and prints them, then IndexOutOfBoundsException in DefaultRecordBatch.count() under "
            "--deep-iteration; eoslab refuses the batch at once (`Record batch is corrupt (the size 28 is smaller "
            "than the minimum allowed overhead 61)`)")
COUNT = ("a records count other than the records there: Kafka's RecordIterator.next throws (`records still "
         "remaining`) before it returns the last declared record, and DefaultRecordBatch.iterator reads a "
         "compressed batch whole (into an ArrayList of `count()`: OutOfMemoryError for 2^31-1) before the first "
         "record is printed; eoslab prints the records it read, then throws")
# Cases known to differ, not yet fixed in eoslab's dump-log: case name -> Kafka's behaviour. Each is
# counted and printed; a listed case that no longer differs fails the run (remove it here), and
# any other difference fails it.
KNOWN = {}
for d in DIRS:
    for c in ("batch0-magic-inverted", "batch0-attributes-inverted", "batch1-magic-inverted",
              "batch1-attributes-inverted", "magic-0", "magic-1", "magic--1", "attributes-compression-5",
              "attributes-compression-7", "attributes-all-bits"):
        for shallow in ("", "-shallow"):
            KNOWN[f"{d}-{c}{shallow}"] = COMPRESSION
    for c in ("magic-3", "batchLength-16"):
        for shallow in ("", "-shallow"):
            KNOWN[f"{d}-{c}{shallow}"] = MAGIC3 if c == "magic-3" else LENGTH16
for c in ("compressed-0-magic-0-shallow", "compressed-0-magic-1-shallow", "txn-0-batch1-magic-inverted-shallow",
          "txn-0-batch1-attributes-inverted-shallow", "compressed-0-batch1-magic-inverted-shallow",
          "compressed-0-batch1-attributes-inverted-shallow"):
    del KNOWN[c]
for c in ("txn-0-recordsCount-1", "compressed-0-recordsCount-4", "compressed-0-recordsCount-2",
          "compressed-0-recordsCount-2147483647"):
    KNOWN[c] = COUNT


def known(case):
    return KNOWN.get(case)


def run(only=None):
    """Returns the number of cases where the two tools differ."""
    if not os.path.exists(dlm.EOSLAB):
        raise RuntimeError(f"{dlm.EOSLAB} missing: cargo build --release -p eoslab-cli")
    t0 = time.monotonic()
    differ = total = 0
    seen = {}
    # Every case costs one JVM (about 1.5 s): `make test` runs an even sample of them, every
    # kind of damage included (EOSLAB_KAFKA_SEGMENT_CASES, default 120; 0 = all, as kafka-nightly).
    plan = []
    for d in DIRS:
        with open(os.path.join(dlm.FIXTURES, d, SEGMENT), "rb") as fh:
            orig = fh.read()
        # Cuts at every header field only in the first fixture; the fields in both.
        for name, damaged, flag_sets in cases(orig, full=d == DIRS[0]):
            for flags in flag_sets:
                case = f"{d}-{name}" + ("-shallow" if not flags else "")
                if not only or only in case:
                    plan.append((d, name, damaged, flags, case))
    limit = int(os.environ.get("EOSLAB_KAFKA_SEGMENT_CASES", "120"))
    if only is None and 0 < limit < len(plan):
        stride = len(plan) / limit
        plan = [plan[int(i * stride)] for i in range(limit)]
    with tempfile.TemporaryDirectory(prefix="eoslab-segments-") as tmp:
        for d, name, damaged, flags, case in plan:
            total += 1
            work = os.path.join(tmp, case)
            shutil.copytree(os.path.join(dlm.FIXTURES, d), os.path.join(work, d),
                            ignore=shutil.ignore_patterns("*.txt"))
            with open(os.path.join(work, d, SEGMENT), "wb") as fh:
                fh.write(damaged)
            args = ["--files", f"{d}/{SEGMENT}", *flags]
            same = dlm.compare(work, d, SEGMENT, name, args, f"segment-{case}", quiet=bool(known(case)))
            why = known(case)
            if why and not same:
                seen[why] = seen.get(why, 0) + 1
            elif why:
                print(f"segment {case}: listed as a known difference but agrees with Kafka now", flush=True)
                differ += 1
            elif not same:
                differ += 1
            shutil.rmtree(work)
    for why in sorted(set(KNOWN.values())):
        print(f"known difference ({seen.get(why, 0)} case(s)): {why}", flush=True)
    print(f"segment mutations: {total} damaged .log segments, {differ} differ from Kafka {dlm.VERSION}'s "
          f"DumpLogSegments ({time.monotonic() - t0:.0f}s)", flush=True)
    return differ


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--only", help="only the cases whose name contains this")
    a = ap.parse_args(argv)
    return 1 if run(a.only) else 0


if __name__ == "__main__":
    sys.exit(main())
