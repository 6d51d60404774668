"""Differential test: the shipped transactions scenarios (scenarios/txn-*.eos) against a real
Kafka broker through the Java client, compared with the simulator (eoslab run --json).

    python3 tests/kafka/txn_scenarios.py [--version 4.3.1] [--self-test] [scenario ...]

For every scenario the steps are translated into Java-client calls (Clients.java) and raw requests
(Probe.java) against a real KRaft broker; every `expect` line whose fact a real broker shows is
evaluated there, and at the end the partition logs (values and [COMMIT]/[ABORT] markers, in
offset order), HW, LSO and the aborted-transaction entries are compared with the simulator's.

Two TCP proxies make the simulator's network steps real:
  * the inter-broker listener goes through a proxy that HOLDS every WriteTxnMarkers request
    (api key 27) until the script says `deliver markers` (the coordinator stays in Prepare*, the
    LSO stays, as in the model);
  * the clients' listener goes through a proxy that can hold EndTxn responses (api key 26):
    `commit P lose-response` = the coordinator decides but the client does not read the answer
    (commitTransaction() times out after max.block.ms; the retried call reads it). It also drops a
    chosen API's next request or answer (`inject P API lose-request|lose-response`) and holds its
    next request (`inject P API hold`) until `release P API`: if the client times the request out
    and closes the connection first, the broker side of it stays open, and the held copy is
    delivered late on it, its answer read by no one.

Standard library only. Exit status 0 when Kafka and the simulator agree on every compared fact.
EOSLAB_SABOTAGE=txn makes the comparison use a deliberately wrong simulator answer (the test must
then fail); --self-test checks exactly that.
"""
import argparse
import base64
import json
import os
import re
import socket
import struct
import subprocess
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import oracle  # noqa: E402

ROOT = oracle.ROOT
SCENARIOS = os.path.join(ROOT, "scenarios")
EOSLAB = os.path.join(ROOT, "target", "release", "eoslab")
TIME_SCALE = 0.2  # `advance D` sleeps D * TIME_SCALE; transaction.timeout.ms is scaled the same way
# `inject P API lose-response` on a coordinator request: the client proxy drops that answer. The
# Java client then waits request.timeout.ms (the model's 30 s; this many ms here) before it
# disconnects and sends the request again, so a script with such a line runs its transactional
# producers with it (and a max.block.ms the retry fits in).
CLIENT_API_KEYS = {"InitProducerId": 22, "AddPartitionsToTxn": 24, "AddOffsetsToTxn": 25, "EndTxn": 26, "TxnOffsetCommit": 28}
# `inject P API hold` holds these at the clients' proxy (a transactional Produce too; a lost
# Produce or Produce answer is the model's alone: the broker sees only the client's retry)
HOLD_API_KEYS = {**CLIENT_API_KEYS, "Produce": 0}
LOSE_REQUEST_TIMEOUT_MS = int(30000 * TIME_SCALE)

# Scenarios (or steps) a single real broker cannot be made to show.
# The injected answers the Java client retries (the model's `inject::retriable`), by API;
# another injected error is read by the call as its answer.
_COORD_RETRIED = {"COORDINATOR_NOT_AVAILABLE", "NOT_COORDINATOR", "COORDINATOR_LOAD_IN_PROGRESS", "CONCURRENT_TRANSACTIONS"}
RETRIED_ANSWERS = {
    "*": _COORD_RETRIED | {"lose-request", "lose-response", "hold"},
    "TxnOffsetCommit": (_COORD_RETRIED - {"CONCURRENT_TRANSACTIONS"}) | {"REQUEST_TIMED_OUT", "lose-request", "lose-response", "hold"},
    "Produce": {"NOT_LEADER_OR_FOLLOWER", "NOT_ENOUGH_REPLICAS", "lose-request", "lose-response", "hold"},
}

# The scenarios this harness does not put to a broker, with the reason: data, so the docs' rule
# catalogue (`eoslab rules --not-checked`) says the same.
NOT_CHECKED = json.loads(open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "not-checked.json")).read())

ERROR_MESSAGES = {  # Errors.X.exception().getMessage() for the codes the scenarios name
    "ILLEGAL_GENERATION": "Specified group generation id is not valid",
    "UNKNOWN_MEMBER_ID": "The coordinator is not aware of this member",
    "INVALID_PRODUCER_EPOCH": "Producer attempted to produce with an old epoch",
    "PRODUCER_FENCED": "There is a newer producer with the same transactionalId",
    "CONCURRENT_TRANSACTIONS": "The producer attempted to update a transaction while another concurrent",
}
ERROR_CODES = {0: "NONE", 15: "COORDINATOR_NOT_AVAILABLE", 16: "NOT_COORDINATOR", 22: "ILLEGAL_GENERATION",
               25: "UNKNOWN_MEMBER_ID", 47: "INVALID_PRODUCER_EPOCH", 51: "CONCURRENT_TRANSACTIONS",
               52: "TRANSACTION_COORDINATOR_FENCED", 88: "UNSTABLE_OFFSET_COMMIT", 90: "PRODUCER_FENCED"}


# ------------------------------------------------------------------------------------------------
# A Kafka-protocol-aware TCP proxy that can hold requests / responses of chosen API keys.
# ------------------------------------------------------------------------------------------------
class Proxy(oracle.ProxyListener):
    def __init__(self, target_port, hold_requests=(), hold_responses=()):
        super().__init__(target_port)
        self.hold_requests = set(hold_requests)
        self.hold_responses = set(hold_responses)
        self.lose_responses = {}  # api key -> how many of its next responses are dropped
        self.lose_requests = {}  # api key -> how many of its next requests are dropped
        self.hold_next = {}  # api key -> how many of its next requests are held (`inject P API hold`)
        self.lost = []  # the api keys whose responses were dropped, in order
        self.seen = {}  # api key -> requests seen
        self.start()

    def opened(self, c, b):
        conn = {"c": c, "b": b, "apis": {}, "req_q": [], "resp_q": [], "alive": True, "outstanding": 0}
        with self.lock:
            self.conns.append(conn)
        threading.Thread(target=self._pump, args=(conn, True), daemon=True).start()
        threading.Thread(target=self._pump, args=(conn, False), daemon=True).start()

    def _pump(self, conn, to_broker):
        src, dst = (conn["c"], conn["b"]) if to_broker else (conn["b"], conn["c"])
        try:
            while True:
                head = self._read(src, 4)
                body = self._read(src, struct.unpack(">i", head)[0])
                frame = head + body
                with self.lock:
                    if to_broker:
                        api, _ver, corr = struct.unpack(">hhi", body[:8])
                        conn["apis"][corr] = api
                        conn["outstanding"] += 1
                        self.seen[api] = self.seen.get(api, 0) + 1
                        if self.lose_requests.get(api, 0) > 0:
                            # `inject P API lose-request`: the request never reaches the broker; the
                            # client times out (request.timeout.ms) and disconnects
                            self.lose_requests[api] -= 1
                            self.lost.append(api)
                            continue
                        if self.hold_next.get(api, 0) > 0:
                            # `inject P API hold`: this request (and what follows it on the
                            # connection) waits in the network until `release P API`
                            self.hold_next[api] -= 1
                            conn["req_q"].append(frame)
                            continue
                        if conn["req_q"] or api in self.hold_requests:
                            conn["req_q"].append(frame)
                            continue
                    else:
                        corr = struct.unpack(">i", body[:4])[0]
                        api = conn["apis"].pop(corr, None)
                        conn["outstanding"] -= 1
                        if self.lose_responses.get(api, 0) > 0:
                            # `inject P API lose-response`: the broker answered; the answer never
                            # reaches the client, which times out (request.timeout.ms) and disconnects
                            self.lose_responses[api] -= 1
                            self.lost.append(api)
                            continue
                        if conn["resp_q"] or api in self.hold_responses:
                            conn["resp_q"].append(frame)
                            continue
                    dst.sendall(frame)
        except OSError:
            pass
        finally:
            conn["alive"] = False
            with self.lock:
                orphan = to_broker and conn["req_q"] and not self.closed
            if orphan:
                # The client closed its connection (its request timed out) while requests of it
                # are held: they are still on their way. The broker side stays open, so that
                # `release` delivers them late; their answers reach no one.
                try:
                    conn["c"].close()
                except OSError:
                    pass
                return
            for s in (conn["c"], conn["b"]):
                try:
                    s.close()
                except OSError:
                    pass
            with self.lock:
                if conn in self.conns:
                    self.conns.remove(conn)

    def held(self):
        with self.lock:
            return sum(len(c["req_q"]) + len(c["resp_q"]) for c in self.conns)

    def outstanding(self):
        with self.lock:
            return sum(c["outstanding"] for c in self.conns)

    def held_frames(self, api):
        """[(conn, frame)] of the held requests of `api`, oldest first per connection."""
        with self.lock:
            return [(conn, f) for conn in self.conns if conn["alive"] for f in conn["req_q"]
                    if struct.unpack(">h", f[4:6])[0] == api]

    def answer(self, conn, frame, response):
        """Answer a held request in the broker's place (its body `response`, header v1) and drop
        it; the requests queued behind it go on to the broker up to the next held one."""
        with self.lock:
            if frame not in conn["req_q"] or not conn["alive"]:
                return False
            conn["req_q"].remove(frame)
            corr = struct.unpack(">i", frame[8:12])[0]
            conn["apis"].pop(corr, None)
            conn["outstanding"] -= 1
            body = struct.pack(">i", corr) + b"\x00" + response  # ResponseHeader v1: no tagged fields
            try:
                conn["c"].sendall(struct.pack(">i", len(body)) + body)
                while conn["req_q"] and struct.unpack(">h", conn["req_q"][0][4:6])[0] not in self.hold_requests:
                    conn["b"].sendall(conn["req_q"].pop(0))
            except OSError:
                pass
            return True

    def release(self):
        """Forward everything held now; what arrives later is held again by the same rules.
        Returns the api keys of the requests forwarded."""
        sent = []
        with self.lock:
            for conn in self.conns:
                try:
                    for f in conn["req_q"]:
                        conn["b"].sendall(f)
                        sent.append(struct.unpack(">h", f[4:6])[0])
                    for f in conn["resp_q"]:
                        conn["c"].sendall(f)
                except OSError:
                    pass
                conn["req_q"], conn["resp_q"] = [], []
        return sent

    def close(self):
        super().close()
        with self.lock:
            for conn in self.conns:
                for s in (conn["c"], conn["b"]):
                    try:
                        s.close()
                    except OSError:
                        pass


class ProxiedBroker(oracle.Broker):
    """A Broker whose inter-broker listener (WriteTxnMarkers) and client listener go through proxies."""

    def __init__(self, version, config=None, features=None):
        super().__init__(version, config, features)
        internal = oracle.free_port()
        self.markers = Proxy(internal, hold_requests=[27])      # WriteTxnMarkers held until delivered
        self.clients = Proxy(self.port)                          # EndTxn responses held on demand
        self.config.update({
            "listeners": f"PLAINTEXT://127.0.0.1:{self.port},CONTROLLER://127.0.0.1:{self.controller_port},"
                         f"INTERNAL://127.0.0.1:{internal}",
            "advertised.listeners": f"PLAINTEXT://127.0.0.1:{self.clients.port},INTERNAL://127.0.0.1:{self.markers.port}",
            "inter.broker.listener.name": "INTERNAL",
            "listener.security.protocol.map": "PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT,INTERNAL:PLAINTEXT",
            "transaction.state.log.num.partitions": "5",
            "offsets.topic.num.partitions": "5",
            # the coordinator's scan for timed-out transactions: Kafka's 10 s on the model's
            # clock, scaled like `advance` (a scenario's `cluster` line may set another)
            "transaction.abort.timed.out.transaction.cleanup.interval.ms": str(int(10_000 * TIME_SCALE)),
        })


# ------------------------------------------------------------------------------------------------
# WriteTxnMarkers (api key 27, v1-v2, flexible): what the coordinator sent, and the answer the
# harness gives it in the broker's place (clients/src/main/resources/common/message/
# WriteTxnMarkersRequest.json and WriteTxnMarkersResponse.json)
# ------------------------------------------------------------------------------------------------
def uvarint(b, i):
    shift = result = 0
    while True:
        x = b[i]
        i += 1
        result |= (x & 0x7F) << shift
        if not x & 0x80:
            return result, i
        shift += 7


def put_uvarint(n):
    out = b""
    while n >= 0x80:
        out += bytes([(n & 0x7F) | 0x80])
        n >>= 7
    return out + bytes([n])


def skip_tagged(b, i):
    n, i = uvarint(b, i)
    for _ in range(n):
        _tag, i = uvarint(b, i)
        size, i = uvarint(b, i)
        i += size
    return i


