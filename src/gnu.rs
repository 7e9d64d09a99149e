//! Which GNU ls statls is: the release emulated (8.32 to 9.10) and every
//! behaviour that changed between those releases, each named once with the
//! release that introduced it.
//!
//! The version is read once (`config`, from `STATLS_GNU_VERSION` or the
//! default fixed at build time) and turned into a [`Gnu`], its set of [`Behaviour`]s; the
//! rest of the program asks for a behaviour by name and never compares
//! version numbers. A release between the tested ones (9.4 of Ubuntu
//! 24.04, 9.5 of RHEL 10) follows from the same table. A leaf: it uses
//! nothing else of the crate.
#![forbid(unsafe_code)]

use std::fmt;

/// A GNU coreutils release, `major.minor`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct GnuVersion {
    major: u8,
    minor: u8,
}

const fn v(major: u8, minor: u8) -> GnuVersion {
    GnuVersion { major, minor }
}

/// The releases statls can be, oldest first.
pub const SUPPORTED: &[GnuVersion] = &[
    v(8, 32),
    v(9, 0),
    v(9, 1),
    v(9, 2),
    v(9, 3),
    v(9, 4),
    v(9, 5),
    v(9, 6),
    v(9, 7),
    v(9, 8),
    v(9, 9),
    v(9, 10),
];

/// The newest release statls knows.
pub const NEWEST: GnuVersion = v(9, 10);

/// The releases of the distributions tested against (Debian 11, 12, 13
/// and sid).
pub const V8_32: GnuVersion = v(8, 32);
pub const V9_1: GnuVersion = v(9, 1);
pub const V9_7: GnuVersion = v(9, 7);
pub const V9_10: GnuVersion = v(9, 10);

impl GnuVersion {
    /// Reads `8.32`, `9.7`, `9.10`, or a patch-level spelling (`9.7.1`
    /// is 9.7); `None` for anything else, or a release not in
    /// [`SUPPORTED`].
    pub fn parse(text: &str) -> Option<GnuVersion> {
        let mut parts = text.split('.');
        let number = |p: Option<&str>| -> Option<u8> {
            let p = p?;
            if p.is_empty() || !p.bytes().all(|b| b.is_ascii_digit()) || p.len() > 3 {
                return None;
            }
            p.parse().ok()
        };
        let major = number(parts.next())?;
        let minor = number(parts.next())?;
        if let Some(patch) = parts.next() {
            number(Some(patch))?;
        }
        if parts.next().is_some() {
            return None;
        }
        let version = v(major, minor);
        SUPPORTED.contains(&version).then_some(version)
    }
}

impl fmt::Display for GnuVersion {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}.{}", self.major, self.minor)
    }
}

