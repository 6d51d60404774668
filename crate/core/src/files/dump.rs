//! `kafka-dump-log` (`tools/src/main/java/org/apache/kafka/tools/DumpLogSegments.java`,
//! Kafka 4.3.1), sans-IO: [`DumpLog::dump`] takes one file's path and bytes (and, for
//! `.index` / `.timeindex`, the sibling `.log` and `.index` bytes) and appends what
//! DumpLogSegments prints, line by line, to standard output or standard error;
//! [`DumpLog::finish`] appends the summary DumpLogSegments prints to standard error after all
//! files. A problem Kafka throws on (its `main` prints the message and exits 1) stops the dump:
//! [`DumpLog::failed`] then holds it, with the byte offset.
//!
//! The batch and record lines are the ones `eoslab decode` prints ([`batch_line`],
//! [`record_line`]).

use alloc::collections::BTreeMap;
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use super::index::OffsetIndex;
use super::snapshot::ProducerSnapshot;
use super::timeindex::TimeIndex;
use super::txnindex::TransactionIndex;
use super::{file_name, kind, offset_from_name, FileError, FileKind};
use crate::decode::{decode_bytes, DecodeOptions};
use crate::internal::InternalTopic;
use crate::report::{BatchReport, RecordReport, Severity};

/// DumpLogSegments' options (`DumpLogSegmentsOptions`).
#[derive(Clone, Debug)]
pub struct DumpOptions {
    /// `--print-data-log`.
    pub print_data_log: bool,
    /// `--deep-iteration`.
    pub deep_iteration: bool,
    /// `--transaction-log-decoder` / `--offsets-decoder`.
    pub decoder: Option<InternalTopic>,
    /// `--index-sanity-check`.
    pub index_sanity_check: bool,
    /// `--verify-index-only`.
    pub verify_index_only: bool,
    /// `--skip-record-metadata`.
    pub skip_record_metadata: bool,
    /// `--max-bytes` (default `Integer.MAX_VALUE`).
    pub max_bytes: i32,
    /// `--max-message-size` (default 5 MiB).
    pub max_message_size: i32,
    /// Cap on one batch's decompressed size (eoslab's own bound).
    pub max_decompressed: usize,
}

impl Default for DumpOptions {
    fn default() -> Self {
        DumpOptions {
            print_data_log: false,
            deep_iteration: false,
            decoder: None,
            index_sanity_check: false,
            verify_index_only: false,
            skip_record_metadata: false,
            max_bytes: i32::MAX,
            max_message_size: 5 * 1024 * 1024,
            max_decompressed: 64 << 20,
        }
    }
}

impl DumpOptions {
    /// `shouldPrintDataLog`: `--print-data-log` or any decoder.
    pub fn should_print_data_log(&self) -> bool {
        self.print_data_log || self.decoder.is_some()
    }
    /// `isDeepIteration`.
    pub fn is_deep_iteration(&self) -> bool {
        self.deep_iteration || self.should_print_data_log()
    }
}

/// Which stream a line goes to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stream {
    Out,
    Err,
}

/// One file's contents as the caller could read it: `Err` is the reason it could not
/// (Kafka's exception message, e.g. `NoSuchFileException`'s path).
pub type Contents<'a> = Result<&'a [u8], String>;

/// The inputs of one [`DumpLog::dump`].
#[derive(Clone, Debug)]
pub struct DumpInput<'a> {
    /// The path as given on the command line (printed in "Dumping …").
    pub path: &'a str,
    /// Its absolute path (Kafka names it in index errors and summaries).
    pub absolute_path: &'a str,
    /// The file's bytes, or why it could not be read.
    pub bytes: Contents<'a>,
    /// The sibling `<offset>.log` (needed by `.index` and `.timeindex`).
    pub log: Option<Contents<'a>>,
    /// The sibling `<offset>.index` (needed by `.timeindex`).
    pub index: Option<Contents<'a>>,
}

/// A fatal problem: the file it is in and the [`FileError`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Failure {
    pub path: String,
    pub error: FileError,
}

