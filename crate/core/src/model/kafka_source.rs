//! The Kafka sources the models cite, one constant each, defined once: the `source` of a
//! decision, an answer or a narration (paths in apache/kafka, with the method where it matters).

pub const COMPLETED_FETCH: &str = "clients/src/main/java/org/apache/kafka/clients/consumer/internals/CompletedFetch.java";
pub const FIRST_UNSTABLE_OFFSET: &str = "storage/src/main/java/org/apache/kafka/storage/internals/log/ProducerStateManager.java (firstUnstableOffset) and UnifiedLog.java";
pub const FIRST_UNSTABLE_OFFSET_SNAPSHOT: &str = "storage/src/main/java/org/apache/kafka/storage/internals/log/ProducerStateManager.java (firstUnstableOffset), UnifiedLog.fetchOffsetSnapshot";
pub const GROUP_COORDINATOR_PARTITION_FOR: &str = "group-coordinator/src/main/java/org/apache/kafka/coordinator/group/GroupCoordinatorService.java (partitionFor)";
pub const INIT_PRODUCER_ID_WITHOUT_TRANSACTIONAL_ID: &str = "core/src/main/scala/kafka/coordinator/transaction/TransactionCoordinator.scala (handleInitProducerId, transactionalId == null)";
pub const KAFKA_APIS_PRODUCE: &str = "core/src/main/scala/kafka/server/KafkaApis.scala (handleProduceRequest)";
pub const KIP_939: &str = "KIP-939 (transaction.two.phase.commit.enable)";
pub const LOG_INPUT_STREAM_NEXT_BATCH_SIZE: &str = "clients/src/main/java/org/apache/kafka/common/record/ByteBufferLogInputStream.java (nextBatchSize), iterated by ProduceRequest.validateRecords";
pub const LOG_VALIDATOR: &str = "storage/src/main/java/org/apache/kafka/storage/internals/log/LogValidator.java";
pub const OFFSET_METADATA_MANAGER: &str = "group-coordinator/src/main/java/org/apache/kafka/coordinator/group/OffsetMetadataManager.java";
pub const PRODUCER_APPEND_INFO: &str = "storage/src/main/java/org/apache/kafka/storage/internals/log/ProducerAppendInfo.java";
pub const PRODUCER_STATE_ENTRY: &str = "storage/src/main/java/org/apache/kafka/storage/internals/log/ProducerStateEntry.java";
pub const PRODUCER_STATE_MANAGER: &str = "storage/src/main/java/org/apache/kafka/storage/internals/log/ProducerStateManager.java";
pub const PRODUCE_REQUEST_VALIDATE_RECORDS: &str = "clients/src/main/java/org/apache/kafka/common/requests/ProduceRequest.java (validateRecords), called by KafkaApis.handleProduceRequest";
pub const REPLICA_MANAGER: &str = "core/src/main/scala/kafka/server/ReplicaManager.scala";
pub const REPLICA_MANAGER_OFFSET_FOR_TIMESTAMP: &str = "core/src/main/scala/kafka/server/ReplicaManager.scala (fetchOffsetForTimestamp: LATEST is the LSO for read_committed, the HW otherwise)";
pub const REPLICA_MANAGER_READ_FROM_LOG: &str = "core/src/main/scala/kafka/server/ReplicaManager.scala (readFromLog), LocalLog.collectAbortedTransactions";
pub const REPLICA_MANAGER_RETRY: &str = "core/src/main/scala/kafka/server/ReplicaManager.scala (appendRecordsWithTransactionVerification: maybeRetryOnConcurrentTransactions)";
pub const ADD_PARTITIONS_TO_TXN_MANAGER: &str = "server/src/main/java/org/apache/kafka/server/transaction/AddPartitionsToTxnManager.java (TransactionSupportedOperation; AddPartitionsToTxnHandler.onComplete maps the coordinator's answer)";
pub const REPLICA_MANAGER_VERIFICATION: &str = "core/src/main/scala/kafka/server/ReplicaManager.scala (maybeStartTransactionVerificationForPartition)";
pub const TRANSACTION_COORDINATOR: &str = "core/src/main/scala/kafka/coordinator/transaction/TransactionCoordinator.scala";
pub const TRANSACTION_COORDINATOR_PARTITION_FOR: &str = "transaction-coordinator/src/main/java/org/apache/kafka/coordinator/transaction/TransactionStateManager.java (partitionFor: Utils.abs(hashCode) % partitions)";
pub const TRANSACTION_MANAGER: &str = "clients/src/main/java/org/apache/kafka/clients/producer/internals/TransactionManager.java";
pub const TRANSACTION_MARKER_CHANNEL_MANAGER: &str = "core/src/main/scala/kafka/coordinator/transaction/TransactionMarkerChannelManager.scala";
pub const TRANSACTION_METADATA: &str = "transaction-coordinator/src/main/java/org/apache/kafka/coordinator/transaction/TransactionMetadata.java";
pub const TRANSACTION_STATE_MANAGER: &str = "core/src/main/scala/kafka/coordinator/transaction/TransactionStateManager.scala";
pub const TRANSACTION_VERSION: &str = "server-common/src/main/java/org/apache/kafka/server/common/TransactionVersion.java";
pub const UNIFIED_LOG: &str = "storage/src/main/java/org/apache/kafka/storage/internals/log/UnifiedLog.java";
pub const PARTITION_HW: &str = "core/src/main/scala/kafka/cluster/Partition.scala (maybeIncrementLeaderHW, maybeShrinkIsr / getOutOfSyncReplicas, maybeExpandIsr), Replica.isCaughtUp";
pub const PARTITION_CHANGE_BUILDER: &str = "metadata/src/main/java/org/apache/kafka/controller/PartitionChangeBuilder.java (electLeader), UnifiedLog.truncateTo (rebuildProducerState)";
pub const DELAYED_PRODUCE: &str = "core/src/main/scala/kafka/server/DelayedProduce.scala (tryComplete, onExpiration), Partition.checkEnoughReplicasReachOffset";
