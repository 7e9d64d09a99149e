//! Reading a large local directory while its entries are probed.
//!
//! getdents returns a big directory a buffer at a time, and a long or
//! coloured listing then stats every entry. Done one after the other, the
//! second CPU idles while the directory is read. Here, once a directory
//! turns out large (as many entries as `parallel` asks for before a local
//! directory's probes are split), the names read so far go to a helper
//! thread in chunks, and every chunk read after them too; the walk goes on
//! reading (probing the oldest chunk itself whenever more than four
//! wait, so that few names are ever copied), records the facts the helper
//! hands back, and once the directory is read, probes what is left itself. Small directories never
//! get here: nothing is copied or started for them.
//!
//! Nothing is printed or reported here: problems come back indexed by
//! entry, so output and messages are those of the sequential walk.
#![forbid(unsafe_code)]

use std::collections::VecDeque;
use std::os::fd::BorrowedFd;
use std::sync::{Condvar, Mutex, MutexGuard};

use super::dir_read::PackedNames;
use super::filter::Filter;
use super::probe::{FactsList, Prober, Problems};
use crate::entry::Entry;
use crate::parallel;
use crate::sys::dir::{read_dir_each, DirBuffer};

use crate::parallel::tuning::{READING_BACKLOG_MAX, READING_CHUNK};

/// A run of consecutive entries to probe, from entry `start` on.
struct Job {
    start: usize,
    names: PackedNames,
}

impl Job {
    fn new(start: usize) -> Job {
        Job {
            start,
            names: PackedNames::with_capacity(READING_CHUNK, READING_CHUNK * 24),
        }
    }
}

#[derive(Default)]
struct Queue {
    jobs: VecDeque<Job>,
    done: Vec<(usize, FactsList)>,
    /// Jobs taken and not yet done.
    running: usize,
    /// The walk is still reading: more jobs may come.
    reading: bool,
}

#[derive(Default)]
struct Shared {
    queue: Mutex<Queue>,
    /// A job was queued, or reading ended.
    queued: Condvar,
    /// A job was done.
    finished: Condvar,
}

impl Shared {
    fn lock(&self) -> MutexGuard<'_, Queue> {
        parallel::lock(&self.queue)
    }

    /// The helper's loop: jobs in order until reading ended and none is
    /// left.
    fn help(&self, prober: &Prober<'_>) {
        let mut queue = self.lock();
        loop {
            if let Some(job) = queue.jobs.pop_front() {
                queue.running += 1;
                drop(queue);
                let facts = job.names.probe(prober);
                queue = self.lock();
                queue.running -= 1;
                queue.done.push((job.start, facts));
                self.finished.notify_one();
            } else if queue.reading {
                queue = self.queued.wait(queue).unwrap_or_else(|e| e.into_inner());
            } else {
                return;
            }
        }
    }
}

/// What reading and probing one directory gave.
pub struct ReadProbed {
    pub read_error: Option<std::io::Error>,
    /// The entries were probed: the directory was large enough for the
    /// helper, and it could be started. Otherwise nothing was.
    pub probed: bool,
    /// What went wrong probing, by entry index, in entry order.
    pub problems: Vec<(usize, Problems)>,
}

