//! Specification tests: expected values come from GNU coreutils 9.1
//! (`LC_ALL=C /bin/ls -l --time-style=…` and `date -d @T +FORMAT`, which
//! share gnulib's nstrftime) on glibc.

use super::*;

fn ts(sec: i64, nsec: u32) -> Timestamp {
    Timestamp { sec, nsec }
}

/// The C library reads `TZ` once per process: a test that needs a zone
/// runs again in a child process with `TZ` set.
fn in_zone(tz: &str, test: &str) -> bool {
    crate::tests::in_child(&format!("format::time::tests::{test}"), &[("TZ", tz)])
}

fn render(fmt: &str, sec: i64, nsec: u32) -> String {
    let mut out = Vec::new();
    let bd = break_down(sec, nsec).expect("in range");
    Format::parse(fmt.as_bytes()).render(&bd, &mut out);
    String::from_utf8_lossy(&out).into_owned()
}

fn style(arg: &str) -> Result<TimeStyle, TimeStyleError> {
    parse_time_style(arg.as_bytes(), false)
}

fn unescape(s: &str) -> String {
    let mut out = String::new();
    let mut chars = s.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('t') => out.push('\t'),
            Some('n') => out.push('\n'),
            Some(o) => out.push(o),
            None => {}
        }
    }
    out
}

const GNU_CASES: &str = include_str!("gnu_cases.tsv");

/// Thousands of (TZ, time, format) cases recorded from GNU `date`, one
/// child process per zone.
#[test]
fn strftime_matches_gnu_date() {
    let mut zones: Vec<&str> = GNU_CASES
        .lines()
        .filter_map(|l| l.split('\t').next())
        .collect();
    zones.dedup();
    for tz in zones {
        if in_zone(tz, "strftime_matches_gnu_date_in_zone") {
            unreachable!("the parent is not in a zone");
        }
    }
}

#[test]
fn strftime_matches_gnu_date_in_zone() {
    // Only in a child process (see `strftime_matches_gnu_date`).
    let Some(zone) = std::env::var_os("STATLS_TEST_CHILD").and(std::env::var_os("TZ")) else {
        return;
    };
    let mut failures = Vec::new();
    for line in GNU_CASES.lines() {
        let f: Vec<&str> = line.split('\t').collect();
        let [tz, t, fmt, want] = f[..] else {
            panic!("bad line {line}")
        };
        if zone != tz {
            continue;
        }
        let (sec, nsec) = match t.split_once('.') {
            Some((s, n)) => {
                let s: i64 = s.parse().unwrap();
                let n: u32 = format!("{n:0<9}").parse().unwrap();
                if s < 0 || t.starts_with('-') {
                    (s - 1, 1_000_000_000 - n)
                } else {
                    (s, n)
                }
            }
            None => (t.parse().unwrap(), 0),
        };
        // `ls` trims `%-N` without a width; `date` (which recorded these
        // cases) does not. `ls_trims_dash_n` covers the ls behaviour.
        if fmt == "%-N" {
            continue;
        }
        let got = render(&unescape(fmt), sec, nsec);
        let got = if got.len() > 300 {
            format!("LONG:{}", got.len())
        } else {
            got
        };
        if got != unescape(want) {
            failures.push(format!("TZ={tz} @{t} {fmt:?}: want {want:?} got {got:?}"));
        }
    }
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures[..failures.len().min(400)].join("\n")
    );
}

#[test]
fn named_styles() {
    assert!(matches!(style("full-iso"), Ok(TimeStyle::FullIso)));
    assert!(matches!(style("long-iso"), Ok(TimeStyle::LongIso)));
    assert!(matches!(style("iso"), Ok(TimeStyle::Iso)));
    assert!(matches!(style("locale"), Ok(TimeStyle::Locale)));
    // Unique prefixes are accepted: `--time-style=long`, `f`, `loc`.
    assert!(matches!(style("long"), Ok(TimeStyle::LongIso)));
    assert!(matches!(style("f"), Ok(TimeStyle::FullIso)));
    assert!(matches!(style("loc"), Ok(TimeStyle::Locale)));
    assert!(matches!(style("i"), Ok(TimeStyle::Iso)));
}

