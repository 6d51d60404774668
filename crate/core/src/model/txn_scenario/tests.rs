use super::*;

/// Run `steps` after a header with `orders-0` and `state` (a `producer-state` line);
/// every `expect` must hold.
fn ask(state: &str, steps: &str) -> TxnRun {
    let text = format!("model transactions\ntitle t\npartition orders-0\n{state}\n{steps}\n");
    let sc = parse(&text).unwrap_or_else(|e| panic!("{e:?}"));
    let r = run(&sc, None, true);
    assert!(r.passed(), "{}", timeline_text(&r));
    r
}

fn refused(state: &str) -> ParseError {
    parse(&format!("model transactions\ntitle t\npartition orders-0\n{state}\n")).unwrap_err()
}

#[test]
fn producer_state_lets_a_script_ask_a1_a_retry_of_the_seeded_batch_is_a_duplicate_with_its_original_offsets() {
    let r = ask(
        "producer-state orders-0 pid=1000 epoch=2 seq=5..9 offset=20",
        "expect producer-state orders-0 pid=1000 epoch=2 seq=5..9 offset=20 txn-first=none\nexpect hw orders-0 25\n\
             produce orders-0 pid=1000 epoch=2 seq=5 a b c d e as retry\nexpect retry duplicate 20..24\nexpect retry rule A1\n\
             produce orders-0 pid=1000 epoch=2 seq=10 f as next\nexpect next appended 25..25\nexpect next rule A7\n\
             expect producer-state orders-0 pid=1000 seq=10..10 offset=25",
    );
    assert_eq!(r.world.idem.cluster.partitions[0].log_end_offset, 26);
    // The retry wrote nothing, and the seeded batch has no record: the run's records hold only
    // `next` (Kafka's log has nothing from the retry either; found by the Kafka test).
    let offsets: Vec<i64> = r.world.records.iter().filter(|x| x.partition == "orders-0").map(|x| x.offset).collect();
    assert_eq!(offsets, [25]);
    assert!(timeline_text(&r).contains("# line 4: the leader of orders-0 holds producer 1000 epoch 2, last batch sequences 5..9 at offsets 20..24"));
}

#[test]
fn txn_state_sets_an_ongoing_transaction_to_ask_end_txn_about() {
    let text = "model transactions\ntitle t\ncluster transaction.version=1\npartition orders-0\n\
                    txn-state app pid=5000 epoch=3 state=Ongoing partitions=orders-0 timeout=30s last-epoch=2\n\
                    expect txn app Ongoing\n\
                    end-txn transactional.id=app pid=5000 epoch=2 commit v=4 as stale\nexpect stale error PRODUCER_FENCED\n\
                    end-txn transactional.id=app pid=5000 epoch=3 commit v=4 as ok\nexpect ok error NONE\nexpect txn app PrepareCommit\n\
                    deliver markers\nexpect txn app CompleteCommit\nexpect log orders-0 [COMMIT]\n";
    let sc = parse(text).unwrap_or_else(|e| panic!("{e:?}"));
    let r = run(&sc, None, true);
    assert!(r.passed(), "{}", timeline_text(&r));
    let m = r.world.coordinator.get("app").unwrap();
    assert_eq!((m.txn_timeout_ms, m.last_producer_epoch), (30_000, 2));
    assert!(refused("txn-state app pid=1 epoch=0 state=PrepareCommit").message.contains("markers in flight"));
    assert!(refused("txn-state app pid=1 epoch=0 partitions=orders-0").message.contains("Ongoing"));
    assert!(refused("txn-state app pid=1").message.contains("usage"));
}

#[test]
fn producer_state_takes_the_idempotence_scripts_batch_spelling_too() {
    // `batch=FIRST..LAST@OFFSET..LAST_OFFSET` and `txn-first-offset=` as the idempotence
    // scripts (and `eoslab partition`'s continued script) write them.
    let r = ask(
        "producer-state orders-0 pid=1000 epoch=2 batch=5..9@20..24",
        "expect producer-state orders-0 pid=1000 epoch=2 seq=5..9 offset=20\n\
             produce orders-0 pid=1000 epoch=2 seq=5 a b c d e as retry\nexpect retry duplicate 20..24",
    );
    assert_eq!(r.world.idem.cluster.partitions[0].log_end_offset, 25);
    assert!(refused("producer-state orders-0 pid=1 epoch=0 seq=1 batch=1..1@0").message.contains("one batch"));
    assert!(refused("producer-state orders-0 pid=1 epoch=0 batch=1..1").message.contains("batch=FIRST..LAST@OFFSET"));
}

#[test]
fn producer_state_lets_a_script_ask_a7_a_gap_after_the_seeded_batch() {
    ask("producer-state orders-0 pid=1000 epoch=2 seq=5..9", "produce orders-0 pid=1000 epoch=2 seq=11 x as gap\nexpect gap rejected OUT_OF_ORDER_SEQUENCE_NUMBER\nexpect gap rule A7\nexpect hw orders-0 5");
}

#[test]
fn producer_state_lets_a_script_ask_a6_a_new_epoch_must_start_at_zero() {
    ask(
        "producer-state orders-0 pid=1000 epoch=2 seq=5..9",
        "produce orders-0 pid=1000 epoch=3 seq=10 x as bumped\nexpect bumped error OUT_OF_ORDER_SEQUENCE_NUMBER\nexpect bumped rule A6\n\
             produce orders-0 pid=1000 epoch=3 seq=0 x as fresh\nexpect fresh appended 5..5\nexpect producer-state orders-0 pid=1000 epoch=3 seq=0..0",
    );
}

#[test]
fn producer_state_lets_a_script_ask_a3_an_older_epoch_is_fenced() {
    ask("producer-state orders-0 pid=1000 epoch=2 seq=5..9", "produce orders-0 pid=1000 epoch=1 seq=10 x as stale\nexpect stale error INVALID_PRODUCER_EPOCH\nexpect stale rule A3");
}

#[test]
fn producer_state_with_txn_first_lets_a_script_ask_a9_and_the_lso() {
    ask(
        "producer-state orders-0 pid=1000 epoch=0 seq=0..2 offset=4 txn-first=2",
        "expect lso orders-0 2\nexpect hw orders-0 7\nexpect producer-state orders-0 pid=1000 txn-first=2\n\
             produce orders-0 pid=1000 epoch=0 seq=3 plain as p\nexpect p error INVALID_TXN_STATE\nexpect p rule A9\n\
             list-offsets orders-0 read_committed as lo\nexpect lo offset 2",
    );
}

#[test]
fn producer_state_lines_stack_and_a_later_init_producer_id_gets_a_higher_pid() {
    let r = ask(
        "producer-state orders-0 pid=1000 epoch=0 seq=0..1\nproducer-state orders-0 pid=1003 epoch=0 seq=7",
        "expect producer-state orders-0 pid=1003 offset=2\nexpect hw orders-0 3\ninit-producer-id as i\nexpect i pid 1004 epoch 0",
    );
    assert_eq!(r.scenario.producer_states[1].offset, Some(2), "the default offset is the log end, filled in when parsed");
}

