//! `--cached=MODE` and `LS_CACHED`, as a specification (GNU stat's option,
//! which GNU ls lacks):
//!
//! - `always` asks every statx with `AT_STATX_DONT_SYNC`: a network
//!   filesystem answers from the client's cache, so `ls -l` sends no
//!   GETATTR at all, whatever the attribute timeout;
//! - `never` asks every statx with `AT_STATX_FORCE_SYNC`: a GETATTR per
//!   entry even while the cached attributes are valid;
//! - `default` is GNU ls's behaviour, byte for byte;
//! - no mode changes the statx mask; the option wins over the variable; an
//!   invalid mode is GNU stat's diagnostic for it, byte for byte, with
//!   status 1 (as GNU ls's own invalid arguments, `--sort=foo`).
//!
//! Checked with strace (the flags) and on bench/latfs, a FUSE passthrough
//! that counts the requests the kernel sends. Both are skipped with a
//! loud `SKIPPED` line where the tool (strace; /dev/fuse, fusermount3, a C
//! compiler and libfuse3's headers) is missing.

mod util;

use std::path::Path;
use std::process::{Command, Stdio};

use util::latfs::Latfs;
use util::{gnu, ours, run, skipped, TempDir};

const MODES: [&str; 3] = ["default", "always", "never"];

#[test]
fn an_invalid_mode_lists_the_valid_ones_and_exits_1() {
    let t = TempDir::new("cached-bad");
    let r = run(&ours(), t.path(), &["--cached=sometimes"], &[]);
    assert_eq!(r.status, Some(1));
    assert!(r.stdout.is_empty());
    assert_eq!(
        String::from_utf8_lossy(&r.stderr),
        "ls: invalid argument 'sometimes' for '--cached'\n\
         Valid arguments are:\n  - 'default'\n  - 'never'\n  - 'always'\n\
         Try 'ls --help' for more information.\n"
    );
}

#[test]
fn an_invalid_mode_is_reported_as_gnu_stat_reports_it() {
    let t = TempDir::new("cached-stat");
    let stat = Path::new("/usr/bin/stat");
    let is_gnu_91 = Command::new(stat)
        .arg("--version")
        .output()
        .is_ok_and(|o| o.stdout.starts_with(b"stat (GNU coreutils) 9.1"));
    if !is_gnu_91 || gnu().is_none() {
        skipped("GNU stat and ls 9.1 are needed to compare --cached diagnostics");
        return;
    }
    // GNU ls's own invalid argument: the same form, and status 1.
    let sort = run(&gnu().unwrap(), t.path(), &["--sort=foo"], &[]);
    assert_eq!(sort.status, Some(1));
    for locale in ["C", "fr_FR.UTF-8"] {
        for arg in ["--cached=sometimes", "--cached=", "--cache=x"] {
            // `stat` run as `ls` names itself `ls`.
            let theirs = run(stat, t.path(), &[arg], &[("LC_ALL", locale)]);
            let r = run(&ours(), t.path(), &[arg], &[("LC_ALL", locale)]);
            util::assert_same(&format!("LC_ALL={locale} ls {arg}"), &theirs, &r);
        }
    }
}

#[test]
fn modes_and_the_option_itself_may_be_abbreviated() {
    let t = TempDir::new("cached-abbrev");
    t.file("a", 1, 1_600_000_000);
    for args in [
        &["--cached=a"][..],
        &["--cached=n"],
        &["--cached=d"],
        &["--ca=always"],
        &["--cache", "never"],
    ] {
        let r = run(&ours(), t.path(), args, &[]);
        assert_eq!(
            (r.status, &r.stdout[..]),
            (Some(0), &b"a\n"[..]),
            "{args:?}"
        );
        assert!(r.stderr.is_empty(), "{args:?}");
    }
}

#[test]
fn an_ambiguous_c_still_lists_gnu_options_only() {
    let t = TempDir::new("cached-ambiguous");
    let r = run(&ours(), t.path(), &["--c"], &[]);
    assert_eq!(r.status, Some(2));
    assert_eq!(
        String::from_utf8_lossy(&r.stderr),
        "ls: option '--c' is ambiguous; possibilities: '--classify' '--color' '--context'\n\
         Try 'ls --help' for more information.\n"
    );
    util::compare(t.path(), &["--c"], &[]);
}

