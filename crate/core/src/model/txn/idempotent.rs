//! Java idempotent producers in the transactions world ("idempotent and transactional
//! producers live in the same world"). A `model transactions` script may declare `producer NAME`
//! without a transactional.id: a Java 4.x producer with `enable.idempotence` (or, with
//! `idempotence=false`, without it), driven by the idempotence scripts' own steps — `send`,
//! `deliver request|response bN`, `lose`, `delay request`, `refuse request`, `timeout`, `restart`
//! — and checked by their `expect bN …` and `expect producer P …` lines.
//!
//! (The script steps are run by `txn_scenario/hosted.rs`; this is the model's side.)
//!
//! These producers are not written a second time here: the world hosts the idempotence model
//! ([`Sim`]: the client's `Sender`/`TransactionManager` sequence handling, KIP-360 epoch bumps,
//! the TCP connections and their faults), and that model acts on the world's one cluster
//! ([`crate::model::cluster::Cluster`]: `idem.cluster`), so a batch of an idempotent producer
//! meets the same leader, producer state, LSO and transaction index as the transactional
//! producers' batches and the script's raw requests, at the same clock. One producer-id counter
//! serves both (the coordinator's `ProducerIdManager`). What the hosted model does comes
//! back as the timeline's messages (Produce requests, the leader's answers with their rule),
//! narration, and records in the partitions' logs that the consumers read.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use super::{ErrorCode, World};
use crate::model::idempotence::{EventKind, ProducerConfig, Sim};
use crate::model::partition::Outcome;

/// One event of the hosted model, as the world records it (rendered while the model still holds
/// the partitions, so its sentence can name them).
struct Seen {
    kind: Kind,
    producer: Option<usize>,
    partition: Option<usize>,
    batch: Option<usize>,
    text: String,
}