/// The running dump of any number of files.
#[derive(Debug, Default)]
pub struct DumpLog {
    opts: DumpOptions,
    lines: Vec<(Stream, String)>,
    failed: Option<Failure>,
    /// Index file (absolute path) → (index offset → log offset), printed in descending order.
    index_mismatches: Vec<(String, BTreeMap<i64, i64>)>,
    time_mismatches: Vec<(String, Vec<(i64, i64)>)>,
    time_out_of_order: Vec<(String, Vec<(i64, i64)>)>,
    time_not_found: Vec<(String, Vec<(i64, i64)>)>,
    non_consecutive: Vec<(String, BTreeMap<i64, i64>)>,
}

fn entry_of<'a, V: Default>(v: &'a mut Vec<(String, V)>, key: &str) -> &'a mut V {
    let i = match v.iter().position(|(k, _)| k == key) {
        Some(i) => i,
        None => {
            v.push((String::from(key), V::default()));
            v.len() - 1
        }
    };
    &mut v[i].1
}

/// Java's `String.hashCode` (UTF-16 code units).
fn java_hash(s: &str) -> i32 {
    let mut h: i32 = 0;
    for u in s.encode_utf16() {
        h = h.wrapping_mul(31).wrapping_add(u as i32);
    }
    h
}

/// The iteration order of a `java.util.HashMap<String, _>` filled with `keys` in this order
/// (default capacity 16, load factor 0.75): by bucket of the final table, then insertion order.
fn java_hashmap_order<V>(v: &[(String, V)]) -> Vec<usize> {
    let mut cap = 16usize;
    while v.len() > cap * 3 / 4 {
        cap *= 2;
    }
    let mut idx: Vec<usize> = (0..v.len()).collect();
    idx.sort_by_key(|&i| {
        let h = java_hash(&v[i].0) as u32;
        ((h ^ (h >> 16)) as usize) & (cap - 1)
    });
    idx
}

impl DumpLog {
    pub fn new(opts: DumpOptions) -> Self {
        DumpLog {
            opts,
            ..DumpLog::default()
        }
    }

    fn opts(&self) -> DumpOptions {
        self.opts.clone()
    }

    /// Everything printed so far, in order.
    pub fn lines(&self) -> &[(Stream, String)] {
        &self.lines
    }

    /// Take the lines printed so far (for streaming output).
    pub fn take_lines(&mut self) -> Vec<(Stream, String)> {
        core::mem::take(&mut self.lines)
    }

    /// The problem that stopped the dump (Kafka: an exception out of `main`, exit status 1).
    pub fn failed(&self) -> Option<&Failure> {
        self.failed.as_ref()
    }

    fn out(&mut self, s: String) {
        self.lines.push((Stream::Out, s));
    }

    fn err(&mut self, s: String) {
        self.lines.push((Stream::Err, s));
    }

    fn fail(&mut self, path: &str, error: FileError) {
        // Kafka 4.3.1's main lets the exception out: the JVM prints this line (`Throwable.toString`:
        // the class alone when the message is null, as a NoSuchElementException's is), then the trace.
        let class = super::java_class(error.kind);
        // `new KafkaException("Failed to decompress record stream", cause)`: the cause (which
        // eoslab's message names) is printed under the trace, not in this line.
        const DECOMPRESS: &str = "Failed to decompress record stream";
        let message = match error.message.strip_prefix(DECOMPRESS) {
            Some(rest) if rest.starts_with(": ") => DECOMPRESS,
            _ => error.message.as_str(),
        };
        if message == "null" {
            self.err(format!("Exception in thread \"main\" {class}"));
        } else {
            self.err(format!("Exception in thread \"main\" {class}: {message}"));
        }
        self.failed = Some(Failure {
            path: String::from(path),
            error,
        });
    }

