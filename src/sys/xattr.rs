//! Extended attribute probes for the long format's ACL/security-context
//! marker (`+`, `.`), with a per-device "not supported" cache so that a
//! filesystem without xattrs costs one failed probe, not one per file.

use std::collections::HashSet;
use std::ffi::CStr;
use std::os::fd::{AsRawFd, BorrowedFd};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, OnceLock};

use rustix::io::Errno;

/// What GNU marks after the mode string.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum AccessMarker {
    /// Nothing beyond the permission bits.
    #[default]
    None,
    /// Only an SELinux security context (`.`).
    Context,
    /// A non-trivial POSIX ACL (`+`).
    Acl,
}

const ACL_ACCESS: &std::ffi::CStr = c"system.posix_acl_access";
const ACL_DEFAULT: &std::ffi::CStr = c"system.posix_acl_default";
const SELINUX: &std::ffi::CStr = c"security.selinux";
/// An ACL xattr is a 4-byte header and 8-byte entries; the three base
/// entries (owner, group, other) make it trivial.
const TRIVIAL_ACL_SIZE: usize = 4 + 3 * 8;

/// Probes files for ACLs and contexts, remembering devices that say
/// "not supported". Shared by the threads that probe a directory's entries
/// concurrently.
#[derive(Default)]
pub struct AclProbe {
    no_acl_devices: DeviceSet,
    no_context_devices: DeviceSet,
    selinux: OnceLock<bool>,
}

/// Devices known not to support an xattr namespace. Asked once per probe
/// by every probing thread and almost always empty: `any` answers that
/// without the lock, which threads would otherwise pass back and forth.
#[derive(Default)]
struct DeviceSet {
    any: AtomicBool,
    devices: Mutex<HashSet<(u32, u32)>>,
}

impl DeviceSet {
    fn contains(&self, dev: (u32, u32)) -> bool {
        self.any.load(Ordering::Acquire) && self.devices.lock().is_ok_and(|set| set.contains(&dev))
    }

    fn insert(&self, dev: (u32, u32)) {
        if let Ok(mut set) = self.devices.lock() {
            set.insert(dev);
            self.any.store(true, Ordering::Release);
        }
    }
}

/// Set once getxattrat(2) turned out to be missing (Linux before 6.13, or
/// a seccomp filter): from then on probes go by path.
static GETXATTRAT_MISSING: AtomicBool = AtomicBool::new(false);

/// The open directory an entry was read from, and its path as listed.
#[derive(Clone, Copy)]
pub struct InDir<'a> {
    pub fd: BorrowedFd<'a>,
    pub path: &'a [u8],
}

/// What a probe looks at.
#[derive(Clone, Copy)]
pub enum Target<'a> {
    /// A path relative to the working directory (a command-line operand).
    Path(&'a CStr),
    /// A name in an open directory.
    InDir(InDir<'a>, &'a CStr),
    /// The file an `O_PATH` descriptor stands for (itself, even a symlink),
    /// read through `/proc/self/fd/N`: no lookup of the name again.
    Handle(BorrowedFd<'a>),
}

impl Target<'_> {
    /// Whether the file has capabilities, as libcap's `cap_get_file` and
    /// `cap_to_text` see it: a `security.capability` attribute whose
    /// permitted or inheritable sets are not empty. Any error means none.
    pub fn has_capability(&self) -> bool {
        let mut value = [0u8; 24];
        match self.get(c"security.capability", &mut value, true) {
            // magic and flags, then the permitted and inheritable words
            // (one pair in version 1, two from version 2; a root id after).
            Ok(n) if n >= 12 => value[4..n.min(20)].iter().any(|&b| b != 0),
            _ => false,
        }
    }

    /// The value of `attr` (its size when `value` is empty), following a
    /// final symlink or not, like getxattr/lgetxattr.
    fn get(&self, attr: &CStr, value: &mut [u8], follow: bool) -> Result<usize, Errno> {
        super::retry_eintr(|| self.get_once(attr, value, follow))
    }

    fn get_once(&self, attr: &CStr, value: &mut [u8], follow: bool) -> Result<usize, Errno> {
        let (dir, name) = match *self {
            Target::Path(path) => return get_by_path(path, attr, value, follow),
            Target::Handle(fd) => return get_by_handle(fd, attr, value),
            Target::InDir(dir, name) => (dir, name),
        };
        if !GETXATTRAT_MISSING.load(Ordering::Relaxed) {
            match getxattrat(dir.fd, name, attr, value, follow) {
                Err(Errno::NOSYS) => GETXATTRAT_MISSING.store(true, Ordering::Relaxed),
                // A seccomp filter may answer EPERM for calls it does not
                // know: believe it only if the other way agrees.
                Err(Errno::PERM) => {
                    let fallback = get_without_getxattrat(dir, name, attr, value, follow);
                    if fallback != Err(Errno::PERM) {
                        GETXATTRAT_MISSING.store(true, Ordering::Relaxed);
                    }
                    return fallback;
                }
                result => return result,
            }
        }
        get_without_getxattrat(dir, name, attr, value, follow)
    }
}

