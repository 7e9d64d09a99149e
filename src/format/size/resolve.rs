//! Which formats the `-s`/`total` column and the `-l` size column get,
//! from the size options in command-line order and the environment, as
//! GNU ls 9.1 decides:
//!
//! * If any of `-h`, `--si`, `--block-size` was given, the last of them
//!   sets both columns, and `-k` and the environment are ignored.
//! * Otherwise the blocks column comes from the first *set* variable of
//!   `LS_BLOCK_SIZE`, `BLOCK_SIZE`, `BLOCKSIZE` (bad values: see
//!   [`SizeFormat::parse_env`]), else 1024 (512 under `POSIXLY_CORRECT`);
//!   the size column takes the same format when `LS_BLOCK_SIZE` or
//!   `BLOCK_SIZE` is set (even empty or invalid), else plain bytes
//!   (`BLOCKSIZE` never affects it); and then `-k`, anywhere, makes the
//!   blocks column 1024-byte blocks.
#![forbid(unsafe_code)]

use super::SizeFormat;

/// A size-related command-line option, in the order given.
#[derive(Clone, Debug)]
pub enum SizeOption {
    /// `-h`/`--human-readable`.
    Human,
    /// `--si`.
    Si,
    /// `--block-size=SIZE`, already parsed.
    BlockSize(SizeFormat),
    /// `-k`/`--kibibytes`.
    Kibibytes,
}

/// The environment variables involved (`None` when unset).
#[derive(Clone, Debug, Default)]
pub struct SizeEnv<'a> {
    pub ls_block_size: Option<&'a str>,
    pub block_size: Option<&'a str>,
    pub blocksize: Option<&'a str>,
    pub posixly_correct: bool,
}

/// Returns (blocks format for `-s` and `total`, size format for `-l`).
pub fn resolve_size_formats(events: &[SizeOption], env: &SizeEnv) -> (SizeFormat, SizeFormat) {
    let last = events.iter().rev().find_map(|e| match e {
        SizeOption::Human => Some(SizeFormat::human_1024()),
        SizeOption::Si => Some(SizeFormat::human_si()),
        SizeOption::BlockSize(f) => Some(f.clone()),
        SizeOption::Kibibytes => None,
    });
    if let Some(f) = last {
        return (f.clone(), f);
    }
    let spec = env.ls_block_size.or(env.block_size).or(env.blocksize);
    let default = if env.posixly_correct {
        SizeFormat::blocks_512()
    } else {
        SizeFormat::kib()
    };
    let mut blocks = spec.map_or(default, |s| SizeFormat::parse_env(s, env.posixly_correct));
    let files = if env.ls_block_size.is_some() || env.block_size.is_some() {
        blocks.clone()
    } else {
        SizeFormat::bytes()
    };
    if events.iter().any(|e| matches!(e, SizeOption::Kibibytes)) {
        blocks = SizeFormat::kib();
    }
    (blocks, files)
}
