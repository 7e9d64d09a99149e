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

use std::ffi::CString;
use std::os::fd::{AsFd, OwnedFd};
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
        let ident = identify.then(|| {
            (progress.ident.take()).unwrap_or_else(|| Err(parallel::timed_out()))
        });
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
        let probes = Arc::new(Probes {
            plan: Arc::clone(&self.plan),
            xattrs: Arc::clone(&self.xattrs),
            dir: fd,
            path: dir.path.to_vec(),
            names: entries
                .iter()
                .map(|e| (e.name.clone(), e.file_type))
                .collect(),
            state: Mutex::new(State {
                facts: (0..entries.len()).map(|_| None).collect(),
                ..State::default()
            }),
            changed: Condvar::new(),
        });
        let facts = probes.run(limit);
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

/// One entry's probe in flight.
struct Flight {
    item: usize,
    since: Instant,
    /// What the probe knew when its request in flight started, to keep
    /// if it is given up: nothing yet (its stat), or the stage after it.
    stage: Option<Known>,
    given_up: bool,
}

/// What a probe knew when a request after its stat started.
enum Known {
    Xattrs(Metadata),
    ReadLink(Metadata),
    Target(Metadata, Option<Vec<u8>>),
}

impl Flight {
    /// The facts of the entry with its request in flight given up.
    fn given_up_facts(&self) -> Facts {
        let timed_out = parallel::timed_out;
        match &self.stage {
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
    next: usize,
    facts: Vec<Option<Facts>>,
    done: usize,
    in_flight: Vec<Flight>,
    /// When a probe last answered.
    last_answer: Option<Instant>,
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
    state: Mutex<State>,
    changed: Condvar,
}

/// A probe in flight this long doubles the workers, if every probe in
/// flight is that slow.
fn grow_after(limit: Duration) -> Duration {
    (limit / 8).min(Duration::from_millis(50))
}

impl Probes {
    /// A worker: takes entries in order until none is left or its own
    /// probe was given up.
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
            let item = {
                let mut state = lock(&self.state);
                if state.next >= self.names.len() {
                    state.workers -= 1;
                    return;
                }
                let item = state.next;
                state.next += 1;
                state.in_flight.push(Flight {
                    item,
                    since: Instant::now(),
                    stage: None,
                    given_up: false,
                });
                item
            };
            let (name, file_type) = &self.names[item];
            let stage = |stage: Stage| {
                let known = match stage {
                    Stage::Xattrs(m) => Known::Xattrs(m.clone()),
                    Stage::ReadLink(m) => Known::ReadLink(m.clone()),
                    Stage::Target(m, p) => Known::Target(m.clone(), p.map(<[u8]>::to_vec)),
                };
                let mut state = lock(&self.state);
                if let Some(f) = state.in_flight.iter_mut().find(|f| f.item == item) {
                    f.since = Instant::now();
                    f.stage = Some(known);
                }
            };
            let facts = prober.probe_staged(name, *file_type, &stage);
            let mut state = lock(&self.state);
            let at = state.in_flight.iter().position(|f| f.item == item);
            let flight = at.map(|at| state.in_flight.swap_remove(at));
            state.last_answer = Some(Instant::now());
            if flight.is_some_and(|f| f.given_up) {
                // Given up meanwhile: a replacement took this worker's place.
                parallel::left_stuck(false);
                return;
            }
            state.facts[item] = Some(facts);
            state.done += 1;
            if state.done == self.names.len() {
                self.changed.notify_all();
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

    /// Runs the probes, giving up those that wait `limit`, and returns the
    /// facts in entry order.
    fn run(self: &Arc<Self>, limit: Duration) -> Vec<Facts> {
        let n = self.names.len();
        let grow = grow_after(limit);
        let mut state = lock(&self.state);
        self.start_worker(&mut state);
        while state.done < n {
            let now = Instant::now();
            let mut dead = false;
            let mut replace = 0;
            let last_answer = state.last_answer;
            let mut given_up = Vec::new();
            for f in state.in_flight.iter_mut() {
                if !f.given_up && f.since + limit <= now {
                    f.given_up = true;
                    given_up.push((f.item, f.given_up_facts()));
                    // Nothing of the directory answered while it waited.
                    dead |= last_answer.is_none_or(|a| a < f.since);
                    replace += 1;
                }
            }
            for (item, facts) in given_up {
                parallel::left_stuck(true);
                state.workers -= 1;
                state.facts[item] = Some(facts);
                state.done += 1;
            }
            if dead {
                while state.next < n {
                    let item = state.next;
                    state.facts[item] = Some(stat_failed());
                    state.next += 1;
                    state.done += 1;
                }
            }
            let live: Vec<Instant> = (state.in_flight.iter())
                .filter(|f| !f.given_up)
                .map(|f| f.since)
                .collect();
            let left = n - state.next;
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
            if state.workers == 0 && state.next < n {
                // No thread to go on with: what is left is given up.
                while state.next < n {
                    let item = state.next;
                    state.facts[item] = Some(stat_failed());
                    state.next += 1;
                    state.done += 1;
                }
            }
            if state.done >= n {
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
            let wait = wake.saturating_duration_since(now).max(Duration::from_millis(1));
            state = (self.changed.wait_timeout(state, wait))
                .unwrap_or_else(|e| e.into_inner())
                .0;
        }
        let facts = std::mem::take(&mut state.facts);
        facts.into_iter().map(Option::unwrap_or_default).collect()
    }
}
