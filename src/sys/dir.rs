//! Opening directories and reading them with getdents64 into a list of
//! (name, d_type) pairs; no per-entry stat happens here.

use std::cell::RefCell;
use std::ffi::CStr;
use std::mem::MaybeUninit;
use std::os::fd::{AsFd, BorrowedFd, OwnedFd};

use rustix::fs::{Mode, OFlags, RawDir};

use super::stat::{Base, FileType};

/// One directory entry as getdents64 returned it, borrowed from the
/// buffer (whoever keeps the name copies it once, where it keeps it).
#[derive(Debug)]
pub struct DirEntry<'a> {
    pub name: &'a CStr,
    /// From `d_type`; `Unknown` when the filesystem does not fill it in.
    pub file_type: FileType,
}

/// Opens `path` (relative to `base`) as a directory for reading.
pub fn open_dir(base: Base<'_>, path: &CStr) -> std::io::Result<OwnedFd> {
    let fd = match base {
        Base::Cwd => rustix::fs::CWD,
        Base::Dir(fd) => fd,
    };
    let flags =
        OFlags::RDONLY | OFlags::DIRECTORY | OFlags::CLOEXEC | OFlags::NONBLOCK | OFlags::NOCTTY;
    Ok(super::retry_eintr(|| {
        rustix::fs::openat(fd, path, flags, Mode::empty())
    })?)
}

fn file_type_of(t: rustix::fs::FileType) -> FileType {
    use rustix::fs::FileType as R;
    match t {
        R::RegularFile => FileType::Regular,
        R::Directory => FileType::Directory,
        R::Symlink => FileType::Symlink,
        R::Fifo => FileType::Fifo,
        R::Socket => FileType::Socket,
        R::CharacterDevice => FileType::CharDevice,
        R::BlockDevice => FileType::BlockDevice,
        _ => FileType::Unknown,
    }
}

/// Bytes asked of each getdents64 call: glibc's readdir uses 32 KiB too, so
/// a directory costs GNU ls and us the same number of calls.
const GETDENTS_BUFFER: usize = 32 * 1024;

thread_local! {
    /// Each thread's getdents64 buffer, allocated on first use and reused
    /// for every directory it reads after that (the walk's and a job's
    /// alike, when the walk runs a job itself).
    static BUFFER: RefCell<Vec<MaybeUninit<u8>>> = const { RefCell::new(Vec::new()) };
}

/// Reads every entry of an open directory (`.` and `..` included), calling
/// `keep` on each name to drop filtered entries before they are copied and
/// handing the others to `each` as they are read. An error part-way is
/// returned after everything read before it was handed over, because GNU
/// lists what it could read and then reports the error.
pub fn read_dir_each(
    fd: BorrowedFd<'_>,
    keep: impl FnMut(&[u8]) -> bool,
    each: impl FnMut(DirEntry<'_>),
) -> Option<std::io::Error> {
    read_dir_batches(fd, keep, each, || {})
}

/// [`read_dir_each`], calling `next_request` before every getdents64
/// call after the first: what was handed over so far is all the kernel
/// answered, and a new request starts.
pub fn read_dir_batches(
    fd: BorrowedFd<'_>,
    keep: impl FnMut(&[u8]) -> bool,
    each: impl FnMut(DirEntry<'_>),
    next_request: impl FnMut(),
) -> Option<std::io::Error> {
    BUFFER.with(|buffer| match buffer.try_borrow_mut() {
        Ok(mut buffer) => read_into(fd, &mut buffer, keep, each, next_request),
        // A directory read while this thread reads another (never so far):
        // a buffer of its own.
        Err(_) => read_into(fd, &mut Vec::new(), keep, each, next_request),
    })
}

fn read_into(
    fd: BorrowedFd<'_>,
    buffer: &mut Vec<MaybeUninit<u8>>,
    mut keep: impl FnMut(&[u8]) -> bool,
    mut each: impl FnMut(DirEntry<'_>),
    mut next_request: impl FnMut(),
) -> Option<std::io::Error> {
    if buffer.len() < GETDENTS_BUFFER {
        buffer.resize(GETDENTS_BUFFER, MaybeUninit::uninit());
    }
    let mut dir = RawDir::new(fd.as_fd(), buffer);
    let mut first = true;
    loop {
        if dir.is_buffer_empty() && !std::mem::take(&mut first) {
            next_request();
        }
        let Some(next) = dir.next() else {
            break;
        };
        match next {
            Ok(e) => {
                let name = e.file_name();
                if keep(name.to_bytes()) {
                    each(DirEntry {
                        name,
                        file_type: file_type_of(e.file_type()),
                    });
                }
            }
            // A directory removed while open (`mkdir d; cd d; rmdir ../d; ls`)
            // answers ENOENT: glibc's readdir, and so GNU ls, takes that as
            // the end of the directory.
            Err(rustix::io::Errno::NOENT) => return None,
            Err(e) => return Some(e.into()),
        }
    }
    None
}
