#!/usr/bin/env python3
"""A real Kafka broker's own files as golden fixtures (`make kafka-fixtures`).

Starts a fresh single-node KRaft broker (oracle.Broker, Kafka 4.3.1), runs a few small
scenarios with Kafka's Java client (tests/kafka/Clients.java), stops the broker cleanly (the
indexes are trimmed, producer-state .snapshot files are written), then copies every data
partition directory and the __transaction_state / __consumer_offsets partitions that hold
records into tests/fixtures/kafka-<version>/, next to what Kafka's own DumpLogSegments
(kafka-dump-log) prints for each file (`<file>.dump-log.txt`).

Standard library only. Needs scripts/ensure-kafka.sh (the Makefile target runs it first).
    python3 tests/kafka/make_fixtures.py [--version 4.3.1] [--out DIR] [--keep]
    python3 tests/kafka/make_fixtures.py --dumps-only   # only the kafka-dump-log texts, no broker
"""
import argparse
import datetime
import hashlib
import os
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import oracle  # noqa: E402

ROOT = oracle.ROOT

# The Java client's configurations, per scenario (PROVENANCE.md lists them from here).
IDEMPOTENT = {"enable.idempotence": "true", "acks": "all", "linger.ms": "1000", "client.id": "fx-idempotent"}
PLAIN = {"enable.idempotence": "false", "acks": "1", "linger.ms": "1000", "client.id": "fx-plain"}
TXN = {"transactional.id": "fx-txn", "linger.ms": "1000", "client.id": "fx-txn"}
CTP_PRODUCER = {"transactional.id": "fx-ctp", "linger.ms": "1000", "client.id": "fx-ctp"}
CTP_CONSUMER = {"group.id": "fx-ctp-group", "isolation.level": "read_committed", "client.id": "fx-ctp-consumer"}
CODECS = ["gzip", "snappy", "lz4", "zstd"]
# Topic configs: an index entry per batch, so .index/.timeindex have entries to compare.
TOPIC_CONFIG = {"index.interval.bytes": "1"}
TOPICS = {"idempotent": 1, "txn": 2, "ctp-in": 1, "ctp-out": 1, "compressed": 1, "logappend": 1}
# Per-topic configs besides TOPIC_CONFIG.
TOPIC_EXTRA = {"logappend": {"message.timestamp.type": "LogAppendTime"}}
SCENARIO_SUMMARY = """\
- idempotent-0: an idempotent producer (IDEMPOTENT), three batches: 3 records (keys, one with
  headers), 1 record (null key), 3 records (an empty value, a null value).
- logappend-0: the same producer, one batch of 2 records on a topic with
  `message.timestamp.type=LogAppendTime`.
- txn-0, txn-1: a transactional producer (TXN): a transaction with records on both partitions,
  committed; a second one on both partitions, flushed then aborted (COMMIT / ABORT markers,
  the aborted one in .txnindex).
- ctp-in-0: a non-idempotent producer (PLAIN, producerId -1), two batches the consumer reads.
- ctp-out-0: consume-transform-produce (CTP_PRODUCER + CTP_CONSUMER, read_committed): two
  rounds of poll, send upper-cased values, sendOffsetsToTransaction(group fx-ctp-group), commit.
- compressed-0: one producer per compression.type (gzip, snappy, lz4, zstd), one batch of three
  records each, idempotent (the client default).
- __transaction_state-N: the transaction coordinator's records for fx-txn and fx-ctp.
- __consumer_offsets-N: the transactional offset commits of fx-ctp-group (and their COMMIT
  markers)."""


class ScenarioError(Exception):
    pass


def call(p, action, name, **kw):
    a = p.client(action, name, **kw)
    if a.get("threw"):
        raise ScenarioError(f"{action} {name}: {a['threw']}")
    return a


