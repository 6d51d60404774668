//! The world's answers to the requests a script writes: its coordinators' and partition
//! leaders' side of each API, the lanes they are drawn on, and the checks a TxnOffsetCommit or a
//! verified write meets.

use super::*;

impl World {
    /// The lane a request's sender draws on (`producer:NAME`), registered for the views.
    pub(super) fn request_lane(&mut self, from: &str) -> Name {
        if !self.request_senders.iter().any(|s| s == from) && !self.clients.iter().any(|c| c.name == from) && !self.is_idempotent_producer(from) {
            self.request_senders.push(String::from(from));
        }
        self.producer_lane(from)
    }

    /// The open transaction instance of `id` (or a new one for `from`'s requests).
    pub(in crate::model::txn) fn instance_for(&mut self, id: &str, pid: i64, epoch: i16, from: &str) -> usize {
        if let Some(&t) = self.open_txn.get(id) {
            if self.txns[t].pid == pid {
                return t;
            }
        }
        self.txns.push(TxnInstance { transactional_id: id.into(), producer: from.into(), pid, epoch, ..Default::default() });
        let t = self.txns.len() - 1;
        self.open_txn.insert(Name::from(id), t);
        t
    }

    /// Send `req` from `from` (a lane name; `client` when the script gives none) and answer it.
    pub fn request(&mut self, req: &Request, from: &str) -> Result<Reply, String> {
        let lane = self.request_lane(from);
        match req {
            Request::InitProducerId { transactional_id: id, timeout_ms, current, empty_id, version, two_phase } => {
                let shown = if *empty_id { "\"\"" } else if id.is_empty() { "null" } else { id };
                msg!(self, lane.clone(), COORD_LANE, "InitProducerId", format!(
                    "InitProducerId{}(transactionalId={shown}, transactionTimeoutMs={timeout_ms}{}{})",
                    version.map_or(String::new(), |v| format!(" v{v}")),
                    current.map_or(String::new(), |(p, e)| format!(", producerId={p}, producerEpoch={e}")),
                    if *two_phase { ", keepPreparedTxn=true" } else { "" }
                ));
                if *two_phase {
                    // I13: KIP-939's flags are an unstable API in 4.3 (keepPreparedTxn: KAFKA-20739).
                    let why = String::from("keepPreparedTxn / enable2Pc (InitProducerId v6, KIP-939) are an unstable API in Kafka 4.3; the model does not guess their answer: OUTSIDE_MODEL");
                    self.outside_model = Some(why.clone());
                    let mut r = Reply::new("InitProducerId", ErrorCode::NONE, "I13", crate::model::kafka_source::KIP_939, why);
                    r.error = String::from("OUTSIDE_MODEL");
                    r.error_code = -1;
                    self.reply_msg(lane, &r);
                    return Ok(r);
                }
                if id.is_empty() && !*empty_id {
                    // I1: an idempotent producer: a fresh id at epoch 0, nothing persisted.
                    let pid = self.idem.cluster.next_producer_id;
                    self.idem.cluster.next_producer_id += 1;
                    self.tick(0);
                    let mut r = Reply::new("InitProducerId", ErrorCode::NONE, "I1", INIT_PRODUCER_ID_WITHOUT_TRANSACTIONAL_ID, format!("no transactional.id: a fresh producer id {pid} at epoch 0 from the ProducerIdManager; nothing is written to __transaction_state"));
                    r.producer_id = Some(pid);
                    r.producer_epoch = Some(0);
                    self.reply_msg(lane, &r);
                    return Ok(r);
                }
                let new_pid = self.idem.cluster.next_producer_id;
                let a = self.coordinator.init_producer_id(id, *timeout_ms, *current, new_pid, self.idem.cluster.now_ms);
                if self.coordinator.get(id).is_some_and(|m| m.producer_id == new_pid) {
                    self.idem.cluster.next_producer_id += 1;
                }
                self.tick(if a.wrote.is_some() { 1 } else { 0 });
                if a.wrote.is_some() {
                    let r = self.write_txn_log(id);
                    let k = msg!(self, COORD_LANE, COORD_LANE, "append", format!("__transaction_state: {} for {id}", a.wrote.map_or("", |s| s.name())));
                    self.link(k, r);
                    // Every Java instance of the id holding the old epoch is fenced now.
                    self.fence_instances(id, None);
                }
                if a.rule == "I11" {
                    let (pid, epoch) = self.coordinator.get(id).map_or((-1, -1), |m| (m.producer_id, m.producer_epoch));
                    let t = self.instance_for(id, pid, epoch, from);
                    self.queue_markers(id, t, false);
                }
                // v0–3 clients know no PRODUCER_FENCED: it goes back as INVALID_PRODUCER_EPOCH
                // (KafkaApis.handleInitProducerIdRequest, KIP-588).
                let error = if version.is_some_and(|v| v < 4) && a.error == ErrorCode::PRODUCER_FENCED { ErrorCode::INVALID_PRODUCER_EPOCH } else { a.error };
                let mut r = Reply::new("InitProducerId", error, a.rule, a.source, a.why(id, &[]));
                if a.error == ErrorCode::NONE {
                    r.producer_id = Some(a.producer_id);
                    r.producer_epoch = Some(a.producer_epoch);
                }
                self.reply_msg(lane, &r);
                Ok(r)
            }
            Request::AddPartitionsToTxn { transactional_id: id, producer_id, epoch, partitions, verify_only, version } => {
                msg!(self, lane.clone(), COORD_LANE, "AddPartitionsToTxn", format!("AddPartitionsToTxn v{version}{}({id}, producer {producer_id} epoch {epoch}, {})", if *verify_only { " verifyOnly=true" } else { "" }, partitions.join(", ")));
                self.metric(crate::model::txn::Metric::AddPartitionsRequests, 1);
                if *verify_only {
                    // V3: each partition verified; nothing changes.
                    let mut worst = (ErrorCode::NONE, String::new());
                    let mut whys = Vec::new();
                    for p in partitions {
                        let v = self.verify(id, *producer_id, *epoch, p);
                        let (e, why) = (v.coordinator_error(), v.why(*producer_id, *epoch, id, p));
                        if e != ErrorCode::NONE && worst.0 == ErrorCode::NONE {
                            worst = (e, why.clone());
                        }
                        whys.push(format!("{p}: {}", if e == ErrorCode::NONE { String::from("NONE") } else { e.to_string() }));
                        let _ = why;
                    }
                    self.tick(0);
                    let r = Reply::new("AddPartitionsToTxn", worst.0, "V3", TRANSACTION_COORDINATOR, format!("verify only (handleVerifyPartitionsInTransaction): {}{}", whys.join(", "), if worst.1.is_empty() { String::new() } else { format!(" — {}", worst.1) }));
                    self.reply_msg(lane, &r);
                    return Ok(r);
                }
                let tv = if *version > 4 { Tv::Tv2 } else { Tv::Tv1 };
                let a = self.coordinator_add(id, *producer_id, *epoch, partitions, tv, from);
                let names: Vec<&str> = partitions.iter().map(String::as_str).collect();
                // v0–1 clients know no PRODUCER_FENCED: it goes back as INVALID_PRODUCER_EPOCH
                // (KafkaApis.handleAddPartitionsToTxnRequest, KIP-588).
                let error = if *version < 2 && a.error == ErrorCode::PRODUCER_FENCED { ErrorCode::INVALID_PRODUCER_EPOCH } else { a.error };
                let r = Reply::new("AddPartitionsToTxn", error, a.rule, a.source, a.why(id, &names));
                self.reply_msg(lane, &r);
                Ok(r)
            }
            Request::AddOffsetsToTxn { transactional_id: id, producer_id, epoch, group, version } => {
                // KafkaApis.handleAddOffsetsToTxnRequest: the AddPartitionsToTxn rules for the one
                // partition partitionFor(groupId) of __consumer_offsets.
                let part = Self::offsets_name(group);
                msg!(self, lane.clone(), COORD_LANE, "AddOffsetsToTxn", format!("AddOffsetsToTxn v{version}({id}, producer {producer_id} epoch {epoch}, group {group}: {part})"));
                self.metric(crate::model::txn::Metric::AddPartitionsRequests, 1);
                let a = self.coordinator_add(id, *producer_id, *epoch, core::slice::from_ref(&part), Tv::Tv1, from);
                // v0–1 clients know no PRODUCER_FENCED: it goes back as INVALID_PRODUCER_EPOCH.
                let error = if *version < 2 && a.error == ErrorCode::PRODUCER_FENCED { ErrorCode::INVALID_PRODUCER_EPOCH } else { a.error };
                let r = Reply::new("AddOffsetsToTxn", error, a.rule, a.source, format!("group {group} → {part}: {}", a.why(id, &[part.as_str()])));
                self.reply_msg(lane, &r);
                Ok(r)
            }
            Request::TxnOffsetCommit { .. } | Request::OffsetFetch { .. } => self.answer_group(req, from, lane),
            Request::EndTxn { transactional_id: id, producer_id, epoch, commit, version } => {
                let tv = if *version > 4 { Tv::Tv2 } else { Tv::Tv1 };
                msg!(self, lane.clone(), COORD_LANE, "EndTxn", format!("EndTxn v{version}({id}, producer {producer_id} epoch {epoch}, {})", if *commit { "COMMIT" } else { "ABORT" }));
                self.metric(crate::model::txn::Metric::EndTxnRequests, 1);
                let a = self.coordinator.end_txn_alloc(id, *producer_id, *epoch, *commit, tv, self.idem.cluster.now_ms, self.idem.cluster.next_producer_id);
                let ci = self.coordinator.index(id);
                if ci.is_some_and(|ci| self.coordinator.txns[ci].next_producer_id == self.idem.cluster.next_producer_id) {
                    self.idem.cluster.next_producer_id += 1;
                }
                self.tick(if a.wrote.is_some() { 1 } else { 0 });
                if a.wrote.is_some() {
                    let r = ci.and_then(|ci| self.write_txn_log_at(ci));
                    let k = msg!(self, COORD_LANE, COORD_LANE, "append", format!("__transaction_state: {} for {id} (K1)", a.wrote.map_or("", |s| s.name())));
                    self.link(k, r);
                    if let Some(ci) = ci {
                        let t = self.instance_for(id, *producer_id, *epoch, from);
                        let version = self.cluster.kafka.marker_version(tv == Tv::Tv2);
                        self.queue_markers_with(ci, t, *commit, version);
                    }
                }
                // v0–1 clients know no PRODUCER_FENCED: it goes back as INVALID_PRODUCER_EPOCH
                // (KafkaApis.handleEndTxnRequest, KIP-588).
                let error = if *version < 2 && a.error == ErrorCode::PRODUCER_FENCED { ErrorCode::INVALID_PRODUCER_EPOCH } else { a.error };
                let mut r = Reply::new("EndTxn", error, a.rule, a.source, a.why(id, &[]));
                if a.error == ErrorCode::NONE && tv == Tv::Tv2 && a.producer_id >= 0 {
                    r.producer_id = Some(a.producer_id);
                    r.producer_epoch = Some(a.producer_epoch);
                }
                self.reply_msg(lane, &r);
                Ok(r)
            }
            Request::WriteTxnMarkers { partition, producer_id, epoch, commit, coordinator_epoch, tv2, more } => {
                let mut pis = alloc::vec![self.partition_index(partition)?];
                for p in more {
                    pis.push(self.partition_index(p)?);
                }
                if *tv2 && !self.cluster.kafka.has_markers_v2() {
                    return Err(format!(
                        "a Kafka {} broker speaks WriteTxnMarkers v1 only (v2, which carries tv=2, is KIP-1228, Kafka 4.2+): send tv=1, which its leaders check by M1",
                        self.cluster.kafka.name()
                    ));
                }
                let names: Vec<&str> = core::iter::once(partition.as_str()).chain(more.iter().map(String::as_str)).collect();
                msg_rule!(self, lane.clone(), self.partition_lane(partition), "WriteTxnMarkers", format!("WriteTxnMarkers({}, producer {producer_id} epoch {epoch}, coordinator epoch {coordinator_epoch}, {}, TransactionVersion {}) from outside the coordinator's pipeline", if *commit { "COMMIT" } else { "ABORT" }, names.join(", "), if *tv2 { 2 } else { 1 }), "K7", TRANSACTION_MARKER_CHANNEL_MANAGER, ErrorCode::NONE);
                self.metric(crate::model::txn::Metric::WriteTxnMarkersRequests, 1);
                // The transaction the marker closes here: the instance with this producer's
                // open records on the partition, or the id's open one, or a new one.
                let t = self
                    .txns
                    .iter()
                    .rposition(|x| x.pid == *producer_id && x.outcome.is_none())
                    .unwrap_or_else(|| {
                        self.txns.push(TxnInstance { producer: Name::from(from), pid: *producer_id, epoch: *epoch, ..Default::default() });
                        self.txns.len() - 1
                    });
                self.tick(1);
                // Each partition's leader decides its marker (M1–M6); the answer has one error per
                // partition (WriteTxnMarkersResponse). One partition: the reply is its answer.
                let mut replies: Vec<Reply> = Vec::new();
                for (&pi, &name) in pis.iter().zip(&names) {
                    let m = MarkerReq {
                        transactional_id: self.txns[t].transactional_id.clone(),
                        txn: t,
                        pid: *producer_id,
                        epoch: *epoch,
                        commit: *commit,
                        coordinator_epoch: *coordinator_epoch,
                        partition: self.partition_names(pi).0,
                        version: if *tv2 { MarkerVersion::Tv2 } else { MarkerVersion::Tv1 },
                        held: false,
                    };
                    let before = self.idem.cluster.partitions[pi].log_end_offset;
                    let d = self.idem.cluster.partitions[pi].append_marker_verdict(m.pid, m.epoch, m.commit, m.coordinator_epoch, m.version, self.idem.cluster.now_ms);
                    let mut r = Reply::new("WriteTxnMarkers", d.error(), d.rule(), d.source(), d.why(name));
                    if let Outcome::Appended { base_offset, .. } = d.outcome() {
                        r.outcome = Some(String::from("appended"));
                        r.offsets = Some((base_offset, base_offset));
                        self.record_marker(pi, &m, base_offset);
                    } else {
                        r.outcome = Some(String::from("rejected"));
                        debug_assert_eq!(before, self.idem.cluster.partitions[pi].log_end_offset);
                    }
                    if !more.is_empty() {
                        self.reply_msg_from(self.partition_lane(name), lane.clone(), &r);
                    }
                    replies.push(r);
                }
                if more.is_empty() {
                    let r = replies.remove(0);
                    self.reply_msg_from(self.partition_lane(partition), lane, &r);
                    return Ok(r);
                }
                // Several: the first refusal (or the first answer) stands for the request, each
                // partition's error and marker offset are in `partitions`.
                let partitions: Vec<(String, String, Option<i64>)> = names.iter().zip(&replies).map(|(n, r)| (n.to_string(), r.error.clone(), r.offsets.map(|o| o.0))).collect();
                let k = replies.iter().position(|r| r.error_code != 0).unwrap_or(0);
                let mut r = replies.swap_remove(k);
                r.partitions = partitions;
                Ok(r)
            }
            Request::Produce { partition, producer_id, epoch, base_sequence, transactional, transactional_id: id, version, values } => {
                let pi = self.partition_index(partition)?;
                let plane = self.partition_lane(partition);
                msg!(self, lane.clone(), plane.clone(), "Produce", format!("Produce v{version}{} batch: producer {producer_id} epoch {epoch}, sequences {base_sequence}..{}, {} record(s){}", if *transactional { " transactional" } else { "" }, base_sequence.wrapping_add(values.len() as i32 - 1), values.len(), if id.is_empty() { String::new() } else { format!(", transactionalId={id}") }));
                let bytes = data_batch(*producer_id, *epoch, *base_sequence, *transactional, values, self.idem.cluster.now_ms);
                let hex = crate::report::to_hex(&bytes);
                let sent = Sent { partition, producer_id: *producer_id, epoch: *epoch, transactional: *transactional, id, version: *version, values };
                let r = self.produce(pi, plane, lane, bytes, &sent, from)?;
                return Ok(Reply { batch: Some(hex), ..r });
            }
            Request::ProduceBytes { partition, bytes, transactional_id: id, version } => {
                let pi = self.partition_index(partition)?;
                let plane = self.partition_lane(partition);
                let hex = crate::report::to_hex(bytes);
                let framed = frame_one_batch(bytes, *version);
                // The header's fields where a whole v2 header was sent (else what the leader
                // never gets to read).
                let head = crate::batch::Batch::new_checked(&bytes[..]).ok().filter(|b| b.magic() == 2);
                let (pid, epoch, seq, count, txn) = head.as_ref().map_or((-1, -1, -1, 0, false), |b| (b.producer_id(), b.producer_epoch(), b.base_sequence(), b.records_count(), b.attributes().is_transactional()));
                msg!(
                    self,
                    lane.clone(),
                    plane.clone(),
                    "Produce",
                    if head.is_some() {
                        format!("Produce v{version} of {} byte(s): a {}batch of producer {pid} epoch {epoch}, sequences {seq}..{}, {count} record(s){}", bytes.len(), if txn { "transactional " } else { "" }, crate::sequence::increment(seq, count.wrapping_sub(1)), if id.is_empty() { String::new() } else { format!(", transactionalId={id}") })
                    } else {
                        format!("Produce v{version} of {} byte(s)", bytes.len())
                    }
                );
                // KafkaApis refuses a request whose first batch is transactional and that names no
                // transactionalId before it validates any partition's records (C0g, in `produce`).
                let len = match framed {
                    Err(f) if !(txn && id.is_empty() && f.after_first) => {
                        self.tick(0);
                        let mut r = Reply::new("Produce", f.error, if f.error == ErrorCode::CORRUPT_MESSAGE { "B1" } else { "B0" }, f.source, format!("byte {}: {}", f.at, f.why));
                        r.outcome = Some(String::from("rejected"));
                        r.byte_offset = Some(f.at);
                        r.batch = Some(hex);
                        self.reply_msg_from(plane, lane, &r);
                        return Ok(r);
                    }
                    Err(f) => f.first_len,
                    Ok(len) => len,
                };
                let sent_bytes = bytes[..len].to_vec();
                let values = record_values(&sent_bytes);
                let sent = Sent { partition, producer_id: pid, epoch, transactional: txn, id, version: *version, values: &values };
                let mut r = self.produce(pi, plane, lane, sent_bytes, &sent, from)?;
                // The leader's own refusals of the batch (B0–B4), with the byte they are about.
                r.byte_offset = match r.rule {
                    "B0" => Some(0),
                    "B1" if len < crate::batch::HEADER_LEN => Some(8),
                    "B1" => Some(17),
                    "B2" => Some(57),
                    "B3" => Some(21),
                    "B4" => Some(53),
                    _ => None,
                };
                if let Some(at) = r.byte_offset {
                    r.why = format!("byte {at}: {}", r.why);
                }
                if len < bytes.len() && r.rule != "C0g" {
                    r.why.push_str(&format!(" ({} byte(s) after the batch frame no batch: UnifiedLog.trimInvalidBytes drops them)", bytes.len() - len));
                }
                return Ok(Reply { batch: Some(hex), ..r });
            }
            _ => self.answer_other(req, from, lane),
        }
    }

