//! Every Kafka error code that a broker or a coordinator answers in the model
//! is produced by a shipped scenario. The codes the model does not answer are listed with the reason.

use std::collections::BTreeSet;
use std::path::PathBuf;

use eoslab_core::model::idempotence::{EventKind, ReplicationEvent};
use eoslab_core::model::{scenario, txn_scenario};

/// (code, name) that brokers and coordinators answer, and that the model answers.
const ANSWERED: &[(i16, &str)] = &[
    (1, "OFFSET_OUT_OF_RANGE"),
    (2, "CORRUPT_MESSAGE"),
    (6, "NOT_LEADER_OR_FOLLOWER"),
    (7, "REQUEST_TIMED_OUT"),
    (16, "NOT_COORDINATOR"),
    (19, "NOT_ENOUGH_REPLICAS"),
    (22, "ILLEGAL_GENERATION"),
    (25, "UNKNOWN_MEMBER_ID"),
    (42, "INVALID_REQUEST"),
    (45, "OUT_OF_ORDER_SEQUENCE_NUMBER"),
    (47, "INVALID_PRODUCER_EPOCH"),
    (48, "INVALID_TXN_STATE"),
    (49, "INVALID_PRODUCER_ID_MAPPING"),
    (50, "INVALID_TRANSACTION_TIMEOUT"),
    (51, "CONCURRENT_TRANSACTIONS"),
    (52, "TRANSACTION_COORDINATOR_FENCED"),
    (53, "TRANSACTIONAL_ID_AUTHORIZATION_FAILED"),
    (82, "FENCED_INSTANCE_ID"),
    (87, "INVALID_RECORD"),
    (88, "UNSTABLE_OFFSET_COMMIT"),
    (90, "PRODUCER_FENCED"),
    (120, "TRANSACTION_ABORTABLE"),
];

// Not answered by the model, and why:
// 3 UNKNOWN_TOPIC_OR_PARTITION — a script naming an unknown partition is a script error.
// 13 NETWORK_EXCEPTION — a client's own verdict on a broken connection, not an answer.
// 14 / 15 — coordinator loading or not available: answered only when injected on a client's
//   request (`inject`), which the client retries; the model's failover is instant. (16 is the
//   answer of a broker that no longer leads `__transaction_state` to a request held across a
//   failover, C0b: txn-held-across-failover.)
// 35 UNSUPPORTED_VERSION — keepPreparedTxn (I13) is declared OUTSIDE_MODEL.
// 46 DUPLICATE_SEQUENCE_NUMBER — no 4.x broker answers it (a duplicate is NONE, A1).
// 59 UNKNOWN_PRODUCER_ID — pre-2.x brokers only.
// 105 TRANSACTIONAL_ID_NOT_FOUND — DescribeTransactions is not modelled.

fn scenarios() -> Vec<(String, String)> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../scenarios");
    let mut v: Vec<(String, String)> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "eos"))
        .map(|p| (p.file_name().unwrap().to_string_lossy().into_owned(), std::fs::read_to_string(&p).unwrap()))
        .collect();
    v.sort();
    v
}

#[test]
fn every_error_code_the_broker_or_coordinator_answers_is_produced_by_a_shipped_scenario() {
    let mut seen: BTreeSet<i16> = BTreeSet::new();
    for (name, text) in scenarios() {
        if txn_scenario::is_transactions(&text) {
            let sc = txn_scenario::parse(&text).unwrap_or_else(|e| panic!("{name}: {e}"));
            let r = txn_scenario::run(&sc, None, true);
            for st in &r.steps {
                // An injected answer (N2) is the script's, not the model's decision.
                seen.extend(st.messages.iter().filter(|m| m.rule != Some("N2")).filter_map(|m| m.error.map(|e| e.0)));
                if let Some(reply) = &st.reply {
                    seen.insert(reply.error_code);
                    seen.extend(reply.partitions.iter().filter_map(|(_, e, _)| eoslab_core::model::errors::ErrorCode::from_name(e).map(|c| c.0)));
                }
            }
        } else {
            let sc = scenario::parse(&text).unwrap_or_else(|e| panic!("{name}: {e}"));
            let r = scenario::run(&sc);
            for e in &r.sim.trace {
                match &e.kind {
                    EventKind::Decision(v) => {
                        seen.insert(v.error().0);
                    }
                    EventKind::MarkerDecision(m) => {
                        seen.insert(m.error().0);
                    }
                    EventKind::Replication(r) => {
                        if let ReplicationEvent::Released { code, .. } = &**r {
                            seen.insert(code.0);
                        }
                    }
                    _ => {}
                }
            }
        }
    }
    let missing: Vec<String> = ANSWERED.iter().filter(|(c, _)| !seen.contains(c)).map(|(c, n)| format!("{n}({c})")).collect();
    assert!(missing.is_empty(), "no shipped scenario produces {}", missing.join(", "));
}
