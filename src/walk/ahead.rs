//! Reading ahead with `-R`: the jobs (`job`) of the subdirectories the
//! walk lists next run in chains on a few threads (`ahead/chains`); each
//! result waits until the walk reaches its directory, which then goes on
//! exactly as if it were read there and then. Bounded in descriptors (the
//! window, within the budget's share), in memory ([`HELD_BYTES_MAX`]) and
//! in staleness (an old result is dropped and the directory read again).
//! Under `--timeout` a chain also reads a directory's first subdirectory,
//! and one left stuck in a job given up is replaced by another.
#![forbid(unsafe_code)]

use std::ffi::CString;
use std::os::fd::OwnedFd;
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::{Duration, Instant};

mod chains;

use super::dir_read::Outcome;
use super::job::{DirJob, DirTask, JobContext, JobRun};
use super::trial::Trial;
use crate::parallel::tuning::{HELD_BYTES_MAX, READ_AHEAD_MAX_AGE, READ_AHEAD_MAX_LISTED_BETWEEN};
use crate::parallel::{self, lock};
use crate::sys::limits::is_descriptor_exhaustion;
use chains::{chain, IdMap, IdSet, OnChain, Shared, Waiting};

/// Whether a directory whose job ended at `at`, when the walk had listed
/// `then` entries, is too old to be listed now that it has listed
/// `listed`.
fn stale((at, then): (Instant, u64), now: Instant, listed: u64) -> bool {
    now.saturating_duration_since(at) > READ_AHEAD_MAX_AGE
        || listed.saturating_sub(then) > READ_AHEAD_MAX_LISTED_BETWEEN
}

/// A directory to read ahead: its name under the parent, its path, and
/// its place on the walk's work stack (see [`Waiting::place`]).
pub type Submitted = (CString, Vec<u8>, usize);

pub struct ReadAhead {
    shared: Arc<Shared>,
    /// What every job shares (`None`: reading ahead is off).
    context: Option<Arc<JobContext>>,
    deadline: Option<Duration>,
    /// Chains running at once, at most.
    at_once: usize,
    /// Directories that may be read ahead at once, at most (lowered when
    /// an open meets the descriptor limit).
    window: usize,
    /// Under `--timeout`, the window for small directories and its most
    /// (see [`parallel::deadline_window`]): `(window, max)`.
    bounds: (usize, usize),
    jobs: IdMap<DirJob>,
    /// Under `--timeout` (descriptors allowing), each job also reads its
    /// first subdirectory.
    first_child: bool,
    /// The first subdirectory read with the job last taken: its path and
    /// job id, until the walk finds it next in line (or not).
    adopted: Option<(Vec<u8>, u64)>,
    /// Jobs submitted and not yet taken back.
    outstanding: usize,
    /// Jobs withdrawn before any thread started them, or whose results
    /// went stale.
    withdrawn: IdSet,
    /// Jobs whose results went stale (the walk reads ahead such a
    /// directory once more at most).
    stale: IdSet,
    /// Whether the threads run beside the walk.
    trial: Trial,
}

impl ReadAhead {
    /// Readies `workers` chains of jobs (none: reading ahead is off), as
    /// many as `descriptors` allow: each reads ahead with a probe handle
    /// of its own, and the rest of the share is the window. Their threads
    /// start now, or `lazily`, with the first directory submitted.
    pub(super) fn start(
        workers: usize,
        descriptors: usize,
        (context, deadline): (Option<Arc<JobContext>>, Option<Duration>),
        lazily: bool,
    ) -> ReadAhead {
        let workers = if context.is_some() {
            workers.min(descriptors / 2)
        } else {
            0
        };
        let probed = context.as_ref().is_some_and(|c| c.plan.probes_files());
        let at_once = parallel::jobs_at_once(workers, probed, deadline.is_some());
        let window = parallel::read_ahead_window(workers, descriptors);
        let first_child =
            deadline.is_some() && parallel::first_child_fits(workers, window, descriptors);
        let max = parallel::read_ahead_window_max(workers, descriptors, first_child);
        // On a local disk they start now: starting them with the first
        // directory submitted made `-R` of 200 x 1 000 5-8 % slower.
        if workers > 0 && !lazily {
            parallel::ready_watched_threads(at_once);
            if deadline.is_some() {
                parallel::keep_watched_threads_awake(at_once);
            }
        }
        ReadAhead {
            shared: Arc::default(),
            context,
            deadline,
            at_once,
            window,
            bounds: (window, max.max(window)),
            jobs: IdMap::default(),
            first_child,
            adopted: None,
            outstanding: 0,
            withdrawn: IdSet::default(),
            stale: IdSet::default(),
            trial: Trial::default(),
        }
    }

