//! Which filesystems answer each request over a network (or through a
//! userspace server), where per-entry probes are worth overlapping.
//!
//! Decided from the filesystem type that `/proc/self/mountinfo` gives for a
//! device, read once per run and only when a directory has enough entries to
//! probe: `fstatfs(2)` would itself be a server round-trip on FUSE and NFS.

use std::collections::HashMap;
use std::sync::OnceLock;

/// Filesystem types whose every lookup, getattr or xattr read may be a
/// round-trip to a server (or to a FUSE daemon).
fn is_remote_type(fstype: &[u8]) -> bool {
    const REMOTE: &[&[u8]] = &[
        b"nfs",
        b"nfs4",
        b"ceph",
        b"cifs",
        b"smb3",
        b"smbfs",
        b"9p",
        b"afs",
        b"coda",
        b"fuse",
        b"fuseblk",
        b"virtiofs",
        b"lustre",
        b"gfs2",
        b"ocfs2",
        b"glusterfs",
        b"beegfs",
        b"gpfs",
        b"orangefs",
        b"pvfs2",
        b"ncpfs",
    ];
    REMOTE.contains(&fstype) || fstype.starts_with(b"fuse.")
}

/// (major, minor) → filesystem type, from one read of mountinfo.
fn mount_types() -> &'static HashMap<(u32, u32), bool> {
    static TYPES: OnceLock<HashMap<(u32, u32), bool>> = OnceLock::new();
    TYPES.get_or_init(|| {
        read_mountinfo()
            .map(|text| parse_mountinfo(&text))
            .unwrap_or_default()
    })
}

/// The whole of /proc/self/mountinfo, read with plain openat and read:
/// `std::fs::read` would first statx it (STATX_ALL, without
/// AT_NO_AUTOMOUNT) for a size hint that procfs does not give anyway.
fn read_mountinfo() -> std::io::Result<Vec<u8>> {
    use rustix::fs::{openat, Mode, OFlags, CWD};
    let fd = openat(
        CWD,
        "/proc/self/mountinfo",
        OFlags::RDONLY | OFlags::CLOEXEC,
        Mode::empty(),
    )?;
    let mut text = Vec::new();
    let mut chunk = [0u8; 16 * 1024];
    loop {
        match rustix::io::read(&fd, &mut chunk) {
            Ok(0) => return Ok(text),
            Ok(n) => text.extend_from_slice(&chunk[..n]),
            Err(rustix::io::Errno::INTR) => {}
            Err(e) => return Err(e.into()),
        }
    }
}

/// Each mountinfo line is `ID PARENT MAJOR:MINOR ROOT POINT OPTIONS
/// [OPTIONAL...] - FSTYPE SOURCE SUPER-OPTIONS`.
fn parse_mountinfo(text: &[u8]) -> HashMap<(u32, u32), bool> {
    let mut types = HashMap::new();
    for line in text.split(|&b| b == b'\n') {
        let mut fields = line.split(|&b| b == b' ');
        let Some(dev) = fields.nth(2) else { continue };
        let Some(fstype) = fields.skip_while(|&f| f != b"-").nth(1) else {
            continue;
        };
        let Some((major, minor)) = parse_dev(dev) else {
            continue;
        };
        // A device mounted several times (bind mounts) has one type; if two
        // lines disagree, prefer "remote": overlapping is only slower locally,
        // never wrong.
        *types.entry((major, minor)).or_insert(false) |= is_remote_type(fstype);
    }
    types
}

fn parse_dev(field: &[u8]) -> Option<(u32, u32)> {
    let text = std::str::from_utf8(field).ok()?;
    let (major, minor) = text.split_once(':')?;
    Some((major.parse().ok()?, minor.parse().ok()?))
}

/// Whether files on device `dev` live on a network or userspace filesystem.
/// Unknown devices (btrfs subvolumes, a mountinfo that cannot be read) count
/// as local.
pub fn is_remote(dev: (u32, u32)) -> bool {
    mount_types().get(&dev).copied().unwrap_or(false)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mountinfo_lines_give_device_types() {
        let text = b"27 1 254:0 / / rw,relatime - ext4 /dev/vda rw\n\
            60 27 0:51 / /mnt/nfs rw shared:5 - nfs4 srv:/x rw\n\
            61 27 0:52 / /mnt/f rw,nosuid - fuse.sshfs host: rw\n\
            62 27 0:53 / /mnt/c rw - ceph 1.2.3.4:/ rw\n";
        let types = parse_mountinfo(text);
        assert_eq!(types.get(&(254, 0)), Some(&false));
        assert_eq!(types.get(&(0, 51)), Some(&true));
        assert_eq!(types.get(&(0, 52)), Some(&true));
        assert_eq!(types.get(&(0, 53)), Some(&true));
    }

    #[test]
    fn local_types_are_not_remote() {
        for t in [
            &b"ext4"[..],
            b"xfs",
            b"btrfs",
            b"tmpfs",
            b"proc",
            b"overlay",
        ] {
            assert!(!is_remote_type(t));
        }
    }
}
