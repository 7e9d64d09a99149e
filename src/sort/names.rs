//! Sorting by name, fast and in GNU's exact order.
//!
//! GNU ls compares names with strcoll in a stable merge sort. Here every
//! name gets a key once, and comparisons are byte compares of keys:
//!
//! - in byte-order locales the key is the name itself;
//! - otherwise it is the *first level* of the name's strxfrm transform
//!   (see `keys`). Only first-level differences
//!   are trusted: glibc's strxfrm and strcoll disagree on some names that
//!   differ only at the last level (`000a` and `00-0a` in en_US.UTF-8), and
//!   GNU's order is strcoll's. Names whose first levels agree (as far as
//!   kept) are compared with strcoll itself.
//!
//! Names strcoll calls equal keep the order they were read in, as in GNU's
//! stable sort, `-r` included: the entry's index is the last tie-break,
//! which makes the order total, so the sort need not be stable and the
//! names can be split into parts sorted on threads of their own, then
//! merged.
#![forbid(unsafe_code)]

use std::cmp::Ordering;
use std::ops::Range;

use crate::entry::Entry;
use crate::parallel;
use crate::sys::locale;

use super::effort::Effort;
use super::keys::KeyMaker;
use super::radix::{self, Item, HELD};

/// Key bytes kept at most (in a collating locale): names whose keys agree
/// this far are compared whole (strcoll).
const KEY_CAP: usize = 96;

/// How names compare.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Collation {
    /// Byte order (C, POSIX, glibc's C.UTF-8).
    Bytes,
    /// The locale's strcoll.
    Locale,
}

/// What the sort asks besides the collation.
#[derive(Clone, Copy)]
pub struct NameSort {
    pub collation: Collation,
    /// `-r`: the name order reversed (equal names still in read order).
    pub reverse: bool,
    /// `--group-directories-first`: directories (and links to them) first,
    /// outside the reversal.
    pub dirs_first: bool,
}

/// The keys of a run of entries, and their order.
struct Part {
    /// Where the run starts among the entries.
    start: usize,
    /// The sorted items (see `radix`): the directories' first under
    /// `--group-directories-first`.
    items: Vec<Item>,
    /// How many items are directories (at the front).
    dirs: usize,
    /// In a collating locale, where each entry's key goes on past the
    /// held bytes (in entry order) in `arena`; empty in byte order, where
    /// the key is the name.
    tails: Vec<(u32, u16)>,
    arena: Vec<u8>,
}

impl Part {
    /// The key bytes of entry `idx` past those its item holds.
    fn tail(&self, idx: u32) -> &[u8] {
        match self.tails.get(idx as usize - self.start) {
            Some(&(at, len)) => &self.arena[at as usize..at as usize + usize::from(len)],
            None => &[],
        }
    }

    fn groups(&self) -> [&[Item]; 2] {
        let (dirs, rest) = self.items.split_at(self.dirs);
        [dirs, rest]
    }
}

/// A name's bytes past those its item holds.
fn past_held(name: &[u8]) -> &[u8] {
    name.get(HELD..).unwrap_or_default()
}

struct Order<'a> {
    entries: &'a [Entry],
    how: NameSort,
}

impl Order<'_> {
    /// Items (`a` of part `pa`, `b` of `pb`) whose held key bytes are
    /// equal: the rest of their keys, then the names whole, `-r`, and last
    /// the order they were read in.
    #[inline(never)]
    fn beyond_held(&self, (pa, a): (&Part, &Item), (pb, b): (&Part, &Item)) -> Ordering {
        let (ea, eb) = (&self.entries[a.idx as usize], &self.entries[b.idx as usize]);
        let ord = match self.how.collation {
            // The key is the name: equal held bytes, equal lengths so far.
            Collation::Bytes => past_held(ea.name_bytes()).cmp(past_held(eb.name_bytes())),
            Collation::Locale => pa
                .tail(a.idx)
                .cmp(pb.tail(b.idx))
                .then_with(|| locale::strcoll_cstr(&ea.name, &eb.name)),
        };
        let ord = if self.how.reverse { ord.reverse() } else { ord };
        ord.then(a.idx.cmp(&b.idx))
    }

    /// Keys for `entries[range]`, sorted: by radix on the held key bytes,
    /// by comparison beyond (see `radix`).
    fn sorted_part(&self, range: Range<usize>, table: bool) -> Part {
        let mut part = self.keyed_part(range, table);
        let mut items = std::mem::take(&mut part.items);
        // Directories first, outside the reversal: two runs sorted apart.
        if self.how.dirs_first {
            for i in 0..items.len() {
                if self.entries[items[i].idx as usize].is_dir_like() {
                    items.swap(part.dirs, i);
                    part.dirs += 1;
                }
            }
        }
        let tie = |a: &Item, b: &Item| self.beyond_held((&part, a), (&part, b));
        let mut scratch = Vec::new();
        let (dirs, rest) = items.split_at_mut(part.dirs);
        radix::sort(dirs, &mut scratch, &tie);
        radix::sort(rest, &mut scratch, &tie);
        part.items = items;
        part
    }

    /// Keys for `entries[range]`, in entry order.
    fn keyed_part(&self, range: Range<usize>, table: bool) -> Part {
        let collating = self.how.collation == Collation::Locale;
        let mut part = Part {
            start: range.start,
            items: Vec::with_capacity(range.len()),
            dirs: 0,
            tails: Vec::with_capacity(if collating { range.len() } else { 0 }),
            arena: Vec::new(),
        };
        let mut keys = KeyMaker::new(collating, table);
        for i in range {
            let name = &self.entries[i].name;
            let key = keys.key(name, KEY_CAP);
            part.items.push(Item::new(key, i as u32, self.how.reverse));
            if collating {
                let tail = key.get(HELD..key.len().min(KEY_CAP)).unwrap_or_default();
                part.tails
                    .push((part.arena.len() as u32, tail.len() as u16));
                part.arena.extend_from_slice(tail);
            }
        }
        part
    }
}

