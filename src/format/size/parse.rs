//! GNU's block size syntax: an optional `'`, then `human-readable`/`si`
//! (or a unique prefix), or a number (C syntax: decimal, `0x` hex, `0`
//! octal) and/or a unit `K M G T P E Z Y` (also `k m g t`), optionally
//! followed by `B`/`D` (powers of 1000) or `iB` (powers of 1024).
#![forbid(unsafe_code)]

use super::{BlockSizeError, Kind, SizeFormat};

/// Why a spec was rejected, with the value parsed so far (ls keeps it for
/// environment variables).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Error {
    Invalid,
    Suffix(u64),
    Overflow,
}

/// First characters that make a spec with no digits mean "1 unit".
const UNIT_START: &[u8] = b"eEgGkKmMpPtTyYzZ";

fn power(c: u8) -> Option<u32> {
    Some(match c {
        b'k' | b'K' => 1,
        b'm' | b'M' => 2,
        b'g' | b'G' => 3,
        b't' | b'T' => 4,
        b'P' => 5,
        b'E' => 6,
        b'Z' => 7,
        b'Y' => 8,
        _ => return None,
    })
}

/// C `strtoumax(s, &end, 0)` after a sign check: (value, digits used,
/// overflowed). `None` when no digits were found.
fn strtoumax(s: &[u8]) -> Option<(u64, usize, bool)> {
    let mut i = s
        .iter()
        .take_while(|c| b" \t\n\x0b\x0c\r".contains(c))
        .count();
    if s.get(i) == Some(&b'+') {
        i += 1;
    }
    let hex = matches!(s.get(i..i + 2), Some(b"0x" | b"0X"))
        && s.get(i + 2).is_some_and(u8::is_ascii_hexdigit);
    let (radix, start) = match (hex, s.get(i)) {
        (true, _) => (16, i + 2),
        (false, Some(b'0')) => (8, i),
        _ => (10, i),
    };
    let len = s[start..]
        .iter()
        .take_while(|c| char::from(**c).is_digit(radix))
        .count();
    if len == 0 {
        return None;
    }
    let mut value = 0u64;
    let mut overflow = false;
    for c in &s[start..start + len] {
        let d = char::from(*c).to_digit(radix).unwrap_or(0);
        match value
            .checked_mul(u64::from(radix))
            .and_then(|v| v.checked_add(u64::from(d)))
        {
            Some(v) => value = v,
            None => {
                overflow = true;
                value = u64::MAX;
            }
        }
    }
    Some((value, start + len, overflow))
}

/// The unit suffix shown after sizes when the spec has no number.
fn shown_suffix(letter: u8, tail: &[u8]) -> &'static str {
    const UNITS: [&str; 8] = ["K", "M", "G", "T", "P", "E", "Z", "Y"];
    const UNITS_B: [&str; 8] = ["kB", "MB", "GB", "TB", "PB", "EB", "ZB", "YB"];
    const UNITS_IB: [&str; 8] = ["KiB", "MiB", "GiB", "TiB", "PiB", "EiB", "ZiB", "YiB"];
    let i = power(letter).map_or(0, |p| p as usize - 1);
    match tail {
        b"iB" => UNITS_IB[i],
        b"B" => UNITS_B[i],
        _ => UNITS[i],
    }
}

/// Parses the numeric form: the block size and the suffix to show.
fn parse_number(s: &[u8]) -> Result<(u64, &'static str), Error> {
    let trimmed = s.iter().skip_while(|c| b" \t\n\x0b\x0c\r".contains(c));
    if trimmed.clone().next() == Some(&b'-') {
        return Err(Error::Invalid);
    }
    let (mut value, rest, mut overflow, bare) = match strtoumax(s) {
        Some((v, used, o)) => (v, &s[used..], o, false),
        None if s.first().is_some_and(|c| UNIT_START.contains(c)) => (1, s, false, true),
        None => return Err(Error::Invalid),
    };
    let mut suffix = "";
    let mut tail: &[u8] = rest;
    if let Some(&letter) = rest.first() {
        let Some(p) = power(letter) else {
            return Err(zero_or(value, Error::Suffix(value)));
        };
        let (base, used): (u64, usize) = match rest.get(1..) {
            Some([b'i', b'B', ..]) => (1024, 3),
            Some([b'B' | b'D', ..]) => (1000, 2),
            _ => (1024, 1),
        };
        match base.checked_pow(p).and_then(|m| value.checked_mul(m)) {
            Some(v) => value = v,
            None => {
                overflow = true;
                value = u64::MAX;
            }
        }
        if bare {
            suffix = shown_suffix(letter, &rest[1..used]);
        }
        tail = &rest[used..];
    }
    if !tail.is_empty() {
        return Err(zero_or(value, Error::Suffix(value)));
    }
    if overflow {
        return Err(Error::Overflow);
    }
    if value == 0 {
        return Err(Error::Invalid);
    }
    Ok((value, suffix))
}

/// A zero block size is "invalid" whatever else went wrong.
fn zero_or(value: u64, e: Error) -> Error {
    if value == 0 {
        Error::Invalid
    } else {
        e
    }
}

/// A keyword and the format it stands for.
type Word = (&'static [u8], fn() -> SizeFormat);

/// `human-readable` or `si`, or an unambiguous prefix of one.
fn human_word(s: &[u8]) -> Option<SizeFormat> {
    let words: [Word; 2] = [
        (b"human-readable", SizeFormat::human_1024),
        (b"si", SizeFormat::human_si),
    ];
    let hits: Vec<_> = words
        .iter()
        .filter(|(w, _)| !s.is_empty() && w.starts_with(s))
        .collect();
    match hits.as_slice() {
        [(_, make)] => Some(make()),
        _ => None,
    }
}

fn parse_spec(spec: &str) -> Result<SizeFormat, Error> {
    let bytes = spec.as_bytes();
    let (group, s) = match bytes.strip_prefix(b"'") {
        Some(rest) => (true, rest),
        None => (false, bytes),
    };
    if let Some(mut f) = human_word(s) {
        f.group = group;
        return Ok(f);
    }
    let (size, suffix) = parse_number(s)?;
    Ok(SizeFormat {
        kind: Kind::Blocks { size, suffix },
        group,
    })
}

pub(super) fn parse_option(spec: &str) -> Result<SizeFormat, BlockSizeError> {
    parse_spec(spec).map_err(|e| {
        BlockSizeError(match e {
            Error::Invalid => format!("invalid --block-size argument '{spec}'"),
            Error::Suffix(_) => format!("invalid suffix in --block-size argument '{spec}'"),
            Error::Overflow => format!("--block-size argument '{spec}' too large"),
        })
    })
}

pub(super) fn parse_env(spec: &str, posixly_correct: bool) -> SizeFormat {
    match parse_spec(spec) {
        Ok(f) => f,
        Err(Error::Suffix(v)) => SizeFormat::blocks_of(v),
        Err(Error::Overflow) => SizeFormat::blocks_of(u64::MAX),
        Err(Error::Invalid) if posixly_correct => SizeFormat::blocks_512(),
        Err(Error::Invalid) => SizeFormat::kib(),
    }
}
