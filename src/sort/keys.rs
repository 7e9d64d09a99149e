//! How a name becomes its sort key: the name itself in byte order, the
//! first level of its strxfrm transform in a collating locale.
//!
//! glibc's transform is the weights of each level in turn, separated by
//! `\x01`; the first level (everything before the first `\x01`) is the
//! concatenation of the first-level weights of the name's characters. For
//! an all-ASCII name that concatenation is built from a table of the 127
//! ASCII characters' weights, read from the C library once, about ten
//! times faster than strxfrm. The table is used only after checking, on
//! strings holding every ordered pair of ASCII characters, that
//! concatenating its entries gives exactly strxfrm's first level (no
//! contraction such as Czech `ch`, no backward first level); otherwise
//! every name goes through strxfrm.
#![forbid(unsafe_code)]

use std::ffi::{CStr, CString};
use std::sync::OnceLock;

use crate::sys::locale;

/// Longest first-level weight of one ASCII character the table holds
/// (glibc's locales use one to three bytes); every weight is stored in
/// this many bytes and copied whole, then the key advances by its length.
const MAX_WEIGHT: usize = 8;
/// Longest key prefix the table builds (longer ones come from strxfrm).
const TABLE_CAP: usize = 128;

/// The part of a strxfrm transform before its first level separator.
pub fn first_level(key: &[u8]) -> &[u8] {
    let end = key.iter().position(|&b| b == 1).unwrap_or(key.len());
    &key[..end]
}

/// First-level weights of the ASCII characters 1..=127.
pub struct AsciiWeights {
    weights: [[u8; MAX_WEIGHT]; 128],
    lens: [u8; 128],
}

impl AsciiWeights {
    /// The locale's table, built and checked on first use (about half a
    /// millisecond); `None` where concatenation is not the first level.
    pub fn get() -> Option<&'static AsciiWeights> {
        static TABLE: OnceLock<Option<AsciiWeights>> = OnceLock::new();
        TABLE.get_or_init(build).as_ref()
    }

    /// Writes the first-level key of `name` (ASCII, no NUL) into `out`,
    /// stopping once it is `cap` bytes or more long, and returns its
    /// length. `out` has room for `cap + MAX_WEIGHT` bytes.
    fn key_into(&self, name: &[u8], out: &mut [u8], cap: usize) -> usize {
        let mut len = 0;
        for &b in name {
            if len >= cap {
                break;
            }
            let b = usize::from(b & 0x7f);
            out[len..len + MAX_WEIGHT].copy_from_slice(&self.weights[b]);
            len += usize::from(self.lens[b]);
        }
        len
    }

    /// The whole first-level key of `name` (ASCII, no NUL).
    fn key_of(&self, name: &[u8]) -> Vec<u8> {
        name.iter()
            .flat_map(|&b| &self.weights[usize::from(b)][..usize::from(self.lens[usize::from(b)])])
            .copied()
            .collect()
    }
}

fn build() -> Option<AsciiWeights> {
    let mut table = AsciiWeights {
        weights: [[0; MAX_WEIGHT]; 128],
        lens: [0; 128],
    };
    let mut scratch = Vec::new();
    for b in 1u8..128 {
        locale::transform_into(&CString::new([b]).ok()?, &mut scratch);
        let weight = first_level(&scratch);
        if weight.len() > MAX_WEIGHT {
            return None;
        }
        table.weights[usize::from(b)][..weight.len()].copy_from_slice(weight);
        table.lens[usize::from(b)] = weight.len() as u8;
    }
    // "c 1 c 2 … c 127" holds every pair (c, x) and (x, c).
    for c in 1u8..128 {
        let pairs: Vec<u8> = (1u8..128).flat_map(|x| [c, x]).collect();
        let built = table.key_of(&pairs);
        locale::transform_into(&CString::new(pairs).ok()?, &mut scratch);
        if first_level(&scratch) != built.as_slice() {
            return None;
        }
    }
    Some(table)
}

/// Makes the keys of one run of names, reusing one buffer.
pub struct KeyMaker {
    collating: bool,
    table: Option<&'static AsciiWeights>,
    /// strxfrm's transform, or the table's key.
    scratch: Vec<u8>,
}

impl KeyMaker {
    /// Keys in byte order (`collating` false) or the locale's; `table`
    /// whether to build (or use) the ASCII table, which pays for itself
    /// from about a thousand names.
    pub fn new(collating: bool, table: bool) -> KeyMaker {
        KeyMaker {
            collating,
            table: if collating && table {
                AsciiWeights::get()
            } else {
                None
            },
            scratch: Vec::new(),
        }
    }

    /// The key of `name`, of which only the first `cap` bytes are used.
    pub fn key<'a>(&'a mut self, name: &'a CStr, cap: usize) -> &'a [u8] {
        let bytes = name.to_bytes();
        if !self.collating {
            return bytes;
        }
        match self.table {
            Some(table) if cap <= TABLE_CAP && bytes.is_ascii() => {
                self.scratch.resize(TABLE_CAP + MAX_WEIGHT, 0);
                let len = table.key_into(bytes, &mut self.scratch, cap);
                &self.scratch[..len]
            }
            _ => {
                locale::transform_into(name, &mut self.scratch);
                first_level(&self.scratch)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn first_level_stops_at_the_separator() {
        assert_eq!(first_level(b"\x51\x5e\x01\x02\x02"), b"\x51\x5e");
        assert_eq!(first_level(b"\x63\x64"), b"\x63\x64");
        assert_eq!(first_level(b"\x01\x02"), b"");
    }

    #[test]
    fn byte_order_keys_are_the_names() {
        let mut keys = KeyMaker::new(false, true);
        assert_eq!(keys.key(c"B-a", 96), b"B-a");
    }
}
