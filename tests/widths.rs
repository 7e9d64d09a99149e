//! Widths of the owner, group, author and security-context columns, as a
//! differential specification against GNU ls 9.1:
//!
//! - a user or group name takes the columns GNU's `mbswidth(name, 0)`
//!   counts in LC_CTYPE: the C library's `wcwidth` in a multibyte locale
//!   (which differs from Unicode's tables: U+00AD takes 1 column, U+2630
//!   1, not 0 and 2), one per byte that is not a control in a single-byte
//!   one (so `josé` in UTF-8 takes 5 in the C locale);
//! - the `-Z` column is as wide as the longest context in bytes (GNU's
//!   strlen); the long format pads each context by its columns, as a name,
//!   the other formats right-align it by bytes (`printf("%*s")`).
//!
//! The names come from a passwd and a group file bind-mounted over
//! /etc/passwd and /etc/group in a private mount namespace (`unshare -m`,
//! as root), so no user is created and nothing outside the test changes.
//! Contexts are `security.selinux` attributes, which root can set and GNU
//! reads whether or not SELinux is enabled. Each part is skipped, with a
//! `SKIPPED` line, where that is not possible.

mod util;

use std::ffi::OsStr;
use std::os::unix::ffi::OsStrExt;
use std::path::Path;
use std::process::{Command, Stdio};

use util::{gnu, ours, private_mounts, skipped, Run, TempDir};

const LOCALES: [&str; 4] = ["C", "C.UTF-8", "de_DE.ISO-8859-1", "ja_JP.UTF-8"];

/// `(uid and gid, user name, group name)`: widths where the C library and
/// Unicode disagree, in UTF-8 and in ISO-8859-1 (0x85 is a C1 control).
const NAMES: [(u32, &[u8], &[u8]); 2] = [
    (4_242_001, b"jos\xc3\xa9", b"\xe2\x98\xb0\xe2\x98\xb0"),
    (4_242_002, b"a\xc2\xadb", b"\x85lat\xe9"),
];

/// `ls ARGS` in `cwd` under `LC_ALL=locale`, seeing `files/passwd` and
/// `files/group` as /etc/passwd and /etc/group.
fn run_with_names(program: &Path, cwd: &Path, files: &Path, args: &[&str], locale: &str) -> Run {
    let script = "mount --bind \"$1/passwd\" /etc/passwd && mount --bind \"$1/group\" /etc/group \
                  || exit 125; shift; exec -a ls \"$@\"";
    let out = Command::new("unshare")
        .args(["-m", "bash", "-c", script, "bash"])
        .arg(files)
        .arg(program)
        .args(args)
        .current_dir(cwd)
        .env_clear()
        .env("LC_ALL", locale)
        .env("TZ", "UTC")
        .env("PATH", "/usr/bin:/bin:/usr/sbin:/sbin")
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert_ne!(out.status.code(), Some(125), "bind mounts failed");
    out.into()
}

#[test]
fn owner_group_and_author_names_take_the_c_librarys_columns() {
    let Some(gnu_ls) = gnu() else {
        skipped("/bin/ls is not GNU ls 9.1: name widths not compared");
        return;
    };
    if !private_mounts() {
        skipped("no private mount namespace (unshare -m, as root): name widths not compared");
        return;
    }
    let t = TempDir::new("widths-names");
    let files = t.path().parent().unwrap().join("etc");
    std::fs::create_dir(&files).unwrap();
    let mut passwd = std::fs::read("/etc/passwd").unwrap_or_default();
    let mut group = std::fs::read("/etc/group").unwrap_or_default();
    t.file("plain", 1, 1_600_000_000);
    for (id, user, grp) in NAMES {
        passwd.extend_from_slice(
            &[user, format!(":x:{id}:{id}::/:/bin/false\n").as_bytes()].concat(),
        );
        group.extend_from_slice(&[grp, format!(":x:{id}:\n").as_bytes()].concat());
        let name = format!("owned-by-{id}");
        t.file(&name, 1, 1_600_000_000);
        rustix::fs::chown(t.path().join(&name), Some(uid(id)), Some(gid(id))).unwrap();
    }
    std::fs::write(files.join("passwd"), passwd).unwrap();
    std::fs::write(files.join("group"), group).unwrap();
    for locale in LOCALES {
        for args in [
            &["-l"][..],
            &["-l", "--author"],
            &["-lo"],
            &["-lg"],
            &["-ln"],
        ] {
            let theirs = run_with_names(&gnu_ls, t.path(), &files, args, locale);
            let mine = run_with_names(&ours(), t.path(), &files, args, locale);
            let what = format!("LC_ALL={locale} ls {}", args.join(" "));
            util::assert_same(&what, &theirs, &mine);
        }
    }
}

fn uid(id: u32) -> rustix::fs::Uid {
    rustix::fs::Uid::from_raw(id)
}

fn gid(id: u32) -> rustix::fs::Gid {
    rustix::fs::Gid::from_raw(id)
}

/// The lines of a long listing without their mode strings and markers:
/// GNU marks a file that has a context with `.` even where SELinux is off
/// (as here, where root set the attribute), and we look for contexts only
/// where it is on; the widths are what this file specifies.
fn without_modes(run: &Run) -> Vec<Vec<u8>> {
    run.stdout
        .split(|&b| b == b'\n')
        .map(|line| match line.get(10..) {
            Some(rest) if line[0] == b'-' => {
                let start = rest.iter().position(|&b| b != b'.' && b != b' ');
                rest[start.unwrap_or(rest.len())..].to_vec()
            }
            _ => line.to_vec(),
        })
        .collect()
}

#[test]
fn contexts_are_measured_in_bytes_and_padded_by_columns() {
    let Some(gnu_ls) = gnu() else {
        skipped("/bin/ls is not GNU ls 9.1: context widths not compared");
        return;
    };
    let t = TempDir::new("widths-contexts");
    let contexts: [(&str, &[u8]); 3] = [
        ("long", b"system_u:object_r:etc_t:s0\0"),
        ("utf8", b"u:r:\xc3\xa9\xc3\xa9:s0\0"),
        ("latin1", b"u:r:\x85\xe9:s0\0"),
    ];
    t.file("none", 1, 1_600_000_000);
    for (name, context) in contexts {
        t.file(name, 1, 1_600_000_000);
        let set = rustix::fs::setxattr(
            t.path().join(OsStr::from_bytes(name.as_bytes())),
            "security.selinux",
            context,
            rustix::fs::XattrFlags::empty(),
        );
        if set.is_err() {
            skipped("cannot set security.selinux here: context widths not compared");
            return;
        }
    }
    for locale in LOCALES {
        let env = [("LC_ALL", locale)];
        for args in [
            &["-Z"][..],
            &["-Z1"],
            &["-Zx", "-w", "60"],
            &["-Zm"],
            &["-Zsi"],
        ] {
            util::compare(t.path(), args, &env);
        }
        let args = ["-lZ", "--time-style=+%s"];
        let theirs = util::run(&gnu_ls, t.path(), &args, &env);
        let mine = util::run(&ours(), t.path(), &args, &env);
        assert_eq!(
            (without_modes(&theirs), &theirs.stderr, theirs.status),
            (without_modes(&mine), &mine.stderr, mine.status),
            "LC_ALL={locale} ls -lZ:\n{}\n{}",
            String::from_utf8_lossy(&theirs.stdout),
            String::from_utf8_lossy(&mine.stdout)
        );
    }
}
