//! What the plan asks to know about one directory entry — its stat, its
//! symlink's target, its ACL marker and security context — gathered without
//! printing anything, so that the entries of a directory can be probed one
//! after another or by several threads at once with the same results.
//!
//! Errors are handed back, not reported: the walker reports them in
//! directory order, which keeps stderr identical whichever way was used.
#![forbid(unsafe_code)]

use std::ffi::CStr;
use std::os::fd::{AsFd, BorrowedFd};

use crate::entry::{Entry, LinkTarget};
use crate::parallel::Lookup;
use crate::plan::Plan;
use crate::sys::limits::is_descriptor_exhaustion;
use crate::sys::stat::{open_handle, read_link, read_link_handle, stat_at, stat_fd};
use crate::sys::stat::{Base, Need, StatFlags};
use crate::sys::xattr::{AccessMarker, AclProbe, InDir, Target};
use crate::sys::{FileType, Metadata};

/// Everything learned about one entry.
#[derive(Default)]
pub struct Facts {
    /// None when the plan needs no stat for the entry's type.
    pub stat: Option<std::io::Result<Metadata>>,
    /// Boxed, as in the entry: most entries are not links.
    pub link: Option<Box<LinkTarget>>,
    pub access: AccessMarker,
    pub context: Option<Vec<u8>>,
    /// Has file capabilities (see [`Plan::capability`]).
    pub capability: bool,
    /// What went wrong after the stat, to be reported.
    pub problems: Problems,
}

/// What went wrong probing one entry, for the walker to report in
/// directory order, in GNU's order: the stat (then nothing else is
/// probed), the ACL/context probe (`ls: NAME: error`, status unchanged),
/// the symlink's contents (`cannot read symbolic link`).
#[derive(Debug, Default)]
pub struct Problems {
    pub stat: Option<std::io::Error>,
    pub xattr: Option<std::io::Error>,
    pub read_link: Option<std::io::Error>,
}

impl Problems {
    pub fn is_empty(&self) -> bool {
        self.stat.is_none() && self.xattr.is_none() && self.read_link.is_none()
    }
}

impl Facts {
    /// The facts of an entry whose stat failed with `error`.
    pub fn failed(error: std::io::Error) -> Facts {
        Facts {
            stat: Some(Err(error)),
            ..Facts::default()
        }
    }

    /// Stores what was learned in `entry`: a vanished or unreadable entry
    /// keeps its name and is marked for `?`s. What went wrong is handed
    /// back for the caller to report in directory order.
    pub fn record_into(self, entry: &mut Entry) -> Problems {
        match self.stat {
            None => return Problems::default(),
            Some(Ok(meta)) => {
                if let Some(t) = meta.file_type() {
                    entry.file_type = t;
                }
                entry.meta = Some(Box::new(meta));
            }
            Some(Err(err)) => {
                entry.stat_failed = true;
                return Problems {
                    stat: Some(err),
                    ..Problems::default()
                };
            }
        }
        entry.link = self.link;
        entry.access = self.access;
        entry.context = self.context.map(Box::new);
        entry.capability = self.capability;
        self.problems
    }
}

/// The facts of a directory's entries, in entry order, held compactly
/// while a directory read ahead waits for its turn: an entry whose probe
/// found a stat and nothing else (no link, no context, no problem: nearly
/// every entry) costs its metadata and marker (88 bytes) instead of a
/// whole `Facts` (160).
#[derive(Default)]
pub struct FactsList(Vec<Held>);

pub enum Held {
    /// Not probed: the plan needs nothing for the entry's type.
    Nothing,
    Stat(Metadata, AccessMarker),
    Other(Box<Facts>),
}

impl FactsList {
    /// Bytes held per entry, for the read-ahead's memory budget.
    pub const ENTRY_BYTES: usize = std::mem::size_of::<Held>();

    /// Whether some probe went wrong: the walk reports that in read order.
    pub fn any_problem(&self) -> bool {
        self.0.iter().any(|held| match held {
            Held::Other(f) => !f.problems.is_empty() || matches!(f.stat, Some(Err(_))),
            _ => false,
        })
    }

    /// Bytes held for these entries.
    pub fn bytes(&self) -> usize {
        self.0.len() * FactsList::ENTRY_BYTES
    }
}

impl FactsList {
    /// Room for `entries` entries, allocated once.
    pub fn with_capacity(entries: usize) -> FactsList {
        FactsList(Vec::with_capacity(entries))
    }

    pub fn push(&mut self, facts: Facts) {
        self.0.push(Held::from(facts));
    }

