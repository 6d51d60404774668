//! What the two script languages share (the idempotence scripts of [`super::scenario`]
//! and the `model transactions` scripts of [`super::txn_scenario`]): their lines, `#` comments,
//! the set-up lines both read the same way, parse errors, durations, `repeat` bodies and the
//! failed `expect`s of a run. Documented in `scenarios/README.md`.

use alloc::format;
use alloc::string::{String, ToString};

#[cfg(feature = "serde")]
use serde::Serialize;

/// A parse error, with its 1-based line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError {
    pub line: usize,
    pub message: String,
}

impl core::fmt::Display for ParseError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "line {}: {}", self.line, self.message)
    }
}

pub(super) fn perr<T>(line: usize, m: impl Into<String>) -> Result<T, ParseError> {
    Err(ParseError { line, message: m.into() })
}

/// `30s`, `500ms`, `2h`, `1d`, `15m` or plain milliseconds.
pub fn parse_duration(s: &str) -> Option<i64> {
    let (num, mul) = if let Some(n) = s.strip_suffix("ms") {
        (n, 1)
    } else if let Some(n) = s.strip_suffix('s') {
        (n, 1000)
    } else if let Some(n) = s.strip_suffix('m') {
        (n, 60_000)
    } else if let Some(n) = s.strip_suffix('h') {
        (n, 3_600_000)
    } else if let Some(n) = s.strip_suffix('d') {
        (n, 86_400_000)
    } else {
        (s, 1)
    };
    num.parse::<i64>().ok().and_then(|n| n.checked_mul(mul))
}

/// The line without its comment: `#` starts one at the beginning of the line or after
/// whitespace, so a message name such as `b3#2` (b3's second attempt) is not cut.
pub fn strip_comment(raw: &str) -> &str {
    let b = raw.as_bytes();
    for (i, &c) in b.iter().enumerate() {
        if c == b'#' && (i == 0 || b[i - 1].is_ascii_whitespace()) {
            return &raw[..i];
        }
    }
    raw
}

/// A script line that says something (not empty once its comment is removed).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Line<'a> {
    /// 1-based.
    pub line: usize,
    /// The line without its comment, trimmed.
    pub content: &'a str,
    /// The first word of `content`, and what follows it (trimmed).
    pub word: &'a str,
    pub rest: &'a str,
}

/// The lines of a script that say something, in order.
pub(super) fn lines(text: &str) -> impl Iterator<Item = Line<'_>> {
    text.lines().enumerate().filter_map(|(i, raw)| {
        let content = strip_comment(raw).trim();
        if content.is_empty() {
            return None;
        }
        let (word, rest) = content.split_once(char::is_whitespace).unwrap_or((content, ""));
        Some(Line { line: i + 1, content, word, rest: rest.trim() })
    })
}

/// The set-up lines both languages read the same way: `title TEXT`, `about TEXT` (several are
/// joined with a space), `time EPOCH_MS` and `first-producer-id N`. `Ok(false)`: `l` is
/// another line.
pub(super) fn common_directive(l: &Line<'_>, title: &mut String, about: &mut String, start_ms: &mut i64, first_producer_id: &mut i64) -> Result<bool, ParseError> {
    let (line, rest) = (l.line, l.rest);
    match l.word {
        "title" => *title = rest.to_string(),
        "about" => {
            if !about.is_empty() {
                about.push(' ');
            }
            about.push_str(rest);
        }
        "time" => *start_ms = rest.parse().or_else(|_| perr(line, "time needs epoch milliseconds"))?,
        "first-producer-id" => *first_producer_id = rest.parse().or_else(|_| perr(line, "expected a number"))?,
        _ => return Ok(false),
    }
    Ok(true)
}

/// The most times a `repeat N: …` line repeats its steps.
pub(super) const MAX_REPEAT: usize = 100_000;

/// The steps of a `repeat N: STEP; STEP …` line: its text after the `:`, split at `;`
/// (empty parts left out).
pub(super) fn repeat_steps(body: &str) -> impl Iterator<Item = &str> {
    body.split(';').map(str::trim).filter(|s| !s.is_empty())
}

/// A `repeat` step as script text, from its steps' texts.
pub(super) fn repeat_text(times: usize, steps: impl Iterator<Item = String>) -> String {
    format!("repeat {times}: {}", steps.collect::<alloc::vec::Vec<_>>().join("; "))
}

/// An `expect` that did not hold.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(Serialize), serde(rename_all = "camelCase"))]
pub struct Failure {
    pub line: usize,
    pub expected: String,
    pub got: String,
}

/// The failed `expect`s at the end of a run's text (the ladder, the timeline).
pub(super) fn push_failures(s: &mut String, failures: &[Failure]) {
    for f in failures {
        s.push_str(&format!("FAILED line {}: expected {}, got {}\n", f.line, f.expected, f.got));
    }
}
