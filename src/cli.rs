//! The command-line definition: GNU ls 9.1's option table, turned into a
//! clap [`Command`], plus the program name used in diagnostics and the
//! `--help`/`--version` texts.
//!
//! GNU's `getopt_long` behaviour (abbreviations, permutation, clusters,
//! diagnostics) is emulated in [`getopt`], which produces a normalized
//! argument list that clap then parses; [`parse`] returns the options in
//! command-line order via `ArgMatches::indices_of`.
#![forbid(unsafe_code)]

pub mod args;
pub mod getopt;
mod table;

use std::ffi::OsString;
use std::io::Write;
use std::sync::OnceLock;

use clap::{Arg, ArgAction, Command};

pub use table::{ArgKind, OptId, OptSpec, OPTIONS};

static PROGRAM_NAME: OnceLock<Vec<u8>> = OnceLock::new();

/// Records the program name (argv[0] as given) once; later calls are no-ops.
pub fn set_program_name(argv0: &[u8]) {
    let _ = PROGRAM_NAME.set(argv0.to_vec());
}

/// The name diagnostics start with: argv[0] exactly as given (GNU prints
/// `/bin/ls: ...` when run as `/bin/ls`), `ls` before it is set.
pub fn program_name() -> &'static [u8] {
    PROGRAM_NAME.get().map(Vec::as_slice).unwrap_or(b"ls")
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

/// The normalized form of a scan, for clap: every option as `--long[=v]`
/// (or `-x` when it has no long name), then `--` and the operands.
fn normalized(opts: &[getopt::Parsed], operands: &[OsString]) -> Vec<OsString> {
    use std::os::unix::ffi::{OsStrExt, OsStringExt};
    let mut out = Vec::with_capacity(opts.len() + operands.len() + 1);
    for p in opts {
        let spec = p.id.spec();
        let mut tok: Vec<u8> = match (spec.long, spec.short) {
            (Some(long), _) => format!("--{long}").into_bytes(),
            (None, Some(short)) => format!("-{short}").into_bytes(),
            (None, None) => continue,
        };
        if let Some(v) = &p.value {
            tok.push(b'=');
            tok.extend_from_slice(v.as_bytes());
        }
        out.push(OsString::from_vec(tok));
    }
    out.push(OsString::from("--"));
    out.extend(operands.iter().cloned());
    out
}

/// Outcome of parsing: options in order, operands, and the getopt error
/// (if any) that stopped the scan after those options.
#[derive(Debug)]
pub struct Parsed {
    pub options: Vec<Occurrence>,
    pub operands: Vec<OsString>,
    pub error: Option<getopt::GetoptError>,
}

/// Scans `args` (without argv[0]) as GNU getopt_long would, then lets clap
/// parse the normalized result and replays it in command-line order.
pub fn parse(args: &[OsString], posixly_correct: bool) -> Parsed {
    let scan = getopt::scan(args, posixly_correct);
    let argv = normalized(&scan.opts, &scan.operands);
    let options = match command().try_get_matches_from(argv) {
        Ok(m) => in_order(&m),
        // Cannot happen for a normalized list; fall back on the scan.
        Err(_) => scan
            .opts
            .iter()
            .map(|p| Occurrence {
                id: p.id,
                value: p.value.clone(),
            })
            .collect(),
    };
    Parsed {
        options,
        operands: scan.operands,
        error: scan.error,
    }
}

/// Every option occurrence of `m`, sorted by its index on the command line.
fn in_order(m: &clap::ArgMatches) -> Vec<Occurrence> {
    let mut all: Vec<(usize, Occurrence)> = Vec::new();
    for spec in OPTIONS {
        if m.value_source(spec.key) != Some(clap::parser::ValueSource::CommandLine) {
            continue;
        }
        let Some(indices) = m.indices_of(spec.key) else {
            continue;
        };
        let indices: Vec<usize> = indices.collect();
        if spec.arg == ArgKind::None {
            all.extend(indices.into_iter().map(|i| {
                (
                    i,
                    Occurrence {
                        id: spec.id,
                        value: None,
                    },
                )
            }));
            continue;
        }
        let values: Vec<OsString> = m
            .get_many::<OsString>(spec.key)
            .map(|v| v.cloned().collect())
            .unwrap_or_default();
        for (i, v) in indices.into_iter().zip(values) {
            all.push((
                i,
                Occurrence {
                    id: spec.id,
                    value: Some(v),
                },
            ));
        }
    }
    all.sort_by_key(|(i, _)| *i);
    all.into_iter().map(|(_, o)| o).collect()
}

/// The operands clap saw (used by tests to check the round trip).
pub fn operands_of(m: &clap::ArgMatches) -> Vec<OsString> {
    m.get_many::<OsString>("FILE")
        .map(|v| v.cloned().collect())
        .unwrap_or_default()
}

/// Writes our `--help` text.
pub fn write_help(out: &mut dyn Write) -> std::io::Result<()> {
    let prog = String::from_utf8_lossy(program_name()).into_owned();
    write!(out, "{}", table::help_text(&prog))
}

/// Writes our `--version` text.
pub fn write_version(out: &mut dyn Write) -> std::io::Result<()> {
    out.write_all(
        b"ls (statls) 0.1.0\n\
          A GNU ls 9.1 compatible ls that asks statx only for what it prints.\n\
          License: MIT OR Apache-2.0.\n",
    )
}

#[cfg(test)]
mod tests;
