//! Sizes and block counts: `--block-size`, `-h`, `--si`, `-k`, and the
//! `*BLOCK_SIZE` environment variables, rendered as GNU ls 9.1 does (sizes
//! divided by the block size and rounded up; human sizes with one decimal
//! below 10, also rounded up).
#![forbid(unsafe_code)]

mod parse;
mod resolve;

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

    /// The size column of `-l`: `bytes` in this format.
    pub fn format_bytes(&self, bytes: u64) -> String {
        self.render(u128::from(bytes))
    }

    /// The `-s` column and the `total` line: `blocks512` 512-byte blocks.
    pub fn format_blocks(&self, blocks512: u64) -> String {
        self.render(u128::from(blocks512) * 512)
    }

    /// [`SizeFormat::format_bytes`] appended to `out` (no allocation in
    /// the common case of plain numbers).
    pub fn format_bytes_into(&self, bytes: u64, out: &mut String) {
        self.render_into(u128::from(bytes), out);
    }

    fn render(&self, bytes: u128) -> String {
        let mut out = String::new();
        self.render_into(bytes, &mut out);
        out
    }

    fn render_into(&self, bytes: u128, out: &mut String) {
        use std::fmt::Write as _;
        match &self.kind {
            Kind::Human { base } => out.push_str(&human(bytes, u128::from(*base))),
            Kind::Blocks { size, suffix } => {
                let n = bytes.div_ceil(u128::from((*size).max(1)));
                if self.group {
                    out.push_str(&grouped(n));
                } else {
                    let _ = write!(out, "{n}");
                }
                out.push_str(suffix);
            }
        }
    }
}

/// `n` with the locale's thousands separator (none in C).
fn grouped(n: u128) -> String {
    let (sep, size) = crate::sys::locale::thousands_grouping();
    let digits = n.to_string();
    if sep.is_empty() || *size == 0 {
        return digits;
    }
    let sep = String::from_utf8_lossy(sep);
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % size == 0 {
            out.push_str(&sep);
        }
        out.push(c);
    }
    out
}

/// A human-readable size: below `base` the plain number; else one
/// decimal while under 10, rounded up, and a unit letter.
fn human(bytes: u128, base: u128) -> String {
    let mut exp = 0usize;
    let mut unit = 1u128;
    while exp < PREFIXES.len() && bytes / unit >= base {
        exp += 1;
        unit *= base;
    }
    if exp == 0 {
        return bytes.to_string();
    }
    let letter = |e: usize| {
        let c = PREFIXES[e - 1];
        char::from(if base == 1000 && c == b'K' { b'k' } else { c })
    };
    if bytes / unit < 10 {
        let tenths = (bytes * 10).div_ceil(unit);
        if tenths < 100 {
            return format!("{}.{}{}", tenths / 10, tenths % 10, letter(exp));
        }
        return format!("10{}", letter(exp));
    }
    let n = bytes.div_ceil(unit);
    if n >= base && exp < PREFIXES.len() {
        return format!("1.0{}", letter(exp + 1));
    }
    format!("{n}{}", letter(exp))
}

#[cfg(test)]
mod tests;
