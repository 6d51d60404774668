//! Script errors a student can recover from: an unknown verb or name is answered with
//! the nearest valid one ("unknown step `sned` — did you mean `send`?"), and the error quotes the
//! line it is on. The parsers (`scenario::parse`, `txn_scenario::parse`) find the error; this
//! module only rewrites its message, so what a script means never depends on it.

use alloc::format;
use alloc::string::ToString;
use alloc::vec::Vec;

use super::script::ParseError;

/// Every verb of the idempotence language: set-up directives and steps (`scenario::parse`,
/// `scenario::parse_step`; documented in scenarios/README.md).
pub const IDEMPOTENCE_VERBS: &[&str] = &[
    "title", "about", "time", "first-producer-id", "broker", "partition", "producer", "send", "deliver", "lose", "delay",
    "refuse", "timeout", "restart", "advance", "leader-change", "lag", "catch-up", "leader-fails", "fetch", "list-offsets", "flush", "produce", "marker", "repeat", "expect", "log-end",
    "producer-state",
    // Requests for the coordinators, answered by the transactions world (model/scenario/run.rs).
    "init-producer-id", "add-partitions-to-txn", "end-txn", "find-coordinator", "add-offsets-to-txn", "txn-offset-commit", "offset-fetch",
];

/// Every verb of the transactions language (`txn_scenario::parse` and its step parser).
pub const TXN_VERBS: &[&str] = &[
    "model", "title", "about", "time", "first-producer-id", "cluster", "txn-state", "group-state", "producer-state", "partition", "partitions",
    "producer", "consumer", "repeat", "init", "begin", "send", "send-all", "send-offsets", "commit", "abort", "deliver", "delay", "crash",
    "advance", "failover", "run-task", "poll", "rebalance", "seek", "offset-fetch", "effect", "feature", "flush", "expect",
    // Replication faults (model/txn/replication.rs).
    "lag", "catch-up", "leader-fails", "inject", "release",
    // Requests asked directly (model/txn/requests.rs).
    "init-producer-id", "add-partitions-to-txn", "end-txn", "produce", "marker", "fetch", "list-offsets", "find-coordinator",
    "add-offsets-to-txn", "txn-offset-commit",
    // A producer without a transactional.id: the idempotence scripts' steps (txn_scenario/hosted.rs).
    "lose", "refuse", "timeout", "restart",
];

/// The optimal-string-alignment distance (Levenshtein plus the swap of two neighbours, so a
/// typed `sned` is one edit from `send`), counted in characters.
pub fn distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    let (n, m) = (a.len(), b.len());
    let mut d = alloc::vec![0usize; (n + 1) * (m + 1)];
    let at = |i: usize, j: usize| i * (m + 1) + j;
    for i in 0..=n {
        d[at(i, 0)] = i;
    }
    for j in 0..=m {
        d[at(0, j)] = j;
    }
    for i in 1..=n {
        for j in 1..=m {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut v = (d[at(i - 1, j)] + 1).min(d[at(i, j - 1)] + 1).min(d[at(i - 1, j - 1)] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                v = v.min(d[at(i - 2, j - 2)] + 1);
            }
            d[at(i, j)] = v;
        }
    }
    d[at(n, m)]
}

/// The candidate nearest to `word` when it is near enough to be a typo: at most one edit for
/// words of up to four characters, two up to eight, three beyond (case ignored); the first of
/// equally near candidates (the order given). A candidate that starts with the word (`dDeliver`
/// typed as `del`) counts as near too.
pub fn nearest<'a>(word: &str, candidates: &[&'a str]) -> Option<&'a str> {
    let w = word.to_lowercase();
    let limit = match w.chars().count() {
        0 => return None,
        1..=4 => 1,
        5..=8 => 2,
        _ => 3,
    };
    let mut best: Option<(&'a str, usize)> = None;
    for &c in candidates {
        let d = distance(&w, &c.to_lowercase());
        if d <= limit && best.is_none_or(|(_, bd)| d < bd) {
            best = Some((c, d));
        }
    }
    best.map(|(c, _)| c).or_else(|| if w.len() >= 3 { candidates.iter().copied().find(|c| c.starts_with(&w)) } else { None })
}

/// `message` (an error naming `word`, which is not one of `names`) followed by the nearest of
/// `names` when it is near enough to be a typo: `no producer named "olld" — did you mean "old"?`.
/// The error of a step that names a producer, partition, consumer or group the run does not have.
pub fn did_you_mean<'a>(message: alloc::string::String, word: &str, names: impl IntoIterator<Item = &'a str>) -> alloc::string::String {
    let names: Vec<&str> = names.into_iter().collect();
    match nearest(word, &names) {
        Some(n) => format!("{message} — did you mean {n:?}?"),
        None => message,
    }
}

