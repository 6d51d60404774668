//! One partition leader's log and producer-state table: the broker's append decision for
//! idempotent and transactional producer batches, rule for rule as
//! `storage/.../log/ProducerAppendInfo.java`, `ProducerStateEntry.java`,
//! `ProducerStateManager.java` and `UnifiedLog.java` (4.3) decide it — rules A1–A10 and
//! X1–X2 of the rule catalogue (ids cited in every decision).
//!
//! Sans-IO: the caller passes the batch bytes and the time; the partition never reads a
//! clock. Appended batches are stored as the real bytes with the leader's rewrites
//! (baseOffset, partitionLeaderEpoch — outside the CRC, `DefaultRecordBatch.setLastOffset`).

use alloc::collections::{BTreeMap, BTreeSet, VecDeque};
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use super::errors::ErrorCode;
pub use super::verdict::{Decision, Outcome, Verdict, NUM_BATCHES_TO_RETAIN};
use crate::batch::{Batch, NO_PRODUCER_EPOCH};
use crate::sequence;
use super::kafka_source::{FIRST_UNSTABLE_OFFSET, PRODUCER_APPEND_INFO, PRODUCER_STATE_MANAGER};

/// Broker default `producer.id.expiration.ms` (KIP-854): one day.
pub const DEFAULT_PRODUCER_ID_EXPIRATION_MS: i64 = 86_400_000;

/// `BatchMetadata`: what the leader remembers of one appended batch.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BatchMetadata {
    pub last_seq: i32,
    pub last_offset: i64,
    pub offset_delta: i32,
    pub timestamp: i64,
}

impl BatchMetadata {
    pub fn first_seq(&self) -> i32 {
        sequence::decrement(self.last_seq, self.offset_delta)
    }
    pub fn first_offset(&self) -> i64 {
        self.last_offset - self.offset_delta as i64
    }
}

/// `ProducerStateEntry`: per (partition, producerId).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProducerStateEntry {
    pub producer_epoch: i16,
    /// Oldest first, at most [`NUM_BATCHES_TO_RETAIN`].
    pub batches: VecDeque<BatchMetadata>,
    pub coordinator_epoch: i32,
    pub last_timestamp: i64,
    pub current_txn_first_offset: Option<i64>,
}

impl ProducerStateEntry {
    fn empty() -> Self {
        ProducerStateEntry {
            producer_epoch: NO_PRODUCER_EPOCH,
            batches: VecDeque::new(),
            coordinator_epoch: -1,
            last_timestamp: -1,
            current_txn_first_offset: None,
        }
    }

    pub fn last_seq(&self) -> i32 {
        self.batches.back().map_or(-1, |b| b.last_seq)
    }

    /// `ProducerStateEntry.findDuplicateBatch`.
    fn find_duplicate(&self, epoch: i16, first_seq: i32, last_seq: i32) -> Option<BatchMetadata> {
        if epoch != self.producer_epoch {
            return None;
        }
        self.batches.iter().find(|b| b.first_seq() == first_seq && b.last_seq == last_seq).copied()
    }

    /// `maybeUpdateProducerEpoch` + `addBatchMetadata`.
    fn add_batch(&mut self, epoch: i16, meta: BatchMetadata) {
        if epoch != self.producer_epoch {
            self.batches.clear();
            self.producer_epoch = epoch;
        }
        if self.batches.len() == NUM_BATCHES_TO_RETAIN {
            self.batches.pop_front();
        }
        self.batches.push_back(meta);
        self.last_timestamp = meta.timestamp;
    }
}

/// A batch as the leader stores it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LogEntry {
    pub base_offset: i64,
    pub bytes: Vec<u8>,
}

/// Where a record in the log came from (for ladders and exactly-once checks).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Partition {
    pub name: String,
    pub leader_epoch: i32,
    pub log: Vec<LogEntry>,
    pub log_end_offset: i64,
    pub producers: BTreeMap<i64, ProducerStateEntry>,
    pub producer_id_expiration_ms: i64,
    /// Open transactions: first offset → producer id (`ProducerStateManager.ongoingTxns`).
    pub ongoing_txns: BTreeMap<i64, i64>,
    /// The transaction index (`TransactionIndex`, `AbortedTxn`).
    pub aborted_txns: Vec<AbortedTxn>,
    /// Producer ids whose state expiry removed (X1) and that have not written since: their
    /// next batch is decided by X2.
    pub expired: BTreeSet<i64>,
    /// The leader's verification entries (`ProducerStateManager.verificationStates`): one per
    /// producer id whose transactional batch started a verification or a TV2 add here (V2)
    /// and that no transactional append has cleared since (A5).
    pub verifications: BTreeMap<i64, VerificationState>,
    /// The followers, the ISR and what replication holds back (none by default: one replica,
    /// HW = LEO).
    pub replicas: Replicas,
}

