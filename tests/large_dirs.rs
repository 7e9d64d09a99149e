//! Large directories list as GNU ls 9.1 lists them, whichever way their
//! entries are probed: a local directory of 2 048 entries or more is
//! stat'ed while it is still being read (a helper thread takes the names
//! read so far) and, once read, by two threads; a smaller one by the walk
//! alone after reading; with `-R`, workers read, stat and sort the
//! directories next in line. The output, the messages, their order and the
//! exit status must not show which: they equal GNU's and those of the
//! walk that does everything on one thread (`STATLS_THREADS=1`).

mod util;

use std::path::Path;
use std::process::Command;
use util::{gnu, ours, run, TempDir};

/// `n` entries of every kind the long format shows differently: files of
/// several sizes, directories, fifos, symlinks to files, to directories
/// and to nothing.
fn mixed_dir(n: usize) -> TempDir {
    let t = TempDir::new("large");
    for i in 0..n {
        let name = format!("e{i:05}");
        match i % 7 {
            0 => {
                t.dir(&name);
            }
            1 => {
                t.symlink(&format!("e{:05}", i - 1), &name);
            }
            2 => {
                t.symlink("nowhere", &name);
            }
            3 => {
                let path = t.path().join(&name);
                let made = Command::new("mkfifo").arg(&path).status();
                if !made.is_ok_and(|s| s.success()) {
                    t.file(&name, 0, 1_600_000_000);
                }
            }
            _ => {
                t.file(&name, i % 300, 1_600_000_000 + i as i64);
            }
        }
    }
    t
}

fn same_as_one_thread(dir: &Path, args: &[&str]) {
    same_as_one_thread_in(dir, args, "C");
}

fn same_as_one_thread_in(dir: &Path, args: &[&str], locale: &str) {
    let what = format!("LC_ALL={locale} ls {}", args.join(" "));
    let env = [("TERM", "xterm"), ("LC_ALL", locale)];
    let mine = run(&ours(), dir, args, &env);
    let one = [env[0], env[1], ("STATLS_THREADS", "1")];
    let sequential = run(&ours(), dir, args, &one);
    util::assert_same(
        &format!("{what} (one thread as reference)"),
        &sequential,
        &mine,
    );
    if let Some(g) = gnu() {
        util::assert_same(&what, &run(&g, dir, args, &env), &mine);
    }
}

#[test]
fn a_large_directory_lists_as_gnu_in_every_format_that_stats() {
    let t = mixed_dir(6_000);
    for args in [
        &["-l"][..],
        &["-la", "--color=always"],
        &["-F"],
        &["-i", "-s"],
        &["-lL"],
        &["-lS", "-r"],
        &["-lt", "--full-time"],
        &["-l", "--group-directories-first"],
    ] {
        for locale in ["C", "en_US.UTF-8"] {
            same_as_one_thread_in(t.path(), args, locale);
        }
    }
}

#[test]
fn directories_around_the_size_where_probing_starts_early_list_alike() {
    for n in [2_047, 2_048, 2_049, 2_303, 2_304, 2_305] {
        let t = mixed_dir(n);
        same_as_one_thread(t.path(), &["-l"]);
        same_as_one_thread(t.path(), &["--color=always"]);
    }
}

/// `ls ARGS` as nobody, in `dir`.
fn as_nobody(program: &Path, dir: &Path, args: &[&str], threads: &str) -> Option<util::Run> {
    let mut cmd = Command::new("setpriv");
    cmd.args(["--reuid=65534", "--regid=65534", "--clear-groups", "--"])
        .args(["/bin/bash", "-c", "exec -a ls \"$0\" \"$@\""])
        .arg(program)
        .args(args)
        .env_clear()
        .env("LC_ALL", "C")
        .env("TZ", "UTC")
        // Without LS_COLORS, colours need a TERM the built-in database
        // knows.
        .env("TERM", "xterm")
        .env("PATH", "/usr/bin:/bin")
        .current_dir(dir);
    if !threads.is_empty() {
        cmd.env("STATLS_THREADS", threads);
    }
    Some(cmd.output().ok()?.into())
}

#[test]
fn entries_that_cannot_be_stated_are_reported_in_directory_order() {
    // Readable but not searchable: every name is read, no entry can be
    // stat'ed, and each gets `cannot access` in the order read.
    let t = mixed_dir(3_000);
    let outer = t.path().parent().unwrap();
    let listed = t.path().file_name().unwrap().to_str().unwrap();
    let probe = as_nobody(&ours(), outer, &["-d", "."], "");
    if probe.is_none_or(|r| r.status != Some(0)) {
        util::skipped("large_dirs: nobody cannot run our ls here");
        return;
    }
    t.chmod(".", 0o744);
    for args in [&["-l", listed][..], &["--color=always", listed]] {
        let mine = as_nobody(&ours(), outer, args, "").unwrap();
        let one = as_nobody(&ours(), outer, args, "1").unwrap();
        // Every entry the format stats: with colours, the files and
        // fifos; the other colours need no stat.
        let reported = mine.stderr.split(|&b| b == b'\n').filter(|l| !l.is_empty());
        let reported = reported.count();
        assert!(reported >= 1_500, "{args:?}: {reported} entries reported");
        util::assert_same(&format!("ls {args:?} as nobody (one thread)"), &one, &mine);
        if let Some(g) = gnu() {
            let theirs = as_nobody(&g, outer, args, "").unwrap();
            util::assert_same(&format!("ls {args:?} as nobody"), &theirs, &mine);
        }
    }
    t.chmod(".", 0o755);
}

/// `dirs` directories of `files` entries of every kind, with sizes, times
/// and names that every sort key orders differently.
fn mixed_tree(dirs: usize, files: usize) -> TempDir {
    let t = TempDir::new("tree");
    for d in 0..dirs {
        let dir = format!("D{d:03}");
        t.dir(&dir);
        for i in 0..files {
            let name = format!(
                "{dir}/{}{}.{}",
                ["b", "A", "a_", "B-"][i % 4],
                (i * 37) % 101,
                ["c", "txt", "tar.gz", ""][i % 3]
            );
            match i % 9 {
                0 => {
                    t.dir(&name);
                }
                1 => {
                    t.symlink("..", &name);
                }
                2 => {
                    t.symlink("gone", &name);
                }
                _ => {
                    t.file(
                        &name,
                        (i * 7919) % 5000,
                        1_500_000_000 + ((i * 104_729) % 86_400) as i64,
                    );
                }
            }
        }
    }
    t
}

#[test]
fn a_tree_read_ahead_sorts_every_directory_as_gnu_by_every_key() {
    // Workers read, stat and sort the subdirectories next in line: every
    // key, reversed, grouped, and with `-L`, as GNU and one thread do.
    let t = mixed_tree(24, 60);
    for args in [
        &["-R"][..],
        &["-lR"],
        &["-Rr"],
        &["-lRt"],
        &["-RS"],
        &["-RX"],
        &["-Rv"],
        &["-RU"],
        &["-lRc", "--full-time"],
        &["-R", "--sort=width"],
        &["-R", "--group-directories-first"],
        &["-lRL"],
        &["-RF", "--color=always"],
    ] {
        for locale in ["C", "en_US.UTF-8"] {
            same_as_one_thread_in(t.path(), args, locale);
        }
    }
}
