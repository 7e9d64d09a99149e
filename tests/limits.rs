//! Limits GNU ls 9.1 lives within, we must live within too, with the same
//! output, messages and status:
//!
//! - descriptors: GNU holds one directory at a time and closes it before
//!   formatting its entries. Our `-R` holds directories along the path and
//!   reads some ahead, within the descriptors free at start-up (not the
//!   limit alone: a parent may leave hundreds open), so trees of any depth
//!   and breadth list completely with 4 free descriptors (GNU's: 1), and
//!   `-l` still finds user names under `ulimit -n 4`;
//! - memory: out of memory is `ls: memory exhausted`, status 2, after what
//!   stdout held is written (GNU flushes it first); we list a
//!   tree within GNU's smallest address space plus our larger binary's
//!   allowance, and read-ahead threads never need more than one thread;
//! - time: a directory read ahead is listed no later than 200 ms after it
//!   was read, so a change made a second before its listing shows.

mod util;

use std::io::Read;
use std::path::Path;
use std::process::Stdio;
use std::time::Duration;
use util::{gnu, ours, Run, TempDir};

/// How our `ls` is run: one directory at a time, with the default
/// threads, and with read-ahead forced (8 workers, 36 directories ahead,
/// as on a network filesystem).
const THREADS: [&str; 3] = ["1", "", "8"];

/// Runs `ls ARGS` through bash after `SETUP` (limits, inherited
/// descriptors), with `STATLS_THREADS=threads` when not empty.
fn limited(program: &Path, cwd: &Path, setup: &str, args: &str, threads: &str) -> Run {
    let env = if threads.is_empty() {
        String::new()
    } else {
        format!("export STATLS_THREADS={threads}; ")
    };
    let script = format!("{setup}; {env}exec -a ls \"$0\" {args}");
    util::in_shell(program, cwd, &script).into()
}

/// Our `ls ARGS` under `setup`, every way of threading, lists like GNU
/// (when installed) and completes with neither message nor error status.
fn completes_as_gnu(cwd: &Path, setup: &str, args: &str) -> Run {
    let theirs = gnu().map(|g| limited(&g, cwd, setup, args, ""));
    let mut last = None;
    for threads in THREADS {
        let mine = limited(&ours(), cwd, setup, args, threads);
        let what = format!("{setup}; STATLS_THREADS={threads} ls {args}");
        assert_eq!(String::from_utf8_lossy(&mine.stderr), "", "{what}");
        assert_eq!(mine.status, Some(0), "{what}");
        if let Some(theirs) = &theirs {
            util::assert_same(&what, theirs, &mine);
        }
        last = Some(mine);
    }
    last.unwrap()
}

/// `d01` … `dNN`, each with a file and a subdirectory holding a file.
fn broad_tree(dirs: usize) -> TempDir {
    let t = TempDir::new("limits-broad");
    for d in 1..=dirs {
        t.file(format!("d{d:02}/f"), 1, 1_600_000_000).file(
            format!("d{d:02}/sub/g"),
            1,
            1_600_000_000,
        );
    }
    t
}

/// A chain `d/d/…` of `depth` directories, each (but the last) also
/// holding a file `f` and an empty directory `a`, listed before the
/// descent, and `z`, listed after climbing back.
fn deep_tree(depth: usize) -> TempDir {
    let t = TempDir::new("limits-deep");
    let mut path = String::new();
    for _ in 0..depth {
        t.file(format!("{path}f"), 1, 1_600_000_000)
            .dir(&format!("{path}a"))
            .dir(&format!("{path}z"));
        path.push_str("d/");
    }
    t.dir(&path);
    t
}

fn headings(run: &Run) -> usize {
    String::from_utf8_lossy(&run.stdout)
        .lines()
        .filter(|l| l.ends_with(':'))
        .count()
}

#[test]
fn read_ahead_lists_every_subtree_of_50_directories_under_ulimit_n_8() {
    let t = broad_tree(50);
    for args in ["-R .", "-lR ."] {
        let run = completes_as_gnu(t.path(), "ulimit -n 8", args);
        assert_eq!(headings(&run), 1 + 50 + 50, "{args}");
    }
}

