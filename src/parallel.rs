//! Every decision about threads, and the only place that starts them: how
//! a directory's entries are probed (inline, or by `Probes` in a `Shape`),
//! how many workers read subdirectories ahead with `-R`, whether a long
//! listing is formatted or names are sorted on two threads. Answers come
//! from the filesystem (`pace`), the batch's size, the CPUs and
//! `STATLS_THREADS`. A thread that cannot start leaves its share to the
//! caller, and under a small address-space limit none starts
//! ([`threads_allowed`]): threads never make `ls` fail.
#![forbid(unsafe_code)]

use std::os::fd::BorrowedFd;
use std::sync::Arc;
use std::thread::Builder;

use crate::config::{Config, ProbeConcurrency};
use crate::entry::Entry;
use crate::sys::stat::{stat_fd, Need};

mod budget;
mod pace;
mod runner;
pub mod tuning;
mod watch;

pub use budget::{spare_descriptors, DescriptorBudget};
pub use pace::{pace_of, Pace};
use tuning::*;
pub use watch::{
    left_stuck, ready_watched_threads, spawn_watched, timed_all, timed_each, timed_out,
    watch_later, within, Beat, Watched,
};

/// Takes `m`'s lock, also when a thread panicked holding it: what the
/// threads share is left whole between statements, and one panic must not
/// cascade into every thread that shares it.
pub fn lock<T>(m: &std::sync::Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// How an entry is looked at.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Lookup {
    /// Each call names the entry relative to the open directory: one
    /// syscall each, the fastest way on a local disk and wherever names
    /// are answered from the cache.
    ByName,
    /// One `O_PATH` open (the only lookup of the name), then every call on
    /// that handle: where each name lookup waits on a server, this saves
    /// one round-trip per probe after the first.
    ByHandle,
}

/// Whether helper threads may be started at all (an address-space limit
/// may leave no room for them: [`ADDRESS_SPACE_FOR_THREADS`]).
pub fn threads_allowed() -> bool {
    crate::sys::limits::threads_allowed(ADDRESS_SPACE_FOR_THREADS)
}

/// Under a deadline, with `-R` read ahead on a local disk in `at_once`
/// chains (the walk hands every directory to a watched thread): threads
/// out of work look for more a moment before they sleep (see
/// [`IDLE_SPIN`]), as many at once as the chains and a directory's probe
/// workers.
pub fn keep_watched_threads_awake(at_once: usize) {
    watch::keep_watched_threads_awake(at_once + local_threads());
}

/// Threads for a large local directory: the CPUs, up to
/// [`LOCAL_THREADS_MAX`].
fn local_threads() -> usize {
    crate::sys::limits::cpus().min(LOCAL_THREADS_MAX)
}

/// Probes in flight that `STATLS_THREADS=N` asks for: N, up to
/// [`MAX_PROBE_THREADS`].
fn forced(n: usize) -> usize {
    n.min(MAX_PROBE_THREADS)
}

/// How one directory's entries are probed.
#[derive(Clone, Debug)]
pub enum Strategy {
    /// One at a time, by name, on the calling thread.
    Sequential,
    /// By the directory's `Probes`, in this shape.
    Probes(Shape),
}

/// The shape of a directory's probes on more than one thread: a large
/// local directory split over the CPUs (by name, [`LOCAL_CHUNK`] entries
/// at a time); a filesystem whose requests may wait on a server, `pace`d
/// (inline and by name while its answers are fast, from a cache; once
/// they are slow, the rest by handle, an entry at a time, on more
/// workers); under `--timeout`, `watched` (workers on watched threads,
/// more joining when every probe in flight is slow).
#[derive(Clone, Debug)]
pub struct Shape {
    /// Workers to start with: with no deadline the caller and those lent
    /// to the run's probe pool; watched, those on watched threads (paced:
    /// once the device is slow, one before).
    pub workers: usize,
    /// Entries a worker takes at a time.
    pub chunk: usize,
    pub pace: Option<Arc<Pace>>,
    pub watched: bool,
}

impl Shape {
    /// Whether probing pays from before the directory is read to its end:
    /// probes split over several CPUs (not waiting on a server).
    pub fn splits(&self) -> bool {
        self.pace.is_none() && self.workers > 1
    }
}

