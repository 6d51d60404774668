//! `eoslab rules`: the rule catalogue (`eoslab_core::rules`), as text or as the docs' Markdown
//! page. With `--scenarios DIR` each rule lists the shipped scenarios whose run cites it (`[A1]`,
//! `(K5)` in the run's text), each run by this same binary; with `--not-checked FILE` (the JSON object
//! of scenario name → reason that the Kafka harness reads) a scenario the harness does not put to
//! a real broker says so; with `--random-coverage FILE` (tests/kafka/random-coverage.json, written
//! by tests/kafka/random_coverage.py) each rule says how many of the seeded random sequences the
//! Kafka harness compares with real brokers reach it, and a rule that neither a shipped scenario
//! nor a random sequence cites says plainly that no real-broker test checks it.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use super::*;
use eoslab_core::rules::{self, RULES};

pub(crate) fn cmd_rules(args: &[String]) -> Result<ExitCode, String> {
    let mut markdown = false;
    let mut scenarios = None;
    let mut not_checked = None;
    let mut random = None;
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "--markdown" => markdown = true,
            "--scenarios" => scenarios = Some(it.next().ok_or("--scenarios needs a folder")?.clone()),
            "--not-checked" => not_checked = Some(it.next().ok_or("--not-checked needs a file")?.clone()),
            "--random-coverage" => random = Some(it.next().ok_or("--random-coverage needs a file")?.clone()),
            s => return Err(format!("unknown argument {s}\n{USAGE}")),
        }
    }
    let shown = match &scenarios {
        Some(dir) => cited_by_scenarios(Path::new(dir))?,
        None => BTreeMap::new(),
    };
    let unchecked: BTreeMap<String, String> = match &not_checked {
        Some(p) => serde_json::from_slice(&std::fs::read(p).map_err(|e| format!("{p}: {e}"))?).map_err(|e| format!("{p}: {e}"))?,
        None => BTreeMap::new(),
    };
    let random = random.as_deref().map(RandomCoverage::read).transpose()?;
    let out = if markdown {
        render_markdown(&shown, &unchecked, scenarios.is_some(), random.as_ref())
    } else {
        render_text(&shown, random.as_ref())
    };
    std::io::stdout().write_all(out.as_bytes()).map_err(|e| e.to_string())?;
    Ok(ExitCode::SUCCESS)
}

/// Rule id → the scenarios (file stems) whose run cites it. A scenario that fails to run is an
/// error: the docs must not list rules from a broken scenario.
fn cited_by_scenarios(dir: &Path) -> Result<BTreeMap<&'static str, BTreeSet<String>>, String> {
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .map_err(|e| format!("{}: {e}", dir.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "eos"))
        .collect();
    files.sort();
    if files.is_empty() {
        return Err(format!("{}: no .eos scenario", dir.display()));
    }
    let me = std::env::current_exe().map_err(|e| e.to_string())?;
    let mut shown: BTreeMap<&'static str, BTreeSet<String>> = BTreeMap::new();
    for f in files {
        let out = std::process::Command::new(&me).arg("run").arg(&f).output().map_err(|e| e.to_string())?;
        if !out.status.success() {
            return Err(format!("{} does not run cleanly:\n{}{}", f.display(), String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr)));
        }
        let stem = f.file_stem().unwrap().to_string_lossy().to_string();
        for id in rules::citations(&String::from_utf8_lossy(&out.stdout)) {
            if let Some(rule) = rules::find(id) {
                shown.entry(rule.id).or_default().insert(stem.clone());
            }
        }
    }
    Ok(shown)
}

/// What tests/kafka/random-coverage.json says (written by tests/kafka/random_coverage.py): the
/// seed of the Kafka harness's random sequences, each run of them (a generator against one Kafka
/// version) and, per rule id, how many sequences of each run cite it.
#[derive(serde::Deserialize)]
struct RandomCoverage {
    seed: u64,
    runs: Vec<RandomRun>,
    rules: BTreeMap<String, BTreeMap<String, u64>>,
}