/// A `VerificationStateEntry`: made when the leader starts verifying (or, for a TV2 client,
/// adding) a transactional batch of a producer with no transaction open here at that epoch
/// (V2, `UnifiedLog.maybeStartTransactionVerification`), kept even when the coordinator
/// refuses, and cleared by the producer's next transactional append — data or marker — except
/// a TV2 marker at the entry's own epoch (`UnifiedLog.updateProducers`, Kafka 4.3.1), or by
/// expiry (`ProducerStateManager.removeExpiredProducers`). While it exists, every batch of the
/// producer whose first sequence is above `lowest_seq` is refused (A5), and with
/// `supports_epoch_bump` (a TV2 client's) a first batch not at sequence 0 (A4).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct VerificationState {
    pub lowest_seq: i32,
    pub epoch: i16,
    pub supports_epoch_bump: bool,
    /// When it was made (expiry counts from here; later verifications do not move it).
    pub at_ms: i64,
}

/// One entry of the transaction index (`AbortedTxn`, 34 bytes on disk).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AbortedTxn {
    pub producer_id: i64,
    pub first_offset: i64,
    /// The ABORT marker's offset.
    pub last_offset: i64,
    pub last_stable_offset: i64,
}

impl Partition {
    pub fn new(name: impl Into<String>) -> Self {
        Partition {
            name: name.into(),
            leader_epoch: 0,
            log: Vec::new(),
            log_end_offset: 0,
            producers: BTreeMap::new(),
            producer_id_expiration_ms: DEFAULT_PRODUCER_ID_EXPIRATION_MS,
            ongoing_txns: BTreeMap::new(),
            aborted_txns: Vec::new(),
            expired: BTreeSet::new(),
            verifications: BTreeMap::new(),
            replicas: Replicas::default(),
        }
    }

    /// V2: the leader starts verifying (or adding) a transactional batch of `producer_id` at
    /// `epoch` whose first sequence is `first_seq` (`ProducerStateManager.maybeCreateVerificationStateEntry`
    /// → `VerificationStateEntry.maybeUpdateLowestSequenceAndEpoch`): a new entry, or the
    /// existing one's lowest sequence lowered at the same epoch, or reset at a higher epoch.
    pub fn start_verification(&mut self, producer_id: i64, first_seq: i32, epoch: i16, supports_epoch_bump: bool, now_ms: i64) {
        let v = self.verifications.entry(producer_id).or_insert(VerificationState { lowest_seq: first_seq, epoch, supports_epoch_bump, at_ms: now_ms });
        if epoch == v.epoch && first_seq < v.lowest_seq {
            v.lowest_seq = first_seq;
        }
        if epoch > v.epoch {
            v.epoch = epoch;
            v.lowest_seq = first_seq;
        }
    }

    /// After a transactional append (data or marker) by `producer_id` at `epoch`: its
    /// verification entry goes, unless the append is a TV2 client's marker at the entry's epoch
    /// (the next transaction's verification already started: `UnifiedLog.updateProducers`).
    fn clear_verification(&mut self, producer_id: i64, epoch: i16, control: bool) {
        let next_started = self.verifications.get(&producer_id).is_some_and(|v| v.supports_epoch_bump && control && v.epoch == epoch);
        if !next_started {
            self.verifications.remove(&producer_id);
        }
    }

    /// A producer's state given rather than built by appends (`ProducerStateManager.loadFromSnapshot`
    /// → `loadProducerEntry`): the entry replaced, and its open transaction registered.
    pub fn load_producer_state(
        &mut self,
        producer_id: i64,
        epoch: i16,
        coordinator_epoch: i32,
        last_timestamp: i64,
        txn_first_offset: Option<i64>,
        batches: impl IntoIterator<Item = BatchMetadata>,
    ) {
        if let Some(old) = self.producers.get(&producer_id).and_then(|e| e.current_txn_first_offset) {
            self.ongoing_txns.remove(&old);
        }
        let mut e = ProducerStateEntry::empty();
        e.producer_epoch = epoch;
        for b in batches {
            e.add_batch(epoch, b);
        }
        e.coordinator_epoch = coordinator_epoch;
        e.last_timestamp = last_timestamp;
        e.current_txn_first_offset = txn_first_offset;
        if let Some(o) = txn_first_offset {
            self.ongoing_txns.insert(o, producer_id);
        }
        self.producers.insert(producer_id, e);
    }

