//! The text files of a partition directory:
//! - `leader-epoch-checkpoint` (`server-common/.../CheckpointFile.java` `CheckpointReadBuffer`,
//!   `storage/.../checkpoint/LeaderEpochCheckpointFile.java`): a version line (`0`), an entry
//!   count line, then `epoch startOffset` lines split on `\s+`.
//! - `partition.metadata` (`storage/.../checkpoint/PartitionMetadataReadBuffer.java`):
//!   `version: 0` and `topic_id: <base64url Uuid>`, each split on `:\s+`.
//!
//! Lines end at `\n`, `\r` or `\r\n` (`BufferedReader.readLine`). Errors carry Kafka's
//! exception name and message and the byte offset of the line at fault. The entry count line
//! never sizes an allocation (Java's `new ArrayList<>(expectedSize)` would).

use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;

use super::{kind, parse_java_int, parse_java_long, FileError};

/// One line: its text and the byte offset where it starts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Line<'a> {
    pub at: usize,
    pub text: &'a str,
}

/// `BufferedReader.readLine` over the whole text (input must be UTF-8; Java would decode with
/// replacement — invalid UTF-8 is an error here, at its first byte).
pub fn lines(bytes: &[u8]) -> Result<Vec<Line<'_>>, FileError> {
    let text = core::str::from_utf8(bytes).map_err(|e| {
        FileError::new(
            e.valid_up_to(),
            kind::IO,
            "Input is not valid UTF-8 (java.nio.charset.MalformedInputException)",
        )
    })?;
    let b = text.as_bytes();
    let mut out = Vec::new();
    let mut start = 0;
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'\n' => {
                out.push(Line {
                    at: start,
                    text: &text[start..i],
                });
                i += 1;
                start = i;
            }
            b'\r' => {
                out.push(Line {
                    at: start,
                    text: &text[start..i],
                });
                i += 1;
                if b.get(i) == Some(&b'\n') {
                    i += 1;
                }
                start = i;
            }
            _ => i += 1,
        }
    }
    if start < b.len() {
        out.push(Line {
            at: start,
            text: &text[start..],
        });
    }
    Ok(out)
}

/// Java's `\s`: `[ \t\n\x0B\f\r]`.
fn java_space(c: char) -> bool {
    matches!(c, ' ' | '\t' | '\n' | '\x0B' | '\x0C' | '\r')
}

/// `Pattern.compile("\\s+").split(line)`: a leading separator gives a leading empty field,
/// trailing empty fields are dropped.
fn split_ws(line: &str) -> Vec<&str> {
    let mut v: Vec<&str> = line.split(java_space).collect();
    // Runs of separators give empty strings between them: merge (\s+), keeping a leading one.
    let lead = v.first().is_some_and(|s| s.is_empty()) && !line.is_empty();
    v.retain(|s| !s.is_empty());
    if lead {
        v.insert(0, "");
    }
    v
}

/// `leader-epoch-checkpoint`'s `EpochEntry`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize),
    serde(rename_all = "camelCase")
)]
pub struct EpochEntry {
    pub epoch: i32,
    pub start_offset: i64,
    /// Byte offset of the entry's line.
    pub at: usize,
}

/// A parsed leader-epoch checkpoint.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize),
    serde(rename_all = "camelCase")
)]
pub struct LeaderEpochCheckpoint {
    /// `None` for an empty file (Kafka: no entries).
    pub version: Option<i32>,
    pub entries: Vec<EpochEntry>,
}

/// `LeaderEpochCheckpointFile.CURRENT_VERSION`.
pub const LEADER_EPOCH_CHECKPOINT_VERSION: i32 = 0;

