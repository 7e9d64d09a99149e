//! What GNU ls, through the C library, considers a character, printable,
//! and how wide: bytes and `isprint` in single-byte locales (C, ISO-8859-1,
//! KOI8-R); glibc's lenient UTF-8 decoder (5- and 6-byte forms, code points
//! above U+10FFFF) in UTF-8 locales, in pure Rust; the C library's
//! `mbrtowc`/`iswprint`/`wcwidth` in other multibyte locales (GB18030).
#![forbid(unsafe_code)]

use super::table::RUNS;
use crate::sys::charset::{decode, Charset, MbChar};

/// The class of one character (or byte) of a name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kind {
    /// Printable (`isprint`/`iswprint`), with its column width.
    Print(u8),
    /// Printable to `iswprint` but without a width (`wcwidth` -1; tens of
    /// thousands of GB18030 characters): the styles leave it alone, `-q`
    /// turns it into `?`, and it counts 1 column when shown raw.
    PrintNoWidth,
    /// Not printable, a control character: counts 0 columns when shown raw.
    Cntrl,
    /// Not printable, not a control (unassigned code points, code points
    /// above U+10FFFF): counts 1 column when shown raw.
    Other,
    /// A byte that starts no valid sequence: 1 column when shown raw.
    Invalid,
    /// A valid but unfinished sequence at the very end: the rest of the
    /// input as one unit, 1 column when shown raw.
    Incomplete,
}

impl Kind {
    /// Printable: shown as is by every style.
    pub(crate) fn printable(self) -> bool {
        matches!(self, Kind::Print(_) | Kind::PrintNoWidth)
    }

    /// Columns the unit takes when its bytes are written out unchanged
    /// (gnulib's `mbsnwidth` without flags, or `isprint` counting in the C
    /// locale).
    pub(crate) fn raw_width(self) -> usize {
        match self {
            Kind::Print(w) => usize::from(w),
            Kind::Cntrl => 0,
            Kind::PrintNoWidth | Kind::Other | Kind::Invalid | Kind::Incomplete => 1,
        }
    }
}

/// Class of an ASCII byte (the same in every locale).
#[inline]
pub(crate) fn ascii_kind(b: u8) -> Kind {
    if (0x20..0x7f).contains(&b) {
        Kind::Print(1)
    } else {
        Kind::Cntrl
    }
}

/// Class of a code point in glibc's UTF-8 locales.
pub(crate) fn char_kind(cp: u32) -> Kind {
    if cp > 0x10_ffff {
        return Kind::Other;
    }
    let idx = RUNS.partition_point(|&e| (e >> 3) <= cp);
    let class = match idx.checked_sub(1).and_then(|i| RUNS.get(i)) {
        Some(&e) => e & 7,
        None => 3,
    };
    match class {
        0..=2 => Kind::Print(class as u8),
        3 => Kind::Cntrl,
        _ => Kind::Other,
    }
}

/// Decodes the unit starting at `s[0]` (which must exist): its length in
/// bytes and class. In single-byte locales every byte is a unit, and a
/// byte >= 0x80 that `isprint` rejects is an unprintable control (`isprint`
/// and the width count ignore it; in C that is all of them).
pub(crate) fn next_unit(s: &[u8], charset: Charset) -> (usize, Kind) {
    let Some(&b) = s.first() else {
        return (1, Kind::Invalid);
    };
    if b < 0x80 {
        return (1, ascii_kind(b));
    }
    match charset {
        Charset::Utf8 => decode_utf8(s, b),
        Charset::Unibyte(mask) if mask & (1u128 << (b - 0x80)) != 0 => (1, Kind::Print(1)),
        Charset::Unibyte(_) => (1, Kind::Cntrl),
        Charset::Multibyte { .. } => multibyte_unit(s),
    }
}

/// A character of a multibyte set other than UTF-8, classified by the C
/// library as gnulib does: printable by `iswprint` (quotearg), width by
/// `wcwidth` (mbsnwidth, `-q`); an unfinished sequence takes the rest of
/// the input.
fn multibyte_unit(s: &[u8]) -> (usize, Kind) {
    match decode(s) {
        MbChar::Invalid => (1, Kind::Invalid),
        MbChar::Incomplete => (s.len(), Kind::Incomplete),
        MbChar::Char {
            len,
            printable,
            control,
            width,
        } => {
            let kind = if printable {
                u8::try_from(width).map_or(Kind::PrintNoWidth, Kind::Print)
            } else if control {
                Kind::Cntrl
            } else {
                Kind::Other
            };
            (len.min(s.len()), kind)
        }
    }
}