    /// How many directories may be read ahead at once, where those listed
    /// lately held `mean` entries.
    pub fn window(&mut self, mean: usize) -> usize {
        if self.deadline.is_some() {
            let (window, max) = self.bounds;
            self.window = parallel::deadline_window(window, max, mean);
        }
        self.window
    }

    /// The walk has listed a directory of `entries` entries.
    pub fn listed(&mut self, entries: usize) {
        self.trial.listed();
        (self.shared.listed).fetch_add(entries as u64, Ordering::Relaxed);
    }

    /// Forgets a withdrawn job that is submitted again under a new id.
    pub fn forget(&mut self, id: u64) {
        self.withdrawn.remove(&id);
        self.stale.remove(&id);
    }

    /// Whether the threads run beside the walk, on another CPU (see
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

    /// Drops the results that grew stale waiting (their descriptors and
    /// names with them): those directories are read again when the walk
    /// nears them.
    pub fn expire(&mut self) {
        if self.outstanding == 0 {
            return;
        }
        let now = Instant::now();
        let listed = self.shared.listed.load(Ordering::Relaxed);
        let mut chains = lock(&self.shared.chains);
        let old: Vec<u64> = (chains.ended.iter())
            .filter(|(id, &(_, then))| {
                let at = self.jobs.get(id).and_then(DirJob::ended_at);
                at.is_some_and(|at| stale((at, then), now, listed))
            })
            .map(|(&id, _)| id)
            .collect();
        for &id in &old {
            chains.collect(id);
            chains.forget_adopted(id);
            self.jobs.remove(&id);
            self.withdrawn.insert(id);
            self.stale.insert(id);
            self.outstanding -= 1;
        }
        drop(chains);
        if !old.is_empty() {
            self.start_chains();
        }
    }

    /// Gives every descriptor of the read-ahead back and reads nothing
    /// ahead any more: the walk itself met the descriptor limit. Without a
    /// deadline, waits for the jobs under way.
    pub fn release(&mut self) {
        self.window = 0;
        self.bounds = (0, 0);
        let mut chains = lock(&self.shared.chains);
        chains.waiting.clear();
        chains.ended.clear();
        chains.adopted.clear();
        chains.held = 0;
        for state in chains.on_chains.values_mut() {
            *state = OnChain::Taken;
        }
        drop(chains);
        self.adopted = None;
        for (id, job) in self.jobs.drain() {
            if self.deadline.is_none() {
                drop(job.wait(false));
            }
            self.withdrawn.insert(id);
        }
        self.outstanding = 0;
    }

    /// Queues the directories `(name, path)` under `parent`, in the order
    /// they will be listed, as far as the window allows, withdrawing older
    /// jobs that no thread started to make room (they are needed later).
    /// Returns the job ids, one per directory queued.
    pub fn submit(&mut self, parent: &Arc<OwnedFd>, dirs: Vec<Submitted>) -> Vec<u64> {
        let Some(context) = &self.context else {
            return Vec::new();
        };
        let window = self.window;
        let dirs: Vec<_> = dirs.into_iter().take(window).collect();
        let mut chains = lock(&self.shared.chains);
        let excess = (self.outstanding + dirs.len()).saturating_sub(window);
        let withdrawn = excess.min(chains.waiting.len());
        for Waiting { id, .. } in chains.waiting.drain(..withdrawn) {
            self.jobs.remove(&id);
            self.withdrawn.insert(id);
        }
        self.outstanding -= withdrawn;
        let room = window - self.outstanding;
        let count = dirs.len().min(room);
        let first = self
            .shared
            .next_id
            .fetch_add(count as u64, Ordering::Relaxed);
        let ids: Vec<u64> = (first..first + count as u64).collect();
        if !ids.is_empty() {
            self.trial.submitted();
        }
        self.outstanding += count;
        // Each in its place among those waiting: the first to be listed
        // ends on top.
        for (&id, (name, path, place)) in ids.iter().zip(dirs) {
            let (job, run) = DirJob::later(DirTask {
                parent: Some(Arc::clone(parent)),
                name,
                path,
                identify: true,
                first_child: self.first_child,
                context: Arc::clone(context),
            });
            self.jobs.insert(id, job);
            chains.queue(id, place, run);
        }
        drop(chains);
        self.start_chains();
        ids
    }

