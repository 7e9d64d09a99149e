//! How fast each device answers, learned from the probes themselves: a
//! network filesystem answering from its cache (a warm NFS, CephFS or
//! sshfs mount) is probed inline, one entry after another, as GNU does;
//! one whose answers wait on a server is probed with many requests in
//! flight. The mount table only says where to time probes; the answers'
//! times decide, and keep deciding, so a mount that turns slow in the
//! middle of a listing is overlapped from then on.
#![forbid(unsafe_code)]

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::Duration;

use super::tuning::{FAST_RUN, SLOW_PROBE, SLOW_RUN};

/// Devices whose answers are slow lately (paces that learn).
static SLOW_DEVICES: AtomicUsize = AtomicUsize::new(0);

/// Whether any device's answers were timed yet.
static TIMED: AtomicBool = AtomicBool::new(false);

/// Whether the network filesystems of the run are ones whose answers
/// wait on a server: none was timed yet (nothing is known: assume so), or
/// one is slow lately. `false` once every one timed answers from its
/// cache, as a warm mount does.
pub fn remote_answers_wait() -> bool {
    !TIMED.load(Ordering::Relaxed) || SLOW_DEVICES.load(Ordering::Relaxed) > 0
}

/// One device's pace.
#[derive(Debug, Default)]
pub struct Pace {
    slow: AtomicBool,
    /// Answers in a row that disagree with `slow`.
    run: AtomicU32,
    /// Never learns: always slow (`STATLS_THREADS=N` asks for overlap).
    fixed: bool,
}

impl Pace {
    /// A pace that is always slow.
    pub fn always_slow() -> Arc<Pace> {
        Arc::new(Pace {
            slow: AtomicBool::new(true),
            fixed: true,
            ..Pace::default()
        })
    }

    /// Whether the device's answers are slow lately.
    pub fn is_slow(&self) -> bool {
        self.slow.load(Ordering::Relaxed)
    }

    /// Learns from a probe that took `took`; returns whether the device
    /// is slow now.
    pub fn observe(&self, took: Duration) -> bool {
        let slow = self.is_slow();
        if !self.fixed && !TIMED.load(Ordering::Relaxed) {
            TIMED.store(true, Ordering::Relaxed);
        }
        if self.fixed || (took >= SLOW_PROBE) == slow {
            self.run.store(0, Ordering::Relaxed);
            return slow;
        }
        let run = self.run.fetch_add(1, Ordering::Relaxed) + 1;
        let needed = if slow { FAST_RUN } else { SLOW_RUN };
        if run < needed {
            return slow;
        }
        self.run.store(0, Ordering::Relaxed);
        // Only the thread whose answer completed the run turns it over.
        if self.slow.swap(!slow, Ordering::Relaxed) == slow {
            if slow {
                SLOW_DEVICES.fetch_sub(1, Ordering::Relaxed);
            } else {
                SLOW_DEVICES.fetch_add(1, Ordering::Relaxed);
            }
        }
        !slow
    }
}

/// Each device's pace, by (major, minor).
type Paces = Mutex<HashMap<(u32, u32), Arc<Pace>>>;

/// The pace of device `dev`, shared by every thread for the run.
pub fn pace_of(dev: (u32, u32)) -> Arc<Pace> {
    static PACES: OnceLock<Paces> = OnceLock::new();
    let paces = PACES.get_or_init(Mutex::default);
    let mut paces = paces.lock().unwrap_or_else(|e| e.into_inner());
    Arc::clone(paces.entry(dev).or_default())
}

#[cfg(test)]
mod tests {
    use super::*;

    const FAST: Duration = Duration::from_micros(3);
    const SLOW: Duration = Duration::from_millis(1);

    #[test]
    fn three_slow_answers_in_a_row_make_a_device_slow() {
        let pace = Pace::default();
        assert!(!pace.observe(SLOW));
        assert!(!pace.observe(SLOW));
        assert!(!pace.observe(FAST), "a fast answer breaks the run");
        assert!(!pace.observe(SLOW));
        assert!(!pace.observe(SLOW));
        assert!(pace.observe(SLOW));
        assert!(pace.is_slow());
    }

    #[test]
    fn a_slow_device_turns_fast_after_a_long_run_of_fast_answers() {
        let pace = Pace::default();
        for _ in 0..SLOW_RUN {
            pace.observe(SLOW);
        }
        for _ in 1..FAST_RUN {
            assert!(pace.observe(FAST));
        }
        assert!(!pace.observe(FAST));
    }

    #[test]
    fn a_fixed_pace_stays_slow() {
        let pace = Pace::always_slow();
        for _ in 0..2 * FAST_RUN {
            assert!(pace.observe(FAST));
        }
    }

    #[test]
    fn devices_are_paced_apart_and_shared_by_device() {
        let a = pace_of((250, 1));
        for _ in 0..SLOW_RUN {
            a.observe(SLOW);
        }
        assert!(pace_of((250, 1)).is_slow());
        assert!(!pace_of((250, 2)).is_slow());
    }
}