    /// Dump one file, as DumpLogSegments' loop body does (after a failure: nothing).
    pub fn dump(&mut self, input: &DumpInput<'_>) {
        if self.failed.is_some() {
            return;
        }
        self.out(format!("Dumping {}", input.path));
        let r = match FileKind::of(input.path) {
            FileKind::Log | FileKind::KraftSnapshot => self.dump_log(input),
            FileKind::Index => self.dump_index(input),
            FileKind::TimeIndex => self.dump_time_index(input),
            FileKind::ProducerSnapshot => self.dump_snapshot(input),
            FileKind::TxnIndex => self.dump_txn_index(input),
            _ => {
                self.err(format!("Ignoring unknown file {}", input.path));
                Ok(())
            }
        };
        if let Err(e) = r {
            self.fail(input.path, e);
        }
    }

    /// The summaries DumpLogSegments prints to standard error after the files (not after a
    /// failure: Kafka's exception skips them).
    pub fn finish(&mut self) {
        if self.failed.is_some() {
            return;
        }
        let m = core::mem::take(&mut self.index_mismatches);
        self.summary(&m, |map| map.iter().rev().map(|(&a, &b)| (a, b)), "Mismatches in :", |index_offset, log_offset| {
            format!("  Index offset: {index_offset}, log offset: {log_offset}")
        });
        let t = core::mem::take(&mut self.time_mismatches);
        self.summary(&t, |v| v.iter().copied(), "Found timestamp mismatch in :", |a, b| {
            format!("  Index timestamp: {a}, log timestamp: {b}")
        });
        let o = core::mem::take(&mut self.time_out_of_order);
        self.summary(&o, |v| v.iter().copied(), "Found out of order timestamp in :", |a, b| {
            format!("  Index timestamp: {a}, Previously indexed timestamp: {b}")
        });
        // Kafka 4.3.1 names the time index (checked against its own tool on a time index
        // with entries past the log: "… not found in :<absolute path>").
        let n = core::mem::take(&mut self.time_not_found);
        self.summary(&n, |v| v.iter().copied(), "The following indexed offsets are not found in :", |a, b| {
            format!("Indexed offset: {a}, found log offset: {b}")
        });
        let c = core::mem::take(&mut self.non_consecutive);
        self.summary(&c, |map| map.iter().map(|(&a, &b)| (a, b)), "Non-consecutive offsets in ", |a, b| {
            format!("  {a} is followed by {b}")
        });
    }

    /// One of those summaries: per file, in Java `HashMap` order, `head` and the file, then a
    /// line per pair.
    fn summary<'m, M, I: Iterator<Item = (i64, i64)>>(
        &mut self,
        m: &'m [(String, M)],
        pairs: impl Fn(&'m M) -> I,
        head: &str,
        line: impl Fn(i64, i64) -> String,
    ) {
        for i in java_hashmap_order(m) {
            let (file, v) = &m[i];
            self.err(format!("{head}{file}"));
            for (a, b) in pairs(v) {
                self.err(line(a, b));
            }
        }
    }

    fn dump_txn_index(&mut self, input: &DumpInput<'_>) -> Result<(), FileError> {
        let start = offset_from_name(input.path)?;
        // TransactionIndex: a missing file has no channel and no entries.
        let bytes = input.bytes.as_ref().map_or(&[][..], |b| *b);
        let ix = TransactionIndex::new(bytes, start);
        for t in ix.all_aborted_txns(input.absolute_path)? {
            self.out(format!(
                "version: {} producerId: {} firstOffset: {} lastOffset: {} lastStableOffset: {}",
                t.version, t.producer_id, t.first_offset, t.last_offset, t.last_stable_offset
            ));
        }
        Ok(())
    }

    fn dump_snapshot(&mut self, input: &DumpInput<'_>) -> Result<(), FileError> {
        // A CorruptSnapshotException is caught and printed; the dump goes on.
        let bytes = Self::sibling(&Some(input.bytes.clone()))?;
        match ProducerSnapshot::new_checked(bytes) {
            Ok(s) => {
                for e in s.iter() {
                    self.out(e.dump_line());
                }
            }
            Err(e) => self.err(e.message),
        }
        Ok(())
    }

