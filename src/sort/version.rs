//! Version order (`-v`, `--sort=version`): GNU's filevercmp semantics.
//!
//! `.` and `..` come first, then other hidden names, then the rest. Names
//! are split into a prefix and a file suffix (`(\.[A-Za-z~][A-Za-z0-9~]*)*`
//! at the end, which in 9.1 may be the whole name); prefixes are compared
//! first with the Debian version algorithm (digit runs numerically, `~`
//! before everything, letters before other characters), then whole names.

use std::cmp::Ordering;

/// Compares two file names in version order. Equal only for equal names.
pub fn filevercmp(a: &[u8], b: &[u8]) -> Ordering {
    if a == b {
        return Ordering::Equal;
    }
    match (a.is_empty(), b.is_empty()) {
        (true, _) => return Ordering::Less,
        (_, true) => return Ordering::Greater,
        _ => {}
    }
    match (a[0] == b'.', b[0] == b'.') {
        (true, false) => return Ordering::Less,
        (false, true) => return Ordering::Greater,
        (true, true) => {
            // "." first, then "..", then other hidden names, which keep
            // their dot for the comparison below.
            for special in [&b"."[..], &b".."[..]] {
                match (a == special, b == special) {
                    (true, _) => return Ordering::Less,
                    (_, true) => return Ordering::Greater,
                    _ => {}
                }
            }
        }
        (false, false) => {}
    }
    let (pa, pb) = (prefix_len(a), prefix_len(b));
    let first = verrevcmp(&a[..pa], &b[..pb]);
    if first != Ordering::Equal || (pa == a.len() && pb == b.len()) {
        return first;
    }
    verrevcmp(a, b)
}

/// Length of `s` without its trailing file suffix, the longest match of
/// `(\.[A-Za-z~][A-Za-z0-9~]*)*$`. As in GNU 9.1 the suffix may start at
/// the first character, so `.tar.gz` is all suffix and its prefix is empty.
fn prefix_len(s: &[u8]) -> usize {
    let is_suffix_start = |i: usize| {
        i + 1 < s.len() && s[i] == b'.' && (s[i + 1].is_ascii_alphabetic() || s[i + 1] == b'~')
    };
    let mut prefix = 0;
    let mut i = 0;
    while i < s.len() {
        while is_suffix_start(i) {
            i += 2;
            while i < s.len() && (s[i].is_ascii_alphanumeric() || s[i] == b'~') {
                i += 1;
            }
        }
        if i < s.len() {
            i += 1;
            prefix = i;
        }
    }
    prefix
}

/// Weight of a non-digit character: `~` lowest, the end of a string next,
/// then letters, then everything else.
fn order(c: Option<u8>) -> i32 {
    match c {
        None => 0,
        Some(c) if c.is_ascii_digit() => 0,
        Some(c) if c.is_ascii_alphabetic() => c as i32,
        Some(b'~') => -1,
        Some(c) => c as i32 + 256,
    }
}

fn verrevcmp(a: &[u8], b: &[u8]) -> Ordering {
    let digit = |s: &[u8], i: usize| s.get(i).is_some_and(|c| c.is_ascii_digit());
    let (mut i, mut j) = (0, 0);
    while i < a.len() || j < b.len() {
        while (i < a.len() && !digit(a, i)) || (j < b.len() && !digit(b, j)) {
            let (x, y) = (order(a.get(i).copied()), order(b.get(j).copied()));
            if x != y {
                return x.cmp(&y);
            }
            i += 1;
            j += 1;
        }
        while a.get(i) == Some(&b'0') {
            i += 1;
        }
        while b.get(j) == Some(&b'0') {
            j += 1;
        }
        let mut first_diff = Ordering::Equal;
        while digit(a, i) && digit(b, j) {
            if first_diff == Ordering::Equal {
                first_diff = a[i].cmp(&b[j]);
            }
            i += 1;
            j += 1;
        }
        if digit(a, i) {
            return Ordering::Greater;
        }
        if digit(b, j) {
            return Ordering::Less;
        }
        if first_diff != Ordering::Equal {
            return first_diff;
        }
    }
    Ordering::Equal
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sorted(names: &[&str]) -> Vec<String> {
        let mut v: Vec<&str> = names.to_vec();
        v.sort_by(|a, b| filevercmp(a.as_bytes(), b.as_bytes()));
        v.into_iter().map(String::from).collect()
    }

    #[test]
    fn numbers_compare_numerically() {
        assert_eq!(
            sorted(&["file10", "file2", "file1"]),
            ["file1", "file2", "file10"]
        );
    }

    #[test]
    fn tilde_sorts_before_everything() {
        assert_eq!(sorted(&["a-1.0", "a-1.0~rc1"]), ["a-1.0~rc1", "a-1.0"]);
    }

    #[test]
    fn dot_names_first() {
        assert_eq!(sorted(&["a", ".b", "..", "."]), [".", "..", ".b", "a"]);
    }

    #[test]
    fn hidden_names_made_of_suffixes_sort_before_hidden_numbers() {
        // GNU 9.1 (`ls -Av1`): the whole of `.tar.gz` is a file suffix, so
        // its empty prefix sorts before the prefix `.0`.
        assert_eq!(
            sorted(&[".9", "a", ".tar.gz", ".0", ".zz", ".1a", ".a", ".A.b", ".~", ".b1"]),
            [".~", ".A.b", ".a", ".b1", ".tar.gz", ".zz", ".0", ".1a", ".9", "a"]
        );
    }

    #[test]
    fn suffixes_are_compared_after_versions() {
        assert_eq!(
            sorted(&["a-1.0.10.tar.gz", "a-1.0.tar.gz", "a-1.0.2.tar.gz"]),
            ["a-1.0.tar.gz", "a-1.0.2.tar.gz", "a-1.0.10.tar.gz"]
        );
    }
}
