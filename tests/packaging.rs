//! What a packager relies on, as a specification: the declared
//! `rust-version` is one the locked dependencies build with, the licence
//! Cargo.toml names is the one shipped at the root, and the Debian and RPM
//! packages install beside the system's `ls`, never over it.
#![forbid(unsafe_code)]

mod util;

use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn read(relative: &str) -> String {
    std::fs::read_to_string(root().join(relative))
        .unwrap_or_else(|e| panic!("{relative} cannot be read: {e}"))
}

/// `1.85` or `1.71.0` as a comparable triple.
fn version(v: &str) -> (u32, u32, u32) {
    let mut parts = v.trim().split('.').map(|p| p.parse::<u32>().unwrap_or(0));
    (
        parts.next().unwrap_or(0),
        parts.next().unwrap_or(0),
        parts.next().unwrap_or(0),
    )
}

/// The value of the first `key = "value"` line of a manifest.
fn manifest_value(manifest: &str, key: &str) -> Option<String> {
    manifest.lines().find_map(|line| {
        let (k, v) = line.split_once('=')?;
        (k.trim() == key).then(|| v.trim().trim_matches('"').to_string())
    })
}

/// `(name, version)` of every package Cargo.lock takes from a registry.
fn locked_registry_packages() -> Vec<(String, String)> {
    read("Cargo.lock")
        .split("[[package]]")
        .filter(|block| block.contains("source = \"registry+"))
        .filter_map(|block| {
            Some((
                manifest_value(block, "name")?,
                manifest_value(block, "version")?,
            ))
        })
        .collect()
}

/// Where cargo unpacked the registry's crates.
fn registry_sources() -> Vec<PathBuf> {
    let home = std::env::var_os("CARGO_HOME")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| Path::new(&h).join(".cargo")));
    let Some(src) = home.map(|h| h.join("registry/src")) else {
        return Vec::new();
    };
    std::fs::read_dir(src)
        .map(|dirs| dirs.filter_map(|d| Some(d.ok()?.path())).collect())
        .unwrap_or_default()
}

#[test]
fn rust_version_is_what_every_locked_dependency_needs() {
    let ours = manifest_value(&read("Cargo.toml"), "rust-version").expect("rust-version");
    let sources = registry_sources();
    let mut checked = 0;
    let mut too_new = Vec::new();
    for (name, ver) in locked_registry_packages() {
        // Only the crates this platform builds are unpacked (no windows-sys).
        let Some(manifest) = sources
            .iter()
            .map(|s| s.join(format!("{name}-{ver}/Cargo.toml")))
            .find(|m| m.exists())
        else {
            continue;
        };
        checked += 1;
        let text = std::fs::read_to_string(&manifest).unwrap();
        if let Some(needed) = manifest_value(&text, "rust-version") {
            if version(&needed) > version(&ours) {
                too_new.push(format!("{name} {ver} needs {needed}"));
            }
        }
    }
    if checked == 0 {
        util::skipped("no unpacked registry sources; rust-version not checked");
        return;
    }
    assert!(
        too_new.is_empty(),
        "Cargo.toml says rust-version = {ours}, but {}",
        too_new.join(", ")
    );
}

#[test]
fn the_licence_cargo_declares_is_shipped_at_the_root() {
    let manifest = read("Cargo.toml");
    assert_eq!(
        manifest_value(&manifest, "license").as_deref(),
        Some("MIT OR Apache-2.0")
    );
    assert!(read("LICENSE-MIT").starts_with("MIT License"));
    assert!(
        read("LICENSE-APACHE").contains("Apache License\n                           Version 2.0")
    );
    for key in [
        "description",
        "readme",
        "keywords",
        "categories",
        "rust-version",
    ] {
        assert!(
            manifest_value(&manifest, key).is_some(),
            "Cargo.toml lacks {key}"
        );
    }
}

/// The `"destination"` of every asset line of a package's metadata.
fn destinations(section: &str) -> Vec<String> {
    let manifest = read("Cargo.toml");
    let start = manifest
        .find(section)
        .unwrap_or_else(|| panic!("Cargo.toml lacks {section}"));
    let body = &manifest[start + section.len()..];
    let body = &body[..body.find("\n[").unwrap_or(body.len())];
    body.lines()
        .filter(|l| l.trim_start().starts_with('[') || l.contains("dest ="))
        .filter_map(|l| {
            // `["source", "dest", "mode"]` or `{ source = "…", dest = "…", … }`
            let dest = l.split('"').skip(1).step_by(2).nth(1)?;
            Some(format!("/{}", dest.trim_start_matches('/')))
        })
        .collect()
}

#[test]
fn packages_install_beside_the_system_ls_with_man_page_and_completions() {
    for section in ["[package.metadata.deb]", "[package.metadata.generate-rpm]"] {
        let dests = destinations(section);
        for taken in ["/bin/ls", "/usr/bin/ls", "/usr/share/man/man1/ls.1"] {
            assert!(
                !dests.iter().any(|d| d == taken),
                "{section} installs over the system's {taken}"
            );
        }
        for wanted in [
            "/usr/lib/statls/bin/ls",
            "/usr/lib/statls/share/man/man1/ls.1",
            "/usr/share/man/man1/statls.1",
            "/usr/share/bash-completion/completions/ls",
            "/usr/share/fish/vendor_completions.d/ls.fish",
        ] {
            assert!(
                dests.iter().any(|d| d == wanted),
                "{section} lacks {wanted}: {dests:?}"
            );
        }
        assert!(
            dests
                .iter()
                .any(|d| d.ends_with("/_ls") && d.starts_with("/usr/share/zsh/")),
            "{section} lacks the zsh completion: {dests:?}"
        );
    }
}

#[test]
fn documentation_builds_without_warnings() {
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let out = std::process::Command::new(cargo)
        .args(["doc", "--no-deps", "--offline", "--quiet"])
        .current_dir(root())
        .env("RUSTDOCFLAGS", "-D warnings")
        // Its own target directory: no lock shared with the running build.
        .env("CARGO_TARGET_DIR", root().join("target/doc-check"))
        .output()
        .expect("run cargo doc");
    assert!(
        out.status.success(),
        "cargo doc reports:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
}