/// The batch number nearest to `batch` among `have` (the batches that have what a step wants:
/// a request or response in the network), for an error of a step naming another one; the lower
/// of two equally near.
pub fn nearest_batch(batch: usize, have: impl IntoIterator<Item = usize>) -> Option<usize> {
    have.into_iter().filter(|&b| b != batch).min_by_key(|&b| (b.abs_diff(batch), b))
}

/// The first word of each script line whose first word is `directive` (the names a script
/// declares with `producer NAME …`, `partition NAME`, `consumer NAME …`).
fn declared<'a>(script: &'a str, directives: &[&str]) -> Vec<&'a str> {
    let mut out = Vec::new();
    for raw in script.lines() {
        let content = raw.split_once('#').map_or(raw, |(a, _)| a);
        let mut words = content.split_whitespace();
        if let Some(first) = words.next() {
            if directives.contains(&first) {
                if first == "partition" {
                    out.extend(words);
                } else if let Some(name) = words.next() {
                    out.push(name);
                }
            }
        }
    }
    out
}

/// The word between the first pair of double quotes of `message` after `prefix`, when the
/// message starts with it (`unknown step "sned"` → `sned`).
fn quoted<'m>(message: &'m str, prefix: &str) -> Option<(&'m str, &'m str)> {
    let rest = message.strip_prefix(prefix)?.strip_prefix('"')?;
    let end = rest.find('"')?;
    Some((&rest[..end], &rest[end + 1..]))
}

