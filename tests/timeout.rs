//! `--timeout=DURATION` (issue 29). The option itself: DURATION as
//! timeout(1) reads it, 0 and `inf` meaning no limit, a bad value worded as
//! GNU words a bad `--block-size` (in C and in German), getopt's words for a
//! missing argument and GNU's ambiguity lists unchanged by our option.
//!
//! Then what it does, on the project's FUSE filesystem (bench/latfs)
//! hanging chosen requests for 10 s: every request unanswered after
//! DURATION is given up with ETIMEDOUT, so the oracle is GNU ls 9.1 on the
//! same tree with the same requests failing at once with ETIMEDOUT
//! (`fail_errno=110`): its bytes, stderr and status must be ours, within a
//! generous bound on the wall time (4 × DURATION + 2 s: a loaded 2-CPU
//! machine; lower bounds are never asserted). Without the option a short
//! hang is waited out with GNU's bytes.
//! Skipped, with a loud note, where FUSE, GNU ls 9.1 or a locale is missing.

mod util;

use std::path::Path;
use std::time::{Duration, Instant};

use util::latfs::Latfs;
use util::{assert_same, generated_locales, gnu, ours, run, skipped, Run, TempDir};

/// A directory of a few files, for the option's own tests.
fn small_dir() -> TempDir {
    let t = TempDir::new("timeout-cli");
    t.file("a", 1, 1_600_000_000)
        .file("b.txt", 20, 1_600_000_000)
        .file("sub/c", 3, 1_600_000_000)
        .symlink("a", "link");
    t
}

/// The values timeout(1) rejects, each also rejected by GNU's
/// `--block-size` (the last two as "invalid suffix in", which ours is not:
/// every bad DURATION gets the one message, as in timeout(1)).
const BAD: &[&str] = &["bogus", "", "-1", "nan", "-inf", "1x", "5ss"];
const SUFFIX_IN_BLOCK_SIZE: &[&str] = &["1x", "5ss"];

#[test]
fn bad_durations_are_an_invalid_argument_with_status_2() {
    let t = small_dir();
    // `1,5` is good where the decimal point is a comma, not in C.
    for value in BAD.iter().chain(&["1,5", "1.5.", " ", "0x", "infinit"]) {
        let arg = format!("--timeout={value}");
        for args in [vec![arg.as_str()], vec!["-l", &arg, "a"], vec![&arg, "-y"]] {
            let r = run(&ours(), t.path(), &args, &[]);
            assert_eq!(
                (String::from_utf8_lossy(&r.stderr), r.status, r.stdout.len()),
                (
                    format!("ls: invalid --timeout argument '{value}'\n").into(),
                    Some(2),
                    0
                ),
                "ls {args:?}"
            );
        }
    }
}

/// gnulib's translation of GNU's own `invalid --block-size argument`, with
/// our option and value in it.
#[test]
fn bad_durations_are_worded_in_german_as_gnus_bad_block_size() {
    let Some(g) = gnu() else {
        skipped("/bin/ls is not GNU ls 9.1; German diagnostics not compared");
        return;
    };
    if !generated_locales().iter().any(|l| l == "de_DE.utf8") {
        skipped("de_DE.UTF-8 is not generated; German diagnostics not compared");
        return;
    }
    let t = small_dir();
    let de = [("LC_ALL", "de_DE.UTF-8")];
    let gnus = |value: &str| {
        let r = run(&g, t.path(), &[&format!("--block-size={value}")], &de);
        assert_eq!(r.status, Some(2), "GNU --block-size={value}");
        String::from_utf8_lossy(&r.stderr).replace("block-size", "timeout")
    };
    let template = gnus("bogus");
    assert_ne!(template, "ls: invalid --timeout argument 'bogus'\n");
    for value in BAD {
        let want = template.replace("bogus", value);
        if !SUFFIX_IN_BLOCK_SIZE.contains(value) {
            assert_eq!(gnus(value), want, "GNU's shape for {value:?}");
        }
        let r = run(&ours(), t.path(), &[&format!("--timeout={value}")], &de);
        assert_eq!(
            (String::from_utf8_lossy(&r.stderr).into_owned(), r.status),
            (want, Some(2)),
            "--timeout={value} in de_DE.UTF-8"
        );
    }
}

