//! The rule catalogue: every rule id the models can cite, with one sentence for what Kafka
//! decides and the Kafka source that decides it. One id means one rule everywhere: in a
//! verdict, a timeline's `[A1]`, a scenario's comment, the views and the docs. The docs' rule
//! page is printed from this table (`eoslab rules --markdown`), and a test
//! (`tests/rule_catalogue.rs`) fails when any text in the repository cites an id that is not
//! here, or when an entry has no Kafka source.
//!
//! Families, by the part of Kafka that decides:
//! - the partition leader: B (a batch's own validity), A (the producer-state checks of an
//!   append), X (producer-state expiry), M (markers), V (KIP-890 verification and the TV2
//!   implicit add), N (answers given before any check), L (the read path), S (replication);
//! - the transaction coordinator: H (which broker coordinates), C0 (preconditions of every
//!   request), I (InitProducerId), AP (AddPartitionsToTxn), E (EndTxn, transaction versions 0
//!   and 1), F (EndTxn, version 2), K (the commit/abort pipeline and its markers), T (timeouts
//!   and expiry);
//! - the group coordinator: G (TxnOffsetCommit, OffsetFetch);
//! - the Java clients: C (what a transactional producer's call throws), R (the read_committed
//!   consumer's filter), P (the producer's config).
//!
//! Paths are in apache/kafka at 4.3.1 unless an entry says otherwise.

/// One rule of the catalogue.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rule {
    /// The id cited everywhere: `A1`, `AP8`, `C0b` …
    pub id: &'static str,
    /// What Kafka decides, in one or two sentences.
    pub rule: &'static str,
    /// Where Kafka decides it: a path in apache/kafka with the method, or a KIP.
    pub source: &'static str,
    /// Where Kafka lines differ on this rule (empty when 4.1, 4.3 and trunk agree).
    pub differs: &'static str,
}

/// A family of rules: its id prefix and what it covers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Family {
    pub prefix: &'static str,
    pub title: &'static str,
}

/// The families, in the order the catalogue lists them.
pub const FAMILIES: &[Family] = &[
    Family { prefix: "B", title: "Partition leader: is it a valid batch at all" },
    Family { prefix: "A", title: "Partition leader: the producer-state checks of an append" },
    Family { prefix: "X", title: "Partition leader: producer-state expiry" },
    Family { prefix: "M", title: "Partition leader: transaction markers" },
    Family { prefix: "V", title: "Partition leader: KIP-890 verification and the implicit add" },
    Family { prefix: "N", title: "Partition leader: answers given before any check" },
    Family { prefix: "L", title: "Partition leader: the read path and the LSO" },
    Family { prefix: "S", title: "Replication: HW, ISR and elections" },
    Family { prefix: "H", title: "Finding the coordinator" },
    Family { prefix: "C0", title: "Transaction coordinator: preconditions" },
    Family { prefix: "I", title: "Transaction coordinator: InitProducerId" },
    Family { prefix: "AP", title: "Transaction coordinator: AddPartitionsToTxn" },
    Family { prefix: "E", title: "Transaction coordinator: EndTxn with transaction version 0 or 1" },
    Family { prefix: "F", title: "Transaction coordinator: EndTxn with transaction version 2" },
    Family { prefix: "K", title: "Transaction coordinator: commit, abort and markers" },
    Family { prefix: "T", title: "Transaction coordinator: timeouts and expiry" },
    Family { prefix: "G", title: "Group coordinator: transactional offsets" },
    Family { prefix: "C", title: "Java producer: what a transactional call throws" },
    Family { prefix: "R", title: "Java consumer: read_committed filtering" },
    Family { prefix: "P", title: "Java producer: configuration" },
];

const UL: &str = "storage/src/main/java/org/apache/kafka/storage/internals/log/UnifiedLog.java";
const LV: &str = "storage/src/main/java/org/apache/kafka/storage/internals/log/LogValidator.java (validateBatch)";
const PAI: &str = "storage/src/main/java/org/apache/kafka/storage/internals/log/ProducerAppendInfo.java";
const RM: &str = "core/src/main/scala/kafka/server/ReplicaManager.scala";
const APTM: &str = "server/src/main/java/org/apache/kafka/server/transaction/AddPartitionsToTxnManager.java";
const TC: &str = "core/src/main/scala/kafka/coordinator/transaction/TransactionCoordinator.scala";
const TSM: &str = "core/src/main/scala/kafka/coordinator/transaction/TransactionStateManager.scala";
const TMCM: &str = "core/src/main/scala/kafka/coordinator/transaction/TransactionMarkerChannelManager.scala";
const TMRH: &str = "core/src/main/scala/kafka/coordinator/transaction/TransactionMarkerRequestCompletionHandler.scala";
const OMM: &str = "group-coordinator/src/main/java/org/apache/kafka/coordinator/group/OffsetMetadataManager.java";
const CFE: &str = "clients/src/main/java/org/apache/kafka/clients/consumer/internals/CompletedFetch.java";
const PC: &str = "clients/src/main/java/org/apache/kafka/clients/producer/ProducerConfig.java (postProcessAndValidateIdempotenceConfigs)";
const KAFKA_APIS: &str = "core/src/main/scala/kafka/server/KafkaApis.scala";

