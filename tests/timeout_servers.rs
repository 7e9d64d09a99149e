//! `--timeout` beyond the listed filesystem (issue 40): what else can wait
//! on a server is given up after DURATION too, hung for real on the
//! project's FUSE filesystem (bench/latfs), never mocked.
//!
//! - Owner, group and author names: a passwd, a group and an
//!   nsswitch.conf (`files` only, so no other service answers) live on a
//!   latfs mount whose reads hang 60 s, bind-mounted over /etc in a private
//!   mount namespace (`unshare -m`, as root), so the C library's `files`
//!   service blocks inside `getpwuid`/`getgrgid`. With `--timeout=1` a
//!   directory owned by ten ids lists within 3 s, ids as numbers, one
//!   `cannot find name for user ID N: Connection timed out` per id and
//!   database, status 1. Without the option, once a short hang ends, the
//!   bytes are GNU's.
//! - `--hyperlink`: the working directory's last component does not answer
//!   LOOKUP (60 s), so every path resolved through it hangs; with
//!   `--timeout=1` the listing ends within 3 s, names given up are printed
//!   without their link and reported as GNU reports a path it cannot make
//!   absolute, and the rest is GNU's listing.
//!
//! The bounds are 3 s for a limit of 1 s: 2 s of slack for process start
//! and mounts on a loaded 2-CPU machine, and far short of one 60 s hang,
//! so a lookup waited for past the limit fails them. Skipped, with a
//! `SKIPPED` line, without FUSE, a private mount namespace or GNU ls 9.1.

mod util;

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use util::latfs::Latfs;
use util::{gnu, ours, private_mounts, run, skipped, Run, TempDir};

/// Wall time allowed for a run with `--timeout=1` (see the module doc).
const BOUND: Duration = Duration::from_secs(3);

/// A hang no run waits out within the bound.
const HANG_MS: u64 = 60_000;

/// The ids owning the listed files (and their names).
const IDS: std::ops::Range<u32> = 4_243_000..4_243_010;

/// The default, one request at a time, and many at once.
const MODES: &[&[(&str, &str)]] = &[&[], &[("STATLS_THREADS", "1")], &[("STATLS_THREADS", "8")]];

/// The name databases: a user and a group for each of [`IDS`], and an
/// nsswitch.conf that asks the files alone.
fn name_files() -> TempDir {
    let t = TempDir::new("names-src");
    let mut passwd = String::from("root:x:0:0:root:/root:/bin/sh\n");
    let mut group = String::from("root:x:0:\n");
    for id in IDS {
        passwd.push_str(&format!("user{id}:x:{id}:{id}::/:/bin/sh\n"));
        group.push_str(&format!("group{id}:x:{id}:\n"));
    }
    std::fs::write(t.path().join("passwd"), passwd).unwrap();
    std::fs::write(t.path().join("group"), group).unwrap();
    std::fs::write(
        t.path().join("nsswitch.conf"),
        "passwd: files\ngroup: files\n",
    )
    .unwrap();
    t
}

fn chown(path: &Path, id: u32) {
    let (uid, gid) = (rustix::fs::Uid::from_raw(id), rustix::fs::Gid::from_raw(id));
    rustix::fs::chown(path, Some(uid), Some(gid)).unwrap();
}

/// A directory of files owned by the ten ids, and a subdirectory (with a
/// file) owned by the first.
fn owned_tree() -> TempDir {
    let t = TempDir::new("names-tree");
    let files = IDS.enumerate().map(|(i, id)| (format!("f{i}"), id));
    for (name, id) in files.chain([("sub/g".to_string(), IDS.start)]) {
        t.file(&name, name.len(), 1_600_000_000);
        chown(&t.path().join(&name), id);
    }
    chown(&t.path().join("sub"), IDS.start);
    chown(t.path(), IDS.start);
    t
}