/// As GNU ls does, by the listed path (`dir/name`); through
/// `/proc/self/fd/N/name` when that path is too long for the kernel.
fn get_without_getxattrat(
    dir: InDir<'_>,
    name: &CStr,
    attr: &CStr,
    value: &mut [u8],
    follow: bool,
) -> Result<usize, Errno> {
    use std::io::Write;
    const PATH_MAX: usize = 4096;
    let name = name.to_bytes();
    let mut path = super::path::entry_path(dir.path, name);
    if path.len() >= PATH_MAX {
        path.clear();
        let _ = write!(path, "/proc/self/fd/{}/", dir.fd.as_raw_fd());
        path.extend_from_slice(name);
    }
    path.push(0);
    let path = CStr::from_bytes_with_nul(&path).map_err(|_| Errno::INVAL)?;
    get_by_path(path, attr, value, follow)
}

/// fgetxattr refuses `O_PATH` descriptors (EBADF); the descriptor's
/// `/proc/self/fd` link resolves to the file it holds without a lookup and
/// without following that file if it is itself a symlink.
fn get_by_handle(fd: BorrowedFd<'_>, attr: &CStr, value: &mut [u8]) -> Result<usize, Errno> {
    use std::io::Write;
    let mut path = [0u8; 32];
    let mut cursor = &mut path[..];
    let _ = write!(cursor, "/proc/self/fd/{}\0", fd.as_raw_fd());
    let path = CStr::from_bytes_until_nul(&path).map_err(|_| Errno::INVAL)?;
    rustix::fs::getxattr(path, attr, value)
}

fn get_by_path(path: &CStr, attr: &CStr, value: &mut [u8], follow: bool) -> Result<usize, Errno> {
    if follow {
        rustix::fs::getxattr(path, attr, value)
    } else {
        rustix::fs::lgetxattr(path, attr, value)
    }
}

/// `struct xattr_args` of getxattrat(2).
#[repr(C)]
struct XattrArgs {
    value: u64,
    size: u32,
    flags: u32,
}

/// getxattrat(2), Linux 6.13: one lookup of `name` in the open directory.
/// The syscall number is shared by every architecture (the unified table).
fn getxattrat(
    dir: BorrowedFd<'_>,
    name: &CStr,
    attr: &CStr,
    value: &mut [u8],
    follow: bool,
) -> Result<usize, Errno> {
    const SYS_GETXATTRAT: libc::c_long = 464;
    let mut args = XattrArgs {
        value: value.as_mut_ptr() as u64,
        size: u32::try_from(value.len()).unwrap_or(u32::MAX),
        flags: 0,
    };
    let at_flags = if follow { 0 } else { libc::AT_SYMLINK_NOFOLLOW };
    // SAFETY: every pointer is valid for the call: the names are
    // NUL-terminated, `args.value` points to `value.len()` writable bytes,
    // and `args` is a live `struct xattr_args` of the size passed.
    let n = unsafe {
        libc::syscall(
            SYS_GETXATTRAT,
            dir.as_raw_fd(),
            name.as_ptr(),
            at_flags,
            attr.as_ptr(),
            &mut args as *mut XattrArgs,
            std::mem::size_of::<XattrArgs>(),
        )
    };
    if n < 0 {
        let errno = std::io::Error::last_os_error().raw_os_error().unwrap_or(0);
        return Err(Errno::from_raw_os_error(errno));
    }
    Ok(n as usize)
}

fn unsupported(e: Errno) -> bool {
    e == Errno::NOTSUP || e == Errno::OPNOTSUPP || e == Errno::NOSYS
}

