//! GNU's words for what goes wrong while reading options and environment,
//! through the system's `coreutils` catalog (the English text is the key,
//! so C and untranslated locales print GNU's English byte for byte).
#![forbid(unsafe_code)]

use crate::format::quote::quote_locale;
use crate::format::size::BlockSizeError;
use crate::format::time::TimeStyleError;
use crate::sys::charset::Charset;
use crate::sys::intl::{msg, tr};

/// `Try 'ls --help' for more information.` with its newline.
pub fn try_help(program: &[u8]) -> Vec<u8> {
    msg("Try '%s --help' for more information.\n", &[program])
}

/// A message whose one placeholder is `arg` in the locale quoting style
/// (`ignoring invalid width in environment variable COLUMNS: %s`).
pub fn with_quoted(key: &str, arg: &[u8], charset: Charset) -> Vec<u8> {
    msg(key, &[&quote_locale(arg, charset)])
}

/// `invalid line width: 'x'` / `invalid tab size: 'x'`: GNU prints the
/// translated label, `: ` and the quoted argument.
pub fn labelled(label: &str, arg: &[u8], charset: Charset) -> Vec<u8> {
    let mut m = tr(label);
    m.extend_from_slice(b": ");
    m.extend_from_slice(&quote_locale(arg, charset));
    m
}

/// gnulib's xstrtol_fatal for `--block-size`: `invalid %s%s argument '%s'`
/// and its siblings, with the argument unquoted, as GNU prints it.
pub fn block_size(err: &BlockSizeError, arg: &[u8]) -> Vec<u8> {
    let key = if err.0.starts_with("invalid suffix") {
        "invalid suffix in %s%s argument '%s'"
    } else if err.0.starts_with("invalid") {
        "invalid %s%s argument '%s'"
    } else {
        "%s%s argument '%s' too large"
    };
    msg(key, &[b"--", b"block-size", arg])
}

/// The bad `--time-style`/`TIME_STYLE` message for `arg`, as GNU ls
/// prints it (the caller adds the "Try" line when `err` wants it):
/// gnulib's argmatch words for an unknown or ambiguous style followed by
/// ls's own list, or `invalid time style format` for a `+FORMAT` with a
/// second newline.
pub fn time_style(err: &TimeStyleError, arg: &[u8], charset: Charset) -> Vec<u8> {
    let mut style = arg;
    while let Some(rest) = style.strip_prefix(b"posix-") {
        style = rest;
    }
    if !err.wants_try_line() {
        let format = style.strip_prefix(b"+").unwrap_or(style);
        return with_quoted("invalid time style format %s", format, charset);
    }
    let key = if err.0.starts_with("ambiguous") {
        "ambiguous argument %s for %s"
    } else {
        "invalid argument %s for %s"
    };
    let mut m = msg(
        key,
        &[
            &quote_locale(style, charset),
            &quote_locale(b"time style", charset),
        ],
    );
    m.push(b'\n');
    m.extend_from_slice(&tr("Valid arguments are:\n"));
    for name in ["full-iso", "long-iso", "iso", "locale"] {
        m.extend_from_slice(format!("  - [posix-]{name}\n").as_bytes());
    }
    m.extend_from_slice(&tr(
        "  - +FORMAT (e.g., +%H:%M) for a 'date'-style format\n",
    ));
    // The caller's diagnostic adds the final newline.
    if m.last() == Some(&b'\n') {
        m.pop();
    }
    m
}
