//! LC_NUMERIC as GNU's `human_readable` reads it from `localeconv`: the
//! decimal point of `-h`/`--si` sizes and the thousands separator and
//! grouping of `'` block sizes.

use std::ffi::CStr;

/// GNU ignores a decimal point or separator longer than this (MB_LEN_MAX).
const MB_LEN_MAX: usize = 16;

/// LC_NUMERIC's number punctuation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Numeric {
    /// `.` unless the locale has a usable one (`,` in de_DE).
    pub decimal_point: Vec<u8>,
    /// Empty in the C locale; U+202F in ru_RU.UTF-8.
    pub thousands_sep: Vec<u8>,
    /// Group sizes from the right, as `localeconv`'s `grouping` (0 repeats
    /// the last size, CHAR_MAX ends grouping).
    pub grouping: Vec<u8>,
}

/// The punctuation of the locale set at start-up, read once.
pub fn numeric() -> &'static Numeric {
    static NUMERIC: std::sync::OnceLock<Numeric> = std::sync::OnceLock::new();
    NUMERIC.get_or_init(|| {
        // SAFETY: localeconv returns static data valid until the next
        // setlocale/localeconv; every string is copied at once, and a null
        // pointer is treated as empty.
        let (point, sep, grouping) = unsafe {
            let lc = libc::localeconv();
            if lc.is_null() {
                (Vec::new(), Vec::new(), Vec::new())
            } else {
                let get = |p: *const libc::c_char| {
                    if p.is_null() {
                        Vec::new()
                    } else {
                        CStr::from_ptr(p).to_bytes().to_vec()
                    }
                };
                (
                    get((*lc).decimal_point),
                    get((*lc).thousands_sep),
                    get((*lc).grouping),
                )
            }
        };
        Numeric {
            decimal_point: if (1..=MB_LEN_MAX).contains(&point.len()) {
                point
            } else {
                b".".to_vec()
            },
            thousands_sep: if sep.len() <= MB_LEN_MAX {
                sep
            } else {
                Vec::new()
            },
            grouping,
        }
    })
}
