//! Randomized schedules for the transactions model: two producers (sharing a
//! transactional.id, so one fences the other, or with their own ids) × two partitions, a
//! read_committed consumer in a group and a read_uncommitted one. Each schedule picks, at
//! every step, one of the actions the model says are enabled now (`next_lines`, the same
//! list that drives the step buttons): sends, commits, lost commit responses, aborts,
//! crashes, delayed and delivered markers, coordinator failovers, timeouts, polls,
//! rebalances, offset commits; in one schedule in three also a producer without a
//! transactional.id (its sends and its network's faults), whose acknowledged batches must each be
//! in the log exactly once. After every step every invariant must hold. A failing
//! schedule is shrunk (greedy line deletion) to a minimal script, printed in the scenario
//! format so it can be pasted into `scenarios/`.
//!
//! The count is `EOSLAB_SCHEDULES` (default 100_000; `make test` runs this file in release
//! mode). The generator is a fixed-seed xorshift: runs are reproducible.
//!
//! The same holds for walks of raw requests (`TxnRequestWalk`: the generator of
//! `eoslab schedule --transactions --requests`, whose scripts `make test` also replays against
//! Kafka): InitProducerId, AddPartitionsToTxn, Produce, EndTxn, markers, AddOffsetsToTxn,
//! TxnOffsetCommit, OffsetFetch, Fetch and ListOffsets with right, stale, future and skipped
//! fields, 100,000 walks (`EOSLAB_REQUEST_SCHEDULES`) of 30 requests.

use eoslab_core::model::txn::{Sabotage, World};
use eoslab_core::model::txn_scenario::{apply_line, next_lines, parse, run, setup};

use eoslab_core::model::schedule::{TxnRequestWalk, XorShift as Rng};

/// The first invariant the world breaks. Two invariants are about a transaction's single
/// outcome, which Kafka itself does not guarantee to a run of raw requests that either
/// - writes an admin's ABORT marker (K7, `marker … abort` from outside the coordinator): it may
///   abort one partition of a transaction the coordinator then commits; or
/// - runs with `transaction.partition.verification.enable=false` (V1): a batch at an epoch or in
///   a transaction the coordinator does not know is appended all the same (the hanging
///   transaction of KIP-890), and its fate is not the coordinator's transaction's.
///
/// Such a run is `exempt` from those two; every other invariant still holds.
/// Whether a request run is exempt (see [`broken`]): its head disables partition verification,
/// or one of its lines is an admin's marker.
fn exempt(head: &str, lines: &[String]) -> bool {
    head.contains("transaction.partition.verification.enable=false") || lines.iter().any(|l| l.starts_with("marker "))
}

fn broken(w: &World, exempt: bool) -> Option<String> {
    w.invariants()
        .into_iter()
        .find(|i| !i.1 && !(exempt && matches!(i.0, "same-outcome-everywhere" | "offsets-iff-outputs")))
        .map(|b| format!("{}: {}", b.0, b.2))
}

fn header(shared_id: bool, tv: u8, hosted: Option<&str>) -> String {
    format!(
        "model transactions\ncluster transaction.version={tv}\npartition p-0 p-1\nproducer a transactional.id=t1 transaction.timeout.ms=90s\nproducer b transactional.id={} transaction.timeout.ms=90s\n{}consumer rc read_committed group=g p-0 p-1\nconsumer ru read_uncommitted p-0 p-1\n",
        if shared_id { "t1" } else { "t2" },
        hosted.map_or(String::new(), |settings| format!("producer app{settings}\n"))
    )
}

/// The idempotence property for a producer without a transactional.id hosted in the world
/// (both kinds of writers in one world): every batch the idempotent producer had
/// acknowledged is in its partition's log exactly once, at the acknowledged offsets, with its
/// records. (The schedules' clock stays far below producer.id.expiration.ms, so no retry meets
/// expired state; there is one replica, so nothing is truncated.)
fn hosted_broken(w: &World) -> Option<String> {
    hosted_broken_of(w, false)
}

