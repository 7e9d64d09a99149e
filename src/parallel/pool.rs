//! The run's one pool of probe threads. It starts empty, grows a thread at
//! a time while lent work waits and no thread is idle (up to the size
//! `parallel` sets), and its threads serve every directory until the
//! process exits: a tree of many small directories on a network
//! filesystem starts a few threads, not a pool per directory.
//!
//! Work is lent, not handed over: whoever lends a task also runs it on its
//! own thread and waits for what it started itself, so a task copy that no
//! thread took in time is simply withdrawn, and nothing depends on the
//! pool for progress.
#![forbid(unsafe_code)]

use std::collections::VecDeque;
use std::sync::{Arc, Condvar, Mutex, MutexGuard, OnceLock};
use std::thread::Builder;

/// A task a pool thread runs; the same task may run on several threads at
/// once (it shares its work out itself).
pub type Task = Arc<dyn Fn() + Send + Sync>;

use super::tuning::PROBE_STACK;

#[derive(Default)]
struct State {
    queue: VecDeque<(u64, Task)>,
    idle: usize,
    threads: usize,
    limit: usize,
    next_id: u64,
}

#[derive(Default)]
pub struct Pool {
    state: Mutex<State>,
    work: Condvar,
}

/// The process's pool.
pub fn pool() -> &'static Pool {
    static POOL: OnceLock<Pool> = OnceLock::new();
    POOL.get_or_init(Pool::default)
}

impl Pool {
    fn lock(&self) -> MutexGuard<'_, State> {
        super::lock(&self.state)
    }

    /// Sets how many threads the pool may have in all (threads already
    /// started stay).
    pub fn set_limit(&self, limit: usize) {
        self.lock().limit = limit;
    }

    /// Threads started so far.
    #[cfg(test)]
    fn threads(&self) -> usize {
        self.lock().threads
    }

    /// Queues `copies` runs of `task` for the pool's threads, starting
    /// threads while none is idle for them and the limit allows. Returns
    /// the loan's id, for [`Pool::withdraw`].
    pub fn lend(&'static self, task: Task, copies: usize) -> u64 {
        let mut state = self.lock();
        let id = state.next_id;
        state.next_id += 1;
        for _ in 0..copies {
            state.queue.push_back((id, Arc::clone(&task)));
        }
        let waiting = state.queue.len();
        let wanted = waiting.saturating_sub(state.idle);
        let start = wanted.min(state.limit.saturating_sub(state.threads));
        state.threads += start;
        let wake = state.idle > 0;
        drop(state);
        if wake {
            self.work.notify_all();
        }
        for _ in 0..start {
            let spawned = Builder::new()
                .stack_size(PROBE_STACK)
                .spawn(move || self.serve());
            if spawned.is_err() {
                self.lock().threads -= 1;
            }
        }
        id
    }

    /// Takes back the copies of loan `id` that no thread started.
    pub fn withdraw(&self, id: u64) {
        self.lock().queue.retain(|(i, _)| *i != id);
    }

    fn serve(&self) {
        loop {
            let task = {
                let mut state = self.lock();
                loop {
                    if let Some((_, task)) = state.queue.pop_front() {
                        break task;
                    }
                    state.idle += 1;
                    state = self.work.wait(state).unwrap_or_else(|e| e.into_inner());
                    state.idle -= 1;
                }
            };
            task();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};

    #[test]
    fn lent_work_runs_on_at_most_the_limit_of_threads_and_can_be_withdrawn() {
        let pool: &'static Pool = Box::leak(Box::default());
        pool.set_limit(2);
        let runs = Arc::new(AtomicUsize::new(0));
        let counted = Arc::clone(&runs);
        let task: Task = Arc::new(move || {
            counted.fetch_add(1, Ordering::SeqCst);
        });
        let id = pool.lend(task, 5);
        assert!(pool.threads() <= 2);
        // Every copy runs or is withdrawn; none runs after the withdrawal
        // returns that had not started.
        pool.withdraw(id);
        let after = runs.load(Ordering::SeqCst);
        assert!(after <= 5);
        assert!(pool.lock().queue.is_empty());
    }
}
