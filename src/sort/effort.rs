//! When sorting by name pays for keys, and for a second thread: the one
//! place that decides, from the number of names alone, so that small
//! directories (the common interactive case) take the plain path with no
//! key building and no thread start.
#![forbid(unsafe_code)]

/// How one directory's names are sorted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Effort {
    /// Build a key for every name first (strxfrm in a collating locale),
    /// instead of calling strcoll in every comparison.
    pub keyed: bool,
    /// Key all-ASCII names from a table of the ASCII characters' weights
    /// (built once, on first use) instead of calling strxfrm for each.
    pub table: bool,
    /// Into how many parts the names are split, each keyed and sorted on a
    /// thread of its own, then merged (1: the calling thread alone).
    pub parts: usize,
}

/// Below this many names strcoll comparisons (n log n of them) cost no
/// more than a strxfrm per name.
const KEYED_FROM: usize = 48;
/// Building and checking the ASCII weight table costs about as much as
/// strxfrm on a thousand names.
const TABLE_FROM: usize = 1_000;
/// A collation key costs about 0.4 µs a name, a thread about 50 µs to start
/// and join: from a few thousand names a second thread saves more than it
/// costs.
const SPLIT_COLLATED_FROM: usize = 4_000;
/// Byte-order keys are a copy: only the sort itself is split, which pays
/// from tens of thousands of names.
const SPLIT_BYTES_FROM: usize = 30_000;
/// Parts merged at the end: two halves (one merge pass).
const MAX_PARTS: usize = 2;

/// The effort for `n` names; `collating` when the locale's collation is not
/// byte order, `threads` whether more than one thread may be used at all
/// (`STATLS_THREADS=1` says no).
pub fn for_names(n: usize, collating: bool, threads: bool) -> Effort {
    let keyed = !collating || n >= KEYED_FROM;
    let split_from = if collating {
        SPLIT_COLLATED_FROM
    } else {
        SPLIT_BYTES_FROM
    };
    let parts = if threads && n >= split_from {
        crate::sys::limits::cpus().min(MAX_PARTS)
    } else {
        1
    };
    Effort {
        keyed,
        table: collating && n >= TABLE_FROM,
        parts,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn small_directories_take_the_plain_path() {
        let e = for_names(10, true, true);
        assert!(!e.keyed);
        assert_eq!(e.parts, 1);
        assert_eq!(for_names(10, false, true).parts, 1);
    }

    #[test]
    fn one_thread_when_threads_are_refused() {
        assert_eq!(for_names(1_000_000, true, false).parts, 1);
        assert_eq!(for_names(1_000_000, false, false).parts, 1);
    }
}
