//! Syscall behaviour is part of the specification: each flag set asks
//! statx for exactly the fields it prints, only for the entries whose
//! output depends on them, always with AT_NO_AUTOMOUNT. Verified under
//! strace; skipped with a note where strace is not installed.

mod util;

use std::process::Command;
use util::strace::{entry_calls, strace_available, strace_log, trace, trace_with, Call};
use util::{ours, TempDir};

fn many_files(n: usize) -> (TempDir, Vec<String>) {
    let t = TempDir::new("sys");
    let names: Vec<String> = (0..n).map(|i| format!("f{i:04}")).collect();
    for n in &names {
        t.file(format!("d/{n}"), 1, 1_600_000_000);
    }
    (t, names)
}

macro_rules! need_strace {
    () => {
        if !strace_available() {
            eprintln!("skipping: strace is not installed");
            return;
        }
    };
}

#[test]
fn plain_listing_of_1000_files_stats_no_entry() {
    need_strace!();
    assert_stats_no_entry(&["d"]);
}

/// Listing `d` (1 000 files) with `args` stats no entry, and the operand
/// itself once, to learn it is a directory.
fn assert_stats_no_entry(args: &[&str]) {
    let (t, names) = many_files(1000);
    let refs: Vec<&str> = names.iter().map(String::as_str).collect();
    let calls = trace(t.path(), args);
    assert!(
        entry_calls(&calls, &refs).is_empty(),
        "ls {args:?} stat'ed entries: {:?}",
        &calls[..calls.len().min(5)]
    );
    assert_eq!(calls.iter().filter(|c| c.path == "d").count(), 1);
}

#[test]
fn color_asks_only_the_mode_and_only_for_files_and_directories() {
    need_strace!();
    let t = TempDir::new("color");
    t.file("d/file", 1, 1_600_000_000)
        .dir("d/dir")
        .symlink("file", "d/link");
    Command::new("mkfifo")
        .arg(t.path().join("d/fifo"))
        .status()
        .unwrap();
    let calls = trace(t.path(), &["--color=always", "d"]);
    let calls = entry_calls(&calls, &["file", "dir", "link", "fifo"]);
    let mut paths: Vec<&str> = calls.iter().map(|c| c.path.as_str()).collect();
    paths.sort();
    assert_eq!(
        paths,
        ["dir", "file"],
        "only regular files and directories need their mode"
    );
    for c in calls {
        assert_eq!(c.syscall, "statx");
        assert_eq!(c.mask, "STATX_TYPE|STATX_MODE");
    }
}

#[test]
fn every_statx_carries_no_automount() {
    need_strace!();
    let (t, _) = many_files(20);
    for args in [
        &["-l", "d"][..],
        &["--color=always", "d"],
        &["-R", "d"],
        &["-i", "d"],
        &["-L", "-l", "d"],
    ] {
        for c in trace(t.path(), args)
            .iter()
            .filter(|c| c.syscall == "statx")
        {
            assert!(c.flags.contains("AT_NO_AUTOMOUNT"), "{args:?}: {c:?}");
        }
    }
}

