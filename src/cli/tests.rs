//! Specifications of GNU getopt_long behaviour for ls (observed with
//! /bin/ls from coreutils 9.1 and glibc).

use std::ffi::OsString;

use super::getopt::{scan, GetoptError};
use super::{parse, ArgKind, Occurrence, OptId, OPTIONS};

fn argv(s: &[&str]) -> Vec<OsString> {
    s.iter().map(OsString::from).collect()
}

fn opts(s: &[&str]) -> Vec<(OptId, Option<String>)> {
    let p = parse(&argv(s), false, crate::gnu::Gnu::new(crate::gnu::V9_1));
    assert_eq!(p.error, None, "{s:?}");
    p.options
        .into_iter()
        .map(|o| (o.id, o.value.map(|v| v.to_string_lossy().into_owned())))
        .collect()
}

fn err(s: &[&str]) -> String {
    let e = scan(&argv(s), false, crate::gnu::Gnu::new(crate::gnu::V9_1))
        .error
        .expect("an error");
    String::from_utf8_lossy(&e.message()).into_owned()
}

#[test]
fn clusters_and_attached_arguments() {
    use OptId::*;
    assert_eq!(opts(&["-la"]), vec![(Long, None), (All, None)]);
    assert_eq!(opts(&["-w80"]), vec![(Width, Some("80".into()))]);
    assert_eq!(
        opts(&["-lw", "80"]),
        vec![(Long, None), (Width, Some("80".into()))]
    );
    assert_eq!(opts(&["-T4"]), vec![(Tabsize, Some("4".into()))]);
    // An argument may start with '-', or be "--".
    assert_eq!(opts(&["-I", "-x"]), vec![(Ignore, Some("-x".into()))]);
    assert_eq!(opts(&["-w", "--"]), vec![(Width, Some("--".into()))]);
    assert_eq!(opts(&["--width", "-1"]), vec![(Width, Some("-1".into()))]);
    assert_eq!(opts(&["--hide="]), vec![(Hide, Some("".into()))]);
    assert_eq!(opts(&["--ignore=a=b"]), vec![(Ignore, Some("a=b".into()))]);
}

#[test]
fn order_is_kept_across_repeats() {
    use OptId::*;
    assert_eq!(
        opts(&["-l", "-C", "-l", "--sort=size", "-t", "--sort=time"]),
        vec![
            (Long, None),
            (Columns, None),
            (Long, None),
            (Sort, Some("size".into())),
            (SortTime, None),
            (Sort, Some("time".into()))
        ]
    );
}

#[test]
fn long_options_abbreviate_to_unique_prefixes() {
    use OptId::*;
    // A missing optional argument reads as "always" (its meaning).
    assert_eq!(opts(&["--col"]), vec![(Color, Some("always".into()))]);
    assert_eq!(opts(&["--col=never"]), vec![(Color, Some("never".into()))]);
    assert_eq!(opts(&["--b", "K"]), vec![(BlockSize, Some("K".into()))]);
    // Exact names win over longer ones they prefix.
    assert_eq!(
        opts(&["--time", "ctime"]),
        vec![(Time, Some("ctime".into()))]
    );
    assert_eq!(opts(&["--si"]), vec![(Si, None)]);
    assert_eq!(opts(&["--hide=x"]), vec![(Hide, Some("x".into()))]);
    assert_eq!(opts(&["--dereference"]), vec![(Dereference, None)]);
    // Optional arguments only with '='.
    assert_eq!(
        opts(&["--color", "never"]),
        vec![(Color, Some("always".into()))]
    );
    assert_eq!(
        parse(
            &argv(&["--color", "never"]),
            false,
            crate::gnu::Gnu::new(crate::gnu::V9_1)
        )
        .operands,
        argv(&["never"])
    );
}

