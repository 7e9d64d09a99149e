//! Reporting what went wrong probing a directory's entries, in directory
//! order and in GNU's words: `cannot access` (the stat failed), `NAME:
//! error` (an ACL or context probe failed; status unchanged), `cannot read
//! symbolic link` (the link's contents could not be read).
#![forbid(unsafe_code)]

use super::probe::Problems;
use super::Walker;
use crate::entry::Entry;
use crate::sys::path::entry_path;

impl Walker<'_> {
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
                .file_error(out, "cannot access", &path, &err, entry.operand);
        }
        if let Some(err) = problems.xattr {
            self.status.probe_error(out, &path, &err);
        }
        if let Some(err) = problems.read_link {
            self.status
                .file_error(out, "cannot read symbolic link", &path, &err, entry.operand);
        }
    }
}
