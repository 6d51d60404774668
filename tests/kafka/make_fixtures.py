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


def dump_log(version, cwd, relpath, args):
    cmd = ["java", *oracle.JVM_FLAGS, "-cp", oracle.classpath(version), "org.apache.kafka.tools.DumpLogSegments",
           "--files", relpath, *args]
    r = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, timeout=120,
                       env={**os.environ, "KAFKA_LOG4J_OPTS": ""})
    if r.returncode != 0:
        raise RuntimeError(f"DumpLogSegments {relpath} failed ({r.returncode}):\n{r.stdout}\n{r.stderr}")
    return r.stdout, cmd


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
    args = ap.parse_args()
    out = args.out or os.path.join(ROOT, "tests", "fixtures", f"kafka-{args.version}")

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

    example_cmd = None
    for d in copied:
        for f in sorted(os.listdir(os.path.join(out, d))):
            if not f.endswith(KEEP_SUFFIXES):
                continue
            text, cmd = dump_log(args.version, out, f"{d}/{f}", dump_args(d, f))
            example_cmd = example_cmd or cmd
            with open(os.path.join(out, d, f + ".dump-log.txt"), "w") as fh:
                fh.write(text)
    write_provenance(out, args.version, copied, features)
    total = sum(os.path.getsize(os.path.join(dp, f)) for dp, _, fs in os.walk(out) for f in fs)
    print(f"kafka-fixtures: {len(copied)} partition directories in {os.path.relpath(out, ROOT)} ({total} bytes)")


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

Dumps: `<file>.dump-log.txt` is the standard output of
`java -cp '.tools/kafka/{version}/libs/*' org.apache.kafka.tools.DumpLogSegments --files <dir>/<file> ARGS`
run in this directory, ARGS being
- data `.log`: `--print-data-log --deep-iteration`
- `__transaction_state-N/*.log`: `--deep-iteration --transaction-log-decoder`
- `__consumer_offsets-N/*.log`: `--deep-iteration --offsets-decoder`
- `.index`, `.timeindex`, `.txnindex`, `.snapshot`: none (the plain output).

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
