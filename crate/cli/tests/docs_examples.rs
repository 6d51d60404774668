//! The scripts in the docs run: every ```kafka-ladder / ```kafka-timeline / ```kafka-scenario
//! fence of docs/pages that holds a script (not a shipped scenario's name) runs with `eoslab run`
//! and every `expect` in it holds; and the script language's page has a runnable example of
//! every line the parsers read (each verb of both verb lists begins a line of its examples).

use std::path::PathBuf;
use std::process::Command;

use eoslab_core::model::suggest::{IDEMPOTENCE_VERBS, TXN_VERBS};

fn pages() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../docs/pages")
}

/// (page, line of the fence, script) for every fence holding a script.
fn scripts() -> Vec<(String, usize, String)> {
    let mut out = Vec::new();
    let mut files: Vec<PathBuf> = std::fs::read_dir(pages()).unwrap().map(|e| e.unwrap().path()).filter(|p| p.extension().is_some_and(|x| x == "md")).collect();
    files.sort();
    for f in files {
        let text = std::fs::read_to_string(&f).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        let mut i = 0;
        while i < lines.len() {
            let l = lines[i].trim_start();
            if ["```kafka-ladder", "```kafka-timeline", "```kafka-scenario"].contains(&l.trim_end()) {
                let start = i + 1;
                let mut j = start;
                while j < lines.len() && !lines[j].trim_start().starts_with("```") {
                    j += 1;
                }
                let body = lines[start..j].join("\n");
                if body.trim().lines().count() > 1 {
                    out.push((f.file_name().unwrap().to_string_lossy().to_string(), start, body));
                }
                i = j;
            }
            i += 1;
        }
    }
    out
}

#[test]
fn every_script_in_the_docs_runs_and_its_expects_hold() {
    let all = scripts();
    assert!(all.len() >= 4, "the script language page has its examples ({})", all.len());
    let dir = std::env::temp_dir().join(format!("eoslab-docs-examples-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut failed = Vec::new();
    for (k, (page, line, body)) in all.iter().enumerate() {
        let path = dir.join(format!("{k}.eos"));
        std::fs::write(&path, body).unwrap();
        let o = Command::new(env!("CARGO_BIN_EXE_eoslab")).arg("run").arg(&path).output().unwrap();
        if !o.status.success() {
            let out = String::from_utf8_lossy(&o.stdout);
            let tail: Vec<&str> = out.lines().rev().take(4).collect();
            failed.push(format!("{page}:{line}: {}{}", String::from_utf8_lossy(&o.stderr), tail.join(" | ")));
        }
    }
    std::fs::remove_dir_all(&dir).unwrap();
    assert!(failed.is_empty(), "scripts in the docs that do not run cleanly:\n  {}", failed.join("\n  "));
}

#[test]
fn the_script_language_page_has_a_runnable_example_of_every_line() {
    let words: std::collections::BTreeSet<String> = scripts()
        .into_iter()
        .filter(|(page, ..)| page == "scripts.md")
        .flat_map(|(.., body)| body.lines().filter_map(|l| l.split_whitespace().next().map(String::from)).collect::<Vec<_>>())
        .collect();
    let missing: Vec<&&str> = IDEMPOTENCE_VERBS.iter().chain(TXN_VERBS).filter(|v| !words.contains(**v)).collect();
    assert!(missing.is_empty(), "lines with no runnable example in docs/pages/scripts.md: {missing:?}");
}
