//! Ordering entries as GNU ls does: by name with the locale's collation
//! (byte order in C), by size, time, extension, width or version, with
//! `-r` reversing the whole comparison (ties included) and
//! `--group-directories-first` applied outside the reversal.
//!
//! Sort keys (collation keys, timestamps, sizes) are computed once per entry
//! before sorting, not in the comparator; sorting by name, the common case,
//! has its own path (`names`), split over two threads for large
//! directories (`effort` decides when keys pay, `parallel` when threads do).
#![forbid(unsafe_code)]

use std::cmp::Ordering;
use std::ffi::CStr;

use crate::config::Config;
use crate::entry::{time_of, Entry};
use crate::options::SortKey;
use crate::parallel;
use crate::sys::cache::prefetch;
use crate::sys::{locale, Timestamp};

mod effort;
mod keys;
mod names;
mod radix;
mod version;

use names::{Collation, NameSort};

use crate::gnu::Behaviour;
use version::VersionRules;

/// Keys for one entry, computed once.
struct Keys {
    dir_first: bool,
    primary: Primary,
}

enum Primary {
    None,
    Size(u64),
    Time(Timestamp),
    /// The extension's key (as names are keyed) and where it starts.
    Extension(Vec<u8>, usize),
    Width(usize),
}

/// Where a name's extension (from its last `.`) starts; its length if it
/// has none.
fn extension_at(name: &[u8]) -> usize {
    name.iter().rposition(|&b| b == b'.').unwrap_or(name.len())
}

/// The name from byte `at` on, as a C string (a suffix keeps the NUL).
fn suffix(name: &CStr, at: usize) -> &CStr {
    CStr::from_bytes_with_nul(&name.to_bytes_with_nul()[at..]).unwrap_or_default()
}

/// The order `entries` are listed in: position `i` holds the index of the
/// entry listed `i`-th; `None` for directory order (`-U`). `width_of`
/// gives the display width of an entry's name (for `--sort=width`).
pub fn sorted_order(
    entries: &[Entry],
    config: &Config,
    collate_bytes: bool,
    width_of: &dyn Fn(&Entry) -> usize,
) -> Option<Vec<usize>> {
    // -U keeps directory order: no -r, no grouping of directories.
    if config.sort == SortKey::None {
        return None;
    }
    if config.sort == SortKey::Name {
        let two = parallel::sort_on_two_threads(config, entries.len(), !collate_bytes);
        let effort = effort::for_names(entries.len(), !collate_bytes, two);
        if effort.keyed {
            let how = NameSort {
                collation: if collate_bytes {
                    Collation::Bytes
                } else {
                    Collation::Locale
                },
                reverse: config.reverse,
                dirs_first: config.group_directories_first,
            };
            return Some(names::order(entries, how, effort));
        }
    }
    let time_field = config.time;
    // Name and version sorts compare the names themselves: no keys needed.
    let needs_keys = config.group_directories_first
        || matches!(
            config.sort,
            SortKey::Size | SortKey::Time | SortKey::Extension | SortKey::Width
        );
    let mut ext_keys = keys::KeyMaker::new(!collate_bytes, false);
    let keys: Vec<Keys> = entries
        .iter()
        .take(if needs_keys { usize::MAX } else { 0 })
        .map(|e| {
            let meta = e.meta.as_ref();
            let primary = match config.sort {
                SortKey::Size => Primary::Size(meta.and_then(|m| m.size()).unwrap_or(0)),
                SortKey::Time => Primary::Time(
                    meta.and_then(|m| time_of(m, time_field))
                        .unwrap_or_default(),
                ),
                SortKey::Extension => {
                    let at = extension_at(e.name_bytes());
                    let key = ext_keys.key(suffix(&e.name, at), usize::MAX).to_vec();
                    Primary::Extension(key, at)
                }
                SortKey::Width => Primary::Width(width_of(e)),
                _ => Primary::None,
            };
            Keys {
                dir_first: config.group_directories_first && e.is_dir_like(),
                primary,
            }
        })
        .collect();
    let sort = config.sort;
    let reverse = config.reverse;
    let version = if !config.gnu.has(Behaviour::VersionSortRewrite) {
        VersionRules::Legacy
    } else if config.gnu.has(Behaviour::VersionSortDigitsBeforeLetters) {
        VersionRules::Current
    } else {
        VersionRules::WholeNameSuffix
    };
    // Entries are large: sort their indices (the caller moves each entry
    // once, or prints them in this order).
    let mut order: Vec<usize> = (0..entries.len()).collect();
    const NO_KEYS: Keys = Keys {
        dir_first: false,
        primary: Primary::None,
    };
    let keyed = |i: usize| (keys.get(i).unwrap_or(&NO_KEYS), &entries[i]);
    // A stable sort, like GNU's merge sort.
    order.sort_by(|&i, &j| {
        let (a, b) = (keyed(i), keyed(j));
        let group = b.0.dir_first.cmp(&a.0.dir_first);
        if group != Ordering::Equal {
            return group;
        }
        let ord = compare(sort, collate_bytes, version, a, b);
        if reverse {
            ord.reverse()
        } else {
            ord
        }
    });
    Some(order)
}

