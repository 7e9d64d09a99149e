//! The directories on the current `-R` path, root first: their (dev, ino)
//! for loop detection, and open descriptors so that each subdirectory is
//! opened relative to its parent (`openat(parent, name)`) instead of by a
//! path from the working directory. That re-walks nothing, and depth is no
//! longer bounded by PATH_MAX.
//!
//! Only the deepest [`HELD`] descriptors stay open, so a chain of any depth
//! lists under `ulimit -n 64`. A level whose descriptor was given up is
//! reopened through `..` from its child when the walk climbs back to it
//! with more of its subdirectories still to list, and accepted only if it
//! is the same directory (dev, ino) as before.
#![forbid(unsafe_code)]

use std::os::fd::{AsFd, BorrowedFd, OwnedFd};
use std::sync::Arc;

use crate::sys::dir::open_dir;
use crate::sys::stat::{stat_fd, Base, Need};

/// A directory's identity: (device, inode).
pub type DirId = ((u32, u32), u64);

/// Descriptors kept open along the path; the rest of the fd table stays
/// free for the listing itself (and the probe threads' handles).
const HELD: usize = 16;

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
}

impl DirChain {
    /// The directory is already on the path: listing it again would loop.
    pub fn contains(&self, id: DirId) -> bool {
        self.levels.iter().any(|l| l.id == id)
    }

    /// Descends into a directory whose listing is done and whose
    /// subdirectories come next.
    pub fn push(&mut self, id: DirId, fd: OwnedFd) {
        self.levels.push(Level {
            id,
            fd: Some(Arc::new(fd)),
        });
        while self.levels.len() - self.first_held > HELD {
            self.levels[self.first_held].fd = None;
            self.first_held += 1;
        }
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
