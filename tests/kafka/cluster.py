"""A real multi-broker Kafka (KRaft) the replication scenarios run against. Standard library only.

    with Cluster("4.3.1", brokers=3, config={...}) as c:
        c.create_topic("orders", replicas=[1, 2, 3])
        c.pause(3)        # the follower on broker 3 stops (SIGSTOP): it neither fetches nor answers
        c.shut_down(1)    # controlled shutdown of broker 1: the controller moves its leaderships

Layout: node 9 is the controller (KRaft, `--standalone`) and a broker of its own, started first,
so `__transaction_state` and `__consumer_offsets` are created on it alone: the transaction
coordinator never moves when a scenario stops or fails a data broker. Brokers 1..N hold the data
partitions, placed explicitly (the model's broker numbers are Kafka's node ids). Every broker has
an INTERNAL listener for inter-broker traffic; a broker can be given a proxy on it (the data
leader's: the coordinator's WriteTxnMarkers to it are held until the script delivers them, as the
model holds them in its network).

Time: the controller's broker.session.timeout.ms is long, so a paused broker stays registered and
unfenced (a follower that stops fetching, not a broker that died: the model's `lag`); a broker the
script fails is shut down, which tells the controller at once (the model's `leader-fails`).
"""
import os
import re
import signal
import subprocess
import threading
import time
from datetime import datetime

import oracle
from oracle import free_port

HOME = 9  # the controller's node id (and the internal topics' broker)

# The broker's logging (oracle.LOG4J), and the task scheduler at DEBUG: it logs when ReplicaManager
# schedules `isr-expiration`, with a millisecond timestamp (isr_check_start).
LOG4J_DEBUG = oracle.LOG4J.replace(
    "  </Loggers>", '    <Logger name="org.apache.kafka.server.util.KafkaScheduler" level="DEBUG"/>\n  </Loggers>')


class Node(oracle.Broker):
    """One KRaft node of a Cluster: node 9 is controller and broker, the others brokers only."""

    def __init__(self, cluster, node_id):
        super().__init__(cluster.version, cluster.config, cluster.features)
        self.cluster = cluster
        self.node_id = node_id
        self.controller = node_id == HOME
        self.internal = free_port()
        self.advertised_internal = self.internal  # a proxy's port when one is put in front
        self.paused = False
        self.log4j = LOG4J_DEBUG  # the ISR-check schedule is logged at DEBUG (isr_check_start)
        self.cluster_id = cluster.cluster_id
        self.standalone = self.controller  # brokers 1..N are formatted without a quorum of their own

    def properties(self):
        p = super().properties()
        p.update({
            "node.id": str(self.node_id),
            "controller.quorum.bootstrap.servers": f"127.0.0.1:{self.cluster.controller_port}",
            "listeners": f"PLAINTEXT://127.0.0.1:{self.port},INTERNAL://127.0.0.1:{self.internal}"
                         + (f",CONTROLLER://127.0.0.1:{self.cluster.controller_port}" if self.controller else ""),
            "advertised.listeners": f"PLAINTEXT://127.0.0.1:{self.port},INTERNAL://127.0.0.1:{self.advertised_internal}",
            "inter.broker.listener.name": "INTERNAL",
            "listener.security.protocol.map": "PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT,INTERNAL:PLAINTEXT",
            "process.roles": "broker,controller" if self.controller else "broker",
        })
        if self.controller:
            p["controller.listener.names"] = "CONTROLLER"
        p.update({k: str(v) for k, v in self.cluster.config.items()})
        return p

    def signal(self, sig):
        if self.proc and self.proc.poll() is None:
            os.killpg(self.proc.pid, sig)

    def isr_check_start(self):
        """The wall-clock time (s) of this broker's first ISR check: ReplicaManager schedules
        `isr-expiration` with no initial delay, every replica.lag.time.max.ms / 2, and the
        scheduler says so at DEBUG with a millisecond timestamp."""
        with open(self.log, errors="replace") as f:
            for line in f:
                if "Scheduling task isr-expiration" in line:
                    m = re.match(r"\[(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d),(\d{3})\]", line)
                    t = datetime.strptime(m.group(1), "%Y-%m-%d %H:%M:%S").timestamp() + int(m.group(2)) / 1000
                    period = int(re.search(r"period (\d+) ms", line).group(1))
                    return t, period / 1000
        raise RuntimeError(f"node {self.node_id}: no isr-expiration schedule in its log")

    def segment_bytes(self, topic, partition):
        """The bytes of the partition's log segments on this broker's disk, oldest first: what
        the broker has appended, above the high watermark too (a Fetch stops at it)."""
        d = os.path.join(self.data, f"{topic}-{partition}")
        if not os.path.isdir(d):
            return b""
        out = b""
        for name in sorted(n for n in os.listdir(d) if n.endswith(".log")):
            with open(os.path.join(d, name), "rb") as f:
                out += f.read()
        return out