#[test]
fn bad_producer_state_lines_are_refused_with_their_line_and_why() {
    for (line, says) in [
        ("producer-state orders-0 pid=1000 epoch=0", "pid=, epoch= and seq= are needed"),
        ("producer-state pid=1000 epoch=0 seq=0", "the partition comes first"),
        ("producer-state orders-9 pid=1000 epoch=0 seq=0", "no such partition"),
        ("producer-state orders-0 pid=-1 epoch=0 seq=0", "pid=-1: a producer id is a number ≥ 0"),
        ("producer-state orders-0 pid=1 epoch=40000 seq=0", "epoch=40000: a producer epoch"),
        ("producer-state orders-0 pid=1 epoch=0 seq=3..x", "seq=3..x"),
        ("producer-state orders-0 pid=1 epoch=0 seq=0 offset=-3", "offset=-3"),
        ("producer-state orders-0 pid=1 epoch=0 seq=0 colour=red", "unknown producer-state setting"),
        ("producer-state orders-0 pid=1 epoch=0 seq=0..4 offset=3 txn-first=4", "txn-first=4: the open transaction's first offset is 0..3"),
        ("producer-state orders-0 pid=1 epoch=0 seq=0..4\nproducer-state orders-0 pid=1 epoch=1 seq=0", "producer 1 already has a state"),
        ("producer-state orders-0 pid=1 epoch=0 seq=0..4\nproducer-state orders-0 pid=2 epoch=0 seq=0 offset=2", "offset=2: the partition already holds offsets up to 4"),
    ] {
        let e = refused(line);
        assert!(e.message.contains(says), "{line}: {}", e.message);
        assert_eq!(e.line, 3 + line.lines().count(), "{line}: the error names the line");
    }
}

#[test]
fn s1_a_java_batch_never_acknowledged_fails_after_delivery_timeout_and_the_commit_never_goes() {
    // With replica.lag.time.max.ms above delivery.timeout.ms the ISR check never drops the
    // stalled follower in time: the batch fails with a TimeoutException, an abortable error.
    let text = "model transactions\ntitle t\ncluster default.replication.factor=2 replica.lag.time.max.ms=10m\npartition orders-0\n\
                producer app transactional.id=pay transaction.timeout.ms=15m\n\
                init app\nbegin app\nlag orders-0\nsend app orders-0 a\ncommit app\nexpect app state COMMITTING_TRANSACTION\n\
                advance 119s\nexpect app state COMMITTING_TRANSACTION\nexpect txn pay Ongoing\n\
                advance 2s\nexpect app state ABORTABLE_ERROR\nexpect app error TimeoutException\nexpect txn pay Ongoing\n\
                abort app\nexpect txn pay PrepareAbort\n";
    let sc = parse(text).unwrap_or_else(|e| panic!("{e:?}"));
    let r = run(&sc, None, true);
    assert!(r.passed(), "{}", timeline_text(&r));
}

#[test]
fn s6_a_java_batch_above_the_hw_is_sent_again_to_the_new_leader_and_the_commit_goes_on() {
    // Broker 2 stalls after `a`; `b` waits for it. The leader fails and broker 2 (in the ISR)
    // is elected with the log up to `a`: the client sends `b` again and it is written there.
    let text = "model transactions\ntitle t\ncluster default.replication.factor=2\npartition orders-0\n\
                producer app transactional.id=pay\n\
                init app\nbegin app\nsend app orders-0 a\nlag orders-0\nsend app orders-0 b\ncommit app\n\
                expect app state COMMITTING_TRANSACTION\n\
                leader-fails orders-0\nexpect leader orders-0 2\nexpect txn pay PrepareCommit\n\
                deliver markers\nexpect txn pay CompleteCommit\nexpect log orders-0 a b [COMMIT]\n";
    let sc = parse(text).unwrap_or_else(|e| panic!("{e:?}"));
    let r = run(&sc, None, true);
    assert!(r.passed(), "{}", timeline_text(&r));
    let truncated: Vec<i64> = r.world.records.iter().filter(|x| x.truncated_at.is_some()).map(|x| x.offset).collect();
    assert_eq!(truncated, [1], "the first `b` (offset 1) is gone with the old leader's log");
}

#[test]
fn inject_answers_what_the_client_retries_and_the_retry_is_processed_once() {
    let bad = |line: &str| parse(&format!("model transactions\ntitle t\npartition orders-0\nproducer app transactional.id=pay\n{line}\n")).unwrap_err().message;
    assert!(bad("inject app EndTxn NONE").contains("inject an error"));
    assert!(bad("inject app Fetch NOT_COORDINATOR").contains("is not one of"));
    assert!(bad("inject app Produce NOT_A_NAME").contains("not a Kafka error name"));
    // TV2: sendOffsetsToTransaction's TxnOffsetCommit answered REQUEST_TIMED_OUT: the group
    // coordinator is looked up again, the retry commits the offsets, once.
    let text = "model transactions\ntitle t\npartition in-0 out-0\nproducer app transactional.id=pay\nconsumer c read_committed group=g in-0\n\
                init app\nbegin app\nsend app out-0 x\ninject app TxnOffsetCommit REQUEST_TIMED_OUT\nsend-offsets app c\n\
                inject app Produce NOT_LEADER_OR_FOLLOWER\nsend app out-0 y\ncommit app\ndeliver markers\n\
                expect txn pay CompleteCommit\nexpect offsets g in-0 0\nexpect log out-0 x y [COMMIT]\n";
    let sc = parse(text).unwrap_or_else(|e| panic!("{e:?}"));
    let r = run(&sc, None, true);
    assert!(r.passed(), "{}", timeline_text(&r));
    let t = timeline_text(&r);
    assert!(t.contains("TxnOffsetCommit response REQUEST_TIMED_OUT(7) (injected: the request was not processed)"), "{t}");
    assert!(t.contains("FindCoordinator(GROUP): the coordinator is looked up again"), "{t}");
    assert!(t.contains("Produce response NOT_LEADER_OR_FOLLOWER(6) (injected"), "{t}");
    // The injected answer comes from the leader the request went to, and the batch goes again.
    let msgs: Vec<_> = r.steps.iter().flat_map(|s| &s.messages).collect();
    let answer = msgs.iter().find(|m| m.text.starts_with("Produce response NOT_LEADER_OR_FOLLOWER")).unwrap();
    assert_eq!((answer.from.as_str(), answer.to.as_str()), ("partition:out-0", "producer:app"));
    assert!(msgs.iter().any(|m| m.kind == "Produce" && m.text.starts_with("Produce again: producer 1000 epoch 0, sequences 1..1")), "{t}");
}

#[test]
fn i3_transaction_max_timeout_ms_is_a_broker_setting() {
    let text = "model transactions\ntitle t\ncluster transaction.max.timeout.ms=30s\npartition orders-0\n\
                init-producer-id transactional.id=a timeout=60s as long\nexpect long error INVALID_TRANSACTION_TIMEOUT\nexpect long rule I3\n\
                init-producer-id transactional.id=a timeout=30s as ok\nexpect ok error NONE\n";
    let sc = parse(text).unwrap_or_else(|e| panic!("{e:?}"));
    let r = run(&sc, None, true);
    assert!(r.passed(), "{}", timeline_text(&r));
    assert!(timeline_text(&r).contains("transaction.timeout.ms 60000 is not in 1..30000 (transaction.max.timeout.ms)"));
}

#[test]
fn x1_leaders_expire_idle_producers_at_their_periodic_check_and_the_retry_is_written_again() {
    // Checks every 10 minutes from the start; the entry is 1 h old only after the 60-minute check.
    let text = "model transactions\ntitle t\ncluster producer.id.expiration.ms=1h\npartition orders-0\n\
                init-producer-id as i\nproduce orders-0 pid=1000 epoch=0 seq=0 a as first\nexpect first appended 0..0\n\
                advance 1h\nexpect producer-state orders-0 pid=1000 seq=0..0\n\
                advance 10m\nexpect producers-gone\n";
    let text = text.replace("expect producers-gone\n", "produce orders-0 pid=1000 epoch=0 seq=0 a as retry\nexpect retry appended 1..1\nexpect retry rule X2\n");
    let sc = parse(&text).unwrap_or_else(|e| panic!("{e:?}"));
    let r = run(&sc, None, true);
    assert!(r.passed(), "{}", timeline_text(&r));
    assert!(timeline_text(&r).contains("producer state of [1000] expired"));
}

