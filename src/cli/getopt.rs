//! A faithful model of glibc's `getopt_long` for ls's option table:
//! operands are permuted after options (unless POSIXLY_CORRECT), `--` ends
//! options, `-` is an operand, short options cluster, long options may be
//! abbreviated to any unique prefix, and errors carry what glibc prints.
#![forbid(unsafe_code)]

use std::ffi::OsString;
use std::os::unix::ffi::{OsStrExt, OsStringExt};

use super::table::{by_short, ArgKind, OptId, OptSpec, OPTIONS};
use crate::gnu::Gnu;

/// One option as getopt returned it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Parsed {
    pub id: OptId,
    pub value: Option<OsString>,
}

/// What glibc's getopt complains about (it stops ls at the first one).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GetoptError {
    /// `invalid option -- 'y'`
    InvalidShort(u8),
    /// `option requires an argument -- 'w'`
    ShortNeedsArg(u8),
    /// `unrecognized option '--foo=bar'` (the whole argument).
    Unrecognized(Vec<u8>),
    /// `option '--co' is ambiguous; possibilities: '--color' '--context'`
    Ambiguous(Vec<u8>, Vec<&'static str>),
    /// `option '--si' doesn't allow an argument`
    NoArgAllowed(&'static str),
    /// `option '--width' requires an argument`
    LongNeedsArg(&'static str),
}

impl GetoptError {
    /// glibc's message, without the program name and newline.
    pub fn message(&self) -> Vec<u8> {
        let line = self.line(b"ls");
        let line = line.strip_prefix(b"ls: ".as_slice()).unwrap_or(&line);
        line.strip_suffix(b"\n").unwrap_or(line).to_vec()
    }

    /// The whole line glibc's getopt prints to stderr, `program` being
    /// `argv[0]`, in libc's catalog's words for LC_MESSAGES.
    pub fn line(&self, program: &[u8]) -> Vec<u8> {
        use crate::sys::intl::msg_libc;
        match self {
            GetoptError::InvalidShort(c) => {
                msg_libc("%s: invalid option -- '%c'\n", &[program, &[*c]])
            }
            GetoptError::ShortNeedsArg(c) => msg_libc(
                "%s: option requires an argument -- '%c'\n",
                &[program, &[*c]],
            ),
            GetoptError::Unrecognized(arg) => {
                let (prefix, rest) = split_dashes(arg);
                msg_libc("%s: unrecognized option '%s%s'\n", &[program, prefix, rest])
            }
            GetoptError::Ambiguous(arg, names) => {
                let (prefix, rest) = split_dashes(arg);
                let mut m = msg_libc(
                    "%s: option '%s%s' is ambiguous; possibilities:",
                    &[program, prefix, rest],
                );
                for n in names {
                    m.extend_from_slice(format!(" '--{n}'").as_bytes());
                }
                m.push(b'\n');
                m
            }
            GetoptError::NoArgAllowed(n) => msg_libc(
                "%s: option '%s%s' doesn't allow an argument\n",
                &[program, b"--", n.as_bytes()],
            ),
            GetoptError::LongNeedsArg(n) => msg_libc(
                "%s: option '%s%s' requires an argument\n",
                &[program, b"--", n.as_bytes()],
            ),
        }
    }
}

/// `--name=value` as glibc prints it: the prefix, then the rest.
fn split_dashes(arg: &[u8]) -> (&[u8], &[u8]) {
    let n = if arg.starts_with(b"--") {
        2
    } else {
        usize::from(arg.starts_with(b"-"))
    };
    arg.split_at(n)
}

/// The result of a scan: the options before the first error, in order,
/// the operands, and that error.
#[derive(Clone, Debug, Default)]
pub struct Scan {
    pub opts: Vec<Parsed>,
    pub operands: Vec<OsString>,
    pub error: Option<GetoptError>,
}

/// Scans `args` (argv without `argv[0]`) with the option table of the
/// emulated release. With `posix` (POSIXLY_CORRECT), the first operand
/// ends the options.
pub fn scan(args: &[OsString], posix: bool, gnu: Gnu) -> Scan {
    let mut s = Scan::default();
    let mut i = 0;
    while i < args.len() {
        let arg = args[i].as_bytes();
        i += 1;
        if arg == b"--" {
            s.operands.extend(args[i..].iter().cloned());
            break;
        }
        if arg.len() < 2 || arg[0] != b'-' {
            s.operands.push(args[i - 1].clone());
            if posix {
                s.operands.extend(args[i..].iter().cloned());
                break;
            }
            continue;
        }
        let res = if arg[1] == b'-' {
            long_option(arg, args, &mut i, &mut s.opts, gnu)
        } else {
            short_cluster(arg, args, &mut i, &mut s.opts, gnu)
        };
        if let Err(e) = res {
            s.error = Some(e);
            break;
        }
    }
    s
}

/// The argument of an option taking one from the next element, if any.
fn next_arg(args: &[OsString], i: &mut usize) -> Option<OsString> {
    let v = args.get(*i)?.clone();
    *i += 1;
    Some(v)
}

fn short_cluster(
    arg: &[u8],
    args: &[OsString],
    i: &mut usize,
    out: &mut Vec<Parsed>,
    gnu: Gnu,
) -> Result<(), GetoptError> {
    let mut k = 1;
    while let Some(&c) = arg.get(k) {
        k += 1;
        let spec = by_short(c)
            .filter(|s| s.exists_in(gnu))
            .ok_or(GetoptError::InvalidShort(c))?;
        if spec.arg_in(gnu) != ArgKind::Required {
            out.push(Parsed {
                id: spec.id,
                value: None,
            });
            continue;
        }
        let rest = arg.get(k..).unwrap_or_default();
        let value = if rest.is_empty() {
            next_arg(args, i).ok_or(GetoptError::ShortNeedsArg(c))?
        } else {
            OsString::from_vec(rest.to_vec())
        };
        out.push(Parsed {
            id: spec.id,
            value: Some(value),
        });
        return Ok(());
    }
    Ok(())
}

/// Resolves a (possibly abbreviated) long option name among those of the
/// emulated release.
pub fn lookup_long(name: &[u8], gnu: Gnu) -> Result<&'static OptSpec, Vec<&'static str>> {
    let longs = || {
        OPTIONS
            .iter()
            .filter(move |s| s.exists_in(gnu))
            .filter_map(|s| s.long.map(|l| (s, l)))
    };
    if let Some((s, _)) = longs().find(|(_, l)| l.as_bytes() == name) {
        return Ok(s);
    }
    let matches: Vec<(&OptSpec, &str)> = longs()
        .filter(|(_, l)| l.as_bytes().starts_with(name))
        .collect();
    match matches.as_slice() {
        [(s, _)] => Ok(s),
        // `--json`, `--cached` and `--timeout` are not GNU's: they are
        // candidates only of prefixes two of GNU's options share too
        // (`--c`, `--tim`, `--=x`), whose diagnostics list GNU's options
        // alone.
        _ => Err(matches
            .iter()
            .filter(|(s, _)| !s.id.is_extension())
            .map(|(_, l)| *l)
            .collect()),
    }
}

fn long_option(
    arg: &[u8],
    args: &[OsString],
    i: &mut usize,
    out: &mut Vec<Parsed>,
    gnu: Gnu,
) -> Result<(), GetoptError> {
    let body = arg.get(2..).unwrap_or_default();
    let (name, inline) = match body.iter().position(|&b| b == b'=') {
        Some(p) => (&body[..p], Some(&body[p + 1..])),
        None => (body, None),
    };
    let spec = match lookup_long(name, gnu) {
        Ok(s) => s,
        Err(c) if c.is_empty() => return Err(GetoptError::Unrecognized(arg.to_vec())),
        Err(c) => return Err(GetoptError::Ambiguous(arg.to_vec(), c)),
    };
    let long = spec.long.unwrap_or_default();
    let value = match (spec.arg_in(gnu), inline) {
        (ArgKind::None, Some(_)) => return Err(GetoptError::NoArgAllowed(long)),
        (ArgKind::None, None) | (ArgKind::Optional, None) => None,
        (_, Some(v)) => Some(OsString::from_vec(v.to_vec())),
        (ArgKind::Required, None) => {
            Some(next_arg(args, i).ok_or(GetoptError::LongNeedsArg(long))?)
        }
    };
    out.push(Parsed { id: spec.id, value });
    Ok(())
}