    /// Starts chains for the jobs waiting, as many as may run at once.
    fn start_chains(&self) {
        loop {
            let mut chains = lock(&self.shared.chains);
            let Some(first) = chains.next(self.at_once) else {
                return;
            };
            chains.running += 1;
            drop(chains);
            if !self.spawn_chain(first) {
                return;
            }
        }
    }

    /// Starts a chain with job `first`, begun and counted running; false
    /// when no thread could start: the walk reads this one, and those
    /// waiting, itself when it reaches them.
    fn spawn_chain(&self, first: (u64, JobRun)) -> bool {
        let (shared, at_once, id) = (Arc::clone(&self.shared), self.at_once, first.0);
        if parallel::spawn_watched(move || chain(&shared, at_once, first)) {
            return true;
        }
        let mut chains = lock(&self.shared.chains);
        chains.running -= 1;
        chains.on_chains.insert(id, OnChain::Lost);
        false
    }

    /// The outcome of job `id`; `None` when no thread had started it, or
    /// it went stale, or its open met the descriptor limit: the walk reads
    /// the directory itself. Without a deadline the walk runs jobs still
    /// waiting while it waits for this one; `mean`: the entries of the
    /// directories listed lately.
    pub fn take(&mut self, id: u64, mean: usize) -> Option<Outcome> {
        self.trial.taken();
        self.withdraw_adopted();
        if self.withdrawn.remove(&id) {
            self.stale.remove(&id);
            return None;
        }
        self.outstanding = self.outstanding.saturating_sub(1);
        let job = self.jobs.remove(&id)?;
        let mut chains = lock(&self.shared.chains);
        if let Some(i) = chains.waiting.iter().position(|w| w.id == id) {
            let Waiting { run, .. } = chains.waiting.remove(i);
            // Without a deadline the walk reads it itself. Under one it
            // may not: it starts now, on a chain of its own (which then
            // goes on with its first subdirectory; with no thread, it is
            // lost, and read by the walk as below).
            self.deadline?;
            let first = chains.begin(id, run);
            chains.running += 1;
            drop(chains);
            self.spawn_chain(first);
            chains = lock(&self.shared.chains);
        }
        if let Some(then) = chains.collect(id) {
            let child = chains.adopted.remove(&id);
            drop(chains);
            self.adopt_child(child);
            // Room under the budget again.
            self.start_chains();
            let now = Instant::now();
            let listed = self.shared.listed.load(Ordering::Relaxed);
            if job
                .ended_at()
                .is_some_and(|at| stale((at, then), now, listed))
            {
                self.withdraw_adopted();
                return None;
            }
            return self.checked(job.wait(false).0);
        }
        match chains.on_chains.get(&id) {
            Some(OnChain::Running) => drop(chains.on_chains.insert(id, OnChain::Awaited)),
            Some(OnChain::Lost) => {
                chains.on_chains.remove(&id);
                return None;
            }
            _ => {}
        }
        drop(chains);
        if self.deadline.is_none() {
            self.run_waiting_while(&job);
        }
        let (outcome, given_up) = job.wait(parallel::looks_for_job_end(mean));
        let mut chains = lock(&self.shared.chains);
        // What its chain recorded of it is the walk's now: room under the
        // budget again (recorded while the walk waited, so that the chain
        // went on no sooner than with a result taken).
        let recorded = chains.collect(id).is_some();
        if given_up {
            // Its chain is left stuck: another takes its place, and the
            // jobs waiting start at once.
            // Unless it returned meanwhile, and its chain went on.
            if chains.on_chains.get(&id) == Some(&OnChain::Awaited) {
                chains.on_chains.insert(id, OnChain::GivenUp);
                chains.running -= 1;
                chains.hurry = true;
            }
            drop(chains);
            self.start_chains();
        } else {
            let child = chains.adopted.remove(&id);
            // Its chain, not there yet, records nothing of it.
            if chains.on_chains.get(&id) == Some(&OnChain::Awaited) {
                chains.on_chains.insert(id, OnChain::Taken);
            }
            drop(chains);
            self.adopt_child(child);
            if recorded {
                self.start_chains();
            }
        }
        self.checked(outcome)
    }

