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
use super::radix::{self, Item};

/// Key bytes held in the record itself (three words); the rest goes to an
/// arena.
const HEAD: usize = 24;
/// Key bytes kept at most: names whose keys agree this far are compared
/// whole (strcoll or byte compare).
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

/// One name's key: its first bytes inline, the rest in its part's arena.
#[derive(Clone, Copy)]
struct Rec {
    /// The first `HEAD` key bytes as big-endian words, zero-padded: their
    /// order is byte order (keys hold no NUL, so a shorter key that is a
    /// prefix of a longer one sorts first, as in the whole transform).
    head: [u64; 3],
    tail_at: u32,
    tail_len: u16,
    /// The entry's index: where its name is, and the final tie-break.
    idx: u32,
    /// 0 for directories under `--group-directories-first`, else 1.
    group: u8,
}

/// The keys of a run of entries, and their order.
struct Part {
    /// Where the run starts among the entries.
    start: usize,
    /// The records, in entry order.
    recs: Vec<Rec>,
    arena: Vec<u8>,
    /// The sorted items (see `radix`).
    items: Vec<Item>,
}

impl Part {
    fn keyed(&self, item: &Item) -> Keyed<'_> {
        (&self.recs[item.idx as usize - self.start], &self.arena)
    }
}

/// A record with the arena its key's tail is in.
type Keyed<'p> = (&'p Rec, &'p [u8]);

fn tail<'p>((r, arena): Keyed<'p>) -> &'p [u8] {
    let at = r.tail_at as usize;
    &arena[at..at + usize::from(r.tail_len)]
}

struct Order<'a> {
    entries: &'a [Entry],
    how: NameSort,
}

impl Order<'_> {
    #[inline(always)]
    fn cmp(&self, a: Keyed<'_>, b: Keyed<'_>) -> Ordering {
        let (ra, rb) = (a.0, b.0);
        if ra.group != rb.group {
            return ra.group.cmp(&rb.group);
        }
        let ord = if ra.head != rb.head {
            ra.head.cmp(&rb.head)
        } else {
            self.beyond_head(a, b)
        };
        let ord = if self.how.reverse { ord.reverse() } else { ord };
        ord.then(ra.idx.cmp(&rb.idx))
    }

    /// Records whose heads are equal: their tails, then the names whole.
    #[inline(never)]
    fn beyond_head(&self, a: Keyed<'_>, b: Keyed<'_>) -> Ordering {
        tail(a)
            .cmp(tail(b))
            .then_with(|| self.whole(a.0.idx, b.0.idx))
    }

    /// Names whose kept keys are equal, compared whole.
    fn whole(&self, i: u32, j: u32) -> Ordering {
        let (a, b) = (&self.entries[i as usize], &self.entries[j as usize]);
        match self.how.collation {
            Collation::Bytes => a.name_bytes().cmp(b.name_bytes()),
            Collation::Locale => locale::strcoll_cstr(&a.name, &b.name),
        }
    }

    /// Keys for `entries[range]`, sorted: by radix on the first key
    /// bytes, by comparison beyond (see `radix`).
    fn sorted_part(&self, range: Range<usize>, table: bool) -> Part {
        let mut part = self.keyed_part(range, table);
        let items = std::mem::take(&mut part.items);
        let tie = |a: &Item, b: &Item| self.cmp(part.keyed(a), part.keyed(b));
        let mut scratch = Vec::new();
        // Directories first, outside the reversal: two runs sorted apart.
        let items = if self.how.dirs_first {
            let (mut dirs, mut rest): (Vec<Item>, Vec<Item>) =
                items.into_iter().partition(|i| i.group == 0);
            radix::sort(&mut dirs, &mut scratch, &tie);
            radix::sort(&mut rest, &mut scratch, &tie);
            dirs.append(&mut rest);
            dirs
        } else {
            let mut items = items;
            radix::sort(&mut items, &mut scratch, &tie);
            items
        };
        part.items = items;
        part
    }

    /// Keys for `entries[range]`, in entry order.
    fn keyed_part(&self, range: Range<usize>, table: bool) -> Part {
        let mut part = Part {
            start: range.start,
            recs: Vec::with_capacity(range.len()),
            arena: Vec::new(),
            items: Vec::with_capacity(range.len()),
        };
        // Complemented words sort the other way round.
        let flip = if self.how.reverse { u64::MAX } else { 0 };
        let mut keys = KeyMaker::new(self.how.collation == Collation::Locale, table);
        for i in range {
            let e = &self.entries[i];
            let key = keys.key(&e.name, KEY_CAP);
            let key = &key[..key.len().min(KEY_CAP)];
            let mut head = [0u8; HEAD];
            let n = key.len().min(HEAD);
            head[..n].copy_from_slice(&key[..n]);
            let tail = &key[n..];
            let word = |i: usize| {
                u64::from_be_bytes(head[8 * i..8 * i + 8].try_into().unwrap_or_default())
            };
            let rec = Rec {
                head: [word(0), word(1), word(2)],
                tail_at: part.arena.len() as u32,
                tail_len: tail.len() as u16,
                idx: i as u32,
                group: u8::from(!(self.how.dirs_first && e.is_dir_like())),
            };
            part.items.push(Item {
                words: [rec.head[0] ^ flip, rec.head[1] ^ flip],
                idx: rec.idx,
                group: rec.group,
            });
            part.recs.push(rec);
            part.arena.extend_from_slice(tail);
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
    merge(&order, &left, &right)
}

/// Merges two sorted parts into one order of entry indices.
fn merge(order: &Order<'_>, left: &Part, right: &Part) -> Vec<usize> {
    let mut out = Vec::with_capacity(left.items.len() + right.items.len());
    let (mut l, mut r) = (left.items.iter().peekable(), right.items.iter().peekable());
    while let (Some(a), Some(b)) = (l.peek(), r.peek()) {
        let ord = a
            .cmp_held(b)
            .then_with(|| order.cmp(left.keyed(a), right.keyed(b)));
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
    out
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
        let mut entries: Vec<Entry> = (0..3000)
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
