//! File name quoting: every `--quoting-style`, `-b`/`-q`/`-N`/`-Q`, and the
//! display width of the result, matching GNU ls 9.1 byte for byte
//! (including its quirks, such as `"it's"` and the stray `''` that
//! shell-escape styles emit for some names containing `'`).
#![forbid(unsafe_code)]

mod charset;
mod messages;
mod styles;
mod table;
#[cfg(test)]
mod tests;

pub use messages::{quote_diagnostic, quote_locale, quote_when_needed};

use crate::options::{Format, IndicatorStyle, QuotingStyle};

/// Whether GNU ls indents the unquoted names of a listing by one space
/// when at least one name of that listing (one directory, or the file
/// operands) starts with a quote: styles shell, shell-escape and c-maybe,
/// in the long format always, in `-C`/`-x` only with a line width
/// (`-w 0` turns it off), never with `-1` or `-m`. The space goes before
/// any colour escape, and counts in the column width.
pub fn listing_aligns_quotes(style: QuotingStyle, format: Format, line_width: usize) -> bool {
    style.aligns_quotes()
        && match format {
            Format::Long => true,
            Format::Vertical | Format::Horizontal => line_width != 0,
            Format::OneLine | Format::Commas => false,
        }
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
    /// ASCII characters the style must quote in addition to its own:
    /// bit `n` stands for byte `n`. GNU ls adds the indicator characters
    /// of `--file-type` (`*=>@|`) and `-F` (`=>@|`) to file names, and `:`
    /// to directory headings. They get a backslash in the c, escape,
    /// locale and clocale styles and force quotes in the shell and c-maybe
    /// styles.
    pub extra: u128,
    /// Quoting a directory heading: GNU escapes spaces in file names in
    /// the escape style, but not in headings.
    pub heading: bool,
}

/// What quoting one name produced, beyond its bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Quoted {
    /// Display width in terminal columns (glibc's wcwidth in UTF-8
    /// locales; in the C locale the count of printable ASCII bytes).
    pub width: usize,
    /// Quoting changed the name (for the styles where
    /// [`QuotingStyle::aligns_quotes`] is true, this means it starts with
    /// `'` or `"`). GNU ls aligns the other names one space to the right
    /// when some names in a listing are quoted this way.
    pub starts_with_quote: bool,
}

/// Bit mask of one ASCII byte, for [`Quoter::extra`].
const fn bit(b: u8) -> u128 {
    1u128 << (b & 0x7f)
}

/// Bit mask of several ASCII bytes.
const fn bits(s: &[u8]) -> u128 {
    let mut m = 0;
    let mut i = 0;
    while i < s.len() {
        m |= bit(s[i]);
        i += 1;
    }
    m
}

/// Letters, digits and the punctuation no style ever touches.
const PLAIN: u128 = bits(b"%+,-./:@]_") | range(b'0', b'9') | range(b'A', b'Z') | range(b'a', b'z');

const fn range(lo: u8, hi: u8) -> u128 {
    let mut m = 0;
    let mut b = lo;
    while b <= hi {
        m |= bit(b);
        b += 1;
    }
    m
}

impl Quoter {
    pub fn new(style: QuotingStyle, hide_control_chars: bool, utf8: bool) -> Quoter {
        Quoter {
            style,
            hide_control_chars,
            utf8,
            extra: 0,
            heading: false,
        }
    }

    /// The quoter GNU ls uses for file names (and symlink targets) of a
    /// listing with this indicator style: `--file-type` and `-F` make the
    /// indicator characters special (see [`Quoter::extra`]).
    pub fn for_names(style: QuotingStyle, hide: bool, utf8: bool, ind: IndicatorStyle) -> Quoter {
        let extra = match ind {
            IndicatorStyle::FileType => bits(b"*=>@|"),
            IndicatorStyle::Classify => bits(b"=>@|"),
            IndicatorStyle::None | IndicatorStyle::Slash => 0,
        };
        Quoter {
            extra,
            ..Quoter::new(style, hide, utf8)
        }
    }

    /// The quoter for directory headings (`dir:` before a directory's
    /// listing with `-R` or several operands): the same style, with `:`
    /// special and without the indicator characters.
    pub fn for_heading(&self) -> Quoter {
        Quoter {
            extra: bit(b':'),
            heading: true,
            ..self.clone()
        }
    }

    /// Appends the quoted form of `name` to `out`.
    pub fn quote(&self, name: &[u8], out: &mut Vec<u8>) -> Quoted {
        let mut safe = styles::safe_bytes(self.style) & !self.extra;
        if self.heading && self.style == QuotingStyle::Escape {
            safe |= bit(b' ');
        }
        // An empty name goes the long way: the shell styles quote it.
        if !name.is_empty() && name.iter().all(|&b| b < 0x80 && safe & bit(b) != 0) {
            return self.quote_plain(name, out);
        }
        let start = out.len();
        let starts_with_quote = styles::quote_into(self, name, out);
        let width = if self.hide_control_chars {
            charset::hide_unprintable(out, start, self.utf8)
        } else {
            charset::raw_width(out.get(start..).unwrap_or_default(), self.utf8)
        };
        Quoted {
            width,
            starts_with_quote,
        }
    }

    /// Fast path: printable ASCII that the style leaves alone.
    fn quote_plain(&self, name: &[u8], out: &mut Vec<u8>) -> Quoted {
        let (open, close) = styles::always_quotes(self.style, self.utf8);
        out.reserve(name.len() + open.len() + close.len());
        out.extend_from_slice(open);
        out.extend_from_slice(name);
        out.extend_from_slice(close);
        let quotes = usize::from(!open.is_empty()) + usize::from(!close.is_empty());
        Quoted {
            width: name.len() + quotes,
            starts_with_quote: !open.is_empty(),
        }
    }

    /// Convenience: the quoted bytes alone.
    pub fn quote_to_vec(&self, name: &[u8]) -> Vec<u8> {
        let mut v = Vec::with_capacity(name.len() + 2);
        self.quote(name, &mut v);
        v
    }
}
