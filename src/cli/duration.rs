//! `--timeout=DURATION` read as timeout(1) reads its DURATION: a
//! floating-point number as `strtod` takes it (leading blanks, a sign,
//! hexadecimal, exponents, `inf`/`infinity`, `nan`), with the locale's
//! decimal point as well as `.` (coreutils' `cl_strtod`), then at most one
//! suffix letter: `s` (the default), `m`, `h` or `d`. Not negative, not
//! NaN. What the engine does with the limit is not decided here.
#![forbid(unsafe_code)]

use std::time::Duration;

/// The longest limit kept as given: 2³² − 1 seconds, about 136 years.
/// Longer finite values are clamped to it, so that adding the limit to a
/// clock reading can never overflow; an infinite one (`inf`, or a number
/// too large for a double, as `1e999`) means no limit, as 0 does.
pub const LONGEST: Duration = Duration::from_secs(u32::MAX as u64);

/// A DURATION timeout(1) would reject.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct InvalidDuration;

/// The limit `arg` asks for, `Ok(None)` meaning none (0, `inf`). `point`
/// is LC_NUMERIC's decimal point.
pub fn decode_timeout(arg: &[u8], point: &[u8]) -> Result<Option<Duration>, InvalidDuration> {
    parse_seconds(arg, point).map(limit).ok_or(InvalidDuration)
}

/// timeout(1)'s `parse_duration`: the number of seconds, or `None`.
pub fn parse_seconds(arg: &[u8], point: &[u8]) -> Option<f64> {
    let (value, end) = cl_strtod(arg, point)?;
    // Not below zero (`-0` is zero) and not NaN.
    if value.is_nan() || value < 0.0 {
        return None;
    }
    let multiplier = match &arg[end..] {
        [] | [b's'] => 1.0,
        [b'm'] => 60.0,
        [b'h'] => 3600.0,
        [b'd'] => 86400.0,
        _ => return None,
    };
    Some(value * multiplier)
}

/// Seconds to the limit: none for 0 and infinity, at least a nanosecond
/// for any positive value, at most [`LONGEST`].
fn limit(seconds: f64) -> Option<Duration> {
    if seconds == 0.0 || seconds.is_infinite() {
        None
    } else if seconds >= LONGEST.as_secs_f64() {
        Some(LONGEST)
    } else {
        Some(Duration::from_secs_f64(seconds).max(Duration::from_nanos(1)))
    }
}

/// `strtod` in the locale, then in C when that reads further (gnulib's
/// `cl_strtod`): the value and where it ended, `None` when no number
/// starts the text. An overflow is infinite (xstrtod lets `ERANGE` pass).
fn cl_strtod(s: &[u8], point: &[u8]) -> Option<(f64, usize)> {
    let local = strtod(s, point);
    if point == b"." || local.is_some_and(|(_, end)| end == s.len()) {
        return local;
    }
    match (local, strtod(s, b".")) {
        (Some(l), Some(c)) if c.1 > l.1 => Some(c),
        (None, c) => c,
        (l, _) => l,
    }
}

fn is_c_space(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | 0x0b | 0x0c | b'\r')
}

/// An optional `-` or `+` at `at`: whether it was `-`, and where what
/// follows starts.
fn sign(s: &[u8], at: usize) -> (bool, usize) {
    match s.get(at) {
        Some(b'-') => (true, at + 1),
        Some(b'+') => (false, at + 1),
        _ => (false, at),
    }
}

/// glibc's `strtod` grammar, `point` being the decimal point.
fn strtod(s: &[u8], point: &[u8]) -> Option<(f64, usize)> {
    let blanks = s.iter().take_while(|&&b| is_c_space(b)).count();
    let (negative, i) = sign(s, blanks);
    let (magnitude, end) = special(s, i)
        .or_else(|| hexadecimal(s, i, point))
        .or_else(|| decimal(s, i, point))?;
    Some((if negative { -magnitude } else { magnitude }, end))
}

fn starts_with_ignoring_case(s: &[u8], at: usize, word: &[u8]) -> bool {
    s.get(at..at + word.len())
        .is_some_and(|w| w.eq_ignore_ascii_case(word))
}

/// `inf`, `infinity`, `nan`, `nan(chars)`.
fn special(s: &[u8], i: usize) -> Option<(f64, usize)> {
    if starts_with_ignoring_case(s, i, b"infinity") {
        return Some((f64::INFINITY, i + 8));
    }
    if starts_with_ignoring_case(s, i, b"inf") {
        return Some((f64::INFINITY, i + 3));
    }
    if !starts_with_ignoring_case(s, i, b"nan") {
        return None;
    }
    let mut end = i + 3;
    if s.get(end) == Some(&b'(') {
        let chars = s[end + 1..]
            .iter()
            .take_while(|b| b.is_ascii_alphanumeric() || **b == b'_')
            .count();
        if s.get(end + 1 + chars) == Some(&b')') {
            end += chars + 2;
        }
    }
    Some((f64::NAN, end))
}

/// Digits of `radix` from `at`: how many.
fn digits(s: &[u8], at: usize, radix: u32) -> usize {
    s.get(at..)
        .unwrap_or_default()
        .iter()
        .take_while(|b| (**b as char).is_digit(radix))
        .count()
}

/// A mantissa of `radix` digits with an optional point: the integer
/// digits, the fraction digits, and where it ends; `None` without a digit.
fn mantissa(s: &[u8], at: usize, point: &[u8], radix: u32) -> Option<(usize, usize, usize)> {
    let int = digits(s, at, radix);
    let mut end = at + int;
    let mut frac = 0;
    if s.get(end..).is_some_and(|r| r.starts_with(point)) {
        frac = digits(s, end + point.len(), radix);
        if int + frac > 0 {
            end += point.len() + frac;
        }
    }
    (int + frac > 0).then_some((int, frac, end))
}