/// Every good DURATION lists exactly as no option does (there is nothing
/// to give up on a local disk in that time).
#[test]
fn good_durations_list_as_without_the_option() {
    let t = small_dir();
    let plain = run(&ours(), t.path(), &["-l"], &[]);
    assert_eq!(plain.status, Some(0));
    let good = [
        "0", "5", "1.5s", "2m", ".5", "1e1", "inf", "1h", "1d", " 3", "+1", "0x10", "-0",
    ];
    for value in good {
        for args in [
            vec![format!("--timeout={value}"), "-l".into()],
            vec!["-l".into(), "--timeout".into(), value.into()],
            vec![format!("--timeo={value}"), "-l".into()],
        ] {
            let args: Vec<&str> = args.iter().map(String::as_str).collect();
            assert_same(
                &format!("ls {args:?} against ls -l"),
                &plain,
                &run(&ours(), t.path(), &args, &[]),
            );
        }
    }
    // The locale's decimal point as well as C's.
    if generated_locales().iter().any(|l| l == "de_DE.utf8") {
        let de = [("LC_ALL", "de_DE.UTF-8")];
        let plain = run(&ours(), t.path(), &["-l"], &de);
        for value in ["1,5", "1.5"] {
            let r = run(
                &ours(),
                t.path(),
                &["-l", &format!("--timeout={value}")],
                &de,
            );
            assert_same(&format!("--timeout={value} in German"), &plain, &r);
        }
    }
}

/// `--timeout=0` is GNU ls, byte for byte, whatever else is asked.
#[test]
fn timeout_zero_changes_nothing() {
    let Some(g) = gnu() else {
        skipped("/bin/ls is not GNU ls 9.1; --timeout=0 not compared");
        return;
    };
    let t = small_dir();
    for args in [
        &["-l"][..],
        &["-la", "--color=always"],
        &["-R"],
        &["-lR", "a", "sub", "missing"],
        &["-1F", "link"],
    ] {
        let theirs = run(&g, t.path(), args, &[]);
        for extra in ["--timeout=0", "--timeout=0s", "--timeo=inf"] {
            let mut mine = vec![extra];
            mine.extend_from_slice(args);
            let ours = run(&ours(), t.path(), &mine, &[]);
            assert_same(&format!("ls {}", mine.join(" ")), &theirs, &ours);
        }
    }
}

#[test]
fn a_missing_duration_is_getopts_missing_argument() {
    let t = small_dir();
    for args in [&["--timeout"][..], &["-l", "--timeo"]] {
        let r = run(&ours(), t.path(), args, &[]);
        assert_eq!(
            (String::from_utf8_lossy(&r.stderr), r.status),
            (
                "ls: option '--timeout' requires an argument\n\
                 Try 'ls --help' for more information.\n"
                    .into(),
                Some(2)
            ),
            "ls {args:?}"
        );
    }
}

/// `--tim`, `--ti` and `--t` were ambiguous in GNU ls and still are, with
/// GNU's candidates alone, in every release emulated and in German too;
/// `--time` is still `--time`.
#[test]
fn gnus_ambiguities_are_unchanged_in_every_release() {
    let Some(g) = gnu() else {
        skipped("/bin/ls is not GNU ls 9.1; ambiguities not compared");
        return;
    };
    let t = small_dir();
    let mut locales = vec!["C"];
    if generated_locales().iter().any(|l| l == "de_DE.utf8") {
        locales.push("de_DE.UTF-8");
    }
    for lc in locales {
        for args in [
            &["--tim=1"][..],
            &["--ti", "1"],
            &["--t"],
            &["--time=ctime", "-l", "a"],
            &["--time", "atime", "-1"],
        ] {
            let theirs = run(&g, t.path(), args, &[("LC_ALL", lc)]);
            for version in ["8.32", "9.1", "9.7", "9.10"] {
                let env = [("LC_ALL", lc), ("STATLS_GNU_VERSION", version)];
                let ours = run(&ours(), t.path(), args, &env);
                assert_same(&format!("{lc} {version}: ls {args:?}"), &theirs, &ours);
            }
        }
    }
}

// ---- Hung requests on latfs -------------------------------------------------

/// The tree every hang test lists: healthy files, entries whose getattr
/// hangs (`hung*`), a link whose readlink hangs (`deadlink`), files whose
/// xattr probes hang (`probe*`), a directory that will not open or read
/// (`deaddir`, with a subtree below it) and healthy directories.
fn source() -> TempDir {
    let t = TempDir::new("timeout-src");
    let old = 1_600_000_000;
    t.file("a", 1, old)
        .file("b", 2, old)
        .file("hung1", 3, old)
        .file("m", 4, old)
        .file("hung2", 5, old)
        .file("probe1", 6, old)
        .file("z", 7, old)
        .file("sub/f", 8, old)
        .file("deaddir/f", 9, old)
        .file("deaddir/inner/g", 10, old)
        .file("live/h", 11, old)
        .symlink("a", "good")
        .symlink("a", "deadlink");
    t
}

