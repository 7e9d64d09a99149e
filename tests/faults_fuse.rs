//! Faults of the filesystem, as GNU ls survives them: the project's FUSE
//! test filesystem (latfs, bench/latfs) fails chosen requests for chosen
//! names, and each listing must equal GNU ls 9.1's under the same fault,
//! byte for byte (stdout, stderr, status), one thread or overlapped.
//! Skipped, with a loud note, where FUSE or GNU ls 9.1 is not available.

mod util;

use util::latfs::Latfs;
use util::{assert_same, gnu, ours, run, TempDir};

/// A small tree: files, good and bad symlinks, a directory that will not
/// open, a subdirectory.
fn source() -> TempDir {
    let t = TempDir::new("fuse-src");
    let old = 1_600_000_000;
    t.file("a", 1, old)
        .file("acl-file", 2, old)
        .file("sub/f", 3, old)
        .file("locked/f", 3, old)
        .file("acl-dir/f", 3, old)
        .symlink("a", "badlink")
        .symlink("a", "good")
        .symlink("sub", "bad-dirlink");
    t
}

/// Threads: GNU's one, ours one at a time, and ours overlapped.
const MODES: [&[(&str, &str)]; 2] = [&[("STATLS_THREADS", "1")], &[("STATLS_THREADS", "8")]];

/// Mounts the source with `options` and compares every command line with
/// GNU's, in every mode.
fn compare_under(options: &str, cases: &[&[&str]]) {
    let Some(g) = gnu() else {
        eprintln!("NOTE: skipping: /bin/ls is not GNU ls 9.1");
        return;
    };
    let src = source();
    let Some(fs) = Latfs::mount(src.path(), options) else {
        return;
    };
    for args in cases {
        let theirs = run(&g, fs.path(), args, &[]);
        for env in MODES {
            let mine = run(&ours(), fs.path(), args, env);
            assert_same(
                &format!("-o {options}: ls {} {env:?}", args.join(" ")),
                &theirs,
                &mine,
            );
        }
    }
}

/// A symlink that cannot be read: GNU reports `cannot read symbolic link`
/// with the error, lists the link without `-> target`, and exits 1 (2 for
/// an operand).
#[test]
fn unreadable_symlink_is_reported_and_listed_without_its_target() {
    let cases: &[&[&str]] = &[
        &["-l"],
        &["-l", "badlink"],
        &["-l", "good", "badlink", "sub"],
        &["-lR"],
        &["-l", "--color=always"],
        &["-lF"],
    ];
    compare_under("fail_op=readlink,fail_name=bad*,fail_errno=5", cases);
}

/// A symlink replaced by a file between the stat and the readlink (churn):
/// readlink says EINVAL, which GNU reports as any other error.
#[test]
fn symlink_replaced_before_readlink_is_reported_as_gnu_reports_it() {
    compare_under(
        "fail_op=readlink,fail_name=badlink,fail_errno=22",
        &[&["-l"], &["-l", "badlink"]],
    );
}

/// `--json` reports the unreadable link on stderr with GNU's text and
/// status, and its record has no `target`.
#[test]
fn json_reports_an_unreadable_symlink_as_the_text_does() {
    let Some(g) = gnu() else {
        eprintln!("NOTE: skipping: /bin/ls is not GNU ls 9.1");
        return;
    };
    let src = source();
    let Some(fs) = Latfs::mount(src.path(), "fail_op=readlink,fail_name=bad*") else {
        return;
    };
    for args in [&["-l"][..], &["-l", "badlink"]] {
        let text = run(&g, fs.path(), args, &[]);
        let mut json_args = vec!["--json"];
        json_args.extend_from_slice(args);
        for env in MODES {
            let json = run(&ours(), fs.path(), &json_args, env);
            assert_eq!(
                (String::from_utf8_lossy(&json.stderr), json.status),
                (String::from_utf8_lossy(&text.stderr), text.status),
                "ls {json_args:?} {env:?}"
            );
            let out = String::from_utf8_lossy(&json.stdout);
            let bad = out.lines().find(|l| l.contains("\"badlink\"")).unwrap();
            assert!(!bad.contains("\"target\""), "{bad}");
            let good = out.lines().find(|l| l.contains("\"good\""));
            assert!(good.is_none_or(|l| l.contains("\"target\":\"a\"")), "{out}");
        }
    }
}

/// An ACL or security-context probe failing with anything but "not
/// supported" / "no such attribute": GNU prints `ls: NAME: error`, shows
/// no marker, and the status is unchanged.
#[test]
fn xattr_probe_errors_are_reported_with_the_status_unchanged() {
    let cases: &[&[&str]] = &[
        &["-l"],
        &["-l", "acl-file", "a"],
        &["-ld", "acl-dir"],
        &["-lR"],
        &["-Z"],
        &["-lZ", "acl-file"],
    ];
    compare_under("fail_op=getxattr,fail_name=acl-*,fail_errno=5", cases);
}

/// GNU prints the blank line that separates the files from the first
/// directory as soon as it knows directories follow, before opening it:
/// it stays there when that directory cannot be opened.
#[test]
fn blank_line_before_a_directory_operand_that_fails_to_open() {
    let cases: &[&[&str]] = &[
        &["a", "locked"],
        &["a", "locked", "sub"],
        &["-l", "a", "locked"],
        &["locked", "sub"],
        &["-R", "a", "."],
    ];
    compare_under("fail_op=opendir,fail_name=locked,fail_errno=13", cases);
}

/// GNU reads symlinks wherever it checks their targets, not only for `-l`:
/// with `--group-directories-first` or colours that depend on the target,
/// an unreadable link is reported there too (and then not followed).
#[test]
fn unreadable_symlink_is_reported_wherever_gnu_reads_links() {
    let cases: &[&[&str]] = &[
        &["--group-directories-first"],
        &[
            "--color=always",
            "--group-directories-first",
            "bad-dirlink",
            "good",
        ],
        &["-F", "--color=always"],
        &["-F"],
    ];
    compare_under("fail_op=readlink,fail_name=bad*,fail_errno=5", cases);
}
