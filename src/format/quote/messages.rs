//! How names and arguments appear inside diagnostics.
#![forbid(unsafe_code)]

use super::Quoter;
use crate::options::QuotingStyle;

/// A file name as GNU ls quotes it inside diagnostics (`cannot access
/// 'x'`, `cannot open directory 'x'`): always the shell-escape-always
/// style, whatever `--quoting-style` says, never `?` for control
/// characters; printable UTF-8 stays as is only in UTF-8 locales.
pub fn quote_diagnostic(name: &[u8], utf8: bool) -> Vec<u8> {
    Quoter::new(QuotingStyle::ShellEscapeAlways, false, utf8).quote_to_vec(name)
}

/// A file name as GNU's `quotef` quotes it where it starts a message
/// (`ls: NAME: error`, `NAME: not listing already-listed directory`):
/// quoted only when needed (shell-escape style), a `:` counting as needing
/// it.
pub fn quote_when_needed(name: &[u8], utf8: bool) -> Vec<u8> {
    Quoter {
        extra: super::bit(b':'),
        ..Quoter::new(QuotingStyle::ShellEscape, false, utf8)
    }
    .quote_to_vec(name)
}

/// An argument as GNU ls quotes it in messages about invalid arguments
/// (`invalid line width: 'abc'`): the locale style, `‘abc’` in UTF-8
/// locales and `'abc'` otherwise, with C escapes.
pub fn quote_locale(s: &[u8], utf8: bool) -> Vec<u8> {
    Quoter::new(QuotingStyle::Locale, false, utf8).quote_to_vec(s)
}
