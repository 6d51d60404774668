//! `eoslab`: Kafka Record Batch bytes on the terminal.
//!
//! ```text
//! eoslab decode [FILE|-] [--json] [--headers-only] [--max-decompressed BYTES] [--formatter transaction-log|offsets]
//!               [--messages|--batches] [--size-prefixed|--no-size-prefix] [--request|--response] [--api-key K] [--api-version V]
//! eoslab encode SPEC.json [--hex|--base64|--binary] [-o FILE]
//! eoslab dump-log --files F[,F…] [--print-data-log] [--deep-iteration] [--transaction-log-decoder|--offsets-decoder] [--index-sanity-check] [--verify-index-only] [--skip-record-metadata] [--max-bytes N] [--max-message-size N]
//! eoslab partition DIR|FILE… [--json | --script]
//! eoslab rules [--markdown] [--scenarios DIR] [--not-checked FILE] [--random-coverage FILE]
//! eoslab capture FILE.pcap|FILE.pcapng [--json] [--api NAME[,NAME…]] [--transactional-id ID] [--producer-id N] [--partition TOPIC-N] [--script | --check [--kafka 4.1|4.3|trunk]]
//! ```
//! `capture` reads a packet capture (tcpdump, Wireshark, `tshark -w`) as Kafka conversations:
//! each TCP connection that carries Kafka, its requests paired with their responses by
//! correlation id, with capture times, the answers' errors, what each exchange is about
//! (transactional.ids, producer ids, partitions), gaps and damage reported (exit 1 when the file
//! itself is damaged); `--api`, `--transactional-id`, `--producer-id` and `--partition` keep only
//! the exchanges that match all of them. `--script` prints the requests the simulator answers as a
//! transactions script of request lines, in capture order; `--check` runs it and judges every
//! captured answer: agrees, differs (the field, both values, the rule and its Kafka source) or
//! cannot judge (and why); exit 1 when one differs.
//! `rules` prints the rule catalogue every decision cites (the docs' rule page with `--markdown`).
//! `partition` reads a partition directory (or the files given) as the broker loads it: producer
//! state from the latest snapshot plus the log after it, open transactions, the LSO, the aborted
//! transactions, and every `.snapshot`, `.index`, `.timeindex` and `.txnindex` checked against
//! the log (exit 1 when one disagrees or a file cannot be read); `--script` prints a simulator
//! script that starts from that state (`log-end`, `producer-state`) and retries each producer's
//! last batch.
//! `dump-log` prints what Kafka 4.3.1's `kafka-dump-log` prints for `.log`, `.index`,
//! `.timeindex`, `.txnindex` and `.snapshot` files (same lines on the same streams; exit 1 where
//! Kafka's tool throws), from eoslab_core::files::dump.
//! `decode` takes binary (a `.log` segment, a dumped `records` field) or text (hex in any
//! common layout, base64, byte-array literals) and prints a `kafka-dump-log
//! --print-data-log`-style listing, or with `--json` the same object the wasm `decode`
//! returns. `--formatter` reads the records as `__transaction_state` or `__consumer_offsets`
//! records and adds what `kafka-console-consumer --formatter` prints for each.
//! `decode` also reads whole requests and responses (eoslab_core::message): with
//! `--messages`, or by itself when the bytes are not clean batches but are clean messages (so every
//! batch or segment input prints exactly as before). It prints each message's header and body as
//! a tree of Kafka's field names with their byte ranges, the records of Produce/Fetch as the batch
//! listing, and, for Fetch responses, what a read_committed consumer does with each batch.
//! `--json` then prints the `decodeMessages` object. A response needs its request's api key and
//! version: from a request with the same correlation id earlier in the input, or `--api-key`
//! (number or name: `Fetch`) and `--api-version`.
//! Exit status: 0 clean, 1 when the input has errors, 2 on usage errors.
//! `encode` reads a batch spec (or an array of them) in the `encodeBatch` shape.

use std::io::{Read, Write};
use std::process::ExitCode;

mod capture_cmd;
mod decode_cmd;
mod files;
mod model;
mod rules_cmd;

use capture_cmd::cmd_capture;
use decode_cmd::cmd_decode;
use files::{cmd_dump_log, cmd_partition};
use model::{cmd_run, cmd_schedule, cmd_twin};
use rules_cmd::cmd_rules;

use eoslab_core::report::{BatchReport, Report, Severity};
use eoslab_core::{decode, encode_segment, BatchSpec, DecodeOptions};

const USAGE: &str = "usage:
  eoslab decode [FILE|-] [--json] [--headers-only] [--max-decompressed BYTES] [--formatter transaction-log|offsets]
                [--messages|--batches] [--size-prefixed|--no-size-prefix] [--request|--response] [--api-key K] [--api-version V]
  eoslab encode SPEC.json [--hex|--base64|--binary] [-o FILE]
  eoslab dump-log --files F[,F...] [--print-data-log] [--deep-iteration] [--transaction-log-decoder|--offsets-decoder] [--index-sanity-check] [--verify-index-only] [--skip-record-metadata] [--max-bytes N] [--max-message-size N]
  eoslab partition DIR|FILE... [--json | --script]
  eoslab partition --write-dir DIR --script SCENARIO.eos [--index-interval-bytes N]
  eoslab run SCENARIO.eos|SCENARIO.json [--json] [--transaction-version 0|1|2] [--kafka 4.1|4.3|trunk] [--leader-log] [--timeline]
  eoslab twin SCENARIO.eos
  eoslab schedule [--requests | --transactions [--requests | --exclude TEXT,…]] --seed N [--count N] [--steps N] [--producers N] [--partitions N] [--first-producer-id N] [--time MS]
  eoslab rules [--markdown] [--scenarios DIR] [--not-checked FILE] [--random-coverage FILE]
  eoslab capture FILE.pcap|FILE.pcapng [--json] [--api NAME[,NAME…]] [--transactional-id ID] [--producer-id N] [--partition TOPIC-N] [--script | --check [--kafka 4.1|4.3|trunk]]";