/// glibc's `mbrtowc` for UTF-8: lead bytes C2..FD start 2- to 6-byte
/// sequences; a missing continuation at the end is "incomplete", a wrong
/// byte makes the lead byte invalid; overlong forms and surrogates are
/// invalid, values above U+10FFFF are accepted (and unprintable).
fn decode_utf8(s: &[u8], lead: u8) -> (usize, Kind) {
    let (len, min, init) = match lead {
        0xc2..=0xdf => (2, 0x80, u32::from(lead & 0x1f)),
        0xe0..=0xef => (3, 0x800, u32::from(lead & 0x0f)),
        0xf0..=0xf7 => (4, 0x1_0000, u32::from(lead & 0x07)),
        0xf8..=0xfb => (5, 0x20_0000, u32::from(lead & 0x03)),
        0xfc..=0xfd => (6, 0x400_0000, u32::from(lead & 0x01)),
        _ => return (1, Kind::Invalid),
    };
    let mut cp = init;
    for k in 1..len {
        match s.get(k) {
            None => return (s.len(), Kind::Incomplete),
            Some(&c) if c & 0xc0 == 0x80 => cp = (cp << 6) | u32::from(c & 0x3f),
            Some(_) => return (1, Kind::Invalid),
        }
    }
    if cp < min || (0xd800..=0xdfff).contains(&cp) {
        return (1, Kind::Invalid);
    }
    (len, char_kind(cp))
}

/// Display width of bytes written unchanged, as GNU ls 9.5 and later
/// measure a quoted name when `-q` is off: `None` in a multibyte locale
/// when a character is not printable or has no width (gnulib's
/// `mbsnwidth` then fails); in single-byte locales as [`raw_width`].
pub(crate) fn measured_width(s: &[u8], charset: Charset) -> Option<usize> {
    if matches!(charset, Charset::Unibyte(_)) {
        return Some(raw_width(s, charset));
    }
    let mut width = 0;
    let mut i = 0;
    while let Some(rest) = s.get(i..).filter(|r| !r.is_empty()) {
        let (len, kind) = next_unit(rest, charset);
        let Kind::Print(w) = kind else {
            return None;
        };
        width += usize::from(w);
        i += len;
    }
    Some(width)
}

/// Display width of bytes written unchanged, as GNU ls measures a quoted
/// name when `-q` is off.
pub(crate) fn raw_width(s: &[u8], charset: Charset) -> usize {
    let mut width = 0;
    let mut i = 0;
    while let Some(rest) = s.get(i..).filter(|r| !r.is_empty()) {
        let (len, kind) = next_unit(rest, charset);
        width += kind.raw_width();
        i += len;
    }
    width
}

/// `-q`: replaces every unprintable unit of `buf[start..]` by one `?`, in
/// place, and returns the display width of the result.
pub(crate) fn hide_unprintable(buf: &mut Vec<u8>, start: usize, charset: Charset) -> usize {
    let mut width = 0;
    let mut read = start;
    let mut write = start;
    while let Some(rest) = buf.get(read..).filter(|r| !r.is_empty()) {
        let (len, kind) = next_unit(rest, charset);
        match kind {
            Kind::Print(w) => {
                buf.copy_within(read..read + len, write);
                write += len;
                width += usize::from(w);
            }
            _ => {
                if let Some(slot) = buf.get_mut(write) {
                    *slot = b'?';
                }
                write += 1;
                width += 1;
            }
        }
        read += len;
    }
    buf.truncate(write);
    width
}

#[cfg(test)]
mod tests {
    use super::*;
    const UTF8: Charset = Charset::Utf8;
    const C: Charset = Charset::C;

    #[test]
    fn glibc_classes() {
        assert_eq!(char_kind(0x41), Kind::Print(1));
        assert_eq!(char_kind(0x85), Kind::Cntrl);
        assert_eq!(char_kind(0xad), Kind::Print(1)); // soft hyphen
        assert_eq!(char_kind(0x301), Kind::Print(0)); // combining acute
        assert_eq!(char_kind(0x378), Kind::Other); // unassigned
        assert_eq!(char_kind(0x200b), Kind::Print(0)); // zero width space
        assert_eq!(char_kind(0x2028), Kind::Cntrl); // line separator
        assert_eq!(char_kind(0x4e2d), Kind::Print(2));
        assert_eq!(char_kind(0xff21), Kind::Print(2)); // fullwidth A
        assert_eq!(char_kind(0x1f600), Kind::Print(2));
        assert_eq!(char_kind(0xe000), Kind::Print(1)); // private use
        assert_eq!(char_kind(0xfffe), Kind::Other);
        assert_eq!(char_kind(0x110000), Kind::Other);
    }

