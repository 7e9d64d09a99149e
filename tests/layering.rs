//! The module layering, as a specification: data flows one way, cli ->
//! config -> plan -> walk -> sort -> listing -> output, over the value
//! formatters of `format`, `parallel`, and the shared option types in the
//! leaf `options`; no two modules under one parent import each other, even
//! through others; threads start in `parallel` and the environment is read
//! in `config`, nowhere else.
//! Checked on the `use crate::…` paths of the sources, so that a new
//! import that closes a loop fails here rather than in review.
#![forbid(unsafe_code)]

use std::collections::{BTreeMap, HashSet};
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
fn gnu_is_a_leaf() {
    let uses = crate_paths("gnu");
    assert!(uses.is_empty(), "gnu uses {uses:?}");
}

#[test]
fn cli_depends_on_neither_config_nor_the_stages_after_it() {
    assert_no_import(
        "cli",
        &[
            "config", "plan", "walk", "parallel", "sort", "listing", "output", "entry",
        ],
    );
}

#[test]
fn value_formatters_read_neither_the_configuration_nor_entries() {
    assert_no_import(
        "format",
        &["cli", "config", "plan", "entry", "walk", "listing"],
    );
}

#[test]
fn config_does_not_depend_on_later_stages() {
    assert_no_import(
        "config",
        &[
            "plan", "walk", "parallel", "entry", "sort", "output", "listing",
        ],
    );
}

#[test]
fn sys_uses_no_other_module() {
    for (file, path) in crate_paths("sys") {
        assert!(
            path == "sys" || path.starts_with("sys::"),
            "{} uses crate::{path}: sys is the bottom layer",
            file.display()
        );
    }
}

#[test]
fn threads_are_started_in_parallel_alone() {
    for m in modules() {
        if m.path.first().is_some_and(|p| p == "parallel") {
            continue;
        }
        assert!(
            !m.code.contains("std::thread"),
            "{} uses std::thread: threads are decided and started in parallel.rs",
            m.file.display()
        );
    }
}

#[test]
fn the_environment_is_read_in_config_alone() {
    for m in modules() {
        if m.path.first().is_some_and(|p| p == "config") {
            continue;
        }
        for read in ["env::var", "env::vars", "getenv", "environ"] {
            assert!(
                !m.code.contains(read),
                "{} reads the environment ({read}): config reads it once and passes values",
                m.file.display()
            );
        }
    }
}

// ---- The module graph, read from the sources --------------------------------

/// A module's path from the crate root (`[]` is the crate itself).
type ModPath = Vec<String>;

struct Module {
    path: ModPath,
    file: PathBuf,
    /// The source with comments, string contents and inline
    /// `#[cfg(test)] mod … { … }` blocks removed.
    code: String,
}

/// Every non-test module of the crate, with its file.
fn modules() -> Vec<Module> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut found = Vec::new();
    let mut todo = vec![(Vec::new(), root.join("lib.rs"))];
    while let Some((path, file)) = todo.pop() {
        let text = std::fs::read_to_string(&file).unwrap();
        let stripped = strip_comments_and_strings(&text);
        let code = without_test_blocks(&stripped);
        let dir = if path.is_empty() || file.ends_with("mod.rs") {
            file.parent().unwrap().to_path_buf()
        } else {
            file.with_extension("")
        };
        for (name, test_only) in child_declarations(&stripped) {
            if test_only {
                continue;
            }
            let flat = dir.join(format!("{name}.rs"));
            let child = if flat.exists() {
                flat
            } else {
                dir.join(&name).join("mod.rs")
            };
            assert!(child.exists(), "{}: no file for mod {name}", file.display());
            let mut p = path.clone();
            p.push(name);
            todo.push((p, child));
        }
        found.push(Module { path, file, code });
    }
    found
}

