//! Display width of text that is not a file name (owner and group names,
//! security contexts), as GNU's `mbswidth(s, 0)` counts it in LC_CTYPE's
//! character set: the C library's `wcwidth` (not Unicode's tables, which
//! differ from glibc's for a few hundred characters); in a single-byte
//! locale a byte per column unless it is a control character.
#![forbid(unsafe_code)]

/// Columns taken by `text`.
pub fn text_width(text: &[u8]) -> usize {
    crate::sys::mbwidth::text_columns(text)
}
