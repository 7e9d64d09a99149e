//! Requests that may never answer (`--timeout`): each runs on a thread of
//! its own, and whoever waits for it waits no longer than the limit past
//! the start of the request in flight, then gives it up. A thread stuck in
//! a request is left to it (its result is dropped if it ever returns) and
//! dies with the process; idle threads are reused (the watched
//! [`runner`](super::runner)), and at most
//! [`MAX_STUCK`](super::tuning::MAX_STUCK) are left stuck: past that,
//! nothing more is sent and every request is given up at once.
#![forbid(unsafe_code)]

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use super::runner::watched as runner;
use super::tuning::{IDLE_SPIN, WAIT_SPIN};

/// What the waiter and the job share under a lock: when the request in
/// flight started, whether it was given up.
#[derive(Debug)]
struct Beats {
    since: Instant,
    given_up: bool,
    /// The waiter sleeps on `ended` (a signal costs a system call even
    /// with nobody waiting).
    waiting: bool,
}

struct Shared {
    beats: Mutex<Beats>,
    ended: Condvar,
    /// Whether the job ended: set under the lock (a waiter about to sleep
    /// sees it or is woken), read without it by a waiter looking (a look
    /// under the lock held up every request the job made).
    ended_flag: AtomicBool,
}

impl Shared {
    fn lock(&self) -> MutexGuard<'_, Beats> {
        super::lock(&self.beats)
    }
}

/// The job's side: it says when each request starts, and the end of what
/// is watched when dropped (a job may go on with work watched otherwise).
pub struct Beat(Arc<Shared>);

impl Beat {
    /// A new request starts now: it has the whole limit again.
    pub fn request(&self) {
        self.0.lock().since = Instant::now();
    }
}

impl Drop for Beat {
    fn drop(&mut self) {
        let beats = self.0.lock();
        self.0.ended_flag.store(true, Ordering::Release);
        if beats.given_up {
            runner().stuck(false);
        }
        let waiting = beats.waiting;
        drop(beats);
        if waiting {
            self.0.ended.notify_all();
        }
    }
}

/// The waiter's side of a job.
pub struct Watched(Arc<Shared>);

/// Starts `job` on a thread of its own; None when no thread can take it
/// (the caller gives the request up at once).
fn watch(job: impl FnOnce(Beat) + Send + 'static) -> Option<Watched> {
    let (beat, watched) = watch_later();
    let started = runner().run(Box::new(move || job(beat)));
    started.then_some(watched)
}

/// A job's two sides, for a job that a thread of the caller's starts
/// later ([`spawn_watched`]): whoever starts it calls [`Beat::request`]
/// first, and nobody waits for it before that.
pub fn watch_later() -> (Beat, Watched) {
    let shared = Arc::new(Shared {
        beats: Mutex::new(Beats {
            since: Instant::now(),
            given_up: false,
            waiting: false,
        }),
        ended: Condvar::new(),
        ended_flag: AtomicBool::new(false),
    });
    (Beat(Arc::clone(&shared)), Watched(shared))
}

impl Watched {
    /// Waits until the job ends (true), or until its request in flight has
    /// waited `limit` (false: the job is given up, its thread left stuck).
    pub fn wait(&self, limit: Duration) -> bool {
        loop {
            if let Some(ended) = self.wait_until(Some(limit), None) {
                return ended;
            }
        }
    }

    /// Whether the job ended.
    pub fn ended(&self) -> bool {
        self.0.ended_flag.load(Ordering::Acquire)
    }

    /// Looks for the job's end for [`WAIT_SPIN`], yielding the CPU, before
    /// the caller sleeps on it.
    pub fn look_for_end(&self) {
        let until = Instant::now() + WAIT_SPIN;
        while !self.ended() && Instant::now() < until {
            std::thread::yield_now();
        }
    }

    /// [`Watched::wait`] with a deadline (`None`: however long the job
    /// takes, never given up), or `None` once `until` came first.
    pub fn wait_until(&self, limit: Option<Duration>, until: Option<Instant>) -> Option<bool> {
        let mut beats = self.0.lock();
        loop {
            if self.ended() {
                return Some(true);
            }
            let deadline = limit.map(|limit| beats.since + limit);
            let now = Instant::now();
            if deadline.is_some_and(|deadline| now >= deadline) {
                beats.given_up = true;
                runner().stuck(true);
                return Some(false);
            }
            if until.is_some_and(|until| now >= until) {
                return None;
            }
            let wake = match (until, deadline) {
                (Some(a), Some(b)) => Some(a.min(b)),
                (a, b) => a.or(b),
            };
            beats.waiting = true;
            beats = match wake {
                Some(wake) => {
                    (self.0.ended.wait_timeout(beats, wake - now))
                        .unwrap_or_else(|e| e.into_inner())
                        .0
                }
                None => (self.0.ended.wait(beats)).unwrap_or_else(|e| e.into_inner()),
            };
            beats.waiting = false;
        }
    }
}

