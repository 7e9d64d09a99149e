//! How the walk gets its entries' facts: one at a time on its own
//! thread, or by the directory's `Probes` as `parallel::probe_strategy`
//! says (after reading; or, for a large local directory, while it is
//! still read), with what went wrong reported in directory order either
//! way. Not the probes' workers (`probes`), nor one entry's probe
//! (`probe`).
#![forbid(unsafe_code)]

use std::sync::Arc;

use super::filter::Filter;
use super::probe::Facts;
use super::probes::Probes;
use super::{handover, Pending, Walker};
use crate::entry::Entry;
use crate::parallel::{self, tuning, Lookup, Shape, Strategy};
use crate::sys::dir::read_dir_each;
use crate::sys::xattr::InDir;

impl Walker<'_> {
    /// Reads a directory not read ahead; a large local one whose entries
    /// all need probes is probed while it is read: from the count
    /// `parallel::probe_while_reading` says, the names read go to the
    /// directory's `Probes` a chunk at a time, its workers probing them
    /// while the walk reads on, and once it is read the walk joins them.
    /// Returns the entries and whether they were probed.
    pub(super) fn read_probing(
        &mut self,
        pending: &Pending,
        dir: InDir<'_>,
        dev: Option<(u32, u32)>,
        filter: &Filter,
    ) -> (Vec<Entry>, bool) {
        let from = parallel::probe_while_reading(self.config).filter(|_| self.plan.probes_files());
        let Some(from) = from else {
            return self.read_entries(pending, dir.fd, None, filter);
        };
        let mut entries = std::mem::take(&mut self.spare);
        let mut probes = None;
        // Entries handed to the probes, and those whose facts are recorded.
        let (mut added, mut recorded) = (0, 0);
        let mut problems = Vec::new();
        let mut record = |entries: &mut [Entry], facts: Facts| {
            let found = facts.record_into(&mut entries[recorded]);
            if !found.is_empty() {
                problems.push((recorded, found));
            }
            recorded += 1;
        };
        let read_error = read_dir_each(
            dir.fd,
            |name| filter.keep(name),
            |d| {
                entries.push(Entry::new(d.name.to_owned(), d.file_type));
                let n = entries.len();
                if n == from {
                    probes = self.probes_while_reading(dir, dev, n);
                } else if n % tuning::READING_CHUNK != 0 {
                    return;
                }
                let Some(probes) = &probes else { return };
                probes.add(entries[added..].iter().map(|e| (&e.name, e.file_type)));
                added = n;
                probes.hand_over(&mut |facts| record(&mut entries, facts));
            },
        );
        let probed = probes.is_some();
        if let Some(probes) = probes {
            probes.add(entries[added..].iter().map(|e| (&e.name, e.file_type)));
            probes.run(None, |facts| record(&mut entries, facts));
        }
        self.report_read_error(pending, read_error);
        for (i, problems) in problems {
            self.report_problems(dir.path, &entries[i], problems);
        }
        (entries, probed)
    }

    /// The probes of a directory still read, its first `count` entries
    /// read, when they pay before its end (a large local directory), with
    /// their workers started.
    fn probes_while_reading(
        &self,
        dir: InDir<'_>,
        dev: Option<(u32, u32)>,
        count: usize,
    ) -> Option<Arc<Probes>> {
        let Strategy::Probes(shape) = parallel::probe_strategy(self.config, dir.fd, dev, count)
        else {
            return None;
        };
        if !shape.splits() {
            return None;
        }
        let probes = self.probes(dir, shape)?;
        probes.help(probes.workers() - 1);
        Some(probes)
    }

    /// The probes of directory `dir`'s entries, none added yet; `None`
    /// when no descriptor is left to share the directory with the workers.
    fn probes(&self, dir: InDir<'_>, shape: Shape) -> Option<Arc<Probes>> {
        let fd = dir.fd.try_clone_to_owned().ok()?;
        Some(Probes::new(
            (Arc::clone(&self.plan), Arc::clone(&self.xattrs)),
            (Arc::new(fd), dir.path.to_vec()),
            shape,
        ))
    }

    /// Everything the plan asks to know about the entries of `dir` (their
    /// stats, link targets, ACL markers, contexts), probed one at a time or
    /// by the directory's `Probes` (`probing`: those its `--timeout` job
    /// started) as `parallel::probe_strategy` says, with any error
    /// reported in directory order either way.
    pub(super) fn complete_entries(
        &mut self,
        dir: InDir<'_>,
        dev: Option<(u32, u32)>,
        entries: &mut [Entry],
        probing: Option<Arc<Probes>>,
    ) {
        let probed = self.plan.count_probed(entries.iter().map(|e| e.file_type));
        // Nothing to learn (a plain listing): the entries are not visited.
        if probed == 0 {
            return;
        }
        let deadline = self.deadline;
        let probes = match probing {
            Some(probes) => Some(probes),
            None => match parallel::probe_strategy(self.config, dir.fd, dev, probed) {
                Strategy::Probes(shape) => self.probes(dir, shape),
                Strategy::Sequential => None,
            },
        };
        let mut problems = Vec::new();
        match probes {
            Some(probes) => {
                probes.add(entries.iter().map(|e| (&e.name, e.file_type)));
                let mut each = entries.iter_mut().enumerate();
                probes.run(deadline, |facts| {
                    if let Some((i, entry)) = each.next() {
                        let found = facts.record_into(entry);
                        if !found.is_empty() {
                            problems.push((i, found));
                        }
                    }
                });
            }
            // Under a deadline the walk makes no request itself: with no
            // descriptor for the workers, every stat is given up.
            None if deadline.is_some() => {
                let failed = entries
                    .iter_mut()
                    .map(|e| handover::stat_failed().record_into(e));
                problems.extend(failed.enumerate());
            }
            None => {
                let prober = self.prober(dir, Lookup::ByName);
                for (i, entry) in entries.iter_mut().enumerate() {
                    let found = prober
                        .probe(&entry.name, entry.file_type)
                        .record_into(entry);
                    if !found.is_empty() {
                        problems.push((i, found));
                    }
                }
            }
        }
        for (i, problems) in problems {
            self.report_problems(dir.path, &entries[i], problems);
        }
    }
}
