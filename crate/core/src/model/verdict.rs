//! A leader's decision kept as data ([`Verdict`]): which rule fired and the numbers its
//! explanation needs; the outcome, rule id and Kafka source follow from it. The sentence a
//! student reads is rendered only when a report or a ladder asks for it
//! ([`Verdict::decision`], [`Verdict::why`]), so a long run (the model's `repeat`) formats
//! no sentence per decision.
//!
//! [`super::partition::Partition::append_client`] still returns a [`Decision`] with its
//! sentence: it is [`super::partition::Partition::append_client_verdict`] rendered at once.
//!
//! # Rule ids
//!
//! One rule id means one rule everywhere, the rule catalogue's (`crate/core/src/rules.rs`):
//! A1–A10 the producer-state checks, X1–X2 expiry, M1–M6 markers; V is KIP-890 verification
//! and L the read path, so the leader's other checks have ids of their own, in letters no other
//! family uses:
//!
//! | id | decision | Kafka | was |
//! |---|---|---|---|
//! | B0 | not a magic 2 batch, or a client batch whose baseOffset is not 0 (INVALID_RECORD) | `UnifiedLog.analyzeAndValidateRecords` | V0 |
//! | B1 | shorter than a batch header, or length/CRC wrong (CORRUPT_MESSAGE) | `UnifiedLog.analyzeAndValidateRecords` | V1 |
//! | B2 | lastOffsetDelta and recordsCount disagree (INVALID_RECORD) | `LogValidator.validateBatch` | V2 |
//! | B3 | a client wrote a control batch (INVALID_RECORD) | `LogValidator.validateBatch` | V3 |
//! | B4 | a negative base sequence with a producer id (INVALID_RECORD) | `LogValidator.validateBatch` | V4 |
//! | B5 | producer id −1: appended without producer-state checks ("only batches with a pid run these checks") | `UnifiedLog.analyzeAndValidateProducerState` | A0 |
//! | N1 | the request reached a broker that is no longer the leader (NOT_LEADER_OR_FOLLOWER) | `ReplicaManager` | L1 |
//! | N2 | refused with a chosen error before any producer-state check (a fault the script injects) | `ReplicaManager` | L2 |
//! | H1 | FindCoordinator(TRANSACTION): `Utils.abs(transactionalId.hashCode()) % 50` picks the `__transaction_state` partition | `TransactionStateManager.partitionFor` | — |
//! | H2 | FindCoordinator(GROUP): the same on group.id over `__consumer_offsets` | `GroupCoordinatorService.partitionFor` | — |
//! | X2 | the first batch of a producer whose state this partition expired (X1): any sequence accepted, earlier batches no longer recognised as duplicates | `ProducerAppendInfo` | A6 |
//! | S1 | the HW is the smallest log end in the ISR; an acks=-1 answer waits for it (DelayedProduce: NONE once it passes the batch, REQUEST_TIMED_OUT after the request's timeout) | `Partition.maybeIncrementLeaderHW`, `DelayedProduce` | — |
//! | S2 | a completed transaction whose marker is above the HW is still unstable: the LSO waits | `ProducerStateManager.unreplicatedTxns` / `firstUnstableOffset` | — |
//! | S3 | the leader's ISR check (every `replica.lag.time.max.ms / 2`) drops a follower not caught up for longer than `replica.lag.time.max.ms` | `Partition.getOutOfSyncReplicas`, `Replica.isCaughtUp` | — |
//! | S4 | a follower that fetches to the log end rejoins the ISR | `Partition.maybeExpandIsr` | — |
//! | S5 | the controller elects the first live ISR replica, else (unclean.leader.election.enable) the first live replica | `PartitionChangeBuilder.electLeader` | — |
//! | S6 | the log is truncated to the new leader's end and its producer state rebuilt from what remains | `UnifiedLog.truncateTo`, `rebuildProducerState` | — |
//!
//! A6 keeps its meaning: a new epoch must start at sequence 0, and a producer this partition
//! has never seen (epoch −1) is accepted at any sequence (KIP-360). The old ids were
//! never part of the script language (an `expect` names outcomes and offsets, not rules), so
//! saved scripts run unchanged; [`legacy_rule_id`] maps an old id to its new one for anything
//! that stored them.

use alloc::string::String;
use core::fmt::{self, Write};