#[test]
fn read_ahead_counts_descriptors_a_parent_left_open() {
    // The usual limit, nearly all of it taken by inherited descriptors:
    // about 20 remain free.
    let t = broad_tree(50);
    let setup = "ulimit -n 1024; for ((i = 0; i < 1000; i++)); do exec {fd}</dev/null; done";
    let run = completes_as_gnu(t.path(), setup, "-R .");
    assert_eq!(headings(&run), 1 + 50 + 50);
    completes_as_gnu(t.path(), "ulimit -n 32", "-lR .");
}

#[test]
fn deep_trees_list_completely_with_four_free_descriptors() {
    // Three descriptors are open (the standard streams): `ulimit -n 7`
    // leaves 4 free. GNU manages with one (`ulimit -n 4`), and so do we.
    for (depth, limit) in [(20, 16), (60, 9), (60, 7), (60, 4)] {
        let t = deep_tree(depth);
        for args in ["-R .", "-lR ."] {
            let run = completes_as_gnu(t.path(), &format!("ulimit -n {limit}"), args);
            assert_eq!(headings(&run), 1 + 3 * depth, "depth {depth}, {args}");
        }
    }
}

#[test]
fn long_listing_names_owners_under_ulimit_n_4() {
    // The directory is closed before its entries are formatted, so the
    // user and group lookups can open /etc/passwd and /etc/group.
    let t = broad_tree(3);
    let run = completes_as_gnu(t.path(), "ulimit -n 4", "-l d01");
    let text = String::from_utf8_lossy(&run.stdout).into_owned();
    let ids = util::run(&ours(), t.path(), &["-ln", "d01"], &[]);
    if text != String::from_utf8_lossy(&ids.stdout) {
        return; // names differ from numbers: they were found
    }
    // Only when the owner has no name at all may the two agree.
    let owner = rustix::process::getuid().as_raw();
    let passwd = std::fs::read_to_string("/etc/passwd").unwrap_or_default();
    assert!(
        !passwd
            .lines()
            .any(|l| l.split(':').nth(2) == Some(&owner.to_string())),
        "uid {owner} has a name, but ls -l printed numbers:\n{text}"
    );
}

/// The smallest `ulimit -v` (KiB, to 16 KiB) under which `program ARGS`
/// succeeds in `cwd`.
fn smallest_address_space(program: &Path, cwd: &Path, args: &str, threads: &str) -> u64 {
    let (mut fails, mut passes) = (1024u64, 64 * 1024u64);
    while passes - fails > 16 {
        let mid = (fails + passes) / 2;
        let run = limited(program, cwd, &format!("ulimit -v {mid}"), args, threads);
        if run.status == Some(0) {
            passes = mid;
        } else {
            fails = mid;
        }
    }
    passes
}

/// How much more address space than GNU ls we may need: our binary maps
/// more text than GNU's (the statx planner, read-ahead, the C-library
/// locale layer), and code growth must not turn this test red by itself.
const ADDRESS_SPACE_ALLOWANCE_KIB: u64 = 1024;

#[test]
fn a_tree_lists_within_an_address_space_near_gnus_and_threads_need_no_more() {
    let Some(g) = gnu() else {
        eprintln!("note: /bin/ls is not GNU ls 9.1; skipped");
        return;
    };
    let t = broad_tree(50);
    for args in ["-R .", "-lR ."] {
        let theirs = smallest_address_space(&g, t.path(), args, "");
        let one_thread = smallest_address_space(&ours(), t.path(), args, "1");
        eprintln!("ls {args}: GNU needs {theirs} KiB, we {one_thread} KiB on one thread");
        assert!(
            one_thread <= theirs + ADDRESS_SPACE_ALLOWANCE_KIB,
            "ls {args}: we need {one_thread} KiB of address space, GNU {theirs} KiB"
        );
        // Read-ahead threads included: they must not make us fail where
        // one thread succeeds (one bisection step of slack for ASLR).
        let setup = format!("ulimit -v {}", one_thread.max(theirs) + 32);
        completes_as_gnu(t.path(), &setup, args);
    }
}

/// `a` (a file) and `d` (20 000 files); and the address space in which
/// `ls -d d` just starts, plus 1 MiB: enough to start, not to hold the
/// entries of `d` for `-l`.
fn too_large_to_list() -> (TempDir, String) {
    let t = TempDir::new("limits-oom");
    t.file("a", 0, 1_600_000_000);
    let d = t.path().join("d");
    std::fs::create_dir(&d).unwrap();
    for i in 0..20_000 {
        std::fs::File::create(d.join(format!("file_{i:05}"))).unwrap();
    }
    let start = match gnu() {
        Some(g) => smallest_address_space(&g, t.path(), "-d d", ""),
        None => smallest_address_space(&ours(), t.path(), "-d d", "1"),
    };
    (t, format!("ulimit -v {}", start + 1024))
}