/// One run of random sequences: `run` is its key in `rules`, `about` what its generator makes.
/// Runs of one generator share their first sequences (sequence i has seed + i).
#[derive(serde::Deserialize)]
struct RandomRun {
    run: String,
    generator: String,
    about: String,
    kafka: String,
    sequences: u64,
}

impl RandomCoverage {
    /// The file, checked: a rule id the catalogue lacks or a run the file does not list is an
    /// error, so the page never counts what it cannot show.
    fn read(path: &str) -> Result<Self, String> {
        let bytes = std::fs::read(path).map_err(|e| format!("{path}: {e}"))?;
        let cov: RandomCoverage = serde_json::from_slice(&bytes).map_err(|e| format!("{path}: {e}"))?;
        for (id, counts) in &cov.rules {
            if rules::find(id).is_none() {
                return Err(format!("{path}: rule {id} is not in the catalogue (crate/core/src/rules.rs)"));
            }
            if let Some(run) = counts.keys().find(|k| !cov.runs.iter().any(|r| &r.run == *k)) {
                return Err(format!("{path}: rule {id} counts run {run}, which the file does not list"));
            }
        }
        Ok(cov)
    }

    /// The distinct sequences: each generator's longest run (its shorter runs send the first of
    /// the same sequences to another Kafka version).
    fn distinct(&self) -> u64 {
        let mut longest: BTreeMap<&str, u64> = BTreeMap::new();
        for r in &self.runs {
            let n = longest.entry(&r.generator).or_default();
            *n = (*n).max(r.sequences);
        }
        longest.values().sum()
    }

    /// The Kafka versions the runs compare with, in the file's order.
    fn versions(&self) -> Vec<&str> {
        let mut out: Vec<&str> = Vec::new();
        for r in &self.runs {
            if !out.contains(&r.kafka.as_str()) {
                out.push(&r.kafka);
            }
        }
        out
    }

    /// The runs that reach `id` with their counts, grouped by Kafka version in the file's order.
    fn reached(&self, id: &str) -> Vec<(&str, Vec<(u64, &RandomRun)>)> {
        let Some(counts) = self.rules.get(id) else { return Vec::new() };
        let mut out: Vec<(&str, Vec<(u64, &RandomRun)>)> = Vec::new();
        for r in &self.runs {
            let Some(&n) = counts.get(&r.run).filter(|n| **n > 0) else { continue };
            match out.iter_mut().find(|(v, _)| *v == r.kafka) {
                Some((_, runs)) => runs.push((n, r)),
                None => out.push((&r.kafka, vec![(n, r)])),
            }
        }
        out
    }

    /// The catalogue's sentence for `id`: which random sequences reach it, or that none does.
    fn sentence(&self, id: &str) -> String {
        let reached = self.reached(id);
        if reached.is_empty() {
            return format!("none of the {} seeded random sequences reaches it", thousands(self.distinct()));
        }
        let per_version: Vec<String> = reached
            .iter()
            .map(|(v, runs)| {
                let runs: Vec<String> = runs.iter().map(|(n, r)| format!("{} of {} {}", thousands(*n), thousands(r.sequences), r.about)).collect();
                format!("against Kafka {v} by {}", runs.join(", "))
            })
            .collect();
        format!("checked {} (seed {})", per_version.join("; "), self.seed)
    }
}

/// `1000` as `1,000`: the counts as the docs write numbers.
fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
}

