//! Keeps the generated files in step with the command-line definition
//! (`statls::cli::OPTIONS`, the option table in src/cli/table.rs, and the
//! argmatch word tables in src/cli/args.rs):
//!
//! - the shell completions in `completions/`: zsh's from `clap_complete`
//!   (on `statls::cli::command()`, enriched with each option's description
//!   and values), bash's and fish's written here, because clap's offer an
//!   optional value (`--color[=WHEN]`) as the next word, where `ls` would
//!   take it for a file name;
//! - the man page `man/ls.1`, from the hand-written `man/ls.1.in`, whose
//!   `@option NAME` lines become each option's synopsis.
//!
//! Run `STATLS_REGENERATE=1 cargo test --test generated_docs` to rewrite
//! them. Also checked: the man page renders without warnings and documents
//! every option, environment variable and exit status.
#![forbid(unsafe_code)]

mod util;

use std::path::PathBuf;
use std::process::Command as Process;

use clap::builder::PossibleValuesParser;
use clap::{Arg, ArgAction, Command, ValueHint};
use clap_complete::Shell;
use statls::cli::{args, command, ArgKind, OptId, OptSpec, OPTIONS};

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
    "STATLS_THREADS",
    "LS_CACHED",
];

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn regenerating() -> bool {
    std::env::var_os("STATLS_REGENERATE").is_some_and(|v| v == "1")
}

