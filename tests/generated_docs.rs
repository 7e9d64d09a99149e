//! Keeps the committed shell completions (`completions/`) in step with the
//! clap definition in `src/cli.rs`, and checks that the hand-written man
//! page (`man/ls.1`) documents every option and environment variable.
//!
//! The completions are generated with `clap_complete` from
//! `statls::cli::command()`, enriched here with each option's one-line
//! description from `statls::cli::OPTIONS` and the values GNU ls 9.1 accepts.
//! Run `STATLS_REGENERATE=1 cargo test --test generated_docs` to rewrite them.
//!
//! The man page is not generated: our clap arguments carry no help text (the
//! `--help` text is our own, written from the option table), so
//! `clap_mangen` would produce a bare option list. It is written by hand.
#![forbid(unsafe_code)]

use std::path::PathBuf;

use clap::builder::PossibleValuesParser;
use clap::{Arg, ArgAction, Command, ValueHint};
use clap_complete::Shell;
use statls::cli::{command, ArgKind, OptId, OptSpec, OPTIONS};

const REGENERATE: &str = "STATLS_REGENERATE=1 cargo test --test generated_docs";

/// The environment variables the man page must describe.
const ENVIRONMENT: &[&str] = &[
    "COLUMNS",
    "TABSIZE",
    "TZ",
    "TIME_STYLE",
    "QUOTING_STYLE",
    "LS_COLORS",
    "LS_BLOCK_SIZE",
    "BLOCK_SIZE",
    "BLOCKSIZE",
    "POSIXLY_CORRECT",
];

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn regenerating() -> bool {
    std::env::var_os("STATLS_REGENERATE").is_some_and(|v| v == "1")
}

/// The values GNU ls 9.1 accepts for an option's argument, when it is one
/// of a fixed set (the first spelling of each synonym group first).
fn possible_values(key: &str) -> Option<&'static [&'static str]> {
    const WHEN: &[&str] = &[
        "always", "auto", "never", "yes", "force", "no", "none", "tty", "if-tty",
    ];
    Some(match key {
        "classify" | "color" | "hyperlink" => WHEN,
        "format" => &[
            "across",
            "commas",
            "horizontal",
            "long",
            "single-column",
            "verbose",
            "vertical",
        ],
        "sort" => &["none", "size", "time", "version", "extension", "width"],
        "time" => &[
            "atime", "access", "use", "ctime", "status", "birth", "creation",
        ],
        "time-style" => &["full-iso", "long-iso", "iso", "locale"],
        "indicator-style" => &["none", "slash", "file-type", "classify"],
        "quoting-style" => &[
            "literal",
            "locale",
            "shell",
            "shell-always",
            "shell-escape",
            "shell-escape-always",
            "c",
            "c-maybe",
            "escape",
            "clocale",
        ],
        _ => return None,
    })
}

/// An option's description on one line (the table wraps some for --help).
fn one_line(help: &str) -> String {
    help.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// `statls::cli::command()` with descriptions and value hints for the
/// completion generators.
fn completion_command() -> Command {
    let mut cmd = command()
        .bin_name("ls")
        .about("List directory contents (GNU ls 9.1 compatible)");
    for spec in OPTIONS {
        cmd = cmd.mut_arg(spec.key, |arg| {
            let mut arg = arg.help(one_line(spec.help));
            if spec.arg != ArgKind::None && !spec.value_name.is_empty() {
                arg = arg.value_name(spec.value_name);
            }
            match possible_values(spec.key) {
                Some(values) => arg.value_parser(PossibleValuesParser::new(values)),
                None => arg,
            }
        });
    }
    let cmd = cmd.mut_arg("FILE", |arg| arg.value_hint(ValueHint::AnyPath));
    // `-F` takes no argument; only `--classify=WHEN` does.
    let classify = OptId::Classify.spec();
    match classify.short {
        Some(short) => cmd.mut_arg(classify.key, |arg| arg.short(None)).arg(
            Arg::new("classify-short")
                .short(short)
                .action(ArgAction::Count)
                .help(one_line(classify.help)),
        ),
        None => cmd,
    }
}

fn completion(shell: Shell) -> Vec<u8> {
    let mut cmd = completion_command();
    let mut out = Vec::new();
    clap_complete::generate(shell, &mut cmd, "ls", &mut out);
    out
}

/// Compares `expected` with the committed file, or writes it when
/// regenerating; returns a description of the mismatch, if any.
fn check_file(relative: &str, expected: &[u8]) -> Option<String> {
    let path = root().join(relative);
    if regenerating() {
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir).expect("create the output directory");
        }
        std::fs::write(&path, expected).expect("write the generated file");
        return None;
    }
    match std::fs::read(&path) {
        Ok(found) if found == expected => None,
        Ok(_) => Some(format!("{relative} is out of date")),
        Err(e) => Some(format!("{relative} cannot be read: {e}")),
    }
}

