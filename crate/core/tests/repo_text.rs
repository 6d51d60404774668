//! What the repository's text tells a reader holds up: every file it names (`*.md`, `*.rs`,
//! `*.js`) is in the repository (or is one the build makes), and nothing points at the project's
//! issue tracker by number (which means nothing to a reader; the code and docs say what and why,
//! the commit messages keep the history).

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Command;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..").canonicalize().unwrap()
}

/// The tracked files, from git; `None` outside a git checkout (a source tarball), where the test
/// has nothing to check.
fn tracked(root: &Path) -> Option<Vec<String>> {
    let out = Command::new("git").arg("-C").arg(root).args(["ls-files", "-z"]).output().ok()?;
    if !out.status.success() {
        return None;
    }
    Some(String::from_utf8(out.stdout).ok()?.split('\0').filter(|s| !s.is_empty()).map(String::from).collect())
}

/// Text a reader reads: not data (fixtures, vendored schemas, lock files, snapshots of runs).
fn is_prose(path: &str) -> bool {
    let data = path.contains("/fixtures/") || path.starts_with("crate/core/messages/") || path.ends_with(".lock") || path.ends_with("-lock.json") || path.ends_with(".snap") || path.ends_with(".json") || path.ends_with(".png") || path.ends_with(".bin") || path.ends_with(".patch");
    !data
}

/// Words of `line` that name a `.md`, `.rs` or `.js` file (not a shell or template variable's
/// `$out.js`, not "Node.js").
fn file_names(line: &str) -> Vec<&str> {
    line.split(|c: char| !(c.is_ascii_alphanumeric() || matches!(c, '.' | '/' | '_' | '-' | '$' | '{' | '}')))
        .map(|w| w.trim_start_matches("./").trim_end_matches('.'))
        .filter(|w| !w.contains(['$', '{', '}']) && !w.starts_with('.') && *w != "Node.js")
        .filter(|w| {
            let ext = w.rsplit_once('.').map(|(stem, ext)| (stem, ext));
            matches!(ext, Some((stem, "md" | "rs" | "js")) if !stem.is_empty() && !stem.ends_with('/') && !stem.contains('*') && stem.chars().any(|c| c.is_ascii_alphabetic()))
        })
        .collect()
}

/// The word issue (or issues, any case) followed by a number (and an optional #).
fn cites_an_issue(line: &str) -> bool {
    let lower = line.to_ascii_lowercase();
    let b = lower.as_bytes();
    let mut i = 0;
    while let Some(at) = lower[i..].find("issue") {
        let start = i + at;
        let mut j = start + 5;
        if b.get(j) == Some(&b's') {
            j += 1;
        }
        let before_ok = start == 0 || !b[start - 1].is_ascii_alphanumeric();
        while matches!(b.get(j), Some(b' ' | b'#' | b'-')) {
            j += 1;
        }
        if before_ok && j > start + 5 && b.get(j).is_some_and(u8::is_ascii_digit) {
            return true;
        }
        i = start + 5;
    }
    false
}

/// A peer's own files, named where a test follows what that peer does.
const PEER_FILES: &[&str] = &[
    // kafkajs's record codec (tests/diff installs kafkajs from npm).
    "record/v0/decoder.js",
    "record/v0/index.js",
];

/// Files the build makes: named in the docs, never tracked.
fn generated(name: &str) -> bool {
    PEER_FILES.contains(&name) ||
        ["pkg/", "dist/", "target/", "node_modules/", ".venv"].iter().any(|p| name.contains(p))
        || name.contains("OUT_DIR")
        || matches!(name, "rules.md" | "cli.md" | "js-reference.md" | "results.md" | "embed-sizes.md" | "messages.rs")
        || name.starts_with("eoslab_bg") || name.starts_with("eoslab-decode") || name.starts_with("eoslab-files")
        || EXAMPLE_FILES.iter().any(|f| name.ends_with(f))
}

/// Files a docs author writes (the frame-sizing script embedding.md gives), or that the plugin
/// tests write into a scratch site to make a build fail or nest a page: named, never tracked.
const EXAMPLE_FILES: &[&str] = &["eoslab-frames.js", "broken.md", "bad.md", "unknown.md", "sub/nested.md"];

/// Whether `line` points at a numbered section (the section sign, then a number): the project cites its rule catalogue,
/// Kafka's source and KIPs, not the sections of a document kept elsewhere.
fn cites_a_section(line: &str) -> bool {
    line.char_indices().any(|(i, c)| c == '§' && line[i + c.len_utf8()..].trim_start().starts_with(|d: char| d.is_ascii_digit()))
}

#[test]
fn the_repository_names_only_files_it_has_and_no_issue_numbers() {
    let root = root();
    let Some(files) = tracked(&root) else { return };
    let paths: BTreeSet<&str> = files.iter().map(String::as_str).collect();
    let names: BTreeSet<&str> = files.iter().map(|f| f.rsplit('/').next().unwrap()).collect();
    let mut missing = Vec::new();
    let mut issues = Vec::new();
    let mut sections = Vec::new();
    for f in files.iter().filter(|f| is_prose(f)) {
        let Ok(text) = std::fs::read_to_string(root.join(f)) else { continue };
        let dir = f.rsplit_once('/').map_or("", |(d, _)| d);
        for (n, line) in text.lines().enumerate() {
            if cites_an_issue(line) {
                issues.push(format!("{f}:{}: {}", n + 1, line.trim()));
            }
            // A section pointer points into a document that is not in the repository: cite a rule id instead.
            if cites_a_section(line) {
                sections.push(format!("{f}:{}: {}", n + 1, line.trim()));
            }
            for name in file_names(line) {
                // A path may be where a file is deployed (`/eoslab/eoslab.js` is www/eoslab.js in
                // dist/eoslab): its file must be in the repository, under that name.
                let base = name.rsplit('/').next().unwrap();
                let exists = paths.contains(name) || names.contains(base) || root.join(dir).join(name).exists();
                if !exists && !generated(name) {
                    missing.push(format!("{f}:{}: {name}", n + 1));
                }
            }
        }
    }
    assert!(
        issues.is_empty() && missing.is_empty() && sections.is_empty(),
        "issue numbers in the repository's text ({}):\n  {}\nsection pointers (§) into a document the repository does not have ({}):\n  {}\nfiles named but not in the repository ({}):\n  {}",
        issues.len(),
        issues.join("\n  "),
        sections.len(),
        sections.join("\n  "),
        missing.len(),
        missing.join("\n  ")
    );
}

#[test]
fn what_the_scan_sees() {
    // Written in two pieces, so that this file does not cite a number itself.
    assert!(cites_an_issue(concat!("the ladder (iss", "ue 13) and")) && cites_an_issue(concat!("Iss", "ues 2 and 4")) && cites_an_issue(concat!("iss", "ue #7")));
    assert!(cites_a_section(concat!("(\u{a7}", "3.2)")) && cites_a_section(concat!("\u{a7} ", "6")) && !cites_a_section("\u{a7} alone"));
    // (Spelt in two parts so that this file does not cite one itself.)
    assert!(cites_an_issue(concat!("its pre-iss", "ue-14 name")) && cites_an_issue(concat!("iss", "ue #7")));
    assert!(!cites_an_issue("an issue with 3 parts") && !cites_an_issue("tissue 4") && !cites_an_issue("the issues"));
    assert_eq!(file_names("see `docs/pages/scripts.md`, lib.rs and ./www/eoslab.js. Not *.md, e.g., \"$out.js\" or Node.js"), ["docs/pages/scripts.md", "lib.rs", "www/eoslab.js"]);
}