class Cluster:
    def __init__(self, version="4.3.1", brokers=3, config=None, features=None):
        self.version = version
        self.config = dict(config or {})
        self.features = dict(features or {})
        self.controller_port = free_port()
        self.cluster_id = oracle.new_cluster_id()
        self.home = Node(self, HOME)
        self.nodes = {i: Node(self, i) for i in range(1, brokers + 1)}
        self.proxies = []

    def node(self, i):
        return self.home if i == HOME else self.nodes[i]

    def start(self):
        t0 = time.monotonic()
        self.home.start()
        self.probe = self.home.probe()
        # The internal topics, while node 9 is the only broker: their partitions all live on it.
        for key_type, key in ((1, "eoslab-warm"), (0, "eoslab-warm")):
            deadline = time.monotonic() + 60
            while True:
                r = self.probe.request("FindCoordinator", 4, {"keyType": key_type, "coordinatorKeys": [key]})
                if r["coordinators"][0]["errorCode"] == 0:
                    break
                if time.monotonic() > deadline:
                    raise RuntimeError(f"FindCoordinator keyType {key_type}: {r}")
                time.sleep(0.1)
        errors = []

        def start(n):
            try:
                n.start()
            except Exception as e:  # noqa: BLE001 (reported below)
                errors.append(e)
        threads = [threading.Thread(target=start, args=(n,)) for n in self.nodes.values()]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        if errors:
            raise errors[0]
        self.start_seconds = time.monotonic() - t0
        return self

    def proxy(self, i, hold_requests=()):
        """Put a proxy on broker i's INTERNAL listener (what other brokers, the coordinator
        included, connect to); must be called before the broker starts."""
        from txn_scenarios import Proxy
        n = self.nodes[i]
        p = Proxy(n.internal, hold_requests=hold_requests)
        n.advertised_internal = p.port
        self.proxies.append(p)
        return p

    def stop(self):
        """Kill every node (their data is thrown away: nothing to shut down cleanly)."""
        for n in [*self.nodes.values(), self.home]:
            for p in n._probes:
                p.close()
            n._probes = []
            n.signal(signal.SIGKILL)
            if n.proc:
                n.proc.wait()
                n.proc = None
        for p in self.proxies:
            p.close()

    def cleanup(self):
        import shutil
        for n in [*self.nodes.values(), self.home]:
            shutil.rmtree(n.dir, ignore_errors=True)

    def __enter__(self):
        return self.start()

    def __exit__(self, exc_type, exc, tb):
        if exc_type is not None:
            for n in [*self.nodes.values(), self.home]:
                print(f"\n=== node {n.node_id} logs (the run failed) ===\n{n.tail(40)}")
        self.stop()
        self.cleanup()
        return False

    # -- what a scenario does to brokers ---------------------------------------------------------
    def pause(self, i):
        """The model's `lag`: the follower stops fetching (and answering) until resumed."""
        self.nodes[i].signal(signal.SIGSTOP)
        self.nodes[i].paused = True

    def resume(self, i):
        self.nodes[i].signal(signal.SIGCONT)
        self.nodes[i].paused = False

    def shut_down(self, i):
        """The model's `leader-fails`: a controlled shutdown begins (SIGTERM), so the controller
        elects at once; `gone(i)` ends it once the election is seen."""
        self.nodes[i].signal(signal.SIGTERM)

    def gone(self, i, grace=1.0):
        """The broker shutting down has had `grace` seconds to act on the election (a request
        it held is answered NOT_LEADER_OR_FOLLOWER); whatever of its shutdown is left (it can
        wait a minute on a paused peer) is cut short."""
        n = self.nodes[i]
        try:
            n.proc.wait(grace)
        except subprocess.TimeoutExpired:
            n.signal(signal.SIGKILL)
            n.proc.wait()
        n.proc = None

    # -- observations ------------------------------------------------------------------------------
    def partition_state(self, topic, partition):
        """(leader, isr) as the controller's metadata has them (Metadata from node 9)."""
        m = self.probe.request("Metadata", 12, {"topics": [{"topicId": "AAAAAAAAAAAAAAAAAAAAAA", "name": topic}],
                                                "allowAutoTopicCreation": False, "includeTopicAuthorizedOperations": False})
        t = m["topics"][0]
        for p in t["partitions"]:
            if p["partitionIndex"] == partition:
                return p["leaderId"], list(p["isrNodes"]), p["leaderEpoch"]
        raise RuntimeError(f"no partition {topic}-{partition} in metadata: {t}")

    def create_topic(self, topic, replicas, configs=None):
        body = {"topics": [{"name": topic, "numPartitions": -1, "replicationFactor": -1,
                            "assignments": [{"partitionIndex": 0, "brokerIds": replicas}],
                            "configs": [{"name": k, "value": str(v)} for k, v in (configs or {}).items()]}],
                "timeoutMs": 30000, "validateOnly": False}
        r = self.probe.request("CreateTopics", 7, body)
        t = r["topics"][0]
        if t["errorCode"] != 0:
            raise RuntimeError(f"CreateTopics {topic}: {t}")
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            leader, isr, _ = self.partition_state(topic, 0)
            if leader == replicas[0] and sorted(isr) == sorted(replicas):
                return
            time.sleep(0.05)
        raise RuntimeError(f"{topic}-0 has no leader {replicas[0]} with ISR {replicas} after 30s")
