//! eoslab-core: Apache Kafka's Record Batch codec and the producer/transaction models
//! behind the eoslab lab. Sans-IO and deterministic; `no_std` + `alloc`.
//!
//! Layers, bottom up (each cites the Kafka source it follows; a module only uses the layers
//! below it, checked by `tests/module_cycles.rs`):
//! - [`rules`]: the rule catalogue, every rule id the models cite with its Kafka source; a
//!   leaf of data.
//! - [`report`]: the report's data types (the JSON contract of `decode`) and Kafka's names
//!   for problems ([`report::kind`]); a leaf that uses nothing else, below the wire layer
//!   because the one v2 record parser ([`record`]) fills a [`report::RecordReport`] for both
//!   the zero-copy path and the byte map.
//! - [`wire`]: the byte formats: [`reader`], [`crc`], [`sequence`], [`batch`] (the v2 header
//!   view + `HeaderRepr`), [`record`], [`control`], [`legacy`] (magic 0/1), [`wire::frame`]
//!   (entry framing and the batch-level checks, once), [`compression`] and the internal
//!   topics' schemas ([`internal`]).
//! - [`input`]: text input (hex in any common layout, base64, byte-array literals).
//! - [`read`]: [`view`] reads batches and records in place (zero-copy, the same checks, no
//!   report) for bulk consumers, [`read::columns`] flattens them, and [`decode`] walks any
//!   number of concatenated entries (a `.log` segment) into a [`report::Report`] with byte
//!   spans for every field and every problem pinned on its byte with Kafka's exception name.
//! - [`spec`] ([`encode`]): the JSON-shaped `BatchSpec` written exactly as a Java producer (or
//!   the broker, for markers) would.
//! - [`message`]: whole requests and responses (a TCP stream of them), read generically from
//!   Kafka's own message schemas (vendored in `messages/`, turned into tables by `build.rs`).
//! - [`files`]: the broker's other partition files, and a partition directory read as the broker
//!   loads it ([`files::partition`]); [`model`]: the producer, partition and transaction models.
//! - `capture` (feature `capture`, std): packet captures (pcap, pcapng) read as Kafka
//!   conversations: TCP reassembled per direction, requests paired with their responses.
//!
//! - [`conformance`]: captured answers judged against the simulator's (a replay script and a
//!   verdict per exchange), as data, so the capture reader and the judge can be apart.
//!
//! Layering order, bottom up: report, rules, wire, input, read, spec, message, model, files, conformance, capture (a
//! module uses only modules before it, and `files::partition` loads a directory into the
//! partition model; checked by `tests/module_cycles.rs`).
//!
//! The flat paths (`eoslab_core::batch`, `::decode`, `::view`, …) are the public API used by the
//! wasm package, the CLI, the tests, benches and fuzz targets; they re-export the layered
//! modules.
#![cfg_attr(not(feature = "std"), no_std)]
#![forbid(unsafe_code)]

extern crate alloc;

#[cfg(feature = "capture")]
pub mod capture;
pub mod conformance;
pub mod files;
pub mod input;
pub mod message;
pub mod model;
pub mod read;
pub mod report;
pub mod rules;
pub mod spec;
pub mod wire;

pub use read::{columns, decode, view};
pub use spec as encode;
pub use wire::{batch, compression, control, crc, internal, legacy, reader, record, sequence};

pub use decode::{decode, decode_bytes, DecodeOptions};
pub use encode::{encode_batch, encode_segment, BatchSpec, EncodeError};
pub use report::Report;
