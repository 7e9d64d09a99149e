//! Specifications of GNU getopt_long behaviour for ls (observed with
//! /bin/ls from coreutils 9.1 and glibc).

use std::ffi::OsString;

use super::getopt::{scan, GetoptError};
use super::{parse, OptId};

fn argv(s: &[&str]) -> Vec<OsString> {
    s.iter().map(OsString::from).collect()
}

fn opts(s: &[&str]) -> Vec<(OptId, Option<String>)> {
    let p = parse(&argv(s), false);
    assert_eq!(p.error, None, "{s:?}");
    p.options
        .into_iter()
        .map(|o| (o.id, o.value.map(|v| v.to_string_lossy().into_owned())))
        .collect()
}

fn err(s: &[&str]) -> String {
    let e = scan(&argv(s), false).error.expect("an error");
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
        parse(&argv(&["--color", "never"]), false).operands,
        argv(&["never"])
    );
}

#[test]
fn operands_are_permuted_unless_posixly_correct() {
    let p = parse(&argv(&["dir", "-l", "-", "--", "-a"]), false);
    assert_eq!(p.operands, argv(&["dir", "-", "-a"]));
    assert_eq!(p.options.len(), 1);
    let p = parse(&argv(&["a", "-l", "--", "b"]), true);
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
fn scan_stops_at_the_first_error() {
    let s = scan(&argv(&["-l", "-y", "--foo"]), false);
    assert_eq!(s.opts.len(), 1);
    assert_eq!(s.error, Some(GetoptError::InvalidShort(b'y')));
}

#[test]
fn help_text_mentions_every_option() {
    let text = super::table::help_text("ls");
    for spec in super::OPTIONS {
        if let Some(l) = spec.long {
            assert!(text.contains(&format!("--{l}")), "{l}");
        }
        if let Some(c) = spec.short {
            assert!(text.contains(&format!("-{c}")), "{c}");
        }
    }
}