/// An exponent (`e12`, `p-3`) at `at`, taken only when digits follow.
fn exponent(s: &[u8], at: usize, letter: u8) -> (i64, usize) {
    if s.get(at).is_none_or(|b| b.to_ascii_lowercase() != letter) {
        return (0, at);
    }
    let (negative, i) = sign(s, at + 1);
    let n = digits(s, i, 10);
    if n == 0 {
        return (0, at);
    }
    let value = s[i..i + n]
        .iter()
        .fold(0i64, |v, d| (v * 10 + i64::from(d - b'0')).min(1 << 40));
    (if negative { -value } else { value }, i + n)
}

/// Decimal: the digits handed to Rust's correctly rounded parser, as
/// glibc's strtod rounds too.
fn decimal(s: &[u8], at: usize, point: &[u8]) -> Option<(f64, usize)> {
    let (int, frac, end) = mantissa(s, at, point, 10)?;
    let (exp, end_exp) = exponent(s, end, b'e');
    let frac_at = end - frac;
    let mut text = String::with_capacity(int + frac + 24);
    text.push('0');
    text.extend(s[at..at + int].iter().map(|&b| b as char));
    text.push('.');
    text.extend(s[frac_at..end].iter().map(|&b| b as char));
    text.push_str(&format!("0e{exp}"));
    Some((text.parse().ok()?, end_exp))
}

/// Hexadecimal (`0x1.8p3`): `0x` then at least one hex digit, else `0`
/// alone is the number (the decimal reading takes it).
fn hexadecimal(s: &[u8], at: usize, point: &[u8]) -> Option<(f64, usize)> {
    if !(s.get(at) == Some(&b'0') && matches!(s.get(at + 1), Some(b'x' | b'X'))) {
        return None;
    }
    let start = at + 2;
    let (int, frac, end) = mantissa(s, start, point, 16)?;
    let (exp, end_exp) = exponent(s, end, b'p');
    let frac_at = end - frac;
    // 16 significant digits (64 bits) are more than a double holds; the
    // digits after them only scale the value.
    let (mut value, mut scale, mut significant) = (0u64, exp, 0);
    let int_digits = s[start..start + int].iter().map(|d| (d, 0));
    let frac_digits = s[frac_at..end].iter().map(|d| (d, -4));
    for (d, shift) in int_digits.chain(frac_digits) {
        let d = u64::from((*d as char).to_digit(16).unwrap_or(0));
        if significant < 16 {
            value = value * 16 + d;
            significant += usize::from(value != 0);
            scale += shift;
        } else {
            scale += shift + 4;
        }
    }
    if value == 0 {
        return Some((0.0, end_exp));
    }
    Some((
        value as f64 * 2f64.powi(scale.clamp(-2000, 2000) as i32),
        end_exp,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn secs(arg: &str) -> Option<f64> {
        parse_seconds(arg.as_bytes(), b".")
    }

    #[test]
    fn numbers_as_timeout_reads_them() {
        for (arg, want) in [
            ("0", 0.0),
            ("5", 5.0),
            ("1.5s", 1.5),
            ("2m", 120.0),
            (".5", 0.5),
            ("1.", 1.0),
            ("+.5", 0.5),
            (" \t3", 3.0),
            ("1e1", 10.0),
            ("1E-1s", 0.1),
            ("1h", 3600.0),
            ("1d", 86400.0),
            ("0x10", 16.0),
            ("0x1p-1", 0.5),
            ("0x1.8p1s", 3.0),
            ("0X.8", 0.5),
            ("-0", 0.0),
            ("1e-400", 0.0),
        ] {
            assert_eq!(secs(arg), Some(want), "{arg:?}");
        }
        for arg in ["inf", "infs", "INFINITY", "infinityd", "1e999", "1e308d"] {
            assert_eq!(secs(arg), Some(f64::INFINITY), "{arg:?}");
        }
    }

    #[test]
    fn what_timeout_rejects() {
        for arg in [
            "", "bogus", "-1", "-inf", "nan", "NAN(12)", "1x", "5ss", "5 ", "1e", "1e+", ".", "0x",
            "infin", "1,5", "s", " ", "5\u{e9}",
        ] {
            assert_eq!(secs(arg), None, "{arg:?}");
        }
    }

    #[test]
    fn the_locale_decimal_point_as_well_as_the_c_one() {
        for arg in ["1,5", "1.5", "1,5s", "0x1,8p1"] {
            let want = if arg.starts_with("0x") { 3.0 } else { 1.5 };
            assert_eq!(parse_seconds(arg.as_bytes(), b","), Some(want), "{arg}");
        }
        assert_eq!(parse_seconds(b"1,5.5", b","), None);
    }

    #[test]
    fn zero_and_infinity_mean_no_limit_and_huge_values_are_clamped() {
        let d = |arg: &str| decode_timeout(arg.as_bytes(), b".");
        assert_eq!(d("0"), Ok(None));
        assert_eq!(d("0s"), Ok(None));
        assert_eq!(d("inf"), Ok(None));
        assert_eq!(d("1e999"), Ok(None));
        assert_eq!(d("1.5"), Ok(Some(Duration::from_millis(1500))));
        assert_eq!(d("2m"), Ok(Some(Duration::from_secs(120))));
        assert_eq!(d("1e-12"), Ok(Some(Duration::from_nanos(1))));
        assert_eq!(d("1e300"), Ok(Some(LONGEST)));
        assert_eq!(d("100000000000d"), Ok(Some(LONGEST)));
        assert_eq!(d("bogus"), Err(InvalidDuration));
        assert_eq!(d("-1"), Err(InvalidDuration));
    }
}
