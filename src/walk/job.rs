//! One directory's job, the one way a directory is read off the walk's
//! thread: open it, identify it (`-R`), read it a getdents answer at a
//! time (so a job given up keeps what was read), then what can be done
//! before the walk lists it: probes, entries made and sorted. Whoever
//! needs the result waits for the job with the run's deadline (`None`: as
//! long as it takes); a request in flight past it is given up with
//! ETIMEDOUT. Run by the read-ahead (`ahead`), and under `--timeout` by
//! the walk for each directory it reaches unread.
#![forbid(unsafe_code)]

use std::cell::RefCell;
use std::ffi::CString;
use std::os::fd::{AsFd, OwnedFd};
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

use super::dir_read::{
    sorted_ahead, Buffer, Buffers, DirRead, Listing, Outcome, PackedNames, PROBE_AHEAD_MAX,
};
use super::filter::Filter;
use super::probe::{FactsList, Prober};
use super::probes::Probes;
use crate::config::Config;
use crate::entry::Entry;
use crate::parallel::tuning::{NAME_BUFFER_START, WATCHED_WAKE_EVERY};
use crate::parallel::{self, lock, Beat, Lookup, Shape, Strategy, Watched};
use crate::plan::Plan;
use crate::sys::dir::{open_dir, read_dir_batches};
use crate::sys::stat::{stat_fd, Base, Need};
use crate::sys::xattr::{AclProbe, InDir};
use crate::sys::Metadata;

/// What every job of the run shares: what to probe, how to sort, and the
/// deadline.
pub(super) struct JobContext {
    pub plan: Arc<Plan>,
    pub xattrs: Arc<AclProbe>,
    pub config: Arc<Config>,
    /// Names sort in byte order (the walk's `collate_bytes`).
    pub collate_bytes: bool,
    /// `--timeout`: how long a request may wait before it is given up.
    pub deadline: Option<Duration>,
    /// Buffers the walk emptied, for the next jobs.
    pub buffers: Buffers,
}

/// What a directory's job has learned so far.
#[derive(Default)]
struct Progress {
    opened: Option<std::io::Result<Arc<OwnedFd>>>,
    ident: Option<std::io::Result<Metadata>>,
    names: PackedNames,
    /// Set when reading ended: the error that ended it, if any.
    read: Option<Option<std::io::Error>>,
    /// When the job's own requests ended (reading, and the probes made
    /// on its thread without a deadline).
    ended_at: Option<Instant>,
    /// The probes done ahead, in entry order (not yet recorded in a
    /// sorted listing).
    facts: Option<FactsList>,
    /// `--timeout`: the entries' probes, started once the directory was
    /// read.
    probes: Option<Arc<Probes>>,
    /// The job is making and sorting the entries (no request: the walk
    /// waits for it without a limit).
    sorting: bool,
    sorted: Option<Vec<Entry>>,
    /// The walk waits for the sorting to end.
    walk_waits: bool,
    /// The walk took names while the directory was read (the job then
    /// leaves the entries to it).
    walk_took: bool,
}

/// A job's progress, and the signal that its sorting ended.
#[derive(Default)]
struct Shared {
    progress: Mutex<Progress>,
    sorted: Condvar,
}

/// One directory for a job: opened relative to `parent` by `name`, or by
/// `name` alone (then its whole path), identified with `-R`.
pub(super) struct DirTask {
    pub parent: Option<Arc<OwnedFd>>,
    pub name: CString,
    pub path: Vec<u8>,
    pub identify: bool,
    /// Under `--timeout`: once its entries are sorted, its first
    /// subdirectory is the next job of the same thread (the walk lists it
    /// right after, and cannot read it itself).
    pub first_child: bool,
    pub context: Arc<JobContext>,
}

/// The waiting side of a directory's job.
pub(super) struct DirJob {
    shared: Arc<Shared>,
    identify: bool,
    context: Arc<JobContext>,
    /// `None`: no thread could take it (given up at once).
    watched: Option<Watched>,
}

/// A job's own side: run by whichever thread starts it.
pub(super) struct JobRun {
    task: DirTask,
    shared: Arc<Shared>,
    beat: Beat,
}

impl JobRun {
    /// Its clock starts: called by the thread that runs it, before anyone
    /// can wait for it.
    pub(super) fn begin(&self) {
        self.beat.request();
    }

