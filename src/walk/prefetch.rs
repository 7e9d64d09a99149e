//! Reading ahead with `-R`: while the main thread formats and prints one
//! directory, a few workers open and read the subdirectories that come
//! next (and, where that is how they would be probed, stat their entries,
//! and where nothing went wrong, make and sort them, leaving the walk only
//! the printing: `dir_read`). Nothing is printed or reported by a worker: each result waits
//! until the walk reaches its directory, which then goes on exactly as if
//! it had been read there and then, so output, messages and their order do
//! not change.
//!
//! Bounded in descriptors: at most [`Prefetcher::window`] directories are
//! read ahead at a time, each holding one descriptor, within the share of
//! the free descriptors the budget gives the read-ahead; only
//! subdirectories of the directory on top of the `-R` path are read ahead
//! (opened relative to its descriptor, shared by `Arc`), so no pending
//! work item holds a descriptor. A job the walk reaches before any worker
//! took it is done by the walk itself, and so is one whose open met the
//! descriptor limit (EMFILE, ENFILE: never reported from here), which also
//! halves the window.
//!
//! Bounded in staleness: a directory read ahead is listed no later than
//! [`READ_AHEAD_MAX_AGE`] after its reading (and probing) ended, and with no more than
//! [`READ_AHEAD_MAX_LISTED_BETWEEN`] entries listed by the walk in between; a result
//! older than that is dropped, and the directory read again (ahead once
//! more when the walk nears it, then by the walk when its turn comes: no
//! directory is read more than three times), so a listing is never staler
//! than GNU's by more than that.
#![forbid(unsafe_code)]

use std::collections::{HashMap, HashSet};
use std::ffi::CString;
use std::os::fd::{AsFd, OwnedFd};
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Condvar, Mutex};
use std::time::Instant;

use super::dir_read::{bytes_in, read_ahead, Context, Outcome};
use super::trial::Trial;
use super::watched::JobContext;
use super::watched_ahead::WatchedAhead;
use crate::parallel::tuning::HELD_BYTES_MAX;
use crate::parallel::{self, lock, Scope};
use crate::sys::dir::DirBuffer;
use crate::sys::limits::is_descriptor_exhaustion;

use crate::parallel::tuning::{READ_AHEAD_MAX_AGE, READ_AHEAD_MAX_LISTED_BETWEEN};

/// A finished job's outcome, with when it finished.
struct Done {
    outcome: Outcome,
    at: Instant,
    /// The walk's count of entries listed when it finished.
    listed: u64,
}

impl Done {
    /// Too old to be listed as if read now.
    fn stale(&self, now: Instant, listed: u64) -> bool {
        stale((self.at, self.listed), now, listed)
    }
}

/// Whether a directory read at `at`, when the walk had listed `then`
/// entries, is too old to be listed now that it has listed `listed`.
fn stale((at, then): (Instant, u64), now: Instant, listed: u64) -> bool {
    now.saturating_duration_since(at) > READ_AHEAD_MAX_AGE
        || listed.saturating_sub(then) > READ_AHEAD_MAX_LISTED_BETWEEN
}

struct Job {
    id: u64,
    parent: Arc<OwnedFd>,
    name: CString,
    path: Vec<u8>,
}

/// Jobs are kept as a stack: the walk is depth first, so the newest jobs
/// (subdirectories of the deepest directory) are needed soonest.
#[derive(Default)]
struct State {
    /// Not started; the top is the next to do.
    queue: Vec<Job>,
    running: HashSet<u64>,
    done: HashMap<u64, Done>,
    /// Bytes held in `done`: workers pause at [`HELD_BYTES_MAX`].
    held: usize,
    closed: bool,
    /// Workers waiting for a job, and whether the walk waits for one to
    /// finish: a condition variable is signalled only when someone waits
    /// (each signal is a system call, and a tree of small directories
    /// makes several per directory).
    idle_workers: usize,
    walk_waits: bool,
}

impl State {
    /// Records a finished job, unless its open met the descriptor limit:
    /// then the walk does it itself, and the window shrinks to half the
    /// descriptors the read-ahead holds.
    fn finish(&mut self, id: u64, outcome: Outcome, shared: &Shared) {
        if let Err(e) = &outcome {
            if is_descriptor_exhaustion(e) {
                let holding = self.running.len() + self.done.len();
                shared.cap.fetch_min(holding / 2, Ordering::Relaxed);
                return;
            }
        }
        self.held += bytes_in(&outcome);
        let done = Done {
            outcome,
            at: Instant::now(),
            listed: shared.listed.load(Ordering::Relaxed),
        };
        self.done.insert(id, done);
    }

