"""A real single-node Kafka (KRaft, combined broker+controller) the differential tests control,
and the Probe harness that talks to it. Standard library only.

    with Broker("4.3.1", {"transaction.partition.verification.enable": "false"}) as b:
        p = b.probe()
        p.create_topic("t", partitions=1)
        r = p.request("Produce", 11, {...})

Jars and compiled harness come from scripts/ensure-kafka.sh (.tools/kafka/<version>/).
"""
import base64
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import uuid

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
TOOLS = os.path.join(ROOT, ".tools", "kafka")
JVM_FLAGS = ["-Xms256m", "-Xmx768m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-Djava.awt.headless=true"]


def classpath(version, harness=False):
    base = os.path.join(TOOLS, version)
    if not os.path.exists(os.path.join(base, "libs", f"kafka_2.13-{version}.jar")):
        raise RuntimeError(f"Kafka {version} jars missing: run scripts/ensure-kafka.sh")
    cp = [os.path.join(base, "libs", "*")]
    if harness:
        cp.insert(0, os.path.join(base, "classes"))
    return os.pathsep.join(cp)


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


def new_cluster_id():
    """A KRaft cluster id. Kafka's own Uuid.randomUuid() never hands out an id starting with "-"
    (argparse would take it for an option: "argument --cluster-id/-t: expected one argument");
    one in 64 of ours did, which failed a CI run. Draw again, as Uuid.randomUuid does."""
    cluster_id = "-"
    while cluster_id.startswith("-"):
        cluster_id = base64.urlsafe_b64encode(uuid.uuid4().bytes).decode().rstrip("=")
    return cluster_id


LOG4J = """<?xml version="1.0" encoding="UTF-8"?>
<Configuration status="WARN">
  <Appenders>
    <File name="file" fileName="{log}"><PatternLayout pattern="[%d] %p %m (%c)%n"/></File>
  </Appenders>
  <Loggers>
    <Root level="INFO"><AppenderRef ref="file"/></Root>
    <Logger name="kafka.coordinator.transaction" level="DEBUG"/>
    <Logger name="org.apache.kafka.coordinator.transaction" level="DEBUG"/>
  </Loggers>
</Configuration>
"""


