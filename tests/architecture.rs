//! ARCHITECTURE.md as a specification of the sources, so that the map does
//! not drift from the code it describes:
//!
//! - every module, file and item it names in backquotes exists (`walk/`,
//!   `parallel::DescriptorBudget`, `Walker::run`, `Layout`), and a
//!   lowercase word in a module's table row is that module's submodule or
//!   item; the environment variables of the `config` row are read there;
//! - the thresholds it quotes are the code's constants;
//! - `STATLS_THREADS=1` starts no thread at all (checked under strace,
//!   skipped with a `SKIPPED` line without it).
//!
//! What `tests/layering.rs` checks (imports, threads, the environment) is
//! not repeated here.

mod util;

use std::path::PathBuf;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn architecture() -> String {
    std::fs::read_to_string(root().join("ARCHITECTURE.md")).unwrap()
}

/// The backquoted spans of `text`, whitespace (line breaks) removed.
fn quoted(text: &str) -> Vec<String> {
    text.split('`')
        .skip(1)
        .step_by(2)
        .map(|s| s.split_whitespace().collect())
        .collect()
}

fn is_ident(s: &str) -> bool {
    !s.is_empty() && s.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// The source of module `path` (`["walk", "probe"]`): its file, or every
/// file of its directory; None when there is no such module.
fn module_source(path: &[&str]) -> Option<String> {
    let base = root().join("src").join(path.join("/"));
    let mut files = vec![base.with_extension("rs"), base.join("mod.rs")];
    if base.is_dir() {
        for e in std::fs::read_dir(&base).unwrap() {
            files.push(e.unwrap().path());
        }
    }
    let texts: Vec<String> = files
        .iter()
        .filter(|f| f.is_file() && f.extension().is_some_and(|e| e == "rs"))
        .map(|f| std::fs::read_to_string(f).unwrap())
        .collect();
    (!texts.is_empty()).then(|| texts.concat())
}

/// Whether `name` occurs in `code` as a whole identifier.
fn names(code: &str, name: &str) -> bool {
    let ident = |c: Option<char>| c.is_some_and(|c| c.is_alphanumeric() || c == '_');
    code.match_indices(name).any(|(i, _)| {
        !ident(code[..i].chars().next_back()) && !ident(code[i + name.len()..].chars().next())
    })
}

/// Every source file under src/.
fn rust_files() -> Vec<PathBuf> {
    let mut files = Vec::new();
    let mut todo = vec![root().join("src")];
    while let Some(p) = todo.pop() {
        if p.is_dir() {
            todo.extend(std::fs::read_dir(&p).unwrap().map(|e| e.unwrap().path()));
        } else if p.extension().is_some_and(|e| e == "rs") {
            files.push(p);
        }
    }
    files
}

/// Whether `code` defines the type `ty`.
fn defines(code: &str, ty: &str) -> bool {
    ["struct", "enum", "trait", "type"]
        .iter()
        .any(|k| names(code, &format!("{k} {ty}")))
}

/// `Type::item`: a type defined in the sources, in a file that has the item.
fn type_has(ty: &str, item: &str) -> bool {
    rust_files().iter().any(|f| {
        let code = std::fs::read_to_string(f).unwrap();
        defines(&code, ty) && names(&code, item)
    })
}

/// Resolves a named path (`parallel::DescriptorBudget`, `walk/prefetch`,
/// `tests/layering.rs`, `Walker::new`); None for what is not a path.
fn resolves(token: &str) -> Option<bool> {
    if token.starts_with("tests/") || token.ends_with(".rs") {
        let in_src = root().join("src").join(token);
        return Some(root().join(token).exists() || in_src.exists());
    }
    let path = token.trim_end_matches('/').replace('/', "::");
    let segs: Vec<&str> = path.split("::").collect();
    if segs.len() < 2 && !token.ends_with('/') || !segs.iter().all(|s| is_ident(s)) {
        return None;
    }
    // The longest prefix that is a module; what follows are its items.
    for n in (1..=segs.len()).rev() {
        if let Some(code) = module_source(&segs[..n]) {
            return Some(segs[n..].iter().all(|item| names(&code, item)));
        }
    }
    match segs[0] {
        "std" | "libc" => None,
        ty if ty.starts_with(char::is_uppercase) => Some(segs.len() == 2 && type_has(ty, segs[1])),
        _ => Some(false),
    }
}

#[test]
fn every_module_file_and_item_named_exists() {
    let doc = architecture();
    let everything: String = rust_files()
        .iter()
        .map(|f| std::fs::read_to_string(f).unwrap())
        .collect();
    let mut missing = Vec::new();
    for token in quoted(&doc) {
        let found = match resolves(&token) {
            Some(found) => found,
            // A type (`Layout`, `Need`): defined in the sources.
            None if is_ident(&token) && token.starts_with(char::is_uppercase) => {
                token == "Option"
                    || token.chars().all(|c| !c.is_lowercase())
                    || defines(&everything, &token)
            }
            None => true,
        };
        if !found {
            missing.push(token);
        }
    }
    assert!(
        missing.is_empty(),
        "ARCHITECTURE.md names what the sources lack: {missing:?}"
    );
}

#[test]
fn each_table_rows_words_are_its_modules() {
    for row in architecture().lines().filter(|l| l.starts_with("| `")) {
        let cells: Vec<&str> = row.split('|').collect();
        let modules: Vec<String> = quoted(cells[1])
            .into_iter()
            .map(|m| m.trim_end_matches('/').trim_end_matches(".rs").to_string())
            .collect();
        let sources: Vec<String> = modules.iter().filter_map(|m| module_source(&[m])).collect();
        assert!(!sources.is_empty(), "{row}: no such module");
        for word in quoted(cells[2]) {
            let env_var = word.trim_start_matches('*');
            let ok = if !is_ident(env_var) {
                true
            } else if env_var.chars().all(|c| !c.is_lowercase()) {
                // An environment variable the module reads.
                sources
                    .iter()
                    .any(|code| code.contains(&format!("\"{env_var}\"")))
            } else if word.starts_with(char::is_lowercase) {
                module_source(&[&word]).is_some() || sources.iter().any(|code| names(code, &word))
            } else {
                true
            };
            assert!(
                ok,
                "ARCHITECTURE.md row {:?} names {word:?}, which it lacks",
                modules
            );
        }
    }
}

/// The numbers ARCHITECTURE.md quotes, each with the declaration it
/// quotes: change one, change the other.
const THRESHOLDS: &[(&str, &str, &str)] = &[
    (
        "at most 32 threads",
        "parallel/tuning.rs",
        "pub const MAX_PROBE_THREADS: usize = 32;",
    ),
    (
        "2 048+ entries locally",
        "parallel/tuning.rs",
        "pub const LOCAL_SPLIT_MIN: usize = 2048;",
    ),
    (
        "directories of 100+ entries lately",
        "parallel/tuning.rs",
        "pub const READ_AHEAD_MEAN_MIN: usize = 100;",
    ),
    (
        "long listings of 8 192+ lines",
        "parallel/tuning.rs",
        "pub const PARALLEL_LINES_MIN: usize = 8192;",
    ),
    (
        "4 000+ in a collating locale",
        "parallel/tuning.rs",
        "pub const SORT_SPLIT_COLLATED_MIN: usize = 4_000;",
    ),
    (
        "250 000+ in byte order",
        "parallel/tuning.rs",
        "pub const SORT_SPLIT_BYTES_MIN: usize = 250_000;",
    ),
    (
        "listed at most 200 ms",
        "parallel/tuning.rs",
        "READ_AHEAD_MAX_AGE: Duration = Duration::from_millis(200);",
    ),
    (
        "and 10 000 listed entries",
        "parallel/tuning.rs",
        "READ_AHEAD_MAX_LISTED_BETWEEN: u64 = 10_000;",
    ),
    (
        "below 256 MiB no thread",
        "parallel/tuning.rs",
        "pub const ADDRESS_SPACE_FOR_THREADS: u64 = 256 << 20;",
    ),
];

#[test]
fn the_thresholds_quoted_are_the_codes() {
    let doc = architecture()
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    for (quote, file, declaration) in THRESHOLDS {
        assert!(
            doc.contains(quote),
            "ARCHITECTURE.md no longer says {quote:?}"
        );
        let code = std::fs::read_to_string(root().join("src").join(file)).unwrap();
        assert!(
            code.contains(declaration),
            "src/{file} no longer declares {declaration:?}, which ARCHITECTURE.md quotes as {quote:?}"
        );
    }
}

#[test]
fn statls_threads_1_starts_no_thread() {
    // Large enough for every helper: split probes (2 048+), a long
    // listing on two threads (8 192+ lines), a split collated sort
    // (4 000+), read-ahead (subdirectories of 600).
    let t = util::TempDir::new("architecture-threads");
    for i in 0..9_000 {
        t.file(format!("big/f{i:05}"), 0, 1_600_000_000);
    }
    for d in 0..4 {
        for i in 0..600 {
            t.file(format!("tree/d{d}/f{i:03}"), 0, 1_600_000_000);
        }
    }
    let one = [("LC_ALL", "en_US.UTF-8"), ("STATLS_THREADS", "1")];
    let auto = [("LC_ALL", "en_US.UTF-8")];
    for args in [
        &["-l", "big"][..],
        &["big"],
        &["-R", "tree"],
        &["-lR", "tree"],
    ] {
        let Some(n) = util::threads_started(t.path(), args, &one) else {
            util::skipped("strace is not installed: thread starts not counted");
            return;
        };
        assert_eq!(n, 0, "STATLS_THREADS=1 ls {args:?} started {n} threads");
    }
    // The same commands do start threads otherwise (on two CPUs or more),
    // so the check above has something to catch.
    if std::thread::available_parallelism().is_ok_and(|n| n.get() > 1) {
        assert!(util::threads_started(t.path(), &["-l", "big"], &auto).unwrap() > 0);
    }
}
