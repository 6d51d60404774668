//! A partition directory's files read as the broker loads them (`loadPartition`): conversion
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
    checks: &'a [partition::Check],
    errors: &'a [String],
    ignored: &'a [String],
}

/// Reads the files of a partition directory (`[{name, bytes}]`, `bytes` a `Uint8Array`) as the
/// broker loads them: producer state from the latest snapshot plus the log after it, open
/// transactions, LSO, aborted transactions, and every index and snapshot checked against the
/// log. Returns `{text, script, ok, logStartOffset, logEndOffset, lastStableOffset, producers,
/// openTransactions, aborted, snapshotUsed, checks: [{file, ok, what, detail}], errors, ignored}`.
#[wasm_bindgen(js_name = loadPartition)]
pub fn load_partition(
    #[wasm_bindgen(unchecked_param_type = "{name: string, bytes: Uint8Array}[]")] files: JsValue,
    title: Option<String>,
) -> Result<JsValue, JsError> {
    let array: Array = files.dyn_into().map_err(|_| js_error("loadPartition: files must be an array of {name, bytes}"))?;
    let mut owned: Vec<(String, Vec<u8>)> = Vec::with_capacity(array.length() as usize);
    for (i, f) in array.iter().enumerate() {
        let name = Reflect::get(&f, &JsValue::from_str("name")).ok().and_then(|v| v.as_string());
        let bytes = Reflect::get(&f, &JsValue::from_str("bytes")).ok().and_then(|v| v.dyn_into::<Uint8Array>().ok());
        let (Some(name), Some(bytes)) = (name, bytes) else {
            return Err(js_error(format!("loadPartition: files[{i}] needs a name (string) and bytes (Uint8Array)")));
        };
        owned.push((name, bytes.to_vec()));
    }
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
        checks: &p.checks,
        errors: &p.errors,
        ignored: &p.ignored,
    })
}
