//! The layer that talks to the kernel and the C library (the only one allowed
//! `unsafe`): statx with a computed mask and its fstatat fallback, directory
//! reading with getdents64, writes to standard output, symlink targets, xattr probes, terminal queries
//! and the C library's locale functions.
//!
//! Everything above this module sees typed results: [`Metadata`] with
//! `Option` fields for what the kernel did not return, and `io::Error`s
//! carrying the errno GNU would report.

pub mod alloc;
pub mod dir;
pub mod intl;
pub mod limits;
pub mod locale;
pub mod path;
pub mod remote;
pub mod signals;
pub mod stat;
pub mod stdout;
pub mod term;
pub mod xattr;

pub use stat::{FileType, Metadata, Timestamp};