/// The exact mask each flag set asks for the entries of a directory.
#[test]
fn masks_per_flag_set() {
    need_strace!();
    let (t, names) = many_files(3);
    let refs: Vec<&str> = names.iter().map(String::as_str).collect();
    let base = "STATX_TYPE|STATX_MODE|STATX_NLINK";
    let cases: &[(&[&str], String)] = &[
        (
            &["-l", "d"],
            format!("{base}|STATX_UID|STATX_GID|STATX_MTIME|STATX_SIZE|STATX_BLOCKS"),
        ),
        (
            &["-ln", "d"],
            format!("{base}|STATX_UID|STATX_GID|STATX_MTIME|STATX_SIZE|STATX_BLOCKS"),
        ),
        (
            &["-lo", "d"],
            format!("{base}|STATX_UID|STATX_MTIME|STATX_SIZE|STATX_BLOCKS"),
        ),
        (
            &["-lg", "d"],
            format!("{base}|STATX_GID|STATX_MTIME|STATX_SIZE|STATX_BLOCKS"),
        ),
        (
            &["-ls", "d"],
            format!("{base}|STATX_UID|STATX_GID|STATX_MTIME|STATX_SIZE|STATX_BLOCKS"),
        ),
        (
            &["-lu", "d"],
            format!("{base}|STATX_UID|STATX_GID|STATX_ATIME|STATX_SIZE|STATX_BLOCKS"),
        ),
        (
            &["-lc", "d"],
            format!("{base}|STATX_UID|STATX_GID|STATX_CTIME|STATX_SIZE|STATX_BLOCKS"),
        ),
        (
            &["--time=birth", "-l", "d"],
            format!("{base}|STATX_UID|STATX_GID|STATX_SIZE|STATX_BLOCKS|STATX_BTIME"),
        ),
        (&["-i", "d"], "STATX_INO".to_string()),
        (&["-s", "d"], "STATX_BLOCKS".to_string()),
        (&["-t", "d"], "STATX_MTIME".to_string()),
    ];
    for (args, mask) in cases {
        let calls = trace(t.path(), args);
        let calls = entry_calls(&calls, &refs);
        assert_eq!(calls.len(), refs.len(), "{args:?}: one stat per entry");
        for c in calls {
            assert_eq!(&c.mask, mask, "{args:?}");
        }
    }
}

#[test]
fn recursion_loop_detection_asks_the_cache_for_the_inode_only() {
    need_strace!();
    let t = TempDir::new("loop");
    t.file("top/a/b/f", 1, 1_600_000_000);
    let calls = trace(t.path(), &["-R", "top"]);
    let loop_calls: Vec<&Call> = calls
        .iter()
        .filter(|c| c.flags.contains("AT_EMPTY_PATH"))
        .collect();
    assert_eq!(loop_calls.len(), 3, "one per directory listed: {calls:?}");
    for c in loop_calls {
        assert!(c.flags.contains("AT_STATX_DONT_SYNC"), "{c:?}");
        assert_eq!(c.mask, "STATX_INO");
    }
}

/// On a filesystem that does not support xattrs (procfs here) the ACL
/// probe fails once and is not repeated for that device: `ls -l` costs one
/// statx per entry (GNU 9.1 needs about three per entry on ext4).
#[test]
fn long_format_without_xattr_support_is_one_call_per_entry() {
    need_strace!();
    let dir = std::path::Path::new("/proc/sys/kernel");
    let Ok(listing) = std::fs::read_dir(dir) else {
        eprintln!("skipping: no /proc/sys/kernel");
        return;
    };
    let names: Vec<String> = listing
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    let log = std::env::temp_dir().join(format!("statls-proc-{}.log", std::process::id()));
    Command::new("strace")
        .args(["-f", "-qq", "-e", "trace=all", "-o"])
        .arg(&log)
        .arg(ours())
        .args(["-l", "/proc/sys/kernel"])
        .env("LC_ALL", "C")
        .stdout(std::process::Stdio::null())
        .status()
        .unwrap();
    let text = std::fs::read_to_string(&log).unwrap();
    let _ = std::fs::remove_file(&log);
    let per_entry = |call: &str| {
        text.lines()
            .filter(|l| {
                l.contains(call)
                    && names
                        .iter()
                        .any(|n| l.contains(&format!("\"{n}\"")) || l.contains(&format!("/{n}\"")))
            })
            .count()
    };
    assert_eq!(per_entry("statx("), names.len(), "one statx per entry");
    // Every probe, by any name: getxattr, lgetxattr, and getxattrat, which
    // strace before 6.13 prints as its number (0x1d0).
    let probes = text
        .lines()
        .filter(|l| l.contains("xattr") || l.contains("syscall_0x1d0("))
        .count();
    assert!(
        probes <= 1,
        "xattr probes stop after the first 'not supported':\n{text}"
    );
}

#[test]
fn json_alone_stats_no_entry() {
    need_strace!();
    assert_stats_no_entry(&["--json", "d"]);
}

