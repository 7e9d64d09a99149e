//! Extended attribute probes for the long format's ACL/security-context
//! marker (`+`, `.`), with a per-device "not supported" cache so that a
//! filesystem without xattrs costs one failed probe, not one per file.

use std::collections::HashSet;
use std::ffi::CStr;
use std::os::fd::{AsRawFd, BorrowedFd};

use rustix::io::Errno;

/// What GNU marks after the mode string.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AccessMarker {
    /// Nothing beyond the permission bits.
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
/// "not supported".
#[derive(Default)]
pub struct AclProbe {
    no_acl_devices: HashSet<(u32, u32)>,
    no_context_devices: HashSet<(u32, u32)>,
    selinux: Option<bool>,
    path: Vec<u8>,
}

/// Builds the probe path NUL-terminated in `buf` (reused, so probing
/// allocates nothing per entry): `/proc/self/fd/N/name` through the open
/// directory, so the parent path is not walked again, else `name` itself.
fn path_in<'b>(buf: &'b mut Vec<u8>, dir: Option<BorrowedFd<'_>>, name: &[u8]) -> Option<&'b CStr> {
    use std::io::Write;
    buf.clear();
    if let Some(fd) = dir {
        let _ = write!(buf, "/proc/self/fd/{}/", fd.as_raw_fd());
    }
    buf.extend_from_slice(name);
    buf.push(0);
    CStr::from_bytes_with_nul(buf).ok()
}

fn unsupported(e: Errno) -> bool {
    e == Errno::NOTSUP || e == Errno::OPNOTSUPP || e == Errno::NOSYS
}

impl AclProbe {
    fn selinux_enabled(&mut self) -> bool {
        *self
            .selinux
            .get_or_insert_with(|| rustix::fs::statfs("/sys/fs/selinux/enforce").is_ok())
    }

    /// The marker for `name` (relative to `dir`, or to the working
    /// directory). Never called for symlinks themselves, so the probes
    /// follow links: a name reached through `-L`/`-H` reports its target. `dev` is the file's device, `is_dir` adds the default ACL.
    pub fn marker(
        &mut self,
        dir: Option<BorrowedFd<'_>>,
        name: &[u8],
        dev: (u32, u32),
        is_dir: bool,
    ) -> AccessMarker {
        let mut buf = std::mem::take(&mut self.path);
        let marker = match path_in(&mut buf, dir, name) {
            Some(path) => self.marker_of(path, dev, is_dir),
            None => AccessMarker::None,
        };
        self.path = buf;
        marker
    }

    fn marker_of(&mut self, path: &CStr, dev: (u32, u32), is_dir: bool) -> AccessMarker {
        if !self.no_acl_devices.contains(&dev) {
            let mut buf = [0u8; 256];
            match rustix::fs::getxattr(path, ACL_ACCESS, &mut buf[..]) {
                Ok(n) if n > TRIVIAL_ACL_SIZE => return AccessMarker::Acl,
                Err(Errno::RANGE) => return AccessMarker::Acl,
                Err(e) if unsupported(e) => {
                    self.no_acl_devices.insert(dev);
                }
                _ => {
                    if is_dir {
                        match rustix::fs::getxattr(path, ACL_DEFAULT, &mut buf[..]) {
                            Ok(n) if n > 0 => return AccessMarker::Acl,
                            Err(Errno::RANGE) => return AccessMarker::Acl,
                            _ => {}
                        }
                    }
                }
            }
        }
        if self.selinux_enabled() && !self.no_context_devices.contains(&dev) {
            match rustix::fs::getxattr(path, SELINUX, &mut [0u8; 0][..]) {
                Ok(n) if n > 0 => return AccessMarker::Context,
                Err(e) if unsupported(e) => {
                    self.no_context_devices.insert(dev);
                }
                _ => {}
            }
        }
        AccessMarker::None
    }
}

impl AclProbe {
    /// The SELinux context of `name` for `-Z`; None when there is none
    /// (GNU prints `?`).
    pub fn context(
        &mut self,
        dir: Option<BorrowedFd<'_>>,
        name: &[u8],
        dev: (u32, u32),
    ) -> Option<Vec<u8>> {
        if !self.selinux_enabled() || self.no_context_devices.contains(&dev) {
            return None;
        }
        let mut path_buf = std::mem::take(&mut self.path);
        let result = path_in(&mut path_buf, dir, name).map(|path| {
            let mut buf = vec![0u8; 256];
            rustix::fs::lgetxattr(path, SELINUX, &mut buf[..]).map(|n| (buf, n))
        });
        self.path = path_buf;
        match result? {
            Ok((mut buf, n)) => {
                buf.truncate(n);
                // The stored value ends with a NUL.
                while buf.last() == Some(&0) {
                    buf.pop();
                }
                Some(buf)
            }
            Err(e) => {
                if unsupported(e) {
                    self.no_context_devices.insert(dev);
                }
                None
            }
        }
    }
}
