"""`eoslab capture` against Wireshark's reading of the same capture files: which Kafka messages each
TCP connection carries and how they pair.

The captures: tests/fixtures/capture-4.3.1/capture.pcapng (real Java-client traffic to a real
Kafka 4.3.1 broker, see its PROVENANCE.md) as it is, and rewritten by Wireshark's editcap as a
classic pcap with microsecond and with nanosecond timestamps (the container formats the reader
supports, written by another implementation than the one that made the fixture).

For each, tshark (`-d tcp.port==9092,kafka -T json`) gives every Kafka PDU it dissects: its TCP
stream, direction, api key, api version and correlation id, and for a response the frame of the
request it paired it with. `eoslab capture --json` gives every exchange: its connection, api key,
version, correlation id and whether it was answered. Compared:
  - the connections: the same TCP streams carry Kafka, in the same order;
  - every request tshark dissects is an eoslab exchange on that connection, with the same api key,
    version and correlation id, in the same order;
  - every response tshark paired with a request is, in eoslab, that exchange's answer (same
    correlation id, same api key and version read from the request);
  - eoslab has no exchange tshark does not (a request tshark cannot dissect at all, e.g. an api
    version newer than its dissector, is still listed by tshark with its header fields, so it is
    compared too).
"""
import json
import os
import shutil
import subprocess


def tshark_pdus(path):
    """[(stream, to_broker, api_key, api_version, correlation_id)] in capture order."""
    p = subprocess.run(["tshark", "-r", path, "-d", "tcp.port==9092,kafka", "-T", "json", "--no-duplicate-keys",
                        "-j", "frame tcp kafka"], capture_output=True, text=True, timeout=120)
    if p.returncode != 0:
        raise RuntimeError(f"tshark exited {p.returncode}: {p.stderr[-500:]}")
    out = []
    for pkt in json.loads(p.stdout):
        layers = pkt["_source"]["layers"]
        kafka = layers.get("kafka")
        if kafka is None:
            continue
        tcp = layers["tcp"]
        tcp = tcp[0] if isinstance(tcp, list) else tcp
        stream = int(tcp["tcp.stream"])
        to_broker = tcp["tcp.dstport"] == "9092"
        for pdu in kafka if isinstance(kafka, list) else [kafka]:
            if to_broker:
                key, version = pdu.get("kafka.request_key"), pdu.get("kafka.request.version")
            else:
                key, version = pdu.get("kafka.response_key"), pdu.get("kafka.response.version")
            corr = pdu.get("kafka.correlation_id")
            if corr is None:
                continue
            out.append((stream, to_broker, None if key is None else int(key), None if version is None else int(version), int(corr)))
    return out


def eoslab_exchanges(eoslab, path):
    p = subprocess.run([eoslab, "capture", path, "--json"], capture_output=True, text=True, timeout=120)
    if p.returncode not in (0, 1):
        raise RuntimeError(f"eoslab capture exited {p.returncode}: {p.stderr[-500:]}")
    return json.loads(p.stdout)


def compare(eoslab, path):
    """The problems found comparing the two readings of `path` ([] when they agree), and counts."""
    ts = tshark_pdus(path)
    rep = eoslab_exchanges(eoslab, path)
    problems = []
    streams = sorted({s for s, *_ in ts}, key=lambda s: min(i for i, x in enumerate(ts) if x[0] == s))
    if len(streams) != len(rep["connections"]):
        problems.append(f"tshark finds Kafka on {len(streams)} TCP stream(s), eoslab on {len(rep['connections'])}")
    pairs = 0
    for conn, stream in enumerate(streams, start=1):
        requests = [(k, v, c) for s, up, k, v, c in ts if s == stream and up]
        responses = [(k, v, c) for s, up, k, v, c in ts if s == stream and not up]
        ours = [e for e in rep["exchanges"] if e["connection"] == conn]
        mine = [(e["apiKey"], e["apiVersion"], e["correlationId"]) for e in ours]
        if requests != mine:
            problems.append(f"connection {conn} (tcp.stream {stream}): requests differ\n      tshark {requests}\n      eoslab {mine}")
            continue
        answered = {e["correlationId"]: e for e in ours if e.get("response")}
        for k, v, c in responses:
            e = answered.get(c)
            if e is None:
                problems.append(f"connection {conn}: tshark reads a response with correlation id {c}, eoslab pairs none")
            elif k is not None and (k, v) != (e["apiKey"], e["apiVersion"]):
                problems.append(f"connection {conn}: correlation id {c}: tshark pairs it as api {k} v{v}, eoslab as {e['apiKey']} v{e['apiVersion']}")
            else:
                pairs += 1
        if len(answered) != len(responses):
            problems.append(f"connection {conn}: eoslab pairs {len(answered)} response(s), tshark reads {len(responses)}")
    return problems, {"requests": sum(1 for x in ts if x[1]), "pairs": pairs}


def variants(fixture, tmp):
    """The fixture as it is and rewritten by editcap: (name, path)."""
    out = [("pcapng", fixture)]
    for name, args in (("pcap (µs)", ["-F", "pcap"]), ("pcap (ns)", ["-F", "nsecpcap"])):
        path = os.path.join(tmp, f"capture-{name.split()[0]}-{len(out)}.pcap")
        subprocess.run(["editcap", *args, fixture, path], check=True, capture_output=True, timeout=60)
        out.append((name, path))
    return out


def run(eoslab, tally, tmp, fixture):
    """Checks every variant; returns a one-line report per variant."""
    if not shutil.which("editcap"):
        tally.check("captures (tshark)", "editcap installed", ["editcap not found (Debian's tshark package brings it)"])
        return []
    lines = []
    for name, path in variants(fixture, tmp):
        problems, n = compare(eoslab, path)
        tally.check("captures (tshark)", f"capture.pcapng as {name}", problems)
        lines.append(f"    {name}: {n['requests']} requests, {n['pairs']} pairs, tshark and eoslab {'agree' if not problems else 'differ'}")
    return lines