#[test]
fn g2_a_classic_groups_static_members_fence_a_stale_instance_and_a_transactional_commit_without_member_is_taken() {
    // `ClassicGroup.validateOffsetCommit` (4.3.1), isTransactional=true: the instance id is
    // looked up among the static members (UNKNOWN_MEMBER_ID / FENCED_INSTANCE_ID), then the
    // member id (UNKNOWN_MEMBER_ID), then the generation (ILLEGAL_GENERATION); generation −1 with
    // no member and no instance is accepted even while the group has members.
    let text = "model transactions\ntitle t\npartition in-0\n\
                group-state g generation=3 members=m1,m2 static=i1:m1 committed=in-0=5\n\
                init-producer-id transactional.id=t as i\n\
                txn-offset-commit transactional.id=t pid=1000 epoch=0 group=g generation=3 member=m1 group-instance-id=i1 in-0=6 as ok\n\
                expect ok error in-0 NONE\n\
                txn-offset-commit transactional.id=t pid=1000 epoch=0 group=g generation=3 member=m2 group-instance-id=i1 in-0=6 as fenced\n\
                expect fenced error in-0 FENCED_INSTANCE_ID\n\
                txn-offset-commit transactional.id=t pid=1000 epoch=0 group=g generation=3 member=m1 group-instance-id=i9 in-0=6 as unknown-instance\n\
                expect unknown-instance error in-0 UNKNOWN_MEMBER_ID\n\
                txn-offset-commit transactional.id=t pid=1000 epoch=0 group=g generation=3 member=m3 in-0=6 as unknown-member\n\
                expect unknown-member error in-0 UNKNOWN_MEMBER_ID\n\
                txn-offset-commit transactional.id=t pid=1000 epoch=0 group=g generation=2 member=m1 in-0=6 as stale\n\
                expect stale error in-0 ILLEGAL_GENERATION\n\
                txn-offset-commit transactional.id=t pid=1000 epoch=0 group=g in-0=7 as simple\n\
                expect simple error in-0 NONE\n\
                offset-fetch group=g in-0 as f\nexpect f offset in-0 5\n";
    let sc = parse(text).unwrap_or_else(|e| panic!("{e:?}"));
    let r = run(&sc, None, true);
    assert!(r.passed(), "{}", timeline_text(&r));
    let bad = |line: &str| parse(&format!("model transactions\ntitle t\npartition in-0\n{line}\n")).unwrap_err().message;
    assert!(bad("group-state g members=m1").contains("generation= is required"));
    assert!(bad("group-state g generation=1 members=m1 static=i1:m2").contains("m2 is not among members="));
}

// Producers without a transactional.id (the idempotence scripts' producers, hosted in the world).

#[test]
fn an_idempotent_producer_beside_a_transaction_its_lost_answer_is_retried_and_written_once() {
    let r = ask(
        "producer app\nproducer pay transactional.id=payments\nconsumer c read_committed orders-0",
        "init pay\nexpect pay pid 1001\nbegin pay\nsend pay orders-0 t1\n\
         send app orders-0 i1\nexpect producer app pid 1000 epoch 0\ndeliver request b1\nexpect b1 appended 1..1\n\
         lose response b1\ntimeout app\ndeliver request b1\nexpect b1 duplicate 1..1\ndeliver response b1\nexpect b1 acked 1..1\n\
         poll c\nexpect c received\ncommit pay\ndeliver markers\npoll c\nexpect c received t1 i1\nexpect log orders-0 t1 i1 [COMMIT]",
    );
    // One record for i1 (the retry wrote nothing), read once; timeout moved the world's clock.
    let i1: Vec<_> = r.world.records.iter().filter(|x| x.values.iter().any(|v| v.as_deref() == Some("i1"))).collect();
    assert_eq!(i1.len(), 1);
    assert!(!i1[0].transactional && i1[0].pid == 1000 && !i1[0].bytes.is_empty());
    assert_eq!(r.world.consumers[0].received.len(), 2);
    assert!(r.world.idem.cluster.now_ms - r.world.start_ms >= 30_000);
    // The timeline shows app's Produce and the leader's answers on app's lane, with their rules.
    let text = timeline_text(&r);
    assert!(text.contains("producer:app -> partition:orders-0 Produce"), "{text}");
    assert!(text.contains("partition:orders-0 -> producer:app response: Produce response NONE(0) to b1 (attempt 2)"), "{text}");
    assert!(text.contains("[A1]"), "{text}");
    let report = crate::model::txn_report::txn_run_report(&r);
    assert!(report.lanes.iter().any(|l| l.id == "producer:app" && l.label == "app (idempotent)"));
}

#[test]
fn a_producer_without_idempotence_writes_its_retry_twice() {
    let r = ask(
        "producer app idempotence=false\nconsumer c read_committed orders-0",
        "send app orders-0 x\ndeliver request b1\nlose response b1\ntimeout app\ndeliver request b1\ndeliver response b1\n\
         expect log orders-0 x x\npoll c\nexpect c received x x",
    );
    assert_eq!(r.world.records.iter().filter(|x| x.kind == "data").count(), 2);
}

#[test]
fn hosted_producer_steps_are_refused_with_a_reason_when_they_cannot_apply() {
    let no_producer = parse("model transactions\npartition orders-0\ndeliver request b1\n").unwrap_err();
    assert_eq!(no_producer.line, 3);
    assert!(no_producer.message.contains("declare one with `producer NAME`"), "{}", no_producer.message);
    let bad_setting = parse("model transactions\npartition orders-0\nproducer app max.in.flight=0\n").unwrap_err();
    assert!(bad_setting.message.contains("max.in.flight must be 1..1000"), "{}", bad_setting.message);
    let twice = parse("model transactions\npartition orders-0\nproducer app\nproducer app transactional.id=x\n").unwrap_err();
    assert_eq!(twice.line, 4);
    // A request labelled b1 keeps `expect b1 …` for itself.
    let sc = parse("model transactions\npartition orders-0\nproducer app\ninit-producer-id as b1\nexpect b1 pid 1001 epoch 0\n").unwrap();
    assert!(matches!(sc.steps[1], TxnStep::Expect { .. }));
    assert!(run(&sc, None, false).passed());
}

#[test]
fn the_step_buttons_offer_the_hosted_producers_sends_and_network() {
    let sc = parse("model transactions\npartition orders-0\nproducer app\nsend app orders-0 a\n").unwrap();
    let r = run(&sc, None, false);
    let lines: Vec<String> = next_lines(&r.world).into_iter().map(|x| x.1).collect();
    for want in ["deliver request b1", "lose request b1", "delay request b1", "timeout app", "restart app"] {
        assert!(lines.iter().any(|l| l == want), "{want} not in {lines:?}");
    }
    assert!(lines.iter().any(|l| l.starts_with("send app orders-0 ")), "{lines:?}");
    // Each offered line runs when appended.
    let mut w = r.world.clone();
    for l in ["deliver request b1", "deliver response b1"] {
        apply_line(&mut w, l).unwrap();
    }
    assert!(matches!(w.idem.batches[0].state, crate::model::idempotence::BatchState::Acked { .. }));
}

#[test]
fn a_transactions_script_with_a_hosted_producer_round_trips_through_json() {
    let sc = parse("model transactions\npartition orders-0\nproducer app max.in.flight=1\nsend app orders-0 a\nflush\nexpect b1 acked 0..0\n").unwrap();
    let json = serde_json::to_string(&sc).unwrap();
    let back: TxnScenario = serde_json::from_str(&json).unwrap();
    assert_eq!(back, sc);
    assert!(run(&back, None, true).passed());
}

#[test]
fn a_transactional_step_for_a_producer_without_a_transactional_id_says_which_steps_it_takes() {
    let sc = parse("model transactions\npartition orders-0\nproducer app\ncommit app\n").unwrap();
    let r = run(&sc, None, false);
    let e = r.error.expect("commit is not a step of app");
    assert_eq!(e.line, 4);
    assert!(e.message.contains("app has no transactional.id") && e.message.contains("deliver request|response bN"), "{}", e.message);
}

