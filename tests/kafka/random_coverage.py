#!/usr/bin/env python3
"""Which rules the kafka step's seeded random sequences reach, without a broker.

`make test`'s kafka step (run.py) replays, besides the shipped scenarios, random sequences at one
pinned seed against real Kafka brokers and compares every answer: the partition leader's random
schedules and random request sequences (idempotence.py) and the transactions model's random
request sequences (txn_scenarios.py). This module generates exactly those sequences (the same
generator calls, seed and counts), runs each through the simulator as the harness does (`eoslab
run`, on the Kafka line of the broker it is compared with), and counts, for every rule id of the
catalogue, the sequences whose run cites it. The result is tests/kafka/random-coverage.json,
which `eoslab rules --random-coverage` shows in the docs' rule catalogue, so the catalogue can say
whether a real broker checks a rule that no shipped scenario cites.

    python3 tests/kafka/random_coverage.py           print the coverage, computed now
    python3 tests/kafka/random_coverage.py --write   rewrite tests/kafka/random-coverage.json
    python3 tests/kafka/random_coverage.py --check   exit 1 when the file is not what it computes

run.py runs the check before it starts a broker (a few seconds), so a model or generator change
that moves the numbers fails the kafka step until the file is rewritten.
"""
import argparse
import json
import os
import re
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import idempotence  # noqa: E402
import txn_scenarios as txn  # noqa: E402
from oracle import ROOT  # noqa: E402

EOSLAB = os.path.join(ROOT, "target", "release", "eoslab")
FILE = os.path.join(HERE, "random-coverage.json")
REGENERATE = "python3 tests/kafka/random_coverage.py --write"

# The kafka step's pinned seed and default counts (run.py takes its defaults from here, so the
# file describes exactly what `make test` replays).
SEED = 20261204
SCHEDULES = 1000  # EOSLAB_KAFKA_SCHEDULES: leader schedules and leader request sequences on 4.3.1
OLD_LINE_SCHEDULES = 200  # leader schedules on 4.1.2
TXN_REQUESTS = 20  # EOSLAB_KAFKA_TXN_REQUESTS on 4.3.1; half as many on 4.1.2


def old_line_txn_requests(n):
    """How many transactions request sequences 4.1.2 gets when 4.3.1 gets `n`."""
    return n // 2


# Each generator and what it makes, as the catalogue names it: the leader's random schedules and
# request sequences (idempotence.py) and the transactions model's request sequences
# (txn_scenarios.py).
GENERATORS = {
    "leader-schedules": "random schedules of the idempotence model",
    "leader-requests": "random produce/marker request sequences",
    "txn-requests": "random request sequences of the transactions model",
}


def plan(schedules=SCHEDULES, txn_requests=TXN_REQUESTS):
    """What the kafka step replays: [(generator, Kafka version, count)]. Each 4.1.2 run takes the
    first sequences of the generator's 4.3.1 run (sequence i is seed + i either way)."""
    return [
        ("leader-schedules", "4.3.1", schedules),
        ("leader-schedules", "4.1.2", OLD_LINE_SCHEDULES),
        ("leader-requests", "4.3.1", schedules),
        ("txn-requests", "4.3.1", txn_requests),
        ("txn-requests", "4.1.2", old_line_txn_requests(txn_requests)),
    ]


def generate(generator, count, seed):
    """The scripts `generator` gives the harness for `count` and `seed`, in order: the harness's
    own generator functions, so these are the sequences it sends."""
    if generator == "leader-schedules":
        return [s["script"] for s in idempotence.schedules(seed, count, idempotence.SCHEDULE_FIRST_PID)]
    if generator == "leader-requests":
        return [s["script"] for s in idempotence.schedules(seed, count, idempotence.REQUEST_FIRST_PID, requests=True)]
    if generator == "txn-requests":
        return [script for _, script in txn.random_request_sequences(count, seed)]
    raise ValueError(generator)


def catalogue_ids():
    """Every rule id of the catalogue, from `eoslab rules` (an entry's line starts with its id)."""
    out = subprocess.run([EOSLAB, "rules"], capture_output=True, text=True, check=True).stdout
    return {m.group(1) for m in re.finditer(r"^  (\S+) ", out, re.M)}


def cited(text, ids):
    """The catalogue's ids `text` cites: its words as `rules::citations` splits them."""
    return {w.strip(".") for w in re.split(r"[^A-Za-z0-9_.]", text)} & ids


def leader_cites(script):
    """The rules of the answers idempotence.py compares for a leader script: each Produce and
    marker that reached the leader (`eoslab run --leader-log`, the events it replays), and X1 for
    each expiration check (replayed as the broker's own expiry, then the producer state is
    compared). Answers the model gives alone (N1 not leader, N2 an injected error) are never
    sent to the broker, so they do not count."""
    r = subprocess.run([EOSLAB, "run", "--leader-log", "-"], input=script, capture_output=True, text=True)
    if r.returncode not in (0, 1) or not r.stdout.strip():
        raise RuntimeError(f"eoslab run --leader-log failed on a generated script: {r.stderr}\n{script}")
    events = json.loads(r.stdout)["events"]
    return {"X1" if e["kind"] == "expiration-check" else e["rule"] for e in events if e.get("rule") or e["kind"] == "expiration-check"}


