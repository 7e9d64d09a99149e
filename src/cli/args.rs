//! Option arguments as GNU decodes them: enumerated words matched by unique
//! prefix (gnulib argmatch, synonyms allowed), and numbers read like
//! `xstrtoumax` with base 0 (`0x` hex, leading-0 octal, leading blanks).
#![forbid(unsafe_code)]

use crate::format::quote::quote_locale;
use crate::gnu::{Behaviour, Gnu};
use crate::options::{Format, IndicatorStyle, QuotingStyle, SortKey, TimeField, When};
use crate::sys::charset::Charset;
use crate::sys::intl::{msg_gnulib, strerror, tr, tr_gnulib};
use crate::sys::stat::CacheMode;

/// Why a word did not match.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MatchError {
    Invalid,
    Ambiguous,
}

/// gnulib's argmatch: an exact match, else the unique prefix match, where
/// several matches that all mean the same value count as one.
pub fn argmatch<T: Copy + PartialEq>(arg: &[u8], table: &[(&str, T)]) -> Result<T, MatchError> {
    if let Some((_, v)) = table.iter().find(|(w, _)| w.as_bytes() == arg) {
        return Ok(*v);
    }
    let mut found: Option<T> = None;
    for (w, v) in table {
        if !w.as_bytes().starts_with(arg) {
            continue;
        }
        match found {
            Some(f) if f != *v => return Err(MatchError::Ambiguous),
            _ => found = Some(*v),
        }
    }
    found.ok_or(MatchError::Invalid)
}

/// The "invalid argument" diagnostic with its list of valid words, without
/// the program name prefix; synonyms share a line.
pub fn argmatch_message<T: Copy + PartialEq>(
    err: MatchError,
    arg: &[u8],
    option: &str,
    table: &[(&str, T)],
    charset: impl Into<Charset>,
) -> Vec<u8> {
    let charset = charset.into();
    let key = match err {
        MatchError::Invalid => "invalid argument %s for %s",
        MatchError::Ambiguous => "ambiguous argument %s for %s",
    };
    let mut m = msg_gnulib(
        key,
        &[
            &quote_locale(arg, charset),
            &quote_locale(option.as_bytes(), charset),
        ],
    );
    m.push(b'\n');
    m.extend_from_slice(&tr_gnulib("Valid arguments are:"));
    let mut last: Option<T> = None;
    for (w, v) in table {
        if last == Some(*v) {
            m.extend_from_slice(b", ");
        } else {
            m.extend_from_slice(b"\n  - ");
            last = Some(*v);
        }
        m.extend_from_slice(&quote_locale(w.as_bytes(), charset));
    }
    m
}

pub const WHEN_ARGS: &[(&str, When)] = &[
    ("always", When::Always),
    ("yes", When::Always),
    ("force", When::Always),
    ("never", When::Never),
    ("no", When::Never),
    ("none", When::Never),
    ("auto", When::Auto),
    ("tty", When::Auto),
    ("if-tty", When::Auto),
];

/// `--sort` words of 9.0 to 9.5 (8.32: without `width`).
const SORT_ARGS_9_0: &[(&str, SortKey)] = &[
    ("none", SortKey::None),
    ("time", SortKey::Time),
    ("size", SortKey::Size),
    ("extension", SortKey::Extension),
    ("version", SortKey::Version),
    ("width", SortKey::Width),
];

/// `--sort` words from 9.6 on: `name` added, the list reordered.
const SORT_ARGS_9_6: &[(&str, SortKey)] = &[
    ("none", SortKey::None),
    ("size", SortKey::Size),
    ("time", SortKey::Time),
    ("version", SortKey::Version),
    ("extension", SortKey::Extension),
    ("name", SortKey::Name),
    ("width", SortKey::Width),
];

/// The `--sort` words of the emulated release, in its order (the order of
/// its "Valid arguments" list).
pub fn sort_args(gnu: Gnu) -> &'static [(&'static str, SortKey)] {
    if gnu.has(Behaviour::SortNameWord) {
        SORT_ARGS_9_6
    } else if gnu.has(Behaviour::SortWidth) {
        SORT_ARGS_9_0
    } else {
        &SORT_ARGS_9_0[..5]
    }
}

/// `--time` words, each with the behaviour that brought it (`None`: in
/// every release), in GNU's order.
const TIME_ARGS: &[(&str, TimeField, Option<Behaviour>)] = &[
    ("atime", TimeField::Access, None),
    ("access", TimeField::Access, None),
    ("use", TimeField::Access, None),
    ("ctime", TimeField::Change, None),
    ("status", TimeField::Change, None),
    (
        "mtime",
        TimeField::Modification,
        Some(Behaviour::TimeMtimeWord),
    ),
    (
        "modification",
        TimeField::Modification,
        Some(Behaviour::TimeModificationWord),
    ),
    ("birth", TimeField::Birth, None),
    ("creation", TimeField::Birth, None),
];

/// The `--time` words of the emulated release, in its order.
pub fn time_args(gnu: Gnu) -> Vec<(&'static str, TimeField)> {
    TIME_ARGS
        .iter()
        .filter(|(_, _, since)| since.is_none_or(|b| gnu.has(b)))
        .map(|(word, field, _)| (*word, *field))
        .collect()
}