/// `--json` with a flag set asks every entry exactly what the flag set
/// asks without it.
#[test]
fn json_asks_the_masks_of_the_same_flags_as_text() {
    need_strace!();
    let (t, names) = many_files(3);
    let refs: Vec<&str> = names.iter().map(String::as_str).collect();
    let masks = |args: &[&str]| -> Vec<String> {
        entry_calls(&trace(t.path(), args), &refs)
            .iter()
            .map(|c| format!("{} {}", c.flags, c.mask))
            .collect()
    };
    for flags in [
        &["-l"][..],
        &["-ln"],
        &["-lo"],
        &["-g"],
        &["-lu"],
        &["-l", "--time=birth"],
        &["-li"],
        &["-ls"],
        &["-lL"],
        &["-i"],
        &["-s"],
        &["-t"],
        &["-S"],
    ] {
        let mut text: Vec<&str> = flags.to_vec();
        text.push("d");
        let mut json = vec!["--json"];
        json.extend_from_slice(&text);
        let expected = masks(&text);
        assert_eq!(expected.len(), refs.len(), "{text:?}: one stat per entry");
        assert_eq!(masks(&json), expected, "{json:?}");
    }
}

/// Every call ls makes with `args`, as strace prints them.
fn trace_all(cwd: &std::path::Path, args: &[&str]) -> String {
    strace_log(cwd, args, &[], "trace=all")
}

/// JSON reports no ACL marker, so `--json -l` makes none of the xattr
/// probes `-l` makes for it: one statx per entry and nothing else.
#[test]
fn json_long_makes_no_acl_probes() {
    need_strace!();
    let (t, _) = many_files(20);
    // getxattr, lgetxattr, and getxattrat, which strace before 6.13 prints
    // as its number (0x1d0).
    let probes = |text: &str| {
        text.lines()
            .filter(|l| l.contains("xattr") || l.contains("syscall_0x1d0("))
            .count()
    };
    let text_probes = probes(&trace_all(t.path(), &["-l", "d"]));
    let json = trace_all(t.path(), &["--json", "-l", "d"]);
    assert_eq!(probes(&json), 0, "-l made {text_probes}:\n{json}");
    // -Z still reads the contexts it prints.
    let context = trace_all(t.path(), &["--json", "-Z", "d"]);
    let text_context = trace_all(t.path(), &["-Z", "d"]);
    assert_eq!(probes(&context), probes(&text_context));
}

/// The overlapped path (what a network or FUSE filesystem gets, forced here
/// with `STATLS_THREADS`): where a handle saves a lookup (`-i`, where the
/// inode comes from the cache the lookup filled; `-l`, whose ACL probe
/// reads the same handle), one O_PATH lookup per entry, then statx on that
/// handle with exactly the mask of the sequential path. Fields that can
/// change under a name (mode, size, times) are revalidated as GNU's stat
/// would (no AT_STATX_DONT_SYNC), so a polled file never shows stale
/// values. Where it saves nothing (`--color`: the mode alone), by name.
#[test]
fn overlapped_probes_use_one_handle_per_entry_and_the_same_masks() {
    need_strace!();
    let (t, names) = many_files(40);
    let refs: Vec<&str> = names.iter().map(String::as_str).collect();
    let threads = [("STATLS_THREADS", "8")];
    let long_mask =
        "STATX_TYPE|STATX_MODE|STATX_NLINK|STATX_UID|STATX_GID|STATX_MTIME|STATX_SIZE|STATX_BLOCKS";
    // (flags, mask, by handle, from the cache)
    let cases: &[(&[&str], &str, bool, bool)] = &[
        (&["-i", "d"], "STATX_INO", true, true),
        (&["-l", "d"], long_mask, true, false),
        (
            &["--color=always", "d"],
            "STATX_TYPE|STATX_MODE",
            false,
            false,
        ),
    ];
    for &(args, mask, by_handle, dont_sync) in cases {
        let calls = trace_with(t.path(), args, &threads, "trace=statx,openat");
        let on_names = entry_calls(&calls, &refs);
        assert_eq!(on_names.len(), refs.len(), "{args:?}: one lookup per entry");
        for c in &on_names {
            if by_handle {
                assert_eq!(c.syscall, "openat", "{args:?}: {c:?}");
                assert!(
                    c.flags.contains("O_PATH") && c.flags.contains("O_NOFOLLOW"),
                    "{c:?}"
                );
            } else {
                assert_eq!(
                    (c.syscall.as_str(), c.mask.as_str()),
                    ("statx", mask),
                    "{c:?}"
                );
            }
        }
        let stats: Vec<&Call> = calls
            .iter()
            .filter(|c| c.syscall == "statx" && c.mask == mask)
            .filter(|c| {
                if by_handle {
                    c.path.is_empty()
                } else {
                    refs.contains(&c.path.as_str())
                }
            })
            .collect();
        assert_eq!(stats.len(), refs.len(), "{args:?}: one statx per entry");
        for c in stats {
            assert_eq!(c.flags.contains("AT_EMPTY_PATH"), by_handle, "{c:?}");
            assert!(c.flags.contains("AT_NO_AUTOMOUNT"), "{c:?}");
            assert_eq!(
                c.flags.contains("AT_STATX_DONT_SYNC"),
                dont_sync,
                "{args:?}: {c:?}"
            );
        }
    }
}