def scenarios(b):
    p = b.probe()
    boot = {"bootstrap.servers": f"127.0.0.1:{b.port}"}
    for t, n in TOPICS.items():
        p.create_topic(t, partitions=n, configs={**TOPIC_CONFIG, **TOPIC_EXTRA.get(t, {})})
        for part in range(1, n):  # create_topic waits for partition 0 only
            while p.list_offsets(t, part)["errorCode"] != 0:
                pass

    # Idempotent producer: three batches.
    call(p, "producer", "idem", config={**boot, **IDEMPOTENT})
    call(p, "send-async", "idem", topic="idempotent", partition=0, key="k0", value="v0")
    call(p, "send-async", "idem", topic="idempotent", partition=0, key="k1", value="v1",
         headers={"h1": "x", "h2": "y"})
    call(p, "send-async", "idem", topic="idempotent", partition=0, key="k2", value="v2")
    call(p, "flush", "idem")
    call(p, "send", "idem", topic="idempotent", partition=0, key=None, value="only value")
    call(p, "send-async", "idem", topic="idempotent", partition=0, key="k4", value="")
    call(p, "send-async", "idem", topic="idempotent", partition=0, key="k5", value="v5")
    call(p, "send-async", "idem", topic="idempotent", partition=0, key="k6", value=None)
    call(p, "flush", "idem")
    # The same producer on a LogAppendTime topic: the broker stamps the batch.
    call(p, "send-async", "idem", topic="logappend", partition=0, key="t0", value="stamped by the broker")
    call(p, "send-async", "idem", topic="logappend", partition=0, key="t1", value="stamped too")
    call(p, "flush", "idem")
    call(p, "close", "idem")

    # Transactional producer: commit one transaction, abort another, across 2 partitions.
    call(p, "producer", "txn", config={**boot, **TXN})
    call(p, "init", "txn")
    call(p, "begin", "txn")
    call(p, "send-async", "txn", topic="txn", partition=0, key="a", value="committed-0")
    call(p, "send-async", "txn", topic="txn", partition=0, key="b", value="committed-1")
    call(p, "send-async", "txn", topic="txn", partition=1, key="c", value="committed-2")
    call(p, "commit", "txn")
    call(p, "begin", "txn")
    call(p, "send-async", "txn", topic="txn", partition=0, key="d", value="aborted-0")
    call(p, "send-async", "txn", topic="txn", partition=1, key="e", value="aborted-1")
    call(p, "send-async", "txn", topic="txn", partition=1, key="f", value="aborted-2")
    call(p, "flush", "txn")  # on the log before the abort (an abort drops undrained batches)
    call(p, "abort", "txn")
    call(p, "close", "txn")

    # Consume-transform-produce: input from a plain producer, offsets sent to the transaction.
    call(p, "producer", "plain", config={**boot, **PLAIN})
    call(p, "producer", "ctp", config={**boot, **CTP_PRODUCER})
    call(p, "init", "ctp")
    call(p, "consumer", "ctp-c", config={**boot, **CTP_CONSUMER}, assign=[["ctp-in", 0]], **{"from": "committed"})
    for rnd in range(2):
        for i in range(2):
            call(p, "send-async", "plain", topic="ctp-in", partition=0, key=f"in-{rnd}-{i}", value=f"input {rnd}.{i}")
        call(p, "flush", "plain")
        # A poll ends 500 ms after its last new record (or its start): the first one may end
        # before the fresh consumer's first fetch answers, so poll until both records are in.
        got = []
        for _ in range(20):
            got += call(p, "poll", "ctp-c", quietMs=500, maxMs=10000)["records"]
            if len(got) >= 2:
                break
        if len(got) != 2:
            raise ScenarioError(f"ctp round {rnd}: polled {got}")
        call(p, "begin", "ctp")
        for r in got:
            call(p, "send-async", "ctp", topic="ctp-out", partition=0, key=f"out-{r['offset']}", value=r["value"].upper())
        call(p, "send-offsets", "ctp", consumer="ctp-c")
        call(p, "commit", "ctp")
    for n in ("plain", "ctp", "ctp-c"):
        call(p, "close", n)

    # One batch per compression codec.
    for codec in CODECS:
        name = f"c-{codec}"
        call(p, "producer", name, config={**boot, "compression.type": codec, "linger.ms": "1000",
                                          "client.id": f"fx-{codec}"})
        for i in range(3):
            call(p, "send-async", name, topic="compressed", partition=0, key=f"{codec}-{i}",
                 value=f"{codec} record {i}: " + "abcdefgh" * 8)
        call(p, "flush", name)
        call(p, "close", name)


KEEP_SUFFIXES = (".log", ".index", ".timeindex", ".txnindex", ".snapshot")
KEEP_NAMES = ("leader-epoch-checkpoint", "partition.metadata")


def has_records(part_dir):
    return any(f.endswith(".log") and os.path.getsize(os.path.join(part_dir, f)) > 0 for f in os.listdir(part_dir))


def dump_args(dirname, filename):
    if filename.endswith(".log"):
        if dirname.startswith("__transaction_state-"):
            return ["--deep-iteration", "--transaction-log-decoder"]
        if dirname.startswith("__consumer_offsets-"):
            return ["--deep-iteration", "--offsets-decoder"]
        return ["--print-data-log", "--deep-iteration"]
    return []


