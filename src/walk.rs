//! Operands and directories: stat the operands, print the files among them,
//! then list each directory (and with `-R` its subdirectories, depth first,
//! iteratively), reporting errors where GNU does.
//!
//! Per-entry stat calls are made only when the plan asks for them, relative
//! to the directory's open descriptor (no re-walking of the path).
#![forbid(unsafe_code)]

use std::ffi::{CStr, CString, OsString};
use std::os::fd::AsFd;
use std::os::unix::ffi::OsStringExt;

use crate::config::{Config, Dereference};
use crate::entry::{Entry, LinkTarget};
use crate::error::{print_diagnostic, Status};
use crate::format::listing::Printer;
use crate::format::quote::{Quoter, QuotingStyle};
use crate::fs::dir::{open_dir, read_dir_each, DirBuffer};
use crate::fs::path::{child_path, entry_path};
use crate::fs::stat::{read_link, stat_at, stat_fd, Base, Need, StatFlags};
use crate::fs::xattr::{AclProbe, InDir};
use crate::fs::FileType;
use crate::output::{Output, Sink};
use crate::plan::Plan;
use crate::sort::sort_entries;

mod filter;

/// A directory waiting to be listed.
struct Pending {
    path: Vec<u8>,
    operand: bool,
}

/// A marker on the work stack: leave the directory whose (dev, ino) is on
/// top of the active set.
enum Work {
    List(Pending),
    Leave,
}

pub struct Walker<'a> {
    config: &'a Config,
    plan: Plan,
    printer: Printer<'a>,
    pub out: Output,
    pub status: Status,
    collate_bytes: bool,
    /// Directory headings are printed (several operands, or `-R`).
    print_headings: bool,
    /// Nothing has been printed yet (decides the blank line before a
    /// heading).
    first_listing: bool,
    /// (dev, ino) of the directories on the current `-R` path.
    active: Vec<((u32, u32), u64)>,
    xattrs: AclProbe,
    /// The entry vector of the last directory listed, emptied: reused so
    /// that `-R` does not reallocate (and fragment the heap) per directory.
    spare: Vec<Entry>,
    dir_buffer: DirBuffer,
}

