#!/usr/bin/env python3
"""eoslab's request envelope errors against Kafka's own request parsing, on damaged requests.

The requests are the golden envelopes of tests/fixtures/envelopes-4.3.1 (written by Kafka 4.3.1's
own serializers: every api and version there). Each is damaged in ways a real capture or a bad
client produces, the frame always written with its int32 size prefix:

  - cut at every byte (small requests) or at every byte of the first 64 and every 13th after
    (Produce, Fetch), with the size prefix rewritten to what is left (a short frame: the parser
    runs out of bytes), and cut at three places with the size prefix left as it was;
  - the api key 999, -1 and 100; the api version 99 and -1;
  - the clientId length 0x7fff, one more than there are bytes, -2 and -1 (null);
  - the size prefix -1, 0x7fffffff (past socket.request.max.bytes), one less than the frame, and
    5 bytes more with 5 bytes appended (what librdkafka's ApiVersions v3 carries);
  - Produce: a records size of 0x7fffffff (v3-v8 int32, v9+ compact varint);
  - 8 random bytes of each request replaced (a pinned seed).

Kafka's side is tests/kafka/ParseRequest.java: NetworkReceive's size check, then
RequestHeader.parse and RequestContext.parseRequest on the frame, as SocketServer and
RequestChannel run them (one JVM for all the cases). eoslab's side is
`eoslab decode FILE --messages --request --json`. They must agree:

  - Kafka parses the request: eoslab reports no error; bytes Kafka leaves unread are eoslab's
    TrailingBytes warning (not an error) at the byte where Kafka stopped, and only then.
  - RequestHeader.parse throws: eoslab's first error is Kafka's exception (InvalidRequestException,
    its message) with the cause Kafka wraps (`… (caused by IllegalArgumentException: Unexpected
    api key: 999)`), at the byte where Kafka's buffer stood when it threw.
  - parseRequest throws: eoslab's first error is the parser's exception, name and message, at the
    byte where Kafka's buffer stood. Deliberate difference: RequestContext wraps it in
    `InvalidRequestException: Error getting request for apiKey: …, apiVersion: …, connectionId:
    …, listenerName: …, principal: …` (RequestContext.parseRequest), which names the connection,
    listener and principal of a socket; eoslab reads bytes, not a connection, and reports the
    cause the wrapper carries. The test checks that Kafka's wrapper is exactly that one.
  - the size prefix is refused (negative or past socket.request.max.bytes: NetworkReceive's
    InvalidReceiveException): eoslab reports an error at byte 0.
  - the frame is shorter than its size prefix: Kafka's NetworkReceive waits for the rest (no
    error); a file has no rest, and eoslab reports PartialMessage at byte 0 (deliberate).

Disagreements are printed and written to target/envelope-mutations.json. Standard library only.
Needs scripts/ensure-kafka.sh (4.3.1: it compiles ParseRequest.java) and the CLI built.
    python3 tests/kafka/envelope_mutations.py [--only SUBSTRING] [-v]
"""
import argparse
import json
import os
import random
import struct
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import oracle  # noqa: E402

ROOT = oracle.ROOT
VERSION = "4.3.1"
FIXTURES = os.path.join(ROOT, "tests", "fixtures", f"envelopes-{VERSION}")
EOSLAB = os.path.join(ROOT, "target", "release", "eoslab")
OUT = os.path.join(ROOT, "target", "envelope-mutations.json")
SEED = 20261207


def frame(body):
    return struct.pack(">i", len(body)) + body


def uvarint(v):
    out = bytearray()
    while v >= 0x80:
        out.append((v & 0x7F) | 0x80)
        v >>= 7
    out.append(v)
    return bytes(out)


def records_fields(body, fixture_json):
    """(start, end) of the length field of every records field of a Produce request, found as
    the bytes before each records value Kafka read back (the fixture's .json)."""
    import base64
    found = []

    def walk(n):
        if isinstance(n, dict):
            for k, v in n.items():
                if k == "records" and isinstance(v, str) and v:
                    found.append(base64.b64decode(v))
                else:
                    walk(v)
        elif isinstance(n, list):
            for x in n:
                walk(x)
    walk(fixture_json.get("message", {}))
    out = []
    for rec in found[:1]:
        at = body.find(rec)
        if at < 0:
            continue
        flexible = fixture_json["version"] >= 9
        if flexible:
            enc = uvarint(len(rec) + 1)
            if body[at - len(enc):at] == enc:
                out.append((at - len(enc), at, True))
        elif struct.unpack_from(">i", body, at - 4)[0] == len(rec):
            out.append((at - 4, at, False))
    return out


