//! The texts of the columns the layouts share: the `-i`, `-s` and `-Z`
//! prefixes, the mode string, right alignment. Below every layout, so that
//! the short, long and JSON layouts never take them from each other.
#![forbid(unsafe_code)]

use std::collections::HashSet;
use std::sync::Arc;

use crate::config::Config;
use crate::entry::Entry;
use crate::format::owner::{Kind, Names};
use crate::gnu::Behaviour;
use crate::options::Format;
use crate::sys::cache::prefetch;
use crate::sys::xattr::AccessMarker;
use crate::sys::FileType;

/// Right-aligns `text` in `width` columns.
pub fn pad_left(out: &mut Vec<u8>, text: &[u8], width: usize) {
    out.resize(out.len() + width.saturating_sub(text.len()), b' ');
    out.extend_from_slice(text);
}

/// The `-Z` text of an entry (`?` when unknown).
pub fn context_text<'a>(config: &Config, e: &'a Entry) -> &'a [u8] {
    if e.stat_failed && !config.gnu.has(Behaviour::UnstattableContextUnknown) {
        // 8.32 printed its null pointer: glibc's `(null)`, and `0` where
        // the long format converted it.
        return if config.format == Format::Long {
            b"0"
        } else {
            b"(null)"
        };
    }
    e.context.as_deref().map_or(b"?", |c| c)
}

/// The `-s` column of an entry.
pub fn block_text(config: &Config, e: &Entry) -> Vec<u8> {
    match e.meta.as_ref().and_then(|m| m.blocks()) {
        Some(b) => {
            let mut out = Vec::new();
            config.block_size.blocks_text(b, &mut out);
            out
        }
        None => b"?".to_vec(),
    }
}

/// Display columns of a number (a size, a block count): its length unless
/// a locale's separator made it non-ASCII; 0 when GNU cannot measure it
/// (9.5 on: then it widens no column).
pub fn number_columns(text: &[u8]) -> usize {
    measured_columns(text).unwrap_or(0)
}

fn measured_columns(text: &[u8]) -> Option<usize> {
    if text.is_ascii() {
        Some(text.len())
    } else {
        crate::sys::mbwidth::text_columns_measured(text)
    }
}

/// Appends the number `text` right-aligned to `width` display columns (GNU
/// pads the `-l` size and block columns by `mbswidth`; what it cannot
/// measure goes out unpadded).
pub fn pad_left_columns(out: &mut Vec<u8>, text: &[u8], width: usize) {
    if let Some(cols) = measured_columns(text) {
        out.resize(out.len() + width.saturating_sub(cols), b' ');
    }
    out.extend_from_slice(text);
}

pub fn inode_text(e: &Entry) -> String {
    match e.meta.as_ref().and_then(|m| m.ino()) {
        Some(ino) => ino.to_string(),
        None => "?".to_string(),
    }
}

/// Builds `-rwxr-xr-x`-style strings (the last byte is the ACL marker).
pub fn mode_string(file_type: FileType, mode: Option<u32>, marker: AccessMarker) -> [u8; 11] {
    let mut s = [b'?'; 11];
    s[0] = match file_type {
        FileType::Regular => b'-',
        FileType::Directory => b'd',
        FileType::Symlink => b'l',
        FileType::Fifo => b'p',
        FileType::Socket => b's',
        FileType::CharDevice => b'c',
        FileType::BlockDevice => b'b',
        FileType::Door => b'D',
        FileType::Unknown => b'?',
    };
    s[10] = match marker {
        AccessMarker::None => b' ',
        AccessMarker::Context => b'.',
        AccessMarker::Acl => b'+',
    };
    let Some(m) = mode else { return s };
    let bit = |mask: u32, c: u8| if m & mask != 0 { c } else { b'-' };
    let special = |x: bool, flag: bool, set_x: u8, set_no_x: u8| match (flag, x) {
        (true, true) => set_x,
        (true, false) => set_no_x,
        (false, true) => b'x',
        (false, false) => b'-',
    };
    s[1] = bit(0o400, b'r');
    s[2] = bit(0o200, b'w');
    s[3] = special(m & 0o100 != 0, m & 0o4000 != 0, b's', b'S');
    s[4] = bit(0o040, b'r');
    s[5] = bit(0o020, b'w');
    s[6] = special(m & 0o010 != 0, m & 0o2000 != 0, b's', b'S');
    s[7] = bit(0o004, b'r');
    s[8] = bit(0o002, b'w');
    s[9] = special(m & 0o001 != 0, m & 0o1000 != 0, b't', b'T');
    s
}

/// Fetches what an entry keeps on the heap (its name, its stat) into the
/// caches.
fn prefetch_heap_of(e: &Entry) {
    prefetch(e.name_bytes());
    if let Some(meta) = e.meta.as_deref() {
        prefetch(meta);
    }
}