    /// The leader's state for one producer set for a question rather than built by appends
    /// ("Send to a leader"): an entry for `producer_id` at `epoch` whose last
    /// retained batch carried sequences `first_seq..=last_seq` at offsets from `base_offset`
    /// (A1 compares a batch against the retained batches' sequence ranges; A7 against the
    /// last one's `last_seq`). The log end moves past that batch, so the next append is
    /// written after it; the log itself holds no bytes for it (nothing to fetch there).
    /// Sequences wrap at `i32::MAX` as Kafka's do (`2147483646..0` is three records).
    /// `txn_first`: the producer has a transaction open on this partition since that offset
    /// (`currentTxnFirstOffset`, an entry of `ongoingTxns`: the LSO stays at it, and a
    /// non-transactional batch meets A9); it is at or before the seeded batch, which is part of it.
    #[allow(clippy::too_many_arguments)]
    pub fn seed_producer(&mut self, producer_id: i64, epoch: i16, first_seq: i32, last_seq: i32, base_offset: i64, timestamp: i64, txn_first: Option<i64>) -> Result<(), String> {
        if producer_id < 0 {
            return Err(format!("producer id {producer_id}: a producer state is kept only for producer ids ≥ 0"));
        }
        if epoch < 0 {
            return Err(format!("epoch {epoch}: a producer's epoch is 0..{}", i16::MAX));
        }
        if first_seq < 0 || last_seq < 0 {
            return Err(format!("sequences {first_seq}..{last_seq}: a batch's sequences are 0..{}", i32::MAX));
        }
        // The records between first and last, wrapping like `DefaultRecordBatch.incrementSequence`.
        let delta = if last_seq >= first_seq { last_seq - first_seq } else { (i32::MAX - first_seq) + last_seq + 1 };
        if base_offset < 0 || base_offset.checked_add(delta as i64 + 1).is_none() {
            return Err(format!("offset {base_offset}: the batch's first offset is ≥ 0"));
        }
        if let Some(t) = txn_first {
            if !(0..=base_offset).contains(&t) {
                return Err(format!("txn-first={t}: the open transaction's first offset is 0..{base_offset} (at or before the seeded batch, which belongs to it)"));
            }
            if let Some((&o, &other)) = self.ongoing_txns.range(t..=t).next().filter(|x| *x.1 != producer_id) {
                return Err(format!("txn-first={o}: producer {other}'s open transaction already starts at offset {o}"));
            }
        }
        let meta = BatchMetadata { last_seq, last_offset: base_offset + delta as i64, offset_delta: delta, timestamp };
        debug_assert_eq!(meta.first_seq(), first_seq);
        self.load_producer_state(producer_id, epoch, -1, timestamp, txn_first, [meta]);
        self.expired.remove(&producer_id);
        self.log_end_offset = self.log_end_offset.max(meta.last_offset + 1);
        self.keep_snapshot();
        Ok(())
    }

    /// The leader's decision for a client Produce of `bytes` (one v2 batch). On success
    /// the batch is written with its offsets assigned.
    pub fn append_client(&mut self, bytes: &[u8]) -> Decision {
        self.append_client_verdict(bytes).decision(&self.name)
    }

    /// [`Partition::append_client`] with the explanation kept as data ([`Verdict`]): the same
    /// decision and the same write, the sentence rendered only when asked for
    /// ([`Verdict::decision`]). The model's hot path.
    pub fn append_client_verdict(&mut self, bytes: &[u8]) -> Verdict {
        self.append_client_verified(bytes, false)
    }

