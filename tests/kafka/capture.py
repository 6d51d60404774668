#!/usr/bin/env python3
"""A capture of real Java-client traffic to a real Kafka broker (`make capture-fixtures`).

A fresh single-node KRaft broker (oracle.Broker, Kafka 4.3.1, formatted with
transaction.version=1 so the client itself sends AddPartitionsToTxn and AddOffsetsToTxn) whose
only listener is advertised at a recording TCP proxy: every connection a client (or the broker
itself, for WriteTxnMarkers and the AddPartitionsToTxn verification) opens goes through it, and
the proxy keeps each connection's two byte streams as they travelled. Tests/kafka/Capture.java
runs the scenario with Kafka's own KafkaProducer/KafkaConsumer, then reads every frame back with
Kafka's own message classes into JSON. Written to tests/fixtures/capture-<version>/:

    NN-<client id>.c2b.bin   what the client sent, byte for byte (size-prefixed requests)
    NN-<client id>.b2c.bin   what the broker sent back (size-prefixed responses)
    NN-<client id>.json      Kafka's reading of every frame (Capture.java json)
    PROVENANCE.md

Standard library only. Needs scripts/ensure-kafka.sh (the Makefile target runs it first).
    python3 tests/kafka/capture.py [--version 4.3.1] [--out DIR]
"""
import argparse
import datetime
import hashlib
import os
import re
import shutil
import socket
import struct
import subprocess
import sys
import threading

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import oracle  # noqa: E402

ROOT = oracle.ROOT


class RecordingProxy(oracle.ProxyListener):
    """Forwards every connection to the broker unchanged, frame by frame, and keeps each
    direction's bytes (tests/kafka/txn_scenarios.py's Proxy, without holding anything)."""

    def __init__(self, target_port):
        super().__init__(target_port)
        # self.conns: {"n", "c2b": bytearray, "b2c": bytearray, "client": str|None}
        self.start()

    def opened(self, c, b):
        with self.lock:
            conn = {"n": len(self.conns) + 1, "c2b": bytearray(), "b2c": bytearray(), "client": None}
            self.conns.append(conn)
        threading.Thread(target=self._pump, args=(conn, c, b, "c2b"), daemon=True).start()
        threading.Thread(target=self._pump, args=(conn, b, c, "b2c"), daemon=True).start()

    def _pump(self, conn, src, dst, way):
        try:
            while True:
                head = self._read(src, 4)
                body = self._read(src, struct.unpack(">i", head)[0])
                with self.lock:
                    conn[way] += head + body
                    if way == "c2b" and conn["client"] is None:
                        # RequestHeader: api key, version, correlation id, client id (int16 length).
                        n = struct.unpack(">h", body[8:10])[0]
                        conn["client"] = body[10:10 + n].decode() if n >= 0 else ""
                dst.sendall(head + body)
        except OSError:
            pass
        finally:
            for s in (src, dst):
                try:
                    s.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass



