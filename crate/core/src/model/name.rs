//! [`Name`]: a name the models repeat in many records (a lane, a partition, a transactional.id),
//! shared rather than copied; and [`empty_set`]. Below the models that share them (the coordinator,
//! the transactions world), so neither depends on the other for them.

use alloc::collections::BTreeSet;
use alloc::string::String;
use alloc::sync::Arc;
use core::fmt;

/// A name the model repeats in many records (a lane, a partition, a transaction state):
/// shared, not copied, so writing a record allocates no string for it. It derefs, compares
/// and prints as the `str` it holds (`record.partition == "p-0"`).
#[derive(Clone)]
pub struct Name(NameRepr);

#[derive(Clone)]
enum NameRepr {
    Fixed(&'static str),
    Shared(Arc<str>),
}

impl Name {
    /// A name known at compile time (no allocation).
    pub const fn fixed(s: &'static str) -> Name {
        Name(NameRepr::Fixed(s))
    }

    pub fn as_str(&self) -> &str {
        match &self.0 {
            NameRepr::Fixed(s) => s,
            NameRepr::Shared(s) => s,
        }
    }
}

impl Default for Name {
    fn default() -> Name {
        Name::fixed("")
    }
}

impl core::ops::Deref for Name {
    type Target = str;
    fn deref(&self) -> &str {
        self.as_str()
    }
}

impl AsRef<str> for Name {
    fn as_ref(&self) -> &str {
        self.as_str()
    }
}

impl core::borrow::Borrow<str> for Name {
    fn borrow(&self) -> &str {
        self.as_str()
    }
}

impl From<&str> for Name {
    fn from(s: &str) -> Name {
        Name(NameRepr::Shared(Arc::from(s)))
    }
}

impl From<String> for Name {
    fn from(s: String) -> Name {
        Name(NameRepr::Shared(Arc::from(s)))
    }
}

impl From<Name> for String {
    fn from(n: Name) -> String {
        String::from(n.as_str())
    }
}

impl PartialEq for Name {
    fn eq(&self, other: &Name) -> bool {
        self.as_str() == other.as_str()
    }
}

impl Eq for Name {}

impl PartialEq<str> for Name {
    fn eq(&self, other: &str) -> bool {
        self.as_str() == other
    }
}

impl PartialEq<&str> for Name {
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == *other
    }
}

impl PartialEq<String> for Name {
    fn eq(&self, other: &String) -> bool {
        self.as_str() == other.as_str()
    }
}

impl PartialEq<Name> for str {
    fn eq(&self, other: &Name) -> bool {
        self == other.as_str()
    }
}

impl PartialEq<Name> for &str {
    fn eq(&self, other: &Name) -> bool {
        *self == other.as_str()
    }
}

impl PartialEq<Name> for String {
    fn eq(&self, other: &Name) -> bool {
        self.as_str() == other.as_str()
    }
}

impl PartialOrd for Name {
    fn partial_cmp(&self, other: &Name) -> Option<core::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Name {
    fn cmp(&self, other: &Name) -> core::cmp::Ordering {
        self.as_str().cmp(other.as_str())
    }
}

impl core::hash::Hash for Name {
    fn hash<H: core::hash::Hasher>(&self, state: &mut H) {
        self.as_str().hash(state)
    }
}

impl fmt::Debug for Name {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.as_str(), f)
    }
}

impl fmt::Display for Name {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}


/// Empty `set`, keeping its node for the next insert (`clear` frees it; these sets are
/// emptied and refilled every transaction).
pub fn empty_set<T: Ord>(set: &mut BTreeSet<T>) {
    set.retain(|_| false);
}