#[test]
fn operands_are_permuted_unless_posixly_correct() {
    let p = parse(
        &argv(&["dir", "-l", "-", "--", "-a"]),
        false,
        crate::gnu::Gnu::new(crate::gnu::V9_1),
    );
    assert_eq!(p.operands, argv(&["dir", "-", "-a"]));
    assert_eq!(p.options.len(), 1);
    let p = parse(
        &argv(&["a", "-l", "--", "b"]),
        true,
        crate::gnu::Gnu::new(crate::gnu::V9_1),
    );
    assert_eq!(p.operands, argv(&["a", "-l", "--", "b"]));
    assert!(p.options.is_empty());
}

#[test]
fn getopt_diagnostics() {
    assert_eq!(err(&["-y"]), "invalid option -- 'y'");
    assert_eq!(err(&["-ly"]), "invalid option -- 'y'");
    assert_eq!(err(&["-l-"]), "invalid option -- '-'");
    assert_eq!(err(&["-F=always"]), "invalid option -- '='");
    assert_eq!(err(&["-w"]), "option requires an argument -- 'w'");
    assert_eq!(err(&["-lw"]), "option requires an argument -- 'w'");
    assert_eq!(err(&["--width"]), "option '--width' requires an argument");
    assert_eq!(err(&["--wid"]), "option '--width' requires an argument");
    assert_eq!(err(&["--si=x"]), "option '--si' doesn't allow an argument");
    assert_eq!(
        err(&["--he=x"]),
        "option '--help' doesn't allow an argument"
    );
    assert_eq!(err(&["--foo=bar"]), "unrecognized option '--foo=bar'");
    assert_eq!(
        err(&["--co=x"]),
        "option '--co=x' is ambiguous; possibilities: '--color' '--context'"
    );
    assert_eq!(
        err(&["--d"]),
        "option '--d' is ambiguous; possibilities: '--directory' '--dired' \
         '--dereference-command-line' '--dereference-command-line-symlink-to-dir' '--dereference'"
    );
    assert_eq!(
        err(&["--s"]),
        "option '--s' is ambiguous; possibilities: '--size' '--si' '--show-control-chars' '--sort'"
    );
}

#[test]
fn timeout_abbreviates_from_timeo_and_time_stays_time() {
    use OptId::*;
    for arg in ["--timeout=5", "--timeo=5", "--timeou=5"] {
        assert_eq!(opts(&[arg]), vec![(Timeout, Some("5".into()))], "{arg}");
    }
    assert_eq!(
        opts(&["--timeout", "1m"]),
        vec![(Timeout, Some("1m".into()))]
    );
    assert_eq!(opts(&["--time=ctime"]), vec![(Time, Some("ctime".into()))]);
    assert_eq!(
        opts(&["--time-=iso"]),
        vec![(TimeStyle, Some("iso".into()))]
    );
    assert_eq!(
        err(&["--timeout"]),
        "option '--timeout' requires an argument"
    );
    assert_eq!(err(&["--timeo"]), "option '--timeout' requires an argument");
    // GNU's words for GNU's ambiguities: our option is not among them.
    assert_eq!(
        err(&["--tim"]),
        "option '--tim' is ambiguous; possibilities: '--time' '--time-style'"
    );
    assert_eq!(
        err(&["--ti=5"]),
        "option '--ti=5' is ambiguous; possibilities: '--time' '--time-style'"
    );
    assert_eq!(
        err(&["--t"]),
        "option '--t' is ambiguous; possibilities: '--tabsize' '--time' '--time-style'"
    );
}

