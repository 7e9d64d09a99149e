//! The read-ahead's chains: the jobs no thread has taken yet, the chains
//! that run them (a thread ending a job takes the waiting one listed
//! soonest, or goes on with that directory's first subdirectory), and the
//! results that wait for the walk, within the memory budget.
#![forbid(unsafe_code)]

use std::collections::{HashMap, HashSet};
use std::hash::{BuildHasherDefault, Hasher};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;

use super::super::job::{DirJob, DirTask, JobRun};
use crate::parallel::lock;
use crate::parallel::tuning::HELD_BYTES_MAX;

/// Job ids are handed out in sequence: one multiply spreads them over a
/// table (SipHash cost the walk a few hundred instructions per directory
/// under `--timeout`, where every directory is a job).
#[derive(Default)]
pub(super) struct IdHasher(u64);

impl Hasher for IdHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(self.0.rotate_left(8) ^ u64::from(b));
        }
    }

    fn write_u64(&mut self, id: u64) {
        self.0 = id.wrapping_mul(0x9e37_79b9_7f4a_7c15);
    }
}

/// Maps and sets keyed by job id.
pub(super) type IdMap<V> = HashMap<u64, V, BuildHasherDefault<IdHasher>>;
pub(super) type IdSet = HashSet<u64, BuildHasherDefault<IdHasher>>;

/// A job a chain took.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum OnChain {
    Running,
    /// The walk waits for it: its chain records its bytes (they count
    /// against the budget until the walk has them), and goes on with its
    /// first subdirectory, for the walk to adopt.
    Awaited,
    /// Not wanted, or the walk has it: its chain records nothing.
    Taken,
    /// The walk gave it up: its chain is left stuck in it, and ends when
    /// (if ever) it returns.
    GivenUp,
    /// No thread could start its chain: the walk reads it itself.
    Lost,
}

/// A job no thread has taken yet (`R`: how it runs).
pub(super) struct Waiting<R = JobRun> {
    pub(super) id: u64,
    /// Its directory's place on the walk's work stack: an item there
    /// keeps its place until listed, and the higher is listed sooner.
    pub(super) place: usize,
    pub(super) run: R,
}

/// Queues `job` after those listed sooner (`waiting` is in listing order,
/// the last first): a chain takes the directory the walk needs next, and
/// the read-ahead withdraws from the far end. Submitted later is not
/// listed later: a directory's subdirectories go before its siblings.
fn queue<R>(waiting: &mut Vec<Waiting<R>>, job: Waiting<R>) {
    let at = waiting.partition_point(|w| w.place <= job.place);
    waiting.insert(at, job);
}

/// The jobs no thread has taken, the chains running, and what waits.
#[derive(Default)]
pub(super) struct Chains {
    /// In the order the walk lists them: the last is the next to run.
    pub(super) waiting: Vec<Waiting>,
    /// Chains running, but for those left stuck in a job given up.
    pub(super) running: usize,
    pub(super) on_chains: IdMap<OnChain>,
    /// A job was given up and none has ended since: every job waiting
    /// starts at once.
    pub(super) hurry: bool,
    /// Jobs ended and not taken: the bytes each holds, and the walk's
    /// count of entries listed when it ended.
    pub(super) ended: IdMap<(usize, u64)>,
    pub(super) held: usize,
    pub(super) closed: bool,
    /// First subdirectories their parents' chains went on with (see
    /// [`DirTask::first_child`]), by the parent's id: the path, and the
    /// child's id and job, until the walk takes the parent.
    pub(super) adopted: IdMap<(Vec<u8>, u64, DirJob)>,
}

impl Chains {
    /// Queues job `id` for the directory at `place` on the walk's stack.
    pub(super) fn queue(&mut self, id: u64, place: usize, run: JobRun) {
        queue(&mut self.waiting, Waiting { id, place, run });
    }

    /// The next job waiting, begun, for a chain that may run it.
    pub(super) fn next(&mut self, at_once: usize) -> Option<(u64, JobRun)> {
        let busy = self.running >= at_once && !self.hurry;
        if self.closed || busy || self.held >= HELD_BYTES_MAX {
            return None;
        }
        let Waiting { id, run, .. } = self.waiting.pop()?;
        Some(self.begin(id, run))
    }

    /// Begins job `id` for a chain, under the lock: the walk that finds
    /// it no longer waiting may wait for it.
    pub(super) fn begin(&mut self, id: u64, run: JobRun) -> (u64, JobRun) {
        run.begin();
        self.on_chains.insert(id, OnChain::Running);
        (id, run)
    }