/// What every hang test runs with: GNU's oracle mount fails the requests
/// at once with ETIMEDOUT (110); ours hangs them for `hang_ms`.
struct Hang {
    op: &'static str,
    name: &'static str,
}

impl Hang {
    fn failing(&self) -> String {
        format!("fail_op={},fail_name={},fail_errno=110", self.op, self.name)
    }

    fn hanging(&self, ms: u64) -> String {
        format!("hang_op={},hang_name={},hang_ms={ms}", self.op, self.name)
    }
}

/// The bound on the wall time of a run with `--timeout=DURATION`.
fn bound(duration: Duration) -> Duration {
    duration * 4 + Duration::from_secs(2)
}

fn timed(program: &Path, cwd: &Path, args: &[&str], env: &[(&str, &str)]) -> (Run, Duration) {
    let start = Instant::now();
    let r = run(program, cwd, args, env);
    (r, start.elapsed())
}

/// GNU's runs of `cases` with the requests failing with ETIMEDOUT, or
/// None (after a note) where GNU ls 9.1 or FUSE is missing.
fn oracle(src: &Path, hang: &Hang, cases: &[&[&str]]) -> Option<Vec<Run>> {
    let Some(g) = gnu() else {
        skipped("/bin/ls is not GNU ls 9.1; hung requests not compared");
        return None;
    };
    let fs = Latfs::mount(src, &hang.failing())?;
    Some(
        cases
            .iter()
            .map(|args| run(&g, fs.path(), args, &[]))
            .collect(),
    )
}

/// Each case with `--timeout=SECONDS` on the hanging mount, in each of
/// `modes`: GNU's bytes under ETIMEDOUT, within the bound.
fn given_up_as_gnu_reports_etimedout(
    hang: &Hang,
    seconds: &str,
    cases: &[&[&str]],
    modes: &[&[(&str, &str)]],
) {
    let src = source();
    let Some(theirs) = oracle(src.path(), hang, cases) else {
        return;
    };
    let Some(fs) = Latfs::mount(src.path(), &hang.hanging(10_000)) else {
        return;
    };
    let duration = Duration::from_secs_f64(seconds.parse().unwrap());
    let option = format!("--timeout={seconds}");
    for (args, theirs) in cases.iter().zip(&theirs) {
        let mut mine = vec![option.as_str()];
        mine.extend_from_slice(args);
        for env in modes {
            let (ours, took) = timed(&ours(), fs.path(), &mine, env);
            let what = format!("{}: ls {} {env:?}", hang.hanging(10_000), mine.join(" "));
            assert_same(&what, theirs, &ours);
            assert!(took < bound(duration), "{what}: {took:?}");
        }
    }
}

/// The default, one request at a time, and overlapped.
const MODES: &[&[(&str, &str)]] = &[&[], &[("STATLS_THREADS", "1")], &[("STATLS_THREADS", "8")]];

#[test]
fn hung_getattr_of_some_entries_lists_them_with_question_marks() {
    let hang = Hang {
        op: "getattr",
        name: "hung*",
    };
    // Not `-i`: overlapped, the inode comes from the lookup, no GETATTR.
    let cases: &[&[&str]] = &[&["-l"], &["-la", "--color=always"], &["-lR"], &["-s"]];
    given_up_as_gnu_reports_etimedout(&hang, "0.5", cases, MODES);
}

#[test]
fn hung_operand_is_reported_with_status_2() {
    let hang = Hang {
        op: "getattr",
        name: "hung*",
    };
    let cases: &[&[&str]] = &[
        &["-l", "hung1"],
        &["-l", "a", "hung1", "sub", "hung2"],
        &["hung1", "live"],
        &["-d", "hung2", "b"],
    ];
    given_up_as_gnu_reports_etimedout(&hang, "0.5", cases, &[&[]]);
}

#[test]
fn hung_readdir_is_reading_directory_timed_out() {
    let hang = Hang {
        op: "readdir",
        name: "deaddir",
    };
    let cases: &[&[&str]] = &[
        &["-l", "deaddir"],
        &["deaddir", "a", "live"],
        &["-R"],
        &["-lR"],
    ];
    given_up_as_gnu_reports_etimedout(&hang, "0.5", cases, &[&[]]);
}

