//! `LS_COLORS` parsing and choosing the colour of an entry.
#![forbid(unsafe_code)]

use crate::fs::FileType;

/// Parsed `LS_COLORS`.
#[derive(Clone, Debug, Default)]
pub struct ColorTable {}

/// What the colour of one name depends on. Fields the table does not need
/// (see [`ColorTable::needs_mode`]) may be `None`.
#[derive(Clone, Copy, Debug)]
pub struct ColorSubject<'a> {
    pub name: &'a [u8],
    pub file_type: FileType,
    pub mode: Option<u32>,
    pub nlink: Option<u64>,
    /// A symlink whose target does not exist (`or`).
    pub orphan: bool,
    /// A name that could not be stat'ed at all (`mi`, e.g. a link target).
    pub missing: bool,
    /// Has a `security.capability` xattr (`ca`).
    pub capability: bool,
}

impl ColorTable {
    /// Parses `LS_COLORS` (None: unset). Returns the table and, when the
    /// value is unparsable, GNU's warning text (without `ls: `).
    pub fn from_env(ls_colors: Option<&[u8]>) -> (ColorTable, Option<String>) {
        let _ = ls_colors;
        (ColorTable {}, None)
    }

    /// Whether the colour of a file of this type depends on its mode bits.
    pub fn needs_mode(&self, file_type: FileType) -> bool {
        let _ = file_type;
        false
    }

    /// Whether regular files need their link count (`mh`).
    pub fn needs_nlink(&self) -> bool {
        false
    }

    /// Whether symlink targets must be stat'ed (`ln=target`, `or`, `mi`).
    pub fn needs_link_target(&self) -> bool {
        false
    }

    /// The SGR parameters for a name, if it is coloured.
    pub fn style(&self, subject: &ColorSubject) -> Option<&[u8]> {
        let _ = subject;
        None
    }

    /// Appends `name` wrapped in the colour `params`.
    pub fn write_colored(&self, out: &mut Vec<u8>, params: &[u8], name: &[u8]) {
        let _ = params;
        out.extend_from_slice(name);
    }

    /// Starts colour `params`.
    pub fn start(&self, out: &mut Vec<u8>, params: &[u8]) {
        let _ = (out, params);
    }

    /// Ends a colour started by `start`.
    pub fn end(&self, out: &mut Vec<u8>) {
        let _ = out;
    }
}
