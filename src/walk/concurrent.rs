//! Probing a directory's entries as [`parallel::probe_strategy`] says: one
//! after another; split over the CPUs (a large local directory); or paced
//! by the device, inline while its answers come from a cache and, as soon
//! as they wait on a server, with many requests in flight on the run's
//! probe pool. Facts come back to the caller in entry order whichever way
//! was taken, so what is printed and reported does not depend on timing.
#![forbid(unsafe_code)]

use std::ffi::{CStr, CString};
use std::os::fd::{AsFd, OwnedFd};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Condvar, Mutex};
use std::time::Instant;

use super::probe::{Facts, Prober, Problems};
use crate::entry::Entry;
use crate::parallel::{self, Lookup, Pace, Strategy};
use crate::plan::Plan;
use crate::sys::xattr::{AclProbe, InDir};
use crate::sys::FileType;

/// Entries to probe, by index, and where their facts go (called in index
/// order, each index once).
pub trait Probed {
    fn len(&self) -> usize;
    fn name(&self, i: usize) -> (&CStr, FileType);
    fn record(&mut self, i: usize, facts: Facts);
}

/// The walk's entries, completed in place; what went wrong is kept,
/// indexed, for the walk to report in directory order.
pub struct InPlace<'e> {
    pub entries: &'e mut [Entry],
    pub problems: Vec<(usize, Problems)>,
}

impl Probed for InPlace<'_> {
    fn len(&self) -> usize {
        self.entries.len()
    }

    fn name(&self, i: usize) -> (&CStr, FileType) {
        (&self.entries[i].name, self.entries[i].file_type)
    }

    fn record(&mut self, i: usize, facts: Facts) {
        let problems = facts.record_into(&mut self.entries[i]);
        if !problems.is_empty() {
            self.problems.push((i, problems));
        }
    }
}

/// What every probe of a directory shares.
pub struct Probing<'a> {
    pub plan: &'a Arc<Plan>,
    pub xattrs: &'a Arc<AclProbe>,
    pub dir: InDir<'a>,
}

impl Probing<'_> {
    fn prober(&self, lookup: Lookup) -> Prober<'_> {
        Prober {
            plan: self.plan,
            xattrs: self.xattrs,
            dir: self.dir,
            lookup,
        }
    }
}

/// Probes every entry of `items` as `strategy` says, recording each
/// entry's facts in order.
pub fn probe_each(probing: &Probing<'_>, items: &mut impl Probed, strategy: &Strategy) {
    let n = items.len();
    let (from, lookup, helpers, chunk, pace) = match strategy {
        Strategy::Sequential => (0, Lookup::ByName, 0, 1, None),
        Strategy::Split { helpers, chunk } => (0, Lookup::ByName, *helpers, *chunk, None),
        Strategy::Paced { pace, helpers } => {
            // Inline, timed, while the device answers fast.
            let prober = probing.prober(Lookup::ByName);
            let mut i = 0;
            while i < n && !pace.is_slow() {
                let (name, file_type) = items.name(i);
                let started = Instant::now();
                let facts = prober.probe(name, file_type);
                pace.observe(started.elapsed());
                items.record(i, facts);
                i += 1;
            }
            (i, Lookup::ByHandle, *helpers, 1, Some(Arc::clone(pace)))
        }
    };
    let helpers = helpers.min((n - from).div_ceil(chunk).saturating_sub(1));
    let dir = (helpers > 0)
        .then(|| probing.dir.fd.try_clone_to_owned().ok())
        .flatten();
    let Some(dir) = dir else {
        // One at a time on this thread (also when no descriptor is left
        // to share the directory with the pool).
        let prober = probing.prober(Lookup::ByName);
        for i in from..n {
            let (name, file_type) = items.name(i);
            let facts = prober.probe(name, file_type);
            items.record(i, facts);
        }
        return;
    };
    let batch = Arc::new(Batch {
        plan: Arc::clone(probing.plan),
        xattrs: Arc::clone(probing.xattrs),
        dir,
        path: probing.dir.path.to_vec(),
        lookup,
        names: (from..n)
            .map(|i| {
                let (name, t) = items.name(i);
                (name.to_owned(), t)
            })
            .collect(),
        chunk,
        pace,
        next: AtomicUsize::new(0),
        results: Mutex::new(Results::default()),
        all_done: Condvar::new(),
    });
    let shared = Arc::clone(&batch);
    let loan = parallel::lend(move || shared.work(), helpers);
    batch.work();
    parallel::withdraw(loan);
    for (k, facts) in batch.wait().into_iter().enumerate() {
        items.record(from + k, facts);
    }
}

#[derive(Default)]
struct Results {
    facts: Vec<Option<Facts>>,
    done: usize,
}

/// Entries probed by several threads at once, each taking the next
/// `chunk` of them; owns all it uses, as the pool's threads outlive the
/// directory.
struct Batch {
    plan: Arc<Plan>,
    xattrs: Arc<AclProbe>,
    dir: OwnedFd,
    path: Vec<u8>,
    lookup: Lookup,
    names: Vec<(CString, FileType)>,
    chunk: usize,
    pace: Option<Arc<Pace>>,
    next: AtomicUsize,
    results: Mutex<Results>,
    all_done: Condvar,
}

impl Batch {
    fn lock(&self) -> std::sync::MutexGuard<'_, Results> {
        parallel::lock(&self.results)
    }

    /// Probes chunks until none is left.
    fn work(&self) {
        let prober = Prober {
            plan: &self.plan,
            xattrs: &self.xattrs,
            dir: InDir {
                fd: self.dir.as_fd(),
                path: &self.path,
            },
            lookup: self.lookup,
        };
        let n = self.names.len();
        let mut mine = Vec::with_capacity(self.chunk);
        loop {
            let start = self.next.fetch_add(self.chunk, Ordering::Relaxed);
            if start >= n {
                return;
            }
            let end = (start + self.chunk).min(n);
            for (name, file_type) in &self.names[start..end] {
                let started = self.pace.as_ref().map(|_| Instant::now());
                mine.push(prober.probe(name, *file_type));
                if let (Some(pace), Some(started)) = (&self.pace, started) {
                    pace.observe(started.elapsed());
                }
            }
            let mut results = self.lock();
            if results.facts.is_empty() {
                results.facts.resize_with(n, || None);
            }
            for (slot, facts) in results.facts[start..end].iter_mut().zip(mine.drain(..)) {
                *slot = Some(facts);
            }
            results.done += end - start;
            if results.done == n {
                self.all_done.notify_all();
            }
        }
    }

    /// Waits for every entry's facts, and takes them in entry order.
    fn wait(&self) -> Vec<Facts> {
        let mut results = self.lock();
        while results.done < self.names.len() {
            results = self
                .all_done
                .wait(results)
                .unwrap_or_else(|e| e.into_inner());
        }
        std::mem::take(&mut results.facts)
            .into_iter()
            .map(Option::unwrap_or_default)
            .collect()
    }
}