    fn collect(&mut self, id: u64) -> Option<Done> {
        let done = self.done.remove(&id)?;
        self.held -= bytes_in(&done.outcome);
        Some(done)
    }

    /// A job a worker may start now.
    fn next_job(&mut self) -> Option<Job> {
        if self.held >= HELD_BYTES_MAX {
            return None;
        }
        self.queue.pop()
    }
}

#[derive(Default)]
struct Shared {
    state: Mutex<State>,
    /// Signalled when a job is queued or the pool closes.
    work: Condvar,
    /// Signalled when a job is done.
    finished: Condvar,
    /// Directories that may be read ahead at once: lowered when an open
    /// meets the descriptor limit.
    cap: AtomicUsize,
    /// Entries the walk has listed so far (the measure of work between a
    /// directory's reading ahead and its listing).
    listed: AtomicU64,
}

pub struct Prefetcher<'a> {
    shared: Arc<Shared>,
    /// Starts the workers, on the first directory submitted: a walk that
    /// never reads ahead (a warm network mount) starts none.
    start_workers: Option<Box<dyn FnOnce() -> usize + 'a>>,
    /// The read-ahead's share of the free descriptors.
    descriptors: usize,
    /// For the jobs the walk does itself while a worker is on the one it
    /// needs.
    context: Context<'a>,
    buffer: DirBuffer,
    /// Directories that may be read ahead at once, at most.
    window: usize,
    next_id: u64,
    /// Jobs submitted and not yet taken back.
    outstanding: usize,
    /// Jobs withdrawn before any worker started them, or whose results
    /// went stale.
    withdrawn: HashSet<u64>,
    /// Jobs whose results went stale (the walk reads ahead such a
    /// directory once more at most).
    stale: HashSet<u64>,
    /// Whether the workers run beside the walk.
    trial: Trial,
    /// With `--timeout`: the jobs, on watched threads (no workers).
    watched: Option<WatchedAhead>,
}

impl Shared {
    /// Wakes the idle workers, if any (`state` is released first).
    fn wake_workers(&self, state: std::sync::MutexGuard<'_, State>) {
        let idle = state.idle_workers > 0;
        drop(state);
        if idle {
            self.work.notify_all();
        }
    }

    /// Waits, as the walk, for a job to finish.
    fn wait_finished<'s>(
        &self,
        mut state: std::sync::MutexGuard<'s, State>,
    ) -> std::sync::MutexGuard<'s, State> {
        state.walk_waits = true;
        let mut state = self.finished.wait(state).unwrap_or_else(|e| e.into_inner());
        state.walk_waits = false;
        state
    }
}

/// Directories read ahead at once by `workers` workers, within
/// `descriptors` (each worker holds one for its probe handle).
fn window_of(workers: usize, descriptors: usize) -> usize {
    if workers == 0 {
        0
    } else {
        (4 * workers + 4).min(descriptors - workers)
    }
}

