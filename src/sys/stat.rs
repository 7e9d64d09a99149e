//! statx with a minimal mask, and the one stat-like struct used everywhere.

/// The type of a file, from `d_type` or from `stx_mode`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FileType {
    Regular,
    Directory,
    Symlink,
    Fifo,
    Socket,
    CharDevice,
    BlockDevice,
    /// Solaris doors never occur on Linux, but `LS_COLORS` names them.
    Door,
    /// `DT_UNKNOWN` before a stat, or a type the kernel does not name.
    Unknown,
}

impl FileType {
    /// From the `S_IFMT` bits of a mode.
    pub fn from_mode(mode: u32) -> FileType {
        match mode & 0o170000 {
            0o100000 => FileType::Regular,
            0o040000 => FileType::Directory,
            0o120000 => FileType::Symlink,
            0o010000 => FileType::Fifo,
            0o140000 => FileType::Socket,
            0o020000 => FileType::CharDevice,
            0o060000 => FileType::BlockDevice,
            _ => FileType::Unknown,
        }
    }
}

/// Seconds and nanoseconds since the epoch.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Timestamp {
    pub sec: i64,
    pub nsec: u32,
}

/// The raw values of a stat: each is meaningful only where the
/// [`Metadata`] holding it says the kernel returned it.
#[derive(Clone, Copy, Debug, Default)]
pub struct StatFields {
    /// Full `st_mode` (type bits included).
    pub mode: u32,
    pub uid: u32,
    pub gid: u32,
    /// The kernel's link count is 32 bits (`stx_nlink`, `inode.i_nlink`).
    pub nlink: u32,
    pub ino: u64,
    pub size: u64,
    /// In 512-byte units, as `st_blocks`.
    pub blocks: u64,
    /// The one timestamp asked for (whichever of mtime, atime, ctime and
    /// btime the `Need` holds): a listing shows and sorts by one time only,
    /// so one slot keeps every entry's metadata 48 bytes smaller.
    pub time: Timestamp,
    /// Device the file lives on (major, minor); always returned.
    pub dev: (u32, u32),
    /// Device a char/block special file stands for (major, minor).
    pub rdev: (u32, u32),
}

/// What statx (or fstatat) told us about one file. A field the kernel did
/// not return (not asked for, or absent from `stx_mask`) reads as `None`.
///
/// One mask and plain values (80 bytes) rather than an `Option` per field
/// and every timestamp (208): a long listing keeps one per entry of the
/// largest directory.
#[derive(Clone, Debug, Default)]
pub struct Metadata {
    got: Need,
    fields: StatFields,
}

impl Metadata {
    /// `fields` as far as `got` says they were returned. `fields.time` is
    /// the first of mtime, atime, ctime, btime that `got` holds; any other
    /// time in `got` reads as unknown.
    pub fn new(got: Need, fields: StatFields) -> Metadata {
        let got = match time_slot(got) {
            Some(kept) => Need((got.0 & !Need::ANY_TIME.0) | kept.0),
            None => got,
        };
        Metadata { got, fields }
    }

    fn field<T>(&self, need: Need, value: T) -> Option<T> {
        self.got.contains(need).then_some(value)
    }

    pub fn file_type(&self) -> Option<FileType> {
        self.field(Need::TYPE, FileType::from_mode(self.fields.mode))
    }

    pub fn mode(&self) -> Option<u32> {
        self.field(Need::MODE, self.fields.mode)
    }

    pub fn ino(&self) -> Option<u64> {
        self.field(Need::INO, self.fields.ino)
    }

    pub fn nlink(&self) -> Option<u64> {
        self.field(Need::NLINK, u64::from(self.fields.nlink))
    }

    pub fn uid(&self) -> Option<u32> {
        self.field(Need::UID, self.fields.uid)
    }

    pub fn gid(&self) -> Option<u32> {
        self.field(Need::GID, self.fields.gid)
    }

    pub fn size(&self) -> Option<u64> {
        self.field(Need::SIZE, self.fields.size)
    }

    pub fn blocks(&self) -> Option<u64> {
        self.field(Need::BLOCKS, self.fields.blocks)
    }