enum Kind {
    Request,
    Answer { error: ErrorCode, rule: &'static str, source: &'static str, outcome: Outcome },
    /// A Produce request (or its answer) lost on the network.
    Lost { response: bool },
    /// A coordinator's message on an idempotence script's request line (only a world mirroring
    /// that script's run sees these: [`World::mirror_hosted`]).
    Cluster { api: &'static str, from: String, to: String, text: String, rule: Option<&'static str>, source: Option<&'static str>, error: ErrorCode },
    /// A request line of the script sent straight to a partition's leader (`produce`, `marker`),
    /// from the script's requests lane (no client's batch: the line gives the fields).
    RawRequest { api: &'static str },
    /// The leader's answer to one (`outcome`: what it wrote, for the record the answer names).
    RawAnswer { error: ErrorCode, rule: &'static str, source: &'static str, outcome: Outcome },
    /// A `fetch` or `list-offsets` line: its request (`request`, the request's text) and the
    /// leader's answer (the event's text) in one event.
    Read { api: &'static str, request: String, error: ErrorCode, rule: &'static str, source: &'static str },
    Other,
}

/// The lane of the script's request lines that name no sender (`producer:client`, as a request
/// line to the coordinators without `from=` and every request line of a transactions script).
const REQUESTS_LANE: &str = "producer:client";

impl World {
    /// Declare a Java producer without a transactional.id. An idempotent one has its producer id
    /// from the world's counter at once: its `Sender` thread, started by the constructor, sends
    /// InitProducerId with a null transactionalId (timeout Integer.MAX_VALUE) before any batch
    /// (`TransactionManager.bumpIdempotentEpochAndResetIdIfNeeded`, Kafka 4.3.1; the
    /// coordinator's answer is I1), so it holds a lower id than a transactional producer whose
    /// `initTransactions()` comes later in the script.
    pub fn add_idempotent_producer(&mut self, name: &str, config: ProducerConfig) {
        self.idem.add_producer(name, config);
    }

    /// Is `name` one of the hosted (idempotent or plain) producers?
    pub fn is_idempotent_producer(&self, name: &str) -> bool {
        self.idem.producers.iter().any(|p| p.name == name)
    }

    /// Run `f` on the idempotence model (its cluster is the world's), and collect the events
    /// it recorded.
    fn with_hosted<R>(&mut self, f: impl FnOnce(&mut Sim) -> R) -> (R, Vec<Seen>) {
        let from = self.idem.trace.len();
        let r = f(&mut self.idem);
        let sim = &self.idem;
        let seen = sim.trace[from..]
            .iter()
            .map(|e| {
                let kind = match &e.kind {
                    EventKind::Request { .. } => Kind::Request,
                    EventKind::Decision(v) if e.batch().is_some() => Kind::Answer { error: v.error(), rule: v.rule(), source: v.source(), outcome: v.outcome() },
                    EventKind::Lost { .. } if e.batch().is_some() => Kind::Lost { response: e.message().is_some_and(|m| m.1) },
                    EventKind::Cluster(c) => Kind::Cluster { api: c.api, from: c.from.clone(), to: c.to.clone(), text: c.text.clone(), rule: c.rule, source: c.source, error: c.error },
                    EventKind::RawProduce { .. } => Kind::RawRequest { api: "Produce" },
                    EventKind::RawMarker { .. } => Kind::RawRequest { api: "WriteTxnMarkers" },
                    EventKind::Decision(v) => Kind::RawAnswer { error: v.error(), rule: v.rule(), source: v.source(), outcome: v.outcome() },
                    EventKind::MarkerDecision(v) => Kind::RawAnswer { error: v.error(), rule: v.rule(), source: v.source(), outcome: v.outcome() },
                    EventKind::Read(r) => {
                        let iso = if r.read_committed { "read_committed" } else { "read_uncommitted" };
                        use crate::model::kafka_source::{REPLICA_MANAGER_OFFSET_FOR_TIMESTAMP, REPLICA_MANAGER_READ_FROM_LOG};
                        let (api, rule, source, request) = match r.offset {
                            Some(_) => ("ListOffsets", "L5", REPLICA_MANAGER_OFFSET_FOR_TIMESTAMP, format!("ListOffsets(LATEST, {iso})")),
                            None => ("Fetch", "L4", REPLICA_MANAGER_READ_FROM_LOG, format!("Fetch(from {}, {iso})", r.from)),
                        };
                        Kind::Read { api, request: if self.trace { request } else { String::new() }, error: r.answer.error, rule, source }
                    }
                    _ => Kind::Other,
                };
                let text = if !self.trace {
                    String::new()
                } else if let (EventKind::Decision(v), None, Some(q)) = (&e.kind, e.batch(), e.partition()) {
                    // A request line's answer, worded as the transactions scripts' Produce answer.
                    format!("Produce response {}: {}", v.error(), v.why(&sim.cluster.partitions[q].name))
                } else if let (EventKind::MarkerDecision(v), Some(q)) = (&e.kind, e.partition()) {
                    format!("WriteTxnMarkers response {}: {}", v.error(), v.why(&sim.cluster.partitions[q].name))
                } else if let (EventKind::Decision(v), Some(b), Some(q)) = (&e.kind, e.batch(), e.partition()) {
                    // The answer's sentence; the timeline shows its rule beside it.
                    let attempt = e.message().map_or(0, |m| m.0);
                    format!("Produce response {} to b{b} (attempt {attempt}): {}", v.error(), v.why(&sim.cluster.partitions[q].name))
                } else {
                    // The hosted model calls its producer "client"; the timeline has several.
                    let who = e.producer().and_then(|p| sim.producers.get(p)).map_or("client", |p| p.name.as_str());
                    let t = e.text(sim);
                    match t.strip_prefix("client: ") {
                        Some(rest) => format!("{who}: {rest}"),
                        None => t,
                    }
                };
                Seen { kind, producer: e.producer(), partition: e.partition(), batch: e.batch(), text }
            })
            .collect();
        (r, seen)
    }

    /// Run `f` on the idempotence model at the world's clock (a `timeout` of `advance_ms` first
    /// lets that much time pass for the whole world: its periodic tasks run, then the producer
    /// gives up on its connection), then record what it did ([`World::absorb`]).
    pub fn on_hosted<R>(&mut self, advance_ms: i64, f: impl FnOnce(&mut Sim) -> R) -> R {
        if advance_ms > 0 {
            self.advance(advance_ms);
        }
        let now = self.idem.cluster.now_ms;
        // The world runs the leaders' ISR checks (S3) on its clock and releases the idempotent
        // producers' held answers with its own ([`World::release_hosted`]): the model's own
        // checks have nothing left to do.
        self.idem.replication.checked_ms = now;
        // The world's periodic tasks have run up to `now`; the producer's step starts where the
        // timeout started (its own `timeout` lets the request's time pass again, to `now`).
        self.idem.cluster.now_ms = now - advance_ms;
        let (r, seen) = self.with_hosted(f);
        self.idem.cluster.now_ms = self.idem.cluster.now_ms.max(now);
        self.absorb(seen);
        r
    }

    /// The hosted producers' acks=-1 answers held for the HW (S1), released by the world's
    /// replication as it releases its own: the HW reached, the leader changed, or — with
    /// `expire_at` — the request's timeout passed.
    pub(super) fn release_hosted(&mut self, expire_at: Option<i64>) {
        if self.idem.replication.held.is_empty() {
            return;
        }
        let now = self.idem.cluster.now_ms;
        self.idem.cluster.now_ms = expire_at.unwrap_or(now);
        let ((), seen) = self.with_hosted(|sim| sim.release_held(expire_at));
        self.idem.cluster.now_ms = now;
        self.absorb(seen);
    }

    /// The timeline's view of what the hosted model did: its Produce requests and the leader's
    /// answers as messages (an appended batch becomes a record of the partition's log, which the
    /// consumers read), the rest as narration.
    fn absorb(&mut self, seen: Vec<Seen>) {
        // A request line's answers and the log entries they wrote (linked once those are records).
        let mut written: Vec<(usize, usize, i64)> = Vec::new();
        for e in seen {
            let plane = e.producer.and_then(|p| self.idem.producers.get(p)).map(|p| p.name.clone()).map(|n| self.producer_lane(&n));
            let lane = e.partition.filter(|&q| q < self.idem.cluster.partitions.len()).map(|q| self.partition_names(q).1);
            match e.kind {
                Kind::Request => {
                    if let (Some(plane), Some(lane)) = (plane, lane) {
                        msg!(self, plane, lane, "Produce", e.text);
                    }
                }
                Kind::Answer { error, rule, source, outcome } => {
                    let record = match (outcome, e.partition, e.batch) {
                        (Outcome::Appended { base_offset, last_offset }, Some(q), Some(b)) => Some(self.hosted_record(q, b, base_offset, last_offset)),
                        (Outcome::Duplicate { base_offset, .. }, Some(q), _) => self.record_at(q, base_offset),
                        _ => None,
                    };
                    if let (Some(plane), Some(lane)) = (plane, lane) {
                        let m = msg_rule!(self, lane, plane, "response", e.text, rule, source, error);
                        self.link(m, record);
                    }
                }
                Kind::Lost { response } => {
                    if let (Some(plane), Some(lane)) = (plane, lane) {
                        let (from, to, api) = if response { (lane, plane, "response") } else { (plane, lane, "Produce") };
                        let m = msg!(self, from, to, api, e.text);
                        if let Some(m) = self.messages.get_mut(m) {
                            m.lost = true;
                        }
                    }
                }
                Kind::Cluster { api, from, to, text, rule, source, error } => {
                    match rule {
                        Some(rule) => {
                            msg_rule!(self, from.as_str().into(), to.as_str().into(), api, text, rule, source.unwrap_or(""), error);
                        }
                        None => {
                            msg!(self, from.as_str().into(), to.as_str().into(), api, text);
                        }
                    }
                }
                // A request line goes on the wire as in a transactions script: from the requests
                // lane to the partition's leader, and its answer back with the rule.
                Kind::RawRequest { api } => {
                    if let Some(lane) = lane {
                        msg!(self, REQUESTS_LANE.into(), lane, api, e.text);
                    }
                }
                Kind::RawAnswer { error, rule, source, outcome } => {
                    if let (Some(lane), Some(q)) = (lane, e.partition) {
                        let m = msg_rule!(self, lane, REQUESTS_LANE.into(), "response", e.text, rule, source, error);
                        match outcome {
                            Outcome::Appended { base_offset, .. } | Outcome::Duplicate { base_offset, .. } => written.push((m, q, base_offset)),
                            Outcome::Rejected(_) => {}
                        }
                    }
                }
                Kind::Read { api, request, error, rule, source } => {
                    if let Some(lane) = lane {
                        msg!(self, REQUESTS_LANE.into(), lane.clone(), api, request);
                        msg_rule!(self, lane, REQUESTS_LANE.into(), "response", e.text, rule, source, error);
                    }
                }
                Kind::Other => say!(self, e.text),
            }
        }
        if !written.is_empty() {
            // The entries a request line wrote become records here (after every client batch
            // of the step has its own), so its answer can name the record it wrote.
            self.record_log_entries();
            for (m, q, base_offset) in written {
                let record = self.record_at(q, base_offset);
                self.link(m, record);
            }
        }
    }

    /// Mirror a run of the idempotence model for the timeline (one report shape): `f`
    /// runs one step of an idempotence script on the model this world hosts, exactly as that
    /// script's own runner does (its clock, its expiry at `advance`, its replication checks: the
    /// world runs none of its own periodic tasks), on the world's cluster. The
    /// world records what it did as the timeline's messages, narration and records, and every
    /// log entry the model's requests wrote directly (a raw Produce, a marker) as a record too.
    pub fn mirror_hosted<R>(&mut self, f: impl FnOnce(&mut Sim) -> R) -> R {
        let (r, seen) = self.with_hosted(f);
        self.absorb(seen);
        self.record_log_entries();
        r
    }

    /// Records for the log entries no record stands for yet (batches written by a request line,
    /// markers; before the first step, what the partitions already hold), and the step at which
    /// an election truncated a record from its log (S6). Only the entries past what was mirrored
    /// before are looked at (a run is linear, not quadratic).
    pub fn record_log_entries(&mut self) {
        self.mirrored_to.resize(self.idem.cluster.partitions.len(), 0);
        let step = self.step;
        for pi in 0..self.idem.cluster.partitions.len() {
            let end = self.idem.cluster.partitions[pi].log_end_offset;
            let from = self.mirrored_to[pi];
            if end < from {
                // An election truncated the log: its records past the new end are gone.
                let name = self.idem.cluster.partitions[pi].name.clone();
                for r in self.records.iter_mut().filter(|r| r.partition.as_str() == name && r.truncated_at.is_none() && r.offset >= end) {
                    r.truncated_at = Some(step);
                }
            }
            let log = &self.idem.cluster.partitions[pi].log;
            let new: Vec<(i64, Vec<u8>)> = log[log.partition_point(|e| e.base_offset < from.min(end))..].iter().map(|e| (e.base_offset, e.bytes.clone())).collect();
            for (base, bytes) in new {
                // A client batch the hosted model appended has its record already.
                if self.record_at(pi, base).is_some_and(|k| self.records[k].truncated_at.is_none()) {
                    continue;
                }
                let v = crate::batch::Batch::new_unchecked(&bytes[..]);
                let last = base + i64::from(v.last_offset_delta());
                let (pid, epoch, txn) = (v.producer_id(), v.producer_epoch(), v.attributes().is_transactional());
                if let Some((commit, coordinator_epoch)) = v.attributes().is_control().then(|| super::requests::marker_of(&bytes)).flatten() {
                    let (partition, lane) = self.partition_names(pi);
                    self.push_record(super::LogRecord {
                        lane,
                        partition,
                        offset: base,
                        last_offset: last,
                        kind: if commit { "commit" } else { "abort" },
                        pid,
                        epoch,
                        transactional: true,
                        values: super::Values::default(),
                        text: super::RecordText::marker(commit, coordinator_epoch),
                        step,
                        closed_at: Some(step),
                        outcome: Some(if commit { "committed" } else { "aborted" }),
                        bytes,
                        txn: None,
                        truncated_at: None,
                    });
                } else {
                    let values = super::requests::record_values(&bytes);
                    let k = self.push_data_record(pi, (base, last), (pid, epoch), &values, bytes, None);
                    self.records[k].transactional = txn;
                }
            }
            self.mirrored_to[pi] = end;
        }
    }

    /// The record of a hosted producer's batch `b` appended to partition `q` at these offsets.
    fn hosted_record(&mut self, q: usize, b: usize, base_offset: i64, last_offset: i64) -> usize {
        let p = &self.idem.cluster.partitions[q];
        let at = p.log.partition_point(|x| x.base_offset < base_offset);
        let bytes = p.log.get(at).filter(|x| x.base_offset == base_offset).map(|x| x.bytes.clone()).unwrap_or_default();
        let batch = &self.idem.batches[b - 1];
        let (producer, values) = ((batch.producer_id, batch.producer_epoch), batch.values.clone());
        self.push_data_record(q, (base_offset, last_offset), producer, &values, bytes, None)
    }

    /// The hosted producers as the state panel lists them: name, producer id, epoch, and the
    /// next sequence per partition.
    pub fn idempotent_producers(&self) -> impl Iterator<Item = (&str, i64, i16, Vec<(String, i32)>)> + '_ {
        self.idem.producers.iter().map(move |p| {
            let seqs = p.seqs.iter().filter_map(|(&q, s)| self.idem.cluster.partitions.get(q).map(|part| (part.name.clone(), s.next))).collect();
            (p.name.as_str(), p.producer_id, p.epoch, seqs)
        })
    }
}
