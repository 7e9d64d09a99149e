//! When sorting by name pays for keys and for the ASCII weight table, from
//! the number of names, so that small directories (the common interactive
//! case) take the plain path with no key building (and, `parallel`
//! decides, no thread start).
#![forbid(unsafe_code)]

use std::sync::atomic::{AtomicUsize, Ordering};

/// How one directory's names are sorted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Effort {
    /// Build a key for every name first (strxfrm in a collating locale),
    /// instead of calling strcoll in every comparison.
    pub keyed: bool,
    /// Key all-ASCII names from a table of the ASCII characters' weights
    /// (built once, on first use) instead of calling strxfrm for each.
    pub table: bool,
    /// Key and sort two halves on two threads, then merge them.
    pub two_threads: bool,
}

/// Below this many names strcoll comparisons (n log n of them) cost no
/// more than a strxfrm per name.
const KEYED_FROM: usize = 48;
/// Building and checking the ASCII weight table costs about as much as
/// strxfrm on a thousand names; built once, it serves the whole run, so
/// it pays from a thousand names keyed in all (`ls -R` of 400 directories
/// of 120 names: 36.5 ms with strxfrm for every name, GNU 33.2).
const TABLE_FROM: usize = 1_000;

/// Names keyed in a collating locale so far in this run.
static COLLATED_SO_FAR: AtomicUsize = AtomicUsize::new(0);
/// Keys address their arena with 32-bit offsets: past this many names the
/// plain path sorts.
const KEYED_MAX: usize = (u32::MAX as usize) / 128;

/// The effort for `n` names; `collating` when the locale's collation is not
/// byte order, `two_threads` what `parallel` said.
pub fn for_names(n: usize, collating: bool, two_threads: bool) -> Effort {
    let keyed = (!collating || n >= KEYED_FROM) && n <= KEYED_MAX;
    let so_far = if collating && keyed {
        COLLATED_SO_FAR.fetch_add(n, Ordering::Relaxed) + n
    } else {
        0
    };
    Effort {
        keyed,
        table: collating && keyed && so_far >= TABLE_FROM,
        two_threads,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn small_directories_are_not_keyed_in_a_collating_locale() {
        assert!(!for_names(10, true, false).keyed);
        assert!(!for_names(10, true, false).table);
        assert!(for_names(10, false, false).keyed);
    }

    #[test]
    fn the_table_from_a_thousand_names_keyed_in_the_run() {
        assert!(for_names(5_000, true, false).table);
        assert!(!for_names(5_000, false, false).table);
        // Later directories, however small, use the table once it pays.
        assert!(for_names(KEYED_FROM, true, false).table);
    }
}
