//! The cluster's side of the models: the partition leaders (each with its log, producer state,
//! transaction index and replicas), the clock, and the producer-id counter the coordinators'
//! `ProducerIdManager` hands ids from. One value holds it, and the models that act on the
//! cluster — the idempotent Java producer ([`super::idempotence::Sim`]) and the transactions
//! world ([`super::txn::World`]) — both read and change this one value: a world with idempotent
//! producers runs them on its own cluster, so their batches meet the same leaders, log and
//! producer state as the transactional producers' and the script's raw requests.

use alloc::vec::Vec;

use super::partition::Partition;

/// The partitions, the clock and the producer-id counter.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cluster {
    /// The model clock (ms).
    pub now_ms: i64,
    /// The data partitions' leaders, by index.
    pub partitions: Vec<Partition>,
    /// The id the next InitProducerId hands out.
    pub next_producer_id: i64,
}

impl Cluster {
    /// A cluster with no partitions yet, at `start_ms`, whose first InitProducerId hands out
    /// `first_producer_id`.
    pub fn new(start_ms: i64, first_producer_id: i64) -> Self {
        Cluster { now_ms: start_ms, partitions: Vec::new(), next_producer_id: first_producer_id }
    }

    /// Hand out the next producer id.
    pub fn alloc_producer_id(&mut self) -> i64 {
        let p = self.next_producer_id;
        self.next_producer_id += 1;
        p
    }
}
