//! The directories on the current `-R` path, root first: their (dev, ino)
//! for loop detection, and open descriptors so that each subdirectory is
//! opened relative to its parent (no path re-walked, depth not bounded by
//! PATH_MAX). Only the deepest few stay open (the descriptor budget's
//! share); a level whose descriptor was given up is reopened through `..`
//! from its child, and accepted only if it is the same directory.
#![forbid(unsafe_code)]

use std::os::fd::{AsFd, BorrowedFd, OwnedFd};
use std::sync::Arc;

use crate::sys::dir::open_dir;
use crate::sys::stat::{stat_fd, Base, Need};

/// A directory's identity: (device, inode).
pub type DirId = ((u32, u32), u64);

struct Level {
    id: DirId,
    /// Shared with the workers reading its subdirectories ahead.
    fd: Option<Arc<OwnedFd>>,
}

#[derive(Default)]
pub struct DirChain {
    levels: Vec<Level>,
    /// Index of the shallowest level that still holds its descriptor.
    first_held: usize,
    /// Descriptors kept open along the path, at most.
    held: usize,
}

impl DirChain {
    /// A path that keeps at most `held` descriptors open.
    pub fn new(held: usize) -> DirChain {
        DirChain {
            held,
            ..DirChain::default()
        }
    }

    /// Whether a directory pushed now keeps its descriptor.
    pub fn holds(&self) -> bool {
        self.held > 0
    }

    /// The directory is already on the path: listing it again would loop.
    pub fn contains(&self, id: DirId) -> bool {
        self.levels.iter().any(|l| l.id == id)
    }

    /// Descends into a directory whose listing is done and whose
    /// subdirectories come next (`fd`: its descriptor, if kept).
    pub fn push(&mut self, id: DirId, fd: Option<OwnedFd>) {
        let fd = fd.filter(|_| self.holds()).map(Arc::new);
        self.levels.push(Level { id, fd });
        self.trim(self.held);
    }

    /// Gives up descriptors from the top down until at most `keep` levels
    /// hold one.
    fn trim(&mut self, keep: usize) {
        while self.levels.len() - self.first_held > keep {
            self.levels[self.first_held].fd = None;
            self.first_held += 1;
        }
    }

    /// Closes every descriptor of the path but the deepest (`keep_parent`)
    /// or all of them: the walk met the descriptor limit. Directories are
    /// then opened by their paths, as GNU does.
    pub fn release(&mut self, keep_parent: bool) {
        self.trim(usize::from(keep_parent));
    }

    /// The deepest directory's descriptor: the parent of what is listed
    /// next. `None` at the top (operands are opened from the working
    /// directory) or when it could not be reopened.
    pub fn parent(&self) -> Option<BorrowedFd<'_>> {
        self.levels.last()?.fd.as_ref().map(|fd| fd.as_fd())
    }

    /// The same descriptor, to open subdirectories from another thread.
    pub fn parent_shared(&self) -> Option<Arc<OwnedFd>> {
        self.levels.last()?.fd.clone()
    }

    /// Leaves the deepest directory. With `reopen_parent` (more of the
    /// parent's subdirectories follow) a parent whose descriptor was given
    /// up is reopened as `..` of the level being left.
    pub fn pop(&mut self, reopen_parent: bool) {
        let Some(left) = self.levels.pop() else {
            return;
        };
        let depth = self.levels.len();
        self.first_held = self.first_held.min(depth);
        let Some(parent) = self.levels.last_mut() else {
            return;
        };
        if !reopen_parent || parent.fd.is_some() {
            return;
        }
        let Some(child) = left.fd else {
            return;
        };
        let Ok(fd) = open_dir(Base::Dir(child.as_fd()), c"..") else {
            return;
        };
        let same = stat_fd(fd.as_fd(), Need::INO, true)
            .is_ok_and(|m| (m.dev(), m.ino().unwrap_or(0)) == parent.id);
        if same {
            parent.fd = Some(Arc::new(fd));
            self.first_held = depth - 1;
        }
    }
}
