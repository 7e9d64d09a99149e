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

/// What statx (or fstatat) told us about one file. A field the kernel did
/// not return (not asked for, or absent from `stx_mask`) is `None`.
#[derive(Clone, Debug, Default)]
pub struct Metadata {
    pub file_type: Option<FileType>,
    /// Full `st_mode` (type bits included) when STATX_MODE came back.
    pub mode: Option<u32>,
    pub ino: Option<u64>,
    pub nlink: Option<u64>,
    pub uid: Option<u32>,
    pub gid: Option<u32>,
    pub size: Option<u64>,
    /// In 512-byte units, as `st_blocks`.
    pub blocks: Option<u64>,
    pub atime: Option<Timestamp>,
    pub mtime: Option<Timestamp>,
    pub ctime: Option<Timestamp>,
    pub btime: Option<Timestamp>,
    /// Device the file lives on (major, minor); always returned.
    pub dev: (u32, u32),
    /// Device a char/block special file stands for (major, minor).
    pub rdev: (u32, u32),
}