#[test]
fn an_invalid_ls_cached_is_ignored_with_a_warning() {
    let t = TempDir::new("cached-env");
    t.file("a", 1, 1_600_000_000);
    let r = run(&ours(), t.path(), &[], &[("LS_CACHED", "later")]);
    assert_eq!(r.status, Some(0));
    assert_eq!(r.stdout, b"a\n");
    assert_eq!(
        String::from_utf8_lossy(&r.stderr),
        "ls: ignoring invalid value of environment variable LS_CACHED: 'later'\n"
    );
    // With the option the variable is not even read.
    let r = run(
        &ours(),
        t.path(),
        &["--cached=never"],
        &[("LS_CACHED", "later")],
    );
    assert_eq!((r.status, r.stderr.len()), (Some(0), 0));
}

// ---- the flags, under strace ----------------------------------------------

/// `(path, flags, mask)` of every statx our ls makes on an entry of `d`.
fn entry_statx(t: &TempDir, args: &[&str], env: &[(&str, &str)]) -> Vec<(String, String, String)> {
    let log = t.path().join(".strace.log");
    let status = Command::new("strace")
        .args(["-f", "-qq", "-e", "trace=statx", "-o"])
        .arg(&log)
        .arg(ours())
        .args(args)
        .current_dir(t.path())
        .env_clear()
        .env("LC_ALL", "C")
        .envs(env.iter().copied())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .expect("run strace");
    assert!(status.success(), "ls {args:?} failed under strace");
    let text = std::fs::read_to_string(&log).unwrap();
    let _ = std::fs::remove_file(&log);
    let mut calls: Vec<(String, String, String)> = text
        .lines()
        .filter_map(|line| {
            let args = line.split_once("statx(")?.1;
            let mut parts = args.splitn(4, ", ");
            let _dirfd = parts.next()?;
            let path = parts.next()?.trim_matches('"').to_string();
            let flags = parts.next()?.to_string();
            let mask = parts.next()?.split(", ").next()?.to_string();
            path.starts_with('f').then_some((path, flags, mask))
        })
        .collect();
    calls.sort();
    calls
}

fn strace_fixture(tag: &str) -> Option<TempDir> {
    let present = Command::new("strace")
        .arg("-V")
        .output()
        .is_ok_and(|o| o.status.success());
    if !present {
        skipped("strace is not installed; --cached flags not checked");
        return None;
    }
    let t = TempDir::new(tag);
    for i in 0..20 {
        t.file(format!("d/f{i:02}"), i, 1_600_000_000);
    }
    Some(t)
}

/// The flag each mode puts on every statx of an entry.
fn expected_flag(mode: &str) -> Option<&'static str> {
    match mode {
        "always" => Some("AT_STATX_DONT_SYNC"),
        "never" => Some("AT_STATX_FORCE_SYNC"),
        _ => None,
    }
}

#[test]
fn each_mode_sets_its_sync_flag_on_every_statx_and_keeps_the_mask() {
    let Some(t) = strace_fixture("cached-flags") else {
        return;
    };
    for listing in [&["-l"][..], &["-i"], &["--json", "-l"], &["-lR"]] {
        let masks = |calls: &[(String, String, String)]| -> Vec<(String, String)> {
            calls
                .iter()
                .map(|(p, _, m)| (p.clone(), m.clone()))
                .collect()
        };
        let mut args = listing.to_vec();
        args.push("d");
        let default = entry_statx(&t, &args, &[]);
        assert_eq!(default.len(), 20, "ls {args:?}: {default:?}");
        for (path, flags, mask) in &default {
            assert!(!flags.contains("FORCE_SYNC"), "{path}: {flags}");
            if mask.contains("STATX_SIZE") {
                // What may have changed on the server is asked for anew.
                assert!(!flags.contains("DONT_SYNC"), "{path}: {flags}");
            }
        }
        for mode in ["always", "never"] {
            let flag = expected_flag(mode).unwrap();
            let option = format!("--cached={mode}");
            let mut with = args.clone();
            with.insert(0, &option);
            let calls = entry_statx(&t, &with, &[]);
            assert_eq!(masks(&calls), masks(&default), "ls {with:?}: masks changed");
            for (path, flags, _) in &calls {
                assert!(flags.contains(flag), "ls {with:?}, {path}: {flags}");
            }
            // The variable does the same, and the option wins over it.
            let by_env = entry_statx(&t, &args, &[("LS_CACHED", mode)]);
            assert_eq!(by_env, calls, "LS_CACHED={mode} ls {args:?}");
            let other = if mode == "always" { "never" } else { "always" };
            let overridden = entry_statx(&t, &with, &[("LS_CACHED", other)]);
            assert_eq!(overridden, calls, "LS_CACHED={other} ls {with:?}");
        }
        let explicit = entry_statx(&t, &[&["--cached=default"][..], &args].concat(), &[]);
        assert_eq!(explicit, default, "--cached=default is the default");
    }
}

