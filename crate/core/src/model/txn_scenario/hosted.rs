//! The transactions scripts' steps for a producer without a transactional.id: the idempotence
//! scripts' own steps and expects, run by their runner on the model the world hosts
//! ([`super::txn::idempotent`]).

use alloc::string::String;
use alloc::vec::Vec;

use super::txn::World;
use crate::model::idempotence::{ProducerConfig, Sim};
use crate::model::scenario::{self, Step};

/// One step of the idempotence scripts for the hosted producers; an `expect`'s failure as
/// (expected, got).
pub(super) fn step(w: &mut World, s: &Step) -> Result<Option<(String, String)>, String> {
    let advance = match s {
        Step::Timeout { producer, .. } => w.idem.producers.iter().find(|p| p.name == *producer).map_or(0, |p| p.config.request_timeout_ms),
        _ => 0,
    };
    let mut out = scenario::Run { scenario: scenario::Scenario::default(), sim: Sim::new(0, 0), steps: Vec::new(), failures: Vec::new(), error: None, initial: None, cluster: None };
    let mut budget = 1_000_000usize;
    // The script's runner with the world's model lent to it; its coordinators never start (a
    // transactions script's request lines are the world's own).
    let mut rn = scenario::Runner::new(&out.scenario, Sim::new(0, 0));
    w.on_hosted(advance, |sim| rn.lent(sim, |rn| scenario::exec(rn, s, &mut out, &mut budget, true))).map_err(|e| e.message)?;
    if matches!(s, Step::LeaderChange { .. }) {
        // The world's own answers held for the old leader go out as NOT_LEADER_OR_FOLLOWER.
        w.release_held();
    }
    Ok(out.failures.pop().map(|f| (f.expected, f.got)))
}

/// Deliver everything in the hosted producers' network until it is quiet (`flush`).
pub(super) fn flush(w: &mut World) -> Result<(), String> {
    if w.idem.wire.is_empty() {
        return Ok(());
    }
    step(w, &Step::Flush { line: 0 }).map(|_| ())
}

/// The lines the hosted producers could take next (their sends to the world's partitions, and
/// what their network can deliver, lose, hold up or refuse), for the step buttons.
pub(super) fn next_lines(w: &World) -> Vec<(String, String)> {
    if w.idem.producers.is_empty() {
        return Vec::new();
    }
    let names: Vec<&str> = w.idem.cluster.partitions.iter().map(|p| p.name.as_str()).collect();
    scenario::client_next_lines(&w.idem, &names)
}

/// A `producer` line's settings for a hosted producer, as the idempotence scripts read them.
pub(super) fn config(settings: &[(String, String)]) -> Result<ProducerConfig, String> {
    scenario::producer_config(&scenario::ProducerDecl { name: String::new(), settings: settings.to_vec() })
        .map_err(|m| alloc::format!("{m} (a producer without transactional.id takes the idempotence scripts' settings: idempotence, max.in.flight, retries, delivery.timeout.ms, request.timeout.ms)"))
}
