"""Differential test of eoslab's message decoder against kafka-python's protocol classes.

kafka-python 3.0.12 ships two protocol implementations; the peer here is the hand-written one
(`kafka.protocol.old`: every request/response version spelled out as a Struct schema of Int16,
String, Array … by hand), which shares nothing with Kafka's JSON message schemas eoslab reads.
For every version kafka-python defines of the APIs eoslab has schemas for, random values are
generated from its schema, the request and its response are encoded framed with their headers
(as a connection carries them), pasted back to back into `eoslab decode --messages --json`, and
the trees are compared field by field, in order (names differ: snake_case there, Kafka's camelCase
here), each value exact.

Where kafka-python deviates from Kafka's Java code, Kafka wins and the comparison says so:
  - kafka-python writes null (-1) for any String/Array given None, also for fields Kafka declares
    non-nullable; Kafka's generated readers reject those ("non-nullable field X was serialized as
    null"), so no None is generated for them.
  - kafka-python speaks versions Kafka 4.0 removed. eoslab reads those with Kafka 4.3's schemas
    (with a warning), whose field versions still describe them, except for fields only the removed
    versions had: ListOffsets v0's MaxNumOffsets is gone from ListOffsetsRequest.json, so a v0
    request is not compared (Kafka 4.3 itself answers it with UnsupportedVersionException).
"""
import json
import os
import random
import subprocess

from kafka.protocol.old import (add_offsets_to_txn, add_partitions_to_txn, api_versions, commit, end_txn, fetch,
                                find_coordinator, init_producer_id, list_offsets, produce, txn_offset_commit)
from kafka.protocol.old import types as T

# The api keys eoslab vendors schemas for (crate/core/messages/).
KEYS = {0, 1, 2, 9, 10, 18, 22, 24, 25, 26, 27, 28}
MODULES = (add_offsets_to_txn, add_partitions_to_txn, api_versions, commit, end_txn, fetch, find_coordinator,
           init_producer_id, list_offsets, produce, txn_offset_commit)

# A valid v2 batch (Example A of crate/core/tests/golden.rs) for the records fields: they are decoded by the
# batch decoder, which the batch differential (diff.py) covers.
BATCH = bytes.fromhex(
    "0000000000000000 0000003a ffffffff 02 8c4a545e 0000 00000000 0000018bcfe56800 0000018bcfe56800 "
    "0000000000001092 0001 00000007 00000001 1000000002 6b 02 76 00".replace(" ", ""))


def pairs():
    """(request class, response class) for every version kafka-python defines, by (api key, version)."""
    found = {}
    for mod in MODULES:
        for name in dir(mod):
            cls = getattr(mod, name)
            if not isinstance(cls, type) or not hasattr(cls, "SCHEMA") or "_v" not in name:
                continue
            try:
                key, ver, req = cls.API_KEY, cls.API_VERSION, cls.is_request()
            except Exception:  # noqa: BLE001: abstract bases
                continue
            if key in KEYS and isinstance(key, int) and isinstance(ver, int):
                found.setdefault((key, ver), [None, None])[0 if req else 1] = cls
    found.pop((2, 0), None)  # ListOffsets v0: see the module docstring
    return {k: v for k, v in sorted(found.items()) if v[0] and v[1]}


def gen(t, rng, name=""):
    if isinstance(t, T.Schema):
        return tuple(gen(f, rng, n) for n, f in zip(t.names, t.fields) if f is not T.TaggedFields)
    if isinstance(t, T.Array):  # CompactArray too
        return [gen(t.array_of, rng, name) for _ in range(rng.randint(0, 3))]
    if t is T.Int8:
        return rng.randint(-128, 127)
    if t is T.Int16:
        return rng.randint(-2**15, 2**15 - 1)
    if t is T.Int32:
        return rng.choice([0, -1, 1, 2**31 - 1, -2**31, rng.randint(-2**31, 2**31 - 1)])
    if t is T.Int64:
        return rng.choice([0, -1, 2**63 - 1, -2**63, rng.randint(-2**63, 2**63 - 1)])
    if t is T.Boolean:
        return rng.random() < 0.5
    if t is T.UUID:
        return rng.getrandbits(128).to_bytes(16, "big")
    if isinstance(t, T.String):  # CompactString too
        return "".join(rng.choice("abcxyz-_.0123456789é€") for _ in range(rng.randint(0, 12)))
    if t in (T.Bytes, T.CompactBytes):
        return BATCH if name == "records" else bytes(rng.getrandbits(8) for _ in range(rng.randint(0, 6)))
    raise TypeError(f"no generator for {t!r}")


