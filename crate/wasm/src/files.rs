//! A partition directory's files read as the broker loads them (`loadPartition`) and dumped as
//! `kafka-dump-log` prints them (`dumpLog`): conversion
//! only; the reading is [`eoslab_core::files::partition`].

use eoslab_core::files::partition::{self, DirFile};
use js_sys::{Array, Reflect, Uint8Array};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

use crate::{js_error, to_js};

#[derive(serde::Serialize)]
#[serde(rename_all = "camelCase")]
struct Loaded<'a> {
    /// What `eoslab partition` prints.
    text: String,
    /// What `eoslab partition --script` prints: a simulator script starting from this state.
    script: String,
    /// No file disagrees with the log and every file could be read.
    ok: bool,
    log_start_offset: f64,
    log_end_offset: f64,
    last_stable_offset: f64,
    producers: usize,
    open_transactions: usize,
    aborted: usize,
    snapshot_used: Option<&'a str>,
    /// The rebuilt producer state, each producer as `writeSnapshot` would write it.
    producer_state: Vec<EntryDto>,
    /// `partition.metadata`'s topic id.
    topic_id: Option<&'a str>,
    /// `leader-epoch-checkpoint`'s entries, and those the log's batches give.
    leader_epochs: Vec<EpochDto>,
    log_leader_epochs: Vec<EpochDto>,
    /// Every readable `.snapshot`: version, CRC stored and computed, its producers beside the log's.
    snapshots: Vec<SnapshotDto<'a>>,
    checks: &'a [partition::Check],
    errors: &'a [String],
    ignored: &'a [String],
}

/// Reads the files of a partition directory (`[{name, bytes}]`, `bytes` a `Uint8Array`) as the
/// broker loads them: producer state from the latest snapshot plus the log after it, open
/// transactions, LSO, aborted transactions, and every index and snapshot checked against the
/// log. Returns `{text, script, ok, logStartOffset, logEndOffset, lastStableOffset, producers,
/// openTransactions, aborted, snapshotUsed, producerState: [{producerId, producerEpoch,
/// lastSequence, lastOffset, offsetDelta, timestamp, coordinatorEpoch, currentTxnFirstOffset}],
/// topicId, leaderEpochs: [{epoch, startOffset}], logLeaderEpochs, snapshots: [{name, offset,
/// version, crc, computedCrc, producers: [{producerId, stored, rebuilt, differs}]}],
/// checks: [{file, ok, what, detail}], errors, ignored}`.
#[wasm_bindgen(js_name = loadPartition)]
pub fn load_partition(
    #[wasm_bindgen(unchecked_param_type = "{name: string, bytes: Uint8Array}[]")] files: JsValue,
    title: Option<String>,
) -> Result<JsValue, JsError> {
    let owned = read_files(files, "loadPartition")?;
    let dir: Vec<DirFile<'_>> = owned.iter().map(|(n, b)| DirFile { name: n, bytes: b }).collect();
    let p = partition::load(&dir);
    let title = title.unwrap_or_else(|| String::from("Continue from a real partition"));
    to_js(&Loaded {
        text: partition::render(&p),
        script: partition::simulator_script(&p, &title),
        ok: p.errors.is_empty() && p.checks.iter().all(|c| c.ok),
        log_start_offset: p.log_start_offset as f64,
        log_end_offset: p.log_end_offset as f64,
        last_stable_offset: p.last_stable_offset as f64,
        producers: p.producers.len(),
        open_transactions: p.open_transactions.len(),
        aborted: p.aborted.len(),
        snapshot_used: p.snapshot_used.as_deref(),
        producer_state: p.producers.iter().map(|s| EntryDto::from(&s.snapshot_entry())).collect(),
        topic_id: p.topic_id.as_deref(),
        leader_epochs: epochs(&p.leader_epochs),
        log_leader_epochs: epochs(&p.log_leader_epochs),
        snapshots: p
            .snapshots
            .iter()
            .map(|f| SnapshotDto {
                name: &f.name,
                offset: f.offset as f64,
                version: f.version,
                crc: f.crc,
                computed_crc: f.computed_crc,
                producers: f
                    .producers
                    .iter()
                    .map(|e| SnapshotProducerDto {
                        producer_id: e.producer_id as f64,
                        stored: e.stored.as_ref().map(EntryDto::from),
                        rebuilt: e.rebuilt.as_ref().map(EntryDto::from),
                        differs: &e.differs,
                    })
                    .collect(),
            })
            .collect(),
        checks: &p.checks,
        errors: &p.errors,
        ignored: &p.ignored,
    })
}

/// A producer entry (`ProducerSnapshot.ProducerEntry`); 64-bit values as JS numbers.
#[derive(serde::Serialize)]
#[serde(rename_all = "camelCase")]
struct EntryDto {
    producer_id: f64,
    producer_epoch: i16,
    last_sequence: i32,
    last_offset: f64,
    offset_delta: i32,
    timestamp: f64,
    coordinator_epoch: i32,
    current_txn_first_offset: f64,
}

impl From<&eoslab_core::files::snapshot::ProducerEntry> for EntryDto {
    fn from(e: &eoslab_core::files::snapshot::ProducerEntry) -> Self {
        EntryDto {
            producer_id: e.producer_id as f64,
            producer_epoch: e.epoch,
            last_sequence: e.last_sequence,
            last_offset: e.last_offset as f64,
            offset_delta: e.offset_delta,
            timestamp: e.timestamp as f64,
            coordinator_epoch: e.coordinator_epoch,
            current_txn_first_offset: e.current_txn_first_offset as f64,
        }
    }
}