/// A behaviour of GNU ls that some of the supported releases have and
/// others do not. [`Behaviour::since`] says from which release on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum Behaviour {
    /// `--zero`: entries end with NUL (9.0).
    ZeroOption,
    /// `--classify[=WHEN]` takes an optional argument (9.0; before, none).
    ClassifyWhen,
    /// `--sort=width` (9.0).
    SortWidth,
    /// `COLUMNS`, `TABSIZE` and `QUOTING_STYLE` are read, and warned
    /// about, only when the output uses them (9.0; 8.32 reads all three at
    /// start-up, before the options, whatever they then say).
    LazyLayoutEnvironment,
    /// A line width too large for `ssize_t` (`-w`, `COLUMNS`) means no
    /// limit, as `-w 0` (9.0; 8.32 kept it as `SIZE_MAX`, still laying out
    /// columns with tabs).
    HugeWidthIsUnlimited,
    /// Column layouts give up tabs only when colours are really written
    /// (9.0; 8.32 as soon as `--color` asked for them, even when `TERM`
    /// then turned them off).
    TabsUnlessColored,
    /// 9.0's message texts where 8.32 said other words (see `config`).
    Messages90,
    /// `--hyperlink` resolves symlinks up to 40 deep; 8.32 followed them
    /// until one came back with the same name left to resolve, which
    /// gives other URLs for symlink loops (9.0).
    HyperlinkCountsLinks,
    /// `%%` with flags, a width or a modifier in a `+FORMAT` is copied as
    /// written (9.0; 8.32 wrote a padded `%`).
    StrftimePercentIsLiteral,
    /// The `-Z` context of an entry that could not be stat'ed is `?` (9.0;
    /// 8.32 printed a null pointer: `(null)`, `0` in the long format).
    UnstattableContextUnknown,
    /// gnulib's version comparison of 9.1 (`a..a` vs `a.+`, whole-name
    /// suffixes such as `.m4`): 9.1 and later.
    VersionSortRewrite,
    /// `.0` sorts before `.A` again in version order (9.2, reverting 9.1).
    VersionSortDigitsBeforeLetters,
    /// `--time=modification` (9.2).
    TimeModificationWord,
    /// `LS_COLORS` suffixes match case-sensitively when two cases have
    /// different colours (9.2).
    ColorSuffixCaseSensitiveWhenDistinct,
    /// A symlink-loop operand is listed as a link, not an error (9.4).
    SymlinkLoopOperandListed,
    /// `--dired` implies the long format and drops hyperlinks (9.5).
    DiredImpliesLong,
    /// `-f` means `-a -U` and nothing more (9.6; before, it also turned
    /// off `-l`, `-s`, `--color` and `--hyperlink` given before it).
    UnsortedIsJustAllUnsorted,
    /// `--sort=name` (9.6).
    SortNameWord,
    /// `--time=mtime` (9.6).
    TimeMtimeWord,
    /// Shell quoting of a name with an escaped first or last character and
    /// single quotes is fixed (9.6).
    ShellQuotingEdgeFix,
    /// A name shown raw with a character `mbsnwidth` cannot measure (a
    /// control, an invalid sequence) in a multibyte locale has width
    /// `(size_t) -1`, which the column layouts add and wrap (9.5; before,
    /// controls counted 0 columns and the rest 1). Dates and sizes the
    /// C library cannot measure are then left unaligned.
    UnmeasurableNamesHaveNoWidth,
    /// gnulib's strings (quotes, argmatch, `write error`) are looked up in
    /// the `gnulib` text domain (9.7).
    GnulibTextDomain,
    /// `error()` diagnostics start with `argv[0]`'s base name (9.7).
    DiagnosticsUseBaseName,
    /// File capabilities colour as `ca` (Debian's 9.7, built with libcap;
    /// Debian's 8.32, 9.1 and 9.10 are not).
    CapabilityColor,
    /// The `-s` column outside `-l` is padded by display width, not bytes
    /// (9.8).
    BlockColumnByDisplayWidth,
    /// gnulib's fallback quotes have no GB18030 case (9.10; before, the
    /// opening one was the bytes A1 07 65).
    Gb18030FallbackQuotesDropped,
    /// `O` on a numeric strftime conversion is ignored (no alternative
    /// digits), and `%OY`, `%Oq`, `%O:z` are valid (9.10).
    StrftimeOIsPlainOnNumbers,
    /// Hyperlinks end with `ESC \` (ST) instead of BEL (9.10).
    HyperlinkEndsWithST,
}

use Behaviour as B;

/// Every behaviour, with the first release that has it (and, for a build
/// property rather than a code change, the last).
const TABLE: &[(Behaviour, GnuVersion, GnuVersion)] = &[
    (B::ZeroOption, v(9, 0), NEWEST),
    (B::ClassifyWhen, v(9, 0), NEWEST),
    (B::SortWidth, v(9, 0), NEWEST),
    (B::LazyLayoutEnvironment, v(9, 0), NEWEST),
    (B::HugeWidthIsUnlimited, v(9, 0), NEWEST),
    (B::TabsUnlessColored, v(9, 0), NEWEST),
    (B::Messages90, v(9, 0), NEWEST),
    (B::HyperlinkCountsLinks, v(9, 0), NEWEST),
    (B::StrftimePercentIsLiteral, v(9, 0), NEWEST),
    (B::UnstattableContextUnknown, v(9, 0), NEWEST),
    (B::VersionSortRewrite, v(9, 1), NEWEST),
    (B::VersionSortDigitsBeforeLetters, v(9, 2), NEWEST),
    (B::TimeModificationWord, v(9, 2), NEWEST),
    (B::ColorSuffixCaseSensitiveWhenDistinct, v(9, 2), NEWEST),
    (B::SymlinkLoopOperandListed, v(9, 4), NEWEST),
    (B::DiredImpliesLong, v(9, 5), NEWEST),
    (B::UnsortedIsJustAllUnsorted, v(9, 6), NEWEST),
    (B::SortNameWord, v(9, 6), NEWEST),
    (B::TimeMtimeWord, v(9, 6), NEWEST),
    (B::ShellQuotingEdgeFix, v(9, 6), NEWEST),
    (B::UnmeasurableNamesHaveNoWidth, v(9, 5), NEWEST),
    (B::GnulibTextDomain, v(9, 7), NEWEST),
    (B::DiagnosticsUseBaseName, v(9, 7), NEWEST),
    (B::CapabilityColor, v(9, 7), v(9, 7)),
    (B::BlockColumnByDisplayWidth, v(9, 8), NEWEST),
    (B::Gb18030FallbackQuotesDropped, v(9, 10), NEWEST),
    (B::StrftimeOIsPlainOnNumbers, v(9, 10), NEWEST),
    (B::HyperlinkEndsWithST, v(9, 10), NEWEST),
];