use super::errors::ErrorCode;
use crate::batch::HEADER_LEN;
use crate::sequence;
use super::kafka_source::{LOG_VALIDATOR, PRODUCER_APPEND_INFO, PRODUCER_STATE_ENTRY, REPLICA_MANAGER, UNIFIED_LOG};

/// `ProducerStateEntry.NUM_BATCHES_TO_RETAIN`.
pub const NUM_BATCHES_TO_RETAIN: usize = 5;

/// What the leader decided for one batch.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Written at these offsets.
    Appended { base_offset: i64, last_offset: i64 },
    /// Recognised as a retry of a retained batch: nothing written; the response is
    /// NONE(0) with the original offsets (a 4.x broker never answers
    /// DUPLICATE_SEQUENCE_NUMBER).
    Duplicate { base_offset: i64, last_offset: i64 },
    /// Refused with this error; nothing written.
    Rejected(ErrorCode),
}

/// A decision with the rule that fired, a sentence a student can read, and its source.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Decision {
    pub outcome: Outcome,
    /// Rule id in the rule catalogue (A1 … A10, X2, B0 …).
    pub rule: &'static str,
    pub why: String,
    /// Kafka source file (and method) the rule comes from.
    pub source: &'static str,
}

impl Decision {
    /// The error code the Produce response carries.
    pub fn error(&self) -> ErrorCode {
        match self.outcome {
            Outcome::Rejected(e) => e,
            _ => ErrorCode::NONE,
        }
    }
}


/// A leader's decision as data: one variant per rule outcome and sentence, with the numbers
/// the sentence needs (the partition's name is supplied when rendering). The outcome, the
/// rule id and the Kafka source follow from the variant ([`Verdict::outcome`],
/// [`Verdict::rule`], [`Verdict::source`]); 32 bytes, no allocation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// B1: shorter than a batch header.
    Short,
    /// B0: not a magic 2 batch.
    NotMagic2,
    /// B0: a client batch must have baseOffset 0.
    BaseOffset { base_offset: i64 },
    /// B1: length or CRC-32C wrong.
    Corrupt { stored_crc: u32 },
    /// B2: lastOffsetDelta and recordsCount disagree.
    Inconsistent { count: i32 },
    /// B3: a client wrote a control batch.
    Control,
    /// B5: producer id −1, appended without checks at `base_offset..=base_offset + delta`.
    NotIdempotent { base_offset: i64, delta: i32 },
    /// B4: a negative sequence with a producer id.
    InvalidSequence { sequence: i32, producer_id: i64 },
    /// A1: a retry of a retained batch, written at `base_offset..=base_offset + delta`.
    Duplicate { producer_id: i64, epoch: i16, first_seq: i32, last_seq: i32, base_offset: i64, delta: i32 },
    /// A2: a transactional batch with an epoch older than the last seen.
    StaleTxnEpoch { producer_id: i64, log_end_offset: i64, epoch: i16, last_epoch: i16 },
    /// A3: epoch fencing.
    StaleEpoch { producer_id: i64, log_end_offset: i64, epoch: i16, last_epoch: i16 },
    /// A4: a TV2-verified transactional batch, no retained batch for the producer, and a first
    /// sequence other than 0.
    Tv2FirstNotZero { producer_id: i64, log_end_offset: i64, first_seq: i32 },
    /// A5: a first sequence above the lowest one the producer's verification entry was
    /// started with.
    AboveVerifiedSequence { producer_id: i64, log_end_offset: i64, first_seq: i32, lowest: i32 },
    /// A6: a new epoch that does not start at sequence 0.
    NewEpochNotAtZero { producer_id: i64, log_end_offset: i64, first_seq: i32, epoch: i16 },
    /// A7: a gap (or a repeat that is not retained).
    OutOfOrder { producer_id: i64, log_end_offset: i64, first_seq: i32, expected: i32 },
    /// A9: a plain write while the producer's transaction is open.
    TxnExpected { producer_id: i64, log_end_offset: i64 },
    /// A6 (KIP-360): an unknown producer, any first sequence accepted; X2 when this partition
    /// knew it and its state expired (`expired`).
    UnknownProducer { producer_id: i64, first_seq: i32, last_seq: i32, base_offset: i64, delta: i32, expired: bool },
    /// A6: a new epoch starting at 0.
    NewEpoch { producer_id: i64, epoch: i16, base_offset: i64, delta: i32 },
    /// A7: the next sequence.
    /// `after_marker`: no batch was retained at this epoch (a transaction marker set the
    /// epoch and cleared them, M5), so the sequence starts at 0.
    InOrder { first_seq: i32, base_offset: i64, delta: i32, after_marker: bool },
    /// A8: a batch the group coordinator wrote (origin COORDINATOR): recorded without the
    /// duplicate and sequence checks (A1, A4–A7 are for client batches).
    CoordinatorWrite { producer_id: i64, base_offset: i64, delta: i32 },
    /// N1: the request reached a broker that is no longer the leader.
    NotLeader,
    /// N2: refused before any producer-state check.
    Refused { code: ErrorCode },
    /// R1: an acks=-1 answer held for the high watermark (DelayedProduce) that did not come
    /// within the request's timeout: REQUEST_TIMED_OUT, though the batch is in the log.
    ReplicationTimeout { need: i64 },
}

