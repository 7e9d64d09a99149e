//! Every decision about threads, and the only place that starts them: how
//! a directory's entries are probed (by name or by handle, on how many
//! threads), how many workers read subdirectories ahead with `-R`, whether
//! a long listing is formatted on two threads, whether names are keyed and
//! sorted on two threads. Each answer comes from the
//! filesystem (local or network), the size of the batch, the CPUs, and
//! `STATLS_THREADS` (as `config.probes`). The walk and the long format ask
//! here and hand their work to the spawn helpers at the end; a thread that
//! cannot be started (limits) leaves its share to the caller, and under a
//! small address-space limit none is started at all
//! ([`crate::sys::limits::threads_allowed`]): threads must never make `ls`
//! fail where one thread succeeds.
#![forbid(unsafe_code)]

use std::os::fd::BorrowedFd;
use std::thread::Builder;
pub use std::thread::{scope, Scope};

use crate::config::{Config, ProbeConcurrency, MAX_PROBE_THREADS};
use crate::entry::Entry;
use crate::sys::limits::threads_allowed;
use crate::sys::stat::{stat_fd, Need};

/// How an entry is looked at.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Lookup {
    /// Each call names the entry relative to the open directory: one
    /// syscall each, the fastest way on a local disk.
    ByName,
    /// One `O_PATH` open (the only lookup of the name), then every call on
    /// that handle: on a network filesystem each name lookup is a
    /// round-trip, so this saves one per probe after the first.
    ByHandle,
}

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
pub fn probe_strategy(
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
        threads: threads.min(crate::sys::limits::spare_descriptors()),
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

/// From how many entries a local directory's probes start while it is
/// still being read (on a helper thread, the walk joining once reading
/// ends): as many as make its probes worth splitting. `None` when nothing
/// is overlapped: one CPU, threads turned off, or no threads allowed.
pub fn probe_while_reading(config: &Config) -> Option<usize> {
    (config.probes == ProbeConcurrency::Auto && crate::sys::limits::cpus() > 1 && threads_allowed())
        .then_some(LOCAL_SPLIT_MIN)
}

/// Whether a directory whose reading reached [`probe_while_reading`]'s
/// count is one whose probes are split by name over the CPUs (a local
/// one), rather than sent by handle to a server.
pub fn splits_locally(config: &Config, dir: BorrowedFd<'_>, dev: Option<(u32, u32)>) -> bool {
    let large = probe_strategy(config, dir, dev, LOCAL_SPLIT_MIN);
    large.lookup == Lookup::ByName && large.threads > 1
}

/// Threads reading subdirectories ahead with `-R`: a CPU's worth less
/// one (the walk's own), up to three, on local disks; eight where each
/// directory read waits on a server. `STATLS_THREADS=N` asks for N (up
/// to eight) anywhere, `STATLS_THREADS=1` for none.
pub fn read_ahead_workers(config: &Config, dirs: &[Entry]) -> usize {
    const REMOTE_WORKERS: usize = 8;
    if !config.recursive || !threads_allowed() {
        return 0;
    }
    match config.probes {
        ProbeConcurrency::Sequential => 0,
        ProbeConcurrency::Forced(n) => n.min(REMOTE_WORKERS),
        ProbeConcurrency::Auto if any_remote(dirs) => REMOTE_WORKERS,
        ProbeConcurrency::Auto => (crate::sys::limits::cpus() - 1).min(3),
    }
}

/// Whether any of `dirs` (stat'ed operands) is on a network filesystem.
pub fn any_remote(dirs: &[Entry]) -> bool {
    dirs.iter()
        .filter_map(|e| e.meta.as_ref())
        .any(|m| crate::sys::remote::is_remote(m.dev()))
}

/// Entries a local directory must hold (on average over those listed
/// lately) for reading it ahead to pay when nothing in it is stat'ed:
/// reading is then all a directory costs, and below this handing it to a
/// worker and back costs more (`ls -R` of 2 000 directories of 20 files:
/// 20 ms on one thread, 31 with a worker, GNU 26; of 250 of 200: 14 and
/// 16; of 200 of 1 000: 62 and 58).
const READ_AHEAD_MEAN_MIN: usize = 512;

/// Whether the walk reads the next subdirectories ahead, given the mean
/// number of entries of the directories listed lately: always where each
/// directory waits on a server, or where its entries are `probed` (a stat
/// each: read ahead pays from a few entries a directory), or when asked
/// for (`STATLS_THREADS=N`); for bare names, from
/// [`READ_AHEAD_MEAN_MIN`] entries a directory.
pub fn read_ahead_pays(config: &Config, remote: bool, probed: bool, mean: usize) -> bool {
    remote
        || probed
        || matches!(config.probes, ProbeConcurrency::Forced(_))
        || mean >= READ_AHEAD_MEAN_MIN
}

/// Long listings from this many lines are formatted on two threads.
const PARALLEL_LINES_MIN: usize = 8192;

/// Lines per block handed between the two threads of a long listing.
pub const PARALLEL_BLOCK: usize = 2048;

/// Whether a long listing of `lines` lines is formatted on two threads:
/// when its lines are `independent` (no state carried from one to the
/// next), there are enough of them, and there is a second CPU.
/// `STATLS_THREADS=N` asks for it on one CPU too (so that tests cover it
/// anywhere), `STATLS_THREADS=1` says no.
pub fn long_format_on_two_threads(config: &Config, lines: usize, independent: bool) -> bool {
    let asked = match config.probes {
        ProbeConcurrency::Sequential => false,
        ProbeConcurrency::Forced(_) => true,
        ProbeConcurrency::Auto => crate::sys::limits::cpus() > 1,
    };
    lines >= PARALLEL_LINES_MIN && independent && threads_allowed() && asked
}

/// Names from which keying and sorting two halves on two threads saves
/// more than the thread costs (about 50 µs to start and join, up to a few
/// milliseconds before a second virtual CPU runs it) and the merge (about
/// 12 ns a name): a strxfrm costs about 0.4 µs a name; a byte-order key
/// and its share of the radix sort about 60 ns, which pays for the split
/// only from a few hundred thousand names (at 100 000 one thread is 3 %
/// faster).
const SORT_SPLIT_COLLATED_MIN: usize = 4_000;
const SORT_SPLIT_BYTES_MIN: usize = 250_000;

/// Whether `names` names are sorted as two halves on two threads, then
/// merged; `collating` when keys come from the locale's collation.
/// `STATLS_THREADS=1` says no.
pub fn sort_on_two_threads(config: &Config, names: usize, collating: bool) -> bool {
    let min = if collating {
        SORT_SPLIT_COLLATED_MIN
    } else {
        SORT_SPLIT_BYTES_MIN
    };
    names >= min && config.probes != ProbeConcurrency::Sequential && crate::sys::limits::cpus() > 1
}

/// A probe thread's stack: probes use a few hundred bytes of buffers.
const PROBE_STACK: usize = 128 * 1024;

/// A read-ahead worker's stack.
const READ_AHEAD_STACK: usize = 64 * 1024;

/// The long format's helper's stack: lines are built in heap buffers, and
/// the C library's time and name lookups need a few KiB (not the 2 MiB
/// default, which counts against an address-space limit).
const HELPER_STACK: usize = 256 * 1024;

/// Runs `work` on `threads` threads at once, the calling thread included,
/// and returns when every one has returned. Threads that cannot be started
/// leave the work to those that could, down to the calling thread alone.
pub fn on_threads(threads: usize, work: impl Fn() + Sync) {
    let threads = if threads_allowed() { threads } else { 1 };
    std::thread::scope(|scope| {
        for _ in 1..threads {
            let spawned = Builder::new()
                .stack_size(PROBE_STACK)
                .spawn_scoped(scope, &work);
            if spawned.is_err() {
                break;
            }
        }
        work();
    });
}

/// Starts a thread in `scope` that probes entries while the walk reads
/// more; whether it started.
pub fn spawn_prober<'scope, 'env>(
    scope: &'scope Scope<'scope, 'env>,
    work: impl FnOnce() + Send + 'scope,
) -> bool {
    threads_allowed()
        && Builder::new()
            .stack_size(PROBE_STACK)
            .spawn_scoped(scope, work)
            .is_ok()
}

/// Starts `count` read-ahead workers in `scope`, each running what `make`
/// returns; returns how many could be started.
pub fn spawn_workers<'scope, 'env, F>(
    scope: &'scope Scope<'scope, 'env>,
    count: usize,
    mut make: impl FnMut() -> F,
) -> usize
where
    F: FnOnce() + Send + 'scope,
{
    let count = if threads_allowed() { count } else { 0 };
    let mut started = 0;
    for _ in 0..count {
        let spawned = Builder::new()
            .stack_size(READ_AHEAD_STACK)
            .spawn_scoped(scope, make());
        if spawned.is_ok() {
            started += 1;
        }
    }
    started
}

/// Runs `helper` on a second thread while `main` runs on this one; `main`
/// is told whether the helper started (if not, `main` does its share).
/// Returns what `main` returned, and what the helper returned if it ran to
/// the end; the helper is joined after `main` returns.
pub fn with_helper<T: Send, U>(
    helper: impl FnOnce() -> T + Send,
    main: impl FnOnce(bool) -> U,
) -> (U, Option<T>) {
    if !threads_allowed() {
        return (main(false), None);
    }
    std::thread::scope(|scope| {
        let spawned = Builder::new()
            .stack_size(HELPER_STACK)
            .spawn_scoped(scope, helper);
        let mine = main(spawned.is_ok());
        let theirs = spawned.ok().and_then(|h| h.join().ok());
        (mine, theirs)
    })
}