#[test]
fn leader_change_in_a_transactions_script_answers_the_old_leaders_request_not_leader() {
    // The idempotence scripts' `leader-change`: the request in flight to the old leader is answered
    // NOT_LEADER_OR_FOLLOWER and retried at the new one, which recognises nothing new to write.
    let r = ask(
        "producer app\nproducer pay transactional.id=payments",
        "send app orders-0 x\nleader-change orders-0\ndeliver request b1\nexpect b1 rejected NOT_LEADER_OR_FOLLOWER\n\
         deliver response b1\ndeliver request b1\nexpect b1 appended 0..0\nflush\nexpect b1 acked 0..0\n\
         init pay\nbegin pay\nsend pay orders-0 t\ncommit pay\ndeliver markers\nexpect log orders-0 x t [COMMIT]",
    );
    assert_eq!(r.world.idem.cluster.partitions[0].leader_epoch, 1);
    // The transactional producer's batch is stored with the new leader epoch too.
    let t = r.world.records.iter().find(|x| x.values.iter().any(|v| v.as_deref() == Some("t"))).unwrap();
    assert_eq!(crate::batch::Batch::new_unchecked(&t.bytes[..]).partition_leader_epoch(), 1);
}

#[test]
fn expect_last_and_expect_read_name_the_latest_answers_as_in_the_idempotence_scripts() {
    ask(
        "",
        "produce orders-0 pid=5 epoch=0 seq=0 a\nexpect last appended 0..0\nfetch orders-0 read_committed\nexpect read records a\n\
         expect read hw 1\nproduce orders-0 pid=5 epoch=0 seq=0 a\nexpect last duplicate 0..0\nexpect read records a\n\
         list-offsets orders-0 read_committed\nexpect read offset 1",
    );
}

/// T1: the coordinator aborts a transaction past its timeout at its next "transaction-abort"
/// scan, every `transaction.abort.timed.out.transaction.cleanup.interval.ms` (Kafka's 10 s) from
/// its start (`TransactionCoordinator.startup`; `TransactionStateManager.timedOutTransactions`:
/// start + timeout < the scan's time), not as soon as the time has passed; the PrepareAbort it
/// writes carries the scan's time. The interval is a cluster setting.
#[test]
fn a_timed_out_transaction_is_aborted_at_the_coordinators_next_scan() {
    let script = |cluster: &str| {
        format!(
            "model transactions\ntitle t\n{cluster}\npartition orders-0\nproducer app transactional.id=app transaction.timeout.ms=15s\n\
             init app\nbegin app\nsend app orders-0 a\nadvance 16s\nexpect txn app Ongoing\nadvance 4s\nexpect txn app PrepareAbort\nexpect app fenced\n"
        )
    };
    let r = run(&parse(&script("")).unwrap(), None, true);
    assert!(r.passed(), "{}", timeline_text(&r));
    // The transaction opened a few ms after the start: its 15 s end after the 10 s scan and before
    // the 20 s one, which aborts it and writes PrepareAbort at its own time.
    let m = r.world.coordinator.get("app").unwrap();
    assert!(m.txn_start_ms > r.world.start_ms && m.txn_start_ms < r.world.start_ms + 100);
    assert_eq!(m.last_update_ms, r.world.start_ms + 20_000);
    assert!(r.world.idem.cluster.now_ms > m.last_update_ms, "the scan ran before the end of the advance");
    // Scans every second: aborted at 16 s already.
    let fast = run(&parse(&script("cluster transaction.abort.timed.out.transaction.cleanup.interval.ms=1s")).unwrap(), None, true);
    assert!(!fast.passed());
    assert_eq!(fast.failures.iter().map(|f| (f.line, f.got.as_str())).collect::<Vec<_>>(), [(10, "PrepareAbort")]);
    assert_eq!(fast.world.coordinator.get("app").unwrap().last_update_ms, fast.world.start_ms + 16_000);
    assert!(parse("model transactions\ncluster transaction.abort.timed.out.transaction.cleanup.interval.ms=0\n").is_err());
}

/// `run-task NAME` runs one of Kafka's periodic tasks now, by its scheduler name, without moving
/// its schedule: the coordinator's transaction-abort (T1–T2) and transactionalId-expiration (T4),
/// each leader's PeriodicProducerExpirationCheck (X1) and isr-expiration (S3).
#[test]
fn run_task_runs_a_periodic_task_now() {
    // transaction-abort: past its 15 s timeout at 16 s, four seconds before the next scan.
    let r = ask(
        "producer app transactional.id=app transaction.timeout.ms=15s",
        "init app\nbegin app\nsend app orders-0 a\nadvance 16s\nexpect txn app Ongoing\nrun-task transaction-abort\n\
         expect txn app PrepareAbort\nexpect app fenced\nadvance 4s\nexpect txn app PrepareAbort",
    );
    let m = r.world.coordinator.get("app").unwrap();
    assert_eq!(m.last_update_ms - r.world.start_ms, r.steps[3].t, "aborted at the run-task's time, not at a scan");
    assert!(timeline_text(&r).contains("transaction-abort task runs now: 1 transaction(s)"));
    // transactionalId-expiration: idle for 10 s at 11 s; the scans run hourly.
    ask(
        "cluster transactional.id.expiration.ms=10s\nproducer app transactional.id=app",
        "init app\nadvance 11s\nexpect txn app Empty\nrun-task transactionalId-expiration\nexpect txn app none",
    );
    // PeriodicProducerExpirationCheck: the entry is a minute old at 2 min; the checks run every 10 min.
    ask(
        "cluster producer.id.expiration.ms=1m\nproducer-state orders-0 pid=1000 epoch=0 seq=0..0",
        "advance 2m\nexpect producer-state orders-0 pid=1000 epoch=0\nrun-task PeriodicProducerExpirationCheck\nexpect producers orders-0 0",
    )
    .world
    .idem.cluster.partitions[0]
    .producers
    .is_empty()
    .then_some(())
    .expect("the entry is gone");
    // isr-expiration: broker 2 stopped at once; at 12 s it is 12 s behind, the last check (10 s) found it 10 s behind.
    ask(
        "cluster default.replication.factor=2 replica.lag.time.max.ms=10s\nproducer-state orders-0 pid=1000 epoch=0 seq=0..0",
        "lag orders-0 broker=2\nproduce orders-0 pid=1000 epoch=0 seq=1 b as p\nadvance 12s\nexpect isr orders-0 1,2\n\
         run-task isr-expiration\nexpect isr orders-0 1\nexpect p error NONE",
    );
    assert!(parse("model transactions\nrun-task log-flusher\n").unwrap_err().message.contains("unknown task \"log-flusher\""));
}