def parse_write_txn_markers(frame):
    """(version, [{producerId, producerEpoch, transactionResult, coordinatorEpoch,
    transactionVersion, partitions: [(topic, index)]}]) of a request frame (size prefix included)."""
    b = frame[4:]
    _api, version, _corr = struct.unpack(">hhi", b[:8])
    i = 8
    (clen,) = struct.unpack(">h", b[i:i + 2])
    i = skip_tagged(b, i + 2 + max(clen, 0))  # client id, then the header's tagged fields
    n, i = uvarint(b, i)
    markers = []
    for _ in range(n - 1):
        pid, epoch, result = struct.unpack(">qhb", b[i:i + 11])
        i += 11
        parts = []
        nt, i = uvarint(b, i)
        for _ in range(nt - 1):
            ln, i = uvarint(b, i)
            name = b[i:i + ln - 1].decode()
            i += ln - 1
            npart, i = uvarint(b, i)
            for _ in range(npart - 1):
                parts.append((name, struct.unpack(">i", b[i:i + 4])[0]))
                i += 4
            i = skip_tagged(b, i)
        (ce,) = struct.unpack(">i", b[i:i + 4])
        i += 4
        tv = 0
        if version >= 2:
            tv = b[i]
            i += 1
        i = skip_tagged(b, i)
        markers.append({"producerId": pid, "producerEpoch": epoch, "transactionResult": bool(result),
                        "coordinatorEpoch": ce, "transactionVersion": tv, "partitions": parts})
    return version, markers


def write_txn_markers_response(markers, errors):
    """The response body for `markers`: errors[(marker index, topic, index)] per partition."""
    out = put_uvarint(len(markers) + 1)
    for mi, m in enumerate(markers):
        out += struct.pack(">q", m["producerId"])
        topics = {}
        for t, n in m["partitions"]:
            topics.setdefault(t, []).append(n)
        out += put_uvarint(len(topics) + 1)
        for t, ns in topics.items():
            out += put_uvarint(len(t.encode()) + 1) + t.encode() + put_uvarint(len(ns) + 1)
            for n in ns:
                out += struct.pack(">ih", n, errors[(mi, t, n)]) + b"\x00"
            out += b"\x00"
        out += b"\x00"
    return out + b"\x00"


# ------------------------------------------------------------------------------------------------
# Scenario files and the simulator
# ------------------------------------------------------------------------------------------------
def parse_eos(path):
    """[(line, words)] with `repeat` expanded, comments dropped."""
    out = []
    with open(path) as f:
        for n, raw in enumerate(f, 1):
            # `#` starts a comment at the start of a line or after a space (`b1#1` stays a word)
            line = re.split(r"(?:^|\s)#", raw, maxsplit=1)[0].strip()
            if not line:
                continue
            m = re.match(r"repeat (\d+):(.*)", line)
            if m:
                for _ in range(int(m.group(1))):
                    for part in m.group(2).split(";"):
                        if part.strip():
                            out.append((n, part.split()))
                continue
            out.append((n, line.split()))
    return out


def duration_ms(s):
    m = re.fullmatch(r"(\d+)(ms|s|m|h|d)?", s)
    mult = {"ms": 1, "s": 1000, "m": 60000, "h": 3600000, "d": 86400000, None: 1}[m.group(2)]
    return int(m.group(1)) * mult


# The model's line for each broker the harness runs (`eoslab run --kafka`): where Kafka lines
# differ (src model/line.rs) the simulator answers as the broker's line does.
LINES = {"4.1.2": "4.1", "4.3.1": "4.3"}
KAFKA_LINE = "4.3"


def simulate(path):
    line = ["--kafka", KAFKA_LINE]
    r = subprocess.run([EOSLAB, "run", "--json", *line, path], capture_output=True, text=True)
    if not r.stdout.strip():
        raise RuntimeError(f"eoslab run --json {path} printed nothing: {r.stderr}")
    rep = json.loads(r.stdout)
    t = subprocess.run([EOSLAB, "run", *line, path], capture_output=True, text=True).stdout
    aborted = {}
    for m in re.finditer(r"^  (\S+): HW (\d+) LSO (\d+) aborted \[(.*)\]$", t, re.M):
        aborted[m.group(1)] = [int(a) for a, _ in re.findall(r"\((\d+), (\d+)\)", m.group(4))]
    rep["_aborted"] = aborted
    return rep


def sim_log(rep, part):
    out = []
    for r in rep["records"]:
        if r["partition"] != part or r["kind"] == "txn-log":
            continue
        if r["kind"] == "commit":
            out.append((r["offset"], "[COMMIT]"))
        elif r["kind"] == "abort":
            out.append((r["offset"], "[ABORT]"))
        else:
            for i, v in enumerate(r["values"]):
                out.append((r["offset"] + i, "null" if v is None else v))
    return sorted(out)


# ------------------------------------------------------------------------------------------------
# Kafka record batches (magic 2), enough to list values and control markers
# ------------------------------------------------------------------------------------------------
def varint(b, i):
    shift = result = 0
    while True:
        x = b[i]
        i += 1
        result |= (x & 0x7F) << shift
        if not x & 0x80:
            break
        shift += 7
    return (result >> 1) ^ -(result & 1), i


def decode_batches(data):
    out = []  # (offset, value | "[COMMIT]" | "[ABORT]", producerId)
    i = 0
    while i + 12 <= len(data):
        base, length = struct.unpack(">qi", data[i:i + 12])
        end = i + 12 + length
        if end > len(data):
            break
        attrs = struct.unpack(">h", data[i + 21:i + 23])[0]
        pid = struct.unpack(">q", data[i + 43:i + 51])[0]
        count = struct.unpack(">i", data[i + 57:i + 61])[0]
        if attrs & 0x07:
            raise RuntimeError("compressed batch: the harness produces uncompressed batches")
        j = i + 61
        for _ in range(count):
            _len, j = varint(data, j)
            j += 1  # attributes
            _ts, j = varint(data, j)
            delta, j = varint(data, j)
            klen, j = varint(data, j)
            key = data[j:j + klen] if klen >= 0 else None
            j += max(klen, 0)
            vlen, j = varint(data, j)
            val = data[j:j + vlen] if vlen >= 0 else None
            j += max(vlen, 0)
            hc, j = varint(data, j)
            for _h in range(hc):
                hk, j = varint(data, j)
                j += hk
                hv, j = varint(data, j)
                j += max(hv, 0)
            if attrs & 0x20:
                ctype = struct.unpack(">h", key[2:4])[0]
                out.append((base + delta, "[COMMIT]" if ctype == 1 else "[ABORT]", pid))
            else:
                out.append((base + delta, "null" if val is None else val.decode(), pid))
        i = end
    return out


# ------------------------------------------------------------------------------------------------
# One scenario against the real broker
# ------------------------------------------------------------------------------------------------
REQUEST_VERBS = {"initproducerid": "init-producer-id", "addpartitionstotxn": "add-partitions-to-txn",
                 "endtxn": "end-txn", "writetxnmarkers": "marker", "marker": "marker", "produce": "produce",
                 "fetch": "fetch", "listoffsets": "list-offsets", "findcoordinator": "find-coordinator",
                 "addoffsetstotxn": "add-offsets-to-txn", "txnoffsetcommit": "txn-offset-commit", "offsetfetch": "offset-fetch"}


def request_verb(word):
    """The request a script line's verb names (`end-txn`, Kafka's `EndTxn`), or None."""
    return REQUEST_VERBS.get(word.replace("-", "").lower())


def check_reply(r, ws):
    """`expect LABEL …` on a normalized answer (the model's `check_reply`): None when it holds,
    else what the answer has."""
    rng = lambda o: "none" if not o else f"{o[0]}..{o[1]}"  # noqa: E731
    opt = lambda v: "none" if v is None else str(v)  # noqa: E731
    if not ws:
        return "nothing to check"
    if ws[0] in ("error", "offset") and len(ws) == 3:  # one partition's answer (TxnOffsetCommit, OffsetFetch)
        pa = next((x for x in r.get("partitions", []) if x[0] == ws[1]), None)
        if pa is None:
            return f"no answer for {ws[1]}"
        if ws[0] == "error":
            return None if pa[1] == ws[2] else pa[1]
        return None if pa[1] == "NONE" and opt(pa[2]) == ws[2] else (pa[1] if pa[1] != "NONE" else opt(pa[2]))
    if ws[0] == "error":
        return None if r.get("error") == ws[1] else r.get("error")
    if ws[0] in ("rule", "partition"):
        return None
    if ws[0] == "pid" and len(ws) == 4:
        g = f"pid {opt(r.get('producerId'))} epoch {opt(r.get('producerEpoch'))}"
        return None if g == f"pid {ws[1]} epoch {ws[3]}" else g
    if ws[0] == "pid":
        return None if opt(r.get("producerId")) == ws[1] else opt(r.get("producerId"))
    if ws[0] == "epoch":
        return None if opt(r.get("producerEpoch")) == ws[1] else opt(r.get("producerEpoch"))
    if ws[0] in ("appended", "duplicate"):
        ok = r.get("outcome") == ws[0] and (len(ws) == 1 or ws[1] == rng(r.get("offsets")))
        return None if ok else f"{r.get('outcome')} {rng(r.get('offsets'))} {r.get('error')}"
    if ws[0] == "rejected":
        return None if r.get("outcome") == "rejected" and r.get("error") == ws[1] else f"{r.get('outcome')} {r.get('error')}"
    if ws[0] == "offsets":
        return None if rng(r.get("offsets")) == ws[1] else rng(r.get("offsets"))
    if ws[0] in ("offset", "hw", "lso"):
        key = {"offset": "offset", "hw": "highWatermark", "lso": "lastStableOffset"}[ws[0]]
        return None if opt(r.get(key)) == ws[1] else opt(r.get(key))
    if ws[0] == "aborted":
        a = r.get("aborted")
        g = "null" if a is None else ("none" if not a else " ".join(f"{p}@{f}" for p, f in a))
        return None if g == " ".join(ws[1:]) else g
    if ws[0] == "records":
        g = " ".join("null" if v is None else v for _, v in r.get("records", [])) or "nothing"
        return None if g == " ".join(ws[1:]) else g
    return f"no translation for `expect … {ws[0]}`"


def crc32c(data):
    """CRC-32C (Castagnoli), as the record batch's CRC field."""
    crc = 0xFFFFFFFF
    for b in data:
        crc ^= b
        for _ in range(8):
            crc = (crc >> 1) ^ (0x82F63B78 & -(crc & 1))
    return crc ^ 0xFFFFFFFF


def zigzag(n):
    """A Kafka varint (zigzag-encoded)."""
    return put_uvarint((n << 1) ^ (n >> 63))


def build_batch(pid, epoch, base_seq, values, ts):
    """An uncompressed, non-transactional v2 batch of `values` (as a producer sends it: baseOffset 0)."""
    recs = b""
    for i, v in enumerate(values):
        body = b"\x00" + zigzag(0) + zigzag(i) + zigzag(-1) + zigzag(len(v)) + v.encode() + zigzag(0)
        recs += zigzag(len(body)) + body
    tail = struct.pack(">hiqqqhii", 0, len(values) - 1, ts, ts, pid, epoch, base_seq, len(values)) + recs
    head = struct.pack(">qiib", 0, 4 + 1 + 4 + len(tail), -1, 2)
    return head + struct.pack(">I", crc32c(tail)) + tail


def seq_count(first, last):
    """Records in a batch whose sequences run first..last (wrapping past 2147483647)."""
    return last - first + 1 if last >= first else (2147483647 - first) + last + 2


class Skip(Exception):
    pass


