//! Kafka protocol error codes used by the models (`clients/.../common/protocol/Errors.java`).

/// An `Errors` constant: numeric code, Kafka's name, and its Java exception.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ErrorCode(pub i16);

impl ErrorCode {
    pub const NONE: ErrorCode = ErrorCode(0);
    pub const CORRUPT_MESSAGE: ErrorCode = ErrorCode(2);
    pub const NOT_LEADER_OR_FOLLOWER: ErrorCode = ErrorCode(6);
    pub const NETWORK_EXCEPTION: ErrorCode = ErrorCode(13);
    pub const NOT_ENOUGH_REPLICAS: ErrorCode = ErrorCode(19);
    pub const OUT_OF_ORDER_SEQUENCE_NUMBER: ErrorCode = ErrorCode(45);
    pub const DUPLICATE_SEQUENCE_NUMBER: ErrorCode = ErrorCode(46);
    pub const INVALID_PRODUCER_EPOCH: ErrorCode = ErrorCode(47);
    pub const INVALID_TXN_STATE: ErrorCode = ErrorCode(48);
    pub const TRANSACTION_COORDINATOR_FENCED: ErrorCode = ErrorCode(52);
    pub const UNKNOWN_PRODUCER_ID: ErrorCode = ErrorCode(59);
    pub const INVALID_RECORD: ErrorCode = ErrorCode(87);
    pub const PRODUCER_FENCED: ErrorCode = ErrorCode(90);
    /// REQUEST_TIMED_OUT; a batch expired by `delivery.timeout.ms` also fails with TimeoutException.
    pub const REQUEST_TIMED_OUT: ErrorCode = ErrorCode(7);
    pub const ILLEGAL_GENERATION: ErrorCode = ErrorCode(22);
    pub const UNKNOWN_MEMBER_ID: ErrorCode = ErrorCode(25);
    pub const INVALID_REQUEST: ErrorCode = ErrorCode(42);
    pub const INVALID_PRODUCER_ID_MAPPING: ErrorCode = ErrorCode(49);
    pub const INVALID_TRANSACTION_TIMEOUT: ErrorCode = ErrorCode(50);
    pub const CONCURRENT_TRANSACTIONS: ErrorCode = ErrorCode(51);
    pub const UNSTABLE_OFFSET_COMMIT: ErrorCode = ErrorCode(88);
    pub const TRANSACTION_ABORTABLE: ErrorCode = ErrorCode(120);

    pub fn name(self) -> &'static str {
        match self.0 {
            0 => "NONE",
            2 => "CORRUPT_MESSAGE",
            6 => "NOT_LEADER_OR_FOLLOWER",
            7 => "REQUEST_TIMED_OUT",
            13 => "NETWORK_EXCEPTION",
            19 => "NOT_ENOUGH_REPLICAS",
            22 => "ILLEGAL_GENERATION",
            25 => "UNKNOWN_MEMBER_ID",
            42 => "INVALID_REQUEST",
            45 => "OUT_OF_ORDER_SEQUENCE_NUMBER",
            46 => "DUPLICATE_SEQUENCE_NUMBER",
            47 => "INVALID_PRODUCER_EPOCH",
            48 => "INVALID_TXN_STATE",
            49 => "INVALID_PRODUCER_ID_MAPPING",
            50 => "INVALID_TRANSACTION_TIMEOUT",
            51 => "CONCURRENT_TRANSACTIONS",
            52 => "TRANSACTION_COORDINATOR_FENCED",
            59 => "UNKNOWN_PRODUCER_ID",
            87 => "INVALID_RECORD",
            88 => "UNSTABLE_OFFSET_COMMIT",
            90 => "PRODUCER_FENCED",
            120 => "TRANSACTION_ABORTABLE",
            _ => "UNKNOWN_SERVER_ERROR",
        }
    }

    pub fn exception(self) -> &'static str {
        match self.0 {
            0 => "",
            2 => "CorruptRecordException",
            6 => "NotLeaderOrFollowerException",
            7 => "TimeoutException",
            13 => "NetworkException",
            19 => "NotEnoughReplicasException",
            22 => "IllegalGenerationException",
            25 => "UnknownMemberIdException",
            42 => "InvalidRequestException",
            45 => "OutOfOrderSequenceException",
            46 => "DuplicateSequenceException",
            47 => "InvalidProducerEpochException",
            48 => "InvalidTxnStateException",
            49 => "InvalidPidMappingException",
            50 => "InvalidTxnTimeoutException",
            51 => "ConcurrentTransactionsException",
            52 => "TransactionCoordinatorFencedException",
            59 => "UnknownProducerIdException",
            87 => "InvalidRecordException",
            88 => "UnstableOffsetCommitException",
            90 => "ProducerFencedException",
            120 => "TransactionAbortableException",
            _ => "UnknownServerException",
        }
    }

    /// `Errors.X.message()` (Kafka's `Errors.java`) for the codes a client call rethrows; the
    /// exception's name for the others.
    pub fn message(self) -> &'static str {
        match self.0 {
            22 => "Specified group generation id is not valid.",
            25 => "The coordinator is not aware of this member.",
            47 => "Producer attempted to produce with an old epoch.",
            48 => "The producer attempted a transactional operation in an invalid state.",
            49 => "The producer attempted to use a producer id which is not currently assigned to its transactional id.",
            50 => "The transaction timeout is larger than the maximum value allowed by the broker (as configured by transaction.max.timeout.ms).",
            51 => "The producer attempted to update a transaction while another concurrent operation on the same transaction was ongoing.",
            59 => "This exception is raised by the broker if it could not locate the producer metadata associated with the producerId in question. This could happen if, for instance, the producer's records were deleted because their retention time had elapsed. Once the last records of the producerId are removed, the producer's metadata is removed from the broker, and future appends by the producer will return this exception.",
            90 => "There is a newer producer with the same transactionalId which fences the current one.",
            _ => self.exception(),
        }
    }

    /// `RetriableException` subclasses.
    pub fn is_retriable(self) -> bool {
        matches!(self.0, 2 | 6 | 7 | 13 | 19 | 51 | 88)
    }
}

impl core::fmt::Display for ErrorCode {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "{}({})", self.name(), self.0)
    }
}

impl ErrorCode {
    /// Look a code up by Kafka's name (`OUT_OF_ORDER_SEQUENCE_NUMBER`) or number.
    pub fn from_name(s: &str) -> Option<ErrorCode> {
        if let Ok(n) = s.parse::<i16>() {
            return Some(ErrorCode(n));
        }
        [0i16, 2, 6, 7, 13, 19, 22, 25, 42, 45, 46, 47, 48, 49, 50, 51, 52, 59, 87, 88, 90, 120].into_iter().map(ErrorCode).find(|c| c.name() == s)
    }
}
