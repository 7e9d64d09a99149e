//! A directory's entries probed on more than one thread, with or without
//! a deadline: workers take the entries a chunk at a time, in order, and
//! publish their facts a run at a time; whoever waits (`run`) hands them
//! to the walk in entry order (`handover`), so output does not depend on
//! timing. With no deadline the caller is one of the workers, the others
//! lent to the probe pool; under `--timeout` the workers run on watched
//! threads and the waiter gives up a request that waited the limit
//! (`deadline`).
#![forbid(unsafe_code)]

use std::collections::VecDeque;
use std::ffi::CStr;
use std::ops::Range;
use std::os::fd::{AsFd, OwnedFd};
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

use super::handover::{stat_failed, InOrder, Known, Segment};
use super::probe::{Facts, FactsList, Prober, Stage};
use crate::parallel::tuning::WATCHED_PUBLISH;
use crate::parallel::{self, lock, Lookup, Pace, Shape};
use crate::plan::Plan;
use crate::sys::clock;
use crate::sys::xattr::{AclProbe, InDir};
use crate::sys::FileType;

mod deadline;

/// One worker's probes in flight: the entry it is on, since when its
/// request in flight waits, and what it knew when that request started.
/// The worker writes without a lock, `since` before `item`: whoever reads
/// `item`, then `since`, then `item` unchanged, has a start no earlier
/// than that entry's. A worker between two entries has no request in
/// flight: `answered_item` is its entry from the moment its probe
/// answered until the next request starts, so an entry that answered is
/// never given up, however long its worker then waits for a CPU. Times
/// are nanoseconds after the probes' start, stamped rounded up
/// (`sys::clock::now_rounded_up`: a request is never given up early).
struct Flight {
    item: AtomicUsize,
    since: AtomicU64,
    /// When this worker's probe last answered (0: none yet).
    answered: AtomicU64,
    /// The entry whose probe answered last (`usize::MAX`: none yet).
    answered_item: AtomicUsize,
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

    /// The probe of `item` answered, at `at`.
    fn answer(&self, item: usize, at: u64) {
        self.answered.store(at, Ordering::Release);
        self.answered_item.store(item, Ordering::Release);
    }

