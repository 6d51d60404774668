//! `eoslab partition` and `eoslab dump-log`: a partition directory as the broker loads it, and
//! what `kafka-dump-log` prints for its files.

use super::*;

/// `eoslab dump-log`: `kafka-dump-log` (DumpLogSegments) over the files named by `--files`.
/// Reads each file (and an index's sibling `.log` / `.index`) and prints the lines
/// `eoslab_core::files::dump` produces on the stream Kafka prints them on.
pub(crate) fn cmd_partition(args: &[String]) -> Result<ExitCode, String> {
    use eoslab_core::files::partition::{self, DirFile};
    if args.iter().any(|a| a == "--write-dir") {
        return write_partition_dirs(args);
    }
    let json = args.iter().any(|a| a == "--json");
    let script = args.iter().any(|a| a == "--script");
    if let Some(bad) = args.iter().find(|a| a.starts_with("--") && *a != "--json" && *a != "--script") {
        return Err(format!("unknown option {bad}\n{USAGE}"));
    }
    let mut paths = Vec::new();
    for a in args.iter().filter(|a| !a.starts_with("--")) {
        let p = std::path::Path::new(a);
        if p.is_dir() {
            let rd = std::fs::read_dir(p).map_err(|e| format!("{a}: {e}"))?;
            for e in rd {
                let e = e.map_err(|e| format!("{a}: {e}"))?;
                if e.path().is_file() {
                    paths.push(e.path());
                }
            }
        } else {
            paths.push(p.to_path_buf());
        }
    }
    if paths.is_empty() {
        return Err(format!("partition needs a directory or files\n{USAGE}"));
    }
    paths.sort();
    let mut files = Vec::new();
    for p in &paths {
        let bytes = std::fs::read(p).map_err(|e| format!("{}: {e}", p.display()))?;
        files.push((p.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default(), bytes));
    }
    let dir: Vec<DirFile<'_>> = files.iter().map(|(n, b)| DirFile { name: n, bytes: b }).collect();
    let p = partition::load(&dir);
    let mut out = std::io::stdout().lock();
    let text = if json {
        serde_json::to_string_pretty(&p).map_err(|e| e.to_string())? + "\n"
    } else if script {
        let from = args.iter().find(|a| !a.starts_with("--")).map_or("", String::as_str);
        partition::simulator_script(&p, &format!("Continue from the partition in {from}"))
    } else {
        partition::render(&p)
    };
    out.write_all(text.as_bytes()).map_err(|e| e.to_string())?;
    let clean = p.errors.is_empty() && p.checks.iter().all(|c| c.ok);
    Ok(if clean { ExitCode::SUCCESS } else { ExitCode::from(1) })
}

/// `eoslab partition --write-dir DIR --script SCENARIO.eos`: runs the idempotence-model script and
/// writes each partition's leader as the directory a Kafka 4.3 broker would leave
/// (`DIR/<partition>/`: files::layout), then prints each file written with its size. Exit 1 when
/// the script's own expectations fail (the files are written all the same).
pub(crate) fn write_partition_dirs(args: &[String]) -> Result<ExitCode, String> {
    use eoslab_core::files::layout::{lab_topic_id, partition_dir, LayoutOptions, DEFAULT_INDEX_INTERVAL_BYTES};
    use eoslab_core::model::scenario;
    let (mut dir, mut script, mut interval) = (None, None, DEFAULT_INDEX_INTERVAL_BYTES);
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "--write-dir" => dir = Some(it.next().ok_or_else(|| format!("--write-dir takes a directory\n{USAGE}"))?),
            "--script" => script = Some(it.next().ok_or_else(|| format!("--script takes a scenario file\n{USAGE}"))?),
            "--index-interval-bytes" => {
                interval = it
                    .next()
                    .and_then(|v| v.parse::<i32>().ok())
                    .filter(|v| *v >= 0)
                    .ok_or_else(|| format!("--index-interval-bytes takes a number ≥ 0 (the topic's index.interval.bytes)\n{USAGE}"))?
            }
            s => return Err(format!("unknown argument {s} with --write-dir\n{USAGE}")),
        }
    }
    let (Some(dir), Some(path)) = (dir, script) else {
        return Err(format!("--write-dir needs --script SCENARIO.eos\n{USAGE}"));
    };
    let text = String::from_utf8(read_input(Some(path))?).map_err(|_| "a scenario is UTF-8 text".to_string())?;
    if eoslab_core::model::txn_scenario::is_transactions(&text) {
        return Err(format!("{path}: a `model transactions` script; --write-dir takes an idempotence-model script (produce/marker requests to a leader)"));
    }
    let sc = scenario::parse(&text).map_err(|e| format!("{path}: {e}"))?;
    let run = scenario::run(&sc);
    if let Some(e) = &run.error {
        return Err(format!("{path}: {e}"));
    }
    let mut out = std::io::stdout().lock();
    for p in &run.sim.cluster.partitions {
        let files = partition_dir(p, &LayoutOptions { index_interval_bytes: interval, topic_id: lab_topic_id(&p.name) })?;
        let to = std::path::Path::new(dir).join(&p.name);
        std::fs::create_dir_all(&to).map_err(|e| format!("{}: {e}", to.display()))?;
        for (name, bytes) in &files {
            let f = to.join(name);
            std::fs::write(&f, bytes).map_err(|e| format!("{}: {e}", f.display()))?;
            writeln!(out, "{} ({} bytes)", f.display(), bytes.len()).map_err(|e| e.to_string())?;
        }
    }
    Ok(if run.passed() { ExitCode::SUCCESS } else { ExitCode::from(1) })
}

