//! Calendar arithmetic on a broken-down local time: ISO weeks and the
//! week numbers of `%U`/`%W`, as gnulib's `nstrftime` computes them.
#![forbid(unsafe_code)]

use crate::sys::time::LocalTime;

/// A broken-down local time (the C library's `localtime_r`) with the
/// nanoseconds and the epoch seconds it came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BrokenDown {
    pub tm: LocalTime,
    pub nsec: u32,
    /// Seconds since the epoch (`%s`).
    pub epoch: i64,
}

/// Breaks `sec` (with `nsec`) down in the local time zone; `None` where
/// `localtime_r` fails.
pub fn break_down(sec: i64, nsec: u32) -> Option<BrokenDown> {
    crate::sys::time::localtime(sec).map(|tm| BrokenDown {
        tm,
        nsec,
        epoch: sec,
    })
}

/// Whether `year` is a Gregorian leap year.
fn is_leap(year: i64) -> bool {
    year.rem_euclid(4) == 0 && (year.rem_euclid(100) != 0 || year.rem_euclid(400) == 0)
}

/// Days in `year`.
fn year_days(year: i64) -> i64 {
    if is_leap(year) {
        366
    } else {
        365
    }
}

/// Days from the start of ISO week 1 of `year` to day `yday` (may be
/// negative), given that day's weekday.
fn iso_week_days(yday: i64, wday: i64) -> i64 {
    let wday_mon = (wday + 6) % 7;
    // Weekday (Monday = 0) of January 4th, which is always in week 1.
    let jan4 = (wday_mon - (yday - 3)).rem_euclid(7);
    yday - (3 - jan4)
}

impl BrokenDown {
    /// ISO 8601 week-based year and week number (`%G`, `%V`).
    pub fn iso_week(&self) -> (i64, i64) {
        let yday = i64::from(self.tm.yday);
        let wday = i64::from(self.tm.wday);
        let mut year = self.tm.year;
        let mut days = iso_week_days(yday, wday);
        if days < 0 {
            year -= 1;
            days = iso_week_days(yday + year_days(year), wday);
        } else {
            let next = iso_week_days(yday - year_days(self.tm.year), wday);
            if next >= 0 {
                year += 1;
                days = next;
            }
        }
        (year, days / 7 + 1)
    }

    /// Week of the year, weeks starting on Sunday (`%U`).
    pub fn week_sunday(&self) -> i64 {
        (i64::from(self.tm.yday) + 7 - i64::from(self.tm.wday)) / 7
    }

    /// Week of the year, weeks starting on Monday (`%W`).
    pub fn week_monday(&self) -> i64 {
        (i64::from(self.tm.yday) + 7 - (i64::from(self.tm.wday) + 6) % 7) / 7
    }
}