    fn sibling<'a>(c: &Option<Contents<'a>>) -> Result<&'a [u8], FileError> {
        match c {
            Some(Ok(b)) => Ok(b),
            Some(Err(m)) => Err(FileError::new(0, "NoSuchFileException", m.clone())),
            None => Err(FileError::new(
                0,
                "NoSuchFileException",
                "the sibling file was not given",
            )),
        }
    }

    /// An index file: a missing one is created by Kafka's `AbstractIndex` (`createNewFile`),
    /// which then fails on the tool's max index size of -1.
    fn index_file<'a>(c: &Contents<'a>) -> Result<&'a [u8], FileError> {
        match c {
            Ok(b) => Ok(b),
            Err(_) => Err(FileError::new(0, kind::ILLEGAL_ARGUMENT, "Invalid max index size: -1")),
        }
    }

    fn dump_index(&mut self, input: &DumpInput<'_>) -> Result<(), FileError> {
        let opts = self.opts();
        let start = offset_from_name(input.path)?;
        let log = Self::sibling(&input.log)?;
        let ix = OffsetIndex::new(Self::index_file(&input.bytes)?, start);
        let log_name = sibling_path(input.absolute_path, "log");
        if ix.entries() == 0 {
            self.out(format!("{} is empty.", input.path));
            return Ok(());
        }
        if opts.index_sanity_check {
            ix.sanity_check(input.absolute_path)?;
            self.out(format!("{} passed sanity check.", input.path));
            return Ok(());
        }
        for i in 0..ix.entries() {
            let Some(e) = ix.entry(i) else { break };
            if e.offset == ix.base_offset() && i > 0 {
                return Ok(());
            }
            let at = i * super::index::field::ENTRY_SIZE + super::index::field::POSITION.start;
            let last = first_batch_last_offset(log, &log_name, e.position, opts.max_message_size, at)?;
            if last != e.offset {
                entry_of(&mut self.index_mismatches, input.absolute_path).insert(e.offset, last);
            }
            if !opts.verify_index_only {
                self.out(format!("offset: {} position: {}", e.offset, e.position));
            }
        }
        Ok(())
    }

    fn dump_time_index(&mut self, input: &DumpInput<'_>) -> Result<(), FileError> {
        let opts = self.opts();
        let start = offset_from_name(input.path)?;
        let log = Self::sibling(&input.log)?;
        let index = Self::sibling(&input.index)?;
        let oix = OffsetIndex::new(index, start);
        let tix = TimeIndex::new(Self::index_file(&input.bytes)?, start);
        let log_name = sibling_path(input.absolute_path, "log");
        if opts.index_sanity_check {
            tix.sanity_check(input.absolute_path)?;
            self.out(format!("{} passed sanity check.", input.path));
            return Ok(());
        }
        let mut prev = super::timeindex::NO_TIMESTAMP;
        // The max timestamp of each batch whose records were read, by file position (Kafka
        // re-reads per entry; the answer is the same).
        let mut max_ts: BTreeMap<usize, i64> = BTreeMap::new();
        for i in 0..tix.entries() {
            let Some(e) = tix.entry(i) else { break };
            if e.offset == tix.base_offset() && i > 0 {
                return Ok(());
            }
            let pos = oix.lookup(e.offset).position;
            let at = i * super::timeindex::field::ENTRY_SIZE;
            check_slice(log, &log_name, pos, at)?;
            // `partialFileRecords.batches()` filtered on `lastOffset() >= entry.offset`,
            // `findFirst()`: a shallow walk (batch headers only, nothing decompressed) …
            match first_batch_reaching(&log[pos as usize..], &log_name, e.offset, at)? {
                None => {
                    entry_of(&mut self.time_not_found, input.absolute_path).push((e.offset, -1))
                }
                Some((_, _, last)) if last != e.offset => {
                    entry_of(&mut self.time_not_found, input.absolute_path).push((e.offset, last))
                }
                Some((start, size, _)) => {
                    // … then the records of that one batch (`for (Record record : batch)`).
                    let start = pos as usize + start;
                    let max = match max_ts.get(&start) {
                        Some(m) => *m,
                        None => {
                            let (batches, _) = file_batches(
                                &log[start..start + size],
                                i32::MAX,
                                opts.max_decompressed,
                                true,
                                start,
                            )?;
                            let m = batches.first().map_or(super::timeindex::NO_TIMESTAMP, |b| {
                                b.records
                                    .iter()
                                    .map(|r| r.timestamp)
                                    .fold(super::timeindex::NO_TIMESTAMP, i64::max)
                            });
                            max_ts.insert(start, m);
                            m
                        }
                    };
                    if max != e.timestamp {
                        entry_of(&mut self.time_mismatches, input.absolute_path)
                            .push((e.timestamp, max));
                    }
                    if prev >= e.timestamp {
                        entry_of(&mut self.time_out_of_order, input.absolute_path)
                            .push((e.timestamp, prev));
                    }
                }
            }
            if !opts.verify_index_only {
                self.out(format!("timestamp: {} offset: {}", e.timestamp, e.offset));
            }
            prev = e.timestamp;
        }
        Ok(())
    }

    fn dump_log(&mut self, input: &DumpInput<'_>) -> Result<(), FileError> {
        let opts = self.opts();
        let name = file_name(input.path);
        if FileKind::of(input.path) == FileKind::Log {
            let start = offset_from_name(input.path)?;
            self.out(format!("Log starting offset: {start}"));
        } else if name == "bootstrap.checkpoint" {
            self.out(String::from("KRaft bootstrap snapshot"));
        } else {
            // Snapshots.parse: <20-digit offset>-<10-digit epoch>.checkpoint.
            let stem = name.strip_suffix(".checkpoint").unwrap_or(name);
            let parsed = stem
                .split_once('-')
                .and_then(|(o, e)| Some((super::parse_java_long(o)?, super::parse_java_int(e)?)));
            match parsed {
                Some((o, e)) => self.out(format!("Snapshot end offset: {o}, epoch: {e}")),
                None => return Err(FileError::new(0, kind::NO_SUCH_ELEMENT, "No value present")),
            }
        }
        let deep = opts.is_deep_iteration();
        let print = opts.should_print_data_log();
        let bytes = Self::sibling(&Some(input.bytes.clone()))?;
        // `FileRecords.open(file, false).slice(0, maxBytes)`: a negative size is refused
        // (`availableBytes`), naming the file as given on the command line.
        check_size(bytes, input.path, opts.max_bytes)?;
        let end = bytes.len().min(opts.max_bytes.max(0) as usize);
        let data = &bytes[..end];
        let mut pos = 0usize;
        let mut valid = 0usize;
        let mut last_offset: i64 = -1;
        while let Some((start, size)) = next_batch(data, pos, input.path)? {
            let slice = &data[start..start + size];
            let (batches, stop) =
                file_batches(slice, i32::MAX, opts.max_decompressed, deep, start)?;
            let Some(b) = batches.into_iter().next() else {
                break;
            };
            self.out(batch_line(&b, start));
            if deep {
                for r in &b.records {
                    if r.offset != last_offset.wrapping_add(1) {
                        entry_of(&mut self.non_consecutive, input.absolute_path)
                            .insert(last_offset, r.offset);
                    }
                    last_offset = r.offset;
                    let mut line = String::new();
                    if !opts.skip_record_metadata {
                        line.push_str(&record_line(&b, r));
                    }
                    if print && (b.legacy || !b.header.attributes.control) {
                        let prefix = if opts.skip_record_metadata { "| " } else { " " };
                        match contents(opts.decoder, r, prefix) {
                            Ok(s) => line.push_str(&s),
                            Err(m) => {
                                self.out(line);
                                return Err(FileError::new(start, "RuntimeException", m));
                            }
                        }
                    }
                    self.out(line);
                }
                if let Some(e) = stop {
                    return Err(e);
                }
            }
            valid += size;
            pos = start + size;
        }
        let trailing = data.len() - valid;
        if trailing > 0 && opts.max_bytes == i32::MAX {
            self.out(format!(
                "Found {trailing} invalid bytes at the end of {name}"
            ));
        }
        Ok(())
    }
}