// ---- request counts on latfs ------------------------------------------------

/// The requests `program args` makes when started in `dir` of the mount,
/// and how it ran. Counters are reset first. Ours probes overlapped from
/// the first entry (`STATLS_THREADS=8`): unforced, it probes the first
/// few entries by name until it has timed the device's answers as slow,
/// and how many depends on timing.
fn requests(
    fs: &Latfs,
    program: &Path,
    dir: &str,
    args: &[&str],
) -> (std::collections::HashMap<String, u64>, util::Run) {
    fs.reset();
    let r = run(
        program,
        &fs.path().join(dir),
        args,
        &[("STATLS_THREADS", "8")],
    );
    (fs.counts(), r)
}

const ENTRIES: u64 = 1000;

/// latfs over a fresh `src/flat` of [`ENTRIES`] files, mounted with this
/// attribute timeout (the mount is dropped, unmounted, before the tree).
fn mounted(tag: &str, timeout: u32) -> Option<(Latfs, TempDir)> {
    let t = TempDir::new(tag);
    for i in 0..ENTRIES {
        t.file(
            format!("src/flat/f{i:04}"),
            (i % 7) as usize,
            1_600_000_000 + i as i64,
        );
    }
    let fs = Latfs::mount(&t.path().join("src"), &format!("timeout={timeout}"))?;
    fs.reset();
    Some((fs, t))
}

fn getattrs(counts: &std::collections::HashMap<String, u64>) -> u64 {
    counts.get("GETATTR").copied().unwrap_or(0)
}

#[test]
fn long_listing_requests_per_mode_with_attribute_timeout_0() {
    let Some((fs, _tree)) = mounted("cached-latfs0", 0) else {
        return;
    };
    // What starting any program in the directory costs (the chdir).
    let (base, _) = requests(&fs, Path::new("/bin/true"), "flat", &[]);
    let gnu_run = gnu().map(|g| requests(&fs, &g, "flat", &["-l"]));
    for mode in MODES {
        let option = format!("--cached={mode}");
        let (counts, r) = requests(&fs, &ours(), "flat", &["-l", &option]);
        assert_eq!((r.status, r.stderr.len()), (Some(0), 0), "ls -l {option}");
        assert_eq!(
            counts.get("LOOKUP").copied().unwrap_or(0),
            ENTRIES + base.get("LOOKUP").copied().unwrap_or(0),
            "ls -l {option}: one LOOKUP per entry: {counts:?}"
        );
        match mode {
            // The LOOKUP brought the attributes: no GETATTR of its own.
            "always" => assert_eq!(
                getattrs(&counts),
                getattrs(&base),
                "ls -l {option}: {counts:?}"
            ),
            _ => assert!(getattrs(&counts) >= ENTRIES, "ls -l {option}: {counts:?}"),
        }
        // Nothing changed meanwhile: every mode prints what GNU prints.
        if let Some((_, g)) = &gnu_run {
            util::assert_same(&format!("ls -l {option} on latfs"), g, &r);
        }
    }
    if gnu_run.is_none() {
        skipped("/bin/ls is not GNU ls 9.1: latfs output not compared");
    }
}

#[test]
fn never_asks_the_server_even_while_the_attributes_are_cached() {
    let Some((fs, _tree)) = mounted("cached-latfs60", 60) else {
        return;
    };
    // A first listing fills the kernel's caches for 60 seconds.
    let (first, _) = requests(&fs, &ours(), "flat", &["-l"]);
    assert!(getattrs(&first) + first["LOOKUP"] >= ENTRIES, "{first:?}");
    for mode in MODES {
        let option = format!("--cached={mode}");
        let (counts, r) = requests(&fs, &ours(), "flat", &["-l", &option]);
        assert_eq!(r.status, Some(0));
        match mode {
            "never" => assert!(getattrs(&counts) >= ENTRIES, "ls -l {option}: {counts:?}"),
            _ => assert!(getattrs(&counts) < 10, "ls -l {option}: {counts:?}"),
        }
    }
}
