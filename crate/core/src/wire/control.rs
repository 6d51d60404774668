//! Control records (`clients/.../common/record/ControlRecordType.java`,
//! `EndTransactionMarker.java`; schemas `ControlRecordType.json`, `EndTxnMarker.json`;
//! KIP-98, KIP-595, KIP-630, KIP-853). Key: version int16 + type int16. COMMIT/ABORT
//! values: version int16 + coordinatorEpoch int32.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use crate::report::{kind, Control};

/// `ControlRecordType`, with its wire ids.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ControlType {
    Abort,
    Commit,
    LeaderChange,
    SnapshotHeader,
    SnapshotFooter,
    KraftVersion,
    KraftVoters,
    /// Any other id: Java maps it to `UNKNOWN` (−1) and ignores it.
    Unknown(i16),
}

impl ControlType {
    pub fn from_id(id: i16) -> Self {
        match id {
            0 => ControlType::Abort,
            1 => ControlType::Commit,
            2 => ControlType::LeaderChange,
            3 => ControlType::SnapshotHeader,
            4 => ControlType::SnapshotFooter,
            5 => ControlType::KraftVersion,
            6 => ControlType::KraftVoters,
            other => ControlType::Unknown(other),
        }
    }

    pub fn id(self) -> i16 {
        match self {
            ControlType::Abort => 0,
            ControlType::Commit => 1,
            ControlType::LeaderChange => 2,
            ControlType::SnapshotHeader => 3,
            ControlType::SnapshotFooter => 4,
            ControlType::KraftVersion => 5,
            ControlType::KraftVoters => 6,
            ControlType::Unknown(id) => id,
        }
    }

    /// Kafka's enum constant name.
    pub fn name(self) -> &'static str {
        match self {
            ControlType::Abort => "ABORT",
            ControlType::Commit => "COMMIT",
            ControlType::LeaderChange => "LEADER_CHANGE",
            ControlType::SnapshotHeader => "SNAPSHOT_HEADER",
            ControlType::SnapshotFooter => "SNAPSHOT_FOOTER",
            ControlType::KraftVersion => "KRAFT_VERSION",
            ControlType::KraftVoters => "KRAFT_VOTERS",
            ControlType::Unknown(_) => "UNKNOWN",
        }
    }

    pub fn from_name(name: &str) -> Option<Self> {
        [
            ControlType::Abort,
            ControlType::Commit,
            ControlType::LeaderChange,
            ControlType::SnapshotHeader,
            ControlType::SnapshotFooter,
            ControlType::KraftVersion,
            ControlType::KraftVoters,
        ]
        .into_iter()
        .find(|t| t.name().eq_ignore_ascii_case(name))
    }

    pub fn is_end_txn_marker(self) -> bool {
        matches!(self, ControlType::Abort | ControlType::Commit)
    }
}

/// A problem inside a control record: offset relative to the key (`in_value` false) or
/// value (`in_value` true) bytes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ControlError {
    pub in_value: bool,
    pub at: usize,
    pub kind: &'static str,
    pub message: String,
}

/// Interpret a control record's key and value as Kafka's readers do
/// (`ControlRecordType.parse`, `EndTransactionMarker.deserializeValue`).
pub fn parse(key: Option<&[u8]>, value: Option<&[u8]>) -> Result<Control, ControlError> {
    let key = key.unwrap_or(&[]);
    // ControlRecordType.parseTypeId.
    if key.len() < 4 {
        return Err(ControlError {
            in_value: false,
            at: 0,
            kind: kind::INVALID_RECORD,
            message: format!(
                "Invalid value size found for end control record key. Must have at least 4 bytes, but found only {}",
                key.len()
            ),
        });
    }
    let version = i16::from_be_bytes([key[0], key[1]]);
    if version < 0 {
        return Err(ControlError {
            in_value: false,
            at: 0,
            kind: kind::INVALID_RECORD,
            message: format!("Invalid version found for control record: {version}. May indicate data corruption"),
        });
    }
    let ty = ControlType::from_id(i16::from_be_bytes([key[2], key[3]]));
    let mut c = Control {
        type_name: String::from(ty.name()),
        type_id: ty.id(),
        version,
        coordinator_epoch: None,
        marker_version: None,
    };
    if ty.is_end_txn_marker() {
        // EndTransactionMarker.deserializeValue.
        let v = value.unwrap_or(&[]);
        if v.len() < 6 {
            return Err(ControlError {
                in_value: true,
                at: 0,
                kind: kind::INVALID_RECORD,
                message: format!(
                    "Invalid value size found for end transaction marker. Must have at least 6 bytes, but found only {}",
                    v.len()
                ),
            });
        }
        let mv = i16::from_be_bytes([v[0], v[1]]);
        if mv < 0 {
            return Err(ControlError {
                in_value: true,
                at: 0,
                kind: kind::INVALID_RECORD,
                message: format!("Invalid version found for end transaction marker: {mv}. May indicate data corruption"),
            });
        }
        c.marker_version = Some(mv);
        c.coordinator_epoch = Some(i32::from_be_bytes([v[2], v[3], v[4], v[5]]));
    }
    Ok(c)
}

/// Key bytes for a control record of `ty` (version 0).
pub fn key_bytes(ty: ControlType) -> Vec<u8> {
    let mut k = Vec::with_capacity(4);
    k.extend_from_slice(&0i16.to_be_bytes());
    k.extend_from_slice(&ty.id().to_be_bytes());
    k
}

/// `EndTxnMarker` value bytes (version 0).
pub fn end_txn_marker_value(coordinator_epoch: i32) -> Vec<u8> {
    let mut v = Vec::with_capacity(6);
    v.extend_from_slice(&0i16.to_be_bytes());
    v.extend_from_slice(&coordinator_epoch.to_be_bytes());
    v
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn commit_marker_parses_with_coordinator_epoch() {
        let c = parse(Some(&[0, 0, 0, 1]), Some(&[0, 0, 0, 0, 0, 7])).unwrap();
        assert_eq!(c.type_name, "COMMIT");
        assert_eq!(c.coordinator_epoch, Some(7));
    }

    #[test]
    fn unknown_type_is_named_unknown_like_java() {
        let c = parse(Some(&[0, 0, 0, 42]), None).unwrap();
        assert_eq!((c.type_name.as_str(), c.type_id), ("UNKNOWN", 42));
    }

    #[test]
    fn negative_key_version_is_invalid_record() {
        let e = parse(Some(&[0xff, 0xff, 0, 1]), Some(&[0, 0, 0, 0, 0, 7])).unwrap_err();
        assert_eq!(e.kind, "InvalidRecordException");
        assert!(e.message.contains("Invalid version found for control record: -1"));
    }

    #[test]
    fn higher_key_version_is_read_as_version_0() {
        let c = parse(Some(&[0, 3, 0, 0]), Some(&[0, 0, 0, 0, 0, 1, 0xaa])).unwrap();
        assert_eq!((c.type_name.as_str(), c.version, c.coordinator_epoch), ("ABORT", 3, Some(1)));
    }

    #[test]
    fn every_kraft_control_type_has_its_kafka_name() {
        let names: Vec<_> = (2..=6).map(|i| ControlType::from_id(i).name()).collect();
        assert_eq!(names, ["LEADER_CHANGE", "SNAPSHOT_HEADER", "SNAPSHOT_FOOTER", "KRAFT_VERSION", "KRAFT_VOTERS"]);
    }
}
