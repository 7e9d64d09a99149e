//! What a directory's job (`job`) hands the walk: its descriptor, its
//! identity, its names packed, their probes, or its entries made and
//! sorted, and how many bytes those hold while they wait. Not who runs
//! the job, nor when (`ahead`).
#![forbid(unsafe_code)]

use std::ffi::CStr;
use std::os::fd::{AsFd, OwnedFd};
use std::sync::{Arc, Mutex};

use super::handover::names_in;
use super::probe::{FactsList, Prober};
use super::probes::Probes;
use crate::config::Config;
use crate::entry::Entry;
use crate::options::SortKey;
use crate::parallel::lock;
use crate::parallel::tuning::{BUFFERS_KEPT, BUFFER_KEPT_MAX, HELD_BYTES_ONE_DIR};
use crate::sort::{apply_order, sorted_order};
use crate::sys::dir::open_dir;
use crate::sys::stat::{stat_fd, Base, Need};
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

    /// The names' types, in order.
    pub fn types(&self) -> impl Iterator<Item = FileType> + '_ {
        self.types.iter().copied()
    }

    /// The names back to back, each with its NUL, and their types.
    pub fn parts(&self) -> (&[u8], &[FileType]) {
        (&self.bytes, &self.types)
    }

    /// Room for `bytes` more bytes of names and `names` more names.
    pub fn reserve(&mut self, (bytes, names): (usize, usize)) {
        self.bytes.reserve(bytes);
        self.types.reserve(names);
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
    pub fn bytes(&self) -> usize {
        self.bytes.len() + self.types.len()
    }

    pub fn iter(&self) -> impl Iterator<Item = (&CStr, FileType)> {
        names_in(&self.bytes).zip(self.types.iter().copied())
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

/// Buffers a job fills and the walk empties (names read, entries made),
/// passed back for the next jobs to fill again: a job's buffer freed on
/// the walk's thread went back to the job thread's malloc arena under that
/// arena's lock, which the job thread holds while it allocates (`ls -R
/// --timeout=30` of 200 x 1 000 in en_US.UTF-8: the walk slept on it about
/// 140 times; of 400 x 120 in C, about 50, freeing entry vectors).
pub struct Recycled<T>(Mutex<Vec<T>>);

/// What a [`Recycled`] buffer is: emptied keeping its room.
pub trait Buffer: Default {
    fn empty(&mut self);
    /// Bytes of room.
    fn room(&self) -> usize;
}

impl Buffer for PackedNames {
    fn empty(&mut self) {
        self.bytes.clear();
        self.types.clear();
    }

    fn room(&self) -> usize {
        self.bytes.capacity() + self.types.capacity()
    }
}

impl Buffer for Vec<Entry> {
    fn empty(&mut self) {
        self.clear();
    }

    fn room(&self) -> usize {
        self.capacity() * std::mem::size_of::<Entry>()
    }
}

impl<T> Default for Recycled<T> {
    fn default() -> Self {
        Recycled(Mutex::new(Vec::new()))
    }
}

impl<T: Buffer> Recycled<T> {
    /// An empty buffer, with room from an earlier directory if one is kept.
    pub fn take(&self) -> T {
        lock(&self.0).pop().unwrap_or_default()
    }

    /// Keeps `buffer`'s room for a later job, up to [`BUFFERS_KEPT`]
    /// buffers of [`BUFFER_KEPT_MAX`] bytes at most.
    pub fn give_back(&self, mut buffer: T) {
        if buffer.room() > BUFFER_KEPT_MAX {
            return;
        }
        buffer.empty();
        let mut kept = lock(&self.0);
        if kept.len() < BUFFERS_KEPT {
            kept.push(buffer);
        }
    }
}

/// The buffers of both kinds the jobs fill and the walk empties.
#[derive(Default)]
pub struct Buffers {
    pub names: Recycled<PackedNames>,
    pub entries: Recycled<Vec<Entry>>,
}

impl Buffers {
    /// Appends the entries of `names` to `out`, keeping their buffer for
    /// the next jobs.
    pub fn unpack(&self, names: PackedNames, out: &mut Vec<Entry>) {
        names.unpack_into(out);
        self.names.give_back(names);
    }
}

/// Entries up to which a job also probes what it read ahead (their facts
/// fill at most [`HELD_BYTES_ONE_DIR`]): beyond, the walk probes the
/// directory itself, on as many threads as pays.
pub(super) const PROBE_AHEAD_MAX: usize = HELD_BYTES_ONE_DIR / FactsList::ENTRY_BYTES;

/// A directory read ahead: `Err` if it could not be opened.
pub type Outcome = std::io::Result<DirRead>;

/// Heap bytes of one entry made ahead: the record, its name and its stat,
/// each allocation with malloc's 16 bytes.
pub(super) fn entry_bytes(e: &Entry) -> usize {
    let meta = e
        .meta
        .as_ref()
        .map_or(0, |_| std::mem::size_of::<Metadata>() + 16);
    std::mem::size_of::<Entry>() + e.name.as_bytes().len() + 17 + meta
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

/// The entries of `names`, `facts` recorded, sorted as the walk would sort
/// them, when that can be done ahead: every entry the plan probes was
/// probed and none went wrong (what goes wrong is reported by the walk, in
/// the order read), the sort needs nothing of the printer (`--sort=width`
/// measures names as printed), and the entries fit half the budget of
/// what may wait (in a vector of `buffers`, taken only then; the names'
/// buffer goes back to them). Otherwise the names and the facts back, for
/// the walk.
pub fn sorted_ahead(
    (config, collate_bytes): (&Config, bool),
    (names, buffers): (PackedNames, &Buffers),
    facts: Option<FactsList>,
    probed: usize,
) -> Result<Vec<Entry>, (PackedNames, Option<FactsList>)> {
    let complete = match &facts {
        Some(facts) => !facts.any_problem(),
        None => probed == 0,
    };
    let per_entry = std::mem::size_of::<Entry>() + 48 + std::mem::size_of::<Metadata>();
    let fits = names.types.len() * per_entry <= HELD_BYTES_ONE_DIR;
    if !complete || !fits || config.sort == SortKey::Width {
        return Err((names, facts));
    }
    let mut entries = buffers.entries.take();
    buffers.unpack(names, &mut entries);
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn packed_names_come_back_in_order_with_their_types() {
        let names: [&[u8]; 4] = [b"a", b"\xe4 b\n", b"", b".hidden"];
        let mut packed = PackedNames::default();
        for (i, name) in names.iter().enumerate() {
            let t = [FileType::Regular, FileType::Directory][i % 2];
            packed.push(&std::ffi::CString::new(*name).unwrap(), t);
        }
        let back: Vec<_> = packed.iter().map(|(n, t)| (n.to_bytes(), t)).collect();
        let kinds = [FileType::Regular, FileType::Directory];
        let expected: Vec<_> = (names.iter().enumerate())
            .map(|(i, n)| (*n, kinds[i % 2]))
            .collect();
        assert_eq!(back, expected);
        let segment = super::super::handover::Segment::packed(10, packed.parts());
        assert_eq!(segment.name(12).0.to_bytes(), b"");
        assert_eq!(segment.name(13).0.to_bytes(), b".hidden");
    }

    #[test]
    fn a_buffer_given_back_is_handed_out_again_empty_with_its_room() {
        let buffers = Recycled::<PackedNames>::default();
        let mut names = buffers.take();
        names.reserve((4096, 256));
        names.push(c"a", FileType::Regular);
        let room = names.bytes.capacity();
        buffers.give_back(names);
        let again = buffers.take();
        assert_eq!(again.len(), 0);
        assert_eq!(again.bytes.capacity(), room);
        // None kept now: a new one has no room yet.
        assert_eq!(buffers.take().bytes.capacity(), 0);
    }

    #[test]
    fn buffers_kept_are_bounded_in_number_and_size() {
        let buffers = Recycled::<PackedNames>::default();
        let mut large = PackedNames::default();
        large.reserve((BUFFER_KEPT_MAX + 1, 1));
        buffers.give_back(large);
        assert_eq!(
            lock(&buffers.0).len(),
            0,
            "a buffer past the size kept is let go"
        );
        for _ in 0..BUFFERS_KEPT + 3 {
            let mut names = PackedNames::default();
            names.reserve((64, 4));
            buffers.give_back(names);
        }
        assert_eq!(lock(&buffers.0).len(), BUFFERS_KEPT);
    }
}