/// `inject P API lose-request`, for every API the Java client sends: the request never reaches
/// the cluster; after request.timeout.ms the client disconnects, a coordinator request looks its
/// coordinator up again (TxnRequestHandler: wasDisconnected → lookupCoordinator, reenqueue), and
/// the request goes again after retry.backoff.ms, processed once.
#[test]
fn inject_lose_request_the_client_times_out_and_sends_it_again() {
    let text = "model transactions\ntitle t\ncluster transaction.version=1\npartition in-0 out-0\nproducer app transactional.id=pay\n\
                consumer c read_committed group=g in-0\n\
                inject app InitProducerId lose-request\ninit app\nexpect app pid 1000\nexpect app epoch 0\nbegin app\n\
                inject app AddPartitionsToTxn lose-request\nsend app out-0 x\n\
                inject app Produce lose-request\nsend app out-0 y\n\
                inject app AddOffsetsToTxn lose-request\ninject app TxnOffsetCommit lose-request\nsend-offsets app c\n\
                inject app EndTxn lose-request\ncommit app\nexpect txn pay PrepareCommit\ndeliver markers\n\
                expect txn pay CompleteCommit\nexpect offsets g in-0 0\nexpect log out-0 x y [COMMIT]\n";
    let sc = parse(text).unwrap_or_else(|e| panic!("{e:?}"));
    let r = run(&sc, None, true);
    assert!(r.passed(), "{}", timeline_text(&r));
    let t = timeline_text(&r);
    for api in ["InitProducerId", "AddPartitionsToTxn", "Produce", "AddOffsetsToTxn", "TxnOffsetCommit", "EndTxn"] {
        let lost = r.steps.iter().flat_map(|s| &s.messages).filter(|m| m.kind == api && m.lost).count();
        assert_eq!(lost, 1, "{api}: one request lost\n{t}");
        assert!(t.contains(&format!("no answer to its {api} within request.timeout.ms (30000 ms)")), "{api}\n{t}");
    }
    assert!(t.contains("FindCoordinator(TRANSACTION): after the disconnect the coordinator is looked up again"), "{t}");
    assert!(t.contains("FindCoordinator(GROUP): after the disconnect the coordinator is looked up again"), "{t}");
    // Six lost requests, each 30 s and a 100 ms backoff later sent again.
    assert!(r.world.idem.cluster.now_ms - r.world.start_ms >= 6 * 30_100, "{}", r.world.idem.cluster.now_ms - r.world.start_ms);
    // Never processed: one producer id, one write of each record.
    assert_eq!(r.world.coordinator.get("pay").unwrap().producer_id, 1000);
}

/// `txn-state` sets the metadata's timestamps and the coordinator epoch too (set up
/// the state a question needs, "timestamps, coordinator epoch"): a transaction open since before
/// the script times out at the first scan after txnStartTimestamp + timeout (T1); an id idle since
/// before it expires (T4); the markers carry the given coordinator epoch (K2).
#[test]
fn txn_state_sets_timestamps_and_the_coordinator_epoch() {
    let r = ask(
        "txn-state app pid=5000 epoch=3 state=Ongoing partitions=orders-0 timeout=60s txn-start=-55s coordinator-epoch=7",
        "advance 6s\nexpect txn app Ongoing\nadvance 4s\nexpect txn app PrepareAbort\ndeliver markers\nexpect txn app CompleteAbort\nexpect log orders-0 [ABORT]",
    );
    let m = r.world.coordinator.get("app").unwrap();
    assert_eq!(m.txn_start_ms, r.world.start_ms - 55_000);
    assert_eq!(m.producer_epoch, 4, "the abort bumps the epoch (T2)");
    assert_eq!(r.world.coordinator_epoch, 7);
    let t = timeline_text(&r);
    assert!(t.contains("WriteTxnMarkers(ABORT, producer 5000 epoch 4, coordinator epoch 7, orders-0)"), "{t}");
    assert!(r.steps[2].t == 10_000 && t.contains("t+10000ms  advance 4000ms"), "aborted at the 10 s scan\n{t}");
    ask(
        "cluster transactional.id.expiration.ms=1m\ntxn-state app pid=5000 epoch=3 last-update=-2m",
        "expect txn app CompleteCommit\nrun-task transactionalId-expiration\nexpect txn app none",
    );
    let bad = |line: &str| refused(line).message;
    assert!(bad("txn-state app pid=1 epoch=0 txn-start=-5s").contains("Ongoing"));
    assert!(bad("txn-state app pid=1 epoch=0 last-update=soon").contains("a time from the script's start"));
    assert!(bad("txn-state a pid=1 epoch=0 coordinator-epoch=1\ntxn-state b pid=2 epoch=0 coordinator-epoch=2").contains("one coordinator"));
}

/// `inject P AddPartitionsToTxn|AddOffsetsToTxn lose-response` (TV1): the coordinator adds the
/// partition and writes it to `__transaction_state`; the answer is lost; after
/// request.timeout.ms the client disconnects, looks the coordinator up again and sends the same
/// request, which finds the partition added: NONE, nothing written a second time.
#[test]
fn inject_lose_response_on_an_add_the_retry_finds_it_added() {
    let text = "model transactions\ntitle t\ncluster transaction.version=1\npartition in-0 out-0\nproducer app transactional.id=pay\n\
                consumer c read_committed group=g in-0\ninit app\nbegin app\n\
                inject app AddPartitionsToTxn lose-response\nsend app out-0 x\nexpect txn pay Ongoing\n\
                inject app AddOffsetsToTxn lose-response\nsend-offsets app c\n\
                commit app\ndeliver markers\nexpect txn pay CompleteCommit\nexpect offsets g in-0 0\nexpect log out-0 x [COMMIT]\n";
    let r = run(&parse(text).unwrap(), None, true);
    assert!(r.passed(), "{}", timeline_text(&r));
    let t = timeline_text(&r);
    for (api, part) in [("AddPartitionsToTxn", "out-0"), ("AddOffsetsToTxn", "__consumer_offsets")] {
        let msgs: Vec<_> = r.steps.iter().flat_map(|s| &s.messages).collect();
        assert_eq!(msgs.iter().filter(|m| m.kind == api && m.from.as_str() == "producer:app").count(), 2, "{api}: sent twice by the client\n{t}");
        assert_eq!(msgs.iter().filter(|m| m.kind == "response" && m.lost && m.to.as_str() == "producer:app").count(), 2, "two lost answers in all\n{t}");
        let writes = msgs.iter().filter(|m| m.kind == "append" && m.text.starts_with("__transaction_state: Ongoing with") && m.text.contains(part)).count();
        assert_eq!(writes, 1, "{api}: {part} written to __transaction_state once\n{t}");
        assert!(t.contains(&format!("no answer to its {api} within request.timeout.ms")), "{api}\n{t}");
    }
}

/// `inject P InitProducerId lose-response`: the coordinator bumps the epoch and writes it; the
/// answer is lost; the client sends the same InitProducerId again after its timeout, and the
/// coordinator, seeing no producer id in it, bumps a second time (I10): the client ends READY
/// at epoch 1, two Empty records in `__transaction_state`. With the KIP-360 id and epoch in the
/// request (an epoch bump after an abortable error), the retry carries the epoch just replaced
/// and gets the same epoch back, without a second bump.
#[test]
fn inject_lose_response_on_init_producer_id_the_retry_bumps_again() {
    let text = "model transactions\ntitle t\npartition out-0\nproducer app transactional.id=pay\n\
                inject app InitProducerId lose-response\ninit app\nexpect app state READY\nexpect app pid 1000\nexpect app epoch 1\n\
                begin app\nsend app out-0 x\ncommit app\ndeliver markers\nexpect txn pay CompleteCommit\nexpect log out-0 x [COMMIT]\n";
    let r = run(&parse(text).unwrap(), None, true);
    assert!(r.passed(), "{}", timeline_text(&r));
    let t = timeline_text(&r);
    let msgs: Vec<_> = r.steps.iter().flat_map(|s| &s.messages).collect();
    assert_eq!(msgs.iter().filter(|m| m.kind == "InitProducerId").count(), 2, "sent twice\n{t}");
    assert_eq!(msgs.iter().filter(|m| m.kind == "response" && m.lost).count(), 1, "one answer lost\n{t}");
    let empties = msgs.iter().filter(|m| m.kind == "append" && m.text.starts_with("__transaction_state: Empty")).count();
    assert_eq!(empties, 2, "each InitProducerId bumped the epoch and wrote it\n{t}");
    assert!(t.contains("no answer to its InitProducerId within request.timeout.ms"), "{t}");
}