    /// [`Partition::append_client_verdict`] for a transactional batch that went through the
    /// leader's TV2 verification (`tv2_verified`: a `VerificationStateEntry` with
    /// `supportsEpochBump`, made for a Produce v12+ whose transaction was not yet open here),
    /// where A4 applies: with no retained batch for the producer, only sequence 0 is accepted
    /// (KAFKA-18202, Kafka 4.1+).
    pub fn append_client_verified(&mut self, bytes: &[u8], tv2_verified: bool) -> Verdict {
        let b = match checked_batch(bytes) {
            Ok(b) => b,
            Err(v) => return v,
        };
        let pid = b.producer_id();
        let epoch = b.producer_epoch();
        let first_seq = b.base_sequence();
        let last_seq = b.last_sequence();
        let txn = b.attributes().is_transactional();
        let max_ts = b.max_timestamp();
        let delta = b.last_offset_delta();
        if b.attributes().is_control() {
            return Verdict::Control;
        }
        if pid < 0 {
            // No producer id: not idempotent, no producer-state checks at all.
            let (base, _) = self.write(bytes, delta);
            return Verdict::NotIdempotent { base_offset: base, delta };
        }
        if first_seq < 0 {
            return Verdict::InvalidSequence { sequence: first_seq, producer_id: pid };
        }

        // The producer's entry as it stands (no entry: `ProducerStateEntry::empty`).
        let (exists, state_epoch, expected, txn_open, dup, no_batches) = match self.producers.get(&pid) {
            Some(e) => (true, e.producer_epoch, e.last_seq(), e.current_txn_first_offset.is_some(), e.find_duplicate(epoch, first_seq, last_seq), e.batches.is_empty()),
            None => (false, NO_PRODUCER_EPOCH, -1, false, None, true),
        };
        let leo = self.log_end_offset;
        // A1: duplicate of a retained batch (UnifiedLog.analyzeAndValidateProducerState,
        // ProducerStateEntry.findDuplicateBatch).
        if let Some(dup) = dup {
            return Verdict::Duplicate { producer_id: pid, epoch, first_seq, last_seq, base_offset: dup.first_offset(), delta: dup.offset_delta };
        }
        let known = exists && state_epoch != NO_PRODUCER_EPOCH;
        // A2: a transactional batch needs an open transaction at this epoch.
        if txn && !(txn_open && state_epoch == epoch) && known && epoch < state_epoch {
            return Verdict::StaleTxnEpoch { producer_id: pid, log_end_offset: leo, epoch, last_epoch: state_epoch };
        }
        // A3: epoch fencing.
        if known && epoch < state_epoch {
            return Verdict::StaleEpoch { producer_id: pid, log_end_offset: leo, epoch, last_epoch: state_epoch };
        }
        // A4: a TV2-verified transactional batch with no retained batch for its producer (a new
        // producer, or the epoch a TV2 marker just bumped) must start at sequence 0
        // (ProducerAppendInfo.checkSequence, KAFKA-18202).
        let verification = self.verifications.get(&pid).copied();
        if (tv2_verified || verification.is_some_and(|v| v.supports_epoch_bump)) && first_seq != 0 && no_batches {
            return Verdict::Tv2FirstNotZero { producer_id: pid, log_end_offset: leo, first_seq };
        }
        // A5: while a verification entry exists, no batch of this producer may start above the
        // lowest sequence it was started with (ProducerAppendInfo.checkSequence, "earliest seen
        // sequence") — even one that joins a transaction already open here, and even after the
        // coordinator refused that verification.
        if let Some(v) = verification.filter(|v| first_seq > v.lowest_seq) {
            return Verdict::AboveVerifiedSequence { producer_id: pid, log_end_offset: leo, first_seq, lowest: v.lowest_seq };
        }
        if known && epoch != state_epoch {
            // A6: a new epoch must start at sequence 0.
            if first_seq != 0 {
                return Verdict::NewEpochNotAtZero { producer_id: pid, log_end_offset: leo, first_seq, epoch };
            }
        } else if known {
            // A7: same epoch: the next sequence after the last retained batch.
            let in_seq = first_seq as i64 == expected as i64 + 1 || (first_seq == 0 && expected == i32::MAX);
            if !in_seq {
                return Verdict::OutOfOrder { producer_id: pid, log_end_offset: leo, first_seq, expected };
            }
        }
        // A9: a non-transactional write while this producer has a transaction open.
        if txn_open && !txn {
            return Verdict::TxnExpected { producer_id: pid, log_end_offset: leo };
        }
        // A8 (+ A10): record it.
        let base = self.record_batch(bytes, pid, epoch, txn, BatchMetadata { last_seq, last_offset: 0, offset_delta: delta, timestamp: max_ts });
        if !known {
            let expired = self.expired.remove(&pid);
            Verdict::UnknownProducer { producer_id: pid, first_seq, last_seq, base_offset: base, delta, expired }
        } else if exists && state_epoch != epoch {
            Verdict::NewEpoch { producer_id: pid, epoch, base_offset: base, delta }
        } else {
            Verdict::InOrder { first_seq, base_offset: base, delta, after_marker: expected == -1 }
        }
    }

