//! Base64 (standard and URL-safe alphabets) and `data:` URLs.

#[allow(unused_imports)]
use super::*;

// Base64.

pub(crate) fn b64val(c: u8) -> Option<u32> {
    Some(match c {
        b'A'..=b'Z' => (c - b'A') as u32,
        b'a'..=b'z' => (c - b'a') as u32 + 26,
        b'0'..=b'9' => (c - b'0') as u32 + 52,
        b'+' | b'-' => 62,
        b'/' | b'_' => 63,
        _ => return None,
    })
}

pub(crate) fn parse_base64(t: &[u8], s: usize, e: usize, notes: &mut Notes) -> PResult<Vec<u8>> {
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

pub(crate) fn parse_data_url(t: &[u8], s: usize, e: usize, notes: &mut Notes) -> PResult<(Format, Vec<u8>)> {
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