impl Verdict {
    /// Appended, duplicate (with the original offsets) or rejected with an error.
    pub fn outcome(&self) -> Outcome {
        use Verdict::*;
        match *self {
            NotIdempotent { base_offset, delta }
            | UnknownProducer { base_offset, delta, .. }
            | NewEpoch { base_offset, delta, .. }
            | InOrder { base_offset, delta, .. }
            | CoordinatorWrite { base_offset, delta, .. } => Outcome::Appended { base_offset, last_offset: base_offset + delta as i64 },
            Duplicate { base_offset, delta, .. } => Outcome::Duplicate { base_offset, last_offset: base_offset + delta as i64 },
            _ => Outcome::Rejected(self.error()),
        }
    }

    /// The error code the Produce response carries.
    pub fn error(&self) -> ErrorCode {
        use Verdict::*;
        match *self {
            Short | Corrupt { .. } => ErrorCode::CORRUPT_MESSAGE,
            NotMagic2 | BaseOffset { .. } | Inconsistent { .. } | Control | InvalidSequence { .. } => ErrorCode::INVALID_RECORD,
            StaleTxnEpoch { .. } | StaleEpoch { .. } => ErrorCode::INVALID_PRODUCER_EPOCH,
            Tv2FirstNotZero { .. } | AboveVerifiedSequence { .. } | NewEpochNotAtZero { .. } | OutOfOrder { .. } => ErrorCode::OUT_OF_ORDER_SEQUENCE_NUMBER,
            TxnExpected { .. } => ErrorCode::INVALID_TXN_STATE,
            NotLeader => ErrorCode::NOT_LEADER_OR_FOLLOWER,
            Refused { code } => code,
            ReplicationTimeout { .. } => ErrorCode::REQUEST_TIMED_OUT,
            NotIdempotent { .. } | Duplicate { .. } | UnknownProducer { .. } | NewEpoch { .. } | InOrder { .. } | CoordinatorWrite { .. } => ErrorCode::NONE,
        }
    }

