//! The option value types shared by every stage: what `cli` parses
//! arguments into, `config` resolves and `format` acts on. A leaf: it uses
//! nothing else of the crate, so the flow stays one way, cli -> config ->
//! format.
#![forbid(unsafe_code)]

/// How entries are laid out (`--format`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// `-l`: one entry per line with metadata.
    Long,
    /// `-1`: one name per line.
    OneLine,
    /// `-C`: columns, filled top to bottom.
    Vertical,
    /// `-x`: columns, filled left to right.
    Horizontal,
    /// `-m`: comma separated.
    Commas,
}

/// Which entries whose names start with `.` are listed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Hidden {
    /// Default: no dot files.
    Skip,
    /// `-A`: dot files but not `.` and `..`.
    AlmostAll,
    /// `-a`: everything, `.` and `..` included.
    All,
}

/// `--sort` keys.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SortKey {
    Name,
    None,
    Size,
    Time,
    Version,
    Extension,
    Width,
}

/// Which timestamp is shown and/or sorted by (`-u`, `-c`, `--time`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TimeField {
    Modification,
    Access,
    Change,
    Birth,
}

/// `--indicator-style`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum IndicatorStyle {
    None,
    /// `-p`: `/` after directories.
    Slash,
    /// `--file-type`: like classify without `*`.
    FileType,
    /// `-F`: `*/=>@|`.
    Classify,
}

/// When symbolic links are followed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dereference {
    /// `-l`, `-d`, `-F`, … without `-H`/`-L`: never.
    Never,
    /// `-H`: command-line operands only.
    CommandLine,
    /// The default without `-l`/`-d`/`-F`/`--color`-less classifying: command
    /// line symlinks that point to directories are listed as directories.
    CommandLineDirs,
    /// `-L`: always.
    Always,
}

/// `--quoting-style` values.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum QuotingStyle {
    Literal,
    Shell,
    ShellAlways,
    ShellEscape,
    ShellEscapeAlways,
    C,
    CMaybe,
    Escape,
    Locale,
    CLocale,
}

impl QuotingStyle {
    /// Styles that quote only the names that need it. In column and long
    /// listings GNU ls then indents the unquoted names by one space when
    /// some name of the same listing got quotes (see `format::quote::Quoted`).
    pub fn aligns_quotes(self) -> bool {
        matches!(
            self,
            QuotingStyle::Shell | QuotingStyle::ShellEscape | QuotingStyle::CMaybe
        )
    }
}

/// `--color`, `--hyperlink`, `--classify` arguments.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum When {
    Always,
    Never,
    Auto,
}