impl Behaviour {
    /// The first release that has this behaviour.
    pub fn since(self) -> GnuVersion {
        TABLE
            .iter()
            .find(|(b, _, _)| *b == self)
            .map_or(NEWEST, |(_, since, _)| *since)
    }
}

/// The GNU ls being emulated: its release and what it does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Gnu {
    pub version: GnuVersion,
    set: u64,
}

impl Gnu {
    pub fn new(version: GnuVersion) -> Gnu {
        let set = TABLE
            .iter()
            .filter(|(_, since, until)| *since <= version && version <= *until)
            .fold(0, |set, (b, _, _)| set | 1 << *b as u8);
        Gnu { version, set }
    }

    /// Whether the emulated release behaves so.
    pub fn has(self, behaviour: Behaviour) -> bool {
        self.set & 1 << behaviour as u8 != 0
    }

    /// The release chosen when the program was built:
    /// `STATLS_GNU_VERSION` in the build environment, else the GNU ls of
    /// the build machine, else the newest (build.rs).
    pub fn built_in() -> Gnu {
        Gnu::new(GnuVersion::parse(env!("STATLS_DEFAULT_GNU_VERSION")).unwrap_or(NEWEST))
    }

    /// `STATLS_GNU_VERSION` at run time, when set, over the built-in
    /// default; a value that names no supported release is the warning
    /// to print (one line, without the program name) and the default.
    pub fn from_env(value: Option<&[u8]>) -> (Gnu, Option<String>) {
        let default = Gnu::built_in();
        let Some(value) = value else {
            return (default, None);
        };
        match std::str::from_utf8(value).ok().and_then(GnuVersion::parse) {
            Some(version) => (Gnu::new(version), None),
            None => (
                default,
                Some(format!(
                    "warning: ignoring STATLS_GNU_VERSION={}: not a GNU ls release statls \
                     emulates ({} to {}); emulating {}",
                    String::from_utf8_lossy(value).escape_debug(),
                    SUPPORTED[0],
                    NEWEST,
                    default.version
                )),
            ),
        }
    }
}

impl Default for Gnu {
    fn default() -> Gnu {
        Gnu::built_in()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn versions_parse_with_and_without_a_patch_level() {
        assert_eq!(GnuVersion::parse("8.32"), Some(v(8, 32)));
        assert_eq!(GnuVersion::parse("9.10"), Some(v(9, 10)));
        assert_eq!(GnuVersion::parse("9.7.1"), Some(v(9, 7)));
        for bad in [
            "", "9", "9.", "9.11", "8.31", "9.1.x", "9.1.2.3", "v9.1", " 9.1", "9.01x",
        ] {
            assert_eq!(GnuVersion::parse(bad), None, "{bad:?}");
        }
    }

    #[test]
    fn nine_point_ten_sorts_after_nine_point_nine() {
        assert!(v(9, 10) > v(9, 9) && v(9, 1) < v(9, 2) && v(8, 32) < v(9, 0));
    }

    #[test]
    fn behaviours_follow_the_release() {
        let old = Gnu::new(v(8, 32));
        let nine_one = Gnu::new(v(9, 1));
        let newest = Gnu::new(NEWEST);
        assert!(!old.has(B::ZeroOption) && nine_one.has(B::ZeroOption));
        assert!(!nine_one.has(B::DiredImpliesLong) && newest.has(B::DiredImpliesLong));
        assert!(Gnu::new(v(9, 5)).has(B::DiredImpliesLong));
        assert!(!Gnu::new(v(9, 4)).has(B::DiredImpliesLong));
        assert!(Gnu::new(v(9, 7)).has(B::CapabilityColor));
        assert!(!newest.has(B::CapabilityColor) && !old.has(B::CapabilityColor));
        assert_eq!(B::SymlinkLoopOperandListed.since(), v(9, 4));
    }

    #[test]
    fn every_behaviour_is_in_the_table_once() {
        for (i, (b, since, until)) in TABLE.iter().enumerate() {
            assert_eq!(*b as usize, i, "{b:?} out of order");
            assert!(since <= until && SUPPORTED.contains(since));
        }
    }

    #[test]
    fn a_bad_value_is_a_warning_and_the_default() {
        let (gnu, warning) = Gnu::from_env(Some(b"bogus"));
        assert_eq!(gnu, Gnu::built_in());
        let warning = warning.unwrap();
        assert!(warning.contains("STATLS_GNU_VERSION=bogus"), "{warning}");
        assert!(!warning.contains('\n'));
        assert_eq!(Gnu::from_env(Some(b"9.7.2")).0.version, v(9, 7));
    }
}
