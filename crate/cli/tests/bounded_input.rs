//! Bad input on the terminal: every problem a reading finds is printed with its byte and Kafka's
//! name, "nothing recognised" is an error that says what each reading tried, an envelope is
//! reported as the reading its bytes most plausibly are, and bytes Kafka ignores are a warning.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn tmp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("eoslab-bounded-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

fn decode(args: &[&str], bytes: &[u8], name: &str) -> (i32, String) {
    let p = tmp(name);
    std::fs::write(&p, bytes).unwrap();
    let o: Output = Command::new(env!("CARGO_BIN_EXE_eoslab")).arg("decode").args(args).arg(&p).output().unwrap();
    (o.status.code().unwrap_or(-1), String::from_utf8_lossy(&o.stdout).into_owned() + &String::from_utf8_lossy(&o.stderr))
}

fn envelope(name: &str) -> Vec<u8> {
    let p = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/fixtures/envelopes-4.3.1").join(format!("{name}.hex"));
    let text = std::fs::read_to_string(p).unwrap();
    let hex: String = text.chars().filter(char::is_ascii_hexdigit).collect();
    (0..hex.len()).step_by(2).map(|i| u8::from_str_radix(&hex[i..i + 2], 16).unwrap()).collect()
}

/// A log entry header: base offset 0, then `size` (the batch length) and the magic byte.
fn entry(size: i32, magic: u8) -> Vec<u8> {
    let mut b = vec![0u8; 8];
    b.extend(size.to_be_bytes());
    b.extend([0, 0, 0, 0, magic]);
    b.resize(77, 0);
    b
}

#[test]
fn a_batch_reading_that_finds_no_batch_prints_its_error_with_the_byte() {
    let cases: [(&str, Vec<u8>, &str); 5] = [
        ("length-1", entry(-1, 2), "! error at byte 8 CorruptRecordException: Record size -1 is less than the minimum record overhead (14)"),
        ("length-10", entry(10, 2), "! error at byte 8 CorruptRecordException: Record size 10 is less than the minimum record overhead (14)"),
        ("magic-3", entry(60, 3), "! error at byte 16 CorruptRecordException: Invalid magic found in record: 3"),
        ("magic-ff", entry(60, 0xff), "! error at byte 16 CorruptRecordException: Invalid magic found in record: -1"),
        ("zeros", vec![0u8; 100], "! error at byte 8 CorruptRecordException: Record size 0 is less than the minimum record overhead (14)"),
    ];
    for (name, bytes, want) in cases {
        let (code, out) = decode(&[], &bytes, name);
        assert_eq!(code, 1, "{name}: {out}");
        assert!(out.contains(want), "{name}: {out}");
        assert!(out.contains("! error at byte 0 InvalidInput: nothing recognised in"), "{name}: {out}");
        assert!(out.contains("0 batch(es), 2 error(s)"), "{name}: {out}");
    }
    // Short runs of zeros, some of which read cleanly as Produce v0 requests (a version Kafka
    // removed): never taken for messages by detection.
    for n in [16usize, 20, 28, 48, 56, 112, 1024] {
        let (code, out) = decode(&[], &vec![0u8; n], &format!("zeros-{n}"));
        assert_eq!(code, 1, "{n}: {out}");
        assert!(out.contains(&format!("nothing recognised in {n} byte(s)")), "{n}: {out}");
    }
    // Random bytes (a fixed pattern): the first reading's failure, and the message reading's.
    let noise: Vec<u8> = (0u32..200).map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8 | 0x40).collect();
    let (code, out) = decode(&[], &noise, "noise");
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("nothing recognised in 200 byte(s): as record batches"), "{out}");
    assert!(out.contains("; as requests or responses at byte 0 InvalidInput"), "{out}");
}

