//! Smaller GNU details that hold in every locale (issue 20): quote
//! alignment over all operands, separator lines, hyperlinks of quoted
//! names and targets, write errors and link-target colours, each compared
//! with GNU ls 9.1 byte for byte. Skipped, with a note, where /bin/ls is
//! not GNU ls 9.1.

mod util;

use util::{compare, TempDir};

fn fixture() -> TempDir {
    let t = TempDir::new("edges");
    let old = 1_600_000_000;
    t.file("a b", 1, old)
        .file("c", 2, old)
        .file("dir x/f", 3, old)
        .file("plain/f", 3, old)
        .file("ext/c.d", 4, old)
        .symlink("x y", "l")
        .symlink("c", "l2")
        .symlink("plain", "dl")
        .symlink("nowhere", "broken");
    t
}

/// GNU keeps a quoted link target's outer quotes outside its OSC 8 link
/// where quotes are aligned, as it does for names; without alignment
/// (no name in the listing quoted) the quotes are part of the link text.
#[test]
fn quoted_link_targets_keep_their_quotes_outside_the_hyperlink() {
    let t = fixture();
    for args in [
        &["-l", "--quoting-style=shell-escape", "--hyperlink=always"][..],
        &[
            "-l",
            "--quoting-style=shell",
            "--hyperlink=always",
            "--color=always",
        ],
        &[
            "-l",
            "--quoting-style=shell-escape",
            "--hyperlink=always",
            "l",
            "a b",
        ],
        &[
            "-l",
            "--quoting-style=shell-escape",
            "--hyperlink=always",
            "l",
        ],
    ] {
        compare(t.path(), args, &[]);
    }
}

/// GNU decides whether the operand files' quotes are aligned from every
/// operand it was given, before it knows what became of it: a quoted
/// directory operand or a quoted missing one shifts the unquoted files.
#[test]
fn quote_alignment_of_operand_files_counts_directories_and_missing_operands() {
    let t = fixture();
    for args in [
        &["-l", "--quoting-style=shell", "dir x", "c"][..],
        &["-l", "--quoting-style=shell-escape", "no such", "c", "l2"],
        &["-C", "--quoting-style=shell", "-w", "40", "c", "", "plain"],
        &["-l", "--quoting-style=shell", "plain", "c"],
        // Not aligned with -1: nothing changes.
        &["-1", "--quoting-style=shell", "dir x", "c"],
    ] {
        compare(t.path(), args, &[]);
    }
}

/// `--hyperlink` makes each operand's name absolute before it is stat'ed:
/// an empty name is first an `error canonicalizing ''`, then the usual
/// `cannot access ''`.
#[test]
fn hyperlink_of_an_empty_operand_reports_the_canonicalization_first() {
    let t = fixture();
    compare(t.path(), &["--hyperlink=always", ""], &[]);
    compare(
        t.path(),
        &["--hyperlink=always", "-l", "c", "", "plain"],
        &[],
    );
}

/// The `-> target` of `-l --color` is coloured from the target's mode
/// exactly where GNU stats the target: with `--group-directories-first`,
/// target-dependent colours or `-F`/`--file-type`, not for `-p` alone
/// (then the target is an uncoloured orphan and gets no `/`).
#[test]
fn link_targets_are_coloured_exactly_where_gnu_stats_them() {
    let t = fixture();
    let cases: &[(&[&str], &str)] = &[
        (
            &["--color=always", "--group-directories-first", "-l"],
            "*=1",
        ),
        (&["--color=always", "-pl"], "*.d=04"),
        (&["--color=always", "-pl"], "or=40;31"),
        (&["--color=always", "-l", "--file-type"], ""),
        (&["--color=always", "-lF"], "ln=target"),
        (
            &["--color=always", "--group-directories-first"],
            "ln=target",
        ),
        (&["-lp", "--group-directories-first"], ""),
    ];
    for (args, colors) in cases {
        compare(t.path(), args, &[("LS_COLORS", colors)]);
    }
}

/// Runs `bash -c 'exec ls ARGS >REDIRECT'` (with `trap '' PIPE` when the
/// redirection is a pipe to `true`), returning status and stderr.
fn write_failure(
    program: &std::path::Path,
    cwd: &std::path::Path,
    script: &str,
) -> (Option<i32>, String) {
    let out = util::in_shell(program, cwd, script);
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// With colours written GNU flushes stdout itself before closing it, so a
/// failed write is reported as a plain `write error` (the close has no
/// errno to add), except for a descriptor that cannot be closed at all.
#[test]
fn write_error_with_colour_is_plain_as_gnu_reports_it() {
    let Some(g) = util::gnu() else {
        eprintln!("skipping: /bin/ls is not GNU ls 9.1");
        return;
    };
    let t = fixture();
    for i in 0..3000 {
        t.file(
            format!("many/file-with-a-longish-name-{i:05}.d"),
            0,
            1_600_000_000,
        );
    }
    let ls = "exec -a ls \"$0\" --color=always";
    for script in [
        format!("{ls} many >/dev/full"),
        format!("{ls} plain >/dev/full"),
        format!("{ls} -l many >&-"),
        format!("trap '' PIPE; {ls} many | true"),
        // No colour written: the errno of the failed write.
        format!("LS_COLORS='di=:fi=:no=' {ls} plain >/dev/full"),
    ] {
        let ours = write_failure(&util::ours(), t.path(), &script);
        assert_eq!(ours, write_failure(&g, t.path(), &script), "{script}");
    }
}