class Broker:
    """A fresh KRaft single-node cluster in a temporary directory.

    `config`: extra server.properties lines (the settings a scenario group needs).
    `features`: finalized feature levels at format time (e.g. {"transaction.version": 1}).
    """

    def __init__(self, version="4.3.1", config=None, features=None, keep=False):
        self.version = version
        self.config = dict(config or {})
        self.features = dict(features or {})
        self.dir = tempfile.mkdtemp(prefix=f"eoslab-kafka-{version}-")
        self.data = os.path.join(self.dir, "data")
        self.log = os.path.join(self.dir, "server.log")
        self.port = free_port()
        self.controller_port = free_port()
        self.proc = None
        self.keep = keep
        # What format() uses (cluster.Node, a broker of a multi-node cluster, sets them): the
        # log4j configuration, the KRaft cluster id (None: a new one), and `--standalone` (this
        # node is the controller of a one-voter quorum).
        self.log4j = LOG4J
        self.cluster_id = None
        self.standalone = True
        self.starts = 0
        self.start_seconds = 0.0
        self._probes = []

    # -- lifecycle -------------------------------------------------------------------------
    def properties(self):
        props = {
            "process.roles": "broker,controller",
            "node.id": "1",
            "controller.quorum.bootstrap.servers": f"127.0.0.1:{self.controller_port}",
            "listeners": f"PLAINTEXT://127.0.0.1:{self.port},CONTROLLER://127.0.0.1:{self.controller_port}",
            "advertised.listeners": f"PLAINTEXT://127.0.0.1:{self.port}",
            "controller.listener.names": "CONTROLLER",
            "inter.broker.listener.name": "PLAINTEXT",
            "listener.security.protocol.map": "PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT",
            "log.dirs": self.data,
            "num.partitions": "1",
            "default.replication.factor": "1",
            "offsets.topic.replication.factor": "1",
            "offsets.topic.num.partitions": "50",
            "transaction.state.log.replication.factor": "1",
            "transaction.state.log.min.isr": "1",
            "transaction.state.log.num.partitions": "50",
            "group.initial.rebalance.delay.ms": "0",
            "auto.create.topics.enable": "false",
            "log.message.timestamp.before.max.ms": str(2**63 - 1),
            "share.coordinator.state.topic.replication.factor": "1",
            "share.coordinator.state.topic.min.isr": "1",
        }
        props.update({k: str(v) for k, v in self.config.items()})
        return props

    def format(self):
        os.makedirs(self.data, exist_ok=True)
        with open(os.path.join(self.dir, "server.properties"), "w") as f:
            for k, v in self.properties().items():
                f.write(f"{k}={v}\n")
        with open(os.path.join(self.dir, "log4j2.xml"), "w") as f:
            f.write(self.log4j.format(log=self.log))
        cmd = ["java", *JVM_FLAGS, "-cp", classpath(self.version), "kafka.tools.StorageTool", "format",
               *(["--standalone"] if self.standalone else []), "-t", self.cluster_id or new_cluster_id(),
               "-c", os.path.join(self.dir, "server.properties")]
        for k, v in self.features.items():
            cmd += ["--feature", f"{k}={v}"]
        r = subprocess.run(cmd, capture_output=True, text=True,
                           env={**os.environ, "KAFKA_LOG4J_OPTS": ""}, timeout=120)
        if r.returncode != 0:
            raise RuntimeError(f"kafka-storage format failed ({r.returncode}):\n{r.stdout}\n{r.stderr}")

    def start(self, timeout=120):
        if not os.path.exists(os.path.join(self.dir, "server.properties")):
            self.format()
        t0 = time.monotonic()
        out = open(os.path.join(self.dir, "stdout.log"), "ab")
        self.proc = subprocess.Popen(
            ["java", *JVM_FLAGS, f"-Dlog4j2.configurationFile={os.path.join(self.dir, 'log4j2.xml')}",
             "-cp", classpath(self.version), "kafka.Kafka", os.path.join(self.dir, "server.properties")],
            stdout=out, stderr=subprocess.STDOUT, start_new_session=True)
        self.starts += 1
        deadline = t0 + timeout
        while True:
            if self.proc.poll() is not None:
                raise RuntimeError(f"Kafka {self.version} exited with {self.proc.returncode} while starting\n" + self.tail())
            if time.monotonic() > deadline:
                self.stop()
                raise RuntimeError(f"Kafka {self.version} did not answer ApiVersions within {timeout}s\n" + self.tail())
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=1):
                    pass
                p = Probe(self)
                try:
                    r = p.request("ApiVersions", 3, {"clientSoftwareName": "eoslab", "clientSoftwareVersion": "1"})
                    # Ready when the broker has registered (Metadata lists it) and answers NONE.
                    if r["errorCode"] == 0:
                        m = p.request("Metadata", 12, {"topics": [], "allowAutoTopicCreation": False,
                                                       "includeTopicAuthorizedOperations": False})
                        if m["brokers"]:
                            break
                finally:
                    p.close()
            except (OSError, ProbeError):
                pass
            time.sleep(0.25)
        self.start_seconds += time.monotonic() - t0
        return self

    def stop(self, timeout=60):
        for p in self._probes:
            p.close()
        self._probes = []
        if self.proc and self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGTERM)
            try:
                self.proc.wait(timeout)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait()
        self.proc = None

    def restart(self):
        """Stop and start on the same storage: the transaction coordinator reloads
        __transaction_state with a new coordinator epoch (a coordinator failover)."""
        self.stop()
        return self.start()

    def tail(self, lines=80):
        text = ""
        for name in ("stdout.log", "server.log"):
            path = os.path.join(self.dir, name)
            if os.path.exists(path):
                with open(path, errors="replace") as f:
                    text += f"--- {path} (last {lines} lines)\n" + "".join(f.readlines()[-lines:])
        return text

    def probe(self):
        p = Probe(self)
        self._probes.append(p)
        return p

    def __enter__(self):
        return self.start()

    def __exit__(self, exc_type, exc, tb):
        if exc_type is not None:
            sys.stderr.write(f"\n=== Kafka {self.version} broker logs (the test failed) ===\n{self.tail()}\n")
        self.stop()
        if not self.keep:
            shutil.rmtree(self.dir, ignore_errors=True)
        return False


class ProbeError(Exception):
    pass