impl LeaderEpochCheckpoint {
    /// The file `CheckpointFile.CheckpointWriteBuffer.write` writes: the version line, the entry
    /// count line, then `LeaderEpochCheckpointFile.Formatter.toString` (`epoch + " " +
    /// startOffset`) per entry, each line ended by `BufferedWriter.newLine()` (`\n` on Linux:
    /// the 8 bytes `0\n1\n0 0\n` of tests/fixtures/kafka-4.3.1/*/leader-epoch-checkpoint). No
    /// version (an empty checkpoint as read) is the empty file. `at` is not written.
    pub fn emit(&self) -> Vec<u8> {
        let Some(version) = self.version else {
            return Vec::new();
        };
        let mut s = format!("{version}\n{}\n", self.entries.len());
        for e in &self.entries {
            s.push_str(&format!("{} {}\n", e.epoch, e.start_offset));
        }
        s.into_bytes()
    }
}

fn malformed(at: usize, path: &str, line: &str) -> FileError {
    FileError::new(
        at,
        kind::IO,
        format!("Malformed line in checkpoint file [{path}]: {line}"),
    )
}

fn number_format(at: usize, s: &str) -> FileError {
    FileError::new(
        at,
        kind::NUMBER_FORMAT,
        format!("For input string: \"{s}\""),
    )
}

/// `CheckpointFile.CheckpointReadBuffer.read` with `LeaderEpochCheckpointFile.Formatter`
/// (`path` is named in messages, as Kafka names the absolute path).
pub fn parse_leader_epoch_checkpoint(
    bytes: &[u8],
    path: &str,
) -> Result<LeaderEpochCheckpoint, FileError> {
    let ls = lines(bytes)?;
    let mut it = ls.iter();
    let Some(v) = it.next() else {
        return Ok(LeaderEpochCheckpoint::default());
    };
    let version = parse_java_int(v.text).ok_or_else(|| malformed(v.at, path, v.text))?;
    if version != LEADER_EPOCH_CHECKPOINT_VERSION {
        return Err(FileError::new(
            v.at,
            kind::IO,
            format!("Unrecognised version:{version}, expected version: {LEADER_EPOCH_CHECKPOINT_VERSION} in checkpoint file at: {path}"),
        ));
    }
    let Some(c) = it.next() else {
        return Ok(LeaderEpochCheckpoint {
            version: Some(version),
            entries: Vec::new(),
        });
    };
    let expected = parse_java_int(c.text).ok_or_else(|| malformed(c.at, path, c.text))?;
    if expected < 0 {
        return Err(FileError::new(
            c.at,
            kind::ILLEGAL_ARGUMENT,
            format!("Illegal Capacity: {expected}"),
        ));
    }
    let mut entries = Vec::new();
    for l in it {
        let parts = split_ws(l.text);
        if parts.len() != 2 {
            return Err(malformed(l.at, path, l.text));
        }
        let epoch = parse_java_int(parts[0]).ok_or_else(|| number_format(l.at, parts[0]))?;
        let start_offset =
            parse_java_long(parts[1]).ok_or_else(|| number_format(l.at, parts[1]))?;
        entries.push(EpochEntry {
            epoch,
            start_offset,
            at: l.at,
        });
    }
    if entries.len() != expected as usize {
        return Err(FileError::new(
            c.at,
            kind::IO,
            format!(
                "Expected [{expected}] entries in checkpoint file [{path}], but found only [{}]",
                entries.len()
            ),
        ));
    }
    Ok(LeaderEpochCheckpoint {
        version: Some(version),
        entries,
    })
}

/// A parsed `partition.metadata`.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize),
    serde(rename_all = "camelCase")
)]
pub struct PartitionMetadata {
    pub version: i32,
    /// The topic id as written (base64url, Kafka's `Uuid.toString()`).
    pub topic_id: String,
    /// Its 16 bytes.
    pub topic_id_bytes: [u8; 16],
}

impl PartitionMetadata {
    /// The metadata of `topic_id` (version 0, what the broker writes), its string as Kafka's
    /// `Uuid.toString()` spells it: URL-safe base64 without padding.
    pub fn new(version: i32, topic_id_bytes: [u8; 16]) -> Self {
        let mut topic_id = String::new();
        crate::wire::internal::base64url(&mut topic_id, &topic_id_bytes);
        PartitionMetadata {
            version,
            topic_id,
            topic_id_bytes,
        }
    }

