#!/usr/bin/env python3
"""`eoslab dump-log` against Kafka's own DumpLogSegments on damaged copies of real broker files.

The golden texts of tests/fixtures/kafka-4.3.1 (`<file>.dump-log*.txt`) pin what kafka-dump-log
prints for the broker's intact files, one flag at a time. This goes further in the kafka step,
where the jars are at hand: N times (default 60, EOSLAB_KAFKA_DUMP_CASES), copy one fixture
partition directory, damage one of its files (a flipped bit, a cut, an int32 of 2^31-1, -2^31,
0 or -1, a zeroed byte), and run both tools on one of its files with one of the flags
(none, --deep-iteration, --print-data-log, --index-sanity-check, --verify-index-only,
--max-bytes N, --skip-record-metadata, --max-message-size N; the internal topics' decoder for
their logs). Standard output, standard error (less the JVM's stack trace, and the
`eoslab: <kind> at byte N` line eoslab adds under an exception) and the exit status must be the
same. A difference is kept in target/dump-log-mutations/<case>/ (the directory and CASE: what
was damaged, the command, both outputs); Kafka wins.

Standard library only. Needs scripts/ensure-kafka.sh (4.3.1) and the CLI built
(tests/kafka/run.py builds it; standalone: cargo build --release -p eoslab-cli).
    python3 tests/kafka/dump_log_mutations.py [--cases N] [--seed S]
"""
import argparse
import difflib
import os
import random
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import oracle  # noqa: E402

ROOT = oracle.ROOT
VERSION = "4.3.1"
FIXTURES = os.path.join(ROOT, "tests", "fixtures", f"kafka-{VERSION}")
EOSLAB = os.path.join(ROOT, "target", "release", "eoslab")
KEEP = os.path.join(ROOT, "target", "dump-log-mutations")
SUFFIXES = (".log", ".index", ".timeindex", ".txnindex", ".snapshot")


def damage(rng, b):
    if not b:
        return "empty as is", b
    i = rng.randrange(len(b))
    how = rng.choice(["flip", "flip", "cut", "int32", "zero"])
    if how == "flip":
        bit = rng.randrange(8)
        b[i] ^= 1 << bit
        return f"bit {bit} of byte {i} flipped", b
    if how == "cut":
        return f"cut at {i}", b[:i]
    if how == "int32":
        v = rng.choice([b"\x7f\xff\xff\xff", b"\x80\x00\x00\x00", b"\x00\x00\x00\x00", b"\xff\xff\xff\xff"])
        b[i:i + 4] = v[:len(b) - i]
        return f"int32 {v.hex()} at {i}", b
    b[i] = 0
    return f"byte {i} zeroed", b


def flags(rng, dirname, filename):
    f = rng.choice([[], ["--deep-iteration"], ["--print-data-log"], ["--index-sanity-check"], ["--verify-index-only"],
                    ["--max-bytes", str(rng.randrange(0, 600))], ["--print-data-log", "--skip-record-metadata"],
                    ["--max-message-size", str(rng.randrange(0, 200))]])
    if filename.endswith(".log") and dirname.startswith("__transaction_state-"):
        f = f + ["--transaction-log-decoder"]
    elif filename.endswith(".log") and dirname.startswith("__consumer_offsets-"):
        f = f + ["--offsets-decoder"]
    return f


def kafka_dump_log(cwd, args):
    cmd = ["java", *oracle.JVM_FLAGS, "-cp", oracle.classpath(VERSION), "org.apache.kafka.tools.DumpLogSegments", *args]
    return subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, timeout=120,
                          env={**os.environ, "KAFKA_LOG4J_OPTS": ""})


def compare(work, d, target, what, args, name, quiet=False):
    """Runs both tools in `work` with `args`; True when stdout, stderr (less Kafka's stack trace
    and eoslab's `eoslab: ` line) and the exit status agree. A difference is kept in
    target/dump-log-mutations/<name>/ and printed."""
    # eoslab first: Kafka's tool writes to what it dumps (closing an index trims a file
    # whose length is not a whole number of entries).
    o_ = subprocess.run([EOSLAB, "dump-log", *args], cwd=work, capture_output=True, text=True, timeout=120)
    k_ = kafka_dump_log(work, args)
    trace = ("\tat ", "\t... ", "Caused by: ")
    k_err = [line for line in k_.stderr.splitlines() if not line.startswith(trace)]
    o_err = [line for line in o_.stderr.splitlines() if not line.startswith("eoslab: ")]
    if k_.stdout == o_.stdout and k_err == o_err and k_.returncode == o_.returncode:
        return True
    keep = os.path.join(KEEP, name)
    shutil.rmtree(keep, ignore_errors=True)
    shutil.copytree(work, keep)
    out_diff = "\n".join(difflib.unified_diff(k_.stdout.splitlines(), o_.stdout.splitlines(),
                                              "kafka", "eoslab", lineterm="", n=1))
    with open(os.path.join(keep, "CASE"), "w") as fh:
        fh.write(f"{d}/{target}: {what}\ndump-log {' '.join(args)} (run in this directory)\n"
                 f"exit: kafka {k_.returncode}, eoslab {o_.returncode}\n"
                 f"--- kafka stderr\n{k_.stderr}\n--- eoslab stderr\n{o_.stderr}\n--- stdout\n{out_diff}\n")
    if not quiet:
        print(f"dump-log differs from Kafka's: {d}/{target} {what}; {' '.join(args)} "
              f"(kept in {os.path.relpath(keep, ROOT)})", flush=True)
    return False


def run(cases=60, seed=20261204):
    """Returns the number of cases where the two tools differ."""
    if not os.path.exists(EOSLAB):
        raise RuntimeError(f"{EOSLAB} missing: cargo build --release -p eoslab-cli")
    rng = random.Random(seed)
    dirs = sorted(d for d in os.listdir(FIXTURES) if os.path.isdir(os.path.join(FIXTURES, d)))
    differ = 0
    with tempfile.TemporaryDirectory(prefix="eoslab-dump-log-") as tmp:
        for k in range(cases):
            d = rng.choice(dirs)
            work = os.path.join(tmp, str(k))
            shutil.copytree(os.path.join(FIXTURES, d), os.path.join(work, d),
                            ignore=shutil.ignore_patterns("*.txt"))
            files = sorted(f for f in os.listdir(os.path.join(work, d)) if f.endswith(SUFFIXES))
            target = rng.choice(files)
            path = os.path.join(work, d, target)
            with open(path, "rb") as fh:
                what, b = damage(rng, bytearray(fh.read()))
            with open(path, "wb") as fh:
                fh.write(bytes(b))
            dumped = rng.choice(files) if rng.random() < 0.5 else target
            args = ["--files", f"{d}/{dumped}", *flags(rng, d, dumped)]
            if not compare(work, d, target, what, args, f"{seed}-{k}"):
                differ += 1
            shutil.rmtree(work)
    print(f"dump-log mutations: {cases} damaged copies (seed {seed}), {differ} differ from Kafka {VERSION}'s tool",
          flush=True)
    return differ


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--cases", type=int, default=int(os.environ.get("EOSLAB_KAFKA_DUMP_CASES", "60")))
    ap.add_argument("--seed", type=int, default=int(os.environ.get("EOSLAB_KAFKA_SEED", "20261204")))
    a = ap.parse_args(argv)
    return 1 if run(a.cases, a.seed) else 0


if __name__ == "__main__":
    sys.exit(main())
