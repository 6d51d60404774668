"""kafka-python's consumer-side record decoding over the bench corpus (part of `make bench`).

    .venv/bin/python benches/py/kafka_python_bench.py [--reps N] [--out FILE]

kafka-python's Fetcher does exactly this per fetched partition: MemoryRecords(bytes), then for
each batch `validate_crc()` (check_crcs=True is the default) and iteration over the records. Every
record's offset, timestamp, key, value and headers are read into a digest that must equal the
generator's (benches/target/corpus.json).

kafka-python computes CRC-32C with the `crc32c` C extension when it is importable (its
documented optional extra) and with pure Python otherwise. Both are measured:
`kafka-python` uses the extension (benches/requirements.txt, installed by benches/run.sh into
benches/target/pylib, outside the shared .venv), `kafka-python-purecrc` the pure-Python fallback
(what tests/diff's requirements give), with a time budget since it is slow.
"""
import json
import os
import statistics
import sys
import time

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
TARGET = os.path.join(ROOT, "benches", "target")
sys.path.insert(0, os.path.join(TARGET, "pylib"))  # the crc32c extension, if run.sh installed it

import kafka  # noqa: E402
from kafka.record import default_records, util  # noqa: E402
from kafka.record.memory_records import MemoryRecords  # noqa: E402
from kafka.record._crc32c import crc as crc32c_py  # noqa: E402


def arg(name, default):
    if f"--{name}" in sys.argv:
        return sys.argv[sys.argv.index(f"--{name}") + 1]
    return default


def digest(data, base_ts):
    d = dict(batches=0, records=0, keyBytes=0, valueBytes=0, headers=0, headerBytes=0, offsetSum=0, timestampSum=0)
    recs = MemoryRecords(data)
    while recs.has_next():
        batch = recs.next_batch()
        if not batch.validate_crc():
            raise SystemExit(f"kafka-python: CRC mismatch in batch {d['batches']}")
        d["batches"] += 1
        for r in batch:
            d["records"] += 1
            d["offsetSum"] += r.offset
            d["timestampSum"] += r.timestamp - base_ts
            k, v = r.key, r.value
            if k is not None:
                d["keyBytes"] += len(k)
            if v is not None:
                d["valueBytes"] += len(v)
            for hk, hv in r.headers:
                d["headers"] += 1
                d["headerBytes"] += len(hk.encode("utf-8")) + (0 if hv is None else len(hv))
    return d


def timed(reps, want, fn, budget):
    t = time.perf_counter()
    got = fn()
    warm = time.perf_counter() - t
    if got != want:
        raise SystemExit(f"kafka-python: digest {got} != {want}")
    if warm * reps > budget:
        reps = int(budget // warm)
    samples = []
    for _ in range(reps):
        t = time.perf_counter()
        fn()
        samples.append(time.perf_counter() - t)
    return samples or [warm]


def main():
    reps = int(arg("reps", "5"))
    only = [o for o in arg("only", "").split(",") if o]
    meta = json.load(open(os.path.join(TARGET, "corpus.json")))
    want, base_ts = meta["digest"], meta["baseTimestamp"]
    fast = util.crc32c_c
    variants = []
    if fast is not None:
        variants.append(("kafka-python", fast, float(arg("budget", "240"))))
    else:
        print("python: the crc32c extension is not importable; only the pure-Python CRC is measured", file=sys.stderr)
    variants.append(("kafka-python-purecrc", crc32c_py, float(arg("budget-pure", "90"))))
    rows = []
    for codec in ["none", "lz4", "zstd"]:
        data = open(os.path.join(TARGET, f"corpus-{codec}.bin"), "rb").read()
        for engine, crc, budget in variants:
            if only and not any(engine == o for o in only):
                continue
            # validate_crc() -> util.calc_crc32c(view) -> _crc32c: the function bound here.
            default_records.calc_crc32c = lambda view, _crc=crc: _crc(view)
            samples = timed(reps, want, lambda: digest(data, base_ts), budget)
            med = statistics.median(samples)
            print(
                f"python: {engine:<22} {codec:<5} {len(data) / med / 1e6:9.1f} MB/s {want['records'] / med:12.0f} rec/s"
                f"  (median of {len(samples)} x {med:.3f}s)",
                file=sys.stderr,
            )
            rows.append(dict(engine=engine, codec=codec, bytes=len(data), records=want["records"], seconds=med, samples=samples))
    out = json.dumps(dict(runtime=f"CPython {sys.version.split()[0]}, kafka-python {kafka.__version__}", reps=reps, rows=rows))
    path = arg("out", None)
    if path:
        open(path, "w").write(out + "\n")
    else:
        print(out)


if __name__ == "__main__":
    main()
