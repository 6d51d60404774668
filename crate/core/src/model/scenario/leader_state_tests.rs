use super::*;

fn err(text: &str) -> ParseError {
    parse(text).unwrap_err()
}

#[test]
fn a_given_producer_state_is_what_the_leader_decides_against() {
    // Two retained batches, epoch 3, an open transaction from offset 12: a retry of the
    // older batch is a duplicate (A1), the LSO is held at the transaction's first offset.
    let sc = parse(
        "partition p\nlog-end p 20\nproducer-state p pid=7 epoch=3 coordinator-epoch=2 txn-first-offset=12 batch=0..1@10..11 batch=2..4@12..14\n\
             produce p pid=7 epoch=3 seq=0 txn a b\nexpect last duplicate 10..11\nexpect lso p 12\n",
    )
    .unwrap();
    let run = run(&sc);
    assert!(run.passed(), "{:?} {:?}", run.failures, run.error);
    let part = &run.sim.cluster.partitions[0];
    assert_eq!(part.log_end_offset, 20);
    let e = &part.producers[&7];
    assert_eq!((e.producer_epoch, e.coordinator_epoch, e.last_seq(), e.batches.len()), (3, 2, 4, 2));
    // The next sequence is appended at the log end.
    let sc = parse("partition p\nproducer-state p pid=7 epoch=3 batch=0..1@10..11\nproduce p pid=7 epoch=3 seq=2 c\nexpect last appended 12..12\n").unwrap();
    assert!(run_passes(&sc));
}

fn run_passes(sc: &Scenario) -> bool {
    let r = run(sc);
    r.passed() && r.error.is_none()
}

#[test]
fn a_state_that_cannot_be_names_its_line_and_why() {
    let e = err("partition p\nlog-end p 5\nproducer-state p pid=1 epoch=0 batch=0..2@4..6\n");
    assert_eq!(e.line, 3);
    assert!(e.message.contains("offset 6 is at or past the log end 5"), "{}", e.message);
    let e = err("partition p\nproducer-state p pid=1 epoch=0 batch=0..5@4..6\n");
    assert!(e.message.contains("3 records from sequence 0 end at sequence 2, not 5"), "{}", e.message);
    let e = err("partition p\nproducer-state q pid=1 epoch=0\n");
    // The parser names the nearest declared partition (model::suggest).
    assert!(e.message.contains("unknown partition `q` — did you mean `p`?"), "{}", e.message);
    let six = (0..6).map(|i| format!(" batch={i}..{i}@{i}..{i}")).collect::<String>();
    let e = err(&format!("partition p\nproducer-state p pid=1 epoch=0{six}\n"));
    assert!(e.message.contains("at most 5 batches"), "{}", e.message);
    let e = err("partition p\nproducer-state p epoch=0\n");
    assert!(e.message.contains("needs pid=N and epoch=E"), "{}", e.message);
    let e = err("partition p\nproducer-state p pid=1 epoch=0 batch=2..2@5..5 batch=1..1@4..4\n");
    assert!(e.message.contains("oldest first"), "{}", e.message);
}

/// `run-task NAME` in the idempotence scripts (periodic tasks "can also be run
/// explicitly", in both languages): the leaders' PeriodicProducerExpirationCheck removes a
/// producer whose last record is older than producer.id.expiration.ms without time moving; it
/// does nothing until it runs.
#[test]
fn run_task_producer_expiration_check_expires_a_given_old_producer_now() {
    // The script starts at 1_700_000_000_000; the producer's last record is two days older.
    let head = "broker producer.id.expiration.ms=1d\npartition p\nlog-end p 1\nproducer-state p pid=7 epoch=0 timestamp=1699827200000 batch=0..0@0..0\n";
    let sc = parse(&format!("{head}expect producers p 1\nrun-task PeriodicProducerExpirationCheck\nexpect producers p 0\nproduce p pid=7 epoch=0 seq=5 x\nexpect last appended 1..1\n")).unwrap();
    let r = run(&sc);
    assert!(r.passed() && r.error.is_none(), "{:?} {:?}", r.failures, r.error);
    assert_eq!(r.sim.cluster.now_ms, sc.start_ms, "time did not move");
    let task = r.sim.trace.iter().find(|e| matches!(e.kind, crate::model::idempotence::EventKind::Task(_)));
    assert!(task.is_some(), "the task is an event of its step");
    // Without the task, the same produce is out of order (A7): the entry is still there.
    let sc = parse(&format!("{head}produce p pid=7 epoch=0 seq=5 x\nexpect last rejected OUT_OF_ORDER_SEQUENCE_NUMBER\n")).unwrap();
    assert!(run_passes(&sc));
}

/// The coordinator's tasks run on the cluster the request lines made: a transaction past its
/// timeout is aborted by `run-task transaction-abort` before the 10 s scan would reach it.
#[test]
fn run_task_transaction_abort_runs_the_coordinators_scan_now() {
    let text = "partition p\ninit-producer-id transactional.id=app timeout=1s\n\
                add-partitions-to-txn transactional.id=app pid=1000 epoch=0 p\nexpect txn app Ongoing\n\
                advance 5s\nexpect txn app Ongoing\nrun-task transaction-abort\nexpect txn app PrepareAbort\n";
    let sc = parse(text).unwrap_or_else(|e| panic!("{e:?}"));
    let r = run(&sc);
    assert!(r.passed() && r.error.is_none(), "{:?} {:?}", r.failures, r.error);
    let e = err("partition p\nrun-task log-cleaner\n");
    assert!(e.message.contains("unknown task \"log-cleaner\"") && e.message.contains("isr-expiration"), "{}", e.message);
}

/// `run-task isr-expiration`: the leader's ISR check, between its scheduled runs (every
/// replica.lag.time.max.ms / 2): a follower behind for more than replica.lag.time.max.ms is
/// dropped now (S3), not at the next scheduled check.
#[test]
fn run_task_isr_expiration_drops_a_lagging_follower_between_scheduled_checks() {
    let text = "broker default.replication.factor=2 replica.lag.time.max.ms=10s\npartition p\nproducer app\n\
                lag p broker=2\nsend app p a\ndeliver request b1\n\
                advance 10200ms\nexpect isr p 1,2\nrun-task isr-expiration\nexpect isr p 1\n";
    let r = run(&parse(text).unwrap_or_else(|e| panic!("{e:?}")));
    assert!(r.passed() && r.error.is_none(), "{:?} {:?}", r.failures, r.error);
    // Without it, the scheduled check at 15 s drops it.
    let later = text.replace("run-task isr-expiration\nexpect isr p 1\n", "advance 4800ms\nexpect isr p 1\n");
    assert!(run_passes(&parse(&later).unwrap()));
}
