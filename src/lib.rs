//! statls: a GNU ls compatible `ls` (coreutils 8.32 to 9.10) built on minimal statx requests.
//!
//! Data flows one way: `cli` (the option table, getopt) → `config` (one
//! struct, resolved from arguments and environment) → `plan` (which statx
//! fields each entry needs) → `walk` (operands, directories, recursion;
//! threads decided and started by `parallel`) → `sort` → `listing` (the
//! layouts, over the value formatters of `format`) → `output`, with
//! `error`, `entry` and `options` shared below, over `sys` (the kernel and
//! the C library: the only module with foreign declarations and `unsafe`).
//! ARCHITECTURE.md is the map.
//!
//! The library exists for the `ls` binary and its tests: it is not a
//! stable API. What the binary and the integration tests use is public
//! (`app`, the option table in `cli`, `config`); the modules the tests reach
//! into for unit-level checks (`format`, `sys`) and the option value types
//! `config` is made of (`options`) are public but hidden from the
//! documentation; everything else is crate-private.

#![deny(unsafe_code)]

pub mod app;
pub mod cli;
pub mod config;
pub(crate) mod entry;
pub(crate) mod error;
#[doc(hidden)]
pub mod format;
pub mod gnu;
pub(crate) mod listing;
#[doc(hidden)]
pub mod options;
pub(crate) mod output;
pub(crate) mod parallel;
pub(crate) mod plan;
pub(crate) mod sort;
#[doc(hidden)]
#[allow(unsafe_code)]
pub mod sys;
#[cfg(test)]
mod tests;
pub(crate) mod walk;