    /// The file `PartitionMetadataFile.record` writes (`PartitionMetadata.encode()`):
    /// `version: V\ntopic_id: ID`, no newline at the end (the 43 bytes of
    /// tests/fixtures/kafka-4.3.1/*/partition.metadata).
    pub fn emit(&self) -> Vec<u8> {
        format!("version: {}\ntopic_id: {}", self.version, self.topic_id).into_bytes()
    }
}

/// `Pattern.compile(":\\s+").split(line)`.
fn split_colon_ws(line: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let b = line.as_bytes();
    let mut start = 0;
    let mut i = 0;
    while i < b.len() {
        if b[i] == b':' && b.get(i + 1).is_some_and(|&c| java_space(c as char)) {
            out.push(&line[start..i]);
            i += 1;
            while b.get(i).is_some_and(|&c| java_space(c as char)) {
                i += 1;
            }
            start = i;
        } else {
            i += 1;
        }
    }
    out.push(&line[start..]);
    while out.len() > 1 && out.last().is_some_and(|s| s.is_empty()) {
        out.pop();
    }
    out
}

/// `Base64.getUrlDecoder().decode` then `Uuid.fromString`'s checks.
fn uuid_from_string(s: &str) -> Result<[u8; 16], String> {
    if s.chars().count() > 24 {
        let prefix: String = s.chars().take(24).collect();
        return Err(format!(
            "Input string with prefix `{prefix}` is too long to be decoded as a base64 UUID"
        ));
    }
    let mut bits: u32 = 0;
    let mut nbits = 0;
    let mut out = Vec::with_capacity(18);
    let body = s.trim_end_matches('=');
    for c in body.chars() {
        let v = match c {
            'A'..='Z' => c as u32 - 'A' as u32,
            'a'..='z' => c as u32 - 'a' as u32 + 26,
            '0'..='9' => c as u32 - '0' as u32 + 52,
            '-' => 62,
            '_' => 63,
            _ => return Err(format!("Illegal base64 character {:x}", c as u32)),
        };
        bits = (bits << 6) | v;
        nbits += 6;
        if nbits >= 8 {
            nbits -= 8;
            out.push((bits >> nbits) as u8);
        }
    }
    if body.len() % 4 == 1 {
        return Err(String::from("Last unit does not have enough valid bits"));
    }
    if out.len() != 16 {
        return Err(format!(
            "Input string `{s}` decoded as {} bytes, which is not equal to the expected 16 bytes of a base64-encoded UUID",
            out.len()
        ));
    }
    let mut a = [0u8; 16];
    a.copy_from_slice(&out);
    Ok(a)
}

