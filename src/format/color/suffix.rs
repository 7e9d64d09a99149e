//! `*SUFFIX=value` patterns. GNU 9.1 matches them ASCII case-insensitively
//! against the end of the name, and the pattern defined *last* wins when
//! several match (`*.c=31:*c=32` colours `x.c` with 32). From 9.2, two
//! patterns that differ only in case and have different values each match
//! their own spelling alone (`*.c=35:*.C=36`), and of two with the same
//! value the newer stands for both.
//!
//! Lookup costs no allocation: patterns are bucketed by their lowercased
//! last byte, each bucket ordered newest first, so a name is compared only
//! with the patterns ending in its own last byte.
#![forbid(unsafe_code)]

#[derive(Clone, Debug, Default)]
struct Pattern {
    /// Definition order (higher = later = preferred).
    order: usize,
    lower: Vec<u8>,
    seq: Vec<u8>,
    /// The suffix as written, when it matches only that spelling.
    exact: Option<Vec<u8>>,
}

/// The suffix patterns of one `LS_COLORS`.
#[derive(Clone, Debug, Default)]
pub(super) struct Suffixes {
    /// Non-empty patterns sorted by (lowercased last byte, newest first).
    patterns: Vec<Pattern>,
    /// `starts[b]..starts[b + 1]` is the bucket of last byte `b`.
    starts: Vec<usize>,
    /// The newest empty pattern (`*=value`), which matches every name.
    any: Option<Pattern>,
}

impl Suffixes {
    /// Builds the table from `(suffix, value)` pairs in definition order;
    /// `case_pairs`: 9.2's rule for patterns that differ only in case.
    pub fn new(defs: Vec<(Vec<u8>, Vec<u8>)>, case_pairs: bool) -> Suffixes {
        let mut patterns: Vec<Pattern> = Vec::new();
        let mut any: Option<Pattern> = None;
        let all = defs
            .into_iter()
            .enumerate()
            .map(|(order, (suffix, seq))| Pattern {
                order,
                lower: suffix.to_ascii_lowercase(),
                seq,
                exact: case_pairs.then_some(suffix),
            });
        for p in all {
            if p.lower.is_empty() {
                any = Some(p);
            } else if case_pairs {
                patterns.push(p);
            } else if let Some(old) = patterns.iter_mut().find(|o| o.lower == p.lower) {
                *old = p;
            } else {
                patterns.push(p);
            }
        }
        if case_pairs {
            patterns = pair_cases(patterns);
        }
        patterns.sort_by(|a, b| {
            let (la, lb) = (a.lower.last(), b.lower.last());
            la.cmp(&lb).then(b.order.cmp(&a.order))
        });
        let mut starts = vec![0; 257];
        for (b, start) in starts.iter_mut().enumerate() {
            *start =
                patterns.partition_point(|p| p.lower.last().map_or(0, |&l| usize::from(l)) < b);
        }
        Suffixes {
            patterns,
            starts,
            any,
        }
    }

    /// The value of the newest pattern matching the end of `name`.
    pub fn lookup(&self, name: &[u8]) -> Option<&[u8]> {
        let found = name.last().and_then(|&b| self.in_bucket(name, b));
        let best = match (found, &self.any) {
            (Some(p), Some(a)) if a.order > p.order => a,
            (Some(p), _) => p,
            (None, Some(a)) => a,
            (None, None) => return None,
        };
        Some(&best.seq)
    }

    fn in_bucket(&self, name: &[u8], last: u8) -> Option<&Pattern> {
        let b = usize::from(last.to_ascii_lowercase());
        let start = *self.starts.get(b)?;
        let end = *self.starts.get(b + 1)?;
        let bucket = self.patterns.get(start..end)?;
        bucket.iter().find(|p| {
            name.len()
                .checked_sub(p.lower.len())
                .and_then(|from| name.get(from..))
                .is_some_and(|tail| match &p.exact {
                    Some(exact) => tail == exact.as_slice(),
                    None => tail.eq_ignore_ascii_case(&p.lower),
                })
        })
    }
}

/// 9.2's pass over the patterns (given oldest first). Newest first, each
/// pattern still standing looks at the older ones of its length: one spelled
/// the same is dropped; one differing only in case is dropped when it has
/// the same value, and from then on every older case variant is dropped
/// too, whatever its value (`*.jpg=35:*.jpg=46:*.JPG=46` colours `x.jpg`,
/// `X.JPG` and `x.JpG` 46). A case variant with another value met before
/// that makes both patterns match their own spelling alone. Every other
/// pattern ignores case.
fn pair_cases(mut patterns: Vec<Pattern>) -> Vec<Pattern> {
    patterns.reverse();
    let n = patterns.len();
    let mut dropped = vec![false; n];
    let mut exact = vec![false; n];
    for i in 0..n {
        if dropped[i] {
            continue;
        }
        let mut variants_dropped = false;
        for j in i + 1..n {
            let (newer, older) = (&patterns[i], &patterns[j]);
            if dropped[j] || newer.lower != older.lower {
                continue;
            }
            if newer.exact == older.exact {
                dropped[j] = true;
            } else if variants_dropped || older.seq == newer.seq {
                dropped[j] = true;
                variants_dropped = true;
            } else {
                exact[i] = true;
                exact[j] = true;
            }
        }
    }
    let mut kept: Vec<Pattern> = Vec::with_capacity(n);
    for (i, mut p) in patterns.into_iter().enumerate() {
        if dropped[i] {
            continue;
        }
        if !exact[i] {
            p.exact = None;
        }
        kept.push(p);
    }
    kept.reverse();
    kept
}
