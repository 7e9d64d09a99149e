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
/// The domain of gnulib's own strings (argmatch, xstrtol, quotearg,
/// close-stdout, xalloc) from GNU ls 9.7 on; before, they were looked up
/// in `coreutils`.
pub const GNULIB_DOMAIN: &CStr = c"gnulib";

/// Whether gnulib's strings come from [`GNULIB_DOMAIN`]: set once at
/// start-up, before any lookup, like the C library's own domain state.
static GNULIB: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Looks gnulib's strings up in their own domain, bound beside
/// `coreutils` (the emulated release is 9.7 or later).
pub fn use_gnulib_domain() {
    GNULIB.store(true, std::sync::atomic::Ordering::Relaxed);
    // SAFETY: a plain C call with static NUL-terminated strings, made once
    // at start-up before any other thread exists.
    unsafe {
        bindtextdomain(GNULIB_DOMAIN.as_ptr(), c"/usr/share/locale".as_ptr());
    }
}

fn gnulib_domain() -> &'static CStr {
    if GNULIB.load(std::sync::atomic::Ordering::Relaxed) {
        GNULIB_DOMAIN
    } else {
        DOMAIN
    }
}

/// The translation of one of gnulib's strings (`write error`, argmatch's
/// and xstrtol's messages), in the domain the emulated release uses.
pub fn tr_gnulib(msgid: &str) -> Vec<u8> {
    translate(gnulib_domain(), msgid, libc::LC_MESSAGES)
}

/// `tr_gnulib(key)` filled in.
pub fn msg_gnulib(key: &str, args: &[&[u8]]) -> Vec<u8> {
    fill(&tr_gnulib(key), args)
}

/// The translation of one of gnulib's strings, or `None` when there is
/// none (quotearg tells its fallback quotes apart so).
pub fn tr_opt_gnulib(msgid: &str) -> Option<Vec<u8>> {
    lookup(gnulib_domain(), msgid, libc::LC_MESSAGES)
}

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

