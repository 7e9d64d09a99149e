//! The layer that talks to the kernel and the C library (the only one allowed
//! `unsafe`): statx with a computed mask and its fstatat fallback, directory
//! reading with getdents64, writes to standard output, symlink targets, xattr probes, terminal queries
//! and the C library's locale functions.
//!
//! Everything above this module sees typed results: [`Metadata`] with
//! `Option` fields for what the kernel did not return, and `io::Error`s
//! carrying the errno GNU would report.

pub mod alloc;
pub mod cache;
pub mod charset;
pub mod clock;
pub mod detach;
pub mod dir;
pub mod fnmatch;
pub mod intl;
pub mod limits;
pub mod locale;
pub mod mbwidth;
pub mod numeric;
pub mod path;
pub mod remote;
pub mod signals;
pub mod stat;
pub mod stdout;
pub mod term;
pub mod time;
pub mod xattr;

pub use stat::{FileType, Metadata, Timestamp};

/// Makes a call again while it fails with EINTR. A FUSE (or NFS) request
/// interrupted by a signal that was then handled (SIGTSTP, and SIGCONT
/// after it) fails with EINTR instead of restarting; GNU would report
/// `Interrupted system call` for the file, which is no fault of it.
pub(crate) fn retry_eintr<T>(
    mut call: impl FnMut() -> Result<T, rustix::io::Errno>,
) -> Result<T, rustix::io::Errno> {
    loop {
        match call() {
            Err(rustix::io::Errno::INTR) => continue,
            result => return result,
        }
    }
}
