//! GNU ls 9.1 colours: parsing `LS_COLORS`, deciding which files must be
//! stat'ed for their colour, choosing the colour of a name, and (in
//! `paint`) writing the escape sequences around it.
//!
//! # Deciding whether colours are on
//! `--color=always`, or `--color=auto` with stdout a terminal, *asks* for
//! colour; then [`ColorTable::from_env`] decides: a non-empty `LS_COLORS` is
//! parsed (unparsable: warnings, colour off); an unset or empty one gives
//! the built-in table only if `COLORTERM` is non-empty or `TERM` is a known
//! terminal ([`env_allows_builtin`]), else colour is silently off. When
//! colour is on, GNU writes no tabs in column output (tab size 0).
//!
//! # What must be stat'ed (GNU's rules, mirrored exactly)
//! - [`ColorTable::needs_stat`]: whether an entry whose type is known from
//!   `d_type` must be (l)stat'ed for its colour. A regular file only when
//!   `ex`, `su` or `sg` is coloured; a directory only when `tw`, `ow` or `st`
//!   is; a symlink only when `ln=target` or `or` is coloured; an unknown
//!   type always; fifos, sockets and devices never. `mh` and `ca` never
//!   cause a stat: GNU applies them only to files stat'ed anyway.
//! - [`ColorTable::needs_nlink`]: when a regular file is stat'ed anyway,
//!   also ask for `st_nlink` (`mh` is coloured).
//! - [`ColorTable::needs_capability`]: whether to probe regular files for
//!   capabilities: only for a GNU built with libcap (Debian's 9.7), and
//!   only when `ca` is coloured (it is not by default).
//! - [`ColorTable::needs_link_target`]: whether symlink targets must be
//!   stat'ed (following the link) for colours (GNU's `check_symlink_mode`).
//!   In `-l`, GNU also stats targets when `--file-type`/`-F` is in effect.
#![forbid(unsafe_code)]

mod paint;
mod parse;
mod suffix;
mod term;
#[cfg(test)]
mod tests;

pub use paint::Painter;
pub use parse::ColorWarning;
pub use term::env_allows_builtin;

use crate::sys::{FileType, Metadata};
use suffix::Suffixes;

/// GNU's indicators, in GNU's order (the order of [`IND_NAMES`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ind {
    Lc,
    Rc,
    Ec,
    Rs,
    No,
    Fi,
    Di,
    Ln,
    Pi,
    So,
    Bd,
    Cd,
    Mi,
    Or,
    Ex,
    Do,
    Su,
    Sg,
    St,
    Ow,
    Tw,
    Ca,
    Mh,
    Cl,
}

const IND_COUNT: usize = 24;

/// The two-letter names `LS_COLORS` accepts (case-sensitive).
pub const IND_NAMES: [[u8; 2]; IND_COUNT] = [
    *b"lc", *b"rc", *b"ec", *b"rs", *b"no", *b"fi", *b"di", *b"ln", *b"pi", *b"so", *b"bd", *b"cd",
    *b"mi", *b"or", *b"ex", *b"do", *b"su", *b"sg", *b"st", *b"ow", *b"tw", *b"ca", *b"mh", *b"cl",
];

impl Ind {
    pub const ALL: [Ind; IND_COUNT] = [
        Ind::Lc,
        Ind::Rc,
        Ind::Ec,
        Ind::Rs,
        Ind::No,
        Ind::Fi,
        Ind::Di,
        Ind::Ln,
        Ind::Pi,
        Ind::So,
        Ind::Bd,
        Ind::Cd,
        Ind::Mi,
        Ind::Or,
        Ind::Ex,
        Ind::Do,
        Ind::Su,
        Ind::Sg,
        Ind::St,
        Ind::Ow,
        Ind::Tw,
        Ind::Ca,
        Ind::Mh,
        Ind::Cl,
    ];
}

/// GNU's built-in values (used when `LS_COLORS` is unset or empty, and as
/// the base that `LS_COLORS` items override). `None`: no colour.
const BUILTIN: [(Ind, &[u8]); 16] = [
    (Ind::Lc, b"\x1b["),
    (Ind::Rc, b"m"),
    (Ind::Rs, b"0"),
    (Ind::Di, b"01;34"),
    (Ind::Ln, b"01;36"),
    (Ind::Pi, b"33"),
    (Ind::So, b"01;35"),
    (Ind::Bd, b"01;33"),
    (Ind::Cd, b"01;33"),
    (Ind::Ex, b"01;32"),
    (Ind::Do, b"01;35"),
    (Ind::Su, b"37;41"),
    (Ind::Sg, b"30;43"),
    (Ind::St, b"37;44"),
    (Ind::Ow, b"34;42"),
    (Ind::Tw, b"30;42"),
];

