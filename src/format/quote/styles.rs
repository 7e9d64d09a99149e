//! The quoting styles proper (what gnulib's quotearg produces for GNU ls),
//! before `-q` replaces what is left unprintable.
#![forbid(unsafe_code)]

use super::charset::{next_unit, Kind};
use super::{bit, bits, range, Quoter, PLAIN};
use crate::options::QuotingStyle;
use crate::sys::charset::Charset;
use crate::sys::intl;

const PRINTABLE: u128 = range(0x20, 0x7e);

/// Shell metacharacters: any of them makes the shell styles quote.
const SHELL_SPECIAL: u128 = bits(b" !\"$&'()*;<=>?[\\^`|\t\n\r");

/// Characters for which C and shell quoting agree: a name made only of
/// these and `'` is written in double quotes ("it's").
const SHELL_C_COMPAT: u128 = PLAIN | bits(b" '");

/// ASCII bytes that `style` copies unchanged and that never make a
/// quote-when-needed style add quotes: names made only of these take the
/// fast path.
pub(super) fn safe_bytes(style: QuotingStyle) -> u128 {
    match style {
        QuotingStyle::Literal => PRINTABLE,
        QuotingStyle::Shell | QuotingStyle::ShellEscape => PLAIN,
        QuotingStyle::ShellAlways | QuotingStyle::ShellEscapeAlways => PRINTABLE & !bit(b'\''),
        QuotingStyle::C => PRINTABLE & !bits(b"\"\\"),
        QuotingStyle::CMaybe => PRINTABLE & !bits(b"\"\\"),
        QuotingStyle::Escape => PRINTABLE & !bits(b" \\"),
        QuotingStyle::Locale | QuotingStyle::CLocale => PRINTABLE & !bits(b"\"'\\"),
    }
}

/// The quotes that `style` puts around every name (none for the styles
/// that quote only when needed).
pub(super) fn always_quotes(
    style: QuotingStyle,
    charset: Charset,
) -> (&'static [u8], &'static [u8]) {
    match style {
        QuotingStyle::ShellAlways | QuotingStyle::ShellEscapeAlways => (b"'", b"'"),
        QuotingStyle::C => (b"\"", b"\""),
        QuotingStyle::Locale | QuotingStyle::CLocale => {
            let (open, close) = catalog_quotes();
            let clocale = style == QuotingStyle::CLocale;
            (
                open.unwrap_or_else(|| fallback_quote(true, charset, clocale)),
                close.unwrap_or_else(|| fallback_quote(false, charset, clocale)),
            )
        }
        _ => (b"", b""),
    }
}

/// The catalog's translations of gnulib's opening (`` ` ``) and closing
/// (`'`) quote, looked up once (in LC_MESSAGES, converted to LC_CTYPE's
/// codeset by gettext): „“ in de, « » in fr, `<<`/`>>` in ru_RU.KOI8-R.
fn catalog_quotes() -> (Option<&'static [u8]>, Option<&'static [u8]>) {
    type Pair = (Option<&'static [u8]>, Option<&'static [u8]>);
    static QUOTES: std::sync::OnceLock<Pair> = std::sync::OnceLock::new();
    *QUOTES.get_or_init(|| {
        let leak = |v: Vec<u8>| -> &'static [u8] { Box::leak(v.into_boxed_slice()) };
        (
            intl::tr_opt_gnulib("`").map(leak),
            intl::tr_opt_gnulib("'").map(leak),
        )
    })
}

/// Whether gnulib's fallback quotes have a GB18030 case (until 9.10):
/// set once at start-up for the release emulated.
static GB18030_QUOTES: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(true);

/// Whether the second pass of shell quoting starts afresh (9.6): set
/// once at start-up for the release emulated.
static FRESH_SECOND_PASS: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Makes shell quoting's second pass start afresh, as gnulib's fix of
/// 9.6 did: a name with `'` that starts or ends with an escaped character
/// is then written as the first pass wrote it.
pub fn with_fresh_shell_second_pass() {
    FRESH_SECOND_PASS.store(true, std::sync::atomic::Ordering::Relaxed);
}

/// Drops the GB18030 case of the fallback quotes, as 9.10's gnulib did.
pub fn without_gb18030_quotes() {
    GB18030_QUOTES.store(false, std::sync::atomic::Ordering::Relaxed);
}

/// gnulib's quotes when the catalog has none: ‘’ in UTF-8, in GB18030 its
/// curved quotes (the opening one spelled `"\xa1\ae"` in gnulib's source,
/// so the bytes A1 07 65) until 9.10, else `"` (clocale) or `'` (locale).
fn fallback_quote(open: bool, charset: Charset, clocale: bool) -> &'static [u8] {
    let gb18030 = GB18030_QUOTES.load(std::sync::atomic::Ordering::Relaxed);
    match (charset, open) {
        (Charset::Utf8, true) => "\u{2018}".as_bytes(),
        (Charset::Utf8, false) => "\u{2019}".as_bytes(),
        (Charset::Multibyte { gb18030: true }, true) if gb18030 => b"\xa1\x07e",
        (Charset::Multibyte { gb18030: true }, false) if gb18030 => b"\xa1\xaf",
        _ if clocale => b"\"",
        _ => b"'",
    }
}

