//! Shell wildcard matching as fnmatch(3) with FNM_PERIOD does it: `*`, `?`,
//! bracket expressions (ranges, `!`/`^` negation, `[:class:]`), backslash
//! escapes; a leading `.` must be matched literally. In UTF-8 locales `?`
//! and brackets match whole characters, as glibc's fnmatch does.

/// Invalid bytes in UTF-8 mode become units above every code point, so
/// they only ever match themselves.
const RAW_BYTE: u32 = 0x11_0000;

/// Splits `s` into matching units: bytes, or (UTF-8) characters with each
/// invalid byte a unit of its own.
fn units(s: &[u8], utf8: bool) -> Vec<u32> {
    if s.is_ascii() {
        return s.iter().map(|&b| u32::from(b)).collect();
    }
    if !utf8 {
        // Bytes, none of them a letter beyond ASCII in the C locale.
        return s
            .iter()
            .map(|&b| {
                if b < 0x80 {
                    u32::from(b)
                } else {
                    RAW_BYTE + u32::from(b)
                }
            })
            .collect();
    }
    let mut out = Vec::with_capacity(s.len());
    let mut rest = s;
    while !rest.is_empty() {
        match std::str::from_utf8(rest) {
            Ok(valid) => {
                out.extend(valid.chars().map(u32::from));
                break;
            }
            Err(e) => {
                let (good, bad) = rest.split_at(e.valid_up_to());
                out.extend(
                    std::str::from_utf8(good)
                        .unwrap_or_default()
                        .chars()
                        .map(u32::from),
                );
                let skip = e.error_len().unwrap_or(bad.len()).max(1);
                out.extend(bad[..skip].iter().map(|&b| RAW_BYTE + u32::from(b)));
                rest = &bad[skip..];
            }
        }
    }
    out
}

/// Whether `name` matches `pattern`; a leading `.` in `name` is only matched
/// by a literal `.` in the pattern.
pub fn fnmatch_period(pattern: &[u8], name: &[u8], utf8: bool) -> bool {
    if name.first() == Some(&b'.') && pattern.first() != Some(&b'.') && !pattern.starts_with(b"\\.")
    {
        return false;
    }
    // glibc (observed through GNU ls in UTF-8 locales) accepts a name that
    // matches either character by character or byte by byte: `??` hides
    // `é`, and `[é]*` hides `ñ` (same first byte).
    matches(&units(pattern, false), &units(name, false))
        || (utf8 && matches(&units(pattern, true), &units(name, true)))
}

const STAR: u32 = b'*' as u32;
const QUESTION: u32 = b'?' as u32;
const OPEN: u32 = b'[' as u32;
const BACKSLASH: u32 = b'\\' as u32;

/// Iterative matcher with single-star backtracking (linear in practice).
fn matches(p: &[u32], s: &[u32]) -> bool {
    let (mut pi, mut si) = (0, 0);
    let mut star: Option<(usize, usize)> = None;
    while si < s.len() {
        if pi < p.len() {
            match p[pi] {
                STAR => {
                    while pi < p.len() && p[pi] == STAR {
                        pi += 1;
                    }
                    if pi == p.len() {
                        return true;
                    }
                    star = Some((pi, si));
                    continue;
                }
                QUESTION => {
                    pi += 1;
                    si += 1;
                    continue;
                }
                OPEN => match bracket(p, pi, s[si]) {
                    Some((true, next)) => {
                        pi = next;
                        si += 1;
                        continue;
                    }
                    Some((false, _)) => {}
                    // An unterminated bracket is a literal `[`.
                    None if s[si] == OPEN => {
                        pi += 1;
                        si += 1;
                        continue;
                    }
                    None => {}
                },
                BACKSLASH if pi + 1 < p.len() => {
                    if p[pi + 1] == s[si] {
                        pi += 2;
                        si += 1;
                        continue;
                    }
                }
                c => {
                    if c == s[si] {
                        pi += 1;
                        si += 1;
                        continue;
                    }
                }
            }
        }
        match star {
            Some((sp, ss)) => {
                pi = sp;
                si = ss + 1;
                star = Some((sp, ss + 1));
            }
            None => return false,
        }
    }
    while pi < p.len() && p[pi] == STAR {
        pi += 1;
    }
    pi == p.len()
}

