//! From options and environment to a [`Config`]: the defaults that depend
//! on stdout being a terminal, the environment variables (`COLUMNS`,
//! `TABSIZE`, `QUOTING_STYLE`, `TIME_STYLE`, `*BLOCK_SIZE`, `LS_COLORS`,
//! `TERM`, `COLORTERM`), and GNU's warnings and fatal errors, in GNU's
//! order.
#![forbid(unsafe_code)]

use std::ffi::OsString;
use std::io::Write;
use std::os::unix::ffi::OsStrExt;

use super::messages;
use super::switches::{Stop, Switches};
use super::ProbeConcurrency;
use super::{Config, LongOptions};
use crate::cli::{self, args};
use crate::format::color::ColorTable;
use crate::format::hyperlink::LinkStyle;
use crate::format::size::{BlockSizeError, SizeFormat};
use crate::format::time::{parse_time_style, TimeStyle};
use crate::gnu::{Behaviour, Gnu};
use crate::options::QuotingStyle;
use crate::options::{Dereference, Format, IndicatorStyle, SortKey};
use crate::sys::charset::Charset;
use crate::sys::locale::LocaleInfo;
use crate::sys::stat::CacheMode;

/// Everything besides argv that the configuration depends on, so that
/// tests can fake it.
pub struct Environment<'a> {
    /// `getenv`.
    pub var: &'a dyn Fn(&str) -> Option<OsString>,
    pub stdout_tty: bool,
    /// The terminal's width (TIOCGWINSZ), when stdout is a terminal.
    pub terminal_width: Option<usize>,
    pub locale: LocaleInfo,
    /// The GNU ls release emulated (`STATLS_GNU_VERSION`, read first).
    pub gnu: Gnu,
}

impl Environment<'_> {
    fn get(&self, name: &str) -> Option<Vec<u8>> {
        (self.var)(name).map(|v| v.as_bytes().to_vec())
    }
}

/// Where messages go.
pub struct Streams<'a> {
    pub out: &'a mut dyn Write,
    pub err: &'a mut dyn Write,
}

impl Streams<'_> {
    /// `ls: MESSAGE\n`, the message possibly spanning several lines.
    fn warn(&mut self, message: &[u8]) {
        let mut line = cli::error_name().to_vec();
        line.extend_from_slice(b": ");
        line.extend_from_slice(message);
        line.push(b'\n');
        let _ = self.err.write_all(&line);
    }

    fn try_help(&mut self) {
        let _ = self.err.write_all(&messages::try_help(cli::program_name()));
    }

    /// Prints a fatal diagnostic and returns its exit status.
    fn fatal(&mut self, stop: Stop, gnu: Gnu) -> i32 {
        match stop {
            Stop::Help => self.print(|out| cli::write_help(out, gnu)),
            Stop::Version => self.print(|out| cli::write_version(out, gnu)),
            Stop::Fatal {
                message,
                status,
                try_help,
            } => {
                self.warn(&message);
                if try_help {
                    self.try_help();
                }
                status
            }
        }
    }

    /// Writes `--help`/`--version`; a failed write is GNU's "write error".
    fn print(&mut self, f: impl FnOnce(&mut dyn Write) -> std::io::Result<()>) -> i32 {
        match f(self.out).and_then(|()| self.out.flush()) {
            Ok(()) => 0,
            Err(e) => {
                self.warn(&crate::error::write_error(&e));
                2
            }
        }
    }
}

/// Parses `args` (argv without `argv[0]`) and resolves the environment:
/// the whole of `Config::load` except process-global state.
pub fn load_with(args: &[OsString], env: &Environment, io: &mut Streams) -> Result<Config, i32> {
    let posix = env.get("POSIXLY_CORRECT").is_some();
    // Before 9.0 the layout variables were read, and warned about, first,
    // whatever the options then said.
    let early = (!env.gnu.has(Behaviour::LazyLayoutEnvironment)).then(|| EarlyEnvironment {
        quoting: env_quoting(env, io, env.locale.charset),
        columns: env_columns(env, io),
        tabsize: env_tabsize(env, io, env.locale.charset),
    });
    let parsed = cli::parse(args, posix, env.gnu);
    let charset = env.locale.charset;
    let mut sw = Switches::new(env.gnu);
    for occ in &parsed.options {
        if let Err(stop) = sw.apply(occ.id, occ.value.as_ref(), env.stdout_tty, charset) {
            return Err(io.fatal(stop, env.gnu));
        }
    }
    if let Some(e) = parsed.error {
        let _ = io.err.write_all(&e.line(cli::program_name()));
        io.try_help();
        return Err(2);
    }
    resolve(sw, parsed.operands, env, io, early)
}