/// The translation of gnulib's `msgid` (LC_MESSAGES), without allocating
/// in Rust (for the out-of-memory message, xalloc's): the text
/// the C library keeps, or `msgid` itself.
pub fn tr_static(msgid: &'static CStr) -> &'static CStr {
    // SAFETY: both strings are NUL-terminated; gettext returns either the
    // key (static here) or a string in a catalog the C library keeps mapped
    // for the life of the process.
    unsafe {
        let p = dcgettext(gnulib_domain().as_ptr(), msgid.as_ptr(), libc::LC_MESSAGES);
        if p.is_null() {
            msgid
        } else {
            CStr::from_ptr(p)
        }
    }
}

fn translate(domain: &CStr, msgid: &str, category: libc::c_int) -> Vec<u8> {
    lookup(domain, msgid, category).unwrap_or_else(|| msgid.as_bytes().to_vec())
}

/// The catalog's translation, or `None` when gettext hands back the key
/// itself (no catalog, C locale, untranslated).
fn lookup(domain: &CStr, msgid: &str, category: libc::c_int) -> Option<Vec<u8>> {
    let key = CString::new(msgid).ok()?;
    // SAFETY: domain and key are valid NUL-terminated strings; the result is
    // copied before the key is dropped (gettext may return the key itself).
    let p = unsafe { dcgettext(domain.as_ptr(), key.as_ptr(), category) };
    if std::ptr::eq(p.cast_const(), key.as_ptr()) {
        return None;
    }
    Some(copy_out(p))
}

/// `tr(key)` with its `%s`/`%c` (or `%N$s`) placeholders filled in.
pub fn msg(key: &str, args: &[&[u8]]) -> Vec<u8> {
    fill(&tr(key), args)
}

/// `tr_libc(key)` filled in (getopt's messages).
pub fn msg_libc(key: &str, args: &[&[u8]]) -> Vec<u8> {
    fill(&tr_libc(key), args)
}

/// Substitutes printf-style placeholders the way the C library's printf
/// does for the messages GNU ls prints: `%s` and `%c` take the next
/// argument, `%N$s` argument N (translations reorder with it), `%%` is a
/// `%`. Anything else is copied unchanged; a missing argument is empty.
pub fn fill(template: &[u8], args: &[&[u8]]) -> Vec<u8> {
    let mut out = Vec::with_capacity(template.len() + args.iter().map(|a| a.len()).sum::<usize>());
    let mut next = 0;
    let mut i = 0;
    while let Some(&b) = template.get(i) {
        if b != b'%' {
            out.push(b);
            i += 1;
            continue;
        }
        let rest = template.get(i + 1..).unwrap_or_default();
        let digits = rest.iter().take_while(|c| c.is_ascii_digit()).count();
        let (index, spec_at) = match rest.get(digits) {
            Some(b'$') if digits > 0 => {
                let n: usize = std::str::from_utf8(&rest[..digits])
                    .ok()
                    .and_then(|d| d.parse().ok())
                    .unwrap_or(0);
                (n.checked_sub(1), digits + 1)
            }
            _ => (None, 0),
        };
        match rest.get(spec_at) {
            Some(b'%') if spec_at == 0 => {
                out.push(b'%');
                i += 2;
            }
            // `%lu` and `%ld` take a number already written in decimal.
            Some(b's' | b'c' | b'l') => {
                let long = rest.get(spec_at) == Some(&b'l');
                if long && !matches!(rest.get(spec_at + 1), Some(b'u' | b'd')) {
                    out.push(b'%');
                    i += 1;
                    continue;
                }
                let k = index.unwrap_or_else(|| {
                    next += 1;
                    next - 1
                });
                out.extend_from_slice(args.get(k).copied().unwrap_or_default());
                i += 1 + spec_at + 1 + usize::from(long);
            }
            _ => {
                out.push(b'%');
                i += 1;
            }
        }
    }
    out
}

/// The C library's text for `errno` (`strerror`): translated through
/// libc's catalog and in LC_CTYPE's codeset, byte for byte what GNU
/// prints after a file name.
pub fn strerror(errno: i32) -> Vec<u8> {
    let mut buf = [0u8; 256];
    // SAFETY: buf is writable for its length; the XSI strerror_r writes a
    // NUL-terminated string into it.
    let r = unsafe { libc::strerror_r(errno, buf.as_mut_ptr().cast(), buf.len()) };
    if r != 0 {
        return format!("Unknown error {errno}").into_bytes();
    }
    let end = buf.iter().position(|&b| b == 0).unwrap_or(buf.len());
    buf[..end].to_vec()
}

#[cfg(test)]
mod tests {
    use super::fill;

    #[test]
    fn placeholders_in_order() {
        assert_eq!(
            fill(b"cannot access %s", &[b"'x'"]),
            b"cannot access 'x'".to_vec()
        );
        assert_eq!(
            fill(b"%s: invalid option -- '%c'\n", &[b"ls", b"y"]),
            b"ls: invalid option -- 'y'\n".to_vec()
        );
    }

    #[test]
    fn long_integer_placeholders_take_the_number_written_out() {
        assert_eq!(
            fill(b"cannot find name for user ID %lu", &[b"1000"]),
            b"cannot find name for user ID 1000".to_vec()
        );
        assert_eq!(fill(b"ID %1$lu, %%l", &[b"7"]), b"ID 7, %l".to_vec());
    }

    #[test]
    fn positional_placeholders_reorder() {
        assert_eq!(
            fill(b"%2$s argument %1$s", &[b"A", b"B"]),
            b"B argument A".to_vec()
        );
    }

    #[test]
    fn percent_and_unknown_conversions_stay() {
        assert_eq!(fill(b"100%% %d %", &[b"x"]), b"100% %d %".to_vec());
        assert_eq!(fill(b"%s %s", &[b"only"]), b"only ".to_vec());
    }
}
