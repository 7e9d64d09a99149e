//! Link-time choices that keep `ls` small in memory (see bench/RESULTS.md).
//!
//! 1. The backtrace symbolizer of the standard library, never run with
//!    `panic = "abort"`, is gathered apart from the code that runs
//!    (link/cold-text.ld), so its pages are not mapped at start-up.
//!
//! 2. The unwinder is linked statically on GNU/Linux when the C compiler
//!    has it.
//!
//! Rust's standard library links libgcc_s.so for its unwinder. With
//! `panic = "abort"` `ls` never unwinds; the shared library still costs a
//! mapping and its relocations at every start (about 90 KB of resident
//! memory). libgcc_eh.a provides the same symbols statically (what gcc's
//! `-static-libgcc` does), and the linker's `--as-needed` then drops
//! libgcc_s. Without libgcc_eh.a (clang-only systems) nothing changes.
//!
//! 3. The GNU ls release emulated by default (`src/gnu.rs`):
//!    `STATLS_GNU_VERSION` in the build environment (a packager for
//!    Debian 13 sets 9.7), else the version of the GNU `ls` found on the
//!    build machine (so that `cargo install` matches the host), else the
//!    newest statls knows. A build-time value that names no supported
//!    release stops the build.

use std::path::PathBuf;
use std::process::Command;

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-env-changed=STATLS_GNU_VERSION");
    println!(
        "cargo:rustc-env=STATLS_DEFAULT_GNU_VERSION={}",
        default_gnu_version()
    );
    println!("cargo:rerun-if-env-changed=CC");
    let var = |k: &str| std::env::var(k).unwrap_or_default();
    if var("CARGO_CFG_TARGET_OS") != "linux" {
        return;
    }
    println!("cargo:rerun-if-changed=link/cold-text.ld");
    let script = PathBuf::from(var("CARGO_MANIFEST_DIR")).join("link/cold-text.ld");
    println!("cargo:rustc-link-arg-bins=-Wl,-T,{}", script.display());
    if var("CARGO_CFG_TARGET_ENV") != "gnu" {
        return;
    }
    if let Some(dir) = libgcc_eh_dir() {
        println!("cargo:rustc-link-search=native={}", dir.display());
        println!("cargo:rustc-link-lib=static:-bundle=gcc_eh");
    }
}

/// The directory holding libgcc_eh.a, as the C compiler reports it.
fn libgcc_eh_dir() -> Option<PathBuf> {
    let cc = std::env::var("CC").unwrap_or_else(|_| "cc".to_string());
    let out = Command::new(cc)
        .arg("-print-file-name=libgcc_eh.a")
        .output()
        .ok()?;
    let path = PathBuf::from(String::from_utf8(out.stdout).ok()?.trim());
    // An unknown file is echoed back as a bare name.
    if !out.status.success() || !path.is_absolute() || !path.is_file() {
        return None;
    }
    path.parent().map(PathBuf::from)
}

/// The releases `src/gnu.rs` emulates (its `SUPPORTED`, as text).
const GNU_VERSIONS: &[&str] = &[
    "8.32", "9.0", "9.1", "9.2", "9.3", "9.4", "9.5", "9.6", "9.7", "9.8", "9.9", "9.10",
];

/// `major.minor` of a version string, patch level dropped (`9.7.1`).
fn major_minor(text: &str) -> Option<&'static str> {
    let mut parts = text.trim().splitn(3, '.');
    let (major, minor) = (parts.next()?, parts.next()?);
    let wanted = format!("{major}.{minor}");
    GNU_VERSIONS.iter().copied().find(|v| *v == wanted)
}

fn default_gnu_version() -> &'static str {
    if let Ok(value) = std::env::var("STATLS_GNU_VERSION") {
        match major_minor(&value) {
            Some(v) => return v,
            None => panic!(
                "STATLS_GNU_VERSION={value:?} names no GNU ls release statls emulates \
                 (one of {}, optionally with a patch level)",
                GNU_VERSIONS.join(", ")
            ),
        }
    }
    host_gnu_ls_version().unwrap_or(GNU_VERSIONS[GNU_VERSIONS.len() - 1])
}

/// The release of the build machine's GNU ls (`ls (GNU coreutils) 9.1`),
/// looked for where coreutils installs it rather than on PATH, which may
/// hold statls itself.
fn host_gnu_ls_version() -> Option<&'static str> {
    ["/bin/ls", "/usr/bin/ls"].iter().find_map(|path| {
        println!("cargo:rerun-if-changed={path}");
        let out = Command::new(path)
            .arg("--version")
            .env("LC_ALL", "C")
            .output()
            .ok()?;
        let text = String::from_utf8(out.stdout).ok()?;
        let first = text.lines().next()?;
        major_minor(first.strip_prefix("ls (GNU coreutils) ")?)
    })
}
