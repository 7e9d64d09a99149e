//! Columns of text in LC_CTYPE's character set, through the C library's
//! `mbrtowc` and `wcwidth` (GNU's `mbsnwidth` and `mbsalign` measure so):
//! for dates and sizes, whose text comes from the locale. Characters are
//! decoded by [`super::charset::decode`].

use std::ffi::c_int;

use super::charset::{decode, MbChar};

pub use super::charset::multibyte;

/// Columns of `s` as GNU's `mbsnwidth(s, len, 0)` counts them: printable
/// characters by `wcwidth`, control characters 0, other unprintable ones
/// and invalid bytes 1 (an incomplete sequence at the end 1). In a
/// single-byte locale: 1 per byte that is printable or not a control.
pub fn text_columns(s: &[u8]) -> usize {
    columns(s, false).unwrap_or(0)
}

/// [`text_columns`] with `MBSW_REJECT_INVALID` (and, from 9.5 on,
/// `MBSW_REJECT_UNPRINTABLE`, see [`reject_unprintable`]): `None` when `s`
/// is not valid in a multibyte LC_CTYPE.
pub fn text_columns_valid(s: &[u8]) -> Option<usize> {
    columns(s, true)
}

/// Columns of a size, a block count or a date as GNU ls measures them to
/// align a column: as [`text_columns`], or `None` when GNU 9.5 and later
/// cannot measure it (see [`reject_unprintable`]).
pub fn text_columns_measured(s: &[u8]) -> Option<usize> {
    if strict() {
        columns(s, true)
    } else {
        Some(text_columns(s))
    }
}

/// Whether GNU's column widths reject what is not printable (9.5 on).
static STRICT: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// From 9.5 on GNU ls measures dates and sizes with `mbswidth`'s
/// `MBSW_REJECT_INVALID | MBSW_REJECT_UNPRINTABLE`: a byte above 0x7f in
/// the C locale (a month name or separator of another LC_TIME or
/// LC_NUMERIC) or an invalid sequence makes the text unmeasurable. Set
/// once at start-up.
pub fn reject_unprintable() {
    STRICT.store(true, std::sync::atomic::Ordering::Relaxed);
}

fn strict() -> bool {
    STRICT.load(std::sync::atomic::Ordering::Relaxed)
}

fn columns(s: &[u8], reject_invalid: bool) -> Option<usize> {
    if s.iter().all(|b| (0x20..0x7f).contains(b)) {
        return Some(s.len());
    }
    let reject_unprintable = reject_invalid && strict();
    if !multibyte() {
        // SAFETY: isprint/iscntrl accept any unsigned char value.
        let printable = |b: u8| unsafe { libc::isprint(c_int::from(b)) != 0 };
        // SAFETY: as above.
        let control = |b: u8| unsafe { libc::iscntrl(c_int::from(b)) != 0 };
        if reject_unprintable && s.iter().any(|&b| !printable(b)) {
            return None;
        }
        return Some(s.iter().filter(|&&b| printable(b) || !control(b)).count());
    }
    let mut total = 0;
    let mut rest = s;
    while !rest.is_empty() {
        let (len, columns) = match decode(rest) {
            MbChar::Invalid | MbChar::Incomplete if reject_invalid => return None,
            MbChar::Invalid => (1, 1),
            MbChar::Incomplete => (rest.len(), 1),
            MbChar::Char {
                len,
                control,
                width,
                ..
            } => match width {
                w if w >= 0 => (len, w as usize),
                _ if reject_unprintable => return None,
                _ => (len, usize::from(!control)),
            },
        };
        total += columns;
        rest = &rest[len..];
    }
    Some(total)
}
