//! Which statx fields each entry needs, decided once from the configuration.
//!
//! A plain listing needs nothing per entry (getdents' d_type is enough, and
//! often not even that). Every flag adds only the fields it prints or sorts
//! by, and only for the file types whose output depends on them: `--color`
//! asks for the mode of regular files and directories only, `-F` for the
//! mode of regular files only (the `*`), `-i` for the inode number, …
//! `--json` asks each entry what the same flags ask without it (only a
//! `DT_UNKNOWN` entry is also asked its type), and makes no ACL probes.
#![forbid(unsafe_code)]

use crate::config::Config;
use crate::options::{Dereference, Format, IndicatorStyle, SortKey, TimeField};
use crate::sys::stat::Need;
use crate::sys::FileType;

/// Per-entry stat requirements.
#[derive(Clone, Debug)]
pub struct Plan {
    /// What to ask for, by the type getdents reported. An empty mask means
    /// no stat call at all for entries of that type.
    by_type: [Need; 9],
    /// Symlinks inside directories are followed (`-L`).
    pub follow_links: bool,
    /// Symlink targets are read: `-l` prints `-> target`, and GNU reads
    /// them wherever it checks link modes (reporting what it cannot read).
    pub read_link: bool,
    /// Symlink targets are stat'ed (with this mask) to colour or classify
    /// them, or to find out whether they are directories.
    pub link_target: Need,
    /// The `total` line is printed for directories (`-l`, `-s`).
    pub print_total: bool,
    /// Operands show their blocks: `-s`, or `--json -l` (whose records
    /// all carry `blocks`, operands' included).
    operand_blocks: bool,
    /// Probe ACLs / security contexts for the long format's marker.
    pub access_marker: bool,
    /// Read security contexts for `-Z`.
    pub context: bool,
    /// Probe regular files stat'ed for capabilities (`ca`, a GNU built
    /// with libcap).
    pub capability: bool,
}

fn type_index(t: FileType) -> usize {
    match t {
        FileType::Regular => 0,
        FileType::Directory => 1,
        FileType::Symlink => 2,
        FileType::Fifo => 3,
        FileType::Socket => 4,
        FileType::CharDevice => 5,
        FileType::BlockDevice => 6,
        FileType::Door => 7,
        FileType::Unknown => 8,
    }
}

const ALL_TYPES: [FileType; 8] = [
    FileType::Regular,
    FileType::Directory,
    FileType::Symlink,
    FileType::Fifo,
    FileType::Socket,
    FileType::CharDevice,
    FileType::BlockDevice,
    FileType::Door,
];

/// The statx field holding the timestamp `field`.
pub fn time_need(field: TimeField) -> Need {
    match field {
        TimeField::Modification => Need::MTIME,
        TimeField::Access => Need::ATIME,
        TimeField::Change => Need::CTIME,
        TimeField::Birth => Need::BTIME,
    }
}