impl<'a> Walker<'a> {
    pub fn new(config: &'a Config, collate_bytes: bool) -> Walker<'a> {
        Walker {
            config,
            plan: Plan::new(config),
            printer: Printer::new(config),
            out: Output::new(),
            status: Status::new(config.utf8),
            collate_bytes,
            print_headings: false,
            first_listing: true,
            active: Vec::new(),
            xattrs: AclProbe::default(),
            spare: Vec::new(),
            dir_buffer: DirBuffer::default(),
        }
    }

    /// Lists the operands (or `.`), GNU's way: every operand is stat'ed
    /// first (errors reported in command-line order), then the non-directory
    /// operands are printed as one sorted batch, then each directory.
    pub fn run(&mut self, operands: &[OsString]) {
        if let Some(p) = &self.printer.names.painter {
            self.out
                .restore_color_on_signals(p.used_flag(), p.restore_sequence());
        }
        let implicit_dot = operands.is_empty();
        let dot = [OsString::from(".")];
        let operands = if implicit_dot { &dot[..] } else { operands };
        let mut files = Vec::new();
        let mut dirs = Vec::new();
        for op in operands {
            let Ok(name) = CString::new(op.clone().into_vec()) else {
                continue;
            };
            let Some(entry) = self.stat_operand(name) else {
                continue;
            };
            if !self.config.directory && entry.is_dir_like_operand() {
                dirs.push(entry);
            } else {
                files.push(entry);
            }
        }
        self.sort(&mut files);
        self.sort(&mut dirs);
        if !files.is_empty() {
            self.printer.names.dir.clear();
            self.printer.print_measuring(&mut self.out, &files, &dirs);
            self.first_listing = false;
        }
        self.print_headings = self.config.recursive || operands.len() > 1 || !files.is_empty();
        let mut work: Vec<Work> = dirs
            .into_iter()
            .rev()
            .map(|e| {
                Work::List(Pending {
                    path: e.name.into_bytes(),
                    operand: true,
                })
            })
            .collect();
        while let Some(item) = work.pop() {
            match item {
                Work::Leave => {
                    self.active.pop();
                }
                Work::List(p) => self.list_dir(p, &mut work),
            }
        }
    }

    /// Writes what must follow all listings (colour restore, dired trailer).
    pub fn finish(&mut self) {
        let mut tail = Vec::new();
        self.printer.names.finish(&mut tail);
        self.out.write(&tail);
        self.printer.finish(&mut self.out);
    }

    fn sort(&mut self, entries: &mut [Entry]) {
        let names = &self.printer.names;
        let c = self.config;
        // Where quoted names are aligned, GNU's width key leaves out the
        // leading quote (unquoted names get a space instead).
        let aligned = crate::format::quote::listing_aligns_quotes(c.quoting, c.format, c.width);
        let width_of = |e: &Entry| {
            let q = names.measure(e.name_bytes(), &mut Vec::new());
            q.width - usize::from(aligned && q.starts_with_quote)
        };
        sort_entries(entries, self.config, self.collate_bytes, &width_of);
    }

    /// Stats one operand, following symlinks as `-H`/`-L`/the default rule
    /// for directories says. Reports failures.
    fn stat_operand(&mut self, name: CString) -> Option<Entry> {
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
        self.probe_xattrs(None, &mut entry);
        Some(entry)
    }

    fn lstat_operand(&mut self, name: &CStr, need: Need) -> Option<crate::fs::Metadata> {
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

    /// The long format's ACL marker and `-Z`'s context, when asked for.
    fn probe_xattrs(&mut self, dir: Option<InDir<'_>>, entry: &mut Entry) {
        let Some(meta) = entry.meta.as_ref().filter(|_| !entry.stat_failed) else {
            return;
        };
        let dev = meta.dev();
        let is_dir = entry.file_type == FileType::Directory;
        // Symlinks carry no ACL of their own (and the kernel answers "not
        // supported" for them, which must not mark the whole device).
        if self.plan.access_marker && entry.file_type != FileType::Symlink {
            entry.access = self.xattrs.marker(dir, &entry.name, dev, is_dir);
        }
        if self.plan.context {
            entry.context = self.xattrs.context(dir, &entry.name, dev);
        }
    }

    /// Reads and/or stats a symlink's target when the plan needs it.
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

    /// Lists one directory and queues its subdirectories with `-R`.
    fn list_dir(&mut self, pending: Pending, work: &mut Vec<Work>) {
        let path = match CString::new(pending.path.clone()) {
            Ok(p) => p,
            Err(_) => return,
        };
        let fd = match open_dir(Base::Cwd, &path) {
            Ok(fd) => fd,
            Err(err) => {
                self.status.file_error(
                    &mut self.out,
                    "cannot open directory",
                    &pending.path,
                    &err,
                    pending.operand,
                );
                return;
            }
        };
        if self.config.recursive {
            // Loop detection needs only (dev, ino): ask the open descriptor,
            // from the cache (no server round-trip on network filesystems).
            match stat_fd(fd.as_fd(), Need::INO, true) {
                Ok(m) => {
                    let id = (m.dev(), m.ino().unwrap_or(0));
                    if self.active.contains(&id) {
                        // Quoted only when needed, unlike other file messages.
                        let mut msg = Vec::new();
                        Quoter::new(QuotingStyle::ShellEscape, false, self.config.utf8)
                            .quote(&pending.path, &mut msg);
                        msg.extend_from_slice(b": not listing already-listed directory");
                        print_diagnostic(&mut self.out, &msg);
                        self.status.raise(crate::error::EXIT_SERIOUS);
                        return;
                    }
                    self.active.push(id);
                    work.push(Work::Leave);
                }
                Err(err) => {
                    self.status.file_error(
                        &mut self.out,
                        "cannot determine device and inode of",
                        &pending.path,
                        &err,
                        pending.operand,
                    );
                    return;
                }
            }
        }
        if self.print_headings {
            if !self.first_listing {
                self.out.put_byte(b'\n');
            }
            self.printer.print_heading(&mut self.out, &pending.path);
        }
        self.first_listing = false;
        let filter = filter::Filter::new(self.config);
        if self.streams() {
            self.printer.names.dir.clone_from(&pending.path);
            let dir = Base::Dir(fd.as_fd());
            let mut buffer = std::mem::take(&mut self.dir_buffer);
            let read_error = read_dir_each(
                fd.as_fd(),
                &mut buffer,
                |name| filter.keep(name),
                |d| {
                    let mut entry = Entry::new(d.name, d.file_type);
                    self.complete_entry(dir, &pending.path, &mut entry);
                    self.printer
                        .print(&mut self.out, std::slice::from_ref(&entry));
                },
            );
            self.dir_buffer = buffer;
            self.report_read_error(&pending, read_error);
            return;
        }
        let mut entries = std::mem::take(&mut self.spare);
        let read_error = read_dir_each(
            fd.as_fd(),
            &mut self.dir_buffer,
            |name| filter.keep(name),
            |d| entries.push(Entry::new(d.name, d.file_type)),
        );
        self.report_read_error(&pending, read_error);
        for entry in &mut entries {
            self.complete_entry(Base::Dir(fd.as_fd()), &pending.path, entry);
        }
        drop(fd);
        self.sort(&mut entries);
        if self.plan.print_total {
            self.printer.print_total(&mut self.out, &entries);
        }
        self.printer.names.dir.clone_from(&pending.path);
        self.printer.print(&mut self.out, &entries);
        if self.config.recursive {
            let base = &pending.path;
            for e in entries.iter().rev() {
                let name = e.name_bytes();
                if name == b"." || name == b".." {
                    continue;
                }
                let is_dir = e.file_type == FileType::Directory;
                if is_dir {
                    let path = child_path(base, name);
                    work.push(Work::List(Pending {
                        path,
                        operand: false,
                    }));
                }
            }
        }
        entries.clear();
        self.spare = entries;
    }

    /// Everything the plan asks to know about an entry of directory `dir`
    /// (open as `base`): its stat, link target, ACL marker, context.
    fn complete_entry(&mut self, base: Base<'_>, dir: &[u8], entry: &mut Entry) {
        self.stat_entry(base, dir, entry);
        let in_dir = match base {
            Base::Dir(fd) => Some(InDir { fd, path: dir }),
            Base::Cwd => None,
        };
        self.probe_xattrs(in_dir, entry);
    }

    /// GNU lists what it could read of a directory, then reports the error.
    fn report_read_error(&mut self, pending: &Pending, error: Option<std::io::Error>) {
        if let Some(err) = error {
            self.status.file_error(
                &mut self.out,
                "reading directory",
                &pending.path,
                &err,
                pending.operand,
            );
        }
    }

    /// GNU prints entries while reading when nothing needs the whole
    /// directory first: one per line, unsorted, no `-s` total, no `-R`.
    fn streams(&self) -> bool {
        let c = self.config;
        c.format == crate::config::Format::OneLine
            && c.sort == crate::config::SortKey::None
            && !c.size_blocks
            && !c.recursive
    }

    /// Stats an entry of an open directory if the plan needs anything for
    /// its type; a vanished or unreadable entry keeps its name and `?`s.
    fn stat_entry(&mut self, base: Base<'_>, dir: &[u8], entry: &mut Entry) {
        let need = self.plan.need_for(entry.file_type);
        if need.is_empty() {
            return;
        }
        let follow = self.plan.follow_links;
        match stat_at(
            base,
            &entry.name,
            need,
            StatFlags {
                follow,
                dont_sync: false,
            },
        ) {
            Ok(meta) => {
                if let Some(t) = meta.file_type() {
                    entry.file_type = t;
                }
                entry.meta = Some(Box::new(meta));
            }
            Err(err) => {
                entry.stat_failed = true;
                self.status.file_error(
                    &mut self.out,
                    "cannot access",
                    &entry_path(dir, entry.name_bytes()),
                    &err,
                    false,
                );
                return;
            }
        }
        self.complete_link(base, entry);
    }
}

/// ENOENT without reaching for libc outside `fs`.
fn libc_enoent() -> i32 {
    rustix::io::Errno::NOENT.raw_os_error()
}

impl Entry {
    /// An operand that is listed as a directory (after following links as
    /// the dereference rule allowed).
    fn is_dir_like_operand(&self) -> bool {
        self.file_type == FileType::Directory
    }
}
