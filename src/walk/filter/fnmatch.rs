//! Shell wildcard matching as fnmatch(3) with FNM_PERIOD does it: `*`, `?`,
//! bracket expressions (ranges, `!`/`^` negation, `[:class:]`), backslash
//! escapes; a leading `.` must be matched literally.

/// Whether `name` matches `pattern`; a leading `.` in `name` is only matched
/// by a literal `.` in the pattern.
pub fn fnmatch_period(pattern: &[u8], name: &[u8]) -> bool {
    if name.first() == Some(&b'.') && !matches!(pattern.first(), Some(b'.')) {
        // `\.` also matches a leading period literally.
        if !(pattern.starts_with(b"\\.")) {
            return false;
        }
    }
    matches(pattern, name)
}

/// Iterative matcher with single-star backtracking (linear in practice).
fn matches(p: &[u8], s: &[u8]) -> bool {
    let (mut pi, mut si) = (0, 0);
    let mut star: Option<(usize, usize)> = None;
    while si < s.len() {
        if pi < p.len() {
            match p[pi] {
                b'*' => {
                    while pi < p.len() && p[pi] == b'*' {
                        pi += 1;
                    }
                    if pi == p.len() {
                        return true;
                    }
                    star = Some((pi, si));
                    continue;
                }
                b'?' => {
                    pi += 1;
                    si += 1;
                    continue;
                }
                b'[' => {
                    if let Some((ok, next)) = bracket(p, pi, s[si]) {
                        if ok {
                            pi = next;
                            si += 1;
                            continue;
                        }
                    } else if s[si] == b'[' {
                        // An unterminated bracket is a literal `[`.
                        pi += 1;
                        si += 1;
                        continue;
                    }
                }
                b'\\' if pi + 1 < p.len() => {
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
    while pi < p.len() && p[pi] == b'*' {
        pi += 1;
    }
    pi == p.len()
}

fn class_matches(class: &[u8], c: u8) -> bool {
    match class {
        b"alpha" => c.is_ascii_alphabetic(),
        b"digit" => c.is_ascii_digit(),
        b"alnum" => c.is_ascii_alphanumeric(),
        b"upper" => c.is_ascii_uppercase(),
        b"lower" => c.is_ascii_lowercase(),
        b"space" => c.is_ascii_whitespace() || c == 0x0b,
        b"blank" => c == b' ' || c == b'\t',
        b"punct" => c.is_ascii_punctuation(),
        b"print" => (0x20..0x7f).contains(&c),
        b"graph" => c.is_ascii_graphic(),
        b"cntrl" => c.is_ascii_control(),
        b"xdigit" => c.is_ascii_hexdigit(),
        _ => false,
    }
}

/// Matches `c` against the bracket expression at `p[start]`; returns
/// (matched, index after `]`), or None when the bracket is unterminated.
fn bracket(p: &[u8], start: usize, c: u8) -> Option<(bool, usize)> {
    let mut i = start + 1;
    let negate = matches!(p.get(i), Some(b'!') | Some(b'^'));
    if negate {
        i += 1;
    }
    let mut matched = false;
    let mut first = true;
    loop {
        let &ch = p.get(i)?;
        if ch == b']' && !first {
            return Some((matched != negate, i + 1));
        }
        first = false;
        if ch == b'[' && p.get(i + 1) == Some(&b':') {
            let rest = &p[i + 2..];
            if let Some(end) = rest.windows(2).position(|w| w == b":]") {
                matched |= class_matches(&rest[..end], c);
                i += 2 + end + 2;
                continue;
            }
        }
        let mut lo = ch;
        if ch == b'\\' {
            lo = *p.get(i + 1)?;
            i += 1;
        }
        i += 1;
        if p.get(i) == Some(&b'-') && p.get(i + 1).is_some_and(|&h| h != b']') {
            let mut hi = p[i + 1];
            i += 2;
            if hi == b'\\' {
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
    use super::fnmatch_period as m;

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
}
