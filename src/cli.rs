//! The command-line definition: GNU ls 9.1's option table, turned into a
//! clap [`Command`], plus the program name used in diagnostics and the
//! `--help`/`--version` texts.
//!
//! GNU's `getopt_long` behaviour (abbreviations, permutation, clusters,
//! diagnostics) is emulated in [`getopt`], and [`parse`] returns its scan:
//! the options in command-line order and the operands. The clap
//! [`command`] is the declarative definition the completions and man page
//! are generated from; tests check that it parses every scan's normalized
//! form to the same options.
#![forbid(unsafe_code)]

pub mod args;
pub mod duration;
pub mod getopt;
mod table;

use std::ffi::OsString;
use std::io::Write;
use std::sync::OnceLock;

use clap::{Arg, ArgAction, Command};

use crate::gnu::Gnu;

pub use table::{ArgKind, OptId, OptSpec, OPTIONS};

static PROGRAM_NAME: OnceLock<Vec<u8>> = OnceLock::new();

/// Records the program name (`argv[0]` as given) once; later calls are no-ops.
pub fn set_program_name(argv0: &[u8]) {
    let _ = PROGRAM_NAME.set(argv0.to_vec());
}

/// The program name as given: what getopt's messages, the `Try '%s
/// --help'` line and `--help` show (`/bin/ls` when run as `/bin/ls`), `ls`
/// before it is set.
pub fn program_name() -> &'static [u8] {
    PROGRAM_NAME.get().map(Vec::as_slice).unwrap_or(b"ls")
}

static ERRORS_USE_BASE_NAME: std::sync::atomic::AtomicBool =
    std::sync::atomic::AtomicBool::new(false);

/// From 9.7 on, `error()` diagnostics start with the program's base name
/// (`ls: ...` when run as `/bin/ls`); set once at start-up.
pub fn errors_use_base_name() {
    ERRORS_USE_BASE_NAME.store(true, std::sync::atomic::Ordering::Relaxed);
}

/// The name `error()` diagnostics (`cannot access`, invalid arguments,
/// warnings) start with.
pub fn error_name() -> &'static [u8] {
    let name = program_name();
    if ERRORS_USE_BASE_NAME.load(std::sync::atomic::Ordering::Relaxed) {
        name.rsplit(|&b| b == b'/').next().unwrap_or(name)
    } else {
        name
    }
}

/// One option occurrence, in command-line order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Occurrence {
    pub id: OptId,
    /// The option's argument, when it has one.
    pub value: Option<OsString>,
}

/// The clap definition of every option (ids are the long names, or the
/// letter for short-only options). Help and version are plain flags: the
/// texts are ours, printed when the option is reached in order.
pub fn command() -> Command {
    let mut cmd = Command::new("ls")
        .disable_help_flag(true)
        .disable_version_flag(true)
        .no_binary_name(true)
        .dont_delimit_trailing_values(true);
    for spec in OPTIONS {
        cmd = cmd.arg(clap_arg(spec));
    }
    cmd.arg(
        Arg::new("FILE")
            .num_args(0..)
            .action(ArgAction::Append)
            .value_parser(clap::value_parser!(OsString)),
    )
}

fn clap_arg(spec: &OptSpec) -> Arg {
    let mut arg = Arg::new(spec.key);
    if let Some(long) = spec.long {
        arg = arg.long(long);
    }
    if let Some(short) = spec.short {
        arg = arg.short(short);
    }
    match spec.arg {
        // Appended empty values: one index per occurrence, no defaults.
        ArgKind::None => arg
            .num_args(0)
            .default_missing_value("")
            .action(ArgAction::Append)
            .value_parser(clap::value_parser!(OsString)),
        ArgKind::Required => arg
            .num_args(1)
            .allow_hyphen_values(true)
            .action(ArgAction::Append)
            .value_parser(clap::value_parser!(OsString)),
        ArgKind::Optional => arg
            .num_args(0..=1)
            .require_equals(true)
            .default_missing_value("always")
            .allow_hyphen_values(true)
            .action(ArgAction::Append)
            .value_parser(clap::value_parser!(OsString)),
    }
}

/// Outcome of parsing: options in order, operands, and the getopt error
/// (if any) that stopped the scan after those options.
#[derive(Debug)]
pub struct Parsed {
    pub options: Vec<Occurrence>,
    pub operands: Vec<OsString>,
    pub error: Option<getopt::GetoptError>,
}

/// Scans `args` (without `argv[0]`) as GNU getopt_long would. An optional
/// argument left out (`--color`) reads as `always`, its documented meaning.
///
/// clap cannot express getopt_long's abbreviation, permutation and
/// diagnostics, so the scan is what runs; the clap [`command`] is the
/// declarative definition that completions and the man page are generated
/// from, and the tests check that it accepts every scan's normalized form
/// with the same result.
pub fn parse(args: &[OsString], posixly_correct: bool, gnu: Gnu) -> Parsed {
    let scan = getopt::scan(args, posixly_correct, gnu);
    let options = scan
        .opts
        .into_iter()
        .map(|p| {
            let value = match (p.id.spec().arg_in(gnu), p.value) {
                (ArgKind::Optional, None) => Some(OsString::from("always")),
                (_, v) => v,
            };
            Occurrence { id: p.id, value }
        })
        .collect();
    Parsed {
        options,
        operands: scan.operands,
        error: scan.error,
    }
}

/// Writes our `--help` text, for the emulated release.
pub fn write_help(out: &mut dyn Write, gnu: Gnu) -> std::io::Result<()> {
    let prog = String::from_utf8_lossy(program_name()).into_owned();
    write!(out, "{}", table::help_text(&prog, gnu))
}

/// Writes our `--version` text, naming the GNU release emulated.
pub fn write_version(out: &mut dyn Write, gnu: Gnu) -> std::io::Result<()> {
    write!(
        out,
        "ls (statls) {}\n\
         GNU ls {} compatible (STATLS_GNU_VERSION chooses another release);\n\
         asks statx only for what it prints.\n\
         License: MIT OR Apache-2.0.\n",
        env!("CARGO_PKG_VERSION"),
        gnu.version
    )
}

#[cfg(test)]
mod tests;