/// Readies `n` idle watched threads now, for jobs that start soon (a
/// thread started beside the walk's first directory costs it nothing;
/// one started when the job is due, its start).
pub fn ready_watched_threads(n: usize) {
    runner().prestart(n);
}

/// Has up to `spinners` watched threads out of work look for more a
/// moment before they sleep (see [`IDLE_SPIN`]).
pub fn keep_watched_threads_awake(spinners: usize) {
    runner().spin_while_idle(IDLE_SPIN, spinners);
}

/// Runs `job` on a watched thread with no waiter of its own (a worker
/// whose requests its caller tracks); false when no thread can take it.
pub fn spawn_watched(job: impl FnOnce() + Send + 'static) -> bool {
    runner().run(Box::new(job))
}

/// A thread whose request its caller gave up is left stuck (`true`), or
/// came back from it (`false`): counted against
/// [`MAX_STUCK`](super::tuning::MAX_STUCK).
pub fn left_stuck(stuck: bool) {
    runner().stuck(stuck);
}

/// Runs one request on a watched thread and returns its result, or
/// ETIMEDOUT once it has waited `limit`.
pub fn timed<T: Send + 'static>(
    limit: Duration,
    request: impl FnOnce() -> std::io::Result<T> + Send + 'static,
) -> std::io::Result<T> {
    let mut results = timed_all(limit, vec![Box::new(request) as Request<T>]);
    results.pop().unwrap_or_else(|| Err(timed_out()))
}

/// Runs one request with the run's deadline: on a watched thread, given up
/// past it (ETIMEDOUT), when there is one; inline when there is none.
pub fn within<T: Send + 'static>(
    deadline: Option<Duration>,
    request: impl FnOnce() -> std::io::Result<T> + Send + 'static,
) -> std::io::Result<T> {
    match deadline {
        Some(limit) => timed(limit, request),
        None => request(),
    }
}

/// One request of [`timed_all`].
pub type Request<T> = Box<dyn FnOnce() -> std::io::Result<T> + Send>;

/// Runs the requests at once, each on a watched thread, and returns their
/// results in order: a request not answered `limit` after it started is
/// ETIMEDOUT. They are waited for together, so that requests to one dead
/// server cost one limit, not one each; [`super::tuning::WATCHED_AT_ONCE`] at a
/// time, and once none of those answered, the rest are given up unsent.
pub fn timed_all<T: Send + 'static>(
    limit: Duration,
    requests: Vec<Request<T>>,
) -> Vec<std::io::Result<T>> {
    let mut results = Vec::with_capacity(requests.len());
    let mut requests = requests.into_iter();
    let mut dead = false;
    while results.len() < results.capacity() {
        let window: Vec<_> = requests
            .by_ref()
            .take(super::tuning::WATCHED_AT_ONCE)
            .collect();
        if dead {
            results.extend(window.iter().map(|_| Err(timed_out())));
            continue;
        }
        let started: Vec<_> = window
            .into_iter()
            .map(|request| {
                let slot = Arc::new(Mutex::new(None));
                let theirs = Arc::clone(&slot);
                let watched = watch(move |_| {
                    let result = request();
                    *super::lock(&theirs) = Some(result);
                });
                (slot, watched)
            })
            .collect();
        let before = results.len();
        for (slot, watched) in started {
            let answered = watched.is_some_and(|w| w.wait(limit));
            let result = answered.then(|| super::lock(&slot).take()).flatten();
            results.push(result.unwrap_or_else(|| Err(timed_out())));
        }
        dead = results[before..].iter().all(|r| r.is_err());
    }
    results
}

/// How far a [`timed_each`] job got.
struct Progress<T> {
    answers: Vec<T>,
    /// The item whose request is in flight.
    in_flight: usize,
    /// Given up: the job stops at its next answer.
    abandoned: bool,
}

