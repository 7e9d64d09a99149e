//! Replaying options in command-line order into GNU's intermediate state
//! (the "last one wins" variables), validating option arguments as they
//! come, exactly when GNU does.
#![forbid(unsafe_code)]

use std::ffi::OsString;
use std::os::unix::ffi::OsStrExt;
use std::time::Duration;

use crate::cli::args;
use crate::cli::OptId;
use crate::format::size::SizeFormat;
use crate::gnu::{Behaviour, Gnu};
use crate::options::QuotingStyle;
use crate::options::When;
use crate::options::{Dereference, Format, Hidden, IndicatorStyle, SortKey, TimeField};
use crate::sys::charset::Charset;
use crate::sys::stat::CacheMode;

/// What the options said, before defaults and the environment are applied.
/// `None` means "not given".
#[derive(Clone, Debug)]
pub struct Switches {
    pub format: Option<Format>,
    pub hidden: Hidden,
    pub ignore_backups: bool,
    pub ignore: Vec<Vec<u8>>,
    pub hide: Vec<Vec<u8>>,
    pub directory: bool,
    pub recursive: bool,
    pub dereference: Option<Dereference>,
    pub sort: Option<SortKey>,
    pub reverse: bool,
    pub group_directories_first: bool,
    pub time: TimeField,
    pub explicit_time: bool,
    pub quoting: Option<QuotingStyle>,
    pub hide_control_chars: Option<bool>,
    pub indicator: IndicatorStyle,
    pub color: bool,
    pub hyperlink: bool,
    pub zero: bool,
    pub width: Option<usize>,
    pub tabsize: Option<usize>,
    pub owner: bool,
    pub group: bool,
    pub author: bool,
    pub numeric_ids: bool,
    pub time_style: Option<OsString>,
    pub inode: bool,
    pub size_blocks: bool,
    /// `-h`/`--si`/`--block-size`: the spec for both sizes and blocks.
    pub size_spec: Option<String>,
    pub kibibytes: bool,
    pub dired: bool,
    pub context: bool,
    /// `--json`.
    pub json: bool,
    /// `--cached=MODE` (`None`: `LS_CACHED` or the default decides).
    pub cached: Option<CacheMode>,
    /// `--timeout=DURATION`, the last given (`None`: no limit).
    pub timeout: Option<Duration>,
    /// The GNU ls release whose option semantics apply.
    pub gnu: Gnu,
}

impl Switches {
    /// No option given yet, for the emulated release.
    pub fn new(gnu: Gnu) -> Switches {
        Switches {
            gnu,
            ..Switches::default()
        }
    }
}

impl Default for Switches {
    fn default() -> Switches {
        Switches {
            gnu: Gnu::default(),
            format: None,
            hidden: Hidden::Skip,
            ignore_backups: false,
            ignore: Vec::new(),
            hide: Vec::new(),
            directory: false,
            recursive: false,
            dereference: None,
            sort: None,
            reverse: false,
            group_directories_first: false,
            time: TimeField::Modification,
            explicit_time: false,
            quoting: None,
            hide_control_chars: None,
            indicator: IndicatorStyle::None,
            color: false,
            hyperlink: false,
            zero: false,
            width: None,
            tabsize: None,
            owner: true,
            group: true,
            author: false,
            numeric_ids: false,
            time_style: None,
            inode: false,
            size_blocks: false,
            size_spec: None,
            kibibytes: false,
            dired: false,
            context: false,
            json: false,
            cached: None,
            timeout: None,
        }
    }
}

/// Why replaying stopped early.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Stop {
    Help,
    Version,
    /// A fatal diagnostic (without `ls: `), the exit status, and whether
    /// the "Try 'ls --help'" line follows.
    Fatal {
        message: Vec<u8>,
        status: i32,
        try_help: bool,
    },
}

fn fatal(message: Vec<u8>, status: i32, try_help: bool) -> Stop {
    Stop::Fatal {
        message,
        status,
        try_help,
    }
}

