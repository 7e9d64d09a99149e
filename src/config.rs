//! The resolved configuration: one plain struct built once from the command
//! line and the environment, then passed around by `&Config`.
//!
//! Everything GNU decides from option order, option interplay (`-f` implies
//! `-a -U`, the last of `-1/-C/-x/-m/-l` wins, …) and environment variables
//! is settled here, so later stages never look at arguments or `getenv`.
#![forbid(unsafe_code)]

mod messages;
pub mod resolve;
pub mod switches;

use std::ffi::OsString;
use std::os::unix::ffi::OsStrExt;

use crate::format::color::ColorTable;
use crate::format::hyperlink::LinkStyle;
use crate::format::size::SizeFormat;
use crate::format::time::TimeStyle;
use crate::gnu::{Behaviour, Gnu};
use crate::options::{
    Dereference, Format, Hidden, IndicatorStyle, QuotingStyle, SortKey, TimeField,
};
use crate::sys::locale::LocaleInfo;
use crate::sys::stat::CacheMode;

/// Everything the long format (and `-s`, `-i`) needs to know.
#[derive(Clone, Debug)]
pub struct LongOptions {
    /// Print the owner column (`-g` turns it off).
    pub owner: bool,
    /// Print the group column (`-o`/`-G` turn it off).
    pub group: bool,
    /// `--author`.
    pub author: bool,
    /// `-n`: numeric user and group ids.
    pub numeric_ids: bool,
    /// Timestamp rendering (`--time-style`, `--full-time`, `TIME_STYLE`).
    pub time_style: TimeStyle,
}

#[derive(Clone, Debug)]
pub struct Config {
    pub format: Format,
    pub hidden: Hidden,
    /// `-B`: skip names ending in `~`.
    pub ignore_backups: bool,
    /// `-I PATTERN`, always applied (after `-B`).
    pub ignore: Vec<Vec<u8>>,
    /// `--hide=PATTERN`, applied only when neither `-a` nor `-A` is given.
    pub hide: Vec<Vec<u8>>,
    /// `-d`: list directories themselves.
    pub directory: bool,
    /// `-R`.
    pub recursive: bool,
    pub dereference: Dereference,
    pub sort: SortKey,
    pub reverse: bool,
    pub group_directories_first: bool,
    /// Time used for sorting by time and for the long format.
    pub time: TimeField,
    pub quoting: QuotingStyle,
    /// `-q`/`--hide-control-chars` (the default on a tty): non-printable
    /// characters become `?`.
    pub hide_control_chars: bool,
    pub indicator: IndicatorStyle,
    /// `Some` when `--color` is in effect: the parsed `LS_COLORS`.
    pub color: Option<ColorTable>,
    /// `--hyperlink` in effect.
    pub hyperlink: bool,
    /// How the emulated release writes hyperlinks.
    pub link_style: LinkStyle,
    /// `--zero`: entries end with NUL, no columns.
    pub zero: bool,
    /// Output width in columns; 0 means no limit.
    pub width: usize,
    /// `-T`/`TABSIZE`; 0 disables tabs in column output.
    pub tabsize: usize,
    pub long: LongOptions,
    /// `-i`.
    pub inode: bool,
    /// `-s`.
    pub size_blocks: bool,
    /// Format of the `-s` column and the `total` line.
    pub block_size: SizeFormat,
    /// Format of the size column of `-l`.
    pub file_size: SizeFormat,
    /// `--dired` (only effective with the long format).
    pub dired: bool,
    /// `-Z`.
    pub context: bool,
    /// `--json`: NDJSON instead of text (`format` is then `OneLine` or
    /// `Long`, which decides the fields; colours and indicators are off).
    pub json: bool,
    /// Whether the locale's character set is UTF-8 (affects what counts as
    /// printable and the width of names).
    pub utf8: bool,
    /// The locale as set up at start-up.
    pub locale: LocaleInfo,
    /// Operands in command-line order; empty means `.`.
    pub operands: Vec<OsString>,
    /// How many per-entry probes may be in flight at once.
    pub probes: ProbeConcurrency,
    /// `--cached=MODE` / `LS_CACHED`: the sync flag of every statx.
    pub cached: CacheMode,
    /// `--timeout=DURATION`: how long a filesystem request made for the
    /// listing may go unanswered before it is given up with ETIMEDOUT.
    /// `None` is no limit: the default, and also `--timeout=0` and
    /// `--timeout=inf`. A finite value is at least 1 ns and at most
    /// [`crate::cli::duration::LONGEST`] (about 136 years; longer ones are
    /// clamped to it), so adding it to a clock reading cannot overflow.
    pub timeout: Option<std::time::Duration>,
    /// The GNU ls release emulated, and so its behaviours.
    pub gnu: Gnu,
}

