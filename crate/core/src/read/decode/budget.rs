//! The report's size budget and the helpers the report builders share (issues pinned on a
//! batch, the listing-limit note, decompression failures, the attributes' report form).

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use crate::wire::batch::{Attributes, HeaderRepr};
use crate::wire::compression::{self, Codec};
use crate::wire::frame::decompress_failure;
use crate::report::*;

/// Bounds the report's size: records (and their spans) are listed while the report's
/// estimated size stays under 64 × input + 2 × decompressed bytes + 1 MiB. Past that, records
/// are still read and checked but not listed, and an `Info` issue says so — so a tiny,
/// densely compressed batch cannot make the report allocate gigabytes.
#[derive(Debug)]
pub(crate) struct Budget {
    input: usize,
    decompressed: usize,
    spent: usize,
}

impl Budget {
    pub(crate) fn new(input: usize) -> Self {
        Budget { input, decompressed: 0, spent: 0 }
    }
    pub(crate) fn add_decompressed(&mut self, n: usize) {
        self.decompressed = self.decompressed.saturating_add(n);
    }
    pub(crate) fn allows(&self) -> bool {
        self.spent < self.input.saturating_mul(64).saturating_add(self.decompressed.saturating_mul(2)).saturating_add(1 << 20)
    }
    /// Charge one listed record: its bytes, its fixed size, and its spans.
    pub(crate) fn charge(&mut self, rec: &RecordReport, spans: usize) {
        let data = rec.key.as_ref().map_or(0, Vec::len)
            + rec.value.as_ref().map_or(0, Vec::len)
            + rec.headers.iter().map(|h| 48 + h.key.len() + h.value.as_ref().map_or(0, Vec::len)).sum::<usize>();
        self.spent = self.spent.saturating_add(200 + data + 96 * spans);
    }
}

pub(crate) fn record_limit_note(errors: &mut Vec<Issue>, bi: usize, at: usize, from: usize) {
    push(
        errors,
        bi,
        at,
        kind::RECORD_LISTING_LIMIT,
        Severity::Info,
        format!(
            "records from #{from} on were read and checked but are not listed: the report reached its size limit (64 × the input + 2 × the decompressed bytes + 1 MiB)"
        ),
    );
}

/// A failed decompression of the payload at `start` (`len` bytes): Kafka's
/// `KafkaException("Failed to decompress record stream")`, or our cap.
pub(crate) fn push_decompress_error(errors: &mut Vec<Issue>, bi: usize, start: usize, len: usize, e: compression::DecompressError) {
    let at = start + e.at.min(len);
    let (k, msg) = decompress_failure(e);
    push(errors, bi, at, k, Severity::Error, msg);
}

pub(crate) fn push(errors: &mut Vec<Issue>, bi: usize, at: usize, kind: &'static str, severity: Severity, message: String) {
    errors.push(Issue { at, kind, message, severity, batch: Some(bi), decompressed_at: None });
}

pub(crate) fn attributes_report(a: Attributes) -> AttributesReport {
    AttributesReport {
        raw: a.0,
        compression: match Codec::from_id(a.codec_id()) {
            Some(c) => c.name().into(),
            None => format!("unknown({})", a.codec_id()).into(),
        },
        timestamp_type: a.timestamp_type().name(),
        transactional: a.is_transactional(),
        control: a.is_control(),
        delete_horizon: a.has_delete_horizon(),
    }
}

/// The report's form of a batch header (v2, or a legacy entry's `Message::header_repr`), with
/// the CRC verdict and the derived last sequence and offset.
pub(crate) fn header_report(h: &HeaderRepr, crc_computed: u32, crc_valid: bool, last_sequence: i32, last_offset: i64) -> Header {
    Header {
        base_offset: h.base_offset,
        batch_length: h.batch_length,
        partition_leader_epoch: h.partition_leader_epoch,
        magic: h.magic,
        crc: h.crc,
        crc_computed,
        crc_valid,
        attributes: attributes_report(h.attributes),
        last_offset_delta: h.last_offset_delta,
        base_timestamp: h.base_timestamp,
        max_timestamp: h.max_timestamp,
        producer_id: h.producer_id,
        producer_epoch: h.producer_epoch,
        base_sequence: h.base_sequence,
        records_count: h.records_count,
        last_sequence,
        last_offset,
    }
}
