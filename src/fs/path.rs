//! Absolute, symlink-free paths (for `--hyperlink`) and the host name.

use std::ffi::OsStr;
use std::os::unix::ffi::{OsStrExt, OsStringExt};

/// `path` made absolute with every symlink resolved; when that fails (a
/// dangling link), the path made absolute lexically.
pub fn canonicalize(path: &[u8]) -> Vec<u8> {
    if let Ok(p) = std::fs::canonicalize(OsStr::from_bytes(path)) {
        return p.into_os_string().into_vec();
    }
    let mut abs = if path.first() == Some(&b'/') {
        Vec::new()
    } else {
        std::env::current_dir().map(|d| d.into_os_string().into_vec()).unwrap_or_default()
    };
    for part in path.split(|&b| b == b'/') {
        match part {
            b"" | b"." => {}
            b".." => {
                let cut = abs.iter().rposition(|&b| b == b'/').unwrap_or(0);
                abs.truncate(cut);
            }
            _ => {
                abs.push(b'/');
                abs.extend_from_slice(part);
            }
        }
    }
    if abs.is_empty() {
        abs.push(b'/');
    }
    abs
}

/// The host name for `file://HOST/...` URLs.
pub fn hostname() -> Vec<u8> {
    rustix::system::uname().nodename().to_bytes().to_vec()
}
