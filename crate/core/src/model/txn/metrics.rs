//! The model's counters, named as the Java client and the broker name them.

use super::*;

pub const METRIC_NAMES: [&str; 10] = [
    "txn-init-time-ns-total",
    "txn-begin-time-ns-total",
    "txn-send-offsets-time-ns-total",
    "txn-commit-time-ns-total",
    "txn-abort-time-ns-total",
    "end-txn-requests",
    "add-partitions-to-txn-requests",
    "write-txn-markers-requests",
    "fenced-producers",
    "txn-state-log-appends",
];

/// The model's counters, one slot per name of [`METRIC_NAMES`] (as the Java client and the
/// broker name them): counted without a map lookup, reported by name ([`Metrics::to_map`]).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Metrics(pub [i64; METRIC_NAMES.len()]);

impl Metrics {
    /// The counter named `name` (one of [`METRIC_NAMES`]).
    pub fn get(&self, name: &str) -> Option<i64> {
        METRIC_NAMES.iter().position(|m| *m == name).map(|k| self.0[k])
    }

    /// (name, value) in [`METRIC_NAMES`] order.
    pub fn iter(&self) -> impl Iterator<Item = (&'static str, i64)> + '_ {
        METRIC_NAMES.iter().copied().zip(self.0.iter().copied())
    }

    /// By name, as the state snapshot reports them.
    pub fn to_map(&self) -> BTreeMap<&'static str, i64> {
        self.iter().collect()
    }
}

/// A slot of [`Metrics`]: the index of its name in [`METRIC_NAMES`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Metric {
    InitTime = 0,
    BeginTime = 1,
    SendOffsetsTime = 2,
    CommitTime = 3,
    AbortTime = 4,
    EndTxnRequests = 5,
    AddPartitionsRequests = 6,
    WriteTxnMarkersRequests = 7,
    FencedProducers = 8,
    TxnStateLogAppends = 9,
}