/// `FileLogInputStream.nextBatch` at `pos` of `data`: `Some((pos, total size))`, `None` at
/// the end (fewer than 18 bytes left, or a batch that does not fit), or Kafka's
/// `CorruptRecordException` for a size below 14.
fn next_batch(data: &[u8], pos: usize, path: &str) -> Result<Option<(usize, usize)>, FileError> {
    let end = data.len() as i64;
    let p = pos as i64;
    if p >= end - 17 {
        return Ok(None);
    }
    let size = super::be_i32(data, pos + 8);
    if size < 14 {
        return Err(FileError::new(
            pos + 8,
            kind::CORRUPT_RECORD,
            format!("Found record size {size} smaller than minimum record overhead (14) in file {path}."),
        ));
    }
    if p > end - 12 - size as i64 {
        return Ok(None);
    }
    Ok(Some((pos, size as usize + 12)))
}

/// Decode the complete batches of `data` (a file slice starting at file position `base`) as
/// `FileLogInputStream` frames them; the second value is the problem a deep iteration of the
/// last listed batch throws on (the records before it are listed).
fn file_batches(
    data: &[u8],
    max_bytes: i32,
    max_decompressed: usize,
    records: bool,
    base: usize,
) -> Result<(Vec<BatchReport>, Option<FileError>), FileError> {
    let end = data.len().min(max_bytes.max(0) as usize);
    let data = &data[..end];
    let opts = DecodeOptions {
        max_decompressed,
        records,
        spans: false,
        ..DecodeOptions::default()
    };
    let mut out = Vec::new();
    let mut pos = 0;
    while let Some((start, size)) = next_batch(data, pos, "")? {
        let rep = decode_bytes(&data[start..start + size], &opts);
        let fatal = rep.errors.iter().find(|e| {
            e.severity == Severity::Error && !e.message.starts_with("Record is corrupt (stored crc")
        });
        let Some(b) = rep.batches.into_iter().next() else {
            let e = fatal.map_or_else(
                || FileError::new(base + start, kind::CORRUPT_RECORD, "unreadable batch"),
                |e| FileError::new(base + start + e.at, e.kind, e.message.clone()),
            );
            return Err(e);
        };
        let stop = fatal.map(|e| FileError::new(base + start + e.at, e.kind, e.message.clone()));
        out.push(b);
        if stop.is_some() {
            return Ok((out, stop));
        }
        pos = start + size;
    }
    Ok((out, None))
}

