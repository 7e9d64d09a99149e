//! How the descriptors still free at start-up are shared out between the
//! `-R` path, the read-ahead and the overlapped probes' handles: what the
//! walk holds for speed never makes it fail where GNU ls succeeds.
#![forbid(unsafe_code)]

use std::sync::OnceLock;

use super::tuning::{CHAIN_MAX, READ_AHEAD_DESCRIPTORS_MAX, TRANSIENT_DESCRIPTORS};
use crate::sys::limits::free_descriptors;

/// How the descriptors still free at start-up are shared out, so that
/// nothing the walk holds for speed can make it fail to open a directory
/// (or the C library fail to look up a user) where GNU ls succeeds: GNU
/// holds one directory at a time and closes it before formatting.
///
/// In order: one for the directory being read, a few kept free for what
/// opens a descriptor for a moment (user and group lookups read
/// nsswitch.conf and /etc/passwd or call an NSS module; a message catalog
/// is mapped once), then half the rest (at most [`CHAIN_MAX`]) for the
/// directories held open along the `-R` path, then the read-ahead (its
/// directories and its workers' probe handles), then the overlapped
/// probes' handles. With 4 free descriptors the path holds one; with 3 or
/// fewer it holds none and the walk opens each directory by its path, as
/// GNU does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DescriptorBudget {
    /// Directories held open along the `-R` path.
    pub chain: usize,
    /// Directories read ahead and their workers' handles.
    pub read_ahead: usize,
    /// `O_PATH` handles of the overlapped probes (at least 1: a probe that
    /// still meets EMFILE asks by name instead).
    pub handles: usize,
}

impl DescriptorBudget {
    /// The shares of `free` descriptors.
    pub fn of(free: usize) -> DescriptorBudget {
        let spare = free.saturating_sub(1 + TRANSIENT_DESCRIPTORS);
        let chain = spare.div_ceil(2).min(CHAIN_MAX);
        let read_ahead = (spare - chain).min(READ_AHEAD_DESCRIPTORS_MAX);
        let handles = (spare - chain - read_ahead).max(1);
        DescriptorBudget {
            chain,
            read_ahead,
            handles,
        }
    }

    /// The shares of the descriptors free at start-up (counted once).
    pub fn get() -> DescriptorBudget {
        static BUDGET: OnceLock<DescriptorBudget> = OnceLock::new();
        *BUDGET.get_or_init(|| DescriptorBudget::of(free_descriptors()))
    }
}

/// How many `O_PATH` handles the overlapped probes may hold at once (the
/// budget's share; at least 1: a probe that meets EMFILE asks by name).
pub fn spare_descriptors() -> usize {
    DescriptorBudget::get().handles
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn four_free_descriptors_hold_one_directory_of_the_path() {
        assert_eq!(DescriptorBudget::of(4).chain, 1);
        assert_eq!(DescriptorBudget::of(4).read_ahead, 0);
        for free in 0..=3 {
            assert_eq!(DescriptorBudget::of(free).chain, 0, "{free} free");
        }
    }

    #[test]
    fn shares_never_exceed_what_is_free() {
        for free in 0..200 {
            let b = DescriptorBudget::of(free);
            let held = 1 + TRANSIENT_DESCRIPTORS + b.chain + b.read_ahead;
            assert!(
                held <= free.max(1 + TRANSIENT_DESCRIPTORS),
                "{free} free: {b:?}"
            );
            assert!(b.chain <= CHAIN_MAX && b.read_ahead <= READ_AHEAD_DESCRIPTORS_MAX);
        }
        let plenty = DescriptorBudget::of(usize::MAX);
        assert_eq!(
            (plenty.chain, plenty.read_ahead),
            (CHAIN_MAX, READ_AHEAD_DESCRIPTORS_MAX)
        );
    }
}
