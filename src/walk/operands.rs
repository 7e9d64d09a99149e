//! The command-line operands: each stat'ed as GNU does (following
//! symlinks as `-H`, `-L` or the default rule for directories says), with
//! its link target, ACL marker and context when the plan asks, failures
//! reported in command-line order.
#![forbid(unsafe_code)]

use std::ffi::{CStr, CString};

use super::Walker;
use crate::entry::{Entry, LinkTarget};
use crate::options::Dereference;
use crate::sys::stat::{read_link, stat_at, Base, Need, StatFlags};
use crate::sys::xattr::Target;
use crate::sys::FileType;

impl Walker<'_> {
    /// Stats one operand, following symlinks as `-H`/`-L`/the default rule
    /// for directories says. Reports failures.
    pub(super) fn stat_operand(&mut self, name: CString) -> Option<Entry> {
        let need = self.plan.need_for_operand();
        let follow_first = self.config.dereference != Dereference::Never;
        let flags = StatFlags {
            follow: follow_first,
            dont_sync: false,
        };
        let result = stat_at(Base::Cwd, &name, need, flags);
        let meta = match result {
            Ok(meta) => {
                // The default rule follows a command-line symlink only when
                // it leads to a directory; otherwise the link itself is listed.
                if self.config.dereference == Dereference::CommandLineDirs
                    && meta.file_type() != Some(FileType::Directory)
                {
                    self.lstat_operand(&name, need)?
                } else {
                    meta
                }
            }
            Err(err) => {
                let dangling = follow_first && err.raw_os_error() == Some(libc_enoent());
                if dangling && self.config.dereference == Dereference::CommandLineDirs {
                    self.lstat_operand(&name, need)?
                } else {
                    self.status.file_error(
                        &mut self.out,
                        "cannot access",
                        name.as_bytes(),
                        &err,
                        true,
                    );
                    return None;
                }
            }
        };
        let mut entry = Entry::new(name, meta.file_type().unwrap_or(FileType::Unknown));
        entry.meta = Some(Box::new(meta));
        entry.operand = true;
        self.complete_link(Base::Cwd, &mut entry);
        self.probe_xattrs(&mut entry);
        Some(entry)
    }

    fn lstat_operand(&mut self, name: &CStr, need: Need) -> Option<crate::sys::Metadata> {
        match stat_at(
            Base::Cwd,
            name,
            need,
            StatFlags {
                follow: false,
                dont_sync: false,
            },
        ) {
            Ok(m) => Some(m),
            Err(err) => {
                self.status
                    .file_error(&mut self.out, "cannot access", name.to_bytes(), &err, true);
                None
            }
        }
    }

    /// An operand's ACL marker and `-Z` context, when asked for.
    fn probe_xattrs(&mut self, entry: &mut Entry) {
        let Some(meta) = entry.meta.as_ref().filter(|_| !entry.stat_failed) else {
            return;
        };
        let dev = meta.dev();
        let is_dir = entry.file_type == FileType::Directory;
        let target = Target::Path(&entry.name);
        // Symlinks carry no ACL of their own (and the kernel answers "not
        // supported" for them, which must not mark the whole device).
        if self.plan.access_marker && entry.file_type != FileType::Symlink {
            entry.access = self.xattrs.marker(target, dev, is_dir);
        }
        if self.plan.context {
            entry.context = self.xattrs.context(target, dev);
        }
    }

    /// Reads and/or stats an operand symlink's target when the plan needs it.
    fn complete_link(&mut self, base: Base<'_>, entry: &mut Entry) {
        if entry.file_type != FileType::Symlink {
            return;
        }
        let mut link = LinkTarget::default();
        if self.plan.read_link {
            link.path = read_link(base, &entry.name).ok();
        }
        if !self.plan.link_target.is_empty() {
            let flags = StatFlags {
                follow: true,
                dont_sync: false,
            };
            match stat_at(base, &entry.name, self.plan.link_target, flags) {
                Ok(m) => link.meta = Some(m),
                Err(_) => link.broken = true,
            }
        }
        entry.link = Some(Box::new(link));
    }
}

/// ENOENT without reaching for libc outside `sys`.
fn libc_enoent() -> i32 {
    rustix::io::Errno::NOENT.raw_os_error()
}

impl Entry {
    /// An operand that is listed as a directory (after following links as
    /// the dereference rule allowed).
    pub(super) fn is_dir_like_operand(&self) -> bool {
        self.file_type == FileType::Directory
    }
}
