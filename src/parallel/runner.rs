//! The one way threads are run: a runner keeps threads that take queued
//! tasks, starts one while tasks wait and none is idle (as far as its
//! limit allows), and keeps them for the rest of the run. The process has
//! two: the probe pool (a limit `parallel` sets; work is lent, so a copy
//! no thread took is withdrawn and the lender does it) and the watched
//! runner of `--timeout` (a thread for every request at once; a thread
//! whose request was given up is left stuck, and past
//! [`MAX_STUCK`](super::tuning::MAX_STUCK) nothing more is sent).
#![forbid(unsafe_code)]

use std::collections::VecDeque;
use std::sync::{Condvar, Mutex, MutexGuard, OnceLock};
use std::thread::Builder;
use std::time::{Duration, Instant};

use super::tuning::{MAX_STUCK, PROBE_STACK, WATCHED_STACK};

/// What a runner's thread runs.
pub type Task = Box<dyn FnOnce() + Send>;

#[derive(Default)]
struct Threads {
    /// Tasks waiting for a thread, each with the id of its loan.
    queue: VecDeque<(u64, Task)>,
    next_id: u64,
    idle: usize,
    /// Threads started, stuck or not.
    started: usize,
    /// Threads whose request was given up (not known to have returned).
    stuck: usize,
    /// Threads not stuck, at most.
    limit: usize,
    /// How long a thread out of work looks for more before it sleeps.
    idle_spin: Duration,
    /// Idle threads looking for work (counted in `idle` too), and how many
    /// may at once.
    spinning: usize,
    spinners: usize,
}

pub struct Runner {
    threads: Mutex<Threads>,
    work: Condvar,
    stack: usize,
    /// Stuck threads past which nothing more is run.
    max_stuck: usize,
}

/// The run's probe pool: starts with no thread and a limit of none.
pub fn pool() -> &'static Runner {
    static POOL: OnceLock<Runner> = OnceLock::new();
    POOL.get_or_init(|| Runner::new(PROBE_STACK, 0, usize::MAX))
}

/// The watched runner (`--timeout`): a thread for every task at once.
pub fn watched() -> &'static Runner {
    static WATCHED: OnceLock<Runner> = OnceLock::new();
    WATCHED.get_or_init(|| Runner::new(WATCHED_STACK, usize::MAX, MAX_STUCK))
}

impl Runner {
    fn new(stack: usize, limit: usize, max_stuck: usize) -> Runner {
        Runner {
            threads: Mutex::new(Threads {
                limit,
                ..Threads::default()
            }),
            work: Condvar::new(),
            stack,
            max_stuck,
        }
    }