class Run:
    def __init__(self, name, path, broker, probe, sabotage):
        self.name, self.path, self.broker, self.p = name, path, broker, probe
        self.sabotage = sabotage
        self.lines = parse_eos(path)
        self.sim = simulate(path)
        self.results = []   # (line, text, status, sim, kafka, note)
        self.skipped_steps = []
        self.tainted = None
        self.producers, self.consumers, self.groups = {}, {}, {}
        # producers without a transactional.id (the idempotence scripts' producers, hosted in the
        # transactions world): name -> settings; and each of their batches bN -> real offsets
        self.hosted, self.hosted_batches, self.hosted_queue = {}, {}, []
        self.hosted_pids = 0  # producer ids the idempotent ones took at construction, before any other
        self.partitions = []
        self.received = {}
        self.last_threw = {}
        self.offset_fetch = {}
        self.pid_base = None
        self.first_pid = 1000
        self.max_block = 10000
        self.request_timeout = None  # the transactional producers' request.timeout.ms, when a script loses an answer
        self.lose_armed = None  # (producer, api key, losses before) once `inject P API lose-response` ran
        self.lost = {}
        self.trace = []  # what the harness saw, printed when the scenario disagrees
        self.answered = set()  # producer ids whose markers the harness answered in this step
        self.marker_reqs = []  # the coordinator's WriteTxnMarkers requests the proxy holds (see sync_markers)
        self.marker_answers = []  # (partition, error code) of the markers delivered in this step
        self.clock0 = None  # (real monotonic s, model ms) at the first step: `advance` keeps to it
        self.found = set()  # transactional ids whose coordinator answered FindCoordinator
        self.request_tids = set()  # transactional ids named by request lines (`end-txn transactional.id=…`)
        self.replies = {}  # request label -> Kafka's answer, normalized as the simulator's reply
        self.sim_coordinator_epoch = None
        self.ce_offset = 0  # real coordinator epoch minus the model's, once a marker showed it
        self.seeded_real = {}  # model pid -> real pid of a `producer-state` line's producer
        self.seeded_end = {}  # partition -> offset after its last `producer-state` batch (no records in the model)

    # names on the real broker
    def topic(self, part):
        t, n = part.rsplit("-", 1)
        return f"{self.name}.{t}", int(n)

    def real_part(self, part):
        t, n = self.topic(part)
        return f"{t}-{n}"

    def tid(self, tid):
        return f"{self.name}.{tid}"

    def client(self, action, name, **kw):
        return self.p.client(action, f"{self.name}.{name}", **kw)

    # -- set-up ------------------------------------------------------------------------------
    def setup(self):
        for n, w in self.lines:
            if w[0] == "partition":
                self.partitions += w[1:]
            elif w[0] == "partitions":
                self.partitions += [f"{w[1]}-{i}" for i in range(int(w[2]))]
            elif w[0] == "first-producer-id":
                self.first_pid = int(w[1])
            elif w[0] == "commit" and "lose-response" in w:
                self.max_block = 2000
            elif w[0] == "inject" and ((w[-1] == "hold" and w[2] in HOLD_API_KEYS)
                                       or (w[-1] in ("lose-response", "lose-request") and w[2] in CLIENT_API_KEYS)):
                self.request_timeout = LOSE_REQUEST_TIMEOUT_MS
                self.max_block = max(self.max_block, 20000)
        topics = {}
        for part in self.partitions:
            t, i = self.topic(part)
            topics[t] = max(topics.get(t, 0), i + 1)
        for t, k in topics.items():
            self.p.create_topic(t, partitions=k)
        for n, w in self.lines:
            if w[0] == "producer" and not any(x.startswith("transactional.id=") for x in w[2:]):
                # A Java producer without a transactional.id: idempotent unless idempotence=false
                kv = dict(x.split("=", 1) for x in w[2:])
                cfg = {"bootstrap.servers": f"127.0.0.1:{self.broker.clients.port}", "acks": "all",
                       "linger.ms": "0", "max.block.ms": str(self.max_block),
                       "enable.idempotence": kv.get("idempotence", kv.get("enable.idempotence", "true"))}
                for key in ("max.in.flight", "max.in.flight.requests.per.connection"):
                    if key in kv:
                        cfg["max.in.flight.requests.per.connection"] = kv[key]
                self.hosted[w[1]] = kv
                self.check_ok(self.client("producer", w[1], config=cfg), f"producer {w[1]}")
                # its Sender asks for a producer id at once (InitProducerId, null transactionalId):
                # let it have it before any other client asks, as in the model
                time.sleep(1.0)
                if cfg["enable.idempotence"] == "true":
                    self.hosted_pids += 1
            elif w[0] == "producer":
                kv = dict(x.split("=", 1) for x in w[2:])
                cfg = {"bootstrap.servers": f"127.0.0.1:{self.broker.clients.port}",
                       "transactional.id": self.tid(kv["transactional.id"]),
                       "max.block.ms": str(self.max_block), "linger.ms": "0",
                       "retry.backoff.ms": "20", "retry.backoff.max.ms": "100"}
                if self.request_timeout:
                    cfg["request.timeout.ms"] = str(self.request_timeout)
                    # The answer the proxy drops must be the one the model loses: not an answer of the
                    # broker's start. Its coordinator answers (FindCoordinator), and its first
                    # InitProducerId has a producer-id block to take from: an idempotent InitProducerId
                    # (no transactional.id) fetches it, answered COORDINATOR_LOAD_IN_PROGRESS until it
                    # came (RPCProducerIdManager). Producer ids stay relative to the client's first.
                    self.find_coordinator(cfg["transactional.id"])
                    deadline = time.monotonic() + 10
                    while self.p.request("InitProducerId", 4, {"transactionalId": None, "transactionTimeoutMs": 60000,
                                                               "producerId": -1, "producerEpoch": -1})["errorCode"]:
                        if time.monotonic() > deadline:
                            raise RuntimeError("no producer-id block within 10s")
                        time.sleep(0.1)
                if "transaction.timeout.ms" in kv:
                    cfg["transaction.timeout.ms"] = str(int(duration_ms(kv["transaction.timeout.ms"]) * TIME_SCALE))
                if "transaction.two.phase.commit.enable" in kv:
                    cfg["transaction.two.phase.commit.enable"] = kv["transaction.two.phase.commit.enable"]
                self.producers[w[1]] = kv["transactional.id"]
                self.check_ok(self.client("producer", w[1], config=cfg), f"producer {w[1]}")
            elif w[0] == "consumer":
                iso = w[2]
                group = next((x.split("=", 1)[1] for x in w[3:] if x.startswith("group=")), None)
                parts = [x for x in w[3:] if "=" not in x]
                cfg = {"bootstrap.servers": f"127.0.0.1:{self.broker.clients.port}",
                       "isolation.level": iso, "auto.offset.reset": "earliest"}
                kw = {}
                if group:
                    cfg.update({"group.id": f"{self.name}.{group}", "group.protocol": "classic"})
                    if self.request_timeout:
                        self.find_group_coordinator(f"{self.name}.{group}")
                    kw["subscribe"] = sorted({self.topic(x)[0] for x in parts})
                    self.groups.setdefault(group, []).append(w[1])
                else:
                    kw["assign"] = [list(self.topic(x)) for x in parts]
                self.consumers[w[1]] = {"group": group, "parts": parts, "iso": iso}
                self.received[w[1]] = []
                self.check_ok(self.client("consumer", w[1], config=cfg, **kw), f"consumer {w[1]}")
        self.replay_producer_states()

    # A PID far above any the test broker's ProducerIdManager hands out, for a seeded producer.
    SEEDED_PID_BASE = 1 << 40

    def replay_producer_states(self):
        """`producer-state PART pid=N epoch=E seq=A..B [offset=O]` replayed as the Produce requests that
        leave exactly that entry on a real leader: records without a producer id up to offset O (no
        producer state), then one non-transactional batch of producer N at epoch E with sequences A..B.
        The leader has no state for N, so it accepts any epoch and first sequence (A6/A7's exception,
        KIP-360), and its entry is then {epoch E, one batch A..B at O.., no transaction}, as the model's.
        The model's log holds no records below the seeded batch's end: Kafka's are left out of the
        comparison there. `txn-first=` (an open transaction) is not replayed: see NOT CHECKED."""
        seeds = [(n, w) for n, w in self.lines if w[0] == "producer-state"]
        for n, w in seeds:
            if any(x.startswith("txn-first=") for x in w):
                raise Skip(f"line {n} `{' '.join(w)}`: a real leader holds an open transaction only for a producer "
                           "its transaction coordinator added to one (AddPartitionsToTxn, or the TV2 leader's add), "
                           "with the coordinator's producer id, epoch and timeout; the model's seeded entry has no "
                           "coordinator side, so no sequence of real requests leaves the same state")
        if seeds:
            self.first_pid = max([self.first_pid] + [int(dict(x.split("=", 1) for x in w[2:])["pid"]) + 1 for _, w in seeds])
        for n, w in seeds:
            kv = dict(x.split("=", 1) for x in w[2:])
            pid, epoch = int(kv["pid"]), int(kv["epoch"])
            a, _, b = kv["seq"].partition("..")
            a, b = int(a), int(b or a)
            count = seq_count(a, b)
            if count > 10000:
                raise Skip(f"line {n}: a seeded batch of {count} records is too long to replay")
            t, i = self.topic(w[1])
            end = self.p.list_offsets(t, i)["offset"]
            off = int(kv.get("offset", end))
            now = int(time.time() * 1000)
            if off > end:
                pr = self.p.produce(t, i, build_batch(-1, -1, -1, ["-"] * (off - end), now), version=12)
                if pr["errorCode"] != 0:
                    raise RuntimeError(f"line {n}: filler records up to offset {off}: error {pr['errorCode']}")
            real = self.seeded_real.setdefault(pid, self.SEEDED_PID_BASE + pid)
            pr = self.p.produce(t, i, build_batch(real, epoch, a, [f"seed{k}" for k in range(count)], now), version=12)
            if pr["errorCode"] != 0 or pr["baseOffset"] != off:
                raise RuntimeError(f"line {n}: replaying the seeded batch: {pr}")
            self.seeded_end[w[1]] = off + count
            d = next((x for x in self.p.describe_producers(t, i).get("activeProducers", []) if x["producerId"] == real), {})
            got = f"epoch {d.get('producerEpoch')} lastSequence {d.get('lastSequence')} txn {d.get('currentTxnStartOffset')}"
            want = f"epoch {epoch} lastSequence {b} txn -1"
            self.record(n, f"producer-state {w[1]} replayed (DescribeProducers)", "agree" if got == want else "DISAGREE",
                        want, got, f"real producer id {real}; records 0..{off + count - 1} left out of the log comparison")

    @staticmethod
    def check_ok(a, what):
        if a.get("threw"):
            raise RuntimeError(f"{what}: {a['threw']}")
        return a

    # -- raw observations --------------------------------------------------------------------
    def describe_txn(self, tid):
        r = self.p.request("DescribeTransactions", 0, {"transactionalIds": [self.tid(tid)]})
        s = r["transactionStates"][0]
        if s["errorCode"] != 0:
            return {"transactionState": "none", "errorCode": s["errorCode"]}
        return s

    def fetch(self, part, isolation):
        t, n = self.topic(part)
        return self.p.fetch(t, n, 0, isolation=isolation)

    def log(self, part):
        f = self.fetch(part, 0)
        data = base64.b64decode(f["records"]) if f.get("records") else b""
        return decode_batches(data)

    def lso_hw(self, part):
        f = self.fetch(part, 1)
        return f["lastStableOffset"], f["highWatermark"], [a["firstOffset"] for a in (f.get("abortedTransactions") or [])]

    def offsets(self, group, part, stable):
        t, n = self.topic(part)
        r = self.p.request("OffsetFetch", 8, {"groups": [{"groupId": f"{self.name}.{group}", "topics": [
            {"name": t, "partitionIndexes": [n]}]}], "requireStable": stable})
        g = r["groups"][0]
        if g["errorCode"]:
            return ERROR_CODES.get(g["errorCode"], str(g["errorCode"]))
        pp = g["topics"][0]["partitions"][0]
        if pp["errorCode"]:
            return ERROR_CODES.get(pp["errorCode"], str(pp["errorCode"]))
        return "none" if pp["committedOffset"] < 0 else str(pp["committedOffset"])

    def feature_level(self):
        r = self.p.request("ApiVersions", 3, {"clientSoftwareName": "eoslab", "clientSoftwareVersion": "1"})
        for f in r.get("finalizedFeatures", []):
            if f["name"] == "transaction.version":
                return str(f["maxVersionLevel"])
        return "0"

    def state(self, who):
        return self.client("state", who)

    def all_tids(self):
        return set(self.producers.values()) | self.request_tids

    def rel_pid(self, pid):
        seeded = {r: m for m, r in self.seeded_real.items()}
        if pid in seeded:
            return seeded[pid]
        return pid - self.pid_base + self.first_pid if self.pid_base is not None else pid

    # -- the client calls, each asynchronous; a call blocked by a held marker stays pending --
    def call(self, who, action, wait=2.0, **kw):
        self.client(action, who, **kw, **{"async": True})
        return self.await_call(who, wait)

    def await_call(self, who, wait):
        a = self.client("await", who, timeoutMs=int(wait * 1000))
        if not a.get("pending") and not a.get("idle"):
            if a.get("threw"):  # as the simulator's: the last exception a call threw
                self.last_threw[who] = a.get("threw")
            if self.pid_base is None and a.get("pid", -1) >= 0:
                # the real id of the model's first-producer-id (the hosted producers took the first)
                self.pid_base = a["pid"] - self.hosted_pids
        return a

    def await_lost(self, n, w):
        """The call whose answer the proxy drops: wait for the drop, then for the client's
        request.timeout.ms and its retry, and collect the call's result (if it has one now)."""
        who, key, before = self.lose_armed
        self.lose_armed = None
        deadline = time.monotonic() + 15
        while len(self.broker.clients.lost) <= before and time.monotonic() < deadline:
            time.sleep(0.05)
        if len(self.broker.clients.lost) <= before:
            self.broker.clients.lose_responses.pop(key, None)
            self.broker.clients.lose_requests.pop(key, None)
            raise RuntimeError(f"line {n} `{' '.join(w)}`: no request or answer of api key {key} reached the client proxy within 15s")
        self.trace.append(f"line {n}: the request or answer (api key {key}) was dropped; the client retries after request.timeout.ms")
        time.sleep(self.request_timeout / 1000 + 1.5)
        if w[0] != "send":
            self.await_call(who, 3.0)

    def settle_pending(self, wait=3.0):
        """Calls that waited for the markers return now (or stay pending after `wait`)."""
        for who in list(self.producers):
            self.await_call(who, wait)

    # -- markers: the coordinator's WriteTxnMarkers requests are held by the proxy; the harness
    # delivers them partition by partition as the script says, sending each marker to the leader
    # as a WriteTxnMarkers request with the coordinator's own fields (the leader's decision is the
    # same whoever sends it: KafkaApis.handleWriteTxnMarkersRequest), and answers the coordinator
    # in the broker's place once every marker of its request has been delivered. So one
    # partition's marker can arrive alone, be held up, or arrive after a failover from the old
    # coordinator, exactly as in the simulator.
    def sync_markers(self):
        """Take in the WriteTxnMarkers requests the proxy holds now."""
        for conn, frame in self.broker.markers.held_frames(27):
            if any(r["frame"] is frame for r in self.marker_reqs):
                continue
            version, markers = parse_write_txn_markers(frame)
            self.marker_reqs.append({"conn": conn, "frame": frame, "version": version, "markers": markers,
                                     "errors": {}, "delayed": set(), "dead": False})
            self.trace.append(f"WriteTxnMarkers v{version} held: " + "; ".join(
                f"pid {m['producerId']} epoch {m['producerEpoch']} {'COMMIT' if m['transactionResult'] else 'ABORT'} "
                f"coordinator epoch {m['coordinatorEpoch']} tv {m['transactionVersion']} {m['partitions']}"
                for m in markers))

    def markers_to(self, real, include_delayed):
        """[(request, marker index)] with an undelivered marker for the real partition `real`."""
        out = []
        for r in self.marker_reqs:
            for mi, m in enumerate(r["markers"]):
                key = (mi, *real)
                if real in m["partitions"] and key not in r["errors"] and (include_delayed or key not in r["delayed"]) \
                        and (not r["dead"] or key in r["delayed"]):
                    out.append((r, mi))
        return out

    def send_marker(self, r, mi, parts):
        """The leader gets marker `mi` of request `r` for `parts` ([(topic, index)])."""
        m = r["markers"][mi]
        if not r["dead"] and self.sim_coordinator_epoch is not None:
            # a request line's coordinator-epoch=C means the model's epoch C: Kafka's differs by this
            self.ce_offset = m["coordinatorEpoch"] - self.sim_coordinator_epoch
        topics = {}
        for t, n in parts:
            topics.setdefault(t, []).append(n)
        body = {"markers": [{"producerId": m["producerId"], "producerEpoch": m["producerEpoch"],
                             "transactionResult": m["transactionResult"],
                             "topics": [{"name": t, "partitionIndexes": ns} for t, ns in topics.items()],
                             "coordinatorEpoch": m["coordinatorEpoch"], "transactionVersion": m["transactionVersion"]}]}
        resp = self.p.request("WriteTxnMarkers", r["version"], body)
        for tr in resp["markers"][0]["topics"]:
            for pr in tr["partitions"]:
                r["errors"][(mi, tr["name"], pr["partitionIndex"])] = pr["errorCode"]
                self.marker_answers.append((self.sim_partition(tr["name"], pr["partitionIndex"]), pr["errorCode"]))
        if not r["dead"] and all((i, t, n) in r["errors"] for i, mk in enumerate(r["markers"]) for t, n in mk["partitions"]):
            if self.broker.markers.answer(r["conn"], r["frame"], write_txn_markers_response(r["markers"], r["errors"])):
                self.answered.update(mk["producerId"] for mk in r["markers"])

    def await_answered(self):
        """The coordinators answered in the broker's place write Complete* (or stop, K4): wait
        until none of their transactions is in Prepare* (3 s)."""
        deadline = time.monotonic() + 3
        while self.answered and time.monotonic() < deadline:
            busy = False
            for t in self.all_tids():
                d = self.describe_txn(t)
                if d.get("producerId") in self.answered and d["transactionState"].startswith("Prepare"):
                    busy = True
            if not busy:
                break
            time.sleep(0.03)
        self.answered = set()

    def sim_partition(self, topic, n):
        if topic == "__consumer_offsets":
            return topic
        return {self.topic(x): x for x in self.partitions}.get((topic, n), f"{topic}-{n}")

    def wait_marker(self, part, include_delayed):
        deadline = time.monotonic() + 3
        while True:
            self.sync_markers()
            found = self.markers_to(self.topic(part), include_delayed)
            if found or time.monotonic() > deadline:
                return found
            time.sleep(0.03)

    def deliver_marker(self, part):
        """`deliver marker P`: every marker queued for P (held up or not, an old coordinator's
        too), oldest first."""
        found = self.wait_marker(part, True)
        if not found:
            raise RuntimeError(f"no WriteTxnMarkers request for {part} reached the proxy within 3s")
        for r, mi in found:
            self.send_marker(r, mi, [self.topic(part)])
        self.await_answered()
        self.settle_pending()

    def delay_marker(self, part):
        """`delay marker P`: the first marker queued for P is held up in the network."""
        found = self.wait_marker(part, False)
        if not found:
            raise RuntimeError(f"no WriteTxnMarkers request for {part} reached the proxy within 3s")
        r, mi = found[0]
        r["delayed"].add((mi, *self.topic(part)))

    def drop_markers(self):
        """A failover: the old coordinator's requests die with its connections; what was held up
        for one partition may still arrive (`deliver marker P`)."""
        for r in self.marker_reqs:
            r["dead"] = True

    def deliver_markers(self):
        """Every transaction now in Prepare* gets its markers (the ones the coordinator has sent
        and those it is about to send), except markers held up for one partition; a transaction
        with such a marker stays in Prepare*, as in the simulator."""
        def prepared():
            out = set()
            for t in self.all_tids():
                d = self.describe_txn(t)
                if d["transactionState"].startswith("Prepare"):
                    out.add((t, d["transactionStartTimeMs"], d["producerEpoch"], d["producerId"]))
            return out

        def waits_for_delayed(target):
            return any(not r["dead"] and any(r["markers"][mi]["producerId"] == target[3] for mi, _t, _n in r["delayed"])
                       for r in self.marker_reqs)
        def refused(target):
            """Every marker of the transaction was answered and one was refused (M1–M3): the
            coordinator stops sending them (K4) and the transaction stays in Prepare*, as in the
            simulator (whose `expect txn` lines then say so)."""
            mine = [(r, mi) for r in self.marker_reqs if not r["dead"]
                    for mi, m in enumerate(r["markers"]) if (m["producerId"], m["producerEpoch"]) == (target[3], target[2])]
            # each request's own partitions: under TV1 the previous transaction of the id has the
            # same (pid, epoch), and its request (answered) names other partitions (seed 31374)
            def keys_of(r, mi):
                return [(mi, t, n) for t, n in r["markers"][mi]["partitions"]]
            return bool(mine) and all(k in r["errors"] for r, mi in mine for k in keys_of(r, mi)) and \
                any(r["errors"].get(k) for r, mi in mine for k in keys_of(r, mi))

        targets = prepared()
        # the markers of these transactions only: one prepared while this step runs (the next
        # transaction that was waiting) keeps its markers until the next delivery, as in the model
        keys = {(t[3], t[2]) for t in targets}
        # Under TV1 the next transaction has the same (pid, epoch) as the one completing: a marker
        # request for a key that already had one held when the step began is the next
        # transaction's, not this one's (a race the CI once lost: txn-next-transaction-waits-v1).
        self.sync_markers()
        known = {id(r["frame"]) for r in self.marker_reqs if not r["dead"]}

        def pending(r):
            return any((mi, t, n) not in r["errors"] for mi, m in enumerate(r["markers"]) for t, n in m["partitions"])
        # keys of the requests still waiting for an answer when the step began (a request already
        # answered, say the previous TV1 transaction's with the same key, does not make a late
        # arrival of this transaction's look like the next one's)
        keys_held = {(m["producerId"], m["producerEpoch"]) for r in self.marker_reqs
                     if id(r["frame"]) in known and pending(r) for m in r["markers"]}
        deadline = time.monotonic() + 15
        while True:
            self.sync_markers()
            for r in self.marker_reqs:
                if r["dead"]:
                    continue
                if id(r["frame"]) not in known and any((m["producerId"], m["producerEpoch"]) in keys_held for m in r["markers"]):
                    continue
                for mi, m in enumerate(r["markers"]):
                    if (m["producerId"], m["producerEpoch"]) not in keys:
                        continue
                    parts = [(t, n) for t, n in m["partitions"] if (mi, t, n) not in r["errors"] and (mi, t, n) not in r["delayed"]]
                    if parts:
                        self.send_marker(r, mi, parts)
            targets = {t for t in targets & prepared() if not waits_for_delayed(t) and not refused(t)}
            if not targets or time.monotonic() > deadline:
                break
            time.sleep(0.03)
        if targets:
            raise RuntimeError(f"the markers of {sorted(targets)} were not written within 15s")
        self.settle_pending()

    def compare_marker_answers(self, k, n, w):
        """The leaders' answers to this step's markers: the simulator's and Kafka's, per partition."""
        sim = []
        msgs = (self.sim_step(k) or {}).get("messages", [])
        for i, m in enumerate(msgs):
            if m["kind"] != "WriteTxnMarkers":
                continue
            mm = re.search(r", (\S+)\)$", m["text"])
            ans = next((x for x in msgs[i + 1:] if x["kind"] == "response" and x["from"] == m["to"]), None)
            part = mm.group(1) if mm else "?"
            sim.append(("__consumer_offsets" if part.startswith("__consumer_offsets-") else part,
                        (ans or {}).get("code") or 0))
        got, self.marker_answers = self.marker_answers, []
        if not sim and not got:
            return
        fmt = lambda xs: " ".join(f"{p}:{ERROR_CODES.get(c, c)}" for p, c in sorted(xs))  # noqa: E731
        self.record(n, f"{' '.join(w)}: the leaders' answers to WriteTxnMarkers", "agree" if sorted(sim) == sorted(got)
                    else "DISAGREE", fmt(sim), fmt(got), "rules M1-M4: each marker's error code, by partition")

    # -- steps -------------------------------------------------------------------------------
    def sim_step(self, k):
        return self.sim["steps"][k] if k < len(self.sim["steps"]) else None

    def step(self, k, n, w):
        cmd = w[0]
        sim = self.sim_step(k)
        if (self.hosted or cmd == "leader-change") and self.hosted_step(n, w):
            return
        if cmd == "init":
            self.call(w[1], "init", wait=3.0)
        elif cmd == "begin":
            self.call(w[1], "begin")
        elif cmd == "send":
            t, i = self.topic(w[2])
            for v in w[3:]:
                # KafkaProducer.send() does not block: the batch may wait (e.g. for the previous
                # transaction's markers) while the application goes on
                a = self.client("send", w[1], topic=t, partition=i, value=v, timeoutMs=1500)
                if a.get("threw"):
                    self.last_threw[w[1]] = a.get("threw")
        elif cmd == "send-all":
            for i in range(int(w[2])):
                t, j = self.topic(self.partitions[i])
                a = self.client("send", w[1], topic=t, partition=j, value=w[3], timeoutMs=5000)
                if a.get("threw"):
                    self.last_threw[w[1]] = a.get("threw")
        elif cmd == "send-offsets":
            a = self.call(w[1], "send-offsets", consumer=f"{self.name}.{w[2]}", wait=15.0)
            self.trace.append(f"line {n} send-offsets: generation {a.get('generation')}, pending {a.get('pending')}, "
                              f"threw {a.get('threw')}")
        elif cmd in ("commit", "abort"):
            action = cmd
            if "lose-response" in w:
                # the coordinator gets EndTxn and decides; its answer is held in the client proxy, so
                # the call times out after max.block.ms with the outcome unknown
                self.broker.clients.hold_responses = {26}
                self.lost[w[1]] = cmd
                self.call(w[1], action, wait=self.max_block / 1000 + 3)
            else:
                if self.lost.get(w[1]) == cmd:
                    # the retried call: the answer it waits for is the one that was held
                    del self.lost[w[1]]
                    self.broker.clients.hold_responses = set()
                    self.broker.clients.release()
                # a held EndTxn: the call waits for it; the script goes on
                self.call(w[1], action, wait=0.5 if self.broker.clients.hold_next.get(26) else 2.0)
        elif cmd in ("deliver", "flush"):
            if cmd == "deliver" and w[1] == "marker":
                self.deliver_marker(w[2])
            else:
                self.deliver_markers()
            if cmd == "flush":
                # then the hosted producers' network, as the model's flush does
                while self.hosted_queue:
                    self.send_hosted(n)
            self.compare_marker_answers(k, n, w)
        elif cmd == "delay":
            self.delay_marker(w[2])
        elif cmd == "crash":
            self.client("crash", w[1])
        elif cmd == "advance":
            ms = duration_ms(w[1]) * TIME_SCALE
            if ms > 8000:
                raise Skip(f"`advance {w[1]}` would take {ms / 1000:.0f}s of real time even scaled by {TIME_SCALE}")
            # the model clock after this step, scaled, from the scenario's first step
            target = self.clock0[0] + (sim["t"] - self.clock0[1]) * TIME_SCALE / 1000
            late = time.monotonic() - target
            if late > 0.5:
                raise Skip(f"the harness ran {late:.1f}s behind the scaled model clock before `advance {w[1]}`")
            time.sleep(max(0.0, target - time.monotonic()))
            # the broker aborts timed-out transactions at its cleanup tick (100 ms): wait for the
            # coordinator to reach the simulator's state (or give up after 3 s and let expects decide)
            want = {t["transactionalId"]: t["state"] for t in sim["state"]["coordinator"]["txns"]}
            # an id the simulator's coordinator no longer has expired at one of its scans (T4):
            # wait for the broker's scan too (DescribeTransactions: not found)
            want.update({t: "none" for t in self.all_tids() if t not in want})
            deadline = time.monotonic() + 3
            while time.monotonic() < deadline:
                if all(self.describe_txn(t)["transactionState"] == s for t, s in want.items()):
                    break
                time.sleep(0.05)
        elif cmd == "failover":
            self.sync_markers()
            self.drop_markers()
            self.broker.restart()
            self.p.connect()  # the raw connection; the Java clients reconnect by themselves
            time.sleep(0.5)
            self.warm_leader_path()
        elif cmd == "poll":
            a = self.client("poll", w[1], untilEnd=True, maxMs=8000)
            if a.get("threw"):
                raise RuntimeError(f"poll {w[1]}: {a['threw']}")
            back = {self.real_part(x): x for x in self.partitions}
            self.received[w[1]] += [(back[f"{r['topic']}-{r['partition']}"], r["value"]) for r in a["records"]]
        elif cmd == "rebalance":
            for c in self.groups[w[1]]:
                a = self.client("rebalance", c)
                self.trace.append(f"line {n} rebalance {c}: generation {a.get('generationBefore')} -> {a.get('generation')}, "
                                  f"{a.get('dropped')} records dropped")
                if a.get("threw") or a.get("generation", 0) <= a.get("generationBefore", 0):
                    raise RuntimeError(f"rebalance {w[1]}: {a}")
        elif cmd == "seek":
            self.client("seek-committed", w[1])
        elif cmd == "offset-fetch" and not any(x.startswith("group=") for x in w):
            c = self.consumers[w[1]]
            for part in c["parts"]:
                self.offset_fetch[(w[1], part)] = self.offsets(c["group"], part, True)
        elif cmd == "effect":
            self.skip_step(n, w, "an external side effect: not a Kafka fact (the simulator's external system)")
        elif cmd == "inject" and w[-1] == "hold":
            # `inject P API hold`: the clients' proxy holds the next request of that API (and what
            # follows it on that connection) until `release P API`; a copy the client timed out
            # and sent again is still delivered then, on the connection the client closed
            self.broker.clients.hold_next[HOLD_API_KEYS[w[2]]] = 1
            self.trace.append(f"line {n}: the client proxy holds the next {w[2]} request")
        elif cmd == "release":
            key = HOLD_API_KEYS[w[2]]
            self.broker.clients.hold_next.pop(key, None)
            if key not in self.broker.clients.release():
                raise RuntimeError(f"line {n} `{' '.join(w)}`: the clients' proxy held no {w[2]} request to deliver")
            time.sleep(0.3)  # the late copy is handled before the next step asks the broker
            self.await_call(w[1], 3.0)
        elif cmd == "inject" and w[-1] in ("lose-response", "lose-request") and w[2] in CLIENT_API_KEYS:
            # lose-response: the coordinator handles the request, the client proxy drops its answer;
            # lose-request: the proxy drops the request. The next call of that producer waits for
            # the client's timeout and retry (await_lost).
            key = CLIENT_API_KEYS[w[2]]
            if w[-1] == "lose-response":
                self.broker.clients.lose_responses[key] = 1
            else:
                self.broker.clients.lose_requests[key] = 1
            self.lose_armed = (w[1], key, len(self.broker.clients.lost))
            self.trace.append(f"line {n}: the client proxy drops the next {w[2]} {'answer' if w[-1] == 'lose-response' else 'request'}")
        elif cmd == "inject" and w[-1] not in RETRIED_ANSWERS.get(w[2], RETRIED_ANSWERS["*"]):
            # An injected answer the Java client does not retry: the call reads an answer the
            # broker never gave, so what follows is the simulator's alone.
            self.skip_step(n, w, "an injected answer the client does not retry: no broker gives it here")
        elif cmd == "inject":
            # A fault on the client's own request (answered without being processed, or its answer
            # lost): the broker sees only the client's retry, as if nothing had been injected.
            # Not a divergence: nothing to untaint (skip_step would mark the markers as differing).
            self.skipped_steps.append((n, " ".join(w), "a fault injected on the client's request: the broker sees its retry, as without the fault"))
        elif cmd == "feature":
            lvl = int(w[1].split("=")[1])
            r = self.p.request("UpdateFeatures", 1, {"timeoutMs": 30000, "featureUpdates": [
                {"feature": "transaction.version", "maxVersionLevel": lvl, "upgradeType": 1}], "validateOnly": False})
            if r["errorCode"] or any(x["errorCode"] for x in r.get("results", [])):
                raise RuntimeError(f"UpdateFeatures: {r}")
            time.sleep(0.5)
        elif cmd == "expect":
            self.expect(k, n, w[1:])
        elif request_verb(cmd):
            self.request_step(k, n, w)
        else:
            raise RuntimeError(f"line {n}: step `{' '.join(w)}` not translated")

    # -- producers without a transactional.id (`producer app`): the idempotence scripts' steps --
    def hosted_step(self, n, w):
        """A hosted producer's step; False when `w` is not one. Its batches are sent for real by a
        Java producer (one record per value, in order, waiting for each acknowledgement), so the
        fault-free path is replayed; a fault on its network cannot be made with one client proxy."""
        cmd = w[0]
        if cmd == "send" and w[1] in self.hosted:
            # The batch reaches the leader when the script delivers its request (other writes to
            # the partition may come first): it is sent for real then.
            self.hosted_queue.append((f"b{len(self.hosted_batches) + len(self.hosted_queue) + 1}", w[1], w[2], w[3:]))
            return True
        if cmd == "deliver" and len(w) > 1 and w[1] == "request":
            b = w[2].split("#")[0]
            while self.hosted_queue and b not in self.hosted_batches:
                self.send_hosted(n)
            return True
        if cmd == "deliver" and len(w) > 1 and w[1] == "response":
            # the Java producer's send waited for its answer when its request was delivered
            return True
        if cmd == "leader-change":
            raise Skip(f"line {n} `{' '.join(w)}`: a leader epoch bump without a second replica, which one broker cannot make")
        if cmd in ("lose", "timeout", "restart", "refuse") or (cmd == "delay" and len(w) > 1 and w[1] == "request"):
            raise Skip(f"line {n} `{' '.join(w)}`: a fault on a producer's own connection needs a proxy per client "
                       "(the harness has one for all clients); the idempotence scenarios check these against Kafka")
        return False

    def send_hosted(self, n):
        """The oldest queued batch of a hosted producer, sent for real (one record per value, in
        order, each acknowledged before the next)."""
        b, who, part, values = self.hosted_queue.pop(0)
        t, i = self.topic(part)
        offsets = []
        for v in values:
            a = self.client("send", who, topic=t, partition=i, value=v, timeoutMs=5000)
            if a.get("threw") or "offset" not in a:
                raise RuntimeError(f"line {n}: {who}'s send did not complete: {a}")
            offsets.append(a["offset"])
        self.hosted_batches[b] = (offsets[0], offsets[-1])

    def hosted_expect(self, n, text, ws):
        """`expect bN appended|acked A..B` against the offsets the real send was acknowledged at;
        False when `ws` is not about a hosted producer's batch."""
        if ws[0] == "producer" and len(ws) > 1 and ws[1] in self.hosted:
            self.record(n, text, "skip", text, "-", "the Java producer does not show its producer id")
            return True
        if ws[0] not in self.hosted_batches:
            return False
        first, last = self.hosted_batches[ws[0]]
        if len(ws) > 1 and ws[1] in ("appended", "acked"):
            got = f"{ws[1]} {first}..{last}"
            ok = len(ws) < 3 or ws[2] == f"{first}..{last}"
            self.record(n, text, "agree" if ok else "DISAGREE", text, got, "the offsets the broker acknowledged the Java producer's send at")
        else:
            self.record(n, text, "skip", text, "-", "only a written batch's offsets are shown by the Java producer")
        return True

    # -- requests asked directly (`end-txn …`, `produce …`): sent with Kafka's own message classes
    # (Probe.java) at the line's version; Kafka's answer is normalized as the simulator's reply
    # (error by name, producer ids relative to the first InitProducerId answer, offsets, HW, LSO,
    # abortedTransactions, record values) and compared field by field.
    def real_pid(self, pid):
        if pid in self.seeded_real:
            return self.seeded_real[pid]
        return pid if pid < 0 or self.pid_base is None else pid - self.first_pid + self.pid_base

    def find_coordinator(self, tid):
        """What a client does before talking to a transaction coordinator: FindCoordinator until it
        answers (the first one creates `__transaction_state`; the model starts with it loaded), then
        until the coordinator has loaded the partition (an InitProducerId-free probe: DescribeTransactions)."""
        if tid in self.found:
            return
        deadline = time.monotonic() + 30
        while True:
            r = self.p.request("FindCoordinator", 4, {"keyType": 1, "coordinatorKeys": [tid]})
            d = self.p.request("DescribeTransactions", 0, {"transactionalIds": [tid]})["transactionStates"][0]
            if r["coordinators"][0]["errorCode"] == 0 and d["errorCode"] in (0, 105):  # 105: TRANSACTIONAL_ID_NOT_FOUND
                self.found.add(tid)
                return
            if time.monotonic() > deadline:
                raise RuntimeError(f"no transaction coordinator for {tid} within 30s: {r}, {d}")
            time.sleep(0.1)

    def coord_request(self, api, version, body, code):
        """A coordinator request, sent again while the answer is COORDINATOR_LOAD_IN_PROGRESS,
        COORDINATOR_NOT_AVAILABLE or NOT_COORDINATOR (C0a/C0b: a coordinator still loading,
        which the model's never is; the Java client retries them the same way)."""
        deadline = time.monotonic() + 15
        while True:
            r = self.p.request(api, version, body)
            if code(r) not in (14, 15, 16) or time.monotonic() > deadline:
                return r
            time.sleep(0.1)

    def warm_leader_path(self):
        """After a restart the broker's first AddPartitionsToTxn to the coordinator (its
        AddPartitionsToTxnManager, through the inter-broker proxy) can meet a disconnect: a
        Produce then gets NETWORK_EXCEPTION as NOT_ENOUGH_REPLICAS (V5). The Java clients retry
        it; a request line would report it. So the harness makes that first connection itself: a
        TV1 transactional Produce (v11) of a producer id no transactional.id owns, whose
        verification the coordinator refuses (INVALID_PRODUCER_ID_MAPPING) — nothing is
        appended and no transaction starts."""
        if not self.partitions:
            return
        t, i = self.topic(self.partitions[0])
        rec = bytes([0x0E, 0x00, 0x00, 0x00, 0x01, 0x02]) + b"w" + bytes([0x00])
        now = int(time.time() * 1000)
        body = struct.pack(">hiqqqhii", 0x10, 0, now, now, 2**40 + 7, 0, 0, 1) + rec
        head = struct.pack(">qiib", 0, 4 + 1 + 4 + len(body), -1, 2)  # baseOffset, batchLength, leader epoch, magic
        batch = head + struct.pack(">I", crc32c(body)) + body
        deadline = time.monotonic() + 5
        while time.monotonic() < deadline:
            r = self.p.produce(t, i, batch, version=11, transactional_id=f"{self.name}.eoslab-warm-up")
            self.trace.append(f"warm-up Produce after the restart: error code {r['errorCode']}")
            if r["errorCode"] != 19:  # NOT_ENOUGH_REPLICAS: the manager's connection failed
                return
            time.sleep(0.1)

    def find_group_coordinator(self, group):
        """FindCoordinator GROUP until it answers (the first one creates `__consumer_offsets`)."""
        if ("group", group) in self.found:
            return
        deadline = time.monotonic() + 30
        while True:
            r = self.p.request("FindCoordinator", 4, {"keyType": 0, "coordinatorKeys": [group]})
            if r["coordinators"][0]["errorCode"] == 0:
                self.found.add(("group", group))
                return
            if time.monotonic() > deadline:
                raise RuntimeError(f"no group coordinator for {group} within 30s: {r}")
            time.sleep(0.1)

    def group_step(self, verb, kv, words, tid, pid, epoch, version, err, got):
        """AddOffsetsToTxn / TxnOffsetCommit / OffsetFetch: the group's name on the broker is
        prefixed like every other name; answers per partition in the line's order."""
        group = f"{self.name}.{kv['group']}"
        self.find_group_coordinator(group)
        if verb == "add-offsets-to-txn":
            r = self.coord_request("AddOffsetsToTxn", version if version is not None else 4,
                                   {"transactionalId": tid, "producerId": pid, "producerEpoch": epoch, "groupId": group},
                                   lambda r: r["errorCode"])
            got["error"] = err(r["errorCode"])
            return
        if verb == "txn-offset-commit":
            offsets = [(x.split("=", 1)[0], int(x.split("=", 1)[1])) for x in words
                       if "=" in x and re.fullmatch(r".+-\d+", x.split("=", 1)[0])]
            topics = {}
            for part, off in offsets:
                t, i = self.topic(part)
                topics.setdefault(t, []).append({"partitionIndex": i, "committedOffset": off,
                                                 "committedLeaderEpoch": -1, "committedMetadata": ""})
            body = {"transactionalId": tid, "groupId": group, "producerId": pid, "producerEpoch": epoch,
                    "generationId": int(kv.get("generation", -1)), "memberId": kv.get("member", ""),
                    "groupInstanceId": kv.get("group-instance-id"),
                    "topics": [{"name": t, "partitions": ps} for t, ps in topics.items()]}
            r = self.coord_request("TxnOffsetCommit", version if version is not None else 5, body,
                                   lambda r: r["topics"][0]["partitions"][0]["errorCode"])
            codes = {self.sim_partition(t["name"], p["partitionIndex"]): p["errorCode"]
                     for t in r["topics"] for p in t["partitions"]}
            got["error"] = err(next((codes[p] for p, _ in offsets if codes.get(p)), 0))
            got["partitions"] = [[p, err(codes.get(p, -1)), None] for p, _ in offsets]
            return
        parts = [x for x in words if "=" not in x and x != "require-stable"]
        topics = {}
        for part in parts:
            t, i = self.topic(part)
            topics.setdefault(t, []).append(i)
        body = {"groups": [{"groupId": group, "topics": [{"name": t, "partitionIndexes": ns} for t, ns in topics.items()]}],
                "requireStable": "require-stable" in words}
        r = self.coord_request("OffsetFetch", 8, body, lambda r: r["groups"][0]["errorCode"])
        g = r["groups"][0]
        ans = {}
        for t in g.get("topics") or []:
            for pp in t["partitions"]:
                off = pp["committedOffset"]
                ans[self.sim_partition(t["name"], pp["partitionIndex"])] = (pp["errorCode"] or g["errorCode"], None if off < 0 else off)
        got["partitions"] = [[p, err(ans.get(p, (g["errorCode"], None))[0]), ans.get(p, (0, None))[1]] for p in parts]
        got["error"] = next((x[1] for x in got["partitions"] if x[1] != "NONE"), err(g["errorCode"]))
        got["offset"] = got["partitions"][0][2] if len(parts) == 1 and got["partitions"][0][1] == "NONE" else None

    def request_step(self, k, n, w):
        verb = request_verb(w[0])
        words = list(w[1:])
        label = None
        if len(words) >= 2 and words[-2] == "as":
            label, words = words[-1], words[:-2]
        if verb == "init-producer-id" and ("keep-prepared" in words or "enable-2pc" in words):
            # KIP-939's flags: the simulator answers OUTSIDE_MODEL (I13), nothing to compare
            self.skip_step(n, w, "InitProducerId v6's KIP-939 flags are OUTSIDE_MODEL in the simulator")
            return
        kv = dict(x.split("=", 1) for x in words if "=" in x)
        bare = [x for x in words if "=" not in x]
        tid = self.tid(kv["transactional.id"]) if kv.get("transactional.id") else None
        if kv.get("transactional.id") == '""':
            tid = ""  # the empty string, not null (I2): no coordinator is looked up for it
        elif kv.get("transactional.id"):
            self.request_tids.add(kv["transactional.id"])
            self.find_coordinator(tid)
        pid = self.real_pid(int(kv["pid"])) if "pid" in kv else -1
        epoch = int(kv.get("epoch", -1))
        version = int(kv["v"]) if "v" in kv else None
        names = self.p.error_names()
        err = lambda c: names.get(c, str(c))  # noqa: E731
        got = {}
        if verb == "init-producer-id":
            timeout = duration_ms(kv["timeout"]) if "timeout" in kv else 60000
            if "timeout" in kv and 0 < timeout < 900000:
                # a transaction timeout the script gives runs on the model's clock, scaled like
                # `advance` (as the Java clients' transaction.timeout.ms); one the coordinator
                # refuses (I3, over transaction.max.timeout.ms) or at the maximum is sent as given
                timeout = max(1, int(timeout * TIME_SCALE))
            v = version if version is not None else 5
            body = {"transactionalId": tid, "transactionTimeoutMs": timeout}
            if v >= 3:  # KIP-360's fields
                body.update({"producerId": pid, "producerEpoch": epoch})
            r = self.coord_request("InitProducerId", v, body, lambda r: r["errorCode"])
            got["error"] = err(r["errorCode"])
            if r["errorCode"] == 0:
                if self.pid_base is None:
                    self.pid_base = r["producerId"] - self.hosted_pids
                got["producerId"], got["producerEpoch"] = self.rel_pid(r["producerId"]), r["producerEpoch"]
        elif verb == "add-partitions-to-txn":
            topics = {}
            for part in bare:
                if part == "verify-only":
                    continue
                t, i = self.topic(part)
                topics.setdefault(t, []).append(i)
            tl = [{"name": t, "partitions": ps} for t, ps in topics.items()]
            v = version if version is not None else (4 if "verify-only" in bare else 3)
            if v <= 3:
                r = self.coord_request("AddPartitionsToTxn", v, {"v3AndBelowTransactionalId": tid, "v3AndBelowProducerId": pid,
                                                                 "v3AndBelowProducerEpoch": epoch, "v3AndBelowTopics": tl},
                                       lambda r: max(p["partitionErrorCode"] for t in r["resultsByTopicV3AndBelow"] for p in t["resultsByPartition"]))
                results = r["resultsByTopicV3AndBelow"]
            else:
                r = self.coord_request("AddPartitionsToTxn", v, {"transactions": [{
                    "transactionalId": tid, "producerId": pid, "producerEpoch": epoch,
                    "verifyOnly": "verify-only" in bare, "topics": tl}]},
                    lambda r: r["errorCode"] or max([p["partitionErrorCode"] for x in r["resultsByTransaction"]
                                                     for t in x["topicResults"] for p in t["resultsByPartition"]] or [0]))
                results = r["resultsByTransaction"][0]["topicResults"] if r["resultsByTransaction"] else []
                if r["errorCode"]:
                    results = [{"resultsByPartition": [{"partitionErrorCode": r["errorCode"]}]}]
            codes = [p["partitionErrorCode"] for t in results for p in t["resultsByPartition"]]
            got["error"] = err(next((c for c in codes if c), 0))
        elif verb == "end-txn":
            v = version if version is not None else 5
            r = self.coord_request("EndTxn", v, {"transactionalId": tid, "producerId": pid, "producerEpoch": epoch,
                                                 "committed": "commit" in bare}, lambda r: r["errorCode"])
            got["error"] = err(r["errorCode"])
            if r["errorCode"] == 0 and v >= 5:
                got["producerId"], got["producerEpoch"] = self.rel_pid(r["producerId"]), r["producerEpoch"]
        elif verb == "marker":
            # `marker P1 P2 …`: one request naming every partition, answered per partition
            parts = [x for x in bare if x not in ("commit", "abort")]
            topics = {}
            for part in parts:
                t, i = self.topic(part)
                topics.setdefault(t, []).append(i)
            tv = int(kv.get("tv", 1))
            ce = int(kv.get("coordinator-epoch", 0)) + self.ce_offset
            body = {"markers": [{"producerId": pid, "producerEpoch": epoch, "transactionResult": "commit" in bare,
                                 "topics": [{"name": t, "partitionIndexes": ns} for t, ns in topics.items()],
                                 "coordinatorEpoch": ce, "transactionVersion": tv}]}
            ends = {part: self.p.list_offsets(*self.topic(part))["offset"] for part in parts}
            # 4.0-4.1 speak WriteTxnMarkers v1 only, which has no transactionVersion (KIP-1228)
            mv = 1 if KAFKA_LINE == "4.1" else 2
            if mv == 1:
                del body["markers"][0]["transactionVersion"]
            r = self.p.request("WriteTxnMarkers", mv, body)
            codes = {self.sim_partition(tr["name"], pr["partitionIndex"]): pr["errorCode"]
                     for tr in r["markers"][0]["topics"] for pr in tr["partitions"]}
            answers = [(part, codes[part], ends[part] if codes[part] == 0 else None) for part in parts]
            # the first refusal (or the first answer) stands for the request, as in the simulator
            part, code, off = next((a for a in answers if a[1]), answers[0])
            got["error"] = err(code)
            got["outcome"] = "appended" if code == 0 else "rejected"
            if code == 0:
                got["offsets"] = [off, off]
            if len(parts) > 1:
                got["partitions"] = [[p_, err(c), o] for p_, c, o in answers]
        elif verb == "produce":
            sim_batch = (self.sim_step(k).get("reply") or {}).get("batch")
            if not sim_batch:
                raise RuntimeError(f"line {n}: the simulator's reply carries no batch")
            t, i = self.topic(bare[0])
            v = version if version is not None else 12
            batch = bytearray(bytes.fromhex(sim_batch))
            raw = "batch" in kv  # `produce PART batch=HEX`: the user's bytes, as the simulator got them
            count = len([x for x in bare[1:] if x != "txn"])
            if not raw:
                # The batch as the model sent it, with Kafka's producer id (bytes 43..51) and the broker's
                # clock as its timestamps (27..43: model time would let the leader expire the producer's
                # state at its next expiry check); the CRC (17..21) covers both.
                batch[43:51] = struct.pack(">q", pid)
                now = int(time.time() * 1000)
                batch[27:43] = struct.pack(">qq", now, now)
                batch[17:21] = struct.pack(">I", crc32c(bytes(batch[21:])))
            elif len(batch) >= 61 and batch[16] == 2:
                # The user's v2 batch: its header read as the leader reads it; the model's producer id
                # mapped to the real one and the broker's clock as its timestamps, as above. The CRC is
                # recomputed only when the given one was right, so a corrupt batch stays corrupt (B1).
                crc_ok = struct.unpack(">I", batch[17:21])[0] == crc32c(bytes(batch[21:]))
                model_pid = struct.unpack(">q", batch[43:51])[0]
                batch[43:51] = struct.pack(">q", self.real_pid(model_pid))
                now = int(time.time() * 1000)
                batch[27:43] = struct.pack(">qq", now, now)
                if crc_ok:
                    batch[17:21] = struct.pack(">I", crc32c(bytes(batch[21:])))
                count = struct.unpack(">i", batch[57:61])[0]
                self.trace.append(f"line {n}: raw batch of producer {model_pid} (real {self.real_pid(model_pid)}) epoch "
                                  f"{struct.unpack('>h', batch[51:53])[0]} baseSequence {struct.unpack('>i', batch[53:57])[0]}, "
                                  f"{count} record(s), crc {'ok' if crc_ok else 'WRONG (kept)'}")
            end0 = self.p.list_offsets(t, i)["offset"]
            pr = self.p.produce(t, i, bytes(batch), version=v, transactional_id=tid)
            end1 = self.p.list_offsets(t, i)["offset"]
            got["error"] = err(pr["errorCode"])
            if pr["errorCode"] == 0:
                got["outcome"] = "appended" if end1 > end0 else "duplicate"
                got["offsets"] = [pr["baseOffset"], pr["baseOffset"] + count - 1]
            else:
                got["outcome"] = "rejected"
        elif verb == "fetch":
            t, i = self.topic(bare[0])
            rc = "read_committed" in bare
            f = self.p.fetch(t, i, int(kv.get("from", 0)), isolation=1 if rc else 0)
            got["error"] = err(f["errorCode"])
            got["highWatermark"], got["lastStableOffset"] = f["highWatermark"], f["lastStableOffset"]
            if f["errorCode"] == 0:
                data = base64.b64decode(f["records"]) if f.get("records") else b""
                # (below a `producer-state` batch's end the model's log holds no records: see replay_producer_states)
                got["records"] = [[o, v] for o, v, _ in decode_batches(data)
                                  if v not in ("[COMMIT]", "[ABORT]") and o >= self.seeded_end.get(bare[0], 0)]
                ab = f.get("abortedTransactions")
                got["aborted"] = None if ab is None else [[self.rel_pid(a["producerId"]), a["firstOffset"]] for a in ab]
        elif verb == "list-offsets":
            t, i = self.topic(bare[0])
            rc = "read_committed" in bare
            lo = self.p.list_offsets(t, i, -1, isolation=1 if rc else 0)
            got["error"] = err(lo["errorCode"])
            got["offset"] = lo["offset"]
        elif verb in ("add-offsets-to-txn", "txn-offset-commit", "offset-fetch"):
            self.group_step(verb, kv, words, tid, pid, epoch, version, err, got)
        elif verb == "find-coordinator":
            key = self.tid(bare[1]) if bare[0] in ("transaction", "txn") else f"{self.name}.{bare[1]}"
            r = self.p.request("FindCoordinator", 4, {"keyType": 0 if bare[0] == "group" else 1, "coordinatorKeys": [key]})
            got["error"] = err(r["coordinators"][0]["errorCode"])
        if label:
            self.replies[label] = got
        self.replies["last"] = got
        if verb in ("fetch", "list-offsets"):
            self.replies["read"] = got  # `expect read …`, as the model keeps it
        sim = self.sim_step(k).get("reply") or {}
        diffs = []
        for key, kval in got.items():
            sval = sim.get(key)
            if key == "producerId" and sval is None:
                continue
            if key in ("records",):
                sval = [[o, v] for o, v in (sval or [])]
            if key == "offsets" and sval is not None:
                sval = list(sval)
            if key == "aborted" and sval is not None:
                sval = [list(a) for a in sval]
            if sval != kval:
                diffs.append(f"{key}: simulator {sval}, kafka {kval}")
        text = " ".join(w)
        self.trace.append(f"line {n} {text}: kafka {got}")
        if self.sabotage and verb == "end-txn" and not diffs:
            diffs.append("EOSLAB_SABOTAGE=txn: a deliberately wrong simulator answer")
        self.record(n, f"{text}: the answer", "DISAGREE" if diffs else "agree",
                    f"{sim.get('error')} [{sim.get('rule')}]", "; ".join(diffs) if diffs else got["error"],
                    "error, producer id/epoch, offsets, HW/LSO, abortedTransactions, records")

    def skip_step(self, n, w, why):
        self.skipped_steps.append((n, " ".join(w), why))
        self.tainted = f"after line {n} (`{' '.join(w)}`) the broker's markers differ from the simulator's"

    def untaint_if_converged(self, k):
        if not self.tainted:
            return
        sim = self.sim_step(k)
        if sim and not any(t["state"].startswith("Prepare") for t in sim["state"]["coordinator"]["txns"]):
            self.deliver_markers()
            self.tainted = None

    # -- expects -----------------------------------------------------------------------------
    def record(self, n, text, status, sim, kafka, note=""):
        self.results.append((n, text, status, sim, kafka, note))

    def sim_narration_class(self, who, k):
        for s in reversed(self.sim["steps"][:k + 1]):
            m = re.search(rf"\b{re.escape(who)}\.\w+\(\) throws (\w+)", s.get("narration", ""))
            if s["text"].split()[1:2] == [who] and m:
                return m.group(1)
        return None

    def sim_error(self, who, k):
        for p in self.sim["steps"][k]["state"]["producers"]:
            if p["name"] == who:
                return p.get("error") or ""
        return ""

    def exc_matches(self, text, exc, sim_text):
        """Kafka's exception matches the simulator's: the Java exception class the simulator
        names (if it names one) is the class Kafka threw, and TEXT appears in Kafka's exception
        (class, superclasses, message, cause), or the error code's message does, or the classes
        are the same."""
        if not exc:
            return False, "nothing"
        blob = f"{exc.get('class')}: {exc.get('message')} (cause {exc.get('cause')})"
        simple = exc.get("class", "").rsplit(".", 1)[-1]
        named = re.findall(r"\b([A-Z]\w*(?:Exception|Error))\b", sim_text or "")
        if named and named[0] != simple:
            return False, blob + f" [the simulator's exception is {named[0]}]"
        if text in blob:
            return True, blob
        if text in exc.get("classes", []):
            return True, blob + f" [a {text}]"
        if text in ERROR_MESSAGES and ERROR_MESSAGES[text] in (exc.get("message") or ""):
            return True, blob + f" [the {text} message]"
        if named and named[0] == simple:
            return True, blob + f" [same class as the simulator's: {simple}]"
        return False, blob

    def expect(self, k, n, ws):
        text = " ".join(ws)
        if self.hosted and self.hosted_expect(n, text, ws):
            return
        if ws[0] in self.replies:
            got = check_reply(self.replies[ws[0]], ws[1:])
            if got is None and ws[1] in ("rule", "partition"):
                return self.record(n, text, "skip", text, "-", "the rule is the model's citation; FindCoordinator answers a node, "
                                   "and the test broker has 5 __transaction_state partitions, not 50")
            return self.record(n, text, "agree" if got is None or got == "ok" else "DISAGREE", text,
                               "as expected" if got in (None, "ok") else got)
        if ws[0] in ("invariants", "invariant"):
            return self.record(n, text, "skip", text, "-", "model invariants: checked by the simulator itself, not a broker fact")
        if ws[0] == "effects":
            return self.record(n, text, "skip", text, "-", "external side effects are not Kafka facts")
        if ws[0] == "commit-latency":
            return self.record(n, text, "skip", text, "-", "commit-latency is model time (rtt/append costs), not broker time")
        if ws[0] == "outside-model":
            return self.record(n, text, "skip", text, "-", "outside the model")
        if self.tainted:
            return self.record(n, text, "skip", text, "-", self.tainted)
        got = ok = None
        note = ""
        if ws[0] == "txn":
            got = self.describe_txn(ws[1])["transactionState"]
            # PrepareCommit/PrepareAbort with no marker outstanding (an EndTxn of a transaction
            # with no partitions) completes right after the coordinator's answer, asynchronously:
            # give it 3 s (held markers keep it Prepare*, and then the disagreement stands).
            deadline = time.monotonic() + 3
            while got != ws[2] and got in ("PrepareCommit", "PrepareAbort") and time.monotonic() < deadline:
                time.sleep(0.05)
                got = self.describe_txn(ws[1])["transactionState"]
            ok = got == ws[2]
        elif ws[0] == "txn-state":
            # `expect txn-state ID KEY=VALUE …`: what DescribeTransactions shows (state, epoch,
            # pid, partitions); the other keys are the coordinator's memory, not compared
            d = self.describe_txn(ws[1])
            have = {"state": d["transactionState"]}
            if d["transactionState"] != "none":
                have["epoch"] = str(d["producerEpoch"])
                have["pid"] = str(self.rel_pid(d["producerId"]))
                parts = sorted(self.sim_partition(t["topic"], n) for t in d.get("topics") or [] for n in t["partitions"])
                have["partitions"] = ",".join(parts) or "none"
            want = dict(x.split("=", 1) for x in ws[2:] if "=" in x)
            keys = [k for k in want if k in have]
            if not keys:
                return self.record(n, text, "skip", text, "-", "DescribeTransactions shows none of these keys")
            norm = lambda k, v: ",".join(sorted(x for x in v.split(",") if x != "none")) if k == "partitions" else v  # noqa: E731
            got = " ".join(f"{k}={have[k]}" for k in keys)
            ok = all(norm(k, want[k]) == norm(k, have[k]) for k in keys)
            if len(keys) < len(want):
                note = "compared: " + ", ".join(keys)
        elif ws[0] == "log":
            got = " ".join(v for _, v, _ in self.log(ws[1]))
            ok = got == " ".join(ws[2:])
        elif ws[0] in ("lso", "hw"):
            lso, hw, _ = self.lso_hw(ws[1])
            got = str(lso if ws[0] == "lso" else hw)
            ok = got == ws[2]
        elif ws[0] == "aborted":
            a, b = (int(x) for x in ws[2].split(".."))
            _, _, firsts = self.lso_hw(ws[1])
            markers = {o: v for o, v, _ in self.log(ws[1])}
            got = f"firstOffsets {firsts}, {markers.get(b)} at {b}"
            ok = a in firsts and markers.get(b) == "[ABORT]"
            note = "Kafka's index: abortedTransactions firstOffset (read_committed Fetch); the last offset is the ABORT marker"
        elif ws[0] == "features":
            got = self.feature_level()
            ok = got == ws[2]
        elif ws[0] == "offsets":
            got = self.offsets(ws[1], ws[2], False)
            ok = got == ws[3]
        elif ws[0] == "offset-fetch":
            got = self.offset_fetch.get((ws[1], ws[2]), "not fetched")
            ok = got == ws[3]
        elif ws[0] in self.consumers and ws[1] == "received":
            # the order within a partition is Kafka's; across partitions it is the fetcher's choice,
            # so the comparison is per partition (the simulator's deliveries name their partition)
            got = " ".join(v for _, v in self.received[ws[0]])
            sim_per, k_per = {}, {}
            for d in self.sim["deliveries"]:
                if d["consumer"] == f"consumer:{ws[0]}" and d["step"] <= k:
                    sim_per.setdefault(d["partition"], []).append(d["value"])
            for part, v in self.received[ws[0]]:
                k_per.setdefault(part, []).append(v)
            ok = sorted(got.split()) == sorted(ws[2:]) and sim_per == k_per
            if ok and got != " ".join(ws[2:]):
                note = "the same records in the same order per partition; the order across partitions differs (not a Kafka guarantee)"
            elif not ok:
                got += f" (per partition: {k_per}; the simulator's: {sim_per})"
        elif ws[0] in self.consumers and ws[1] == "position":
            st = self.state(ws[0])
            got = str(st.get("positions", {}).get(self.real_part(ws[2])))
            ok = got == ws[3]
        elif ws[0] in self.producers:
            who = ws[0]
            st = self.state(who)
            if ws[1] in ("state", "error"):
                # the Java client's sender thread moves the TransactionManager after the call or
                # future that reported the error has returned: read until it settles (1.5 s)
                deadline = time.monotonic() + 1.5
                while time.monotonic() < deadline and (
                        (ws[1] == "state" and st.get("state") != ws[2]) or (ws[1] == "error" and not st.get("lastError"))):
                    time.sleep(0.05)
                    st = self.state(who)
            if ws[1] == "state":
                got = st.get("state")
                ok = got == ws[2]
            elif ws[1] == "epoch":
                got = str(st.get("epoch"))
                ok = got == ws[2]
                note = f"the Java client's isTransactionV2Enabled: {st.get('transactionV2')}"
            elif ws[1] == "pid":
                got = str(self.rel_pid(st.get("pid")))
                ok = got == ws[2]
                note = "relative to the first InitProducerId answer"
            elif ws[1] == "outcome":
                unknown = bool(st.get("pendingOperation")) and not st.get("pendingCompleted")
                got = "unknown" if unknown else "known"
                ok = got == ws[2]
            elif ws[1] == "error":
                ok, got = self.exc_matches(" ".join(ws[2:]), st.get("lastError"), self.sim_error(who, k))
            elif ws[1] == "threw":
                ok, got = self.exc_matches(" ".join(ws[2:]), self.last_threw.get(who),
                                           self.sim_narration_class(who, k))
            elif ws[1] == "fenced":
                d = self.describe_txn(self.producers[who])
                err = (st.get("lastError") or {}).get("class", "")
                fenced = (d.get("producerId") != st.get("pid") or d.get("producerEpoch", -1) > st.get("epoch", -1)
                          or "ProducerFenced" in err)
                got = f"{'fenced' if fenced else 'not fenced'} (coordinator pid {d.get('producerId')} epoch " \
                      f"{d.get('producerEpoch')}; client pid {st.get('pid')} epoch {st.get('epoch')})"
                ok = fenced
        if ws[0] == "producer-state":
            # DescribeProducers shows the epoch, the last sequence and the open transaction's first
            # offset (not the last batch's first sequence or offsets)
            kv = dict(x.split("=", 1) for x in ws[2:] if "=" in x)
            t, i = self.topic(ws[1])
            real = self.real_pid(int(kv["pid"]))
            d = next((x for x in self.p.describe_producers(t, i).get("activeProducers", []) if x["producerId"] == real), None)
            if d is None:
                got, ok = "none", False
            else:
                txn = d["currentTxnStartOffset"]
                have = {"epoch": str(d["producerEpoch"]), "txn-first": "none" if txn < 0 else str(txn)}
                got = " ".join(f"{key}={val}" for key, val in have.items()) + f" lastSequence={d['lastSequence']}"
                ok = all(have[key] == val for key, val in kv.items() if key in have)
                if "seq" in kv:
                    ok = ok and kv["seq"].split("..")[-1] == str(d["lastSequence"])
                note = "DescribeProducers: epoch, lastSequence, currentTxnStartOffset (offset= and the first sequence not shown)"
        if ok is None:
            return self.record(n, text, "skip", text, "-", "no translation for this expect")
        self.record(n, text, "agree" if ok else "DISAGREE", text, got, note)

    # -- the end-of-scenario comparison --------------------------------------------------------
    def compare_end(self):
        final = self.sim["steps"][-1]["state"] if self.sim["steps"] else None
        if final is None:
            return
        if self.tainted:
            self.record(0, "final logs", "skip", "-", "-", self.tainted)
            return
        simparts = {p["name"]: p for p in final["partitions"]}
        for part in self.partitions:
            sp = simparts[part]
            slog = " ".join(f"{o}:{v}" for o, v in sim_log(self.sim, part))
            klog = " ".join(f"{o}:{v}" for o, v, _ in self.log(part) if o >= self.seeded_end.get(part, 0))
            lso, hw, firsts = self.lso_hw(part)
            s_lso = sp["lso"]
            if self.sabotage and part == self.partitions[0]:
                s_lso += 1  # EOSLAB_SABOTAGE=txn: a deliberately wrong simulator answer
            # Kafka's side is a read_committed Fetch from offset 0, whose abortedTransactions list
            # the transaction index (on these small logs, all of it: the offset index has no entry
            # to bound it, LocalLog.addAbortedTransactions) — except when the LSO is 0: nothing to
            # read, `LocalLog.emptyFetchDataInfo`, an empty list (L4).
            sab = self.sim["_aborted"].get(part, []) if sp["lso"] > 0 else []
            for what, s, kv in (("log", slog, klog), ("hw", str(sp["hw"]), str(hw)), ("lso", str(s_lso), str(lso)),
                                ("aborted firstOffsets", str(sorted(sab)), str(sorted(firsts)))):
                self.record(0, f"end: {what} {part}", "agree" if s == kv else "DISAGREE", s, kv)

    def run(self):
        self.setup()
        ks = [(n, w) for n, w in self.lines if w[0] not in (
            "model", "title", "about", "time", "first-producer-id", "cluster", "partition", "partitions",
            "producer", "consumer", "txn-state", "producer-state", "broker")]
        if len(ks) != len(self.sim["steps"]):
            raise RuntimeError(f"{len(ks)} steps here, {len(self.sim['steps'])} in the simulator's report")
        for k, (n, w) in enumerate(ks):
            if self.sim["steps"][k]["line"] != n:
                raise RuntimeError(f"step {k}: line {n} here, {self.sim['steps'][k]['line']} in the report")
            if self.clock0 is None:
                self.clock0 = (time.monotonic(), self.sim["steps"][k]["t"])
            self.sim_coordinator_epoch = self.sim["steps"][k]["state"]["coordinator"]["epoch"]
            self.step(k, n, w)
            if self.lose_armed and w[0] in ("init", "send", "send-offsets", "commit", "abort") and w[1] == self.lose_armed[0]:
                self.await_lost(n, w)
            self.untaint_if_converged(k)
        self.compare_end()
        self.broker.clients.hold_responses = set()
        self.broker.clients.release()
        self.broker.markers.release()
        for who in list(self.producers) + list(self.hosted) + list(self.consumers):
            try:
                self.client("close", who, timeoutMs=0)
            except oracle.ProbeError:
                pass