fn class_matches(class: &[u32], unit: u32) -> bool {
    let name: Vec<u8> = class.iter().filter_map(|&u| u8::try_from(u).ok()).collect();
    let Some(c) = char::from_u32(unit) else {
        return false;
    };
    if c.is_ascii() {
        let b = c as u8;
        return match name.as_slice() {
            b"alpha" => b.is_ascii_alphabetic(),
            b"digit" => b.is_ascii_digit(),
            b"alnum" => b.is_ascii_alphanumeric(),
            b"upper" => b.is_ascii_uppercase(),
            b"lower" => b.is_ascii_lowercase(),
            b"space" => b.is_ascii_whitespace() || b == 0x0b,
            b"blank" => b == b' ' || b == b'\t',
            b"punct" => b.is_ascii_punctuation(),
            b"print" => (0x20..0x7f).contains(&b),
            b"graph" => b.is_ascii_graphic(),
            b"cntrl" => b.is_ascii_control(),
            b"xdigit" => b.is_ascii_hexdigit(),
            _ => false,
        };
    }
    // Beyond ASCII (only reachable in UTF-8 locales): Unicode's classes,
    // close to glibc's tables for these.
    match name.as_slice() {
        b"alpha" => c.is_alphabetic(),
        b"alnum" => c.is_alphanumeric(),
        b"upper" => c.is_uppercase(),
        b"lower" => c.is_lowercase(),
        b"space" => c.is_whitespace(),
        b"print" => !c.is_control(),
        b"graph" => !c.is_control() && !c.is_whitespace(),
        b"punct" => !c.is_control() && !c.is_alphanumeric() && !c.is_whitespace(),
        b"cntrl" => c.is_control(),
        _ => false,
    }
}

/// Matches `c` against the bracket expression at `p[start]`; returns
/// (matched, index after `]`), or None when the bracket is unterminated.
fn bracket(p: &[u32], start: usize, c: u32) -> Option<(bool, usize)> {
    let mut i = start + 1;
    let negate = matches!(p.get(i), Some(&u) if u == u32::from(b'!') || u == u32::from(b'^'));
    if negate {
        i += 1;
    }
    let mut matched = false;
    let mut first = true;
    let close = u32::from(b']');
    let colon = u32::from(b':');
    let dash = u32::from(b'-');
    loop {
        let &ch = p.get(i)?;
        if ch == close && !first {
            return Some((matched != negate, i + 1));
        }
        first = false;
        if ch == OPEN && p.get(i + 1) == Some(&colon) {
            let rest = &p[i + 2..];
            if let Some(end) = rest.windows(2).position(|w| w[0] == colon && w[1] == close) {
                matched |= class_matches(&rest[..end], c);
                i += 2 + end + 2;
                continue;
            }
        }
        let mut lo = ch;
        if ch == BACKSLASH {
            lo = *p.get(i + 1)?;
            i += 1;
        }
        i += 1;
        if p.get(i) == Some(&dash) && p.get(i + 1).is_some_and(|&h| h != close) {
            let mut hi = p[i + 1];
            i += 2;
            if hi == BACKSLASH {
                hi = *p.get(i)?;
                i += 1;
            }
            matched |= lo <= c && c <= hi;
        } else {
            matched |= lo == c;
        }
    }
}

#[cfg(test)]
mod tests {
    fn m(p: &[u8], s: &[u8]) -> bool {
        super::fnmatch_period(p, s, false)
    }

    fn u(p: &str, s: &str) -> bool {
        super::fnmatch_period(p.as_bytes(), s.as_bytes(), true)
    }

    #[test]
    fn stars_and_questions() {
        assert!(m(b"*.c", b"a.c"));
        assert!(!m(b"*.c", b"a.h"));
        assert!(m(b"a?c", b"abc"));
        assert!(m(b"*", b"x"));
    }

    #[test]
    fn leading_period_needs_a_literal_period() {
        assert!(!m(b"*", b".hidden"));
        assert!(m(b".*", b".hidden"));
        assert!(!m(b"?hidden", b".hidden"));
    }

    #[test]
    fn brackets() {
        assert!(m(b"[a-c]x", b"bx"));
        assert!(!m(b"[!a-c]x", b"bx"));
        assert!(m(b"[[:digit:]]", b"7"));
        assert!(m(b"[]]", b"]"));
    }

    /// Recorded with GNU ls in C.UTF-8 / en_US.UTF-8: `?` is one character.
    #[test]
    fn utf8_question_mark_is_one_character() {
        assert!(u("caf?", "café"));
        assert!(!m("caf?".as_bytes(), "café".as_bytes()));
        // ... or byte by byte.
        assert!(u("??", "é"));
        assert!(u("[é]*", "ñ"));
        assert!(!u("[é]", "ñ"));
        assert!(u("[[:upper:]]*", "Über"));
        assert!(u("[[:upper:]]*", "Ｆｕｌｌ"));
        assert!(u("*[[:alpha:]]", "café"));
    }
}
