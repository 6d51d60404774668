//! The columnar form of a whole input ([`Columns`], built by [`columns`]): the bulk form for a
//! boundary such as wasm. Every check is the view's ([`super::view`]).

use alloc::format;
use alloc::vec::Vec;

use crate::report::kind;
use crate::read::view::{entries, Entry};
use crate::wire::batch::NO_SEQUENCE;
use crate::wire::legacy;
use crate::wire::frame::ViewError;
use crate::wire::batch::HeaderRepr;

/// A whole input read into columns: one entry per batch, per record and per header, numbers
/// in flat vectors and byte fields as (start, length) into the input or into
/// [`Columns::decompressed`]. This is the bulk form for a boundary such as wasm, where one
/// object per field costs more than the decoding: a JS caller gets a few typed arrays and
/// materializes records lazily. Built with [`columns`]; every check is the view's.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Columns {
    // One per entry (magic-2 batch or legacy message), in input order.
    pub batch_start: Vec<u32>,
    pub batch_end: Vec<u32>,
    pub magic: Vec<i8>,
    pub base_offset: Vec<i64>,
    pub partition_leader_epoch: Vec<i32>,
    pub crc: Vec<u32>,
    pub crc_computed: Vec<u32>,
    pub attributes: Vec<u16>,
    pub last_offset_delta: Vec<i32>,
    pub base_timestamp: Vec<i64>,
    pub max_timestamp: Vec<i64>,
    pub producer_id: Vec<i64>,
    pub producer_epoch: Vec<i16>,
    pub base_sequence: Vec<i32>,
    pub records_count: Vec<i32>,
    /// 1 when the entry's record positions index `decompressed` (compressed batches, and the
    /// copied fields of legacy messages), 0 when they index the input.
    pub in_decompressed: Vec<u8>,
    /// Entry i's records are `first_record[i]..first_record[i + 1]` (one more element than
    /// entries).
    pub first_record: Vec<u32>,
    // One per record.
    pub offset: Vec<i64>,
    pub timestamp: Vec<i64>,
    pub sequence: Vec<i32>,
    pub key_start: Vec<u32>,
    /// −1 for a null key.
    pub key_length: Vec<i32>,
    pub value_start: Vec<u32>,
    /// −1 for a null value.
    pub value_length: Vec<i32>,
    /// Record i's headers are `first_header[i]..first_header[i + 1]`.
    pub first_header: Vec<u32>,
    // One per record header.
    pub header_key_start: Vec<u32>,
    pub header_key_length: Vec<i32>,
    /// The header's key as an index into the distinct keys below (a topic's headers repeat a
    /// few names: a reader decodes each name once, not once per header).
    pub header_key: Vec<u32>,
    pub header_value_start: Vec<u32>,
    /// −1 for a null value.
    pub header_value_length: Vec<i32>,
    // The distinct header keys, in order of first appearance: key k's bytes are
    // `header_key_bytes[header_key_at[k]..header_key_at[k + 1]]`.
    pub header_key_at: Vec<u32>,
    pub header_key_bytes: Vec<u8>,
    /// The decompressed records of every compressed batch, back to back.
    pub decompressed: Vec<u8>,
    /// Problems, located as in the report, with the entry they belong to.
    pub errors: Vec<(Option<u32>, ViewError)>,
}

