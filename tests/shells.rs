//! Tab completion in the real shells, as a user gets it after following the
//! README's install section: bash with bash-completion, zsh (the shipped
//! `_ls`, and zsh's own `_ls`, which must recognise GNU ls in `--help`) and
//! fish. Each shell runs with a temporary home and our `ls` first in PATH;
//! a missing shell is reported with a loud `SKIPPED` line.
//!
//! What is specified: every enumerated option value is offered after
//! `--name=`; an optional value (`--color[=WHEN]`) is never offered as the
//! next word, where `ls` would take it for a file; `--cached` (ours alone)
//! is offered too, which proves the shipped file is the one in use.
#![forbid(unsafe_code)]

mod util;

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Command;

use statls::cli::args;
use util::{ours, TempDir};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn available(shell: &str) -> bool {
    let found = Command::new(shell)
        .args(["-c", "exit 0"])
        .output()
        .is_ok_and(|o| o.status.success());
    if !found {
        util::skipped(&format!(
            "{shell} is not installed; its completion is not checked"
        ));
    }
    found
}

fn words<T>(table: &[(&'static str, T)]) -> Vec<&'static str> {
    table.iter().map(|(w, _)| *w).collect()
}

/// The options whose values every shell must complete after `=`, and the
/// values (what `ls` accepts, from its own tables).
fn enumerated() -> Vec<(&'static str, Vec<&'static str>)> {
    vec![
        ("color", words(args::WHEN_ARGS)),
        ("hyperlink", words(args::WHEN_ARGS)),
        ("classify", words(args::WHEN_ARGS)),
        (
            "time",
            words(&args::time_args(statls::gnu::Gnu::new(statls::gnu::NEWEST))),
        ),
        (
            "sort",
            words(args::sort_args(statls::gnu::Gnu::new(statls::gnu::NEWEST))),
        ),
        ("format", words(args::FORMAT_ARGS)),
        ("quoting-style", words(args::QUOTING_ARGS)),
        ("indicator-style", words(args::INDICATOR_ARGS)),
        ("time-style", vec!["full-iso", "long-iso", "iso", "locale"]),
        ("cached", words(args::CACHED_ARGS)),
        // Suggestions, not a fixed set.
        ("timeout", vec!["5s", "30s", "1m"]),
    ]
}

/// A home directory with a `bin/ls` (ours) and a `work` directory holding
/// one file, `file.txt`, to tell file candidates from option values.
struct Home {
    dir: TempDir,
}

impl Home {
    fn new(tag: &str) -> Home {
        let dir = TempDir::new(tag);
        dir.file("work/file.txt", 1, 1_600_000_000);
        std::fs::create_dir_all(dir.path().join("bin")).unwrap();
        std::os::unix::fs::symlink(ours(), dir.path().join("bin/ls")).unwrap();
        Home { dir }
    }

    fn path(&self) -> &Path {
        self.dir.path()
    }

    /// Copies a completion file to `relative` under the home.
    fn install(&self, completion: &str, relative: &str) {
        let to = self.path().join(relative);
        std::fs::create_dir_all(to.parent().unwrap()).unwrap();
        std::fs::copy(root().join(completion), to).unwrap();
    }

    /// `shell args` in `work`, with this home and our `ls` first in PATH.
    fn run(&self, shell: &str, args: &[&str], env: &[(&str, &Path)]) -> String {
        let out = Command::new(shell)
            .args(args)
            .current_dir(self.path().join("work"))
            .env_clear()
            .env("HOME", self.path())
            .env("XDG_CONFIG_HOME", self.path().join(".config"))
            .env("XDG_DATA_HOME", self.path().join(".local/share"))
            .env(
                "PATH",
                format!("{}:/usr/bin:/bin", self.path().join("bin").display()),
            )
            .env("LC_ALL", "C.UTF-8")
            .env("TERM", "dumb")
            .envs(env.iter().map(|(k, v)| (*k, v.as_os_str())))
            .output()
            .expect("run the shell");
        assert!(
            out.status.success(),
            "{shell} {args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8_lossy(&out.stdout).into_owned()
    }
}

/// The first tab-separated field of each non-empty line (fish prints
/// `candidate<TAB>description`).
fn candidates(output: &str) -> BTreeSet<String> {
    output
        .lines()
        .map(|l| l.split('\t').next().unwrap_or("").trim().to_string())
        .filter(|c| !c.is_empty())
        .collect()
}

fn prefixed(option: &str, values: &[&str]) -> BTreeSet<String> {
    values.iter().map(|v| format!("--{option}={v}")).collect()
}

// ---- fish -------------------------------------------------------------------

fn fish_complete(home: &Home, line: &str) -> BTreeSet<String> {
    let script = format!("complete -C {}", shell_quote(line));
    candidates(&home.run("fish", &["-c", &script], &[]))
}

fn shell_quote(s: &str) -> String {
    format!("'{}'", s.replace('\'', "'\\''"))
}

#[test]
fn fish_offers_each_value_after_the_equals_sign_only() {
    if !available("fish") {
        return;
    }
    let home = Home::new("fish");
    home.install("completions/ls.fish", ".config/fish/completions/ls.fish");
    for (option, values) in enumerated() {
        let got = fish_complete(&home, &format!("ls --{option}="));
        assert_eq!(got, prefixed(option, &values), "fish: ls --{option}=<Tab>");
    }
    for option in ["color", "hyperlink", "classify"] {
        let got = fish_complete(&home, &format!("ls --{option} "));
        assert!(
            got.contains("file.txt") && !got.contains("always"),
            "fish: ls --{option} <Tab> must offer files, not WHEN: {got:?}"
        );
    }
    let got = fish_complete(&home, "ls --sort ");
    assert!(got.contains("size") && !got.contains("file.txt"), "{got:?}");
}

// ---- bash -------------------------------------------------------------------

const BASH_COMPLETION: &str = "/usr/share/bash-completion/bash_completion";

/// A bash script that loads bash-completion (and `extra`), then defines
/// `comp LINE`: the candidates the completion registered for `ls` gives
/// with the cursor at the end of LINE, split into words as readline does.
fn bash_prelude(extra: &str) -> String {
    format!(
        "source {BASH_COMPLETION}\n{extra}\n\
         compopt() {{ :; }}\n\
         comp() {{\n\
             COMP_LINE=$1; COMP_POINT=${{#1}}\n\
             read -ra COMP_WORDS <<<\"${{1//=/ = }}\"\n\
             [[ $1 == *' ' || $1 == *= ]] && COMP_WORDS+=('')\n\
             COMP_CWORD=$((${{#COMP_WORDS[@]}} - 1))\n\
             COMPREPLY=()\n\
             local f; f=$(complete -p ls | sed -n 's/.*-F \\([^ ]*\\).*/\\1/p')\n\
             \"$f\" ls \"${{COMP_WORDS[COMP_CWORD]}}\" \"${{COMP_WORDS[COMP_CWORD-1]}}\"\n\
             printf '%s\\n' \"${{COMPREPLY[@]}}\"\n\
         }}\n"
    )
}

fn bash_ready() -> bool {
    if !available("bash") {
        return false;
    }
    if !Path::new(BASH_COMPLETION).exists() {
        util::skipped("bash-completion is not installed; bash completion not checked");
        return false;
    }
    true
}

#[test]
fn bash_with_the_shipped_completion_offers_values_after_the_equals_sign() {
    if !bash_ready() {
        return;
    }
    let home = Home::new("bash");
    home.install("completions/ls.bash", ".local/share/statls/ls.bash");
    let prelude = bash_prelude("source ~/.local/share/statls/ls.bash");
    for (option, values) in enumerated() {
        let script = format!("{prelude}comp 'ls --{option}='");
        let got = candidates(&home.run("bash", &["--norc", "--noprofile", "-c", &script], &[]));
        let want: BTreeSet<String> = values.iter().map(|v| v.to_string()).collect();
        assert_eq!(got, want, "bash: ls --{option}=<Tab>");
    }
    for (line, wanted, unwanted) in [
        ("ls --color ", "file.txt", "always"),
        ("ls --sort ", "size", "file.txt"),
        ("ls --cach", "--cached=", "--color="),
        ("ls fi", "file.txt", "--all"),
    ] {
        let script = format!("{prelude}comp '{line}'");
        let got = candidates(&home.run("bash", &["--norc", "--noprofile", "-c", &script], &[]));
        assert!(
            got.contains(wanted) && !got.contains(unwanted),
            "bash: {line}<Tab>: {got:?}"
        );
    }
}

/// `_parse_help PROGRAM`: the options bash-completion's generic `_longopt`
/// finds in a program's `--help`.
fn parse_help(home: &Home, program: &str) -> BTreeSet<String> {
    let script = format!("source {BASH_COMPLETION}\n_parse_help {program}");
    candidates(&home.run("bash", &["--norc", "--noprofile", "-c", &script], &[]))
}

#[test]
fn bash_completions_generic_help_parser_finds_every_option_it_finds_for_gnu() {
    if !bash_ready() {
        return;
    }
    let home = Home::new("bash-help");
    let ours = parse_help(&home, "ls");
    assert!(
        ours.contains("--cached=") && ours.contains("--json"),
        "{ours:?}"
    );
    for option in ["--color", "--sort=", "--time=", "--hyperlink", "--classify"] {
        assert!(
            ours.contains(option),
            "_parse_help misses {option}: {ours:?}"
        );
    }
    let Some(gnu) = util::gnu() else {
        util::skipped("/bin/ls is not GNU ls 9.1; _parse_help not compared");
        return;
    };
    let theirs = parse_help(&home, gnu.to_str().unwrap());
    let missing: Vec<&String> = theirs.difference(&ours).collect();
    assert!(
        missing.is_empty(),
        "_parse_help finds {missing:?} for GNU ls only"
    );
}

// ---- zsh --------------------------------------------------------------------

/// The candidates zsh offers for `line`, with `fpath_dir` (the shipped
/// `_ls`) first in `$fpath`, or zsh's own functions only.
fn zsh_complete(home: &Home, line: &str, fpath_dir: Option<&Path>) -> BTreeSet<String> {
    let script = root().join("tests/support/zsh-complete.zsh");
    let empty = PathBuf::new();
    let dir = fpath_dir.unwrap_or(&empty);
    candidates(&home.run(
        "timeout",
        &["20", "zsh", "-f", script.to_str().unwrap(), line],
        &[("CAPTURE_FPATH", dir)],
    ))
}

#[test]
fn zsh_with_the_shipped_completion_offers_values_after_the_equals_sign_only() {
    if !available("zsh") {
        return;
    }
    let home = Home::new("zsh");
    home.install("completions/_ls", ".zfunc/_ls");
    let fpath = home.path().join(".zfunc");
    for (option, values) in enumerated() {
        let got = zsh_complete(&home, &format!("ls --{option}="), Some(&fpath));
        assert_eq!(got, prefixed(option, &values), "zsh: ls --{option}=<Tab>");
    }
    let got = zsh_complete(&home, "ls --color ", Some(&fpath));
    assert!(
        got.contains("file.txt") && !got.contains("always"),
        "{got:?}"
    );
}

#[test]
fn zshs_own_ls_completion_recognises_gnu_ls() {
    if !available("zsh") {
        return;
    }
    let home = Home::new("zsh-stock");
    // zsh's _ls runs `ls --help` and looks for "gnu" in it.
    let help = home.run("ls", &["--help"], &[]);
    assert!(help.contains("gnu"), "--help never says \"gnu\"");
    // Only its GNU branch knows --color=WHEN and --sort=WORD.
    let got = zsh_complete(&home, "ls --color=", None);
    assert!(
        got.contains("--color=always") && got.contains("--color=never"),
        "zsh's _ls took our ls for a non-GNU ls: {got:?}"
    );
    let got = zsh_complete(&home, "ls --sort=", None);
    assert!(got.contains("--sort=size"), "{got:?}");
}
