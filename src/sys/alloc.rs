//! Running out of memory as GNU ls does: what stdout holds is written, then
//! `ls: memory exhausted` (in the locale's language) on stderr and exit
//! status 2, where Rust's default would print `memory allocation of N bytes
//! failed` and abort (status 134, a core dump). Every allocation goes through [`ExitOnExhaustion`], which
//! hands it to the C library's allocator and dies that way if it fails.
//!
//! Nothing on that path allocates: the message comes from gettext (which
//! falls back to the key when it cannot load a catalog) and goes out with
//! write(2); the program name is the C library's `program_invocation_name`
//! (`argv[0]`, what GNU's error() prints; error() flushes stdout first,
//! and `sys::stdout` writes our buffer so). Of several threads failing at
//! once, one reports and exits; the others wait for it.

use std::alloc::{GlobalAlloc, Layout, System};
use std::ffi::{c_char, CStr};
use std::sync::atomic::{AtomicBool, Ordering};

/// The C library's allocator, with GNU's exit when it fails.
pub struct ExitOnExhaustion;

#[global_allocator]
static ALLOCATOR: ExitOnExhaustion = ExitOnExhaustion;

// SAFETY: every call is forwarded unchanged to `System`, which upholds the
// GlobalAlloc contract; a null result never returns (the process exits).
unsafe impl GlobalAlloc for ExitOnExhaustion {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        checked(System.alloc(layout))
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        checked(System.alloc_zeroed(layout))
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        checked(System.realloc(ptr, layout, new_size))
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        System.dealloc(ptr, layout)
    }
}

fn checked(p: *mut u8) -> *mut u8 {
    if p.is_null() {
        exhausted();
    }
    p
}

extern "C" {
    /// `argv[0]`, set by the C library before `main`.
    static program_invocation_name: *const c_char;
    /// Its base name, likewise.
    static program_invocation_short_name: *const c_char;
}

/// Whether the message names the program by its base name, as GNU's
/// `error()` does from 9.7 on; set once at start-up.
static BASE_NAME: AtomicBool = AtomicBool::new(false);

/// Names the program by its base name in the out-of-memory message.
pub fn diagnostics_use_base_name() {
    BASE_NAME.store(true, Ordering::Relaxed);
}

/// Writes what stdout holds, then `PROGRAM: memory exhausted` to stderr,
/// and exits with status 2, allocating nothing.
fn exhausted() -> ! {
    static REPORTING: AtomicBool = AtomicBool::new(false);
    if REPORTING.swap(true, Ordering::SeqCst) {
        // Another thread is reporting and exiting.
        loop {
            // SAFETY: pause has no preconditions.
            unsafe { libc::pause() };
        }
    }
    super::stdout::write_pending();
    // SAFETY: the C library sets program_invocation_name and its short
    // form to NUL-terminated strings (argv[0]) before main and never frees
    // them.
    let name = unsafe {
        if BASE_NAME.load(Ordering::Relaxed) {
            program_invocation_short_name
        } else {
            program_invocation_name
        }
    };
    if !name.is_null() {
        // SAFETY: as above.
        write_stderr(unsafe { CStr::from_ptr(name) }.to_bytes());
        write_stderr(b": ");
    }
    write_stderr(super::intl::tr_static(c"memory exhausted").to_bytes());
    write_stderr(b"\n");
    // SAFETY: _exit has no preconditions; nothing is flushed or run.
    unsafe { libc::_exit(2) }
}

fn write_stderr(mut bytes: &[u8]) {
    while !bytes.is_empty() {
        // SAFETY: the pointer and length describe a live slice.
        let n = unsafe { libc::write(2, bytes.as_ptr().cast(), bytes.len()) };
        if n > 0 {
            bytes = &bytes[n.unsigned_abs()..];
        } else if n == 0 || std::io::Error::last_os_error().raw_os_error() != Some(libc::EINTR) {
            return;
        }
    }
}
