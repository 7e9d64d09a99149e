//! Sizes and block counts: `--block-size`, `-h`, `--si`, `-k`, and the
//! `*BLOCK_SIZE` environment variables.
#![forbid(unsafe_code)]

/// How a byte count or block count is rendered.
#[derive(Clone, Debug)]
pub struct SizeFormat {}

/// An invalid block size; `Display` is GNU's message (without `ls: `).
#[derive(Clone, Debug)]
pub struct BlockSizeError(pub String);

impl std::fmt::Display for BlockSizeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl SizeFormat {
    /// Parses a `--block-size` argument or a `*BLOCK_SIZE` value.
    pub fn parse(spec: &str) -> Result<SizeFormat, BlockSizeError> {
        let _ = spec;
        Ok(SizeFormat {})
    }
}

impl SizeFormat {
    /// Renders a count of 512-byte blocks (`-s`, `total`).
    pub fn format_blocks(&self, blocks512: u64) -> String {
        blocks512.div_ceil(2).to_string()
    }

    /// Renders a size in bytes (the size column of `-l`).
    pub fn format_bytes(&self, bytes: u64) -> String {
        bytes.to_string()
    }
}
