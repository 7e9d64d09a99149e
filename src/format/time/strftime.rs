//! A GNU `nstrftime` work-alike (gnulib as built into coreutils 9.1): a
//! format is parsed once into pieces, then rendered per timestamp.
//!
//! Numbers, `%N`, `%s`, `%z`, `%Z` and the fixed composites (`%D` `%F` `%R`
//! `%T`) are done here, as gnulib does them itself; every conversion whose
//! text comes from LC_TIME (names, AM/PM, `%c` `%x` `%X` `%r`, `%E*`, and
//! `%O*` on a non-negative number) is the C library's `strftime` for that
//! one conversion, then padded and case-changed byte by byte as gnulib does.
//!
//! Flags `-` (no padding), `_` (spaces), `0` (zeros), `+` (zeros, and a
//! sign on years wider than usual), `^` (upper case), `#` (swap case);
//! a decimal field width; `E`/`O` modifiers where gnulib accepts them;
//! `%:z` `%::z` `%:::z`. Anything else is copied literally, as gnulib does.
#![forbid(unsafe_code)]

use super::civil::BrokenDown;
use crate::sys::time::strftime_one;

/// Widths past this make `ls` fall back to printing seconds anyway.
const MAX_WIDTH: usize = 4096;
/// Conversions that reject the `E` and the `O` modifier.
const E_BAD: &[u8] = b"aAbBdDeFgGhHIjklmMNSUVwW";
const O_BAD: &[u8] = b"aAcDFxXY";
/// Conversions rendered at format time (for the `parse` step to accept).
const KNOWN: &[u8] = b"aAbBcCdDeFgGhHIjklmMNpPqrRsStTuUVwWxXyYzZ";

/// Which gnulib `nstrftime` the emulated release has: set once at
/// start-up (the releases differ only in corner cases of the format).
static DIALECT: std::sync::atomic::AtomicU8 = std::sync::atomic::AtomicU8::new(0);
/// 8.32: flags, a width and `E`/`O` on `%%` make a padded `%`.
const PERCENT_TAKES_FLAGS: u8 = 1;
/// 9.10: `O` on a number is ignored (no alternative digits; flags and
/// width as without it), and `%OY`, `%Oq`, `%O:z` are valid.
const O_IS_PLAIN_ON_NUMBERS: u8 = 2;
/// Conversions whose `O` 9.10 ignores.
const O_PLAIN: &[u8] = b"CdegGHIjklmMNsSuUVwWyYqz";

/// Chooses the `nstrftime` of the emulated release: 8.32's (`%5%` is a
/// padded `%`) or 9.10's (`%Od` is `%d`).
pub fn set_dialect(percent_takes_flags: bool, o_is_plain_on_numbers: bool) {
    let bits = (u8::from(percent_takes_flags) * PERCENT_TAKES_FLAGS)
        | (u8::from(o_is_plain_on_numbers) * O_IS_PLAIN_ON_NUMBERS);
    DIALECT.store(bits, std::sync::atomic::Ordering::Relaxed);
}

fn dialect(bit: u8) -> bool {
    DIALECT.load(std::sync::atomic::Ordering::Relaxed) & bit != 0
}

/// One conversion specification.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Spec {
    conv: u8,
    pad: Option<u8>,
    upper: bool,
    swap: bool,
    width: Option<usize>,
    colons: u8,
    /// The `E` or `O` modifier, or 0.
    modifier: u8,
}

impl Spec {
    fn plain(conv: u8) -> Spec {
        Spec {
            conv,
            pad: None,
            upper: false,
            swap: false,
            width: None,
            colons: 0,
            modifier: 0,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
enum Piece {
    Lit(Vec<u8>),
    Conv(Spec),
}

/// A parsed strftime format.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Format {
    pieces: Vec<Piece>,
}

/// The fill byte for padding text: `None` for the `-` flag.
fn text_fill(pad: Option<u8>) -> Option<u8> {
    match pad {
        Some(b'-') => None,
        Some(b'0') | Some(b'+') => Some(b'0'),
        _ => Some(b' '),
    }
}

/// Left-pads `out[start..]` to `width` with `fill`.
fn pad_from(out: &mut Vec<u8>, start: usize, width: Option<usize>, fill: Option<u8>) {
    let (Some(w), Some(fill)) = (width, fill) else {
        return;
    };
    let len = out.len().saturating_sub(start);
    if len < w {
        let n = w - len;
        out.splice(start..start, std::iter::repeat_n(fill, n));
    }
}

struct Parser<'a> {
    fmt: &'a [u8],
    pieces: Vec<Piece>,
    lit: Vec<u8>,
}

impl Parser<'_> {
    /// Text gnulib copies unchanged for a bad conversion, padded.
    fn bad(&mut self, text: &[u8], spec: &Spec) {
        let start = self.lit.len();
        self.lit.extend_from_slice(text);
        if spec.upper {
            self.lit[start..].make_ascii_uppercase();
        }
        pad_from(&mut self.lit, start, spec.width, text_fill(spec.pad));
    }