const CLEAR_TO_EOL: &[u8] = b"\x1b[K";

/// A parsed colour table (built-in defaults overridden by `LS_COLORS`).
#[derive(Clone, Debug)]
pub struct ColorTable {
    ind: [Option<Vec<u8>>; IND_COUNT],
    /// `is_colored` of each indicator, precomputed for per-entry lookups.
    colored: [bool; IND_COUNT],
    suffixes: Suffixes,
    /// `ln=target`: symlinks take the colour of what they point to.
    ln_target: bool,
    /// The emulated build detects file capabilities (`ca`).
    capabilities: bool,
}

impl Default for ColorTable {
    fn default() -> ColorTable {
        ColorTable::builtin()
    }
}

/// What the colour of one name depends on. Fields the table does not need
/// (see [`ColorTable::needs_stat`]) may be left `None`/`false`.
#[derive(Clone, Copy, Debug)]
pub struct ColorSubject<'a> {
    /// The name as stored (not quoted); suffix patterns match its end.
    pub name: &'a [u8],
    /// The type from `d_type`, or from the stat when there was one.
    pub file_type: FileType,
    /// Full `st_mode` (type bits included) when the entry was stat'ed
    /// successfully (lstat unless dereferencing). `None`: not stat'ed or
    /// the stat failed; the colour then follows `file_type` only.
    pub mode: Option<u32>,
    /// The entry's own `st_nlink` (`mh`), when known.
    pub nlink: Option<u64>,
    /// Has file capabilities (`ca`); see [`ColorTable::needs_capability`].
    pub capability: bool,
    /// For a symlink: the `st_mode` of its target when the target was
    /// stat'ed and that succeeded (GNU's `linkok`). `None`: not stat'ed
    /// or dangling.
    pub target_mode: Option<u32>,
}

impl<'a> ColorSubject<'a> {
    /// A subject known only by name and type (no stat).
    pub fn new(name: &'a [u8], file_type: FileType) -> ColorSubject<'a> {
        ColorSubject {
            name,
            file_type,
            mode: None,
            nlink: None,
            capability: false,
            target_mode: None,
        }
    }

    /// From what the fs layer returned: `meta` is the entry's own stat
    /// (`None`: not stat'ed or failed), `target` the stat of a symlink's
    /// target (`None`: not stat'ed or dangling). `meta.mode` must be the
    /// full `st_mode` (permission bits included) when present.
    pub fn from_metadata(
        name: &'a [u8],
        d_type: FileType,
        meta: Option<&Metadata>,
        target: Option<&Metadata>,
    ) -> ColorSubject<'a> {
        ColorSubject {
            name,
            file_type: meta.and_then(|m| m.file_type()).unwrap_or(d_type),
            mode: meta.and_then(|m| m.mode()),
            nlink: meta.and_then(|m| m.nlink()),
            capability: false,
            target_mode: target.and_then(|m| m.mode()),
        }
    }
}

impl ColorTable {
    /// GNU's built-in table.
    pub fn builtin() -> ColorTable {
        let mut table = ColorTable {
            ind: Default::default(),
            colored: [false; IND_COUNT],
            suffixes: Suffixes::default(),
            ln_target: false,
            capabilities: false,
        };
        for (i, v) in BUILTIN {
            table.set(i, v.to_vec());
        }
        table.set(Ind::Cl, CLEAR_TO_EOL.to_vec());
        table
    }

    fn set(&mut self, ind: Ind, value: Vec<u8>) {
        let colored = !matches!(value.as_slice(), b"" | b"0" | b"00");
        if let Some(slot) = self.colored.get_mut(ind as usize) {
            *slot = colored;
        }
        if let Some(slot) = self.ind.get_mut(ind as usize) {
            *slot = Some(value);
        }
    }

    /// Parses a non-empty `LS_COLORS` value over the built-in table.
    /// `Err` holds the warnings GNU prints (each as `ls: ` + message);
    /// colour is then off.
    pub fn parse(value: &[u8]) -> Result<ColorTable, Vec<ColorWarning>> {
        ColorTable::parse_with(value, false)
    }