def dump_log(version, cwd, relpath, args, may_fail=False):
    cmd = ["java", *oracle.JVM_FLAGS, "-cp", oracle.classpath(version), "org.apache.kafka.tools.DumpLogSegments",
           "--files", relpath, *args]
    r = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, timeout=120,
                       env={**os.environ, "KAFKA_LOG4J_OPTS": ""})
    if r.returncode != 0 and not (may_fail and r.stderr.startswith("Exception in thread \"main\" ")):
        raise RuntimeError(f"DumpLogSegments {relpath} failed ({r.returncode}):\n{r.stdout}\n{r.stderr}")
    return r, cmd


# The flags of kafka-dump-log, each run on its own over the fixture files it applies to:
# (variant name, the kind of file, ARGS). `<file>.dump-log.<variant>.txt` is the standard output,
# `<file>.dump-log.<variant>.stderr.txt` the standard error when Kafka printed any (a run that
# ends in an exception exits 1: its stderr is the JVM's "Exception in thread "main" …" and the
# stack trace). crate/cli/tests/dump_log.rs holds the same table and checks PROVENANCE.md for it.
INTERNAL_DECODER = {"__transaction_state": ["--transaction-log-decoder"], "__consumer_offsets": ["--offsets-decoder"]}
VARIANTS = [
    ("index-sanity-check", "index", ["--index-sanity-check"]),
    ("verify-index-only", "index", ["--verify-index-only"]),
    ("max-message-size-10", ".index", ["--max-message-size", "10"]),
    ("no-options", "data log", []),
    ("deep-iteration", "data log", ["--deep-iteration"]),
    ("print-data-log", "data log", ["--print-data-log"]),
    ("skip-record-metadata", "data log", ["--print-data-log", "--skip-record-metadata"]),
    ("max-bytes-200", "data log", ["--print-data-log", "--max-bytes", "200"]),
    ("max-bytes-minus-1", "data log", ["--max-bytes", "-1"]),
    ("max-bytes-200", "internal log", ["DECODER", "--max-bytes", "200"]),
]
# Files kafka-dump-log does not know: `<file>.dump-log.txt` ("Dumping …") and
# `<file>.dump-log.stderr.txt` ("Ignoring unknown file …").
UNKNOWN_FILES = ("partition.metadata", "leader-epoch-checkpoint")


def variant_applies(kind, dirname, filename):
    internal = dirname.rsplit("-", 1)[0] in INTERNAL_DECODER
    if kind == "index":
        return filename.endswith((".index", ".timeindex"))
    if kind == ".index":
        return filename.endswith(".index")
    if kind == "data log":
        return filename.endswith(".log") and not internal
    if kind == "internal log":
        return filename.endswith(".log") and internal
    raise ValueError(kind)


def variant_args(args, dirname):
    out = []
    for a in args:
        out += INTERNAL_DECODER[dirname.rsplit("-", 1)[0]] if a == "DECODER" else [a]
    return out


def write_dump(path, r, stderr_too):
    with open(path + ".txt", "w") as fh:
        fh.write(r.stdout)
    if stderr_too and r.stderr:
        with open(path + ".stderr.txt", "w") as fh:
            fh.write(r.stderr)


def write_dumps(version, out, copied):
    """Every `<file>.dump-log*.txt` of the fixture directories `copied` in `out`."""
    for d in copied:
        for f in sorted(os.listdir(os.path.join(out, d))):
            if f.endswith(".txt"):
                continue
            if f.endswith(KEEP_SUFFIXES):
                r, _ = dump_log(version, out, f"{d}/{f}", dump_args(d, f))
                write_dump(os.path.join(out, d, f + ".dump-log"), r, False)
                for name, kind, args in VARIANTS:
                    if variant_applies(kind, d, f):
                        r, _ = dump_log(version, out, f"{d}/{f}", variant_args(args, d), may_fail=True)
                        write_dump(os.path.join(out, d, f"{f}.dump-log.{name}"), r, True)
            elif f in UNKNOWN_FILES:
                r, _ = dump_log(version, out, f"{d}/{f}", [])
                write_dump(os.path.join(out, d, f + ".dump-log"), r, True)


