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

use std::collections::{HashMap, VecDeque};
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
    running: usize,
}

/// A chain: runs `first`, then the jobs waiting, until none is.
fn chain(chains: &Mutex<Chains>, first: JobRun) {
    let mut run = first;
    loop {
        run.run();
        let mut waiting = lock(chains);
        match waiting.waiting.pop_front() {
            Some((_, next)) => {
                // Under the lock: the walk that finds it gone may wait.
                next.begin();
                run = next;
            }
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
        let mut chains = lock(&self.chains);
        chains.waiting.push_back((id, run));
        if chains.running < self.at_once {
            // The oldest waiting (this one, unless no chain took the
            // earlier ones yet).
            let Some((_, first)) = chains.waiting.pop_front() else {
                return;
            };
            first.begin();
            chains.running += 1;
            drop(chains);
            let shared = Arc::clone(&self.chains);
            if !parallel::spawn_watched(move || chain(&shared, first)) {
                // No thread: the walk starts its jobs when it reaches them
                // (the one just taken is given up).
                lock(&self.chains).running -= 1;
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
        if let Some(i) = chains.waiting.iter().position(|(queued, _)| *queued == id) {
            let (_, run) = chains.waiting.remove(i)?;
            drop(chains);
            run.start();
        } else {
            drop(chains);
        }
        let read_at = submitted.job.read_at();
        if read_at.is_some_and(|at| stale(at, submitted.listed)) {
            return None;
        }
        Some(submitted.job.wait(self.limit))
    }
}
