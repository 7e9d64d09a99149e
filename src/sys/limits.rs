//! Process limits that bound how much the walk may hold at once.

use std::sync::OnceLock;

/// Descriptors kept back from the probe threads: standard streams, the
/// directories held open along a `-R` path, the directory being read.
const RESERVED: u64 = 32;

/// How many O_PATH handles may be open at once beyond what the walk itself
/// holds: the soft `RLIMIT_NOFILE` less a reserve, at least 1 (under
/// `ulimit -n 64` that is 32). A probe that still meets EMFILE falls back
/// to asking by name.
pub fn spare_descriptors() -> usize {
    static SPARE: OnceLock<usize> = OnceLock::new();
    *SPARE.get_or_init(|| {
        let limit = rustix::process::getrlimit(rustix::process::Resource::Nofile);
        match limit.current {
            Some(n) => usize::try_from(n.saturating_sub(RESERVED).max(1)).unwrap_or(usize::MAX),
            None => usize::MAX,
        }
    })
}

/// CPUs this process may run on (its affinity mask), at least 1. Not
/// `std::thread::available_parallelism`, which also reads cgroup files
/// (and stats them with a full mask): `ls` asks the kernel for nothing it
/// does not print.
pub fn cpus() -> usize {
    static CPUS: OnceLock<usize> = OnceLock::new();
    *CPUS.get_or_init(|| {
        rustix::thread::sched_getaffinity(None)
            .map_or(1, |set| set.count() as usize)
            .max(1)
    })
}
