//! Byte-array and string literals copied from C, Java, Go, Rust, Python, Kotlin or JavaScript.

#[allow(unused_imports)]
use super::*;

// Byte-array and string literals.

#[derive(Default)]
pub(crate) struct Structure {
    pub(crate) brace: Option<(usize, usize)>,
    pub(crate) bracket: Option<(usize, usize)>,
    pub(crate) paren: Option<(usize, usize)>,
    pub(crate) top_string: bool,
}

pub(crate) const MAX_NESTING: usize = 64;

/// Skip a comment starting at `p` (`//`, `/* */`, `#`), returning the position after it.
pub(crate) fn skip_comment(t: &[u8], p: usize, e: usize) -> PResult<Option<usize>> {
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
pub(crate) fn is_lifetime(t: &[u8], q: usize) -> bool {
    at(t, q) == b'\'' && is_ident_start(at(t, q + 1)) && at(t, q + 2) != b'\'' && !is_ident(at(t, q.wrapping_sub(1)))
}

pub(crate) fn skip_quoted(t: &[u8], q: usize, e: usize) -> PResult<usize> {
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

pub(crate) fn scan_structure(t: &[u8], s: usize, e: usize, notes: &mut Notes) -> PResult<Structure> {
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

pub(crate) fn parse_literal(t: &[u8], s: usize, e: usize, notes: &mut Notes) -> PResult<(Format, Vec<u8>)> {
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

pub(crate) fn skip_ws_comments(t: &[u8], mut p: usize, e: usize, notes: &mut Notes) -> PResult<usize> {
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

pub(crate) fn parse_elements(t: &[u8], bs: usize, be: usize, brace: bool, notes: &mut Notes) -> PResult<Vec<u8>> {
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

pub(crate) fn parse_element(
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

pub(crate) fn parse_number(t: &[u8], p: usize, be: usize) -> PResult<(u64, usize)> {
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
pub(crate) fn decode_escape(t: &[u8], p: usize, e: usize) -> PResult<(Option<u8>, usize)> {
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
pub(crate) fn literal_char(t: &[u8], p: usize, e: usize, escapes: bool, out: &mut Vec<u8>) -> PResult<usize> {
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
pub(crate) fn decode_quoted(t: &[u8], q: usize, e: usize, raw: bool, out: &mut Vec<u8>) -> PResult<usize> {
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
pub(crate) fn parse_strings(t: &[u8], s: usize, e: usize, notes: &mut Notes) -> PResult<Vec<u8>> {
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

pub(crate) fn string_literal(t: &[u8], q: usize, e: usize, raw: bool, out: &mut Vec<u8>) -> PResult<usize> {
    let end = decode_quoted(t, q, e, raw, out)?;
    if end == q + 2 && at(t, end) == at(t, q) && end < e {
        return Err(perr(q, "triple-quoted strings are not supported"));
    }
    Ok(end)
}

/// Unquoted escaped text such as `\x00\x00:\xff` (string contents without the quotes):
/// line breaks and the indentation after them are dropped, everything else is a byte.
pub(crate) fn decode_unquoted(t: &[u8], s: usize, e: usize, out: &mut Vec<u8>, notes: &mut Notes) -> PResult<()> {
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
