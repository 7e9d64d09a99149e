//! GNU ls's options, 8.32 to 9.10: the long options in the order of GNU's
//! table (the order in which `getopt_long` lists ambiguous candidates, the
//! same in every release), then our extensions (`--json`, `--cached`,
//! `--timeout`), then
//! the short-only ones, each with our own one-line description. Which of
//! them the emulated release has, and with what argument, is asked of
//! [`OptSpec::exists_in`] and [`OptSpec::arg_in`].
#![forbid(unsafe_code)]

use crate::gnu::{Behaviour, Gnu};

/// Whether an option takes an argument (the long form; a short form takes
/// one only when it is `Required`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ArgKind {
    None,
    Required,
    /// Only as `--name=VALUE`.
    Optional,
}

/// Every distinct option.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OptId {
    All,
    Escape,
    Directory,
    Dired,
    FullTime,
    GroupDirectoriesFirst,
    HumanReadable,
    Inode,
    Kibibytes,
    NumericUidGid,
    NoGroup,
    HideControlChars,
    Reverse,
    Size,
    Width,
    AlmostAll,
    IgnoreBackups,
    Classify,
    FileType,
    Si,
    DerefCommandLine,
    DerefCommandLineSymlinkToDir,
    Hide,
    Ignore,
    IndicatorStyle,
    Dereference,
    Literal,
    QuoteName,
    QuotingStyle,
    Recursive,
    Format,
    ShowControlChars,
    Sort,
    Tabsize,
    Time,
    TimeStyle,
    Zero,
    Color,
    Hyperlink,
    BlockSize,
    Context,
    Author,
    Help,
    Version,
    /// `--json`: not GNU's. No GNU long option starts with `j`, so every
    /// abbreviation GNU accepted still means what it meant.
    Json,
    /// `--cached=MODE`: not GNU ls's (GNU stat's). No GNU ls long option
    /// starts with `ca`, so every abbreviation GNU accepted still means
    /// what it meant.
    Cached,
    /// `--timeout=DURATION`: not GNU's. Every prefix of it that GNU ls
    /// knew (`--t`, `--ti`, `--tim`) was already ambiguous between
    /// `--time` and `--time-style`, and `--time` stays exact.
    Timeout,
    /// `-c`
    Ctime,
    /// `-f`
    Unsorted,
    /// `-g`
    LongNoOwner,
    /// `-l`
    Long,
    /// `-m`
    Commas,
    /// `-o`
    LongNoGroup,
    /// `-p`
    Slash,
    /// `-t`
    SortTime,
    /// `-u`
    Atime,
    /// `-v`
    SortVersion,
    /// `-x`
    Across,
    /// `-C`
    Columns,
    /// `-S`
    SortSize,
    /// `-U`
    SortNone,
    /// `-X`
    SortExtension,
    /// `-1`
    OnePerLine,
}

/// One row of the table.
#[derive(Clone, Copy, Debug)]
pub struct OptSpec {
    pub id: OptId,
    /// clap id.
    pub key: &'static str,
    pub long: Option<&'static str>,
    pub short: Option<char>,
    pub arg: ArgKind,
    /// Argument name in the help text.
    pub value_name: &'static str,
    pub help: &'static str,
}

const fn o(
    id: OptId,
    key: &'static str,
    long: Option<&'static str>,
    short: Option<char>,
    arg: ArgKind,
    value_name: &'static str,
    help: &'static str,
) -> OptSpec {
    OptSpec {
        id,
        key,
        long,
        short,
        arg,
        value_name,
        help,
    }
}

use ArgKind::{None as N, Optional as Opt, Required as Req};