/// Blanks out comments and the contents of string and char literals, so
/// that only code is searched for paths.
fn strip_comments_and_strings(text: &str) -> String {
    let b = text.as_bytes();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    while i < b.len() {
        let rest = &text[i..];
        if rest.starts_with("//") {
            i += rest.find('\n').unwrap_or(rest.len());
        } else if rest.starts_with("/*") {
            let mut depth = 0;
            while i < b.len() {
                if text[i..].starts_with("/*") {
                    depth += 1;
                    i += 2;
                } else if text[i..].starts_with("*/") {
                    depth -= 1;
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    i += 1;
                }
            }
            out.push(' ');
        } else if let Some(len) = raw_string_len(rest) {
            out.push_str("\"\"");
            i += len;
        } else if b[i] == b'"' {
            i += 1;
            while i < b.len() && b[i] != b'"' {
                i += if b[i] == b'\\' { 2 } else { 1 };
            }
            i += 1;
            out.push_str("\"\"");
        } else if b[i] == b'\'' && (rest.starts_with("'\\") || rest.get(2..3) == Some("'")) {
            // A char literal (a lifetime has no closing quote).
            let end = rest[2..].find('\'').map_or(rest.len(), |e| e + 3);
            i += end;
            out.push_str("' '");
        } else {
            let c = rest.chars().next().unwrap();
            out.push(c);
            i += c.len_utf8();
        }
    }
    out
}

/// The length of a raw string literal (`r"…"`, `br#"…"#`) starting here.
fn raw_string_len(s: &str) -> Option<usize> {
    let after_b = s.strip_prefix('b').unwrap_or(s);
    let after_r = after_b.strip_prefix('r')?;
    let hashes = after_r.len() - after_r.trim_start_matches('#').len();
    let body = after_r[hashes..].strip_prefix('"')?;
    let close = format!("\"{}", "#".repeat(hashes));
    let end = body.find(&close)?;
    Some(s.len() - body.len() + end + close.len())
}

/// Removes inline test modules: `#[cfg(test)] mod name { … }`.
fn without_test_blocks(code: &str) -> String {
    let mut out = code.to_string();
    let mut from = 0;
    while let Some(at) = out[from..].find("#[cfg(test)]") {
        let start = from + at;
        let after = &out[start + "#[cfg(test)]".len()..];
        let open = after.find(['{', ';']).unwrap_or(0);
        if !after.trim_start().starts_with("mod ") || after.as_bytes()[open] == b';' {
            // A test-only file module (excluded where it is declared).
            from = start + 1;
            continue;
        }
        let mut depth = 0;
        let mut end = out.len();
        for (i, c) in out[start..].char_indices() {
            if c == '{' {
                depth += 1;
            } else if c == '}' {
                depth -= 1;
                if depth == 0 {
                    end = start + i + 1;
                    break;
                }
            }
        }
        out.replace_range(start..end, "");
        from = start;
    }
    out
}

/// The child modules a file declares (`mod name;`), and whether each is
/// test-only.
fn child_declarations(code: &str) -> Vec<(String, bool)> {
    let mut found = Vec::new();
    for (i, _) in code.match_indices("mod ") {
        if code[..i].chars().last().is_some_and(is_ident) {
            continue;
        }
        let rest = &code[i + 4..];
        let name: String = rest.chars().take_while(|c| is_ident(*c)).collect();
        if name.is_empty() || !rest[name.len()..].trim_start().starts_with(';') {
            continue;
        }
        let attrs = code[..i].trim_end();
        let attrs = attrs.strip_suffix("pub").unwrap_or(attrs).trim_end();
        let attrs = attrs.strip_suffix("pub(crate)").unwrap_or(attrs).trim_end();
        found.push((name, attrs.ends_with("#[cfg(test)]")));
    }
    found
}

