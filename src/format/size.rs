//! Sizes and block counts: `--block-size`, `-h`, `--si`, `-k`, and the
//! `*BLOCK_SIZE` environment variables, rendered as GNU ls 9.1 does (sizes
//! divided by the block size and rounded up; human sizes with one decimal
//! below 10, also rounded up).
#![forbid(unsafe_code)]

mod parse;
mod resolve;

use crate::sys::numeric::Numeric;

pub use resolve::{resolve_size_formats, SizeEnv, SizeOption};

/// How a byte count or block count is rendered.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SizeFormat {
    kind: Kind,
    /// A leading `'`: group thousands (the C locale has no separator).
    group: bool,
}

#[derive(Clone, Debug, PartialEq, Eq)]
enum Kind {
    /// `-h` (1024) or `--si` (1000).
    Human { base: u32 },
    /// Units of `size` bytes, followed by `suffix` (`K`, `kB`, `MiB`, …)
    /// when the block size was given as a bare unit.
    Blocks { size: u64, suffix: &'static str },
}

/// An invalid block size; `Display` is GNU's message (without `ls: `).
#[derive(Clone, Debug)]
pub struct BlockSizeError(pub String);

impl std::fmt::Display for BlockSizeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

const PREFIXES: &[u8; 10] = b"KMGTPEZYRQ";

impl SizeFormat {
    /// Parses a `--block-size` argument; errors carry GNU's messages
    /// (`invalid --block-size argument '0'`, `invalid suffix in
    /// --block-size argument '3x'`, `--block-size argument '…' too large`).
    pub fn parse(spec: &str) -> Result<SizeFormat, BlockSizeError> {
        parse::parse_option(spec)
    }

    /// Parses a `LS_BLOCK_SIZE`/`BLOCK_SIZE`/`BLOCKSIZE` value the way ls
    /// does: never an error; an unusable value means the default block
    /// size (512 under `POSIXLY_CORRECT`, else 1024), a bad suffix keeps
    /// the number before it, and an overflow means the largest size.
    pub fn parse_env(spec: &str, posixly_correct: bool) -> SizeFormat {
        parse::parse_env(spec, posixly_correct)
    }

    /// Plain byte counts (the default size column).
    pub fn bytes() -> SizeFormat {
        SizeFormat::blocks_of(1)
    }

    /// `-h`: powers of 1024 (`1.0K`, `10K`, `1.0M`).
    pub fn human_1024() -> SizeFormat {
        SizeFormat {
            kind: Kind::Human { base: 1024 },
            group: false,
        }
    }

    /// `--si`: powers of 1000 (`1.0k`, `10k`, `1.0M`).
    pub fn human_si() -> SizeFormat {
        SizeFormat {
            kind: Kind::Human { base: 1000 },
            group: false,
        }
    }

    /// 1024-byte blocks, the default for `-s` and `total`.
    pub fn kib() -> SizeFormat {
        SizeFormat::blocks_of(1024)
    }

    /// 512-byte blocks (`POSIXLY_CORRECT`).
    pub fn blocks_512() -> SizeFormat {
        SizeFormat::blocks_of(512)
    }

    fn blocks_of(size: u64) -> SizeFormat {
        SizeFormat {
            kind: Kind::Blocks { size, suffix: "" },
            group: false,
        }
    }

    /// Whether sizes are scaled to a unit (`-h`/`--si`).
    pub fn is_human(&self) -> bool {
        matches!(self.kind, Kind::Human { .. })
    }

    /// Appends the size column of `-l` (`bytes` in this format) with
    /// LC_NUMERIC's punctuation.
    pub fn bytes_text(&self, bytes: u64, out: &mut Vec<u8>) {
        self.render_into(u128::from(bytes), crate::sys::numeric::numeric(), out);
    }

    /// Appends the `-s` column or the `total` figure (`blocks512` 512-byte
    /// blocks) with LC_NUMERIC's punctuation.
    pub fn blocks_text(&self, blocks512: u64, out: &mut Vec<u8>) {
        self.render_into(
            u128::from(blocks512) * 512,
            crate::sys::numeric::numeric(),
            out,
        );
    }

    /// `bytes` with the C locale's punctuation.
    #[cfg(test)]
    pub fn format_bytes(&self, bytes: u64) -> String {
        self.render_c(u128::from(bytes))
    }