#[test]
fn out_of_memory_is_memory_exhausted_and_status_2() {
    let (t, setup) = too_large_to_list();
    for threads in THREADS {
        let mine = limited(&ours(), t.path(), &setup, "-l d", threads);
        let what = format!("{setup}; STATLS_THREADS={threads} ls -l d");
        assert_eq!(
            String::from_utf8_lossy(&mine.stderr),
            "ls: memory exhausted\n",
            "{what}"
        );
        assert_eq!(mine.status, Some(2), "{what}");
        if let Some(g) = gnu() {
            util::assert_same(&what, &limited(&g, t.path(), &setup, "-l d", ""), &mine);
        }
    }
}

#[test]
fn out_of_memory_first_writes_what_stdout_holds() {
    // GNU's error() flushes stdout before the message: the line of `a`
    // and the heading of `d`, still buffered (stdout is a pipe), come out
    // first, on the one descriptor both streams share here.
    let (t, limit) = too_large_to_list();
    let setup = format!("{limit}; exec 2>&1");
    for threads in THREADS {
        let mine = limited(&ours(), t.path(), &setup, "-log a d", threads);
        let what = format!("{limit}; STATLS_THREADS={threads} ls -log a d 2>&1");
        let text = String::from_utf8_lossy(&mine.stdout);
        assert!(text.starts_with("-rw-r--r-- 1 "), "{what}: {text}");
        assert!(
            text.ends_with(" 2020 a\n\nd:\nls: memory exhausted\n"),
            "{what}: {text}"
        );
        assert_eq!(mine.status, Some(2), "{what}");
        if let Some(g) = gnu() {
            util::assert_same(&what, &limited(&g, t.path(), &setup, "-log a d", ""), &mine);
        }
    }
}

/// Runs `ls -R .` on a tree of `a` (thousands of entries, more than the
/// pipe holds) and `z` (holding `old`). Once `./a:` is out, stops reading,
/// so that ls blocks on the full pipe while listing `a`; then replaces
/// `z/old` by `z/new`, waits a second (five times the staleness bound)
/// and reads the rest.
fn list_while_z_changes(program: &Path, threads: &str) -> Vec<u8> {
    let t = TempDir::new("limits-stale");
    for i in 0..4000 {
        t.file(
            format!("a/a-file-with-a-longish-name-{i:05}"),
            0,
            1_600_000_000,
        );
    }
    t.file("z/old", 0, 1_600_000_000);
    let env = if threads.is_empty() {
        String::new()
    } else {
        format!("export STATLS_THREADS={threads}; ")
    };
    let script = format!("{env}exec -a ls \"$0\" -R .");
    let mut child = util::shell(program, t.path(), &script)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut pipe = child.stdout.take().unwrap();
    let mut out = Vec::new();
    let mut chunk = [0u8; 512];
    while !out.windows(5).any(|w| w == b"./a:\n") {
        let n = pipe.read(&mut chunk).unwrap();
        assert!(n > 0, "ls ended before listing ./a");
        out.extend_from_slice(&chunk[..n]);
    }
    std::thread::sleep(Duration::from_millis(300));
    std::fs::remove_file(t.path().join("z/old")).unwrap();
    std::fs::File::create(t.path().join("z/new")).unwrap();
    std::thread::sleep(Duration::from_secs(1));
    pipe.read_to_end(&mut out).unwrap();
    assert!(child.wait().unwrap().success());
    out
}

#[test]
fn a_directory_read_ahead_is_listed_as_it_is_when_its_turn_comes() {
    for threads in THREADS {
        let out = list_while_z_changes(&ours(), threads);
        assert!(
            out.ends_with(b"\n./z:\nnew\n"),
            "STATLS_THREADS={threads}: z listed as it was over a second earlier: {:?}",
            String::from_utf8_lossy(&out[out.len().saturating_sub(40)..])
        );
    }
    if let Some(g) = gnu() {
        assert!(list_while_z_changes(&g, "").ends_with(b"\n./z:\nnew\n"));
    }
}