/// The paths a module's code names: `use` trees, and `crate::`, `super::`,
/// `self::` paths written inline, each resolved to an absolute path.
fn named_paths(m: &Module, modules: &HashSet<ModPath>) -> Vec<ModPath> {
    let mut paths = Vec::new();
    let code = &m.code;
    for (i, _) in code.match_indices("use ") {
        if i > 0 && is_ident(code[..i].chars().last().unwrap()) {
            continue;
        }
        let end = code[i..].find(';').map_or(code.len(), |e| i + e);
        let words: Vec<&str> = code[i + 4..end].split_whitespace().collect();
        let mut tree = words.join(" ");
        for sep in ["::", "{", "}", ","] {
            tree = tree
                .replace(&format!(" {sep}"), sep)
                .replace(&format!("{sep} "), sep);
        }
        for p in expand_use_tree(&tree) {
            paths.extend(resolve(m, &p, modules));
        }
    }
    for start in ["crate::", "super::", "self::"] {
        for (i, _) in code.match_indices(start) {
            if i > 0 && (is_ident(code[..i].chars().last().unwrap()) || code[..i].ends_with("::")) {
                continue;
            }
            let text: String = code[i..]
                .chars()
                .take_while(|c| is_ident(*c) || *c == ':')
                .collect();
            let segs: Vec<String> = text
                .split("::")
                .filter(|s| !s.is_empty())
                .map(str::to_string)
                .collect();
            paths.extend(resolve(m, &segs, modules));
        }
    }
    paths
}