/// Read `bytes` into [`Columns`] (at most `max_decompressed` bytes per batch). Inputs past
/// 4 GiB are refused (positions are 32-bit, as in wasm32's memory).
pub fn columns(bytes: &[u8], max_decompressed: usize) -> Columns {
    let mut c = Columns {
        first_record: alloc::vec![0],
        first_header: alloc::vec![0],
        header_key_at: alloc::vec![0],
        ..Columns::default()
    };
    let mut legacy_scratch = Vec::new();
    let mut key_ids = alloc::collections::BTreeMap::<Vec<u8>, u32>::new();
    if u32::try_from(bytes.len()).is_err() {
        c.errors.push((
            None,
            ViewError {
                at: 0,
                decompressed_at: None,
                kind: kind::INVALID_INPUT,
                message: format!("{} bytes: columns index inputs of up to 4 GiB", bytes.len()),
            },
        ));
        return c;
    }
    for entry in entries(bytes) {
        let bi = c.batch_start.len() as u32;
        match entry {
            Err(e) => {
                c.errors.push((None, e));
                break;
            }
            Ok(Entry::V2(b)) => {
                let h = &b.header;
                c.push_entry(b.start, b.end(), h, b.crc_computed);
                // Compressed records are decompressed straight onto the end of `decompressed`.
                let shift = c.decompressed.len();
                match b.records_appending(&mut c.decompressed, max_decompressed) {
                    Err(e) => c.errors.push((Some(bi), e)),
                    Ok(records) => {
                        let compressed = records.ctx.bounded_body;
                        let shift = if compressed { shift } else { 0 };
                        // Positions: in the input, or in the batch's decompressed bytes (then
                        // shifted to where they land in `decompressed`).
                        let base = if compressed { records.r.slice(0, 0).as_ptr() } else { bytes.as_ptr() } as usize;
                        let pos = |s: &[u8]| (s.as_ptr() as usize - base + shift) as u32;
                        for r in records {
                            match r {
                                Ok(r) => {
                                    c.offset.push(r.offset);
                                    c.timestamp.push(r.timestamp);
                                    c.sequence.push(r.sequence);
                                    let (ks, kl) = r.key.map_or((0, -1), |k| (pos(k), k.len() as i32));
                                    c.key_start.push(ks);
                                    c.key_length.push(kl);
                                    let (vs, vl) = r.value.map_or((0, -1), |v| (pos(v), v.len() as i32));
                                    c.value_start.push(vs);
                                    c.value_length.push(vl);
                                    for (k, v) in r.headers() {
                                        c.header_key_start.push(pos(k));
                                        c.header_key_length.push(k.len() as i32);
                                        let id = match key_ids.get(k) {
                                            Some(&id) => id,
                                            None => {
                                                let id = key_ids.len() as u32;
                                                key_ids.insert(k.to_vec(), id);
                                                c.header_key_bytes.extend_from_slice(k);
                                                c.header_key_at.push(c.header_key_bytes.len() as u32);
                                                id
                                            }
                                        };
                                        c.header_key.push(id);
                                        let (vs, vl) = v.map_or((0, -1), |v| (pos(v), v.len() as i32));
                                        c.header_value_start.push(vs);
                                        c.header_value_length.push(vl);
                                    }
                                    c.first_header.push(c.header_key_start.len() as u32);
                                }
                                Err(e) => {
                                    c.errors.push((Some(bi), e));
                                    break;
                                }
                            }
                        }
                        c.in_decompressed.push(compressed as u8);
                        c.first_record.push(c.offset.len() as u32);
                        continue;
                    }
                }
                c.in_decompressed.push(0);
                c.first_record.push(c.offset.len() as u32);
            }
            Ok(Entry::Legacy { start, magic, bytes: entry }) => {
                // Magic 0/1: the legacy walk the report uses (`wire::legacy::read_entry`).
                let e = legacy::read_entry(entry, max_decompressed, &mut legacy_scratch, &mut |f| {
                    c.errors.push((
                        Some(bi),
                        ViewError { at: start + f.at, decompressed_at: f.decompressed_at, kind: f.kind, message: f.message },
                    ))
                });
                // An unreadable message shows as an all-zero header, as the report shows it.
                let header = e.header_repr().unwrap_or(HeaderRepr { magic, ..HeaderRepr::default() });
                let crc_computed = e.wrapper.as_ref().map_or(0, |m| m.crc_computed);
                c.push_entry(start, start + entry.len(), &header, crc_computed);
                let mut record = |offset: i64, timestamp: i64, m: &legacy::Message<'_>| {
                    c.offset.push(offset);
                    c.timestamp.push(timestamp);
                    c.sequence.push(NO_SEQUENCE);
                    for (field, (starts, lengths)) in [m.key, m.value]
                        .into_iter()
                        .zip([(&mut c.key_start, &mut c.key_length), (&mut c.value_start, &mut c.value_length)])
                    {
                        starts.push(c.decompressed.len() as u32);
                        lengths.push(field.map_or(-1, |f| f.len() as i32));
                        c.decompressed.extend_from_slice(field.unwrap_or_default());
                    }
                    c.first_header.push(c.header_key_start.len() as u32);
                };
                if let Some(w) = &e.wrapper {
                    if w.attributes & 0x07 == 0 {
                        record(w.offset, w.timestamp, w);
                    } else if e.offsets.is_some() {
                        let log_append = w.magic == 1 && w.attributes & 0x08 != 0;
                        for (_, im) in &e.messages {
                            record(e.offset_of(im), if log_append { w.timestamp } else { im.timestamp }, im);
                        }
                    }
                }
                c.in_decompressed.push(1);
                c.first_record.push(c.offset.len() as u32);
            }
        }
    }
    c
}

impl Columns {
    fn push_entry(&mut self, start: usize, end: usize, h: &HeaderRepr, crc_computed: u32) {
        self.batch_start.push(start as u32);
        self.batch_end.push(end as u32);
        self.magic.push(h.magic);
        self.base_offset.push(h.base_offset);
        self.partition_leader_epoch.push(h.partition_leader_epoch);
        self.crc.push(h.crc);
        self.crc_computed.push(crc_computed);
        self.attributes.push(h.attributes.0);
        self.last_offset_delta.push(h.last_offset_delta);
        self.base_timestamp.push(h.base_timestamp);
        self.max_timestamp.push(h.max_timestamp);
        self.producer_id.push(h.producer_id);
        self.producer_epoch.push(h.producer_epoch);
        self.base_sequence.push(h.base_sequence);
        self.records_count.push(h.records_count);
    }
}
