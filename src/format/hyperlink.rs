//! `--hyperlink`: OSC 8 `file://HOST/PATH` links around names, the path
//! absolute, symlinks resolved and bytes outside the URL-safe set
//! percent-encoded, as GNU writes them.
#![forbid(unsafe_code)]

use crate::sys::path::{canonicalize, canonicalize_seen_triples, hostname};

/// How the emulated release writes a link.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LinkStyle {
    /// Symlinks followed up to 40 deep (9.0 on), not until a loop is seen
    /// (8.32): only symlink loops tell the two apart.
    pub counted_links: bool,
    /// The OSC 8 sequences end with ST (`ESC \`, 9.10 on), not BEL.
    pub string_terminator: bool,
}

#[derive(Clone, Debug)]
pub struct Hyperlinker {
    host: Vec<u8>,
    style: LinkStyle,
}

fn url_safe(b: u8) -> bool {
    b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_' | b'~' | b'/')
}

impl Hyperlinker {
    pub fn new(style: LinkStyle) -> Hyperlinker {
        Hyperlinker {
            host: hostname(),
            style,
        }
    }

    fn terminator(&self) -> &'static [u8] {
        if self.style.string_terminator {
            b"\x1b\\"
        } else {
            b"\x07"
        }
    }

    /// Starts a link to the file at `path` (relative to the working
    /// directory or absolute).
    pub fn open(&self, out: &mut Vec<u8>, path: &[u8]) {
        out.extend_from_slice(b"\x1b]8;;file://");
        out.extend_from_slice(&self.host);
        let path = if self.style.counted_links {
            canonicalize(path)
        } else {
            canonicalize_seen_triples(path)
        };
        for &b in &path {
            if url_safe(b) {
                out.push(b);
            } else {
                out.extend_from_slice(format!("%{b:02x}").as_bytes());
            }
        }
        out.extend_from_slice(self.terminator());
    }

    pub fn close(&self, out: &mut Vec<u8>) {
        out.extend_from_slice(b"\x1b]8;;");
        out.extend_from_slice(self.terminator());
    }
}