    /// The entry in flight and since when, read consistently; `None`
    /// between two entries (the last one's probe answered).
    fn in_flight(&self) -> Option<(usize, u64)> {
        loop {
            let item = self.item.load(Ordering::Acquire);
            let since = self.since.load(Ordering::Acquire);
            if self.item.load(Ordering::Acquire) == item {
                let answered = self.answered_item.load(Ordering::Acquire) == item;
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
    /// The segments added since the waiter last took them, in order.
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
    /// Workers lent to the probe pool (no deadline), to withdraw those no
    /// thread started.
    loans: Vec<u64>,
}

/// A directory's probes.
pub(super) struct Probes {
    plan: Arc<Plan>,
    xattrs: Arc<AclProbe>,
    dir: Arc<OwnedFd>,
    path: Vec<u8>,
    /// Entries once sealed; until then more than any count.
    total: AtomicUsize,
    done: AtomicUsize,
    /// When the probes started (`sys::clock` nanoseconds).
    start: u64,
    /// When a probe last answered (nanoseconds after `start`; watched).
    last_answer: AtomicU64,
    shape: Shape,
    state: Mutex<State>,
    /// A probe answered or was given up (for whoever waits in `run`).
    changed: Condvar,
    /// Entries were added, or the probes sealed (for idle workers).
    more: Condvar,
    /// The facts handed over so far (by whoever waits).
    order: Mutex<InOrder>,
}

impl Probes {
    /// The probes of a directory's entries, none added yet, in directory
    /// `dir` (`path`), in the `shape` `parallel::probe_strategy` says.
    pub(super) fn new(
        (plan, xattrs): (Arc<Plan>, Arc<AclProbe>),
        (dir, path): (Arc<OwnedFd>, Vec<u8>),
        shape: Shape,
    ) -> Arc<Probes> {
        Arc::new(Probes {
            plan,
            xattrs,
            dir,
            path,
            total: AtomicUsize::new(usize::MAX),
            done: AtomicUsize::new(0),
            start: clock::now(),
            last_answer: AtomicU64::new(0),
            shape: Shape {
                workers: shape.workers.max(1),
                chunk: shape.chunk.max(1),
                ..shape
            },
            state: Mutex::new(State::default()),
            changed: Condvar::new(),
            more: Condvar::new(),
            order: Mutex::default(),
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

    /// Counts the calling thread as a worker, before anyone can wait for
    /// the probes: it then calls [`Probes::work`].
    pub(super) fn enlist(&self) {
        lock(&self.state).workers += 1;
    }

    /// Workers the probes start with.
    pub(super) fn workers(&self) -> usize {
        self.shape.workers
    }

    /// Starts `n` workers beside the caller (entries may still be added):
    /// watched threads, or with no deadline lent to the run's probe pool.
    pub(super) fn help(self: &Arc<Self>, n: usize) {
        if n == 0 {
            return;
        }
        if !self.shape.watched {
            let probes = Arc::clone(self);
            let lent = move || {
                probes.enlist();
                probes.work();
            };
            let loan = parallel::lend(lent, n);
            lock(&self.state).loans.push(loan);
            return;
        }
        let mut state = lock(&self.state);
        for _ in 0..n {
            if !self.start_worker(&mut state) {
                break;
            }
        }
    }

    /// Nanoseconds since the probes started, exactly.
    fn elapsed(&self) -> u64 {
        clock::now().saturating_sub(self.start)
    }

    /// The same, cheaply and rounded up: a request's start, or an answer.
    fn stamp(&self) -> u64 {
        clock::now_rounded_up().saturating_sub(self.start)
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
            let room = WATCHED_PUBLISH.min(flight.end - start - n);
            results.push((
                start,
                std::mem::replace(facts, FactsList::with_capacity(room)),
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

    /// What the waiter publishes itself (given up, or probed inline),
    /// counted.
    fn publish_given_up(&self, segment: &Segment, items: Range<usize>, facts: FactsList) {
        let n = items.len();
        lock(&segment.results).push((items.start, facts));
        self.done.fetch_add(n, Ordering::AcqRel);
    }

    /// The next chunk for a worker, waiting while entries may still be
    /// added; `None` once none is left.
    fn take_chunk(&self) -> Option<Arc<Flight>> {
        let mut state = lock(&self.state);
        loop {
            if let Some(flight) = self.chunk_of(&mut state) {
                return Some(flight);
            }
            if state.sealed {
                state.workers -= 1;
                return None;
            }
            state.idle += 1;
            state = (self.more.wait(state)).unwrap_or_else(|e| e.into_inner());
            state.idle -= 1;
        }
    }

    /// The next chunk, if an entry waits for a worker.
    fn chunk_of(&self, state: &mut State) -> Option<Arc<Flight>> {
        let Pending { segment, items } = state.ranges.pop_front()?;
        let end = items.end.min(items.start + self.shape.chunk);
        if end < items.end {
            let rest = Pending {
                segment: Arc::clone(&segment),
                items: end..items.end,
            };
            state.ranges.push_front(rest);
        }
        let flight = Arc::new(Flight {
            item: AtomicUsize::new(items.start),
            since: AtomicU64::new(self.stamp()),
            answered: AtomicU64::new(0),
            answered_item: AtomicUsize::new(usize::MAX),
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

    fn prober(&self, lookup: Lookup) -> Prober<'_> {
        Prober {
            plan: &self.plan,
            xattrs: &self.xattrs,
            dir: InDir {
                fd: self.dir.as_fd(),
                path: &self.path,
            },
            lookup,
        }
    }

    /// A worker: takes chunks of entries in order until none is left or
    /// its probe in flight was given up.
    pub(super) fn work(&self) {
        self.work_then(&mut || {});
    }

    /// [`Probes::work`], calling `then` after each chunk.
    fn work_then(&self, then: &mut dyn FnMut()) {
        // Paced, once the device is slow (past the inline probes, or a
        // watched worker joining then): by handle, where each name lookup
        // waits on a server.
        let by_handle = self.paced_slow() && self.shape.workers > 1;
        let lookup = if by_handle {
            Lookup::ByHandle
        } else {
            Lookup::ByName
        };
        let prober = self.prober(lookup);
        while let Some(flight) = self.take_chunk() {
            if self.shape.watched {
                self.probe_watched(&prober, &flight);
            } else {
                self.probe_chunk(&prober, &flight);
            }
            if !self.retire(&flight) {
                return;
            }
            then();
        }
    }

    /// Whether the device paces the probes and is slow lately.
    fn paced_slow(&self) -> bool {
        self.shape.pace.as_ref().is_some_and(|pace| pace.is_slow())
    }

    /// Probes a chunk with no deadline: each entry timed only when the
    /// device paces the probes.
    fn probe_chunk(&self, prober: &Prober<'_>, flight: &Flight) {
        let first = flight.item.load(Ordering::Relaxed);
        let mut facts = FactsList::with_capacity(flight.end - first);
        for item in first..flight.end {
            let (name, file_type) = flight.segment.name(item);
            let pace = self.shape.pace.as_deref();
            facts.push(paced(pace, || prober.probe(name, file_type)));
        }
        Probes::publish(flight, &mut facts);
    }

    /// Probes a chunk under a deadline, saying which entry (and which
    /// request of it) is in flight since when, publishing every
    /// [`WATCHED_PUBLISH`] entries, until done or given up.
    fn probe_watched(&self, prober: &Prober<'_>, flight: &Flight) {
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
                flight.since.store(self.stamp(), Ordering::Release);
            };
            let pace = self.shape.pace.as_deref();
            facts.push(paced(pace, || prober.probe_staged(name, file_type, &stage)));
            answered = self.stamp();
            flight.answer(item, answered);
            if facts.len() == WATCHED_PUBLISH && !Probes::publish(flight, &mut facts) {
                break;
            }
        }
        Probes::publish(flight, &mut facts);
        self.last_answer.fetch_max(answered, Ordering::Relaxed);
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

    /// Starts a watched worker; false when no thread could take it.
    fn start_worker(self: &Arc<Self>, state: &mut State) -> bool {
        let worker = Arc::clone(self);
        let started = parallel::spawn_watched(move || worker.work());
        if started {
            state.workers += 1;
        }
        started
    }

    /// Hands the facts published so far to `record`, in entry order, as
    /// far as every entry before them was published (by whoever waits).
    pub(super) fn hand_over(&self, record: &mut impl FnMut(Facts)) {
        let mut order = lock(&self.order);
        order.learn(lock(&self.state).segments.drain(..));
        order.drain(record);
    }

    /// Waits for the probes (sealing them first: the caller has every
    /// entry) and hands each entry's facts to `record`, in entry order.
    /// With no `deadline` the caller probes as one of the workers and
    /// waits for every entry; with one, it makes no request itself, and
    /// gives up a request that waited the limit (`deadline`).
    pub(super) fn run(self: &Arc<Self>, deadline: Option<Duration>, mut record: impl FnMut(Facts)) {
        // Watched workers are the shape of probes waited for with a limit.
        debug_assert_eq!(deadline.is_some(), self.shape.watched);
        match deadline {
            Some(limit) => self.run_watched(limit, &mut record),
            None => self.run_blocking(&mut record),
        }
    }

    fn run_blocking(self: &Arc<Self>, record: &mut impl FnMut(Facts)) {
        let n = self.seal();
        if let Some(pace) = &self.shape.pace {
            self.probe_inline(pace);
        }
        let mut state = lock(&self.state);
        if state.loans.is_empty() {
            let left: usize = state.ranges.iter().map(|r| r.items.len()).sum();
            let chunks = left.div_ceil(self.shape.chunk);
            drop(state);
            self.help((self.shape.workers - 1).min(chunks.saturating_sub(1)));
            state = lock(&self.state);
        }
        state.workers += 1;
        drop(state);
        self.work_then(&mut || self.hand_over(record));
        // Every entry is taken: what no pool thread started is not needed.
        let loans = std::mem::take(&mut lock(&self.state).loans);
        for loan in loans {
            parallel::withdraw(loan);
        }
        let mut state = lock(&self.state);
        while self.done(&state) < n {
            state.waiting = true;
            state = (self.changed.wait(state)).unwrap_or_else(|e| e.into_inner());
            state.waiting = false;
        }
        drop(state);
        self.hand_over(record);
        lock(&self.order).finish(n, record);
    }

    /// Paced: the caller probes the first entries by name, one at a time
    /// and timed, while the device answers fast (from its cache), before
    /// any worker joins.
    fn probe_inline(&self, pace: &Pace) {
        let Some(Pending { segment, items }) = lock(&self.state).ranges.pop_front() else {
            return;
        };
        let prober = self.prober(Lookup::ByName);
        let mut facts = FactsList::default();
        let mut item = items.start;
        while item < items.end && !pace.is_slow() {
            let (name, file_type) = segment.name(item);
            facts.push(paced(Some(pace), || prober.probe(name, file_type)));
            item += 1;
        }
        if item > items.start {
            self.publish_given_up(&segment, items.start..item, facts);
        }
        if item < items.end {
            let rest = Pending {
                segment,
                items: item..items.end,
            };
            lock(&self.state).ranges.push_front(rest);
        }
    }
}

/// What `probe` learns, its time taught to `pace` where the device
/// paces the probes.
fn paced(pace: Option<&Pace>, probe: impl FnOnce() -> Facts) -> Facts {
    let Some(pace) = pace else {
        return probe();
    };
    let started = Instant::now();
    let facts = probe();
    pace.observe(started.elapsed());
    facts
}

#[cfg(test)]
mod tests;