    pub fn atime(&self) -> Option<Timestamp> {
        self.field(Need::ATIME, self.fields.time)
    }

    pub fn mtime(&self) -> Option<Timestamp> {
        self.field(Need::MTIME, self.fields.time)
    }

    pub fn ctime(&self) -> Option<Timestamp> {
        self.field(Need::CTIME, self.fields.time)
    }

    pub fn btime(&self) -> Option<Timestamp> {
        self.field(Need::BTIME, self.fields.time)
    }

    pub fn dev(&self) -> (u32, u32) {
        self.fields.dev
    }

    pub fn rdev(&self) -> (u32, u32) {
        self.fields.rdev
    }
}

use std::ffi::CStr;
use std::os::fd::{AsFd, BorrowedFd, OwnedFd};
use std::sync::atomic::{AtomicBool, AtomicU8, Ordering};

use rustix::fs::{AtFlags, Mode, OFlags, StatxFlags, CWD};
use rustix::io::Errno;

/// The statx fields one entry needs: the `STATX_*` bits, computed once by
/// `plan` from the configuration.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, Hash)]
pub struct Need(pub u32);

impl Need {
    pub const NONE: Need = Need(0);
    pub const TYPE: Need = Need(0x1);
    pub const MODE: Need = Need(0x2);
    pub const NLINK: Need = Need(0x4);
    pub const UID: Need = Need(0x8);
    pub const GID: Need = Need(0x10);
    pub const ATIME: Need = Need(0x20);
    pub const MTIME: Need = Need(0x40);
    pub const CTIME: Need = Need(0x80);
    pub const INO: Need = Need(0x100);
    pub const SIZE: Need = Need(0x200);
    pub const BLOCKS: Need = Need(0x400);
    pub const BTIME: Need = Need(0x800);
    /// Every timestamp bit.
    pub const ANY_TIME: Need = Need(0x20 | 0x40 | 0x80 | 0x800);

    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    pub fn contains(self, other: Need) -> bool {
        self.0 & other.0 == other.0
    }
}

impl std::ops::BitOr for Need {
    type Output = Need;
    fn bitor(self, rhs: Need) -> Need {
        Need(self.0 | rhs.0)
    }
}

impl std::ops::BitOrAssign for Need {
    fn bitor_assign(&mut self, rhs: Need) {
        self.0 |= rhs.0;
    }
}

/// How a stat call treats the final path component and the cache.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StatFlags {
    /// Follow a final symlink (stat rather than lstat).
    pub follow: bool,
    /// `AT_STATX_DONT_SYNC`: answer from the client's cache on network
    /// filesystems (only where staleness cannot change the output).
    pub dont_sync: bool,
}

/// `--cached=MODE` (and `LS_CACHED`): how every statx treats the
/// attributes a network filesystem's client has cached. It only ever
/// changes the `AT_STATX_*_SYNC` flag, never the mask.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CacheMode {
    /// GNU ls's requests: synchronized, except where a stale answer cannot
    /// change the output ([`StatFlags::dont_sync`]).
    Default,
    /// `AT_STATX_DONT_SYNC` on every statx: what the client has (the NFS
    /// attribute cache, CephFS caps already held, FUSE attributes that came
    /// with the LOOKUP), even if the attribute timeout has run out.
    Always,
    /// `AT_STATX_FORCE_SYNC` on every statx: ask the server even when the
    /// cached attributes are still valid.
    Never,
}

/// The process's [`CacheMode`], set once at start-up ([`set_cache_mode`]).
static CACHE_MODE: AtomicU8 = AtomicU8::new(0);

/// Sets the [`CacheMode`] every later statx of this process uses.
pub fn set_cache_mode(mode: CacheMode) {
    let v = match mode {
        CacheMode::Default => 0,
        CacheMode::Always => 1,
        CacheMode::Never => 2,
    };
    CACHE_MODE.store(v, Ordering::Relaxed);
}

fn cache_mode() -> CacheMode {
    match CACHE_MODE.load(Ordering::Relaxed) {
        1 => CacheMode::Always,
        2 => CacheMode::Never,
        _ => CacheMode::Default,
    }
}

