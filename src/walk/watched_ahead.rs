//! `--timeout`'s read-ahead: with `-R`, the next subdirectories' jobs
//! (`watched`: open, identify, read, then probe) start on watched threads
//! as soon as they are submitted, and the walk waits for each when it
//! reaches it, no longer than the limit past its request in flight. The
//! window, staleness and bookkeeping are the read-ahead's (`prefetch`);
//! only where the jobs run and how they are waited for differ.
#![forbid(unsafe_code)]

use std::collections::HashMap;
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

pub(super) struct WatchedAhead {
    limit: Duration,
    context: JobContext,
    jobs: HashMap<u64, Started>,
}

impl WatchedAhead {
    pub(super) fn new(limit: Duration, context: JobContext) -> WatchedAhead {
        WatchedAhead {
            limit,
            context,
            jobs: HashMap::new(),
        }
    }

    /// Starts the job of directory `(name, path)` under `parent` as `id`.
    pub(super) fn start(
        &mut self,
        id: u64,
        (parent, config): (&Arc<OwnedFd>, &Config),
        (name, path): (CString, Vec<u8>),
        listed: u64,
    ) {
        let job = DirJob::start(DirTask {
            parent: Some(Arc::clone(parent)),
            name,
            path,
            identify: true,
            filter: Filter::new(config),
            context: self.context.clone(),
        });
        self.jobs.insert(id, Started { job, listed });
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

    /// Drops every job (their threads end on their own).
    pub(super) fn clear(&mut self) -> Vec<u64> {
        self.jobs.drain().map(|(id, _)| id).collect()
    }

    /// Waits for job `id` (see [`DirJob::wait`]); `None` when there is
    /// none or it went stale: the walk reads the directory again.
    pub(super) fn take(
        &mut self,
        id: u64,
        stale: impl Fn(Instant, u64) -> bool,
    ) -> Option<Outcome> {
        let started = self.jobs.remove(&id)?;
        let read_at = started.job.read_at();
        if read_at.is_some_and(|at| stale(at, started.listed)) {
            return None;
        }
        Some(started.job.wait(self.limit))
    }
}