def sha256(path):
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--version", default="4.3.1")
    ap.add_argument("--out")
    args = ap.parse_args()
    out = args.out or os.path.join(ROOT, "tests", "fixtures", f"capture-{args.version}")

    broker = oracle.Broker(args.version, features={"transaction.version": 1})
    proxy = RecordingProxy(broker.port)
    broker.config.update({
        "advertised.listeners": f"PLAINTEXT://127.0.0.1:{proxy.port}",
        "transaction.state.log.num.partitions": "1",
        "offsets.topic.num.partitions": "1",
    })
    cp = oracle.classpath(args.version, harness=True)
    with broker as b:
        p = b.probe()  # straight to the broker's port: not in the capture
        p.create_topic("txn", partitions=2)
        while p.list_offsets("txn", 1)["errorCode"] != 0:
            pass
        # The readiness checks above went straight to the broker; the capture starts here.
        with proxy.lock:
            proxy.conns.clear()
        r = subprocess.run(["java", *oracle.JVM_FLAGS, "-cp", cp, "Capture", "run", f"127.0.0.1:{proxy.port}"],
                           capture_output=True, text=True, timeout=180)
        if r.returncode != 0:
            raise RuntimeError(f"Capture run failed ({r.returncode}):\n{r.stdout}\n{r.stderr[-4000:]}")
        consumed = r.stdout.strip().splitlines()[-1]
        b.stop()  # every connection closed: the streams are complete
    proxy.close()

    if os.path.exists(out):
        shutil.rmtree(out)
    os.makedirs(out)
    names = []
    with proxy.lock:
        conns = [c for c in proxy.conns if c["c2b"]]
    for i, c in enumerate(conns, 1):
        name = f"{i:02d}-" + re.sub(r"[^a-z0-9-]+", "-", (c["client"] or "anonymous").lower()).strip("-")
        names.append(name)
        with open(os.path.join(out, name + ".c2b.bin"), "wb") as f:
            f.write(c["c2b"])
        with open(os.path.join(out, name + ".b2c.bin"), "wb") as f:
            f.write(c["b2c"])
    r = subprocess.run(["java", *oracle.JVM_FLAGS, "-cp", cp, "Capture", "json", out], capture_output=True, text=True, timeout=180)
    if r.returncode != 0:
        raise RuntimeError(f"Capture json failed ({r.returncode}):\n{r.stdout}\n{r.stderr[-4000:]}")

    libs = os.path.join(oracle.TOOLS, args.version, "libs")
    java = subprocess.run(["java", "-version"], capture_output=True, text=True).stderr.splitlines()[0]
    today = datetime.date.today().isoformat()
    with open(os.path.join(out, "PROVENANCE.md"), "w") as f:
        f.write(f"""# A capture of real Java-client traffic to a real Kafka {args.version} broker

Generated {today} by `make capture-fixtures` (`python3 tests/kafka/capture.py --version {args.version}`,
after `KAFKA_VERSIONS={args.version} bash scripts/ensure-kafka.sh`), {java}.
Do not edit by hand: regenerate. The generating sources, sha256:
{chr(10).join(f"- `tests/kafka/{n}` `{sha256(os.path.join(ROOT, 'tests', 'kafka', n))}`" for n in ("capture.py", "Capture.java", "oracle.py", "Envelopes.java", "Probe.java"))}
- `kafka-clients-{args.version}.jar` sha256 `{sha256(os.path.join(libs, f"kafka-clients-{args.version}.jar"))}`
- `kafka_2.13-{args.version}.jar` sha256 `{sha256(os.path.join(libs, f"kafka_2.13-{args.version}.jar"))}`

**The set-up.** A fresh single-node KRaft broker (`oracle.Broker`: 127.0.0.1, replication factor 1),
formatted with `transaction.version=1` (so the Java client itself sends AddPartitionsToTxn and
AddOffsetsToTxn; under TV2 it would not), `transaction.state.log.num.partitions=1`,
`offsets.topic.num.partitions=1`, topic `txn` with 2 partitions created beforehand straight on the
broker's port. Its one listener is advertised at a recording TCP proxy (`capture.py`
`RecordingProxy`), so every connection opened from the bootstrap on, by the clients and by the
broker to itself (WriteTxnMarkers; the AddPartitionsToTxn verification of transactional
produces), goes through the proxy, which forwards each size-prefixed frame unchanged and keeps it.

**The scenario** (`Capture.java run`, Kafka {args.version}'s own `KafkaProducer`/`KafkaConsumer`):
a transactional producer (`transactional.id=capture-tx`, `client.id=capture-producer`,
`linger.ms=100`, the rest defaults): `initTransactions`; `beginTransaction`, two records to
txn-0 and one to txn-1, `sendOffsetsToTransaction({{txn-1: 1}}, group capture-group)`,
`commitTransaction`; `beginTransaction`, one record to txn-0, `flush`, `abortTransaction`;
`beginTransaction`, one record to txn-0, `commitTransaction`; `close`. Then a read_committed
consumer (`client.id=capture-consumer`, `group.id=capture-group`, `auto.offset.reset=earliest`,
no auto commit) assigned both partitions polls until its positions reach `endOffsets` (the
LSO), and closes. What it returned (the aborted record skipped): `{consumed}`.

**The files**, one set per TCP connection, numbered in the order they were accepted and named
after the client id of their first request:

- `NN-<client id>.c2b.bin`: every byte the client sent on that connection (int32 size, request
  header, body — requests back to back);
- `NN-<client id>.b2c.bin`: every byte the broker sent back (int32 size, response header, body);
- `NN-<client id>.json`: Kafka's reading of each frame (`Capture.java json`): each stream split
  by its size prefixes, requests read with `RequestHeaderData` at
  `ApiKeys.requestHeaderVersion` and the generated `<Api>RequestData`, responses with
  `ResponseHeaderData` and `<Api>ResponseData` at the api key and version of the request with
  the same correlation id on the connection; `offset` is the frame's position in its stream,
  `size` its size prefix, `message` the body through the generated `JsonConverter` (records as
  base64 of their bytes, as `Envelopes.java`).

Connections: {", ".join(f"`{n}`" for n in names)}.

What varies between regenerations: producer ids, timestamps, CRCs, cluster and topic ids,
ports, throttle and session ids, the number of Fetch and Metadata round trips and of
connections. No test names any of them: `crate/core/tests/envelopes.rs` reads every expected
value from the JSON.
""")
    print(f"capture: {len(names)} connection(s) in {out}: {consumed}")


if __name__ == "__main__":
    main()