    fn conv(&mut self, spec: Spec) {
        match spec.conv {
            b'n' | b't' => {
                let c = if spec.conv == b'n' { b'\n' } else { b'\t' };
                let start = self.lit.len();
                self.lit.push(c);
                pad_from(&mut self.lit, start, spec.width, text_fill(spec.pad));
            }
            _ => {
                if !self.lit.is_empty() {
                    self.pieces.push(Piece::Lit(std::mem::take(&mut self.lit)));
                }
                self.pieces.push(Piece::Conv(spec));
            }
        }
    }

    /// Parses the conversion starting at the `%` at `start`; returns where
    /// to continue.
    fn percent(&mut self, start: usize) -> usize {
        let fmt = self.fmt;
        let mut spec = Spec::plain(0);
        let mut j = start + 1;
        while let Some(&c) = fmt.get(j) {
            match c {
                b'_' | b'-' | b'0' | b'+' => spec.pad = Some(c),
                b'^' => spec.upper = true,
                b'#' => spec.swap = true,
                _ => break,
            }
            j += 1;
        }
        while let Some(d) = fmt.get(j).filter(|c| c.is_ascii_digit()) {
            let w = spec
                .width
                .unwrap_or(0)
                .saturating_mul(10)
                .saturating_add(usize::from(d - b'0'));
            spec.width = Some(w.min(MAX_WIDTH));
            j += 1;
        }
        let mut modifier = fmt.get(j).copied().filter(|c| *c == b'E' || *c == b'O');
        if modifier.is_some() {
            j += 1;
        }
        let Some(&c) = fmt.get(j) else {
            self.bad(&fmt[start..], &spec);
            return fmt.len();
        };
        if modifier == Some(b'O')
            && dialect(O_IS_PLAIN_ON_NUMBERS)
            && (O_PLAIN.contains(&c) || c == b':')
        {
            modifier = None;
        }
        match c {
            b'%' if j == start + 1 => {
                self.lit.push(b'%');
                j + 1
            }
            b'%' if dialect(PERCENT_TAKES_FLAGS) => {
                let at = self.lit.len();
                self.lit.push(b'%');
                pad_from(&mut self.lit, at, spec.width, text_fill(spec.pad));
                j + 1
            }
            b'%' => {
                self.bad(&fmt[start..j], &spec);
                j
            }
            b':' => self.colons(start, j, spec, modifier),
            _ if KNOWN.contains(&c) || c == b'n' || c == b't' => {
                let rejected = match modifier {
                    Some(b'E') => E_BAD.contains(&c),
                    Some(_) => O_BAD.contains(&c),
                    None => false,
                };
                if rejected {
                    // gnulib applies `#` to `%b` before it rejects `%Eb`.
                    spec.upper |= spec.swap && (c == b'b' || c == b'h');
                    self.bad(&fmt[start..=j], &spec);
                } else {
                    spec.conv = c;
                    spec.modifier = modifier.unwrap_or(0);
                    self.conv(spec);
                }
                j + 1
            }
            _ => {
                self.bad(&fmt[start..=j], &spec);
                j + 1
            }
        }
    }

    /// `%:z`, `%::z`, `%:::z`; any other use of `:` is bad.
    fn colons(&mut self, start: usize, j: usize, mut spec: Spec, modifier: Option<u8>) -> usize {
        let fmt = self.fmt;
        let n = fmt[j..].iter().take_while(|c| **c == b':').count();
        if fmt.get(j + n) != Some(&b'z') {
            self.bad(&fmt[start..=j], &spec);
            return j + 1;
        }
        if n > 3 {
            // gnulib rejects `%::::z` as a whole, through the `z`.
            self.bad(&fmt[start..=j + n], &spec);
        } else {
            spec.modifier = modifier.unwrap_or(0);
            spec.conv = b'z';
            spec.colons = n as u8;
            self.conv(spec);
        }
        j + n + 1
    }
}

