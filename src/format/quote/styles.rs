//! The quoting styles proper (what gnulib's quotearg produces for GNU ls),
//! before `-q` replaces what is left unprintable.
#![forbid(unsafe_code)]

use super::charset::{next_unit, Kind};
use super::{bit, bits, range, Quoter, PLAIN};
use crate::options::QuotingStyle;

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
pub(super) fn always_quotes(style: QuotingStyle, utf8: bool) -> (&'static [u8], &'static [u8]) {
    match style {
        QuotingStyle::ShellAlways | QuotingStyle::ShellEscapeAlways => (b"'", b"'"),
        QuotingStyle::C => (b"\"", b"\""),
        QuotingStyle::Locale | QuotingStyle::CLocale if utf8 => {
            ("\u{2018}".as_bytes(), "\u{2019}".as_bytes())
        }
        QuotingStyle::Locale => (b"'", b"'"),
        QuotingStyle::CLocale => (b"\"", b"\""),
        _ => (b"", b""),
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
            if name.is_empty() || shell_needs_quotes(name, esc, q.utf8, q.extra) {
                // Once quotes are forced, GNU forgets the extra characters.
                shell_always(name, esc, q.utf8, 0, out);
                true
            } else {
                out.extend_from_slice(name);
                false
            }
        }
        QuotingStyle::ShellAlways => {
            shell_always(name, false, q.utf8, q.extra, out);
            true
        }
        QuotingStyle::ShellEscapeAlways => {
            shell_always(name, true, q.utf8, q.extra, out);
            true
        }
        QuotingStyle::CMaybe => {
            if c_needs_quotes(name, q.utf8, q.extra) {
                backslashed(name, b"\"", b"\"", 0, q.utf8, out);
                true
            } else {
                out.extend_from_slice(name);
                false
            }
        }
        QuotingStyle::Escape => {
            let space = if q.heading { 0 } else { bit(b' ') };
            backslashed(name, b"", b"", q.extra | space, q.utf8, out);
            false
        }
        QuotingStyle::C | QuotingStyle::Locale | QuotingStyle::CLocale => {
            let (open, close) = always_quotes(q.style, q.utf8);
            backslashed(name, open, close, q.extra, q.utf8, out);
            true
        }
    }
}

/// Iterates over the units (characters, or bytes that are none) of a name.
fn units(name: &[u8], utf8: bool) -> impl Iterator<Item = (&[u8], Kind)> {
    let mut rest = name;
    std::iter::from_fn(move || {
        if rest.is_empty() {
            return None;
        }
        let (len, kind) = next_unit(rest, utf8);
        let (unit, tail) = rest.split_at(len.min(rest.len()));
        rest = tail;
        Some((unit, kind))
    })
}

/// Whether the shell / shell-escape styles must quote `name`.
fn shell_needs_quotes(name: &[u8], esc: bool, utf8: bool, extra: u128) -> bool {
    if let [b'{' | b'}'] = name {
        return true;
    }
    if let Some(b'#' | b'~') = name.first() {
        return true;
    }
    let special = SHELL_SPECIAL | extra;
    units(name, utf8).any(|(unit, kind)| match unit {
        [b] if *b < 0x80 => special & bit(*b) != 0 || (esc && !kind.printable()),
        _ => esc && !kind.printable(),
    })
}

/// Whether c-maybe must quote `name`.
fn c_needs_quotes(name: &[u8], utf8: bool, extra: u128) -> bool {
    let special = bit(b'"') | extra;
    units(name, utf8).any(|(unit, kind)| match unit {
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
fn shell_always(name: &[u8], esc: bool, utf8: bool, extra: u128, out: &mut Vec<u8>) {
    let mark = out.len();
    let pending = shell_scan(name, esc, utf8, false, out);
    if !name.contains(&b'\'') {
        return;
    }
    if all_c_compatible(name, utf8) {
        out.truncate(mark);
        backslashed(name, b"\"", b"\"", extra, utf8, out);
    } else if pending {
        // GNU scans the name a second time without resetting whether a
        // `$'...'` segment is open; a name ending inside one thus gets an
        // extra `''` before its first printable character.
        out.truncate(mark);
        shell_scan(name, esc, utf8, true, out);
    }
}

/// Whether C quoting writes `name` as the shell would read it in double
/// quotes: only letters, digits, `%+,-./:@]_`, space, `'`, a leading `#`
/// or `~`, and (UTF-8) printable non-ASCII characters.
fn all_c_compatible(name: &[u8], utf8: bool) -> bool {
    let leading = matches!(name.first(), Some(b'#' | b'~'));
    let rest = name.get(usize::from(leading)..).unwrap_or_default();
    units(rest, utf8).all(|(unit, kind)| match unit {
        [b] if *b < 0x80 => SHELL_C_COMPAT & bit(*b) != 0,
        _ => kind.printable(),
    })
}

/// One pass of shell-always quoting; returns whether a `$'...'` segment
/// was open at the end.
fn shell_scan(name: &[u8], esc: bool, utf8: bool, mut pending: bool, out: &mut Vec<u8>) -> bool {
    out.push(b'\'');
    for (unit, kind) in units(name, utf8) {
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
/// escapes between `open` and `close`.
fn backslashed(name: &[u8], open: &[u8], close: &[u8], extra: u128, utf8: bool, out: &mut Vec<u8>) {
    out.extend_from_slice(open);
    let special = extra | bit(b'\\');
    for (unit, kind) in units(name, utf8) {
        if !kind.printable() {
            unit.iter().for_each(|&b| escape_byte(b, out));
            continue;
        }
        let needs_backslash = match unit {
            [b] => special & bit(*b) != 0,
            _ => false,
        } || (!close.is_empty() && unit == close);
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
