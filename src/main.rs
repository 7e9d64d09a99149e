//! The `ls` binary: everything lives in the library; this is the process
//! entry point.
//!
//! `main` is the C entry point, not Rust's: the Rust runtime's start-up
//! would reopen a closed stdout on /dev/null (GNU ls reports `write error:
//! Bad file descriptor` instead), ignore SIGPIPE (GNU ls dies of it), and
//! read /proc/self/maps and map a signal stack for its stack-overflow
//! report, which is about 130 KB of resident memory for nothing: the
//! traversal is iterative. std reads the arguments itself on glibc.
#![no_main]
#![deny(unsafe_code)]

use std::ffi::{c_char, c_int};

// `no_mangle` counts as unsafe code (it exports a symbol); there is no
// unsafe block here.
#[allow(unsafe_code)]
#[no_mangle]
extern "C" fn main(_argc: c_int, _argv: *const *const c_char) -> c_int {
    statls::app::run(std::env::args_os().collect())
}
