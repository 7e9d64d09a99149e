//! Differential specification: for each behaviour, our output must equal
//! GNU ls 9.1's byte for byte (stdout, stderr, exit status) on the same
//! tree. Skipped, with a note, where /bin/ls is not GNU ls 9.1.

mod util;

use util::{compare, TempDir};

/// A small tree covering names, types, sizes, modes and times.
fn fixture() -> TempDir {
    let t = TempDir::new("diff");
    let old = 1_600_000_000; // Sep 2020: printed with the year
    t.file("README", 100, old)
        .file("a.txt", 1234, old + 60)
        .file("Zeta", 0, old + 120)
        .file("_under", 7, old + 180)
        .file("exe", 10, old + 240)
        .chmod("exe", 0o755)
        .file("setuid", 1, old + 300)
        .chmod("setuid", 0o4755)
        .file("ext/a.c", 1, old)
        .file("ext/b.h", 2, old + 1)
        .file("ext/c.tar.gz", 3, old + 2)
        .file("ext/noext", 4, old + 3)
        .file("ext/.hidden", 5, old + 4)
        .file("ext/backup~", 6, old + 5)
        .file("version/file1", 0, old)
        .file("version/file10", 0, old)
        .file("version/file2", 0, old)
        .file("version/file1.10", 0, old)
        .file("version/file1.9", 0, old)
        .file("version/a-1.0~rc1", 0, old)
        .file("version/a-1.0", 0, old)
        .file("version/.a", 0, old)
        .file("version/.zz", 0, old)
        .file("version/.tar.gz", 0, old)
        .file("version/.0", 0, old)
        .file("version/.9", 0, old)
        .file("version/.1a", 0, old)
        .dir("sub/deeper/deepest")
        .file("sub/inner", 5000, old)
        .file("sub/deeper/f", 1, old)
        .dir("sticky")
        .chmod("sticky", 0o1777)
        .dir("empty")
        .symlink("a.txt", "filelink")
        .symlink("sub", "dirlink")
        .symlink("nowhere", "brokenlink");
    for name in [
        "with space",
        "tab\there",
        "new\nline",
        "quote'd",
        "dq\"x",
        "$dollar",
        "star*",
        "back\\slash",
        "-dash",
    ] {
        t.file(format!("names/{name}"), 1, old);
    }
    t.file(
        <std::ffi::OsStr as std::os::unix::ffi::OsStrExt>::from_bytes(b"names/bad\xffutf8"),
        1,
        old,
    );
    for i in 0..37 {
        t.file(
            format!("cols/{}{}", "n".repeat(3 + i % 19), i),
            i,
            old + i as i64,
        );
    }
    std::process::Command::new("mkfifo")
        .arg(t.path().join("fifo"))
        .status()
        .unwrap();
    t.mtime("fifo", old + 400);
    for d in [
        "sub/deeper/deepest",
        "sub/deeper",
        "sub",
        "sticky",
        "empty",
        "ext",
        "version",
        "names",
        "cols",
    ] {
        t.mtime(d, old + 500);
    }
    t
}

fn check_all(cases: &[&[&str]]) {
    let t = fixture();
    for args in cases {
        if !compare(t.path(), args, &[]) {
            return;
        }
    }
}

#[test]
fn plain_listings_and_hidden_files() {
    check_all(&[
        &[],
        &["-a"],
        &["-A"],
        &["-1"],
        &["ext"],
        &["-a", "ext"],
        &["-B", "-a", "ext"],
        &["-d", "ext", "sub"],
    ]);
}

#[test]
fn column_layouts_fit_the_width() {
    check_all(&[
        &["-C", "cols"],
        &["-x", "cols"],
        &["-m", "cols"],
        &["-w", "40", "-C", "cols"],
        &["-w", "0", "-C", "cols"],
        &["-w", "200", "-x", "cols"],
        &["-T", "0", "-C", "cols"],
        &["-T", "3", "-C", "cols"],
    ]);
}

#[test]
fn sorting_orders() {
    check_all(&[
        &["-v", "version"],
        &["-vA", "version"],
        &["-va", "version"],
        &["-vAr", "version"],
        &["-r", "version"],
        &["-X", "ext"],
        &["-S", "cols"],
        &["-Sr", "cols"],
        &["-t", "cols"],
        &["-tr", "cols"],
        &["-U", "-1", "version"],
        &["--group-directories-first"],
        &["--sort=version", "-r", "version"],
    ]);
}

#[test]
fn operands_files_first_then_directories() {
    check_all(&[
        &["a.txt", "ext", "README"],
        &["nonexistent"],
        &["a.txt", "nonexistent", "README"],
        &["ext", "version"],
        &["filelink", "dirlink"],
        &["-d", "dirlink"],
        &["-R", "sub"],
        &["-R"],
    ]);
}

#[test]
fn indicators() {
    check_all(&[
        &["-F"],
        &["-p"],
        &["--file-type"],
        &["--indicator-style=classify"],
        &["-F", "dirlink"],
    ]);
}

#[test]
fn quoting_styles() {
    let styles = [
        "literal",
        "shell",
        "shell-always",
        "shell-escape",
        "shell-escape-always",
        "c",
        "escape",
        "locale",
        "clocale",
    ];
    let t = fixture();
    for s in styles {
        let arg = format!("--quoting-style={s}");
        if !compare(t.path(), &[&arg, "names"], &[]) {
            return;
        }
    }
    check_all(&[
        &["-b", "names"],
        &["-q", "names"],
        &["-Q", "names"],
        &["-N", "names"],
    ]);
}