    /// The leader's decision for a batch the group coordinator writes to its own partition
    /// (origin COORDINATOR: `CoordinatorRuntime` appends a TxnOffsetCommit's offsets as a
    /// transactional batch of the producer, base sequence 0 every time). Only the epoch is
    /// checked (A2/A3, `ProducerAppendInfo.checkProducerEpoch`) and a plain write inside an
    /// open transaction refused (A9): no duplicate check (A1, `UnifiedLog` runs it for origin
    /// CLIENT only) and no sequence check (A4–A7, `maybeValidateDataBatch`), so a retried
    /// TxnOffsetCommit is written again (A8: coordinator-written batches skip the sequence checks).
    pub fn append_coordinator_verdict(&mut self, bytes: &[u8]) -> Verdict {
        let b = match checked_batch(bytes) {
            Ok(b) => b,
            Err(v) => return v,
        };
        let (pid, epoch, txn, delta, last_seq, max_ts) = (b.producer_id(), b.producer_epoch(), b.attributes().is_transactional(), b.last_offset_delta(), b.last_sequence(), b.max_timestamp());
        if pid < 0 {
            let (base, _) = self.write(bytes, delta);
            return Verdict::NotIdempotent { base_offset: base, delta };
        }
        let leo = self.log_end_offset;
        let (state_epoch, txn_open) = self.producers.get(&pid).map_or((NO_PRODUCER_EPOCH, false), |e| (e.producer_epoch, e.current_txn_first_offset.is_some()));
        if state_epoch != NO_PRODUCER_EPOCH && epoch < state_epoch {
            return if txn {
                Verdict::StaleTxnEpoch { producer_id: pid, log_end_offset: leo, epoch, last_epoch: state_epoch }
            } else {
                Verdict::StaleEpoch { producer_id: pid, log_end_offset: leo, epoch, last_epoch: state_epoch }
            };
        }
        if txn_open && !txn {
            return Verdict::TxnExpected { producer_id: pid, log_end_offset: leo };
        }
        let base = self.record_batch(bytes, pid, epoch, txn, BatchMetadata { last_seq, last_offset: 0, offset_delta: delta, timestamp: max_ts });
        Verdict::CoordinatorWrite { producer_id: pid, base_offset: base, delta }
    }

    /// A8 + A10: the batch written at the log end and recorded in producer `pid`'s entry
    /// (`meta` with its offsets filled in); a transactional batch clears the producer's
    /// verification entry and, first of its transaction here, opens it. Returns its base offset.
    fn record_batch(&mut self, bytes: &[u8], pid: i64, epoch: i16, txn: bool, meta: BatchMetadata) -> i64 {
        let (base, last) = self.write(bytes, meta.offset_delta);
        if txn {
            self.clear_verification(pid, epoch, false);
        }
        let s = self.producers.entry(pid).or_insert_with(ProducerStateEntry::empty);
        s.add_batch(epoch, BatchMetadata { last_offset: last, ..meta });
        if txn && s.current_txn_first_offset.is_none() {
            // A10: the first transactional batch opens the transaction on this partition.
            s.current_txn_first_offset = Some(base);
            self.ongoing_txns.insert(base, pid);
        }
        base
    }

    /// Write the batch at the log end (the leader's `setLastOffset` and
    /// `setPartitionLeaderEpoch`; neither is covered by the CRC).
    fn write(&mut self, bytes: &[u8], delta: i32) -> (i64, i64) {
        self.write_vec(bytes.to_vec(), delta)
    }

    /// [`Partition::write`] of a buffer the caller hands over (no copy).
    fn write_vec(&mut self, mut stored: Vec<u8>, delta: i32) -> (i64, i64) {
        let base = self.log_end_offset;
        let mut v = Batch::new_unchecked(&mut stored[..]);
        v.set_base_offset(base);
        v.set_partition_leader_epoch(self.leader_epoch);
        self.log.push(LogEntry { base_offset: base, bytes: stored });
        let last = base + delta as i64;
        self.log_end_offset = last + 1;
        (base, last)
    }