fn render_text(shown: &BTreeMap<&'static str, BTreeSet<String>>, random: Option<&RandomCoverage>) -> String {
    let mut s = String::new();
    for f in rules::FAMILIES {
        s.push_str(&format!("{}\n", f.title));
        for r in RULES.iter().filter(|r| rules::family(r.id).map(|x| x.prefix) == Some(f.prefix)) {
            s.push_str(&format!("  {:<4} {}\n       Kafka: {}\n", r.id, r.rule, r.source));
            if !r.differs.is_empty() {
                s.push_str(&format!("       Lines differ: {}\n", r.differs));
            }
            if let Some(sc) = shown.get(r.id) {
                s.push_str(&format!("       Scenarios: {}\n", sc.iter().cloned().collect::<Vec<_>>().join(", ")));
            }
            if let Some(cov) = random {
                s.push_str(&format!("       Random sequences: {}\n", cov.sentence(r.id)));
            }
        }
    }
    s
}

/// The docs' rule page. Each rule is a heading of its own, so `rules.md#a1` links to it.
fn render_markdown(
    shown: &BTreeMap<&'static str, BTreeSet<String>>,
    unchecked: &BTreeMap<String, String>,
    with_scenarios: bool,
    random: Option<&RandomCoverage>,
) -> String {
    let mut s = String::from(
        "<!-- Generated by `eoslab rules --markdown` from crate/core/src/rules.rs at `make docs`: edit the table there. -->\n\
         # Rule catalogue\n\n\
         Every decision the simulator makes cites one of these rules: the timelines show it in brackets (`[A1]`), the\n\
         ladders beside each answer. One id means one rule everywhere. Each rule names the Kafka source that decides it\n\
         (paths in apache/kafka at 4.3.1) and, where Kafka's release lines differ, how.\n\n",
    );
    if with_scenarios {
        s.push_str(
            "Under each rule are the shipped scenarios whose run cites it. `make test` runs every scenario against real\n\
             Kafka 4.3.1 and 4.1.2 brokers except those marked *not run against Kafka*, with the reason.\n\n",
        );
    }
    if let Some(cov) = random {
        s.push_str(&format!(
            "`make test` also sends {} seeded random sequences (seed {}) to real Kafka {} brokers and compares every\n\
             answer with the simulator's: *Random sequences* says how many of them reach the rule against each version\n\
             (counted by running the same sequences through the simulator: tests/kafka/random-coverage.json). A rule\n\
             that no shipped scenario and no random sequence cites is marked *Not checked against a real broker*.\n\n",
            thousands(cov.distinct()),
            cov.seed,
            cov.versions().join(" and ")
        ));
    }
    for f in rules::FAMILIES {
        s.push_str(&format!("## {}\n\n", f.title));
        for r in RULES.iter().filter(|r| rules::family(r.id).map(|x| x.prefix) == Some(f.prefix)) {
            s.push_str(&format!("### {}\n\n{}\n\n- Kafka: `{}`\n", r.id, r.rule, r.source));
            if !r.differs.is_empty() {
                s.push_str(&format!("- Release lines differ: {}\n", r.differs));
            }
            if with_scenarios {
                match shown.get(r.id) {
                    Some(sc) => {
                        let names: Vec<String> = sc
                            .iter()
                            .map(|n| match unchecked.get(n) {
                                Some(why) => format!("`{n}` (not run against Kafka: {why})"),
                                None => format!("`{n}`"),
                            })
                            .collect();
                        s.push_str(&format!("- Scenarios: {}\n", names.join(", ")));
                    }
                    None => s.push_str("- Scenarios: no shipped scenario's run cites it.\n"),
                }
            }
            if let Some(cov) = random {
                s.push_str(&format!("- Random sequences: {}.\n", cov.sentence(r.id)));
                // Only when nothing names it: a scenario the one-broker harness leaves out may be
                // checked elsewhere (its reason says where), and is listed above with that reason.
                if with_scenarios && !shown.contains_key(r.id) && cov.reached(r.id).is_empty() {
                    s.push_str("- **Not checked against a real broker**: no shipped scenario's run and no seeded random sequence cites it.\n");
                }
            }
            s.push('\n');
        }
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_markdown_page_has_a_heading_per_rule_and_its_source() {
        let mut shown = BTreeMap::new();
        shown.insert("A1", BTreeSet::from(["lost-response-retry".to_string(), "txn-epoch-exhaustion".to_string()]));
        let unchecked = BTreeMap::from([("txn-epoch-exhaustion".to_string(), "needs epoch 32764".to_string())]);
        let md = render_markdown(&shown, &unchecked, true, None);
        for r in RULES {
            assert!(md.contains(&format!("\n### {}\n\n{}\n\n- Kafka: `{}`\n", r.id, r.rule, r.source)), "{}", r.id);
        }
        assert!(md.contains("- Scenarios: `lost-response-retry`, `txn-epoch-exhaustion` (not run against Kafka: needs epoch 32764)\n"));
        assert!(md.contains("### A2\n") && md.contains("- Scenarios: no shipped scenario's run cites it."));
    }

    fn coverage() -> RandomCoverage {
        serde_json::from_str(
            r#"{"seed": 7, "runs": [
                {"run": "a@4.3.1", "generator": "a", "about": "leader schedules", "kafka": "4.3.1", "sequences": 1000},
                {"run": "b@4.3.1", "generator": "b", "about": "txn requests", "kafka": "4.3.1", "sequences": 20},
                {"run": "a@4.1.2", "generator": "a", "about": "leader schedules", "kafka": "4.1.2", "sequences": 200}],
              "rules": {"A1": {"a@4.3.1": 295, "b@4.3.1": 7, "a@4.1.2": 64}, "A2": {"b@4.3.1": 3}}}"#,
        )
        .unwrap()
    }

    #[test]
    fn random_coverage_says_which_sequences_reach_a_rule_per_kafka_version() {
        let cov = coverage();
        assert_eq!(cov.sentence("A1"), "checked against Kafka 4.3.1 by 295 of 1,000 leader schedules, 7 of 20 txn requests; against Kafka 4.1.2 by 64 of 200 leader schedules (seed 7)");
        assert_eq!(cov.sentence("B0"), "none of the 1,020 seeded random sequences reaches it");
        assert_eq!(cov.versions(), ["4.3.1", "4.1.2"]);
    }

    #[test]
    fn a_rule_no_scenario_and_no_random_sequence_cites_says_so() {
        let shown = BTreeMap::from([("A1", BTreeSet::from(["s".to_string()])), ("A2", BTreeSet::from(["u".to_string()])), ("A3", BTreeSet::from(["u".to_string()]))]);
        let unchecked = BTreeMap::from([("u".to_string(), "why".to_string())]);
        let md = render_markdown(&shown, &unchecked, true, Some(&coverage()));
        let entry = |id: &str| md.split(&format!("\n### {id}\n")).nth(1).unwrap().split("\n### ").next().unwrap().to_string();
        const NOT: &str = "**Not checked against a real broker**";
        assert!(entry("A1").contains("- Random sequences: checked against Kafka 4.3.1 by 295 of 1,000") && !entry("A1").contains(NOT));
        // Cited only by a scenario the one-broker harness does not run: its reason says where it is
        // checked, if anywhere; the catalogue does not claim more.
        assert!(!entry("A2").contains(NOT) && !entry("A3").contains(NOT), "{}", entry("A3"));
        assert!(entry("A3").contains("`u` (not run against Kafka: why)"));
        assert!(entry("B0").contains(NOT), "{}", entry("B0"));
        assert!(entry("B0").contains("- Random sequences: none of the 1,020 seeded random sequences reaches it.\n"));
        assert!(md.contains("1,020 seeded random sequences (seed 7) to real Kafka 4.3.1 and 4.1.2 brokers"));
    }

    #[test]
    fn thousands_groups_digits() {
        assert_eq!([0, 999, 1000, 1220, 1234567].map(thousands), ["0", "999", "1,000", "1,220", "1,234,567"]);
    }
}