#[test]
fn long_format_columns() {
    check_all(&[
        &["-l"],
        &["-la"],
        &["-ln"],
        &["-lg", "sub"],
        &["-lo", "sub"],
        &["-li", "sub"],
        &["-ls", "sub"],
        &["-l", "dirlink", "filelink", "brokenlink"],
        &["-lh", "cols"],
        &["-l", "--si", "cols"],
        &["-l", "--full-time", "ext"],
        &["-l", "--time-style=long-iso", "ext"],
        &["-l", "--time-style=+%s", "ext"],
    ]);
}

#[test]
fn colors() {
    check_all(&[
        &["--color=always"],
        &["--color=always", "-l"],
        &["--color=always", "-F", "sticky", "ext"],
    ]);
}

#[test]
fn usage_errors() {
    check_all(&[
        &["--bogus-option"],
        &["-y"],
        &["--sort=bogus"],
        &["-w", "abc"],
        &["--co"],
        &["--format=lo", "ext"],
        &["--tabsize=x"],
        &["--block-size=0"],
    ]);
}

/// `+` after the mode for a non-trivial access ACL, and for a directory
/// with only a default ACL; the columns widen for it across the listing.
#[test]
fn acl_markers() {
    let t = TempDir::new("diff-acl");
    let old = 1_600_000_000;
    t.file("d/plain", 1, old)
        .file("d/shared", 2, old)
        .dir("d/inherits")
        .dir("d/sub");
    if !(t.acl("d/shared", false) && t.acl("d/inherits", true)) {
        eprintln!(
            "note: no POSIX ACL support under {}; skipped",
            t.path().display()
        );
        return;
    }
    for d in ["d/inherits", "d/sub", "d"] {
        t.mtime(d, old);
    }
    for args in [
        &["-l", "d"][..],
        &["-lR", "d"],
        &["-ld", "d/shared", "d/inherits", "d/plain"],
        &["-lL", "d"],
        &["-ln", "--color=always", "d"],
    ] {
        compare(t.path(), args, &[("LC_ALL", "C"), ("TZ", "UTC")]);
    }
}

/// A working directory removed while in use reads as empty: getdents64
/// answers ENOENT, which glibc's readdir (and so GNU ls) takes as the end.
#[test]
fn removed_working_directory_lists_as_empty() {
    let t = util::TempDir::new("rmcwd");
    for flags in ["", "-a", "-l", "-R", "-lR", "-d ."] {
        let script = format!("mkdir d && cd d && rmdir ../d && exec -a ls \"$0\" {flags}");
        let ours: util::Run = util::in_shell(&util::ours(), t.path(), &script).into();
        let expected_stdout: &[u8] = match flags {
            "-l" => b"total 0\n",
            "-R" => b".:\n",
            "-lR" => b".:\ntotal 0\n",
            "-d ." => b".\n",
            _ => b"",
        };
        assert_eq!(
            (ours.stdout.as_slice(), ours.stderr.as_slice(), ours.status),
            (expected_stdout, &b""[..], Some(0)),
            "ls {flags}"
        );
        if let Some(g) = util::gnu() {
            let theirs: util::Run = util::in_shell(&g, t.path(), &script).into();
            util::assert_same(
                &format!("ls {flags} in a removed directory"),
                &theirs,
                &ours,
            );
        }
    }
}

/// The threaded paths (probes overlapped, subdirectories read ahead) print
/// what the sequential walk prints, messages and their order included:
/// `STATLS_THREADS=8` forces them on any filesystem and any machine.
#[test]
fn threaded_walk_prints_what_gnu_prints() {
    let t = fixture();
    // Subdirectories of every size, a loop through a symlink (for -L), and
    // a directory with enough entries to be probed in parallel.
    for d in 0..30 {
        t.dir(&format!("wide/d{d:02}"));
        for f in 0..(d * 7) {
            t.file(format!("wide/d{d:02}/f{f:03}"), f, 1_600_000_000 + f as i64);
        }
    }
    t.symlink("..", "wide/d03/up");
    // ACL markers read through the O_PATH handles (`/proc/self/fd/N`).
    let _ = t.acl("wide/d05/f001", false) && t.acl("wide/d06", true);
    for f in 0..2100 {
        t.file(format!("big/entry{f:05}"), 1, 1_600_000_000);
    }
    // Enough lines for the long format to be rendered on two threads.
    for f in 0..8300 {
        t.file(
            format!("huge/{}{f}", ["a", "B", "c c", "d'"][f % 4]),
            f % 977,
            1_600_000_000 + f as i64,
        );
    }
    let threads = [("STATLS_THREADS", "8")];
    for args in [
        &["-R"][..],
        &["-lR"],
        &["-laR", "--full-time"],
        &["-RL", "wide"],
        &["-lRL", "wide"],
        &["-iR", "wide", "sub"],
        &["-lR", "--color=always", "wide"],
        &["-l", "big"],
        &["-lS", "big", "wide/d29"],
        &["-R", "nonexistent", "wide", "sub"],
        &["-l", "huge"],
        &["-lis", "--time-style=full-iso", "huge"],
        &["-lr", "huge", "big"],
    ] {
        if !compare(t.path(), args, &threads) {
            return;
        }
    }
}
