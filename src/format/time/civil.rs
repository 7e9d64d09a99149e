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

const DAY: i64 = 86_400;
/// Slots of the day cache (a direct-mapped table keyed by the UTC day).
const SLOTS: usize = 2048;

/// `localtime_r` for many times, one call per local day instead of one
/// per time: a day is cached when the C library says that its first and
/// last seconds (00:00:00 and 23:59:59, 86 399 s apart) have the same date,
/// offset, daylight flag and zone name as the time asked for, so no
/// transition and no leap second falls inside it (a day with one is never
/// cached; no zone in the tz database changes and changes back within two
/// days). Times inside a cached day are derived from its midnight.
#[derive(Clone, Debug, Default)]
pub struct DayCache {
    slots: std::cell::RefCell<Vec<Option<(i64, LocalTime)>>>,
}

impl DayCache {
    /// Breaks `sec` down in the local time zone, as [`break_down`].
    pub fn break_down(&self, sec: i64, nsec: u32) -> Option<BrokenDown> {
        let slot = sec.div_euclid(DAY).rem_euclid(SLOTS as i64) as usize;
        let mut slots = self.slots.borrow_mut();
        if slots.is_empty() {
            slots.resize(SLOTS, None);
        }
        if let Some((midnight, day)) = &slots[slot] {
            let into = sec.wrapping_sub(*midnight);
            if (0..DAY).contains(&into) {
                let tm = LocalTime {
                    hour: (into / 3600) as u8,
                    minute: (into / 60 % 60) as u8,
                    second: (into % 60) as u8,
                    ..*day
                };
                return Some(BrokenDown {
                    tm,
                    nsec,
                    epoch: sec,
                });
            }
        }
        let t = break_down(sec, nsec)?;
        if let Some(day) = whole_day(sec, &t.tm) {
            slots[slot] = Some(day);
        }
        Some(t)
    }
}

/// The midnight and its broken-down time of the local day holding `sec`,
/// when the whole day has one offset (see [`DayCache`]).
fn whole_day(sec: i64, tm: &LocalTime) -> Option<(i64, LocalTime)> {
    if tm.second > 59 {
        return None;
    }
    let into = i64::from(tm.hour) * 3600 + i64::from(tm.minute) * 60 + i64::from(tm.second);
    let midnight = sec.checked_sub(into)?;
    let first = crate::sys::time::localtime(midnight)?;
    let last = crate::sys::time::localtime(midnight.checked_add(DAY - 1)?)?;
    let same = |o: &LocalTime| {
        (o.year, o.yday, o.gmtoff, o.isdst, o.zone)
            == (tm.year, tm.yday, tm.gmtoff, tm.isdst, tm.zone)
    };
    let whole = same(&first)
        && same(&last)
        && (first.hour, first.minute, first.second) == (0, 0, 0)
        && (last.hour, last.minute, last.second) == (23, 59, 59);
    whole.then_some((midnight, first))
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