/// Rewrites a parse error of `script` (written in a language whose verbs are `verbs`): an
/// unknown verb gets the nearest valid one (or the list of valid verbs when none is near), an
/// unknown producer or partition the nearest declared name, and every error quotes its line
/// (`\n  N | the line`). The line number and the error's place are unchanged.
pub fn explain(err: ParseError, script: &str, verbs: &[&str]) -> ParseError {
    let ParseError { line, message } = err;
    let mut message = message;
    for prefix in ["unknown step ", "unknown command "] {
        if let Some((word, _)) = quoted(&message, prefix) {
            let word = word.to_string();
            message = match nearest(&word, verbs) {
                Some(v) => format!("unknown step `{word}` — did you mean `{v}`?"),
                None => format!("unknown step `{word}`; the steps are: {}", verbs.join(", ")),
            };
            break;
        }
    }
    for (prefix, directives) in [("unknown producer ", &["producer", "consumer"][..]), ("unknown partition ", &["partition", "partitions"][..])] {
        if let Some((word, rest)) = quoted(&message, prefix) {
            let names = declared(script, directives);
            if let Some(n) = nearest(word, &names) {
                let how = rest.trim_start_matches([':', ' ']);
                message = if how.is_empty() {
                    format!("{prefix}`{word}` — did you mean `{n}`?")
                } else {
                    format!("{prefix}`{word}` — did you mean `{n}`? (or {how})")
                };
            }
            break;
        }
    }
    if let Some(text) = line.checked_sub(1).and_then(|i| script.lines().nth(i)) {
        let text = text.trim_end();
        if !text.trim().is_empty() {
            message = format!("{message}\n  {line} | {text}");
        }
    }
    ParseError { line, message }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn distance_counts_a_swap_as_one_edit() {
        assert_eq!(distance("sned", "send"), 1);
        assert_eq!(distance("send", "send"), 0);
        assert_eq!(distance("delivr", "deliver"), 1);
        assert_eq!(distance("", "abc"), 3);
        assert_eq!(distance("commit", "abort"), 5);
    }

    #[test]
    fn nearest_finds_typos_and_nothing_for_other_words() {
        assert_eq!(nearest("sned", IDEMPOTENCE_VERBS), Some("send"));
        assert_eq!(nearest("SEND", IDEMPOTENCE_VERBS), Some("send"));
        assert_eq!(nearest("comit", TXN_VERBS), Some("commit"));
        assert_eq!(nearest("offset-fecth", TXN_VERBS), Some("offset-fetch"));
        assert_eq!(nearest("leader", IDEMPOTENCE_VERBS), Some("leader-change"));
        assert_eq!(nearest("xyzzy", IDEMPOTENCE_VERBS), None);
        assert_eq!(nearest("", IDEMPOTENCE_VERBS), None);
    }

    #[test]
    fn an_unknown_verb_is_answered_with_the_nearest_and_its_line() {
        let script = "partition p\nproducer app\nsend app p x\nsned app p y\n";
        let err = crate::model::scenario::parse(script).unwrap_err();
        assert_eq!(err.line, 4);
        assert_eq!(err.message, "unknown step `sned` — did you mean `send`?\n  4 | sned app p y");
        assert_eq!(err.to_string(), "line 4: unknown step `sned` — did you mean `send`?\n  4 | sned app p y");
    }

    #[test]
    fn an_unknown_producer_is_answered_with_the_nearest_declared_one() {
        let script = "partition orders-0\nproducer app\nsend ap orders-0 x\n";
        let err = crate::model::scenario::parse(script).unwrap_err();
        assert_eq!(err.message, "unknown producer `ap` — did you mean `app`? (or declare it with `producer ap`)\n  3 | send ap orders-0 x");
        let err = crate::model::scenario::parse("partition orders-0\nproducer app\nsend app order-0 x\n").unwrap_err();
        assert!(err.message.starts_with("unknown partition `order-0` — did you mean `orders-0`?"), "{}", err.message);
    }

    #[test]
    fn a_word_far_from_every_verb_lists_them() {
        let err = explain(ParseError { line: 1, message: "unknown step \"xyzzy\"".into() }, "xyzzy", TXN_VERBS);
        assert!(err.message.starts_with("unknown step `xyzzy`; the steps are: model, title"), "{}", err.message);
        assert!(err.message.ends_with("\n  1 | xyzzy"));
    }

    #[test]
    fn the_transactions_language_gets_the_same_help() {
        let script = "model transactions\npartition p\nproducer a transactional.id=t\ninit a\nbgein a\n";
        let err = crate::model::txn_scenario::parse(script).map_err(|e| explain(e, script, TXN_VERBS)).unwrap_err();
        assert_eq!(err.line, 5);
        assert_eq!(err.message, "unknown step `bgein` — did you mean `begin`?\n  5 | bgein a");
    }

    /// The words that make a script without a model line a transactions script are the
    /// transactions language's verbs that the idempotence language does not have.
    #[test]
    fn the_transactions_only_words_are_the_transactions_verbs_the_idempotence_scripts_lack() {
        for w in crate::model::txn_scenario::TRANSACTIONS_WORDS {
            assert!(TXN_VERBS.contains(&w), "{w} is a transactions verb");
            assert!(!IDEMPOTENCE_VERBS.contains(&w), "{w} is not an idempotence verb");
        }
    }

    /// Every verb listed is one the parsers know: none of them is answered "unknown step".
    #[test]
    fn every_listed_verb_is_known_to_its_parser() {
        for v in IDEMPOTENCE_VERBS {
            let script = alloc::format!("partition p\nproducer app\n{v}\n");
            if let Err(e) = crate::model::scenario::parse(&script) {
                assert!(!e.message.starts_with("unknown"), "{v}: {}", e.message);
            }
        }
        for v in TXN_VERBS {
            if *v == "model" {
                continue; // the first line of every script here (is_transactions)
            }
            let script = alloc::format!("model transactions\npartition p\nproducer a transactional.id=t\n{v}\n");
            if let Err(e) = crate::model::txn_scenario::parse(&script) {
                assert!(!e.message.starts_with("unknown step"), "{v}: {}", e.message);
            }
        }
    }

    #[test]
    fn a_misspelt_name_of_a_step_is_answered_with_the_nearest_one() {
        let m = did_you_mean(format!("no producer named {:?}", "olld"), "olld", ["old", "new"]);
        assert_eq!(m, "no producer named \"olld\" — did you mean \"old\"?");
        assert_eq!(did_you_mean("no group named \"zzz\"".into(), "zzz", ["g1"]), "no group named \"zzz\"");
        assert_eq!(nearest_batch(7, [1, 2, 5]), Some(5));
        assert_eq!(nearest_batch(3, [2, 4]), Some(2));
        assert_eq!(nearest_batch(3, []), None);
    }

    /// A transactions script's step naming a producer, partition, consumer or group it does not
    /// declare stops with that error and the nearest declared name.
    #[test]
    fn the_transactions_steps_name_the_nearest_declared_name() {
        let head = "model transactions\npartition orders-0\npartition orders-1\nproducer old transactional.id=t1\nproducer new transactional.id=t2\nconsumer reader read_committed group=grp orders-0\ninit old\ninit new\nbegin old\n";
        for (step, want) in [
            ("send olld orders-0 x", "no producer named \"olld\" — did you mean \"old\"?"),
            ("send old order-0 x", "no partition named \"order-0\" — did you mean \"orders-0\"?"),
            ("poll readr", "no consumer named \"readr\" — did you mean \"reader\"?"),
            ("rebalance gpr", "no group named \"gpr\" — did you mean \"grp\"?"),
        ] {
            let script = format!("{head}{step}\n");
            let sc = crate::model::txn_scenario::parse(&script).unwrap_or_else(|e| panic!("{step}: {e}"));
            let run = crate::model::txn_scenario::run(&sc, None, false);
            let err = run.error.map(|e| e.message).unwrap_or_else(|| panic!("{step}: no error"));
            assert!(err.contains(want), "{step}: {err}");
        }
    }

    /// A step naming a batch with nothing in the network names the nearest one that has.
    #[test]
    fn a_batch_without_a_request_names_the_nearest_batch_with_one() {
        let script = "partition p\nproducer app\nsend app p x\nsend app p y\ndeliver request b7\n";
        let sc = crate::model::scenario::parse(script).unwrap();
        let err = crate::model::scenario::run(&sc).error.map(|e| e.message).expect("an error");
        assert!(err.contains("b7 has no request in the network — did you mean \"b2\"?"), "{err}");
    }
}
