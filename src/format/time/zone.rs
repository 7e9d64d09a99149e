//! The local time zone, resolved from `TZ` the way glibc does: unset means
//! `/etc/localtime`; empty means UTC; a leading `:` is dropped; a file name
//! (absolute, or under `TZDIR`/`/usr/share/zoneinfo`) is read as TZif; else
//! a POSIX TZ string; and an unusable value is UTC under whatever name
//! glibc managed to parse from its start (`Foo/Bar` → `Foo`, `A` → empty).
#![forbid(unsafe_code)]

use jiff::tz::TimeZone;

/// 400 Gregorian years in seconds: calendar and weekdays repeat with this
/// period, and so do POSIX TZ rules.
const CYCLE: i64 = 146_097 * 86_400;
/// Times are shifted by whole cycles into this window before asking jiff,
/// whose range ends at the years -9999 and 9999.
const LOW: i64 = -370_000_000_000;
const HIGH: i64 = 250_000_000_000;

/// A resolved time zone.
#[derive(Clone, Debug)]
pub enum Zone {
    Tz(TimeZone),
    /// A POSIX TZ string: glibc applies its daylight rules from 1970 on
    /// only, so earlier times get the standard offset and name kept here.
    Posix {
        tz: TimeZone,
        std_offset: i32,
        std_abbrev: String,
    },
    /// A fixed offset with a given abbreviation (glibc's fallbacks).
    Fixed {
        offset: i32,
        abbrev: String,
    },
}

impl Zone {
    /// UTC, abbreviated `UTC`.
    pub fn utc() -> Zone {
        Zone::Fixed {
            offset: 0,
            abbrev: "UTC".to_string(),
        }
    }

    /// The zone named by the `TZ` environment variable.
    pub fn from_env() -> Zone {
        let tz = std::env::var_os("TZ");
        let tzdir = std::env::var_os("TZDIR");
        Zone::from_tz(tz.as_ref().map(|v| v.as_encoded_bytes()), tzdir.as_deref())
    }

    /// The zone for a `TZ` value (`None` when unset).
    pub fn from_tz(tz: Option<&[u8]>, tzdir: Option<&std::ffi::OsStr>) -> Zone {
        let Some(value) = tz else {
            // Like glibc: the zone file at /etc/localtime, read directly
            // (asking jiff for the "system" zone indexes the whole tz
            // database first, dozens of directory reads per run).
            return std::fs::read("/etc/localtime")
                .ok()
                .and_then(|data| TimeZone::tzif("localtime", &data).ok())
                .map(Zone::Tz)
                .unwrap_or_else(Zone::utc);
        };
        let name = value.strip_prefix(b":").unwrap_or(value);
        if name.is_empty() {
            return Zone::utc();
        }
        if let Some(zone) = read_tzif(name, tzdir) {
            return zone;
        }
        if let Ok(s) = std::str::from_utf8(name) {
            if let Ok(tz) = TimeZone::posix(s) {
                return posix_zone(tz);
            }
        }
        fallback(name)
    }

    /// UTC offset in seconds at `sec`.
    pub fn offset_at(&self, sec: i64) -> i32 {
        match self {
            Zone::Tz(tz) => tz.to_offset(to_jiff(sec)).seconds(),
            Zone::Posix { tz, .. } if sec >= 0 => tz.to_offset(to_jiff(sec)).seconds(),
            Zone::Posix { std_offset, .. } => *std_offset,
            Zone::Fixed { offset, .. } => *offset,
        }
    }

    /// Appends the abbreviation in effect at `sec` (`%Z`).
    pub fn push_abbrev(&self, sec: i64, out: &mut Vec<u8>) {
        match self {
            Zone::Posix { std_abbrev, .. } if sec < 0 => {
                out.extend_from_slice(std_abbrev.as_bytes())
            }
            Zone::Tz(tz) | Zone::Posix { tz, .. } => {
                let info = tz.to_offset_info(to_jiff(sec));
                out.extend_from_slice(info.abbreviation().as_bytes());
            }
            Zone::Fixed { abbrev, .. } => out.extend_from_slice(abbrev.as_bytes()),
        }
    }
}

/// A POSIX zone with its standard time found by probing January and July
/// of 1971.
fn posix_zone(tz: TimeZone) -> Zone {
    let probes = [31_536_000, 47_260_800].map(|s| tz.to_offset_info(to_jiff(s)));
    let std = probes
        .iter()
        .find(|i| !i.dst().is_dst())
        .unwrap_or(&probes[0]);
    let (std_offset, std_abbrev) = (std.offset().seconds(), std.abbreviation().to_string());
    Zone::Posix {
        tz,
        std_offset,
        std_abbrev,
    }
}

/// `sec` moved by whole 400-year cycles into jiff's range.
fn to_jiff(sec: i64) -> jiff::Timestamp {
    let s = i128::from(sec);
    let (low, high, cycle) = (i128::from(LOW), i128::from(HIGH), i128::from(CYCLE));
    let shifted = if s > high {
        s - ((s - high) / cycle + 1) * cycle
    } else if s < low {
        s + ((low - s) / cycle + 1) * cycle
    } else {
        s
    };
    let shifted = i64::try_from(shifted).unwrap_or(0);
    jiff::Timestamp::from_second(shifted).unwrap_or(jiff::Timestamp::UNIX_EPOCH)
}