/// `inject P TxnOffsetCommit lose-response`: the group coordinator writes the offsets; the
/// answer is lost; the retry is written again (origin COORDINATOR: no duplicate check), both
/// batches at sequence 0, and the commit materializes the offsets once.
#[test]
fn inject_lose_response_on_txn_offset_commit_writes_the_offsets_twice() {
    let text = "model transactions\ntitle t\npartition in-0 out-0\nproducer app transactional.id=pay\nconsumer c read_committed group=g in-0\n\
                init app\nbegin app\nsend app out-0 x\ninject app TxnOffsetCommit lose-response\nsend-offsets app c\n\
                commit app\ndeliver markers\nexpect txn pay CompleteCommit\nexpect offsets g in-0 0\n";
    let r = run(&parse(text).unwrap(), None, true);
    assert!(r.passed(), "{}", timeline_text(&r));
    let t = timeline_text(&r);
    let msgs: Vec<_> = r.steps.iter().flat_map(|s| &s.messages).collect();
    assert_eq!(msgs.iter().filter(|m| m.kind == "TxnOffsetCommit").count(), 2, "sent twice\n{t}");
    assert_eq!(msgs.iter().filter(|m| m.kind == "response" && m.lost).count(), 1, "{t}");
    let log = &r.world.offsets_logs[&crate::model::txn::World::offsets_partition("g")];
    let seqs: Vec<(i64, i32, bool)> = log.log.iter().map(|e| {
        let b = crate::batch::Batch::new_checked(&e.bytes[..]).unwrap();
        (e.base_offset, b.base_sequence(), b.attributes().is_control())
    }).collect();
    assert_eq!(seqs, [(0, 0, false), (1, 0, false), (2, -1, true)], "two offset batches at sequence 0, then the COMMIT marker");
}

/// `inject P EndTxn lose-response`: the coordinator writes PrepareCommit and the answer is
/// lost; within max.block.ms the request times out, the client looks the coordinator up again
/// and sends the same EndTxn (`TxnRequestHandler`: `wasDisconnected`, `reenqueue`). Its markers
/// not yet written, the retry is answered CONCURRENT_TRANSACTIONS (F7) and retried once they
/// are: NONE, a retry of the commit that completed (F5). commitTransaction() does not throw, unlike
/// `commit P lose-response`, where no answer comes back within max.block.ms.
#[test]
fn inject_lose_response_on_end_txn_the_client_sends_it_again() {
    let text = "model transactions\ntitle t\npartition out-0\nproducer app transactional.id=pay\ninit app\nbegin app\nsend app out-0 x\n\
                inject app EndTxn lose-response\ncommit app\ndeliver markers\n\
                expect txn pay CompleteCommit\nexpect app state READY\nexpect app epoch 1\nexpect app outcome known\nexpect log out-0 x [COMMIT]\n";
    let r = run(&parse(text).unwrap(), None, true);
    assert!(r.passed(), "{}", timeline_text(&r));
    let t = timeline_text(&r);
    let rules: Vec<(bool, &str)> = r.steps.iter().flat_map(|s| &s.messages).filter(|m| m.kind == "response" && m.text.starts_with("EndTxn response")).map(|m| (m.lost, m.rule.unwrap_or(""))).collect();
    assert_eq!(rules, [(true, "F4"), (false, "F7"), (false, "F5")], "{t}");
    assert!(!t.contains("throws"), "commitTransaction() does not throw\n{t}");
    let prepares = r.steps.iter().flat_map(|s| &s.messages).filter(|m| m.kind == "append" && m.text.starts_with("__transaction_state: PrepareCommit")).count();
    assert_eq!(prepares, 1, "decided once\n{t}");
}

/// `inject P EndTxn hold` past request.timeout.ms: the client times its EndTxn out, looks the
/// coordinator up again and sends it again, and the commit goes on; the held copy, released
/// later, reaches the coordinator as a retry of the completed commit (F5: NONE, nothing
/// written), its answer read by no one. One COMMIT marker.
#[test]
fn a_held_end_txn_times_out_the_client_sends_it_again_and_the_late_copy_changes_nothing() {
    let text = "model transactions\ntitle t\npartition out-0\nproducer app transactional.id=pay\ninit app\nbegin app\nsend app out-0 x\n\
                inject app EndTxn hold\ncommit app\nexpect app state COMMITTING_TRANSACTION\nadvance 29s\nexpect txn pay Ongoing\n\
                advance 2s\nexpect txn pay PrepareCommit\ndeliver markers\nexpect txn pay CompleteCommit\nexpect app state READY\n\
                release app EndTxn\nexpect txn pay CompleteCommit\nexpect log out-0 x [COMMIT]\nexpect app state READY\n";
    let r = run(&parse(text).unwrap(), None, true);
    assert!(r.passed(), "{}", timeline_text(&r));
    let t = timeline_text(&r);
    let ends: Vec<(&str, bool)> = r.steps.iter().flat_map(|s| &s.messages).filter(|m| m.kind == "response" && m.text.starts_with("EndTxn response")).map(|m| (m.rule.unwrap_or(""), m.lost)).collect();
    assert_eq!(ends, [("F4", false), ("F5", true)], "the retry prepares the commit; the late copy is a retry of it, unread\n{t}");
    assert!(t.contains("no answer to its EndTxn within request.timeout.ms"), "{t}");
    // Parse errors name what can be held and released.
    let bad = |line: &str| parse(&format!("model transactions\ntitle t\npartition p\nproducer app transactional.id=pay\n{line}\n")).unwrap_err().message;
    assert!(bad("inject app Fetch hold").contains("Fetch is not one of InitProducerId"));
    assert!(bad("release app Fetch").contains("InitProducerId, AddPartitionsToTxn, AddOffsetsToTxn, TxnOffsetCommit, EndTxn, Produce are held; not Fetch"));
    // A producer that crashed while its commit was held: the commit still arrives and the
    // coordinator commits (its answer read by no one), as a request already on the wire would.
    let text = "model transactions\ntitle t\npartition out-0\nproducer app transactional.id=pay\ninit app\nbegin app\nsend app out-0 x\n\
                inject app EndTxn hold\ncommit app\ncrash app\nrelease app EndTxn\ndeliver markers\nexpect txn pay CompleteCommit\nexpect log out-0 x [COMMIT]\n";
    let r = run(&parse(text).unwrap(), None, true);
    assert!(r.passed(), "{}", timeline_text(&r));
    assert!(timeline_text(&r).contains("after the client crashed"));
    // Releasing what is not held is a step that cannot be carried out.
    let r = run(&parse("model transactions\ntitle t\npartition p\nproducer app transactional.id=pay\ninit app\nrelease app EndTxn\n").unwrap(), None, true);
    assert!(r.error.as_ref().is_some_and(|e| e.message.contains("no EndTxn request held")), "{:?}", r.error);
}

/// A script that must pass (every `expect` holds); its run, for further asserts.
fn passes(text: &str) -> TxnRun {
    let r = run(&parse(text).unwrap_or_else(|e| panic!("{e:?}")), None, true);
    assert!(r.passed(), "{:?}\n{}", r.error, timeline_text(&r));
    r
}

/// `inject P AddPartitionsToTxn hold` (TV1): `send()` does not block, its batch waits in the
/// accumulator until the partition is added (`isSendToPartitionAllowed`), a second batch
/// waits behind it, and `commitTransaction()` waits for them (flush). Released while the
/// client still waits, the add is answered to it, both batches go, and the commit follows.
#[test]
fn a_held_add_partitions_holds_the_batches_and_the_commit_until_it_is_released() {
    let r = passes(
        "model transactions\ntitle t\ncluster transaction.version=1\npartition out-0 out-1\nproducer app transactional.id=pay\ninit app\nbegin app\n\
         inject app AddPartitionsToTxn hold\nsend app out-0 x\nsend app out-1 y\nexpect app state IN_TRANSACTION\nexpect txn pay Empty\ncommit app\n\
         expect app state COMMITTING_TRANSACTION\nexpect leo out-0 0\nrelease app AddPartitionsToTxn\nexpect txn pay PrepareCommit\nexpect app state READY\n\
         deliver markers\nexpect log out-0 x [COMMIT]\nexpect log out-1 y [COMMIT]\n",
    );
    let adds: Vec<&str> = r.steps.iter().flat_map(|s| &s.messages).filter(|m| m.kind == "AddPartitionsToTxn" && m.from.as_str() == "producer:app").map(|m| m.text.as_str()).collect();
    assert_eq!(adds.len(), 3, "the held add, delivered, then out-1's: {adds:?}");
    assert!(adds[0].ends_with("held in the network: it has not arrived") && adds[1].ends_with("(held, delivered now)"), "{adds:?}");
}

