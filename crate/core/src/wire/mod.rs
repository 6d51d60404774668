//! The wire formats, bottom up: bytes in, typed views and `Repr`s out (the record parser fills
//! the report's record type, [`crate::report`], a leaf); walking a whole input into a report
//! and reading pasted text are [`crate::read`] and [`crate::input`].
//! - [`reader`]: a bounds-checked cursor with Kafka's zigzag varints (`ByteUtils.java`);
//!   [`crc`] CRC-32C / CRC-32; [`sequence`] the producer sequence arithmetic.
//! - [`batch`]: the 61-byte v2 header as named ranges and a zero-copy view
//!   (`DefaultRecordBatch.java`); [`record`] the v2 record body (`DefaultRecord.java`);
//!   [`control`] control records (`ControlRecordType.java`, `EndTransactionMarker.java`);
//!   [`legacy`] magic 0/1 messages (`LegacyRecord.java`, `AbstractLegacyRecordBatch.java`).
//! - [`frame`]: entry framing of a segment and the batch-level checks, written once for the
//!   report, the view and the columns.
//! - [`compression`]: the four codecs with Kafka's framing (`compress/*.java`, xerial snappy).
//! - [`write`]: the one typed [`write::BatchWriter`]: v2 batches, control markers, legacy
//!   messages, records borrowed.
//! - [`internal`]: the `__transaction_state` / `__consumer_offsets` record schemas.

pub mod batch;
pub mod compression;
pub mod control;
pub mod crc;
pub mod frame;
pub mod internal;
pub mod legacy;
pub mod reader;
pub mod record;
pub mod sequence;
pub mod write;
