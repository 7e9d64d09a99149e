//! Whether the read-ahead runs beside the walk: the process's CPU time
//! against the wall time over each stretch of directories taken back
//! from it, judged by [`parallel::read_ahead_runs_beside`]; after two
//! stretches in a row judged not beside, the read-ahead rests for a
//! while, then is tried again (a scheduler may move its workers to
//! another CPU later on), the rest doubling with each rest in a row. Only
//! the measurement; the policy and its figures live in `parallel`.
#![forbid(unsafe_code)]

use std::time::{Duration, Instant};

use crate::parallel;
use crate::parallel::tuning::{READ_AHEAD_REST, READ_AHEAD_REST_DOUBLINGS, READ_AHEAD_TRIAL};
use crate::sys::limits::process_cpu_time;

#[derive(Default)]
pub struct Trial {
    /// When the stretch measured began, and the CPU time then.
    start: Option<(Instant, Duration)>,
    /// Directories taken back in this stretch.
    taken: usize,
    /// Directories still to be listed before the read-ahead is tried
    /// again (0: it is on).
    resting: usize,
    /// Rests in a row.
    failed: u32,
    /// The last stretch was judged not beside. One alone is not enough:
    /// the process's CPU time counts another thread's running time only
    /// from its last tick or switch, so a stretch of a few milliseconds
    /// beside can read as one CPU (`ls -R` of 400 x 500: 1.66, 2.07,
    /// 1.00, 1.25, 2.55, 0.99, 1.31 CPUs in turn).
    below: bool,
}

impl Trial {
    /// A directory was submitted: a stretch starts with the first.
    pub fn submitted(&mut self) {
        if self.start.is_none() {
            self.start = process_cpu_time().map(|cpu| (Instant::now(), cpu));
            self.taken = 0;
        }
    }

    /// A directory submitted was taken back (read ahead or not).
    pub fn taken(&mut self) {
        let Some((at, cpu)) = self.start else {
            return;
        };
        self.taken += 1;
        if self.taken < READ_AHEAD_TRIAL {
            return;
        }
        self.start = None;
        let used = process_cpu_time().map(|now| now.saturating_sub(cpu));
        let below = used.is_some_and(|u| !parallel::read_ahead_runs_beside(u, at.elapsed()));
        if below && self.below {
            self.resting = READ_AHEAD_REST << self.failed.min(READ_AHEAD_REST_DOUBLINGS);
            self.failed += 1;
            self.below = false;
        } else {
            self.below = below;
            if !below {
                self.failed = 0;
            }
        }
    }

    /// The walk listed a directory.
    pub fn listed(&mut self) {
        self.resting = self.resting.saturating_sub(1);
    }

    /// Whether the read-ahead runs beside the walk, so far as known (yes
    /// until judged, and where the CPU time cannot be read).
    pub fn beside(&self) -> bool {
        self.resting == 0
    }
}
