//! Paste-anything input detection.
//!
//! [`detect`] takes whatever an engineer pasted or uploaded (raw segment bytes, a hex
//! string, an `xxd` / `hexdump -C` / `od` / Wireshark / tshark dump, base64, or a byte
//! array literal copied from C, Java, Go, Rust, Python, Kotlin or JavaScript) and returns
//! the bytes it denotes, the format it recognised and notes about what it stripped.
//!
//! Guarantees: no panics, time and memory linear in the input (plus at most
//! [`MAX_REPEAT_EXPANSION`] bytes for `*` repeat lines of `hexdump`/`od`), and every error
//! names the byte offset, line and column in the text that caused it.
//!
//! Ambiguity rules (deliberate, see the tests):
//! - Input is *binary* unless it is valid UTF-8 without control characters other than
//!   tab, LF, VT, FF and CR. Non-ASCII spaces (NBSP, U+2000..U+200A, ...) count as
//!   whitespace, a BOM / zero-width space is ignored; any other non-ASCII character is
//!   an error where it matters (it is fine in ignored header / surrounding-text lines).
//! - Dumps are recognised by line structure (offset column), anywhere in the text. Their
//!   lines are parsed by columns: at most 16 bytes per line for `hexdump -C` and
//!   Wireshark, the byte count implied by the next line's offset otherwise, and the last
//!   line stops where the previous full lines' hex area ended, so an ASCII column that
//!   looks like hex is never read as data. Offsets must be consecutive: a missing or
//!   mangled line is an error, not silently skipped. An offset that restarts at 0 starts
//!   a new block; the LAST block is returned (tshark's reassembled data comes last).
//! - Every dump line is cross-checked against its ASCII column (printable bytes must be
//!   shown as themselves), which catches byte-swapped `xxd -e` output and corrupted lines.
//!   `hexdump` without `-C` and `od -x` print byte-swapped 16-bit words: also an error
//!   rather than a silent byte-order trap.
//! - A text of only hex digits (plus separators, `0x`) is hex even if it is valid base64;
//!   a run of hex digits alone on its line continues the run on the next line (so hex
//!   wrapped at an odd column is fine); space/comma separated groups must be even.
//!   A mostly-hex text with one or two stray letters is reported as a bad hex digit, not
//!   decoded as base64.
//! - Array literals accept decimal -128..=255 (negative = Java signed byte), `0x`, `0b`,
//!   `0o`, char literals, casts and type suffixes. A multi-digit decimal with a leading
//!   zero whose octal (C/Java) and decimal values differ is rejected as ambiguous.
//! - `\x00:\xff` without quotes is read as the *contents* of a byte string (the `:` is a
//!   byte); only a text made purely of `\xHH` escapes and separators is hex.

use alloc::borrow::Cow;
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

mod detect;
mod hex;
mod base64;
mod dump;
mod literal;
#[allow(unused_imports)]
use detect::*;
#[allow(unused_imports)]
use hex::*;
#[allow(unused_imports)]
use base64::*;
#[allow(unused_imports)]
use dump::*;
#[allow(unused_imports)]
use literal::*;

/// The input format [`detect`] recognised.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    Binary,
    Hex,
    Xxd,
    HexdumpC,
    Wireshark,
    Base64,
    ByteArray,
}

impl Format {
    /// Short human-readable name.
    pub fn name(self) -> &'static str {
        match self {
            Format::Binary => "binary",
            Format::Hex => "hex",
            Format::Xxd => "xxd",
            Format::HexdumpC => "hexdump -C",
            Format::Wireshark => "wireshark",
            Format::Base64 => "base64",
            Format::ByteArray => "byte-array",
        }
    }
}

/// A successfully recognised input.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Detected {
    pub format: Format,
    pub bytes: Vec<u8>,
    /// Human-readable notes of what was removed, each at most once, in a stable order.
    pub stripped: Vec<String>,
}

/// Why a text input could not be turned into bytes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InputError {
    /// Byte offset in the original input.
    pub at: usize,
    /// 1-based line number.
    pub line: usize,
    pub message: String,
}

impl core::fmt::Display for InputError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(&self.message)
    }
}

/// Upper bound on the bytes that `*` repeat lines may add, over the whole input.
pub const MAX_REPEAT_EXPANSION: usize = 64 * 1024 * 1024;

/// A decoder's report as [`decode_text`] fills it in: the input's format, what was stripped
/// from the text, and the one issue of text that is no known kind.
pub trait TextReport: Default {
    /// Name the input: its format and what was stripped from the text.
    fn name_input(&mut self, format: String, stripped: Vec<String>);
    /// The `InvalidInput` issue, `at` an offset into the *text*.
    fn push_invalid_input(&mut self, at: usize, message: String);
}

/// Decode text or binary input with `decode_bytes`, after [`detect`]: the report names the
/// detected format; text that is no known kind gives a report (format `text`) with only its
/// `InvalidInput` issue.
pub fn decode_text<R: TextReport>(input: &[u8], decode_bytes: impl FnOnce(&[u8]) -> R) -> R {
    // Binary input is decoded in place: no copy of what may be a whole segment.
    if !input.iter().all(|&b| is_ws(b)) && !is_text(input) {
        let mut r = decode_bytes(input);
        r.name_input(String::from(Format::Binary.name()), Vec::new());
        return r;
    }
    match detect(input) {
        Ok(d) => {
            let mut r = decode_bytes(&d.bytes);
            r.name_input(String::from(d.format.name()), d.stripped);
            r
        }
        Err(e) => {
            let mut r = R::default();
            r.name_input(String::from("text"), Vec::new());
            r.push_invalid_input(e.at, e.message);
            r
        }
    }
}

