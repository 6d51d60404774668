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

/// Decide what the input is and return its bytes.
///
/// Binary input (anything that is not plausibly text, e.g. a `.log` segment starting
/// with `00 00 ...`) is returned as-is with [`Format::Binary`]. Empty or whitespace-only
/// input is an error.
pub fn detect(input: &[u8]) -> Result<Detected, InputError> {
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
    match detect_text(t, &mut notes) {
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

// ---------------------------------------------------------------------------------------
// Byte helpers. `at` returns 0 past the end; 0 never occurs in text input.

#[inline]
fn at(t: &[u8], i: usize) -> u8 {
    match t.get(i) {
        Some(&b) => b,
        None => 0,
    }
}
#[inline]
fn is_ws(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | b'\r' | 0x0b | 0x0c)
}
#[inline]
fn is_hs(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\r' | 0x0b | 0x0c)
}
#[inline]
fn is_hex(b: u8) -> bool {
    b.is_ascii_hexdigit()
}
#[inline]
fn hexval(b: u8) -> u8 {
    match b {
        b'0'..=b'9' => b - b'0',
        b'a'..=b'f' => b - b'a' + 10,
        b'A'..=b'F' => b - b'A' + 10,
        _ => 0,
    }
}
#[inline]
fn is_ident(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_'
}
#[inline]
fn is_ident_start(b: u8) -> bool {
    b.is_ascii_alphabetic() || b == b'_'
}

fn char_at(t: &[u8], p: usize) -> char {
    let b = at(t, p);
    if b < 0x80 {
        return b as char;
    }
    let len = if b >= 0xF0 {
        4
    } else if b >= 0xE0 {
        3
    } else if b >= 0xC0 {
        2
    } else {
        1
    };
    t.get(p..p.saturating_add(len))
        .and_then(|s| core::str::from_utf8(s).ok())
        .and_then(|s| s.chars().next())
        .unwrap_or('\u{fffd}')
}

fn starts_with_ci(t: &[u8], p: usize, e: usize, pat: &[u8]) -> bool {
    match t.get(p..p.saturating_add(pat.len())) {
        Some(s) if p.saturating_add(pat.len()) <= e => s.eq_ignore_ascii_case(pat),
        _ => false,
    }
}

fn line_end(t: &[u8], p: usize) -> usize {
    let mut i = p;
    while i < t.len() && t[i] != b'\n' {
        i += 1;
    }
    i
}

fn trim_end(t: &[u8], ls: usize, mut le: usize) -> usize {
    while le > ls && is_ws(at(t, le - 1)) {
        le -= 1;
    }
    le
}

fn skip_hs(t: &[u8], mut p: usize, e: usize) -> usize {
    while p < e && is_hs(at(t, p)) {
        p += 1;
    }
    p
}

fn skip_ws(t: &[u8], mut p: usize, e: usize) -> usize {
    while p < e && is_ws(at(t, p)) {
        p += 1;
    }
    p
}

fn trim(t: &[u8], s: usize, e: usize) -> (usize, usize) {
    let s = skip_ws(t, s, e);
    let e = trim_end(t, s, e);
    (s, e)
}

// ---------------------------------------------------------------------------------------
// Text vs binary, and normalization of non-ASCII whitespace.

#[inline]
fn is_text_ascii(b: u8) -> bool {
    matches!(b, 0x20..=0x7e | b'\t' | b'\n' | b'\r' | 0x0b | 0x0c)
}

fn is_text(input: &[u8]) -> bool {
    if input.iter().all(|&b| is_text_ascii(b)) {
        return true;
    }
    match core::str::from_utf8(input) {
        Ok(s) => s.chars().all(|c| {
            if c.is_ascii() {
                is_text_ascii(c as u8)
            } else {
                !matches!(c as u32, 0x80..=0x9f)
            }
        }),
        Err(_) => false,
    }
}

enum UClass {
    Zero,
    Space,
    Newline,
    Keep,
}

fn uclass(c: char) -> UClass {
    match c as u32 {
        0xFEFF | 0x200B | 0x200C | 0x200D | 0x2060 => UClass::Zero,
        0x00A0 | 0x1680 | 0x2000..=0x200A | 0x202F | 0x205F | 0x3000 => UClass::Space,
        0x2028 | 0x2029 => UClass::Newline,
        _ => UClass::Keep,
    }
}

fn needs_normalizing(input: &[u8]) -> bool {
    input
        .iter()
        .enumerate()
        .any(|(i, &b)| b >= 0x80 || (b == b'\r' && at(input, i + 1) != b'\n'))
}

/// Same text with non-ASCII spaces as ' ', zero-width characters removed and lone CR
/// as LF. Other characters are kept, so `norm_to_orig` can replay the mapping.
fn normalize(input: &[u8], notes: &mut Notes) -> Vec<u8> {
    let mut out = Vec::with_capacity(input.len());
    let s = match core::str::from_utf8(input) {
        Ok(s) => s,
        Err(_) => return input.to_vec(),
    };
    for (i, c) in s.char_indices() {
        if c.is_ascii() {
            let b = c as u8;
            out.push(if b == b'\r' && at(input, i + 1) != b'\n' { b'\n' } else { b });
            continue;
        }
        match uclass(c) {
            UClass::Zero => notes.add(if c == '\u{feff}' { Note::Bom } else { Note::UnicodeSpaces }),
            UClass::Space => {
                out.push(b' ');
                notes.add(Note::UnicodeSpaces);
            }
            UClass::Newline => out.push(b'\n'),
            UClass::Keep => {
                let mut buf = [0u8; 4];
                out.extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
            }
        }
    }
    out
}

fn norm_to_orig(input: &[u8], p: usize) -> usize {
    let s = match core::str::from_utf8(input) {
        Ok(s) => s,
        Err(_) => return p.min(input.len()),
    };
    let mut n = 0usize;
    for (i, c) in s.char_indices() {
        let w = if c.is_ascii() {
            1
        } else {
            match uclass(c) {
                UClass::Zero => 0,
                UClass::Space | UClass::Newline => 1,
                UClass::Keep => c.len_utf8(),
            }
        };
        if n + w > p {
            return i;
        }
        n += w;
    }
    input.len()
}

// ---------------------------------------------------------------------------------------
// Top-level classification of text.

fn detect_text(t: &[u8], notes: &mut Notes) -> PResult<(Format, Vec<u8>)> {
    let (s, e) = trim(t, 0, t.len());
    if s >= e {
        return Err(PErr { pos: 0, msg: String::from("empty input"), bare: true });
    }
    if let Some(d) = detect_dump(t)? {
        return parse_dump(t, d, notes);
    }
    let (mut s, mut e) = (s, e);
    // A whole-input quoted string without escapes: JSON / shell quoting around hex or base64.
    let q = t[s];
    if (q == b'"' || q == b'\'') && e - s >= 2 && at(t, e - 1) == q {
        let inner = t.get(s + 1..e - 1).unwrap_or(&[]);
        if !inner.iter().any(|&b| b == b'\\' || b == b'"' || b == b'\'') {
            notes.add(Note::Quotes);
            let (s2, e2) = trim(t, s + 1, e - 1);
            if s2 >= e2 {
                return Err(perr(s, "empty quoted string"));
            }
            s = s2;
            e = e2;
        }
    }
    if starts_with_ci(t, s, e, b"data:") {
        return parse_data_url(t, s, e, notes);
    }
    if starts_with_ci(t, s, e, b"<Buffer") && at(t, e - 1) == b'>' {
        notes.add(Note::NodeBuffer);
        let (is, ie) = trim(t, s + 7, e - 1);
        let mut p = is;
        while p < ie {
            if starts_with_ci(t, p, ie, b"more byte") {
                return Err(perr(p, "Node.js Buffer output is truncated ('... more bytes'); use buf.toString('hex')"));
            }
            p += 1;
        }
        return Ok((Format::Hex, parse_hex(t, is, ie, notes)?));
    }
    let region = t.get(s..e).unwrap_or(&[]);
    if region.iter().any(|&b| matches!(b, b'{' | b'[' | b'(' | b'"' | b'\'')) {
        return parse_literal(t, s, e, notes);
    }
    if region.contains(&b'\\') {
        if only_backslash_x(t, s, e) {
            return Ok((Format::Hex, parse_hex(t, s, e, notes)?));
        }
        notes.add(Note::StringLit);
        let mut out = Vec::with_capacity(e - s);
        decode_unquoted(t, s, e, &mut out, notes)?;
        return Ok((Format::ByteArray, out));
    }
    // Hex or base64?
    let mut hexset = true;
    let mut b64set = true;
    let mut b64punct = false;
    let mut alnum = 0usize;
    let mut letters = 0usize; // alphabetic characters that are not hex digits
    for p in s..e {
        let c = t[p];
        if is_hex(c) {
            alnum += 1;
            continue;
        }
        if is_ws(c) || c == b'-' {
            continue;
        }
        match c {
            b':' | b',' => b64set = false,
            b'x' | b'X' => {
                alnum += 1;
                letters += 1;
                let prefix = at(t, p.wrapping_sub(1)) == b'0'
                    && (p < s + 2 || !is_hex(at(t, p - 2)))
                    && is_hex(at(t, p + 1))
                    && p + 1 < e;
                if !prefix {
                    hexset = false;
                }
            }
            b'+' | b'/' | b'=' | b'_' => {
                hexset = false;
                b64punct = true;
            }
            _ if c.is_ascii_alphabetic() => {
                hexset = false;
                alnum += 1;
                letters += 1;
            }
            _ => {
                hexset = false;
                b64set = false;
            }
        }
    }
    let b64ish = b64punct || (letters > 2 && letters * 32 > alnum);
    if hexset || !b64ish || (!b64set && region.iter().any(|&b| b == b':' || b == b',')) {
        Ok((Format::Hex, parse_hex(t, s, e, notes)?))
    } else {
        Ok((Format::Base64, parse_base64(t, s, e, notes)?))
    }
}

// ---------------------------------------------------------------------------------------
// Plain hex.

fn parse_hex(t: &[u8], s: usize, e: usize, notes: &mut Notes) -> PResult<Vec<u8>> {
    let mut out = Vec::with_capacity((e.saturating_sub(s)) / 2 + 1);
    let mut p = s;
    let mut line_has_group = false;
    let mut line_dirty = false; // a separator or prefix precedes the group on this line
    let mut first_group = true;
    // A "stream" is a run of lines that each hold exactly one group: wrapped continuous hex.
    let mut in_stream = false;
    let mut stream_digits = 0usize;
    let mut pending: Option<u8> = None;
    let mut last_digit = s;
    let close = |in_stream: &mut bool, pending: &mut Option<u8>, digits: usize, last: usize| {
        *in_stream = false;
        if pending.take().is_some() {
            Err(perr(last, format!("odd number of hex digits ({})", digits)))
        } else {
            Ok(())
        }
    };
    while p < e {
        let c = t[p];
        if c == b'\n' {
            notes.add(Note::LineBreaks);
            line_has_group = false;
            line_dirty = false;
            p += 1;
            continue;
        }
        if is_hs(c) {
            if c != b'\r' {
                notes.add(Note::Whitespace);
            }
            p += 1;
            continue;
        }
        let sep = match c {
            b',' => Some(Note::Commas),
            b':' => Some(Note::Colons),
            b'-' => Some(Note::Dashes),
            _ => None,
        };
        if let Some(n) = sep {
            notes.add(n);
            line_dirty = true;
            p += 1;
            continue;
        }
        let mut prefixed = false;
        if (c == b'0' || c == b'\\') && matches!(at(t, p + 1), b'x' | b'X') && p + 2 < e && is_hex(at(t, p + 2)) {
            notes.add(if c == b'0' { Note::ZeroX } else { Note::BackslashX });
            prefixed = true;
            p += 2;
        }
        if !is_hex(at(t, p)) {
            return Err(bad_char(t, p, "hex digit"));
        }
        let gs = p;
        while p < e && is_hex(t[p]) {
            p += 1;
        }
        let ge = p;
        let starts_line = !line_has_group && !line_dirty && !prefixed;
        let r = skip_hs(t, ge, e);
        let ends_line = r >= e || at(t, r) == b'\n';
        let stream_line = ends_line && (starts_line || (prefixed && first_group && !line_dirty));
        line_has_group = true;
        first_group = false;
        if stream_line {
            if !in_stream {
                in_stream = true;
                stream_digits = 0;
                pending = None;
            }
            for &d in t.get(gs..ge).unwrap_or(&[]) {
                match pending.take() {
                    Some(h) => out.push((h << 4) | hexval(d)),
                    None => pending = Some(hexval(d)),
                }
            }
            stream_digits += ge - gs;
            last_digit = ge - 1;
        } else {
            close(&mut in_stream, &mut pending, stream_digits, last_digit)?;
            let len = ge - gs;
            if prefixed && len == 1 {
                out.push(hexval(t[gs]));
            } else if len % 2 == 1 {
                return Err(perr(ge - 1, format!("odd number of hex digits ({})", len)));
            } else {
                for pair in t.get(gs..ge).unwrap_or(&[]).chunks_exact(2) {
                    out.push((hexval(pair[0]) << 4) | hexval(pair[1]));
                }
            }
        }
    }
    close(&mut in_stream, &mut pending, stream_digits, last_digit)?;
    Ok(out)
}

/// The region consists only of `\xHH` escapes, whitespace and commas.
fn only_backslash_x(t: &[u8], s: usize, e: usize) -> bool {
    let mut p = s;
    while p < e {
        let c = t[p];
        if is_ws(c) || c == b',' {
            p += 1;
        } else if c == b'\\' && at(t, p + 1) == b'x' && is_hex(at(t, p + 2)) && is_hex(at(t, p + 3)) && p + 3 < e {
            p += 4;
        } else {
            return false;
        }
    }
    true
}

// ---------------------------------------------------------------------------------------
// Base64.

fn b64val(c: u8) -> Option<u32> {
    Some(match c {
        b'A'..=b'Z' => (c - b'A') as u32,
        b'a'..=b'z' => (c - b'a') as u32 + 26,
        b'0'..=b'9' => (c - b'0') as u32 + 52,
        b'+' | b'-' => 62,
        b'/' | b'_' => 63,
        _ => return None,
    })
}

fn parse_base64(t: &[u8], s: usize, e: usize, notes: &mut Notes) -> PResult<Vec<u8>> {
    let mut out = Vec::with_capacity((e.saturating_sub(s)) / 4 * 3 + 3);
    let mut acc: u32 = 0;
    let mut bits = 0u32;
    let mut n = 0usize;
    let mut pad = 0usize;
    let mut pad_pos = 0usize;
    let mut last = s;
    for p in s..e {
        let c = t[p];
        if c == b'\n' {
            notes.add(Note::LineBreaks);
            continue;
        }
        if is_hs(c) {
            if c != b'\r' {
                notes.add(Note::Whitespace);
            }
            continue;
        }
        if c == b'=' {
            if pad == 0 {
                pad_pos = p;
            }
            pad += 1;
            if pad > 2 {
                return Err(perr(p, "too much base64 padding '='"));
            }
            last = p;
            continue;
        }
        let v = match b64val(c) {
            Some(v) => v,
            None => return Err(bad_char(t, p, "base64 character")),
        };
        if pad > 0 {
            return Err(perr(p, "base64 data after padding '='"));
        }
        acc = (acc << 6) | v;
        bits += 6;
        n += 1;
        last = p;
        if bits >= 8 {
            bits -= 8;
            out.push((acc >> bits) as u8);
            acc &= (1u32 << bits) - 1;
        }
    }
    if n % 4 == 1 {
        return Err(perr(last, format!("truncated base64: {} characters leave a dangling 6 bits", n)));
    }
    if pad > 0 && (n + pad) % 4 != 0 {
        return Err(perr(pad_pos, "wrong amount of base64 padding '='"));
    }
    Ok(out)
}

fn parse_data_url(t: &[u8], s: usize, e: usize, notes: &mut Notes) -> PResult<(Format, Vec<u8>)> {
    let comma = t.get(s..e).and_then(|r| r.iter().position(|&b| b == b',')).map(|i| s + i);
    let c = match comma {
        Some(c) => c,
        None => return Err(perr(s, "data: URL without ','")),
    };
    let header = t.get(s..c).unwrap_or(&[]);
    let is_b64 = header.len() >= 7 && header[header.len() - 7..].eq_ignore_ascii_case(b";base64");
    if !is_b64 {
        return Err(perr(s, "only ';base64,' data: URLs are supported"));
    }
    notes.add(Note::DataUrl);
    let (bs, be) = trim(t, c + 1, e);
    Ok((Format::Base64, parse_base64(t, bs, be, notes)?))
}

// ---------------------------------------------------------------------------------------
// Hex dumps: xxd, hexdump -C / od, Wireshark / tshark.

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Flavor {
    Xxd,
    HexdumpC,
    Od,
    Wireshark,
}

impl Flavor {
    fn format(self) -> Format {
        match self {
            Flavor::Xxd => Format::Xxd,
            Flavor::HexdumpC | Flavor::Od => Format::HexdumpC,
            Flavor::Wireshark => Format::Wireshark,
        }
    }
    /// Width of a blank gap that ends the hex area (ASCII column follows).
    fn gap(self) -> usize {
        match self {
            Flavor::Xxd | Flavor::Od => 2,
            Flavor::HexdumpC | Flavor::Wireshark => 3,
        }
    }
    fn default_cap(self) -> usize {
        match self {
            Flavor::HexdumpC | Flavor::Wireshark => 16,
            Flavor::Xxd | Flavor::Od => usize::MAX,
        }
    }
}

#[derive(Clone, Copy)]
struct Dump {
    fl: Flavor,
    radix: u32,
}

fn hex_run_end(t: &[u8], mut p: usize, e: usize) -> usize {
    while p < e && is_hex(at(t, p)) {
        p += 1;
    }
    p
}

fn token_end(t: &[u8], mut p: usize, e: usize) -> usize {
    while p < e && !is_ws(at(t, p)) {
        p += 1;
    }
    p
}

/// Gap width (tab = 8) and the position after it.
fn gap_width(t: &[u8], mut p: usize, e: usize) -> (usize, usize) {
    let mut w = 0usize;
    while p < e && is_hs(at(t, p)) {
        w += if at(t, p) == b'\t' { 8 } else { 1 };
        p += 1;
    }
    (w, p)
}

fn all_hex(t: &[u8], s: usize, e: usize) -> bool {
    s < e && t.get(s..e).is_some_and(|r| r.iter().all(|&b| is_hex(b)))
}

fn detect_dump(t: &[u8]) -> PResult<Option<Dump>> {
    let mut p = 0;
    while p < t.len() {
        let le = line_end(t, p);
        let te = trim_end(t, p, le);
        if let Some(fl) = dump_line_shape(t, p, te)? {
            let radix = if fl == Flavor::Od { od_radix(t, p) } else { 16 };
            return Ok(Some(Dump { fl, radix }));
        }
        p = le + 1;
    }
    Ok(None)
}

fn dump_line_shape(t: &[u8], ls: usize, te: usize) -> PResult<Option<Flavor>> {
    let p = skip_hs(t, ls, te);
    let q = hex_run_end(t, p, te);
    let n = q - p;
    if !(4..=16).contains(&n) {
        return Ok(None);
    }
    let c = at(t, q);
    if c == b':' {
        if q + 1 < te && !is_hs(at(t, q + 1)) {
            return Ok(None);
        }
        let tok = skip_hs(t, q + 1, te);
        let ok = tok + 1 < te && is_hex(at(t, tok)) && is_hex(at(t, tok + 1));
        return Ok(if ok { Some(Flavor::Xxd) } else { None });
    }
    if q >= te || !is_hs(c) {
        return Ok(None);
    }
    let (w, tok) = gap_width(t, q, te);
    let tend = token_end(t, tok, te);
    if !all_hex(t, tok, tend) {
        return Ok(None);
    }
    let tl = tend - tok;
    if tl == 2 {
        if w >= 2 {
            return Ok(Some(if n >= 6 { Flavor::HexdumpC } else { Flavor::Wireshark }));
        }
        if w == 1 && (n == 6 || n == 7) {
            let (_, tok2) = gap_width(t, tend, te);
            let t2e = token_end(t, tok2, te);
            if tok2 >= te || (t2e - tok2 == 2 && all_hex(t, tok2, t2e)) || at(t, tok2) == b'>' {
                return Ok(Some(Flavor::Od));
            }
        }
    }
    if tl == 4 && w == 1 && n == 7 {
        return Err(perr(
            p,
            "this looks like `hexdump` or `od -x` output (16-bit words, byte-swapped on \
             little-endian machines); paste `hexdump -C` or `xxd` output instead",
        ));
    }
    Ok(None)
}

fn parse_radix(t: &[u8], s: usize, e: usize, radix: u32) -> Option<u64> {
    let mut v: u64 = 0;
    for &b in t.get(s..e)? {
        let d = (b as char).to_digit(radix)? as u64;
        v = v.checked_mul(radix as u64)?.checked_add(d)?;
    }
    Some(v)
}

/// `od` offsets are octal by default (`-A o`, 7 digits), hex with `-A x` (6 digits) or
/// decimal with `-A d`: pick the radix under which the second offset follows the first.
fn od_radix(t: &[u8], first: usize) -> u32 {
    let le = line_end(t, first);
    let te = trim_end(t, first, le);
    let p = skip_hs(t, first, te);
    let q = hex_run_end(t, p, te);
    let default = if q - p == 7 { 8 } else { 16 };
    // bytes on the first line
    let mut count = 0u64;
    let mut r = q;
    loop {
        let (_, tok) = gap_width(t, r, te);
        let tend = token_end(t, tok, te);
        if tend - tok != 2 || !all_hex(t, tok, tend) {
            break;
        }
        count += 1;
        r = tend;
    }
    // next offset-bearing line
    let mut l = le + 1;
    while l < t.len() {
        let le2 = line_end(t, l);
        let te2 = trim_end(t, l, le2);
        let p2 = skip_hs(t, l, te2);
        let q2 = hex_run_end(t, p2, te2);
        if q2 - p2 >= 4 {
            for radix in [default, 8, 10, 16] {
                if let (Some(a), Some(b)) = (parse_radix(t, p, q, radix), parse_radix(t, p2, q2, radix)) {
                    if count > 0 && b > a && (b - a) % count == 0 {
                        return radix;
                    }
                }
            }
            return default;
        }
        l = le2 + 1;
    }
    default
}

#[derive(Clone, Copy)]
enum Kind {
    Blank,
    Star(usize),
    Header(Option<u64>),
    Text(usize),
    Lone(u64, usize),
    Data { off: u64, off_pos: usize, data: usize },
}

fn classify(t: &[u8], ls: usize, te: usize, d: Dump) -> PResult<Kind> {
    let p = skip_ws(t, ls, te);
    if p >= te {
        return Ok(Kind::Blank);
    }
    if at(t, p) == b'*' && p + 1 == te {
        return Ok(Kind::Star(p));
    }
    let q = hex_run_end(t, p, te);
    let n = q - p;
    if (4..=16).contains(&n) {
        let mut r = q;
        let colon = at(t, r) == b':';
        if colon == (d.fl == Flavor::Xxd) {
            if colon {
                r += 1;
            }
            let off = || match parse_radix(t, p, q, d.radix) {
                Some(v) => Ok(v),
                None => Err(perr(p, format!("offset is not a valid base-{} number", d.radix))),
            };
            if r >= te {
                return Ok(Kind::Lone(off()?, p));
            }
            if is_hs(at(t, r)) {
                let tok = skip_hs(t, r, te);
                if is_hex(at(t, tok)) && is_hex(at(t, tok + 1)) && tok + 1 < te {
                    return Ok(Kind::Data { off: off()?, off_pos: p, data: r });
                }
            }
        }
    }
    Ok(header_or_text(t, p, te))
}

/// `Frame (74 bytes):`, `Reassembled TCP (1234 bytes):` (tshark multi-source headers).
fn header_or_text(t: &[u8], p: usize, te: usize) -> Kind {
    if te >= p + 3 && at(t, te - 1) == b':' && at(t, te - 2) == b')' {
        let close = te - 2;
        let mut open = close;
        while open > p && at(t, open) != b'(' {
            open -= 1;
        }
        if at(t, open) == b'(' {
            let ds = open + 1;
            let mut de = ds;
            while de < close && at(t, de).is_ascii_digit() {
                de += 1;
            }
            let rest = t.get(de..close).unwrap_or(&[]);
            if de > ds && (rest == b" bytes" || rest == b" byte") {
                return Kind::Header(parse_radix(t, ds, de, 10));
            }
        }
    }
    Kind::Text(p)
}

fn peek_kind(t: &[u8], mut p: usize, d: Dump) -> Option<Kind> {
    while p < t.len() {
        let ls = p;
        let le = line_end(t, p);
        let te = trim_end(t, ls, le);
        p = le + 1;
        match classify(t, ls, te, d) {
            Ok(Kind::Blank) => continue,
            Ok(k) => return Some(k),
            Err(_) => return None,
        }
    }
    None
}

fn fmt_off(v: u64, radix: u32) -> String {
    match radix {
        8 => format!("{:o}", v),
        10 => format!("{}", v),
        _ => format!("{:x}", v),
    }
}

#[derive(Clone, Copy)]
enum Limit {
    /// The next offset says exactly this many bytes are on the line.
    Exact(usize),
    /// Last line (or unknown): at most `cap` bytes; tokens starting at or after `bound`
    /// belong to the ASCII column. Without `bound` a wide gap ends the hex area.
    Upto { cap: usize, bound: Option<usize> },
}

struct LineOut {
    count: usize,
    hex_end: usize,
    ascii: bool,
}

fn parse_dump_line(t: &[u8], data: usize, te: usize, fl: Flavor, limit: Limit, out: &mut Vec<u8>) -> PResult<LineOut> {
    let thr = fl.gap();
    let mut p = data;
    let mut count = 0usize;
    let mut first = true;
    let mut hex_end = data;
    loop {
        let (w, np) = gap_width(t, p, te);
        p = np;
        if p >= te {
            break;
        }
        let c = at(t, p);
        let q = token_end(t, p, te);
        let delim = c == b'|' || (fl == Flavor::Od && c == b'>');
        let cap = match limit {
            Limit::Exact(n) => {
                if count >= n {
                    // xxd's ASCII column may follow a single space if whitespace was
                    // collapsed; the byte-per-column dumps delimit it or use a wide gap.
                    let extra = fl != Flavor::Xxd && !delim && w < thr && valid_token(t, p, q, fl);
                    if extra {
                        return Err(perr(p, format!("more bytes on this line than the next offset allows ({})", n)));
                    }
                    break;
                }
                // The hex area ended early: stop, and let the next offset report the gap.
                if delim {
                    break;
                }
                if !first && w >= thr && !(fl == Flavor::Xxd && w == 2 && valid_token(t, p, q, fl)) {
                    break;
                }
                n
            }
            Limit::Upto { cap, bound } => {
                if count >= cap || delim {
                    break;
                }
                match bound {
                    // (the first token is always data: a differently indented line
                    // must not lose all its bytes to the learned column)
                    Some(b) if !first && p >= b => break,
                    Some(_) => {}
                    None if !first && w >= thr => break,
                    None => {}
                }
                cap
            }
        };
        // A data token.
        let mut i = p;
        while i < q {
            if !is_hex(at(t, i)) {
                return Err(bad_char(t, i, "hex digit"));
            }
            i += 1;
        }
        let len = q - p;
        if fl != Flavor::Xxd && len != 2 {
            let msg = if len == 1 {
                String::from("odd number of hex digits (1)")
            } else {
                format!("expected one byte (two hex digits) per column, found {} digits", len)
            };
            return Err(perr(if len == 1 { p } else { p + 2 }, msg));
        }
        if len % 2 == 1 {
            return Err(perr(q - 1, format!("odd number of hex digits ({})", len)));
        }
        if count + len / 2 > cap {
            return Err(perr(p, format!("more bytes on this line than the offsets allow ({})", cap)));
        }
        for pair in t.get(p..q).unwrap_or(&[]).chunks_exact(2) {
            out.push((hexval(pair[0]) << 4) | hexval(pair[1]));
        }
        count += len / 2;
        hex_end = q;
        first = false;
        p = q;
    }
    let ascii = skip_hs(t, hex_end, te) < te;
    Ok(LineOut { count, hex_end, ascii })
}

/// Cross-check a line's bytes against its ASCII column: every printable byte must be
/// shown as itself. Catches byte-swapped dumps (`xxd -e`) and corrupted lines. Spaces are
/// ignored on both sides (tools differ), and the check is skipped when the column's
/// length does not line up (unknown tool conventions) rather than guessing.
fn check_ascii(t: &[u8], bytes: &[u8], hex_end: usize, te: usize) -> PResult<()> {
    let mut a = skip_hs(t, hex_end, te);
    let mut z = te;
    let rest = t.get(a..z).unwrap_or(&[]);
    if rest.is_empty() || rest.iter().any(|&b| b >= 0x80) {
        return Ok(());
    }
    let (open, close) = (at(t, a), at(t, z - 1));
    if z - a >= 2 && ((open == b'|' && close == b'|') || (open == b'>' && close == b'<')) {
        a += 1;
        z -= 1;
    }
    let visible = |b: u8| !is_ws(b);
    let shown = t.get(a..z).unwrap_or(&[]).iter().filter(|&&b| visible(b)).count();
    if shown != bytes.iter().filter(|&&b| b != b' ').count() {
        return Ok(());
    }
    let mut y = a;
    for &b in bytes.iter().filter(|&&b| b != b' ') {
        while y < z && !visible(at(t, y)) {
            y += 1;
        }
        let ch = at(t, y);
        if (0x21..=0x7e).contains(&b) && ch != b {
            return Err(perr(
                y,
                format!(
                    "ASCII column shows '{}' where the hex says {:02x} ('{}'): byte-swapped dump \
                     (xxd -e?) or corrupted line",
                    ch as char, b, b as char
                ),
            ));
        }
        y += 1;
    }
    Ok(())
}

fn valid_token(t: &[u8], p: usize, q: usize, fl: Flavor) -> bool {
    all_hex(t, p, q) && if fl == Flavor::Xxd { (q - p) % 2 == 0 } else { q - p == 2 }
}

struct DumpState {
    out: Vec<u8>,
    have_block: bool,
    /// Why the current block ended early: (position, by_text).
    closed: Option<(usize, bool)>,
    expect: u64,
    last_line: Option<(usize, usize)>,
    star: Option<usize>,
    header: Option<(u64, usize)>,
    next_header: Option<(u64, usize)>,
    blocks_done: usize,
    expanded: u64,
    cols: Option<usize>,
    hex_end_rel: Option<usize>,
}

fn parse_dump(t: &[u8], d: Dump, notes: &mut Notes) -> PResult<(Format, Vec<u8>)> {
    let fl = d.fl;
    let mut st = DumpState {
        out: Vec::new(),
        have_block: false,
        closed: None,
        expect: 0,
        last_line: None,
        star: None,
        header: None,
        next_header: None,
        blocks_done: 0,
        expanded: 0,
        cols: None,
        hex_end_rel: None,
    };
    let mut p = 0usize;
    while p < t.len() {
        let ls = p;
        let le = line_end(t, p);
        let te = trim_end(t, ls, le);
        p = le + 1;
        match classify(t, ls, te, d)? {
            Kind::Blank => {}
            Kind::Header(n) => {
                notes.add(Note::FrameHeaders);
                no_pending_star(&st)?;
                if st.have_block && st.closed.is_none() {
                    st.closed = Some((ls, true));
                }
                st.next_header = n.map(|n| (n, skip_ws(t, ls, te)));
            }
            Kind::Text(pos) => {
                notes.add(Note::SurroundingText);
                no_pending_star(&st)?;
                if st.have_block && st.closed.is_none() {
                    st.closed = Some((pos, true));
                }
            }
            Kind::Star(pos) => {
                if !st.have_block || st.closed.is_some() || st.last_line.is_none() {
                    return Err(perr(pos, "'*' repeat line without a dump line before it"));
                }
                if st.star.is_some() {
                    return Err(perr(pos, "two '*' repeat lines in a row"));
                }
                st.star = Some(pos);
            }
            Kind::Lone(off, pos) => {
                if !st.have_block || st.closed.is_some() {
                    notes.add(Note::SurroundingText);
                    continue;
                }
                if st.star.is_some() {
                    expand(&mut st, off, pos, d.radix, notes)?;
                }
                if off != st.expect {
                    return Err(perr(
                        pos,
                        format!(
                            "final offset {} does not match the end of the dump ({})",
                            fmt_off(off, d.radix),
                            fmt_off(st.expect, d.radix)
                        ),
                    ));
                }
                notes.add(Note::FinalOffset);
                st.closed = Some((pos, false));
            }
            Kind::Data { off, off_pos, data } => {
                let continues = st.have_block && st.closed.is_none();
                if continues && st.star.is_some() {
                    expand(&mut st, off, off_pos, d.radix, notes)?;
                } else if continues && off == st.expect {
                    // next line of the current block
                } else if !st.have_block || off == 0 {
                    if st.have_block {
                        finish_block(&mut st)?;
                    }
                    st.out.clear();
                    st.have_block = true;
                    st.closed = None;
                    st.expect = off;
                    st.last_line = None;
                    st.star = None;
                    st.header = st.next_header.take();
                    st.cols = None;
                    st.hex_end_rel = None;
                } else if let Some((cpos, by_text)) = st.closed {
                    return Err(if by_text {
                        perr(cpos, "unrecognised line inside a hex dump")
                    } else {
                        perr(off_pos, "dump line after the final offset line")
                    });
                } else {
                    return Err(perr(
                        off_pos,
                        format!(
                            "offset {} does not follow the previous line (expected {})",
                            fmt_off(off, d.radix),
                            fmt_off(st.expect, d.radix)
                        ),
                    ));
                }
                // How many bytes does this line hold?
                let mut full = false;
                let limit = match peek_kind(t, p, d) {
                    Some(Kind::Data { off: next, .. }) if next > off => {
                        full = true;
                        Limit::Exact(usize::try_from(next - off).unwrap_or(usize::MAX))
                    }
                    Some(Kind::Lone(next, _)) if next > off => {
                        Limit::Exact(usize::try_from(next - off).unwrap_or(usize::MAX))
                    }
                    Some(Kind::Star(_)) if st.cols.is_some() => Limit::Exact(st.cols.unwrap_or(16)),
                    _ => Limit::Upto {
                        cap: st.cols.unwrap_or(fl.default_cap()),
                        bound: st.hex_end_rel.map(|r| off_pos + r),
                    },
                };
                let before = st.out.len();
                let lo = parse_dump_line(t, data, te, fl, limit, &mut st.out)?;
                if full {
                    if st.cols.is_none() {
                        st.cols = Some(lo.count);
                    }
                    st.hex_end_rel = Some(lo.hex_end.saturating_sub(off_pos));
                }
                if lo.ascii {
                    notes.add(Note::AsciiColumn);
                    check_ascii(t, st.out.get(before..).unwrap_or(&[]), lo.hex_end, te)?;
                }
                notes.add(Note::OffsetColumn);
                st.last_line = Some((before, lo.count));
                st.expect = match st.expect.checked_add(lo.count as u64) {
                    Some(v) => v,
                    None => return Err(perr(off_pos, "offset overflow")),
                };
            }
        }
    }
    no_pending_star(&st)?;
    if !st.have_block {
        return Err(perr(0, "no hex dump lines found"));
    }
    finish_block(&mut st)?;
    if st.blocks_done > 1 {
        notes.add(Note::EarlierBlocks);
    }
    Ok((fl.format(), st.out))
}

fn no_pending_star(st: &DumpState) -> PResult<()> {
    match st.star {
        Some(pos) => Err(perr(pos, "'*' repeat line must be followed by an offset line")),
        None => Ok(()),
    }
}

fn finish_block(st: &mut DumpState) -> PResult<()> {
    if let Some((n, pos)) = st.header {
        if n != st.out.len() as u64 {
            return Err(perr(pos, format!("header announces {} bytes but its dump holds {}", n, st.out.len())));
        }
    }
    st.blocks_done += 1;
    Ok(())
}

/// Expand a pending `*` line: the previous line repeats up to offset `off`.
fn expand(st: &mut DumpState, off: u64, off_pos: usize, radix: u32, notes: &mut Notes) -> PResult<()> {
    let star = st.star.take().unwrap_or(off_pos);
    let (ls, cnt) = match st.last_line {
        Some(x) if x.1 > 0 => x,
        _ => return Err(perr(star, "'*' repeat line without a dump line before it")),
    };
    let gap = match off.checked_sub(st.expect) {
        Some(g) => g,
        None => {
            return Err(perr(
                off_pos,
                format!("offset {} after '*' goes backwards (expected at least {})", fmt_off(off, radix), fmt_off(st.expect, radix)),
            ))
        }
    };
    if gap % cnt as u64 != 0 {
        return Err(perr(
            off_pos,
            format!("offset {} after '*' is not a whole number of {}-byte lines on", fmt_off(off, radix), cnt),
        ));
    }
    let total = st.expanded.saturating_add(gap);
    let max = MAX_REPEAT_EXPANSION as u64;
    if total > max || (st.out.len() as u64).saturating_add(gap) > max {
        return Err(perr(star, "'*' repeat expansion would exceed the 64 MiB limit"));
    }
    st.expanded = total;
    let gap = gap as usize; // <= 64 MiB
    if st.out.try_reserve(gap).is_err() {
        return Err(perr(star, "out of memory expanding '*' repeat line"));
    }
    if ls + cnt > st.out.len() {
        return Err(perr(star, "'*' repeat line without a dump line before it"));
    }
    for _ in 0..gap / cnt {
        st.out.extend_from_within(ls..ls + cnt);
    }
    st.expect = off;
    notes.add(Note::RepeatLines);
    Ok(())
}

// ---------------------------------------------------------------------------------------
// Byte-array and string literals.

#[derive(Default)]
struct Structure {
    brace: Option<(usize, usize)>,
    bracket: Option<(usize, usize)>,
    paren: Option<(usize, usize)>,
    top_string: bool,
}

const MAX_NESTING: usize = 64;

/// Skip a comment starting at `p` (`//`, `/* */`, `#`), returning the position after it.
fn skip_comment(t: &[u8], p: usize, e: usize) -> PResult<Option<usize>> {
    let c = at(t, p);
    if (c == b'/' && at(t, p + 1) == b'/') || c == b'#' {
        return Ok(Some(line_end(t, p).min(e)));
    }
    if c == b'/' && at(t, p + 1) == b'*' {
        let mut i = p + 2;
        while i + 1 < e {
            if t[i] == b'*' && t[i + 1] == b'/' {
                return Ok(Some(i + 2));
            }
            i += 1;
        }
        return Err(perr(p, "unterminated /* comment"));
    }
    Ok(None)
}

/// A `'` that starts a Rust lifetime (`&'static`) rather than a literal.
fn is_lifetime(t: &[u8], q: usize) -> bool {
    at(t, q) == b'\'' && is_ident_start(at(t, q + 1)) && at(t, q + 2) != b'\'' && !is_ident(at(t, q.wrapping_sub(1)))
}

fn skip_quoted(t: &[u8], q: usize, e: usize) -> PResult<usize> {
    let quote = at(t, q);
    let mut p = q + 1;
    while p < e {
        let c = t[p];
        if c == b'\\' {
            p += if at(t, p + 1) == b'\r' && at(t, p + 2) == b'\n' { 3 } else { 2 };
            continue;
        }
        if c == quote {
            return Ok(p + 1);
        }
        if c == b'\n' {
            break;
        }
        p += 1;
    }
    Err(perr(q, "unterminated string literal"))
}

fn scan_structure(t: &[u8], s: usize, e: usize, notes: &mut Notes) -> PResult<Structure> {
    let mut st = Structure::default();
    let mut stack: Vec<(u8, usize)> = Vec::new();
    let mut p = s;
    while p < e {
        if let Some(np) = skip_comment(t, p, e)? {
            notes.add(Note::Comments);
            p = np;
            continue;
        }
        let c = t[p];
        match c {
            b'\'' if is_lifetime(t, p) => {
                p += 1;
                while p < e && is_ident(t[p]) {
                    p += 1;
                }
                continue;
            }
            b'\'' | b'"' => {
                let np = skip_quoted(t, p, e)?;
                if stack.iter().all(|&(d, _)| d == b'(') {
                    st.top_string = true;
                }
                p = np;
                continue;
            }
            b'{' | b'[' | b'(' => {
                if stack.len() >= MAX_NESTING {
                    return Err(perr(p, "brackets nested too deeply"));
                }
                stack.push((c, p));
            }
            b'}' | b']' | b')' => {
                let want = match c {
                    b'}' => b'{',
                    b']' => b'[',
                    _ => b'(',
                };
                let (open, opos) = match stack.pop() {
                    Some(x) => x,
                    None => return Err(perr(p, format!("unbalanced '{}'", c as char))),
                };
                if open != want {
                    return Err(perr(p, format!("'{}' does not match '{}'", c as char, open as char)));
                }
                match c {
                    b'}' => {
                        if st.brace.is_none() && !stack.iter().any(|&(d, _)| d == b'{') {
                            st.brace = Some((opos, p));
                        }
                    }
                    b']' => {
                        if !stack.iter().any(|&(d, _)| d == b'{' || d == b'[') {
                            st.bracket = Some((opos, p));
                        }
                    }
                    _ => {
                        if stack.is_empty() {
                            st.paren = Some((opos, p));
                        }
                    }
                }
            }
            _ => {}
        }
        p += 1;
    }
    if let Some(&(c, pos)) = stack.first() {
        return Err(perr(pos, format!("unclosed '{}'", c as char)));
    }
    Ok(st)
}

fn parse_literal(t: &[u8], s: usize, e: usize, notes: &mut Notes) -> PResult<(Format, Vec<u8>)> {
    let st = scan_structure(t, s, e, notes)?;
    let (group, note) = if let Some(g) = st.brace {
        (g, Note::CArray)
    } else if st.top_string {
        return Ok((Format::ByteArray, parse_strings(t, s, e, notes)?));
    } else if let Some(g) = st.bracket {
        (g, Note::Brackets)
    } else if let Some(g) = st.paren {
        (g, Note::Parens)
    } else {
        return Err(perr(s, "no array or string literal found"));
    };
    notes.add(note);
    let (o, c) = group;
    let outside = |a: usize, b: usize| t.get(a..b).is_some_and(|r| r.iter().any(|&x| !is_ws(x)));
    if outside(s, o) || outside(c + 1, e) {
        notes.add(Note::Code);
    }
    let brace = matches!(note, Note::CArray);
    Ok((Format::ByteArray, parse_elements(t, o + 1, c, brace, notes)?))
}

fn skip_ws_comments(t: &[u8], mut p: usize, e: usize, notes: &mut Notes) -> PResult<usize> {
    loop {
        p = skip_ws(t, p, e);
        match skip_comment(t, p, e)? {
            Some(np) if p < e => {
                notes.add(Note::Comments);
                p = np;
            }
            _ => return Ok(p),
        }
    }
}

fn parse_elements(t: &[u8], bs: usize, be: usize, brace: bool, notes: &mut Notes) -> PResult<Vec<u8>> {
    let mut out = Vec::with_capacity((be.saturating_sub(bs)) / 2 + 1);
    let mut scratch = Vec::new();
    let mut p = bs;
    loop {
        p = skip_ws_comments(t, p, be, notes)?;
        if p >= be {
            break;
        }
        if at(t, p) == b',' {
            return Err(perr(p, "empty element (two commas in a row)"));
        }
        let (v, np) = parse_element(t, p, be, brace, notes, &mut scratch)?;
        out.push(v);
        p = skip_ws_comments(t, np, be, notes)?;
        if p >= be {
            break;
        }
        if at(t, p) != b',' {
            return Err(perr(p, format!("expected ',' between values, found '{}'", char_at(t, p))));
        }
        p += 1;
    }
    Ok(out)
}

fn parse_element(
    t: &[u8],
    start: usize,
    be: usize,
    brace: bool,
    notes: &mut Notes,
    scratch: &mut Vec<u8>,
) -> PResult<(u8, usize)> {
    let mut p = start;
    // Casts: (byte), (unsigned char), (uint8_t) ...
    while at(t, p) == b'(' && p < be {
        let mut q = skip_hs(t, p + 1, be);
        let mut idents = 0;
        while q < be && is_ident_start(at(t, q)) {
            while q < be && is_ident(at(t, q)) {
                q += 1;
            }
            idents += 1;
            q = skip_hs(t, q, be);
        }
        if idents == 0 || at(t, q) != b')' || q >= be {
            return Err(perr(p, "unexpected '(' (only casts like (byte) are understood)"));
        }
        notes.add(if brace { Note::CArray } else { Note::Casts });
        p = skip_ws(t, q + 1, be);
    }
    let mut neg = false;
    if p < be && (at(t, p) == b'-' || at(t, p) == b'+') {
        neg = at(t, p) == b'-';
        p = skip_ws(t, p + 1, be);
    }
    let c = at(t, p);
    let (mag, mut np) = if p < be && (c == b'\'' || (c == b'b' && at(t, p + 1) == b'\'')) {
        let q = if c == b'b' { p + 1 } else { p };
        scratch.clear();
        let end = decode_quoted(t, q, be, false, scratch)?;
        if scratch.len() != 1 {
            return Err(perr(p, "character literal must be exactly one byte"));
        }
        (scratch[0] as u64, end)
    } else if p < be && c.is_ascii_digit() {
        parse_number(t, p, be)?
    } else if p >= be {
        return Err(perr(be.saturating_sub(1), "missing value"));
    } else {
        return Err(perr(p, format!("expected a number, found '{}'", char_at(t, p))));
    };
    // Type suffix: 0xffu8, 58L, 255_u8 ...
    let ss = np;
    while np < be && is_ident(at(t, np)) {
        np += 1;
    }
    if np > ss {
        let suf = t.get(ss..np).unwrap_or(&[]);
        let suf = suf.strip_prefix(b"_").unwrap_or(suf);
        let ok = matches!(
            suf,
            b"u8" | b"i8" | b"u16" | b"i16" | b"u32" | b"i32" | b"u64" | b"i64" | b"u128" | b"i128" | b"usize" | b"isize"
        ) || (!suf.is_empty() && suf.len() <= 3 && suf.iter().all(|&b| matches!(b, b'u' | b'U' | b'l' | b'L')));
        if !ok {
            return Err(perr(ss, format!("unexpected '{}' after number", char_at(t, ss))));
        }
        notes.add(Note::Suffixes);
    }
    // Kotlin 0xff.toByte(), Rust `as u8`
    for m in [&b".toByte()"[..], &b".toUByte()"[..]] {
        if starts_with_ci(t, np, be, m) {
            np += m.len();
            notes.add(Note::Suffixes);
        }
    }
    let q = skip_hs(t, np, be);
    if starts_with_ci(t, q, be, b"as") && is_hs(at(t, q + 2)) {
        let r = skip_hs(t, q + 2, be);
        if is_ident_start(at(t, r)) {
            let mut r2 = r;
            while r2 < be && is_ident(at(t, r2)) {
                r2 += 1;
            }
            np = r2;
            notes.add(Note::Casts);
        }
    }
    let v: i64 = if neg { -(mag.min(1 << 40) as i64) } else { mag.min(1 << 40) as i64 };
    if !(-128..=255).contains(&v) {
        let shown = if mag >= 1 << 40 { String::from("too large") } else { format!("{}", v) };
        return Err(perr(start, format!("value {} is out of byte range (-128..=255)", shown)));
    }
    Ok(((v & 0xff) as u8, np))
}

fn parse_number(t: &[u8], p: usize, be: usize) -> PResult<(u64, usize)> {
    let (radix, mut q) = match (at(t, p), at(t, p + 1)) {
        (b'0', b'x' | b'X') => (16u32, p + 2),
        (b'0', b'b' | b'B') if matches!(at(t, p + 2), b'0' | b'1') => (2, p + 2),
        (b'0', b'o' | b'O') => (8, p + 2),
        _ => (10, p),
    };
    let ds = q;
    let mut v: u64 = 0;
    let mut digits = 0usize;
    let mut octal: u64 = 0;
    let mut octal_ok = true;
    while q < be {
        let b = at(t, q);
        if b == b'_' {
            // digit separator; `_u8` etc. is a suffix (checked by the caller)
            if digits > 0 && q + 1 < be && (at(t, q + 1) as char).is_digit(radix) {
                q += 1;
                continue;
            }
            break;
        }
        let d = match (b as char).to_digit(radix) {
            Some(d) => d as u64,
            None => break,
        };
        v = v.saturating_mul(radix as u64).saturating_add(d);
        if d < 8 {
            octal = octal.saturating_mul(8).saturating_add(d);
        } else {
            octal_ok = false;
        }
        digits += 1;
        q += 1;
    }
    if digits == 0 {
        return Err(perr(ds.min(be.saturating_sub(1)), "missing digits after number prefix"));
    }
    if radix == 10 && at(t, p) == b'0' && digits > 1 && octal_ok && octal != v {
        let lit: String = t.get(p..q).unwrap_or(&[]).iter().map(|&b| b as char).collect();
        return Err(perr(
            p,
            format!("ambiguous number '{}': a leading zero means octal in C and Java; drop the zero or use 0x", lit),
        ));
    }
    Ok((v, q))
}

/// Decode one escape sequence at `p` (which holds `\`). Returns the byte (None for a
/// line continuation) and the position after the sequence.
fn decode_escape(t: &[u8], p: usize, e: usize) -> PResult<(Option<u8>, usize)> {
    let d = at(t, p + 1);
    if p + 1 >= e {
        return Err(perr(p, "dangling '\\' at end of string"));
    }
    let simple = match d {
        b'n' => Some(b'\n'),
        b'r' => Some(b'\r'),
        b't' => Some(b'\t'),
        b'\\' => Some(b'\\'),
        b'\'' => Some(b'\''),
        b'"' => Some(b'"'),
        b'a' => Some(7),
        b'b' => Some(8),
        b'f' => Some(12),
        b'v' => Some(11),
        b'?' => Some(b'?'),
        _ => None,
    };
    if let Some(b) = simple {
        return Ok((Some(b), p + 2));
    }
    match d {
        b'x' | b'X' => {
            let (h, l) = (at(t, p + 2), at(t, p + 3));
            if is_hex(h) && is_hex(l) && p + 3 < e {
                Ok((Some((hexval(h) << 4) | hexval(l)), p + 4))
            } else {
                Err(perr(p, "\\x escape needs two hex digits"))
            }
        }
        b'0'..=b'7' => {
            let mut v: u32 = 0;
            let mut q = p + 1;
            while q < e && q < p + 4 && matches!(at(t, q), b'0'..=b'7') {
                v = v * 8 + (at(t, q) - b'0') as u32;
                q += 1;
            }
            if v > 255 {
                return Err(perr(p, "octal escape above \\377"));
            }
            Ok((Some(v as u8), q))
        }
        b'\n' | b'\r' => {
            // line continuation; also skip the next line's indentation
            let mut q = p + 1;
            if at(t, q) == b'\r' {
                q += 1;
            }
            if at(t, q) == b'\n' {
                q += 1;
            }
            Ok((None, skip_hs(t, q, e)))
        }
        _ => Err(perr(p, format!("unsupported escape '\\{}'", char_at(t, p + 1)))),
    }
}

/// One character of string contents at `p` (not a quote or a line break): an escape (when
/// `escapes`) or a printable ASCII byte, appended to `out`; returns where the next one starts.
fn literal_char(t: &[u8], p: usize, e: usize, escapes: bool, out: &mut Vec<u8>) -> PResult<usize> {
    let c = t[p];
    if c == b'\\' && escapes {
        let (b, np) = decode_escape(t, p, e)?;
        if let Some(b) = b {
            out.push(b);
        }
        return Ok(np);
    }
    if c >= 0x80 || (c < 0x20 && c != b'\t') {
        return Err(perr(p, format!("character '{}' is not a byte", char_at(t, p))));
    }
    out.push(c);
    Ok(p + 1)
}

/// Decode a quoted literal whose opening quote is at `q`; returns the position after the
/// closing quote.
fn decode_quoted(t: &[u8], q: usize, e: usize, raw: bool, out: &mut Vec<u8>) -> PResult<usize> {
    let quote = at(t, q);
    let mut p = q + 1;
    while p < e {
        let c = t[p];
        if c == quote {
            return Ok(p + 1);
        }
        if c == b'\n' {
            break;
        }
        p = literal_char(t, p, e, !raw, out)?;
    }
    Err(perr(q, "unterminated string literal"))
}

/// Concatenate the string literals at top level: `b'...'`, `b"..." b"..."`, `"\000..."`.
fn parse_strings(t: &[u8], s: usize, e: usize, notes: &mut Notes) -> PResult<Vec<u8>> {
    let mut out = Vec::with_capacity(e.saturating_sub(s));
    let mut depth = 0usize; // inside [] or {} (ignored)
    let mut p = s;
    notes.add(Note::StringLit);
    while p < e {
        if let Some(np) = skip_comment(t, p, e)? {
            notes.add(Note::Comments);
            p = np;
            continue;
        }
        let c = t[p];
        if is_ident_start(c) {
            let is_ = p;
            while p < e && is_ident(t[p]) {
                p += 1;
            }
            let q = at(t, p);
            if (q == b'"' || q == b'\'') && depth == 0 && p < e {
                let prefix = t.get(is_..p).unwrap_or(&[]);
                let raw = prefix.iter().any(|&b| b == b'r' || b == b'R');
                let valid = prefix.len() <= 2
                    && prefix.iter().all(|&b| matches!(b, b'b' | b'B' | b'r' | b'R'))
                    && !(prefix.len() == 2 && prefix[0].eq_ignore_ascii_case(&prefix[1]));
                if !valid {
                    return Err(perr(is_, "unsupported string prefix (only b'', r'', rb'' byte strings)"));
                }
                p = string_literal(t, p, e, raw, &mut out)?;
            } else {
                notes.add(Note::Code);
            }
            continue;
        }
        match c {
            b'"' | b'\'' if depth == 0 => {
                if c == b'\'' && is_lifetime(t, p) {
                    notes.add(Note::Code);
                    p += 1;
                    continue;
                }
                p = string_literal(t, p, e, false, &mut out)?;
                continue;
            }
            b'"' | b'\'' => {
                p = skip_quoted(t, p, e)?;
                continue;
            }
            b'[' | b'{' => {
                depth += 1;
                notes.add(Note::Code);
            }
            b']' | b'}' => {
                depth = depth.saturating_sub(1);
                notes.add(Note::Code);
            }
            _ if !is_ws(c) => notes.add(Note::Code),
            _ => {}
        }
        p += 1;
    }
    Ok(out)
}

fn string_literal(t: &[u8], q: usize, e: usize, raw: bool, out: &mut Vec<u8>) -> PResult<usize> {
    let end = decode_quoted(t, q, e, raw, out)?;
    if end == q + 2 && at(t, end) == at(t, q) && end < e {
        return Err(perr(q, "triple-quoted strings are not supported"));
    }
    Ok(end)
}

/// Unquoted escaped text such as `\x00\x00:\xff` (string contents without the quotes):
/// line breaks and the indentation after them are dropped, everything else is a byte.
fn decode_unquoted(t: &[u8], s: usize, e: usize, out: &mut Vec<u8>, notes: &mut Notes) -> PResult<()> {
    let mut p = s;
    while p < e {
        let c = t[p];
        if c == b'\n' || (c == b'\r' && at(t, p + 1) == b'\n') {
            notes.add(Note::LineBreaks);
            p = skip_hs(t, if c == b'\r' { p + 2 } else { p + 1 }, e);
            continue;
        }
        p = literal_char(t, p, e, true, out)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::string::ToString;
    use alloc::vec;

    /// Kafka record-batch reference §9.1 Example A (70 bytes).
    const BATCH_HEX: &str = "00 00 00 00 00 00 00 00 00 00 00 3a ff ff ff ff 02 8c 4a 54 5e 00 00 00 00 00 00 00 00 01 8b cf e5 68 00 00 00 01 8b cf e5 68 00 00 00 00 00 00 00 10 92 00 01 00 00 00 07 00 00 00 01 10 00 00 00 02 6b 02 76 00";

    fn batch() -> Vec<u8> {
        BATCH_HEX.split(' ').map(|h| (hexval(h.as_bytes()[0]) << 4) | hexval(h.as_bytes()[1])).collect()
    }

    fn ok(s: &str) -> Detected {
        match detect(s.as_bytes()) {
            Ok(d) => d,
            Err(e) => panic!("{} (at {}) for input:\n{}", e.message, e.at, s),
        }
    }

    fn err(s: &str) -> InputError {
        match detect(s.as_bytes()) {
            Ok(d) => panic!("expected an error, got {:?} for input:\n{}", d, s),
            Err(e) => e,
        }
    }

    fn notes(d: &Detected) -> Vec<&str> {
        d.stripped.iter().map(|s| s.as_str()).collect()
    }

    fn check(s: &str, format: Format) -> Detected {
        let d = ok(s);
        assert_eq!(d.format, format, "format for:\n{}", s);
        assert_eq!(d.bytes, batch(), "bytes for:\n{}", s);
        d
    }

    const XXD: &str = concat!(
        "00000000: 0000 0000 0000 0000 0000 003a ffff ffff  ...........:....\n",
        "00000010: 028c 4a54 5e00 0000 0000 0000 0001 8bcf  ..JT^...........\n",
        "00000020: e568 0000 0001 8bcf e568 0000 0000 0000  .h.......h......\n",
        "00000030: 0010 9200 0100 0000 0700 0000 0110 0000  ................\n",
        "00000040: 0002 6b02 7600                           ..k.v.\n",
    );
    const XXD_G1: &str = concat!(
        "00000000: 00 00 00 00 00 00 00 00 00 00 00 3a ff ff ff ff  ...........:....\n",
        "00000010: 02 8c 4a 54 5e 00 00 00 00 00 00 00 00 01 8b cf  ..JT^...........\n",
        "00000020: e5 68 00 00 00 01 8b cf e5 68 00 00 00 00 00 00  .h.......h......\n",
        "00000030: 00 10 92 00 01 00 00 00 07 00 00 00 01 10 00 00  ................\n",
        "00000040: 00 02 6b 02 76 00                                ..k.v.\n",
    );
    const XXD_P: &str = concat!(
        "00000000000000000000003affffffff028c4a545e000000000000000001\n",
        "8bcfe568000000018bcfe568000000000000001092000100000007000000\n",
        "0110000000026b027600\n",
    );
    const XXD_I: &str = concat!(
        "unsigned char a_bin[] = {\n",
        "  0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x3a,\n",
        "  0xff, 0xff, 0xff, 0xff, 0x02, 0x8c, 0x4a, 0x54, 0x5e, 0x00, 0x00, 0x00,\n",
        "  0x00, 0x00, 0x00, 0x00, 0x00, 0x01, 0x8b, 0xcf, 0xe5, 0x68, 0x00, 0x00,\n",
        "  0x00, 0x01, 0x8b, 0xcf, 0xe5, 0x68, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,\n",
        "  0x00, 0x10, 0x92, 0x00, 0x01, 0x00, 0x00, 0x00, 0x07, 0x00, 0x00, 0x00,\n",
        "  0x01, 0x10, 0x00, 0x00, 0x00, 0x02, 0x6b, 0x02, 0x76, 0x00\n",
        "};\n",
        "unsigned int a_bin_len = 70;\n",
    );
    const XXD_ASC: &str = concat!(
        "00000000: 3031 3233 3435 3637 3839 6162 6364 6566  0123456789abcdef\n",
        "00000010: 2030 3020 3131 2032 3233 3320 3434 3535   00 11 2233 4455\n",
    );
    const XXD_REP: &str = concat!(
        "00000000: 0000 0000 0000 0000 0000 003a ffff ffff  ...........:....\n",
        "00000010: 0000 0000 0000 0000 0000 0000 0000 0000  ................\n",
        "00000020: 0000 0000 0000 0000 0000 0000 0000 0000  ................\n",
        "00000030: 0000 0000 0000 0000 0000 0000 0000 0000  ................\n",
        "00000040: 0000 0000 0000 0000 0000 0000 0000 0000  ................\n",
        "00000050: 6162 2063 6420 6566 2031 3220 3334 206b  ab cd ef 12 34 k\n",
    );
    const HEXDUMP: &str = concat!(
        "00000000  00 00 00 00 00 00 00 00  00 00 00 3a ff ff ff ff  |...........:....|\n",
        "00000010  02 8c 4a 54 5e 00 00 00  00 00 00 00 00 01 8b cf  |..JT^...........|\n",
        "00000020  e5 68 00 00 00 01 8b cf  e5 68 00 00 00 00 00 00  |.h.......h......|\n",
        "00000030  00 10 92 00 01 00 00 00  07 00 00 00 01 10 00 00  |................|\n",
        "00000040  00 02 6b 02 76 00                                 |..k.v.|\n",
        "00000046\n",
    );
    const HEXDUMP_ASC: &str = concat!(
        "00000000  30 31 32 33 34 35 36 37  38 39 61 62 63 64 65 66  |0123456789abcdef|\n",
        "00000010  20 30 30 20 31 31 20 32  32 33 33 20 34 34 35 35  | 00 11 2233 4455|\n",
        "00000020\n",
    );
    const HEXDUMP_REP: &str = concat!(
        "00000000  00 00 00 00 00 00 00 00  00 00 00 3a ff ff ff ff  |...........:....|\n",
        "00000010  00 00 00 00 00 00 00 00  00 00 00 00 00 00 00 00  |................|\n",
        "*\n",
        "00000050  61 62 20 63 64 20 65 66  20 31 32 20 33 34 20 6b  |ab cd ef 12 34 k|\n",
        "00000060\n",
    );
    const OD_X1Z: &str = concat!(
        "000000 00 00 00 00 00 00 00 00 00 00 00 3a ff ff ff ff  >...........:....<\n",
        "000010 02 8c 4a 54 5e 00 00 00 00 00 00 00 00 01 8b cf  >..JT^...........<\n",
        "000020 e5 68 00 00 00 01 8b cf e5 68 00 00 00 00 00 00  >.h.......h......<\n",
        "000030 00 10 92 00 01 00 00 00 07 00 00 00 01 10 00 00  >................<\n",
        "000040 00 02 6b 02 76 00                                >..k.v.<\n",
        "000046\n",
    );
    const OD_X1: &str = concat!(
        "0000000 00 00 00 00 00 00 00 00 00 00 00 3a ff ff ff ff\n",
        "0000020 02 8c 4a 54 5e 00 00 00 00 00 00 00 00 01 8b cf\n",
        "0000040 e5 68 00 00 00 01 8b cf e5 68 00 00 00 00 00 00\n",
        "0000060 00 10 92 00 01 00 00 00 07 00 00 00 01 10 00 00\n",
        "0000100 00 02 6b 02 76 00\n",
        "0000106\n",
    );
    const OD_REP: &str = concat!(
        "000000 00 00 00 00 00 00 00 00 00 00 00 3a ff ff ff ff  >...........:....<\n",
        "000010 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00  >................<\n",
        "*\n",
        "000050 61 62 20 63 64 20 65 66 20 31 32 20 33 34 20 6b  >ab cd ef 12 34 k<\n",
        "000060\n",
    );
    const HEXDUMP_WORDS: &str = concat!(
        "0000000 0000 0000 0000 0000 0000 3a00 ffff ffff\n",
        "0000010 8c02 544a 005e 0000 0000 0000 0100 cf8b\n",
        "0000020 68e5 0000 0100 cf8b 68e5 0000 0000 0000\n",
        "0000030 1000 0092 0001 0000 0007 0000 1001 0000\n",
        "0000040 0200 026b 0076                         \n",
        "0000046\n",
    );
    const B64: &str = concat!(
        "AAAAAAAAAAAAAAA6/////wKMSlReAAAAAAAAAAABi8/laAAAAAGLz+VoAAAAAAAAABCSAAEAAAAH\n",
        "AAAAARAAAAACawJ2AA==\n",
    );
    const TSHARK: &str = concat!(
        "0000  00 00 00 00 00 00 00 00 00 00 00 3a ff ff ff ff   ...........:....\n",
        "0010  02 8c 4a 54 5e 00 00 00 00 00 00 00 00 01 8b cf   ..JT^...........\n",
        "0020  e5 68 00 00 00 01 8b cf e5 68 00 00 00 00 00 00   .h.......h......\n",
        "0030  00 10 92 00 01 00 00 00 07 00 00 00 01 10 00 00   ................\n",
        "0040  00 02 6b 02 76 00                                 ..k.v.\n",
    );
    const TSHARK_DELIM: &str = concat!(
        "0000  00 00 00 00 00 00 00 00 00 00 00 3a ff ff ff ff   |...........:....|\n",
        "0010  02 8c 4a 54 5e 00 00 00 00 00 00 00 00 01 8b cf   |..JT^...........|\n",
        "0020  e5 68 00 00 00 01 8b cf e5 68 00 00 00 00 00 00   |.h.......h......|\n",
        "0030  00 10 92 00 01 00 00 00 07 00 00 00 01 10 00 00   |................|\n",
        "0040  00 02 6b 02 76 00                                 |..k.v.|\n",
    );
    const WS_GUI: &str = concat!(
        "0000   00 00 00 00 00 00 00 00 00 00 00 3a ff ff ff ff   ...........:....\n",
        "0010   02 8c 4a 54 5e 00 00 00 00 00 00 00 00 01 8b cf   ..JT^...........\n",
        "0020   e5 68 00 00 00 01 8b cf e5 68 00 00 00 00 00 00   .h.......h......\n",
        "0030   00 10 92 00 01 00 00 00 07 00 00 00 01 10 00 00   ................\n",
        "0040   00 02 6b 02 76 00                                 ..k.v.\n",
    );
    const WS_GUI_HEX: &str = concat!(
        "0000   00 00 00 00 00 00 00 00 00 00 00 3a ff ff ff ff\n",
        "0010   02 8c 4a 54 5e 00 00 00 00 00 00 00 00 01 8b cf\n",
        "0020   e5 68 00 00 00 01 8b cf e5 68 00 00 00 00 00 00\n",
        "0030   00 10 92 00 01 00 00 00 07 00 00 00 01 10 00 00\n",
        "0040   00 02 6b 02 76 00\n",
    );
    const TSHARK_MULTI: &str = concat!(
        "Frame (71 bytes):\n",
        "0000  40 41 42 43 44 45 46 47 48 49 4a 4b 4c 4d 4e 4f   @ABCDEFGHIJKLMNO\n",
        "0010  50 51 52 53 54 55 56 57 58 59 5a 5b 5c 5d 5e 5f   PQRSTUVWXYZ[\\]^_\n",
        "0020  60 61 62 63 64 65 66 67 68 69 6a 6b 6c 6d 6e 6f   `abcdefghijklmno\n",
        "0030  70 71 72 73 74 75 61 62 20 63 64 20 65 66 20 30   pqrstuab cd ef 0\n",
        "0040  31 20 32 33 20 34 35                              1 23 45\n",
        "\n",
        "Reassembled TCP (70 bytes):\n",
        "0000  00 00 00 00 00 00 00 00 00 00 00 3a ff ff ff ff   ...........:....\n",
        "0010  02 8c 4a 54 5e 00 00 00 00 00 00 00 00 01 8b cf   ..JT^...........\n",
        "0020  e5 68 00 00 00 01 8b cf e5 68 00 00 00 00 00 00   .h.......h......\n",
        "0030  00 10 92 00 01 00 00 00 07 00 00 00 01 10 00 00   ................\n",
        "0040  00 02 6b 02 76 00                                 ..k.v.\n",
    );
    const C_STRING: &str = "\"\\000\\000\\000\\000\\000\\000\\000\\000\\000\\000\\000:\\377\\377\\377\\377\\002\\214JT^\\000\\000\\000\\000\\000\\000\\000\\000\\001\\213\\317\\345h\\000\\000\\000\\001\\213\\317\\345h\\000\\000\\000\\000\\000\\000\\000\\020\\222\\000\\001\\000\\000\\000\\a\\000\\000\\000\\001\\020\\000\\000\\000\\002k\\002v\\000\"\n";
    const WS_C_ARRAY: &str = "unsigned char bytes[] = {0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x3a, 0xff, 0xff, 0xff, 0xff, 0x2, 0x8c, 0x4a, 0x54, 0x5e, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x1, 0x8b, 0xcf, 0xe5, 0x68, 0x0, 0x0, 0x0, 0x1, 0x8b, 0xcf, 0xe5, 0x68, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x10, 0x92, 0x0, 0x1, 0x0, 0x0, 0x0, 0x7, 0x0, 0x0, 0x0, 0x1, 0x10, 0x0, 0x0, 0x0, 0x2, 0x6b, 0x2, 0x76, 0x0};\n";
    const GO: &str = "[]byte{0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x3a, 0xff, 0xff, 0xff, 0xff, 0x2, 0x8c, 0x4a, 0x54, 0x5e, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x1, 0x8b, 0xcf, 0xe5, 0x68, 0x0, 0x0, 0x0, 0x1, 0x8b, 0xcf, 0xe5, 0x68, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x10, 0x92, 0x0, 0x1, 0x0, 0x0, 0x0, 0x7, 0x0, 0x0, 0x0, 0x1, 0x10, 0x0, 0x0, 0x0, 0x2, 0x6b, 0x2, 0x76, 0x0}\n";
    const PY_REPR: &str = "b'\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x00:\\xff\\xff\\xff\\xff\\x02\\x8cJT^\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x01\\x8b\\xcf\\xe5h\\x00\\x00\\x00\\x01\\x8b\\xcf\\xe5h\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x10\\x92\\x00\\x01\\x00\\x00\\x00\\x07\\x00\\x00\\x00\\x01\\x10\\x00\\x00\\x00\\x02k\\x02v\\x00'\n";
    const PY_LIST: &str = "[0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 58, 255, 255, 255, 255, 2, 140, 74, 84, 94, 0, 0, 0, 0, 0, 0, 0, 0, 1, 139, 207, 229, 104, 0, 0, 0, 1, 139, 207, 229, 104, 0, 0, 0, 0, 0, 0, 0, 16, 146, 0, 1, 0, 0, 0, 7, 0, 0, 0, 1, 16, 0, 0, 0, 2, 107, 2, 118, 0]\n";
    const JAVA: &str = "byte[] batch = new byte[] {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 58, (byte) 0xff, (byte) 0xff, (byte) 0xff, (byte) 0xff, 2, (byte) 0x8c, 74, 84, 94, 0, 0, 0, 0, 0, 0, 0, 0, 1, (byte) 0x8b, (byte) 0xcf, (byte) 0xe5, 104, 0, 0, 0, 1, (byte) 0x8b, (byte) 0xcf, (byte) 0xe5, 104, 0, 0, 0, 0, 0, 0, 0, 16, (byte) 0x92, 0, 1, 0, 0, 0, 7, 0, 0, 0, 1, 16, 0, 0, 0, 2, 107, 2, 118, 0};\n";
    const JAVA_SIGNED: &str = "new byte[]{0,0,0,0,0,0,0,0,0,0,0,58,-1,-1,-1,-1,2,-116,74,84,94,0,0,0,0,0,0,0,0,1,-117,-49,-27,104,0,0,0,1,-117,-49,-27,104,0,0,0,0,0,0,0,16,-110,0,1,0,0,0,7,0,0,0,1,16,0,0,0,2,107,2,118,0}";
    const RUST_ARR: &str = concat!(
        "const BATCH: [u8; 70] = [\n",
        "    0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,\n",
        "    0x00, 0x00, 0x00, 0x3a, 0xff, 0xff, 0xff, 0xff,\n",
        "    0x02, 0x8c, 0x4a, 0x54, 0x5e, 0x00, 0x00, 0x00,\n",
        "    0x00, 0x00, 0x00, 0x00, 0x00, 0x01, 0x8b, 0xcf,\n",
        "    0xe5, 0x68, 0x00, 0x00, 0x00, 0x01, 0x8b, 0xcf,\n",
        "    0xe5, 0x68, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,\n",
        "    0x00, 0x10, 0x92, 0x00, 0x01, 0x00, 0x00, 0x00,\n",
        "    0x07, 0x00, 0x00, 0x00, 0x01, 0x10, 0x00, 0x00,\n",
        "    0x00, 0x02, 0x6b, 0x02, 0x76, 0x00,\n",
        "];\n",
    );
    const RUST_BSTR: &str = concat!(
        "let batch: &[u8] = b\"\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x3a\\xff\\xff\\xff\\xff\\x02\\x8c\\x4a\\x54\\x5e\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x01\\x8b\\xcf\\xe5\\x68\\x00\\\n",
        "    \\x00\\x00\\x01\\x8b\\xcf\\xe5\\x68\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x10\\x92\\x00\\x01\\x00\\x00\\x00\\x07\\x00\\x00\\x00\\x01\\x10\\x00\\x00\\x00\\x02\\x6b\\x02\\x76\\x00\";\n",
    );
    const KOTLIN: &str = "val batch = byteArrayOf(0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x3a, -1, -1, -1, -1, 0x02, -116, 0x4a, 0x54, 0x5e, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01, -117, -49, -27, 0x68, 0x00, 0x00, 0x00, 0x01, -117, -49, -27, 0x68, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x10, -110, 0x00, 0x01, 0x00, 0x00, 0x00, 0x07, 0x00, 0x00, 0x00, 0x01, 0x10, 0x00, 0x00, 0x00, 0x02, 0x6b, 0x02, 0x76, 0x00)\n";
    const JS: &str = "const batch = new Uint8Array([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 58, 255, 255, 255, 255, 2, 140, 74, 84, 94, 0, 0, 0, 0, 0, 0, 0, 0, 1, 139, 207, 229, 104, 0, 0, 0, 1, 139, 207, 229, 104, 0, 0, 0, 0, 0, 0, 0, 16, 146, 0, 1, 0, 0, 0, 7, 0, 0, 0, 1, 16, 0, 0, 0, 2, 107, 2, 118, 0]);\n";

    // ---- fixtures for the other samples ------------------------------------------

    /// asc.bin = b"0123456789abcdef 00 11 2233 4455": ASCII column that looks like hex.
    const ASC: &[u8] = b"0123456789abcdef 00 11 2233 4455";

    /// rep.bin = first 16 batch bytes, 64 zero bytes, b"ab cd ef 12 34 k".
    fn rep() -> Vec<u8> {
        let mut v = batch()[..16].to_vec();
        v.extend_from_slice(&[0u8; 64]);
        v.extend_from_slice(b"ab cd ef 12 34 k");
        v
    }

    // ---- one test per format ------------------------------------------------------

    #[test]
    fn plain_hex_variants() {
        let spaced = ok(&(BATCH_HEX.to_string() + "\n"));
        assert_eq!(spaced.format, Format::Hex);
        assert_eq!(spaced.bytes, batch());
        assert_eq!(notes(&spaced), ["whitespace"]);

        let continuous: String = BATCH_HEX.split(' ').collect();
        assert_eq!(notes(&check(&continuous, Format::Hex)), Vec::<&str>::new());
        check(&continuous.to_uppercase(), Format::Hex);
        check(&format!("  \t{}\r\n\r\n", continuous), Format::Hex);

        let one_prefix = format!("0x{}", continuous);
        assert_eq!(notes(&check(&one_prefix, Format::Hex)), ["0x prefixes"]);

        let per_byte: Vec<String> = BATCH_HEX.split(' ').map(|h| format!("0x{}", h)).collect();
        let d = check(&per_byte.join(", "), Format::Hex);
        assert_eq!(notes(&d), ["0x prefixes", "whitespace", "commas"]);
        check(&per_byte.join(","), Format::Hex);
        check(&per_byte.join(" "), Format::Hex);

        let colons = BATCH_HEX.replace(' ', ":");
        assert_eq!(notes(&check(&colons, Format::Hex)), ["colons"]);
        assert_eq!(notes(&check(&BATCH_HEX.replace(' ', "-"), Format::Hex)), ["dashes"]);
        check(&BATCH_HEX.replace(' ', ", "), Format::Hex);
        check(&BATCH_HEX.replace(' ', "\t"), Format::Hex);

        // grouped in 4-digit words (xxd-like without offsets), 16 bytes per line
        let grouped: Vec<String> = continuous
            .as_bytes()
            .chunks(32)
            .map(|line| line.chunks(4).map(|g| core::str::from_utf8(g).unwrap()).collect::<Vec<_>>().join(" "))
            .collect();
        check(&grouped.join("\n"), Format::Hex);

        // xxd -p: 60 digits per line; and continuous hex hard-wrapped at an odd column
        assert_eq!(notes(&check(XXD_P, Format::Hex)), ["line breaks"]);
        let odd_wrapped: Vec<&str> =
            continuous.as_bytes().chunks(75).map(|c| core::str::from_utf8(c).unwrap()).collect();
        check(&odd_wrapped.join("\n"), Format::Hex);

        // quoted (JSON / shell) and Node.js Buffer inspection
        assert_eq!(notes(&check(&format!("\"{}\"", continuous), Format::Hex)), ["quotes"]);
        let node = format!("<Buffer {}>", BATCH_HEX);
        assert_eq!(notes(&check(&node, Format::Hex)), ["Node.js Buffer wrapper", "whitespace"]);
        let e = err("<Buffer 00 00 00 00 ... 20 more bytes>");
        assert!(e.message.contains("truncated"), "{}", e.message);

        // \x escapes only (no printable characters) are hex with \x prefixes
        let bx: String = batch().iter().map(|b| format!("\\x{:02x}", b)).collect();
        assert_eq!(notes(&check(&bx, Format::Hex)), ["\\x prefixes"]);
    }

    #[test]
    fn xxd() {
        let d = check(XXD, Format::Xxd);
        assert_eq!(notes(&d), ["offset column", "ASCII column"]);
        check(XXD_G1, Format::Xxd);
        // indented paste (e.g. from a markdown code block) and CRLF line endings
        let indented: String = XXD.lines().map(|l| format!("    {}\r\n", l)).collect();
        check(&indented, Format::Xxd);
        // a shell prompt and command around the dump
        let d = check(&format!("$ xxd batch.bin\n{}$ \n", XXD), Format::Xxd);
        assert_eq!(notes(&d), ["surrounding text", "offset column", "ASCII column"]);
        // hex-only (ASCII column removed)
        let hex_only: String = XXD.lines().map(|l| format!("{}\n", &l[..49])).collect();
        assert_eq!(notes(&check(&hex_only, Format::Xxd)), ["offset column"]);
    }

    #[test]
    fn xxd_options() {
        // xxd -u: upper-case hex, ASCII column unchanged
        let upper: String = XXD.lines().map(|l| format!("{}{}\n", l[..49].to_uppercase(), &l[49..])).collect();
        check(&upper, Format::Xxd);
        let g4 = concat!(
            "00000000: 00000000 00000000 0000003a ffffffff  ...........:....\n",
            "00000010: 028c4a54 5e000000 00000000 00018bcf  ..JT^...........\n",
        );
        assert_eq!(ok(g4).bytes, batch()[..32].to_vec());
        let c32 = concat!(
            "00000000: 0000 0000 0000 0000 0000 003a ffff ffff 028c 4a54 5e00 0000 0000 0000 0001 8bcf  ...........:......JT^...........\n",
            "00000020: e568 0000 0001 8bcf e568 0000 0000 0000 0010 9200 0100 0000 0700 0000 0110 0000  .h.......h......................\n",
            "00000040: 0002 6b02 7600                                                                   ..k.v.\n",
        );
        check(c32, Format::Xxd);
        // xxd -s 20: a dump that starts mid-file
        let seek = concat!(
            "00000014: 5e00 0000 0000 0000 0001 8bcf e568 0000  ^............h..\n",
            "00000024: 0001 8bcf e568 0000 0000 0000 0010 9200  .....h..........\n",
        );
        assert_eq!(ok(seek).bytes, batch()[20..52].to_vec());
        // xxd -e (little-endian words) looks like -g4 but is byte-swapped: the ASCII
        // column gives it away
        let swapped = concat!(
            "00000000: 00000000 00000000 3a000000 ffffffff  ...........:....\n",
            "00000010: 544a8c02 0000005e 00000000 cf8b0100  ..JT^...........\n",
        );
        let e = err(swapped);
        assert!(e.message.contains("byte-swapped"), "{}", e.message);
        assert_eq!((e.line, e.at), (1, 55));
    }

    #[test]
    fn xxd_ascii_column_that_looks_like_hex() {
        let d = ok(XXD_ASC);
        assert_eq!((d.format, d.bytes.as_slice()), (Format::Xxd, ASC));
        // the last, short line: its ASCII column "ab cd ef 12" must not be read as bytes
        let tail = concat!(
            "00000000: 3031 3233 3435 3637 3839 6162 6364 6566  0123456789abcdef\n",
            "00000010: 6162 2063 6420 6566 2031 32              ab cd ef 12\n",
        );
        let d = ok(tail);
        assert_eq!(d.bytes, b"0123456789abcdefab cd ef 12");
        // a single-line dump: the double space ends the hex area
        let d = ok("00000000: 6162 2063 6420  ab cd \n");
        assert_eq!(d.bytes, b"ab cd ");
        // whitespace collapsed to single spaces: the next offset still bounds the line
        let collapsed = concat!(
            "00000000: 3031 3233 3435 3637 3839 6162 6364 6566 0123456789abcdef\n",
            "00000010: 2030 3020 3131 2032 3233 3320 3434 3535  00 11 2233 4455\n",
        );
        assert_eq!(ok(collapsed).bytes, ASC);
    }

    #[test]
    fn hexdump_c() {
        let d = check(HEXDUMP, Format::HexdumpC);
        assert_eq!(notes(&d), ["offset column", "ASCII column", "final offset line"]);
        let d = ok(HEXDUMP_ASC);
        assert_eq!((d.format, d.bytes.as_slice()), (Format::HexdumpC, ASC));
        // without the final offset line, the last line is bounded by the column layout
        let no_final: String = HEXDUMP.lines().take(5).map(|l| format!("{}\n", l)).collect();
        check(&no_final, Format::HexdumpC);
        // wrong final offset (a line went missing) is an error
        let e = err(&HEXDUMP.replace("00000046", "00000056"));
        assert!(e.message.contains("final offset"), "{}", e.message);
        assert_eq!(e.line, 6);
    }

    #[test]
    fn hexdump_repeat_lines() {
        let d = ok(HEXDUMP_REP);
        assert_eq!(d.format, Format::HexdumpC);
        assert_eq!(d.bytes, rep());
        assert_eq!(notes(&d), ["offset column", "ASCII column", "'*' repeat lines (expanded)", "final offset line"]);
        // od shares the format and the '*' convention
        let d = ok(OD_REP);
        assert_eq!(d.bytes, rep());
        // xxd never abbreviates
        assert_eq!(ok(XXD_REP).bytes, rep());
        // a '*' right before the final offset
        let zeros = "00000000  00 00 00 00 00 00 00 00  00 00 00 00 00 00 00 00  |................|\n*\n00000040\n";
        assert_eq!(ok(zeros).bytes, vec![0u8; 64]);
    }

    #[test]
    fn hexdump_repeat_is_capped() {
        let line = "00000000  00 00 00 00 00 00 00 00  00 00 00 00 00 00 00 00  |................|\n";
        // exactly 64 MiB is fine
        let fine = format!("{}*\n04000000\n", line);
        assert_eq!(ok(&fine).bytes.len(), MAX_REPEAT_EXPANSION);
        // a forged huge offset is an error, not an allocation
        for off in ["04000010", "ffffffffffff0000", "7ffffff0"] {
            let e = err(&format!("{}*\n{}\n", line, off));
            assert!(e.message.contains("64 MiB"), "{}", e.message);
            assert_eq!((e.line, e.at), (2, line.len()));
        }
        // the budget is for the whole input, not per block
        let two = format!("{}*\n03000000\n{}*\n03000000\n", line, line);
        assert!(err(&two).message.contains("64 MiB"));
        // not a whole number of lines
        assert!(err(&format!("{}*\n00000038\n", line)).message.contains("whole number"));
        // '*' with no offset after it
        assert!(err(&format!("{}*\n", line)).message.contains("followed by an offset"));
    }

    #[test]
    fn od() {
        let d = check(OD_X1Z, Format::HexdumpC);
        assert_eq!(notes(&d), ["offset column", "ASCII column", "final offset line"]);
        // default od: octal offsets (0000020 = 16)
        let d = check(OD_X1, Format::HexdumpC);
        assert_eq!(notes(&d), ["offset column", "final offset line"]);
        // od -A d: decimal offsets
        let dec = concat!(
            "0000000 00 00 00 00 00 00 00 00 00 00 00 3a ff ff ff ff\n",
            "0000016 02 8c 4a 54 5e 00 00 00 00 00 00 00 00 01 8b cf\n",
            "0000032\n",
        );
        assert_eq!(ok(dec).bytes, batch()[..32].to_vec());
        // 16-bit word dumps are byte-swapped: refuse rather than decode garbage
        let e = err(HEXDUMP_WORDS);
        assert!(e.message.contains("hexdump -C"), "{}", e.message);
        assert_eq!((e.at, e.line), (0, 1));
    }

    #[test]
    fn wireshark_and_tshark() {
        let d = check(TSHARK, Format::Wireshark);
        assert_eq!(notes(&d), ["offset column", "ASCII column"]);
        check(TSHARK_DELIM, Format::Wireshark);
        check(WS_GUI, Format::Wireshark);
        assert_eq!(notes(&check(WS_GUI_HEX, Format::Wireshark)), ["offset column"]);
        // older layout with an extra space after the 8th byte
        let mid = "0000  00 00 00 00 00 00 00 00  00 00 00 3a ff ff ff ff   ........ ...:....\n";
        assert_eq!(ok(mid).bytes, batch()[..16].to_vec());
        // tshark -x with a summary line (UTF-8 arrow) before the dump
        let with_summary = format!(
            "    1 0.000000 10.0.0.1 \u{2192} 10.0.0.2 Kafka 124 Produce v9 Request\n\n{}",
            TSHARK
        );
        let d = check(&with_summary, Format::Wireshark);
        assert_eq!(notes(&d), ["surrounding text", "offset column", "ASCII column"]);
    }

    #[test]
    fn wireshark_ascii_column_that_looks_like_hex() {
        // 16 bytes of "ab cd ef 01 23 45" style text, then a short line of it
        let dump = concat!(
            "0000  61 62 20 63 64 20 65 66 20 30 31 20 32 33 20 34   ab cd ef 01 23 4\n",
            "0010  35 20 61 62                                       5 ab\n",
        );
        assert_eq!(ok(dump).bytes, b"ab cd ef 01 23 45 ab");
        // an oddly indented last line still yields its bytes
        let shifted = concat!(
            "0000  61 62 20 63 64 20 65 66 20 30 31 20 32 33 20 34   ab cd ef 01 23 4\n",
            "        0010  35 20 61 62                                       5 ab\n",
        );
        assert_eq!(ok(shifted).bytes, b"ab cd ef 01 23 45 ab");
        let one = "0000  61 62 20 63 64                                    ab cd\n";
        assert_eq!(ok(one).bytes, b"ab cd");
        // the frame block of the multi-block sample has such a last line
        let frame: String = TSHARK_MULTI.lines().take(6).map(|l| format!("{}\n", l)).collect();
        let d = ok(&frame);
        assert_eq!(d.bytes.len(), 71);
        assert_eq!(&d.bytes[54..], b"ab cd ef 01 23 45");
    }

    #[test]
    fn tshark_multiple_blocks_takes_last() {
        let d = check(TSHARK_MULTI, Format::Wireshark);
        assert_eq!(notes(&d), ["earlier dump blocks", "frame header lines", "offset column", "ASCII column"]);
        // packets separated only by blank lines (offsets restart at 0000)
        let two = format!("{}\n{}", TSHARK_MULTI.lines().skip(1).take(5).map(|l| format!("{}\n", l)).collect::<String>(), TSHARK);
        assert_eq!(notes(&check(&two, Format::Wireshark)), ["earlier dump blocks", "offset column", "ASCII column"]);
        // a header whose byte count disagrees with its block (truncated paste)
        let e = err(&TSHARK_MULTI.replace("(70 bytes)", "(1234 bytes)"));
        assert!(e.message.contains("1234"), "{}", e.message);
        assert_eq!(e.line, 8);
    }

    #[test]
    fn base64() {
        let d = check(B64, Format::Base64);
        assert_eq!(notes(&d), ["line breaks"]);
        let one_line: String = B64.split_whitespace().collect();
        check(&one_line, Format::Base64);
        // URL-safe alphabet without padding
        let url = one_line.replace('+', "-").replace('/', "_").replace('=', "");
        check(&url, Format::Base64);
        // data: URL
        let d = check(&format!("data:application/octet-stream;base64,{}", one_line), Format::Base64);
        assert_eq!(notes(&d), ["data: URL prefix"]);
        // wrapped at 64 columns with indentation
        let wrapped: String =
            one_line.as_bytes().chunks(64).map(|c| format!("  {}\n", core::str::from_utf8(c).unwrap())).collect();
        assert_eq!(notes(&check(&wrapped, Format::Base64)), ["whitespace", "line breaks"]);
        // errors
        let e = err(&format!("{}!", &one_line[..20]));
        assert!(e.message.starts_with("invalid base64 character '!'"), "{}", e.message);
        assert!(err("AAAAAAAAAAAA/////w=").message.contains("padding"));
        assert!(err("data:text/plain,hello").message.contains("base64"));
    }

    #[test]
    fn hex_beats_base64_when_ambiguous() {
        // "AAAA" is valid base64 but only hex digits: hex
        assert_eq!(ok("AAAA").bytes, vec![0xaa, 0xaa]);
        assert_eq!(ok("deadbeef").format, Format::Hex);
        // a typo in hex is reported as such, not decoded as base64
        let e = err("0000003aff0fgfff");
        assert_eq!(e.message, "invalid hex digit 'g' at line 1, column 13");
        assert_eq!(e.at, 12);
    }

    #[test]
    fn byte_array_literals() {
        // xxd -i (with its trailing length declaration)
        let d = check(XXD_I, Format::ByteArray);
        assert_eq!(notes(&d), ["C array braces and casts", "surrounding code"]);
        // Wireshark "Copy as C Array" / "Go literal" (single-digit 0x0)
        check(WS_C_ARRAY, Format::ByteArray);
        check(GO, Format::ByteArray);
        // Java with casts, Java signed bytes, Kotlin, JS, Rust, Python list
        check(JAVA, Format::ByteArray);
        check(JAVA_SIGNED, Format::ByteArray);
        let d = check(KOTLIN, Format::ByteArray);
        assert_eq!(notes(&d), ["parentheses", "surrounding code"]);
        check(JS, Format::ByteArray);
        let d = check(RUST_ARR, Format::ByteArray);
        assert_eq!(notes(&d), ["array brackets", "surrounding code"]);
        let d = check(PY_LIST, Format::ByteArray);
        assert_eq!(notes(&d), ["array brackets"]);
        // the spec's mixed example
        let d = ok("{0x00, 0x3a, (byte)0xff, -1, 58}");
        assert_eq!(d.bytes, vec![0x00, 0x3a, 0xff, 0xff, 58]);
        let d = ok("unsigned char buf[] = {\n  0x00, 0x3a, // header\n  0xFF, /* crc */ 255u, 'k', '\\x76',\n};");
        assert_eq!(d.bytes, vec![0x00, 0x3a, 0xff, 0xff, b'k', b'v']);
        assert_eq!(notes(&d), ["C array braces and casts", "type suffixes", "comments", "surrounding code"]);
        let d = ok("let b: &[u8] = &[0u8, 0x3a_u8, 255 as u8, b'k'];");
        assert_eq!(d.bytes, vec![0, 0x3a, 255, b'k']);
        assert_eq!(ok("[]").bytes, Vec::<u8>::new());
        // errors
        let e = err("{0x00, 256}");
        assert_eq!(e.message, "value 256 is out of byte range (-128..=255) at line 1, column 8");
        assert!(err("{0x00, -129}").message.contains("out of byte range"));
        assert!(err("{0x00,, 0x01}").message.contains("empty element"));
        assert!(err("{0x00 0x01}").message.contains("expected ','"));
        assert!(err("{0x00, 0x01").message.contains("unclosed '{'"));
        assert!(err("{010}").message.contains("ambiguous"));
        assert_eq!(ok("{00, 07, 08, 09, 0}").bytes, vec![0, 7, 8, 9, 0]);
    }

    #[test]
    fn string_literals() {
        let d = check(PY_REPR, Format::ByteArray);
        assert_eq!(notes(&d), ["string quotes and escapes"]);
        let d = check(RUST_BSTR, Format::ByteArray);
        assert_eq!(notes(&d), ["surrounding code", "string quotes and escapes"]);
        // Wireshark "Copy as C String" (octal escapes, \a)
        check(C_STRING, Format::ByteArray);
        // implicit concatenation across lines, bytearray(...) wrapper
        let d = ok("x = bytearray(b'\\x00\\x00:'\n              b\"\\xff'k\")");
        assert_eq!(d.bytes, b"\x00\x00:\xff'k");
        // unquoted string contents: ':' and 'k' are bytes here, not separators
        let d = ok("\\x00\\x00:\\xffJT^k");
        assert_eq!((d.format, d.bytes.as_slice()), (Format::ByteArray, &b"\x00\x00:\xffJT^k"[..]));
        assert!(err("b'\\x0'").message.contains("two hex digits"));
        assert!(err("b'\\x00").message.contains("unterminated"));
        assert!(err("b'''\\x00'''").message.contains("triple"));
    }

    #[test]
    fn errors_point_at_the_text() {
        let text = "00 00 00 00\n00 00 00 3a\nff ff g0 ff\n";
        let e = err(text);
        assert_eq!(e.message, "invalid hex digit 'g' at line 3, column 7");
        assert_eq!((e.at, e.line), (30, 3));
        assert_eq!(text.as_bytes()[e.at], b'g');

        let continuous: String = BATCH_HEX.split(' ').collect();
        let odd = &continuous[..continuous.len() - 1];
        let e = err(odd);
        assert_eq!(e.message, "odd number of hex digits (139) at line 1, column 139");
        assert_eq!((e.at, e.line), (138, 1));
        // in a spaced list the odd group is named
        let e = err("00 3a f ff");
        assert_eq!(e.message, "odd number of hex digits (1) at line 1, column 7");

        // a bad digit inside a dump, and a missing dump line
        let bad = XXD.replace("028c 4a54", "028c 4x54");
        let e = err(&bad);
        assert_eq!(e.message, "invalid hex digit 'x' at line 2, column 17");
        assert_eq!(bad.as_bytes()[e.at], b'x');
        let missing: String = XXD.lines().enumerate().filter(|(i, _)| *i != 2).map(|(_, l)| format!("{}\n", l)).collect();
        let e = err(&missing);
        assert!(e.message.starts_with("offset 30 does not follow the previous line (expected 20)"), "{}", e.message);
        assert_eq!(e.line, 3);

        // positions are byte offsets even after non-ASCII characters
        let e = err("00\u{a0}3a\u{a0}zz");
        assert_eq!(e.at, 8);
        assert!(e.message.ends_with("line 1, column 7"), "{}", e.message);

        for empty in ["", " ", "\n\n", " \t\r\n", "\u{feff}", "\u{a0}\n"] {
            let e = err(empty);
            assert_eq!((e.message.as_str(), e.at, e.line), ("empty input", 0, 1));
        }
    }

    #[test]
    fn unicode_whitespace_is_whitespace() {
        let nbsp = BATCH_HEX.replace(' ', "\u{a0}");
        let d = check(&format!("\u{feff}{}", nbsp), Format::Hex);
        assert_eq!(notes(&d), ["whitespace", "byte order mark", "non-ASCII spaces"]);
    }

    #[test]
    fn binary_is_passed_through() {
        let d = detect(&batch()).unwrap();
        assert_eq!((d.format, d.bytes, d.stripped), (Format::Binary, batch(), Vec::new()));
        // invalid UTF-8 / control characters
        assert_eq!(detect(&[0x30, 0x30, 0xff]).unwrap().format, Format::Binary);
        assert_eq!(detect(b"00 3a\x01").unwrap().format, Format::Binary);
        assert_eq!(detect(b"\x00").unwrap().format, Format::Binary);
    }

    // ---- robustness ------------------------------------------------------------------

    use crate::model::schedule::XorShift;

    fn samples() -> Vec<String> {
        let mut v: Vec<String> = [
            XXD, XXD_G1, XXD_P, XXD_I, XXD_ASC, XXD_REP, HEXDUMP, HEXDUMP_ASC, HEXDUMP_REP, OD_X1Z, OD_X1, OD_REP,
            HEXDUMP_WORDS, B64, TSHARK, TSHARK_DELIM, WS_GUI, WS_GUI_HEX, TSHARK_MULTI, C_STRING, WS_C_ARRAY, GO,
            PY_REPR, PY_LIST, JAVA, JAVA_SIGNED, RUST_ARR, RUST_BSTR, KOTLIN, JS,
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        v.push(BATCH_HEX.to_string());
        v.push(format!("data:;base64,{}", B64));
        v.push("\u{feff}00\u{a0}3a \u{2192} 'x' \"y\" {[(".to_string());
        v.push("{0x00, (byte)-1, 'k', b'\\x00', 0b101, 0o7, 1_0u8, 0xffu8.toByte()} /* c */ // d".to_string());
        v
    }

    #[test]
    fn never_panics_on_truncations() {
        for s in samples() {
            let b = s.as_bytes();
            for i in 0..=b.len() {
                let _ = detect(&b[..i]);
                let _ = detect(&b[i..]);
            }
        }
    }

    #[test]
    fn never_panics_on_garbage() {
        let mut rng = XorShift(0x9E37_79B9_7F4A_7C15);
        let alphabet: &[u8] = b"0123456789abcdefABCDEFxX:|*-,;'\"\\{}[]()<>/=+_ \t\n\r.#bu";
        let samples = samples();
        for round in 0..6000 {
            let len = rng.below(200);
            let bytes: Vec<u8> = match round % 3 {
                // arbitrary bytes
                0 => (0..len).map(|_| rng.next() as u8).collect(),
                // dump-ish characters
                1 => (0..len).map(|_| alphabet[rng.below(alphabet.len())]).collect(),
                // mutated real samples
                _ => {
                    let mut v = samples[rng.below(samples.len())].as_bytes().to_vec();
                    for _ in 0..1 + rng.below(4) {
                        let i = rng.below(v.len() + 1);
                        match rng.below(3) {
                            0 if i < v.len() => {
                                v.remove(i);
                            }
                            1 if i < v.len() => v[i] = alphabet[rng.below(alphabet.len())],
                            _ => v.insert(i, alphabet[rng.below(alphabet.len())]),
                        }
                    }
                    v
                }
            };
            if let Err(e) = detect(&bytes) {
                assert!(e.at <= bytes.len() && e.line >= 1, "{:?} for {:?}", e, bytes);
            }
        }
    }

    #[test]
    fn large_inputs_stay_linear() {
        // Each of these would take minutes if any path were quadratic.
        let n = 1 << 20;
        let big_hex: String = "0a".repeat(n);
        assert_eq!(ok(&big_hex).bytes.len(), n);
        let mut dump = String::new();
        for i in 0..(n / 16) {
            dump.push_str(&format!("{:08x}  00 01 02 03 04 05 06 07  08 09 0a 0b 0c 0d 0e 0f  |................|\n", i * 16));
        }
        assert_eq!(ok(&dump).bytes.len(), n);
        let _ = detect("*\n".repeat(n).as_bytes());
        let _ = detect(format!("00000000  00\n{}", "*\n".repeat(n)).as_bytes());
        let _ = detect("(".repeat(n).as_bytes());
        let _ = detect("0x".repeat(n).as_bytes());
        let _ = detect("\n".repeat(n).as_bytes());
        let _ = detect(format!("{}\n", "0000  00 ".repeat(n / 8)).as_bytes());
        let _ = detect(format!("0000  00\n{}", "\n".repeat(n)).as_bytes());
        let _ = detect(format!("b'{}'", "\\x00".repeat(n / 4)).as_bytes());
        let _ = detect(format!("{{{}}}", "0,".repeat(n / 2)).as_bytes());
        let _ = detect("/*".repeat(n).as_bytes());
        let _ = detect("'a".repeat(n).as_bytes());
        let _ = detect("A".repeat(n + 1).as_bytes());
        let _ = detect(format!("<Buffer {}>", "0".repeat(n)).as_bytes());
        let _ = detect("Frame (1 byte):\n".repeat(n / 16).as_bytes());
    }

}
