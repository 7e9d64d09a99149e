//! `--timeout`: the waiter of a directory's probes under a deadline. It
//! records the facts in order as they come, gives up a request that has
//! waited the limit (what its worker probed since it last published is
//! probed again), hands the rest of that worker's chunk to a new one,
//! brings more workers in when every probe in flight is slow, and gives
//! up the directory's unsent probes when one is given up and none of the
//! directory answered while it waited (a dead mount costs one limit, not
//! one per entry).
#![forbid(unsafe_code)]

use std::ops::Range;
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::Duration;

use super::{Pending, Probes, State};
use crate::parallel::tuning::{watched_grow_after, MAX_PROBE_THREADS, WATCHED_WAKE_EVERY};
use crate::parallel::{self, lock};
use crate::walk::handover::stat_failed;
use crate::walk::probe::{Facts, FactsList};

impl Probes {
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

    /// Workers the probes should have now: the shape's, or one while
    /// the device that paces them answers from its cache.
    fn workers_wanted(&self) -> usize {
        match &self.shape.pace {
            Some(pace) if !pace.is_slow() => 1,
            _ => self.shape.workers,
        }
    }

    /// [`Probes::run`] with a deadline: waits for the probes (sealing
    /// them first: the caller has every entry), workers joining while
    /// entries are left (up to the shape's, once a device that paces
    /// them is slow), giving up requests that wait `limit`; hands each
    /// entry's facts to `record`, in entry order.
    pub(super) fn run_watched(self: &Arc<Self>, limit: Duration, record: &mut impl FnMut(Facts)) {
        let n = self.seal();
        let nanos = |d: Duration| u64::try_from(d.as_nanos()).unwrap_or(u64::MAX);
        let (grow, limit_ns) = (nanos(watched_grow_after(limit)), nanos(limit));
        let mut state = lock(&self.state);
        while state.workers < self.workers_wanted() && !state.ranges.is_empty() {
            if !self.start_worker(&mut state) {
                break;
            }
        }
        while self.done(&state) < n {
            // Nanoseconds after the probes' start, as the workers stamp.
            let now = self.elapsed();
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
                if since.saturating_add(limit_ns) > now {
                    live.push(since);
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
            let all_slow = live.iter().all(|&s| s.saturating_add(grow) <= now);
            // Every probe in flight slow: twice the workers, so that the
            // entries behind them go on (and answer, if they can).
            let room = MAX_PROBE_THREADS.saturating_sub(state.workers).min(left);
            let want = if all_slow {
                state.workers.max(1).max(replace).min(room)
            } else {
                replace.min(left)
            };
            // The device turned slow: the workers it is paced for.
            let want = want.max(
                self.workers_wanted()
                    .saturating_sub(state.workers)
                    .min(room),
            );
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
            let earliest = live.iter().min().unwrap_or(&now).saturating_add(limit_ns);
            // The newest probe in flight (or those of the workers just
            // started) turns slow at `newest`.
            let newest = match live.iter().max() {
                Some(&s) if started == 0 => s.saturating_add(grow),
                _ => now.saturating_add(grow),
            };
            let wake = if left > 0 && newest > now {
                earliest.min(newest)
            } else {
                earliest
            };
            let mut wait =
                Duration::from_nanos(wake.saturating_sub(now)).max(Duration::from_millis(1));
            // Probes answering: what they published is recorded meanwhile.
            if last_answer.saturating_add(5 * nanos(WATCHED_WAKE_EVERY)) >= now {
                wait = wait.min(WATCHED_WAKE_EVERY);
            }
            state.waiting = true;
            state = (self.changed.wait_timeout(state, wait))
                .unwrap_or_else(|e| e.into_inner())
                .0;
            state.waiting = false;
            drop(state);
            self.hand_over(record);
            state = lock(&self.state);
        }
        drop(state);
        self.hand_over(record);
        lock(&self.order).finish(n, record);
    }
}
