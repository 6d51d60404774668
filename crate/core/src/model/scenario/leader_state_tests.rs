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
    let part = &run.sim.partitions[0];
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
