//! GNU's words for what goes wrong while reading options and environment,
//! through the system's `coreutils` catalog (the English text is the key,
//! so C and untranslated locales print GNU's English byte for byte).
#![forbid(unsafe_code)]

use crate::format::quote::quote_locale;
use crate::format::size::BlockSizeError;
use crate::format::time::TimeStyleError;
use crate::sys::charset::Charset;
use crate::sys::intl::{msg, msg_gnulib, tr};

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
    msg_gnulib(key, &[b"--", b"block-size", arg])
}

/// gnulib's xstrtol_fatal for a number that is not one, as GNU words it
/// for `--block-size=bogus`: `invalid --OPTION argument 'ARG'`, the
/// argument unquoted (a translation may quote it).
pub fn invalid_argument(option: &str, arg: &[u8]) -> Vec<u8> {
    msg_gnulib(
        "invalid %s%s argument '%s'",
        &[b"--", option.as_bytes(), arg],
    )
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
    let mut m = msg_gnulib(
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

#[cfg(test)]
mod tests {
    use super::*;

    // Unit tests run in the C locale: the keys come back as GNU's English.

    #[test]
    fn block_size_errors_keep_the_argument_unquoted() {
        let e = |m: &str| BlockSizeError(m.to_string());
        assert_eq!(
            block_size(&e("invalid suffix in --block-size argument '3x'"), b"3x"),
            b"invalid suffix in --block-size argument '3x'".to_vec()
        );
        assert_eq!(
            block_size(&e("invalid --block-size argument '0'"), b"0"),
            b"invalid --block-size argument '0'".to_vec()
        );
        assert_eq!(
            block_size(&e("--block-size argument '9' too large"), b"9\xff"),
            b"--block-size argument '9\xff' too large".to_vec()
        );
    }

    #[test]
    fn time_style_errors_name_the_style_without_posix_prefixes() {
        let bad = TimeStyleError("invalid argument 'x' for 'time style'".to_string());
        let m = time_style(&bad, b"posix-posix-x", Charset::C);
        assert!(m.starts_with(b"invalid argument 'x' for 'time style'\nValid arguments are:\n"));
        assert!(m.ends_with(b"  - +FORMAT (e.g., +%H:%M) for a 'date'-style format"));
        let fmt = TimeStyleError("invalid time style format '+a'".to_string());
        assert_eq!(
            time_style(&fmt, b"+a\nb\nc", Charset::Utf8),
            "invalid time style format \u{2018}a\\nb\\nc\u{2019}"
                .as_bytes()
                .to_vec()
        );
    }

    #[test]
    fn an_invalid_timeout_is_worded_as_an_invalid_block_size() {
        assert_eq!(
            invalid_argument("timeout", b"bogus"),
            b"invalid --timeout argument 'bogus'".to_vec()
        );
        assert_eq!(
            invalid_argument("block-size", b"x"),
            block_size(&BlockSizeError("invalid".to_string()), b"x")
        );
    }

    #[test]
    fn labels_and_try_line() {
        assert_eq!(
            labelled("invalid line width", b"x'", Charset::C),
            b"invalid line width: 'x\\''".to_vec()
        );
        assert_eq!(
            try_help(b"ls"),
            b"Try 'ls --help' for more information.\n".to_vec()
        );
    }
}