def variants_section():
    kinds = {"index": "`.index`, `.timeindex`", ".index": "`.index`", "data log": "data `.log`",
             "internal log": "`__transaction_state-N/*.log` / `__consumer_offsets-N/*.log`"}
    lines = []
    for name, kind, args in VARIANTS:
        a = " ".join(args).replace("DECODER", "<its decoder>")
        lines.append(f"- `{name}` ({kinds[kind]}): `{a}`" if a else f"- `{name}` ({kinds[kind]}): none")
    return "\n".join(lines)


def copy_partitions(data, out):
    copied = []
    for d in sorted(os.listdir(data)):
        src = os.path.join(data, d)
        if not os.path.isdir(src) or d.startswith("__cluster_metadata"):
            continue
        topic = d.rsplit("-", 1)[0]
        if topic not in TOPICS and topic not in ("__transaction_state", "__consumer_offsets"):
            continue
        if topic.startswith("__") and not has_records(src):
            continue
        os.makedirs(os.path.join(out, d))
        for f in sorted(os.listdir(src)):
            if f.endswith(KEEP_SUFFIXES) or f in KEEP_NAMES:
                shutil.copy2(os.path.join(src, f), os.path.join(out, d, f))
        copied.append(d)
    return copied


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--version", default="4.3.1")
    ap.add_argument("--out", default=None)
    ap.add_argument("--keep", action="store_true", help="keep the broker's temporary directory")
    ap.add_argument("--dumps-only", action="store_true",
                    help="no broker: run DumpLogSegments again over the files already in --out and "
                         "rewrite the dumps and PROVENANCE.md's Dumps section")
    args = ap.parse_args()
    out = args.out or os.path.join(ROOT, "tests", "fixtures", f"kafka-{args.version}")
    if args.dumps_only:
        dumps_only(out, args.version)
        return

    b = oracle.Broker(args.version, keep=args.keep)
    try:
        b.start()
        av = b.probe().request("ApiVersions", 3, {"clientSoftwareName": "eoslab", "clientSoftwareVersion": "1"})
        features = {f["name"]: f["maxVersionLevel"] for f in av.get("finalizedFeatures", [])}
        scenarios(b)
        b.stop()  # SIGTERM: a clean shutdown trims the indexes and writes producer snapshots
        if os.path.exists(out):
            shutil.rmtree(out)
        os.makedirs(out)
        copied = copy_partitions(b.data, out)
    except BaseException as e:
        sys.stderr.write(b.tail())
        sys.stderr.write(f"\nmake_fixtures: failed: {e!r}\n")
        raise
    finally:
        b.stop()
        if not args.keep:
            shutil.rmtree(b.dir, ignore_errors=True)
        else:
            print(f"broker directory kept: {b.dir}")

    write_dumps(args.version, out, copied)
    write_provenance(out, args.version, copied, features)
    total = sum(os.path.getsize(os.path.join(dp, f)) for dp, _, fs in os.walk(out) for f in fs)
    print(f"kafka-fixtures: {len(copied)} partition directories in {os.path.relpath(out, ROOT)} ({total} bytes)")


def dumps_only(out, version):
    copied = sorted(d for d in os.listdir(out) if os.path.isdir(os.path.join(out, d)))
    for d in copied:
        for f in os.listdir(os.path.join(out, d)):
            if ".dump-log" in f and f.endswith(".txt"):
                os.remove(os.path.join(out, d, f))
    write_dumps(version, out, copied)
    path = os.path.join(out, "PROVENANCE.md")
    with open(path) as fh:
        text = fh.read()
    start, end = text.index("Dumps: "), text.index("## Scenarios")
    text = text[:start] + dumps_section(version) + "\n" + text[end:]
    for n in ("make_fixtures.py",):
        i = text.index(f"- `tests/kafka/{n}` `") + len(f"- `tests/kafka/{n}` `")
        text = text[:i] + sha256(os.path.join(ROOT, "tests", "kafka", n)) + text[i + 64:]
    with open(path, "w") as fh:
        fh.write(text)
    print(f"kafka-fixtures: dumps rewritten in {os.path.relpath(out, ROOT)} ({len(copied)} directories)")


