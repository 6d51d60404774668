#!/usr/bin/env python3
"""`make test`'s kafka step: the simulator against real Kafka brokers (tests/kafka/README.md).

  0. Without a broker: tests/kafka/random-coverage.json (the rules the pinned seed's random
     sequences below reach, shown in the docs' rule catalogue) must be what
     random_coverage.py computes from the current model; rewrite it with
     `python3 tests/kafka/random_coverage.py --write`.
  1. Kafka 4.3.1: every idempotence scenario and fixture, and N random schedules (default
     1000; EOSLAB_KAFKA_SCHEDULES), replayed at the partition leader (idempotence.py); then
     N random request sequences (produce/marker lines: idempotent, transactional and
     non-idempotent batches, markers of both transaction versions).
  2. The sabotage self-test: a deliberately wrong model must fail and shrink to a script. Then
     partition_restart.py: the broker restarts, `eoslab partition` reads its own directory of a
     partition (every file must agree with the log; LSO and aborted list as a read_committed
     Fetch gives them) and the leader continued from it must answer 8 requests as Kafka does.
     Then dump_log_mutations.py: Kafka's own kafka-dump-log and `eoslab dump-log` on damaged
     copies of the broker fixtures (EOSLAB_KAFKA_DUMP_CASES, default 60), output for output;
     segment_mutations.py: the same on .log segments damaged field by field (cuts, every header
     field, chosen bad values, zeros); envelope_mutations.py: Kafka's RequestHeader.parse and
     RequestContext.parseRequest (ParseRequest.java) against `eoslab decode --messages --request`
     on every golden request envelope damaged (cuts, api keys, versions, client id lengths, size
     prefixes, records sizes, random bytes): exception name, message and byte offset.
  3. Kafka 4.1.2 (the 4.0-4.1 line): the same scenarios and 200 schedules (not the request
     sequences: 4.1 has no WriteTxnMarkers v2 and no M2 rule; the model follows 4.3).
  4. The transactions scenarios through the Java client (txn_scenarios.py) on 4.3.1 and 4.1.2,
     and their sabotage self-test; N random request sequences of the transactions model
     (InitProducerId, AddPartitionsToTxn, Produce, EndTxn, markers, Fetch, ListOffsets with
     stale epochs and wrong sequences among them; default 20 on 4.3.1 and half as many on 4.1.2,
     EOSLAB_KAFKA_TXN_REQUESTS); with EOSLAB_KAFKA_TXN_SCHEDULES=N (kafka-nightly: 50), N
     random schedules of the transactions model too.
  5. The replication scenarios (replication.py) on real 4.3.1 clusters of 2-3 data brokers and
     a controller: followers that stop fetching, the ISR check, elections clean and unclean,
     truncation, a Java client's commit waiting for a slow follower, a Java idempotent producer's
     epoch bump after an unclean election; and its self-test (a wrong
     ISR order, producer state and consumer records must be caught).

Prints the time of each part and of the whole step; exits non-zero on any disagreement.
Writes a summary to target/kafka-differential.json (the README's Fidelity figures).
"""
import json
import os
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from oracle import ROOT, Broker  # noqa: E402
import idempotence  # noqa: E402
import txn_scenarios as txn  # noqa: E402
import partition_restart  # noqa: E402
import dump_log_mutations  # noqa: E402
import segment_mutations  # noqa: E402
import envelope_mutations  # noqa: E402
import replication  # noqa: E402
import random_coverage  # noqa: E402


def part(title):
    print(f"\n--- {title}", flush=True)
    return time.monotonic()


