//! `LS_COLORS` parsing and choosing the colour of an entry.
#![forbid(unsafe_code)]

/// Parsed `LS_COLORS`.
#[derive(Clone, Debug, Default)]
pub struct ColorTable {}