    pub fn len(&self) -> usize {
        self.0.len()
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

impl IntoIterator for FactsList {
    type Item = Facts;
    type IntoIter = std::iter::Map<std::vec::IntoIter<Held>, fn(Held) -> Facts>;

    fn into_iter(self) -> Self::IntoIter {
        self.0.into_iter().map(Facts::from)
    }
}

impl From<Held> for Facts {
    fn from(held: Held) -> Facts {
        match held {
            Held::Nothing => Facts::default(),
            Held::Stat(meta, access) => Facts {
                stat: Some(Ok(meta)),
                access,
                ..Facts::default()
            },
            Held::Other(facts) => *facts,
        }
    }
}

impl From<Facts> for Held {
    /// An entry's facts, compactly: most are a stat and nothing else.
    fn from(facts: Facts) -> Held {
        let simple = facts.link.is_none()
            && facts.context.is_none()
            && !facts.capability
            && facts.problems.is_empty();
        match facts.stat {
            None if simple => Held::Nothing,
            Some(Ok(meta)) if simple => Held::Stat(meta, facts.access),
            stat => Held::Other(Box::new(Facts { stat, ..facts })),
        }
    }
}

/// A request of a probe after its stat, with what is known when it starts.
pub enum Stage<'m> {
    /// The ACL, context and capability probes.
    Xattrs(&'m Metadata),
    /// Reading the symlink.
    ReadLink(&'m Metadata),
    /// Stat'ing the symlink's target (its contents, when read).
    Target(&'m Metadata, Option<&'m [u8]>),
}

/// Probes entries of one directory for what `plan` needs.
pub struct Prober<'a> {
    pub plan: &'a Plan,
    pub xattrs: &'a AclProbe,
    pub dir: InDir<'a>,
    pub lookup: Lookup,
}

/// Fields that cannot change while a name keeps pointing at the same inode:
/// served from the cache right after the lookup that found the inode. Any
/// other field (size, times, mode, …) is revalidated as a plain stat would,
/// because a name whose directory did not change can stay cached long after
/// another client rewrote the file.
const IMMUTABLE: Need = Need(Need::TYPE.0 | Need::INO.0);

impl Prober<'_> {
    /// Whether looking entries up by handle saves round-trips for this plan:
    /// when a stat needs only immutable fields (no revalidation at all), or
    /// when more calls than the stat follow it (xattrs, link targets).
    pub fn handle_pays(plan: &Plan, file_type: FileType) -> bool {
        let need = plan.need_for(file_type);
        !need.is_empty()
            && (IMMUTABLE.contains(need)
                || plan.access_marker
                || plan.context
                || (plan.read_link && file_type == FileType::Symlink))
    }

    fn base(&self) -> Base<'_> {
        Base::Dir(self.dir.fd)
    }

    /// The facts the plan needs about entry `name`, whose getdents type is
    /// `file_type`.
    pub fn probe(&self, name: &CStr, file_type: FileType) -> Facts {
        self.probe_staged(name, file_type, &|_| {})
    }

    /// [`Prober::probe`], telling `stage` when each request after the stat
    /// starts, with what is known by then (`--timeout` gives up a request,
    /// not the whole probe).
    pub fn probe_staged(&self, name: &CStr, file_type: FileType, stage: &dyn Fn(Stage)) -> Facts {
        let need = self.plan.need_for(file_type);
        if need.is_empty() {
            return Facts::default();
        }
        if self.lookup == Lookup::ByHandle && Prober::handle_pays(self.plan, file_type) {
            match open_handle(self.base(), name, self.plan.follow_links) {
                Ok(handle) => {
                    return self.probe_on(name, file_type, need, Some(handle.as_fd()), stage)
                }
                // Out of descriptors: the by-name calls need none.
                Err(e) if is_descriptor_exhaustion(&e) => {}
                Err(e) => return Facts::failed(e),
            }
        }
        self.probe_on(name, file_type, need, None, stage)
    }