/// A held add and `abortTransaction()`: the batches are dropped, but the add is on its way and
/// the requests go one at a time, so the abort waits for its answer; the coordinator then has
/// the partition, and the abort sends its EndTxn (an ABORT marker to the partition).
#[test]
fn an_abort_waits_for_a_held_add_and_then_needs_its_end_txn() {
    passes(
        "model transactions\ntitle t\ncluster transaction.version=1\npartition out-0\nproducer app transactional.id=pay\ninit app\nbegin app\n\
         inject app AddPartitionsToTxn hold\nsend app out-0 x\nabort app\nexpect app state ABORTING_TRANSACTION\nrelease app AddPartitionsToTxn\n\
         expect txn pay PrepareAbort\ndeliver markers\nexpect app state READY\nexpect log out-0 [ABORT]\n",
    );
}

/// `inject P AddOffsetsToTxn hold` (TV1): `sendOffsetsToTransaction()` blocks, so the
/// application cannot make another call until the answer comes (a script error naming the
/// way out); released, the add is answered and the TxnOffsetCommit follows.
#[test]
fn a_held_add_offsets_blocks_send_offsets_until_it_is_released() {
    let head = "model transactions\ntitle t\ncluster transaction.version=1\npartition in-0 out-0\nproducer app transactional.id=pay\n\
                consumer c read_committed group=g in-0\ninit app\nbegin app\nsend app out-0 x\ninject app AddOffsetsToTxn hold\nsend-offsets app c\n";
    passes(&format!("{head}expect txn pay Ongoing\nrelease app AddOffsetsToTxn\ncommit app\ndeliver markers\nexpect txn pay CompleteCommit\nexpect app state READY\n"));
    let r = run(&parse(&format!("{head}commit app\n")).unwrap(), None, true);
    let e = r.error.expect("a call while blocked is refused");
    assert!(e.message.contains("still blocked in sendOffsetsToTransaction()") && e.message.contains("release app AddOffsetsToTxn"), "{}", e.message);
    // Past request.timeout.ms the client sends it again, and the call completes.
    passes(&format!("{head}advance 31s\ncommit app\ndeliver markers\nexpect txn pay CompleteCommit\n"));
}

/// `inject P InitProducerId hold`, released while `initTransactions()` still waits: answered
/// to it, one epoch (no second bump); timed out instead, the retry is answered and the late
/// copy bumps the epoch, fencing its own producer (txn-late-init-producer-id).
#[test]
fn a_held_init_producer_id_released_in_time_is_the_calls_answer() {
    passes(
        "model transactions\ntitle t\npartition out-0\nproducer app transactional.id=pay\ninject app InitProducerId hold\ninit app\nexpect app state INITIALIZING\n\
         release app InitProducerId\nexpect app state READY\nexpect app epoch 0\nbegin app\nsend app out-0 x\ncommit app\ndeliver markers\nexpect log out-0 x [COMMIT]\n",
    );
}

/// `inject P Produce hold`: `send()` returns (the batch has its sequence); a commit or an abort
/// waits, since EndTxn goes only once no batch is in flight (under TV2 the coordinator has not
/// heard of the transaction yet: the leader adds the partition). Released while the client waits,
/// the batch is written and acknowledged and the waiting call goes on: the commit, or the abort
/// (which then aborts the batch).
#[test]
fn a_held_produce_holds_the_commit_or_abort_until_it_is_answered() {
    let head = "model transactions\ntitle t\npartition out-0\nproducer app transactional.id=pay\ninit app\nbegin app\ninject app Produce hold\nsend app out-0 x\nexpect leo out-0 0\n";
    passes(&format!("{head}commit app\nexpect app state COMMITTING_TRANSACTION\nexpect txn pay Empty\nrelease app Produce\nexpect txn pay PrepareCommit\nexpect app state READY\ndeliver markers\nexpect log out-0 x [COMMIT]\n"));
    passes(&format!("{head}abort app\nexpect app state ABORTING_TRANSACTION\nrelease app Produce\nexpect txn pay PrepareAbort\ndeliver markers\nexpect app state READY\nexpect log out-0 x [ABORT]\n"));
    // Timed out, the batch goes again with its sequence and the commit follows; the late copy,
    // released right after the commit, is refused: TV2 bumped the epoch (V2).
    let r = passes(&format!("{head}commit app\nadvance 31s\nexpect txn pay PrepareCommit\ndeliver markers\nrelease app Produce\nexpect log out-0 x [COMMIT]\n"));
    let late = r.steps.iter().flat_map(|s| &s.messages).filter(|m| m.kind == "response" && m.lost).map(|m| (m.rule.unwrap_or(""), m.error)).collect::<Vec<_>>();
    assert_eq!(late.len(), 1, "{}", timeline_text(&r));
    assert_eq!(late[0], ("V2", Some(crate::model::errors::ErrorCode::INVALID_PRODUCER_EPOCH)), "{}", timeline_text(&r));
}

/// A held Produce released while the previous transaction is still completing (its markers not
/// yet written) is answered CONCURRENT_TRANSACTIONS by the TV2 leader's implicit add (V6): a
/// retriable error, so the `Sender` re-enqueues the batch with its sequence and the waiting
/// commit waits on; once the markers are written the batch goes again, as it was, and the
/// commit follows. (Before, the answer was taken as an abortable error.)
#[test]
fn a_held_produce_answered_concurrent_transactions_is_sent_again_with_its_sequence() {
    let script = "model transactions\ntitle t\npartition out-0\nproducer app transactional.id=pay\ninit app\nbegin app\nsend app out-0 x\ncommit app\n\
                  begin app\ninject app Produce hold\nsend app out-0 y\ncommit app\nrelease app Produce\nexpect app state COMMITTING_TRANSACTION\nexpect leo out-0 1\n\
                  deliver markers\nexpect txn pay PrepareCommit\ndeliver markers\nexpect app state READY\nexpect log out-0 x [COMMIT] y [COMMIT]\nexpect app epoch 2\n";
    let r = passes(script);
    let text = timeline_text(&r);
    let release = r.steps.iter().find(|s| s.text.starts_with("release")).expect("the release step");
    let answer = release.messages.iter().find(|m| m.kind == "response" && m.text.starts_with("Produce response")).expect("the Produce's answer");
    assert_eq!(answer.error, Some(crate::model::errors::ErrorCode::CONCURRENT_TRANSACTIONS), "{text}");
    let again: Vec<&str> = r.steps.iter().flat_map(|s| &s.messages).filter(|m| m.text.contains("(sent again)")).map(|m| m.text.as_str()).collect();
    assert_eq!(again.len(), 1, "{text}");
    assert!(again[0].contains("epoch 1, sequences 0..0"), "{text}");
}

