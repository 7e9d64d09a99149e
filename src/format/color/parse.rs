//! The `LS_COLORS` grammar: `key=value` items separated by `:`, where a key
//! is one of GNU's two-letter indicator names or `*SUFFIX`, and both
//! suffixes and values may use `\` escapes and `^X` caret notation.
#![forbid(unsafe_code)]

use super::{Ind, IND_NAMES};
use crate::format::quote::quote_locale;
use crate::sys::charset::Charset;
use crate::sys::intl::{msg, tr};

/// A problem found while parsing `LS_COLORS`, reported on stderr as
/// `ls: MESSAGE` (see [`ColorWarning::message`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ColorWarning {
    /// `XY=value` where `XY` is not an indicator name, or whose value
    /// fails to parse. Always followed by [`ColorWarning::Unparsable`].
    UnrecognizedPrefix([u8; 2]),
    /// The whole variable is rejected and colouring is turned off.
    Unparsable,
}

/// Everything `LS_COLORS` can set, in definition order.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(super) struct Parsed {
    /// `(indicator, value)` assignments; later ones override earlier ones.
    pub indicators: Vec<(Ind, Vec<u8>)>,
    /// `(suffix, value)` from `*suffix=value`, in definition order.
    pub suffixes: Vec<(Vec<u8>, Vec<u8>)>,
}

/// Parses a whole `LS_COLORS` value. On failure returns the warnings GNU
/// prints (the last one is always `Unparsable`).
pub(super) fn parse(input: &[u8]) -> Result<Parsed, Vec<ColorWarning>> {
    let mut parsed = Parsed::default();
    let mut pos = 0;
    loop {
        match input.get(pos) {
            None => return Ok(parsed),
            Some(b':') => pos += 1,
            Some(b'*') => {
                let (suffix, next) = funky(input, pos + 1, true).ok_or_else(unparsable)?;
                if input.get(next) != Some(&b'=') {
                    return Err(unparsable());
                }
                let (value, next) = funky(input, next + 1, false).ok_or_else(unparsable)?;
                parsed.suffixes.push((suffix, value));
                pos = next;
            }
            Some(&first) => {
                let second = *input.get(pos + 1).ok_or_else(unparsable)?;
                if input.get(pos + 2) != Some(&b'=') {
                    return Err(unparsable());
                }
                let label = [first, second];
                let ind = IND_NAMES.iter().position(|n| *n == label);
                let ind = ind.and_then(|i| Ind::ALL.get(i).copied());
                let value = ind.and_then(|_| funky(input, pos + 3, false));
                match (ind, value) {
                    (Some(i), Some((value, next))) => {
                        parsed.indicators.push((i, value));
                        pos = next;
                    }
                    _ => {
                        return Err(vec![
                            ColorWarning::UnrecognizedPrefix(label),
                            ColorWarning::Unparsable,
                        ])
                    }
                }
            }
        }
    }
}

fn unparsable() -> Vec<ColorWarning> {
    vec![ColorWarning::Unparsable]
}

/// Decodes one key or value starting at `pos`, up to (not including) the
/// next `:` or end of input, or `=` when `equals_end`. Returns the bytes
/// and the position of the terminator, or `None` for a dangling `\` or
/// `^` or a `^` before a character that has no control equivalent.
///
/// Escapes: `\a \b \e \f \n \r \t \v`, `\?` (DEL), `\_` (space), `\` then
/// octal digits or `x` then hex digits (any number of digits, the value
/// wrapping modulo 256; `\x` without digits is NUL), `\` before any other
/// byte is that byte. `^@`..`^~` give the byte & 0x1f, `^?` gives DEL.
pub(super) fn funky(input: &[u8], mut pos: usize, equals_end: bool) -> Option<(Vec<u8>, usize)> {
    let mut out = Vec::new();
    loop {
        match input.get(pos).copied() {
            None | Some(b':') => return Some((out, pos)),
            Some(b'=') if equals_end => return Some((out, pos)),
            Some(b'\\') => pos = backslash(input, pos + 1, &mut out)?,
            Some(b'^') => {
                let c = input.get(pos + 1).copied()?;
                match c {
                    b'@'..=b'~' => {
                        out.push(c & 0x1f);
                        pos += 2;
                    }
                    // GNU writes DEL for `^?` but leaves the `?` to be read
                    // again as a plain character.
                    b'?' => {
                        out.push(0x7f);
                        pos += 1;
                    }
                    _ => return None,
                }
            }
            Some(c) => {
                out.push(c);
                pos += 1;
            }
        }
    }
}

/// Decodes the escape after a `\` at `pos`; returns the position after it.
fn backslash(input: &[u8], pos: usize, out: &mut Vec<u8>) -> Option<usize> {
    let c = input.get(pos).copied()?;
    let (radix, start) = match c {
        b'0'..=b'7' => (8, pos),
        b'x' | b'X' => (16, pos + 1),
        _ => {
            out.push(simple_escape(c));
            return Some(pos + 1);
        }
    };
    let mut num: u8 = 0;
    let mut end = start;
    while let Some(d) = input.get(end).and_then(|&b| (b as char).to_digit(radix)) {
        num = num.wrapping_mul(radix as u8).wrapping_add(d as u8);
        end += 1;
    }
    out.push(num);
    Some(end)
}

fn simple_escape(c: u8) -> u8 {
    match c {
        b'a' => 0x07,
        b'b' => 0x08,
        b'e' => 0x1b,
        b'f' => 0x0c,
        b'n' => b'\n',
        b'r' => b'\r',
        b't' => b'\t',
        b'v' => 0x0b,
        b'?' => 0x7f,
        b'_' => b' ',
        other => other,
    }
}

impl ColorWarning {
    /// The text after `ls: `, in the catalog's words; the label is quoted
    /// in the locale style, as GNU's quote() does (‘xy’ in UTF-8 locales
    /// without a translation, 'xy' in C).
    pub fn message(&self, charset: impl Into<Charset>) -> Vec<u8> {
        match self {
            ColorWarning::Unparsable => tr("unparsable value for LS_COLORS environment variable"),
            ColorWarning::UnrecognizedPrefix(label) => {
                msg("unrecognized prefix: %s", &[&quote_locale(label, charset)])
            }
        }
    }
}