/// Reads the directory `fd` into `entries` (those `filter` keeps) and,
/// should it reach `from` entries and `splits` say yes then, probes every
/// entry with `prober`, on a helper thread while reading goes on.
pub fn read_probing(
    prober: &Prober<'_>,
    fd: BorrowedFd<'_>,
    buffer: &mut DirBuffer,
    filter: &Filter,
    entries: &mut Vec<Entry>,
    (from, splits): (usize, impl FnOnce() -> bool),
) -> ReadProbed {
    let mut splits = Some(splits);
    let shared = Shared::default();
    let mut problems = Vec::new();
    let read_error = parallel::scope(|scope| {
        let mut helping = false;
        let mut job: Option<Job> = None;
        let read_error = read_dir_each(
            fd,
            buffer,
            |name| filter.keep(name),
            |d| {
                if let Some(job) = job.as_mut() {
                    job.names.push(&d.name, d.file_type);
                }
                entries.push(Entry::new(d.name, d.file_type));
                let n = entries.len();
                if !helping && n == from && splits.take().is_some_and(|f| f()) {
                    // Queued before the helper starts: one that found no
                    // job and reading over would return at once.
                    let mut first = Job::new(0);
                    for e in entries.iter() {
                        first.names.push(&e.name, e.file_type);
                    }
                    let mut queue = shared.lock();
                    queue.reading = true;
                    queue.jobs.push_back(first);
                    drop(queue);
                    helping = parallel::spawn_prober(scope, || shared.help(prober));
                    if helping {
                        job = Some(Job::new(n));
                    } else {
                        // No thread: the caller probes as it would have.
                        *shared.lock() = Queue::default();
                    }
                } else if helping && n % READING_CHUNK == 0 {
                    let full = job.replace(Job::new(n));
                    queue_job(&shared, full.unwrap_or_else(|| Job::new(n)));
                    record_done(&shared, entries, &mut problems);
                    // Reading outruns probing: past a few chunks waiting,
                    // the walk probes one itself before reading on, which
                    // keeps both busy and the names waiting few.
                    while let Some(job) = backlog(&shared) {
                        let facts = job.names.probe(prober);
                        record(entries, job.start, facts, &mut problems);
                    }
                }
            },
        );
        if helping {
            let rest = job.take().filter(|j| !j.names.is_empty());
            let mut queue = shared.lock();
            queue.jobs.extend(rest);
            queue.reading = false;
            drop(queue);
            shared.queued.notify_all();
            finish(&shared, prober, entries, &mut problems);
        }
        (read_error, helping)
    });
    let (read_error, probed) = read_error;
    problems.sort_by_key(|&(i, _)| i);
    ReadProbed {
        read_error,
        probed,
        problems,
    }
}

/// Once the directory is read: the walk takes the jobs left beside the
/// helper and records every result, until none is queued or running.
fn finish(
    shared: &Shared,
    prober: &Prober<'_>,
    entries: &mut [Entry],
    problems: &mut Vec<(usize, Problems)>,
) {
    loop {
        let mut queue = shared.lock();
        let done = std::mem::take(&mut queue.done);
        let job = queue.jobs.pop_front();
        let running = queue.running;
        if done.is_empty() && job.is_none() {
            if running == 0 {
                return;
            }
            drop(shared.finished.wait(queue));
            continue;
        }
        drop(queue);
        for (start, facts) in done {
            record(entries, start, facts, problems);
        }
        if let Some(job) = job {
            let facts = job.names.probe(prober);
            record(entries, job.start, facts, problems);
        }
    }
}

/// The oldest chunk waiting, when more than [`READING_BACKLOG_MAX`] do.
fn backlog(shared: &Shared) -> Option<Job> {
    let mut queue = shared.lock();
    if queue.jobs.len() > READING_BACKLOG_MAX {
        queue.jobs.pop_front()
    } else {
        None
    }
}

fn queue_job(shared: &Shared, job: Job) {
    shared.lock().jobs.push_back(job);
    shared.queued.notify_one();
}

/// Records the facts the helper has handed back so far.
fn record_done(shared: &Shared, entries: &mut [Entry], problems: &mut Vec<(usize, Problems)>) {
    let done = std::mem::take(&mut shared.lock().done);
    for (start, facts) in done {
        record(entries, start, facts, problems);
    }
}

fn record(
    entries: &mut [Entry],
    start: usize,
    facts: FactsList,
    problems: &mut Vec<(usize, Problems)>,
) {
    for (i, facts) in (start..).zip(facts) {
        let found = facts.record_into(&mut entries[i]);
        if !found.is_empty() {
            problems.push((i, found));
        }
    }
}
