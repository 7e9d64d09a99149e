//! Network filesystems at every temperature, on the project's FUSE test
//! filesystem (latfs, bench/latfs): a warm mount (answers from the
//! kernel's caches) is listed as GNU lists it, one entry after another,
//! and makes no more requests than GNU; a mount whose answers wait on the
//! server gets many requests in flight, from the first slow answers on,
//! also when it turns slow in the middle of a directory; and threads live
//! for the run, one pool for every directory. Every listing equals GNU ls
//! 9.1's. Skipped, with a loud note, where FUSE, strace or GNU ls 9.1 is
//! not available.

mod util;

use std::path::Path;

use util::latfs::Latfs;
use util::{assert_same, gnu, ours, run, TempDir};

/// The most threads statls starts in a run: its probe pool and read-ahead
/// workers together (`MAX_PROBE_THREADS`).
const POOL_SIZE: usize = 32;

/// `dirs` directories of `files` files each under `tree/`, and `flat/`
/// with `files` files whose names begin with `a` then as many with `b`.
fn source(dirs: usize, files: usize) -> TempDir {
    let t = TempDir::new("pace-src");
    let old = 1_600_000_000;
    for i in 0..files {
        t.file(format!("flat/a{i:04}"), i % 7, old);
        t.file(format!("flat/b{i:04}"), i % 5, old);
    }
    for d in 0..dirs {
        for i in 0..files {
            t.file(format!("tree/d{d:02}/Café-{i:03}.txt"), i, old);
        }
    }
    t
}

/// Requests about entries (lookups, attributes, xattrs, links) that
/// `program args` makes. Directory reads are left out: a directory read
/// ahead whose result waited too long is read again (at most 200 ms stale,
/// `walk/prefetch`), which a loaded machine makes happen at random.
fn requests(fs: &Latfs, program: &Path, args: &[&str], env: &[(&str, &str)]) -> u64 {
    fs.reset();
    let _ = run(program, fs.path(), args, env);
    let counts = fs.counts();
    ["LOOKUP", "GETATTR", "GETXATTR", "LISTXATTR", "READLINK"]
        .iter()
        .map(|k| counts.get(*k).copied().unwrap_or(0))
        .sum()
}

/// A warm mount (a minute of attribute and entry caching, as sshfs's and
/// NFS's defaults), with or without xattrs (sshfs has none: its getxattr
/// answers ENOSYS), and a cold one (nothing cached): the same listing as
/// GNU's, and no more requests to the server than GNU makes.
#[test]
fn a_mount_warm_or_cold_costs_no_more_requests_than_gnu() {
    let Some(g) = gnu() else {
        eprintln!("NOTE: skipping: /bin/ls is not GNU ls 9.1");
        return;
    };
    let src = source(8, 60);
    let mounts = [
        "timeout=60",
        "timeout=60,fail_op=getxattr,fail_errno=38",
        "timeout=0",
    ];
    for options in mounts {
        let Some(fs) = Latfs::mount(src.path(), options) else {
            return;
        };
        for args in [
            &["-l", "flat"][..],
            &["-lR", "tree"],
            &["--color=always", "flat"],
        ] {
            // Warm the caches, then count.
            let theirs = run(&g, fs.path(), args, &[]);
            let mine = run(&ours(), fs.path(), args, &[]);
            assert_same(&format!("-o {options}: ls {args:?}"), &theirs, &mine);
            let gnu_requests = requests(&fs, &g, args, &[]);
            let our_requests = requests(&fs, &ours(), args, &[]);
            assert!(
                our_requests <= gnu_requests,
                "-o {options}: ls {args:?} made {our_requests} requests about entries, GNU {gnu_requests}"
            );
        }
    }
}

/// Threads are started once for the run, not per directory: `-lR` of 40
/// directories, warm or with every request waiting on the server, starts
/// at most the pool's size.
#[test]
fn a_recursive_listing_starts_at_most_the_pool() {
    let Some(g) = gnu() else {
        eprintln!("NOTE: skipping: /bin/ls is not GNU ls 9.1");
        return;
    };
    let src = source(40, 30);
    for options in ["timeout=60", "timeout=0,delay_us=200"] {
        let Some(fs) = Latfs::mount(src.path(), options) else {
            return;
        };
        for args in [&["-lR", "tree"][..], &["-R", "--color=always", "tree"]] {
            let theirs = run(&g, fs.path(), args, &[]);
            let mine = run(&ours(), fs.path(), args, &[]);
            assert_same(&format!("-o {options}: ls {args:?}"), &theirs, &mine);
            let Some(threads) = util::threads_started(fs.path(), args, &[]) else {
                util::skipped("strace is not installed: thread starts not counted");
                return;
            };
            assert!(
                threads <= POOL_SIZE,
                "-o {options}: ls {args:?} started {threads} threads"
            );
        }
    }
}