#[test]
fn hung_opendir_is_cannot_open_directory_timed_out() {
    let hang = Hang {
        op: "opendir",
        name: "deaddir",
    };
    let cases: &[&[&str]] = &[&["deaddir"], &["-l", "a", "deaddir", "live"], &["-R", "."]];
    given_up_as_gnu_reports_etimedout(&hang, "0.5", cases, &[&[]]);
}

#[test]
fn hung_readlink_lists_the_link_without_its_target() {
    let hang = Hang {
        op: "readlink",
        name: "deadlink",
    };
    let cases: &[&[&str]] = &[
        &["-l"],
        &["-l", "deadlink", "good"],
        &["-lF", "--color=always"],
    ];
    given_up_as_gnu_reports_etimedout(&hang, "0.5", cases, &[&[]]);
}

#[test]
fn hung_getxattr_is_reported_as_gnu_reports_a_failed_probe() {
    let hang = Hang {
        op: "getxattr",
        name: "probe*",
    };
    let cases: &[&[&str]] = &[&["-l"], &["-l", "probe1", "a"], &["-lZ"]];
    given_up_as_gnu_reports_etimedout(&hang, "0.5", cases, &[&[]]);
}

/// `-R` goes on below and beside a directory that cannot be opened or
/// read: its subtree is lost, nothing else.
#[test]
fn recursion_goes_on_past_a_dead_directory() {
    let cases: &[&[&str]] = &[&["-R"], &["-lR"], &["-R", "deaddir", "live"]];
    for op in ["opendir", "readdir"] {
        let hang = Hang {
            op,
            name: "deaddir",
        };
        given_up_as_gnu_reports_etimedout(&hang, "0.5", cases, MODES);
    }
}

/// `--json` reports what was given up on stderr as the text listing does,
/// with its status, and the records of those entries carry only `name`
/// and `type`.
#[test]
fn json_reports_given_up_entries_as_the_text_does() {
    let hang = Hang {
        op: "getattr",
        name: "hung*",
    };
    let cases: &[&[&str]] = &[&["-l"], &["-l", "a", "hung1"]];
    let src = source();
    let Some(theirs) = oracle(src.path(), &hang, cases) else {
        return;
    };
    let Some(fs) = Latfs::mount(src.path(), &hang.hanging(10_000)) else {
        return;
    };
    for (args, text) in cases.iter().zip(&theirs) {
        let mut mine = vec!["--json", "--timeout=0.5"];
        mine.extend_from_slice(args);
        let (json, took) = timed(&ours(), fs.path(), &mine, &[]);
        assert_eq!(
            (String::from_utf8_lossy(&json.stderr), json.status),
            (String::from_utf8_lossy(&text.stderr), text.status),
            "ls {mine:?}"
        );
        assert!(
            took < bound(Duration::from_millis(500)),
            "{mine:?}: {took:?}"
        );
        let out = String::from_utf8_lossy(&json.stdout);
        for line in out.lines().filter(|l| l.contains("\"hung")) {
            assert!(
                line.starts_with("{\"name\":\"hung") && line.ends_with(",\"type\":\"file\"}"),
                "{line}"
            );
        }
        let healthy = out.lines().find(|l| l.contains("\"name\":\"a\""));
        assert!(healthy.is_some_and(|l| l.contains("\"size\":1")), "{out}");
    }
}

/// A directory of 3 000 entries whose every getattr hangs: given up in
/// about one DURATION in all, not one per entry or per batch in flight
/// (32 at a time would take 94 s).
#[test]
fn a_dead_mount_of_thousands_of_entries_costs_about_one_duration() {
    let t = TempDir::new("timeout-dead");
    for i in 0..3000 {
        t.file(format!("big/dead{i:04}"), 1, 1_600_000_000);
    }
    t.file("alive", 1, 1_600_000_000);
    let hang = Hang {
        op: "getattr",
        name: "dead*",
    };
    let cases: &[&[&str]] = &[&["-l", "big"], &["--color=always", "big", "alive"]];
    let Some(theirs) = oracle(t.path(), &hang, cases) else {
        return;
    };
    for (args, theirs) in cases.iter().zip(&theirs) {
        // A mount per case: the hung requests hold latfs's threads.
        let Some(fs) = Latfs::mount(t.path(), &hang.hanging(30_000)) else {
            return;
        };
        let mut mine = vec!["--timeout=1"];
        mine.extend_from_slice(args);
        let (ours, took) = timed(&ours(), fs.path(), &mine, &[]);
        assert_same(&format!("ls {}", mine.join(" ")), theirs, &ours);
        assert!(took < bound(Duration::from_secs(1)), "{mine:?}: {took:?}");
    }
}

