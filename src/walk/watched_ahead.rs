//! `--timeout`'s read-ahead: with `-R`, the next subdirectories' jobs
//! (`watched`: open, identify, read, then probe) run on watched threads,
//! as many at once as the read-ahead has workers (the rest wait their
//! turn, in listing order), and the walk waits for each when it reaches
//! it, no longer than the limit past its request in flight. The window,
//! staleness and bookkeeping are the read-ahead's (`prefetch`); only where
//! the jobs run and how they are waited for differ.
#![forbid(unsafe_code)]

use std::collections::{HashMap, VecDeque};
use std::ffi::CString;
use std::os::fd::OwnedFd;
use std::sync::Arc;
use std::time::{Duration, Instant};

use super::dir_read::Outcome;
use super::filter::Filter;
use super::watched::{DirJob, DirTask, JobContext};
use crate::config::Config;

/// A job started, with the walk's count of entries listed then.
struct Started {
    job: DirJob,
    listed: u64,
}

/// A job waiting its turn.
struct Queued {
    id: u64,
    task: DirTask,
    listed: u64,
}

pub(super) struct WatchedAhead {
    limit: Duration,
    context: JobContext,
    /// Jobs reading at once, at most.
    at_once: usize,
    queue: VecDeque<Queued>,
    jobs: HashMap<u64, Started>,
}

impl WatchedAhead {
    pub(super) fn new(limit: Duration, context: JobContext, at_once: usize) -> WatchedAhead {
        WatchedAhead {
            limit,
            context,
            at_once: at_once.max(1),
            queue: VecDeque::new(),
            jobs: HashMap::new(),
        }
    }

    /// Queues the job of directory `(name, path)` under `parent` as `id`.
    pub(super) fn submit(
        &mut self,
        id: u64,
        (parent, config): (&Arc<OwnedFd>, &Config),
        (name, path): (CString, Vec<u8>),
        listed: u64,
    ) {
        let task = DirTask {
            parent: Some(Arc::clone(parent)),
            name,
            path,
            identify: true,
            filter: Filter::new(config),
            context: self.context.clone(),
        };
        self.queue.push_back(Queued { id, task, listed });
        self.pump();
    }

    /// Starts queued jobs while fewer than `at_once` are reading.
    fn pump(&mut self) {
        let mut reading = (self.jobs.values())
            .filter(|s| s.job.read_at().is_none())
            .count();
        while reading < self.at_once {
            let Some(queued) = self.queue.pop_front() else {
                break;
            };
            self.start(queued);
            reading += 1;
        }
    }

    fn start(&mut self, queued: Queued) {
        let job = DirJob::start(queued.task);
        let listed = queued.listed;
        self.jobs.insert(queued.id, Started { job, listed });
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
        self.pump();
        old
    }

    /// Drops every job (their threads end on their own).
    pub(super) fn clear(&mut self) -> Vec<u64> {
        let queued = self.queue.drain(..).map(|q| q.id);
        queued.chain(self.jobs.drain().map(|(id, _)| id)).collect()
    }

    /// Waits for job `id` (see [`DirJob::wait`]); `None` when there is
    /// none or it went stale: the walk reads the directory again.
    pub(super) fn take(&mut self, id: u64, stale: impl Fn(Instant, u64) -> bool) -> Option<Outcome> {
        // Its turn has come.
        if let Some(i) = self.queue.iter().position(|q| q.id == id) {
            let queued = self.queue.remove(i)?;
            self.start(queued);
        }
        let started = self.jobs.remove(&id)?;
        self.pump();
        let read_at = started.job.read_at();
        if read_at.is_some_and(|at| stale(at, started.listed)) {
            return None;
        }
        Some(started.job.wait(self.limit))
    }
}