/// Matches an enumerated argument, or the "invalid argument" stop (exit 1,
/// as GNU's argmatch options).
fn word<T: Copy + PartialEq>(
    v: &[u8],
    option: &str,
    table: &[(&str, T)],
    charset: Charset,
) -> Result<T, Stop> {
    args::argmatch(v, table).map_err(|e| {
        fatal(
            args::argmatch_message(e, v, option, table, charset),
            1,
            true,
        )
    })
}

/// `--color`, `--hyperlink`, `--classify`: no argument means always.
fn when(v: Option<&[u8]>, option: &str, tty: bool, charset: Charset) -> Result<bool, Stop> {
    let w = match v {
        None => When::Always,
        Some(v) => word(v, option, args::WHEN_ARGS, charset)?,
    };
    Ok(w == When::Always || (w == When::Auto && tty))
}

impl Switches {
    /// Applies one option; `tty` is whether stdout is a terminal.
    pub fn apply(
        &mut self,
        id: OptId,
        value: Option<&OsString>,
        tty: bool,
        charset: Charset,
    ) -> Result<(), Stop> {
        let v = value.map(|v| v.as_bytes());
        let arg = v.unwrap_or_default();
        match id {
            OptId::All => self.hidden = Hidden::All,
            OptId::AlmostAll => self.hidden = Hidden::AlmostAll,
            OptId::Escape => self.quoting = Some(QuotingStyle::Escape),
            OptId::Literal => self.quoting = Some(QuotingStyle::Literal),
            OptId::QuoteName => self.quoting = Some(QuotingStyle::C),
            OptId::QuotingStyle => {
                self.quoting = Some(word(arg, "--quoting-style", args::QUOTING_ARGS, charset)?)
            }
            OptId::Ctime => self.set_time(TimeField::Change),
            OptId::Atime => self.set_time(TimeField::Access),
            OptId::Time => self.set_time(word(arg, "--time", &args::time_args(self.gnu), charset)?),
            OptId::Directory => self.directory = true,
            OptId::Dired => {
                self.dired = true;
                if self.gnu.has(Behaviour::DiredImpliesLong) {
                    self.format = Some(Format::Long);
                    self.hyperlink = false;
                }
            }
            OptId::Unsorted => self.unsorted(),
            OptId::FileType => self.indicator = IndicatorStyle::FileType,
            OptId::Slash => self.indicator = IndicatorStyle::Slash,
            OptId::IndicatorStyle => {
                self.indicator = word(arg, "--indicator-style", args::INDICATOR_ARGS, charset)?
            }
            OptId::Classify => {
                if when(v, "--classify", tty, charset)? {
                    self.indicator = IndicatorStyle::Classify;
                }
            }
            OptId::Color => self.color = when(v, "--color", tty, charset)?,
            OptId::Hyperlink => self.hyperlink = when(v, "--hyperlink", tty, charset)?,
            OptId::Long => self.format = Some(Format::Long),
            OptId::LongNoOwner => {
                self.format = Some(Format::Long);
                self.owner = false;
            }
            OptId::LongNoGroup => {
                self.format = Some(Format::Long);
                self.group = false;
            }
            OptId::NumericUidGid => {
                self.format = Some(Format::Long);
                self.numeric_ids = true;
            }
            OptId::NoGroup => self.group = false,
            OptId::Commas => self.format = Some(Format::Commas),
            OptId::Across => self.format = Some(Format::Horizontal),
            OptId::Columns => self.format = Some(Format::Vertical),
            OptId::OnePerLine => {
                if self.format != Some(Format::Long) {
                    self.format = Some(Format::OneLine);
                }
            }
            OptId::Format => self.format = Some(word(arg, "--format", args::FORMAT_ARGS, charset)?),
            OptId::FullTime => {
                self.format = Some(Format::Long);
                self.time_style = Some(OsString::from("full-iso"));
            }
            OptId::TimeStyle => self.time_style = value.cloned(),
            OptId::HumanReadable => self.size_spec = Some("human-readable".into()),
            OptId::Si => self.size_spec = Some("si".into()),
            OptId::BlockSize => self.block_size(arg)?,
            OptId::Kibibytes => self.kibibytes = true,
            OptId::Inode => self.inode = true,
            OptId::Size => self.size_blocks = true,
            OptId::HideControlChars => self.hide_control_chars = Some(true),
            OptId::ShowControlChars => self.hide_control_chars = Some(false),
            OptId::Reverse => self.reverse = true,
            OptId::Recursive => self.recursive = true,
            OptId::SortTime => self.sort = Some(SortKey::Time),
            OptId::SortSize => self.sort = Some(SortKey::Size),
            OptId::SortNone => self.sort = Some(SortKey::None),
            OptId::SortVersion => self.sort = Some(SortKey::Version),
            OptId::SortExtension => self.sort = Some(SortKey::Extension),
            OptId::Sort => {
                self.sort = Some(word(arg, "--sort", args::sort_args(self.gnu), charset)?)
            }
            OptId::GroupDirectoriesFirst => self.group_directories_first = true,
            OptId::Width => self.width = Some(width(arg, charset, self.gnu)?),
            OptId::Tabsize => {
                self.tabsize =
                    Some(args::decode_tabsize(arg, charset).map_err(|m| fatal(m, 2, false))?)
            }
            OptId::IgnoreBackups => self.ignore_backups = true,
            OptId::Ignore => self.ignore.push(arg.to_vec()),
            OptId::Hide => self.hide.push(arg.to_vec()),
            OptId::DerefCommandLine => self.dereference = Some(Dereference::CommandLine),
            OptId::DerefCommandLineSymlinkToDir => {
                self.dereference = Some(Dereference::CommandLineDirs)
            }
            OptId::Dereference => self.dereference = Some(Dereference::Always),
            OptId::Zero => self.zero(),
            OptId::Context => self.context = true,
            OptId::Author => self.author = true,
            OptId::Json => self.json = true,
            // GNU stat's option, with its argmatch diagnostic and status.
            OptId::Cached => self.cached = Some(word(arg, "--cached", args::CACHED_ARGS, charset)?),
            OptId::Timeout => self.timeout = timeout(arg)?,
            OptId::Help => return Err(Stop::Help),
            OptId::Version => return Err(Stop::Version),
        }
        Ok(())
    }

