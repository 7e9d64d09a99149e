//! Every tuning figure of the run's threads and of what they hold, in one
//! block: each says what it trades and where it was measured (a bench/
//! command, or the test that holds it). `parallel` decides with them; the
//! walk reads the few it applies itself from here, never a copy of its
//! own. Figures that describe GNU or the kernel, not a trade, live where
//! they apply.
#![forbid(unsafe_code)]

use std::time::Duration;

// ---- Probing one directory's entries ---------------------------------------

/// The most probes in flight (and the cap on `STATLS_THREADS=N`): enough to
/// hide a millisecond per request behind directory-sized batches, few enough
/// that the `O_PATH` handle each holds stays far from common descriptor
/// limits (bench/latency.sh: `-l` of 1 000 files at 1 ms, 16 vs 32 threads).
pub const MAX_PROBE_THREADS: usize = 32;

/// Entries before a local directory's probes are split over the CPUs: below,
/// handing out work costs more than it saves (bench/table.py, `-l`).
pub const LOCAL_SPLIT_MIN: usize = 2048;

/// Entries a thread takes at a time from a split local directory.
pub const LOCAL_CHUNK: usize = 64;

/// Threads for one large local directory, at most: the kernel's dentry and
/// inode caches stop scaling for one directory beyond four.
pub const LOCAL_THREADS_MAX: usize = 4;

/// Names the walk adds to a large directory's probes at a time while it
/// still reads it, recording the facts ready each time: large enough that
/// the locks are rare, small enough that the facts are recorded while the
/// workers probe. Reading may run ahead of probing: the walk probing the
/// oldest chunk itself past four waiting made no difference to `-l` of
/// bench/mkmixed.py's 100 000 files, in time or peak memory.
pub const READING_CHUNK: usize = 256;

/// A probe this slow waited on something other than the CPU and the
/// kernel's caches (a cached stat takes a few µs even through FUSE; a
/// round trip tens to thousands): bench/latfs at 0 and 1 ms.
pub const SLOW_PROBE: Duration = Duration::from_micros(30);

/// Slow probes in a row that make a device slow: one can be the scheduler
/// or a page fault, three in a row are the device.
pub const SLOW_RUN: u32 = 3;

/// Fast probes in a row that make a slow device fast again (its cache
/// warmed up): tests/network_pace.rs.
pub const FAST_RUN: u32 = 64;

// ---- Reading subdirectories ahead (`-R`) -----------------------------------

/// Read-ahead workers where each directory read waits on a server.
pub const REMOTE_WORKERS: usize = 8;

/// Read-ahead workers on local disks, at most (a CPU's worth less the
/// walk's own otherwise).
pub const LOCAL_WORKERS_MAX: usize = 3;

/// Entries a local directory must hold (mean of those listed lately) for
/// reading it ahead to pay when nothing in it is stat'ed: `ls -R` of 2 000
/// directories of 20 files took 20 ms on one thread, 31 with a worker.
pub const READ_AHEAD_MEAN_MIN: usize = 100;

/// The mean the walk starts from: high enough that the first
/// subdirectories are read ahead, low enough that a tree of small ones
/// stops it after about ten.
pub const READ_AHEAD_MEAN_START: usize = 4 * READ_AHEAD_MEAN_MIN;

/// The walk's mean of entries per directory moves `1 / READ_AHEAD_MEAN_WEIGHT`
/// of the way to each directory's count (a moving mean over about the last
/// eight directories).
pub const READ_AHEAD_MEAN_WEIGHT: usize = 8;

/// Directories taken back from the read-ahead in each stretch over which
/// whether it runs beside the walk is judged (a few milliseconds).
pub const READ_AHEAD_TRIAL: usize = 32;

/// Directories the walk lists alone after a stretch in which the read-ahead
/// did not run beside it (doubled per such stretch in a row, up to 64
/// times): a stretch still on the walk's CPU costs about 15 % more than the
/// walk alone (bench/table.py under `taskset -c 0`).
pub const READ_AHEAD_REST: usize = 64;

