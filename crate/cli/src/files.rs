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
    // Every file named or listed: regular files are read; anything else (a FIFO, a device such
    // as /dev/zero, a directory, a symlink loop or a dangling link) is named with why it was not
    // read, judged from its metadata alone so that nothing blocks (opening a FIFO waits for a
    // writer) or reads forever.
    let mut paths = Vec::new();
    let mut unread: Vec<String> = Vec::new();
    for a in args.iter().filter(|a| !a.starts_with("--")) {
        let p = std::path::Path::new(a);
        if std::fs::symlink_metadata(p).is_ok_and(|m| m.is_dir()) {
            let rd = std::fs::read_dir(p).map_err(|e| format!("{a}: {e}"))?;
            for e in rd {
                let e = e.map_err(|e| format!("{a}: {e}"))?;
                match not_a_file(&e.path()) {
                    None => paths.push(e.path()),
                    Some(why) => unread.push(format!("{}: could not be read: {why}", e.file_name().to_string_lossy())),
                }
            }
        } else {
            match not_a_file(p) {
                None => paths.push(p.to_path_buf()),
                Some(why) => unread.push(format!("{a}: could not be read: {why}")),
            }
        }
    }
    if paths.is_empty() && unread.is_empty() {
        return Err(format!("partition needs a directory or files\n{USAGE}"));
    }
    paths.sort();
    unread.sort();
    let mut files = Vec::new();
    let mut lengths = Vec::new();
    for p in &paths {
        let name = p.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        match read_bounded(p, eoslab_core::files::FileKind::of(&name)) {
            Ok((bytes, len)) => {
                lengths.push((name.clone(), len, bytes.len()));
                files.push((name, bytes));
            }
            Err(e) => unread.push(format!("{name}: could not be read: {e}")),
        }
    }
    let dir: Vec<DirFile<'_>> = files.iter().map(|(n, b)| DirFile { name: n, bytes: b }).collect();
    let mut p = partition::load(&dir);
    p.errors.extend(unread);
    // A segment's size is its file's, however much of it the loader needed.
    for s in &mut p.segments {
        if let Some((_, len, _)) = lengths.iter().find(|(n, _, _)| *n == s.name) {
            s.bytes = usize::try_from(*len).unwrap_or(usize::MAX);
        }
    }
    // An index whose zero tail one zero entry stood for (`read_bounded`): its checks count the
    // file's zero entries and place its last entry where the file has them.
    for (name, len, read) in &lengths {
        let entry = match eoslab_core::files::FileKind::of(name) {
            eoslab_core::files::FileKind::Index => 8u64,
            eoslab_core::files::FileKind::TimeIndex => 12,
            _ => continue,
        };
        let read = *read as u64;
        if read >= *len {
            continue;
        }
        let kept = read / entry; // entries read, the one zero entry included
        let (file_entries, zeros) = (len / entry, len / entry - (kept - 1));
        for c in p.checks.iter_mut().filter(|c| c.file == *name) {
            for t in [&mut c.what, &mut c.detail] {
                *t = t
                    .replace("(then 1 zero entries", &format!("(then {zeros} zero entries"))
                    .replace(&format!("(at byte {})", (kept - 1) * entry), &format!("(at byte {})", (file_entries - 1) * entry));
            }
        }
    }
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