impl Format {
    /// Parses `fmt`; every byte string is a valid format.
    pub fn parse(fmt: &[u8]) -> Format {
        let mut p = Parser {
            fmt,
            pieces: Vec::new(),
            lit: Vec::new(),
        };
        let mut i = 0;
        while i < fmt.len() {
            if fmt[i] == b'%' {
                i = p.percent(i);
            } else {
                p.lit.push(fmt[i]);
                i += 1;
            }
        }
        if !p.lit.is_empty() {
            p.pieces.push(Piece::Lit(p.lit));
        }
        Format { pieces: p.pieces }
    }

    /// Appends `t` rendered with this format.
    pub fn render(&self, t: &BrokenDown, out: &mut Vec<u8>) {
        for piece in &self.pieces {
            match piece {
                Piece::Lit(bytes) => out.extend_from_slice(bytes),
                Piece::Conv(spec) => convert(spec, t, None, out),
            }
        }
    }
}

/// Writes `n` in decimal into `buf`, returning the digits.
fn digits(mut n: u64, buf: &mut [u8; 20]) -> &[u8] {
    let mut i = buf.len();
    loop {
        i -= 1;
        buf[i] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            return &buf[i..];
        }
    }
}

/// A number with an optional sign, padded to `width` (default `natural`,
/// sign included) with spaces (`_`) or zeros, or not at all (`-`).
fn push_signed(
    out: &mut Vec<u8>,
    sign: Option<u8>,
    abs: u64,
    natural: usize,
    pad: u8,
    width: Option<usize>,
) {
    let mut buf = [0u8; 20];
    let s = digits(abs, &mut buf);
    let len = s.len() + usize::from(sign.is_some());
    let w = if pad == b'-' {
        0
    } else {
        width.unwrap_or(natural)
    };
    let fill = w.saturating_sub(len);
    if pad == b'_' {
        out.extend(std::iter::repeat_n(b' ', fill));
        out.extend(sign);
    } else {
        out.extend(sign);
        out.extend(std::iter::repeat_n(b'0', fill));
    }
    out.extend_from_slice(s);
}

/// A numeric conversion. Year-like ones (`yr` is `Some`) take the padding
/// of an enclosing `%D`/`%F` when they have none, and get a `+` under the
/// `+` flag when wider than their usual `natural` digits.
fn push_num(
    out: &mut Vec<u8>,
    value: i64,
    natural: usize,
    spec: &Spec,
    default_pad: u8,
    yr: Option<Option<u8>>,
) {
    let pad = spec.pad.or(yr.flatten()).unwrap_or(default_pad);
    let abs = value.unsigned_abs();
    let limit = if natural == 2 { 99 } else { 9999 };
    let sign = if value < 0 {
        Some(b'-')
    } else if pad == b'+'
        && yr.is_some()
        && (abs > limit || spec.width.is_some_and(|w| w > natural))
    {
        Some(b'+')
    } else {
        None
    };
    push_signed(out, sign, abs, natural, pad, spec.width)
}

/// `%C`: the century, negative (even "-0") for years before 0.
fn push_century(out: &mut Vec<u8>, year: i64, spec: &Spec, yr: Option<u8>) {
    let pad = spec.pad.or(yr).unwrap_or(b'0');
    let abs = year.unsigned_abs() / 100;
    let sign = if year < 0 {
        Some(b'-')
    } else if pad == b'+' && (abs > 99 || spec.width.is_some_and(|w| w > 2)) {
        Some(b'+')
    } else {
        None
    };
    push_signed(out, sign, abs, 2, pad, spec.width)
}

/// gnulib's two-digit year: |year| mod 100 before year 0.
fn year2(year: i64) -> i64 {
    (year.unsigned_abs() % 100) as i64
}

/// LC_CTYPE's `toupper`/`tolower` per byte, read once.
fn case_tables() -> &'static ([u8; 256], [u8; 256]) {
    static TABLES: std::sync::OnceLock<([u8; 256], [u8; 256])> = std::sync::OnceLock::new();
    TABLES.get_or_init(crate::sys::time::case_tables)
}