    /// [`World::request`] for a Produce.
    pub(super) fn produce(&mut self, pi: usize, plane: Name, lane: Name, bytes: Vec<u8>, sent: &Sent<'_>, from: &str) -> Result<Reply, String> {
        let before = self.messages.len();
        let mut r = self.produce_now(pi, plane, lane.clone(), bytes, sent, from)?;
        self.maybe_hold(pi, &mut r, before, lane);
        Ok(r)
    }

    /// The leader's decision on a Produce, answered at once ([`World::produce`] holds it when
    /// acks=-1 must wait for the HW).
    pub(super) fn produce_now(&mut self, pi: usize, plane: Name, lane: Name, bytes: Vec<u8>, sent: &Sent<'_>, from: &str) -> Result<Reply, String> {
        let Sent { partition, producer_id, epoch, transactional, id, version, values } = sent;
        if *transactional {
            if id.is_empty() {
                // C0g: a transactional batch needs the request's transactionalId.
                self.tick(0);
                let mut r = Reply::new("Produce", ErrorCode(53), "C0g", KAFKA_APIS_PRODUCE, String::from("a Produce with transactional records and no transactionalId is refused as a whole: TRANSACTIONAL_ID_AUTHORIZATION_FAILED"));
                r.outcome = Some(String::from("rejected"));
                self.reply_msg_from(plane, lane, &r);
                return Ok(r);
            }
            let t = self.instance_for(id, *producer_id, *epoch, from);
            let before = self.messages.len();
            let end_before = self.idem.cluster.partitions[pi].log_end_offset;
            let res = self.leader_append(pi, bytes, crate::model::txn::SupportedOperation::of_produce(*version), t, values);
            // The leader's own messages say why; the reply repeats the last one's rule.
            let last = self.messages[before.min(self.messages.len())..].iter().rev().find(|m| m.kind == "response" && m.to == lane).map(|m| (m.rule, m.source, m.text.clone()));
            let (rule, source, why) = last.map_or(("", "", String::new()), |(r, s, t)| (r.unwrap_or(""), s.unwrap_or(""), t));
            let mut r = match res {
                Ok(k) => {
                    if !self.txns[t].records.contains(&k) {
                        self.txns[t].records.push(k);
                    }
                    let rec = &self.records[k];
                    let dup = self.idem.cluster.partitions[pi].log_end_offset == end_before;
                    let mut r = Reply::new("Produce", ErrorCode::NONE, rule, source, why);
                    r.outcome = Some(String::from(if dup { "duplicate" } else { "appended" }));
                    r.offsets = Some((rec.offset, rec.last_offset));
                    r
                }
                Err(e) => {
                    let mut r = Reply::new("Produce", e, rule, source, why);
                    r.outcome = Some(String::from("rejected"));
                    r
                }
            };
            if !self.trace {
                r.why.clear();
            }
            return Ok(r);
        }
        let d = self.idem.cluster.partitions[pi].append_client_verdict(&bytes);
        self.tick(1);
        let mut r = Reply::new("Produce", d.error(), d.rule(), d.source(), d.why(partition));
        match d.outcome() {
            o @ (Outcome::Appended { base_offset, last_offset } | Outcome::Duplicate { base_offset, last_offset }) => {
                let appended = matches!(o, Outcome::Appended { .. });
                r.outcome = Some(String::from(if appended { "appended" } else { "duplicate" }));
                r.offsets = Some((base_offset, last_offset));
                // A duplicate (A1) wrote nothing: the answer points at the original batch, or at
                // nothing when that batch is one a `producer-state` line seeded (the log holds no
                // record for it; Kafka's answer to it adds none either).
                if !appended {
                    let k = self.record_at(pi, base_offset);
                    let m = self.reply_msg_from(plane, lane, &r);
                    self.link(m, k);
                    return Ok(r);
                }
                let log = &self.idem.cluster.partitions[pi];
                let stored = if appended { as_stored(bytes, log) } else { log.log.last().map(|e| e.bytes.clone()).unwrap_or_default() };
                let k = self.push_data_record(pi, (base_offset, last_offset), (*producer_id, *epoch), values, stored, None);
                let m = self.reply_msg_from(plane, lane, &r);
                self.link(m, Some(k));
            }
            _ => {
                r.outcome = Some(String::from("rejected"));
                self.reply_msg_from(plane, lane, &r);
            }
        }
        Ok(r)
    }