/// Set once statx has answered ENOSYS: from then on every call goes
/// straight to fstatat.
static STATX_MISSING: AtomicBool = AtomicBool::new(false);

/// Where a name is looked up: the working directory or an open directory.
#[derive(Clone, Copy, Debug)]
pub enum Base<'a> {
    Cwd,
    Dir(BorrowedFd<'a>),
}

impl Base<'_> {
    fn fd(&self) -> BorrowedFd<'_> {
        match self {
            Base::Cwd => CWD,
            Base::Dir(fd) => fd.as_fd(),
        }
    }
}

fn at_flags(flags: StatFlags, empty_path: bool) -> AtFlags {
    let mut at = AtFlags::NO_AUTOMOUNT;
    if !flags.follow {
        at |= AtFlags::SYMLINK_NOFOLLOW;
    }
    match cache_mode() {
        CacheMode::Always => at |= AtFlags::STATX_DONT_SYNC,
        CacheMode::Never => at |= AtFlags::STATX_FORCE_SYNC,
        CacheMode::Default if flags.dont_sync => at |= AtFlags::STATX_DONT_SYNC,
        CacheMode::Default => {}
    }
    if empty_path {
        at |= AtFlags::EMPTY_PATH;
    }
    at
}

/// Stats `name` relative to `base`, asking for exactly `need`.
pub fn stat_at(
    base: Base<'_>,
    name: &CStr,
    need: Need,
    flags: StatFlags,
) -> std::io::Result<Metadata> {
    stat_impl(base.fd(), name, need, at_flags(flags, false))
}

/// Stats an open file descriptor itself (`AT_EMPTY_PATH`).
pub fn stat_fd(fd: BorrowedFd<'_>, need: Need, dont_sync: bool) -> std::io::Result<Metadata> {
    let flags = StatFlags {
        follow: true,
        dont_sync,
    };
    stat_impl(fd, c"", need, at_flags(flags, true))
}

fn stat_impl(
    dirfd: BorrowedFd<'_>,
    name: &CStr,
    need: Need,
    at: AtFlags,
) -> std::io::Result<Metadata> {
    if !STATX_MISSING.load(Ordering::Relaxed) {
        let mask = StatxFlags::from_bits_retain(need.0);
        match super::retry_eintr(|| rustix::fs::statx(dirfd, name, at, mask)) {
            Ok(stx) => return Ok(from_statx(&stx, need)),
            Err(Errno::NOSYS) => STATX_MISSING.store(true, Ordering::Relaxed),
            Err(e) => return Err(e.into()),
        }
    }
    // fstatat knows neither DONT_SYNC nor masks; it always fetches everything.
    let at = at & (AtFlags::SYMLINK_NOFOLLOW | AtFlags::NO_AUTOMOUNT | AtFlags::EMPTY_PATH);
    let st = super::retry_eintr(|| rustix::fs::statat(dirfd, name, at))?;
    Ok(from_stat(&st, need))
}

fn ts(sec: i64, nsec: u32) -> Timestamp {
    Timestamp { sec, nsec }
}

/// Which time [`StatFields::time`] holds for a mask: the first one asked.
fn time_slot(got: Need) -> Option<Need> {
    [Need::MTIME, Need::ATIME, Need::CTIME, Need::BTIME]
        .into_iter()
        .find(|&t| got.contains(t))
}

fn from_statx(stx: &rustix::fs::Statx, asked: Need) -> Metadata {
    // Only what was asked for *and* came back: a field the filesystem
    // volunteered is not used, so the output never depends on it.
    let got = Need(stx.stx_mask & asked.0);
    let ts = |t: &rustix::fs::StatxTimestamp| ts(t.tv_sec, t.tv_nsec);
    let time = match time_slot(got) {
        Some(Need::ATIME) => ts(&stx.stx_atime),
        Some(Need::CTIME) => ts(&stx.stx_ctime),
        Some(Need::BTIME) => ts(&stx.stx_btime),
        _ => ts(&stx.stx_mtime),
    };
    Metadata::new(
        got,
        StatFields {
            mode: u32::from(stx.stx_mode),
            uid: stx.stx_uid,
            gid: stx.stx_gid,
            nlink: stx.stx_nlink,
            ino: stx.stx_ino,
            size: stx.stx_size,
            blocks: stx.stx_blocks,
            time,
            dev: (stx.stx_dev_major, stx.stx_dev_minor),
            rdev: (stx.stx_rdev_major, stx.stx_rdev_minor),
        },
    )
}