const fn r(id: &'static str, rule: &'static str, source: &'static str) -> Rule {
    Rule { id, rule, source, differs: "" }
}

const fn d(id: &'static str, rule: &'static str, source: &'static str, differs: &'static str) -> Rule {
    Rule { id, rule, source, differs }
}

/// Every rule, grouped by family in [`FAMILIES`]' order.
pub const RULES: &[Rule] = &[
    // B: the batch itself.
    r("B0", "A client batch must be magic 2 with baseOffset 0; otherwise INVALID_RECORD and nothing is written.", "storage/src/main/java/org/apache/kafka/storage/internals/log/UnifiedLog.java (analyzeAndValidateRecords)"),
    r("B1", "A batch shorter than its header, or whose length or CRC-32C is wrong, is CORRUPT_MESSAGE.", "storage/src/main/java/org/apache/kafka/storage/internals/log/UnifiedLog.java (analyzeAndValidateRecords)"),
    r("B2", "lastOffsetDelta must agree with the number of records; otherwise INVALID_RECORD.", LV),
    r("B3", "A client may not write a control batch; INVALID_RECORD.", LV),
    r("B4", "A batch with a producer id must not carry a negative base sequence; INVALID_RECORD.", LV),
    r("B5", "A batch without a producer id (-1) is appended without any producer-state check: no duplicate detection, no fencing.", "storage/src/main/java/org/apache/kafka/storage/internals/log/UnifiedLog.java (analyzeAndValidateProducerState)"),
    // A: producer-state checks, in the order the leader runs them.
    r("A1", "A duplicate: same epoch and exactly the first and last sequence of one of the five retained batches. Nothing is written; the answer is NONE with the original batch's offsets. Checked before every other producer check.", "storage/src/main/java/org/apache/kafka/storage/internals/log/ProducerStateEntry.java (findDuplicateBatch), UnifiedLog.append"),
    r("A2", "A transactional batch with no transaction open at its epoch: an older epoch than the producer's is INVALID_PRODUCER_EPOCH; otherwise, with verification on, a verification guard that does not match is INVALID_TXN_STATE.", UL),
    r("A3", "Epoch fencing: a batch whose epoch is older than the producer's current epoch is INVALID_PRODUCER_EPOCH, transactional or not.", "storage/src/main/java/org/apache/kafka/storage/internals/log/ProducerAppendInfo.java (checkProducerEpoch)"),
    d("A4", "A TV2 transactional batch the leader verified, from a producer with no retained batch on the partition (new, or right after a marker), must start at sequence 0; otherwise OUT_OF_ORDER_SEQUENCE_NUMBER.", "storage/src/main/java/org/apache/kafka/storage/internals/log/ProducerAppendInfo.java (checkSequence)", "from 4.1 (KAFKA-18202)."),
    r("A5", "The leader keeps a verification entry from the start of each verification or TV2 add (even one the coordinator refuses) until a transactional append clears it; meanwhile a batch of that producer above the entry's lowest sequence is OUT_OF_ORDER_SEQUENCE_NUMBER.", "storage/src/main/java/org/apache/kafka/storage/internals/log/ProducerAppendInfo.java, VerificationStateEntry.java"),
    r("A6", "A new (higher) epoch must start at sequence 0, or OUT_OF_ORDER_SEQUENCE_NUMBER; a producer the partition has no state for (epoch -1) is accepted at any sequence (KIP-360).", PAI),
    r("A7", "Same epoch: the batch is accepted only if its first sequence follows the last one (wrapping from 2147483647 to 0); otherwise OUT_OF_ORDER_SEQUENCE_NUMBER.", "storage/src/main/java/org/apache/kafka/storage/internals/log/ProducerAppendInfo.java (inSequence)"),
    r("A8", "An accepted batch is recorded: a new epoch clears the retained batches, the batch joins the five kept, and the producer's last timestamp moves on. Batches the coordinator writes (transactional offsets) skip the sequence checks.", "storage/src/main/java/org/apache/kafka/storage/internals/log/ProducerStateEntry.java (addBatch)"),
    r("A9", "A non-transactional batch from a producer with a transaction open on the partition is INVALID_TXN_STATE.", "storage/src/main/java/org/apache/kafka/storage/internals/log/ProducerAppendInfo.java (appendDataBatch)"),
    r("A10", "The first transactional batch opens the producer's transaction on the partition at its base offset; the LSO cannot pass it until a marker closes it.", "storage/src/main/java/org/apache/kafka/storage/internals/log/ProducerAppendInfo.java, ProducerStateManager.java"),
    // X: expiry.
    r("X1", "Every producer.id.expiration.check.interval.ms the leader removes producers with no open transaction whose last timestamp is at least producer.id.expiration.ms old.", "storage/src/main/java/org/apache/kafka/storage/internals/log/ProducerStateManager.java (removeExpiredProducers)"),
    r("X2", "After expiry the producer is unknown again: its next batch is accepted at any sequence and earlier batches are no longer recognised as duplicates.", PAI),
    // M: markers.
    r("M1", "A marker (transaction version 0 or 1, or WriteTxnMarkers v1) with an epoch older than the producer's is INVALID_PRODUCER_EPOCH.", "storage/src/main/java/org/apache/kafka/storage/internals/log/ProducerAppendInfo.java (appendEndTxnMarker)"),
    d("M2", "A TV2 marker (WriteTxnMarkers v2) must carry an epoch above the producer's; the same epoch with no transaction open on the partition is a retried marker and is written again; otherwise INVALID_PRODUCER_EPOCH.", "storage/src/main/java/org/apache/kafka/storage/internals/log/ProducerAppendInfo.java (checkProducerEpoch, appendEndTxnMarker), KIP-1228", "4.1 has no WriteTxnMarkers v2 and applies M1's rule to every marker."),
    r("M3", "A marker whose coordinator epoch is older than the one the producer's state holds is TRANSACTION_COORDINATOR_FENCED.", "storage/src/main/java/org/apache/kafka/storage/internals/log/ProducerAppendInfo.java (checkCoordinatorEpoch)"),
    r("M4", "A marker closes the producer's open transaction on the partition (first offset to the marker's offset); with none open it is written and closes nothing.", PAI),
    r("M5", "After a marker the producer's state takes the marker's epoch and coordinator epoch, and no transaction is open.", "storage/src/main/java/org/apache/kafka/storage/internals/log/ProducerStateEntry.java (update)"),
    r("M6", "An abort marker adds an entry to the transaction index: producer id, first offset, last offset and the LSO at that moment.", "storage/src/main/java/org/apache/kafka/storage/internals/log/UnifiedLog.java, ProducerStateManager.java, LogSegment.java, AbortedTxn.java"),
    // V: verification.
    r("V1", "The leader asks the coordinator only for a transactional batch of a producer with no transaction open on the partition at that epoch, and only with a transactional.id and verification enabled (or the TV2 add).", "core/src/main/scala/kafka/server/ReplicaManager.scala (maybeStartTransactionVerificationForPartition), UnifiedLog.java"),
    r("V2", "Before asking, a batch whose epoch is older than the producer's is refused INVALID_PRODUCER_EPOCH (KAFKA-18042); otherwise a verification entry with a fresh guard is kept.", "storage/src/main/java/org/apache/kafka/storage/internals/log/UnifiedLog.java (maybeStartTransactionVerification), VerificationStateEntry.java"),
    r("V3", "The coordinator's verify-only answer: no metadata or another producer id is INVALID_PRODUCER_ID_MAPPING, another epoch PRODUCER_FENCED, a completing transaction CONCURRENT_TRANSACTIONS, the partition in the transaction NONE, else TRANSACTION_ABORTABLE.", "core/src/main/scala/kafka/coordinator/transaction/TransactionCoordinator.scala (handleVerifyPartitionsInTransaction)"),
    r("V4", "Under TV2 the leader adds the partition itself (AddPartitionsToTxn v5 from the broker), answered by the AddPartitionsToTxn rules.", TC),
    r("V5", "The leader maps the coordinator's answer: PRODUCER_FENCED becomes INVALID_PRODUCER_EPOCH; TRANSACTION_ABORTABLE becomes INVALID_TXN_STATE for old clients; coordinator and network errors become NOT_ENOUGH_REPLICAS; CONCURRENT_TRANSACTIONS stays for TV2 and becomes NOT_ENOUGH_REPLICAS otherwise.", "server/src/main/java/org/apache/kafka/server/transaction/AddPartitionsToTxnManager.java, ReplicaManager.scala"),
    r("V6", "Under TV2 the leader retries an add answered CONCURRENT_TRANSACTIONS every 20 ms until 100 ms (or the request timeout) have passed, then answers what it has.", "core/src/main/scala/kafka/server/ReplicaManager.scala (maybeRetryOnConcurrentTransactions)"),
    r("V7", "One verification per transactional.id is queued per coordinator: a newer epoch fails the older request, the same epoch fails it with a network error, an older epoch fails the newcomer.", APTM),
    r("V8", "The append after a verification must present the same guard (A2); a marker in between replaces the entry, so a stale verification cannot open a transaction.", UL),
    r("V9", "A non-transactional batch from a producer with a transaction open on the partition is refused (the check of A9).", PAI),
    r("V10", "Under TV1 a late transactional batch at the same epoch, arriving after its transaction's marker, joins the next transaction if that one already added the partition; TV2's epoch bump per transaction closes this hole.", "KIP-890"),
    // N: before any check.
    r("N1", "The request reached a broker that is no longer the partition's leader: NOT_LEADER_OR_FOLLOWER.", RM),
    r("N2", "The answer was chosen by the script (an injected error): the request was not processed.", RM),
    // L: read path.
    r("L1", "The first unstable offset is the first offset of the earliest open transaction, or of the earliest completed one whose marker the HW has not passed.", "storage/src/main/java/org/apache/kafka/storage/internals/log/ProducerStateManager.java (firstUnstableOffset)"),
    r("L2", "The LSO is the first unstable offset when there is one below the HW, else the HW.", "storage/src/main/java/org/apache/kafka/storage/internals/log/ProducerStateManager.java (firstUnstableOffset), UnifiedLog.java"),
    r("L3", "An aborted transaction's index entry is 34 bytes: version 0, producer id, first offset, last offset (the marker) and the LSO, in the segment that holds the marker.", "storage/src/main/java/org/apache/kafka/storage/internals/log/AbortedTxn.java, TransactionIndex.java"),
    r("L4", "A read_committed Fetch returns records below the LSO, and the aborted transactions from the fetch offset up to the offset index's upper bound (so some that start at or beyond the LSO), in the transaction index's order; read_uncommitted returns records below the HW and no aborted list. A partition answered with an error carries HW and LSO -1.", "core/src/main/scala/kafka/server/ReplicaManager.scala (readFromLog), LocalLog.collectAbortedTransactions, OffsetIndex.fetchUpperBoundOffset"),
    r("L5", "ListOffsets LATEST is the LSO for read_committed and the HW for read_uncommitted.", "core/src/main/scala/kafka/server/ReplicaManager.scala (fetchOffsetForTimestamp)"),
    // S: replication.
    r("S1", "The HW is the smallest log end offset in the ISR, the leader's included; an acks=-1 answer waits for it: NONE once it passes the batch, REQUEST_TIMED_OUT after the request's timeout.", "core/src/main/scala/kafka/cluster/Partition.scala (maybeIncrementLeaderHW), DelayedProduce.scala"),
    r("S2", "A completed transaction whose marker is above the HW is still unstable: the LSO waits for the marker to be replicated.", "storage/src/main/java/org/apache/kafka/storage/internals/log/ProducerStateManager.java (unreplicatedTxns, onHighWatermarkUpdated)"),
    r("S3", "The leader's ISR check (every replica.lag.time.max.ms / 2) drops a follower that has not caught up for longer than replica.lag.time.max.ms.", "core/src/main/scala/kafka/cluster/Partition.scala (getOutOfSyncReplicas), Replica.isCaughtUp"),
    r("S4", "A follower that fetches up to the leader's log end rejoins the ISR.", "core/src/main/scala/kafka/cluster/Partition.scala (maybeExpandIsr)"),
    r("S5", "When the leader fails the controller elects the first live replica of the assignment that is in the ISR; with none, the first live replica if unclean.leader.election.enable is set, else no leader.", "metadata/src/main/java/org/apache/kafka/controller/PartitionChangeBuilder.java (electLeader)"),
    r("S6", "The new leader's log is the truth: other replicas truncate to it, its producer state is rebuilt from its own log, and the old leader's verification entries are gone.", "storage/src/main/java/org/apache/kafka/storage/internals/log/UnifiedLog.java (truncateTo, rebuildProducerState), TransactionIndex.truncateTo"),
    // H: finding the coordinator.
    r("H1", "FindCoordinator(TRANSACTION): the __transaction_state partition is Utils.abs(transactionalId.hashCode()) % 50, and its leader is the coordinator.", "transaction-coordinator/src/main/java/org/apache/kafka/coordinator/transaction/TransactionStateManager.java (partitionFor)"),
    r("H2", "FindCoordinator(GROUP): the same formula on group.id over __consumer_offsets.", "group-coordinator/src/main/java/org/apache/kafka/coordinator/group/GroupCoordinatorService.java (partitionFor)"),
    // C: coordinator preconditions.
    r("C0a", "The __transaction_state partition of the id is loading: COORDINATOR_LOAD_IN_PROGRESS.", "core/src/main/scala/kafka/coordinator/transaction/TransactionStateManager.scala (getTransactionState)"),
    r("C0b", "This broker does not (or no longer) lead the id's __transaction_state partition: NOT_COORDINATOR.", "core/src/main/scala/kafka/coordinator/transaction/TransactionStateManager.scala (getTransactionState)"),
    r("C0c", "FindCoordinator while __transaction_state has no leader yet: COORDINATOR_NOT_AVAILABLE.", KAFKA_APIS),
    r("C0d", "A failed write to __transaction_state abandons the transition: timeouts and too few replicas answer COORDINATOR_NOT_AVAILABLE, a lost leadership NOT_COORDINATOR.", "core/src/main/scala/kafka/coordinator/transaction/TransactionStateManager.scala (appendTransactionToLog)"),
    r("C0g", "Without WRITE on the transactional.id resource the request is TRANSACTIONAL_ID_AUTHORIZATION_FAILED.", KAFKA_APIS),
    // I: InitProducerId.
    r("I1", "Without a transactional.id (an idempotent producer): always NONE, a fresh producer id and epoch 0; nothing is stored.", "core/src/main/scala/kafka/coordinator/transaction/TransactionCoordinator.scala (handleInitProducerId)"),
    r("I2", "An empty transactional.id is INVALID_REQUEST.", TC),
    r("I3", "A transaction timeout of 0 or less, or above transaction.max.timeout.ms, is INVALID_TRANSACTION_TIMEOUT, before any state is looked up.", TC),
    r("I5", "A transactional.id with no metadata gets it: a new producer id, epoch -1, state Empty.", TC),
    r("I6", "A transition already in flight for the id: CONCURRENT_TRANSACTIONS.", TC),
    r("I7", "A request carrying a producer id and epoch (KIP-360) must match the current producer id (or the previous one at an exhausted epoch); otherwise PRODUCER_FENCED.", TC),
    r("I8", "While the previous transaction is completing: CONCURRENT_TRANSACTIONS.", TC),
    r("I9", "At epoch 32766 or above the coordinator rotates to a new producer id at epoch 0.", "transaction-coordinator/src/main/java/org/apache/kafka/coordinator/transaction/TransactionMetadata.java (isEpochExhausted), TransactionCoordinator.scala"),
    r("I10", "Empty or completed: the epoch is bumped (a retry of the same bump returns the current epoch unchanged), the state is Empty.", "transaction-coordinator/src/main/java/org/apache/kafka/coordinator/transaction/TransactionMetadata.java (prepareIncrementProducerEpoch)"),
    r("I11", "A transaction is ongoing: the coordinator fences it (epoch + 1), aborts it and answers CONCURRENT_TRANSACTIONS; the client's retry then gets the next epoch.", TC),
    r("I12", "A current state of Dead or PrepareEpochFence cannot happen: the coordinator throws (UNKNOWN_SERVER_ERROR).", TC),
    d("I13", "KIP-939's keepPreparedTxn and enable2Pc flags (InitProducerId v6) are outside this model.", "KIP-939", "keepPreparedTxn is UNSUPPORTED_VERSION in 4.1 to 4.3; trunk implements it."),
    // AP: AddPartitionsToTxn.
    r("AP1", "A null or empty transactional.id is INVALID_REQUEST.", TC),
    r("AP2", "No metadata for the id: INVALID_PRODUCER_ID_MAPPING.", TC),
    r("AP3", "A transition in flight (the previous transaction completing): CONCURRENT_TRANSACTIONS, checked before the producer id and epoch.", TC),
    r("AP4", "Another producer id: INVALID_PRODUCER_ID_MAPPING.", TC),
    r("AP5", "Another epoch: PRODUCER_FENCED.", TC),
    r("AP6", "PrepareCommit or PrepareAbort: CONCURRENT_TRANSACTIONS (in practice AP3 answers first).", TC),
    r("AP7", "Ongoing with every partition already added: NONE at once, nothing written.", TC),
    r("AP8", "Otherwise the transaction becomes Ongoing with the partitions added (its start time set when it was Empty or completed), written to __transaction_state, then NONE.", TC),
    // E: EndTxn, TV0/TV1.
    r("E0", "An empty id is INVALID_REQUEST; no metadata or another producer id is INVALID_PRODUCER_ID_MAPPING.", "core/src/main/scala/kafka/coordinator/transaction/TransactionCoordinator.scala (endTransactionWithTV1)"),
    r("E1", "A client's epoch other than the current one is PRODUCER_FENCED.", TC),
    r("E2", "A transition in flight: CONCURRENT_TRANSACTIONS.", TC),
    r("E3", "Ongoing: PrepareCommit or PrepareAbort is written at the same epoch, the client is answered NONE, then the markers go out.", TC),
    r("E4", "CompleteCommit: a commit again is NONE, an abort INVALID_TXN_STATE.", TC),
    r("E5", "CompleteAbort: an abort again is NONE, a commit INVALID_TXN_STATE.", TC),
    r("E6", "While the markers are written, a retry and the opposite request both get CONCURRENT_TRANSACTIONS.", TC),
    r("E7", "Empty, either result: INVALID_TXN_STATE.", TC),
    // F: EndTxn, TV2.
    r("F0", "An empty id is INVALID_REQUEST; no metadata is INVALID_PRODUCER_ID_MAPPING.", "core/src/main/scala/kafka/coordinator/transaction/TransactionCoordinator.scala (endTransaction)"),
    r("F1", "Another producer id (and not the retry of an epoch overflow) is INVALID_PRODUCER_ID_MAPPING.", TC),
    r("F2", "The epoch must be the current one (Ongoing, Empty), the retry epoch (Prepare*), or either (Complete*); otherwise PRODUCER_FENCED.", TC),
    r("F3", "A transition in flight: CONCURRENT_TRANSACTIONS.", TC),
    r("F4", "Ongoing: PrepareCommit or PrepareAbort is written at epoch + 1 and the client is answered NONE with the new epoch (at epoch 32766 or above, a new producer id at epoch 0); the markers carry the bumped epoch.", TC),
    d("F5", "Empty or completed: an abort at the current epoch bumps the epoch (an empty abort); a retry of the same result is NONE; the opposite result or a commit at the current epoch is INVALID_TXN_STATE.", TC, "trunk answers PRODUCER_FENCED to a commit at the retry epoch after an abort (KAFKA-20785); 4.3 answers INVALID_TXN_STATE."),
    r("F6", "While the markers are written, a retry epoch gets CONCURRENT_TRANSACTIONS and the client retries until the transaction is complete, then gets F5's answer.", TC),
    r("F7", "Any TV2 EndTxn arriving while the markers are written is CONCURRENT_TRANSACTIONS, before its producer id and epoch are checked (seen on 4.3.1 and 4.1.2).", TC),
    r("F8", "If the coordinator epoch changed during the write: NOT_COORDINATOR.", TC),
    // K: the pipeline.
    r("K1", "The client's EndTxn is answered right after PrepareCommit or PrepareAbort is written, before any marker.", TC),
    r("K2", "Markers go to each partition's leader: producer id, epoch (bumped under TV2), result and coordinator epoch; each leader decides its own.", TMCM),
    r("K3", "A commit marker on a __consumer_offsets partition makes the transaction's pending offsets the group's committed offsets; an abort discards them.", OMM),
    r("K4", "Per partition: NONE removes it from the transaction; leadership and replica errors are retried; INVALID_PRODUCER_EPOCH or TRANSACTION_COORDINATOR_FENCED stop the transaction's markers, and the transaction stays in Prepare* (never completed).", TMRH),
    r("K5", "When every partition has its marker, CompleteCommit or CompleteAbort is written.", TC),
    r("K6", "After a coordinator failover the new coordinator loads __transaction_state and sends the markers of every Prepare* transaction again, with its new coordinator epoch.", TSM),
    r("K7", "An admin abort (KIP-664) writes an abort marker straight to the partition with the producer's current epoch and coordinator epoch.", "tools/src/main/java/org/apache/kafka/tools/TransactionsCommand.java, KIP-664"),
    // T: timeouts and expiry.
    r("T1", "Every 10 s the coordinator finds Ongoing transactions whose start plus transaction.timeout.ms is in the past.", "core/src/main/scala/kafka/coordinator/transaction/TransactionStateManager.scala (timedOutTransactions)"),
    r("T2", "Each is fenced (epoch + 1) and aborted by the coordinator itself; the markers carry the new epoch.", "core/src/main/scala/kafka/coordinator/transaction/TransactionCoordinator.scala (abortTimedOutTransactions)"),
    d("T3", "The fenced producer's next coordinator request at the old epoch is PRODUCER_FENCED (TV2: its abort is taken as a retry and answered with the new epoch), and its batches at the old epoch are INVALID_PRODUCER_EPOCH.", TC, "trunk answers PRODUCER_FENCED to the TV2 commit at the old epoch (KAFKA-20785); 4.3 answers INVALID_TXN_STATE."),
    r("T4", "An Empty or completed transactional.id unused for transactional.id.expiration.ms becomes Dead and is removed; the next InitProducerId starts over with a new producer id.", "core/src/main/scala/kafka/coordinator/transaction/TransactionStateManager.scala (removeExpiredTransactionalIds)"),
    // G: group coordinator.
    r("G1", "A TxnOffsetCommit for an unknown group: generation -1 creates a simple group and is accepted; any other generation is ILLEGAL_GENERATION.", OMM),
    r("G2", "A known group checks the member: an unknown member is UNKNOWN_MEMBER_ID, a static member with another member id FENCED_INSTANCE_ID, another generation ILLEGAL_GENERATION.", "group-coordinator/src/main/java/org/apache/kafka/coordinator/group/OffsetMetadataManager.java (validateOffsetCommit)"),
    r("G3", "Before writing, the group coordinator verifies (v4 and below) or adds (v5, TV2) its __consumer_offsets partition to the transaction.", "group-coordinator/src/main/java/org/apache/kafka/coordinator/group/CoordinatorPartitionWriter.java (maybeStartTransactionVerification)"),
    r("G4", "Transactional offsets are pending until the commit marker reaches the group's partition; an abort discards them.", OMM),
    r("G5", "OffsetFetch with requireStable (read_committed consumers) for a partition with pending offsets is UNSTABLE_OFFSET_COMMIT; the consumer retries.", OMM),
    // C: the Java producer's transactional calls.
    r("C3", "A blocking call (initTransactions, sendOffsetsToTransaction, commitTransaction, abortTransaction) throws what its request's answer means; with no answer by max.block.ms it throws TimeoutException while the operation goes on, and only the same call may be made again.", "clients/src/main/java/org/apache/kafka/clients/producer/KafkaProducer.java (commitTransaction: TransactionalRequestResult.await(maxBlockTimeMs)), TransactionManager.java"),
    r("C6", "A call made after an error throws that error: in ABORTABLE_ERROR an InvalidProducerEpochException as itself and any other error wrapped in a KafkaException; in FATAL_ERROR (fenced) a ProducerFencedException.", "clients/src/main/java/org/apache/kafka/clients/producer/internals/TransactionManager.java (maybeFailWithError)"),
    r("C6.1", "A call the client's state does not allow (beginTransaction outside READY) throws IllegalStateException \"Invalid transition attempted\" and changes nothing.", "clients/src/main/java/org/apache/kafka/clients/producer/internals/TransactionManager.java (transitionTo)"),
    // R: the consumer.
    r("R1", "read_committed: the aborted transactions of a Fetch answer are queued by first offset; a transactional batch of an aborted producer in range is skipped.", CFE),
    r("R2", "An abort marker ends its producer's aborted range: later batches of that producer are read again.", CFE),
    r("R3", "Control batches are never given to the application; the position moves past them, so offsets can have gaps.", CFE),
    r("R4", "read_uncommitted returns aborted records too: nothing is filtered.", CFE),
    r("R5", "Markers and skipped records take offsets: consecutive records can have gaps and the position can pass the last record + 1.", CFE),
    // P: producer config.
    r("P1", "acks must be one of all, -1, 0, 1 (case-sensitive); all is stored as -1.", PC),
    r("P2", "Idempotence is enable.idempotence (default true); whether the user set it decides P3 and P4.", PC),
    r("P3", "With idempotence on, retries=0 is a ConfigException if idempotence was set explicitly, else it turns idempotence off.", PC),
    r("P4", "With idempotence on, acks other than all is a ConfigException if idempotence was set explicitly, else it turns idempotence off.", PC),
    d("P5", "With idempotence on, max.in.flight.requests.per.connection above 5 is a ConfigException even when idempotence was not set explicitly.", PC, "3.2 to 3.9 turned idempotence off instead when it was not explicit (KAFKA-17927 made it an error in 4.0)."),
    r("P6", "The decision to turn idempotence off is applied: enable.idempotence=false.", PC),
    r("P7", "A transactional.id with idempotence off is a ConfigException; an empty transactional.id fails its validator.", PC),
    r("P8", "transaction.two.phase.commit.enable=true together with a user-set transaction.timeout.ms is a ConfigException.", PC),
    r("P9", "With enable.idempotence=false none of P3 to P5 apply.", PC),
];