# ------------------------------------------------------------------------------------------------
def scenario_line(path):
    """The Kafka line a scenario pins with `cluster kafka=…`, or None (it holds on every line)."""
    for n, w in parse_eos(path):
        if w[0] == "cluster":
            for x in w[1:]:
                if x.startswith("kafka="):
                    v = x.split("=", 1)[1]
                    return {"4.0": "4.1", "4.2": "4.3", "4.4": "trunk"}.get(v, v)
    return None


def scenario_broker_config(path):
    """The broker settings a scenario's `cluster` line gives (a broker per distinct set)."""
    out = []
    for n, w in parse_eos(path):
        if w[0] == "cluster":
            for x in w[1:]:
                if x.startswith("transaction.partition.verification.enable="):
                    out.append(tuple(x.split("=", 1)))
                elif x.split("=", 1)[0] in ("transactional.id.expiration.ms",
                                            "transaction.remove.expired.transaction.cleanup.interval.ms",
                                            "transaction.abort.timed.out.transaction.cleanup.interval.ms"):
                    # durations on the model's clock: scaled like `advance` (TIME_SCALE)
                    k, v = x.split("=", 1)
                    out.append((k, str(max(1, int(duration_ms(v) * TIME_SCALE)))))
    return tuple(sorted(out))


def scenario_tv(path):
    for n, w in parse_eos(path):
        if w[0] == "cluster":
            for x in w[1:]:
                if x.startswith("transaction.version="):
                    return int(x.split("=")[1])
    return 2


