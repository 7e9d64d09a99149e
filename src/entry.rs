//! One listed file: its name, what getdents said about it, and whatever
//! stat calls the plan asked for.
#![forbid(unsafe_code)]

use std::ffi::CString;

use crate::sys::xattr::AccessMarker;
use crate::sys::{FileType, Metadata};

/// What is known about a symlink's target.
#[derive(Clone, Debug, Default)]
pub struct LinkTarget {
    /// The link's contents (`-l` prints `-> target`); None if not read.
    pub path: Option<Vec<u8>>,
    /// Metadata of the target when it was stat'ed successfully.
    pub meta: Option<Metadata>,
    /// The target was stat'ed and does not exist (an orphan link).
    pub broken: bool,
}

#[derive(Clone, Debug)]
pub struct Entry {
    /// The name as listed: a directory entry's name, or an operand as typed.
    pub name: CString,
    /// Type from d_type or stat; `Unknown` when neither was needed.
    pub file_type: FileType,
    /// Metadata when the plan asked for some and the stat succeeded.
    pub meta: Option<Box<Metadata>>,
    /// The stat the plan asked for failed (GNU prints `?` columns).
    pub stat_failed: bool,
    /// For symlinks, when the plan reads or stats targets.
    pub link: Option<Box<LinkTarget>>,
    /// A command-line operand (affects GNU's error statuses and `-F`).
    pub operand: bool,
    /// ACL / security context marker for the long format.
    pub access: AccessMarker,
    /// Security context for `-Z` (None: unknown, printed as `?`). Boxed
    /// whole (one word where a vector is three): entries are many, and
    /// smaller entries are fewer pages to fault in and move.
    #[allow(clippy::box_collection)]
    pub context: Option<Box<Vec<u8>>>,
    /// Has file capabilities (probed only for a GNU built with libcap).
    pub capability: bool,
}

// Kept small (see `context`): a large directory holds one per name.
const _: () = assert!(std::mem::size_of::<Entry>() <= 48);

impl Entry {
    pub fn new(name: CString, file_type: FileType) -> Entry {
        Entry {
            name,
            file_type,
            meta: None,
            stat_failed: false,
            link: None,
            operand: false,
            access: AccessMarker::None,
            context: None,
            capability: false,
        }
    }

    pub fn name_bytes(&self) -> &[u8] {
        self.name.as_bytes()
    }

    /// A directory, or (when the target was stat'ed) a symlink to one: what
    /// `--group-directories-first` puts first.
    pub fn is_dir_like(&self) -> bool {
        self.file_type == FileType::Directory
            || (self.file_type == FileType::Symlink
                && self
                    .link
                    .as_ref()
                    .and_then(|l| l.meta.as_ref())
                    .and_then(|m| m.file_type())
                    == Some(FileType::Directory))
    }

    pub fn mode(&self) -> Option<u32> {
        self.meta.as_ref().and_then(|m| m.mode())
    }
}

/// The timestamp `field` of `meta`, when the kernel returned it.
pub fn time_of(meta: &Metadata, field: crate::options::TimeField) -> Option<crate::sys::Timestamp> {
    use crate::options::TimeField;
    match field {
        TimeField::Modification => meta.mtime(),
        TimeField::Access => meta.atime(),
        TimeField::Change => meta.ctime(),
        TimeField::Birth => meta.btime(),
    }
}
