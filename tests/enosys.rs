//! When statx answers ENOSYS (old kernel, seccomp profile), ls falls back
//! to fstatat once and prints exactly the same output; without getxattrat
//! (kernels before 6.13) the ACL probes go by path, with the same result.
//! A small C wrapper installs a seccomp filter before exec'ing our binary.

mod util;

use std::path::Path;
use std::process::Command;
use util::enosys::wrapper;
use util::{ours, run, TempDir};

/// Runs our ls with the calls in `calls` (comma-separated) failing with
/// ENOSYS.
fn run_without(wrapper: &Path, calls: &str, cwd: &Path, args: &[&str]) -> util::Run {
    let ours = ours();
    util::enosys::run_without(wrapper, calls, &[ours.to_str().unwrap()], cwd, args)
}

#[test]
fn fstatat_fallback_gives_identical_output() {
    let Some(wrapper) = wrapper() else {
        eprintln!("skipping: no C compiler to build the seccomp wrapper");
        return;
    };
    let t = util::enosys::fixture();
    for args in util::enosys::CASES {
        let normal = run(&ours(), t.path(), args, &[]);
        let fallback = run_without(&wrapper, "statx", t.path(), args);
        util::assert_same(&format!("ls {args:?} without statx"), &normal, &fallback);
        assert_eq!(
            normal.status,
            Some(0),
            "{args:?}: {}",
            String::from_utf8_lossy(&normal.stderr)
        );
    }
}

#[test]
fn fallback_is_remembered_after_the_first_enosys() {
    let Some(wrapper) = wrapper() else { return };
    if Command::new("strace").arg("-V").output().is_err() {
        eprintln!("skipping: strace is not installed");
        return;
    }
    let t = TempDir::new("enosys-once");
    for i in 0..50 {
        t.file(format!("d/f{i}"), 1, 1_600_000_000);
    }
    let log = t.path().join("trace");
    Command::new("strace")
        .args(["-f", "-qq", "-e", "trace=statx", "-o"])
        .arg(&log)
        .arg(&wrapper)
        .arg("statx")
        .arg(ours())
        .args(["-l", "d"])
        .current_dir(t.path())
        .stdout(std::process::Stdio::null())
        .status()
        .unwrap();
    let text = std::fs::read_to_string(&log).unwrap();
    // Ours all carry AT_NO_AUTOMOUNT; the C library's own fstat emulation
    // does not and is not ours to count.
    let statx_calls = text
        .lines()
        .filter(|l| l.contains("statx(") && l.contains("AT_NO_AUTOMOUNT"))
        .count();
    assert_eq!(
        statx_calls, 1,
        "statx must be tried once, then never again:\n{text}"
    );
}

#[test]
fn acl_markers_are_the_same_without_getxattrat() {
    let Some(wrapper) = wrapper() else { return };
    let t = TempDir::new("enosys-acl");
    t.file("d/plain", 1, 1_600_000_000)
        .file("d/shared", 1, 1_600_000_000)
        .dir("d/inherits")
        .dir("d/sub")
        .mtime("d/inherits", 1_600_000_000)
        .mtime("d/sub", 1_600_000_000);
    if !(t.acl("d/shared", false) && t.acl("d/inherits", true)) {
        eprintln!(
            "skipping: no POSIX ACL support under {}",
            t.path().display()
        );
        return;
    }
    t.mtime("d", 1_600_000_000);
    for args in [
        &["-l", "d"][..],
        &["-lR", "d"],
        &["-ld", "d/shared", "d/inherits"],
    ] {
        let normal = run(&ours(), t.path(), args, &[]);
        assert!(
            String::from_utf8_lossy(&normal.stdout).contains("+ "),
            "{args:?}: no ACL marker in\n{}",
            String::from_utf8_lossy(&normal.stdout)
        );
        for calls in ["getxattrat", "statx,getxattrat"] {
            let fallback = run_without(&wrapper, calls, t.path(), args);
            util::assert_same(&format!("ls {args:?} without {calls}"), &normal, &fallback);
        }
    }
}