/// Makes `request` of each item in order on one watched thread, each given
/// the whole limit, and returns the answers in order: an item not answered
/// `limit` after its request started is ETIMEDOUT, and the items after it
/// go on from a fresh thread (one stuck item costs one limit).
pub fn timed_each<I, T>(
    limit: Duration,
    items: Vec<I>,
    request: impl Fn(&I) -> T + Send + Sync + 'static,
) -> Vec<std::io::Result<T>>
where
    I: Send + Sync + 'static,
    T: Send + 'static,
{
    let (items, request) = (Arc::new(items), Arc::new(request));
    let mut results = Vec::with_capacity(items.len());
    while results.len() < items.len() {
        let start = results.len();
        let progress = Arc::new(Mutex::new(Progress {
            answers: Vec::new(),
            in_flight: start,
            abandoned: false,
        }));
        let (beat, watched) = watch_later();
        let job = {
            let (items, request, progress) = (items.clone(), request.clone(), progress.clone());
            move || {
                for (i, item) in items.iter().enumerate().skip(start) {
                    beat.request();
                    super::lock(&progress).in_flight = i;
                    let answer = request(item);
                    let mut progress = super::lock(&progress);
                    if progress.abandoned {
                        return;
                    }
                    progress.answers.push(answer);
                }
                drop(beat);
            }
        };
        if !spawn_watched(job) {
            results.extend((start..items.len()).map(|_| Err(timed_out())));
            break;
        }
        let ended = watched.wait(limit);
        let mut progress = super::lock(&progress);
        progress.abandoned = !ended;
        results.extend(progress.answers.drain(..).map(Ok));
        // Given up: the item in flight, unless it answered meanwhile.
        if !ended && results.len() == progress.in_flight {
            results.push(Err(timed_out()));
        }
    }
    results
}

/// The error of a request given up: ETIMEDOUT.
pub fn timed_out() -> std::io::Error {
    std::io::Error::from_raw_os_error(rustix::io::Errno::TIMEDOUT.raw_os_error())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_request_that_answers_in_time_gives_its_result() {
        let r = timed(Duration::from_secs(5), || Ok(7));
        assert_eq!(r.unwrap(), 7);
    }

    #[test]
    fn a_request_that_does_not_answer_is_given_up_with_etimedout() {
        let started = Instant::now();
        let r: std::io::Result<()> = timed(Duration::from_millis(50), || {
            std::thread::sleep(Duration::from_secs(4));
            Ok(())
        });
        assert_eq!(r.unwrap_err().raw_os_error(), timed_out().raw_os_error());
        assert!(started.elapsed() < Duration::from_secs(3));
    }

    #[test]
    fn requests_waited_for_together_cost_one_limit_not_one_each() {
        let limit = Duration::from_millis(500);
        let started = Instant::now();
        let hung: Vec<Request<u32>> = (0u32..8)
            .map(|i| {
                Box::new(move || {
                    std::thread::sleep(Duration::from_secs(10));
                    Ok(i)
                }) as Request<u32>
            })
            .chain([Box::new(|| Ok(99u32)) as Request<u32>])
            .collect();
        let results = timed_all(limit, hung);
        assert_eq!(results.len(), 9);
        assert!(results[..8].iter().all(|r| r.is_err()));
        assert_eq!(*results[8].as_ref().unwrap(), 99);
        // Eight limits one after the other would be 4 s; together 0.5 s
        // (3 s of slack for a loaded machine, still short of 4 s).
        assert!(
            started.elapsed() < Duration::from_millis(3500),
            "{:?}",
            started.elapsed()
        );
    }

    #[test]
    fn once_a_whole_window_is_given_up_the_rest_are_not_sent() {
        use std::sync::atomic::{AtomicUsize, Ordering};
        static SENT: AtomicUsize = AtomicUsize::new(0);
        let started = Instant::now();
        let hung: Vec<Request<()>> = (0..3 * super::super::tuning::WATCHED_AT_ONCE)
            .map(|_| {
                Box::new(|| {
                    SENT.fetch_add(1, Ordering::SeqCst);
                    std::thread::sleep(Duration::from_secs(10));
                    Ok(())
                }) as Request<()>
            })
            .collect();
        let results = timed_all(Duration::from_millis(300), hung);
        assert!(results.iter().all(|r| r.is_err()));
        assert!(SENT.load(Ordering::SeqCst) <= super::super::tuning::WATCHED_AT_ONCE);
        // One limit, not three (3 s of slack for a loaded machine).
        assert!(
            started.elapsed() < Duration::from_millis(3300),
            "{:?}",
            started.elapsed()
        );
    }

    #[test]
    fn items_after_a_stuck_one_go_on_and_answer() {
        let started = Instant::now();
        let results = timed_each(
            Duration::from_millis(300),
            vec![1u64, 2, 30_000, 4],
            |&ms| {
                std::thread::sleep(Duration::from_millis(ms));
                ms
            },
        );
        let answers: Vec<_> = results.iter().map(|r| r.as_ref().ok().copied()).collect();
        assert_eq!(answers, [Some(1), Some(2), None, Some(4)]);
        // One limit for the stuck item (3 s of slack; it sleeps 30 s).
        assert!(
            started.elapsed() < Duration::from_secs(4),
            "{:?}",
            started.elapsed()
        );
    }

    #[test]
    fn each_request_of_a_job_has_the_whole_limit() {
        let limit = Duration::from_secs(2);
        let w = watch(move |beat: Beat| {
            for _ in 0..3 {
                beat.request();
                std::thread::sleep(Duration::from_millis(800));
            }
        })
        .unwrap();
        assert!(w.wait(limit), "three requests of 0.8 s, each within 2 s");
    }
}