/// [`hosted_broken`], also asked of producers without idempotence when `all` (to show it can fail).
fn hosted_broken_of(w: &World, all: bool) -> Option<String> {
    use eoslab_core::model::idempotence::BatchState;
    use std::collections::HashMap;
    // One pass over each log and over the record list (linear per step, not per batch): the data
    // batches by (partition, pid, epoch, base sequence) with how often and where they were written,
    // and the records by (partition, offsets).
    let mut written: HashMap<(usize, i64, i16, i32), (usize, i64)> = HashMap::new();
    for (q, p) in w.idem.cluster.partitions.iter().enumerate() {
        for e in &p.log {
            let v = eoslab_core::batch::Batch::new_unchecked(&e.bytes[..]);
            if !v.attributes().is_control() {
                let slot = written.entry((q, v.producer_id(), v.producer_epoch(), v.base_sequence())).or_insert((0, e.base_offset));
                slot.0 += 1;
            }
        }
    }
    let mut records: HashMap<(&str, i64, i64), usize> = HashMap::new();
    for r in &w.records {
        *records.entry((r.partition.as_str(), r.offset, r.last_offset)).or_default() += 1;
    }
    for b in &w.idem.batches {
        let BatchState::Acked { base_offset, last_offset, .. } = b.state else { continue };
        if !all && !w.idem.producers[b.producer].config.idempotence {
            continue;
        }
        let p = &w.idem.cluster.partitions[b.partition];
        let (times, at) = written.get(&(b.partition, b.producer_id, b.producer_epoch, b.base_sequence)).copied().unwrap_or((0, -1));
        if times != 1 || at != base_offset || records.get(&(p.name.as_str(), base_offset, last_offset)).copied().unwrap_or(0) != 1 {
            return Some(format!("b{} acked at {base_offset}..{last_offset} is in {} {times} time(s)", b.id, p.name));
        }
    }
    None
}

/// Run a schedule step by step; the first broken invariant, with the step index.
fn first_violation(head: &str, lines: &[String], sabotage: Option<Sabotage>) -> Option<(usize, String)> {
    let sc = parse(head).expect("header parses");
    let mut w: World = setup(&sc, sabotage);
    w.trace = false;
    for (k, l) in lines.iter().enumerate() {
        if apply_line(&mut w, l).is_err() {
            return None; // a line no longer applicable after shrinking: not a witness
        }
        if let Some(b) = broken(&w, exempt(head, &lines[..=k])) {
            return Some((k, b));
        }
    }
    None
}

fn generate(rng: &mut Rng, depth: usize, sabotage: Option<Sabotage>) -> (String, Vec<String>, Option<(usize, String)>) {
    // One schedule in three also has a producer without a transactional.id, idempotent
    // with one or five requests in flight, or not idempotent at all (its retries may duplicate:
    // the invariants still hold, the idempotence property is not asked of it).
    let hosted = match rng.below(9) {
        0 => Some(""),
        1 => Some(" max.in.flight=1"),
        2 => Some(" idempotence=false"),
        _ => None,
    };
    let head = header(rng.below(2) == 0, if rng.below(3) == 0 { 1 } else { 2 }, hosted);
    let sc = parse(&head).unwrap();
    let mut w = setup(&sc, sabotage);
    w.trace = false; // decisions and invariants only: the text is not what is checked here
    let mut lines = Vec::new();
    for _ in 0..depth {
        let options = next_lines(&w);
        if options.is_empty() {
            break;
        }
        let line = options[rng.below(options.len())].1.clone();
        apply_line(&mut w, &line).unwrap_or_else(|e| panic!("an enabled action must apply: {line}: {e}\n{head}{}", lines.join("\n")));
        lines.push(line);
        if let Some(b) = w.invariants().into_iter().find(|i| !i.1) {
            let k = lines.len() - 1;
            return (head, lines, Some((k, format!("{}: {}", b.0, b.2))));
        }
        if let Some(why) = hosted_broken(&w) {
            let k = lines.len() - 1;
            return (head, lines, Some((k, format!("idempotence (hosted producer): {why}"))));
        }
    }
    (head, lines, None)
}

fn shrink(head: &str, mut lines: Vec<String>, sabotage: Option<Sabotage>) -> Vec<String> {
    if let Some((k, _)) = first_violation(head, &lines, sabotage) {
        lines.truncate(k + 1);
    }
    let mut i = 0;
    while i < lines.len() {
        let mut cand = lines.clone();
        cand.remove(i);
        if first_violation(head, &cand, sabotage).is_some() {
            lines = cand;
        } else {
            i += 1;
        }
    }
    lines
}

