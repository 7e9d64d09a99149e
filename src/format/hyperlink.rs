//! `--hyperlink`: OSC 8 `file://HOST/PATH` links around names, the path
//! absolute, symlinks resolved and bytes outside the URL-safe set
//! percent-encoded, as GNU writes them.
#![forbid(unsafe_code)]

use crate::sys::path::{canonicalize, hostname};

#[derive(Clone, Debug)]
pub struct Hyperlinker {
    host: Vec<u8>,
}

impl Default for Hyperlinker {
    fn default() -> Self {
        Self::new()
    }
}

fn url_safe(b: u8) -> bool {
    b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_' | b'~' | b'/')
}

impl Hyperlinker {
    pub fn new() -> Hyperlinker {
        Hyperlinker { host: hostname() }
    }

    /// Starts a link to the file at `path` (relative to the working
    /// directory or absolute).
    pub fn open(&self, out: &mut Vec<u8>, path: &[u8]) {
        out.extend_from_slice(b"\x1b]8;;file://");
        out.extend_from_slice(&self.host);
        for &b in &canonicalize(path) {
            if url_safe(b) {
                out.push(b);
            } else {
                out.extend_from_slice(format!("%{b:02x}").as_bytes());
            }
        }
        out.push(0x07);
    }

    pub fn close(&self, out: &mut Vec<u8>) {
        out.extend_from_slice(b"\x1b]8;;\x07");
    }
}