#[derive(serde::Serialize)]
#[serde(rename_all = "camelCase")]
struct EpochDto {
    epoch: i32,
    start_offset: f64,
}

fn epochs(v: &[partition::EpochStart]) -> Vec<EpochDto> {
    v.iter().map(|e| EpochDto { epoch: e.epoch, start_offset: e.start_offset as f64 }).collect()
}

#[derive(serde::Serialize)]
#[serde(rename_all = "camelCase")]
struct SnapshotProducerDto<'a> {
    producer_id: f64,
    stored: Option<EntryDto>,
    /// The log replayed from its start to the snapshot's offset.
    rebuilt: Option<EntryDto>,
    differs: &'a [&'static str],
}

#[derive(serde::Serialize)]
#[serde(rename_all = "camelCase")]
struct SnapshotDto<'a> {
    name: &'a str,
    offset: f64,
    version: i16,
    crc: u32,
    computed_crc: u32,
    producers: Vec<SnapshotProducerDto<'a>>,
}

#[derive(serde::Deserialize, Default)]
#[serde(rename_all = "camelCase")]
struct DumpOptionsDto {
    print_data_log: Option<bool>,
    deep_iteration: Option<bool>,
    /// "transaction-log" | "offsets".
    decoder: Option<String>,
}

#[derive(serde::Serialize)]
#[serde(rename_all = "camelCase")]
struct Dumped {
    /// What `kafka-dump-log --files …` prints on standard output.
    text: String,
    /// What it prints on standard error (Kafka's exception line where its tool throws).
    errors: String,
    /// The file and Kafka's exception name where the dump stopped, else null.
    failed: Option<String>,
}

/// `kafka-dump-log --files F1,F2,… [--print-data-log] [--deep-iteration]
/// [--transaction-log-decoder | --offsets-decoder]` over `[{name, bytes}]`, in the order given
/// (the core's files::dump, line for line what Kafka 4.3.1's DumpLogSegments prints; an index's
/// sibling `.log` / `.index` is taken from the same list). Returns `{text, errors, failed}`.
#[wasm_bindgen(js_name = dumpLog)]
pub fn dump_log(
    #[wasm_bindgen(unchecked_param_type = "{name: string, bytes: Uint8Array}[]")] files: JsValue,
    #[wasm_bindgen(unchecked_param_type = "{printDataLog?: boolean, deepIteration?: boolean, decoder?: \"transaction-log\" | \"offsets\"}")] options: JsValue,
) -> Result<JsValue, JsError> {
    use eoslab_core::files::dump::{sibling_path, DumpInput, DumpLog, DumpOptions, Stream};
    use eoslab_core::files::FileKind;
    let owned = read_files(files, "dumpLog")?;
    let o: DumpOptionsDto = crate::from_js_or_default(options, "invalid dumpLog options")?;
    let decoder = match o.decoder.as_deref() {
        None | Some("") => None,
        Some(d) => Some(
            eoslab_core::internal::InternalTopic::from_name(d)
                .ok_or_else(|| js_error(format!("invalid dumpLog options: decoder must be \"transaction-log\" or \"offsets\", got {d:?}")))?,
        ),
    };
    let mut dump = DumpLog::new(DumpOptions {
        print_data_log: o.print_data_log.unwrap_or(false),
        deep_iteration: o.deep_iteration.unwrap_or(false),
        decoder,
        ..DumpOptions::default()
    });
    let find = |path: &str| -> Result<&[u8], String> {
        owned.iter().find(|(n, _)| *n == path).map(|(_, b)| b.as_slice()).ok_or_else(|| path.to_string())
    };
    let (mut text, mut errors) = (String::new(), String::new());
    let mut take = |dump: &mut DumpLog| {
        for (s, l) in dump.take_lines() {
            let into = if s == Stream::Out { &mut text } else { &mut errors };
            into.push_str(&l);
            into.push('\n');
        }
    };
    for (name, bytes) in &owned {
        let kind = FileKind::of(name);
        let (log, index) = match kind {
            FileKind::Index => (Some(find(&sibling_path(name, "log"))), None),
            FileKind::TimeIndex => (Some(find(&sibling_path(name, "log"))), Some(find(&sibling_path(name, "index")))),
            _ => (None, None),
        };
        dump.dump(&DumpInput { path: name, absolute_path: name, bytes: Ok(bytes), log, index });
        take(&mut dump);
        if dump.failed().is_some() {
            break;
        }
    }
    dump.finish();
    take(&mut dump);
    let failed = dump.failed().map(|f| format!("{} at byte {} of {}", f.error.kind, f.error.at, f.path));
    to_js(&Dumped { text, errors, failed })
}

/// `[{name, bytes}]` from JS, copied.
fn read_files(files: JsValue, fn_name: &str) -> Result<Vec<(String, Vec<u8>)>, JsError> {
    let array: Array = files.dyn_into().map_err(|_| js_error(format!("{fn_name}: files must be an array of {{name, bytes}}")))?;
    let mut owned: Vec<(String, Vec<u8>)> = Vec::with_capacity(array.length() as usize);
    for (i, f) in array.iter().enumerate() {
        let name = Reflect::get(&f, &JsValue::from_str("name")).ok().and_then(|v| v.as_string());
        let bytes = Reflect::get(&f, &JsValue::from_str("bytes")).ok().and_then(|v| v.dyn_into::<Uint8Array>().ok());
        let (Some(name), Some(bytes)) = (name, bytes) else {
            return Err(js_error(format!("{fn_name}: files[{i}] needs a name (string) and bytes (Uint8Array)")));
        };
        owned.push((name, bytes.to_vec()));
    }
    Ok(owned)
}
