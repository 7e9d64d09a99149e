//! The resolved configuration: one plain struct built once from the command
//! line and the environment, then passed around by `&Config`.
//!
//! Everything GNU decides from option order, option interplay (`-f` implies
//! `-a -U`, the last of `-1/-C/-x/-m/-l` wins, …) and environment variables
//! is settled here, so later stages never look at arguments or `getenv`.
#![forbid(unsafe_code)]

use std::ffi::OsString;

use crate::format::color::ColorTable;
use crate::format::quote::QuotingStyle;
use crate::format::size::SizeFormat;
use crate::format::time::TimeStyle;

/// How entries are laid out (`--format`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// `-l`: one entry per line with metadata.
    Long,
    /// `-1`: one name per line.
    OneLine,
    /// `-C`: columns, filled top to bottom.
    Vertical,
    /// `-x`: columns, filled left to right.
    Horizontal,
    /// `-m`: comma separated.
    Commas,
}

/// Which entries whose names start with `.` are listed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Hidden {
    /// Default: no dot files.
    Skip,
    /// `-A`: dot files but not `.` and `..`.
    AlmostAll,
    /// `-a`: everything, `.` and `..` included.
    All,
}

/// `--sort` keys.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SortKey {
    Name,
    None,
    Size,
    Time,
    Version,
    Extension,
    Width,
}

/// Which timestamp is shown and/or sorted by (`-u`, `-c`, `--time`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TimeField {
    Modification,
    Access,
    Change,
    Birth,
}

/// `--indicator-style`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum IndicatorStyle {
    None,
    /// `-p`: `/` after directories.
    Slash,
    /// `--file-type`: like classify without `*`.
    FileType,
    /// `-F`: `*/=>@|`.
    Classify,
}

/// When symbolic links are followed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dereference {
    /// `-l`, `-d`, `-F`, … without `-H`/`-L`: never.
    Never,
    /// `-H`: command-line operands only.
    CommandLine,
    /// The default without `-l`/`-d`/`-F`/`--color`-less classifying: command
    /// line symlinks that point to directories are listed as directories.
    CommandLineDirs,
    /// `-L`: always.
    Always,
}

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
    /// Whether the locale's character set is UTF-8 (affects what counts as
    /// printable and the width of names).
    pub utf8: bool,
    pub locale: crate::fs::locale::LocaleInfo,
    /// Operands in command-line order; empty means `.`.
    pub operands: Vec<OsString>,
}

impl Config {
    /// Whether any per-entry metadata column is printed (long format, `-s`,
    /// `-i`): callers use it to decide on the `total` line and alignment.
    pub fn is_long(&self) -> bool {
        self.format == Format::Long
    }
}

impl Config {
    /// TEMPORARY minimal loader (replaced by the cli branch).
    pub fn load(args: Vec<OsString>) -> Result<Config, i32> {
        let locale = crate::fs::locale::init();
        let tty = crate::fs::term::stdout_is_tty();
        let mut c = Config {
            format: if tty { Format::Vertical } else { Format::OneLine },
            hidden: Hidden::Skip,
            ignore_backups: false,
            ignore: vec![],
            hide: vec![],
            directory: false,
            recursive: false,
            dereference: Dereference::CommandLineDirs,
            sort: SortKey::Name,
            reverse: false,
            group_directories_first: false,
            time: TimeField::Modification,
            quoting: if tty { QuotingStyle::ShellEscape } else { QuotingStyle::Literal },
            hide_control_chars: tty,
            indicator: IndicatorStyle::None,
            color: None,
            hyperlink: false,
            zero: false,
            width: crate::fs::term::terminal_width().unwrap_or(80),
            tabsize: 8,
            long: LongOptions { owner: true, group: true, author: false, numeric_ids: false, time_style: TimeStyle::Locale },
            inode: false,
            size_blocks: false,
            block_size: SizeFormat {},
            file_size: SizeFormat {},
            dired: false,
            context: false,
            utf8: locale.utf8,
            locale,
            operands: vec![],
        };
        for a in args.into_iter().skip(1) {
            match a.to_str() {
                Some("-l") => c.format = Format::Long,
                Some("-1") => c.format = Format::OneLine,
                Some("-C") => c.format = Format::Vertical,
                Some("-x") => c.format = Format::Horizontal,
                Some("-m") => c.format = Format::Commas,
                Some("-a") => c.hidden = Hidden::All,
                Some("-A") => c.hidden = Hidden::AlmostAll,
                Some("-R") => c.recursive = true,
                Some("-d") => c.directory = true,
                Some("-r") => c.reverse = true,
                Some("-t") => c.sort = SortKey::Time,
                Some("-S") => c.sort = SortKey::Size,
                Some("-X") => c.sort = SortKey::Extension,
                Some("-v") => c.sort = SortKey::Version,
                Some("-U") => c.sort = SortKey::None,
                Some("-i") => c.inode = true,
                Some("-s") => c.size_blocks = true,
                Some("-F") => c.indicator = IndicatorStyle::Classify,
                Some("-p") => c.indicator = IndicatorStyle::Slash,
                Some("-L") => c.dereference = Dereference::Always,
                _ => c.operands.push(a),
            }
        }
        Ok(c)
    }
}
