#!/usr/bin/env python3
"""A real partition read back: Kafka writes a partition's files, eoslab reads them, and the leader
eoslab starts from them must answer as the broker that loaded the same files.

  1. On a fresh topic, the Produce and WriteTxnMarkers requests of HISTORY (two idempotent
     producers' batches, a transaction aborted, a second one left open) are replayed at the
     leader and every answer compared with the model's (idempotence.Replayer.run).
  2. The broker restarts (a clean shutdown writes the producer-state snapshot at the log end; the
     restarted broker loads the partition from it).
  3. `eoslab partition DIR` on the broker's own directory of that partition: every file agrees
     with the log (exit 0), and its LSO and aborted transactions are what a read_committed Fetch
     of the restarted broker returns.
  4. `eoslab partition --script DIR` (the view's "continue in the simulator") plus QUESTIONS
     (retries of the last and of an earlier batch, the next sequence, a new epoch, a zombie
     epoch): every request the model decides is sent to the restarted broker, and each answer
     (error code, base offset) must be the model's.

Run alone: python3 tests/kafka/partition_restart.py (needs scripts/ensure-kafka.sh and the
release CLI); run.py runs it in `make test`.
"""
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from oracle import ROOT, Broker  # noqa: E402
import idempotence  # noqa: E402
from idempotence import EOSLAB, Disagreement, PRODUCE_VERSION, is_transactional, sim  # noqa: E402

PID = 424200  # any producer id: raw idempotent Produce needs no InitProducerId
HISTORY = f"""title the history the broker writes before its restart
partition p0
produce p0 pid={PID} epoch=0 seq=0 v0 v1 v2
produce p0 pid={PID} epoch=0 seq=3 v3
produce p0 pid={PID} epoch=0 seq=4 v4 v5 v6
produce p0 pid={PID + 1} epoch=0 seq=0 txn t0 t1
marker p0 pid={PID + 1} epoch=0 abort tv=1
produce p0 pid={PID + 1} epoch=0 seq=2 txn t2
"""
QUESTIONS = f"""
# questions asked of the restarted leader
produce p0 pid={PID} epoch=0 seq=3 v3
produce p0 pid={PID} epoch=0 seq=0 v0 v1 v2
produce p0 pid={PID} epoch=0 seq=7 v7
produce p0 pid={PID + 1} epoch=0 seq=2 txn t2
produce p0 pid={PID} epoch=1 seq=0 w0
produce p0 pid={PID} epoch=0 seq=8 late
"""


def run(broker):
    """Returns the number of failures (0 or 1), printing what disagreed."""
    rp = idempotence.Replayer(broker)
    topic = rp.fresh_topic("restart", 1)
    try:
        rp.run(HISTORY, topic=topic, first_pid=PID)
    except Disagreement as e:
        print(f"partition restart: the history disagrees before the restart: {e}")
        return 1
    broker.restart()
    directory = os.path.join(broker.data, f"{topic}-0")
    loaded = subprocess.run([EOSLAB, "partition", directory], capture_output=True, text=True)
    print(loaded.stdout, end="")
    if loaded.returncode != 0:
        print(f"partition restart: eoslab partition finds the broker's own files disagreeing (exit {loaded.returncode}):\n{loaded.stderr}")
        return 1
    probe = broker.probe()
    # The LSO and aborted transactions the restarted broker gives a read_committed consumer.
    fc = probe.fetch(topic, 0, offset=0, isolation=1, max_bytes=64 << 20)
    want_lso = f"last stable offset: {fc['lastStableOffset']} "
    if want_lso not in loaded.stdout:
        print(f"partition restart: Kafka's LSO after loading is {fc['lastStableOffset']}; eoslab partition says otherwise")
        return 1
    for a in fc["abortedTransactions"] or []:
        if f"producerId: {a['producerId']} firstOffset: {a['firstOffset']} " not in loaded.stdout:
            print(f"partition restart: Kafka lists the aborted transaction {a}; eoslab partition does not")
            return 1
    script = subprocess.run([EOSLAB, "partition", "--script", directory], capture_output=True, text=True, check=True).stdout
    script += QUESTIONS
    run_ = sim(script)
    if run_["error"]:
        print(f"partition restart: the model could not run the script: {run_['error']}\n{script}")
        return 1
    asked = 0
    answers = []
    for ev in run_["events"]:
        if ev["kind"] != "produce":
            continue
        batch = bytes.fromhex(ev["bytes"])
        got = probe.produce(topic, 0, batch, version=PRODUCE_VERSION,
                            transactional_id="eoslab-raw" if is_transactional(batch) else None)
        asked += 1
        answers.append(f"{ev['outcome']}" + (f" {ev['errorName']}" if ev["errorCode"] else f" at {ev['baseOffset']}"))
        where = f"line {ev['line']} of the continued script (rule {ev['rule']})"
        if got["errorCode"] != ev["errorCode"]:
            print(f"partition restart: {where}: the model answers {ev['errorName']} [{ev['why']}]; Kafka answers "
                  f"{probe.error_name(got['errorCode'])} {got.get('errorMessage') or ''}\n--- script\n{script}")
            return 1
        if ev["errorCode"] == 0 and got["baseOffset"] != ev["baseOffset"]:
            print(f"partition restart: {where}: the model answers {ev['outcome']} at {ev['baseOffset']}; Kafka at {got['baseOffset']}")
            return 1
    print(f"partition restart: the broker's files agree with their log, and {asked} requests to the leader "
          f"continued from them are answered as Kafka's restarted leader answers them: {', '.join(answers)}")
    return 0


if __name__ == "__main__":
    with Broker("4.3.1", idempotence.BROKER_CONFIG) as b:
        rc = run(b)
    sys.exit(rc)
