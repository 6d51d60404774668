//! Byte helpers, text vs binary with the normalization of non-ASCII whitespace, and the
//! top-level classification of text into one of the formats.

#[allow(unused_imports)]
use super::*;

// Byte helpers. `at` returns 0 past the end; 0 never occurs in text input.

#[inline]
pub(crate) fn at(t: &[u8], i: usize) -> u8 {
    match t.get(i) {
        Some(&b) => b,
        None => 0,
    }
}
#[inline]
pub(crate) fn is_ws(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | b'\r' | 0x0b | 0x0c)
}
#[inline]
pub(crate) fn is_hs(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\r' | 0x0b | 0x0c)
}
#[inline]
pub(crate) fn is_hex(b: u8) -> bool {
    b.is_ascii_hexdigit()
}
#[inline]
pub(crate) fn hexval(b: u8) -> u8 {
    match b {
        b'0'..=b'9' => b - b'0',
        b'a'..=b'f' => b - b'a' + 10,
        b'A'..=b'F' => b - b'A' + 10,
        _ => 0,
    }
}
#[inline]
pub(crate) fn is_ident(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_'
}
#[inline]
pub(crate) fn is_ident_start(b: u8) -> bool {
    b.is_ascii_alphabetic() || b == b'_'
}

pub(crate) fn char_at(t: &[u8], p: usize) -> char {
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

pub(crate) fn starts_with_ci(t: &[u8], p: usize, e: usize, pat: &[u8]) -> bool {
    match t.get(p..p.saturating_add(pat.len())) {
        Some(s) if p.saturating_add(pat.len()) <= e => s.eq_ignore_ascii_case(pat),
        _ => false,
    }
}

pub(crate) fn line_end(t: &[u8], p: usize) -> usize {
    let mut i = p;
    while i < t.len() && t[i] != b'\n' {
        i += 1;
    }
    i
}

pub(crate) fn trim_end(t: &[u8], ls: usize, mut le: usize) -> usize {
    while le > ls && is_ws(at(t, le - 1)) {
        le -= 1;
    }
    le
}

pub(crate) fn skip_hs(t: &[u8], mut p: usize, e: usize) -> usize {
    while p < e && is_hs(at(t, p)) {
        p += 1;
    }
    p
}

pub(crate) fn skip_ws(t: &[u8], mut p: usize, e: usize) -> usize {
    while p < e && is_ws(at(t, p)) {
        p += 1;
    }
    p
}

pub(crate) fn trim(t: &[u8], s: usize, e: usize) -> (usize, usize) {
    let s = skip_ws(t, s, e);
    let e = trim_end(t, s, e);
    (s, e)
}

// ---------------------------------------------------------------------------------------
// Text vs binary, and normalization of non-ASCII whitespace.

#[inline]
pub(crate) fn is_text_ascii(b: u8) -> bool {
    matches!(b, 0x20..=0x7e | b'\t' | b'\n' | b'\r' | 0x0b | 0x0c)
}

pub(crate) fn is_text(input: &[u8]) -> bool {
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

pub(crate) enum UClass {
    Zero,
    Space,
    Newline,
    Keep,
}

pub(crate) fn uclass(c: char) -> UClass {
    match c as u32 {
        0xFEFF | 0x200B | 0x200C | 0x200D | 0x2060 => UClass::Zero,
        0x00A0 | 0x1680 | 0x2000..=0x200A | 0x202F | 0x205F | 0x3000 => UClass::Space,
        0x2028 | 0x2029 => UClass::Newline,
        _ => UClass::Keep,
    }
}

pub(crate) fn needs_normalizing(input: &[u8]) -> bool {
    input
        .iter()
        .enumerate()
        .any(|(i, &b)| b >= 0x80 || (b == b'\r' && at(input, i + 1) != b'\n'))
}

/// Same text with non-ASCII spaces as ' ', zero-width characters removed and lone CR
/// as LF. Other characters are kept, so `norm_to_orig` can replay the mapping.
pub(crate) fn normalize(input: &[u8], notes: &mut Notes) -> Vec<u8> {
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

pub(crate) fn norm_to_orig(input: &[u8], p: usize) -> usize {
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

/// Forced hex: a dump if the text is laid out as one, plain hex otherwise.
pub(crate) fn detect_hex(t: &[u8], notes: &mut Notes) -> PResult<(Format, Vec<u8>)> {
    let (s, e) = trim(t, 0, t.len());
    if s >= e {
        return Err(PErr { pos: 0, msg: String::from("empty input"), bare: true });
    }
    if let Some(d) = detect_dump(t)? {
        return parse_dump(t, d, notes);
    }
    Ok((Format::Hex, parse_hex(t, s, e, notes)?))
}

/// Forced base64.
pub(crate) fn detect_base64(t: &[u8], notes: &mut Notes) -> PResult<(Format, Vec<u8>)> {
    let (s, e) = trim(t, 0, t.len());
    if s >= e {
        return Err(PErr { pos: 0, msg: String::from("empty input"), bare: true });
    }
    Ok((Format::Base64, parse_base64(t, s, e, notes)?))
}

pub(crate) fn detect_text(t: &[u8], notes: &mut Notes) -> PResult<(Format, Vec<u8>)> {
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