#[test]
fn completions_match_the_cli_definition() {
    let files = [
        ("completions/ls.bash", Shell::Bash),
        ("completions/_ls", Shell::Zsh),
        ("completions/ls.fish", Shell::Fish),
    ];
    let stale: Vec<String> = files
        .iter()
        .filter_map(|(file, shell)| check_file(file, &completion(*shell)))
        .collect();
    assert!(
        stale.is_empty(),
        "{}\nThe completions are generated from statls::cli::command(); \
         regenerate them with `{REGENERATE}` and commit the result.",
        stale.join("\n")
    );
}

fn man_page() -> String {
    let path = root().join("man/ls.1");
    std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("{} cannot be read: {e}", path.display()))
}

/// An option as the man page writes it in bold: `\fB\-\-all\fR`, `\fB\-a\fR`.
fn roff_bold(option: &str) -> String {
    format!("\\fB{}\\fR", option.replace('-', "\\-"))
}

fn forms(spec: &OptSpec) -> Vec<String> {
    let short = spec.short.map(|c| format!("-{c}"));
    let long = spec.long.map(|l| format!("--{l}"));
    short.into_iter().chain(long).collect()
}

#[test]
fn man_page_documents_every_option() {
    let page = man_page();
    let missing: Vec<String> = command()
        .get_arguments()
        .filter_map(|a| a.get_long().map(|l| format!("--{l}")))
        .chain(OPTIONS.iter().flat_map(forms))
        .filter(|option| !page.contains(&roff_bold(option)))
        .collect();
    assert!(
        missing.is_empty(),
        "man/ls.1 (written by hand, not generated) does not document {:?}; \
         add an entry for each (as \\fB\\-\\-name\\fR) by hand.",
        missing
    );
}

#[test]
fn man_page_documents_environment_and_exit_status() {
    let page = man_page();
    let missing: Vec<&str> = ENVIRONMENT
        .iter()
        .copied()
        .filter(|var| !page.contains(&format!(".B {var}\n")))
        .collect();
    assert!(
        missing.is_empty(),
        "man/ls.1 does not describe {missing:?}; edit it by hand."
    );
    for section in [
        ".SH ENVIRONMENT",
        ".SH \"EXIT STATUS\"",
        ".SH \"STATX USE\"",
    ] {
        assert!(page.contains(section), "man/ls.1 lacks {section}");
    }
    for status in ["0", "1", "2"] {
        assert!(
            page.contains(&format!(".TP\n.B {status}\n")),
            "man/ls.1 does not describe exit status {status}"
        );
    }
}

#[test]
fn completions_offer_every_option() {
    let fish = String::from_utf8(completion(Shell::Fish)).expect("UTF-8 script");
    for spec in OPTIONS {
        if let Some(long) = spec.long {
            assert!(fish.contains(&format!(" -l {long}")), "--{long} missing");
        }
        if let Some(short) = spec.short {
            assert!(fish.contains(&format!(" -s {short}")), "-{short} missing");
        }
    }
}
