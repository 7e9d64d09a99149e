//! Calendar arithmetic: broken-down local time from epoch seconds and a UTC
//! offset, over the whole `i64` range (jiff stops at year 9999; glibc's
//! `localtime` stops only when `tm_year` overflows an `int`).
#![forbid(unsafe_code)]

const SECS_PER_DAY: i64 = 86_400;

/// A broken-down time, like `struct tm` plus nanoseconds and the epoch
/// seconds it came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BrokenDown {
    /// Full proleptic Gregorian year (`tm_year + 1900`).
    pub year: i64,
    /// 1..=12.
    pub month: u8,
    /// 1..=31.
    pub day: u8,
    pub hour: u8,
    pub minute: u8,
    pub second: u8,
    /// Day of the year, 0..=365.
    pub yday: u16,
    /// Day of the week, 0 = Sunday.
    pub wday: u8,
    pub nsec: u32,
    /// Seconds east of UTC.
    pub offset: i32,
    /// Seconds since the epoch (`%s`).
    pub epoch: i64,
}

/// Whether `year` is a Gregorian leap year.
pub fn is_leap(year: i64) -> bool {
    year.rem_euclid(4) == 0 && (year.rem_euclid(100) != 0 || year.rem_euclid(400) == 0)
}

/// Days in `year`.
pub fn year_days(year: i64) -> i64 {
    if is_leap(year) {
        366
    } else {
        365
    }
}

/// (year, month, day) of a day count since 1970-01-01.
fn civil_from_days(days: i64) -> (i64, u8, u8) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    (year, month as u8, day as u8)
}

/// Day of the year (0-based) of a civil date.
fn day_of_year(year: i64, month: u8, day: u8) -> u16 {
    const CUM: [u16; 12] = [0, 31, 59, 90, 120, 151, 181, 212, 243, 273, 304, 334];
    let m = usize::from(month.clamp(1, 12)) - 1;
    let leap = u16::from(month > 2 && is_leap(year));
    CUM[m] + leap + u16::from(day) - 1
}

/// Breaks `sec` (with `nsec`) down at UTC offset `offset`. `None` when the
/// year does not fit `tm_year` (an `int`), where glibc's `localtime` fails.
pub fn break_down(sec: i64, nsec: u32, offset: i32) -> Option<BrokenDown> {
    let local = i128::from(sec) + i128::from(offset);
    let days = i64::try_from(local.div_euclid(i128::from(SECS_PER_DAY))).ok()?;
    let rem = i64::try_from(local.rem_euclid(i128::from(SECS_PER_DAY))).ok()?;
    let (year, month, day) = civil_from_days(days);
    i32::try_from(year - 1900).ok()?;
    Some(BrokenDown {
        year,
        month,
        day,
        hour: (rem / 3600) as u8,
        minute: (rem / 60 % 60) as u8,
        second: (rem % 60) as u8,
        yday: day_of_year(year, month, day),
        wday: (days + 4).rem_euclid(7) as u8,
        nsec,
        offset,
        epoch: sec,
    })
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
        let yday = i64::from(self.yday);
        let wday = i64::from(self.wday);
        let mut year = self.year;
        let mut days = iso_week_days(yday, wday);
        if days < 0 {
            year -= 1;
            days = iso_week_days(yday + year_days(year), wday);
        } else {
            let next = iso_week_days(yday - year_days(self.year), wday);
            if next >= 0 {
                year += 1;
                days = next;
            }
        }
        (year, days / 7 + 1)
    }

    /// Week of the year, weeks starting on Sunday (`%U`).
    pub fn week_sunday(&self) -> i64 {
        (i64::from(self.yday) + 7 - i64::from(self.wday)) / 7
    }

    /// Week of the year, weeks starting on Monday (`%W`).
    pub fn week_monday(&self) -> i64 {
        (i64::from(self.yday) + 7 - (i64::from(self.wday) + 6) % 7) / 7
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn epoch_and_negative_times() {
        let t = break_down(0, 0, 0).unwrap();
        assert_eq!((t.year, t.month, t.day, t.wday, t.yday), (1970, 1, 1, 4, 0));
        let t = break_down(-1, 0, 0).unwrap();
        assert_eq!(
            (t.year, t.month, t.day, t.hour, t.second),
            (1969, 12, 31, 23, 59)
        );
        assert_eq!(t.wday, 3);
    }

    #[test]
    fn limits_of_tm_year() {
        // `ls` prints the last of these as 2147485547-12-31 23:59:59 and
        // the next second as a plain number of seconds.
        let t = break_down(67_768_036_191_676_799, 0, 0).unwrap();
        assert_eq!((t.year, t.month, t.day), (2_147_485_547, 12, 31));
        assert!(break_down(67_768_036_191_676_800, 0, 0).is_none());
        let t = break_down(-67_768_040_609_740_800, 0, 0).unwrap();
        assert_eq!((t.year, t.month, t.day), (-2_147_481_748, 1, 1));
        assert!(break_down(-67_768_040_609_740_801, 0, 0).is_none());
        assert!(break_down(i64::MAX, 0, 0).is_none());
        assert!(break_down(i64::MIN, 0, i32::MIN).is_none());
    }

    #[test]
    fn iso_weeks() {
        // 2026-06-03 (Wednesday): %V 23, %U 22, %W 22 per `date`.
        let t = break_down(1_780_448_628, 0, 0).unwrap();
        assert_eq!(t.iso_week(), (2026, 23));
        assert_eq!((t.week_sunday(), t.week_monday()), (22, 22));
        // 2021-01-01 is a Friday in ISO week 2020-W53.
        let t = break_down(1_609_459_200, 0, 0).unwrap();
        assert_eq!(t.iso_week(), (2020, 53));
        // 2024-12-30 is a Monday in ISO week 2025-W01.
        let t = break_down(1_735_516_800, 0, 0).unwrap();
        assert_eq!(t.iso_week(), (2025, 1));
    }
}
