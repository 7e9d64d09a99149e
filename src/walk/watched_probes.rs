//! `--timeout`: a directory's probes on watched threads. Workers take its
//! entries a chunk at a time, in order, each saying which entry (and which
//! request of it) is in flight since when, and publishing the facts every
//! 64 entries; whoever waits for the facts (`run`) records them in order
//! as they come, gives up a request that has waited the limit (what its
//! worker probed since it last published is probed again), hands the rest
//! of that worker's chunk to a new one, brings more workers in when every
//! probe in flight is slow, and gives up the directory's unsent probes
//! when one is given up and none of the directory answered while it
//! waited (a dead mount costs one limit, not one per entry). The probes of
//! a directory read ahead start on the thread that read it, before the
//! walk waits for them.
#![forbid(unsafe_code)]

use std::collections::VecDeque;
use std::ffi::CStr;
use std::ops::Range;
use std::os::fd::{AsFd, OwnedFd};
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

use super::probe::{Facts, FactsList, Prober, Stage};
use super::watched_facts::{stat_failed, InOrder, Known, Segment};
use crate::parallel::tuning::{
    watched_grow_after, MAX_PROBE_THREADS, WATCHED_PUBLISH, WATCHED_WAKE_EVERY,
};
use crate::parallel::{self, lock, Lookup};
use crate::plan::Plan;
use crate::sys::xattr::{AclProbe, InDir};
use crate::sys::FileType;

/// One worker's probes in flight: the entry it is on, since when its
/// request in flight waits, and what it knew when that request started.
/// The worker writes without a lock, `since` before `item`: whoever reads
/// `item`, then `since`, then `item` unchanged, has a start no earlier
/// than that entry's. A worker between two entries has no request in
/// flight: `answered` is later than `since` from the moment its probe
/// answered until the next request starts, so an entry that answered is
/// never given up, however long its worker then waits for a CPU.
struct Flight {
    item: AtomicUsize,
    /// Nanoseconds after the probes' start.
    since: AtomicU64,
    /// When this worker's probe last answered (nanoseconds after the
    /// probes' start; 0: none yet).
    answered: AtomicU64,
    given_up: AtomicBool,
    /// Entries this worker published in the chunk, not yet counted in
    /// `Probes::done` (one counter per worker: no cache line shared by
    /// workers is written per entry).
    settled: AtomicUsize,
    /// The first entry of the chunk whose facts are not yet published
    /// (under the segment's `results` lock).
    published: AtomicUsize,
    /// What the probe of an entry knew when a request after its stat
    /// started, with the entry.
    known: Mutex<Option<(usize, Known)>>,
    /// The last entry of its chunk, plus one.
    end: usize,
    segment: Arc<Segment>,
}

/// Entries of one segment no worker has taken.
struct Pending {
    segment: Arc<Segment>,
    items: Range<usize>,
}

impl Flight {
    /// Moves on to `item`, its request sent at `at`; false once given up
    /// (the rest of the chunk went back to the queue).
    fn advance(&self, item: usize, at: u64) -> bool {
        if self.given_up.load(Ordering::Acquire) {
            return false;
        }
        self.since.store(at, Ordering::Release);
        self.item.store(item, Ordering::Release);
        true
    }

    /// The entry in flight and since when, read consistently; `None`
    /// between two entries (the last one's probe answered).
    fn in_flight(&self) -> Option<(usize, u64)> {
        loop {
            let item = self.item.load(Ordering::Acquire);
            let since = self.since.load(Ordering::Acquire);
            if self.item.load(Ordering::Acquire) == item {
                let answered = self.answered.load(Ordering::Acquire) > since;
                return (!answered).then_some((item, since));
            }
        }
    }

    /// The facts of `item`, its request in flight given up.
    fn given_up_facts(&self, item: usize) -> Facts {
        let known = lock(&self.known);
        match known.as_ref() {
            Some((of, known)) if *of == item => known.given_up_facts(),
            _ => stat_failed(),
        }
    }
}

#[derive(Default)]
struct State {
    /// Entries no worker has taken, in order.
    ranges: VecDeque<Pending>,
    in_flight: Vec<Arc<Flight>>,
    /// Workers not given up.
    workers: usize,
    /// Every segment, in order.
    segments: Vec<Arc<Segment>>,
    /// Entries added so far.
    added: usize,
    /// No entry is added any more (the directory was read, or its reading
    /// given up).
    sealed: bool,
    /// Workers waiting for entries to be added.
    idle: usize,
    /// Someone waits in `run` (a signal costs a system call even with
    /// nobody waiting).
    waiting: bool,
}

