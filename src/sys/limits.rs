//! Process limits that bound how much the walk may hold at once: the
//! descriptors still free under `RLIMIT_NOFILE` (not the limit alone: a
//! parent may leave hundreds open), the CPUs, and whether an address-space
//! limit (`ulimit -v`) leaves room for helper threads.
//!
//! The policy that shares the free descriptors out lives here too
//! ([`DescriptorBudget`]), next to the count it divides.

use std::sync::OnceLock;

use rustix::fs::{Mode, OFlags, RawDir};
use rustix::process::{getrlimit, Resource};

/// Descriptors this process may still open: the soft `RLIMIT_NOFILE` less
/// those open now, counted once, on first use (the standard streams and
/// whatever the parent left open). `usize::MAX` without a limit.
///
/// Counted by listing `/proc/self/fd` (opened without `O_DIRECTORY`, and
/// closed again at once); where that cannot be opened for want of a
/// descriptor, none is free; without `/proc`, only the standard streams
/// are taken to be open.
pub fn free_descriptors() -> usize {
    static FREE: OnceLock<usize> = OnceLock::new();
    *FREE.get_or_init(|| {
        let Some(limit) = getrlimit(Resource::Nofile).current else {
            return usize::MAX;
        };
        let limit = usize::try_from(limit).unwrap_or(usize::MAX);
        let open = match open_descriptors() {
            Ok(n) => n,
            Err(rustix::io::Errno::MFILE | rustix::io::Errno::NFILE) => limit,
            Err(_) => 3,
        };
        limit.saturating_sub(open)
    })
}

/// The error of a call that needed a descriptor when none was left
/// (EMFILE: this process's limit; ENFILE: the system's).
pub fn is_descriptor_exhaustion(e: &std::io::Error) -> bool {
    let emfile = rustix::io::Errno::MFILE.raw_os_error();
    let enfile = rustix::io::Errno::NFILE.raw_os_error();
    matches!(e.raw_os_error(), Some(n) if n == emfile || n == enfile)
}

/// How many descriptors are open (the one used to count them excluded).
fn open_descriptors() -> rustix::io::Result<usize> {
    let flags = OFlags::RDONLY | OFlags::CLOEXEC;
    let fd = rustix::fs::openat(rustix::fs::CWD, c"/proc/self/fd", flags, Mode::empty())?;
    let mut buffer = [std::mem::MaybeUninit::<u8>::uninit(); 4096];
    let mut dir = RawDir::new(&fd, &mut buffer);
    let mut count = 0usize;
    while let Some(entry) = dir.next() {
        if !entry?.file_name().to_bytes().starts_with(b".") {
            count += 1;
        }
    }
    Ok(count.saturating_sub(1))
}

/// The address-space limit (`ulimit -v`) below which no helper thread is
/// started: each costs a stack (64-256 KiB here, with a guard page) and
/// the C library would give it a malloc arena of its own, reserving up to
/// 64 MiB of address space. Under it, `ls` lists exactly as with one thread
/// (`STATLS_THREADS=1`), so threads never make it fail where one thread
/// succeeds; above it their stacks, about 5 MiB at most, are 2 % of it.
const ADDRESS_SPACE_FOR_THREADS: u64 = 256 << 20;

/// Whether helper threads may be started (asked before any is). Under any
/// address-space limit the threads share the main thread's malloc arena,
/// so that they reserve no address space beyond their stacks.
pub fn threads_allowed() -> bool {
    static ALLOWED: OnceLock<bool> = OnceLock::new();
    *ALLOWED.get_or_init(|| match getrlimit(Resource::As).current {
        None => true,
        Some(limit) => {
            // SAFETY: mallopt only sets an allocator parameter; it is
            // called before any helper thread exists.
            unsafe { libc::mallopt(libc::M_ARENA_MAX, 1) };
            limit >= ADDRESS_SPACE_FOR_THREADS
        }
    })
}

/// Descriptors opened and closed again in passing (user and group
/// lookups, a message catalog).
const TRANSIENT: usize = 2;

/// Directories held open along the `-R` path, at most.
pub const CHAIN_MAX: usize = 16;

/// Descriptors the read-ahead may use, at most: a window of 36 directories
/// for 8 workers, and a probe handle for each worker.
const READ_AHEAD_MAX: usize = 36 + 8;

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
        let spare = free.saturating_sub(1 + TRANSIENT);
        let chain = spare.div_ceil(2).min(CHAIN_MAX);
        let read_ahead = (spare - chain).min(READ_AHEAD_MAX);
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

/// CPU time this process has used so far, all its threads together
/// (`CLOCK_PROCESS_CPUTIME_ID`); `None` where the kernel will not say.
pub fn process_cpu_time() -> Option<std::time::Duration> {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `ts` is a valid, writable timespec for the call's duration.
    let rc = unsafe { libc::clock_gettime(libc::CLOCK_PROCESS_CPUTIME_ID, &mut ts) };
    let secs = u64::try_from(ts.tv_sec).ok()?;
    let nanos = u32::try_from(ts.tv_nsec).ok()?;
    (rc == 0).then(|| std::time::Duration::new(secs, nanos))
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
            let held = 1 + TRANSIENT + b.chain + b.read_ahead;
            assert!(held <= free.max(1 + TRANSIENT), "{free} free: {b:?}");
            assert!(b.chain <= CHAIN_MAX && b.read_ahead <= READ_AHEAD_MAX);
        }
        let plenty = DescriptorBudget::of(usize::MAX);
        assert_eq!(
            (plenty.chain, plenty.read_ahead),
            (CHAIN_MAX, READ_AHEAD_MAX)
        );
    }
}