pub(crate) fn cmd_dump_log(args: &[String]) -> Result<ExitCode, String> {
    use eoslab_core::files::dump::{DumpInput, DumpLog, DumpOptions, Stream};
    use eoslab_core::files::FileKind;
    use eoslab_core::internal::InternalTopic;
    let mut opts = DumpOptions::default();
    let mut files: Option<String> = None;
    let mut it = args.iter();
    let num = |name: &str, v: Option<&String>| -> Result<i32, String> {
        v.and_then(|v| v.parse::<i32>().ok())
            .ok_or_else(|| format!("{name} takes a number (an int)\n{USAGE}"))
    };
    while let Some(a) = it.next() {
        let (a, inline) = match a.split_once('=') {
            Some((k, v)) if k.starts_with("--") => (k, Some(v.to_string())),
            _ => (a.as_str(), None),
        };
        let value =
            |it: &mut std::slice::Iter<String>| inline.clone().or_else(|| it.next().cloned());
        match a {
            "--files" => {
                files = Some(value(&mut it).ok_or("--files needs a comma separated list of files")?)
            }
            "--print-data-log" => opts.print_data_log = true,
            "--deep-iteration" => opts.deep_iteration = true,
            "--transaction-log-decoder" => opts.decoder = Some(InternalTopic::TransactionState),
            "--offsets-decoder" => opts.decoder = Some(InternalTopic::ConsumerOffsets),
            "--index-sanity-check" => opts.index_sanity_check = true,
            "--verify-index-only" => opts.verify_index_only = true,
            "--skip-record-metadata" => opts.skip_record_metadata = true,
            "--max-bytes" => opts.max_bytes = num("--max-bytes", value(&mut it).as_ref())?,
            "--max-message-size" => {
                opts.max_message_size = num("--max-message-size", value(&mut it).as_ref())?
            }
            s => return Err(format!("unknown option {s}\n{USAGE}")),
        }
    }
    // Kafka: `offsetsOpt` is checked first when both decoders are given.
    if args.iter().any(|a| a == "--offsets-decoder") {
        opts.decoder = Some(InternalTopic::ConsumerOffsets);
    }
    let files = files.ok_or_else(|| format!("Missing required argument \"[files]\"\n{USAGE}"))?;
    let mut dump = DumpLog::new(opts);
    let stdout = std::io::stdout();
    let stderr = std::io::stderr();
    let mut out = std::io::BufWriter::new(stdout.lock());
    let read = |p: &std::path::Path| {
        std::fs::read(p).map_err(|e| match e.kind() {
            std::io::ErrorKind::NotFound => p.display().to_string(),
            _ => format!("{}: {e}", p.display()),
        })
    };
    for f in files.split(',') {
        let path = std::path::Path::new(f);
        let absolute = std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf());
        let absolute = absolute.display().to_string();
        let kind = FileKind::of(f);
        let bytes = match kind {
            FileKind::Unknown | FileKind::LeaderEpochCheckpoint | FileKind::PartitionMetadata => {
                Ok(Vec::new())
            }
            _ => read(path),
        };
        // Siblings by absolute path, as DumpLogSegments opens them.
        let sibling = |ext: &str| {
            read(std::path::Path::new(&eoslab_core::files::dump::sibling_path(&absolute, ext)))
        };
        let (log, index) = match kind {
            FileKind::Index => (Some(sibling("log")), None),
            FileKind::TimeIndex => (Some(sibling("log")), Some(sibling("index"))),
            _ => (None, None),
        };
        dump.dump(&DumpInput {
            path: f,
            absolute_path: &absolute,
            bytes: bytes.as_deref().map_err(Clone::clone),
            log: contents(&log),
            index: contents(&index),
        });
        for (s, l) in dump.take_lines() {
            emit(&mut out, &stderr, s, &l);
        }
        if dump.failed().is_some() {
            break;
        }
    }
    dump.finish();
    for (s, l) in dump.take_lines() {
        emit(&mut out, &stderr, s, &l);
    }
    out.flush().ok();
    if let Some(f) = dump.failed() {
        eprintln!(
            "eoslab: {} at byte {} of {}",
            f.error.kind, f.error.at, f.path
        );
        return Ok(ExitCode::from(1));
    }
    fn contents(c: &Option<Result<Vec<u8>, String>>) -> Option<Result<&[u8], String>> {
        c.as_ref().map(|r| r.as_deref().map_err(Clone::clone))
    }
    fn emit(out: &mut impl Write, err: &std::io::Stderr, s: Stream, l: &str) {
        match s {
            Stream::Out => {
                writeln!(out, "{l}").ok();
            }
            Stream::Err => {
                out.flush().ok();
                writeln!(err.lock(), "{l}").ok();
            }
        }
    }
    Ok(ExitCode::SUCCESS)
}
