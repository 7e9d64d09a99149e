//! Timestamps: `--time-style` parsing (GNU ls 9.1 rules) and rendering
//! with GNU's "recent" (past six months) versus "old" formats.
#![forbid(unsafe_code)]

mod abmon;
mod civil;
mod strftime;

use std::cell::Cell;

use crate::format::quote::quote_locale;
use crate::sys::stat::Timestamp;

use abmon::Template;
pub use civil::{break_down, BrokenDown};
pub use strftime::{set_dialect as set_strftime_dialect, Format};

/// A resolved `--time-style`.
#[derive(Clone, Debug)]
pub enum TimeStyle {
    FullIso,
    LongIso,
    Iso,
    Locale,
    /// `+FORMAT`, or `+OLD\nRECENT` (GNU: the first format is for old
    /// times, the second for recent ones).
    Custom {
        recent: Vec<u8>,
        old: Vec<u8>,
    },
}

impl TimeStyle {
    /// The (recent, old) strftime formats of this style in the C locale.
    pub fn formats(&self) -> (&[u8], &[u8]) {
        match self {
            TimeStyle::FullIso => (b"%Y-%m-%d %H:%M:%S.%N %z", b"%Y-%m-%d %H:%M:%S.%N %z"),
            TimeStyle::LongIso => (b"%Y-%m-%d %H:%M", b"%Y-%m-%d %H:%M"),
            TimeStyle::Iso => (b"%m-%d %H:%M", b"%Y-%m-%d "),
            TimeStyle::Locale => (b"%b %e %H:%M", b"%b %e  %Y"),
            TimeStyle::Custom { recent, old } => (recent, old),
        }
    }
}

/// An invalid `--time-style`/`TIME_STYLE`; `Display` is GNU's full message
/// (without the `ls: ` prefix and the final "Try" line).
#[derive(Clone, Debug)]
pub struct TimeStyleError(pub String);

impl TimeStyleError {
    /// Whether GNU follows this message with its "Try '… --help'" line
    /// (it does for unknown/ambiguous styles, not for a bad `+FORMAT`).
    /// Either way the exit status is 2.
    pub fn wants_try_line(&self) -> bool {
        !self.0.starts_with("invalid time style format")
    }
}

impl std::fmt::Display for TimeStyleError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

const STYLES: [(&str, TimeStyle); 4] = [
    ("full-iso", TimeStyle::FullIso),
    ("long-iso", TimeStyle::LongIso),
    ("iso", TimeStyle::Iso),
    ("locale", TimeStyle::Locale),
];

const VALID_LIST: &str = "Valid arguments are:\n  - [posix-]full-iso\n  - [posix-]long-iso\n  - \
[posix-]iso\n  - [posix-]locale\n  - +FORMAT (e.g., +%H:%M) for a 'date'-style format";

/// Parses a `--time-style` argument (also `full-time`'s implied
/// `full-iso`). `time_posix` is whether LC_TIME is C/POSIX, which decides
/// what a `posix-` prefix means. Messages quote as in the C locale; see
/// [`parse_time_style_utf8`].
pub fn parse_time_style(arg: &[u8], time_posix: bool) -> Result<TimeStyle, TimeStyleError> {
    parse_time_style_utf8(arg, time_posix, false)
}

/// [`parse_time_style`] with error messages quoted for a UTF-8 locale
/// (`‘bogus’`) when `utf8`.
pub fn parse_time_style_utf8(
    arg: &[u8],
    time_posix: bool,
    utf8: bool,
) -> Result<TimeStyle, TimeStyleError> {
    let mut style = arg;
    while let Some(rest) = style.strip_prefix(b"posix-") {
        if time_posix {
            // In the C locale every posix-* style is the locale style,
            // even an invalid one.
            return Ok(TimeStyle::Locale);
        }
        style = rest;
    }
    if let Some(fmt) = style.strip_prefix(b"+") {
        return custom(fmt, utf8);
    }
    if let Some((_, s)) = STYLES.iter().find(|(name, _)| name.as_bytes() == style) {
        return Ok(s.clone());
    }
    let matches: Vec<&TimeStyle> = STYLES
        .iter()
        .filter(|(name, _)| name.as_bytes().starts_with(style))
        .map(|(_, s)| s)
        .collect();
    match matches.as_slice() {
        [one] => Ok((*one).clone()),
        many => {
            let what = if many.is_empty() {
                "invalid"
            } else {
                "ambiguous"
            };
            Err(TimeStyleError(format!(
                "{what} argument {} for {}\n{VALID_LIST}",
                quoted(style, utf8),
                quoted(b"time style", utf8)
            )))
        }
    }
}

/// `+FORMAT` or `+OLD\nRECENT`; a second newline is an error.
fn custom(fmt: &[u8], utf8: bool) -> Result<TimeStyle, TimeStyleError> {
    let Some(nl) = fmt.iter().position(|c| *c == b'\n') else {
        return Ok(TimeStyle::Custom {
            recent: fmt.to_vec(),
            old: fmt.to_vec(),
        });
    };
    let (old, recent) = (&fmt[..nl], &fmt[nl + 1..]);
    if recent.contains(&b'\n') {
        return Err(TimeStyleError(format!(
            "invalid time style format {}",
            quoted(fmt, utf8)
        )));
    }
    Ok(TimeStyle::Custom {
        recent: recent.to_vec(),
        old: old.to_vec(),
    })
}

