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

/// How names are quoted: built once from the configuration.
#[derive(Clone, Debug)]
pub struct Quoter {
    pub style: QuotingStyle,
    /// `-q`: replace non-printable characters by `?` (where the style
    /// does not escape them).
    pub hide_control_chars: bool,
    /// The locale's character set is UTF-8.
    pub utf8: bool,
}

/// What quoting one name produced, beyond its bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Quoted {
    /// Display width in terminal columns.
    pub width: usize,
    /// The output starts with a quote character (GNU aligns the other
    /// names one space to the right when some names in a listing are quoted
    /// this way).
    pub starts_with_quote: bool,
}

impl Quoter {
    pub fn new(style: QuotingStyle, hide_control_chars: bool, utf8: bool) -> Quoter {
        Quoter { style, hide_control_chars, utf8 }
    }

    /// Appends the quoted form of `name` to `out`.
    pub fn quote(&self, name: &[u8], out: &mut Vec<u8>) -> Quoted {
        out.extend_from_slice(name);
        Quoted { width: name.len(), starts_with_quote: false }
    }
}

/// A name as GNU quotes it inside diagnostics (`cannot access 'x'`).
pub fn quote_diagnostic(name: &[u8]) -> Vec<u8> {
    let mut v = vec![b'\''];
    v.extend_from_slice(name);
    v.push(b'\'');
    v
}

/// A string as GNU quotes it in messages about arguments (`invalid line
/// width: 'abc'`), with the locale's quotation marks.
pub fn quote_locale(s: &[u8], utf8: bool) -> Vec<u8> {
    let _ = utf8;
    quote_diagnostic(s)
}