/// The table. Long options come first, in GNU's order.
pub static OPTIONS: &[OptSpec] = &[
    o(OptId::All, "all", Some("all"), Some('a'), N, "", "show every entry, dot files, . and .. included"),
    o(OptId::Escape, "escape", Some("escape"), Some('b'), N, "", "write non-graphic characters as C escapes"),
    o(OptId::Directory, "directory", Some("directory"), Some('d'), N, "", "list directories themselves, not their contents"),
    o(OptId::Dired, "dired", Some("dired"), Some('D'), N, "", "with -l, add name offsets for Emacs dired"),
    o(OptId::FullTime, "full-time", Some("full-time"), None, N, "", "long format with full-iso timestamps"),
    o(OptId::GroupDirectoriesFirst, "group-directories-first", Some("group-directories-first"), None, N, "", "put directories before other files\n                               (not with --sort=none or -U)"),
    o(OptId::HumanReadable, "human-readable", Some("human-readable"), Some('h'), N, "", "sizes with 1024-based unit suffixes (1K 20M 3G)"),
    o(OptId::Inode, "inode", Some("inode"), Some('i'), N, "", "show inode numbers"),
    o(OptId::Kibibytes, "kibibytes", Some("kibibytes"), Some('k'), N, "", "count -s blocks and totals in KiB"),
    o(OptId::NumericUidGid, "numeric-uid-gid", Some("numeric-uid-gid"), Some('n'), N, "", "long format with numeric owner and group ids"),
    o(OptId::NoGroup, "no-group", Some("no-group"), Some('G'), N, "", "omit the group column of the long format"),
    o(OptId::HideControlChars, "hide-control-chars", Some("hide-control-chars"), Some('q'), N, "", "show non-graphic characters as '?'"),
    o(OptId::Reverse, "reverse", Some("reverse"), Some('r'), N, "", "reverse the sort order"),
    o(OptId::Size, "size", Some("size"), Some('s'), N, "", "show allocated space in blocks"),
    o(OptId::Width, "width", Some("width"), Some('w'), Req, "COLS", "assume the screen is COLS wide (0: unlimited)"),
    o(OptId::AlmostAll, "almost-all", Some("almost-all"), Some('A'), N, "", "show dot files but not . and .."),
    o(OptId::IgnoreBackups, "ignore-backups", Some("ignore-backups"), Some('B'), N, "", "skip names ending in ~"),
    o(OptId::Classify, "classify", Some("classify"), Some('F'), Opt, "WHEN", "mark entries with one of */=>@| (see WHEN)"),
    o(OptId::FileType, "file-type", Some("file-type"), None, N, "", "like --classify but without '*'"),
    o(OptId::Si, "si", Some("si"), None, N, "", "like -h with powers of 1000"),
    o(OptId::DerefCommandLine, "dereference-command-line", Some("dereference-command-line"), Some('H'), N, "", "follow symbolic links named as operands"),
    o(OptId::DerefCommandLineSymlinkToDir, "dereference-command-line-symlink-to-dir", Some("dereference-command-line-symlink-to-dir"), None, N, "", "follow operand symlinks that lead to directories"),
    o(OptId::Hide, "hide", Some("hide"), None, Req, "PATTERN", "skip names matching PATTERN (unless -a/-A)"),
    o(OptId::Ignore, "ignore", Some("ignore"), Some('I'), Req, "PATTERN", "skip names matching the shell PATTERN"),
    o(OptId::IndicatorStyle, "indicator-style", Some("indicator-style"), None, Req, "STYLE", "name suffixes: none, slash, file-type, classify"),
    o(OptId::Dereference, "dereference", Some("dereference"), Some('L'), N, "", "describe symbolic link targets, not the links"),
    o(OptId::Literal, "literal", Some("literal"), Some('N'), N, "", "print names as they are, without quoting"),
    o(OptId::QuoteName, "quote-name", Some("quote-name"), Some('Q'), N, "", "put names in double quotes"),
    o(OptId::QuotingStyle, "quoting-style", Some("quoting-style"), None, Req, "STYLE", "literal, locale, shell, shell-always, shell-escape,\n                               shell-escape-always, c, escape\n                               (takes precedence over QUOTING_STYLE)"),
    o(OptId::Recursive, "recursive", Some("recursive"), Some('R'), N, "", "descend into subdirectories"),
    o(OptId::Format, "format", Some("format"), None, Req, "WORD", "layout: across, commas, horizontal, long,\n                               single-column, verbose, vertical"),
    o(OptId::ShowControlChars, "show-control-chars", Some("show-control-chars"), None, N, "", "print non-graphic characters unchanged"),
    o(OptId::Sort, "sort", Some("sort"), None, Req, "KEY", "sort key: none, size, time, version, extension, width"),
    o(OptId::Tabsize, "tabsize", Some("tabsize"), Some('T'), Req, "COLS", "tab stops every COLS columns (default 8)"),
    o(OptId::Time, "time", Some("time"), None, Req, "WHICH", "timestamp to show and sort by: atime/access/use,\n                               ctime/status, birth/creation"),
    o(OptId::TimeStyle, "time-style", Some("time-style"), None, Req, "STYLE", "full-iso, long-iso, iso, locale or +FORMAT\n                               (optionally prefixed by posix-)"),
    o(OptId::Zero, "zero", Some("zero"), None, N, "", "end each line with a NUL byte"),
    o(OptId::Color, "color", Some("color"), None, Opt, "WHEN", "colour names by type (see WHEN)"),
    o(OptId::Hyperlink, "hyperlink", Some("hyperlink"), None, Opt, "WHEN", "make names file:// hyperlinks (see WHEN)"),
    o(OptId::BlockSize, "block-size", Some("block-size"), None, Req, "SIZE", "show sizes in units of SIZE (e.g. K, M, 1000)"),
    o(OptId::Context, "context", Some("context"), Some('Z'), N, "", "show security contexts"),
    o(OptId::Author, "author", Some("author"), None, N, "", "long format with an author column"),
    o(OptId::Help, "help", Some("help"), None, N, "", "print this text"),
    o(OptId::Version, "version", Some("version"), None, N, "", "print the version"),
    o(OptId::Json, "json", Some("json"), None, N, "", "one JSON object per entry per line (NDJSON);\n                               -l, -i, -s, -Z choose the fields"),
    o(OptId::Cached, "cached", Some("cached"), None, Req, "MODE", "attributes from the network client's cache: always,\n                               never (ask the server), default (as GNU ls)"),
    o(OptId::Timeout, "timeout", Some("timeout"), None, Req, "DURATION", "give up a file system request unanswered after\n                               DURATION (0: never, the default)"),
    o(OptId::Ctime, "c", None, Some('c'), N, "", "use status change times (sorting by it unless -l)"),
    o(OptId::Unsorted, "f", None, Some('f'), N, "", "all entries, unsorted; cancels -l, -s, --color"),
    o(OptId::LongNoOwner, "g", None, Some('g'), N, "", "long format without the owner column"),
    o(OptId::Long, "l", None, Some('l'), N, "", "long format"),
    o(OptId::Commas, "m", None, Some('m'), N, "", "names separated by commas"),
    o(OptId::LongNoGroup, "o", None, Some('o'), N, "", "long format without the group column"),
    o(OptId::Slash, "p", None, Some('p'), N, "", "put '/' after directory names"),
    o(OptId::SortTime, "t", None, Some('t'), N, "", "sort by time, newest first"),
    o(OptId::Atime, "u", None, Some('u'), N, "", "use access times (sorting by it unless -l)"),
    o(OptId::SortVersion, "v", None, Some('v'), N, "", "sort numbers within names naturally"),
    o(OptId::Across, "x", None, Some('x'), N, "", "columns filled row by row"),
    o(OptId::Columns, "C", None, Some('C'), N, "", "columns filled top to bottom"),
    o(OptId::SortSize, "S", None, Some('S'), N, "", "sort by size, largest first"),
    o(OptId::SortNone, "U", None, Some('U'), N, "", "do not sort"),
    o(OptId::SortExtension, "X", None, Some('X'), N, "", "sort by extension"),
    o(OptId::OnePerLine, "1", None, Some('1'), N, "", "one name per line"),
];

