//! How one directory's entries are probed: by name or by handle, on how
//! many threads, decided from the filesystem (local or network), the
//! number of entries that need a probe, and `STATLS_THREADS`.
#![forbid(unsafe_code)]

use std::os::fd::BorrowedFd;

use super::probe::Lookup;
use crate::config::{Config, ProbeConcurrency, MAX_PROBE_THREADS};
use crate::sys::stat::{stat_fd, Need};

/// Entries to probe before a local directory is split over the CPUs: below
/// this, starting threads costs more than it saves.
const LOCAL_SPLIT_MIN: usize = 2048;

/// Entries a thread takes at a time on a local disk.
const LOCAL_CHUNK: usize = 64;

/// Threads for a large local directory: the CPUs, up to four (the kernel's
/// dentry and inode caches stop scaling for one directory beyond that).
fn local_threads() -> usize {
    crate::sys::limits::cpus().min(4)
}

/// How one directory's entries are probed.
#[derive(Clone, Copy)]
pub struct Strategy {
    pub lookup: Lookup,
    pub threads: usize,
    pub chunk: usize,
}

impl Strategy {
    pub const SEQUENTIAL: Strategy = Strategy {
        lookup: Lookup::ByName,
        threads: 1,
        chunk: 1,
    };
}

/// How to probe a directory's entries. Where each request is a
/// round-trip (network and FUSE filesystems): by handle (one lookup per
/// entry), with up to [`MAX_PROBE_THREADS`] in flight, as far as the
/// descriptor budget allows. On a local disk: by name, one at a time,
/// but split over the CPUs for a directory large enough to repay the
/// threads. `STATLS_THREADS` overrides the thread count.
pub fn choose(
    config: &Config,
    dir: BorrowedFd<'_>,
    dev: Option<(u32, u32)>,
    count: usize,
) -> Strategy {
    if count < 2 {
        return Strategy::SEQUENTIAL;
    }
    // From the cache: no request even on a network filesystem.
    let remote = || {
        dev.or_else(|| stat_fd(dir, Need::NONE, true).ok().map(|m| m.dev()))
            .is_some_and(crate::sys::remote::is_remote)
    };
    let by_handle = |threads: usize| Strategy {
        lookup: Lookup::ByHandle,
        threads: threads.min(super::budget::Budget::get().handles),
        chunk: 1,
    };
    match config.probes {
        ProbeConcurrency::Sequential if remote() => by_handle(1),
        ProbeConcurrency::Sequential => Strategy::SEQUENTIAL,
        ProbeConcurrency::Forced(n) => by_handle(n),
        ProbeConcurrency::Auto if remote() => by_handle(count.min(MAX_PROBE_THREADS)),
        ProbeConcurrency::Auto if count >= LOCAL_SPLIT_MIN => Strategy {
            lookup: Lookup::ByName,
            threads: local_threads(),
            chunk: LOCAL_CHUNK,
        },
        ProbeConcurrency::Auto => Strategy::SEQUENTIAL,
    }
}
