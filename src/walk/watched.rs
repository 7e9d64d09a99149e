//! `--timeout`: directories and probes on watched threads. The walk makes
//! no filesystem request itself; it waits for each on a thread of its own
//! no longer than the limit past that request's start, then gives it up
//! with ETIMEDOUT, reported as GNU reports that errno there: a directory
//! that cannot be opened, one whose reading stops (what was read is
//! listed), an entry that cannot be stat'ed (`?` fields), a link that
//! cannot be read. A probe that is slow brings another thread in, so the
//! entries behind it go on; when one is given up and no probe of its
//! directory answered while it waited, the directory's probes not yet
//! sent are given up with it (a dead mount costs one limit, not one per
//! entry).
#![forbid(unsafe_code)]

use std::collections::VecDeque;
use std::ffi::CString;
use std::ops::Range;
use std::os::fd::{AsFd, OwnedFd};
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use super::dir_read::{DirRead, Listing, Outcome, PackedNames};
use super::filter::Filter;
use super::probe::{Facts, Prober, Stage};
use super::{Pending, Walker};
use crate::config::MAX_PROBE_THREADS;
use crate::entry::{Entry, LinkTarget};
use crate::parallel::{self, Lookup};
use crate::plan::Plan;
use crate::sys::dir::{open_dir, read_dir_each, DirBuffer};
use crate::sys::stat::{stat_fd, Base, Need};
use crate::sys::xattr::{AclProbe, InDir};
use crate::sys::{FileType, Metadata};

/// What a directory's watched job has learned so far.
#[derive(Default)]
struct Progress {
    opened: Option<std::io::Result<Arc<OwnedFd>>>,
    ident: Option<std::io::Result<Metadata>>,
    names: PackedNames,
    /// Set when reading ended: the error that ended it, if any.
    read: Option<Option<std::io::Error>>,
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

impl Walker<'_> {
    /// Opens, identifies (`-R`) and reads the directory on a watched
    /// thread: `None` for a path that cannot be a C string, else the
    /// outcome as [`super::dir_read::read_ahead`] gives it, cut short
    /// where a request was given up.
    pub(super) fn read_watched(&self, pending: &Pending, limit: Duration) -> Option<Outcome> {
        let parent = (self.chain.parent())
            .filter(|_| !pending.operand)
            .and_then(|fd| fd.try_clone_to_owned().ok());
        let name = match parent {
            Some(_) => CString::new(pending.name()).ok()?,
            None => CString::new(pending.path.clone()).ok()?,
        };
        let identify = self.config.recursive;
        let filter = Filter::new(self.config);
        let shared = Arc::new(Mutex::new(Progress::default()));
        let theirs = Arc::clone(&shared);
        let job = move |beat: &parallel::Beat| {
            let base = parent.as_ref().map_or(Base::Cwd, |p| Base::Dir(p.as_fd()));
            let fd = match open_dir(base, &name) {
                Ok(fd) => Arc::new(fd),
                Err(e) => {
                    lock(&theirs).opened = Some(Err(e));
                    return;
                }
            };
            lock(&theirs).opened = Some(Ok(Arc::clone(&fd)));
            if identify {
                beat.request();
                let ident = stat_fd(fd.as_fd(), Need::INO, true);
                lock(&theirs).ident = Some(ident);
            }
            beat.request();
            let mut buffer = DirBuffer::default();
            let error = read_dir_each(
                fd.as_fd(),
                &mut buffer,
                |n| filter.keep(n),
                |d| {
                    lock(&theirs).names.push(&d.name, d.file_type);
                    beat.request();
                },
            );
            lock(&theirs).read = Some(error);
        };
        if let Some(watched) = parallel::watch(job) {
            watched.wait(limit);
        }
        let mut progress = lock(&shared);
        let fd = match progress.opened.take() {
            Some(Ok(fd)) => fd,
            Some(Err(e)) => return Some(Err(e)),
            None => return Some(Err(parallel::timed_out())),
        };
        // The job's own reference is gone once it ended; else a copy.
        let fd = match Arc::try_unwrap(fd).or_else(|fd| fd.try_clone()) {
            Ok(fd) => fd,
            Err(e) => return Some(Err(e)),
        };
        let ident =
            identify.then(|| (progress.ident.take()).unwrap_or_else(|| Err(parallel::timed_out())));
        let read_error = match progress.read.take() {
            Some(error) => error,
            None => Some(parallel::timed_out()),
        };
        let names = std::mem::take(&mut progress.names);
        Some(Ok(DirRead {
            fd,
            ident,
            listing: Some((Listing::Names(names), read_error)),
            facts: None,
        }))
    }