/// A directory's probes on watched threads.
pub(super) struct Probes {
    plan: Arc<Plan>,
    xattrs: Arc<AclProbe>,
    dir: Arc<OwnedFd>,
    path: Vec<u8>,
    /// Entries once sealed; until then more than any count.
    total: AtomicUsize,
    done: AtomicUsize,
    start: Instant,
    /// When a probe last answered (nanoseconds after `start`).
    last_answer: AtomicU64,
    /// Workers to start with, and the entries each takes at a time.
    shape: (usize, usize),
    state: Mutex<State>,
    /// A probe answered or was given up (for whoever waits in `run`).
    changed: Condvar,
    /// Entries were added, or the probes sealed (for idle workers).
    more: Condvar,
}

impl Probes {
    /// The probes of a directory's entries, none added yet, in directory
    /// `dir` (`path`), as `parallel::watched_probe_shape` says: on how
    /// many workers, taking how many entries at a time.
    pub(super) fn new(
        (plan, xattrs): (Arc<Plan>, Arc<AclProbe>),
        (dir, path): (Arc<OwnedFd>, Vec<u8>),
        shape: (usize, usize),
    ) -> Arc<Probes> {
        Arc::new(Probes {
            plan,
            xattrs,
            dir,
            path,
            total: AtomicUsize::new(usize::MAX),
            done: AtomicUsize::new(0),
            start: Instant::now(),
            last_answer: AtomicU64::new(0),
            shape: (shape.0.max(1), shape.1.max(1)),
            state: Mutex::new(State::default()),
            changed: Condvar::new(),
            more: Condvar::new(),
        })
    }

    /// Adds the next entries, in directory order (nothing once sealed).
    pub(super) fn add(&self, names: impl Iterator<Item = (impl AsRef<CStr>, FileType)>) {
        self.add_segment(|start| Segment::new(start, names));
    }

    /// [`Probes::add`] for names packed as read (`PackedNames::parts`).
    pub(super) fn add_packed(&self, names: (&[u8], &[FileType])) {
        self.add_segment(|start| Segment::packed(start, names));
    }

    fn add_segment(&self, make: impl FnOnce(usize) -> Segment) {
        let mut state = lock(&self.state);
        if state.sealed {
            return;
        }
        let start = state.added;
        let segment = make(start);
        if segment.len() == 0 {
            return;
        }
        state.added += segment.len();
        let segment = Arc::new(segment);
        state.segments.push(Arc::clone(&segment));
        let items = start..state.added;
        state.ranges.push_back(Pending { segment, items });
        let idle = state.idle > 0;
        drop(state);
        if idle {
            self.more.notify_one();
        }
    }

    /// No more entries: those added are the directory's. Returns how many.
    pub(super) fn seal(&self) -> usize {
        let mut state = lock(&self.state);
        if !state.sealed {
            state.sealed = true;
            self.total.store(state.added, Ordering::Release);
        }
        let (added, idle) = (state.added, state.idle > 0);
        drop(state);
        if idle {
            self.more.notify_all();
        }
        added
    }

    /// Counts the calling thread (a watched one) as a worker, before
    /// anyone can wait for the probes: it then calls [`Probes::work`].
    pub(super) fn enlist(&self) {
        lock(&self.state).workers += 1;
    }

    /// Workers the probes start with.
    pub(super) fn workers(&self) -> usize {
        self.shape.0
    }

    /// Starts `n` workers beside the caller (entries are still added).
    pub(super) fn help(self: &Arc<Self>, n: usize) {
        let mut state = lock(&self.state);
        for _ in 0..n {
            if !self.start_worker(&mut state) {
                break;
            }
        }
    }

    fn since_start(&self, at: Instant) -> u64 {
        u64::try_from(at.saturating_duration_since(self.start).as_nanos()).unwrap_or(u64::MAX)
    }

