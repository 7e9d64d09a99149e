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

use std::path::PathBuf;
use std::process::Command;

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
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