/// Every prefix of every long option resolves, in every release, exactly
/// as it would in a table without statls's own options: to the same
/// option, or ambiguous with the same candidates, or (a prefix of ours
/// alone) to ours.
#[test]
fn our_options_change_no_abbreviation_of_gnus() {
    use super::getopt::lookup_long;
    for &version in crate::gnu::SUPPORTED {
        let gnu = crate::gnu::Gnu::new(version);
        let gnus: Vec<&str> = OPTIONS
            .iter()
            .filter(|s| s.exists_in(gnu) && !s.id.is_extension())
            .filter_map(|s| s.long)
            .collect();
        let longs = OPTIONS.iter().filter(|s| s.exists_in(gnu));
        for long in longs.filter_map(|s| s.long) {
            for end in 0..=long.len() {
                let prefix = &long[..end];
                let candidates: Vec<&str> = match gnus.iter().find(|l| **l == prefix) {
                    Some(exact) => vec![exact],
                    None => gnus
                        .iter()
                        .copied()
                        .filter(|l| l.starts_with(prefix))
                        .collect(),
                };
                let got = lookup_long(prefix.as_bytes(), gnu);
                match candidates.as_slice() {
                    [] => assert!(
                        matches!(&got, Ok(s) if s.id.is_extension()),
                        "{version:?} --{prefix}: {got:?}"
                    ),
                    [one] => assert_eq!(
                        got.map(|s| s.long),
                        Ok(Some(*one)),
                        "{version:?} --{prefix}"
                    ),
                    many => assert_eq!(
                        got.map(|s| s.long),
                        Err(many.to_vec()),
                        "{version:?} --{prefix}"
                    ),
                }
            }
        }
    }
}

#[test]
fn scan_stops_at_the_first_error() {
    let s = scan(
        &argv(&["-l", "-y", "--foo"]),
        false,
        crate::gnu::Gnu::new(crate::gnu::V9_1),
    );
    assert_eq!(s.opts.len(), 1);
    assert_eq!(s.error, Some(GetoptError::InvalidShort(b'y')));
}

#[test]
fn help_text_mentions_every_option() {
    let text = super::table::help_text("ls", crate::gnu::Gnu::new(crate::gnu::V9_1));
    for spec in super::OPTIONS {
        if let Some(l) = spec.long {
            assert!(text.contains(&format!("--{l}")), "{l}");
        }
        if let Some(c) = spec.short {
            assert!(text.contains(&format!("-{c}")), "{c}");
        }
    }
}

// The clap definition against the scan: clap parses the normalized form of
// every scan (each option spelled out in full, then `--` and the operands)
// to the same options, in the same order, as `parse` returns.

/// The normalized form of a scan, for clap: every option as `--long[=v]`
/// (or `-x` when it has no long name), then `--` and the operands.
fn normalized(opts: &[super::getopt::Parsed], operands: &[OsString]) -> Vec<OsString> {
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

#[test]
fn the_clap_definition_agrees_with_the_scan() {
    let cases: &[&[&str]] = &[
        &["-la", "x"],
        &["-w80", "-T", "4", "--", "-l"],
        &["--col", "--hyperlink", "--classify", "-F"],
        &["--col=never", "--hyperlink=auto", "--classify=always"],
        &["-l", "-C", "-l", "--sort=size", "-t", "--sort=time"],
        &[
            "--b",
            "K",
            "--time",
            "ctime",
            "--si",
            "--hide=",
            "--ignore=a=b",
        ],
        &["-I", "-x", "-w", "--", "a", "b"],
        &[
            "--format=long",
            "--quoting-style",
            "c",
            "-Z",
            "--author",
            "-1",
        ],
        &[
            "--time-style=+%s",
            "--tabsize=0",
            "--width=0",
            "--zero",
            "--dired",
        ],
        &["-abcdfghiklmnopqrstuvwxABCDFGHLNQRSUX", "d"],
        &[
            "--timeo=1.5s",
            "--json",
            "--cached",
            "always",
            "--timeout",
            "0",
        ],
    ];
    for argv_ in cases {
        let args = argv(argv_);
        let scan = super::getopt::scan(&args, false, crate::gnu::Gnu::new(crate::gnu::V9_1));
        assert_eq!(scan.error, None, "{argv_:?}");
        let m = super::command()
            .try_get_matches_from(normalized(&scan.opts, &scan.operands))
            .unwrap_or_else(|e| panic!("{argv_:?}: {e}"));
        let parsed = parse(&args, false, crate::gnu::Gnu::new(crate::gnu::V9_1));
        assert_eq!(in_order(&m), parsed.options, "{argv_:?}");
        assert_eq!(operands_of(&m), parsed.operands, "{argv_:?}");
    }
}
