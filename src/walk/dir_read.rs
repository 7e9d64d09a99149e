//! A directory read ahead with `-R`: what a read-ahead worker learns of
//! one directory before the walk lists it (its descriptor, its identity,
//! its names packed, their probes, or its entries made and sorted), how
//! it is read, and how many bytes it holds while it waits. Not the pool
//! of workers, its window and its staleness (`prefetch`).
#![forbid(unsafe_code)]

use std::ffi::CStr;
use std::os::fd::{AsFd, BorrowedFd, OwnedFd};
use std::sync::Arc;

use super::filter::Filter;
use super::probe::{FactsList, Prober};
use super::probes::Probes;
use crate::config::Config;
use crate::entry::Entry;
use crate::options::SortKey;
use crate::parallel::tuning::HELD_BYTES_MAX;
use crate::parallel::{self, Lookup, Strategy};
use crate::plan::Plan;
use crate::sort::{apply_order, sorted_order};
use crate::sys::dir::{open_dir, read_dir_each, DirBuffer};
use crate::sys::stat::{stat_fd, Base, Need};
use crate::sys::xattr::{AclProbe, InDir};
use crate::sys::{FileType, Metadata};

/// Everything about a directory that can be learned before it is listed.
pub struct DirRead {
    pub fd: OwnedFd,
    /// The `(dev, ino)` stat for loop detection (`-R` only).
    pub ident: Option<std::io::Result<Metadata>>,
    /// The entries kept by the filter, and the error that ended reading.
    pub listing: Option<(Listing, Option<std::io::Error>)>,
    /// The entries' probes, in entry order, when done ahead (and not yet
    /// recorded in a sorted listing).
    pub facts: Option<FactsList>,
    /// With `--timeout`: the entries' probes under way on watched threads.
    pub probing: Option<Arc<Probes>>,
}

/// A directory's entries as read ahead.
pub enum Listing {
    /// The names, in the order read.
    Names(PackedNames),
    /// The entries made, their probes recorded and sorted as the walk
    /// sorts them: only printing is left.
    Sorted(Vec<Entry>),
    /// The entries made, in the order read (nothing probed or sorted).
    Made(Vec<Entry>),
}

/// Entries read ahead, compactly: the names back to back (each with its
/// NUL) and their `d_type`s. Waiting results cost a few bytes per entry
/// and no allocation per name; the walk makes entries of them when it
/// reaches the directory.
#[derive(Default)]
pub struct PackedNames {
    bytes: Vec<u8>,
    types: Vec<FileType>,
}

impl PackedNames {
    pub fn push(&mut self, name: &CStr, file_type: FileType) {
        self.bytes.extend_from_slice(name.to_bytes_with_nul());
        self.types.push(file_type);
    }

    /// The names back to back, each with its NUL, and their types.
    pub fn parts(&self) -> (&[u8], &[FileType]) {
        (&self.bytes, &self.types)
    }

    /// Moves the names of `other` to the end of these.
    pub fn append(&mut self, other: &mut PackedNames) {
        if self.types.is_empty() {
            std::mem::swap(self, other);
            return;
        }
        self.bytes.append(&mut other.bytes);
        self.types.append(&mut other.types);
    }

    /// Bytes held.
    fn bytes(&self) -> usize {
        self.bytes.len() + self.types.len()
    }

    pub fn iter(&self) -> impl Iterator<Item = (&CStr, FileType)> {
        self.bytes
            .split_inclusive(|&b| b == 0)
            .filter_map(|n| CStr::from_bytes_with_nul(n).ok())
            .zip(self.types.iter().copied())
    }

    pub fn len(&self) -> usize {
        self.types.len()
    }

    /// What `prober` learns of each name, in order.
    pub fn probe(&self, prober: &Prober<'_>) -> FactsList {
        let mut facts = FactsList::with_capacity(self.len());
        for (name, file_type) in self.iter() {
            facts.push(prober.probe(name, file_type));
        }
        facts
    }

    /// Appends the entries to `out`.
    pub fn unpack_into(&self, out: &mut Vec<Entry>) {
        out.reserve(self.types.len());
        out.extend(self.iter().map(|(n, t)| Entry::new(n.to_owned(), t)));
    }
}

/// Entries up to which a worker also probes what it read ahead (their
/// facts fill at most half the budget of what may wait): beyond, the walk
/// probes the directory itself, on as many threads as pays.
const PROBE_AHEAD_MAX: usize = HELD_BYTES_MAX / 2 / FactsList::ENTRY_BYTES;

/// A directory read ahead: `Err` if it could not be opened.
pub type Outcome = std::io::Result<DirRead>;

/// What the workers share with the walk (read-only).
#[derive(Clone)]
pub struct Context<'a> {
    pub config: &'a Config,
    /// Names sort in byte order (the walk's `collate_bytes`).
    pub collate_bytes: bool,
    pub plan: Arc<Plan>,
    pub xattrs: Arc<AclProbe>,
}