/// The idempotence property of the hosted producer can fail: a lost answer's retry duplicates
/// the batch of a producer without idempotence, and the check says so; the same lines with an
/// idempotent producer keep the batch once (the retry is a duplicate, answered with the first
/// offsets).
#[test]
fn the_hosted_idempotence_property_catches_a_duplicated_retry() {
    let lines = ["send app p x", "deliver request b1", "lose response b1", "timeout app", "deliver request b1", "deliver response b1"];
    for (settings, duplicated) in [(" idempotence=false", true), ("", false)] {
        let head = format!("model transactions\npartition p\nproducer app{settings}\n");
        let mut w: World = setup(&parse(&head).unwrap(), None);
        for l in lines {
            apply_line(&mut w, l).unwrap_or_else(|e| panic!("{l}: {e}"));
        }
        let why = hosted_broken_of(&w, true);
        assert_eq!(why.is_some(), duplicated, "{settings:?}: {why:?}");
        if duplicated {
            assert!(why.unwrap().contains("2 time(s)"));
        }
    }
}

#[test]
fn every_invariant_holds_on_random_schedules() {
    let n: usize = std::env::var("EOSLAB_SCHEDULES").ok().and_then(|v| v.parse().ok()).unwrap_or(if cfg!(debug_assertions) { 2_000 } else { 100_000 });
    let mut rng = Rng(0x5eed_0000_e051_u64.wrapping_add(0x9e37_79b9));
    let (mut steps, mut hosted_acked, mut held_late, mut lost) = (0usize, 0usize, 0usize, 0usize);
    for _ in 0..n {
        let (head, lines, bad) = generate(&mut rng, 24, None);
        steps += lines.len();
        hosted_acked += usize::from(head.contains("producer app") && lines.iter().any(|l| l.starts_with("deliver response")));
        // A request held in the network, timed out by the client (`advance`), then released late.
        held_late += usize::from(lines.iter().position(|l| l.ends_with(" hold")).is_some_and(|h| {
            let advance = lines[h..].iter().position(|l| l.starts_with("advance")).map(|a| a + h);
            advance.is_some_and(|a| lines[a..].iter().any(|l| l.starts_with("release ")))
        }));
        // A Java client's request, or its answer, lost on the way (the request-level losses).
        lost += usize::from(lines.iter().any(|l| l.starts_with("inject ") && (l.ends_with(" lose-request") || l.ends_with(" lose-response"))));
        if let Some((_, why)) = bad {
            let min = shrink(&head, lines, None);
            panic!("invariant broken ({why}); minimal scenario:\n{head}{}\n", min.join("\n"));
        }
    }
    assert!(steps > n * 5, "schedules are not trivially short ({steps} steps over {n})");
    assert!(hosted_acked > n / 20, "the hosted producers' batches are acknowledged in some schedules ({hosted_acked} over {n})");
    assert!(held_late > n / 200, "held requests are released late in some schedules ({held_late} over {n})");
    assert!(lost > n / 20, "requests and answers are lost in some schedules ({lost} over {n})");
    eprintln!("{n} schedules, {steps} steps, every invariant held after every step ({hosted_acked} with a hosted producer's acknowledged batches, {held_late} with a held request released late, {lost} with a request or an answer lost)");
}

/// The harness can find and shrink a real violation: with the read path sabotaged, some
/// schedule breaks read-committed-sees-only-committed, and the shrunk script still breaks it
/// when run as a scenario.
#[test]
fn a_sabotaged_model_is_caught_and_shrunk_to_a_short_script() {
    let mut rng = Rng(42);
    for _ in 0..20_000 {
        let (head, lines, bad) = generate(&mut rng, 24, Some(Sabotage::ReadCommittedSeesAborted));
        if bad.is_none() {
            continue;
        }
        let min = shrink(&head, lines.clone(), Some(Sabotage::ReadCommittedSeesAborted));
        assert!(min.len() <= lines.len() && min.len() <= 8, "shrunk to {} lines:\n{}", min.len(), min.join("\n"));
        let script = format!("{head}{}\n", min.join("\n"));
        let r = run(&parse(&script).unwrap(), Some(Sabotage::ReadCommittedSeesAborted), true);
        let last = r.steps.last().unwrap();
        assert!(last.invariants.iter().any(|i| i.0 == "read-committed-sees-only-committed" && !i.1), "{script}");
        return;
    }
    panic!("no schedule exercised the sabotaged read path");
}