/// `QUOTING_STYLE`, `COLUMNS` and `TABSIZE` as GNU ls 8.32 read them, at
/// start-up.
struct EarlyEnvironment {
    quoting: Option<QuotingStyle>,
    columns: Option<usize>,
    tabsize: usize,
}

fn resolve(
    mut sw: Switches,
    operands: Vec<OsString>,
    env: &Environment,
    io: &mut Streams,
    early: Option<EarlyEnvironment>,
) -> Result<Config, i32> {
    if sw.json {
        if let Some(layout) = json_conflict(&sw) {
            io.warn(format!("--json cannot be combined with {layout}").as_bytes());
            io.try_help();
            return Err(2);
        }
        // JSON carries no escape sequences: LS_COLORS is not even read.
        sw.color = false;
    }
    let utf8 = env.locale.utf8;
    let charset = env.locale.charset;
    let (block_size, file_size) = sizes(&sw, env).map_err(|e| {
        let spec = sw.size_spec.as_deref().unwrap_or_default();
        io.warn(&messages::block_size(&e, spec.as_bytes()));
        2
    })?;
    let format = sw.format.unwrap_or(if env.stdout_tty && !sw.json {
        Format::Vertical
    } else {
        Format::OneLine
    });
    let columns = matches!(
        format,
        Format::Vertical | Format::Horizontal | Format::Commas
    );
    let width = line_width(&sw, env, io, columns || sw.color, early.as_ref());
    let mut tabsize = sw.tabsize.unwrap_or(8);
    if columns && sw.tabsize.is_none() {
        tabsize = match &early {
            Some(e) => e.tabsize,
            None => env_tabsize(env, io, charset),
        };
    }
    let hide_control_chars = sw.hide_control_chars.unwrap_or(env.stdout_tty);
    let quoting = match sw.quoting {
        Some(q) => q,
        None => match &early {
            Some(e) => e.quoting,
            None => env_quoting(env, io, charset),
        }
        .unwrap_or(if env.stdout_tty {
            QuotingStyle::ShellEscape
        } else {
            QuotingStyle::Literal
        }),
    };
    let dired = sw.dired && format == Format::Long && !sw.hyperlink;
    if sw.zero && dired {
        io.warn(&crate::sys::intl::tr("--dired and --zero are incompatible"));
        return Err(2);
    }
    let sort = sw
        .sort
        .unwrap_or(if format != Format::Long && sw.explicit_time {
            SortKey::Time
        } else {
            SortKey::Name
        });
    let time_style = match format {
        Format::Long => long_time_style(&sw, env, io)?,
        _ => TimeStyle::Locale,
    };
    let color = if sw.color { color_table(env, io) } else { None };
    // Coloured columns are padded with spaces. Before 9.0, asking for
    // colour was enough, even when TERM or LS_COLORS then turned it off.
    let tabs_off = if env.gnu.has(Behaviour::TabsUnlessColored) {
        color.is_some()
    } else {
        sw.color
    };
    if tabs_off {
        tabsize = 0;
    }
    // `--cached` wins over `LS_CACHED`, which is only read without it.
    let cached = match sw.cached {
        Some(mode) => mode,
        None => {
            env_word(env, io, "LS_CACHED", args::CACHED_ARGS, charset).unwrap_or(CacheMode::Default)
        }
    };
    let dereference = sw.dereference.unwrap_or(
        if sw.directory || sw.indicator == IndicatorStyle::Classify || format == Format::Long {
            Dereference::Never
        } else {
            Dereference::CommandLineDirs
        },
    );
    Ok(Config {
        format,
        hidden: sw.hidden,
        ignore_backups: sw.ignore_backups,
        ignore: sw.ignore,
        hide: sw.hide,
        directory: sw.directory,
        recursive: sw.recursive,
        dereference,
        sort,
        reverse: sw.reverse,
        group_directories_first: sw.group_directories_first,
        time: sw.time,
        quoting,
        hide_control_chars,
        // The JSON `type` field says what an indicator would; the
        // dereference rule above still follows `-F` as the text output does.
        indicator: if sw.json {
            IndicatorStyle::None
        } else {
            sw.indicator
        },
        color,
        hyperlink: sw.hyperlink,
        link_style: LinkStyle {
            counted_links: env.gnu.has(Behaviour::HyperlinkCountsLinks),
            string_terminator: env.gnu.has(Behaviour::HyperlinkEndsWithST),
        },
        zero: sw.zero,
        width,
        tabsize,
        long: LongOptions {
            owner: sw.owner,
            group: sw.group,
            author: sw.author,
            numeric_ids: sw.numeric_ids,
            time_style,
        },
        inode: sw.inode,
        size_blocks: sw.size_blocks,
        block_size,
        file_size,
        dired,
        context: sw.context,
        json: sw.json,
        utf8,
        locale: env.locale,
        operands,
        probes: probe_concurrency(env),
        cached,
        timeout: sw.timeout,
        gnu: env.gnu,
    })
}