    /// [`World::request`] for the read-side requests.
    pub(super) fn answer_other(&mut self, req: &Request, _from: &str, lane: Name) -> Result<Reply, String> {
        match req {
            Request::Fetch { partition, read_committed, from_offset } => {
                let pi = self.partition_index(partition)?;
                let plane = self.partition_lane(partition);
                let iso = if *read_committed { Isolation::ReadCommitted } else { Isolation::ReadUncommitted };
                msg!(self, lane.clone(), plane.clone(), "Fetch", format!("Fetch({partition}, fetchOffset {from_offset}, {})", if *read_committed { "READ_COMMITTED" } else { "READ_UNCOMMITTED" }));
                self.tick(0);
                let p = &self.idem.cluster.partitions[pi];
                let (hw, lso) = (p.high_watermark(), p.last_stable_offset());
                let a = p.fetch_answer(iso, *from_offset);
                let mut r = if a.error != ErrorCode::NONE {
                    Reply::new("Fetch", a.error, "L4", REPLICA_MANAGER_READ_FROM_LOG, format!("fetchOffset {from_offset} is outside the log [0, {hw}]: OFFSET_OUT_OF_RANGE"))
                } else {
                    let mut r = Reply::new(
                        "Fetch",
                        ErrorCode::NONE,
                        "L4",
                        REPLICA_MANAGER_READ_FROM_LOG,
                        format!(
                            "{}: records from {from_offset} below {} ({}); highWatermark {hw}, lastStableOffset {lso}{}",
                            if *read_committed { "read_committed" } else { "read_uncommitted" },
                            if *read_committed { "the LSO" } else { "the HW" },
                            a.upper,
                            match &a.aborted {
                                Some(list) => format!(", abortedTransactions [{}]", list.iter().map(|(p, f)| format!("producer {p} from {f}")).collect::<Vec<_>>().join(", ")),
                                None => String::from(", abortedTransactions null"),
                            }
                        ),
                    );
                    r.records = a.records;
                    r.aborted = a.aborted;
                    r
                };
                // A partition answered with an error carries no offsets: highWatermark and
                // lastStableOffset −1 (`FetchResponse.partitionResponse`, seen on Kafka 4.3.1).
                r.high_watermark = Some(a.high_watermark);
                r.last_stable_offset = Some(a.last_stable_offset);
                self.reply_msg_from(plane, lane, &r);
                Ok(r)
            }
            Request::ListOffsets { partition, read_committed } => {
                let pi = self.partition_index(partition)?;
                let plane = self.partition_lane(partition);
                msg!(self, lane.clone(), plane.clone(), "ListOffsets", format!("ListOffsets({partition}, LATEST, {})", if *read_committed { "READ_COMMITTED" } else { "READ_UNCOMMITTED" }));
                self.tick(0);
                let p = &self.idem.cluster.partitions[pi];
                let (hw, lso) = (p.high_watermark(), p.last_stable_offset());
                let offset = if *read_committed { lso } else { hw };
                let mut r = Reply::new("ListOffsets", ErrorCode::NONE, "L5", REPLICA_MANAGER_OFFSET_FOR_TIMESTAMP, format!("LATEST for {} is {} = {offset}", if *read_committed { "read_committed" } else { "read_uncommitted" }, if *read_committed { "the last stable offset" } else { "the high watermark" }));
                r.offset = Some(offset);
                r.high_watermark = Some(hw);
                r.last_stable_offset = Some(lso);
                let _ = FIRST_UNSTABLE_OFFSET_SNAPSHOT;
                self.reply_msg_from(plane, lane, &r);
                Ok(r)
            }
            Request::FindCoordinator { group, key } => {
                let n = if *group { CONSUMER_OFFSETS_PARTITIONS } else { TRANSACTION_STATE_PARTITIONS };
                let topic = if *group { "__consumer_offsets" } else { "__transaction_state" };
                msg!(self, lane.clone(), COORD_LANE, "FindCoordinator", format!("FindCoordinator({}, {key})", if *group { "GROUP" } else { "TRANSACTION" }));
                self.tick(0);
                let h = coordinator::java_string_hash(key);
                let part = coordinator::partition_for(key, n);
                let mut r = Reply::new(
                    "FindCoordinator",
                    ErrorCode::NONE,
                    if *group { "H2" } else { "H1" },
                    if *group { GROUP_COORDINATOR_PARTITION_FOR } else { TRANSACTION_COORDINATOR_PARTITION_FOR },
                    format!("Utils.abs(\"{key}\".hashCode() = {h}) % {n} = {part}: the leader of {topic}-{part} is the coordinator{}", if *group { String::new() } else { format!(" (coordinator epoch {})", self.coordinator_epoch) }),
                );
                r.coordinator_partition = Some(part);
                r.hash = Some(h);
                self.reply_msg(lane, &r);
                Ok(r)
            }
            _ => Err(format!("{} is not a read-side request", req.api())),
        }
    }