    /// [`ColorTable::parse`], with 9.2's rule for suffixes that differ
    /// only in case when `case_pairs` (see `suffix`).
    pub fn parse_with(value: &[u8], case_pairs: bool) -> Result<ColorTable, Vec<ColorWarning>> {
        let parsed = parse::parse(value)?;
        let mut table = ColorTable::builtin();
        for (i, v) in parsed.indicators {
            table.set(i, v);
        }
        table.suffixes = Suffixes::new(parsed.suffixes, case_pairs);
        table.ln_target = table.get(Ind::Ln) == Some(b"target");
        Ok(table)
    }

    /// The whole decision once colour was asked for (`--color=always`, or
    /// `auto` on a tty): `None` means colour is off. Warnings are to be
    /// printed in order as `ls: MESSAGE` (exit status unaffected).
    pub fn from_env(
        ls_colors: Option<&[u8]>,
        colorterm: Option<&[u8]>,
        term: Option<&[u8]>,
    ) -> (Option<ColorTable>, Vec<ColorWarning>) {
        ColorTable::from_env_with(ls_colors, colorterm, term, false)
    }

    /// [`ColorTable::from_env`] with [`ColorTable::parse_with`]'s rule.
    pub fn from_env_with(
        ls_colors: Option<&[u8]>,
        colorterm: Option<&[u8]>,
        term: Option<&[u8]>,
        case_pairs: bool,
    ) -> (Option<ColorTable>, Vec<ColorWarning>) {
        match ls_colors {
            Some(v) if !v.is_empty() => match ColorTable::parse_with(v, case_pairs) {
                Ok(t) => (Some(t), Vec::new()),
                Err(w) => (None, w),
            },
            _ if env_allows_builtin(colorterm, term) => (Some(ColorTable::builtin()), Vec::new()),
            _ => (None, Vec::new()),
        }
    }

    /// An indicator's value (`None`: unset, i.e. GNU's NULL).
    pub fn get(&self, ind: Ind) -> Option<&[u8]> {
        self.ind.get(ind as usize)?.as_deref()
    }

    /// GNU's `is_colored`: set and not empty, `0` or `00`.
    pub fn is_colored(&self, ind: Ind) -> bool {
        self.colored.get(ind as usize).copied().unwrap_or(false)
    }

    /// `ln=target` is in effect.
    pub fn ln_target(&self) -> bool {
        self.ln_target
    }

    /// Whether an entry of this `d_type` must be stat'ed for its colour
    /// (see the module docs). Symlinks: the lstat GNU does when
    /// `ln=target` or `or` is coloured; their targets are separate
    /// ([`ColorTable::needs_link_target`]).
    pub fn needs_stat(&self, file_type: FileType) -> bool {
        match file_type {
            FileType::Regular => {
                self.any_colored(&[Ind::Ex, Ind::Su, Ind::Sg]) || self.needs_capability()
            }
            FileType::Directory => self.any_colored(&[Ind::Tw, Ind::Ow, Ind::St]),
            FileType::Symlink => self.ln_target || self.is_colored(Ind::Or),
            FileType::Unknown => true,
            _ => false,
        }
    }

    /// Same as [`ColorTable::needs_stat`] (kept for the original API).
    pub fn needs_mode(&self, file_type: FileType) -> bool {
        self.needs_stat(file_type)
    }

    /// When a regular file is stat'ed, whether to also ask for `st_nlink`.
    pub fn needs_nlink(&self) -> bool {
        self.is_colored(Ind::Mh)
    }

    /// Whether to probe `security.capability`: for a GNU built with
    /// libcap (see [`ColorTable::with_capabilities`]) when `ca` is coloured.
    pub fn needs_capability(&self) -> bool {
        self.capabilities && self.is_colored(Ind::Ca)
    }

    /// The table of a GNU ls built with libcap (Debian's 9.7), which
    /// colours files with capabilities `ca`; the others never do.
    pub fn with_capabilities(mut self, detected: bool) -> ColorTable {
        self.capabilities = detected;
        self
    }

    /// GNU's `check_symlink_mode`: stat each symlink's target (following
    /// it) and pass its mode as [`ColorSubject::target_mode`]. True when
    /// `or` is coloured, or `ln=target` with `ex` coloured, or in the long
    /// format when `mi` is coloured.
    pub fn needs_link_target(&self, long_format: bool) -> bool {
        self.is_colored(Ind::Or)
            || (self.ln_target && self.is_colored(Ind::Ex))
            || (long_format && self.is_colored(Ind::Mi))
    }

    fn any_colored(&self, inds: &[Ind]) -> bool {
        inds.iter().any(|&i| self.is_colored(i))
    }

