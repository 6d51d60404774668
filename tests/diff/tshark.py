"""Differential test of eoslab's message decoder (issue 16) against Wireshark's Kafka dissector.

Every request/response pair of tests/fixtures/envelopes-4.3.1 (written by Kafka 4.3.1's own
serializers) is turned into a capture with text2pcap (one TCP connection, client port 50000 to
broker port 9092), dissected by `tshark -d tcp.port==9092,kafka`, and the fields below compared,
every occurrence in order, with what `eoslab decode --messages --json` reads from the same bytes.

Where tshark deviates from Kafka's Java code, Kafka wins and the comparison says so:
  - tshark 4.0 (Debian 12) dissects only the API versions its dissector knows; where it marks a
    message `kafka.unsupported_api_version` (Fetch v12+, flexible versions of most APIs) it
    mis-reads the body, so that pair is skipped and counted as such (never compared).
  - it prints `kafka.replica_id`, `kafka.offset`, … for several different fields; only the
    unambiguous ones are compared (FIELDS).
"""
import json
import os
import subprocess

# tshark field -> eoslab node names it corresponds to (any depth, tree order, records excluded).
FIELDS = {
    "kafka.correlation_id": ("correlationId",),
    "kafka.client_id": ("clientId",),
    "kafka.api_version": ("requestApiVersion",),
    "kafka.isolation_level": ("isolationLevel",),
    "kafka.max_wait_time": ("maxWaitMs",),
    "kafka.min_bytes": ("minBytes",),
    "kafka.throttle_time": ("throttleTimeMs",),
    "kafka.last_stable_offset": ("lastStableOffset",),
    "kafka.first_offset": ("firstOffset",),
    "kafka.required_acks": ("acks",),
    "kafka.timeout": ("timeoutMs",),
    # AddPartitionsToTxn v0-3 has it as V3AndBelowTransactionalId (Kafka's schema since KIP-890).
    "kafka.transactional_id": ("transactionalId", "v3AndBelowTransactionalId"),
    "kafka.producer_epoch": None,  # also a batch header field in tshark: not compared
}
COMPARED = [k for k, v in FIELDS.items() if v]


def ours(node, names, out):
    if node.get("type") == "records":
        return
    if node["name"] in names and "value" in node:
        out.append(node["value"])
    elif node["name"] in names and node.get("null"):
        out.append("[ Null ]")  # how tshark prints a null string
    for c in node.get("children", []):
        ours(c, names, out)


def dump(b, direction):
    lines = [direction]
    for i in range(0, len(b), 16):
        lines.append("%06x  %s" % (i, " ".join("%02x" % x for x in b[i:i + 16])))
    return "\n".join(lines) + "\n"


def run(eoslab, tally, tmp, fixtures):
    names = sorted(f[:-len("-request.hex")] for f in os.listdir(fixtures) if f.endswith("-request.hex"))
    skipped = []
    for name in names:
        resp_path = os.path.join(fixtures, name + "-response.hex")
        if not os.path.exists(resp_path):
            continue
        req = bytes.fromhex(open(os.path.join(fixtures, name + "-request.hex")).read().strip())
        resp = bytes.fromhex(open(resp_path).read().strip())
        txt, pcap, binp = (os.path.join(tmp, f"ts-{name}.{e}") for e in ("txt", "pcap", "bin"))
        # text2pcap -D: "I" lines go to the -T second port (the broker), "O" lines come back from it.
        with open(txt, "w") as f:
            f.write(dump(req, "I") + dump(resp, "O"))
        subprocess.run(["text2pcap", "-q", "-D", "-T", "50000,9092", txt, pcap], check=True, capture_output=True)
        fields = ["kafka.unsupported_api_version"] + COMPARED
        p = subprocess.run(["tshark", "-r", pcap, "-d", "tcp.port==9092,kafka", "-T", "fields", "-E", "occurrence=a",
                            "-E", "separator=\t", "-E", "aggregator=\x1f"] + [a for f in fields for a in ("-e", f)],
                           capture_output=True, text=True)
        rows = [line.split("\t") for line in p.stdout.splitlines()]
        if p.returncode != 0 or len(rows) != 2:
            tally.check("messages (tshark)", name, [f"tshark exited {p.returncode}, {len(rows)} packets: {p.stderr[:300]}"])
            continue
        if any(r[0] != "" for r in rows):
            skipped.append(name)
            continue
        with open(binp, "wb") as f:
            f.write(req + resp)
        e = subprocess.run([eoslab, "decode", "--messages", "--json", binp], capture_output=True)
        rep = json.loads(e.stdout)
        problems = [f"eoslab: {x}" for x in rep["errors"] if x["severity"] == "error"]
        for m, row in zip(rep["messages"], rows):
            for i, f in enumerate(COMPARED):
                theirs = [v for v in row[i + 1].split("\x1f")] if row[i + 1] != "" else []
                mine = []
                for root in (m["header"], m["body"]):
                    if root:
                        ours(root, FIELDS[f], mine)
                if f == "kafka.api_version" and m["kind"] == "response":
                    continue  # tshark shows the request's version on the response too
                if theirs != mine and not (f == "kafka.client_id" and theirs == [] and mine == [""]):
                    problems.append(f"{m['kind']} {f}: tshark {theirs} vs eoslab {mine}")
        tally.check("messages (tshark)", name, problems)
    return skipped