#[test]
fn every_invariant_holds_on_random_request_walks() {
    let n: usize = std::env::var("EOSLAB_REQUEST_SCHEDULES").ok().and_then(|v| v.parse().ok()).unwrap_or(if cfg!(debug_assertions) { 2_000 } else { 100_000 });
    let (mut steps, mut exempted) = (0usize, 0usize);
    for seed in 0..n as u64 {
        let mut walk = TxnRequestWalk::new(seed, None);
        let mut lines = Vec::new();
        // The 30 picks of `eoslab schedule --transactions --requests --steps 30`, then its last line.
        for k in 0..31 {
            let Some(line) = (if k < 30 { walk.step() } else { walk.finish() }) else { continue };
            lines.push(line);
            if let Some(why) = broken(walk.world(), exempt(walk.head(), &lines)) {
                let head = walk.head().to_owned();
                let min = shrink(&head, lines, None);
                panic!("seed {seed}: invariant broken ({why}); minimal scenario:\n{head}{}\n", min.join("\n"));
            }
        }
        steps += lines.len();
        exempted += exempt(walk.head(), &lines) as usize;
    }
    assert!(steps > n * 15, "walks are not trivially short ({steps} requests over {n})");
    assert!(exempted < n / 2, "{exempted} of {n} walks are exempt from the single-outcome invariants");
    eprintln!("{n} request walks, {steps} requests, every invariant held after every request ({exempted} walks exempt from the single-outcome invariants)");
}

/// The step buttons of a request scenario (`next_lines` for transactional.ids no Java client
/// drives) offer only requests the model takes: at every step of random request walks, each
/// offered line applies to a copy of the world without a script error, and every invariant
/// holds after it (with the exemptions of `broken`).
#[test]
fn every_request_a_step_button_offers_applies() {
    let n: u64 = if cfg!(debug_assertions) { 60 } else { 600 };
    let mut offered = std::collections::BTreeSet::new();
    // Every other walk over three replicas: the buttons offer replication faults there too.
    for seed in 0..n {
        let mut walk = if seed % 2 == 0 { TxnRequestWalk::new(seed, None) } else { TxnRequestWalk::replicated(seed, None) };
        let mut lines: Vec<String> = Vec::new();
        for _ in 0..30 {
            for (label, line) in next_lines(walk.world()) {
                let mut w = walk.world().clone();
                apply_line(&mut w, &line).unwrap_or_else(|e| panic!("seed {seed}: `{line}` ({label}) does not apply: {e}\n{}{}", walk.head(), lines.join("\n")));
                let mut after = lines.clone();
                after.push(line.clone());
                if let Some(why) = broken(&w, exempt(walk.head(), &after)) {
                    panic!("seed {seed}: `{line}` breaks {why}\n{}{}", walk.head(), after.join("\n"));
                }
                offered.insert(line.split_whitespace().next().unwrap_or("").to_string());
            }
            if let Some(line) = walk.step() {
                lines.push(line);
            }
        }
    }
    for verb in ["add-partitions-to-txn", "produce", "end-txn", "init-producer-id", "fetch", "deliver", "lag", "catch-up", "leader-fails"] {
        assert!(offered.contains(verb), "no step button offered `{verb}`: {offered:?}");
    }
}

/// Request walks over three replicas per partition with replication faults among the picks:
/// followers that stop and resume fetching, time passing (the leaders' ISR checks, held answers
/// timing out) and clean leader elections that truncate what the HW never passed (S1–S6).
/// Every invariant holds after every request, with the exemptions of `broken`; the faults are
/// reached (held answers, ISR shrinks, truncating elections).
#[test]
fn every_invariant_holds_on_random_request_walks_with_replication_faults() {
    let n: usize = if cfg!(debug_assertions) { 1_000 } else { 20_000 };
    let (mut elections, mut truncating, mut shrinks) = (0usize, 0usize, 0usize);
    for seed in 0..n as u64 {
        let mut walk = TxnRequestWalk::replicated(seed, None);
        let mut lines = Vec::new();
        for k in 0..31 {
            let end_before: Vec<i64> = walk.world().idem.cluster.partitions.iter().map(|p| p.log_end_offset).collect();
            let isr_before: Vec<usize> = walk.world().idem.cluster.partitions.iter().map(|p| p.isr().len()).collect();
            let Some(line) = (if k < 30 { walk.step() } else { walk.finish() }) else { continue };
            lines.push(line);
            let w = walk.world();
            if lines.last().is_some_and(|l| l.starts_with("leader-fails")) {
                elections += 1;
                truncating += w.idem.cluster.partitions.iter().zip(&end_before).any(|(p, &e)| p.log_end_offset < e) as usize;
            }
            shrinks += w.idem.cluster.partitions.iter().zip(&isr_before).any(|(p, &i)| p.isr().len() < i) as usize;
            if let Some(why) = broken(w, exempt(walk.head(), &lines)) {
                let head = walk.head().to_owned();
                let min = shrink(&head, lines, None);
                panic!("seed {seed}: invariant broken ({why}); minimal scenario:\n{head}{}\n", min.join("\n"));
            }
        }
    }
    assert!(elections > 0 && truncating > 0 && shrinks > 0, "faults reached: {elections} elections, {truncating} truncating, {shrinks} ISR shrinks");
    eprintln!("{n} replicated request walks: {elections} elections ({truncating} truncating the log), {shrinks} ISR shrinks; every invariant held");
}

