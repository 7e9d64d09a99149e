//! Columns of text in LC_CTYPE's character set, through the C library's
//! `mbrtowc` and `wcwidth` (GNU's `mbsnwidth` and `mbsalign` measure so):
//! for dates and sizes, whose text comes from the locale.

use std::ffi::c_int;

extern "C" {
    fn wcwidth(wc: libc::wchar_t) -> c_int;
    fn iswcntrl(wc: u32) -> c_int;
    /// glibc's `MB_CUR_MAX`.
    fn __ctype_get_mb_cur_max() -> usize;
    fn mbrtowc(
        pwc: *mut libc::wchar_t,
        s: *const libc::c_char,
        n: usize,
        ps: *mut libc::mbstate_t,
    ) -> usize;
}

/// `MB_CUR_MAX` > 1: LC_CTYPE has multibyte characters.
pub fn multibyte() -> bool {
    // SAFETY: a plain query of the current locale.
    unsafe { __ctype_get_mb_cur_max() > 1 }
}

/// One step of decoding: a character of `len` bytes, or an invalid byte
/// (`wc` None, `len` 1), or an incomplete sequence at the end (`wc` None,
/// `len` the rest).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Step {
    pub len: usize,
    pub wc: Option<u32>,
}

/// Decodes `s` in LC_CTYPE's character set.
pub fn decode(s: &[u8]) -> Vec<Step> {
    let mut out = Vec::with_capacity(s.len());
    let mut i = 0;
    while i < s.len() {
        // SAFETY: an all-zero mbstate_t is the initial state.
        let mut st: libc::mbstate_t = unsafe { std::mem::zeroed() };
        let mut wc: libc::wchar_t = 0;
        // SAFETY: the pointer and length describe the rest of `s`.
        let n = unsafe { mbrtowc(&mut wc, s[i..].as_ptr().cast(), s.len() - i, &mut st) };
        let step = match n {
            usize::MAX => Step { len: 1, wc: None },
            n if n == usize::MAX - 1 => Step {
                len: s.len() - i,
                wc: None,
            },
            0 => Step {
                len: 1,
                wc: Some(0),
            },
            n => Step {
                len: n,
                wc: Some(wc as u32),
            },
        };
        i += step.len;
        out.push(step);
    }
    out
}

/// `wcwidth(wc)`: columns of a printable character, -1 for others.
pub fn char_width(wc: u32) -> i32 {
    // SAFETY: wcwidth accepts any value.
    unsafe { wcwidth(wc as libc::wchar_t) }
}

/// `iswcntrl(wc)`.
pub fn is_control(wc: u32) -> bool {
    // SAFETY: iswcntrl accepts any value.
    unsafe { iswcntrl(wc) != 0 }
}

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
    for step in decode(s) {
        total += match step.wc {
            None if reject_invalid => return None,
            None => 1,
            Some(wc) => match char_width(wc) {
                w if w >= 0 => w as usize,
                _ => usize::from(!is_control(wc)),
            },
        };
    }
    Some(total)
}