/// How to probe a directory's `count` entries. On a network or FUSE
/// filesystem: paced by the device's answers, up to [`MAX_PROBE_THREADS`]
/// in flight once they are slow, as far as the descriptor budget allows.
/// On a local disk: by name, one at a time, but split over the CPUs for a
/// directory large enough to repay it. `STATLS_THREADS=N` overlaps N ways
/// anywhere; `STATLS_THREADS=1`, nowhere. Under `--timeout` every probe
/// runs on a watched thread: a large local directory as it would be
/// split; a small local one on one worker, all its entries at once (a
/// worker whose probe is given up hands the rest back, so nothing is lost
/// by taking many); on a network or FUSE filesystem paced as without the
/// option, one worker while its answers come from the cache, the rest
/// joining once they wait on the server; with `STATLS_THREADS=1`, one
/// worker, an entry at a time.
pub fn probe_strategy(
    config: &Config,
    dir: BorrowedFd<'_>,
    dev: Option<(u32, u32)>,
    count: usize,
) -> Strategy {
    let unwatched = unwatched_strategy(config.probes, dir, dev, count);
    if config.timeout.is_none() {
        return unwatched;
    }
    let (workers, chunk) = match unwatched {
        Strategy::Probes(shape) => {
            return Strategy::Probes(Shape {
                watched: true,
                ..shape
            })
        }
        Strategy::Sequential if config.probes == ProbeConcurrency::Auto => (1, count.max(1)),
        Strategy::Sequential => (1, 1),
    };
    Strategy::Probes(Shape {
        workers,
        chunk,
        pace: None,
        watched: true,
    })
}

/// [`probe_strategy`] with no deadline, for `STATLS_THREADS` read as
/// `probes`.
fn unwatched_strategy(
    probes: ProbeConcurrency,
    dir: BorrowedFd<'_>,
    dev: Option<(u32, u32)>,
    count: usize,
) -> Strategy {
    if count < 2 || !threads_allowed() {
        return Strategy::Sequential;
    }
    let paced = |pace, n: usize| {
        Strategy::Probes(Shape {
            workers: n.min(spare_descriptors()).max(1),
            chunk: 1,
            pace: Some(pace),
            watched: false,
        })
    };
    match probes {
        ProbeConcurrency::Sequential => Strategy::Sequential,
        ProbeConcurrency::Forced(n) => paced(Pace::always_slow(), forced(n)),
        ProbeConcurrency::Auto => {
            // From the cache: no request even on a network filesystem.
            let dev = dev.or_else(|| stat_fd(dir, Need::NONE, true).ok().map(|m| m.dev()));
            match dev {
                Some(dev) if crate::sys::remote::is_remote(dev) => {
                    paced(pace_of(dev), MAX_PROBE_THREADS)
                }
                _ if count >= LOCAL_SPLIT_MIN && local_threads() > 1 => Strategy::Probes(Shape {
                    workers: local_threads(),
                    chunk: LOCAL_CHUNK,
                    pace: None,
                    watched: false,
                }),
                _ => Strategy::Sequential,
            }
        }
    }
}

/// How many directories' jobs run at once with `-R` (in chains, each
/// taking the next waiting), given the read-ahead's `workers`: as many;
/// under a deadline (`--timeout`, where the walk makes no request itself)
/// one more, so that the walk never waits on a job it could have had, and
/// one more again where entries are `probed` (a job then waits on a stat
/// per entry: `-lR` of 200 x 1 000 with three at once took 1.09 of the
/// time without the option, 1.13 with two; `-R` 1.12 with three, 1.06
/// with two).
pub fn jobs_at_once(workers: usize, probed: bool, deadline: bool) -> usize {
    match workers {
        0 => 0,
        _ if deadline => workers + 1 + usize::from(probed),
        _ => workers,
    }
}

/// Whether the walk waiting under a deadline for a read-ahead job looks
/// for its end before it sleeps (see [`WAIT_SPIN`]), where the directories
/// listed lately held `mean` entries: only small ones end within the look.
pub fn looks_for_job_end(mean: usize) -> bool {
    mean < WAIT_SPIN_MEAN_MAX
}