    /// X1 (`ProducerStateManager.removeExpiredProducers`): drop every producer without an
    /// open transaction whose last record timestamp is at least
    /// `producer.id.expiration.ms` before `now_ms`. Returns the removed ids.
    pub fn remove_expired_producers(&mut self, now_ms: i64) -> Vec<i64> {
        let ttl = self.producer_id_expiration_ms;
        let expired: Vec<i64> = self
            .producers
            .iter()
            .filter(|(_, s)| s.current_txn_first_offset.is_none() && now_ms - s.last_timestamp >= ttl)
            .map(|(&pid, _)| pid)
            .collect();
        for pid in &expired {
            self.producers.remove(pid);
            self.expired.insert(*pid);
        }
        self.verifications.retain(|_, v| now_ms - v.at_ms < ttl);
        expired
    }

    /// The earliest time at which [`Partition::remove_expired_producers`] would remove anything
    /// (a producer entry without an open transaction, or a verification entry), if any.
    pub fn next_expiry(&self) -> Option<i64> {
        let ttl = self.producer_id_expiration_ms;
        let producers = self.producers.values().filter(|s| s.current_txn_first_offset.is_none()).map(|s| s.last_timestamp.saturating_add(ttl));
        let verifications = self.verifications.values().map(|v| v.at_ms.saturating_add(ttl));
        producers.chain(verifications).min()
    }

    /// Number of producer-state entries held (the broker memory the PID-per-request
    /// anti-pattern fills).
    pub fn producer_count(&self) -> usize {
        self.producers.len()
    }
}


/// Which marker rule applies (M1/M2): TV0/TV1 markers carry the
/// transaction's epoch; TV2 markers carry the coordinator's bumped epoch.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MarkerVersion {
    Tv1,
    Tv2,
}

/// A marker decision as data (M1–M4): which rule fired and the numbers its sentence needs;
/// the partition's name is supplied when rendering ([`MarkerVerdict::why`]). No allocation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MarkerVerdict {
    /// M1: a TV0/TV1 marker older than the producer's epoch.
    StaleEpoch { producer_id: i64, marker_epoch: i16, epoch: i16 },
    /// M2: a TV2 marker that does not carry a bumped epoch.
    NotBumped { marker_epoch: i16, epoch: i16 },
    /// M3: a marker from an older coordinator epoch.
    ZombieCoordinator { coordinator_epoch: i32, seen: i32 },
    /// M4 (M6): written at `offset`, completing the transaction that opened at `first`.
    /// `again`: the producer's epoch equals the marker's and no transaction is open here — a
    /// marker sent again (a new coordinator re-sending after failover, K6, or a retried or
    /// admin marker); the epoch check that let it through is M1 (TV0/TV1) or M2's exception
    /// (TV2, 4.3.1's `ProducerAppendInfo.checkProducerEpoch`), and it is written again.
    Written { producer_id: i64, commit: bool, offset: i64, first: Option<i64>, again: Option<MarkerVersion> },
}

impl MarkerVerdict {
    /// Appended, or rejected with an error.
    pub fn outcome(&self) -> Outcome {
        match *self {
            MarkerVerdict::Written { offset, .. } => Outcome::Appended { base_offset: offset, last_offset: offset },
            _ => Outcome::Rejected(self.error()),
        }
    }

    /// The error code the WriteTxnMarkers response carries for this partition.
    pub fn error(&self) -> ErrorCode {
        match self {
            MarkerVerdict::StaleEpoch { .. } | MarkerVerdict::NotBumped { .. } => ErrorCode::INVALID_PRODUCER_EPOCH,
            MarkerVerdict::ZombieCoordinator { .. } => ErrorCode::TRANSACTION_COORDINATOR_FENCED,
            MarkerVerdict::Written { .. } => ErrorCode::NONE,
        }
    }