    fn set_time(&mut self, t: TimeField) {
        self.time = t;
        self.explicit_time = true;
    }

    /// `-f`: all entries, unsorted; before 9.6 it also cancels an earlier
    /// -l, -s, colours and links.
    fn unsorted(&mut self) {
        self.hidden = Hidden::All;
        self.sort = Some(SortKey::None);
        if self.gnu.has(Behaviour::UnsortedIsJustAllUnsorted) {
            return;
        }
        if self.format == Some(Format::Long) {
            self.format = None;
        }
        self.size_blocks = false;
        self.color = false;
        self.hyperlink = false;
    }

    /// `--zero`: NUL terminators, one per line unless long, no colours,
    /// names shown literally.
    fn zero(&mut self) {
        self.zero = true;
        self.hide_control_chars = Some(false);
        if self.format != Some(Format::Long) {
            self.format = Some(Format::OneLine);
        }
        self.color = false;
        self.quoting = Some(QuotingStyle::Literal);
    }

    fn block_size(&mut self, arg: &[u8]) -> Result<(), Stop> {
        let spec = String::from_utf8_lossy(arg).into_owned();
        match SizeFormat::parse(&spec) {
            Ok(_) => {
                self.size_spec = Some(spec);
                Ok(())
            }
            Err(e) => Err(fatal(super::messages::block_size(&e, arg), 2, false)),
        }
    }
}

fn width(arg: &[u8], charset: Charset, gnu: Gnu) -> Result<usize, Stop> {
    args::decode_line_length(arg, gnu).ok_or_else(|| {
        fatal(
            super::messages::labelled("invalid line width", arg, charset),
            2,
            false,
        )
    })
}

/// `--timeout`: read as timeout(1) reads a DURATION, with LC_NUMERIC's
/// decimal point as well as `.`; rejected as gnulib's xstrtol_fatal
/// rejects a bad number (`--block-size`'s words, status 2, no Try line).
fn timeout(arg: &[u8]) -> Result<Option<Duration>, Stop> {
    let point = &crate::sys::numeric::numeric().decimal_point;
    crate::cli::duration::decode_timeout(arg, point)
        .map_err(|_| fatal(super::messages::invalid_argument("timeout", arg), 2, false))
}