/// From how many entries a directory whose every entry is probed starts
/// its probes while it is still read (then only if its
/// [`probe_strategy`] for that many [`Shape::splits`]: a large local
/// directory): as many as make its probes worth splitting. `None` when
/// nothing is overlapped: one CPU, threads turned off or not allowed.
pub fn probe_while_reading(config: &Config) -> Option<usize> {
    let overlap = config.probes == ProbeConcurrency::Auto && crate::sys::limits::cpus() > 1;
    (overlap && threads_allowed()).then_some(LOCAL_SPLIT_MIN)
}

/// Sizes the run's probe pool, once the read-ahead workers are started:
/// with them, at most [`MAX_PROBE_THREADS`] threads probe or read at once
/// (`STATLS_THREADS=N`: N probes in flight per directory).
pub fn size_probe_pool(config: &Config, read_ahead_workers: usize) {
    let limit = match config.probes {
        _ if !threads_allowed() => 0,
        ProbeConcurrency::Sequential => 0,
        ProbeConcurrency::Forced(n) => forced(n) - 1,
        ProbeConcurrency::Auto => (MAX_PROBE_THREADS - 1)
            .saturating_sub(read_ahead_workers)
            .max(local_threads() - 1),
    };
    runner::pool().set_limit(limit);
}

/// Lends `copies` runs of `task` to the run's probe pool, whose threads
/// start as they are needed and serve the whole run; returns the loan, to
/// withdraw what no thread started once the lender finished the work.
pub fn lend(task: impl Fn() + Send + Sync + 'static, copies: usize) -> u64 {
    let task = Arc::new(task);
    let copies = (0..copies).map(|_| {
        let task = Arc::clone(&task);
        Box::new(move || task()) as runner::Task
    });
    runner::pool().lend(copies.collect())
}

/// Takes back what no pool thread started of loan `id`.
pub fn withdraw(id: u64) {
    runner::pool().withdraw(id);
}

/// Threads reading subdirectories ahead with `-R`: a CPU's worth less
/// one (the walk's own), up to three, on local disks; eight where each
/// directory read waits on a server. `STATLS_THREADS=N` asks for N (up
/// to eight) anywhere, `STATLS_THREADS=1` for none.
pub fn read_ahead_workers(config: &Config, dirs: &[Entry]) -> usize {
    if !config.recursive || !threads_allowed() {
        return 0;
    }
    match config.probes {
        ProbeConcurrency::Sequential => 0,
        ProbeConcurrency::Forced(n) => n.min(REMOTE_WORKERS),
        ProbeConcurrency::Auto if any_remote(dirs) => REMOTE_WORKERS,
        ProbeConcurrency::Auto => (crate::sys::limits::cpus() - 1).min(LOCAL_WORKERS_MAX),
    }
}

/// Directories read ahead at once by `workers` threads, within
/// `descriptors` (each thread holds one for its probe handle).
pub fn read_ahead_window(workers: usize, descriptors: usize) -> usize {
    match workers {
        0 => 0,
        _ => (READ_AHEAD_WINDOW_PER_THREAD * workers + READ_AHEAD_WINDOW_EXTRA)
            .min(descriptors.saturating_sub(workers)),
    }
}

/// The most directories read ahead at once within `descriptors`, by
/// `workers` threads (each holding one for its probe handle), each job
/// holding two with its `first_child`.
pub fn read_ahead_window_max(workers: usize, descriptors: usize, first_child: bool) -> usize {
    let free = descriptors.saturating_sub(workers);
    if first_child {
        free / 2
    } else {
        free
    }
}

/// Under `--timeout`, where the walk reads no directory itself and the
/// window is all that overlaps the jobs with it: directories read ahead
/// at once, for directories of `mean` entries, as many as stay fresh (half
/// the entries [`READ_AHEAD_MAX_LISTED_BETWEEN`] lets the walk list between
/// a job's end and its directory's listing), from `window` up to `max`
/// (bench/table.py `--ours-args=--timeout=30`: `-R` of 2 000 directories of
/// 20 took 48 ms with 8 at once, 39 with 21; of 400 of 500, 66 with 10 and
/// 77 with 21).
pub fn deadline_window(window: usize, max: usize, mean: usize) -> usize {
    let fresh = READ_AHEAD_MAX_LISTED_BETWEEN as usize / (2 * mean.max(1));
    fresh.max(window).min(max)
}