/// `ls ARGS` in `cwd` seeing `names/{passwd,group,nsswitch.conf}` as
/// /etc's, with `LC_ALL=C`, `TZ=UTC` and `env`; with its wall time.
fn run_with_names(
    program: &Path,
    cwd: &Path,
    names: &Path,
    args: &[&str],
    env: &[(&str, &str)],
) -> (Run, Duration) {
    // Without an nsswitch.conf the C library asks the files alone anyway;
    // nscd, where it runs, is hidden (it would answer from the real /etc).
    let script = "for f in passwd group nsswitch.conf; do \
                  [ -e \"/etc/$f\" ] || [ \"$f\" != nsswitch.conf ] || continue; \
                  mount --bind \"$1/$f\" \"/etc/$f\" || exit 125; done; \
                  if [ -d /run/nscd ]; then mount -t tmpfs none /run/nscd || exit 125; fi; \
                  shift; exec -a ls \"$@\"";
    let mut cmd = Command::new("unshare");
    cmd.args(["-m", "bash", "-c", script, "bash"])
        .arg(names)
        .arg(program)
        .args(args)
        .current_dir(cwd)
        .env_clear()
        .env("LC_ALL", "C")
        .env("TZ", "UTC")
        .env("PATH", "/usr/bin:/bin:/usr/sbin:/sbin")
        .envs(env.iter().copied())
        .stdin(Stdio::null());
    let start = Instant::now();
    let out = cmd.output().unwrap();
    let took = start.elapsed();
    assert_ne!(out.status.code(), Some(125), "bind mounts failed");
    (out.into(), took)
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// The name databases on latfs, their reads hung for `ms`; None (after a
/// note) where that cannot be done here.
fn hung_names(src: &Path, ms: u64) -> Option<Latfs> {
    if !private_mounts() {
        skipped("no private mount namespace (unshare -m, as root): hung name lookups not run");
        return None;
    }
    Latfs::mount(src, &format!("hang_op=read,hang_ms={ms}"))
}

#[test]
fn owner_and_group_lookups_that_hang_print_numbers_reported_once_per_id() {
    let (src, tree) = (name_files(), owned_tree());
    let Some(fs) = hung_names(src.path(), HANG_MS) else {
        return;
    };
    let cases: &[&[&str]] = &[
        &["-l"],
        &["-lR"],
        &["-l", "--author"],
        &["-g"],
        &["-o", "--author"],
        &["-l", "--json"],
        &["-lR", "--json"],
    ];
    for args in cases {
        for env in MODES {
            let mut mine = vec!["--timeout=1"];
            mine.extend_from_slice(args);
            let (r, took) = run_with_names(&ours(), tree.path(), fs.path(), &mine, env);
            let what = format!("ls {} {env:?}", mine.join(" "));
            assert!(took < BOUND, "{what}: took {took:?}");
            assert_eq!(r.status, Some(1), "{what}: {}", text(&r.stderr));
            let (out, err) = (text(&r.stdout), text(&r.stderr));
            assert!(
                !out.contains("user42") && !out.contains("group42"),
                "{what}: {out}"
            );
            let users = !args.contains(&"-g") || args.contains(&"--author");
            let groups = !args.contains(&"-o");
            for id in IDS {
                assert!(
                    out.contains(&id.to_string()),
                    "{what}: {id} not listed\n{out}"
                );
                for (shown, db) in [(users, "user"), (groups, "group")] {
                    let line =
                        format!("ls: cannot find name for {db} ID {id}: Connection timed out\n");
                    let expected = usize::from(shown);
                    assert_eq!(err.matches(&line).count(), expected, "{what}: {line}{err}");
                }
            }
            let lines = err.lines().count();
            let per_id = usize::from(users) + usize::from(groups);
            assert_eq!(
                lines,
                IDS.len() * per_id,
                "{what}: nothing else reported\n{err}"
            );
        }
    }
}

#[test]
fn owner_lookups_waited_out_print_gnus_bytes() {
    let Some(g) = gnu() else {
        skipped("/bin/ls is not GNU ls 9.1: slow name lookups not compared");
        return;
    };
    let (src, tree) = (name_files(), owned_tree());
    // Every read of the databases answers after 20 ms: slow, not dead.
    let Some(fs) = hung_names(src.path(), 20) else {
        return;
    };
    for args in [&["-l"][..], &["-lR", "--author"], &["-g"]] {
        let (theirs, _) = run_with_names(&g, tree.path(), fs.path(), args, &[]);
        let named =
            text(&theirs.stdout).contains("user4243") || text(&theirs.stdout).contains("group4243");
        assert!(named, "names are looked up: {theirs:?}");
        let (mine, _) = run_with_names(&ours(), tree.path(), fs.path(), args, &[]);
        util::assert_same(&format!("ls {}", args.join(" ")), &theirs, &mine);
        // A limit longer than the lookups: the same bytes.
        let mut with_limit = vec!["--timeout=30"];
        with_limit.extend_from_slice(args);
        let (mine, _) = run_with_names(&ours(), tree.path(), fs.path(), &with_limit, &[]);
        util::assert_same(&format!("ls {}", with_limit.join(" ")), &theirs, &mine);
    }
}

// ---- --hyperlink ------------------------------------------------------------

/// `sub/` (the working directory of each run): files, a directory and a
/// link.
fn link_tree() -> TempDir {
    let t = TempDir::new("links-src");
    t.file("sub/a", 1, 1_600_000_000)
        .file("sub/inner/b", 2, 1_600_000_000)
        .symlink("a", "sub/ln");
    t
}

/// Removes the OSC 8 hyperlink sequences (`ESC ] 8 ; ; URI` ended by BEL or
/// `ESC \`).
fn without_links(bytes: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i..].starts_with(b"\x1b]8;;") {
            let rest = &bytes[i..];
            let bel = rest.iter().position(|&b| b == 7).map(|p| p + 1);
            let st = rest.windows(2).position(|w| w == b"\x1b\\").map(|p| p + 2);
            i += [bel, st].into_iter().flatten().min().unwrap_or(rest.len());
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    out
}

/// `ls ARGS` in `mnt/sub`, the hang starting once the shell is there.
fn run_in_dead_cwd(
    mnt: &Path,
    flag: &Path,
    args: &[&str],
    env: &[(&str, &str)],
) -> (Run, Duration) {
    let mut cmd = Command::new("/bin/bash");
    cmd.args([
        "-c",
        "cd \"$1\" && : > \"$2\" && shift 2 && exec -a ls \"$@\"",
        "bash",
    ])
    .arg(mnt.join("sub"))
    .arg(flag)
    .arg(ours())
    .args(args)
    .env_clear()
    .env("LC_ALL", "C")
    .env("TZ", "UTC")
    .envs(env.iter().copied())
    .stdin(Stdio::null());
    let start = Instant::now();
    let out = cmd.output().unwrap();
    (out.into(), start.elapsed())
}

#[test]
fn hyperlinks_through_a_dead_working_directory_are_given_up_and_printed_without_links() {
    let Some(g) = gnu() else {
        skipped("/bin/ls is not GNU ls 9.1: hung hyperlink resolution not compared");
        return;
    };
    let src = link_tree();
    let cases: &[(&[&str], &[&str], i32)] = &[
        (&["--hyperlink=always"], &["a", "inner", "ln"], 1),
        (&["--hyperlink=always", "-l"], &["a", "inner", "ln"], 1),
        (
            &["--hyperlink=always", "-R"],
            &["a", "inner", "ln", "./inner", "./inner/b"],
            1,
        ),
        (
            &["--hyperlink=always", "-lR", "ln", "inner"],
            &["ln", "inner", "inner/b"],
            2,
        ),
        (
            &["--hyperlink=always", "-C", "--color=always"],
            &["a", "inner", "ln"],
            1,
        ),
    ];
    for (args, given_up, status) in cases {
        // GNU on the same tree at the same place, nothing hung.
        let healthy = Latfs::mount(src.path(), "");
        let Some(healthy) = healthy else {
            return;
        };
        let theirs = run(&g, &healthy.path().join("sub"), args, &[]);
        drop(healthy);
        for env in MODES {
            let flags = TempDir::new("links-flag");
            let flag = flags.path().join("hang");
            let flag_text = flag.to_str().unwrap();
            // A mount per run: its hung requests hold latfs's threads.
            let options =
                format!("hang_op=lookup,hang_name=sub,hang_ms={HANG_MS},hang_flag={flag_text}");
            let Some(fs) = Latfs::mount(src.path(), &options) else {
                return;
            };
            let mut mine = vec!["--timeout=1"];
            mine.extend_from_slice(args);
            let (r, took) = run_in_dead_cwd(fs.path(), &flag, &mine, env);
            let what = format!("ls {} {env:?}", mine.join(" "));
            assert!(took < BOUND, "{what}: took {took:?}");
            assert_eq!(r.status, Some(*status), "{what}: {}", text(&r.stderr));
            let mut expected = String::new();
            for name in *given_up {
                let line = format!("ls: error canonicalizing '{name}': Connection timed out");
                expected.push_str(&line);
                expected.push('\n');
            }
            let mut got: Vec<String> = text(&r.stderr).lines().map(String::from).collect();
            let mut want: Vec<String> = expected.lines().map(String::from).collect();
            got.sort();
            want.sort();
            assert_eq!(got, want, "{what}: each path given up reported once");
            assert_eq!(
                text(&without_links(&r.stdout)),
                text(&without_links(&theirs.stdout)),
                "{what}: GNU's listing, links aside"
            );
            // No name given up has a link.
            for name in *given_up {
                let uri = format!("/sub/{}\x07", name.trim_start_matches("./"));
                assert!(
                    !text(&r.stdout).contains(&uri),
                    "{what}: {name} linked though given up"
                );
            }
        }
    }
}