/// Puts `entries` in `order` (as [`sorted_order`] gives it).
pub fn apply_order(entries: &mut [Entry], order: Vec<usize>) {
    apply_permutation(entries, order, prefetch);
}

/// Reorders `items` so that position `i` receives the item that was at
/// `order[i]`, in place (cycle by cycle, no second vector of entries).
/// `touch` fetches an item: each cycle is followed a few steps ahead of the
/// swaps and the items there are fetched, so that their cache misses
/// overlap instead of following one another (entries are large and, in a
/// big directory, mostly out of cache).
fn apply_permutation<T>(items: &mut [T], mut order: Vec<usize>, touch: impl Fn(&T)) {
    const DONE: usize = usize::MAX;
    const AHEAD: usize = 6;
    for start in 0..items.len() {
        if order[start] == DONE {
            continue;
        }
        // `ahead` runs up to AHEAD steps in front of `j` on this cycle.
        let mut ahead = start;
        let mut lead = 0;
        let mut j = start;
        loop {
            while lead < AHEAD {
                let next = order[ahead];
                if next == start || next == DONE {
                    break;
                }
                touch(&items[next]);
                ahead = next;
                lead += 1;
            }
            let k = order[j];
            order[j] = DONE;
            if k == start {
                break;
            }
            items.swap(j, k);
            j = k;
            lead = lead.saturating_sub(1);
        }
    }
}

fn compare(
    sort: SortKey,
    collate_bytes: bool,
    version: VersionRules,
    a: (&Keys, &Entry),
    b: (&Keys, &Entry),
) -> Ordering {
    // Names compare like strcoll, as GNU's do: cheaper than transforming
    // every name, since most comparisons end at the first characters.
    let by_name = || {
        if collate_bytes {
            a.1.name_bytes().cmp(b.1.name_bytes())
        } else {
            locale::strcoll_cstr(&a.1.name, &b.1.name)
        }
    };
    match (&a.0.primary, &b.0.primary) {
        (Primary::Size(x), Primary::Size(y)) => y.cmp(x).then_with(by_name),
        (Primary::Time(x), Primary::Time(y)) => y.cmp(x).then_with(by_name),
        (Primary::Extension(x, i), Primary::Extension(y, j)) => {
            // Keys decide where they differ; strcoll where they do not.
            let whole = || {
                let (ea, eb) = (suffix(&a.1.name, *i), suffix(&b.1.name, *j));
                if collate_bytes {
                    ea.cmp(eb)
                } else {
                    locale::strcoll_cstr(ea, eb)
                }
            };
            x.cmp(y).then_with(whole).then_with(by_name)
        }
        // GNU compares widths as the int difference of two size_t: a name
        // 9.7 cannot measure (width SIZE_MAX) comes out as -1, first.
        (Primary::Width(x), Primary::Width(y)) => {
            (x.wrapping_sub(*y) as i32).cmp(&0).then_with(by_name)
        }
        _ if sort == SortKey::Version => {
            let (x, y) = (a.1.name_bytes(), b.1.name_bytes());
            version::filevercmp_by(x, y, version).then_with(|| x.cmp(y))
        }
        _ => by_name(),
    }
}

#[cfg(test)]
mod permutation_tests {
    #[test]
    fn applies_any_permutation() {
        let orders: [&[usize]; 4] = [&[0, 1, 2, 3], &[3, 2, 1, 0], &[1, 2, 3, 0], &[2, 0, 3, 1]];
        for order in orders {
            let mut items: Vec<usize> = (10..14).collect();
            super::apply_permutation(&mut items, order.to_vec(), |_| ());
            let want: Vec<usize> = order.iter().map(|&i| 10 + i).collect();
            assert_eq!(items, want, "{order:?}");
        }
    }
}