    /// Probes `entries` of `dir` on watched threads (see the module's
    /// doc); the facts are recorded in directory order and what went wrong
    /// handed back, indexed, for the walk to report.
    pub(super) fn probe_watched(
        &self,
        dir: InDir<'_>,
        dev: Option<(u32, u32)>,
        entries: &mut [Entry],
        limit: Duration,
    ) -> Vec<(usize, super::probe::Problems)> {
        let Ok(fd) = dir.fd.try_clone_to_owned() else {
            let mut problems = Vec::new();
            for (i, entry) in entries.iter_mut().enumerate() {
                let facts = stat_failed();
                let found = facts.record_into(entry);
                problems.push((i, found));
            }
            return problems;
        };
        let n = entries.len();
        // A large local directory starts on as many workers as it would be
        // split over, taking entries a chunk at a time; elsewhere one
        // worker, an entry at a time, and more when probes are slow.
        let (workers, chunk) = match parallel::probe_strategy(self.config, dir.fd, dev, n) {
            parallel::Strategy::Split { helpers, chunk } => (helpers + 1, chunk),
            _ => (1, 1),
        };
        let probes = Arc::new(Probes {
            plan: Arc::clone(&self.plan),
            xattrs: Arc::clone(&self.xattrs),
            dir: fd,
            path: dir.path.to_vec(),
            names: entries
                .iter()
                .map(|e| (e.name.clone(), e.file_type))
                .collect(),
            facts: (0..n).map(|_| Mutex::new(None)).collect(),
            done: AtomicUsize::new(0),
            start: Instant::now(),
            last_answer: AtomicU64::new(0),
            chunk,
            state: Mutex::new(State {
                ranges: std::iter::once(0..n).collect(),
                ..State::default()
            }),
            changed: Condvar::new(),
        });
        let facts = probes.run(limit, workers);
        let mut problems = Vec::new();
        for (i, (entry, facts)) in entries.iter_mut().zip(facts).enumerate() {
            let found = facts.record_into(entry);
            if !found.is_empty() {
                problems.push((i, found));
            }
        }
        problems
    }
}

/// The facts of an entry whose stat was given up.
fn stat_failed() -> Facts {
    Facts {
        stat: Some(Err(parallel::timed_out())),
        ..Facts::default()
    }
}

/// One worker's probes in flight: the entry it is on, since when its
/// request in flight waits, and what it knew when that request started.
struct Flight {
    now: Mutex<Current>,
    /// The last entry of its chunk, plus one.
    end: usize,
}

struct Current {
    item: usize,
    since: Instant,
    known: Option<Known>,
    given_up: bool,
}

/// What a probe knew when a request after its stat started.
enum Known {
    Xattrs(Metadata),
    ReadLink(Metadata),
    Target(Metadata, Option<Vec<u8>>),
}

impl Flight {
    fn lock(&self) -> MutexGuard<'_, Current> {
        lock(&self.now)
    }

    /// Moves on to `item`; false once given up (the rest of the chunk went
    /// back to the queue).
    fn advance(&self, item: usize) -> bool {
        let mut now = self.lock();
        if now.given_up {
            return false;
        }
        now.item = item;
        now.since = Instant::now();
        now.known = None;
        true
    }
}