/// A mount that turns slow in the middle of a directory (every `b*`
/// entry's getattr waits 20 ms): from the first slow answers on, requests
/// overlap; the listing is GNU's. With `STATLS_THREADS=1`, one request at
/// a time, as GNU.
#[test]
fn a_mount_turning_slow_mid_listing_is_overlapped_from_then_on() {
    let Some(g) = gnu() else {
        eprintln!("NOTE: skipping: /bin/ls is not GNU ls 9.1");
        return;
    };
    let src = source(0, 40);
    let options = "timeout=0,hang_op=getattr,hang_name=b*,hang_ms=20";
    let Some(fs) = Latfs::mount(src.path(), options) else {
        return;
    };
    let args = ["-l", "flat"];
    let theirs = run(&g, fs.path(), &args, &[]);
    for (env, overlapped) in [(&[][..], true), (&[("STATLS_THREADS", "1")], false)] {
        fs.reset();
        let mine = run(&ours(), fs.path(), &args, env);
        let in_flight = fs.counts()["max_inflight"];
        assert_same(&format!("ls -l flat {env:?}"), &theirs, &mine);
        if overlapped {
            assert!(in_flight > 1, "slow answers were not overlapped");
        } else {
            assert_eq!(in_flight, 1, "STATLS_THREADS=1 overlapped requests");
        }
    }
}

/// `--timeout` paces a network directory's probes as the run without it
/// does: a mount whose every answer waits on the server (2 ms) gets many
/// requests in flight from the first slow answers on, not one watched
/// worker that doubles only once a request has waited an eighth of the
/// limit; the listing is GNU's.
#[test]
fn under_a_deadline_slow_answers_are_overlapped_too() {
    let Some(g) = gnu() else {
        eprintln!("NOTE: skipping: /bin/ls is not GNU ls 9.1");
        return;
    };
    let src = source(0, 40);
    let Some(fs) = Latfs::mount(src.path(), "timeout=0,delay_us=2000") else {
        return;
    };
    let theirs = run(&g, fs.path(), &["-l", "flat"], &[]);
    fs.reset();
    let mine = run(&ours(), fs.path(), &["-l", "--timeout=30", "flat"], &[]);
    let in_flight = fs.counts()["max_inflight"];
    assert_same("ls -l --timeout=30 flat", &theirs, &mine);
    // One watched worker at a time, with the directory's other requests,
    // made at most 2; paced, the workers join up to 32.
    assert!(
        in_flight >= 4,
        "slow answers under --timeout were not overlapped: {in_flight} in flight at most"
    );
}

/// Where a stat naming `name` (or the open of its handle) starts in an
/// `strace -f` log, and where the first one answers: the line that
/// completes it (`<... resumed>` of the same thread, when other threads'
/// calls came in between).
fn first_call_naming(log: &[&str], name: &str) -> Option<(usize, usize)> {
    let quoted = format!("\"{name}\"");
    let start = log.iter().position(|l| l.contains(&quoted))?;
    if !log[start].contains("<unfinished ...>") {
        return Some((start, start));
    }
    let pid = log[start].split_whitespace().next()?;
    let end =
        (start + 1..log.len()).find(|&i| log[i].starts_with(pid) && log[i].contains("resumed>"))?;
    Some((start, end))
}

/// A directory read ahead on a mount whose answers wait on the server is
/// probed ahead, as under `--timeout`: while the walk waits on the one
/// before it (an entry of `a/` whose lookup takes a second), the job that
/// read `b/` stats `b/`'s entries; and the walk still prints `a/`'s
/// listing, then `b/`'s heading, as GNU does. Each directory's probes
/// used to wait for the walk to reach it.
#[test]
fn a_directory_read_ahead_is_probed_while_the_walk_waits_on_the_one_before() {
    let Some(g) = gnu() else {
        eprintln!("NOTE: skipping: /bin/ls is not GNU ls 9.1");
        return;
    };
    if !util::strace::strace_available() {
        util::skipped("strace is not available");
        return;
    }
    let t = TempDir::new("ahead-src");
    // Enough entries at the top for their answers to show the mount slow
    // (read ahead pays only then).
    for i in 0..8 {
        t.file(format!("tree/top-{i}"), 1, 1_600_000_000);
    }
    t.file("tree/a/slow-entry", 1, 1_600_000_000);
    for i in 0..3 {
        t.file(format!("tree/b/next-{i}"), 1, 1_600_000_000);
    }
    let options = "timeout=0,delay_us=1000,hang_op=lookup,hang_name=slow-*,hang_ms=1000";
    let Some(fs) = Latfs::mount(t.path(), options) else {
        return;
    };
    let theirs = run(&g, fs.path(), &["-lR", "tree"], &[]);
    let mine = run(&ours(), fs.path(), &["-lR", "tree"], &[]);
    assert_same("ls -lR tree", &theirs, &mine);
    // The log goes outside the mount, which is read-only.
    let log = util::strace::strace_log_in(
        t.path(),
        fs.path(),
        &["-lR", "tree"],
        &[],
        "trace=statx,newfstatat,openat",
    );
    let log: Vec<&str> = log.lines().collect();
    let (_, slow_answered) = first_call_naming(&log, "slow-entry").expect("a/slow-entry stat'ed");
    let (next_started, _) = first_call_naming(&log, "next-0").expect("b/next-0 stat'ed");
    assert!(
        next_started < slow_answered,
        "b/ was probed only after the walk's stat of a/slow-entry answered:\n{}",
        log.join("\n")
    );
}