/// A large local directory is split over the CPUs, by name: still one
/// statx per entry with the `-l` mask, and no handles.
#[test]
fn large_local_directory_is_probed_by_name_once_per_entry() {
    need_strace!();
    let (t, names) = many_files(2500);
    let refs: Vec<&str> = names.iter().map(String::as_str).collect();
    let calls = trace_with(t.path(), &["-l", "d"], &[], "trace=statx,openat");
    let by_name = entry_calls(&calls, &refs);
    assert_eq!(by_name.len(), refs.len());
    for c in by_name {
        assert_eq!(c.syscall, "statx", "{c:?}");
        assert_eq!(
            c.mask,
            "STATX_TYPE|STATX_MODE|STATX_NLINK|STATX_UID|STATX_GID|STATX_MTIME|STATX_SIZE|STATX_BLOCKS"
        );
        assert!(c.flags.contains("AT_NO_AUTOMOUNT"));
    }
}

/// Reading ahead with `-R` adds no request: every directory is opened once
/// (relative to its parent) and identified once, from the cache.
#[test]
fn read_ahead_opens_each_directory_once() {
    need_strace!();
    let t = TempDir::new("ahead");
    for d in 0..12 {
        for s in 0..3 {
            t.file(format!("top/d{d:02}/s{s}/f"), 1, 1_600_000_000);
        }
    }
    for env in [&[][..], &[("STATLS_THREADS", "4")][..]] {
        let calls = trace_with(t.path(), &["-R", "top"], env, "trace=statx,openat");
        let dir_opens = calls
            .iter()
            .filter(|c| c.syscall == "openat" && c.flags.contains("O_DIRECTORY"))
            .count();
        assert_eq!(dir_opens, 1 + 12 + 36, "{env:?}");
        let idents: Vec<&Call> = calls
            .iter()
            .filter(|c| c.syscall == "statx" && c.path.is_empty() && c.mask == "STATX_INO")
            .collect();
        assert_eq!(idents.len(), 1 + 12 + 36, "{env:?}");
        assert!(idents
            .iter()
            .all(|c| c.flags.contains("AT_STATX_DONT_SYNC")));
        assert!(
            !calls.iter().any(|c| c.syscall == "statx" && c.path == "f"),
            "{env:?}: -R stats no entry"
        );
    }
}

/// Finding the filesystem type reads /proc/self/mountinfo with a plain
/// open and read: no statx of it (std's `fs::read` asks STATX_ALL, without
/// AT_NO_AUTOMOUNT, for a size hint procfs does not give).
#[test]
fn reading_mountinfo_makes_no_statx() {
    need_strace!();
    let (t, _) = many_files(20);
    let log = strace_log(t.path(), &["-ln", "d"], &[], "trace=statx,openat,close");
    let mut lines = log
        .lines()
        .skip_while(|l| !l.contains("\"/proc/self/mountinfo\""));
    let open = lines.next().expect("the filesystem type is looked up");
    let fd = open.rsplit("= ").next().unwrap().trim();
    for line in lines.take_while(|l| !l.contains(&format!("close({fd})"))) {
        assert!(
            !line.contains(&format!("statx({fd}, ")),
            "mountinfo is stat'ed: {line}"
        );
    }
}