impl<'scope> Prefetcher<'scope> {
    /// Readies up to `workers` threads in `scope` (none: reading ahead is
    /// off), as many as `descriptors` allow: each reads ahead with a
    /// probe handle of its own, and the rest of the share is the window.
    /// They start now, or `lazily`, with the first directory submitted.
    pub fn start<'env>(
        scope: &'scope Scope<'scope, 'env>,
        workers: usize,
        descriptors: usize,
        context: Context<'env>,
        (jobs, lazily): (Option<JobContext>, bool),
    ) -> Prefetcher<'scope> {
        let shared = Arc::new(Shared::default());
        let workers = workers.min(descriptors / 2);
        let mut window = window_of(workers, descriptors);
        // With `--timeout`, jobs on watched threads, as many at once as
        // workers would read (plus one): no workers.
        let watched = (context.config.timeout)
            .zip(jobs)
            .filter(|_| workers > 0)
            .map(|(limit, jobs)| {
                let at_once = parallel::watched_jobs_at_once(workers, jobs.plan.probes_files());
                WatchedAhead::new(limit, jobs, at_once)
            });
        let mut start_workers = (workers > 0 && watched.is_none()).then(|| {
            let shared = Arc::clone(&shared);
            let context = context.clone();
            Box::new(move || {
                parallel::spawn_workers(scope, workers, || {
                    let shared = Arc::clone(&shared);
                    let context = context.clone();
                    move || work(&shared, &context)
                })
            }) as Box<dyn FnOnce() -> usize + 'scope>
        });
        // On a local disk they start now: starting them with the first
        // directory submitted made `-R` of 200 x 1 000 5-8 % slower.
        if let Some(start) = start_workers.take_if(|_| !lazily) {
            // Fewer started than readied (limits): a window for those.
            window = window.min(window_of(start(), descriptors));
        }
        shared.cap.store(window, Ordering::Relaxed);
        Prefetcher {
            shared,
            start_workers,
            descriptors,
            context,
            buffer: DirBuffer::default(),
            window,
            next_id: 0,
            outstanding: 0,
            withdrawn: HashSet::new(),
            stale: HashSet::new(),
            trial: Trial::default(),
            watched,
        }
    }

    /// How many directories may be read ahead at once.
    pub fn window(&self) -> usize {
        self.window.min(self.shared.cap.load(Ordering::Relaxed))
    }

    /// The walk has listed a directory of `entries` entries.
    pub fn listed(&mut self, entries: usize) {
        self.trial.listed();
        self.shared
            .listed
            .fetch_add(entries as u64, Ordering::Relaxed);
    }

    /// Forgets a withdrawn job that is submitted again under a new id.
    pub fn forget(&mut self, id: u64) {
        self.withdrawn.remove(&id);
        self.stale.remove(&id);
    }

    /// Drops the results that grew stale waiting (their descriptors and
    /// names with them): those directories are read again when the walk
    /// nears them.
    pub fn expire(&mut self) {
        if self.outstanding == 0 {
            return;
        }
        let now = Instant::now();
        let listed = self.shared.listed.load(Ordering::Relaxed);
        if let Some(watched) = self.watched.as_mut() {
            for id in watched.expire(|at, then| stale((at, then), now, listed)) {
                self.withdrawn.insert(id);
                self.stale.insert(id);
                self.outstanding -= 1;
            }
            return;
        }
        let mut state = lock(&self.shared.state);
        let stale: Vec<u64> = (state.done.iter())
            .filter(|(_, d)| d.stale(now, listed))
            .map(|(&id, _)| id)
            .collect();
        for id in stale {
            state.collect(id);
            self.withdrawn.insert(id);
            self.stale.insert(id);
            self.outstanding -= 1;
        }
        self.shared.wake_workers(state);
    }

    /// Gives every descriptor of the read-ahead back and reads nothing
    /// ahead any more: the walk itself met the descriptor limit. Waits for
    /// the jobs in hand.
    pub fn release(&mut self) {
        self.shared.cap.store(0, Ordering::Relaxed);
        if let Some(watched) = self.watched.as_mut() {
            self.withdrawn.extend(watched.clear());
            self.outstanding = 0;
            return;
        }
        let mut state = lock(&self.shared.state);
        let queued: Vec<u64> = state.queue.drain(..).map(|j| j.id).collect();
        self.withdrawn.extend(queued);
        loop {
            let done: Vec<u64> = state.done.keys().copied().collect();
            for id in done {
                state.collect(id);
                self.withdrawn.insert(id);
            }
            if state.running.is_empty() {
                break;
            }
            state = self.shared.wait_finished(state);
        }
        self.outstanding = 0;
    }

    /// Whether the workers run beside the walk, on another CPU (see
    /// [`parallel::read_ahead_runs_beside`]).
    pub fn runs_beside(&self) -> bool {
        self.trial.beside()
    }

    /// Whether job `id`'s result was dropped as stale.
    pub fn went_stale(&self, id: u64) -> bool {
        self.stale.contains(&id)
    }

    /// Whether job `id` is still submitted (not withdrawn).
    pub fn is_submitted(&self, id: u64) -> bool {
        !self.withdrawn.contains(&id)
    }

    /// Queues the directories `(name, path)` under `parent`, in the order
    /// they will be listed, as far as the window allows, withdrawing older
    /// jobs that no worker started to make room (they are needed later).
    /// Returns the job ids, one per directory queued.
    pub fn submit(&mut self, parent: &Arc<OwnedFd>, dirs: Vec<(CString, Vec<u8>)>) -> Vec<u64> {
        if let Some(start) = self.start_workers.take() {
            // Fewer started than readied (limits): a window for those.
            let started = start();
            self.window = self.window.min(window_of(started, self.descriptors));
        }
        let window = self.window();
        let dirs: Vec<_> = dirs.into_iter().take(window).collect();
        if let Some(watched) = self.watched.as_mut() {
            let room = window.saturating_sub(self.outstanding);
            let listed = self.shared.listed.load(Ordering::Relaxed);
            let mut ids = Vec::new();
            for dir in dirs.into_iter().take(room) {
                let id = self.next_id;
                self.next_id += 1;
                watched.submit(id, (parent, self.context.config), dir, listed);
                ids.push(id);
            }
            if !ids.is_empty() {
                self.trial.submitted();
            }
            self.outstanding += ids.len();
            return ids;
        }
        let mut state = lock(&self.shared.state);
        let excess = (self.outstanding + dirs.len()).saturating_sub(window);
        let withdrawn = excess.min(state.queue.len());
        for job in state.queue.drain(..withdrawn) {
            self.withdrawn.insert(job.id);
        }
        self.outstanding -= withdrawn;
        let room = window - self.outstanding;
        let ids: Vec<u64> = (0..dirs.len().min(room))
            .map(|i| self.next_id + i as u64)
            .collect();
        self.next_id += ids.len() as u64;
        if !ids.is_empty() {
            self.trial.submitted();
        }
        self.outstanding += ids.len();
        // Reversed onto the stack: the first to be listed ends on top.
        for (&id, (name, path)) in ids.iter().zip(dirs).rev() {
            state.queue.push(Job {
                id,
                parent: Arc::clone(parent),
                name,
                path,
            });
        }
        self.shared.wake_workers(state);
        ids
    }

    /// The outcome of job `id`; `None` when no worker had started it (it
    /// is withdrawn: the caller does it). While a worker is on it, the
    /// caller does queued jobs itself rather than sleep.
    pub fn take(&mut self, id: u64) -> Option<Outcome> {
        self.trial.taken();
        if self.withdrawn.remove(&id) {
            self.stale.remove(&id);
            return None;
        }
        self.outstanding = self.outstanding.saturating_sub(1);
        if let Some(watched) = self.watched.as_mut() {
            let listed = self.shared.listed.load(Ordering::Relaxed);
            let now = Instant::now();
            return watched.take(id, |at, then| stale((at, then), now, listed));
        }
        let mut state = lock(&self.shared.state);
        loop {
            if let Some(done) = state.collect(id) {
                // Room under the budget again.
                self.shared.wake_workers(state);
                let listed = self.shared.listed.load(Ordering::Relaxed);
                return (!done.stale(Instant::now(), listed)).then_some(done.outcome);
            }
            if let Some(i) = state.queue.iter().position(|j| j.id == id) {
                state.queue.remove(i);
                return None;
            }
            if !state.running.contains(&id) {
                return None;
            }
            // The one needed next: a job from the far end would wait
            // longest for its listing, and might go stale.
            let job = (state.held < HELD_BYTES_MAX)
                .then(|| state.queue.pop())
                .flatten();
            if let Some(job) = job {
                drop(state);
                let outcome = read_ahead(
                    &self.context,
                    job.parent.as_fd(),
                    &job.name,
                    &job.path,
                    &mut self.buffer,
                );
                state = lock(&self.shared.state);
                state.finish(job.id, outcome, &self.shared);
                continue;
            }
            state = self.shared.wait_finished(state);
        }
    }

    /// Stops the workers (they finish the job in hand, if any).
    pub fn close(&mut self) {
        if let Some(watched) = self.watched.as_mut() {
            watched.clear();
        }
        let mut state = lock(&self.shared.state);
        state.closed = true;
        state.queue.clear();
        drop(state);
        self.shared.work.notify_all();
    }
}