/// `fileRecords.slice(position, maxMessageSize).batches().iterator().next().lastOffset()`.
/// `<dir of path>/<stem>.<ext>` (the sibling DumpLogSegments opens, by absolute path).
pub fn sibling_path(absolute_path: &str, ext: &str) -> String {
    let name = file_name(absolute_path);
    let dir = &absolute_path[..absolute_path.len() - name.len()];
    let stem = name.split('.').next().unwrap_or("");
    format!("{dir}{stem}.{ext}")
}

/// `FileRecords.slice(position, …)`'s argument checks (`FileRecords.toString` in the message).
fn check_slice(log: &[u8], log_name: &str, position: i32, at: usize) -> Result<(), FileError> {
    let records = format!(
        "FileRecords(size={}, file={log_name}, start=0, end=2147483647)",
        log.len()
    );
    if position < 0 {
        return Err(FileError::new(
            at,
            kind::ILLEGAL_ARGUMENT,
            format!("Invalid position: {position} in read from {records}"),
        ));
    }
    if position as usize > log.len() {
        return Err(FileError::new(
            at,
            kind::ILLEGAL_ARGUMENT,
            format!("Slice from position {position} exceeds end position of {records}"),
        ));
    }
    Ok(())
}

/// `FileRecords.availableBytes`' size check (after the position checks of [`check_slice`]).
fn check_size(log: &[u8], log_name: &str, size: i32) -> Result<(), FileError> {
    if size < 0 {
        return Err(FileError::new(
            0,
            kind::ILLEGAL_ARGUMENT,
            format!(
                "Invalid size: {size} in read from FileRecords(size={}, file={log_name}, start=0, end=2147483647)",
                log.len()
            ),
        ));
    }
    Ok(())
}

