//! `--timeout`'s read-ahead: with `-R`, the next subdirectories' jobs
//! (`watched`: open, identify, read, then probe) run on watched threads,
//! as many chains of them at once as the read-ahead has workers, plus
//! one: a thread that ends a job takes the next one waiting, in listing
//! order, without sleeping in between. The walk waits for each job when it
//! reaches it, no longer than the limit past its request in flight; one
//! still waiting then is started there and then. The window, staleness
//! and bookkeeping are the read-ahead's (`prefetch`); only where the jobs
//! run and how they are waited for differ.
#![forbid(unsafe_code)]

use std::collections::{HashMap, HashSet, VecDeque};
use std::ffi::CString;
use std::os::fd::OwnedFd;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use super::dir_read::Outcome;
use super::filter::Filter;
use super::watched::{DirJob, DirTask, JobContext, JobRun};
use crate::config::Config;
use crate::parallel::{self, lock};

/// A job submitted, with the walk's count of entries listed then.
struct Submitted {
    job: DirJob,
    listed: u64,
}

/// The jobs no thread has taken, and the chains running.
#[derive(Default)]
struct Chains {
    waiting: VecDeque<(u64, JobRun)>,
    /// Chains running, but for those left stuck in a job given up.
    running: usize,
    /// The jobs chains are running. One the walk gives up is taken out:
    /// its chain ends when (if ever) the job returns, and another takes
    /// its place at once.
    on_chains: HashSet<u64>,
    /// A job was given up and no job has ended since: every job waiting
    /// starts at once (a dead subtree costs about one limit per window of
    /// jobs, not one per chain's worth).
    hurry: bool,
}

impl Chains {
    /// The next job waiting, begun, for a chain that may run it.
    fn next(&mut self, at_once: usize) -> Option<(u64, JobRun)> {
        if self.running >= at_once && !self.hurry {
            return None;
        }
        let (id, run) = self.waiting.pop_front()?;
        // Under the lock: the walk that finds it gone may wait.
        run.begin();
        self.on_chains.insert(id);
        Some((id, run))
    }
}

/// A chain: runs `first`, then the jobs waiting, until none is (or its
/// job is given up: it is left to it).
fn chain(chains: &Mutex<Chains>, at_once: usize, (mut id, mut run): (u64, JobRun)) {
    loop {
        run.run();
        let mut waiting = lock(chains);
        if !waiting.on_chains.remove(&id) {
            return;
        }
        waiting.hurry = false;
        // Chains past the limit (started in a hurry) end.
        match waiting.next(at_once + 1) {
            Some(next) => (id, run) = next,
            None => {
                waiting.running -= 1;
                return;
            }
        }
    }
}

pub(super) struct WatchedAhead {
    limit: Duration,
    context: JobContext,
    /// Chains running at once, at most.
    at_once: usize,
    chains: Arc<Mutex<Chains>>,
    jobs: HashMap<u64, Submitted>,
}

impl WatchedAhead {
    pub(super) fn new(limit: Duration, context: JobContext, at_once: usize) -> WatchedAhead {
        WatchedAhead {
            limit,
            context,
            at_once: at_once.max(1),
            chains: Arc::default(),
            jobs: HashMap::new(),
        }
    }

    /// Submits the job of directory `(name, path)` under `parent` as `id`.
    pub(super) fn submit(
        &mut self,
        id: u64,
        (parent, config): (&Arc<OwnedFd>, &Config),
        (name, path): (CString, Vec<u8>),
        listed: u64,
    ) {
        let (job, run) = DirJob::later(DirTask {
            parent: Some(Arc::clone(parent)),
            name,
            path,
            identify: true,
            filter: Filter::new(config),
            context: self.context.clone(),
        });
        self.jobs.insert(id, Submitted { job, listed });
        lock(&self.chains).waiting.push_back((id, run));
        self.start_chains();
    }

    /// Starts chains for the jobs waiting, as many as may run at once.
    fn start_chains(&self) {
        loop {
            let mut chains = lock(&self.chains);
            let Some(first) = chains.next(self.at_once) else {
                return;
            };
            chains.running += 1;
            drop(chains);
            let (shared, at_once, id) = (Arc::clone(&self.chains), self.at_once, first.0);
            if !parallel::spawn_watched(move || chain(&shared, at_once, first)) {
                // No thread: the walk starts its jobs when it reaches them
                // (the one just taken is given up).
                let mut chains = lock(&self.chains);
                chains.running -= 1;
                chains.on_chains.remove(&id);
                return;
            }
        }
    }

    /// The jobs whose reading ended too long ago to be listed as if read
    /// now (`stale(read_at, listed then)`), dropped.
    pub(super) fn expire(&mut self, stale: impl Fn(Instant, u64) -> bool) -> Vec<u64> {
        let old: Vec<u64> = (self.jobs.iter())
            .filter(|(_, s)| s.job.read_at().is_some_and(|at| stale(at, s.listed)))
            .map(|(&id, _)| id)
            .collect();
        for id in &old {
            self.jobs.remove(id);
        }
        old
    }

    /// Drops every job (those running end on their own).
    pub(super) fn clear(&mut self) -> Vec<u64> {
        lock(&self.chains).waiting.clear();
        self.jobs.drain().map(|(id, _)| id).collect()
    }

    /// Waits for job `id` (see [`DirJob::wait`]), started now if no chain
    /// took it; `None` when there is none or it went stale: the walk reads
    /// the directory again.
    pub(super) fn take(
        &mut self,
        id: u64,
        stale: impl Fn(Instant, u64) -> bool,
    ) -> Option<Outcome> {
        let submitted = self.jobs.remove(&id)?;
        let mut chains = lock(&self.chains);
        let queued = chains.waiting.iter().position(|(queued, _)| *queued == id);
        let run = queued.and_then(|i| chains.waiting.remove(i));
        drop(chains);
        // Not taken by a chain: started now, on a thread of its own.
        let on_chain = run.is_none();
        if let Some((_, run)) = run {
            run.start();
        }
        let read_at = submitted.job.read_at();
        if read_at.is_some_and(|at| stale(at, submitted.listed)) {
            return None;
        }
        let (outcome, given_up) = submitted.job.wait_or_give_up(self.limit);
        if given_up && on_chain {
            // Its chain is left stuck: another takes its place, and the
            // jobs waiting start at once.
            let mut chains = lock(&self.chains);
            // Unless it returned meanwhile, and its chain went on.
            if chains.on_chains.remove(&id) {
                chains.running -= 1;
                chains.hurry = true;
            }
            drop(chains);
            self.start_chains();
        }
        Some(outcome)
    }
}