    /// The coordinator's add of `partitions` (AP1–AP8): the answer, with its
    /// `__transaction_state` write and `from`'s transaction instance when it wrote.
    pub(super) fn coordinator_add(&mut self, id: &str, pid: i64, epoch: i16, partitions: &[String], tv: Tv, from: &str) -> coordinator::Answer {
        let parts: Vec<Name> = partitions.iter().map(|p| Name::from(p.as_str())).collect();
        let a = self.coordinator.add_partitions_v(id, pid, epoch, &parts, self.idem.cluster.now_ms, tv);
        self.tick(if a.wrote.is_some() { 1 } else { 0 });
        if a.wrote.is_some() {
            let r = self.write_txn_log(id);
            let k = msg!(self, COORD_LANE, COORD_LANE, "append", format!("__transaction_state: Ongoing with {}", partitions.join(", ")));
            self.link(k, r);
            self.instance_for(id, pid, epoch, from);
        }
        a
    }

    /// [`World::request`] for the group coordinator's requests: TxnOffsetCommit (G1–G4)
    /// and OffsetFetch (G5).
    pub(super) fn answer_group(&mut self, req: &Request, from: &str, lane: Name) -> Result<Reply, String> {
        match req {
            Request::TxnOffsetCommit { transactional_id: id, producer_id, epoch, group, generation, member, instance, version, offsets } => {
                let (pid, epoch) = (*producer_id, *epoch);
                let part = Self::offsets_name(group);
                let n = Self::offsets_partition(group);
                msg!(
                    self,
                    lane.clone(),
                    OFFSETS_LANE,
                    "TxnOffsetCommit",
                    format!(
                        "TxnOffsetCommit v{version}({id}, group {group}, generation {generation}, member {member:?}{}, producer {pid} epoch {epoch}: {})",
                        instance.as_ref().map_or(String::new(), |x| format!(", groupInstanceId {x}")),
                        offsets.iter().map(|(p, o)| format!("{p}={o}")).collect::<Vec<_>>().join(", ")
                    )
                );
                let op = crate::model::txn::SupportedOperation::of_txn_offset_commit(*version);
                let answer = |error: ErrorCode, rule: &'static str, source: &'static str, why: String| {
                    let mut r = Reply::new("TxnOffsetCommit", error, rule, source, why);
                    r.partitions = offsets.iter().map(|(p, _)| (p.clone(), error.name().to_string(), None)).collect();
                    r
                };
                // G3: before the write (CoordinatorRuntime.scheduleTransactionalWriteOperation) the
                // partition is added to the transaction (v5, TV2) or verified to be in it (v4) —
                // unless the producer already has a transaction open on it at this epoch (V1:
                // then nobody asks the coordinator, even while it completes the transaction).
                let open = self.offsets_logs.get(&n).and_then(|l| l.producers.get(&pid)).is_some_and(|e| e.producer_epoch == epoch && e.current_txn_first_offset.is_some());
                if open {
                    msg_rule!(self, OFFSETS_LANE, OFFSETS_LANE, "verification", format!("producer {pid} has a transaction open on {part} at epoch {epoch}: no verification, no add"), "V1", TRANSACTION_COORDINATOR, ErrorCode::NONE);
                } else if op == crate::model::txn::SupportedOperation::AddPartition {
                    self.metric(crate::model::txn::Metric::AddPartitionsRequests, 1);
                    let a = self.coordinator_add(id, pid, epoch, core::slice::from_ref(&part), Tv::Tv2, from);
                    msg_rule!(self, OFFSETS_LANE, COORD_LANE, "AddPartitionsToTxn", format!("the group coordinator adds {part} to {id}: {}", a.why(id, &[part.as_str()])), "G3", a.source, a.error);
                    let e = crate::model::txn::leader_add_error(a.error);
                    if e != ErrorCode::NONE {
                        let r = answer(e, "G3", a.source, format!("the add of {part} (TxnOffsetCommit v5) failed: {}{}", a.why(id, &[part.as_str()]), if e != a.error { format!(" ({} goes back as {e}, V5)", a.error) } else { String::new() }));
                        self.reply_msg_from(OFFSETS_LANE, lane, &r);
                        return Ok(r);
                    }
                } else if let Some((e, why)) = self.verify_offsets_write(id, pid, epoch, &part, op, *version) {
                    let r = answer(e, "G3", TRANSACTION_COORDINATOR, why);
                    self.reply_msg_from(OFFSETS_LANE, lane, &r);
                    return Ok(r);
                }
                // G1/G2: the group's fields.
                let gi = match self.validate_txn_offset_commit(group, *generation, member, instance.as_deref()) {
                    Ok((gi, _)) => gi,
                    Err(g) => {
                        self.tick(0);
                        let r = answer(g.error, g.rule, OFFSET_METADATA_MANAGER, g.why);
                        self.reply_msg_from(OFFSETS_LANE, lane, &r);
                        return Ok(r);
                    }
                };
                // G4: the offsets, pending until the marker.
                let t = self.instance_for(id, pid, epoch, from);
                let r = match self.write_pending_offsets(gi, pid, epoch, offsets, t) {
                    Ok(k) => {
                        let r = answer(ErrorCode::NONE, "G4", OFFSET_METADATA_MANAGER, format!("written to {part} as transactional records of producer {pid}: pending until the COMMIT marker reaches {part} (an ABORT drops them)"));
                        let m = self.reply_msg_from(OFFSETS_LANE, lane, &r);
                        self.link(m, Some(k));
                        r
                    }
                    Err(d) => {
                        let r = answer(d.error(), d.rule, d.source, d.why);
                        self.reply_msg_from(OFFSETS_LANE, lane, &r);
                        r
                    }
                };
                Ok(r)
            }
            Request::OffsetFetch { group, require_stable, partitions } => {
                msg!(self, lane.clone(), OFFSETS_LANE, "OffsetFetch", format!("OffsetFetch({group}{}, {})", if *require_stable { ", requireStable" } else { "" }, partitions.join(", ")));
                self.tick(0);
                let g = self.groups.iter().find(|g| g.name == *group);
                let answers: Vec<(String, crate::model::txn::OffsetFetch)> = partitions.iter().map(|p| (p.clone(), g.map_or(Ok(None), |g| g.fetch_offset(p, *require_stable)))).collect();
                let first_error = answers.iter().find_map(|(_, a)| a.err()).unwrap_or(ErrorCode::NONE);
                let text = |a: &crate::model::txn::OffsetFetch| match a {
                    Err(e) => e.to_string(),
                    Ok(o) => o.map_or(String::from("none"), |o| o.to_string()),
                };
                let why = format!(
                    "{}{}",
                    answers.iter().map(|(p, a)| format!("{p}: {}", text(a))).collect::<Vec<_>>().join(", "),
                    if first_error == ErrorCode::UNSTABLE_OFFSET_COMMIT {
                        " — requireStable: a transactional commit of that offset is pending until its marker (retriable)"
                    } else if g.is_none() {
                        " — no such group: no offsets"
                    } else {
                        ""
                    }
                );
                let mut r = Reply::new("OffsetFetch", first_error, "G5", OFFSET_METADATA_MANAGER, why);
                r.partitions = answers.iter().map(|(p, a)| (p.clone(), a.err().unwrap_or(ErrorCode::NONE).name().to_string(), a.ok().flatten())).collect();
                if let [(_, Ok(o))] = answers.as_slice() {
                    r.offset = *o;
                }
                self.reply_msg_from(OFFSETS_LANE, lane, &r);
                Ok(r)
            }
            _ => Err(format!("{} is not a group coordinator request", req.api())),
        }
    }