/// A large directory whose second getdents answer waits 100 ms: the walk
/// makes entries of the names of the first while the rest is still read,
/// and each entry is listed with its own stat, as GNU lists it. (The job
/// once probed only the names read after the walk's last take, and their
/// facts went to the first entries: sizes under other names, and the last
/// entries listed as `?` with nothing reported, which showed as a dead
/// mount's missing messages whenever the machine was loaded.)
#[test]
fn entries_made_while_a_directory_is_still_read_keep_their_own_stats() {
    let t = TempDir::new("timeout-slow-read");
    for i in 0..1500 {
        t.file(format!("big/f{i:04}"), i % 97, 1_600_000_000 + i as i64);
    }
    let slow_second_read = Hang {
        op: "readdir",
        name: "big",
    };
    let args = ["--timeout=30", "-l", "--full-time", "big"];
    let Some(gnu_ls) = gnu() else {
        skipped("/bin/ls is not GNU ls 9.1; not compared");
        return;
    };
    let Some(plain) = Latfs::mount(t.path(), "hang_ms=0") else {
        return;
    };
    let theirs = run(&gnu_ls, plain.path(), &args[1..], &[]);
    drop(plain);
    for mode in MODES {
        // A mount per run: only its second read of `big` is slow.
        let options = format!("{},hang_nth=2", slow_second_read.hanging(100));
        let Some(fs) = Latfs::mount(t.path(), &options) else {
            return;
        };
        let ours = run(&ours(), fs.path(), &args, mode);
        assert_same(&format!("ls {} {mode:?}", args.join(" ")), &theirs, &ours);
    }
}

/// `top/` holding `n` directories that will not open (`deadNN`, a file
/// each) and a healthy one after them (`live`), and that hang.
fn dead_siblings(tag: &str, n: usize) -> (TempDir, Hang) {
    let t = TempDir::new(tag);
    for i in 0..n {
        t.file(format!("top/dead{i:02}/f"), 1, 1_600_000_000);
    }
    t.file("top/live/g", 1, 1_600_000_000);
    let hang = Hang {
        op: "opendir",
        name: "dead*",
    };
    (t, hang)
}

/// Eight sibling directories that will not open, below a healthy one:
/// with `-R` they are read ahead together, so all eight are given up in
/// about one DURATION (one at a time would take eight).
#[test]
fn dead_subdirectories_read_ahead_together_cost_about_one_duration() {
    let (t, hang) = dead_siblings("timeout-dead-dirs", 8);
    let Some(theirs) = oracle(t.path(), &hang, &[&["-R", "top"]]) else {
        return;
    };
    let Some(fs) = Latfs::mount(t.path(), &hang.hanging(60_000)) else {
        return;
    };
    let duration = Duration::from_secs(2);
    let (ours, took) = timed(&ours(), fs.path(), &["--timeout=2", "-R", "top"], &[]);
    assert_same("ls --timeout=2 -R top", &theirs[0], &ours);
    // One at a time: 16 s and more.
    assert!(took < duration * 3 + Duration::from_secs(2), "{took:?}");
}

/// Under `--timeout` a job read ahead also reads its directory's first
/// subdirectory (the walk lists it next and may not read it itself):
/// where that one will not open, it is given up alone, in one DURATION,
/// and the listing goes on with its siblings and its parent's siblings.
#[test]
fn a_dead_first_subdirectory_read_with_its_parent_is_given_up_alone() {
    let t = TempDir::new("timeout-dead-child");
    t.file("top/a/dead/f", 1, 1_600_000_000)
        .file("top/a/live/h", 2, 1_600_000_000)
        .file("top/a/x", 3, 1_600_000_000)
        .file("top/b/dead/g", 4, 1_600_000_000)
        .file("top/c/y", 5, 1_600_000_000);
    let hang = Hang {
        op: "opendir",
        name: "dead",
    };
    let cases: &[&[&str]] = &[&["-R", "top"], &["-R", "-l", "top"]];
    let Some(theirs) = oracle(t.path(), &hang, cases) else {
        return;
    };
    // One read-ahead thread (a window of eight, room for the children)
    // and two, and the default (on FUSE, no room: no child read ahead).
    let modes: &[&[(&str, &str)]] = &[&[("STATLS_THREADS", "1")], &[("STATLS_THREADS", "2")], &[]];
    for (args, theirs) in cases.iter().zip(&theirs) {
        for env in modes {
            // A mount per run: the hung requests hold latfs's threads.
            let Some(fs) = Latfs::mount(t.path(), &hang.hanging(30_000)) else {
                return;
            };
            let mut mine = vec!["--timeout=1"];
            mine.extend_from_slice(args);
            let (ours, took) = timed(&ours(), fs.path(), &mine, env);
            let what = format!("ls {} {env:?}", mine.join(" "));
            assert_same(&what, theirs, &ours);
            // Two dead directories, one DURATION each at most.
            assert!(took < bound(Duration::from_secs(2)), "{what}: {took:?}");
        }
    }
}

