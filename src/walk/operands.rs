//! The command-line operands: each stat'ed as GNU does (following
//! symlinks as `-H`, `-L` or the default rule for directories says), with
//! its link target, ACL marker and context when the plan asks, failures
//! reported in command-line order.
#![forbid(unsafe_code)]

use std::ffi::{CStr, CString};
use std::sync::Arc;

use super::probe::{probe_capability, probe_xattrs, Problems};
use super::Walker;
use crate::entry::{Entry, LinkTarget};
use crate::options::Dereference;
use crate::sys::stat::{read_link, stat_at, Base, Need, StatFlags};
use crate::sys::xattr::{AccessMarker, Target};
use crate::sys::FileType;
use rustix::io::Errno;

impl Walker<'_> {
    /// Makes one filesystem request, given up after `--timeout` (ETIMEDOUT)
    /// when there is one.
    pub(super) fn request<T: Send + 'static>(
        &self,
        request: impl FnOnce() -> std::io::Result<T> + Send + 'static,
    ) -> std::io::Result<T> {
        crate::parallel::within(self.deadline, request)
    }

    /// Stats one operand, following symlinks as `-H`/`-L`/the default rule
    /// for directories says. Reports failures.
    pub(super) fn stat_operand(&mut self, name: CString) -> Option<Entry> {
        if self.config.hyperlink {
            // GNU makes each name absolute for its link before the stat.
            if let Err(err) = crate::sys::path::can_canonicalize(name.as_bytes()) {
                let out = &mut self.out;
                self.status
                    .file_error(out, "error canonicalizing %s", name.as_bytes(), &err, true);
            }
        }
        let need = self.plan.need_for_operand();
        let follow_first = self.config.dereference != Dereference::Never;
        let flags = StatFlags {
            follow: follow_first,
            dont_sync: false,
        };
        let result = self.request({
            let name = name.clone();
            move || stat_at(Base::Cwd, &name, need, flags)
        });
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
                // A dangling link is listed as a link; so is a symlink loop
                // from 9.4 on (before, "Too many levels of symbolic links").
                let errno = err.raw_os_error();
                let loop_listed = self
                    .config
                    .gnu
                    .has(crate::gnu::Behaviour::SymlinkLoopOperandListed);
                let dangling = follow_first
                    && (errno == Some(Errno::NOENT.raw_os_error())
                        || (loop_listed && errno == Some(Errno::LOOP.raw_os_error())));
                if dangling && self.config.dereference == Dereference::CommandLineDirs {
                    self.lstat_operand(&name, need)?
                } else {
                    self.status.file_error(
                        &mut self.out,
                        "cannot access %s",
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
        self.probe_operand(&mut entry);
        Some(entry)
    }

    fn lstat_operand(&mut self, name: &CStr, need: Need) -> Option<crate::sys::Metadata> {
        let flags = StatFlags {
            follow: false,
            dont_sync: false,
        };
        let owned = name.to_owned();
        match self.request(move || stat_at(Base::Cwd, &owned, need, flags)) {
            Ok(m) => Some(m),
            Err(err) => {
                self.status.file_error(
                    &mut self.out,
                    "cannot access %s",
                    name.to_bytes(),
                    &err,
                    true,
                );
                None
            }
        }
    }

    /// Whether any operand, whatever became of it (a file, a directory, or
    /// missing), is quoted with a leading quote: GNU decides the quote
    /// alignment of the operand files from all of them.
    pub(super) fn any_quoted(&self, operands: &[std::ffi::OsString]) -> bool {
        use std::os::unix::ffi::OsStrExt;
        let mut scratch = Vec::new();
        let names = &self.printer.names;
        operands
            .iter()
            .any(|op| names.measure(op.as_bytes(), &mut scratch).starts_with_quote)
    }

    /// An operand's ACL marker and `-Z` context, and its symlink's target
    /// (read and/or stat'ed), as the plan asks; what fails is reported as
    /// for an entry, with an operand's status.
    fn probe_operand(&mut self, entry: &mut Entry) {
        let Some(meta) = entry.meta.as_ref().filter(|_| !entry.stat_failed) else {
            return;
        };
        let mut problems = Problems::default();
        let (plan, xattrs) = (Arc::clone(&self.plan), Arc::clone(&self.xattrs));
        let (name, dev, file_type) = (entry.name.clone(), meta.dev(), entry.file_type);
        let probed = self.request(move || {
            let target = Target::Path(&name);
            let xattrs = probe_xattrs(&plan, &xattrs, target, dev, file_type);
            Ok((xattrs, probe_capability(&plan, target, file_type)))
        });
        let context;
        let capability;
        ((entry.access, context, problems.xattr), capability) =
            probed.unwrap_or_else(|e| ((AccessMarker::None, None, Some(e)), false));
        entry.context = context.map(Box::new);
        entry.capability = capability;
        if entry.file_type == FileType::Symlink {
            entry.link = Some(Box::new(self.operand_link(&entry.name, &mut problems)));
        }
        if !problems.is_empty() {
            self.report_problems(b"", entry, problems);
        }
    }

    /// An operand symlink's target as the plan needs it: read (a failure
    /// goes to `problems`, and then the target is not stat'ed, as in GNU),
    /// and stat'ed.
    fn operand_link(&self, name: &CStr, problems: &mut Problems) -> LinkTarget {
        let mut link = LinkTarget::default();
        if self.plan.read_link {
            let owned = name.to_owned();
            match self.request(move || read_link(Base::Cwd, &owned)) {
                Ok(path) => link.path = Some(path),
                Err(err) => {
                    problems.read_link = Some(err);
                    return link;
                }
            }
        }
        if !self.plan.link_target.is_empty() {
            let flags = StatFlags {
                follow: true,
                dont_sync: false,
            };
            let (owned, need) = (name.to_owned(), self.plan.link_target);
            match self.request(move || stat_at(Base::Cwd, &owned, need, flags)) {
                Ok(m) => link.meta = Some(m),
                Err(_) => link.broken = true,
            }
        }
        link
    }
}

impl Entry {
    /// An operand that is listed as a directory (after following links as
    /// the dereference rule allowed).
    pub(super) fn is_dir_like_operand(&self) -> bool {
        self.file_type == FileType::Directory
    }
}