fn words<T>(table: &[(&'static str, T)]) -> Vec<&'static str> {
    table.iter().map(|(w, _)| *w).collect()
}

/// The values an option's argument may take, when it is one of a fixed
/// set: the argmatch tables `ls` decodes them with, in GNU's order; for
/// `--timeout`, a few examples to offer.
fn possible_values(key: &str) -> Option<Vec<&'static str>> {
    Some(match key {
        "classify" | "color" | "hyperlink" => words(args::WHEN_ARGS),
        "format" => words(args::FORMAT_ARGS),
        "sort" => words(args::sort_args(statls::gnu::Gnu::new(statls::gnu::NEWEST))),
        "time" => words(&args::time_args(statls::gnu::Gnu::new(statls::gnu::NEWEST))),
        "indicator-style" => words(args::INDICATOR_ARGS),
        "quoting-style" => words(args::QUOTING_ARGS),
        "cached" => words(args::CACHED_ARGS),
        // Not a fixed set: examples of a DURATION (any number is one).
        "timeout" => vec!["5s", "30s", "1m"],
        // Not an argmatch table: a word, or +FORMAT.
        "time-style" => vec!["full-iso", "long-iso", "iso", "locale"],
        _ => return None,
    })
}

/// An option's description on one line (the table wraps some for --help).
fn one_line(help: &str) -> String {
    help.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// `statls::cli::command()` with descriptions and value hints for clap's
/// zsh generator.
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

/// clap's zsh script, with optional values only after `=` (`--color=-`:
/// `_arguments` then never takes the next word as the value).
fn zsh_completion() -> Vec<u8> {
    let mut cmd = completion_command();
    let mut out = Vec::new();
    clap_complete::generate(Shell::Zsh, &mut cmd, "ls", &mut out);
    let mut text = String::from_utf8(out).expect("UTF-8 script");
    for spec in OPTIONS.iter().filter(|s| s.arg == ArgKind::Optional) {
        if let Some(long) = spec.long {
            text = text.replace(&format!("'*--{long}=["), &format!("'*--{long}=-["));
        }
    }
    text.into_bytes()
}

/// `'text'` for fish and bash (single quotes, `'` escaped as `'\''`).
fn single_quoted(text: &str) -> String {
    format!("'{}'", text.replace('\'', "'\\''"))
}

/// fish: one `complete` line per option; a fixed set of values with `-x`
/// (no file names); an optional value as `--name=value` candidates, offered
/// only while the current token starts with `--name=`.
fn fish_completion() -> Vec<u8> {
    let mut out = String::from(
        "# fish completion for statls's ls, generated from its option table\n\
         # (src/cli/table.rs) by tests/generated_docs.rs: do not edit.\n",
    );
    for spec in OPTIONS {
        let mut line = String::from("complete -c ls");
        if let Some(c) = spec.short {
            line.push_str(&format!(" -s {c}"));
        }
        if let Some(l) = spec.long {
            line.push_str(&format!(" -l {l}"));
        }
        line.push_str(&format!(" -d {}", single_quoted(&one_line(spec.help))));
        let values = possible_values(spec.key);
        match (spec.arg, &values) {
            (ArgKind::Required, Some(v)) => {
                line.push_str(&format!(" -x -a {}", single_quoted(&v.join(" "))))
            }
            (ArgKind::Required, None) => line.push_str(" -x"),
            _ => {}
        }
        out.push_str(&line);
        out.push('\n');
        if let (ArgKind::Optional, Some(long), Some(v)) = (spec.arg, spec.long, &values) {
            let prefixed: Vec<String> = v.iter().map(|w| format!("--{long}={w}")).collect();
            out.push_str(&format!(
                "complete -c ls -f -n {} -a {}\n",
                single_quoted(&format!(
                    "string match -q -- '--{long}=*' (commandline -ct)"
                )),
                single_quoted(&prefixed.join(" "))
            ));
        }
    }
    out.into_bytes()
}

/// bash (with bash-completion's `_init_completion`): every option, values
/// after `--name=` or as the next word for required arguments, and after
/// `=` only for optional ones.
fn bash_completion() -> Vec<u8> {
    let mut opts = Vec::new();
    let mut cases = String::new();
    for spec in OPTIONS {
        let values = possible_values(spec.key).map(|v| v.join(" "));
        let mut names: Vec<String> = spec.long.iter().map(|l| format!("--{l}")).collect();
        match spec.arg {
            ArgKind::None => {}
            ArgKind::Required => names.extend(spec.short.map(|c| format!("-{c}"))),
            ArgKind::Optional => {}
        }
        opts.extend(spec.short.map(|c| format!("-{c}")));
        opts.extend(spec.long.map(|l| match spec.arg {
            ArgKind::None => format!("--{l}"),
            _ => format!("--{l}="),
        }));
        let reply = match &values {
            Some(v) => format!("COMPREPLY=($(compgen -W {} -- \"$cur\"))", single_quoted(v)),
            None => String::from("COMPREPLY=()"),
        };
        match spec.arg {
            ArgKind::None => {}
            ArgKind::Required => {
                cases.push_str(&format!("        {})\n            {reply}\n            return\n            ;;\n", names.join("|")))
            }
            ArgKind::Optional => cases.push_str(&format!(
                "        {})\n            if [[ $split == true ]]; then\n                {reply}\n                return\n            fi\n            ;;\n",
                names.join("|")
            )),
        }
    }
    let opts = opts.join(" ");
    format!(
        "# bash completion for statls's ls, generated from its option table\n\
         # (src/cli/table.rs) by tests/generated_docs.rs: do not edit.\n\
         # Needs bash-completion (_init_completion), which itself completes ls\n\
         # with _longopt: source this file after it to complete values too.\n\
         _statls_ls()\n{{\n    local cur prev words cword split\n    _init_completion -s || return\n\n    \
         case $prev in\n{cases}    esac\n    [[ $split == true ]] && return\n\n    \
         if [[ $cur == -* ]]; then\n        \
         COMPREPLY=($(compgen -W {} -- \"$cur\"))\n        \
         [[ ${{COMPREPLY-}} == *= ]] && compopt -o nospace\n        return\n    fi\n    \
         _filedir\n}} &&\n    complete -F _statls_ls ls\n",
        single_quoted(&opts)
    )
    .into_bytes()
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
        ("completions/ls.bash", bash_completion()),
        ("completions/_ls", zsh_completion()),
        ("completions/ls.fish", fish_completion()),
    ];
    let stale: Vec<String> = files
        .iter()
        .filter_map(|(file, text)| check_file(file, text))
        .collect();
    assert!(
        stale.is_empty(),
        "{}\nThe completions are generated from statls::cli::OPTIONS; \
         regenerate them with `{REGENERATE}` and commit the result.",
        stale.join("\n")
    );
}

/// An option's synopsis in roff: `\fB\-w\fR, \fB\-\-width\fR=\fICOLS\fR`.
fn roff_synopsis(spec: &OptSpec) -> String {
    let mut s = forms(spec)
        .iter()
        .map(|f| roff_bold(f))
        .collect::<Vec<_>>()
        .join(", ");
    match (spec.arg, spec.long.is_some()) {
        (ArgKind::Required, true) => s.push_str(&format!("=\\fI{}\\fR", spec.value_name)),
        (ArgKind::Required, false) => s.push_str(&format!(" \\fI{}\\fR", spec.value_name)),
        (ArgKind::Optional, _) => s.push_str(&format!("[=\\fI{}\\fR]", spec.value_name)),
        (ArgKind::None, _) => {}
    }
    s
}

const OPTION_LINE: &str = ".\\\" @option ";

/// man/ls.1 from man/ls.1.in: `@option KEY` lines become the synopsis of
/// that option's row, `@VERSION@` the crate version.
fn man_page_from_source() -> Vec<u8> {
    let path = root().join("man/ls.1.in");
    let source = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("{} cannot be read: {e}", path.display()));
    let mut out = String::new();
    for line in source.lines() {
        match line.strip_prefix(OPTION_LINE) {
            Some(key) => {
                let spec = OPTIONS
                    .iter()
                    .find(|s| s.key == key)
                    .unwrap_or_else(|| panic!("man/ls.1.in: no option {key:?} in the table"));
                out.push_str(&roff_synopsis(spec));
            }
            None => out.push_str(&line.replace("@VERSION@", env!("CARGO_PKG_VERSION"))),
        }
        out.push('\n');
    }
    out.into_bytes()
}

#[test]
fn man_page_matches_its_source_and_the_cli_definition() {
    let source = std::fs::read_to_string(root().join("man/ls.1.in")).expect("man/ls.1.in");
    for spec in OPTIONS {
        let n = source
            .lines()
            .filter(|l| l.strip_prefix(OPTION_LINE) == Some(spec.key))
            .count();
        assert_eq!(n, 1, "man/ls.1.in must describe option {:?} once", spec.key);
    }
    if let Some(stale) = check_file("man/ls.1", &man_page_from_source()) {
        panic!("{stale}: it is generated from man/ls.1.in; regenerate it with `{REGENERATE}`");
    }
}

#[test]
fn man_page_renders_without_warnings() {
    let man = Process::new("man")
        .args(["--warnings", "-l"])
        .arg(root().join("man/ls.1"))
        .env("MANWIDTH", "80")
        .env("LC_ALL", "C.UTF-8")
        .output();
    let Ok(out) = man else {
        util::skipped("man (man-db) is not installed; man/ls.1 not rendered");
        return;
    };
    assert!(
        out.stderr.is_empty(),
        "man --warnings -l man/ls.1:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    for heading in [
        "NAME",
        "OPTIONS",
        "ENVIRONMENT",
        "EXIT STATUS",
        "STATX USE",
        "JSON OUTPUT",
    ] {
        assert!(
            text.contains(&format!("\n{heading}\n")),
            "rendered page lacks {heading}"
        );
    }
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
fn man_page_documents_environment_and_exit_status() {
    let page = man_page();
    let missing: Vec<&str> = ENVIRONMENT
        .iter()
        .copied()
        .filter(|var| !page.contains(&format!(".B {var}\n")))
        .collect();
    assert!(
        missing.is_empty(),
        "man/ls.1.in does not describe {missing:?}"
    );
    for section in [
        ".SH ENVIRONMENT",
        ".SH \"EXIT STATUS\"",
        ".SH \"STATX USE\"",
        ".SH \"JSON OUTPUT\"",
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
    let fish = String::from_utf8(fish_completion()).expect("UTF-8 script");
    let bash = String::from_utf8(bash_completion()).expect("UTF-8 script");
    let zsh = String::from_utf8(zsh_completion()).expect("UTF-8 script");
    for spec in OPTIONS {
        if let Some(long) = spec.long {
            assert!(
                fish.contains(&format!(" -l {long} ")),
                "fish: --{long} missing"
            );
            assert!(
                bash.contains(&format!("--{long}")),
                "bash: --{long} missing"
            );
            assert!(
                zsh.contains(&format!("'*--{long}")),
                "zsh: --{long} missing"
            );
        }
        if let Some(short) = spec.short {
            assert!(
                fish.contains(&format!(" -s {short} ")),
                "fish: -{short} missing"
            );
            let word = format!("-{short}");
            assert!(
                bash.split([' ', '\'', '|', '\n', ')']).any(|w| w == word),
                "bash: -{short} missing"
            );
            assert!(
                zsh.contains(&format!("'*-{short}")),
                "zsh: -{short} missing"
            );
        }
    }
}
