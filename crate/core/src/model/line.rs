//! Which Kafka line the model answers for (`cluster kafka=4.1|4.3|trunk`, `eoslab run --kafka`).
//!
//! The model follows 4.3 by default. Where the rule catalogue lists a behaviour that differs by
//! line and the model shows it, the setting selects it, and each answer that depends on it
//! says which line it shows:
//! - WriteTxnMarkers v2 (KIP-1228, 4.2+) carries the transaction version of each marker, so a
//!   4.2+ leader applies M2 (a TV2 marker needs a bumped epoch) to TV2 transactions. A 4.0–4.1
//!   coordinator sends v1 for every transaction and its leaders apply M1 to all markers; a
//!   `marker … tv=2` request cannot be sent to a 4.1 broker at all.
//! - A TV2 EndTxn(COMMIT) at the retry epoch that finds the transaction CompleteAbort (a commit
//!   that raced the coordinator's own abort of a timed-out transaction) is INVALID_TXN_STATE up
//!   to 4.3 and PRODUCER_FENCED on trunk (KAFKA-20785, F5).

#[cfg(feature = "serde")]
use serde::{Deserialize, Serialize};

use super::partition::MarkerVersion;

/// A Kafka release line.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
pub enum KafkaLine {
    /// 4.0–4.1 (checked against 4.1.2).
    #[cfg_attr(feature = "serde", serde(rename = "4.1"))]
    K41,
    /// 4.2–4.3 (checked against 4.3.1); the default.
    #[default]
    #[cfg_attr(feature = "serde", serde(rename = "4.3"))]
    K43,
    /// The unreleased 4.4 line.
    #[cfg_attr(feature = "serde", serde(rename = "trunk"))]
    Trunk,
}

impl KafkaLine {
    /// `4.1`, `4.3` or `trunk` (also `4.0`, `4.2`, `4.4` for the line they belong to).
    pub fn parse(s: &str) -> Option<KafkaLine> {
        match s {
            "4.0" | "4.1" => Some(KafkaLine::K41),
            "4.2" | "4.3" => Some(KafkaLine::K43),
            "trunk" | "4.4" => Some(KafkaLine::Trunk),
            _ => None,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            KafkaLine::K41 => "4.1",
            KafkaLine::K43 => "4.3",
            KafkaLine::Trunk => "trunk",
        }
    }

    /// Whether this line's brokers speak WriteTxnMarkers v2 (KIP-1228, 4.2+).
    pub fn has_markers_v2(self) -> bool {
        self != KafkaLine::K41
    }

    /// The marker rule a leader of this line applies to the markers of a transaction whose
    /// client transaction version is `tv2` or not: M2 only where WriteTxnMarkers v2 carries it.
    pub fn marker_version(self, tv2: bool) -> MarkerVersion {
        if tv2 && self.has_markers_v2() {
            MarkerVersion::Tv2
        } else {
            MarkerVersion::Tv1
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_parse_and_choose_the_marker_rule() {
        assert_eq!(KafkaLine::parse("4.0"), Some(KafkaLine::K41));
        assert_eq!(KafkaLine::parse("4.2").map(KafkaLine::name), Some("4.3"));
        assert_eq!(KafkaLine::parse("3.9"), None);
        assert_eq!(KafkaLine::default(), KafkaLine::K43);
        // 4.1 has no WriteTxnMarkers v2: a TV2 transaction's markers are checked by M1.
        assert_eq!(KafkaLine::K41.marker_version(true), MarkerVersion::Tv1);
        assert_eq!(KafkaLine::K43.marker_version(true), MarkerVersion::Tv2);
        assert_eq!(KafkaLine::Trunk.marker_version(false), MarkerVersion::Tv1);
    }
}
