//! Reporting what went wrong probing a directory's entries, in directory
//! order and in GNU's words: `cannot access` (the stat failed), `NAME:
//! error` (an ACL or context probe failed; status unchanged), `cannot read
//! symbolic link` (the link's contents could not be read); and a
//! directory whose reading stopped (`reading directory`); an owner or
//! group whose name lookup was given up (`cannot find name for user ID`);
//! with `--hyperlink`, a path whose resolution was given up (`error
//! canonicalizing`).
#![forbid(unsafe_code)]

use super::probe::Problems;
use super::{Pending, Walker};
use crate::entry::Entry;
use crate::sys::path::entry_path;

impl Walker<'_> {
    /// With `--hyperlink` and `--timeout`: resolves the links of a batch
    /// (the entries of `dir`, or operands when `dir` is empty) ahead, and
    /// reports those given up as GNU reports a path it cannot make
    /// absolute (`error canonicalizing`); they are printed without a link.
    pub(super) fn resolve_links_ahead(&mut self, dir: &[u8], entries: &[Entry], operand: bool) {
        if self.deadline.is_none() || !self.config.hyperlink {
            return;
        }
        let path = |e: &Entry| match dir {
            b"" => e.name_bytes().to_vec(),
            _ => entry_path(dir, e.name_bytes()),
        };
        let paths = entries.iter().map(path);
        self.resolve_paths_ahead(paths.collect(), operand);
    }

    /// [`Self::resolve_links_ahead`] for paths as they are (a heading).
    pub(super) fn resolve_paths_ahead(&mut self, paths: Vec<Vec<u8>>, operand: bool) {
        let c = self.config;
        let Some(limit) = self.deadline.filter(|_| c.hyperlink && !c.json) else {
            return;
        };
        for (path, err) in self.printer.names.resolve_links(limit, paths) {
            let out = &mut self.out;
            self.status
                .file_error(out, "error canonicalizing %s", &path, &err, operand);
        }
    }

    /// Owners and groups printed as numbers because their lookups were
    /// given up (`--timeout`), each id once, after the lines that printed
    /// them.
    pub(super) fn report_given_up_names(&mut self) {
        for given_up in self.printer.take_given_up() {
            self.status.lookup_given_up(&mut self.out, given_up);
        }
    }

    /// GNU lists what it could read of a directory, then reports the error.
    pub(super) fn report_read_error(&mut self, pending: &Pending, error: Option<std::io::Error>) {
        if let Some(err) = error {
            self.status.file_error(
                &mut self.out,
                "reading directory %s",
                &pending.path,
                &err,
                pending.operand,
            );
        }
    }

    /// Reports the problems of `entry` of directory `dir` (`operand`: the
    /// entry is a command-line operand, named as given).
    pub(super) fn report_problems(&mut self, dir: &[u8], entry: &Entry, problems: Problems) {
        let path = if entry.operand {
            entry.name_bytes().to_vec()
        } else {
            entry_path(dir, entry.name_bytes())
        };
        let out = &mut self.out;
        if let Some(err) = problems.stat {
            self.status
                .file_error(out, "cannot access %s", &path, &err, entry.operand);
        }
        if let Some(err) = problems.xattr {
            self.status.probe_error(out, &path, &err);
        }
        if let Some(err) = problems.read_link {
            self.status.file_error(
                out,
                "cannot read symbolic link %s",
                &path,
                &err,
                entry.operand,
            );
        }
    }
}
