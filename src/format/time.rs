//! Timestamps: `--time-style` parsing and strftime-like rendering.
#![forbid(unsafe_code)]

/// A resolved `--time-style`.
#[derive(Clone, Debug)]
pub enum TimeStyle {
    FullIso,
    LongIso,
    Iso,
    Locale,
    /// `+FORMAT`, or `+RECENT\nOLD`.
    Custom { recent: Vec<u8>, old: Vec<u8> },
}