impl Plan {
    pub fn new(config: &Config) -> Plan {
        let long = config.format == Format::Long;
        let mut common = Need::NONE;
        if long {
            common |= Need::TYPE | Need::MODE | Need::NLINK | Need::SIZE | time_need(config.time);
            if config.long.owner || config.long.author {
                common |= Need::UID;
            }
            if config.long.group {
                common |= Need::GID;
            }
        }
        if config.inode {
            common |= Need::INO;
        }
        if config.size_blocks || long {
            // -l prints `total`, which sums st_blocks.
            common |= Need::BLOCKS;
        }
        if config.context || config.hyperlink {
            // GNU stats every entry for these (its errors show it); the
            // type is the cheapest field to ask for.
            common |= Need::TYPE;
        }
        match config.sort {
            SortKey::Size => common |= Need::SIZE,
            SortKey::Time => common |= time_need(config.time),
            _ => {}
        }
        let mut by_type = [common; 9];
        for t in ALL_TYPES {
            let need = &mut by_type[type_index(t)];
            if let Some(colors) = &config.color {
                if colors.needs_mode(t) {
                    *need |= Need::TYPE | Need::MODE;
                }
                if t == FileType::Regular && colors.needs_nlink() {
                    *need |= Need::TYPE | Need::NLINK;
                }
            }
            if config.indicator == IndicatorStyle::Classify && t == FileType::Regular {
                *need |= Need::TYPE | Need::MODE;
            }
        }
        let follow_links = config.dereference == Dereference::Always;
        // The type of every entry matters (for `-F`, `-R`, colours, …):
        // entries whose `d_type` is unknown must then be stat'ed.
        let need_type = long
            || config.recursive
            || config.color.is_some()
            || config.indicator != IndicatorStyle::None
            || config.group_directories_first;
        // With -L a symlink is only followed when something about the entry
        // is printed or sorted by: a plain `ls -L` lists dangling links
        // silently, as GNU does.
        let stats_anything = need_type || by_type.iter().any(|n| !n.is_empty());
        let symlink_matters = (follow_links && stats_anything) || config.group_directories_first;
        // GNU stats a symlink's target (after reading it) when it checks
        // link modes (`--group-directories-first`, or colours that depend
        // on the target) or when `-l` shows the target's `-F`/`--file-type`
        // indicator; never for `-p` alone. Its colour then follows the
        // target's full mode, and an unstat'ed target is coloured as an
        // orphan.
        let check_symlink_mode = config.group_directories_first
            || config
                .color
                .as_ref()
                .is_some_and(|c| c.needs_link_target(long));
        let target_indicator = matches!(
            config.indicator,
            IndicatorStyle::FileType | IndicatorStyle::Classify
        );
        let mut link_target = Need::NONE;
        if check_symlink_mode || (long && target_indicator) {
            link_target |= Need::TYPE;
            if config.color.is_some() || config.indicator == IndicatorStyle::Classify {
                link_target |= Need::MODE;
            }
        }
        let sym = &mut by_type[type_index(FileType::Symlink)];
        if symlink_matters {
            *sym |= Need::TYPE;
        }
        if follow_links && stats_anything {
            // Following a link may reveal any type: ask for the union.
            let union = by_type.iter().fold(Need::TYPE, |a, &b| a | b);
            by_type[type_index(FileType::Symlink)] = union;
        }
        let union = by_type.iter().fold(Need::NONE, |a, &b| a | b);
        // JSON prints every entry's type: where getdents could not tell it
        // (DT_UNKNOWN), a statx for the type alone; elsewhere nothing more.
        by_type[type_index(FileType::Unknown)] = if need_type || config.json {
            union | Need::TYPE
        } else {
            union
        };
        Plan {
            by_type,
            follow_links,
            read_link: long || check_symlink_mode,
            link_target,
            // JSON has no `total` line (it is the sum of the `blocks`) and
            // no ACL marker, so it makes no xattr probes for one.
            print_total: (long || config.size_blocks) && !config.json,
            operand_blocks: config.size_blocks || (config.json && long),
            access_marker: long && !config.json,
            context: config.context,
            capability: config.color.as_ref().is_some_and(|c| c.needs_capability()),
        }
    }

    /// The mask for an entry whose getdents type is `t`; empty means the
    /// entry is not stat'ed.
    pub fn need_for(&self, t: FileType) -> Need {
        self.by_type[type_index(t)]
    }

    /// Whether regular files are stat'ed (`-l`, `--color`, `-F`, …): what
    /// decides whether probing a directory's entries is work worth
    /// overlapping with reading it, or with reading the next ones ahead.
    pub fn probes_files(&self) -> bool {
        !self.need_for(FileType::Regular).is_empty()
    }

    /// How many entries of these types the plan has something to ask about.
    pub fn count_probed(&self, types: impl IntoIterator<Item = FileType>) -> usize {
        // A plain listing: no need to look at the types at all.
        if self.by_type.iter().all(|n| n.is_empty()) {
            return 0;
        }
        types
            .into_iter()
            .filter(|&t| !self.need_for(t).is_empty())
            .count()
    }

    /// The mask for a command-line operand: always stat'ed (its type decides
    /// whether it is listed as a directory), with what any type needs.
    pub fn need_for_operand(&self) -> Need {
        let need = self.by_type[type_index(FileType::Unknown)] | Need::TYPE;
        // `total` is only printed for directory listings: operands need the
        // blocks only where they are shown.
        if self.operand_blocks {
            need
        } else {
            Need(need.0 & !Need::BLOCKS.0)
        }
    }
}