    pub(super) fn ended(&mut self, id: u64, bytes: usize, listed: u64) {
        self.held += bytes;
        self.ended.insert(id, (bytes, listed));
    }

    /// The job of `parent`'s first subdirectory, begun, for its chain to
    /// run next (within the memory budget); the walk takes it with its
    /// parent.
    pub(super) fn adopt(
        &mut self,
        parent: u64,
        child: u64,
        task: DirTask,
    ) -> Option<(u64, JobRun)> {
        if self.closed || self.held >= HELD_BYTES_MAX {
            return None;
        }
        let path = task.path.clone();
        let (job, run) = DirJob::later(task);
        self.adopted.insert(parent, (path, child, job));
        Some(self.begin(child, run))
    }

    /// Job `id` is not wanted any more: its result, if it ended, is
    /// dropped; if it runs, its chain records nothing of it.
    pub(super) fn forget(&mut self, id: u64) {
        if self.collect(id).is_none() && self.on_chains.get(&id) == Some(&OnChain::Running) {
            self.on_chains.insert(id, OnChain::Taken);
        }
    }

    /// Drops the first subdirectory adopted with job `parent`, if any.
    pub(super) fn forget_adopted(&mut self, parent: u64) {
        if let Some((_, child, _)) = self.adopted.remove(&parent) {
            self.forget(child);
            self.forget_adopted(child);
        }
    }

    /// Job `id` ended: the walk's count of entries listed then.
    pub(super) fn collect(&mut self, id: u64) -> Option<u64> {
        let (bytes, listed) = self.ended.remove(&id)?;
        self.held -= bytes;
        Some(listed)
    }
}

#[derive(Default)]
pub(super) struct Shared {
    pub(super) chains: Mutex<Chains>,
    /// The next job's id (the walk's and the chains' alike).
    pub(super) next_id: AtomicU64,
    /// Entries the walk has listed so far (the measure of work between a
    /// directory's reading ahead and its listing).
    pub(super) listed: AtomicU64,
}

/// A chain: runs `first`, then the jobs waiting, until none is (or its
/// job is given up: it is left to it).
pub(super) fn chain(shared: &Shared, at_once: usize, (mut id, mut run): (u64, JobRun)) {
    loop {
        let (bytes, child) = run.run();
        let listed = shared.listed.load(Ordering::Relaxed);
        let mut chains = lock(&shared.chains);
        let child = match chains.on_chains.remove(&id) {
            Some(OnChain::GivenUp) => return,
            Some(OnChain::Running | OnChain::Awaited) => {
                chains.ended(id, bytes, listed);
                child
            }
            // Taken: the walk lists it now, and reads its child itself.
            _ => None,
        };
        chains.hurry = false;
        if let Some(task) = child {
            let child_id = shared.next_id.fetch_add(1, Ordering::Relaxed);
            if let Some(next) = chains.adopt(id, child_id, task) {
                (id, run) = next;
                continue;
            }
        }
        // Chains past the limit (started in a hurry) end.
        match chains.next(at_once + 1) {
            Some(next) => (id, run) = next,
            None => {
                chains.running -= 1;
                return;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{queue, Waiting};

    fn next_ids(places: &[(u64, usize)]) -> Vec<u64> {
        let mut waiting = Vec::new();
        for &(id, place) in places {
            queue(&mut waiting, Waiting { id, place, run: () });
        }
        waiting.iter().rev().map(|w| w.id).collect()
    }

    #[test]
    fn the_directory_listed_next_runs_first_whenever_it_was_submitted() {
        // Siblings at places 9, 8, 7 submitted first, then 6 and 5 deeper
        // on the stack: submitted later, listed later.
        assert_eq!(
            next_ids(&[(1, 9), (2, 8), (3, 7), (4, 6), (5, 5)]),
            [1, 2, 3, 4, 5]
        );
        assert_eq!(
            next_ids(&[(4, 6), (5, 5), (1, 9), (2, 8), (3, 7)]),
            [1, 2, 3, 4, 5]
        );
    }

    #[test]
    fn a_directory_s_subdirectories_run_before_its_siblings() {
        // Siblings 7 and 6 wait; the walk lists place 8 and pushes its
        // subdirectories on top (places 8 and 9).
        assert_eq!(next_ids(&[(1, 7), (2, 6), (3, 9), (4, 8)]), [3, 4, 1, 2]);
    }
}
