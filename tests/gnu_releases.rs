//! What each GNU ls release does differently, as golden expectations that
//! need no reference binary: statls run with `STATLS_GNU_VERSION` set to
//! 8.32, 9.1, 9.7 or 9.10 must print what that release prints. The bytes
//! were taken from Debian's builds (bullseye, bookworm, trixie, sid);
//! tests/versions.rs checks the same against the real binaries where the
//! archive can be reached.

mod util;

use util::{run, Run, TempDir};

/// Runs ours as GNU ls `version` in `dir` (LC_ALL=C, TZ=UTC, plus `env`).
fn as_release(version: &str, dir: &TempDir, args: &[&str], env: &[(&str, &str)]) -> Run {
    let mut all = vec![("STATLS_GNU_VERSION", version)];
    all.extend_from_slice(env);
    run(&util::ours(), dir.path(), args, &all)
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

fn stdout(version: &str, dir: &TempDir, args: &[&str]) -> String {
    text(&as_release(version, dir, args, &[]).stdout)
}

fn names(list: &[&str]) -> TempDir {
    let t = TempDir::new("releases");
    for name in list {
        t.file(name, 0, 1_600_000_000);
    }
    t
}

#[test]
fn zero_came_in_9_0() {
    let t = names(&["a"]);
    let old = as_release("8.32", &t, &["--zero"], &[]);
    assert_eq!(
        text(&old.stderr),
        "ls: unrecognized option '--zero'\nTry 'ls --help' for more information.\n"
    );
    assert_eq!(old.status, Some(2));
    assert_eq!(stdout("9.1", &t, &["--zero"]), "a\0");
}

#[test]
fn classify_takes_when_from_9_0() {
    let t = names(&["a"]);
    let old = as_release("8.32", &t, &["--classify=always"], &[]);
    assert_eq!(
        text(&old.stderr),
        "ls: option '--classify' doesn't allow an argument\n\
         Try 'ls --help' for more information.\n"
    );
    assert_eq!(stdout("9.1", &t, &["--classify=never"]), "a\n");
}

#[test]
fn sort_words_and_their_order_follow_the_release() {
    let t = names(&["a"]);
    assert_eq!(stdout("9.1", &t, &["--sort=n"]), "a\n", "none, unambiguous");
    let new = as_release("9.10", &t, &["--sort=n"], &[]);
    assert_eq!(new.status, Some(1));
    assert_eq!(
        text(&new.stderr),
        "ls: ambiguous argument 'n' for '--sort'\nValid arguments are:\n  - 'none'\n  \
         - 'size'\n  - 'time'\n  - 'version'\n  - 'extension'\n  - 'name'\n  - 'width'\n\
         Try 'ls --help' for more information.\n"
    );
    let old = as_release("8.32", &t, &["--sort=width"], &[]);
    assert!(text(&old.stderr).contains("  - 'version'\nTry"), "{old:?}");
}

#[test]
fn time_mtime_is_a_word_of_later_releases() {
    let t = names(&["a"]);
    assert_eq!(stdout("9.7", &t, &["--time=mtime"]), "a\n");
    let old = as_release("9.1", &t, &["--time=mtime"], &[]);
    assert_eq!(old.status, Some(1));
    assert!(text(&old.stderr).contains("  - 'birth', 'creation'\n"));
}

#[test]
fn f_is_just_all_unsorted_from_9_6() {
    let t = names(&["a"]);
    assert_eq!(stdout("9.1", &t, &["-l", "-f", "a"]), "a\n");
    assert!(stdout("9.10", &t, &["-l", "-f", "a"]).starts_with("-rw-"));
}

#[test]
fn dired_implies_the_long_format_from_9_5() {
    let t = names(&["a"]);
    assert_eq!(stdout("9.1", &t, &["--dired", "a"]), "a\n");
    let new = stdout("9.7", &t, &["--dired", "a"]);
    assert!(
        new.starts_with("  -rw-") && new.contains("//DIRED// "),
        "{new}"
    );
}

#[test]
fn a_symlink_loop_operand_is_listed_from_9_4() {
    let t = names(&[]);
    t.symlink("loop", "loop");
    let old = as_release("9.1", &t, &["loop"], &[]);
    assert_eq!(
        text(&old.stderr),
        "ls: cannot access 'loop': Too many levels of symbolic links\n"
    );
    assert_eq!(old.status, Some(2));
    assert_eq!(stdout("9.7", &t, &["loop"]), "loop\n");
}

#[test]
fn hyperlinks_end_with_st_in_9_10_and_loops_resolved_as_8_32_did() {
    let t = names(&["f"]);
    t.symlink("loop2", "loop1").symlink("loop1", "loop2");
    let host = text(&std::fs::read("/proc/sys/kernel/hostname").unwrap_or_default());
    let base = format!("file://{}{}", host.trim(), t.path().display());
    assert_eq!(
        stdout("9.10", &t, &["--hyperlink=always", "f"]),
        format!("\x1b]8;;{base}/f\x1b\\f\x1b]8;;\x1b\\\n")
    );
    assert_eq!(
        stdout("9.7", &t, &["--hyperlink=always", "f"]),
        format!("\x1b]8;;{base}/f\x07f\x1b]8;;\x07\n")
    );
    let listed = |v| stdout(v, &t, &["--hyperlink=always", "-d", "./loop1"]);
    assert!(listed("8.32").starts_with(&format!("\x1b]8;;{base}/loop2\x07")));
    assert!(listed("9.1").starts_with(&format!("\x1b]8;;{base}/loop1\x07")));
}

#[test]
fn names_with_controls_have_no_width_in_multibyte_locales_from_9_5() {
    let t = names(&["\x07bell", "AAAA", "BBBB", "CCCC"]);
    let args = ["-CU", "-w", "80", "-d", "\x07bell", "AAAA", "BBBB", "CCCC"];
    let env = [("LC_ALL", "C.UTF-8")];
    assert_eq!(
        text(&as_release("9.1", &t, &args, &env).stdout),
        "\x07bell  AAAA  BBBB  CCCC\n"
    );
    assert_eq!(
        text(&as_release("9.7", &t, &args, &env).stdout),
        "\x07bellAAAA  BBBB  CCCC\n"
    );
    // In the C locale every release measures it.
    assert_eq!(stdout("9.7", &t, &args), "\x07bell  AAAA  BBBB  CCCC\n");
}

#[test]
fn version_order_of_hidden_names_by_release() {
    let t = names(&[".0", "..a", ".a", ".m4", "a.", "a0", "a.0"]);
    let order = |v| stdout(v, &t, &["-A1v"]);
    assert_eq!(order("9.1"), ".a\n.m4\n.0\n..a\na0\na.\na.0\n");
    assert_eq!(order("9.10"), ".0\n..a\n.a\n.m4\na0\na.\na.0\n");
    assert_eq!(order("8.32"), "..a\n.0\n.a\n.m4\na.\na0\na.0\n");
}

#[test]
fn suffix_colours_that_differ_only_in_case_match_case_from_9_2() {
    let t = names(&["a.c", "b.C"]);
    let env = [("LS_COLORS", "*.c=01;35:*.C=01;36")];
    let colours = |v| text(&as_release(v, &t, &["--color=always"], &env).stdout);
    assert_eq!(
        colours("9.1"),
        "\x1b[0m\x1b[01;36ma.c\x1b[0m\n\x1b[01;36mb.C\x1b[0m\n"
    );
    assert_eq!(
        colours("9.7"),
        "\x1b[0m\x1b[01;35ma.c\x1b[0m\n\x1b[01;36mb.C\x1b[0m\n"
    );
}

/// GNU's tests/ls/color-ext.sh: once a suffix meets an older case variant
/// with its own value, every older variant is dropped, whatever its value,
/// and the suffix matches in any case (9.2 and later).
#[test]
fn a_same_value_case_pair_drops_older_variants_from_9_2() {
    let t = names(&["img1.jpg", "IMG2.JPG", "img3.JpG"]);
    let env = [("LS_COLORS", "*.jpg=01;35:*.jpg=01;35;46:*.JPG=01;35;46")];
    let colours = |v| text(&as_release(v, &t, &["--color=always"], &env).stdout);
    let all_46 = "\x1b[0m\x1b[01;35;46mIMG2.JPG\x1b[0m\n\
                  \x1b[01;35;46mimg1.jpg\x1b[0m\n\
                  \x1b[01;35;46mimg3.JpG\x1b[0m\n";
    assert_eq!(colours("9.7"), all_46);
    assert_eq!(colours("9.10"), all_46);
    // 9.1 ignores case throughout: the newest pattern, `*.JPG`, wins.
    assert_eq!(colours("9.1"), all_46);
    // A variant with another value, met before the same-value one, makes
    // both exact: `c.Jpg` matches neither (9.1: the newest matches all).
    let t = names(&["a.jpg", "b.JPG", "c.Jpg"]);
    let env = [("LS_COLORS", "*.jpg=31:*.Jpg=33:*.JPG=32:*.jpg=33")];
    let colours = |v| text(&as_release(v, &t, &["--color=always"], &env).stdout);
    assert_eq!(
        colours("9.10"),
        "\x1b[0m\x1b[33ma.jpg\x1b[0m\n\x1b[32mb.JPG\x1b[0m\nc.Jpg\n"
    );
    assert_eq!(
        colours("9.1"),
        "\x1b[0m\x1b[33ma.jpg\x1b[0m\n\x1b[33mb.JPG\x1b[0m\n\x1b[33mc.Jpg\x1b[0m\n"
    );
}

#[test]
fn strftime_corner_cases_by_release() {
    let t = names(&[]);
    t.file("a", 0, 1_599_300_000); // 2020-09-05: %Od has a leading zero
    let style = |v, fmt: &str| {
        let arg = format!("--time-style=+[{fmt}]");
        let out = stdout(v, &t, &["-g", "--no-group", &arg, "a"]);
        let (_, rest) = out.split_once('[').unwrap_or_default();
        rest.split_once(']').unwrap_or_default().0.to_string()
    };
    assert_eq!(style("8.32", "%5%|%-Od"), "    %|05");
    assert_eq!(style("9.1", "%05%|%-Od|%OY"), "00%05%|05|%OY");
    assert_eq!(style("9.10", "%05%|%-Od|%OY"), "00%05%|5|2020");
}

#[test]
fn shell_escape_second_pass_starts_afresh_from_9_6() {
    let t = names(&["\x01'\x01"]);
    let q = |v| stdout(v, &t, &["--quoting-style=shell-escape"]);
    assert_eq!(q("9.1"), "'\\001'\\'''$'\\001'\n");
    assert_eq!(q("9.7"), "''$'\\001'\\'''$'\\001'\n");
}

#[test]
fn layout_variables_were_read_first_in_8_32() {
    let t = names(&["a"]);
    let env = [("COLUMNS", "abc")];
    let old = as_release("8.32", &t, &["-1", "--bogus"], &env);
    assert_eq!(
        text(&old.stderr),
        "ls: ignoring invalid width in environment variable COLUMNS: 'abc'\n\
         ls: unrecognized option '--bogus'\nTry 'ls --help' for more information.\n"
    );
    let new = as_release("9.1", &t, &["-1"], &env);
    assert_eq!(
        (text(&new.stdout), text(&new.stderr)),
        ("a\n".into(), "".into())
    );
}

#[test]
fn error_messages_name_the_program_by_its_base_name_from_9_7() {
    let t = names(&[]);
    let by_path = |v: &str| {
        let out = std::process::Command::new(util::ours())
            .arg("nonexistent")
            .current_dir(t.path())
            .env_clear()
            .env("LC_ALL", "C")
            .env("STATLS_GNU_VERSION", v)
            .output()
            .expect("run ls");
        text(&out.stderr)
    };
    let full = util::ours().display().to_string();
    assert_eq!(
        by_path("9.1"),
        format!("{full}: cannot access 'nonexistent': No such file or directory\n")
    );
    assert_eq!(
        by_path("9.7"),
        "ls: cannot access 'nonexistent': No such file or directory\n"
    );
}

#[test]
fn an_unknown_release_is_a_warning_and_the_default() {
    let t = names(&["a"]);
    let r = as_release("9.99", &t, &["a"], &[]);
    assert_eq!(text(&r.stdout), "a\n");
    let err = text(&r.stderr);
    assert!(
        err.starts_with("ls: warning: ignoring STATLS_GNU_VERSION=9.99"),
        "{err}"
    );
    assert_eq!(err.lines().count(), 1);
    assert_eq!(r.status, Some(0));
}

#[test]
fn version_and_help_name_the_release() {
    let t = names(&[]);
    assert!(stdout("9.7.1", &t, &["--version"]).contains("GNU ls 9.7 compatible"));
    assert!(!stdout("8.32", &t, &["--help"]).contains("--zero"));
    assert!(stdout("9.1", &t, &["--help"]).contains("--zero"));
    assert!(stdout("9.10", &t, &["--help"]).contains("name, width"));
}

#[test]
fn debians_9_7_colours_capabilities_when_ca_is_set() {
    let t = names(&["cap", "plain"]);
    // security.capability, version 2, effective, permitted CAP_NET_RAW
    // (what `setcap cap_net_raw+ep` writes); only root may set it.
    let set = std::process::Command::new("python3")
        .arg("-c")
        .arg(
            "import os,sys; os.setxattr(sys.argv[1], 'security.capability', \
             bytes([1,0,0,2, 0,0x20,0,0, 0,0,0,0, 0,0,0,0, 0,0,0,0]))",
        )
        .arg(t.path().join("cap"))
        .status();
    if !set.is_ok_and(|s| s.success()) {
        util::skipped("cannot set security.capability (not root?): capability colours NOT checked");
        return;
    }
    let env = [("LS_COLORS", "ca=30;41")];
    let colours = |v| text(&as_release(v, &t, &["--color=always"], &env).stdout);
    assert_eq!(colours("9.7"), "\x1b[0m\x1b[30;41mcap\x1b[0m\nplain\n");
    assert_eq!(colours("9.1"), "cap\nplain\n");
    assert_eq!(colours("9.10"), "cap\nplain\n");
}

#[test]
fn json_abbreviations_never_take_a_gnu_options_place_in_any_release() {
    use statls::cli::getopt::lookup_long;
    use statls::cli::{OptId, OPTIONS};
    // In every GNU release statls can be: no prefix of a GNU option can
    // reach --json, as a match or a candidate.
    for gnu in statls::gnu::SUPPORTED
        .iter()
        .map(|&v| statls::gnu::Gnu::new(v))
    {
        for prefix in ["j", "js", "jso", "json"] {
            let found = lookup_long(prefix.as_bytes(), gnu).map(|s| s.id);
            assert_eq!(found, Ok(OptId::Json));
        }
        for spec in OPTIONS.iter().filter(|s| s.id != OptId::Json) {
            let Some(long) = spec.long else { continue };
            for end in 1..=long.len() {
                match lookup_long(&long.as_bytes()[..end], gnu) {
                    Ok(s) => assert_ne!(s.id, OptId::Json),
                    Err(candidates) => assert!(!candidates.contains(&"json")),
                }
            }
        }
    }
}
