//! What a directory's probes (`probes`) hand over, and how: the entries
//! added at once (`Segment`: names packed, facts published a run at a
//! time), the facts handed to the walk in entry order as they are
//! published (`InOrder`), and under `--timeout` what a probe knew when a
//! request after its stat started (`Known`, for the facts of an entry
//! given up there). Not the workers, nor who waits for them.
#![forbid(unsafe_code)]

use std::collections::{BTreeMap, VecDeque};
use std::ffi::CStr;
use std::sync::{Arc, Mutex};

use super::probe::{Facts, FactsList};
use crate::entry::LinkTarget;
use crate::parallel::{self, lock};
use crate::sys::{FileType, Metadata};

/// The facts of an entry whose stat was given up.
pub(super) fn stat_failed() -> Facts {
    Facts::failed(parallel::timed_out())
}

/// The names of `bytes`, back to back, each with its NUL: each found by
/// `memchr` (a byte-by-byte split made unpacking 100 000 names 6 ms).
pub(super) fn names_in(bytes: &[u8]) -> impl Iterator<Item = &CStr> {
    let mut rest = bytes;
    std::iter::from_fn(move || {
        let name = CStr::from_bytes_until_nul(rest).ok()?;
        rest = &rest[name.to_bytes_with_nul().len()..];
        Some(name)
    })
}

/// Entries added at once (a directory's probes may start while it is
/// still read): their names and the facts published, a run of entries at
/// a time (by a worker, at the end of its chunk and watched every
/// [`WATCHED_PUBLISH`](crate::parallel::tuning::WATCHED_PUBLISH) entries;
/// given up, by whoever waits).
pub(super) struct Segment {
    /// The index of its first entry in the directory.
    pub(super) start: usize,
    /// The names back to back, each with its NUL, and where each ends.
    bytes: Vec<u8>,
    ends: Vec<usize>,
    types: Vec<FileType>,
    pub(super) results: Mutex<Vec<(usize, FactsList)>>,
}

/// The facts published, handed over in entry order as soon as every
/// entry before them was.
#[derive(Default)]
pub(super) struct InOrder {
    /// The segments not yet handed over whole, in order: one handed over
    /// is let go (its names freed once no worker holds it).
    segments: VecDeque<Arc<Segment>>,
    next: usize,
    ready: BTreeMap<usize, FactsList>,
}

impl InOrder {
    /// Segments added after those known.
    pub(super) fn learn(&mut self, segments: impl Iterator<Item = Arc<Segment>>) {
        self.segments.extend(segments);
    }

    /// Takes what was published and records what can be, in order: only
    /// the segment of the next entry is looked at (and those after it as
    /// each is handed over whole), so a hand-over costs no lock per
    /// segment of the directory.
    pub(super) fn drain(&mut self, record: &mut impl FnMut(Facts)) {
        while let Some(segment) = self.segments.front() {
            self.ready.extend(lock(&segment.results).drain(..));
            while let Some(run) = self.ready.first_entry() {
                if *run.key() > self.next {
                    break;
                }
                let start = *run.key();
                for (item, facts) in (start..).zip(run.remove()) {
                    if item >= self.next {
                        record(facts);
                        self.next = item + 1;
                    }
                }
            }
            if self.next < segment.start + segment.len() {
                break;
            }
            self.segments.pop_front();
        }
    }

    /// Records the rest, up to entry `n` (an entry never published, which
    /// cannot be once every entry was counted, as given up).
    pub(super) fn finish(&mut self, n: usize, record: &mut impl FnMut(Facts)) {
        loop {
            self.drain(record);
            if self.next >= n {
                return;
            }
            record(stat_failed());
            self.next += 1;
        }
    }
}

impl Segment {
    pub(super) fn new(
        start: usize,
        names: impl Iterator<Item = (impl AsRef<CStr>, FileType)>,
    ) -> Segment {
        let n = names.size_hint().0;
        let mut segment = Segment {
            start,
            // Room for names of a typical length, allocated once.
            bytes: Vec::with_capacity(n * 24),
            ends: Vec::with_capacity(n),
            types: Vec::with_capacity(n),
            results: Mutex::default(),
        };
        for (name, file_type) in names {
            (segment.bytes).extend_from_slice(name.as_ref().to_bytes_with_nul());
            segment.ends.push(segment.bytes.len());
            segment.types.push(file_type);
        }
        segment
    }

    /// The same from names packed as read: back to back, each with its
    /// NUL, and their types.
    pub(super) fn packed(start: usize, (bytes, types): (&[u8], &[FileType])) -> Segment {
        // At its full size: grown from a small block, it would grow in
        // whichever thread's malloc arena made that block, under that
        // arena's lock (see `NAME_BUFFER_START`).
        let mut ends = Vec::with_capacity(types.len());
        let mut end = 0;
        for name in names_in(bytes) {
            end += name.to_bytes_with_nul().len();
            ends.push(end);
        }
        Segment {
            start,
            bytes: bytes.to_vec(),
            ends,
            types: types.to_vec(),
            results: Mutex::default(),
        }
    }

    pub(super) fn len(&self) -> usize {
        self.types.len()
    }

    pub(super) fn name(&self, item: usize) -> (&CStr, FileType) {
        let i = item - self.start;
        let from = i.checked_sub(1).map_or(0, |j| self.ends[j]);
        let name = CStr::from_bytes_with_nul(&self.bytes[from..self.ends[i]]).unwrap_or_default();
        (name, self.types[i])
    }
}

/// What a probe knew when a request after its stat started.
pub(super) enum Known {
    Xattrs(Metadata),
    ReadLink(Metadata),
    Target(Metadata, Option<Vec<u8>>),
}

impl Known {
    /// The facts of the entry with its request in flight given up.
    pub(super) fn given_up_facts(&self) -> Facts {
        let timed_out = parallel::timed_out;
        match self {
            Known::Xattrs(meta) => {
                let mut facts = Facts {
                    stat: Some(Ok(meta.clone())),
                    ..Facts::default()
                };
                facts.problems.xattr = Some(timed_out());
                facts
            }
            Known::ReadLink(meta) => {
                let mut facts = Facts {
                    stat: Some(Ok(meta.clone())),
                    link: Some(Box::default()),
                    ..Facts::default()
                };
                facts.problems.read_link = Some(timed_out());
                facts
            }
            Known::Target(meta, path) => Facts {
                stat: Some(Ok(meta.clone())),
                link: Some(Box::new(LinkTarget {
                    path: path.clone(),
                    broken: true,
                    ..LinkTarget::default()
                })),
                ..Facts::default()
            },
        }
    }
}
