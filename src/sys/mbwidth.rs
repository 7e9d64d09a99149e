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

/// [`text_columns`] with `MBSW_REJECT_INVALID`: `None` when `s` is not
/// valid in a multibyte LC_CTYPE.
pub fn text_columns_valid(s: &[u8]) -> Option<usize> {
    columns(s, true)
}

fn columns(s: &[u8], reject_invalid: bool) -> Option<usize> {
    if s.iter().all(|b| (0x20..0x7f).contains(b)) {
        return Some(s.len());
    }
    if !multibyte() {
        // SAFETY: isprint/iscntrl accept any unsigned char value.
        let shown = |b: u8| unsafe {
            libc::isprint(c_int::from(b)) != 0 || libc::iscntrl(c_int::from(b)) == 0
        };
        return Some(s.iter().filter(|&&b| shown(b)).count());
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
                _ => (len, usize::from(!control)),
            },
        };
        total += columns;
        rest = &rest[len..];
    }
    Some(total)
}