/// Appends the quoted form of `name`; returns whether quotes were put
/// around it.
pub(super) fn quote_into(q: &Quoter, name: &[u8], out: &mut Vec<u8>) -> bool {
    match q.style {
        QuotingStyle::Literal => {
            out.extend_from_slice(name);
            false
        }
        QuotingStyle::Shell | QuotingStyle::ShellEscape => {
            let esc = q.style == QuotingStyle::ShellEscape;
            // An empty name is `''`, as a shell needs it.
            if name.is_empty() || shell_needs_quotes(name, esc, q.charset, q.extra) {
                // Once quotes are forced, GNU forgets the extra characters.
                shell_always(name, esc, q.charset, 0, out);
                true
            } else {
                out.extend_from_slice(name);
                false
            }
        }
        QuotingStyle::ShellAlways => {
            shell_always(name, false, q.charset, q.extra, out);
            true
        }
        QuotingStyle::ShellEscapeAlways => {
            shell_always(name, true, q.charset, q.extra, out);
            true
        }
        QuotingStyle::CMaybe => {
            if c_needs_quotes(name, q.charset, q.extra) {
                backslashed(name, b"\"", b"\"", 0, q.charset, out);
                true
            } else {
                out.extend_from_slice(name);
                false
            }
        }
        QuotingStyle::Escape => {
            let space = if q.heading { 0 } else { bit(b' ') };
            backslashed(name, b"", b"", q.extra | space, q.charset, out);
            false
        }
        QuotingStyle::C | QuotingStyle::Locale | QuotingStyle::CLocale => {
            let (open, close) = always_quotes(q.style, q.charset);
            backslashed(name, open, close, q.extra, q.charset, out);
            true
        }
    }
}

/// Iterates over the units (characters, or bytes that are none) of a name.
fn units(name: &[u8], charset: Charset) -> impl Iterator<Item = (&[u8], Kind)> {
    positioned_units(name, charset).map(|(_, unit, kind)| (unit, kind))
}

/// [`units`] with the offset of each unit.
fn positioned_units(name: &[u8], charset: Charset) -> impl Iterator<Item = (usize, &[u8], Kind)> {
    let mut at = 0;
    std::iter::from_fn(move || {
        let rest = name.get(at..).filter(|r| !r.is_empty())?;
        let (len, kind) = next_unit(rest, charset);
        let unit = rest.get(..len.min(rest.len())).unwrap_or(rest);
        let start = at;
        at += unit.len();
        Some((start, unit, kind))
    })
}

/// Whether the shell / shell-escape styles must quote `name`.
fn shell_needs_quotes(name: &[u8], esc: bool, charset: Charset, extra: u128) -> bool {
    if let [b'{' | b'}'] = name {
        return true;
    }
    if let Some(b'#' | b'~') = name.first() {
        return true;
    }
    let special = SHELL_SPECIAL | extra;
    units(name, charset).any(|(unit, kind)| match unit {
        [b] if *b < 0x80 => special & bit(*b) != 0 || (esc && !kind.printable()),
        _ => esc && !kind.printable(),
    })
}

/// Whether c-maybe must quote `name`.
fn c_needs_quotes(name: &[u8], charset: Charset, extra: u128) -> bool {
    let special = bit(b'"') | extra;
    units(name, charset).any(|(unit, kind)| match unit {
        [b] if *b < 0x80 => special & bit(*b) != 0 || !kind.printable(),
        _ => !kind.printable(),
    })
}

/// shell-always and shell-escape-always: `'...'`, a `'` inside written
/// `'\''`, and (escape) unprintable characters in `$'...'` segments.
///
/// A name with `'` whose characters all mean the same to C and the shell
/// is written in C style instead (`"it's"`), where the extra characters
/// get a backslash.
fn shell_always(name: &[u8], esc: bool, charset: Charset, extra: u128, out: &mut Vec<u8>) {
    let mark = out.len();
    let pending = shell_scan(name, esc, charset, false, out);
    if !name.contains(&b'\'') {
        return;
    }
    if all_c_compatible(name, charset) {
        out.truncate(mark);
        backslashed(name, b"\"", b"\"", extra, charset, out);
    } else if pending && !FRESH_SECOND_PASS.load(std::sync::atomic::Ordering::Relaxed) {
        // Until 9.6 GNU scans the name a second time without resetting
        // whether a `$'...'` segment is open; a name ending inside one thus
        // gets an extra `''` before its first printable character (9.6's
        // second pass starts afresh and writes what the first did).
        out.truncate(mark);
        shell_scan(name, esc, charset, true, out);
    }
}

