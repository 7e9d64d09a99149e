//! Probing a directory's entries with several requests in flight.
//!
//! On a network filesystem each stat or xattr read waits a round-trip, and
//! a sequential `ls` is bound by latency, not by work. A small scoped pool
//! of threads takes the entries in order, a chunk at a time, and fills them
//! in where they are; problems come back indexed by entry, so what is printed
//! and reported afterwards does not depend on which thread finished first.
#![forbid(unsafe_code)]

use std::sync::Mutex;

use super::probe::{Prober, Problems};
use crate::entry::Entry;
use crate::parallel;

/// Probes every entry and records the facts in it, with at most `threads`
/// probes in flight, each thread taking `chunk` entries at a time (1 where
/// every probe waits on a server; more on a local disk, where a probe takes
/// microseconds and handing out work would be the bottleneck). Nothing
/// waits in between: each entry is complete once its probe returns. The
/// errors come back in entry order, for the caller to report as the
/// sequential walk would. Threads that cannot be started (limits) leave
/// their share to the others, down to the calling thread alone.
pub fn probe_into(
    prober: &Prober<'_>,
    entries: &mut [Entry],
    threads: usize,
    chunk: usize,
) -> Vec<(usize, Problems)> {
    let chunk = chunk.max(1);
    // More threads than chunks would have nothing to do.
    let threads = threads.min(entries.len().div_ceil(chunk));
    let pieces = Mutex::new(entries.chunks_mut(chunk).enumerate());
    let errors = Mutex::new(Vec::new());
    let work = || loop {
        let next = pieces.lock().unwrap_or_else(|e| e.into_inner()).next();
        let Some((k, piece)) = next else {
            return;
        };
        for (j, entry) in piece.iter_mut().enumerate() {
            let facts = prober.probe(&entry.name, entry.file_type);
            let problems = facts.record_into(entry);
            if !problems.is_empty() {
                let mut errors = errors.lock().unwrap_or_else(|e| e.into_inner());
                errors.push((k * chunk + j, problems));
            }
        }
    };
    parallel::on_threads(threads, work);
    let mut errors = errors.into_inner().unwrap_or_else(|e| e.into_inner());
    errors.sort_by_key(|&(i, _)| i);
    errors
}
