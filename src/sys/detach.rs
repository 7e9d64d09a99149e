//! `--timeout`: the listing runs in a child process. A request given up
//! may still hold its thread in the kernel (a FUSE request already with
//! its server is waited out even by a killed process), and a process whose
//! thread is stuck cannot be reaped: the shell would wait for it. So the
//! process the shell waits for only waits for its child's exit status,
//! handed over through a pipe once everything is written, and exits with
//! it; the child closes its output and ends, lingering only as long as the
//! kernel holds its stuck threads. Signals sent to the parent are passed
//! on to the child (which restores the terminal's colour and dies of
//! them), and the parent then dies of the same signal; a parent killed
//! outright takes the child with it (`PR_SET_PDEATHSIG`).

use std::sync::atomic::{AtomicI32, Ordering};

/// The child, for the parent's signal handler.
static CHILD: AtomicI32 = AtomicI32::new(0);

/// Signals passed on to the child.
const FORWARDED: [i32; 6] = [
    libc::SIGHUP,
    libc::SIGINT,
    libc::SIGQUIT,
    libc::SIGTERM,
    libc::SIGPIPE,
    libc::SIGUSR1,
];

/// The child's end of the status pipe.
pub struct Listing {
    status: i32,
}

extern "C" fn forward(sig: libc::c_int) {
    let child = CHILD.load(Ordering::Relaxed);
    if child > 0 {
        // SAFETY: kill is async-signal-safe.
        unsafe {
            libc::kill(child, sig);
        }
    }
}

/// Forks the listing off. In the parent this never returns: it exits with
/// the child's status (or dies of the child's signal). In the child it
/// returns the handle that hands the status over. `None` when no child
/// could be made: the listing runs here.
pub fn fork_listing() -> Option<Listing> {
    let mut fds = [0; 2];
    // SAFETY: pipe2 writes two descriptors into `fds`.
    if unsafe { libc::pipe2(fds.as_mut_ptr(), libc::O_CLOEXEC) } != 0 {
        return None;
    }
    let [read_end, write_end] = fds;
    // SAFETY: called before any thread is started (the configuration is
    // read, nothing listed yet), so the child is a plain copy.
    let pid = unsafe { libc::fork() };
    match pid {
        -1 => {
            // SAFETY: closing the descriptors just made.
            unsafe {
                libc::close(read_end);
                libc::close(write_end);
            }
            None
        }
        0 => {
            // SAFETY: prctl with a signal number; close of our own end.
            unsafe {
                libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL);
                libc::close(read_end);
                if libc::getppid() == 1 {
                    // The parent is already gone.
                    libc::_exit(1);
                }
            }
            Some(Listing { status: write_end })
        }
        child => {
            // SAFETY: close of the child's end; the handlers only call kill.
            unsafe {
                libc::close(write_end);
                CHILD.store(child, Ordering::Relaxed);
                for sig in FORWARDED {
                    let mut act: libc::sigaction = std::mem::zeroed();
                    act.sa_sigaction = forward as *const () as libc::sighandler_t;
                    act.sa_flags = libc::SA_RESTART;
                    libc::sigaction(sig, &act, std::ptr::null_mut());
                }
            }
            wait_for(child, read_end)
        }
    }
}

/// The parent: the status byte, else the child's own end.
fn wait_for(child: i32, read_end: i32) -> ! {
    let mut byte = 0u8;
    let got = loop {
        // SAFETY: reads one byte into `byte`.
        let n = unsafe { libc::read(read_end, (&mut byte as *mut u8).cast(), 1) };
        if n >= 0 || std::io::Error::last_os_error().kind() != std::io::ErrorKind::Interrupted {
            break n == 1;
        }
    };
    if got {
        // SAFETY: ends the process without running atexit handlers (the
        // child flushed everything).
        unsafe { libc::_exit(i32::from(byte)) }
    }
    let mut wstatus = 0;
    loop {
        // SAFETY: waits for our own child.
        let r = unsafe { libc::waitpid(child, &mut wstatus, 0) };
        if r == child || std::io::Error::last_os_error().kind() != std::io::ErrorKind::Interrupted {
            break;
        }
    }
    if libc::WIFSIGNALED(wstatus) {
        let sig = libc::WTERMSIG(wstatus);
        // SAFETY: the default action, then the same signal to ourselves.
        unsafe {
            libc::signal(sig, libc::SIG_DFL);
            let mut set: libc::sigset_t = std::mem::zeroed();
            libc::sigemptyset(&mut set);
            libc::sigaddset(&mut set, sig);
            libc::sigprocmask(libc::SIG_UNBLOCK, &set, std::ptr::null_mut());
            libc::raise(sig);
        }
    }
    let code = if libc::WIFEXITED(wstatus) {
        libc::WEXITSTATUS(wstatus)
    } else {
        2
    };
    // SAFETY: as above.
    unsafe { libc::_exit(code) }
}

impl Listing {
    /// Closes the standard streams (so that no reader waits for a
    /// lingering child), hands `status` to the waiting parent, and ends
    /// this process.
    pub fn finish(self, status: i32) -> ! {
        let byte = u8::try_from(status).unwrap_or(2);
        // SAFETY: closes descriptors, writes one byte, ends the process.
        // The standard streams are closed first: the parent's exit kills
        // this process (`PR_SET_PDEATHSIG`), and a process killed with a
        // thread stuck in the kernel keeps its descriptors until the
        // thread comes back, so a reader of its output would wait too.
        unsafe {
            for fd in 0..3 {
                libc::close(fd);
            }
            libc::write(self.status, (&byte as *const u8).cast(), 1);
            libc::_exit(status)
        }
    }
}
