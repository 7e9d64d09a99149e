//! Probing a directory's entries with several requests in flight.
//!
//! On a network filesystem each stat or xattr read waits a round-trip, and
//! a sequential `ls` is bound by latency, not by work. A small scoped pool
//! of threads takes entries in order from a shared counter; the results come
//! back indexed by entry, so what is printed and reported afterwards does
//! not depend on which thread finished first.
#![forbid(unsafe_code)]

use std::ffi::CStr;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::OnceLock;

use super::probe::{Facts, Prober};
use crate::fs::FileType;

/// A worker's stack: probes use a few hundred bytes of buffers.
const WORKER_STACK: usize = 128 * 1024;

/// The facts for every `(name, type)` of `items`, in the same order, with at
/// most `threads` probes in flight, each thread taking `chunk` entries at a
/// time (1 where every probe waits on a server; more on a local disk,
/// where a probe takes microseconds and the shared counter would be the
/// bottleneck). Threads that cannot be started (limits) leave their share
/// to the others, down to the calling thread alone.
pub fn probe_all(
    prober: &Prober<'_>,
    items: &[(&CStr, FileType)],
    threads: usize,
    chunk: usize,
) -> Vec<Facts> {
    if threads <= 1 || items.len() <= 1 {
        return items.iter().map(|&(n, t)| prober.probe(n, t)).collect();
    }
    let chunk = chunk.max(1);
    let next = AtomicUsize::new(0);
    // One slot per item, filled by whichever thread probed it.
    let slots: Vec<OnceLock<Facts>> = (0..items.len()).map(|_| OnceLock::new()).collect();
    let work = || loop {
        let start = next.fetch_add(chunk, Ordering::Relaxed);
        if start >= items.len() {
            return;
        }
        for (i, &(name, file_type)) in items.iter().enumerate().skip(start).take(chunk) {
            let _ = slots[i].set(prober.probe(name, file_type));
        }
    };
    std::thread::scope(|scope| {
        for _ in 1..threads.min(items.len()) {
            let spawned = std::thread::Builder::new()
                .stack_size(WORKER_STACK)
                .spawn_scoped(scope, work);
            if spawned.is_err() {
                break;
            }
        }
        work();
    });
    // A probe does not panic (and panics abort in release builds); should
    // a helper have died, its entries are probed again here.
    slots
        .into_iter()
        .zip(items)
        .map(|(slot, &(n, t))| slot.into_inner().unwrap_or_else(|| prober.probe(n, t)))
        .collect()
}