/// How the stats and xattr probes of one directory's entries are issued.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ProbeConcurrency {
    /// Overlapped on network and FUSE filesystems, where each request is a
    /// round-trip; one at a time on local ones, where threads only cost.
    Auto,
    /// One at a time, by name, everywhere.
    Sequential,
    /// Overlapped this many ways (as `STATLS_THREADS` says: `parallel`
    /// caps it), through `O_PATH` handles, everywhere.
    Forced(usize),
}

impl Config {
    /// Parses the command line (`argv[0]` included) exactly as the emulated GNU ls
    /// does and resolves the environment. Diagnostics are printed to
    /// stderr; `Err` carries the exit status (0 after `--help` and
    /// `--version`, which are printed to stdout).
    pub fn load(args: Vec<OsString>) -> Result<Config, i32> {
        let argv0 = args.first().map(|a| a.as_bytes()).unwrap_or(b"ls");
        crate::cli::set_program_name(argv0);
        // The release emulated decides everything below, the option table
        // first: it is read before anything else.
        let (gnu, warning) = Gnu::from_env(
            std::env::var_os("STATLS_GNU_VERSION")
                .as_deref()
                .map(|v| v.as_bytes()),
        );
        if let Some(warning) = warning {
            let mut line = crate::cli::program_name().to_vec();
            line.extend_from_slice(format!(": {warning}\n").as_bytes());
            let _ = std::io::Write::write_all(&mut std::io::stderr(), &line);
        }
        let locale = crate::sys::locale::init();
        if gnu.has(Behaviour::GnulibTextDomain) {
            crate::sys::intl::use_gnulib_domain();
        }
        crate::format::time::set_strftime_dialect(
            !gnu.has(Behaviour::StrftimePercentIsLiteral),
            gnu.has(Behaviour::StrftimeOIsPlainOnNumbers),
        );
        if gnu.has(Behaviour::UnmeasurableNamesHaveNoWidth) {
            crate::sys::mbwidth::reject_unprintable();
        }
        if gnu.has(Behaviour::ShellQuotingEdgeFix) {
            crate::format::quote::with_fresh_shell_second_pass();
        }
        if gnu.has(Behaviour::Gb18030FallbackQuotesDropped) {
            crate::format::quote::without_gb18030_quotes();
        }
        if gnu.has(Behaviour::DiagnosticsUseBaseName) {
            crate::cli::errors_use_base_name();
            crate::sys::alloc::diagnostics_use_base_name();
        }
        let stdout_tty = crate::sys::term::stdout_is_tty();
        let var = |name: &str| std::env::var_os(name);
        let env = resolve::Environment {
            var: &var,
            stdout_tty,
            terminal_width: if stdout_tty {
                crate::sys::term::terminal_width()
            } else {
                None
            },
            locale,
            gnu,
        };
        let mut out = crate::sys::stdout::RawStdout;
        let stderr = std::io::stderr();
        let mut err = stderr.lock();
        let mut io = resolve::Streams {
            out: &mut out,
            err: &mut err,
        };
        resolve::load_with(args.get(1..).unwrap_or_default(), &env, &mut io)
    }
}

#[cfg(test)]
mod tests;
