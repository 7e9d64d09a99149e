//! statls: a GNU ls 9.1 compatible `ls` built on minimal statx requests.
//!
//! Data flows one way: `cli` (the option table, getopt) → `config` (one
//! struct, resolved from arguments and environment) → `plan` (which statx
//! fields each entry needs) → `walk` (operands, directories, recursion;
//! threads decided and started by `parallel`) → `sort` → `listing` (the
//! layouts, over the value formatters of `format`) → `output`, with
//! `error`, `entry` and `options` shared below, over `sys` (the kernel and
//! the C library: the only module with foreign declarations and `unsafe`).
//! ARCHITECTURE.md is the map.

#![deny(unsafe_code)]

pub mod app;
pub mod cli;
pub mod config;
pub mod entry;
pub mod error;
pub mod format;
pub mod listing;
pub mod options;
pub mod output;
pub mod parallel;
pub mod plan;
pub mod sort;
#[allow(unsafe_code)]
pub mod sys;
#[cfg(test)]
mod test_child;
pub mod walk;
