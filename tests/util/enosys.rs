//! The seccomp wrapper (tests/support/enosys.c): runs a command with named
//! system calls failing with ENOSYS, as on old kernels (RHEL 7's 3.10 has
//! no statx) or under restrictive container profiles.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

use super::TempDir;

/// The wrapper, built once with the system C compiler, if there is one.
pub fn wrapper() -> Option<PathBuf> {
    static BUILT: OnceLock<Option<PathBuf>> = OnceLock::new();
    BUILT.get_or_init(build).clone()
}

fn build() -> Option<PathBuf> {
    let src = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/support/enosys.c");
    let out = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("enosys");
    let ok = Command::new("cc")
        .arg("-O2")
        .arg("-o")
        .arg(&out)
        .arg(&src)
        .status()
        .is_ok_and(|s| s.success());
    ok.then_some(out)
}

/// Runs `command` (a program and its first arguments) with `args`, the
/// calls in `calls` (comma-separated) failing with ENOSYS.
pub fn run_without(
    wrapper: &Path,
    calls: &str,
    command: &[&str],
    cwd: &Path,
    args: &[&str],
) -> super::Run {
    let mut all: Vec<&str> = vec![calls];
    all.extend(command);
    all.extend(args);
    super::run(wrapper, cwd, &all, &[])
}

/// A small tree for the fallback: files, an executable, a symlink and a
/// subdirectory, with fixed times.
pub fn fixture() -> TempDir {
    let t = TempDir::new("enosys");
    t.file("d/file", 10, 1_600_000_000)
        .file("d/exe", 3, 1_600_000_100)
        .chmod("d/exe", 0o755)
        .dir("d/sub")
        .symlink("file", "d/link");
    t.file("d/sub/inner", 5, 1_600_000_200)
        .mtime("d/sub", 1_600_000_300)
        .mtime("d", 1_600_000_400);
    t
}

/// The listings of `fixture()` that take the fstatat path without statx.
pub const CASES: [&[&str]; 6] = [
    &["-l", "d"],
    &["-R", "d"],
    &["--color=always", "d"],
    &["-i", "d"],
    &["-lR", "--color=always", "d"],
    &["-lL", "d"],
];
