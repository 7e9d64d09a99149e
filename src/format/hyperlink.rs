//! `--hyperlink`: OSC 8 `file://HOST/PATH` links around names, the path
//! absolute, symlinks resolved and bytes outside the URL-safe set
//! percent-encoded, as GNU writes them.
//!
//! A path is resolved when its link is written, unless the batch's paths
//! were resolved ahead ([`Hyperlinker::set_resolved`]: `--timeout`, where
//! a resolution given up leaves its name without a link).
#![forbid(unsafe_code)]

use std::borrow::Cow;
use std::collections::HashMap;

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

impl LinkStyle {
    /// `path` (relative to the working directory or absolute) made
    /// absolute and symlink-free as the emulated release does it: the
    /// requests that may wait on a server.
    pub fn resolve(self, path: &[u8]) -> Vec<u8> {
        if self.counted_links {
            canonicalize(path)
        } else {
            canonicalize_seen_triples(path)
        }
    }
}

#[derive(Clone, Debug)]
pub struct Hyperlinker {
    host: Vec<u8>,
    style: LinkStyle,
    /// Paths resolved ahead: the absolute path, or `None` (given up: no
    /// link).
    resolved: HashMap<Vec<u8>, Option<Vec<u8>>>,
    /// Absolute directories whose resolution was given up: nothing under
    /// them is asked again.
    dead: Vec<Vec<u8>>,
}

fn url_safe(b: u8) -> bool {
    b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_' | b'~' | b'/')
}

impl Hyperlinker {
    pub fn new(style: LinkStyle) -> Hyperlinker {
        Hyperlinker {
            host: hostname(),
            style,
            resolved: HashMap::new(),
            dead: Vec::new(),
        }
    }

    pub fn style(&self) -> LinkStyle {
        self.style
    }

    /// What `path`'s link points to: resolved ahead, or now; `None`: no
    /// link (its resolution was given up).
    pub fn target(&self, path: &[u8]) -> Option<Cow<'_, [u8]>> {
        match self.resolved.get(path) {
            Some(abs) => abs.as_deref().map(Cow::Borrowed),
            None => Some(Cow::Owned(self.style.resolve(path))),
        }
    }

    /// Forgets the paths resolved ahead (a new batch).
    pub fn clear_resolved(&mut self) {
        self.resolved.clear();
    }

    /// Records `path` resolved ahead (`None`: given up, no link).
    pub fn set_resolved(&mut self, path: Vec<u8>, abs: Option<Vec<u8>>) {
        self.resolved.insert(path, abs);
    }

    /// Records a directory (absolute, as written) whose resolution was
    /// given up.
    pub fn set_dead(&mut self, abs: Vec<u8>) {
        if !self.dead.contains(&abs) {
            self.dead.push(abs);
        }
    }

    /// Whether the absolute `abs` lies in (or is) a directory given up.
    pub fn under_dead(&self, abs: &[u8]) -> bool {
        self.dead.iter().any(|d| {
            abs.starts_with(d) && (abs.len() == d.len() || abs[d.len()] == b'/' || d == b"/")
        })
    }

    fn terminator(&self) -> &'static [u8] {
        if self.style.string_terminator {
            b"\x1b\\"
        } else {
            b"\x07"
        }
    }

    /// Starts a link to the absolute, resolved path `abs` ([`Self::target`]).
    pub fn open(&self, out: &mut Vec<u8>, abs: &[u8]) {
        out.extend_from_slice(b"\x1b]8;;file://");
        out.extend_from_slice(&self.host);
        for &b in abs {
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
