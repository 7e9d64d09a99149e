//! The module layering, as a specification: data flows one way, cli ->
//! config -> format, with the shared option types in the leaf `options`.
//! Checked on the `use crate::…` paths of the sources, so that a new
//! import that closes a loop fails here rather than in review.
#![forbid(unsafe_code)]

use std::path::{Path, PathBuf};

fn sources(under: &str) -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let start = root.join(under);
    let mut todo = vec![start.clone()];
    if start.extension().is_none() {
        todo.push(start.with_extension("rs"));
    }
    let mut files = Vec::new();
    while let Some(p) = todo.pop() {
        if p.is_dir() {
            for e in std::fs::read_dir(&p).unwrap() {
                todo.push(e.unwrap().path());
            }
        } else if p.extension().is_some_and(|e| e == "rs") && p.exists() {
            files.push(p);
        }
    }
    assert!(!files.is_empty(), "no sources under src/{under}");
    files
}

/// Every `crate::module` path a module's sources name, with its file.
fn crate_paths(under: &str) -> Vec<(PathBuf, String)> {
    let mut found = Vec::new();
    for file in sources(under) {
        let text = std::fs::read_to_string(&file).unwrap();
        for (i, _) in text.match_indices("crate::") {
            let rest = &text[i + "crate::".len()..];
            let end = rest
                .find(|c: char| !(c.is_alphanumeric() || c == '_' || c == ':'))
                .unwrap_or(rest.len());
            found.push((file.clone(), rest[..end].trim_end_matches(':').to_string()));
        }
    }
    found
}

fn assert_no_import(module: &str, forbidden: &[&str]) {
    for (file, path) in crate_paths(module) {
        for f in forbidden {
            assert!(
                !(path == *f || path.starts_with(&format!("{f}::"))),
                "{} uses crate::{path}: {module} must not depend on {f}",
                file.display()
            );
        }
    }
}

#[test]
fn options_is_a_leaf() {
    let uses = crate_paths("options");
    assert!(uses.is_empty(), "options uses {uses:?}");
}

#[test]
fn cli_depends_on_neither_config_nor_the_listing() {
    assert_no_import(
        "cli",
        &["config", "walk", "plan", "format::listing", "format::long"],
    );
}

#[test]
fn value_formatters_do_not_reach_back_into_config_or_cli() {
    for module in ["format/quote", "format/time", "format/size", "format/color"] {
        assert_no_import(module, &["config", "cli"]);
    }
}

#[test]
fn config_does_not_depend_on_later_stages() {
    assert_no_import(
        "config",
        &[
            "plan",
            "walk",
            "entry",
            "sort",
            "output",
            "format::listing",
            "format::long",
            "format::name",
        ],
    );
}
