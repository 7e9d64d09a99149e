//! Signal handling while colours are written: GNU ls restores the
//! terminal's colour before dying of (or stopping on) a signal.
//!
//! As GNU does, the handlers are installed only once colour output starts
//! and only when standard output is the controlling terminal (`ls
//! --color=always > file` takes every signal's default action, and writes
//! nothing extra). The handler itself does the work, async-signal-safely:
//! it writes the colour restore sequence (once a colour has reached the
//! terminal), then takes the signal's default action at once: resets the
//! disposition and re-raises (or raises SIGSTOP for SIGTSTP, and returns
//! when continued). Nothing waits for the main thread to come round to a
//! flag, so a signal is obeyed at once even while every thread waits on a
//! hung server request.
//!
//! SIGPIPE is left as the parent set it (the binary bypasses Rust's
//! start-up, which would ignore it): by default a closed pipe kills `ls`,
//! as it kills GNU ls; when ignored, the write fails with EPIPE and `ls`
//! reports `write error: Broken pipe`.

use std::sync::atomic::{AtomicBool, AtomicU8, AtomicUsize, Ordering};

/// Signals after which GNU ls restores the terminal's colour before dying.
const FATAL: [libc::c_int; 11] = [
    libc::SIGALRM,
    libc::SIGHUP,
    libc::SIGINT,
    libc::SIGPIPE,
    libc::SIGQUIT,
    libc::SIGTERM,
    libc::SIGPOLL,
    libc::SIGPROF,
    libc::SIGVTALRM,
    libc::SIGXCPU,
    libc::SIGXFSZ,
];

/// The sequence that restores the terminal's default colour (`lc rc`),
/// readable from a signal handler.
const RESTORE_MAX: usize = 64;
static RESTORE: [AtomicU8; RESTORE_MAX] = [const { AtomicU8::new(0) }; RESTORE_MAX];
static RESTORE_LEN: AtomicUsize = AtomicUsize::new(0);
/// A colour sequence has been written to the terminal.
static COLOR_WRITTEN: AtomicBool = AtomicBool::new(false);
/// Handlers are installed (bit n: signal n).
static CAUGHT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

/// Writes the restore sequence to standard output (async-signal-safe:
/// atomics and write(2) only).
fn write_restore() {
    let len = RESTORE_LEN.load(Ordering::Relaxed).min(RESTORE_MAX);
    let mut seq = [0u8; RESTORE_MAX];
    for (b, a) in seq.iter_mut().zip(&RESTORE).take(len) {
        *b = a.load(Ordering::Relaxed);
    }
    let mut done = 0;
    while done < len {
        // SAFETY: `seq[done..len]` is a valid initialised buffer.
        let n = unsafe { libc::write(1, seq[done..].as_ptr().cast(), len - done) };
        if n > 0 {
            done += n as usize;
        } else if n < 0 && errno() == libc::EINTR {
            continue;
        } else {
            break;
        }
    }
}

fn errno() -> libc::c_int {
    // SAFETY: the C library's thread-local errno is always valid to read.
    unsafe { *libc::__errno_location() }
}

extern "C" fn on_signal(sig: libc::c_int) {
    let saved = errno();
    if COLOR_WRITTEN.load(Ordering::SeqCst) {
        write_restore();
    }
    // SAFETY: signal(2) and raise(3) are async-signal-safe; `sig` is one
    // of the signals this handler was installed for.
    unsafe {
        if sig == libc::SIGTSTP {
            // Stop now; when continued, carry on where interrupted.
            libc::raise(libc::SIGSTOP);
            *libc::__errno_location() = saved;
        } else {
            // The default action, taken as soon as the handler returns
            // (the signal is blocked while it runs): death.
            libc::signal(sig, libc::SIG_DFL);
            libc::raise(sig);
        }
    }
}

/// Remembers what restores the terminal's colour (`lc rc`), for the
/// handlers; sequences longer than 64 bytes are cut.
pub fn set_restore_sequence(seq: &[u8]) {
    let len = seq.len().min(RESTORE_MAX);
    for (a, &b) in RESTORE.iter().zip(&seq[..len]) {
        a.store(b, Ordering::Relaxed);
    }
    RESTORE_LEN.store(len, Ordering::SeqCst);
}

/// A colour sequence reached standard output: from now on a signal
/// restores the colour first.
pub fn note_color_written() {
    COLOR_WRITTEN.store(true, Ordering::SeqCst);
}

/// Whether standard output is the controlling terminal of this process
/// (GNU: `0 <= tcgetpgrp (STDOUT_FILENO)`).
fn stdout_is_controlling_terminal() -> bool {
    rustix::termios::tcgetpgrp(rustix::stdio::stdout()).is_ok()
}

/// Colour output starts: when standard output is the controlling terminal,
/// catch the signals that would leave it coloured (those the parent did
/// not ignore), as GNU ls does at its first colour sequence.
pub fn catch_for_color_restore() {
    if !stdout_is_controlling_terminal() {
        return;
    }
    let sigs = || FATAL.into_iter().chain([libc::SIGTSTP]);
    // SAFETY: plain sigaction/sigset calls on valid, zeroed structures;
    // the handler is async-signal-safe.
    unsafe {
        let mut caught: libc::sigset_t = std::mem::zeroed();
        libc::sigemptyset(&mut caught);
        let mut bits = 0u64;
        for sig in sigs() {
            let mut old: libc::sigaction = std::mem::zeroed();
            if libc::sigaction(sig, std::ptr::null(), &mut old) == 0
                && old.sa_sigaction != libc::SIG_IGN
            {
                libc::sigaddset(&mut caught, sig);
                bits |= 1 << sig;
            }
        }
        for sig in sigs().filter(|&s| bits & (1 << s) != 0) {
            let mut act: libc::sigaction = std::mem::zeroed();
            act.sa_sigaction = on_signal as *const () as libc::sighandler_t;
            // Interrupted local syscalls resume; the caught signals wait
            // while the handler runs.
            act.sa_flags = libc::SA_RESTART;
            act.sa_mask = caught;
            libc::sigaction(sig, &act, std::ptr::null_mut());
        }
        CAUGHT.store(bits, Ordering::SeqCst);
    }
}

/// All output is written: the default actions again (GNU's
/// `signal_restore`), so that nothing more is written.
pub fn restore_defaults() {
    let bits = CAUGHT.swap(0, Ordering::SeqCst);
    for sig in FATAL.into_iter().chain([libc::SIGTSTP]) {
        if bits & (1 << sig) != 0 {
            // SAFETY: resetting a disposition this module installed.
            unsafe {
                libc::signal(sig, libc::SIG_DFL);
            }
        }
    }
}