/// Whether each job of a read-ahead `window` may also hold its first
/// subdirectory read (under `--timeout`, where the walk cannot read that
/// one itself): a second descriptor per job, within `descriptors`.
pub fn first_child_fits(workers: usize, window: usize, descriptors: usize) -> bool {
    window > 0 && 2 * window + workers <= descriptors
}

/// Whether any of `dirs` (stat'ed operands) is on a network filesystem.
pub fn any_remote(dirs: &[Entry]) -> bool {
    dirs.iter()
        .filter_map(|e| e.meta.as_ref())
        .any(|m| crate::sys::remote::is_remote(m.dev()))
}

/// Whether the walk reads the next subdirectories ahead, given the mean
/// number of entries of the directories listed lately: when asked for
/// (`STATLS_THREADS=N`); on a network filesystem, while its answers wait
/// on a server (`pace`: from the start until the first probes are timed,
/// and whenever they are slow), and not while it answers from its cache
/// (a warm mount: the workers' hand-overs would cost more than the reads
/// they overlap); elsewhere where entries are `probed` (a stat each: read
/// ahead pays from a few entries a directory), and for bare names from
/// [`READ_AHEAD_MEAN_MIN`] entries a directory while the workers run
/// `beside` the walk (see [`read_ahead_runs_beside`]).
pub fn read_ahead_pays(
    config: &Config,
    remote: bool,
    probed: bool,
    (mean, beside): (usize, bool),
    deadline: Option<std::time::Duration>,
) -> bool {
    // Under a deadline the walk makes no request itself: a directory not
    // read ahead waits for a job's thread all the same.
    if deadline.is_some() || matches!(config.probes, ProbeConcurrency::Forced(_)) {
        return true;
    }
    if remote {
        return pace::remote_answers_wait();
    }
    probed || (mean >= READ_AHEAD_MEAN_MIN && beside)
}

/// Whether the read-ahead workers ran beside the walk, on another CPU,
/// over a stretch of `wall` time in which the process used `cpu`: a
/// scheduler may keep them on the walk's CPU however many are free (some
/// virtual machines pack threads onto as few CPUs as they can), and a
/// worker that only takes turns with the walk costs its hand-overs and
/// saves nothing where reading is all a directory costs (`ls -R` of 400
/// directories of 500 files: 0.70 of GNU's time so, 0.60 on one thread,
/// 0.45 on two CPUs). Beside: at least an eighth of a CPU more than the
/// walk's own (the process's CPU time is only brought up to date when a
/// thread is switched or ticks: over 16 directories, a stretch beside
/// measured anything from 0.7 to 2.6 CPUs, most above 1.4; one taking
/// turns 0.95 to 1.05).
pub fn read_ahead_runs_beside(cpu: std::time::Duration, wall: std::time::Duration) -> bool {
    cpu >= wall + wall / 8
}

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

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn read_ahead_runs_beside_from_an_eighth_cpu_more_than_the_walk() {
        let wall = Duration::from_millis(8);
        assert!(!read_ahead_runs_beside(Duration::from_millis(8), wall));
        assert!(!read_ahead_runs_beside(Duration::from_micros(8_999), wall));
        assert!(read_ahead_runs_beside(Duration::from_millis(9), wall));
        assert!(read_ahead_runs_beside(Duration::from_millis(16), wall));
    }

    #[test]
    fn under_a_deadline_the_window_holds_what_stays_fresh_within_the_descriptors() {
        // 1 000-entry directories: the usual window (ten would be as fresh).
        assert_eq!(deadline_window(8, 21, 1_000), 8);
        // 500: ten of them are 5 000 entries, half the staleness bound.
        assert_eq!(deadline_window(8, 21, 500), 10);
        // 20: as many as the descriptors hold, two each with a first child.
        let max = read_ahead_window_max(1, 44, true);
        assert_eq!(max, 21);
        assert_eq!(deadline_window(8, max, 20), 21);
        assert_eq!(deadline_window(8, max, 0), 21);
    }
}
