//! Hex dumps: xxd, hexdump -C / od, Wireshark / tshark.

#[allow(unused_imports)]
use super::*;

// Hex dumps: xxd, hexdump -C / od, Wireshark / tshark.

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Flavor {
    Xxd,
    HexdumpC,
    Od,
    Wireshark,
}

impl Flavor {
    pub(crate) fn format(self) -> Format {
        match self {
            Flavor::Xxd => Format::Xxd,
            Flavor::HexdumpC | Flavor::Od => Format::HexdumpC,
            Flavor::Wireshark => Format::Wireshark,
        }
    }
    /// Width of a blank gap that ends the hex area (ASCII column follows).
    pub(crate) fn gap(self) -> usize {
        match self {
            Flavor::Xxd | Flavor::Od => 2,
            Flavor::HexdumpC | Flavor::Wireshark => 3,
        }
    }
    pub(crate) fn default_cap(self) -> usize {
        match self {
            Flavor::HexdumpC | Flavor::Wireshark => 16,
            Flavor::Xxd | Flavor::Od => usize::MAX,
        }
    }
}

#[derive(Clone, Copy)]
pub(crate) struct Dump {
    pub(crate) fl: Flavor,
    pub(crate) radix: u32,
}

pub(crate) fn hex_run_end(t: &[u8], mut p: usize, e: usize) -> usize {
    while p < e && is_hex(at(t, p)) {
        p += 1;
    }
    p
}

pub(crate) fn token_end(t: &[u8], mut p: usize, e: usize) -> usize {
    while p < e && !is_ws(at(t, p)) {
        p += 1;
    }
    p
}

/// Gap width (tab = 8) and the position after it.
pub(crate) fn gap_width(t: &[u8], mut p: usize, e: usize) -> (usize, usize) {
    let mut w = 0usize;
    while p < e && is_hs(at(t, p)) {
        w += if at(t, p) == b'\t' { 8 } else { 1 };
        p += 1;
    }
    (w, p)
}

pub(crate) fn all_hex(t: &[u8], s: usize, e: usize) -> bool {
    s < e && t.get(s..e).is_some_and(|r| r.iter().all(|&b| is_hex(b)))
}

