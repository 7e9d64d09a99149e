//! Operands and directories: stat the operands, print the files among them,
//! then list each directory (and with `-R` its subdirectories, depth first,
//! iteratively), reporting errors where GNU does.
//!
//! Per-entry stat calls are made only when the plan asks for them, relative
//! to the directory's open descriptor (no re-walking of the path).
#![forbid(unsafe_code)]

use std::ffi::{CString, OsString};
use std::os::fd::{AsFd, BorrowedFd, OwnedFd};
use std::os::unix::ffi::OsStringExt;
use std::sync::Arc;

use crate::config::Config;
use crate::entry::Entry;
use crate::error::{print_diagnostic, Status};
use crate::format::quote::quote_when_needed;
use crate::listing::Printer;
use crate::output::{Output, Sink};
use crate::parallel::{self, tuning, Lookup};
use crate::plan::Plan;
use crate::sort::{apply_order, sorted_order};
use crate::sys::dir::read_dir_each;
use crate::sys::path::child_path;
use crate::sys::xattr::{AclProbe, InDir};
use crate::sys::FileType;
use ahead::ReadAhead;
use chain::{DirChain, DirId};
use dir_read::{DirRead, Listing};
use probe::{Facts, Prober};

mod ahead;
mod chain;
mod dir_read;
mod filter;
mod handover;
mod job;
mod open;
mod operands;
mod probe;
mod probes;
mod probing;
mod report;
mod trial;

/// Whether `-R` lists entry `e` below its directory: a directory, but
/// not `.` or `..`.
fn is_listed_below(e: &Entry) -> bool {
    let name = e.name_bytes();
    e.file_type == FileType::Directory && name != b"." && name != b".."
}

/// A directory waiting to be listed.
struct Pending {
    path: Vec<u8>,
    /// Where its own name starts in `path`: a subdirectory is opened by
    /// that name relative to its parent's descriptor.
    name_at: usize,
    operand: bool,
    /// Its read-ahead job, once submitted.
    ahead: Option<u64>,
    /// Its result read ahead went stale once already.
    stale_once: bool,
}

impl Pending {
    /// The directory's own name, the last component of `path`.
    fn name(&self) -> &[u8] {
        &self.path[self.name_at..]
    }
}

/// What `-R` learned of a directory as it entered it: its device (for
/// the probe strategy) and its identity (for the path). Unknown without it.
struct Identity {
    dev: Option<(u32, u32)>,
    id: Option<DirId>,
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
    /// The operands are on a network filesystem (reading ahead pays
    /// whatever the directories' sizes).
    remote: bool,
    /// Entries of the directories listed lately, on average (a moving
    /// mean, starting high): whether reading ahead pays otherwise.
    mean_entries: usize,
    /// `--timeout`: how long a request may wait before it is given up
    /// (what the option covers: the requests made through `request` and
    /// the jobs, which carry it; see ARCHITECTURE.md).
    deadline: Option<std::time::Duration>,
    /// What every directory's job shares, made once.
    jobs: std::cell::OnceCell<Arc<job::JobContext>>,
}