/// One way to read a log (no debug-build twin of the models' fetch any more). The
/// models' fetch walks the stored batches as zero-copy views; the inspector's report decoder
/// (`Partition::fetch_via_report`) is the reference. After every step of random schedules — the
/// Java clients' transactions, aborts, markers, failovers, and a producer without a
/// transactional.id in one in three — both read the same records from every partition, at both
/// isolation levels, from every offset; and every record a consumer's poll delivered in that step
/// carries the value the log holds at its offset.
#[test]
fn the_fetch_reads_what_the_report_decoder_reads() {
    use eoslab_core::model::partition::Isolation;
    let n = if cfg!(debug_assertions) { 100 } else { 2_000 };
    let mut rng = Rng(0xfe7c_4000_0000_0001_u64);
    let mut delivered = 0usize;
    for _ in 0..n {
        let hosted = if rng.below(3) == 0 { Some("") } else { None };
        let head = header(rng.below(2) == 0, if rng.below(3) == 0 { 1 } else { 2 }, hosted);
        let mut w = setup(&parse(&head).unwrap(), None);
        w.trace = false;
        let mut lines = Vec::new();
        for _ in 0..24 {
            let options = next_lines(&w);
            if options.is_empty() {
                break;
            }
            let line = options[rng.below(options.len())].1.clone();
            let before = w.deliveries.len();
            apply_line(&mut w, &line).unwrap_or_else(|e| panic!("{line}: {e}"));
            lines.push(line);
            for p in &w.idem.cluster.partitions {
                for iso in [Isolation::ReadCommitted, Isolation::ReadUncommitted] {
                    for from in 0..=p.log_end_offset {
                        assert_eq!(p.fetch(iso, from), p.fetch_via_report(iso, from), "{}: {iso:?} from {from} after\n{head}{}", p.name, lines.join("\n"));
                    }
                }
            }
            for d in &w.deliveries[before..] {
                let p = w.idem.cluster.partitions.iter().find(|p| p.name == d.partition.as_str()).expect("a delivery names a partition");
                let at = p.fetch_via_report(Isolation::ReadUncommitted, d.offset);
                let held = at.first().filter(|c| c.offset == d.offset).and_then(|c| c.value.clone());
                assert_eq!(held.as_deref(), d.value.as_ref().map(|v| v.as_str().as_bytes()), "{}@{} delivered to {} after\n{head}{}", p.name, d.offset, d.consumer.as_str(), lines.join("\n"));
                delivered += 1;
            }
        }
    }
    assert!(delivered >= n / 5, "the schedules delivered records to the consumers ({delivered})");
    // And every shipped scenario's logs as they end (aborted ranges followed by the same
    // producer's committed transactions, markers sent again, raw and compressed batches,
    // truncation by elections), read from every offset.
    let dir = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../scenarios");
    let mut files: Vec<_> = std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().path()).filter(|p| p.extension().is_some_and(|e| e == "eos")).collect();
    files.sort();
    let mut read = 0;
    for f in files {
        let text = std::fs::read_to_string(&f).unwrap();
        let partitions = if eoslab_core::model::txn_scenario::is_transactions(&text) {
            run(&parse(&text).unwrap(), None, false).world.idem.cluster.partitions
        } else {
            eoslab_core::model::scenario::run(&eoslab_core::model::scenario::parse(&text).unwrap()).sim.cluster.partitions
        };
        for p in &partitions {
            for iso in [Isolation::ReadCommitted, Isolation::ReadUncommitted] {
                for from in 0..=p.log_end_offset.min(2_000) {
                    assert_eq!(p.fetch(iso, from), p.fetch_via_report(iso, from), "{}: {} {iso:?} from {from}", f.display(), p.name);
                    read += 1;
                }
            }
        }
    }
    assert!(read > 1_000, "{read} fetches of the shipped scenarios' logs");
}