/// A TZif file named by `name`, if there is one.
fn read_tzif(name: &[u8], tzdir: Option<&std::ffi::OsStr>) -> Option<Zone> {
    let text = std::str::from_utf8(name).ok()?;
    let path = if text.starts_with('/') {
        std::path::PathBuf::from(text)
    } else {
        let dir = tzdir
            .filter(|d| !d.is_empty())
            .unwrap_or("/usr/share/zoneinfo".as_ref());
        std::path::Path::new(dir).join(text)
    };
    let data = std::fs::read(path).ok()?;
    TimeZone::tzif(text, &data).ok().map(Zone::Tz)
}

/// Length of a POSIX TZ name at the start of `s` (`<...>` quoted, or
/// letters), or 0 when there is no valid name (fewer than 3 characters).
fn name_len(s: &[u8]) -> (usize, &[u8]) {
    if let Some(rest) = s.strip_prefix(b"<") {
        let n = rest
            .iter()
            .take_while(|c| c.is_ascii_alphanumeric() || **c == b'+' || **c == b'-')
            .count();
        if n >= 3 && rest.get(n) == Some(&b'>') {
            return (n + 2, &rest[..n]);
        }
        return (0, b"");
    }
    let n = s.iter().take_while(|c| c.is_ascii_alphabetic()).count();
    if n >= 3 {
        (n, &s[..n])
    } else {
        (0, b"")
    }
}

/// Parses `[+-]hh[:mm[:ss]]` (POSIX sign: positive is west of UTC),
/// returning seconds east of UTC.
fn parse_offset(s: &[u8]) -> Option<i32> {
    let (sign, rest) = match s.first() {
        Some(b'+') => (-1, &s[1..]),
        Some(b'-') => (1, &s[1..]),
        _ => (-1, s),
    };
    let mut total = 0i32;
    let mut parts = 0;
    for (i, part) in rest.split(|c| *c == b':').enumerate() {
        if i > 2 || part.is_empty() || part.len() > 2 || !part.iter().all(u8::is_ascii_digit) {
            return None;
        }
        let v: i32 = part.iter().fold(0, |a, d| a * 10 + i32::from(d - b'0'));
        total += v * [3600, 60, 1][i];
        parts += 1;
    }
    (parts > 0 && total <= 24 * 3600).then_some(sign * total)
}

/// glibc's behaviour for a `TZ` it cannot use fully: the standard name and
/// offset it could parse (daylight rules ignored), else UTC under the name.
fn fallback(name: &[u8]) -> Zone {
    let (len, abbrev) = name_len(name);
    let abbrev = String::from_utf8_lossy(abbrev).into_owned();
    let rest = name.get(len..).unwrap_or(b"");
    let end = rest
        .iter()
        .position(|c| !(c.is_ascii_digit() || b"+-:".contains(c)))
        .unwrap_or(rest.len());
    let offset = if len > 0 {
        parse_offset(&rest[..end]).unwrap_or(0)
    } else {
        0
    };
    Zone::Fixed { offset, abbrev }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn abbrev(z: &Zone, sec: i64) -> String {
        let mut v = Vec::new();
        z.push_abbrev(sec, &mut v);
        String::from_utf8(v).unwrap()
    }

    const SUMMER_1969: i64 = -14_182_980;

    #[test]
    fn glibc_fallbacks_for_unusable_tz() {
        // `TZ=Foo/Bar ls --time-style=+%z%Z` prints `+0000Foo`; `TZ=A`
        // prints `+0000` and an empty %Z; `TZ=` is UTC.
        for (tz, name) in [
            (&b"Foo/Bar"[..], "Foo"),
            (b":Foo/Bar", "Foo"),
            (b"A", ""),
            (b"abc", "abc"),
            (b"", "UTC"),
        ] {
            let z = Zone::from_tz(Some(tz), None);
            assert_eq!(z.offset_at(0), 0, "{tz:?}");
            assert_eq!(abbrev(&z, 0), name, "{tz:?}");
        }
    }

    #[test]
    fn named_and_posix_zones() {
        let ny = Zone::from_tz(Some(b":America/New_York"), None);
        assert_eq!(ny.offset_at(SUMMER_1969), -4 * 3600);
        assert_eq!(abbrev(&ny, SUMMER_1969), "EDT");
        let posix = Zone::from_tz(Some(b"EST5EDT,M3.2.0,M11.1.0"), None);
        // The rule applies to every year, 1969 included: EST, not EDT.
        assert_eq!(posix.offset_at(SUMMER_1969), -5 * 3600);
        let xyz = Zone::from_tz(Some(b"XYZ3"), None);
        assert_eq!(
            (xyz.offset_at(0), abbrev(&xyz, 0)),
            (-3 * 3600, "XYZ".into())
        );
        let q = Zone::from_tz(Some(b"<+05>-5"), None);
        assert_eq!((q.offset_at(0), abbrev(&q, 0)), (5 * 3600, "+05".into()));
    }

    #[test]
    fn far_times_do_not_fail() {
        let ny = Zone::from_tz(Some(b"America/New_York"), None);
        // Far future July: the POSIX rule still gives daylight time.
        let july_9999_plus = 253_388_419_200 + 400 * 31_556_952 * 10;
        assert_eq!(ny.offset_at(july_9999_plus), -4 * 3600);
        let _ = ny.offset_at(i64::MAX);
        let _ = ny.offset_at(i64::MIN);
        let _ = abbrev(&ny, i64::MIN);
    }
}
