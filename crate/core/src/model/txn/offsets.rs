//! sendOffsetsToTransaction(): AddOffsetsToTxn, TxnOffsetCommit and the group coordinator's pending
//! offsets.

use super::*;

impl World {
    /// `sendOffsetsToTransaction(consumer's positions, consumer.groupMetadata())`.
    pub fn send_offsets(&mut self, name: &str, consumer: &str) -> Result<CallResult, String> {
        let i = self.client_index(name)?;
        self.not_blocked(i, "sendOffsetsToTransaction")?;
        let ci = self.consumer_index(consumer)?;
        let group = self.consumers[ci].group.clone().ok_or_else(|| format!("consumer {consumer} has no group"))?;
        if let Some(r) = self.check_usable(i, "sendOffsetsToTransaction") {
            return Ok(r);
        }
        if self.clients[i].state != ClientState::InTransaction {
            let e = format!("IllegalStateException: Cannot send offsets in state {}", self.clients[i].state.name());
            say!(self, format!("{name}.sendOffsetsToTransaction() throws {e}"));
            return Ok(CallResult::Thrown(e));
        }
        let offsets_part = Self::offsets_name(&group);
        let tv2 = self.clients[i].tv2;
        if !tv2 && !self.clients[i].added.contains(offsets_part.as_str()) {
            match self.add_partition_tv1(i, Name::from(offsets_part.as_str()), "AddOffsetsToTxn", Some(consumer)) {
                Added::Yes => {}
                Added::Held => return Ok(CallResult::Pending),
                Added::Refused(e) => return Ok(self.add_offsets_refused(i, e)),
            }
        }
        self.send_offsets_commit(i, ci)
    }

    /// `TransactionManager.AddOffsetsToTxnHandler`: fenced (INVALID_PRODUCER_EPOCH too) is a
    /// fatal ProducerFencedException, an unknown or unmapped producer id abortable, anything else
    /// a fatal KafkaException; sendOffsetsToTransaction() rethrows it.
    pub(super) fn add_offsets_refused(&mut self, i: usize, e: ErrorCode) -> CallResult {
        let e = if e == ErrorCode::INVALID_PRODUCER_EPOCH { ErrorCode::PRODUCER_FENCED } else { e };
        let thrown = match e.0 {
            90 | 49 | 59 => format!("{}: {}", e.exception(), e.message()),
            _ => format!("KafkaException: Unexpected error in AddOffsetsToTxnResponse: {}", e.message()),
        };
        self.client_error(i, e, "AddOffsetsToTxn");
        self.rethrow(i, "sendOffsetsToTransaction", thrown)
    }

    /// `sendOffsetsToTransaction()` once the group's partition is in the transaction: the
    /// TxnOffsetCommit of consumer `ci`'s positions.
    pub(super) fn send_offsets_commit(&mut self, i: usize, ci: usize) -> Result<CallResult, String> {
        let consumer = self.consumers[ci].name.clone();
        let consumer = consumer.as_str();
        let group = self.consumers[ci].group.clone().ok_or_else(|| format!("consumer {consumer} has no group"))?;
        let generation = self.consumers[ci].generation;
        let positions: Vec<(String, i64)> = self.consumers[ci].positions.iter().map(|(p, o)| (p.clone(), *o)).collect();
        let ids = (self.clients[i].pid, self.clients[i].epoch, self.clients[i].tv2);
        let lose = match self.injected_request(i, "TxnOffsetCommit", OFFSETS_LANE, || format!("TxnOffsetCommit({group}, generation {generation})")) {
            Some(inject::Injection::Hold) => {
                let text = format!(
                    "TxnOffsetCommit{}({group}, generation {generation}, producer {} epoch {}: {})",
                    if ids.2 { " v5" } else { " v4" },
                    ids.0,
                    ids.1,
                    positions.iter().map(|(p, o)| format!("{p}={o}")).collect::<Vec<_>>().join(", ")
                );
                let call = inject::HeldCall::TxnOffsetCommit { consumer: String::from(consumer), group, generation, positions };
                return Ok(self.hold_request(i, call, text, "sendOffsetsToTransaction"));
            }
            Some(inject::Injection::Answer(e)) => {
                // `TxnOffsetCommitHandler`: the group's refusals are a CommitFailedException
                // (abortable); anything else goes the way of a refused write.
                let answer = if matches!(e, ErrorCode::ILLEGAL_GENERATION | ErrorCode::UNKNOWN_MEMBER_ID | ErrorCode::FENCED_INSTANCE_ID) { OffsetsAnswer::Refused(e) } else { OffsetsAnswer::AddRefused(e) };
                return self.offsets_answered(i, answer);
            }
            Some(inject::Injection::LoseResponse) => true,
            _ => false,
        };
        // `inject P TxnOffsetCommit lose-response`: the group coordinator did its part (the
        // offsets are in its log); the answer is lost, and after its timeout the client sends the
        // same request again, which is written again (origin COORDINATOR: no duplicate check),
        // its offsets replacing the pending ones.
        let answer = self.answered_after_loss(i, "TxnOffsetCommit", OFFSETS_LANE, lose, |w, again| w.txn_offset_commit(i, consumer, &group, generation, &positions, ids, if again { " again" } else { "" }), |a| a.error());
        self.offsets_answered(i, answer)
    }

