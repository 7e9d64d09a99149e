//! Paths: an entry's path from its directory's, absolute symlink-free paths
//! (for `--hyperlink`) and the host name.

use std::ffi::OsStr;
use std::os::unix::ffi::{OsStrExt, OsStringExt};

/// `dir/name`, without doubling a trailing slash: how `-R` names the
/// subdirectories it descends into (`./sub` under `.`).
pub fn child_path(dir: &[u8], name: &[u8]) -> Vec<u8> {
    // Made at its full size at once (a copy of `dir` grown twice cost
    // `-R` of small directories a realloc per subdirectory).
    let mut path = Vec::with_capacity(dir.len() + 1 + name.len());
    path.extend_from_slice(dir);
    if path.last() != Some(&b'/') {
        path.push(b'/');
    }
    path.extend_from_slice(name);
    path
}

/// How GNU names an entry of a listed directory in diagnostics and in its
/// own lookups by path: `dir/name`, but just `name` when the directory is
/// exactly `.`.
pub fn entry_path(dir: &[u8], name: &[u8]) -> Vec<u8> {
    if dir == b"." {
        name.to_vec()
    } else {
        child_path(dir, name)
    }
}

/// `path` made absolute with every symlink resolved, as far as the
/// components exist (a dangling link resolves to its target's name).
pub fn canonicalize(path: &[u8]) -> Vec<u8> {
    let mut todo: Vec<Vec<u8>> = Vec::new();
    push_components(&mut todo, path);
    let mut abs = start_of(path);
    let mut links_followed = 0;
    while let Some(part) = todo.pop() {
        match part.as_slice() {
            b"" | b"." => continue,
            b".." => {
                let cut = abs.iter().rposition(|&b| b == b'/').unwrap_or(0);
                abs.truncate(cut);
                continue;
            }
            _ => {}
        }
        let before = abs.len();
        abs.push(b'/');
        abs.extend_from_slice(&part);
        if links_followed < 40 {
            if let Ok(target) = std::fs::read_link(OsStr::from_bytes(&abs)) {
                links_followed += 1;
                abs.truncate(before);
                let target = target.into_os_string().into_vec();
                if target.first() == Some(&b'/') {
                    abs.clear();
                }
                push_components(&mut todo, &target);
            }
        }
    }
    if abs.is_empty() {
        abs.push(b'/');
    }
    abs
}

/// `path` made absolute as coreutils 8.32 did for `--hyperlink` (gnulib's
/// canonicalization of 2020): symlinks are followed until one is met a
/// second time with the same name still to resolve, then left as they
/// are. That name is the operand as given, or the text of the last link
/// followed with what remained after it: so `links/loop1` (a loop with
/// `loop2`) resolves to `.../links/loop2`, while `loop1` alone stays
/// `.../loop1`.
pub fn canonicalize_seen_triples(path: &[u8]) -> Vec<u8> {
    use std::collections::HashSet;
    use std::os::unix::fs::MetadataExt;
    let mut abs = start_of(path);
    let mut name = path.to_vec();
    let mut pos = 0;
    let mut seen: HashSet<(Vec<u8>, u64, u64)> = HashSet::new();
    while pos < name.len() {
        if name[pos] == b'/' {
            pos += 1;
            continue;
        }
        let start = pos;
        while pos < name.len() && name[pos] != b'/' {
            pos += 1;
        }
        match &name[start..pos] {
            b"." => continue,
            b".." => {
                let cut = abs.iter().rposition(|&b| b == b'/').unwrap_or(0);
                abs.truncate(cut);
                continue;
            }
            part => {
                abs.push(b'/');
                abs.extend_from_slice(part);
            }
        }
        let Ok(meta) = std::fs::symlink_metadata(OsStr::from_bytes(&abs)) else {
            continue;
        };
        if !meta.file_type().is_symlink() || !seen.insert((name.clone(), meta.dev(), meta.ino())) {
            continue;
        }
        let Ok(target) = std::fs::read_link(OsStr::from_bytes(&abs)) else {
            continue;
        };
        let mut next = target.into_os_string().into_vec();
        let cut = abs.iter().rposition(|&b| b == b'/').unwrap_or(0);
        abs.truncate(cut);
        if next.first() == Some(&b'/') {
            abs.clear();
        }
        next.extend_from_slice(&name[pos..]);
        name = next;
        pos = 0;
    }
    if abs.is_empty() {
        abs.push(b'/');
    }
    abs
}

/// `path` made absolute as written (the working directory, then `path`),
/// without `.` components or doubled slashes, nothing resolved: the
/// kernel answers `getcwd` from its own cache of names, without asking
/// the filesystem.
pub fn lexically_absolute(path: &[u8]) -> Vec<u8> {
    let mut abs = start_of(path);
    for part in path.split(|&b| b == b'/') {
        if !part.is_empty() && part != b"." {
            abs.push(b'/');
            abs.extend_from_slice(part);
        }
    }
    if abs.is_empty() {
        abs.push(b'/');
    }
    abs
}

/// Where resolving `path` starts: the root (empty) or the working
/// directory.
fn start_of(path: &[u8]) -> Vec<u8> {
    if path.first() == Some(&b'/') {
        Vec::new()
    } else {
        std::env::current_dir()
            .map(|d| d.into_os_string().into_vec())
            .unwrap_or_default()
    }
}

/// Whether [`canonicalize`] has an answer for `path`, as GNU's
/// canonicalization (every component may be missing) sees it: not for an
/// empty name (ENOENT).
pub fn can_canonicalize(path: &[u8]) -> std::io::Result<()> {
    if path.is_empty() {
        return Err(std::io::Error::from_raw_os_error(libc::ENOENT));
    }
    Ok(())
}

/// Pushes the components of `path` so that the first is popped first.
fn push_components(todo: &mut Vec<Vec<u8>>, path: &[u8]) {
    for part in path.split(|&b| b == b'/').rev() {
        todo.push(part.to_vec());
    }
}

/// The host name for `file://HOST/...` URLs.
pub fn hostname() -> Vec<u8> {
    rustix::system::uname().nodename().to_bytes().to_vec()
}