/// Whether GNU ls keeps quiet about a failed probe: the attribute is not
/// there or not supported (its getfilecon rule, which decides for its first
/// probe); any other error it reports as `ls: NAME: error`.
fn quiet(e: Errno) -> bool {
    unsupported(e) || e == Errno::NODATA
}

/// A probe error GNU reports (status unchanged).
pub type ProbeError = std::io::Error;

fn reported(e: Errno) -> ProbeError {
    std::io::Error::from_raw_os_error(e.raw_os_error())
}

impl AclProbe {
    fn selinux_enabled(&self) -> bool {
        *self
            .selinux
            .get_or_init(|| rustix::fs::statfs("/sys/fs/selinux/enforce").is_ok())
    }

    /// The marker for `target`, or the error GNU reports for it (then no
    /// marker). Never called for symlinks themselves, so the probes follow
    /// links: a name reached through `-L`/`-H` reports its target. `dev`
    /// is the file's device, `is_dir` adds the default ACL.
    /// Whether [`AclProbe::marker`] may ask the filesystem of `dev`
    /// anything (false once it is known to answer neither ACLs nor
    /// contexts).
    pub fn marker_may_ask(&self, dev: (u32, u32)) -> bool {
        !self.no_acl_devices.contains(dev)
            || (self.selinux_enabled() && !self.no_context_devices.contains(dev))
    }

    pub fn marker(
        &self,
        target: Target<'_>,
        dev: (u32, u32),
        is_dir: bool,
    ) -> Result<AccessMarker, ProbeError> {
        if !self.no_acl_devices.contains(dev) {
            let mut buf = [0u8; 256];
            match target.get(ACL_ACCESS, &mut buf[..], true) {
                Ok(n) if n > TRIVIAL_ACL_SIZE => return Ok(AccessMarker::Acl),
                Err(Errno::RANGE) => return Ok(AccessMarker::Acl),
                Err(e) if unsupported(e) => {
                    self.no_acl_devices.insert(dev);
                }
                Err(e) if !quiet(e) => return Err(reported(e)),
                _ => {
                    if is_dir {
                        match target.get(ACL_DEFAULT, &mut buf[..], true) {
                            Ok(n) if n > 0 => return Ok(AccessMarker::Acl),
                            Err(Errno::RANGE) => return Ok(AccessMarker::Acl),
                            Err(e) if !quiet(e) && e != Errno::INVAL => return Err(reported(e)),
                            _ => {}
                        }
                    }
                }
            }
        }
        if self.selinux_enabled() && !self.no_context_devices.contains(dev) {
            match target.get(SELINUX, &mut [0u8; 0][..], true) {
                Ok(n) if n > 0 => return Ok(AccessMarker::Context),
                Err(e) if unsupported(e) => {
                    self.no_context_devices.insert(dev);
                }
                Err(e) if !quiet(e) => return Err(reported(e)),
                _ => {}
            }
        }
        Ok(AccessMarker::None)
    }
}

impl AclProbe {
    /// The SELinux context of `name` for `-Z`; None when there is none
    /// (GNU prints `?`), or the error GNU reports. Read whether or not
    /// SELinux is enabled, as GNU reads it: files may carry one anyway.
    pub fn context(
        &self,
        target: Target<'_>,
        dev: (u32, u32),
    ) -> Result<Option<Vec<u8>>, ProbeError> {
        if self.no_context_devices.contains(dev) {
            return Ok(None);
        }
        let mut buf = vec![0u8; 256];
        let mut got = target.get(SELINUX, &mut buf[..], false);
        if got == Err(Errno::RANGE) {
            // Longer than usual: ask its size, then read it.
            if let Ok(n) = target.get(SELINUX, &mut [0u8; 0][..], false) {
                buf.resize(n, 0);
                got = target.get(SELINUX, &mut buf[..], false);
            }
        }
        match got {
            Ok(n) => {
                buf.truncate(n);
                // The stored value ends with a NUL.
                while buf.last() == Some(&0) {
                    buf.pop();
                }
                Ok(Some(buf))
            }
            Err(e) => {
                if unsupported(e) {
                    self.no_context_devices.insert(dev);
                }
                if quiet(e) {
                    Ok(None)
                } else {
                    Err(reported(e))
                }
            }
        }
    }
}
