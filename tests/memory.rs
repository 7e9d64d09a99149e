//! Memory of `-R`: bounded by the largest directory, not the tree, and no
//! more than GNU ls needs for the same tree (issue 5: a 200 000-entry tree
//! of 200 directories × 1 000 files).
//!
//! Peak RSS is what GNU time reports. With address-space randomization
//! it varies by about ±150 KB from run to run (the kernel maps files in
//! 64 KB fault-around windows, and where those fall moves with the
//! addresses), so every run here goes through `setarch -R`, which turns
//! randomization off for the child: the numbers are then exactly
//! repeatable. bench/run.sh reports the medians with randomization on.

mod util;

use std::path::Path;
use std::process::{Command, Stdio};
use util::{gnu, ours, TempDir};

/// `dirs` directories of `files` empty files each.
fn tree(dirs: usize, files: usize) -> TempDir {
    let t = TempDir::new("memory");
    for d in 0..dirs {
        let dir = t.path().join(format!("dir{d:03}"));
        std::fs::create_dir(&dir).unwrap();
        for f in 0..files {
            std::fs::File::create(dir.join(format!("file_{f:04}"))).unwrap();
        }
    }
    t
}

/// GNU time (the `time` package), which reports the peak RSS of what it
/// runs.
const TIME: &str = "/usr/bin/time";

/// Whether `setarch -R` and GNU time can run a program here (setarch
/// needs the personality syscall, which some sandboxes refuse).
fn tools_work() -> bool {
    Command::new("setarch")
        .args(["-R", TIME, "true"])
        .stderr(Stdio::null())
        .status()
        .map(|s| s.success())
        .unwrap_or(false)
}

/// Peak resident set of `program ARGS dir` in KiB (GNU time's `%M`),
/// output discarded.
fn peak_rss_kib(program: &Path, args: &[&str], dir: &Path, locale: &str) -> u64 {
    let out = Command::new("setarch")
        .arg("-R")
        .args([TIME, "-f", "%M"])
        .arg(program)
        .args(args)
        .arg(dir)
        .env_clear()
        .env("LC_ALL", locale)
        .stdout(Stdio::null())
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{} {args:?}: {out:?}",
        program.display()
    );
    let text = String::from_utf8_lossy(&out.stderr);
    text.lines().last().unwrap_or("").trim().parse().unwrap()
}

#[test]
fn recursive_listing_memory_does_not_grow_with_the_tree() {
    if !tools_work() {
        eprintln!("note: setarch -R or {TIME} unavailable; skipped");
        return;
    }
    let small = tree(10, 1000);
    let large = tree(200, 1000);
    for args in [&["-R"][..], &["-lR"][..]] {
        // Warm the page cache, so both runs map the same pages.
        peak_rss_kib(&ours(), args, small.path(), "C");
        let a = peak_rss_kib(&ours(), args, small.path(), "C");
        let b = peak_rss_kib(&ours(), args, large.path(), "C");
        // Twenty times the entries, at most one more heap step.
        assert!(
            b <= a + 64,
            "ls {args:?}: {a} KiB for 10 000 entries, {b} KiB for 200 000"
        );
    }
}

#[test]
fn recursive_listing_needs_no_more_memory_than_gnu() {
    let Some(g) = gnu() else {
        eprintln!("note: /bin/ls is not GNU ls 9.1; skipped");
        return;
    };
    if !tools_work() {
        eprintln!("note: setarch -R or {TIME} unavailable; skipped");
        return;
    }
    let t = tree(200, 1000);
    for locale in ["C", "C.UTF-8"] {
        for args in [&["-R"][..], &["-lR"][..]] {
            peak_rss_kib(&g, args, t.path(), locale);
            peak_rss_kib(&ours(), args, t.path(), locale);
            let theirs = peak_rss_kib(&g, args, t.path(), locale);
            let mine = peak_rss_kib(&ours(), args, t.path(), locale);
            assert!(
                mine <= theirs,
                "LC_ALL={locale} ls {args:?} over 200 000 entries: {mine} KiB, GNU {theirs} KiB"
            );
        }
    }
}