impl Current {
    /// The facts of the entry with its request in flight given up.
    fn given_up_facts(&self) -> Facts {
        let timed_out = parallel::timed_out;
        match &self.known {
            None => stat_failed(),
            Some(Known::Xattrs(meta)) => {
                let mut facts = Facts {
                    stat: Some(Ok(meta.clone())),
                    ..Facts::default()
                };
                facts.problems.xattr = Some(timed_out());
                facts
            }
            Some(Known::ReadLink(meta)) => {
                let mut facts = Facts {
                    stat: Some(Ok(meta.clone())),
                    link: Some(Box::default()),
                    ..Facts::default()
                };
                facts.problems.read_link = Some(timed_out());
                facts
            }
            Some(Known::Target(meta, path)) => Facts {
                stat: Some(Ok(meta.clone())),
                link: Some(Box::new(LinkTarget {
                    path: path.clone(),
                    broken: true,
                    ..LinkTarget::default()
                })),
                ..Facts::default()
            },
        }
    }
}

#[derive(Default)]
struct State {
    /// Entries no worker has taken, in order.
    ranges: VecDeque<Range<usize>>,
    in_flight: Vec<Arc<Flight>>,
    /// Workers not given up.
    workers: usize,
}

/// A directory's probes on watched threads.
struct Probes {
    plan: Arc<Plan>,
    xattrs: Arc<AclProbe>,
    dir: OwnedFd,
    path: Vec<u8>,
    names: Vec<(CString, FileType)>,
    /// Each entry's facts, set once: by its probe, or given up.
    facts: Vec<Mutex<Option<Facts>>>,
    done: AtomicUsize,
    start: Instant,
    /// When a probe last answered (nanoseconds after `start`).
    last_answer: AtomicU64,
    chunk: usize,
    state: Mutex<State>,
    changed: Condvar,
}

/// A probe in flight this long doubles the workers, if every probe in
/// flight is that slow.
fn grow_after(limit: Duration) -> Duration {
    (limit / 8).min(Duration::from_millis(50))
}

impl Probes {
    fn since_start(&self, at: Instant) -> u64 {
        u64::try_from(at.saturating_duration_since(self.start).as_nanos()).unwrap_or(u64::MAX)
    }

    /// Records `facts` for `item` unless it was given up meanwhile;
    /// whether that was the last entry's.
    fn settle(&self, item: usize, facts: Facts) -> bool {
        {
            let mut slot = lock(&self.facts[item]);
            if slot.is_some() || self.done.load(Ordering::Acquire) >= self.names.len() {
                return false;
            }
            *slot = Some(facts);
        }
        self.done.fetch_add(1, Ordering::AcqRel) + 1 == self.names.len()
    }

    /// A worker: takes chunks of entries in order until none is left or
    /// its probe in flight was given up.
    fn work(&self) {
        let prober = Prober {
            plan: &self.plan,
            xattrs: &self.xattrs,
            dir: InDir {
                fd: self.dir.as_fd(),
                path: &self.path,
            },
            lookup: Lookup::ByName,
        };
        loop {
            let flight = {
                let mut state = lock(&self.state);
                let Some(range) = state.ranges.pop_front() else {
                    state.workers -= 1;
                    return;
                };
                let end = range.end.min(range.start + self.chunk);
                if end < range.end {
                    state.ranges.push_front(end..range.end);
                }
                let flight = Arc::new(Flight {
                    now: Mutex::new(Current {
                        item: range.start,
                        since: Instant::now(),
                        known: None,
                        given_up: false,
                    }),
                    end,
                });
                state.in_flight.push(Arc::clone(&flight));
                flight
            };
            let first = flight.lock().item;
            for item in first..flight.end {
                if item > first && !flight.advance(item) {
                    break;
                }
                let (name, file_type) = &self.names[item];
                let stage = |stage: Stage| {
                    let known = match stage {
                        Stage::Xattrs(m) => Known::Xattrs(m.clone()),
                        Stage::ReadLink(m) => Known::ReadLink(m.clone()),
                        Stage::Target(m, p) => Known::Target(m.clone(), p.map(<[u8]>::to_vec)),
                    };
                    let mut now = flight.lock();
                    now.since = Instant::now();
                    now.known = Some(known);
                };
                let facts = prober.probe_staged(name, *file_type, &stage);
                let answered = self.since_start(Instant::now());
                self.last_answer.fetch_max(answered, Ordering::Relaxed);
                if self.settle(item, facts) {
                    // Taken and released so that the waiter cannot miss it.
                    drop(lock(&self.state));
                    self.changed.notify_all();
                }
            }
            let mut state = lock(&self.state);
            state.in_flight.retain(|f| !Arc::ptr_eq(f, &flight));
            if flight.lock().given_up {
                // A replacement took this worker's place.
                drop(state);
                parallel::left_stuck(false);
                return;
            }
        }
    }