/// The layout option in effect that `--json` cannot be combined with, as
/// the message names it. Judged after the last-one-wins rules, as every
/// other option is: `-C -l --json` is a long JSON listing.
fn json_conflict(sw: &Switches) -> Option<&'static str> {
    match sw.format {
        Some(Format::Vertical) => Some("-C (--format=vertical)"),
        Some(Format::Horizontal) => Some("-x (--format=horizontal)"),
        Some(Format::Commas) => Some("-m (--format=commas)"),
        _ if sw.dired => Some("--dired"),
        _ if sw.zero => Some("--zero"),
        _ if sw.hyperlink => Some("--hyperlink"),
        _ => None,
    }
}

/// `STATLS_THREADS`: unset (or not a number) lets each directory's
/// filesystem decide; `1` (or `0`) probes one entry at a time everywhere;
/// `N` overlaps N probes on every filesystem (how tests exercise the
/// concurrent path on a local disk).
fn probe_concurrency(env: &Environment) -> ProbeConcurrency {
    let value = env.get("STATLS_THREADS");
    match value
        .as_deref()
        .and_then(|v| std::str::from_utf8(v).ok()?.parse::<usize>().ok())
    {
        None => ProbeConcurrency::Auto,
        Some(0 | 1) => ProbeConcurrency::Sequential,
        Some(n) => ProbeConcurrency::Forced(n),
    }
}

/// The size specs (for `-s`/`total`, for the `-l` size column), following
/// GNU: `-h`/`--si`/`--block-size` set both and silence the environment;
/// otherwise `LS_BLOCK_SIZE`, `BLOCK_SIZE`, `BLOCKSIZE` (the first set)
/// give the block unit, the first two also the size unit (else bytes), an
/// invalid value means the default (1024, or 512 under POSIXLY_CORRECT);
/// `-k` then forces 1024-byte blocks.
pub fn size_specs(sw: &Switches, env: &Environment) -> (String, String) {
    if let Some(spec) = &sw.size_spec {
        return (spec.clone(), spec.clone());
    }
    let default = if env.get("POSIXLY_CORRECT").is_some() {
        "512"
    } else {
        "1024"
    };
    let ls_bs = env.get("LS_BLOCK_SIZE");
    let bs = env.get("BLOCK_SIZE");
    let blocks = ls_bs
        .clone()
        .or_else(|| bs.clone())
        .or_else(|| env.get("BLOCKSIZE"))
        .and_then(|s| String::from_utf8(s).ok())
        .filter(|s| SizeFormat::parse(s).is_ok())
        .unwrap_or_else(|| default.to_string());
    let files = if ls_bs.is_some() || bs.is_some() {
        blocks.clone()
    } else {
        "1".to_string()
    };
    let blocks = if sw.kibibytes {
        "1024".to_string()
    } else {
        blocks
    };
    (blocks, files)
}

fn sizes(sw: &Switches, env: &Environment) -> Result<(SizeFormat, SizeFormat), BlockSizeError> {
    if sw.size_spec.is_some() {
        let (blocks, files) = size_specs(sw, env);
        return Ok((SizeFormat::parse(&blocks)?, SizeFormat::parse(&files)?));
    }
    // From the environment a bad value is never an error: GNU keeps what
    // its number parser made of it (`1e3` is 1, an overflow the maximum),
    // and only an unusable value means the default.
    let posixly_correct = env.get("POSIXLY_CORRECT").is_some();
    let ls_block_size = env.get("LS_BLOCK_SIZE");
    let block_size = env.get("BLOCK_SIZE");
    let value = ls_block_size
        .clone()
        .or_else(|| block_size.clone())
        .or_else(|| env.get("BLOCKSIZE"));
    let blocks = match value {
        Some(v) => SizeFormat::parse_env(&String::from_utf8_lossy(&v), posixly_correct),
        None if posixly_correct => SizeFormat::blocks_512(),
        None => SizeFormat::kib(),
    };
    let files = if ls_block_size.is_some() || block_size.is_some() {
        blocks.clone()
    } else {
        SizeFormat::bytes()
    };
    let blocks = if sw.kibibytes {
        SizeFormat::kib()
    } else {
        blocks
    };
    Ok((blocks, files))
}