impl<'a> Walker<'a> {
    pub fn new(config: &'a Config, collate_bytes: bool) -> Walker<'a> {
        Walker {
            config,
            plan: Arc::new(Plan::new(config)),
            printer: Printer::new(config),
            out: Output::new(),
            status: Status::new(config.locale.charset),
            collate_bytes,
            print_headings: false,
            first_listing: true,
            chain: DirChain::default(),
            xattrs: Arc::default(),
            spare: Vec::new(),
            remote: false,
            mean_entries: tuning::READ_AHEAD_MEAN_START,
            deadline: config.timeout,
            jobs: std::cell::OnceCell::new(),
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
            let quoted = self.any_quoted(operands);
            self.resolve_links_ahead(b"", &files, true);
            self.printer
                .print_measuring(&mut self.out, &files, &dirs, quoted);
            self.report_given_up_names();
            // GNU ends the files with a blank line as soon as directories
            // follow, before it tries to open the first one.
            if !dirs.is_empty() && !self.config.json {
                self.out.put_byte(b'\n');
            }
        }
        self.print_headings = self.config.recursive || operands.len() > 1 || !files.is_empty();
        let workers = parallel::read_ahead_workers(self.config, &dirs);
        parallel::size_probe_pool(self.config, workers);
        // Only asked with read-ahead workers (it reads the mount table).
        self.remote = workers > 0 && parallel::any_remote(&dirs);
        // Descriptors for the path and the read-ahead, from what is free.
        let descriptors = if self.config.recursive {
            let budget = parallel::DescriptorBudget::get();
            self.chain = DirChain::new(budget.chain);
            budget.read_ahead
        } else {
            0
        };
        let mut work: Vec<Work> = dirs
            .into_iter()
            .rev()
            .map(|e| {
                Work::List(Pending {
                    path: e.name.into_bytes(),
                    name_at: 0,
                    operand: true,
                    ahead: None,
                    stale_once: false,
                })
            })
            .collect();
        // Where a network mount may never be read ahead (a warm one), the
        // threads start with the first directory submitted.
        let context = (workers > 0).then(|| Arc::clone(self.job_context()));
        let mut ahead =
            ReadAhead::start(workers, descriptors, (context, self.deadline), self.remote);
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
    }

    /// Writes what must follow all listings (colour restore, dired trailer).
    pub fn finish(&mut self) {
        let mut tail = Vec::new();
        self.printer.names.finish(&mut tail);
        self.out.write(&tail);
        self.printer.finish(&mut self.out);
    }

    fn sort(&mut self, entries: &mut [Entry]) {
        if let Some(order) = self.sorted_order(entries) {
            apply_order(entries, order);
        }
    }

    /// The order the entries are listed in (`None`: as they are).
    fn sorted_order(&self, entries: &[Entry]) -> Option<Vec<usize>> {
        let names = &self.printer.names;
        let c = self.config;
        // Where quoted names are aligned, GNU's width key leaves out the
        // leading quote (unquoted names get a space instead).
        let aligned = crate::format::quote::listing_aligns_quotes(c.quoting, c.format, c.width);
        let width_of = |e: &Entry| {
            let q = names.measure(e.name_bytes(), &mut Vec::new());
            q.width - usize::from(aligned && q.starts_with_quote)
        };
        sorted_order(entries, self.config, self.collate_bytes, &width_of)
    }

    /// Lists one directory, as the steps below: open it (or take what was
    /// read ahead), make sure it is not already on the `-R` path, print its
    /// heading, read its entries (printing them as they come when nothing
    /// needs them all first), probe them, sort and print them, and with
    /// `-R` queue its subdirectories.
    fn list_dir(&mut self, pending: Pending, work: &mut Vec<Work>, ahead: &mut ReadAhead) {
        let Some(DirRead {
            fd,
            ident,
            listing,
            facts,
            probing,
        }) = self.open_dir(&pending, ahead)
        else {
            return;
        };
        let Some(Identity { dev, id }) = self.identify(&pending, ident) else {
            return;
        };
        self.print_heading(&pending);
        let filter = filter::Filter::new(self.config);
        if listing.is_none() && self.streams() {
            self.stream_dir(&pending, fd.as_fd(), &filter);
            return;
        }
        let dir = InDir {
            fd: fd.as_fd(),
            path: &pending.path,
        };
        // Sorted ahead (by a read-ahead worker) implies probed.
        let (mut entries, sorted, probed) = match listing {
            None if facts.is_none() => {
                let (entries, probed) = self.read_probing(&pending, dir, dev, &filter);
                (entries, false, probed)
            }
            listing => {
                let (entries, sorted) = self.read_entries(&pending, fd.as_fd(), listing, &filter);
                (entries, sorted, sorted)
            }
        };
        match facts {
            Some(facts) => {
                for (entry, facts) in entries.iter_mut().zip(facts) {
                    self.apply(dir.path, entry, facts);
                }
            }
            // Probed while read, or ahead with what they found recorded.
            None if probed => {}
            None => self.complete_entries(dir, dev, &mut entries, probing),
        }
        // Closed before formatting, as GNU does (user lookups open files):
        // kept only to open subdirectories from, if the path's budget holds.
        let fd = (id.is_some() && self.chain.holds()).then_some(fd);
        self.print_entries(&pending, &mut entries, sorted);
        ahead.listed(entries.len());
        let weight = tuning::READ_AHEAD_MEAN_WEIGHT;
        self.mean_entries = (self.mean_entries * (weight - 1) + entries.len()) / weight;
        if let Some(id) = id {
            self.queue_subdirectories(work, id, fd, &pending.path, &entries);
            // Its first subdirectory may have been read with it.
            if let Some((path, child)) = ahead.adopted() {
                match work.last_mut() {
                    Some(Work::List(p)) if p.path == path && p.ahead.is_none() => {
                        p.ahead = Some(child);
                    }
                    _ => ahead.withdraw(child),
                }
            }
        }
        // The last listing's entries are left for the exit to reclaim (see
        // `app::run`): freeing 100 000 names one by one takes a millisecond.
        if work.iter().all(|w| matches!(w, Work::Leave)) {
            self.spare = entries;
        } else if sorted {
            // Made by a job: its room goes back to the jobs (see
            // `dir_read::Recycled`).
            self.job_context().buffers.entries.give_back(entries);
        } else {
            entries.clear();
            self.spare = entries;
        }
    }

    /// With `-R`, the directory's device and `(dev, ino)` identity, checked
    /// against the directories already on the path; `None` (reported) for
    /// a loop or a failed stat. Without `-R` there is nothing to check.
    fn identify(
        &mut self,
        pending: &Pending,
        ident: Option<std::io::Result<crate::sys::Metadata>>,
    ) -> Option<Identity> {
        let Some(ident) = ident else {
            return Some(Identity {
                dev: None,
                id: None,
            });
        };
        match ident {
            Ok(m) => {
                let id = (m.dev(), m.ino().unwrap_or(0));
                if self.chain.contains(id) {
                    // Quoted only when needed, unlike other file messages
                    // (quotef: shell-escape with `:` special).
                    let name = quote_when_needed(&pending.path, self.config.locale.charset);
                    let msg =
                        crate::sys::intl::msg("%s: not listing already-listed directory", &[&name]);
                    print_diagnostic(&mut self.out, &msg);
                    self.status.raise(crate::error::EXIT_SERIOUS);
                    return None;
                }
                Some(Identity {
                    dev: Some(m.dev()),
                    id: Some(id),
                })
            }
            Err(err) => {
                self.status.file_error(
                    &mut self.out,
                    "cannot determine device and inode of %s",
                    &pending.path,
                    &err,
                    pending.operand,
                );
                None
            }
        }
    }

    /// `DIR:` (after a blank line unless it is the first thing printed),
    /// when headings are printed.
    fn print_heading(&mut self, pending: &Pending) {
        if self.print_headings {
            // JSON records carry the heading as `path`: no blank lines.
            if !self.first_listing && !self.config.json {
                self.out.put_byte(b'\n');
            }
            self.resolve_paths_ahead(vec![pending.path.clone()], pending.operand);
            self.printer.print_heading(&mut self.out, &pending.path);
        }
        self.first_listing = false;
    }

    /// Prints each entry as it is read, probed one at a time: GNU's way
    /// when nothing needs the whole directory first.
    fn stream_dir(&mut self, pending: &Pending, fd: BorrowedFd<'_>, filter: &filter::Filter) {
        self.printer.names.dir.clone_from(&pending.path);
        let dir = InDir {
            fd,
            path: &pending.path,
        };
        let read_error = read_dir_each(
            fd,
            |name| filter.keep(name),
            |d| {
                let mut entry = Entry::new(d.name.to_owned(), d.file_type);
                let prober = self.prober(dir, Lookup::ByName);
                let facts = prober.probe(&entry.name, entry.file_type);
                self.apply(&pending.path, &mut entry, facts);
                self.printer
                    .print(&mut self.out, std::slice::from_ref(&entry));
            },
        );
        self.report_read_error(pending, read_error);
    }

    /// The entries the filter keeps, as read ahead or read now (in the
    /// vector of the last directory listed), and whether they are sorted
    /// already (made, probed and sorted ahead); a read error is reported
    /// after what could be read.
    fn read_entries(
        &mut self,
        pending: &Pending,
        fd: BorrowedFd<'_>,
        listing: Option<(Listing, Option<std::io::Error>)>,
        filter: &filter::Filter,
    ) -> (Vec<Entry>, bool) {
        let mut entries = std::mem::take(&mut self.spare);
        entries.clear();
        let read_error = match listing {
            Some((Listing::Sorted(sorted), read_error)) => {
                self.spare = entries;
                self.report_read_error(pending, read_error);
                return (sorted, true);
            }
            Some((Listing::Names(names), read_error)) => {
                self.job_context().buffers.unpack(names, &mut entries);
                read_error
            }
            Some((Listing::Made(made), read_error)) => {
                self.spare = entries;
                entries = made;
                read_error
            }
            None => read_dir_each(
                fd,
                |name| filter.keep(name),
                |d| entries.push(Entry::new(d.name.to_owned(), d.file_type)),
            ),
        };
        self.report_read_error(pending, read_error);
        (entries, false)
    }

    /// Sorts the entries (unless `sorted` ahead) and prints them, after
    /// the `total` line.
    fn print_entries(&mut self, pending: &Pending, entries: &mut [Entry], sorted: bool) {
        // Bare names, one per line, and nothing walked after them: printed
        // in sorted order where they are, without moving the entries.
        // GNU makes each name absolute for its link as it reads it.
        self.resolve_links_ahead(&pending.path, entries, false);
        let bare = self.printer.prints_bare_lines() && !self.config.recursive;
        if !sorted && bare && !self.plan.print_total {
            let order = self.sorted_order(entries);
            self.printer.names.dir.clone_from(&pending.path);
            self.printer
                .print_bare_lines(&mut self.out, entries, order.as_deref());
            return;
        }
        if !sorted {
            self.sort(entries);
        }
        if self.plan.print_total {
            self.printer.print_total(&mut self.out, entries);
        }
        self.printer.names.dir.clone_from(&pending.path);
        self.printer.print(&mut self.out, entries);
        self.report_given_up_names();
    }

    /// With `-R`: the directory joins the path, and its subdirectories go
    /// on the work stack, first listed on top, followed by leaving it.
    fn queue_subdirectories(
        &mut self,
        work: &mut Vec<Work>,
        id: DirId,
        fd: Option<OwnedFd>,
        base: &[u8],
        entries: &[Entry],
    ) {
        work.push(Work::Leave);
        self.chain.push(id, fd);
        for e in entries.iter().rev().filter(|e| is_listed_below(e)) {
            let name = e.name_bytes();
            let path = child_path(base, name);
            work.push(Work::List(Pending {
                name_at: path.len() - name.len(),
                path,
                operand: false,
                ahead: None,
                stale_once: false,
            }));
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

    /// Records what was learned about `entry` of directory `dir`, reporting
    /// what went wrong.
    fn apply(&mut self, dir: &[u8], entry: &mut Entry, facts: Facts) {
        let problems = facts.record_into(entry);
        if !problems.is_empty() {
            self.report_problems(dir, entry, problems);
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