/// Stretches in a row after which the rest stops doubling (64 times
/// [`READ_AHEAD_REST`]: a tree whose read-ahead never runs beside the walk
/// still tries it again every 4 096 directories).
pub const READ_AHEAD_REST_DOUBLINGS: u32 = 6;

/// Directories read ahead at once, per thread, and beyond them: enough that
/// a thread finds the next job waiting when it ends one, within the
/// descriptors of [`READ_AHEAD_DESCRIPTORS_MAX`] (bench/table.py, `-R`).
pub const READ_AHEAD_WINDOW_PER_THREAD: usize = 4;
pub const READ_AHEAD_WINDOW_EXTRA: usize = 4;

/// How long after its reading ended a directory read ahead may still be
/// listed from what was read (else it is read again).
pub const READ_AHEAD_MAX_AGE: Duration = Duration::from_millis(200);

/// Entries the walk may list elsewhere between the end of a directory's
/// reading ahead and its own listing (else it is read again).
pub const READ_AHEAD_MAX_LISTED_BETWEEN: u64 = 10_000;

/// Bytes that may wait in results read ahead before the workers pause: a
/// thousand entries made, stat'ed and sorted take about 190 KB; `-lR` of
/// 200 x 1 000 files was no faster with 448 KiB than with 256 or 320.
pub const HELD_BYTES_MAX: usize = 320 * 1024;

/// Bytes one directory read ahead may hold in facts and entries made ahead
/// (half of [`HELD_BYTES_MAX`]): past that, the walk probes and makes them
/// itself, when it lists the directory, so that one large directory does
/// not stop the read-ahead of the next.
pub const HELD_BYTES_ONE_DIR: usize = HELD_BYTES_MAX / 2;

// ---- Descriptors and memory the threads may hold ---------------------------

/// Descriptors kept free for what opens one for a moment (user and group
/// lookups, a message catalog).
pub const TRANSIENT_DESCRIPTORS: usize = 2;

/// Directories held open along the `-R` path, at most (tests/recursion.rs).
pub const CHAIN_MAX: usize = 16;

/// Descriptors the read-ahead may use, at most: a window of 36 directories
/// for 8 workers, and a probe handle for each worker.
pub const READ_AHEAD_DESCRIPTORS_MAX: usize = 36 + 8;

/// The address-space limit (`ulimit -v`) below which no helper thread
/// starts: each costs a stack and would get a malloc arena of its own
/// (up to 64 MiB reserved); above it their stacks, about 5 MiB at most, are
/// 2 % of it (tests/limits.rs).
pub const ADDRESS_SPACE_FOR_THREADS: u64 = 256 << 20;

/// A probe thread's stack: probes use a few hundred bytes of buffers.
pub const PROBE_STACK: usize = 128 * 1024;

/// The long format's helper's stack: lines are built in heap buffers, and
/// the C library's time and name lookups need a few KiB (not the 2 MiB
/// default, which counts against an address-space limit).
pub const HELPER_STACK: usize = 256 * 1024;

// ---- Formatting and sorting on two threads ---------------------------------

/// Long listings from this many lines are formatted on two threads.
pub const PARALLEL_LINES_MIN: usize = 8192;

/// Lines per block handed between the two threads of a long listing.
pub const PARALLEL_BLOCK: usize = 2048;

/// Names from which keying and sorting two halves on two threads saves
/// more than the thread (about 50 µs, up to a few ms before a second
/// virtual CPU runs it) and the merge (about 12 ns a name) cost: a strxfrm
/// costs about 0.4 µs a name; a byte-order key and its share of the radix
/// sort about 60 ns, which pays only from a few hundred thousand names (at
/// 100 000 one thread is 3 % faster).
pub const SORT_SPLIT_COLLATED_MIN: usize = 4_000;
pub const SORT_SPLIT_BYTES_MIN: usize = 250_000;