pub(crate) fn detect_dump(t: &[u8]) -> PResult<Option<Dump>> {
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

pub(crate) fn dump_line_shape(t: &[u8], ls: usize, te: usize) -> PResult<Option<Flavor>> {
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

pub(crate) fn parse_radix(t: &[u8], s: usize, e: usize, radix: u32) -> Option<u64> {
    let mut v: u64 = 0;
    for &b in t.get(s..e)? {
        let d = (b as char).to_digit(radix)? as u64;
        v = v.checked_mul(radix as u64)?.checked_add(d)?;
    }
    Some(v)
}

/// `od` offsets are octal by default (`-A o`, 7 digits), hex with `-A x` (6 digits) or
/// decimal with `-A d`: pick the radix under which the second offset follows the first.
pub(crate) fn od_radix(t: &[u8], first: usize) -> u32 {
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
pub(crate) enum Kind {
    Blank,
    Star(usize),
    Header(Option<u64>),
    Text(usize),
    Lone(u64, usize),
    Data { off: u64, off_pos: usize, data: usize },
}

pub(crate) fn classify(t: &[u8], ls: usize, te: usize, d: Dump) -> PResult<Kind> {
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
pub(crate) fn header_or_text(t: &[u8], p: usize, te: usize) -> Kind {
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

pub(crate) fn peek_kind(t: &[u8], mut p: usize, d: Dump) -> Option<Kind> {
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

pub(crate) fn fmt_off(v: u64, radix: u32) -> String {
    match radix {
        8 => format!("{:o}", v),
        10 => format!("{}", v),
        _ => format!("{:x}", v),
    }
}

#[derive(Clone, Copy)]
pub(crate) enum Limit {
    /// The next offset says exactly this many bytes are on the line.
    Exact(usize),
    /// Last line (or unknown): at most `cap` bytes; tokens starting at or after `bound`
    /// belong to the ASCII column. Without `bound` a wide gap ends the hex area.
    Upto { cap: usize, bound: Option<usize> },
}

pub(crate) struct LineOut {
    pub(crate) count: usize,
    pub(crate) hex_end: usize,
    pub(crate) ascii: bool,
}

pub(crate) fn parse_dump_line(t: &[u8], data: usize, te: usize, fl: Flavor, limit: Limit, out: &mut Vec<u8>) -> PResult<LineOut> {
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
                    // A last line whose padding was lost: after a wide gap, a token that is not
                    // a byte starts the ASCII column (the JS parser accepted these).
                    Some(_) if !first && w >= thr && !valid_token(t, p, q, fl) => break,
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
pub(crate) fn check_ascii(t: &[u8], bytes: &[u8], hex_end: usize, te: usize) -> PResult<()> {
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

pub(crate) fn valid_token(t: &[u8], p: usize, q: usize, fl: Flavor) -> bool {
    all_hex(t, p, q) && if fl == Flavor::Xxd { (q - p) % 2 == 0 } else { q - p == 2 }
}

pub(crate) struct DumpState {
    pub(crate) out: Vec<u8>,
    pub(crate) have_block: bool,
    /// Why the current block ended early: (position, by_text).
    pub(crate) closed: Option<(usize, bool)>,
    pub(crate) expect: u64,
    pub(crate) last_line: Option<(usize, usize)>,
    pub(crate) star: Option<usize>,
    pub(crate) header: Option<(u64, usize)>,
    pub(crate) next_header: Option<(u64, usize)>,
    pub(crate) blocks_done: usize,
    pub(crate) expanded: u64,
    pub(crate) cols: Option<usize>,
    pub(crate) hex_end_rel: Option<usize>,
}

/// A line of mostly hex digits (at least 16 of them, and 60% of its visible characters, an
/// ASCII column included): a dump line, even when it does not read as one.
fn looks_like_dump_line(t: &[u8], ls: usize, te: usize) -> bool {
    let line = t.get(ls..te).unwrap_or(&[]);
    let visible = line.iter().filter(|b| !b.is_ascii_whitespace()).count();
    let hex = line.iter().filter(|b| b.is_ascii_hexdigit()).count();
    hex >= 16 && hex * 10 >= visible * 6
}

pub(crate) fn parse_dump(t: &[u8], d: Dump, notes: &mut Notes) -> PResult<(Format, Vec<u8>)> {
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
    // A text line just before the dump's first line that looks like a dump line itself (the
    // dump's first line damaged): an error if the dump then starts past offset 0.
    let mut damaged_before: Option<usize> = None;
    while p < t.len() {
        let ls = p;
        let le = line_end(t, p);
        let te = trim_end(t, ls, le);
        p = le + 1;
        let kind = classify(t, ls, te, d)?;
        let dumpish = matches!(kind, Kind::Text(_)) && looks_like_dump_line(t, ls, te);
        match kind {
            Kind::Data { off, .. } if !st.have_block && off != 0 => {
                if let Some(pos) = damaged_before {
                    return Err(perr(
                        pos,
                        format!("unrecognised line just before a hex dump that starts at offset {} (its first line damaged?)", fmt_off(off, d.radix)),
                    ));
                }
            }
            Kind::Blank => {}
            _ => damaged_before = None,
        }
        if dumpish && st.have_block && st.closed.is_none() {
            // Right after dump lines, a line that looks like one but does not read as one is
            // a damaged line of the dump, not text around it.
            return Err(perr(skip_ws(t, ls, te), "unrecognised line inside a hex dump"));
        }
        if dumpish && !st.have_block {
            damaged_before = Some(skip_ws(t, ls, te));
        }
        match kind {
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

pub(crate) fn no_pending_star(st: &DumpState) -> PResult<()> {
    match st.star {
        Some(pos) => Err(perr(pos, "'*' repeat line must be followed by an offset line")),
        None => Ok(()),
    }
}

pub(crate) fn finish_block(st: &mut DumpState) -> PResult<()> {
    if let Some((n, pos)) = st.header {
        if n != st.out.len() as u64 {
            return Err(perr(pos, format!("header announces {} bytes but its dump holds {}", n, st.out.len())));
        }
    }
    st.blocks_done += 1;
    Ok(())
}

/// Expand a pending `*` line: the previous line repeats up to offset `off`.
pub(crate) fn expand(st: &mut DumpState, off: u64, off_pos: usize, radix: u32, notes: &mut Notes) -> PResult<()> {
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