#[test]
fn posix_prefix() {
    // LC_ALL=C: any posix-* style is `locale`, even posix-bogus.
    for s in [
        "posix-long-iso",
        "posix-full-iso",
        "posix-bogus",
        "posix-+%Y",
        "posix-",
    ] {
        assert!(
            matches!(parse_time_style(s.as_bytes(), true), Ok(TimeStyle::Locale)),
            "{s}"
        );
    }
    // LC_ALL=C.UTF-8: the prefix is dropped (repeatedly).
    assert!(matches!(style("posix-long-iso"), Ok(TimeStyle::LongIso)));
    assert!(matches!(style("posix-posix-iso"), Ok(TimeStyle::Iso)));
    assert!(matches!(style("posix-+%Y"), Ok(TimeStyle::Custom { .. })));
    let e = style("posix-bogus").unwrap_err();
    assert!(e
        .0
        .starts_with("invalid argument 'bogus' for 'time style'\n"));
}

#[test]
fn custom_formats() {
    let TimeStyle::Custom { recent, old } = style("+%H:%M").unwrap() else {
        panic!()
    };
    assert_eq!((&recent[..], &old[..]), (&b"%H:%M"[..], &b"%H:%M"[..]));
    // The first line is for old files, the second for recent ones.
    let TimeStyle::Custom { recent, old } = style("+%Y\n%H").unwrap() else {
        panic!()
    };
    assert_eq!((&recent[..], &old[..]), (&b"%H"[..], &b"%Y"[..]));
    let TimeStyle::Custom { recent, old } = style("+").unwrap() else {
        panic!()
    };
    assert!(recent.is_empty() && old.is_empty());
    let e = style("+%Y\n%m\nx").unwrap_err();
    // GNU: invalid time style format '%Y\n%m\nx' (quoting is quote.rs's).
    assert!(e.0.starts_with("invalid time style format "));
    assert!(!e.wants_try_line());
}

#[test]
fn bad_style_messages() {
    let list =
        "\nValid arguments are:\n  - [posix-]full-iso\n  - [posix-]long-iso\n  - [posix-]iso\n  - \
                [posix-]locale\n  - +FORMAT (e.g., +%H:%M) for a 'date'-style format";
    let e = style("bogus").unwrap_err();
    assert_eq!(
        e.0,
        format!("invalid argument 'bogus' for 'time style'{list}")
    );
    assert!(e.wants_try_line());
    let e = style("l").unwrap_err();
    assert_eq!(
        e.0,
        format!("ambiguous argument 'l' for 'time style'{list}")
    );
    let e = style("").unwrap_err();
    assert_eq!(e.0, format!("ambiguous argument '' for 'time style'{list}"));
}

fn formatter(s: &TimeStyle, now: i64) -> TimeFormatter {
    TimeFormatter::with(s, false, ts(now, 500))
}

fn fmt(f: &TimeFormatter, t: Timestamp) -> String {
    let mut out = Vec::new();
    f.format(t, &mut out);
    String::from_utf8(out).unwrap()
}

const NOW: i64 = 1_796_227_200; // 2026-12-02 16:00:00 UTC

#[test]
fn six_months_rule() {
    if !in_zone("UTC", "six_months_rule") {
        return;
    }
    let f = formatter(&TimeStyle::Locale, NOW);
    let edge = NOW - 15_778_476;
    assert_eq!(fmt(&f, ts(edge, 501)), "Jun  3 01:05");
    assert_eq!(fmt(&f, ts(edge, 500)), "Jun  3  2026");
    assert_eq!(fmt(&f, ts(NOW, 499)), "Dec  2 16:00");
    // Now itself and the future are "old".
    assert_eq!(fmt(&f, ts(NOW, 500)), "Dec  2  2026");
    assert_eq!(fmt(&f, ts(NOW + 100, 0)), "Dec  2  2026");
}

#[test]
fn builtin_styles() {
    if !in_zone("UTC", "builtin_styles") {
        return;
    }
    let old = ts(-14_182_980, 0); // 1969-07-20 20:17 UTC
    let recent = ts(NOW - 3600, 123_456_789);
    let cases = [
        (TimeStyle::Locale, "Jul 20  1969", "Dec  2 15:00"),
        (TimeStyle::LongIso, "1969-07-20 20:17", "2026-12-02 15:00"),
        (TimeStyle::Iso, "1969-07-20 ", "12-02 15:00"),
        (
            TimeStyle::FullIso,
            "1969-07-20 20:17:00.000000000 +0000",
            "2026-12-02 15:00:00.123456789 +0000",
        ),
    ];
    for (s, o, r) in cases {
        let f = formatter(&s, NOW);
        assert_eq!(
            (fmt(&f, old).as_str(), fmt(&f, recent).as_str()),
            (o, r),
            "{s:?}"
        );
    }
}