pub const FORMAT_ARGS: &[(&str, Format)] = &[
    ("verbose", Format::Long),
    ("long", Format::Long),
    ("commas", Format::Commas),
    ("horizontal", Format::Horizontal),
    ("across", Format::Horizontal),
    ("vertical", Format::Vertical),
    ("single-column", Format::OneLine),
];

pub const QUOTING_ARGS: &[(&str, QuotingStyle)] = &[
    ("literal", QuotingStyle::Literal),
    ("shell", QuotingStyle::Shell),
    ("shell-always", QuotingStyle::ShellAlways),
    ("shell-escape", QuotingStyle::ShellEscape),
    ("shell-escape-always", QuotingStyle::ShellEscapeAlways),
    ("c", QuotingStyle::C),
    ("c-maybe", QuotingStyle::CMaybe),
    ("escape", QuotingStyle::Escape),
    ("locale", QuotingStyle::Locale),
    ("clocale", QuotingStyle::CLocale),
];

pub const INDICATOR_ARGS: &[(&str, IndicatorStyle)] = &[
    ("none", IndicatorStyle::None),
    ("slash", IndicatorStyle::Slash),
    ("file-type", IndicatorStyle::FileType),
    ("classify", IndicatorStyle::Classify),
];

/// `--cached` and `LS_CACHED`, in GNU stat's order.
pub const CACHED_ARGS: &[(&str, CacheMode)] = &[
    ("default", CacheMode::Default),
    ("never", CacheMode::Never),
    ("always", CacheMode::Always),
];

/// How `xstrtoumax` (base 0, no suffixes) fails.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NumError {
    /// Not a number, a sign, or trailing characters.
    Invalid,
    /// A well-formed number that does not fit in 64 bits.
    Overflow,
}

fn is_c_space(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | 0x0b | 0x0c | b'\r')
}

/// Reads an unsigned number like `xstrtoumax(s, NULL, 0, &v, "")`.
pub fn parse_umax(s: &[u8]) -> Result<u64, NumError> {
    let mut rest = s;
    while let [b, tail @ ..] = rest {
        if !is_c_space(*b) {
            break;
        }
        rest = tail;
    }
    match rest {
        [b'-', ..] => return Err(NumError::Invalid),
        [b'+', tail @ ..] => rest = tail,
        _ => {}
    }
    let (radix, digits) = match rest {
        [b'0', b'x' | b'X', d, ..] if d.is_ascii_hexdigit() => (16, &rest[2..]),
        [b'0', ..] => (8, rest),
        _ => (10, rest),
    };
    let mut value: u64 = 0;
    let mut overflow = false;
    let mut n = 0;
    for &b in digits {
        let Some(d) = (b as char).to_digit(radix) else {
            break;
        };
        n += 1;
        match value
            .checked_mul(u64::from(radix))
            .and_then(|v| v.checked_add(u64::from(d)))
        {
            Some(v) => value = v,
            None => overflow = true,
        }
    }
    if n == 0 || n != digits.len() {
        return Err(NumError::Invalid);
    }
    if overflow {
        return Err(NumError::Overflow);
    }
    Ok(value)
}

/// GNU's line-width decoding (`-w`, `COLUMNS`): too large means 0 (no
/// limit; before 9.0, `SIZE_MAX`, which still lays out columns with tabs);
/// `None` when invalid.
pub fn decode_line_length(s: &[u8], gnu: Gnu) -> Option<usize> {
    let too_large = if gnu.has(Behaviour::HugeWidthIsUnlimited) {
        0
    } else {
        usize::MAX
    };
    match parse_umax(s) {
        Ok(v) if v <= i64::MAX as u64 => Some(usize::try_from(v).unwrap_or(0)),
        Ok(v) if too_large != 0 => Some(usize::try_from(v).unwrap_or(usize::MAX)),
        Ok(_) | Err(NumError::Overflow) => Some(too_large),
        Err(NumError::Invalid) => None,
    }
}

/// `-T`: a number up to PTRDIFF_MAX, or the diagnostic (without `ls: `).
pub fn decode_tabsize(s: &[u8], charset: impl Into<Charset>) -> Result<usize, Vec<u8>> {
    let mut m = tr("invalid tab size");
    m.extend_from_slice(b": ");
    m.extend_from_slice(&quote_locale(s, charset));
    match parse_umax(s) {
        Ok(v) if v <= i64::MAX as u64 => Ok(usize::try_from(v).unwrap_or(usize::MAX)),
        Ok(_) | Err(NumError::Overflow) => {
            // GNU passes EOVERFLOW to error(): strerror's text follows.
            m.extend_from_slice(b": ");
            m.extend_from_slice(&strerror(libc::EOVERFLOW));
            Err(m)
        }
        Err(NumError::Invalid) => Err(m),
    }
}

/// `TABSIZE`: any number that fits, `None` when it must be ignored.
pub fn decode_env_tabsize(s: &[u8]) -> Option<usize> {
    parse_umax(s).ok().and_then(|v| usize::try_from(v).ok())
}