def txn_cites(script, version, ids):
    """The rules the timeline of a transactions script cites on the Kafka line of `version`
    (`eoslab run --kafka LINE`, as txn_scenarios.py runs it): that harness compares every
    request's answer and the coordinator's state after every step."""
    r = subprocess.run([EOSLAB, "run", "--kafka", txn.LINES[version], "-"], input=script, capture_output=True, text=True)
    if r.returncode not in (0, 1) or not r.stdout.strip():
        raise RuntimeError(f"eoslab run failed on a generated script: {r.stderr}\n{script}")
    return cited(r.stdout, ids)


def cites(generator, scripts, version, ids):
    """For each script, the rule ids its compared answers cite. A script the simulator cannot
    run is an error: the numbers would lie."""
    if generator.startswith("leader-"):
        one = leader_cites  # the idempotence model has no Kafka line: the same on every broker
    else:
        def one(s):
            return txn_cites(s, version, ids)
    with ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
        return list(pool.map(one, scripts))


def compute(seed=SEED, schedules=SCHEDULES, txn_requests=TXN_REQUESTS):
    """The coverage object: seed, each run of `plan` and, per rule id, how many sequences of each
    run cite it."""
    ids = catalogue_ids()
    runs, rules = [], {}
    found = {}  # (generator, model line) -> per-script rule ids, for the longest run asked
    for generator, version, count in plan(schedules, txn_requests):
        line = None if generator.startswith("leader-") else txn.LINES[version]
        if len(found.get((generator, line), [])) < count:
            found[(generator, line)] = cites(generator, generate(generator, count, seed), version, ids)
        key = f"{generator}@{version}"
        runs.append({"run": key, "generator": generator, "about": GENERATORS[generator], "kafka": version,
                     "sequences": count})
        for per_script in found[(generator, line)][:count]:
            for rid in per_script:
                if rid not in ids:
                    raise RuntimeError(f"{generator}: the simulator cites {rid}, which the catalogue lacks")
                rules.setdefault(rid, {}).setdefault(key, 0)
                rules[rid][key] += 1
    return {
        "about": "Rules the kafka step's seeded random sequences reach, run through the simulator: per rule id, "
                 "how many sequences of each run cite it; make test compares every one of them with the Kafka "
                 f"version named. Generated by `{REGENERATE}`; do not edit.",
        "seed": seed,
        "runs": runs,
        "rules": {rid: dict(sorted(v.items())) for rid, v in sorted(rules.items())},
    }


def dumps(cov):
    return json.dumps(cov, indent=1) + "\n"


def changes(old, new):
    """The rule ids whose counts differ between two coverage objects, as `A1 {old} -> {new}`."""
    ids = sorted(set(old.get("rules", {})) | set(new["rules"]))
    return [f"{i} {old.get('rules', {}).get(i, {})} -> {new['rules'].get(i, {})}"
            for i in ids if old.get("rules", {}).get(i) != new["rules"].get(i)]


def check(path=FILE):
    """0 when `path` holds what `compute` gives now; else 1, with what changed and what to run."""
    cov = compute()
    try:
        with open(path) as f:
            have = f.read()
    except FileNotFoundError:
        have = ""
    if have == dumps(cov):
        print(f"random coverage: {os.path.relpath(path, ROOT)} is current", flush=True)
        return 0
    try:
        old = json.loads(have)
    except ValueError:
        old = {}
    print(f"random coverage: {os.path.relpath(path, ROOT)} is stale (the model, a generator or a count changed "
          f"what the seeded random sequences reach); rewrite it with `{REGENERATE}`", flush=True)
    for line in changes(old, cov)[:20]:
        print(f"  {line}", flush=True)
    return 1


def summary(cov):
    """One line per run and the rules no run reaches: what `python3 random_coverage.py` prints."""
    lines = [f"seed {cov['seed']}"]
    for r in cov["runs"]:
        reached = sum(1 for v in cov["rules"].values() if v.get(r["run"]))
        lines.append(f"  {r['run']:<28} {r['sequences']:>5} sequences, {reached} rules cited")
    lines.append(f"rules cited by some sequence: {len(cov['rules'])}: " + " ".join(cov["rules"]))
    return "\n".join(lines)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    g = ap.add_mutually_exclusive_group()
    g.add_argument("--write", action="store_true", help=f"rewrite {os.path.relpath(FILE, ROOT)}")
    g.add_argument("--check", action="store_true", help="exit 1 when the file is stale")
    args = ap.parse_args(argv)
    # The numbers are the current model's: never an old binary's.
    subprocess.run(["cargo", "build", "--quiet", "--release", "-p", "eoslab-cli"], cwd=ROOT, check=True)
    if args.check:
        return check()
    cov = compute()
    if args.write:
        with open(FILE, "w") as f:
            f.write(dumps(cov))
        print(f"wrote {os.path.relpath(FILE, ROOT)}")
    print(summary(cov))
    return 0


if __name__ == "__main__":
    sys.exit(main())
