//! Display width of text that is not a file name (user names, sizes, times).
#![forbid(unsafe_code)]

use unicode_width::UnicodeWidthStr;

/// Columns taken by `text`: its Unicode width when it is valid UTF-8,
/// otherwise its byte count.
pub fn text_width(text: &[u8]) -> usize {
    if text.is_ascii() {
        return text.len();
    }
    match std::str::from_utf8(text) {
        Ok(s) => s.width(),
        Err(_) => text.len(),
    }
}