/// gnulib's `cpy`: `out[start..]` changed to lower (which wins) or upper
/// case byte by byte, then left-padded to the width.
fn finish_text(out: &mut Vec<u8>, start: usize, spec: &Spec, upper: bool, lower: bool) {
    if lower || upper {
        let (up, low) = case_tables();
        let table = if lower { low } else { up };
        for b in &mut out[start..] {
            *b = table[usize::from(*b)];
        }
    }
    pad_from(out, start, spec.width, text_fill(spec.pad));
}

/// A conversion the C library renders (its text comes from LC_TIME).
fn underlying(spec: &Spec, conv: u8, t: &BrokenDown, upper: bool, lower: bool, out: &mut Vec<u8>) {
    let start = out.len();
    strftime_one(spec.modifier, conv, &t.tm, out);
    finish_text(out, start, spec, upper, lower);
}

fn hour12(h: u8) -> i64 {
    match h % 12 {
        0 => 12,
        x => i64::from(x),
    }
}

/// `%D`, `%R`, `%T`: rendered with default flags (years padded as the
/// composite asks), then padded as a whole.
fn composite(spec: &Spec, t: &BrokenDown, out: &mut Vec<u8>) {
    let start = out.len();
    let (convs, sep): (&[u8], u8) = match spec.conv {
        b'D' => (b"mdy", b'/'),
        b'R' => (b"HM", b':'),
        _ => (b"HMS", b':'),
    };
    for (i, &c) in convs.iter().enumerate() {
        if i > 0 {
            out.push(sep);
        }
        convert(&Spec::plain(c), t, Some(spec.pad), out);
    }
    finish_text(out, start, spec, false, false);
}

/// `%F`: the width goes to the year (`%+4Y` by default, as gnulib).
fn iso_date(spec: &Spec, t: &BrokenDown, out: &mut Vec<u8>) {
    let year_spec = if spec.pad.is_none() && spec.width.is_none() {
        Spec {
            pad: Some(b'+'),
            width: Some(4),
            ..Spec::plain(b'Y')
        }
    } else {
        Spec {
            pad: spec.pad,
            width: Some(spec.width.unwrap_or(0).saturating_sub(6)),
            ..Spec::plain(b'Y')
        }
    };
    push_num(out, t.tm.year, 4, &year_spec, b'0', Some(None));
    out.push(b'-');
    convert(&Spec::plain(b'm'), t, None, out);
    out.push(b'-');
    convert(&Spec::plain(b'd'), t, None, out);
}

/// `%N`: the first `width` digits of the nanoseconds (9 by default).
fn nanos(spec: &Spec, nsec: u32, out: &mut Vec<u8>) {
    let mut buf = [0u8; 20];
    let all = digits(u64::from(nsec.min(999_999_999)) + 1_000_000_000, &mut buf);
    let all = all.get(1..).unwrap_or(b"");
    let w = spec.width.filter(|w| *w > 0).unwrap_or(9);
    let mut d = &all[..w.min(9)];
    // ls (unlike date) trims trailing zeros for `%-N` even without a width.
    let trim = spec.pad == Some(b'_') || spec.pad == Some(b'-');
    if trim {
        while d.len() > 1 && d.last() == Some(&b'0') {
            d = &d[..d.len() - 1];
        }
    }
    out.extend_from_slice(d);
    let fill = match spec.pad {
        Some(b'-') => return,
        Some(b'_') => b' ',
        _ => b'0',
    };
    out.extend(std::iter::repeat_n(fill, w.saturating_sub(d.len())));
}

/// `%z` and its colon forms.
fn offset(spec: &Spec, t: &BrokenDown, out: &mut Vec<u8>) {
    let off = t.tm.gmtoff;
    let negative = off < 0 || (off == 0 && t.tm.zone.to_bytes().first() == Some(&b'-'));
    if spec.modifier == b'O' && !negative {
        let conv = if spec.colons > 0 { b':' } else { b'z' };
        return underlying(spec, conv, t, false, false, out);
    }
    let sign = Some(if negative { b'-' } else { b'+' });
    let a = off.unsigned_abs();
    let (h, m, s) = (a / 3600, a / 60 % 60, a % 60);
    let pad = spec.pad.unwrap_or(b'0');
    let colons = match spec.colons {
        3 if s != 0 => 2,
        3 if m != 0 => 1,
        c => c,
    };
    match colons {
        0 => push_signed(out, sign, h * 100 + m, 5, pad, spec.width),
        3 => push_signed(out, sign, h, 3, pad, spec.width),
        c => {
            let rest = if c == 1 { 3 } else { 6 };
            push_signed(
                out,
                sign,
                h,
                3,
                pad,
                spec.width.map(|w| w.saturating_sub(rest)),
            );
            out.push(b':');
            push_signed(out, None, m, 2, b'0', None);
            if c == 2 {
                out.push(b':');
                push_signed(out, None, s, 2, b'0', None);
            }
        }
    }
}