    /// Runs the job on a thread of its own; returns the bytes its result
    /// holds until taken, and the task of its first subdirectory when it
    /// asks for one (see [`DirTask::first_child`]).
    pub(super) fn run(self) -> (usize, Option<DirTask>) {
        let child = run_job(self.task, &self.shared, self.beat, true);
        (lock(&self.shared.progress).bytes(), child)
    }

    /// Runs the job on the walk's thread, while the walk waits for another
    /// one: its `Probes` are left to the walk, which joins them once it
    /// has printed the directory's heading (a probe may hang).
    pub(super) fn run_for_the_walk(self) -> usize {
        run_job(self.task, &self.shared, self.beat, false);
        lock(&self.shared.progress).bytes()
    }

    /// Begins it and runs it on a watched thread of its own (no thread:
    /// it is dropped, and given up when waited for).
    pub(super) fn start(self) {
        self.begin();
        parallel::spawn_watched(move || {
            self.run();
        });
    }
}

impl Progress {
    /// Bytes held for the walk: names, facts and entries made.
    fn bytes(&self) -> usize {
        let sorted = (self.sorted.iter().flatten()).map(super::dir_read::entry_bytes);
        self.names.bytes() + self.facts.as_ref().map_or(0, FactsList::bytes) + sorted.sum::<usize>()
    }
}

impl DirJob {
    pub(super) fn start(task: DirTask) -> DirJob {
        let (job, run) = DirJob::later(task);
        run.start();
        job
    }

    /// A job to be started by a thread of the caller's (see
    /// [`JobRun::begin`]), and its handle.
    pub(super) fn later(task: DirTask) -> (DirJob, JobRun) {
        let shared = Arc::new(Shared::default());
        let (beat, watched) = parallel::watch_later();
        let job = DirJob {
            shared: Arc::clone(&shared),
            identify: task.identify,
            context: Arc::clone(&task.context),
            watched: Some(watched),
        };
        (job, JobRun { task, shared, beat })
    }

    /// When the job's requests ended, if they have.
    pub(super) fn ended_at(&self) -> Option<Instant> {
        lock(&self.shared.progress).ended_at
    }

    /// Whether what the walk waits for has ended.
    pub(super) fn ended(&self) -> bool {
        self.watched.as_ref().is_none_or(Watched::ended)
    }

    /// Waits until the directory is read (and, without a deadline, what is
    /// done ahead), or its request in flight has waited the deadline, and
    /// takes what was learned: the open's error, or the descriptor,
    /// identity and names (made and sorted, when the job could), cut short
    /// where a request was given up, and the probes under way. Also
    /// whether a request was given up (its thread is left stuck in it).
    /// Under a deadline the walk first `look`s for the job's end a moment.
    pub(super) fn wait(self, look: bool) -> (Outcome, bool) {
        // A large directory's entries are made while it is still read.
        let mut made = Vec::new();
        let mut given_up = false;
        if let (Some(watched), Some(_), true) = (&self.watched, self.context.deadline, look) {
            watched.look_for_end();
        }
        while let Some(watched) = &self.watched {
            let until = self
                .context
                .deadline
                .map(|_| Instant::now() + WATCHED_WAKE_EVERY);
            if let Some(ended) = watched.wait_until(self.context.deadline, until) {
                given_up = !ended;
                break;
            }
            let mut progress = lock(&self.shared.progress);
            if progress.sorting {
                continue;
            }
            let names = std::mem::take(&mut progress.names);
            progress.walk_took = true;
            drop(progress);
            self.context.buffers.unpack(names, &mut made);
        }
        let mut progress = lock(&self.shared.progress);
        while progress.sorting {
            progress.walk_waits = true;
            progress = (self.shared.sorted.wait(progress)).unwrap_or_else(|e| e.into_inner());
        }
        let fd = match progress.opened.take() {
            Some(Ok(fd)) => fd,
            Some(Err(e)) => return (Err(e), given_up),
            None => return (Err(parallel::timed_out()), given_up),
        };
        // The job's own reference is gone once it ended; else a copy.
        let fd = match Arc::try_unwrap(fd).or_else(|fd| fd.try_clone()) {
            Ok(fd) => fd,
            Err(e) => return (Err(e), given_up),
        };
        let ident = (self.identify)
            .then(|| (progress.ident.take()).unwrap_or_else(|| Err(parallel::timed_out())));
        let read_error = match progress.read.take() {
            Some(error) => error,
            None => Some(parallel::timed_out()),
        };
        let probing = progress.probes.take();
        if let Some(probes) = &probing {
            // Reading given up: the probes are those of the names taken.
            probes.seal();
        }
        let names = std::mem::take(&mut progress.names);
        let listing = match progress.sorted.take() {
            Some(entries) => Listing::Sorted(entries),
            None if made.is_empty() => Listing::Names(names),
            None => {
                self.context.buffers.unpack(names, &mut made);
                Listing::Made(made)
            }
        };
        let read = DirRead {
            fd,
            ident,
            listing: Some((listing, read_error)),
            facts: progress.facts.take(),
            probing,
        };
        (Ok(read), given_up)
    }
}