def main():
    t0 = time.monotonic()
    print("building the CLI (cargo build --release -p eoslab-cli)", flush=True)
    subprocess.run(["cargo", "build", "--quiet", "--release", "-p", "eoslab-cli"], cwd=ROOT, check=True)
    schedules = int(os.environ.get("EOSLAB_KAFKA_SCHEDULES", str(random_coverage.SCHEDULES)))
    # `make test` replays one pinned seed, so a CI run is the same run on any day;
    # `make kafka-nightly` explores a new seed each day (EOSLAB_KAFKA_SEED=date).
    seed = int(os.environ.get("EOSLAB_KAFKA_SEED", str(random_coverage.SEED)))
    failures = 0
    times = []
    # Before any broker: the rule catalogue's record of which rules this step's random sequences
    # reach (tests/kafka/random-coverage.json, at the pinned seed and default counts) must be the
    # current model's.
    t = part("the rules the pinned seed's random sequences reach (tests/kafka/random_coverage.py --check)")
    failures += random_coverage.check()
    times.append(("random coverage", time.monotonic() - t))
    summary = {"seed": seed, "parts": []}

    t = part(f"Kafka 4.3.1: idempotence scenarios and {schedules} random schedules (seed {seed})")
    with Broker("4.3.1", idempotence.BROKER_CONFIG) as b:
        print(f"broker up in {b.start_seconds:.1f}s", flush=True)
        f, s = idempotence.run_all(b, schedules, seed)
        failures += f
        summary["parts"].append({"part": "idempotence", **s})
        times.append(("idempotence 4.3.1", time.monotonic() - t))
        t = part(f"Kafka 4.3.1: {schedules} random request sequences (produce and marker lines)")
        f, s = idempotence.run_requests(b, schedules, seed)
        failures += f
        summary["parts"].append({"part": "requests", **s})
        times.append(("requests 4.3.1", time.monotonic() - t))
        t = part("sabotage self-test (Kafka 4.3.1)")
        failures += idempotence.self_test(b)
        times.append(("self-test", time.monotonic() - t))
        # Last on this broker: it restarts.
        t = part("Kafka 4.3.1: a partition read back after a restart (eoslab partition, continue in the simulator)")
        failures += partition_restart.run(b)
        times.append(("partition restart", time.monotonic() - t))

    dump_cases = int(os.environ.get("EOSLAB_KAFKA_DUMP_CASES", "60"))
    t = part(f"Kafka 4.3.1's kafka-dump-log against eoslab dump-log on {dump_cases} damaged copies of the broker fixtures")
    failures += dump_log_mutations.run(dump_cases, seed)
    times.append(("dump-log mutations", time.monotonic() - t))
    t = part("Kafka 4.3.1's DumpLogSegments against eoslab dump-log on .log segments damaged field by field")
    failures += segment_mutations.run()
    times.append(("segment mutations", time.monotonic() - t))
    t = part("Kafka 4.3.1's request parsing (RequestHeader.parse, RequestContext.parseRequest) against eoslab on damaged requests")
    failures += envelope_mutations.run()
    times.append(("envelope mutations", time.monotonic() - t))

    t = part(f"Kafka 4.1.2: idempotence scenarios and {random_coverage.OLD_LINE_SCHEDULES} random schedules")
    with Broker("4.1.2", idempotence.BROKER_CONFIG) as b:
        f, s = idempotence.run_all(b, random_coverage.OLD_LINE_SCHEDULES, seed)
        failures += f
        summary["parts"].append({"part": "idempotence", **s})
        times.append(("idempotence 4.1.2", time.monotonic() - t))

    for version in ("4.3.1", "4.1.2"):
        t = part(f"Kafka {version}: the transactions scenarios through the Java client")
        rc = txn.main(["--version", version])
        failures += 1 if rc else 0
        times.append((f"transactions {version}", time.monotonic() - t))
    t = part("transactions sabotage self-test (Kafka 4.3.1)")
    failures += 1 if txn.self_test("4.3.1") else 0
    times.append(("transactions self-test", time.monotonic() - t))
    txn_requests = int(os.environ.get("EOSLAB_KAFKA_TXN_REQUESTS", str(random_coverage.TXN_REQUESTS)))
    for version, n in (("4.3.1", txn_requests), ("4.1.2", random_coverage.old_line_txn_requests(txn_requests))):
        if n:
            t = part(f"Kafka {version}: {n} random request sequences of the transactions model (seed {seed})")
            rc = txn.main(["--version", version, "--only-random", "--random-requests", str(n), "--seed", str(seed)])
            failures += 1 if rc else 0
            times.append((f"transactions requests {version}", time.monotonic() - t))
    t = part("Kafka 4.3.1 clusters (data brokers 1..N, node 9 the controller and coordinator): the replication scenarios")
    rc = replication.main(["--version", "4.3.1"])
    failures += 1 if rc else 0
    summary["parts"].append({"part": "replication", "version": "4.3.1", "scenarios": len(replication.SCENARIOS),
                             "seconds": round(time.monotonic() - t, 1)})
    times.append(("replication 4.3.1", time.monotonic() - t))
    t = part("replication self-test (Kafka 4.3.1 cluster)")
    failures += replication.self_test("4.3.1")
    times.append(("replication self-test", time.monotonic() - t))
    txn_random = int(os.environ.get("EOSLAB_KAFKA_TXN_SCHEDULES", "0"))
    if txn_random:
        t = part(f"Kafka 4.3.1: {txn_random} random transactions schedules through the Java client (seed {seed})")
        rc = txn.main(["--only-random", "--random", str(txn_random), "--seed", str(seed)])
        failures += 1 if rc else 0
        times.append(("random transactions 4.3.1", time.monotonic() - t))

    os.makedirs(os.path.join(ROOT, "target"), exist_ok=True)
    with open(os.path.join(ROOT, "target", "kafka-differential.json"), "w") as fh:
        json.dump(summary, fh, indent=1)
    print("\nkafka step times: " + ", ".join(f"{n} {s:.0f}s" for n, s in times)
          + f"; total {time.monotonic() - t0:.0f}s")
    print("KAFKA DIFFERENTIAL: " + ("PASSED" if failures == 0 else f"{failures} FAILURE(S)"))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