/// Whether C quoting writes `name` as the shell would read it in double
/// quotes: only letters, digits, `%+,-./:@]_`, space, `'`, a leading `#`
/// or `~`, and (UTF-8) printable non-ASCII characters.
fn all_c_compatible(name: &[u8], charset: Charset) -> bool {
    let leading = matches!(name.first(), Some(b'#' | b'~'));
    let rest = name.get(usize::from(leading)..).unwrap_or_default();
    units(rest, charset).all(|(unit, kind)| match unit {
        [b] if *b < 0x80 => SHELL_C_COMPAT & bit(*b) != 0,
        _ => kind.printable(),
    })
}

/// One pass of shell-always quoting; returns whether a `$'...'` segment
/// was open at the end.
fn shell_scan(
    name: &[u8],
    esc: bool,
    charset: Charset,
    mut pending: bool,
    out: &mut Vec<u8>,
) -> bool {
    out.push(b'\'');
    for (unit, kind) in units(name, charset) {
        if unit == b"'" {
            out.extend_from_slice(b"'\\''");
            pending = false;
        } else if esc && !kind.printable() {
            if !pending {
                out.extend_from_slice(b"'$'");
                pending = true;
            }
            unit.iter().for_each(|&b| escape_byte(b, out));
        } else {
            if pending {
                out.extend_from_slice(b"''");
                pending = false;
            }
            out.extend_from_slice(unit);
        }
    }
    out.push(b'\'');
    pending
}

/// c, c-maybe (once quoting), escape, locale and clocale: backslash
/// escapes between `open` and `close`. gnulib looks for the bytes of the
/// closing quote at the start of each character, so a multi-character
/// quote such as `>>` is escaped where it begins.
fn backslashed(
    name: &[u8],
    open: &[u8],
    close: &[u8],
    extra: u128,
    charset: Charset,
    out: &mut Vec<u8>,
) {
    out.extend_from_slice(open);
    let special = extra | bit(b'\\');
    for (at, unit, kind) in positioned_units(name, charset) {
        let closes = !close.is_empty() && name.get(at..).is_some_and(|r| r.starts_with(close));
        if !kind.printable() {
            if closes {
                out.push(b'\\');
            }
            unit.iter().for_each(|&b| escape_byte(b, out));
            continue;
        }
        let needs_backslash = match unit {
            [b] if *b < 0x80 => special & bit(*b) != 0,
            _ => false,
        } || closes;
        if needs_backslash {
            out.push(b'\\');
        }
        out.extend_from_slice(unit);
    }
    out.extend_from_slice(close);
}

/// A C escape for one unprintable byte: `\n` and friends, else octal.
fn escape_byte(b: u8, out: &mut Vec<u8>) {
    let letter = match b {
        0x07 => b'a',
        0x08 => b'b',
        0x09 => b't',
        0x0a => b'n',
        0x0b => b'v',
        0x0c => b'f',
        0x0d => b'r',
        _ => {
            out.extend_from_slice(&[
                b'\\',
                b'0' + (b >> 6),
                b'0' + ((b >> 3) & 7),
                b'0' + (b & 7),
            ]);
            return;
        }
    };
    out.extend_from_slice(&[b'\\', letter]);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn locale_style(name: &[u8], open: &[u8], close: &[u8], charset: Charset) -> Vec<u8> {
        let mut out = Vec::new();
        backslashed(name, open, close, 0, charset, &mut out);
        out
    }

    #[test]
    fn a_closing_quote_of_several_bytes_is_escaped_where_it_starts() {
        // ru_RU.KOI8-R: the catalog's « » become << >> there.
        assert_eq!(
            locale_style(b"a>>b>", b"<<", b">>", Charset::C),
            b"<<a\\>>b>>>".to_vec()
        );
        assert_eq!(
            locale_style(b"x>>>", b"<<", b">>", Charset::C),
            b"<<x\\>\\>>>>".to_vec()
        );
    }

    #[test]
    fn a_closing_quote_inside_a_character_is_not_one() {
        // In UTF-8 the quote \u{2019} is one character.
        let close = "\u{2019}".as_bytes();
        let name = "it\u{2019}s".as_bytes();
        let want = "\u{2018}it\\\u{2019}s\u{2019}".as_bytes().to_vec();
        assert_eq!(
            locale_style(name, "\u{2018}".as_bytes(), close, Charset::Utf8),
            want
        );
    }

    #[test]
    fn gnulib_fallback_quotes_without_a_catalog() {
        let utf8 = (
            fallback_quote(true, Charset::Utf8, false),
            fallback_quote(false, Charset::Utf8, true),
        );
        assert_eq!(utf8, ("\u{2018}".as_bytes(), "\u{2019}".as_bytes()));
        let gb = Charset::Multibyte { gb18030: true };
        // gnulib's source spells the opening one "\xa1\ae": A1 07 65, as
        // GNU ls 9.1 prints it with LC_MESSAGES=C.
        assert_eq!(fallback_quote(true, gb, false), b"\xa1\x07e");
        assert_eq!(fallback_quote(false, gb, true), b"\xa1\xaf");
        assert_eq!(fallback_quote(true, Charset::C, false), b"'");
        assert_eq!(fallback_quote(false, Charset::C, true), b"\"");
        let euc = Charset::Multibyte { gb18030: false };
        assert_eq!(fallback_quote(false, euc, false), b"'");
    }
}