    /// A worker publishes the facts of its chunk's entries from
    /// `flight.published` on; false (and nothing published) once the
    /// flight was given up.
    fn publish(flight: &Flight, facts: &mut FactsList) -> bool {
        let mut results = lock(&flight.segment.results);
        if flight.given_up.load(Ordering::Acquire) {
            return false;
        }
        let start = flight.published.load(Ordering::Acquire);
        let n = facts.len();
        if !facts.is_empty() {
            results.push((
                start,
                std::mem::replace(facts, FactsList::with_capacity(WATCHED_PUBLISH)),
            ));
        }
        flight.published.store(start + n, Ordering::Release);
        flight.settled.fetch_add(n, Ordering::Release);
        true
    }

    /// Entries settled so far: those counted, and those of the chunks in
    /// flight.
    fn done(&self, state: &State) -> usize {
        let in_flight = state.in_flight.iter();
        let settled: usize = in_flight.map(|f| f.settled.load(Ordering::Acquire)).sum();
        self.done.load(Ordering::Acquire) + settled
    }

    /// What the waiter publishes itself (given up), counted.
    fn publish_given_up(&self, segment: &Segment, items: Range<usize>, facts: FactsList) {
        let n = items.len();
        lock(&segment.results).push((items.start, facts));
        self.done.fetch_add(n, Ordering::AcqRel);
    }

    /// The next chunk for a worker, waiting while entries may still be
    /// added; `None` once none is left.
    fn take_chunk(&self) -> Option<Arc<Flight>> {
        let mut state = lock(&self.state);
        let range = loop {
            if let Some(range) = state.ranges.pop_front() {
                break range;
            }
            if state.sealed {
                state.workers -= 1;
                return None;
            }
            state.idle += 1;
            state = (self.more.wait(state)).unwrap_or_else(|e| e.into_inner());
            state.idle -= 1;
        };
        let Pending { segment, items } = range;
        let end = items.end.min(items.start + self.shape.1);
        if end < items.end {
            let rest = Pending {
                segment: Arc::clone(&segment),
                items: end..items.end,
            };
            state.ranges.push_front(rest);
        }
        let flight = Arc::new(Flight {
            item: AtomicUsize::new(items.start),
            since: AtomicU64::new(self.since_start(Instant::now())),
            answered: AtomicU64::new(0),
            given_up: AtomicBool::new(false),
            settled: AtomicUsize::new(0),
            published: AtomicUsize::new(items.start),
            known: Mutex::new(None),
            end,
            segment,
        });
        state.in_flight.push(Arc::clone(&flight));
        Some(flight)
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
        while let Some(flight) = self.take_chunk() {
            let first = flight.item.load(Ordering::Relaxed);
            let segment = &flight.segment;
            let mut answered = 0;
            let mut facts = FactsList::with_capacity(WATCHED_PUBLISH.min(flight.end - first));
            for item in first..flight.end {
                if item > first && !flight.advance(item, answered) {
                    break;
                }
                let (name, file_type) = segment.name(item);
                let stage = |stage: Stage| {
                    let known = match stage {
                        Stage::Xattrs(m) => Known::Xattrs(m.clone()),
                        Stage::ReadLink(m) => Known::ReadLink(m.clone()),
                        Stage::Target(m, p) => Known::Target(m.clone(), p.map(<[u8]>::to_vec)),
                    };
                    *lock(&flight.known) = Some((item, known));
                    (flight.since).store(self.since_start(Instant::now()), Ordering::Release);
                };
                facts.push(prober.probe_staged(name, file_type, &stage));
                answered = self.since_start(Instant::now());
                flight.answered.store(answered, Ordering::Release);
                if facts.len() == WATCHED_PUBLISH && !Probes::publish(&flight, &mut facts) {
                    break;
                }
            }
            Probes::publish(&flight, &mut facts);
            self.last_answer.fetch_max(answered, Ordering::Relaxed);
            if !self.retire(&flight) {
                return;
            }
        }
    }