    /// The entry's probes: its stat and what follows it, by name relative
    /// to the directory, or on the entry's `handle` when one was opened.
    fn probe_on(
        &self,
        name: &CStr,
        listed: FileType,
        need: Need,
        handle: Option<BorrowedFd<'_>>,
        stage: &dyn Fn(Stage),
    ) -> Facts {
        let meta = match handle {
            // The open's lookup just refreshed what never changes for an
            // inode; everything else is revalidated.
            Some(handle) => stat_fd(handle, need, IMMUTABLE.contains(need)),
            None => {
                let flags = StatFlags {
                    follow: self.plan.follow_links,
                    dont_sync: false,
                };
                stat_at(self.base(), name, need, flags)
            }
        };
        let meta = match meta {
            Ok(meta) => meta,
            Err(e) => return Facts::failed(e),
        };
        // A mask without the type keeps the type getdents reported.
        let file_type = meta.file_type().unwrap_or(listed);
        let mut facts = Facts::default();
        let target = handle.map_or(Target::InDir(self.dir, name), Target::Handle);
        self.probe_xattrs(&mut facts, target, &meta, (file_type, stage));
        if file_type == FileType::Symlink {
            stage(Stage::ReadLink(&meta));
            let path = (self.plan.read_link).then(|| match handle {
                Some(handle) => read_link_handle(handle),
                None => read_link(self.base(), name),
            });
            let link = self.link_target(name, path, &mut facts.problems, &meta, stage);
            facts.link = Some(Box::new(link));
        }
        facts.stat = Some(Ok(meta));
        facts
    }

    /// The symlink's target as the plan needs it: `path` already read (if
    /// the plan reads it), and the target stat'ed (by name: it is another
    /// file) unless reading it failed, which GNU reports and then stats
    /// nothing.
    fn link_target(
        &self,
        name: &CStr,
        path: Option<std::io::Result<Vec<u8>>>,
        problems: &mut Problems,
        meta: &Metadata,
        stage: &dyn Fn(Stage),
    ) -> LinkTarget {
        let mut link = LinkTarget::default();
        match path {
            Some(Ok(path)) => link.path = Some(path),
            Some(Err(err)) => {
                problems.read_link = Some(err);
                return link;
            }
            None => {}
        }
        if !self.plan.link_target.is_empty() {
            let flags = StatFlags {
                follow: true,
                dont_sync: false,
            };
            stage(Stage::Target(meta, link.path.as_deref()));
            match stat_at(self.base(), name, self.plan.link_target, flags) {
                Ok(m) => link.meta = Some(m),
                Err(_) => link.broken = true,
            }
        }
        link
    }

    /// Whether [`Prober::probe_xattrs`] may make a request for this entry.
    fn asks_xattrs(&self, meta: &Metadata, file_type: FileType) -> bool {
        let plan = self.plan;
        plan.context
            || (plan.capability && file_type == FileType::Regular)
            || (plan.access_marker
                && file_type != FileType::Symlink
                && self.xattrs.marker_may_ask(meta.dev()))
    }

    /// The ACL marker, context and capability of the entry, its stage
    /// reported first where a request may follow.
    fn probe_xattrs(
        &self,
        facts: &mut Facts,
        target: Target<'_>,
        meta: &Metadata,
        (file_type, stage): (FileType, &dyn Fn(Stage)),
    ) {
        if self.asks_xattrs(meta, file_type) {
            stage(Stage::Xattrs(meta));
        }
        let probed = probe_xattrs(self.plan, self.xattrs, target, meta.dev(), file_type);
        (facts.access, facts.context, facts.problems.xattr) = probed;
        facts.capability = probe_capability(self.plan, target, file_type);
    }
}

/// Whether a regular file has capabilities, where the plan asks (a GNU
/// built with libcap colouring them `ca`).
pub fn probe_capability(plan: &Plan, target: Target<'_>, file_type: FileType) -> bool {
    plan.capability && file_type == FileType::Regular && target.has_capability()
}

/// The ACL marker and `-Z` context the plan asks for, and the error GNU
/// reports when a probe fails: its context probe comes first, and after a
/// failure it probes nothing more.
pub fn probe_xattrs(
    plan: &Plan,
    xattrs: &AclProbe,
    target: Target<'_>,
    dev: (u32, u32),
    file_type: FileType,
) -> (AccessMarker, Option<Vec<u8>>, Option<std::io::Error>) {
    let mut context = None;
    if plan.context {
        match xattrs.context(target, dev) {
            Ok(c) => context = c,
            Err(e) => return (AccessMarker::None, None, Some(e)),
        }
    }
    // Symlinks carry no ACL of their own (and the kernel answers "not
    // supported" for them, which must not mark the whole device).
    if plan.access_marker && file_type != FileType::Symlink {
        let is_dir = file_type == FileType::Directory;
        match xattrs.marker(target, dev, is_dir) {
            Ok(marker) => return (marker, context, None),
            Err(e) => return (AccessMarker::None, context, Some(e)),
        }
    }
    (AccessMarker::None, context, None)
}
