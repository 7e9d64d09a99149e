//! A radix sort for name keys: items carry the first 16 bytes of their
//! key as two big-endian words; a least-significant-digit radix sort
//! orders them by the first word (eight passes of one byte, skipping the
//! bytes every item shares), then the runs that share it are ordered by
//! the second word and, where that is equal too, by the full comparison
//! the caller gives. The result is that comparison's order exactly,
//! provided it agrees with the words where they differ.
#![forbid(unsafe_code)]

use std::cmp::Ordering;

/// Below this many items a comparison sort is faster than eight passes.
const SMALL: usize = 256;

/// One name's sort item.
#[derive(Clone, Copy, Default, Debug, PartialEq, Eq)]
pub struct Item {
    /// The key's first 16 bytes, big-endian, zero-padded (complemented
    /// for a descending order).
    pub words: [u64; 2],
    /// The entry's index.
    pub idx: u32,
    /// Items of a lower group come first (directories first).
    pub group: u8,
}

impl Item {
    /// The order of the held words (groups included): `Equal` when only
    /// the full comparison can tell.
    #[inline(always)]
    pub fn cmp_held(&self, other: &Item) -> Ordering {
        self.group
            .cmp(&other.group)
            .then(self.words[0].cmp(&other.words[0]))
            .then(self.words[1].cmp(&other.words[1]))
    }
}

/// Sorts `items` (all of one group) by their words, then by `tie`;
/// `scratch` is a buffer it may use.
pub fn sort(
    items: &mut Vec<Item>,
    scratch: &mut Vec<Item>,
    tie: &impl Fn(&Item, &Item) -> Ordering,
) {
    let n = items.len();
    if n <= SMALL {
        items.sort_unstable_by(|a, b| a.cmp_held(b).then_with(|| tie(a, b)));
        return;
    }
    // Every byte's counts in one pass.
    let mut counts = vec![[0u32; 256]; 8];
    for item in items.iter() {
        let w = item.words[0];
        for (d, c) in counts.iter_mut().enumerate() {
            c[((w >> (8 * d)) & 0xff) as usize] += 1;
        }
    }
    scratch.clear();
    scratch.resize(n, Item::default());
    for (d, c) in counts.iter().enumerate() {
        // A byte all items share leaves the order as it is.
        if c.iter().any(|&k| k as usize == n) {
            continue;
        }
        let mut next = [0u32; 256];
        let mut at = 0;
        for (slot, &k) in next.iter_mut().zip(c.iter()) {
            *slot = at;
            at += k;
        }
        for item in items.iter() {
            let b = ((item.words[0] >> (8 * d)) & 0xff) as usize;
            scratch[next[b] as usize] = *item;
            next[b] += 1;
        }
        std::mem::swap(items, scratch);
    }
    // Runs that share the first word: by the second, then by `tie`.
    let mut i = 0;
    while i < n {
        let w = items[i].words[0];
        let mut j = i + 1;
        while j < n && items[j].words[0] == w {
            j += 1;
        }
        let run = &mut items[i..j];
        match run {
            [] | [_] => {}
            [a, b] => {
                if b.words[1].cmp(&a.words[1]).then_with(|| tie(b, a)) == Ordering::Less {
                    std::mem::swap(a, b);
                }
            }
            _ => run.sort_unstable_by(|a, b| a.words[1].cmp(&b.words[1]).then_with(|| tie(a, b))),
        }
        i = j;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Items with many shared first words, equal second words and
    /// duplicates, ordered by (words, the payload) as the tie-break.
    fn items() -> Vec<Item> {
        let mut state = 12345u64;
        (0..5000u32)
            .map(|i| {
                state = state
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                let pick = |s: u64| [0u64, 0x6162_0000_0000_0000, u64::MAX - 7][(s % 3) as usize];
                Item {
                    words: [pick(state >> 20) | (state >> 61), pick(state >> 40)],
                    idx: (state >> 33) as u32 % 100 * 10_000 + i,
                    group: 0,
                }
            })
            .collect()
    }

    #[test]
    fn sorts_by_the_words_then_the_tie_break() {
        let tie = |a: &Item, b: &Item| a.idx.cmp(&b.idx);
        for n in [0, 1, 2, 3, SMALL, SMALL + 1, 5000] {
            let mut got = items()[..n].to_vec();
            let mut expected = got.clone();
            expected.sort_by(|a, b| a.cmp_held(b).then_with(|| tie(a, b)));
            sort(&mut got, &mut Vec::new(), &tie);
            assert_eq!(got, expected, "{n} items");
        }
    }
}
