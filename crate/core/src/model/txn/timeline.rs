//! What the timeline shows: records written to any log, messages between lanes, external
//! effects and deliveries.

use super::*;

/// A record's values as the timeline shows them: a single value (most records) is held
/// inline, more in a list, so writing a record allocates no list for one value. Derefs to
/// the slice of values (`record.values.iter()`, `record.values[0]`).
#[derive(Clone, Default, PartialEq, Eq)]
pub struct Values(ValuesRepr);

#[derive(Clone, PartialEq, Eq)]
pub(super) enum ValuesRepr {
    One(Option<Name>),
    Many(Vec<Option<Name>>),
}

impl Default for ValuesRepr {
    fn default() -> Self {
        ValuesRepr::Many(Vec::new())
    }
}

impl Values {
    /// One value.
    pub fn one(v: Option<Name>) -> Values {
        Values(ValuesRepr::One(v))
    }
}

impl core::ops::Deref for Values {
    type Target = [Option<Name>];
    fn deref(&self) -> &[Option<Name>] {
        match &self.0 {
            ValuesRepr::One(v) => core::slice::from_ref(v),
            ValuesRepr::Many(v) => v,
        }
    }
}

impl From<Vec<Option<Name>>> for Values {
    fn from(v: Vec<Option<Name>>) -> Values {
        Values(ValuesRepr::Many(v))
    }
}

impl FromIterator<Option<Name>> for Values {
    fn from_iter<I: IntoIterator<Item = Option<Name>>>(it: I) -> Values {
        let mut it = it.into_iter();
        let Some(first) = it.next() else { return Values::default() };
        match it.next() {
            None => Values::one(first),
            Some(second) => {
                let mut v = Vec::with_capacity(2 + it.size_hint().0);
                v.push(first);
                v.push(second);
                v.extend(it);
                Values(ValuesRepr::Many(v))
            }
        }
    }
}

impl fmt::Debug for Values {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

/// A record's timeline text, kept as data and written out when read (`Display`,
/// `to_string()`): a data batch's values and base offset, a marker's result and coordinator
/// epoch, or text given as it is. Writing a record formats nothing.
#[derive(Clone, PartialEq, Eq)]
pub struct RecordText(TextRepr);

#[derive(Clone, PartialEq, Eq)]
pub(super) enum TextRepr {
    Text(String),
    /// `format!("{} @{base_offset}", values.join(" "))`.
    Data { values: Values, base_offset: i64 },
    /// `format!("{COMMIT|ABORT} marker (coordinator epoch {coordinator_epoch})")`.
    Marker { commit: bool, coordinator_epoch: i32 },
}

impl RecordText {
    /// A data record's text: its values, then `@base offset`.
    pub fn data(values: Values, base_offset: i64) -> RecordText {
        RecordText(TextRepr::Data { values, base_offset })
    }

    /// A marker record's text.
    pub fn marker(commit: bool, coordinator_epoch: i32) -> RecordText {
        RecordText(TextRepr::Marker { commit, coordinator_epoch })
    }

    /// Whether the written text contains `pat` (`str::contains`).
    pub fn contains(&self, pat: &str) -> bool {
        match &self.0 {
            TextRepr::Text(s) => s.contains(pat),
            _ => self.to_string().contains(pat),
        }
    }
}

impl From<String> for RecordText {
    fn from(s: String) -> RecordText {
        RecordText(TextRepr::Text(s))
    }
}

impl fmt::Display for RecordText {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.0 {
            TextRepr::Text(s) => f.write_str(s),
            TextRepr::Data { values, base_offset } => {
                for (k, v) in values.iter().enumerate() {
                    if k > 0 {
                        f.write_str(" ")?;
                    }
                    f.write_str(v.as_deref().unwrap_or_default())?;
                }
                write!(f, " @{base_offset}")
            }
            TextRepr::Marker { commit, coordinator_epoch } => {
                write!(f, "{} marker (coordinator epoch {coordinator_epoch})", if *commit { "COMMIT" } else { "ABORT" })
            }
        }
    }
}

impl fmt::Debug for RecordText {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&self.to_string(), f)
    }
}

/// A record written to any log, for the timeline.
#[derive(Clone, Debug)]
pub struct LogRecord {
    pub lane: Name,
    pub partition: Name,
    pub offset: i64,
    pub last_offset: i64,
    pub kind: &'static str,
    pub pid: i64,
    pub epoch: i16,
    pub transactional: bool,
    pub values: Values,
    pub text: RecordText,
    pub step: usize,
    pub closed_at: Option<usize>,
    pub outcome: Option<&'static str>,
    pub bytes: Vec<u8>,
    pub txn: Option<usize>,
    /// The step whose election truncated it from the log (S6).
    pub truncated_at: Option<usize>,
}

/// A message between lanes.
#[derive(Clone, Debug)]
pub struct Message {
    /// Lanes, shared (`producer:app`, `coordinator`, …).
    pub from: Name,
    pub to: Name,
    pub kind: &'static str,
    pub text: String,
    pub rule: Option<&'static str>,
    pub source: Option<&'static str>,
    pub error: Option<ErrorCode>,
    pub lost: bool,
    pub record: Option<usize>,
}

#[derive(Clone, Debug)]
pub struct Effect {
    pub name: String,
    pub key: Option<String>,
    pub producer: String,
    pub step: usize,
    pub duplicate: bool,
}

#[derive(Clone, Debug)]
pub struct Delivery {
    pub consumer: Name,
    pub partition: Name,
    pub offset: i64,
    pub value: Option<Name>,
    pub step: usize,
    pub record: Option<usize>,
}