/// The entries in turn, each one's name and stat fetched into the caches
/// [`FETCH_AHEAD`] entries before it is reached: sorted entries are in
/// order, but what they keep on the heap is where it was put when read,
/// and a cache miss on each would come one after another.
pub fn fetching_ahead(entries: &[Entry]) -> impl Iterator<Item = &Entry> {
    entries.iter().enumerate().map(move |(k, e)| {
        if let Some(ahead) = entries.get(k + FETCH_AHEAD) {
            prefetch_heap_of(ahead);
        }
        e
    })
}

/// Entries ahead whose name and stat are fetched while printing in order
/// (their entries, where printed through an order, twice as far ahead).
pub const FETCH_AHEAD: usize = 8;

/// The owner and group name cache of a layout: with `--timeout`, lookups
/// run on watched threads, a batch's at once, each given up after the
/// limit (`parallel::timed_all`).
pub fn owner_names(config: &Config) -> Names {
    match config.timeout {
        Some(limit) => Names::with_deadline(Arc::new(move |lookups| {
            crate::parallel::timed_all(limit, lookups)
        })),
        None => Names::default(),
    }
}

/// The ids whose names `entries` print (`-l` owner or author, group),
/// each once, in the order first met, none with `-n`: what
/// [`Names::prefetch`] looks up before a batch. The entries' stats are
/// fetched [`FETCH_AHEAD`] ahead, and an id like the last one met costs
/// no set lookup (100 000 entries: 8 ms, now 2).
pub fn printed_ids(config: &Config, batches: &[&[Entry]]) -> Vec<(Kind, u32)> {
    let long = &config.long;
    if long.numeric_ids || config.timeout.is_none() || config.format != Format::Long {
        return Vec::new();
    }
    let (users, groups) = (long.owner || long.author, long.group);
    let mut ids = Vec::new();
    let mut seen = HashSet::new();
    // The last owner and the last group met.
    let mut last = [None, None];
    for entries in batches {
        for (k, e) in entries.iter().enumerate() {
            if let Some(meta) = entries.get(k + FETCH_AHEAD).and_then(|a| a.meta.as_deref()) {
                prefetch(meta);
            }
            let Some(m) = e.meta.as_ref().filter(|_| !e.stat_failed) else {
                continue;
            };
            let printed = [
                (Kind::User, m.uid().filter(|_| users)),
                (Kind::Group, m.gid().filter(|_| groups)),
            ];
            for (last, (kind, id)) in last.iter_mut().zip(printed) {
                let Some(id) = id.filter(|&id| *last != Some(id)) else {
                    continue;
                };
                *last = Some(id);
                if seen.insert((kind, id)) {
                    ids.push((kind, id));
                }
            }
        }
    }
    ids
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sys::stat::{Need, StatFields};
    use crate::sys::Metadata;

    fn owned(name: &str, uid: u32, gid: u32) -> Entry {
        let mut e = Entry::new(std::ffi::CString::new(name).unwrap(), FileType::Regular);
        let fields = StatFields {
            uid,
            gid,
            ..StatFields::default()
        };
        e.meta = Some(Box::new(Metadata::new(
            Need(Need::UID.0 | Need::GID.0),
            fields,
        )));
        e
    }

    fn config(args: &[&str]) -> Config {
        let args = ["ls"].iter().chain(args).map(|a| a.into()).collect();
        Config::load(args).unwrap()
    }

    #[test]
    fn under_timeout_a_long_batch_looks_up_each_owner_and_group_once_in_the_order_met() {
        let entries = [
            owned("a", 5, 7),
            owned("b", 5, 7),
            owned("c", 0, 7),
            owned("d", 5, 0),
        ];
        let operand = [owned("e", 9, 9)];
        let ids = printed_ids(&config(&["-l", "--timeout=5"]), &[&entries, &operand]);
        let (user, group) = (Kind::User, Kind::Group);
        let expected = [
            (user, 5),
            (group, 7),
            (user, 0),
            (group, 0),
            (user, 9),
            (group, 9),
        ];
        assert_eq!(ids, expected);
    }

    #[test]
    fn without_timeout_or_with_numeric_ids_nothing_is_looked_up_ahead() {
        let entries = [owned("a", 5, 7)];
        assert!(printed_ids(&config(&["-l"]), &[&entries]).is_empty());
        assert!(printed_ids(&config(&["-ln", "--timeout=5"]), &[&entries]).is_empty());
    }

    #[test]
    fn with_big_g_only_owners_and_with_g_only_groups_are_looked_up() {
        let entries = [owned("a", 5, 7)];
        let owners = printed_ids(&config(&["-lG", "--timeout=5"]), &[&entries]);
        assert_eq!(owners, [(Kind::User, 5)]);
        let groups = printed_ids(&config(&["-g", "--timeout=5"]), &[&entries]);
        assert_eq!(groups, [(Kind::Group, 7)]);
    }
}