/// A partition file's bytes, read no further than the loader looks, and the file's length.
/// A `.log` entry by entry as Kafka's log readers frame it (`ByteBufferLogInputStream.nextBatch`):
/// the loader stops at the first entry that does not frame, and so does the reading (a zeroed
/// or sparse segment costs 17 bytes, not its size). An offset or time index up to the zero
/// entries Kafka preallocates (`AbstractIndex` sizes a new index to `segment.index.bytes`, zero
/// filled): when everything after the first zero entry is zeros (skipped over holes with
/// `SEEK_DATA` on Linux, so a sparse file is not read), one zero entry stands for them, plus the
/// length's remainder, so Kafka's sanity check sees the same last entry and length modulo the
/// entry size. Anything else is read whole.
fn read_bounded(p: &std::path::Path, kind: eoslab_core::files::FileKind) -> std::io::Result<(Vec<u8>, u64)> {
    use eoslab_core::files::FileKind;
    use std::io::{Read, Seek, SeekFrom};
    let mut f = std::fs::File::open(p)?;
    let len = f.metadata()?.len();
    let mut out = Vec::new();
    match kind {
        FileKind::Log => {
            let mut pos = 0u64;
            loop {
                let mut head = [0u8; 17];
                let mut n = 0;
                while n < 17 {
                    match f.read(&mut head[n..])? {
                        0 => break,
                        k => n += k,
                    }
                }
                out.extend_from_slice(&head[..n]);
                if n < 17 {
                    break;
                }
                let size = i32::from_be_bytes([head[8], head[9], head[10], head[11]]);
                if size < 14 || !(0..=2).contains(&(head[16] as i8)) {
                    break;
                }
                let rest = size as u64 - 5;
                // Reserved up to what the file holds: untouched capacity costs no memory.
                out.reserve(rest.min(len.saturating_sub(pos + 17)) as usize);
                let got = Read::take(&mut f, rest).read_to_end(&mut out)? as u64;
                pos += 17 + got;
                if got < rest {
                    break;
                }
            }
        }
        FileKind::Index | FileKind::TimeIndex => {
            let entry = if kind == FileKind::Index { 8 } else { 12 };
            let mut buf = vec![0u8; 64 << 10];
            let mut pos = 0u64;
            // Entries before `scanned` hold a non-zero byte (the first may be all zeros).
            let mut scanned = entry;
            loop {
                let n = f.read(&mut buf[..])?;
                if n == 0 {
                    return Ok((out, len));
                }
                out.extend_from_slice(&buf[..n]);
                pos += n as u64;
                // The first zero entry after the first one.
                let whole = out.len() / entry * entry;
                let zero_at = (scanned..whole).step_by(entry).find(|&e| out[e..e + entry].iter().all(|&b| b == 0));
                scanned = scanned.max(whole);
                let Some(z) = zero_at else { continue };
                if !out[z..].iter().all(|&b| b == 0) || !rest_is_zeros(&mut f, pos, len)? {
                    // Entries after the zeros: read it all as it is.
                    f.seek(SeekFrom::Start(pos))?;
                    f.read_to_end(&mut out)?;
                    return Ok((out, len));
                }
                out.truncate(z + entry);
                out.resize(out.len() + (len % entry as u64) as usize, 0);
                return Ok((out, len));
            }
        }
        _ => {
            f.read_to_end(&mut out)?;
        }
    }
    Ok((out, len))
}

/// Whether the file holds only zero bytes from `pos` to `len`: holes are skipped with
/// `lseek(SEEK_DATA)` (Linux), data is read through a 64 KiB window.
fn rest_is_zeros(f: &mut std::fs::File, mut pos: u64, len: u64) -> std::io::Result<bool> {
    use std::io::{Read, Seek, SeekFrom};
    let mut buf = vec![0u8; 64 << 10];
    while pos < len {
        #[cfg(target_os = "linux")]
        {
            extern "C" {
                fn lseek(fd: i32, offset: i64, whence: i32) -> i64;
            }
            const SEEK_DATA: i32 = 3;
            use std::os::unix::io::AsRawFd;
            // SAFETY: a plain system call on a descriptor this function borrows.
            let next = unsafe { lseek(f.as_raw_fd(), pos as i64, SEEK_DATA) };
            const ENXIO: i32 = 6;
            if next < 0 && std::io::Error::last_os_error().raw_os_error() == Some(ENXIO) {
                // No data at or after `pos`: only a hole to the end.
                return Ok(true);
            }
            if next >= 0 {
                pos = next as u64;
                if pos >= len {
                    return Ok(true);
                }
            }
        }
        f.seek(SeekFrom::Start(pos))?;
        let n = f.read(&mut buf)?;
        if n == 0 {
            return Ok(true);
        }
        if buf[..n].iter().any(|&b| b != 0) {
            return Ok(false);
        }
        pos += n as u64;
    }
    Ok(true)
}