/// Decide what the input is and return its bytes.
///
/// Binary input (anything that is not plausibly text, e.g. a `.log` segment starting
/// with `00 00 ...`) is returned as-is with [`Format::Binary`]. Empty or whitespace-only
/// input is an error.
pub fn detect(input: &[u8]) -> Result<Detected, InputError> {
    detect_as(input, None)
}

/// [`detect`] with the text's format forced, as the inspector's `hex` / `base64` attributes
/// (and its format picker) ask: [`Format::Hex`] reads dumps (xxd, hexdump -C, Wireshark) and
/// plain hex only, [`Format::Base64`] base64 only; `None` (or any other format) detects.
/// Binary input stays binary either way.
pub fn detect_as(input: &[u8], force: Option<Format>) -> Result<Detected, InputError> {
    if input.iter().all(|&b| is_ws(b)) {
        return Err(empty_error());
    }
    if !is_text(input) {
        return Ok(Detected { format: Format::Binary, bytes: input.to_vec(), stripped: Vec::new() });
    }
    let mut notes = Notes(0);
    let normalized = needs_normalizing(input);
    let text: Cow<'_, [u8]> =
        if normalized { Cow::Owned(normalize(input, &mut notes)) } else { Cow::Borrowed(input) };
    let t: &[u8] = &text;
    let found = match force {
        Some(Format::Hex) => detect_hex(t, &mut notes),
        Some(Format::Base64) => detect_base64(t, &mut notes),
        _ => detect_text(t, &mut notes),
    };
    match found {
        Ok((format, bytes)) => Ok(Detected { format, bytes, stripped: notes.list() }),
        Err(e) => Err(locate(input, t, normalized, e)),
    }
}

// ---------------------------------------------------------------------------------------
// Notes (what was stripped), in their stable output order.

#[derive(Clone, Copy)]
enum Note {
    DataUrl,
    EarlierBlocks,
    FrameHeaders,
    SurroundingText,
    OffsetColumn,
    AsciiColumn,
    RepeatLines,
    FinalOffset,
    CArray,
    Brackets,
    Parens,
    Casts,
    Suffixes,
    Comments,
    Code,
    StringLit,
    Quotes,
    NodeBuffer,
    ZeroX,
    BackslashX,
    Whitespace,
    Colons,
    Dashes,
    Commas,
    LineBreaks,
    Bom,
    UnicodeSpaces,
}

const NOTE_TEXT: [&str; 27] = [
    "data: URL prefix",
    "earlier dump blocks",
    "frame header lines",
    "surrounding text",
    "offset column",
    "ASCII column",
    "'*' repeat lines (expanded)",
    "final offset line",
    "C array braces and casts",
    "array brackets",
    "parentheses",
    "casts",
    "type suffixes",
    "comments",
    "surrounding code",
    "string quotes and escapes",
    "quotes",
    "Node.js Buffer wrapper",
    "0x prefixes",
    "\\x prefixes",
    "whitespace",
    "colons",
    "dashes",
    "commas",
    "line breaks",
    "byte order mark",
    "non-ASCII spaces",
];

#[derive(Clone, Copy)]
struct Notes(u32);

impl Notes {
    fn add(&mut self, n: Note) {
        self.0 |= 1u32 << (n as u32);
    }
    fn list(self) -> Vec<String> {
        let mut v = Vec::new();
        for (i, s) in NOTE_TEXT.iter().enumerate() {
            if self.0 & (1u32 << i) != 0 {
                v.push(String::from(*s));
            }
        }
        v
    }
}

// ---------------------------------------------------------------------------------------
// Errors: positions are in the normalized text; `locate` maps them back.

struct PErr {
    pos: usize,
    msg: String,
    bare: bool,
}

type PResult<T> = Result<T, PErr>;

fn perr(pos: usize, msg: impl Into<String>) -> PErr {
    PErr { pos, msg: msg.into(), bare: false }
}

fn empty_error() -> InputError {
    InputError { at: 0, line: 1, message: String::from("empty input") }
}

fn bad_char(t: &[u8], p: usize, what: &str) -> PErr {
    perr(p, format!("invalid {} '{}'", what, char_at(t, p)))
}

fn locate(input: &[u8], t: &[u8], normalized: bool, e: PErr) -> InputError {
    if e.bare {
        return InputError { at: 0, line: 1, message: e.msg };
    }
    let p = e.pos.min(t.len());
    let before = t.get(..p).unwrap_or(&[]);
    let line = 1 + before.iter().filter(|&&b| b == b'\n').count();
    let ls = before.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
    let col = 1 + t.get(ls..p).unwrap_or(&[]).iter().filter(|&&b| (b & 0xC0) != 0x80).count();
    let at = if normalized { norm_to_orig(input, p) } else { p };
    InputError { at, line, message: format!("{} at line {}, column {}", e.msg, line, col) }
}


#[cfg(test)]
mod tests;