/// Sixty sibling directories that will not open: once the first is given
/// up, the read-ahead starts every job it holds at once (a chain stuck in
/// a dead directory no longer holds up those behind it), so they cost a
/// few DURATIONs, not one each past the first nine (52 s before). Each
/// hung request keeps one thread, and no more start: at most one per
/// dead directory, plus the walk's few.
#[test]
fn many_dead_subdirectories_cost_a_few_durations_and_a_thread_each() {
    let (t, hang) = dead_siblings("timeout-many-dead", 60);
    let Some(theirs) = oracle(t.path(), &hang, &[&["-R", "top"]]) else {
        return;
    };
    // Room in latfs for two runs' hung requests.
    let options = format!("{},max_threads=256", hang.hanging(15_000));
    let Some(fs) = Latfs::mount(t.path(), &options) else {
        return;
    };
    let args = ["--timeout=1", "-R", "top"];
    let (ours, took) = timed(&ours(), fs.path(), &args, &[]);
    assert_same("ls --timeout=1 -R top", &theirs[0], &ours);
    assert!(took < Duration::from_secs(10), "{took:?}");
    let Some(threads) = threads_started(fs.path(), &args) else {
        return skipped("strace is missing: threads not counted");
    };
    assert!(
        threads <= 60 + 12,
        "{threads} threads for 60 dead directories"
    );
}

/// Threads `ls ARGS` started (clone calls, under strace), whatever its
/// status; None without strace.
fn threads_started(cwd: &Path, args: &[&str]) -> Option<usize> {
    let log = TempDir::new("timeout-strace");
    let log = log.path().join("strace.log");
    let status = std::process::Command::new("strace")
        .args(["-f", "-qq", "-e", "trace=clone,clone3", "-o"])
        .arg(&log)
        .arg(ours())
        .args(args)
        .current_dir(cwd)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .status()
        .ok()?;
    status.code()?;
    let text = std::fs::read_to_string(&log).ok()?;
    Some(text.lines().filter(|l| l.contains("clone")).count())
}

/// Without the option (and with a DURATION longer than the hang) a slow
/// request is waited for, whatever the request: GNU's bytes.
#[test]
fn short_hangs_are_waited_out_without_the_option_or_within_the_duration() {
    let Some(g) = gnu() else {
        skipped("/bin/ls is not GNU ls 9.1; short hangs not compared");
        return;
    };
    let kinds: &[(Hang, &[&str])] = &[
        (
            Hang {
                op: "getattr",
                name: "hung*",
            },
            &["-l", "hung1", "."],
        ),
        (
            Hang {
                op: "readdir",
                name: "deaddir",
            },
            &["-lR"],
        ),
        (
            Hang {
                op: "opendir",
                name: "deaddir",
            },
            &["-R", "deaddir"],
        ),
        (
            Hang {
                op: "readlink",
                name: "deadlink",
            },
            &["-l"],
        ),
        (
            Hang {
                op: "getxattr",
                name: "probe*",
            },
            &["-l"],
        ),
    ];
    let src = source();
    for (hang, args) in kinds {
        let Some(fs) = Latfs::mount(src.path(), &hang.hanging(300)) else {
            return;
        };
        let theirs = run(&g, fs.path(), args, &[]);
        assert_eq!(theirs.status, Some(0), "GNU {args:?}: {theirs:?}");
        for extra in [None, Some("--timeout=10")] {
            let mut mine: Vec<&str> = extra.into_iter().collect();
            mine.extend_from_slice(args);
            let ours = run(&ours(), fs.path(), &mine, &[]);
            assert_same(
                &format!("{}: ls {mine:?}", hang.hanging(300)),
                &theirs,
                &ours,
            );
        }
    }
}
