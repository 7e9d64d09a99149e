//! Standard output through write(2), and the bytes still pending in the
//! one buffer of `output` when the process dies of memory exhaustion.
//!
//! std's `Stdout` reports success when the descriptor is closed (EBADF), so
//! `ls >&-` would lose its output silently; GNU ls reports `write error:
//! Bad file descriptor` and exits with status 2 when it had anything to
//! write. Our own buffering lives in `output`; this only writes, and
//! [`PendingBuffer`] lets `sys::alloc` write what is buffered before
//! `memory exhausted`, as GNU's error() flushes stdout first.

use std::io;
use std::ops::{Deref, DerefMut};
use std::sync::atomic::{AtomicPtr, AtomicUsize, Ordering};

/// File descriptor 1, unbuffered.
pub struct RawStdout;

impl io::Write for RawStdout {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        // EINTR comes back as `Interrupted`, which `write_all` retries.
        Ok(rustix::io::write(rustix::stdio::stdout(), buf)?)
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// The registered [`PendingBuffer`] and the thread that owns it.
static PENDING: AtomicPtr<Vec<u8>> = AtomicPtr::new(std::ptr::null_mut());
static OWNER: AtomicUsize = AtomicUsize::new(0);

/// A byte buffer, boxed so that it stays where it was registered, whose
/// contents `write_pending` can reach while its owner is inside an
/// allocation. The first one made is registered (there is one `Output`).
// The box is the point: the vector's header, not only its bytes, must not
// move while it is registered.
#[allow(clippy::box_collection)]
pub struct PendingBuffer(Box<Vec<u8>>);

impl PendingBuffer {
    pub fn with_capacity(capacity: usize) -> PendingBuffer {
        let mut buf = Box::new(Vec::with_capacity(capacity));
        let ptr: *mut Vec<u8> = &mut *buf;
        if PENDING
            .compare_exchange(
                std::ptr::null_mut(),
                ptr,
                Ordering::AcqRel,
                Ordering::Acquire,
            )
            .is_ok()
        {
            // SAFETY: pthread_self has no preconditions.
            OWNER.store(unsafe { libc::pthread_self() } as usize, Ordering::Release);
        }
        PendingBuffer(buf)
    }
}

impl Deref for PendingBuffer {
    type Target = Vec<u8>;
    fn deref(&self) -> &Vec<u8> {
        &self.0
    }
}

impl DerefMut for PendingBuffer {
    fn deref_mut(&mut self) -> &mut Vec<u8> {
        &mut self.0
    }
}

impl Drop for PendingBuffer {
    fn drop(&mut self) {
        let ptr: *mut Vec<u8> = &mut *self.0;
        let _ = PENDING.compare_exchange(
            ptr,
            std::ptr::null_mut(),
            Ordering::AcqRel,
            Ordering::Acquire,
        );
    }
}

/// Writes the registered buffer's bytes to stdout, allocating nothing,
/// when called on the thread that owns it: that thread is inside an
/// allocation (the only caller is `sys::alloc` on exhaustion), so the
/// vector is not halfway through a change, and a failed growth leaves it
/// as it was. Another thread could see it mid-change, and writes nothing:
/// helper threads only start with 256 MiB or more of address space.
pub(super) fn write_pending() {
    let ptr = PENDING.load(Ordering::Acquire);
    // SAFETY: pthread_self has no preconditions.
    let me = unsafe { libc::pthread_self() } as usize;
    if ptr.is_null() || OWNER.load(Ordering::Acquire) != me {
        return;
    }
    // SAFETY: the box lives until its Drop unregisters it, on this same
    // thread, which is now inside the allocator and changes nothing; the
    // process exits right after this write.
    let pending: &[u8] = unsafe { &*ptr };
    // Allocation-free: rustix's errors convert to io::Error without boxing.
    let _ = io::Write::write_all(&mut RawStdout, pending);
}