#[test]
fn a_segment_or_a_request_cut_to_a_few_bytes_is_an_error_that_says_what_was_tried() {
    // A .log whose only batch is cut to 1..=16 bytes: no entry frames.
    let log = std::fs::read(Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/fixtures/kafka-4.3.1/txn-0/00000000000000000000.log")).unwrap();
    for n in 1..=16 {
        let (code, out) = decode(&[], &log[..n], &format!("log-{n}"));
        assert_eq!(code, 1, "{n}: {out}");
        assert!(out.contains(&format!("! error at byte 0 InvalidInput: nothing recognised in {n} byte(s): as record batches (a .log segment or a records field) at byte 0 PartialBatch")), "{n}: {out}");
    }
    // A Produce request cut to 1..=14 bytes.
    let produce = envelope("produce-v9-request");
    let size = i32::from_be_bytes(produce[..4].try_into().unwrap());
    for n in 1..=14 {
        let (code, out) = decode(&[], &produce[..n], &format!("produce-{n}"));
        assert_eq!(code, 1, "{n}: {out}");
        assert!(out.contains("nothing recognised in"), "{n}: {out}");
        assert!(!out.contains("Can't read version"), "{n}: the size prefix read as a version: {out}");
        if n >= 8 {
            // The size prefix and a Produce header: the frame is cut short.
            assert!(
                out.contains(&format!("! error at byte 0 (size) PartialMessage: the size prefix says {size} byte(s) but only {} follow", n - 4)),
                "{n}: {out}"
            );
        }
    }
}

#[test]
fn a_size_prefix_that_frames_the_input_is_the_reading_reported() {
    let produce = envelope("produce-v9-request");
    let with = |at: usize, v: &[u8]| {
        let mut b = produce.clone();
        b[at..at + v.len()].copy_from_slice(v);
        b
    };
    let cases = [
        ("key-999", with(4, &999i16.to_be_bytes()), "! error at byte 4 (requestApiKey) InvalidRequestException: Error parsing request header. Our best guess of the apiKeyId is: 999 (caused by IllegalArgumentException: Unexpected api key: 999)"),
        ("key-minus-1", with(4, &(-1i16).to_be_bytes()), "InvalidRequestException: Error parsing request header. Our best guess of the apiKeyId is: -1"),
        ("client-id-length", with(12, &30000i16.to_be_bytes()), "! error at byte 14 (clientId) InvalidRequestException: Error parsing request header. Our best guess of the apiKeyId is: 0 (caused by RuntimeException: Error reading byte array of 30000 byte(s)"),
    ];
    for (name, bytes, want) in cases {
        for args in [&[][..], &["--messages"][..]] {
            let (code, out) = decode(args, &bytes, name);
            assert_eq!(code, 1, "{name}: {out}");
            assert!(out.contains(want), "{name} {args:?}: {out}");
            assert!(!out.contains("Can't read version"), "{name}: {out}");
        }
    }
}

#[test]
fn bytes_kafka_ignores_after_a_response_body_are_a_warning() {
    // ApiVersions v3 request, then its response with 5 more bytes inside its frame (what
    // librdkafka's broker sends).
    let mut input = envelope("api-versions-v3-request");
    let mut resp = envelope("api-versions-v3-response");
    let size = i32::from_be_bytes(resp[..4].try_into().unwrap()) + 5;
    resp[..4].copy_from_slice(&size.to_be_bytes());
    resp.extend([0, 0, 0, 0, 0]);
    let body_end = input.len() + resp.len() - 5;
    input.extend(resp);
    let (code, out) = decode(&[], &input, "api-versions-trailing");
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("answers #0"), "{out}");
    assert!(out.contains(&format!("! warning at byte {body_end} TrailingBytes: 5 byte(s) after the body")), "{out}");
    assert!(out.ends_with("2 message(s), 0 error(s)\n"), "{out}");
}

#[test]
fn a_damaged_first_or_last_line_of_an_xxd_dump_is_an_error_not_surrounding_text() {
    let log = std::fs::read(Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/fixtures/kafka-4.3.1/txn-0/00000000000000000000.log")).unwrap();
    // xxd's layout: offset, eight groups of two bytes, the ASCII column.
    let lines: Vec<String> = log
        .chunks(16)
        .enumerate()
        .map(|(i, c)| {
            let hex: Vec<String> = c.chunks(2).map(|g| g.iter().map(|b| format!("{b:02x}")).collect()).collect();
            let ascii: String = c.iter().map(|&b| if (0x20..0x7f).contains(&b) { b as char } else { '.' }).collect();
            format!("{:08x}: {:<40} {ascii}", i * 16, hex.join(" "))
        })
        .collect();
    let (code, out) = decode(&[], lines.join("\n").as_bytes(), "xxd-clean");
    assert_eq!(code, 0, "{out}");
    assert!(out.starts_with(&format!("Input: xxd ({} bytes)", log.len())), "{out}");
    let damaged = |i: usize| {
        let mut l = lines.clone();
        l[i].replace_range(10..11, "g");
        l.join("\n") + "\n"
    };
    let (code, out) = decode(&[], damaged(0).as_bytes(), "xxd-first");
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("! error at byte 0 InvalidInput: unrecognised line just before a hex dump that starts at offset 10 (its first line damaged?) at line 1, column 1"), "{out}");
    let last = lines.len() - 1;
    let (code, out) = decode(&[], damaged(last).as_bytes(), "xxd-last");
    assert_eq!(code, 1, "{out}");
    assert!(out.contains(&format!("InvalidInput: unrecognised line inside a hex dump at line {}, column 1", last + 1)), "{out}");
    // Text around a dump is still text.
    let wrapped = format!("Here is the segment:\n{}\nthanks\n", lines.join("\n"));
    let (code, out) = decode(&[], wrapped.as_bytes(), "xxd-wrapped");
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("stripped: surrounding text"), "{out}");
}

