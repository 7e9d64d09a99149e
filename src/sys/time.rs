//! The C library's clock and calendar: `localtime_r` (which reads `TZ`,
//! `TZDIR` and /etc/localtime itself, leap seconds and POSIX rules
//! included), `strftime` for one conversion at a time, and LC_TIME's
//! abbreviated month names.
//!
//! GNU ls renders dates with gnulib's `nstrftime`, which does numbers
//! itself and asks the C library's `strftime` for every conversion whose
//! text comes from the locale; [`strftime_one`] is that request.

use std::ffi::{c_char, c_int, CStr};

extern "C" {
    /// glibc's current zone names (`tzname[2]`), set by `tzset`.
    static tzname: [*const c_char; 2];
}

/// A broken-down local time, as `localtime_r` fills `struct tm`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LocalTime {
    /// Full year (`tm_year + 1900`).
    pub year: i64,
    /// 1..=12.
    pub month: u8,
    /// 1..=31.
    pub day: u8,
    pub hour: u8,
    pub minute: u8,
    /// 0..=60 (60 in a leap second).
    pub second: u8,
    /// Day of the year, 0..=365.
    pub yday: u16,
    /// Day of the week, 0 = Sunday.
    pub wday: u8,
    pub isdst: i32,
    /// Seconds east of UTC.
    pub gmtoff: i64,
    /// The zone abbreviation (`tm_zone`, else `tzname[isdst]` as gnulib's
    /// `nstrftime` falls back).
    pub zone: &'static CStr,
}

/// `localtime_r(sec)`; `None` where the C library fails (a year that
/// does not fit `tm_year`).
pub fn localtime(sec: i64) -> Option<LocalTime> {
    let t: libc::time_t = sec;
    // SAFETY: an all-zero `struct tm` is valid (null tm_zone).
    let mut tm: libc::tm = unsafe { std::mem::zeroed() };
    // SAFETY: both pointers are valid for the call.
    if unsafe { libc::localtime_r(&t, &mut tm) }.is_null() {
        return None;
    }
    let zone = zone_name(tm.tm_zone, tm.tm_isdst);
    Some(LocalTime {
        year: i64::from(tm.tm_year) + 1900,
        month: (tm.tm_mon + 1) as u8,
        day: tm.tm_mday as u8,
        hour: tm.tm_hour as u8,
        minute: tm.tm_min as u8,
        second: tm.tm_sec as u8,
        yday: tm.tm_yday as u16,
        wday: tm.tm_wday as u8,
        isdst: tm.tm_isdst,
        gmtoff: tm.tm_gmtoff,
        zone,
    })
}

fn zone_name(p: *const c_char, isdst: c_int) -> &'static CStr {
    let mut p = p;
    // SAFETY: tm_zone and tzname point into the C library's zone strings,
    // which glibc keeps for the life of the process (they are replaced
    // only when TZ changes and tzset runs again, which this program never
    // does); a null pointer is checked before use.
    unsafe {
        if (p.is_null() || *p == 0) && isdst >= 0 {
            p = tzname[usize::from(isdst != 0)];
        }
        if p.is_null() {
            c""
        } else {
            CStr::from_ptr(p)
        }
    }
}

fn to_tm(t: &LocalTime) -> libc::tm {
    libc::tm {
        tm_sec: c_int::from(t.second),
        tm_min: c_int::from(t.minute),
        tm_hour: c_int::from(t.hour),
        tm_mday: c_int::from(t.day),
        tm_mon: c_int::from(t.month) - 1,
        tm_year: (t.year - 1900) as c_int,
        tm_wday: c_int::from(t.wday),
        tm_yday: c_int::from(t.yday),
        tm_isdst: t.isdst,
        tm_gmtoff: t.gmtoff,
        tm_zone: t.zone.as_ptr(),
    }
}

/// Appends what the C library's `strftime` makes of the single
/// conversion `%` `modifier` `conv` (`modifier` 0 for none), as gnulib's
/// `nstrftime` asks for it: the format starts with a space, which is
/// dropped, so that an empty result and a failure differ. Appends nothing
/// on failure.
pub fn strftime_one(modifier: u8, conv: u8, t: &LocalTime, out: &mut Vec<u8>) {
    let mut fmt = [b' ', b'%', 0, 0, 0];
    let mut n = 2;
    if modifier != 0 {
        fmt[n] = modifier;
        n += 1;
    }
    fmt[n] = conv;
    let tm = to_tm(t);
    let mut buf = [0u8; 1024];
    // SAFETY: fmt is NUL-terminated (at most 4 bytes used); buf has
    // buf.len() writable bytes; tm is a valid struct tm whose tm_zone
    // points to a NUL-terminated string.
    let len =
        unsafe { libc::strftime(buf.as_mut_ptr().cast(), buf.len(), fmt.as_ptr().cast(), &tm) };
    if len > 0 {
        out.extend_from_slice(&buf[1..len]);
    }
}

/// LC_TIME's twelve abbreviated month names (`nl_langinfo(ABMON_n)`).
pub fn abbreviated_months() -> [Vec<u8>; 12] {
    std::array::from_fn(|i| {
        // SAFETY: nl_langinfo returns a NUL-terminated string owned by the
        // C library; it is copied at once.
        unsafe {
            let p = libc::nl_langinfo(libc::ABMON_1 + i as libc::nl_item);
            if p.is_null() {
                Vec::new()
            } else {
                CStr::from_ptr(p).to_bytes().to_vec()
            }
        }
    })
}

/// LC_CTYPE's `toupper` and `tolower` for every byte (gnulib's
/// `nstrftime` changes case byte by byte).
pub fn case_tables() -> ([u8; 256], [u8; 256]) {
    let map = |f: unsafe extern "C" fn(c_int) -> c_int| -> [u8; 256] {
        // SAFETY: toupper/tolower accept any unsigned char value.
        std::array::from_fn(|b| (unsafe { f(b as c_int) }) as u8)
    };
    (map(libc::toupper), map(libc::tolower))
}