    /// G3 for a TV1 client's TxnOffsetCommit (v0–v4, `op` its supported operation) whose producer
    /// has no transaction open on the group's partition `part` at this epoch: the partition is
    /// verified to be in the transaction (`CoordinatorPartitionWriter.maybeStartTransactionVerification`,
    /// verifyOnly) when transaction.partition.verification.enable is on; off, the offsets are
    /// written without asking (V1: the epoch checks of the partition's producer state still
    /// apply). `Some((error, why))` when the write is refused.
    pub(in crate::model::txn) fn verify_offsets_write(&mut self, id: &str, pid: i64, epoch: i16, part: &str, op: crate::model::txn::SupportedOperation, version: i16) -> Option<(ErrorCode, String)> {
        if self.cluster.verification_disabled {
            msg_rule!(self, OFFSETS_LANE, OFFSETS_LANE, "verification", format!("transaction.partition.verification.enable=false: producer {pid}'s offsets are written to {part} without asking the coordinator"), "V1", REPLICA_MANAGER_VERIFICATION, ErrorCode::NONE);
            return None;
        }
        let v = self.verify(id, pid, epoch, part);
        self.tick(0);
        // The coordinator's own answer (V3) with AddPartitionsToTxnManager's mapping only
        // (PRODUCER_FENCED → INVALID_PRODUCER_EPOCH): the NOT_ENOUGH_REPLICAS a Produce gets for
        // CONCURRENT_TRANSACTIONS is ReplicaManager's, for old producers, and the group
        // coordinator answers 51 as it is (Kafka 4.3.1).
        let e = op.map(v.coordinator_error());
        if e == ErrorCode::NONE {
            return None;
        }
        let why = match v {
            crate::model::txn::Verify::Completing => String::from("the transaction is completing (PrepareCommit/PrepareAbort): CONCURRENT_TRANSACTIONS, retriable"),
            _ => v.why(pid, epoch, id, part),
        };
        // Only DEFAULT_ERROR's TRANSACTION_ABORTABLE → INVALID_TXN_STATE is worth saying.
        let mapped = if v.coordinator_error() == ErrorCode::TRANSACTION_ABORTABLE && e != ErrorCode::TRANSACTION_ABORTABLE {
            format!(" ({} goes back as {e} to a TxnOffsetCommit older than v4, V5)", v.coordinator_error())
        } else {
            String::new()
        };
        Some((e, format!("verification of {part} (TxnOffsetCommit v{version}, verifyOnly): {why}{mapped}")))
    }

