//! LC_CTYPE's character set through the C library: which character set it
//! is, `isprint` for the bytes of single-byte sets, and `mbrtowc`,
//! `iswprint`, `iswcntrl`, `wcwidth` for multibyte sets other than UTF-8
//! (GB18030, EUC-JP, ...). UTF-8 is decoded in pure Rust from a table
//! generated from glibc (identical in every glibc UTF-8 locale).

use std::ffi::{c_char, c_int, CStr};

/// How the locale encodes characters, as far as GNU ls's quoting and
/// column widths care.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Charset {
    /// UTF-8 (decoded in pure Rust).
    Utf8,
    /// One byte per character (C/POSIX, ISO-8859-*, KOI8-R, ...): bit `n`
    /// of the mask says whether byte `0x80 + n` is printable (`isprint`);
    /// ASCII is printable as in every locale.
    Unibyte(u128),
    /// Another multibyte set (GB18030, EUC-JP, BIG5, ...), decoded by the
    /// C library one character at a time.
    Multibyte {
        /// The set is GB18030 (gnulib has its own fallback quotes for it).
        gb18030: bool,
    },
}

impl Charset {
    /// The C locale: ASCII, every byte >= 0x80 unprintable.
    pub const C: Charset = Charset::Unibyte(0);
}

impl Default for Charset {
    fn default() -> Charset {
        Charset::C
    }
}

/// UTF-8 (`true`) or C (`false`), for callers that only know that much.
impl From<bool> for Charset {
    fn from(utf8: bool) -> Charset {
        if utf8 {
            Charset::Utf8
        } else {
            Charset::C
        }
    }
}

/// One character as the C library's `mbrtowc` decodes it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MbChar {
    /// A complete character of `len` bytes.
    Char {
        len: usize,
        /// `iswprint`.
        printable: bool,
        /// `iswcntrl`.
        control: bool,
        /// `wcwidth` (-1 when it has none).
        width: i32,
    },
    /// The first byte starts no valid sequence.
    Invalid,
    /// A valid but unfinished sequence (it runs to the end of the input).
    Incomplete,
}

extern "C" {
    fn mbrtowc(
        pwc: *mut libc::wchar_t,
        s: *const c_char,
        n: usize,
        ps: *mut libc::mbstate_t,
    ) -> usize;
    fn iswprint(wc: u32) -> c_int;
    fn iswcntrl(wc: u32) -> c_int;
    fn wcwidth(wc: libc::wchar_t) -> c_int;
    fn __ctype_get_mb_cur_max() -> usize;
}

/// `MB_CUR_MAX` > 1: LC_CTYPE has multibyte characters.
pub fn multibyte() -> bool {
    // SAFETY: a plain query of the current locale.
    unsafe { __ctype_get_mb_cur_max() > 1 }
}

/// The character set of LC_CTYPE as `setlocale` left it.
pub fn current() -> Charset {
    // SAFETY: nl_langinfo returns a pointer to a static NUL-terminated string.
    let codeset = unsafe { CStr::from_ptr(libc::nl_langinfo(libc::CODESET)) };
    let cs = codeset.to_bytes().to_ascii_uppercase();
    if cs == b"UTF-8" || cs == b"UTF8" {
        return Charset::Utf8;
    }
    if multibyte() {
        return Charset::Multibyte {
            gb18030: cs == b"GB18030",
        };
    }
    let mut mask = 0u128;
    for b in 0x80..=0xffu8 {
        // SAFETY: isprint takes any unsigned char value.
        if unsafe { libc::isprint(c_int::from(b)) } != 0 {
            mask |= 1u128 << (b - 0x80);
        }
    }
    Charset::Unibyte(mask)
}

/// Decodes the character at the start of `s` (non-empty) in the current
/// locale with `mbrtowc` from the initial state.
pub fn decode(s: &[u8]) -> MbChar {
    // SAFETY: an all-zero mbstate_t is the initial state.
    let mut state: libc::mbstate_t = unsafe { std::mem::zeroed() };
    let mut wc: libc::wchar_t = 0;
    // SAFETY: s is valid for s.len() bytes, wc and state are valid for writes.
    let n = unsafe { mbrtowc(&mut wc, s.as_ptr().cast(), s.len(), &mut state) };
    match n {
        usize::MAX => MbChar::Invalid,
        n if n == usize::MAX - 1 => MbChar::Incomplete,
        n => {
            let wu = wc as u32;
            // SAFETY: plain classification calls on a decoded character.
            let (printable, control, width) =
                unsafe { (iswprint(wu) != 0, iswcntrl(wu) != 0, wcwidth(wc)) };
            MbChar::Char {
                len: n.max(1),
                printable,
                control,
                width,
            }
        }
    }
}