impl OptSpec {
    /// Whether the emulated GNU ls has this option (`--zero` came in 9.0).
    pub fn exists_in(&self, gnu: Gnu) -> bool {
        match self.id {
            OptId::Zero => gnu.has(Behaviour::ZeroOption),
            _ => true,
        }
    }

    /// The argument this option takes in the emulated GNU ls
    /// (`--classify` took none before 9.0).
    pub fn arg_in(&self, gnu: Gnu) -> ArgKind {
        match self.id {
            OptId::Classify if !gnu.has(Behaviour::ClassifyWhen) => ArgKind::None,
            _ => self.arg,
        }
    }
}

impl OptId {
    /// This option's row of [`OPTIONS`].
    pub fn spec(self) -> &'static OptSpec {
        OPTIONS.iter().find(|s| s.id == self).unwrap_or(&OPTIONS[0])
    }
}

impl OptId {
    /// Whether this option is ours alone (GNU ls 9.1 has no such option):
    /// never listed among the candidates of an ambiguous abbreviation, so
    /// GNU's diagnostics stay GNU's.
    pub fn is_extension(self) -> bool {
        matches!(self, OptId::Json | OptId::Cached | OptId::Timeout)
    }
}

/// The row whose short letter is `c`.
pub fn by_short(c: u8) -> Option<&'static OptSpec> {
    OPTIONS
        .iter()
        .find(|s| s.short.is_some_and(|x| x as u32 == c as u32))
}

