//! A tiny `fnmatch` (no flags) for the `TERM` patterns of the colour
//! database: `*`, `?` and bracket expressions with ranges and `!`/`^`.
#![forbid(unsafe_code)]

/// Whether `name` matches the shell pattern `pat`.
pub fn matches(pat: &[u8], name: &[u8]) -> bool {
    match pat.split_first() {
        None => name.is_empty(),
        Some((b'*', rest)) => {
            (0..=name.len()).any(|i| matches(rest, name.get(i..).unwrap_or_default()))
        }
        Some((b'?', rest)) => name.split_first().is_some_and(|(_, n)| matches(rest, n)),
        Some((b'[', rest)) => match (bracket(rest), name.split_first()) {
            (Some((set, after)), Some((&c, n))) => set_contains(set, c) && matches(after, n),
            (None, Some((&c, n))) => c == b'[' && matches(rest, n),
            _ => false,
        },
        Some((&p, rest)) => name
            .split_first()
            .is_some_and(|(&c, n)| c == p && matches(rest, n)),
    }
}

/// Splits `set]rest` after an opening `[`; `None` if there is no `]`.
fn bracket(pat: &[u8]) -> Option<(&[u8], &[u8])> {
    let start = usize::from(matches!(pat.first(), Some(b'!' | b'^')));
    let first_close = start + usize::from(pat.get(start) == Some(&b']'));
    let end = first_close + pat.get(first_close..)?.iter().position(|&b| b == b']')?;
    Some((pat.get(..end)?, pat.get(end + 1..)?))
}

fn set_contains(set: &[u8], c: u8) -> bool {
    let (negate, mut body) = match set.split_first() {
        Some((b'!' | b'^', rest)) => (true, rest),
        _ => (false, set),
    };
    let mut found = false;
    while let Some((&lo, rest)) = body.split_first() {
        match rest {
            [b'-', hi, tail @ ..] => {
                found |= lo <= c && c <= *hi;
                body = tail;
            }
            _ => {
                found |= lo == c;
                body = rest;
            }
        }
    }
    found != negate
}

#[cfg(test)]
mod tests {
    use super::matches;

    #[test]
    fn term_patterns() {
        assert!(matches(b"xterm*", b"xterm-256color"));
        assert!(matches(b"*color*", b"foo-color"));
        assert!(matches(b"con[0-9]*x[0-9]*", b"con80x25"));
        assert!(!matches(b"con[0-9]*x[0-9]*", b"conx25"));
        assert!(matches(b"st", b"st"));
        assert!(!matches(b"st", b"st-256"));
        assert!(!matches(b"linux", b"dumb"));
        assert!(matches(b"[!a]", b"b"));
    }
}