    /// Rule id in the rule catalogue: A1 … A10, X2, or one of the ids the module docs add
    /// where the reference has none (B0 … B5, N1, N2).
    pub fn rule(&self) -> &'static str {
        use Verdict::*;
        match self {
            NotMagic2 | BaseOffset { .. } => "B0",
            Short | Corrupt { .. } => "B1",
            Inconsistent { .. } => "B2",
            Control => "B3",
            InvalidSequence { .. } => "B4",
            NotIdempotent { .. } => "B5",
            Duplicate { .. } => "A1",
            StaleTxnEpoch { .. } => "A2",
            StaleEpoch { .. } => "A3",
            Tv2FirstNotZero { .. } => "A4",
            AboveVerifiedSequence { .. } => "A5",
            UnknownProducer { expired: true, .. } => "X2",
            NewEpochNotAtZero { .. } | UnknownProducer { .. } | NewEpoch { .. } => "A6",
            OutOfOrder { .. } | InOrder { .. } => "A7",
            CoordinatorWrite { .. } => "A8",
            TxnExpected { .. } => "A9",
            NotLeader => "N1",
            Refused { .. } => "N2",
            ReplicationTimeout { .. } => "S1",
        }
    }

    /// Kafka source file the rule comes from.
    pub fn source(&self) -> &'static str {
        use Verdict::*;
        match self {
            Short | NotMagic2 | BaseOffset { .. } | Corrupt { .. } | NotIdempotent { .. } | StaleTxnEpoch { .. } => UNIFIED_LOG,
            Inconsistent { .. } | Control | InvalidSequence { .. } => LOG_VALIDATOR,
            Duplicate { .. } => PRODUCER_STATE_ENTRY,
            StaleEpoch { .. }
            | Tv2FirstNotZero { .. }
            | AboveVerifiedSequence { .. }
            | NewEpochNotAtZero { .. }
            | OutOfOrder { .. }
            | TxnExpected { .. }
            | UnknownProducer { .. }
            | NewEpoch { .. }
            | InOrder { .. }
            | CoordinatorWrite { .. } => PRODUCER_APPEND_INFO,
            NotLeader | Refused { .. } => REPLICA_MANAGER,
            ReplicationTimeout { .. } => super::kafka_source::DELAYED_PRODUCE,
        }
    }

    /// The decision with its sentence, as the leader of partition `partition` explains it.
    pub fn decision(&self, partition: &str) -> Decision {
        Decision { outcome: self.outcome(), rule: self.rule(), why: self.why(partition), source: self.source() }
    }

    /// The sentence, for the leader of `partition`.
    pub fn why(&self, partition: &str) -> String {
        let mut s = String::new();
        let _ = self.write_why(&mut s, partition);
        s
    }

    /// Write the sentence for the leader of `partition` to `out`.
    pub fn write_why(&self, out: &mut impl Write, partition: &str) -> fmt::Result {
        let name = partition;
        let last = match self.outcome() {
            Outcome::Appended { last_offset, .. } | Outcome::Duplicate { last_offset, .. } => last_offset,
            Outcome::Rejected(_) => 0,
        };
        match *self {
            Verdict::Short => write!(out, "a batch needs at least {HEADER_LEN} bytes"),
            Verdict::NotMagic2 => out.write_str("Produce v3+ carries magic 2 batches only"),
            Verdict::BaseOffset { base_offset } => {
                write!(out, "The baseOffset of the record batch in the append to {name} should be 0, but it is {base_offset}")
            }
            Verdict::Corrupt { stored_crc } => write!(out, "Record is corrupt (stored crc = {stored_crc}) in topic partition {name}."),
            Verdict::Inconsistent { count } => {
                write!(out, "Inconsistent batch offset range and count of records {count} (LogValidator.validateBatch)")
            }
            Verdict::Control => write!(out, "Clients are not allowed to write control records in topic partition {name}."),
            Verdict::NotIdempotent { base_offset: base, .. } => write!(
                out,
                "producerId −1: the producer is not idempotent, so the leader appends without any sequence check (a retry would be written again) at offsets {base}..{last}"
            ),
            Verdict::InvalidSequence { sequence, producer_id } => {
                write!(out, "Invalid sequence number {sequence} in record batch with producerId {producer_id}")
            }
            Verdict::Duplicate { producer_id: pid, epoch, first_seq, last_seq, base_offset, delta } => write!(
                out,
                "producer {pid} epoch {epoch} already wrote sequences {first_seq}..{last_seq}: one of the last {NUM_BATCHES_TO_RETAIN} batches it remembers. Nothing is written; the response is NONE with the original offsets {base_offset}..{}",
                base_offset + delta as i64
            ),
            Verdict::StaleTxnEpoch { producer_id: pid, log_end_offset, epoch, last_epoch } => write!(
                out,
                "Epoch of producer {pid} at offset {log_end_offset} is {epoch}, which is smaller than the last seen epoch {last_epoch}"
            ),
            Verdict::StaleEpoch { producer_id: pid, log_end_offset, epoch, last_epoch } => write!(
                out,
                "Epoch of producer {pid} at offset {log_end_offset} in {name} is {epoch}, which is smaller than the last seen epoch {last_epoch}: a zombie or a stale retry is refused"
            ),
            Verdict::Tv2FirstNotZero { producer_id: pid, log_end_offset, first_seq } => write!(
                out,
                "Invalid sequence number for producer {pid} at offset {log_end_offset} in partition {name}: {first_seq} (incoming seq. number). Expected sequence 0 for transactions v2 idempotent producer with no existing state."
            ),
            Verdict::AboveVerifiedSequence { producer_id: pid, log_end_offset, first_seq, lowest } => write!(
                out,
                "Out of order sequence number for producer {pid} at offset {log_end_offset} in partition {name}: {first_seq} (incoming seq. number), {lowest} (earliest seen sequence)"
            ),
            Verdict::NewEpochNotAtZero { producer_id: pid, log_end_offset, first_seq, epoch } => write!(
                out,
                "Out of order sequence number for producer {pid} at offset {log_end_offset} in partition {name}: {first_seq} (incoming seq. number), new epoch {epoch} must start at 0"
            ),
            Verdict::OutOfOrder { producer_id: pid, log_end_offset, first_seq, expected } => write!(
                out,
                "Out of order sequence number for producer {pid} at offset {log_end_offset} in partition {name}: {first_seq} (incoming seq. number), {expected} (current end sequence number)"
            ),
            Verdict::TxnExpected { producer_id: pid, log_end_offset } => {
                write!(out, "Expected transactional write from producer {pid} at offset {log_end_offset} in partition {name}")
            }
            Verdict::UnknownProducer { producer_id: pid, first_seq, last_seq, base_offset: base, expired: false, .. } => write!(
                out,
                "producer {pid} is unknown to this partition (new, or its state expired), so any first sequence is accepted (KIP-360): sequences {first_seq}..{last_seq} written at offsets {base}..{last}"
            ),
            Verdict::UnknownProducer { producer_id: pid, first_seq, last_seq, base_offset: base, expired: true, .. } => write!(
                out,
                "producer {pid}'s state on this partition expired (X1), so it is unknown again: any first sequence is accepted and its earlier batches are no longer recognised as duplicates: sequences {first_seq}..{last_seq} written at offsets {base}..{last}"
            ),
            Verdict::NewEpoch { producer_id: pid, epoch, base_offset: base, .. } => write!(
                out,
                "new epoch {epoch} for producer {pid} starting at sequence 0: the retained batches are cleared; written at offsets {base}..{last}"
            ),
            Verdict::InOrder { base_offset: base, after_marker: true, .. } => write!(
                out,
                "sequence 0 starts this epoch here: a transaction marker cleared the retained batches — in order; written at offsets {base}..{last}"
            ),
            Verdict::InOrder { first_seq, base_offset: base, .. } => write!(
                out,
                "sequence {first_seq} follows {} — in order; written at offsets {base}..{last}",
                sequence::decrement(first_seq, 1)
            ),
            Verdict::CoordinatorWrite { producer_id: pid, base_offset: base, .. } => write!(
                out,
                "written by the group coordinator for producer {pid} (origin COORDINATOR, sequence 0 every time): no duplicate check and no sequence check, only the epoch's; at offsets {base}..{last}"
            ),
            Verdict::NotLeader => {
                write!(out, "this broker is no longer the leader of {name} (leader epoch moved on): nothing written")
            }
            Verdict::Refused { code } => write!(
                out,
                "the leader refuses the request with {} before any producer-state check; nothing is written",
                code.name()
            ),
            Verdict::ReplicationTimeout { need } => write!(
                out,
                "acks=-1: the batch is in {name}'s log, but the high watermark did not reach {need} within the request's timeout (a follower in the ISR is behind): REQUEST_TIMED_OUT"
            ),
        }
    }
}

/// The rule id an older eoslab gave a leader decision, as today's id (module docs, "Rule
/// ids"); any other id is returned as it is. A6 stays A6: whether an old A6 was an append
/// after expiry (now X2) is not in the id.
pub fn legacy_rule_id(id: &str) -> &str {
    match id {
        "V0" => "B0",
        "V1" => "B1",
        "V2" => "B2",
        "V3" => "B3",
        "V4" => "B4",
        "A0" => "B5",
        "L1" => "N1",
        "L2" => "N2",
        other => other,
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn verdicts_and_trace_events_stay_small() {
        // A long run keeps hundreds of thousands of events: their size is the model's memory.
        assert!(core::mem::size_of::<super::Verdict>() <= 32);
        assert!(core::mem::size_of::<crate::model::idempotence::Event>() <= 80);
    }
}
