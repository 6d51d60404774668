//! eoslab-core: Apache Kafka's Record Batch codec and the producer/transaction models
//! behind the eoslab lab. Sans-IO and deterministic; `no_std` + `alloc`.
//!
//! Layers, bottom up (each cites the Kafka source it follows):
//! - [`reader`]: a bounds-checked cursor with Kafka's zigzag varints (`ByteUtils.java`).
//! - [`batch`]: the 61-byte v2 header as named ranges and a zero-copy view
//!   (`DefaultRecordBatch.java`); [`record`] the v2 record body (`DefaultRecord.java`);
//!   [`control`] control records (`ControlRecordType.java`, `EndTransactionMarker.java`);
//!   [`legacy`] magic 0/1 messages (`LegacyRecord.java`, `AbstractLegacyRecordBatch.java`).
//! - [`compression`]: the four codecs with Kafka's framing (`compress/*.java`, xerial snappy).
//! - [`input`]: text input (hex in any common layout, base64, byte-array literals).
//! - [`decode`]: walks any number of concatenated entries (a `.log` segment) into a
//!   [`report::Report`] with byte spans for every field and every problem pinned on its
//!   byte with Kafka's exception name; [`encode`] writes batches exactly as a Java
//!   producer (or the broker, for markers) would; [`view`] reads batches and records in place
//!   (zero-copy, the same checks, no report) for bulk consumers.
//! - [`message`]: whole requests and responses (a TCP stream of them), read generically from
//!   Kafka's own message schemas (vendored in `messages/`, turned into tables by `build.rs`).
#![cfg_attr(not(feature = "std"), no_std)]
#![forbid(unsafe_code)]

extern crate alloc;

pub mod batch;
pub mod compression;
pub mod control;
pub mod crc;
pub mod decode;
pub mod encode;
pub mod files;
pub mod input;
pub mod internal;
pub mod legacy;
pub mod message;
pub mod model;
pub mod reader;
pub mod record;
pub mod report;
pub mod sequence;
pub mod view;

pub use decode::{decode, decode_bytes, DecodeOptions};
pub use encode::{encode_batch, encode_segment, BatchSpec, EncodeError};
pub use report::Report;