/// Old ids an earlier eoslab gave leader decisions, with today's: accepted where stored runs are
/// read, never cited.
pub const RENAMED: &[(&str, &str)] = &[("V0", "B0"), ("V1", "B1"), ("V2", "B2"), ("V3", "B3"), ("V4", "B4"), ("A0", "B5"), ("L1", "N1"), ("L2", "N2")];

/// The catalogue's entry for `id`.
pub fn find(id: &str) -> Option<&'static Rule> {
    RULES.iter().find(|r| r.id == id)
}

/// The words of `text` shaped like a rule id — a family's letters and a number up to 13, or
/// `C0` and a letter a–g (`A1`, `AP8`, `C0b`) — whether or not the catalogue has them: how the
/// docs find which rules a run cites, and how the catalogue's test finds every citation.
pub fn citations(text: &str) -> impl Iterator<Item = &str> {
    text.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '.')).map(|w| w.trim_matches('.')).filter(|w| shaped_like_id(w))
}

fn shaped_like_id(w: &str) -> bool {
    let b = w.as_bytes();
    let letters = b.iter().take_while(|c| c.is_ascii_uppercase()).count();
    let digits = b[letters..].iter().take_while(|c| c.is_ascii_digit()).count();
    let rest = &w[letters + digits..];
    let number_ok = (1..=2).contains(&digits) && w[letters..letters + digits].parse::<u32>().is_ok_and(|n| n <= 13);
    match &w[..letters] {
        // C0 and a letter a–g (the coordinator's preconditions); one digit, or C6.1 (the producer's calls).
        "C" => digits == 1 && (if b[letters] == b'0' { rest.len() == 1 && (b'a'..=b'g').contains(&rest.as_bytes()[0]) } else { rest.is_empty() || (rest.len() == 2 && rest.starts_with('.') && rest.as_bytes()[1].is_ascii_digit()) }),
        p => number_ok && rest.is_empty() && FAMILIES.iter().any(|f| f.prefix == p),
    }
}