/// Heap bytes of one entry made ahead: the record, its name and its stat,
/// each allocation with malloc's 16 bytes.
fn entry_bytes(e: &Entry) -> usize {
    let meta = e
        .meta
        .as_ref()
        .map_or(0, |_| std::mem::size_of::<Metadata>() + 16);
    std::mem::size_of::<Entry>() + e.name.as_bytes().len() + 17 + meta
}

/// Bytes a result read ahead holds until it is listed.
pub fn bytes_in(outcome: &Outcome) -> usize {
    match outcome {
        Ok(read) => {
            let listing = match read.listing.as_ref() {
                Some((Listing::Names(names), _)) => names.bytes(),
                Some((Listing::Sorted(entries) | Listing::Made(entries), _)) => {
                    entries.iter().map(entry_bytes).sum()
                }
                None => 0,
            };
            listing + read.facts.as_ref().map_or(0, FactsList::bytes)
        }
        Err(_) => 0,
    }
}

/// Opens the directory `name` under `base`, and with `-R` (`identify`)
/// asks it for its (dev, ino): loop detection needs nothing else, so from
/// the cache (no server round-trip on network filesystems). Not read yet.
pub fn open_identified(base: Base<'_>, name: &CStr, identify: bool) -> Outcome {
    let fd = open_dir(base, name)?;
    Ok(DirRead {
        ident: identify.then(|| stat_fd(fd.as_fd(), Need::INO, true)),
        fd,
        listing: None,
        facts: None,
        probing: None,
    })
}

/// Opens, identifies and reads one directory, and probes its entries when
/// they would be probed one at a time anyway.
pub fn read_ahead(
    context: &Context<'_>,
    parent: BorrowedFd<'_>,
    name: &CStr,
    path: &[u8],
    buffer: &mut DirBuffer,
) -> Outcome {
    let opened = open_identified(Base::Dir(parent), name, true)?;
    let fd = opened.fd;
    let ident = opened.ident;
    let dev = ident
        .as_ref()
        .and_then(|i| i.as_ref().ok())
        .map(|m| m.dev());
    let filter = Filter::new(context.config);
    let mut names = PackedNames::default();
    let read_error = read_dir_each(
        fd.as_fd(),
        buffer,
        |name| filter.keep(name),
        |d| names.push(&d.name, d.file_type),
    );
    let probed = context.plan.count_probed(names.types.iter().copied());
    let strategy = parallel::probe_strategy(context.config, fd.as_fd(), dev, probed);
    // Only what is probed one at a time anyway: a large local directory is
    // left to the walk, which splits it; a network one too, whose probes
    // may wait on the server: the walk prints its heading first, as GNU,
    // which matters when one of them hangs.
    let one_at_a_time = matches!(strategy, Strategy::Sequential);
    let facts = (probed > 0 && probed <= PROBE_AHEAD_MAX && one_at_a_time).then(|| {
        let prober = Prober {
            plan: &context.plan,
            xattrs: &context.xattrs,
            dir: InDir {
                fd: fd.as_fd(),
                path,
            },
            lookup: Lookup::ByName,
        };
        names.probe(&prober)
    });
    let (listing, facts) = match sorted_ahead(
        (context.config, context.collate_bytes),
        &names,
        facts,
        probed,
    ) {
        Ok(entries) => (Listing::Sorted(entries), None),
        Err(facts) => (Listing::Names(names), facts),
    };
    Ok(DirRead {
        fd,
        ident,
        listing: Some((listing, read_error)),
        facts,
        probing: None,
    })
}

/// The entries of `names`, `facts` recorded, sorted as the walk would sort
/// them, when that can be done ahead: every entry the plan probes was
/// probed and none went wrong (what goes wrong is reported by the walk, in
/// the order read), the sort needs nothing of the printer (`--sort=width`
/// measures names as printed), and the entries fit half the budget of
/// what may wait. Otherwise the facts back, for the walk.
pub fn sorted_ahead(
    (config, collate_bytes): (&Config, bool),
    names: &PackedNames,
    facts: Option<FactsList>,
    probed: usize,
) -> Result<Vec<Entry>, Option<FactsList>> {
    let complete = match &facts {
        Some(facts) => !facts.any_problem(),
        None => probed == 0,
    };
    let per_entry = std::mem::size_of::<Entry>() + 48 + std::mem::size_of::<Metadata>();
    let fits = names.types.len() * per_entry <= HELD_BYTES_MAX / 2;
    if !complete || !fits || config.sort == SortKey::Width {
        return Err(facts);
    }
    let mut entries = Vec::new();
    names.unpack_into(&mut entries);
    if let Some(facts) = facts {
        for (entry, facts) in entries.iter_mut().zip(facts) {
            // Nothing to report: checked above.
            let _ = facts.record_into(entry);
        }
    }
    if let Some(order) = sorted_order(&entries, config, collate_bytes, &|_| 0) {
        apply_order(&mut entries, order);
    }
    Ok(entries)
}