/// How many of the directories `ls ARGS` opened under `cwd` each thread
/// opened (by the process id strace prefixes to each `openat` of a
/// directory), the most first.
fn directories_opened_per_thread(cwd: &std::path::Path, args: &[&str]) -> Vec<usize> {
    let mut per_thread = std::collections::HashMap::<String, usize>::new();
    for line in strace_log(cwd, args, &[], "openat").lines() {
        if line.contains("O_DIRECTORY") && line.contains("\"d") {
            if let Some(tid) = line.split_whitespace().next() {
                *per_thread.entry(tid.to_string()).or_default() += 1;
            }
        }
    }
    let mut counts: Vec<usize> = per_thread.into_values().collect();
    counts.sort_unstable_by(|a, b| b.cmp(a));
    counts
}

#[test]
fn a_tree_of_small_directories_is_listed_by_the_walk_itself() {
    need_strace!();
    // Reading a small directory is all `-R` costs for it: handing it to a
    // worker and back costs more, so once the directories listed turn out
    // small (a moving mean of their entries, starting high: about ten
    // directories here), the walk stops reading ahead and reads them
    // itself: at most the first dozen of these 60 are read by a worker.
    let t = TempDir::new("small-dirs");
    for d in 0..60 {
        for f in 0..5 {
            t.file(format!("d{d:02}/f{f}"), 0, 1_600_000_000);
        }
    }
    let bare = directories_opened_per_thread(t.path(), &["-R"]);
    assert!(bare[0] >= 45, "-R: directories opened per thread {bare:?}");
}

#[test]
fn a_plain_listing_reads_no_mount_table() {
    need_strace!();
    // Whether a filesystem is remote only matters where requests could be
    // overlapped (stats, reading ahead): a plain listing, as GNU's, never
    // opens /proc/self/mountinfo.
    let (t, _) = many_files(50);
    for args in [&[][..], &["-a"], &["-1", "-r"]] {
        let log = strace_log(t.path(), args, &[], "openat");
        assert!(!log.contains("mountinfo"), "ls {args:?}:\n{log}");
    }
}

#[test]
fn a_large_directory_is_stated_while_it_is_still_read() {
    need_strace!();
    if rustix::thread::sched_getaffinity(None).map_or(1, |s| s.count()) < 2 {
        eprintln!("skipping: one CPU, nothing is overlapped");
        return;
    }
    // From 2 048 entries a helper thread starts on the names read so far
    // while the walk reads on: the reader starts it (or wakes the probe
    // pool's) before its last getdents64 (the one that returns 0), and it
    // stats entries. When its first statx runs is up to the scheduler (on a
    // busy machine it may get no CPU until reading ended), so that is not
    // asked; what the reader does, in its own order, is.
    let (t, _) = many_files(20_000);
    let log = strace_log(t.path(), &["-l", "d"], &[], "statx,getdents64,clone,clone3");
    let lines: Vec<&str> = log.lines().collect();
    let tid = |l: &str| l.split_whitespace().next().unwrap_or("").to_string();
    let end_of_reading = lines
        .iter()
        .rposition(|l| l.contains("getdents64") && l.trim_end().ends_with("= 0"))
        .expect("the directory was read to its end");
    let reader = tid(lines[end_of_reading]);
    let started_while_reading = lines[..end_of_reading]
        .iter()
        .any(|l| tid(l) == reader && l.contains("clone"));
    let helper_stats = lines
        .iter()
        .filter(|l| l.contains("statx(") && l.contains("AT_NO_AUTOMOUNT") && tid(l) != reader)
        .count();
    assert!(
        started_while_reading && helper_stats > 0,
        "no helper started before reading ended, or none stat'ed an entry:\n{}",
        lines[..end_of_reading.min(40)].join("\n")
    );
}