def dumps_section(version):
    return f"""Dumps: `<file>.dump-log.txt` is the standard output of
`java -cp '.tools/kafka/{version}/libs/*' org.apache.kafka.tools.DumpLogSegments --files <dir>/<file> ARGS`
run in this directory, ARGS being
- data `.log`: `--print-data-log --deep-iteration`
- `__transaction_state-N/*.log`: `--deep-iteration --transaction-log-decoder`
- `__consumer_offsets-N/*.log`: `--deep-iteration --offsets-decoder`
- `.index`, `.timeindex`, `.txnindex`, `.snapshot`: none (the plain output).
- {", ".join(f"`{n}`" for n in UNKNOWN_FILES)}: none (files the tool does not know; the standard
  error, `Ignoring unknown file …`, is in `<file>.dump-log.stderr.txt`).

Each flag on its own: `<file>.dump-log.<variant>.txt` is the standard output of the same command
with the variant's ARGS, `<file>.dump-log.<variant>.stderr.txt` its standard error when there was
any (a run that ends in an exception exits 1; its standard error is the JVM's
`Exception in thread "main" …` line and the stack trace):
{variants_section()}

`python3 tests/kafka/make_fixtures.py --dumps-only` runs only these commands again over the files
already here (no broker), and rewrites this section.
"""


def sha256(path):
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def java_version():
    r = subprocess.run(["java", "-version"], capture_output=True, text=True)
    return (r.stderr or r.stdout).splitlines()[0].strip()


def write_provenance(out, version, copied, features):
    libs = os.path.join(oracle.TOOLS, version, "libs")
    jars = [j for j in sorted(os.listdir(libs)) if j.startswith(("kafka", "lz4", "snappy", "zstd"))]
    fmt = lambda d: ", ".join(f"`{k}={v}`" for k, v in d.items())  # noqa: E731
    today = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d")
    text = f"""# Kafka {version} broker files (golden fixtures)

Generated {today} by `make kafka-fixtures` (`python3 tests/kafka/make_fixtures.py`, which
imports `tests/kafka/oracle.py`; the Java client harness is `tests/kafka/Clients.java`).
Do not edit by hand: regenerate. The generating sources, sha256:
{chr(10).join(f"- `tests/kafka/{n}` `{sha256(os.path.join(ROOT, 'tests', 'kafka', n))}`" for n in ("make_fixtures.py", "oracle.py", "Clients.java", "Probe.java"))}

## Kafka

Apache Kafka {version} from Maven Central (`tests/kafka/pom.xml`, `scripts/ensure-kafka.sh`,
into `.tools/kafka/{version}/libs`). The jars that matter here:
{chr(10).join(f"- `{j}` sha256 `{sha256(os.path.join(libs, j))}`" for j in jars)}

Java: `{java_version()}`.

Broker: a fresh single-node KRaft cluster (`oracle.Broker("{version}")`, combined
broker+controller, the server.properties of `oracle.Broker.properties()`: 50 partitions for
`__transaction_state` and `__consumer_offsets`, replication factor 1, feature levels the
release defaults; ApiVersions reported finalized features
{", ".join(f"`{k}={v}`" for k, v in sorted(features.items()))}). Stopped with SIGTERM (a clean shutdown) before the files were copied.

{dumps_section(version)}
## Scenarios (tests/kafka/make_fixtures.py `scenarios`)

Topics (partitions): {", ".join(f"`{t}` ({n})" for t, n in TOPICS.items())}, each created with
{fmt(TOPIC_CONFIG)} (an index entry for every batch); `logappend` also with
`message.timestamp.type=LogAppendTime`.

Producer / consumer configs (besides `bootstrap.servers`, String serializers):
- IDEMPOTENT: {fmt(IDEMPOTENT)}
- PLAIN: {fmt(PLAIN)}
- TXN: {fmt(TXN)}
- CTP_PRODUCER: {fmt(CTP_PRODUCER)}
- CTP_CONSUMER: {fmt(CTP_CONSUMER)}, `enable.auto.commit=false`, partitions assigned (no subscribe)
- compressed: one producer per `compression.type` in {", ".join(CODECS)}, `linger.ms=1000`

Records are sent with `send-async` (no wait) then `flush`, so the records of a step share one batch.

{SCENARIO_SUMMARY}

Directories: {", ".join(f"`{d}`" for d in copied)}.

## What varies per regeneration

Producer ids and epochs, every timestamp (CreateTime, the commit timestamps in
`__consumer_offsets`, the transaction timestamps in `__transaction_state`), CRCs (they cover the
timestamps and producer ids), the cluster id, topic ids (`partition.metadata`, the `topicId`
of offset commits), which `__transaction_state` / `__consumer_offsets` partition holds the
records (hash of the transactional id / group: stable), the coordinator epochs, and with them
the byte sizes and positions of batches. The tests read every expected value from the dumps,
so none of these is written in a test.
"""
    with open(os.path.join(out, "PROVENANCE.md"), "w") as f:
        f.write(text)


if __name__ == "__main__":
    main()
