//! File name quoting: every `--quoting-style`, `-b`/`-q`/`-N`/`-Q`, and the
//! display width of the result.
#![forbid(unsafe_code)]

/// `--quoting-style` values.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum QuotingStyle {
    Literal,
    Shell,
    ShellAlways,
    ShellEscape,
    ShellEscapeAlways,
    C,
    CMaybe,
    Escape,
    Locale,
    CLocale,
}