    fn lock(&self) -> MutexGuard<'_, Threads> {
        super::lock(&self.threads)
    }

    /// Sets how many threads (not stuck) the runner may have (threads
    /// already started stay).
    pub fn set_limit(&self, limit: usize) {
        self.lock().limit = limit;
    }

    /// Queues `tasks` as one loan, starting threads while none is idle for
    /// them and the limit allows; returns the loan's id, for
    /// [`Runner::withdraw`]. A task no thread takes waits.
    pub fn lend(&'static self, tasks: Vec<Task>) -> u64 {
        let mut threads = self.lock();
        let id = threads.next_id;
        threads.next_id += 1;
        threads.queue.extend(tasks.into_iter().map(|t| (id, t)));
        let wanted = threads.queue.len().saturating_sub(threads.idle);
        let live = threads.started - threads.stuck;
        let start = wanted.min(threads.limit.saturating_sub(live));
        threads.started += start;
        let wake = threads.idle > 0;
        drop(threads);
        if wake {
            self.work.notify_all();
        }
        for _ in 0..start {
            self.start_serving();
        }
        id
    }

    /// Has threads out of work look for more for `spin` (yielding the CPU
    /// meanwhile) before they sleep, `spinners` threads at a time.
    pub fn spin_while_idle(&self, spin: Duration, spinners: usize) {
        let mut threads = self.lock();
        threads.idle_spin = spin;
        threads.spinners = spinners;
    }

    /// Starts a thread that serves the queue, counted in `started` by the
    /// caller beforehand; whether it started (if not, the count is taken
    /// back).
    fn start_serving(&'static self) -> bool {
        let started = self.spawn(Box::new(move || self.serve())).is_ok();
        if !started {
            self.lock().started -= 1;
        }
        started
    }

    /// Starts `n` threads more (as far as the limit allows), idle until
    /// tasks come.
    pub fn prestart(&'static self, n: usize) {
        if !super::threads_allowed() {
            return;
        }
        for _ in 0..n {
            let mut threads = self.lock();
            if threads.started - threads.stuck >= threads.limit {
                return;
            }
            threads.started += 1;
            drop(threads);
            if !self.start_serving() {
                return;
            }
        }
    }

    /// Takes back the tasks of loan `id` that no thread started; whether
    /// any was.
    pub fn withdraw(&self, id: u64) -> bool {
        let mut threads = self.lock();
        let before = threads.queue.len();
        threads.queue.retain(|(i, _)| *i != id);
        threads.queue.len() < before
    }

    /// Runs `task` on an idle thread or a new one; false (the task
    /// dropped) when none can run it: too many stuck, or no thread could
    /// start.
    pub fn run(&'static self, task: Task) -> bool {
        self.run_spawning(task, |serve| self.spawn(serve))
    }

    fn spawn(&self, serve: Task) -> std::io::Result<()> {
        Builder::new().stack_size(self.stack).spawn(serve).map(drop)
    }

    /// [`Runner::run`], starting a thread with `spawn` where one is needed.
    fn run_spawning(
        &'static self,
        task: Task,
        spawn: impl FnOnce(Task) -> std::io::Result<()>,
    ) -> bool {
        let mut threads = self.lock();
        let id = threads.next_id;
        threads.next_id += 1;
        let covered = threads.idle > threads.queue.len();
        if !covered && (threads.stuck >= self.max_stuck || !super::threads_allowed()) {
            return false;
        }
        threads.queue.push_back((id, task));
        if covered {
            // A thread looking for work takes it without a wake-up.
            let asleep = threads.queue.len() > threads.spinning;
            drop(threads);
            if asleep {
                self.work.notify_one();
            }
            return true;
        }
        threads.started += 1;
        drop(threads);
        if spawn(Box::new(move || self.serve())).is_ok() {
            return true;
        }
        self.lock().started -= 1;
        // Other callers may have queued tasks meanwhile, and a thread may
        // have taken this one: this task alone is taken back, if queued.
        !self.withdraw(id)
    }

    /// A thread's request was given up (`true`: it is left stuck), or it
    /// came back from one (`false`).
    pub fn stuck(&self, stuck: bool) {
        let mut threads = self.lock();
        if stuck {
            threads.stuck += 1;
        } else {
            threads.stuck = threads.stuck.saturating_sub(1);
        }
    }

    fn serve(&self) {
        loop {
            let task = {
                let mut threads = self.lock();
                // Only where threads look for work (no clock read per task
                // otherwise).
                let spin_until = (threads.spinners > 0).then(|| Instant::now() + threads.idle_spin);
                loop {
                    if let Some((_, task)) = threads.queue.pop_front() {
                        break task;
                    }
                    threads.idle += 1;
                    let looking = spin_until.is_some_and(|until| Instant::now() < until);
                    if threads.spinning < threads.spinners && looking {
                        threads.spinning += 1;
                        drop(threads);
                        std::thread::yield_now();
                        threads = self.lock();
                        threads.spinning -= 1;
                    } else {
                        threads = self.work.wait(threads).unwrap_or_else(|e| e.into_inner());
                    }
                    threads.idle -= 1;
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
    use std::sync::Arc;

    fn leaked(limit: usize, max_stuck: usize) -> &'static Runner {
        Box::leak(Box::new(Runner::new(PROBE_STACK, limit, max_stuck)))
    }

    #[test]
    fn lent_work_runs_on_at_most_the_limit_of_threads_and_can_be_withdrawn() {
        let pool = leaked(2, usize::MAX);
        let runs = Arc::new(AtomicUsize::new(0));
        let tasks = (0..5)
            .map(|_| {
                let counted = Arc::clone(&runs);
                Box::new(move || {
                    counted.fetch_add(1, Ordering::SeqCst);
                }) as Task
            })
            .collect();
        let id = pool.lend(tasks);
        assert!(pool.lock().started <= 2);
        // Every copy runs or is withdrawn; none runs after the withdrawal
        // returns that had not started.
        pool.withdraw(id);
        assert!(runs.load(Ordering::SeqCst) <= 5);
        assert!(pool.lock().queue.is_empty());
    }

    /// A thread that fails to start takes back its own task, never one that
    /// another caller queued meanwhile (which would then never run, and
    /// its waiter would read it as ended).
    #[test]
    fn a_failed_spawn_takes_back_its_own_task_alone() {
        let runner = leaked(usize::MAX, MAX_STUCK);
        let others_ran = Arc::new(Mutex::new(false));
        let flag = Arc::clone(&others_ran);
        let started = runner.run_spawning(Box::new(|| ()), |_serve| {
            let mut threads = runner.lock();
            let id = threads.next_id;
            threads.next_id += 1;
            let task: Task = Box::new(move || *super::super::lock(&flag) = true);
            threads.queue.push_back((id, task));
            Err(std::io::Error::from_raw_os_error(eagain()))
        });
        assert!(
            !started,
            "the task whose thread failed to start did not run"
        );
        let mut threads = runner.lock();
        assert_eq!(threads.started, 0);
        assert_eq!(
            threads.queue.len(),
            1,
            "the other caller's task is still queued"
        );
        let other = threads.queue.pop_front().map(|(_, task)| task);
        drop(threads);
        if let Some(task) = other {
            task();
        }
        assert!(*super::super::lock(&others_ran));
    }

    #[test]
    fn past_the_stuck_threads_allowed_nothing_more_is_run() {
        let runner = leaked(usize::MAX, 2);
        runner.stuck(true);
        runner.stuck(true);
        assert!(!runner.run(Box::new(|| ())));
        runner.stuck(false);
        assert!(runner.run(Box::new(|| ())));
    }

    /// Waits (up to 10 s) until `n` threads are idle.
    fn until_idle(runner: &Runner, n: usize) {
        let give_up = Instant::now() + Duration::from_secs(10);
        while runner.lock().idle < n {
            assert!(Instant::now() < give_up, "the runner's thread went idle");
            std::thread::sleep(Duration::from_millis(1));
        }
    }

    /// Runs a task on `runner` and waits (up to 10 s) for it to have run.
    fn run_and_wait(runner: &'static Runner) {
        let (ran, done) = std::sync::mpsc::channel();
        assert!(runner.run(Box::new(move || ran.send(()).unwrap_or(()))));
        done.recv_timeout(Duration::from_secs(10))
            .expect("the task ran");
    }

    #[test]
    fn a_thread_looking_for_work_takes_the_next_task_and_none_more_starts() {
        let runner = leaked(usize::MAX, MAX_STUCK);
        runner.spin_while_idle(Duration::from_secs(5), 1);
        run_and_wait(runner);
        for _ in 0..20 {
            until_idle(runner, 1);
            run_and_wait(runner);
        }
        assert_eq!(runner.lock().started, 1);
    }

    #[test]
    fn a_thread_that_looked_for_work_in_vain_sleeps_and_is_woken() {
        let runner = leaked(usize::MAX, MAX_STUCK);
        runner.spin_while_idle(Duration::from_millis(1), 1);
        run_and_wait(runner);
        until_idle(runner, 1);
        // Long past its looking: asleep on the condition variable.
        std::thread::sleep(Duration::from_millis(50));
        assert_eq!(runner.lock().spinning, 0);
        run_and_wait(runner);
        assert_eq!(runner.lock().started, 1);
    }

    fn eagain() -> i32 {
        rustix::io::Errno::AGAIN.raw_os_error()
    }
}