/// `FileChannelRecordBatch.lastOffset()` of the batch framed at the start of `slice` (the file
/// from the batch on: Kafka reads the header from the channel, past a batch shorter than it):
/// the header's `baseOffset + lastOffsetDelta` from magic 2 (`DefaultFileChannelRecordBatch`),
/// the shallow entry's offset below (`LegacyFileChannelRecordBatch`). `at` is where to pin a
/// header too short to read.
fn shallow_last_offset(slice: &[u8], at: usize) -> Result<i64, FileError> {
    let magic = slice[16] as i8;
    let base = super::be_i64(slice, 0);
    if magic >= 2 {
        if slice.len() < crate::batch::HEADER_LEN {
            return Err(FileError::new(at, kind::CORRUPT_RECORD, "batch header is truncated"));
        }
        Ok(base.wrapping_add(super::be_i32(slice, 23) as i64))
    } else {
        Ok(base)
    }
}

/// The first batch of `data` (a log from an index position) whose last offset is at or past
/// `offset`, walking batch headers only: `Some((start, size, lastOffset))`, `None` when none
/// does. Allocates nothing.
fn first_batch_reaching(data: &[u8], log_name: &str, offset: i64, at: usize) -> Result<Option<(usize, usize, i64)>, FileError> {
    let mut pos = 0;
    while let Some((start, size)) = next_batch(data, pos, log_name)? {
        let last = shallow_last_offset(&data[start..], at)?;
        if last >= offset {
            return Ok(Some((start, size, last)));
        }
        pos = start + size;
    }
    Ok(None)
}

/// `fileRecords.slice(position, maxMessageSize).batches().iterator().next().lastOffset()`.
fn first_batch_last_offset(
    log: &[u8],
    log_name: &str,
    position: i32,
    max: i32,
    at: usize,
) -> Result<i64, FileError> {
    check_slice(log, log_name, position, at)?;
    check_size(log, log_name, max).map_err(|e| FileError { at, ..e })?;
    let p = position as usize;
    let slice = &log[p..];
    let slice = &slice[..slice.len().min(max.max(0) as usize)];
    // FileLogInputStream names the log file (by the absolute path the tool opened) in its errors.
    match next_batch(slice, 0, log_name)? {
        None => Err(FileError::new(
            at,
            kind::NO_SUCH_ELEMENT,
            // Kafka's iterator: a NoSuchElementException without a message.
            "null",
        )),
        Some(_) => shallow_last_offset(slice, at),
    }
}

/// `DecoderMessageParser` / `CoordinatorRecordMessageParser` contents of a data record:
/// `<prefix>key: …` and/or `payload: …`.
fn contents(
    decoder: Option<InternalTopic>,
    r: &RecordReport,
    prefix: &str,
) -> Result<String, String> {
    let (key, payload) = match decoder {
        None => (
            r.key.as_deref().map(java_string),
            r.value.as_deref().map(java_string),
        ),
        Some(t) => {
            let p =
                crate::internal::dump_log_parse(t, r.offset, r.key.as_deref(), r.value.as_deref())?;
            (p.key, p.payload)
        }
    };
    let mut s = String::new();
    let mut prefix = prefix;
    if let Some(k) = key {
        s.push_str(prefix);
        s.push_str("key: ");
        s.push_str(&k);
        prefix = " ";
    }
    if let Some(v) = payload {
        s.push_str(prefix);
        s.push_str("payload: ");
        s.push_str(&v);
    }
    Ok(s)
}

mod lines;
pub use lines::*;

#[cfg(test)]
mod tests;