/// Why `p` is not read as a file (`None`: a regular file, through symlinks), from its metadata
/// only: opening a FIFO blocks until a writer comes and a character device may never end.
fn not_a_file(p: &std::path::Path) -> Option<String> {
    let m = match std::fs::metadata(p) {
        Ok(m) => m,
        // A symlink loop ("Too many levels of symbolic links"), a dangling link, no permission.
        Err(e) => return Some(e.to_string()),
    };
    if m.is_file() {
        return None;
    }
    if m.is_dir() {
        return Some(String::from("a directory, not a file"));
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        let t = m.file_type();
        if t.is_fifo() {
            return Some(String::from("a FIFO (named pipe), not a file: not opened (reading it waits for a writer)"));
        }
        if t.is_char_device() || t.is_block_device() {
            return Some(String::from("a device, not a file: not read (a device such as /dev/zero never ends)"));
        }
        if t.is_socket() {
            return Some(String::from("a socket, not a file"));
        }
    }
    Some(String::from("not a regular file"))
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

/// `dump-log` reads each file whole, so only a regular file is read: a FIFO would wait for a
/// writer and may never end, a device such as /dev/zero never ends, a directory has no bytes.
/// Decided from the path's metadata (stat follows a link and does not open the file, so a FIFO
/// is never opened). A path whose metadata cannot be read is left to the reader, which reports
/// it as Kafka's tool does (a missing file is its NoSuchFileException).
fn refuse_unless_regular(p: &std::path::Path) -> Result<(), String> {
    let Ok(m) = std::fs::metadata(p) else { return Ok(()) };
    if m.is_file() {
        return Ok(());
    }
    let t = m.file_type();
    let (what, why) = if t.is_dir() {
        ("a directory", "dump-log reads segment and index files, not directories")
    } else {
        special_file(t)
    };
    Err(format!("{}: {what}, not a regular file: not read ({why})", p.display()))
}

#[cfg(unix)]
fn special_file(t: std::fs::FileType) -> (&'static str, &'static str) {
    use std::os::unix::fs::FileTypeExt;
    if t.is_fifo() {
        ("a FIFO", "dump-log reads a file whole, and a FIFO ends only when its writer closes it")
    } else if t.is_char_device() || t.is_block_device() {
        ("a device", "dump-log reads a file whole, and a device such as /dev/zero never ends")
    } else if t.is_socket() {
        ("a socket", "dump-log reads files")
    } else {
        ("not a file", "dump-log reads files")
    }
}

#[cfg(not(unix))]
fn special_file(_: std::fs::FileType) -> (&'static str, &'static str) {
    ("not a file", "dump-log reads files")
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
    // Every file the dump will read, siblings included, is looked at before anything is
    // printed: one that is not a regular file is refused and nothing is dumped.
    for f in files.split(',') {
        let path = std::path::Path::new(f);
        let absolute = std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf());
        let absolute = absolute.display().to_string();
        let sibling = |ext: &str| eoslab_core::files::dump::sibling_path(&absolute, ext);
        let to_read: Vec<String> = match FileKind::of(f) {
            FileKind::Unknown | FileKind::LeaderEpochCheckpoint | FileKind::PartitionMetadata => Vec::new(),
            FileKind::Index => vec![f.to_string(), sibling("log")],
            FileKind::TimeIndex => vec![f.to_string(), sibling("log"), sibling("index")],
            _ => vec![f.to_string()],
        };
        for p in &to_read {
            refuse_unless_regular(std::path::Path::new(p))?;
        }
    }
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