fn quoted(s: &[u8], utf8: bool) -> String {
    String::from_utf8_lossy(&quote_locale(s, utf8)).into_owned()
}

/// Half a Gregorian year (365.2425 days) in seconds: GNU's "six months".
const SIX_MONTHS: i64 = 31_556_952 / 2;
/// Longest rendering `ls` accepts (its buffer); longer ones print seconds.
const MAX_LEN: usize = 1000;

/// Renders timestamps for one run of `ls`: the formats parsed once (one
/// per month where GNU aligns month names), the C library's local time,
/// and "now" for the six-months rule.
#[derive(Clone, Debug)]
pub struct TimeFormatter {
    recent: Template,
    old: Template,
    days: civil::DayCache,
    now: Cell<Timestamp>,
    /// Whether "now" is re-read for a time in the future (GNU does).
    live: bool,
    /// Columns of the old format at the epoch: failed conversions print
    /// the seconds right-aligned to it.
    fail_width: usize,
}

fn current_time() -> Timestamp {
    let d = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH);
    match d {
        Ok(d) => Timestamp {
            sec: i64::try_from(d.as_secs()).unwrap_or(i64::MAX),
            nsec: d.subsec_nanos(),
        },
        Err(e) => {
            let d = e.duration();
            let sec = -i64::try_from(d.as_secs()).unwrap_or(i64::MAX);
            match d.subsec_nanos() {
                0 => Timestamp { sec, nsec: 0 },
                n => Timestamp {
                    sec: sec - 1,
                    nsec: 1_000_000_000 - n,
                },
            }
        }
    }
}

impl TimeFormatter {
    /// For `style` and the current time. `translate`: LC_TIME is not
    /// C/POSIX, so the `locale` style's formats come from the message
    /// catalog (GNU looks them up under LC_TIME).
    pub fn new(style: &TimeStyle, translate: bool) -> TimeFormatter {
        let mut f = TimeFormatter::with(style, translate, current_time());
        f.live = true;
        f
    }

    /// A formatter with a fixed "now" (for tests).
    pub fn with(style: &TimeStyle, translate: bool, now: Timestamp) -> TimeFormatter {
        let (recent, old) = style.formats();
        let (recent, old) = match style {
            TimeStyle::Locale if translate => (
                crate::sys::intl::tr_time("%b %e %H:%M"),
                crate::sys::intl::tr_time("%b %e  %Y"),
            ),
            _ => (recent.to_vec(), old.to_vec()),
        };
        let names = crate::sys::time::abbreviated_months().map(|m| {
            let width = crate::sys::mbwidth::text_columns_valid(&m);
            (m, width)
        });
        let months = abmon::pad_months(&names);
        let (recent, old) = Template::pair(&recent, &old, months.as_ref());
        let mut f = TimeFormatter {
            recent,
            old,
            days: civil::DayCache::default(),
            now: Cell::new(now),
            live: false,
            fail_width: 0,
        };
        let mut buf = Vec::new();
        if let Some(epoch) = break_down(0, 0) {
            f.old.get(epoch.tm.month).render(&epoch, &mut buf);
        }
        f.fail_width = if buf.len() <= MAX_LEN {
            crate::sys::mbwidth::text_columns_measured(&buf).unwrap_or(0)
        } else {
            0
        };
        f
    }

    /// Whether `t` gets the "recent" format: within the six months before
    /// now (exclusive at both ends, nanoseconds compared).
    pub fn is_recent(&self, t: Timestamp) -> bool {
        if self.live && t > self.now.get() {
            self.now.set(current_time().max(self.now.get()));
        }
        let now = self.now.get();
        let ago = Timestamp {
            sec: now.sec.saturating_sub(SIX_MONTHS),
            nsec: now.nsec,
        };
        ago < t && t < now
    }

    /// Width GNU gives a time it cannot show (`?` or raw seconds): the old
    /// format rendered at the epoch.
    pub fn unknown_width(&self) -> usize {
        self.fail_width
    }

    /// Appends `t` rendered as `ls -l` shows it.
    pub fn format(&self, t: Timestamp, out: &mut Vec<u8>) {
        let fmt = if self.is_recent(t) {
            &self.recent
        } else {
            &self.old
        };
        let start = out.len();
        if let Some(bd) = self.days.break_down(t.sec, t.nsec) {
            fmt.get(bd.tm.month).render(&bd, out);
            if out.len() - start <= MAX_LEN {
                return;
            }
            out.truncate(start);
        }
        let secs = t.sec.to_string();
        out.extend(std::iter::repeat_n(
            b' ',
            self.fail_width.saturating_sub(secs.len()),
        ));
        out.extend_from_slice(secs.as_bytes());
    }
}

#[cfg(test)]
mod tests;