fn is_ident(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// `a::{b, c::{d, e}}` → `[a,b]`, `[a,c,d]`, `[a,c,e]` (`as` renames dropped).
fn expand_use_tree(tree: &str) -> Vec<Vec<String>> {
    let Some(open) = tree.find('{') else {
        let path = tree.split(" as ").next().unwrap_or(tree);
        return vec![path
            .split("::")
            .filter(|s| !s.is_empty())
            .map(str::to_string)
            .collect()];
    };
    let prefix = &tree[..open];
    let inner = &tree[open + 1..tree.rfind('}').unwrap_or(tree.len())];
    let mut parts = Vec::new();
    let (mut depth, mut last) = (0, 0);
    for (i, c) in inner.char_indices() {
        match c {
            '{' => depth += 1,
            '}' => depth -= 1,
            ',' if depth == 0 => {
                parts.push(&inner[last..i]);
                last = i + 1;
            }
            _ => {}
        }
    }
    parts.push(&inner[last..]);
    parts
        .into_iter()
        .filter(|p| !p.is_empty())
        .flat_map(|p| expand_use_tree(&format!("{prefix}{p}")))
        .collect()
}

/// The module a path names (its longest prefix that is a module), made
/// absolute; `None` for other crates.
fn resolve(m: &Module, segs: &[String], modules: &HashSet<ModPath>) -> Option<ModPath> {
    let mut abs: ModPath = match segs.first().map(String::as_str) {
        Some("crate") => Vec::new(),
        Some("super") | Some("self") => m.path.clone(),
        Some(first) => {
            let mut child = m.path.clone();
            child.push(first.to_string());
            if !modules.contains(&child) {
                return None;
            }
            m.path.clone()
        }
        None => return None,
    };
    let mut rest = segs;
    if matches!(rest[0].as_str(), "crate" | "self") {
        rest = &rest[1..];
    }
    while rest.first().is_some_and(|s| s == "super") {
        abs.pop();
        rest = &rest[1..];
    }
    for s in rest {
        let mut next = abs.clone();
        next.push(s.clone());
        if !modules.contains(&next) {
            break;
        }
        abs = next;
    }
    Some(abs)
}

/// An edge between two siblings: `from` names something in `to`, as seen
/// in `file` (`path`).
struct Edge {
    parent: ModPath,
    from: String,
    to: String,
    evidence: String,
}

fn sibling_edges(modules: &[Module]) -> Vec<Edge> {
    let known: HashSet<ModPath> = modules.iter().map(|m| m.path.clone()).collect();
    let mut edges = Vec::new();
    for m in modules {
        for target in named_paths(m, &known) {
            let common = m
                .path
                .iter()
                .zip(&target)
                .take_while(|(a, b)| a == b)
                .count();
            if common < m.path.len() && common < target.len() {
                edges.push(Edge {
                    parent: m.path[..common].to_vec(),
                    from: m.path[common].clone(),
                    to: target[common].clone(),
                    evidence: format!("{} names {}", m.file.display(), target.join("::")),
                });
            }
        }
    }
    edges
}

/// The cycles among siblings under every parent, each as the loop of
/// module names with the evidence for each step.
fn import_cycles(modules: &[Module]) -> Vec<String> {
    let edges = sibling_edges(modules);
    let mut graphs: BTreeMap<ModPath, BTreeMap<String, BTreeMap<String, String>>> = BTreeMap::new();
    for e in edges {
        graphs
            .entry(e.parent)
            .or_default()
            .entry(e.from)
            .or_default()
            .entry(e.to)
            .or_insert(e.evidence);
    }
    let mut cycles = Vec::new();
    for (parent, graph) in &graphs {
        // Depth-first search; a back edge to a node on the stack closes a loop.
        let mut done: HashSet<&String> = HashSet::new();
        for start in graph.keys() {
            let mut stack: Vec<(&String, Vec<&String>)> = Vec::new();
            let mut on_path: Vec<&String> = Vec::new();
            if done.contains(start) {
                continue;
            }
            stack.push((start, graph[start].keys().collect()));
            on_path.push(start);
            while let Some((node, next)) = stack.last_mut() {
                let node = *node;
                match next.pop() {
                    Some(to) if on_path.contains(&to) => {
                        let at = on_path.iter().position(|n| *n == to).unwrap();
                        let mut loop_ = on_path[at..].to_vec();
                        loop_.push(to);
                        let steps: Vec<String> = loop_
                            .windows(2)
                            .map(|w| format!("  {} -> {}: {}", w[0], w[1], graph[w[0]][w[1]]))
                            .collect();
                        cycles.push(format!(
                            "under crate::{}: {}\n{}",
                            parent.join("::"),
                            loop_
                                .iter()
                                .map(|s| s.as_str())
                                .collect::<Vec<_>>()
                                .join(" -> "),
                            steps.join("\n")
                        ));
                    }
                    Some(to) if !done.contains(to) => {
                        let next: Vec<&String> =
                            graph.get(to).map_or(Vec::new(), |g| g.keys().collect());
                        stack.push((to, next));
                        on_path.push(to);
                    }
                    Some(_) => {}
                    None => {
                        done.insert(node);
                        stack.pop();
                        on_path.pop();
                    }
                }
            }
        }
    }
    cycles
}

#[test]
fn the_checker_reads_every_source_but_the_binary_and_the_tests() {
    let read: HashSet<PathBuf> = modules().into_iter().map(|m| m.file).collect();
    for file in sources("") {
        let name = file.file_name().unwrap();
        assert!(
            read.contains(&file) || name == "main.rs" || name == "tests.rs",
            "{} is not reached from lib.rs by `mod` declarations",
            file.display()
        );
    }
}

#[test]
fn no_import_cycle_among_siblings_under_any_parent() {
    let cycles = import_cycles(&modules());
    assert!(cycles.is_empty(), "import cycles:\n{}", cycles.join("\n"));
}

/// A module for the checker's own tests.
fn module(path: &str, code: &str) -> Module {
    Module {
        path: path
            .split("::")
            .filter(|s| !s.is_empty())
            .map(str::to_string)
            .collect(),
        file: PathBuf::from(path),
        code: without_test_blocks(&strip_comments_and_strings(code)),
    }
}

#[test]
fn the_checker_sees_a_loop_through_a_third_module_and_ignores_tests_and_comments() {
    let tree = [
        module("", "pub mod a; pub mod b; pub mod c;"),
        module("a", "use crate::{b::{self, X as Y}, options};"),
        module("b", "fn f() { super::c::g() }"),
        module("c", "// crate::a::h\nconst S: &str = \"crate::a\";\n#[cfg(test)]\nmod tests { use crate::a; }"),
    ];
    assert!(import_cycles(&tree).is_empty());
    let mut looped = tree;
    looped[3] = module("c", "pub fn g() { crate::a::h() }");
    let cycles = import_cycles(&looped);
    assert_eq!(cycles.len(), 1, "{cycles:?}");
    assert!(cycles[0].contains("a -> b -> c -> a"), "{}", cycles[0]);
}
