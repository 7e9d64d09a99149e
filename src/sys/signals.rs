//! Signal handling while colours are written: GNU ls restores the
//! terminal's colour before dying of (or stopping on) a signal.
//!
//! SIGPIPE is left as the parent set it (the binary bypasses Rust's
//! start-up, which would ignore it): by default a closed pipe kills `ls`,
//! as it kills GNU ls; when ignored, the write fails with EPIPE and `ls`
//! reports `write error: Broken pipe`.

use std::sync::atomic::Ordering;

/// A caught signal waiting to be acted on (0: none).
static PENDING_INTERRUPT: std::sync::atomic::AtomicI32 = std::sync::atomic::AtomicI32::new(0);
/// SIGTSTPs waiting to be acted on.
static PENDING_STOPS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);

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

extern "C" fn on_signal(sig: libc::c_int) {
    if sig == libc::SIGTSTP {
        PENDING_STOPS.fetch_add(1, Ordering::SeqCst);
    } else {
        let _ = PENDING_INTERRUPT.compare_exchange(0, sig, Ordering::SeqCst, Ordering::SeqCst);
    }
}

/// While colours are being written, catch the signals that would leave the
/// terminal coloured (those not ignored by the parent), so that
/// [`take_pending`] can restore the colour first, as GNU ls does.
pub fn catch_for_color_restore() {
    for sig in FATAL.into_iter().chain([libc::SIGTSTP]) {
        // SAFETY: the handler only touches atomics (async-signal-safe);
        // `act`/`old` are valid for the calls.
        unsafe {
            let mut old: libc::sigaction = std::mem::zeroed();
            if libc::sigaction(sig, std::ptr::null(), &mut old) != 0
                || old.sa_sigaction == libc::SIG_IGN
            {
                continue;
            }
            let mut act: libc::sigaction = std::mem::zeroed();
            act.sa_sigaction = on_signal as *const () as libc::sighandler_t;
            act.sa_flags = libc::SA_RESTART;
            libc::sigemptyset(&mut act.sa_mask);
            libc::sigaction(sig, &act, std::ptr::null_mut());
        }
    }
}

/// What to do about caught signals.
pub enum Pending {
    None,
    /// Restore the colour, then call [`deliver`] with this signal.
    Signal(i32),
}

/// Whether any signal was caught (one atomic load per check).
pub fn any_pending() -> bool {
    PENDING_STOPS.load(Ordering::Relaxed) > 0 || PENDING_INTERRUPT.load(Ordering::Relaxed) != 0
}

/// The next caught signal, if any (a stop before an interrupt).
pub fn take_pending() -> Pending {
    if PENDING_STOPS.load(Ordering::SeqCst) > 0 {
        PENDING_STOPS.fetch_sub(1, Ordering::SeqCst);
        return Pending::Signal(libc::SIGSTOP);
    }
    match PENDING_INTERRUPT.swap(0, Ordering::SeqCst) {
        0 => Pending::None,
        sig => Pending::Signal(sig),
    }
}

/// Acts on a caught signal with its default action: stops (and returns
/// when continued) or terminates the process.
pub fn deliver(sig: i32) {
    // SAFETY: resetting a disposition and raising a signal are valid for
    // any signal number taken from the set above.
    unsafe {
        if sig != libc::SIGSTOP {
            libc::signal(sig, libc::SIG_DFL);
        }
        libc::raise(sig);
        if sig != libc::SIGSTOP {
            // Still alive (the signal was blocked?): catch it again.
            catch_for_color_restore();
        }
    }
}