fn option_label(spec: &OptSpec, gnu: Gnu) -> String {
    let mut s = match (spec.short, spec.long) {
        (Some(c), Some(l)) => format!("-{c}, --{l}"),
        (Some(c), None) => format!("-{c}"),
        (None, Some(l)) => format!("    --{l}"),
        (None, None) => String::new(),
    };
    match (spec.arg_in(gnu), spec.long.is_some()) {
        (ArgKind::Required, true) => s.push_str(&format!("={}", spec.value_name)),
        (ArgKind::Required, false) => s.push_str(&format!(" {}", spec.value_name)),
        (ArgKind::Optional, _) => s.push_str(&format!("[={}]", spec.value_name)),
        (ArgKind::None, _) => {}
    }
    s
}

/// Our `--help` text (our own wording; the option set of the emulated GNU
/// release).
pub fn help_text(prog: &str, gnu: Gnu) -> String {
    let mut rows: Vec<&OptSpec> = OPTIONS.iter().filter(|s| s.exists_in(gnu)).collect();
    rows.sort_by_key(|s| {
        let key = s
            .short
            .map(|c| c.to_string())
            .or(s.long.map(str::to_string))
            .unwrap_or_default();
        (
            key.to_ascii_lowercase(),
            key.chars().next().is_some_and(|c| c.is_ascii_uppercase()),
        )
    });
    let mut out = format!(
        "Usage: {prog} [OPTION]... [FILE]...\n\
         List the FILEs (the current directory when none is given), sorted by name\n\
         unless a sorting option says otherwise.\n\n"
    );
    for spec in rows {
        let label = option_label(spec, gnu);
        let help = match spec.id {
            OptId::Sort => sort_help(gnu),
            OptId::Time => time_help(gnu),
            _ => spec.help.to_string(),
        };
        if label.len() < 29 {
            out.push_str(&format!("  {label:<29}{help}\n"));
        } else {
            out.push_str(&format!("  {label}\n  {:<29}{help}\n", ""));
        }
    }
    out.push_str(&format!(
        "\nSIZE is a number with an optional unit: K, M, G, T, P, E, Z, Y (powers of\n\
         1024, also KiB, MiB, ...) or KB, MB, ... (powers of 1000).\n\
         WHEN is always (the default), auto (only on a terminal) or never.\n\
         FORMAT in +FORMAT is a strftime format; FORMAT1<newline>FORMAT2 gives the\n\
         format for old files and for recent ones. TIME_STYLE sets the default style,\n\
         LS_COLORS the colours, QUOTING_STYLE the quoting, COLUMNS the width.\n\n\
         MODE of --cached (default: LS_CACHED, else default) is for network file\n\
         systems: always takes sizes and times from the client's cache (the NFS\n\
         attribute cache, CephFS caps already held), so that -l sends no attribute\n\
         request and never slows a writer down, even if the values are a moment old;\n\
         never asks the server every time; default does what GNU ls does.\n\n\
         DURATION of --timeout is a number of seconds, maybe fractional, with an\n\
         optional unit: s, m (minutes), h (hours), d (days); 0 means no limit. A file\n\
         system request (stat, open, directory read, link read, xattr probe) still\n\
         unanswered after DURATION is given up, reported as failing with ETIMEDOUT\n\
         (\"Connection timed out\"), and the listing goes on. If no other request\n\
         of that directory answered meanwhile, its remaining requests are given up\n\
         too: a dead mount costs about one DURATION, not one per entry.\n\n\
         Exit status: 0 on success, 1 for minor trouble (e.g. an unreadable\n\
         subdirectory), 2 for serious trouble (e.g. a missing operand).\n\n\
         statls is compatible with ls {version} of GNU coreutils\n\
         (https://www.gnu.org/software/coreutils/): same options, output and status;\n\
         STATLS_GNU_VERSION chooses the release (8.32 to 9.10).\n",
        version = gnu.version
    ));
    out
}

/// The `--sort` words of the emulated release, in its order.
fn sort_help(gnu: Gnu) -> String {
    let words: Vec<&str> = crate::cli::args::sort_args(gnu)
        .iter()
        .map(|(w, _)| *w)
        .collect();
    format!("sort key: {}", words.join(", "))
}

/// The `--time` words of the emulated release.
fn time_help(gnu: Gnu) -> String {
    let words: Vec<&str> = crate::cli::args::time_args(gnu)
        .iter()
        .map(|(w, _)| *w)
        .collect();
    format!(
        "timestamp to show and sort by:\n{:31}{}",
        "",
        words.join(", ")
    )
}
