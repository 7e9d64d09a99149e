//! `--timeout`: a directory's probes on watched threads. Workers take its
//! entries a chunk at a time, in order, each saying which entry (and which
//! request of it) is in flight since when; whoever waits for the facts
//! (`run`) gives up a request that has waited the limit, hands the rest of
//! that worker's chunk to a new one, brings more workers in when every
//! probe in flight is slow, and gives up the directory's unsent probes
//! when one is given up and none of the directory answered while it
//! waited (a dead mount costs one limit, not one per entry). The probes of
//! a directory read ahead start on the thread that read it, before the
//! walk waits for them.
#![forbid(unsafe_code)]

use std::collections::VecDeque;
use std::ffi::CString;
use std::ops::Range;
use std::os::fd::{AsFd, OwnedFd};
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use super::probe::{Facts, Prober, Stage};
use crate::config::MAX_PROBE_THREADS;
use crate::entry::LinkTarget;
use crate::parallel::{self, Lookup};
use crate::plan::Plan;
use crate::sys::xattr::{AclProbe, InDir};
use crate::sys::{FileType, Metadata};

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// The facts of an entry whose stat was given up.
pub(super) fn stat_failed() -> Facts {
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

    /// Moves on to `item` at `at`; false once given up (the rest of the
    /// chunk went back to the queue).
    fn advance(&self, item: usize, at: Instant) -> bool {
        let mut now = self.lock();
        if now.given_up {
            return false;
        }
        now.item = item;
        now.since = at;
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
pub(super) struct Probes {
    plan: Arc<Plan>,
    xattrs: Arc<AclProbe>,
    dir: Arc<OwnedFd>,
    path: Vec<u8>,
    names: Vec<(CString, FileType)>,
    /// Each entry's facts, set once: by its probe, or given up.
    facts: Vec<Mutex<Option<Facts>>>,
    done: AtomicUsize,
    start: Instant,
    /// When a probe last answered (nanoseconds after `start`).
    last_answer: AtomicU64,
    /// Workers to start with, and the entries each takes at a time.
    shape: (usize, usize),
    state: Mutex<State>,
    changed: Condvar,
}

/// A probe in flight this long doubles the workers, if every probe in
/// flight is that slow.
fn grow_after(limit: Duration) -> Duration {
    (limit / 8).min(Duration::from_millis(50))
}

impl Probes {
    /// The probes of `names` (in directory order) in directory `dir`
    /// (`path`), as `parallel::watched_probe_shape` says: on how many
    /// workers, taking how many entries at a time. None sent yet.
    pub(super) fn new(
        (plan, xattrs): (Arc<Plan>, Arc<AclProbe>),
        (dir, path): (Arc<OwnedFd>, Vec<u8>),
        names: Vec<(CString, FileType)>,
        shape: (usize, usize),
    ) -> Arc<Probes> {
        let n = names.len();
        Arc::new(Probes {
            plan,
            xattrs,
            dir,
            path,
            names,
            facts: (0..n).map(|_| Mutex::new(None)).collect(),
            done: AtomicUsize::new(0),
            start: Instant::now(),
            last_answer: AtomicU64::new(0),
            shape: (shape.0.max(1), shape.1.max(1)),
            state: Mutex::new(State {
                ranges: std::iter::once(0..n).collect(),
                ..State::default()
            }),
            changed: Condvar::new(),
        })
    }

    /// Counts the calling thread (a watched one) as a worker, before
    /// anyone can wait for the probes: it then calls [`Probes::work`].
    pub(super) fn enlist(&self) {
        lock(&self.state).workers += 1;
    }

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
    pub(super) fn work(&self) {
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
                let end = range.end.min(range.start + self.shape.1);
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
            let mut answered = Instant::now();
            for item in first..flight.end {
                if item > first && !flight.advance(item, answered) {
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
                answered = Instant::now();
                let at = self.since_start(answered);
                self.last_answer.fetch_max(at, Ordering::Relaxed);
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

    /// Waits for the probes, workers joining while entries are left (up
    /// to the shape's), giving up requests that wait `limit`; returns the
    /// facts in entry order.
    pub(super) fn run(self: &Arc<Self>, limit: Duration) -> Vec<Facts> {
        let n = self.names.len();
        let grow = grow_after(limit);
        let mut state = lock(&self.state);
        while state.workers < self.shape.0 && !state.ranges.is_empty() {
            if !self.start_worker(&mut state) {
                break;
            }
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