#[test]
fn a_records_length_past_the_end_is_kafkas_illegal_argument() {
    let mut req = envelope("produce-v3-request");
    let p = tmp("produce-v3.bin");
    std::fs::write(&p, &req).unwrap();
    let o = Command::new(env!("CARGO_BIN_EXE_eoslab")).args(["decode", "--messages", "--json"]).arg(&p).output().unwrap();
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let start = v["messages"][0]["records"][0]["start"].as_u64().unwrap() as usize;
    // The int32 length just before the records.
    req[start - 4..start].copy_from_slice(&0x7fff_ffffi32.to_be_bytes());
    let left = req.len() - start;
    let (code, out) = decode(&["--messages"], &req, "produce-v3-records-huge");
    assert_eq!(code, 1, "{out}");
    assert!(out.contains(&format!("IllegalArgumentException: newLimit > capacity: (2147483647 > {left})")), "{out}");
}

#[test]
fn a_version_past_the_newest_fails_where_kafkas_reader_fails() {
    // Produce v99: ProduceRequestData's reader reads on (it has no version check), and the first
    // TopicProduceData's reader throws.
    let mut req = envelope("produce-v9-request");
    req[6..8].copy_from_slice(&99i16.to_be_bytes());
    for args in [&[][..], &["--messages"][..]] {
        let (code, out) = decode(args, &req, "produce-v99");
        assert_eq!(code, 1, "{out}");
        assert!(out.contains("#0 request Produce v99"), "{out}");
        assert!(out.contains("(topicData[0]) UnsupportedVersionException: Can't read version 99 of TopicProduceData"), "{out}");
        assert!(!out.contains("of ProduceRequestData"), "{out}");
    }
}

#[cfg(unix)]
#[test]
fn decode_refuses_a_device_and_names_a_directory() {
    let link = tmp("zero-link.log");
    std::fs::remove_file(&link).ok();
    std::os::unix::fs::symlink("/dev/zero", &link).unwrap();
    let o = Command::new(env!("CARGO_BIN_EXE_eoslab")).arg("decode").arg(&link).output().unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("a device, not a file"), "{}", String::from_utf8_lossy(&o.stderr));
    let o = Command::new(env!("CARGO_BIN_EXE_eoslab")).arg("decode").arg(std::env::temp_dir()).output().unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert!(!String::from_utf8_lossy(&o.stderr).is_empty());
}

/// `dump-log` reads each file whole: a FIFO, a device (here a link to /dev/zero) or a directory
/// given as a segment or index, or found as one's sibling, is refused before anything is dumped,
/// with exit code 2 and a message naming the path and why. The run is killed and the test fails
/// if it does not end within 20 s (a FIFO opened for reading would block it for ever).
#[cfg(unix)]
#[test]
fn dump_log_refuses_what_is_not_a_regular_file() {
    use std::time::{Duration, Instant};
    let dir = tmp("dump-log-special");
    let _ = std::fs::remove_dir_all(&dir);
    for d in ["fifo", "zero", "dir", "sibling"] {
        std::fs::create_dir_all(dir.join(d)).unwrap();
    }
    let seg = "00000000000000000000";
    let fifo = dir.join("fifo").join(format!("{seg}.log"));
    let made = Command::new("mkfifo").arg(&fifo).status().unwrap();
    assert!(made.success(), "mkfifo failed");
    let zero = dir.join("zero").join(format!("{seg}.log"));
    std::os::unix::fs::symlink("/dev/zero", &zero).unwrap();
    let sub = dir.join("dir").join(format!("{seg}.txnindex"));
    std::fs::create_dir_all(&sub).unwrap();
    // A regular index whose sibling .log is a FIFO: the sibling is refused by its own path.
    let index = dir.join("sibling").join(format!("{seg}.index"));
    std::fs::write(&index, [0u8; 8]).unwrap();
    let sibling_fifo = dir.join("sibling").join(format!("{seg}.log"));
    assert!(Command::new("mkfifo").arg(&sibling_fifo).status().unwrap().success());

    let cases: [(&Path, &Path, &str); 4] = [
        (&fifo, &fifo, "a FIFO, not a regular file: not read"),
        (&zero, &zero, "a device, not a regular file: not read"),
        (&sub, &sub, "a directory, not a regular file: not read"),
        (&index, &sibling_fifo, "a FIFO, not a regular file: not read"),
    ];
    for (given, named, what) in cases {
        let mut child = Command::new(env!("CARGO_BIN_EXE_eoslab"))
            .args(["dump-log", "--files"])
            .arg(given)
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        let start = Instant::now();
        while child.try_wait().unwrap().is_none() {
            if start.elapsed() > Duration::from_secs(20) {
                child.kill().unwrap();
                child.wait().unwrap();
                panic!("dump-log {} did not end within 20 s", given.display());
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        let o = child.wait_with_output().unwrap();
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{}: {err}", given.display());
        assert!(err.starts_with(&format!("eoslab: {}: {what} (", named.display())), "{}: {err}", given.display());
        assert!(o.stdout.is_empty(), "{}: printed {:?}", given.display(), String::from_utf8_lossy(&o.stdout));
    }
    std::fs::remove_dir_all(&dir).unwrap();
}
