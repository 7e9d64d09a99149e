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
pub use styles::{with_fresh_shell_second_pass, without_gb18030_quotes};

use crate::options::{Format, IndicatorStyle, QuotingStyle};
use crate::sys::charset::Charset;

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
    /// The locale's character set (LC_CTYPE).
    pub charset: Charset,
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
    /// A name shown with characters that cannot be measured (controls,
    /// invalid or unfinished sequences, characters without a width) in a
    /// multibyte locale has no width: `usize::MAX`, GNU's `(size_t) -1`
    /// from the `mbsnwidth` of 9.5 on, which the layouts then add as GNU does.
    /// Before 9.5 such characters counted 0 or 1 column each.
    pub unmeasurable: bool,
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
    pub fn new(
        style: QuotingStyle,
        hide_control_chars: bool,
        charset: impl Into<Charset>,
    ) -> Quoter {
        Quoter {
            style,
            hide_control_chars,
            charset: charset.into(),
            extra: 0,
            heading: false,
            unmeasurable: false,
        }
    }

    /// The quoter GNU ls uses for file names (and symlink targets) of a
    /// listing with this indicator style: `--file-type` and `-F` make the
    /// indicator characters special (see [`Quoter::extra`]).
    pub fn for_names(
        style: QuotingStyle,
        hide: bool,
        charset: impl Into<Charset>,
        ind: IndicatorStyle,
    ) -> Quoter {
        let extra = match ind {
            IndicatorStyle::FileType => bits(b"*=>@|"),
            IndicatorStyle::Classify => bits(b"=>@|"),
            IndicatorStyle::None | IndicatorStyle::Slash => 0,
        };
        Quoter {
            extra,
            ..Quoter::new(style, hide, charset)
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
        if !name.is_empty()
            && name.iter().all(|&b| b < 0x80 && safe & bit(b) != 0)
            && !self.close_quote_in(name)
        {
            return self.quote_plain(name, out);
        }
        let start = out.len();
        let starts_with_quote = styles::quote_into(self, name, out);
        // GNU ls puts `?` for what is left unprintable only after the
        // styles that escape nothing (literal, shell, shell-always); after
        // the others `-q` changes nothing, and the width is mbsnwidth's.
        let replaces = matches!(
            self.style,
            QuotingStyle::Literal | QuotingStyle::Shell | QuotingStyle::ShellAlways
        );
        let width = if self.hide_control_chars && replaces {
            charset::hide_unprintable(out, start, self.charset)
        } else {
            let shown = out.get(start..).unwrap_or_default();
            if self.unmeasurable {
                charset::measured_width(shown, self.charset).unwrap_or(usize::MAX)
            } else {
                charset::raw_width(shown, self.charset)
            }
        };
        Quoted {
            width,
            starts_with_quote,
        }
    }

    /// Appends the quoted form of `name` to `out` where only its bytes are
    /// wanted, not its width: a literal name goes out as it is (unless
    /// `-q` hides characters), without being measured.
    pub fn quote_bytes(&self, name: &[u8], out: &mut Vec<u8>) {
        if self.style == QuotingStyle::Literal && !self.hide_control_chars {
            out.extend_from_slice(name);
        } else {
            self.quote(name, out);
        }
    }

    /// The locale styles escape their closing quote wherever its bytes
    /// occur; a translation's quote may be plain ASCII (`>>` in KOI8-R).
    fn close_quote_in(&self, name: &[u8]) -> bool {
        if !matches!(self.style, QuotingStyle::Locale | QuotingStyle::CLocale) {
            return false;
        }
        let (_, close) = styles::always_quotes(self.style, self.charset);
        !close.is_empty() && name.windows(close.len()).any(|w| w == close)
    }

    /// Fast path: printable ASCII that the style leaves alone.
    fn quote_plain(&self, name: &[u8], out: &mut Vec<u8>) -> Quoted {
        let (open, close) = styles::always_quotes(self.style, self.charset);
        out.reserve(name.len() + open.len() + close.len());
        out.extend_from_slice(open);
        out.extend_from_slice(name);
        out.extend_from_slice(close);
        let quotes = match (open, close) {
            ([] | [_], [] | [_]) => Some(open.len() + close.len()),
            // The GB18030 fallback quote before 9.10 holds a BEL: such a name is
            // unmeasurable, as any other holding a control.
            _ if self.unmeasurable => charset::measured_width(open, self.charset)
                .zip(charset::measured_width(close, self.charset))
                .map(|(o, c)| o + c),
            _ => Some(
                charset::raw_width(open, self.charset) + charset::raw_width(close, self.charset),
            ),
        };
        Quoted {
            width: quotes.map_or(usize::MAX, |q| name.len() + q),
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
