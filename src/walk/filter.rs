//! Which directory entries are listed: `-a`, `-A`, `-B`, `-I`, `--hide`.
#![forbid(unsafe_code)]

use crate::config::Config;
use crate::options::Hidden;

mod fnmatch;

pub use fnmatch::fnmatch_period;

pub struct Filter<'a> {
    hidden: Hidden,
    ignore_backups: bool,
    ignore: &'a [Vec<u8>],
    hide: &'a [Vec<u8>],
    /// Patterns match characters, not bytes, in UTF-8 locales.
    utf8: bool,
}

impl<'a> Filter<'a> {
    pub fn new(config: &'a Config) -> Filter<'a> {
        Filter {
            hidden: config.hidden,
            ignore_backups: config.ignore_backups,
            ignore: &config.ignore,
            hide: &config.hide,
            utf8: config.utf8,
        }
    }

    /// Whether `name` is listed.
    pub fn keep(&self, name: &[u8]) -> bool {
        if name.first() == Some(&b'.') {
            match self.hidden {
                Hidden::Skip => return false,
                Hidden::AlmostAll if name == b"." || name == b".." => return false,
                _ => {}
            }
        }
        if self.hidden == Hidden::Skip
            && self.hide.iter().any(|p| fnmatch_period(p, name, self.utf8))
        {
            return false;
        }
        if self.ignore_backups && name.last() == Some(&b'~') {
            return false;
        }
        !self
            .ignore
            .iter()
            .any(|p| fnmatch_period(p, name, self.utf8))
    }
}