// ---- `--timeout` ------------------------------------------------------------

/// How often the walk waiting for a directory's reading makes entries of
/// the names read so far, and records the facts published so far: making
/// and recording overlap the requests, not follow them.
pub const WATCHED_WAKE_EVERY: Duration = Duration::from_millis(2);

/// `--timeout` requests waited for together (`watch::timed_all`: a batch's
/// owner and group lookups): a thread each, so this many threads at most
/// per window; a window in which none answered gives up the rest at once
/// (ten ids' lookups on a dead name service cost one limit:
/// tests/timeout_servers.rs).
pub const WATCHED_AT_ONCE: usize = 64;

/// Threads that may be left stuck in requests given up, at most; past that
/// nothing more is sent and every request is given up at once. One stuck
/// thread per hung request: `ls -R --timeout=1` of 60 dead directories on
/// bench/latfs peaked at 62 threads (tests/timeout.rs holds it under 72).
pub const MAX_STUCK: usize = 1024;

/// Under `--timeout` the walk reads no directory itself: every directory
/// is handed to a watched thread and waited for, and a thread that went
/// to sleep, on a virtual CPU left idle, can take milliseconds to wake.
/// So watched threads out of work look for more this long, and a waiter
/// with a deadline looks for its job's end this long, yielding the CPU,
/// before they sleep (bench/table.py `--ours-args=--timeout=30`, `-R` of
/// 2 000 x 20: 1.27 of the run without the option, now 0.86; one thread
/// looking at a time: 1.20, two: 0.86, four: 3 % less than two on
/// `-R` of 200 x 1 000; under `taskset -c 0`, 0.91-0.98 of no looking).
pub const IDLE_SPIN: Duration = Duration::from_millis(3);
pub const WAIT_SPIN: Duration = Duration::from_micros(200);

/// The mean entries of the directories listed lately from which the walk
/// no longer looks for a read-ahead job's end: reading that many outlasts
/// the look, whose yields give the CPU to the jobs after it (`-R` under
/// `--timeout=30`, not looking against looking: 0.97-0.98 on 200 x 1 000
/// and 400 x 500, but 1.07 on 2 000 x 20).
pub const WAIT_SPIN_MEAN_MAX: usize = 256;

/// Buffers of each kind (names, entries) kept for the next directories'
/// jobs, and the largest kept (bytes): enough for the jobs under way and
/// the walk's, little memory (peak RSS of `-R` and `-lR` fell, bench/table.py).
pub const BUFFERS_KEPT: usize = 8;
pub const BUFFER_KEPT_MAX: usize = 64 * 1024;

/// Room a job's name buffer starts with (bytes, names): past the C
/// library's per-thread cache of small blocks (up to 1 032 bytes), so that
/// it comes from the job thread's own malloc arena. A buffer grown from a
/// small block grows where that block was made, often the walk's arena
/// (blocks freed on a thread are reused by its next requests, whoever made
/// them): every realloc then took the lock the walk's allocations take.
/// Under `--timeout` a batch handed to the walk whole is replaced by such
/// a buffer, not grown again from nothing (bench/table.py
/// `--ours-args=--timeout=30`, en_US `-R`: 1.22 of the run without the
/// option, then 1.06).
pub const NAME_BUFFER_START: (usize, usize) = (4096, 256);

/// A watched thread's stack: a probe or a directory read needs little.
pub const WATCHED_STACK: usize = 128 * 1024;

/// Entries a watched probe worker probes before it publishes their facts: a
/// worker given up loses those it probed since (they are probed again).
pub const WATCHED_PUBLISH: usize = 64;

/// A watched probe in flight this long (at most 50 ms) doubles the workers,
/// if every probe in flight is that slow: the entries behind a hung one go
/// on.
pub fn watched_grow_after(limit: Duration) -> Duration {
    (limit / 8).min(Duration::from_millis(50))
}
