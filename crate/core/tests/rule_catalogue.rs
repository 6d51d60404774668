//! Every rule id cited anywhere a reader can meet it — the core's and the views' code, the
//! shipped scenarios, the snapshots of their runs (what the model actually answers), the docs
//! and the README — is an entry of the rule catalogue (`eoslab_core::rules`), so a citation
//! always leads somewhere and one id keeps one meaning.
//!
//! A citation is a word shaped like a rule id (`rules::citations`: `A1`, `AP8`, `C0b`); words
//! of that shape that are not citations (a constant's name) do not belong in these files. The old ids of [`rules::RENAMED`] may
//! appear only where the renaming itself is written down.

use std::path::{Path, PathBuf};

use eoslab_core::rules;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..").canonicalize().unwrap()
}

/// The files a reader meets, without data (fixtures, vendored schemas, binaries).
fn text_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    for e in entries {
        let p = e.unwrap().path();
        let name = p.file_name().unwrap().to_string_lossy().to_string();
        if p.is_dir() {
            if !matches!(name.as_str(), "fixtures" | "messages" | "node_modules" | "target" | "site") && !name.starts_with('.') {
                text_files(&p, out);
            }
        } else if [".rs", ".js", ".mjs", ".html", ".css", ".md", ".eos", ".snap", ".py", ".yml"].iter().any(|x| name.ends_with(x)) {
            out.push(p);
        }
    }
}

/// Where the renaming of old ids is written down.
const RENAMES_LISTED_IN: &[&str] = &["crate/core/src/rules.rs", "docs/pages/scripts.md", "crate/core/src/model/verdict.rs", "crate/core/src/model/partition/tests.rs", "crate/core/tests/rule_catalogue.rs"];

#[test]
fn every_cited_rule_id_is_in_the_catalogue() {
    let root = root();
    let mut files = Vec::new();
    for dir in ["crate", "www", "scenarios", "docs"] {
        text_files(&root.join(dir), &mut files);
    }
    files.push(root.join("README.md"));
    assert!(files.len() > 100, "the scan found the repository's files ({})", files.len());
    let mut missing = Vec::new();
    let mut seen = std::collections::BTreeSet::new();
    for f in &files {
        let rel = f.strip_prefix(&root).unwrap().to_string_lossy().replace('\\', "/");
        let Ok(text) = std::fs::read_to_string(f) else { continue };
        for (n, line) in text.lines().enumerate() {
            for id in rules::citations(line) {
                if rules::find(id).is_some() {
                    seen.insert(id.to_string());
                } else if !(RENAMES_LISTED_IN.contains(&rel.as_str()) && rules::RENAMED.iter().any(|(old, _)| *old == id)) {
                    missing.push(format!("{rel}:{}: {id}", n + 1));
                }
            }
        }
    }
    assert!(missing.is_empty(), "rule ids cited but not in the catalogue (crate/core/src/rules.rs):\n  {}", missing.join("\n  "));
    // The scan does see the citations: the leader's and the coordinator's commonest rules.
    for id in ["A1", "A7", "AP8", "C0b", "I10", "S6"] {
        assert!(seen.contains(id), "{id} is cited somewhere");
    }
}

#[test]
fn every_rule_the_leader_decides_is_in_the_catalogue() {
    use eoslab_core::model::verdict::legacy_rule_id;
    for (old, new) in rules::RENAMED {
        assert_eq!(legacy_rule_id(old), *new, "the renames agree with the verdicts'");
        assert!(rules::find(new).is_some(), "{new}");
    }
}

/// The Kafka harness's record of the rules its seeded random sequences reach
/// (tests/kafka/random-coverage.json, which the docs' catalogue shows) names only catalogue ids:
/// a rule renamed or removed must not leave a count the page cannot show.
#[test]
fn the_random_coverage_file_names_only_catalogue_rules() {
    let path = root().join("tests/kafka/random-coverage.json");
    let cov: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    let ids: Vec<&String> = cov["rules"].as_object().expect("a \"rules\" object").keys().collect();
    assert!(!ids.is_empty(), "the random sequences reach some rule");
    let missing: Vec<&&String> = ids.iter().filter(|id| rules::find(id).is_none()).collect();
    assert!(missing.is_empty(), "{} names rule ids the catalogue (crate/core/src/rules.rs) lacks: {missing:?}; rewrite it with `python3 tests/kafka/random_coverage.py --write`", path.display());
}
