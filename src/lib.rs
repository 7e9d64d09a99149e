//! statls: a GNU ls 9.1 compatible `ls` built on minimal statx requests.
//!
//! Data flows one way: `cli` (clap definition) → `config` (typed, resolved
//! from arguments and environment) → `plan` (which statx fields each entry
//! needs) → `sys` (the only module with syscalls, foreign declarations and `unsafe`) → `entry` /
//! `walk` (reading directories, recursion) → `sort` → `format` → `output`.

#![deny(unsafe_code)]

pub mod app;
pub mod cli;
pub mod config;
pub mod entry;
pub mod error;
pub mod format;
pub mod options;
pub mod output;
pub mod plan;
pub mod sort;
#[allow(unsafe_code)]
pub mod sys;
#[cfg(test)]
mod test_child;
pub mod walk;