    /// `sendOffsetsToTransaction()` reads the group coordinator's answer to its TxnOffsetCommit.
    pub(super) fn offsets_answered(&mut self, i: usize, answer: OffsetsAnswer) -> Result<CallResult, String> {
        let name = self.clients[i].name.clone();
        match answer {
            OffsetsAnswer::Written => {
                self.clients[i].started = true;
                say!(self, format!("{name} commits the consumer's offsets inside the transaction: they count only if the transaction commits"));
            }
            OffsetsAnswer::AddRefused(e) => {
                // `TransactionManager.TxnOffsetCommitHandler`: INVALID_PRODUCER_EPOCH and
                // PRODUCER_FENCED are fatal as themselves (`isFatalException`), anything else a
                // fatal KafkaException; sendOffsetsToTransaction() rethrows it.
                let thrown = match e.0 {
                    47 | 90 => format!("{}: {}", e.exception(), e.message()),
                    _ => format!("KafkaException: Unexpected error in TxnOffsetCommitResponse: {}", e.message()),
                };
                self.client_error(i, e, "TxnOffsetCommit");
                return Ok(self.rethrow(i, "sendOffsetsToTransaction", thrown));
            }
            OffsetsAnswer::Refused(e) => {
                self.clients[i].last_error = Some(String::from(e.name()));
                self.clients[i].state = ClientState::AbortableError;
                say!(self, format!("{name}: the offset commit is refused with {} — an abortable CommitFailedException: the transaction must abort, and its output with it (TransactionManager)", e.name()));
                // `TransactionManager.TxnOffsetCommitHandler`: ILLEGAL_GENERATION / UNKNOWN_MEMBER_ID
                // fail the result with a CommitFailedException (abortable), which
                // sendOffsetsToTransaction() rethrows.
                let thrown = format!("CommitFailedException: Transaction offset Commit failed due to consumer group metadata mismatch: {}", e.message());
                return Ok(self.rethrow(i, "sendOffsetsToTransaction", thrown));
            }
            OffsetsAnswer::WriteRefused(e) => self.client_error(i, e, "TxnOffsetCommit"),
        }
        Ok(CallResult::Ok)
    }

