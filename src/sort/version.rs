//! Version order (`-v`, `--sort=version`): GNU's filevercmp semantics, in
//! the three forms gnulib has had across the releases statls emulates.
//!
//! `.` and `..` come first, then other hidden names, then the rest. Names
//! are split into a prefix and a file suffix (`(\.[A-Za-z~][A-Za-z0-9~]*)*`
//! at the end, which in 9.1 alone may be the whole name); prefixes are
//! compared first with the Debian version algorithm (digit runs
//! numerically, `~` before everything, letters before other characters),
//! then whole names. Before 9.1 ([`VersionRules::Legacy`]) hidden names
//! lose their dot first, the suffix is found by a small state machine, and
//! equal prefixes fall back to whole names only when they are the same.

use std::cmp::Ordering;

/// Which gnulib filevercmp the emulated release has.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum VersionRules {
    /// Before 9.1.
    Legacy,
    /// 9.1: the suffix may be the whole name (`.a` sorts before `.0`).
    WholeNameSuffix,
    /// 9.2 and later: a suffix never starts at the first character.
    Current,
}

/// Compares two file names in version order by the rules of the emulated
/// release. Equal only for equal names.
pub fn filevercmp_by(a: &[u8], b: &[u8], rules: VersionRules) -> Ordering {
    if rules == VersionRules::Legacy {
        return legacy::filevercmp(a, b);
    }
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
    let whole = rules == VersionRules::WholeNameSuffix;
    let (pa, pb) = (prefix_len(a, whole), prefix_len(b, whole));
    let first = verrevcmp(&a[..pa], &b[..pb]);
    if first != Ordering::Equal || (pa == a.len() && pb == b.len()) {
        return first;
    }
    verrevcmp(a, b)
}

/// Length of `s` without its trailing file suffix, the longest match of
/// `(\.[A-Za-z~][A-Za-z0-9~]*)*$`. With `whole` (GNU 9.1) the suffix may
/// start at the first character, so `.tar.gz` is all suffix and its prefix
/// is empty; otherwise the first character is always prefix.
fn prefix_len(s: &[u8], whole: bool) -> usize {
    let is_suffix_start = |i: usize| {
        i + 1 < s.len() && s[i] == b'.' && (s[i + 1].is_ascii_alphabetic() || s[i + 1] == b'~')
    };
    let mut prefix = 0;
    let mut i = 0;
    if !whole && !s.is_empty() {
        i = 1;
        prefix = 1;
    }
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

/// gnulib's filevercmp before 9.1.
mod legacy {
    use super::order;
    use std::cmp::Ordering;

    /// Where the file suffix starts, by gnulib's old state machine: a `.`
    /// followed by a letter or `~` may start it, any character other than
    /// a letter, digit or `~` (or a `.` not followed by a letter or `~`)
    /// cancels it.
    fn suffix_start(s: &[u8]) -> Option<usize> {
        let mut found = None;
        let mut read_alpha = false;
        for (i, &c) in s.iter().enumerate() {
            if read_alpha {
                read_alpha = false;
                if !c.is_ascii_alphabetic() && c != b'~' {
                    found = None;
                }
            } else if c == b'.' {
                read_alpha = true;
                found = found.or(Some(i));
            } else if !c.is_ascii_alphanumeric() && c != b'~' {
                found = None;
            }
        }
        found
    }

    /// The old verrevcmp: compares `a[..la]` with `b[..lb]`, its digit
    /// runs read on past those lengths, as the C did.
    fn verrevcmp(a: &[u8], la: usize, b: &[u8], lb: usize) -> i32 {
        let at = |s: &[u8], i: usize| s.get(i).copied().unwrap_or(0);
        let (mut i, mut j) = (0, 0);
        while i < la || j < lb {
            let mut first_diff = 0;
            while (i < la && !at(a, i).is_ascii_digit()) || (j < lb && !at(b, j).is_ascii_digit()) {
                let x = if i == la { 0 } else { order(Some(at(a, i))) };
                let y = if j == lb { 0 } else { order(Some(at(b, j))) };
                if x != y {
                    return x - y;
                }
                i += 1;
                j += 1;
            }
            while at(a, i) == b'0' {
                i += 1;
            }
            while at(b, j) == b'0' {
                j += 1;
            }
            while at(a, i).is_ascii_digit() && at(b, j).is_ascii_digit() {
                if first_diff == 0 {
                    first_diff = i32::from(at(a, i)) - i32::from(at(b, j));
                }
                i += 1;
                j += 1;
            }
            if at(a, i).is_ascii_digit() {
                return 1;
            }
            if at(b, j).is_ascii_digit() {
                return -1;
            }
            if first_diff != 0 {
                return first_diff;
            }
        }
        0
    }

    pub(super) fn filevercmp(a: &[u8], b: &[u8]) -> Ordering {
        let plain = a.cmp(b);
        if plain == Ordering::Equal {
            return plain;
        }
        for first in [&b""[..], b".", b".."] {
            match (a == first, b == first) {
                (true, _) => return Ordering::Less,
                (_, true) => return Ordering::Greater,
                _ => {}
            }
        }
        let (mut a, mut b) = (a, b);
        match (a[0] == b'.', b[0] == b'.') {
            (true, false) => return Ordering::Less,
            (false, true) => return Ordering::Greater,
            (true, true) => (a, b) = (&a[1..], &b[1..]),
            (false, false) => {}
        }
        let (sa, sb) = (suffix_start(a), suffix_start(b));
        let (mut la, mut lb) = (sa.unwrap_or(a.len()), sb.unwrap_or(b.len()));
        if (sa.is_some() || sb.is_some()) && a[..la] == b[..lb] {
            (la, lb) = (a.len(), b.len());
        }
        match verrevcmp(a, la, b, lb) {
            0 => plain,
            r => r.cmp(&0),
        }
    }
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
        v.sort_by(|a, b| filevercmp_by(a.as_bytes(), b.as_bytes(), VersionRules::WholeNameSuffix));
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

    fn sorted_by(names: &[&str], rules: VersionRules) -> Vec<String> {
        let mut v: Vec<&str> = names.to_vec();
        v.sort_by(|a, b| filevercmp_by(a.as_bytes(), b.as_bytes(), rules).then(a.cmp(b)));
        v.into_iter().map(String::from).collect()
    }

    #[test]
    fn hidden_names_by_release() {
        // GNU ls -1av of the same names: 9.1 alone puts `.a` and `.m4`
        // (all suffix) before `.0`; 8.32 drops the dot first.
        let names = [
            ".0", "..a", ".a", ".m4", "a.", "a..a", "a.0", "a.+", "a0", "a.~",
        ];
        assert_eq!(
            sorted_by(&names, VersionRules::WholeNameSuffix),
            [".a", ".m4", ".0", "..a", "a0", "a.~", "a.", "a.0", "a..a", "a.+"]
        );
        assert_eq!(
            sorted_by(&names, VersionRules::Current),
            [".0", "..a", ".a", ".m4", "a0", "a.~", "a.", "a.0", "a..a", "a.+"]
        );
        assert_eq!(
            sorted_by(&names, VersionRules::Legacy),
            ["..a", ".0", ".a", ".m4", "a.~", "a.", "a0", "a.0", "a.+", "a..a"]
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
