//! Which directory entries are listed: `-a`, `-A`, `-B`, `-I`, `--hide`.
#![forbid(unsafe_code)]

use crate::config::Config;
use crate::options::Hidden;
use crate::sys::fnmatch::Pattern;

/// What is left out of a listing; patterns match as the C library's
/// `fnmatch(pattern, name, FNM_PERIOD)`, as in GNU ls.
pub struct Filter {
    hidden: Hidden,
    ignore_backups: bool,
    ignore: Vec<Pattern>,
    hide: Vec<Pattern>,
}

fn patterns(list: &[Vec<u8>]) -> Vec<Pattern> {
    list.iter().filter_map(|p| Pattern::new(p)).collect()
}

impl Filter {
    pub fn new(config: &Config) -> Filter {
        Filter {
            hidden: config.hidden,
            ignore_backups: config.ignore_backups,
            ignore: patterns(&config.ignore),
            hide: patterns(&config.hide),
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
        if self.hidden == Hidden::Skip && self.hide.iter().any(|p| p.matches_period(name)) {
            return false;
        }
        if self.ignore_backups && name.last() == Some(&b'~') {
            return false;
        }
        !self.ignore.iter().any(|p| p.matches_period(name))
    }
}
