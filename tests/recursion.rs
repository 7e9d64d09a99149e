//! `-R` is iterative and opens each subdirectory relative to its parent's
//! descriptor: trees deeper than PATH_MAX list completely, with no error,
//! under `ulimit -n 64` (where GNU ls 9.1 stops with "File name too long"),
//! and everything GNU does list comes out the same.

mod util;

use rustix::fd::OwnedFd;
use util::{gnu, ours, TempDir};

/// Levels in the chains below: their paths outgrow PATH_MAX (4096) at
/// about 2 000 levels.
const LEVELS: usize = 2_600;

fn open_dir(at: &OwnedFd, name: &str) -> OwnedFd {
    use rustix::fs::{openat, Mode, OFlags};
    openat(at, name, OFlags::DIRECTORY | OFlags::RDONLY, Mode::empty()).unwrap()
}

/// `levels` nested directories `d`, each (but the last) also holding the
/// empty directories `a` and `z` (listed before and after the descent)
/// when `siblings`. Built through descriptors: the full path is too long
/// for the kernel.
fn deep_chain(levels: usize, siblings: bool) -> TempDir {
    use rustix::fs::{mkdirat, openat, Mode, OFlags, CWD};
    let t = TempDir::new("deep");
    let mode = Mode::from_raw_mode(0o755);
    let mut fd = openat(
        CWD,
        t.path(),
        OFlags::DIRECTORY | OFlags::RDONLY,
        Mode::empty(),
    )
    .unwrap();
    for _ in 0..levels {
        mkdirat(&fd, "d", mode).unwrap();
        if siblings {
            mkdirat(&fd, "a", mode).unwrap();
            mkdirat(&fd, "z", mode).unwrap();
        }
        fd = open_dir(&fd, "d");
    }
    t
}

/// What `ls -R d` prints for [`deep_chain`]`(LEVELS + 1, siblings)`,
/// written out from the definition of the format: a heading per directory,
/// its names, a blank line between directories, depth first in name order.
fn expected_listing(siblings: bool) -> Vec<u8> {
    let mut out = Vec::new();
    let mut path = String::from("d");
    let mut climbing_back = Vec::new();
    for level in 0..LEVELS {
        if level > 0 {
            out.push(b'\n');
        }
        let names: &[&str] = match (siblings, level + 1 == LEVELS) {
            (_, true) => &[],
            (true, false) => &["a", "d", "z"],
            (false, false) => &["d"],
        };
        out.extend_from_slice(format!("{path}:\n").as_bytes());
        for n in names {
            out.extend_from_slice(format!("{n}\n").as_bytes());
        }
        if siblings && !names.is_empty() {
            out.extend_from_slice(format!("\n{path}/a:\n").as_bytes());
            climbing_back.push(format!("\n{path}/z:\n"));
        }
        path.push_str("/d");
    }
    for z in climbing_back.iter().rev() {
        out.extend_from_slice(z.as_bytes());
    }
    out
}

fn run_limited(program: &std::path::Path, cwd: &std::path::Path, flags: &str) -> util::Run {
    let script = format!("ulimit -n 64 && exec -a ls \"$0\" {flags} d");
    util::in_shell(program, cwd, &script).into()
}

/// Our `ls FLAGS d` under `ulimit -n 64`, which must succeed without a
/// message; its output.
fn ours_completes(cwd: &std::path::Path, flags: &str) -> util::Run {
    let run = run_limited(&ours(), cwd, flags);
    assert_eq!(String::from_utf8_lossy(&run.stderr), "", "ls {flags}");
    assert_eq!(run.status, Some(0), "ls {flags}");
    run
}

#[test]
fn chain_deeper_than_path_max_lists_completely_with_64_descriptors() {
    let t = deep_chain(LEVELS, false);
    let ours = ours_completes(t.path(), "-R");
    assert!(
        ours.stdout == expected_listing(false),
        "-R output is not the full chain"
    );
    if let Some(g) = gnu() {
        // GNU lists the same until the path is too long for the kernel.
        let theirs = run_limited(&g, t.path(), "-R");
        assert_eq!(theirs.status, Some(1));
        assert!(String::from_utf8_lossy(&theirs.stderr).ends_with(": File name too long\n"));
        assert!(ours.stdout.starts_with(&theirs.stdout));
    }
}

#[test]
fn climbing_back_up_a_deep_chain_reopens_through_dotdot() {
    // Each `z` is listed on the way back up, after the descriptors of its
    // parent's level were given up for deeper ones.
    let t = deep_chain(LEVELS, true);
    let ours = ours_completes(t.path(), "-R");
    assert!(
        ours.stdout == expected_listing(true),
        "-R output differs from the tree"
    );
}

#[test]
fn long_listing_of_a_deep_chain_stats_every_level() {
    let t = deep_chain(LEVELS, true);
    let ours = ours_completes(t.path(), "-lR");
    let text = String::from_utf8_lossy(&ours.stdout);
    let headings = text.lines().filter(|l| l.ends_with(':')).count();
    assert_eq!(headings, 3 * LEVELS - 2);
    let dirs = text.lines().filter(|l| l.starts_with("drwx")).count();
    assert_eq!(dirs, 3 * (LEVELS - 1));
    assert!(!text.contains('?'), "an entry could not be stat'ed");
}
