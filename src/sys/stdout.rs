//! Standard output through write(2).
//!
//! std's `Stdout` reports success when the descriptor is closed (EBADF), so
//! `ls >&-` would lose its output silently; GNU ls reports `write error:
//! Bad file descriptor` and exits with status 2 when it had anything to
//! write. Our own buffering lives in `output`; this only writes.

use std::io;

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