/// The family an id belongs to.
pub fn family(id: &str) -> Option<&'static Family> {
    // The longest prefix followed by the id's number: `C0b` is C0's, `C6` is C's.
    FAMILIES.iter().filter(|f| id.strip_prefix(f.prefix).is_some_and(|rest| rest.starts_with(|c: char| c.is_ascii_alphanumeric()))).max_by_key(|f| f.prefix.len())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_unique_and_every_rule_is_in_a_family_with_a_source() {
        for (i, r) in RULES.iter().enumerate() {
            assert!(RULES[..i].iter().all(|o| o.id != r.id), "{} is listed twice", r.id);
            assert!(family(r.id).is_some(), "{} has no family", r.id);
            assert!(!r.source.trim().is_empty() && !r.rule.trim().is_empty(), "{} needs a rule and a source", r.id);
        }
    }

    #[test]
    fn the_shape_of_a_citation() {
        let found: alloc::vec::Vec<&str> = citations("the duplicate (A1), AP8 and C0b; A1–A10 [S6]. C6.1, 4.3.1 e.g. C6.").collect();
        assert_eq!(found, ["A1", "AP8", "C0b", "A1", "A10", "S6", "C6.1", "C6"]);
        assert_eq!(citations("i64 I64 B64 K41 base64 H1x A1b C0z C0 C6.12 Ab1 a1 D1 [0x7fffffff] A1.2").count(), 0);
        // Shaped like an id though the catalogue has none: its test reports such a word.
        assert!(shaped_like_id(concat!("T", "0")) && find(concat!("T", "0")).is_none());
    }

    #[test]
    fn families_are_listed_in_catalogue_order() {
        let order: alloc::vec::Vec<&str> = RULES.iter().map(|r| family(r.id).unwrap().prefix).collect();
        let mut firsts: alloc::vec::Vec<&str> = order.clone();
        firsts.dedup();
        let expected: alloc::vec::Vec<&str> = FAMILIES.iter().map(|f| f.prefix).collect();
        assert_eq!(firsts, expected, "each family's rules together, in FAMILIES' order");
    }
}