    /// One TxnOffsetCommit of client `i` for `consumer`'s positions, as the group coordinator
    /// handles it: the request and the answer on the timeline (the answer's message index, if
    /// one was drawn), the client's reaction left to the caller.
    /// `ids`: the producer id, epoch and protocol it carries; `suffix` says which copy.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn txn_offset_commit(&mut self, i: usize, consumer: &str, group: &str, generation: i32, positions: &[(String, i64)], ids: (i64, i16, bool), suffix: &str) -> (OffsetsAnswer, Option<usize>) {
        let name = self.clients[i].name.clone();
        let (pid, epoch, tv2) = ids;
        let id = self.clients[i].transactional_id.clone();
        let offsets_part = Self::offsets_name(group);
        msg!(self, 
            self.producer_lane(&name),
            OFFSETS_LANE,
            "TxnOffsetCommit",
            format!(
                "TxnOffsetCommit{}({group}, generation {generation}, producer {pid} epoch {epoch}: {}){}",
                if tv2 { " v5" } else { " v4" },
                positions.iter().map(|(p, o)| format!("{p}={o}")).collect::<Vec<_>>().join(", "),
                suffix
            ),
        );
        let t = self.current_instance(i);
        if tv2 {
            // G3: the group coordinator adds its partition (TxnOffsetCommit v5) before it looks
            // at the request: `GroupCoordinatorService.commitTransactionalOffsets` runs the
            // write through `CoordinatorRuntime.scheduleTransactionalWriteOperation`, whose
            // `maybeStartTransactionVerification` (AddPartitionsToTxnManager, verifyOnly=false
            // for TV2) completes first; the generation is checked in the write (G1/G2). So a
            // fenced commit still leaves the partition in the transaction, and its abort sends
            // a marker there (Kafka 4.3.1, tests/kafka/txn_scenarios.py txn-rebalance-fences-offsets).
            self.metric(Metric::AddPartitionsRequests, 1);
            let a = self.coordinator.add_partitions_v(&id, pid, epoch, &[offsets_part.as_str()], self.idem.cluster.now_ms, Tv::Tv2);
            if a.wrote.is_some() {
                let r = self.write_txn_log(&id);
                let k = msg!(self, COORD_LANE, COORD_LANE, "append", format!("__transaction_state: Ongoing with {offsets_part}"));
                self.link(k, r);
            }
            msg_rule!(self, OFFSETS_LANE, COORD_LANE, "AddPartitionsToTxn", format!("the group coordinator adds {offsets_part} to {id}: {}", a.why(&id, &[offsets_part.as_str()])), "G3", a.source, a.error);
            // The add goes through the leader's path (ReplicaManager, V5): PRODUCER_FENCED comes
            // back as INVALID_PRODUCER_EPOCH (Kafka 4.3.1 and 4.1.2, txn-request-offsets).
            let e = leader_add_error(a.error);
            if e != ErrorCode::NONE {
                let k = msg_rule!(self, OFFSETS_LANE, self.producer_lane(&name), "response", format!("TxnOffsetCommit response {e}: the add of {offsets_part} failed"), "G3", a.source, e);
                return (OffsetsAnswer::AddRefused(e), Some(k));
            }
        } else {
            // G3 (TV1, v4): verified to be in the transaction unless the producer has one open on
            // the partition at this epoch (V1) — what refuses a TxnOffsetCommit that arrives after
            // its transaction ended (a held copy, delivered late).
            let n = Self::offsets_partition(group);
            let open = self.offsets_logs.get(&n).and_then(|l| l.producers.get(&pid)).is_some_and(|e| e.producer_epoch == epoch && e.current_txn_first_offset.is_some());
            if !open {
                if let Some((e, why)) = self.verify_offsets_write(&id, pid, epoch, &offsets_part, SupportedOperation::of_txn_offset_commit(4), 4) {
                    let k = msg_rule!(self, OFFSETS_LANE, self.producer_lane(&name), "response", format!("TxnOffsetCommit response {e}: {why}"), "G3", TRANSACTION_COORDINATOR, e);
                    return (OffsetsAnswer::AddRefused(e), Some(k));
                }
            }
        }
        // G1/G2: generation fencing (KIP-447).
        let gi = match self.validate_txn_offset_commit(group, generation, consumer, None) {
            Ok((gi, _)) => gi,
            Err(refusal) => {
                let e = refusal.error;
                let k = msg_rule!(self, OFFSETS_LANE, self.producer_lane(&name), "response", format!("TxnOffsetCommit response {e}: {}", refusal.why), refusal.rule, OFFSET_METADATA_MANAGER, e);
                return (OffsetsAnswer::Refused(e), Some(k));
            }
        };
        // G4: the offsets are written as transactional records, pending until the marker.
        self.metric(Metric::SendOffsetsTime, (self.cluster.rtt_ms + self.cluster.append_ms) * 1_000_000);
        match self.write_pending_offsets(gi, pid, epoch, positions, t) {
            Ok(r) => {
                let k = msg_rule!(self, OFFSETS_LANE, self.producer_lane(&name), "response", String::from("TxnOffsetCommit response NONE: the offsets are written as transactional records, pending until the COMMIT marker reaches this partition"), "G4", OFFSET_METADATA_MANAGER, ErrorCode::NONE);
                self.link(k, Some(r));
                (OffsetsAnswer::Written, Some(k))
            }
            Err(d) => {
                let e = d.error();
                let k = msg_rule!(self, OFFSETS_LANE, self.producer_lane(&name), "response", format!("TxnOffsetCommit response {e}: {}", d.why), d.rule, d.source, e);
                (OffsetsAnswer::WriteRefused(e), Some(k))
            }
        }
    }

    /// The answer drawn as message `k` (none drawn: one is drawn now, from `from` to client
    /// `i`) is lost on its way back to the client.
    pub(super) fn lose_answer(&mut self, k: Option<usize>, from: Name, i: usize, api: &'static str, e: ErrorCode) {
        if !self.trace {
            return;
        }
        let k = match k {
            Some(k) => k,
            None => {
                let to = self.producer_lane(&self.clients[i].name.clone());
                msg!(self, from, to, "response", format!("{api} response {e}"))
            }
        };
        if let Some(m) = self.messages.get_mut(k) {
            m.lost = true;
            m.text.push_str(" — lost on the way back");
        }
    }

    /// G1/G2: the group coordinator's check of a TxnOffsetCommit's group fields
    /// (`OffsetMetadataManager.validateTransactionalOffsetCommit`, then
    /// `ClassicGroup.validateOffsetCommit(…, isTransactional=true)`): an unknown group is
    /// created as an Empty "simple" group when generation < 0 (G1), else ILLEGAL_GENERATION; a
    /// known group accepts generation < 0 while Empty, else checks the member (a static member's
    /// instance id: the model has none, UNKNOWN_MEMBER_ID) and the generation (G2).
    /// `Ok((group index, rule))`.
    pub fn validate_txn_offset_commit(&mut self, group: &str, generation: i32, member: &str, instance: Option<&str>) -> Result<(usize, &'static str), GroupRefusal> {
        let refuse = |error, rule, why| Err(GroupRefusal { error, rule, why });
        let Some(gi) = self.groups.iter().position(|g| g.name == group) else {
            if generation >= 0 {
                return refuse(ErrorCode::ILLEGAL_GENERATION, "G1", format!("no group {group} is known and generation {generation} ≥ 0: ILLEGAL_GENERATION (only generation −1 creates a simple group)"));
            }
            self.groups.push(Group { name: group.into(), generation: 0, committed: BTreeMap::new(), pending: Vec::new(), members: Vec::new(), static_members: Vec::new() });
            return Ok((self.groups.len() - 1, "G1"));
        };
        let g = &self.groups[gi];
        if generation < 0 && g.members.is_empty() {
            return Ok((gi, "G2"));
        }
        if generation >= 0 || !member.is_empty() || instance.is_some() {
            // `ClassicGroup.validateMember`: a group.instance.id is looked up among the static
            // members; its member id must be the request's (KIP-345 fencing).
            if let Some(x) = instance {
                match g.static_members.iter().find(|(i, _)| i == x) {
                    None => return refuse(ErrorCode::UNKNOWN_MEMBER_ID, "G2", format!("group.instance.id {x:?} is no static member of {group}: UNKNOWN_MEMBER_ID")),
                    Some((_, m)) if m != member => {
                        return refuse(ErrorCode::FENCED_INSTANCE_ID, "G2", format!("group.instance.id {x:?} belongs to member {m:?} now, not {member:?}: a newer instance took it over, FENCED_INSTANCE_ID"))
                    }
                    Some(_) => {}
                }
            }
            if !g.members.iter().any(|m| m == member) {
                return refuse(ErrorCode::UNKNOWN_MEMBER_ID, "G2", format!("member id {member:?} is no member of {group}{}: UNKNOWN_MEMBER_ID", if g.members.is_empty() { " (it has none)" } else { "" }));
            }
            if generation != g.generation {
                return refuse(ErrorCode::ILLEGAL_GENERATION, "G2", format!("generation {generation} is stale: the group is at generation {} after a rebalance (KIP-447 fencing)", g.generation));
            }
        }
        Ok((gi, "G2"))
    }

    /// G4: `positions` written to the group's `__consumer_offsets` partition as one
    /// transactional batch of producer `pid`, pending until the marker, for transaction
    /// instance `t`. The group coordinator writes it (`CoordinatorRuntime`: base sequence 0,
    /// origin COORDINATOR, so no duplicate or sequence check: a TxnOffsetCommit sent again is
    /// written again, and its offsets replace the pending ones, as
    /// `OffsetMetadataManager.replay` puts them in its map). `Ok(record)` appended, `Err` the
    /// leader's refusal (A2/A3/A9).
    pub(super) fn write_pending_offsets(&mut self, gi: usize, pid: i64, epoch: i16, positions: &[(String, i64)], t: usize) -> Result<usize, Decision> {
        let group = self.groups[gi].name.clone();
        let offsets_part = Self::offsets_name(&group);
        let mut recs = Vec::new();
        for (p, o) in positions {
            let (topic, part) = split_partition(p);
            let key = crate::internal::offset_commit_key(&group, &topic, part);
            let value = crate::internal::offset_commit_value(&crate::internal::OffsetCommit {
                group: group.clone(),
                topic,
                partition: part,
                offset: *o,
                leader_epoch: -1,
                metadata: String::new(),
                commit_timestamp_ms: self.idem.cluster.now_ms,
            });
            recs.push((key, value));
        }
        let n = Self::offsets_partition(&group);
        let bytes = records_batch(pid, epoch, 0, true, &recs, self.idem.cluster.now_ms);
        let (d, stored) = {
            let log = self.offsets_logs.entry(n).or_insert_with(|| Partition::new(format!("__consumer_offsets-{n}")));
            let d = log.append_coordinator_verdict(&bytes).decision(&log.name);
            (d, log.log.last().map(|e| e.bytes.clone()).unwrap_or_default())
        };
        self.tick(1);
        match d.outcome {
            Outcome::Appended { base_offset, last_offset } => {
                for (p, o) in positions {
                    let g = &mut self.groups[gi];
                    g.pending.retain(|x| !(x.0 == pid && x.1 == *p));
                    g.pending.push((pid, p.clone(), *o));
                    let offsets = &mut self.txns[t].offsets;
                    offsets.retain(|x| !(x.0 == group && x.1 == *p));
                    offsets.push((group.clone(), p.clone(), *o));
                }
                let r = self.push_record(LogRecord {
                    lane: Name::fixed(OFFSETS),
                    partition: Name::from(offsets_part.as_str()),
                    offset: base_offset,
                    last_offset,
                    kind: "offset-commit",
                    pid,
                    epoch,
                    transactional: true,
                    values: positions.iter().map(|(p, o)| Some(Name::from(format!("{group} {p}={o}")))).collect(),
                    text: format!("{group}: {}", positions.iter().map(|(p, o)| format!("{p}={o}")).collect::<Vec<_>>().join(", ")).into(),
                    step: self.step,
                    closed_at: None,
                    outcome: None,
                    bytes: stored,
                    txn: Some(t),
                    truncated_at: None,
                });
                self.txns[t].records.push(r);
                Ok(r)
            }
            Outcome::Duplicate { .. } | Outcome::Rejected(_) => Err(d),
        }
    }
}