/// The job: open, identify, read (handing names over a getdents answer at
/// a time), then what can be done ahead of the walk (see the module's
/// doc); returns its first subdirectory's task, when asked for.
fn run_job(mut task: DirTask, shared: &Shared, beat: Beat, probe_here: bool) -> Option<DirTask> {
    let progress = &shared.progress;
    // The parent's descriptor is let go once opened from: the walk takes
    // it whole when it lists the parent.
    let parent = task.parent.take();
    let base = (parent.as_ref()).map_or(Base::Cwd, |p| Base::Dir(p.as_fd()));
    let opened = open_dir(base, &task.name);
    drop(parent);
    let fd = match opened {
        Ok(fd) => Arc::new(fd),
        Err(e) => {
            lock(progress).opened = Some(Err(e));
            return None;
        }
    };
    lock(progress).opened = Some(Ok(Arc::clone(&fd)));
    let mut dev = None;
    if task.identify {
        beat.request();
        let ident = stat_fd(fd.as_fd(), Need::INO, true);
        dev = ident.as_ref().ok().map(|m| m.dev());
        lock(progress).ident = Some(ident);
    }
    beat.request();
    let context = &task.context;
    let watched = context.deadline.is_some();
    // Under a deadline, every entry probed, of a large local directory:
    // the probes start while it is read, as without the option.
    let early = (watched && context.plan.probes_files())
        .then(|| parallel::probe_while_reading(&context.config))
        .flatten()
        .and_then(
            |from| match parallel::probe_strategy(&context.config, fd.as_fd(), dev, from) {
                Strategy::Probes(shape) if shape.splits() => Some((from, shape)),
                _ => None,
            },
        )
        .map(|(from, shape)| (from, new_probes(&task, &fd, shape)));
    if let Some((_, probes)) = &early {
        lock(progress).probes = Some(Arc::clone(probes));
    }
    let filter = Filter::new(&context.config);
    let mut helped = false;
    let batch = RefCell::new(PackedNames::default());
    // The names read since the last hand-over go to the walk, and to the
    // probes started early (both under one lock: the walk that gives the
    // reading up seals the probes with the names it takes).
    let hand_over = |progress: &mut Progress| {
        let mut batch = batch.borrow_mut();
        if let Some((_, probes)) = &early {
            probes.add_packed(batch.parts());
        }
        progress.names.append(&mut batch);
    };
    let read_error = read_dir_batches(
        fd.as_fd(),
        |name| filter.keep(name),
        |d| {
            // The first batch, and under a deadline each after one handed
            // over whole (moved to the walk's side, leaving no room): a
            // buffer of full room, never one grown from nothing.
            let mut batch = batch.borrow_mut();
            if batch.room() == 0 {
                *batch = context.buffers.names.take();
                batch.reserve(NAME_BUFFER_START);
            }
            batch.push(d.name, d.file_type);
        },
        || {
            // Without a deadline nobody takes names while the directory
            // is read: they go over once, whole (no copy, no hole left in
            // the thread's heap by a batch moved away).
            if !watched {
                return beat.request();
            }
            let mut read = lock(progress);
            hand_over(&mut read);
            let count = read.names.len();
            drop(read);
            if let Some((from, probes)) = early.as_ref().filter(|_| !helped) {
                if count >= *from {
                    probes.help(probes.workers() - 1);
                    helped = true;
                }
            }
            beat.request();
        },
    );
    let mut read = lock(progress);
    hand_over(&mut read);
    read.read = Some(read_error);
    read.ended_at = Some(Instant::now());
    // The entries' `Probes`, where `parallel` shapes them so (under a
    // deadline always; without one a network directory, or any with
    // `STATLS_THREADS=N`, whose facts fit what one directory may hold
    // ahead: a large local one does not, and is left to the walk, which
    // splits it over the CPUs): started now if not while it was
    // read, unless the walk took names while it was read (the probes
    // would be those of the rest alone, their facts handed to the first
    // entries: the walk then probes its entries itself).
    let probed = context.plan.count_probed(read.names.types());
    let probes = early.map(|(_, probes)| probes).or_else(|| {
        if probed == 0 || read.walk_took || (!watched && probed > PROBE_AHEAD_MAX) {
            return None;
        }
        let Strategy::Probes(shape) =
            parallel::probe_strategy(&context.config, fd.as_fd(), dev, probed)
        else {
            return None;
        };
        let probes = new_probes(&task, &fd, shape);
        probes.add_packed(read.names.parts());
        read.probes = Some(Arc::clone(&probes));
        Some(probes)
    });
    let probes = probes.filter(|_| probe_here);
    if let Some(probes) = &probes {
        probes.seal();
        probes.enlist();
    }
    // No `Probes`: the entries are made and sorted here (without a
    // deadline, a small directory's probed first, one at a time), unless
    // the walk takes the names first.
    let names = (read.probes.is_none() && !read.walk_took).then(|| std::mem::take(&mut read.names));
    read.sorting = names.is_some();
    drop(read);
    let parent = (task.first_child && names.is_some()).then(|| Arc::clone(&fd));
    // Under a deadline the walk waits with a limit for the reading alone
    // (the probes are watched on their own, and sorting makes no
    // request); without one, for what the job does but its `Probes`, which
    // the walk joins after printing the directory's heading, as GNU
    // prints it before its first stat (which may hang).
    let beat = (!watched).then_some(beat);
    let mut child = None;
    if let Some(names) = names {
        let facts = (!watched && probed > 0 && probed <= PROBE_AHEAD_MAX).then(|| {
            let prober = Prober {
                plan: &context.plan,
                xattrs: &context.xattrs,
                dir: InDir {
                    fd: fd.as_fd(),
                    path: &task.path,
                },
                lookup: Lookup::ByName,
            };
            names.probe(&prober)
        });
        let sort = (&*context.config, context.collate_bytes);
        let sorted = sorted_ahead(sort, (names, &context.buffers), facts, probed);
        child = parent
            .zip(sorted.as_ref().ok())
            .and_then(|(fd, e)| first_child(&task, fd, e));
        let mut read = lock(progress);
        match sorted {
            Ok(entries) => read.sorted = Some(entries),
            Err((names, facts)) => (read.names, read.facts) = (names, facts),
        }
        read.sorting = false;
        let walk_waits = read.walk_waits;
        drop(read);
        if walk_waits {
            shared.sorted.notify_all();
        }
    }
    drop(fd);
    drop(beat);
    if let Some(probes) = probes {
        probes.work();
    }
    child
}

/// The task of the first subdirectory among `entries` (sorted: the one
/// the walk lists next), opened under `fd`, asking for its own first
/// child in turn.
fn first_child(task: &DirTask, fd: Arc<OwnedFd>, entries: &[Entry]) -> Option<DirTask> {
    let dir = entries.iter().find(|e| super::is_listed_below(e))?;
    Some(DirTask {
        parent: Some(fd),
        name: dir.name.clone(),
        path: crate::sys::path::child_path(&task.path, dir.name_bytes()),
        identify: true,
        first_child: true,
        context: Arc::clone(&task.context),
    })
}

/// The probes of the entries the job reads, none added yet.
fn new_probes(task: &DirTask, fd: &Arc<OwnedFd>, shape: Shape) -> Arc<Probes> {
    let context = &task.context;
    Probes::new(
        (Arc::clone(&context.plan), Arc::clone(&context.xattrs)),
        (Arc::clone(fd), task.path.clone()),
        shape,
    )
}