# Random schedules leave out what the harness cannot replay in step with the model (one
# partition's marker, held or delivered alone, is replayed exactly: see sync_markers).
RANDOM_EXCLUDE = ("advance,"  # a minute is 12 s of real time even scaled
                  "send-offsets,rebalance,seek,offset-fetch,"  # group membership: see tests/kafka/README.md
                  "lose-response,"  # it needs max.block.ms=2s for the whole script: initTransactions() then times out
                  "inject,"  # a held request costs the Java client its request.timeout.ms (the scenarios check holds)
                  # the hosted producer's network faults: one client proxy serves every client
                  "lose request,lose response,delay request,refuse request,timeout app,restart app")


def generate_scripts(flags, prefix, count, seed, steps):
    """`count` scripts from `eoslab schedule --transactions FLAGS…`, generated only (nothing is
    sent): [(name, script)], so random_coverage.py runs the very scripts the harness sends."""
    r = subprocess.run([EOSLAB, "schedule", "--transactions", *flags, "--seed", str(seed),
                        "--count", str(count), "--steps", str(steps)], capture_output=True, text=True, check=True)
    return [(f"{prefix}-seed-{sch['seed']}", sch["script"]) for sch in map(json.loads, r.stdout.splitlines())]


def schedule_scripts(flags, prefix, count, seed, steps):
    """`count` scripts from `eoslab schedule --transactions FLAGS…`, written to a temporary
    folder: {name: path}."""
    folder = tempfile.mkdtemp(prefix=f"eoslab-{prefix}-")
    out = {}
    for name, script in generate_scripts(flags, prefix, count, seed, steps):
        path = os.path.join(folder, name + ".eos")
        with open(path, "w") as f:
            f.write(script)
        out[name] = path
    return out