    /// A worker's chunk is done: its flight goes, its entries are counted.
    /// False when it was given up (a replacement took the worker's place).
    fn retire(&self, flight: &Arc<Flight>) -> bool {
        let mut state = lock(&self.state);
        state.in_flight.retain(|f| !Arc::ptr_eq(f, flight));
        // Counted, with the flight gone, under the lock: the waiter sees
        // each settled entry once.
        let settled = flight.settled.swap(0, Ordering::AcqRel);
        self.done.fetch_add(settled, Ordering::AcqRel);
        let total = self.total.load(Ordering::Acquire);
        if state.waiting && self.done(&state) >= total {
            self.changed.notify_all();
        }
        if flight.given_up.load(Ordering::Acquire) {
            drop(state);
            parallel::left_stuck(false);
            return false;
        }
        true
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
            let mut facts = FactsList::with_capacity(range.items.len());
            for _ in range.items.clone() {
                facts.push(stat_failed());
            }
            self.publish_given_up(&range.segment, range.items, facts);
        }
    }

    /// Waits for the probes (sealing them first: the caller has every
    /// entry), workers joining while entries are left (up to the shape's),
    /// giving up requests that wait `limit`; hands each entry's facts to
    /// `record`, in entry order.
    pub(super) fn run(self: &Arc<Self>, limit: Duration, mut record: impl FnMut(Facts)) {
        let n = self.seal();
        let grow = watched_grow_after(limit);
        let mut state = lock(&self.state);
        // Sealed: no segment is added any more.
        let segments = state.segments.clone();
        let mut in_order = InOrder::default();
        while state.workers < self.shape.0 && !state.ranges.is_empty() {
            if !self.start_worker(&mut state) {
                break;
            }
        }
        while self.done(&state) < n {
            let now = Instant::now();
            let now_ns = self.since_start(now);
            let limit_ns = u64::try_from(limit.as_nanos()).unwrap_or(u64::MAX);
            let last_answer = (state.in_flight.iter())
                .map(|f| f.answered.load(Ordering::Acquire))
                .fold(self.last_answer.load(Ordering::Relaxed), u64::max);
            let mut dead = false;
            let mut replace = 0;
            let mut live = Vec::new();
            let mut back = Vec::new();
            for f in &state.in_flight {
                if f.given_up.load(Ordering::Acquire) {
                    continue;
                }
                let Some((item, since)) = f.in_flight() else {
                    // Between two entries: its next request starts now at
                    // the earliest (not slow, and not yet due).
                    live.push(now);
                    continue;
                };
                if since.saturating_add(limit_ns) > now_ns {
                    live.push(self.start + Duration::from_nanos(since));
                    continue;
                }
                // What the worker published stays; what it probed since is
                // probed again, and the entry in flight is given up.
                let published = {
                    let _results = lock(&f.segment.results);
                    f.given_up.store(true, Ordering::Release);
                    f.published.load(Ordering::Acquire)
                };
                // Nothing of the directory answered while it waited.
                dead |= last_answer < since;
                let segment = &f.segment;
                let mut again = |items: Range<usize>| {
                    if !items.is_empty() {
                        let segment = Arc::clone(segment);
                        back.push(Pending { segment, items });
                    }
                };
                if published <= item {
                    again(published..item);
                    let mut facts = FactsList::with_capacity(1);
                    facts.push(f.given_up_facts(item));
                    self.publish_given_up(segment, item..item + 1, facts);
                    again(item + 1..f.end);
                } else {
                    // It answered meanwhile, and went on.
                    again(published..f.end);
                }
                parallel::left_stuck(true);
                replace += 1;
            }
            // Back to the queue, in order, the rest of the given up chunks.
            back.sort_by_key(|r| r.items.start);
            for range in back.into_iter().rev() {
                state.ranges.push_front(range);
            }
            state.workers -= replace;
            if dead {
                self.give_up_the_rest(&mut state);
            }
            let left: usize = state.ranges.iter().map(|r| r.items.len()).sum();
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
            if self.done(&state) >= n {
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
            let mut wait = wake
                .saturating_duration_since(now)
                .max(Duration::from_millis(1));
            // Probes answering: what they published is recorded meanwhile.
            if last_answer + 5 * WATCHED_WAKE_EVERY.as_nanos() as u64 >= now_ns {
                wait = wait.min(WATCHED_WAKE_EVERY);
            }
            state.waiting = true;
            state = (self.changed.wait_timeout(state, wait))
                .unwrap_or_else(|e| e.into_inner())
                .0;
            state.waiting = false;
            drop(state);
            in_order.drain(&segments, &mut record);
            state = lock(&self.state);
        }
        state.segments.clear();
        drop(state);
        in_order.drain(&segments, &mut record);
        in_order.finish(n, &mut record);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::Config;
    use crate::sys::dir::open_dir;
    use crate::sys::stat::Base;
    use std::ffi::CString;

    /// A directory of `n` files, file `i` of `i` bytes.
    fn sized_files(n: usize, tag: &str) -> (std::path::PathBuf, Vec<CString>) {
        let dir = std::env::temp_dir().join(format!("statls-probes-{tag}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir(&dir).unwrap();
        let names: Vec<CString> = (0..n)
            .map(|i| CString::new(format!("f{i}")).unwrap())
            .collect();
        for (i, name) in names.iter().enumerate() {
            std::fs::write(dir.join(name.to_str().unwrap()), vec![b'x'; i]).unwrap();
        }
        (dir, names)
    }

    /// The probes `ls -l` makes of directory `path`, in `shape`, with
    /// what they share.
    fn long_listing_probes(
        path: &std::path::Path,
        shape: (usize, usize),
    ) -> (Arc<Probes>, Arc<Plan>, Arc<OwnedFd>) {
        let config = Config::load(vec!["ls".into(), "-l".into()]).unwrap();
        let plan = Arc::new(Plan::new(&config));
        let c_path = CString::new(path.as_os_str().as_encoded_bytes()).unwrap();
        let fd = Arc::new(open_dir(Base::Cwd, &c_path).unwrap());
        let dir_path = path.as_os_str().as_encoded_bytes().to_vec();
        let shared = (Arc::clone(&plan), Arc::default());
        let probes = Probes::new(shared, (Arc::clone(&fd), dir_path), shape);
        (probes, plan, fd)
    }

    /// Defect 2 of the one-engine issue: a worker whose probe answered,
    /// then waited longer than the limit for a CPU before it published,
    /// has no request in flight: the entry keeps what its probe learned.
    #[test]
    fn an_entry_that_answered_is_not_given_up_while_its_worker_waits_for_a_cpu() {
        let (path, names) = sized_files(1, "answered");
        let (probes, plan, fd) = long_listing_probes(&path, (1, 1));
        probes.add(names.iter().map(|n| (n, FileType::Regular)));
        probes.seal();
        probes.enlist();
        // The worker takes the entry, probes it, and the answer is in...
        let flight = probes.take_chunk().unwrap();
        let xattrs = Arc::default();
        let prober = Prober {
            plan: &plan,
            xattrs: &xattrs,
            dir: InDir {
                fd: fd.as_fd(),
                path: b"",
            },
            lookup: Lookup::ByName,
        };
        let mut facts = FactsList::with_capacity(1);
        facts.push(prober.probe(&names[0], FileType::Regular));
        let answered = probes.since_start(Instant::now()) + 1;
        flight.answered.store(answered, Ordering::Release);
        // ...then its thread waits three limits for a CPU before it
        // publishes.
        let limit = Duration::from_millis(100);
        let worker = {
            let probes = Arc::clone(&probes);
            std::thread::spawn(move || {
                std::thread::sleep(3 * limit);
                Probes::publish(&flight, &mut facts);
                probes.retire(&flight);
            })
        };
        let mut sizes = Vec::new();
        probes.run(limit, |facts| {
            sizes.push(
                facts
                    .stat
                    .map(|s| s.map(|m| m.size()).map_err(|e| e.raw_os_error())),
            );
        });
        worker.join().unwrap();
        let _ = std::fs::remove_dir_all(&path);
        assert_eq!(sizes, [Some(Ok(Some(0)))]);
    }

    #[test]
    fn entries_added_while_workers_wait_are_probed_once_each_in_order() {
        let (path, names) = sized_files(150, "order");
        let (probes, _, _) = long_listing_probes(&path, (3, 7));
        // Two workers wait for entries before any is added, as while the
        // first getdents answers are read.
        probes.help(2);
        for part in names.chunks(40) {
            probes.add(part.iter().map(|n| (n, FileType::Regular)));
        }
        let mut sizes = Vec::new();
        probes.run(Duration::from_secs(30), |facts| {
            sizes.push(facts.stat.and_then(Result::ok).and_then(|m| m.size()));
        });
        let _ = std::fs::remove_dir_all(&path);
        let expected: Vec<Option<u64>> = (0..150).map(|i| Some(i as u64)).collect();
        assert_eq!(sizes, expected);
        // Sealed: entries added later are not the directory's.
        probes.add(names.iter().take(1).map(|n| (n, FileType::Regular)));
        assert_eq!(probes.seal(), 150);
    }
}