/// `-w`, else (when the width matters) the terminal, then `COLUMNS`,
/// then 80.
fn line_width(
    sw: &Switches,
    env: &Environment,
    io: &mut Streams,
    needed: bool,
    early: Option<&EarlyEnvironment>,
) -> usize {
    if let Some(w) = sw.width {
        return w;
    }
    if !needed {
        return 80;
    }
    if let Some(w) = env.terminal_width.filter(|_| env.stdout_tty) {
        return w;
    }
    match early {
        Some(e) => e.columns,
        None => env_columns(env, io),
    }
    .unwrap_or(80)
}

/// `COLUMNS`, when set to a valid width (with GNU's warning otherwise).
fn env_columns(env: &Environment, io: &mut Streams) -> Option<usize> {
    let c = env.get("COLUMNS").filter(|c| !c.is_empty())?;
    let width = args::decode_line_length(&c, env.gnu);
    if width.is_none() {
        io.warn(&messages::with_quoted(
            "ignoring invalid width in environment variable COLUMNS: %s",
            &c,
            env.locale.charset,
        ));
    }
    width
}

fn env_tabsize(env: &Environment, io: &mut Streams, charset: Charset) -> usize {
    let Some(t) = env.get("TABSIZE") else {
        return 8;
    };
    args::decode_env_tabsize(&t).unwrap_or_else(|| {
        io.warn(&messages::with_quoted(
            "ignoring invalid tab size in environment variable TABSIZE: %s",
            &t,
            charset,
        ));
        8
    })
}

fn env_quoting(env: &Environment, io: &mut Streams, charset: Charset) -> Option<QuotingStyle> {
    env_word(env, io, "QUOTING_STYLE", args::QUOTING_ARGS, charset)
}

/// An environment variable holding an argmatch word (`QUOTING_STYLE`,
/// `LS_CACHED`): its value, or `None` when unset or invalid (with GNU's
/// warning).
fn env_word<T: Copy + PartialEq>(
    env: &Environment,
    io: &mut Streams,
    name: &str,
    table: &[(&str, T)],
    charset: Charset,
) -> Option<T> {
    let q = env.get(name)?;
    match args::argmatch(&q, table) {
        Ok(value) => Some(value),
        Err(_) => {
            // GNU's key names the variable (QUOTING_STYLE has a translation).
            let key = format!("ignoring invalid value of environment variable {name}: %s");
            io.warn(&messages::with_quoted(&key, &q, charset));
            None
        }
    }
}

/// `--time-style`/`--full-time` (the last), else `TIME_STYLE`, else
/// `locale`; only consulted for the long format, where an invalid style
/// is fatal (status 2).
fn long_time_style(sw: &Switches, env: &Environment, io: &mut Streams) -> Result<TimeStyle, i32> {
    let style = match &sw.time_style {
        Some(s) => s.as_bytes().to_vec(),
        None => env.get("TIME_STYLE").unwrap_or_else(|| b"locale".to_vec()),
    };
    parse_time_style(&style, env.locale.time_posix).map_err(|e| {
        io.warn(&messages::time_style(&e, &style, env.locale.charset));
        if e.wants_try_line() {
            io.try_help();
        }
        2
    })
}

/// The colour table once colour was asked for: `LS_COLORS` (non-empty),
/// else the built-in table if `COLORTERM`/`TERM` allow it (the colour
/// module decides); warnings about an unparsable `LS_COLORS` are printed
/// and leave colour off.
fn color_table(env: &Environment, io: &mut Streams) -> Option<ColorTable> {
    let ls_colors = env.get("LS_COLORS");
    let colorterm = env.get("COLORTERM");
    let term = env.get("TERM");
    let (table, warnings) = ColorTable::from_env_with(
        ls_colors.as_deref(),
        colorterm.as_deref(),
        term.as_deref(),
        env.gnu.has(Behaviour::ColorSuffixCaseSensitiveWhenDistinct),
    );
    for w in warnings {
        io.warn(&w.message(env.locale.charset));
    }
    table.map(|t| t.with_capabilities(env.gnu.has(Behaviour::CapabilityColor)))
}