/// `eoslab … | head`: a reader that has gone ends the program as it ends `cat` (SIGPIPE), not with
/// a panic from `println!` or an error message. Rust ignores SIGPIPE by default; this restores
/// the default action (`signal(SIGPIPE, SIG_DFL)`; 13 and 0 on every Unix).
#[cfg(unix)]
fn quiet_on_closed_pipe() {
    extern "C" {
        fn signal(signum: i32, handler: usize) -> usize;
    }
    // SAFETY: plain libc call at start-up, before any thread exists; SIG_DFL is a valid handler.
    unsafe {
        signal(13, 0);
    }
}

#[cfg(not(unix))]
fn quiet_on_closed_pipe() {}

fn main() -> ExitCode {
    quiet_on_closed_pipe();
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = match args.first().map(String::as_str) {
        Some("decode") => cmd_decode(&args[1..]),
        Some("encode") => cmd_encode(&args[1..]),
        Some("dump-log") => cmd_dump_log(&args[1..]),
        Some("partition") => cmd_partition(&args[1..]),
        Some("run") => cmd_run(&args[1..]),
        Some("twin") => cmd_twin(&args[1..]),
        Some("schedule") => cmd_schedule(&args[1..]),
        Some("rules") => cmd_rules(&args[1..]),
        Some("capture") => cmd_capture(&args[1..]),
        Some("-h" | "--help" | "help") => {
            println!("{USAGE}");
            Ok(ExitCode::SUCCESS)
        }
        _ => Err(USAGE.to_string()),
    };
    match result {
        Ok(code) => code,
        Err(msg) => {
            eprintln!("eoslab: {msg}");
            ExitCode::from(2)
        }
    }
}

fn read_input(path: Option<&str>) -> Result<Vec<u8>, String> {
    let mut buf = Vec::new();
    match path {
        None | Some("-") => std::io::stdin().read_to_end(&mut buf).map_err(|e| format!("stdin: {e}"))?,
        Some(p) => {
            // A device never ends (/dev/zero, /dev/urandom): refused from its metadata, before
            // reading. A FIFO is read (`eoslab decode <(…)`): its writer decides where it ends.
            #[cfg(unix)]
            {
                use std::os::unix::fs::FileTypeExt;
                let t = std::fs::metadata(p).map_err(|e| format!("{p}: {e}"))?.file_type();
                if t.is_char_device() || t.is_block_device() {
                    return Err(format!("{p}: a device, not a file: not read (a device such as /dev/zero never ends)"));
                }
            }
            return std::fs::read(p).map_err(|e| format!("{p}: {e}"));
        }
    };
    Ok(buf)
}

fn cmd_encode(args: &[String]) -> Result<ExitCode, String> {
    let mut path = None;
    let mut format = "hex";
    let mut out_path = None;
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "--hex" => format = "hex",
            "--base64" => format = "base64",
            "--binary" => format = "binary",
            "-o" => out_path = Some(it.next().ok_or("-o needs a file")?.clone()),
            s if s.starts_with("--") => return Err(format!("unknown option {s}\n{USAGE}")),
            s => path = Some(s),
        }
    }
    let text = read_input(path)?;
    let value: serde_json::Value = serde_json::from_slice(&text).map_err(|e| format!("spec is not JSON: {e}"))?;
    let specs: Vec<BatchSpec> = if value.is_array() {
        serde_json::from_value(value).map_err(|e| format!("bad spec: {e}"))?
    } else {
        vec![serde_json::from_value(value).map_err(|e| format!("bad spec: {e}"))?]
    };
    let bytes = encode_segment(&specs).map_err(|e| e.to_string())?;
    let rendered = match format {
        "binary" => bytes,
        "base64" => {
            let mut s = base64(&bytes);
            s.push('\n');
            s.into_bytes()
        }
        _ => {
            let mut s = eoslab_core::report::to_hex(&bytes);
            s.push('\n');
            s.into_bytes()
        }
    };
    match out_path {
        Some(p) => std::fs::write(&p, rendered).map_err(|e| format!("{p}: {e}"))?,
        None => std::io::stdout().write_all(&rendered).map_err(|e| e.to_string())?,
    }
    Ok(ExitCode::SUCCESS)
}

fn base64(b: &[u8]) -> String {
    const A: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut s = String::with_capacity(b.len().div_ceil(3) * 4);
    for c in b.chunks(3) {
        let n = (c[0] as u32) << 16 | (*c.get(1).unwrap_or(&0) as u32) << 8 | *c.get(2).unwrap_or(&0) as u32;
        for i in 0..4 {
            if i <= c.len() {
                s.push(A[(n >> (18 - 6 * i) & 63) as usize] as char);
            } else {
                s.push('=');
            }
        }
    }
    s
}