    /// `blocks512` 512-byte blocks with the C locale's punctuation.
    #[cfg(test)]
    pub fn format_blocks(&self, blocks512: u64) -> String {
        self.render_c(u128::from(blocks512) * 512)
    }

    #[cfg(test)]
    fn render_c(&self, bytes: u128) -> String {
        let mut out = Vec::new();
        self.render_into(bytes, &Numeric::c(), &mut out);
        String::from_utf8(out).expect("ASCII")
    }

    fn render_into(&self, bytes: u128, punct: &Numeric, out: &mut Vec<u8>) {
        let start = out.len();
        let integer_end = match &self.kind {
            Kind::Human { base } => human(bytes, u128::from(*base), &punct.decimal_point, out),
            Kind::Blocks { size, suffix } => {
                let n = bytes.div_ceil(u128::from((*size).max(1)));
                let end = push_decimal(out, n);
                out.extend_from_slice(suffix.as_bytes());
                end
            }
        };
        if self.group {
            group_digits(out, start, integer_end, punct);
        }
    }
}

impl Numeric {
    /// The C locale's punctuation: `.`, no grouping.
    #[cfg(test)]
    pub fn c() -> Numeric {
        Numeric {
            decimal_point: b".".to_vec(),
            thousands_sep: Vec::new(),
            grouping: Vec::new(),
        }
    }
}

/// Puts the locale's thousands separator into the digits
/// `out[start..end]` as GNU's `group_number` does: group sizes from the
/// right as `grouping` lists them, a 0 repeating the last size and
/// CHAR_MAX (or an empty list) leaving the rest whole.
fn group_digits(out: &mut Vec<u8>, start: usize, end: usize, punct: &Numeric) {
    let digits = out[start..end].to_vec();
    let mut groups: Vec<&[u8]> = Vec::new();
    let mut rest = digits.len();
    let mut size = usize::MAX;
    let mut sizes = punct.grouping.iter();
    while rest > 0 {
        match sizes.next() {
            Some(&g) if g > 0 => size = if g < 127 { usize::from(g) } else { rest },
            Some(_) => {}
            None => sizes = [].iter(),
        }
        let n = size.min(rest);
        groups.push(&digits[rest - n..rest]);
        rest -= n;
    }
    groups.reverse();
    let grouped = groups.join(&punct.thousands_sep[..]);
    out.splice(start..end, grouped);
}

/// Appends `n` in decimal (without allocating); returns the new length.
fn push_decimal(out: &mut Vec<u8>, n: u128) -> usize {
    let mut buf = [0u8; 40];
    let mut i = buf.len();
    let mut n = n;
    loop {
        i -= 1;
        buf[i] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    out.extend_from_slice(&buf[i..]);
    out.len()
}

/// Appends a human-readable size: below `base` the plain number; else one
/// decimal while under 10, rounded up, and a unit letter. Returns where
/// the integer part ends.
fn human(bytes: u128, base: u128, point: &[u8], out: &mut Vec<u8>) -> usize {
    let mut exp = 0usize;
    let mut unit = 1u128;
    while exp < PREFIXES.len() && bytes / unit >= base {
        exp += 1;
        unit *= base;
    }
    let letter = |e: usize| {
        let c = PREFIXES[e - 1];
        if base == 1000 && c == b'K' {
            b'k'
        } else {
            c
        }
    };
    let push = push_decimal;
    if exp == 0 {
        return push(out, bytes);
    }
    if bytes / unit < 10 {
        let tenths = (bytes * 10).div_ceil(unit);
        if tenths < 100 {
            let end = push(out, tenths / 10);
            out.extend_from_slice(point);
            out.push(b'0' + (tenths % 10) as u8);
            out.push(letter(exp));
            return end;
        }
        let end = push(out, 10);
        out.push(letter(exp));
        return end;
    }
    let n = bytes.div_ceil(unit);
    if n >= base && exp < PREFIXES.len() {
        let end = push(out, 1);
        out.extend_from_slice(point);
        out.extend_from_slice(&[b'0', letter(exp + 1)]);
        return end;
    }
    let end = push(out, n);
    out.push(letter(exp));
    end
}

#[cfg(test)]
mod tests;