def cases():
    rng = random.Random(SEED)
    names = sorted(f[:-4] for f in os.listdir(FIXTURES) if f.endswith("-request.hex"))
    out = []
    for name in names:
        with open(os.path.join(FIXTURES, name + ".hex")) as fh:
            whole = bytes.fromhex("".join(fh.read().split()))
        with open(os.path.join(FIXTURES, name + ".json")) as fh:
            meta = json.load(fh)
        body = whole[4:]
        n = len(body)
        out.append((f"{name}/intact", whole))
        big = name.startswith(("produce", "fetch"))
        every = range(0, n) if not big else [i for i in range(0, n) if i < 64 or i % 13 == 0]
        for i in every:
            out.append((f"{name}/cut-{i}-resized", frame(body[:i])))
        for i in (2, n // 2, n - 1):
            out.append((f"{name}/cut-{i}-prefix-kept", whole[:4 + i]))
        for v in (999, -1, 100):
            out.append((f"{name}/api-key-{v}", frame(struct.pack(">h", v) + body[2:])))
        for v in (99, -1):
            out.append((f"{name}/api-version-{v}", frame(body[:2] + struct.pack(">h", v) + body[4:])))
        client_id = struct.unpack_from(">h", body, 8)[0]
        for v, label in ((0x7FFF, "32767"), (n - 10 + 1, "one-past"), (-2, "-2"), (-1, "-1")):
            if v == client_id:
                continue
            out.append((f"{name}/client-id-length-{label}", frame(body[:8] + struct.pack(">h", v) + body[10:])))
        for v in (-1, 0x7FFFFFFF):
            out.append((f"{name}/size-{v}", struct.pack(">i", v) + body))
        out.append((f"{name}/size-minus-1", struct.pack(">i", n - 1) + body))
        out.append((f"{name}/5-bytes-more", frame(body + b"\x00\x01\x02\x03\x04")))
        if name.startswith("produce"):
            for start, end, flexible in records_fields(body, meta):
                enc = uvarint(0x7FFFFFFF + 1) if flexible else struct.pack(">i", 0x7FFFFFFF)
                out.append((f"{name}/records-size-0x7fffffff", frame(body[:start] + enc + body[end:])))
        for _ in range(8):
            i = rng.randrange(n)
            v = rng.randrange(256)
            if v == body[i]:
                v ^= 0x55
            d = bytearray(body)
            d[i] = v
            out.append((f"{name}/byte-{i}-{v:02x}", frame(bytes(d))))
    return out


def kafka_parse(inputs):
    cmd = ["java", *oracle.JVM_FLAGS, "-cp", oracle.classpath(VERSION, harness=True), "ParseRequest"]
    r = subprocess.run(cmd, input="".join(b.hex() + "\n" for b in inputs), capture_output=True, text=True,
                       timeout=600, check=True)
    lines = r.stdout.splitlines()
    if len(lines) != len(inputs):
        raise RuntimeError(f"ParseRequest answered {len(lines)} of {len(inputs)}:\n{r.stderr}")
    return [json.loads(x) for x in lines]


def eoslab_parse(path):
    r = subprocess.run([EOSLAB, "decode", path, "--messages", "--request", "--json"], capture_output=True, text=True,
                       timeout=60)
    try:
        rep = json.loads(r.stdout)
    except ValueError:
        return {"exit": r.returncode, "crash": r.stderr[-2000:]}
    rep["exit"] = r.returncode
    return rep


# Where eoslab's byte offset is not Kafka's buffer position, by design: eoslab points at the start
# of the field whose value is refused; Kafka's generated readers (and RequestHeader.parse) read
# the field first and then refuse its value, so their buffer stands just past it:
#   - `Unexpected api key` (RequestHeader.parse: `apiKey = buffer.getShort(); short apiVersion =
#     buffer.getShort(); ... ApiKeys.forId(apiKey)`): eoslab at the api key, Kafka 4 bytes on;
#   - a length or count refused (`Tried to allocate a collection of size N …`, `non-nullable
#     field … was serialized as null`, `Error reading byte array/string of N byte(s) …`, `Varint
#     is too long …`): eoslab at the length field, Kafka 1-5 bytes on (int16, int32 or varint);
#   - `The X protocol does not support version V` (AbstractRequest's constructor, once the body
#     is read): eoslab at the version field (byte 6), Kafka at the end of the body.
# A BufferUnderflowException has no message in Kafka: eoslab's says how many bytes were missing,
# and only its name and offset are compared (the offset exactly: Java's get* does not move the
# position when it underflows).
VALUE_REFUSED_MAX_SKIP = 5

# Cases known to differ, not yet fixed in eoslab: (substring of the case name, why). Each is
# counted and printed, and fails the run only when it no longer differs (then remove it here).
KNOWN = [
    (lambda name, k: k.get("apiVersion") is not None and k["apiVersion"] < k["oldest"] and k["apiKey"] != 18,
     "a version below the oldest Kafka 4.3 reads (negative, or removed in 4.0): Kafka's generated "
     "readers read the body anyway, every field whose versions cover all the valid ones being read "
     "unconditionally (no version test is generated for it), and throw what that reading meets, or "
     "AbstractRequest's `The X protocol does not support version V` once it is read; eoslab stops "
     "at once with `Can't read version V of <Api>RequestData` (negative) or reads the removed "
     "version with the field versions of the schema (its own reading, with other offsets)"),
    (lambda name, k: any("Varint is too long" in (m or "") for _, m in k.get("chain", [])),
     "ByteUtils.illegalVarintException adds `, converted value: <hex>` to `Varint is too long, the "
     "most significant bit in the 5th byte is set`; eoslab's message stops before it"),
]


def judge(k, e):
    """None when eoslab agrees with Kafka, else what differs."""
    if "crash" in e:
        return f"eoslab printed no JSON (exit {e['exit']}): {e['crash']}"
    issues = e.get("errors", [])
    errors = [x for x in issues if x["severity"] == "error"]
    trailing = [x for x in issues if x["kind"] == "TrailingBytes"]
    first = errors[0] if errors else None
    got = f"{first['kind']}: {first['message']} at {first['at']}" if first else "no error"
    stage = k["stage"]
    if stage == "ok":
        if k.get("apiKey") == 18 and not k.get("enabled"):
            # RequestContext.isUnsupportedApiVersionsRequest: the body is not parsed.
            if first or not any(x["kind"] == "UnsupportedVersionException" and x["severity"] == "warning" for x in issues):
                return f"Kafka does not parse an ApiVersions body of v{k['apiVersion']}; eoslab: {got}, {issues}"
            return None
        # Kafka's parser takes the records of a Produce request as bytes (MemoryRecords); what is
        # wrong inside them is found when the broker appends them (LogValidator:
        # CorruptRecordException, INVALID_RECORD). eoslab reads them too and reports that.
        errors = [x for x in errors if "records" not in (x.get("field") or "")]
        first = errors[0] if errors else None
        if first:
            return f"Kafka parses it (stopping at byte {k['at']}); eoslab: {first['kind']}: {first['message']} at {first['at']}"
        if e["exit"] != 0 and len(errors) == len([x for x in issues if x["severity"] == "error"]):
            return f"Kafka parses it; eoslab exits {e['exit']}"
        if k["remaining"] and not any(t["at"] == k["at"] and t["severity"] == "warning" for t in trailing):
            return (f"Kafka leaves {k['remaining']} byte(s) unread at byte {k['at']}; eoslab: "
                    f"{[(t['at'], t['severity']) for t in trailing] or 'no TrailingBytes warning'}")
        if not k["remaining"] and trailing:
            return f"Kafka reads every byte; eoslab warns of trailing bytes at {trailing[0]['at']}"
        return None
    if not first and stage == "body" and any(x["kind"] == "UnsupportedApi" for x in issues):
        # An api eoslab has no schema for (a flipped api key naming ElectLeaders, …): named and
        # skipped to the end of its frame (message/mod.rs), its body not read.
        return None
    if not first:
        return f"Kafka: {stage} {k.get('chain')}; eoslab: no error"
    if e["exit"] != 1:
        return f"eoslab reports {got} but exits {e['exit']}"
    if stage == "incomplete":
        return None if (first["kind"], first["at"]) == ("PartialMessage", 0) else f"Kafka waits for more bytes; eoslab: {got}"
    if stage == "size":
        return None if first["at"] == 0 else f"Kafka: {k['chain'][0]}; eoslab: {got}"
    chain = k["chain"]
    if stage == "header":
        want_kind, want, cause = chain[0][0], chain[0][1], chain[1] if len(chain) > 1 else None
        if cause and cause[1] is not None:
            want += f" (caused by {cause[0]}: {cause[1]})"
        elif cause:
            want += f" (caused by {cause[0]}: "
    else:
        wrapper = chain[0]
        if wrapper[0] != "InvalidRequestException" or not wrapper[1].startswith("Error getting request for apiKey: "):
            return f"Kafka's body error is not RequestContext's wrapper: {chain}"
        cause = chain[1]
        want_kind, want = cause[0], cause[1]
    if first["kind"] != want_kind:
        return f"Kafka: {want_kind}: {want} at {k['at']}; eoslab: {got}"
    if cause and cause[1] is None:
        # BufferUnderflowException: no message in Kafka; the name, and the offset exactly.
        if cause[0] != "BufferUnderflowException" or not (first["message"].startswith(want) if stage == "header" else True):
            return f"Kafka: {want_kind}: {want}… at {k['at']}; eoslab: {got}"
        if stage == "header" and f"(caused by {cause[0]}: " not in first["message"]:
            return f"Kafka: {want_kind}: {want}… at {k['at']}; eoslab: {got}"
        if stage == "body" and first["kind"] != cause[0]:
            return f"Kafka: {cause[0]} at {k['at']}; eoslab: {got}"
        return None if first["at"] == k["at"] else f"Kafka: {cause[0]} at {k['at']}; eoslab: {got}"
    if first["message"] != want:
        return f"Kafka: {want_kind}: {want} at {k['at']}; eoslab: {got}"
    skip = k["at"] - first["at"]
    if skip == 0:
        return None
    if want.startswith("The ") and " protocol does not support version " in want and first["at"] == 6:
        return None
    if 0 < skip <= VALUE_REFUSED_MAX_SKIP and (cause is None or cause[0] != "BufferUnderflowException"):
        return None
    return f"Kafka: {want_kind}: {want} at {k['at']}; eoslab: {got}"


def run(only=None, verbose=False):
    for p in (EOSLAB,):
        if not os.path.exists(p):
            raise RuntimeError(f"{p} missing: cargo build --release -p eoslab-cli")
    t0 = time.monotonic()
    todo = [(n, b) for n, b in cases() if not only or only in n]
    answers = kafka_parse([b for _, b in todo])
    t1 = time.monotonic()
    differ = []
    stages = {}
    known = {w: 0 for _, w in KNOWN}
    with tempfile.TemporaryDirectory(prefix="eoslab-envelopes-") as tmp:
        path = os.path.join(tmp, "request.bin")
        for (name, b), k in zip(todo, answers):
            with open(path, "wb") as fh:
                fh.write(b)
            e = eoslab_parse(path)
            stages[k["stage"]] = stages.get(k["stage"], 0) + 1
            why = judge(k, e)
            known_why = next((w for pred, w in KNOWN if pred(name, k)), None)
            if known_why:
                known[known_why] = known.get(known_why, 0) + (1 if why else 0)
                if why:
                    continue
            if why:
                differ.append({"case": name, "hex": b.hex(), "kafka": k, "why": why})
                if verbose or len(differ) <= 40:
                    print(f"envelope differs from Kafka's parser: {name}: {why}", flush=True)
    for w, n in known.items():
        print(f"known difference ({n} case(s)): {w}", flush=True)
        if not n and not only:
            differ.append({"case": "KNOWN", "why": f"no longer differs, remove it from KNOWN: {w}"})
            print(f"a known difference no longer occurs: remove it from KNOWN: {w}", flush=True)
    os.makedirs(os.path.dirname(OUT), exist_ok=True)
    with open(OUT, "w") as fh:
        json.dump(differ, fh, indent=1)
    print(f"envelope mutations: {len(todo)} damaged requests of {VERSION}'s serializers "
          f"(Kafka: {', '.join(f'{v} {s}' for s, v in sorted(stages.items()))}), {len(differ)} differ from "
          f"Kafka {VERSION}'s RequestHeader.parse/RequestContext.parseRequest "
          f"(Kafka {t1 - t0:.0f}s, eoslab {time.monotonic() - t1:.0f}s)", flush=True)
    return len(differ)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--only", help="only the cases whose name contains this")
    ap.add_argument("-v", "--verbose", action="store_true", help="print every difference")
    a = ap.parse_args(argv)
    return 1 if run(a.only, a.verbose) else 0


if __name__ == "__main__":
    sys.exit(main())
