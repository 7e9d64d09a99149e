//! `--timeout`: the walk's wait for a directory's probes on watched
//! threads (`watched_probes`), started by its job (`job`) or here.
#![forbid(unsafe_code)]

use std::sync::Arc;
use std::time::Duration;

use super::probe::Problems;
use super::watched_facts::stat_failed;
use super::watched_probes::Probes;
use super::Walker;
use crate::entry::Entry;
use crate::parallel;
use crate::sys::xattr::InDir;

impl Walker<'_> {
    /// Probes `entries` of `dir` on watched threads (`watched_probes`), or
    /// waits for the probes its job started (`probing`); the facts are
    /// recorded in directory order and what went wrong handed back,
    /// indexed, for the walk to report.
    pub(super) fn probe_watched(
        &self,
        dir: InDir<'_>,
        dev: Option<(u32, u32)>,
        entries: &mut [Entry],
        (limit, probing): (Duration, Option<Arc<Probes>>),
    ) -> Vec<(usize, Problems)> {
        let probes = match probing {
            Some(probes) => probes,
            None => match dir.fd.try_clone_to_owned() {
                Ok(fd) => {
                    let count = entries.len();
                    let shape =
                        parallel::watched_probe_shape(self.config.probes, dir.fd, dev, count);
                    let probes = Probes::new(
                        (Arc::clone(&self.plan), Arc::clone(&self.xattrs)),
                        (Arc::new(fd), dir.path.to_vec()),
                        shape,
                    );
                    probes.add(entries.iter().map(|e| (&e.name, e.file_type)));
                    probes
                }
                Err(_) => {
                    let stats_failed = entries.iter_mut().map(|e| stat_failed().record_into(e));
                    return stats_failed.enumerate().collect();
                }
            },
        };
        let mut problems = Vec::new();
        let mut entries = entries.iter_mut().enumerate();
        probes.run(limit, |facts| {
            if let Some((i, entry)) = entries.next() {
                let found = facts.record_into(entry);
                if !found.is_empty() {
                    problems.push((i, found));
                }
            }
        });
        problems
    }
}