/// Renders one conversion; `yr` is the padding flag of an enclosing
/// composite (gnulib's `yr_spec`), for the year-like conversions.
fn convert(spec: &Spec, t: &BrokenDown, yr: Option<Option<u8>>, out: &mut Vec<u8>) {
    let tm = &t.tm;
    let swap_up = spec.upper || spec.swap;
    match spec.conv {
        b'a' | b'A' | b'b' | b'h' | b'B' => underlying(spec, spec.conv, t, swap_up, false, out),
        b'c' | b'x' | b'X' | b'r' => underlying(spec, spec.conv, t, spec.upper, false, out),
        b'p' => underlying(spec, b'p', t, spec.upper && !spec.swap, spec.swap, out),
        b'P' => underlying(spec, b'p', t, false, true, out),
        b'C' | b'y' | b'Y' if spec.modifier == b'E' => {
            underlying(spec, spec.conv, t, spec.upper, false, out)
        }
        b'Z' => {
            let start = out.len();
            out.extend_from_slice(tm.zone.to_bytes());
            finish_text(out, start, spec, spec.upper, spec.swap);
        }
        b'D' | b'R' | b'T' => composite(spec, t, out),
        b'F' => iso_date(spec, t, out),
        b'N' => nanos(spec, t.nsec, out),
        b'z' => offset(spec, t, out),
        b's' => push_num(
            out,
            t.epoch,
            1,
            &Spec {
                modifier: 0,
                ..*spec
            },
            b'0',
            None,
        ),
        b'C' if spec.modifier == b'O' && tm.year >= 0 => {
            underlying(spec, b'C', t, spec.upper, false, out)
        }
        b'C' => push_century(out, tm.year, spec, yr.flatten()),
        _ => {
            let yr = Some(yr.unwrap_or(None));
            let (value, natural, default_pad, yearish) = match spec.conv {
                b'y' => (year2(tm.year), 2, b'0', yr),
                b'Y' => (tm.year, 4, b'0', yr),
                b'G' => (t.iso_week().0, 4, b'0', yr),
                b'g' => (year2(t.iso_week().0), 2, b'0', yr),
                c => {
                    let (v, n, p) = small_number(c, t);
                    (v, n, p, None)
                }
            };
            if spec.modifier == b'O' && value >= 0 {
                return underlying(spec, spec.conv, t, spec.upper, false, out);
            }
            push_num(out, value, natural, spec, default_pad, yearish);
        }
    }
}

/// The value, usual digit count and default padding of the plain numeric
/// conversions.
fn small_number(conv: u8, t: &BrokenDown) -> (i64, usize, u8) {
    let tm = &t.tm;
    match conv {
        b'd' => (i64::from(tm.day), 2, b'0'),
        b'e' => (i64::from(tm.day), 2, b'_'),
        b'H' => (i64::from(tm.hour), 2, b'0'),
        b'k' => (i64::from(tm.hour), 2, b'_'),
        b'I' => (hour12(tm.hour), 2, b'0'),
        b'l' => (hour12(tm.hour), 2, b'_'),
        b'j' => (i64::from(tm.yday) + 1, 3, b'0'),
        b'm' => (i64::from(tm.month), 2, b'0'),
        b'M' => (i64::from(tm.minute), 2, b'0'),
        b'S' => (i64::from(tm.second), 2, b'0'),
        b'q' => ((i64::from(tm.month) + 2) / 3, 1, b'0'),
        b'u' => (if tm.wday == 0 { 7 } else { i64::from(tm.wday) }, 1, b'0'),
        b'w' => (i64::from(tm.wday), 1, b'0'),
        b'U' => (t.week_sunday(), 2, b'0'),
        b'W' => (t.week_monday(), 2, b'0'),
        _ => (t.iso_week().1, 2, b'0'),
    }
}
