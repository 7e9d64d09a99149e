//! Columns of text in LC_CTYPE's character set, through the C library's
//! `mbrtowc` and `wcwidth` (GNU's `mbsnwidth` and `mbsalign` measure so):
//! for dates and sizes, whose text comes from the locale.

use std::ffi::c_int;

extern "C" {
    fn wcwidth(wc: libc::wchar_t) -> c_int;
    fn iswcntrl(wc: u32) -> c_int;
    /// glibc's `MB_CUR_MAX`.
    fn __ctype_get_mb_cur_max() -> usize;
    fn wcrtomb(s: *mut libc::c_char, wc: libc::wchar_t, ps: *mut libc::mbstate_t) -> usize;
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

/// The bytes of `wc` in LC_CTYPE's character set (empty if it has none).
pub fn encode(wc: u32) -> Vec<u8> {
    let mut buf = [0u8; 16];
    // SAFETY: an all-zero mbstate_t is the initial state; buf holds more
    // than MB_LEN_MAX bytes.
    let n = unsafe {
        let mut st: libc::mbstate_t = std::mem::zeroed();
        wcrtomb(buf.as_mut_ptr().cast(), wc as libc::wchar_t, &mut st)
    };
    if n == usize::MAX {
        Vec::new()
    } else {
        buf[..n].to_vec()
    }
}

/// Columns of `s` as GNU's `mbsnwidth(s, len, 0)` counts them: printable
/// characters by `wcwidth`, control characters 0, other unprintable ones
/// and invalid bytes 1 (an incomplete sequence at the end 1). In a
/// single-byte locale: 1 per byte that is printable or not a control.
pub fn text_columns(s: &[u8]) -> usize {
    if s.iter().all(|b| (0x20..0x7f).contains(b)) {
        return s.len();
    }
    if !multibyte() {
        // SAFETY: isprint/iscntrl accept any unsigned char value.
        return s
            .iter()
            .filter(|&&b| unsafe {
                libc::isprint(c_int::from(b)) != 0 || libc::iscntrl(c_int::from(b)) == 0
            })
            .count();
    }
    decode(s)
        .iter()
        .map(|step| match step.wc {
            None => 1,
            Some(wc) => match char_width(wc) {
                w if w >= 0 => w as usize,
                _ => usize::from(!is_control(wc)),
            },
        })
        .sum()
}