fn split_dev(dev: u64) -> (u32, u32) {
    let major = ((dev >> 32) & 0xffff_f000) | ((dev >> 8) & 0x0000_0fff);
    let minor = ((dev >> 12) & 0xffff_ff00) | (dev & 0x0000_00ff);
    (major as u32, minor as u32)
}

// The field types of `struct stat` differ between architectures.
#[allow(clippy::unnecessary_cast)]
fn from_stat(st: &rustix::fs::Stat, asked: Need) -> Metadata {
    // As with statx, only what was asked for is used, so both paths give
    // the same output. fstatat has no birth time: it stays unknown, as GNU
    // shows it.
    let everything_but_btime = Need::TYPE
        | Need::MODE
        | Need::NLINK
        | Need::UID
        | Need::GID
        | Need::ATIME
        | Need::MTIME
        | Need::CTIME
        | Need::INO
        | Need::SIZE
        | Need::BLOCKS;
    let got = Need(everything_but_btime.0 & asked.0);
    let time = match time_slot(got) {
        Some(Need::ATIME) => ts(st.st_atime as i64, st.st_atime_nsec as u32),
        Some(Need::CTIME) => ts(st.st_ctime as i64, st.st_ctime_nsec as u32),
        _ => ts(st.st_mtime as i64, st.st_mtime_nsec as u32),
    };
    Metadata::new(
        got,
        StatFields {
            mode: st.st_mode as u32,
            uid: st.st_uid,
            gid: st.st_gid,
            nlink: st.st_nlink as u32,
            ino: st.st_ino as u64,
            size: st.st_size as u64,
            blocks: st.st_blocks as u64,
            time,
            dev: split_dev(st.st_dev as u64),
            rdev: split_dev(st.st_rdev as u64),
        },
    )
}

/// Opens `name` relative to `base` as an `O_PATH` handle: the one lookup
/// of the name, after which the entry is stat'ed ([`stat_fd`]), its link
/// read ([`read_link_handle`]) and its xattrs probed without walking the
/// name again. An `O_PATH` open does not trigger automounts, like
/// `AT_NO_AUTOMOUNT`.
pub fn open_handle(base: Base<'_>, name: &CStr, follow: bool) -> std::io::Result<OwnedFd> {
    let mut flags = OFlags::PATH | OFlags::CLOEXEC;
    if !follow {
        flags |= OFlags::NOFOLLOW;
    }
    let open = || rustix::fs::openat(base.fd(), name, flags, Mode::empty());
    Ok(super::retry_eintr(open)?)
}

/// Reads the target of the symlink an `O_PATH` handle holds.
pub fn read_link_handle(fd: BorrowedFd<'_>) -> std::io::Result<Vec<u8>> {
    let target = super::retry_eintr(|| rustix::fs::readlinkat(fd, c"", Vec::new()))?;
    Ok(target.into_bytes())
}

/// Reads the target of the symlink `name` relative to `base`.
pub fn read_link(base: Base<'_>, name: &CStr) -> std::io::Result<Vec<u8>> {
    let target = super::retry_eintr(|| rustix::fs::readlinkat(base.fd(), name, Vec::new()))?;
    Ok(target.into_bytes())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn metadata_stays_small() {
        // A long listing holds one per entry of the largest directory.
        assert!(std::mem::size_of::<Metadata>() <= 80);
    }

    #[test]
    fn only_returned_fields_are_read() {
        let fields = StatFields {
            mode: 0o100644,
            size: 42,
            nlink: 3,
            ..StatFields::default()
        };
        let m = Metadata::new(Need::TYPE | Need::SIZE, fields);
        assert_eq!(m.file_type(), Some(FileType::Regular));
        assert_eq!(m.size(), Some(42));
        assert_eq!(m.mode(), None);
        assert_eq!(m.nlink(), None);
        assert_eq!(m.mtime(), None);
    }
}
