//! Whether the environment allows GNU's built-in colours when `LS_COLORS`
//! is unset or empty: `COLORTERM` non-empty, or `TERM` matching one of the
//! `TERM` globs of GNU's built-in dircolors database (`dircolors -p`).
#![forbid(unsafe_code)]

/// The `TERM` lines of coreutils 9.1's dircolors database, in order.
const TERM_GLOBS: &[&[u8]] = &[
    b"Eterm",
    b"ansi",
    b"*color*",
    b"con[0-9]*x[0-9]*",
    b"cons25",
    b"console",
    b"cygwin",
    b"*direct*",
    b"dtterm",
    b"gnome",
    b"hurd",
    b"jfbterm",
    b"konsole",
    b"kterm",
    b"linux",
    b"linux-c",
    b"mlterm",
    b"putty",
    b"rxvt*",
    b"screen*",
    b"st",
    b"terminator",
    b"tmux*",
    b"vt100",
    b"xterm*",
];

/// GNU's rule for using the built-in table when `LS_COLORS` is unset or
/// empty: colour stays on iff `COLORTERM` is non-empty or `TERM` is a
/// known terminal type (case-sensitive glob match; unset or empty `TERM`
/// is unknown). `TERM=dumb` matches nothing.
pub fn env_allows_builtin(colorterm: Option<&[u8]>, term: Option<&[u8]>) -> bool {
    if colorterm.is_some_and(|c| !c.is_empty()) {
        return true;
    }
    match term {
        Some(t) if !t.is_empty() => TERM_GLOBS.iter().any(|g| glob(g, t)),
        _ => false,
    }
}

/// Minimal fnmatch (no flags) for the patterns above: `*`, `?`, `[a-b]`
/// classes and literal bytes.
fn glob(pat: &[u8], s: &[u8]) -> bool {
    match pat.split_first() {
        None => s.is_empty(),
        Some((b'*', rest)) => (0..=s.len()).any(|i| s.get(i..).is_some_and(|t| glob(rest, t))),
        Some((b'?', rest)) => s.split_first().is_some_and(|(_, t)| glob(rest, t)),
        Some((b'[', rest)) => {
            let Some(close) = rest.iter().position(|&b| b == b']') else {
                return false;
            };
            let (class, after) = rest.split_at(close);
            let after = after.get(1..).unwrap_or_default();
            s.split_first()
                .is_some_and(|(&c, t)| class_matches(class, c) && glob(after, t))
        }
        Some((&p, rest)) => s
            .split_first()
            .is_some_and(|(&c, t)| c == p && glob(rest, t)),
    }
}

fn class_matches(class: &[u8], c: u8) -> bool {
    let mut i = 0;
    while let Some(&lo) = class.get(i) {
        if class.get(i + 1) == Some(&b'-') {
            if let Some(&hi) = class.get(i + 2) {
                if (lo..=hi).contains(&c) {
                    return true;
                }
                i += 3;
                continue;
            }
        }
        if lo == c {
            return true;
        }
        i += 1;
    }
    false
}