    #[test]
    fn glibc_decoder() {
        assert_eq!(next_unit(b"\xc3\xa9x", UTF8), (2, Kind::Print(1)));
        assert_eq!(next_unit(b"\xc3\xa9x", C), (1, Kind::Cntrl));
        assert_eq!(next_unit(b"\xc0\xaf", UTF8), (1, Kind::Invalid));
        assert_eq!(next_unit(b"\xe0\x80", UTF8), (2, Kind::Incomplete));
        assert_eq!(next_unit(b"\xe0\x80\x80", UTF8), (1, Kind::Invalid));
        assert_eq!(next_unit(b"\xed\xa0\x80", UTF8), (1, Kind::Invalid));
        assert_eq!(next_unit(b"\xe2\x82x", UTF8), (1, Kind::Invalid));
        assert_eq!(next_unit(b"\xf4\x90\x80\x80", UTF8), (4, Kind::Other));
        assert_eq!(next_unit(b"\xf8\x88\x80\x80\x80", UTF8), (5, Kind::Other));
        assert_eq!(next_unit(b"\xf8\x87\xbf\xbf\xbf", UTF8), (1, Kind::Invalid));
        assert_eq!(next_unit(b"\xfe", UTF8), (1, Kind::Invalid));
    }

    #[test]
    fn widths_as_gnu_ls_columns() {
        // Measured with `ls -C`: controls count 0, invalid bytes 1 each,
        // an unfinished sequence at the end 1; in C only ASCII graphics.
        assert_eq!(raw_width(b"a\x01b", UTF8), 2);
        assert_eq!(raw_width(b"a\xffb", UTF8), 3);
        assert_eq!(raw_width(b"a\xe2\x82", UTF8), 2);
        assert_eq!(raw_width(b"a\xed\xa0\x80b", UTF8), 5);
        assert_eq!(raw_width(b"a\xc2\x85b", UTF8), 2);
        assert_eq!(raw_width(b"a\xc2\xadb", UTF8), 3);
        assert_eq!(raw_width(b"\xf0\x9f\x98\x80", UTF8), 2);
        assert_eq!(raw_width(b"a\xffb", C), 2);
        assert_eq!(raw_width(b"\xf0\x9f\x98\x80", C), 0);
    }

    #[test]
    fn single_byte_sets_follow_isprint() {
        // ISO-8859-1: 0xa0..=0xff printable; 0x80..=0x9f controls.
        let latin1 = Charset::Unibyte(!0u128 << 0x20);
        assert_eq!(next_unit(b"\xe9t\xe9", latin1), (1, Kind::Print(1)));
        assert_eq!(next_unit(b"\x85", latin1), (1, Kind::Cntrl));
        assert_eq!(raw_width(b"caf\xe9\x85", latin1), 4);
        let mut v = b"caf\xe9\x85".to_vec();
        assert_eq!(hide_unprintable(&mut v, 0, latin1), 5);
        assert_eq!(v, b"caf\xe9?");
        // The same bytes in C: neither printable nor counted.
        assert_eq!(raw_width(b"caf\xe9\x85", C), 3);
    }

    #[test]
    fn hiding() {
        let mut v = b"xa\xe2\x82".to_vec();
        assert_eq!(hide_unprintable(&mut v, 1, UTF8), 2);
        assert_eq!(v, b"xa?");
        let mut v = b"'a\xe2\x82'".to_vec();
        assert_eq!(hide_unprintable(&mut v, 0, UTF8), 5);
        assert_eq!(v, b"'a??'");
        let mut v = b"c1\xc2\x85\xe4\xb8\xad".to_vec();
        assert_eq!(hide_unprintable(&mut v, 0, UTF8), 5);
        assert_eq!(v, b"c1?\xe4\xb8\xad");
        let mut v = b"c1\xc2\x85".to_vec();
        assert_eq!(hide_unprintable(&mut v, 0, C), 4);
        assert_eq!(v, b"c1??");
    }
}
