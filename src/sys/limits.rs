//! Process limits that bound how much the walk may hold at once: the
//! descriptors still free under `RLIMIT_NOFILE` (not the limit alone: a
//! parent may leave hundreds open), the CPUs, and whether an address-space
//! limit (`ulimit -v`) leaves room for helper threads. How the free
//! descriptors are shared out is `parallel`'s (`parallel/budget`).

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

/// Whether helper threads may be started (asked before any is): no
/// address-space limit, or one of at least `min_address_space` bytes
/// (always the same figure: the answer is kept). Under any address-space
/// limit the threads share the main thread's malloc arena, so that they
/// reserve no address space beyond their stacks.
pub fn threads_allowed(min_address_space: u64) -> bool {
    static ALLOWED: OnceLock<bool> = OnceLock::new();
    *ALLOWED.get_or_init(|| match getrlimit(Resource::As).current {
        None => true,
        Some(limit) => {
            // SAFETY: mallopt only sets an allocator parameter; it is
            // called before any helper thread exists.
            unsafe { libc::mallopt(libc::M_ARENA_MAX, 1) };
            limit >= min_address_space
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