class Probe:
    """One Probe.java process: raw requests (Kafka's own message classes) and Java clients."""

    def __init__(self, broker, conn="default"):
        self.broker = broker
        self.proc = subprocess.Popen(
            ["java", *JVM_FLAGS, "-cp", classpath(broker.version, harness=True), "Probe"],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, bufsize=1)
        self.connect(conn)

    def call(self, **cmd):
        self.proc.stdin.write(json.dumps(cmd) + "\n")
        self.proc.stdin.flush()
        line = self.proc.stdout.readline()
        if not line:
            raise ProbeError("the Probe harness exited")
        a = json.loads(line)
        if not a.get("ok"):
            raise ProbeError(a.get("error"))
        return a

    def connect(self, conn="default"):
        return self.call(op="connect", conn=conn, host="127.0.0.1", port=self.broker.port)

    def request(self, api, version, body, conn="default"):
        return self.call(op="request", conn=conn, api=api, version=version, body=body)["response"]

    def send(self, api, version, body, conn="default"):
        return self.call(op="send", conn=conn, api=api, version=version, body=body)

    def recv(self, conn="default"):
        return self.call(op="recv", conn=conn)["response"]

    def drop(self, conn="default"):
        return self.call(op="close", conn=conn)

    def error_names(self):
        """Kafka's error names by code (Errors.java of the broker's own jars)."""
        if not hasattr(self, "_errors"):
            self._errors = {int(k): v for k, v in self.call(op="errors")["errors"].items()}
        return self._errors

    def error_name(self, code):
        return f"{self.error_names().get(code, 'UNKNOWN')}({code})"

    def client(self, action, name, **kw):
        return self.call(op="client", action=action, name=name, **kw)

    def close(self):
        if self.proc.poll() is None:
            try:
                self.proc.stdin.close()
                self.proc.wait(10)
            except Exception:
                self.proc.kill()

    # -- conveniences over raw requests ----------------------------------------------------
    def create_topic(self, name, partitions=1, configs=None):
        body = {"topics": [{"name": name, "numPartitions": partitions, "replicationFactor": 1, "assignments": [],
                            "configs": [{"name": k, "value": str(v)} for k, v in (configs or {}).items()]}],
                "timeoutMs": 30000, "validateOnly": False}
        r = self.request("CreateTopics", 7, body)
        t = r["topics"][0]
        if t["errorCode"] != 0:
            raise ProbeError(f"CreateTopics {name}: error {t['errorCode']} {t.get('errorMessage')}")
        # Wait until the partition has a leader that accepts requests (ListOffsets answers NONE).
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            lo = self.list_offsets(name, 0, -1)
            if lo["errorCode"] == 0:
                return t
            time.sleep(0.05)
        raise ProbeError(f"topic {name} has no leader after 30s")

    def list_offsets(self, topic, partition, timestamp=-1, isolation=0):
        r = self.request("ListOffsets", 8, {"replicaId": -1, "isolationLevel": isolation, "topics": [
            {"name": topic, "partitions": [{"partitionIndex": partition, "currentLeaderEpoch": -1,
                                              "timestamp": timestamp}]}]})
        return r["topics"][0]["partitions"][0]

    def produce(self, topic, partition, batch: bytes, version=11, transactional_id=None, acks=-1, conn="default"):
        body = {"transactionalId": transactional_id, "acks": acks, "timeoutMs": 30000, "topicData": [
            {"name": topic, "partitionData": [{"index": partition,
                                               "records": base64.b64encode(batch).decode()}]}]}
        r = self.request("Produce", version, body, conn=conn)
        return r["responses"][0]["partitionResponses"][0]

    def fetch(self, topic, partition, offset=0, isolation=0, max_bytes=1 << 20):
        body = {"replicaId": -1, "maxWaitMs": 0, "minBytes": 0, "maxBytes": max_bytes, "isolationLevel": isolation,
                "sessionId": 0, "sessionEpoch": -1, "topics": [{"topic": topic, "partitions": [
                    {"partition": partition, "currentLeaderEpoch": -1, "fetchOffset": offset, "lastFetchedEpoch": -1,
                     "logStartOffset": -1, "partitionMaxBytes": max_bytes}]}],
                "forgottenTopicsData": [], "rackId": ""}
        r = self.request("Fetch", 12, body)
        return r["responses"][0]["partitions"][0]

    def describe_producers(self, topic, partition):
        r = self.request("DescribeProducers", 0, {"topics": [{"name": topic, "partitionIndexes": [partition]}]})
        return r["topics"][0]["partitions"][0]


class ProxyListener:
    """A TCP listener on 127.0.0.1 (a free port, `self.port`) that connects every client it
    accepts to 127.0.0.1:`target_port` and hands the pair of sockets to `self.opened(client,
    broker)`: the skeleton of the harness's proxies (txn_scenarios.Proxy holds chosen requests,
    capture.RecordingProxy records both directions)."""

    def __init__(self, target_port):
        self.target = target_port
        self.lock = threading.Lock()
        self.conns = []
        self.sock = socket.socket()
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(64)
        self.port = self.sock.getsockname()[1]
        self.closed = False

    def start(self):
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self):
        while not self.closed:
            try:
                c, _ = self.sock.accept()
            except OSError:
                return
            try:
                b = socket.create_connection(("127.0.0.1", self.target))
            except OSError:
                c.close()
                continue
            self.opened(c, b)

    def opened(self, client, broker):
        raise NotImplementedError

    @staticmethod
    def _read(s, n):
        """Exactly `n` bytes from socket `s` (OSError when it closes first)."""
        buf = b""
        while len(buf) < n:
            chunk = s.recv(n - len(buf))
            if not chunk:
                raise OSError("closed")
            buf += chunk
        return buf

    def close(self):
        self.closed = True
        self.sock.close()
