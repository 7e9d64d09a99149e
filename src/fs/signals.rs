//! Signal dispositions. Rust's runtime ignores SIGPIPE before `main`; GNU
//! ls is killed by SIGPIPE on a closed pipe unless its parent ignored the
//! signal (then it reports `write error: Broken pipe`). A constructor that
//! runs before the runtime records what the parent gave us, and
//! [`restore_inherited_sigpipe`] puts it back.

use std::sync::atomic::{AtomicBool, Ordering};

/// SIGPIPE was ignored when the process started.
static SIGPIPE_WAS_IGNORED: AtomicBool = AtomicBool::new(false);

extern "C" fn record_sigpipe() {
    // SAFETY: querying a disposition with a null new action has no effect
    // on the process; `old` is a valid out-parameter.
    unsafe {
        let mut old: libc::sigaction = std::mem::zeroed();
        if libc::sigaction(libc::SIGPIPE, std::ptr::null(), &mut old) == 0 {
            SIGPIPE_WAS_IGNORED.store(old.sa_sigaction == libc::SIG_IGN, Ordering::Relaxed);
        }
    }
}

/// Runs before Rust's runtime start-up (which ignores SIGPIPE).
#[used]
#[link_section = ".init_array"]
static RECORD_SIGPIPE: extern "C" fn() = record_sigpipe;

/// Restores SIGPIPE to what the parent process set: default (die on a
/// closed pipe, as GNU ls does) unless it was ignored.
pub fn restore_inherited_sigpipe() {
    if !SIGPIPE_WAS_IGNORED.load(Ordering::Relaxed) {
        // SAFETY: setting the default disposition of SIGPIPE is always valid.
        unsafe {
            libc::signal(libc::SIGPIPE, libc::SIG_DFL);
        }
    }
}
