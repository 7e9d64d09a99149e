//! The system's message catalogs through the C library's gettext.
//!
//! GNU ls takes every word it prints from the `coreutils` domain (bound to
//! /usr/share/locale) and its option-parser errors from libc's own domain;
//! the English message is the key, so in C/POSIX (or with no catalog) the
//! key itself comes back. The C library also converts a translation to
//! LC_CTYPE's codeset. Nothing here is called per entry: callers translate
//! once and keep the text.

use std::ffi::{c_char, c_int, CStr, CString};

// glibc's gettext (libintl is part of the C library there).
extern "C" {
    fn bindtextdomain(domain: *const c_char, dir: *const c_char) -> *mut c_char;
    fn textdomain(domain: *const c_char) -> *mut c_char;
    fn dcgettext(domain: *const c_char, msgid: *const c_char, category: c_int) -> *mut c_char;
}

/// The domain GNU ls's words come from.
pub const DOMAIN: &CStr = c"coreutils";
/// The domain of getopt's messages.
pub const LIBC_DOMAIN: &CStr = c"libc";

/// Binds the `coreutils` domain to the system's catalogs and makes it the
/// default, as GNU ls does at start-up (after `setlocale`).
pub fn init() {
    // SAFETY: plain C calls with static NUL-terminated strings, made once at
    // start-up before any other thread exists.
    unsafe {
        bindtextdomain(DOMAIN.as_ptr(), c"/usr/share/locale".as_ptr());
        textdomain(DOMAIN.as_ptr());
    }
}

fn copy_out(p: *const c_char) -> Vec<u8> {
    if p.is_null() {
        return Vec::new();
    }
    // SAFETY: gettext returns a NUL-terminated string owned by the C library
    // (the catalog or the key); it is copied at once.
    unsafe { CStr::from_ptr(p) }.to_bytes().to_vec()
}

/// The translation of `msgid` in the `coreutils` domain (LC_MESSAGES), in
/// LC_CTYPE's codeset; `msgid` itself when there is none.
pub fn tr(msgid: &str) -> Vec<u8> {
    translate(DOMAIN, msgid, libc::LC_MESSAGES)
}

/// The translation of `msgid` in libc's domain (getopt's messages).
pub fn tr_libc(msgid: &str) -> Vec<u8> {
    translate(LIBC_DOMAIN, msgid, libc::LC_MESSAGES)
}

/// The translation of `msgid` in the `coreutils` domain under LC_TIME (GNU
/// looks up its default `-l` date formats there).
pub fn tr_time(msgid: &str) -> Vec<u8> {
    translate(DOMAIN, msgid, libc::LC_TIME)
}

/// The translation of `msgid` in the `coreutils` domain (LC_MESSAGES),
/// without allocating in Rust (for the out-of-memory message): the text
/// the C library keeps, or `msgid` itself.
pub fn tr_static(msgid: &'static CStr) -> &'static CStr {
    // SAFETY: both strings are NUL-terminated; gettext returns either the
    // key (static here) or a string in a catalog the C library keeps mapped
    // for the life of the process.
    unsafe {
        let p = dcgettext(DOMAIN.as_ptr(), msgid.as_ptr(), libc::LC_MESSAGES);
        if p.is_null() {
            msgid
        } else {
            CStr::from_ptr(p)
        }
    }
}

fn translate(domain: &CStr, msgid: &str, category: libc::c_int) -> Vec<u8> {
    let Ok(key) = CString::new(msgid) else {
        return msgid.as_bytes().to_vec();
    };
    // SAFETY: domain and key are valid NUL-terminated strings; the result is
    // copied before the key is dropped (gettext may return the key itself).
    copy_out(unsafe { dcgettext(domain.as_ptr(), key.as_ptr(), category) })
}