    /// Starts a worker; false when no thread could take it.
    fn start_worker(self: &Arc<Self>, state: &mut State) -> bool {
        let worker = Arc::clone(self);
        let started = parallel::spawn_watched(move || worker.work());
        if started {
            state.workers += 1;
        }
        started
    }

    /// Gives up what no worker has taken: no thread to go on with, or the
    /// directory is dead.
    fn give_up_the_rest(&self, state: &mut State) {
        for range in std::mem::take(&mut state.ranges) {
            for item in range {
                self.settle(item, stat_failed());
            }
        }
    }

    /// Runs the probes on `workers` workers to start with, giving up those
    /// that wait `limit`, and returns the facts in entry order.
    fn run(self: &Arc<Self>, limit: Duration, workers: usize) -> Vec<Facts> {
        let n = self.names.len();
        let grow = grow_after(limit);
        let mut state = lock(&self.state);
        for _ in 0..workers {
            self.start_worker(&mut state);
        }
        while self.done.load(Ordering::Acquire) < n {
            let now = Instant::now();
            let last_answer = self.last_answer.load(Ordering::Relaxed);
            let mut dead = false;
            let mut replace = 0;
            let mut live = Vec::new();
            let mut back = Vec::new();
            for f in &state.in_flight {
                let mut current = f.lock();
                if current.given_up {
                    continue;
                }
                if current.since + limit > now {
                    live.push(current.since);
                    continue;
                }
                current.given_up = true;
                // Nothing of the directory answered while it waited.
                dead |= last_answer < self.since_start(current.since);
                let item = current.item;
                let facts = current.given_up_facts();
                drop(current);
                if item + 1 < f.end {
                    back.push(item + 1..f.end);
                }
                parallel::left_stuck(true);
                replace += 1;
                self.settle(item, facts);
            }
            // Back to the queue, in order, the rest of the given up chunks.
            back.sort_by_key(|r| r.start);
            for range in back.into_iter().rev() {
                state.ranges.push_front(range);
            }
            state.workers -= replace;
            if dead {
                self.give_up_the_rest(&mut state);
            }
            let left: usize = state.ranges.iter().map(|r| r.len()).sum();
            let all_slow = live.iter().all(|&s| s + grow <= now);
            // Every probe in flight slow: twice the workers, so that the
            // entries behind them go on (and answer, if they can).
            let room = MAX_PROBE_THREADS.saturating_sub(state.workers).min(left);
            let want = if all_slow {
                state.workers.max(1).max(replace).min(room)
            } else {
                replace.min(left)
            };
            let mut started = 0;
            while started < want && self.start_worker(&mut state) {
                started += 1;
            }
            if state.workers == 0 {
                self.give_up_the_rest(&mut state);
            }
            if self.done.load(Ordering::Acquire) >= n {
                break;
            }
            let earliest = live.iter().min().map_or(now + limit, |&s| s + limit);
            // The newest probe in flight (or those of the workers just
            // started) turns slow at `newest`.
            let newest = match live.iter().max() {
                Some(&s) if started == 0 => s + grow,
                _ => now + grow,
            };
            let wake = if left > 0 && newest > now {
                earliest.min(newest)
            } else {
                earliest
            };
            let wait = wake
                .saturating_duration_since(now)
                .max(Duration::from_millis(1));
            state = (self.changed.wait_timeout(state, wait))
                .unwrap_or_else(|e| e.into_inner())
                .0;
        }
        drop(state);
        (self.facts.iter())
            .map(|f| lock(f).take().unwrap_or_else(stat_failed))
            .collect()
    }
}