/// `PartitionMetadataReadBuffer.read` (`path` named in messages).
pub fn parse_partition_metadata(bytes: &[u8], path: &str) -> Result<PartitionMetadata, FileError> {
    let ls = lines(bytes)?;
    let Some(first) = ls.first() else {
        return Err(FileError::new(
            0,
            "NullPointerException",
            "the file has no version line",
        ));
    };
    let v = split_colon_ws(first.text);
    if v.len() != 2 {
        return Err(malformed(first.at, path, first.text));
    }
    let version = parse_java_int(v[1]).ok_or_else(|| malformed(first.at, path, first.text))?;
    if version < 0 {
        return Err(FileError::new(
            first.at,
            kind::IO,
            format!("Unrecognized version of partition metadata file + ({path}): {version}"),
        ));
    }
    let Some(second) = ls.get(1) else {
        return Err(FileError::new(
            bytes.len(),
            "NullPointerException",
            "the file has no topic_id line",
        ));
    };
    let t = split_colon_ws(second.text);
    if t.len() != 2 {
        return Err(malformed(second.at, path, second.text));
    }
    let at = second.at + second.text.len() - t[1].len();
    let id = uuid_from_string(t[1]).map_err(|m| FileError::new(at, kind::ILLEGAL_ARGUMENT, m))?;
    if id == [0; 16] {
        return Err(FileError::new(
            at,
            kind::IO,
            format!("Invalid topic ID in partition metadata file ({path})"),
        ));
    }
    Ok(PartitionMetadata {
        version,
        topic_id: t[1].to_string(),
        topic_id_bytes: id,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn leader_epochs() {
        let c = parse_leader_epoch_checkpoint(b"0\n2\n0 0\n3 17\n", "p").unwrap();
        assert_eq!(c.version, Some(0));
        assert_eq!(
            c.entries,
            alloc::vec![
                EpochEntry {
                    epoch: 0,
                    start_offset: 0,
                    at: 4
                },
                EpochEntry {
                    epoch: 3,
                    start_offset: 17,
                    at: 8
                }
            ]
        );
        assert_eq!(
            parse_leader_epoch_checkpoint(b"", "p").unwrap(),
            LeaderEpochCheckpoint::default()
        );
        let e = parse_leader_epoch_checkpoint(b"0\n2\n0 0\n", "p").unwrap_err();
        assert_eq!(
            (e.at, e.message.as_str()),
            (
                2,
                "Expected [2] entries in checkpoint file [p], but found only [1]"
            )
        );
        let e = parse_leader_epoch_checkpoint(b"0\n1\n 0 0\n", "p").unwrap_err();
        assert_eq!(
            (e.at, e.message.as_str()),
            (4, "Malformed line in checkpoint file [p]:  0 0")
        );
        let e = parse_leader_epoch_checkpoint(b"1\n", "p").unwrap_err();
        assert_eq!(
            e.message,
            "Unrecognised version:1, expected version: 0 in checkpoint file at: p"
        );
        let e = parse_leader_epoch_checkpoint(b"0\n2147483647\n", "p").unwrap_err();
        assert!(e.message.starts_with("Expected [2147483647] entries"));
        let e = parse_leader_epoch_checkpoint(b"0\n1\nx 1\n", "p").unwrap_err();
        assert_eq!(
            (e.kind, e.message.as_str()),
            ("NumberFormatException", "For input string: \"x\"")
        );
    }

    #[test]
    fn emitted_as_the_broker_wrote_them() {
        // tests/fixtures/kafka-4.3.1/txn-0's leader-epoch-checkpoint and partition.metadata.
        let c = parse_leader_epoch_checkpoint(b"0\n1\n0 0\n", "p").unwrap();
        assert_eq!(c.emit(), b"0\n1\n0 0\n");
        let m = parse_partition_metadata(b"version: 0\ntopic_id: VtkvmtHySUegWza8Nz0Hng", "p").unwrap();
        assert_eq!(PartitionMetadata::new(0, m.topic_id_bytes), m);
        assert_eq!(m.emit(), b"version: 0\ntopic_id: VtkvmtHySUegWza8Nz0Hng");
    }

    #[test]
    fn partition_metadata() {
        let m =
            parse_partition_metadata(b"version: 0\ntopic_id: VtkvmtHySUegWza8Nz0Hng", "p").unwrap();
        assert_eq!(m.version, 0);
        assert_eq!(m.topic_id, "VtkvmtHySUegWza8Nz0Hng");
        assert_eq!(m.topic_id_bytes[0], 0x56);
        let e = parse_partition_metadata(b"version: 0\ntopic_id: AAAAAAAAAAAAAAAAAAAAAA", "p")
            .unwrap_err();
        assert_eq!(
            (e.at, e.message.as_str()),
            (21, "Invalid topic ID in partition metadata file (p)")
        );
        let e = parse_partition_metadata(b"version 0\n", "p").unwrap_err();
        assert_eq!(
            e.message,
            "Malformed line in checkpoint file [p]: version 0"
        );
        let e = parse_partition_metadata(b"version: 0\ntopic_id: abc", "p").unwrap_err();
        assert_eq!(e.kind, "IllegalArgumentException");
        assert!(parse_partition_metadata(b"", "p").is_err());
    }
}
