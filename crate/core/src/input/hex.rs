//! Plain hex (separators, `0x` prefixes and `\xHH` escapes stripped).

#[allow(unused_imports)]
use super::*;

// Plain hex.

pub(crate) fn parse_hex(t: &[u8], s: usize, e: usize, notes: &mut Notes) -> PResult<Vec<u8>> {
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
pub(crate) fn only_backslash_x(t: &[u8], s: usize, e: usize) -> bool {
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