    /// Rule id in the rule catalogue (M1 … M4).
    pub fn rule(&self) -> &'static str {
        match self {
            MarkerVerdict::StaleEpoch { .. } => "M1",
            MarkerVerdict::NotBumped { .. } => "M2",
            MarkerVerdict::ZombieCoordinator { .. } => "M3",
            MarkerVerdict::Written { again: Some(MarkerVersion::Tv1), .. } => "M1",
            MarkerVerdict::Written { again: Some(MarkerVersion::Tv2), .. } => "M2",
            MarkerVerdict::Written { .. } => "M4",
        }
    }

    /// Kafka source file the rule comes from.
    pub fn source(&self) -> &'static str {
        PRODUCER_APPEND_INFO
    }

    /// The decision with its sentence, as the leader of `partition` explains it.
    pub fn decision(&self, partition: &str) -> Decision {
        Decision { outcome: self.outcome(), rule: self.rule(), why: self.why(partition), source: self.source() }
    }

    /// The sentence, for the leader of `partition`.
    pub fn why(&self, partition: &str) -> String {
        match *self {
            MarkerVerdict::StaleEpoch { producer_id, marker_epoch, epoch } => {
                format!("marker epoch {marker_epoch} is older than producer {producer_id}'s epoch {epoch} on {partition}")
            }
            MarkerVerdict::NotBumped { marker_epoch, epoch } if marker_epoch == epoch => format!(
                "a transactions-V2 marker must carry an epoch above the producer's ({epoch}) while its transaction is open here, got {marker_epoch}"
            ),
            MarkerVerdict::NotBumped { marker_epoch, epoch } => {
                format!("a transactions-V2 marker must carry an epoch above the producer's ({epoch}), got {marker_epoch}")
            }
            MarkerVerdict::ZombieCoordinator { coordinator_epoch, seen } => format!(
                "marker from coordinator epoch {coordinator_epoch}, but this partition has seen coordinator epoch {seen}: a zombie coordinator"
            ),
            MarkerVerdict::Written { producer_id, commit, offset, first, again } => {
                let mut why = format!("{} marker for producer {producer_id} written at offset {offset}", if commit { "COMMIT" } else { "ABORT" });
                match again {
                    Some(MarkerVersion::Tv1) => why.push_str(": its epoch is the producer's (not older, M1) and no transaction of it is open here — a marker sent again (or for a partition this transaction wrote nothing to) is written like any other; nothing is completed"),
                    Some(MarkerVersion::Tv2) => why.push_str(": a transactions-V2 marker at the producer's epoch with no transaction open here is a retried marker (M2's exception, KAFKA-19999 in 4.3.1) and is written again; nothing is completed"),
                    None => {}
                }
                match first {
                    Some(first) if !commit => why.push_str(&format!("; offsets {first}..{offset} recorded in the transaction index as aborted")),
                    Some(first) => why.push_str(&format!("; the transaction's records from offset {first} become visible to read_committed consumers")),
                    None if again.is_some() => {}
                    None => why.push_str("; no open transaction here, so nothing is completed (an empty transaction on this partition)"),
                }
                why
            }
        }
    }
}


impl Partition {
    /// High watermark: the smallest log end offset in the ISR (S1); with one replica, the LEO.
    pub fn high_watermark(&self) -> i64 {
        self.isr_high_watermark()
    }

    /// L1–L2: the last stable offset: the first offset of the earliest open transaction
    /// if that is below the high watermark, else the high watermark.
    /// A transaction whose marker the HW has not passed is still unstable (S2).
    pub fn last_stable_offset(&self) -> i64 {
        let hw = self.high_watermark();
        let first = self.ongoing_txns.keys().next().copied();
        let unreplicated = if self.replicas.unreplicated.is_empty() { None } else { self.first_unreplicated(hw) };
        match first.into_iter().chain(unreplicated).min() {
            Some(first) if first < hw => first,
            _ => hw,
        }
    }

    /// A transaction marker written by the coordinator (WriteTxnMarkers, origin
    /// COORDINATOR): rules M1–M6 of the rule catalogue (`ProducerAppendInfo.appendEndTxnMarker`,
    /// `UnifiedLog`). The marker is a real control batch built by the codec.
    pub fn append_marker(
        &mut self,
        producer_id: i64,
        marker_epoch: i16,
        commit: bool,
        coordinator_epoch: i32,
        version: MarkerVersion,
        timestamp_ms: i64,
    ) -> Decision {
        self.append_marker_verdict(producer_id, marker_epoch, commit, coordinator_epoch, version, timestamp_ms).decision(&self.name)
    }

