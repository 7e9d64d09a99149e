//! Sizes and block counts: `--block-size`, `-h`, `--si`, `-k`, and the
//! `*BLOCK_SIZE` environment variables.
#![forbid(unsafe_code)]

/// How a byte count or block count is rendered.
#[derive(Clone, Debug)]
pub struct SizeFormat {}
