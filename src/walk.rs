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
use std::sync::Arc;

use crate::config::Config;
use crate::entry::{Entry, LinkTarget};
use crate::error::{print_diagnostic, Status};
use crate::format::quote::Quoter;
use crate::listing::Printer;
use crate::options::{Dereference, QuotingStyle};
use crate::output::{Output, Sink};
use crate::parallel::{self, Lookup, Strategy};
use crate::plan::Plan;
use crate::sort::sort_entries;
use crate::sys::dir::{read_dir_each, DirBuffer};
use crate::sys::path::{child_path, entry_path};
use crate::sys::stat::{read_link, stat_at, Base, Need, StatFlags};
use crate::sys::xattr::{AclProbe, InDir, Target};
use crate::sys::FileType;
use chain::DirChain;
use prefetch::{DirRead, Prefetcher};
use probe::{Facts, Prober};

mod chain;
mod concurrent;
mod filter;
mod prefetch;
mod probe;

/// A directory waiting to be listed.
struct Pending {
    path: Vec<u8>,
    /// Where its own name starts in `path`: a subdirectory is opened by
    /// that name relative to its parent's descriptor.
    name_at: usize,
    operand: bool,
    /// Its read-ahead job, once submitted.
    ahead: Option<u64>,
}

impl Pending {
    /// The directory's own name, the last component of `path`.
    fn name(&self) -> &[u8] {
        &self.path[self.name_at..]
    }
}

/// A marker on the work stack: leave the directory whose (dev, ino) is on
/// top of the active set.
enum Work {
    List(Pending),
    Leave,
}

pub struct Walker<'a> {
    config: &'a Config,
    plan: Arc<Plan>,
    printer: Printer<'a>,
    pub out: Output,
    pub status: Status,
    collate_bytes: bool,
    /// Directory headings are printed (several operands, or `-R`).
    print_headings: bool,
    /// Nothing has been printed yet (decides the blank line before a
    /// heading).
    first_listing: bool,
    /// The directories on the current `-R` path.
    chain: DirChain,
    xattrs: Arc<AclProbe>,
    /// The entry vector of the last directory listed, emptied: reused so
    /// that `-R` does not reallocate (and fragment the heap) per directory.
    spare: Vec<Entry>,
    dir_buffer: DirBuffer,
}