    /// Takes the first subdirectory a job's chain went on with, if any,
    /// for the walk to adopt (see [`ReadAhead::adopted`]).
    fn adopt_child(&mut self, child: Option<(Vec<u8>, u64, DirJob)>) {
        if let Some((path, child, job)) = child {
            self.jobs.insert(child, job);
            self.outstanding += 1;
            self.adopted = Some((path, child));
        }
    }

    /// The first subdirectory read with the directory last taken, if any:
    /// its path and job id. The walk takes it as that subdirectory's job
    /// when it lists it next (the same path: not a namesake of another
    /// directory's), else withdraws it.
    pub fn adopted(&mut self) -> Option<(Vec<u8>, u64)> {
        self.adopted.take()
    }

    /// Withdraws the first subdirectory read with the directory last
    /// taken, if the walk did not adopt it.
    fn withdraw_adopted(&mut self) {
        if let Some((_, child)) = self.adopted.take() {
            self.withdraw(child);
        }
    }

    /// Lets job `id` go: its result, if any, is dropped, and the walk
    /// reads the directory itself if it gets there.
    pub fn withdraw(&mut self, id: u64) {
        if self.jobs.remove(&id).is_none() {
            return;
        }
        self.outstanding -= 1;
        let mut chains = lock(&self.shared.chains);
        chains.forget(id);
        chains.forget_adopted(id);
    }

    /// The outcome, unless its open met the descriptor limit: then the
    /// walk opens the directory itself, and the window shrinks to half
    /// what the read-ahead holds.
    fn checked(&mut self, outcome: Outcome) -> Option<Outcome> {
        if matches!(&outcome, Err(e) if is_descriptor_exhaustion(e)) {
            self.window = self.window.min(self.outstanding.div_ceil(2));
            let (window, max) = self.bounds;
            self.bounds = (window.min(self.window), max.min(self.window));
            return None;
        }
        Some(outcome)
    }

    /// While `job` runs on a chain, the walk runs the jobs waiting itself,
    /// the one needed next first (a job from the far end would wait
    /// longest for its listing, and might go stale).
    fn run_waiting_while(&self, job: &DirJob) {
        while !job.ended() {
            let mut chains = lock(&self.shared.chains);
            let next = (chains.held < HELD_BYTES_MAX)
                .then(|| chains.waiting.pop())
                .flatten();
            drop(chains);
            let Some(Waiting { id, run, .. }) = next else {
                return;
            };
            run.begin();
            let bytes = run.run_for_the_walk();
            let listed = self.shared.listed.load(Ordering::Relaxed);
            lock(&self.shared.chains).ended(id, bytes, listed);
        }
    }

    /// Stops the chains (they end the job in hand, if any).
    pub fn close(&mut self) {
        let mut chains = lock(&self.shared.chains);
        chains.closed = true;
        chains.waiting.clear();
        chains.adopted.clear();
        drop(chains);
        self.jobs.clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_result_read_ahead_goes_stale_after_200_ms() {
        let t = Instant::now();
        assert!(!stale((t, 0), t + READ_AHEAD_MAX_AGE, 0));
        let later = t + READ_AHEAD_MAX_AGE + std::time::Duration::from_millis(1);
        assert!(stale((t, 0), later, 0));
    }

    #[test]
    fn a_result_read_ahead_goes_stale_after_10_000_entries_listed() {
        let t = Instant::now();
        assert!(!stale((t, 500), t, 500 + READ_AHEAD_MAX_LISTED_BETWEEN));
        assert!(stale((t, 500), t, 501 + READ_AHEAD_MAX_LISTED_BETWEEN));
    }
}