def random_scripts(count, seed, steps=20):
    """`count` random schedules of the transactions model (`eoslab schedule --transactions`)."""
    return schedule_scripts(["--exclude", RANDOM_EXCLUDE], "random-txn", count, seed, steps)


RANDOM_REQUESTS = (["--requests"], "random-txn-requests")


def random_request_sequences(count, seed, steps=30):
    """`count` random request sequences of the transactions model (`eoslab schedule
    --transactions --requests`: InitProducerId, AddPartitionsToTxn, Produce, EndTxn, the queued
    markers, Fetch and ListOffsets, with stale epochs and wrong sequences among them), generated
    only: [(name, script)]."""
    flags, prefix = RANDOM_REQUESTS
    return generate_scripts(flags, prefix, count, seed, steps)


def random_request_scripts(count, seed, steps=30):
    """The random request sequences of `random_request_sequences`, written to a temporary folder
    for the run: {name: path}. Every request's answer is compared, and the coordinator's state
    after every step."""
    flags, prefix = RANDOM_REQUESTS
    return schedule_scripts(flags, prefix, count, seed, steps)


def main(argv=None):
    ap = argparse.ArgumentParser()
    ap.add_argument("--version", default="4.3.1")
    ap.add_argument("--self-test", action="store_true")
    ap.add_argument("--random", type=int, default=0, help="also run N random schedules of the model")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--random-requests", type=int, default=0, help="also run N random request sequences of the model")
    ap.add_argument("--only-random", action="store_true", help="run the random schedules only")
    ap.add_argument("scenarios", nargs="*")
    args = ap.parse_args(argv)
    if args.self_test:
        return self_test(args.version)
    t0 = time.monotonic()
    sabotage = os.environ.get("EOSLAB_SABOTAGE") == "txn"
    if not os.path.exists(EOSLAB):
        subprocess.run(["cargo", "build", "--release", "-p", "eoslab-cli"], cwd=ROOT, check=True)
    files = sorted(f for f in os.listdir(SCENARIOS) if f.startswith("txn-") and f.endswith(".eos"))
    names = [] if args.only_random else [f[:-4] for f in files]
    paths = {n: os.path.join(SCENARIOS, n + ".eos") for n in names}
    if args.scenarios:
        want = list(dict.fromkeys(os.path.basename(s).removesuffix(".eos") for s in args.scenarios))
        for w in want:
            if w not in names:
                sys.exit(f"no scenario {w}")
        names = want
    if args.random:
        rnd = random_scripts(args.random, args.seed)
        paths.update(rnd)
        names += list(rnd)
    if args.random_requests:
        rnd = random_request_scripts(args.random_requests, args.seed)
        paths.update(rnd)
        names += list(rnd)
    summary = []
    disagreements = []
    starts = 0
    # group by broker: the finalized transaction.version at format time; a scenario that upgrades
    # the feature runs last on its broker
    groups = {}
    global KAFKA_LINE
    KAFKA_LINE = LINES.get(args.version, "4.3")
    for name in names:
        if name in NOT_CHECKED:
            summary.append((name, "NOT CHECKED", NOT_CHECKED[name]))
            continue
        pinned = scenario_line(paths[name])
        if pinned and pinned != KAFKA_LINE:
            summary.append((name, "NOT CHECKED", f"the scenario shows Kafka {pinned} (`cluster kafka={pinned}`); this broker is {args.version}"))
            continue
        groups.setdefault((scenario_tv(paths[name]), scenario_broker_config(paths[name])), []).append(name)
    def check(name, broker, sabotaged):
        """One scenario against `broker`: (status, detail, run, bad results)."""
        path = paths[name]
        t1 = time.monotonic()
        probe = oracle.Probe(broker)
        run = Run(name, path, broker, probe, sabotaged)
        status, detail = "checked", ""
        try:
            if not run.sim.get("passed"):
                raise RuntimeError(f"the simulator fails its own expects: {run.sim.get('failures')}")
            run.run()
        except Skip as e:
            status, detail = "NOT CHECKED", str(e)
        except Exception as e:  # noqa: BLE001
            status, detail = "ERROR", f"{type(e).__name__}: {e}"
        finally:
            run.p.close()
        bad = [r for r in run.results if r[2] == "DISAGREE"]
        skipped = [r for r in run.results if r[2] == "skip" and not r[1].startswith("invariant")]
        agreed = [r for r in run.results if r[2] == "agree"]
        if status == "checked" and (skipped or run.skipped_steps):
            status = "partially checked"
            detail = "; ".join([f"line {n} `{t}` skipped: {why}" for n, t, why in run.skipped_steps] +
                               [f"line {r[0]} `{r[1]}` not compared: {r[5]}" for r in skipped])
        print(f"== {name}: {status} ({len(agreed)} agree, {len(bad)} disagree, {len(skipped)} not compared) "
              f"in {time.monotonic() - t1:.1f}s")
        for r in run.results:
            if r[2] == "agree":
                extra = "" if r[4] in r[1] else f"   [kafka: {r[4]}]"
                print(f"   line {r[0]:>3} agree    {r[1]}{extra}" + (f"  ({r[5]})" if r[5] else ""))
            elif r[2] != "skip":
                print(f"   line {r[0]:>3} {r[2]:<8} {r[1]}\n        simulator: {r[3]}\n        kafka:     {r[4]}"
                      + (f"\n        ({r[5]})" if r[5] else ""))
        if detail:
            print(f"   note: {detail}")
        if bad or status == "ERROR":
            for t in run.trace:
                print(f"   harness: {t}")
            print(broker.tail(40))
        return status, detail, run, bad

    def fresh_broker(tv, config):
        broker = ProxiedBroker(args.version, config=dict(config), features={"transaction.version": tv})
        broker.start()
        return broker

    def close(broker):
        nonlocal starts
        starts += broker.starts
        broker.stop()
        broker.markers.close()
        broker.clients.close()

    second_runs = []  # scenarios that disagreed once and agreed on a fresh broker
    for (tv, config), group in sorted(groups.items()):
        group.sort(key=lambda s: any(w[0] == "feature" for _, w in parse_eos(paths[s])))
        broker = fresh_broker(tv, config)
        try:
            for name in group:
                sabotaged = sabotage and not disagreements and not any(
                    s[1] in ("checked", "partially checked") for s in summary)
                status, detail, run, bad = check(name, broker, sabotaged)
                if (bad or status == "ERROR") and not sabotaged:
                    # The model is deterministic; the harness drives a real client and broker and
                    # waits on them in places (tests/kafka/README.md "Timing"). A disagreement is
                    # re-checked once on a fresh broker: a model defect disagrees again, a lost
                    # timing race does not. Both runs are printed.
                    print(f"   re-checking {name} once on a fresh broker (a model defect disagrees again)")
                    again = fresh_broker(tv, config)
                    try:
                        status2, detail2, run2, bad2 = check(name, again, False)
                    finally:
                        close(again)
                    if not bad2 and status2 != "ERROR":
                        second_runs.append((name, [(r[0], r[1]) for r in bad] or [(0, detail)]))
                        status, detail, bad = status2, detail2, []
                    else:
                        status, detail, run, bad = status2, detail2, run2, bad2
                if status == "ERROR":
                    disagreements.append((name, 0, "harness error", "-", detail))
                for r in bad:
                    disagreements.append((name, r[0], r[1], r[3], r[4]))
                summary.append((name, status, detail))
        finally:
            close(broker)
    if second_runs:
        print("\nagreed only on the second run (a timing race of the harness; see above for the first run):")
        for name, lines in second_runs:
            print(f"  {name}: " + "; ".join(f"line {n} {t}" for n, t in lines))
    print("\nsummary:")
    for name, status, detail in sorted(summary):
        print(f"  {name:<40} {status}")
    if disagreements:
        print("\nDISAGREEMENTS (scenario, line, fact, simulator, kafka):")
        for d in disagreements:
            print(f"  {d[0]} line {d[1]}: {d[2]}\n     simulator: {d[3]}\n     kafka:     {d[4]}")
    print(f"\nKafka {args.version}: {time.monotonic() - t0:.1f}s, {starts} broker start(s)"
          + (" [EOSLAB_SABOTAGE=txn]" if sabotage else ""))
    return 1 if disagreements else 0


def self_test(version):
    """The comparison must fail when the simulator's answer is wrong (EOSLAB_SABOTAGE=txn)."""
    env = {**os.environ, "EOSLAB_SABOTAGE": "txn"}
    r = subprocess.run([sys.executable, os.path.abspath(__file__), "--version", version, "txn-abort-offset-gaps"],
                       env=env, capture_output=True, text=True)
    print(r.stdout[-3000:])
    if r.returncode == 0 or "DISAGREE" not in r.stdout:
        print("self-test FAILED: the sabotaged simulator answer was not caught")
        return 1
    print("self-test passed: the sabotaged run exited", r.returncode, "and printed the disagreement")
    return 0


if __name__ == "__main__":
    sys.exit(main())