/// The order of `entries` by name: position `i` of the result is the index
/// of the entry that goes `i`-th. `effort.two_threads` splits the work over
/// a helper thread and the calling one.
pub fn order(entries: &[Entry], how: NameSort, effort: Effort) -> Vec<usize> {
    // Indices are kept in 32 bits.
    debug_assert!(entries.len() <= u32::MAX as usize);
    let order = Order { entries, how };
    let n = entries.len();
    if !effort.two_threads {
        let part = order.sorted_part(0..n, effort.table);
        return part.items.iter().map(|r| r.idx as usize).collect();
    }
    let mid = n / 2;
    let (right, left) = parallel::with_helper(
        || order.sorted_part(0..mid, effort.table),
        |_| order.sorted_part(mid..n, effort.table),
    );
    // A helper that could not start: its half here.
    let left = left.unwrap_or_else(|| order.sorted_part(0..mid, effort.table));
    let mut out = Vec::with_capacity(n);
    for (l, r) in left.groups().into_iter().zip(right.groups()) {
        merge(&order, (&left, l), (&right, r), &mut out);
    }
    out
}

/// Merges the sorted items `l` of part `left` and `r` of `right` into
/// `out`, as entry indices.
fn merge(
    order: &Order<'_>,
    (left, l): (&Part, &[Item]),
    (right, r): (&Part, &[Item]),
    out: &mut Vec<usize>,
) {
    let (mut l, mut r) = (l.iter().peekable(), r.iter().peekable());
    while let (Some(a), Some(b)) = (l.peek(), r.peek()) {
        let ord = a
            .cmp_held(b)
            .then_with(|| order.beyond_held((left, a), (right, b)));
        if ord == Ordering::Greater {
            out.push(b.idx as usize);
            r.next();
        } else {
            out.push(a.idx as usize);
            l.next();
        }
    }
    out.extend(l.map(|x| x.idx as usize));
    out.extend(r.map(|x| x.idx as usize));
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sys::FileType;
    use std::ffi::CString;

    fn entries(names: &[&[u8]]) -> Vec<Entry> {
        names
            .iter()
            .map(|n| Entry::new(CString::new(*n).unwrap(), FileType::Regular))
            .collect()
    }

    fn sorted(names: &[&[u8]], reverse: bool, two_threads: bool) -> Vec<usize> {
        let how = NameSort {
            collation: Collation::Bytes,
            reverse,
            dirs_first: false,
        };
        order(
            &entries(names),
            how,
            Effort {
                keyed: true,
                table: false,
                two_threads,
            },
        )
    }

    #[test]
    fn byte_order_with_long_shared_prefixes() {
        let names: [&[u8]; 6] = [
            b"abcdefghijklmnopqrstu",
            b"abcdefghijklmnopqrst",
            b"abcdefghijklmnop",
            b"abcdefghijklmnopq",
            b"B",
            b"\xff",
        ];
        for two in [false, true] {
            assert_eq!(sorted(&names, false, two), [4, 2, 3, 1, 0, 5]);
            assert_eq!(sorted(&names, true, two), [5, 0, 1, 3, 2, 4]);
        }
    }

    #[test]
    fn equal_names_keep_their_order_reversed_or_not() {
        let names: [&[u8]; 4] = [b"x", b"a", b"x", b"a"];
        for two in [false, true] {
            assert_eq!(sorted(&names, false, two), [1, 3, 0, 2]);
            assert_eq!(sorted(&names, true, two), [0, 2, 1, 3]);
        }
    }

    /// Many names (past the radix sort's threshold) with long shared
    /// prefixes, duplicates and directories among them: every way of
    /// sorting gives the plain comparison's order.
    #[test]
    fn large_directories_sort_as_the_plain_comparison_does() {
        let mut state = 7u64;
        let entries: Vec<Entry> = (0..3000)
            .map(|i| {
                state = state
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                let len = 1 + (state >> 59) as usize;
                let mut name: Vec<u8> = (0..len)
                    .map(|k| b"aab-Z\xe9"[((state >> (3 * k % 60)) % 6) as usize])
                    .collect();
                if i % 7 == 0 {
                    name.splice(0..0, b"abcdefghijklmnopq".iter().copied());
                }
                let t = if i % 5 == 0 {
                    FileType::Directory
                } else {
                    FileType::Regular
                };
                Entry::new(CString::new(name).unwrap(), t)
            })
            .collect();
        for (reverse, dirs_first, two_threads) in [
            (false, false, false),
            (true, false, true),
            (false, true, true),
            (true, true, false),
        ] {
            let how = NameSort {
                collation: Collation::Bytes,
                reverse,
                dirs_first,
            };
            let effort = Effort {
                keyed: true,
                table: false,
                two_threads,
            };
            let mut want: Vec<usize> = (0..entries.len()).collect();
            want.sort_by(|&i, &j| {
                let (a, b) = (&entries[i], &entries[j]);
                let group = b.is_dir_like().cmp(&a.is_dir_like());
                let group = if dirs_first { group } else { Ordering::Equal };
                let ord = a.name_bytes().cmp(b.name_bytes());
                group.then(if reverse { ord.reverse() } else { ord })
            });
            assert_eq!(
                order(&entries, how, effort),
                want,
                "{reverse} {dirs_first} {two_threads}"
            );
        }
    }
}
