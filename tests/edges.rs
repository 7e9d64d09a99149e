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