/// `inject P TxnOffsetCommit hold`: `sendOffsetsToTransaction()` blocks (another call of the
/// producer is a script error); released while it waits, the offsets are written and the call
/// returns; under TV2 a copy released after the commit is refused for its epoch (G3) and
/// leaves the next transaction's offsets alone (txn-late-offset-commit-tv2).
#[test]
fn a_held_txn_offset_commit_blocks_send_offsets_until_it_is_answered() {
    let head = "model transactions\ntitle t\npartition in-0 out-0\nproducer app transactional.id=pay\nconsumer c read_committed group=g in-0\n\
                init app\nbegin app\nsend app out-0 x\ninject app TxnOffsetCommit hold\nsend-offsets app c\n";
    passes(&format!("{head}release app TxnOffsetCommit\ncommit app\ndeliver markers\nexpect txn pay CompleteCommit\nexpect offsets g in-0 0\n"));
    let r = run(&parse(&format!("{head}commit app\n")).unwrap(), None, true);
    assert!(r.error.is_some_and(|e| e.message.contains("still blocked in sendOffsetsToTransaction() waiting for its TxnOffsetCommit answer")));
}

/// A held coordinator request delivered after a failover reaches the broker that led
/// `__transaction_state` when it was sent: NOT_COORDINATOR (C0b), unprocessed; the waiting
/// client looks the coordinator up again and sends it there. A late copy the client had timed
/// out changes nothing.
#[test]
fn a_held_request_released_after_a_failover_is_answered_not_coordinator_and_sent_again() {
    let head = "model transactions\ntitle t\npartition out-0\nproducer app transactional.id=pay\ninit app\nbegin app\nsend app out-0 x\ninject app EndTxn hold\ncommit app\nfailover\n";
    let r = passes(&format!("{head}release app EndTxn\nexpect txn pay PrepareCommit\ndeliver markers\nexpect app state READY\nexpect log out-0 x [COMMIT]\n"));
    let answers: Vec<(&str, bool)> = r.steps.iter().flat_map(|s| &s.messages).filter(|m| m.kind == "response" && m.text.starts_with("EndTxn response")).map(|m| (m.rule.unwrap_or(""), m.lost)).collect();
    assert_eq!(answers, [("C0b", false), ("F4", false)], "{}", timeline_text(&r));
    let r = passes(&format!("{head}advance 31s\nexpect txn pay PrepareCommit\ndeliver markers\nrelease app EndTxn\nexpect txn pay CompleteCommit\nexpect log out-0 x [COMMIT]\n"));
    let release = r.steps.iter().find(|s| s.text.starts_with("release")).expect("the release step");
    let last = release.messages.iter().rev().find(|m| m.kind == "response").expect("the late copy's answer");
    assert!(last.lost && last.rule == Some("C0b"), "{}", timeline_text(&r));
}

/// `expect` reads every piece of state the panels show: the coordinator's metadata
/// (`txn-state`, in the set-up line's spelling plus pending, prev-pid, next-pid, tv), a group
/// (`group`: generation, members, committed, pending), a client's next sequence, the leader's
/// coordinator epoch for a producer, and an aborted-index entry's pid and lastStableOffset.
/// A wrong value fails and names the whole state.
#[test]
fn expect_reads_the_coordinator_metadata_the_group_and_the_clients_sequences() {
    let head = "model transactions\ntitle t\npartition in-0 out-0\nproducer app transactional.id=pay\nconsumer c read_committed group=g in-0\n\
                init app\nbegin app\nsend app out-0 x y\nexpect app sequence out-0 2\nexpect app sequence in-0 0\n\
                expect txn-state pay pid=1000 epoch=0 state=Ongoing pending=none partitions=out-0 timeout=60s last-epoch=-1 prev-pid=-1 next-pid=-1 tv=2 coordinator-epoch=0\n\
                send-offsets app c\nexpect group g generation=1 members=c pending=in-0=0 committed=none\n\
                expect txn-state pay partitions=out-0,__consumer_offsets-3\n\
                abort app\nexpect txn-state pay state=PrepareAbort pending=CompleteAbort epoch=1 last-epoch=0\ndeliver markers\n\
                expect group g pending=none\nexpect aborted out-0 0..2 pid=1000 lso=3\nexpect producer-state out-0 pid=1000 epoch=1 coordinator-epoch=0\n\
                expect txn-state pay state=CompleteAbort pending=none partitions=none\n";
    passes(head);
    for (bad, got) in [
        ("expect txn-state pay epoch=7\n", "pid=1000 epoch=1 state=CompleteAbort"),
        ("expect txn-state nobody epoch=0\n", "no metadata"),
        ("expect txn-state pay colour=red\n", "no colour here"),
        ("expect group g generation=2\n", "generation=1 members=c"),
        ("expect app sequence out-0 5\n", "0"),
        ("expect aborted out-0 0..2 pid=1001\n", "0..2 pid=1000 lso=3"),
        ("expect producer-state out-0 pid=1000 coordinator-epoch=1\n", "coordinator-epoch=0"),
    ] {
        let r = run(&parse(&format!("{head}{bad}")).unwrap(), None, true);
        assert_eq!(r.failures.len(), 1, "{bad}");
        assert!(r.failures[0].got.contains(got), "{bad}: {}", r.failures[0].got);
    }
}

/// An injected answer the client does not retry is read by the call that sent the request, as
/// the cluster's own answer would be; the cluster processed nothing.
#[test]
fn an_injected_answer_the_client_does_not_retry_is_read_by_the_call() {
    let head = "model transactions\ntitle t\ncluster transaction.version=1\npartition in-0 out-0\nproducer app transactional.id=pay\nconsumer c read_committed group=g in-0\n";
    let run_text = |body: &str| {
        let r = run(&parse(&format!("{head}{body}")).unwrap_or_else(|e| panic!("{e:?}")), None, true);
        assert!(r.passed(), "{}", timeline_text(&r));
        r
    };
    // EndTxn PRODUCER_FENCED: commitTransaction() throws it, the producer is fatal, and the
    // coordinator, which never saw the request, still has the transaction open.
    run_text("init app\nbegin app\nsend app out-0 x\ninject app EndTxn PRODUCER_FENCED\ncommit app\n\
              expect app threw ProducerFencedException\nexpect app state FATAL_ERROR\nexpect txn pay Ongoing\n");
    // A Produce answered OUT_OF_ORDER_SEQUENCE_NUMBER: the batch fails unwritten, the
    // transaction is abortable; the abort goes through.
    run_text("init app\nbegin app\ninject app Produce OUT_OF_ORDER_SEQUENCE_NUMBER\nsend app out-0 x\nexpect app state ABORTABLE_ERROR\n\
              expect leo out-0 0\nabort app\ndeliver markers\nexpect app state READY\n");
    // AddPartitionsToTxn TRANSACTIONAL_ID_AUTHORIZATION_FAILED (TV1): fatal.
    run_text("init app\nbegin app\ninject app AddPartitionsToTxn TRANSACTIONAL_ID_AUTHORIZATION_FAILED\nsend app out-0 x\nexpect app state FATAL_ERROR\nexpect leo out-0 0\n");
    // TxnOffsetCommit ILLEGAL_GENERATION: sendOffsetsToTransaction() throws CommitFailedException.
    run_text("init app\nbegin app\nsend app out-0 x\ninject app TxnOffsetCommit ILLEGAL_GENERATION\nsend-offsets app c\n\
              expect app threw CommitFailedException\nexpect app state ABORTABLE_ERROR\nexpect group g pending=none\n");
    // InitProducerId TRANSACTIONAL_ID_AUTHORIZATION_FAILED: initTransactions() fails, nothing is
    // written for the id.
    let r = run_text("inject app InitProducerId TRANSACTIONAL_ID_AUTHORIZATION_FAILED\ninit app\nexpect app state FATAL_ERROR\nexpect txn pay none\n");
    let answers: Vec<(&str, Option<crate::model::errors::ErrorCode>)> = r.steps.iter().flat_map(|s| &s.messages).filter(|m| m.kind == "response").map(|m| (m.rule.unwrap_or(""), m.error)).collect();
    assert_eq!(answers, [("N2", Some(crate::model::errors::ErrorCode::TRANSACTIONAL_ID_AUTHORIZATION_FAILED))], "{}", timeline_text(&r));
}