#[test]
fn unconvertible_times_print_seconds() {
    if !in_zone("UTC", "unconvertible_times_print_seconds") {
        return;
    }
    // `ls -l --full-time` on a tmpfs file touched at @67768036191676800:
    // the seconds right-aligned to the width of the old format at 0.
    let f = formatter(&TimeStyle::FullIso, NOW);
    assert_eq!(
        fmt(&f, ts(67_768_036_191_676_800, 0)),
        "                  67768036191676800"
    );
    assert_eq!(
        fmt(&f, ts(i64::MIN, 0)),
        "               -9223372036854775808"
    );
    assert_eq!(
        fmt(&f, ts(67_768_036_191_676_799, 0)),
        "2147485547-12-31 23:59:59.000000000 +0000"
    );
    let f = formatter(&TimeStyle::Locale, NOW);
    assert_eq!(fmt(&f, ts(i64::MAX, 0)), "9223372036854775807");
    assert_eq!(fmt(&f, ts(253_402_300_800, 0)), "Jan  1  10000");
    // Output over 1000 bytes also falls back (ls's buffer).
    let s = TimeStyle::Custom {
        recent: b"%1001d".to_vec(),
        old: b"%5d".to_vec(),
    };
    let f = formatter(&s, NOW);
    assert_eq!(fmt(&f, ts(NOW - 10, 0)), "1796227190");
    let s = TimeStyle::Custom {
        recent: b"%1000d".to_vec(),
        old: b"%1000d".to_vec(),
    };
    assert_eq!(fmt(&formatter(&s, NOW), ts(0, 0)).len(), 1000);
}

#[test]
fn c_strftime_year_wraps_like_glibc() {
    if !in_zone("UTC", "c_strftime_year_wraps_like_glibc") {
        return;
    }
    // %c prints tm_year + 1900 as an int; %Y does not overflow.
    assert_eq!(
        render("%Y|%c", 67_768_036_191_676_799, 0),
        "2147485547|Wed Dec 31 23:59:59 -2147481749"
    );
}

/// Recorded from `/bin/ls -l --time-style='+%-N|%_N|%N|%-3N'`: ls drops
/// trailing zeros with the `-` flag even without a width.
#[test]
fn ls_trims_dash_n() {
    if !in_zone("UTC", "ls_trims_dash_n") {
        return;
    }
    assert_eq!(render("%-N|%_N|%N|%-3N", 0, 0), "0|0        |000000000|0");
    assert_eq!(render("%-N", 0, 500_000_000), "5");
}

/// The day cache gives exactly what `localtime_r` gives, across
/// transitions, leap seconds (right/), POSIX rules before 1970, half-hour
/// and negative daylight saving time.
#[test]
fn day_cache_matches_localtime() {
    for tz in [
        "right/Europe/Berlin",
        "right/UTC",
        "NZST-12NZDT,M9.5.0,M4.1.0/3",
        "America/New_York",
        "Australia/Lord_Howe",
        "Europe/Dublin",
        "Africa/Casablanca",
        "XXX-24:59:59",
    ] {
        let _ = in_zone(tz, "day_cache_matches_localtime_in_zone");
    }
}

#[test]
fn day_cache_matches_localtime_in_zone() {
    if std::env::var_os("STATLS_TEST_CHILD").is_none() {
        return;
    }
    let cache = civil::DayCache::default();
    // 1960..2040 in steps that drift through every second of the day, then
    // each leap second and transition neighbourhood hit by the steps again.
    let mut t: i64 = -315_619_200;
    while t < 2_208_988_800 {
        for probe in [t, t + 1, t - 1] {
            assert_eq!(cache.break_down(probe, 7), break_down(probe, 7), "@{probe}");
        }
        t += 7_919;
    }
    // Every second of two days around leap seconds and a DST change.
    for around in [1_483_228_800_i64, 78_796_800, 1_711_846_800] {
        for probe in around - 86_400..around + 86_400 {
            assert_eq!(cache.break_down(probe, 0), break_down(probe, 0), "@{probe}");
        }
    }
}