impl<'a> Walker<'a> {
    pub fn new(config: &'a Config, collate_bytes: bool) -> Walker<'a> {
        Walker {
            config,
            plan: Arc::new(Plan::new(config)),
            printer: Printer::new(config),
            out: Output::new(),
            status: Status::new(config.utf8),
            collate_bytes,
            print_headings: false,
            first_listing: true,
            chain: DirChain::default(),
            xattrs: Arc::default(),
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
        let workers = parallel::read_ahead_workers(self.config, &dirs);
        let mut work: Vec<Work> = dirs
            .into_iter()
            .rev()
            .map(|e| {
                Work::List(Pending {
                    path: e.name.into_bytes(),
                    name_at: 0,
                    operand: true,
                    ahead: None,
                })
            })
            .collect();
        let context = prefetch::Context {
            config: self.config,
            plan: Arc::clone(&self.plan),
            xattrs: Arc::clone(&self.xattrs),
        };
        parallel::scope(|scope| {
            let mut ahead = Prefetcher::start(scope, workers, context);
            while let Some(item) = work.pop() {
                match item {
                    Work::Leave => {
                        let sibling_next = matches!(work.last(), Some(Work::List(p)) if !p.operand);
                        self.chain.pop(sibling_next);
                    }
                    Work::List(p) => self.list_dir(p, &mut work, &mut ahead),
                }
                self.read_ahead(&mut work, &mut ahead);
            }
            ahead.close();
        });
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

    /// Lists one directory and queues its subdirectories with `-R`.
    fn list_dir(&mut self, pending: Pending, work: &mut Vec<Work>, ahead: &mut Prefetcher<'_>) {
        let opened = match pending.ahead.and_then(|id| ahead.take(id)) {
            Some(outcome) => outcome,
            None => match self.open_listed(&pending) {
                Some(opened) => opened,
                None => return,
            },
        };
        let DirRead {
            fd,
            ident,
            listing,
            facts,
        } = match opened {
            Ok(read) => read,
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
        let mut dir_dev = None;
        let mut dir_id = None;
        if let Some(ident) = ident {
            match ident {
                Ok(m) => {
                    dir_dev = Some(m.dev());
                    let id = (m.dev(), m.ino().unwrap_or(0));
                    if self.chain.contains(id) {
                        // Quoted only when needed, unlike other file messages.
                        let mut msg = Vec::new();
                        Quoter::new(QuotingStyle::ShellEscape, false, self.config.utf8)
                            .quote(&pending.path, &mut msg);
                        msg.extend_from_slice(b": not listing already-listed directory");
                        print_diagnostic(&mut self.out, &msg);
                        self.status.raise(crate::error::EXIT_SERIOUS);
                        return;
                    }
                    dir_id = Some(id);
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
            // JSON records carry the heading as `path`: no blank lines.
            if !self.first_listing && !self.config.json {
                self.out.put_byte(b'\n');
            }
            self.printer.print_heading(&mut self.out, &pending.path);
        }
        self.first_listing = false;
        let filter = filter::Filter::new(self.config);
        if self.streams() {
            self.printer.names.dir.clone_from(&pending.path);
            let dir = InDir {
                fd: fd.as_fd(),
                path: &pending.path,
            };
            let mut buffer = std::mem::take(&mut self.dir_buffer);
            let read_error = read_dir_each(
                fd.as_fd(),
                &mut buffer,
                |name| filter.keep(name),
                |d| {
                    let mut entry = Entry::new(d.name, d.file_type);
                    let prober = self.prober(dir, Lookup::ByName);
                    let facts = prober.probe(&entry.name, entry.file_type);
                    self.apply(&pending.path, &mut entry, facts);
                    self.printer
                        .print(&mut self.out, std::slice::from_ref(&entry));
                },
            );
            self.dir_buffer = buffer;
            self.report_read_error(&pending, read_error);
            return;
        }
        let mut entries = std::mem::take(&mut self.spare);
        let read_error = match listing {
            Some((names, read_error)) => {
                names.unpack_into(&mut entries);
                read_error
            }
            None => read_dir_each(
                fd.as_fd(),
                &mut self.dir_buffer,
                |name| filter.keep(name),
                |d| entries.push(Entry::new(d.name, d.file_type)),
            ),
        };
        self.report_read_error(&pending, read_error);
        let dir = InDir {
            fd: fd.as_fd(),
            path: &pending.path,
        };
        match facts {
            Some(facts) => {
                for (entry, facts) in entries.iter_mut().zip(facts) {
                    self.apply(dir.path, entry, facts);
                }
            }
            None => self.complete_entries(dir, dir_dev, &mut entries),
        }
        self.sort(&mut entries);
        if self.plan.print_total {
            self.printer.print_total(&mut self.out, &entries);
        }
        self.printer.names.dir.clone_from(&pending.path);
        self.printer.print(&mut self.out, &entries);
        if let Some(id) = dir_id {
            work.push(Work::Leave);
            self.chain.push(id, fd);
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
                        name_at: path.len() - name.len(),
                        path,
                        operand: false,
                        ahead: None,
                    }));
                }
            }
        }
        entries.clear();
        self.spare = entries;
    }

    /// Opens a directory that was not read ahead: relative to its parent's
    /// descriptor when it has one, else by its path; with `-R` also the
    /// loop-detection stat. `None` for a path that cannot be a C string.
    fn open_listed(&self, pending: &Pending) -> Option<prefetch::Outcome> {
        let recursive = self.config.recursive;
        Some(match self.chain.parent().filter(|_| !pending.operand) {
            Some(parent) => {
                let name = CString::new(pending.name()).ok()?;
                prefetch::open_identified(Base::Dir(parent), &name, recursive)
            }
            None => {
                let path = CString::new(pending.path.clone()).ok()?;
                prefetch::open_identified(Base::Cwd, &path, recursive)
            }
        })
    }

    /// Submits the next subdirectories to be listed for reading ahead, as
    /// far as the window allows: those at the top of the work stack that
    /// belong to the directory on top of the `-R` path.
    fn read_ahead(&self, work: &mut [Work], ahead: &mut Prefetcher<'_>) {
        if ahead.window() == 0 {
            return;
        }
        let Some(parent) = self.chain.parent_shared() else {
            return;
        };
        let mut wanted: Vec<&mut Pending> = Vec::new();
        for item in work.iter_mut().rev() {
            let Work::List(p) = item else {
                break;
            };
            if p.operand || wanted.len() == ahead.window() {
                break;
            }
            if p.ahead.is_none_or(|id| !ahead.is_submitted(id)) {
                wanted.push(p);
            }
        }
        if wanted.is_empty() {
            return;
        }
        let dirs = wanted
            .iter()
            .map(|p| {
                let name = CString::new(p.name()).unwrap_or_default();
                (name, p.path.clone())
            })
            .collect();
        let ids = ahead.submit(&parent, dirs);
        for (p, id) in wanted.into_iter().zip(ids) {
            p.ahead = Some(id);
        }
    }

    fn prober<'d>(&'d self, dir: InDir<'d>, lookup: Lookup) -> Prober<'d> {
        Prober {
            plan: &self.plan,
            xattrs: &self.xattrs,
            dir,
            lookup,
        }
    }

    /// Everything the plan asks to know about the entries of `dir` (their
    /// stats, link targets, ACL markers, contexts), probed one at a time or
    /// overlapped as the filesystem calls for, with any error reported in
    /// directory order either way.
    fn complete_entries(&mut self, dir: InDir<'_>, dev: Option<(u32, u32)>, entries: &mut [Entry]) {
        let Strategy {
            lookup,
            threads,
            chunk,
        } = parallel::probe_strategy(
            self.config,
            dir.fd,
            dev,
            self.plan.count_probed(entries.iter().map(|e| e.file_type)),
        );
        if threads <= 1 {
            for entry in entries.iter_mut() {
                let facts = self.prober(dir, lookup).probe(&entry.name, entry.file_type);
                self.apply(dir.path, entry, facts);
            }
            return;
        }
        let errors = concurrent::probe_into(&self.prober(dir, lookup), entries, threads, chunk);
        for (i, err) in errors {
            self.report_entry_error(dir.path, &entries[i], &err);
        }
    }

    /// Records what was learned about `entry` of directory `dir`, reporting
    /// its error if it could not be stat'ed.
    fn apply(&mut self, dir: &[u8], entry: &mut Entry, facts: Facts) {
        if let Some(err) = facts.record_into(entry) {
            self.report_entry_error(dir, entry, &err);
        }
    }

    fn report_entry_error(&mut self, dir: &[u8], entry: &Entry, err: &std::io::Error) {
        self.status.file_error(
            &mut self.out,
            "cannot access",
            &entry_path(dir, entry.name_bytes()),
            err,
            false,
        );
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
        c.format == crate::options::Format::OneLine
            && c.sort == crate::options::SortKey::None
            && !c.size_blocks
            && !c.recursive
    }
}

/// ENOENT without reaching for libc outside `sys`.
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
