//! Kafka protocol error codes used by the models (`clients/.../common/protocol/Errors.java`),
//! declared once in [`ERROR_CODES`]' table: number, Kafka's name, the Java exception class and
//! whether it is a `RetriableException`. The constants, [`ErrorCode::name`],
//! [`ErrorCode::exception`], [`ErrorCode::is_retriable`] and [`ErrorCode::from_name`] are all
//! generated from it, so a new code is one line.

/// An `Errors` constant: numeric code, Kafka's name, and its Java exception.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ErrorCode(pub i16);

/// One row of the table: the code, Kafka's name, the exception class (`""` for NONE) and
/// whether the exception is retriable.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ErrorInfo {
    pub code: ErrorCode,
    pub name: &'static str,
    pub exception: &'static str,
    pub retriable: bool,
}

macro_rules! error_codes {
    ($( $(#[$doc:meta])* $name:ident = $code:literal, $exception:literal, $retriable:literal; )*) => {
        impl ErrorCode {
            $( $(#[$doc])* pub const $name: ErrorCode = ErrorCode($code); )*

            /// Kafka's name (`UNKNOWN_SERVER_ERROR` for a code the table lacks).
            pub fn name(self) -> &'static str {
                match self.0 {
                    $( $code => stringify!($name), )*
                    _ => "UNKNOWN_SERVER_ERROR",
                }
            }

            /// The Java exception class (`UnknownServerException` for a code the table lacks).
            pub fn exception(self) -> &'static str {
                match self.0 {
                    $( $code => $exception, )*
                    _ => "UnknownServerException",
                }
            }

            /// `RetriableException` subclasses.
            pub fn is_retriable(self) -> bool {
                match self.0 {
                    $( $code => $retriable, )*
                    _ => false,
                }
            }
        }

        /// Every code the models use, by number.
        pub const ERROR_CODES: &[ErrorInfo] = &[
            $( ErrorInfo { code: ErrorCode($code), name: stringify!($name), exception: $exception, retriable: $retriable }, )*
        ];
    };
}

error_codes! {
    NONE = 0, "", false;
    OFFSET_OUT_OF_RANGE = 1, "OffsetOutOfRangeException", false;
    CORRUPT_MESSAGE = 2, "CorruptRecordException", true;
    NOT_LEADER_OR_FOLLOWER = 6, "NotLeaderOrFollowerException", true;
    /// REQUEST_TIMED_OUT; a batch expired by `delivery.timeout.ms` also fails with TimeoutException.
    REQUEST_TIMED_OUT = 7, "TimeoutException", true;
    NETWORK_EXCEPTION = 13, "NetworkException", true;
    COORDINATOR_LOAD_IN_PROGRESS = 14, "CoordinatorLoadInProgressException", true;
    COORDINATOR_NOT_AVAILABLE = 15, "CoordinatorNotAvailableException", true;
    NOT_COORDINATOR = 16, "NotCoordinatorException", true;
    NOT_ENOUGH_REPLICAS = 19, "NotEnoughReplicasException", true;
    ILLEGAL_GENERATION = 22, "IllegalGenerationException", false;
    UNKNOWN_MEMBER_ID = 25, "UnknownMemberIdException", false;
    INVALID_REQUEST = 42, "InvalidRequestException", false;
    OUT_OF_ORDER_SEQUENCE_NUMBER = 45, "OutOfOrderSequenceException", false;
    DUPLICATE_SEQUENCE_NUMBER = 46, "DuplicateSequenceException", false;
    INVALID_PRODUCER_EPOCH = 47, "InvalidProducerEpochException", false;
    INVALID_TXN_STATE = 48, "InvalidTxnStateException", false;
    INVALID_PRODUCER_ID_MAPPING = 49, "InvalidPidMappingException", false;
    INVALID_TRANSACTION_TIMEOUT = 50, "InvalidTxnTimeoutException", false;
    CONCURRENT_TRANSACTIONS = 51, "ConcurrentTransactionsException", true;
    TRANSACTION_COORDINATOR_FENCED = 52, "TransactionCoordinatorFencedException", false;
    TRANSACTIONAL_ID_AUTHORIZATION_FAILED = 53, "TransactionalIdAuthorizationException", false;
    UNKNOWN_PRODUCER_ID = 59, "UnknownProducerIdException", false;
    FENCED_INSTANCE_ID = 82, "FencedInstanceIdException", false;
    INVALID_RECORD = 87, "InvalidRecordException", false;
    UNSTABLE_OFFSET_COMMIT = 88, "UnstableOffsetCommitException", true;
    PRODUCER_FENCED = 90, "ProducerFencedException", false;
    TRANSACTION_ABORTABLE = 120, "TransactionAbortableException", false;
}

impl ErrorCode {
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
        ERROR_CODES.iter().find(|e| e.name == s).map(|e| e.code)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_is_by_number_and_each_row_answers_for_itself() {
        assert!(ERROR_CODES.windows(2).all(|w| w[0].code < w[1].code), "one row per code, by number");
        for e in ERROR_CODES {
            assert_eq!((e.code.name(), e.code.exception(), e.code.is_retriable()), (e.name, e.exception, e.retriable));
            assert_eq!(ErrorCode::from_name(e.name), Some(e.code));
        }
        assert_eq!(ErrorCode(-1).name(), "UNKNOWN_SERVER_ERROR");
        assert_eq!(ErrorCode::from_name("NO_SUCH_ERROR"), None);
        // Errors.java: the retriable ones the models meet
        let retriable: Vec<i16> = ERROR_CODES.iter().filter(|e| e.retriable).map(|e| e.code.0).collect();
        assert_eq!(retriable, [2, 6, 7, 13, 14, 15, 16, 19, 51, 88]);
    }
}