fn work(shared: &Shared, context: &Context<'_>) {
    let mut buffer = DirBuffer::default();
    loop {
        let job = {
            let mut state = lock(&shared.state);
            loop {
                if state.closed {
                    return;
                }
                if let Some(job) = state.next_job() {
                    state.running.insert(job.id);
                    break job;
                }
                state.idle_workers += 1;
                state = shared.work.wait(state).unwrap_or_else(|e| e.into_inner());
                state.idle_workers -= 1;
            }
        };
        let outcome = read_ahead(
            context,
            job.parent.as_fd(),
            &job.name,
            &job.path,
            &mut buffer,
        );
        let mut state = lock(&shared.state);
        state.running.remove(&job.id);
        if !state.closed {
            state.finish(job.id, outcome, shared);
        }
        let walk_waits = state.walk_waits;
        drop(state);
        if walk_waits {
            shared.finished.notify_all();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn done_at(at: Instant, listed: u64) -> Done {
        Done {
            outcome: Err(std::io::Error::from_raw_os_error(2)),
            at,
            listed,
        }
    }

    #[test]
    fn a_result_read_ahead_goes_stale_after_200_ms() {
        let t = Instant::now();
        let done = done_at(t, 0);
        assert!(!done.stale(t + READ_AHEAD_MAX_AGE, 0));
        assert!(done.stale(
            t + READ_AHEAD_MAX_AGE + std::time::Duration::from_millis(1),
            0
        ));
    }

    #[test]
    fn a_result_read_ahead_goes_stale_after_10_000_entries_listed() {
        let t = Instant::now();
        let done = done_at(t, 500);
        assert!(!done.stale(t, 500 + READ_AHEAD_MAX_LISTED_BETWEEN));
        assert!(done.stale(t, 501 + READ_AHEAD_MAX_LISTED_BETWEEN));
    }
}