    /// V3's decision for one partition (`handleVerifyPartitionsInTransaction`): the leader's
    /// question for a TV1 client's batch, and the `verify-only` request's.
    pub(in crate::model::txn) fn verify(&self, id: &str, pid: i64, epoch: i16, pname: &str) -> crate::model::txn::Verify {
        use crate::model::txn::Verify;
        match self.coordinator.get(id) {
            None => Verify::NoState,
            Some(m) if m.producer_id != pid => Verify::NotOwner,
            Some(m) if m.producer_epoch != epoch => Verify::Fenced(m.producer_epoch),
            Some(m) if matches!(m.state, TxnState::PrepareCommit | TxnState::PrepareAbort) => Verify::Completing,
            Some(m) if m.partitions.contains(pname) => Verify::Added,
            Some(_) => Verify::NotAdded,
        }
    }

    /// The coordinator's reply to `to`, as a message.
    pub(super) fn reply_msg(&mut self, to: Name, r: &Reply) -> usize {
        self.reply_msg_from(COORD_LANE, to, r)
    }

    pub(super) fn reply_msg_from(&mut self, from: Name, to: Name, r: &Reply) -> usize {
        if !self.trace {
            return usize::MAX;
        }
        let e = ErrorCode(r.error_code);
        self.push_msg(from, to, "response", format!("{} response {}: {}", r.api, e, r.why), Some(r.rule), Some(r.source), e)
    }
}