    /// [`Partition::append_marker`] with the explanation kept as data ([`MarkerVerdict`]): the
    /// same decision and the same write, the sentence rendered only when asked for.
    pub fn append_marker_verdict(
        &mut self,
        producer_id: i64,
        marker_epoch: i16,
        commit: bool,
        coordinator_epoch: i32,
        version: MarkerVersion,
        timestamp_ms: i64,
    ) -> MarkerVerdict {
        // The producer's entry as it stands (no entry: `ProducerStateEntry::empty`).
        let (state_epoch, state_coordinator_epoch, first) = match self.producers.get(&producer_id) {
            Some(s) => (s.producer_epoch, s.coordinator_epoch, s.current_txn_first_offset),
            None => (NO_PRODUCER_EPOCH, -1, None),
        };
        let known = state_epoch != NO_PRODUCER_EPOCH;
        match version {
            MarkerVersion::Tv1 if known && marker_epoch < state_epoch => {
                return MarkerVerdict::StaleEpoch { producer_id, marker_epoch, epoch: state_epoch };
            }
            // M2 (Kafka 4.2+, KIP-1228): a TV2 marker must carry a bumped epoch, except the
            // same epoch again when no transaction is open here (or at the epoch's maximum):
            // a retried marker, written again (KAFKA-19999; in 4.3.1's
            // `ProducerAppendInfo.checkProducerEpoch`, found by tests/kafka against a broker).
            MarkerVersion::Tv2
                if known
                    && (marker_epoch < state_epoch || (marker_epoch == state_epoch && first.is_some() && marker_epoch != i16::MAX)) =>
            {
                return MarkerVerdict::NotBumped { marker_epoch, epoch: state_epoch };
            }
            _ => {}
        }
        if coordinator_epoch < state_coordinator_epoch {
            return MarkerVerdict::ZombieCoordinator { coordinator_epoch, seen: state_coordinator_epoch };
        }
        let again = (known && marker_epoch == state_epoch && first.is_none()).then_some(version);
        let bytes = marker_bytes(producer_id, marker_epoch, commit, coordinator_epoch, timestamp_ms);
        let (offset, _) = self.write_vec(bytes, 0);
        self.clear_verification(producer_id, marker_epoch, true);
        // M4/M6: a completed transaction; an aborted one goes to the transaction index.
        if let Some(first) = first {
            self.ongoing_txns.remove(&first);
            self.note_completed_txn(first, offset);
            if !commit {
                let lso = self.ongoing_txns.keys().next().copied().unwrap_or(offset + 1);
                self.aborted_txns.push(AbortedTxn { producer_id, first_offset: first, last_offset: offset, last_stable_offset: lso });
            }
        }
        // M5
        self.expired.remove(&producer_id);
        let s = self.producers.entry(producer_id).or_insert_with(ProducerStateEntry::empty);
        if s.producer_epoch != marker_epoch {
            s.batches.clear();
            s.producer_epoch = marker_epoch;
        }
        s.coordinator_epoch = coordinator_epoch;
        s.current_txn_first_offset = None;
        s.last_timestamp = timestamp_ms;
        MarkerVerdict::Written { producer_id, commit, offset, first, again }
    }
}

/// The control batch of an end-transaction marker (`MemoryRecords.withEndTransactionMarker`),
/// written by the codec's one writer ([`crate::wire::write::BatchWriter::end_txn_marker`]).
fn marker_bytes(producer_id: i64, epoch: i16, commit: bool, coordinator_epoch: i32, timestamp_ms: i64) -> Vec<u8> {
    let ty = if commit { crate::control::ControlType::Commit } else { crate::control::ControlType::Abort };
    crate::wire::write::BatchWriter::end_txn_marker(producer_id, epoch, ty, coordinator_epoch, timestamp_ms)
}

/// Source cited for LSO decisions.
pub const LSO_SOURCE: &str = FIRST_UNSTABLE_OFFSET;

/// Source cited for expiry decisions.
pub const EXPIRY_SOURCE: &str = PRODUCER_STATE_MANAGER;

mod fetch;
mod replicas;
pub use fetch::*;
pub use replicas::{Election, Follower, Replicas, REPLICA_LAG_TIME_MAX_MS_DEFAULT};

#[cfg(test)]
mod tests;

/// The checks every batch a leader is asked to append meets before any producer-state check
/// (`UnifiedLog.analyzeAndValidateRecords`, `LogValidator.validateBatch`): B0–B2.
fn checked_batch(bytes: &[u8]) -> Result<Batch<&[u8]>, Verdict> {
    let Ok(b) = Batch::new_checked(bytes) else {
        return Err(Verdict::Short);
    };
    if b.magic() != 2 {
        return Err(Verdict::NotMagic2);
    }
    if b.base_offset() != 0 {
        return Err(Verdict::BaseOffset { base_offset: b.base_offset() });
    }
    if b.batch_length() as usize + 12 != bytes.len() || b.compute_crc() != b.crc() {
        return Err(Verdict::Corrupt { stored_crc: b.crc() });
    }
    let count = b.records_count();
    if count <= 0 || b.last_offset_delta() + 1 != count {
        return Err(Verdict::Inconsistent { count });
    }
    Ok(b)
}