def compare(t, value, node, data, path, problems):
    """kafka-python's schema + value against eoslab's tree node, positionally."""
    if isinstance(t, T.Schema):
        ours = [c for c in node.get("children", []) if c["name"] not in ("_taggedFields", "size")]
        theirs = [(n, f) for n, f in zip(t.names, t.fields) if f is not T.TaggedFields]
        if len(ours) != len(theirs):
            problems.append(f"{path}: {len(theirs)} fields {[n for n, _ in theirs]} vs eoslab's {[c['name'] for c in ours]}")
            return
        for (n, f), v, c in zip(theirs, value, ours):
            compare(f, v, c, data, f"{path}.{n}/{c['name']}", problems)
        return
    if isinstance(t, T.Array):
        els = node.get("children", [])
        if node.get("type") != "array" or len(els) != len(value):
            problems.append(f"{path}: {len(value)} elements vs {node.get('type')} of {len(els)}")
            return
        for i, (v, c) in enumerate(zip(value, els)):
            compare(t.array_of, v, c, data, f"{path}[{i}]", problems)
        return
    got = node.get("value")
    if t is T.Boolean:
        want = "true" if value else "false"
    elif t is T.UUID:
        import base64
        want = base64.urlsafe_b64encode(value).decode().rstrip("=")
    elif isinstance(t, T.String):
        want = value
    elif t in (T.Bytes, T.CompactBytes):
        if node.get("type") == "records":
            got = data[node["end"] - len(value):node["end"]].hex()
        want = value.hex()
    else:
        want = str(value)
    if got != want:
        problems.append(f"{path}: kafka-python wrote {want!r}, eoslab read {got!r} ({node.get('type')})")


def run(eoslab, tally, tmp, seed, rounds=6):
    rng = random.Random(seed)
    ps = pairs()
    for (key, ver), (req_cls, resp_cls) in ps.items():
        for r in range(rounds):
            req_val = gen(req_cls.SCHEMA, rng)
            resp_val = gen(resp_cls.SCHEMA, rng)
            corr = rng.randint(0, 2**31 - 1)
            req = req_cls(*req_val)
            req.with_header(correlation_id=corr, client_id=f"kp-{r}")
            resp = resp_cls(*resp_val)
            resp.with_header(correlation_id=corr)
            data = req.encode(header=True, framed=True) + resp.encode(header=True, framed=True)
            path = os.path.join(tmp, f"msg-{key}-{ver}-{r}.bin")
            with open(path, "wb") as f:
                f.write(data)
            p = subprocess.run([eoslab, "decode", "--messages", "--json", path], capture_output=True)
            problems = []
            try:
                rep = json.loads(p.stdout)
            except ValueError:
                tally.check("messages (kafka-python)", f"{req_cls.__name__} #{r}", [f"eoslab exited {p.returncode}: {p.stderr.decode()[:300]}"])
                continue
            errs = [e for e in rep["errors"] if e["severity"] == "error"]
            if errs:
                problems += [f"eoslab error: {e}" for e in errs]
            msgs = rep["messages"]
            if len(msgs) != 2:
                problems.append(f"{len(msgs)} messages read, 2 written")
            else:
                q, a = msgs
                if (q["kind"], q["apiKey"], q["apiVersion"], q["correlationId"], q.get("clientId")) != ("request", key, ver, corr, f"kp-{r}"):
                    problems.append(f"request header read as {q['kind']} {q['apiKey']} v{q['apiVersion']} corr {q['correlationId']} {q.get('clientId')}")
                if (a["kind"], a.get("requestIndex"), a["correlationId"]) != ("response", 0, corr):
                    problems.append(f"response not paired: {a['kind']} {a.get('requestIndex')} corr {a['correlationId']}")
                if q["body"]:
                    compare(req_cls.SCHEMA, req_val, q["body"], data, req_cls.__name__, problems)
                if a["body"]:
                    compare(resp_cls.SCHEMA, resp_val, a["body"], data, resp_cls.__name__, problems)
            tally.check("messages (kafka-python)", f"{req_cls.__name__}/{resp_cls.__name__} #{r}", problems)
    return len(ps)