    /// The SGR parameters for an entry's name (`None`: write it plain).
    pub fn style(&self, s: &ColorSubject) -> Option<&[u8]> {
        let linkok = s.target_mode.is_some();
        let mut kind = match s.mode {
            None => kind_of_type(s.file_type),
            Some(m) => {
                let m = match s.target_mode {
                    Some(t) if self.ln_target => t,
                    _ => m,
                };
                self.kind_of_mode(m, s.nlink, s.capability)
            }
        };
        if kind == Ind::Ln && !linkok && (self.ln_target || self.is_colored(Ind::Or)) {
            kind = Ind::Or;
        }
        self.finish_style(kind, s.name)
    }

    /// The SGR parameters for a symlink's target name in `-l`
    /// (`link -> TARGET`): `mi` when the target was not stat'ed or is
    /// missing and `mi` is coloured; else the target's type colour (`or`
    /// when not stat'ed), suffix patterns matching `target_name`. `link`
    /// is the symlink entry itself.
    pub fn target_style(&self, link: &ColorSubject, target_name: &[u8]) -> Option<&[u8]> {
        let missing = link.target_mode.is_none();
        if missing && self.is_colored(Ind::Mi) {
            return self.get(Ind::Mi);
        }
        let mut kind = match link.mode {
            None => kind_of_type(link.file_type),
            Some(_) => {
                self.kind_of_mode(link.target_mode.unwrap_or(0), link.nlink, link.capability)
            }
        };
        if kind == Ind::Ln && !missing && (self.ln_target || self.is_colored(Ind::Or)) {
            kind = Ind::Or;
        }
        self.finish_style(kind, target_name)
    }

    /// Applies suffix patterns (regular files only) and looks the value up.
    fn finish_style(&self, kind: Ind, name: &[u8]) -> Option<&[u8]> {
        if kind == Ind::Fi {
            if let Some(seq) = self.suffixes.lookup(name) {
                return Some(seq);
            }
        }
        self.get(kind)
    }

    /// GNU's precedence for a stat'ed file.
    fn kind_of_mode(&self, mode: u32, nlink: Option<u64>, capability: bool) -> Ind {
        match FileType::from_mode(mode) {
            FileType::Regular => self.regular_kind(mode, nlink, capability),
            FileType::Directory => self.dir_kind(mode),
            FileType::Unknown => Ind::Or,
            other => kind_of_type(other),
        }
    }

    fn regular_kind(&self, mode: u32, nlink: Option<u64>, capability: bool) -> Ind {
        if mode & 0o4000 != 0 && self.is_colored(Ind::Su) {
            Ind::Su
        } else if mode & 0o2000 != 0 && self.is_colored(Ind::Sg) {
            Ind::Sg
        } else if capability && self.is_colored(Ind::Ca) {
            Ind::Ca
        } else if mode & 0o111 != 0 && self.is_colored(Ind::Ex) {
            Ind::Ex
        } else if nlink.is_some_and(|n| n > 1) && self.is_colored(Ind::Mh) {
            Ind::Mh
        } else {
            Ind::Fi
        }
    }

    fn dir_kind(&self, mode: u32) -> Ind {
        let sticky = mode & 0o1000 != 0;
        let other_writable = mode & 0o002 != 0;
        if sticky && other_writable && self.is_colored(Ind::Tw) {
            Ind::Tw
        } else if other_writable && self.is_colored(Ind::Ow) {
            Ind::Ow
        } else if sticky && self.is_colored(Ind::St) {
            Ind::St
        } else {
            Ind::Di
        }
    }
}

/// The indicator for a type known without a stat (from `d_type`).
fn kind_of_type(t: FileType) -> Ind {
    match t {
        FileType::Regular => Ind::Fi,
        FileType::Directory => Ind::Di,
        FileType::Symlink => Ind::Ln,
        FileType::Fifo => Ind::Pi,
        FileType::Socket => Ind::So,
        FileType::BlockDevice => Ind::Bd,
        FileType::CharDevice => Ind::Cd,
        FileType::Door => Ind::Do,
        FileType::Unknown => Ind::Or,
    }
}

/// `--color=auto`: GNU 9.1 colours iff stdout is a terminal and
/// [`ColorTable::from_env`] then yields a table (`LS_COLORS` non-empty and
/// parsable, or `COLORTERM` non-empty, or a known `TERM`; `TERM=dumb` or
/// unset without `LS_COLORS`/`COLORTERM` means no colour).
pub fn auto_wants_color(
    stdout_is_tty: bool,
    ls_colors: Option<&[u8]>,
    colorterm: Option<&[u8]>,
    term: Option<&[u8]>,
) -> bool {
    stdout_is_tty && ColorTable::from_env(ls_colors, colorterm, term).0.is_some()
}
