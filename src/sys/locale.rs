//! The C library's locale: `setlocale`, the character set, and `strcoll`.
//! GNU ls sorts names with strcoll, so nothing else would match it in
//! locales such as en_US.UTF-8.

use std::ffi::CStr;

/// What the rest of the program needs to know about the locale.
#[derive(Clone, Copy, Debug)]
pub struct LocaleInfo {
    /// LC_CTYPE's character set is UTF-8.
    pub utf8: bool,
    /// LC_CTYPE's character set, for quoting and widths.
    pub charset: super::charset::Charset,
    /// strcoll is byte order (LC_COLLATE "C"/"POSIX", or glibc's C.UTF-8):
    /// skip the C library.
    pub collate_bytes: bool,
    /// LC_TIME is "C"/"POSIX" (decides `posix-` time styles).
    pub time_posix: bool,
}

/// The name of the locale a category is set to (`None` if unknown).
fn category_name(category: libc::c_int) -> Option<Vec<u8>> {
    // SAFETY: setlocale with a null pointer only queries; the returned
    // string is owned by the C library and copied before the next call.
    let name = unsafe { libc::setlocale(category, std::ptr::null()) };
    if name.is_null() {
        return None;
    }
    // SAFETY: non-null, NUL-terminated, valid until the next setlocale.
    Some(unsafe { CStr::from_ptr(name) }.to_bytes().to_vec())
}

fn category_is_posix(category: libc::c_int) -> bool {
    category_name(category).is_none_or(|n| n == b"C" || n == b"POSIX")
}

/// Whether strcoll is plain byte order: in C/POSIX, and in glibc's C.UTF-8
/// from 2.35 on (its collation is declared `codepoint_collation`, which
/// strcoll implements as strcmp). Checked on names whose byte order differs
/// from any real collation too, so a look-alike locale is not mistaken.
fn collation_is_byte_order() -> bool {
    if category_is_posix(libc::LC_COLLATE) {
        return true;
    }
    let c_utf8 = category_name(libc::LC_COLLATE)
        .is_some_and(|n| n.eq_ignore_ascii_case(b"C.UTF-8") || n.eq_ignore_ascii_case(b"C.utf8"));
    if !c_utf8 || !glibc_at_least(2, 35) {
        return false;
    }
    let probes: [(&CStr, &CStr); 6] = [
        (c"B", c"a"),
        (c"_c", c"B"),
        (c"a-b", c"ab"),
        (c"\xc3\xa9", c"f"),
        (c"\xff", c"\xc3\xa9"),
        (c"Z", c"\xff"),
    ];
    probes
        .iter()
        .all(|(a, b)| strcoll_cstr(a, b) == a.to_bytes().cmp(b.to_bytes()))
}

fn glibc_at_least(major: u32, minor: u32) -> bool {
    // SAFETY: returns a pointer to a static NUL-terminated version string.
    let version = unsafe { CStr::from_ptr(libc::gnu_get_libc_version()) };
    let mut parts = version
        .to_str()
        .unwrap_or("")
        .split('.')
        .map(|p| p.parse::<u32>().unwrap_or(0));
    let (have_major, have_minor) = (parts.next().unwrap_or(0), parts.next().unwrap_or(0));
    (have_major, have_minor) >= (major, minor)
}

/// Sets the locale from the environment (LC_ALL, LC_*, LANG) once, at
/// start-up, and reports what it is.
pub fn init() -> LocaleInfo {
    // SAFETY: called once at start-up before any other thread exists.
    unsafe {
        libc::setlocale(libc::LC_ALL, c"".as_ptr());
    }
    super::intl::init();
    let charset = super::charset::current();
    LocaleInfo {
        utf8: charset == super::charset::Charset::Utf8,
        charset,
        collate_bytes: collation_is_byte_order(),
        time_posix: category_is_posix(libc::LC_TIME),
    }
}

/// strcoll on names that are already C strings (no copies).
pub fn strcoll_cstr(a: &CStr, b: &CStr) -> std::cmp::Ordering {
    // SAFETY: both are valid NUL-terminated strings.
    let r = unsafe { libc::strcoll(a.as_ptr(), b.as_ptr()) };
    r.cmp(&0)
}

/// Writes strxfrm's transform of `name` into `key`, replacing what it held
/// and reusing its capacity (one buffer serves a whole directory). Keys
/// compare with byte order as the names compare with strcoll, except where
/// glibc's two disagree (see `sort::names` for which part of a key is
/// trusted).
pub fn transform_into(name: &CStr, key: &mut Vec<u8>) {
    key.clear();
    key.reserve(4 * name.to_bytes().len() + 64);
    loop {
        let room = key.capacity();
        // SAFETY: `key` has `room` writable bytes; strxfrm writes at most
        // `room` of them (the transform and its NUL) and returns the
        // transform's length; `name` is NUL-terminated.
        let n = unsafe { libc::strxfrm(key.as_mut_ptr().cast(), name.as_ptr(), room) };
        if n < room {
            // SAFETY: strxfrm wrote the `n` bytes of the transform.
            unsafe { key.set_len(n) };
            return;
        }
        key.reserve(n + 1);
    }
}
